/* runner/collect_proc.c - /proc/stat and /proc/diskstats around a run
 * (parsed by parsers/procfs.c through parsers/run_dir.c). */
#include "runner/collect.h"

static int procstat_start(struct kb_run_ctx *ctx, void **state)
{
	int ret;

	*state = NULL;
	ret = collect_snapshot("/proc/stat", ctx->rdir, "proc_stat.before");
	if (!ret && ctx->target->stat_name)
		ret = collect_snapshot("/proc/diskstats", ctx->rdir,
				       "diskstats.before");
	return ret;
}

static int procstat_stop(struct kb_run_ctx *ctx, void *state)
{
	int ret;

	(void)state;
	ret = collect_snapshot("/proc/stat", ctx->rdir, "proc_stat.after");
	if (!ret && ctx->target->stat_name)
		ret = collect_snapshot("/proc/diskstats", ctx->rdir,
				       "diskstats.after");
	return ret;
}

const struct kb_collector kb_collector_procstat = {
	.name = "procstat",
	.enabled = NULL,
	.start = procstat_start,
	.stop = procstat_stop,
};
