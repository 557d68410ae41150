/* results/precision.h - the 95% confidence intervals an analysed results
 * model holds (after stats_analyse(), stats/compare.h), as typed rows:
 * what `iterations = auto` (runner/adaptive.h) decides on.
 *
 * Taken from the model's "summaries" and "comparisons" arrays
 * (docs/results-format.md), in their order; a member that is absent or
 * not a number is NAN, a string that is absent NULL.  The strings are
 * borrowed from the model: it must outlive the rows.
 */
#ifndef KB_RESULTS_PRECISION_H
#define KB_RESULTS_PRECISION_H

#include <stddef.h>

struct json_t;	/* jansson's, for the results model (results/model.h) */

/* One summary: the mean of a metric of (configuration, job) and the 95%
 * CI of that mean (Student t, its lower end cut at 0 for values never
 * below 0: stats/summary.h), in the metric's unit; harmonic 1 for the
 * mean of a fixed-work rate ("mean_kind": "harmonic"). */
struct results_summary_ci {
	const char *configuration, *job, *metric;
	double mean, ci95_lo, ci95_hi;
	int harmonic;
};

/* One comparison of configuration with baseline: its analysis ("paired",
 * "welch", ...) and, paired by round, the 95% CI of the change in %
 * (change_ci95_lo_pct, change_ci95_hi_pct; NAN otherwise). */
struct results_comparison_ci {
	const char *configuration, *baseline, *job, *metric, *analysis;
	double change_ci95_lo_pct, change_ci95_hi_pct;
};

struct results_cis {
	struct results_summary_ci *summaries;
	size_t nsummaries;
	struct results_comparison_ci *comparisons;
	size_t ncomparisons;
};

/* Fill *out from results (an analysed model; arrays that are absent give
 * no rows).  Free with results_cis_free(). */
void results_cis_of(struct json_t *results, struct results_cis *out);
void results_cis_free(struct results_cis *c);

#endif
