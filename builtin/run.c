/* builtin/run.c - `kbench run`: run or resume a campaign.
 *
 * For each planned run not yet done: check the variant, write the
 * tunables (read back), sync and drop caches, snapshot /proc/stat and
 * /proc/diskstats, run fio from an argv array with a timeout, snapshot
 * again, record wait4's rusage, parse, and record the run in state.json.
 * SIGINT/SIGTERM stop after the current run (fio is told to stop and
 * writes its report; the run is not counted and is redone on resume);
 * every tunable is restored on every exit path.
 */
#include "builtin/builtin.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/run_dir.h"
#include "push/push.h"
#include "reports/report.h"
#include "reports/plots.h"
#include "runner/campaign.h"
#include "runner/collect.h"
#include "runner/drivers.h"
#include "runner/run_exec.h"
#include "results/model.h"
#include "runner/target.h"
#include "runner/tunables.h"
#include "stats/summary.h"
#include "stats/compare.h"
#include "runner/adaptive.h"
#include "parsers/json_file.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	kb_spawn_forward_signal = SIGTERM;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench run [-c kernels.conf] [-o DIR] [options]\n"
"\n"
"Run the campaign described by kernels.conf, or resume the one in DIR:\n"
"every configuration (variant x tunable values) x job x iteration, in the\n"
"order the conf asks for.  Raw artifacts go to DIR/runs/, the tables to\n"
"DIR/report.txt and DIR/report.md, everything to DIR/results.json.\n"
"Running it again on the same DIR resumes: completed runs are skipped.\n"
"\n"
"options:\n"
"  -c, --config FILE   campaign description (default: ./kernels.conf; on\n"
"                      resume, the snapshot in DIR is used and FILE, if\n"
"                      given, must be identical)\n"
"  -o, --output DIR    campaign directory (default: results/<conf name>)\n"
"      --retry-failed  run again the runs recorded as failed\n"
"      --dry-run       print the commands each vm or kexec boot would run\n"
"                      (qemu, kexec) and run nothing; writes nothing (no\n"
"                      campaign files; downloads go to the kernel cache)\n"
"  -q, --quiet         no progress lines\n"
"  -h, --help          this text\n"
"\n"
"environment: KBENCH_ACCEL=auto|kvm|tcg overrides accel = (vm variants)\n"
"\n"
"exit status: 0 every planned run succeeded; 1 an error, or every run\n"
"failed; 3 runs left for variants that are not running now (boot them\n"
"and run again); 4 the campaign completed with failed runs (a kernel\n"
"that never booted, a fio that crashed: see the report); 130\n"
"interrupted (run again to resume).  When several apply: 1, then 4,\n"
"then 3.  A push never changes the status.\n");
}

static void drop_caches(int *warned)
{
	FILE *f;
	int ok;

	sync();
	f = fopen("/proc/sys/vm/drop_caches", "w");
	ok = f != NULL;
	if (f) {
		if (fputs("3\n", f) < 0)
			ok = 0;
		if (fclose(f) != 0)	/* closed either way: once */
			ok = 0;
	}
	if (!ok) {
		if (!*warned)
			kb_warn("cannot drop caches (/proc/sys/vm/drop_caches "
				"needs root): runs may start with a warm cache");
		*warned = 1;
	}
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* KBENCH_<NAME>=value for every swept job parameter of the
 * configuration (kconf.h "sweep"), into env (NULL-terminated) and owned[]
 * (to free). */
static void sweep_env(const struct kb_config *cfg,
		      const struct kb_configuration *k, const char **env,
		      char **owned)
{
	size_t t, n = 0;
	char *p;

	for (t = 0; t < cfg->ntunables; t++) {
		if (!cfg->tunables[t].sweep)
			continue;
		owned[n] = kb_xasprintf("KBENCH_%s=%s", cfg->tunables[t].label,
					cfg->tunables[t].values[k->value[t]]);
		for (p = owned[n] + 7; *p != '='; p++)
			*p = (char)toupper((unsigned char)*p);
		env[n] = owned[n];
		n++;
	}
	env[n] = NULL;
}

/* One run: everything in rdir; returns 0 when it ran (ok or failed), or
 * -errno when the campaign cannot go on. */
int do_run(struct kb_campaign *c, const struct kb_run *r,
	   const struct kb_target *t, const char *rdir,
	   json_t **result, int *drop_warned)	/* also `kbench guest` */
{
	const struct kb_config *cfg = &c->cfg;
	char *job = campaign_job_path(c, r->job);
	char *jobcopy = kb_path_join(rdir, "job.fio");
	char *out = kb_path_join(rdir, "fio.json");
	char *so = kb_path_join(rdir, "fio.stdout");
	char *se = kb_path_join(rdir, "fio.stderr");
	char *runjson = kb_path_join(rdir, "run.json");
	char *e_target = kb_xasprintf("KBENCH_TARGET=%s", t->path);
	char *e_runtime = kb_xasprintf("KBENCH_RUNTIME=%u", cfg->runtime_s);
	char *e_size = kb_xasprintf("KBENCH_SIZE=%llu", t->size_bytes);
	char *outarg = kb_xasprintf("--output=%s", out);
	const char *env[4 + KB_MAX_TUNABLES] = { e_target, e_runtime, e_size };
	char *e_sweep[KB_MAX_TUNABLES] = { NULL };
	char *argv[] = { "fio", "--output-format=json+", outarg, jobcopy, NULL };
	struct kb_run_ctx ctx = { .cfg = cfg, .target = t, .run = r,
				  .config_id = c->plan.configs[r->config].id,
				  .rdir = rdir };
	struct kb_collect_state cst;
	struct kb_spawn_opts so_opts = { 0 };
	struct rusage self0, self1;
	struct kb_spawn_result res;
	struct timespec start;	/* run.json start_unix_ns (push/influx.h) */
	char *buf = NULL;
	int err;
	json_t *rj = NULL;
	size_t len;
	int ret;

	*result = NULL;
	unlink(out);
	ret = kb_read_file(job, &buf, &len, 0);
	if (!ret)
		ret = kb_write_atomic(jobcopy, buf, len);
	free(buf);
	if (ret)
		goto out;
	drop_caches(drop_warned);
	ret = collectors_start(&ctx, &cst);
	if (ret)
		goto out;

	so_opts.stdout_path = so;
	so_opts.stderr_path = se;
	sweep_env(cfg, &c->plan.configs[r->config], env + 3, e_sweep);
	so_opts.env = env;
	so_opts.timeout_s = cfg->runtime_s + cfg->timeout_grace_s;
	so_opts.own_group = 1;	/* fio's job processes die with it */
	clock_gettime(CLOCK_REALTIME, &start);
	getrusage(RUSAGE_SELF, &self0);
	ret = kb_spawn(argv, &so_opts, &res);
	getrusage(RUSAGE_SELF, &self1);
	err = collectors_stop(&ctx, &cst);
	if (ret) {
		if (ret == -ENOENT)
			kb_error("fio is not installed (apt-get install fio, "
				 "or scripts/install-deps)");
		goto out;
	}
	ret = err;
	if (ret)
		goto out;
	rj = json_pack("{s:o, s:i, s:b, s:f, s:f, s:f, s:I, s:I, s:I, s:i, s:i, s:s?, s:s, s:b}",
		"exit_status", res.exited ? json_integer(res.exit_status) :
					    json_null(),
		"signal", res.signal, "timed_out", res.timed_out,
		"elapsed_s", res.elapsed_s,
		"user_s", tv_s(res.ru.ru_utime), "sys_s", tv_s(res.ru.ru_stime),
		"maxrss_kib", (json_int_t)res.ru.ru_maxrss,
		"major_faults", (json_int_t)res.ru.ru_majflt,
		"minor_faults", (json_int_t)res.ru.ru_minflt,
		"runtime_s", (int)cfg->runtime_s,
		"timeout_s", (int)so_opts.timeout_s,
		"diskstats_name", t->stat_name,
		"target", t->path, "warmup", r->warmup);
	json_object_set_new(rj, "start_unix_ns", json_integer((json_int_t)
		start.tv_sec * 1000000000 + start.tv_nsec));
	json_object_set_new(rj, "group_left", json_integer(res.group_left));
	json_object_set_new(rj, "group_signal", json_integer(res.group_signal));
	/* kbench's own CPU (not fio's) while fio ran: what the measuring
	 * costs the measured run (make bench) */
	json_object_set_new(rj, "kbench_cpu_during_run_s", json_real(
		tv_s(self1.ru_utime) + tv_s(self1.ru_stime) -
		tv_s(self0.ru_utime) - tv_s(self0.ru_stime)));
	/* fio wrote these itself: make them durable before run.json (and
	 * then state.json) say the run is done */
	kb_fsync_path(out);
	kb_fsync_path(so);
	kb_fsync_path(se);
	ret = kb_json_write_atomic(runjson, rj);
	if (ret)
		goto out;
	*result = run_dir_parse(rdir);
	if (!*result)
		ret = -EIO;
out:
	json_decref(rj);
	free(job);
	free(jobcopy);
	free(out);
	free(so);
	free(se);
	free(runjson);
	free(e_target);
	free(e_runtime);
	free(e_size);
	for (size_t si = 0; si < KB_MAX_TUNABLES; si++)
		free(e_sweep[si]);
	free(outarg);
	return ret;
}

/* results.json, report.txt, report.md; the text table on stdout. */
static int write_reports(const char *dir, int print)
{
	json_t *res = results_load_campaign(dir, 0);
	char *rpath = kb_path_join(dir, "results.json");
	char *tpath = kb_path_join(dir, "report.txt");
	char *mpath = kb_path_join(dir, "report.md");
	char *ppath = kb_path_join(dir, "plots");
	struct report_opts mdopts;
	const char *const fmts[] = { "text", "markdown" };
	const char *const paths[] = { tpath, mpath };
	int ret = -EIO;
	size_t i, li;
	json_t *lv;

	if (!res)
		goto out;
	ret = stats_analyse(res, NULL);
	if (ret)
		goto out;
	ret = kb_json_write_atomic(rpath, res);
	/* report.md: environment, tables, graphs (DIR/plots, when gnuplot
	 * is installed) and reproducers (reports/plots.h) */
	report_opts_init(&mdopts);
	mdopts.full_markdown = 1;
	if (!ret && plots_write(res, ppath, dir, NULL) > 0) {
		mdopts.plots_dir = ppath;
		mdopts.plots_href = "plots";
	}
	for (i = 0; i < 2 && !ret; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		ret = report_render(m, res, fmts[i], i ? &mdopts : NULL);
		/* kernels.conf layouts = rounds ...: more tables after them */
		json_array_foreach(json_object_get(json_object_get(res,
				   "campaign"), "layouts"), li, lv) {
			struct report_opts lo;

			if (ret || !json_string_value(lv))
				break;
			report_opts_init(&lo);
			lo.layout = json_string_value(lv);
			fputc('\n', m);
			ret = report_render(m, res, fmts[i], &lo);
		}
		fclose(m);
		if (!ret)
			ret = kb_write_atomic(paths[i], text, len);
		if (!ret && print && i == 0)
			fwrite(text, 1, len, stdout);
		free(text);
	}
out:
	json_decref(res);
	free(rpath);
	free(tpath);
	free(mpath);
	free(ppath);
	return ret;
}

/* Number of timed runs recorded as ok. */
static size_t campaign_ok_runs(const struct kb_campaign *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->plan.nruns; i++) {
		const char *s = json_string_value(json_object_get(
			campaign_run_state(c, c->plan.runs[i].key), "status"));

		if (!c->plan.runs[i].warmup && s && !strcmp(s, "ok"))
			n++;
	}
	return n;
}

/* Counted and warm-up runs of the campaign recorded as failed. */
static size_t campaign_failed_runs(const struct kb_campaign *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->plan.nruns; i++) {
		const char *s = json_string_value(json_object_get(
			campaign_run_state(c, c->plan.runs[i].key), "status"));

		if (s && strcmp(s, "ok"))
			n++;
	}
	return n;
}

/* 1 when results.json and the reports are newer than state.json (the
 * last recorded run), so a resume with nothing to do need not redo them */
static int reports_current(const char *dir)
{
	static const char *const names[] = { "results.json", "report.txt",
					     "report.md", NULL };
	const char *const *n;
	char *sp = kb_path_join(dir, "state.json");
	struct stat st, rs;
	int current = stat(sp, &st) == 0;

	for (n = names; current && *n; n++) {
		char *p = kb_path_join(dir, *n);

		current = stat(p, &rs) == 0 &&
			  (rs.st_mtim.tv_sec > st.st_mtim.tv_sec ||
			   (rs.st_mtim.tv_sec == st.st_mtim.tv_sec &&
			    rs.st_mtim.tv_nsec >= st.st_mtim.tv_nsec));
		free(p);
	}
	free(sp);
	return current;
}

static char *default_dir(const char *conf)
{
	const char *b = strrchr(conf, '/');
	char *stem = kb_xstrdup(b ? b + 1 : conf), *dot = strrchr(stem, '.');
	char *dir;

	if (dot && dot != stem)
		*dot = '\0';
	dir = kb_xasprintf("results/%s", stem);
	free(stem);
	return dir;
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "retry-failed", no_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conf = "kernels.conf";
	char *dir = NULL;
	int conf_explicit = 0, retry_failed = 0, o, ret = 1, err;
	int lock_fd = -1;
	int drop_warned = 0, have_target = 0;
	size_t i, todo = 0, done = 0, failed = 0, skipped_variant = 0;
	size_t todo_local = 0;	/* runs in this kernel (not vm/kexec boots) */
	struct kb_campaign c;
	struct kb_target t;
	struct kb_tunables tu;
	struct sigaction sa;
	unsigned char *todo_mask = NULL;
	double t0, eta;
	char eb[32];

	memset(&tu, 0, sizeof(tu));
	memset(&t, 0, sizeof(t));
	memset(&c, 0, sizeof(c));
	optind = 1;
	while ((o = getopt_long(argc, argv, "c:o:qh", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			conf = optarg;
			conf_explicit = 1;
			break;
		case 'o':
			free(dir);
			dir = kb_xstrdup(optarg);
			break;
		case 'r':
			retry_failed = 1;
			break;
		case 'n':	/* vm/kexec: print the commands (drivers.h) */
			kb_driver_dry_run = 1;
			break;
		case 'q':
			kb_quiet = 1;
			break;
		case 'h':
			usage(stdout);
			free(dir);
			return 0;
		default:
			usage(stderr);
			free(dir);
			return 1;
		}
	}
	if (optind < argc) {
		kb_error("unexpected argument '%s'; see kbench run --help",
			 argv[optind]);
		free(dir);
		return 1;
	}
	if (!dir)
		dir = default_dir(conf);

	/* before anything that a Ctrl-C could leave half done */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	/* --dry-run writes nothing: no lock file, no campaign files */
	lock_fd = kb_driver_dry_run ? -1 : campaign_lock(dir);
	if (lock_fd < 0 && !kb_driver_dry_run)
		goto out;
	if (campaign_open(&c, dir, conf, conf_explicit) ||
	    adaptive_sync_plan(&c))	/* iterations = auto: added rounds */
		goto out;
	/* a campaign that died (crash, kill -9, power cut) may have left
	 * tunables changed: put them back before anything else */
	{
		char *saved = kb_path_join(dir, "tunables.saved.json");

		if (kb_exists(saved) && !kb_driver_dry_run) {
			kb_info("%s: the last run of this campaign stopped "
				"without restoring its tunables; restoring them",
				dir);
			err = tunables_restore_file(saved, &c.cfg);
		} else {
			err = 0;
		}
		free(saved);
		if (err)
			goto out;
	}

	/* which runs are left, and can the running kernel do them? */
count:
	todo = todo_local = skipped_variant = 0;
	free(todo_mask);
	todo_mask = kb_xcalloc(c.plan.nruns + 1, 1);
	for (i = 0; i < c.plan.nruns; i++) {
		const struct kb_run *r = &c.plan.runs[i];
		json_t *st = campaign_run_state(&c, r->key);
		const char *s = json_string_value(json_object_get(st, "status"));

		if (st && !(retry_failed && s && !strcmp(s, "failed")))
			continue;
		if (!driver_variant_ready(&c.cfg, c.plan.configs[r->config].variant)) {
			skipped_variant++;
			continue;
		}
		todo++;
		todo_mask[i] = 1;
		if (!driver_batch(&c.cfg, c.plan.configs[r->config].variant))
			todo_local++;
	}
	/* iterations = auto, and a crash came between the last run and the
	 * decision on another round: decide now */
	if (!todo && !skipped_variant && c.cfg.iterations_auto &&
	    !kb_driver_dry_run && !json_object_get(c.state, "adaptive")) {
		err = adaptive_next(&c);
		if (err < 0)
			goto out;
		if (err > 0)
			goto count;
	}
	if (!todo && !skipped_variant) {
		kb_info("%s: all %zu runs are complete; nothing to run "
			"(kbench report %s renders the tables)", dir,
			c.plan.nruns, dir);
		ret = kb_driver_dry_run || reports_current(dir) ? 0 :
		      (write_reports(dir, 0) ? 1 : 0);
		if (!ret && !campaign_ok_runs(&c)) {
			kb_error("%s: every run of this campaign failed; nothing "
				 "was measured (reasons in %s/report.txt; "
				 "--retry-failed runs them again)", dir, dir);
			ret = 1;
		} else if (!ret && campaign_failed_runs(&c)) {
			kb_warn("%s: the campaign completed with %zu failed "
				"run(s) (exit status 4; --retry-failed runs "
				"them again)", dir, campaign_failed_runs(&c));
			ret = 4;
		}
		goto out;
	}
	if (!todo) {
		driver_explain_skipped(&c.cfg);
		ret = campaign_failed_runs(&c) ? 4 : 3;	/* 4 > 3 */
		goto out;
	}

	/* vm/kexec batches set their target up in their own kernel */
	if (todo_local && !kb_driver_dry_run && target_open(&c.cfg, dir, &t))
		goto out;
	have_target = todo_local > 0 && !kb_driver_dry_run;
	if (have_target && (tunables_init(&tu, &c.cfg, &t, dir) ||
			    tunables_probe(&tu, &c.cfg)))
		goto out;

	kb_info("%s campaign %s: %zu of %zu runs to do on %s%s, about %s",
		c.resumed ? "resuming" : "starting", dir, todo, c.plan.nruns,
		have_target ? t.path : "the variants' kernels",
		t.kind == KB_TARGET_LOOP ? (t.direct_io ?
		" (loop, direct I/O)" : " (loop, buffered)") : "",
		plan_fmt_duration(plan_estimate_total_s(&c.cfg, &c.plan,
			todo_mask, dir), eb, sizeof(eb)));
	t0 = (double)time(NULL);
again:
	for (i = 0; i < c.plan.nruns && !stop_signal; i++) {
		const struct kb_run *r = &c.plan.runs[i];
		const struct kb_configuration *k = &c.plan.configs[r->config];
		json_t *st = campaign_run_state(&c, r->key), *result = NULL;
		const char *s = json_string_value(json_object_get(st, "status"));
		char *rdir, *mpath;

		if (st && !(retry_failed && s && !strcmp(s, "failed")))
			continue;
		if (!driver_variant_ready(&c.cfg, k->variant))
			continue;
		if (driver_batch(&c.cfg, k->variant)) {
			/* vm / kexec: this run and the next ones of the same
			 * variant on one boot (runner/drivers.h) */
			size_t nb = 0, nf = 0, j;

			/* ETA: the runs and boots left, with this campaign's
			 * measured boot times (runner/plan.h) */
			for (j = 0; j < c.plan.nruns; j++)
				if (todo_mask[j] && j < i)
					todo_mask[j] = 0;
			kb_info("[%zu/%zu] %s: boot for its next runs (ETA %s)",
				done + 1, todo, k->id, plan_fmt_duration(
				plan_estimate_total_s(&c.cfg, &c.plan, todo_mask,
						      dir), eb, sizeof(eb)));
			err = driver_run_next_batch(&c, i, retry_failed, &i,
						    &nb, &nf);
			done += nb;
			failed += nf;
			if (c.cfg.push_url && nb)	/* the whole campaign */
				push_after_run(dir, c.cfg.push_url, NULL);
			if (err)
				goto out;
			continue;
		}
		if (kb_driver_dry_run)
			continue;
		eta = done ? ((double)time(NULL) - t0) / done * (todo - done) :
			plan_estimate_s(&c.cfg, todo);
		kb_info("[%zu/%zu] %s %s iteration %u%s  (ETA %s)", done + 1,
			todo, k->id, c.cfg.jobs[r->job], r->iteration,
			r->warmup ? " (warm-up)" : "",
			plan_fmt_duration(eta, eb, sizeof(eb)));
		if (tunables_apply(&tu, &c.cfg, k))
			goto out;
		rdir = kb_run_dir(dir, r->key);
		if (kb_mkdir_p(rdir)) {
			free(rdir);
			goto out;
		}
		err = do_run(&c, r, &t, rdir, &result, &drop_warned);
		if (err) {
			free(rdir);
			goto out;
		}
		if (stop_signal) {
			/* fio was stopped early: not a measurement */
			json_decref(result);
			free(rdir);
			break;
		}
		mpath = kb_path_join(rdir, "metrics.json");
		json_object_set_new(result, "configuration", json_string(k->id));
		json_object_set_new(result, "job", json_string(c.cfg.jobs[r->job]));
		json_object_set_new(result, "iteration", json_integer(r->iteration));
		json_object_set_new(result, "warmup", json_boolean(r->warmup));
		err = kb_json_write_atomic(mpath, result);
		if (!err)
			err = campaign_record_result(&c, r->key, result,
						     &failed);
		json_decref(result);
		free(mpath);
		free(rdir);
		if (err)
			goto out;
		if (c.cfg.push_url)	/* never fails the run: queued if need be */
			push_after_run(dir, c.cfg.push_url, r->key);
		done++;
	}

	if (stop_signal) {
		kb_info("interrupted by signal %d after %zu of %zu runs; run "
			"the same command again to resume", (int)stop_signal,
			done, todo);
		ret = 130;
		goto out;
	}
	if (kb_driver_dry_run) {	/* nothing ran */
		ret = 0;
		goto out;
	}
	/* iterations = auto: another interleaved round while a compared
	 * metric's CI is wider than target_ci_pct (runner/adaptive.h) */
	if (c.cfg.iterations_auto && !skipped_variant) {
		err = adaptive_next(&c);
		if (err < 0)
			goto out;
		if (err > 0) {
			todo += (size_t)err;
			goto again;
		}
	}
	tunables_restore(&tu);
	ret = write_reports(dir, 1) ? 1 : 0;
	if (!ret) {
		printf("\nmarkdown report: %s/report.md\n", dir);
		if (failed && !campaign_ok_runs(&c)) {
			kb_error("every run of the campaign failed (reasons in "
				 "the report and in each run's metrics.json); "
				 "nothing was measured");
			ret = 1;
		} else if (campaign_failed_runs(&c)) {
			kb_warn("%zu run(s) of this campaign failed (%zu in "
				"this session); see the report (exit status 4)",
				campaign_failed_runs(&c), failed);
			ret = 4;
		}
		if (skipped_variant) {
			driver_explain_skipped(&c.cfg);
			if (!ret)	/* 1 > 4 > 3 */
				ret = 3;
		}
	}
out:
	if (tunables_restore(&tu))
		ret = 1;
	tunables_free(&tu);
	if (have_target)
		target_close(&t);
	campaign_close(&c);
	if (lock_fd >= 0)
		close(lock_fd);
	free(todo_mask);
	free(dir);
	return ret;
}
