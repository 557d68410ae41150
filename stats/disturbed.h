/* stats/disturbed.h - runs disturbed by the rest of the machine.
 *
 * A counted run is *disturbed* when what else the machine did during it
 * (parsers/procfs.h, parsers/tasks.h) passes one of these thresholds
 * (kernels.conf [global], campaign.json "campaign"."disturbed"):
 *
 *   task.other.cpu_pct > max(disturbed_other_cpu_pct, 1.5 x the
 *       job's lower quartile of task.other.cpu_pct)        default 40
 *   cpu.steal_pct      > disturbed_steal_pct                default 5
 *   psi.cpu_some_pct   > disturbed_psi_pct                  default 40
 *   cpu.idle_pct       < disturbed_idle_fraction x the job's upper
 *       quartile of cpu.idle_pct (only when that quartile is >= 2%: a
 *       workload that leaves no idle has none to lose)     default 0.5
 *
 * The quartiles are each job's, over its counted runs in every
 * configuration: a job that keeps the CPU busy leaves less idle (and
 * wakes other kworkers) than a light one on the same quiet machine.
 * campaign.json's "disturbed" records the quartiles and limits over
 * every job's runs (with one job, the same); retry_quiet_wait holds the
 * idle machine to that task.other limit.
 *
 * The campaign's quiet level is a quartile, not the median: under a load
 * that comes and goes, half or more of the runs can be disturbed and the
 * median is then itself a disturbed level (../shared/data/aa-series
 * switching-load.csv: median task.other 44%, lower quartile 27.6%, quiet
 * runs 27-30%).  The derivation is in docs/design-decisions.md.  A
 * missing metric never disturbs a run (n/a is not a reason).  Every
 * threshold can be "off".
 */
#ifndef KB_STATS_DISTURBED_H
#define KB_STATS_DISTURBED_H

#include <stddef.h>

struct kb_rmodel;	/* the typed model, results/rmodel.h */
struct kb_rcampaign;	/* its campaign, results/campaign_info.h */

#define KB_DISTURBED_OTHER_CPU_PCT 40.0
#define KB_DISTURBED_OTHER_FACTOR 1.5
#define KB_DISTURBED_STEAL_PCT 5.0
#define KB_DISTURBED_PSI_PCT 40.0
#define KB_DISTURBED_IDLE_FRACTION 0.5
#define KB_DISTURBED_IDLE_MIN_REF 2.0

/* NAN = the rule is off */
struct kb_disturbed_rules {
	double other_cpu_pct;
	double other_factor;
	double steal_pct;
	double psi_pct;
	double idle_fraction;
};

void kb_disturbed_rules_init(struct kb_disturbed_rules *r);

/* The rules of a campaign (results/campaign_info.h disturbed_rules:
 * results.campaign.disturbed): absent members and older campaigns the
 * defaults; null: off. */
void kb_disturbed_rules_of(const struct kb_rcampaign *c,
			   struct kb_disturbed_rules *r);

/* Mark every successful run of the results model that breaks a rule
 * (rules NULL: kb_disturbed_rules_of() of its campaign): run["disturbed"]
 * = ["task.other.cpu_pct 131% > 42%", ...] (absent when quiet), and
 * results["disturbed_settings"] = the thresholds used and the campaign's
 * levels.  With exclude != 0, results["analysis_options"]
 * ["exclude_disturbed"] = true and every disturbed run gets "excluded":
 * "disturbed", which kb_run_counts() (results/json.h) leaves out of the
 * statistics.  Call before stats_analyse().  Returns the number of
 * disturbed counted runs.
 * It works on the typed model (results/rmodel.h), reading the
 * values from its matrix (call it before outliers are dropped from it:
 * stats_mark_outliers_in()) and writing the marks through
 * kb_rmodel__set_disturbed*(), which keep the model's run info, counts
 * and groups in step.  A caller with only a jansson model builds the
 * typed one with kb_rmodel__new() (none: no runs, none disturbed). */
int stats_mark_disturbed_in(struct kb_rmodel *m,
			    const struct kb_disturbed_rules *r, int exclude);

/* On the typed model (results/rmodel.h: each run's status, warm-up and
 * info.disturbed, the matrix, campaign.disturbed), built once by the
 * caller (kb_rmodel__new()):
 * stats_disturbed_counts_in(): for each of cfgs[0..n) (an entry NULL:
 *   all configurations), the counted (status ok, not warm-up) runs of
 *   job (NULL: all) in total[k] and how many of them are disturbed in
 *   disturbed[k], in one pass over the runs (a table's notes at 100k
 *   runs: one pass, not one per configuration).
 * stats_runs_median_in(): the median of metric over the counted runs
 *   (excluded ones too); NAN when none has it. */
void stats_disturbed_counts_in(const struct kb_rmodel *m,
			       const char *const *cfgs, size_t n,
			       const char *job, size_t *disturbed,
			       size_t *total);
double stats_runs_median_in(const struct kb_rmodel *m, const char *metric);
/* The same over the counted runs of campaign index campaign of a merged
 * model (kb_rrun.campaign, results/rmodel.h). */
double stats_runs_median_campaign_in(const struct kb_rmodel *m,
				     const char *metric, size_t campaign);

#define KB_BUSY_DISTURBED_SHARE 0.05	/* of the counted runs */

/* How busy the machine was during a campaign (a report's "Machine:"
 * header), by the rules that mark the runs, so that the two never
 * disagree: busy when more than KB_BUSY_DISTURBED_SHARE of the counted
 * runs are disturbed, or when the median task.other.cpu_pct is above the
 * limit the marks used (results["disturbed_settings"]["other_cpu_limit"]:
 * max(disturbed_other_cpu_pct, 1.5 x the lower quartile), not the raw
 * key).  A load present all along raises the quartile with it: that is
 * the campaign's own level, against which its runs are not disturbed,
 * but not a quiet machine: 2, "a steady load", when neither holds and
 * the median is above disturbed_other_cpu_pct itself (the floor of the
 * limit, 40% of a CPU by default).  A merged model (several campaigns,
 * each run judged against its own campaign's level, which it does not
 * keep): the share of disturbed runs alone.  Returns 1 busy, 2 steady
 * load, 0 quiet, -1 when stats_mark_disturbed_in() has not run on m or
 * it has no counted run.
 * *other_median (may be NULL): the median task.other.cpu_pct or NAN;
 * *disturbed, *total: as stats_disturbed_counts_in() for all
 * configurations and jobs. */
int stats_machine_busy_in(const struct kb_rmodel *m, double *other_median,
			  size_t *disturbed, size_t *total);

#endif
