/* results/records.h - small JSON records kbench keeps beside a campaign
 * and on the machine (the files of the campaign-directory contract that
 * are not the results model; results/paths.h has the layout).
 *
 *   DIR/campaign.json environment.vm.kvm_probe   {"usable", "reason"}
 *   $KBENCH_RUN_DIR/kvm-probe.json               {"boot_id", "usable",
 *       (default /run/kbench)                     "reason"}
 *   DIR/boots/NNN-VARIANT/timing.json            {"accel", "wall_s",
 *                                                 "runs", "guest_started_s"}
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

/* Write boot_dir/timing.json; guest_started_s < 0: the guest never
 * started.  0 or -errno. */
int records_boot_timing_save(const char *boot_dir, const char *accel,
			     double wall_s, size_t runs,
			     double guest_started_s);

/* Mean over the boots in DIR/boots/ of what each boot cost beyond its runs:
 * wall_s - runs x per_run_s, clamped at 0.  *n gets the number of boots
 * measured; returns 0 when none. */
double records_boot_overhead_mean(const char *dir, double per_run_s,
				  size_t *n);

/* `TOOL --version` answers cached for the machine in
 * $KBENCH_RUN_DIR/tool-versions.json ({KEY: VERSION}), KEY naming the
 * binary as it is now ("PATH:INODE:MTIME_NS"), so a changed binary is
 * asked again.  get: 1 found (*version malloc'd), 0 not; put: best
 * effort, silent. */
int records_tool_version_get(const char *key, char **version);
void records_tool_version_put(const char *key, const char *version);

#endif
