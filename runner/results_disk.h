/* runner/results_disk.h - how a self-contained vm guest hands its results
 * back (runner/driver_vm.c, guest_root = initramfs).
 *
 * A guest kernel without 9p (CONFIG_NET_9P unset) cannot mount the
 * campaign directory.  The host creates a sparse raw file in the boot
 * directory and gives it to QEMU as the last virtio disk, serial
 * "kbresults"; after `kbench guest` the guest's /init (runner/initramfs.c)
 * writes the run directories of the boot, runs/KEY/..., as one "new ASCII"
 * cpio archive (busybox `cpio -o -H newc`) raw onto that disk, syncs and
 * powers off.  The host then reads the archive back from the file and
 * extracts it into the campaign directory.
 *
 * Format: the "newc" cpio of the kernel's initramfs
 * (Documentation/driver-api/early-userspace/buffer-format.rst): a 110-byte
 * header ("070701", 13 fields of 8 hexadecimal digits: ino, mode, uid,
 * gid, nlink, mtime, filesize, devmajor, devminor, rdevmajor, rdevminor,
 * namesize with its NUL, check), the name, padding to 4 bytes, the data,
 * padding to 4 bytes; the member "TRAILER!!!" ends it.
 *
 * The archive comes from a guest and is read as untrusted input: every
 * member is checked before anything is written, and one bad member
 * refuses the whole archive.  A member must be a regular file or a
 * directory, its name relative ("./" prefixes are dropped), without "",
 * "." or ".." components, and be runs/KEY or under runs/KEY/ for a KEY of
 * this boot; its header, name and data must lie within the file (a
 * truncated archive, or sizes past its end, are refused) and the archive
 * must end with its trailer.
 */
#ifndef KB_RESULTS_DISK_H
#define KB_RESULTS_DISK_H

#include <stddef.h>

#define KB_RESULTS_SERIAL "kbresults"

/* Create path as a sparse file of bytes bytes (a raw disk image).
 * 0 or -errno with a message. */
int results_disk_create(const char *path, unsigned long long bytes);

/* Extract the archive at the start of image into dir (the campaign
 * directory), accepting members under runs/KEY for the nkeys run keys
 * only.  Files are written with kb_write_atomic().  *nfiles gets the
 * regular files written.
 * 0; -ENODATA when the disk holds no archive (its first header is all
 * zero bytes: the guest wrote none); -EINVAL when the archive is refused
 * (nothing written); -errno on read or write errors.  On every error *why
 * (malloc'd) says what, naming the member. */
int results_extract(const char *image, const char *dir,
		    const char *const *keys, size_t nkeys, size_t *nfiles,
		    char **why);

#endif
