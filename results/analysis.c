/* results/analysis.c - the typed analysis and its one serializer: see
 * analysis.h. */
#include "results/analysis.h"
#include "results/json.h"
#include "lib/file.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Grow the array *arr of *n rows of size bytes by one zeroed row;
 * returns it. */
static void *add_row(void *arr, size_t *n, size_t size)
{
	void **p = arr;
	char *row;

	*p = kb_xrealloc(*p, (*n + 1) * size);
	row = (char *)*p + *n * size;
	memset(row, 0, size);
	(*n)++;
	return row;
}

struct kb_summary_row *kb_analysis__add_summary(struct kb_analysis *a)
{
	return add_row(&a->summaries, &a->nsummaries, sizeof(*a->summaries));
}

struct kb_comparison_row *kb_analysis__add_comparison(struct kb_analysis *a)
{
	return add_row(&a->comparisons, &a->ncomparisons, sizeof(*a->comparisons));
}

struct kb_sample_check_row *kb_analysis__add_sample_check(
	struct kb_analysis *a)
{
	return add_row(&a->sample_checks, &a->nsample_checks, sizeof(*a->sample_checks));
}

struct kb_profile_overhead_row *kb_analysis__add_profile_overhead(
	struct kb_analysis *a)
{
	return add_row(&a->profile_overhead, &a->nprofile_overhead,
		       sizeof(*a->profile_overhead));
}

/* Free n summary rows and the array. */
static void summary_rows_free(struct kb_summary_row *rows, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct kb_summary_row *s = &rows[i];

		free(s->configuration);
		free(s->job);
		free(s->metric);
		if (s->modes) {
			for (k = 0; k < 2; k++)
				free(s->modes->side[k].iterations.v);
			free(s->modes->warning);
			free(s->modes);
		}
	}
	free(rows);
}

void kb_analysis__clear_summaries(struct kb_analysis *a)
{
	summary_rows_free(a->summaries, a->nsummaries);
	a->summaries = NULL;
	a->nsummaries = 0;
}

void kb_analysis__clear_profiling(struct kb_analysis *a)
{
	size_t i;

	summary_rows_free(a->profiling_summaries, a->nprofiling_summaries);
	for (i = 0; i < a->nprofile_overhead; i++) {
		free(a->profile_overhead[i].configuration);
		free(a->profile_overhead[i].job);
	}
	free(a->profile_overhead);
	a->profiling_summaries = NULL;
	a->profile_overhead = NULL;
	a->nprofiling_summaries = a->nprofile_overhead = 0;
	a->profiling_sampled = 0;
}

void kb_comparison_row__clear(struct kb_comparison_row *c)
{
	free(c->configuration);
	free(c->baseline);
	free(c->job);
	free(c->metric);
	free(c->analysis_reason);
	free(c->wilcoxon.method);
	free(c->outliers.v);
	free(c->outliers_baseline.v);
	free(c->bimodal_baseline);
	free(c->bimodal_configuration);
	free(c->accel_baseline);
	free(c->accel_configuration);
	free(c->reason);
	memset(c, 0, sizeof(*c));
}

void kb_analysis__clear_comparisons(struct kb_analysis *a)
{
	size_t i;

	for (i = 0; i < a->ncomparisons; i++)
		kb_comparison_row__clear(&a->comparisons[i]);
	for (i = 0; i < a->nsample_checks; i++) {
		struct kb_sample_check_row *s = &a->sample_checks[i];

		free(s->configuration);
		free(s->job);
		free(s->metric);
		free(s->outliers.v);
		free(s->bimodal);
	}
	free(a->comparisons);
	free(a->sample_checks);
	a->comparisons = NULL;
	a->sample_checks = NULL;
	a->ncomparisons = a->nsample_checks = 0;
	memset(&a->settings, 0, sizeof(a->settings));
}

void kb_analysis__clear(struct kb_analysis *a)
{
	kb_analysis__clear_summaries(a);
	kb_analysis__clear_comparisons(a);
	kb_analysis__clear_profiling(a);
}

/* a and b both set and equal */
static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

const struct kb_summary_row *kb_summary_rows__find(
	const struct kb_summary_row *rows, size_t n, const char *cfg,
	const char *job, const char *metric)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct kb_summary_row *s = &rows[i];

		if (same(s->configuration, cfg) && same(s->job, job) &&
		    same(s->metric, metric))
			return s;
	}
	return NULL;
}

const struct kb_summary_row *kb_analysis__summary(const struct kb_analysis *a,
						 const char *cfg,
						 const char *job,
						 const char *metric)
{
	return kb_summary_rows__find(a->summaries, a->nsummaries, cfg, job,
				     metric);
}

const struct kb_comparison_row *kb_analysis__comparison(
	const struct kb_analysis *a, const char *cfg, const char *base,
	const char *job, const char *metric)
{
	size_t i;

	for (i = 0; i < a->ncomparisons; i++) {
		const struct kb_comparison_row *c = &a->comparisons[i];

		if (same(c->configuration, cfg) &&
		    (!base || same(c->baseline, base)) &&
		    same(c->job, job) && same(c->metric, metric))
			return c;
	}
	return NULL;
}

/* ---- the serializer ------------------------------------------------- */

static json_t *jstr_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *iters_json(const struct kb_iters *it)
{
	json_t *a = json_array();
	size_t k;

	for (k = 0; k < it->n; k++)
		json_array_append_new(a, json_integer(it->v[k]));
	return a;
}

static json_t *drift_json(const struct kb_drift_row *d)
{
	if (!d->present)
		return json_null();
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:b}",
		"n", (json_int_t)d->n, "slope_per_run", kb_jreal(d->slope_per_run),
		"slope_ci95_lo", kb_jreal(d->slope_ci95_lo),
		"slope_ci95_hi", kb_jreal(d->slope_ci95_hi),
		"p", kb_jreal(d->p), "change_pct", kb_jreal(d->change_pct),
		"warn", d->warn);
}

static json_t *wilcoxon_json(const struct kb_wilcoxon_row *w)
{
	if (!w->present)
		return json_null();
	return json_pack("{s:o, s:o, s:b, s:I, s:I, s:I, s:s}",
		"w_plus", kb_jreal(w->w_plus), "p", kb_jreal(w->p),
		"exact", w->exact, "n", (json_int_t)w->n,
		"zeros", (json_int_t)w->zeros, "tied", (json_int_t)w->tied,
		"method", w->method ? w->method : "");
}

static json_t *modes_json(const struct kb_modes_row *m)
{
	json_t *arr;
	int k;

	if (!m)
		return json_null();
	arr = json_array();
	for (k = 0; k < 2; k++)
		json_array_append_new(arr, json_pack(
			"{s:I, s:o, s:o, s:o, s:o, s:o}",
			"n", (json_int_t)m->side[k].n,
			"mean", kb_jreal(m->side[k].mean),
			"sd", kb_jreal(m->side[k].sd),
			"min", kb_jreal(m->side[k].min),
			"max", kb_jreal(m->side[k].max),
			"iterations", iters_json(&m->side[k].iterations)));
	return json_pack("{s:o, s:o, s:o, s:s}", "modes", arr,
			 "gap", kb_jreal(m->gap), "spread", kb_jreal(m->spread),
			 "warning", m->warning ? m->warning : "");
}

static json_t *summary_json(const struct kb_summary_row *s)
{
	json_t *e = json_object();
	json_object_set_new(e, "configuration", json_string(s->configuration));
	json_object_set_new(e, "job", json_string(s->job));
	json_object_set_new(e, "metric", json_string(s->metric));
	json_object_set_new(e, "unit", jstr_or_null(s->unit));
	json_object_set_new(e, "direction", json_string(s->direction));
	json_object_set_new(e, "n", json_integer((json_int_t)s->n));
	json_object_set_new(e, "mean", kb_jreal(s->mean));
	json_object_set_new(e, "sd", s->has_sd ? kb_jreal(s->sd) : json_null());
	json_object_set_new(e, "cv_pct",
			    s->has_sd ? kb_jreal(s->cv_pct) : json_null());
	json_object_set_new(e, "min", kb_jreal(s->min));
	json_object_set_new(e, "median", kb_jreal(s->median));
	json_object_set_new(e, "max", kb_jreal(s->max));
	json_object_set_new(e, "ci95_lo",
			    s->has_sd ? kb_jreal(s->ci95_lo) : json_null());
	json_object_set_new(e, "ci95_hi",
			    s->has_sd ? kb_jreal(s->ci95_hi) : json_null());
	json_object_set_new(e, "diff_pct", kb_jreal(s->diff_pct));
	json_object_set_new(e, "note", s->has_sd ? json_null() :
			    json_string("n=1: no variance estimate"));
	json_object_set_new(e, "modes", modes_json(s->modes));
	if (s->harmonic)	/* kb_summarize_fixed_work() */
		json_object_set_new(e, "mean_kind", json_string("harmonic"));
	return e;
}

static json_t *summaries_json(const struct kb_summary_row *rows, size_t n)
{
	json_t *out = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(out, summary_json(&rows[i]));
	return out;
}

void kb_analysis__summaries_to_json(const struct kb_analysis *a,
				    json_t *results)
{
	json_object_set_new(results, "summaries",
			    summaries_json(a->summaries, a->nsummaries));
}

void kb_analysis__profiling_to_json(const struct kb_analysis *a,
				    json_t *results)
{
	json_t *out;
	size_t i;

	json_object_del(results, "profiling_summaries");
	json_object_del(results, "profile_overhead");
	if (a->profiling_sampled)
		json_object_set_new(results, "profiling_summaries",
				    summaries_json(a->profiling_summaries,
						   a->nprofiling_summaries));
	if (!a->nprofile_overhead)
		return;
	out = json_array();
	for (i = 0; i < a->nprofile_overhead; i++) {
		const struct kb_profile_overhead_row *o =
			&a->profile_overhead[i];

		json_array_append_new(out, json_pack(
			"{s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o}",
			"configuration", o->configuration ? o->configuration :
			"", "job", o->job ? o->job : "",
			"metric", "iops", "sampled", o->sampled ? o->sampled : "",
			"n", (json_int_t)o->n, "ratio", kb_jreal(o->ratio),
			"ci95_lo", kb_jreal(o->ci95_lo),
			"ci95_hi", kb_jreal(o->ci95_hi)));
	}
	json_object_set_new(results, "profile_overhead", out);
}

/* The members of a comparison entry in the order written: one table for
 * the serializer and kb_comparison_row__from_json(). */
enum cmp_type {
	C_STR,		/* char *, owned */
	C_CSTR,		/* const char *: static, or borrowed from the tree
			 * when read back */
	C_SIZE,		/* size_t */
	C_NPAIRS,	/* long, -1 = null */
	C_DBL,		/* double, NAN = null */
	C_REAL,		/* double, always a number */
	C_BOOL,		/* int */
	C_ITERS,	/* struct kb_iters */
	C_WILCOXON,
	C_DRIFT,
	C_BIMODAL,
};

#define CF(name, type) { #name, type, offsetof(struct kb_comparison_row, name) }
static const struct cmp_field {
	const char *key;
	enum cmp_type type;
	size_t off;
} cmp_fields[] = {
	CF(configuration, C_STR), CF(baseline, C_STR), CF(job, C_STR),
	CF(metric, C_STR), CF(unit, C_CSTR), CF(direction, C_CSTR),
	CF(analysis, C_CSTR), CF(analysis_reason, C_STR),
	CF(n, C_SIZE), CF(n_baseline, C_SIZE), CF(n_pairs, C_NPAIRS),
	CF(mean, C_DBL), CF(mean_baseline, C_DBL), CF(cv_pct, C_DBL),
	CF(cv_baseline_pct, C_DBL), CF(sd_log_ratio_pct, C_DBL),
	CF(sd_log_pct, C_DBL), CF(sd_log_baseline_pct, C_DBL),
	CF(diff, C_DBL), CF(diff_ci95_lo, C_DBL), CF(diff_ci95_hi, C_DBL),
	CF(change_pct, C_DBL), CF(change_ci95_lo_pct, C_DBL),
	CF(change_ci95_hi_pct, C_DBL), CF(t, C_DBL), CF(df, C_DBL),
	CF(p, C_DBL), CF(welch_t, C_DBL), CF(welch_df, C_DBL),
	CF(welch_p, C_DBL), CF(p_adjusted, C_DBL), CF(mw_u, C_DBL),
	CF(mw_p, C_DBL), CF(mw_exact, C_BOOL), CF(wilcoxon, C_WILCOXON),
	CF(alpha, C_REAL), CF(min_effect_pct, C_REAL),
	CF(max_mde_pct, C_REAL), CF(mde_pct, C_DBL),
	CF(outliers, C_ITERS), CF(outliers_baseline, C_ITERS),
	CF(warmup_suspect, C_SIZE), CF(warmup_suspect_baseline, C_SIZE),
	CF(drift_baseline, C_DRIFT), CF(drift_configuration_pct, C_DBL),
	CF(bimodal, C_BIMODAL),
};
#undef CF

static json_t *cmp_field_json(const struct kb_comparison_row *r,
			      const struct cmp_field *f)
{
	const void *at = (const char *)r + f->off;

	switch (f->type) {
	case C_STR:
	case C_CSTR:
		return json_string(*(const char *const *)at);
	case C_SIZE:
		return json_integer((json_int_t)*(const size_t *)at);
	case C_NPAIRS:
		return *(const long *)at < 0 ? json_null() :
		       json_integer(*(const long *)at);
	case C_DBL:
		return kb_jreal(*(const double *)at);
	case C_REAL:
		return json_real(*(const double *)at);
	case C_BOOL:
		return json_boolean(*(const int *)at);
	case C_ITERS:
		return iters_json(at);
	case C_WILCOXON:
		return wilcoxon_json(at);
	case C_DRIFT:
		return drift_json(at);
	case C_BIMODAL:
		return !r->bimodal ? json_null() : json_pack("{s:o, s:o}",
			"baseline", jstr_or_null(r->bimodal_baseline),
			"configuration", jstr_or_null(r->bimodal_configuration));
	}
	return json_null();
}

static json_t *comparison_json(const struct kb_comparison_row *r)
{
	json_t *e = json_object();
	size_t i;

	for (i = 0; i < sizeof(cmp_fields) / sizeof(cmp_fields[0]); i++)
		json_object_set_new(e, cmp_fields[i].key,
				    cmp_field_json(r, &cmp_fields[i]));
	if (r->accel_baseline && r->accel_configuration)
		json_object_set_new(e, "accel_mismatch", json_pack(
			"{s:s, s:s}", "baseline", r->accel_baseline,
			"configuration", r->accel_configuration));
	json_object_set_new(e, "verdict", jstr_or_null(r->verdict));
	json_object_set_new(e, "reason", jstr_or_null(r->reason));
	return e;
}

static json_t *sample_check_json(const struct kb_sample_check_row *s)
{
	return json_pack("{s:s, s:s, s:s, s:I, s:o, s:I, s:o, s:o}",
		"configuration", s->configuration, "job", s->job,
		"metric", s->metric, "n", (json_int_t)s->n,
		"outliers", iters_json(&s->outliers),
		"warmup_suspect", (json_int_t)s->warmup_suspect,
		"drift", drift_json(&s->drift),
		"bimodal", jstr_or_null(s->bimodal));
}

void kb_analysis__comparisons_to_json(const struct kb_analysis *a,
				      json_t *results)
{
	const struct kb_comparison_settings *s = &a->settings;
	json_t *out = json_array(), *checks = json_array();
	size_t i;

	for (i = 0; i < a->ncomparisons; i++)
		json_array_append_new(out, comparison_json(&a->comparisons[i]));
	for (i = 0; i < a->nsample_checks; i++)
		json_array_append_new(checks,
				      sample_check_json(&a->sample_checks[i]));
	json_object_set_new(results, "comparisons", out);
	json_object_set_new(results, "sample_checks", checks);
	json_object_set_new(results, "comparison_settings", json_pack(
		"{s:f, s:s, s:I, s:f, s:b}",
		"alpha", s->alpha,
		"p_adjustment", s->p_adjustment ? s->p_adjustment :
				"Benjamini-Hochberg",
		"family_size", (json_int_t)s->family_size,
		"power_for_mde", s->power_for_mde,
		"outliers_excluded", s->outliers_excluded));
}

/* ---- reading back ---------------------------------------------------- */

static double jdbl(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static size_t jsize(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ?
	       (size_t)json_integer_value(v) : 0;
}

static struct kb_iters iters_from_json(json_t *a)
{
	struct kb_iters it = { kb_xcalloc(json_array_size(a) + 1,
					  sizeof(long)), 0 };
	json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (json_is_integer(v))
			it.v[it.n++] = (long)json_integer_value(v);
	return it;
}

static struct kb_drift_row drift_from_json(json_t *d)
{
	struct kb_drift_row r = { 0 };

	if (!json_is_object(d))
		return r;
	r.present = 1;
	r.n = jsize(d, "n");
	r.slope_per_run = jdbl(d, "slope_per_run");
	r.slope_ci95_lo = jdbl(d, "slope_ci95_lo");
	r.slope_ci95_hi = jdbl(d, "slope_ci95_hi");
	r.p = jdbl(d, "p");
	r.change_pct = jdbl(d, "change_pct");
	r.warn = json_is_true(json_object_get(d, "warn"));
	return r;
}

static struct kb_modes_row *modes_from_json(json_t *m)
{
	struct kb_modes_row *r;
	size_t k;

	if (!json_is_object(m))
		return NULL;
	r = kb_xcalloc(1, sizeof(*r));
	for (k = 0; k < 2; k++) {
		json_t *side = json_array_get(json_object_get(m, "modes"), k);

		r->side[k].n = jsize(side, "n");
		r->side[k].mean = jdbl(side, "mean");
		r->side[k].sd = jdbl(side, "sd");
		r->side[k].min = jdbl(side, "min");
		r->side[k].max = jdbl(side, "max");
		r->side[k].iterations = iters_from_json(json_object_get(side,
			"iterations"));
	}
	r->gap = jdbl(m, "gap");
	r->spread = jdbl(m, "spread");
	r->warning = kb_jstrdup(m, "warning");
	return r;
}

void kb_comparison_row__from_json(json_t *e, struct kb_comparison_row *r)
{
	json_t *w, *mm;
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < sizeof(cmp_fields) / sizeof(cmp_fields[0]); i++) {
		const struct cmp_field *f = &cmp_fields[i];
		json_t *v = json_object_get(e, f->key);
		void *at = (char *)r + f->off;

		switch (f->type) {
		case C_STR:
			*(char **)at = kb_jstrdup(e, f->key);
			break;
		case C_CSTR:
			*(const char **)at = json_string_value(v);
			break;
		case C_SIZE:
			*(size_t *)at = jsize(e, f->key);
			break;
		case C_NPAIRS:
			*(long *)at = json_is_integer(v) ?
				      (long)json_integer_value(v) : -1;
			break;
		case C_DBL:
		case C_REAL:
			*(double *)at = jdbl(e, f->key);
			break;
		case C_BOOL:
			*(int *)at = json_is_true(v);
			break;
		case C_ITERS:
			*(struct kb_iters *)at = iters_from_json(v);
			break;
		case C_WILCOXON:
			break;	/* below */
		case C_DRIFT:
			*(struct kb_drift_row *)at = drift_from_json(v);
			break;
		case C_BIMODAL:
			r->bimodal = json_is_object(v);
			r->bimodal_baseline = kb_jstrdup(v, "baseline");
			r->bimodal_configuration = kb_jstrdup(v, "configuration");
			break;
		}
	}
	w = json_object_get(e, "wilcoxon");
	if (json_is_object(w)) {
		r->wilcoxon.present = 1;
		r->wilcoxon.w_plus = jdbl(w, "w_plus");
		r->wilcoxon.p = jdbl(w, "p");
		r->wilcoxon.exact = json_is_true(json_object_get(w, "exact"));
		r->wilcoxon.n = jsize(w, "n");
		r->wilcoxon.zeros = jsize(w, "zeros");
		r->wilcoxon.tied = jsize(w, "tied");
		r->wilcoxon.method = kb_jstrdup(w, "method");
	}
	mm = json_object_get(e, "accel_mismatch");
	r->accel_baseline = kb_jstrdup(mm, "baseline");
	r->accel_configuration = kb_jstrdup(mm, "configuration");
	r->verdict = kb_jstr(e, "verdict");
	r->reason = kb_jstrdup(e, "reason");
}

static void summary_from_json(json_t *e, struct kb_summary_row *r)
{
	r->configuration = kb_jstrdup(e, "configuration");
	r->job = kb_jstrdup(e, "job");
	r->metric = kb_jstrdup(e, "metric");
	r->unit = kb_jstr(e, "unit");
	r->direction = kb_jstr(e, "direction") ?: "neutral";
	r->n = jsize(e, "n");
	r->mean = jdbl(e, "mean");
	r->sd = jdbl(e, "sd");
	r->cv_pct = jdbl(e, "cv_pct");
	r->min = jdbl(e, "min");
	r->median = jdbl(e, "median");
	r->max = jdbl(e, "max");
	r->ci95_lo = jdbl(e, "ci95_lo");
	r->ci95_hi = jdbl(e, "ci95_hi");
	r->diff_pct = jdbl(e, "diff_pct");
	r->has_sd = !json_is_string(json_object_get(e, "note"));
	r->harmonic = !strcmp(kb_jstr(e, "mean_kind") ?: "", "harmonic");
	r->modes = modes_from_json(json_object_get(e, "modes"));
	r->modes_absent = !json_object_get(e, "modes");
}

static void sample_check_from_json(json_t *e, struct kb_sample_check_row *r)
{
	r->configuration = kb_jstrdup(e, "configuration");
	r->job = kb_jstrdup(e, "job");
	r->metric = kb_jstrdup(e, "metric");
	r->n = jsize(e, "n");
	r->outliers = iters_from_json(json_object_get(e, "outliers"));
	r->warmup_suspect = jsize(e, "warmup_suspect");
	r->drift = drift_from_json(json_object_get(e, "drift"));
	r->bimodal = kb_jstrdup(e, "bimodal");
}

void kb_analysis__from_json(json_t *results, struct kb_analysis *a)
{
	json_t *e, *set = json_object_get(results, "comparison_settings");
	size_t i;

	memset(a, 0, sizeof(*a));
	json_array_foreach(json_object_get(results, "summaries"), i, e)
		summary_from_json(e, kb_analysis__add_summary(a));
	json_array_foreach(json_object_get(results, "comparisons"), i, e)
		kb_comparison_row__from_json(e,
					     kb_analysis__add_comparison(a));
	json_array_foreach(json_object_get(results, "sample_checks"), i, e)
		sample_check_from_json(e, kb_analysis__add_sample_check(a));
	e = json_object_get(results, "profiling_summaries");
	a->profiling_sampled = json_is_array(e);
	if (a->profiling_sampled) {
		a->nprofiling_summaries = json_array_size(e);
		a->profiling_summaries = kb_xcalloc(a->nprofiling_summaries + 1,
			sizeof(*a->profiling_summaries));
		for (i = 0; i < a->nprofiling_summaries; i++)
			summary_from_json(json_array_get(e, i),
					  &a->profiling_summaries[i]);
	}
	json_array_foreach(json_object_get(results, "profile_overhead"), i, e) {
		struct kb_profile_overhead_row *o =
			kb_analysis__add_profile_overhead(a);

		o->configuration = kb_jstrdup(e, "configuration");
		o->job = kb_jstrdup(e, "job");
		o->sampled = kb_jstr(e, "sampled");
		o->n = jsize(e, "n");
		o->ratio = jdbl(e, "ratio");
		o->ci95_lo = jdbl(e, "ci95_lo");
		o->ci95_hi = jdbl(e, "ci95_hi");
	}
	a->settings.alpha = jdbl(set, "alpha");
	a->settings.p_adjustment = kb_jstr(set, "p_adjustment");
	a->settings.family_size = jsize(set, "family_size");
	a->settings.power_for_mde = jdbl(set, "power_for_mde");
	a->settings.outliers_excluded = json_is_true(json_object_get(set,
		"outliers_excluded"));
}
