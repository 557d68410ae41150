/* stats/modes.c - two performance modes in one sample; see
 * stats/modes.h for the rule and its sources. */
#include "stats/modes.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Summary of the sorted values v[0..n) (n >= 1); work has room for n. */
static void side_of(const double *v, size_t n, double *work,
		    struct kb_mode *s)
{
	double med, mad;
	size_t i;

	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	s->mean = gsl_stats_mean(v, 1, n);
	s->sd = n > 1 ? gsl_stats_sd_m(v, 1, n, s->mean) : NAN;
	med = gsl_stats_median_from_sorted_data(v, 1, n);
	for (i = 0; i < n; i++)
		work[i] = fabs(v[i] - med);
	gsl_sort(work, 1, n);
	mad = gsl_stats_median_from_sorted_data(work, 1, n);
	if (mad > 0.0)
		/* 1 / Phi^-1(3/4) = 1.4826 */
		s->robust_sd = mad / gsl_cdf_ugaussian_Pinv(0.75);
	else
		s->robust_sd = sqrt(M_PI / 2.0) * gsl_stats_mean(work, 1, n);
	/* the side's spread: the larger of that and the sample sd */
	s->spread = n > 1 && s->sd > s->robust_sd ? s->sd : s->robust_sd;
}

/* The largest gap of x[0..n) (n >= 2) without sorting (issue 16: a
 * sort per sample, three samples per metric, was a tenth of a 10k-run
 * report): the pigeonhole method for the maximum gap (F. P. Preparata,
 * M. I. Shamos, "Computational Geometry", Springer 1985, section 6.4;
 * T. Gonzalez 1975).  n buckets split [min, max]; bucket b holds the
 * values with floor((v - min) / (max - min) (n - 1)) = b, a monotone
 * function of v, so every value of a bucket is <= every value of a later
 * one and the gaps between neighbouring non-empty buckets (the next
 * one's min minus this one's max) are gaps of the sorted values, the
 * same doubles subtracted.  The gaps inside a bucket are never larger
 * than its max minus its min; when every bucket's range is below the
 * largest gap between buckets, that gap is the largest of the sorted
 * values and the lowest of its ties, as the scan of the sorted array
 * finds (*gap, *lo, *hi and *cut, the number of values <= *lo): 1.
 * Otherwise (all values equal, ranges reaching the gap through
 * rounding, a range that overflows): 0, and the caller sorts. */
static int max_gap_buckets(const double *x, size_t n, double *gap,
			   double *lo, double *hi, size_t *cut)
{
	/* one bucket in one place: a value's bucket is a random one of n,
	 * and three arrays would be three cache misses (a 10k-run
	 * configuration's buckets outgrow the L2 cache) */
	struct bucket {
		double min, max;
		size_t count;
	} *bk;
	double min = x[0], max = x[0], range, g = -1.0, prev_max = 0.0;
	size_t i, b, below = 0, seen = 0;
	int ok = 1;

	for (i = 1; i < n; i++) {
		min = fmin(min, x[i]);
		max = fmax(max, x[i]);
	}
	range = max - min;
	if (!(range > 0.0) || !isfinite(range))
		return 0;
	bk = kb_xcalloc(n, sizeof(*bk));
	for (i = 0; i < n; i++) {
		b = (size_t)((x[i] - min) / range * (double)(n - 1));
		if (b > n - 1)
			b = n - 1;
		if (!bk[b].count++) {
			bk[b].min = bk[b].max = x[i];
		} else {
			bk[b].min = fmin(bk[b].min, x[i]);
			bk[b].max = fmax(bk[b].max, x[i]);
		}
	}
	for (b = 0; b < n; b++) {
		if (!bk[b].count)
			continue;
		if (seen && bk[b].min - prev_max > g) {
			g = bk[b].min - prev_max;
			*lo = prev_max;
			*hi = bk[b].min;
			*cut = below;
		}
		seen += bk[b].count;
		below = seen;
		prev_max = bk[b].max;
	}
	for (b = 0; b < n && ok; b++)
		if (bk[b].count > 1 && !(bk[b].max - bk[b].min < g))
			ok = 0;
	free(bk);
	*gap = g;
	return ok && g >= 0.0;
}

int kb_find_modes(const double *x, size_t n, struct kb_modes *m)
{
	double *v, *work, gap, floor;
	size_t i, cut = 0;

	if (!x || !m)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	memset(m, 0, sizeof(*m));
	if (n < 2)
		return 0;

	m->min_side = (size_t)ceil(KB_MODES_MIN_SIDE_SHARE * (double)n -
				   1e-9);
	if (m->min_side < KB_MODES_MIN_SIDE)
		m->min_side = KB_MODES_MIN_SIDE;
	if (max_gap_buckets(x, n, &m->gap, &m->split_lo, &m->split_hi, &cut) &&
	    (cut < m->min_side || n - cut < m->min_side)) {
		/* a side too small to be a mode: not bimodal, whatever the
		 * spreads (the common case: no sort at all) */
		m->side[0].n = cut;
		m->side[1].n = n - cut;
		return 0;
	}
	v = kb_xmalloc(n * sizeof(*v));
	work = kb_xmalloc(n * sizeof(*work));
	memcpy(v, x, n * sizeof(*v));
	gsl_sort(v, 1, n);
	/* the largest gap; the first one on ties */
	gap = -1.0;
	for (i = 0; i + 1 < n; i++) {
		if (v[i + 1] - v[i] > gap) {
			gap = v[i + 1] - v[i];
			cut = i + 1;	/* v[0..cut) is the lower side */
		}
	}
	m->gap = gap;
	m->split_lo = v[cut - 1];
	m->split_hi = v[cut];
	if (cut < m->min_side || n - cut < m->min_side) {
		m->side[0].n = cut;
		m->side[1].n = n - cut;
		free(v);
		free(work);
		return 0;
	}
	side_of(v, cut, work, &m->side[0]);
	side_of(v + cut, n - cut, work, &m->side[1]);
	floor = KB_MODES_MIN_SPREAD *
		fabs(gsl_stats_median_from_sorted_data(v, 1, n));
	m->spread = fmax(fmax(m->side[0].spread, m->side[1].spread), floor);
	m->bimodal = m->side[0].n >= m->min_side &&
		     m->side[1].n >= m->min_side && gap > 0.0 &&
		     gap > KB_MODES_GAP_FACTOR * m->spread;
	free(v);
	free(work);
	return 0;
}

/* The scale for a number of the size of v: 1, 1e3 ("k"), 1e6 ("M"),
 * 1e9 ("G"). */
static double scale_of(double v, const char **suffix)
{
	double a = fabs(v);

	if (a >= 1e9) {
		*suffix = "G";
		return 1e9;
	}
	if (a >= 1e6) {
		*suffix = "M";
		return 1e6;
	}
	if (a >= 1e3) {
		*suffix = "k";
		return 1e3;
	}
	*suffix = "";
	return 1.0;
}

/* An sd in units of the scale, rounded up (never understating): to one
 * decimal from 0.1 up ("0.7" for 0.635), below that to one significant
 * digit ("0.002" for 0.0012: one decimal made an sd of 1 IOPS "0.1k",
 * a hundred times itself, beside modes 0.2k apart). */
static void sd_text(char *buf, size_t len, double sd)
{
	double e;

	if (!(sd > 0.0) || sd >= 0.1 - 1e-12 || !isfinite(sd)) {
		snprintf(buf, len, "%.1f", sd > 0.0 ?
			 ceil(sd * 10.0 - 1e-9) / 10.0 : sd);
		return;
	}
	e = pow(10.0, floor(log10(sd)));
	snprintf(buf, len, "%.1g", ceil(sd / e - 1e-9) * e);
}

/* The gap between the mode means in units of the scale: whole units from
 * 10 up ("81"), two significant digits below ("0.2", "0.005"; whole
 * units printed modes 199 IOPS apart as "gap 0k >> within-mode
 * spread", a break-it trial). */
static void gap_text(char *buf, size_t len, double gap)
{
	snprintf(buf, len, gap >= 9.5 || gap == 0.0 ? "%.0f" : "%.2g", gap);
}

char *kb_modes_warning(const char *config, const char *metric,
		       const struct kb_modes *m, double mean)
{
	const struct kb_mode *a, *b;
	const char *u;
	double sc;
	char sda[32], sdb[32], gap[32];
	int major;

	if (!m->bimodal)
		return NULL;
	major = kb_modes_major(m);
	a = &m->side[major];
	b = &m->side[!major];
	sc = scale_of(mean, &u);
	/* sd rounded up (1e-9: a value that is exactly on a decimal stays
	 * there) */
	sd_text(sda, sizeof(sda), a->sd / sc);
	sd_text(sdb, sizeof(sdb), b->sd / sc);
	gap_text(gap, sizeof(gap), fabs(a->mean - b->mean) / sc);
	return kb_xasprintf("%s %s is bimodal: %zu runs ~%.2f%s (sd %s%s) "
		"and %zu runs ~%.2f%s (sd %s%s); gap %s%s >> within-mode "
		"spread; the mean %.2f%s describes neither mode", config,
		metric, a->n, a->mean / sc, u, sda, u, b->n, b->mean / sc, u,
		sdb, u, gap, u, mean / sc, u);
}
