/* tests/test_layout.c - the named layouts of reports/layout.h and the CSV
 * renderer, on the report fixture (tests/data/report/results.json, see
 * tests/test_report.c).  Golden files tests/data/report/layout-NAME.{txt,
 * md,csv} were read by eye when made (the rounds average equals the
 * variants table's mean, mmtests' Amean too); KBENCH_UPDATE_GOLDEN=1
 * rewrites them.  Runs from the repository root. */
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
#include "parsers/kconf.h"
#include "reports/layout.h"
#include "reports/report.h"
#include "results/model.h"
#include "stats/summary.h"
#include "stats/compare.h"

static json_t *load_fixture(void)
{
	json_t *res = results_load_export("tests/data/report/results.json");

	assert_non_null(res);
	assert_int_equal(stats_analyse(res, NULL), 0);
	return res;
}

static char *render(json_t *res, const char *format,
		    const struct report_opts *opts, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*ret = report_render(f, res, format, opts);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void check_golden(const char *out, const char *golden)
{
	char *want = NULL;

	if (getenv("KBENCH_UPDATE_GOLDEN")) {
		assert_int_equal(kb_write_atomic(golden, out, strlen(out)), 0);
		return;
	}
	assert_int_equal(kb_read_file(golden, &want, NULL, 0), 0);
	if (strcmp(out, want))
		fail_msg("%s differs from the output (KBENCH_UPDATE_GOLDEN=1 "
			 "rewrites it):\n%s", golden, out);
	free(want);
}

static void check_layout(const char *layout)
{
	static const char *const fmts[][2] = { { "text", "txt" },
		{ "markdown", "md" }, { "csv", "csv" } };
	struct report_opts o;
	json_t *res = load_fixture();
	char *out, *golden;
	size_t f;
	int ret;

	report_opts_init(&o);
	o.layout = layout;
	for (f = 0; f < 3; f++) {
		out = render(res, fmts[f][0], &o, &ret);
		assert_int_equal(ret, 0);
		golden = kb_xasprintf("tests/data/report/layout-%s.%s", layout,
				      fmts[f][1]);
		check_golden(out, golden);
		free(golden);
		free(out);
	}
	json_decref(res);
}

static void test_rounds(void **s) { (void)s; check_layout("rounds"); }
static void test_scaling(void **s) { (void)s; check_layout("scaling"); }
static void test_mmtests(void **s) { (void)s; check_layout("mmtests"); }
static void test_lkp(void **s) { (void)s; check_layout("lkp"); }

/* The rounds average is the variants table's mean (same runs). */
static void test_rounds_average_is_mean(void **state)
{
	struct report_opts o;
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	report_opts_init(&o);
	o.layout = "rounds";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "  average     101241.33     101901.17"
				    "     102485.04\n"));
	/* the failed run of NM=1 iteration 2 is n/a, never 0 */
	assert_non_null(strstr(out, "        2     100987.12           n/a"));
	free(out);
	json_decref(res);
}

/* RFC 4180: quoted fields, doubled quotes, CRLF. */
static void test_csv_quoting(void **state)
{
	struct report_opts o;
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	report_opts_init(&o);
	o.layout = "variants";
	out = render(res, "csv", &o, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "\"Kernel\",\"NM\",\"I/Os per sec\","));
	assert_non_null(strstr(out, "\"* +1.23%*\""));
	assert_non_null(strstr(out, "\r\n"));
	free(out);
	json_decref(res);
}

static void test_pivot_errors(void **state)
{
	struct report_opts o;
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	report_opts_init(&o);
	o.rows = "nosuch";
	o.cols = "NM";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	o.rows = "NM";
	o.cols = NULL;
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	o.rows = o.cols = "NM";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	o.rows = "iteration";
	o.cols = "NM";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "iteration       NM=0       NM=1"));
	free(out);
	o.rows = NULL;
	o.cols = NULL;
	o.layout = "nosuch";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	json_decref(res);
}

/* One table of layouts: kernels.conf's `layouts =` accepts exactly the
 * report's layouts but pivot (which needs --rows/--cols), each has help,
 * and an unknown name is refused naming every choice. */
static void test_layout_table(void **state)
{
	const char *name, *help;
	size_t i, j, n = 0;

	(void)state;
	for (i = 0; (name = kb_layout_name(i, &help)); i++) {
		assert_true(kb_layout_find(name));
		assert_true(strlen(help) > 10);
		if (!strcmp(name, "pivot"))
			continue;
		for (j = 0; kconf_layout_names[j] &&
		     strcmp(kconf_layout_names[j], name); j++)
			;
		if (!kconf_layout_names[j])
			fail_msg("layout %s is not accepted by kernels.conf", name);
		n++;
	}
	for (j = 0; kconf_layout_names[j]; j++)
		assert_true(kb_layout_find(kconf_layout_names[j]));
	assert_int_equal(j, n);
	assert_false(kb_layout_find("nosuch"));
	assert_false(kb_layout_find(NULL));
	{
		char *all = kb_layout_names(", ");

		assert_non_null(strstr(all, "variants, profile"));
		assert_non_null(strstr(all, "lkp, pivot"));
		free(all);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_table),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_mmtests),
		cmocka_unit_test(test_lkp),
		cmocka_unit_test(test_rounds_average_is_mean),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_pivot_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
