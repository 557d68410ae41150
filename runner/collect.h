/* runner/collect.h - collectors: things recorded around each fio run.
 *
 * An ops table (as fio's ioengine_ops): each collector's start() runs
 * right before fio is started and stop() right after it exits, in table
 * order (stop in reverse order).  They write raw artifacts into the run
 * directory only; turning artifacts into metrics is the parsers' job
 * (parsers/run_dir.c), so `kbench report --reparse` can redo it.
 *
 * A collector that cannot work here (no permission, no hardware counter)
 * must not fail the run: it records why in its artifact and returns 0.
 * A negative return means the campaign cannot go on (disk full, ...).
 */
#ifndef KB_COLLECT_H
#define KB_COLLECT_H

#include "parsers/kconf.h"
#include "runner/plan.h"
#include "runner/target.h"

struct kb_run_ctx {
	const struct kb_config *cfg;
	const struct kb_target *target;
	const struct kb_run *run;
	const char *config_id;
	const char *rdir;	/* the run directory */
};

struct kb_collector {
	const char *name;
	/* is it wanted for this campaign? NULL = always */
	int (*enabled)(const struct kb_config *cfg);
	/* before fio; *state is the collector's own, passed to stop() */
	int (*start)(struct kb_run_ctx *ctx, void **state);
	/* after fio exited; frees state */
	int (*stop)(struct kb_run_ctx *ctx, void *state);
};

/* NULL-terminated; runner/collect.c lists them.  Add a collector by
 * defining it in its own runner/collect_NAME.c and listing it there. */
extern const struct kb_collector *const kb_collectors[];

#define KB_MAX_COLLECTORS 16

struct kb_collect_state {
	void *state[KB_MAX_COLLECTORS];
	int started[KB_MAX_COLLECTORS];
};

/* Start every enabled collector in table order; on failure stops those
 * already started.  0 or -errno. */
int collectors_start(struct kb_run_ctx *ctx, struct kb_collect_state *st);

/* Stop every started collector in reverse order.  0 or the first -errno. */
int collectors_stop(struct kb_run_ctx *ctx, struct kb_collect_state *st);

/* Copy a whole file (a /proc snapshot) into rdir/name atomically. */
int collect_snapshot(const char *from, const char *rdir, const char *name);

/* collect_proc.c: /proc/stat, the target's /proc/diskstats line, PSI
 * (pressure.*) and scaling_cur_freq (cpufreq.*) */
extern const struct kb_collector kb_collector_procstat;
/* collect_tasks.c: /proc/[pid]/task/[tid]/stat of every task */
extern const struct kb_collector kb_collector_tasks;
/* collect_perf.c: perf_event_open(2) counters, system-wide per CPU */
extern const struct kb_collector kb_collector_perf;
/* collect_profile.c: perf record -a, for "profile = cycles,dcm" */
extern const struct kb_collector kb_collector_profile;

#endif
