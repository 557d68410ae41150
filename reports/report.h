/* reports/report.h - render a results model as the tables posted to
 * linux-kernel (text), as GitHub tables (markdown) or as JSON.
 *
 * Input: the typed model (results/rmodel.h) of a results model
 * (docs/results-format.md, schema_version 1), analysed by stats_analyse()
 * (stats/compare.h: m->analysis holds the summaries and comparisons), or
 * built from a results.json export that holds them.
 *
 * Per job the text and markdown reports hold:
 *  - a comparison table: rows = configurations (variant name, then one
 *    column per tunable label), grouped by the value of the first tunable
 *    with a blank line between groups (the seed-000 "Kernel NM I/Os per
 *    sec" table); columns per chosen metric: mean, half-width of the 95%
 *    CI (Student t), change of the mean vs the baseline in percent
 *    ("base" on the baseline row) and n; then a legend, a note for n < 3
 *    and one line per failed run (nothing is hidden);
 *  - a CPU/time table (unless show_cpu_table is 0): means of
 *    rusage.user_s, rusage.sys_s, rusage.elapsed_s, rusage.cpu_pct,
 *    cpu.iowait_pct, disk.ios, disk.merges.
 * A value that was not measured prints "n/a", never 0; so does the CI
 * of a sample with n = 1.  Text output is ASCII ("+-" for the CI column),
 * has no tabs and no line longer than 80 columns: a table too wide is
 * split into several tables that repeat the configuration columns, and a
 * variant name too long for its column gets a line of its own.
 */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <stdio.h>

struct kb_rmodel;	/* results/rmodel.h */

struct report_opts {
	/* NULL-terminated metric names for the comparison table; NULL =
	 * default: the IOPS of the job's direction (read.iops if the job
	 * has it, else write.iops, else trim.iops). */
	const char **metrics;
	int show_cpu_table;	/* 1 = print the CPU/time table (default) */
	/* reports/layout.h: NULL = the default report (variants, time and
	 * profile tables); else a preset "variants", "profile", "time",
	 * "rounds", "scaling", "mmtests", "lkp", or "pivot" for rows/cols */
	const char *layout;
	const char *rows, *cols;	/* dimensions (reports/layout.h) */
	/* KB_PREFIX_NONE: values in the metric's own unit;
	 * KB_PREFIX_AUTO: the value tables of the rounds, scaling,
	 * mmtests and pivot layouts, and the variants table's mean and ±
	 * columns, scaled as kernel developers post them (k/M/G on IOPS
	 * and counts, MiB/s, us, ...: reports/table.h struct kb_scale);
	 * KB_PREFIX_CAMPAIGN (the default, --prefix not given): the
	 * campaign's kernels.conf prefix = (campaign.prefix), AUTO for
	 * "auto", else NONE (report_prefix()); csv and json are never
	 * scaled */
	int prefix;
	/* markdown: plot images to embed (reports/plots.h), as written by
	 * plots_write() into plots_dir and linked as plots_href/NAME (a
	 * path relative to the markdown file); NULL = no plots */
	const char *plots_dir, *plots_href;
	/* markdown: add the environment and reproducer sections (the
	 * runner's report.md); 0 = tables only */
	int full_markdown;
};

enum { KB_PREFIX_NONE = 0, KB_PREFIX_AUTO, KB_PREFIX_CAMPAIGN };

/* --prefix's word: KB_PREFIX_AUTO for "auto", KB_PREFIX_NONE for
 * "none", -1 for anything else (the caller names it). */
int report_prefix_word(const char *word);

/* The prefix the tables of m are written with under opts (NULL: the
 * defaults): opts->prefix, or with KB_PREFIX_CAMPAIGN that of m's
 * campaign (kernels.conf prefix = auto, results campaign.prefix; for
 * merged campaigns the first's), KB_PREFIX_NONE when it has none.
 * KB_PREFIX_NONE or KB_PREFIX_AUTO. */
int report_prefix(const struct report_opts *opts, const struct kb_rmodel *m);

/* Widest line of the text format. */
#define REPORT_TEXT_WIDTH 80

/* Set *opts to the defaults (metrics NULL, show_cpu_table 1, prefix
 * KB_PREFIX_CAMPAIGN). */
void report_opts_init(struct report_opts *opts);

/* Render the model m to out in format "text", "markdown", "csv" (RFC
 * 4180, reports/csv.c) or "json" (the whole results model m->results,
 * JSON_INDENT(2)|JSON_SORT_KEYS, newline-terminated; with opts->layout or
 * rows/cols the tables instead, results/report_tables.h).  opts
 * may be NULL for the defaults.  Returns 0, -EINVAL (message printed) for
 * an unknown format or a metric neither in lib/metrics.h nor in the
 * results, -EIO when writing fails. */
int report_render(FILE *out, const struct kb_rmodel *m, const char *format,
		  const struct report_opts *opts);

#endif
