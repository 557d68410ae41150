/* tests/test_proc.c - lib/proc.c: children from argv arrays, exit
 * status, timeout, signal forwarding, output capture. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/err.h"
#include "lib/proc.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void test_exit_status(void **state)
{
	char *ok[] = { "true", NULL }, *bad[] = { "false", NULL };
	struct kb_spawn_result r;

	(void)state;
	assert_int_equal(kb_spawn(ok, NULL, &r), 0);
	assert_true(r.exited);
	assert_int_equal(r.exit_status, 0);
	assert_int_equal(kb_spawn(bad, NULL, &r), 0);
	assert_true(r.exited);
	assert_int_equal(r.exit_status, 1);
	assert_false(r.timed_out);
}

static void test_not_found(void **state)
{
	char *argv[] = { "kbench-no-such-program", NULL };
	struct kb_spawn_result r;

	(void)state;
	kb_quiet = 1;
	assert_int_equal(kb_spawn(argv, NULL, &r), -ENOENT);
}

static void test_timeout(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct kb_spawn_opts o = { .timeout_s = 1 };
	struct kb_spawn_result r;

	(void)state;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.timed_out);
	assert_false(r.exited);
	assert_int_equal(r.signal, SIGTERM);
	/* woken by the deadline, not by the child's natural end */
	assert_true(r.elapsed_s >= 0.9 && r.elapsed_s < 10);
}

static void test_forward_signal(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct kb_spawn_opts o = { .timeout_s = 60 };
	struct kb_spawn_result r;

	(void)state;
	kb_spawn_forward_signal = SIGTERM;	/* as the run's handler sets it */
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	kb_spawn_forward_signal = 0;
	assert_int_equal(r.signal, SIGTERM);
	assert_false(r.timed_out);
	assert_true(r.elapsed_s < 10);
}

static void test_capture(void **state)
{
	char *argv[] = { "echo", "kbench capture", NULL }, *out = NULL;

	(void)state;
	assert_int_equal(kb_capture(argv, &out), 0);
	assert_non_null(out);
	assert_string_equal(out, "kbench capture\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_forward_signal),
		cmocka_unit_test(test_capture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
