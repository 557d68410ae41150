/* results/run_metrics.h - the last steps of a run's metrics.json
 * (DIR/runs/KEY/metrics.json, docs/results-format.md): the record the
 * run engine built (runner/run_exec.h do_run, an opaque jansson tree
 * here) stamped with which run it is and the kernel it ran on, then
 * written; and the record of a run that could not be done at all.
 *
 * Members written here:
 *   "configuration", "job", "iteration" (the plan's round index, warm-ups
 *   first), "warmup" (true/false)     from struct results_run_ident
 *   "kernel_release", "proc_version"  the host's (uname -r, the first line
 *   of /proc/version), or "guest_kernel", "guest_proc_version" for a vm
 *   guest's run; "kexec" for a method = kexec variant
 *   (results/kexec_state.h)
 *   a failed run: {"status": "failed", "reason": WHY, "metrics": {}}
 * Files are written with parsers/json_file.h kb_json_write_atomic (keys
 * sorted).
 */
#ifndef KB_RESULTS_RUN_METRICS_H
#define KB_RESULTS_RUN_METRICS_H

#include "results/kexec_state.h"

struct json_t;	/* jansson's: the run's record from do_run() */

/* Which run a record is (runner/plan.h struct kb_run). */
struct results_run_ident {
	const char *configuration;	/* the configuration's id */
	const char *job;		/* the job file's name */
	unsigned iteration;		/* 0-based round, warm-ups first */
	int warmup;			/* 1: a warm-up round */
};

/* The kernel a run ran on. */
struct results_run_kernel {
	int guest;		/* 1: a vm guest's ("guest_*" members) */
	const char *release;	/* uname -r; NULL: not recorded */
	const char *proc_version;	/* /proc/version's first line; NULL:
					 * not recorded */
	const struct kb_kexec_run_info *kexec;	/* NULL: not by kexec */
};

/* Stamp rec with id and k (k NULL: no kernel members), then write it to
 * path atomically.  0 or -errno. */
int results_metrics_write(const char *path, struct json_t *rec,
			  const struct results_run_ident *id,
			  const struct results_run_kernel *k);

/* Write the record of a run that could not be done at all (status
 * "failed", reason, no metrics) to path.  0 or -errno. */
int results_metrics_write_failed(const char *path,
				 const struct results_run_ident *id,
				 const char *reason);

/* The outcome a vm guest left at path (its metrics.json, builtin/guest.c):
 * *status and *why (malloc'd; *why NULL when the record has no reason).
 * Where the guest left none, or one without a "status" string (a bad
 * file: kb_json_load's message), a failed record with reason is written
 * there first and given.  0 or -errno (that write failed; nothing
 * given). */
int results_metrics_outcome(const char *path,
			    const struct results_run_ident *id,
			    const char *reason, char **status, char **why);

/* rec's "status" ("ok", "failed") and "reason" strings, NULL when none;
 * borrowed from rec. */
const char *results_metrics_status(struct json_t *rec);
const char *results_metrics_reason(struct json_t *rec);

/* Release a record from do_run() (NULL: nothing). */
void results_metrics_free(struct json_t *rec);

#endif
