/* runner/collect_profile.c - sampling profile of the whole machine during
 * a run, for `profile = cycles,dcm` in kernels.conf.
 *
 * start(): chooses the events (cycles, or cpu-clock where this machine
 * has no cycles counter; L1-dcache-load-misses for dcm, left out where
 * unsupported), copies the symbol groups (PROFILES/symbols.conf) into the
 * run directory, and starts `perf record -a -q -o RDIR/perf.data -e E...`
 * (perf-record(1)) in the background.  stop(): SIGINT to perf record (it
 * then writes its data and exits), then `perf report -i perf.data --stdio
 * --no-children --sort dso,sym -F overhead,sample,dso,sym -t '|'`
 * (perf-report(1)) into perf_report.txt, kept zstd-compressed as
 * perf_report.txt.zst (parsed by parsers/perf_report.c via
 * parsers/run_perf.c); perf.data is removed unless kernels.conf says
 * keep = perf.data.  Only the runs that sample start perf at all
 * (runner/plan.h plan_run_sampled: by default the profiling runs, never
 * a counted run).  profile.json records what was asked, what was
 * sampled and why.
 * Nothing here fails the run: a perf that cannot start is recorded.
 */
#include "runner/collect.h"
#include "runner/collect_perf.h"
#include "lib/argv.h"
#include "lib/compress.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "results/profile_info.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define L1D_READ_MISS (PERF_COUNT_HW_CACHE_L1D | \
		       (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
		       (PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

struct profile_state {
	pid_t pid;		/* perf record, 0 = not running */
	struct kb_profile_info info;	/* becomes profile.json */
};

static int profile_enabled(const struct kb_config *cfg)
{
	return cfg->nprofile > 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* fork + exec argv with stdout/stderr into log; the pid or -errno. */
static pid_t start_bg(char *const argv[], const char *log)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		setenv("LC_ALL", "C", 1);	/* see profile_stop() */
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int profile_start(struct kb_run_ctx *ctx, void **state)
{
	struct profile_state *st;
	struct kb_argv evargs = KB_ARGV_INIT, argv = KB_ARGV_INIT;
	char *data, *log, *src, *dst, *kr = NULL;
	const char *ev;
	size_t i, na = 0;
	int err = 0, ret = 0;

	/* only the runs that sample (runner/plan.h: the profiling runs, or
	 * every run but the unsampled ones with profile_during =
	 * counted-runs): no perf process during any other run */
	*state = NULL;
	if (!plan_run_sampled(ctx->cfg, ctx->run))
		return 0;
	st = kb_xcalloc(1, sizeof(*st));
	for (i = 0; i < ctx->cfg->nprofile; i++) {
		const char *role = ctx->cfg->profile[i];
		struct kb_profile_event *e = profile_info_add_event(&st->info,
								    role);

		ev = NULL;
		if (!strcmp(role, "cycles")) {
			e->requested = kb_xstrdup("cycles");
			if (kb_perf_event_supported(PERF_TYPE_HARDWARE,
					PERF_COUNT_HW_CPU_CYCLES, &err)) {
				ev = "cycles";
			} else {
				ev = "cpu-clock";
				e->note = kb_xstrdup("cycles not supported "
					"here: sampled cpu-clock (timer) "
					"instead");
			}
		} else if (!strcmp(role, "dcm")) {
			e->requested = kb_xstrdup("L1-dcache-load-misses");
			if (kb_perf_event_supported(PERF_TYPE_HW_CACHE,
						    L1D_READ_MISS, &err)) {
				ev = "L1-dcache-load-misses";
			} else {
				e->note = kb_xasprintf("L1-dcache-load-misses "
						       "not supported here "
						       "(perf_event_open: %s; "
						       "a VM without a virtual "
						       "PMU?)", strerror(err));
			}
		}
		e->event = ev ? kb_xstrdup(ev) : NULL;
		if (ev) {
			kb_argv_pushl(&evargs, "-e", ev, NULL);
			na++;
		}
	}
	if (kb_read_file("/proc/sys/kernel/kptr_restrict", &kr, NULL, 1) == 0) {
		st->info.has_kptr_restrict = 1;
		st->info.kptr_restrict = atoi(kr);
	}
	free(kr);

	src = kb_path_join(ctx->cfg->profiles_dir, "symbols.conf");
	dst = kb_path_join(ctx->rdir, "symbols.conf");
	if (kb_exists(src))
		ret = collect_snapshot(src, ctx->rdir, "symbols.conf");
	else
		st->info.symbols_missing = kb_xstrdup(src);
	free(src);
	free(dst);
	if (ret)
		goto out;
	if (!na)
		goto out;

	data = kb_path_join(ctx->rdir, "perf.data");
	log = kb_path_join(ctx->rdir, "perf_record.log");
	kb_argv_pushl(&argv, "perf", "record", "-a", "-q", "-o", data, NULL);
	for (i = 0; i < evargs.n; i++)
		kb_argv_push(&argv, evargs.v[i]);
	st->pid = start_bg(argv.v, log);
	if (st->pid < 0) {
		st->info.record_error = kb_xstrdup(strerror((int)-st->pid));
		st->pid = 0;
	} else {
		/* let perf record open its events before fio starts */
		for (i = 0; i < 40 && !kb_exists(data); i++)
			sleep_ms(50);
		sleep_ms(200);
	}
	free(data);
	free(log);
out:
	kb_argv_clear(&argv);
	kb_argv_clear(&evargs);
	*state = st;
	return ret;
}

/* What the run directory keeps (docs/results-format.md): the perf report
 * always, zstd-compressed (perf_report.txt.zst, lib/compress.h; the
 * parser reads it back), perf.data only with kernels.conf keep =
 * perf.data.  profile.json says which. */
static int keep_artefacts(struct kb_run_ctx *ctx,
			  struct kb_profile_info *info,
			  const char *rep, const char *data)
{
	char *zst = kb_xasprintf("%s.zst", rep);
	int ret = 0;

	if (kb_exists(rep)) {
		ret = kb_compress_file_zstd(rep, zst);
		if (!ret && unlink(rep) < 0)
			ret = -errno;
	}
	free(zst);
	if (ret)
		return ret;
	if (ctx->cfg->keep & KB_KEEP_PERF_DATA) {
		info->perf_data = kb_xstrdup("kept (keep = perf.data)");
	} else {
		unlink(data);
		info->perf_data = kb_xstrdup("removed after perf report "
					     "(keep = perf.data keeps it)");
	}
	return 0;
}

static int profile_stop(struct kb_run_ctx *ctx, void *state)
{
	static const char *const c_locale[] = { "LC_ALL=C", NULL };
	struct profile_state *st = state;
	struct kb_spawn_opts o = { 0 };
	struct kb_spawn_result r;
	char *data = kb_path_join(ctx->rdir, "perf.data");
	char *rep = kb_path_join(ctx->rdir, "perf_report.txt");
	char *err = kb_path_join(ctx->rdir, "perf_report.stderr");
	char *path = kb_path_join(ctx->rdir, "profile.json");
	struct kb_argv argv = KB_ARGV_INIT;
	int status = 0, i, ret;

	if (!st) {	/* a run that does not sample */
		free(data);
		free(rep);
		free(err);
		free(path);
		return 0;
	}
	if (st->pid > 0) {
		kill(st->pid, SIGINT);
		for (i = 0; i < 600; i++) {	/* 30 s */
			if (waitpid(st->pid, &status, WNOHANG) == st->pid)
				break;
			sleep_ms(50);
		}
		if (i == 600) {
			kill(st->pid, SIGKILL);
			waitpid(st->pid, &status, 0);
		}
		st->info.has_record_exit_status = 1;
		st->info.record_exit_status = WIFEXITED(status) ?
					      WEXITSTATUS(status) : -1;
		o.stdout_path = rep;
		o.stderr_path = err;
		o.timeout_s = 300;
		/* perf formats its numbers in the locale it is given
		 * (setlocale(LC_ALL, "")): "99,59%" under de_DE; the parser
		 * reads C's (a break-it trial) */
		o.env = c_locale;
		kb_argv_pushl(&argv, "perf", "report", "-i", data, "--stdio",
			      "--no-children", "--sort", "dso,sym",
			      "-F", "overhead,sample,dso,sym", "-t", "|", NULL);
		if (kb_spawn(argv.v, &o, &r) == 0) {
			st->info.has_report_exit_status = 1;
			st->info.report_exit_status = r.exited ?
						      r.exit_status : -1;
		}
		ret = keep_artefacts(ctx, &st->info, rep, data);
		if (ret)
			goto out;
	}
	ret = profile_info_save(path, &st->info);
out:
	kb_argv_clear(&argv);
	profile_info_free(&st->info);
	free(st);
	free(data);
	free(rep);
	free(err);
	free(path);
	return ret;
}

const struct kb_collector kb_collector_profile = {
	.name = "profile",
	.enabled = profile_enabled,
	.start = profile_start,
	.stop = profile_stop,
};
