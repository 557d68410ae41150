/* runner/campaign_run.h - run or resume a campaign (`kbench run`). */
#ifndef KB_CAMPAIGN_RUN_H
#define KB_CAMPAIGN_RUN_H

/* Run or resume the campaign in dir (created from conf when new; on
 * resume conf, when conf_explicit, must be the snapshot's text); with
 * retry_failed, runs recorded as failed are run again.  shard_n != 0:
 * only shard shard_k of shard_n (runner/plan.h, campaign_open_shard());
 * a resumed shard directory keeps its own when shard_n is 0.  Installs the
 * SIGINT/SIGTERM/SIGHUP handlers that stop after the current run.
 * Returns the exit status of `kbench run`: 0 every planned run succeeded,
 * 1 an error or every run failed, 3 runs left for variants that are not
 * running now, 4 completed with failed runs, 130 interrupted (1 > 4 > 3). */
int campaign_run(const char *dir, const char *conf, int conf_explicit,
		 int retry_failed, unsigned shard_k, unsigned shard_n);

/* kbench run --add-rounds N: campaign_run() first appends N rounds to
 * the plan of the campaign it resumes (runner/adaptive.h
 * adaptive_add_rounds(); a new campaign is refused).  0: none. */
extern unsigned kb_run_add_rounds;

#endif
