/* lib/file.h - whole-file reads and crash-safe writes.
 *
 * All writes that kbench makes to a campaign directory go through
 * kb_write_atomic(): write to "<path>.tmp.<pid>", fsync, rename over
 * <path>, fsync the directory.  A crash or power cut leaves either the
 * old file or the new one, never a half-written one (rename(2) is atomic
 * within a file system, POSIX.1-2008).
 *
 * Durability rule (issue 16; docs/design-decisions.md "Durability"): a
 * run's artefacts are on disk before state.json records the run done.
 * The local run loop keeps it with one sync per run instead of two
 * fsyncs per file: kb_sync_defer_begin() before the run, its files
 * (collector snapshots, fio's output, job.fio, run.json, metrics.json)
 * written atomically without fsync, kb_sync_defer_end(run dir) =
 * syncfs(2) of the run directory's file system (the files and the
 * renames, metadata included), then state.json by kb_write_atomic()
 * with its fsyncs.  A crash before state.json leaves the run unrecorded
 * (resume redoes it); after, every file it names is on disk.  The vm
 * driver does the same for the ten or so campaign.json updates before a
 * boot: one syncfs before QEMU starts (runner/driver_vm.c).  The vm
 * guest (builtin/guest.c) syncs nothing: its runs' files reach the
 * host's file system through 9p without a cache (runner/guest_setup.c:
 * each write is a write(2) of QEMU's on the host), and the host's
 * syncfs after the boot (driver_vm.c, "record:") comes before
 * state.json records them; a guest fsync was a round trip through QEMU
 * and a host fsync each, a dozen a run.  Files
 * derivable from runs/ (results.json, report.txt, report.md, plots/)
 * are written with KB_WRITE_NOSYNC: atomic by rename, never half
 * written, but possibly the older version after a power cut, which the
 * next `kbench run` or `kbench report` rebuilds.  The temporary file is created
 * with O_EXCL | O_NOFOLLOW: kbench runs as root and never writes through
 * a file or symlink someone else put at that name.  A kill -9 can leave
 * the temporary file behind; kb_remove_stale_tmp() removes such files
 * when the next kbench starts.
 */
#ifndef KB_FILE_H
#define KB_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>

/* Read a whole file into a NUL-terminated malloc'd buffer.  *len (may be
 * NULL) gets the byte count without the NUL.  Returns 0, or -errno with a
 * message naming the file printed unless quiet is non-zero. */
int kb_read_file(const char *path, char **buf, size_t *len, int quiet);

/* len bytes at offset off of fd into buf (pread(2) until they are all
 * there, EINTR retried): the count read, less than len only when the file
 * ended first; -errno on an error.  Prints nothing. */
ssize_t kb_pread_full(int fd, void *buf, size_t len, uint64_t off);

/* Atomically replace path with len bytes of buf (see above).  0 or -errno. */
int kb_write_atomic(const char *path, const void *buf, size_t len);

/* kb_write_atomic() with flags: KB_WRITE_NOSYNC renames without any
 * fsync (a derivable file, see the rule above).  0 or -errno. */
#define KB_WRITE_NOSYNC 1u
int kb_write_atomic_opt(const char *path, const void *buf, size_t len,
			unsigned flags);

/* Defer the syncs of kb_write_atomic() and kb_fsync_path() until
 * kb_sync_defer_end(path), which syncs the whole file system that path
 * (a file or directory) lies on with one syncfs(2) and ends the
 * deferral.  Not nested: one run at a time.  kb_sync_defer_end() with
 * no deferral open does nothing and returns 0; else 0 or -errno with a
 * message naming path. */
void kb_sync_defer_begin(void);
int kb_sync_defer_end(const char *path);

/* End a deferral without a sync: for a writer whose files another
 * process syncs before anything relies on them (the vm guest, see
 * above). */
void kb_sync_defer_drop(void);

/* Create a new file at tmp (a temporary name) for writing, mode 0644:
 * O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC; a file or symlink already
 * there is unlinked (never followed) and the creation tried again.  The
 * fd, or -1 with errno set (no message). */
int kb_open_new(const char *tmp);

/* Remove the "NAME.tmp.PID" files (regular files or symlinks, never
 * followed) in dir and, for depth > 1, its subdirectories down to depth
 * levels, whose PID is neither this process nor a running kbench: the
 * leftovers of a kbench that was killed between writing and renaming.
 * Says each on the info line; returns how many were removed. */
size_t kb_remove_stale_tmp(const char *dir, int depth);

/* The machine-wide directory of kbench's records: $KBENCH_RUN_DIR, else
 * /run/kbench (emptied at boot). */
const char *kb_machine_dir(void);

/* Whether kbench may keep its machine-wide records in kb_machine_dir()
 * (root's: the tunables to restore after a crash, the targets' locks):
 * the directory, or where it does not exist yet the nearest directory
 * above it that does, passes kb_path_trusted() (kb_dir_trusted_above()
 * for the one it would be made in).  Checked before a campaign makes
 * anything, so a refused KBENCH_RUN_DIR leaves nothing behind; it must
 * be an absolute path, and a directory where it exists.  0, or -EPERM /
 * -EINVAL / -ENOTDIR / -errno with a message naming KBENCH_RUN_DIR and
 * the path. */
int kb_machine_dir_check(void);

/* 1 when the file at path holds the text needle (read whole, quietly:
 * a missing file holds nothing). */
int kb_file_contains(const char *path, const char *needle);

/* fsync(2) the file at path (written by a child such as fio) so it is
 * on disk before a record says it is there; nothing while a deferral
 * is open (kb_sync_defer_end() syncs it).  0 or -errno (no message:
 * a missing file is the parser's to report). */
int kb_fsync_path(const char *path);

/* mkdir -p with mode 0755.  0 or -errno (message printed). */
int kb_mkdir_p(const char *path);

/* 1 when path, or the nearest existing directory above it, is on a file
 * system in memory (tmpfs, ramfs: statfs(2) f_type), which a kexec or a
 * reboot empties; 0 otherwise or when it cannot tell. */
int kb_path_in_memory(const char *path);

/* 0 when base/rel, and every directory of rel on the way, is a
 * directory itself, not a symbolic link (lstat(2)); -ENOENT when one is
 * missing (those before it are directories); -ELOOP when one is a link
 * or not a directory; -errno else.  No message.  For paths below a
 * directory someone else writes: a downloaded tarball's tree, the
 * campaign directory a 9p guest wrote (a link it left there would take
 * root's next write elsewhere). */
int kb_real_dirs(const char *base, const char *rel);

/* 1 if path exists (any type), else 0. */
int kb_exists(const char *path);

/* 1 if path is a directory (or a link to one), else 0. */
int kb_is_dir(const char *path);

/* The running binary's absolute path, links resolved (/proc/self/exe),
 * malloc'd; NULL where /proc is not mounted. */
char *kb_self_exe(void);

/* Join a and b with one '/', into a malloc'd string (never NULL: aborts on
 * out-of-memory, as every kb_x* allocator does). */
char *kb_path_join(const char *a, const char *b);

/* Allocation wrappers that abort with a message on out-of-memory. */
void *kb_xmalloc(size_t n);
void *kb_xcalloc(size_t n, size_t size);
void *kb_xrealloc(void *p, size_t n);
char *kb_xstrdup(const char *s);
char *kb_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* open_memstream(buf, len) (a string built by appending, in linear
 * time); aborts with a message on out-of-memory. */
FILE *kb_xmemstream(char **buf, size_t *len);

/* Whether a command frees what it holds until exit (a results model of
 * 100k runs: about a tenth of `kbench report`'s time goes to freeing it
 * just before the process ends and the kernel takes the memory back
 * whole).  1 in builds with AddressSanitizer (`make SANITIZE=1`, which
 * `make check` uses: LeakSanitizer then checks that every allocation has
 * its owner), 0 in release builds.  The one rule for every "free before
 * exit" (issue 16): `if (KB_FREE_AT_EXIT) json_decref(model);`. */
#if defined(__SANITIZE_ADDRESS__)
#define KB_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KB_FREE_AT_EXIT 1
#endif
#endif
#ifndef KB_FREE_AT_EXIT
#define KB_FREE_AT_EXIT 0
#endif

/* Whether only root and the trusted users can change what path holds:
 * the effective user, and when kbench runs as root, the user sudo(8)
 * ran it for (SUDO_UID) and the one `kbench install-resume` recorded in
 * its unit (KBENCH_TRUST_UID).  Every component of the path as given
 * (made absolute: a symbolic link on it is judged by its owner, who can
 * re-point it) and of the path resolved (realpath(3)) must be owned by
 * one of them and not writable by others: not by all, and by its group
 * only when that group is root's or a trusted user's private group
 * (named after the user, its primary group, no other member, nobody
 * else's primary group, in /etc/group and /etc/passwd) and no
 * access ACL names others; a directory writable by all is fine above the
 * path when its sticky bit is set (/tmp: nobody else can rename or
 * remove what is not theirs).  Close to OpenSSH's StrictModes
 * (sshd_config(5)), which refuses group-writable outright.  0; -EPERM
 * with *why (malloc'd) naming the first path that fails and why
 * ("/srv/c: owned by uid 1001 (trusted: root)", "/srv/c/kernels.conf:
 * writable by all (mode 0666)"); -errno when a path cannot be resolved or
 * looked at (*why says so too). */
int kb_path_trusted(const char *path, char **why);

/* NULL when uid is one kb_path_trusted() trusts (root, the effective
 * user, SUDO_UID and KBENCH_TRUST_UID when kbench runs as root), else
 * why not, naming path: "PATH: owned by uid 1001 (trusted: root,
 * SUDO_UID)", malloc'd. */
char *kb_owner_untrusted(const char *path, uid_t uid);

/* The uid in environment variable name (SUDO_UID, KBENCH_TRUST_UID): a
 * whole decimal number >= 0, or -1 (unset, not a number, or kbench not
 * running as root, whose environment alone is root's to set). */
long kb_env_uid(const char *name);

/* kb_path_trusted() of a directory something is to be made in: dir is
 * judged as a directory above that path, so a sticky one writable by all
 * (/tmp) is fine (nobody else can rename or remove what is made there). */
int kb_dir_trusted_above(const char *dir, char **why);

/* Every entry below directory dir (not dir itself: kb_path_trusted()
 * judges it), walked without following links (nftw FTW_PHYS): none may
 * be a symbolic link (kbench makes none there; one could send root's
 * writes elsewhere) and each must pass kb_path_trusted()'s rule for a
 * path itself (owner, group and ACL; no sticky exception).  For a
 * campaign's runs/, whose job files fio reads as root.  0; -EPERM with
 * *why (malloc'd) naming the first entry that fails; -errno when the
 * walk fails (*why says so); 0 when dir does not exist. */
int kb_tree_trusted(const char *dir, char **why);

/* 1 when paths a and b name the same file or directory (same device
 * and inode: "A" and "./A", a symlink and its target), else 0 (either
 * missing included). */
int kb_same_file(const char *a, const char *b);

#endif
