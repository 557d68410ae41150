/* tests/test_fio_jobfile.c - fio_jobfile_writes() (parsers/fio_jobfile.h)
 * and target_file_overwrite_check() (runner/target.h): a write job is
 * not run on a file: target kbench did not create (a break-it trial:
 * `target = file:` naming an existing file of the user's with a
 * randwrite job had fio overwrite it, as root). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/capture.h"

#include "parsers/fio_jobfile.h"
#include "parsers/kconf.h"
#include "runner/target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* 1 (with why containing want) or 0 (want NULL) */
static void check(const char *text, const char *want)
{
	char *why = (char *)"unset";
	int w = fio_jobfile_writes(text, &why);

	if (!want) {
		assert_int_equal(w, 0);
		assert_null(why);
		return;
	}
	assert_int_equal(w, 1);
	assert_non_null(why);
	if (!strstr(why, want))
		fail_msg("'%s' does not hold '%s'", why, want);
	free(why);
}

static void test_writes(void **state)
{
	(void)state;
	check("[global]\nfilename=/dev/x\n[j]\nbs=4k\n", NULL); /* read */
	check("[j]\nrw=read\n", NULL);
	check("[j]\nrw=randread:8\n", NULL);
	check("[j]\n  RW = randread   ; a comment\n", NULL);
	check("; rw=write\n# readwrite=randwrite\n[j]\nrw=read\n", NULL);
	check("[j]\nunlink=0\nioengine=filestat\n", NULL);
	check("[j]\nrw = randwrite  ; a comment\n", "line 2: rw=randwrite");
	check("[global]\nreadwrite=randrw\n[j]\n", "line 2: readwrite=randrw");
	check("[j]\nrw=trim\n", "rw=trim");
	check("[j]\nrw=rw\n", "rw=rw");
	check("[j]\nrw=${KBENCH_RW}\n", "rw=${KBENCH_RW} (set when fio runs)");
	check("[j]\nrw=read\nunlink=1\n", "line 3: unlink=1");
	check("[j]\nrw=read\nunlink\n", "line 3: unlink");
	check("[j]\nrw=read\nunlink_each_loop=true\n", "unlink_each_loop");
	check("[j]\nioengine=filedelete\n", "ioengine=filedelete");
	check("[j]\nioengine=${ENGINE}\n", "ioengine=${ENGINE}");
	check("include more.fio\n[j]\nrw=read\n",
	      "line 1: include more.fio (a file kbench does not read)");
	check("", NULL);
	check("[j]\nrw=read", NULL);	/* no newline at the end */
}

/* kbench's own job files: those named for writing write, the others
 * do not */
static void test_profiles(void **state)
{
	DIR *d = opendir("profiles");
	struct dirent *e;
	char *text, *why, *path;
	size_t n = 0;
	int w;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".fio"))
			continue;
		path = kb_xasprintf("profiles/%s", e->d_name);
		assert_int_equal(kb_read_file(path, &text, NULL, 1), 0);
		w = fio_jobfile_writes(text, &why);
		if (w != !!strstr(e->d_name, "write"))
			fail_msg("%s: writes %d (%s)", path, w, why ? why : "");
		free(why);
		free(text);
		free(path);
		n++;
	}
	closedir(d);
	assert_true(n >= 4);
}

struct fixture {
	char dir[64];
	char *target, *wjob, *rjob;
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int check_target(struct fixture *fx, const char *job, char **err)
{
	struct kb_config cfg;
	struct capture cap;
	const char *paths[1] = { job }, *names[1] = { "job1" };
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	cfg.path = (char *)"k.conf";
	cfg.target_line = 7;
	cfg.target = fx->target;
	cfg.target_kind = KB_TARGET_FILE;
	cap_begin(&cap);
	ret = target_file_overwrite_check(&cfg, paths, names, 1);
	*err = cap_end(&cap);
	return ret;
}

static void test_overwrite_check(void **state)
{
	struct fixture fx;
	struct stat st;
	char *err;
	int ret;

	(void)state;
	strcpy(fx.dir, "/tmp/kbench-test-jobfile.XXXXXX");
	assert_non_null(mkdtemp(fx.dir));
	fx.target = kb_xasprintf("%s/user.img", fx.dir);
	fx.wjob = kb_xasprintf("%s/w.fio", fx.dir);
	fx.rjob = kb_xasprintf("%s/r.fio", fx.dir);
	put(fx.wjob, "[j]\nrw=randwrite\n");
	put(fx.rjob, "[j]\nrw=randread\n");

	/* none there yet: kbench creates it */
	assert_int_equal(check_target(&fx, fx.wjob, &err), 0);
	assert_string_equal(err, "");
	free(err);
	/* empty: nothing to lose */
	put(fx.target, "");
	assert_int_equal(check_target(&fx, fx.wjob, &err), 0);
	free(err);
	/* the user's data: read, yes; written, no */
	put(fx.target, "the user's data\n");
	assert_int_equal(check_target(&fx, fx.rjob, &err), 0);
	assert_string_equal(err, "");
	free(err);
	ret = check_target(&fx, fx.wjob, &err);
	assert_int_equal(ret, -EEXIST);
	assert_non_null(strstr(err, "k.conf:7: target = file:"));
	assert_non_null(strstr(err, "exists (16 bytes) and kbench did not "
				    "create it"));
	assert_non_null(strstr(err, "job job1 may write to it"));
	assert_non_null(strstr(err, "line 2: rw=randwrite"));
	free(err);
	assert_int_equal(stat(fx.target, &st), 0);
	assert_int_equal(st.st_size, 16);
	/* marked as kbench's (root only: trusted.*): written, yes */
	if (setxattr(fx.target, KB_TARGET_MARK, "1", 1, 0) == 0) {
		assert_int_equal(check_target(&fx, fx.wjob, &err), 0);
		free(err);
	} else {
		print_message("(not root, or no extended attributes here: "
			      "the marked case is not tried)\n");
	}
	unlink(fx.target);
	unlink(fx.wjob);
	unlink(fx.rjob);
	assert_int_equal(rmdir(fx.dir), 0);
	free(fx.target);
	free(fx.wjob);
	free(fx.rjob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_overwrite_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
