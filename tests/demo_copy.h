/* tests/demo_copy.h - a fresh copy of tests/data/push/demo (a real
 * 12-run campaign) per test, for tests that edit a campaign's files:
 * demo_copy(template) makes the directory with mkdtemp(3) (template
 * "/tmp/kbench-test-NAME.XXXXXX") and copies the campaign into it with
 * "cp -a" started from an argv array (lib/proc.h); demo_remove() removes
 * it ("rm -rf") and frees the path.  Include after cmocka.h. */
#ifndef KB_TESTS_DEMO_COPY_H
#define KB_TESTS_DEMO_COPY_H

#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "lib/proc.h"

static char *demo_copy(const char *template)
{
	char *tmpl = kb_xstrdup(template), *dir;
	char *argv[] = { "cp", "-a", "tests/data/push/demo/.", NULL, NULL };
	struct kb_spawn_result r;

	dir = mkdtemp(tmpl);
	assert_non_null(dir);
	argv[3] = dir;
	assert_int_equal(kb_spawn(argv, NULL, &r), 0);
	assert_int_equal(r.exit_status, 0);
	return dir;
}

static void demo_remove(char *dir)
{
	char *argv[] = { "rm", "-rf", dir, NULL };
	struct kb_spawn_result r;

	kb_spawn(argv, NULL, &r);
	free(dir);
}

#endif
