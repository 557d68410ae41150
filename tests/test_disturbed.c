/* tests/test_disturbed.c - stats/disturbed.c on real A/A campaigns of
 * this machine (tests/data/stats/aa-*.csv, from ../shared/data/aa-series):
 * the default rules flag almost no quiet run and every run where other
 * tasks used more than a whole CPU. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "results/json.h"
#include "results/rmodel.h"
#include "reports/report.h"
#include "stats/compare.h"
#include "stats/disturbed.h"
#include "tests/report_fixture.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A results model of an aa-series CSV: configurations a and b, one job,
 * iteration = round (1..N: a campaign with warmup = 1, its warm-ups left
 * out, so the reports number them as the CSV does), every run ok with
 * read.iops, task.other.cpu_pct and cpu.idle_pct (columns 4, 6, 8). */
static json_t *load_csv(const char *path)
{
	FILE *f = fopen(path, "r");
	json_t *runs = json_array();
	char line[512];

	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));	/* header */
	while (fgets(line, sizeof(line), f)) {
		int round;
		char var[8];
		unsigned long long start;
		double iops, p99, other, fio, idle, iow;

		assert_int_equal(sscanf(line, "%d,%7[^,],%llu,%lf,%lf,%lf,%lf,"
					"%lf,%lf", &round, var, &start, &iops,
					&p99, &other, &fio, &idle, &iow), 9);
		json_array_append_new(runs, json_pack(
			"{s:s, s:s, s:i, s:b, s:s, s:{s:f, s:f, s:f}}",
			"configuration", var, "job", "randread-4k",
			"iteration", round, "warmup", 0, "status", "ok",
			"metrics", "read.iops", iops,
			"task.other.cpu_pct", other, "cpu.idle_pct", idle));
	}
	fclose(f);
	return json_pack("{s:{s:s, s:i}, s:o}", "campaign", "baseline", "a",
			 "warmup", 1, "runs", runs);
}

static double num(json_t *run, const char *k)
{
	return json_number_value(json_object_get(json_object_get(run,
						 "metrics"), k));
}

static void test_quiet_not_flagged(void **state)
{
	json_t *res = load_csv("tests/data/stats/aa-quiet.csv");
	size_t d, n;
	int nd;

	(void)state;
	nd = tree_mark_disturbed(res, NULL, 0);
	tree_disturbed_count(res, NULL, NULL, &d, &n);
	assert_int_equal(n, 100);
	assert_int_equal((size_t)nd, d);
	/* fewer than 5% of the quiet runs */
	assert_true(d * 20 < n);
	json_decref(res);
}

/* Each job against its own quiet level: the quiet series as a heavy
 * job, and again as a light job with twice the idle CPU (a helper's
 * trial: randread-4k at 35% idle, seqwrite at 70%, on a quiet
 * machine).  Judged by the campaign's upper quartile (the light job's),
 * the heavy job's runs were under half of it and disturbed. */
static void test_quartiles_per_job(void **state)
{
	json_t *res = load_csv("tests/data/stats/aa-quiet.csv");
	json_t *runs = json_object_get(res, "runs"), *run, *light;
	size_t i, n0 = json_array_size(runs), d, n;
	int nd;

	(void)state;
	for (i = 0; i < n0; i++) {
		run = json_array_get(runs, i);
		light = json_deep_copy(run);
		json_object_set_new(light, "job", json_string("seqwrite"));
		json_object_set_new(json_object_get(light, "metrics"),
			"cpu.idle_pct", json_real(2 * num(run, "cpu.idle_pct")));
		json_array_append_new(runs, light);
	}
	json_object_set_new(json_object_get(res, "campaign"), "jobs",
			    json_pack("[s, s]", "randread-4k", "seqwrite"));
	nd = tree_mark_disturbed(res, NULL, 0);
	tree_disturbed_count(res, NULL, NULL, &d, &n);
	assert_int_equal(n, 2 * n0);
	assert_int_equal((size_t)nd, d);
	/* as few as the quiet series alone gives (fewer than 5%) */
	if (d * 20 >= n)
		fail_msg("%zu of %zu quiet runs of two jobs disturbed", d, n);
	json_decref(res);
}

static void test_load_flagged(void **state)
{
	json_t *res = load_csv("tests/data/stats/aa-switching-load.csv");
	json_t *run;
	size_t i, busy = 0, busy_flagged = 0, d, n;

	(void)state;
	tree_mark_disturbed(res, NULL, 0);
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		if (num(run, "task.other.cpu_pct") <= 100)
			continue;
		busy++;
		if (json_array_size(json_object_get(run, "disturbed")))
			busy_flagged++;
	}
	assert_true(busy >= 30);
	/* at least 95% of the runs where other tasks used > 1 CPU */
	assert_true(busy_flagged * 100 >= busy * 95);
	tree_disturbed_count(res, "a", NULL, &d, &n);
	assert_int_equal(n, 50);
	assert_true(d > 0);
	{
		/* several configurations in one pass: each as counted alone,
		 * NULL all of them, an unknown one none */
		const char *ids[] = { "a", NULL, "nope" };
		size_t ds[3], ns[3], da, na;

		tree_disturbed_counts(res, ids, 3, NULL, ds, ns);
		assert_int_equal(ds[0], d);
		assert_int_equal(ns[0], n);
		tree_disturbed_count(res, NULL, NULL, &da, &na);
		assert_int_equal(ds[1], da);
		assert_int_equal(ns[1], na);
		assert_true(na > n);
		assert_int_equal(ns[2], 0);
		assert_int_equal(ds[2], 0);
	}
	/* the campaign's levels: the lower quartile of task.other is the
	 * quiet level even though most runs are loaded */
	assert_true(json_number_value(json_object_get(json_object_get(res,
		"disturbed_settings"), "other_cpu_q1")) < 30);
	json_decref(res);
}

/* the reason names the metric, the value and the limit; --exclude-
 * disturbed leaves them out of kb_run_counts() and keeps them listed */
static void test_reasons_and_exclude(void **state)
{
	json_t *res = load_csv("tests/data/stats/aa-switching-load.csv");
	json_t *run, *first = NULL;
	size_t i, counted = 0, d, n;

	(void)state;
	tree_mark_disturbed(res, NULL, 1);
	assert_true(json_is_true(json_object_get(json_object_get(res,
		"analysis_options"), "exclude_disturbed")));
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		if (kb_run_counts(run))
			counted++;
		else
			assert_string_equal(kb_jstr(run, "excluded"),
					    "disturbed");
		if (!first && num(run, "task.other.cpu_pct") > 100)
			first = run;
	}
	assert_non_null(first);
	assert_non_null(strstr(json_string_value(json_array_get(
		json_object_get(first, "disturbed"), 0)),
		"task.other.cpu_pct 1"));
	assert_non_null(strstr(json_string_value(json_array_get(
		json_object_get(first, "disturbed"), 0)), "% > 4"));
	tree_disturbed_count(res, NULL, NULL, &d, &n);
	assert_int_equal(counted + d, n);
	/* marking again without exclude puts them back */
	tree_mark_disturbed(res, NULL, 0);
	counted = 0;
	json_array_foreach(json_object_get(res, "runs"), i, run)
		counted += kb_run_counts(run);
	assert_int_equal(counted, n);
	json_decref(res);
}

/* rules "off" (null in campaign.disturbed) and missing metrics never
 * disturb a run */
static void test_off_and_missing(void **state)
{
	json_t *res = load_csv("tests/data/stats/aa-switching-load.csv");
	json_t *run;
	size_t i, d, n;

	(void)state;
	json_object_set_new(json_object_get(res, "campaign"), "disturbed",
		json_pack("{s:n, s:n}", "other_cpu_pct", "idle_fraction"));
	tree_mark_disturbed(res, NULL, 0);
	tree_disturbed_count(res, NULL, NULL, &d, &n);
	assert_int_equal(d, 0);

	json_object_del(json_object_get(res, "campaign"), "disturbed");
	json_array_foreach(json_object_get(res, "runs"), i, run)
		json_object_clear(json_object_get(run, "metrics"));
	tree_mark_disturbed(res, NULL, 0);
	tree_disturbed_count(res, NULL, NULL, &d, &n);
	assert_int_equal(d, 0);
	json_decref(res);
}

static void test_steal_psi(void **state)
{
	json_t *res = json_pack("{s:{}, s:[{s:s, s:s, s:i, s:b, s:s, "
		"s:{s:f, s:f}}, {s:s, s:s, s:i, s:b, s:s, s:{s:f, s:f}}]}",
		"campaign", "runs",
		"configuration", "a", "job", "j", "iteration", 1, "warmup", 0,
		"status", "ok", "metrics", "cpu.steal_pct", 7.5,
		"psi.cpu_some_pct", 3.0,
		"configuration", "a", "job", "j", "iteration", 2, "warmup", 0,
		"status", "ok", "metrics", "cpu.steal_pct", 0.2,
		"psi.cpu_some_pct", 85.0);
	json_t *runs = json_object_get(res, "runs");

	(void)state;
	assert_int_equal(tree_mark_disturbed(res, NULL, 0), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
		json_array_get(runs, 0), "disturbed"), 0)),
		"cpu.steal_pct 7.5% > 5.0%");
	assert_string_equal(json_string_value(json_array_get(json_object_get(
		json_array_get(runs, 1), "disturbed"), 0)),
		"psi.cpu_some_pct 85% > 40%");
	json_decref(res);
}

/* A value and a limit that print alike at their precision get more
 * decimals until they differ ("cpu.idle_pct 15% < 15%" in a new-user
 * trial): idle 14.96 under half the upper quartile 30. */
static void test_reason_decimals(void **state)
{
	json_t *runs = json_array(), *res;
	static const double idle[] = { 30, 30, 30, 14.96 };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		json_array_append_new(runs, json_pack("{s:s, s:s, s:i, s:b, "
			"s:s, s:{s:f}}", "configuration", "a", "job", "j",
			"iteration", (int)i + 1, "warmup", 0, "status", "ok",
			"metrics", "cpu.idle_pct", idle[i]));
	res = json_pack("{s:{}, s:o}", "campaign", "runs", runs);
	assert_int_equal(tree_mark_disturbed(res, NULL, 0), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
		json_array_get(runs, 3), "disturbed"), 0)),
		"cpu.idle_pct 14.96% < 15.00%");
	json_decref(res);
}

/* text with every line break and the indentation after it as one space
 * (the report wraps at 80 columns), in place */
static void unwrap(char *s)
{
	char *d = s;

	while (*s) {
		if (*s == '\n') {
			while (s[1] == ' ')
				s++;
			*d++ = ' ';
			s++;
			continue;
		}
		*d++ = *s++;
	}
	*d = '\0';
}

/* The text report of aa-quiet.csv (configurations a and b) with b's
 * first nmarked runs pushed past the other-CPU limit (130% of a CPU):
 * malloc'd, line breaks unwrapped; KBENCH_TEST_DUMP=1 prints it. */
static char *report_with_marked(size_t nmarked)
{
	json_t *res = load_csv("tests/data/stats/aa-quiet.csv"), *run;
	char *buf = NULL;
	size_t len = 0, i, nb = 0;
	FILE *f;

	json_object_set_new(json_object_get(res, "campaign"), "name",
			    json_string("aa-quiet"));
	json_object_set_new(json_object_get(res, "campaign"), "jobs",
			    json_pack("[s]", "randread-4k"));
	json_object_set_new(res, "configurations", json_pack("[{s:s}, {s:s}]",
			    "id", "a", "id", "b"));
	json_object_set_new(res, "summaries", json_array());
	json_array_foreach(json_object_get(res, "runs"), i, run)
		if (!strcmp(kb_jstr(run, "configuration"), "b") &&
		    nb++ < nmarked)
			json_object_set_new(json_object_get(run, "metrics"),
				"task.other.cpu_pct", json_real(130.0));
	assert_int_equal(tree_mark_disturbed(res, NULL, 0), (int)nmarked);
	assert_int_equal(tree_analyse(res, NULL), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(render_results(f, res, "text", NULL), 0);
	fclose(f);
	if (getenv("KBENCH_TEST_DUMP"))
		fputs(buf, stderr);
	unwrap(buf);
	json_decref(res);
	return buf;
}

/* The report: the header says how busy the machine was, the notes list
 * the share per configuration, and b, disturbed more often than the
 * baseline, is a finding. */
static void test_report_notes(void **state)
{
	char *buf = report_with_marked(10);

	(void)state;
	/* busy for the share of disturbed runs: said first, the median
	 * (28%, under the limit) after it ("busy: other tasks used 4% of
	 * a CPU ..., 1 of 6 runs disturbed" read as a contradiction) */
	if (!strstr(buf, "Machine:     busy: 10 of 100 runs disturbed (by "
		    "task.other.cpu_pct 10); other tasks used 28% of a CPU "
		    "during the runs (median)") ||
	    !strstr(buf, "(task.other.cpu_pct 130% > 42%), 2") ||
	    !strstr(buf, "a 0 of 50 (0%), b 10 of 50 (20%)") ||
	    !strstr(buf, "finding: b was disturbed more often") ||
	    !strstr(buf, "disturbed: b randread-4k iteration 1"))
		fail_msg("unexpected report (KBENCH_TEST_DUMP=1 prints it)");
	free(buf);
}

/* A configuration with many disturbed runs: the note names the first 20
 * one by one and says how many more there are and where they all are
 * (a 100k-run campaign on a busy machine printed every one: 7 MB). */
static void test_report_notes_capped(void **state)
{
	char *buf = report_with_marked(30), *p;
	size_t named = 0;

	(void)state;
	p = strstr(buf, "disturbed: b randread-4k iteration ");
	assert_non_null(p);
	for (p = strstr(p, "(task.other.cpu_pct"); p && named < 100;
	     p = strstr(p + 1, "(task.other.cpu_pct"))
		named++;
	if (named != 20 || !strstr(buf, "), and 10 more (results.json: "
				   ".runs[].disturbed for every one)") ||
	    !strstr(buf, "b 30 of 50 (60%)"))
		fail_msg("%zu runs named, or no 'and 10 more' note", named);
	free(buf);
}

/* The header's busy/quiet and the marks are one rule: 60 of the 100
 * quiet runs at 41% other-CPU put the median (41%) above the raw key
 * (40%) but under the limit the marks use (1.5 x the lower quartile of
 * about 29%: 43.5%), so no run is disturbed and the machine is quiet;
 * the report must not say "busy" over "0 of 100 runs disturbed".  The
 * same runs judged against a key of 35 are all disturbed: busy. */
static void test_busy_one_rule(void **state)
{
	json_t *res = load_csv("tests/data/stats/aa-quiet.csv"), *run;
	struct kb_disturbed_rules r;
	double other, lim;
	size_t i, d, n;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	json_array_foreach(json_object_get(res, "runs"), i, run)
		if (i % 5 < 3)
			json_object_set_new(json_object_get(run, "metrics"),
				"task.other.cpu_pct", json_real(41.0));
	assert_int_equal(tree_machine_busy(res, &other, &d, &n), -1);
	assert_int_equal(tree_mark_disturbed(res, NULL, 0), 0);
	lim = json_number_value(json_object_get(json_object_get(res,
		"disturbed_settings"), "other_cpu_limit"));
	assert_true(other > KB_DISTURBED_OTHER_CPU_PCT && other < lim);
	assert_int_equal(tree_machine_busy(res, &other, &d, &n), 2);
	assert_int_equal(d, 0);
	assert_int_equal(n, 100);
	json_object_set_new(json_object_get(res, "campaign"), "jobs",
			    json_pack("[s]", "randread-4k"));
	json_object_set_new(res, "configurations", json_pack("[{s:s}, {s:s}]",
			    "id", "a", "id", "b"));
	assert_int_equal(tree_analyse(res, NULL), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(render_results(f, res, "text", NULL), 0);
	fclose(f);
	unwrap(buf);
	/* 41% of a CPU all along: not disturbed (the campaign's own
	 * level), but not called quiet (a new user's trial) */
	if (!strstr(buf, "Machine:     steady load: other tasks used 41% of a") ||
	    !strstr(buf, "0 of 100 runs disturbed (a load present all along"))
		fail_msg("unexpected header:\n%s", buf);
	free(buf);

	kb_disturbed_rules_init(&r);
	r.other_cpu_pct = 35.0;
	r.other_factor = NAN;
	assert_int_equal(tree_mark_disturbed(res, &r, 0), 60);
	assert_int_equal(tree_machine_busy(res, NULL, &d, &n), 1);
	assert_int_equal(d, 60);
	json_decref(res);
}

/* The quantiles by selection (issue 16: no sort) are bit for bit GSL's
 * interpolated quantiles of the sorted values: other_cpu_q1, idle_q3 and
 * stats_runs_median_in() (tree_runs_median()) on samples of 1 to 200 counted runs (random values,
 * many of them tied), with failed and warm-up runs that must not count. */
static void test_quantiles_as_sorted(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t n, i, trial;

	(void)state;
	gsl_rng_set(rng, 16);
	for (trial = 0; trial < 300; trial++) {
		json_t *runs = json_array(), *res, *set;
		double *other, *idle;

		n = 1 + gsl_rng_uniform_int(rng, 200);
		other = calloc(n, sizeof(*other));
		idle = calloc(n, sizeof(*idle));
		for (i = 0; i < n; i++) {
			/* a tenth of the values tied on whole numbers */
			other[i] = gsl_rng_uniform(rng) < 0.1 ?
				   (double)gsl_rng_uniform_int(rng, 5) :
				   100.0 * gsl_rng_uniform(rng);
			idle[i] = 50.0 + 50.0 * gsl_rng_uniform(rng);
			json_array_append_new(runs, json_pack(
				"{s:s, s:s, s:b, s:s, s:{s:f, s:f}}",
				"configuration", "a", "job", "randread-4k",
				"warmup", 0, "status", "ok", "metrics",
				"task.other.cpu_pct", other[i],
				"cpu.idle_pct", idle[i]));
		}
		/* not counted: a failed run and a warm-up */
		json_array_append_new(runs, json_pack("{s:s, s:b, s:{s:f}}",
			"status", "failed", "warmup", 0, "metrics",
			"task.other.cpu_pct", -1e9));
		json_array_append_new(runs, json_pack("{s:s, s:b, s:{s:f}}",
			"status", "ok", "warmup", 1, "metrics",
			"task.other.cpu_pct", 1e9));
		res = json_pack("{s:{}, s:o}", "campaign", "runs", runs);
		tree_mark_disturbed(res, NULL, 0);
		set = json_object_get(res, "disturbed_settings");
		gsl_sort(other, 1, n);
		gsl_sort(idle, 1, n);
		assert_true(json_number_value(json_object_get(set,
			"other_cpu_q1")) ==
			gsl_stats_quantile_from_sorted_data(other, 1, n, 0.25));
		assert_true(json_number_value(json_object_get(set,
			"idle_q3")) ==
			gsl_stats_quantile_from_sorted_data(idle, 1, n, 0.75));
		assert_true(tree_runs_median(res, "task.other.cpu_pct") ==
			    gsl_stats_quantile_from_sorted_data(other, 1, n,
								0.5));
		free(other);
		free(idle);
		json_decref(res);
	}
	gsl_rng_free(rng);
}

/* The typed forms (stats_mark_disturbed_in() and friends) on one model:
 * the same marks and counts as on a copy whose model each call builds
 * anew (tests/stats_tree.h), and the
 * model kept in step with the tree (each run's info.disturbed, counts
 * and groups after --exclude-disturbed, campaign.disturbed). */
static void test_typed_model(void **state)
{
	json_t *res = load_csv("tests/data/stats/aa-switching-load.csv");
	json_t *copy = json_deep_copy(res);
	struct kb_rmodel *m = kb_rmodel__new(res);
	const char *ids[] = { "a", "b" };
	size_t ds[2], ns[2], dj[2], nj[2], r, ng, c = 0, d, n;
	double other, other_j;
	int nd;

	(void)state;
	assert_non_null(m);
	assert_int_equal(stats_machine_busy_in(m, NULL, &d, &n), -1);
	nd = stats_mark_disturbed_in(m, NULL, 1);
	assert_int_equal(tree_mark_disturbed(copy, NULL, 1), nd);
	assert_true(nd > 0);
	assert_true(json_equal(res, copy));
	assert_true(m->campaign.disturbed.present);
	assert_true(m->campaign.disturbed.other_cpu_limit >= 40.0);
	stats_disturbed_counts_in(m, ids, 2, "randread-4k", ds, ns);
	tree_disturbed_counts(copy, ids, 2, "randread-4k", dj, nj);
	assert_memory_equal(ds, dj, sizeof(ds));
	assert_memory_equal(ns, nj, sizeof(ns));
	assert_int_equal(ds[0] + ds[1], (size_t)nd);
	assert_int_equal(stats_machine_busy_in(m, &other, &d, &n),
			 tree_machine_busy(copy, &other_j, &dj[0], &nj[0]));
	assert_true(other == other_j);
	assert_true(other == tree_runs_median(copy, "task.other.cpu_pct"));
	for (r = 0; r < m->nruns; r++) {
		assert_int_equal(m->runs[r].info.disturbed.n,
			json_array_size(json_object_get(m->runs[r].json,
							"disturbed")));
		assert_int_equal(m->runs[r].counts,
				 !m->runs[r].info.disturbed.n);
		c += m->runs[r].counts;
	}
	kb_rmodel__group(m, 0, 0, &ng);
	r = ng;
	kb_rmodel__group(m, 1, 0, &ng);
	assert_int_equal(r + ng, c);
	assert_int_equal(c + (size_t)nd, m->nruns);
	kb_rmodel__delete(m);
	json_decref(res);
	json_decref(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_not_flagged),
		cmocka_unit_test(test_load_flagged),
		cmocka_unit_test(test_reasons_and_exclude),
		cmocka_unit_test(test_off_and_missing),
		cmocka_unit_test(test_steal_psi),
		cmocka_unit_test(test_reason_decimals),
		cmocka_unit_test(test_report_notes),
		cmocka_unit_test(test_report_notes_capped),
		cmocka_unit_test(test_busy_one_rule),
		cmocka_unit_test(test_quartiles_per_job),
		cmocka_unit_test(test_quantiles_as_sorted),
		cmocka_unit_test(test_typed_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
