/* results/records.h - small JSON records kbench keeps beside a campaign
 * and on the machine (the files of the campaign-directory contract that
 * are not the results model; results/paths.h has the layout).
 *
 *   DIR/campaign.json environment.vm.kvm_probe   {"usable", "reason"}
 *   $KBENCH_RUN_DIR/kvm-probe.json               {"boot_id", "usable",
 *       (default /run/kbench)                     "reason"}
 *   DIR/boots/NNN-VARIANT/timing.json            {"accel", "wall_s",
 *                                                 "runs", "guest_started_s",
 *                                                 "first_run_s"}
 *   DIR/campaign.json environment.vm             {"accel", "accel_reason",
 *                                                 "timing_note",
 *                                                 "qemu_version",
 *                                                 "variants": {V: {...}}}
 *       (docs/results-format.md, "environment.vm")
 *   DIR/push-queue.json                          {"schema_version",
 *                                                 "pending": [{"url",
 *                                                 "format", "queued",
 *                                                 "last_attempt",
 *                                                 "attempts"}]}
 *       (push/push.h: pushes that failed, sent again later)
 *
 * runner/accel.h says what the KVM probe is; runner/plan.h how boot
 * timings make the ETA.
 */
#ifndef KB_RESULTS_RECORDS_H
#define KB_RESULTS_RECORDS_H

#include <stddef.h>

/* The KVM probe's answer recorded in DIR/campaign.json: 1 found (*usable,
 * *reason malloc'd), 0 none or no campaign.json. */
int records_kvm_probe_campaign(const char *dir, int *usable, char **reason);

/* Record it there.  0, or -errno (campaign.json unreadable/unwritable). */
int records_kvm_probe_campaign_save(const char *dir, int usable,
				    const char *reason);

/* The machine's answer for this boot of the machine (boot id of
 * /proc/sys/kernel/random/boot_id): 1 found, 0 none or another boot. */
int records_kvm_probe_machine(int *usable, char **reason);

/* Record it for the machine (best effort: a warning when it cannot). */
void records_kvm_probe_machine_save(int usable, const char *reason);

/* Write boot_dir/timing.json: seconds from QEMU's start to the guest's
 * "started" line (guest_started_s) and to its first run's line, just
 * before that run's fio starts (first_run_s); < 0: never seen (null).
 * 0 or -errno. */
int records_boot_timing_save(const char *boot_dir, const char *accel,
			     double wall_s, size_t runs,
			     double guest_started_s, double first_run_s);

/* Mean over the boots in DIR/boots/ of what each boot cost beyond its runs:
 * wall_s - runs x per_run_s, clamped at 0.  *n gets the number of boots
 * measured; returns 0 when none. */
double records_boot_overhead_mean(const char *dir, double per_run_s,
				  size_t *n);

/* `TOOL --version` answers cached for the machine in
 * $KBENCH_RUN_DIR/tool-versions.json ({KEY: VERSION}), KEY naming the
 * binary as it is now (runner/tool_version.h: "PATH:INO:SIZE:MTIME"),
 * so a changed binary is asked again.  get: 1 found (*version
 * malloc'd), 0 not; put: best effort, silent, written without fsync (a
 * cache on /run: lost, it is asked again). */
int records_tool_version_get(const char *key, char **version);
void records_tool_version_put(const char *key, const char *version);

/* What one boot of a vm variant used, for campaign.json
 * environment.vm.variants.NAME.  Strings NULL = not known (left out). */
struct records_vm_variant {
	const char *name;		/* the variant */
	int kvm;			/* 1 KVM, 0 TCG */
	const char *accel_requested;	/* auto, kvm or tcg */
	const char *accel_reason;	/* why this accelerator */
	unsigned cpus, memory_mib;
	const char *kernel;		/* as kernels.conf gave it */
	const char *package, *package_version;	/* deb: variants */
	const char *release;		/* NULL: "unknown" */
	const char *build, *cmdline, *disk, *image;
	const char *image_sha256;	/* of image */
	const char *nullblk_params;	/* null_blk target in the guest */
};

/* Record v in DIR/campaign.json environment.vm: the variant's entry
 * (replacing an earlier boot's, but keeping the guest_release and
 * guest_proc_version an earlier boot reported), the campaign's "accel"
 * (set by the first boot; one TCG boot makes it "tcg" with its reason),
 * "timing_note" (timing_note, when the campaign's accel is tcg) and
 * "qemu_version" (when not NULL).  0, or -errno (campaign.json
 * unreadable or unwritable). */
int records_vm_variant_save(const char *dir, const struct records_vm_variant *v,
			    const char *qemu_version, const char *timing_note);

/* Set environment.vm.variants.VARIANT.key = value (a string) in
 * DIR/campaign.json; the variant must be recorded already.  0, or
 * -ENOENT (not recorded) / -errno. */
int records_vm_variant_set(const char *dir, const char *variant,
			   const char *key, const char *value);

/* The same with an array of the n strings v[] (a command's argv). */
int records_vm_variant_set_argv(const char *dir, const char *variant,
				const char *key, const char *const *v,
				size_t n);

/* The concrete package a deb: variant was first booted with in this
 * campaign (its pin): environment.vm.variants.VARIANT.package when that
 * entry's kernel is kernel; malloc'd, or NULL. */
char *records_vm_pinned_package(const char *dir, const char *variant,
				const char *kernel);

/* A run's metrics.json as the guest wrote it: the kernel it ran
 * ("guest_kernel", uname -r) and /proc/version ("guest_proc_version"),
 * malloc'd.  1 when guest_kernel is there (*proc_version may be NULL),
 * 0 when not (nothing allocated). */
int records_run_guest_kernel(const char *metrics_json, char **release,
			     char **proc_version);

/* One entry of DIR/push-queue.json. */
struct records_push_entry {
	char *url;		/* NULL: the entry has no usable "url" */
	char *format;		/* "influx", "json"; NULL when not given */
	unsigned attempts;	/* pushes tried so far */
};

/* The queue of DIR, in file order: *entries malloc'd (n of them; free
 * with records_push_queue_free), none when there is no queue file.  0, or
 * -EINVAL when the file is damaged (message naming it: never silently
 * emptied). */
int records_push_queue_load(const char *dir,
			    struct records_push_entry **entries, size_t *n);
void records_push_queue_free(struct records_push_entry *entries, size_t n);

/* Add url (format: its format's name) to the queue, or count one more
 * attempt of it (attempts + 1, last_attempt now, UTC).  0 or -errno. */
int records_push_queue_add(const char *dir, const char *url,
			   const char *format);

/* Remove url's entry; the file goes when it is empty.  0 (also when
 * url was not queued) or -errno. */
int records_push_queue_remove(const char *dir, const char *url);

/* The start time of every completed run of the campaign in dir (the
 * runs of state.json; only_key: that run alone, O(1) files, for the push
 * after each run), as an object {"CONFIG/JOB/NNN": integer ns since the
 * epoch}: run.json's start_unix_ns, else state.json's "finished" minus
 * run.json's elapsed_s.  Runs without a usable time are left out with a
 * warning naming the run.  New reference, or NULL with a message when
 * state.json cannot be read. */
#include <jansson.h>
json_t *results_run_start_times(const char *dir, const char *only_key);

#endif
