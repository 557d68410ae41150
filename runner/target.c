#include "runner/target.h"
#include "runner/nullblk.h"
#include "parsers/fio_jobfile.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

/* /sys/dev/block/MAJ:MIN -> the disk's sysfs dir and diskstats name. */
static int blockdev_sysfs(struct kb_target *t, dev_t rdev)
{
	char link[64], real[PATH_MAX], *part;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	if (!realpath(link, real)) {
		int err = -errno;

		kb_error("%s: cannot resolve %s: %s", t->path, link,
			 strerror(-err));
		return err;
	}
	t->stat_name = kb_xstrdup(strrchr(real, '/') + 1);
	part = kb_path_join(real, "partition");
	if (kb_exists(part)) {
		/* a partition: queue/ belongs to the parent disk */
		*strrchr(real, '/') = '\0';
	}
	free(part);
	t->sysfs_dir = kb_xstrdup(real);
	return 0;
}

/* ---- a target in use is refused (target.h) ---- */

#define MAX_DEVS 256

struct devset {
	dev_t dev[MAX_DEVS];
	char *name[MAX_DEVS];	/* "loop5", "loop5p1" */
	size_t n;
};

static int read_devnum(const char *path, dev_t *dev)
{
	char *buf = NULL;
	unsigned ma, mi;
	int ok;

	if (kb_read_file(path, &buf, NULL, 1) < 0)
		return 0;
	ok = sscanf(buf, "%u:%u", &ma, &mi) == 2;
	free(buf);
	if (ok)
		*dev = makedev(ma, mi);
	return ok;
}

/* Undo the octal escapes (\040 for a blank) of /proc/self/mountinfo and
 * /proc/swaps, in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* The index in ds of the block device that the file path is, else -1. */
static int devset_find_path(const struct devset *ds, const char *path)
{
	struct stat st;
	size_t i;

	if (path[0] != '/' || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return -1;
	for (i = 0; i < ds->n; i++)
		if (ds->dev[i] == st.st_rdev)
			return (int)i;
	return -1;
}

/* "dm-0 (vg-lv)" or "md0": what holds a device. */
static char *holder_name(const char *holders_dir, const char *h)
{
	char *p = kb_xasprintf("%s/%s/dm/name", holders_dir, h), *n = NULL;
	char *out, *nl;

	if (kb_read_file(p, &n, NULL, 1) == 0 && (nl = strchr(n, '\n')))
		*nl = '\0';
	out = n && *n ? kb_xasprintf("%s (%s)", h, n) : kb_xstrdup(h);
	free(n);
	free(p);
	return out;
}

/* The first holder of sysdir (its holders/ directory), malloc'd, or NULL. */
static char *first_holder(const char *sysdir)
{
	char *hd = kb_path_join(sysdir, "holders"), *found = NULL;
	DIR *d = opendir(hd);
	struct dirent *e;

	while (d && !found && (e = readdir(d)))
		if (e->d_name[0] != '.')
			found = holder_name(hd, e->d_name);
	if (d)
		closedir(d);
	free(hd);
	return found;
}

int target_in_use(dev_t rdev, const char *sysnode, const char *mountinfo,
		  const char *swaps, char **why)
{
	struct devset ds = { .n = 0 };
	char *text = NULL, *line, *save = NULL;
	const char *base = strrchr(sysnode, '/');
	DIR *d;
	struct dirent *e;
	size_t i;
	int found = 0;

	*why = NULL;
	ds.dev[0] = rdev;
	ds.name[0] = kb_xstrdup(base ? base + 1 : sysnode);
	ds.n = 1;
	/* its partitions: the subdirectories with a "partition" file */
	d = opendir(sysnode);
	while (d && (e = readdir(d)) && ds.n < MAX_DEVS) {
		char *sub, *part, *dev;

		if (e->d_name[0] == '.')
			continue;
		sub = kb_path_join(sysnode, e->d_name);
		part = kb_path_join(sub, "partition");
		dev = kb_path_join(sub, "dev");
		if (kb_exists(part) && read_devnum(dev, &ds.dev[ds.n]))
			ds.name[ds.n++] = kb_xstrdup(e->d_name);
		free(sub);
		free(part);
		free(dev);
	}
	if (d)
		closedir(d);

	/* held: an LVM physical volume, an MD member, any dm table */
	for (i = 0; i < ds.n && !found; i++) {
		char *dir = i ? kb_path_join(sysnode, ds.name[i]) :
			   kb_xstrdup(sysnode), *h = first_holder(dir);

		if (h) {
			*why = kb_xasprintf("%s/dev/%s is held by %s (a member of "
					    "an LVM volume, an MD array or "
					    "another device-mapper device)",
					    i ? "its partition " : "",
					    ds.name[i], h);
			found = 1;
		}
		free(h);
		free(dir);
	}

	/* mounted: by device number, or by the source's device (btrfs
	 * shows an anonymous 0:N in the third field) */
	if (!found && kb_read_file(mountinfo, &text, NULL, 1) == 0) {
		for (line = strtok_r(text, "\n", &save); line && !found;
		     line = strtok_r(NULL, "\n", &save)) {
			char *f[6] = { NULL }, *sep = strstr(line, " - ");
			char *fs = NULL, *src = NULL, *w, *s2 = NULL;
			unsigned ma, mi;
			int k = 0, idx = -1;

			if (!sep)
				continue;
			*sep = '\0';
			for (w = strtok_r(line, " ", &s2); w && k < 6;
			     w = strtok_r(NULL, " ", &s2))
				f[k++] = w;
			s2 = NULL;
			fs = strtok_r(sep + 3, " ", &s2);
			src = fs ? strtok_r(NULL, " ", &s2) : NULL;
			if (k < 5)
				continue;
			if (sscanf(f[2], "%u:%u", &ma, &mi) == 2)
				for (i = 0; i < ds.n && idx < 0; i++)
					if (ds.dev[i] == makedev(ma, mi))
						idx = (int)i;
			if (idx < 0 && src) {
				unescape(src);
				idx = devset_find_path(&ds, src);
			}
			if (idx < 0)
				continue;
			unescape(f[4]);
			*why = kb_xasprintf("%s/dev/%s is mounted on %s (%s)",
					    idx ? "its partition " : "",
					    ds.name[idx], f[4], fs ? fs : "?");
			found = 1;
		}
		free(text);
		text = NULL;
	}

	/* active swap */
	save = NULL;
	if (!found && kb_read_file(swaps, &text, NULL, 1) == 0) {
		line = strtok_r(text, "\n", &save);	/* the header */
		for (line = line ? strtok_r(NULL, "\n", &save) : NULL;
		     line && !found; line = strtok_r(NULL, "\n", &save)) {
			char *s3 = NULL, *name = strtok_r(line, " \t", &s3);
			int idx;

			if (!name)
				continue;
			unescape(name);
			idx = devset_find_path(&ds, name);
			if (idx < 0)
				continue;
			*why = kb_xasprintf("%s/dev/%s is active swap (%s)",
					    idx ? "its partition " : "",
					    ds.name[idx], name);
			found = 1;
		}
		free(text);
	}
	for (i = 0; i < ds.n; i++)
		free(ds.name[i]);
	return found;
}

/* Refuse a target in use, naming how, before anything is written. */
static int check_unused(const struct kb_target *t, dev_t rdev)
{
	char link[64], *node, *why = NULL;
	int used;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	node = realpath(link, NULL);
	if (!node)
		node = kb_xstrdup(link);
	used = target_in_use(rdev, node, "/proc/self/mountinfo", "/proc/swaps",
			     &why);
	free(node);
	if (!used)
		return 0;
	kb_error("target %s is in use: %s.  kbench writes to its target and "
		 "refuses one that is mounted, active swap or held by LVM, MD "
		 "or device-mapper, before any tunable is touched (a job "
		 "file's allow_mounted_write=1 does not change that); unmount "
		 "it or choose another device", t->path, why);
	free(why);
	return -EBUSY;
}

/* The checks of a block-device target that change nothing: it exists,
 * is a block device, is not in use.  *st: its stat.  where: "FILE:LINE: "
 * of kernels.conf's target =, or "".  0 or -errno (said). */
static int check_device(struct kb_target *t, const char *where,
			struct stat *st_out)
{
	struct stat st;

	if (stat(t->path, &st) < 0) {
		int err = -errno;

		kb_error("%starget %s: %s (expected a block device such as "
			 "/dev/nvme0n1; loop:SIZE or file:PATH for a scratch "
			 "target)", where, t->path, strerror(-err));
		return err;
	}
	if (!S_ISBLK(st.st_mode)) {
		if (S_ISREG(st.st_mode))
			kb_error("%starget %s is a regular file, not a block "
				 "device (use file:%s for a file)", where,
				 t->path, t->path);
		else
			kb_error("%starget %s is not a block device (a %s); "
				 "expected a block device such as /dev/nvme0n1, "
				 "loop:SIZE or file:PATH", where, t->path,
				 S_ISCHR(st.st_mode) ? "character device" :
				 S_ISDIR(st.st_mode) ? "directory" :
				 "special file");
		return -ENOTBLK;
	}
	if (check_unused(t, st.st_rdev))
		return -EBUSY;
	{
		/* its size from sysfs (512-byte sectors), without opening
		 * it: 0 is a loop device with no file behind it or an
		 * empty drive, where every run fails (a break-it trial:
		 * plan said nothing, each run failed) */
		char *sp = kb_xasprintf("/sys/dev/block/%u:%u/size",
					major(st.st_rdev), minor(st.st_rdev));
		char *text = NULL;

		if (kb_read_file(sp, &text, NULL, 1) == 0 &&
		    strtoull(text, NULL, 10) == 0) {
			kb_error("%starget %s has no space (size 0 in %s: a "
				 "loop device with no file attached, or an "
				 "empty drive): fio cannot run on it", where,
				 t->path, sp);
			free(text);
			free(sp);
			return -ENOSPC;
		}
		free(text);
		free(sp);
	}
	*st_out = st;
	return 0;
}

/* where: "FILE:LINE: " of kernels.conf's target =, or "" */
static int open_device(struct kb_target *t, const char *where)
{
	struct stat st;
	int fd, ret = check_device(t, where, &st);

	if (ret)
		return ret;
	fd = open(t->path, O_RDONLY);
	if (fd < 0) {
		int err = -errno;

		kb_error("target %s: %s%s", t->path, strerror(-err),
			 err == -EACCES ? " (kbench runs fio on block devices "
			 "as root)" : "");
		return err;
	}
	if (ioctl(fd, BLKGETSIZE64, &t->size_bytes) < 0)
		t->size_bytes = 0;
	close(fd);
	return blockdev_sysfs(t, st.st_rdev);
}

int target_fill(int fd, unsigned long long size_bytes, const char *path)
{
	enum { CHUNK = 1 << 20 };
	unsigned char *buf;
	unsigned long long off, x = 0x9e3779b97f4a7c15ULL;
	off_t hole = lseek(fd, 0, SEEK_HOLE);
	size_t i;
	ssize_t n;

	/* written to its end already (a hole at the end only): nothing to
	 * do; lseek without SEEK_HOLE support says the end, so such a file
	 * system is taken as written */
	if (hole < 0 || (unsigned long long)hole >= size_bytes)
		return 0;
	/* written sequentially: all before the first hole is data */
	off = (unsigned long long)hole / CHUNK * CHUNK;
	buf = kb_xmalloc(CHUNK);
	/* xorshift64: data no file system stores as a hole, dedups or
	 * compresses away, as fio's own buffers */
	for (i = 0; i + 8 <= CHUNK; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + i, &x, 8);
	}
	while (off < size_bytes) {
		size_t len = size_bytes - off < CHUNK ?
			(size_t)(size_bytes - off) : CHUNK;

		/* kbench run's SIGINT/SIGTERM handler (lib/proc.h): stop
		 * now, the caller says so; the next start fills on from the
		 * first hole */
		if (kb_spawn_forward_signal) {
			free(buf);
			return -EINTR;
		}
		buf[0] = (unsigned char)(off >> 20);	/* no two chunks alike */
		n = pwrite(fd, buf, len, (off_t)off);
		if (n <= 0) {
			int err = n < 0 ? -errno : -ENOSPC;

			kb_error("cannot write the target's data to %s at %llu "
				 "MiB of %llu: %s%s", path, off >> 20,
				 size_bytes >> 20, strerror(-err), err ==
				 -ENOSPC ? " (the file system is full: free "
				 "space, or give a smaller loop:SIZE)" : "");
			free(buf);
			return err;
		}
		off += (unsigned long long)n;
	}
	free(buf);
	if (fdatasync(fd) < 0) {
		int err = -errno;

		kb_error("cannot write the target's data to %s: %s", path,
			 strerror(-err));
		return err;
	}
	return 0;
}

static int open_loop(const struct kb_config *cfg, const char *dir,
		     struct kb_target *t)
{
	struct loop_info64 info;
	struct stat st;
	int ctl = -1, bfd = -1, lfd = -1, nr, ret = 0;

	if (geteuid() != 0) {
		kb_error("target loop:%lluM needs root (it attaches a loop "
			 "device); run as root, or use target = file:PATH",
			 cfg->loop_size_bytes >> 20);
		return -EPERM;
	}
	t->backing = kb_path_join(dir, "target.img");
	bfd = open(t->backing, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (bfd < 0 || ftruncate(bfd, (off_t)cfg->loop_size_bytes) < 0) {
		ret = -errno;
		kb_error("cannot create loop backing file %s: %s", t->backing,
			 strerror(errno));
		goto out;
	}
	/* written data, not holes: a read of a hole costs no I/O at all,
	 * so a read job on a fresh sparse file measures the file system's
	 * hole handling, and the first write job of a campaign would change
	 * what every later read measures */
	ret = target_fill(bfd, cfg->loop_size_bytes, t->backing);
	if (ret)
		goto out;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		ret = -errno;
		kb_error("cannot open /dev/loop-control: %s (is the loop "
			 "module loaded? modprobe loop)", strerror(errno));
		goto out;
	}
	for (;;) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			ret = -errno;
			kb_error("no free loop device: %s", strerror(errno));
			goto out;
		}
		t->path = kb_xasprintf("/dev/loop%d", nr);
		lfd = open(t->path, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			ret = -errno;
			kb_error("cannot open %s: %s", t->path, strerror(errno));
			goto out;
		}
		if (ioctl(lfd, LOOP_SET_FD, bfd) == 0)
			break;
		if (errno != EBUSY) {
			ret = -errno;
			kb_error("cannot attach %s to %s: %s", t->backing,
				 t->path, strerror(errno));
			goto out;
		}
		/* raced with another user of the free device: try again */
		close(lfd);
		lfd = -1;
		free(t->path);
		t->path = NULL;
	}
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)info.lo_file_name, sizeof(info.lo_file_name), "%s",
		 t->backing);
	if (ioctl(lfd, LOOP_SET_STATUS64, &info) < 0) {
		ret = -errno;
		kb_error("cannot configure %s: %s", t->path, strerror(errno));
		ioctl(lfd, LOOP_CLR_FD, 0);
		goto out;
	}
	t->direct_io = ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL) == 0;
	t->loop_fd = lfd;
	lfd = -1;
	t->size_bytes = cfg->loop_size_bytes;
	if (fstat(t->loop_fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	ret = blockdev_sysfs(t, st.st_rdev);
out:
	if (lfd >= 0)
		close(lfd);
	if (ctl >= 0)
		close(ctl);
	if (bfd >= 0)
		close(bfd);
	return ret;
}

/* "FILE:LINE: " of kernels.conf's target = (malloc'd), "FILE: " when
 * the line is unknown, "" when the file is too. */
static char *target_where(const struct kb_config *cfg)
{
	if (cfg->path && cfg->target_line)
		return kb_xasprintf("%s:%d: ", cfg->path, cfg->target_line);
	return cfg->path ? kb_xasprintf("%s: ", cfg->path) : kb_xstrdup("");
}

/* file:PATH: a regular file, or a new one in an existing directory.
 * 0 or -errno (said). */
static int check_file(const struct kb_config *cfg, const struct kb_target *t)
{
	struct stat st;
	char *parent, *slash, *where = target_where(cfg);
	int ret = 0;

	if (stat(t->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		kb_error("%starget = file:%s: %s is %s, not a file; %s",
			 where, t->path, t->path,
			 S_ISBLK(st.st_mode) ? "a block device" :
			 S_ISDIR(st.st_mode) ? "a directory" :
			 "not a regular file", S_ISBLK(st.st_mode) ?
			 "a device is target = /dev/NAME (checked: not in "
			 "use, not mounted)" : "name a file, or a new one");
		free(where);
		return -EINVAL;
	}
	if (stat(t->path, &st) == 0) {
		free(where);
		return 0;
	}
	parent = kb_xstrdup(t->path);
	slash = strrchr(parent, '/');
	if (slash)
		slash[slash == parent] = '\0';	/* "/f" -> "/" */
	if (slash && (stat(parent, &st) < 0 || !S_ISDIR(st.st_mode))) {
		kb_error("%starget = file:%s: its directory %s %s; kbench "
			 "creates the file, not the directories above it",
			 where, t->path, parent, stat(parent, &st) < 0 ? "does not exist" :
			 "is not a directory");
		ret = -ENOENT;
	}
	free(parent);
	free(where);
	return ret;
}

static int open_file(const struct kb_config *cfg, struct kb_target *t)
{
	struct stat st;
	int fd, ret;

	if (stat(t->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		t->size_bytes = (unsigned long long)st.st_size;
		return 0;
	}
	ret = check_file(cfg, t);
	if (ret)
		return ret;
	/* create it, sparse, so every job file (some give each job a share
	 * of the file by percentage) finds it at its full size */
	t->size_bytes = cfg->loop_size_bytes ? cfg->loop_size_bytes :
		256ULL << 20;
	fd = open(t->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)t->size_bytes) < 0) {
		int err = -errno;

		kb_error("cannot create target file %s: %s", t->path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	/* kbench's from now on: a later campaign may write to it
	 * (target_file_overwrite_check()); a file system without extended
	 * attributes keeps no mark, and that check then says so */
	if (fsetxattr(fd, KB_TARGET_MARK, "1", 1, 0) < 0)
		kb_warn("cannot mark the new target %s as kbench's "
			"(setxattr %s: %s): a later campaign will not run a "
			"write job on it", t->path, KB_TARGET_MARK,
			strerror(errno));
	/* a new file holds data, as open_loop()'s; one of the user's is
	 * used as it is */
	ret = target_fill(fd, t->size_bytes, t->path);
	close(fd);
	return ret;
}

/* 1 when path is a regular file that holds data and that kbench did not
 * create (no KB_TARGET_MARK): someone's, *st its stat; else 0. */
static int someones_file(const char *path, struct stat *st)
{
	char mark[8];

	return stat(path, st) == 0 && S_ISREG(st->st_mode) &&
	       st->st_size > 0 &&
	       getxattr(path, KB_TARGET_MARK, mark, sizeof(mark)) < 0;
}

/* The first of the njobs job files that may write (*j, *why malloc'd):
 * 1; 0 when none; -EIO when one cannot be read (said). */
static int job_that_writes(const char *const *job_paths, size_t njobs,
			   size_t *j, char **why)
{
	char *text;
	int w;

	for (*j = 0; *j < njobs; (*j)++) {
		if (kb_read_file(job_paths[*j], &text, NULL, 1))
			return -EIO;
		w = fio_jobfile_writes(text, why);
		free(text);
		if (w)
			return 1;
	}
	return 0;
}

int target_vm_disk_check(const struct kb_config *cfg,
			 const char *const *job_paths,
			 const char *const *job_names, size_t njobs)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < cfg->nvariants && !ret; i++) {
		const struct kb_variant *v = &cfg->variants[i];
		char *why = NULL, link[64], *node;
		struct stat st;
		int w;

		if (!v->disk || !v->method || strcmp(v->method, "vm"))
			continue;
		if (stat(v->disk, &st) == 0 && S_ISBLK(st.st_mode)) {
			snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
				 major(st.st_rdev), minor(st.st_rdev));
			node = realpath(link, NULL);
			w = target_in_use(st.st_rdev, node ? node : link,
					  "/proc/self/mountinfo", "/proc/swaps",
					  &why);
			free(node);
			if (w) {
				kb_error("%s:%d: [%s] disk = %s is in use: %s.  "
					 "The guest's fio does its I/O on it "
					 "as root, through QEMU: a device that "
					 "is mounted, active swap or held by "
					 "LVM, MD or device-mapper is refused, "
					 "as a local target is; unmount it or "
					 "choose another device", cfg->path ?
					 cfg->path : "kernels.conf", v->line,
					 v->name,
					 v->disk, why);
				ret = -EBUSY;
			}
			free(why);
			continue;
		}
		if (!someones_file(v->disk, &st))
			continue;
		w = job_that_writes(job_paths, njobs, &j, &why);
		if (w < 0)
			ret = w;
		else if (w) {
			kb_error("%s:%d: [%s] disk = %s exists (%lld bytes), "
				 "kbench did not create it (no extended "
				 "attribute %s) and job %s may write to it: "
				 "%s, %s; the guest's fio would overwrite its "
				 "data through QEMU.  If its data is "
				 "expendable, mark it as a target (as root: "
				 "setfattr -n %s -v 1 %s)", cfg->path ?
				 cfg->path : "kernels.conf", v->line, v->name,
				 v->disk,
				 (long long)st.st_size, KB_TARGET_MARK,
				 job_names[j], job_paths[j], why,
				 KB_TARGET_MARK, v->disk);
			ret = -EEXIST;
		}
		free(why);
	}
	return ret;
}

int target_file_overwrite_check(const struct kb_config *cfg,
				const char *const *job_paths,
				const char *const *job_names, size_t njobs)
{
	struct stat st;
	char *why = NULL;
	size_t j;
	int ret = 0, w;

	if (cfg->target_kind != KB_TARGET_FILE || cfg->nhosts ||
	    !someones_file(cfg->target, &st))
		return 0;	/* new, empty or kbench's: nothing to lose */
	w = job_that_writes(job_paths, njobs, &j, &why);
	if (w < 0)
		ret = w;
	else if (w) {
		char *where = target_where(cfg);

		kb_error("%starget = file:%s exists (%lld bytes) and "
			 "kbench did not create it (the files it creates carry "
			 "the extended attribute %s, where the file system "
			 "keeps them), and job %s may write to "
			 "it: %s, %s; fio would overwrite its data.  Give a "
			 "path that does not exist (kbench creates and fills "
			 "the file), or delete this one if its data is "
			 "expendable", where, cfg->target,
			 (long long)st.st_size, KB_TARGET_MARK, job_names[j],
			 job_paths[j], why);
		free(where);
		free(why);
		ret = -EEXIST;
	}
	return ret;
}

unsigned long long target_remote_size_bytes(const struct kb_config *cfg,
					    enum kb_target_kind kind,
					    const char *path)
{
	struct stat st;

	if (kind != KB_TARGET_FILE)
		return 0;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 ?
		(unsigned long long)st.st_size :
		cfg->loop_size_bytes ? cfg->loop_size_bytes : 256ULL << 20;
}

static char *file_key(const struct stat *st)
{
	return kb_xasprintf("file-%lu-%lu", (unsigned long)st->st_dev,
			    (unsigned long)st->st_ino);
}

/* The name of the storage behind target t (st: its stat), the same for
 * every way to reach it (a second break-it trial ran campaigns on
 * /dev/loop0, on a second loop device over its file and on the file
 * itself at once): a loop device's backing file and a file are
 * "file-DEV-INO"; a block device is its disk's "blk-MAJ:MIN" (t's
 * sysfs_dir, blockdev_sysfs(): a partition's whole disk, one queue). */
static char *lock_key(const struct kb_target *t, const struct stat *st)
{
	char *p, *text = NULL, *nl;
	struct stat bst;
	dev_t disk = st->st_rdev;

	if (!S_ISBLK(st->st_mode))
		return file_key(st);
	if (t->sysfs_dir) {
		p = kb_path_join(t->sysfs_dir, "loop/backing_file");
		if (kb_read_file(p, &text, NULL, 1) == 0) {
			if ((nl = strchr(text, '\n')))
				*nl = '\0';
			if (stat(text, &bst) == 0) {
				free(text);
				free(p);
				return file_key(&bst);
			}
		}
		free(text);
		free(p);
		p = kb_path_join(t->sysfs_dir, "dev");
		read_devnum(p, &disk);	/* kept when unreadable */
		free(p);
	}
	return kb_xasprintf("blk-%u:%u", major(disk), minor(disk));
}

void target_lock_sweep(const char *ldir)
{
	DIR *d = opendir(ldir);
	struct dirent *e;
	struct stat st, now;
	int fd;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDWR | O_NOFOLLOW |
			    O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* free: its holder is dead (flock(2) goes with it); the
		 * name still this file (not one a holder made anew) */
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
		    !flock(fd, LOCK_EX | LOCK_NB) &&
		    !fstatat(dirfd(d), e->d_name, &now, AT_SYMLINK_NOFOLLOW) &&
		    now.st_ino == st.st_ino && now.st_dev == st.st_dev)
			unlinkat(dirfd(d), e->d_name, 0);
		close(fd);
	}
	closedir(d);
}

/* Lock the opened target machine-wide (target.h, target_open()); a
 * break-it trial ran two campaigns on one device that way, each
 * measuring the other.  0 (also when the lock cannot be taken: said)
 * or -EBUSY (said). */
static int target_lock(struct kb_target *t, const char *dir)
{
	struct stat st;
	char *ldir, *lp, *key, held[512], *abs;
	ssize_t n;
	int fd, ret = 0, tries = 0, busy = 0;

	if (stat(t->path, &st) < 0) {
		kb_error("cannot stat the target %s: %s", t->path,
			 strerror(errno));
		return -errno;
	}
	key = lock_key(t, &st);
	ldir = kb_path_join(kb_machine_dir(), "targets");
	lp = kb_path_join(ldir, key);
	free(key);
	/* a lock that cannot be taken only loses that refusal: said, and
	 * the campaign goes on (the tunables' record, which a crash needs,
	 * is checked on its own) */
	if (!kb_mkdir_p(ldir))
		target_lock_sweep(ldir);
again:
	fd = kb_mkdir_p(ldir) ? -1 :
		open(lp, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		kb_warn("cannot open the target's lock %s: %s; a second "
			"campaign on %s would not be refused", lp,
			strerror(errno), t->path);
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK) {
			kb_warn("cannot lock %s: %s; a second campaign on %s "
				"would not be refused", lp, strerror(errno),
				t->path);
			close(fd);
			goto out;
		}
		/* a sweep of another kbench (target_lock_sweep()) holds
		 * a free file for an instant: asked again before refused */
		if (++busy < 5) {
			close(fd);
			usleep(20000);
			goto again;
		}
		ret = -EBUSY;
		n = pread(fd, held, sizeof(held) - 1, 0);
		held[n > 0 ? n : 0] = '\0';
		held[strcspn(held, "\n")] = '\0';
		kb_error("%s is the target of another kbench (pid and "
			 "campaign: %s): two campaigns on one device measure "
			 "each other; wait for it to end, or stop it", t->path,
			 held[0] ? held : "?");
		close(fd);
		goto out;
	}
	/* the file a holder removed as it closed (target_close()) after
	 * this open: a lock on it keeps out nobody, the next open makes a
	 * new file (a few tries: a target whose campaigns start and end
	 * this fast is not measured) */
	{
		struct stat held_st, now_st;

		if (fstat(fd, &held_st) || lstat(lp, &now_st) ||
		    held_st.st_ino != now_st.st_ino ||
		    held_st.st_dev != now_st.st_dev) {
			close(fd);
			if (++tries < 8)
				goto again;
			kb_warn("%s: removed each time it was locked; a second "
				"campaign on %s would not be refused", lp,
				t->path);
			goto out;
		}
	}
	abs = realpath(dir, NULL);
	key = kb_xasprintf("%ld %s\n", (long)getpid(), abs ? abs : dir);
	free(abs);
	if (ftruncate(fd, 0) < 0 ||
	    pwrite(fd, key, strlen(key), 0) != (ssize_t)strlen(key))
		kb_warn("cannot write who holds %s: %s", lp, strerror(errno));
	free(key);
	t->lock_fd = fd;
	t->lock_path = lp;
	lp = NULL;
out:
	free(lp);
	free(ldir);
	return ret;
}

/* The address fio's client connects to for a load host, into buf: an
 * IPv6 address as it is (kconf wrote it as inet_ntop() does), else the
 * first IPv4 address of the name (fio's client.c: inet_pton(), else
 * gethostbyname()'s first).  0, or -1 when it does not resolve (fio's
 * probe says so). */
static int host_addr(const char *host, char buf[INET6_ADDRSTRLEN])
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM }, *ai = NULL;
	int ok;

	if (strchr(host, ':')) {
		snprintf(buf, INET6_ADDRSTRLEN, "%s", host);
		return 0;
	}
	if (getaddrinfo(host, NULL, &hints, &ai) || !ai)
		return -1;
	ok = inet_ntop(AF_INET, &((struct sockaddr_in *)ai->ai_addr)->sin_addr,
		       buf, INET6_ADDRSTRLEN) != NULL;
	freeaddrinfo(ai);
	return ok ? 0 : -1;
}

/* one list of hosts (what one run's fio is a client of): -EINVAL (said)
 * when two of it are one server */
static int hosts_distinct(char *const *hosts, const unsigned *ports,
			  size_t n, const char *what)
{
	char (*addr)[INET6_ADDRSTRLEN] = kb_xcalloc(n + 1, sizeof(*addr));
	size_t i, j;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (host_addr(hosts[i], addr[i]))
			addr[i][0] = '\0';
	for (i = 0; i < n && !ret; i++)
		for (j = i + 1; j < n && !ret; j++)
			if (addr[i][0] && ports[i] == ports[j] &&
			    !strcmp(addr[i], addr[j])) {
				kb_error("%s: '%s' and '%s' are one fio server "
					 "(%s, port %u): each run would be "
					 "sent to it twice, its results summed "
					 "as two hosts'; give it once", what,
					 hosts[i], hosts[j], addr[i], ports[i]);
				ret = -EINVAL;
			}
	free(addr);
	return ret;
}

int target_hosts_distinct(const struct kb_config *cfg)
{
	char *what;
	size_t j;
	int ret = hosts_distinct(cfg->hosts, cfg->host_ports, cfg->nhosts,
				 "hosts");

	for (j = 0; !ret && j < cfg->njob_hosts; j++) {
		what = kb_xasprintf("[job %s] hosts (line %d)",
				    cfg->job_hosts[j].job,
				    cfg->job_hosts[j].hosts_line);
		ret = hosts_distinct(cfg->job_hosts[j].hosts,
				     cfg->job_hosts[j].host_ports,
				     cfg->job_hosts[j].nhosts, what);
		free(what);
	}
	return ret;
}

int target_open(const struct kb_config *cfg, const char *dir,
		struct kb_target *t)
{
	char *where;
	int ret;

	memset(t, 0, sizeof(*t));
	t->loop_fd = -1;
	t->lock_fd = -1;
	t->kind = cfg->target_kind;
	if (cfg->nhosts) {
		/* hosts =: fio opens the target on the load hosts, nothing
		 * here (kconf refuses loop: and null_blk) */
		t->path = kb_xstrdup(cfg->target);
		t->size_bytes = target_remote_size_bytes(cfg, t->kind, t->path);
		return 0;
	}
	switch (t->kind) {
	case KB_TARGET_DEVICE:
		where = target_where(cfg);
		t->path = kb_xstrdup(cfg->target);
		ret = open_device(t, where);
		free(where);
		break;
	case KB_TARGET_LOOP:
		ret = open_loop(cfg, dir, t);
		break;
	case KB_TARGET_NULLBLK:
		/* in a vm guest the initramfs loaded it (runner/initramfs.c);
		 * on the host: modprobe null_blk PARAMS */
		t->path = kb_xstrdup(cfg->target);
		ret = nullblk_load(cfg->nullblk_params);
		if (!ret)
			ret = open_device(t, "");
		break;
	default:
		t->path = kb_xstrdup(cfg->target);
		ret = open_file(cfg, t);
		break;
	}
	if (!ret)
		ret = target_lock(t, dir);
	if (ret)
		target_close(t);
	return ret;
}

int target_check(const struct kb_config *cfg)
{
	struct kb_target t;
	struct stat st;
	char *where;
	int ret = 0;

	memset(&t, 0, sizeof(t));
	if (cfg->nhosts)
		return 0;
	t.path = cfg->target;
	if (cfg->target_kind == KB_TARGET_DEVICE) {
		where = target_where(cfg);
		ret = check_device(&t, where, &st);
		free(where);
	} else if (cfg->target_kind == KB_TARGET_FILE) {
		ret = check_file(cfg, &t);
	}
	return ret;
}

void target_close(struct kb_target *t)
{
	if (t->loop_fd >= 0) {
		ioctl(t->loop_fd, LOOP_CLR_FD, 0);
		close(t->loop_fd);
	}
	if (t->backing)
		unlink(t->backing);
	free(t->path);
	free(t->sysfs_dir);
	free(t->stat_name);
	free(t->backing);
	/* removed while still held: a campaign waiting to open it opens
	 * the new file or finds this one gone (target_lock()); the lock
	 * files of loop targets' backing files, new each campaign, do not
	 * pile up in $KBENCH_RUN_DIR/targets */
	if (t->lock_fd >= 0 && t->lock_path)
		unlink(t->lock_path);
	if (t->lock_fd >= 0)
		close(t->lock_fd);
	free(t->lock_path);
	memset(t, 0, sizeof(*t));
	t->loop_fd = -1;
	t->lock_fd = -1;
}

char *target_tunable_path(const struct kb_target *t, const char *path,
			  const char *label)
{
	if (path[0] == '/')
		return kb_xstrdup(path);
	if (!t->sysfs_dir) {
		kb_error("tunable %s = %s is relative to the target's "
			 "/sys/block/<dev>/, but target %s is not a block "
			 "device; use an absolute /sys or /proc path or a "
			 "device target", label, path, t->path);
		return NULL;
	}
	return kb_path_join(t->sysfs_dir, path);
}

/* 1 when path is dir or below it. */
static int below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return dir[0] && !strncmp(path, dir, n) &&
	       (path[n] == '/' || path[n] == '\0');
}

int target_tunable_outside(const struct kb_target *t, const char *resolved,
			   char *why, size_t whylen)
{
	static const char *const links[] = { "device", "bdi" };
	char root[PATH_MAX], *dev;
	DIR *d;
	struct dirent *e;
	size_t i;
	int in = 0, other = 0;

	if (!t->sysfs_dir)
		return 0;
	in = below(resolved, t->sysfs_dir);
	for (i = 0; !in && i < sizeof(links) / sizeof(*links); i++) {
		dev = kb_path_join(t->sysfs_dir, links[i]);
		in = realpath(dev, root) && below(resolved, root);
		free(dev);
	}
	if (!in) {
		snprintf(why, whylen, "resolves to %s, outside the target's "
			 "%s and its device/ and bdi/ (a relative path stays "
			 "with the target; another device's file takes its "
			 "absolute /sys path)", resolved, t->sysfs_dir);
		return 1;
	}
	/* below device/ but in another disk's directory (device/nvme0n2
	 * of the target nvme0n1) */
	d = opendir("/sys/class/block");
	while (d && (e = readdir(d)) && !other) {
		if (e->d_name[0] == '.')
			continue;
		dev = kb_path_join("/sys/class/block", e->d_name);
		if (realpath(dev, root) && !below(root, t->sysfs_dir) &&
		    !below(t->sysfs_dir, root) && below(resolved, root)) {
			snprintf(why, whylen, "resolves to %s, in block device "
				 "%s's directory, not the target's %s",
				 resolved, e->d_name, t->sysfs_dir);
			other = 1;
		}
		free(dev);
	}
	if (d)
		closedir(d);
	return other;
}
