/* runner/campaign_run.c - the run loop of `kbench run` (campaign_run.h).
 *
 * For each planned run not yet done: check the variant, write the
 * tunables (read back), and hand the run to the run engine
 * (runner/run_exec.h) or a batch of runs to the variant's driver
 * (runner/drivers.h: a vm boot, a kexec); record it in state.json; push
 * it when kernels.conf says push =; add rounds while iterations = auto
 * asks (runner/adaptive.h); then write the reports
 * (runner/campaign_reports.h).  SIGINT/SIGTERM (and every other signal
 * whose default ends the process: lib/proc.h kb_stop_signals()) stop
 * after the current run (fio is told to stop and
 * writes its report; the run is not counted and is redone on resume);
 * every tunable is restored on every exit path.
 */
#include "runner/campaign_run.h"
#include "runner/adaptive.h"
#include "runner/retry.h"
#include "runner/campaign_reports.h"
#include "runner/drivers.h"
#include "runner/kexec.h"
#include "runner/run_exec.h"
#include "runner/tunables.h"
#include "results/paths.h"
#include "results/run_metrics.h"
#include "push/push.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	kb_spawn_forward_signal = SIGTERM;
}

static void on_continue(int sig)
{
	(void)sig;
	kb_continued++;
}

/* Write the run's metrics.json record to mpath (results/run_metrics.h),
 * stamped with id and the kernel it ran on: "kernel_release" (uname
 * -r), "proc_version" (/proc/version: the build, as two builds can share
 * a release) and, for a method = kexec variant, "kexec" (the boot that
 * made it the variant, runner/kexec.h).  A vm guest records its own
 * (guest_kernel, guest_proc_version: builtin/guest.c).  0 or -errno. */
static int write_metrics(const char *mpath, struct json_t *result,
			 const struct results_run_ident *id,
			 const struct kb_variant *v)
{
	struct utsname u;
	char *pv = NULL;
	struct kb_kexec_run_info kx;
	struct results_run_kernel k = { 0 };
	int ret;

	if (uname(&u) == 0)
		k.release = u.release;
	if (!kb_read_file("/proc/version", &pv, NULL, 1)) {
		pv[strcspn(pv, "\n")] = '\0';
		k.proc_version = pv;
	}
	if (kexec_run_info(v, &kx))
		k.kexec = &kx;
	ret = results_metrics_write(mpath, result, id, &k);
	if (k.kexec)
		kexec_run_info_free(&kx);
	free(pv);
	return ret;
}

/* A signal while the reports were written: they may lack graphs, so
 * report.md goes (campaign_reports_current() then does not take them for
 * current) and it is said; the exit status, 130. */
static int reports_interrupted(const char *dir)
{
	char *md = kb_path_join(dir, "report.md");

	unlink(md);
	free(md);
	kb_info("interrupted by signal %d while writing the reports; every "
		"run is recorded: kbench report %s, or the same command again, "
		"writes them", (int)stop_signal, dir);
	return 130;
}

/* What a resume of c will find to do here: the runs without a record
 * (a round run again after a disturbed run is to do again, its earlier
 * runs kept as superseded) of the variants this kernel runs.  The
 * interrupt's and the full disk's messages count with it. */
static size_t runs_left(const struct kb_campaign *c, int retry_failed)
{
	size_t i, left = 0;

	for (i = 0; i < c->plan.nruns; i++)
		left += campaign_run_todo(c, c->plan.runs[i].key,
					  retry_failed) &&
			driver_variant_ready(&c->cfg, c->plan.configs[
				c->plan.runs[i].config].variant);
	return left;
}

unsigned kb_run_add_rounds;

int campaign_run(const char *dir, const char *conf, int conf_explicit,
		 int retry_failed, unsigned shard_k, unsigned shard_n)
{
	int ret = 1, err;
	int lock_fd = -1, dir_made = 0, lock_made = 0;
	char *made_top = NULL;
	int drop_warned = 0, have_target = 0, guests = 0;
	size_t i, todo = 0, done = 0, failed = 0, skipped_variant = 0;
	size_t todo_local = 0;	/* runs in this kernel (not vm/kexec boots) */
	struct kb_campaign c;
	struct kb_target t;
	struct kb_tunables tu;
	struct sigaction sa;
	unsigned char *todo_mask = NULL;
	double t0, eta;
	char eb[32], sb[48] = "", lb[KB_ITER_LABEL_MAX], *snap;
	int ret_safety;

	memset(&tu, 0, sizeof(tu));
	memset(&t, 0, sizeof(t));
	memset(&c, 0, sizeof(c));

	/* before anything that a Ctrl-C could leave half done */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* and every other signal whose default is to end the process
	 * (lib/proc.h kb_stop_signals(): kill -USR1 left nomerges set, as
	 * kill -9 does; so did SIGXCPU of `ulimit -t`, SIGPWR and kill
	 * -RTMIN, a break-it trial); `kbench run | tee log` or `| head`:
	 * the reader gone (a Ctrl-C reaches it too) must not kill kbench
	 * before it restores the tunables (SIGPIPE; writes fail with EPIPE
	 * from here on) */
	{
		sigset_t stops;
		int s;

		kb_stop_signals(&stops);
		for (s = 1; s < NSIG; s++)
			if (sigismember(&stops, s) == 1)
				sigaction(s, &sa, NULL);
	}
	/* Ctrl-Z stops kbench, not fio (its own process group): the run
	 * it happened in is known by the SIGCONT that goes on after it
	 * (runner/run_exec.c, parsers/run_dir.c) */
	sa.sa_handler = on_continue;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCONT, &sa, NULL);

	/* kbench's own variables for fio, never the caller's: a
	 * KBENCH_TARGET_1 in kbench's environment named a local job's
	 * file (a break-it trial) */
	for (i = 0; environ[i];) {
		if (!strncmp(environ[i], "KBENCH_TARGET", 13) ||
		    !strncmp(environ[i], "KBENCH_SIZE", 11)) {
			char *name = kb_xstrdup(environ[i]), *eq;

			eq = strchr(name, '=');
			if (eq) {
				*eq = '\0';
				unsetenv(name);
			}
			free(name);
			if (eq)
				continue;	/* environ[i]: the next one */
		}
		i++;
	}
	/* a directory of the user's is refused before anything is made or
	 * removed in it (the lock, a dead kbench's temporary files) */
	if (campaign_dir_check(dir))
		goto out;
	/* and a machine directory kbench may not use (KBENCH_RUN_DIR),
	 * before the campaign or a record is made (a break-it trial found
	 * targets/, tunables/ and the campaign left behind) */
	if (kb_machine_dir_check())
		goto out;
	if (kb_run_add_rounds) {
		char *cj = kb_path_join(dir, "campaign.json");
		int exists = kb_exists(cj);

		free(cj);
		if (!exists) {
			kb_error("--add-rounds extends a campaign that exists: "
				 "%s holds none (give -o DIR of one, or raise "
				 "iterations = in kernels.conf)", dir);
			goto out;
		}
	}
	made_top = campaign_first_missing(dir);
	dir_made = made_top != NULL;
	{
		char *lp = kb_path_join(dir, ".lock");

		lock_made = !kb_exists(lp);
		free(lp);
	}
	/* --dry-run writes nothing: no lock file, no campaign files */
	lock_fd = kb_driver_dry_run ? -1 : campaign_lock(dir);
	if (lock_fd < 0 && !kb_driver_dry_run)
		goto out;
	if (campaign_open_shard(&c, dir, conf, conf_explicit, shard_k,
				shard_n) ||
	    adaptive_sync_plan(&c))	/* iterations = auto: added rounds */
		goto out;
	if (kb_run_add_rounds) {
		if (kb_driver_dry_run) {
			kb_info("--dry-run: %u round(s) would be added",
				kb_run_add_rounds);
		} else if (adaptive_add_rounds(&c, kb_run_add_rounds)) {
			goto out;
		}
	}
	if (c.shard_n)
		snprintf(sb, sizeof(sb), " (shard %u/%u)", c.shard_k, c.shard_n);
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

	/* pushes that failed earlier (push-queue.json) are sent now; never
	 * changes the exit status (push/push.h) */
	if (!kb_driver_dry_run)	/* the credentials only to the -c conf's */
		push_send_queued(dir, conf_explicit ? c.cfg.push_url : NULL);

	/* --retry-failed: the failed runs' files kept aside, not
	 * overwritten (their fio.stderr is the failure's evidence) */
	if (retry_failed && !kb_driver_dry_run) {
		if (retry_failed_supersede(&c) < 0)
			goto out;
		/* done: the failed runs are out of the state, to do as
		 * any other; a run that fails again now is recorded as
		 * failed and stays so (a break-it trial: a disturbed round
		 * sent the loop back to the start and the run failed minutes
		 * before ran again, its directory and its failure
		 * overwritten, "[5/4]") */
		retry_failed = 0;
	}

	/* which runs are left, and can the running kernel do them? */
count:
	todo = todo_local = skipped_variant = 0;
	free(todo_mask);
	todo_mask = kb_xcalloc(c.plan.nruns + 1, 1);
	for (i = 0; i < c.plan.nruns; i++) {
		const struct kb_run *r = &c.plan.runs[i];

		if (!campaign_run_todo(&c, r->key, retry_failed))
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
	    !kb_driver_dry_run && !c.state.has_adaptive) {
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
		ret = kb_driver_dry_run || campaign_reports_current(dir) ? 0 :
		      (campaign_write_reports(dir, 0, campaign_plots_for(&c.plan,
				c.cfg.njobs, c.cfg.plot_png)) ? 1 : 0);
		if (stop_signal) {
			ret = reports_interrupted(dir);
			goto out;
		}
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

	/* vm/kexec batches set their target up in their own kernel; what
	 * a job file may do is checked for all */
	snap = kb_path_join(c.dir, "profiles");
	ret_safety = campaign_check_job_safety(&c.cfg, kb_exists(snap) ?
					       c.dir : NULL, todo_local &&
					       !kb_driver_dry_run);
	free(snap);
	if (ret_safety ||
	    (todo_local && !kb_driver_dry_run &&
	     (tunables_restore_orphans() || target_open(&c.cfg, dir, &t)))) {
		/* Ctrl-C while a loop target's file was filled: target_fill()
		 * stops at once (a break-it trial: 7 s for 2 GiB) */
		if (stop_signal) {
			kb_info("interrupted by signal %d while the target was "
				"made ready, before any run; run the same "
				"command again to resume", (int)stop_signal);
			ret = 130;
		}
		goto out;
	}
	have_target = todo_local > 0 && !kb_driver_dry_run;
	if (have_target && (tunables_init(&tu, &c.cfg, &t, dir) ||
			    tunables_probe(&tu, &c.cfg)))
		goto out;

	kb_info("%s campaign %s%s: %zu of %zu runs to do on %s%s, about %s",
		kb_driver_dry_run ? (c.resumed ? "dry run: would resume" :
		"dry run: would start") : c.resumed ? "resuming" : "starting",
		dir, sb, todo, c.plan.nruns,
		have_target ? t.path : "the variants' kernels",
		t.kind == KB_TARGET_LOOP ? (t.direct_io ?
		" (loop, direct I/O)" : " (loop, buffered)") : "",
		plan_fmt_duration(plan_estimate_total_s(&c.cfg, &c.plan,
			todo_mask, dir), eb, sizeof(eb)));
	t0 = (double)time(NULL);
	/* a vm variant's 9p guest writes the campaign directory */
	for (i = 0; i < c.cfg.nvariants && !guests; i++) {
		const struct kb_driver *d = driver_of(&c.cfg.variants[i]);

		guests = d && (d->flags & KB_DRIVER_ACCEL);
	}
again:
	for (i = 0; i < c.plan.nruns && !stop_signal; i++) {
		const struct kb_run *r = &c.plan.runs[i];
		const struct kb_configuration *k = &c.plan.configs[r->config];
		struct json_t *result = NULL;
		struct results_run_ident id = {
			.configuration = k->id, .job = c.cfg.jobs[r->job],
			.iteration = r->iteration, .warmup = r->warmup };
		char *rdir, *mpath;

		if (!campaign_run_todo(&c, r->key, retry_failed))
			continue;
		if (!driver_variant_ready(&c.cfg, k->variant))
			continue;
		if (driver_batch(&c.cfg, k->variant)) {
			/* vm / kexec: this run and the next ones of the same
			 * variant on one boot (runner/drivers.h) */
			size_t nb = 0, nf = 0, j, first = i;

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
				push_after_run(dir, c.cfg.push_url, NULL,
					       conf_explicit);
			if (err)
				goto out;
			/* retry_disturbed: the rounds (order = block: runs)
			 * this boot closed, each judged on its own */
			for (j = first, nb = 0; j <= i && !stop_signal;
			     j++) {
				err = retry_disturbed_round(&c, j);
				if (err < 0)
					goto out;
				nb += (size_t)err;
			}
			if (nb) {
				retry_wait_quiet(&c, &stop_signal);
				todo += nb;
				goto again;
			}
			continue;
		}
		if (kb_driver_dry_run)
			continue;
		eta = done ? ((double)time(NULL) - t0) / done * (todo - done) :
			plan_estimate_s(&c.cfg, todo);
		kb_info("[%zu/%zu] %s %s iteration %s%s  (ETA %s)", done + 1,
			todo, k->id, c.cfg.jobs[r->job], kb_iteration_label(
				r->iteration, c.cfg.warmup, lb),
			r->warmup ? " (warm-up)" : r->extra == KB_RUN_PROFILING ?
			" (profiling run, not counted)" : r->extra ?
			" (unsampled run, not counted)" : "",
			plan_fmt_duration(eta, eb, sizeof(eb)));
		if (guests) {
			/* a 9p guest of a vm variant could write the campaign
			 * directory: a link it left on this run's path is not
			 * followed by root's writes (as driver_vm.c's) */
			if (kb_run_dir_linked(dir, r->key)) {
				char *why = kb_xasprintf("a symbolic link (or a "
					"file) is on the path of %s/" KB_RUNS_DIR
					"/%s (a vm variant's guest can write the "
					"campaign directory); nothing written "
					"there, the run not counted", dir,
					r->key);

				err = campaign_record_result(&c, r->key,
							     "failed", why,
							     &failed);
				free(why);
				if (err)
					goto out;
				done++;
				continue;
			}
		}
		if (tunables_apply(&tu, &c.cfg, k))
			goto out;
		rdir = kb_run_dir(dir, r->key);
		if (kb_mkdir_p(rdir)) {
			free(rdir);
			goto out;
		}
		/* the run's files without fsyncs, then one syncfs before
		 * state.json records it (lib/file.h's durability rule) */
		kb_sync_defer_begin();
		err = do_run(&c, r, &t, &tu, rdir, &result, &drop_warned);
		if (err || stop_signal) {
			/* stopped early: not a measurement, nothing recorded */
			kb_sync_defer_end(rdir);
			results_metrics_free(result);
			free(rdir);
			if (err)
				goto out;
			break;
		}
		mpath = kb_path_join(rdir, "metrics.json");
		err = write_metrics(mpath, result, &id,
				    &c.cfg.variants[k->variant]);
		if (!kb_sync_defer_end(rdir) && !err)
			err = campaign_record_result(&c, r->key,
				results_metrics_status(result),
				results_metrics_reason(result), &failed);
		else if (!err)
			err = -EIO;
		results_metrics_free(result);
		free(mpath);
		free(rdir);
		if (err)
			goto out;
		if (c.cfg.push_url)	/* never fails the run: queued if need be */
			push_after_run(dir, c.cfg.push_url, r->key,
				       conf_explicit);
		done++;
		/* retry_disturbed: a round with a disturbed run again */
		err = retry_disturbed_round(&c, i);
		if (err < 0)
			goto out;
		if (err > 0) {
			retry_wait_quiet(&c, &stop_signal);
			todo += (size_t)err;
			goto again;
		}
	}

	if (stop_signal) {
		/* todo counts a retried round's runs again, as runs_left()
		 * does (a break-it trial: "7 of the 2 runs to do are left
		 * (3 run(s) ran)", from the count at the start) */
		kb_info("interrupted by signal %d: %zu of the %zu runs to do "
			"are left (%zu run(s) ran); run the same command "
			"again to resume", (int)stop_signal,
			runs_left(&c, retry_failed), todo, done);
		ret = 130;
		goto out;
	}
	if (kb_driver_dry_run) {	/* nothing ran */
		size_t vi;

		for (vi = 0; vi < c.cfg.nvariants; vi++)
			if (strcmp(c.cfg.variants[vi].method, "local"))
				break;
		if (vi == c.cfg.nvariants)
			printf("# --dry-run: every variant is method = local, "
			       "so there is no boot command to show; the "
			       "runs to do are fio on this kernel (kbench plan "
			       "lists them)\n");
		/* a plan that would fail some runs is not a clean one */
		ret = kb_driver_dry_failures ? 4 : 0;
		if (ret)
			kb_warn("--dry-run: the runs of %d variant boot(s) "
				"would fail (the lines starting '# ... its runs "
				"would fail' say why): exit status 4",
				kb_driver_dry_failures);
		goto out;
	}
	/* iterations = auto: another interleaved round while a compared
	 * metric's CI is wider than target_ci_pct (runner/adaptive.h); it
	 * starts at once, as every round does (a retry of a disturbed
	 * round waits for a quiet moment, retry_quiet_wait: the 1-s look
	 * at the machine before each added round made an adaptive
	 * campaign 16% slower than a fixed one of as many rounds) */
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
	/* no graphs for a one-run campaign: nothing to compare */
	ret = campaign_write_reports(dir, 1, campaign_plots_for(&c.plan,
			c.cfg.njobs, c.cfg.plot_png)) ? 1 : 0;
	if (stop_signal) {
		ret = reports_interrupted(dir);
		goto out;
	}
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
	if (ret && ret != 130 && c.dir && !kb_driver_dry_run) {
		/* a full disk stopped it (the error named the file): what
		 * to do, and that the recorded runs are safe */
		struct statvfs sv;

		if (!statvfs(dir, &sv) &&
		    (unsigned long long)sv.f_bavail * sv.f_frsize < 4ULL << 20)
			kb_error("%s: its file system is full (%llu KiB free): "
				 "stopped with %zu of the %zu runs to do left "
				 "(%zu run(s) ran), each done run recorded; "
				 "free space (or move the directory) and run "
				 "the same command again to resume",
				 dir, (unsigned long long)sv.f_bavail *
				 sv.f_frsize >> 10, runs_left(&c, retry_failed),
				 todo, done);
	}
	if (have_target)
		target_close(&t);
	campaign_close(&c);
	if (lock_fd >= 0) {
		/* a start refused before campaign.json (a conf missing or
		 * wrong): the lock it made goes, and the directory when this
		 * start made it (with the conf and job files it copied);
		 * unlinked while still locked (campaign_lock() checks that
		 * the file it locked is still the one named) */
		char *cj = kb_path_join(dir, "campaign.json");

		if (!kb_exists(cj) && (lock_made || dir_made))
			campaign_unmake(dir, dir_made);
		free(cj);
		close(lock_fd);
		/* and the directories above it that kb_mkdir_p() made */
		if (made_top && !kb_exists(dir)) {
			char *p = kb_xstrdup(dir), *sl;

			while (strcmp(p, made_top) && (sl = strrchr(p, '/')) &&
			       sl != p) {
				*sl = '\0';
				if (sl[1] && rmdir(p) < 0)
					break;	/* not empty: not only ours */
			}
			free(p);
		}
	}
	free(made_top);
	free(todo_mask);
	return ret;
}
