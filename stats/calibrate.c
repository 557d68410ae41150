/* stats/calibrate.c - the A/A statistics; see stats/calibrate.h. */
#include "stats/calibrate.h"
#include "stats/compare.h"
#include "stats/paired.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

unsigned kb_calibrate_rounds(int paired, double sd_log, double alpha,
			     double target_pct)
{
	unsigned n;
	double mde;

	if (!isfinite(sd_log) || !isfinite(target_pct) || target_pct <= 0.0)
		return 0;
	for (n = 2; n <= KB_CALIB_MAX_ROUNDS; n++) {
		mde = paired ? kb_mde_paired_pct(n, sd_log, alpha) :
			       kb_mde_welch_log_pct(sd_log, n, sd_log, n,
						    alpha);
		if (isfinite(mde) && fabs(mde) <= target_pct)
			return n;
	}
	return 0;
}

static void clear(struct kb_calib_metric *m)
{
	m->cv_pct[0] = m->cv_pct[1] = NAN;
	m->sd_log_pct = m->sd_log_ratio_pct = m->corr = m->corr_p = NAN;
	m->analysis = "paired";
	m->rounds_max_mde = m->rounds_min_effect = 0;
}

int kb_calibrate_metric(struct kb_calib_metric *m, double alpha)
{
	size_t n = m->n, i;
	double *la, *lb, *d, r, t, sd;
	int paired;

	clear(m);
	if (n < 3)
		return -EDOM;
	for (i = 0; i < n; i++)
		if (!(m->copy1[i] > 0.0) || !(m->copy2[i] > 0.0))
			return -EDOM;
	la = calloc(3 * n, sizeof(double));
	if (!la)
		return -ENOMEM;
	lb = la + n;
	d = lb + n;
	for (i = 0; i < n; i++) {
		la[i] = log(m->copy1[i]);
		lb[i] = log(m->copy2[i]);
		d[i] = lb[i] - la[i];
	}
	m->cv_pct[0] = gsl_stats_sd(m->copy1, 1, n) /
		       gsl_stats_mean(m->copy1, 1, n) * 100.0;
	m->cv_pct[1] = gsl_stats_sd(m->copy2, 1, n) /
		       gsl_stats_mean(m->copy2, 1, n) * 100.0;
	m->sd_log_pct = sqrt((gsl_stats_variance(la, 1, n) +
			      gsl_stats_variance(lb, 1, n)) / 2.0) * 100.0;
	m->sd_log_ratio_pct = gsl_stats_sd(d, 1, n) * 100.0;
	r = gsl_stats_correlation(la, 1, lb, 1, n);
	if (isfinite(r)) {
		m->corr = r;
		if (r * r >= 1.0)
			m->corr_p = r < 0.0 ? 0.0 : 1.0;
		else {
			t = r * sqrt((double)(n - 2) / (1.0 - r * r));
			m->corr_p = gsl_cdf_tdist_P(t, (double)(n - 2));
		}
	}
	/* a constant copy has no correlation: nothing says the rounds
	 * are anti-correlated, so pairing stays */
	paired = !(isfinite(m->corr_p) && m->corr_p < alpha);
	m->analysis = paired ? "paired" : "welch-log";
	sd = (paired ? m->sd_log_ratio_pct : m->sd_log_pct) / 100.0;
	m->rounds_max_mde = kb_calibrate_rounds(paired, sd, alpha,
						m->max_mde_pct);
	m->rounds_min_effect = kb_calibrate_rounds(paired, sd, alpha,
						   m->min_effect_pct);
	free(la);
	return 0;
}

/* The most of two round counts, 0 (above the cap) winning. */
static unsigned most_rounds(unsigned a, unsigned b, size_t first)
{
	if (first)
		return b;
	return !a || !b ? 0 : a > b ? a : b;
}

size_t kb_calibrate_totals(struct kb_calibration *cal,
			   int (*keep)(const struct kb_calib_metric *m,
				       const void *arg),
			   const void *arg)
{
	size_t i, kept = 0;

	cal->analysis = "paired";
	cal->rounds_max_mde = cal->rounds_min_effect = 0;
	for (i = 0; i < cal->nm; i++) {
		const struct kb_calib_metric *m = &cal->m[i];

		if (keep && !keep(m, arg))
			continue;
		if (!strcmp(m->analysis, "welch-log"))
			cal->analysis = "welch-log";
		cal->rounds_max_mde = most_rounds(cal->rounds_max_mde,
						  m->rounds_max_mde, !kept);
		cal->rounds_min_effect = most_rounds(cal->rounds_min_effect,
						     m->rounds_min_effect,
						     !kept);
		kept++;
	}
	return kept;
}

size_t kb_calibrate(struct kb_calibration *cal)
{
	size_t i, bad = 0;

	for (i = 0; i < cal->nm; i++)
		if (kb_calibrate_metric(&cal->m[i], cal->alpha))
			bad++;
	kb_calibrate_totals(cal, NULL, NULL);
	return bad;
}
