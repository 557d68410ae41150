/* tests/test_str_num.c - lib/str.h's number parsers, kb_parse_real()
 * and kb_parse_ull(): the one strict reading of every number an option
 * or a kernels.conf key takes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>

#include "lib/str.h"

/* decimal forms read, to the value strtod(3) gives */
static void test_real_ok(void **state)
{
	static const struct {
		const char *s;
		double v;
	} ok[] = {
		{ "1", 1.0 }, { "+1", 1.0 }, { "-2.5", -2.5 }, { ".5", 0.5 },
		{ "5.", 5.0 }, { "1e0", 1.0 }, { "2.5E+2", 250.0 },
		{ "0", 0.0 }, { "0.0e-400", 0.0 }, { "1e-300", 1e-300 },
		{ "1.7e308", 1.7e308 },
	};
	size_t i;
	double v;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = NAN;
		if (kb_parse_real(ok[i].s, NULL, &v) || v != ok[i].v)
			fail_msg("'%s' read as %g, expected %g", ok[i].s, v,
				 ok[i].v);
	}
}

/* what strtod(3) takes but an option must not: hex floats, inf, nan,
 * blanks; out of a double's normal range: -ERANGE (a break-it trial:
 * --min-effect 0x1p-3 was 0.125) */
static void test_real_refused(void **state)
{
	static const struct {
		const char *s;
		int ret;
	} bad[] = {
		{ "", -EINVAL }, { " 1", -EINVAL }, { "1 ", -EINVAL },
		{ "0x1p-3", -EINVAL }, { "0x10", -EINVAL }, { "inf", -EINVAL },
		{ "-infinity", -EINVAL }, { "nan", -EINVAL },
		{ "nan(1)", -EINVAL }, { ".", -EINVAL }, { "+", -EINVAL },
		{ "e5", -EINVAL }, { "1e", -EINVAL }, { "1.2.3", -EINVAL },
		{ "1e400", -ERANGE }, { "-1e400", -ERANGE },
		{ "1e-320", -ERANGE }, { "4.9e-324", -ERANGE },
		{ "1e-400", -ERANGE },
	};
	size_t i;
	double v = 42.0;
	int ret;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ret = kb_parse_real(bad[i].s, NULL, &v);
		if (ret != bad[i].ret)
			fail_msg("'%s': %d, expected %d", bad[i].s, ret,
				 bad[i].ret);
	}
	assert_true(v == 42.0);	/* untouched on error */
	assert_int_equal(kb_parse_real(NULL, NULL, &v), -EINVAL);
}

/* rest: past the number, for a unit the caller reads */
static void test_real_rest(void **state)
{
	const char *rest = NULL;
	double v;

	(void)state;
	assert_int_equal(kb_parse_real("2.5%", &rest, &v), 0);
	assert_true(v == 2.5);
	assert_string_equal(rest, "%");
	assert_int_equal(kb_parse_real("3e%", &rest, &v), 0);
	assert_string_equal(rest, "e%");
	assert_int_equal(kb_parse_real("0x1p-3", &rest, &v), -EINVAL);
	assert_int_equal(kb_parse_real("inf%", &rest, &v), -EINVAL);
}

static void test_ull(void **state)
{
	unsigned long long v = 7;
	const char *rest;

	(void)state;
	assert_int_equal(kb_parse_ull("0", 10, &v, NULL), 0);
	assert_true(v == 0);
	assert_int_equal(kb_parse_ull("65535", 65535, &v, NULL), 0);
	assert_true(v == 65535);
	assert_int_equal(kb_parse_ull("65536", 65535, &v, NULL), -ERANGE);
	assert_int_equal(kb_parse_ull("18446744073709551616", ULLONG_MAX, &v,
				      NULL), -ERANGE);
	assert_int_equal(kb_parse_ull(" 5", 10, &v, NULL), -EINVAL);
	assert_int_equal(kb_parse_ull("+5", 10, &v, NULL), -EINVAL);
	assert_int_equal(kb_parse_ull("-1", 10, &v, NULL), -EINVAL);
	assert_int_equal(kb_parse_ull("0x5", 10, &v, NULL), -EINVAL);
	assert_int_equal(kb_parse_ull("5 ", 10, &v, NULL), -EINVAL);
	assert_int_equal(kb_parse_ull("", 10, &v, NULL), -EINVAL);
	assert_int_equal(kb_parse_ull("3/4", 10, &v, &rest), 0);
	assert_true(v == 3);
	assert_string_equal(rest, "/4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_ok),
		cmocka_unit_test(test_real_refused),
		cmocka_unit_test(test_real_rest),
		cmocka_unit_test(test_ull),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
