/* tests/tmpdir.h - one temporary directory for a cmocka group of tests.
 * Define TEST_TMPDIR, a mkdtemp(3) template ("/tmp/kbench-test-NAME-
 * XXXXXX"), before including this after cmocka.h; it gives the array
 * tmpdir (the directory's path once made) and tmpdir_setup() and
 * tmpdir_teardown() for cmocka_run_group_tests(): mkdtemp, then "rm -rf"
 * started from an argv array (lib/proc.h). */
#ifndef KB_TESTS_TMPDIR_H
#define KB_TESTS_TMPDIR_H

#include <stdlib.h>

#include "lib/proc.h"

#ifndef TEST_TMPDIR
#error "define TEST_TMPDIR (a mkdtemp template) before tests/tmpdir.h"
#endif

static char tmpdir[] = TEST_TMPDIR;

static int tmpdir_setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int tmpdir_teardown(void **state)
{
	char *argv[] = { "rm", "-rf", tmpdir, NULL };
	struct kb_spawn_result r;
	struct kb_spawn_opts o = { 0 };

	(void)state;
	return kb_spawn(argv, &o, &r);
}

#endif
