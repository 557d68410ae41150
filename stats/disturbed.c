/* stats/disturbed.c - disturbed runs (stats/disturbed.h). */
#include "stats/disturbed.h"
#include "results/rmodel.h"
#include "lib/file.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kb_disturbed_rules_init(struct kb_disturbed_rules *r)
{
	r->other_cpu_pct = KB_DISTURBED_OTHER_CPU_PCT;
	r->other_factor = KB_DISTURBED_OTHER_FACTOR;
	r->steal_pct = KB_DISTURBED_STEAL_PCT;
	r->psi_pct = KB_DISTURBED_PSI_PCT;
	r->idle_fraction = KB_DISTURBED_IDLE_FRACTION;
}

/* A rule kernels.conf gave (results/campaign_info.h) into *v. */
static void rule_from(const struct kb_rdisturbed_rule *g, double *v)
{
	if (g->given)
		*v = g->value;
}

void kb_disturbed_rules_of(const struct kb_rcampaign *c,
			   struct kb_disturbed_rules *r)
{
	const struct kb_rdisturbed_rules *d = &c->disturbed_rules;

	kb_disturbed_rules_init(r);
	if (!d->present)
		return;
	rule_from(&d->other_cpu_pct, &r->other_cpu_pct);
	rule_from(&d->other_factor, &r->other_factor);
	rule_from(&d->steal_pct, &r->steal_pct);
	rule_from(&d->psi_pct, &r->psi_pct);
	rule_from(&d->idle_fraction, &r->idle_fraction);
}

/* Status ok, not a warm-up (excluded or not). */
static int counted_ok(const struct kb_rrun *x)
{
	return x->ok && !x->warmup;
}

/* The value of metric k (KB_RMODEL_NONE: none) in run r, NAN when not
 * measured: every comparison with it is false, so a missing metric never
 * disturbs a run. */
static double value_of(const struct kb_rmodel *m, size_t r, size_t k)
{
	return k == KB_RMODEL_NONE ? NAN : kb_rmodel__value(m, r, k);
}

/* GSL's interpolated quantile p of x[0..n) (n >= 1), the value
 * gsl_stats_quantile_from_sorted_data gives on the sorted array, found
 * by selection instead of a sort (issue 16): O(n).  With i = floor(p
 * (n - 1)) and d its fraction, (1 - d) x(i) + d x(i + 1), x(k) the k-th
 * smallest (gsl_stats_select, quickselect; x is reordered).  The same
 * arithmetic as GSL's (gsl/statistics/quantiles_source.c), so the
 * result is bit for bit the sorted one's. */
static double quantile_select(double *x, size_t n, double p)
{
	double index = p * (double)(n - 1);
	size_t lhs = (size_t)index;
	double delta = index - (double)lhs, lo;

	lo = gsl_stats_select(x, 1, n, lhs);
	if (lhs == n - 1)
		return lo;
	return (1 - delta) * lo + delta * gsl_stats_select(x, 1, n, lhs + 1);
}

/* Quantile p of metric over the counted runs (GSL's interpolated
 * quantile: quantile_select); NAN when none has it. */
static double runs_quantile_job(const struct kb_rmodel *m,
				const char *metric, double p, size_t job)
{
	size_t k = kb_rmodel__metric(m, metric), r, n = 0;
	double *x = calloc(m->nruns + 1, sizeof(*x)), q = NAN;

	if (!x)
		return NAN;
	for (r = 0; r < m->nruns; r++)
		if (counted_ok(&m->runs[r]) && isfinite(value_of(m, r, k)) &&
		    (job == KB_RMODEL_NONE || m->runs[r].job == job))
			x[n++] = value_of(m, r, k);
	if (n)
		q = quantile_select(x, n, p);
	free(x);
	return q;
}

/* runs_quantile_job() over every job's runs */
static double runs_quantile(const struct kb_rmodel *m, const char *metric,
			    double p)
{
	return runs_quantile_job(m, metric, p, KB_RMODEL_NONE);
}

/* The limits of task.other.cpu_pct and cpu.idle_pct from the quartiles
 * of the runs of job (KB_RMODEL_NONE: of every job) */
static void job_limits(const struct kb_rmodel *m,
		       const struct kb_disturbed_rules *r, size_t job,
		       double *other_q1, double *idle_q3, double *other_lim,
		       double *idle_lim)
{
	*other_q1 = runs_quantile_job(m, "task.other.cpu_pct", 0.25, job);
	*idle_q3 = runs_quantile_job(m, "cpu.idle_pct", 0.75, job);
	*other_lim = *idle_lim = NAN;
	if (isfinite(r->other_cpu_pct)) {
		*other_lim = r->other_cpu_pct;
		if (isfinite(*other_q1) && isfinite(r->other_factor) &&
		    r->other_factor * *other_q1 > *other_lim)
			*other_lim = r->other_factor * *other_q1;
	}
	if (isfinite(r->idle_fraction) && isfinite(*idle_q3) &&
	    *idle_q3 >= KB_DISTURBED_IDLE_MIN_REF)
		*idle_lim = r->idle_fraction * *idle_q3;
}

double stats_runs_median_in(const struct kb_rmodel *m, const char *metric)
{
	return runs_quantile(m, metric, 0.5);
}

double stats_runs_median_campaign_in(const struct kb_rmodel *m,
				     const char *metric, size_t campaign)
{
	size_t k = kb_rmodel__metric(m, metric), r, n = 0;
	double *x = kb_xcalloc(m->nruns + 1, sizeof(*x)), q = NAN;

	if (k != KB_RMODEL_NONE)
		for (r = 0; r < m->nruns; r++)
			if (m->runs[r].campaign == campaign &&
			    counted_ok(&m->runs[r]) &&
			    isfinite(value_of(m, r, k)))
				x[n++] = value_of(m, r, k);
	if (n)
		q = quantile_select(x, n, 0.5);
	free(x);
	return q;
}

int stats_machine_busy_in(const struct kb_rmodel *m, double *other_median,
			  size_t *disturbed, size_t *total)
{
	const struct kb_rdisturbed_settings *set = &m->campaign.disturbed;
	double other = stats_runs_median_in(m, "task.other.cpu_pct");
	const char *all = NULL;

	if (other_median)
		*other_median = other;
	stats_disturbed_counts_in(m, &all, 1, NULL, disturbed, total);
	if (!set->present || !*total)
		return -1;
	/* merged campaigns (results_merge()): each run was judged against
	 * its own campaign's level, which the merged model does not keep
	 * (its limit is one campaign's: the verdict changed with the order
	 * of the arguments, a break-it trial); the share alone decides */
	if (m->campaigns.n > 2)
		return (double)*disturbed > KB_BUSY_DISTURBED_SHARE *
		       (double)*total;
	if ((double)*disturbed > KB_BUSY_DISTURBED_SHARE * (double)*total ||
	    (isfinite(other) && !isnan(set->other_cpu_limit) &&
	     other > set->other_cpu_limit))
		return 1;
	/* above the floor the limit starts from, all along */
	return isfinite(other) && !isnan(set->other_cpu_pct) &&
	       other > set->other_cpu_pct ? 2 : 0;
}

/* "131%" / "7.3%": whole percents from 10 up */
static void pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) >= 10 ? "%.0f%%" : "%.1f%%", v);
}

/* The broken rules of one run, as results.json lists them. */
struct reasons {
	char line[4][128];
	const char *v[4];
	size_t n;
};

/* "metric V op LIMIT" into w when v op limit holds (op ">" or "<"; a
 * limit that is off, NAN, holds for nothing). */
static void add_reason(struct reasons *w, const char *metric, double v,
		       const char *op, double limit)
{
	char a[32], b[32];
	int d;

	if (!isfinite(limit) || !(*op == '>' ? v > limit : v < limit))
		return;
	pct(a, sizeof(a), v);
	pct(b, sizeof(b), limit);
	/* "15% < 15%": one more decimal until they differ */
	for (d = 1; d <= 6 && !strcmp(a, b); d++) {
		snprintf(a, sizeof(a), "%.*f%%", d, v);
		snprintf(b, sizeof(b), "%.*f%%", d, limit);
	}
	snprintf(w->line[w->n], sizeof(w->line[w->n]), "%s %s %s %s", metric,
		 a, op, b);
	w->v[w->n] = w->line[w->n];
	w->n++;
}

int stats_mark_disturbed_in(struct kb_rmodel *m,
			    const struct kb_disturbed_rules *r, int exclude)
{
	struct kb_disturbed_rules own;
	struct kb_rdisturbed_settings set = { 0 };
	double other_q1, idle_q3, other_lim, idle_lim;
	size_t k_other = kb_rmodel__metric(m, "task.other.cpu_pct");
	size_t k_steal = kb_rmodel__metric(m, "cpu.steal_pct");
	size_t k_psi = kb_rmodel__metric(m, "psi.cpu_some_pct");
	size_t k_idle = kb_rmodel__metric(m, "cpu.idle_pct");
	size_t nj = m->jobs.n, i;
	double (*lim)[2] = kb_xmalloc((nj + 1) * sizeof(*lim));
	int ndist = 0;

	if (!r) {
		kb_disturbed_rules_of(&m->campaign, &own);
		r = &own;
	}
	/* each job against its own quiet level: a job that keeps the CPU
	 * busy has less idle than a light one on the same quiet machine
	 * (a helper's trial: randread-4k at 35% idle judged by seqwrite's
	 * 70%); the campaign's levels are recorded (one job: the same) */
	for (i = 0; i < nj; i++) {
		double q1, q3;

		job_limits(m, r, i, &q1, &q3, &lim[i][0], &lim[i][1]);
	}
	job_limits(m, r, KB_RMODEL_NONE, &other_q1, &idle_q3, &other_lim,
		   &idle_lim);
	lim[nj][0] = other_lim;
	lim[nj][1] = idle_lim;

	for (i = 0; i < m->nruns; i++) {
		struct reasons why = { .n = 0 };
		size_t j = m->runs[i].job < nj ? m->runs[i].job : nj;

		if (m->runs[i].ok) {
			add_reason(&why, "task.other.cpu_pct",
				   value_of(m, i, k_other), ">", lim[j][0]);
			add_reason(&why, "cpu.steal_pct",
				   value_of(m, i, k_steal), ">", r->steal_pct);
			add_reason(&why, "psi.cpu_some_pct",
				   value_of(m, i, k_psi), ">", r->psi_pct);
			add_reason(&why, "cpu.idle_pct",
				   value_of(m, i, k_idle), "<", lim[j][1]);
		}
		kb_rmodel__set_disturbed(m, i, why.v, why.n, exclude);
		if (why.n && !m->runs[i].warmup)
			ndist++;
	}
	free(lim);
	set.other_cpu_pct = r->other_cpu_pct;
	set.other_factor = r->other_factor;
	set.other_cpu_q1 = other_q1;
	set.other_cpu_limit = other_lim;
	set.steal_pct = r->steal_pct;
	set.psi_pct = r->psi_pct;
	set.idle_fraction = r->idle_fraction;
	set.idle_q3 = idle_q3;
	set.idle_limit = idle_lim;
	kb_rmodel__set_disturbed_settings(m, &set, exclude);
	return ndist;
}

void stats_disturbed_counts_in(const struct kb_rmodel *m,
			       const char *const *cfgs, size_t n,
			       const char *job, size_t *disturbed,
			       size_t *total)
{
	size_t r, k;

	for (k = 0; k < n; k++)
		disturbed[k] = total[k] = 0;
	for (r = 0; r < m->nruns; r++) {
		const struct kb_rrun *x = &m->runs[r];
		const char *rc = x->config != KB_RMODEL_NONE ?
				 m->configs.v[x->config] : "";
		const char *rj = x->job != KB_RMODEL_NONE ? m->jobs.v[x->job] :
				 "";
		int dist = x->info.disturbed.n > 0;

		if (!counted_ok(x))
			continue;
		if (job && strcmp(rj, job))
			continue;
		for (k = 0; k < n; k++) {
			if (cfgs[k] && strcmp(rc, cfgs[k]))
				continue;
			total[k]++;
			disturbed[k] += (size_t)dist;
		}
	}
}
