/* results/run_json.h - DIR/runs/KEY/run.json, what kbench itself saw of
 * one run (fio's exit and rusage, the target, the start time, the
 * tunables read back, the kernel), written by the run engine
 * (runner/run_exec.c) from the typed record below and read back by
 * parsers/run_dir.c and results_run_start_times() (results/records.h).
 *
 * Format: docs/results-format.md, "run.json"; one JSON object, keys
 * sorted (parsers/json_file.h).  Members, from the fields below:
 *   exit_status  fio's exit status, null when it did not exit (killed)
 *   signal, timed_out, elapsed_s (wall clock, s), user_s, sys_s (s),
 *   maxrss_kib, major_faults, minor_faults   from fio's kb_spawn_result
 *   group_left, group_signal                  (lib/proc.h)
 *   kbench_maxrss_kib  kbench's own peak resident set at the fork
 *                  (parent_maxrss_kib; absent when unknown): a
 *                  maxrss_kib not above it may be kbench's
 *   runtime_s, timeout_s       the job's runtime and kbench's timeout (s)
 *   diskstats_name, target, target_size_bytes, warmup, perf_record
 *   extra          "profiling" / "unsampled" (absent: a counted run)
 *   start_unix_ns  the run's start, ns since the epoch (the push time)
 *   hosts          [{"host", "port", "target"?}] (only with hosts =)
 *   tunables_after {PATH: value | null (unreadable)}
 *   tunables_changed  the reason a tunable changed (absent: none did)
 *   kbench_cpu_during_run_s  kbench's own CPU while fio ran (s)
 *   cache_drop_cpu_s, cache_drop_wall_s  sync() and the cache drop
 *                  before the run: CPU and wall (s)
 *   kernel_taint_before, kernel_taint_after  /proc/sys/kernel/tainted
 *                  read right before fio started and right after it
 *                  ended (absent: unreadable)
 *   kernel_release, proc_version, kernel_build_id, mem_total_kib
 *                  the running kernel (parsers/procfs.h,
 *                  procfs_record_kernel())
 */
#ifndef KB_RESULTS_RUN_JSON_H
#define KB_RESULTS_RUN_JSON_H

#include "lib/proc.h"

#include <stddef.h>
#include <stdint.h>

/* A load host of the run (kernels.conf hosts =). */
struct results_run_host {
	const char *host;
	unsigned port;
	const char *target;	/* the target it ran on (target@HOST, else
				 * the campaign's); NULL: not recorded */
	int probe;		/* after fio timed out: 1 the host answered
				 * fio's probe, -1 it did not; 0 not asked
				 * (run.json "answered_probe") */
};

/* A tunable read back right after fio. */
struct results_tunable_read {
	const char *path;	/* resolved sysfs path */
	const char *value;	/* NULL: unreadable */
};

struct results_run_json {
	const struct kb_spawn_result *fio;	/* fio's end (lib/proc.h) */
	unsigned runtime_s, timeout_s;
	const char *diskstats_name;		/* NULL: none */
	const char *target;			/* KBENCH_TARGET */
	unsigned long long target_size_bytes;	/* KBENCH_SIZE */
	int warmup, perf_record;		/* 0 / 1 */
	const char *extra;		/* "profiling", "unsampled"; NULL */
	int64_t start_unix_ns;
	int kbench_stopped;	/* kbench was stopped while fio ran
				 * (lib/proc.h kb_continued) */
	int record_hosts;		/* 1: write "hosts" (hosts = given) */
	const struct results_run_host *hosts;
	size_t nhosts;
	const struct results_tunable_read *tunables_after;
	size_t ntunables_after;
	const char *tunables_changed;	/* NULL: none changed */
	double kbench_cpu_during_run_s;
	double cache_drop_cpu_s, cache_drop_wall_s;
	int taint_known;	/* 1: the two masks below were read */
	unsigned long long taint_before, taint_after;
};

/* Write r to path atomically (parsers/json_file.h), with the running
 * kernel's identity added.  0 or -errno. */
int results_run_json_write(const char *path, const struct results_run_json *r);

#endif
