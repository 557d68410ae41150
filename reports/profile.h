/* reports/profile.h - the profile and time/task tables of a job.
 *
 *  - per sampled role (cycles = "CPU", dcm = "DCM"): rows = configurations,
 *    a TAG column ("CPU:"/"DCM:"), then for each symbol group G with a
 *    parent P (profiles/symbols.conf) the means of profile.ROLE.G.total_pct
 *    ("Total", share of all samples) and profile.ROLE.G.P_pct ("I/O Code"
 *    for P = io: share of the parent's samples), each with the half-width
 *    of its 95% CI, then the top-level groups' total shares: exactly seed
 *    000's second and third tables.  Notes say when cycles fell back to
 *    cpu-clock and why a role is n/a (the runs' "profile:" warnings).
 *    The legend names every column, the top-level groups too (io,
 *    idle: that group's share of all samples).
 *  - the time table of seed 001 as two tables, so that each fits a page
 *    (its 13 columns in one overflowed 100 columns): fio's user, system,
 *    elapsed, %CPU, maxresident, faults (rusage.*); then the sustained
 *    CPU split by task group (task.GROUP.cpu_pct, percent of one CPU).
 */
#ifndef KB_REPORT_PROFILE_H
#define KB_REPORT_PROFILE_H

#include "reports/table.h"

struct kb_rmodel;

/* The rows of a report, in display order (built by reports/builder.c). */
struct kb_profile_rows {
	size_t n;
	const char **ids;	/* configuration ids */
	const char **variants;
	const int *group_start;
	const char **labels;	/* tunable labels */
	size_t nlabels;
	const char *baseline;
};

/* Append to out (at most max) the profile tables and the time/task table
 * of job, built from the typed results model m (results/rmodel.h): its
 * analysis' summaries (the time/task tables; the profile tables too
 * unless the campaign sampled in profiling runs: then the rows
 * m->analysis.profiling_summaries), profile_overhead rows (the notes on
 * perf record's cost, stats/profiling.h), configurations' tunable values
 * (m->campaign) and the "profile: " warnings of its runs (or of its extra
 * runs, m->profiling); tables whose metrics are absent altogether are
 * left out.  Returns the number appended. */
size_t profile_tables(const struct kb_rmodel *m, const char *job,
		      const struct kb_profile_rows *rows,
		      struct kb_table **out, size_t max);

/* The same, only the tables selected by which: PROFILE_ROLES (the CPU
 * and DCM profile tables), PROFILE_TIME (the seed-001 time and task
 * tables: 2 tables, appended only when both fit max). */
#define PROFILE_ROLES 1u
#define PROFILE_TIME 2u
size_t profile_tables_which(const struct kb_rmodel *m, const char *job,
			    const struct kb_profile_rows *rows,
			    struct kb_table **out, size_t max, unsigned which);

#endif
