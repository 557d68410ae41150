/* tests/test_quiet.c - the quiet-window wait before a retry
 * (runner/quiet.h) on /proc/stat and PSI texts recorded on this
 * project's machine (tests/data/quiet/README): the busy CPU, steal and
 * CPU pressure of an interval, the judgment against a campaign's limits
 * and its reason, counters that go backwards, and kb_wait_quiet()'s
 * three outcomes on the live machine (limits nothing can break: quiet;
 * limits everything breaks: busy when the time is up, with the reason;
 * a stop flag already set: returns at once).  Runs from the repository
 * root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "runner/quiet.h"

static char *load(const char *name)
{
	char *p = kb_xasprintf("tests/data/quiet/%s", name), *buf = NULL;

	assert_int_equal(kb_read_file(p, &buf, NULL, 0), 0);
	free(p);
	return buf;
}

/* The snapshot of recorded file NAME (+ NAME.psi) at time t_s. */
static void snap(const char *name, double t_s, struct kb_quiet_snap *s)
{
	char *psiname = kb_xasprintf("%s.psi", name);
	char *st = load(name), *psi = load(psiname);

	assert_int_equal(kb_quiet_parse(st, psi, t_s, s), 0);
	free(st);
	free(psi);
	free(psiname);
}

static void test_parse(void **state)
{
	struct kb_quiet_snap s;

	(void)state;
	snap("quiet.a", 1, &s);
	/* cpu  3706065 33256 2693294 3853950 197113 0 383344 13577 */
	assert_int_equal(s.ncpus, 2);
	assert_true(s.have_steal);
	assert_int_equal(s.busy, 3706065ULL + 33256 + 2693294 + 383344);
	assert_int_equal(s.steal, 13577);
	assert_int_equal(s.total, s.busy + 3853950ULL + 197113 + 13577);
	assert_true(s.have_psi);
	assert_int_equal(s.psi_some_us, 16541615217ULL);
	/* no cpu line: an error; no PSI: none */
	assert_int_equal(kb_quiet_parse("intr 1 2\n", NULL, 1, &s), -EINVAL);
	assert_int_equal(kb_quiet_parse("cpu  1 2 3 4\ncpu0 1 2 3 4\n", NULL,
					1, &s), 0);
	assert_false(s.have_psi);
	assert_false(s.have_steal);
	assert_int_equal(s.ncpus, 1);
}

static void test_sample(void **state)
{
	struct kb_quiet_snap a, b;
	struct kb_quiet_sample q, busy;
	struct kb_quiet_limits l = { 40, 5, 40 };
	char why[128] = "";

	(void)state;
	snap("quiet.a", 10, &a);
	snap("quiet.b", 11, &b);
	assert_int_equal(kb_quiet_sample_of(&a, &b, &q), 0);
	/* 2 busy ticks of 202, x 2 CPUs: 2% of a CPU */
	assert_true(q.busy_cpu_pct >= 0 && q.busy_cpu_pct < 5);
	assert_true(q.steal_pct >= 0 && q.steal_pct < 1);
	assert_true(isfinite(q.psi_cpu_pct) && q.psi_cpu_pct < 5);
	assert_int_equal(kb_quiet_judge(&l, &q, why, sizeof(why)), 1);

	snap("busy.a", 20, &a);
	snap("busy.b", 21, &b);
	assert_int_equal(kb_quiet_sample_of(&a, &b, &busy), 0);
	/* two busy loops on two CPUs: 203 of 203 ticks, 200% of a CPU */
	assert_true(busy.busy_cpu_pct > 190 && busy.busy_cpu_pct <= 200);
	assert_int_equal(kb_quiet_judge(&l, &busy, why, sizeof(why)), 0);
	assert_string_equal(why, "other tasks used 200% of a CPU > 40%");
	/* a limit that is off is not checked */
	l.busy_cpu_pct = NAN;
	assert_int_equal(kb_quiet_judge(&l, &busy, why, sizeof(why)), 1);
	/* steal and CPU pressure each break the window on their own */
	busy.steal_pct = 7.5;
	assert_int_equal(kb_quiet_judge(&l, &busy, why, sizeof(why)), 0);
	assert_string_equal(why, "steal 7.5% > 5.0%");
	busy.steal_pct = 0;
	busy.psi_cpu_pct = 55;
	assert_int_equal(kb_quiet_judge(&l, &busy, why, sizeof(why)), 0);
	assert_string_equal(why, "CPU pressure 55% > 40%");

	/* backwards (b before a): nothing can be said */
	assert_int_equal(kb_quiet_sample_of(&b, &a, &q), -ERANGE);
	assert_true(isnan(q.busy_cpu_pct));
	/* no tick elapsed */
	assert_int_equal(kb_quiet_sample_of(&a, &a, &q), -ERANGE);
}

static void test_wait(void **state)
{
	struct kb_quiet_limits never = { INFINITY, INFINITY, INFINITY };
	struct kb_quiet_limits always = { -1, NAN, NAN };
	volatile sig_atomic_t stop = 0;
	double waited;
	char why[128];

	(void)state;
	/* nothing can break these limits: quiet after one window */
	assert_int_equal(kb_wait_quiet(&never, 30, &stop, &waited, why,
				       sizeof(why)), 1);
	assert_true(waited >= KB_QUIET_WINDOW_MS / 1000.0 * 0.9);
	/* every busy CPU breaks these: busy once the time is up, and why */
	assert_int_equal(kb_wait_quiet(&always, 1.5, &stop, &waited, why,
				       sizeof(why)), 0);
	assert_true(waited >= 1.5);
	assert_non_null(strstr(why, "other tasks used "));
	/* Ctrl-C: no wait */
	stop = 1;
	assert_int_equal(kb_wait_quiet(&always, 30, &stop, &waited, why,
				       sizeof(why)), 0);
	assert_true(waited < 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
