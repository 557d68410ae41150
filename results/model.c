#include "results/model.h"
#include "results/paths.h"
#include "parsers/run_dir.h"
#include "lib/err.h"
#include "lib/file.h"
#include "parsers/json_file.h"

#include <stdlib.h>
#include <string.h>

/* "CONFIG/JOB/NNN" -> its parts (CONFIG may not contain '/'). */
static int split_key(const char *key, char **config, char **job, int *iter)
{
	const char *a = strchr(key, '/'), *b = a ? strchr(a + 1, '/') : NULL;

	if (!a || !b)
		return -1;
	*config = strndup(key, (size_t)(a - key));
	*job = strndup(a + 1, (size_t)(b - a - 1));
	*iter = atoi(b + 1);
	return 0;
}

/* run["params"] = the values of the swept job parameters (kernels.conf
 * "sweep", marked "sweep": true in campaign.tunables) of its
 * configuration; nothing when nothing is swept. */
static void add_params(json_t *cj, const char *config, json_t *run)
{
	json_t *tun = json_object_get(json_object_get(cj, "campaign"),
				      "tunables");
	json_t *t, *c, *vals = NULL, *params = NULL;
	size_t i;

	json_array_foreach(json_object_get(cj, "configurations"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "id")) ?: "",
			    config))
			vals = json_object_get(c, "tunables");
	json_array_foreach(tun, i, t) {
		const char *label = json_string_value(json_object_get(t, "label"));
		json_t *v = json_object_get(vals, label ? label : "");

		if (!json_is_true(json_object_get(t, "sweep")) || !v)
			continue;
		if (!params)
			params = json_object();
		json_object_set(params, label, v);
	}
	if (params)
		json_object_set_new(run, "params", params);
}

json_t *results_load_campaign(const char *dir, int reparse)
{
	char *cjpath = kb_path_join(dir, "campaign.json");
	char *statepath = kb_path_join(dir, "state.json");
	json_t *cj = NULL, *state = NULL, *res = NULL, *runs, *k, *camp;
	json_t *done;
	unsigned warmup;
	size_t i;

	if (!kb_exists(dir)) {
		kb_error("%s: no such directory (give a campaign directory "
			 "that kbench run -o wrote)", dir);
		goto out;
	}
	if (!kb_exists(cjpath)) {
		kb_error("%s: not a kbench campaign directory (no "
			 "campaign.json)", dir);
		goto out;
	}
	cj = kb_json_load(cjpath);
	if (!cj)
		goto out;
	state = kb_exists(statepath) ? kb_json_load(statepath) :
		json_pack("{s:{}}", "runs");
	if (!state)
		goto out;
	done = json_object_get(state, "runs");
	camp = json_deep_copy(json_object_get(cj, "campaign"));
	if (!json_is_object(camp)) {
		kb_error("%s: no \"campaign\" object", cjpath);
		json_decref(camp);
		goto out;
	}
	{
		const char *slash = strrchr(dir, '/');
		char *name = kb_xstrdup(slash && slash[1] ? slash + 1 : dir);
		size_t l = strlen(name);

		while (l > 1 && name[l - 1] == '/')
			name[--l] = '\0';
		json_object_set_new(camp, "name", json_string(name));
		free(name);
	}
	json_object_set(camp, "environment", json_object_get(cj, "environment"));
	{
		/* the job files as run (DIR/profiles), so that an export
		 * alone reproduces the campaign (reports/markdown.c) */
		json_t *files = json_object(), *jv;
		size_t ji;

		json_array_foreach(json_object_get(camp, "jobs"), ji, jv) {
			char *jp, *text = NULL;

			if (!json_is_string(jv))
				continue;
			jp = kb_xasprintf("%s/profiles/%s.fio", dir,
					  json_string_value(jv));
			if (kb_exists(jp) && !kb_read_file(jp, &text, NULL, 1))
				json_object_set_new(files,
					json_string_value(jv),
					json_string(text));
			free(text);
			free(jp);
		}
		json_object_set_new(camp, "job_files", files);
	}
	warmup = (unsigned)json_integer_value(json_object_get(camp, "warmup"));

	runs = json_array();
	res = json_pack("{s:i, s:s, s:o, s:O, s:o, s:[]}",
			"schema_version", KB_SCHEMA_VERSION, "kbench_version", KBENCH_VERSION,
			"campaign", camp,
			"configurations", json_object_get(cj, "configurations"),
			"runs", runs, "summaries");
	/* rounds run again for a disturbed run (runner/retry.h): the
	 * superseded runs are kept and named, never dropped silently */
	if (json_array_size(json_object_get(state, "superseded")))
		json_object_set(res, "superseded",
				json_object_get(state, "superseded"));
	json_array_foreach(json_object_get(cj, "plan"), i, k) {
		const char *key = json_string_value(k);
		char *config, *job, *rdir, *mpath;
		json_t *m = NULL;
		int iter;

		if (!key || !json_object_get(done, key))
			continue;
		if (split_key(key, &config, &job, &iter) < 0) {
			kb_warn("%s: malformed plan entry '%s'", cjpath, key);
			continue;
		}
		rdir = kb_run_dir(dir, key);
		mpath = kb_path_join(rdir, "metrics.json");
		if (reparse) {
			m = run_dir_parse(rdir);
			if (m && kb_json_write_atomic(mpath, m)) {
				/* the message names the file; a report from
				 * metrics that were not saved would not be
				 * reproducible */
				json_decref(m);
				free(config);
				free(job);
				free(rdir);
				free(mpath);
				json_decref(res);
				res = NULL;
				goto out;
			}
		} else if (kb_exists(mpath)) {
			m = kb_json_load(mpath);
		}
		if (!m) {
			/* state says done but artifacts are gone: keep the
			 * state's verdict so nothing silently disappears */
			json_t *st = json_object_get(done, key);

			m = json_pack("{s:s, s:s, s:{}}", "status", "failed",
				"reason", json_string_value(json_object_get(st,
					"reason")) ? json_string_value(
					json_object_get(st, "reason")) :
					"run artifacts missing", "metrics");
		}
		{
			json_t *st = json_object_get(m, "status");
			json_t *why = json_object_get(m, "reason");
			json_t *mm = json_object_get(m, "metrics");

			json_array_append_new(runs, json_pack(
				"{s:s, s:s, s:i, s:b, s:s, s:o, s:o}",
				"configuration", config, "job", job,
				"iteration", iter,
				"warmup", (unsigned)iter < warmup,
				"status", json_string_value(st) ?
					json_string_value(st) : "failed",
				"reason", why ? json_incref(why) : json_null(),
				"metrics", mm ? json_incref(mm) : json_object()));
			/* parser warnings (reports/profile.c shows the
			 * "profile:" ones under its table) */
			if (json_is_array(json_object_get(m, "warnings")))
				json_object_set(json_array_get(runs,
					json_array_size(runs) - 1), "warnings",
					json_object_get(m, "warnings"));
			/* metrics that could not be measured, with why
			 * (parsers/run_dir.h): the reports' n/a reasons */
			if (json_object_size(json_object_get(m,
					     "unavailable")))
				json_object_set(json_array_get(runs,
					json_array_size(runs) - 1),
					"unavailable",
					json_object_get(m, "unavailable"));
			add_params(cj, config, json_array_get(runs,
					json_array_size(runs) - 1));
		}
		json_decref(m);
		free(config);
		free(job);
		free(rdir);
		free(mpath);
	}
out:
	json_decref(cj);
	json_decref(state);
	free(cjpath);
	free(statepath);
	return res;
}

static int same_strings(json_t *a, json_t *b, const char *key)
{
	json_t *x, *y;
	size_t i, j;

	if (json_array_size(a) != json_array_size(b))
		return 0;
	json_array_foreach(a, i, x) {
		json_array_foreach(b, j, y) {
			json_t *kx = key ? json_object_get(x, key) : x;
			json_t *ky = key ? json_object_get(y, key) : y;

			if (json_equal(kx, ky))
				break;
		}
		if (j == json_array_size(b))
			return 0;
	}
	return 1;
}

static int has_config(json_t *cfgs, const char *id)
{
	json_t *c;
	size_t i;

	json_array_foreach(cfgs, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "id")) ?: "", id))
			return 1;
	return 0;
}

json_t *results_merge(json_t *const *models, const char *const *names,
		      size_t n)
{
	json_t *first = json_object_get(models[0], "campaign"), *out, *camp;
	json_t *cfgs = json_array(), *runs = json_array(), *envs = json_object();
	json_t *from = json_array(), *c, *r;
	size_t m, i;

	for (m = 1; m < n; m++) {
		json_t *cm = json_object_get(models[m], "campaign");
		const char *what = NULL;

		if (!same_strings(json_object_get(first, "jobs"),
				  json_object_get(cm, "jobs"), NULL))
			what = "jobs";
		else if (!json_equal(json_object_get(first, "target"),
				     json_object_get(cm, "target")))
			what = "targets";
		else if (!same_strings(json_object_get(first, "tunables"),
				       json_object_get(cm, "tunables"), "label"))
			what = "tunable labels";
		if (what) {
			kb_error("cannot merge %s into %s: their %s differ, so "
				 "their numbers do not measure the same thing; "
				 "report them separately (--separate)",
				 names[m], names[0], what);
			json_decref(cfgs);
			json_decref(runs);
			json_decref(envs);
			json_decref(from);
			return NULL;
		}
	}
	for (m = 0; m < n; m++) {
		json_t *mc = json_object_get(models[m], "configurations");
		const char *cname = json_string_value(json_object_get(
			json_object_get(models[m], "campaign"), "name"));

		if (!cname)
			cname = names[m];
		json_array_append_new(from, json_string(names[m]));
		json_object_set(envs, names[m], json_object_get(json_object_get(
			models[m], "campaign"), "environment"));
		json_array_foreach(mc, i, c) {
			const char *id = json_string_value(json_object_get(c, "id"));
			json_t *copy = json_deep_copy(c);
			char *nid = NULL;
			size_t k;
			json_t *rr;

			if (!id) {
				json_decref(copy);
				continue;
			}
			if (has_config(cfgs, id)) {
				const char *v = json_string_value(
					json_object_get(c, "variant"));

				nid = kb_xasprintf("%s:%s", cname, id);
				json_object_set_new(copy, "id", json_string(nid));
				if (v) {
					char *nv = kb_xasprintf("%s:%s", cname, v);

					json_object_set_new(copy, "variant",
							    json_string(nv));
					free(nv);
				}
			}
			json_array_append_new(cfgs, copy);
			json_array_foreach(json_object_get(models[m], "runs"), k, r) {
				const char *rc = json_string_value(
					json_object_get(r, "configuration"));

				if (!rc || strcmp(rc, id))
					continue;
				rr = json_deep_copy(r);
				if (nid)
					json_object_set_new(rr, "configuration",
							    json_string(nid));
				json_object_set_new(rr, "campaign",
						    json_string(names[m]));
				json_array_append_new(runs, rr);
			}
			free(nid);
		}
	}
	camp = json_deep_copy(first);
	json_object_set_new(camp, "merged_from", from);
	json_object_set_new(camp, "environments", envs);
	out = json_pack("{s:i, s:s, s:o, s:o, s:o, s:[]}",
			"schema_version", KB_SCHEMA_VERSION, "kbench_version", KBENCH_VERSION,
			"campaign", camp, "configurations", cfgs, "runs", runs,
			"summaries");
	return out;
}
