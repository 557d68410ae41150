/* stats/modes.h - is a sample two performance modes rather than one
 * noisy one?  (../shared/cases/B44: identical runs land in one of two
 * modes, e.g. by NUMA or IRQ placement; the slow mode is 40% of the runs,
 * not 4 outliers.)
 *
 * Rule (issue 13): sort the sample and find the largest gap between
 * neighbouring values; it splits the sample into a lower and an upper
 * side.  The sample is *bimodal* when
 *   - each side holds at least max(3, 20% of n) values, and
 *   - the gap exceeds KB_MODES_GAP_FACTOR (5) times the larger of the two
 *     sides' spreads,
 * where a side's robust sd is 1.4826 MAD (MAD = median of |x - median|;
 * 1.4826 = 1 / Phi^-1(3/4) makes it estimate sigma for normal data:
 * NIST/SEMATECH e-Handbook 1.3.5.6; F. R. Hampel, JASA 69 (1974) 383-393),
 * or, when MAD is 0 (over half the side's values equal), 1.253314 times
 * the mean absolute deviation from the median (sqrt(pi/2): the same
 * normal-consistency factor; as kb_mad_outliers() does).
 *
 * Two additions make the rule stricter than issue 13's, never looser:
 *   - a side's spread is the larger of its robust sd and its sample sd:
 *     the MAD of a side of 3 or 4 values is often far below sigma, and
 *     with it alone 0.8% of normal samples of 10 (2.6% of 6) were called
 *     bimodal; with the larger of the two, 0.07% (0.6%), measured on
 *     10^5 seeded samples each (docs/design-decisions.md);
 *   - the spread is floored at KB_MODES_MIN_SPREAD (0.1%) of the whole
 *     sample's |median|, so two sides that are each constant, or nearly
 *     so, are two modes only when more than 0.5% of the median apart.
 * When several gaps tie for the largest, the lowest one splits.  Fewer
 * than 6 values are never bimodal (two sides of 3).  The largest gap is
 * found in O(n) by buckets where that gives the sorted scan's answer
 * exactly (stats/modes.c, max_gap_buckets: the common case, a side too
 * small, then needs no sort), else by sorting.
 *
 * Nothing here prints or allocates JSON: the results model records what
 * kb_find_modes() found (stats/summary.h "modes").
 */
#ifndef KB_STATS_MODES_H
#define KB_STATS_MODES_H

#include <stddef.h>

#define KB_MODES_GAP_FACTOR 5.0
#define KB_MODES_MIN_SIDE 3
#define KB_MODES_MIN_SIDE_SHARE 0.20
#define KB_MODES_MIN_SPREAD 0.001

/* One side of the largest gap. */
struct kb_mode {
	size_t n;
	double mean, sd;	/* sample sd (n - 1) */
	double robust_sd;	/* 1.4826 MAD (or the MeanAD form) */
	double spread;		/* max(robust_sd, sd) */
	double min, max;
};

struct kb_modes {
	int bimodal;		/* 1 when the rule above holds */
	/* the two sides of the largest gap (also when not bimodal, for n >=
	 * 2): side[0] holds the values <= split_lo, side[1] those >=
	 * split_hi */
	struct kb_mode side[2];
	double split_lo, split_hi;	/* the values either side of the gap */
	double gap;			/* split_hi - split_lo */
	double spread;			/* the larger side spread, floored */
	size_t min_side;		/* max(3, ceil(20% of n)) */
};

/* Look for two modes in the n values of x (finite; any order).  Returns
 * 0 (m->bimodal says whether), -EINVAL for NULL or non-finite input.
 * n < 2 fills m with zeros (not bimodal). */
int kb_find_modes(const double *x, size_t n, struct kb_modes *m);

/* The warning a report prints for a bimodal sample (malloc'd), e.g.
 * "running,NM=2 read.iops is bimodal: 6 runs ~412.15k (sd 0.6k) and 4
 * runs ~331.15k (sd 0.7k); gap 81k >> within-mode spread; the mean
 * 379.75k describes neither mode" (../shared/cases/B44.expected): the
 * mode with more runs first (the lower one on a tie); "gap" is the
 * distance between the two modes' means; numbers in k, M or G by the
 * size of the mean, means with 2 decimals, the distance with none from
 * 10 units up and 2 significant digits below ("gap 0.2k"), and each sd
 * rounded *up* to one decimal (below 0.1 unit to one significant digit,
 * "sd 0.001k"), so the printed spread never understates the measured
 * one.  mean is the whole sample's mean.  NULL when m is not bimodal. */
char *kb_modes_warning(const char *config, const char *metric,
		       const struct kb_modes *m, double mean);

/* Index into m->side of the mode printed first by kb_modes_warning(). */
static inline int kb_modes_major(const struct kb_modes *m)
{
	return m->side[1].n > m->side[0].n;
}

/* 0 when v lies in the lower side of m, 1 in the upper. */
static inline int kb_mode_side(const struct kb_modes *m, double v)
{
	return v >= m->split_hi;
}

#endif
