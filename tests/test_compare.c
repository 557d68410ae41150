/* tests/test_compare.c - stats/compare.c: every statistic against values
 * computed independently (SciPy 1.10.1, see tests/data/stats/SOURCES),
 * the methodology cases B24, B26, B28, B29 (tests/data/stats/), an A/A
 * false-positive rate and a synthetic 10% regression.  Runs from the
 * repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/err.h"
#include "stats/compare.h"
#include "stats/summary.h"
#include "reports/report.h"
#include "results/analysis.h"
#include "results/rmodel.h"
#include "tests/analysis_round_trip.h"
#include "tests/report_fixture.h"

#define MAXV 64

#define assert_near(a, b, tol) do {					\
	double _a = (a), _b = (b);					\
	if (!(fabs(_a - _b) <= (tol)))					\
		fail_msg("%s = %.8g, expected %.8g (+-%g)", #a, _a, _b,	\
			 (double)(tol));				\
} while (0)

/* Values of the last column of a CSV whose column `col` (0-based) equals
 * key (key NULL: every row); the header line is skipped. */
static size_t load_csv(const char *path, int col, const char *key, double *v)
{
	char line[256], *f, *save;
	FILE *fp = fopen(path, "r");
	size_t n = 0;
	int i, match;
	double last;

	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp));	/* header */
	while (fgets(line, sizeof(line), fp)) {
		match = key == NULL;
		last = NAN;
		for (i = 0, f = strtok_r(line, ",\n", &save); f;
		     i++, f = strtok_r(NULL, ",\n", &save)) {
			if (key && i == col && !strcmp(f, key))
				match = 1;
			last = strtod(f, NULL);
		}
		if (match && n < MAXV)
			v[n++] = last;
	}
	fclose(fp);
	return n;
}

/* ---- the statistics on fixed inputs -------------------------------- */

static void test_welch_b24(void **state)
{
	double a[MAXV], b[MAXV];
	struct kb_welch w;
	size_t na, nb;

	(void)state;
	na = load_csv("tests/data/stats/B24.csv", 0, "kernel-A", a);
	nb = load_csv("tests/data/stats/B24.csv", 0, "kernel-B", b);
	assert_int_equal(na, 5);
	assert_int_equal(nb, 5);
	assert_int_equal(kb_welch_test(a, na, b, nb, &w), 0);
	/* B24.expected: t = 0.582, df = 7.68, p = 0.577, +3.68 (+0.90%),
	 * CI [-11.00, +18.36] = [-2.70%, +4.50%]; SciPy for more digits */
	assert_near(w.t, 0.5822639036, 1e-8);
	assert_near(w.df, 7.6787342194, 1e-8);
	assert_near(w.p, 0.5770800107, 1e-8);
	assert_near(w.diff, 3.68, 1e-9);
	assert_near(w.diff_ci95_lo, -11.0011342407, 1e-6);
	assert_near(w.diff_ci95_hi, 18.3611342407, 1e-6);
	assert_near(w.change_pct, 0.90, 0.005);
	assert_near(w.change_ci95_lo_pct, -2.70, 0.005);
	assert_near(w.change_ci95_hi_pct, 4.50, 0.005);
	assert_int_equal(kb_welch_test(a, 1, b, nb, &w), -EDOM);
}

static void test_welch_ties_and_b26(void **state)
{
	double a[] = { 10, 12, 12, 15, 11, 13, 14, 12 };
	double b[] = { 14, 15, 13, 16, 15, 17, 12, 18 };
	double all[MAXV], bv[MAXV], aa[MAXV];
	struct kb_welch w;
	size_t n, i, na = 0, nb = 0;

	(void)state;
	assert_int_equal(kb_welch_test(a, 8, b, 8, &w), 0);
	assert_near(w.t, 2.9002489793, 1e-8);
	assert_near(w.p, 0.0121188690, 1e-8);

	/* B26: rows 1-3, 7-9 are A, 4-6 B */
	n = load_csv("tests/data/stats/B26.csv", 0, NULL, all);
	assert_int_equal(n, 9);
	for (i = 0; i < n; i++) {
		if (i >= 3 && i < 6)
			bv[nb++] = all[i];
		else
			aa[na++] = all[i];
	}
	/* naive: first A block vs B: -1.54%, p = 0.011 */
	assert_int_equal(kb_welch_test(aa, 3, bv, nb, &w), 0);
	assert_near(w.t, -4.6467017049, 1e-8);
	assert_near(w.p, 0.0111236666, 1e-8);
	assert_near(w.change_pct, -1.5400066957, 1e-8);
	/* all A vs B: -0.19%, p = 0.79 */
	assert_int_equal(kb_welch_test(aa, na, bv, nb, &w), 0);
	assert_near(w.p, 0.7892817571, 1e-8);
	assert_near(w.change_pct, -0.1866621415, 1e-8);
}

static void test_mann_whitney(void **state)
{
	double a[MAXV], b[MAXV];
	double ta[] = { 10, 12, 12, 15, 11, 13, 14, 12 };
	double tb[] = { 14, 15, 13, 16, 15, 17, 12, 18 };
	double x[] = { 101.2, 99.8, 100.5, 102.1, 98.7, 100.9, 101.5, 99.3,
		       100.1, 102.4, 98.9, 100.6 };
	double y[] = { 103.4, 102.8, 104.1, 101.9, 103.0, 104.6, 102.2,
		       103.7, 101.5, 104.9, 102.6, 103.3 };
	struct kb_mann_whitney m;

	(void)state;
	load_csv("tests/data/stats/B24.csv", 0, "kernel-A", a);
	load_csv("tests/data/stats/B24.csv", 0, "kernel-B", b);
	/* no ties, 5 vs 5: exact */
	assert_int_equal(kb_mann_whitney(a, 5, b, 5, &m), 0);
	assert_true(m.exact);
	assert_near(m.u, 15.0, 0);
	assert_near(m.p, 0.6904761905, 1e-9);
	/* 3 vs 4 exact, U at the extreme */
	assert_int_equal(kb_mann_whitney(x, 3, y, 4, &m), 0);
	assert_true(m.exact);
	assert_near(m.u, 12.0, 0);
	assert_near(m.p, 0.0571428571, 1e-9);
	/* ties: normal approximation with tie and continuity correction */
	assert_int_equal(kb_mann_whitney(ta, 8, tb, 8, &m), 0);
	assert_false(m.exact);
	assert_near(m.u, 54.5, 0);
	assert_near(m.p, 0.0193803327, 1e-9);
	/* 12 vs 12 (one tie): normal approximation */
	assert_int_equal(kb_mann_whitney(x, 12, y, 12, &m), 0);
	assert_false(m.exact);
	assert_near(m.u, 138.5, 0);
	assert_near(m.p, 0.00013821527, 1e-10);
}

static void test_bh(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005, 0.20, NAN };
	double q[6];

	(void)state;
	/* by the definition: sorted 0.005 0.01 0.03 0.04 0.20 (m = 5):
	 * p m / rank = 0.025 0.025 0.05 0.05 0.20, then running minimum
	 * from the top */
	assert_int_equal(kb_bh_adjust(p, 6, q), 5);
	assert_near(q[0], 0.025, 1e-12);
	assert_near(q[1], 0.05, 1e-12);
	assert_near(q[2], 0.05, 1e-12);
	assert_near(q[3], 0.025, 1e-12);
	assert_near(q[4], 0.20, 1e-12);
	assert_true(isnan(q[5]));
}

static void test_mad_b28(void **state)
{
	double x[MAXV], z[MAXV];
	double flat[] = { 100, 100, 100, 100, 130 };
	int flag[MAXV];
	struct kb_summary s;
	size_t n;

	(void)state;
	n = load_csv("tests/data/stats/B28.csv", 0, NULL, x);
	assert_int_equal(n, 6);
	assert_int_equal(kb_mad_outliers(x, n, z, flag), 2);
	assert_near(z[0], 25.125125, 1e-5);
	assert_near(z[1], 6.239125, 1e-5);
	assert_near(z[2], 0.168625, 1e-5);
	assert_near(z[5], -0.843125, 1e-5);
	assert_int_equal(flag[0], 1);
	assert_int_equal(flag[1], 1);
	assert_int_equal(flag[2] + flag[3] + flag[4] + flag[5], 0);
	/* B28: steady state (runs 3-6) */
	assert_int_equal(kb_summarize(x + 2, 4, &s), 0);
	assert_near(s.mean, 19.95, 1e-9);
	assert_near(s.sd, 0.129, 0.0005);
	assert_near(s.ci95_lo, 19.74, 0.005);
	assert_near(s.ci95_hi, 20.16, 0.005);

	/* MAD = 0: mean absolute deviation instead */
	assert_int_equal(kb_mad_outliers(flat, 5, z, flag), 1);
	assert_near(z[4], 3.98942324, 1e-6);
	assert_int_equal(flag[4], 1);
	/* too few values: nothing flagged */
	assert_int_equal(kb_mad_outliers(x, 2, z, flag), 0);
	{
		/* 3 and 4 values: z computed, nothing flagged (of 3, the
		 * one quiet run among two disturbed ones had |z| 4.5) */
		double three[] = { 32030, 37005, 70023, 36000 };

		assert_int_equal(kb_mad_outliers(three, 3, z, flag), 0);
		assert_true(fabs(z[2]) > KB_MAD_Z_LIMIT);
		assert_int_equal(flag[2], 0);
		assert_int_equal(kb_mad_outliers(three, 4, z, flag), 0);
		assert_int_equal(flag[2], 0);
	}
	{
		/* a very tight sample: 3 IOPS in 60k has |z| 6 but is
		 * within 1% of the median, not an outlier; 5% off is */
		double tight[] = { 60000, 60000.5, 59999.5, 60000, 60003 };

		assert_int_equal(kb_mad_outliers(tight, 5, z, flag), 0);
		assert_true(fabs(z[4]) > KB_MAD_Z_LIMIT);
		tight[4] = 63000;
		assert_int_equal(kb_mad_outliers(tight, 5, z, flag), 1);
		assert_int_equal(flag[4], 1);
	}
}

static void test_drift_b26(void **state)
{
	double all[MAXV], ord[MAXV], a[MAXV];
	struct kb_drift d;
	size_t n, i, na = 0;

	(void)state;
	n = load_csv("tests/data/stats/B26.csv", 0, NULL, all);
	for (i = 0; i < n; i++) {
		if (i >= 3 && i < 6)
			continue;
		ord[na] = (double)(i + 1);
		a[na++] = all[i];
	}
	assert_int_equal(kb_drift_check(ord, a, na, &d), 0);
	/* B26.expected: slope = -0.448 kIOPS/run, p < 0.001 */
	assert_near(d.slope, -0.4482758621, 1e-9);
	assert_near(d.p, 4.772538462e-07, 1e-12);
	assert_near(d.slope_ci95_lo, -0.4691875079, 1e-8);
	assert_near(d.slope_ci95_hi, -0.4273642162, 1e-8);
	assert_near(d.change_pct, -3.6513221414, 1e-8);
	assert_int_equal(kb_drift_check(ord, a, 2, &d), -EDOM);
}

static void test_mde(void **state)
{
	(void)state;
	/* equal n and sd of ln values on both sides: Welch's df is 2n - 2
	 * and se = sd sqrt(2 / n); (t(0.975; 2n-2) + t(0.80; 2n-2))
	 * sqrt(2 / n) from SciPy (t.ppf), times the sd, then exp - 1 */
	assert_near(kb_mde_welch_log_pct(0.01, 3, 0.01, 3, 0.05),
		    expm1(0.030352522956) * 100.0, 1e-8);
	assert_near(kb_mde_welch_log_pct(0.02, 5, 0.02, 5, 0.05),
		    expm1(0.040412563299) * 100.0, 1e-8);
	assert_near(kb_mde_welch_log_pct(0.005, 10, 0.005, 10, 0.05),
		    expm1(0.006625403919) * 100.0, 1e-8);
	assert_near(kb_mde_welch_log_pct(0.0, 4, 0.0, 4, 0.05), 0.0, 0);
	assert_true(isnan(kb_mde_welch_log_pct(0.01, 1, 0.01, 3, 0.05)));
}

/* ---- the results model --------------------------------------------- */

/* add_runs() stores rounds 1..n: a campaign with warmup = 1 (its warm-up
 * round 0 left out), so the reports number them 1..n (results/paths.h). */
static json_t *model(const char *baseline)
{
	return json_pack("{s:i, s:{s:s, s:[s], s:i}, s:[], s:[], s:[]}",
			 "schema_version", 1, "campaign", "baseline", baseline,
			 "jobs", "j", "warmup", 1, "configurations", "runs",
			 "summaries");
}

static void add_runs(json_t *res, const char *cfg, const char *metric,
		     const double *v, size_t n)
{
	json_t *runs = json_object_get(res, "runs"), *r;
	size_t i;
	int first = 1;

	/* the next iterations of cfg: runs added a few at a time are
	 * distinct runs, not copies (results/rmodel.c drops copies) */
	json_array_foreach(runs, i, r)
		if (!strcmp(json_string_value(json_object_get(r,
				"configuration")) ?: "", cfg))
			first++;
	for (i = 0; i < n; i++)
		json_array_append_new(runs, json_pack(
			"{s:s, s:s, s:i, s:b, s:s, s:n, s:{s:f}}",
			"configuration", cfg, "job", "j", "iteration",
			first + (int)i, "warmup", 0, "status", "ok", "reason",
			"metrics", metric, v[i]));
}

static json_t *find_cmp(json_t *res, const char *cfg, const char *metric)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(res, "comparisons"), i, e)
		if (!strcmp(json_string_value(json_object_get(e,
			"configuration")), cfg) &&
		    !strcmp(json_string_value(json_object_get(e, "metric")),
			    metric))
			return e;
	return NULL;
}

static const char *verdict(json_t *e)
{
	assert_non_null(e);
	return json_string_value(json_object_get(e, "verdict"));
}

static double num(json_t *e, const char *key)
{
	json_t *v = json_object_get(e, key);

	if (!json_is_number(v))
		fail_msg("%s is not a number", key);
	return json_number_value(v);
}

static void no_nan(json_t *res)
{
	char *s = json_dumps(res, 0);

	assert_non_null(s);
	assert_null(strstr(s, "nan"));
	assert_null(strstr(s, "inf"));
	free(s);
}

static void test_model_b24(void **state)
{
	double a[MAXV], b[MAXV];
	json_t *res = model("kernel-A"), *e;

	(void)state;
	add_runs(res, "kernel-A", "read.iops", a,
		 load_csv("tests/data/stats/B24.csv", 0, "kernel-A", a));
	add_runs(res, "kernel-B", "read.iops", b,
		 load_csv("tests/data/stats/B24.csv", 0, "kernel-B", b));
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = find_cmp(res, "kernel-B", "read.iops");
	/* must NOT be an improvement (B24): not significant (p >= 0.05),
	 * and B24's "no significant difference" comes from a comparison
	 * whose MDE from both samples (5.06%, below) is above the default
	 * max_mde of 5%: "underpowered", no evidence of no change */
	assert_true(num(e, "p") >= 0.05);
	assert_string_equal(verdict(e), "underpowered");
	/* two kernels measured without a recorded run order: unpaired,
	 * Welch on ln values (stats/compare.h); B24.expected's numbers are
	 * those of Welch on the raw values, asserted on kb_welch_test() in
	 * test_welch_b24; these come from tests/data/stats/reference.py */
	assert_string_equal(json_string_value(json_object_get(e, "analysis")),
			    "welch-log");
	assert_near(num(e, "welch_t"), 0.578681390112628, 1e-8);
	assert_near(num(e, "welch_df"), 7.69655348040947, 1e-8);
	assert_near(num(e, "welch_p"), 0.5793392801822017, 1e-8);
	assert_near(num(e, "p"), 0.5793392801822017, 1e-8);
	assert_near(num(e, "change_pct"), 0.8931838030601902, 1e-8);
	assert_near(num(e, "change_ci95_lo_pct"), -2.643160097401694, 1e-6);
	assert_near(num(e, "change_ci95_hi_pct"), 4.557980190217878, 1e-6);
	/* the difference of the means is still B24's +3.68 kIOPS */
	assert_near(num(e, "diff"), 3.68, 1e-9);
	assert_near(num(e, "mw_u"), 15.0, 0);
	assert_near(num(e, "mw_p"), 0.6904761905, 1e-9);
	/* MDE of this Welch-on-ln comparison: from both samples' variances
	 * of ln values and the Welch df (stats/compare.h), not from the
	 * baseline's CV alone; tests/data/stats/reference.py */
	assert_near(num(e, "mde_pct"), 5.060736819731161, 1e-5);
	assert_near(num(e, "mde_pct"), kb_mde_welch_log_pct(num(e,
		"sd_log_baseline_pct") / 100.0, 5, num(e, "sd_log_pct") /
		100.0, 5, 0.05), 1e-12);
	assert_near(num(e, "sd_log_baseline_pct"), 2.175075543196247, 1e-9);
	assert_near(num(e, "cv_baseline_pct"), 8.913 / 407.70 * 100, 0.001);
	no_nan(res);
	assert_round_trip(res);
	json_decref(res);
}

/* A load host's metric (hosts =, host.NAME.METRIC) is its METRIC: the
 * host's IOPS halved is a regression, higher is better, in IOPS, and
 * --min-effect read.iops=60 is its threshold too (a 50% change then not
 * significant).  Before 2026-12-06 it was "neutral": a "change", never
 * a regression, whatever its size. */
static void test_host_metric_direction(void **state)
{
	double a[5] = { 100, 101, 99, 100, 102 }, b[5] = { 50, 51, 49, 50, 50 };
	static const char *m[] = { "host.10.0.0.2.read.iops", NULL };
	struct kb_compare_opts o;
	json_t *res, *e;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		kb_compare_opts_init(&o);
		o.metrics = m;	/* kbench compare --metric */
		if (pass) {
			assert_int_equal(kb_compare_parse_opt(&o, 'E',
				"read.iops=60"), 0);
			/* the setting names the metric, not the host */
			assert_int_not_equal(kb_compare_parse_opt(&o, 'E',
				"host.10.0.0.2.read.iops=2"), 0);
		}
		res = model("kernel-A");
		add_runs(res, "kernel-A", m[0], a, 5);
		add_runs(res, "kernel-B", m[0], b, 5);
		assert_int_equal(tree_analyse(res, &o), 0);
		e = find_cmp(res, "kernel-B", m[0]);
		assert_string_equal(json_string_value(json_object_get(e,
				    "direction")), "higher");
		assert_string_equal(json_string_value(json_object_get(e,
				    "unit")), "IOPS");
		if (!pass)
			assert_string_equal(verdict(e), "regression");
		else	/* -50% under read.iops's min_effect of 60% */
			assert_string_not_equal(verdict(e), "regression");
		json_decref(res);
		kb_compare_opts_free(&o);
	}
}

/* Variants booted with different QEMU accelerators (runner/accel.h) are
 * not compared: a clear 50% difference is "inconclusive", with the
 * reason, and outside the BH family; the same accelerator compares. */
static void test_accel_mismatch(void **state)
{
	double a[5] = { 100, 101, 99, 100, 100 }, b[5] = { 50, 51, 49, 50, 50 };
	json_t *res, *e, *vars;
	int same;

	(void)state;
	for (same = 0; same <= 1; same++) {
		res = model("kvm1");
		json_object_set_new(res, "configurations",
			json_pack("[{s:s, s:s}, {s:s, s:s}]", "id", "kvm1",
				  "variant", "a", "id", "tcg1", "variant", "b"));
		vars = json_pack("{s:{s:s}, s:{s:s}}", "a", "accel", "kvm",
				 "b", "accel", same ? "kvm" : "tcg");
		json_object_set_new(json_object_get(res, "campaign"),
			"environment", json_pack("{s:{s:o}}", "vm", "variants",
						 vars));
		add_runs(res, "kvm1", "read.iops", a, 5);
		add_runs(res, "tcg1", "read.iops", b, 5);
		assert_int_equal(tree_analyse(res, NULL), 0);
		e = find_cmp(res, "tcg1", "read.iops");
		if (same) {
			assert_string_equal(verdict(e), "regression");
			assert_null(json_object_get(e, "accel_mismatch"));
		} else {
			assert_string_equal(verdict(e), "inconclusive");
			assert_non_null(strstr(json_string_value(
				json_object_get(e, "reason")), "kvm"));
			assert_non_null(strstr(json_string_value(
				json_object_get(e, "reason")), "tcg"));
			assert_true(json_is_null(json_object_get(e,
							 "p_adjusted")));
		}
		assert_round_trip(res);
		json_decref(res);
	}
}

static void test_model_b29(void **state)
{
	double a[MAXV], b[MAXV];
	json_t *res = model("kernel-A"), *e;

	(void)state;
	add_runs(res, "kernel-A", "read.iops", a,
		 load_csv("tests/data/stats/B29.csv", 0, "kernel-A", a));
	add_runs(res, "kernel-B", "read.iops", b,
		 load_csv("tests/data/stats/B29.csv", 0, "kernel-B", b));
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = find_cmp(res, "kernel-B", "read.iops");
	assert_string_equal(verdict(e), "insufficient samples");
	assert_non_null(strstr(json_string_value(json_object_get(e, "reason")),
			       "baseline n=1 < 2"));
	assert_true(json_is_null(json_object_get(e, "welch_p")));
	assert_true(json_is_null(json_object_get(e, "p_adjusted")));
	assert_true(json_is_null(json_object_get(e, "cv_baseline_pct")));
	assert_true(json_is_null(json_object_get(e, "mde_pct")));
	assert_int_equal(json_integer_value(json_object_get(e, "n_baseline")),
			 1);
	/* insufficient samples are not in the BH family */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		res, "comparison_settings"), "family_size")), 0);
	no_nan(res);
	assert_round_trip(res);
	json_decref(res);
}

static void test_model_b26_drift(void **state)
{
	double all[MAXV];
	json_t *res = model("kernel-A"), *e, *d;
	size_t i, n;

	(void)state;
	/* the runs in their real order A A A B B B A A A */
	n = load_csv("tests/data/stats/B26.csv", 0, NULL, all);
	for (i = 0; i < n; i++)
		add_runs(res, i >= 3 && i < 6 ? "kernel-B" : "kernel-A",
			 "read.iops", all + i, 1);
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = find_cmp(res, "kernel-B", "read.iops");
	/* B26: must NOT report a regression */
	assert_string_equal(verdict(e), "inconclusive");
	d = json_object_get(e, "drift_baseline");
	assert_true(json_is_true(json_object_get(d, "warn")));
	assert_near(num(d, "slope_per_run"), -0.4482758621, 1e-9);
	assert_true(num(d, "p") < 0.001);
	assert_non_null(strstr(json_string_value(json_object_get(e, "reason")),
			       "drifts"));
	assert_round_trip(res);
	json_decref(res);
}

static void test_model_b28_warmup(void **state)
{
	double x[MAXV], y[] = { 20.0, 20.1, 19.9, 20.2, 19.8, 20.0 };
	json_t *res = model("base"), *e, *s;
	size_t i, n;

	(void)state;
	n = load_csv("tests/data/stats/B28.csv", 0, NULL, x);
	add_runs(res, "slow-start", "rusage.elapsed_s", x, n);
	add_runs(res, "base", "rusage.elapsed_s", y, 6);
	{
		const char *m[] = { "rusage.elapsed_s", NULL };
		struct kb_compare_opts o;

		kb_compare_opts_init(&o);
		o.metrics = m;
		assert_int_equal(tree_mark_outliers(res, 0), 2);
		assert_int_equal(tree_fill_summaries(res), 0);
		assert_int_equal(tree_fill_comparisons(res, &o), 0);
		e = find_cmp(res, "slow-start", "rusage.elapsed_s");
		assert_int_equal(json_integer_value(json_object_get(e,
				 "warmup_suspect")), 2);
		assert_int_equal(json_array_size(json_object_get(e,
				 "outliers")), 2);
		/* kept in the data unless asked: the mean includes them */
		json_array_foreach(json_object_get(res, "summaries"), i, s)
			if (!strcmp(json_string_value(json_object_get(s,
				"configuration")), "slow-start"))
				assert_near(num(s, "mean"), 21.5333333, 1e-6);

		/* --exclude-outliers: the steady state of B28 */
		o.exclude_outliers = 1;
		assert_int_equal(tree_analyse(res, &o), 0);
	}
	json_array_foreach(json_object_get(res, "summaries"), i, s) {
		if (strcmp(json_string_value(json_object_get(s,
			   "configuration")), "slow-start"))
			continue;
		assert_int_equal(json_integer_value(json_object_get(s, "n")),
				 4);
		assert_near(num(s, "mean"), 19.95, 1e-9);
		assert_near(num(s, "ci95_lo"), 19.74, 0.005);
		assert_near(num(s, "ci95_hi"), 20.16, 0.005);
	}
	/* the value is kept, moved aside */
	assert_near(json_number_value(json_object_get(json_object_get(
		json_array_get(json_object_get(res, "runs"), 0),
		"excluded_outliers"), "rusage.elapsed_s")), 27.5, 1e-9);
	assert_round_trip(res);
	json_decref(res);
}

/* The report text of res (malloc'd), notes unwrapped. */
static char *render_text(json_t *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report_opts ro;

	assert_non_null(f);
	report_opts_init(&ro);
	ro.show_cpu_table = 0;
	assert_int_equal(render_results(f, res, "text", &ro), 0);
	fclose(f);
	/* notes wrap at 80 columns: join their continuation lines */
	{
		char *r = buf, *w = buf;

		while (*r) {
			if (!strncmp(r, "\n    ", 5)) {
				*w++ = ' ';
				r += 5;
			} else {
				*w++ = *r++;
			}
		}
		*w = '\0';
	}
	return buf;
}

/* A campaign of one configuration (issue 13): B28's warm-up and B26's
 * drift are shown although nothing is compared, and --exclude-outliers
 * lists what it left out. */
static void test_single_configuration_checks(void **state)
{
	double x[MAXV], y[MAXV];
	json_t *res = model("only"), *e, *d;
	size_t n, ny;
	char *txt;
	struct kb_compare_opts o;

	(void)state;
	n = load_csv("tests/data/stats/B28.csv", 0, NULL, x);
	add_runs(res, "only", "read.iops", x, n);
	kb_compare_opts_init(&o);
	assert_int_equal(tree_analyse(res, &o), 0);
	assert_int_equal(json_array_size(json_object_get(res, "comparisons")),
			 0);
	e = json_array_get(json_object_get(res, "sample_checks"), 0);
	assert_non_null(e);
	assert_string_equal(json_string_value(json_object_get(e, "metric")),
			    "read.iops");
	assert_int_equal(json_integer_value(json_object_get(e,
			 "warmup_suspect")), 2);
	assert_int_equal(json_array_size(json_object_get(e, "outliers")), 2);
	txt = render_text(res);
	assert_non_null(strstr(txt, "warning: the first 2 timed run(s) of only "
			       "are outliers in read.iops: warm-up too "));
	assert_non_null(strstr(txt, "read.iops iteration 1, 2"));
	assert_null(strstr(txt, "left out of the statistics"));
	free(txt);

	/* --exclude-outliers: what was left out, with its value */
	o.exclude_outliers = 1;
	assert_int_equal(tree_analyse(res, &o), 0);
	txt = render_text(res);
	assert_non_null(strstr(txt, "left out of the statistics"));
	assert_non_null(strstr(txt, "iteration 1 (27.5)"));
	assert_non_null(strstr(txt, "iteration 2 (21.9)"));
	free(txt);
	assert_round_trip(res);
	json_decref(res);

	/* B26's A runs alone drift by more than the minimum effect */
	ny = load_csv("tests/data/stats/B26.csv", 1, "kernel-A", y);
	assert_true(ny >= 3);
	res = model("A");
	add_runs(res, "A", "read.iops", y, ny);
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = json_array_get(json_object_get(res, "sample_checks"), 0);
	d = json_object_get(e, "drift");
	assert_true(json_is_true(json_object_get(d, "warn")));
	txt = render_text(res);
	assert_non_null(strstr(txt, "warning: read.iops of A drifts"));
	free(txt);
	assert_round_trip(res);
	json_decref(res);
}

/* The report's note on a baseline that drifts says what the drift means
 * for the analysis that was used: paired by round (order = interleave),
 * a drift shared by a round's configurations cancels; unpaired, the
 * verdict may be inconclusive, and only order = block is told to
 * interleave (the demo's interleaved campaign was told to "use order =
 * interleave"). */
static void test_drift_note_by_analysis(void **state)
{
	static const char *const orders[] = { "interleave", "block", NULL };
	size_t k;

	(void)state;
	for (k = 0; k < 3; k++) {
		json_t *res = model("A"), *e;
		double a[8], b[8];
		size_t i;
		char *txt;

		/* both fall 2% a round; B 0.1% above A, a little noise */
		for (i = 0; i < 8; i++) {
			a[i] = 1000.0 * (1.0 - 0.02 * (double)i) *
			       (1.0 + ((double)(i % 3) - 1.0) * 0.002);
			b[i] = a[i] * (1.001 + ((i % 2) ? 0.002 : -0.002));
		}
		if (orders[k])
			json_object_set_new(json_object_get(res, "campaign"),
					    "order", json_string(orders[k]));
		add_runs(res, "A", "read.iops", a, 8);
		add_runs(res, "B", "read.iops", b, 8);
		/* the run order: round by round, A then B */
		json_array_foreach(json_object_get(res, "runs"), i, e)
			json_object_set_new(e, "order", json_integer(
				(json_int_t)(2 * (i % 8) + i / 8)));
		assert_int_equal(tree_analyse(res, NULL), 0);
		e = find_cmp(res, "B", "read.iops");
		assert_non_null(e);
		assert_true(json_is_true(json_object_get(json_object_get(e,
			"drift_baseline"), "warn")));
		txt = render_text(res);
		assert_non_null(strstr(txt, "read.iops of baseline A drifts"));
		if (k == 0) {
			assert_string_equal(json_string_value(json_object_get(
				e, "analysis")), "paired");
			assert_non_null(strstr(txt, "paired by round: a drift "
					       "shared by the round's "
					       "configurations cancels"));
			assert_null(strstr(txt, "may be inconclusive"));
		} else {
			assert_string_not_equal(json_string_value(
				json_object_get(e, "analysis")), "paired");
			assert_non_null(strstr(txt, "may be inconclusive"));
			if (k == 1)
				assert_non_null(strstr(txt, "use order = "
						       "interleave"));
			else
				assert_non_null(strstr(txt, "find what "
						       "drifts"));
		}
		free(txt);
		json_decref(res);
	}
}

/* n normal values with mean mu and sd = cv% of mu. */
static void normal(gsl_rng *r, double mu, double cv, double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = mu + gsl_ran_gaussian(r, mu * cv / 100.0);
}

static void test_synthetic_regression_and_aa(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double a[8], b[8], c[8], l[8], lb[8];
	size_t seed, false_pos = 0, inconclusive = 0, missed = 0, i;
	size_t trials = 200;
	const char *v;
	json_t *res, *runs;

	(void)state;
	for (seed = 1; seed <= trials; seed++) {
		gsl_rng_set(r, seed);
		/* A/A: two samples of one distribution (CV 2%, n = 5) */
		res = model("A");
		normal(r, 100000, 2.0, a, 5);
		normal(r, 100000, 2.0, b, 5);
		add_runs(res, "A", "read.iops", a, 5);
		add_runs(res, "A2", "read.iops", b, 5);
		assert_int_equal(tree_analyse(res, NULL), 0);
		v = verdict(find_cmp(res, "A2", "read.iops"));
		if (!strcmp(v, "improvement") || !strcmp(v, "regression"))
			false_pos++;
		else if (!strcmp(v, "inconclusive"))
			inconclusive++;
		else if (strcmp(v, "underpowered"))	/* MDE vs max_mde */
			assert_string_equal(v, "no significant difference");
		assert_round_trip(res);
		json_decref(res);

		/* B 10% slower: 10% fewer IOPS, 10% higher p99 latency */
		res = model("A");
		normal(r, 90000, 2.0, c, 5);
		normal(r, 50000, 2.0, lb, 5);
		normal(r, 55000, 2.0, l, 5);
		add_runs(res, "A", "read.iops", a, 5);
		add_runs(res, "slow", "read.iops", c, 5);
		runs = json_object_get(res, "runs");
		for (i = 0; i < 5; i++) {
			json_object_set_new(json_object_get(json_array_get(runs,
				i), "metrics"), "read.clat_p99_ns",
				json_real(lb[i]));
			json_object_set_new(json_object_get(json_array_get(runs,
				5 + i), "metrics"), "read.clat_p99_ns",
				json_real(l[i]));
		}
		assert_int_equal(tree_analyse(res, NULL), 0);
		if (strcmp(verdict(find_cmp(res, "slow", "read.iops")),
			   "regression"))
			missed++;
		/* higher latency: lower is better, so also a regression */
		if (strcmp(verdict(find_cmp(res, "slow", "read.clat_p99_ns")),
			   "regression"))
			missed++;
		assert_round_trip(res);
		json_decref(res);
	}
	/* nominal false-positive rate 5% (alpha); allow for the binomial
	 * spread of 200 trials (mean 10, sd 3.1) */
	if (false_pos > 16)
		fail_msg("A/A called significant in %zu of %zu trials",
			 false_pos, trials);
	if (inconclusive > 20)
		fail_msg("A/A inconclusive (drift) in %zu of %zu trials",
			 inconclusive, trials);
	assert_int_equal(missed, 0);
	gsl_rng_free(r);
}

static void test_min_effect_and_alpha(void **state)
{
	double a[] = { 1000, 1001, 999, 1000.5, 999.5 };
	double b[] = { 985, 986, 984, 985.5, 984.5 };	/* -1.5% */
	json_t *res, *e;
	struct kb_compare_opts o;

	(void)state;
	res = model("A");
	add_runs(res, "A", "read.iops", a, 5);
	add_runs(res, "B", "read.iops", b, 5);
	assert_int_equal(tree_analyse(res, NULL), 0);
	assert_string_equal(verdict(find_cmp(res, "B", "read.iops")),
			    "regression");
	/* per-metric minimum effect from kernels.conf (campaign) */
	json_object_set_new(json_object_get(res, "campaign"),
			    "min_effect_by_metric",
			    json_pack("{s:f}", "read.iops", 2.0));
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = find_cmp(res, "B", "read.iops");
	assert_string_equal(verdict(e), "no significant difference");
	assert_near(num(e, "min_effect_pct"), 2.0, 0);
	/* the command line wins */
	kb_compare_opts_init(&o);
	o.min_effect_pct = 0.5;
	assert_int_equal(tree_analyse(res, &o), 0);
	assert_string_equal(verdict(find_cmp(res, "B", "read.iops")),
			    "regression");
	o.alpha = 1e-12;
	assert_int_equal(tree_analyse(res, &o), 0);
	assert_string_equal(verdict(find_cmp(res, "B", "read.iops")),
			    "no significant difference");
	assert_round_trip(res);
	json_decref(res);
}

/* The typed analysis (results/analysis.h) that stats fills is what its
 * serializer writes: the rows, read back from the JSON, agree member by
 * member; kb_mde_text() says the same from either; a later
 * --min-effect METRIC=PCT replaces an earlier one. */
static void test_typed_analysis(void **state)
{
	double a[] = { 1000, 1001, 999, 1000.5, 999.5 };
	double b[] = { 985, 986, 984, 985.5, 984.5 };	/* -1.5% */
	json_t *res = model("A"), *e;
	struct kb_compare_opts o;
	struct kb_rmodel *m;
	struct kb_comparison_row back;
	const struct kb_comparison_row *c;
	const struct kb_summary_row *s;
	char *t1, *t2;
	size_t i;

	(void)state;
	add_runs(res, "A", "read.iops", a, 5);
	add_runs(res, "B", "read.iops", b, 5);
	kb_compare_opts_init(&o);
	assert_int_equal(kb_compare_parse_opt(&o, 'E', "read.iops=9"), 0);
	assert_int_equal(kb_compare_parse_opt(&o, 'E', "read.iops=0.5"), 0);
	assert_int_equal(o.min_effect_by_metric.n, 1);
	m = kb_rmodel__new(res);
	assert_non_null(m);
	assert_true(stats_mark_outliers_in(m, 0) >= 0);
	assert_int_equal(stats_fill_summaries_in(m), 0);
	assert_int_equal(stats_fill_comparisons_in(m, &o, NULL, 0), 0);

	assert_int_equal(m->analysis.nsummaries, 2);
	assert_int_equal(json_array_size(json_object_get(res, "summaries")),
			 2);
	s = &m->analysis.summaries[1];
	assert_string_equal(s->configuration, "B");
	assert_near(s->mean, 985.0, 1e-9);
	assert_near(num(json_array_get(json_object_get(res, "summaries"), 1),
			"mean"), s->mean, 0);
	assert_near(s->diff_pct, -1.5, 1e-3);

	assert_int_equal(m->analysis.ncomparisons, 1);
	c = &m->analysis.comparisons[0];
	assert_string_equal(c->verdict, "regression");
	assert_near(c->min_effect_pct, 0.5, 0);
	assert_int_equal(m->analysis.settings.family_size, 1);
	e = find_cmp(res, "B", "read.iops");
	assert_string_equal(verdict(e), c->verdict);
	assert_true(json_is_null(json_object_get(e, "n_pairs")));
	kb_comparison_row__from_json(e, &back);
	assert_string_equal(back.analysis, c->analysis);
	assert_string_equal(back.reason, c->reason);
	assert_int_equal(back.n, c->n);
	assert_int_equal(back.n_pairs, -1);
	assert_near(back.p_adjusted, c->p_adjusted, 0);
	assert_near(back.change_pct, c->change_pct, 0);
	assert_near(back.mde_pct, c->mde_pct, 0);
	t1 = kb_mde_text(c);
	t2 = kb_mde_text(&back);
	assert_non_null(t1);
	assert_string_equal(t1, t2);
	assert_non_null(strstr(t1, "Welch on ln values"));
	free(t1);
	free(t2);
	kb_comparison_row__clear(&back);
	for (i = 0; i < m->analysis.ncomparisons; i++)
		assert_true(isnan(m->analysis.comparisons[i].welch_t) ||
			    json_is_number(json_object_get(e, "welch_t")));
	kb_rmodel__delete(m);
	kb_compare_opts_free(&o);
	assert_int_equal(o.min_effect_by_metric.n, 0);
	assert_round_trip(res);
	json_decref(res);
}

/* Welch on the values (a sample with zeros has no logs): a side whose
 * values are all 0 has no CV (0 / 0); the MDE's text says n/a, never
 * "nan%" (a new-user trial: cpu.steal_pct) */
static void test_mde_text_cv_of_zeros(void **state)
{
	struct kb_comparison_row r;
	char *t;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.analysis = "welch";
	r.mde_pct = 416.09;
	r.alpha = 0.05;
	r.n = 4;
	r.n_baseline = 4;
	r.cv_baseline_pct = 200.0;
	r.cv_pct = NAN;
	t = kb_mde_text(&r);
	assert_non_null(t);
	assert_null(strstr(t, "nan"));
	assert_non_null(strstr(t, "CV 200.00% and n/a (mean 0)"));
	free(t);
}

/* max_mde: a "no significant difference" that could not have seen a
 * change of max_mde is "underpowered", with its reason; per metric from
 * kernels.conf (the campaign) and the command line, which wins. */
static void test_max_mde_underpowered(void **state)
{
	/* CV about 5%: unpaired n=5 MDE about 10% */
	double a[] = { 1000, 1060, 950, 1040, 960 };
	double b[] = { 1010, 950, 1050, 970, 1020 };
	/* CV 0.07%: MDE far below 5% */
	double qa[] = { 1000, 1001, 999, 1000.5, 999.5 };
	double qb[] = { 1000.2, 1000.8, 999.1, 1000.3, 999.6 };
	struct kb_compare_opts o;
	json_t *res, *e;

	(void)state;
	res = model("A");
	add_runs(res, "A", "read.iops", a, 5);
	add_runs(res, "B", "read.iops", b, 5);
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = find_cmp(res, "B", "read.iops");
	assert_true(num(e, "mde_pct") > 5.0);
	assert_near(num(e, "max_mde_pct"), 5.0, 0);
	assert_string_equal(verdict(e), "underpowered");
	assert_non_null(strstr(json_string_value(json_object_get(e, "reason")),
			       "max_mde 5%"));
	/* kernels.conf max_mde read.iops = 50 */
	json_object_set_new(json_object_get(res, "campaign"),
			    "max_mde_by_metric",
			    json_pack("{s:f}", "read.iops", 50.0));
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = find_cmp(res, "B", "read.iops");
	assert_string_equal(verdict(e), "no significant difference");
	assert_near(num(e, "max_mde_pct"), 50.0, 0);
	/* the command line wins: --max-mde read.iops=1 */
	kb_compare_opts_init(&o);
	assert_int_equal(kb_compare_parse_opt(&o, 'M', "read.iops=1%"), 0);
	assert_int_equal(tree_analyse(res, &o), 0);
	assert_string_equal(verdict(find_cmp(res, "B", "read.iops")),
			    "underpowered");
	assert_int_equal(kb_compare_parse_opt(&o, 'M', "-1"), -EINVAL);
	assert_int_equal(kb_compare_parse_opt(&o, 'M', "no.such=3"), -EINVAL);
	kb_compare_opts_free(&o);
	assert_round_trip(res);
	json_decref(res);

	/* a quiet campaign: no difference, and it could have seen one */
	res = model("A");
	add_runs(res, "A", "read.iops", qa, 5);
	add_runs(res, "B", "read.iops", qb, 5);
	assert_int_equal(tree_analyse(res, NULL), 0);
	e = find_cmp(res, "B", "read.iops");
	assert_true(num(e, "mde_pct") < 1.0);
	assert_string_equal(verdict(e), "no significant difference");
	/* a significant change is never underpowered */
	kb_compare_opts_init(&o);
	o.max_mde_pct = 0.0;
	assert_int_equal(tree_analyse(res, &o), 0);
	assert_string_equal(verdict(find_cmp(res, "B", "read.iops")),
			    "underpowered");
	assert_round_trip(res);
	json_decref(res);
	res = model("A");
	{
		double c[] = { 985, 986, 984, 985.5, 984.5 };

		add_runs(res, "A", "read.iops", qa, 5);
		add_runs(res, "B", "read.iops", c, 5);
	}
	assert_int_equal(tree_analyse(res, &o), 0);
	assert_string_equal(verdict(find_cmp(res, "B", "read.iops")),
			    "regression");
	kb_compare_opts_free(&o);
	assert_round_trip(res);
	json_decref(res);
}

static void test_bh_in_model(void **state)
{
	double a[] = { 100, 101, 99, 100.5, 99.5 };
	double b[] = { 98.5, 99.5, 97.5, 99.0, 98.0 };
	json_t *res = model("A"), *e;
	double p[3], q[3];
	const char *cfgs[] = { "B", "C", "D" };
	size_t i;

	(void)state;
	add_runs(res, "A", "read.iops", a, 5);
	for (i = 0; i < 3; i++) {
		double v[5];

		for (size_t k = 0; k < 5; k++)
			v[k] = b[k] + (double)i * 0.4;
		add_runs(res, cfgs[i], "read.iops", v, 5);
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	for (i = 0; i < 3; i++)
		p[i] = num(find_cmp(res, cfgs[i], "read.iops"), "welch_p");
	assert_int_equal(kb_bh_adjust(p, 3, q), 3);
	for (i = 0; i < 3; i++) {
		e = find_cmp(res, cfgs[i], "read.iops");
		assert_near(num(e, "p_adjusted"), q[i], 1e-15);
		assert_true(num(e, "p_adjusted") >= p[i]);
	}
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		res, "comparison_settings"), "family_size")), 3);
	assert_round_trip(res);
	json_decref(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_b24),
		cmocka_unit_test(test_welch_ties_and_b26),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_mad_b28),
		cmocka_unit_test(test_drift_b26),
		cmocka_unit_test(test_mde),
		cmocka_unit_test(test_model_b24),
		cmocka_unit_test(test_model_b29),
		cmocka_unit_test(test_model_b26_drift),
		cmocka_unit_test(test_drift_note_by_analysis),
		cmocka_unit_test(test_model_b28_warmup),
		cmocka_unit_test(test_single_configuration_checks),
		cmocka_unit_test(test_synthetic_regression_and_aa),
		cmocka_unit_test(test_min_effect_and_alpha),
		cmocka_unit_test(test_bh_in_model),
		cmocka_unit_test(test_max_mde_underpowered),
		cmocka_unit_test(test_accel_mismatch),
		cmocka_unit_test(test_host_metric_direction),
		cmocka_unit_test(test_typed_analysis),
		cmocka_unit_test(test_mde_text_cv_of_zeros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
