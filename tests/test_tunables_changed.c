/* tests/test_tunables_changed.c - runner/tunables.c tunables_changed():
 * the values applied before fio against those read back after it, and
 * the reason that fails the run (runner/run_exec.c).  Tunable files must
 * be sysfs or /proc/sys, so the comparison is tested on its own; the
 * whole path (a background write to queue/nomerges during a run) is
 * tests/e2e_run.sh's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "runner/tunables.h"

static char *labels[] = { "NM", "SCHED", "RQ" };
static char *paths[] = { "/sys/block/loop0/queue/nomerges",
			 "/sys/block/loop0/queue/scheduler", NULL };

static void test_unchanged(void **state)
{
	const char *applied[] = { "0", "none", NULL };
	const char *after[] = { "0", "none", NULL };
	char reason[256] = "x";

	(void)state;
	assert_int_equal(tunables_changed(3, labels, paths, applied, after,
					  reason, sizeof(reason)), 0);
	assert_string_equal(reason, "");
	/* nothing applied (a sweep), nothing compared */
	assert_int_equal(tunables_changed(0, labels, paths, applied, after,
					  reason, sizeof(reason)), 0);
}

static void test_changed_reason(void **state)
{
	const char *applied[] = { "0", "none", NULL };
	const char *after[] = { "2", "none", NULL };
	char reason[256];

	(void)state;
	assert_int_equal(tunables_changed(3, labels, paths, applied, after,
					  reason, sizeof(reason)), 1);
	assert_string_equal(reason, "tunable NM (/sys/block/loop0/queue/"
			    "nomerges) changed during the run: wrote 0, read 2 "
			    "after fio");
}

static void test_two_changed_and_unreadable(void **state)
{
	const char *applied[] = { "1", "mq-deadline", NULL };
	const char *after[] = { NULL, "none", "5" };
	char reason[512], small[40];

	(void)state;
	assert_int_equal(tunables_changed(3, labels, paths, applied, after,
					  reason, sizeof(reason)), 1);
	assert_string_equal(reason, "tunable NM (/sys/block/loop0/queue/"
			    "nomerges) could not be read after fio (wrote 1); "
			    "tunable SCHED (/sys/block/loop0/queue/scheduler) "
			    "changed during the run: wrote mq-deadline, read "
			    "none after fio");
	/* a short buffer: cut, never overrun */
	assert_int_equal(tunables_changed(3, labels, paths, applied, after,
					  small, sizeof(small)), 1);
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unchanged),
		cmocka_unit_test(test_changed_reason),
		cmocka_unit_test(test_two_changed_and_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
