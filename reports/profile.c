/* reports/profile.c - see profile.h. */
#include "reports/profile.h"
#include "results/rmodel.h"
#include "lib/file.h"
#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pctx {
	const struct kb_summary_row *summaries;	/* the typed summaries
						 * read (results/analysis.h) */
	size_t nsummaries;
	const struct kb_rmodel *runs;	/* whose runs' warnings: the model's
					 * or its extra runs' (NULL: none) */
	const struct kb_rcampaign *campaign;	/* tunable values */
	const char *job;
	const struct kb_profile_rows *rows;
	const struct kb_analysis *an;	/* its profile_overhead rows */
	const char *source;	/* whose samples: "profiling runs" or
				 * "timed runs" */
	int overhead_said;	/* perf record's cost is under a table
				 * already: once per job, the ratios are
				 * a configuration's, not a role's */
};

static const struct kb_summary_row *summary(struct pctx *c, const char *cfg,
					    const char *metric)
{
	return kb_summary_rows__find(c->summaries, c->nsummaries, cfg, c->job,
				     metric);
}

/* The job of run r of the runs read, or NULL. */
static const char *run_job(const struct kb_rmodel *m, size_t r)
{
	return m->runs[r].job == KB_RMODEL_NONE ? NULL :
	       m->jobs.v[m->runs[r].job];
}

/* Metric names of the job's summaries matching prefix*suffix, in order
 * of first appearance. */
static size_t metric_names(struct pctx *c, const char *prefix,
			   const char *suffix, const char **out, size_t max)
{
	size_t i, k, n = 0, lp = strlen(prefix), ls = strlen(suffix), lm;
	const char *m, *j;

	for (i = 0; i < c->nsummaries; i++) {
		m = c->summaries[i].metric;
		j = c->summaries[i].job;
		if (!m || !j || strcmp(j, c->job))
			continue;
		lm = strlen(m);
		if (lm <= lp + ls || strncmp(m, prefix, lp) ||
		    strcmp(m + lm - ls, suffix))
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(out[k], m))
				break;
		if (k == n && n < max)
			out[n++] = m;
	}
	return n;
}

static size_t key_cols(struct pctx *c, struct kb_table *t)
{
	size_t i;

	kb_table_add_col(t, "Kernel", 0, 0);
	for (i = 0; i < c->rows->nlabels; i++)
		kb_table_add_col(t, c->rows->labels[i], 1, 0);
	return 1 + c->rows->nlabels;
}

static size_t cfg_row(struct pctx *c, struct kb_table *t, size_t i)
{
	size_t row = kb_table_add_row(t, c->rows->group_start[i]), l;
	const struct kb_rconfig *x = kb_rcampaign__config(c->campaign,
							  c->rows->ids[i]);

	kb_table_set(t, row, 0, "%s", c->rows->variants[i]);
	for (l = 0; l < c->rows->nlabels; l++)
		kb_table_set(t, row, 1 + l, "%s",
			     kb_rconfig__tunable(x, c->rows->labels[l]) ?: "");
	return row;
}

static void mean_cell(struct pctx *c, struct kb_table *t, size_t row,
		      size_t col, size_t i, const char *metric,
		      const char *fmt_suffix, int dec, int with_ci)
{
	const struct kb_summary_row *s = summary(c, c->rows->ids[i], metric);
	double half;

	/* a value that is not 0 is never written as one (a task's 0.5% of
	 * a CPU: "0.50", not "0"; kb_cell_dec()) */
	if (s && isfinite(s->mean))
		kb_table_set(t, row, col, "%.*f%s", kb_cell_dec(dec, s->mean),
			     s->mean, fmt_suffix);
	else
		kb_table_set(t, row, col, "n/a");
	if (!with_ci)
		return;
	/* the CI is written (null otherwise) only with an sd */
	half = s ? kb_ci95_half(s->mean, s->ci95_lo, s->ci95_hi, s->harmonic) :
	       NAN;
	if (s && s->has_sd && isfinite(half))
		kb_table_set(t, row, col + 1, "%.*f", kb_cell_dec(dec, half),
			     half);
	else
		kb_table_set(t, row, col + 1, "n/a");
}

/* Distinct "profile:" warnings of the job's runs that mention role. */
static void role_notes(struct pctx *c, struct kb_table *t, const char *role)
{
	const char *seen[16];
	size_t i, k, ns = 0, rl = strlen(role);

	for (i = 0; c->runs && i < c->runs->nruns; i++) {
		const struct kb_rstrs *w = &c->runs->runs[i].info.warnings;
		const char *j = run_job(c->runs, i);

		if (!j || strcmp(j, c->job))
			continue;
		for (k = 0; k < w->n; k++) {
			const char *s = w->v[k];
			size_t q;

			if (!s || strncmp(s, "profile: ", 9))
				continue;
			if (strncmp(s + 9, role, rl) && !strstr(s, role))
				continue;
			for (q = 0; q < ns; q++)
				if (!strcmp(seen[q], s))
					break;
			if (q < ns || ns == 16)
				continue;
			seen[ns++] = s;
			kb_table_add_note(t, "%s", s + 9);
		}
	}
}

/* Under a profile table: the IOPS ratio sampled / unsampled of each
 * configuration with its 95% CI (stats/profiling.h). */
static void overhead_notes(struct pctx *c, struct kb_table *t)
{
	size_t i;
	int first = 1;

	for (i = 0; !c->overhead_said && i < c->an->nprofile_overhead; i++) {
		const struct kb_profile_overhead_row *e =
			&c->an->profile_overhead[i];
		const char *cfg = e->configuration;
		double n = (double)e->n;

		if (!cfg || !e->job || strcmp(e->job, c->job))
			continue;
		if (first)
			kb_table_add_note(t, "perf record's cost: IOPS with "
					  "sampling / without, 95%% CI (%s, "
					  "paired by round):",
					  !strcmp(e->sampled ?: "",
					  "counted runs") ? "the sampled "
					  "counted runs / the unsampled runs" :
					  "the profiling runs / the counted "
					  "runs");
		first = 0;
		if (!isfinite(e->ratio))
			kb_table_add_note(t, "  %s: n/a", cfg);
		else if (isfinite(e->ci95_lo) && isfinite(e->ci95_hi))
			kb_table_add_note(t, "  %s: %.3f (%.3f-%.3f, n=%.0f)",
					  cfg, e->ratio, e->ci95_lo,
					  e->ci95_hi, n);
		else
			kb_table_add_note(t, "  %s: %.3f (n=%.0f: no CI)", cfg,
					  e->ratio, n);
	}
	if (!first)
		c->overhead_said = 1;
}

static int role_mentioned(struct pctx *c, const char *role)
{
	char pre[64];
	const char *m[1];
	size_t i, k;

	snprintf(pre, sizeof(pre), "profile.%s.", role);
	if (metric_names(c, pre, "_pct", m, 1))
		return 1;
	snprintf(pre, sizeof(pre), "profile: %s:", role);
	for (i = 0; c->runs && i < c->runs->nruns; i++) {
		const struct kb_rstrs *w = &c->runs->runs[i].info.warnings;

		for (k = 0; k < w->n; k++)
			if (w->v[k] && !strncmp(w->v[k], pre, strlen(pre)))
				return 1;
	}
	return 0;
}

static struct kb_table *role_table(struct pctx *c, const char *role,
				   const char *tag)
{
	const char *tot[32], *all[64];
	char pre[64], *title, *head, *metric, *tops = NULL;
	struct kb_table *t;
	size_t ntot, nall, i, g, k, nkey, row, col, nchild = 0;
	/* child groups: metric profile.ROLE.G.P_pct with P != total */
	const char *child[32], *parent[32];

	if (!role_mentioned(c, role))
		return NULL;
	snprintf(pre, sizeof(pre), "profile.%s.", role);
	ntot = metric_names(c, pre, ".total_pct", tot, 32);
	nall = metric_names(c, pre, "_pct", all, 64);
	for (g = 0; g < ntot && nchild < 32; g++) {
		const char *gname = tot[g] + strlen(pre);
		size_t gl = strlen(gname) - strlen(".total_pct");

		for (k = 0; k < nall; k++) {
			const char *rest = all[k] + strlen(pre);

			if (strncmp(rest, gname, gl) || rest[gl] != '.' ||
			    !strcmp(rest + gl, ".total_pct"))
				continue;
			child[nchild] = all[k];
			parent[nchild++] = tot[g];
		}
	}
	title = kb_xasprintf("%s: %s profile (perf record -a), share of "
			     "samples, mean of the %s, 95%% CI",
			     c->job, tag, c->source);
	t = kb_table_new(title);
	free(title);
	nkey = key_cols(c, t);
	kb_table_add_col(t, "TAG", 0, 0);
	for (k = 0; k < nchild; k++) {
		const char *rest = child[k] + strlen(pre);
		size_t gl = strcspn(rest, ".");
		char *pname = kb_xasprintf("%s", rest + gl + 1);

		pname[strlen(pname) - 4] = '\0';	/* "_pct" */
		head = nchild > 1 ? kb_xasprintf("%.*s Total", (int)gl, rest) :
		       kb_xstrdup("Total");
		kb_table_add_col(t, head, 1, (int)k + 1);
		kb_table_add_col(t, "±", 1, (int)k + 1);
		free(head);
		if (!strcmp(pname, "io"))
			head = kb_xstrdup(nchild > 1 ? "in I/O Code" :
					  "I/O Code");
		else
			head = kb_xasprintf("in %s", pname);
		kb_table_add_col(t, head, 1, (int)k + 1);
		kb_table_add_col(t, "±", 1, (int)k + 1);
		free(head);
		free(pname);
		(void)parent;
	}
	/* top-level groups: the ones with no ".P_pct" sibling; a column
	 * each, so that a symbols.conf of many groups splits the table into
	 * parts of 80 columns instead of overflowing them */
	for (g = 0; g < ntot; g++) {
		for (k = 0; k < nchild; k++)
			if (parent[k] == tot[g])
				break;
		if (k < nchild)
			continue;
		head = kb_xasprintf("%.*s", (int)(strlen(tot[g]) - strlen(pre) -
				    strlen(".total_pct")), tot[g] + strlen(pre));
		kb_table_add_col(t, head, 1, (int)(nchild + 1 + g));
		free(head);
	}
	if (!nchild && !ntot) {	/* nothing sampled: the seed's columns */
		kb_table_add_col(t, "Total", 1, 1);
		kb_table_add_col(t, "I/O Code", 1, 1);
	}
	kb_table_add_col(t, "n", 1, (int)(nchild + 1 + ntot));

	for (i = 0; i < c->rows->n; i++) {
		const struct kb_summary_row *s;

		row = cfg_row(c, t, i);
		kb_table_set(t, row, nkey, "%s:", tag);
		col = nkey + 1;
		for (k = 0; k < nchild; k++) {
			mean_cell(c, t, row, col, i, parent[k], "%", 4, 1);
			mean_cell(c, t, row, col + 2, i, child[k], "%", 4, 1);
			col += 4;
		}
		for (g = 0; g < ntot; g++) {
			for (k = 0; k < nchild; k++)
				if (parent[k] == tot[g])
					break;
			if (k < nchild)
				continue;
			mean_cell(c, t, row, col++, i, tot[g], "%", 2, 0);
		}
		if (!nchild && !ntot) {
			kb_table_set(t, row, col++, "n/a");
			kb_table_set(t, row, col++, "n/a");
		}
		metric = kb_xasprintf("profile.%s.kernel_pct", role);
		s = summary(c, c->rows->ids[i], metric);
		free(metric);
		kb_table_set(t, row, col, "%ld", s ? (long)s->n : 0L);
	}
	/* every column in the legend: the top-level groups too */
	for (g = 0; g < ntot; g++) {
		char *more;

		for (k = 0; k < nchild; k++)
			if (parent[k] == tot[g])
				break;
		if (k < nchild)
			continue;
		more = kb_xasprintf("%s%s%.*s", tops ? tops : "", tops ?
				    ", " : "", (int)(strlen(tot[g]) -
				    strlen(pre) - strlen(".total_pct")),
				    tot[g] + strlen(pre));
		free(tops);
		tops = more;
	}
	/* the columns this table has: Total and I/O Code (with their ±)
	 * for groups with parts, or the seed's two when nothing was
	 * sampled; a top-level group's own (no ±) */
	if (nchild || !ntot) {
		/* which groups: the legend said "the group's share" and
		 * never which (a new user's trial: Total is the share of
		 * [merge], seed 000's merge code) */
		char *which;

		if (nchild == 1) {
			const char *rest = child[0] + strlen(pre);
			size_t gl = strcspn(rest, "."), pl;
			const char *pn = rest + gl + 1;

			pl = strlen(pn) - strlen("_pct");
			which = kb_xasprintf("Total: the [%.*s] group's share "
					     "of all %s samples; %s%.*s: its "
					     "share of the [%.*s] group's "
					     "samples", (int)gl, rest, tag,
					     pl == 2 && !strncmp(pn, "io", 2) ?
					     "I/O Code" : "in ", pl == 2 &&
					     !strncmp(pn, "io", 2) ? 0 :
					     (int)pl, pn, (int)pl, pn);
		} else if (nchild) {
			which = kb_xasprintf("GROUP Total: that group's share "
					     "of all %s samples; in I/O Code, "
					     "in PARENT: its share of its "
					     "parent group's samples", tag);
		} else {	/* nothing sampled: the seed's columns */
			which = kb_xasprintf("Total: the group's share of "
					     "all %s samples; I/O Code: its "
					     "share of the [io] group's "
					     "samples", tag);
		}
		kb_table_add_note(t, "%s%s%s%s (groups: "
				  "profiles/symbols.conf)%s; n: the runs "
				  "averaged; n/a: not measured", which,
				  tops ? "; " : "", tops ? tops : "", tops ?
				  ": the share of all samples in that group" :
				  "", nchild ? "; ±: half-width of the 95% CI" :
				  "");
		free(which);
	} else
		kb_table_add_note(t, "%s: the share of all %s samples in "
				  "that group (groups: profiles/symbols.conf); "
				  "n: the runs averaged; n/a: not measured",
				  tops, tag);
	free(tops);
	if (!strcmp(c->source, "profiling runs"))
		kb_table_add_note(t, "profiling runs: extra runs that sample "
				  "(kernels.conf profile_runs =), never "
				  "counted: no counted run had perf running");
	overhead_notes(c, t);
	role_notes(c, t, role);
	return t;
}

static const struct {
	const char *metric;
	const char *head;
	int dec;
} time_cols[] = {
	{ "rusage.user_s", "user", 2 },
	{ "rusage.sys_s", "system", 2 },
	{ "rusage.elapsed_s", "elapsed", 2 },
	{ "rusage.cpu_pct", "%CPU", 0 },
	{ "rusage.maxrss_kib", "maxres KiB", 0 },
	{ "rusage.major_faults", "major", 0 },
	{ "rusage.minor_faults", "minor", 0 },
	/* seed 001's "number of IOs issued", beside fio's CPU: what the
	 * CPU per I/O is read from; left out when no configuration has it
	 * (runs parsed before kbench read it: kbench report --reparse) */
	{ "fio.total_ios", "fio I/Os", 0 },
};
#define N_TIME (sizeof(time_cols) / sizeof(time_cols[0]))
#define TIME_IOS (N_TIME - 1)	/* fio.total_ios's column */

/* 1 when some configuration of c's rows has a summary of metric. */
static int rows_have(struct pctx *c, const char *metric)
{
	size_t i;

	for (i = 0; i < c->rows->n; i++)
		if (summary(c, c->rows->ids[i], metric))
			return 1;
	return 0;
}

/* Seed 001's time and task-CPU table as two tables, so that each fits
 * a page (13 columns in one overflowed 100 columns in text and
 * markdown): fio's time (the 7 rusage columns of /usr/bin/time, and the
 * I/Os fio issued, seed 001's "number of IOs issued") and the
 * sustained CPU by task (total, each task group, other).  Each keeps the
 * key columns and its own legend.  Returns the number of tables put in
 * out[0..2): 0 when no run recorded task CPU. */
static size_t time_tables(struct pctx *c, struct kb_table **out)
{
	const char *tasks[32];
	size_t nt, i, k, nkey, row, col, ntime;
	struct kb_table *t, *u;
	char *title, *head;

	nt = metric_names(c, "task.", ".cpu_pct", tasks, 32);
	if (!nt)
		return 0;
	title = kb_xasprintf("%s: fio's time (as /usr/bin/time), mean of the "
			     "timed runs", c->job);
	t = kb_table_new(title);
	free(title);
	nkey = key_cols(c, t);
	/* a group per column (as the CPU and I/O table's): a table too wide
	 * for 80 columns (many task groups, a long run's counts) is split
	 * into parts, not written past them */
	ntime = rows_have(c, time_cols[TIME_IOS].metric) ? N_TIME : TIME_IOS;
	for (k = 0; k < ntime; k++)
		kb_table_add_col(t, time_cols[k].head, 1, (int)k + 1);
	title = kb_xasprintf("%s: sustained CPU by task, %% of one CPU, mean "
			     "of the timed runs", c->job);
	u = kb_table_new(title);
	free(title);
	key_cols(c, u);
	/* total first, then the groups, other last */
	kb_table_add_col(u, "total%", 1, 1);
	for (k = 0; k < nt; k++) {
		const char *g = tasks[k] + 5;
		size_t gl = strlen(g) - strlen(".cpu_pct");

		if (!strncmp(g, "total.", 6) || !strncmp(g, "other.", 6))
			continue;
		head = kb_xasprintf("%.*s%%", (int)gl, g);
		kb_table_add_col(u, head, 1, (int)k + 2);
		free(head);
	}
	kb_table_add_col(u, "other%", 1, (int)nt + 2);
	for (i = 0; i < c->rows->n; i++) {
		row = cfg_row(c, t, i);
		col = nkey;
		for (k = 0; k < ntime; k++)
			mean_cell(c, t, row, col++, i, time_cols[k].metric, "",
				  time_cols[k].dec, 0);
		row = cfg_row(c, u, i);
		col = nkey;
		mean_cell(c, u, row, col++, i, "task.total.cpu_pct", "", 0, 0);
		for (k = 0; k < nt; k++) {
			const char *g = tasks[k] + 5;

			if (!strncmp(g, "total.", 6) || !strncmp(g, "other.", 6))
				continue;
			mean_cell(c, u, row, col++, i, tasks[k], "", 0, 0);
		}
		mean_cell(c, u, row, col++, i, "task.other.cpu_pct", "", 0, 0);
	}
	kb_table_add_note(t, "user, system, elapsed: seconds; %%CPU: "
			  "(user+system)/elapsed; maxres KiB: peak resident "
			  "set; major, minor: page faults; all from fio's "
			  "wait4 rusage%s; n/a: not measured", ntime > TIME_IOS ?
			  "; fio I/Os: the reads, writes and trims fio "
			  "issued, a count (fio's total_ios; the CPU and I/O "
			  "table's I/Os issued are the target's, after merges, "
			  "from /proc/diskstats)" : "");
	/* rusage_metrics() (parsers/run_dir.c): a maxres not above kbench's
	 * own peak at the fork is n/a, since it may be kbench's */
	for (i = 0; i < c->rows->n; i++)
		if (summary(c, c->rows->ids[i], time_cols[0].metric) &&
		    !summary(c, c->rows->ids[i], "rusage.maxrss_kib"))
			break;
	if (i < c->rows->n)
		kb_table_add_note(t, "maxres KiB n/a: fio's ru_maxrss was not "
				  "above kbench's own peak resident set at the "
				  "fork, which Linux counts in the child's, so "
				  "fio's own peak is not known (results.json: "
				  "the runs' unavailable)");
	kb_table_add_note(u, "CPU of every task during the run grouped by "
			  "comm (/proc/*/task/*/stat; task groups in "
			  "kernels.conf), 100%% = one CPU busy; total%%: every "
			  "task; other%%: the tasks of no group; n/a: not "
			  "measured");
	out[0] = t;
	out[1] = u;
	return 2;
}

size_t profile_tables_which(const struct kb_rmodel *m, const char *job,
			    const struct kb_profile_rows *rows,
			    struct kb_table **out, size_t max, unsigned which)
{
	const struct kb_analysis *an = &m->analysis;
	struct pctx c = { an->summaries, an->nsummaries, m, &m->campaign, job,
			  rows, an, "timed runs", 0 };
	/* the profile tables: the profiling runs' samples when the campaign
	 * has them (stats/profiling.h), else the timed runs' */
	struct pctx pc = c;
	struct kb_table *t;
	size_t n = 0;

	if (an->profiling_sampled) {
		pc.summaries = an->profiling_summaries;
		pc.nsummaries = an->nprofiling_summaries;
		pc.runs = m->profiling;
		pc.source = "profiling runs";
	}
	if ((which & PROFILE_ROLES) && n < max &&
	    (t = role_table(&pc, "cycles", "CPU")))
		out[n++] = t;
	if ((which & PROFILE_ROLES) && n < max &&
	    (t = role_table(&pc, "dcm", "DCM")))
		out[n++] = t;
	if ((which & PROFILE_TIME) && n + 2 <= max)
		n += time_tables(&c, out + n);
	return n;
}

size_t profile_tables(const struct kb_rmodel *m, const char *job,
		      const struct kb_profile_rows *rows,
		      struct kb_table **out, size_t max)
{
	return profile_tables_which(m, job, rows, out, max,
				    PROFILE_ROLES | PROFILE_TIME);
}
