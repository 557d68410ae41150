/* stats/calibrate.h - what an A/A campaign says about the machine
 * (`kbench calibrate`, issue 13): the spread, whether pairing by round
 * fits, and the rounds a comparison needs.
 *
 * For one metric, from the two copies' values a_r, b_r of the rounds r
 * where both counted (results/calibration.h):
 *   - CV of each copy (sd / mean, %);
 *   - sd of ln values, pooled over the copies: sqrt((s_a^2 + s_b^2) / 2)
 *     of ln a and ln b (the spread Welch on ln values uses);
 *   - sd of d_r = ln(b_r / a_r) (the spread the paired analysis uses);
 *   - Var(d) = Var(ln a) + Var(ln b) - 2 Cov(ln a, ln b): the variance of
 *     the within-round differences is above the sum of the two variances
 *     exactly when the copies are negatively correlated (neighbouring runs
 *     anti-correlated), so the test is Pearson's r of (ln a_r, ln b_r)
 *     against 0, one-sided: t = r sqrt((n - 2) / (1 - r^2)), df = n - 2,
 *     p = P(T <= t) (Student t, GSL gsl_cdf_tdist_P; the usual test of a
 *     correlation coefficient, e.g. NIST/SEMATECH e-Handbook 7.1.6 and
 *     D. C. Montgomery, Applied Statistics and Probability for
 *     Engineers, 11-8).  Welch on ln values ("welch-log") fits when
 *     p < alpha; otherwise pairing ("paired"), which is valid whatever
 *     the correlation and gains when it is positive;
 *   - the rounds needed: the least n >= 2 whose minimum detectable
 *     effect (80% power, two-sided alpha) is at most max_mde, and at most
 *     min_effect: paired, kb_mde_paired_pct(n, sd(d)) (stats/paired.h);
 *     Welch on ln values, kb_mde_welch_log_pct() with the pooled sd of
 *     ln values on both sides, n runs each (stats/compare.h: the MDE a
 *     "welch-log" comparison reports).  Above KB_CALIB_MAX_ROUNDS: 0.
 */
#ifndef KB_STATS_CALIBRATE_H
#define KB_STATS_CALIBRATE_H

#include "results/calibration.h"

/* Fill m's statistics (cv_pct, sd_log_pct, sd_log_ratio_pct, corr,
 * corr_p, analysis, rounds_max_mde, rounds_min_effect) from its samples.
 * Returns 0; -EDOM (statistics NAN, rounds 0, analysis "paired") when
 * m->n < 3 or a value is <= 0 (no logarithm). */
int kb_calibrate_metric(struct kb_calib_metric *m, double alpha);

/* kb_calibrate_metric() on every metric, then cal->analysis ("welch-log"
 * when any metric's is) and the rounds (the most over the metrics; 0
 * when any is above the cap).  Returns the number of metrics that could
 * not be calibrated (-EDOM above). */
size_t kb_calibrate(struct kb_calibration *cal);

/* cal->analysis and the rounds (as kb_calibrate() sets them) over the
 * (job, metric)s keep(m, arg) is true for (every one when keep is
 * NULL): a campaign narrows them to its own jobs and the metrics its
 * target_metrics names, those that decide when iterations = auto stops.
 * Returns the number kept; 0 leaves analysis "paired" and the rounds 0. */
size_t kb_calibrate_totals(struct kb_calibration *cal,
			   int (*keep)(const struct kb_calib_metric *m,
				       const void *arg),
			   const void *arg);

/* The least n in 2..KB_CALIB_MAX_ROUNDS whose MDE (paired: sd_log is
 * the sd of the log ratios; else the pooled sd of ln values, both as
 * fractions) is <= target_pct; 0 when none or an input is not finite. */
unsigned kb_calibrate_rounds(int paired, double sd_log, double alpha,
			     double target_pct);

#endif
