/* runner/vmlinux.h - a bzImage's kernel as the ELF that QEMU boots through
 * its PVH entry (issue 16: guest start).
 *
 * Booted as a bzImage (-kernel vmlinuz), a TCG guest spends about 4 s of
 * its 7 s start before the kernel's first line: SeaBIOS, the real-mode
 * setup and, most of it, the kernel decompressing itself under
 * emulation (Debian's 8 MiB xz image to 66 MiB).  QEMU (4.0 and later)
 * boots an uncompressed x86-64 vmlinux ELF that carries the PVH entry
 * note directly in 32-bit protected mode (the pvh.bin option ROM; kernel
 * and initrd loaded by QEMU itself): the same kernel reached its /init
 * 2.5-2.7 s after QEMU's start instead of 6.9 s here (2026-12-01, Debian
 * 6.1, TCG).  Linux has the note with CONFIG_PVH=y (Debian's kernels do),
 * Documentation/arch/x86/boot.rst for the bzImage header, the Xen public
 * header elfnote.h for XEN_ELFNOTE_PHYS32_ENTRY (18).
 *
 * The ELF is the bzImage's payload decompressed (lib/decompress.h: xz,
 * zstd, gzip), written once per image into CACHE/vmlinux (CACHE:
 * kernel_cache_dir(), runner/kernel_img.h) as NAME-PATHHASH-INODE-SIZE-
 * MTIME.elf (NAME the image's file name, PATHHASH FNV-1a of its real
 * path), the ELFs of the same path's earlier versions removed (a kernel
 * rebuilt in place keeps one), and checked before use: an x86-64 ELF
 * whose PT_NOTE segments hold the Xen note of type 18.
 */
#ifndef KB_RUNNER_VMLINUX_H
#define KB_RUNNER_VMLINUX_H

#include <stddef.h>

/* XEN_ELFNOTE_PHYS32_ENTRY: the 32-bit PVH entry point of the kernel */
#define KB_XEN_ELFNOTE_PHYS32_ENTRY 18

/* The PVH-bootable ELF of the bzImage at image: 0 and *elf (malloc'd:
 * its path in the cache, made now when absent; with dry != 0 never made:
 * then 1 when absent, *why "not unpacked yet (--dry-run writes
 * nothing)").  1 when the image cannot boot that way, with *why
 * (malloc'd) saying why in words for the log (not a bzImage, a boot
 * protocol older than 2.08, a payload compressed otherwise than xz, zstd
 * or gzip, no PVH entry note, the cache not writable); the caller boots
 * the bzImage then.  Never another value. */
int kb_vmlinux_for_pvh(const char *image, int dry, char **elf, char **why);

/* 1 when buf[0..len) is an x86-64 ELF with a PVH entry note (a PT_NOTE
 * segment holding the note "Xen" of type KB_XEN_ELFNOTE_PHYS32_ENTRY),
 * else 0; bounds are checked against len. */
int kb_vmlinux_is_pvh(const void *buf, size_t len);

/* The compressed payload of the bzImage buf[0..len): *off and *plen
 * (the header's payload_offset and payload_length, after the setup
 * sectors).  0, or 1 with *why (a static string) when buf is not a
 * bzImage the payload can be found in. */
int kb_bzimage_payload(const void *buf, size_t len, size_t *off,
		       size_t *plen, const char **why);

#endif
