#include "results/model.h"
#include "results/run_values.h"
#include "results/paths.h"
#include "results/json.h"
#include "results/validate.h"
#include "results/campaign_json.h"
#include "parsers/run_dir.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/heap.h"
#include "lib/str.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "CONFIG/JOB/NNN[-KINDK]" -> its parts (CONFIG may not contain '/');
 * *extra: the kind of an extra run ("profiling", "unsampled";
 * results/paths.h), malloc'd, or NULL for a counted or warm-up run. */
static int split_key(const char *key, char **config, char **job, int *iter,
		     char **extra)
{
	const char *a = strchr(key, '/'), *b = a ? strchr(a + 1, '/') : NULL;
	const char *kind;
	size_t klen;

	if (!a || !b)
		return -1;
	*config = strndup(key, (size_t)(a - key));
	*job = strndup(a + 1, (size_t)(b - a - 1));
	*iter = atoi(b + 1);
	kind = kb_run_key_extra(b + 1, &klen);
	*extra = kind ? strndup(kind, klen) : NULL;
	return 0;
}

/* 1 when a tunable of campaign.json cj is a swept job parameter
 * (kernels.conf "sweep", marked "sweep": true in campaign.tunables). */
static int any_swept(json_t *cj)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(cj, "campaign"),
					   "tunables"), i, t)
		if (json_is_true(json_object_get(t, "sweep")))
			return 1;
	return 0;
}

/* run["params"] = the values of the swept job parameters (any_swept())
 * of its configuration; nothing when nothing is swept. */
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

/* What of metrics.json m decides whether run counts: its flags, the
 * page-cache suspicion (parsers/fio_json.h; kept out of the statistics
 * unless kernels.conf allow_page_cache = yes) and the kernel it ran on
 * (run.json via parsers/run_dir.c; a vm guest's guest_kernel and
 * guest_proc_version, builtin/guest.c). */
static void add_run_checks(json_t *m, json_t *run, int allow_page_cache)
{
	json_t *flags = json_object_get(m, "flags");
	json_t *kernel = json_object_get(m, "kernel");
	const char *suspect = kb_jstr(m, "suspect");

	if (json_is_array(flags) && json_array_size(flags))
		json_object_set(run, "flags", flags);
	if (kb_jstr(m, "work"))	/* "fixed": stats/summary.h */
		json_object_set(run, "work", json_object_get(m, "work"));
	if (suspect) {
		json_object_set_new(run, "suspect", json_string(suspect));
		if (!allow_page_cache && !strcmp(suspect, "page_cache")) {
			char list[1024] = "", *why;
			json_t *f;
			size_t i;

			json_array_foreach(flags, i, f) {
				size_t l = strlen(list);

				if (json_is_string(f))
					snprintf(list + l, sizeof(list) - l,
						 "%s%s", l ? "; " : "",
						 json_string_value(f));
			}
			why = kb_xasprintf("suspect: %s%s%s%s; kept out of the "
				"comparisons (kernels.conf [global] "
				"allow_page_cache = yes counts it)",
				kb_jstr(m, "message") ?: "the reads likely "
				"measured the page cache", list[0] ? " (" : "",
				list, list[0] ? ")" : "");
			json_object_set_new(run, "excluded", json_string(why));
			free(why);
		}
	}
	if (json_is_object(kernel)) {
		json_object_set(run, "kernel", kernel);
	} else if (kb_jstr(m, "guest_kernel") || kb_jstr(m, "guest_proc_version")) {
		kernel = json_object();
		if (kb_jstr(m, "guest_kernel"))
			json_object_set(kernel, "release",
					json_object_get(m, "guest_kernel"));
		if (kb_jstr(m, "guest_proc_version"))
			json_object_set(kernel, "proc_version",
					json_object_get(m, "guest_proc_version"));
		json_object_set_new(run, "kernel", kernel);
	}
}

/* Do two kernel records name different builds?  Release, /proc/version
 * (release + build string) and build id are compared where both runs
 * recorded them. */
static int other_build(json_t *a, json_t *b)
{
	static const char *const keys[] = { "release", "proc_version",
					    "build_id" };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *x = kb_jstr(a, keys[i]), *y = kb_jstr(b, keys[i]);

		if (x && y && strcmp(x, y))
			return 1;
	}
	return 0;
}

/* Runs of one configuration on two kernel builds (the same `uname -r`,
 * another /proc/version or build id: a rebuilt kernel booted between two
 * `kbench run` of the campaign) are never pooled: the runs on another
 * build than the configuration's first run are excluded, saying so. */
static void exclude_other_builds(json_t *runs, unsigned warmup)
{
	json_t *first = json_object(), *run, *ref;
	char b1[KB_ITER_LABEL_MAX], b2[KB_ITER_LABEL_MAX];
	size_t i;

	json_array_foreach(runs, i, run) {
		const char *cfg = kb_jstr(run, "configuration");
		json_t *k = json_object_get(run, "kernel");
		char *why;

		if (!cfg || !json_is_object(k))
			continue;
		ref = json_object_get(first, cfg);
		if (!ref) {
			json_object_set(first, cfg, run);
			continue;
		}
		if (!other_build(json_object_get(ref, "kernel"), k))
			continue;
		/* iterations as a reader numbers them (results/paths.h) */
		why = kb_xasprintf("ran on another kernel build than iteration "
			"%s of %s: '%s'%s%s%s, not '%s'%s%s%s; runs of two "
			"builds are never pooled",
			kb_iteration_label(json_integer_value(json_object_get(
				ref, "iteration")), warmup, b1),
			cfg, kb_jstr(k, "proc_version") ?: kb_jstr(k, "release") ?: "?",
			kb_jstr(k, "build_id") ? " (build id " : "",
			kb_jstr(k, "build_id") ?: "",
			kb_jstr(k, "build_id") ? ")" : "",
			kb_jstr(json_object_get(ref, "kernel"), "proc_version") ?:
			kb_jstr(json_object_get(ref, "kernel"), "release") ?: "?",
			kb_jstr(json_object_get(ref, "kernel"), "build_id") ?
			" (build id " : "",
			kb_jstr(json_object_get(ref, "kernel"), "build_id") ?: "",
			kb_jstr(json_object_get(ref, "kernel"), "build_id") ?
			")" : "");
		if (!json_is_true(json_object_get(ref, "build_warned"))) {
			kb_warn("configuration %s ran on two kernel builds: "
				"iteration %s %s", cfg,
				kb_iteration_label(json_integer_value(
					json_object_get(run, "iteration")),
					warmup, b2), why);
			json_object_set_new(ref, "build_warned", json_true());
		}
		if (!json_object_get(run, "excluded"))
			json_object_set_new(run, "excluded", json_string(why));
		free(why);
	}
	json_array_foreach(runs, i, run)
		json_object_del(run, "build_warned");
	json_decref(first);
}

/* The directories runs/CONFIG/JOB of a campaign, open (O_PATH), by
 * name: each run's metrics.json is opened relative to its own
 * (openat(2)), so the kernel walks two path components per run instead
 * of the whole path (issue 16: a tenth of a 10k-run report's system
 * time).  At most JOB_DIRS_MAX open at once; a run beyond them, or whose
 * directory cannot be opened, is opened by its whole path as before. */
#define JOB_DIRS_MAX 256

struct job_dirs {
	json_t *fds;	/* "CONFIG/JOB": the fd (an integer) */
	char *base;	/* DIR/runs/ */
};

/* The fd to open KEY's REL ("ITER/metrics.json") at, or AT_FDCWD (then
 * *rel is NULL: open the whole path). */
static int job_dir_fd(struct job_dirs *jd, const char *key, char **rel)
{
	const char *slash = strrchr(key, '/');
	json_t *j;
	char *name, *path;
	int fd;

	*rel = NULL;
	if (!slash)
		return AT_FDCWD;
	name = strndup(key, (size_t)(slash - key));
	if (!name)
		return AT_FDCWD;
	j = json_object_get(jd->fds, name);
	if (j) {
		fd = (int)json_integer_value(j);
	} else if (json_object_size(jd->fds) >= JOB_DIRS_MAX) {
		fd = -1;
	} else {
		path = kb_xasprintf("%s%s", jd->base, name);
		fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		free(path);
		/* a directory that cannot be opened: -1, asked once */
		json_object_set_new(jd->fds, name,
				    json_integer(fd < 0 ? -1 : fd));
	}
	free(name);
	if (fd < 0)
		return AT_FDCWD;
	*rel = kb_xasprintf("%s/metrics.json", slash + 1);
	return fd;
}

static void job_dirs_close(struct job_dirs *jd)
{
	const char *name;
	json_t *j;

	json_object_foreach(jd->fds, name, j)
		if (json_integer_value(j) >= 0)
			close((int)json_integer_value(j));
	json_decref(jd->fds);
	free(jd->base);
}

static json_t *load_campaign(const char *dir, int reparse,
			     const char *const *keys, size_t nkeys,
			     struct kb_run_values *vals);

json_t *results_load_campaign(const char *dir, int reparse)
{
	return load_campaign(dir, reparse, NULL, 0, NULL);
}

json_t *results_load_campaign_runs(const char *dir, const char *const *keys,
				   size_t nkeys)
{
	return load_campaign(dir, 0, keys, nkeys, NULL);
}

static int key_wanted(const char *key, const char *const *keys, size_t n)
{
	size_t i;

	if (!keys)
		return 1;
	for (i = 0; i < n; i++)
		if (keys[i] && !strcmp(keys[i], key))
			return 1;
	return 0;
}

json_t *results_load_campaign_values(const char *dir, int reparse,
				     struct kb_run_values **values)
{
	json_t *res;

	*values = kb_run_values__new();
	res = load_campaign(dir, reparse, NULL, 0, *values);
	if (!res) {
		kb_run_values__delete(*values);
		*values = NULL;
	}
	return res;
}

/* One json string per distinct value, kept in names (value -> string):
 * a borrowed reference. */
static json_t *interned(json_t *names, const char *value)
{
	json_t *j = json_object_get(names, value);

	if (!j) {
		j = json_string(value);
		json_object_set_new(names, value, j);
	}
	return j;
}

static json_t *load_campaign(const char *dir, int reparse,
			     const char *const *keys, size_t nkeys,
			     struct kb_run_values *vals)
{
	char *cjpath = kb_path_join(dir, "campaign.json");
	char *statepath = kb_path_join(dir, "state.json");
	json_t *cj = NULL, *state = NULL, *res = NULL, *runs, *k, *camp;
	json_t *done, *pruns = json_array(), *names = json_object();
	struct job_dirs jdirs = { json_object(),
				  kb_xasprintf("%s/" KB_RUNS_DIR "/", dir) };
	unsigned warmup;
	int allow_pc, swept;
	size_t i;

	if (!kb_exists(dir)) {
		kb_error("%s: no such directory (give a campaign directory "
			 "that kbench run -o wrote)", dir);
		goto out;
	}
	if (!kb_exists(cjpath)) {
		struct stat st;
		size_t len = strlen(dir);

		if (stat(dir, &st) || S_ISDIR(st.st_mode))
			kb_error("%s: not a kbench campaign directory (no "
				 "campaign.json)", dir);
		else if (len > 5 && !strcmp(dir + len - 5, ".json"))
			kb_error("%s: a file, not a campaign directory; a "
				 "results.json is read with --from-json %s",
				 dir, dir);
		else if (len > 5 && !strcmp(dir + len - 5, ".conf"))
			kb_error("%s: a file, not a campaign directory; a "
				 "kernels.conf is run first ('kbench run -c "
				 "%s -o DIR'), then DIR is reported", dir, dir);
		else
			kb_error("%s: a file, not a campaign directory (the "
				 "directory kbench run -o wrote)", dir);
		goto out;
	}
	{
		/* a large campaign's model on huge pages (lib/heap.h): it
		 * keeps about 20 times its state.json (131 bytes a run) */
		struct stat st;

		if (!stat(statepath, &st) && st.st_size > 0)
			kb_heap_hugepages((size_t)st.st_size * 32);
	}
	cj = results_campaign_json_load(cjpath);
	if (!cj)
		goto out;
	state = kb_exists(statepath) ? kb_json_load(statepath) :
		json_pack("{s:{}}", "runs");
	if (!state) {
		results_state_hint(statepath, dir);
		goto out;
	}
	/* campaign.json and state.json checked once, as loaded
	 * (results/validate.h); each run's metrics.json below, once */
	if (results_validate_docs(dir, cj, kb_exists(statepath) ? state : NULL,
				  NULL))
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
	if (json_is_object(json_object_get(cj, "shard")))	/* --shard K/N */
		json_object_set(camp, "shard", json_object_get(cj, "shard"));
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
	allow_pc = json_is_true(json_object_get(camp, "allow_page_cache"));
	swept = any_swept(cj);

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
	if (vals)	/* a row per run done at most */
		kb_run_values__reserve(vals, json_object_size(done));
	/* how far the campaign got: a report of an interrupted one says
	 * so (reports/builder.c "Progress") */
	{
		json_int_t planned = 0, ndone = 0;

		json_array_foreach(json_object_get(cj, "plan"), i, k) {
			const char *key = json_string_value(k);

			if (!key || !key_wanted(key, keys, nkeys))
				continue;
			planned++;
			ndone += json_object_get(done, key) != NULL;
		}
		json_object_set_new(camp, "progress", json_pack("{s:I, s:I}",
				    "planned", planned, "done", ndone));
	}
	json_array_foreach(json_object_get(cj, "plan"), i, k) {
		const char *key = json_string_value(k);
		char *config, *job, *rdir, *mpath, *extra;
		json_t *m = NULL, *arr;
		int iter, sunk;

		if (!key || !json_object_get(done, key) ||
		    !key_wanted(key, keys, nkeys))
			continue;
		if (split_key(key, &config, &job, &iter, &extra) < 0) {
			kb_warn("%s: malformed plan entry '%s'", cjpath, key);
			continue;
		}
		rdir = kb_run_dir(dir, key);
		mpath = kb_path_join(rdir, "metrics.json");
		sunk = 0;
		if (vals && !extra)	/* this run's row of the columns */
			kb_run_values__begin_row(vals);
		if (reparse) {
			m = run_dir_parse(rdir);
			if (m && kb_json_write_atomic(mpath, m)) {
				/* the message names the file; a report from
				 * metrics that were not saved would not be
				 * reproducible */
				json_decref(m);
				free(config);
				free(job);
				free(extra);
				free(rdir);
				free(mpath);
				json_decref(res);
				res = NULL;
				goto out;
			}
		} else {
			int missing;

			/* no metrics.json: the state's verdict below */
			if (vals && !extra) {
				/* the numbers of its "metrics" straight into
				 * their columns (results/run_values.h) */
				struct kb_json_sink sink = {
					"metrics", kb_run_values__sink_number,
					kb_run_values__sink_has, vals };

				char *rel;
				int fd = job_dir_fd(&jdirs, key, &rel);

				m = kb_json_load_existing_sink_at(fd,
					rel ? rel : mpath, mpath, &missing,
					&sink, &sunk, KB_JSON_WARN);
				free(rel);
				if (!sunk)	/* part of it at most */
					kb_run_values__abort_row(vals);
			} else {
				m = kb_json_load_existing_sink_at(AT_FDCWD,
					mpath, mpath, &missing, NULL, &sunk,
					KB_JSON_WARN);
			}
			/* warnings: the run counts as failed, nothing stops */
			if (m && json_is_string(json_object_get(m, "status")) &&
			    strcmp(kb_jstr(m, "status"), "ok") &&
			    strcmp(kb_jstr(m, "status"), "failed")) {
				/* "OK", "done": read as failed, said (a
				 * helper's note; --from-json says the same) */
				kb_warn("%s: \"status\": '%s' is not one kbench "
					"writes (\"ok\" or \"failed\"): the run "
					"counts as failed", mpath,
					kb_jstr(m, "status"));
				json_object_set_new(m, "status",
						    json_string("failed"));
				json_object_set_new(m, "reason", json_string(
					"metrics.json has a status kbench does "
					"not write"));
			}
			if (m && (!json_is_string(json_object_get(m, "status")) ||
				  !json_is_object(json_object_get(m, "metrics")))) {
				kb_warn("%s: not a run's metrics (no \"status\" "
					"string or \"metrics\" object)", mpath);
				json_decref(m);
				m = NULL;
				if (sunk)
					kb_run_values__abort_row(vals);
				sunk = 0;
			}
			if (!m && !missing) {
				/* results/validate.h: `run` repairs it */
				kb_warn("run %s: counted as failed here; `kbench "
					"run -o %s` repairs its metrics.json from "
					"the raw artefacts", key, dir);
				m = json_pack("{s:s, s:s, s:{}}", "status",
					"failed", "reason", "metrics.json is "
					"damaged (kbench run repairs it)",
					"metrics");
			}
		}
		if (!m) {
			/* state says done but artifacts are gone: keep the
			 * state's verdict so nothing silently disappears */
			json_t *st = json_object_get(done, key);
			const char *sr = json_string_value(json_object_get(st,
							   "reason"));

			m = json_pack("{s:s, s:s, s:{}}", "status", "failed",
				"reason", sr ? sr : kb_exists(rdir) ?
				"run artifacts missing (kbench run -o DIR runs "
				"it again)" : "its run directory is gone "
				"(kbench run -o DIR runs it again)", "metrics");
		}
		{
			json_t *st = json_object_get(m, "status");
			json_t *why = json_object_get(m, "reason");
			json_t *mm = json_object_get(m, "metrics");

			/* profiling runs (runner/plan.h) apart: never in
			 * the samples, summaries or comparisons */
			arr = extra ? pruns : runs;
			/* the configuration, job and status strings shared by
			 * the runs that have them (a 100k-run campaign has a
			 * few dozen distinct ones): "O" takes a reference */
			json_array_append_new(arr, json_pack(
				"{s:O, s:O, s:i, s:b, s:O, s:o, s:o}",
				"configuration", interned(names, config),
				"job", interned(names, job),
				"iteration", iter,
				"warmup", (unsigned)iter < warmup,
				"status", interned(names, json_string_value(st) ?
					json_string_value(st) : "failed"),
				"reason", why ? json_incref(why) : json_null(),
				"metrics", sunk ? json_incref(mm) :
					vals && !extra ?
					/* the numbers beside the tree */
					kb_run_values__fill_row(vals, mm) :
					mm ? json_incref(mm) : json_object()));
			/* parser warnings (reports/profile.c shows the
			 * "profile:" ones under its table) */
			if (json_is_array(json_object_get(m, "warnings")))
				json_object_set(json_array_get(arr,
					json_array_size(arr) - 1), "warnings",
					json_object_get(m, "warnings"));
			/* metrics that could not be measured, with why
			 * (parsers/run_dir.h): the reports' n/a reasons */
			if (json_object_size(json_object_get(m,
					     "unavailable")))
				json_object_set(json_array_get(arr,
					json_array_size(arr) - 1),
					"unavailable",
					json_object_get(m, "unavailable"));
			if (swept)	/* else a search per run for nothing */
				add_params(cj, config, json_array_get(arr,
					json_array_size(arr) - 1));
			/* the reproducer's KBENCH_SIZE (reports/markdown.c) */
			if (json_is_integer(json_object_get(m,
					    "target_size_bytes")))
				json_object_set(json_array_get(arr,
					json_array_size(arr) - 1),
					"target_size_bytes", json_object_get(m,
					"target_size_bytes"));
			add_run_checks(m, json_array_get(arr,
					json_array_size(arr) - 1), allow_pc);
			if (extra)
				json_object_set_new(json_array_get(arr,
					json_array_size(arr) - 1), "extra",
					json_string(extra));
		}
		json_decref(m);
		free(config);
		free(job);
		free(extra);
		free(rdir);
		free(mpath);
	}
	exclude_other_builds(runs, warmup);
	if (json_array_size(pruns))
		json_object_set(res, "profiling_runs", pruns);
out:
	job_dirs_close(&jdirs);
	json_decref(names);
	json_decref(pruns);
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

/* The id of res's configuration named id (a pointer into res), or
 * NULL. */
static const char *config_id(json_t *res, const char *id)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(res, "configurations"), i, c)
		if (!strcmp(kb_jstr(c, "id") ?: "", id))
			return kb_jstr(c, "id");
	return NULL;
}

int results_has_config(json_t *res, const char *id)
{
	return config_id(res, id) != NULL;
}

const char *results_map_hint(const char *id)
{
	return strchr(id, ',') ? "; --map VARIANT=OLD maps every "
	       "configuration of a renamed variant" : "";
}

int results_map_add(struct results_map *m, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !arg[strlen(arg) - 1] ||
	    arg[strlen(arg) - 1] == '=') {
		kb_error("--map %s: expected NEW=OLD (a configuration of the "
			 "newer campaign and the one of the older campaign to "
			 "compare it with)", arg);
		return -EINVAL;
	}
	m->v = kb_xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
	m->v[m->n++] = kb_xstrdup(arg);
	return 0;
}

void results_map_free(struct results_map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

/* OLD of arg = "id=OLD", or NULL when arg does not start so. */
static const char *map_old_of(const char *arg, const char *id)
{
	size_t l = strlen(id);

	return !strncmp(arg, id, l) && arg[l] == '=' ? arg + l + 1 : NULL;
}

/* arg = "VARIANT=OLDVARIANT" read for configuration id "VARIANT,..."
 * (a renamed variant, every tunable value at once): the id of base's
 * configuration "OLDVARIANT,..." (a pointer into base), or NULL. */
static const char *map_variant_old(json_t *base, const char *arg,
				   const char *id)
{
	size_t vl = strcspn(id, ",");
	const char *found;
	char *cand;

	if (!base || !id[vl] || strncmp(arg, id, vl) || arg[vl] != '=')
		return NULL;	/* a whole id: map_old_of()'s */
	cand = kb_xasprintf("%s%s", arg + vl + 1, id + vl);
	found = config_id(base, cand);
	free(cand);
	return found;
}

const char *results_match_config(json_t *base, const char *id,
				 const struct results_map *map)
{
	const char *old;
	size_t i;

	for (i = 0; map && i < map->n; i++) {
		old = map_old_of(map->v[i], id);
		if (old && (!base || results_has_config(base, old)))
			return old;
	}
	for (i = 0; map && i < map->n; i++) {	/* then a variant's */
		old = map_variant_old(base, map->v[i], id);
		if (old)
			return old;
	}
	return config_id(base, id);
}

int results_map_maps(const char *arg, json_t *base, const char *id)
{
	const char *old = map_old_of(arg, id);

	return (old && results_has_config(base, old)) ||
	       map_variant_old(base, arg, id) != NULL;
}

static void list_configs(const char *name, json_t *res)
{
	json_t *c;
	size_t i;

	kb_warn_more("  %s has:", name);
	json_array_foreach(json_object_get(res, "configurations"), i, c)
		kb_warn_more(" %s", kb_jstr(c, "id") ?: "?");
	kb_warn_more("\n");
}

/* res has a configuration named name, or a variant (the part of an id
 * before its first ',') */
static int has_config_or_variant(json_t *res, const char *name)
{
	json_t *c;
	size_t i, l = strlen(name);

	json_array_foreach(json_object_get(res, "configurations"), i, c) {
		const char *id = kb_jstr(c, "id") ?: "";

		if (!strcmp(id, name) || (!strncmp(id, name, l) && id[l] == ','))
			return 1;
	}
	return 0;
}

/* Why --map arg names nothing, side by side: arg is split at each '='
 * in turn (configuration ids hold '=' too: "patched,NM=1=stock,NM=1").
 * Says which side names nothing, or that the two are the other way
 * round. */
static void map_say_wrong(const char *arg, json_t *const *newer,
			  const char *const *newer_names, size_t nnewer,
			  json_t *base, const char *base_name)
{
	const char *eq, *nname = nnewer ? newer_names[0] : "?";
	const char *later = nnewer > 1 ? " or a later campaign" : "";
	char *swapped = NULL;
	int new_ok = 0, old_ok = 0;
	size_t k;

	for (eq = strchr(arg, '='); eq; eq = strchr(eq + 1, '=')) {
		char *left = kb_xasprintf("%.*s", (int)(eq - arg), arg);
		int l_new = 0, r_new = 0;

		for (k = 0; k < nnewer; k++) {
			l_new |= has_config_or_variant(newer[k], left);
			r_new |= has_config_or_variant(newer[k], eq + 1);
		}
		new_ok |= l_new;
		old_ok |= has_config_or_variant(base, eq + 1);
		if (!swapped && r_new && has_config_or_variant(base, left))
			swapped = kb_xasprintf("%s=%s", eq + 1, left);
		free(left);
	}
	if (swapped && !new_ok)
		kb_error("--map %s: the other way round? give --map %s "
			 "(NEW=OLD: NEW of %s%s, OLD of %s, the campaign given "
			 "first)", arg, swapped, nname, later, base_name);
	else if (new_ok)
		kb_error("--map %s: OLD (after '=') is no configuration or "
			 "variant of %s", arg, base_name);
	else if (old_ok)
		kb_error("--map %s: NEW (before '=') is no configuration or "
			 "variant of %s%s", arg, nname, later);
	else
		kb_error("--map %s: neither side names anything: expected "
			 "NEW=OLD with NEW a configuration or variant of %s%s "
			 "and OLD one of %s", arg, nname, later, base_name);
	free(swapped);
}

int results_map_check(const struct results_map *m, json_t *const *newer,
		      const char *const *newer_names, size_t nnewer,
		      json_t *base, const char *base_name)
{
	size_t i, j, k;
	int found;
	const char *old, *some_old;
	json_t *c;

	for (i = 0; m && i < m->n; i++) {
		found = 0;
		some_old = NULL;
		for (k = 0; k < nnewer; k++)
			json_array_foreach(json_object_get(newer[k],
					   "configurations"), j, c) {
				old = map_old_of(m->v[i], kb_jstr(c, "id") ?: "");
				if (old)
					some_old = old;
				found |= old && results_has_config(base, old);
				/* VARIANT=OLDVARIANT */
				found |= map_variant_old(base, m->v[i],
						kb_jstr(c, "id") ?: "") != NULL;
			}
		if (found)
			continue;
		if (some_old)
			kb_error("--map %s: %s has no configuration '%s'",
				 m->v[i], base_name, some_old);
		else
			map_say_wrong(m->v[i], newer, newer_names, nnewer,
				      base, base_name);
		/* each campaign's once: compare A A listed A's twice */
		for (k = 0; k < nnewer; k++)
			if (strcmp(newer_names[k], base_name))
				list_configs(newer_names[k], newer[k]);
		list_configs(base_name, base);
		return -EINVAL;
	}
	/* one OLD per NEW: a second --map of the same configuration was
	 * ignored without a word; so was a second of the same variant
	 * (patched=stock and patched=old: the first found won; a break-it
	 * trial) */
	for (k = 0; m && k < nnewer; k++)
		json_array_foreach(json_object_get(newer[k], "configurations"),
				   j, c) {
			const char *id = kb_jstr(c, "id") ?: "";
			const char *first = NULL, *vfirst = NULL;
			size_t vi = 0;

			for (i = 0; i < m->n; i++) {
				old = map_variant_old(base, m->v[i], id);
				if (old && vfirst && strcmp(vfirst, old)) {
					kb_error("--map %s and --map %s: %s is "
						 "mapped twice, to %s and to "
						 "%s; give one --map per "
						 "variant", m->v[vi], m->v[i],
						 id, vfirst, old);
					return -EINVAL;
				}
				if (old && !vfirst) {
					vfirst = old;
					vi = i;
				}
				old = map_old_of(m->v[i], id);
				if (!old || !results_has_config(base, old))
					continue;
				if (first && strcmp(first, old)) {
					kb_error("--map: %s is mapped twice, to "
						 "%s and to %s; give one --map "
						 "per configuration", id, first,
						 old);
					return -EINVAL;
				}
				first = old;
			}
		}
	return 0;
}

/* The baseline id of a model: campaign.baseline when it names one of its
 * configurations, else the first configuration (stats/summary.c falls
 * back the same way). */
static const char *model_baseline(json_t *model)
{
	const char *b = kb_jstr(json_object_get(model, "campaign"),
				"baseline");

	if (b && results_has_config(model, b))
		return b;
	return kb_jstr(json_array_get(json_object_get(model,
		"configurations"), 0), "id");
}

/* "NAME:s" (malloc'd). */
static char *prefixed(const char *name, const char *s)
{
	return kb_xasprintf("%s:%s", name, s);
}

/* The same job name run from different job files measures something
 * else: camp.merged_job_file_diffs, for each later campaign and job the
 * first line where its job file differs from the first campaign's
 * (names: the campaigns' names), for the report's header; absent when
 * they agree.  The warning on standard error is report's
 * (results_setup_diff_warn()), as compare's. */
static void job_file_diffs(json_t *camp, json_t *const *models,
			   char *const *names, size_t n)
{
	json_t *f0 = json_object_get(json_object_get(models[0], "campaign"),
				     "job_files");
	json_t *diffs = json_array(), *fm, *t0;
	const char *job;
	char *what, *d;
	size_t m;

	for (m = 1; m < n; m++) {
		fm = json_object_get(json_object_get(models[m], "campaign"),
				     "job_files");
		json_object_foreach(f0, job, t0) {
			what = kb_xasprintf("job %s: the fio job file", job);
			d = kb_text_diff(what, json_string_value(t0), names[0],
					 kb_jstr(fm, job), names[m]);
			if (d)
				json_array_append_new(diffs, json_string(d));
			free(d);
			free(what);
		}
	}
	if (json_array_size(diffs))
		json_object_set_new(camp, "merged_job_file_diffs", diffs);
	else
		json_decref(diffs);
}

/* Each campaign's "superseded" runs (retry_disturbed, --retry-failed)
 * in the merged model's, the key prefixed with its campaign's name as its
 * configuration is ("NAME:CFG/JOB/NNN") and "campaign": NAME (its "dir"
 * is in that campaign's directory): the merged report's "Retried:" line
 * and its JSON keep them (a new user's trial: each campaign's own report
 * had them, the merged one none). */
static void merge_superseded(json_t *out, json_t *const *models,
			     char *const *cname, size_t n)
{
	json_t *all = json_array(), *e, *c;
	size_t m, i;

	for (m = 0; m < n; m++)
		json_array_foreach(json_object_get(models[m], "superseded"),
				   i, e) {
			const char *key = kb_jstr(e, "key");

			if (!json_is_object(e))
				continue;
			c = json_deep_copy(e);
			if (key) {
				char *nk = prefixed(cname[m], key);

				json_object_set_new(c, "key", json_string(nk));
				free(nk);
			}
			json_object_set_new(c, "campaign",
					    json_string(cname[m]));
			json_array_append_new(all, c);
		}
	if (json_array_size(all))
		json_object_set_new(out, "superseded", all);
	else
		json_decref(all);
}

json_t *results_merge(json_t *const *models, const char *const *names,
		      size_t n, const struct results_map *map)
{
	json_t *first = json_object_get(models[0], "campaign"), *out, *camp;
	json_t *cfgs = json_array(), *runs = json_array(), *envs = json_object();
	json_t *from = json_array(), *c, *r;
	char **cname = kb_xcalloc(n + 1, sizeof(*cname)), *title = NULL, *tmp;
	const char *base0 = model_baseline(models[0]);
	size_t m, i, k;

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
			goto fail;
		}
	}
	if (results_map_check(map, models + 1, names + 1, n - 1, models[0],
			      names[0]))
		goto fail;
	/* the reports number rounds by campaign.warmup (results/paths.h
	 * kb_iteration_label()): the first campaign's */
	for (m = 1; m < n; m++)
		if (kb_results_warmup(models[m]) != kb_results_warmup(models[0]))
			kb_warn("%s has warmup = %lld, %s warmup = %lld: the "
				"report numbers the iterations of both as %s's",
				names[m], kb_results_warmup(models[m]),
				names[0], kb_results_warmup(models[0]),
				names[0]);
	/* each campaign's name, unique: "NAME(2)" for a name given again */
	for (m = 0; m < n; m++) {
		const char *nm = kb_jstr(json_object_get(models[m],
					 "campaign"), "name") ?: names[m];
		unsigned dup = 1;

		for (k = 0; k < m; k++)
			dup += !strncmp(cname[k], nm, strlen(nm)) &&
			       (!cname[k][strlen(nm)] ||
				cname[k][strlen(nm)] == '(');
		cname[m] = dup > 1 ? kb_xasprintf("%s(%u)", nm, dup) :
				     kb_xstrdup(nm);
		tmp = kb_xasprintf("%s%s%s", title ? title : "",
				   title ? " vs " : "", cname[m]);
		free(title);
		title = tmp;
	}
	for (m = 0; m < n; m++) {
		json_t *mc = json_object_get(models[m], "configurations");

		json_array_append_new(from, json_string(names[m]));
		json_object_set(envs, cname[m], json_object_get(json_object_get(
			models[m], "campaign"), "environment"));
		json_array_foreach(mc, i, c) {
			const char *id = kb_jstr(c, "id");
			const char *v = kb_jstr(c, "variant"), *old;
			json_t *copy;
			char *nid;

			if (!id)
				continue;
			copy = json_deep_copy(c);
			nid = prefixed(cname[m], id);
			json_object_set_new(copy, "id", json_string(nid));
			if (v) {
				char *nv = prefixed(cname[m], v);

				json_object_set_new(copy, "variant",
						    json_string(nv));
				free(nv);
			}
			if (m) {
				/* compared with the same-named configuration
				 * of the first campaign (or --map's) */
				char *bl;

				old = results_match_config(models[0], id, map);
				if (!old)
					kb_warn("%s has no configuration '%s' "
						"(give --map %s=OLD to name "
						"the one to compare with%s): %s "
						"is compared with its baseline "
						"%s", names[0], id, id,
						results_map_hint(id), nid,
						base0 ? base0 : "(none)");
				bl = prefixed(cname[0], old ? old :
					      base0 ? base0 : "");
				json_object_set_new(copy, "baseline",
						    json_string(bl));
				free(bl);
			}
			json_array_append_new(cfgs, copy);
			json_array_foreach(json_object_get(models[m], "runs"), k, r) {
				const char *rc = kb_jstr(r, "configuration");
				json_t *rr;

				if (!rc || strcmp(rc, id))
					continue;
				rr = json_deep_copy(r);
				/* its place in its own campaign's run order
				 * (the merged runs go configuration by
				 * configuration: the drift's slope per run
				 * would count the others' runs) */
				if (!json_is_number(json_object_get(rr,
								    "order")))
					json_object_set_new(rr, "order",
						json_integer((json_int_t)k));
				json_object_set_new(rr, "configuration",
						    json_string(nid));
				json_object_set_new(rr, "campaign",
						    json_string(cname[m]));
				json_array_append_new(runs, rr);
			}
			free(nid);
		}
	}
	camp = json_deep_copy(first);
	json_object_set_new(camp, "name", json_string(title));
	if (base0) {
		tmp = prefixed(cname[0], base0);
		json_object_set_new(camp, "baseline", json_string(tmp));
		free(tmp);
	}
	/* one run order for all, or none: stats/compare.h pairs rounds only
	 * within a campaign whose order is interleave or random */
	for (m = 1; m < n; m++)
		if (!json_equal(json_object_get(first, "order"),
				json_object_get(json_object_get(models[m],
					"campaign"), "order")))
			json_object_del(camp, "order");
	json_object_set_new(camp, "merged_from", from);
	/* the campaigns' progress summed: any unfinished one is said */
	results_sum_progress(camp, models, n);
	{
		/* the name each source's runs carry, in merged_from's order
		 * (reports/plots.c finds a run's raw artifacts with it) */
		json_t *nm = json_array();

		for (m = 0; m < n; m++)
			json_array_append_new(nm, json_string(cname[m]));
		json_object_set_new(camp, "merged_names", nm);
		/* and each one's order (a comparison within one campaign
		 * is paired by its rounds when its order has rounds) */
		nm = json_array();
		for (m = 0; m < n; m++) {
			json_t *o = json_object_get(json_object_get(models[m],
					"campaign"), "order");

			json_array_append_new(nm, json_is_string(o) ?
					      json_copy(o) : json_null());
		}
		json_object_set_new(camp, "merged_orders", nm);
	}
	json_object_set_new(camp, "environments", envs);
	job_file_diffs(camp, models, cname, n);
	{
		/* the settings in which the campaigns differ, each one's
		 * value in merged_names' order (null where it recorded
		 * none): the report's header shows them all; campaign.KEY
		 * keeps the first's */
		static const char *const keys[] = { "runtime_s", "iterations",
						    "warmup" };
		json_t *ms = json_object(), *a;
		size_t ki;

		for (ki = 0; ki < sizeof(keys) / sizeof(*keys); ki++) {
			for (m = 1; m < n; m++)
				if (!json_equal(json_object_get(first,
						keys[ki]), json_object_get(
						json_object_get(models[m],
						"campaign"), keys[ki])))
					break;
			if (m == n)
				continue;
			a = json_array();
			for (m = 0; m < n; m++) {
				json_t *v = json_object_get(json_object_get(
						models[m], "campaign"),
						keys[ki]);

				json_array_append_new(a, v ? json_copy(v) :
						      json_null());
			}
			json_object_set_new(ms, keys[ki], a);
		}
		if (json_object_size(ms))
			json_object_set_new(camp, "merged_settings", ms);
		else
			json_decref(ms);
	}
	out = json_pack("{s:i, s:s, s:o, s:o, s:o, s:[]}",
			"schema_version", KB_SCHEMA_VERSION, "kbench_version", KBENCH_VERSION,
			"campaign", camp, "configurations", cfgs, "runs", runs,
			"summaries");
	merge_superseded(out, models, cname, n);
	for (m = 0; m < n; m++)
		free(cname[m]);
	free(cname);
	free(title);
	return out;
fail:
	for (m = 0; m < n; m++)
		free(cname[m]);
	free(cname);
	free(title);
	json_decref(cfgs);
	json_decref(runs);
	json_decref(envs);
	json_decref(from);
	return NULL;
}

void results_sum_progress(json_t *camp, json_t *const *models, size_t n)
{
	json_int_t planned = 0, ndone = 0;
	int all = 1;
	size_t m;

	for (m = 0; m < n; m++) {
		json_t *pg = json_object_get(json_object_get(models[m],
					     "campaign"), "progress");

		all &= json_is_integer(json_object_get(pg, "planned"));
		planned += json_integer_value(json_object_get(pg, "planned"));
		ndone += json_integer_value(json_object_get(pg, "done"));
	}
	if (all)
		json_object_set_new(camp, "progress", json_pack("{s:I, s:I}",
				    "planned", planned, "done", ndone));
	else
		json_object_del(camp, "progress");
}

size_t results_drop_job_runs(json_t *res, const char *job)
{
	json_t *runs = json_object_get(res, "runs"), *kept, *r;
	size_t i, n = 0;

	if (!json_is_array(runs))
		return 0;
	kept = json_array();	/* one pass: no O(n^2) removals */
	json_array_foreach(runs, i, r) {
		const char *j = kb_jstr(r, "job");

		if (j && !strcmp(j, job))
			n++;
		else
			json_array_append(kept, r);
	}
	if (n)
		json_object_set(res, "runs", kept);
	json_decref(kept);
	return n;
}

json_t *results_pair_new(json_t *base)
{
	json_t *camp = json_copy(json_object_get(base, "campaign"));

	if (!json_is_object(camp)) {
		json_decref(camp);
		camp = json_object();
	}
	json_object_set_new(camp, "jobs", json_array());
	return json_pack("{s:i, s:o, s:[], s:[], s:[]}", "schema_version",
			 KB_SCHEMA_VERSION, "campaign", camp,
			 "configurations", "runs", "summaries");
}

void results_pair_add(json_t *merged, json_t *from, const char *id,
		      const char *label, const char *campaign)
{
	json_t *runs = json_object_get(merged, "runs"), *run, *copy, *j;
	json_t *jobs = json_object_get(json_object_get(merged, "campaign"),
				       "jobs");
	const char *c, *job;
	size_t i, k;
	int have;

	json_array_foreach(json_object_get(from, "runs"), i, run) {
		c = json_string_value(json_object_get(run, "configuration"));
		if (!c || strcmp(c, id))
			continue;
		copy = json_deep_copy(run);
		json_object_set_new(copy, "configuration", json_string(label));
		json_object_set_new(copy, "campaign", json_string(campaign));
		json_object_set_new(copy, "order", json_integer((json_int_t)i));
		json_array_append_new(runs, copy);
		job = json_string_value(json_object_get(run, "job"));
		have = 0;
		json_array_foreach(jobs, k, j)
			have |= job && !strcmp(json_string_value(j), job);
		if (job && !have)
			json_array_append_new(jobs, json_string(job));
	}
	json_array_append_new(json_object_get(merged, "configurations"),
			      json_pack("{s:s}", "id", label));
}

void results_pair_finish(json_t *merged, const char *baseline,
			 int exclude_disturbed)
{
	json_object_set_new(json_object_get(merged, "campaign"), "baseline",
			    json_string(baseline));
	json_object_set_new(merged, "analysis_options", json_pack("{s:b}",
			    "exclude_disturbed", exclude_disturbed));
}
