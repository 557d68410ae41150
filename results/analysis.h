/* results/analysis.h - what stats/ computes from a results model, typed:
 * the summaries, comparisons, sample checks and comparison settings
 * (issue 12, step 2: "the comparison structures are declared there and
 * filled by stats; one serializer there writes results.json").
 *
 * stats_fill_summaries_in() and stats_fill_comparisons_in() (stats/
 * summary.h, stats/compare.h) fill the struct kb_analysis that hangs off
 * the typed results model (struct kb_rmodel, results/rmodel.h); the
 * serializers below turn it into the members "summaries", "comparisons",
 * "sample_checks" and "comparison_settings" of the jansson results model,
 * the one place that writes them (results.json, `report --format json`,
 * `push --format json`).  The contract for every member, its unit and when
 * it is null: docs/results-format.md and schema/results.schema.json.
 *
 * Conventions: doubles are in the metric's own unit (lib/metrics.h) or
 * in % where the name ends in _pct; NAN is written as null (a member that
 * "is null when ..." is NAN then).  Strings are owned by the row (freed by
 * kb_analysis__clear()) unless said otherwise; unit, direction, analysis
 * and verdict point to static strings.
 */
#ifndef KB_RESULTS_ANALYSIS_H
#define KB_RESULTS_ANALYSIS_H

#include <stddef.h>

struct json_t;	/* jansson's, for the results model (results/model.h) */

/* Iteration numbers (rounds) of a sample's values: outliers, a mode's
 * runs. */
struct kb_iters {
	long *v;
	size_t n;
};

/* One of the two modes of a bimodal sample (stats/modes.h). */
struct kb_mode_row {
	size_t n;
	double mean, sd, min, max;
	struct kb_iters iterations;
};

/* A summary's "modes": side[0] is the mode with more runs. */
struct kb_modes_row {
	struct kb_mode_row side[2];
	double gap, spread;
	char *warning;
};

/* One entry of "summaries": configuration x job x metric. */
struct kb_summary_row {
	char *configuration, *job, *metric;
	const char *unit, *direction;	/* lib/metrics.h's, "" / "neutral"
					 * for an unknown metric */
	size_t n;
	double mean, sd, cv_pct, min, median, max, ci95_lo, ci95_hi;
	double diff_pct;		/* vs the baseline's mean; NAN: none */
	int has_sd;			/* 0 (n < 2): sd, cv_pct, ci95_* null
					 * and note "n=1: no variance
					 * estimate" */
	int harmonic;			/* "mean_kind": "harmonic" */
	struct kb_modes_row *modes;	/* NULL: null (not bimodal) */
	int modes_absent;		/* read back from an entry without
					 * "modes" (not required by the
					 * schema): not known */
};

/* "drift" / "drift_baseline": the trend of a sample over the run order
 * (kb_drift_check(), stats/compare.h); present 0: null (fewer than 3
 * values). */
struct kb_drift_row {
	int present;
	size_t n;
	double slope_per_run, slope_ci95_lo, slope_ci95_hi, p, change_pct;
	int warn;		/* p < alpha and |change_pct| >= min effect */
};

/* "wilcoxon" of a paired comparison (stats/paired.h); present 0: null. */
struct kb_wilcoxon_row {
	int present;
	double w_plus, p;
	int exact;
	size_t n, zeros, tied;
	char *method;
};

/* One entry of "comparisons": configuration against baseline for (job,
 * metric).  The order of the members here is the order written. */
struct kb_comparison_row {
	char *configuration, *baseline, *job, *metric;
	const char *unit, *direction;
	const char *analysis;		/* "paired", "welch-log", "welch" */
	char *analysis_reason;
	size_t n, n_baseline;
	long n_pairs;			/* -1: null (not paired) */
	double mean, mean_baseline, cv_pct, cv_baseline_pct;
	double sd_log_ratio_pct, sd_log_pct, sd_log_baseline_pct;
	double diff, diff_ci95_lo, diff_ci95_hi;
	double change_pct, change_ci95_lo_pct, change_ci95_hi_pct;
	double t, df, p, welch_t, welch_df, welch_p, p_adjusted;
	double mw_u, mw_p;
	int mw_exact;
	struct kb_wilcoxon_row wilcoxon;
	double alpha, min_effect_pct, max_mde_pct;	/* never NAN */
	double mde_pct;
	struct kb_iters outliers, outliers_baseline;
	size_t warmup_suspect, warmup_suspect_baseline;
	struct kb_drift_row drift_baseline;
	/* samples from two campaigns (kbench compare A B): the
	 * configuration's own drift over its campaign's run order, %
	 * (drift_baseline's change_pct for the other side); NAN (null)
	 * within one campaign */
	double drift_configuration_pct;
	int bimodal;			/* 0: null; else the two warnings
					 * below (NULL: that side is not) */
	char *bimodal_baseline, *bimodal_configuration;
	char *accel_baseline, *accel_configuration;	/* "accel_mismatch"
					 * when both are set */
	const char *verdict;
	char *reason;
};

/* One entry of "sample_checks": a configuration in no comparison. */
struct kb_sample_check_row {
	char *configuration, *job, *metric;
	size_t n;
	struct kb_iters outliers;
	size_t warmup_suspect;
	struct kb_drift_row drift;
	char *bimodal;			/* NULL: null */
};

/* "comparison_settings". */
struct kb_comparison_settings {
	double alpha;
	const char *p_adjustment;	/* "Benjamini-Hochberg" */
	size_t family_size;
	double power_for_mde;
	int outliers_excluded;
};

/* One entry of "profile_overhead" (stats/profiling.h): what perf
 * record's sampling costs the IOPS of (configuration, job), sampled /
 * unsampled, paired by round. */
struct kb_profile_overhead_row {
	char *configuration, *job;
	const char *sampled;	/* "profiling runs" | "counted runs" */
	size_t n;		/* rounds paired */
	double ratio;		/* NAN: null (no test possible) */
	double ci95_lo, ci95_hi;	/* NAN: null (n < 2) */
};

struct kb_analysis {
	struct kb_summary_row *summaries;
	size_t nsummaries;
	struct kb_comparison_row *comparisons;
	size_t ncomparisons;
	struct kb_sample_check_row *sample_checks;
	size_t nsample_checks;
	struct kb_comparison_settings settings;
	/* the extra runs' (stats/profiling.h, stats_fill_profiling_in()):
	 * "profiling_summaries" is written when profiling_sampled (some
	 * extra run sampled; its rows may still be none), "profile_overhead"
	 * when it has rows */
	int profiling_sampled;
	struct kb_summary_row *profiling_summaries;
	size_t nprofiling_summaries;
	struct kb_profile_overhead_row *profile_overhead;
	size_t nprofile_overhead;
};

/* A new zeroed row appended to the array (*v, *n): kb_xrealloc'd. */
struct kb_summary_row *kb_analysis__add_summary(struct kb_analysis *a);
struct kb_comparison_row *kb_analysis__add_comparison(struct kb_analysis *a);
struct kb_sample_check_row *kb_analysis__add_sample_check(
	struct kb_analysis *a);
struct kb_profile_overhead_row *kb_analysis__add_profile_overhead(
	struct kb_analysis *a);

/* Free the summaries, the comparisons with the sample checks and the
 * settings, the extra runs' rows (profiling_*, profile_overhead), or
 * everything; what is freed is left empty. */
void kb_analysis__clear_summaries(struct kb_analysis *a);
void kb_analysis__clear_comparisons(struct kb_analysis *a);
void kb_analysis__clear_profiling(struct kb_analysis *a);
void kb_analysis__clear(struct kb_analysis *a);

/* The serializers: results["summaries"] from a->summaries; and
 * results["comparisons"], ["sample_checks"], ["comparison_settings"] from
 * the rest (each replacing what was there, in place).  No NaN or Inf
 * reaches the JSON. */
void kb_analysis__summaries_to_json(const struct kb_analysis *a,
				    struct json_t *results);
void kb_analysis__comparisons_to_json(const struct kb_analysis *a,
				      struct json_t *results);
/* results["profiling_summaries"] and ["profile_overhead"] from the extra
 * runs' rows: both removed, then appended (in that order) when there is
 * something to write (see struct kb_analysis), as stats/profiling.h
 * documents them. */
void kb_analysis__profiling_to_json(const struct kb_analysis *a,
				    struct json_t *results);

/* The summary of (cfg, job, metric), the first comparison of cfg against
 * base (NULL: any) for (job, metric), or NULL.  Linear in the rows. */
const struct kb_summary_row *kb_analysis__summary(const struct kb_analysis *a,
						 const char *cfg,
						 const char *job,
						 const char *metric);
const struct kb_comparison_row *kb_analysis__comparison(
	const struct kb_analysis *a, const char *cfg, const char *base,
	const char *job, const char *metric);
/* The same lookup in any n summary rows (a->profiling_summaries). */
const struct kb_summary_row *kb_summary_rows__find(
	const struct kb_summary_row *rows, size_t n, const char *cfg,
	const char *job, const char *metric);

/* Read back what the serializers wrote: the analysis of an analysed
 * results model (its "summaries", "comparisons", "sample_checks",
 * "comparison_settings", "profiling_summaries" and "profile_overhead";
 * absent arrays give no rows, absent or null numbers are NAN, n_pairs
 * -1; profiling_sampled: "profiling_summaries" is an array) into *a, so
 * that a results.json loaded from disk gives the same rows as the
 * analysis that wrote it (the serializers write the same JSON again).
 * The char * members are owned (kb_analysis__clear()); the const char *
 * ones (unit, direction, analysis, verdict, p_adjustment, sampled) are
 * borrowed from results, which must outlive the rows. */
void kb_analysis__from_json(struct json_t *results, struct kb_analysis *a);

/* One entry of results["comparisons"] read back into *r, as above; free
 * with kb_comparison_row__clear(). */
void kb_comparison_row__from_json(struct json_t *e,
				  struct kb_comparison_row *r);
void kb_comparison_row__clear(struct kb_comparison_row *r);

#endif
