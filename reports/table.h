/* reports/table.h - the report model shared by the text and markdown
 * renderers: a report is a header (key/value lines) and, per job, a few
 * tables with notes under them (the structures: results/report_tables.h).
 * Strings are UTF-8 and may hold "±", which the text renderer writes as
 * "+-". */
#ifndef KB_REPORT_TABLE_H
#define KB_REPORT_TABLE_H

#include <stdio.h>

#include "reports/report.h"
#include "results/report_tables.h"

struct kb_table *kb_table_new(const char *title);
/* Add a column; all columns before the first row. */
void kb_table_add_col(struct kb_table *t, const char *head, int right,
		      int group);
/* Append a row of blank cells; returns its index. */
size_t kb_table_add_row(struct kb_table *t, int group_start);
void kb_table_set(struct kb_table *t, size_t row, size_t col,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Mark a cell significant (markdown: bold). */
void kb_table_set_strong(struct kb_table *t, size_t row, size_t col);
void kb_table_add_note(struct kb_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append table t (owned from then on) to job j; t NULL: nothing. */
void kb_report_job_add(struct kb_report_job *j, struct kb_table *t);
/* Append to job j a table of one note and nothing else: why a table
 * asked for by name (--layout) is not there, so that the job does not
 * print its header alone. */
void kb_report_job_note(struct kb_report_job *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Decimals of a metric's values by unit: 0 for ns, ms, KiB and counts,
 * else 2 (seed 000's "472.39"); a per-host "host.NAME.METRIC"
 * (lib/metrics.h kb_metric_host_split()) has METRIC's. */
int kb_metric_decimals(const char *metric);
/* How a table of one metric's values is written (--prefix,
 * report_opts.prefix): each value v as v / div with dec decimals and
 * cell after it.  KB_PREFIX_NONE: div 1, no cell suffix, the metric's
 * own unit and kb_metric_decimals().  KB_PREFIX_AUTO, one prefix per
 * table, the smallest that writes the largest |value| of the table in
 * at most 4 integer digits (seed 002's "4310k"), and decimals for about
 * 4 significant digits (kb_scale_dec()):
 *   IOPS and counts: SI prefixes k M G T (x1000) on each cell ("4310k");
 *   KiB/s, KiB: KiB/s MiB/s GiB/s TiB/s (x1024), the unit in the title;
 *   ns, ms: ns us ms s (x1000), the unit in the title;
 *   %, ratios, s, MHz and unknown metrics: as KB_PREFIX_NONE.
 * A per-host metric ("host.NAME.METRIC") is scaled as METRIC. */
struct kb_scale {
	double div;		/* a value is written as value / div */
	int dec;		/* decimals of the table's values */
	int metric_dec;		/* the metric's own (kb_metric_decimals()) */
	int on;			/* scaled: --prefix auto and a unit it scales */
	const char *cell;	/* after each value: "", "k", "M", "G", "T" */
	const char *unit;	/* the values' unit for the title ("MiB/s",
				 * "us", "IOPS"); NULL: an unknown metric */
	const char *metric_unit;	/* the metric's own ("KiB/s"; a
					 * host.NAME.METRIC's: METRIC's);
					 * NULL: an unknown metric */
};
void kb_scale_pick(struct kb_scale *s, const char *metric, int prefix,
		   double maxabs);
/* Decimals under scale s for values up to maxabs (a stddev row's own,
 * smaller than the means'): about 4 significant digits, 0 to 3, never
 * more than the metric's own when nothing is scaled (s->div == 1). */
int kb_scale_dec(const struct kb_scale *s, double maxabs);
/* The decimals v is written with in a column of dec decimals: dec, or
 * where v is not 0 but "%.*f" would print it as 0 (a task's 0.5% of a
 * CPU at 0 decimals: "0"; -0.3: "-0") as many as show its first 2
 * significant digits ("0.50", "-0.30", 0.0004: "0.00040"), at most
 * KB_CELL_DEC_MAX (a cell stays narrow: below 5e-13, noise or garbage
 * in a results.json, still prints as 0).  0, NAN and infinities: dec. */
#define KB_CELL_DEC_MAX 12
int kb_cell_dec(int dec, double v);
/* kb_cell_dec() of v as written under scale s (v / s->div): 400 IOPS in
 * a table of 4310k, "0k" at dec 0, is "0.40k"; without --prefix the
 * same rule in the metric's unit. */
int kb_scale_cell_dec(const struct kb_scale *s, int dec, double v);
/* Cell (row, col) of t: v under scale s with dec decimals ("4310k"),
 * more for a value that is not 0 but would print as 0
 * (kb_scale_cell_dec()). */
void kb_table_set_scaled(struct kb_table *t, size_t row, size_t col,
			 const struct kb_scale *s, int dec, double v);
/* Under t, what an SI prefix on its cells means ("k = 10^3"); nothing
 * when s puts none on them. */
void kb_scale_note(struct kb_table *t, const struct kb_scale *s);
/* A bound of a change's CI in %, dec decimals, a sign always ("-0.0"
 * printed "+0.0"), and past +-9999% as ">+9999" / "<-9999" (a ratio's CI
 * has no lower bound below -100%, its upper one can be any size on wild
 * data: the cell stays narrow in an 80-column table).  Returns buf; len
 * 16 holds any. */
const char *kb_pct_bound(char *buf, size_t len, double v, int dec);

/* Build the report model of the typed results model m (results/
 * rmodel.h: its campaign metadata m->campaign, runs m->runs[].info and
 * analysis m->analysis, filled by stats_analyse()).  Returns 0 or
 * -EINVAL with a message (a metric neither known nor in the results, a
 * bad layout). */
int kb_report_build(const struct kb_rmodel *m, const struct report_opts *opts,
		    struct kb_report **out);

/* reports/text.c: plain fixed-width text, at most `width` columns. */
int report_text(FILE *out, const struct kb_report *r, int width);
/* The columns a string takes in the text report (UTF-8 code points,
 * "±" written as "+-"). */
size_t kb_text_width(const char *s);
/* The columns that t's columns [from, to) take in the text report,
 * each as wide as its widest cell or heading, plus the gap after each
 * (2). */
size_t kb_text_cols_width(const struct kb_table *t, size_t from, size_t to);
/* Write one text table (title, table, notes), wrapped to width. */
int kb_table_write_text(FILE *out, const struct kb_table *t, int width);
/* Write text word-wrapped to width: first line after prefix, further
 * lines indented by indent spaces. */
void kb_text_wrap(FILE *out, const char *prefix, const char *text,
		  int indent, int width);

/* reports/markdown.c: GitHub-flavoured markdown (m: the typed model of
 * the results the report was built from, results/rmodel.h).  With
 * opts->full_markdown the campaign's environment and reproducers come
 * first; campaigns merged by results_merge() always get their
 * environments (one section when they are equal, else one per
 * campaign); with opts->plots_href the plots of reports/plots.h are
 * embedded. */
int report_markdown(FILE *out, const struct kb_report *r,
		    const struct kb_rmodel *m);
int report_markdown_full(FILE *out, const struct kb_report *r,
			 const struct kb_rmodel *m,
			 const struct report_opts *opts);

/* reports/csv.c: the results (summaries and comparisons filled), as
 * the typed model m (results/rmodel.h) of them, as RFC 4180 CSV data,
 * one record per (configuration, job, metric), CRLF line ends, a
 * control character in a name written as '?'.  (The tables as JSON:
 * results/report_tables.h, results_report_tables_json().)  0, or -EIO
 * when writing fails. */
struct kb_rmodel;
int report_csv(FILE *out, const struct kb_rmodel *m);

#endif
