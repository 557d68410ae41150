/* tests/test_report_tables.c - the tables of a report as JSON
 * (results/report_tables.h, `kbench report --format json --layout`):
 * the members, their order and the layout of the text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "reports/table.h"
#include "results/report_tables.h"

/* A report of one job: a table of two columns (the second right-aligned)
 * and two rows, the second's number significant, a note; one failed,
 * one excluded and no flagged run; a second job with nothing. */
static struct kb_report *sample(void)
{
	struct kb_report *r = kb_xcalloc(1, sizeof(*r));
	struct kb_table *t = kb_table_new("rr: IOPS");
	size_t row;

	r->title = kb_xstrdup("kbench report: demo");
	r->nheader = 1;
	r->keys = kb_xcalloc(1, sizeof(*r->keys));
	r->vals = kb_xcalloc(1, sizeof(*r->vals));
	r->keys[0] = kb_xstrdup("Target");
	r->vals[0] = kb_xstrdup("loop:64M");
	kb_table_add_col(t, "Kernel", 0, 0);
	kb_table_add_col(t, "IOPS", 1, 1);
	row = kb_table_add_row(t, 0);
	kb_table_set(t, row, 0, "stock");
	kb_table_set(t, row, 1, "%d", 100);
	row = kb_table_add_row(t, 1);
	kb_table_set(t, row, 0, "new");
	kb_table_set(t, row, 1, "%s", "120 \"±\" 2");
	kb_table_set_strong(t, row, 1);
	kb_table_add_note(t, "n = %d", 3);
	r->njobs = 2;
	r->jobs = kb_xcalloc(2, sizeof(*r->jobs));
	r->jobs[0].name = kb_xstrdup("rr");
	kb_report_job_add(&r->jobs[0], t);
	r->jobs[0].nfailures = 1;
	r->jobs[0].failures = kb_xcalloc(1, sizeof(char *));
	r->jobs[0].failures[0] = kb_xstrdup("new rr iteration 2: boot");
	r->jobs[0].nexcluded = 1;
	r->jobs[0].excluded = kb_xcalloc(1, sizeof(char *));
	r->jobs[0].excluded[0] = kb_xstrdup("new rr iteration 1: suspect");
	r->jobs[1].name = kb_xstrdup("sw");
	return r;
}

static void test_tables_json(void **state)
{
	static const char want[] =
		"{\n"
		"  \"title\": \"kbench report: demo\",\n"
		"  \"header\": {\n"
		"    \"Target\": \"loop:64M\"\n"
		"  },\n"
		"  \"jobs\": [\n"
		"    {\n"
		"      \"name\": \"rr\",\n"
		"      \"tables\": [\n"
		"        {\n"
		"          \"title\": \"rr: IOPS\",\n"
		"          \"columns\": [\n"
		"            {\n"
		"              \"head\": \"Kernel\",\n"
		"              \"align\": \"left\"\n"
		"            },\n"
		"            {\n"
		"              \"head\": \"IOPS\",\n"
		"              \"align\": \"right\"\n"
		"            }\n"
		"          ],\n"
		"          \"rows\": [\n"
		"            {\n"
		"              \"cells\": [\n"
		"                \"stock\",\n"
		"                \"100\"\n"
		"              ],\n"
		"              \"significant\": []\n"
		"            },\n"
		"            {\n"
		"              \"cells\": [\n"
		"                \"new\",\n"
		"                \"120 \\\"±\\\" 2\"\n"
		"              ],\n"
		"              \"significant\": [\n"
		"                1\n"
		"              ]\n"
		"            }\n"
		"          ],\n"
		"          \"notes\": [\n"
		"            \"n = 3\"\n"
		"          ]\n"
		"        }\n"
		"      ],\n"
		"      \"failures\": [\n"
		"        \"new rr iteration 2: boot\"\n"
		"      ],\n"
		"      \"excluded\": [\n"
		"        \"new rr iteration 1: suspect\"\n"
		"      ],\n"
		"      \"flagged\": []\n"
		"    },\n"
		"    {\n"
		"      \"name\": \"sw\",\n"
		"      \"tables\": [],\n"
		"      \"failures\": [],\n"
		"      \"excluded\": [],\n"
		"      \"flagged\": []\n"
		"    }\n"
		"  ]\n"
		"}\n";
	struct kb_report *r = sample();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(results_report_tables_json(f, r), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, want);
	free(buf);
	kb_report_free(r);
}

/* A write that fails is -EIO. */
static void test_tables_json_write_error(void **state)
{
	struct kb_report *r = sample();
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	assert_int_equal(results_report_tables_json(f, r), -EIO);
	fclose(f);
	kb_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_json),
		cmocka_unit_test(test_tables_json_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
