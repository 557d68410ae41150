/* results/state.h - DIR/state.json, what of a campaign is done (resume):
 * the typed record the runner keeps (runner/campaign.h) and its JSON,
 * read and written here so that runner/ handles no JSON.
 *
 * Format (docs/results-format.md; keys sorted on disk,
 * parsers/json_file.h):
 *   {"schema_version": 1,
 *    "runs": {KEY: {"status": "ok" | "failed", "reason": R | null,
 *                   "finished": "YYYY-MM-DDTHH:MM:SSZ"}},
 *    "adaptive": {"timed_iterations": N, "stopped": WHY},   (optional;
 *                 iterations = auto, runner/adaptive.h)
 *    "disturbed_retries": {UNIT: ATTEMPTS},                 (optional;
 *                 retry_disturbed, runner/retry.h)
 *    "superseded": [{"key", "dir", "attempt", "reason"}]}   (optional)
 * KEY is a run key of campaign.json's plan ("CONFIG/JOB/NNN[-KINDK]");
 * UNIT is "ITERATION", or with order = block "CONFIG/JOB/NNN".
 */
#ifndef KB_RESULTS_STATE_H
#define KB_RESULTS_STATE_H

#include <stddef.h>

/* A run recorded in state.json. */
struct kb_run_record {
	char *key;
	char *status;		/* "ok" or "failed" */
	char *reason;		/* NULL: none (null on disk) */
	char *finished;		/* UTC time, ISO 8601; NULL: absent */
};

/* A run kept aside by retry_disturbed (runner/retry.h). */
struct kb_superseded_run {
	char *key;
	char *dir;		/* relative to the campaign directory */
	unsigned attempt;	/* 1, 2, ...: the retry it made way for */
	char *reason;		/* what disturbed its round */
};

/* retry_disturbed's attempts so far for one unit (see above). */
struct kb_retry_count {
	char *unit;
	unsigned attempts;
};

struct kb_state {
	long long schema_version;
	struct kb_run_record *runs;	/* sorted by key (strcmp) */
	size_t nruns, runs_cap;
	int has_adaptive;		/* 1: "adaptive" below is recorded */
	unsigned adaptive_timed_iterations;
	char *adaptive_stopped;
	struct kb_retry_count *retries;
	size_t nretries;
	struct kb_superseded_run *superseded;
	size_t nsuperseded;
};

/* An empty state (schema_version KB_SCHEMA_VERSION, no run). */
void results_state_init(struct kb_state *s);

/* Read path into s.  0, or -EINVAL with a message naming the file and
 * what was expected (not JSON, no "runs" object, a run entry
 * that is not an object or whose "status" is not "ok" or "failed":
 * results_state_run_problem(), results/validate.h); s is then empty (runner/campaign.c then keeps the
 * file aside and rebuilds the state: results_state_rebuild()). */
int results_state_load(const char *path, struct kb_state *s);

/* results_state_load() without a message: on -EINVAL *why (malloc'd)
 * says what, naming the file ("FILE: line L: TEXT" for damaged JSON),
 * for a caller that goes on (a resumed campaign rebuilds the state: a
 * warning, not an error before an exit status 0); *why NULL otherwise. */
int results_state_load_why(const char *path, struct kb_state *s,
			   char **why);

/* The state of a campaign whose state.json is missing or unreadable,
 * rebuilt from its runs on disk: for each run key of DIR/campaign.json's
 * "plan" (the rounds iterations = auto added included), DIR/runs/KEY/
 * metrics.json with a "status" of "ok" or "failed" is recorded with its
 * "reason" and the file's mtime as "finished" (the runner writes a run's
 * metrics.json before it records the run done: runner/campaign.h); a key
 * without one stays to do.  s is reset first.  The superseded runs are
 * rebuilt from their directories (DIR/runs/KEY.superseded-K: key, dir,
 * attempt K, and as reason "failed: R" from their metrics.json, else
 * that why they were run again is not known), and retry_disturbed's
 * count of each unit from the ok copies of its runs (a failed run may
 * have been run again by --retry-failed, which counts none); the
 * adaptive record is not rebuilt.  Returns the number of runs recorded; *planned: the
 * keys of the plan. */
size_t results_state_rebuild(const char *dir, struct kb_state *s,
			     size_t *planned);

/* One run of the rule above: key recorded in s from DIR/runs/KEY/
 * metrics.json when that holds a finished run.  1 recorded, 0 not (no
 * file, damaged, or an "ok" without metrics: a run to do).  Also for a
 * run a kbench killed between the two writes left out of a state.json
 * that is otherwise fine (runner/campaign.c). */
int results_state_adopt(const char *dir, struct kb_state *s,
			const char *key);

/* Write s to path atomically (lib/file.h: synced).  0 or -errno. */
int results_state_save(const char *path, const struct kb_state *s);

/* The record of key, or NULL when it has none.  O(log runs). */
const struct kb_run_record *results_state_run(const struct kb_state *s,
					      const char *key);

/* Set key's record (replacing any): status, reason (NULL: none) and
 * finished (NULL: none) are copied. */
void results_state_set_run(struct kb_state *s, const char *key,
			   const char *status, const char *reason,
			   const char *finished);

/* Forget key's record (a superseded run, to be run again); 0 when it
 * had none. */
int results_state_del_run(struct kb_state *s, const char *key);

/* retry_disturbed's attempts for unit, 0 when none. */
unsigned results_state_retries(const struct kb_state *s, const char *unit);

/* Set unit's attempts. */
void results_state_set_retries(struct kb_state *s, const char *unit,
			       unsigned attempts);

/* Append a superseded run (strings copied). */
void results_state_add_superseded(struct kb_state *s, const char *key,
				  const char *dir, unsigned attempt,
				  const char *reason);

void results_state_free(struct kb_state *s);

#endif
