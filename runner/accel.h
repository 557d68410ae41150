/* runner/accel.h - which QEMU accelerator a vm variant boots with.
 *
 * A /dev/kvm that opens is not a KVM that works: under a nested
 * hypervisor the KVM API answers (KVM_GET_API_VERSION, KVM_CREATE_VM) yet
 * every guest hangs in its first instructions of protected mode (seen on
 * this project's 2-vCPU build machines: the kernel's "Probing EDD" line,
 * then nothing).  So for accel = auto kbench *probes*: one short QEMU boot
 * of the variant's own kernel with KVM, no initramfs, console on a file,
 * `earlyprintk=serial`; KVM works when the kernel's "Linux version" banner
 * (printed by start_kernel(), after the decompressor and the switch to
 * long mode, so firmware and real-mode setup output do not count) appears
 * within kvm_probe_timeout seconds (default 20; a working KVM prints it
 * in well under a second, TCG in about 5 s on these machines).  It also
 * ends at once when QEMU reports a "KVM internal error" (runner/qemu.h
 * KB_QEMU_KVM_ERROR): on a 16-CPU Firecracker guest (2026-12-04) a
 * real-mode guest ran through the KVM API, yet the kernel's decompressor
 * stopped at "emulation failure" and QEMU sat paused, so the probe waited
 * out its 20 s and said "firmware output only"; now it stops at QEMU's
 * line and quotes it.
 *
 * The answer is remembered
 *   - for the campaign: campaign.json environment.vm.kvm_probe
 *     {"usable", "reason"}, so every boot of a campaign, a resumed one
 *     included, uses the same accelerator;
 *   - for the machine: $KBENCH_RUN_DIR/kvm-probe.json (default
 *     /run/kbench) with the boot id (/proc/sys/kernel/random/boot_id),
 *     so the next campaign on the same boot of the host skips the probe.
 *
 * The request comes from KBENCH_ACCEL in the environment (wins: CI sets
 * it), else the variant's `accel =`, else [global]'s, else auto:
 *   tcg   TCG, no probe;
 *   kvm   KVM when /dev/kvm opens and the probe (or a remembered answer)
 *         says it works, else the variant's runs fail at once with why;
 *   auto  KVM as for kvm, else TCG with one line saying why ("KVM unusable
 *         here: no kernel output within 20 s; using TCG").
 */
#ifndef KB_ACCEL_H
#define KB_ACCEL_H

#include "parsers/kconf.h"

struct kb_campaign;

struct kb_accel_choice {
	int kvm;		/* 1: -machine accel=kvm -cpu host */
	int fail;		/* 1: do not boot; fail the runs with reason */
	enum kb_accel requested;
	const char *source;	/* "KBENCH_ACCEL", "kernels.conf" or "default" */
	char *reason;		/* why this accelerator (malloc'd) */
};

/* KBENCH_ACCEL, when set, is auto, kvm or tcg: 0, else -EINVAL with a
 * message.  kbench run and plan check it before anything, whatever the
 * variants' methods (a value run ignored for a local campaign and plan
 * refused: a helper's trial). */
int accel_env_check(void);

/* The request for variant v: KBENCH_ACCEL (checked: -EINVAL with a
 * message when it is not auto, kvm or tcg), v->accel, [global], auto. */
int accel_requested(const struct kb_variant *v, enum kb_accel *out,
		    const char **source);

/* Decide for one boot of v, whose kernel image is image (the probe boots
 * it).  May run the probe (up to cfg.kvm_probe_timeout_s seconds) and
 * write the campaign's and the machine's record.  With dry_run nothing is
 * probed or written: a remembered answer is used, else KVM is assumed
 * for auto/kvm and the reason says the probe would run.  0 or -errno
 * (a bad KBENCH_ACCEL). */
int accel_choose(struct kb_campaign *c, const struct kb_variant *v,
		 const char *image, int dry_run, struct kb_accel_choice *out);

void accel_choice_free(struct kb_accel_choice *ch);

/* The probe itself: boot image under QEMU with KVM for at most timeout_s
 * seconds.  1 when the banner appeared, 0 when not (*why, malloc'd, says
 * what happened: no output, QEMU's exit status and its stderr), -errno
 * when QEMU could not be started. */
int accel_kvm_probe(const char *image, unsigned timeout_s, char **why);

/* 0 when /dev/kvm opens read-write and answers KVM_GET_API_VERSION with
 * 12 (Documentation/virt/kvm/api.rst), else -errno with *why. */
int accel_kvm_device(char **why);

#endif
