/* results/kexec_state.h - the kexec state file and what a run records
 * of its kexec boot: the typed structs of method = kexec
 * (runner/kexec.h says how they are used) and their JSON.
 *
 * The state file, KBENCH_STATE_DIR/kexec.json (default /var/lib/kbench),
 * kept across the reboot:
 *   {"campaign": DIR, "variant": V, "marker": "kbench.campaign=NONCE",
 *    "release": R, "build": B, "target_dev": "nvme0n1",
 *    "target": {"serial", "wwn", "model"}, "boot": N}
 * every member but "campaign" and "boot" null when not known.
 *
 * A run's metrics.json "kexec" (docs/results-format.md):
 *   {"boot": N, "marker": M, "build": B}   booted by kexec boot N
 *   {"boot": 0, "booted": "without kexec (the image's build is running)"}
 */
#ifndef KB_RESULTS_KEXEC_STATE_H
#define KB_RESULTS_KEXEC_STATE_H

#include <stddef.h>

struct json_t;	/* jansson's: a run's metrics.json record */

struct kb_disk_id {
	char *serial;		/* NULL when the device has none */
	char *wwn;		/* wwid / EUI, NULL when none */
	char *model;
};

struct kb_kexec_state {
	char *campaign;		/* the campaign directory */
	char *variant;
	char *marker;		/* "kbench.campaign=NONCE" */
	char *release;		/* intended `uname -r` */
	char *build;		/* the image's version string, or NULL */
	char *target_dev;	/* "nvme0n1", or NULL (file/loop target) */
	struct kb_disk_id target;	/* identity before the first kexec */
	unsigned boot;		/* boots so far in this campaign */
};

void kexec_disk_id_free(struct kb_disk_id *id);

/* The state file path (malloc'd). */
char *kexec_state_path(void);
/* 0, -ENOENT when there is no state, -EINVAL when it is malformed (no
 * "campaign" string; message naming the file). */
int kexec_state_load(const char *path, struct kb_kexec_state *s);
/* Write s to path atomically (its directory created).  0 or -errno. */
int kexec_state_save(const char *path, const struct kb_kexec_state *s);
void kexec_state_free(struct kb_kexec_state *s);

/* What made a run's kernel its kexec variant (the "kexec" member above). */
struct kb_kexec_run_info {
	int by_kexec;		/* 1: booted by the state file's kexec */
	unsigned boot;		/* by_kexec: the state's boot (else 0) */
	char *marker, *build;	/* by_kexec: the state's (NULL: null) */
	const char *booted;	/* else: how it booted (static string) */
};

/* Set run's "kexec" to ki's record. */
void kexec_run_info_record(struct json_t *run,
			   const struct kb_kexec_run_info *ki);
void kexec_run_info_free(struct kb_kexec_run_info *ki);

#endif
