/* results/run_values.h - the number values of a campaign's runs' metrics,
 * held beside the results tree instead of in it (issue 16: a report on
 * 100k runs).
 *
 * Each run's "metrics" object of the results model (docs/results-format.md)
 * costs about 7.5 KiB as jansson objects (a hash table, a pair and a
 * json_real per member) for 50 metrics: 750 MiB of a 100k-run campaign's
 * 990 MiB, all of it touched once when loaded and never again once the
 * typed model (results/rmodel.h) holds the same numbers in 400 bytes a
 * run.  A consumer that reads only the typed model (kbench report's
 * tables) loads with results_load_campaign_values() (results/model.h):
 * each run's numbers go into these columns as its metrics.json is
 * decoded (parsers/json_file.h's sink: no jansson node for them), and
 * the run keeps in the tree only the members that are not numbers (null,
 * or a bad value that stats/summary.c names).  kb_rmodel__new_values()
 * takes the columns.
 *
 * Shapes:
 *   rows     results["runs"] in order: row r is runs[r]
 *   names    metric names in the order first met (rows in order, each
 *            run's "metrics" in its own order), the typed model's order
 *   cols     cols[k][r]: metric k of row r as in the file (a JSON number),
 *            NAN: the run has no number for it
 */
#ifndef KB_RESULTS_RUN_VALUES_H
#define KB_RESULTS_RUN_VALUES_H

#include <stddef.h>
#include <jansson.h>

struct kb_run_values {
	size_t nrows, nmetrics;
	char **names;		/* owned copies */
	double **cols;		/* nmetrics columns of cap rows each */
	size_t cap, capm;	/* rows / metrics allocated */
	json_t *index;		/* name -> k (private) */
	size_t row_nmetrics;	/* nmetrics when the last row began */
	size_t hint;		/* the column after the last one set */
};

/* An empty set of columns.  Never NULL (allocation failure aborts). */
struct kb_run_values *kb_run_values__new(void);

/* Room for rows rows in every column, made and to be made, before any
 * row (a campaign's planned runs: no column is then grown and copied
 * while loading, which for 100k runs also left the heap fragmented);
 * ignored once a row exists.  More rows than that still work. */
void kb_run_values__reserve(struct kb_run_values *v, size_t rows);

/* A new row (for the run about to be appended to results["runs"]), NAN
 * in every column; its index. */
size_t kb_run_values__begin_row(struct kb_run_values *v);

/* The last row's numbers forgotten (NAN again), and the columns it made
 * removed: a metrics.json that the sink read part of before the fast
 * decode gave up, or that turned out not to be a run's metrics. */
void kb_run_values__abort_row(struct kb_run_values *v);

/* struct kb_json_sink's number() and has() (parsers/json_file.h) for
 * the last row, ctx the struct kb_run_values: a metric's number into its
 * column (a new column for a new name), refused (1) when the row has a
 * number for key already; has(): 1 when the row has a number for key. */
int kb_run_values__sink_number(void *ctx, const char *key, size_t keylen,
			       double val);
int kb_run_values__sink_has(void *ctx, const char *key, size_t keylen);

/* The last row from a run's "metrics" object (not changed): every number
 * member into its column.  Returns a new object holding metrics' other
 * members (null, strings, ...) in their order, for the run's "metrics"
 * in the tree; metrics not an object: an empty one. */
json_t *kb_run_values__fill_row(struct kb_run_values *v, json_t *metrics);

void kb_run_values__delete(struct kb_run_values *v);

#endif
