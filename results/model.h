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

/* Shards (`kbench run --shard K/N`, runner/plan.h): a campaign split
 * over N machines, each directory holding its whole rounds and its
 * campaign.json "shard" (copied into the model's campaign by
 * results_load_campaign()).  Shards of one campaign have the same
 * kernels.conf text (shard.conf_sha256) and the same N. */

/* 1 when model is one shard (campaign.shard), not a whole campaign. */
int results_is_shard(json_t *model);

/* The n shard models (names: their directories, for messages) of one
 * campaign as that campaign: every run of every shard (each with
 * "shard": K), in the unsplit order (round, then shard), warm-ups once
 * per shard; the campaign section of shard 1 without "shard", plus
 * "shards": {"n", "conf_sha256", "from": [{"k", "dir", "iterations"}]},
 * "environments": {DIR: environment} and "name" (the directory holding
 * the shard directories).  NULL with a message naming it when a shard
 * is missing or given twice, when a model is not a shard of the same
 * campaign, or when the shards ran different job files; a warning when
 * their environments differ (CPU model, kernel release, fio version).
 * New reference; summaries left to stats_analyse(). */
json_t *results_merge_shards(json_t *const *models, const char *const *names,
			     size_t n);

/* In models[0..*n) (names alike), replace the shards of each campaign
 * by their merge (results_merge_shards(), at the first shard's place;
 * the other references are dropped and *n shrinks); whole campaigns are
 * left alone.  0, or -1 with a message (arrays then unchanged). */
int results_combine_shards(json_t **models, const char **names, size_t *n);

/* results_load_campaign() on dir, or, when dir has no campaign.json but
 * subdirectories that do, all of them as the shards of one campaign
 * (merged, named after dir): `kbench report results/NAME` after
 * `kbench run --shard K/N -o results/NAME/shard-K`.  New reference or NULL
 * with a message. */
json_t *results_load_dir(const char *dir, int reparse);

#endif
