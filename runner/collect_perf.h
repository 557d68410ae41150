/* runner/collect_perf.h - perf_event_open(2) helpers shared by the
 * counting (collect_perf.c) and sampling (collect_profile.c) collectors. */
#ifndef KB_COLLECT_PERF_H
#define KB_COLLECT_PERF_H

#include <stdint.h>

/* kernel.perf_event_paranoid (/proc/sys/kernel/perf_event_paranoid,
 * Documentation/admin-guide/perf-security.rst), or -9 when unreadable. */
int kb_perf_paranoid(void);

/* 1 when perf_event_open(2) accepts (type, config) system-wide on CPU 0
 * (or, failing that, for the calling task), else 0 with *errno_out (may be
 * NULL) set to the errno: ENOENT/EOPNOTSUPP for an event this machine has
 * no counter for (a VM without a virtual PMU), EACCES/EPERM for
 * perf_event_paranoid. */
int kb_perf_event_supported(uint32_t type, uint64_t config, int *errno_out);

#endif
