/* runner/guest_setup.h - what a vm guest's initramfs /init asks `kbench
 * guest` to do before its runs, in kbench's own process: load the
 * kernel modules, mount the host's root over virtio-9p with the usual
 * file systems in it and the campaign directory at its host path, and
 * enter that root.
 *
 * Why in kbench and not in the busybox script (runner/initramfs.c): under
 * TCG every process the script starts costs about 10 ms (fork and exec of
 * a 2 MB static busybox, measured 2026-12-02), and the script started
 * about 25 of them (an insmod per module, a mount per file system, env,
 * chroot); kbench itself is in the initramfs, so its first exec does not
 * go over 9p either (0.2-0.3 s there, 0.07 s from the initramfs).
 *
 * The guest's environment is the kernel's and the script's; these
 * functions are for that guest only: they mount, load modules and chroot
 * where they are told, and kbench guest runs them only with the options
 * the host's init script passes (builtin/guest.c). */
#ifndef KB_GUEST_SETUP_H
#define KB_GUEST_SETUP_H

/* The 9p tags QEMU's -virtfs options name (runner/driver_vm.c). */
#define KB_9P_HOSTROOT "hostroot"
#define KB_9P_RESULTS "kbresults"

/* Load one module: spec is insmod(8)'s "FILE [NAME=VALUE ...]" (the file
 * a plain, uncompressed .ko: the host decompressed it), through
 * finit_module(2) with the words after FILE as its parameters.  A module
 * that is already loaded (EEXIST) counts as loaded.  0, or -errno with a
 * message naming the file and the kernel's reason. */
int kb_guest_load_module(const char *spec);

/* Mount, in this order: the host's root (9p tag hostroot, version
 * 9p2000.L, msize 256 KiB, read-only, cache=loose: the shared libraries
 * of fio and kbench are looked up and read once, not a 9p round trip per
 * lookup) at root; proc, sysfs, devtmpfs at root/proc, root/sys,
 * root/dev; tmpfs at root/tmp and root/run; devpts at root/dev/pts; the
 * campaign directory (9p tag kbresults, read-write, uncached: the host
 * reads what the guest writes) at root + results_dir (absolute, created
 * when missing: it may be under /tmp or /run).  0, or -errno with a
 * message naming the mount point. */
int kb_guest_mount_9p(const char *root, const char *results_dir);

/* The usual sbin and bin directories: the guest's PATH when the host
 * passed none. */
#define KB_GUEST_STD_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* The most bytes of the host's entries in the guest's PATH: the whole
 * variable must stay under execve(2)'s 128 KiB for one string
 * (MAX_ARG_STRLEN), or every exec in the guest fails with E2BIG (a host
 * PATH of 128 KiB made fio "Argument list too long" there). */
#define KB_GUEST_PATH_MAX 16384

/* The 9p guest's PATH from the host's $PATH (host_path, may be NULL): its
 * absolute directories in their order, then those of KB_GUEST_STD_PATH
 * it lacks; empty, relative and repeated entries are dropped (the
 * guest's working directory is not the host's), and so are /tmp, /run
 * and the directories under them, as written or resolved on this host
 * (kb_guest_tmpfs_path(): the guest mounts a tmpfs on each, the host's
 * files there are not in the guest); the host's entries stop
 * before KB_GUEST_PATH_MAX bytes.  driver_vm looks fio up in it
 * (kb_path_which) and refuses a variant whose guest would run another
 * fio than the host's.  The guest chroots into
 * the host's root, so it finds the fio (and perf) the host found: a fio
 * built from git in /opt/fio/bin or ~/bin, first in the user's $PATH,
 * was "not installed" in the guest before 2026-12-04 (the guest's PATH
 * was KB_GUEST_STD_PATH alone) while the host's campaign.json recorded
 * its version.  Malloc'd, never NULL. */
char *kb_guest_path(const char *host_path);

/* 1 when path is /tmp or /run or under one, as written or resolved
 * (realpath(3), where it resolves on this host: a symlink, "//tmp", a
 * "..", /var/run): the 9p guest's own tmpfs hides what the host has
 * there; else 0. */
int kb_guest_tmpfs_path(const char *path);

/* chroot(2) into root and chdir("/"); the environment becomes PATH
 * (path, or KB_GUEST_STD_PATH when NULL), HOME=/root and TERM=dumb only,
 * as the runs on the host get a clean one.  0, or -errno with a
 * message. */
int kb_guest_enter_root(const char *root, const char *path);

#endif
