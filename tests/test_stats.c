/* tests/test_stats.c - stats/summary.c against the B24 and B29 cases
 * (tests/data/stats/, see SOURCES there) and tree_fill_summaries() on a
 * small results model.  Runs from the repository root. */
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

#include <jansson.h>

#include "lib/err.h"
#include "stats/summary.h"
#include "tests/stats_tree.h"

#define MAXV 64

/* Read the values of one variant from a "variant,run,kiops" CSV. */
static size_t load_csv(const char *path, const char *variant, double *v)
{
	char line[256], name[128];
	FILE *f = fopen(path, "r");
	size_t n = 0;
	double x;
	int run;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127[^,],%d,%lf", name, &run, &x) != 3)
			continue;	/* header */
		if (!strcmp(name, variant) && n < MAXV)
			v[n++] = x;
	}
	fclose(f);
	return n;
}

/* |a - b| <= tol, with a readable failure. */
#define assert_near(a, b, tol) do {					\
	double _a = (a), _b = (b);					\
	if (!(fabs(_a - _b) <= (tol)))					\
		fail_msg("%s = %.6f, expected %.6f (+-%g)", #a, _a, _b,	\
			 (double)(tol));				\
} while (0)

static void test_b24(void **state)
{
	struct kb_summary s;
	double v[MAXV];
	size_t n;

	(void)state;
	n = load_csv("tests/data/stats/B24.csv", "kernel-A", v);
	assert_int_equal(n, 5);
	assert_int_equal(kb_summarize(v, n, &s), 0);
	assert_int_equal(s.n, 5);
	assert_true(s.has_sd);
	assert_near(s.mean, 407.70, 0.005);
	assert_near(s.sd, 8.913, 0.0005);
	assert_near(s.ci95_lo, 396.63, 0.005);
	assert_near(s.ci95_hi, 418.77, 0.005);
	assert_near(s.min, 398.7, 1e-9);
	assert_near(s.max, 420.8, 1e-9);
	assert_near(s.median, 405.1, 1e-9);
	assert_near(s.cv_pct, 8.913 / 407.70 * 100, 0.001);

	n = load_csv("tests/data/stats/B24.csv", "kernel-B", v);
	assert_int_equal(n, 5);
	assert_int_equal(kb_summarize(v, n, &s), 0);
	assert_near(s.mean, 411.38, 0.005);
	assert_near(s.sd, 10.968, 0.0005);
	assert_near(s.ci95_lo, 397.76, 0.005);
	assert_near(s.ci95_hi, 425.00, 0.005);
}

static void test_b29(void **state)
{
	struct kb_summary s;
	double v[MAXV];
	size_t n;

	(void)state;
	n = load_csv("tests/data/stats/B29.csv", "kernel-A", v);
	assert_int_equal(n, 1);
	assert_int_equal(kb_summarize(v, n, &s), 0);
	assert_int_equal(s.n, 1);
	assert_false(s.has_sd);
	assert_near(s.mean, 412.30, 1e-9);
	assert_near(s.median, 412.30, 1e-9);
	/* undefined, not 0: never a CI [412.30, 412.30] */
	assert_true(isnan(s.sd));
	assert_true(isnan(s.ci95_lo));
	assert_true(isnan(s.ci95_hi));

	n = load_csv("tests/data/stats/B29.csv", "kernel-B", v);
	assert_int_equal(n, 3);
	assert_int_equal(kb_summarize(v, n, &s), 0);
	assert_true(s.has_sd);
	assert_near(s.mean, 409.00, 1e-9);
	assert_near(s.sd, 4.000, 1e-9);		/* n - 1, not 3.266 */
	assert_near(s.ci95_lo, 399.06, 0.005);
	assert_near(s.ci95_hi, 418.94, 0.005);
	assert_near(s.median, 409.0, 1e-9);
}

static void test_summarize_errors(void **state)
{
	double v[2] = { 1.0, NAN }, even[4] = { 4, 1, 3, 2 };
	struct kb_summary s;

	(void)state;
	assert_int_equal(kb_summarize(NULL, 1, &s), -EINVAL);
	assert_int_equal(kb_summarize(v, 0, &s), -EINVAL);
	assert_int_equal(kb_summarize(v, 2, &s), -EINVAL);
	v[1] = INFINITY;
	assert_int_equal(kb_summarize(v, 2, &s), -EINVAL);
	/* even n: median is the mean of the two middle values */
	assert_int_equal(kb_summarize(even, 4, &s), 0);
	assert_near(s.median, 2.5, 1e-12);
	/* a zero mean has no coefficient of variation */
	v[0] = -1.0;
	v[1] = 1.0;
	assert_int_equal(kb_summarize(v, 2, &s), 0);
	assert_true(isnan(s.cv_pct));
}

/* A mean of values never below 0 has a CI never below 0 (a mean
 * latency at n = 2 with a CV over 11%: t(0.975, 1) = 12.71); the "+-" of
 * the tables stays the t interval's half-width.  Values below 0 keep the
 * plain interval. */
static void test_ci_cut_at_zero(void **state)
{
	double lat_ns[2] = { 1000.0, 1300.0 }, signed_v[2] = { -100.0, 200.0 };
	double half = 12.7062047 * 212.132034 / sqrt(2.0);
	struct kb_summary s;

	(void)state;
	assert_int_equal(kb_summarize(lat_ns, 2, &s), 0);
	assert_near(s.mean, 1150.0, 1e-9);
	assert_near(s.ci95_lo, 0.0, 0.0);
	assert_near(s.ci95_hi, 1150.0 + half, 0.01);
	assert_near(kb_ci95_half(s.mean, s.ci95_lo, s.ci95_hi, 0), half, 0.01);
	/* a narrow interval is not touched */
	lat_ns[1] = 1010.0;
	assert_int_equal(kb_summarize(lat_ns, 2, &s), 0);
	assert_true(s.ci95_lo > 900.0);
	assert_near(kb_ci95_half(s.mean, s.ci95_lo, s.ci95_hi, 0),
		    (s.ci95_hi - s.ci95_lo) / 2, 1e-6);
	assert_int_equal(kb_summarize(signed_v, 2, &s), 0);
	assert_true(s.ci95_lo < -1000.0);
	/* the fixed-work (inverted, asymmetric) interval: half its width */
	assert_near(kb_ci95_half(10.0, 4.0, 20.0, 1), 8.0, 1e-12);
	assert_true(isnan(kb_ci95_half(10.0, 4.0, NAN, 1)));
}

/* A small campaign: baseline "b,NM=0" (3 ok runs, a warm-up and a failed
 * run with wild values), "n,NM=0" (1 ok run), "x,NM=0" (2 ok runs, no
 * read.iops at all but a null one and an unknown metric). */
static const char *small_results =
	"{\"schema_version\": 1,"
	" \"campaign\": {\"name\": \"t\", \"baseline\": \"b,NM=0\","
	"   \"jobs\": [\"randread-4k\"], \"iterations\": 3, \"warmup\": 1},"
	" \"configurations\": ["
	"   {\"id\": \"n,NM=0\", \"variant\": \"n\", \"tunables\": {\"NM\": \"0\"}},"
	"   {\"id\": \"b,NM=0\", \"variant\": \"b\", \"tunables\": {\"NM\": \"0\"}},"
	"   {\"id\": \"x,NM=0\", \"variant\": \"x\", \"tunables\": {\"NM\": \"0\"}}],"
	" \"runs\": ["
	"  {\"configuration\": \"b,NM=0\", \"job\": \"randread-4k\", \"iteration\": 0,"
	"   \"warmup\": true, \"status\": \"ok\", \"reason\": null,"
	"   \"metrics\": {\"read.iops\": 1.0, \"disk.ios\": 5}},"
	"  {\"configuration\": \"b,NM=0\", \"job\": \"randread-4k\", \"iteration\": 1,"
	"   \"warmup\": false, \"status\": \"ok\", \"reason\": null,"
	"   \"metrics\": {\"read.iops\": 100.0, \"disk.ios\": 1000}},"
	"  {\"configuration\": \"b,NM=0\", \"job\": \"randread-4k\", \"iteration\": 2,"
	"   \"warmup\": false, \"status\": \"failed\", \"reason\": \"fio exited 1\","
	"   \"metrics\": {\"read.iops\": 99999.0, \"write.iops\": 7.0}},"
	"  {\"configuration\": \"b,NM=0\", \"job\": \"randread-4k\", \"iteration\": 3,"
	"   \"warmup\": false, \"status\": \"ok\", \"reason\": null,"
	"   \"metrics\": {\"read.iops\": 110.0, \"disk.ios\": 1100}},"
	"  {\"configuration\": \"b,NM=0\", \"job\": \"randread-4k\", \"iteration\": 4,"
	"   \"warmup\": false, \"status\": \"ok\", \"reason\": null,"
	"   \"metrics\": {\"read.iops\": 120.0, \"disk.ios\": 1200}},"
	"  {\"configuration\": \"n,NM=0\", \"job\": \"randread-4k\", \"iteration\": 1,"
	"   \"warmup\": false, \"status\": \"ok\", \"reason\": null,"
	"   \"metrics\": {\"read.iops\": 121.0}},"
	"  {\"configuration\": \"x,NM=0\", \"job\": \"randread-4k\", \"iteration\": 1,"
	"   \"warmup\": false, \"status\": \"ok\", \"reason\": null,"
	"   \"metrics\": {\"read.iops\": null, \"disk.ios\": 900, \"perf.zz\": 2}},"
	"  {\"configuration\": \"x,NM=0\", \"job\": \"randread-4k\", \"iteration\": 2,"
	"   \"warmup\": false, \"status\": \"ok\", \"reason\": null,"
	"   \"metrics\": {\"disk.ios\": 1100, \"perf.zz\": 4}}],"
	" \"summaries\": []}";

static json_t *find_summary(json_t *res, const char *cfg, const char *metric)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(res, "summaries"), i, e)
		if (!strcmp(json_string_value(json_object_get(e,
					      "configuration")), cfg) &&
		    !strcmp(json_string_value(json_object_get(e, "metric")),
			    metric))
			return e;
	return NULL;
}

static double num(json_t *e, const char *key)
{
	json_t *v = json_object_get(e, key);

	assert_true(json_is_number(v));
	return json_number_value(v);
}

static void test_fill_summaries(void **state)
{
	json_error_t jerr;
	json_t *res, *e;
	char *dump;

	(void)state;
	res = json_loads(small_results, 0, &jerr);
	if (!res)
		fail_msg("test JSON: %s at %d:%d", jerr.text, jerr.line,
			 jerr.column);
	assert_int_equal(tree_fill_summaries(res), 0);

	/* baseline: warm-up (1.0) and failed run (99999) left out */
	e = find_summary(res, "b,NM=0", "read.iops");
	assert_non_null(e);
	assert_int_equal(num(e, "n"), 3);
	assert_near(num(e, "mean"), 110.0, 1e-9);
	assert_near(num(e, "sd"), 10.0, 1e-9);
	assert_near(num(e, "min"), 100.0, 1e-9);
	assert_near(num(e, "max"), 120.0, 1e-9);
	assert_string_equal(json_string_value(json_object_get(e, "unit")),
			    "IOPS");
	assert_string_equal(json_string_value(json_object_get(e,
				"direction")), "higher");
	assert_true(json_is_null(json_object_get(e, "diff_pct")));
	assert_true(json_is_null(json_object_get(e, "note")));
	/* write.iops only came from the failed run: no summary at all */
	assert_null(find_summary(res, "b,NM=0", "write.iops"));

	/* n = 1: nulls (never 0), a note, but a diff against the baseline */
	e = find_summary(res, "n,NM=0", "read.iops");
	assert_non_null(e);
	assert_int_equal(num(e, "n"), 1);
	assert_true(json_is_null(json_object_get(e, "sd")));
	assert_true(json_is_null(json_object_get(e, "cv_pct")));
	assert_true(json_is_null(json_object_get(e, "ci95_lo")));
	assert_true(json_is_null(json_object_get(e, "ci95_hi")));
	assert_string_equal(json_string_value(json_object_get(e, "note")),
			    "n=1: no variance estimate");
	assert_near(num(e, "diff_pct"), 10.0, 1e-9);
	/* n lacks disk.ios: no summary made of zeros */
	assert_null(find_summary(res, "n,NM=0", "disk.ios"));

	/* x: read.iops was null (not measured) -> no summary */
	assert_null(find_summary(res, "x,NM=0", "read.iops"));
	e = find_summary(res, "x,NM=0", "disk.ios");
	assert_non_null(e);
	assert_near(num(e, "mean"), 1000.0, 1e-9);
	assert_near(num(e, "diff_pct"), (1000.0 - 1100.0) / 1100.0 * 100,
		    1e-9);
	assert_string_equal(json_string_value(json_object_get(e, "unit")),
			    "count");
	/* unknown metric: unit "", neutral; baseline lacks it -> null diff */
	e = find_summary(res, "x,NM=0", "perf.zz");
	assert_non_null(e);
	assert_string_equal(json_string_value(json_object_get(e, "unit")), "");
	assert_string_equal(json_string_value(json_object_get(e,
				"direction")), "neutral");
	assert_true(json_is_null(json_object_get(e, "diff_pct")));

	/* order: configurations order, known metrics before unknown */
	assert_int_equal(json_array_size(json_object_get(res, "summaries")),
			 5);
	e = json_array_get(json_object_get(res, "summaries"), 0);
	assert_string_equal(json_string_value(json_object_get(e,
				"configuration")), "n,NM=0");

	/* no NaN/Inf: the dump must parse back */
	dump = json_dumps(res, JSON_INDENT(2) | JSON_SORT_KEYS);
	assert_non_null(dump);
	assert_null(strstr(dump, "nan"));
	assert_null(strstr(dump, "inf"));
	free(dump);

	/* refilling replaces, never appends */
	assert_int_equal(tree_fill_summaries(res), 0);
	assert_int_equal(json_array_size(json_object_get(res, "summaries")),
			 5);
	json_decref(res);
}

static void test_default_baseline(void **state)
{
	json_t *res, *e;

	(void)state;
	/* no campaign.baseline: the first configuration ("n,NM=0") */
	res = json_loads(small_results, 0, NULL);
	assert_non_null(res);
	json_object_del(json_object_get(res, "campaign"), "baseline");
	assert_int_equal(tree_fill_summaries(res), 0);
	e = find_summary(res, "n,NM=0", "read.iops");
	assert_true(json_is_null(json_object_get(e, "diff_pct")));
	e = find_summary(res, "b,NM=0", "read.iops");
	assert_near(num(e, "diff_pct"), (110.0 - 121.0) / 121.0 * 100, 1e-9);
	json_decref(res);

	/* no runs array: an error, not a crash */
	res = json_object();
	assert_int_equal(tree_fill_summaries(res), -EINVAL);
	json_decref(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b24),
		cmocka_unit_test(test_b29),
		cmocka_unit_test(test_summarize_errors),
		cmocka_unit_test(test_ci_cut_at_zero),
		cmocka_unit_test(test_fill_summaries),
		cmocka_unit_test(test_default_baseline),
	};

	kb_quiet = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
