/* results/disturbed_runs.h - which runs of the results model
 * (results/model.h) stats_mark_disturbed_in() (stats/disturbed.h) found
 * disturbed, asked by retry_disturbed (runner/retry.h) so that the
 * runner reads no JSON. */
#ifndef KB_RESULTS_DISTURBED_RUNS_H
#define KB_RESULTS_DISTURBED_RUNS_H

struct json_t;	/* jansson's: the results model */

/* "CFG JOB iteration N: why; why" of the first counted (not warm-up)
 * run of round `iteration` (the 0-based round index of run keys) that
 * has a non-empty "disturbed" list, restricted to configuration cfg_id
 * and job when they are not NULL; N as a reader numbers the round with
 * `warmup` warm-up rounds (kb_iteration_label(), results/paths.h).
 * malloc'd, or NULL when no such run. */
char *results_disturbed_in_unit(struct json_t *results, unsigned iteration,
				unsigned warmup, const char *cfg_id,
				const char *job);

#endif
