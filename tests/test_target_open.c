/* tests/test_target_open.c - what target_open() (runner/target.h) does
 * before it opens: target_lock_sweep(), the target lock files a killed
 * kbench left in $KBENCH_RUN_DIR/targets removed, those held kept (a
 * break-it trial: a loop: target's lock, keyed by its new backing file,
 * piled up at each kill -9 until the next boot). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/capture.h"

#include "runner/target.h"
#include "lib/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static char *put(const char *dir, const char *name)
{
	char *p = kb_path_join(dir, name);
	int fd = open(p, O_RDWR | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "1 /x\n", 5), 5);
	close(fd);
	return p;
}

static void test_sweep(void **state)
{
	char tmpl[] = "/tmp/kbench-test-tlock-XXXXXX";
	char *dir, *stale, *held, *link, *sub;
	struct stat st;
	int fd;

	(void)state;
	dir = mkdtemp(tmpl);
	assert_non_null(dir);
	stale = put(dir, "file-2049-12");	/* its kbench killed */
	held = put(dir, "blk-7:3");		/* a running kbench's */
	fd = open(held, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	link = kb_path_join(dir, "file-1-1");	/* never followed */
	assert_int_equal(symlink(held, link), 0);
	sub = kb_path_join(dir, "d");		/* not a file: kept */
	assert_int_equal(mkdir(sub, 0700), 0);

	target_lock_sweep(dir);
	assert_int_equal(lstat(stale, &st), -1);
	assert_int_equal(lstat(held, &st), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_int_equal(lstat(sub, &st), 0);
	/* the held one still locked: the sweep took no lock of its own
	 * and left */
	{
		int fd2 = open(held, O_RDWR);

		assert_true(fd2 >= 0);
		assert_int_equal(flock(fd2, LOCK_EX | LOCK_NB), -1);
		close(fd2);
	}
	close(fd);
	/* its holder gone: removed by the next sweep */
	target_lock_sweep(dir);
	assert_int_equal(lstat(held, &st), -1);
	target_lock_sweep("/nonexistent/kbench-targets");	/* no error */

	unlink(link);
	rmdir(sub);
	assert_int_equal(rmdir(dir), 0);
	free(stale);
	free(held);
	free(link);
	free(sub);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
