/* results/validate.c - see validate.h. */
#include "results/validate.h"
#include "results/paths.h"
#include "parsers/json_file.h"
#include "parsers/run_dir.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A run key as the plan writes it: CONFIG/JOB/NNN, NNN all digits. */
static int key_ok(const char *key)
{
	const char *a = strchr(key, '/'), *b = a ? strchr(a + 1, '/') : NULL;

	size_t klen;

	if (!a || a == key || !b || b == a + 1 || !b[1])
		return 0;
	for (b++; *b >= '0' && *b <= '9'; b++)
		;
	if (!*b)
		return 1;
	/* an extra run: NNN-profilingK or NNN-unsampledK (paths.h) */
	if (!kb_run_key_extra(b, &klen) || b[-1] == '/' ||
	    (strncmp(b + 1, "profiling", klen) &&
	     strncmp(b + 1, "unsampled", klen)) || klen != 9 || !b[1 + klen])
		return 0;
	for (b += 1 + klen; *b; b++)
		if (*b < '0' || *b > '9')
			return 0;
	return 1;
}

static void add_repair(struct kb_repairs *r, const char *key, char *why)
{
	r->key = kb_xrealloc(r->key, (r->n + 1) * sizeof(*r->key));
	r->why = kb_xrealloc(r->why, (r->n + 1) * sizeof(*r->why));
	r->key[r->n] = kb_xstrdup(key);
	r->why[r->n++] = why;
}

static int check_version(const char *path, json_t *doc, int required)
{
	json_t *v = json_object_get(doc, "schema_version");
	char got[64];

	if (!v && !required)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) == KB_SCHEMA_VERSION)
		return 0;
	if (json_is_integer(v))	/* a newer kbench's files, or an older's */
		snprintf(got, sizeof(got), "%lld (%s kbench's)",
			 (long long)json_integer_value(v),
			 json_integer_value(v) > KB_SCHEMA_VERSION ?
			 "a newer" : "another");
	kb_error("%s: schema_version: expected %d (this kbench's), got %s",
		 path, KB_SCHEMA_VERSION, json_is_integer(v) ? got : !v ?
		 "none" : "a value that is not a whole number");
	return -EINVAL;
}

/* The metrics' numbers, not looked at: validation asks only that
 * "metrics" be an object (a repeated key cannot matter then). */
static int skip_number(void *ctx, const char *key, size_t keylen, double v)
{
	(void)ctx;
	(void)key;
	(void)keylen;
	(void)v;
	return 0;
}

static int skip_has(void *ctx, const char *key, size_t keylen)
{
	(void)ctx;
	(void)key;
	(void)keylen;
	return 0;
}

/* metrics.json of a run recorded ok: NULL when fine, else why. */
static char *metrics_problem(const char *path)
{
	/* the metrics' numbers go nowhere: no json_real per metric
	 * (parsers/json_file.h); the file whole, one read (a resume
	 * validates every run's file: issue 16) */
	static const struct kb_json_sink skip = { "metrics", skip_number,
		skip_has, NULL };
	char *why = NULL;
	json_t *m = kb_json_load_why(path, &skip, &why);

	if (!m)
		return why;
	if (!json_is_object(m))
		why = kb_xstrdup("not a JSON object");
	else if (!json_is_string(json_object_get(m, "status")))
		why = kb_xstrdup("no \"status\" string");
	else if (!json_is_object(json_object_get(m, "metrics")))
		why = kb_xstrdup("no \"metrics\" object");
	json_decref(m);
	return why;
}

int results_validate_campaign(const char *dir, struct kb_repairs *repairs)
{
	char *cjpath = kb_path_join(dir, "campaign.json");
	char *spath = kb_path_join(dir, "state.json");
	json_t *cj = kb_json_load(cjpath), *st = NULL;
	int ret = -EINVAL;

	if (!cj)
		goto out;
	if (kb_exists(spath)) {
		st = kb_json_load(spath);
		if (!st && !repairs)
			goto out;
		if (!st)
			repairs->state_unusable = 1;
	}
	ret = results_validate_docs(dir, cj, st, repairs);
out:
	json_decref(cj);
	json_decref(st);
	free(cjpath);
	free(spath);
	return ret;
}

/* A problem of state.json: an error, or with repairs (kbench run's
 * resume) a warning and repairs->state_unusable, the state then rebuilt
 * from the runs on disk (runner/campaign.c) instead of a campaign that
 * cannot go on or, its state moved away, redoes every run. */
#define STATE_PROBLEM(...)						\
	do {								\
		if (repairs) {						\
			kb_warn(__VA_ARGS__);				\
			repairs->state_unusable = 1;			\
		} else {						\
			kb_error(__VA_ARGS__);				\
			bad = state_bad = 1;				\
		}							\
	} while (0)

int results_validate_docs(const char *dir, json_t *cj, json_t *st,
			  struct kb_repairs *repairs)
{
	char *cjpath = kb_path_join(dir, "campaign.json");
	char *spath = kb_path_join(dir, "state.json");
	json_t *plan, *runs, *e, *c, *inplan = NULL;
	const char *key;
	int bad = 0, state_bad = 0;
	size_t i;

	if (!json_is_object(cj)) {
		kb_error("%s: not a JSON object", cjpath);
		bad = 1;
		goto out;
	}
	if (check_version(cjpath, cj, 1))
		bad = 1;
	if (!json_is_object(json_object_get(cj, "campaign"))) {
		kb_error("%s: \"campaign\": expected an object", cjpath);
		bad = 1;
	}
	plan = json_object_get(cj, "plan");
	if (!json_is_array(plan)) {
		kb_error("%s: \"plan\": expected an array of run keys", cjpath);
		bad = 1;
	}
	inplan = json_object();	/* the plan's keys, for O(1) look-ups */
	json_array_foreach(plan, i, e) {
		if (!json_is_string(e) || !key_ok(json_string_value(e))) {
			kb_error("%s: plan[%zu]: expected a run key "
				 "CONFIGURATION/JOB/NNN[-profilingK|-unsampledK]", cjpath, i);
			bad = 1;
		} else {
			json_object_set_new(inplan, json_string_value(e),
					    json_true());
		}
	}
	if (!json_is_array(json_object_get(cj, "configurations"))) {
		kb_error("%s: \"configurations\": expected an array", cjpath);
		bad = 1;
	}
	json_array_foreach(json_object_get(cj, "configurations"), i, c)
		if (!json_is_string(json_object_get(c, "id"))) {
			kb_error("%s: configurations[%zu]: expected an object "
				 "with a string \"id\"", cjpath, i);
			bad = 1;
		}
	if (!st)	/* no state.json: nothing done yet */
		goto out;
	runs = json_object_get(st, "runs");
	if (!json_is_object(st) || !json_is_object(runs)) {
		STATE_PROBLEM("%s: \"runs\": expected an object of run keys "
			      "(a kbench state file)", spath);
		goto out;
	}
	if (check_version(spath, st, 0))
		bad = 1;	/* a newer kbench's: never rebuilt over */
	json_object_foreach(runs, key, e) {
		const char *s = json_string_value(json_object_get(e, "status"));
		json_t *why = json_object_get(e, "reason");
		char *pk, *problem = NULL;

		pk = kb_xstrndup_printable(key, 120);
		if (!json_object_get(inplan, key)) {
			STATE_PROBLEM("%s: runs.\"%s\": not a run of the plan "
				      "in campaign.json", spath, pk);
		} else if ((problem = results_state_run_problem(spath, key,
								  e))) {
			STATE_PROBLEM("%s", problem);
		} else if (why && !json_is_string(why) && !json_is_null(why)) {
			STATE_PROBLEM("%s: runs.\"%s\".reason: expected a "
				      "string or null", spath, pk);
		} else if (json_object_get(e, "finished") &&
			   !json_is_string(json_object_get(e, "finished"))) {
			STATE_PROBLEM("%s: runs.\"%s\".finished: expected a "
				      "time string", spath, pk);
		} else if (!strcmp(s, "ok") && repairs) {
			char *mp = kb_run_file(dir, key, "metrics.json");
			char *p = metrics_problem(mp);

			if (p)
				add_repair(repairs, key, kb_xasprintf("%s: %s",
					   mp, p));
			free(p);
			free(mp);
		}
		free(problem);
		free(pk);
	}
out:
	if (state_bad)
		results_state_hint(spath, dir);
	json_decref(inplan);
	free(cjpath);
	free(spath);
	return bad ? -EINVAL : 0;
}

int results_repair_runs(const char *dir, const struct kb_repairs *r)
{
	char *spath = kb_path_join(dir, "state.json");
	json_t *st = NULL, *runs;
	int ret = 0, changed = 0;
	size_t i;

	if (!r->n)
		goto out;
	st = kb_json_load(spath);
	runs = json_object_get(st, "runs");
	if (!runs) {
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < r->n && !ret; i++) {
		char *rdir = kb_run_dir(dir, r->key[i]);
		char *mp = kb_path_join(rdir, "metrics.json");
		int gone = !kb_exists(rdir);
		json_t *m = gone ? NULL : run_dir_parse(rdir);
		const char *s = json_string_value(json_object_get(m, "status"));

		if (gone) {
			/* deleted: nothing to re-parse (run_dir_parse would
			 * call its missing run.json an error) */
			json_object_del(runs, r->key[i]);
			changed = 1;
			kb_warn("run %s: its directory %s is gone; it will be "
				"run again", r->key[i], rdir);
		} else if (m && s && !strcmp(s, "ok")) {
			/* the labels the runner adds; the rest is the parse */
			json_object_set_new(m, "repaired", json_string(
				"metrics.json re-parsed from the raw artefacts"));
			ret = kb_json_write_atomic(mp, m);
			if (!ret)
				kb_warn("run %s: %s; re-parsed from its raw "
					"artefacts (nothing redone)", r->key[i],
					r->why[i]);
		} else {
			json_object_del(runs, r->key[i]);
			changed = 1;
			kb_warn("run %s: %s, and its raw artefacts do not parse; "
				"it will be run again", r->key[i], r->why[i]);
		}
		json_decref(m);
		free(mp);
		free(rdir);
	}
	if (!ret && changed)
		ret = kb_json_write_atomic(spath, st);
out:
	json_decref(st);
	free(spath);
	return ret;
}

void results_repairs_say(const char *dir, const struct kb_repairs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		kb_warn("run %s: %s: counted as done here; kbench run -o %s "
			"re-parses it from its raw artefacts or runs it again",
			r->key[i], r->why[i], dir);
}

void results_repairs_free(struct kb_repairs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->key[i]);
		free(r->why[i]);
	}
	free(r->key);
	free(r->why);
	memset(r, 0, sizeof(*r));
}

void results_state_hint(const char *spath, const char *dir)
{
	kb_error("%s: `kbench run -o %s` rebuilds it from the runs on disk "
		 "(keeping this one aside)", spath, dir);
}

char *results_state_run_problem(const char *path, const char *key,
				const json_t *e)
{
	const char *s = json_string_value(json_object_get(e, "status"));
	char *pk, *why;

	if (json_is_object(e) && s && (!strcmp(s, "ok") ||
				       !strcmp(s, "failed")))
		return NULL;
	pk = kb_xstrndup_printable(key, 120);
	why = json_is_object(e) ?
	      kb_xasprintf("%s: runs.\"%s\".status: expected \"ok\" or "
			   "\"failed\"", path, pk) :
	      kb_xasprintf("%s: runs.\"%s\": expected an object "
			   "({\"status\": \"ok\", ...}), got %s", path, pk,
			   kb_json_kind(e));
	free(pk);
	return why;
}
