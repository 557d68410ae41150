#include "lib/file.h"
#include "lib/err.h"
#include "lib/proc.h"

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <grp.h>
#include <pwd.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <linux/magic.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void *kb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		kb_error("out of memory allocating %zu bytes", n);
		abort();
	}
	return p;
}

void *kb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		kb_error("out of memory allocating %zu x %zu bytes", n, size);
		abort();
	}
	return p;
}

void *kb_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		kb_error("out of memory allocating %zu bytes", n);
		abort();
	}
	return q;
}

char *kb_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(kb_xmalloc(n), s, n);
}

FILE *kb_xmemstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f) {
		kb_error("out of memory for a string buffer");
		abort();
	}
	return f;
}

char *kb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		kb_error("out of memory formatting a string");
		abort();
	}
	return s;
}

char *kb_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (la && a[la - 1] == '/')
		return kb_xasprintf("%s%s", a, b);
	return kb_xasprintf("%s/%s", a, b);
}

int kb_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int kb_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *kb_self_exe(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0 || (size_t)n >= sizeof(buf) - 1)
		return NULL;
	buf[n] = '\0';
	return kb_xstrdup(buf);
}

ssize_t kb_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(fd, (char *)buf + got, len - got,
				  (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;		/* the end of the file */
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int kb_read_file(const char *path, char **buf, size_t *len, int quiet)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0;
	char *b;
	int ret = 0;

	*buf = NULL;
	if (!f) {
		ret = -errno;
		if (!quiet)
			kb_error("cannot open %s: %s", path, strerror(errno));
		return ret;
	}
	{
		struct stat st;

		/* a device (/dev/urandom, /dev/zero) never ends */
		if (fstat(fileno(f), &st) == 0 && (S_ISCHR(st.st_mode) ||
						   S_ISBLK(st.st_mode))) {
			if (!quiet)
				kb_error("%s: a device, not a file: not read",
					 path);
			fclose(f);
			return -ENODEV;
		}
	}
	b = kb_xmalloc(cap + 1);
	for (;;) {
		size_t r = fread(b + n, 1, cap - n, f);

		n += r;
		if (n < cap) {
			if (ferror(f)) {
				ret = errno ? -errno : -EIO;
				if (!quiet)
					kb_error("cannot read %s: %s", path,
						 strerror(errno));
				free(b);
				goto out;
			}
			break;
		}
		cap *= 2;
		b = kb_xrealloc(b, cap + 1);
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
out:
	fclose(f);
	return ret;
}

static int fsync_dir_of(const char *path)
{
	char *copy = kb_xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);

	free(copy);
	if (fd < 0)
		return -errno;
	fsync(fd);
	close(fd);
	return 0;
}

/* Create tmp for writing: O_EXCL | O_NOFOLLOW, so a file or symlink
 * planted at the name (by anyone who can write the directory) is never
 * opened, let alone followed.  One left by a killed process of the same
 * pid (pids are reused) is unlinked, which removes a symlink itself, not
 * its target; if the name is taken again at once, give up. */
int kb_open_new(const char *tmp)
{
	int tries, fd = -1;

	for (tries = 0; tries < 3; tries++) {
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
		if (unlink(tmp) < 0 && errno != ENOENT)
			break;
	}
	return fd;
}

/* Open deferral (kb_sync_defer_begin()): kb_write_atomic() and
 * kb_fsync_path() leave the syncing to kb_sync_defer_end(). */
static int sync_deferred;

void kb_sync_defer_begin(void)
{
	sync_deferred = 1;
}

void kb_sync_defer_drop(void)
{
	sync_deferred = 0;
}

int kb_sync_defer_end(const char *path)
{
	int fd, ret = 0;

	if (!sync_deferred)
		return 0;
	sync_deferred = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		kb_error("cannot open %s to sync it: %s", path, strerror(errno));
		return ret;
	}
	if (syncfs(fd) < 0) {
		ret = -errno;
		kb_error("cannot sync the file system of %s: %s", path,
			 strerror(errno));
	}
	close(fd);
	return ret;
}

int kb_write_atomic(const char *path, const void *buf, size_t len)
{
	return kb_write_atomic_opt(path, buf, len, 0);
}

int kb_write_atomic_opt(const char *path, const void *buf, size_t len,
			unsigned flags)
{
	int sync_now = !(flags & KB_WRITE_NOSYNC) && !sync_deferred;
	char *tmp = kb_xasprintf("%s.tmp.%ld", path, (long)getpid());
	const char *p = buf;
	int fd, ret = 0;

	fd = kb_open_new(tmp);
	if (fd < 0) {
		/* path, as the user named it, not its temporary name; a
		 * missing directory said (a new user's trial: "report -o
		 * out/r.md" said "cannot create out/r.md.tmp.17558: No such
		 * file or directory") */
		char *dir = kb_xstrdup(path), *slash = strrchr(dir, '/');

		ret = -errno;
		if (slash)
			slash[slash == dir] = '\0';
		if (ret == -ENOENT && slash && !kb_exists(dir))
			kb_error("cannot create %s: its directory %s does not "
				 "exist", path, dir);
		else if (ret == -EEXIST || ret == -ELOOP)	/* planted */
			kb_error("cannot create %s: its temporary %s: %s",
				 path, tmp, strerror(-ret));
		else
			kb_error("cannot create %s: %s", path, strerror(-ret));
		free(dir);
		goto out;
	}
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			kb_error("cannot write %s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			goto out;
		}
		p += w;
		len -= (size_t)w;
	}
	ret = sync_now && fsync(fd) < 0 ? -errno : 0;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret) {
		kb_error("cannot flush %s: %s", tmp, strerror(-ret));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		ret = -errno;
		if (ret == -EISDIR || ret == -ENOTDIR)	/* -o DIR, -o F/ */
			kb_error("cannot write %s: it names a directory; give "
				 "a file's name", path);
		else
			kb_error("cannot rename %s to %s: %s", tmp, path,
				 strerror(-ret));
		unlink(tmp);
		goto out;
	}
	if (sync_now)
		fsync_dir_of(path);
out:
	free(tmp);
	return ret;
}

/* The pid of a "NAME.tmp.PID" name, else 0. */
static long tmp_name_pid(const char *name)
{
	const char *t = strstr(name, ".tmp."), *next;
	char *end;
	long pid;

	if (!t)
		return 0;
	/* the last ".tmp." of the name */
	while ((next = strstr(t + 1, ".tmp.")))
		t = next;
	if (t == name || !t[5] || t[5] < '1' || t[5] > '9')
		return 0;
	errno = 0;
	pid = strtol(t + 5, &end, 10);
	if (*end || errno || pid <= 0 || pid > 0x7fffffffL)
		return 0;
	return pid;
}

static size_t remove_stale_at(int dfd, const char *shown, int depth)
{
	DIR *d;
	struct dirent *e;
	size_t n = 0;

	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat st;
		long pid;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub;

			if (depth <= 1)
				continue;
			sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY |
				     O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				char *s = kb_path_join(shown, e->d_name);

				n += remove_stale_at(sub, s, depth - 1);
				free(s);
			}
			continue;
		}
		if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
			continue;
		pid = tmp_name_pid(e->d_name);
		if (!pid || pid == (long)getpid() || kb_pid_is_kbench((pid_t)pid))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
			kb_info("removed %s/%s (left by kbench pid %ld, no "
				"longer running)", shown, e->d_name, pid);
			n++;
		}
	}
	closedir(d);
	return n;
}

const char *kb_machine_dir(void)
{
	const char *base = getenv("KBENCH_RUN_DIR");

	return base && *base ? base : "/run/kbench";
}

int kb_machine_dir_check(void)
{
	const char *dir = kb_machine_dir();
	char *at, *why = NULL, *slash;
	int ret;

	/* machine-wide: one place whatever the current directory (a
	 * relative name was judged from "/" while made in the current
	 * directory, one others could write: a helper's trial) */
	if (dir[0] != '/') {
		kb_error("KBENCH_RUN_DIR %s: expected an absolute path (the "
			 "machine's records, one place for every kbench)",
			 dir);
		return -EINVAL;
	}
	if (kb_exists(dir) && !kb_is_dir(dir)) {
		kb_error("KBENCH_RUN_DIR %s: not a directory (the machine's "
			 "records are files in it)", dir);
		return -ENOTDIR;
	}
	at = kb_xstrdup(dir);

	/* the nearest directory that exists: the one things are made in */
	while (!kb_exists(at) && (slash = strrchr(at, '/')) && slash != at)
		*slash = '\0';
	if (!kb_exists(at))	/* "/x" with no "/x": made in "/" */
		snprintf(at, strlen(at) + 1, "/");
	ret = kb_exists(dir) ? kb_path_trusted(at, &why) :
			       kb_dir_trusted_above(at, &why);
	if (ret)
		kb_error("%s%s: %s; kbench keeps root's records there (the "
			 "tunables to restore after a crash, the targets' "
			 "locks), so it must be changeable only by root and "
			 "the trusted users: set KBENCH_RUN_DIR to such a "
			 "directory, or leave it unset for /run/kbench",
			 getenv("KBENCH_RUN_DIR") && *getenv("KBENCH_RUN_DIR") ?
			 "KBENCH_RUN_DIR " : "", dir, why ? why : "?");
	free(why);
	free(at);
	return ret;
}

size_t kb_remove_stale_tmp(const char *dir, int depth)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || depth < 1) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	return remove_stale_at(fd, dir, depth);
}

int kb_fsync_path(const char *path)
{
	int fd, ret = 0;

	if (sync_deferred)	/* kb_sync_defer_end() syncs it */
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int kb_path_in_memory(const char *path)
{
	char *p = kb_xstrdup(path), *slash;
	struct statfs fs;
	int ret = 0;

	while (statfs(p, &fs) < 0 && (slash = strrchr(p, '/')) && slash != p)
		*slash = '\0';
	if (!statfs(*p ? p : "/", &fs))
		ret = fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
	free(p);
	return ret;
}

int kb_mkdir_p(const char *path)
{
	char *p = kb_xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				ret = -errno;
				kb_error("cannot create directory %s: %s", p,
					 strerror(errno));
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

int kb_real_dirs(const char *base, const char *rel)
{
	char *p = kb_path_join(base, rel), *s = p + strlen(base);
	struct stat st;
	int ret = 0;

	for (;;) {
		char c;

		s += strspn(s, "/");
		s += strcspn(s, "/");
		c = *s;
		*s = '\0';
		if (lstat(p, &st) < 0)
			ret = -errno;
		else if (!S_ISDIR(st.st_mode))
			ret = -ELOOP;
		*s = c;
		if (ret || !c)
			break;
	}
	free(p);
	return ret;
}

int kb_file_contains(const char *path, const char *needle)
{
	char *t = NULL;
	int found;

	if (kb_read_file(path, &t, NULL, 1))
		return 0;
	found = strstr(t, needle) != NULL;
	free(t);
	return found;
}

int kb_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

long kb_env_uid(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s || geteuid() != 0)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v < 0 ? -1 : v;
}

/* The uids trusted beside root: the effective one, the user sudo(8) ran
 * root for, the one `kbench install-resume` recorded in its unit. */
static int trusted_uid(uid_t u)
{
	long su = kb_env_uid("SUDO_UID"), tu = kb_env_uid("KBENCH_TRUST_UID");

	return u == 0 || u == geteuid() || (su >= 0 && u == (uid_t)su) ||
	       (tu >= 0 && u == (uid_t)tu);
}

/* A group whose members can write is trusted when it is root's, or the
 * private group of a trusted user (named after that user, whose primary
 * group it is, with no other member and nobody else's primary group:
 * Debian's user-private groups, umask 002), never a shared one such as
 * "users". */
static int trusted_gid(gid_t g)
{
	char name[256] = "";
	struct group *gr;
	struct passwd *pw;
	FILE *f;
	char **m;
	int ok = 0, owned = 0;

	if (g == 0)
		return 1;
	/* /etc/group and /etc/passwd read directly (fgetgrent(3),
	 * fgetpwent(3)): no NSS, which the static guest binary cannot
	 * load; a group or user only in a directory service is not
	 * trusted, so a file writable by that group is refused */
	f = fopen("/etc/group", "re");
	while (f && (gr = fgetgrent(f)))
		if (gr->gr_gid == g) {
			ok = 1;
			snprintf(name, sizeof(name), "%s", gr->gr_name);
			for (m = gr->gr_mem; m && *m; m++)
				if (strcmp(*m, gr->gr_name))
					ok = 0;	/* another member */
			break;
		}
	if (f)
		fclose(f);
	f = ok ? fopen("/etc/passwd", "re") : NULL;
	/* a trusted user of that name has it as primary group, and
	 * nobody else does (a primary group is never listed in gr_mem) */
	while (f && (pw = fgetpwent(f)))
		if (pw->pw_gid == g) {
			if (!strcmp(pw->pw_name, name) &&
			    trusted_uid(pw->pw_uid))
				owned = 1;
			else if (!trusted_uid(pw->pw_uid))
				ok = 0;
		}
	if (f)
		fclose(f);
	return ok && owned;
}

char *kb_owner_untrusted(const char *path, uid_t uid)
{
	char me[48] = "";

	if (trusted_uid(uid))
		return NULL;
	if (geteuid())
		snprintf(me, sizeof(me), ", uid %u", (unsigned)geteuid());
	return kb_xasprintf("%s: owned by uid %u (trusted: root%s%s%s)", path,
			    (unsigned)uid, me, kb_env_uid("SUDO_UID") >= 0 ?
			    ", SUDO_UID" : "",
			    kb_env_uid("KBENCH_TRUST_UID") >= 0 ?
			    ", KBENCH_TRUST_UID" : "");
}

/* One path component p (lstat: a link is judged by who owns it, and
 * where it leads separately): NULL when only the trusted can change it,
 * else why not (malloc'd).  last: the path itself (a sticky directory
 * writable by all is fine only above it). */
static char *untrusted_why(const char *p, const struct stat *st, int last)
{
	char *why = kb_owner_untrusted(p, st->st_uid);
	int grp, acl;

	if (why)
		return why;
	if (S_ISLNK(st->st_mode))
		return NULL;	/* its mode means nothing */
	/* with an access ACL the group bits are its mask: someone named in
	 * it may write */
	acl = (st->st_mode & S_IWGRP) &&
	      lgetxattr(p, "system.posix_acl_access", NULL, 0) > 0;
	grp = (st->st_mode & S_IWGRP) && (acl || !trusted_gid(st->st_gid));
	if (!(st->st_mode & S_IWOTH) && !grp)
		return NULL;
	if (!last && S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX))
		return NULL;
	return kb_xasprintf("%s: writable by %s (mode %04o)", p,
			    (st->st_mode & S_IWOTH) ? "all" :
			    acl ? "the users of its ACL" : "its group",
			    (unsigned)(st->st_mode & 07777));
}

/* Each component of the absolute path abs, from "/": lstat, judged by
 * untrusted_why().  0, -EPERM or -errno with *why. */
static int chain_trusted(char *abs, int above, char **why)
{
	struct stat st;
	char *s;
	int ret = 0;

	/* "/", then each prefix ending before a '/', then the whole */
	for (s = abs;; s = strchr(s + 1, '/')) {
		char c = 0;
		int last = !s || (s[1] == '\0' && s != abs);

		if (s && !last) {
			c = s[s == abs];	/* keep "/" for the root */
			s[s == abs] = '\0';
		}
		if (lstat(abs, &st) < 0) {
			ret = -errno;
			*why = kb_xasprintf("%s: %s", abs, strerror(errno));
		} else {
			*why = untrusted_why(abs, &st, last && !above);
			if (*why)
				ret = -EPERM;
		}
		if (s && !last)
			s[s == abs] = c;
		if (ret || last)
			break;
	}
	return ret;
}

static int path_trusted(const char *path, int above, char **why);

/* kb_tree_trusted()'s walk: nftw(3) passes no argument through */
static char *tree_why;
static const char *tree_root;

static int tree_entry(const char *p, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)type;
	if (!ftw->level)
		return 0;	/* the root: the caller's */
	if (S_ISLNK(st->st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(p, target, sizeof(target) - 1);

		target[n > 0 ? n : 0] = '\0';
		tree_why = kb_xasprintf("%s: a symbolic link (to %s); kbench "
					"makes none under %s", p, target,
					tree_root);
		return 1;
	}
	tree_why = untrusted_why(p, st, 1);
	return tree_why ? 1 : 0;
}

int kb_tree_trusted(const char *dir, char **why)
{
	struct stat st;
	int r;

	*why = NULL;
	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	tree_why = NULL;
	tree_root = dir;
	r = nftw(dir, tree_entry, 16, FTW_PHYS);
	*why = tree_why;
	tree_why = NULL;
	if (r > 0)
		return -EPERM;
	if (r < 0) {
		r = -errno;
		*why = kb_xasprintf("%s: cannot walk: %s", dir, strerror(errno));
		return r;
	}
	return 0;
}

int kb_path_trusted(const char *path, char **why)
{
	return path_trusted(path, 0, why);
}

int kb_dir_trusted_above(const char *dir, char **why)
{
	return path_trusted(dir, 1, why);
}

static int path_trusted(const char *path, int above, char **why)
{
	char *real, *abs, *cwd = NULL;
	int ret;

	*why = NULL;
	/* the path as given (a link on it, /tmp/l -> elsewhere, can be
	 * re-pointed by whoever owns it), then where it leads */
	if (path[0] == '/') {
		abs = kb_xstrdup(path);
	} else {
		cwd = getcwd(NULL, 0);
		if (!cwd) {
			ret = -errno;
			*why = kb_xasprintf("getcwd: %s", strerror(errno));
			return ret;
		}
		abs = kb_path_join(cwd, path);
		free(cwd);
	}
	ret = chain_trusted(abs, above, why);
	free(abs);
	if (ret)
		return ret;
	real = realpath(path, NULL);
	if (!real) {
		ret = -errno;
		*why = kb_xasprintf("%s: %s", path, strerror(errno));
		return ret;
	}
	ret = chain_trusted(real, above, why);
	free(real);
	return ret;
}
