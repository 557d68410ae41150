/* runner/adaptive.h - iterations = auto (kernels.conf): keep adding
 * interleaved rounds until every compared metric's 95% CI half-width is
 * below target_ci_pct % of its mean, or max_iterations is reached.  The
 * spread is that of the comparison's analysis (stats/compare.h), the
 * same one its minimum detectable effect uses: half the width of the
 * 95% CI of the change (in %), from the per-round log ratios for a
 * comparison paired by round, from Welch's standard error of both
 * samples (of ln values) unpaired; never the CIs of the two means.  With
 * one configuration (nothing compared): the CI of each IOPS mean.
 *
 * The plan starts with warmup + min_iterations rounds; each added round
 * is appended to campaign.json's "plan" (and campaign.iterations
 * updated), so a resumed campaign finds it.  The reason the runner
 * stopped is recorded in state.json as "adaptive": {"timed_iterations",
 * "stopped"} (results/campaign_json.h) and printed.  Compared metrics: those of stats_fill_comparisons_in()
 * (stats/compare.h), in every configuration including the baseline.
 */
#ifndef KB_ADAPTIVE_H
#define KB_ADAPTIVE_H

#include "results/precision.h"
#include "runner/campaign.h"

/* After campaign_open(): with kernels.conf calibration = FILE, check it
 * was measured on this campaign's setup (plan_check_calibration(),
 * runner/plan.h: a warning, or -EINVAL when it calibrated none of the
 * jobs); then add the rounds recorded in campaign.json beyond the conf's
 * (iterations = auto's, --add-rounds') to c->plan.  0 or -errno
 * (message). */
int adaptive_sync_plan(struct kb_campaign *c);

/* kbench run --add-rounds N on a resumed campaign c (after
 * adaptive_sync_plan()): N more interleaved rounds appended to its plan
 * and campaign.json's (campaign.iterations updated), as iterations =
 * auto adds them, so the next runs are those rounds' and every later
 * resume and report finds them.  Refused (-EINVAL, said) with
 * iterations = auto and for a shard.  0 or -errno. */
int adaptive_add_rounds(struct kb_campaign *c, unsigned n);

/* Decide on the 95% CIs of an analysed results model (results_cis_of(),
 * results/precision.h): returns 1 when another round is needed, 0 to
 * stop; with kernels.conf target_metrics only the comparisons (and,
 * nothing compared, the means) of the metrics it names decide
 * (kconf_target_metric(), parsers/kconf.h); *why (malloc'd) says which
 * metric is the widest (its CI half-width in % of the mean, or of the
 * change when paired) and why the runner stops or goes on.  timed_rounds: timed iterations per
 * (configuration, job) so far. */
int adaptive_decide(const struct results_cis *cis, const struct kb_config *cfg,
		    unsigned timed_rounds, char **why);

/* After the planned runs: analyse DIR; if another round is needed add
 * it to c->plan and campaign.json and return the number of runs added
 * (> 0); 0 when done (reason printed and stored); -errno on error. */
int adaptive_next(struct kb_campaign *c);

#endif
