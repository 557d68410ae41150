/* results/shards.c - the shards of one campaign (`kbench run --shard K/N`,
 * runner/plan.h) read back as the one campaign they split; see
 * results/model.h. */
#include "results/model.h"
#include "lib/err.h"
#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The campaign's "shard" object of a results model, or NULL. */
static json_t *shard_of(json_t *model)
{
	json_t *sh = json_object_get(json_object_get(model, "campaign"),
				     "shard");

	return json_is_object(sh) ? sh : NULL;
}

static unsigned shard_int(json_t *sh, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(sh, key));

	return v > 0 && v <= 1000000 ? (unsigned)v : 0;
}

int results_is_shard(json_t *model)
{
	return shard_of(model) != NULL;
}

/* 1 when a and b are shards of one campaign: the same kernels.conf text
 * (its SHA-256, recorded by `kbench run --shard`) and the same N. */
static int same_campaign(json_t *a, json_t *b)
{
	json_t *sa = shard_of(a), *sb = shard_of(b);
	const char *ha = json_string_value(json_object_get(sa, "conf_sha256"));
	const char *hb = json_string_value(json_object_get(sb, "conf_sha256"));

	return sa && sb && ha && hb && !strcmp(ha, hb) &&
	       shard_int(sa, "n") == shard_int(sb, "n");
}

/* The directory part of path ("." when none), malloc'd. */
static char *parent_of(const char *path)
{
	char *p = kb_xstrdup(path);
	size_t l = strlen(p);
	char *slash;

	while (l > 1 && p[l - 1] == '/')
		p[--l] = '\0';
	slash = strrchr(p, '/');
	if (!slash) {
		free(p);
		return kb_xstrdup(".");
	}
	if (slash == p)
		slash[1] = '\0';
	else
		*slash = '\0';
	return p;
}

/* The merged campaign's name: the basename of the directory that holds
 * every shard directory (results/NAME/shard-K: NAME), else the first
 * shard's name with "(N shards)". */
static char *merged_name(json_t *const *models, const char *const *names,
			 size_t n)
{
	char *first = parent_of(names[0]), *name, *p;
	const char *base;
	size_t i;
	int common = strcmp(first, ".") != 0;

	for (i = 0; i < n && common; i++) {
		size_t l = strlen(names[i]);

		/* results.json exports (--from-json): no directory name */
		if (l >= 5 && !strcmp(names[i] + l - 5, ".json")) {
			common = 0;
			break;
		}
		p = parent_of(names[i]);
		common = !strcmp(p, first);
		free(p);
	}
	if (common && strcmp(first, "/")) {
		base = strrchr(first, '/');
		name = kb_xstrdup(base ? base + 1 : first);
	} else {
		name = kb_xasprintf("%s (%zu shards)", json_string_value(
			json_object_get(json_object_get(models[0], "campaign"),
					"name")) ?: names[0], n);
	}
	free(first);
	return name;
}

/* What differs between shard environments that a reader must know: the
 * rounds of different shards ran on different machines. */
static void warn_environments(json_t *const *by_k, const char *const *nm,
			      unsigned n)
{
	static const char *const keys[] = { "cpu_model", "kernel_release",
					    "fio_version" };
	json_t *e0 = json_object_get(json_object_get(by_k[0], "campaign"),
				     "environment"), *ek;
	size_t i;
	unsigned k;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v0 = json_string_value(json_object_get(e0, keys[i]));

		for (k = 1; k < n; k++) {
			const char *vk;

			ek = json_object_get(json_object_get(by_k[k],
						"campaign"), "environment");
			vk = json_string_value(json_object_get(ek, keys[i]));
			if ((!v0 && !vk) || (v0 && vk && !strcmp(v0, vk)))
				continue;
			kb_warn("the shards' environments differ: %s is '%s' "
				"in shard 1/%u (%s) but '%s' in shard %u/%u "
				"(%s); each round still ran on one machine, but "
				"the spread between rounds now includes the "
				"machines' difference", keys[i], v0 ? v0 : "n/a",
				n, nm[0], vk ? vk : "n/a", k + 1, n, nm[k]);
		}
	}
}

struct ordered {
	json_t *run;
	long long iteration;
	unsigned k;
	size_t pos;
};

/* The unsplit campaign's order: by iteration (round), then shard, then
 * the shard's own run order (the same as the unsplit plan's inside a
 * round). */
static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->iteration != y->iteration)
		return x->iteration < y->iteration ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

json_t *results_merge_shards(json_t *const *models, const char *const *names,
			     size_t n)
{
	json_t *sh0 = shard_of(models[0]), **by_k, *camp, *out, *runs, *r;
	json_t *from, *envs;
	const char **nm;
	unsigned nshards = shard_int(sh0, "n"), k;
	struct ordered *o = NULL;
	size_t i, j, no = 0;
	char *name, *missing = NULL;

	if (!nshards) {
		kb_error("%s: malformed \"shard\" in its campaign (no n)",
			 names[0]);
		return NULL;
	}
	by_k = kb_xcalloc(nshards, sizeof(*by_k));
	nm = kb_xcalloc(nshards, sizeof(*nm));
	for (i = 0; i < n; i++) {
		json_t *sh = shard_of(models[i]);

		k = shard_int(sh, "k");
		if (!sh || !same_campaign(models[0], models[i]) || !k ||
		    k > nshards) {
			kb_error("%s is not a shard of the campaign of %s "
				 "(another kernels.conf text or number of "
				 "shards)",
				 names[i], names[0]);
			goto fail;
		}
		if (by_k[k - 1]) {
			kb_error("shard %u/%u is given twice: %s and %s; give "
				 "each shard directory once", k, nshards,
				 nm[k - 1], names[i]);
			goto fail;
		}
		by_k[k - 1] = models[i];
		nm[k - 1] = names[i];
	}
	for (k = 0; k < nshards; k++) {
		char *t;

		if (by_k[k])
			continue;
		t = kb_xasprintf("%s%s%u/%u", missing ? missing : "",
				 missing ? ", " : "", k + 1, nshards);
		free(missing);
		missing = t;
	}
	if (missing) {
		char *given = NULL, *t;

		for (k = 0; k < nshards; k++) {
			if (!by_k[k])
				continue;
			t = kb_xasprintf("%s%s%u/%u %s", given ? given : "",
					 given ? ", " : "", k + 1, nshards,
					 nm[k]);
			free(given);
			given = t;
		}
		kb_error("shard %s missing: the campaign is split into %u "
			 "shards and only %s given, so the merged campaign "
			 "would lack rounds; give every shard directory (or "
			 "the directory holding them), or kbench report "
			 "--separate for a shard alone", missing, nshards,
			 given);
		free(given);
		free(missing);
		goto fail;
	}
	/* the same campaign text may still have run other job files */
	for (k = 1; k < nshards; k++) {
		json_t *j0 = json_object_get(json_object_get(by_k[0],
						"campaign"), "job_files");
		json_t *jk = json_object_get(json_object_get(by_k[k],
						"campaign"), "job_files");

		if (j0 && jk && !json_equal(j0, jk)) {
			kb_error("shard %u/%u (%s) ran other job files "
				 "(profiles/*.fio) than shard 1/%u (%s): their "
				 "numbers do not measure the same thing", k + 1,
				 nshards, nm[k], nshards, nm[0]);
			goto fail;
		}
	}
	warn_environments(by_k, nm, nshards);

	camp = json_deep_copy(json_object_get(by_k[0], "campaign"));
	json_object_del(camp, "shard");
	from = json_array();
	envs = json_object();
	for (k = 0; k < nshards; k++) {
		json_t *sh = shard_of(by_k[k]);

		json_t *e = json_pack("{s:i, s:s, s:O}", "k", (int)k + 1,
			"dir", nm[k], "iterations",
			json_object_get(sh, "iterations"));
		json_t *pg = json_object_get(json_object_get(by_k[k],
					     "campaign"), "progress");

		/* each shard's own (the report names one unfinished) */
		if (json_is_object(pg))
			json_object_set(e, "progress", pg);
		json_array_append_new(from, e);
		json_object_set(envs, nm[k], json_object_get(json_object_get(
			by_k[k], "campaign"), "environment"));
	}
	json_object_set_new(camp, "shards", json_pack("{s:i, s:O, s:o}",
		"n", (int)nshards, "conf_sha256",
		json_object_get(sh0, "conf_sha256"), "from", from));
	json_object_set_new(camp, "environments", envs);
	/* the shards' progress summed (every shard's own plan and state) */
	results_sum_progress(camp, by_k, nshards);
	name = merged_name(by_k, nm, nshards);
	json_object_set_new(camp, "name", json_string(name));
	free(name);

	for (k = 0; k < nshards; k++) {
		json_t *rk = json_object_get(by_k[k], "runs");

		o = kb_xrealloc(o, (no + json_array_size(rk) + 1) * sizeof(*o));
		json_array_foreach(rk, j, r) {
			o[no].run = r;
			o[no].iteration = json_integer_value(json_object_get(r,
							"iteration"));
			o[no].k = k + 1;
			o[no].pos = j;
			no++;
		}
	}
	if (no)
		qsort(o, no, sizeof(*o), cmp_ordered);
	runs = json_array();
	for (i = 0; i < no; i++) {
		json_t *copy = json_deep_copy(o[i].run);

		json_object_set_new(copy, "shard", json_integer(o[i].k));
		json_array_append_new(runs, copy);
	}
	free(o);
	out = json_pack("{s:O, s:O, s:o, s:O, s:o, s:[]}",
		"schema_version", json_object_get(by_k[0], "schema_version"),
		"kbench_version", json_object_get(by_k[0], "kbench_version"),
		"campaign", camp,
		"configurations", json_object_get(by_k[0], "configurations"),
		"runs", runs, "summaries");
	/* the extra runs of profile = (runner/plan.h), kept apart as in
	 * each shard */
	runs = json_array();
	for (k = 0; k < nshards; k++)
		json_array_foreach(json_object_get(by_k[k], "profiling_runs"),
				   j, r) {
			json_t *copy = json_deep_copy(r);

			json_object_set_new(copy, "shard", json_integer(k + 1));
			json_array_append_new(runs, copy);
		}
	if (json_array_size(runs))
		json_object_set(out, "profiling_runs", runs);
	json_decref(runs);
	free(by_k);
	free(nm);
	return out;
fail:
	free(by_k);
	free(nm);
	return NULL;
}

int results_combine_shards(json_t **models, const char **names, size_t *n)
{
	size_t i, j, m, w;

	for (i = 0; i < *n; i++) {
		json_t **grp, *merged;
		const char **gn;

		if (!results_is_shard(models[i]))
			continue;
		grp = kb_xcalloc(*n, sizeof(*grp));
		gn = kb_xcalloc(*n, sizeof(*gn));
		for (m = 0, j = i; j < *n; j++)
			if (j == i || same_campaign(models[i], models[j])) {
				grp[m] = models[j];
				gn[m++] = names[j];
			}
		merged = results_merge_shards(grp, gn, m);
		free(grp);
		free(gn);
		if (!merged)
			return -1;
		/* the group's place is its first shard's; the rest go */
		for (w = i + 1, j = i + 1; j < *n; j++) {
			if (same_campaign(models[i], models[j])) {
				json_decref(models[j]);
				continue;
			}
			models[w] = models[j];
			names[w++] = names[j];
		}
		json_decref(models[i]);
		models[i] = merged;
		*n = w;
	}
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

size_t results_shard_dirs(const char *dir, char ***paths)
{
	struct dirent **ents = NULL;
	char *cj = kb_path_join(dir, "campaign.json");
	size_t n = 0;
	int ne, e;
	struct stat st;

	*paths = NULL;
	if (kb_exists(cj) || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		free(cj);
		return 0;
	}
	free(cj);
	ne = scandir(dir, &ents, NULL, by_name);
	for (e = 0; e < ne; e++) {
		char *sub = kb_path_join(dir, ents[e]->d_name);
		char *scj = kb_path_join(sub, "campaign.json");

		if (ents[e]->d_name[0] != '.' && kb_exists(scj)) {
			*paths = kb_xrealloc(*paths, (n + 1) * sizeof(**paths));
			(*paths)[n++] = sub;
		} else {
			free(sub);
		}
		free(scj);
		free(ents[e]);
	}
	free(ents);
	return n;
}

json_t *results_load_dir(const char *dir, int reparse)
{
	json_t **models = NULL, *ret = NULL;
	const char **names = NULL;
	char **paths = NULL;
	size_t n, npaths, i;

	/* none: dir itself (its message when it is not a campaign) */
	n = npaths = results_shard_dirs(dir, &paths);
	if (!n)
		return results_load_campaign(dir, reparse);
	models = kb_xcalloc(n, sizeof(*models));
	names = kb_xcalloc(n, sizeof(*names));
	for (i = 0; i < n; i++) {
		names[i] = paths[i];
		models[i] = results_load_campaign(paths[i], reparse);
		if (!models[i])
			goto out;
		if (!results_is_shard(models[i])) {
			kb_error("%s is not a campaign directory (no "
				 "campaign.json) but holds campaign %s, which "
				 "is not a shard (kbench run --shard): give the "
				 "campaign directories themselves", dir,
				 paths[i]);
			goto out;
		}
	}
	if (results_combine_shards(models, names, &n))
		goto out;
	if (n != 1) {
		kb_error("%s holds the shards of %zu different campaigns "
			 "(other kernels.conf or number of shards): give their "
			 "directories one campaign at a time", dir, n);
		goto out;
	}
	ret = models[0];
	models[0] = NULL;
	/* named after dir itself, as a campaign directory is */
	{
		const char *slash;
		char *nm = kb_xstrdup(dir);
		size_t l = strlen(nm);

		while (l > 1 && nm[l - 1] == '/')
			nm[--l] = '\0';
		slash = strrchr(nm, '/');
		json_object_set_new(json_object_get(ret, "campaign"), "name",
				    json_string(slash && slash[1] ? slash + 1 :
						nm));
		free(nm);
	}
out:
	for (i = 0; models && i < n; i++)
		json_decref(models[i]);
	for (i = 0; paths && i < npaths; i++)
		free(paths[i]);
	free(models);
	free(names);
	free(paths);
	return ret;
}
