/* results/report_tables.h - the tables a report holds: a header
 * (key/value lines) and, per job, a few tables with notes under them,
 * and the runs the statistics left out or flagged.  reports/builder.c
 * fills it from a results model (reports/table.h builds it:
 * kb_table_new(), kb_table_add_col(), ...), the renderers of reports/
 * write it out as text or markdown, and results_report_tables_json()
 * below as JSON (results/ writes every JSON kbench writes, issue 12).
 * Strings are UTF-8 and may hold "±", which the text renderer writes as
 * "+-"; every string and array is owned by its table / report. */
#ifndef KB_RESULTS_REPORT_TABLES_H
#define KB_RESULTS_REPORT_TABLES_H

#include <stddef.h>
#include <stdio.h>

struct kb_col {
	char *head;
	int right;	/* right-aligned (numbers, tunable values) */
	int group;	/* 0: key column (the configuration), repeated in each
			 * part of a wrapped text table; columns sharing a
			 * group > 0 stay in the same part */
};

struct kb_row {
	char **cells;		/* ncols strings; "" is a blank cell */
	unsigned char *strong;	/* ncols flags: a significant cell, which
				 * markdown writes in bold */
	int group_start;	/* text: blank line before this row */
};

struct kb_table {
	char *title;		/* names the job and what the numbers are */
	struct kb_col *cols;
	size_t ncols;
	struct kb_row *rows;
	size_t nrows;
	char **notes;		/* legend and notes under the table */
	size_t nnotes;
};

struct kb_report_job {
	char *name;
	struct kb_table **tables;
	size_t ntables;
	char **failures;	/* "<config> <job> iteration <i>: <reason>" */
	size_t nfailures;
	/* runs that ran but do not count ("excluded" in the results
	 * model, results/json.h kb_run_counts()): suspect ones (page
	 * cache), another kernel build; "<config> <job> iteration <i>: <why>" */
	char **excluded;
	size_t nexcluded;
	/* counted runs with flags (steady state not attained, latency
	 * buckets, lost profile samples): "<config> ... <i>: <flags>" */
	char **flagged;
	size_t nflagged;
};

struct kb_report {
	char *title;		/* "kbench report: <campaign name>" */
	char **keys, **vals;	/* header lines: "Kernels", "..." */
	size_t nheader;
	struct kb_report_job *jobs;
	size_t njobs;
};

/* Free table t / report r and everything they own (NULL: nothing). */
void kb_table_free(struct kb_table *t);
void kb_report_free(struct kb_report *r);

/* Write r to out as the JSON of `kbench report --format json --layout
 * NAME` (jansson, JSON_INDENT(2), members in the order below, a final
 * newline):
 *   {"title", "header": {KEY: VALUE}, "jobs": [{"name", "tables":
 *   [{"title", "columns": [{"head", "align": "left" | "right"}], "rows":
 *   [{"cells": [...], "significant": [INDEX...]}], "notes": [...]}],
 *   "failures": [...], "excluded": [...] (runs left out of the
 *   statistics), "flagged": [...] (counted runs with flags)}]}
 * with DEL and C1 controls escaped as ESC is (kb_json_dumpf_shown()).
 * Returns 0, or -EIO when writing fails. */
int results_report_tables_json(FILE *out, const struct kb_report *r);

#endif
