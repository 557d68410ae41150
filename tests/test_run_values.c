/* tests/test_run_values.c - a campaign's runs' numbers loaded beside the
 * results tree (issue 16: results/run_values.h, parsers/json_file.h's
 * sink, results_load_campaign_values(), kb_rmodel__new_values()): the
 * typed model built that way is the one built from the whole tree (the
 * same metrics in the same order, the same values bit for bit, the same
 * bad values named), whatever the runs' files hold: nulls, strings,
 * integers, a repeated key (refused both ways: parsers/json_file.h), a
 * damaged file, a metric only some runs have.
 * On copies of tests/data/push/demo (a real 12-run campaign). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/proc.h"
#include "tests/demo_copy.h"
#include "parsers/json_file.h"
#include "results/model.h"
#include "results/rmodel.h"
#include "results/run_values.h"

#define TMPL "/tmp/kbench-test-run-values.XXXXXX"


/* Replace the text from (first occurrence) by to in run key's
 * metrics.json. */
static void edit(const char *dir, const char *key, const char *from,
		 const char *to)
{
	char *p = kb_xasprintf("%s/runs/%s/metrics.json", dir, key);
	char *buf = NULL, *at, *out;
	size_t len;

	assert_int_equal(kb_read_file(p, &buf, &len, 1), 0);
	at = strstr(buf, from);
	assert_non_null(at);
	out = kb_xasprintf("%.*s%s%s", (int)(at - buf), buf, to,
			   at + strlen(from));
	assert_int_equal(kb_write_atomic(p, out, strlen(out)), 0);
	free(out);
	free(buf);
	free(p);
}

static int same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

/* Both ways of loading dir give the same typed model. */
static void check_same_models(const char *dir)
{
	json_t *whole = results_load_campaign(dir, 0), *lean;
	struct kb_run_values *vals = NULL;
	struct kb_rmodel *a, *b;
	size_t k, r, i;

	assert_non_null(whole);
	lean = results_load_campaign_values(dir, 0, &vals);
	assert_non_null(lean);
	assert_non_null(vals);
	assert_int_equal(vals->nrows, json_array_size(json_object_get(lean,
						"runs")));
	a = kb_rmodel__new(whole);
	b = kb_rmodel__new_values(lean, vals);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->nruns, b->nruns);
	assert_int_equal(a->nmetrics, b->nmetrics);
	for (k = 0; k < a->nmetrics; k++) {
		assert_string_equal(a->metrics[k].name, b->metrics[k].name);
		for (r = 0; r < a->nruns; r++)
			if (!same_double(kb_rmodel__value(a, r, k),
					 kb_rmodel__value(b, r, k)))
				fail_msg("%s run %zu: %g (tree) vs %g (beside)",
					 a->metrics[k].name, r,
					 kb_rmodel__value(a, r, k),
					 kb_rmodel__value(b, r, k));
	}
	assert_int_equal(a->nbad, b->nbad);
	for (i = 0; i < a->nbad; i++) {
		assert_int_equal(a->bad[i].run, b->bad[i].run);
		assert_string_equal(a->bad[i].metric, b->bad[i].metric);
	}
	for (r = 0; r < a->nruns; r++)
		assert_int_equal(a->runs[r].counts, b->runs[r].counts);
	/* the lean tree holds no number in any run's "metrics" */
	for (r = 0; r < b->nruns; r++) {
		const char *name;
		json_t *v;

		json_object_foreach(json_object_get(b->runs[r].json,
						    "metrics"), name, v)
			assert_false(json_is_number(v));
	}
	kb_rmodel__delete(a);
	kb_rmodel__delete(b);
	json_decref(whole);
	json_decref(lean);
}

static void test_demo_same(void **state)
{
	char *dir = demo_copy(TMPL);

	(void)state;
	check_same_models(dir);
	demo_remove(dir);
}

/* a null, a string (a bad value, named), an integer, a metric of one run
 * only, a repeated key (the file refused, its run counted as failed, as
 * by the tree's load), a damaged file (counted as failed) */
static void test_odd_files_same(void **state)
{
	char *dir = demo_copy(TMPL);

	(void)state;
	edit(dir, "running,NM=0/randread-4k/000",
	     "\"cpu.idle_pct\": 10.046511627906977",
	     "\"cpu.idle_pct\": null, \"only.here\": 7");
	edit(dir, "running,NM=0/randread-4k/001", "\"cpu.irq_pct\": 0.0",
	     "\"cpu.irq_pct\": \"zero\"");
	edit(dir, "running,NM=0/randread-4k/002", "\"cpu.nice_pct\": 0.0",
	     "\"cpu.nice_pct\": 1.5, \"cpu.nice_pct\": 2.5");
	edit(dir, "running,NM=1/randread-4k/000", "\"cpu.nice_pct\": 0.0",
	     "\"cpu.nice_pct\": 4.0, \"cpu.nice_pct\": null, "
	     "\"new.metric\": 1");
	edit(dir, "running,NM=1/randread-4k/001", "{", "{{");
	check_same_models(dir);
	demo_remove(dir);
}

/* the runs of a configuration whose job directory is gone, or is a
 * file (the lean load opens each run relative to its job directory,
 * results/model.c job_dir_fd(): it falls back to the whole path, which
 * fails as the tree's load does) */
static void test_job_dir_gone_same(void **state)
{
	char *dir = demo_copy(TMPL);
	char *jd = kb_xasprintf("%s/runs/running,NM=1/randread-4k", dir);
	char *argv[] = { "rm", "-rf", jd, NULL };
	struct kb_run_values *vals = NULL;
	struct kb_spawn_result r;
	json_t *lean, *run;
	size_t i, failed = 0;

	(void)state;
	assert_int_equal(kb_spawn(argv, NULL, &r), 0);
	check_same_models(dir);
	assert_int_equal(kb_write_atomic(jd, "x", 1), 0);	/* a file */
	check_same_models(dir);
	lean = results_load_campaign_values(dir, 0, &vals);
	assert_non_null(lean);
	json_array_foreach(json_object_get(lean, "runs"), i, run)
		if (!strcmp(json_string_value(json_object_get(run,
				"configuration")), "running,NM=1")) {
			assert_string_equal(json_string_value(
				json_object_get(run, "status")), "failed");
			failed++;
		} else {
			assert_string_equal(json_string_value(
				json_object_get(run, "status")), "ok");
		}
	assert_true(failed > 0);
	json_decref(lean);
	kb_run_values__delete(vals);
	free(jd);
	demo_remove(dir);
}

struct seen {
	char keys[8][32];
	double v[8];
	int n;
};

static int seen_has(void *ctx, const char *key, size_t len);

/* number(): refuses a key given already, as the contract asks */
static int seen_number(void *ctx, const char *key, size_t len, double v)
{
	struct seen *s = ctx;

	if (s->n == 8 || len >= 32 || seen_has(ctx, key, len))
		return 1;
	memcpy(s->keys[s->n], key, len);
	s->keys[s->n][len] = '\0';
	s->v[s->n++] = v;
	return 0;
}

static int seen_has(void *ctx, const char *key, size_t len)
{
	struct seen *s = ctx;
	int i;

	for (i = 0; i < s->n; i++)
		if (strlen(s->keys[i]) == len && !memcmp(s->keys[i], key, len))
			return 1;
	return 0;
}

static json_t *decode(const char *doc, const struct kb_json_sink *sink,
		      int *sunk)
{
	json_t *j;

	*sunk = -1;
	j = kb_json_decode_sink(doc, strlen(doc), sink, sunk);
	/* each valid: jansson reads them (a repeated key replaced) */
	if (!j) {
		json_t *t = json_loads(doc, 0, NULL);

		assert_non_null(t);
		json_decref(t);
	}
	return j;
}

/* the sink's own contract (parsers/json_file.h) */
static void test_sink_decode(void **state)
{
	static const char doc[] = "{\"status\": \"ok\", \"metrics\": "
		"{\"a\": 1.5, \"n\": null, \"i\": 42, \"s\": \"x\", "
		"\"o\": {\"deep\": 3}}, \"other\": {\"b\": 2}}";
	struct seen s = { .n = 0 };
	struct kb_json_sink sink = { "metrics", seen_number, seen_has, &s };
	json_t *j, *m;
	int sunk = -1;

	(void)state;
	j = kb_json_decode_sink(doc, strlen(doc), &sink, &sunk);
	assert_non_null(j);
	assert_int_equal(sunk, 1);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.keys[0], "a");
	assert_true(s.v[0] == 1.5);
	assert_string_equal(s.keys[1], "i");
	assert_true(s.v[1] == 42.0);
	m = json_object_get(j, "metrics");
	assert_int_equal(json_object_size(m), 3);	/* n, s, o */
	assert_true(json_is_null(json_object_get(m, "n")));
	assert_true(json_is_object(json_object_get(m, "o")));
	/* numbers elsewhere stay in the tree, deeper ones too */
	assert_true(json_is_integer(json_object_get(json_object_get(j,
					"other"), "b")));
	assert_true(json_is_integer(json_object_get(json_object_get(m,
					"o"), "deep")));
	json_decref(j);

	/* a repeated key, a repeated member: the fast decode gives up */
	s.n = 0;
	assert_null(decode("{\"metrics\": {\"a\": 1, \"a\": 2}}", &sink,
			   &sunk));
	assert_int_equal(sunk, 0);
	s.n = 0;
	assert_null(decode("{\"metrics\": {\"a\": 1, \"a\": null}}", &sink,
			   &sunk));
	s.n = 0;
	assert_null(decode("{\"metrics\": {\"a\": null, \"a\": 1}}", &sink,
			   &sunk));
	s.n = 0;
	assert_null(decode("{\"metrics\": {\"a\": 1}, \"metrics\": {}}",
			   &sink, &sunk));
	/* no such member, or not an object: the tree is whole */
	s.n = 0;
	j = decode("{\"metrics\": [1, 2]}", &sink, &sunk);
	assert_non_null(j);
	assert_int_equal(sunk, 0);
	assert_int_equal(s.n, 0);
	json_decref(j);
}

/* a row the sink began and that is forgotten leaves no trace */
static void test_abort_row(void **state)
{
	struct kb_run_values *v = kb_run_values__new();
	json_t *m = json_pack("{s:f, s:n}", "a", 1.0, "z"), *rest;

	(void)state;
	kb_run_values__begin_row(v);
	rest = kb_run_values__fill_row(v, m);
	assert_int_equal(json_object_size(rest), 1);
	json_decref(rest);
	kb_run_values__begin_row(v);
	assert_int_equal(kb_run_values__sink_number(v, "a", 1, 2.0), 0);
	assert_int_equal(kb_run_values__sink_number(v, "bx", 1, 3.0), 0);
	assert_true(kb_run_values__sink_has(v, "b", 1));
	assert_int_equal(v->nmetrics, 2);
	kb_run_values__abort_row(v);
	assert_int_equal(v->nmetrics, 1);	/* "b" was this row's */
	assert_false(kb_run_values__sink_has(v, "a", 1));
	assert_true(isnan(v->cols[0][1]));
	assert_true(v->cols[0][0] == 1.0);
	assert_null(json_object_get(v->index, "b"));	/* no column */
	/* a name made again after the abort gets a column again */
	assert_int_equal(kb_run_values__sink_number(v, "b", 1, 5.0), 0);
	assert_int_equal(v->nmetrics, 2);
	assert_true(v->cols[1][1] == 5.0);
	assert_true(isnan(v->cols[1][0]));
	json_decref(m);
	kb_run_values__delete(v);
}

/* rows reserved before any row: no column grows for them; a row past
 * the reservation still gets a place; a reservation after the first row
 * changes nothing */
static void test_reserve(void **state)
{
	struct kb_run_values *v = kb_run_values__new();
	size_t r;

	(void)state;
	kb_run_values__reserve(v, 3);
	assert_int_equal(v->cap, 3);
	for (r = 0; r < 3; r++) {
		assert_int_equal(kb_run_values__begin_row(v), r);
		assert_int_equal(kb_run_values__sink_number(v, "a", 1,
							    (double)r), 0);
	}
	assert_int_equal(v->cap, 3);
	kb_run_values__reserve(v, 100);
	assert_int_equal(v->cap, 3);
	assert_int_equal(kb_run_values__begin_row(v), 3);	/* grows */
	assert_true(v->cap > 3);
	assert_true(isnan(v->cols[0][3]));
	assert_true(v->cols[0][2] == 2.0);
	kb_run_values__delete(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo_same),
		cmocka_unit_test(test_odd_files_same),
		cmocka_unit_test(test_job_dir_gone_same),
		cmocka_unit_test(test_sink_decode),
		cmocka_unit_test(test_abort_row),
		cmocka_unit_test(test_reserve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
