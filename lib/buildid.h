/* lib/buildid.h - an ELF file's GNU build ID.
 *
 * kbench's static guest binary (build/kbench-guest, installed as
 * PREFIX/libexec/kbench/kbench-guest) is linked from the same objects as
 * kbench with the same explicit build ID (the Makefile's
 * -Wl,--build-id=0xHEX, HEX a digest of those objects), so the host
 * binary can tell whether the twin beside it is its own build before
 * putting it into a guest (runner/guest_binary.h).
 *
 * Format: the ELF-64 file header and program headers (elf(5)); the
 * build ID is the descriptor of the note of type NT_GNU_BUILD_ID (3)
 * with name "GNU" in a PT_NOTE segment (ld(1) --build-id).  Notes are
 * aligned as their segment (4, or 8 for p_align 8: namesz, descsz, type,
 * name, desc; elf(5) "Notes").  A file that is not a regular one is
 * refused (-ENOEXEC) without being read.
 * Little-endian x86-64 files only (the machine kbench boots guests on).
 */
#ifndef KB_BUILDID_H
#define KB_BUILDID_H

#include <stddef.h>

/* The build ID of the ELF file at path as lowercase hex into hex (cap
 * bytes, NUL-terminated; 2 * 64 + 1 holds any ID ld writes).  Returns
 * the ID's length in bytes (> 0), or -ENOENT (and other -errno from
 * open/read) for a file that cannot be read, -ENOEXEC for a file that is
 * not a little-endian ELF-64 one or whose headers run past its end,
 * -ENODATA for an ELF file without a build ID, -ENOSPC when hex is too
 * small.  Prints nothing: the caller says what the ID was for. */
int kb_elf_build_id(const char *path, char *hex, size_t cap);

#endif
