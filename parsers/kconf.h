/* parsers/kconf.h - kernels.conf, the campaign description.
 *
 * Format: INI in the dialect of fio job files (fio HOWTO, "Job file
 * format"): "[section]" headers, "key=value" or "key = value" lines,
 * ';' or '#' starting a comment line, blank lines ignored, ${VAR}
 * expanded from the environment.  [global] holds the campaign's
 * settings; every other section is one variant (kernel under test).
 *
 *   [global]
 *   jobs = randread-4k seqwrite-1m-direct   ; names of profiles/NAME.fio
 *   iterations = 3          ; counted runs per (configuration, job)
 *   warmup = 1              ; runs discarded before the counted ones
 *   runtime = 5             ; seconds, overrides the job file (KBENCH_RUNTIME)
 *   order = interleave      ; interleave | block | random
 *   seed = 42               ; for order = random
 *   target = loop:256M      ; block device path, loop:SIZE, or file:PATH
 *   tunable NM = queue/nomerges: 0 1 2
 *   baseline = stock,NM=0   ; configuration id; default: the first
 *   timeout_grace = 30      ; seconds added to runtime before fio is killed
 *   profiles = profiles     ; directory holding the job files
 *
 *   [stock]
 *   method = local          ; local (vm and kexec come later)
 *   release = 6.1.0-13-amd64 ; `uname -r` the variant must be running
 *
 * Errors name "FILE:LINE: " and the offending key/value.
 */
#ifndef KB_KCONF_H
#define KB_KCONF_H

#include <stddef.h>

#define KB_MAX_TUNABLES 8
#define KB_MAX_VALUES 32
#define KB_MAX_VARIANTS 64
#define KB_MAX_JOBS 32

enum kb_order { KB_ORDER_INTERLEAVE = 0, KB_ORDER_BLOCK, KB_ORDER_RANDOM };

enum kb_target_kind {
	KB_TARGET_DEVICE = 0,	/* a block device path, e.g. /dev/nvme0n1 */
	KB_TARGET_LOOP,		/* loop:SIZE - loop device on a sparse file */
	KB_TARGET_FILE,		/* file:PATH - a regular file, no tunables */
};

struct kb_tunable {
	char *label;		/* "NM" */
	char *path;		/* "queue/nomerges" (relative to
				 * /sys/block/<dev>/) or an absolute /sys or
				 * /proc path */
	char *values[KB_MAX_VALUES];	/* "0", "1", "2" */
	size_t nvalues;
	int line;		/* line of the definition, for messages */
};

struct kb_variant {
	char *name;		/* section name */
	char *method;		/* "local" */
	char *release;		/* expected `uname -r`; NULL = any */
	int line;
};

struct kb_config {
	char *path;		/* the file it was read from */
	char *jobs[KB_MAX_JOBS];	/* profile names, without ".fio" */
	size_t njobs;
	unsigned iterations;	/* default 3 */
	unsigned warmup;	/* default 1 */
	unsigned runtime_s;	/* default 60 */
	unsigned timeout_grace_s;	/* default 30 */
	enum kb_order order;	/* default interleave */
	unsigned long seed;	/* default 1 */
	enum kb_target_kind target_kind;
	char *target;		/* device path, or file path for FILE */
	unsigned long long loop_size_bytes;	/* for KB_TARGET_LOOP */
	char *baseline;		/* configuration id or NULL (= first) */
	char *profiles_dir;	/* default: "profiles" next to the conf file,
				 * else PREFIX/share/kbench/profiles */
	struct kb_tunable tunables[KB_MAX_TUNABLES];
	size_t ntunables;
	struct kb_variant variants[KB_MAX_VARIANTS];
	size_t nvariants;
};

/* Parse the file at path into *cfg (zeroed first).  Returns 0, or
 * -EINVAL with every error printed as "kbench: error: FILE:LINE: what"
 * (all errors in the file are reported, not only the first), or -errno
 * when the file cannot be read. */
int kconf_load(const char *path, struct kb_config *cfg);

/* Same from a NUL-terminated buffer; name is used in messages. */
int kconf_parse(const char *name, const char *text, struct kb_config *cfg);

/* Parse "256M", "1G", "4096", "64k" (binary multiples, as fio's size=)
 * into bytes.  0 or -EINVAL. */
int kconf_parse_size(const char *s, unsigned long long *bytes);

void kconf_free(struct kb_config *cfg);

#endif
