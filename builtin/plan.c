/* builtin/plan.c - `kbench plan`: the run order, count and ETA. */
#include "builtin/builtin.h"
#include "lib/err.h"
#include "runner/accel.h"
#include "runner/drivers.h"
#include "runner/campaign.h"
#include "runner/plan.h"
#include "runner/calibrate.h"
#include "runner/target.h"
#include "runner/tunables.h"
#include "runner/adaptive.h"
#include "lib/file.h"
#include "lib/str.h"
#include "results/paths.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench plan [-c kernels.conf] [--runs] [--shard K/N]\n"
"       kbench plan -o DIR [--runs]\n"
"\n"
"Print what `kbench run` would do with kernels.conf: the configurations,\n"
"the number of runs, the estimated duration (runtime, or a job file's\n"
"time_based runtime= + ramp_time= + startdelay=, + %.0f s per run), the\n"
"directory of the job files and why it was chosen (profiles = in\n"
"kernels.conf, KBENCH_PROFILES, profiles/ next to kernels.conf, beside the\n"
"kbench binary, the install prefix) and, with --runs, every run in order.\n"
"Runs nothing, needs no root.\n"
"\n"
"With -o DIR, an existing campaign (one kbench run stopped, or that ran\n"
"in another kernel): how many of its runs are done, failed and left, the\n"
"ETA of what is left (with this campaign's measured boot times), and with\n"
"--runs each run's state; it reads DIR and writes nothing there.\n"
"\n"
"options:\n"
"  -c, --config FILE   campaign description (default: ./kernels.conf;\n"
"                      with -o, it must be the one DIR was made from)\n"
"  -o, --output DIR    an existing campaign: what is done and left\n"
"  -r, --runs          list every run in execution order: its key\n"
"                      (CONFIGURATION/JOB/NNN, NNN the round index,\n"
"                      warm-ups first from 000) and its iteration (1..N\n"
"                      counted, w1..wW warm-ups)\n"
"      --shard K/N     only what `kbench run --shard K/N` runs (its timed\n"
"                      rounds and every warm-up round; with -o, the shard\n"
"                      DIR recorded)\n"
"  -h, --help          this text\n"
"\n"
"A block-device target is checked as kbench run checks it (exists, is a\n"
"block device, is not mounted, swap or held), and a file: target's\n"
"directory exists; loop: and null_blk targets are made by kbench run.\n"
"\n"
"exit status: 0 printed; 1 an error (a bad option, kernels.conf, a missing\n"
"job file, a target kbench run would refuse, DIR not a campaign: the\n"
"message says which).\n", KB_RUN_OVERHEAD_S);
}

/* calibration = FILE: what it measured and the rounds it asks for */
static void print_calibration_use(const struct kb_config *cfg,
				  const struct kb_calibration *cal)
{
	char a[32], b[32];
	/* the file's text, a control character as '?' (an ESC in its
	 * baseline reached the terminal) */
	char *base = kb_xstr_shown(cal->baseline, "");

	printf("calibration %s (A/A of %s, %u rounds): analysis %s; rounds "
	       "needed%s%s%s: %s for an MDE <= max_mde, %s for an MDE <= "
	       "min_effect\n", cfg->calibration, base, cal->rounds,
	       cal->analysis, cal->totals_targeted ? " (target_metrics = " : "",
	       cal->totals_targeted ? cfg->target_metrics : "",
	       cal->totals_targeted ? ")" : "",
	       calibrate_rounds_str(cal->rounds_max_mde, a, sizeof(a)),
	       calibrate_rounds_str(cal->rounds_min_effect, b, sizeof(b)));
	free(base);
	if (cfg->iterations_auto && (!cal->rounds_max_mde ||
				     cal->rounds_max_mde > cfg->max_iterations))
		printf("iterations = auto starts at %u rounds: max_iterations, "
		       "fewer than the %s rounds needed for max_mde: expect "
		       "underpowered verdicts\n", cfg->iterations,
		       calibrate_rounds_str(cal->rounds_max_mde, a, sizeof(a)));
	else if (cfg->iterations_auto &&
		 cal->rounds_max_mde < cfg->min_iterations)
		printf("iterations = auto starts at %u rounds: min_iterations "
		       "(%u would do for max_mde)\n", cfg->iterations,
		       cal->rounds_max_mde);
	else if (cfg->iterations_auto)
		printf("iterations = auto starts at %u rounds, the rounds "
		       "needed for max_mde (within min_iterations = %u .. "
		       "max_iterations = %u)\n", cfg->iterations,
		       cfg->min_iterations, cfg->max_iterations);
	else if (!cal->rounds_max_mde || cfg->iterations < cal->rounds_max_mde)
		printf("iterations = %u is fewer than the rounds needed: "
		       "expect underpowered verdicts\n", cfg->iterations);
}

/* plan -o DIR: what is done and left of the campaign in DIR, read with
 * kbench run's own opening (campaign_open_shard()) in dry-run mode, so
 * nothing is written there (runner/drivers.h kb_driver_dry_run).  conf:
 * the -c given, or NULL.  0 printed, 1 an error (said). */
static int plan_campaign(const char *dir, const char *conf, int list,
			 unsigned shard_k, unsigned shard_n)
{
	struct kb_campaign c;
	char *cj = kb_path_join(dir, "campaign.json");
	unsigned char *todo;
	size_t i, nok = 0, nfailed = 0, nleft = 0, nother = 0;
	char eb[32], lb[KB_ITER_LABEL_MAX];
	int is_campaign = kb_exists(cj);
	long running;

	free(cj);
	if (!is_campaign && !kb_is_dir(dir)) {
		kb_error("%s%s; kbench plan -o takes a campaign's directory "
			 "(kbench run -o DIR makes one), and kbench plan -c "
			 "kernels.conf shows what a new one would do", dir,
			 kb_exists(dir) ? " is not a directory" :
			 ": no such directory");
		return 1;
	}
	if (!is_campaign) {
		kb_error("%s is not a kbench campaign (no campaign.json); "
			 "kbench plan -c kernels.conf shows what a new one "
			 "would do", dir);
		return 1;
	}
	memset(&c, 0, sizeof(c));
	kb_driver_dry_run = 1;
	if (campaign_open_shard(&c, dir, conf ? conf : "kernels.conf",
				conf != NULL, shard_k, shard_n) ||
	    adaptive_sync_plan(&c)) {
		campaign_close(&c);
		return 1;
	}
	/* what kbench run -o DIR would refuse before its next run: the
	 * snapshot's job files, the target (a break-it trial: plan said
	 * "kbench run -o DIR resumes it" for a snapshot with exec_prerun
	 * added and for a loop device detached since) */
	for (i = 0; i < c.cfg.nvariants && driver_batch(&c.cfg, i); i++)
		;
	if ((i < c.cfg.nvariants && target_check(&c.cfg)) ||
	    campaign_check_job_safety(&c.cfg, dir, i < c.cfg.nvariants)) {
		campaign_close(&c);
		return 1;
	}
	todo = kb_xcalloc(c.plan.nruns + 1, 1);
	for (i = 0; i < c.plan.nruns; i++) {
		const struct kb_run_record *st =
			campaign_run_state(&c, c.plan.runs[i].key);

		if (st && !strcmp(st->status, "ok")) {
			nok++;
		} else if (st) {
			nfailed++;
		} else {
			todo[i] = 1;
			nleft++;
			if (!driver_variant_ready(&c.cfg,
				c.plan.configs[c.plan.runs[i].config].variant))
				nother++;
		}
	}
	printf("campaign %s%s: %zu runs planned: %zu done (%zu ok, %zu "
	       "failed), %zu left", dir, c.resumed ? "" : " (not started)",
	       c.plan.nruns, nok + nfailed, nok, nfailed, nleft);
	if (nleft)
		printf(", about %s", plan_fmt_duration(plan_estimate_total_s(
		       &c.cfg, &c.plan, todo, dir), eb, sizeof(eb)));
	printf("\n");
	if (c.shard_n)
		printf("shard %u/%u of the campaign\n", c.shard_k, c.shard_n);
	if (nother)
		printf("%zu of the runs left are for a method = local "
		       "variant that is not the running kernel: boot it, then "
		       "kbench run -o %s\n", nother, dir);
	if (nfailed)
		printf("kbench run -o %s --retry-failed runs the %zu failed "
		       "run(s) again\n", dir, nfailed);
	if (!nleft)
		printf("nothing left to run: kbench report %s renders the "
		       "tables\n", dir);
	else if ((running = campaign_running_pid(dir)) > 0)
		printf("a kbench (PID %ld) is running it now\n", running);
	else
		printf("kbench run -o %s resumes it\n", dir);
	if (c.cfg.iterations_auto)
		printf("iterations = auto: rounds may be added up to "
		       "max_iterations = %u while a compared metric's CI is "
		       "wider than +-%g%%\n", c.cfg.max_iterations,
		       c.cfg.target_ci_pct);
	if (list)
		for (i = 0; i < c.plan.nruns; i++) {
			const struct kb_run *r = &c.plan.runs[i];
			const struct kb_run_record *st =
				campaign_run_state(&c, r->key);

			printf("%5zu  %-7s %s  (%s %s%s)\n", i + 1,
			       st ? st->status : "to do", r->key,
			       r->warmup ? "warm-up" : "iteration",
			       kb_iteration_label(r->iteration, c.cfg.warmup,
						  lb),
			       r->extra == KB_RUN_PROFILING ?
			       ": profiling run, not counted" : r->extra ?
			       ": unsampled run, not counted" : "");
		}
	free(todo);
	campaign_close(&c);
	return 0;
}

const struct option kb_plan_options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "runs", no_argument, NULL, 'r' },
	{ "shard", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_plan_shortopts[] = "c:o:rh";
const struct kb_arg_spec kb_plan_args[] = {
	{ "config", KB_ARG_CONF, NULL },
	{ "output", KB_ARG_CAMPAIGN, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_plan(int argc, char **argv)
{
	const char *conf = "kernels.conf", *outdir = NULL;
	int conf_given = 0;
	struct kb_config cfg;
	struct kb_plan plan;
	struct kb_calibration cal;
	int o, list = 0, calibrated;
	unsigned shard_k = 0, shard_n = 0;
	size_t i;
	char eb[32], lb[KB_ITER_LABEL_MAX];
	size_t boots, total;

	optind = 1;
	while ((o = getopt_long(argc, argv, kb_plan_shortopts, kb_plan_options, NULL)) != -1) {
		switch (o) {
		case 'c':
			conf = optarg;
			conf_given = 1;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'r':
			list = 1;
			break;
		case 's':
			if (plan_parse_shard(optarg, &shard_k, &shard_n))
				return 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:	/* getopt said which option */
			kb_bad_option("plan", kb_plan_options, argv[optind - 1]);
			return 1;
		}
	}
	if (kb_no_operands(argc, argv, "plan"))
		return 1;
	/* as kbench run (plan estimated boots under KVM for a
	 * KBENCH_ACCEL=bogus) */
	if (accel_env_check())
		return 1;
	if (outdir)
		return plan_campaign(outdir, conf_given ? conf : NULL, list,
				     shard_k, shard_n);
	if (kb_default_conf_missing(conf, conf_given, NULL) ||
	    kconf_load(conf, &cfg))
		return 1;
	calibrated = calibrate_apply(&cfg, &cal);	/* iterations = auto */
	/* the target as kbench run would find it, when a variant runs in
	 * this kernel (vm and kexec variants set theirs up in their own) */
	for (i = 0; i < cfg.nvariants && driver_batch(&cfg, i); i++)
		;
	if (calibrated < 0 || campaign_check_jobs(&cfg) ||
	    (i < cfg.nvariants && target_check(&cfg)) ||
	    campaign_check_job_safety(&cfg, NULL, i < cfg.nvariants) ||
	    (i < cfg.nvariants && tunables_check_absolute(&cfg)) ||
	    plan_build(&cfg, &plan)) {
		results_calibration_free(&cal);
		kconf_free(&cfg);
		return 1;
	}
	campaign_job_run_s(&cfg);	/* the ETA's */
	total = plan.nruns;
	/* the plan is built: freed too on a refused calibration (ASan
	 * reported its leak after the refusal, a break-it trial) */
	if ((calibrated > 0 && plan_check_calibration(&cfg, &plan, &cal)) ||
	    (shard_n && plan_shard(&cfg, &plan, shard_k, shard_n))) {
		plan_free(&plan);
		results_calibration_free(&cal);
		kconf_free(&cfg);
		return 1;
	}
	boots = plan_count_boots(&cfg, &plan, NULL);
	printf("campaign %s: %zu configuration(s) x %zu job(s) x (%u warm-up "
	       "+ %u iterations", conf, plan.nconfigs, cfg.njobs, cfg.warmup,
	       cfg.iterations);
	if (plan_extra_runs(&cfg))	/* runner/plan.h */
		printf(" x (1 + %u %s)", plan_extra_runs(&cfg),
		       cfg.profile_during_counted ? "unsampled" : "profiling");
	printf(") = %zu runs of %u s", total, cfg.runtime_s);
	if (shard_n) {
		unsigned it, first = 1;

		printf("\nshard %u/%u: %zu runs, iterations", shard_k, shard_n,
		       plan.nruns);
		for (it = 0; it < cfg.warmup + cfg.iterations; it++) {
			unsigned s = plan_shard_of(&cfg, it, shard_n);

			if (s && s != shard_k)
				continue;
			printf("%s%s%s", first ? " " : ", ",
			       kb_iteration_label(it, cfg.warmup, lb),
			       s ? "" : " (warm-up, on every shard)");
			first = 0;
		}
	}
	if (boots)
		printf(" in %zu boots (about %.0f s each)", boots,
		       plan_boots_s(&cfg, &plan, NULL, NULL) / boots);
	printf(", about %s\n", plan_fmt_duration(plan_estimate_total_s(&cfg,
		&plan, NULL, NULL), eb, sizeof(eb)));
	for (i = 0; i < cfg.njobs; i++)
		if (plan_job_run_s(&cfg, i) != cfg.runtime_s)
			printf("job '%s' runs %g s, not runtime = %u: its job "
			       "file's runtime=, ramp_time= or startdelay= "
			       "(counted above)\n", cfg.jobs[i],
			       plan_job_run_s(&cfg, i), cfg.runtime_s);
	if (cfg.iterations_auto && cfg.iterations < cfg.max_iterations) {
		/* from where it starts (min_iterations, or the calibration's
		 * rounds: calibrate_apply()) to max_iterations, each round
		 * with its profiling runs */
		size_t per = plan.nconfigs * cfg.njobs;
		size_t most = per * (cfg.warmup + (size_t)cfg.max_iterations *
				     (1 + plan_extra_runs(&cfg)));

		printf("iterations = auto: %u to %u iterations, a round added "
		       "while a compared metric's 95%% CI of the change is "
		       "wider than +-%g%%: %zu to %zu runs, about %s at most\n",
		       cfg.iterations, cfg.max_iterations, cfg.target_ci_pct,
		       total, most, plan_fmt_duration(plan_estimate_s(&cfg,
		       most), eb, sizeof(eb)));
	} else if (cfg.iterations_auto) {
		printf("iterations = auto: starts at max_iterations = %u: no "
		       "round can be added\n", cfg.max_iterations);
	}
	if (calibrated > 0)
		print_calibration_use(&cfg, &cal);
	printf("order: %s; baseline: %s\n", cfg.order == KB_ORDER_BLOCK ?
	       "block" : cfg.order == KB_ORDER_RANDOM ? "random" : "interleave",
	       plan.configs[plan.baseline].id);
	for (i = 0; i < cfg.nprofiles_places; i++)
		if (!strcmp(cfg.profiles_places[i].dir, cfg.profiles_dir))
			printf("job files: %s (%s)\n", cfg.profiles_dir,
			       cfg.profiles_places[i].source);
	for (i = 0; i < plan.nconfigs; i++)
		printf("  %s%s\n", plan.configs[i].id,
		       driver_variant_ready(&cfg, plan.configs[i].variant) ? "" :
		       "  (not the running kernel: needs a reboot)");
	/* the key keeps the round index; the reader's number beside it
	 * (results/paths.h kb_iteration_label(): 1..N, warm-ups w1..) */
	if (list)
		for (i = 0; i < plan.nruns; i++)
			printf("%5zu  %s  (%s %s%s)\n", i + 1, plan.runs[i].key,
			       plan.runs[i].warmup ? "warm-up" : "iteration",
			       kb_iteration_label(plan.runs[i].iteration,
						  cfg.warmup, lb),
			       plan.runs[i].extra == KB_RUN_PROFILING ?
			       ": profiling run, not counted" :
			       plan.runs[i].extra ?
			       ": unsampled run, not counted" : "");
	plan_free(&plan);
	results_calibration_free(&cal);
	kconf_free(&cfg);
	return 0;
}
