/* results/campaign_diff.h - where two campaigns differ in what makes
 * their numbers comparable: said as warnings on standard error, by
 * compare (BASE against NEW) and by report merging campaigns into one
 * table (each later one against the first).  A difference may come from
 * them, not from what is compared. */
#ifndef KB_RESULTS_CAMPAIGN_DIFF_H
#define KB_RESULTS_CAMPAIGN_DIFF_H

#include "results/campaign_info.h"

/* The environment members that change results (campaign.json
 * "environment", runner/campaign.c: governor, CPU model, memory within
 * 1%, fio version, kernel command line without BOOT_IMAGE= and initrd=,
 * CPUs, every CPU's governor, turbo/boost, EPP, SMT) where cb (campaign
 * bdir) and cn (ndir) differ: "the campaigns ran in different
 * environments" and one line each; a campaign without an environment is
 * said.  The caller skips a campaign compared with itself. */
void results_env_diff_warn(const char *bdir, const struct kb_rcampaign *cb,
			   const char *ndir, const struct kb_rcampaign *cn);

/* What the two measured, where it differs: the target, the runtime,
 * iterations, warmup, the load hosts (campaign.hosts, and a job's own
 * campaign.job_hosts for each job of cn; compared as sets, none being
 * fio on the campaign's own machine) and, for each job both ran, its fio
 * job file (campaign.json job_files, a unified diff): "the campaigns
 * measured different things" and one line each. */
void results_setup_diff_warn(const char *bdir, const struct kb_rcampaign *cb,
			     const char *ndir, const struct kb_rcampaign *cn);

#endif
