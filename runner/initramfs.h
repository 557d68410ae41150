/* runner/initramfs.h - the small initramfs kbench boots vm variants with.
 *
 * Contents: busybox (Debian's busybox-static, /bin/busybox), this
 * kbench's static twin (/usr/bin/kbench: runner/guest_binary.h), or
 * this kbench binary with its shared libraries at their host paths and
 * /etc/ld.so.cache, the kernel modules the guest needs
 * (resolved with their dependencies from the kernel's modules.dep, in
 * load order; compressed ones, .ko.xz, .ko.zst and .ko.gz, decompressed
 * on the host by lib/decompress.c, since finit_module(2) is given the
 * file as it is), /dev/console, and /init: kbench itself when it is the
 * static twin (kb_initramfs_opts.kbench_init), else a busybox sh script;
 * either runs `kbench guest` from the initramfs, which loads the modules,
 * mounts the
 * host's root file system read-only over virtio-9p (tag "hostroot") and
 * the campaign directory read-write at the same absolute path (tag
 * "kbresults") with /proc, /sys, /dev and tmpfs /tmp and /run inside it,
 * chroots there and does its runs (runner/guest_setup.h: one process
 * instead of a busybox process per step, about 10 ms each under TCG);
 * then the script powers the guest off.  `init=PROG` on the kernel
 * command line runs PROG in the chroot instead, after the same setup (a
 * debugging shell: init=/bin/sh; a missing PROG makes the guest panic
 * under the script, and is an error line naming it under kbench).
 * For a kernel without 9p the initramfs is self-contained instead
 * (struct kb_guest_payload below).
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

/* A list of malloc'd paths. */
struct kb_pathlist {
	char **v;
	size_t n;
};

/* Append a copy of path unless it is there already. */
void pathlist_add(struct kb_pathlist *l, const char *path);
void pathlist_free(struct kb_pathlist *l);

/* The shared objects in the output of ldd(1) (glibc's: "NAME => PATH
 * (ADDR)" lines, the loader as "PATH (ADDR)", linux-vdso without a path)
 * added to libs.  0; -ENOENT when a library is "not found" (*missing,
 * malloc'd, names it). */
int ldd_parse(const char *text, struct kb_pathlist *libs, char **missing);

/* Every shared object the executables bins[0..n) load, the dynamic
 * loader included, as the host's loader resolves them: `ldd BIN` (run
 * from an argv, never a shell string: ldd asks the loader itself, so
 * /etc/ld.so.cache, RUNPATH and $ORIGIN count as they do for the real
 * run).  A static executable adds nothing.  0 or -errno with a message
 * naming the executable (a missing library, ldd not installed). */
int initramfs_libs(const char *const *bins, size_t n,
		   struct kb_pathlist *libs);

/* What a self-contained guest (a kernel without 9p) carries.  Its /init
 * mounts no host file system: it loads the modules, mounts a tmpfs at the
 * campaign directory's path and copies the campaign's files there (what
 * `kbench guest` reads), runs kbench from the initramfs, then writes the
 * run directories of the boot (runs/KEY, the keys listed in runs_file) as
 * a newc cpio archive straight onto the virtio disk whose serial is
 * KB_RESULTS_SERIAL ("kbresults", runner/results_disk.h), syncs and powers
 * off. */
struct kb_guest_payload {
	const char *fio;	/* host path; in the guest /usr/bin/fio (its
				 * libraries in kb_initramfs_opts.libs) */
	/* paths relative to the results_dir (campaign.json, kernels.conf,
	 * profiles/JOB.fio, boots/NNN-V/runs.txt), copied into the guest's
	 * tmpfs at results_dir */
	const struct kb_pathlist *files;
	const char *runs_file;	/* absolute: the run keys of this boot */
};

/* The 9p guest with kbench as /init (kb_initramfs_opts.kbench_init):
 * `kbench guest`'s arguments, NUL-terminated strings one after another
 * ("guest", then its options), for the run and for the init=PROG setup
 * (builtin/guest_init.c reads them). */
#define KB_INIT_GUEST_ARGV "/kbench/guest.argv"
#define KB_INIT_SETUP_ARGV "/kbench/setup.argv"

struct kb_initramfs_opts {
	const char *busybox;	/* default /bin/busybox */
	const char *kbench;	/* host path (required); in the guest
				 * /usr/bin/kbench: guest_argv[0] */
	/* kbench's libraries and the loader (initramfs_libs()), fio's too
	 * for a self-contained guest, at the same paths as on the host,
	 * every symbolic link on the way kept as a link; /etc/ld.so.cache
	 * goes in too when the host has one and libs is not empty (none
	 * for the static guest binary, runner/guest_binary.h, in a 9p
	 * guest) */
	const struct kb_pathlist *libs;
	const struct kb_modlist *mods;
	const char *nullblk_params;	/* insmod null_blk with these; NULL =
					 * null_blk not wanted */
	const char *results_dir;	/* absolute host path, mounted rw */
	/* argv of `kbench guest`: "/usr/bin/kbench", "guest", then its
	 * options (the 9p guest's setup options go after "guest") */
	const char *const *guest_argv;
	/* NULL: the 9p guest; else a self-contained one (results_dir is
	 * then a tmpfs in the guest) */
	const struct kb_guest_payload *payload;
	/* 1, for the 9p guest with a static kbench (runner/guest_binary.h):
	 * /init is a symbolic link to /usr/bin/kbench (kb_guest_init_main()
	 * in builtin/builtin.h), its arguments in KB_INIT_GUEST_ARGV and
	 * KB_INIT_SETUP_ARGV, no busybox and no shell: under TCG the
	 * script's busybox, its mount process and kbench's exec cost
	 * 0.1-0.15 s of the start.  0: the busybox script (a dynamic
	 * kbench: the twin is missing or of another build, or a sanitizer
	 * build, whose runtime needs /proc before main()). */
	int kbench_init;
	/* 1: each module goes in without its appended signature
	 * (module_sig_len(); kernel_module_sig_strip() in
	 * runner/kernel_img.h says when the kernel allows it) */
	int strip_module_sig;
};

/* The length of the signature appended to the module ko (len bytes), as
 * scripts/sign-file.c appends it: the PKCS#7 signature, then struct
 * module_signature (include/linux/module_signature.h: 12 bytes, id_type
 * at 2 = PKEY_ID_PKCS7 (2), signer_len at 3, key_id_len at 4, sig_len a
 * big-endian u32 at 8), then MODULE_SIG_STRING "~Module signature
 * appended~\n"; what to cut from the end for the module unsigned.
 * 0 when ko has no such trailer, or a malformed one (a length past the
 * start of the file, another id_type, a signer or key id length, which
 * the kernel refuses in a PKCS#7 trailer): the module goes in as it is.
 * initramfs_build() cuts trailers until none is left (a module signed
 * twice). */
size_t module_sig_len(const char *ko, size_t len);

/* Write the init script for opts into a malloc'd string. */
char *initramfs_init_script(const struct kb_initramfs_opts *o);

/* Build the archive at path (written to a temporary name and renamed:
 * no half-built archive is ever at path); each module goes in as a plain
 * modules/NN-NAME.ko (kb_decompress_file()), kbench, the libraries and
 * the payload's files as above (read one at a time: the archive is
 * written as it goes, never held in memory).  0 or -errno with a message
 * (busybox-static missing: says to install it; no kbench; a corrupt
 * compressed module or an unreadable file: names the file). */
int initramfs_build(const char *path, const struct kb_initramfs_opts *o);

#endif
