/* stats/paired.h - changes as ratios: the paired-by-round t-test on log
 * ratios, Welch's t-test on log values, the Wilcoxon signed-rank test.
 *
 * Rounds are blocks (issue 13): with order = interleave or random every
 * round runs each configuration once, so configuration C and baseline B
 * are compared round by round.  For the rounds r where both have a
 * counted, successful run (matched by round id, never by position):
 *     d_r    = ln(C_r / B_r)
 *     dbar   = mean(d_r),  s = sd(d_r) (n - 1),  se = s / sqrt(n)
 *     t      = dbar / se,  df = n - 1,  p = 2 Q_t(|t|; df)
 *     change = exp(dbar) - 1, 95% CI exp(dbar -+ t(0.975; df) se) - 1
 * (Student's paired t-test; NIST/SEMATECH e-Handbook 7.3.1; the log
 * transform: the change is the ratio of geometric means, and its CI,
 * being an exponential, can never go below -100%).
 *
 * Unpaired (across campaigns, order = block): Welch's t-test (stats/
 * compare.h kb_welch_test) on ln values, so that both analyses estimate
 * the same ratio of geometric means:
 *     dbar = mean(ln C) - mean(ln B),  se, df: Welch-Satterthwaite
 *     change = exp(dbar) - 1, CI exp(dbar -+ t(0.975; df) se) - 1
 *
 * Wilcoxon signed-rank test of the d_r (F. Wilcoxon, Biometrics Bull. 1
 * (1945) 80-83), printed beside the paired t-test and never used for
 * the verdict:
 *   - zero differences are dropped (Wilcoxon's own treatment; R's
 *     wilcox.test does the same), n' = the nonzero ones;
 *   - |d| are ranked 1..n', tied |d| get the mean of their ranks;
 *   - W+ = the sum of the ranks of the positive d;
 *   - n' <= KB_WILCOXON_EXACT_MAX (25): the exact distribution of W+
 *     given these ranks, by counting: each of the 2^n' sign patterns is
 *     equally likely under H0; the number of patterns giving each sum is
 *     built one rank at a time (N_k(s) = N_{k-1}(s) + N_{k-1}(s - r_k),
 *     in half-rank units so mid-ranks stay integers), which is exact
 *     with ties too (the permutation distribution, conditional on the
 *     tie pattern);  p = min(1, 2 min(P(W+ <= w), P(W+ >= w)));
 *   - above that, the normal approximation with the tie correction and a
 *     continuity correction (E. L. Lehmann, Nonparametrics, 1975, 4.2;
 *     M. Hollander and D. A. Wolfe, Nonparametric Statistical Methods,
 *     2nd ed. 1999, 3.1):
 *        mu = n'(n'+1)/4,
 *        sigma^2 = n'(n'+1)(2n'+1)/24 - sum(t^3 - t)/48  (t: tie sizes)
 *        z = (|W+ - mu| - 1/2) / sigma,  p = 2 Q_N(z)  (1 when z <= 0).
 *
 * Distribution functions (Student t, normal) come from GSL.  Values must
 * be > 0 for the log transform: the callers fall back to Welch on raw
 * values (kb_welch_test) for a metric with a value <= 0.
 */
#ifndef KB_STATS_PAIRED_H
#define KB_STATS_PAIRED_H

#include <stddef.h>

#define KB_WILCOXON_EXACT_MAX 25
#define KB_MDE_POWER 0.80	/* power of the minimum detectable effect */

/* A change estimated on the log scale. */
struct kb_log_test {
	size_t n;		/* pairs (paired), or 0 (Welch) */
	double mean_log;	/* dbar */
	double sd_log;		/* sd of the d_r (paired); NAN for Welch */
	double se_log;		/* standard error of dbar */
	double t, df, p;	/* two-sided; t and df NAN when se = 0 (p is
				 * then 1 for dbar = 0, else 0) */
	double change_pct;	/* (exp(dbar) - 1) * 100 */
	double change_ci95_lo_pct, change_ci95_hi_pct;
};

/* Paired t-test on d_i = ln(b[i] / a[i]), i < n (n >= 2).  Returns 0,
 * -EINVAL for NULL or non-finite input, -EDOM when n < 2 or a value is
 * <= 0. */
int kb_paired_log_test(const double *a, const double *b, size_t n,
		       struct kb_log_test *r);

/* The Welch standard error sqrt(va/na + vb/nb) of a difference of two
 * means from the variances va, vb (n - 1 denominators) of samples of
 * na, nb >= 2 values, and into *df the Welch-Satterthwaite degrees of
 * freedom df = se^4 / ((va/na)^2/(na-1) + (vb/nb)^2/(nb-1)) (stats/
 * compare.h, Welch 1947); *df is NAN when se = 0. */
double kb_welch_se(double va, size_t na, double vb, size_t nb, double *df);

/* Welch's t-test of ln b against ln a (na, nb >= 2).  Returns 0,
 * -EINVAL, -EDOM (n < 2 or a value <= 0). */
int kb_welch_log_test(const double *a, size_t na, const double *b,
		      size_t nb, struct kb_log_test *r);

struct kb_wilcoxon {
	size_t n;		/* nonzero differences ranked */
	size_t zeros;		/* zero differences dropped */
	size_t tied;		/* nonzero differences in a group of tied |d| */
	double w_plus;		/* sum of the ranks of the positive d */
	double p;		/* two-sided; 1 when n = 0 */
	int exact;		/* 1: exact by counting; 0: normal approx */
};

/* Wilcoxon signed-rank test of the n differences d.  Returns 0, -EINVAL
 * for NULL or non-finite input. */
int kb_wilcoxon_signed_rank(const double *d, size_t n, struct kb_wilcoxon *w);

/* Minimum detectable effect in % for a paired comparison of n rounds
 * whose log-ratios have sd sd_log (as a fraction): (t(1 - alpha/2; n-1) +
 * t(0.80; n-1)) sd_log / sqrt(n), as a % change (exp(x) - 1) * 100.  NAN
 * when n < 2 or sd_log is not finite. */
double kb_mde_paired_pct(size_t n, double sd_log, double alpha);

#endif
