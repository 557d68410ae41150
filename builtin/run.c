/* builtin/run.c - `kbench run`: its options, then campaign_run()
 * (runner/campaign_run.h: the run loop) on the campaign directory. */
#include "builtin/builtin.h"
#include "runner/accel.h"
#include "runner/campaign_run.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"
#include "runner/drivers.h"
#include "runner/plan.h"
#include "parsers/kconf.h"
#include "results/paths.h"

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
"  -o, --output DIR    campaign directory (default: results/<conf name>,\n"
"                      with --shard results/<conf name>/shard-K)\n"
"      --retry-failed  run again the runs recorded as failed (each kept\n"
"                      first as runs/.../NNN.superseded-K with its files)\n"
"      --shard K/N     run only shard K of N (1 <= K <= N <= 1000): the\n"
"                      timed rounds t (0-based) with t mod N = K-1, plus\n"
"                      every warm-up round; DIR must be this shard's own\n"
"                      (e.g. -o DIR/shard-K).  kbench report on the N\n"
"                      directories merges them into one campaign.  Not\n"
"                      with iterations = auto\n"
"      --add-rounds N  resume DIR with N more interleaved rounds (each\n"
"                      configuration and job once more per round), for a\n"
"                      finished campaign whose CI or MDE is too wide; not\n"
"                      with iterations = auto or --shard\n"
"      --dry-run       print the commands each vm or kexec boot would run\n"
"                      (qemu, kexec) and run nothing; writes nothing (no\n"
"                      campaign files; downloads go to the kernel cache);\n"
"                      exit 4 when a variant's runs would fail\n"
"  -q, --quiet         no progress lines\n"
"      --help-keys     list every kernels.conf key with its value, from\n"
"                      the parser's own table (man kbench(1), KERNELS.CONF)\n"
"  -h, --help          this text\n"
"\n"
"environment: KBENCH_ACCEL=auto|kvm|tcg overrides accel = (vm variants)\n"
"\n"
"exit status: 0 every planned run succeeded; 1 an error, or every run\n"
"failed; 3 runs left for variants that are not running now (boot them\n"
"and run again); 4 the campaign completed with failed runs (a kernel\n"
"that never booted, a fio that crashed: see the report; with\n"
"--dry-run, a variant's runs would fail); 130\n"
"interrupted (run again to resume).  When several apply: 1, then 4,\n"
"then 3.  A push never changes the status.\n");
}

const struct option kb_run_options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "retry-failed", no_argument, NULL, 'r' },
	{ "shard", required_argument, NULL, 's' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "add-rounds", required_argument, NULL, 'A' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help-keys", no_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_run_shortopts[] = "c:o:qh";
const struct kb_arg_spec kb_run_args[] = {
	{ "config", KB_ARG_CONF, NULL },
	{ "output", KB_ARG_DIR, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_run(int argc, char **argv)
{
	const char *conf = "kernels.conf";
	char *dir = NULL, *cj;
	int conf_explicit = 0, retry_failed = 0, o, ret;
	unsigned shard_k = 0, shard_n = 0;

	optind = 1;
	while ((o = getopt_long(argc, argv, kb_run_shortopts, kb_run_options, NULL)) != -1) {
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
		case 's':	/* runner/plan.h: whole rounds per shard */
			if (plan_parse_shard(optarg, &shard_k, &shard_n)) {
				free(dir);
				return 1;
			}
			break;
		case 'A': {	/* runner/adaptive.h adaptive_add_rounds() */
			unsigned long long n;

			if (kb_parse_ull(optarg, 10000, &n, NULL) || n < 1) {
				kb_error("--add-rounds %s: expected a number of "
					 "rounds from 1 to 10000", optarg);
				free(dir);
				return 1;
			}
			kb_run_add_rounds = (unsigned)n;
			break;
		}
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
		case 'K':
			kconf_print_keys(stdout);
			free(dir);
			return 0;
		default:	/* getopt said which option */
			kb_bad_option("run", kb_run_options, argv[optind - 1]);
			free(dir);
			return 1;
		}
	}
	if (kb_no_operands(argc, argv, "run") || accel_env_check()) {
		free(dir);
		return 1;
	}
	if (!dir) {
		dir = kb_conf_results_dir(conf, "");
		if (shard_n) {	/* results/NAME/shard-K: report takes NAME */
			char *d = kb_xasprintf("%s/shard-%u", dir, shard_k);

			free(dir);
			dir = d;
		}
	}

	/* a campaign in dir resumes from its own copy of kernels.conf */
	cj = kb_path_join(dir, "campaign.json");
	if (!kb_exists(cj) && kb_default_conf_missing(conf, conf_explicit,
				"-o DIR to resume a campaign")) {
		free(cj);
		free(dir);
		return 1;
	}
	free(cj);
	ret = campaign_run(dir, conf, conf_explicit, retry_failed, shard_k,
			   shard_n);
	free(dir);
	return ret;
}
