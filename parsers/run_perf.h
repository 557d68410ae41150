/* parsers/run_perf.h - the perf and task artifacts of a run directory
 * (runner/collect_perf.c, collect_profile.c, collect_tasks.c) -> perf.*,
 * profile.* and task.* metrics; called by parsers/run_dir.c. */
#ifndef KB_RUN_PERF_H
#define KB_RUN_PERF_H

#include <jansson.h>

/* Reads, when present: perf_counters.csv (parsers/perf_stat.h);
 * profile.json + perf_report.txt + symbols.conf (parsers/perf_report.h:
 * profile.ROLE.* per sampled role, profile.lost_samples and
 * profile.lost_pct, and warnings starting "profile:" for fallbacks,
 * unsupported events, lost samples and unresolved kernel symbols; lost
 * samples or events, also from perf_report.stderr, add a "profile:" entry
 * to flags); tasks.{before,after,groups}
 * (parsers/tasks.h, the fio group adding run's user_s + sys_s: fio's
 * wait4 rusage).  Absent artifacts add nothing (n/a). */
void run_dir_perf(const char *dir, const json_t *run, json_t *metrics,
		  json_t *warnings, json_t *flags);

#endif
