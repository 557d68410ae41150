/* runner/kernel_img.h - find a variant's kernel image and modules.
 *
 * kernel = PATH: a bzImage/vmlinuz; its release and build string are read
 * from the image's setup header (Documentation/arch/x86/boot.rst, field
 * kernel_version at 0x20E: offset - 0x200 of a NUL-terminated string
 * "RELEASE (USER@HOST) #BUILD ...", the same UTS_RELEASE and UTS_VERSION
 * that /proc/version prints).  modules = DIR, else
 * /lib/modules/<release> when it exists.  A truncated image (a partial
 * download or copy) is refused before boot: the same header gives the
 * image's size, setup_sects at 0x1F1 (512-byte sectors after the boot
 * sector; 0 means 4) and syssize at 0x1F4 (the protected-mode kernel in
 * 16-byte units; 32 bits from boot protocol 2.04, version at 0x206,
 * 16 bits before), and the file must hold at least
 * (setup_sects + 1) * 512 + syssize * 16 bytes (more is fine: a signed
 * image carries its signature after them).
 *
 * kernel = deb:PACKAGE: a Debian kernel package.  A metapackage
 * (linux-image-amd64) is resolved to the package it depends on with
 * `apt-cache depends` (once per campaign: kernel_resolve_pinned()); the .deb is fetched once with `apt-get download`
 * into CACHE/debs and unpacked with `dpkg -x` into CACHE/unpacked/NAME,
 * and `depmod -b` writes its modules.dep.  CACHE is $KBENCH_CACHE, else
 * /var/cache/kbench as root, else ~/.cache/kbench.
 */
#ifndef KB_KERNEL_IMG_H
#define KB_KERNEL_IMG_H

#include "parsers/kconf.h"

#include <stddef.h>
#include <stdint.h>

struct kb_kernel {
	char *image;		/* the bzImage path */
	char *moddir;		/* .../lib/modules/<release>, or NULL */
	char *release;		/* "6.1.0-57-amd64" */
	char *build;		/* the image's version string, or NULL */
	char *package;		/* deb: the concrete package, else NULL */
	char *package_version;	/* deb: its version ("6.1.192-3"), or NULL */
};

/* The version string of a bzImage into buf ("6.1.0-57-amd64
 * (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian
 * 6.1.192-3 (2025-...)").  0, -ENOEXEC when path is not a bzImage (no
 * "HdrS" magic at 0x202), -errno on read errors. */
int bzimage_version(const char *path, char *buf, size_t len);

/* The size the setup header of the bzImage at path promises (*need, see
 * above) and the file's size (*have).  0, -ENOEXEC when path is not a
 * bzImage (no "HdrS"), -errno on read errors; no message. */
int bzimage_sizes(const char *path, uint64_t *need, uint64_t *have);

/* Fill *k for variant v (downloading and unpacking a deb: package when
 * it is not cached).  0 or -errno with a message. */
int kernel_resolve(const struct kb_variant *v, struct kb_kernel *k);

/* The same, with a deb: metapackage or glob already resolved to the
 * concrete package pinned (as recorded when the campaign first booted the
 * variant: campaign.json environment.vm.variants.V.package), so a resumed
 * campaign boots the same build even when the archive has moved on.  The
 * cached .deb is used; when it is gone and the archive no longer has the
 * package, -ENOENT with a message naming it.  pinned NULL: resolve. */
int kernel_resolve_pinned(const struct kb_variant *v, const char *pinned,
			  struct kb_kernel *k);

void kernel_free(struct kb_kernel *k);

/* Whether a vm guest may load k's modules with their appended signatures
 * stripped (runner/initramfs.h module_sig_len()).  Under TCG the kernel's
 * check of each signature (a SHA-256 of the module and an RSA verify,
 * kernel/module/signing.c) was 60 ms of the 0.2 s the guest spends
 * loading its twelve modules (2026-12-04, Debian 6.1).  A kernel built
 * with CONFIG_MODULE_SIG=y and without CONFIG_MODULE_SIG_FORCE loads an
 * unsigned module and taints itself 'E' (TAINT_UNSIGNED_MODULE,
 * Documentation/admin-guide/tainted-kernels.rst), which changes no code
 * path; one that forces signatures, or is locked down (its command
 * line's module.sig_enforce or lockdown=, or the config's
 * CONFIG_LOCK_DOWN_KERNEL_FORCE_*: kernel/module/signing.c
 * module_sig_check()), refuses it, and IMA appraisal (ima_policy=,
 * ima_appraise=) may be satisfied by the appended signature.  So: 1
 * (strip) only when the kernel's config is found and says
 * CONFIG_MODULE_SIG=y without CONFIG_MODULE_SIG_FORCE=y or a forced
 * lockdown, and neither cmdline (the variant's extra command line, NULL
 * = none) nor the config's CONFIG_CMDLINE has one of those words
 * (parameter names compared with '-' and '_' the same, as the kernel
 * does; module.sig_enforce=0 does not count); else 0 (keep them).  The config
 * is looked for as config-RELEASE beside the image (/boot, a deb: package),
 * as .config three levels above it (a tree's arch/x86/boot/bzImage) and
 * in MODDIR/build/.config.  *why (malloc'd) says which and why. */
int kernel_module_sig_strip(const struct kb_kernel *k, const char *cmdline,
			    char **why);

/* 1 when pkg names one kernel build, "linux-image-" then a release of
 * three numbers (linux-image-6.1.0-57-amd64,
 * linux-image-6.12.117+deb12-amd64), 0 for a metapackage whose name may
 * hold a version too (linux-image-amd64, linux-image-6.12-amd64). */
int deb_is_concrete(const char *pkg);

/* 1 when s is a URL fetch_url() downloads (http://, https://, file://):
 * kernel = URL (checked against sha256 = when given), initrd = URL,
 * modules = URL of a tarball of lib/modules/<release>. */
int kernel_is_url(const char *s);

/* The cache directory (malloc'd). */
char *kernel_cache_dir(void);

#endif
