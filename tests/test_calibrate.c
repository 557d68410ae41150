/* tests/test_calibrate.c - `kbench calibrate` (issue 13): the A/A
 * statistics (stats/calibrate.h), calibration.json (results/
 * calibration.h), the A/A kernels.conf and its use by iterations = auto
 * (runner/calibrate.h).  The campaign itself runs in tests/e2e_calibrate.sh.
 * Runs from the repository root (the job files of profiles/). */
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
#include <unistd.h>

#include "tests/capture.h"
#include <jansson.h>
#include "tests/run_kbench.h"
#include "lib/file.h"
#include "parsers/json_file.h"
#include "parsers/kconf.h"
#include "results/calibration.h"
#include "runner/calibrate.h"
#include "runner/plan.h"
#include "stats/calibrate.h"
#include "stats/paired.h"

#define N 12

static struct kb_calib_metric metric_of(const double *a, const double *b,
					size_t n)
{
	struct kb_calib_metric m;

	memset(&m, 0, sizeof(m));
	m.job = kb_xstrdup("randread-4k");
	m.metric = kb_xstrdup("read.iops");
	m.n = n;
	m.copy1 = kb_xcalloc(n, sizeof(double));
	m.copy2 = kb_xcalloc(n, sizeof(double));
	memcpy(m.copy1, a, n * sizeof(double));
	memcpy(m.copy2, b, n * sizeof(double));
	m.min_effect_pct = 1.0;
	m.max_mde_pct = 5.0;
	return m;
}

/* a calibration of one metric, calibrated: kb_calibrate()'s count */
static size_t calibrate_one(struct kb_calibration *cal, const double *a,
			    const double *b, size_t n)
{
	memset(cal, 0, sizeof(*cal));
	cal->alpha = 0.05;
	cal->nm = 1;
	cal->m = kb_xcalloc(1, sizeof(*cal->m));
	cal->m[0] = metric_of(a, b, n);
	return kb_calibrate(cal);
}

/* the copies share each round's disturbance: positively correlated,
 * pairing fits and needs fewer rounds than Welch would */
static void test_shared_round_effect_pairs(void **state)
{
	const double round[N] = { 0.10, -0.05, 0.02, -0.12, 0.07, 0.0,
				  -0.03, 0.09, -0.08, 0.04, -0.01, 0.06 };
	const double own[N] = { 0.004, -0.006, 0.001, 0.005, -0.002, 0.003,
				-0.004, 0.002, 0.006, -0.005, 0.0, -0.001 };
	double a[N], b[N], d[N], mean = 0.0, var = 0.0;
	struct kb_calibration cal;
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		a[i] = 400000.0 * exp(round[i] + own[i]);
		b[i] = 400000.0 * exp(round[i] - own[(i + 5) % N]);
		d[i] = log(b[i] / a[i]);
		mean += d[i] / N;
	}
	for (i = 0; i < N; i++)
		var += (d[i] - mean) * (d[i] - mean) / (N - 1);
	assert_int_equal(calibrate_one(&cal, a, b, N), 0);
	assert_true(cal.m[0].corr > 0.9);
	assert_true(cal.m[0].corr_p > 0.5);
	assert_string_equal(cal.m[0].analysis, "paired");
	assert_string_equal(cal.analysis, "paired");
	assert_true(fabs(cal.m[0].sd_log_ratio_pct - sqrt(var) * 100.0) <
		    1e-9);
	/* the rounds needed: the MDE of n rounds is within max_mde, that
	 * of n - 1 is not */
	assert_true(cal.m[0].rounds_max_mde >= 2);
	assert_true(kb_mde_paired_pct(cal.m[0].rounds_max_mde, sqrt(var),
				      0.05) <= 5.0);
	if (cal.m[0].rounds_max_mde > 2)
		assert_true(kb_mde_paired_pct(cal.m[0].rounds_max_mde - 1,
					      sqrt(var), 0.05) > 5.0);
	assert_true(cal.m[0].rounds_min_effect > cal.m[0].rounds_max_mde);
	assert_int_equal(cal.rounds_max_mde, cal.m[0].rounds_max_mde);
	/* CV of a copy: sd / mean, independently */
	{
		double s = 0.0, s2 = 0.0;

		for (i = 0; i < N; i++)
			s += a[i];
		s /= N;
		for (i = 0; i < N; i++)
			s2 += (a[i] - s) * (a[i] - s) / (N - 1);
		assert_true(fabs(cal.m[0].cv_pct[0] - sqrt(s2) / s * 100.0) <
			    1e-9);
	}
	results_calibration_free(&cal);
}

/* neighbouring runs anti-correlated (one copy fast when the other is
 * slow): the differences vary more than the two copies together, Welch */
static void test_anticorrelated_welch(void **state)
{
	const double s[N] = { 1.0, -0.8, 0.5, -0.3, 0.9, -1.0, 0.2, -0.6,
			      0.7, -0.4, 0.1, -0.9 };
	double a[N], b[N];
	struct kb_calibration cal;
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		a[i] = 1000.0 * (1.0 + 0.05 * s[i]);
		b[i] = 1000.0 * (1.0 - 0.05 * s[i] + 0.002 * (i % 3));
	}
	assert_int_equal(calibrate_one(&cal, a, b, N), 0);
	assert_true(cal.m[0].corr < -0.9);
	assert_true(cal.m[0].corr_p < 0.001);
	assert_string_equal(cal.m[0].analysis, "welch-log");
	assert_string_equal(cal.analysis, "welch-log");
	/* the paired spread would be about twice the copies' */
	assert_true(cal.m[0].sd_log_ratio_pct > 1.9 * cal.m[0].sd_log_pct);
	assert_int_equal(cal.m[0].rounds_max_mde,
			 kb_calibrate_rounds(0, cal.m[0].sd_log_pct / 100.0,
					     0.05, 5.0));
	results_calibration_free(&cal);
}

/* hand-computed: sd of the log ratios 2%, alpha 0.05, 80% power:
 * n = 3: (t(.975;2) 4.303 + t(.8;2) 1.061) 0.02 / sqrt 3 -> +6.4%;
 * n = 4: (3.182 + 0.978) 0.02 / 2 -> +4.25%: 4 rounds for max_mde 5% */
static void test_rounds_by_hand(void **state)
{
	double a[3] = { 1, 2, 3 }, b[3] = { 1, 2, -3 };
	struct kb_calib_metric m;

	(void)state;
	assert_int_equal(kb_calibrate_rounds(1, 0.02, 0.05, 5.0), 4);
	assert_true(kb_calibrate_rounds(1, 0.02, 0.05, 1.0) > 30);
	assert_int_equal(kb_calibrate_rounds(1, 2.0, 0.05, 1.0), 0);
	assert_int_equal(kb_calibrate_rounds(1, NAN, 0.05, 5.0), 0);
	/* too few rounds, or no logarithm: -EDOM, nothing made up */
	m = metric_of(a, b, 2);
	assert_int_equal(kb_calibrate_metric(&m, 0.05), -EDOM);
	assert_int_equal(m.rounds_max_mde, 0);
	assert_true(isnan(m.cv_pct[0]));
	free(m.job);
	free(m.metric);
	free(m.copy1);
	free(m.copy2);
	m = metric_of(a, b, 3);
	assert_int_equal(kb_calibrate_metric(&m, 0.05), -EDOM);
	free(m.job);
	free(m.metric);
	free(m.copy1);
	free(m.copy2);
}

static char *tmpdir(void)
{
	char tpl[] = "/tmp/kbench-calib.XXXXXX";

	assert_non_null(mkdtemp(tpl));
	return kb_xstrdup(tpl);
}

/* Remove the files a and b and the directory dir (tmpdir()), and free
 * the three names. */
static void remove_tmp(char *dir, char *a, char *b)
{
	unlink(a);
	unlink(b);
	rmdir(dir);
	free(a);
	free(b);
	free(dir);
}

/* A calibration of 4 A/A rounds of randread-4k read.iops, baseline
 * running,NM=0, measured with runs of runtime_s. */
static void fixture_calibration(struct kb_calibration *cal,
				unsigned runtime_s)
{
	const double a[4] = { 100, 102, 98, 101 }, b[4] = { 99, 103, 97, 102 };

	calibrate_one(cal, a, b, 4);
	cal->conf = kb_xstrdup("kernels.conf");
	cal->baseline = kb_xstrdup("running,NM=0");
	cal->campaign = kb_xstrdup("cal/aa");
	cal->rounds = 4;
	cal->runtime_s = runtime_s;
	cal->alpha = 0.05;
}

static void test_file_round_trip(void **state)
{
	struct kb_calibration cal, back;
	struct capture cap;
	char *dir = tmpdir(), *path = kb_path_join(dir, "calibration.json");
	char *bad = kb_path_join(dir, "bad.json"), *msg;

	(void)state;
	fixture_calibration(&cal, 1);
	cal.runs = 8;
	cal.runs_disturbed = 1;
	assert_int_equal(results_calibration_write(path, &cal), 0);
	assert_int_equal(results_calibration_read(path, &back), 0);
	assert_string_equal(back.baseline, "running,NM=0");
	assert_string_equal(back.analysis, cal.analysis);
	assert_int_equal(back.rounds, 4);
	assert_int_equal(back.runs_disturbed, 1);
	assert_int_equal(back.rounds_max_mde, cal.rounds_max_mde);
	assert_int_equal(back.rounds_min_effect, cal.rounds_min_effect);
	assert_int_equal(back.nm, 1);
	assert_int_equal(back.m[0].n, 4);
	assert_true(back.m[0].copy2[1] == 103.0);
	assert_true(fabs(back.m[0].sd_log_ratio_pct -
			 cal.m[0].sd_log_ratio_pct) < 1e-9);
	results_calibration_free(&back);

	/* a file that is not a calibration: refused, naming it */
	assert_int_equal(kb_write_atomic(bad, "{\"schema_version\": 1}\n", 22),
			 0);
	cap_begin(&cap);
	assert_int_equal(results_calibration_read(bad, &back), -EINVAL);
	msg = cap_end(&cap);
	assert_non_null(strstr(msg, bad));
	assert_non_null(strstr(msg, "not a calibration"));
	free(msg);
	cap_begin(&cap);
	assert_int_equal(results_calibration_read("/nonexistent/c.json",
						  &back), -ENOENT);
	msg = cap_end(&cap);
	assert_non_null(strstr(msg, "kbench calibrate"));
	free(msg);

	/* calibration = FILE: iterations = auto starts at its rounds,
	 * within min_iterations..max_iterations */
	{
		char *conf = kb_path_join(dir, "k.conf");
		char *text = kb_xasprintf(
			"[global]\njobs = randread-4k\niterations = auto\n"
			"min_iterations = 2\nmax_iterations = %u\n"
			"target = loop:64M\ncalibration = calibration.json\n"
			"[running]\nmethod = local\n",
			cal.rounds_max_mde + 5);
		struct kb_config cfg;
		struct kb_calibration used;

		assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);
		assert_int_equal(kconf_load(conf, &cfg), 0);
		assert_string_equal(cfg.calibration, path);
		assert_int_equal(cfg.iterations, 2);
		assert_int_equal(calibrate_apply(&cfg, &used), 1);
		assert_int_equal(cfg.iterations, cal.rounds_max_mde < 2 ? 2 :
				 cal.rounds_max_mde);
		results_calibration_free(&used);
		kconf_free(&cfg);
		free(text);
		unlink(conf);
		free(conf);
	}
	results_calibration_free(&cal);
	unlink(path);
	unlink(bad);
	rmdir(dir);
	free(path);
	free(bad);
	free(dir);
}

/* calibration.json read back: a negative or non-numeric sd or CV, a
 * (job, metric) listed twice and a metric name kbench does not know are
 * refused, the message naming the file, the key path and what was
 * expected (they were all read silently: a negative sd_log_pct as is, a
 * string "inf" as not computed, the second entry counted twice); null
 * (not computed) and a load host's host.NAME.METRIC are read. */
static void test_file_read_refuses(void **state)
{
	static const struct {
		const char *key;	/* set in metrics[0]; NULL: metrics[1]
					 * = metrics[0] with metric = val */
		const char *val;	/* JSON */
		const char *want;	/* in the message; NULL: read */
	} cases[] = {
		{ "sd_log_pct", "-1.5", "metrics[0].sd_log_pct: expected a "
		  "finite number >= 0 (a spread, %) or null, got -1.5" },
		{ "sd_log_ratio_pct", "-0.25", "metrics[0].sd_log_ratio_pct: "
		  "expected a finite number >= 0 (a spread, %) or null, got "
		  "-0.25" },
		{ "sd_log_ratio_pct", "\"inf\"", "metrics[0].sd_log_ratio_pct: "
		  "expected a finite number >= 0 (a spread, %) or null, got a "
		  "string" },
		{ "cv_pct", "[1.0, -2]", "metrics[0].cv_pct[1]: expected a "
		  "finite number >= 0 (a spread, %) or null, got -2" },
		{ "cv_pct", "[\"NaN\", 1.0]", "metrics[0].cv_pct[0]: expected "
		  "a finite number >= 0 (a spread, %) or null, got a string" },
		{ "cv_pct", "[1.0]", "metrics[0].cv_pct: expected [CV of "
		  "copy1, CV of copy2]" },
		{ "metric", "\"read.iop\"", "metrics[0].metric: no such metric "
		  "'read.iop' (did you mean 'read.iops'?)" },
		{ "metric", "\"bogus.thing\"", "metrics[0].metric: no such "
		  "metric 'bogus.thing' (expected a name of lib/metrics.c" },
		{ NULL, "read.iops", "metrics[1]: job randread-4k, metric "
		  "read.iops again (first at metrics[0]): expected one entry "
		  "a job and metric" },
		/* out of range (a break-it trial: read as they were) */
		{ "corr", "1.5", "metrics[0].corr: expected a finite number "
		  "from -1 to 1 (a correlation) or null, got 1.5" },
		{ "corr", "-1.25", "metrics[0].corr: expected a finite "
		  "number from -1 to 1 (a correlation) or null, got -1.25" },
		{ "corr_p", "-0.1", "metrics[0].corr_p: expected a finite "
		  "number from 0 to 1 (a p-value) or null, got -0.1" },
		{ "corr_p", "2", "metrics[0].corr_p: expected a finite "
		  "number from 0 to 1 (a p-value) or null, got 2" },
		{ "min_effect_pct", "-1", "metrics[0].min_effect_pct: "
		  "expected a finite number >= 0 (a percentage) or null, got "
		  "-1" },
		{ "max_mde_pct", "-5", "metrics[0].max_mde_pct: expected a "
		  "finite number >= 0 (a percentage) or null, got -5" },
		{ "corr", "\"0.5\"", "metrics[0].corr: expected a finite "
		  "number from -1 to 1 (a correlation) or null, got a "
		  "string" },
		/* read: the ends of the ranges */
		{ "corr", "-1", NULL },
		{ "corr_p", "1", NULL },
		{ "min_effect_pct", "0", NULL },
		/* read: not computed, a load host's metric, another metric
		 * of the same job */
		{ "sd_log_pct", "null", NULL },
		{ "cv_pct", "[null, 0]", NULL },
		{ "metric", "\"host.10.0.0.2.read.iops\"", NULL },
		{ NULL, "read.clat_p99_ns", NULL },
	};
	struct kb_calibration cal, back;
	struct capture cap;
	char *dir = tmpdir(), *path = kb_path_join(dir, "calibration.json");
	char *msg, *want;
	size_t i;

	(void)state;
	fixture_calibration(&cal, 1);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *j, *m0;
		int ret;

		assert_int_equal(results_calibration_write(path, &cal), 0);
		j = kb_json_load(path);
		assert_non_null(j);
		m0 = json_array_get(json_object_get(j, "metrics"), 0);
		if (cases[i].key) {
			json_t *v = json_loads(cases[i].val, JSON_DECODE_ANY,
					       NULL);

			assert_non_null(v);
			json_object_set_new(m0, cases[i].key, v);
		} else {
			json_t *m1 = json_deep_copy(m0);

			json_object_set_new(m1, "metric",
					    json_string(cases[i].val));
			json_array_append_new(json_object_get(j, "metrics"),
					      m1);
		}
		assert_int_equal(json_dump_file(j, path, 0), 0);
		json_decref(j);
		cap_begin(&cap);
		ret = results_calibration_read(path, &back);
		msg = cap_end(&cap);
		if (!cases[i].want) {
			if (ret)
				print_error("case %zu: %s", i, msg);
			assert_int_equal(ret, 0);
			assert_string_equal(msg, "");
			assert_int_equal(back.nm, cases[i].key ? 1 : 2);
			results_calibration_free(&back);
			free(msg);
			continue;
		}
		want = kb_xasprintf("%s: %s", path, cases[i].want);
		if (!strstr(msg, want))
			print_error("case %zu: wanted \"%s\", got:\n%s", i, want,
				    msg);
		assert_int_equal(ret, -EINVAL);
		assert_non_null(strstr(msg, want));
		assert_int_equal(back.nm, 0);	/* nothing left behind */
		free(want);
		free(msg);
	}
	results_calibration_free(&cal);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* The A/A samples from a results.json: the rounds where both copies
 * counted, matched by round id (a failed run, a run without the value,
 * a round only one copy ran: holes), in round order whatever the runs'
 * order; a run whose "iteration" is 2^62 is one round more, not 2^62
 * rounds of memory (a break-it trial's hostile results.json sized two
 * arrays by it). */
static void test_samples_by_round(void **state)
{
	char *dir = tmpdir(), *path = kb_path_join(dir, "results.json");
	struct kb_calibration cal;
	json_t *runs = json_array(), *res;
	/* (copy, iteration, value; 0: failed, -1: no value) */
	static const struct { int copy; long long it; double v; } rr[] = {
		{ 2, 3, 103 }, { 1, 3, 100 }, { 1, 0, 90 }, { 2, 0, 91 },
		{ 1, 1, 95 }, { 2, 1, 0 }, { 1, 2, -1 }, { 2, 2, 97 },
		{ 1, 5, 80 }, { 1, 4611686018427387904LL, 70 },
		{ 2, 4611686018427387904LL, 71 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rr) / sizeof(rr[0]); i++) {
		json_t *r = json_pack("{s:s, s:s, s:I, s:s, s:o}",
			"configuration", rr[i].copy == 1 ? "copy1" : "copy2",
			"job", "randread-4k", "iteration",
			(json_int_t)rr[i].it, "status",
			rr[i].v == 0 ? "failed" : "ok", "metrics",
			rr[i].v > 0 ? json_pack("{s:f}", "read.iops", rr[i].v) :
			json_object());

		json_array_append_new(runs, r);
	}
	res = json_pack("{s:o, s:[{s:s, s:s, s:s, s:s, s:f, s:f, s:f}]}",
			"runs", runs, "comparisons", "baseline", "copy1",
			"configuration", "copy2", "job", "randread-4k",
			"metric", "read.iops", "alpha", 0.05,
			"min_effect_pct", 1.0, "max_mde_pct", 5.0);
	assert_int_equal(json_dump_file(res, path, 0), 0);
	json_decref(res);
	memset(&cal, 0, sizeof(cal));
	assert_int_equal(results_calibration_samples(dir, "copy1", "copy2",
						     &cal), 0);
	assert_int_equal(cal.nm, 1);
	assert_int_equal(cal.m[0].n, 3);	/* rounds 0, 3 and 2^62 */
	assert_true(cal.m[0].copy1[0] == 90 && cal.m[0].copy2[0] == 91);
	assert_true(cal.m[0].copy1[1] == 100 && cal.m[0].copy2[1] == 103);
	assert_true(cal.m[0].copy1[2] == 70 && cal.m[0].copy2[2] == 71);
	assert_int_equal(cal.runs, 10);	/* all but the failed one */
	results_calibration_free(&cal);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* kernels.conf target_metrics: only the metrics it names decide when
 * iterations = auto stops, so only they set where it starts.  A quiet
 * read.iops and a p99 too noisy for max_mde within the cap: the whole
 * calibration asks for more than the cap; with target_metrics =
 * read.iops, iterations = auto starts at read.iops's rounds. */
static void test_target_metrics_rounds(void **state)
{
	const double a[6] = { 100, 102, 98, 101, 99, 100 },
		     b[6] = { 99, 103, 97, 102, 100, 101 },
		     pa[6] = { 100, 300, 90, 500, 120, 800 },
		     pb[6] = { 400, 95, 700, 110, 600, 100 };
	struct kb_calibration cal, used;
	struct kb_config cfg;
	char *dir = tmpdir(), *path = kb_path_join(dir, "calibration.json");
	char *conf = kb_path_join(dir, "k.conf"), *text;
	unsigned iops_rounds;
	int target;

	(void)state;
	memset(&cal, 0, sizeof(cal));
	cal.alpha = 0.05;
	cal.nm = 3;
	cal.m = kb_xcalloc(3, sizeof(*cal.m));
	cal.m[0] = metric_of(a, b, 6);
	cal.m[1] = metric_of(pa, pb, 6);
	free(cal.m[1].metric);
	cal.m[1].metric = kb_xstrdup("read.clat_p99_ns");
	/* a job the campaign does not run: its noisy read.iops asks for no
	 * rounds of it (a break-it trial) */
	cal.m[2] = metric_of(pa, pb, 6);
	free(cal.m[2].job);
	cal.m[2].job = kb_xstrdup("other-job");
	assert_int_equal(kb_calibrate(&cal), 0);
	iops_rounds = cal.m[0].rounds_max_mde;
	assert_true(iops_rounds >= 2 && iops_rounds < 20);
	assert_int_equal(cal.m[1].rounds_max_mde, 0);	/* > the cap */
	assert_int_equal(cal.rounds_max_mde, 0);
	cal.conf = kb_xstrdup("kernels.conf");
	cal.baseline = kb_xstrdup("running,NM=0");
	cal.campaign = kb_xstrdup("cal/aa");
	cal.rounds = 6;
	cal.runtime_s = 1;
	assert_int_equal(results_calibration_write(path, &cal), 0);

	for (target = 0; target < 3; target++) {
		struct capture cap;
		char *msg;

		text = kb_xasprintf(
			"[global]\njobs = randread-4k\niterations = auto\n"
			"min_iterations = 2\nmax_iterations = 40\n%s"
			"target = loop:64M\ncalibration = calibration.json\n"
			"[running]\nmethod = local\n",
			target == 1 ? "target_metrics = read.iops\n" :
			target == 2 ? "target_metrics = write.iops\n" : "");
		assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);
		free(text);
		assert_int_equal(kconf_load(conf, &cfg), 0);
		cap_begin(&cap);
		assert_int_equal(calibrate_apply(&cfg, &used), 1);
		msg = cap_end(&cap);
		assert_int_equal(cfg.iterations, target == 1 ? iops_rounds : 40);
		assert_int_equal(used.rounds_max_mde,
				 target == 1 ? iops_rounds : 0);
		assert_int_equal(used.totals_targeted, target == 1);
		/* a target_metrics naming none: said, and the rounds not
		 * labelled as its (plan prints the label by the flag) */
		if (target == 2)
			assert_non_null(strstr(msg, "target_metrics = write.iops names no metric of the calibration"));
		else
			assert_string_equal(msg, "");
		free(msg);
		results_calibration_free(&used);
		kconf_free(&cfg);
	}
	results_calibration_free(&cal);
	unlink(conf);
	unlink(path);
	rmdir(dir);
	free(conf);
	free(path);
	free(dir);
}

/* calibration = FILE measured on another setup: a warning naming
 * kernels.conf's line and each difference (jobs, target, baseline,
 * runtime); refused when it calibrated none of the campaign's jobs;
 * silent when the setups agree.  The target round-trips through the
 * file; an older file without one is named as not recorded. */
static void test_calibration_misfit(void **state)
{
	struct kb_calibration cal, back;
	struct kb_config cfg;
	struct kb_plan plan;
	struct capture cap;
	char *dir = tmpdir(), *path = kb_path_join(dir, "calibration.json");
	char *conf = kb_path_join(dir, "k.conf"), *text, *msg;
	const char *const fmt =
		"[global]\njobs = %s\ntarget = %s\nruntime = %u\n"
		"calibration = calibration.json\n"
		"tunable NM = queue/nomerges: 0 1\nbaseline = %s\n"
		"[running]\nmethod = local\n";

	(void)state;
	fixture_calibration(&cal, 2);	/* job randread-4k */
	cal.target = kb_xstrdup("loop:256M");
	assert_int_equal(results_calibration_write(path, &cal), 0);
	assert_int_equal(results_calibration_read(path, &back), 0);
	assert_string_equal(back.target, "loop:256M");

#define CONF(jobs, target, runtime, base) do {				\
	text = kb_xasprintf(fmt, jobs, target, runtime, base);		\
	assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);	\
	free(text);							\
	assert_int_equal(kconf_load(conf, &cfg), 0);			\
	assert_int_equal(plan_build(&cfg, &plan), 0);			\
} while (0)
#define DONE() do { plan_free(&plan); kconf_free(&cfg); } while (0)

	/* the same setup: nothing said */
	CONF("randread-4k", "loop:256M", 2u, "running,NM=0");
	cap_begin(&cap);
	assert_int_equal(plan_check_calibration(&cfg, &plan, &back), 0);
	msg = cap_end(&cap);
	assert_string_equal(msg, "");
	free(msg);
	DONE();

	/* another target, baseline and runtime, one more job: a warning
	 * naming each, and kernels.conf's line */
	CONF("randread-4k buffered-write", "loop:1G", 5u, "running,NM=1");
	cap_begin(&cap);
	assert_int_equal(plan_check_calibration(&cfg, &plan, &back), 0);
	msg = cap_end(&cap);
	if (!strstr(msg, "k.conf:5: calibration = "))
		fail_msg("%s", msg);
	assert_non_null(strstr(msg, "another setup"));
	assert_non_null(strstr(msg, "jobs randread-4k buffered-write, "
			       "calibrated with randread-4k"));
	assert_non_null(strstr(msg, "target loop:1024M, calibrated on "
			       "loop:256M"));
	assert_non_null(strstr(msg, "baseline running,NM=1, calibrated "
			       "with running,NM=0"));
	assert_non_null(strstr(msg, "runtime 5 s, calibrated with 2 s"));
	free(msg);
	DONE();

	/* none of the campaign's jobs calibrated: refused */
	CONF("buffered-write", "loop:256M", 2u, "running,NM=0");
	cap_begin(&cap);
	assert_int_equal(plan_check_calibration(&cfg, &plan, &back),
			 -EINVAL);
	msg = cap_end(&cap);
	assert_non_null(strstr(msg, "calibrated none of this campaign's "
			       "jobs"));
	free(msg);
	DONE();

	/* an older calibration.json, without a target: said so */
	free(back.target);
	back.target = NULL;
	CONF("randread-4k", "loop:256M", 2u, "running,NM=0");
	cap_begin(&cap);
	assert_int_equal(plan_check_calibration(&cfg, &plan, &back), 0);
	msg = cap_end(&cap);
	assert_non_null(strstr(msg, "the calibration's not recorded"));
	free(msg);
	DONE();
#undef CONF
#undef DONE

	results_calibration_free(&back);
	results_calibration_free(&cal);
	remove_tmp(dir, path, conf);
}

/* kbench plan with iterations = auto and a calibration: one story, the
 * range starting where the calibration starts it (not min_iterations),
 * and said when the rounds it needs are beyond max_iterations (no range
 * then) or below min_iterations. */
static void test_plan_auto_range(void **state)
{
	static const struct {
		unsigned rounds;		/* rounds_max_mde */
		const char *has[3], *lacks;
	} cases[] = {
		{ 12, { "(1 warm-up + 10 iterations) = 11 runs",
			"starts at max_iterations = 10: no round can be added",
			"fewer than the 12 rounds needed for max_mde" },
		  "3 to 10 iterations" },
		{ 5, { "(1 warm-up + 5 iterations) = 6 runs",
		       "auto: 5 to 10 iterations, a round added while a "
		       "compared metric's 95% CI of the change is wider than "
		       "+-1%: 6 to 11 runs",
		       "starts at 5 rounds, the rounds needed for max_mde" },
		  "3 to 10 iterations" },
		{ 2, { "(1 warm-up + 3 iterations) = 4 runs",
		       "auto: 3 to 10 iterations",
		       "starts at 3 rounds: min_iterations (2 would do" },
		  "starts at 2" },
	};
	struct kb_calibration cal;
	char *dir = tmpdir(), *path = kb_path_join(dir, "calibration.json");
	char *conf = kb_path_join(dir, "k.conf"), *text, *out, *err, *cwd;
	char *args[] = { "plan", "-c", conf, NULL };
	size_t i, k;

	(void)state;
	cwd = getcwd(NULL, 0);
	text = kb_xasprintf("[global]\njobs = randread-4k\niterations = auto\n"
		"min_iterations = 3\nmax_iterations = 10\nwarmup = 1\n"
		"runtime = 2\ntarget = loop:256M\nprofiles = %s/profiles\n"
		"calibration = calibration.json\n[running]\nmethod = local\n",
		cwd);
	assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);
	free(text);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fixture_calibration(&cal, 2);
		cal.baseline[strlen("running")] = 0;	/* "running" */
		cal.target = kb_xstrdup("loop:256M");
		cal.rounds_max_mde = cal.m[0].rounds_max_mde = cases[i].rounds;
		assert_int_equal(results_calibration_write(path, &cal), 0);
		results_calibration_free(&cal);
		if (run_kbench(args, &out, &err))
			fail_msg("kbench plan: %s%s", out, err);
		for (k = 0; k < 3; k++)
			if (!strstr(out, cases[i].has[k]))
				fail_msg("rounds %u: no \"%s\" in:\n%s",
					 cases[i].rounds, cases[i].has[k], out);
		if (strstr(out, cases[i].lacks))
			fail_msg("rounds %u: \"%s\" in:\n%s", cases[i].rounds,
				 cases[i].lacks, out);
		assert_null(strstr(err, "another setup"));
		free(out);
		free(err);
	}
	/* a calibration.json not as kbench wrote it (a break-it trial): an
	 * ESC in its baseline is shown as '?', not sent to the terminal;
	 * "rounds" -5 (printed 4294967291 rounds) and "runtime_s" -1 or
	 * 2^40 (4294967295 s, 0 s: not checked) are refused, naming them */
	{
		static const char *const bad[][2] = {
			{ "rounds", "-5" }, { "rounds", "0" },
			{ "runtime_s", "-1" }, { "runtime_s", "1099511627776" },
		};
		json_t *j;

		fixture_calibration(&cal, 2);
		free(cal.baseline);
		cal.baseline = kb_xstrdup("running\033[31m");
		cal.target = kb_xstrdup("loop:256M");
		assert_int_equal(results_calibration_write(path, &cal), 0);
		results_calibration_free(&cal);
		assert_int_equal(run_kbench(args, &out, &err), 0);
		assert_non_null(strstr(out, "(A/A of running?[31m, 4 rounds)"));
		assert_null(strchr(out, '\033'));
		free(out);
		free(err);
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			j = kb_json_load(path);
			assert_non_null(j);
			json_object_set_new(j, bad[i][0], json_integer(
				strtoll(bad[i][1], NULL, 10)));
			assert_int_equal(kb_json_write_atomic(path, j), 0);
			json_decref(j);
			if (run_kbench(args, &out, &err) != 1 ||
			    !strstr(err, "not a calibration") ||
			    !strstr(err, bad[i][0]))
				fail_msg("%s %s: %s%s", bad[i][0], bad[i][1],
					 out, err);
			free(out);
			free(err);
			fixture_calibration(&cal, 2);
			assert_int_equal(results_calibration_write(path, &cal),
					 0);
			results_calibration_free(&cal);
		}
	}
	remove_tmp(dir, path, conf);
	free(cwd);
}

/* the A/A kernels.conf: the baseline's variant twice, each tunable and
 * sweep at the baseline's value, the rounds asked for, order =
 * interleave; nothing else of the matrix, no push */
static void test_aa_conf_text(void **state)
{
	char *dir = tmpdir(), *conf = kb_path_join(dir, "k.conf");
	char *aa = kb_path_join(dir, "aa.conf"), *text, *cwd;
	const char *src =
		"; a campaign\n[global]\njobs = randread-4k\niterations = 7\n"
		"warmup = 2\nruntime = 1\norder = block\ntarget = loop:64M\n"
		"tunable NM = queue/nomerges: 0 1 2\nsweep depth = 1 4\n"
		"baseline = other,NM=1,depth=4\nmax_mde = 3\n"
		"push = http://127.0.0.1:1/write?db=x\nprofiles = %s/profiles\n"
		"[running]\nmethod = local\n"
		"[other]\nmethod = local\nrelease = 9.9-test\n";
	struct kb_config cfg, out;
	struct kb_plan plan, oplan;

	(void)state;
	cwd = getcwd(NULL, 0);
	text = kb_xasprintf(src, cwd);
	assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);
	free(text);
	assert_int_equal(kconf_load(conf, &cfg), 0);
	assert_int_equal(plan_build(&cfg, &plan), 0);
	text = calibrate_conf_text(&cfg, &plan, 6);
	assert_non_null(text);
	assert_int_equal(kb_write_atomic(aa, text, strlen(text)), 0);
	assert_int_equal(kconf_load(aa, &out), 0);
	assert_int_equal(out.iterations, 6);
	assert_int_equal(out.warmup, 2);
	assert_int_equal(out.order, KB_ORDER_INTERLEAVE);
	assert_null(out.push_url);
	assert_true(fabs(out.max_mde_pct - 3.0) < 1e-12);
	assert_int_equal(out.nvariants, 2);
	assert_string_equal(out.variants[0].name, "copy1");
	assert_string_equal(out.variants[1].name, "copy2");
	assert_string_equal(out.variants[1].release, "9.9-test");
	assert_int_equal(out.ntunables, 2);
	assert_int_equal(out.tunables[0].nvalues, 1);
	assert_string_equal(out.tunables[0].values[0], "1");
	assert_true(out.tunables[1].sweep);
	assert_string_equal(out.tunables[1].values[0], "4");
	assert_int_equal(plan_build(&out, &oplan), 0);
	assert_int_equal(oplan.nconfigs, 2);
	assert_string_equal(oplan.configs[0].id, "copy1,NM=1,depth=4");
	plan_free(&oplan);
	kconf_free(&out);
	plan_free(&plan);
	kconf_free(&cfg);
	free(text);
	free(cwd);
	unlink(conf);
	unlink(aa);
	rmdir(dir);
	free(conf);
	free(aa);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_round_effect_pairs),
		cmocka_unit_test(test_anticorrelated_welch),
		cmocka_unit_test(test_rounds_by_hand),
		cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_file_read_refuses),
		cmocka_unit_test(test_calibration_misfit),
		cmocka_unit_test(test_target_metrics_rounds),
		cmocka_unit_test(test_samples_by_round),
		cmocka_unit_test(test_plan_auto_range),
		cmocka_unit_test(test_aa_conf_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
