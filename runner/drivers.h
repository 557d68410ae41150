/* runner/drivers.h - how the machine gets onto a variant (ops table, as
 * fio's ioengine_ops).  `local`: the variant must be the running kernel
 * (runner/driver_local.c).  `vm`: each batch of runs boots the variant's
 * kernel under QEMU and runs `kbench guest` inside (runner/driver_vm.c).
 * `kexec`: loads the kernel, persists the campaign and kexecs; the
 * campaign resumes after the boot (runner/driver_kexec.c).
 */
#ifndef KB_DRIVERS_H
#define KB_DRIVERS_H

#include "parsers/kconf.h"

#include <stddef.h>

struct kb_campaign;

/* Capabilities of a driver (kb_driver.flags). */
#define KB_DRIVER_BOOTS	0x1	/* its batches are boots of the variant's
				 * kernel (the plan's ETA counts them) */
#define KB_DRIVER_ACCEL	0x2	/* it boots under QEMU with kernels.conf's
				 * accel = (KVM or TCG: the plan's boot
				 * estimate, runner/accel.h) */

struct kb_driver {
	const char *name;	/* kernels.conf `method` */
	unsigned flags;		/* KB_DRIVER_* */
	/* 1 when runs of v can be done now; else 0 and why[] says why */
	int (*ready)(const struct kb_variant *v, char *why, size_t len);
	/* Optional.  Runs of v are not executed by this process but on a
	 * boot of v's kernel: run plan indexes runs[0..n) (one variant, plan
	 * order) there and record every one in the campaign state, "ok" or
	 * "failed" with a reason (a boot that fails fails its runs, the
	 * campaign goes on).  *nfailed gets the failed count.  0, or -errno
	 * when the campaign cannot go on (message printed).  Not called for
	 * a variant whose kernel is the running one (driver_batch()). */
	int (*run_batch)(struct kb_campaign *c, const size_t *runs, size_t n,
			 size_t *nfailed);
	/* Optional.  1 when v's kernel is the one running now, so its runs
	 * go through this process instead of run_batch (kexec: after the
	 * boot that made it the variant, checked as runner/kexec.h says). */
	int (*is_running)(const struct kb_variant *v);
};

/* Set by `kbench run --dry-run`: run_batch prints the commands it would
 * run and records nothing. */
extern int kb_driver_dry_run;

/* Under --dry-run: the variants whose runs a real run would fail (each
 * printed "# NAME: its runs would fail: REASON"); kbench run --dry-run
 * then exits 4, as the campaign would complete with failed runs. */
extern int kb_driver_dry_failures;

/* The driver of variant v when its runs go to run_batch (vm; kexec when v
 * is not the running kernel), NULL when they run in this process. */
const struct kb_driver *driver_batch(const struct kb_config *cfg, size_t v);

/* From plan index i (a run not yet done, of a variant with a batch
 * driver), hand the batch of runs of one boot to the driver: run i and
 * every later not-done run up to the first not-done run of another
 * variant (with order = interleave that is one round of the variant, so
 * the boots go A B A B ...).  *last gets the plan index of the last run
 * looked at, *ndone the runs recorded, *nfailed those that failed.
 * 0 or -errno (the campaign cannot go on). */
int driver_run_next_batch(struct kb_campaign *c, size_t i, int retry_failed,
			  size_t *last, size_t *ndone, size_t *nfailed);

extern const struct kb_driver kb_drivers[];	/* NULL-name terminated */

/* The ops of method = vm (runner/driver_vm.c) and kexec
 * (runner/driver_kexec.c), listed in kb_drivers. */
int vm_ready(const struct kb_variant *v, char *why, size_t len);
int vm_run_batch(struct kb_campaign *c, const size_t *runs, size_t n,
		 size_t *nfailed);
/* The next boot's directory of a vm variant (runner/driver_vm.c). */
char *vm_new_boot_dir(const char *dir, const char *variant);
int kexec_ready(const struct kb_variant *v, char *why, size_t len);
int kexec_run_batch(struct kb_campaign *c, const size_t *runs, size_t n,
		    size_t *nfailed);

/* Inside a vm guest (`kbench guest`): the name of the variant this boot
 * is, else NULL. */
extern const char *kb_guest_variant;

const struct kb_driver *driver_find(const char *method);

/* The driver of variant v (its method, "local" when not given), or NULL
 * when no driver has that name. */
const struct kb_driver *driver_of(const struct kb_variant *v);

/* 1 when variant index v of cfg can run now. */
int driver_variant_ready(const struct kb_config *cfg, size_t v);

/* Print, for each variant that cannot run now, why (stderr). */
void driver_explain_skipped(const struct kb_config *cfg);

#endif
