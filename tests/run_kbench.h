/* tests/run_kbench.h - run the built kbench ($KBENCH, else build/kbench)
 * from a unit test, as a user would.  Include after cmocka.h. */
#ifndef KB_TESTS_RUN_KBENCH_H
#define KB_TESTS_RUN_KBENCH_H

#include <stdlib.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/proc.h"

/* Run kbench with args (NULL-terminated, at most 14); its exit status,
 * stdout and stderr (malloc'd). */
static inline int run_kbench(char **args, char **out, char **errout)
{
	const char *kb = getenv("KBENCH") ?: "build/kbench";
	char so[] = "/tmp/kbench-test-out.XXXXXX";
	char se[] = "/tmp/kbench-test-err.XXXXXX";
	char *argv[16];
	struct kb_spawn_opts o = { .stdout_path = so, .stderr_path = se };
	struct kb_spawn_result r;
	size_t n = 0;

	argv[n++] = (char *)kb;
	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	close(mkstemp(so));
	close(mkstemp(se));
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.exited);
	assert_int_equal(kb_read_file(so, out, NULL, 0), 0);
	assert_int_equal(kb_read_file(se, errout, NULL, 0), 0);
	unlink(so);
	unlink(se);
	return r.exit_status;
}

#endif
