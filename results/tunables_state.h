/* results/tunables_state.h - the two files kbench keeps of the sysfs
 * tunables it changes, so that every change is undone (runner/tunables.h
 * says when each is written and read).
 *
 * A campaign's DIR/tunables.saved.json, the original value of each
 * tunable it writes, by resolved sysfs path:
 *   {"/sys/block/nvme0n1/queue/nomerges": "0", ...}
 *
 * The machine-wide registry, one file per tunable under
 * $KBENCH_RUN_DIR/tunables (runner/tunables.c names them):
 *   {"path": TUNABLE, "original": VALUE, "campaign": DIR, "pid": PID}
 *
 * Both are written with parsers/json_file.h kb_json_write_atomic (keys
 * sorted, two-space indent).
 */
#ifndef KB_RESULTS_TUNABLES_STATE_H
#define KB_RESULTS_TUNABLES_STATE_H

#include <stddef.h>

/* tunables.saved.json: n pairs, in the file's order. */
struct kb_tunables_saved {
	size_t n;
	char **paths;		/* resolved sysfs path */
	char **values;		/* its original value */
};

/* Append (path, value) (both copied). */
void tunables_saved_add(struct kb_tunables_saved *s, const char *path,
			const char *value);
/* Read path into *s (zeroed first); a member whose value is not a
 * string is left out.  0, or -EINVAL with parsers/json_file.h
 * kb_json_load's FILE:LINE:COL message (a missing file too). */
int tunables_saved_load(const char *path, struct kb_tunables_saved *s);
/* Write s to path atomically.  0 or -errno. */
int tunables_saved_save(const char *path, const struct kb_tunables_saved *s);
void tunables_saved_free(struct kb_tunables_saved *s);

/* One registry file.  Any member may be NULL (0 for pid) in a file read
 * back: a record of another version, or one not written by kbench. */
struct kb_tunable_record {
	char *path;		/* the tunable */
	char *original;		/* its value before any kbench changed it */
	char *partner_original;	/* a coupled sysctl's (runner/tunables.c
				 * coupled_partner()) whose original is 0:
				 * its partner's value then, written back
				 * instead (NULL: none) */
	char *diskseq;		/* a block device's tunable: the device's
				 * /sys/block/DEV/diskseq then (a device
				 * attached again under the name, a loop
				 * device, has another); NULL: none */
	char *campaign;		/* the campaign directory that changed it */
	long pid;		/* that kbench's pid */
	unsigned long long pid_start;	/* and its start time (lib/proc.h
					 * kb_pid_start_ticks(); 0: not
					 * recorded): a pid used again by
					 * another process is not it */
};

/* Read path into *r (zeroed first), quietly: 0, -ENOENT when there is
 * no such file, -EINVAL when it is not JSON (the caller then treats the
 * tunable as unrecorded, as it does a missing file). */
int tunable_record_load(const char *path, struct kb_tunable_record *r);
/* Write r (path, original and campaign not NULL) to path atomically.
 * 0 or -errno. */
int tunable_record_save(const char *path, const struct kb_tunable_record *r);
void tunable_record_free(struct kb_tunable_record *r);

#endif
