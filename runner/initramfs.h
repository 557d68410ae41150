/* runner/initramfs.h - the small initramfs kbench boots vm variants with.
 *
 * Contents: busybox (Debian's busybox-static, /bin/busybox), the kernel
 * modules the guest needs (resolved with their dependencies from the
 * kernel's modules.dep, in load order; compressed ones, .ko.xz, .ko.zst
 * and .ko.gz, decompressed on the host by lib/decompress.c, since
 * busybox insmod loads a module as it is), /dev/console, and /init: a
 * busybox sh script that loads the modules, mounts the host's root file
 * system read-only over virtio-9p (tag "hostroot") and the campaign
 * directory read-write at the same absolute path (tag "kbresults"),
 * mounts /proc, /sys, /dev and tmpfs /tmp inside it, chroots there and
 * runs `kbench guest`, then powers the guest off.  `init=PROG` on the
 * kernel command line runs PROG in the chroot instead (a debugging
 * shell: init=/bin/sh; a missing PROG makes the guest panic).
 *
 * Archive format: "new ASCII" cpio (070701), the format the kernel
 * unpacks (Documentation/driver-api/early-userspace/buffer-format.rst),
 * uncompressed, entries padded to 4 bytes, ended by "TRAILER!!!".
 */
#ifndef KB_INITRAMFS_H
#define KB_INITRAMFS_H

#include <stddef.h>
#include <stdio.h>

#define KB_MAX_MODULES 64

/* The modules to load, in order (dependencies first). */
struct kb_modlist {
	char *path[KB_MAX_MODULES];	/* absolute .ko (.ko.xz, ...) path */
	char *name[KB_MAX_MODULES];	/* "9pnet_virtio" */
	size_t n;
};

/* Resolve module names (e.g. "virtio_pci", "9p") against moddir (a
 * lib/modules/<release> directory with modules.dep, as written by
 * depmod(8): "kernel/x/a.ko: kernel/y/b.ko ...", every dependency listed
 * transitively) into load order, dependencies before dependents, each
 * module once.  Entries may be compressed (a.ko.xz, a.ko.zst, a.ko.gz, as
 * depmod lists them); a module's name is its base name up to ".ko".
 * Names found in moddir/modules.builtin are built in and skipped.
 * Module names compare with '-' and '_' equal (kmod's rule).
 * 0; -ENOENT when a wanted module is neither a module nor built in
 * (*missing, malloc'd, names it); -errno on read errors. */
int modules_resolve(const char *moddir, const char *const *want, size_t n,
		    struct kb_modlist *out, char **missing);

void modules_free(struct kb_modlist *m);

/* cpio "newc" writer. */
struct kb_cpio {
	FILE *f;
	unsigned long ino;
	int err;		/* first error, sticky */
};

void cpio_begin(struct kb_cpio *c, FILE *f);
/* mode includes the type bits (S_IFDIR | 0755, S_IFREG | 0644, ...);
 * rdev for device nodes (major, minor). */
void cpio_add(struct kb_cpio *c, const char *name, unsigned mode,
	      const void *data, size_t len, unsigned rmajor, unsigned rminor);
/* Trailer; returns 0 or the first error (-errno). */
int cpio_end(struct kb_cpio *c);

struct kb_initramfs_opts {
	const char *busybox;	/* default /bin/busybox */
	const struct kb_modlist *mods;
	const char *nullblk_params;	/* insmod null_blk with these; NULL =
					 * null_blk not wanted */
	const char *results_dir;	/* absolute host path, mounted rw */
	/* argv of `kbench guest` inside the chroot (absolute kbench path) */
	const char *const *guest_argv;
};

/* Write the init script for opts into a malloc'd string. */
char *initramfs_init_script(const struct kb_initramfs_opts *o);

/* Build the archive at path (written atomically); each module goes in as
 * a plain modules/NN-NAME.ko (kb_decompress_file()).  0 or -errno with a
 * message (busybox-static missing: says to install it; a corrupt
 * compressed module: names the file). */
int initramfs_build(const char *path, const struct kb_initramfs_opts *o);

#endif
