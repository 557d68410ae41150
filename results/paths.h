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

#include <limits.h>
#include <stddef.h>

/* schema_version of campaign.json, state.json, results.json, the push
 * queue and the machine-wide records; readers refuse other versions. */
#define KB_SCHEMA_VERSION 1

/* The largest round index (a run's stored "iteration") a campaign can
 * have: campaign.json records iterations and warmup as int
 * (results/campaign_json.c).  A larger one is a damaged file. */
#define KB_ROUND_MAX INT_MAX

/* "CONFIGURATION/JOB/NNN" */
char *kb_run_key(const char *configuration, const char *job,
		 long long iteration);

/* The iteration number a reader sees (issue 15), one numbering in every
 * table, note, plot and `kbench plan --runs` whatever warmup is:
 * iteration N = the N-th counted (timed) round, 1..iterations; the
 * warm-ups are w1..wW.  Run keys and the stored "iteration" keep the
 * round index (warm-ups first, from 000): round r of a campaign with
 * warmup = W is counted iteration r - W + 1, or warm-up wR+1 when r < W
 * (docs/results-format.md "Iteration numbers").
 *
 * kb_iteration_counted(): r - W + 1 (<= 0 for a warm-up round).
 * kb_iteration_label(): "3" or "w1" into buf (KB_ITER_LABEL_MAX bytes),
 * returns buf. */
#define KB_ITER_LABEL_MAX 24
long long kb_iteration_counted(long long round, long long warmup);
const char *kb_iteration_label(long long round, long long warmup,
			       char buf[KB_ITER_LABEL_MAX]);

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

/* The folder of a campaign directory that holds the run directories:
 * "DIR/" KB_RUNS_DIR "/KEY".  Paths are built by kb_run_dir() and
 * kb_run_file(); the name alone is for what asks whether DIR has any. */
#define KB_RUNS_DIR "runs"

/* "DIR/runs/KEY" */
char *kb_run_dir(const char *dir, const char *key);

/* 1 when a symbolic link or a file stands on the path of DIR/runs/KEY
 * (lib/file.h kb_real_dirs(): what a vm variant's 9p guest, which writes
 * the campaign directory, could leave there for root's next write to
 * follow), else 0 (a part not made yet included). */
int kb_run_dir_linked(const char *dir, const char *key);

/* "DIR/runs/KEY/NAME" (metrics.json, fio.json, run.json, console.log) */
char *kb_run_file(const char *dir, const char *key, const char *name);

/* The default directory of a command on kernels.conf conf:
 * "results/STEM" + suffix, STEM its file name without directories and
 * extension ("results/kernels" for dir/kernels.conf, suffix ""; `kbench
 * calibrate`'s suffix is "-calibration"). */
char *kb_conf_results_dir(const char *conf, const char *suffix);

#endif
