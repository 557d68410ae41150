/* tests/test_guest_setup.c - a vm guest's setup inside kbench guest
 * (runner/guest_setup.h): the errors a broken initramfs or campaign
 * gets, and the root and environment the runs get.  The real module
 * loads and 9p mounts are checked by tests/vm_e2e.sh in a guest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/file.h"
#include "runner/guest_setup.h"
#include "tests/capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/kbench-test-guest-setup.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *a = kb_path_join(tmpdir, "root"), *b = kb_path_join(tmpdir,
								"junk.ko");

	(void)state;
	rmdir(a);
	unlink(b);
	free(a);
	free(b);
	return rmdir(tmpdir);
}

/* A missing module file: -ENOENT, the file named; its parameters are
 * not taken for part of the name. */
static void test_module_missing(void **state)
{
	struct capture cap;
	char *msg;
	int ret;

	(void)state;
	cap_begin(&cap);
	ret = kb_guest_load_module("/nonexistent/null_blk.ko queue_mode=2 "
				   "irqmode=0");
	msg = cap_end(&cap);
	assert_int_equal(ret, -ENOENT);
	assert_non_null(strstr(msg, "module /nonexistent/null_blk.ko: "));
	assert_null(strstr(msg, "queue_mode=2:"));
	free(msg);
}

/* A file that is not a module: the kernel refuses it (as root: the ELF
 * check; otherwise the permission), the file and its parameters named. */
static void test_module_refused(void **state)
{
	char *junk = kb_path_join(tmpdir, "junk.ko"), *spec, *msg, *want;
	struct capture cap;
	int ret;

	(void)state;
	assert_int_equal(kb_write_atomic(junk, "not an ELF module\n", 18), 0);
	spec = kb_xasprintf("%s  a=1", junk);
	cap_begin(&cap);
	ret = kb_guest_load_module(spec);
	msg = cap_end(&cap);
	assert_true(ret < 0);
	want = kb_xasprintf("module %s a=1: the kernel refused it: ", junk);
	assert_non_null(strstr(msg, want));
	free(want);
	free(msg);
	free(spec);
	free(junk);
}

/* The campaign directory must be absolute (it is mounted at the same
 * path inside the root); nothing is mounted then. */
static void test_mount_relative(void **state)
{
	char *root = kb_path_join(tmpdir, "root"), *msg;
	struct capture cap;
	int ret;

	(void)state;
	cap_begin(&cap);
	ret = kb_guest_mount_9p(root, "campaign");
	msg = cap_end(&cap);
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(msg, "campaign: expected an absolute path"));
	assert_false(kb_exists(root));
	free(msg);
	free(root);
}

/* Entering the root: a child chroots into an empty directory and finds
 * itself at its "/" with only PATH, HOME and TERM set. */
static void test_enter_root(void **state)
{
	char *root = kb_path_join(tmpdir, "root");
	pid_t pid;
	int st = -1;

	(void)state;
	if (geteuid() != 0) {
		free(root);
		skip();
	}
	assert_int_equal(kb_mkdir_p(root), 0);
	setenv("KBENCH_TEST_LEAK", "1", 1);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char cwd[64];
		const char *h;
		int bad = 0;

		if (kb_guest_enter_root(root, "/opt/fio/bin:/usr/bin"))
			_exit(10);
		h = getenv("HOME");
		bad |= !h || strcmp(h, "/root");
		bad |= !getenv("PATH") ||
		       strcmp(getenv("PATH"), "/opt/fio/bin:/usr/bin");
		bad |= getenv("KBENCH_TEST_LEAK") != NULL;
		bad |= !getcwd(cwd, sizeof(cwd)) || strcmp(cwd, "/");
		/* the empty directory is the root now */
		bad |= kb_exists("/tmp") || kb_exists("/etc");
		_exit(bad ? 11 : 0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	unsetenv("KBENCH_TEST_LEAK");
	free(root);
}

/* The guest's PATH from the host's: absolute entries kept in order,
 * relative, empty and repeated ones dropped, the usual directories
 * appended where missing. */
static void test_guest_path(void **state)
{
	static const struct { const char *host, *want; } cases[] = {
		{ NULL, KB_GUEST_STD_PATH },
		{ "", KB_GUEST_STD_PATH },
		{ "/opt/fio/bin:/usr/bin:/bin", "/opt/fio/bin:/usr/bin:/bin:"
		  "/usr/local/sbin:/usr/local/bin:/usr/sbin:/sbin" },
		{ ".:bin::/root/bin:/root/bin:/usr/local/bin/", "/root/bin:"
		  "/usr/local/bin/:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
		  "/usr/bin:/sbin:/bin" },
		{ KB_GUEST_STD_PATH, KB_GUEST_STD_PATH },
		{ "/usr/bin:/usr/bin2", "/usr/bin:/usr/bin2:/usr/local/sbin:"
		  "/usr/local/bin:/usr/sbin:/sbin:/bin" },
		/* the guest's /tmp and /run are its own tmpfs */
		{ "/tmp/fio:/run/x/bin:/tmp:/run:/tmpfoo:/runner/bin:/usr/bin",
		  "/tmpfoo:/runner/bin:/usr/bin:/usr/local/sbin:"
		  "/usr/local/bin:/usr/sbin:/sbin:/bin" },
	};
	size_t i, n = 0;
	char *big, *p;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p = kb_guest_path(cases[i].host);
		assert_string_equal(p, cases[i].want);
		free(p);
	}
	/* entries that lead into /tmp or /run (a symlink, "//", "..") are
	 * dropped as the plain ones are, where they resolve */
	{
		char dir[] = "/var/tmp/kbench-test-gp.XXXXXX", *link, *host;

		assert_non_null(mkdtemp(dir));
		link = kb_xasprintf("%s/l", dir);
		assert_int_equal(symlink("/tmp", link), 0);
		host = kb_xasprintf("%s:%s:/usr/../tmp:%s", link, dir,
				    "/usr/bin");
		p = kb_guest_path(host);
		big = kb_xasprintf("%s:/usr/bin:/usr/local/sbin:/usr/local/bin:"
				   "/usr/sbin:/sbin:/bin", dir);
		assert_string_equal(p, big);
		assert_true(kb_guest_tmpfs_path(link));
		assert_true(kb_guest_tmpfs_path("/run/x"));
		assert_false(kb_guest_tmpfs_path(dir));
		free(big);
		free(p);
		free(host);
		unlink(link);
		rmdir(dir);
		free(link);
	}
	/* a host PATH of 160 KiB (20000 distinct entries): the guest's stays
	 * under KB_GUEST_PATH_MAX plus the usual directories, which are
	 * all there */
	big = kb_xcalloc(20000, 9);
	for (i = 0; i < 20000; i++)
		n += (size_t)sprintf(big + n, "%s/d%05zu", i ? ":" : "", i);
	p = kb_guest_path(big);
	assert_true(strlen(p) <= KB_GUEST_PATH_MAX + sizeof(KB_GUEST_STD_PATH));
	assert_true(strlen(p) > KB_GUEST_PATH_MAX - 10);
	assert_non_null(strstr(p, "/d00000:/d00001:"));
	assert_non_null(strstr(p, ":/usr/local/sbin:/usr/local/bin:/usr/sbin:"
			       "/usr/bin:/sbin:/bin"));
	free(p);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_missing),
		cmocka_unit_test(test_module_refused),
		cmocka_unit_test(test_mount_relative),
		cmocka_unit_test(test_enter_root),
		cmocka_unit_test(test_guest_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
