/* tests/test_fixed_work.c - fixed-size jobs (issue 13): detected from
 * fio's options and the job file (parsers/fio_json.h "work",
 * parsers/run_dir.h), rates summarised as total work over total time with
 * the CI on time per unit of work (stats/summary.h
 * kb_summarize_fixed_work), only when every run did fixed work.  Runs
 * from the repository root. */
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

#include <gsl/gsl_cdf.h>

#include "lib/file.h"
#include "parsers/fio_json.h"
#include "parsers/run_dir.h"
#include "results/json.h"
#include "stats/summary.h"
#include "tests/stats_tree.h"

/* fio's "work" of a one-job document; ran_ms: the job's job_runtime (ms),
 * left out when negative */
static const char *work_ran(const char *gopts, const char *jopts,
			    int ran_ms)
{
	static char w[16];
	char err[512], *doc = kb_xasprintf(
		"{\"fio version\": \"fio-3.33\", \"global options\": {%s}, "
		"\"jobs\": [{\"jobname\": \"j\", \"groupid\": 0, \"error\": 0, "
		"%s%d%s"
		"\"job options\": {%s}, \"read\": {\"io_bytes\": 4096000, "
		"\"io_kbytes\": 4000, \"bw\": 4000, \"iops\": 1000.0, "
		"\"runtime\": 1000, \"total_ios\": 1000}}]}", gopts,
		ran_ms >= 0 ? "\"job_runtime\": " : "\"x\": ",
		ran_ms >= 0 ? ran_ms : 0, ", ", jopts);
	json_t *r = fio_parse_buf("t.json", doc, strlen(doc), err, sizeof(err));
	const char *s;

	assert_non_null(r);
	s = kb_jstr(r, "work");
	snprintf(w, sizeof(w), "%s", s ? s : "null");
	json_decref(r);
	free(doc);
	return w;
}

static const char *work_of(const char *gopts, const char *jopts)
{
	return work_ran(gopts, jopts, -1);
}

static void test_work_from_fio_options(void **state)
{
	(void)state;
	assert_string_equal(work_of("\"size\": \"1g\"", "\"rw\": \"read\""),
			    "fixed");
	assert_string_equal(work_of("", "\"io_size\": \"100m\""), "fixed");
	assert_string_equal(work_of("", "\"number_ios\": \"1000\""), "fixed");
	assert_string_equal(work_of("\"size\": \"1g\", \"time_based\": \"1\"",
				    ""), "time");
	assert_string_equal(work_of("\"size\": \"1g\"", "\"time_based\": \"1\""),
			    "time");
	/* no amount of work named: unknown, never guessed */
	assert_string_equal(work_of("\"runtime\": \"60\"", ""), "null");
}

/* a lone fio.json (no job file): a job that ran its whole runtime
 * stopped on the clock (fio 3.33 leaves a bare time_based out of its
 * JSON), one that ran less finished its size */
static void test_work_from_runtime(void **state)
{
	static const struct {
		const char *gopts, *jopts;
		int ran_ms;	/* job_runtime; -1: none */
		const char *want;
	} c[] = {
		{ "\"size\": \"1g\", \"runtime\": \"2\"", "", 2000, "time" },
		{ "\"size\": \"1g\", \"runtime\": \"2\"", "", 1985, "time" },
		{ "\"size\": \"1g\", \"runtime\": \"2\"", "", 1500, "fixed" },
		{ "\"size\": \"1g\"", "\"runtime\": \"2000ms\"", 2000, "time" },
		{ "\"size\": \"1g\"", "\"runtime\": \"1m\"", 60000, "time" },
		{ "\"size\": \"1g\"", "\"runtime\": \"1m\"", 2000, "fixed" },
		/* a unit fio's HOWTO does not name: not read */
		{ "\"size\": \"1g\", \"runtime\": \"2x\"", "", 2000, "fixed" },
		/* no job_runtime: the options alone */
		{ "\"size\": \"1g\", \"runtime\": \"2\"", "", -1, "fixed" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_string_equal(work_ran(c[i].gopts, c[i].jopts,
					     c[i].ran_ms), c[i].want);
}

/* fio 3.33 leaves a bare `time_based` out of its JSON options: the job
 * file decides (parsers/run_dir.c) */
static void test_work_from_job_file(void **state)
{
	char tpl[] = "/tmp/kbench-work.XXXXXX", *dir, *p;
	const char *fio =
		"{\"fio version\": \"fio-3.33\", \"global options\": "
		"{\"size\": \"67108864\", \"runtime\": \"1\"}, \"jobs\": "
		"[{\"jobname\": \"j\", \"groupid\": 0, \"error\": 0, "
		"\"elapsed\": 1, \"job options\": {\"rw\": \"randread\"}, "
		"\"read\": {\"io_bytes\": 4096000, \"io_kbytes\": 4000, "
		"\"bw\": 4000, \"iops\": 1000.0, \"runtime\": 1000, "
		"\"total_ios\": 1000}}]}\n";
	const char *run = "{\"exit_status\": 0, \"runtime_s\": 1, "
			  "\"elapsed_s\": 1.2}\n";
	const char *jobs[] = { "[global]\nsize=64m\ntime_based\n[j]\n",
			       "[global]\nsize=64m\n[j]\n",
			       "[global]\ntime_based=0\nsize=64m\n[j]\n" };
	const char *want[] = { "time", "fixed", "fixed" };
	json_t *m;
	size_t k;

	(void)state;
	dir = mkdtemp(tpl);
	assert_non_null(dir);
	for (k = 0; k < 3; k++) {
		p = kb_path_join(dir, "fio.json");
		assert_int_equal(kb_write_atomic(p, fio, strlen(fio)), 0);
		free(p);
		p = kb_path_join(dir, "run.json");
		assert_int_equal(kb_write_atomic(p, run, strlen(run)), 0);
		free(p);
		p = kb_path_join(dir, "job.fio");
		assert_int_equal(kb_write_atomic(p, jobs[k], strlen(jobs[k])),
				 0);
		free(p);
		m = run_dir_parse(dir);
		assert_non_null(m);
		assert_string_equal(kb_jstr(m, "status"), "ok");
		assert_string_equal(kb_jstr(m, "work") ?: "absent", want[k]);
		json_decref(m);
	}
	for (k = 0; k < 3; k++) {
		p = kb_path_join(dir, k == 0 ? "fio.json" : k == 1 ?
				 "run.json" : "job.fio");
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/* the harmonic mean and the CI inverted from time per unit of work,
 * against the arithmetic done here */
static void test_summarize_fixed_work(void **state)
{
	const double x[] = { 1000.0, 1250.0, 800.0, 1000.0, 1100.0 };
	const size_t n = 5;
	double y[5], ybar = 0.0, var = 0.0, half;
	struct kb_summary s, a;
	size_t i;

	(void)state;
	for (i = 0; i < n; i++) {
		y[i] = 1.0 / x[i];
		ybar += y[i] / n;
	}
	for (i = 0; i < n; i++)
		var += (y[i] - ybar) * (y[i] - ybar) / (n - 1);
	half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(var / n);
	assert_int_equal(kb_summarize_fixed_work(x, n, &s), 0);
	assert_true(s.harmonic);
	/* 5 runs of the same work W: total W 5 / total time sum(W / x) */
	assert_true(fabs(s.mean - n / (1 / 1000.0 + 1 / 1250.0 + 1 / 800.0 +
				       1 / 1000.0 + 1 / 1100.0)) < 1e-9);
	assert_true(fabs(s.ci95_lo - 1.0 / (ybar + half)) < 1e-9);
	assert_true(fabs(s.ci95_hi - 1.0 / (ybar - half)) < 1e-9);
	assert_true(s.ci95_lo < s.mean && s.mean < s.ci95_hi);
	/* below the arithmetic mean (AM >= HM), same spread of rates */
	assert_int_equal(kb_summarize(x, n, &a), 0);
	assert_true(s.mean < a.mean);
	assert_true(fabs(s.sd - a.sd) < 1e-12);
	/* the CV is the rates' own (the header's promise), not sd over the
	 * harmonic mean */
	assert_true(fabs(s.cv_pct - a.cv_pct) < 1e-12);
	assert_true(fabs(s.median - a.median) < 1e-12);
	/* a CI of time reaching 0: no upper bound on the rate */
	{
		const double w[] = { 100.0, 10000.0 };

		assert_int_equal(kb_summarize_fixed_work(w, 2, &s), 0);
		assert_true(isnan(s.ci95_hi));
		assert_true(s.ci95_lo > 0.0);
	}
	{
		const double z[] = { 100.0, 0.0 };

		assert_int_equal(kb_summarize_fixed_work(z, 2, &s), -EDOM);
	}
}

/* in a results model: harmonic only when every counted run of the
 * sample did fixed work, and only for rates */
static void test_summaries_fixed_work(void **state)
{
	const double x[] = { 1000.0, 1250.0, 800.0 };
	json_t *res, *runs, *e;
	size_t i, k;
	int mixed;

	(void)state;
	for (mixed = 0; mixed < 2; mixed++) {
		res = json_pack("{s:i, s:{s:s, s:[s]}, s:[], s:[]}",
				"schema_version", 1, "campaign", "baseline",
				"a", "jobs", "j", "configurations", "runs");
		runs = json_object_get(res, "runs");
		for (i = 0; i < 3; i++)
			json_array_append_new(runs, json_pack(
				"{s:s, s:s, s:i, s:b, s:s, s:s, "
				"s:{s:f, s:f}}", "configuration", "a",
				"job", "j", "iteration", (int)i, "warmup", 0,
				"status", "ok", "work", mixed && i == 1 ?
				"time" : "fixed", "metrics", "read.iops",
				x[i], "read.clat_p99_ns", x[i] * 1000.0));
		assert_int_equal(tree_fill_summaries(res), 0);
		k = 0;
		json_array_foreach(json_object_get(res, "summaries"), i, e) {
			const char *m = kb_jstr(e, "metric");
			const char *kind = kb_jstr(e, "mean_kind");

			if (!strcmp(m, "read.iops")) {
				k++;
				if (mixed) {
					assert_null(kind);
					assert_true(fabs(json_number_value(
						json_object_get(e, "mean")) -
						3050.0 / 3) < 1e-9);
				} else {
					assert_string_equal(kind, "harmonic");
					assert_true(fabs(json_number_value(
						json_object_get(e, "mean")) -
						3.0 / (1 / 1000.0 +
						1 / 1250.0 + 1 / 800.0)) < 1e-9);
				}
			} else if (!strcmp(m, "read.clat_p99_ns")) {
				assert_null(kind);	/* not a rate */
			}
		}
		assert_int_equal(k, 1);
		json_decref(res);
	}
}

/* kbench compare's base/new means are the summaries' means: harmonic for
 * the rates of fixed-work runs (they were arithmetic, beside a report
 * showing harmonic ones) */
static void test_comparison_means_fixed_work(void **state)
{
	const double xa[] = { 1000.0, 1250.0, 800.0, 1000.0 };
	const double xb[] = { 1100.0, 1300.0, 900.0, 1000.0 };
	double ha = 0.0, hb = 0.0;
	json_t *res, *runs, *e;
	size_t i, k = 0;

	(void)state;
	res = json_pack("{s:i, s:{s:s, s:s, s:[s]}, s:[], s:[]}",
			"schema_version", 1, "campaign", "baseline", "a",
			"order", "interleave", "jobs", "j", "configurations",
			"runs");
	runs = json_object_get(res, "runs");
	for (i = 0; i < 8; i++)
		json_array_append_new(runs, json_pack(
			"{s:s, s:s, s:i, s:b, s:s, s:s, s:{s:f}}",
			"configuration", i % 2 ? "b" : "a", "job", "j",
			"iteration", (int)(i / 2), "warmup", 0, "status", "ok",
			"work", "fixed", "metrics", "read.iops",
			i % 2 ? xb[i / 2] : xa[i / 2]));
	for (i = 0; i < 4; i++) {
		ha += 1.0 / xa[i] / 4.0;
		hb += 1.0 / xb[i] / 4.0;
	}
	assert_int_equal(tree_fill_comparisons(res, NULL), 0);
	json_array_foreach(json_object_get(res, "comparisons"), i, e) {
		if (strcmp(kb_jstr(e, "metric"), "read.iops"))
			continue;
		k++;
		assert_true(fabs(json_number_value(json_object_get(e,
			"mean_baseline")) - 1.0 / ha) < 1e-9);
		assert_true(fabs(json_number_value(json_object_get(e,
			"mean")) - 1.0 / hb) < 1e-9);
	}
	assert_int_equal(k, 1);
	json_decref(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_work_from_fio_options),
		cmocka_unit_test(test_work_from_runtime),
		cmocka_unit_test(test_work_from_job_file),
		cmocka_unit_test(test_summarize_fixed_work),
		cmocka_unit_test(test_summaries_fixed_work),
		cmocka_unit_test(test_comparison_means_fixed_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
