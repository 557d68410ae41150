/* results/rmodel.h - the typed results model: a results model's runs as
 * C structures and one dense run x metric matrix of values (issue 12,
 * step 2; issue 16).
 *
 * Built ONCE from the jansson results model (results/model.h, the
 * results.json document of docs/results-format.md) after loading, then
 * used by stats/ for every gather (outliers, summaries, comparisons,
 * drift, modes) instead of looking each value up by name in every run's
 * "metrics" object.  The jansson tree stays the on-disk format and the
 * owner of everything not converted here; the model borrows from it
 * (configuration ids, job names, each run's object), so the tree must
 * outlive the model and keep its runs while the model is in use.
 *
 * Naming after perf's evlist__/evsel__: kb_rmodel__VERB(model, ...).
 *
 * Shapes:
 *   configs  configuration ids: results["configurations"][].id in order,
 *            then any id only named by a run
 *   jobs     job names: campaign.jobs in order, then any only named by a
 *            run
 *   metrics  every metric name with a number value in any run, in the
 *            order first met (runs in order, each run's "metrics" in its
 *            own order), with unit and direction from lib/metrics.h (""
 *            and KB_NEUTRAL for a metric not in the table)
 *   runs     results["runs"] in order
 *   values   nmetrics x nruns doubles, metric-major (a sample's values
 *            are near each other): values[metric * nruns + run], in the
 *            metric's own unit (lib/metrics.h), NAN = not measured (absent,
 *            null, not a number, or taken out by kb_rmodel__drop())
 */
#ifndef KB_RESULTS_RMODEL_H
#define KB_RESULTS_RMODEL_H

#include <stddef.h>
#include <jansson.h>

#include "lib/metrics.h"
#include "results/analysis.h"
#include "results/campaign_info.h"
#include "lib/str.h"

/* No configuration / job: a run that names none. */
#define KB_RMODEL_NONE ((size_t)-1)

struct kb_rmetric {
	char *name;				/* owned copy */
	const struct kb_metric_def *def;	/* NULL: not in lib/metrics.h */
	const char *unit;			/* def's, or "" */
	enum kb_direction direction;		/* def's, or KB_NEUTRAL */
};

struct kb_rrun {
	json_t *json;		/* its object in results["runs"] (borrowed) */
	size_t config, job;	/* indices into configs / jobs, or
				 * KB_RMODEL_NONE */
	long iteration;		/* the run's iteration (its round), 0 when
				 * not recorded */
	double order;		/* position in the campaign's run order: the
				 * run's "order" (set when `kbench compare`
				 * or `kbench report A B` merges: its index
				 * in its own campaign's runs), else its
				 * index in runs */
	size_t campaign;	/* index into campaigns: the run's "campaign"
				 * (a merged report, results_merge()); 0 =
				 * "" (none) */
	unsigned ok : 1;	/* status "ok" */
	unsigned warmup : 1;
	unsigned counts : 1;	/* ok, not a warm-up, not excluded: enters
				 * the statistics (kb_run_counts()) */
	unsigned fixed_work : 1;	/* "work": "fixed" (a job of fixed
				 * size, not time-based: stats/summary.h) */
	struct kb_rrun_info info;	/* excluded, disturbed, outliers,
				 * flags, params (results/campaign_info.h) */
};

/* The largest magnitude a metric value may have: above any counter a
 * run produces (2^64 is 1.8e19; a year at 10^9 events/s is 3e16), far
 * enough below DBL_MAX that sums of squares of a sample cannot overflow
 * (a run of 1e300 made GSL abort the report). */
#define KB_METRIC_ABS_MAX 1e18

/* A metric value of a counted run that cannot enter the statistics:
 * left out (NAN in values); stats/summary.c names it in a warning with
 * why: not a number (neither a number nor null), negative (a metric of
 * lib/metrics.h, none of which can be below 0), or out of range
 * (|v| > KB_METRIC_ABS_MAX). */
struct kb_rbad {
	size_t run;
	const char *metric;	/* the key in the run's "metrics" (borrowed) */
	const char *why;	/* static text */
	double value;		/* NAN when not a number */
};

struct kb_rmodel {
	json_t *results;		/* the jansson model (borrowed) */
	struct kb_strlist configs, jobs, campaigns;
	struct kb_rmetric *metrics;
	size_t nmetrics;
	struct kb_rrun *runs;
	size_t nruns;
	double *values;			/* see above */
	struct kb_rbad *bad;
	size_t nbad;
	/* the counted runs of (config c, job j), in run order:
	 * group_runs[group_off[g] .. group_off[g + 1]), g = c * jobs.n + j */
	size_t *group_off, *group_runs;
	/* beside group_runs, the same index: each of those runs' order and
	 * iteration (kb_rrun), read with every value of a sample and here
	 * in a line of memory instead of a run structure each */
	double *group_order;
	long *group_iter;
	/* beside group_runs too: the matrix's values in group order,
	 * group_values[k * group_off[ngroups] + pos] for the run
	 * group_runs[pos] (kb_rmodel__group_values()); group_pos[r]: run r's
	 * pos, or KB_RMODEL_NONE for a run in no group.  A sample of a
	 * configuration and job is then one line of memory instead of a
	 * stride through a column, which a 100k-run campaign reads from
	 * main memory (issue 16: report.growth_100k_10k) */
	double *group_values;
	size_t *group_pos;
	json_t *metric_index;		/* name -> index (private) */
	/* the campaign's metadata: name, baseline, order, warm-up, jobs,
	 * tunables, configurations, hosts, environment, disturbed settings
	 * (results/campaign_info.h), filled with the model */
	struct kb_rcampaign campaign;
	/* what stats/ computed on this model (results/analysis.h): filled
	 * by stats_fill_summaries_in(), stats_fill_comparisons_in(), freed
	 * with the model */
	struct kb_analysis analysis;
	/* the typed model of results["profiling_runs"] (the extra runs,
	 * runner/plan.h, stats/profiling.h: never in runs nor the matrix
	 * above), built by kb_rmodel__new() with kb_rmodel__new_extra(
	 * results, NULL); NULL when there are none */
	struct kb_rmodel *profiling;
	json_t *owned;			/* kb_rmodel__new_extra()'s or
					 * kb_rmodel__load()'s own results
					 * tree, or NULL */
};

/* Build the typed model of results (its "runs" must be an array: NULL
 * otherwise, with a message saying so), with its campaign metadata and
 * each run's info (results/campaign_info.h), what an analysed results
 * model holds of the analysis read back into analysis
 * (kb_analysis__from_json(), results/analysis.h: a results.json loaded
 * from disk) and the model of its extra runs (profiling).
 * O(runs x metrics) time and memory: one pass over every run's
 * "metrics". */
struct kb_rmodel *kb_rmodel__new(json_t *results);

/* kb_rmodel__new() on results loaded with results_load_campaign_values()
 * (results/model.h): the numbers of the runs' metrics come from values
 * (row r: run r; results/run_values.h), the rest from the tree, the same
 * model as kb_rmodel__new() on the whole tree.  values is taken (freed
 * here, NULL returned included); NULL with a message when results has
 * no "runs" array of values' rows.  The tree lacks those numbers: what
 * dumps or writes it needs results_load_campaign(). */
struct kb_run_values;
struct kb_rmodel *kb_rmodel__new_values(json_t *results,
					struct kb_run_values *values);

/* The typed model of the extra runs results["profiling_runs"] whose
 * "extra" is extra ("profiling": the sampled ones), all of them when
 * extra is NULL, with results' campaign and configurations: its results
 * is a new tree of its own ({"campaign", "configurations", "runs"}, freed
 * with it), so that stats filling it (stats_fill_summaries_in()) leaves
 * results alone.  Its analysis starts empty and its profiling is NULL.
 * Never NULL. */
struct kb_rmodel *kb_rmodel__new_extra(json_t *results, const char *extra);

/* The campaign in dir loaded (results_load_campaign(), results/model.h;
 * reparse as there) and its typed model built on it, the model owning
 * the tree (m->results, freed with the model): for a stage above
 * results/ that never handles the tree itself.  NULL with a message
 * naming the file (load) or saying what is missing (no "runs"). */
struct kb_rmodel *kb_rmodel__load(const char *dir, int reparse);

void kb_rmodel__delete(struct kb_rmodel *m);

/* Read each run's info (kb_rrun.info) again from its object in the tree,
 * after stats/ marked the runs there (stats_mark_outliers_in(): "outliers",
 * "excluded_outliers"), so that the typed runs say what results.json
 * says.  O(runs). */
void kb_rmodel__reread_runs(struct kb_rmodel *m);

/* The value of metric k in run r (NAN: not measured). */
static inline double kb_rmodel__value(const struct kb_rmodel *m, size_t r,
				      size_t k)
{
	return m->values[k * m->nruns + r];
}

/* Index of metric name, or KB_RMODEL_NONE (no run has it as a number). */
size_t kb_rmodel__metric(const struct kb_rmodel *m, const char *name);

/* Index of configuration id / job name, or KB_RMODEL_NONE. */
size_t kb_rmodel__config(const struct kb_rmodel *m, const char *id);
size_t kb_rmodel__job(const struct kb_rmodel *m, const char *name);

/* The counted runs of (configuration c, job j), in run order: *n run
 * indices (none for KB_RMODEL_NONE). */
const size_t *kb_rmodel__group(const struct kb_rmodel *m, size_t c, size_t j,
			       size_t *n);

/* The values of metric k in the runs kb_rmodel__group(m, c, j, &n)
 * gives, in the same order: n doubles (NAN where the run has none), the
 * matrix's own numbers copied once in group order; kb_rmodel__drop()
 * updates both.  NULL when n is 0 or k is not a metric. */
const double *kb_rmodel__group_values(const struct kb_rmodel *m, size_t c,
				      size_t j, size_t k);

/* Take metric k of run r out of the statistics (NAN in the matrix; the
 * jansson run is the caller's, e.g. kb_rmodel__outliers_exclude()
 * moving it to "excluded_outliers"). */
void kb_rmodel__drop(struct kb_rmodel *m, size_t r, size_t k);

/* 1 when some run's "metrics" has the member name, whatever its value
 * (null too): a metric these results name, measured or not.  O(runs). */
int kb_rmodel__names_metric(const struct kb_rmodel *m, const char *name);

/* What job's runs were when none of them counts, for the table that
 * has no value to show: "no timed run yet" (only warm-ups ran, or none:
 * an unfinished campaign), "no successful runs" (its timed runs failed;
 * also when m has no runs, an export of summaries), or "no run counted
 * (all left out of the statistics)" (a successful timed run excluded:
 * --exclude-disturbed, a suspect page cache, another kernel build).
 * Both of the first two said "no successful runs" (a break-it trial). */
const char *kb_rmodel__no_counted_why(const struct kb_rmodel *m,
				      const char *job);

/* 1 when --metric name can be shown from m: some run names it
 * (kb_rmodel__names_metric()), or m has no runs (an export of
 * summaries) and kbench knows it (lib/metrics.h); else the caller says
 * kb_rmodel__no_metric().  A known metric no run has (write.iops of a
 * read job) is not: it was "no successful runs". */
int kb_rmodel__metric_asked_ok(const struct kb_rmodel *m, const char *name);

/* The metric of m (a column: some run has it as a number) that is name
 * in another case, else within two edits of name (kb_edit_distance(),
 * lib/str.h), the nearest, for "did you mean"; NULL when none is. */
const char *kb_rmodel__metric_near(const struct kb_rmodel *m,
				   const char *name);

/* The error for --metric name that no run of m has a value for (a
 * metric kbench knows, lib/metrics.h, that these jobs did not measure:
 * write.iops of a read job; or a name nothing knows): "did you mean"
 * the nearest of m's metrics (kb_rmodel__metric_near(), any case),
 * else those name is part of or that have its field in another
 * direction, else what names look like.  Prints; returns -EINVAL. */
int kb_rmodel__no_metric(const struct kb_rmodel *m, const char *name);

/* The outlier bookkeeping of stats_mark_outliers_in() (stats/compare.h)
 * that results.json keeps (docs/results-format.md), written here so that
 * stats/ edits no JSON; each run's info.outliers follows the tree.
 *
 * kb_rmodel__outliers_clear(): every counted run gets "outliers": [].
 * kb_rmodel__outlier_add(): metric k's name appended to run r's
 *   "outliers" (created when absent).
 * kb_rmodel__outliers_exclude(): in every run with a non-empty
 *   "outliers", those metrics' values move from "metrics" to a new
 *   "excluded_outliers" object (a name with no value is left out of it)
 *   and out of the matrix (kb_rmodel__drop()), so that what runs after
 *   leaves them out. */
void kb_rmodel__outliers_clear(struct kb_rmodel *m);
void kb_rmodel__outlier_add(struct kb_rmodel *m, size_t r, size_t k);
void kb_rmodel__outliers_exclude(struct kb_rmodel *m);

/* The disturbed marks of stats_mark_disturbed_in() (stats/disturbed.h)
 * that results.json keeps, written here so that stats/ edits no JSON.
 *
 * kb_rmodel__set_disturbed(): run r's "disturbed" is removed, and so is
 *   an "excluded": "disturbed"; with n > 0, "disturbed" = why[0..n)
 *   (lines such as "task.other.cpu_pct 131% > 42%") and, with exclude,
 *   "excluded": "disturbed".  The run's info and counts follow the tree;
 *   the groups of counted runs only at kb_rmodel__set_disturbed_settings().
 * kb_rmodel__set_disturbed_settings(): results["disturbed_settings"] = s
 *   (its numbers, null for NAN; m->campaign.disturbed = s, present) and
 *   results["analysis_options"]["exclude_disturbed"] = exclude != 0; the
 *   groups (kb_rmodel__group()) are rebuilt from the runs' counts. */
void kb_rmodel__set_disturbed(struct kb_rmodel *m, size_t r,
			      const char *const *why, size_t n, int exclude);
void kb_rmodel__set_disturbed_settings(struct kb_rmodel *m,
		const struct kb_rdisturbed_settings *s, int exclude);

#endif
