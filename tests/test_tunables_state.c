/* tests/test_tunables_state.c - results/tunables_state.c: a campaign's
 * tunables.saved.json and a registry record, written as
 * tunables_state.h says and read back into the same structs; a record
 * that is missing or not JSON reported as such (the caller then treats
 * the tunable as unrecorded), a saved file that is not JSON refused with
 * a message naming it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "results/tunables_state.h"

#define TEST_TMPDIR "/tmp/kbench-test-tunables-state-XXXXXX"
#include "tmpdir.h"
#include "capture.h"

static void assert_file(const char *path, const char *text)
{
	char *buf = NULL;

	assert_int_equal(kb_read_file(path, &buf, NULL, 0), 0);
	assert_string_equal(buf, text);
	free(buf);
}

static void test_saved(void **state)
{
	struct kb_tunables_saved s = { 0 }, t;
	char *path = kb_path_join(tmpdir, "tunables.saved.json"), *msg;
	const char *bad = "{\"/sys/a\": \"1\",\n";
	struct capture c;

	(void)state;
	tunables_saved_add(&s, "/sys/b", "mq-deadline");
	tunables_saved_add(&s, "/sys/a", "0");
	assert_int_equal(tunables_saved_save(path, &s), 0);
	assert_file(path, "{\n  \"/sys/a\": \"0\",\n"
		    "  \"/sys/b\": \"mq-deadline\"\n}\n");
	assert_int_equal(tunables_saved_load(path, &t), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.paths[0], "/sys/a");
	assert_string_equal(t.values[0], "0");
	assert_string_equal(t.paths[1], "/sys/b");
	assert_string_equal(t.values[1], "mq-deadline");
	tunables_saved_free(&t);
	tunables_saved_free(&s);

	assert_int_equal(kb_write_atomic(path, bad, strlen(bad)), 0);
	cap_begin(&c);
	assert_int_equal(tunables_saved_load(path, &t), -EINVAL);
	msg = cap_end(&c);
	assert_non_null(strstr(msg, "tunables.saved.json:"));
	assert_int_equal(t.n, 0);
	free(msg);
	free(path);
}

static void test_record(void **state)
{
	struct kb_tunable_record r = { 0 }, q;
	char *path = kb_path_join(tmpdir, "!sys!a");

	(void)state;
	assert_int_equal(tunable_record_load(path, &q), -ENOENT);
	r.path = kb_xstrdup("/sys/a");
	r.original = kb_xstrdup("0");
	r.campaign = kb_xstrdup("/srv/c1");
	r.pid = 4242;
	r.pid_start = 123456789;
	assert_int_equal(tunable_record_save(path, &r), 0);
	assert_file(path, "{\n  \"campaign\": \"/srv/c1\",\n"
		    "  \"original\": \"0\",\n  \"path\": \"/sys/a\",\n"
		    "  \"pid\": 4242,\n  \"pid_start\": 123456789\n}\n");
	assert_int_equal(tunable_record_load(path, &q), 0);
	assert_string_equal(q.path, "/sys/a");
	assert_string_equal(q.original, "0");
	assert_string_equal(q.campaign, "/srv/c1");
	assert_int_equal(q.pid, 4242);
	assert_true(q.pid_start == 123456789);
	tunable_record_free(&q);
	tunable_record_free(&r);

	assert_int_equal(kb_write_atomic(path, "{\"pid\": 7}", 10), 0);
	assert_int_equal(tunable_record_load(path, &q), 0);
	assert_null(q.path);
	assert_null(q.original);
	assert_int_equal(q.pid, 7);
	assert_true(q.pid_start == 0);	/* an older record: none */
	tunable_record_free(&q);
	assert_int_equal(kb_write_atomic(path, "not json", 8), 0);
	assert_int_equal(tunable_record_load(path, &q), -EINVAL);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saved),
		cmocka_unit_test(test_record),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
