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

void kb_analysis__clear_summaries(struct kb_analysis *a)
{
	size_t i, k;

	for (i = 0; i < a->nsummaries; i++) {
		struct kb_summary_row *s = &a->summaries[i];

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
	free(a->summaries);
	a->summaries = NULL;
	a->nsummaries = 0;
}

void kb_analysis__clear_comparisons(struct kb_analysis *a)
{
	size_t i;

	for (i = 0; i < a->ncomparisons; i++) {
		struct kb_comparison_row *c = &a->comparisons[i];

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
	}
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
	json_object_set_new(e, "unit", json_string(s->unit));
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

void kb_analysis__summaries_to_json(const struct kb_analysis *a,
				    json_t *results)
{
	json_t *out = json_array();
	size_t i;

	for (i = 0; i < a->nsummaries; i++)
		json_array_append_new(out, summary_json(&a->summaries[i]));
	json_object_set_new(results, "summaries", out);
}

/* The members of a comparison entry in the order written: one table for
 * the serializer and kb_comparison_row__from_json(). */
enum cmp_type {
	C_STR,		/* char * / const char * */
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
	CF(metric, C_STR), CF(unit, C_STR), CF(direction, C_STR),
	CF(analysis, C_STR), CF(analysis_reason, C_STR),
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
	CF(drift_baseline, C_DRIFT), CF(bimodal, C_BIMODAL),
};
#undef CF

static json_t *cmp_field_json(const struct kb_comparison_row *r,
			      const struct cmp_field *f)
{
	const void *at = (const char *)r + f->off;

	switch (f->type) {
	case C_STR:
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

void kb_comparison_row__from_json(json_t *e, struct kb_comparison_row *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < sizeof(cmp_fields) / sizeof(cmp_fields[0]); i++) {
		const struct cmp_field *f = &cmp_fields[i];
		json_t *v = json_object_get(e, f->key);
		void *at = (char *)r + f->off;

		switch (f->type) {
		case C_STR:
			*(const char **)at = json_string_value(v);
			break;
		case C_SIZE:
			*(size_t *)at = json_is_integer(v) ?
					(size_t)json_integer_value(v) : 0;
			break;
		case C_NPAIRS:
			*(long *)at = json_is_integer(v) ?
				      (long)json_integer_value(v) : -1;
			break;
		case C_DBL:
		case C_REAL:
			*(double *)at = json_is_number(v) ?
					json_number_value(v) : NAN;
			break;
		case C_BOOL:
			*(int *)at = json_is_true(v);
			break;
		default:	/* arrays and objects: not read back */
			break;
		}
	}
	r->verdict = kb_jstr(e, "verdict");
	r->reason = (char *)kb_jstr(e, "reason");
}
