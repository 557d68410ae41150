/* runner/adaptive.c - iterations = auto; see runner/adaptive.h. */
#include "results/json.h"
#include "runner/adaptive.h"
#include "results/calibration.h"
#include "results/model.h"
#include "stats/compare.h"
#include "lib/err.h"
#include "lib/file.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int adaptive_sync_plan(struct kb_campaign *c)
{
	char *path;
	json_t *cj, *k;
	unsigned want = 0, it;
	size_t i;
	const char *slash;

	if (c->cfg.calibration) {
		/* the calibration this campaign starts from (its rounds, its
		 * analysis: campaign_open()) was measured on this setup? */
		struct kb_calibration cal;
		int bad = results_calibration_read(c->cfg.calibration, &cal) ||
			  plan_check_calibration(&c->cfg, &c->plan, &cal);

		results_calibration_free(&cal);
		if (bad)
			return -EINVAL;
	}
	if (!c->cfg.iterations_auto)
		return 0;
	path = kb_path_join(c->dir, "campaign.json");
	cj = kb_json_load(path);
	free(path);
	if (!cj)
		return -EINVAL;
	json_array_foreach(json_object_get(cj, "plan"), i, k) {
		slash = strrchr(json_string_value(k) ?: "", '/');
		if (slash) {
			it = (unsigned)atoi(slash + 1) + 1;
			if (it > want)
				want = it;
		}
	}
	json_decref(cj);
	while (plan_rounds(&c->plan) < want)
		plan_add_round(&c->cfg, &c->plan);
	return 0;
}

/* CI half-width in % of the mean; INFINITY without a CI. */
static double half_pct(json_t *s)
{
	json_t *lo = json_object_get(s, "ci95_lo");
	json_t *hi = json_object_get(s, "ci95_hi");
	json_t *mean = json_object_get(s, "mean");

	if (!json_is_number(lo) || !json_is_number(hi) ||
	    !json_is_number(mean) || json_number_value(mean) == 0.0)
		return INFINITY;
	return (json_number_value(hi) - json_number_value(lo)) / 2.0 /
	       fabs(json_number_value(mean)) * 100.0;
}

/* The analysis of a comparison as a reader names it */
static const char *analysis_words(const char *a)
{
	return !strcmp(a, "paired") ? "paired by round" :
	       !strcmp(a, "welch-log") ? "Welch on ln values" :
	       !strcmp(a, "welch") ? "Welch" : a;
}

int adaptive_decide(json_t *res, const struct kb_config *cfg,
		    unsigned timed_rounds, char **why)
{
	double worst = -1.0, h;
	const char *wc = NULL, *wj = NULL, *wm = NULL;
	const char *wbase = NULL;	/* the baseline of a compared worst */
	const char *wan = NULL;		/* and its analysis */
	json_t *e, *s;
	size_t i;
	char *w;

	/* the precision that matters is that of the change, whose CI
	 * comes from the spread of the comparison's analysis (stats/
	 * compare.h: paired, the per-round log ratios; unpaired, Welch
	 * from both samples), not of either mean */
	json_array_foreach(json_object_get(res, "comparisons"), i, e) {
		json_t *lo = json_object_get(e, "change_ci95_lo_pct");
		json_t *hi = json_object_get(e, "change_ci95_hi_pct");

		h = json_is_number(lo) && json_is_number(hi) ?
		    (json_number_value(hi) - json_number_value(lo)) / 2.0 :
		    INFINITY;
		if (h > worst) {
			worst = h;
			wc = kb_jstr(e, "configuration");
			wj = kb_jstr(e, "job");
			wm = kb_jstr(e, "metric");
			wbase = kb_jstr(e, "baseline");
			wan = analysis_words(kb_jstr(e, "analysis") ?: "");
		}
	}
	if (!wc) {
		/* one configuration: nothing compared; its IOPS then */
		json_array_foreach(json_object_get(res, "summaries"), i, s) {
			const char *m = kb_jstr(s, "metric") ?: "";
			size_t l = strlen(m);

			if (l < 5 || strcmp(m + l - 5, ".iops"))
				continue;
			h = half_pct(s);
			if (h > worst) {
				worst = h;
				wc = kb_jstr(s, "configuration");
				wj = kb_jstr(s, "job");
				wm = m;
			}
		}
	}
	if (!wc) {
		*why = kb_xasprintf("no compared metric has values after %u "
				    "timed iterations; stopping", timed_rounds);
		return 0;
	}
	if (wbase)
		w = isfinite(worst) ?
			kb_xasprintf("widest 95%% CI: +-%.2f%% of the change "
				     "vs %s, %s (%s %s %s)", worst,
				     wbase, wan, wc, wj, wm) :
			kb_xasprintf("no 95%% CI yet for the change of %s %s "
				     "%s vs %s (%s)", wc, wj, wm, wbase, wan);
	else
		w = isfinite(worst) ?
			kb_xasprintf("widest 95%% CI: +-%.2f%% of the mean (%s "
				     "%s %s)", worst, wc, wj, wm) :
			kb_xasprintf("no 95%% CI yet for %s %s %s", wc, wj, wm);
	if (worst < cfg->target_ci_pct) {
		*why = kb_xasprintf("every compared metric's 95%% CI half-width "
			"is below target_ci_pct = %g%% after %u timed "
			"iterations; %s", cfg->target_ci_pct, timed_rounds, w);
		free(w);
		return 0;
	}
	if (timed_rounds >= cfg->max_iterations) {
		*why = kb_xasprintf("max_iterations = %u reached before the "
			"95%% CIs were below target_ci_pct = %g%%; %s",
			cfg->max_iterations, cfg->target_ci_pct, w);
		free(w);
		return 0;
	}
	*why = kb_xasprintf("%s, above target_ci_pct = %g%% after %u timed "
			    "iterations: one more round", w, cfg->target_ci_pct,
			    timed_rounds);
	free(w);
	return 1;
}

/* campaign.json: the plan of c and campaign.iterations. */
static int write_plan(struct kb_campaign *c, unsigned timed)
{
	char *path = kb_path_join(c->dir, "campaign.json");
	json_t *cj = kb_json_load(path), *plan;
	size_t i;
	int ret = -EINVAL;

	if (!cj)
		goto out;
	plan = json_array();
	for (i = 0; i < c->plan.nruns; i++)
		json_array_append_new(plan, json_string(c->plan.runs[i].key));
	json_object_set_new(cj, "plan", plan);
	json_object_set_new(json_object_get(cj, "campaign"), "iterations",
			    json_integer(timed));
	ret = kb_json_write_atomic(path, cj);
out:
	json_decref(cj);
	free(path);
	return ret;
}

int adaptive_next(struct kb_campaign *c)
{
	unsigned rounds = plan_rounds(&c->plan);
	unsigned timed = rounds > c->cfg.warmup ? rounds - c->cfg.warmup : 0;
	char *why = NULL, *path;
	json_t *res;
	int more, ret;
	size_t added;

	if (!c->cfg.iterations_auto)
		return 0;
	res = results_load_campaign(c->dir, 0);
	if (!res)
		return -EINVAL;
	ret = stats_analyse(res, NULL);
	if (ret) {
		json_decref(res);
		return ret;
	}
	more = adaptive_decide(res, &c->cfg, timed, &why);
	json_decref(res);
	kb_info("iterations = auto: %s", why);
	if (more) {
		added = plan_add_round(&c->cfg, &c->plan);
		ret = write_plan(c, timed + 1);
		free(why);
		return ret ? ret : (int)added;
	}
	json_object_set_new(c->state, "adaptive", json_pack("{s:i, s:s}",
			    "timed_iterations", (int)timed, "stopped", why));
	path = kb_path_join(c->dir, "state.json");
	ret = kb_json_write_atomic(path, c->state);
	free(path);
	free(why);
	return ret;
}
