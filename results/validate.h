/* results/validate.h - one validation of a campaign directory's files,
 * for every command that reads them (run, report, compare, push).
 *
 * campaign.json: an object with schema_version KB_SCHEMA_VERSION, a
 *   "campaign" object, a "plan" array of run keys (CONFIG/JOB/NNN) and a
 *   "configurations" array of objects with a string "id";
 * state.json (absent: nothing done yet): an object with a "runs" object
 *   (schema_version, when present, KB_SCHEMA_VERSION); each member named
 *   by a key of the plan, an object with "status" "ok" or "failed", a
 *   "reason" string or null and, when present, a "finished" string;
 * every run recorded "ok": a runs/KEY/metrics.json that parses into an
 *   object with a string "status" and a "metrics" object.
 * Hard errors (the first two) name the file and the key; a run whose
 * metrics.json is damaged "needs repair": `kbench run` re-parses its raw
 * artefacts when they are intact (parsers/run_dir.h) and otherwise
 * forgets the run so that it is redone; `kbench report` reports it as
 * failed, saying so.
 */
#ifndef KB_RESULTS_VALIDATE_H
#define KB_RESULTS_VALIDATE_H

#include <jansson.h>
#include <stddef.h>

struct kb_repairs {
	char **key;	/* runs whose metrics.json needs repair */
	char **why;	/* what is wrong with it */
	size_t n;
	int state_unusable;	/* state.json is not JSON, not a state
				 * file, or records what the plan does not
				 * hold: said as a warning, not an error;
				 * kbench run rebuilds it from the runs on
				 * disk (results/state.h) */
};

/* Validate dir.  0, or -EINVAL with one message per problem found.
 * repairs non-NULL: every run recorded ok has its metrics.json checked
 * too (O(runs) files) and the damaged ones are listed there; NULL: only
 * campaign.json and state.json are read. */
int results_validate_campaign(const char *dir, struct kb_repairs *repairs);

/* The same on documents already loaded: cj (campaign.json) and st
 * (state.json, NULL when there is none) of dir; messages name dir's
 * files. */
int results_validate_docs(const char *dir, json_t *cj, json_t *st,
			  struct kb_repairs *repairs);

/* Repair the runs listed: re-parse each run directory's raw artefacts
 * into metrics.json; a run whose directory is gone or whose artefacts
 * do not parse is removed from
 * state.json (it is redone).  Says what it did for each.  0 or -errno
 * (a file could not be written). */
int results_repair_runs(const char *dir, const struct kb_repairs *r);

/* What results_repair_runs() would do, said as warnings (kbench plan -o,
 * which writes nothing). */
void results_repairs_say(const char *dir, const struct kb_repairs *r);

void results_repairs_free(struct kb_repairs *r);

/* The way out for a state.json (spath) of dir that cannot be used, as an
 * error line: `kbench run -o DIR` rebuilds it (runner/campaign.c). */
void results_state_hint(const char *spath, const char *dir);

/* What is wrong with the entry e of state.json's "runs" under key, path
 * that file: not an object, or its "status" none kbench writes ("ok" or
 * "failed").  A malloc'd message naming the file and the key (control
 * characters '?', at most 120 bytes of it: lib/str.h), or NULL when the
 * entry is one.  The one wording of both readers of a state.json, its
 * validation above and results_state_load() (results/state.h). */
char *results_state_run_problem(const char *path, const char *key,
				const json_t *e);

#endif
