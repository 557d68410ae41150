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
 * empty: stats_fill_summaries_in() (stats/summary.h) computes it.  Returns a
 * new reference, or NULL with a message naming the file. */
json_t *results_load_campaign(const char *dir, int reparse);

/* The same model with the runs' numbers held beside the tree (issue 16:
 * a 100k-run campaign's "metrics" objects are three quarters of its
 * memory): *values gets row r = results["runs"][r], and each run's
 * "metrics" in the tree keeps only its members that are not numbers
 * (results/run_values.h); the extra runs ("profiling_runs") keep theirs.
 * For a consumer of the typed model alone: kb_rmodel__new_values()
 * (results/rmodel.h) takes both.  What writes or dumps the tree
 * (results.json, `report --format json`, plots, merges) loads with
 * results_load_campaign().  NULL (and *values NULL) as there. */
struct kb_run_values;
json_t *results_load_campaign_values(const char *dir, int reparse,
				     struct kb_run_values **values);

/* The same model holding only the runs named in keys[0..nkeys) (those
 * recorded in state.json), for a consumer that needs one run: reads
 * campaign.json, state.json and those runs' metrics.json only.  keys
 * NULL: every run (results_load_campaign without reparse). */
json_t *results_load_campaign_runs(const char *dir, const char *const *keys,
				   size_t nkeys);

/* Load a results.json export (kbench report --from-json); checks
 * schema_version.  New reference or NULL with a message.  A run with a
 * "status" other than "ok" and "failed" (read as failed), or with an
 * "iteration" above KB_ROUND_MAX (results/paths.h; made "excluded"), is
 * said in a warning naming path, the run and the key. */
json_t *results_load_export(const char *path);

/* The results models of the export path (kbench report --from-json): the
 * one object results_load_export() reads, or each element of an array of
 * them (kbench report --separate -f json writes one per campaign), named
 * "PATH[K]" (K from 0) in messages and *names.  0 with *models and
 * *names (malloc'd, *n of each; free with results_exports_free()), or -1
 * with a message and nothing to free (an empty array, an element that is
 * not a results model). */
int results_load_exports(const char *path, json_t ***models, char ***names,
			 size_t *n);
void results_exports_free(json_t **models, char **names, size_t n);

/* The results.json document of results as text: JSON_INDENT(2),
 * JSON_SORT_KEYS, reals with 17 significant digits (every double reads
 * back bit-identical), no final newline.  The body `kbench push --format
 * json` sends; DIR/results.json holds the same bytes and a newline
 * (parsers/json_file.h, kb_json_write_atomic).  malloc'd; NULL when out
 * of memory. */
char *results_export_dumps(const json_t *results);

/* Write results to path as results.json: results_export_dumps()'s bytes
 * and a final newline, atomically with kb_write_atomic_opt()'s flags
 * (lib/file.h: KB_WRITE_NOSYNC for DIR/results.json, derivable from
 * runs/).  0, -ENOMEM with a message naming path, or -errno. */
int results_export_write(const char *path, const json_t *results,
			 unsigned flags);

/* `kbench report --format json`: doc (a results model, or an array of
 * them for several campaigns) to out, JSON_INDENT(2) | JSON_SORT_KEYS
 * (jansson's default real precision), and a newline; DEL and C1
 * controls in a string escaped as ESC is (kb_json_dumpf_shown()).  0,
 * or -EIO when writing fails. */
int results_dumpf(FILE *out, const json_t *doc);

/* The number of runs in results["runs"]: 0 when none. */
size_t results_run_count(const json_t *results);

/* Drop a results model a loader above returned (NULL: nothing). */
void results_free(json_t *results);

/* --map NEW=OLD (kbench compare, kbench report with several campaigns):
 * the configuration OLD of the older campaign that configuration NEW of
 * a newer one is compared with, where their names differ.  v holds the
 * n arguments as given (owned).  Configuration ids hold '=' themselves
 * (running,NM=1), so an argument is split where NEW is a configuration
 * of the newer campaign and OLD one of the older:
 * "running,NM=2=running,NM=0".  NEW=OLD may also name variants (a
 * renamed kernel): "patched=stock" maps every "patched,LABEL=V..." to
 * "stock,LABEL=V..." where the older campaign has it; a configuration's
 * own mapping comes first. */
struct results_map {
	char **v;
	size_t n;
};

/* Add one --map argument to m: 0, or -EINVAL with a message saying what
 * was expected (no '=' with text on both sides). */
int results_map_add(struct results_map *m, const char *arg);
void results_map_free(struct results_map *m);

/* Every argument of m splits into NEW=OLD with NEW a configuration of
 * one of newer[0..nnewer) and OLD one of base: 0, else -EINVAL with a
 * message naming the argument and listing the configurations of each
 * side (names: for the messages). */
int results_map_check(const struct results_map *m, json_t *const *newer,
		      const char *const *newer_names, size_t nnewer,
		      json_t *base, const char *base_name);

/* The configuration id of base (a results model, the older campaign;
 * NULL: --map alone decides) that configuration id of a newer campaign
 * is compared with: the OLD of map's (NULL: none) "id=OLD" when base has
 * OLD, else id itself when base has a configuration of that name, else
 * NULL (the caller compares it with base's baseline and says so).  A
 * pointer into map or base. */
const char *results_match_config(json_t *base, const char *id,
				 const struct results_map *map);

/* 1 when the one --map argument arg maps configuration id of a newer
 * campaign to a configuration of base (arg "id=OLD" with base holding
 * OLD, or "VARIANT=OLDVARIANT" of id's variant with base holding
 * OLDVARIANT's configuration of id's values), else 0. */
int results_map_maps(const char *arg, json_t *base, const char *id);

/* What to add to "give --map ID=OLD" for a configuration id with
 * tunable values ("running,NM=1"): that --map VARIANT=OLD maps all of
 * a renamed variant's at once; "" for a plain variant id. */
const char *results_map_hint(const char *id);

/* 1 when the results model res has a configuration named id. */
int results_has_config(json_t *res, const char *id);

/* Merge n results models (campaigns measured separately, e.g. one per
 * kernel with method = local on different days) into one whose
 * configurations are all of theirs, so one table compares them.  They
 * must have run the same jobs on the same target with the same tunable
 * labels (else NULL and a message naming both campaigns and what
 * differs).  Every configuration id, and its variant, is renamed
 * "NAME:id" ("NAME:variant") with NAME the campaign's name (the
 * directory's name; a name given twice gets "(2)", "(3)"...), so that
 * rows of every layout say which campaign they come from.  The merged
 * campaign is named "NAME1 vs NAME2 ..."; its baseline is the first
 * model's baseline.  Each configuration of a later model is compared
 * with the configuration of the first that results_match_config() names
 * (map: --map NEW=OLD, NULL for none; the same id, else the first
 * model's baseline with a warning): it gets "baseline": that merged id,
 * which stats_baseline_for() (stats/summary.h) follows.  Every run gets
 * "campaign": its model's name, and the merged campaign keeps "order"
 * only when every model has the same, so that rounds are paired only
 * within one campaign (stats/compare.h).  campaign.merged_from lists
 * the names given (the directories), campaign.merged_names the name
 * each one's runs and ids carry (NAME, in the same order),
 * campaign.environments each one's environment by that name,
 * campaign.merged_job_file_diffs the first line where a later one's fio
 * job file of a job differs from the first's (for the report's header;
 * no message: the caller warns, results_setup_diff_warn()), and
 * "superseded" every model's superseded runs, each with "campaign": NAME
 * and its key "NAME:CFG/JOB/NNN".
 * Summaries and comparisons are left for stats_analyse().  New
 * reference. */
json_t *results_merge(json_t *const *models, const char *const *names,
		      size_t n, const struct results_map *map);

/* The merged model of `kbench compare BASE NEW` (builtin/compare.c): the
 * configurations compared, each a copy of one side's runs under a label
 * of its own, so that one analysis (stats_analyse()) compares them.
 *
 * results_pair_new(): a new model {"schema_version", "campaign",
 *   "configurations": [], "runs": [], "summaries": []} whose campaign is
 *   a shallow copy of base's (BASE's statistics settings: alpha,
 *   min_effect, max_mde, disturbed rules) with "jobs": [] (filled by
 *   results_pair_add()); base itself is left unchanged.  New reference.
 * results_pair_add(): every run of from (a results model) whose
 *   "configuration" is id, deep-copied into merged["runs"] with
 *   "configuration": label, "campaign": campaign (rounds pair only
 *   within one campaign, stats/compare.h) and "order": the run's index in
 *   from["runs"] (its place in its own campaign's run order, which the
 *   drift check reads); each job those runs name is appended to
 *   campaign.jobs once; then {"id": label} is appended to
 *   merged["configurations"].  A run without a string "configuration" is
 *   skipped.  from is left unchanged.
 * results_pair_finish(): campaign.baseline = baseline (a label) and
 *   "analysis_options": {"exclude_disturbed": exclude_disturbed != 0}.
 * None fails (allocation failure aborts, lib/err.h). */
/* camp.progress ({"planned", "done"}: results_load_campaign()) of a
 * merge of the n models: their sums, or none when one has none (an
 * export); the report's "Progress" header says an unfinished one. */
void results_sum_progress(json_t *camp, json_t *const *models, size_t n);

/* Remove from res (a results model) every run of job (results["runs"]
 * only: campaign.jobs, which typed views may borrow, stays).  Returns the
 * runs removed.  kbench compare leaves out a job one side never ran. */
size_t results_drop_job_runs(json_t *res, const char *job);

json_t *results_pair_new(json_t *base);
void results_pair_add(json_t *merged, json_t *from, const char *id,
		      const char *label, const char *campaign);
void results_pair_finish(json_t *merged, const char *baseline,
			 int exclude_disturbed);

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

/* The shard directories dir stands for (results_load_dir()): its
 * subdirectories with a campaign.json, by name, in *paths (malloc'd,
 * each malloc'd), and their number; 0 (*paths NULL) when dir is itself
 * a campaign (it has a campaign.json), is not a directory, or has none. */
size_t results_shard_dirs(const char *dir, char ***paths);

/* results_load_campaign() on dir, or, when dir has no campaign.json but
 * subdirectories that do, all of them as the shards of one campaign
 * (merged, named after dir): `kbench report results/NAME` after
 * `kbench run --shard K/N -o results/NAME/shard-K`.  New reference or NULL
 * with a message. */
json_t *results_load_dir(const char *dir, int reparse);

#endif
