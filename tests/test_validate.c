/* tests/test_validate.c - results/validate.c: one validation of a
 * campaign directory for every command (issue 14, "Campaign files"): a
 * state.json that `run` rejects is rejected by `report` too (naming file
 * and key), wrongly typed entries are errors, and a run recorded ok whose
 * metrics.json is damaged is repaired from its raw artefacts (nothing
 * redone) or forgotten so that it is redone.  On copies of
 * tests/data/push/demo (a real 12-run campaign). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/proc.h"
#include "tests/demo_copy.h"
#include "parsers/json_file.h"
#include "results/model.h"
#include "results/paths.h"
#include "results/validate.h"

#define TMPL "/tmp/kbench-test-validate.XXXXXX"

#define KEY0 "running,NM=0/randread-4k/000"


static void put(const char *dir, const char *name, const char *text)
{
	char *p = kb_path_join(dir, name);

	assert_int_equal(kb_write_atomic(p, text, strlen(text)), 0);
	free(p);
}

static void copy_file(const char *from, const char *dir, const char *name)
{
	char *buf = NULL, *p = kb_path_join(dir, name);
	size_t len;

	assert_int_equal(kb_read_file(from, &buf, &len, 0), 0);
	assert_int_equal(kb_write_atomic(p, buf, len), 0);
	free(buf);
	free(p);
}

static void test_valid_demo(void **state)
{
	char *dir = demo_copy(TMPL);
	struct kb_repairs rep = { 0 };

	(void)state;
	assert_int_equal(results_validate_campaign(dir, &rep), 0);
	assert_int_equal(rep.n, 0);
	demo_remove(dir);
}

/* `"runs": []` gave n = 0 everywhere and exit 0 in report; now both
 * commands refuse it, naming the file and the key */
static void test_runs_array_refused(void **state)
{
	char *dir = demo_copy(TMPL);
	json_t *res;

	(void)state;
	put(dir, "state.json", "{\"schema_version\": 1, \"runs\": []}\n");
	assert_int_equal(results_validate_campaign(dir, NULL), -EINVAL);
	res = results_load_campaign(dir, 0);
	assert_null(res);
	demo_remove(dir);
}

static void test_wrongly_typed_entries(void **state)
{
	char *dir = demo_copy(TMPL);

	(void)state;
	put(dir, "state.json", "{\"runs\": {\"" KEY0 "\": {\"status\": 5}}}\n");
	assert_int_equal(results_validate_campaign(dir, NULL), -EINVAL);
	put(dir, "state.json", "{\"runs\": {\"" KEY0 "\": {\"status\": "
	    "\"ok\", \"reason\": 7}}}\n");
	assert_int_equal(results_validate_campaign(dir, NULL), -EINVAL);
	put(dir, "state.json", "{\"runs\": {\"nosuch/job/000\": {\"status\": "
	    "\"ok\"}}}\n");
	assert_int_equal(results_validate_campaign(dir, NULL), -EINVAL);
	put(dir, "state.json", "{\"schema_version\": 9, \"runs\": {}}\n");
	assert_int_equal(results_validate_campaign(dir, NULL), -EINVAL);
	put(dir, "campaign.json", "{\"schema_version\": 1, \"plan\": 3}\n");
	put(dir, "state.json", "{\"runs\": {}}\n");
	assert_int_equal(results_validate_campaign(dir, NULL), -EINVAL);
	demo_remove(dir);
}

/* what is wrong with each damaged metrics.json, as the repair names it;
 * a file whose metrics repeat a key is no damage (its numbers are not
 * looked at) */
static void test_problems_named(void **state)
{
	static const char *const keys[] = {
		"running,NM=1/randread-4k/000", "running,NM=1/randread-4k/001",
		"running,NM=1/randread-4k/002", "running,NM=1/randread-4k/003",
		"running,NM=2/randread-4k/000",
	};
	static const char *const text[] = {
		"{\"status\": \"ok\", \"metr",
		"[]",
		"{\"status\": \"ok\", \"metrics\": [1, 2]}",
		"{\"status\": 1, \"metrics\": {}}",
		"{\"status\": \"ok\", \"metrics\": {\"read.iops\": 1, "
		"\"read.iops\": 2.5, \"x\": \"y\"}}",
	};
	static const char *const why[] = {
		"line 1: ", "not a JSON object", "no \"metrics\" object",
		"no \"status\" string", NULL,
	};
	char *dir = demo_copy(TMPL);
	struct kb_repairs rep = { 0 };
	size_t i, j;

	(void)state;
	for (i = 0; i < 5; i++) {
		char *r = kb_run_dir(dir, keys[i]);

		put(r, "metrics.json", text[i]);
		free(r);
	}
	assert_int_equal(results_validate_campaign(dir, &rep), 0);
	assert_int_equal(rep.n, 4);
	for (i = 0; i < 5; i++) {
		for (j = 0; j < rep.n && strcmp(rep.key[j], keys[i]); j++)
			;
		if (!why[i]) {
			assert_int_equal(j, rep.n);
			continue;
		}
		assert_true(j < rep.n);
		assert_non_null(strstr(rep.why[j], why[i]));
	}
	results_repairs_free(&rep);
	demo_remove(dir);
}

/* a corrupt metrics.json of a run recorded ok: re-parsed from intact raw
 * artefacts; without them the run is forgotten (redone by `run`) */
static void test_repair(void **state)
{
	char *dir = demo_copy(TMPL), *r0 = kb_run_dir(dir, KEY0);
	char *r1 = kb_run_dir(dir, "running,NM=0/randread-4k/001");
	char *mp = kb_path_join(r0, "metrics.json");
	struct kb_repairs rep = { 0 };
	json_t *m, *st;

	(void)state;
	copy_file("tests/data/fio/B05.json", r0, "fio.json");
	copy_file("tests/data/proc/stat.before", r0, "proc_stat.before");
	copy_file("tests/data/proc/stat.after", r0, "proc_stat.after");
	put(r0, "metrics.json", "{\"status\": \"ok\", \"metr");
	put(r1, "metrics.json", "[]");
	assert_int_equal(results_validate_campaign(dir, &rep), 0);
	assert_int_equal(rep.n, 2);
	assert_int_equal(results_repair_runs(dir, &rep), 0);
	results_repairs_free(&rep);
	m = kb_json_load(mp);
	assert_non_null(m);
	assert_string_equal(json_string_value(json_object_get(m, "status")),
			    "ok");
	assert_non_null(json_object_get(m, "repaired"));
	assert_true(json_is_object(json_object_get(m, "metrics")));
	json_decref(m);
	free(mp);
	mp = kb_path_join(dir, "state.json");
	st = kb_json_load(mp);
	assert_non_null(json_object_get(json_object_get(st, "runs"), KEY0));
	assert_null(json_object_get(json_object_get(st, "runs"),
				    "running,NM=0/randread-4k/001"));
	json_decref(st);
	/* and the directory validates clean now */
	assert_int_equal(results_validate_campaign(dir, &rep), 0);
	assert_int_equal(rep.n, 0);
	free(mp);
	free(r0);
	free(r1);
	demo_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_demo),
		cmocka_unit_test(test_runs_array_refused),
		cmocka_unit_test(test_wrongly_typed_entries),
		cmocka_unit_test(test_problems_named),
		cmocka_unit_test(test_repair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
