/* runner/kexec.h - method = kexec: the state kept across the reboot and
 * the checks made after it (runner/driver_kexec.c).
 *
 * Before the reboot kbench writes the state file (KBENCH_STATE_DIR, else
 * /var/lib/kbench, file kexec.json): the campaign directory, the variant,
 * a per-boot marker "kbench.campaign=NONCE" added to the new kernel's
 * command line, the image's release and build string, and the target's
 * identity.  After the boot `kbench run -o DIR` (started by the unit that
 * `kbench install-resume DIR` installs) verifies, under a root directory
 * ("/" normally; a prepared tree in the tests):
 *  - root/proc/sys/kernel/osrelease is the intended release and the
 *    marker is a word of root/proc/cmdline: else the kexec fell back to a
 *    firmware reboot into the default kernel (case B32; a new boot id or a
 *    small uptime prove nothing);
 *  - root/proc/version is the intended build: same release, same
 *    "(USER@HOST)" and same "#BUILD ..." version as the image's
 *    kernel_version string (two builds of one tree share `uname -r`);
 *  - the target is the same device: serial and WWN/EUI read from
 *    root/sys/block/DEV/{wwid,device/wwid,device/serial,device/model}
 *    equal those recorded before the first reboot (case B34: probe order
 *    can give /dev/nvme0n1 to another drive).
 * A failed check fails the runs of that boot with the reason (they are
 * not attributed to any variant) and the campaign goes on.
 */
#ifndef KB_KEXEC_H
#define KB_KEXEC_H

#include "results/kexec_state.h"

#include <stddef.h>

struct kb_variant;

/* The state file and its structs (struct kb_kexec_state, struct
 * kb_disk_id, kexec_state_path/load/save/free, kexec_disk_id_free) are
 * results/kexec_state.h's. */

/* Outcomes of kexec_verify(). */
#define KB_KEXEC_OK 0
#define KB_KEXEC_WRONG_KERNEL 1	/* release or marker: B32 */
#define KB_KEXEC_WRONG_BUILD 2	/* same release, another build */
#define KB_KEXEC_WRONG_TARGET 3	/* target identity changed: B34 */

/* Check the booted system under root against s; why[] gets the message.
 * Returns one of the KB_KEXEC_* outcomes, or -errno when root's files
 * cannot be read. */
int kexec_verify(const char *root, const struct kb_kexec_state *s,
		 char *why, size_t len);

/* Identity of block device dev ("nvme0n1") under root.  0, or -ENOENT
 * when root/sys/block/dev does not exist. */
int kexec_disk_id(const char *root, const char *dev, struct kb_disk_id *id);

/* For a run of method = kexec variant v on the running kernel: what
 * made it the variant (results/kexec_state.h, recorded in the run's
 * metrics.json as "kexec" by kexec_run_info_record()): the state file's
 * kexec boot, marker and build, or "booted without kexec" when the
 * image's build runs without a kexec of this campaign.  1 with *ki
 * filled (kexec_run_info_free()), 0 when v is not a kexec variant or not
 * running (*ki empty). */
int kexec_run_info(const struct kb_variant *v, struct kb_kexec_run_info *ki);

/* The new kernel's command line: root's /proc/cmdline without
 * BOOT_IMAGE= and old kbench.campaign= words, plus extra and marker
 * (malloc'd). */
char *kexec_cmdline(const char *current, const char *extra,
		    const char *marker);

#endif
