/* builtin/calibrate.c - `kbench calibrate`: an A/A campaign of the
 * baseline configuration (runner/calibrate.h) and what it says. */
#include "builtin/builtin.h"
#include "runner/calibrate.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"
#include "results/paths.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench calibrate [-c kernels.conf] [-o DIR] [--rounds N]\n"
"\n"
"Measure how noisy this machine is for kernels.conf's baseline: an A/A\n"
"campaign (two identical copies of the baseline configuration, copy1 and\n"
"copy2, each run once per round, positions rotating; disturbed rounds\n"
"retried as retry_disturbed says) in DIR/aa, then print per compared\n"
"metric the CV of each copy, the share of disturbed runs, whether the\n"
"paired-by-round analysis or Welch fits (Welch when the copies' values\n"
"are significantly anti-correlated: the within-round differences then\n"
"vary more than the two copies together; Pearson's r of the log values,\n"
"one-sided t-test at alpha), and the rounds a comparison needs for a\n"
"minimum detectable effect (80%% power) within max_mde and within\n"
"min_effect.  Writes DIR/calibration.json; `calibration =\n"
"DIR/calibration.json` in kernels.conf makes `kbench plan` print the\n"
"rounds needed and iterations = auto start there.  Running it again on\n"
"DIR resumes the A/A campaign.  Needs root (like kbench run).\n"
"\n"
"options:\n"
"  -c, --config FILE   campaign description (default: ./kernels.conf)\n"
"  -o, --output DIR    where the A/A campaign and calibration.json go\n"
"                      (default: results/<conf name>-calibration)\n"
"  -n, --rounds N      rounds of the A/A campaign, 3..%d (default %d)\n"
"  -q, --quiet         no progress lines\n"
"  -h, --help          this text\n"
"\n"
"exit status: 0 calibrated; 1 an error (kernels.conf, a failed campaign,\n"
"nothing measured); 3 the baseline's kernel is not the running one (boot\n"
"it and run again); 130 interrupted (run again to resume).\n",
		KB_CALIB_MAX_ROUNDS, KB_CALIB_DEFAULT_ROUNDS);
}

const struct option kb_calibrate_options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "rounds", required_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_calibrate_shortopts[] = "c:o:n:qh";
const struct kb_arg_spec kb_calibrate_args[] = {
	{ "config", KB_ARG_CONF, NULL },
	{ "output", KB_ARG_DIR, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

/* DIR/calibration.json as kernels.conf's calibration = reads it: relative
 * to the conf's directory (the hint printed -o's path, relative to the
 * working directory: `-c conf/k.conf -o results/cal` advised
 * "calibration = results/cal/calibration.json", which kbench then looked
 * for in conf/results/cal, a break-it trial).  DIR's path under the
 * conf's directory, else its absolute path; malloc'd. */
static char *conf_ref(const char *conf, const char *dir)
{
	char *cd = kb_xstrdup(conf), *slash = strrchr(cd, '/');
	char *rc, *rd, *out;
	size_t l;

	if (slash)
		*(slash == cd ? slash + 1 : slash) = '\0';
	rc = realpath(slash ? cd : ".", NULL);
	rd = realpath(dir, NULL);
	free(cd);
	if (!rc || !rd)		/* as given */
		out = kb_xasprintf("%s/calibration.json", dir);
	else if (l = strlen(rc), !strncmp(rd, rc, l) &&
		 (rd[l] == '/' || (l == 1 && rd[1])))
		out = kb_xasprintf("%s/calibration.json",
				   rd + l + (rd[l] == '/'));
	else
		out = kb_xasprintf("%s/calibration.json", rd);
	free(rc);
	free(rd);
	return out;
}

/* cfg: the kernels.conf calibrated, for its target_metrics (NULL: not
 * read); cal's totals are narrowed to them after the file is written */
static void print_calibration(struct kb_calibration *cal,
			      const struct kb_config *cfg, const char *conf,
			      const char *dir)
{
	char *ref;
	char a[32], b[32];
	size_t i;

	printf("calibration of %s: baseline %s twice per round (A/A), %u "
	       "rounds of %u s (campaign %s)\n", cal->conf, cal->baseline,
	       cal->rounds, cal->runtime_s, cal->campaign);
	printf("runs: %zu counted, %zu disturbed (%.0f%%), %zu redone "
	       "(retry_disturbed)\n", cal->runs, cal->runs_disturbed,
	       cal->runs ? 100.0 * (double)cal->runs_disturbed /
	       (double)cal->runs : 0.0, cal->runs_superseded);
	for (i = 0; i < cal->nm; i++) {
		const struct kb_calib_metric *m = &cal->m[i];

		printf("%s %s: %zu rounds, CV %.2f%% and %.2f%%, sd of the "
		       "per-round log ratios %.2f%%, correlation of the copies "
		       "%+.2f (one-sided p %.3g of r < 0): %s\n",
		       m->job, m->metric, m->n, m->cv_pct[0], m->cv_pct[1],
		       m->sd_log_ratio_pct, m->corr, m->corr_p,
		       !strcmp(m->analysis, "paired") ? "pairing by round fits" :
		       "Welch fits (neighbouring runs anti-correlated)");
		printf("    rounds needed: %s for an MDE <= max_mde %.3g%%, %s "
		       "for an MDE <= min_effect %.3g%%\n",
		       calibrate_rounds_str(m->rounds_max_mde, a, sizeof(a)),
		       m->max_mde_pct,
		       calibrate_rounds_str(m->rounds_min_effect, b, sizeof(b)),
		       m->min_effect_pct);
	}
	printf("analysis: %s; rounds needed: %s (max_mde), %s (min_effect)\n",
	       cal->analysis, calibrate_rounds_str(cal->rounds_max_mde, a, sizeof(a)),
	       calibrate_rounds_str(cal->rounds_min_effect, b, sizeof(b)));
	if (cfg && cfg->target_metrics && calibrate_target(cfg, cal))
		printf("target_metrics = %s: rounds needed %s (max_mde), %s "
		       "(min_effect); iterations = auto starts from these\n",
		       cfg->target_metrics,
		       calibrate_rounds_str(cal->rounds_max_mde, a, sizeof(a)),
		       calibrate_rounds_str(cal->rounds_min_effect, b,
					    sizeof(b)));
	ref = conf_ref(conf, dir);
	printf("written: %s/calibration.json (kernels.conf: calibration = "
	       "%s)\n", dir, ref);
	free(ref);
}

int cmd_calibrate(int argc, char **argv)
{
	const char *conf = "kernels.conf", *dir = NULL;
	char *defdir = NULL;
	unsigned long long rounds = KB_CALIB_DEFAULT_ROUNDS;
	struct kb_calibration cal;
	int o, ret, conf_given = 0;

	optind = 1;
	while ((o = getopt_long(argc, argv, kb_calibrate_shortopts,
				kb_calibrate_options, NULL)) != -1) {
		if (o == 'c') {
			conf = optarg;
			conf_given = 1;
		} else if (o == 'o') {
			dir = optarg;
		} else if (o == 'n') {
			if (kb_parse_ull(optarg, KB_CALIB_MAX_ROUNDS, &rounds,
					 NULL) || rounds < 3) {
				kb_error("--rounds '%s': expected a whole number "
					 "from 3 to %d", optarg,
					 KB_CALIB_MAX_ROUNDS);
				return 1;
			}
		} else if (o == 'q') {
			kb_quiet = 1;
		} else if (o == 'h') {
			usage(stdout);
			return 0;
		} else {	/* getopt said which option */
			kb_bad_option("calibrate", kb_calibrate_options, argv[optind - 1]);
			return 1;
		}
	}
	if (kb_no_operands(argc, argv, "calibrate") ||
	    kb_default_conf_missing(conf, conf_given, NULL))
		return 1;
	if (!dir)
		dir = defdir = kb_conf_results_dir(conf, "-calibration");
	ret = calibrate_run(conf, dir, (unsigned)rounds, &cal);
	if (!ret) {
		struct kb_config cfg;
		int loaded = !kconf_load(conf, &cfg);

		print_calibration(&cal, loaded ? &cfg : NULL, conf, dir);
		if (loaded)
			kconf_free(&cfg);
	}
	results_calibration_free(&cal);
	free(defdir);
	return ret;
}
