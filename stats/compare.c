/* stats/compare.c - comparisons against the baseline, outliers, drift,
 * minimum detectable effect.  Formulas and their sources: see
 * stats/compare.h. */
#include "lib/str.h"
#include "stats/compare.h"
#include "results/rmodel.h"
#include "stats/profiling.h"
#include "stats/summary.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* ---- the statistics ------------------------------------------------ */

static int all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

int kb_welch_test(const double *a, size_t na, const double *b, size_t nb,
		  struct kb_welch *w)
{
	double ma, mb, va, vb, se, tq;

	if (!a || !b || !w || !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	if (na < 2 || nb < 2)
		return -EDOM;
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	va = gsl_stats_variance_m(a, 1, na, ma);	/* n - 1 */
	vb = gsl_stats_variance_m(b, 1, nb, mb);
	se = kb_welch_se(va, na, vb, nb, &w->df);
	if (!isfinite(ma) || !isfinite(mb) || !isfinite(se))
		return -ERANGE;	/* sums past DBL_MAX */

	w->diff = mb - ma;
	if (se > 0.0) {
		w->t = w->diff / se;
		w->p = 2.0 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
		if (w->p > 1.0)
			w->p = 1.0;
		tq = gsl_cdf_tdist_Pinv(0.975, w->df);
		w->diff_ci95_lo = w->diff - tq * se;
		w->diff_ci95_hi = w->diff + tq * se;
	} else {
		/* both samples constant: no variance to test against */
		w->df = w->t = NAN;
		w->p = w->diff == 0.0 ? 1.0 : 0.0;
		w->diff_ci95_lo = w->diff_ci95_hi = w->diff;
	}
	if (ma != 0.0) {
		w->change_pct = w->diff / fabs(ma) * 100.0;
		w->change_ci95_lo_pct = w->diff_ci95_lo / fabs(ma) * 100.0;
		w->change_ci95_hi_pct = w->diff_ci95_hi / fabs(ma) * 100.0;
	} else {
		w->change_pct = w->change_ci95_lo_pct = NAN;
		w->change_ci95_hi_pct = NAN;
	}
	return 0;
}

/* P(U >= u) under H0 for sizes m, n without ties (Mann and Whitney's
 * recurrence, counts exact in a double for m, n <= KB_MW_EXACT_MAX). */
static double mw_exact_upper(size_t m, size_t n, double u)
{
	size_t i, j, k, len = m * n + 1;
	double *cnt = kb_xcalloc((m + 1) * (n + 1) * len, sizeof(*cnt));
	double total = 0.0, upper = 0.0;

#define CNT(i, j) (cnt + ((i) * (n + 1) + (j)) * len)
	for (i = 0; i <= m; i++)
		CNT(i, 0)[0] = 1.0;
	for (j = 0; j <= n; j++)
		CNT(0, j)[0] = 1.0;
	for (i = 1; i <= m; i++)
		for (j = 1; j <= n; j++)
			for (k = 0; k <= i * j; k++)
				CNT(i, j)[k] = (k >= j ? CNT(i - 1, j)[k - j] :
						0.0) + CNT(i, j - 1)[k];
	for (k = 0; k < len; k++) {
		total += CNT(m, n)[k];
		if ((double)k >= u - 1e-9)
			upper += CNT(m, n)[k];
	}
#undef CNT
	free(cnt);
	return upper / total;
}

int kb_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		    struct kb_mann_whitney *m)
{
	size_t i, j, n = na + nb, t;
	double *all, u = 0.0, ties = 0.0, mn, umax, sigma2, z;

	if (!a || !b || !m || !na || !nb || !all_finite(a, na) ||
	    !all_finite(b, nb))
		return -EINVAL;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			u += b[j] > a[i] ? 1.0 : b[j] == a[i] ? 0.5 : 0.0;
	m->u = u;

	all = kb_xmalloc(n * sizeof(*all));
	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	gsl_sort(all, 1, n);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && all[j] == all[i]; j++)
			;
		t = j - i;
		ties += (double)t * t * t - (double)t;
	}
	free(all);

	mn = (double)na * (double)nb;
	umax = u > mn - u ? u : mn - u;
	if (ties == 0.0 && na <= KB_MW_EXACT_MAX && nb <= KB_MW_EXACT_MAX) {
		m->exact = 1;
		m->p = 2.0 * mw_exact_upper(na, nb, umax);
	} else {
		m->exact = 0;
		sigma2 = mn / 12.0 * (((double)n + 1.0) -
			 ties / ((double)n * ((double)n - 1.0)));
		if (sigma2 <= 0.0) {
			m->p = 1.0;	/* every value tied */
		} else {
			z = (umax - mn / 2.0 - 0.5) / sqrt(sigma2);
			m->p = 2.0 * gsl_cdf_ugaussian_Q(z);
		}
	}
	if (m->p > 1.0)
		m->p = 1.0;
	return 0;
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

size_t kb_bh_adjust(const double *p, size_t n, double *q)
{
	struct pidx *v = kb_xcalloc(n + 1, sizeof(*v));
	size_t i, m = 0;
	double run = 1.0, adj;

	for (i = 0; i < n; i++) {
		if (isfinite(p[i])) {
			v[m].p = p[i];
			v[m++].i = i;
		}
	}
	for (i = 0; i < n; i++)
		if (!isfinite(p[i]))
			q[i] = NAN;
	qsort(v, m, sizeof(*v), cmp_pidx);
	for (i = m; i-- > 0;) {
		adj = v[i].p * (double)m / (double)(i + 1);
		if (adj < run)
			run = adj;
		q[v[i].i] = run;
	}
	free(v);
	return m;
}

int kb_mad_outliers(const double *x, size_t n, double *z, int *flag)
{
	double *dev = NULL, med, mad, scale, zi;
	size_t i;
	int nout = 0;

	if (!x || !flag || !all_finite(x, n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		flag[i] = 0;
		if (z)
			z[i] = NAN;
	}
	if (n < 3)
		return 0;
	dev = kb_xmalloc(n * sizeof(*dev));
	memcpy(dev, x, n * sizeof(*dev));
	/* medians by selection (gsl_stats_median: quickselect, reorders
	 * dev), not by sorting: O(n) per sample */
	med = gsl_stats_median(dev, 1, n);
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	mad = gsl_stats_median(dev, 1, n);
	if (mad > 0.0) {
		scale = mad / 0.6745;
	} else {
		scale = 1.253314 * gsl_stats_mean(dev, 1, n);
		if (!(scale > 0.0))
			goto out;	/* all values equal */
	}
	for (i = 0; i < n; i++) {
		zi = (x[i] - med) / scale;
		if (z)
			z[i] = zi;
		if (n >= KB_MAD_MIN_N && fabs(zi) > KB_MAD_Z_LIMIT &&
		    fabs(x[i] - med) > KB_OUTLIER_MIN_REL * fabs(med)) {
			flag[i] = 1;
			nout++;
		}
	}
out:
	free(dev);
	return nout;
}

int kb_drift_check(const double *order, const double *y, size_t n,
		   struct kb_drift *d)
{
	double c0, c1, cov00, cov01, cov11, sumsq, se, tq, lo, hi, mean;
	size_t i;

	if (!order || !y || !d || !all_finite(order, n) || !all_finite(y, n))
		return -EINVAL;
	if (n < 3)
		return -EDOM;
	lo = hi = order[0];
	for (i = 1; i < n; i++) {
		if (order[i] < lo)
			lo = order[i];
		if (order[i] > hi)
			hi = order[i];
	}
	if (hi == lo)
		return -EDOM;
	gsl_fit_linear(order, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11,
		       &sumsq);
	d->n = n;
	d->slope = c1;
	se = sqrt(cov11);	/* from the residual variance, n - 2 df */
	tq = gsl_cdf_tdist_Pinv(0.975, (double)(n - 2));
	d->slope_ci95_lo = c1 - tq * se;
	d->slope_ci95_hi = c1 + tq * se;
	if (se > 0.0)
		d->p = 2.0 * gsl_cdf_tdist_Q(fabs(c1 / se), (double)(n - 2));
	else
		d->p = c1 == 0.0 ? 1.0 : 0.0;
	mean = gsl_stats_mean(y, 1, n);
	d->change_pct = mean != 0.0 ? c1 * (hi - lo) / fabs(mean) * 100.0 : NAN;
	return 0;
}

/* (t(1 - alpha/2; df) + t(0.80; df)) se: the MDE on the analysis's
 * scale; 0 when se = 0.  t(1 - alpha/2) is the upper-tail quantile of
 * alpha/2 (Qinv): 1 - alpha/2 rounds to 1 below alpha = 1e-16, whose
 * quantile is infinite (--alpha 1e-20 lost every MDE). */
static double mde_welch_scaled(double va, size_t na, double vb, size_t nb,
			       double alpha)
{
	double df, se;

	if (na < 2 || nb < 2 || !isfinite(va) || !isfinite(vb) ||
	    !(alpha > 0.0 && alpha < 1.0))
		return NAN;
	se = kb_welch_se(va, na, vb, nb, &df);
	if (!(se > 0.0))
		return 0.0;
	return (gsl_cdf_tdist_Qinv(alpha / 2.0, df) +
		gsl_cdf_tdist_Pinv(KB_MDE_POWER, df)) * se;
}

double kb_mde_welch_log_pct(double sd_log_a, size_t na, double sd_log_b,
			    size_t nb, double alpha)
{
	return expm1(mde_welch_scaled(sd_log_a * sd_log_a, na,
				      sd_log_b * sd_log_b, nb, alpha)) * 100.0;
}

/* ---- the results model --------------------------------------------- */

void kb_compare_opts_init(struct kb_compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = NAN;
	o->min_effect_pct = NAN;
	o->max_mde_pct = NAN;
}

static int parse_num(const char *s, double *v)
{
	const char *end;

	if (kb_parse_real(s, &end, v))
		return -EINVAL;
	if (*end == '%')
		end++;
	return *end ? -EINVAL : 0;
}

int kb_compare_parse_opt(struct kb_compare_opts *o, int opt, const char *arg)
{
	const char *eq = strchr(arg, '='), *name;
	struct kb_metric_pcts *by;
	char *metric;
	size_t i;
	double v;

	if (opt == 'A') {
		/* a probability: "0.5%" read as 0.5 was 100 times the
		 * alpha meant (a break-it trial) */
		if (strchr(arg, '%')) {
			kb_error("--alpha %s: a probability, not a percentage "
				 "(e.g. 0.05 for 5%%)", arg);
			return -EINVAL;
		}
		if (parse_num(arg, &v) || !(v > 0.0 && v <= 0.5)) {
			kb_error("--alpha %s: expected a number > 0 and <= 0.5 "
				 "(e.g. 0.05)", arg);
			return -EINVAL;
		}
		o->alpha = v;
		return 0;
	}
	name = opt == 'M' ? "--max-mde" : "--min-effect";
	by = opt == 'M' ? &o->max_mde_by_metric : &o->min_effect_by_metric;
	if (parse_num(eq ? eq + 1 : arg, &v) || v < 0.0) {
		kb_error("%s %s: expected PCT or METRIC=PCT with PCT "
			 ">= 0 (e.g. %s)", name, arg, opt == 'M' ?
			 "5, 3%, read.iops=3" : "1, 2%, read.iops=2");
		return -EINVAL;
	}
	if (!eq) {
		if (opt == 'M')
			o->max_mde_pct = v;
		else
			o->min_effect_pct = v;
		return 0;
	}
	metric = kb_xasprintf("%.*s", (int)(eq - arg), arg);
	if (!kb_metric_find(metric)) {
		const char *near = kb_metric_near(metric);
		size_t host = kb_metric_host_split(metric);

		if (host)	/* host.NAME.METRIC: setting_for() */
			kb_error("%s %s: a load host's metric takes the "
				 "setting of its metric; give %s=%s", name,
				 arg, metric + host, eq + 1);
		else if (near)	/* as kernels.conf says it */
			kb_error("%s %s: no metric '%s' (did you mean '%s'?)",
				 name, arg, metric, near);
		else
			kb_error("%s %s: no metric '%s' (names look like "
				 "read.iops, write.clat_p99_ns)", name, arg,
				 metric);
		free(metric);
		return -EINVAL;
	}
	for (i = 0; i < by->n; i++)	/* a later METRIC=PCT wins */
		if (!strcmp(by->v[i].metric, metric)) {
			by->v[i].pct = v;
			free(metric);
			return 0;
		}
	by->v = kb_xrealloc(by->v, (by->n + 1) * sizeof(*by->v));
	by->v[by->n].metric = metric;
	by->v[by->n++].pct = v;
	return 0;
}

static void metric_pcts_free(struct kb_metric_pcts *by)
{
	size_t i;

	for (i = 0; i < by->n; i++)
		free(by->v[i].metric);
	free(by->v);
	memset(by, 0, sizeof(*by));
}

void kb_compare_opts_free(struct kb_compare_opts *o)
{
	metric_pcts_free(&o->min_effect_by_metric);
	metric_pcts_free(&o->max_mde_by_metric);
}

/* One sample with where each value came from. */
struct sample {
	size_t n;
	double *x;		/* values */
	double *order;		/* position in the campaign's run order */
	long *iter;		/* iteration index */
	const struct kb_rrun **run;	/* the run (in the typed model) */
};

static void sample_alloc(struct sample *s, size_t cap)
{
	s->n = 0;
	s->x = kb_xcalloc(cap + 1, sizeof(*s->x));
	s->order = kb_xcalloc(cap + 1, sizeof(*s->order));
	s->iter = kb_xcalloc(cap + 1, sizeof(*s->iter));
	s->run = kb_xcalloc(cap + 1, sizeof(*s->run));
}

static void sample_free(struct sample *s)
{
	free(s->x);
	free(s->order);
	free(s->iter);
	free(s->run);
	memset(s, 0, sizeof(*s));
}

/* The values of metric k (KB_RMODEL_NONE: none) in the counted runs of
 * (configuration c, job j) of the typed model, in iteration order (runs
 * are stored in run order, which keeps iterations ordered within a
 * configuration and job). */
static void gather(const struct kb_rmodel *m, size_t c, size_t j, size_t k,
		   struct sample *s)
{
	size_t t, ng;
	const size_t *g = kb_rmodel__group(m, c, j, &ng);
	const double *gv = kb_rmodel__group_values(m, c, j, k);

	s->n = 0;
	if (k == KB_RMODEL_NONE || !gv)
		return;
	for (t = 0; t < ng; t++) {
		double v = gv[t];
		size_t at = (size_t)(g - m->group_runs) + t;

		if (!isfinite(v))
			continue;
		s->x[s->n] = v;
		/* the group's own copies: no run structure touched */
		s->order[s->n] = m->group_order[at];
		s->iter[s->n] = m->group_iter[at];
		s->run[s->n] = &m->runs[g[t]];
		s->n++;
	}
}

int stats_mark_outliers_in(struct kb_rmodel *m, int exclude)
{
	struct sample s;
	struct kb_modes modes;
	size_t c, j, k, t;
	int *flag, total = 0;

	kb_rmodel__outliers_clear(m);
	sample_alloc(&s, m->nruns);
	flag = kb_xcalloc(m->nruns + 1, sizeof(*flag));
	for (c = 0; c < m->configs.n; c++) {
		for (j = 0; j < m->jobs.n; j++) {
			for (k = 0; k < m->nmetrics; k++) {
				gather(m, c, j, k, &s);
				if (kb_mad_outliers(s.x, s.n, NULL, flag) <= 0)
					continue;
				/* two modes are not outliers: neither is
				 * flagged, so --exclude-outliers cannot drop
				 * one (../shared/cases/B44); asked only when
				 * MAD flags something */
				if (!kb_find_modes(s.x, s.n, &modes) &&
				    modes.bimodal)
					continue;
				for (t = 0; t < s.n; t++) {
					if (!flag[t])
						continue;
					total++;
					kb_rmodel__outlier_add(m, (size_t)(
						s.run[t] - m->runs), k);
				}
			}
		}
	}
	/* move the excluded values only now: the samples above must see
	 * every value */
	if (exclude)
		kb_rmodel__outliers_exclude(m);
	free(flag);
	sample_free(&s);
	return total;
}

/* A per-metric setting, in order of precedence: the command line's
 * METRIC=PCT (by), its PCT for every metric (all), the results model's
 * campaign (kernels.conf: its METRIC=PCT camp_by, then its PCT
 * camp_all, NAN when not given: results/campaign_info.h), the default
 * def.  A load host's metric host.NAME.METRIC takes METRIC's (the
 * settings name metrics, not hosts: kconf.c and opt_metric_pct() refuse
 * a host.NAME. name). */
static double setting_for(const struct kb_metric_pcts *by, double all,
			  const struct kb_rmetric_pcts *camp_by,
			  double camp_all, double def, const char *metric)
{
	double v;
	size_t i;

	metric += kb_metric_host_split(metric);

	for (i = 0; i < by->n; i++)
		if (!strcmp(by->v[i].metric, metric))
			return by->v[i].pct;
	if (isfinite(all))
		return all;
	v = kb_rmetric_pcts__get(camp_by, metric);
	if (!isnan(v))
		return v;
	if (!isnan(camp_all))
		return camp_all;
	return def;
}

static double min_effect_for(const struct kb_compare_opts *o,
			     const struct kb_rcampaign *camp,
			     const char *metric)
{
	return setting_for(&o->min_effect_by_metric, o->min_effect_pct,
			   &camp->min_effect_by_metric, camp->min_effect_pct,
			   KB_DEFAULT_MIN_EFFECT_PCT, metric);
}

static double max_mde_for(const struct kb_compare_opts *o,
			  const struct kb_rcampaign *camp, const char *metric)
{
	return setting_for(&o->max_mde_by_metric, o->max_mde_pct,
			   &camp->max_mde_by_metric, camp->max_mde_pct,
			   KB_DEFAULT_MAX_MDE_PCT, metric);
}

static double alpha_for(const struct kb_compare_opts *o,
			const struct kb_rcampaign *camp)
{
	if (isfinite(o->alpha))
		return o->alpha;
	if (!isnan(camp->alpha))
		return camp->alpha;
	return KB_DEFAULT_ALPHA;
}

/* 1 when a counted run of job j has a value of metric name. */
static int job_has(const struct kb_rmodel *m, size_t j, const char *name)
{
	size_t k = kb_rmodel__metric(m, name), r;

	for (r = 0; r < m->nruns && k != KB_RMODEL_NONE; r++)
		if (m->runs[r].job == j && m->runs[r].counts &&
		    !isnan(kb_rmodel__value(m, r, k)))
			return 1;
	return 0;
}

/* The metrics compared for job (strings owned by *keep). */
static void job_metrics(const struct kb_rmodel *m, size_t job,
			const struct kb_compare_opts *o, struct kb_strlist *out,
			struct kb_strlist *keep)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	static const char *const what[] = { "iops", "clat_p99_ns" };
	size_t d, w, i;
	char *name;

	out->n = 0;
	if (o->metrics) {
		for (i = 0; o->metrics[i]; i++)
			kb_strlist_add(out, o->metrics[i]);
		return;
	}
	for (d = 0; d < 3; d++) {
		name = kb_xasprintf("%s.iops", dirs[d]);
		if (!job_has(m, job, name)) {
			free(name);
			continue;
		}
		free(name);
		for (w = 0; w < 2; w++) {
			name = kb_xasprintf("%s.%s", dirs[d], what[w]);
			keep->v = kb_xrealloc(keep->v, (keep->n + 1) *
					      sizeof(*keep->v));
			keep->v[keep->n++] = name;
			out->v = kb_xrealloc(out->v, (out->n + 1) *
					     sizeof(*out->v));
			out->v[out->n++] = name;
		}
	}
}

/* The iterations of the values of s flagged in flag. */
static struct kb_iters iter_list(const struct sample *s, const int *flag)
{
	struct kb_iters a = { kb_xcalloc(s->n + 1, sizeof(long)), 0 };
	size_t k;

	for (k = 0; k < s->n; k++)
		if (flag[k])
			a.v[a.n++] = s->iter[k];
	return a;
}

/* Leading outliers: how many counted iterations from the first one on
 * are outliers (a warm-up that was too short: ../shared/cases/B28). */
static size_t leading_outliers(const struct sample *s, const int *flag)
{
	size_t k = 0;

	while (k < s->n && flag[k])
		k++;
	return k == s->n ? 0 : k;
}

/* The mean shown for s: the harmonic mean (total work over total time,
 * kb_summarize_fixed_work()) for a rate metric whose runs all did fixed
 * work, as kbench report shows it; else the arithmetic mean.  NAN when
 * s is empty. */
static double mean_of(const struct sample *s, const char *metric)
{
	struct kb_summary sum;
	size_t i;
	int fixed = s->n && kb_metric_is_rate(metric);

	for (i = 0; fixed && i < s->n; i++)
		if (!s->run[i] || !s->run[i]->fixed_work)
			fixed = 0;
	if (fixed && !kb_summarize_fixed_work(s->x, s->n, &sum))
		return sum.mean;
	return s->n ? gsl_stats_mean(s->x, 1, s->n) : NAN;
}

static double cv_of(const struct sample *s)
{
	struct kb_summary sum;

	if (s->n < 2 || kb_summarize(s->x, s->n, &sum) || !sum.has_sd)
		return NAN;
	return sum.cv_pct;
}

/* The sd (n - 1) of the ln values of s (a fraction); NAN when n < 2 or
 * a value is <= 0. */
static double sd_log_of(const struct sample *s)
{
	double *l, sd;
	size_t i;

	if (s->n < 2)
		return NAN;
	l = kb_xcalloc(s->n, sizeof(*l));
	for (i = 0; i < s->n; i++)
		l[i] = s->x[i] > 0.0 ? log(s->x[i]) : NAN;
	sd = gsl_stats_sd(l, 1, s->n);
	free(l);
	return sd;
}

/* The minimum detectable effect of the comparison of a and b by the
 * unpaired analysis (stats/compare.h): "welch-log" from the sds of both
 * samples' ln values, "welch" from both samples' variances in % of
 * |mean(a)|. */
static double mde_unpaired(const char *analysis, const struct sample *a,
			   const struct sample *b, double alpha)
{
	double ma;

	if (!strcmp(analysis, "welch-log"))
		return kb_mde_welch_log_pct(sd_log_of(a), a->n, sd_log_of(b),
					    b->n, alpha);
	if (a->n < 2 || b->n < 2)
		return NAN;
	ma = gsl_stats_mean(a->x, 1, a->n);
	if (ma == 0.0)
		return NAN;
	return mde_welch_scaled(gsl_stats_variance(a->x, 1, a->n), a->n,
				gsl_stats_variance(b->x, 1, b->n), b->n,
				alpha) / fabs(ma) * 100.0;
}

/* 1 when every run of a and b comes from the same campaign (the runs'
 * "campaign" when the model merges several: results_merge(), `kbench
 * compare`). */
static int same_source(const struct sample *a, const struct sample *b)
{
	size_t src = a->n ? a->run[0]->campaign : b->n ? b->run[0]->campaign :
		     0;
	size_t k;

	for (k = 0; k < a->n; k++)
		if (a->run[k]->campaign != src)
			return 0;
	for (k = 0; k < b->n; k++)
		if (b->run[k]->campaign != src)
			return 0;
	return 1;
}

static int none_negative(const struct sample *s)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		if (!(s->x[k] >= 0.0))
			return 0;
	return 1;
}

static int all_positive(const struct sample *s)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		if (!(s->x[k] > 0.0))
			return 0;
	return 1;
}

/* 1 when every run of s records its round ("iteration"); results.json
 * from elsewhere may leave it out, and such runs have no round to be
 * matched by (they were read as round 0, all paired with one another) */
static int all_have_rounds(const struct sample *s)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		if (!s->run[k]->info.has_iteration)
			return 0;
	return 1;
}

/* The run order the comparison of a and b may pair by: the campaign's;
 * in a merged report whose campaigns' orders differ (campaign.order
 * absent), that of the one campaign both samples come from.  NULL when
 * none applies. */
static const char *order_of(const struct kb_rmodel *model,
			    const struct sample *a, const struct sample *b)
{
	const struct kb_rcampaign *camp = &model->campaign;
	const char *name;
	size_t i, src;

	if (camp->order || !camp->merged_orders.n || !a->n || !b->n ||
	    !same_source(a, b))
		return camp->order;
	src = a->run[0]->campaign;
	if (src >= model->campaigns.n)
		return NULL;
	name = model->campaigns.v[src];
	for (i = 0; name && i < camp->merged_names.n &&
		    i < camp->merged_orders.n; i++)
		if (camp->merged_names.v[i] &&
		    !strcmp(camp->merged_names.v[i], name))
			return camp->merged_orders.v[i];
	return NULL;
}

/* 1 when the runs of s come from the model's own campaign, or in a
 * merged report from the first one, whose campaign members (its
 * calibration) the merged model keeps. */
static int of_first_campaign(const struct kb_rmodel *model,
			     const struct sample *s)
{
	const struct kb_rcampaign *camp = &model->campaign;
	size_t src;

	if (!camp->merged_names.n || !s->n)
		return 1;
	src = s->run[0]->campaign;
	return src < model->campaigns.n && model->campaigns.v[src] &&
	       camp->merged_names.v[0] &&
	       !strcmp(model->campaigns.v[src], camp->merged_names.v[0]);
}

/* The campaign (index into model->campaigns) of configuration id's first
 * run, counted or not, failed included; (size_t)-1 when it has none. */
static size_t config_campaign(const struct kb_rmodel *model, const char *id)
{
	size_t c = kb_rmodel__config(model, id), i;

	for (i = 0; c != KB_RMODEL_NONE && i < model->nruns; i++)
		if (model->runs[i].config == c)
			return model->runs[i].campaign;
	return (size_t)-1;
}

/* 1 when configurations base and cfg are different variants that ran in
 * different boots: one is method = local and the other is not (a local
 * variant runs in the kernel kbench was started in, a kexec one in
 * another boot: a reboot and a resume), or both are local and pinned to
 * different kernels (release =; one pinned and one not counts as
 * different).  Two local variants of the same kernel (neither pinned, or
 * both to the same release) ran in the same boot, each in every round.
 * vm variants boot within each round (one boot per variant per round),
 * and runs without a recorded method are left as they were. */
static int local_kernels_differ(const struct kb_rcampaign *camp,
				const char *base, const char *cfg)
{
	const struct kb_rconfig *x = kb_rcampaign__config(camp, base);
	const struct kb_rconfig *y = kb_rcampaign__config(camp, cfg);
	int lx, ly;

	if (!x || !y || !x->variant || !y->variant ||
	    !strcmp(x->variant, y->variant) || !x->method || !y->method)
		return 0;
	lx = !strcmp(x->method, "local");
	ly = !strcmp(y->method, "local");
	if (lx && ly)
		return !x->release != !y->release ||
		       (x->release && strcmp(x->release, y->release));
	return lx || ly;
}

/* The analysis of one comparison (stats/compare.h, "Analysis"), and why;
 * the reason is malloc'd.  base, cfg: the two configurations' ids (a
 * sample without a value, every run failed, still has its campaign). */
static const char *choose_analysis(const struct kb_rmodel *model,
				   const char *base, const char *cfg,
				   const struct sample *a,
				   const struct sample *b, char **why)
{
	const struct kb_rcampaign *camp = &model->campaign;
	const char *order = order_of(model, a, b);
	int rounds = order && (!strcmp(order, "interleave") ||
			       !strcmp(order, "random"));
	const char *calibrated = camp->calibration_analysis;

	if (!all_positive(a) || !all_positive(b)) {
		*why = kb_xstrdup("a value <= 0 has no logarithm: Welch's "
				  "t-test on the values themselves");
		return "welch";
	}
	if (!a->n || !b->n) {
		size_t ca = config_campaign(model, base);
		size_t cb = config_campaign(model, cfg);

		/* a configuration with no run at all (a campaign stopped
		 * before it ran) is of no campaign: said as it is (a
		 * break-it trial read "different campaigns" for one) */
		if (ca == (size_t)-1 || cb == (size_t)-1) {
			*why = kb_xasprintf("%s has no runs yet: nothing to "
					    "compare", ca == (size_t)-1 ? base :
					    cfg);
			return rounds ? "paired" : "welch-log";
		}
		if (ca != cb) {
			*why = kb_xstrdup("the configurations come from "
					  "different campaigns: unpaired");
			return "welch-log";
		}
	}
	if (rounds && (!all_have_rounds(a) || !all_have_rounds(b))) {
		*why = kb_xasprintf("order = %s, but runs of %s do not say "
				    "which round they ran in (no "
				    "\"iteration\" in results.json): "
				    "unpaired", order,
				    all_have_rounds(a) ? cfg : base);
		return "welch-log";
	}
	if (rounds && same_source(a, b) &&
	    local_kernels_differ(camp, base, cfg)) {
		*why = kb_xstrdup("two variants that ran in different boots "
				  "(method = local and another method, or "
				  "local variants of different kernels: "
				  "release =), one kernel after the other, so "
				  "no round holds both: unpaired");
		return "welch-log";
	}
	if (rounds && same_source(a, b) && calibrated &&
	    !strcmp(calibrated, "welch-log") && of_first_campaign(model, a)) {
		*why = kb_xasprintf("kbench calibrate (%s) found neighbouring "
				    "runs anti-correlated: unpaired",
				    camp->calibration_file ?: "calibration =");
		return "welch-log";
	}
	if (rounds && same_source(a, b)) {
		*why = kb_xasprintf("order = %s: every round runs each "
				    "configuration once; rounds matched by "
				    "iteration", order);
		return "paired";
	}
	if (rounds)
		*why = kb_xstrdup("the configurations come from different "
				  "campaigns: unpaired");
	else if (order && !strcmp(order, "block"))
		*why = kb_xasprintf("order = %s: no rounds to pair; unpaired",
				    order);
	else if (order)	/* results.json from elsewhere, or edited */
		*why = kb_xasprintf("order = %s is none of interleave, random "
				    "and block: no rounds to pair; unpaired",
				    order);
	else
		*why = kb_xstrdup("the campaign does not record its run order "
				  "(order =): unpaired");
	return "welch-log";
}

/* a's positions ordered by (iteration, position): see match_rounds() */
static int cmp_iter(const void *x, const void *y, void *arg)
{
	const long *iter = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;

	if (iter[i] != iter[j])
		return iter[i] < iter[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The values of a and b in the rounds (iterations) where both have one:
 * pa[k], pb[k], k < return value, in b's order; b's value of a round is
 * paired with the first of a's values of that round not paired yet.
 * Never by position: a failed run leaves a hole in its round only.
 * O(n log n): a's positions sorted by iteration, each of b's found by
 * binary search (a paired comparison of 10k rounds). */
static size_t match_rounds(const struct sample *a, const struct sample *b,
			   double *pa, double *pb)
{
	size_t *by = kb_xcalloc(a->n + 1, sizeof(*by));
	char *used = kb_xcalloc(a->n + 1, 1);
	size_t i, j, n = 0;

	for (i = 0; i < a->n; i++)
		by[i] = i;
	/* a campaign's values come in round order: sorted only when not
	 * (the sort grew as n log n in a 100k-run report, issue 16) */
	for (i = 1; i < a->n && cmp_iter(&by[i - 1], &by[i], a->iter) < 0;
	     i++)
		;
	if (i < a->n)
		qsort_r(by, a->n, sizeof(*by), cmp_iter, a->iter);
	for (j = 0; j < b->n; j++) {
		size_t lo = 0, hi = a->n;

		while (lo < hi) {	/* the first with iteration >= b's */
			size_t mid = lo + (hi - lo) / 2;

			if (a->iter[by[mid]] < b->iter[j])
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < a->n && a->iter[by[lo]] == b->iter[j]; lo++) {
			if (used[lo])
				continue;
			used[lo] = 1;
			pa[n] = a->x[by[lo]];
			pb[n++] = b->x[j];
			break;
		}
	}
	free(by);
	free(used);
	return n;
}

/* "running,NM=2 read.iops is bimodal: ..." when s is, else NULL
 * (malloc'd). */
static char *modes_check(const struct sample *s, const char *cfg,
			 const char *metric)
{
	struct kb_modes m;

	if (kb_find_modes(s->x, s->n, &m) || !m.bimodal)
		return NULL;
	return kb_modes_warning(cfg, metric, &m, gsl_stats_mean(s->x, 1,
								s->n));
}

static void wilcoxon_row(const struct kb_wilcoxon *w,
			 struct kb_wilcoxon_row *r)
{
	r->present = 1;
	r->method = kb_xasprintf("%s; %zu zero difference(s) dropped "
		"(Wilcoxon 1945); %zu nonzero difference(s) in tied |d| groups "
		"given mid-ranks", w->exact ? "exact: the W+ distribution "
		"counted over every sign pattern" : "normal approximation with "
		"tie and continuity corrections", w->zeros, w->tied);
	r->w_plus = w->w_plus;
	r->p = w->p;
	r->exact = w->exact;
	r->n = w->n;
	r->zeros = w->zeros;
	r->tied = w->tied;
}

/* The MAD outliers of s into flag[]; none when s is bimodal (a mode is
 * not outliers, ../shared/cases/B44): then the modes warning is
 * returned (malloc'd), else NULL. */
static char *flag_outliers(const struct sample *s, const char *cfg,
			   const char *metric, int *flag)
{
	char *warn;

	kb_mad_outliers(s->x, s->n, NULL, flag);
	warn = modes_check(s, cfg, metric);
	if (warn)
		memset(flag, 0, s->n * sizeof(*flag));
	return warn;
}

/* The drift of s over the run order (kb_drift_check), warn when its
 * slope's p < alpha and |change| >= min_effect me; null with fewer than
 * 3 values. */
static struct kb_drift_row drift_of(const struct sample *s, double alpha,
				     double me)
{
	struct kb_drift_row r = { 0 };
	struct kb_drift d;

	if (kb_drift_check(s->order, s->x, s->n, &d))
		return r;
	r.present = 1;
	r.n = d.n;
	r.slope_per_run = d.slope;
	r.slope_ci95_lo = d.slope_ci95_lo;
	r.slope_ci95_hi = d.slope_ci95_hi;
	r.p = d.p;
	r.change_pct = d.change_pct;
	r.warn = d.p < alpha && isfinite(d.change_pct) &&
		 fabs(d.change_pct) >= me;
	return r;
}

/* The checks of one configuration's sample that is in no comparison
 * (a campaign of one configuration): a row of results.sample_checks. */
static void sample_check_row(struct kb_analysis *an,
			     const struct kb_rcampaign *camp,
			     const struct kb_compare_opts *o, const char *cfg,
			     const char *job, const char *metric,
			     const struct sample *s)
{
	int *flag = kb_xcalloc(s->n + 1, sizeof(*flag));
	struct kb_sample_check_row *e = kb_analysis__add_sample_check(an);

	e->bimodal = flag_outliers(s, cfg, metric, flag);
	e->configuration = kb_xstrdup(cfg);
	e->job = kb_xstrdup(job);
	e->metric = kb_xstrdup(metric);
	e->n = s->n;
	e->outliers = iter_list(s, flag);
	e->warmup_suspect = leading_outliers(s, flag);
	e->drift = drift_of(s, alpha_for(o, camp),
			    min_effect_for(o, camp, metric));
	free(flag);
}

/* In a pair of pairs[0..n)? */
static int in_pairs(const struct kb_compare_pair *pairs, size_t n,
		    const char *id)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!strcmp(pairs[k].baseline, id) ||
		    !strcmp(pairs[k].configuration, id))
			return 1;
	return 0;
}

/* results.sample_checks: outliers, warm-up and drift of every
 * configuration that no comparison covers. */
static void sample_checks(struct kb_rmodel *model,
			     const struct kb_compare_opts *o,
			     const struct kb_compare_pair *pairs, size_t npairs,
			     const struct kb_strlist *jobs,
			     struct kb_strlist *mlist, struct kb_strlist *keep,
			     struct sample *a)
{
	const struct kb_strlist ids = model->configs;
	size_t i, j, m;

	for (i = 0; i < ids.n; i++) {
		if (in_pairs(pairs, npairs, ids.v[i]))
			continue;
		for (j = 0; j < jobs->n; j++) {
			size_t jj = kb_rmodel__job(model, jobs->v[j]);

			job_metrics(model, jj, o, mlist, keep);
			for (m = 0; m < mlist->n; m++) {
				gather(model, kb_rmodel__config(model, ids.v[i]),
				       jj, kb_rmodel__metric(model, mlist->v[m]),
				       a);
				if (a->n)
					sample_check_row(&model->analysis,
						&model->campaign, o, ids.v[i],
						jobs->v[j], mlist->v[m], a);
			}
		}
	}
}

static void comparison_row(struct kb_analysis *an,
			   const struct kb_rmodel *model,
			   const struct kb_rcampaign *camp,
			   const struct kb_compare_opts *o, const char *base,
			   const char *cfg, const char *job,
			   const char *metric, struct sample *a,
			   struct sample *b, double *p_out)
{
	/* host.NAME.METRIC: METRIC's direction (a load host's IOPS that
	 * fall are a regression, not a neutral "change") */
	const struct kb_metric_def *def = kb_metric_find_key(metric);
	double alpha = alpha_for(o, camp);
	double me = min_effect_for(o, camp, metric);
	double ma = mean_of(a, metric);
	double mb = mean_of(b, metric);
	double *pa = kb_xcalloc(a->n + 1, sizeof(*pa));
	double *pb = kb_xcalloc(a->n + 1, sizeof(*pb));
	int *fa = kb_xcalloc(a->n + 1, sizeof(*fa));
	int *fb = kb_xcalloc(b->n + 1, sizeof(*fb));
	struct kb_comparison_row *e = kb_analysis__add_comparison(an);
	struct kb_log_test lt;
	struct kb_welch w;
	struct kb_mann_whitney mw;
	struct kb_wilcoxon wx;
	const char *analysis;
	double lo = NAN, hi = NAN;
	size_t np = 0, k;
	int have = 0, have_mw = 0, have_w = 0;

	*p_out = NAN;
	e->mde_pct = e->p = e->t = e->df = e->change_pct = NAN;
	e->bimodal_baseline = flag_outliers(a, base, metric, fa);
	e->bimodal_configuration = flag_outliers(b, cfg, metric, fb);
	e->bimodal = e->bimodal_baseline || e->bimodal_configuration;
	analysis = choose_analysis(model, base, cfg, a, b,
				   &e->analysis_reason);
	if (!strcmp(analysis, "paired")) {
		np = match_rounds(a, b, pa, pb);
		if (np >= 2 && !kb_paired_log_test(pa, pb, np, &lt)) {
			have = 1;
			e->mde_pct = kb_mde_paired_pct(np, lt.sd_log, alpha);
			for (k = 0; k < np; k++)
				pa[k] = log(pb[k] / pa[k]);
			if (!kb_wilcoxon_signed_rank(pa, np, &wx))
				wilcoxon_row(&wx, &e->wilcoxon);
		}
	} else if (!strcmp(analysis, "welch-log")) {
		if (a->n >= 2 && b->n >= 2 &&
		    !kb_welch_log_test(a->x, a->n, b->x, b->n, &lt)) {
			have = have_w = 1;
			w.t = lt.t;
			w.df = lt.df;
			w.p = lt.p;
		}
	} else if (a->n >= 2 && b->n >= 2 &&
		   !kb_welch_test(a->x, a->n, b->x, b->n, &w)) {
		have = have_w = 1;
		lt.change_pct = w.change_pct;
		/* the mean of values never below 0 cannot fall by more
		 * than 100%: the CI is cut there (intersected with the
		 * parameter's range, still a 95% set), as the log analyses'
		 * never go below -100% */
		if (w.change_ci95_lo_pct < -100.0 && none_negative(a) &&
		    none_negative(b))
			w.change_ci95_lo_pct = -100.0;
		lt.change_ci95_lo_pct = w.change_ci95_lo_pct;
		lt.change_ci95_hi_pct = w.change_ci95_hi_pct;
		lt.t = w.t;
		lt.df = w.df;
		lt.p = w.p;
	}
	if (have) {
		e->p = lt.p;
		e->t = lt.t;
		e->df = lt.df;
		e->change_pct = lt.change_pct;
		lo = lt.change_ci95_lo_pct;
		hi = lt.change_ci95_hi_pct;
	}
	if (strcmp(analysis, "paired"))
		e->mde_pct = mde_unpaired(analysis, a, b, alpha);
	if (strcmp(analysis, "paired") && a->n && b->n &&
	    !kb_mann_whitney(a->x, a->n, b->x, b->n, &mw))
		have_mw = 1;
	e->drift_baseline = drift_of(a, alpha, me);
	e->drift_configuration_pct = NAN;
	if (a->n && b->n && !same_source(a, b)) {
		struct kb_drift_row dc = drift_of(b, alpha, me);

		if (dc.present)
			e->drift_configuration_pct = dc.change_pct;
	}

	e->configuration = kb_xstrdup(cfg);
	e->baseline = kb_xstrdup(base);
	e->job = kb_xstrdup(job);
	e->metric = kb_xstrdup(metric);
	e->unit = def ? def->unit : "";
	e->direction = kb_direction_name(def ? def->direction : KB_NEUTRAL);
	e->analysis = analysis;
	e->n = b->n;
	e->n_baseline = a->n;
	e->n_pairs = strcmp(analysis, "paired") ? -1 : (long)np;
	e->mean = mb;
	e->mean_baseline = ma;
	e->cv_pct = cv_of(b);
	e->cv_baseline_pct = cv_of(a);
	e->sd_log_ratio_pct = have && !strcmp(analysis, "paired") ?
			      lt.sd_log * 100.0 : NAN;
	e->sd_log_pct = !strcmp(analysis, "welch-log") ?
			sd_log_of(b) * 100.0 : NAN;
	e->sd_log_baseline_pct = !strcmp(analysis, "welch-log") ?
				 sd_log_of(a) * 100.0 : NAN;
	/* the difference of the means, and the change's CI in the metric's
	 * unit at the baseline mean */
	e->diff = have ? mb - ma : NAN;
	e->diff_ci95_lo = have ? lo / 100.0 * fabs(ma) : NAN;
	e->diff_ci95_hi = have ? hi / 100.0 * fabs(ma) : NAN;
	e->change_ci95_lo_pct = lo;
	e->change_ci95_hi_pct = hi;
	e->welch_t = have_w ? w.t : NAN;
	e->welch_df = have_w ? w.df : NAN;
	e->welch_p = have_w ? w.p : NAN;
	e->p_adjusted = NAN;	/* after BH */
	e->mw_u = have_mw ? mw.u : NAN;
	e->mw_p = have_mw && have ? mw.p : NAN;
	e->mw_exact = have_mw && mw.exact;
	e->alpha = alpha;
	e->min_effect_pct = me;
	e->max_mde_pct = max_mde_for(o, camp, metric);
	e->outliers = iter_list(b, fb);
	e->outliers_baseline = iter_list(a, fa);
	e->warmup_suspect = leading_outliers(b, fb);
	e->warmup_suspect_baseline = leading_outliers(a, fa);
	/* a bimodal side: no verdict from this p, so it stays out of the
	 * BH family */
	if (have && !e->bimodal)
		*p_out = e->p;
	free(pa);
	free(pb);
	free(fa);
	free(fb);
}

/* The MDE as printed: on the log scale (paired, welch-log) an effect of
 * d is exp(d) - 1 up and exp(-d) - 1 down, "+13.35%/-11.78%" (a
 * helper's trial: "+-13.35%" claimed a symmetric -13.35%); Welch on the
 * values "+-X%"; "infinite" past any double. */
static const char *mde_str(const struct kb_comparison_row *e, char *buf,
			   size_t len)
{
	const char *a = e->analysis ?: "";
	double up = e->mde_pct;
	char u[32];

	/* past a million percent, three digits (1e-30 IOPS on one side
	 * made it tens of digits, cut at len) */
	snprintf(u, sizeof(u), up < 1e6 ? "%.2f" : "%.3g", up);
	if (isinf(up))
		snprintf(buf, len, "infinite");
	else if (!strcmp(a, "paired") || !strcmp(a, "welch-log"))
		/* the down side always signed: an MDE of 0 (constant
		 * samples) printed "+0.00%/0.00%" (a break-it trial) */
		snprintf(buf, len, "+%s%%/-%.2f%%", u,
			 100.0 * (1.0 - 1.0 / (1.0 + up / 100.0)));
	else
		snprintf(buf, len, "+-%s%%", u);
	return buf;
}

/* Two campaigns (kbench compare A B) whose samples drifted alike over
 * their own run orders (kbench compare A A, or the same drift in both):
 * each mean is taken over the same kind of span.  With linear drifts of
 * db and dc percent over the two spans, the means differ by about
 * (dc - db) / 2 from what the drift-free campaigns would give; below the
 * minimum effect that bias cannot make a change significant, so the
 * baseline's drift does not make the comparison undecidable.  Within one
 * campaign (order = block: the configuration's runs after the
 * baseline's) a drift moves one block against the other, shared or
 * not. */
static int drift_shared(const struct kb_comparison_row *e)
{
	double db = e->drift_baseline.change_pct;
	double dc = e->drift_configuration_pct;

	return isfinite(db) && isfinite(dc) &&
	       fabs(dc - db) / 2.0 < e->min_effect_pct;
}

/* The verdict, once the adjusted p is known.  A number that is NAN
 * (null) counts as 0 in the reasons, as it always has. */
static void set_verdict(struct kb_comparison_row *e, double q,
			const char *order)
{
	const char *dir = e->direction, *verdict;
	const struct kb_drift_row *drift = &e->drift_baseline;
	double alpha = e->alpha, me = e->min_effect_pct;
	double change = isfinite(e->change_pct) ? e->change_pct : 0.0;
	size_t n = e->n, nb = e->n_baseline;
	int paired = !strcmp(e->analysis ?: "", "paired");
	char *reason;

	e->p_adjusted = isfinite(q) ? q : NAN;
	if (nb < 2 || n < 2) {
		verdict = "insufficient samples";
		reason = kb_xasprintf("%s n=%zu < 2: no variance estimate, "
				      "no test", nb < 2 ? "baseline" :
				      "configuration", nb < 2 ? nb : n);
	} else if (paired && e->n_pairs < 2) {
		verdict = "insufficient samples";
		reason = kb_xasprintf("%lld round(s) where both have a "
			"successful run: a paired test needs 2 or more",
			(long long)(e->n_pairs < 0 ? 0 : e->n_pairs));
	} else if (!isfinite(e->change_pct) &&
		   !(e->mean_baseline == 0.0 && e->mean == 0.0)) {
		verdict = "inconclusive";
		reason = e->mean_baseline == 0.0 ?
			kb_xstrdup("the baseline's mean is 0: no % change "
				   "against it (did its runs do any I/O?)") :
			kb_xstrdup("no change could be computed from these "
				   "samples");
	} else if (e->bimodal) {
		int mb = !!e->bimodal_baseline;
		int mc = !!e->bimodal_configuration;

		verdict = "inconclusive";
		reason = kb_xasprintf("two performance modes in %s runs: a "
			"change of the mean describes neither mode; find what "
			"selects the mode (NUMA node, IRQ or CPU placement) and "
			"pin it, or compare the modes separately", mb && mc ?
			"both samples'" : mb ? "the baseline's" :
			"this configuration's");
	} else if (!paired && drift->present && drift->warn &&
		   !(isfinite(e->change_pct) &&
		     fabs(change) > fabs(isfinite(drift->change_pct) ?
					 drift->change_pct : 0.0)) &&
		   !drift_shared(e)) {
		verdict = "inconclusive";
		reason = kb_xasprintf("the baseline drifts %+.2f%% over the "
			"campaign's run order (slope p = %.3g), more than the "
			"minimum effect %.3g%% and the change itself; %s",
			isfinite(drift->change_pct) ? drift->change_pct : 0.0,
			isfinite(drift->p) ? drift->p : 0.0, me,
			order && !strcmp(order, "block") ?
			"re-run interleaved (order = interleave)" :
			"find what drifts (temperature, background load, a "
			"filling device) and re-run, with more warm-up");
	} else if (isfinite(q) && q < alpha && isfinite(e->change_pct) &&
		   fabs(change) >= me * (1.0 - 1e-9)) {
		/* (a change of exactly the minimum effect, 1.00%, came out
		 * 0.99999999999998% through exp(ln) and was refused with
		 * "|+1.00%| < minimum effect 1%") */
		if (!strcmp(dir, "higher"))
			verdict = change > 0 ? "improvement" : "regression";
		else if (!strcmp(dir, "lower"))
			verdict = change < 0 ? "improvement" : "regression";
		else
			verdict = "significant difference";
		reason = kb_xasprintf("adjusted p = %.3g < %.3g and |%+.2f%%| "
				      ">= %.3g%%", q, alpha, change, me);
	} else if (!isnan(e->mde_pct) && e->mde_pct > e->max_mde_pct) {
		/* an infinite MDE too (t(1 - alpha/2) past any double: a
		 * tiny alpha at few runs), which nothing could have shown */
		char mb[64];

		verdict = "underpowered";
		reason = kb_xasprintf("no significant difference, but the "
			"minimum detectable effect %s is larger than "
			"max_mde %.3g%%: a change of that size could go unseen; "
			"add rounds (kbench run -o DIR --add-rounds N) or quiet "
			"the machine, or accept it (--accept-underpowered)",
			mde_str(e, mb, sizeof(mb)), e->max_mde_pct);
	} else {
		verdict = "no significant difference";
		if (!(isfinite(q) && q < alpha))
			reason = kb_xasprintf("adjusted p = %.3g >= %.3g", q,
					      alpha);
		else
			reason = kb_xasprintf("|%+.2f%%| < minimum effect "
					      "%.3g%%", change, me);
	}
	e->verdict = verdict;
	free(e->reason);
	e->reason = reason;
}

/* The QEMU accelerator ("kvm", "tcg") configuration id's variant booted
 * with (campaign.environment.vm.variants.V.accel, runner/accel.h: the
 * configuration's accel, results/campaign_info.h), or NULL (not a vm
 * variant, or not recorded). */
static const char *config_accel(const struct kb_rcampaign *camp,
				const char *id)
{
	const struct kb_rconfig *c = kb_rcampaign__config(camp, id);

	return c ? c->accel : NULL;
}

int stats_fill_comparisons_in(struct kb_rmodel *model,
			      const struct kb_compare_opts *o,
			      const struct kb_compare_pair *pairs,
			      size_t npairs)
{
	struct kb_compare_opts defaults;
	struct kb_compare_pair *own = NULL;
	/* the jobs: campaign.jobs, then any only named by a run */
	const struct kb_strlist jobs = model->jobs;
	struct kb_strlist mlist = { 0 }, keep = { 0 };
	const struct kb_rcampaign *camp = &model->campaign;
	struct kb_analysis *an = &model->analysis;
	struct sample a, b;
	const char *baseline;
	double *p = NULL, *q = NULL;
	size_t i, k, j, m, ne = 0, fam;
	int ret = 0;

	if (!o) {
		kb_compare_opts_init(&defaults);
		o = &defaults;
	}
	if (o->metrics) {
		for (i = 0; o->metrics[i]; i++) {
			if (!kb_rmodel__metric_asked_ok(model, o->metrics[i]))
				return kb_rmodel__no_metric(model,
							    o->metrics[i]);
		}
	}
	if (!pairs) {
		/* the configurations, then any only named by a run */
		const struct kb_strlist ids = model->configs;

		baseline = camp->baseline;
		if (!baseline || !kb_strlist_has(&ids, baseline))
			baseline = ids.n ? ids.v[0] : NULL;
		own = kb_xcalloc(ids.n + 1, sizeof(*own));
		for (i = 0; i < ids.n; i++) {
			/* per swept job parameter value, see summary.h */
			const char *bl = stats_baseline_for(model, ids.v[i]);

			if (!bl && !camp->nconfigs)
				bl = baseline;
			if (!bl || !strcmp(ids.v[i], bl))
				continue;
			own[npairs].baseline = bl;
			own[npairs++].configuration = ids.v[i];
		}
		pairs = own;
	}

	sample_alloc(&a, model->nruns);
	sample_alloc(&b, model->nruns);
	kb_analysis__clear_comparisons(an);
	for (k = 0; k < npairs; k++) {
		size_t cb = kb_rmodel__config(model, pairs[k].baseline);
		size_t cc = kb_rmodel__config(model, pairs[k].configuration);

		for (j = 0; j < jobs.n; j++) {
			size_t jj = kb_rmodel__job(model, jobs.v[j]);

			job_metrics(model, jj, o, &mlist, &keep);
			for (m = 0; m < mlist.n; m++) {
				size_t mk = kb_rmodel__metric(model,
							      mlist.v[m]);

				gather(model, cb, jj, mk, &a);
				gather(model, cc, jj, mk, &b);
				if (!a.n && !b.n)
					continue;
				p = kb_xrealloc(p, (ne + 1) * sizeof(*p));
				comparison_row(an, model, camp, o,
					pairs[k].baseline,
					pairs[k].configuration, jobs.v[j],
					mlist.v[m], &a, &b, &p[ne]);
				ne++;
			}
		}
	}
	/* variants booted with different QEMU accelerators (KVM vs TCG,
	 * runner/accel.h) are not compared: their timings differ by the
	 * emulation, not by the kernel */
	for (i = 0; i < ne; i++) {
		struct kb_comparison_row *r = &an->comparisons[i];
		const char *xa = config_accel(camp, r->baseline);
		const char *xb = config_accel(camp, r->configuration);

		if (xa && xb && strcmp(xa, xb)) {
			r->accel_baseline = kb_xstrdup(xa);
			r->accel_configuration = kb_xstrdup(xb);
			p[i] = NAN;	/* not in the BH family */
		}
	}
	q = kb_xcalloc(ne + 1, sizeof(*q));
	fam = kb_bh_adjust(p, ne, q);
	for (i = 0; i < ne; i++) {
		struct kb_comparison_row *r = &an->comparisons[i];

		set_verdict(r, q[i], camp->order);
		if (r->accel_baseline) {
			free(r->reason);
			r->verdict = "inconclusive";
			r->reason = kb_xasprintf("not compared: the baseline "
				"booted with %s, this configuration with %s "
				"(QEMU accelerators differ; set the same accel "
				"= for every vm variant, or KBENCH_ACCEL)",
				r->accel_baseline, r->accel_configuration);
		}
	}
	sample_checks(model, o, pairs, npairs, &jobs, &mlist, &keep, &a);
	an->settings.alpha = alpha_for(o, camp);
	an->settings.p_adjustment = "Benjamini-Hochberg";
	an->settings.family_size = fam;
	an->settings.power_for_mde = KB_MDE_POWER;
	/* or left out already: an export of `report --exclude-outliers
	 * -f json` read back holds them in "excluded_outliers" */
	an->settings.outliers_excluded = o->exclude_outliers;
	for (i = 0; i < model->nruns; i++)
		an->settings.outliers_excluded |=
			model->runs[i].info.nexcluded_outliers > 0;
	kb_analysis__comparisons_to_json(an, model->results);

	sample_free(&a);
	sample_free(&b);
	for (i = 0; i < keep.n; i++)
		free((char *)keep.v[i]);
	free(keep.v);
	free(mlist.v);
	free(own);
	free(p);
	free(q);
	return ret;
}

const char *kb_analysis_text(const char *analysis)
{
	if (!strcmp(analysis, "paired"))
		return "paired by round (rounds are blocks): Student's t-test "
		       "on the per-round log ratios ln(C/B); change: ratio of "
		       "geometric means - 1, 95% CI from t on the log ratios; "
		       "Wilcoxon signed-rank p beside it (kbench compare, "
		       "results.json)";
	if (!strcmp(analysis, "welch-log"))
		return "unpaired: Welch's t-test on ln values; change: ratio "
		       "of geometric means - 1, 95% CI Welch-Satterthwaite; "
		       "Mann-Whitney U p beside it (kbench compare, "
		       "results.json)";
	if (!strcmp(analysis, "welch"))
		return "unpaired: Welch's t-test on the values (a value <= 0 "
		       "has no log); change of the mean, 95% CI "
		       "Welch-Satterthwaite";
	return analysis;
}

/* "%.2f%%" ("%.3g%%" past a million), or "n/a" for a CV that is not a
 * number (a sample of zeros: 0 / 0) */
static const char *cv_str(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "n/a (mean 0)";
	snprintf(buf, len, v < 1e6 ? "%.2f%%" : "%.3g%%", v);
	return buf;
}

char *kb_mde_text(const struct kb_comparison_row *e)
{
	char cb[32], cn[32], mb[64];
	const char *a = e->analysis ?: "";
	double mde = e->mde_pct, alpha = e->alpha;
	long long n = (long long)e->n, nb = (long long)e->n_baseline;

	if (isnan(mde))
		return NULL;
	mde_str(e, mb, sizeof(mb));
	if (!strcmp(a, "paired"))
		return kb_xasprintf("minimum detectable effect %s (80%% "
			"power, two-sided alpha %g, paired, n=%lld rounds, sd "
			"of the per-round log ratios %.2f%%)", mb, alpha,
			(long long)e->n_pairs, e->sd_log_ratio_pct);
	if (!strcmp(a, "welch-log"))
		return kb_xasprintf("minimum detectable effect %s (80%% "
			"power, two-sided alpha %g, Welch on ln values, n=%lld "
			"baseline and %lld, sd of ln values %.2f%% and "
			"%.2f%%)", mb, alpha, nb, n, e->sd_log_baseline_pct,
			e->sd_log_pct);
	return kb_xasprintf("minimum detectable effect %s (80%% power, "
		"two-sided alpha %g, Welch, n=%lld baseline and %lld, CV "
		"%s and %s)", mb, alpha, nb, n,
		cv_str(e->cv_baseline_pct, cb, sizeof(cb)),
		cv_str(e->cv_pct, cn, sizeof(cn)));
}

int stats_analyse(struct kb_rmodel *m, const struct kb_compare_opts *o)
{
	int ret;

	ret = stats_mark_outliers_in(m, o ? o->exclude_outliers : 0);
	if (ret >= 0) {
		/* the runs' "outliers" / "excluded_outliers" as marked */
		kb_rmodel__reread_runs(m);
		ret = stats_fill_summaries_in(m);
	}
	if (!ret)	/* the extra runs' own (stats/profiling.h) */
		ret = stats_fill_profiling_in(m);
	if (!ret)
		ret = stats_fill_comparisons_in(m, o, NULL, 0);
	return ret;
}

