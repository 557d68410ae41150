#include "runner/target.h"
#include "runner/nullblk.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

static int open_device(struct kb_target *t)
{
	struct stat st;
	int fd;

	if (stat(t->path, &st) < 0) {
		int err = -errno;

		kb_error("target %s: %s", t->path, strerror(-err));
		return err;
	}
	if (!S_ISBLK(st.st_mode)) {
		kb_error("target %s is not a block device (use file:%s for a "
			 "regular file)", t->path, t->path);
		return -ENOTBLK;
	}
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

static int open_file(const struct kb_config *cfg, struct kb_target *t)
{
	struct stat st;
	int fd;

	if (stat(t->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		t->size_bytes = (unsigned long long)st.st_size;
		return 0;
	}
	/* create it, sparse, so every job file (some give each job a share
	 * of the file by percentage) finds it at its full size */
	t->size_bytes = cfg->loop_size_bytes ? cfg->loop_size_bytes :
		256ULL << 20;
	fd = open(t->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)t->size_bytes) < 0) {
		int err = -errno;

		kb_error("cannot create target file %s: %s", t->path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	close(fd);
	return 0;
}

int target_open(const struct kb_config *cfg, const char *dir,
		struct kb_target *t)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->loop_fd = -1;
	t->kind = cfg->target_kind;
	switch (t->kind) {
	case KB_TARGET_DEVICE:
		t->path = kb_xstrdup(cfg->target);
		ret = open_device(t);
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
			ret = open_device(t);
		break;
	default:
		t->path = kb_xstrdup(cfg->target);
		ret = open_file(cfg, t);
		break;
	}
	if (ret)
		target_close(t);
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
	memset(t, 0, sizeof(*t));
	t->loop_fd = -1;
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
