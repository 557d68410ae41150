/* runner/collect_perf.c - hardware and software counters around a run.
 *
 * System-wide, per-CPU counting with perf_event_open(2) (pid = -1, cpu =
 * each CPU; needs perf_event_paranoid <= 0 or CAP_PERFMON), one fd per
 * (event, CPU), not grouped, so the kernel multiplexes when there are
 * more events than counters.  Each fd is read with
 * PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING and
 * scaled as perf stat does: value * enabled / running (perf-stat(1),
 * "scaling"); running/enabled is the coverage.
 *
 * Artifact: perf_counters.csv, in `perf stat -a -A -x,` form (perf-stat(1)
 * CSV FORMAT: CPUn,value,unit,event,run_time_ns,pct_running,,) so that
 * parsers/perf_stat.c reads it like any perf stat output.  An event the
 * machine cannot count is written "<not supported>" with a
 * "# unsupported EVENT: why" line; a permission problem writes one
 * "# error: what to change" line.  Neither fails the run.
 */
#include "runner/collect.h"
#include "runner/collect_perf.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CACHE(c, op, res) ((c) | ((op) << 8) | ((res) << 16))

static const struct {
	const char *name;	/* perf's name (perf list) */
	uint32_t type;
	uint64_t config;
} perf_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
	  CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
		PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE,
	  CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
		PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
};
#define N_EVENTS (sizeof(perf_events) / sizeof(perf_events[0]))

struct perf_state {
	int ncpus;
	int *fd;		/* [event * ncpus + cpu], -1 = not open */
	int err[N_EVENTS];	/* errno of the first failed open, 0 = none */
	int denied;		/* EACCES/EPERM seen */
};

static long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				int cpu, int group_fd, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* The kernel.perf_event_paranoid level, or -9 when unreadable. */
int kb_perf_paranoid(void)
{
	char *buf = NULL;
	int level = -9;

	if (kb_read_file("/proc/sys/kernel/perf_event_paranoid", &buf, NULL,
			 1) == 0)
		level = atoi(buf);
	free(buf);
	return level;
}

/* 1 when the event (type, config) can be opened system-wide on CPU 0 or
 * the calling task can count it; used by collect_profile.c to choose
 * what `perf record` samples.  errno_out (may be NULL) gets why not. */
int kb_perf_event_supported(uint32_t type, uint64_t config, int *errno_out)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	fd = sys_perf_event_open(&a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		if (errno_out)
			*errno_out = errno;
		return 0;
	}
	close((int)fd);
	return 1;
}

static int perf_start(struct kb_run_ctx *ctx, void **state)
{
	struct perf_state *st = kb_xcalloc(1, sizeof(*st));
	struct perf_event_attr a;
	size_t e;
	int cpu;
	long fd;

	(void)ctx;
	st->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (st->ncpus < 1)
		st->ncpus = 1;
	st->fd = kb_xmalloc(N_EVENTS * (size_t)st->ncpus * sizeof(int));
	for (e = 0; e < N_EVENTS; e++) {
		for (cpu = 0; cpu < st->ncpus; cpu++) {
			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = perf_events[e].type;
			a.config = perf_events[e].config;
			a.disabled = 1;
			a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
					PERF_FORMAT_TOTAL_TIME_RUNNING;
			fd = sys_perf_event_open(&a, -1, cpu, -1,
						 PERF_FLAG_FD_CLOEXEC);
			st->fd[e * st->ncpus + cpu] = (int)fd;
			if (fd >= 0)
				continue;
			if (errno == ENODEV || errno == ENXIO)
				continue;	/* CPU offline */
			if (!st->err[e])
				st->err[e] = errno;
			if (errno == EACCES || errno == EPERM)
				st->denied = 1;
		}
	}
	for (e = 0; e < N_EVENTS * (size_t)st->ncpus; e++)
		if (st->fd[e] >= 0)
			ioctl(st->fd[e], PERF_EVENT_IOC_ENABLE, 0);
	*state = st;
	return 0;
}

static int perf_stop(struct kb_run_ctx *ctx, void *state)
{
	struct perf_state *st = state;
	char *buf = NULL, *path;
	size_t len = 0, e;
	FILE *f;
	int cpu, ret, level;

	for (e = 0; e < N_EVENTS * (size_t)st->ncpus; e++)
		if (st->fd[e] >= 0)
			ioctl(st->fd[e], PERF_EVENT_IOC_DISABLE, 0);
	f = open_memstream(&buf, &len);
	if (!f) {
		ret = -errno;
		goto out;
	}
	fprintf(f, "# kbench: perf_event_open(2) counting, all tasks, per "
		"CPU, scaled by time enabled/running (perf stat -a -A -x, "
		"form)\n");
	if (st->denied) {
		level = kb_perf_paranoid();
		fprintf(f, "# error: perf_event_open(2) was refused "
			"(kernel.perf_event_paranoid=%d): system-wide counting "
			"needs root or CAP_PERFMON and perf_event_paranoid <= 0; "
			"run kbench as root or `sysctl "
			"kernel.perf_event_paranoid=0`\n", level);
	}
	for (e = 0; e < N_EVENTS; e++) {
		int any = 0;

		if (st->err[e] && !st->denied)
			fprintf(f, "# unsupported %s: %s\n", perf_events[e].name,
				strerror(st->err[e]));
		for (cpu = 0; cpu < st->ncpus; cpu++) {
			int fd = st->fd[e * st->ncpus + cpu];
			uint64_t v[3];	/* value, enabled, running */
			double val;

			if (fd < 0)
				continue;
			any = 1;
			if (read(fd, v, sizeof(v)) != (ssize_t)sizeof(v) ||
			    v[2] == 0) {
				fprintf(f, "CPU%d,<not counted>,,%s,0,0.00,,\n",
					cpu, perf_events[e].name);
				continue;
			}
			val = (double)v[0] * (double)v[1] / (double)v[2];
			if (perf_events[e].config == PERF_COUNT_SW_CPU_CLOCK &&
			    perf_events[e].type == PERF_TYPE_SOFTWARE)
				fprintf(f, "CPU%d,%.2f,msec,%s,%llu,%.2f,,\n",
					cpu, val / 1e6, perf_events[e].name,
					(unsigned long long)v[2],
					100.0 * (double)v[2] / (double)v[1]);
			else
				fprintf(f, "CPU%d,%.0f,,%s,%llu,%.2f,,\n", cpu,
					val, perf_events[e].name,
					(unsigned long long)v[2],
					100.0 * (double)v[2] / (double)v[1]);
		}
		if (!any)
			fprintf(f, "CPU0,<not supported>,,%s,0,100.00,,\n",
				perf_events[e].name);
	}
	if (fclose(f)) {
		ret = -EIO;
		goto out;
	}
	path = kb_path_join(ctx->rdir, "perf_counters.csv");
	ret = kb_write_atomic(path, buf, len);
	free(path);
out:
	for (e = 0; e < N_EVENTS * (size_t)st->ncpus; e++)
		if (st->fd[e] >= 0)
			close(st->fd[e]);
	free(buf);
	free(st->fd);
	free(st);
	return ret;
}

const struct kb_collector kb_collector_perf = {
	.name = "perf",
	.enabled = NULL,
	.start = perf_start,
	.stop = perf_stop,
};
