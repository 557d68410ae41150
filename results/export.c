/* results/export.c - the results.json export (docs/results-format.md):
 * results_load_export() loads one written by kbench for `kbench report
 * --from-json`, results_export_dumps() serializes a model (results/model.h). */
#include "results/model.h"
#include "results/json.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "CONFIGURATION JOB iteration N" of run, printable ("?" for what it
 * lacks; malloc'd): which run a message means; without the iteration
 * when the message is about it (iter 0). */
static char *run_name(json_t *run, long long warmup, int iter)
{
	json_t *it = json_object_get(run, "iteration");
	char *c = kb_xstrndup_printable(kb_jstr(run, "configuration") ?: "?",
					80);
	char *j = kb_xstrndup_printable(kb_jstr(run, "job") ?: "?", 80);
	char lb[KB_ITER_LABEL_MAX], *ret;

	ret = kb_xasprintf("%s %s%s%s", c, j, iter ? " iteration " : "",
			   !iter ? "" : json_is_integer(it) ?
			   kb_iteration_label(json_integer_value(it), warmup,
					      lb) : "?");
	free(j);
	free(c);
	return ret;
}

/* A warning naming path, results[member][first] and its key, the value
 * there (as JSON), what is wrong with it and what was expected (what),
 * and how many runs of member have the same problem (n). */
static void say_run(const char *path, json_t *results, const char *member,
		    size_t first, size_t n, const char *key, const char *what)
{
	json_t *run = json_array_get(json_object_get(results, member), first);
	json_t *v = json_object_get(run, key);
	char *dump = v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
	char *pv = kb_xstrndup_printable(dump ? dump : "absent", 40);
	char *name = run_name(run, kb_results_warmup(results),
			      strcmp(key, "iteration"));

	if (n > 1)
		kb_warn("%s: %s[%zu].%s %s (%s) %s (%zu more run(s) "
			"likewise)", path, member, first, key, pv, name, what,
			n - 1);
	else
		kb_warn("%s: %s[%zu].%s %s (%s) %s", path, member, first, key,
			pv, name, what);
	free(name);
	free(pv);
	free(dump);
}

/* The runs of results[member] ("runs", "profiling_runs") whose "status"
 * is none kbench writes, and those whose "iteration" is a whole number
 * above KB_ROUND_MAX: said (say_run()); the first read as failed
 * (results/json.h kb_run_counts()), the others left out of the
 * statistics ("excluded", as results/rmodel.c leaves out an "iteration"
 * that is no whole number >= 0). */
static void check_runs(const char *path, json_t *results, const char *member)
{
	json_t *run, *it;
	size_t i, nstatus = 0, status_first = 0, niter = 0, iter_first = 0;
	const char *s;
	char *why = NULL;

	json_array_foreach(json_object_get(results, member), i, run) {
		s = kb_jstr(run, "status");
		if ((!s || (strcmp(s, "ok") && strcmp(s, "failed"))) &&
		    !nstatus++)
			status_first = i;
		/* a break-it trial: 2^62 paired with no other round, every
		 * "vs base" n/a in silence */
		it = json_object_get(run, "iteration");
		if (json_is_integer(it) &&
		    json_integer_value(it) > KB_ROUND_MAX) {
			if (!niter++)
				iter_first = i;
			if (!why)
				why = kb_xasprintf("damaged: \"iteration\" is "
						   "above %d", KB_ROUND_MAX);
			json_object_set_new(run, "excluded",
					    json_string(why));
		}
	}
	if (niter) {
		char *what = kb_xasprintf("is out of range; expected the "
			"run's round, a whole number from 0 to %d: the run is "
			"left out of the statistics", KB_ROUND_MAX);

		say_run(path, results, member, iter_first, niter, "iteration",
			what);
		free(what);
	}
	free(why);
	/* a break-it trial: "status": "OK" only made the table say "no
	 * successful runs" */
	if (nstatus)
		say_run(path, results, member, status_first, nstatus, "status",
			"is not a status kbench writes; expected \"ok\" or "
			"\"failed\": the run is read as failed");
}

/* res (the reference taken) checked as a results model named path:
 * res, or NULL with a message. */
static json_t *check_export(const char *path, json_t *res)
{
	json_t *ver;

	if (!json_is_object(res)) {
		kb_error("%s: not a kbench results.json (the document is not "
			 "a JSON object)", path);
		goto fail;
	}
	ver = json_object_get(res, "schema_version");
	if (!ver) {
		kb_error("%s: not a kbench results.json (no schema_version); "
			 "give the results.json of a campaign directory",
			 path);
		goto fail;
	}
	if (!json_is_integer(ver) ||
	    json_integer_value(ver) != KB_SCHEMA_VERSION) {
		char *v = json_dumps(ver, JSON_ENCODE_ANY);

		kb_error("%s: schema_version %s is not supported; this kbench "
			 "(%s) reads schema_version %d (use the kbench that "
			 "wrote it, or rebuild it with 'kbench report "
			 "--reparse DIR')", path, v ? v : "?", KBENCH_VERSION,
			 KB_SCHEMA_VERSION);
		free(v);
		goto fail;
	}
	if (!json_is_array(json_object_get(res, "runs")) &&
	    !json_object_get(res, "summaries")) {
		/* state.json (runs: an object), campaign.json (a plan) and
		 * results.json all carry a schema_version */
		kb_error("%s: not a kbench results.json (%s); give the "
			 "results.json of a campaign directory", path,
			 json_is_object(json_object_get(res, "runs")) ?
			 "a campaign's state.json, by its keys" :
			 json_object_get(res, "plan") ?
			 "a campaign's campaign.json, by its keys" :
			 "no \"runs\" array, no \"summaries\"");
		goto fail;
	}
	if (!json_is_array(json_object_get(res, "runs"))) {
		kb_error("%s: schema_version 1 but no \"runs\" array; the file "
			 "is damaged (see docs/results-format.md)", path);
		goto fail;
	}
	check_runs(path, res, "runs");
	check_runs(path, res, "profiling_runs");
	return res;
fail:
	json_decref(res);
	return NULL;
}

json_t *results_load_export(const char *path)
{
	json_t *res = kb_json_load(path);

	return res ? check_export(path, res) : NULL;
}

int results_load_exports(const char *path, json_t ***models, char ***names,
			 size_t *n)
{
	json_t *doc = kb_json_load(path), *one;
	size_t i, k = json_array_size(doc);

	*models = NULL;
	*names = NULL;
	*n = 0;
	if (!doc)
		return -1;
	if (!json_is_array(doc)) {
		*models = kb_xcalloc(1, sizeof(**models));
		*names = kb_xcalloc(1, sizeof(**names));
		(*names)[0] = kb_xstrdup(path);
		if (!((*models)[0] = check_export(path, doc))) {
			free((*names)[0]);
			free(*names);
			free(*models);
			*names = NULL;
			*models = NULL;
			return -1;
		}
		*n = 1;
		return 0;
	}
	if (!k) {
		kb_error("%s: an empty array: no results model in it (kbench "
			 "report --separate -f json writes one per campaign)",
			 path);
		json_decref(doc);
		return -1;
	}
	*models = kb_xcalloc(k, sizeof(**models));
	*names = kb_xcalloc(k, sizeof(**names));
	for (i = 0; i < k; i++) {
		(*names)[i] = kb_xasprintf("%s[%zu]", path, i);
		one = json_incref(json_array_get(doc, i));
		if (!((*models)[i] = check_export((*names)[i], one))) {
			results_exports_free(*models, *names, i + 1);
			*models = NULL;
			*names = NULL;
			json_decref(doc);
			return -1;
		}
	}
	*n = k;
	json_decref(doc);
	return 0;
}

void results_exports_free(json_t **models, char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		json_decref(models ? models[i] : NULL);
		free(names ? names[i] : NULL);
	}
	free(models);
	free(names);
}

char *results_export_dumps(const json_t *results)
{
	return json_dumps(results, JSON_INDENT(2) | JSON_SORT_KEYS |
			  JSON_REAL_PRECISION(17));
}

int results_dumpf(FILE *out, const json_t *doc)
{
	if (kb_json_dumpf_shown(doc, out, JSON_INDENT(2) | JSON_SORT_KEYS) ||
	    fputc('\n', out) == EOF)
		return -EIO;
	return 0;
}

int results_export_write(const char *path, const json_t *results,
			 unsigned flags)
{
	return kb_json_text_write_atomic(path, results_export_dumps(results),
					 flags);
}

size_t results_run_count(const json_t *results)
{
	return json_array_size(json_object_get(results, "runs"));
}

void results_free(json_t *results)
{
	json_decref(results);
}
