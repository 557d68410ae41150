/* runner/calibrate.c - the A/A campaign of `kbench calibrate`; see
 * runner/calibrate.h. */
#include "runner/calibrate.h"
#include "runner/campaign.h"
#include "runner/campaign_run.h"
#include "stats/calibrate.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* [global] keys (their first word) the A/A text sets itself or drops */
static const char *const dropped_keys[] = {
	"iterations", "min_iterations", "max_iterations", "target_ci_pct",
	"target_metrics",
	"baseline", "order", "seed", "profiles", "push", "calibration",
	"tunable", "sweep", NULL,
};

static int dropped(const char *line)
{
	size_t n = strcspn(line, " \t=");
	size_t i;

	for (i = 0; dropped_keys[i]; i++)
		if (strlen(dropped_keys[i]) == n &&
		    !strncmp(line, dropped_keys[i], n))
			return 1;
	return 0;
}

char *calibrate_conf_text(const struct kb_config *cfg,
			  const struct kb_plan *plan, unsigned rounds)
{
	const struct kb_configuration *base = &plan->configs[plan->baseline];
	const char *vname = cfg->variants[base->variant].name;
	char *text = NULL, *line, *save = NULL, *out = NULL, *variant = NULL;
	char *profiles;
	size_t len = 0, vlen = 0, t;
	FILE *o, *v;
	int sec = 0;	/* 0 [global], 1 the baseline's variant, 2 another */

	if (kb_read_file(cfg->path, &text, NULL, 0))
		return NULL;
	o = open_memstream(&out, &len);
	v = open_memstream(&variant, &vlen);
	if (!o || !v)
		abort();
	profiles = realpath(cfg->profiles_dir, NULL);
	fprintf(o, "; A/A calibration of %s (kbench calibrate): the baseline "
		"%s twice per round\n[global]\n", cfg->path, base->id);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *l = kb_trim(line);

		if (!*l || *l == ';' || *l == '#')
			continue;
		if (*l == '[') {
			size_t n = strcspn(l + 1, "]");

			sec = !strncmp(l + 1, "global", n) && n == 6 ? 0 :
			      strlen(vname) == n && !strncmp(l + 1, vname, n) ?
			      1 : 2;
			continue;
		}
		if (sec == 0 && !dropped(l))
			fprintf(o, "%s\n", l);
		else if (sec == 1)
			fprintf(v, "%s\n", l);
	}
	fprintf(o, "iterations = %u\norder = interleave\nprofiles = %s\n",
		rounds, profiles ?: cfg->profiles_dir);
	for (t = 0; t < cfg->ntunables; t++) {
		const struct kb_tunable *tu = &cfg->tunables[t];

		if (tu->sweep)
			fprintf(o, "sweep %s = %s\n", tu->label,
				tu->values[base->value[t]]);
		else
			fprintf(o, "tunable %s = %s: %s\n", tu->label,
				tu->path, tu->values[base->value[t]]);
	}
	fclose(v);
	fprintf(o, "\n[copy1]\n%s\n[copy2]\n%s", variant, variant);
	fclose(o);
	free(variant);
	free(profiles);
	free(text);
	return out;
}

/* text past its first line when that is calibrate_conf_text()'s comment,
 * which names kernels.conf by the path -c gave: the same kernels.conf by
 * another path (-c ./k.conf, or from another directory) is the same
 * A/A (it was refused as "made from another kernels.conf", a break-it
 * trial) */
static const char *past_comment(const char *text)
{
	const char *nl = strchr(text, '\n');

	return *text == ';' && nl ? nl + 1 : text;
}

/* The A/A conf in dir/aa.conf and its two configuration ids. */
static int write_aa_conf(const char *conf, const char *dir, unsigned rounds,
			 char **aa_conf, char **copy1, char **copy2,
			 char **baseline)
{
	struct kb_config cfg, aa;
	struct kb_plan plan, aplan;
	char *text = NULL;
	int ret = -EINVAL;

	if (kconf_load(conf, &cfg))
		return -EINVAL;
	if (campaign_check_jobs(&cfg) || plan_build(&cfg, &plan)) {
		kconf_free(&cfg);
		return -EINVAL;
	}
	*baseline = kb_xstrdup(plan.configs[plan.baseline].id);
	text = calibrate_conf_text(&cfg, &plan, rounds);
	*aa_conf = kb_path_join(dir, "aa.conf");
	if (text) {
		/* a calibration there already: resumed only when it is the
		 * same A/A (the same kernels.conf and -n), else said so (the
		 * campaign refused "a different kernels.conf than DIR/aa.conf",
		 * a file and a -c the user never gave) */
		char *cj = kb_path_join(dir, "aa/campaign.json");
		char *old = NULL;
		int other = 0;

		if (kb_exists(cj) && !kb_read_file(*aa_conf, &old, NULL, 1)) {
			other = !!strcmp(past_comment(old), past_comment(text));
			if (!other) {	/* kept byte for byte: the campaign
					 * compares it with its copy */
				free(text);
				text = old;
				old = NULL;
			}
		}
		free(old);
		free(cj);
		if (other) {
			kb_error("%s holds a calibration made from another "
				 "kernels.conf or another number of rounds "
				 "(-n); run it again with the same -c and -n to "
				 "resume it, or give a new -o DIR", dir);
			goto out;
		}
	}
	if (text && !kb_mkdir_p(dir) &&
	    !kb_write_atomic(*aa_conf, text, strlen(text))) {
		if (kconf_load(*aa_conf, &aa) == 0) {
			if (plan_build(&aa, &aplan) == 0) {
				*copy1 = kb_xstrdup(aplan.configs[0].id);
				*copy2 = kb_xstrdup(aplan.configs[1].id);
				ret = 0;
				plan_free(&aplan);
			}
			kconf_free(&aa);
		}
	} else if (text) {
		kb_error("%s: cannot write the A/A kernels.conf", *aa_conf);
	}
out:
	free(text);
	plan_free(&plan);
	kconf_free(&cfg);
	return ret;
}

int calibrate_run(const char *conf, const char *dir, unsigned rounds,
		  struct kb_calibration *cal)
{
	char *aa_conf = NULL, *copy1 = NULL, *copy2 = NULL, *aa = NULL;
	char *baseline = NULL, *out = NULL;
	int st, ret = 1;

	memset(cal, 0, sizeof(*cal));
	if (write_aa_conf(conf, dir, rounds, &aa_conf, &copy1, &copy2,
			  &baseline))
		goto out;
	aa = kb_path_join(dir, "aa");
	st = campaign_run(aa, aa_conf, 1, 0, 0, 0);
	if (st == 130 || st == 1) {
		ret = st;
		goto out;
	}
	if (st == 3) {	/* the baseline's variant is not running here */
		kb_error("calibrate: the baseline %s runs on a kernel that is "
			 "not running now (said above): boot it and run the "
			 "same kbench calibrate command again, which resumes "
			 "%s", baseline ? baseline : "", aa);
		ret = 3;
		goto out;
	}
	if (results_calibration_samples(aa, copy1, copy2, cal))
		goto out;
	cal->conf = kb_xstrdup(conf);
	cal->baseline = baseline;
	baseline = NULL;
	cal->campaign = aa;
	aa = NULL;
	cal->rounds = rounds;
	{
		struct kb_config c;

		if (kconf_load(aa_conf, &c))
			goto out;
		cal->runtime_s = c.runtime_s;
		kconf_free(&c);
	}
	if (kb_calibrate(cal))
		kb_warn("%s: some metrics could not be calibrated (fewer than "
			"3 rounds where both copies counted, or a value <= 0): "
			"their rounds are unknown", cal->campaign);
	out = kb_path_join(dir, "calibration.json");
	ret = results_calibration_write(out, cal) ? 1 : 0;
out:
	free(out);
	free(aa_conf);
	free(copy1);
	free(copy2);
	free(aa);
	free(baseline);
	return ret;
}

/* Is m of one of cfg's jobs (and, with target_metrics, one of its
 * metrics)? */
static int own_job(const struct kb_calib_metric *m, const void *arg)
{
	const struct kb_config *cfg = arg;
	size_t i;

	for (i = 0; i < cfg->njobs; i++)
		if (m->job && !strcmp(m->job, cfg->jobs[i]))
			return 1;
	return 0;
}

static int targeted(const struct kb_calib_metric *m, const void *arg)
{
	return own_job(m, arg) && kconf_target_metric(arg, m->metric);
}

size_t calibrate_target(const struct kb_config *cfg,
			struct kb_calibration *cal)
{
	size_t n = 0;

	cal->totals_targeted = 0;
	if (cfg->target_metrics) {
		n = kb_calibrate_totals(cal, targeted, cfg);
		if (n) {
			cal->totals_targeted = 1;
			return n;
		}
		kb_warn("%s: target_metrics = %s names no metric of the "
			"calibration %s for this campaign's jobs: its rounds "
			"are the most over all of theirs", cfg->path,
			cfg->target_metrics,
			cal->campaign ? cal->campaign : "");
	}
	/* a job the campaign does not run asks for no rounds of it (a
	 * break-it trial: randread-4k's 333 rounds for a write campaign);
	 * a calibration of none of them is refused elsewhere
	 * (plan_check_calibration()) */
	if (!kb_calibrate_totals(cal, own_job, cfg))
		kb_calibrate_totals(cal, NULL, NULL);
	return n;
}

int calibrate_apply(struct kb_config *cfg, struct kb_calibration *cal)
{
	int ret;

	memset(cal, 0, sizeof(*cal));
	if (!cfg->calibration)
		return 0;
	ret = results_calibration_read(cfg->calibration, cal);
	if (ret) {
		kb_error("%s:%d: calibration = %s cannot be used (above)",
			 cfg->path, cfg->calibration_line, cfg->calibration);
		return ret;
	}
	calibrate_target(cfg, cal);
	if (cfg->iterations_auto && cal->rounds_max_mde)
		cfg->iterations = cal->rounds_max_mde < cfg->min_iterations ?
			cfg->min_iterations :
			cal->rounds_max_mde > cfg->max_iterations ?
			cfg->max_iterations : cal->rounds_max_mde;
	else if (cfg->iterations_auto)	/* more than the cap */
		cfg->iterations = cfg->max_iterations;
	return 1;
}

const char *calibrate_rounds_str(unsigned n, char *buf, size_t len)
{
	if (n)
		snprintf(buf, len, "%u", n);
	else
		snprintf(buf, len, "more than %d", KB_CALIB_MAX_ROUNDS);
	return buf;
}
