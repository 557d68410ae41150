/* stats/summary.h - one sample summarised: mean, spread, 95% CI.
 *
 * A sample is one metric's values over the timed iterations of one
 * (configuration, job): only runs with status "ok" and warmup false enter
 * it (docs/results-format.md).  Values keep the metric's own unit
 * (lib/metrics.h): IOPS, KiB/s, ns, %, s, counts.
 *
 * The mean is the arithmetic mean of the per-iteration values.  That is
 * the right mean for fio's time-based runs: every iteration lasts the same
 * runtime, so the mean of IOPS over iterations equals total I/Os over
 * total time (no harmonic mean needed).
 *
 * Formulas (NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.5.2 and
 * 7.2.2.1; any statistics text):
 *   mean     = sum(x) / n
 *   sd       = sqrt(sum((x - mean)^2) / (n - 1))     sample sd, n - 1
 *   cv_pct   = sd / |mean| * 100
 *   ci95     = mean -+ t(0.975, n - 1) * sd / sqrt(n)   Student t,
 *              the lower end cut at 0 when no value is below 0 (a mean
 *              latency's interval at n = 2 reaches below 0 as soon as
 *              its CV passes 11%: t(0.975, 1) = 12.7); the half-width
 *              printed as "+-" stays t * sd / sqrt(n): kb_ci95_half()
 *   median   = middle of the sorted values (mean of the two middle ones
 *              when n is even), found by selection (GSL's
 *              gsl_stats_median, quickselect: O(n), no sort)
 * The t quantile comes from GSL (gsl_cdf_tdist_Pinv), the sums from GSL's
 * gsl_stats_* routines: no hand-written distribution code.
 */
#ifndef KB_STATS_SUMMARY_H
#define KB_STATS_SUMMARY_H

#include <stddef.h>

struct kb_modes_row;	/* results/analysis.h */

struct kb_summary {
	size_t n;
	double mean, sd, cv_pct, min, median, max, ci95_lo, ci95_hi;
	int has_sd;	/* 0 when n < 2: sd, cv_pct, ci95_* are NAN then and
			 * must print as null / "n/a", never as 0 */
	int harmonic;	/* 1: kb_summarize_fixed_work() (mean and CI of a
			 * rate over fixed work) */
};

/* Summarise the n values of x (n >= 1, every value finite) into *s.
 * cv_pct is NAN when the mean is 0.  Returns 0, -EINVAL when x is NULL,
 * n is 0 or a value is NaN/Inf, -ERANGE when a result overflows.  Prints
 * nothing: the caller knows which sample it was. */
int kb_summarize(const double *x, size_t n, struct kb_summary *s);

/* The rate (IOPS, KiB/s) of runs that each did the same fixed work
 * (fio jobs that are not time_based: size, io_size or number_ios; the
 * runs' "work": "fixed", parsers/run_dir.h): total work over total time
 * is the harmonic mean of the rates, n / sum(1 / x); its 95% CI is
 * computed on the time per unit of work y = 1 / x (Student t on y, as
 * above) and inverted: [1 / (ybar + h), 1 / (ybar - h)], the upper end
 * NAN (no bound) when ybar - h <= 0.  sd and cv_pct stay those of the
 * rates; min, median and max too.  s->harmonic = 1.  Returns as
 * kb_summarize(); -EDOM when a value is <= 0. */
int kb_summarize_fixed_work(const double *x, size_t n, struct kb_summary *s);

/* The "+-" of a summary with mean and 95% CI [lo, hi]: hi - mean, the
 * half-width of the t interval even when its lower end was cut at 0
 * (kb_summarize()); for a fixed-work rate (harmonic != 0: the inverted
 * CI is not symmetric) half the width, (hi - lo) / 2.  NAN when an end
 * is not finite. */
double kb_ci95_half(double mean, double lo, double hi, int harmonic);

/* 1 when metric is a rate a fixed-work job is summarised by its harmonic
 * mean (NAME.iops, NAME.bw_kib), else 0. */
int kb_metric_is_rate(const char *metric);

/* Fill results["summaries"] (replacing what was there) of a results model
 * (docs/results-format.md, schema_version 1): one entry per
 * configuration x job x metric that has at least one value in an ok,
 * non-warm-up run.  Order: configurations as in results["configurations"]
 * (then any only named by runs), jobs as in campaign.jobs (then any only
 * named by runs), metrics in lib/metrics.h table order, then unknown
 * metrics by name.
 *
 * Each entry: configuration, job, metric, unit and direction (from
 * lib/metrics.h; an unknown metric gets unit "" and direction "neutral"),
 * n, mean, sd, cv_pct, min, median, max, ci95_lo, ci95_hi, diff_pct, note.
 * diff_pct = (mean - baseline_mean) / baseline_mean * 100, where the
 * baseline is campaign.baseline (default: the first configuration) for
 * the same job and metric; null for the baseline itself, when the
 * baseline has no such sample or its mean is 0.  sd, cv_pct and the CI are
 * null when n < 2 with note "n=1: no variance estimate"; a rate metric
 * (*.iops, *.bw_kib) whose counted runs all did fixed work ("work":
 * "fixed") is summarised by kb_summarize_fixed_work() and its entry says
 * "mean_kind": "harmonic"; modes:
 * stats_modes_of() (null unless two modes).  No NaN or Inf
 * ever reaches the JSON (a non-finite result becomes null).
 *
 * Metric values that are null are "not measured" and skipped; a value of
 * another type is skipped with a warning naming the run.  Returns 0, or
 * -EINVAL (message printed) when results lacks "runs" (kb_rmodel__new()
 * then fails: the caller's check).
 *
 * On the typed model of results (results/rmodel.h, built once by the
 * caller with kb_rmodel__new(), model->results the jansson model it
 * fills); stats_analyse() runs it.  Every value is taken from the model's matrix, none by name from the
 * runs.  The summaries are the typed rows model->analysis.summaries
 * (results/analysis.h), written into model->results by its serializer
 * kb_analysis__summaries_to_json().  Returns 0. */
struct kb_rmodel;
int stats_fill_summaries_in(struct kb_rmodel *model);

/* The "modes" of a summary (results/analysis.h, struct kb_modes_row):
 * NULL unless the n values x (with their iteration numbers iter, or NULL)
 * are bimodal (stats/modes.h); then both modes (n, mean, sd, min, max,
 * iterations; the mode with more runs first), the gap (the largest gap
 * between neighbouring values), the spread (the larger within-mode robust
 * sd, as floored) and the warning (kb_modes_warning()).  cfg and metric
 * name the sample in the warning.  malloc'd: freed with the analysis
 * it is put in (kb_analysis__clear()). */
struct kb_modes_row *stats_modes_of(const char *cfg, const char *metric,
				    const double *x, const long *iter,
				    size_t n);

/* The configuration that config is compared against: its own
 * "baseline" member when it names a configuration (campaigns merged by
 * results_merge(), results/model.h: the same-named configuration of the
 * first campaign), else the campaign's baseline (campaign.baseline, else the first configuration), but with
 * config's own values of the swept job parameters (kernels.conf "sweep",
 * "sweep": true in campaign.tunables), so "new,numjobs=4" is compared with
 * "stock,numjobs=4", never with "stock,numjobs=1" (the values of every
 * campaign tunable compared as strings).  Read from the typed campaign
 * metadata of m (results/campaign_info.h).  Returns a string owned by
 * m's results tree, or NULL when no such configuration exists. */
const char *stats_baseline_for(const struct kb_rmodel *m, const char *config);

#endif
