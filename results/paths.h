/* results/paths.h - the campaign directory contract: where each file of
 * a campaign lives and the one schema version of every JSON file kbench
 * writes (docs/results-format.md).
 *
 *   DIR/campaign.json              the expanded plan and the environment
 *   DIR/state.json                 what is done, for resume
 *   DIR/runs/KEY/                  one run: raw artifacts + metrics.json
 *   DIR/results.json               every run's metrics + the statistics
 *
 * KEY = CONFIGURATION/JOB/ITERATION with the iteration as three digits
 * ("stock,NM=0/randread-4k/003"); warm-ups come first (iteration <
 * warmup).  Every path helper returns a malloc'd string (never NULL: the
 * allocators abort on exhaustion, lib/file.h).
 */
#ifndef KB_RESULTS_PATHS_H
#define KB_RESULTS_PATHS_H

#include <stddef.h>

/* schema_version of campaign.json, state.json, results.json, the push
 * queue and the machine-wide records; readers refuse other versions. */
#define KB_SCHEMA_VERSION 1

/* "CONFIGURATION/JOB/NNN" */
char *kb_run_key(const char *configuration, const char *job,
		 long long iteration);

/* An extra run's key (runner/plan.h profiling runs):
 * "CONFIGURATION/JOB/NNN-KINDK", kind "profiling" or "unsampled", k the
 * extra run's number in its round (1..profile_runs):
 * "stock,NM=0/randread-4k/003-profiling1". */
char *kb_extra_run_key(const char *configuration, const char *job,
		       long long iteration, const char *kind, unsigned k);

/* The kind of an extra run from the last part of its key ("003-profiling1"
 * -> "profiling", the length into *len), or NULL for a counted or
 * warm-up run ("003"). */
const char *kb_run_key_extra(const char *last, size_t *len);

/* "DIR/runs/KEY" */
char *kb_run_dir(const char *dir, const char *key);

/* "DIR/runs/KEY/NAME" (metrics.json, fio.json, run.json, console.log) */
char *kb_run_file(const char *dir, const char *key, const char *name);

/* The default directory of a command on kernels.conf conf:
 * "results/STEM" + suffix, STEM its file name without directories and
 * extension ("results/kernels" for dir/kernels.conf, suffix ""; `kbench
 * calibrate`'s suffix is "-calibration"). */
char *kb_conf_results_dir(const char *conf, const char *suffix);

#endif
