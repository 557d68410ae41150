/* tests/test_rootsafe.c - kbench runs as root: it writes only where it
 * means to (issue 14).
 *
 *  - tunables (runner/tunables.c): a path is resolved, opened without
 *    following links and must be a sysfs file, or procfs under /proc/sys;
 *    /proc/self/root/... is refused; a leftover tunables.saved.json is
 *    restored only for the tunables kernels.conf names: a file outside
 *    sysfs that it names keeps its content;
 *  - temporary files (lib/file.c): never opened through a planted file or
 *    symlink; stale *.tmp.PID of dead processes removed;
 *  - kb_path_trusted() (lib/file.c, what a resume checks of a campaign
 *    directory): owners and modes of the path and every directory above;
 *  - a target in use (runner/target.c): mounted, a mounted partition,
 *    active swap, held by dm/LVM/MD, from fake mountinfo, swaps and sysfs
 *    trees;
 *  - null_blk parameters (runner/nullblk.c): modprobe gets "--" and
 *    never an option-like word (a fake modprobe first in PATH).
 * Runs unprivileged too: the cases that need root or a file system that
 * is not there say "skipped" on stderr and pass.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/capture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "results/tunables_state.h"
#include "parsers/kconf.h"
#include "runner/nullblk.h"
#include "runner/target.h"
#include "runner/tunables.h"


static char *make_tmpdir(void)
{
	char tmpl[] = "/tmp/kbench-test-rootsafe.XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return kb_xstrdup(tmpl);
}

static void rm_rf(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	struct kb_spawn_result r;

	kb_spawn(argv, NULL, &r);
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *get(const char *path)
{
	char *buf = NULL;

	assert_int_equal(kb_read_file(path, &buf, NULL, 0), 0);
	return buf;
}

static void assert_content(const char *path, const char *want)
{
	char *buf = get(path);

	assert_string_equal(buf, want);
	free(buf);
}

/* A pid that is certainly not running any more. */
static pid_t dead_pid(void)
{
	pid_t p = fork();

	assert_true(p >= 0);
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return p;
}

/* ---- the tunable rule ---- */

static void test_resolve(void **state)
{
	char why[512], *r, *dir = make_tmpdir(), *victim, *via, *near;

	(void)state;
	victim = kb_path_join(dir, "victim");
	put(victim, "original\n");
	/* the example of issue 14: /proc/self/root is a magic link to / */
	via = kb_xasprintf("/proc/self/root%s", victim);
	errno = 0;
	assert_null(tunable_resolve(via, why, sizeof(why)));
	assert_int_equal(errno, EPERM);
	assert_non_null(strstr(why, "outside /sys and /proc/sys"));
	assert_non_null(strstr(why, victim));
	/* straight to a file outside sysfs, and through a symlink */
	assert_null(tunable_resolve(victim, why, sizeof(why)));
	assert_int_equal(errno, EPERM);
	/* does not exist */
	assert_null(tunable_resolve("/sys/kbench-no-such-file", why,
				    sizeof(why)));
	assert_int_equal(errno, ENOENT);
	assert_string_equal(why, "does not exist");
	/* a typo: the name within two edits in its directory, or in the
	 * directory above the first component missing (a new user's trial:
	 * "does not exist" alone) */
	assert_null(tunable_resolve("/proc/sys/vm/dirty_ratoi", why,
				    sizeof(why)));
	assert_int_equal(errno, ENOENT);
	assert_string_equal(why, "does not exist (did you mean "
			    "'dirty_ratio'?)");
	assert_null(tunable_resolve("/proc/sys/vmm/dirty_ratio", why,
				    sizeof(why)));
	assert_int_equal(errno, ENOENT);
	assert_string_equal(why, "does not exist (no 'vmm' in /proc/sys; "
			    "did you mean 'vm'?)");
	/* nothing near, or outside sysfs and procfs: nothing suggested */
	assert_null(tunable_resolve("/proc/sys/vm/kbench_xyzzy", why,
				    sizeof(why)));
	assert_string_equal(why, "does not exist");
	near = kb_path_join(dir, "victi");	/* 1 edit from victim */
	assert_null(tunable_resolve(near, why, sizeof(why)));
	assert_int_equal(errno, ENOENT);
	assert_string_equal(why, "does not exist");
	free(near);
	/* /proc/sys is allowed, other /proc files are not */
	r = tunable_resolve("/proc/sys/kernel/ostype", why, sizeof(why));
	assert_non_null(r);
	assert_string_equal(r, "/proc/sys/kernel/ostype");
	free(r);
	assert_null(tunable_resolve("/proc/self/status", why, sizeof(why)));
	assert_int_equal(errno, EPERM);
	/* a magic link that leads back into /proc/sys resolves there */
	r = tunable_resolve("/proc/self/root/proc/sys/kernel/ostype", why,
			    sizeof(why));
	assert_non_null(r);
	assert_string_equal(r, "/proc/sys/kernel/ostype");
	free(r);
	assert_content(victim, "original\n");
	free(via);
	free(victim);
	rm_rf(dir);
	free(dir);
}

/* the first entry of /sys/block, a symlink into /sys/devices, or NULL */
static char *some_block_link(void)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	char *found = NULL;

	while (d && !found && (e = readdir(d)))
		if (e->d_name[0] != '.')
			found = kb_xasprintf("/sys/block/%s", e->d_name);
	if (d)
		closedir(d);
	return found;
}

/* a regular file on a cgroup file system below /sys/fs/cgroup, or NULL */
static char *some_cgroup_file(void)
{
	static const char *const cands[] = {
		"/sys/fs/cgroup/cgroup.max.depth",
		"/sys/fs/cgroup/unified/cgroup.max.depth",
		"/sys/fs/cgroup/cpu/cpu.shares",
		"/sys/fs/cgroup/memory/memory.swappiness",
		"/sys/fs/cgroup/pids/cgroup.procs",
		NULL };
	const char *const *c;

	for (c = cands; *c; c++)
		if (kb_exists(*c))
			return kb_xstrdup(*c);
	return NULL;
}

static void check_open_rule(void)
{
	char why[512], *blk = some_block_link(), *cg, *p, *dir, *victim;
	int fd;

	/* procfs under /proc/sys */
	fd = tunable_open("/proc/sys/kernel/ostype", O_RDONLY, why,
			  sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	p = tunable_read("/proc/sys/kernel/ostype", 0);
	assert_string_equal(p, "Linux");
	free(p);
	/* a write-only file (drop_caches, --w-------) is said to be one */
	if (geteuid() == 0) {
		fd = tunable_open("/proc/sys/vm/drop_caches", O_RDONLY, why,
				  sizeof(why));
		assert_true(fd < 0);
		assert_non_null(strstr(why, "is write-only"));
	}
	/* procfs elsewhere, named with a /proc/sys prefix: opened without
	 * following links, the magic link /proc/self is refused */
	fd = tunable_open("/proc/sys/../self/root/etc/hostname", O_RDONLY,
			  why, sizeof(why));
	assert_true(fd < 0);
	/* not under /sys or /proc/sys at all */
	dir = make_tmpdir();
	victim = kb_path_join(dir, "victim");
	put(victim, "original\n");
	fd = tunable_open(victim, O_WRONLY, why, sizeof(why));
	assert_int_equal(fd, -EPERM);
	assert_non_null(strstr(why, "outside /sys and /proc/sys"));
	/* a /sys prefix that '..' leads out of: never a write to tmpfs */
	p = kb_xasprintf("/sys/..%s", victim);
	fd = tunable_open(p, O_WRONLY, why, sizeof(why));
	assert_int_equal(fd, -EPERM);
	assert_non_null(strstr(why, "not a resolved path"));
	free(p);
	assert_content(victim, "original\n");
	free(victim);
	rm_rf(dir);
	free(dir);
	/* /sys/block/X is a symlink: unresolved, it is refused; resolved,
	 * its uevent is a sysfs file */
	if (blk) {
		char *u = kb_path_join(blk, "uevent"), *real = realpath(u, NULL);

		fd = tunable_open(u, O_RDONLY, why, sizeof(why));
		assert_int_equal(fd, -ELOOP);
		assert_non_null(strstr(why, "symbolic link"));
		assert_non_null(real);
		fd = tunable_open(real, O_RDONLY, why, sizeof(why));
		if (fd < 0)
			print_error("%s: %s\n", real, why);
		assert_true(fd >= 0);
		close(fd);
		free(real);
		free(u);
		free(blk);
	} else {
		fprintf(stderr, "skipped: no /sys/block entry\n");
	}
	/* cgroupfs: refused for now, saying so */
	cg = some_cgroup_file();
	if (cg) {
		fd = tunable_open(cg, O_RDONLY, why, sizeof(why));
		assert_int_equal(fd, -EPERM);
		assert_non_null(strstr(why, "cgroupfs"));
		free(cg);
	} else {
		fprintf(stderr, "skipped: no cgroup file found\n");
	}
	if (kb_exists("/sys/kernel/debug/sched/features")) {
		fd = tunable_open("/sys/kernel/debug/sched/features", O_RDONLY,
				  why, sizeof(why));
		assert_int_equal(fd, -EPERM);
		assert_non_null(strstr(why, "debugfs"));
	}
}

static void test_open_rule(void **state)
{
	(void)state;
	kb_tunable_no_openat2 = 0;
	check_open_rule();
}

/* the same where openat2 is missing: one component at a time */
static void test_open_rule_without_openat2(void **state)
{
	(void)state;
	kb_tunable_no_openat2 = 1;
	check_open_rule();
	kb_tunable_no_openat2 = 0;
}

/* ---- a leftover tunables.saved.json is not trusted ---- */

/* The values restored after a crash are the machine's records
 * ($KBENCH_RUN_DIR/tunables), never the campaign directory's list: its
 * entries outside sysfs, /proc/sys files and a block device's file with
 * no record are named and not written; one with a record gets the
 * record's value, not the list's. */
static void test_restore_untrusted(void **state)
{
	char *dir = make_tmpdir(), *victim, *saved, *conf, *json, *msg, *blk;
	char *nm = NULL, *real = NULL, *cur = NULL, *runs, *rp = NULL, *s;
	struct kb_config cfg;
	struct capture c;
	int ret;

	(void)state;
	runs = kb_path_join(dir, "rundir");
	setenv("KBENCH_RUN_DIR", runs, 1);
	victim = kb_path_join(dir, "victim");
	put(victim, "original\n");
	saved = kb_path_join(dir, "tunables.saved.json");
	conf = kb_path_join(dir, "kernels.conf");
	assert_int_equal(kconf_parse(conf, "[global]\njobs = j\n"
		"tunable NM = queue/nomerges: 0 1\n"
		"tunable SW = /proc/sys/vm/swappiness: 10\n[v]\n", &cfg), 0);
	blk = some_block_link();
	if (blk) {
		nm = kb_path_join(blk, "queue/nomerges");
		real = realpath(nm, NULL);
		cur = real ? tunable_read(real, 1) : NULL;
	}
	if (real && cur && geteuid() == 0) {
		/* a dead kbench's record of this campaign's change */
		struct kb_tunable_record r = { .path = real, .original = cur,
					       .campaign = dir, .pid = 0 };
		char *rdir = kb_path_join(runs, "tunables");

		rp = kb_path_join(rdir, real);
		for (s = rp + strlen(rdir) + 1; *s; s++)
			if (*s == '/')
				*s = '!';
		assert_int_equal(kb_mkdir_p(rdir), 0);
		assert_int_equal(tunable_record_save(rp, &r), 0);
		free(rdir);
	}
	/* an edited list: a victim outside sysfs, straight and through
	 * /proc/self/root, /proc/sys files (one the conf names), and the
	 * block device's file with another value than its record's */
	json = kb_xasprintf("{\"%s\": \"pwned\", \"/proc/self/root%s\": "
			    "\"pwned\", \"/proc/sys/kernel/hostname\": "
			    "\"pwned\", \"/proc/sys/vm/swappiness\": \"1\"%s%s%s%s}",
			    victim, victim, nm && cur ? ", \"" : "",
			    nm && cur ? nm : "",
			    nm && cur ? (strcmp(cur, "2") ? "\": \"2\"" :
					 "\": \"0\"") : "", "");
	put(saved, json);
	{
		char *hn = tunable_read("/proc/sys/kernel/hostname", 1);
		char *sw = tunable_read("/proc/sys/vm/swappiness", 1);

		cap_begin(&c);
		ret = tunables_restore_file(saved, &cfg);
		msg = cap_end(&c);
		/* unchanged, whatever the privileges */
		if (hn) {
			char *now = tunable_read("/proc/sys/kernel/hostname", 1);

			assert_string_equal(now, hn);
			free(now);
		}
		if (sw) {
			char *now = tunable_read("/proc/sys/vm/swappiness", 1);

			assert_string_equal(now, sw);
			free(now);
		}
		if (real && cur) {
			char *now = tunable_read(real, 1);

			assert_string_equal(now, cur);	/* the record's */
			free(now);
		}
		free(hn);
		free(sw);
	}
	if (ret)
		print_error("%s", msg);
	assert_int_equal(ret, 0);
	assert_content(victim, "original\n");
	assert_non_null(strstr(msg, "outside /sys and /proc/sys"));
	assert_non_null(strstr(msg, "names /proc/sys/vm/swappiness = '1' "
			       "(now '"));
	assert_non_null(strstr(msg, "but the machine has no record of a "
			       "kbench changing it since boot"));
	assert_non_null(strstr(msg, "the campaign directory is not trusted"));
	if (rp) {
		/* the record done: the device reads its original (written
		 * only when it differs: restore_one()) */
		assert_false(kb_exists(rp));
	}
	assert_false(kb_exists(saved));
	free(msg);
	free(json);

	/* a damaged list is no obstacle: kept as .bad, nothing written */
	put(saved, "{\"/proc/sys/vm/swappiness\": ");
	cap_begin(&c);
	ret = tunables_restore_file(saved, &cfg);
	msg = cap_end(&c);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(msg, "restoring this campaign's tunables from "
			       "the machine's records"));
	assert_false(kb_exists(saved));
	json = kb_xasprintf("%s.bad", saved);
	assert_true(kb_exists(json));
	free(json);
	free(msg);
	free(rp);
	free(nm);
	free(real);
	free(cur);
	free(blk);
	kconf_free(&cfg);
	free(victim);
	free(saved);
	free(conf);
	unsetenv("KBENCH_RUN_DIR");
	free(runs);
	rm_rf(dir);
	free(dir);
}

/* ---- temporary files ---- */

static void test_write_atomic_planted(void **state)
{
	char *dir = make_tmpdir(), *victim, *path, *tmp, *buf;

	(void)state;
	victim = kb_path_join(dir, "victim");
	put(victim, "original\n");
	path = kb_path_join(dir, "state.json");
	tmp = kb_xasprintf("%s.tmp.%ld", path, (long)getpid());
	/* a symlink planted at the temporary name is not followed */
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(kb_write_atomic(path, "new", 3), 0);
	assert_content(victim, "original\n");
	buf = get(path);
	assert_string_equal(buf, "new");
	free(buf);
	assert_false(kb_exists(tmp));
	/* nor a file planted there (a hard link to the victim) */
	assert_int_equal(link(victim, tmp), 0);
	assert_int_equal(kb_write_atomic(path, "newer", 5), 0);
	assert_content(victim, "original\n");
	buf = get(path);
	assert_string_equal(buf, "newer");
	free(buf);
	free(tmp);
	free(path);
	free(victim);
	rm_rf(dir);
	free(dir);
}

/* kb_path_trusted(): who can change a campaign directory a resume runs
 * from (runner/campaign.c), the path and every directory above it. */
static void expect_untrusted(const char *path, const char *needle)
{
	char *why = NULL;

	assert_int_equal(kb_path_trusted(path, &why), -EPERM);
	assert_non_null(why);
	if (!strstr(why, needle))
		fail_msg("'%s' does not say '%s'", why, needle);
	free(why);
}

static void expect_trusted(const char *path)
{
	char *why = NULL;

	if (kb_path_trusted(path, &why))
		fail_msg("%s: untrusted: %s", path, why ? why : "?");
	assert_null(why);
}

static void test_path_trusted(void **state)
{
	char *dir = make_tmpdir(), *sub, *f, *link_, *want, *why = NULL;

	(void)state;
	sub = kb_path_join(dir, "c");
	f = kb_path_join(sub, "kernels.conf");
	link_ = kb_path_join(dir, "l");
	assert_int_equal(mkdir(sub, 0755), 0);
	put(f, "x\n");
	assert_int_equal(chmod(f, 0644), 0);
	expect_trusted(f);
	assert_int_equal(kb_path_trusted("/nonexistent/kbench", &why),
			 -ENOENT);
	assert_non_null(strstr(why, "/nonexistent: "));
	free(why);

	assert_int_equal(chmod(f, 0666), 0);
	want = kb_xasprintf("%s: writable by all (mode 0666)", f);
	expect_untrusted(f, want);
	free(want);
	assert_int_equal(chmod(f, 0644), 0);
	/* a directory above, writable by all: only with the sticky bit */
	assert_int_equal(chmod(dir, 0777), 0);
	want = kb_xasprintf("%s: writable by all (mode 0777)", dir);
	expect_untrusted(f, want);
	free(want);
	assert_int_equal(chmod(dir, 01777), 0);
	expect_trusted(f);
	/* but the path itself never */
	assert_int_equal(chmod(sub, 01777), 0);
	expect_untrusted(sub, "writable by all (mode 1777)");
	/* unless it is where a new directory is made (kbench run -o
	 * /tmp/NEW): kb_dir_trusted_above() */
	assert_int_equal(kb_dir_trusted_above(sub, &why), 0);
	assert_null(why);
	assert_int_equal(chmod(sub, 0777), 0);
	assert_int_equal(kb_dir_trusted_above(sub, &why), -EPERM);
	free(why);
	why = NULL;
	assert_int_equal(chmod(sub, 0755), 0);
	/* a link is judged by where it leads */
	assert_int_equal(symlink(f, link_), 0);
	expect_trusted(link_);
	assert_int_equal(chmod(f, 0646), 0);
	expect_untrusted(link_, "kernels.conf: writable by all");
	assert_int_equal(chmod(f, 0644), 0);

	if (geteuid() != 0) {
		fprintf(stderr, "skipped: owners and groups (not root)\n");
		goto out;
	}
	unsetenv("SUDO_UID");	/* run through sudo: trusted otherwise */
	unsetenv("KBENCH_TRUST_UID");
	/* a link in a sticky directory owned by another user: its owner
	 * can re-point it, so the path through it is refused even where it
	 * leads is fine */
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(unlink(link_), 0);
	assert_int_equal(symlink(sub, link_), 0);
	assert_int_equal(lchown(link_, 4321, 0), 0);
	{
		char *via = kb_path_join(link_, "kernels.conf");

		want = kb_xasprintf("%s: owned by uid 4321", link_);
		expect_untrusted(via, want);
		free(want);
		setenv("KBENCH_TRUST_UID", "4321", 1);	/* install-resume's */
		expect_trusted(via);
		unsetenv("KBENCH_TRUST_UID");
		free(via);
	}
	assert_int_equal(chmod(dir, 0755), 0);
	/* group-writable: fine with group root, not with another group */
	assert_int_equal(chown(f, 0, 0), 0);
	assert_int_equal(chmod(f, 0664), 0);
	expect_trusted(f);
	assert_int_equal(chown(f, 0, 4321), 0);
	expect_untrusted(f, "writable by its group (mode 0664)");
	assert_int_equal(chmod(f, 0644), 0);
	expect_trusted(f);
	/* owned by another user: refused, unless root came through sudo
	 * from that user */
	assert_int_equal(chown(sub, 4321, 0), 0);
	want = kb_xasprintf("%s: owned by uid 4321 (trusted: root)", sub);
	expect_untrusted(f, want);
	free(want);
	setenv("SUDO_UID", "4321", 1);
	expect_trusted(f);
	setenv("SUDO_UID", "4322", 1);
	expect_untrusted(f, "owned by uid 4321 (trusted: root, SUDO_UID)");
	unsetenv("SUDO_UID");
out:
	free(sub);
	free(f);
	free(link_);
	rm_rf(dir);
	free(dir);
}

static void test_remove_stale_tmp(void **state)
{
	char *dir = make_tmpdir(), *sub, *victim, *p, *kb, *kbdir;
	char *dead_f, *dead_l, *dead_sub, *mine, *live, *other, *odd;
	pid_t dead = dead_pid(), kpid;
	int quiet = kb_quiet;

	(void)state;
	sub = kb_path_join(dir, "runs");
	assert_int_equal(mkdir(sub, 0755), 0);
	victim = kb_path_join(dir, "victim");
	put(victim, "original\n");
	dead_f = kb_xasprintf("%s/state.json.tmp.%ld", dir, (long)dead);
	dead_l = kb_xasprintf("%s/results.json.tmp.%ld", dir, (long)dead);
	dead_sub = kb_xasprintf("%s/metrics.json.tmp.%ld", sub, (long)dead);
	mine = kb_xasprintf("%s/a.json.tmp.%ld", dir, (long)getpid());
	other = kb_path_join(dir, "notes.tmp.txt");
	odd = kb_path_join(dir, "x.tmp.12ab");
	put(dead_f, "half");
	assert_int_equal(symlink(victim, dead_l), 0);
	put(dead_sub, "half");
	put(mine, "mine");
	put(other, "keep");
	put(odd, "keep");

	/* a running kbench (a copy of sleep named kbench) keeps its own */
	kbdir = kb_path_join(dir, "bin");
	assert_int_equal(mkdir(kbdir, 0755), 0);
	kb = kb_path_join(kbdir, "kbench");
	{
		char *buf = NULL;
		size_t len;
		int fd;

		assert_int_equal(kb_read_file("/bin/sleep", &buf, &len, 0), 0);
		fd = open(kb, O_WRONLY | O_CREAT, 0755);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
		close(fd);
		free(buf);
	}
	kpid = fork();
	assert_true(kpid >= 0);
	if (kpid == 0) {
		execl(kb, "kbench", "30", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100 && !kb_pid_is_kbench(kpid); i++)
		usleep(10000);
	assert_true(kb_pid_is_kbench(kpid));
	live = kb_xasprintf("%s/b.json.tmp.%ld", dir, (long)kpid);
	put(live, "live");

	kb_quiet = 1;
	assert_int_equal(kb_remove_stale_tmp(dir, 1), 2);	/* not runs/ */
	assert_true(kb_exists(dead_sub));
	assert_int_equal(kb_remove_stale_tmp(dir, 2), 1);
	kb_quiet = quiet;
	assert_false(kb_exists(dead_f));
	assert_false(kb_exists(dead_sub));
	{
		struct stat st;

		assert_int_equal(lstat(dead_l, &st), -1);
	}
	assert_content(victim, "original\n");	/* link removed, */
	assert_true(kb_exists(mine));			/* not followed */
	assert_true(kb_exists(live));
	assert_true(kb_exists(other));
	assert_true(kb_exists(odd));
	kill(kpid, SIGKILL);
	waitpid(kpid, NULL, 0);
	/* once that kbench is gone, its file is stale too */
	kb_quiet = 1;
	assert_int_equal(kb_remove_stale_tmp(dir, 2), 1);
	kb_quiet = quiet;
	assert_false(kb_exists(live));

	p = kb_path_join(dir, "nothing-here");
	assert_int_equal(kb_remove_stale_tmp(p, 2), 0);
	free(p);
	free(dead_f);
	free(dead_l);
	free(dead_sub);
	free(mine);
	free(live);
	free(other);
	free(odd);
	free(kb);
	free(kbdir);
	free(sub);
	free(victim);
	rm_rf(dir);
	free(dir);
}

/* ---- a target in use ---- */

struct fake_dev {
	char *dir, *node, *mountinfo, *swaps;
};

/* dir/sys/loop9 (7:9) with partition loop9p1 (259:3) */
static void fake_dev_init(struct fake_dev *f)
{
	char *p;

	f->dir = make_tmpdir();
	f->node = kb_path_join(f->dir, "loop9");
	assert_int_equal(mkdir(f->node, 0755), 0);
	p = kb_path_join(f->node, "dev");
	put(p, "7:9\n");
	free(p);
	p = kb_path_join(f->node, "holders");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = kb_path_join(f->node, "queue");	/* not a partition */
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = kb_path_join(f->node, "loop9p1");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = kb_path_join(f->node, "loop9p1/partition");
	put(p, "1\n");
	free(p);
	p = kb_path_join(f->node, "loop9p1/dev");
	put(p, "259:3\n");
	free(p);
	p = kb_path_join(f->node, "loop9p1/holders");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	f->mountinfo = kb_path_join(f->dir, "mountinfo");
	f->swaps = kb_path_join(f->dir, "swaps");
	put(f->mountinfo,
	    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	    "23 27 0:22 / /sys rw,relatime - sysfs sysfs rw\n");
	put(f->swaps, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
}

static void fake_dev_free(struct fake_dev *f)
{
	rm_rf(f->dir);
	free(f->dir);
	free(f->node);
	free(f->mountinfo);
	free(f->swaps);
}

static int in_use(struct fake_dev *f, dev_t dev, char **why)
{
	return target_in_use(dev, f->node, f->mountinfo, f->swaps, why);
}

static void test_target_in_use(void **state)
{
	struct fake_dev f;
	char *why, *p;
	struct stat st;

	(void)state;
	fake_dev_init(&f);
	assert_int_equal(in_use(&f, makedev(7, 9), &why), 0);
	assert_null(why);

	/* the device itself mounted, at a path with a blank (\040) */
	put(f.mountinfo, "22 27 0:21 / /proc rw - proc proc rw\n"
	    "90 27 7:9 / /mnt/my\\040disk rw,relatime shared:5 - ext4 "
	    "/dev/loop9 rw\n");
	assert_int_equal(in_use(&f, makedev(7, 9), &why), 1);
	assert_string_equal(why, "/dev/loop9 is mounted on /mnt/my disk (ext4)");
	free(why);

	/* one of its partitions mounted */
	put(f.mountinfo, "91 27 259:3 /sub /srv rw - xfs /dev/loop9p1 rw\n");
	assert_int_equal(in_use(&f, makedev(7, 9), &why), 1);
	assert_string_equal(why, "its partition /dev/loop9p1 is mounted on "
			    "/srv (xfs)");
	free(why);

	/* a btrfs mount shows 0:N: found by the source's device number */
	if (stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode)) {
		put(f.mountinfo, "92 27 0:55 / /data rw - btrfs /dev/loop0 rw\n");
		assert_int_equal(in_use(&f, st.st_rdev, &why), 1);
		assert_string_equal(why, "/dev/loop9 is mounted on /data (btrfs)");
		free(why);
		put(f.mountinfo, "");
		/* active swap, by the device node's number */
		put(f.swaps, "Filename\tType\tSize\tUsed\tPriority\n"
		    "/dev/loop0                              partition\t1024\t0\t-2\n");
		assert_int_equal(in_use(&f, st.st_rdev, &why), 1);
		assert_string_equal(why, "/dev/loop9 is active swap (/dev/loop0)");
		free(why);
		put(f.swaps, "Filename\tType\tSize\tUsed\tPriority\n");
	} else {
		fprintf(stderr, "skipped: no /dev/loop0 block device\n");
	}
	put(f.mountinfo, "");

	/* held by device-mapper (LVM), named by its dm name */
	p = kb_path_join(f.node, "loop9p1/holders/dm-0");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = kb_path_join(f.node, "loop9p1/holders/dm-0/dm");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = kb_path_join(f.node, "loop9p1/holders/dm-0/dm/name");
	put(p, "vg-data\n");
	free(p);
	assert_int_equal(in_use(&f, makedev(7, 9), &why), 1);
	assert_string_equal(why, "its partition /dev/loop9p1 is held by dm-0 "
			    "(vg-data) (a member of an LVM volume, an MD array "
			    "or another device-mapper device)");
	free(why);
	/* a whole-disk MD member */
	p = kb_path_join(f.node, "holders/md0");
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	assert_int_equal(in_use(&f, makedev(7, 9), &why), 1);
	assert_non_null(strstr(why, "/dev/loop9 is held by md0"));
	free(why);
	fake_dev_free(&f);
}

/* ---- null_blk: modprobe's argv ---- */

static void test_nullblk_modprobe_argv(void **state)
{
	char *dir = make_tmpdir(), *fake, *log, *path, *args;
	const char *old = getenv("PATH");
	struct capture c;
	char *msg;
	int ret;

	(void)state;
	if (kb_exists("/dev/nullb0") || kb_exists("/sys/module/null_blk")) {
		fprintf(stderr, "skipped: null_blk is loaded\n");
		rm_rf(dir);
		free(dir);
		return;
	}
	fake = kb_path_join(dir, "modprobe");
	log = kb_path_join(dir, "argv");
	args = kb_xasprintf("#!/bin/sh\nfor a; do printf '[%%s]' \"$a\"; "
			    "done >%s\nexit 1\n", log);
	put(fake, args);
	free(args);
	assert_int_equal(chmod(fake, 0755), 0);
	path = kb_xasprintf("%s:%s", dir, old ? old : "/usr/bin:/bin");
	setenv("PATH", path, 1);

	cap_begin(&c);
	ret = nullblk_load("queue_mode=2 home_node=-1");
	msg = cap_end(&c);
	assert_int_equal(ret, -ENODEV);	/* the fake fails */
	args = get(log);
	assert_string_equal(args, "[--][null_blk][queue_mode=2][home_node=-1]");
	free(args);
	free(msg);
	unlink(log);

	cap_begin(&c);
	ret = nullblk_load("-r --first-time");
	msg = cap_end(&c);
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(msg, "'-r'"));
	assert_false(kb_exists(log));	/* modprobe never ran */
	free(msg);

	setenv("PATH", old ? old : "/usr/bin:/bin", 1);
	free(path);
	free(fake);
	free(log);
	rm_rf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_open_rule),
		cmocka_unit_test(test_open_rule_without_openat2),
		cmocka_unit_test(test_restore_untrusted),
		cmocka_unit_test(test_write_atomic_planted),
		cmocka_unit_test(test_path_trusted),
		cmocka_unit_test(test_remove_stale_tmp),
		cmocka_unit_test(test_target_in_use),
		cmocka_unit_test(test_nullblk_modprobe_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
