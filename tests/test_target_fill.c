/* tests/test_target_fill.c - target_fill() (runner/target.h): a sparse
 * loop backing file or new file: target gets data over its holes, so a
 * read job does I/O (a new-user trial found randread on loop:SIZE reading
 * holes at 233k IOPS, then 58k once a write job had filled the file: a
 * "-76% regression" of one kernel against itself). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/capture.h"

#include "runner/target.h"
#include "lib/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIZE ((3ULL << 20) + 100)	/* not a multiple of the chunk */

static int make_sparse(char *path, unsigned long long size)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	return fd;
}

static void test_fills_holes(void **state)
{
	char path[] = "/tmp/kbench-fill.XXXXXX";
	int fd = make_sparse(path, SIZE), rfd;
	struct stat st;
	unsigned char *a = malloc(4096), *b = malloc(4096);
	size_t i, nonzero = 0;

	(void)state;
	/* a sparse file: SEEK_HOLE finds the hole at 0 (where the file
	 * system supports it; else the test says nothing about holes) */
	if (lseek(fd, 0, SEEK_HOLE) != 0)
		skip();
	assert_int_equal(target_fill(fd, SIZE, path), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal((unsigned long long)st.st_size, SIZE);
	assert_true((unsigned long long)st.st_blocks * 512 >= SIZE);
	assert_int_equal(lseek(fd, 0, SEEK_HOLE), (off_t)SIZE);
	/* data, not zeros; two chunks differ */
	assert_int_equal(pread(fd, a, 4096, 0), 4096);
	assert_int_equal(pread(fd, b, 4096, 1 << 20), 4096);
	for (i = 0; i < 4096; i++)
		nonzero += a[i] != 0;
	assert_true(nonzero > 3000);
	assert_memory_not_equal(a, b, 4096);
	/* the tail past the last whole chunk is written too */
	assert_int_equal(pread(fd, a, 100, (off_t)(3ULL << 20)), 100);
	for (i = 0, nonzero = 0; i < 100; i++)
		nonzero += a[i] != 0;
	assert_true(nonzero > 50);
	close(fd);

	/* a file without holes is left alone: a read-only fd, which any
	 * write would fail on, gets 0 */
	rfd = open(path, O_RDONLY);
	assert_true(rfd >= 0);
	assert_int_equal(target_fill(rfd, SIZE, path), 0);
	close(rfd);
	unlink(path);
	free(a);
	free(b);
}

/* a write that cannot be done (here RLIMIT_FSIZE: EFBIG, as ENOSPC on a
 * full file system) is an error naming the file and how far it got */
static void test_write_error_said(void **state)
{
	char path[] = "/tmp/kbench-fill.XXXXXX";
	int fd = make_sparse(path, SIZE), ret;
	struct rlimit old, lim = { .rlim_cur = 1 << 20, .rlim_max = 0 };
	char *err;
	struct capture cap;

	(void)state;
	if (lseek(fd, 0, SEEK_HOLE) != 0)
		skip();
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	cap_begin(&cap);
	ret = target_fill(fd, SIZE, path);
	err = cap_end(&cap);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(ret, -EFBIG);
	assert_non_null(strstr(err, "cannot write the target's data to"));
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "at 1 MiB of 3"));
	free(err);
	close(fd);
	unlink(path);
}

/* A fill cut short goes on from the chunk of the first hole: the data
 * before it is kept (here a marker kbench never writes), the rest
 * filled; kbench run's signal handler (kb_spawn_forward_signal) stops a
 * fill before its next chunk with -EINTR and no message (a break-it
 * trial: Ctrl-C waited for 2 GiB, 7 s). */
static void test_resume_and_interrupt(void **state)
{
	char path[] = "/tmp/kbench-fill.XXXXXX";
	int fd = make_sparse(path, SIZE), ret;
	unsigned char *a = malloc(1 << 20), b[64];
	struct capture cap;
	char *err;
	size_t i, nonzero = 0;

	(void)state;
	if (lseek(fd, 0, SEEK_HOLE) != 0)
		skip();
	memset(a, 0xab, 1 << 20);
	assert_int_equal(pwrite(fd, a, 1 << 20, 0), 1 << 20);
	assert_int_equal(lseek(fd, 0, SEEK_HOLE), (off_t)(1 << 20));

	kb_spawn_forward_signal = SIGTERM;
	cap_begin(&cap);
	ret = target_fill(fd, SIZE, path);
	err = cap_end(&cap);
	kb_spawn_forward_signal = 0;
	assert_int_equal(ret, -EINTR);
	assert_string_equal(err, "");
	free(err);
	assert_int_equal(lseek(fd, 0, SEEK_HOLE), (off_t)(1 << 20));

	assert_int_equal(target_fill(fd, SIZE, path), 0);
	assert_int_equal(lseek(fd, 0, SEEK_HOLE), (off_t)SIZE);
	assert_int_equal(pread(fd, b, sizeof(b), 4096), (ssize_t)sizeof(b));
	for (i = 0; i < sizeof(b); i++)
		assert_int_equal(b[i], 0xab);
	assert_int_equal(pread(fd, b, sizeof(b), 1 << 20), (ssize_t)sizeof(b));
	for (i = 0; i < sizeof(b); i++)
		nonzero += b[i] != 0 && b[i] != 0xab;
	assert_true(nonzero > 32);
	close(fd);
	unlink(path);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fills_holes),
		cmocka_unit_test(test_write_error_said),
		cmocka_unit_test(test_resume_and_interrupt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
