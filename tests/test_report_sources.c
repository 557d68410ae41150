/* tests/test_report_sources.c - results/report_sources.c: the several
 * models of `kbench report --format json` as one array document, and a
 * shards' merge told from a whole campaign and from one shard.  The
 * merge of campaigns is checked end to end by tests/e2e_report.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report_sources.h"

static void test_dumpf_all(void **state)
{
	json_t *m[2] = { json_pack("{s:i}", "b", 1), json_pack("{s:s}", "a",
								"x") };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(results_dumpf_all(f, m, 2), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "[\n  {\n    \"b\": 1\n  },\n"
			    "  {\n    \"a\": \"x\"\n  }\n]\n");
	/* the models themselves are left alone */
	assert_int_equal(m[0]->refcount, 1);
	free(buf);
	json_decref(m[0]);
	json_decref(m[1]);
}

static void test_has_shards(void **state)
{
	json_t *merged = json_pack("{s:{s:{s:i}}}", "campaign", "shards",
				   "n", 2);
	json_t *whole = json_pack("{s:{s:s}}", "campaign", "name", "c");

	(void)state;
	assert_int_equal(results_has_shards(merged), 1);
	assert_int_equal(results_has_shards(whole), 0);
	assert_int_equal(results_has_shards(NULL), 0);
	json_decref(merged);
	json_decref(whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumpf_all),
		cmocka_unit_test(test_has_shards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
