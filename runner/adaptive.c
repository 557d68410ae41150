/* runner/adaptive.c - iterations = auto; see runner/adaptive.h. */
#include "runner/adaptive.h"
#include "runner/drivers.h"
#include "results/calibration.h"
#include "results/campaign_json.h"
#include "results/model.h"
#include "stats/compare.h"
#include "stats/summary.h"
#include "results/rmodel.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int write_plan(struct kb_campaign *c, unsigned timed);

int adaptive_sync_plan(struct kb_campaign *c)
{
	unsigned want;

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
	/* rounds beyond the conf's: iterations = auto's, or kbench run
	 * --add-rounds on a resumed campaign */
	if (!c->cfg.iterations_auto && !c->resumed)
		return 0;
	/* a new campaign's --dry-run wrote no campaign.json: the plan's
	 * rounds are all there are (kbench run --dry-run of any
	 * iterations = auto conf failed, "campaign.json: cannot open", a
	 * break-it trial) */
	if (!c->resumed && kb_driver_dry_run)
		return 0;
	if (results_campaign_plan_rounds(c->dir, &want))
		return -EINVAL;
	while (plan_rounds(&c->plan) < want)
		plan_add_round(&c->cfg, &c->plan);
	return 0;
}

int adaptive_add_rounds(struct kb_campaign *c, unsigned n)
{
	unsigned rounds, timed, k;

	if (c->cfg.iterations_auto) {
		kb_error("%s: --add-rounds: the campaign has iterations = auto, "
			 "which adds its own rounds (max_iterations = bounds "
			 "them)", c->dir);
		return -EINVAL;
	}
	if (c->shard_n) {
		kb_error("%s: --add-rounds: a shard's rounds are its share of "
			 "the plan; add rounds to an unsharded campaign", c->dir);
		return -EINVAL;
	}
	for (k = 0; k < n; k++)
		plan_add_round(&c->cfg, &c->plan);
	rounds = plan_rounds(&c->plan);
	timed = rounds > c->cfg.warmup ? rounds - c->cfg.warmup : 0;
	kb_info("%s: %u round(s) added: %u timed rounds in all", c->dir, n,
		timed);
	return write_plan(c, timed);
}

/* CI half-width (the "+-" of the tables: kb_ci95_half()) in % of the
 * mean; INFINITY without a CI. */
static double half_pct(const struct results_summary_ci *s)
{
	double h = kb_ci95_half(s->mean, s->ci95_lo, s->ci95_hi,
				s->harmonic);

	if (isnan(h) || s->mean == 0.0)
		return INFINITY;
	return h / fabs(s->mean) * 100.0;
}

/* The analysis of a comparison as a reader names it */
static const char *analysis_words(const char *a)
{
	return !strcmp(a, "paired") ? "paired by round" :
	       !strcmp(a, "welch-log") ? "Welch on ln values" :
	       !strcmp(a, "welch") ? "Welch" : a;
}

int adaptive_decide(const struct results_cis *res, const struct kb_config *cfg,
		    unsigned timed_rounds, char **why)
{
	double worst = -1.0, h;
	const char *wc = NULL, *wj = NULL, *wm = NULL;
	const char *wbase = NULL;	/* the baseline of a compared worst */
	const char *wan = NULL;		/* and its analysis */
	const struct results_summary_ci *s;
	size_t i;
	char *w;

	/* the precision that matters is that of the change, whose CI
	 * comes from the spread of the comparison's analysis (stats/
	 * compare.h: paired, the per-round log ratios; unpaired, Welch
	 * from both samples), not of either mean */
	for (i = 0; i < res->ncomparisons; i++) {
		const struct results_comparison_ci *e = &res->comparisons[i];

		if (!kconf_target_metric(cfg, e->metric))
			continue;
		h = !isnan(e->change_ci95_lo_pct) &&
		    !isnan(e->change_ci95_hi_pct) ?
		    (e->change_ci95_hi_pct - e->change_ci95_lo_pct) / 2.0 :
		    INFINITY;
		if (h > worst) {
			worst = h;
			wc = e->configuration;
			wj = e->job;
			wm = e->metric;
			wbase = e->baseline;
			wan = analysis_words(e->analysis ?: "");
		}
	}
	if (!wc) {
		/* one configuration: nothing compared; its IOPS then */
		for (i = 0; i < res->nsummaries; i++) {
			const char *m;
			size_t l;

			s = &res->summaries[i];
			m = s->metric ?: "";
			l = strlen(m);
			if (cfg->target_metrics ? !kconf_target_metric(cfg, m) :
			    (l < 5 || strcmp(m + l - 5, ".iops")))
				continue;
			h = half_pct(s);
			if (h > worst) {
				worst = h;
				wc = s->configuration;
				wj = s->job;
				wm = m;
			}
		}
	}
	if (!wc) {
		*why = cfg->target_metrics ?
			kb_xasprintf("no compared metric has values after %u "
				     "timed iterations (target_metrics = %s "
				     "names none measured here); stopping",
				     timed_rounds, cfg->target_metrics) :
			kb_xasprintf("no compared metric has values after %u "
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
		*why = cfg->target_metrics ?
			kb_xasprintf("every targeted metric's 95%% CI half-width "
				"(target_metrics = %s) is below target_ci_pct = "
				"%g%% after %u timed iterations; %s",
				cfg->target_metrics, cfg->target_ci_pct,
				timed_rounds, w) :
			kb_xasprintf("every compared metric's 95%% CI half-width "
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
	const char **keys = kb_xcalloc(c->plan.nruns + 1, sizeof(*keys));
	size_t i;
	int ret;

	for (i = 0; i < c->plan.nruns; i++)
		keys[i] = c->plan.runs[i].key;
	ret = results_campaign_plan_save(c->dir, keys, c->plan.nruns, timed);
	free(keys);
	return ret;
}

int adaptive_next(struct kb_campaign *c)
{
	unsigned rounds = plan_rounds(&c->plan);
	unsigned timed = rounds > c->cfg.warmup ? rounds - c->cfg.warmup : 0;
	char *why = NULL;
	struct results_cis cis;
	struct kb_rmodel *m;
	int more, ret;
	size_t added;

	if (!c->cfg.iterations_auto)
		return 0;
	m = kb_rmodel__load(c->dir, 0);	/* NULL: named there */
	ret = m ? stats_analyse(m, NULL) : -EINVAL;
	if (ret) {
		kb_rmodel__delete(m);
		return ret;
	}
	results_cis_of(m->results, &cis);
	more = adaptive_decide(&cis, &c->cfg, timed, &why);
	results_cis_free(&cis);
	kb_rmodel__delete(m);
	kb_info("iterations = auto: %s", why);
	if (more) {
		added = plan_add_round(&c->cfg, &c->plan);
		ret = write_plan(c, timed + 1);
		free(why);
		return ret ? ret : (int)added;
	}
	c->state.has_adaptive = 1;
	c->state.adaptive_timed_iterations = timed;
	free(c->state.adaptive_stopped);
	c->state.adaptive_stopped = why;
	return campaign_save_state(c);
}
