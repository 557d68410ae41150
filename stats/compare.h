/* stats/compare.h - is a configuration different from the baseline?
 *
 * Per (configuration vs baseline, job, metric) kbench computes, from the
 * values of the timed, successful iterations (the samples of
 * stats/summary.h):
 *
 *  - the analysis, chosen from the design before any number is looked at
 *    (issue 13, "Rounds are blocks"; recorded as "analysis"):
 *      "paired"    the campaign's order is interleave or random and both
 *                  samples come from one campaign (their runs' "campaign"
 *                  members, set when campaigns are merged, agree): the
 *                  paired t-test on the per-round log ratios over the
 *                  rounds (iterations) where both have a value, with the
 *                  Wilcoxon signed-rank test beside it (stats/paired.h);
 *      "welch-log" otherwise (order = block, no order recorded, two
 *                  campaigns, or a campaign whose kernels.conf named a
 *                  calibration (campaign.calibration.analysis, runner/
 *                  calibrate.h) that found the rounds anti-correlated):
 *                  Welch's t-test below on ln values
 *                  (kb_welch_log_test), Mann-Whitney U beside it;
 *      "welch"     a value <= 0 (no logarithm): Welch on the values.
 *    The change and its CI, t, df and p are those of the analysis; its
 *    unadjusted p enters Benjamini-Hochberg.
 *  - two modes (stats/modes.h) in either sample;
 *  - the difference of means d = mean(new) - mean(base) with its 95% CI,
 *    Welch's unequal-variance t-test and the Welch-Satterthwaite degrees
 *    of freedom (B. L. Welch, Biometrika 34 (1947) 28-35; NIST/SEMATECH
 *    e-Handbook of Statistical Methods, 7.3.1):
 *        se = sqrt(sa^2/na + sb^2/nb)
 *        t  = d / se
 *        df = se^4 / ((sa^2/na)^2/(na-1) + (sb^2/nb)^2/(nb-1))
 *        p  = 2 * Q_t(|t|; df)                (two-sided)
 *        CI = d -+ t(0.975; df) * se
 *    The % change and its CI are d and its CI divided by mean(base)
 *    (the baseline mean is taken as exact, as ../shared/cases/B24 does).
 *  - Mann-Whitney U (the distribution-free check; H. B. Mann and D. R.
 *    Whitney, Ann. Math. Statist. 18 (1947) 50-60): U counts the pairs
 *    (base, new) with new > base, ties counting 1/2.  Two-sided p: exact
 *    (the null distribution from Mann and Whitney's recurrence
 *    N(u; m, n) = N(u - n; m - 1, n) + N(u; m, n - 1)) when there are no
 *    ties and both samples have at most KB_MW_EXACT_MAX values; else the
 *    normal approximation with tie correction and continuity correction
 *    (E. L. Lehmann, Nonparametrics: Statistical Methods Based on Ranks,
 *    1975, section 1.4):
 *        mu = m n / 2
 *        sigma^2 = m n / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 *        z = (max(U, m n - U) - mu - 1/2) / sigma,   p = 2 * Q_N(z)
 *    with N = m + n and t the size of each group of tied values.
 *  - Benjamini-Hochberg adjusted p-values over every comparison made
 *    (Y. Benjamini and Y. Hochberg, J. R. Statist. Soc. B 57 (1995)
 *    289-300): sort the m p-values, q_(i) = min over j >= i of
 *    p_(j) m / j, capped at 1.  This controls the false discovery rate.
 *  - outliers by the modified z-score of Iglewicz and Hoaglin (B.
 *    Iglewicz and D. C. Hoaglin, How to Detect and Handle Outliers, ASQC
 *    1993; NIST/SEMATECH e-Handbook 1.3.5.17):
 *        M_i = 0.6745 (x_i - median) / MAD,  outlier when |M_i| > 3.5
 *    and |x_i - median| > 1% of |median| (KB_OUTLIER_MIN_REL, ours)
 *    When MAD = 0 (over half the values equal) the mean absolute
 *    deviation is used instead: M_i = (x_i - median) / (1.253314 MeanAD)
 *    (IBM SPSS, "modified z-score"); when that is 0 too, nothing is an
 *    outlier.  At least 5 values are needed (KB_MAD_MIN_N, ours): of
 *    3, one deviation is always 0 and the MAD is the smaller of the
 *    other two, so any lopsided sample flags its far value (a new-user
 *    trial: of 32030, 37005 and 70023 IOPS the one quiet run, 70023,
 *    was the "outlier").
 *  - drift: the least-squares line of the baseline's values over their
 *    position in the campaign's run order (GSL gsl_fit_linear), the
 *    slope's 95% CI (t with n - 2 df) and p, and the fitted change from
 *    the first to the last baseline run in % of the mean.
 *  - the minimum detectable effect of an unpaired comparison, two-sided
 *    alpha and 80% power (NIST/SEMATECH e-Handbook 7.2.2.2, the
 *    sample-size formula with t quantiles, MDE = (t(1 - alpha/2; df) +
 *    t(0.80; df)) se, with the standard error and df of the analysis):
 *    analysed by Welch on ln values ("welch-log"), per comparison, from
 *    both samples' variances of ln values s_a^2, s_b^2 (the spread that
 *    analysis uses; the Welch standard error and the Welch-Satterthwaite
 *    df above, as a ratio on the log scale):
 *        se   = sqrt(s_a^2/n_a + s_b^2/n_b)
 *        MDE% = (exp((t(1 - alpha/2; df) + t(0.80; df)) se) - 1) * 100
 *    and for "welch" on raw values (a value <= 0) the same with the
 *    variances of the values, in % of |mean(a)|:
 *        MDE% = (t(1 - alpha/2; df) + t(0.80; df)) se / |mean(a)| * 100
 *
 * Every distribution function (Student t, normal) comes from GSL.
 *
 *  - the minimum detectable effect of a paired comparison: see
 *    kb_mde_paired_pct() (stats/paired.h).
 *
 * Verdict of one comparison: "insufficient samples" when either side has
 * n < 2, or a paired analysis has fewer than 2 rounds in common;
 * "inconclusive" when either sample is bimodal (../shared/cases/B44: the
 * mean describes neither mode; such a p stays out of the BH family), or,
 * unpaired only, when the baseline drifts (slope p < alpha and |drift| >=
 * the minimum effect) at least as much as the change being judged
 * (../shared/cases/B26: A-vs-A drift larger than B - A; paired by round,
 * a drift common to the configurations cancels in the round ratios);
 * else significant when the analysis's BH-adjusted p < alpha AND |change|
 * >= the minimum effect (default 1%), and then "improvement" or
 * "regression" by the metric's direction (lib/metrics.h; "significant
 * difference" for a neutral metric); otherwise "no significant
 * difference", or "underpowered" when the comparison's minimum
 * detectable effect (mde_pct) is larger than max_mde (default 5%,
 * kernels.conf max_mde, --max-mde): it could not have seen a change of
 * that size, so its "no difference" is no evidence of no regression.  The MAD rule flags no value of a bimodal sample.
 */
#ifndef KB_STATS_COMPARE_H
#define KB_STATS_COMPARE_H

#include <stddef.h>

#include "stats/modes.h"
#include "stats/paired.h"

struct kb_comparison_row;	/* results/analysis.h */

#define KB_DEFAULT_ALPHA 0.05
#define KB_DEFAULT_MIN_EFFECT_PCT 1.0
#define KB_DEFAULT_MAX_MDE_PCT 5.0
#define KB_MW_EXACT_MAX 10	/* exact Mann-Whitney p up to this n */
#define KB_MAD_Z_LIMIT 3.5	/* Iglewicz-Hoaglin outlier threshold */
#define KB_MAD_MIN_N 5		/* fewer values: no outlier flagged */
/* ... and never within this share of the median: the MAD of a very
 * tight sample (CV 0.01%) made 3 IOPS in 60k an "outlier"; 1% is the
 * default min_effect, the smallest change kbench calls significant */
#define KB_OUTLIER_MIN_REL 0.01

struct kb_welch {
	double diff;			/* mean(b) - mean(a), metric's unit */
	double diff_ci95_lo, diff_ci95_hi;
	double change_pct;		/* diff / mean(a) * 100; NAN if mean(a) = 0 */
	double change_ci95_lo_pct, change_ci95_hi_pct;
	double t, df, p;		/* two-sided; t and df NAN when both
					 * variances are 0 (p is then 1 for
					 * equal means, 0 otherwise) */
};

/* Welch's t-test of b against a (na, nb >= 2, finite values).  Returns 0,
 * -EINVAL for NULL or non-finite input, -EDOM when na or nb < 2, -ERANGE
 * when a mean or the variances overflow a double. */
int kb_welch_test(const double *a, size_t na, const double *b, size_t nb,
		  struct kb_welch *w);

struct kb_mann_whitney {
	double u;		/* pairs with b > a (ties 1/2), 0..na*nb */
	double p;		/* two-sided */
	int exact;		/* 1: exact null distribution; 0: normal */
};

/* Mann-Whitney U of b against a (na, nb >= 1).  0, -EINVAL. */
int kb_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		    struct kb_mann_whitney *m);

/* Benjamini-Hochberg: q[i] for p[i], i < n (q may be p).  NAN entries
 * are left out of the family and stay NAN.  Returns the family size. */
size_t kb_bh_adjust(const double *p, size_t n, double *q);

/* Modified z-scores of x into z (may be NULL) and outlier flags into
 * flag (|z| > KB_MAD_Z_LIMIT and |x - median| > KB_OUTLIER_MIN_REL *
 * |median|).  n < 3: no flags, z NAN; n < KB_MAD_MIN_N: z, no flags.
 * Returns the
 * number of outliers, or -EINVAL. */
int kb_mad_outliers(const double *x, size_t n, double *z, int *flag);

struct kb_drift {
	size_t n;
	double slope;			/* metric's unit per run-order step */
	double slope_ci95_lo, slope_ci95_hi, p;
	double change_pct;		/* slope * (order span) / mean * 100 */
};

/* Linear trend of y over order (n >= 3, order not all equal).  0,
 * -EDOM when n < 3 or the orders are all equal, -EINVAL. */
int kb_drift_check(const double *order, const double *y, size_t n,
		   struct kb_drift *d);


/* Minimum detectable effect in % of a "welch-log" comparison (see
 * above): sd_log_a, sd_log_b are the sds of the two samples' ln values
 * (fractions, n - 1), na, nb their sizes.  0 when both sds are 0; NAN
 * when na or nb < 2 or an sd is not finite. */
double kb_mde_welch_log_pct(double sd_log_a, size_t na, double sd_log_b,
			    size_t nb, double alpha);

/* A percentage per metric: --min-effect / --max-mde METRIC=PCT. */
struct kb_metric_pct {
	char *metric;			/* owned */
	double pct;
};

struct kb_metric_pcts {
	struct kb_metric_pct *v;
	size_t n;
};

/* Settings of a comparison.  NAN / NULL / 0 = take it from the results
 * model's campaign (alpha, min_effect_pct, min_effect_by_metric, from
 * kernels.conf) or the default. */
struct kb_compare_opts {
	double alpha;
	double min_effect_pct;		/* for every metric (CLI) */
	struct kb_metric_pcts min_effect_by_metric;	/* read.iops=2: see
					 * kb_compare_opts_free() */
	double max_mde_pct;		/* for every metric (CLI) */
	struct kb_metric_pcts max_mde_by_metric;	/* as
					 * min_effect_by_metric */
	const char **metrics;		/* NULL-terminated; NULL = defaults */
	int exclude_outliers;
};

void kb_compare_opts_init(struct kb_compare_opts *o);

/* A command-line option into o: opt 'A' = --alpha P (0 < P <= 0.5),
 * 'E' = --min-effect PCT or METRIC=PCT (PCT >= 0, an optional '%'),
 * 'M' = --max-mde PCT or METRIC=PCT (the same).
 * 0, or -EINVAL with a message naming the option and value.  A METRIC=
 * value allocates o->min_effect_by_metric or o->max_mde_by_metric:
 * kb_compare_opts_free(). */
int kb_compare_parse_opt(struct kb_compare_opts *o, int opt,
			 const char *arg);
void kb_compare_opts_free(struct kb_compare_opts *o);

/* The default metrics compared for a job: for each direction (read,
 * write, trim) with an IOPS sample in the results, DIR.iops and
 * DIR.clat_p99_ns (throughput and tail latency). */

/* Mark outliers in a results model (docs/results-format.md): every
 * counted run gets "outliers": [metric names whose value is a MAD
 * outlier in its (configuration, job, metric) sample]; with exclude != 0
 * those values move from "metrics" to "excluded_outliers" so that the
 * summaries and comparisons leave them out (the files on disk keep
 * them).  Returns the number of outlier values, or -EINVAL.
 *
 * It and stats_fill_comparisons_in() work on the typed model of
 * results (results/rmodel.h, built once by the caller; model->results is
 * the jansson model they fill): every value is read from the model's
 * matrix, none by name from the runs, and every setting from its
 * campaign (results/campaign_info.h).  stats_analyse() builds the model
 * once (the caller's) and runs them with stats_fill_summaries_in() (stats/summary.h).
 * The outliers are written through kb_rmodel__outlier_add() and
 * kb_rmodel__outliers_exclude() (results/rmodel.h): an excluded outlier
 * is also dropped from the matrix, so that what runs after it leaves the
 * value out. */
struct kb_rmodel;
int stats_mark_outliers_in(struct kb_rmodel *model, int exclude);

/* One configuration compared with another. */
struct kb_compare_pair {
	const char *baseline;
	const char *configuration;
};

/* Fill results["comparisons"], results["sample_checks"] and
 * results["comparison_settings"] (docs/results-format.md): fills the
 * typed rows model->analysis.comparisons, .sample_checks and
 * .settings (results/analysis.h) and writes them into model->results
 * with its serializer kb_analysis__comparisons_to_json().  pairs NULL: every configuration against
 * campaign.baseline (default: the first).  Returns 0, -EINVAL with a
 * message (no runs, unknown metric). */
int stats_fill_comparisons_in(struct kb_rmodel *model,
			      const struct kb_compare_opts *o,
			      const struct kb_compare_pair *pairs,
			      size_t npairs);

/* One line naming an analysis ("paired", "welch-log", "welch": the
 * "analysis" of a comparison) for a table's legend. */
const char *kb_analysis_text(const char *analysis);

/* The minimum detectable effect of comparison e (a row of
 * results/analysis.h; from an entry of results["comparisons"]:
 * kb_comparison_row__from_json()) with the spread it comes from, for a table's
 * legend: "minimum detectable effect +-X% (80% power, two-sided alpha
 * A, paired, n=N rounds, sd of the per-round log ratios S%)", or for
 * the unpaired analyses the sizes and spreads of both samples (Welch on
 * ln values: their sds of ln values; Welch: their CVs).  NULL when e
 * has no MDE; else malloc'd. */
char *kb_mde_text(const struct kb_comparison_row *e);

/* stats_mark_outliers_in(), stats_fill_summaries_in(), stats_fill_profiling_in()
 * (stats/profiling.h), stats_fill_comparisons_in()
 * with the default pairs: what `kbench run` and `kbench report` do, on
 * the typed model m built once by the caller after loading (results/
 * rmodel.h; issue 16: one run x metric matrix for the analysis and the
 * reports that follow).  Fills m->analysis and writes it into m->results
 * (results.json's "summaries", "comparisons", ...); the runs' info is
 * read again after the outliers are marked.  A caller with only the
 * jansson tree builds the model with kb_rmodel__new() (NULL: no "runs"
 * array, message printed).  Returns 0, or -EINVAL with a message. */
int stats_analyse(struct kb_rmodel *m, const struct kb_compare_opts *o);

#endif
