/* runner/vmlinux.c - see vmlinux.h. */
#include "runner/vmlinux.h"
#include "runner/kernel_img.h"
#include "lib/decompress.h"
#include "lib/err.h"
#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* Documentation/arch/x86/boot.rst, "The real-mode kernel header":
 * setup_sects at 0x1f1 (0 means 4), "HdrS" at 0x202, the protocol
 * version at 0x206, payload_offset and payload_length (protocol 2.08)
 * at 0x248 and 0x24c; the protected-mode kernel starts after the boot
 * sector and the setup sectors. */
int kb_bzimage_payload(const void *buf, size_t len, size_t *off,
		       size_t *plen, const char **why)
{
	const unsigned char *b = buf;
	size_t setup, pm;
	uint32_t po, pl;

	if (len < 0x250 || memcmp(b + 0x202, "HdrS", 4)) {
		*why = "not a bzImage (no \"HdrS\" header at 0x202)";
		return 1;
	}
	if (le16(b + 0x206) < 0x208) {
		*why = "boot protocol older than 2.08 (no payload fields)";
		return 1;
	}
	setup = b[0x1f1] ? b[0x1f1] : 4;
	pm = (setup + 1) * 512;
	po = le32(b + 0x248);
	pl = le32(b + 0x24c);
	if (pm > len || po > len - pm || pl > len - pm - po || pl < 4) {
		*why = "payload_offset/payload_length outside the file";
		return 1;
	}
	*off = pm + po;
	*plen = pl;
	return 0;
}

int kb_vmlinux_is_pvh(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	uint64_t phoff;
	uint16_t phentsize, phnum, i;

	/* ELF64, little-endian, EM_X86_64 (62) */
	if (len < 64 || memcmp(b, "\177ELF", 4) || b[4] != 2 || b[5] != 1 ||
	    le16(b + 18) != 62)
		return 0;
	phoff = le64(b + 32);
	phentsize = le16(b + 54);
	phnum = le16(b + 56);
	if (phentsize < 56 || phoff > len ||
	    (uint64_t)phnum * phentsize > len - phoff)
		return 0;
	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = b + phoff + (uint64_t)i * phentsize;
		uint64_t o = le64(ph + 8), sz = le64(ph + 32), at;

		if (le32(ph) != 4 || o > len || sz > len - o)	/* PT_NOTE */
			continue;
		/* notes: namesz, descsz, type, name and desc padded to 4 */
		for (at = o; at + 12 <= o + sz;) {
			uint32_t nsz = le32(b + at), dsz = le32(b + at + 4);
			uint32_t type = le32(b + at + 8);
			uint64_t name = at + 12;
			uint64_t next = name + (((uint64_t)nsz + 3) & ~3ULL) +
					(((uint64_t)dsz + 3) & ~3ULL);

			if (next > o + sz)
				break;
			if (nsz == 4 && !memcmp(b + name, "Xen", 4) &&
			    type == KB_XEN_ELFNOTE_PHYS32_ENTRY)
				return 1;
			at = next;
		}
	}
	return 0;
}

/* The bzImage's payload decompressed: the kernel's build appends the
 * uncompressed size (4 bytes, scripts/Makefile.lib's size_append) after
 * an xz or zstd stream, which lib/decompress.h counts as trailing bytes:
 * tried without them first. */
static int unpack(const unsigned char *b, size_t len, char **elf,
		  size_t *elflen, char **why)
{
	char w1[256], w2[256];
	const char *w;
	size_t off, pl;
	int ret;

	if (kb_bzimage_payload(b, len, &off, &pl, &w)) {
		*why = kb_xstrdup(w);
		return 1;
	}
	ret = kb_decompress_data(b + off, pl - 4, KB_DECOMPRESS_MAX, elf,
				 elflen, w1, sizeof(w1));
	if (ret)
		ret = kb_decompress_data(b + off, pl, KB_DECOMPRESS_MAX, elf,
					 elflen, w2, sizeof(w2));
	if (ret) {
		*why = kb_xasprintf("its payload cannot be decompressed: %s",
				    w2);
		return 1;
	}
	if (*elflen < 4 || memcmp(*elf, "\177ELF", 4)) {
		*why = kb_xstrdup("its payload is not an ELF (a "
				  "self-decompressing kernel of another kind)");
		return 1;
	}
	return 0;
}

/* FNV-1a, 64 bits (Fowler, Noll, Vo): the image's path in the cache
 * file's name, so that a rebuilt image replaces its own older ELF and
 * never another path's. */
static uint64_t fnv1a64(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The ELFs of earlier versions of the same image (prefix, then
 * anything but keep) removed from dir: one 60-odd MiB file per image
 * path, whatever how often it is rebuilt. */
static void prune(const char *dir, const char *prefix, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t pl = strlen(prefix);

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *p;

		if (strncmp(e->d_name, prefix, pl) || !strcmp(e->d_name, keep) ||
		    n < 4 || strcmp(e->d_name + n - 4, ".elf"))
			continue;
		p = kb_path_join(dir, e->d_name);
		unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
}

/* The ELF at path, made before: 1 when it is a PVH kernel, 0 when not,
 * -1 when there is none.  Mapped, not read: the check touches the
 * headers and the note, a few pages of the 60-odd MiB, at every boot. */
static int cached_is_pvh(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 0;
	struct stat st;
	void *p;

	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			 0);
		if (p != MAP_FAILED) {
			ok = kb_vmlinux_is_pvh(p, (size_t)st.st_size);
			munmap(p, (size_t)st.st_size);
		}
	}
	close(fd);
	return ok;
}

int kb_vmlinux_for_pvh(const char *image, int dry, char **elf, char **why)
{
	char *cache = kernel_cache_dir(), *dir, *path, *buf = NULL;
	char *out = NULL, *prefix, *abs;
	const char *base = strrchr(image, '/');
	size_t len, olen;
	struct stat st;
	int ret = 1;

	*elf = NULL;
	*why = NULL;
	if (stat(image, &st)) {
		*why = kb_xasprintf("cannot stat %s: %s", image,
				    strerror(errno));
		free(cache);
		return 1;
	}
	dir = kb_path_join(cache, "vmlinux");
	abs = realpath(image, NULL);
	prefix = kb_xasprintf("%s-%016llx-", base ? base + 1 : image,
			      (unsigned long long)fnv1a64(abs ? abs : image));
	free(abs);
	path = kb_xasprintf("%s/%s%llu-%llu-%lld.%09ld.elf", dir, prefix,
			    (unsigned long long)st.st_ino,
			    (unsigned long long)st.st_size,
			    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	/* made before: checked again (a partial file never has the name:
	 * written by rename) */
	switch (cached_is_pvh(path)) {
	case 1:
		*elf = path;
		path = NULL;
		ret = 0;
		goto out;
	case 0:
		*why = kb_xasprintf("%s is not a PVH kernel ELF; remove it",
				    path);
		goto out;
	}
	if (dry) {
		*why = kb_xasprintf("not unpacked yet (--dry-run writes "
				    "nothing); the run unpacks it into %s and "
				    "boots that ELF with -kernel when it has "
				    "a PVH entry, else this bzImage", path);
		goto out;
	}
	if (kb_read_file(image, &buf, &len, 1)) {
		*why = kb_xasprintf("cannot read %s", image);
		goto out;
	}
	if (unpack((const unsigned char *)buf, len, &out, &olen, why))
		goto out;
	if (!kb_vmlinux_is_pvh(out, olen)) {
		*why = kb_xstrdup("its kernel has no PVH entry note (built "
				  "without CONFIG_PVH)");
		goto out;
	}
	/* the cache is derivable from the image: no sync (lib/file.h) */
	if (kb_mkdir_p(dir) ||
	    kb_write_atomic_opt(path, out, olen, KB_WRITE_NOSYNC)) {
		*why = kb_xasprintf("cannot write %s", path);
		goto out;
	}
	kb_info("vm: %s unpacked for a PVH boot into %s (once per image)",
		image, path);
	prune(dir, prefix, strrchr(path, '/') + 1);
	*elf = path;
	path = NULL;
	ret = 0;
out:
	free(prefix);
	free(out);
	free(buf);
	free(path);
	free(dir);
	free(cache);
	return ret;
}
