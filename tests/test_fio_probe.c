/* tests/test_fio_probe.c - a fio --server's probe reply (its name and fio
 * version, as fio's client prints it) and fio version skew between this
 * machine and its load hosts (parsers/fio_probe.h), on recorded outputs:
 * tests/data/fio/pbench-fio-3.7-client-server.txt (two servers, fio 3.7)
 * and kbench-3.33-client-probe.txt (fio --client --parse-only /dev/null,
 * fio 3.33; tests/data/fio/SOURCES.md).  Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "parsers/fio_probe.h"

static char *read_data(const char *name)
{
	char *path = kb_xasprintf("tests/data/fio/%s", name), *buf = NULL;

	assert_int_equal(kb_read_file(path, &buf, NULL, 0), 0);
	free(path);
	return buf;
}

/* text parses into want_name and want_version */
static void check_probe(const char *text, const char *want_name,
			const char *want_version)
{
	char *name, *version;

	assert_int_equal(kb_fio_probe_parse(text, &name, &version), 0);
	assert_string_equal(name, want_name);
	assert_string_equal(version, want_version);
	free(name);
	free(version);
}

static void test_parse_recorded(void **state)
{
	char *text;

	(void)state;
	text = read_data("kbench-3.33-client-probe.txt");
	check_probe(text, "vm", "fio-3.33");
	free(text);
	/* the first server's line of a two-server run's normal output */
	text = read_data("pbench-fio-3.7-client-server.txt");
	check_probe(text, "perf84", "fio-3.7");
	free(text);
}

static void test_parse_bad(void **state)
{
	char *name, *version;

	(void)state;
	/* fio's JSON output (no probe line), nothing, a line without fio= */
	assert_int_equal(kb_fio_probe_parse("{\n  \"fio version\" : "
		"\"fio-3.33\",\n", &name, &version), -EINVAL);
	assert_null(name);
	assert_null(version);
	assert_int_equal(kb_fio_probe_parse("", &name, &version), -EINVAL);
	assert_int_equal(kb_fio_probe_parse("hostname=a, be=0, flags=1\n",
					    &name, &version), -EINVAL);
	assert_int_equal(kb_fio_probe_parse("hostname=a, fio=, flags=1\n",
					    &name, &version), -EINVAL);
	assert_null(version);
	/* a probe line later in the text, one without a newline */
	check_probe("fio: something\nhostname=b, os=Linux, fio=fio-3.35",
		    "b", "fio-3.35");
}

static void test_skew(void **state)
{
	const struct kb_fio_host_version same[] = {
		{ "10.0.0.2:8765", "fio-3.33" }, { "10.0.0.3:8765", NULL },
	};
	const struct kb_fio_host_version differ[] = {
		{ "10.0.0.2:8765", "fio-3.35" }, { "10.0.0.3:8765", "fio-3.33" },
		{ "[fd00::2]:8765", "fio-3.36" },
	};
	char *s;

	(void)state;
	/* an unknown version (no answer) is no skew */
	assert_null(kb_fio_version_skew("fio-3.33", same, 2));
	assert_null(kb_fio_version_skew("fio-3.33", differ, 0));
	s = kb_fio_version_skew("fio-3.33", differ, 3);
	assert_non_null(s);
	assert_string_equal(s, "fio versions differ: local fio-3.33, "
			    "10.0.0.2:8765 fio-3.35, [fd00::2]:8765 fio-3.36");
	free(s);
	s = kb_fio_version_skew(NULL, same, 1);
	assert_non_null(s);
	assert_string_equal(s, "fio versions differ: local unknown, "
			    "10.0.0.2:8765 fio-3.33");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_recorded),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_skew),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
