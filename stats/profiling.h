/* stats/profiling.h - the statistics of a campaign's extra runs
 * (runner/plan.h: profiling runs, kernels.conf profile_runs = and
 * profile_during =), kept apart from the counted runs' (results.json
 * "profiling_runs", docs/results-format.md).
 *
 *  - results["profiling_summaries"]: the summaries (stats/summary.h, same
 *    shape and formulas) of the sampled extra runs alone ("extra":
 *    "profiling"); the profile tables read them (reports/profile.h).
 *    Absent when no extra run sampled (profile_during = counted-runs:
 *    the counted runs' own summaries hold the profile then).
 *  - results["profile_overhead"]: what perf record's sampling costs the
 *    IOPS, per (configuration, job), paired by round.  A run's IOPS is
 *    the sum of its read.iops, write.iops and trim.iops.  Sampled side:
 *    the profiling runs (then the unsampled side is the counted run of
 *    the same round) or, with profile_during = counted-runs, the counted
 *    runs (the unsampled side: the "unsampled" extra runs).  Several
 *    extra runs in one round enter as their mean.  For the n rounds with
 *    both sides ok (and the counted run counting, results/json.h
 *    kb_run_counts):
 *        d_r = ln(sampled_r / unsampled_r),  ratio = exp(mean d_r),
 *        95% CI exp(mean -+ t(0.975; n-1) sd/sqrt(n))
 *    (kb_paired_log_test, stats/paired.h: a ratio of geometric means).
 *    Entries: {"configuration", "job", "metric": "iops", "sampled":
 *    "profiling runs" | "counted runs", "n", "ratio", "ci95_lo",
 *    "ci95_hi"} (ratio and CI null when n < 2: "n=1: no CI" is the
 *    reader's to print).  Absent without extra runs.
 *
 * Both are typed rows of the model's analysis (results/analysis.h:
 * kb_analysis.profiling_summaries, .profile_overhead), written into the
 * jansson model by its one serializer kb_analysis__profiling_to_json()
 * and read back from a results.json by kb_analysis__from_json(); the
 * extra runs are read through the typed model too (kb_rmodel.profiling,
 * kb_rmodel__new_extra(), results/rmodel.h).
 */
#ifndef KB_STATS_PROFILING_H
#define KB_STATS_PROFILING_H

struct kb_rmodel;

/* Fill the typed rows m->analysis.profiling_summaries and
 * .profile_overhead from m's extra runs (m->profiling) and counted runs
 * (replacing what was there), and write them into m->results
 * ("profiling_summaries", "profile_overhead", replacing those).  0, or
 * the -errno of stats_fill_summaries_in(). */
int stats_fill_profiling_in(struct kb_rmodel *m);

#endif
