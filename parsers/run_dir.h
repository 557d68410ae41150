/* parsers/run_dir.h - one run's raw artifacts -> its metrics.
 *
 * A run directory (docs/results-format.md) holds what the runner
 * recorded, unchanged: fio.json (fio --output-format=json+), fio.stderr,
 * proc_stat.{before,after}, diskstats.{before,after},
 * pressure.{before,after} (PSI), cpufreq.{before,after} and run.json (the
 * runner's own record: exit status, signal, timeout, wait4 rusage,
 * requested runtime, diskstats device name).  Parsing is separate from
 * running so `kbench report --reparse` can redo it after a parser fix.
 */
#ifndef KB_RUN_DIR_H
#define KB_RUN_DIR_H

#include <jansson.h>

/* Parse the run directory dir.  Returns a new object
 *   { "status": "ok"|"failed", "reason": string|null,
 *     "metrics": { NAME: number, ... }, "warnings": [string, ...],
 *     "flags": [string, ...]: reasons to doubt the run (parsers/
 *              fio_json.h: latency buckets, steady state, page cache;
 *              parsers/perf_report.h: "profile: N samples lost ..."),
 *     "suspect": "page_cache" and "message": only when fio's reads likely
 *              measured the page cache (fio_json.h; RAM from run.json
 *              "mem_total_kib", fio's stderr from fio.stderr),
 *     "kernel": { "release", "proc_version", "build_id" }: the kernel the
 *              run ran on, from run.json, when recorded,
 *     "work": "time" | "fixed": what the job's work was (job.fio's
 *              time_based, else fio_json.h "work"); absent when unknown,
 *     "fio_version": string|null }
 * A run is failed when fio timed out, was killed, exited non-zero, wrote
 * no parsable JSON, reported a job error (fio "error" != 0), or did no
 * I/O; the reason says which, in the words of ../shared/cases/B02:
 * "fio job 'test' failed: error=5 (Input/output error); exit status 1;
 * ran 3 s of 30 s".  Metrics of failed runs are kept but never enter the
 * statistics.  Returns NULL only when run.json itself is unreadable. */
json_t *run_dir_parse(const char *dir);

#endif
