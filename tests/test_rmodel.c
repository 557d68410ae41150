/* tests/test_rmodel.c - the typed results model (results/rmodel.h) built
 * from a small jansson model written out here: the order of
 * configurations, jobs and metrics, which runs count, NAN for what was not
 * measured, the groups of counted runs, merged campaigns, dropping a
 * value; the campaign metadata and run info (results/campaign_info.h),
 * its comparison and disturbed settings; the outlier bookkeeping;
 * stats_baseline_for() on it, one model through stats_analyse(); a
 * merged model's names and the analysis read back;
 * and whole-file JSON loads (parsers/json_file.h) telling a missing file
 * from a damaged one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "lib/err.h"
#include "parsers/json_file.h"
#include "results/model.h"
#include "results/rmodel.h"
#include "results/json.h"
#include "stats/compare.h"
#include "stats/summary.h"

/* Two configurations (b listed first), one job, runs in run order:
 * a/0 ok, b/0 ok, a/1 warm-up, a/2 failed, b/1 excluded, a/3 ok with a
 * null and a string value, b/2 from another campaign, x/0 of a
 * configuration only a run names. */
static json_t *fixture(void)
{
	json_error_t err;
	json_t *j = json_loads(
		"{\"campaign\": {\"jobs\": [\"rr\"]},"
		" \"configurations\": [{\"id\": \"b\"}, {\"id\": \"a\"}],"
		" \"runs\": ["
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 0,"
		"   \"status\": \"ok\", \"warmup\": false,"
		"   \"metrics\": {\"zz.custom\": 7, \"read.iops\": 100.5}},"
		"  {\"configuration\": \"b\", \"job\": \"rr\", \"iteration\": 0,"
		"   \"status\": \"ok\", \"warmup\": false, \"order\": 9,"
		"   \"work\": \"fixed\","
		"   \"metrics\": {\"read.iops\": 200, \"zz.custom\": 8}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 1,"
		"   \"status\": \"ok\", \"warmup\": true,"
		"   \"metrics\": {\"read.iops\": 1}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 2,"
		"   \"status\": \"failed\", \"warmup\": false,"
		"   \"metrics\": {\"read.iops\": 2}},"
		"  {\"configuration\": \"b\", \"job\": \"rr\", \"iteration\": 1,"
		"   \"status\": \"ok\", \"warmup\": false, \"excluded\": \"x\","
		"   \"metrics\": {\"read.iops\": 3}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 3,"
		"   \"status\": \"ok\", \"warmup\": false,"
		"   \"metrics\": {\"read.iops\": null, \"zz.custom\": \"n/a\","
		"                 \"write.iops\": 5}},"
		"  {\"configuration\": \"b\", \"job\": \"rr\", \"iteration\": 2,"
		"   \"status\": \"ok\", \"warmup\": false, \"campaign\": \"c2\","
		"   \"metrics\": {\"read.iops\": 201}},"
		"  {\"configuration\": \"x\", \"job\": \"seq\", \"iteration\": 0,"
		"   \"status\": \"ok\", \"warmup\": false, \"metrics\": {}}"
		"]}", 0, &err);

	if (!j)
		fail_msg("fixture: %s at %d", err.text, err.line);
	return j;
}

static void test_names_and_values(void **state)
{
	json_t *res = fixture();
	struct kb_rmodel *m = kb_rmodel__new(res);
	size_t iops, custom, wiops;

	(void)state;
	assert_non_null(m);
	assert_int_equal(m->nruns, 8);
	/* configurations as listed, then the one only a run names */
	assert_int_equal(m->configs.n, 3);
	assert_string_equal(m->configs.v[0], "b");
	assert_string_equal(m->configs.v[1], "a");
	assert_string_equal(m->configs.v[2], "x");
	assert_int_equal(m->jobs.n, 2);
	assert_string_equal(m->jobs.v[1], "seq");
	/* metrics in the order first met, numbers only */
	assert_int_equal(m->nmetrics, 3);
	custom = kb_rmodel__metric(m, "zz.custom");
	iops = kb_rmodel__metric(m, "read.iops");
	wiops = kb_rmodel__metric(m, "write.iops");
	assert_int_equal(custom, 0);
	assert_int_equal(iops, 1);
	assert_int_equal(wiops, 2);
	assert_int_equal(kb_rmodel__metric(m, "trim.iops"), KB_RMODEL_NONE);
	assert_string_equal(m->metrics[iops].unit, "IOPS");
	assert_int_equal(m->metrics[iops].direction, KB_HIGHER_BETTER);
	assert_null(m->metrics[custom].def);
	assert_string_equal(m->metrics[custom].unit, "");
	assert_int_equal(m->metrics[custom].direction, KB_NEUTRAL);
	/* values; NAN where absent, null or not a number */
	assert_true(kb_rmodel__value(m, 0, iops) == 100.5);
	assert_true(kb_rmodel__value(m, 1, custom) == 8.0);
	assert_true(isnan(kb_rmodel__value(m, 5, iops)));
	assert_true(isnan(kb_rmodel__value(m, 5, custom)));
	assert_true(kb_rmodel__value(m, 5, wiops) == 5.0);
	assert_true(isnan(kb_rmodel__value(m, 0, wiops)));
	/* the string value of a counted run is named for a warning */
	assert_int_equal(m->nbad, 1);
	assert_int_equal(m->bad[0].run, 5);
	assert_string_equal(m->bad[0].metric, "zz.custom");
	kb_rmodel__delete(m);
	json_decref(res);
}

/* Values no statistic may take (a report aborted inside GSL on one of
 * -1e300): out of range (|v| > KB_METRIC_ABS_MAX) and negative values of
 * lib/metrics.h's metrics are NAN and named for counted runs; a negative
 * value of a metric kbench does not know is kept; a warm-up's bad value
 * is left out without a name. */
static void test_value_ranges(void **state)
{
	json_error_t err;
	json_t *res = json_loads(
		"{\"campaign\": {\"jobs\": [\"rr\"]},"
		" \"configurations\": [{\"id\": \"a\"}],"
		" \"runs\": ["
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 1,"
		"   \"status\": \"ok\", \"warmup\": false,"
		"   \"metrics\": {\"read.iops\": -1e300, \"zz.delta\": -5,"
		"                 \"read.clat_mean_ns\": 1e18}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 2,"
		"   \"status\": \"ok\", \"warmup\": false,"
		"   \"metrics\": {\"read.iops\": -5, \"zz.delta\": 2e18,"
		"                 \"read.clat_mean_ns\": 1.5e18}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 0,"
		"   \"status\": \"ok\", \"warmup\": true,"
		"   \"metrics\": {\"read.iops\": -7}}"
		"]}", 0, &err);
	struct kb_rmodel *m;
	size_t iops, delta, clat, i, named = 0;

	(void)state;
	if (!res)
		fail_msg("%s", err.text);
	m = kb_rmodel__new(res);
	assert_non_null(m);
	iops = kb_rmodel__metric(m, "read.iops");
	delta = kb_rmodel__metric(m, "zz.delta");
	clat = kb_rmodel__metric(m, "read.clat_mean_ns");
	assert_true(isnan(kb_rmodel__value(m, 0, iops)));
	assert_true(isnan(kb_rmodel__value(m, 1, iops)));
	assert_true(isnan(kb_rmodel__value(m, 2, iops)));
	assert_true(kb_rmodel__value(m, 0, delta) == -5.0);
	assert_true(isnan(kb_rmodel__value(m, 1, delta)));
	assert_true(kb_rmodel__value(m, 0, clat) == 1e18);
	assert_true(isnan(kb_rmodel__value(m, 1, clat)));
	assert_int_equal(m->nbad, 4);
	for (i = 0; i < m->nbad; i++) {
		const struct kb_rbad *b = &m->bad[i];

		assert_true(b->run < 2);	/* not the warm-up */
		if (!strcmp(b->metric, "read.iops") && b->run == 0)
			named += !strcmp(b->why, "is out of range") &&
				 b->value == -1e300;
		else if (!strcmp(b->metric, "read.iops"))
			named += !strcmp(b->why, "is negative") &&
				 b->value == -5.0;
		else if (!strcmp(b->metric, "zz.delta"))
			named += !strcmp(b->why, "is out of range");
		else if (!strcmp(b->metric, "read.clat_mean_ns"))
			named += b->run == 1;
	}
	assert_int_equal(named, 4);
	kb_rmodel__delete(m);
	json_decref(res);
}

/* A run twice in the results (an edited or concatenated file): the copy
 * is left out ("excluded": "duplicate"), not a second sample; the same
 * iteration of another configuration or campaign is no copy. */
/* kb_rmodel__new(res) with what it printed in *msg (malloc'd). */
static struct kb_rmodel *model_said(json_t *res, char **msg)
{
	struct capture c;
	struct kb_rmodel *m;

	cap_begin(&c);
	m = kb_rmodel__new(res);
	*msg = cap_end(&c);
	return m;
}

/* A damaged "iteration" (a string, a fraction, negative) or a run
 * without a configuration: said, and left out, not read as round 0 (a
 * helper's trial: "abc" paired the run with round 0 in silence). */
static void test_damaged_runs(void **state)
{
	json_error_t err;
	json_t *res = json_loads(
		"{\"campaign\": {\"jobs\": [\"rr\"]},"
		" \"configurations\": [{\"id\": \"a\"}],"
		" \"runs\": ["
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 0,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 10}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": \"abc\","
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 11}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 1.5,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 12}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": -1,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 13}},"
		"  {\"configuration\": 5, \"job\": \"rr\", \"iteration\": 2,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 14}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 3,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 15}}"
		"]}", 0, &err);
	struct kb_rmodel *m;
	char *msg;
	size_t n;

	(void)state;
	if (!res)
		fail_msg("%s", err.text);
	m = model_said(res, &msg);
	if (!strstr(msg, "4 run(s) of the results have no \"configuration\" "
		    "or \"job\" string, or an \"iteration\" that is not a whole "
		    "number >= 0 (first: runs[1];") ||
	    !strstr(msg, "each is left out of the statistics"))
		fail_msg("the damaged runs' warning:\n%s", msg);
	free(msg);
	assert_non_null(m);
	assert_true(m->runs[0].counts && m->runs[5].counts);
	assert_false(m->runs[1].counts || m->runs[2].counts ||
		     m->runs[3].counts);
	kb_rmodel__group(m, kb_rmodel__config(m, "a"), kb_rmodel__job(m, "rr"),
			 &n);
	assert_int_equal(n, 2);
	kb_rmodel__delete(m);
	json_decref(res);
}

static void test_duplicate_runs(void **state)
{
	json_error_t err;
	json_t *res = json_loads(
		"{\"campaign\": {\"jobs\": [\"rr\"]},"
		" \"configurations\": [{\"id\": \"a\"}, {\"id\": \"b\"}],"
		" \"runs\": ["
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 1,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 10}},"
		"  {\"configuration\": \"b\", \"job\": \"rr\", \"iteration\": 1,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 11}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 2,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 12}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"iteration\": 1,"
		"   \"status\": \"ok\", \"metrics\": {\"read.iops\": 10}}"
		"]}", 0, &err);
	struct kb_rmodel *m;
	char *msg;
	size_t n;

	(void)state;
	if (!res)
		fail_msg("%s", err.text);
	m = model_said(res, &msg);
	/* says which copy counts (a helper read "each copy is left out"
	 * as both) */
	if (!strstr(msg, "1 run(s) appear twice in the results (first: a rr "
		    "iteration ") || !strstr(msg, ", runs[3]): the first of "
		    "each is kept, every later copy left out of the statistics"))
		fail_msg("the duplicate's warning:\n%s", msg);
	free(msg);
	assert_non_null(m);
	assert_true(m->runs[0].counts && m->runs[1].counts &&
		    m->runs[2].counts);
	assert_false(m->runs[3].counts);
	assert_string_equal(kb_jstr(m->runs[3].json, "excluded"), "duplicate");
	kb_rmodel__group(m, kb_rmodel__config(m, "a"), kb_rmodel__job(m, "rr"),
			 &n);
	assert_int_equal(n, 2);
	kb_rmodel__delete(m);
	json_decref(res);
	/* runs without an "iteration" (optional) are no copies */
	res = json_loads(
		"{\"campaign\": {\"jobs\": [\"rr\"]},"
		" \"configurations\": [{\"id\": \"a\"}],"
		" \"runs\": ["
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"status\": \"ok\","
		"   \"metrics\": {\"read.iops\": 10}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"status\": \"ok\","
		"   \"metrics\": {\"read.iops\": 12}},"
		"  {\"configuration\": \"a\", \"job\": \"rr\", \"status\": \"ok\","
		"   \"metrics\": {\"read.iops\": 14}}"
		"]}", 0, &err);
	assert_non_null(res);
	m = kb_rmodel__new(res);
	assert_non_null(m);
	kb_rmodel__group(m, kb_rmodel__config(m, "a"), kb_rmodel__job(m, "rr"),
			 &n);
	assert_int_equal(n, 3);
	kb_rmodel__delete(m);
	json_decref(res);
}

static void test_runs_and_groups(void **state)
{
	json_t *res = fixture();
	struct kb_rmodel *m = kb_rmodel__new(res);
	size_t a = kb_rmodel__config(m, "a"), b = kb_rmodel__config(m, "b");
	size_t rr = kb_rmodel__job(m, "rr"), n;
	const size_t *g;

	(void)state;
	assert_int_equal(a, 1);
	assert_int_equal(kb_rmodel__config(m, "nope"), KB_RMODEL_NONE);
	assert_int_equal(kb_rmodel__job(m, NULL), KB_RMODEL_NONE);
	/* which runs count, and the run order */
	assert_true(m->runs[0].counts && m->runs[0].ok);
	/* "work": "fixed" (stats/summary.c: the harmonic mean) */
	assert_true(m->runs[1].fixed_work && !m->runs[0].fixed_work);
	assert_true(m->runs[2].warmup && !m->runs[2].counts);
	assert_true(!m->runs[3].ok && !m->runs[3].counts);
	assert_true(m->runs[4].ok && !m->runs[4].counts);	/* excluded */
	assert_true(m->runs[1].order == 9.0);
	assert_true(m->runs[3].order == 3.0);
	assert_int_equal(m->runs[5].iteration, 3);
	assert_true(m->runs[0].json == json_array_get(json_object_get(res,
						      "runs"), 0));
	/* merged campaigns: "" is 0, another campaign another index */
	assert_int_equal(m->runs[0].campaign, 0);
	assert_int_equal(m->runs[6].campaign, 1);
	/* the counted runs of (a, rr) and (b, rr), in run order */
	g = kb_rmodel__group(m, a, rr, &n);
	assert_int_equal(n, 2);
	assert_int_equal(g[0], 0);
	assert_int_equal(g[1], 5);
	g = kb_rmodel__group(m, b, rr, &n);
	assert_int_equal(n, 2);
	assert_int_equal(g[0], 1);
	assert_int_equal(g[1], 6);
	kb_rmodel__group(m, a, kb_rmodel__job(m, "seq"), &n);
	assert_int_equal(n, 0);
	kb_rmodel__group(m, KB_RMODEL_NONE, rr, &n);
	assert_int_equal(n, 0);
	/* each group's values in its own order, the matrix's numbers */
	{
		size_t c, j, k, t;
		const double *gv;

		for (c = 0; c < m->configs.n; c++)
			for (j = 0; j < m->jobs.n; j++)
				for (k = 0; k < m->nmetrics; k++) {
					g = kb_rmodel__group(m, c, j, &n);
					gv = kb_rmodel__group_values(m, c, j,
								     k);
					assert_true(!n == !gv);
					for (t = 0; t < n; t++)
						assert_memory_equal(&gv[t],
							&m->values[k * m->nruns +
								   g[t]],
							sizeof(double));
				}
		assert_null(kb_rmodel__group_values(m, a, rr,
						    KB_RMODEL_NONE));
		gv = kb_rmodel__group_values(m, b, rr, 1);
		assert_true(gv[0] == 200.0 && gv[1] == 201.0);
	}
	/* a dropped value is not measured any more, in either place */
	kb_rmodel__drop(m, 6, kb_rmodel__metric(m, "read.iops"));
	assert_true(isnan(kb_rmodel__value(m, 6, 1)));
	assert_true(kb_rmodel__value(m, 1, 1) == 200.0);
	assert_true(isnan(kb_rmodel__group_values(m, b, rr, 1)[1]));
	assert_true(kb_rmodel__group_values(m, b, rr, 1)[0] == 200.0);
	kb_rmodel__delete(m);
	json_decref(res);
}

static void test_no_runs(void **state)
{
	json_t *res = json_pack("{s:{}}", "campaign");

	(void)state;
	kb_silent = 1;
	assert_null(kb_rmodel__new(res));
	kb_silent = 0;
	json_decref(res);
}

static void test_json_load_whole(void **state)
{
	char dir[] = "/tmp/kbench-test-rmodel.XXXXXX", path[256];
	json_t *j;
	FILE *f;
	int missing = -1;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.json", dir);
	/* missing: no error, said so */
	assert_null(kb_json_load_existing(path, &missing));
	assert_int_equal(missing, 1);
	/* a file larger than one read, whole */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"a\": [", f);
	for (int i = 0; i < 20000; i++)
		fprintf(f, "%d, ", i);
	fputs("1]}\n", f);
	fclose(f);
	j = kb_json_load_existing(path, &missing);
	assert_non_null(j);
	assert_int_equal(missing, 0);
	assert_int_equal(json_array_size(json_object_get(j, "a")), 20001);
	json_decref(j);
	/* damaged: NULL, not missing */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"a\": 1,\n \"b\": }", f);
	fclose(f);
	kb_silent = 1;
	assert_null(kb_json_load_existing(path, &missing));
	assert_int_equal(missing, 0);
	assert_null(kb_json_load(path));
	kb_silent = 0;
	unlink(path);
	rmdir(dir);
}

/* The campaign metadata and per-run info (results/campaign_info.h):
 * filled with the model, absent members NULL / NAN / -1, tunable values
 * by the campaign's tunable order, the vm facts of a variant. */
static void test_campaign_info(void **state)
{
	json_error_t err;
	json_t *res = json_loads(
		"{\"campaign\": {\"name\": \"demo\", \"baseline\": \"s,NM=0\","
		"  \"order\": \"block\", \"target\": \"loop:64M\","
		"  \"iterations\": 3, \"warmup\": 1, \"runtime_s\": 5,"
		"  \"jobs\": [\"rr\", \"sw\"], \"hosts\": [\"h1:8765\"],"
		"  \"tunables\": [{\"label\": \"NM\", \"path\": \"queue/nomerges\"},"
		"                 {\"label\": \"numjobs\", \"sweep\": true}],"
		"  \"environment\": {\"uname\": \"Linux x\", \"cpus\": 4,"
		"    \"fio_version\": \"fio-3.33\", \"vm\": {\"accel\": \"tcg\","
		"    \"variants\": {\"g\": {\"guest_release\": \"6.1\","
		"                           \"accel\": \"tcg\"}}}}},"
		" \"configurations\": ["
		"  {\"id\": \"s,NM=0\", \"variant\": \"s\", \"method\": \"local\","
		"   \"tunables\": {\"NM\": \"0\"}},"
		"  {\"id\": \"g,NM=2\", \"variant\": \"g\", \"method\": \"vm\","
		"   \"tunables\": {\"NM\": \"2\"}}],"
		" \"disturbed_settings\": {\"other_cpu_pct\": 41, \"steal_pct\": null},"
		" \"runs\": ["
		"  {\"configuration\": \"s,NM=0\", \"job\": \"rr\", \"status\": \"ok\","
		"   \"params\": {\"numjobs\": \"4\"}, \"excluded\": \"disturbed\","
		"   \"disturbed\": [\"a\", \"b\"], \"outliers\": [\"read.iops\"],"
		"   \"flags\": {\"steal\": 1},"
		"   \"metrics\": {}},"
		"  {\"configuration\": \"g,NM=2\", \"job\": \"rr\","
		"   \"status\": \"failed\", \"reason\": \"boot\", \"metrics\": {}}"
		"]}", 0, &err);
	struct kb_rmodel *m;
	const struct kb_rcampaign *c;
	const struct kb_rconfig *g;

	(void)state;
	assert_non_null(res);
	m = kb_rmodel__new(res);
	assert_non_null(m);
	c = &m->campaign;
	assert_string_equal(c->name, "demo");
	assert_string_equal(c->baseline, "s,NM=0");
	assert_string_equal(c->order, "block");
	assert_string_equal(c->target, "loop:64M");
	assert_int_equal(c->iterations, 3);
	assert_int_equal(c->warmup, 1);
	assert_true(c->runtime_s == 5.0);
	assert_int_equal(c->jobs.n, 2);
	assert_string_equal(c->jobs.v[1], "sw");
	assert_int_equal(c->hosts.n, 1);
	assert_int_equal(c->merged_from.n, 0);
	assert_int_equal(c->ntunables, 2);
	assert_string_equal(c->tunables[0].path, "queue/nomerges");
	assert_true(c->tunables[1].sweep && !c->tunables[1].path);
	assert_int_equal(kb_rcampaign__tunable(c, "numjobs"), 1);
	assert_int_equal(kb_rcampaign__tunable(c, "nope"), (size_t)-1);
	assert_int_equal(c->nconfigs, 2);
	g = kb_rcampaign__config(c, "g,NM=2");
	assert_ptr_equal(g, &c->configs[1]);
	assert_null(kb_rcampaign__config(c, "x"));
	assert_string_equal(g->method, "vm");
	assert_string_equal(g->tunable_values[0], "2");
	assert_null(g->tunable_values[1]);
	assert_string_equal(g->guest_release, "6.1");
	assert_string_equal(g->accel, "tcg");
	assert_null(c->configs[0].accel);
	assert_string_equal(kb_rconfig__tunable(g, "NM"), "2");
	assert_null(kb_rconfig__tunable(g, "numjobs"));
	assert_null(kb_rconfig__tunable(NULL, "NM"));
	{
		const char *labels[4];

		assert_int_equal(kb_rcampaign__labels(c, labels, 4), 1);
		assert_string_equal(labels[0], "NM");
		assert_int_equal(kb_rcampaign__labels(c, labels, 0), 0);
	}
	assert_string_equal(c->env.uname, "Linux x");
	assert_int_equal(c->env.cpus, 4);
	assert_null(c->env.hostname);
	assert_string_equal(c->env.vm_accel, "tcg");
	assert_int_equal(c->nenvs, 0);
	assert_true(c->disturbed.present);
	assert_true(c->disturbed.other_cpu_pct == 41.0);
	assert_true(isnan(c->disturbed.steal_pct));
	/* per run */
	assert_string_equal(m->runs[0].info.excluded, "disturbed");
	assert_int_equal(m->runs[0].info.disturbed.n, 2);
	assert_string_equal(m->runs[0].info.disturbed.v[1], "b");
	assert_string_equal(m->runs[0].info.outliers.v[0], "read.iops");
	assert_string_equal(kb_rrun_info__param(&m->runs[0].info, "numjobs"),
			    "4");
	assert_null(kb_rrun_info__param(&m->runs[1].info, "numjobs"));
	assert_string_equal(m->runs[1].info.reason, "boot");
	assert_true(!m->runs[0].info.has_iteration);
	/* flags of any type; non-empty array or object: flagged */
	assert_true(m->runs[0].info.has_flags && m->runs[0].info.flagged);
	assert_true(m->runs[0].info.has_excluded);
	assert_true(!m->runs[1].info.has_flags && !m->runs[1].info.flagged);
	assert_true(!m->runs[1].info.has_excluded);
	assert_int_equal(m->runs[1].info.flags.n, 0);
	kb_rmodel__delete(m);
	json_decref(res);
}

/* The comparison and disturbed settings kernels.conf put in campaign
 * (results/campaign_info.h): NAN / not given when absent, per-metric
 * numbers only, null rules off; a metric named only with a null value. */
/* The model of doc, which must have loaded and must build one. */
static struct kb_rmodel *model_of(json_t *doc)
{
	struct kb_rmodel *m;

	assert_non_null(doc);
	m = kb_rmodel__new(doc);
	assert_non_null(m);
	return m;
}

static void test_campaign_settings(void **state)
{
	json_error_t err;
	json_t *res = json_loads(
		"{\"campaign\": {\"alpha\": 0.01, \"max_mde_pct\": 3,"
		"  \"min_effect_pct\": \"2\","
		"  \"min_effect_by_metric\": {\"read.iops\": 2.5, \"x\": \"1\"},"
		"  \"calibration\": {\"file\": \"cal.json\","
		"                    \"analysis\": \"welch-log\"},"
		"  \"disturbed\": {\"other_cpu_pct\": 30, \"steal_pct\": null,"
		"                  \"psi_pct\": \"40\"}},"
		" \"runs\": [{\"configuration\": \"a\", \"job\": \"rr\","
		"   \"status\": \"ok\", \"metrics\": {\"q.only_null\": null}}]}",
		0, &err);
	json_t *bare = json_loads("{\"runs\": []}", 0, &err);
	struct kb_rmodel *m, *b;
	const struct kb_rcampaign *c;

	(void)state;
	m = model_of(res);
	b = model_of(bare);
	c = &m->campaign;
	assert_true(c->alpha == 0.01);
	assert_true(c->max_mde_pct == 3.0);
	assert_true(isnan(c->min_effect_pct));	/* a string: not given */
	assert_int_equal(c->min_effect_by_metric.n, 1);
	assert_true(kb_rmetric_pcts__get(&c->min_effect_by_metric,
					 "read.iops") == 2.5);
	assert_true(isnan(kb_rmetric_pcts__get(&c->min_effect_by_metric,
					       "x")));
	assert_true(isnan(kb_rmetric_pcts__get(&c->max_mde_by_metric,
					       "read.iops")));
	assert_string_equal(c->calibration_analysis, "welch-log");
	assert_string_equal(c->calibration_file, "cal.json");
	assert_true(c->disturbed_rules.present);
	assert_true(c->disturbed_rules.other_cpu_pct.given &&
		    c->disturbed_rules.other_cpu_pct.value == 30.0);
	assert_true(c->disturbed_rules.steal_pct.given &&
		    isnan(c->disturbed_rules.steal_pct.value));
	assert_false(c->disturbed_rules.psi_pct.given);
	assert_false(c->disturbed_rules.idle_fraction.given);
	assert_true(kb_rmodel__names_metric(m, "q.only_null"));
	assert_int_equal(kb_rmodel__metric(m, "q.only_null"), KB_RMODEL_NONE);
	assert_false(kb_rmodel__names_metric(m, "read.iops"));
	/* nothing given */
	c = &b->campaign;
	assert_true(isnan(c->alpha) && isnan(c->max_mde_pct));
	assert_int_equal(c->min_effect_by_metric.n, 0);
	assert_null(c->calibration_analysis);
	assert_false(c->disturbed_rules.present);
	assert_false(c->disturbed_rules.other_cpu_pct.given);
	kb_rmodel__delete(m);
	kb_rmodel__delete(b);
	json_decref(res);
	json_decref(bare);
	/* out of kernels.conf's ranges (a hand edit): read as absent, the
	 * default then (alpha 0 and 2, a negative max_mde_pct); 0 is a
	 * min_effect_pct kernels.conf allows */
	res = json_loads("{\"campaign\": {\"name\": \"h\", \"alpha\": 2,"
			 " \"max_mde_pct\": -1, \"min_effect_pct\": 0},"
			 " \"runs\": []}", 0, &err);
	bare = json_loads("{\"campaign\": {\"name\": \"h0\", \"alpha\": 0},"
			  " \"runs\": []}", 0, &err);
	m = model_of(res);
	b = model_of(bare);
	assert_true(isnan(m->campaign.alpha));
	assert_true(isnan(m->campaign.max_mde_pct));
	assert_true(m->campaign.min_effect_pct == 0.0);
	assert_true(isnan(b->campaign.alpha));
	kb_rmodel__delete(m);
	kb_rmodel__delete(b);
	json_decref(res);
	json_decref(bare);
}

/* The outlier bookkeeping (kb_rmodel__outliers_*): "outliers" on the
 * counted runs only, names appended in the tree and the run's info, and
 * excluded values moved to "excluded_outliers" and out of the matrix. */
static void test_outlier_bookkeeping(void **state)
{
	json_t *res = fixture(), *run0, *run1;
	struct kb_rmodel *m = kb_rmodel__new(res);
	size_t kr, kw, kz;

	(void)state;
	assert_non_null(m);
	kr = kb_rmodel__metric(m, "read.iops");
	kw = kb_rmodel__metric(m, "write.iops");
	kz = kb_rmodel__metric(m, "zz.custom");
	run0 = json_array_get(json_object_get(res, "runs"), 0);
	run1 = json_array_get(json_object_get(res, "runs"), 1);
	kb_rmodel__outliers_clear(m);
	assert_int_equal(json_array_size(json_object_get(run0, "outliers")),
			 0);
	assert_non_null(json_object_get(run0, "outliers"));
	/* the warm-up a/1 does not count: untouched */
	assert_null(json_object_get(json_array_get(json_object_get(res,
					"runs"), 2), "outliers"));
	kb_rmodel__outlier_add(m, 0, kr);
	kb_rmodel__outlier_add(m, 0, kw);	/* run 0 has no write.iops */
	assert_int_equal(json_array_size(json_object_get(run0, "outliers")),
			 2);
	assert_int_equal(m->runs[0].info.outliers.n, 2);
	assert_string_equal(m->runs[0].info.outliers.v[0], "read.iops");
	assert_string_equal(m->runs[0].info.outliers.v[1], "write.iops");
	assert_int_equal(m->runs[1].info.outliers.n, 0);
	kb_rmodel__outliers_exclude(m);
	assert_null(json_object_get(json_object_get(run0, "metrics"),
				    "read.iops"));
	assert_true(json_number_value(json_object_get(json_object_get(run0,
			"excluded_outliers"), "read.iops")) == 100.5);
	assert_int_equal(json_object_size(json_object_get(run0,
						"excluded_outliers")), 1);
	assert_true(isnan(kb_rmodel__value(m, 0, kr)));
	assert_true(kb_rmodel__value(m, 0, kz) == 7.0);
	assert_true(kb_rmodel__value(m, 1, kr) == 200.0);
	assert_null(json_object_get(run1, "excluded_outliers"));
	kb_rmodel__delete(m);
	json_decref(res);
}

/* A results model from JSON text written out in a test. */
static json_t *from_text(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	if (!j)
		fail_msg("fixture: %s at %d", err.text, err.line);
	return j;
}

/* What the report header and failure lists read besides the runs: shards,
 * load hosts, job hosts, layouts, superseded runs, the analysis options,
 * the profiling runs and each run's excluded outlier values. */
static void test_campaign_report_facts(void **state)
{
	json_t *res = from_text(
		"{\"campaign\": {\"name\": \"sh\", \"jobs\": [\"rr\"],"
		"  \"layouts\": [\"rounds\", \"lkp\"],"
		"  \"shard\": {\"k\": 2, \"n\": 3, \"iterations\": [1, 4]},"
		"  \"shards\": {\"n\": 2, \"from\": [{\"dir\": \"s1\","
		"   \"iterations\": [0, 2]}, {\"iterations\": []}]},"
		"  \"job_hosts\": {\"rr\": [\"h1\", 5]},"
		"  \"environment\": {\"fio_version\": \"fio-3.33\","
		"   \"load_hosts\": [{\"host\": \"h1:8765\", \"fio_version\":"
		"    \"fio-3.35\", \"hostname\": \"load1\"}, {\"host\": \"h2\"}]}},"
		" \"superseded\": [{\"key\": \"000\"}, {\"key\": \"003\"}],"
		" \"analysis_options\": {\"exclude_disturbed\": true},"
		" \"profiling_runs\": [{\"configuration\": \"a\", \"job\": \"rr\","
		"   \"status\": \"failed\", \"reason\": \"perf died\","
		"   \"extra\": \"profiling\", \"iteration\": 3, \"warmup\": true}],"
		" \"runs\": [{\"configuration\": \"a\", \"job\": \"rr\","
		"   \"status\": \"ok\", \"metrics\": {},"
		"   \"excluded_outliers\": {\"read.iops\": 9.5, \"x\": \"s\"}}]}");
	const struct kb_rcampaign *c;
	struct kb_rmodel *m;

	(void)state;
	m = kb_rmodel__new(res);
	assert_non_null(m);
	c = &m->campaign;
	assert_true(c->has_shard && c->has_shards);
	assert_int_equal(c->shard.k, 2);
	assert_int_equal(c->shard.n, 3);
	assert_int_equal(c->shard.iterations.n, 2);
	assert_int_equal(c->shard.iterations.v[1], 4);
	assert_int_equal(c->nshards_merged, 2);
	assert_int_equal(c->nshards_from, 2);
	assert_string_equal(c->shards_from[0].dir, "s1");
	assert_int_equal(c->shards_from[0].iterations.v[1], 2);
	assert_null(c->shards_from[1].dir);
	assert_int_equal(c->shards_from[1].iterations.n, 0);
	assert_int_equal(c->njob_hosts, 1);
	assert_string_equal(c->job_hosts[0].job, "rr");
	assert_int_equal(c->job_hosts[0].hosts.n, 2);
	assert_null(c->job_hosts[0].hosts.v[1]);	/* not a string */
	assert_int_equal(c->layouts.n, 2);
	assert_string_equal(c->layouts.v[1], "lkp");
	assert_int_equal(c->nsuperseded, 2);
	assert_true(c->exclude_disturbed);
	assert_int_equal(c->env.nload_hosts, 2);
	assert_string_equal(c->env.load_hosts[0].hostname, "load1");
	assert_string_equal(c->env.load_hosts[0].fio_version, "fio-3.35");
	assert_null(c->env.load_hosts[1].fio_version);
	assert_non_null(m->profiling);	/* the extra runs' own model */
	assert_int_equal(m->profiling->nruns, 1);
	assert_false(m->profiling->runs[0].ok);
	assert_string_equal(m->profiling->runs[0].info.reason, "perf died");
	assert_string_equal(m->profiling->runs[0].info.extra, "profiling");
	assert_int_equal(m->profiling->runs[0].iteration, 3);
	assert_true(m->profiling->runs[0].warmup);
	assert_int_equal(m->runs[0].info.nexcluded_outliers, 2);
	assert_string_equal(m->runs[0].info.excluded_outlier_names[0],
			    "read.iops");
	assert_true(m->runs[0].info.excluded_outlier_values[0] == 9.5);
	assert_true(m->runs[0].info.excluded_outlier_values[1] == 0.0);
	kb_rmodel__delete(m);
	/* absent: nothing, -1 for the shard numbers */
	json_object_clear(res);
	json_object_set_new(res, "runs", json_array());
	m = kb_rmodel__new(res);
	assert_non_null(m);
	c = &m->campaign;
	assert_true(!c->has_shard && !c->has_shards);
	assert_int_equal(c->shard.k, -1);
	assert_int_equal(c->nshards_merged, -1);
	assert_int_equal(c->njob_hosts + c->layouts.n + c->nsuperseded +
			 c->env.nload_hosts, 0);
	assert_null(m->profiling);	/* no extra runs: no model of them */
	assert_false(c->exclude_disturbed);
	kb_rmodel__delete(m);
	json_decref(res);
}

/* stats_baseline_for() on the typed campaign: a configuration's own
 * baseline, the campaign's, and with a swept job parameter the baseline
 * variant at the configuration's own swept value. */
static void test_baseline_for(void **state)
{
	json_t *res = from_text(
		"{\"campaign\": {\"baseline\": \"s,n=1\", \"tunables\": ["
		"   {\"label\": \"NM\", \"path\": \"queue/nomerges\"},"
		"   {\"label\": \"n\", \"sweep\": true}]},"
		" \"configurations\": ["
		"  {\"id\": \"s,n=1\", \"variant\": \"s\","
		"   \"tunables\": {\"NM\": \"0\", \"n\": \"1\"}},"
		"  {\"id\": \"s,n=4\", \"variant\": \"s\","
		"   \"tunables\": {\"NM\": \"0\", \"n\": \"4\"}},"
		"  {\"id\": \"g,n=4\", \"variant\": \"g\","
		"   \"tunables\": {\"NM\": \"2\", \"n\": \"4\"}},"
		"  {\"id\": \"g,n=8\", \"variant\": \"g\","
		"   \"tunables\": {\"NM\": \"2\", \"n\": \"8\"}},"
		"  {\"id\": \"m\", \"variant\": \"g\", \"baseline\": \"g,n=4\","
		"   \"tunables\": {\"NM\": \"2\", \"n\": \"4\"}}],"
		" \"runs\": []}");
	struct kb_rmodel *m;

	(void)state;
	m = kb_rmodel__new(res);
	assert_non_null(m);
	assert_string_equal(stats_baseline_for(m, "g,n=4"), "s,n=4");
	assert_string_equal(stats_baseline_for(m, "s,n=1"), "s,n=1");
	assert_null(stats_baseline_for(m, "g,n=8"));	/* no s,n=8 */
	assert_string_equal(stats_baseline_for(m, "m"), "g,n=4");
	assert_null(stats_baseline_for(m, "nosuch"));
	kb_rmodel__delete(m);
	/* not swept: the campaign's baseline, else the first */
	json_array_remove(json_object_get(json_object_get(res, "campaign"),
					  "tunables"), 1);
	m = kb_rmodel__new(res);
	assert_string_equal(stats_baseline_for(m, "g,n=8"), "s,n=1");
	kb_rmodel__delete(m);
	json_object_set_new(json_object_get(res, "campaign"), "baseline",
			    json_string("gone"));
	m = kb_rmodel__new(res);
	assert_string_equal(stats_baseline_for(m, "g,n=8"), "s,n=1");
	kb_rmodel__delete(m);
	json_decref(res);
}

/* One model through stats_analyse(): its analysis filled, the runs'
 * outlier marks read again into the typed info, and a model built from
 * the analysed tree (an export) holding the same rows. */
static void test_analyse_once(void **state)
{
	json_t *res = json_pack("{s:{s:[s], s:s}, s:[{s:s}], s:[]}",
				"campaign", "jobs", "rr", "baseline", "a",
				"configurations", "id", "a", "runs");
	json_t *runs = json_object_get(res, "runs");
	const double iops[] = { 100, 101, 99, 100, 102, 98, 100, 400 };
	struct kb_rmodel *m, *again;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(iops) / sizeof(iops[0]); i++)
		json_array_append_new(runs, json_pack("{s:s, s:s, s:i, s:s, "
			"s:b, s:{s:f}}", "configuration", "a", "job", "rr",
			"iteration", (int)i, "status", "ok", "warmup", 0,
			"metrics", "read.iops", iops[i]));
	m = kb_rmodel__new(res);
	assert_non_null(m);
	assert_int_equal(m->analysis.nsummaries, 0);
	assert_int_equal(m->runs[7].info.outliers.n, 0);
	assert_int_equal(stats_analyse(m, NULL), 0);
	assert_int_equal(m->analysis.nsummaries, 1);
	assert_int_equal(m->analysis.summaries[0].n, 8);
	/* 400 is a MAD outlier, kept: marked in the tree and the model */
	assert_int_equal(m->runs[7].info.outliers.n, 1);
	assert_string_equal(m->runs[7].info.outliers.v[0], "read.iops");
	assert_int_equal(m->runs[0].info.outliers.n, 0);
	again = kb_rmodel__new(res);
	assert_non_null(again);
	assert_int_equal(again->analysis.nsummaries, 1);
	assert_true(again->analysis.summaries[0].mean ==
		    m->analysis.summaries[0].mean);
	assert_int_equal(again->analysis.nsample_checks,
			 m->analysis.nsample_checks);
	kb_rmodel__delete(again);
	kb_rmodel__delete(m);
	json_decref(res);
}

/* What report.md reads (reports/markdown.c): the vm variants of an
 * environment, merged environments and whether they are equal, job
 * files, a configuration's command line, a run's target size. */
static void test_campaign_report_md(void **state)
{
	json_error_t err;
	json_t *res = json_loads(
		"{\"campaign\": {\"name\": \"d\", \"jobs\": [\"rr\", \"sw\"],"
		"  \"job_files\": {\"rr\": \"[rr]\\nrw=randread\\n\","
		"                  \"sw\": 7},"
		"  \"merged_from\": [\"a\", \"b\"],"
		"  \"environment\": {\"cpus\": -1, \"cpu_model\": \"Z\","
		"   \"vm\": {\"qemu_version\": \"QEMU 7.2\", \"variants\": {"
		"    \"g\": {\"release\": \"6.1\", \"cpus\": 2,"
		"           \"memory_mib\": 1024, \"nullblk_params\": \"\","
		"           \"qemu_argv\": [\"qemu\", \"-append\", 3]},"
		"    \"h\": {\"accel\": \"kvm\"}}}},"
		"  \"environments\": {\"a\": {\"uname\": \"L\"},"
		"                     \"b\": {\"uname\": \"L\"}}},"
		" \"configurations\": [{\"id\": \"g\", \"variant\": \"g\","
		"   \"cmdline\": \"quiet\"}, {\"id\": \"s\"}],"
		" \"runs\": ["
		"  {\"configuration\": \"g\", \"job\": \"rr\", \"status\": \"ok\","
		"   \"target_size_bytes\": 67108864, \"metrics\": {}},"
		"  {\"configuration\": \"s\", \"job\": \"rr\", \"status\": \"ok\","
		"   \"target_size_bytes\": \"64M\", \"metrics\": {}}"
		"]}", 0, &err);
	const struct kb_rcampaign *c;
	const struct kb_rvm_variant *g;
	struct kb_rmodel *m;

	(void)state;
	assert_non_null(res);
	m = kb_rmodel__new(res);
	assert_non_null(m);
	c = &m->campaign;
	/* an integer cpus of any value is recorded */
	assert_true(c->env.has_cpus);
	assert_int_equal(c->env.cpus, -1);
	assert_string_equal(c->env.vm_qemu_version, "QEMU 7.2");
	assert_int_equal(c->env.nvm_variants, 2);
	g = &c->env.vm_variants[0];
	assert_string_equal(g->name, "g");
	assert_string_equal(g->release, "6.1");
	assert_null(g->guest_release);
	assert_int_equal(g->cpus, 2);
	assert_int_equal(g->memory_mib, 1024);
	assert_string_equal(g->nullblk_params, "");
	assert_int_equal(g->qemu_argv.n, 3);
	assert_string_equal(g->qemu_argv.v[1], "-append");
	assert_null(g->qemu_argv.v[2]);		/* not a string */
	assert_string_equal(c->env.vm_variants[1].accel, "kvm");
	assert_int_equal(c->env.vm_variants[1].cpus, 0);
	assert_null(c->env.vm_variants[1].nullblk_params);
	/* job files by name; a non-string one is not recorded */
	assert_int_equal(c->njob_files, 2);
	assert_string_equal(kb_rcampaign__job_file(c, "rr"),
			    "[rr]\nrw=randread\n");
	assert_null(kb_rcampaign__job_file(c, "sw"));
	assert_null(kb_rcampaign__job_file(c, "nope"));
	assert_null(kb_rcampaign__job_file(c, NULL));
	assert_string_equal(c->configs[0].cmdline, "quiet");
	assert_null(c->configs[1].cmdline);
	assert_int_equal(c->nenvs, 2);
	assert_string_equal(c->env_names[1], "b");
	assert_true(c->envs_equal);
	assert_int_equal(m->runs[0].info.target_size_bytes, 67108864);
	assert_int_equal(m->runs[1].info.target_size_bytes, 0);
	kb_rmodel__delete(m);
	/* environments that differ in one member */
	json_object_set_new(json_object_get(json_object_get(json_object_get(
		res, "campaign"), "environments"), "b"), "cpus",
		json_integer(8));
	m = kb_rmodel__new(res);
	assert_non_null(m);
	assert_false(m->campaign.envs_equal);
	assert_false(m->campaign.envs[0].has_cpus);
	assert_true(m->campaign.envs[1].has_cpus);
	kb_rmodel__delete(m);
	json_decref(res);
}

/* A merged model (results_merge()): merged_names stays aligned with
 * merged_from (a non-string name is NULL at its index, not skipped);
 * the summaries' CIs and the comparisons' changes that reports/plots.c
 * reads are read back with the model (NAN for a null). */
static void test_merged_names_and_analysis(void **state)
{
	json_t *res = from_text(
		"{\"campaign\": {\"jobs\": [\"rr\"],"
		"   \"merged_from\": [\"d/old\", \"d/new\"],"
		"   \"merged_names\": [7, \"new\"]},"
		" \"summaries\": [{\"configuration\": \"new:a\","
		"   \"job\": \"rr\", \"metric\": \"read.iops\", \"mean\": 10.5,"
		"   \"ci95_lo\": null}],"
		" \"comparisons\": [{\"configuration\": \"new:a\","
		"   \"baseline\": \"old:a\", \"job\": \"rr\","
		"   \"metric\": \"read.iops\", \"change_pct\": 2.5,"
		"   \"verdict\": \"improvement\"}],"
		" \"runs\": []}");
	const struct kb_summary_row *s;
	const struct kb_comparison_row *e;
	struct kb_rmodel *m;

	(void)state;
	m = kb_rmodel__new(res);
	assert_non_null(m);
	assert_int_equal(m->campaign.merged_names.n, 2);
	assert_null(m->campaign.merged_names.v[0]);
	assert_string_equal(m->campaign.merged_names.v[1], "new");
	assert_string_equal(m->campaign.merged_from.v[1], "d/new");
	s = kb_analysis__summary(&m->analysis, "new:a", "rr", "read.iops");
	assert_non_null(s);
	assert_true(s->mean == 10.5 && isnan(s->ci95_lo));
	e = kb_analysis__comparison(&m->analysis, "new:a", "old:a", "rr",
				    "read.iops");
	assert_non_null(e);
	assert_true(e->change_pct == 2.5);
	assert_string_equal(e->verdict, "improvement");
	kb_rmodel__delete(m);
	json_decref(res);
}

/* kbench compare's merged pair model (results_pair_new() and friends):
 * only the runs of the configuration asked for, renamed, with their
 * campaign and their index in their own campaign as order; each job
 * once; base left alone; and the typed model of the result. */
static void test_pair_model(void **state)
{
	json_t *base = json_pack("{s:{s:s, s:s, s:[s, s], s:f}, s:[{s:s}, "
		"{s:s}], s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}, {s:s, s:s, "
		"s:s}, {s:s}]}",
		"campaign", "name", "old", "baseline", "a", "jobs", "j1", "j2",
		"alpha", 0.01,
		"configurations", "id", "a", "id", "b",
		"runs", "configuration", "b", "job", "j1", "status", "ok",
		"configuration", "a", "job", "j2", "status", "ok",
		"configuration", "a", "job", "j2", "status", "failed",
		"status", "ok");
	json_t *merged, *runs, *r;
	struct kb_rmodel *m;

	(void)state;
	merged = results_pair_new(base);
	results_pair_add(merged, base, "a", "old:a", "old");
	results_pair_add(merged, base, "a", "old:a (again)", "old (again)");
	results_pair_finish(merged, "old:a", 1);
	/* base unchanged: its campaign is copied, not shared */
	assert_int_equal(json_array_size(json_object_get(json_object_get(base,
		"campaign"), "jobs")), 2);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		base, "campaign"), "baseline")), "a");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(base, "runs"), 1), "configuration")), "a");
	runs = json_object_get(merged, "runs");
	assert_int_equal(json_array_size(runs), 4);
	r = json_array_get(runs, 1);
	assert_string_equal(json_string_value(json_object_get(r,
		"configuration")), "old:a");
	assert_string_equal(json_string_value(json_object_get(r, "campaign")),
			    "old");
	assert_int_equal(json_integer_value(json_object_get(r, "order")), 2);
	r = json_array_get(runs, 2);
	assert_string_equal(json_string_value(json_object_get(r,
		"configuration")), "old:a (again)");
	assert_int_equal(json_integer_value(json_object_get(r, "order")), 1);

	m = kb_rmodel__new(merged);
	assert_non_null(m);
	assert_int_equal(m->campaign.nconfigs, 2);
	assert_string_equal(m->campaign.configs[1].id, "old:a (again)");
	assert_string_equal(m->campaign.baseline, "old:a");
	assert_int_equal(m->campaign.jobs.n, 1);	/* j2 once; j1 not run */
	assert_string_equal(m->campaign.jobs.v[0], "j2");
	assert_true(m->campaign.alpha == 0.01);	/* base's settings */
	assert_int_equal(m->campaign.exclude_disturbed, 1);
	assert_true(m->runs[0].order == 1 && m->runs[1].order == 2);
	assert_true(m->runs[0].campaign != m->runs[2].campaign);
	kb_rmodel__delete(m);
	json_decref(merged);
	json_decref(base);
}

/* The environment members kbench compare compares (kb_renv__has(),
 * kb_renv__equal(), kb_renv__text()). */
static void test_env_members(void **state)
{
	json_t *ra = json_pack("{s:{s:{s:s, s:i, s:n, s:[i]}}}", "campaign",
		"environment", "governor", "performance", "cpus", 8, "turbo",
		"smt", 1);
	json_t *rb = json_pack("{s:{s:{s:s, s:I, s:b, s:[i]}}}", "campaign",
		"environment", "governor", "powersave", "cpus", (json_int_t)8,
		"turbo", 1, "smt", 1);
	struct kb_rcampaign a = { 0 }, b = { 0 }, none = { 0 };
	char *t;

	(void)state;
	kb_rcampaign__fill(&a, ra);
	kb_rcampaign__fill(&b, rb);
	assert_int_equal(kb_renv__has(&a.env, "governor"), KB_RENV_SET);
	assert_int_equal(kb_renv__has(&a.env, "turbo"), KB_RENV_NULL);
	assert_int_equal(kb_renv__has(&a.env, "epp"), KB_RENV_ABSENT);
	assert_int_equal(kb_renv__has(&none.env, "cpus"), KB_RENV_ABSENT);
	assert_true(kb_renv__equal(&a.env, &b.env, "cpus"));
	assert_true(kb_renv__equal(&a.env, &b.env, "smt"));
	assert_false(kb_renv__equal(&a.env, &b.env, "governor"));
	assert_false(kb_renv__equal(&a.env, &b.env, "turbo"));
	assert_false(kb_renv__equal(&a.env, &b.env, "epp"));
	t = kb_renv__text(&a.env, "governor");
	assert_string_equal(t, "\"performance\"");
	free(t);
	t = kb_renv__text(&a.env, "turbo");
	assert_string_equal(t, "null");
	free(t);
	t = kb_renv__text(&b.env, "smt");
	assert_string_equal(t, "[1]");
	free(t);
	assert_null(kb_renv__text(&a.env, "epp"));
	kb_rcampaign__clear(&a);
	kb_rcampaign__clear(&b);
	json_decref(ra);
	json_decref(rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_values),
		cmocka_unit_test(test_value_ranges),
		cmocka_unit_test(test_duplicate_runs),
		cmocka_unit_test(test_damaged_runs),
		cmocka_unit_test(test_runs_and_groups),
		cmocka_unit_test(test_no_runs),
		cmocka_unit_test(test_campaign_info),
		cmocka_unit_test(test_campaign_report_facts),
		cmocka_unit_test(test_baseline_for),
		cmocka_unit_test(test_analyse_once),
		cmocka_unit_test(test_campaign_report_md),
		cmocka_unit_test(test_merged_names_and_analysis),
		cmocka_unit_test(test_json_load_whole),
		cmocka_unit_test(test_campaign_settings),
		cmocka_unit_test(test_outlier_bookkeeping),
		cmocka_unit_test(test_pair_model),
		cmocka_unit_test(test_env_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
