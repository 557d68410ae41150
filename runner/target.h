/* runner/target.h - the device fio runs against.
 *
 * DEVICE: an existing block device.  LOOP: a sparse file in the campaign
 * directory attached to a free loop device (loop(4): LOOP_CTL_GET_FREE,
 * LOOP_SET_FD, LOOP_SET_STATUS64 with LO_FLAGS_AUTOCLEAR, so the kernel
 * detaches it when kbench exits, even after a crash; LO_FLAGS_DIRECT_IO
 * when the backing file system allows it, so reads reach the file rather
 * than the loop's page cache).  FILE: a regular file (no sysfs tunables,
 * no diskstats).
 */
#ifndef KB_TARGET_H
#define KB_TARGET_H

#include "parsers/kconf.h"

#include <sys/types.h>

struct kb_target {
	enum kb_target_kind kind;
	char *path;		/* what fio opens: /dev/loop3, /dev/sdb, a file */
	char *sysfs_dir;	/* /sys/block/<disk> (queue/ lives here); NULL
				 * for FILE */
	char *stat_name;	/* name in /proc/diskstats; NULL for FILE */
	unsigned long long size_bytes;
	char *backing;		/* LOOP: the sparse file */
	int loop_fd;		/* LOOP: held open while the campaign runs */
	int direct_io;		/* LOOP: LO_FLAGS_DIRECT_IO accepted */
	int lock_fd;		/* the machine-wide lock of the target
				 * (target_open()), or -1 */
	char *lock_path;	/* its file, removed by target_close() */
};

/* Set the target up for a campaign in dir.  0 or -errno (message says
 * what needs root, or which path is not a block device).  A block device
 * (or null_blk) target that is in use (target_in_use()) is refused with
 * -EBUSY and a message naming the mount, swap or holder.  The target is
 * locked machine-wide (flock(2) on $KBENCH_RUN_DIR/targets/KEY, KEY the
 * device's MAJ:MIN, a partition's disk's, or the device and inode of a
 * file or of a loop device's backing file, holding "PID DIR"):
 * a second campaign on it, which would measure the first and be
 * measured by it, is refused with -EBUSY naming the kbench and campaign
 * that hold it.  The lock goes with the process (kill -9 included); one
 * that cannot be taken (KBENCH_RUN_DIR unwritable) is said and skipped. */
int target_open(const struct kb_config *cfg, const char *dir,
		struct kb_target *t);

/* hosts = (kernels.conf, [global]'s and each [job NAME]'s): -EINVAL
 * (said, naming both and the address) when two of one list are one fio
 * server, the same port at the same address (localhost and 127.0.0.1:
 * kconf sees two hosts, fio would run each job twice on one server and
 * the results be summed as two hosts'); 0 otherwise.  A name is
 * resolved as fio's client does (its first IPv4 address); one that
 * does not resolve is left to fio's probe.  A campaign's start and
 * resume call it (runner/campaign.h), before the probes. */
int target_hosts_distinct(const struct kb_config *cfg);

/* Remove the lock files in ldir ($KBENCH_RUN_DIR/targets) that no
 * process holds: those a killed kbench left (target_close() removes a
 * campaign's own as it ends).  Harmless while there, as the lock went
 * with the process, but a loop: target's key (its backing file's device
 * and inode) is new each campaign, so they piled up until the next boot
 * emptied /run.  A held one, a link and anything not a regular file are
 * left; a holder that opened a file before it is removed here locks a
 * removed file, which target_open() sees and opens anew.  target_open()
 * calls it before it locks; errors are ignored (the next one tries). */
void target_lock_sweep(const char *ldir);

/* Write data over the holes of the file fd (path: for messages) up to
 * size_bytes, then fdatasync it: a loop: target's backing file and a new
 * file: target, so that reads do I/O (a read of a hole does none: what a
 * read job measures on a sparse file is the file system's hole lookup,
 * and a campaign's first write job changes what every later read
 * measures).  Pseudo-random bytes (no file system keeps them as a hole,
 * dedups or compresses them).  A file without holes below size_bytes
 * (SEEK_HOLE, lseek(2)) is left alone; otherwise the writing starts at
 * the 1 MiB chunk of the first hole (a file: target's fill cut short
 * goes on from there; a loop target's file goes with the device,
 * target_close()).  0 or -errno (said; ENOSPC names the full file system);
 * -EINTR, not said, when kbench run's signal handler has run
 * (kb_spawn_forward_signal, lib/proc.h), checked before each chunk. */
int target_fill(int fd, unsigned long long size_bytes, const char *path);

/* What target_open() checks that changes nothing, for `kbench plan`: a
 * block device exists, is one and is not in use; a file:PATH is a
 * regular file or a new one in an existing directory.  loop:, null_blk
 * and hosts = targets: 0 (made when the campaign runs).  Needs no root.
 * 0 or -errno (the message names kernels.conf's line and what target =
 * expects). */
int target_check(const struct kb_config *cfg);

/* The extended attribute kbench sets on a file: target it creates
 * (trusted.*: only root can set it, so no user can make a file of
 * theirs look like kbench's). */
#define KB_TARGET_MARK "trusted.kbench.target"

/* A file: target that exists, holds data and was not created by kbench
 * (no KB_TARGET_MARK) may not be written: refused when a job may change
 * or delete it (parsers/fio_jobfile.h: rw= other than read/randread,
 * unlink=, a file ioengine, include, a value fio takes from the
 * environment).  job_paths[j] is the job file of job job_names[j].
 * Reads of a user's file are allowed.  0, or -EEXIST (the message names
 * kernels.conf's line, the job, its line and what to do) or -EIO (a job
 * file unreadable, said). */
int target_file_overwrite_check(const struct kb_config *cfg,
				const char *const *job_paths,
				const char *const *job_names, size_t njobs);

/* The disk = of each vm variant, which the guest's fio does its I/O on
 * as root through QEMU, checked as a local target is: a block device in
 * use (target_in_use()) is refused with -EBUSY; a regular file that holds
 * data without KB_TARGET_MARK, with a job that may write (as
 * target_file_overwrite_check()), with -EEXIST (the message says how to
 * mark an expendable one).  Messages name kernels.conf's variant and
 * line.  0, those, or -EIO (a job file unreadable, said). */
int target_vm_disk_check(const struct kb_config *cfg,
			 const char *const *job_paths,
			 const char *const *job_names, size_t njobs);

/* 1 when the block device rdev, whose sysfs directory is sysnode
 * (/sys/dev/block/MAJ:MIN resolved), is in use: it or one of its
 * partitions (the subdirectories of sysnode with a "partition" file) is
 * mounted (mountinfo, the format of /proc/self/mountinfo: by MAJ:MIN, or
 * by the mount source's device), active swap (swaps, the format of
 * /proc/swaps) or held by another device (holders/: LVM, MD,
 * device-mapper).  *why (malloc'd) then says which and where, e.g.
 * "its partition loop5p1 is mounted on /mnt/x (ext4)".  0 when not. */
int target_in_use(dev_t rdev, const char *sysnode, const char *mountinfo,
		  const char *swaps, char **why);

/* Detach a loop device and delete its backing file; free everything. */
void target_close(struct kb_target *t);

/* hosts =: KBENCH_SIZE of a target that fio opens on the load hosts:
 * a file's size when this machine sees the same file (shared storage),
 * else cfg->loop_size_bytes (a size given with target =) or 256 MiB
 * (fio creates the file), and 0 for a device
 * (fio: the whole device). */
unsigned long long target_remote_size_bytes(const struct kb_config *cfg,
					    enum kb_target_kind kind,
					    const char *path);

/* Resolve a tunable path: relative paths are below t->sysfs_dir.  Returns
 * a malloc'd path, or NULL with a message when relative and the target has
 * no sysfs directory. */
char *target_tunable_path(const struct kb_target *t, const char *path,
			  const char *label);

/* 1 (why filled) when a relative tunable's resolved path is not the
 * target's: outside t->sysfs_dir and the directories its device/ and
 * bdi/ links lead to, or in another block device's directory (sysfs
 * links such as subsystem/vda/..., holders/dm-0/... or device/nvme0n2/...
 * reach other devices' files); 0 when it is, or the target has no sysfs
 * directory.  kbench(1): "a relative PATH is below the target's
 * /sys/block/<dev>/". */
int target_tunable_outside(const struct kb_target *t, const char *resolved,
			   char *why, size_t whylen);

#endif
