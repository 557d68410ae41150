/* tests/test_fio_jobfile.c - fio_jobfile_writes()/fio_jobfile_scan()
 * (parsers/fio_jobfile.h), target_file_overwrite_check()
 * (runner/target.h) and campaign_check_job_safety() (runner/campaign.h):
 * a write job is not run on a file: target kbench did not create (a
 * break-it trial: `target = file:` naming an existing file of the user's
 * with a randwrite job had fio overwrite it, as root), nor anywhere but
 * ${KBENCH_TARGET} (the next trial: a job's own filename=/dev/loop0 with
 * allow_mounted_write=1 destroyed a mounted ext4), and no job runs a
 * command or changes the device's scheduler. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/capture.h"

#include "parsers/fio_jobfile.h"
#include "parsers/kconf.h"
#include "runner/campaign.h"
#include "runner/plan.h"
#include "runner/target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

/* field of fio_jobfile_scan() (0 writes, 1 elsewhere, 2 outside) holds
 * want, or is NULL (want NULL) */
static void scan_check(const char *text, int field, const char *want)
{
	struct fio_jobfile_scan s;
	const char *got;

	fio_jobfile_scan(text, &s);
	got = field == 0 ? s.writes : field == 1 ? s.elsewhere : s.outside;
	if (!want && got)
		fail_msg("'%s': field %d is '%s', not NULL", text, field, got);
	if (want && (!got || !strstr(got, want)))
		fail_msg("'%s': field %d is '%s', not holding '%s'", text,
			 field, got ? got : "(null)", want);
	fio_jobfile_scan_free(&s);
}

static const char *test_lookup(const char *name, void *ctx)
{
	const char *const *env = ctx;
	size_t n = strlen(name);

	for (; *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

static void test_scan(void **state)
{
	struct fio_jobfile_scan s;

	(void)state;
	/* where the I/O goes */
	scan_check("[g]\nfilename=${KBENCH_TARGET}\n", 1, NULL);
	scan_check("[g]\nfilename = ${KBENCH_TARGET_2}  ; host 2\n", 1, NULL);
	scan_check("[g]\nfilename=${KBENCH_TARGET}:${KBENCH_TARGET_0}\n", 1,
		   NULL);
	scan_check("[g]\nfilename=/dev/loop0\n", 1, "line 2: filename=/dev/loop0");
	scan_check("[g]\nfilename=${KBENCH_TARGET}:/dev/sdb\n", 1,
		   "filename=${KBENCH_TARGET}:/dev/sdb");
	scan_check("[g]\nfilename=${KBENCH_TARGETX}\n", 1, "KBENCH_TARGETX");
	scan_check("[g]\nfilename=${KBENCH_TARGET_}\n", 1, "KBENCH_TARGET_");
	scan_check("[g]\nfilename=${HOME}\n", 1, "filename=${HOME}");
	scan_check("[g]\nfilename=\n", 1, "line 2: filename=");
	scan_check("[a]\ndirectory=/mnt\n", 1, "line 2: directory=/mnt");
	scan_check("[a]\nopendir=/srv\n", 1, "opendir=/srv");
	scan_check("[a]\nfilename_format=f.$jobnum\n", 1, "filename_format");
	/* beyond the I/O */
	scan_check("[a]\nexec_prerun=rm -rf /x\n", 2,
		   "line 2: exec_prerun=rm -rf /x (runs a shell command)");
	scan_check("[a]\nEXEC_POSTRUN = true\n", 2, "EXEC_POSTRUN=true");
	scan_check("[a]\nioscheduler=none\n", 2,
		   "ioscheduler=none (switches the device's I/O scheduler");
	scan_check("[a]\nwrite_iolog=out.log\n", 2, "write_iolog=out.log");
	scan_check("[a]\nwrite_lat_log=/etc/x\n", 2, "write_lat_log=/etc/x");
	scan_check("[a]\nwrite_bw_log=${HOME}\n", 2, "write_bw_log=${HOME}");
	scan_check("[a]\nwrite_lat_log=lat\nwrite_bw_log\n", 2,
		   "write_lat_log=lat (writes a log named after it or the job)");
	/* the second break-it trial's, read as fio reads them */
	scan_check("[j]\nioengine=exec;\nprogram=/usr/bin/touch\n", 2,
		   "line 2: ioengine=exec (an ioengine kbench does not run");
	scan_check("[j]\nexec_prerun\x01=id\n", 2,
		   "line 2: a control character (byte 0x01)");
	scan_check("[j]\ninclude_/tmp/inc.fio\n", 2, "include_/tmp/inc.fio");
	scan_check("[j]\nmem=mmap:/tmp/v\n", 2, "mem=mmap:/tmp/v (a buffer in "
		   "a file");
	scan_check("[j]\nmem=mmap\n", 2, NULL);
	scan_check("[j]\nioengine=net\n", 2, "ioengine=net (an ioengine");
	scan_check("[j]\nioengine=libc.so.6\n", 2, "ioengine=libc.so.6");
	scan_check("[/tmp/x/log]\nrw=read\n", 2, "line 1: [/tmp/x/log] (a job "
		   "name with '/'");
	scan_check("[j]\ncgroup=../../x\n", 2, "cgroup=../../x (makes a cgroup");
	scan_check("[j]\niodepth=$ncpus*2\n", 2, "iodepth=$ncpus*2 (fio "
		   "computes");
	scan_check("[j]\nunlink=1\n", 2, "unlink=1 (deletes");
	scan_check("[j]\nno_such_option=1\n", 2, "no_such_option=1 (an option "
		   "kbench does not run");
	scan_check("[j]\nbs=4k # a comment\nrw=read;x\n", 2, NULL);
	scan_check("[j]\nrw=read;x\n", 0, NULL);	/* fio: rw=read */
	/* [GLOBAL] is a job to fio: writing, with no filename= */
	{
		struct fio_jobfile_scan g;

		fio_jobfile_scan("[GLOBAL]\nrw=write\n", &g);
		assert_non_null(g.unnamed);
		assert_string_equal(g.unnamed, "job [GLOBAL] has no filename=");
		fio_jobfile_scan_free(&g);
		fio_jobfile_scan("[globalx]\nfilename=${KBENCH_TARGET}\n[j]\n"
				 "rw=write\n", &g);
		assert_null(g.unnamed);	/* fio: a global section */
		fio_jobfile_scan_free(&g);
	}
	scan_check("[a]\nioengine=exec\nprogram=/bin/x\n", 2, "ioengine=exec");
	scan_check("[a]\nioengine=external:/tmp/e.so\n", 2, "external");
	scan_check("[a]\nreplay_redirect=/dev/sdb\n", 2, "replay_redirect");
	scan_check("[a]\nioengine=libaio\n; exec_prerun=x\n", 2, NULL);
	/* an include: all three, as kbench cannot see it */
	scan_check("include x.fio\n", 0, "include x.fio");
	scan_check("include x.fio\n", 1, "include x.fio");
	scan_check("include x.fio\n", 2, "include x.fio");
	/* what kbench cannot read as fio does: a NUL byte (fio reads on), a
	 * line past fio's 8191-byte buffer (fio reads two) */
	fio_jobfile_scan_env("[j]\n; x\0\nexec_prerun=x\n", 22, NULL, NULL,
			     &s);
	assert_non_null(s.outside);
	assert_string_equal(s.outside, "a NUL byte at offset 7 (fio reads on "
			    "past it)");
	fio_jobfile_scan_free(&s);
	{
		char *long_line = kb_xcalloc(9000, 1);

		memcpy(long_line, "[j]\ndescription=", 16);
		memset(long_line + 16, 'A', 8190);
		strcat(long_line, "exec_prerun=x\n");
		fio_jobfile_scan(long_line, &s);
		assert_non_null(s.outside);
		assert_non_null(strstr(s.outside, "line 2: longer than fio's "
					"line buffer"));
		fio_jobfile_scan_free(&s);
		free(long_line);
	}
	/* ${NAME} replaced as fio does, by the lookup's value */
	{
		const char *env[] = { "KBENCH_RW=randwrite", "E=exec_prerun",
				      NULL };

		const char *t1 = "[j]\nrw=${KBENCH_RW}\n";
		const char *t2 = "[j]\n${E}=x\nfilename=${KBENCH_TARGET}\n";

		fio_jobfile_scan_env(t1, strlen(t1), test_lookup, env, &s);
		assert_string_equal(s.writes, "line 2: rw=randwrite");
		fio_jobfile_scan_free(&s);
		fio_jobfile_scan_env(t2, strlen(t2), test_lookup, env, &s);
		assert_string_equal(s.outside, "line 2: exec_prerun=x (runs a "
				    "shell command)");
		assert_true(s.names_target);
		fio_jobfile_scan_free(&s);
	}
	fio_jobfile_scan("[g]\nfilename=${KBENCH_TARGET}\n[j]\nrw=read\n", &s);
	assert_int_equal(s.names_target, 1);
	assert_null(s.writes);
	fio_jobfile_scan_free(&s);
	fio_jobfile_scan("[j]\nrw=write\n", &s);
	assert_int_equal(s.names_target, 0);
	assert_non_null(s.writes);
	assert_true(s.runtime_s == -1 && s.ramp_s == -1 && !s.time_based);
	assert_null(s.runtime_at);
	fio_jobfile_scan_free(&s);
	/* runtime and ramp_time: fio's units, the largest literal kept */
	fio_jobfile_scan("[g]\nruntime=${KBENCH_RUNTIME}\ntime_based\n"
			 "[a]\nruntime=90\nramp_time=2m\n[b]\ntimeout=1h\n"
			 "ramp_time=500ms\n", &s);
	assert_true(s.time_based);
	assert_true(s.runtime_s == 3600);
	assert_string_equal(s.runtime_at, "line 8: timeout=1h");
	assert_true(s.ramp_s == 120);
	assert_string_equal(s.ramp_at, "line 6: ramp_time=2m");
	fio_jobfile_scan_free(&s);
	fio_jobfile_scan("[a]\nruntime=10us\ntime_based=0\n", &s);
	assert_true(s.runtime_s > 9e-6 && s.runtime_s < 11e-6);
	assert_false(s.time_based);
	fio_jobfile_scan_free(&s);
	fio_jobfile_scan("[a]\nruntime=10x\nruntime=abc\nramp_time=\n", &s);
	assert_true(s.runtime_s == -1 && s.ramp_s == -1);
	fio_jobfile_scan_free(&s);
}

/* kbench's own job files: those named for writing write, the others
 * do not; all do their I/O on ${KBENCH_TARGET} and nothing beyond */
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
		{
			struct fio_jobfile_scan s;

			fio_jobfile_scan(text, &s);
			if (s.elsewhere || s.outside || !s.names_target)
				fail_msg("%s: elsewhere %s, outside %s, names "
					 "the target %d", path,
					 s.elsewhere ? s.elsewhere : "-",
					 s.outside ? s.outside : "-",
					 s.names_target);
			fio_jobfile_scan_free(&s);
		}
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

/* fn(cfg, {job}, {"job1"}, 1), its messages in *err (malloc'd) */
static int run_check(const struct kb_config *cfg,
		     int (*fn)(const struct kb_config *,
				  const char *const *, const char *const *,
				  size_t), const char *job, char **err)
{
	struct capture cap;
	const char *paths[1] = { job }, *names[1] = { "job1" };
	int ret;

	cap_begin(&cap);
	ret = fn(cfg, paths, names, 1);
	*err = cap_end(&cap);
	return ret;
}

static int check_target(struct fixture *fx, const char *job, char **err)
{
	struct kb_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.path = (char *)"k.conf";
	cfg.target_line = 7;
	cfg.target = fx->target;
	cfg.target_kind = KB_TARGET_FILE;
	return run_check(&cfg, target_file_overwrite_check, job, err);
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

/* target_vm_disk_check() of one vm variant [v] (line 9) of disk = disk */
static int check_vm_disk(const char *disk, const char *job, char **err)
{
	struct kb_variant v = { .name = (char *)"v", .method = (char *)"vm",
				.disk = (char *)disk, .line = 9 };
	struct kb_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.path = (char *)"k.conf";
	cfg.variants[0] = v;
	cfg.nvariants = 1;
	return run_check(&cfg, target_vm_disk_check, job, err);
}

/* A vm variant's disk = is the guest's target, written by its fio as
 * root through QEMU: disk = /etc/shadow with a write job, or the host's
 * mounted root device, went to QEMU unchecked. */
static void test_vm_disk_check(void **state)
{
	char dir[] = "/tmp/kbench-test-vmdisk.XXXXXX", *f, *w, *r, *err;
	char blk[64];
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	f = kb_xasprintf("%s/user.img", dir);
	w = kb_xasprintf("%s/w.fio", dir);
	r = kb_xasprintf("%s/r.fio", dir);
	put(w, "[j]\nrw=randwrite\n");
	put(r, "[j]\nrw=randread\n");
	put(f, "the user's data\n");
	assert_int_equal(check_vm_disk(f, r, &err), 0);	/* read: yes */
	free(err);
	assert_int_equal(check_vm_disk(f, w, &err), -EEXIST);
	assert_non_null(strstr(err, "k.conf:9: [v] disk = "));
	assert_non_null(strstr(err, "exists (16 bytes), kbench did not "
				    "create it"));
	assert_non_null(strstr(err, "job job1 may write to it"));
	assert_non_null(strstr(err, "setfattr -n " KB_TARGET_MARK));
	free(err);
	if (setxattr(f, KB_TARGET_MARK, "1", 1, 0) == 0) {
		assert_int_equal(check_vm_disk(f, w, &err), 0);
		free(err);
	}
	/* the device of the mounted root file system (a node of it made
	 * here: root only) */
	assert_int_equal(stat("/", &st), 0);
	snprintf(blk, sizeof(blk), "%s/root-dev", dir);
	if (major(st.st_dev) &&
	    mknod(blk, S_IFBLK | 0600, st.st_dev) == 0) {
		assert_int_equal(check_vm_disk(blk, r, &err), -EBUSY);
		assert_non_null(strstr(err, "is in use: "));
		assert_non_null(strstr(err, "is mounted on /"));
		free(err);
		unlink(blk);
	} else {
		print_message("(not root, or / on no block device: the "
			      "device case is not tried)\n");
	}
	unlink(f);
	unlink(w);
	unlink(r);
	assert_int_equal(rmdir(dir), 0);
	free(f);
	free(w);
	free(r);
}

/* want with its "DIR" replaced by dir (malloc'd) */
static char *with_dir(const char *want, const char *dir)
{
	const char *d = strstr(want, "DIR");

	return d ? kb_xasprintf("%.*s%s%s", (int)(d - want), want, dir, d + 3) :
		   kb_xstrdup(want);
}

/* campaign_check_job_safety(): job files in a profiles directory */
static int safety(const char *dir, const char *job, int local, char **err)
{
	struct kb_config cfg;
	struct capture cap;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	cfg.path = (char *)"k.conf";
	cfg.jobs_line = 4;
	cfg.jobs[0] = (char *)job;
	cfg.njobs = 1;
	cfg.profiles_dir = (char *)dir;
	cfg.target = (char *)"loop:64M";
	cfg.target_kind = KB_TARGET_LOOP;
	cap_begin(&cap);
	ret = campaign_check_job_safety(&cfg, NULL, local);
	*err = cap_end(&cap);
	return ret;
}

static void test_job_safety(void **state)
{
	char dir[] = "/tmp/kbench-test-safety.XXXXXX", *p, *err;
	static const struct {
		const char *name, *text, *want;
	} cases[] = {
		{ "ok", "[global]\nfilename=${KBENCH_TARGET}\n[w]\nrw=randwrite\n",
		  NULL },
		{ "readother", "[global]\nfilename=/dev/sdz\n[r]\nrw=randread\n",
		  NULL },
		{ "own", "[global]\nfilename=/dev/loop0\nallow_mounted_write=1\n"
			 "[w]\nrw=randwrite\n",
		  "k.conf:4: job 'own' (DIR/own.fio) may write (line 5: "
		  "rw=randwrite) and does its I/O where line 2: "
		  "filename=/dev/loop0 says, which kbench did not check" },
		{ "nofile", "[w]\nrw=write\n",
		  "in files fio names after the job in the current directory "
		  "(job [w] has no filename=)" },
		/* a break-it trial's: [global] names no file, one job names
		 * the target and reads, another writes to k.0.0 */
		{ "perjob", "[global]\nioengine=psync\n[j]\n"
			    "filename=${KBENCH_TARGET}\nrw=read\n[k]\n"
			    "rw=write\n", "(job [k] has no filename=)" },
		{ "varname", "[global]\nfilename=${KBENCH_TARGET}\n"
			     "exec_prerun${KBENCH_NOPE}=touch /tmp/x\n",
		  "line 3: exec_prerun${KBENCH_NOPE}=touch /tmp/x (an option "
		  "whose name is set when fio runs)" },
		{ "varname2", "[global]\nfilename=${KBENCH_TARGET}\n[j]\n"
			      "file${NOPE}name=/tmp/v\nrw=write\n",
		  "does its I/O where line 4: filename=/tmp/v says" },
		{ "incl", "[global]\nfilename=${KBENCH_TARGET}\n[j]\n"
			  "include=/tmp/inc.fio\n",
		  "line 4: include=/tmp/inc.fio (a file kbench does not read)" },
		{ "engine", "[global]\nfilename=${KBENCH_TARGET}\n[j]\n"
			    "ioengine=/tmp/evil.so\n",
		  "line 4: ioengine=/tmp/evil.so (an ioengine kbench does not "
		  "run" },
		/* an unset variable is empty to fio: ex${NOPE}ec is exec */
		{ "unset", "[global]\nfilename=${KBENCH_TARGET}\n[j]\n"
			   "ioengine=ex${NOPE_KBENCH_TEST_VAR}ec\n",
		  "line 4: ioengine=exec (an ioengine kbench does not run" },
		{ "iolog", "[global]\nfilename=${KBENCH_TARGET}\n[j]\n"
			   "rw=read\nread_iolog=/tmp/log\n",
		  "line 5: read_iolog=/tmp/log (replays an I/O log" },
		{ "dir", "[global]\nfilename=${KBENCH_TARGET}\ndirectory=/home\n"
			 "[w]\nrw=write\n", "line 3: directory=/home (does its "
			 "I/O in files of that directory): refused" },
		{ "sched", "[global]\nfilename=${KBENCH_TARGET}\nioscheduler=none\n"
			   "[r]\nrw=read\n",
		  "job 'sched' (DIR/sched.fio) line 3: ioscheduler=none "
		  "(switches the device's I/O scheduler and does not switch it "
		  "back): refused, as fio would do that as root" },
		{ "exec", "[global]\nfilename=${KBENCH_TARGET}\n"
			  "exec_prerun=touch /tmp/x\n[r]\nrw=read\n",
		  "kbench runs no shell commands from a job file" },
	};
	size_t i;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		p = kb_xasprintf("%s/%s.fio", dir, cases[i].name);
		put(p, cases[i].text);
		free(p);
		ret = safety(dir, cases[i].name, 1, &err);
		if (!cases[i].want) {
			if (ret || *err)
				fail_msg("%s: %d '%s'", cases[i].name, ret, err);
		} else {
			char *want = with_dir(cases[i].want, dir);
			assert_int_equal(ret, -EPERM);
			if (!strstr(err, want))
				fail_msg("%s: '%s' does not hold '%s'",
					 cases[i].name, err, want);
			free(want);
		}
		free(err);
		/* the same without a local target (vm/kexec only): the job
		 * file's rules are the same */
		ret = safety(dir, cases[i].name, 0, &err);
		assert_int_equal(ret, cases[i].want ? -EPERM : 0);
		free(err);
		p = kb_xasprintf("%s/%s.fio", dir, cases[i].name);
		unlink(p);
		free(p);
	}
	assert_int_equal(rmdir(dir), 0);
}

/* campaign_check_jobs(): a time_based job longer than kbench's limit
 * for a run (runtime + timeout_grace) is refused; a literal runtime= the
 * campaign does not record is warned about */
static void test_job_runtime(void **state)
{
	char dir[] = "/tmp/kbench-test-jobtime.XXXXXX", *p, *err;
	static const struct {
		const char *text, *want;
		int ret;
		double run_s;	/* plan_job_run_s(): what the ETA counts */
	} cases[] = {
		{ "[a]\nruntime=${KBENCH_RUNTIME}\ntime_based\n", NULL, 0, 10 },
		{ "[a]\nruntime=${KBENCH_RUNTIME}\ntime_based\nramp_time=20\n",
		  NULL, 0, 30 },
		{ "[a]\nruntime=${KBENCH_RUNTIME}\ntime_based\nramp_time=40\n",
		  "k.conf:4: job 'j' (DIR/j.fio) runs 50 s (runtime = of "
		  "kernels.conf, line 4: ramp_time=40), longer than kbench's "
		  "limit for a run, 40 s (runtime 10 + timeout_grace 30): every "
		  "run would be killed", -EINVAL, 40 },
		{ "[a]\nruntime=1m\ntime_based=1\n",
		  "runs 60 s (line 2: runtime=1m), longer than kbench's limit",
		  -EINVAL, 40 },
		{ "[a]\nruntime=1m\nsize=1G\n", NULL, 0, 40 },	/* a cap */
		{ "[a]\nruntime=20\ntime_based\n",
		  "job 'j' (DIR/j.fio) line 2: runtime=20: its runs last 20 s, "
		  "not kernels.conf's runtime = 10", 0, 20 },
		{ "[a]\nruntime=${KBENCH_RUNTIME}\ntime_based\nstartdelay=5\n"
		  "ramp_time=3\n", NULL, 0, 18 },
	};
	struct kb_config cfg;
	struct capture cap;
	size_t i;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = kb_xasprintf("%s/j.fio", dir);
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		put(p, cases[i].text);
		memset(&cfg, 0, sizeof(cfg));
		cfg.path = (char *)"k.conf";
		cfg.jobs_line = 4;
		cfg.jobs[0] = (char *)"j";
		cfg.njobs = 1;
		cfg.profiles_dir = dir;
		cfg.runtime_s = 10;
		cfg.timeout_grace_s = 30;
		cap_begin(&cap);
		ret = campaign_check_jobs(&cfg);
		err = cap_end(&cap);
		campaign_job_run_s(&cfg);
		assert_int_equal(ret, cases[i].ret);
		/* the ETA counts ramp_time and startdelay (it counted
		 * runtime alone, a break-it trial), at most the limit */
		if (plan_job_run_s(&cfg, 0) != cases[i].run_s ||
		    plan_estimate_s(&cfg, 2) != 2 * (cases[i].run_s +
						     KB_RUN_OVERHEAD_S))
			fail_msg("case %zu: a run of %g s, 2 runs %g s; want "
				 "%g s", i, plan_job_run_s(&cfg, 0),
				 plan_estimate_s(&cfg, 2), cases[i].run_s);
		if (cases[i].want) {
			char *want = with_dir(cases[i].want, dir);
			if (!strstr(err, want))
				fail_msg("case %zu: '%s' does not hold '%s'", i,
					 err, want);
			free(want);
		} else if (strstr(err, "runtime")) {
			fail_msg("case %zu: '%s'", i, err);
		}
		free(err);
	}
	unlink(p);
	free(p);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_job_safety),
		cmocka_unit_test(test_job_runtime),
		cmocka_unit_test(test_overwrite_check),
		cmocka_unit_test(test_vm_disk_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
