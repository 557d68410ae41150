/* stats/summary.c - sample summaries and results["summaries"].
 * Formulas and their sources: see stats/summary.h. */
#include "lib/str.h"
#include "results/json.h"
#include "results/paths.h"
#include "results/rmodel.h"
#include "stats/summary.h"
#include "stats/modes.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

int kb_summarize(const double *x, size_t n, struct kb_summary *s)
{
	double *work = NULL;	/* a copy for the selection */
	double t, half;
	size_t i;
	int ret = 0;

	if (!x || !n || !s)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->sd = s->cv_pct = s->ci95_lo = s->ci95_hi = NAN;

	/* the median by selection (gsl_stats_median: quickselect, O(n),
	 * reorders its copy), not by sorting; the same value as the middle
	 * of the sorted values */
	work = kb_xmalloc(n * sizeof(*work));
	memcpy(work, x, n * sizeof(*work));
	gsl_stats_minmax(&s->min, &s->max, x, 1, n);
	s->median = gsl_stats_median(work, 1, n);
	s->mean = gsl_stats_mean(x, 1, n);
	if (!isfinite(s->mean) || !isfinite(s->median)) {
		ret = -ERANGE;
		goto out;
	}
	if (n < 2)
		goto out;

	/* sample sd: divides by n - 1 */
	s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
	if (!isfinite(s->sd)) {
		ret = -ERANGE;
		goto out;
	}
	s->has_sd = 1;
	s->cv_pct = s->mean != 0.0 ? s->sd / fabs(s->mean) * 100.0 : NAN;
	t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1));
	half = t * s->sd / sqrt((double)n);
	s->ci95_lo = s->mean - half;
	s->ci95_hi = s->mean + half;
	/* a mean of values never below 0 cannot be below 0: the interval is
	 * cut there (intersected with the parameter's range, still a 95%
	 * set: the mean is never below 0, so no interval that covered it
	 * loses it), as compare cuts a change's CI at -100% */
	if (s->ci95_lo < 0.0 && s->min >= 0.0)
		s->ci95_lo = 0.0;
out:
	free(work);
	return ret;
}

int kb_summarize_fixed_work(const double *x, size_t n, struct kb_summary *s)
{
	double *y, t, half, ybar;
	size_t i;
	int ret;

	ret = kb_summarize(x, n, s);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		if (!(x[i] > 0.0))
			return -EDOM;
	y = kb_xmalloc(n * sizeof(*y));
	for (i = 0; i < n; i++)
		y[i] = 1.0 / x[i];
	ybar = gsl_stats_mean(y, 1, n);
	s->mean = 1.0 / ybar;
	s->harmonic = 1;
	if (s->has_sd) {
		t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1));
		half = t * gsl_stats_sd_m(y, 1, n, ybar) / sqrt((double)n);
		s->ci95_lo = 1.0 / (ybar + half);
		s->ci95_hi = ybar - half > 0.0 ? 1.0 / (ybar - half) : NAN;
	}
	free(y);
	return 0;
}

double kb_ci95_half(double mean, double lo, double hi, int harmonic)
{
	if (!isfinite(mean) || !isfinite(lo) || !isfinite(hi))
		return NAN;
	return harmonic ? (hi - lo) / 2.0 : hi - mean;
}

int kb_metric_is_rate(const char *metric)
{
	size_t len = strlen(metric);

	return (len > 5 && !strcmp(metric + len - 5, ".iops")) ||
	       (len > 7 && !strcmp(metric + len - 7, ".bw_kib"));
}

/* The summary of one sample: kb_summarize(), or for a rate metric of
 * runs that all did fixed work kb_summarize_fixed_work(). */
static int summarize_sample(const struct kb_rmodel *m, size_t c, size_t j,
			    const char *metric, const double *x, size_t n,
			    struct kb_summary *s)
{
	size_t i, ng;
	const size_t *g = kb_rmodel__group(m, c, j, &ng);
	int rate = kb_metric_is_rate(metric);

	for (i = 0; rate && i < ng; i++)
		if (!m->runs[g[i]].fixed_work)
			rate = 0;
	if (rate && ng && !kb_summarize_fixed_work(x, n, s))
		return 0;
	return kb_summarize(x, n, s);
}

/* Values of metric k in the counted runs of (configuration c, job j)
 * into vals (and their iterations into iters, unless NULL); returns their
 * number. */
static size_t gather(const struct kb_rmodel *m, size_t c, size_t j, size_t k,
		     double *vals, long *iters)
{
	size_t i, n = 0, ng;
	const size_t *g = kb_rmodel__group(m, c, j, &ng);
	/* the group's own copy of its iterations: a run's structure is a
	 * cache miss per run once a campaign's runs outgrow the caches (a
	 * 100k-run report) */
	const long *gi = m->group_iter + (g - m->group_runs);
	const double *gv = kb_rmodel__group_values(m, c, j, k);

	for (i = 0; gv && i < ng; i++) {
		double v = gv[i];

		if (!isfinite(v))
			continue;
		if (iters)
			iters[n] = gi[i];
		vals[n++] = v;
	}
	return n;
}

struct kb_modes_row *stats_modes_of(const char *cfg, const char *metric,
				    const double *x, const long *iter,
				    size_t n)
{
	struct kb_modes m;
	struct kb_modes_row *out;
	size_t i;
	int k, side;

	if (kb_find_modes(x, n, &m) || !m.bimodal)
		return NULL;
	out = kb_xcalloc(1, sizeof(*out));
	for (k = 0; k < 2; k++) {
		struct kb_mode_row *r = &out->side[k];

		/* the mode with more runs first, as the warning says */
		side = k ? !kb_modes_major(&m) : kb_modes_major(&m);
		r->iterations.v = kb_xcalloc(n + 1, sizeof(long));
		for (i = 0; i < n && iter; i++)
			if (kb_mode_side(&m, x[i]) == side)
				r->iterations.v[r->iterations.n++] = iter[i];
		r->n = m.side[side].n;
		r->mean = m.side[side].mean;
		r->sd = m.side[side].sd;
		r->min = m.side[side].min;
		r->max = m.side[side].max;
	}
	out->warning = kb_modes_warning(cfg, metric, &m,
					gsl_stats_mean(x, 1, n));
	out->gap = m.gap;
	out->spread = m.spread;
	return out;
}

static int cmp_metric(const void *a, const void *b, void *arg)
{
	const struct kb_rmodel *m = arg;

	return strcmp(m->metrics[*(const size_t *)a].name,
		      m->metrics[*(const size_t *)b].name);
}

/* The metrics to summarise (indices into m->metrics, into *out, *n of
 * them): those with a value in a counted run, known ones in lib/metrics.h
 * table order, then unknown ones by name.  Warns about metric values of
 * counted runs that are neither numbers nor null. */
static size_t *collect_metrics(const struct kb_rmodel *m, size_t *n)
{
	size_t *out = kb_xcalloc(m->nmetrics + 1, sizeof(*out));
	char *seen = kb_xcalloc(m->nmetrics + 1, 1);
	const struct kb_metric_def *def;
	size_t i, k, r, nunknown = 0;

	for (i = 0; i < m->nbad; i++) {
		const struct kb_rrun *run = &m->runs[m->bad[i].run];
		char b[KB_ITER_LABEL_MAX];

		char val[48] = "";

		if (!isnan(m->bad[i].value))
			snprintf(val, sizeof(val), " (%g)", m->bad[i].value);
		kb_warn("run %s %s iteration %s: metric %s %s%s; left out of "
			"the statistics",
			run->config != KB_RMODEL_NONE ?
			m->configs.v[run->config] : "?",
			run->job != KB_RMODEL_NONE ? m->jobs.v[run->job] : "?",
			kb_iteration_label(run->iteration, m->campaign.warmup >
					   0 ? m->campaign.warmup : 0, b),
			m->bad[i].metric, m->bad[i].why, val);
	}
	for (k = 0; k < m->nmetrics; k++)
		for (r = 0; r < m->nruns && !seen[k]; r++)
			seen[k] = m->runs[r].counts &&
				  !isnan(kb_rmodel__value(m, r, k));
	*n = 0;
	for (def = kb_metrics; def->name; def++) {
		k = kb_rmodel__metric(m, def->name);
		if (k != KB_RMODEL_NONE && seen[k])
			out[(*n)++] = k;
	}
	for (k = 0; k < m->nmetrics; k++)
		if (seen[k] && !m->metrics[k].def)
			out[*n + nunknown++] = k;
	qsort_r(out + *n, nunknown, sizeof(*out), cmp_metric, (void *)m);
	*n += nunknown;
	free(seen);
	return out;
}

/* The summary row of (cfg, job, metric) with summary s, against the
 * baseline's base (NULL: none), into a new row of a. */
static void summary_row(struct kb_analysis *a, const char *cfg,
			const char *job, const char *metric,
			const struct kb_summary *s,
			const struct kb_summary *base,
			struct kb_modes_row *modes)
{
	/* a load host's "host.NAME.METRIC": METRIC's unit and direction */
	const struct kb_metric_def *def = kb_metric_find_key(metric);
	struct kb_summary_row *e = kb_analysis__add_summary(a);

	e->diff_pct = NAN;
	if (base && base->mean != 0.0)
		e->diff_pct = (s->mean - base->mean) / base->mean * 100.0;
	e->configuration = kb_xstrdup(cfg);
	e->job = kb_xstrdup(job);
	e->metric = kb_xstrdup(metric);
	e->unit = def ? def->unit : "";
	e->direction = kb_direction_name(def ? def->direction : KB_NEUTRAL);
	e->n = s->n;
	e->mean = s->mean;
	e->sd = s->sd;
	e->cv_pct = s->cv_pct;
	e->min = s->min;
	e->median = s->median;
	e->max = s->max;
	e->ci95_lo = s->ci95_lo;
	e->ci95_hi = s->ci95_hi;
	e->has_sd = s->has_sd;
	e->harmonic = s->harmonic;
	e->modes = modes;
}

const char *stats_baseline_for(const struct kb_rmodel *m, const char *config)
{
	const struct kb_rcampaign *camp = &m->campaign;
	const struct kb_rconfig *base, *me, *cand;
	const char *bid = camp->baseline, *want, *have, *label;
	size_t i, t;
	int match;

	me = kb_rcampaign__config(camp, config);
	if (me && kb_rcampaign__config(camp, me->baseline))
		return me->baseline;
	if (!kb_rcampaign__config(camp, bid))
		bid = camp->nconfigs ? camp->configs[0].id : NULL;
	if (!kb_rcampaign__swept(camp))
		return bid;
	base = kb_rcampaign__config(camp, bid);
	if (!base || !me)
		return NULL;
	for (i = 0; i < camp->nconfigs; i++) {
		cand = &camp->configs[i];
		match = cand->variant && base->variant &&
			!strcmp(cand->variant, base->variant);
		for (t = 0; match && t < camp->ntunables; t++) {
			/* the swept values of config, the rest of the
			 * baseline's */
			label = camp->tunables[t].label ?: "";
			want = kb_rconfig__tunable(camp->tunables[t].sweep ?
						   me : base, label);
			have = kb_rconfig__tunable(cand, label);
			match = want && have && !strcmp(want, have);
		}
		if (match)
			return cand->id;
	}
	return NULL;
}

int stats_fill_summaries_in(struct kb_rmodel *model)
{
	const struct kb_strlist *cfgs = &model->configs, *jobs = &model->jobs;
	struct kb_summary *base;
	const char *baseline;
	double *vals = NULL;
	long *iters;
	size_t c, j, m, nb, bc, *bidx, *metrics, nmetrics;
	char *have_base;
	int r;

	metrics = collect_metrics(model, &nmetrics);
	baseline = model->campaign.baseline;
	if (baseline && !kb_strlist_has(cfgs, baseline)) {
		kb_warn("baseline '%s' is not a configuration of this "
			"campaign; comparing against '%s' instead", baseline,
			cfgs->n ? cfgs->v[0] : "(none)");
		baseline = NULL;
	}
	if (!baseline && cfgs->n)
		baseline = cfgs->v[0];

	vals = kb_xmalloc((model->nruns + 1) * sizeof(*vals));
	iters = kb_xmalloc((model->nruns + 1) * sizeof(*iters));
	/* each configuration's baseline (per swept value, see
	 * stats_baseline_for); the summary of every (configuration, job,
	 * metric) is computed once, baselines first */
	bidx = kb_xcalloc(cfgs->n + 1, sizeof(*bidx));
	for (c = 0; c < cfgs->n; c++) {
		const char *b = stats_baseline_for(model, cfgs->v[c]);

		if (!b && baseline && !kb_rcampaign__config(&model->campaign, baseline))
			b = baseline;	/* a model without configurations */
		bidx[c] = b ? kb_strlist_index(cfgs, b) : cfgs->n;
	}
	base = kb_xcalloc(cfgs->n * jobs->n * nmetrics + 1, sizeof(*base));
	have_base = kb_xcalloc(cfgs->n * jobs->n * nmetrics + 1,
			       sizeof(*have_base));
	for (bc = 0; bc < cfgs->n; bc++)
		for (j = 0; j < jobs->n; j++)
			for (m = 0; m < nmetrics; m++) {
				size_t bm = (bc * jobs->n + j) * nmetrics + m;

				nb = gather(model, bc, j, metrics[m], vals,
					    NULL);
				if (!nb)
					continue;
				r = summarize_sample(model, bc, j,
					model->metrics[metrics[m]].name, vals,
					nb, &base[bm]);
				if (r)
					kb_warn("%s %s %s: values too large "
						"to summarise; left out",
						cfgs->v[bc], jobs->v[j],
						model->metrics[metrics[m]].name);
				have_base[bm] = !r;
			}
	kb_analysis__clear_summaries(&model->analysis);
	for (c = 0; c < cfgs->n; c++) {
		bc = bidx[c];
		for (j = 0; j < jobs->n; j++) {
			for (m = 0; m < nmetrics; m++) {
				size_t bm = (bc * jobs->n + j) * nmetrics + m;
				size_t own = (c * jobs->n + j) * nmetrics + m;
				const char *name = model->metrics[metrics[m]].name;

				if (!have_base[own])
					continue;
				nb = gather(model, c, j, metrics[m], vals,
					    iters);
				summary_row(&model->analysis, cfgs->v[c],
					jobs->v[j], name, &base[own],
					bc < cfgs->n && have_base[bm] && c != bc ?
					&base[bm] : NULL, stats_modes_of(
					cfgs->v[c], name, vals, iters, nb));
			}
		}
	}
	free(base);
	free(have_base);
	free(bidx);
	kb_analysis__summaries_to_json(&model->analysis, model->results);
	free(vals);
	free(iters);
	free(metrics);
	return 0;
}
