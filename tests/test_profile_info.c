/* tests/test_profile_info.c - results/profile_info.c, a run's
 * profile.json: written as docs/results-format.md says (keys sorted, a
 * member left out when not known, an unsampled event null), read back
 * into the same struct, and a file that is not such an object refused
 * with a message naming the file and what was expected. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "results/profile_info.h"

#define TEST_TMPDIR "/tmp/kbench-test-profile-info-XXXXXX"
#include "tmpdir.h"
#include "capture.h"

static const char expected[] =
	"{\n"
	"  \"events\": [\n"
	"    {\n"
	"      \"event\": \"cpu-clock\",\n"
	"      \"note\": \"no cycles\",\n"
	"      \"requested\": \"cycles\",\n"
	"      \"role\": \"cycles\"\n"
	"    },\n"
	"    {\n"
	"      \"event\": null,\n"
	"      \"requested\": \"L1-dcache-load-misses\",\n"
	"      \"role\": \"dcm\"\n"
	"    }\n"
	"  ],\n"
	"  \"kptr_restrict\": 1,\n"
	"  \"perf_data\": \"removed\",\n"
	"  \"record_exit_status\": -1\n"
	"}\n";

static void test_save_load(void **state)
{
	struct kb_profile_info p = { 0 }, q;
	struct kb_profile_event *e;
	char *path = kb_path_join(tmpdir, "profile.json"), *text = NULL;

	(void)state;
	e = profile_info_add_event(&p, "cycles");
	e->requested = kb_xstrdup("cycles");
	e->event = kb_xstrdup("cpu-clock");
	e->note = kb_xstrdup("no cycles");
	e = profile_info_add_event(&p, "dcm");
	e->requested = kb_xstrdup("L1-dcache-load-misses");
	p.has_kptr_restrict = 1;
	p.kptr_restrict = 1;
	p.has_record_exit_status = 1;
	p.record_exit_status = -1;
	p.perf_data = kb_xstrdup("removed");
	assert_int_equal(profile_info_save(path, &p), 0);
	assert_int_equal(kb_read_file(path, &text, NULL, 0), 0);
	assert_string_equal(text, expected);

	assert_int_equal(profile_info_load(path, &q), 0);
	assert_int_equal(q.nevents, 2);
	assert_string_equal(q.events[0].role, "cycles");
	assert_string_equal(q.events[0].event, "cpu-clock");
	assert_string_equal(q.events[0].note, "no cycles");
	assert_null(q.events[1].event);
	assert_null(q.events[1].note);
	assert_int_equal(q.has_kptr_restrict, 1);
	assert_int_equal(q.kptr_restrict, 1);
	assert_int_equal(q.record_exit_status, -1);
	assert_int_equal(q.has_report_exit_status, 0);
	assert_null(q.symbols_missing);
	assert_string_equal(q.perf_data, "removed");
	profile_info_free(&q);
	profile_info_free(&p);
	free(text);
	free(path);
}

static void test_load_bad(void **state)
{
	struct kb_profile_info q;
	char *path = kb_path_join(tmpdir, "bad.json"), *msg;
	struct capture c;
	const char *doc = "{\"events\": [{\"event\": null}]}\n";

	(void)state;
	assert_int_equal(kb_write_atomic(path, doc, strlen(doc)), 0);
	cap_begin(&c);
	assert_int_equal(profile_info_load(path, &q), -EINVAL);
	msg = cap_end(&c);
	assert_non_null(strstr(msg, "bad.json: events[0]"));
	assert_non_null(strstr(msg, "\"role\""));
	assert_int_equal(q.nevents, 0);
	free(msg);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_load),
		cmocka_unit_test(test_load_bad),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
