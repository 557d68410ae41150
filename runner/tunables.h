/* runner/tunables.h - write sysfs/procfs tunables and put them back.
 *
 * Before the first write of a campaign the original value of every
 * tunable is read and saved atomically to DIR/tunables.saved.json
 * ({"PATH": "value", ...}).  tunables_restore() writes them back (from
 * memory) and deletes the file.  A campaign that died (crash, power cut,
 * kill -9) leaves the file behind, and the next `kbench run` on DIR
 * restores it first, so every tunable kbench changed is put back.
 *
 * kbench runs as root, so every tunable file goes through one rule before
 * it is read or written (tunable_resolve(), tunable_open()):
 *  - the path is resolved first (realpath(3): /sys/block/X is itself a
 *    symlink) and must lie under /sys/ or /proc/sys/
 *    (/proc/self/root/tmp/x resolves to /tmp/x: refused);
 *  - the resolved path is opened without following any link, magic
 *    /proc links included (openat2(2) RESOLVE_NO_SYMLINKS |
 *    RESOLVE_NO_MAGICLINKS; before Linux 5.6 one component at a time
 *    with O_NOFOLLOW);
 *  - the opened file must be a regular file on sysfs, or on procfs under
 *    /proc/sys (fstatfs(2)); debugfs/tracefs and cgroupfs are refused
 *    for now, and say so;
 *  - a value is written with one write(2), never truncating, and read
 *    back.
 * A campaign directory is not trusted for root writes: after a crash
 * the values written back are the machine-wide record's
 * ($KBENCH_RUN_DIR/tunables: tunables.c, written before the first change
 * of a tunable, which is not changed when it cannot be), never those of
 * a leftover tunables.saved.json (tunables_restore_file() below); a
 * record naming another path than its file name says is ignored.
 *
 * Values are compared after trimming whitespace; for selector files such
 * as queue/scheduler ("mq-deadline [none]") the bracketed entry is the
 * value.
 */
#ifndef KB_TUNABLES_H
#define KB_TUNABLES_H

#include "parsers/kconf.h"
#include "runner/target.h"

struct kb_tunables {
	char *saved_path;	/* DIR/tunables.saved.json */
	char *paths[KB_MAX_TUNABLES];	/* resolved absolute paths */
	char *labels[KB_MAX_TUNABLES];
	char *orig[KB_MAX_TUNABLES];	/* the originals, once saved */
	char *partner_orig[KB_MAX_TUNABLES];	/* with an original of 0 of
						 * a coupled sysctl: its
						 * partner's (tunables.c) */
	size_t n;
	int saved;		/* originals saved and not yet restored */
};

/* Restore every tunable the machine's records say a kbench no longer
 * running left changed (whatever its campaign or device, each said in a
 * warning; one that cannot be written back is said and its record
 * kept).  Called before the target is opened: a loop: target takes the
 * first free loop device, maybe the one a kbench killed with -9 left
 * changed, and its attach gives the device a new diskseq (see
 * tunables.c loop_detached()).  0, or -EPERM when the records' directory
 * is not trusted (said). */
int tunables_restore_orphans(void);

/* Resolve every tunable of cfg against the target; restore a leftover
 * saved file first.  0 or -errno (message printed). */
int tunables_init(struct kb_tunables *tu, const struct kb_config *cfg,
		  const struct kb_target *t, const char *dir);

/* Write value to tunable i and read it back.  Saves originals first (once).
 * 0, or -errno / -EIO with a message naming the path, the value written
 * and the value read back. */
int tunables_set(struct kb_tunables *tu, size_t i, const char *value);

/* Write the values of configuration k (runner/plan.h) to every tunable
 * (sweeps are skipped: they go to fio).  0 or the first error. */
struct kb_configuration;
int tunables_apply(struct kb_tunables *tu, const struct kb_config *cfg,
		   const struct kb_configuration *k);

/* Write every value of every tunable of cfg once and read it back, then
 * restore the originals, so a value the kernel rejects (nomerges = 7)
 * stops the campaign before its first run, with the conf file's line.
 * 0, or the first error (each printed as "FILE:LINE: ..."). */
int tunables_probe(struct kb_tunables *tu, const struct kb_config *cfg);

/* Restore originals (if saved) and remove the saved file.  0 or -errno.
 * Async-signal-unsafe: call from normal context. */
int tunables_restore(struct kb_tunables *tu);

/* Read a tunable (a resolved path: tunable_resolve()) under the rule
 * above, normalised as above, into a malloc'd string.  NULL (message
 * printed unless quiet) on error or refusal. */
char *tunable_read(const char *path, int quiet);

/* Resolve path (realpath) and check that it lies under /sys/ or
 * /proc/sys/.  The resolved path (malloc'd), or NULL with errno set
 * (ENOENT: it does not exist; EPERM: refused) and why[] saying so, to be
 * printed after the path ("does not exist", "resolves to /tmp/x, outside
 * /sys and /proc/sys: refused ..."). */
char *tunable_resolve(const char *path, char *why, size_t whylen);

/* kbench plan's look at cfg's tunables with an absolute path (those of
 * the target, queue/..., need its device, which plan does not make):
 * each resolved as tunables_init() does, nothing read or written; 0, or
 * -ENOENT / -EPERM with the message run would print (plan accepted
 * /proc/self/root/tmp/x that run refused). */
int tunables_check_absolute(const struct kb_config *cfg);

/* Open a resolved path (flags: O_RDONLY or O_WRONLY) under the rule
 * above.  The fd, or -errno (-EPERM: refused; -ELOOP: a link on the way)
 * with why[] saying what, to be printed after the path. */
int tunable_open(const char *resolved, int flags, char *why, size_t whylen);

/* Tests: 1 makes tunable_open() take the way it takes without
 * openat2(2) (one component at a time with O_NOFOLLOW). */
extern int kb_tunable_no_openat2;

/* Restore what a campaign that died left changed (by `kbench run` before
 * anything else, and by tunables_init), path its leftover
 * DIR/tunables.saved.json: the values written are the machine's records
 * ($KBENCH_RUN_DIR/tunables, root's, emptied at boot with sysfs), never
 * the campaign directory's, which is not trusted for root writes: every
 * record of campaign DIR, and those of the files the saved list names
 * (another dead campaign's).  An entry of the list without a record is
 * named in a warning when its value differs, and not written; a record
 * of a kbench still running is left to it.  A damaged list is no
 * obstacle (the records suffice; it is kept as PATH.bad).  The list is
 * removed when nothing is left to do.  cfg is not used (the records
 * name the files).  0 or -EIO. */
int tunables_restore_file(const char *path, const struct kb_config *cfg);

/* A tunable that changed during a run (something else wrote it while
 * fio ran): the n values applied before fio (applied[i]; NULL = not a
 * file, a sweep: skipped) against the values read back after it
 * (after[i]; NULL = could not be read), compared as tunables_set() does.
 * 0 when every one reads back as applied; else 1 with reason[] saying,
 * for each that differs (joined by "; "), "tunable LABEL (PATH) changed
 * during the run: wrote V, read W after fio" (or "... could not be read
 * after fio").  Pure: no file is touched (runner/run_exec.c reads). */
int tunables_changed(size_t n, char *const *labels, char *const *paths,
		     const char *const *applied, const char *const *after,
		     char *reason, size_t reasonlen);
void tunables_free(struct kb_tunables *tu);

#endif
