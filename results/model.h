/* results/model.h - a campaign directory as the results model.
 *
 * The model is the results.json document described in
 * docs/results-format.md (schema_version 1), held as a jansson object.
 */
#ifndef KB_RESULTS_MODEL_H
#define KB_RESULTS_MODEL_H

#include <jansson.h>

/* Build the results model of the campaign in dir from campaign.json and
 * every run's metrics.json.  With reparse != 0 the raw artifacts of each
 * run (fio.json, proc snapshots, rusage) are parsed again first (after a
 * parser fix) and metrics.json rewritten.  The "summaries" member is left
 * empty: stats_fill_summaries() (stats/summary.h) computes it.  Returns a
 * new reference, or NULL with a message naming the file. */
json_t *results_load_campaign(const char *dir, int reparse);

/* The same model holding only the runs named in keys[0..nkeys) (those
 * recorded in state.json), for a consumer that needs one run: reads
 * campaign.json, state.json and those runs' metrics.json only.  keys
 * NULL: every run (results_load_campaign without reparse). */
json_t *results_load_campaign_runs(const char *dir, const char *const *keys,
				   size_t nkeys);

/* Load a results.json export (kbench report --from-json); checks
 * schema_version.  New reference or NULL with a message. */
json_t *results_load_export(const char *path);

/* Merge n results models (campaigns measured separately, e.g. one per
 * kernel with method = local on different days) into one whose
 * configurations are all of theirs, so one table compares them.  They
 * must have run the same jobs on the same target with the same tunable
 * labels (else NULL and a message naming both campaigns and what
 * differs).  A configuration id present in several is renamed
 * "NAME:variant,..." with NAME the campaign's name.  The baseline is the
 * first model's.  Every run gets "campaign": its model's name, and the
 * merged campaign keeps "order" only when every model has the same, so
 * that rounds are paired only within one campaign (stats/compare.h).
 * Summaries and comparisons are left for stats_analyse().  New
 * reference. */
json_t *results_merge(json_t *const *models, const char *const *names,
		      size_t n);

#endif
