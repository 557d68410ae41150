/* tests/test_target_open.c - what target_open() (runner/target.h) does
 * before it opens: target_lock_sweep(), the target lock files a killed
 * kbench left in $KBENCH_RUN_DIR/targets removed, those held kept (a
 * break-it trial: a loop: target's lock, keyed by its new backing file,
 * piled up at each kill -9 until the next boot); target_hosts_distinct(),
 * two load hosts that are one fio server refused. */
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

/* hosts = localhost 127.0.0.1 (one port): two hosts to kconf, one fio
 * server, which each run would be sent to twice (a break-it trial);
 * another port, or another address, is another server */
static void test_hosts_distinct(void **state)
{
	static const struct {
		const char *conf;
		const char *want;	/* NULL: 0 */
	} cases[] = {
		{ "hosts = localhost 127.0.0.1\n", "hosts: 'localhost' and "
		  "'127.0.0.1' are one fio server (127.0.0.1, port 8765)" },
		{ "hosts = 127.0.0.1:9000 LOCALHOST:9000\n", "hosts: "
		  "'127.0.0.1' and 'localhost' are one fio server (127.0.0.1, "
		  "port 9000)" },
		{ "hosts = 10.0.0.2 10.0.0.3\n[job randread-4k]\n"
		  "hosts = localhost 127.0.0.1\n", "[job randread-4k] hosts "
		  "(line 6): 'localhost' and '127.0.0.1' are one fio server" },
		{ "hosts = localhost 127.0.0.1:9000\n", NULL },
		{ "hosts = 127.0.0.1 127.0.0.2 [::1]\n", NULL },
		{ "hosts = localhost\n[job randread-4k]\nhosts = 127.0.0.1\n",
		  NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = kb_xasprintf("[global]\njobs = randread-4k\n"
					  "target = /dev/sdz\n%s[running]\n",
					  cases[i].conf);
		struct kb_config cfg;
		struct capture c;
		char *msg;
		int ret;

		assert_int_equal(kconf_parse("k.conf", text, &cfg), 0);
		cap_begin(&c);
		ret = target_hosts_distinct(&cfg);
		msg = cap_end(&c);
		if (cases[i].want ? ret != -EINVAL ||
		    !strstr(msg, cases[i].want) : ret != 0 || *msg)
			fail_msg("case %zu: %d, \"%s\", wanted \"%s\"", i,
				 ret, msg, cases[i].want ?: "");
		free(msg);
		free(text);
		kconf_free(&cfg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_hosts_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
