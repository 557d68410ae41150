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

/* Every read goes through the typed model (results/rmodel.h): the
 * campaign metadata m->campaign, the runs m->runs[] with their info, the
 * analysis m->analysis (summaries, comparisons, sample checks). */

struct cfg {
	const char *id;
	const char *variant;
	const struct kb_rconfig *conf;	/* its "configurations" entry, or
					 * NULL (only named by runs) */
};

struct ctx {
	const struct kb_rmodel *rm;
	const struct kb_rcampaign *camp;	/* &rm->campaign */
	const struct kb_analysis *an;		/* &rm->analysis */
	struct cfg *cfgs;	/* in display order (grouped) */
	int *group_start;
	size_t ncfgs;
	struct kb_strlist labels;	/* tunable labels */
	struct kb_strlist jobs;
	const char *baseline;
	int prefix;	/* report_opts.prefix: the variants table's mean and
			 * ± columns scaled (KB_PREFIX_AUTO) */
};

/* campaign.warmup, 0 when absent (kb_iteration_label()). */
static long long warmup_rounds(const struct ctx *c)
{
	return c->camp->warmup > 0 ? c->camp->warmup : 0;
}

/* A round index as a reader numbers it: "3", "w1" (kb_iteration_label(),
 * results/paths.h) into b. */
static const char *iteration_text(const struct ctx *c, long iteration,
				  char b[KB_ITER_LABEL_MAX])
{
	return kb_iteration_label(iteration, warmup_rounds(c), b);
}

/* Run r's configuration id ("?" when it names none) and job (NULL). */
static const char *run_config(const struct ctx *c, size_t r)
{
	size_t x = c->rm->runs[r].config;

	return x == KB_RMODEL_NONE ? "?" : c->rm->configs.v[x];
}

static const char *run_job(const struct ctx *c, size_t r)
{
	size_t x = c->rm->runs[r].job;

	return x == KB_RMODEL_NONE ? NULL : c->rm->jobs.v[x];
}

static const struct kb_summary_row *find_summary(const struct ctx *c,
						 const char *cfg,
						 const char *job,
						 const char *metric)
{
	return kb_analysis__summary(c->an, cfg, job, metric);
}

/* The comparison (stats/compare.h) of cfg against its baseline
 * (stats_baseline_for(): the campaign's, or in merged campaigns the
 * same-named configuration of the first). */
static const struct kb_comparison_row *find_comparison(struct ctx *c,
						       const char *cfg,
						       const char *job,
						       const char *metric)
{
	const char *bl = stats_baseline_for(c->rm, cfg) ?: c->baseline;

	return kb_analysis__comparison(c->an, cfg, bl, job, metric);
}

static int job_has_metric(struct ctx *c, const char *job, const char *metric)
{
	size_t i;

	for (i = 0; i < c->an->nsummaries; i++) {
		const struct kb_summary_row *e = &c->an->summaries[i];

		if (e->job && e->metric && !strcmp(e->job, job) &&
		    !strcmp(e->metric, metric))
			return 1;
	}
	return 0;
}

/* 1 when a successful run of job measured something (any metric with
 * n > 0): a table of it without values is of metrics it does not
 * have (a read-only job's write.iops), not of failed runs. */
static int job_has_values(struct ctx *c, const char *job)
{
	size_t i;

	for (i = 0; i < c->an->nsummaries; i++) {
		const struct kb_summary_row *e = &c->an->summaries[i];

		if (e->job && !strcmp(e->job, job) && e->n > 0)
			return 1;
	}
	return 0;
}

static int results_have_metric(struct ctx *c, const char *metric)
{
	size_t i;

	for (i = 0; i < c->an->nsummaries; i++)
		if (c->an->summaries[i].metric &&
		    !strcmp(c->an->summaries[i].metric, metric))
			return 1;
	return 0;
}

/* The value of tunable label for cfg, "" when the configuration has no
 * such tunable (a stock kernel without the knob, as in seed 000). */
static const char *tunable_value(const struct cfg *cfg, const char *label)
{
	return kb_rconfig__tunable(cfg->conf, label) ?: "";
}

static void add_cfg(struct cfg *all, size_t *n, const char *id,
		    const struct kb_rconfig *conf)
{
	size_t i;

	if (!id)
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(all[i].id, id))
			return;
	all[*n].id = id;
	all[*n].variant = conf && conf->variant ? conf->variant : id;
	all[*n].conf = conf;
	(*n)++;
}

/* Configurations in kernels.conf order, then any only named by summaries
 * or runs; then grouped by the first tunable's value (order of first
 * appearance, stable), a blank line between groups. */
static void collect_cfgs(struct ctx *c)
{
	const struct kb_rcampaign *camp = c->camp;
	size_t i, k, n = 0, max, done;
	struct kb_strlist values = { 0 };
	struct cfg *all;

	max = camp->nconfigs + c->an->nsummaries + c->rm->configs.n + 1;
	all = kb_xcalloc(max, sizeof(*all));
	for (i = 0; i < camp->nconfigs; i++)
		add_cfg(all, &n, camp->configs[i].id, &camp->configs[i]);
	for (i = 0; i < c->an->nsummaries; i++)
		add_cfg(all, &n, c->an->summaries[i].configuration, NULL);
	/* the model's: the configurations', then those runs name */
	for (i = 0; i < c->rm->configs.n; i++)
		add_cfg(all, &n, c->rm->configs.v[i], NULL);

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

/* The most tunable labels taken from the configurations when the
 * campaign lists none (a merged report's). */
#define MAX_LABELS 256

static void collect_labels_jobs(struct ctx *c)
{
	const char *labels[MAX_LABELS];
	size_t i, n;

	for (i = 0; i < c->camp->ntunables; i++)
		kb_strlist_add(&c->labels, c->camp->tunables[i].label);
	if (!c->labels.n) {
		n = kb_rcampaign__labels(c->camp, labels, MAX_LABELS);
		for (i = 0; i < n; i++)
			kb_strlist_add(&c->labels, labels[i]);
	}
	for (i = 0; i < c->camp->jobs.n; i++)
		kb_strlist_add(&c->jobs, c->camp->jobs.v[i]);
	for (i = 0; i < c->an->nsummaries; i++)
		kb_strlist_add(&c->jobs, c->an->summaries[i].job);
	/* the model's: campaign.jobs, then those runs name */
	for (i = 0; i < c->rm->jobs.n; i++)
		kb_strlist_add(&c->jobs, c->rm->jobs.v[i]);
}

/* ---- numbers ------------------------------------------------------- */

/* Decimals by unit: rates, percentages and seconds with 2 (472.39, as
 * seed 000), nanoseconds, milliseconds, KiB and counts as integers; a
 * load host's host.NAME.METRIC as METRIC. */
int kb_metric_decimals(const char *metric)
{
	const struct kb_metric_def *d = kb_metric_find_key(metric);

	if (!d)
		return 2;
	if (!strcmp(d->unit, "ns") || !strcmp(d->unit, "ms") ||
	    !strcmp(d->unit, "KiB") || !strcmp(d->unit, "count"))
		return 0;
	return 2;
}

const char *kb_pct_bound(char *buf, size_t len, double v, int dec)
{
	if (v > 9999)
		snprintf(buf, len, ">+9999");
	else if (v < -9999)
		snprintf(buf, len, "<-9999");
	else
		snprintf(buf, len, "%+.*f", dec,
			 fabs(v) < 0.5 * pow(10, -dec) ? 0.0 : v);
	return buf;
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
static char *metric_head(const char *metric, int several_iops,
			 const struct kb_scale *sc)
{
	const struct kb_metric_def *d = kb_metric_find(metric);
	const char *u = sc->metric_unit;
	char *h, *scaled;

	if (d && is_iops(metric))
		return several_iops ?
			kb_xasprintf("%.*s I/Os per sec",
				     (int)(strlen(metric) - 5), metric) :
			kb_xstrdup("I/Os per sec");
	if (!d)
		h = kb_xstrdup(metric);
	else if ((!strcmp(d->unit, "ns") || !strcmp(d->unit, "s") ||
		  !strcmp(d->unit, "ms") || !strcmp(d->unit, "KiB") ||
		  !strcmp(d->unit, "KiB/s")) &&
		 !ends_with_word(d->label, d->unit))
		h = kb_xasprintf("%s %s", d->label, d->unit);
	else
		h = kb_xstrdup(d->label);
	/* --prefix auto: the unit the cells are in, "read clat p99 us",
	 * "read MiB/s"; a per-host metric, headed by its name
	 * ("host.a.read.bw_kib (MiB/s)"), gets it after that name */
	if (!sc->unit || !u || !strcmp(sc->unit, u))
		return h;
	if (ends_with_word(h, u))
		scaled = kb_xasprintf("%.*s%s", (int)(strlen(h) - strlen(u)),
				      h, sc->unit);
	else
		scaled = kb_xasprintf("%s (%s)", h, sc->unit);
	free(h);
	return scaled;
}

/* "of 3 iterations" / "of 2-3 iterations" over the samples of job for
 * the given metrics; NULL when there is none. */
static char *iterations_phrase(struct ctx *c, const char *job,
			       const char **metrics, size_t nmetrics)
{
	long lo = -1, hi = -1, n;
	size_t i, m;
	const struct kb_summary_row *s;

	for (i = 0; i < c->ncfgs; i++) {
		for (m = 0; m < nmetrics; m++) {
			s = find_summary(c, c->cfgs[i].id, job, metrics[m]);
			if (!s)
				continue;
			n = (long)s->n;
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

/* How many runs a note under a table names one by one per configuration
 * (disturbed runs, outliers); past it the note says how many more and
 * where every one is (results.json).  A campaign of 100k runs on a busy
 * machine otherwise printed 100k entries (7 MB of report). */
#define NOTE_LIST_MAX 20

/* "w1, 1, 3" from an array of stored iterations (round indexes), as a
 * reader numbers them (kb_iteration_label(), results/paths.h), the first
 * max of them ("..., and 12 more") when max > 0; NULL when the array is
 * empty.  One memory stream: linear in the number listed. */
static char *iter_text(const struct kb_iters *it, long long warmup,
		       size_t max)
{
	char *s = NULL, b[KB_ITER_LABEL_MAX];
	size_t i, len = 0;
	FILE *f;

	if (!it->n)
		return NULL;
	f = kb_xmemstream(&s, &len);
	for (i = 0; i < it->n && (!max || i < max); i++)
		fprintf(f, "%s%s", i ? ", " : "",
			kb_iteration_label(it->v[i], warmup, b));
	if (i < it->n)
		fprintf(f, ", and %zu more", it->n - i);
	if (fclose(f)) {
		kb_error("out of memory for a note");
		abort();
	}
	return s;
}

/* The notes of one sample's checks (stats/compare.h): its outliers
 * (iterations), a warm-up too short (warmup leading outliers), a drift
 * over the run order (d, when it warns). */
static void outlier_note(struct ctx *c, struct kb_table *t, const char *cfg,
			 const char *metric, const struct kb_iters *iters)
{
	char *it = iter_text(iters, warmup_rounds(c), NOTE_LIST_MAX);

	if (it)
		kb_table_add_note(t, "outlier(s) (MAD modified z > 3.5, over 1%% "
				  "from the median; kept "
				  "unless --exclude-outliers): %s %s "
				  "iteration %s%s", cfg, metric, it,
				  iters->n > NOTE_LIST_MAX ? " (results.json: "
				  "every one)" : "");
	free(it);
}

static void warmup_note(struct kb_table *t, const char *cfg,
			const char *metric, double warmup)
{
	if (warmup > 0)
		kb_table_add_note(t, "warning: the first %lld timed run(s) of "
				  "%s are outliers in %s: warm-up too short; "
				  "raise warmup", (long long)warmup, cfg,
				  metric);
}

/* A value shown as read from results.json: 0 for null (NAN). */
static double or0(double v)
{
	return isfinite(v) ? v : 0.0;
}

static void drift_note(struct kb_table *t, const char *cfg,
		       const char *metric, const struct kb_drift_row *d,
		       const char *advice)
{
	if (d->present && d->warn)
		kb_table_add_note(t, "warning: %s of %s%s drifts %+.2f%% over "
				  "the run order (slope p = %.2g), more than "
				  "the minimum effect%s", metric,
				  advice ? "baseline " : "", cfg,
				  or0(d->change_pct), or0(d->p),
				  advice ? advice : "");
}

/* What a baseline's drift means for comparison e, by its analysis (the
 * verdict's rule: stats/compare.c): paired by round, a drift common to
 * the configurations of a round cancels in the per-round ratios (the
 * drift is a finding, not a reason to distrust the change); unpaired,
 * it can make the verdict inconclusive, and only order = block is cured
 * by interleaving. */
static const char *drift_advice(const struct ctx *c,
				const struct kb_comparison_row *e)
{
	if (e->analysis && !strcmp(e->analysis, "paired"))
		return " (paired by round: a drift shared by the round's "
		       "configurations cancels in the per-round ratios)";
	if (!strcmp(c->camp->order ?: "", "block"))
		return ": results may be inconclusive; use order = interleave";
	return ": results may be inconclusive; find what drifts "
	       "(temperature, background load, a filling device)";
}

/* Under the table of a configuration in no comparison (a campaign of
 * one configuration): its outliers, warm-up and drift
 * (results.sample_checks, stats/compare.h), as the comparisons' notes
 * give them for compared ones. */
static void sample_check_notes(struct ctx *c, struct kb_table *t,
			       const char *job, const char **metrics,
			       size_t nm)
{
	size_t i, m;

	for (i = 0; i < c->an->nsample_checks; i++) {
		const struct kb_sample_check_row *e = &c->an->sample_checks[i];
		const char *cfg = e->configuration ?: "";
		const char *metric = e->metric ?: "";

		if (strcmp(e->job ?: "", job))
			continue;
		for (m = 0; m < nm && strcmp(metrics[m], metric); m++)
			;
		if (m == nm)
			continue;
		outlier_note(c, t, cfg, metric, &e->outliers);
		warmup_note(t, cfg, metric, (double)e->warmup_suspect);
		drift_note(t, cfg, metric, &e->drift, NULL);
	}
}

/* Rates of fixed-size jobs (stats/summary.h kb_summarize_fixed_work):
 * say how their mean and CI were made. */
static void fixed_work_note(struct ctx *c, struct kb_table *t,
			    const char *job, const char **metrics, size_t nm)
{
	const struct kb_summary_row *s;
	size_t i, m;

	for (m = 0; m < nm; m++)
		for (i = 0; i < c->ncfgs; i++)
			if ((s = find_summary(c, c->cfgs[i].id, job,
					      metrics[m])) && s->harmonic) {
				kb_table_add_note(t, "fixed-size jobs (not "
					"time_based): IOPS and bandwidth are "
					"total work over total time, the "
					"harmonic mean of the runs' rates; "
					"their CI is computed on the time per "
					"unit of work and inverted, so it is "
					"not symmetric: +- is half its width "
					"(results.json has both ends); CV%% "
					"is that of the rates");
				return;
			}
}

/* With --exclude-outliers: every value left out, by run (the runs'
 * excluded_outliers, stats_mark_outliers_in()). */
static void dropped_outlier_notes(struct ctx *c, struct kb_table *t,
				  const char *job)
{
	char *list = NULL, b[KB_ITER_LABEL_MAX];
	const struct kb_rrun_info *in;
	size_t r, k, len = 0, nlisted = 0;
	FILE *f = NULL;

	/* every one (the option promises to list what it dropped), in one
	 * memory stream: linear in their number */
	for (r = 0; r < c->rm->nruns; r++) {
		in = &c->rm->runs[r].info;
		if (!in->nexcluded_outliers ||
		    strcmp(run_job(c, r) ?: "", job))
			continue;
		for (k = 0; k < in->nexcluded_outliers; k++) {
			if (!f)
				f = kb_xmemstream(&list, &len);
			fprintf(f, "%s%s %s iteration %s (%.6g)",
				nlisted++ ? ", " : "",
				run_config(c, r), in->excluded_outlier_names[k],
				iteration_text(c, c->rm->runs[r].iteration, b),
				in->excluded_outlier_values[k]);
		}
	}
	if (f && fclose(f)) {
		kb_error("out of memory for a note");
		abort();
	}
	if (list)
		kb_table_add_note(t, "left out of the statistics "
				  "(--exclude-outliers): %s", list);
	free(list);
}

/* Under the comparison table of job: the significant comparisons of
 * job counted in the Benjamini-Hochberg family but of a metric this
 * table does not show (a new-user trial found p99 -37%, significant,
 * only in results.json while the default table said "0 cell(s)
 * marked" over 4 comparisons). */
static void hidden_significant_note(struct ctx *c, struct kb_table *t,
				   const char *job, const char **metrics,
				   size_t nm)
{
	char *list = NULL;
	size_t len = 0, i, m, n = 0;
	FILE *f = NULL;

	for (i = 0; i < c->an->ncomparisons; i++) {
		const struct kb_comparison_row *e = &c->an->comparisons[i];

		if (!e->job || strcmp(e->job, job) || !e->metric ||
		    !e->configuration || !kb_verdict_significant(e->verdict))
			continue;
		for (m = 0; m < nm && strcmp(metrics[m], e->metric); m++)
			;
		if (m < nm)
			continue;
		if (!f)
			f = kb_xmemstream(&list, &len);
		fprintf(f, "%s%s of %s %+.2f%% (%s)", n++ ? ", " : "",
			e->metric, e->configuration, e->change_pct, e->verdict);
	}
	if (!f)
		return;
	fclose(f);
	kb_table_add_note(t, "also significant, of a metric not in this "
			  "table: %s (kbench report --metric NAME shows it)",
			  list);
	free(list);
}


/* Why the comparisons of the table's metrics that analysis (not
 * "paired", the default of a campaign of rounds) covers are unpaired:
 * their one analysis_reason (stats/compare.c choose_analysis(): no run
 * order recorded, order = block, different campaigns, ...), as kbench
 * compare prints it; NULL when paired or when they give different
 * reasons. */
static const char *unpaired_why(struct ctx *c, const char *job,
				const char **metrics, size_t nm,
				const char *analysis)
{
	const struct kb_comparison_row *e;
	const char *why = NULL;
	size_t m, i;

	if (!strcmp(analysis, "paired"))
		return NULL;
	for (m = 0; m < nm; m++)
		for (i = 0; i < c->ncfgs; i++) {
			e = find_comparison(c, c->cfgs[i].id, job, metrics[m]);
			if (!e || !e->analysis || strcmp(e->analysis, analysis))
				continue;
			if (!e->analysis_reason ||
			    (why && strcmp(why, e->analysis_reason)))
				return NULL;
			why = e->analysis_reason;
		}
	return why;
}
/* Under the comparison table: how significance was decided, the
 * minimum detectable effect, outliers, drift, warm-up and samples too
 * small to test (stats/compare.h). */
static void comparison_notes(struct ctx *c, struct kb_table *t,
			     const char *job, const char **metrics, size_t nm,
			     size_t nsig)
{
	const struct kb_comparison_settings *set = &c->an->settings;
	const struct kb_comparison_row *e;
	unsigned char *base_done;
	size_t i, m;
	int any = 0;
	char *mt;

	for (m = 0; m < nm; m++)
		for (i = 0; i < c->ncfgs; i++)
			any |= !!find_comparison(c, c->cfgs[i].id, job,
						 metrics[m]);
	if (!any)
		return;
	base_done = kb_xcalloc(nm + 1, 1);
	{
		/* the analyses of this table's comparisons, each once; with
		 * more than one, the configurations of each (a merged report
		 * of two campaigns has paired rows and unpaired ones) */
		struct kb_strlist an = { 0 };
		const char *a, *why;
		size_t k;

		for (m = 0; m < nm; m++)
			for (i = 0; i < c->ncfgs; i++) {
				e = find_comparison(c, c->cfgs[i].id, job,
						    metrics[m]);
				a = e ? e->analysis : NULL;
				if (a && !kb_strlist_has(&an, a))
					kb_strlist_add(&an, a);
			}
		for (k = 0; k < an.n; k++) {
			struct kb_strlist who = { 0 };
			char *list = NULL;
			size_t len = 0, w;
			FILE *f;

			for (m = 0; an.n > 1 && m < nm; m++)
				for (i = 0; i < c->ncfgs; i++) {
					e = find_comparison(c, c->cfgs[i].id,
							    job, metrics[m]);
					if (e && e->analysis &&
					    !strcmp(e->analysis, an.v[k]) &&
					    !kb_strlist_has(&who, c->cfgs[i].id))
						kb_strlist_add(&who,
							       c->cfgs[i].id);
				}
			f = kb_xmemstream(&list, &len);
			for (w = 0; w < who.n; w++)
				fprintf(f, "%s%s", w ? ", " : " of ", who.v[w]);
			fclose(f);
			why = unpaired_why(c, job, metrics, nm, an.v[k]);
			kb_table_add_note(t, "analysis%s: %s%s%s", list,
					  kb_analysis_text(an.v[k]),
					  why ? "; why: " : "", why ?: "");
			free(list);
			free(who.v);
		}
		free(an.v);
	}
	/* the family: every tested comparison of the report (all its
	 * tables, each campaign's results.json merged); an inconclusive
	 * one (bimodal, too few runs) is not tested and not in it */
	if (set->family_size > 0)
		kb_table_add_note(t, "significant: that test's p < %g after "
			"Benjamini-Hochberg adjustment over the %lld tested "
			"comparisons of this report (every compared metric of "
			"every job, shown here or not: results.json; false "
			"discovery rate %g), "
			"and |change| >= the minimum effect; %zu cell(s) "
			"marked%s", or0(set->alpha),
			(long long)set->family_size, or0(set->alpha), nsig,
			set->outliers_excluded ?
			"; outliers excluded (--exclude-outliers)" : "");
	else
		kb_table_add_note(t, "significant: none can be: no comparison "
			"of this report was tested (each is inconclusive, "
			"said below)%s", set->outliers_excluded ?
			"; outliers excluded (--exclude-outliers)" : "");
	hidden_significant_note(c, t, job, metrics, nm);
	for (m = 0; m < nm; m++) {
		for (i = 0; i < c->ncfgs; i++) {
			e = find_comparison(c, c->cfgs[i].id, job, metrics[m]);
			if (!e)
				continue;
			/* the spread of this comparison's analysis */
			mt = kb_mde_text(e);
			if (mt)
				kb_table_add_note(t, "%s, %s: %s", metrics[m],
						  c->cfgs[i].id, mt);
			free(mt);
			/* once per metric: the baseline's properties */
			if (!base_done[m]) {
				base_done[m] = 1;
				drift_note(t, c->baseline, metrics[m],
					   &e->drift_baseline,
					   drift_advice(c, e));
				outlier_note(c, t, c->baseline, metrics[m],
					     &e->outliers_baseline);
				warmup_note(t, c->baseline, metrics[m],
					    (double)e->warmup_suspect_baseline);
			}
			outlier_note(c, t, c->cfgs[i].id, metrics[m],
				     &e->outliers);
			warmup_note(t, c->cfgs[i].id, metrics[m],
				    (double)e->warmup_suspect);
			if (e->verdict && (!strcmp(e->verdict,
			    "insufficient samples") || !strcmp(e->verdict,
			    "inconclusive") || !strcmp(e->verdict,
			    "underpowered")))
				kb_table_add_note(t, "%s %s: %s (%s)",
					c->cfgs[i].id, metrics[m],
					e->verdict, e->reason ?: "");
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
	int excluded = c->camp->exclude_disturbed;
	size_t i, k, bd, bn, anyd = 0, nc = c->ncfgs;
	/* [0, nc): the configurations, [nc]: the baseline */
	const char **ids = kb_xcalloc(nc + 2, sizeof(*ids));
	size_t *d = kb_xcalloc(nc + 2, sizeof(*d));
	size_t *n = kb_xcalloc(nc + 2, sizeof(*n));
	char **list = kb_xcalloc(nc + 1, sizeof(*list));
	size_t *len = kb_xcalloc(nc + 1, sizeof(*len));
	FILE **f = kb_xcalloc(nc + 1, sizeof(*f));
	size_t *listed = kb_xcalloc(nc + 1, sizeof(*listed));
	char *shares = NULL, *tmp;

	for (i = 0; i < nc; i++)
		ids[i] = c->cfgs[i].id;
	ids[nc] = c->baseline;
	stats_disturbed_counts_in(c->rm, ids, nc + 1, job, d, n);
	bd = d[nc];
	bn = n[nc];
	for (i = 0; i < nc; i++) {
		double pct = n[i] ? 100.0 * (double)d[i] / (double)n[i] : 0.0;

		anyd += d[i];
		/* 1 of 300: "(0.33%)", not "(0%)" (kb_cell_dec()) */
		tmp = kb_xasprintf("%s%s%s %zu of %zu (%.*f%%)", shares ?
				   shares : "", shares ? ", " : "",
				   c->cfgs[i].id, d[i], n[i],
				   kb_cell_dec(0, pct), pct);
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
	for (k = 0; k < c->rm->nruns; k++) {
		const struct kb_rstrs *why = &c->rm->runs[k].info.disturbed;
		const char *rc;
		char b[KB_ITER_LABEL_MAX];
		size_t wi;

		if (!why->n || c->rm->runs[k].warmup ||
		    strcmp(run_job(c, k) ?: "", job))
			continue;
		rc = c->rm->runs[k].config == KB_RMODEL_NONE ? "" :
		     run_config(c, k);
		for (i = 0; i < nc && strcmp(rc, c->cfgs[i].id); i++)
			;
		if (i == nc)
			continue;
		if (listed[i]++ >= NOTE_LIST_MAX)
			continue;
		if (!f[i])
			f[i] = kb_xmemstream(&list[i], &len[i]);
		else
			fputs(", ", f[i]);
		fprintf(f[i], "%s (", iteration_text(c,
			c->rm->runs[k].iteration, b));
		for (wi = 0; wi < why->n; wi++)
			fprintf(f[i], "%s%s", wi ? "; " : "",
				why->v[wi] ?: "");
		fputc(')', f[i]);
	}
	for (i = 0; i < nc; i++) {
		if (!f[i])
			continue;
		if (fclose(f[i])) {
			kb_error("out of memory for a note");
			abort();
		}
		if (listed[i] > NOTE_LIST_MAX)
			kb_table_add_note(t, "disturbed: %s %s iteration %s, "
				"and %zu more (results.json: .runs[].disturbed "
				"for every one)", c->cfgs[i].id, job, list[i],
				listed[i] - NOTE_LIST_MAX);
		else
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
	free(listed);
}

/* What "vs base" compares with, for the legend: "baseline B", or for
 * campaigns merged by results_merge() (results/model.h) the same-named
 * configuration of the first campaign (malloc'd). */
static char *merged_baselines(struct ctx *c)
{
	if (c->camp->merged_from.n < 2)
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
	const char *bl = stats_baseline_for(c->rm, c->cfgs[i].id);

	return !strcmp(c->cfgs[i].id, c->baseline) ||
	       (bl && !strcmp(bl, c->cfgs[i].id));
}

/* A metric's columns in the comparison table: the mean, "vs base", the
 * change's 95% CI (one decimal: the group of a metric's columns fits 80
 * columns beside long configuration keys), "±", CV% and n. */
#define COLS_PER_METRIC 6

/* The half-width of s's 95% CI of the mean (NAN: none). */
static double ci_half(const struct kb_summary_row *s)
{
	return s ? kb_ci95_half(s->mean, s->ci95_lo, s->ci95_hi, s->harmonic) :
	       NAN;
}

/* The cells of summary s from col on: mean, then after the "vs base"
 * cell and the change's CI the half-width of the 95% CI (±), CV% and n;
 * "n/a" for what was not measured.  The mean and ± under the metric's
 * scale sc (--prefix), ± with its own decimals pm_dec. */
static void set_summary_cells(struct kb_table *t, size_t row, size_t col,
			      const struct kb_summary_row *s,
			      const struct kb_scale *sc, int pm_dec)
{
	if (s && isfinite(s->mean))
		kb_table_set_scaled(t, row, col, sc, sc->dec, s->mean);
	else
		kb_table_set(t, row, col, "n/a");
	if (isfinite(ci_half(s)))
		kb_table_set_scaled(t, row, col + 3, sc, pm_dec, ci_half(s));
	else
		kb_table_set(t, row, col + 3, "n/a");
	if (s && isfinite(s->cv_pct))
		kb_table_set(t, row, col + 4, "%.2f", s->cv_pct);
	else
		kb_table_set(t, row, col + 4, "n/a");
	kb_table_set(t, row, col + 5, "%ld", s ? (long)s->n : 0L);
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

	for (i = 0; i < c->an->nsummaries; i++) {
		key = c->an->summaries[i].metric;
		if (!key || strcmp(c->an->summaries[i].job ?: "", job) ||
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
		      const struct host_list *hosts,
		      const struct kb_scale *sc, const int *pm_dec)
{
	size_t h, m, row, col, nkey = 1 + c->labels.n;
	const struct kb_summary_row *s;
	char *key;

	for (h = 0; h < hosts->n; h++) {
		row = kb_table_add_row(t, 0);
		kb_table_set(t, row, 0, "  @%s", hosts->v[h]);
		for (m = 0; m < nm; m++) {
			col = nkey + COLS_PER_METRIC * m;
			key = kb_xasprintf("host.%s.%s", hosts->v[h],
					   metrics[m]);
			s = find_summary(c, c->cfgs[i].id, job, key);
			free(key);
			set_summary_cells(t, row, col, s, &sc[m], pm_dec[m]);
			if (is_base_row(c, i))
				kb_table_set(t, row, col + 1, "base");
			else if (s && isfinite(s->diff_pct))
				kb_table_set(t, row, col + 1, "(%+.2f%%)",
					     fabs(s->diff_pct) < 0.005 ? 0.0 :
					     s->diff_pct);
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
	int ok, sig, base;
	size_t nsig = 0, nunsure = 0;
	double diff;
	struct kb_scale *sc;
	int *pm_dec;
	const struct kb_summary_row *s;
	const struct kb_comparison_row *cmp;
	const char *warning;
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
	else if (job_has_values(c, job))
		title = kb_xasprintf("%s: %s: not measured by this job", job,
				     list);
	else
		title = kb_xasprintf("%s: %s: %s", job, list,
				     kb_rmodel__no_counted_why(c->rm, job));
	t = kb_table_new(title);
	free(title);
	free(phrase);
	free(list);

	add_key_cols(c, t);
	/* --prefix auto: one scale per metric's column group, by its
	 * largest mean; ± in it with its own decimals */
	sc = kb_xcalloc(nm + 1, sizeof(*sc));
	pm_dec = kb_xcalloc(nm + 1, sizeof(*pm_dec));
	for (m = 0; m < nm; m++) {
		double maxm = 0, maxpm = 0;

		for (i = 0; i < c->ncfgs; i++) {
			s = find_summary(c, c->cfgs[i].id, job, metrics[m]);
			if (s && isfinite(s->mean))
				maxm = fmax(maxm, fabs(s->mean));
			if (isfinite(ci_half(s)))
				maxpm = fmax(maxpm, ci_half(s));
		}
		kb_scale_pick(&sc[m], metrics[m], c->prefix, maxm);
		pm_dec[m] = kb_scale_dec(&sc[m], maxpm);
	}
	for (m = 0; m < nm; m++) {
		head = metric_head(metrics[m], niops > 1, &sc[m]);
		kb_table_add_col(t, head, 1, (int)m + 1);
		kb_table_add_col(t, "vs base", 1, (int)m + 1);
		kb_table_add_col(t, "change CI", 1, (int)m + 1);
		kb_table_add_col(t, "±", 1, (int)m + 1);
		kb_table_add_col(t, "CV%", 1, (int)m + 1);
		kb_table_add_col(t, "n", 1, (int)m + 1);
		free(head);
	}

	load_hosts(c, job, metrics, nm, &hosts);
	for (i = 0; i < c->ncfgs; i++) {
		row = add_cfg_row(c, t, i);
		base = is_base_row(c, i);
		for (m = 0; m < nm; m++) {
			col = nkey + COLS_PER_METRIC * m;
			s = find_summary(c, c->cfgs[i].id, job, metrics[m]);
			cmp = find_comparison(c, c->cfgs[i].id, job,
					      metrics[m]);
			set_summary_cells(t, row, col, s, &sc[m], pm_dec[m]);
			/* the change, mailing-list style: "(+0.03%)" plain,
			 * "* -0.42%*" significant (stats/compare.h): the
			 * change its analysis estimated and tested, else
			 * (no comparison) the change of the mean; a
			 * comparison without an estimate (insufficient
			 * samples) is n/a, not the means' ratio, which the
			 * legend does not promise (a new user's trial) */
			diff = cmp ? cmp->change_pct : NAN;
			ok = isfinite(diff);
			if (!ok && !cmp) {
				diff = s ? s->diff_pct : NAN;
				ok = isfinite(diff);
			}
			sig = cmp && kb_verdict_significant(cmp->verdict);
			if (base)
				kb_table_set(t, row, col + 1, "base");
			else if (ok && sig)
				kb_table_set(t, row, col + 1, "* %+.2f%%*",
					     diff);
			else if (ok && cmp &&
				 !kb_verdict_shows_ci(cmp->verdict) &&
				 ++nunsure)
				kb_table_set(t, row, col + 1, "(%+.2f%%)?",
					     fabs(diff) < 0.005 ? 0.0 : diff);
			else if (ok)
				kb_table_set(t, row, col + 1, "(%+.2f%%)",
					     fabs(diff) < 0.005 ? 0.0 : diff);
			else
				kb_table_set(t, row, col + 1, "n/a");
			/* the change's own 95% CI (of the ratio: never
			 * below -100%), where its analysis gave one */
			if (base)
				kb_table_set(t, row, col + 2, "%s", "");
			else if (cmp && isfinite(cmp->change_ci95_lo_pct) &&
				 isfinite(cmp->change_ci95_hi_pct) &&
				 kb_verdict_shows_ci(cmp->verdict)) {
				char lo[16], hi[16];

				kb_table_set(t, row, col + 2, "%s..%s",
					     kb_pct_bound(lo, sizeof(lo),
						cmp->change_ci95_lo_pct, 1),
					     kb_pct_bound(hi, sizeof(hi),
						cmp->change_ci95_hi_pct, 1));
			}
			else
				kb_table_set(t, row, col + 2, "n/a");
			if (sig) {
				nsig++;
				kb_table_set_strong(t, row, col);
				kb_table_set_strong(t, row, col + 1);
			}
		}
		host_rows(c, t, i, job, metrics, nm, &hosts, sc, pm_dec);
	}

	kb_table_add_note(t, "values: arithmetic means of the timed runs "
			  "(vs base can differ from their ratio: it is the "
			  "analysis's estimate, on ln values or per round); "
			  "vs base: change vs %s%s as the "
			  "analysis below estimates it, \"* -0.42%%*\" "
			  "significant, \"(+0.03%%)\" not%s; change CI: that "
			  "change's 95%% CI in %%, of this comparison alone "
			  "(not adjusted over the report's comparisons as "
			  "significance is; empty for the baseline and a load "
			  "host's row, n/a where it cannot be estimated or the "
			  "comparison is inconclusive); "
			  "±: half-width of "
			  "the 95%% CI of the mean (Student t); CV%%: "
			  "coefficient of variation; n: timed runs that "
			  "succeeded; n/a elsewhere: not measured", vs_what,
			  kb_rcampaign__swept(c->camp) ?
			  " at the same value of each swept job "
			  "parameter" : "",
			  nunsure ? ", \"(-8.40%)?\" inconclusive (see its "
			  "note)" : "");
	free(vs_what);
	for (m = 0; m < nm; m++) {	/* "k = 10^3", once per prefix */
		for (i = 0; i < m && strcmp(sc[i].cell, sc[m].cell); i++)
			;
		if (i == m)
			kb_scale_note(t, &sc[m]);
	}
	free(sc);
	free(pm_dec);
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
			s = find_summary(c, c->cfgs[i].id, job, metrics[m]);
			warning = s && s->modes ? s->modes->warning : NULL;
			if (warning)
				kb_table_add_note(t, "warning: %s%s", warning,
					c->an->settings.outliers_excluded ?
					" (a mode is not outliers: "
					"--exclude-outliers keeps both)" : "");
		}
	}
	disturbed_notes(c, t, job);
	few = NULL;
	nfew = 0;
	for (i = 0; i < c->ncfgs; i++) {
		s = find_summary(c, c->cfgs[i].id, job, metrics[0]);
		if (!s || s->n >= 3)
			continue;
		tmp = kb_xasprintf("%s%s%s (n=%ld)", few ? few : "",
				   few ? ", " : "", c->cfgs[i].id, (long)s->n);
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
	int any = 0;
	const struct kb_summary_row *s;

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
			s = find_summary(c, c->cfgs[i].id, job, metrics[m]);
			if (s && isfinite(s->mean))
				kb_table_set(t, row, nkey + m, "%.*f",
					     kb_cell_dec(kb_metric_decimals(
						metrics[m]), s->mean), s->mean);
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

/* A count as text with suffix, "n/a" when absent (-1). */
static char *count_text(long long v, const char *suffix)
{
	if (v < 0)
		return kb_xstrdup("n/a");
	return kb_xasprintf("%lld%s", v, suffix);
}

/* A number as results.json gives it (an integral value as an integer,
 * else %g), "n/a" when absent (NAN). */
static char *number_text(double v, const char *suffix)
{
	if (!isfinite(v))
		return kb_xstrdup("n/a");
	if (v == floor(v) && fabs(v) < 1e15)
		return kb_xasprintf("%lld%s", (long long)v, suffix);
	return kb_xasprintf("%g%s", v, suffix);
}

/* kbench run --shard K/N: one shard (its iterations only) or the merge
 * of all of them (results/shards.c). */
static void shard_header(const struct ctx *c, struct kb_report *r)
{
	const struct kb_rcampaign *camp = c->camp;
	long long wu = warmup_rounds(c);
	char *its, *s = NULL, *t;
	size_t i;

	if (camp->has_shard) {
		its = iter_text(&camp->shard.iterations, wu, 0);
		add_header(r, "Shard", kb_xasprintf("%lld/%lld: iterations %s "
			"only (warm-ups on every shard); report every shard "
			"directory together for the whole campaign",
			camp->shard.k, camp->shard.n, its ? its : "none"));
		free(its);
	}
	if (!camp->has_shards)
		return;
	for (i = 0; i < camp->nshards_from; i++) {
		its = iter_text(&camp->shards_from[i].iterations, wu, 0);
		t = kb_xasprintf("%s%s%s (%s)", s ? s : "", s ? ", " : "",
				 camp->shards_from[i].dir ?: "?",
				 its ? its : "none");
		free(its);
		free(s);
		s = t;
	}
	add_header(r, "Shards", kb_xasprintf("%lld merged, each round run by "
		"one, warm-ups by each: %s", camp->nshards_merged, s ? s : ""));
	free(s);
}

/* " (by psi.cpu_some_pct 4, task.other.cpu_pct 1)": which rules the
 * disturbed counted runs broke, each rule's count (a run may break
 * several), so that a header of "other tasks used 14%" with 5 of 6 runs
 * disturbed (by CPU pressure, in a new-user trial) does not read as
 * the wrong cause; "" when none (malloc'd). */
static char *disturbed_by(struct ctx *c)
{
	const char *name[8];	/* the first reason of each rule */
	size_t len[8], cnt[8], nn = 0, r, k, j, l, blen = 0;
	char *buf = NULL;
	FILE *f;

	for (r = 0; r < c->rm->nruns; r++) {
		const struct kb_rrun *x = &c->rm->runs[r];

		if (!x->ok || x->warmup)
			continue;
		for (k = 0; k < x->info.disturbed.n; k++) {
			const char *w = x->info.disturbed.v[k];

			l = strcspn(w, " ");	/* the rule's metric */
			for (j = 0; j < nn && (len[j] != l ||
			     strncmp(name[j], w, l)); j++)
				;
			if (j == nn) {
				if (nn == 8)
					continue;
				name[nn] = w;
				len[nn] = l;
				cnt[nn++] = 0;
			}
			cnt[j]++;
		}
	}
	if (!nn)
		return kb_xstrdup("");
	f = kb_xmemstream(&buf, &blen);
	for (j = 0; j < nn; j++)
		fprintf(f, "%s%.*s %zu", j ? ", " : " (by ", (int)len[j],
			name[j], cnt[j]);
	fputc(')', f);
	fclose(f);
	return buf;
}

/* A merged report's " (2 in a, 1 in b)": which campaign each of the runs
 * run again belongs to, the failed ones (--retry-failed) or, failed 0,
 * the others (retry_disturbed), campaigns with none left out; "" for
 * one campaign (malloc'd).  A break-it trial: "Retried: 2 run(s)
 * superseded" of two campaigns named neither. */
static char *retried_in(const struct kb_rcampaign *camp, int failed)
{
	char *list = NULL, *s;
	size_t k, n;

	if (camp->merged_names.n < 2 || !camp->merged_superseded)
		return kb_xstrdup("");
	for (k = 0; k < camp->merged_names.n; k++) {
		n = camp->merged_superseded_failed[k];
		if (!failed)
			n = camp->merged_superseded[k] - n;
		if (n)
			kb_str_append(&list, ", ", "%zu in %s", n,
				      camp->merged_names.v[k] ?: "?");
	}
	s = list ? kb_xasprintf(" (%s)", list) : kb_xstrdup("");
	free(list);
	return s;
}

/* How the superseded runs of camp were run again: their rounds, or
 * under order = block each run alone; in a merged report of campaigns
 * of both orders, which were block (their order is then NULL: the
 * wording was the rounds' for all).  malloc'd. */
static char *retried_how(const struct kb_rcampaign *camp)
{
	static const char rounds[] = "their rounds had a disturbed run and "
				     "were run again";
	static const char alone[] = "each was disturbed and run again alone "
				    "(order = block has no rounds)";
	char *blocks = NULL, *s;
	size_t k, nround = 0;

	if (camp->order || camp->merged_orders.n != camp->merged_names.n ||
	    !camp->merged_superseded)
		return kb_xstrdup(!strcmp(camp->order ?: "", "block") ?
				  alone : rounds);
	for (k = 0; k < camp->merged_names.n; k++) {
		if (camp->merged_superseded[k] ==
		    camp->merged_superseded_failed[k])
			continue;
		if (!strcmp(camp->merged_orders.v[k] ?: "", "block"))
			kb_str_append(&blocks, ", ", "%s",
				      camp->merged_names.v[k] ?: "?");
		else
			nround++;
	}
	if (!blocks)
		return kb_xstrdup(rounds);
	s = nround ? kb_xasprintf("%s, or under order = block (%s) each "
				  "disturbed run alone", rounds, blocks) :
		     kb_xstrdup(alone);
	free(blocks);
	return s;
}

/* "Machine: busy: 3 of 20 runs disturbed (by ...); other tasks used 64%
 * of a CPU during the runs (median)" (or "quiet", or "steady load": a
 * load there all along, above the floor of the limit but not of the
 * campaign's own level): how busy the machine was, so that a
 * reader of a noisy table knows why, by the rule that marks the runs
 * (stats_machine_busy_in(), stats/disturbed.h).  A busy verdict starts
 * with the fact that made it: the share of disturbed runs when it is
 * above KB_BUSY_DISTURBED_SHARE, else the median above the marks' limit
 * ("busy: other tasks used 4% of a CPU ..., 1 of 6 runs disturbed" read
 * as a contradiction, a helper's note). */
static void machine_header(struct ctx *c, struct kb_report *r)
{
	double other, lim = c->rm->campaign.disturbed.other_cpu_limit;
	size_t d, n, nsup, nfail;
	char *by, *in, *how;
	int busy, by_share;

	/* judged only where stats_mark_disturbed_in() ran (kbench run,
	 * report, compare) */
	busy = stats_machine_busy_in(c->rm, &other, &d, &n);
	if (busy < 0)
		return;
	by_share = busy == 1 &&
		   (double)d > KB_BUSY_DISTURBED_SHARE * (double)n;
	nsup = c->camp->nsuperseded;
	by = disturbed_by(c);
	if (c->rm->campaigns.n > 2 && isfinite(other)) {
		/* merged: each campaign's median, and the share (each run
		 * judged against its own campaign's level) */
		char *meds = NULL;
		size_t k;
		int steady = 0;
		double floor_pct = c->rm->campaign.disturbed.other_cpu_pct;

		for (k = 1; k < c->rm->campaigns.n; k++) {
			double mk = stats_runs_median_campaign_in(c->rm,
					"task.other.cpu_pct", k);

			/* a campaign under a load all along: not quiet */
			steady |= isfinite(mk) && isfinite(floor_pct) &&
				  mk > floor_pct;
			if (isfinite(mk))
				kb_str_append(&meds, ", ", "%.*f%% (%s)",
					      kb_cell_dec(0, mk), mk,
					      c->rm->campaigns.v[k]);
			else
				kb_str_append(&meds, ", ", "n/a (%s)",
					      c->rm->campaigns.v[k]);
		}
		if (busy)	/* the share alone decides (merged) */
			add_header(r, "Machine", kb_xasprintf("busy: %zu of "
				   "%zu runs disturbed, each against its own "
				   "campaign's level%s; other tasks used %s of "
				   "a CPU during the runs (medians)", d, n, by,
				   meds ? meds : ""));
		else
			add_header(r, "Machine", kb_xasprintf("%s: other "
				   "tasks used %s of a CPU during the runs "
				   "(medians), %zu of %zu runs disturbed, each "
				   "against its own campaign's level%s",
				   steady ? "steady load" : "quiet",
				   meds ? meds : "", d, n, by));
		free(meds);
	} else if (isfinite(other) && busy == 2)
		add_header(r, "Machine", kb_xasprintf("steady load: other "
			   "tasks used %.*f%% of a CPU during the runs "
			   "(median), %zu of %zu runs disturbed%s (a load "
			   "present all along: the runs are judged against "
			   "it, and are not a quiet machine's numbers)",
			   kb_cell_dec(0, other), other, d, n, by));
	else if (by_share)
		add_header(r, "Machine", isfinite(other) ?
			   kb_xasprintf("busy: %zu of %zu runs disturbed%s; "
			   "other tasks used %.*f%% of a CPU during the runs "
			   "(median)", d, n, by, kb_cell_dec(0, other),
			   other) :
			   kb_xasprintf("busy: %zu of %zu runs disturbed%s; "
			   "the CPU of other tasks was not measured", d, n,
			   by));
	else if (isfinite(other) && busy)
		/* the median above the marks' limit */
		add_header(r, "Machine", kb_xasprintf("busy: other tasks "
			   "used %.*f%% of a CPU during the runs (median), "
			   "above the limit of %.*f%% the runs are judged "
			   "by; %zu of %zu runs disturbed%s",
			   kb_cell_dec(0, other), other, kb_cell_dec(0, lim),
			   lim, d, n, by));
	else if (isfinite(other))
		add_header(r, "Machine", kb_xasprintf("quiet: other tasks "
			   "used %.*f%% of a CPU during the runs (median), %zu "
			   "of %zu runs disturbed%s", kb_cell_dec(0, other),
			   other, d, n, by));
	else
		add_header(r, "Machine", kb_xasprintf("the CPU of other "
			   "tasks was not measured; %zu of %zu runs disturbed%s",
			   d, n, by));
	free(by);
	nfail = c->camp->nsuperseded_failed;
	if (nsup > nfail) {
		in = retried_in(c->camp, 0);
		add_header(r, "Retried", kb_xasprintf("%zu run(s) superseded%s:"
			   " %s (retry_disturbed; kept as runs/.../"
			   "NNN.superseded-K, listed in results.json)",
			   nsup - nfail, in, how = retried_how(c->camp)));
		free(how);
		free(in);
	}
	if (nfail) {
		in = retried_in(c->camp, 1);
		add_header(r, "Retried", kb_xasprintf("%zu failed run(s)%s run "
			   "again (--retry-failed; each kept with its files "
			   "as runs/.../NNN.superseded-K, listed in "
			   "results.json)", nfail, in));
		free(in);
	}
}

/* "fio: fio-3.33", and with hosts = each load host's fio as it said
 * when the campaign began (campaign.json environment.load_hosts,
 * runner/campaign.c): "fio-3.33 here; load hosts: 10.0.0.2:8765 fio-3.35
 * (load2), ..."; versions that differ also as a "Warning" line
 * (parsers/fio_probe.h). */
static void fio_header(const struct kb_renv *env, struct kb_report *r)
{
	const char *local = env->fio_version, *hn;
	struct kb_fio_host_version *hv;
	char *list = NULL, *tmp;
	size_t i;

	if (!env->nload_hosts) {
		if (local)
			add_header(r, "fio", kb_xstrdup(local));
		return;
	}
	hv = kb_xcalloc(env->nload_hosts, sizeof(*hv));
	for (i = 0; i < env->nload_hosts; i++) {
		hv[i].host = env->load_hosts[i].host ?: "?";
		hv[i].version = env->load_hosts[i].fio_version;
		hn = env->load_hosts[i].hostname;
		tmp = kb_xasprintf("%s%s%s %s%s%s%s", list ? list : "",
				   list ? ", " : "", hv[i].host,
				   hv[i].version ?: "unknown (no answer)",
				   hn ? " (" : "", hn ?: "", hn ? ")" : "");
		free(list);
		list = tmp;
	}
	add_header(r, "fio", kb_xasprintf("%s here; load hosts: %s",
					  local ?: "unknown", list));
	tmp = kb_fio_version_skew(local, hv, env->nload_hosts);
	if (tmp)
		add_header(r, "Warning", tmp);
	free(list);
	free(hv);
}

/* "10.0.0.2, 10.0.0.3; randwrite on 10.0.0.3 only": campaign.hosts,
 * then each [job NAME] hosts = (campaign.job_hosts); malloc'd. */
static char *hosts_text(const struct kb_rcampaign *camp)
{
	char *list = NULL, *more;
	size_t hi, j;

	for (hi = 0; hi < camp->hosts.n; hi++) {
		more = kb_xasprintf("%s%s%s", list ? list : "",
				    list ? ", " : "", camp->hosts.v[hi] ?: "?");
		free(list);
		list = more;
	}
	for (j = 0; j < camp->njob_hosts; j++) {
		const struct kb_rstrs *jl = &camp->job_hosts[j].hosts;

		more = kb_xasprintf("%s; %s on", list, camp->job_hosts[j].job);
		free(list);
		list = more;
		for (hi = 0; hi < jl->n; hi++) {
			more = kb_xasprintf("%s%s%s", list, hi ? ", " : " ",
					    jl->v[hi] ?: "?");
			free(list);
			list = more;
		}
		more = kb_xasprintf("%s only", list);
		free(list);
		list = more;
	}
	return list;
}

/* Campaign i of a merged report by name: merged_names', else the
 * directory given. */
static const char *merged_name(const struct kb_rcampaign *camp, size_t i)
{
	const char *n = i < camp->merged_names.n ? camp->merged_names.v[i] :
			NULL;

	if (!n && i < camp->merged_from.n)
		n = camp->merged_from.v[i];
	return n ?: "?";
}

/* A setting in which merged campaigns differ (campaign.merged_settings):
 * "2 s per run (A), 1 s per run (B)" from num (runtime_s) or cnt
 * (iterations, warmup); malloc'd. */
static char *per_campaign(const struct kb_rcampaign *camp, const double *num,
			  const long long *cnt, const char *suffix)
{
	char *out = kb_xstrdup(""), *v;
	size_t i;

	for (i = 0; i < camp->merged_settings.n; i++) {
		v = num ? number_text(num[i], suffix) :
		    count_text(cnt[i], suffix);
		kb_str_append(&out, ", ", "%s (%s)", v, merged_name(camp, i));
		free(v);
	}
	return out;
}

/* The kernel release every campaign of a merged report ran on (their
 * environments'), NULL when they differ or one has none: a local
 * variant's release in the Kernels header (a helper read "running" in a
 * merged report of one machine's campaigns as a loss). */
static const char *same_release(const struct kb_rcampaign *camp)
{
	const char *r = camp->envs[0].kernel_release;
	size_t i;

	for (i = 1; r && i < camp->nenvs; i++)
		if (!camp->envs[i].kernel_release ||
		    strcmp(camp->envs[i].kernel_release, r))
			return NULL;
	return r;
}

/* Merged campaigns whose environments name different fio versions:
 * "fio: fio-3.33 (A), fio-3.35 (B)" and 1; 0 when they agree (the
 * first's, fio_header(), is the header's).  campaign.environments is
 * by campaign name, in merged order. */
static int merged_fio_header(const struct kb_rcampaign *camp,
			     struct kb_report *r)
{
	char *list = NULL;
	const char *f0, *fi;
	size_t i;
	int differ = 0;

	if (camp->merged_from.n < 2 || camp->nenvs < 2)
		return 0;
	f0 = camp->envs[0].fio_version;
	for (i = 1; i < camp->nenvs; i++) {
		fi = camp->envs[i].fio_version;
		differ |= (!f0 != !fi) || (f0 && strcmp(f0, fi));
	}
	if (!differ)
		return 0;
	for (i = 0; i < camp->nenvs; i++)
		kb_str_append(&list, ", ", "%s (%s)",
			      camp->envs[i].fio_version ?: "unknown",
			      camp->env_names[i] ?: "?");
	add_header(r, "fio", list);
	return 1;
}

static void build_header(struct ctx *c, struct kb_report *r)
{
	const struct kb_rcampaign *camp = c->camp;
	const struct kb_renv *env = &camp->env;
	const struct kb_rmerged_settings *ms = &camp->merged_settings;
	struct kb_strlist seen = { 0 };
	char *kernels = NULL, *tmp, *it, *wu;
	const char *variant, *release, *accel;
	size_t i;

	r->title = kb_xasprintf("kbench report: %s",
				camp->name ?: "(unnamed)");
	for (i = 0; i < camp->nconfigs; i++) {
		const struct kb_rconfig *e = &camp->configs[i];

		variant = e->variant ?: e->id;
		if (!variant || kb_strlist_has(&seen, variant))
			continue;
		kb_strlist_add(&seen, variant);
		release = e->release;
		/* a vm variant: the kernel as its guest saw it */
		if (e->guest_release)
			release = e->guest_release;
		else if (e->vm_release)
			release = e->vm_release;
		/* a local variant without release =: the kernel the campaign
		 * ran on (one campaign's environment; a merged report's
		 * campaigns may have run on several) */
		if (!release && (!e->method || !strcmp(e->method, "local")))
			release = camp->nenvs <= 1 ? env->kernel_release :
				  same_release(camp);
		accel = e->accel;
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
	add_header(r, "Target", kb_xstrdup(camp->target ?: "n/a"));
	if (camp->hosts.n) {
		char *list = hosts_text(camp);

		add_header(r, "Load hosts", kb_xasprintf("%s (fio --client; "
			   "metrics are their sum, host.HOST.* each; their "
			   "kernels are not variants: only this machine's "
			   "kernel and tunables are)", list));
		free(list);
	}
	if (ms->runtime_s)
		add_header(r, "Runtime", per_campaign(camp, ms->runtime_s, NULL,
						      " s per run"));
	else
		add_header(r, "Runtime", number_text(camp->runtime_s,
						     " s per run"));
	it = ms->iterations ? per_campaign(camp, NULL, ms->iterations, "") :
	     count_text(camp->iterations, "");
	wu = ms->warmup ? per_campaign(camp, NULL, ms->warmup, "") :
	     count_text(camp->warmup, "");
	if (!strcmp(it, "n/a"))
		add_header(r, "Iterations", kb_xstrdup("n/a"));
	else
		add_header(r, "Iterations", kb_xasprintf("%s timed + %s "
				"warm-up (not counted) per configuration and "
				"job", it, !strcmp(wu, "n/a") ? "0" : wu));
	free(it);
	free(wu);
	/* an interrupted campaign: its tables hold fewer runs than the
	 * plan (kbench run -o DIR resumes it; merged shards: each
	 * unfinished shard's directory) */
	if (camp->progress_planned > 0 &&
	    camp->progress_done < camp->progress_planned) {
		char *todo = kb_rcampaign__unfinished_shards(camp);

		add_header(r, "Progress", kb_xasprintf("%lld of %lld runs done, "
			   "%lld to do: the campaign is unfinished (%s)",
			   camp->progress_done, camp->progress_planned,
			   camp->progress_planned - camp->progress_done,
			   todo ? todo : "kbench run -o DIR resumes it"));
		free(todo);
	}
	shard_header(c, r);
	/* merged campaigns whose job files differ (results_merge()) */
	for (i = 0; i < camp->merged_job_file_diffs.n; i++)
		add_header(r, "Warning", kb_xasprintf("%s: a difference may "
			   "come from it", camp->merged_job_file_diffs.v[i]));
	if (camp->merged_from.n > 1)
		add_header(r, "Baseline", kb_xasprintf("%s; a configuration of "
			   "a later campaign: the one of the same name in %.*s",
			   c->baseline, (int)strcspn(c->baseline, ":"),
			   c->baseline));
	else
		add_header(r, "Baseline", kb_xstrdup(c->baseline));
	if (!merged_fio_header(camp, r))
		fio_header(env, r);
	if (env->cpu_model)
		add_header(r, "CPU", kb_xstrdup(env->cpu_model));
	/* vm variants (runner/driver_vm.c): "emulated (TCG): timings are
	 * not representative" when any boot had no KVM */
	if (env->vm_timing_note)
		add_header(r, "Timing", kb_xstrdup(env->vm_timing_note));
	machine_header(c, r);
}

/* Reasons are free text from the runner: kept on one line (a tab or
 * line break as a blank), any other control character shown as '?'
 * (kb_str_show(): ESC from a fio message), as every report shows one. */
static char *one_line(const char *s)
{
	char *d = kb_xstrdup(s), *p;

	for (p = d; *p; p++)
		if (strchr("\t\n\r", *p))
			*p = ' ';
	kb_str_show(d, "");
	return d;
}

static void add_item(char ***v, size_t *n, char *item)
{
	*v = kb_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = item;
}

/* One failed run of job j: "<config> <job> iteration <i>[ (warm-up)][
 * (profiling run, not counted)]: <reason>". */
static void add_failure(struct ctx *c, struct kb_report_job *j,
			const char *cfg, long iteration, int warmup,
			const char *extra, const char *reason)
{
	char *why = one_line(reason ? reason : "no reason recorded");
	char b[KB_ITER_LABEL_MAX];

	add_item(&j->failures, &j->nfailures, kb_xasprintf(
		"%s %s iteration %s%s%s%s: %s", cfg ?: "?", j->name,
		iteration_text(c, iteration, b), warmup ? " (warm-up)" : "",
		extra ? " (" : "", extra ? (!strcmp(extra, "profiling") ?
		"profiling run, not counted)" : "unsampled run, not counted)") :
		"", why));
	free(why);
}

/* The failed runs of job j: the counted and warm-up runs, then the extra
 * runs of profile = (results.json profiling_runs), named as such. */
static void build_failures(struct ctx *c, struct kb_report_job *j)
{
	const struct kb_rmodel *pm = c->rm->profiling;	/* NULL: none */
	const struct kb_rrun *x;
	const char *job;
	size_t i;

	for (i = 0; i < c->rm->nruns; i++) {
		x = &c->rm->runs[i];
		job = run_job(c, i);
		if (!job || strcmp(job, j->name) || x->ok)
			continue;
		add_failure(c, j, x->config == KB_RMODEL_NONE ? NULL :
			    run_config(c, i), x->iteration, x->warmup, NULL,
			    x->info.reason);
	}
	for (i = 0; pm && i < pm->nruns; i++) {
		x = &pm->runs[i];
		job = x->job == KB_RMODEL_NONE ? NULL : pm->jobs.v[x->job];
		if (!job || strcmp(job, j->name) || x->ok)
			continue;
		add_failure(c, j, x->config == KB_RMODEL_NONE ? NULL :
			    pm->configs.v[x->config], x->iteration, x->warmup,
			    x->info.extra, x->info.reason);
	}
}

/* Runs of job j that ran but are left out of the statistics, and counted
 * runs that carry flags (results/model.c). */
static void build_excluded(struct ctx *c, struct kb_report_job *j)
{
	const struct kb_rrun *x;
	const char *job, *cfg;
	size_t i, k;

	for (i = 0; i < c->rm->nruns; i++) {
		char list[1024] = "", *why, b[KB_ITER_LABEL_MAX];
		const char *it;

		x = &c->rm->runs[i];
		job = run_job(c, i);
		if (!job || strcmp(job, j->name) || !x->ok || x->warmup)
			continue;
		cfg = run_config(c, i);
		it = iteration_text(c, x->iteration, b);
		if (x->info.excluded) {
			why = one_line(x->info.excluded);
			add_item(&j->excluded, &j->nexcluded, kb_xasprintf(
				"%s %s iteration %s: %s", cfg, job, it, why));
			free(why);
			continue;
		}
		for (k = 0; k < x->info.flags.n; k++) {
			size_t l = strlen(list);

			if (x->info.flags.v[k])
				snprintf(list + l, sizeof(list) - l, "%s%s",
					 l ? "; " : "", x->info.flags.v[k]);
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
	for (i = 0; i < c->ncfgs; i++) {
		rows->ids[i] = c->cfgs[i].id;
		rows->variants[i] = c->cfgs[i].variant;
	}
}

static void rows_free(struct kb_profile_rows *rows)
{
	free(rows->ids);
	free(rows->variants);
}

/* reports/profile.c: the CPU/DCM profile and time/task tables; how many
 * were added. */
static size_t job_add_profile_tables(struct ctx *c, struct kb_report_job *j,
				     unsigned which)
{
	struct kb_profile_rows rows;
	struct kb_table *t[4];	/* CPU, DCM, time, task */
	size_t i, n;

	rows_init(c, &rows);
	n = profile_tables_which(c->rm, j->name, &rows, t, 4, which);
	for (i = 0; i < n; i++)
		kb_report_job_add(j, t[i]);
	rows_free(&rows);
	return n;
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
	/* asked for by name: say why there is none (it printed the header
	 * alone) */
	if (!job_add_profile_tables(c, j, PROFILE_ROLES))
		kb_report_job_note(j, "%s: no CPU or DCM profile: the campaign "
				   "sampled none (kernels.conf profile = "
				   "cycles,dcm samples with perf record; see "
				   "kbench(1))", j->name);
	return 0;
}

static int lay_time(struct ctx *c, struct kb_report_job *j,
		    const struct report_opts *opts, size_t nm)
{
	(void)opts;
	(void)nm;
	kb_report_job_add(j, cpu_table(c, j->name));
	job_add_profile_tables(c, j, PROFILE_TIME);
	if (!j->ntables && !job_has_values(c, j->name))	/* no run counted */
		kb_report_job_note(j, "%s: no time or CPU table: %s", j->name,
				   kb_rmodel__no_counted_why(c->rm, j->name));
	else if (!j->ntables)	/* as the profile layout: say why */
		kb_report_job_note(j, "%s: no time or CPU table: its runs "
				   "recorded no fio rusage, /proc/stat, "
				   "/proc/diskstats or task CPU", j->name);
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
	ret = layout_job_tables(c->rm, c->an,
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
	int in_default;	/* its tables are in the default report */
};

/* Every layout, in the order --help lists them (reports/layout.h
 * describes each table). */
static const struct kb_layout layouts[] = {
	{ "variants", "a row per configuration: the comparison tables "
	  "(seed 000; the default report adds the CPU, time and profile "
	  "tables)", lay_variants, 1 },
	{ "profile", "oprofile-style CPU and DCM shares by symbol group "
	  "(seed 000)", lay_profile, 1 },
	{ "time", "the CPU and I/O table, then fio's time and the I/Os it "
	  "issued, and the CPU of each task group (seed 001, as two tables)",
	  lay_time, 1 },
	{ "rounds", "a row per round, a column per configuration, average "
	  "and stddev (seed 002)", lay_preset, 0 },
	{ "scaling", "the swept dimension as columns, % change rows "
	  "(seed 003)", lay_preset, 0 },
	{ "mmtests", "Amean/Stddev/CoeffVar/Min/Max rows (mmtests "
	  "compare-kernels)", lay_preset, 0 },
	{ "lkp", "base, %stddev, %change, new, metric (lkp-tests; names "
	  "cut to 80 columns, ~N, in a legend)",
	  lay_preset, 0 },
	{ "pivot", "--rows DIM --cols DIM: the mean per cell", lay_preset,
	  0 },
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

int kb_layout_in_default(const char *name)
{
	size_t i;

	for (i = 0; name && i < NLAYOUTS; i++)
		if (!strcmp(layouts[i].name, name))
			return layouts[i].in_default;
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

int kb_report_build(const struct kb_rmodel *m, const struct report_opts *opts,
		    struct kb_report **out)
{
	struct ctx c = { 0 };
	struct kb_report *r = NULL;
	struct kb_report_job *j;
	size_t i, nm = 0;
	int ret = 0;

	*out = NULL;
	c.rm = m;
	c.camp = &m->campaign;
	c.an = &m->analysis;
	c.prefix = report_prefix(opts, m);

	if (opts && opts->metrics) {
		for (nm = 0; opts->metrics[nm]; nm++) {
			if (results_have_metric(&c, opts->metrics[nm]) ||
			    kb_rmodel__metric_asked_ok(m, opts->metrics[nm]))
				continue;
			ret = kb_rmodel__no_metric(m, opts->metrics[nm]);
			goto out;
		}
	}

	collect_labels_jobs(&c);
	collect_cfgs(&c);
	c.baseline = c.camp->baseline;
	for (i = 0; c.baseline && i < c.ncfgs; i++)
		if (!strcmp(c.cfgs[i].id, c.baseline))
			break;
	if (!c.baseline || i == c.ncfgs) {
		/* stats_fill_summaries_in() falls back the same way */
		const char *first = c.camp->nconfigs ? c.camp->configs[0].id :
				    NULL;

		c.baseline = first ?: (c.ncfgs ? c.cfgs[0].id : "(none)");
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
	return ret;
}
