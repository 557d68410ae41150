/* tests/test_tool_version.c - `TOOL --version` cached per binary
 * (runner/tool_version.h, issue 16): a fake tool in a temporary
 * directory put first in $PATH counts its invocations in a file; asked
 * twice unchanged it runs once, after its mtime changes (same inode) it
 * runs again, after its size changes too, and a missing tool gives NULL
 * and caches nothing.  The cache is $KBENCH_RUN_DIR/tool-versions.json
 * under the same directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "runner/tool_version.h"

#define TEST_TMPDIR "/tmp/kbench-test-toolver.XXXXXX"
#include "tests/capture.h"
#include "tests/tmpdir.h"

#define TOOL "kbench-fake-tool"

static char *tool_path, *count_path;

/* the fake tool: appends a line to the counter, prints its version */
static void write_tool(const char *version, const char *padding)
{
	char *script = kb_xasprintf("#!/bin/sh\necho x >>'%s'\n"
				    "echo '%s'\necho 'second line'\n%s",
				    count_path, version, padding);
	FILE *f = fopen(tool_path, "w");

	assert_non_null(f);
	fputs(script, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(tool_path, 0755), 0);
	free(script);
}

/* how many times the fake tool ran */
static int runs(void)
{
	char *buf = NULL;
	size_t len = 0, i;
	int n = 0;

	if (kb_read_file(count_path, &buf, &len, 1))
		return 0;
	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	free(buf);
	return n;
}

static void set_mtime(long sec)
{
	struct timespec ts[2] = { { sec, 0 }, { sec, 0 } };

	assert_int_equal(utimensat(AT_FDCWD, tool_path, ts, 0), 0);
}

static void expect_version(const char *want)
{
	char *v = kb_tool_version(TOOL);

	assert_non_null(v);
	assert_string_equal(v, want);
	free(v);
}

static int setup(void **state)
{
	char *path;

	if (tmpdir_setup(state))
		return -1;
	tool_path = kb_path_join(tmpdir, TOOL);
	count_path = kb_path_join(tmpdir, "count");
	path = kb_xasprintf("%s:%s", tmpdir, getenv("PATH") ?
			    getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	free(path);
	path = kb_path_join(tmpdir, "run");
	setenv("KBENCH_RUN_DIR", path, 1);
	free(path);
	return 0;
}

static int teardown(void **state)
{
	free(tool_path);
	free(count_path);
	return tmpdir_teardown(state);
}

static void test_probed_once_per_binary(void **state)
{
	struct stat st0, st1;

	(void)state;
	write_tool("fake 1.0", "");
	set_mtime(1000000000);
	expect_version("fake 1.0");	/* first line only */
	assert_int_equal(runs(), 1);
	expect_version("fake 1.0");	/* cached: not run again */
	assert_int_equal(runs(), 1);

	/* edited in place, same size: only the mtime tells */
	assert_int_equal(stat(tool_path, &st0), 0);
	write_tool("fake 2.0", "");
	set_mtime(1000000000);
	expect_version("fake 1.0");	/* same key: the cache answers */
	assert_int_equal(runs(), 1);
	set_mtime(1000000060);
	assert_int_equal(stat(tool_path, &st1), 0);
	assert_int_equal(st0.st_ino, st1.st_ino);
	expect_version("fake 2.0");
	assert_int_equal(runs(), 2);
	expect_version("fake 2.0");
	assert_int_equal(runs(), 2);

	/* a new size under the old mtime is another binary too */
	write_tool("fake 3.0", "# longer\n");
	set_mtime(1000000060);
	expect_version("fake 3.0");
	assert_int_equal(runs(), 3);
}

/* A tool that is not installed (perf on a machine without it, seen on
 * 2026-12-04) is NULL without a word: it printed "kbench: error: cannot
 * run perf" at the start of every campaign, profiling asked or not.  One
 * that is there but fails is NULL, silently too. */
static void test_missing_tool(void **state)
{
	struct capture cap;
	char *v, *err, *bad = kb_path_join(tmpdir, "broken-tool");
	int fd;

	(void)state;
	cap_begin(&cap);
	v = kb_tool_version("kbench-no-such-tool");
	err = cap_end(&cap);
	assert_null(v);
	assert_string_equal(err, "");
	free(err);

	/* in setup()'s $PATH, executable, no valid format: execve fails */
	fd = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "\x7f" "ELF\x01", 5), 5);
	close(fd);
	cap_begin(&cap);
	v = kb_tool_version("broken-tool");
	err = cap_end(&cap);
	assert_null(v);
	assert_string_equal(err, "");
	free(err);
	unlink(bad);
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probed_once_per_binary),
		cmocka_unit_test(test_missing_tool),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
