/* The stats/ analyses on a jansson results tree, for the tests that
 * build one (tests may use jansson): each builds the typed model of the
 * tree (kb_rmodel__new(), results/rmodel.h), runs the typed form of
 * stats/ on it and frees it, as kbench's callers do.  Returns as the
 * typed form; a tree without a "runs" array (no model: named by
 * kb_rmodel__new()): -EINVAL, no disturbed run, counts 0, NAN, -1. */
#ifndef KB_TESTS_STATS_TREE_H
#define KB_TESTS_STATS_TREE_H

#include <errno.h>
#include <math.h>

#include "results/rmodel.h"
#include "stats/compare.h"
#include "stats/disturbed.h"
#include "stats/profiling.h"
#include "stats/summary.h"

static inline int tree_analyse(json_t *res, const struct kb_compare_opts *o)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret = m ? stats_analyse(m, o) : -EINVAL;

	kb_rmodel__delete(m);
	return ret;
}

static inline int tree_mark_outliers(json_t *res, int exclude)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret = m ? stats_mark_outliers_in(m, exclude) : -EINVAL;

	kb_rmodel__delete(m);
	return ret;
}

static inline int tree_fill_summaries(json_t *res)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret = m ? stats_fill_summaries_in(m) : -EINVAL;

	kb_rmodel__delete(m);
	return ret;
}

static inline int tree_fill_comparisons(json_t *res,
					const struct kb_compare_opts *o)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret = m ? stats_fill_comparisons_in(m, o, NULL, 0) : -EINVAL;

	kb_rmodel__delete(m);
	return ret;
}

static inline int tree_mark_disturbed(json_t *res,
				      const struct kb_disturbed_rules *r,
				      int exclude)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret = m ? stats_mark_disturbed_in(m, r, exclude) : 0;

	kb_rmodel__delete(m);
	return ret;
}

/* stats_disturbed_counts_in() for cfgs[0..n) */
static inline void tree_disturbed_counts(json_t *res,
					 const char *const *cfgs, size_t n,
					 const char *job, size_t *disturbed,
					 size_t *total)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	size_t k;

	for (k = 0; k < n; k++)
		disturbed[k] = total[k] = 0;
	if (m)
		stats_disturbed_counts_in(m, cfgs, n, job, disturbed, total);
	kb_rmodel__delete(m);
}

/* the same for one configuration cfg (NULL: all) */
static inline void tree_disturbed_count(json_t *res, const char *cfg,
					const char *job, size_t *disturbed,
					size_t *total)
{
	tree_disturbed_counts(res, &cfg, 1, job, disturbed, total);
}

static inline double tree_runs_median(json_t *res, const char *metric)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	double v = m ? stats_runs_median_in(m, metric) : NAN;

	kb_rmodel__delete(m);
	return v;
}

static inline int tree_machine_busy(json_t *res, double *other_median,
				    size_t *disturbed, size_t *total)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret = -1;

	if (other_median)
		*other_median = NAN;
	*disturbed = *total = 0;
	if (m)
		ret = stats_machine_busy_in(m, other_median, disturbed, total);
	kb_rmodel__delete(m);
	return ret;
}

#endif
