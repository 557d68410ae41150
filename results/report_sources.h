/* results/report_sources.h - what `kbench report` (builtin/report.c)
 * does with the results models (results/model.h) of several sources
 * before it builds their typed models (results/rmodel.h): one JSON
 * document of them all, whether one is a merge of shards, and the
 * merge of several campaigns into one table.
 */
#ifndef KB_RESULTS_REPORT_SOURCES_H
#define KB_RESULTS_REPORT_SOURCES_H

#include <stddef.h>
#include <stdio.h>

struct json_t;			/* jansson's: a results model */
struct results_map;		/* results/model.h: --map NEW=OLD */

/* `--format json` for n models: one array of them (a parseable
 * document) to out as results_dumpf() writes.  0, or -EIO. */
int results_dumpf_all(FILE *out, struct json_t *const *models, size_t n);

/* 1 when model is the merge of a campaign's shards (campaign.shards,
 * results_merge_shards()), 0 otherwise. */
int results_has_shards(struct json_t *model);

/* results_merge() of models[0..n) (names: their sources; map: --map, NULL
 * for none), with the first's (the baseline's) "disturbed_settings" and
 * "analysis_options": each run was judged against its own campaign, the
 * header gives the first's thresholds.  New reference, or NULL with
 * results_merge()'s message. */
struct json_t *results_merge_campaigns(struct json_t *const *models,
				       const char *const *names, size_t n,
				       const struct results_map *map);

#endif
