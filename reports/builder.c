/* reports/builder.c - the report builder: reads a results model (its
 * summaries, comparisons and runs) and builds the report model of
 * reports/table.h: the header, per job the comparison table with its
 * notes, the CPU/time tables, the profile tables and the layouts
 * (kb_report_build(), the layouts table). */
#include "results/analysis.h"
#include "results/json.h"
#include "results/paths.h"
#include "results/rmodel.h"
#include "lib/str.h"
#include "stats/summary.h"
#include "stats/compare.h"
#include "stats/disturbed.h"
#include "reports/table.h"
#include "reports/report.h"
#include "reports/profile.h"
#include "reports/layout.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "parsers/fio_probe.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the results model ------------------------------------- */

/* A member as a number; 0 and *ok = 0 when absent, null or not a number. */
static double jnum(json_t *obj, const char *key, int *ok)
{
	json_t *v = json_object_get(obj, key);

	*ok = json_is_number(v) && isfinite(json_number_value(v));
	return *ok ? json_number_value(v) : 0.0;
}


struct cfg {
	const char *id;
	const char *variant;
	json_t *tunables;	/* {"NM": "0"} or NULL */
};

struct ctx {
	json_t *results, *summaries, *runs, *campaign;
	struct cfg *cfgs;	/* in display order (grouped) */
	int *group_start;
	size_t ncfgs;
	struct kb_strlist labels;	/* tunable labels */
	struct kb_strlist jobs;
	const char *baseline;
	/* the summaries and comparisons as typed rows, read once
	 * (kb_analysis__from_json()): what the layouts read */
	struct kb_analysis an;
	/* the typed model (results/rmodel.h), built once when a layout is
	 * asked for (NULL otherwise): the runs, values and campaign
	 * metadata the layouts read */
	struct kb_rmodel *rm;
};

/* run's iteration as a reader numbers it: "3", "w1" (kb_iteration_label(),
 * results/paths.h) into b. */
static const char *run_iteration(struct ctx *c, json_t *run,
				 char b[KB_ITER_LABEL_MAX])
{
	return kb_iteration_label(json_integer_value(json_object_get(run,
			"iteration")), kb_results_warmup(c->results), b);
}

/* The comparison (stats/compare.h) of cfg against its baseline
 * (stats_baseline_for(): the campaign's, or in merged campaigns the
 * same-named configuration of the first). */
static json_t *find_comparison(struct ctx *c, const char *cfg,
			       const char *job, const char *metric)
{
	const char *bl = stats_baseline_for(c->results, cfg) ?: c->baseline;
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(c->results, "comparisons"), i, e) {
		const char *ec = kb_jstr(e, "configuration");
		const char *eb = kb_jstr(e, "baseline");
		const char *ej = kb_jstr(e, "job");
		const char *em = kb_jstr(e, "metric");

		if (ec && eb && ej && em && !strcmp(ec, cfg) &&
		    !strcmp(eb, bl) && !strcmp(ej, job) &&
		    !strcmp(em, metric))
			return e;
	}
	return NULL;
}

static int job_has_metric(struct ctx *c, const char *job, const char *metric)
{
	json_t *e;
	size_t i;

	json_array_foreach(c->summaries, i, e) {
		const char *ej = kb_jstr(e, "job");
		const char *em = kb_jstr(e, "metric");

		if (ej && em && !strcmp(ej, job) && !strcmp(em, metric))
			return 1;
	}
	return 0;
}

static int results_have_metric(struct ctx *c, const char *metric)
{
	json_t *e;
	size_t i;

	json_array_foreach(c->summaries, i, e) {
		const char *em = kb_jstr(e, "metric");

		if (em && !strcmp(em, metric))
			return 1;
	}
	return 0;
}

/* The value of tunable label for cfg, "" when the configuration has no
 * such tunable (a stock kernel without the knob, as in seed 000). */
static const char *tunable_value(const struct cfg *cfg, const char *label)
{
	json_t *v = json_object_get(cfg->tunables, label);

	if (json_is_string(v))
		return json_string_value(v);
	return "";
}

static void add_cfg(struct ctx *c, struct cfg *all, size_t *n, const char *id,
		    const char *variant, json_t *tunables)
{
	size_t i;

	if (!id)
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(all[i].id, id))
			return;
	all[*n].id = id;
	all[*n].variant = variant ? variant : id;
	all[*n].tunables = json_is_object(tunables) ? tunables : NULL;
	(*n)++;
	(void)c;
}

/* Configurations in kernels.conf order, then any only named by summaries
 * or runs; then grouped by the first tunable's value (order of first
 * appearance, stable), a blank line between groups. */
static void collect_cfgs(struct ctx *c)
{
	json_t *configs = json_object_get(c->results, "configurations");
	size_t i, k, n = 0, max, done;
	struct kb_strlist values = { 0 };
	struct cfg *all;
	json_t *e;

	max = json_array_size(configs) + json_array_size(c->summaries) +
	      json_array_size(c->runs) + 1;
	all = kb_xcalloc(max, sizeof(*all));
	json_array_foreach(configs, i, e)
		add_cfg(c, all, &n, kb_jstr(e, "id"), kb_jstr(e, "variant"),
			json_object_get(e, "tunables"));
	json_array_foreach(c->summaries, i, e)
		add_cfg(c, all, &n, kb_jstr(e, "configuration"), NULL, NULL);
	json_array_foreach(c->runs, i, e)
		add_cfg(c, all, &n, kb_jstr(e, "configuration"), NULL, NULL);

	c->cfgs = kb_xcalloc(n + 1, sizeof(*c->cfgs));
	c->group_start = kb_xcalloc(n + 1, sizeof(*c->group_start));
	c->ncfgs = n;
	if (!c->labels.n) {
		memcpy(c->cfgs, all, n * sizeof(*all));
		goto out;
	}
	for (i = 0; i < n; i++)
		kb_strlist_add(&values, tunable_value(&all[i], c->labels.v[0]));
	done = 0;
	for (k = 0; k < values.n; k++) {
		for (i = 0; i < n; i++) {
			if (strcmp(tunable_value(&all[i], c->labels.v[0]),
				   values.v[k]))
				continue;
			c->group_start[done] = k > 0 && (done == 0 ||
				strcmp(tunable_value(&c->cfgs[done - 1],
						     c->labels.v[0]),
				       values.v[k]));
			c->cfgs[done++] = all[i];
		}
	}
	/* groups of one row each (a single variant): no blank lines */
	if (values.n == n)
		memset(c->group_start, 0, n * sizeof(*c->group_start));
out:
	free(values.v);
	free(all);
}

static void collect_labels_jobs(struct ctx *c)
{
	json_t *e, *v;
	const char *key;
	size_t i;

	json_array_foreach(json_object_get(c->campaign, "tunables"), i, e)
		kb_strlist_add(&c->labels, kb_jstr(e, "label"));
	if (!c->labels.n) {
		json_array_foreach(json_object_get(c->results,
					"configurations"), i, e)
			json_object_foreach(json_object_get(e, "tunables"),
					    key, v)
				kb_strlist_add(&c->labels, key);
	}
	json_array_foreach(json_object_get(c->campaign, "jobs"), i, e)
		kb_strlist_add(&c->jobs, json_string_value(e));
	json_array_foreach(c->summaries, i, e)
		kb_strlist_add(&c->jobs, kb_jstr(e, "job"));
	json_array_foreach(c->runs, i, e)
		kb_strlist_add(&c->jobs, kb_jstr(e, "job"));
}

/* ---- numbers ------------------------------------------------------- */

/* Decimals by unit: rates, percentages and seconds with 2 (472.39, as
 * seed 000), nanoseconds, milliseconds, KiB and counts as integers. */
int kb_metric_decimals(const char *metric)
{
	const struct kb_metric_def *d = kb_metric_find(metric);

	if (!d)
		return 2;
	if (!strcmp(d->unit, "ns") || !strcmp(d->unit, "ms") ||
	    !strcmp(d->unit, "KiB") || !strcmp(d->unit, "count"))
		return 0;
	return 2;
}

static int is_iops(const char *metric)
{
	size_t l = strlen(metric);

	return l > 5 && !strcmp(metric + l - 5, ".iops");
}

/* 1 if label ends with " <unit>" (the unit is already in the label). */
static int ends_with_word(const char *label, const char *unit)
{
	size_t l = strlen(label), u = strlen(unit);

	return l > u && label[l - u - 1] == ' ' && !strcmp(label + l - u, unit);
}

/* Column heading of a metric: "I/Os per sec" for the one IOPS metric
 * (seed 000), "read I/Os per sec" when several are shown, else the label
 * of lib/metrics.h with its unit; an unknown metric by its name. */
static char *metric_head(const char *metric, int several_iops)
{
	const struct kb_metric_def *d = kb_metric_find(metric);
	const char *u;

	if (!d)
		return kb_xstrdup(metric);
	if (is_iops(metric))
		return several_iops ?
			kb_xasprintf("%.*s I/Os per sec",
				     (int)(strlen(metric) - 5), metric) :
			kb_xstrdup("I/Os per sec");
	u = d->unit;
	if ((!strcmp(u, "ns") || !strcmp(u, "s") || !strcmp(u, "ms") ||
	     !strcmp(u, "KiB") || !strcmp(u, "KiB/s")) &&
	    !ends_with_word(d->label, u))
		return kb_xasprintf("%s %s", d->label, u);
	return kb_xstrdup(d->label);
}

/* "of 3 iterations" / "of 2-3 iterations" over the samples of job for
 * the given metrics; NULL when there is none. */
static char *iterations_phrase(struct ctx *c, const char *job,
			       const char **metrics, size_t nmetrics)
{
	long lo = -1, hi = -1, n;
	size_t i, m;
	json_t *s;
	int ok;

	for (i = 0; i < c->ncfgs; i++) {
		for (m = 0; m < nmetrics; m++) {
			s = stats_find_summary(c->summaries, c->cfgs[i].id, job,
					       metrics[m]);
			if (!s)
				continue;
			n = (long)jnum(s, "n", &ok);
			if (!ok)
				continue;
			if (lo < 0 || n < lo)
				lo = n;
			if (n > hi)
				hi = n;
		}
	}
	if (lo < 0)
		return NULL;
	if (lo == hi)
		return kb_xasprintf("%ld iteration%s", lo, lo == 1 ? "" : "s");
	return kb_xasprintf("%ld-%ld iterations", lo, hi);
}

/* Key columns: "Kernel" (the variant), one per tunable label. */
static void add_key_cols(struct ctx *c, struct kb_table *t)
{
	size_t i;

	kb_table_add_col(t, "Kernel", 0, 0);
	for (i = 0; i < c->labels.n; i++)
		kb_table_add_col(t, c->labels.v[i], 1, 0);
}

static size_t add_cfg_row(struct ctx *c, struct kb_table *t, size_t i)
{
	size_t row = kb_table_add_row(t, c->group_start[i]), l;

	kb_table_set(t, row, 0, "%s", c->cfgs[i].variant);
	for (l = 0; l < c->labels.n; l++)
		kb_table_set(t, row, 1 + l, "%s",
			     tunable_value(&c->cfgs[i], c->labels.v[l]));
	return row;
}

/* ---- the comparison table ------------------------------------------ */

/* "w1, 1, 3" from an array of stored iterations (round indexes), as a
 * reader numbers them (kb_iteration_label(), results/paths.h); NULL when
 * the array is empty. */
static char *iter_text(json_t *arr, long long warmup)
{
	char *s = NULL, *tmp, b[KB_ITER_LABEL_MAX];
	json_t *v;
	size_t i;

	json_array_foreach(arr, i, v) {
		tmp = kb_xasprintf("%s%s%s", s ? s : "", s ? ", " : "",
				   kb_iteration_label(json_integer_value(v),
						      warmup, b));
		free(s);
		s = tmp;
	}
	return s;
}

/* The notes of one sample's checks (stats/compare.h): its outliers
 * (iterations), a warm-up too short (warmup leading outliers), a drift
 * over the run order (d, when it warns). */
static void outlier_note(struct ctx *c, struct kb_table *t, const char *cfg,
			 const char *metric, json_t *iters)
{
	char *it = iter_text(iters, kb_results_warmup(c->results));

	if (it)
		kb_table_add_note(t, "outlier(s) (MAD modified z > 3.5, kept "
				  "unless --exclude-outliers): %s %s "
				  "iteration %s", cfg, metric, it);
	free(it);
}

static void warmup_note(struct kb_table *t, const char *cfg, double warmup)
{
	if (warmup > 0)
		kb_table_add_note(t, "warning: the first %lld timed run(s) of "
				  "%s are outliers: warm-up too short; raise "
				  "warmup", (long long)warmup, cfg);
}

static void drift_note(struct kb_table *t, const char *cfg,
		       const char *metric, json_t *d, const char *advice)
{
	int ok, ok2;

	if (json_is_true(json_object_get(d, "warn")))
		kb_table_add_note(t, "warning: %s of %s%s drifts %+.2f%% over "
				  "the run order (slope p = %.2g), more than "
				  "the minimum effect%s", metric,
				  advice ? "baseline " : "", cfg,
				  jnum(d, "change_pct", &ok), jnum(d, "p", &ok2),
				  advice ? advice : "");
}

/* Under the table of a configuration in no comparison (a campaign of
 * one configuration): its outliers, warm-up and drift
 * (results.sample_checks, stats/compare.h), as the comparisons' notes
 * give them for compared ones. */
static void sample_check_notes(struct ctx *c, struct kb_table *t,
			       const char *job, const char **metrics,
			       size_t nm)
{
	json_t *e;
	size_t i, m;
	int ok;

	json_array_foreach(json_object_get(c->results, "sample_checks"), i, e) {
		const char *cfg = kb_jstr(e, "configuration") ?: "";
		const char *metric = kb_jstr(e, "metric") ?: "";

		if (strcmp(kb_jstr(e, "job") ?: "", job))
			continue;
		for (m = 0; m < nm && strcmp(metrics[m], metric); m++)
			;
		if (m == nm)
			continue;
		outlier_note(c, t, cfg, metric, json_object_get(e, "outliers"));
		warmup_note(t, cfg, jnum(e, "warmup_suspect", &ok));
		drift_note(t, cfg, metric, json_object_get(e, "drift"), NULL);
	}
}

/* Rates of fixed-size jobs (stats/summary.h kb_summarize_fixed_work):
 * say how their mean and CI were made. */
static void fixed_work_note(struct ctx *c, struct kb_table *t,
			    const char *job, const char **metrics, size_t nm)
{
	size_t i, m;

	for (m = 0; m < nm; m++)
		for (i = 0; i < c->ncfgs; i++)
			if (!strcmp(kb_jstr(stats_find_summary(c->summaries,
				c->cfgs[i].id, job, metrics[m]), "mean_kind") ?:
				"", "harmonic")) {
				kb_table_add_note(t, "fixed-size jobs (not "
					"time_based): IOPS and bandwidth are "
					"total work over total time, the "
					"harmonic mean of the runs' rates; "
					"their CI is computed on the time per "
					"unit of work and inverted");
				return;
			}
}

/* With --exclude-outliers: every value left out, by run (the runs'
 * excluded_outliers, stats_mark_outliers()). */
static void dropped_outlier_notes(struct ctx *c, struct kb_table *t,
				  const char *job)
{
	char *list = NULL, *tmp, b[KB_ITER_LABEL_MAX];
	const char *name;
	json_t *run, *v;
	size_t i;

	json_array_foreach(c->runs, i, run) {
		if (strcmp(kb_jstr(run, "job") ?: "", job))
			continue;
		json_object_foreach(json_object_get(run, "excluded_outliers"),
				    name, v) {
			tmp = kb_xasprintf("%s%s%s %s iteration %s (%.6g)",
				list ? list : "", list ? ", " : "",
				kb_jstr(run, "configuration") ?: "?", name,
				run_iteration(c, run, b), json_number_value(v));
			free(list);
			list = tmp;
		}
	}
	if (list)
		kb_table_add_note(t, "left out of the statistics "
				  "(--exclude-outliers): %s", list);
	free(list);
}

/* Under the comparison table: how significance was decided, the
 * minimum detectable effect, outliers, drift, warm-up and samples too
 * small to test (stats/compare.h). */
static void comparison_notes(struct ctx *c, struct kb_table *t,
			     const char *job, const char **metrics, size_t nm,
			     size_t nsig)
{
	json_t *set = json_object_get(c->results, "comparison_settings");
	unsigned char *base_done;
	json_t *e;
	size_t i, m;
	int ok, ok2, any = 0;
	struct kb_comparison_row row;
	char *mt;

	for (m = 0; m < nm; m++)
		for (i = 0; i < c->ncfgs; i++)
			any |= !!find_comparison(c, c->cfgs[i].id, job,
						 metrics[m]);
	if (!any)
		return;
	base_done = kb_xcalloc(nm + 1, 1);
	{
		/* the analyses of this table's comparisons, each once */
		struct kb_strlist an = { 0 };
		const char *a;

		for (m = 0; m < nm; m++)
			for (i = 0; i < c->ncfgs; i++) {
				e = find_comparison(c, c->cfgs[i].id, job,
						    metrics[m]);
				a = e ? kb_jstr(e, "analysis") : NULL;
				if (a && !kb_strlist_has(&an, a)) {
					kb_strlist_add(&an, a);
					kb_table_add_note(t, "analysis: %s",
						kb_analysis_text(a));
				}
			}
		free(an.v);
	}
	kb_table_add_note(t, "significant: that test's p < %g after "
		"Benjamini-Hochberg adjustment over the %lld comparisons in "
		"results.json (false discovery rate %g), and |change| >= the "
		"minimum effect; %zu cell(s) marked%s",
		jnum(set, "alpha", &ok), (long long)jnum(set, "family_size",
		&ok2), jnum(set, "alpha", &ok), nsig,
		json_is_true(json_object_get(set, "outliers_excluded")) ?
		"; outliers excluded (--exclude-outliers)" : "");
	for (m = 0; m < nm; m++) {
		for (i = 0; i < c->ncfgs; i++) {
			e = find_comparison(c, c->cfgs[i].id, job, metrics[m]);
			if (!e)
				continue;
			/* the spread of this comparison's analysis */
			kb_comparison_row__from_json(e, &row);
			mt = kb_mde_text(&row);
			if (mt)
				kb_table_add_note(t, "%s, %s: %s", metrics[m],
						  c->cfgs[i].id, mt);
			free(mt);
			kb_comparison_row__clear(&row);
			/* once per metric: the baseline's properties */
			if (!base_done[m]) {
				base_done[m] = 1;
				drift_note(t, c->baseline, metrics[m],
					   json_object_get(e, "drift_baseline"),
					   ": results may be inconclusive; use "
					   "order = interleave");
				outlier_note(c, t, c->baseline, metrics[m],
					     json_object_get(e,
						"outliers_baseline"));
				warmup_note(t, c->baseline, jnum(e,
					    "warmup_suspect_baseline", &ok));
			}
			outlier_note(c, t, c->cfgs[i].id, metrics[m],
				     json_object_get(e, "outliers"));
			warmup_note(t, c->cfgs[i].id, jnum(e, "warmup_suspect",
							   &ok));
			if (kb_jstr(e, "verdict") && (!strcmp(kb_jstr(e, "verdict"),
			    "insufficient samples") || !strcmp(kb_jstr(e,
			    "verdict"), "inconclusive") || !strcmp(kb_jstr(e,
			    "verdict"), "underpowered")))
				kb_table_add_note(t, "%s %s: %s (%s)",
					c->cfgs[i].id, metrics[m],
					kb_jstr(e, "verdict"), kb_jstr(e, "reason") ?:
					"");
		}
	}
	free(base_done);
}

/* Under the comparison table: the share of disturbed runs per
 * configuration (stats/disturbed.h), which runs and why, and a
 * configuration disturbed more often than the baseline called out as a
 * finding (its own kernel threads, say: a result, not noise). */
static void disturbed_notes(struct ctx *c, struct kb_table *t,
			    const char *job)
{
	int excluded = json_is_true(json_object_get(json_object_get(
		c->results, "analysis_options"), "exclude_disturbed"));
	size_t i, k, bd, bn, anyd = 0, nc = c->ncfgs;
	/* [0, nc): the configurations, [nc]: the baseline */
	const char **ids = kb_xcalloc(nc + 2, sizeof(*ids));
	size_t *d = kb_xcalloc(nc + 2, sizeof(*d));
	size_t *n = kb_xcalloc(nc + 2, sizeof(*n));
	char **list = kb_xcalloc(nc + 1, sizeof(*list));
	size_t *len = kb_xcalloc(nc + 1, sizeof(*len));
	FILE **f = kb_xcalloc(nc + 1, sizeof(*f));
	char *shares = NULL, *tmp;
	json_t *run;

	for (i = 0; i < nc; i++)
		ids[i] = c->cfgs[i].id;
	ids[nc] = c->baseline;
	stats_disturbed_counts(c->results, ids, nc + 1, job, d, n);
	bd = d[nc];
	bn = n[nc];
	for (i = 0; i < nc; i++) {
		anyd += d[i];
		tmp = kb_xasprintf("%s%s%s %zu of %zu (%.0f%%)", shares ?
				   shares : "", shares ? ", " : "",
				   c->cfgs[i].id, d[i], n[i],
				   n[i] ? 100.0 * (double)d[i] / (double)n[i] :
				   0.0);
		free(shares);
		shares = tmp;
	}
	if (!anyd)
		goto out;
	kb_table_add_note(t, "disturbed runs (other tasks, steal, CPU "
		"pressure or lost idle past the thresholds; %s): %s",
		excluded ? "left out of the statistics: --exclude-disturbed" :
		"kept; --exclude-disturbed leaves them out", shares);
	/* which runs, per configuration: one pass over the runs, each list
	 * appended in place (linear time at 100k runs, issue 16) */
	json_array_foreach(c->runs, k, run) {
		json_t *why = json_object_get(run, "disturbed"), *w;
		const char *rc;
		char b[KB_ITER_LABEL_MAX];
		size_t wi;

		if (!json_array_size(why) ||
		    json_is_true(json_object_get(run, "warmup")) ||
		    strcmp(kb_jstr(run, "job") ?: "", job))
			continue;
		rc = kb_jstr(run, "configuration") ?: "";
		for (i = 0; i < nc && strcmp(rc, c->cfgs[i].id); i++)
			;
		if (i == nc)
			continue;
		if (!f[i])
			f[i] = kb_xmemstream(&list[i], &len[i]);
		else
			fputs(", ", f[i]);
		fprintf(f[i], "%s (", run_iteration(c, run, b));
		json_array_foreach(why, wi, w)
			fprintf(f[i], "%s%s", wi ? "; " : "",
				json_string_value(w) ?: "");
		fputc(')', f[i]);
	}
	for (i = 0; i < nc; i++) {
		if (!f[i])
			continue;
		if (fclose(f[i])) {
			kb_error("out of memory for a note");
			abort();
		}
		kb_table_add_note(t, "disturbed: %s %s iteration %s",
				  c->cfgs[i].id, job, list[i]);
	}
	for (i = 0; i < nc; i++) {
		if (!strcmp(c->cfgs[i].id, c->baseline))
			continue;
		/* more often than the baseline by at least 2 runs and 10
		 * points: one run more is chance */
		if (!n[i] || !bn || d[i] < bd + 2 || (double)d[i] /
		    (double)n[i] < (double)bd / (double)bn + 0.10)
			continue;
		kb_table_add_note(t, "finding: %s was disturbed more often "
			"than the baseline %s (%zu of %zu runs vs %zu of %zu): "
			"what disturbed it may be the configuration's own "
			"doing (its kernel threads, say), a result to report "
			"rather than noise to retry away", c->cfgs[i].id,
			c->baseline, d[i], n[i], bd, bn);
	}
out:
	for (i = 0; i < nc; i++)
		free(list[i]);
	free(shares);
	free(ids);
	free(d);
	free(n);
	free(list);
	free(len);
	free(f);
}

/* What "vs base" compares with, for the legend: "baseline B", or for
 * campaigns merged by results_merge() (results/model.h) the same-named
 * configuration of the first campaign (malloc'd). */
static char *merged_baselines(struct ctx *c)
{
	if (json_array_size(json_object_get(c->campaign, "merged_from")) < 2)
		return kb_xasprintf("baseline %s", c->baseline);
	return kb_xasprintf("the configuration of the same name of the first "
			    "campaign, %.*s (or the one --map names; when it "
			    "has none, and for %.*s's own configurations: its "
			    "baseline %s)", (int)strcspn(c->baseline, ":"),
			    c->baseline, (int)strcspn(c->baseline, ":"),
			    c->baseline, c->baseline);
}

/* A baseline row: the campaign's baseline, or that of its own swept
 * value (stats_baseline_for). */
static int is_base_row(struct ctx *c, size_t i)
{
	const char *bl = stats_baseline_for(c->results, c->cfgs[i].id);

	return !strcmp(c->cfgs[i].id, c->baseline) ||
	       (bl && !strcmp(bl, c->cfgs[i].id));
}

/* The cells of summary s from col on: mean (dec decimals), then after
 * the "vs base" cell the half-width of the 95% CI, CV% and n; "n/a" for
 * what was not measured. */
static void set_summary_cells(struct kb_table *t, size_t row, size_t col,
			      json_t *s, int dec)
{
	double v, lo, hi;
	int ok, ok2;

	v = jnum(s, "mean", &ok);
	if (ok)
		kb_table_set(t, row, col, "%.*f", dec, v);
	else
		kb_table_set(t, row, col, "n/a");
	lo = jnum(s, "ci95_lo", &ok);
	hi = jnum(s, "ci95_hi", &ok2);
	if (ok && ok2)
		kb_table_set(t, row, col + 2, "%.*f", dec, (hi - lo) / 2);
	else
		kb_table_set(t, row, col + 2, "n/a");
	v = jnum(s, "cv_pct", &ok);
	if (ok)
		kb_table_set(t, row, col + 3, "%.2f", v);
	else
		kb_table_set(t, row, col + 3, "n/a");
	v = jnum(s, "n", &ok);
	kb_table_set(t, row, col + 4, "%ld", ok ? (long)v : 0L);
}

/* hosts = (fio --client): the load hosts (malloc'd names) with a
 * per-host summary "host.NAME.METRIC" (lib/metrics.h) of job for one of
 * the table's metrics, in the summaries' order; none for a campaign on
 * one machine. */
struct host_list {
	char **v;
	size_t n;
};

static void load_hosts(struct ctx *c, const char *job, const char **metrics,
		       size_t nm, struct host_list *out)
{
	const char *key;
	size_t i, m, h, off;
	json_t *e;

	json_array_foreach(c->summaries, i, e) {
		key = kb_jstr(e, "metric");
		if (!key || strcmp(kb_jstr(e, "job") ?: "", job) ||
		    !(off = kb_metric_host_split(key)))
			continue;
		for (m = 0; m < nm && strcmp(key + off, metrics[m]); m++)
			;
		for (h = 0; m < nm && h < out->n; h++)
			if (strlen(out->v[h]) == off - 6 &&
			    !strncmp(out->v[h], key + 5, off - 6))
				break;
		if (m == nm || h < out->n)
			continue;
		out->v = kb_xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = kb_xasprintf("%.*s", (int)(off - 6),
						key + 5);
	}
}

static void host_list_free(struct host_list *l)
{
	size_t h;

	for (h = 0; h < l->n; h++)
		free(l->v[h]);
	free(l->v);
}

/* Under configuration i's row, one row per load host: "  @NAME", then
 * for each metric that host's host.NAME.METRIC summary, its change vs
 * the baseline's same host (the summary's diff_pct: not tested), CI, CV%
 * and n. */
static void host_rows(struct ctx *c, struct kb_table *t, size_t i,
		      const char *job, const char **metrics, size_t nm,
		      const struct host_list *hosts)
{
	size_t h, m, row, col, nkey = 1 + c->labels.n;
	double diff;
	char *key;
	json_t *s;
	int ok;

	for (h = 0; h < hosts->n; h++) {
		row = kb_table_add_row(t, 0);
		kb_table_set(t, row, 0, "  @%s", hosts->v[h]);
		for (m = 0; m < nm; m++) {
			col = nkey + 5 * m;
			key = kb_xasprintf("host.%s.%s", hosts->v[h],
					   metrics[m]);
			s = stats_find_summary(c->summaries, c->cfgs[i].id,
					       job, key);
			free(key);
			set_summary_cells(t, row, col, s,
					  kb_metric_decimals(metrics[m]));
			diff = jnum(s, "diff_pct", &ok);
			if (is_base_row(c, i))
				kb_table_set(t, row, col + 1, "base");
			else if (ok)
				kb_table_set(t, row, col + 1, "(%+.2f%%)",
					     fabs(diff) < 0.005 ? 0.0 : diff);
			else
				kb_table_set(t, row, col + 1, "n/a");
		}
	}
}

static struct kb_table *comparison_table(struct ctx *c, const char *job,
					 const char **metrics, size_t nm)
{
	struct kb_table *t;
	struct host_list hosts = { 0 };
	char *phrase, *title, *list = NULL, *tmp, *head, *few;
	size_t i, m, col, row, nkey = 1 + c->labels.n, niops = 0, nfew;
	int ok, sig;
	size_t nsig = 0;
	double v, diff;
	json_t *s, *cmp;
	char *vs_what = merged_baselines(c);

	for (m = 0; m < nm; m++) {
		niops += is_iops(metrics[m]);
		tmp = kb_xasprintf("%s%s%s", list ? list : "", list ? ", " : "",
				   metrics[m]);
		free(list);
		list = tmp;
	}
	phrase = iterations_phrase(c, job, metrics, nm);
	if (phrase)
		title = kb_xasprintf("%s: %s, mean of %s, 95%% CI", job, list,
				     phrase);
	else
		title = kb_xasprintf("%s: %s: no successful runs", job, list);
	t = kb_table_new(title);
	free(title);
	free(phrase);
	free(list);

	add_key_cols(c, t);
	for (m = 0; m < nm; m++) {
		head = metric_head(metrics[m], niops > 1);
		kb_table_add_col(t, head, 1, (int)m + 1);
		kb_table_add_col(t, "vs base", 1, (int)m + 1);
		kb_table_add_col(t, "±", 1, (int)m + 1);
		kb_table_add_col(t, "CV%", 1, (int)m + 1);
		kb_table_add_col(t, "n", 1, (int)m + 1);
		free(head);
	}

	load_hosts(c, job, metrics, nm, &hosts);
	for (i = 0; i < c->ncfgs; i++) {
		row = add_cfg_row(c, t, i);
		for (m = 0; m < nm; m++) {
			col = nkey + 5 * m;
			s = stats_find_summary(c->summaries, c->cfgs[i].id, job,
					       metrics[m]);
			cmp = find_comparison(c, c->cfgs[i].id, job,
					      metrics[m]);
			set_summary_cells(t, row, col, s,
					  kb_metric_decimals(metrics[m]));
			/* the change, mailing-list style: "(+0.03%)" plain,
			 * "* -0.42%*" significant (stats/compare.h): the
			 * change its analysis estimated and tested, else
			 * (no comparison) the change of the mean */
			diff = jnum(cmp, "change_pct", &ok);
			if (!ok)
				diff = jnum(s, "diff_pct", &ok);
			sig = cmp && kb_jstr(cmp, "verdict") &&
			      (!strcmp(kb_jstr(cmp, "verdict"), "improvement") ||
			       !strcmp(kb_jstr(cmp, "verdict"), "regression") ||
			       !strcmp(kb_jstr(cmp, "verdict"),
				       "significant difference"));
			if (is_base_row(c, i))
				kb_table_set(t, row, col + 1, "base");
			else if (ok && sig)
				kb_table_set(t, row, col + 1, "* %+.2f%%*",
					     diff);
			else if (ok)
				kb_table_set(t, row, col + 1, "(%+.2f%%)",
					     fabs(diff) < 0.005 ? 0.0 : diff);
			else
				kb_table_set(t, row, col + 1, "n/a");
			if (sig) {
				nsig++;
				kb_table_set_strong(t, row, col);
				kb_table_set_strong(t, row, col + 1);
			}
		}
		host_rows(c, t, i, job, metrics, nm, &hosts);
	}

	kb_table_add_note(t, "vs base: change vs %s%s as the "
			  "analysis below estimates it, \"* -0.42%%*\" "
			  "significant, \"(+0.03%%)\" not; ±: half-width of "
			  "the 95%% CI of the mean (Student t); CV%%: "
			  "coefficient of variation; n: timed runs that "
			  "succeeded; n/a: not measured", vs_what, kb_swept(
			  c->results) ? " at the same value of each swept job "
			  "parameter" : "");
	free(vs_what);
	if (hosts.n)
		kb_table_add_note(t, "@HOST: load host HOST alone (hosts =, its "
				  "host.HOST.* metrics, its latency percentiles "
				  "from its own json+ bins); the configuration's "
				  "row above is all %zu hosts together; vs base "
				  "of a host: against the baseline's same host, "
				  "not tested", hosts.n);
	host_list_free(&hosts);
	comparison_notes(c, t, job, metrics, nm, nsig);
	fixed_work_note(c, t, job, metrics, nm);
	sample_check_notes(c, t, job, metrics, nm);
	dropped_outlier_notes(c, t, job);
	/* two performance modes (stats/modes.h), also of the baseline and
	 * of a campaign with one configuration */
	for (m = 0; m < nm; m++) {
		for (i = 0; i < c->ncfgs; i++) {
			s = stats_find_summary(c->summaries, c->cfgs[i].id,
					       job, metrics[m]);
			tmp = (char *)kb_jstr(json_object_get(s, "modes"),
					      "warning");
			if (tmp)
				kb_table_add_note(t, "warning: %s%s", tmp,
					json_is_true(json_object_get(
					json_object_get(c->results,
					"comparison_settings"),
					"outliers_excluded")) ? " (a mode is "
					"not outliers: --exclude-outliers "
					"keeps both)" : "");
		}
	}
	disturbed_notes(c, t, job);
	few = NULL;
	nfew = 0;
	for (i = 0; i < c->ncfgs; i++) {
		s = stats_find_summary(c->summaries, c->cfgs[i].id, job,
				       metrics[0]);
		v = jnum(s, "n", &ok);
		if (!ok || v >= 3)
			continue;
		tmp = kb_xasprintf("%s%s%s (n=%ld)", few ? few : "",
				   few ? ", " : "", c->cfgs[i].id, (long)v);
		free(few);
		few = tmp;
		nfew++;
	}
	if (few)
		kb_table_add_note(t, "note: fewer than 3 timed runs for %s; "
				  "collect at least 3, preferably 5 or more "
				  "per configuration", nfew == c->ncfgs ?
				  "every configuration" : few);
	free(few);
	return t;
}

/* ---- the CPU/time table -------------------------------------------- */

static const struct {
	const char *metric;
	const char *head;
} cpu_cols[] = {
	{ "rusage.user_s", "user s" },
	{ "rusage.sys_s", "sys s" },
	{ "rusage.elapsed_s", "elapsed s" },
	{ "rusage.cpu_pct", "%CPU" },
	{ "cpu.iowait_pct", "iowait%" },
	{ "disk.ios", "I/Os issued" },
	{ "disk.merges", "merges" },
};
#define N_CPU_COLS (sizeof(cpu_cols) / sizeof(cpu_cols[0]))

/* NULL when the job has none of the CPU/time metrics at all. */
static struct kb_table *cpu_table(struct ctx *c, const char *job)
{
	const char *metrics[N_CPU_COLS];
	struct kb_table *t;
	size_t i, m, row, nkey = 1 + c->labels.n;
	char *phrase, *title;
	int any = 0, ok;
	double v;
	json_t *s;

	for (m = 0; m < N_CPU_COLS; m++) {
		metrics[m] = cpu_cols[m].metric;
		any |= job_has_metric(c, job, metrics[m]);
	}
	if (!any)
		return NULL;
	phrase = iterations_phrase(c, job, metrics, N_CPU_COLS);
	title = kb_xasprintf("%s: CPU and I/O, mean of %s", job, phrase);
	t = kb_table_new(title);
	free(title);
	free(phrase);

	add_key_cols(c, t);
	for (m = 0; m < N_CPU_COLS; m++)
		kb_table_add_col(t, cpu_cols[m].head, 1, (int)m + 1);
	for (i = 0; i < c->ncfgs; i++) {
		row = add_cfg_row(c, t, i);
		for (m = 0; m < N_CPU_COLS; m++) {
			s = stats_find_summary(c->summaries, c->cfgs[i].id, job,
					       metrics[m]);
			v = jnum(s, "mean", &ok);
			if (ok)
				kb_table_set(t, row, nkey + m, "%.*f",
					     kb_metric_decimals(metrics[m]), v);
			else
				kb_table_set(t, row, nkey + m, "n/a");
		}
	}
	kb_table_add_note(t, "user s, sys s: fio's CPU seconds (rusage); "
			  "%%CPU: (user+sys)/elapsed, of one CPU; iowait%%: "
			  "of the whole machine (/proc/stat); I/Os issued, "
			  "merges: target's /proc/diskstats; n/a: not "
			  "measured");
	return t;
}

/* ---- the report ---------------------------------------------------- */

static void add_header(struct kb_report *r, const char *key, char *val)
{
	r->keys = kb_xrealloc(r->keys, (r->nheader + 1) * sizeof(*r->keys));
	r->vals = kb_xrealloc(r->vals, (r->nheader + 1) * sizeof(*r->vals));
	r->keys[r->nheader] = kb_xstrdup(key);
	r->vals[r->nheader++] = val;
}

/* A JSON scalar as text, "n/a" when absent. */
static char *jtext(json_t *obj, const char *key, const char *suffix)
{
	json_t *v = json_object_get(obj, key);

	if (json_is_string(v))
		return kb_xasprintf("%s%s", json_string_value(v), suffix);
	if (json_is_integer(v))
		return kb_xasprintf("%lld%s", (long long)json_integer_value(v),
				    suffix);
	if (json_is_real(v))
		return kb_xasprintf("%g%s", json_real_value(v), suffix);
	return kb_xstrdup("n/a");
}

/* kbench run --shard K/N: one shard (its iterations only) or the merge
 * of all of them (results/shards.c). */
static void shard_header(json_t *camp, struct kb_report *r)
{
	long long wu = json_integer_value(json_object_get(camp, "warmup"));
	json_t *sh = json_object_get(camp, "shard");
	json_t *all = json_object_get(camp, "shards"), *e;
	char *its, *s = NULL, *t;
	size_t i;

	if (json_is_object(sh)) {
		its = iter_text(json_object_get(sh, "iterations"), wu);
		add_header(r, "Shard", kb_xasprintf("%lld/%lld: iterations %s "
			"only (warm-ups on every shard); report every shard "
			"directory together for the whole campaign",
			(long long)json_integer_value(json_object_get(sh, "k")),
			(long long)json_integer_value(json_object_get(sh, "n")),
			its ? its : "none"));
		free(its);
	}
	if (!json_is_object(all))
		return;
	json_array_foreach(json_object_get(all, "from"), i, e) {
		its = iter_text(json_object_get(e, "iterations"), wu);
		t = kb_xasprintf("%s%s%s (%s)", s ? s : "", s ? ", " : "",
				 kb_jstr(e, "dir") ?: "?", its ? its : "none");
		free(its);
		free(s);
		s = t;
	}
	add_header(r, "Shards", kb_xasprintf("%lld merged, each round run by "
		"one, warm-ups by each: %s",
		(long long)json_integer_value(json_object_get(all, "n")),
		s ? s : ""));
	free(s);
}

/* "Machine: busy: other tasks used 64% of a CPU during the runs
 * (median), 3 of 20 runs disturbed": how busy the machine was, so that a
 * reader of a noisy table knows why, by the rule that marks the runs
 * (stats_machine_busy(), stats/disturbed.h). */
static void machine_header(struct ctx *c, struct kb_report *r)
{
	double other;
	size_t d, n, nsup;
	int busy;

	/* judged only where stats_mark_disturbed() ran (kbench run,
	 * report, compare) */
	busy = stats_machine_busy(c->results, &other, &d, &n);
	if (busy < 0)
		return;
	nsup = json_array_size(json_object_get(c->results, "superseded"));
	if (isfinite(other))
		add_header(r, "Machine", kb_xasprintf("%s: other tasks used "
			   "%.0f%% of a CPU during the runs (median), %zu of "
			   "%zu runs disturbed", busy ? "busy" : "quiet", other,
			   d, n));
	else
		add_header(r, "Machine", kb_xasprintf("%sthe CPU of other "
			   "tasks was not measured; %zu of %zu runs disturbed",
			   busy ? "busy: " : "", d, n));
	if (nsup)
		add_header(r, "Retried", kb_xasprintf("%zu run(s) superseded: "
			   "%s (retry_disturbed; kept as runs/.../"
			   "NNN.superseded-K, listed in results.json)", nsup,
			   !strcmp(kb_jstr(json_object_get(c->results,
			   "campaign"), "order") ?: "", "block") ?
			   "each was disturbed and run again alone (order = "
			   "block has no rounds)" : "their rounds had a "
			   "disturbed run and were run again"));
}

/* "fio: fio-3.33", and with hosts = each load host's fio as it said
 * when the campaign began (campaign.json environment.load_hosts,
 * runner/campaign.c): "fio-3.33 here; load hosts: 10.0.0.2:8765 fio-3.35
 * (load2), ..."; versions that differ also as a "Warning" line
 * (parsers/fio_probe.h). */
static void fio_header(json_t *env, struct kb_report *r)
{
	json_t *lh = json_object_get(env, "load_hosts"), *h;
	const char *local = kb_jstr(env, "fio_version");
	struct kb_fio_host_version *hv;
	char *list = NULL, *tmp;
	size_t i;

	if (!json_array_size(lh)) {
		if (local)
			add_header(r, "fio", kb_xstrdup(local));
		return;
	}
	hv = kb_xcalloc(json_array_size(lh), sizeof(*hv));
	json_array_foreach(lh, i, h) {
		hv[i].host = kb_jstr(h, "host") ?: "?";
		hv[i].version = kb_jstr(h, "fio_version");
		tmp = kb_xasprintf("%s%s%s %s%s%s%s", list ? list : "",
				   list ? ", " : "", hv[i].host,
				   hv[i].version ?: "unknown (no answer)",
				   kb_jstr(h, "hostname") ? " (" : "",
				   kb_jstr(h, "hostname") ?: "",
				   kb_jstr(h, "hostname") ? ")" : "");
		free(list);
		list = tmp;
	}
	add_header(r, "fio", kb_xasprintf("%s here; load hosts: %s",
					  local ?: "unknown", list));
	tmp = kb_fio_version_skew(local, hv, json_array_size(lh));
	if (tmp)
		add_header(r, "Warning", tmp);
	free(list);
	free(hv);
}

static void build_header(struct ctx *c, struct kb_report *r)
{
	json_t *env = json_object_get(c->campaign, "environment");
	json_t *configs = json_object_get(c->results, "configurations");
	struct kb_strlist seen = { 0 };
	char *kernels = NULL, *tmp, *it, *wu;
	const char *variant, *release, *accel;
	size_t i;
	json_t *e;

	r->title = kb_xasprintf("kbench report: %s",
				kb_jstr(c->campaign, "name") ?: "(unnamed)");
	json_array_foreach(configs, i, e) {
		variant = kb_jstr(e, "variant") ?: kb_jstr(e, "id");
		if (!variant || kb_strlist_has(&seen, variant))
			continue;
		kb_strlist_add(&seen, variant);
		release = kb_jstr(e, "release");
		{	/* a vm variant: the kernel as its guest saw it */
			json_t *vr = json_object_get(json_object_get(
				json_object_get(env, "vm"), "variants"),
				variant);

			if (kb_jstr(vr, "guest_release"))
				release = kb_jstr(vr, "guest_release");
			else if (kb_jstr(vr, "release"))
				release = kb_jstr(vr, "release");
			accel = kb_jstr(vr, "accel");
		}
		if (release && !strcmp(release, variant))
			release = NULL;
		tmp = kb_xasprintf("%s%s%s%s%s%s%s%s", kernels ? kernels : "",
				   kernels ? ", " : "", variant,
				   release || accel ? " (" : "",
				   release ? release : "",
				   release && accel ? ", " : "",
				   accel ? accel : "",
				   release || accel ? ")" : "");
		free(kernels);
		kernels = tmp;
	}
	free(seen.v);
	add_header(r, "Kernels", kernels ? kernels : kb_xstrdup("n/a"));
	add_header(r, "Target", jtext(c->campaign, "target", ""));
	if (json_array_size(json_object_get(c->campaign, "hosts"))) {
		const json_t *h;
		size_t hi;
		char *list = NULL, *more;

		json_array_foreach(json_object_get(c->campaign, "hosts"), hi, h) {
			more = kb_xasprintf("%s%s%s", list ? list : "",
					    list ? ", " : "",
					    json_string_value(h) ?
					    json_string_value(h) : "?");
			free(list);
			list = more;
		}
		{	/* [job NAME] hosts = (campaign.job_hosts) */
			const char *jname;
			json_t *jl;

			json_object_foreach(json_object_get(c->campaign,
					    "job_hosts"), jname, jl) {
				more = kb_xasprintf("%s; %s on", list, jname);
				free(list);
				list = more;
				json_array_foreach(jl, hi, h) {
					more = kb_xasprintf("%s%s%s", list,
						hi ? ", " : " ",
						json_string_value(h) ?: "?");
					free(list);
					list = more;
				}
				more = kb_xasprintf("%s only", list);
				free(list);
				list = more;
			}
		}
		add_header(r, "Load hosts", kb_xasprintf("%s (fio --client; "
			   "metrics are their sum, host.HOST.* each; their "
			   "kernels are not variants: only this machine's "
			   "kernel and tunables are)", list));
		free(list);
	}
	add_header(r, "Runtime", jtext(c->campaign, "runtime_s", " s per run"));
	it = jtext(c->campaign, "iterations", "");
	wu = jtext(c->campaign, "warmup", "");
	if (!strcmp(it, "n/a"))
		add_header(r, "Iterations", kb_xstrdup("n/a"));
	else
		add_header(r, "Iterations", kb_xasprintf("%s timed + %s "
				"warm-up (not counted) per configuration and "
				"job", it, !strcmp(wu, "n/a") ? "0" : wu));
	free(it);
	free(wu);
	shard_header(c->campaign, r);
	if (json_array_size(json_object_get(c->campaign, "merged_from")) > 1)
		add_header(r, "Baseline", kb_xasprintf("%s; a configuration of "
			   "a later campaign: the one of the same name in %.*s",
			   c->baseline, (int)strcspn(c->baseline, ":"),
			   c->baseline));
	else
		add_header(r, "Baseline", kb_xstrdup(c->baseline));
	fio_header(env, r);
	if (kb_jstr(env, "cpu_model"))
		add_header(r, "CPU", kb_xstrdup(kb_jstr(env, "cpu_model")));
	/* vm variants (runner/driver_vm.c): "emulated (TCG): timings are
	 * not representative" when any boot had no KVM */
	if (kb_jstr(json_object_get(env, "vm"), "timing_note"))
		add_header(r, "Timing", kb_xstrdup(kb_jstr(json_object_get(env,
				"vm"), "timing_note")));
	machine_header(c, r);
}

/* Reasons are free text from the runner: keep them on one line. */
static char *one_line(const char *s)
{
	char *d = kb_xstrdup(s), *p;

	for (p = d; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return d;
}

/* The failed runs of job j: the counted and warm-up runs, then the extra
 * runs of profile = (results.json profiling_runs), named as such. */
static void build_failures(struct ctx *c, struct kb_report_job *j)
{
	const char *status, *job, *reason, *extra;
	json_t *run, *arr;
	char *why, b[KB_ITER_LABEL_MAX];
	size_t i, a;
	int wu;

	for (a = 0; a < 2; a++) {
		arr = a ? json_object_get(c->results, "profiling_runs") : c->runs;
		json_array_foreach(arr, i, run) {
			status = kb_jstr(run, "status");
			job = kb_jstr(run, "job");
			if (!job || strcmp(job, j->name) ||
			    (status && !strcmp(status, "ok")))
				continue;
			reason = kb_jstr(run, "reason");
			why = one_line(reason ? reason : "no reason recorded");
			wu = json_is_true(json_object_get(run, "warmup"));
			extra = kb_jstr(run, "extra");
			j->failures = kb_xrealloc(j->failures, (j->nfailures +
						  1) * sizeof(*j->failures));
			j->failures[j->nfailures++] = kb_xasprintf(
				"%s %s iteration %s%s%s%s: %s",
				kb_jstr(run, "configuration") ?: "?", job,
				run_iteration(c, run, b),
				wu ? " (warm-up)" : "", extra ? " (" : "",
				extra ? (!strcmp(extra, "profiling") ?
				"profiling run, not counted)" :
				"unsampled run, not counted)") : "", why);
			free(why);
		}
	}
}

static void add_item(char ***v, size_t *n, char *item)
{
	*v = kb_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = item;
}

/* Runs of job j that ran but are left out of the statistics, and counted
 * runs that carry flags (results/model.c). */
static void build_excluded(struct ctx *c, struct kb_report_job *j)
{
	const char *status, *job, *cfg;
	json_t *run, *f;
	size_t i, k;

	json_array_foreach(c->runs, i, run) {
		char list[1024] = "", *why, b[KB_ITER_LABEL_MAX];
		const char *it;

		status = kb_jstr(run, "status");
		job = kb_jstr(run, "job");
		cfg = kb_jstr(run, "configuration") ?: "?";
		it = run_iteration(c, run, b);
		if (!job || strcmp(job, j->name) || !status ||
		    strcmp(status, "ok") ||
		    json_is_true(json_object_get(run, "warmup")))
			continue;
		if (kb_jstr(run, "excluded")) {
			why = one_line(kb_jstr(run, "excluded"));
			add_item(&j->excluded, &j->nexcluded, kb_xasprintf(
				"%s %s iteration %s: %s", cfg, job, it, why));
			free(why);
			continue;
		}
		json_array_foreach(json_object_get(run, "flags"), k, f) {
			size_t l = strlen(list);

			if (json_is_string(f))
				snprintf(list + l, sizeof(list) - l, "%s%s",
					 l ? "; " : "", json_string_value(f));
		}
		if (!list[0])
			continue;
		why = one_line(list);
		add_item(&j->flagged, &j->nflagged, kb_xasprintf(
			"%s %s iteration %s: %s", cfg, job, it, why));
		free(why);
	}
}

/* The rows of the report for reports/profile.c and reports/layout.c. */
static void rows_init(struct ctx *c, struct kb_profile_rows *rows)
{
	size_t i;

	memset(rows, 0, sizeof(*rows));
	rows->n = c->ncfgs;
	rows->group_start = c->group_start;
	rows->labels = c->labels.v;
	rows->nlabels = c->labels.n;
	rows->baseline = c->baseline;
	rows->ids = kb_xcalloc(c->ncfgs + 1, sizeof(*rows->ids));
	rows->variants = kb_xcalloc(c->ncfgs + 1, sizeof(*rows->variants));
	rows->tunables = kb_xcalloc(c->ncfgs + 1, sizeof(*rows->tunables));
	for (i = 0; i < c->ncfgs; i++) {
		rows->ids[i] = c->cfgs[i].id;
		rows->variants[i] = c->cfgs[i].variant;
		rows->tunables[i] = c->cfgs[i].tunables;
	}
}

static void rows_free(struct kb_profile_rows *rows)
{
	free(rows->ids);
	free(rows->variants);
	free(rows->tunables);
}

/* reports/profile.c: the CPU/DCM profile and time/task tables */
static void job_add_profile_tables(struct ctx *c, struct kb_report_job *j,
				   unsigned which)
{
	struct kb_profile_rows rows;
	struct kb_table *t[4];	/* CPU, DCM, time, task */
	size_t i, n;

	if (!c->rm)	/* the typed model the tables read: no layout built it */
		c->rm = kb_rmodel__new(c->results);
	if (!c->rm)
		return;	/* no "runs": named by kb_rmodel__new() */
	rows_init(c, &rows);
	n = profile_tables_which(c->rm, j->name, &rows, t, 4, which);
	for (i = 0; i < n; i++)
		kb_report_job_add(j, t[i]);
	rows_free(&rows);
}

/* The IOPS of the job's direction: read.iops, else write.iops, else
 * trim.iops. */
static const char *default_metric(struct ctx *c, const char *job)
{
	if (job && !job_has_metric(c, job, "read.iops")) {
		if (job_has_metric(c, job, "write.iops"))
			return "write.iops";
		if (job_has_metric(c, job, "trim.iops"))
			return "trim.iops";
	}
	return "read.iops";
}

/* The built-in layouts: the tables of one job (NULL: all jobs, for
 * --rows/--cols job). */
static int lay_variants(struct ctx *c, struct kb_report_job *j,
			const struct report_opts *opts, size_t nm)
{
	const char *def;

	if (opts && opts->metrics) {
		kb_report_job_add(j, comparison_table(c, j->name,
				      opts->metrics, nm));
	} else {
		def = default_metric(c, j->name);
		kb_report_job_add(j, comparison_table(c, j->name, &def, 1));
	}
	if (opts && opts->layout)	/* asked for by name: that table */
		return 0;
	if (!opts || opts->show_cpu_table) {
		kb_report_job_add(j, cpu_table(c, j->name));
		job_add_profile_tables(c, j, PROFILE_ROLES | PROFILE_TIME);
	}
	return 0;
}

static int lay_profile(struct ctx *c, struct kb_report_job *j,
		       const struct report_opts *opts, size_t nm)
{
	(void)opts;
	(void)nm;
	job_add_profile_tables(c, j, PROFILE_ROLES);
	return 0;
}

static int lay_time(struct ctx *c, struct kb_report_job *j,
		    const struct report_opts *opts, size_t nm)
{
	(void)opts;
	(void)nm;
	kb_report_job_add(j, cpu_table(c, j->name));
	job_add_profile_tables(c, j, PROFILE_TIME);
	return 0;
}

/* rounds, scaling, mmtests, lkp, pivot: presets of the table model
 * (reports/layout.h) */
static int lay_preset(struct ctx *c, struct kb_report_job *j,
		      const struct report_opts *opts, size_t nm)
{
	struct kb_profile_rows rows;
	int ret;

	(void)nm;
	rows_init(c, &rows);
	ret = layout_job_tables(c->rm, &c->an,
				layout_spans_jobs(opts) ? NULL :
				j->name, opts->metrics ? opts->metrics[0] :
				default_metric(c, layout_spans_jobs(opts) ?
				(c->jobs.n ? c->jobs.v[0] : NULL) : j->name),
				&rows, opts, j);
	rows_free(&rows);
	return ret;
}

struct kb_layout {
	const char *name;
	const char *help;
	int (*build)(struct ctx *c, struct kb_report_job *j,
		     const struct report_opts *opts, size_t nm);
};

/* Every layout, in the order --help lists them (reports/layout.h
 * describes each table). */
static const struct kb_layout layouts[] = {
	{ "variants", "a row per configuration: the comparison table, then "
	  "CPU, profile and time tables (seed 000)", lay_variants },
	{ "profile", "oprofile-style CPU and DCM shares by symbol group "
	  "(seed 000)", lay_profile },
	{ "time", "fio's time, then the CPU of each task group (seed 001; two tables)",
	  lay_time },
	{ "rounds", "a row per round, a column per configuration, average "
	  "and stddev (seed 002)", lay_preset },
	{ "scaling", "the swept dimension as columns, % change rows "
	  "(seed 003)", lay_preset },
	{ "mmtests", "Amean/Stddev/CoeffVar/Min/Max rows (mmtests "
	  "compare-kernels)", lay_preset },
	{ "lkp", "base, %stddev, %change, new, metric (lkp-tests; names "
	  "cut to 80 columns, ~N, in a legend)",
	  lay_preset },
	{ "pivot", "--rows DIM --cols DIM: the mean per cell", lay_preset },
};

#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

int kb_layout_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NLAYOUTS; i++)
		if (!strcmp(layouts[i].name, name))
			return 1;
	return 0;
}

const char *kb_layout_name(size_t i, const char **help)
{
	if (i >= NLAYOUTS)
		return NULL;
	if (help)
		*help = layouts[i].help;
	return layouts[i].name;
}

char *kb_layout_names(const char *sep)
{
	char *s = kb_xstrdup(""), *t;
	size_t i;

	for (i = 0; i < NLAYOUTS; i++) {
		t = kb_xasprintf("%s%s%s", s, i ? sep : "", layouts[i].name);
		free(s);
		s = t;
	}
	return s;
}

static int job_tables(struct ctx *c, struct kb_report_job *j,
		      const struct report_opts *opts, size_t nm)
{
	const char *layout = opts ? opts->layout : NULL;
	size_t i;

	if (opts && !layout && opts->rows)
		layout = "pivot";
	if (!layout)
		layout = "variants";
	for (i = 0; i < NLAYOUTS; i++)
		if (!strcmp(layouts[i].name, layout))
			return layouts[i].build(c, j, opts, nm);
	kb_error("--layout %s: no such layout", layout);
	return -EINVAL;
}

int kb_report_build(json_t *results, const struct report_opts *opts,
		    struct kb_report **out)
{
	struct ctx c = { 0 };
	struct kb_report *r = NULL;
	struct kb_report_job *j;
	size_t i, nm = 0;
	int ret = 0;

	*out = NULL;
	c.results = results;
	c.summaries = json_object_get(results, "summaries");
	c.runs = json_object_get(results, "runs");
	c.campaign = json_object_get(results, "campaign");
	kb_analysis__from_json(results, &c.an);
	/* the typed model only where a layout reads it (layout_check(),
	 * the presets): the default report does not pay for building it */
	if (opts && (opts->layout || opts->rows || opts->cols)) {
		c.rm = kb_rmodel__new(results);
		if (!c.rm) {
			ret = -EINVAL;	/* named by kb_rmodel__new() */
			goto out;
		}
	}

	if (opts && opts->metrics) {
		for (nm = 0; opts->metrics[nm]; nm++) {
			if (kb_metric_find(opts->metrics[nm]) ||
			    results_have_metric(&c, opts->metrics[nm]))
				continue;
			kb_error("--metric %s: no such metric, neither in "
				 "lib/metrics.h nor in these results (names "
				 "look like read.iops, read.clat_p99_ns, "
				 "cpu.iowait_pct)", opts->metrics[nm]);
			ret = -EINVAL;
			goto out;
		}
	}

	collect_labels_jobs(&c);
	collect_cfgs(&c);
	c.baseline = kb_jstr(c.campaign, "baseline");
	for (i = 0; c.baseline && i < c.ncfgs; i++)
		if (!strcmp(c.cfgs[i].id, c.baseline))
			break;
	if (!c.baseline || i == c.ncfgs) {
		/* stats_fill_summaries() falls back the same way */
		json_t *first = json_array_get(json_object_get(results,
					       "configurations"), 0);

		c.baseline = kb_jstr(first, "id") ?:
			     (c.ncfgs ? c.cfgs[0].id : "(none)");
	}

	ret = layout_check(c.rm, opts);
	if (ret)
		goto out;
	r = kb_xcalloc(1, sizeof(*r));
	build_header(&c, r);
	r->jobs = kb_xcalloc(c.jobs.n + 1, sizeof(*r->jobs));
	if (layout_spans_jobs(opts)) {
		j = &r->jobs[r->njobs++];
		j->name = kb_xstrdup("all jobs");
		ret = job_tables(&c, j, opts, nm);
		if (ret)
			goto out;
	}
	for (i = 0; i < c.jobs.n && !layout_spans_jobs(opts); i++) {
		j = &r->jobs[r->njobs++];
		j->name = kb_xstrdup(c.jobs.v[i]);
		ret = job_tables(&c, j, opts, nm);
		if (ret)
			goto out;
		build_failures(&c, j);
		build_excluded(&c, j);
	}
	*out = r;
	r = NULL;
out:
	kb_report_free(r);
	free(c.cfgs);
	free(c.group_start);
	free(c.labels.v);
	free(c.jobs.v);
	kb_analysis__clear(&c.an);
	kb_rmodel__delete(c.rm);
	return ret;
}
