/* reports/layout.h - named table layouts: presets of the table model
 * (reports/table.h) whose rows and columns are dimensions of a campaign.
 *
 * Dimensions of a run (the names --rows and --cols take):
 *   configuration  the configuration id ("stock,NM=0")
 *   variant        the kernel variant ("stock")
 *   job            the fio job ("randread-4k")
 *   iteration      the run's iteration index (timed runs only)
 *   LABEL          the value of tunable LABEL ("NM")
 *   PARAM          a swept job parameter (kernels.conf `sweep numjobs =
 *                  1 2 4`): the run's "params" member, {"numjobs": "4"}
 * Numeric values sort numerically, others keep campaign order.
 *
 * Layouts (--layout NAME); every cell is computed from the timed runs
 * with status "ok" (warm-ups, failures and runs left out as "excluded",
 * results/json.h kb_run_counts(), never count):
 *   variants  configuration rows x metric columns (seed 000 table 1;
 *             built by reports/builder.c)
 *   profile   TAG rows, share columns (seed 000 tables 2-3;
 *             reports/profile.c)
 *   time      rusage, CPU split by task, I/Os issued: the target's
 *             (/proc/diskstats) and fio's (fio.total_ios) (seed 001)
 *   rounds    one row per iteration, one column per configuration, then
 *             "average" and "stddev" rows (seed 002)
 *   scaling   rows = configurations without the swept dimension, columns
 *             = the swept dimension's values (--cols, default: the first
 *             swept job parameter, else the last tunable), mean per cell,
 *             then a "% change" row per non-baseline row (seed 003)
 *   mmtests   Amean, Stddev, CoeffVar, Min, Max rows x configuration
 *             columns, each "value (change%)" vs the baseline column
 *             (mmtests compare-kernels.sh; here the plain change of the
 *             value, not mmtests' "positive = better" sign)
 *   lkp       per configuration vs the baseline: base mean, %stddev,
 *             %change, mean, %stddev, metric (lkp-tests' comparison)
 *   pivot     --rows DIM --cols DIM: the mean of --metric per cell
 * The metric of rounds, scaling, mmtests and pivot is the first --metric,
 * else the IOPS of the job's direction.  Their values are in the metric's
 * unit, or with --prefix auto (report_opts.prefix) scaled one prefix per
 * table, by its largest value (struct kb_scale, reports/table.h):
 * "4310k" IOPS, MiB/s or us in the title; mmtests' CoeffVar and the
 * scaling layout's % change rows are never scaled.  A job with no table
 * in the layout asked for gets a note saying why instead
 * (kb_report_job_note(): "JOB: METRIC: not measured by this job", lkp's
 * "no configuration to compare with its baseline"), never a table of no
 * cells.
 */
#ifndef KB_REPORT_LAYOUT_H
#define KB_REPORT_LAYOUT_H

#include "reports/report.h"
#include "reports/table.h"
#include "reports/profile.h"

/* The layouts (the table in reports/builder.c): 1 when name is one. */
int kb_layout_find(const char *name);

/* 1 when the default report (no layout) already holds the tables of
 * layout name (variants, profile, time): kernels.conf's layouts = adds
 * only the others to report.txt and report.md. */
int kb_layout_in_default(const char *name);

/* The i-th layout's name and one-line help (*help may be NULL), or NULL
 * past the last: for --help, completion and the man page. */
const char *kb_layout_name(size_t i, const char **help);

/* Every layout name joined by sep (malloc'd). */
char *kb_layout_names(const char *sep);

/* Check opts->layout, rows and cols against the typed model m of the
 * results (results/rmodel.h: its configurations' tunable labels and runs'
 * swept params; read only when opts->rows or opts->cols is given, NULL
 * allowed otherwise) before anything is rendered.  Returns 0, or -EINVAL
 * with a message naming the option, the value and the choices. */
struct kb_rmodel;
int layout_check(const struct kb_rmodel *m, const struct report_opts *opts);

/* 1 when the layout's tables span jobs (--rows job or --cols job): the
 * report then has one part, "all jobs", built with job = NULL. */
int layout_spans_jobs(const struct report_opts *opts);

/* Append to j the tables of layout opts->layout (rounds, scaling,
 * mmtests, lkp, pivot) for job (NULL: all jobs), metric being the one to
 * show.  m: the typed model of the results (results/rmodel.h: the runs,
 * their values and the campaign metadata the cells come from).  an: its
 * analysis as typed rows (results/analysis.h, kb_analysis__from_json()),
 * what the layouts read of its summaries and comparisons.  rows: the
 * configurations in display order.  Returns 0 or -EINVAL (message
 * printed: e.g. nothing swept for scaling). */
struct kb_analysis;
int layout_job_tables(const struct kb_rmodel *m, const struct kb_analysis *an,
		      const char *job, const char *metric,
		      const struct kb_profile_rows *rows,
		      const struct report_opts *opts, struct kb_report_job *j);

#endif
