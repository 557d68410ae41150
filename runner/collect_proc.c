/* runner/collect_proc.c - /proc/stat, /proc/diskstats, PSI
 * (/proc/pressure/{cpu,io,memory}) and the CPU frequency around a run
 * (parsed by parsers/procfs.c through parsers/run_dir.c).
 *
 * The pressure and cpufreq snapshots are written in the formats
 * parsers/procfs.h describes: the raw lines, each prefixed with its
 * source, or "unavailable: REASON" where a source cannot be read (so the
 * metric is n/a with that reason, never 0).  Reading them never fails
 * the run; only writing the snapshot can.
 */
#include "runner/collect.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const psi_res[] = { "cpu", "io", "memory" };

static const char *psi_reason(int err)
{
	switch (err) {
	case -ENOENT:
		return "no /proc/pressure (CONFIG_PSI off)";
	case -EOPNOTSUPP:
		return "PSI disabled (psi=0 on the kernel command line, or "
		       "CONFIG_PSI_DEFAULT_DISABLED)";
	case -EACCES:
	case -EPERM:
		return "/proc/pressure not readable (permission denied)";
	default:
		return NULL;
	}
}

/* Every line of text prefixed with "res ". */
static void prefixed(FILE *f, const char *res, const char *text)
{
	const char *l = text;

	while (l && *l) {
		const char *nl = strchr(l, '\n');
		int len = nl ? (int)(nl - l) : (int)strlen(l);

		if (len)
			fprintf(f, "%s %.*s\n", res, len, l);
		l = nl ? nl + 1 : NULL;
	}
}

static int pressure_snapshot(const char *rdir, const char *name)
{
	struct timespec ts;
	char *out = NULL, *to;
	size_t len = 0, i;
	FILE *f = open_memstream(&out, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(f, "time_ns %llu\n", (unsigned long long)ts.tv_sec *
		1000000000ULL + (unsigned long long)ts.tv_nsec);
	for (i = 0; i < sizeof(psi_res) / sizeof(psi_res[0]); i++) {
		char path[64], *buf = NULL;
		int r;

		snprintf(path, sizeof(path), "/proc/pressure/%s", psi_res[i]);
		r = kb_read_file(path, &buf, NULL, 1);
		if (r < 0) {
			const char *why = psi_reason(r);

			fprintf(f, "%s unavailable: ", psi_res[i]);
			if (why)
				fprintf(f, "%s\n", why);
			else
				fprintf(f, "%s: %s\n", path, strerror(-r));
		} else {
			prefixed(f, psi_res[i], buf);
		}
		free(buf);
	}
	if (fclose(f)) {
		free(out);
		return -ENOMEM;
	}
	to = kb_path_join(rdir, name);
	ret = kb_write_atomic(to, out, len);
	free(to);
	free(out);
	return ret;
}

static int cpufreq_snapshot(const char *rdir, const char *name)
{
	static const char pat[] =
		"/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq";
	char *out = NULL, *to;
	size_t len = 0, i;
	FILE *f = open_memstream(&out, &len);
	glob_t g;
	int ret, nread = 0, gr;

	if (!f)
		return -ENOMEM;
	gr = glob(pat, 0, NULL, &g);
	for (i = 0; gr == 0 && i < g.gl_pathc; i++) {
		const char *p = g.gl_pathv[i] + strlen("/sys/devices/system/cpu/cpu");
		char *buf = NULL;
		unsigned long long khz;

		if (kb_read_file(g.gl_pathv[i], &buf, NULL, 1) == 0 &&
		    sscanf(buf, "%llu", &khz) == 1) {
			fprintf(f, "cpu%d %llu\n", atoi(p), khz);
			nread++;
		}
		free(buf);
	}
	if (!nread)
		fprintf(f, "unavailable: %s\n", gr == 0 ?
			"scaling_cur_freq unreadable on every CPU" :
			"no /sys/devices/system/cpu/cpu*/cpufreq/"
			"scaling_cur_freq (no cpufreq driver: usual in a VM)");
	if (gr == 0)
		globfree(&g);
	if (fclose(f)) {
		free(out);
		return -ENOMEM;
	}
	to = kb_path_join(rdir, name);
	ret = kb_write_atomic(to, out, len);
	free(to);
	free(out);
	return ret;
}

static int snapshots(struct kb_run_ctx *ctx, const char *when)
{
	char name[32];
	int ret;

	snprintf(name, sizeof(name), "proc_stat.%s", when);
	ret = collect_snapshot("/proc/stat", ctx->rdir, name);
	if (!ret && ctx->target->stat_name) {
		snprintf(name, sizeof(name), "diskstats.%s", when);
		ret = collect_snapshot("/proc/diskstats", ctx->rdir, name);
	}
	if (!ret) {
		snprintf(name, sizeof(name), "pressure.%s", when);
		ret = pressure_snapshot(ctx->rdir, name);
	}
	if (!ret) {
		snprintf(name, sizeof(name), "cpufreq.%s", when);
		ret = cpufreq_snapshot(ctx->rdir, name);
	}
	return ret;
}

static int procstat_start(struct kb_run_ctx *ctx, void **state)
{
	*state = NULL;
	return snapshots(ctx, "before");
}

static int procstat_stop(struct kb_run_ctx *ctx, void *state)
{
	(void)state;
	return snapshots(ctx, "after");
}

const struct kb_collector kb_collector_procstat = {
	.name = "procstat",
	.enabled = NULL,
	.start = procstat_start,
	.stop = procstat_stop,
};
