#include "runner/tunables.h"
#include "runner/plan.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"
#include "results/tunables_state.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

static char *normalise(const char *raw)
{
	const char *lb = strchr(raw, '['), *rb = lb ? strchr(lb, ']') : NULL;
	const char *s = raw, *e;
	char *out;

	if (lb && rb) {
		s = lb + 1;
		e = rb;
	} else {
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
	}
	out = kb_xmalloc((size_t)(e - s) + 1);
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return out;
}

/* ---- the rule for every file kbench writes as root (tunables.h) ---- */

int kb_tunable_no_openat2;

static const char *allowed_prefix(const char *resolved)
{
	if (!strncmp(resolved, "/sys/", 5))
		return "/sys/";
	if (!strncmp(resolved, "/proc/sys/", 10))
		return "/proc/sys/";
	return NULL;
}

/* For a sysfs or procfs path that does not exist: its first component
 * that is missing and the name within two edits of it in the directory
 * above (lib/str.h kb_nearer()), after "does not exist" in why[]: "
 * (did you mean 'nomerges'?)", or for a directory on the way " (no
 * 'queu' in /sys/block/loop0; did you mean 'queue'?)" (a new user's
 * trial: queue/nomerge was only "does not exist").  Nothing when there
 * is no such name. */
static void near_missing(const char *path, char *why, size_t whylen)
{
	char *copy, *end, *slash, *best = NULL;
	size_t bestd = (size_t)-1, used;
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (!allowed_prefix(path))
		return;
	copy = kb_xstrdup(path);
	for (slash = copy;; slash = end) {
		end = strchr(slash + 1, '/');
		if (end)
			*end = '\0';
		if (stat(copy, &st) < 0)
			break;		/* copy's last component is missing */
		if (!end) {		/* it exists: nothing to suggest */
			free(copy);
			return;
		}
		*end = '/';
	}
	*slash = '\0';
	d = opendir(copy[0] ? copy : "/");
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && kb_nearer(slash + 1, e->d_name,
						     &bestd)) {
			free(best);
			best = kb_xstrdup(e->d_name);
		}
	if (d)
		closedir(d);
	used = strlen(why);
	if (best && end)
		kb_fmt(why + used, whylen - used, " (no '%s' in %s; did you "
		       "mean '%s'?)", slash + 1, copy, best);
	else if (best)
		kb_fmt(why + used, whylen - used, " (did you mean '%s'?)",
		       best);
	free(best);
	free(copy);
}

char *tunable_resolve(const char *path, char *why, size_t whylen)
{
	char *real = realpath(path, NULL);
	int err;

	if (!real) {
		err = errno;
		kb_fmt(why, whylen, "%s", err == ENOENT ? "does not exist" :
		       strerror(err));
		if (err == ENOENT)
			near_missing(path, why, whylen);
		errno = err;
		return NULL;
	}
	if (!allowed_prefix(real)) {
		kb_fmt(why, whylen, "resolves to %s, outside /sys and "
		       "/proc/sys: refused (kbench writes tunables in sysfs "
		       "and /proc/sys only)", real);
		free(real);
		errno = EPERM;
		return NULL;
	}
	return real;
}

/* openat(2) one component at a time from "/", none of them followed if a
 * symlink: where openat2(2) is missing (before Linux 5.6). */
static int open_walk(const char *path, int flags)
{
	char *copy = kb_xstrdup(path), *comp, *next, *save = NULL;
	int dfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), fd = -1, err;

	comp = strtok_r(copy, "/", &save);
	while (dfd >= 0 && comp) {
		struct stat st;

		next = strtok_r(NULL, "/", &save);
		fd = openat(dfd, comp, next ?
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC :
			    flags | O_NOFOLLOW | O_CLOEXEC);
		err = errno;
		if (fd < 0 && err == ENOTDIR &&
		    fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode))
			err = ELOOP;
		close(dfd);
		dfd = fd;
		errno = err;
		comp = next;
	}
	err = errno;
	free(copy);
	errno = err;
	return dfd;
}

static int open_nolinks(const char *path, int flags)
{
#ifdef SYS_openat2
	if (!kb_tunable_no_openat2) {
		struct open_how how = {
			.flags = (unsigned long long)(flags | O_NOFOLLOW |
						      O_CLOEXEC),
			.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
		};
		int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how,
				      sizeof(how));

		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return fd;
		/* ENOSYS: an older kernel; EPERM: a seccomp filter that
		 * does not know openat2 yet.  Either way: the walk. */
	}
#endif
	return open_walk(path, flags);
}

int tunable_open(const char *resolved, int flags, char *why, size_t whylen)
{
	const char *prefix = allowed_prefix(resolved);
	struct statfs fs;
	struct stat st;
	int fd, err;

	why[0] = '\0';
	if (prefix && (strstr(resolved, "/./") || strstr(resolved, "/../") ||
		       strstr(resolved, "//") ||
		       (strlen(resolved) >= 3 &&
			(!strcmp(resolved + strlen(resolved) - 2, "/.") ||
			 !strcmp(resolved + strlen(resolved) - 3, "/.."))))) {
		kb_fmt(why, whylen, "is not a resolved path ('.', '..' or "
		       "'//' in it): refused");
		return -EPERM;
	}
	if (!prefix) {
		kb_fmt(why, whylen, "is outside /sys and /proc/sys: refused "
		       "(kbench writes tunables in sysfs and /proc/sys only)");
		return -EPERM;
	}
	fd = open_nolinks(resolved, flags);
	if (fd < 0) {
		err = errno;
		if (err == ELOOP || err == EXDEV)
			kb_fmt(why, whylen, "has a symbolic link on its way "
			       "(tunables are opened without following "
			       "links; give the resolved path): refused");
		else if ((err == EACCES || err == EPERM) && !geteuid() &&
			 (flags & O_ACCMODE) == O_RDONLY &&
			 stat(resolved, &st) == 0 && !(st.st_mode & 0444))
			kb_fmt(why, whylen, "is write-only (as drop_caches): "
			       "kbench reads a tunable before and after each "
			       "run, and restores it, so it cannot be one");
		else
			kb_fmt(why, whylen, "cannot be opened: %s%s",
			       strerror(err),
			       err != EACCES && err != EPERM ? "" :
			       geteuid() ? " (tunables need root)" :
			       (flags & O_ACCMODE) != O_RDONLY ?
			       " (the attribute is read-only)" : "");
		return -err;
	}
	if (fstat(fd, &st) < 0 || fstatfs(fd, &fs) < 0) {
		err = errno;
		close(fd);
		kb_fmt(why, whylen, "cannot be examined: %s", strerror(err));
		return -err;
	}
	err = 0;
	switch ((unsigned long)fs.f_type) {
	case SYSFS_MAGIC:
		if (strcmp(prefix, "/sys/"))
			err = EPERM;
		break;
	case PROC_SUPER_MAGIC:
		if (strcmp(prefix, "/proc/sys/"))
			err = EPERM;
		break;
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
		kb_fmt(why, whylen, "is on debugfs/tracefs, which kbench "
		       "refuses for now (not a stable tuning interface; "
		       "write it yourself before the campaign)");
		err = EPERM;
		break;
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
		kb_fmt(why, whylen, "is on cgroupfs, which kbench refuses "
		       "for now (a cgroup's files belong to its manager; "
		       "set it yourself before the campaign)");
		err = EPERM;
		break;
	default:
		kb_fmt(why, whylen, "is on a file system that is neither "
		       "sysfs nor procfs (type 0x%lx): refused",
		       (unsigned long)fs.f_type);
		err = EPERM;
	}
	if (err && !why[0])
		kb_fmt(why, whylen, "is on %s, not where its path says: "
		       "refused", fs.f_type == SYSFS_MAGIC ? "sysfs" :
		       "procfs");
	if (!err && !S_ISREG(st.st_mode)) {
		kb_fmt(why, whylen, "is not a regular sysfs/procfs "
		       "attribute: refused");
		err = EPERM;
	}
	if (err) {
		close(fd);
		return -err;
	}
	return fd;
}

/* The whole of an open attribute (at most 64 KiB). */
static int read_fd(int fd, char **out)
{
	size_t cap = 4096, n = 0;
	char *b = kb_xmalloc(cap + 1);

	for (;;) {
		ssize_t r = read(fd, b + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(b);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == cap) {
			if (cap >= 65536)
				break;
			cap *= 2;
			b = kb_xrealloc(b, cap + 1);
		}
	}
	b[n] = '\0';
	*out = b;
	return 0;
}

char *tunable_read(const char *path, int quiet)
{
	char why[512] = "", *buf = NULL, *v;
	int fd = tunable_open(path, O_RDONLY, why, sizeof(why)), ret;

	if (fd < 0) {
		if (!quiet)
			kb_error("tunable %s %s", path, why);
		return NULL;
	}
	ret = read_fd(fd, &buf);
	close(fd);
	if (ret) {
		if (!quiet)
			kb_error("cannot read tunable %s: %s", path,
				 strerror(-ret));
		return NULL;
	}
	v = normalise(buf);
	free(buf);
	return v;
}

/* One write(2) of the value, as `echo -n VALUE > FILE` does: sysfs and
 * /proc/sys take the whole value from one write and never truncate; what
 * the kernel made of it is read back by the caller.  0 or -errno; the
 * reason goes to why[] (after the path: "does not exist", "write:
 * Invalid argument") when why is not NULL, else it is printed. */
static int write_value_why(const char *path, const char *value, char *why,
			   size_t whylen)
{
	size_t len = strlen(value);
	char buf[512] = "";
	int fd = tunable_open(path, O_WRONLY, buf, sizeof(buf)), ret = 0;
	ssize_t n;

	if (fd < 0) {
		if (why)
			snprintf(why, whylen, "%s", buf);
		else
			kb_error("cannot write tunable: %s %s", path, buf);
		return fd;
	}
	n = write(fd, value, len);
	if (n != (ssize_t)len) {
		/* a short write sets no errno */
		ret = n < 0 ? -errno : -EIO;
		if (why)
			snprintf(why, whylen, "write: %s",
				 n < 0 ? strerror(-ret) : "short write");
		else
			kb_error("cannot write '%s' to %s: %s", value, path,
				 n < 0 ? strerror(-ret) : "short write");
	}
	close(fd);
	return ret;
}

static int write_value(const char *path, const char *value)
{
	return write_value_why(path, value, NULL, 0);
}

/* The machine-wide record of the tunables kbench has changed, so that a
 * campaign killed with -9 is undone even by another campaign on the same
 * device: one file per tunable in $KBENCH_RUN_DIR/tunables (default
 * /run/kbench/tunables; /run is emptied at boot, when sysfs values reset
 * too), named by the tunable's path with '/' written as '!', holding
 * {"original": VALUE, "campaign": DIR, "pid": PID}. */
static char *registry_path(const char *tpath)
{
	char *p, *s;

	p = kb_xasprintf("%s/tunables/%s", kb_machine_dir(), tpath);
	for (s = strstr(p, "/tunables/") + 10; *s; s++)
		if (*s == '/')
			*s = '!';
	return p;
}

/* Record r is this kbench's: its pid and start time (a kbench in a PID
 * namespace of its own is pid 1 every time, and a pid is used again) */
static int rec_mine(const struct kb_tunable_record *r)
{
	return r->pid == getpid() &&
	       (!r->pid_start || r->pid_start == kb_pid_start_ticks(0));
}

/* Record r's kbench is running: a kbench has its pid, started when it
 * did */
static int rec_alive(const struct kb_tunable_record *r)
{
	return kb_pid_is_kbench(r->pid) &&
	       (!r->pid_start || r->pid_start == kb_pid_start_ticks(r->pid));
}

/* The registry directory regdir ($KBENCH_RUN_DIR/tunables): kbench
 * writes the sysfs and /proc/sys values its records name, as root, so
 * only root and the trusted users may change it (lib/file.h
 * kb_path_trusted(): every directory of its path); a break-it trial
 * planted a record in a KBENCH_RUN_DIR others could write and had
 * loop7's read_ahead_kb set to 4.  0 (also when it does not exist yet:
 * kb_mkdir_p() makes it root's), or -EPERM / -errno with a message. */
static int registry_trusted(const char *regdir)
{
	char *why = NULL;
	int ret;

	if (!kb_exists(regdir))
		return 0;
	ret = kb_path_trusted(regdir, &why);
	if (ret)
		kb_error("the tunables' records %s are not used: %s; kbench "
			 "writes the values they name as root, so the "
			 "directory must be changeable only by root and the "
			 "trusted users (KBENCH_RUN_DIR chooses another place; "
			 "default /run/kbench)", regdir, why ? why : "?");
	free(why);
	return ret;
}

/* The sysctls the kernel keeps one of (mm/page-writeback.c,
 * Documentation/admin-guide/sysctl/vm.rst: "only one of them may be
 * specified at a time"; writing one sets the other to 0, and
 * dirty_bytes takes no 0): path's partner, or NULL.  An original of 0
 * means the partner held the setting, so it is restored by writing the
 * partner's value then (a break-it trial: writing dirty_bytes' 0 back
 * failed, dirty_ratio stayed 0 and the record failed every later
 * campaign). */
static const char *coupled_partner(const char *path)
{
	static const char *const pairs[][2] = {
		{ "/proc/sys/vm/dirty_bytes", "/proc/sys/vm/dirty_ratio" },
		{ "/proc/sys/vm/dirty_background_bytes",
		  "/proc/sys/vm/dirty_background_ratio" },
	};
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (!strcmp(path, pairs[i][0]))
			return pairs[i][1];
		if (!strcmp(path, pairs[i][1]))
			return pairs[i][0];
	}
	return NULL;
}

/* Coupled path's partner value to keep with an original of 0
 * (coupled_partner()): the partner's value now, else NULL. */
static char *partner_value(const char *path, const char *original)
{
	const char *p = coupled_partner(path);

	return p && !strcmp(original, "0") ? tunable_read(p, 1) : NULL;
}

/* The block device whose tunable tpath is, .../block/DEV (malloc'd), or
 * NULL for a tunable of no block device (device_diskseq()). */
static char *block_device_dir(const char *tpath)
{
	const char *b = strstr(tpath, "/block/"), *e;

	if (strncmp(tpath, "/sys/", 5) || !b)
		return NULL;
	e = strchr(b + 7, '/');
	return e ? kb_xasprintf("%.*s", (int)(e - tpath), tpath) : NULL;
}

/* The diskseq of the block device whose tunable tpath (a resolved sysfs
 * path, .../block/DEV/...: the whole disk's, also for a partition's
 * file) is, from DEV/diskseq (Documentation/ABI/stable/sysfs-block:
 * "monotonically increasing", new for each device attached under the
 * name, a loop device's new backing file included); NULL for a tunable
 * of no block device, or a kernel without it (before 5.15). */
static char *device_diskseq(const char *tpath)
{
	char *d = block_device_dir(tpath), *p, *v;

	if (!d)
		return NULL;
	p = kb_path_join(d, "diskseq");
	v = tunable_read(p, 1);
	free(p);
	free(d);
	return v;
}

/* tpath is a tunable of a loop device attached to no file now (DEV/loop/
 * exists only while one is: drivers/block/loop.c).  Detaching one gives
 * it a new diskseq but keeps its queue's settings for whoever attaches
 * it next, so what a dead kbench wrote is still there (a break-it
 * trial: a campaign's own loop: device, detached by LO_FLAGS_AUTOCLEAR
 * when kbench was killed with -9, was taken for another device and kept
 * nomerges 2 and mq-deadline; the next campaign on it recorded them as
 * the originals). */
static int loop_detached(const char *tpath)
{
	char *d = block_device_dir(tpath), *l;
	const char *name = d ? strrchr(d, '/') + 1 : "";
	int free_now;

	if (!d || strncmp(name, "loop", 4) || !name[4] ||
	    strspn(name + 4, "0123456789") != strlen(name + 4)) {
		free(d);
		return 0;
	}
	l = kb_path_join(d, "loop");
	free_now = kb_exists(d) && !kb_exists(l);
	free(l);
	free(d);
	return free_now;
}

/* Record r is of a device that is gone: another device has its name
 * now (its diskseq differs from the record's; a break-it trial: a
 * killed campaign's loop0 record was written to the user's loop0).  A
 * loop device detached since, attached to nothing, is not gone: it
 * keeps what was written (loop_detached()). */
static int rec_device_gone(const struct kb_tunable_record *r)
{
	char *now;
	int gone;

	if (!r->diskseq || !r->path)
		return 0;
	now = device_diskseq(r->path);
	gone = !now || strcmp(now, r->diskseq);
	free(now);
	return gone && !loop_detached(r->path);
}

/* The original value of tpath (resolved and checked: tunables.h): the
 * registry's when a dead kbench left it changed, else current.  Records
 * this campaign in the registry.  NULL (message printed) when another
 * running kbench owns the tunable. */
static char *registry_claim(const char *tpath, char *current,
			    const char *campaign, char **partner)
{
	char *rp = registry_path(tpath), *dir = kb_xstrdup(rp), *orig = current;
	struct kb_tunable_record rec = { 0 }, old = { 0 };
	int e;
	pid_t pid;
	const char *o, *owner;

	*strrchr(dir, '/') = '\0';
	/* the record is the only way back after a crash (the campaign
	 * directory is not trusted): no record, no change; and a registry
	 * others can change is not used (registry_trusted(), said) */
	if (kb_mkdir_p(dir))
		goto unrecorded;
	if (registry_trusted(dir))
		goto refused;
	e = tunable_record_load(rp, &old) == 0;
	pid = (pid_t)old.pid;
	o = old.original;
	owner = old.campaign;

	if (e && old.path && strcmp(old.path, tpath)) {
		/* the name says one tunable, the record another: not ours */
		kb_warn("%s records tunable %s, not %s: ignored", rp, old.path,
			tpath);
		e = 0;	/* o, owner and pid are read only with e */
	}
	if (e && !rec_mine(&old) && rec_device_gone(&old)) {
		/* a device gone with its kbench: not what is there now */
		kb_warn("%s: the record of %s is of a device gone since "
			"(diskseq %s): dropped, the value now is the original",
			rp, tpath, old.diskseq);
		e = 0;
	}
	if (e && !rec_mine(&old) && rec_alive(&old)) {
		/* a block device's queue, or a setting of the whole
		 * machine (/proc/sys): said as what is shared */
		kb_error("%s is being changed by another kbench (pid %ld, "
			 "campaign %s): two campaigns %s measure each other; "
			 "wait for it or stop it", tpath, (long)pid,
			 owner ? owner : "?", strncmp(tpath, "/proc/sys/", 10) ?
			 "on one device" : "changing one machine-wide setting");
		goto refused;
	}
	if (e && o && !rec_mine(&old)) {
		if (strcmp(current, o))
			kb_warn("%s was left at '%s' by campaign %s (kbench pid "
				"%ld, no longer running); its original value "
				"'%s' will be restored", tpath, current,
				owner ? owner : "?", (long)pid, o);
		free(current);
		orig = kb_xstrdup(o);
		*partner = old.partner_original ?
			   kb_xstrdup(old.partner_original) : NULL;
	} else {
		*partner = partner_value(tpath, orig);
	}
	{
		/* campaign is DIR/tunables.saved.json: record DIR,
		 * resolved (a later kbench may start elsewhere) */
		char *cdir = kb_xstrdup(campaign), *slash = strrchr(cdir, '/');
		char *abs;

		if (slash)
			*slash = '\0';
		else
			strcpy(cdir, ".");
		if ((abs = realpath(cdir, NULL))) {
			free(cdir);
			cdir = abs;
		}
		rec.path = kb_xstrdup(tpath);
		rec.original = kb_xstrdup(orig);
		rec.partner_original = *partner ? kb_xstrdup(*partner) :
				       NULL;
		rec.diskseq = device_diskseq(tpath);
		rec.campaign = cdir;
		rec.pid = (long)getpid();
		rec.pid_start = kb_pid_start_ticks(0);
	}
	if (!tunable_record_save(rp, &rec))
		goto out;
unrecorded:
	kb_error("cannot record the original value of %s in %s: not changed "
		 "(after a crash nothing could restore it; KBENCH_RUN_DIR "
		 "chooses another place)", tpath, rp);
refused:
	free(orig);
	orig = NULL;
	free(*partner);
	*partner = NULL;
out:
	tunable_record_free(&rec);
	tunable_record_free(&old);
	free(dir);
	free(rp);
	return orig;
}

static void registry_release(const char *tpath)
{
	char *rp = registry_path(tpath);

	unlink(rp);
	free(rp);
}

/* Write value to the checked path and read it back; a tunable that
 * reads value already is not written (one never changed, read-only or
 * refusing that value as a write, left a record behind that failed
 * every later campaign: a break-it trial). */
static int restore_one(const char *path, const char *value,
		       const char *partner)
{
	char *back = tunable_read(path, 1);
	const char *pp = coupled_partner(path);
	/* a coupled sysctl's 0: its partner's value back, which sets it
	 * to 0 (coupled_partner()) */
	int via = pp && partner && !strcmp(value, "0");
	int ret;

	if (back && !strcmp(back, value)) {
		free(back);
		return 0;
	}
	free(back);
	ret = via ? write_value(pp, partner) : write_value(path, value);
	if (ret)
		return ret;
	back = tunable_read(path, 0);
	if (!back)
		return -EIO;
	if (strcmp(back, value))
		kb_warn("restored %s = '%s' but %s reads back '%s'",
			via ? pp : path, via ? partner : value,
			via ? path : "it", back);
	else if (via)
		kb_info("restored %s = %s (%s = 0 with it)", pp, partner, path);
	else
		kb_info("restored %s = %s", path, value);
	free(back);
	return 0;
}

/* Registry record rp put back: its tunable written with its original
 * value (both from the machine's record, never from a campaign
 * directory), the record removed.  1 done, 0 left (said why), -EIO when
 * the write failed. */
static int restore_record(const char *rp, const struct kb_tunable_record *r)
{
	char why[512], *real;
	int ret;

	if (!r->path || !r->original)
		return 0;
	if (!rec_mine(r) && rec_alive(r)) {
		kb_warn("%s is being changed by a running kbench (pid %ld, "
			"campaign %s): left to it", r->path, r->pid,
			r->campaign ? r->campaign : "?");
		return 0;
	}
	if (rec_device_gone(r)) {
		kb_warn("cannot restore %s = %s: its device is gone, %s "
			"(diskseq %s then): not written, the record removed",
			r->path, r->original, kb_exists(r->path) ?
			"another device has its name now" : "removed",
			r->diskseq);
		unlink(rp);
		return 1;
	}
	real = tunable_resolve(r->path, why, sizeof(why));
	if (!real && errno == ENOENT) {
		kb_warn("cannot restore %s = %s: the file is gone (device "
			"removed?)", r->path, r->original);
		unlink(rp);
		return 1;
	}
	if (!real || strcmp(real, r->path)) {
		kb_warn("%s records %s, which %s: not written", rp, r->path,
			real ? "is not a resolved path" : why);
		free(real);
		return 0;
	}
	ret = restore_one(real, r->original, r->partner_original);
	free(real);
	if (ret < 0)
		return -EIO;
	unlink(rp);
	return 1;
}

/* Every record of the machine's registry for which pick(r, ctx) is 1
 * (pick may say why it is restored) put back with restore_record(); *left
 * counts those left.  0 or -EIO (a write failed). */
static int restore_registry(int (*pick)(const struct kb_tunable_record *r,
					const void *ctx),
			    const void *ctx, int *left)
{
	char *regdir = kb_path_join(kb_machine_dir(), "tunables");
	DIR *d;
	struct dirent *e;
	int ret = registry_trusted(regdir), k;

	if (ret) {
		free(regdir);
		return ret;
	}
	d = opendir(regdir);
	while (d && (e = readdir(d))) {
		struct kb_tunable_record r;
		char *rp;

		if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp."))
			continue;
		rp = kb_path_join(regdir, e->d_name);
		if (tunable_record_load(rp, &r) == 0 && pick(&r, ctx)) {
			k = restore_record(rp, &r);
			if (k < 0)
				ret = -EIO;
			*left += k == 0;
		}
		tunable_record_free(&r);
		free(rp);
	}
	if (d)
		closedir(d);
	free(regdir);
	return ret;
}

/* restore_registry(): the records of campaign directory ctx */
static int pick_campaign(const struct kb_tunable_record *r, const void *ctx)
{
	return r->campaign && kb_same_file(r->campaign, ctx) == 1;
}

int tunables_restore_file(const char *path, const struct kb_config *cfg)
{
	struct kb_tunables_saved saved = { 0 };
	char *dir = kb_xstrdup(path), *slash = strrchr(dir, '/');
	int have, ret, left = 0;
	size_t i;

	(void)cfg;
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	have = tunables_saved_load(path, &saved) == 0;
	if (!have)
		kb_warn("%s cannot be read (above); restoring this campaign's "
			"tunables from the machine's records (%s/tunables) "
			"instead", path, kb_machine_dir());
	/* 1. what the machine's record says this campaign changed */
	ret = restore_registry(pick_campaign, dir, &left);
	/* 2. the campaign's own list: a value there is only a hint (the
	 * directory is not trusted for root writes); a tunable another
	 * campaign's dead kbench left changed is restored from its record */
	for (i = 0; i < saved.n; i++) {
		const char *p = saved.paths[i], *v = saved.values[i];
		struct kb_tunable_record r;
		char why[512], *real, *rp;

		real = tunable_resolve(p, why, sizeof(why));
		if (!real) {
			if (errno != ENOENT)
				kb_warn("%s names %s, which %s: not written",
					path, p, why);
			continue;
		}
		rp = registry_path(real);
		if (tunable_record_load(rp, &r) == 0 && r.path &&
		    !strcmp(r.path, real)) {
			int k = restore_record(rp, &r);

			if (k < 0)
				ret = -EIO;
			left += k == 0;
		} else if (kb_exists(rp)) {
			/* kept, with the list: the original is in neither
			 * readable form now, and a new claim would take the
			 * changed value for it */
			kb_warn("%s: the machine's record of %s cannot be read: "
				"not restored; write its original value back "
				"yourself, then remove the record and %s", rp,
				real, path);
			left++;
		} else {
			/* restored in step 1, or never changed by kbench
			 * since boot (/run is emptied then, and sysfs too) */
			char *cur = tunable_read(real, 1);

			if (!cur || strcmp(cur, v))
				kb_warn("%s names %s = '%s' (now '%s'), but the "
					"machine has no record of a kbench "
					"changing it since boot (%s/tunables): "
					"not written (the campaign directory "
					"is not trusted for root writes)", path,
					real, v, cur ? cur : "?",
					kb_machine_dir());
			free(cur);
		}
		tunable_record_free(&r);
		free(rp);
		free(real);
	}
	tunables_saved_free(&saved);
	if (ret == 0 && !left) {
		if (have) {
			unlink(path);
		} else {
			char *bad = kb_xasprintf("%s.bad", path);

			rename(path, bad);
			free(bad);
		}
	}
	free(dir);
	return ret;
}

/* Tunable i resolved to the file of an earlier one: two spellings of one
 * file (queue/nomerges and ./queue/nomerges, a path through a symlink, the
 * relative and the absolute name) that kconf's check of the names cannot
 * see.  Each run would set one value and find the other "changed during
 * the run"; refused before anything is written (-EINVAL). */
static int same_file_twice(const struct kb_tunables *tu,
			   const struct kb_config *cfg, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++) {
		if (!tu->paths[j] || strcmp(tu->paths[j], tu->paths[i]))
			continue;
		kb_error("%s:%d: tunable %s: %s is tunable %s's file already "
			 "(line %d); one tunable per file, with all its values",
			 cfg->path, cfg->tunables[i].line,
			 cfg->tunables[i].label, tu->paths[i],
			 cfg->tunables[j].label, cfg->tunables[j].line);
		return -EINVAL;
	}
	return 0;
}

int tunables_check_absolute(const struct kb_config *cfg)
{
	char why[512], *res;
	size_t i;

	for (i = 0; i < cfg->ntunables; i++) {
		if (cfg->tunables[i].sweep || cfg->tunables[i].path[0] != '/')
			continue;
		res = tunable_resolve(cfg->tunables[i].path, why, sizeof(why));
		if (!res) {
			int err = errno == ENOENT ? -ENOENT : -EPERM;

			kb_error("%s:%d: tunable %s: %s %s", cfg->path,
				 cfg->tunables[i].line, cfg->tunables[i].label,
				 cfg->tunables[i].path, why);
			return err;
		}
		free(res);
	}
	return 0;
}

/* restore_registry(): the records of tunables that a kbench no longer
 * running left changed (killed with -9, or the machine's power cut short
 * of a reboot), whatever the campaign and device, each said (a
 * break-it trial: a later campaign on the same device that did not
 * touch the tunable measured with it changed, and said nothing).  The
 * dead campaign's own list then finds nothing left to do.  0 or -EIO. */
static int pick_orphan(const struct kb_tunable_record *r, const void *ctx)
{
	char *cur;

	(void)ctx;
	if (!r->path || !r->original || rec_mine(r) || rec_alive(r))
		return 0;
	if (rec_device_gone(r))
		return 1;	/* said, not written: restore_record() */
	cur = tunable_read(r->path, 1);
	if (cur && !strcmp(cur, r->original)) {
		free(cur);
		return 1;	/* unchanged: the record goes, unsaid */
	}
	free(cur);
	kb_warn("campaign %s (kbench pid %ld, no longer running) left %s "
		"changed; restoring its original value '%s' before this "
		"campaign", r->campaign ? r->campaign : "?", r->pid, r->path,
		r->original);
	return 1;
}

int tunables_restore_orphans(void)
{
	int left = 0, ret = restore_registry(pick_orphan, NULL, &left);

	/* a dead campaign's tunable that cannot be written back (said
	 * above, its record kept for the next try) is no reason to refuse
	 * a campaign that does not touch it: said again, as a warning (it
	 * failed every later campaign on the machine) */
	if (ret == -EIO)
		kb_warn("a tunable that a kbench no longer running left "
			"changed could not be restored (above); its record "
			"in %s/tunables is kept: this campaign measures with "
			"it changed", kb_machine_dir());
	else if (ret < 0)
		return -EPERM;
	return 0;
}

int tunables_init(struct kb_tunables *tu, const struct kb_config *cfg,
		  const struct kb_target *t, const char *dir)
{
	size_t i;
	int ret;

	memset(tu, 0, sizeof(*tu));
	tu->saved_path = kb_path_join(dir, "tunables.saved.json");
	if (kb_exists(tu->saved_path)) {
		kb_info("a previous run of this campaign stopped without "
			"restoring its tunables; restoring them now");
		if (tunables_restore_file(tu->saved_path, cfg) < 0)
			return -EIO;
	}
	for (i = 0; i < cfg->ntunables; i++) {
		char why[512], *raw;
		int fd;

		tu->labels[i] = kb_xstrdup(cfg->tunables[i].label);
		tu->n++;
		if (cfg->tunables[i].sweep)
			continue;	/* a job parameter: no file to write */
		raw = target_tunable_path(t, cfg->tunables[i].path,
					  cfg->tunables[i].label);
		if (!raw)
			return -EINVAL;
		tu->paths[i] = tunable_resolve(raw, why, sizeof(why));
		if (!tu->paths[i]) {
			int err = errno == ENOENT ? -ENOENT : -EPERM;

			kb_error("%s:%d: tunable %s: %s %s", cfg->path,
				 cfg->tunables[i].line, cfg->tunables[i].label,
				 raw, why);
			free(raw);
			return err;
		}
		if (cfg->tunables[i].path[0] != '/' &&
		    target_tunable_outside(t, tu->paths[i], why, sizeof(why))) {
			kb_error("%s:%d: tunable %s: %s %s: refused", cfg->path,
				 cfg->tunables[i].line, cfg->tunables[i].label,
				 cfg->tunables[i].path, why);
			free(raw);
			return -EPERM;
		}
		fd = tunable_open(tu->paths[i], O_RDONLY, why, sizeof(why));
		if (fd < 0) {
			kb_error("%s:%d: tunable %s: %s%s%s%s %s", cfg->path,
				 cfg->tunables[i].line, cfg->tunables[i].label,
				 raw, strcmp(raw, tu->paths[i]) ? " (" : "",
				 strcmp(raw, tu->paths[i]) ? tu->paths[i] : "",
				 strcmp(raw, tu->paths[i]) ? ")" : "", why);
			free(raw);
			return fd;
		}
		close(fd);
		free(raw);
		if ((ret = same_file_twice(tu, cfg, i)))
			return ret;
	}
	return 0;
}

static int save_originals(struct kb_tunables *tu)
{
	struct kb_tunables_saved saved = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; i < tu->n; i++) {
		char *v, *partner = NULL;

		if (!tu->paths[i])
			continue;
		v = tunable_read(tu->paths[i], 0);
		if (v)
			v = registry_claim(tu->paths[i], v, tu->saved_path,
					   &partner);
		if (!v) {
			ret = -EIO;
			goto out;
		}
		tunables_saved_add(&saved, tu->paths[i], v);
		free(tu->orig[i]);
		tu->orig[i] = v;
		free(tu->partner_orig[i]);
		tu->partner_orig[i] = partner;
	}
	ret = tunables_saved_save(tu->saved_path, &saved);
	if (ret == 0)
		tu->saved = 1;
out:
	if (ret) {
		/* nothing will be changed: drop the claims just made, except
		 * where a dead campaign's original differs from the value now
		 * (that record is still needed to undo it) */
		for (i = 0; i < tu->n; i++) {
			char *cur;

			if (!tu->orig[i])
				continue;
			cur = tunable_read(tu->paths[i], 1);
			if (cur && !strcmp(cur, tu->orig[i]))
				registry_release(tu->paths[i]);
			free(cur);
			free(tu->orig[i]);
			tu->orig[i] = NULL;
			free(tu->partner_orig[i]);
			tu->partner_orig[i] = NULL;
		}
	}
	tunables_saved_free(&saved);
	return ret;
}

/* tunables_set(), the reason a value failed in why[] ("it reads back
 * '1'", "write: Invalid argument") instead of printed; errors that are
 * not the value's (saving the originals) are printed as before */
static int tunables_set_why(struct kb_tunables *tu, size_t i,
			    const char *value, char *why, size_t whylen)
{
	char *back;
	int ret;

	if (!tu->paths[i])
		return 0;	/* a sweep: passed to fio, see kconf.h */
	if (!tu->saved) {
		ret = save_originals(tu);
		if (ret)
			return ret;
	}
	ret = write_value_why(tu->paths[i], value, why, whylen);
	if (ret)
		return ret;
	back = tunable_read(tu->paths[i], 0);
	if (!back) {
		snprintf(why, whylen, "it cannot be read back");
		return -EIO;
	}
	if (strcmp(back, value)) {
		snprintf(why, whylen, "it reads back '%s'", back);
		ret = -EIO;
	}
	free(back);
	return ret;
}

int tunables_set(struct kb_tunables *tu, size_t i, const char *value)
{
	char why[600] = "";
	int ret = tunables_set_why(tu, i, value, why, sizeof(why));

	if (ret && why[0])
		kb_error("tunable %s: value '%s' not taken by %s: %s "
			 "(not supported by this kernel or device?)",
			 tu->labels[i], value, tu->paths[i], why);
	return ret;
}

int tunables_apply(struct kb_tunables *tu, const struct kb_config *cfg,
		   const struct kb_configuration *k)
{
	size_t i;
	int ret;

	for (i = 0; i < tu->n; i++) {
		ret = tunables_set(tu, i, cfg->tunables[i].values[k->value[i]]);
		if (ret)
			return ret;
	}
	return 0;
}

int tunables_probe(struct kb_tunables *tu, const struct kb_config *cfg)
{
	size_t i, v;
	int ret = 0, r, quiet = kb_quiet;
	char why[600];

	/* a failure to save the originals (read-only campaign directory)
	 * is not the values' fault: say only that */
	if (!tu->saved) {
		ret = save_originals(tu);
		if (ret)
			return ret;
	}
	for (i = 0; i < tu->n && i < cfg->ntunables; i++) {
		if (!tu->paths[i])
			continue;
		for (v = 0; v < cfg->tunables[i].nvalues; v++) {
			why[0] = 0;
			r = tunables_set_why(tu, i, cfg->tunables[i].values[v],
					     why, sizeof(why));
			if (r == 0)
				continue;
			if (!why[0])	/* not the value's fault: printed */
				return r;
			kb_error("%s:%d: tunable %s: value '%s' is not accepted "
				 "by %s on this kernel and device (%s); remove "
				 "it from the list (nothing was run)", cfg->path,
				 cfg->tunables[i].line, cfg->tunables[i].label,
				 cfg->tunables[i].values[v], tu->paths[i], why);
			if (!ret)
				ret = r;
		}
	}
	kb_quiet = 1;	/* no "restored" lines for a probe */
	r = tunables_restore(tu);
	kb_quiet = quiet;
	return ret ? ret : r;
}

/* The originals come from memory, never from the file on disk: the file
 * is there for a crash, and a campaign directory is not trusted. */
int tunables_restore(struct kb_tunables *tu)
{
	size_t i;
	int ret = 0;

	if (!tu->saved)
		return 0;
	for (i = 0; i < tu->n; i++) {
		if (!tu->orig[i] || !tu->paths[i])
			continue;
		if (restore_one(tu->paths[i], tu->orig[i],
				tu->partner_orig[i]) < 0) {
			ret = -EIO;
			continue;
		}
		registry_release(tu->paths[i]);
		free(tu->orig[i]);
		tu->orig[i] = NULL;
		free(tu->partner_orig[i]);
		tu->partner_orig[i] = NULL;
	}
	if (ret == 0) {
		unlink(tu->saved_path);
		tu->saved = 0;
	}
	return ret;
}

int tunables_changed(size_t n, char *const *labels, char *const *paths,
		     const char *const *applied, const char *const *after,
		     char *reason, size_t reasonlen)
{
	size_t i, l;
	int changed = 0;

	if (reasonlen)
		reason[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!applied[i] || (after[i] && !strcmp(applied[i], after[i])))
			continue;
		l = strlen(reason);
		if (after[i])
			snprintf(reason + l, reasonlen - l, "%stunable %s (%s) "
				 "changed during the run: wrote %s, read %s "
				 "after fio", changed ? "; " : "", labels[i],
				 paths[i], applied[i], after[i]);
		else
			snprintf(reason + l, reasonlen - l, "%stunable %s (%s) "
				 "could not be read after fio (wrote %s)",
				 changed ? "; " : "", labels[i], paths[i],
				 applied[i]);
		changed = 1;
	}
	return changed;
}

void tunables_free(struct kb_tunables *tu)
{
	size_t i;

	for (i = 0; i < tu->n; i++) {
		free(tu->paths[i]);
		free(tu->labels[i]);
		free(tu->orig[i]);
		free(tu->partner_orig[i]);
	}
	free(tu->saved_path);
	memset(tu, 0, sizeof(*tu));
}
