/* results/json.h - reading the results model (docs/results-format.md),
 * shared by the statistics (summary.c, compare.c). */
#ifndef KB_RESULTS_JSON_H
#define KB_RESULTS_JSON_H

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "lib/file.h"

/* The string member key of obj, or NULL. */
static inline const char *kb_jstr(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* A malloc'd copy of the string member key of obj, or NULL: for the
 * typed structs read from kbench's own files. */
static inline char *kb_jstrdup(json_t *obj, const char *key)
{
	const char *s = kb_jstr(obj, key);

	return s ? kb_xstrdup(s) : NULL;
}

/* The object member key of obj, created empty (replacing a member of
 * another type) when it is not an object: for updating nested records
 * such as campaign.json's environment.vm.  Borrowed reference. */
static inline json_t *kb_json_object_member(json_t *obj, const char *key)
{
	json_t *m = json_object_get(obj, key);

	if (!json_is_object(m)) {
		m = json_object();
		json_object_set_new(obj, key, m);
	}
	return m;
}

/* A JSON number, or null when v is NaN/Inf (never NaN in JSON). */
static inline json_t *kb_jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* 1 when a run enters the statistics: status "ok", not a warm-up and not
 * "excluded" (a string saying why): results/model.c excludes a run
 * flagged suspect (buffered reads that measured the page cache without
 * kernels.conf allow_page_cache = yes) or one that ran on another kernel
 * build than its configuration's other runs; stats_mark_disturbed_in()
 * excludes a disturbed run ("disturbed") when
 * results.analysis_options.exclude_disturbed is on (`--exclude-disturbed`). */
static inline int kb_run_counts(json_t *run)
{
	const char *status = kb_jstr(run, "status");

	return status && !strcmp(status, "ok") &&
	       !json_is_true(json_object_get(run, "warmup")) &&
	       !json_is_string(json_object_get(run, "excluded"));
}

/* The campaign's warm-up rounds per (configuration, job): campaign.warmup,
 * 0 when absent; with kb_iteration_label() (results/paths.h) it turns a
 * stored "iteration" (the round index) into the number a reader sees. */
static inline long long kb_results_warmup(json_t *results)
{
	return json_integer_value(json_object_get(json_object_get(results,
					"campaign"), "warmup"));
}

/* 1 when the campaign sweeps a job parameter (kernels.conf "sweep":
 * "sweep": true in campaign.tunables). */
static inline int kb_swept(json_t *results)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(results,
			   "campaign"), "tunables"), i, t)
		if (json_is_true(json_object_get(t, "sweep")))
			return 1;
	return 0;
}

/* The summary (docs/results-format.md) of (cfg, job, metric) in the
 * summaries array, or NULL. */
static inline json_t *stats_find_summary(json_t *summaries, const char *cfg,
					 const char *job, const char *metric)
{
	json_t *e;
	size_t i;

	json_array_foreach(summaries, i, e) {
		const char *ec = kb_jstr(e, "configuration");
		const char *ej = kb_jstr(e, "job");
		const char *em = kb_jstr(e, "metric");

		if (ec && ej && em && !strcmp(ec, cfg) && !strcmp(ej, job) &&
		    !strcmp(em, metric))
			return e;
	}
	return NULL;
}

/* 1 for the verdicts of stats/compare.h that call a change significant:
 * "improvement", "regression", "significant difference" (the cells the
 * reports mark with '*'); 0 for any other verdict or NULL. */
static inline int kb_verdict_significant(const char *verdict)
{
	return verdict && (!strcmp(verdict, "improvement") ||
			   !strcmp(verdict, "regression") ||
			   !strcmp(verdict, "significant difference"));
}

/* 1 when a comparison's change CI may be printed: not for an
 * "inconclusive" verdict (stats/compare.c set_verdict(): two performance
 * modes, whose mean describes neither; a baseline drifting more than the
 * change; boots under different QEMU accelerators), whose CI stays in
 * results.json but is not one the analysis stands behind (B44: a
 * bimodal sample's "-15.5..-0.7" read as a clear slowdown beside
 * "inconclusive"); tables print n/a. */
static inline int kb_verdict_shows_ci(const char *verdict)
{
	return !verdict || strcmp(verdict, "inconclusive");
}

/* The comparison (docs/results-format.md "comparisons", filled by
 * stats_fill_comparisons_in()) of cfg against baseline for (job, metric) in
 * results, or NULL when it was not compared. */
static inline json_t *kb_find_comparison(json_t *results, const char *cfg,
					 const char *baseline,
					 const char *job, const char *metric)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(results, "comparisons"), i, e) {
		const char *ec = kb_jstr(e, "configuration");
		const char *eb = kb_jstr(e, "baseline");
		const char *ej = kb_jstr(e, "job");
		const char *em = kb_jstr(e, "metric");

		if (ec && eb && ej && em && !strcmp(ec, cfg) &&
		    !strcmp(eb, baseline) && !strcmp(ej, job) &&
		    !strcmp(em, metric))
			return e;
	}
	return NULL;
}

#endif
