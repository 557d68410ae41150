/* parsers/tasks.h - per-task CPU over a run, grouped by comm.
 *
 * Inputs (runner/collect_tasks.c): two snapshots of
 * /proc/[pid]/task/[tid]/stat lines (proc(5): "tid (comm) state ... "
 * with utime = field 14 and stime = field 15 in clock ticks, starttime =
 * field 22; comm may hold blanks and parentheses, so it ends at the LAST
 * ')'), each headed by "# kbench tasks clk_tck=N"; and the groups, one
 * "NAME GLOB..." line each (fnmatch(3) on comm, first matching group
 * wins).  A task present in both snapshots (same tid and starttime)
 * counts its utime+stime delta; one that appears only after the run
 * counts all its time; one that exited during the run is not seen here
 * (fio's own children are added from its wait4 rusage by the caller).
 */
#ifndef KB_TASKS_H
#define KB_TASKS_H

#include <jansson.h>

/* Add task.<group>.cpu_pct (percent of one CPU over elapsed_s),
 * task.other.cpu_pct (tasks in no group) and task.total.cpu_pct to
 * metrics.  extra_group/extra_s (may be NULL/0) adds CPU seconds of
 * tasks that exited during the run to that group (fio's rusage).
 * Returns 0, or -EINVAL with a message naming name when a snapshot is
 * malformed or elapsed_s <= 0. */
int tasks_cpu_metrics(const char *name, const char *before,
		      const char *after, const char *groups, double elapsed_s,
		      const char *extra_group, double extra_s,
		      json_t *metrics);

#endif
