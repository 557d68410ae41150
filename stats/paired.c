/* stats/paired.c - log-ratio tests and the Wilcoxon signed-rank test;
 * formulas and sources: stats/paired.h. */
#include "stats/paired.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

static int all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

static int all_positive(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0.0))
			return 0;
	return 1;
}

/* t, p and the change with its CI from dbar, se and df. */
static void finish(struct kb_log_test *r)
{
	double tq, lo, hi;

	if (r->se_log > 0.0 && isfinite(r->df)) {
		r->t = r->mean_log / r->se_log;
		r->p = 2.0 * gsl_cdf_tdist_Q(fabs(r->t), r->df);
		if (r->p > 1.0)
			r->p = 1.0;
		tq = gsl_cdf_tdist_Pinv(0.975, r->df);
		lo = r->mean_log - tq * r->se_log;
		hi = r->mean_log + tq * r->se_log;
	} else {
		/* every ratio the same: no spread to test against */
		r->t = r->df = NAN;
		r->p = r->mean_log == 0.0 ? 1.0 : 0.0;
		lo = hi = r->mean_log;
	}
	r->change_pct = expm1(r->mean_log) * 100.0;
	r->change_ci95_lo_pct = expm1(lo) * 100.0;
	r->change_ci95_hi_pct = expm1(hi) * 100.0;
}

int kb_paired_log_test(const double *a, const double *b, size_t n,
		       struct kb_log_test *r)
{
	double *d;
	size_t i;

	if (!a || !b || !r || !all_finite(a, n) || !all_finite(b, n))
		return -EINVAL;
	if (n < 2 || !all_positive(a, n) || !all_positive(b, n))
		return -EDOM;
	memset(r, 0, sizeof(*r));
	d = kb_xmalloc(n * sizeof(*d));
	for (i = 0; i < n; i++)
		d[i] = log(b[i] / a[i]);
	r->n = n;
	r->mean_log = gsl_stats_mean(d, 1, n);
	r->sd_log = gsl_stats_sd_m(d, 1, n, r->mean_log);	/* n - 1 */
	r->se_log = r->sd_log / sqrt((double)n);
	r->df = (double)(n - 1);
	free(d);
	finish(r);
	return 0;
}

double kb_welch_se(double va, size_t na, double vb, size_t nb, double *df)
{
	double qa = va / (double)na, qb = vb / (double)nb;
	double se = sqrt(qa + qb);

	*df = se > 0.0 ? (qa + qb) * (qa + qb) /
		(qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1)) : NAN;
	return se;
}

int kb_welch_log_test(const double *a, size_t na, const double *b,
		      size_t nb, struct kb_log_test *r)
{
	double *la, *lb;
	size_t i;

	if (!a || !b || !r || !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	if (na < 2 || nb < 2 || !all_positive(a, na) || !all_positive(b, nb))
		return -EDOM;
	memset(r, 0, sizeof(*r));
	la = kb_xmalloc(na * sizeof(*la));
	lb = kb_xmalloc(nb * sizeof(*lb));
	for (i = 0; i < na; i++)
		la[i] = log(a[i]);
	for (i = 0; i < nb; i++)
		lb[i] = log(b[i]);
	/* Welch-Satterthwaite on the logs (as kb_welch_test on raw values) */
	r->mean_log = gsl_stats_mean(lb, 1, nb) - gsl_stats_mean(la, 1, na);
	r->sd_log = NAN;
	r->se_log = kb_welch_se(gsl_stats_variance(la, 1, na), na,
				gsl_stats_variance(lb, 1, nb), nb, &r->df);
	free(la);
	free(lb);
	finish(r);
	return 0;
}

struct absd {
	double v;	/* |d| */
	int pos;	/* d > 0 */
};

static int cmp_absd(const void *x, const void *y)
{
	const struct absd *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

int kb_wilcoxon_signed_rank(const double *d, size_t n, struct kb_wilcoxon *w)
{
	struct absd *v;
	unsigned *r2;		/* doubled (mid-)ranks */
	double *cnt, total, lo = 0.0, hi = 0.0, mu, sigma2, ties = 0.0, z;
	size_t i, j, k, m = 0, w2 = 0, max2 = 0, s;

	if (!d || !w || !all_finite(d, n))
		return -EINVAL;
	memset(w, 0, sizeof(*w));
	v = kb_xcalloc(n + 1, sizeof(*v));
	r2 = kb_xcalloc(n + 1, sizeof(*r2));
	for (i = 0; i < n; i++) {
		if (d[i] == 0.0) {
			w->zeros++;
			continue;
		}
		v[m].v = fabs(d[i]);
		v[m++].pos = d[i] > 0.0;
	}
	w->n = m;
	qsort(v, m, sizeof(*v), cmp_absd);
	/* ranks 1..m; a tie group spanning ranks i+1..j gets (i+1+j)/2,
	 * doubled: i+1+j, an integer */
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && v[j].v == v[i].v; j++)
			;
		for (k = i; k < j; k++) {
			r2[k] = (unsigned)(i + 1 + j);
			if (v[k].pos)
				w2 += r2[k];
		}
		if (j - i > 1) {
			w->tied += j - i;
			ties += (double)(j - i) * (double)(j - i) *
				(double)(j - i) - (double)(j - i);
		}
		max2 += (j - i) * (i + 1 + j);
	}
	w->w_plus = (double)w2 / 2.0;
	if (m == 0) {
		w->p = 1.0;
		w->exact = 1;
		goto out;
	}
	if (m <= KB_WILCOXON_EXACT_MAX) {
		/* cnt[s]: sign patterns of the first k ranks whose positive
		 * ranks sum to s (half-rank units); at most 2^25, exact in a
		 * double */
		cnt = kb_xcalloc(max2 + 1, sizeof(*cnt));
		cnt[0] = 1.0;
		for (k = 0, s = 0; k < m; k++) {
			s += r2[k];
			for (i = s + 1; i-- > r2[k];)
				cnt[i] += cnt[i - r2[k]];
		}
		total = ldexp(1.0, (int)m);
		for (s = 0; s <= max2; s++) {
			if (s <= w2)
				lo += cnt[s];
			if (s >= w2)
				hi += cnt[s];
		}
		free(cnt);
		w->exact = 1;
		w->p = 2.0 * fmin(lo, hi) / total;
	} else {
		mu = (double)m * ((double)m + 1.0) / 4.0;
		sigma2 = (double)m * ((double)m + 1.0) * (2.0 * (double)m + 1.0)
			 / 24.0 - ties / 48.0;
		z = (fabs(w->w_plus - mu) - 0.5) / sqrt(sigma2);
		w->p = z > 0.0 ? 2.0 * gsl_cdf_ugaussian_Q(z) : 1.0;
	}
	if (w->p > 1.0)
		w->p = 1.0;
out:
	free(v);
	free(r2);
	return 0;
}

double kb_mde_paired_pct(size_t n, double sd_log, double alpha)
{
	double df;

	if (n < 2 || !isfinite(sd_log) || !(alpha > 0.0 && alpha < 1.0))
		return NAN;
	df = (double)n - 1.0;
	return expm1((gsl_cdf_tdist_Qinv(alpha / 2.0, df) +
		      gsl_cdf_tdist_Pinv(KB_MDE_POWER, df)) *
		     sd_log / sqrt((double)n)) * 100.0;
}
