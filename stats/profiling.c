/* stats/profiling.c - see profiling.h. */
#include "stats/profiling.h"
#include "stats/paired.h"
#include "stats/summary.h"
#include "results/rmodel.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* read.iops + write.iops + trim.iops of run r of m, or NAN when none is a
 * number (not measured). */
static double run_iops(const struct kb_rmodel *m, size_t r)
{
	static const char *const dirs[] = { "read.iops", "write.iops",
					    "trim.iops" };
	double sum = 0, v;
	int any = 0;
	size_t i, k;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		k = kb_rmodel__metric(m, dirs[i]);
		if (k == KB_RMODEL_NONE || isnan(v = kb_rmodel__value(m, r, k)))
			continue;
		sum += v;
		any = 1;
	}
	return any ? sum : NAN;
}

/* A run's configuration id and job name ("" for none). */
static const char *run_config(const struct kb_rmodel *m, size_t r)
{
	size_t c = m->runs[r].config;

	return c == KB_RMODEL_NONE ? "" : m->configs.v[c];
}

static const char *run_job(const struct kb_rmodel *m, size_t r)
{
	size_t j = m->runs[r].job;

	return j == KB_RMODEL_NONE ? "" : m->jobs.v[j];
}

/* The extra runs of one round (configuration, job, iteration): their
 * IOPS summed and counted. */
struct round {
	const char *cfg, *job;
	long iteration;
	double sum;
	long n;
};

/* The summaries of the sampled extra runs ("extra": "profiling") into
 * an->profiling_summaries; 0 or stats_fill_summaries_in()'s error. */
static int fill_summaries(struct kb_rmodel *m)
{
	const struct kb_rmodel *x = m->profiling;
	struct kb_analysis *an = &m->analysis;
	struct kb_rmodel *s;
	size_t r;
	int ret;

	for (r = 0; r < x->nruns; r++)
		if (!strcmp(x->runs[r].info.extra ?: "", "profiling"))
			break;
	if (r == x->nruns)
		return 0;
	s = kb_rmodel__new_extra(m->results, "profiling");
	ret = stats_fill_summaries_in(s);
	if (!ret) {	/* the rows move over */
		an->profiling_sampled = 1;
		an->profiling_summaries = s->analysis.summaries;
		an->nprofiling_summaries = s->analysis.nsummaries;
		s->analysis.summaries = NULL;
		s->analysis.nsummaries = 0;
	}
	kb_rmodel__delete(s);
	return ret;
}

/* One profile_overhead row of (cfg, job) from n pairs. */
static void overhead_row(struct kb_analysis *an, const char *cfg,
			 const char *job, const char *sampled,
			 const double *unsampled_iops,
			 const double *sampled_iops, size_t n)
{
	struct kb_profile_overhead_row *o =
		kb_analysis__add_profile_overhead(an);
	struct kb_log_test t;

	o->configuration = kb_xstrdup(cfg);
	o->job = kb_xstrdup(job);
	o->sampled = sampled;
	o->n = n;
	o->ratio = o->ci95_lo = o->ci95_hi = NAN;
	if (n == 1) {
		o->ratio = sampled_iops[0] / unsampled_iops[0];
	} else if (kb_paired_log_test(unsampled_iops, sampled_iops, n,
				      &t) == 0) {
		o->ratio = 1 + t.change_pct / 100;
		o->ci95_lo = 1 + t.change_ci95_lo_pct / 100;
		o->ci95_hi = 1 + t.change_ci95_hi_pct / 100;
	}
}

/* The IOPS of the last counted run of round rd (NAN: none). */
static double counted_iops(const struct kb_rmodel *m, const struct round *rd)
{
	double v, found = NAN;
	size_t r;

	for (r = 0; r < m->nruns; r++)
		if (m->runs[r].counts && m->runs[r].iteration == rd->iteration &&
		    !strcmp(run_config(m, r), rd->cfg) &&
		    !strcmp(run_job(m, r), rd->job) &&
		    isfinite(v = run_iops(m, r)) && v > 0)
			found = v;
	return found;
}

/* an->profile_overhead from the extra runs and the counted ones. */
static void fill_overhead(struct kb_rmodel *m)
{
	const struct kb_rmodel *x = m->profiling;
	const struct kb_rcampaign *camp = &m->campaign;
	const char *sampled = "profiling runs";
	struct round *rounds = kb_xcalloc(x->nruns + 1, sizeof(*rounds));
	double *a, *b, *cv, v;
	size_t r, i, c, j, n = 0;

	/* the extra runs of each round, in order of first appearance */
	for (r = 0; r < x->nruns; r++) {
		if (!x->runs[r].ok || !isfinite(v = run_iops(x, r)) || v <= 0)
			continue;
		if (!strcmp(x->runs[r].info.extra ?: "", "unsampled"))
			sampled = "counted runs";
		for (i = 0; i < n; i++)
			if (rounds[i].iteration == x->runs[r].iteration &&
			    !strcmp(rounds[i].cfg, run_config(x, r)) &&
			    !strcmp(rounds[i].job, run_job(x, r)))
				break;
		if (i == n) {
			rounds[n].cfg = run_config(x, r);
			rounds[n].job = run_job(x, r);
			rounds[n++].iteration = x->runs[r].iteration;
		}
		rounds[i].sum += v;
		rounds[i].n++;
	}
	cv = kb_xcalloc(n + 1, sizeof(*cv));
	for (i = 0; i < n; i++)
		cv[i] = counted_iops(m, &rounds[i]);
	a = kb_xcalloc(n + 1, sizeof(*a));
	b = kb_xcalloc(n + 1, sizeof(*b));
	/* configurations and jobs in the campaign's order */
	for (c = 0; c < camp->nconfigs; c++) {
		const char *cfg = camp->configs[c].id;

		for (j = 0; j < camp->jobs.n; j++) {
			const char *job = camp->jobs.v[j];
			size_t np = 0;

			if (!cfg || !job)
				continue;
			for (i = 0; i < n; i++) {
				double extra = rounds[i].sum /
					       (double)rounds[i].n;

				if (strcmp(rounds[i].cfg, cfg) ||
				    strcmp(rounds[i].job, job) || isnan(cv[i]))
					continue;
				/* profiling runs sample: the counted run is
				 * the unsampled side; counted-runs: the
				 * other way round */
				a[np] = !strcmp(sampled, "profiling runs") ?
					cv[i] : extra;
				b[np] = !strcmp(sampled, "profiling runs") ?
					extra : cv[i];
				np++;
			}
			if (np)
				overhead_row(&m->analysis, cfg, job, sampled,
					     a, b, np);
		}
	}
	free(rounds);
	free(cv);
	free(a);
	free(b);
}

int stats_fill_profiling_in(struct kb_rmodel *m)
{
	int ret = 0;

	kb_analysis__clear_profiling(&m->analysis);
	if (m->profiling) {
		ret = fill_summaries(m);
		if (!ret)
			fill_overhead(m);
	}
	kb_analysis__profiling_to_json(&m->analysis, m->results);
	return ret;
}

