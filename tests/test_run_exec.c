/* tests/test_run_exec.c - runner/run_exec.c: fio's command line for a
 * run (run_exec_fio_argv(), built with lib/argv.h) on this machine, with
 * load hosts (hosts =, an IPv6 one among them) sharing the job file, and
 * with each host its own job file (target@HOST). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/argv.h"
#include "lib/file.h"
#include "runner/run_exec.h"

/* a's words joined by spaces (malloc'd) */
static char *joined(const struct kb_argv *a)
{
	char *s = kb_xstrdup(""), *t;
	size_t i;

	assert_null(a->v[a->n]);	/* NULL-terminated for kb_spawn */
	for (i = 0; i < a->n; i++) {
		t = kb_xasprintf("%s%s%s", s, i ? " " : "", a->v[i]);
		free(s);
		s = t;
	}
	return s;
}

static void check(char *const *hosts, const unsigned *ports, size_t n,
		  char *const *host_jobs, const char *want)
{
	struct kb_argv a = KB_ARGV_INIT;
	char *got;

	run_exec_fio_argv(&a, hosts, ports, n, host_jobs, "R/fio.json", "R",
			  "R/job.fio", 0);
	got = joined(&a);
	assert_string_equal(got, want);
	free(got);
	kb_argv_clear(&a);
}

static void test_local(void **state)
{
	(void)state;
	check(NULL, NULL, 0, NULL, "fio --output=R/fio.json --aux-path=R "
	      "--output-format=json+ R/job.fio");
}

static void test_hosts(void **state)
{
	char *const hosts[] = { "10.0.0.2", "fd00::3" };
	const unsigned ports[] = { 8765, 8766 };

	(void)state;
	/* --output and --aux-path ahead of the first --client: a server
	 * given them opens (writes) that path on its machine (fio's client
	 * passes the options after a --client to that server) */
	check(hosts, ports, 2, NULL, "fio --output=R/fio.json --aux-path=R "
	      "--client=10.0.0.2,8765 --client=ip6:fd00::3,8766 "
	      "--output-format=json+ R/job.fio");
}

static void test_host_jobs(void **state)
{
	char *const hosts[] = { "a", "b" };
	const unsigned ports[] = { 8765, 8765 };
	char *const jobs[] = { "R/job.a.fio", "R/job.b.fio" };

	(void)state;
	check(hosts, ports, 2, jobs, "fio --output=R/fio.json --aux-path=R "
	      "--client=a,8765 R/job.a.fio --client=b,8765 R/job.b.fio "
	      "--output-format=json+");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_host_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
