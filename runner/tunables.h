/* runner/tunables.h - write sysfs/procfs tunables and put them back.
 *
 * Before the first write of a campaign the original value of every
 * tunable is read and saved atomically to DIR/tunables.saved.json
 * ({"PATH": "value", ...}).  tunables_restore() writes them back and
 * deletes the file.  A campaign that died (crash, power cut, kill -9)
 * leaves the file behind, and the next `kbench run` on DIR restores it
 * first, so every tunable kbench changed is put back.
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
	size_t n;
	int saved;		/* originals saved and not yet restored */
};

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

/* Read a sysfs value, normalised as above, into a malloc'd string.
 * NULL (message printed unless quiet) on error. */
char *tunable_read(const char *path, int quiet);

/* Restore from a saved file at path (used by tunables_init).  0 or -errno */
int tunables_restore_file(const char *path);

void tunables_free(struct kb_tunables *tu);

#endif
