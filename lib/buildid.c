/* lib/buildid.c - an ELF file's GNU build ID (see lib/buildid.h). */
#include "lib/buildid.h"
#include "lib/file.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* n bytes at off, whole, or -errno (-ENOEXEC past the end). */
static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t r = kb_pread_full(fd, buf, n, off);

	return r < 0 ? (int)r : (size_t)r < n ? -ENOEXEC : 0;
}

/* x rounded up to al (4 or 8). */
static size_t align_up(size_t x, size_t al)
{
	return (x + al - 1) & ~(al - 1);
}

/* The NT_GNU_BUILD_ID descriptor in the notes of one PT_NOTE segment
 * (buf, len bytes; the segment's alignment al, 4 or 8: the descriptor
 * and the next note start at multiples of al from the note's start, as
 * binutils lays out an 8-aligned .note.gnu.property) as hex, or 0 when
 * the segment has none. */
static int notes_build_id(const unsigned char *buf, size_t len, size_t al,
			  char *hex, size_t cap)
{
	size_t off = 0;

	while (len - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t desc, end, i;

		memcpy(&nh, buf + off, sizeof(nh));
		/* offsets from the note's start; both sizes are 32-bit */
		desc = align_up(sizeof(nh) + (size_t)nh.n_namesz, al);
		end = align_up(desc + (size_t)nh.n_descsz, al);
		if (desc + nh.n_descsz > len - off)
			return -ENOEXEC;	/* a note past its segment */
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + off + sizeof(nh), "GNU", 4) &&
		    nh.n_descsz > 0) {
			const unsigned char *d = buf + off + desc;

			if (cap < 2 * (size_t)nh.n_descsz + 1)
				return -ENOSPC;
			for (i = 0; i < nh.n_descsz; i++) {
				hex[2 * i] = "0123456789abcdef"[d[i] >> 4];
				hex[2 * i + 1] = "0123456789abcdef"[d[i] & 15];
			}
			hex[2 * i] = '\0';
			return (int)nh.n_descsz;
		}
		if (end >= len - off)
			break;
		off += end;
	}
	return 0;
}

int kb_elf_build_id(const char *path, char *hex, size_t cap)
{
	unsigned char note[4096];
	Elf64_Ehdr eh;
	struct stat st;
	int fd, ret, i;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	ret = -ENOEXEC;
	if (!S_ISREG(st.st_mode))	/* a FIFO would block the read */
		goto out;
	ret = read_at(fd, &eh, sizeof(eh), 0);
	if (ret)
		goto out;
	ret = -ENOEXEC;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    eh.e_phoff > (uint64_t)st.st_size ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) >
	    (uint64_t)st.st_size - eh.e_phoff)
		goto out;
	ret = -ENODATA;
	for (i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		int r = read_at(fd, &ph, sizeof(ph),
				eh.e_phoff + (uint64_t)i * sizeof(ph));

		if (r) {
			ret = r;
			goto out;
		}
		if (ph.p_type != PT_NOTE)
			continue;
		/* notes are small; a larger one is not a build ID's */
		if (ph.p_filesz > sizeof(note))
			continue;
		if (ph.p_offset > (uint64_t)st.st_size ||
		    ph.p_filesz > (uint64_t)st.st_size - ph.p_offset) {
			ret = -ENOEXEC;
			goto out;
		}
		r = read_at(fd, note, ph.p_filesz, ph.p_offset);
		if (!r)
			r = notes_build_id(note, ph.p_filesz,
					   ph.p_align == 8 ? 8 : 4, hex, cap);
		if (r) {
			ret = r;
			goto out;
		}
	}
out:
	close(fd);
	return ret;
}
