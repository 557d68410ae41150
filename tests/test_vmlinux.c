/* tests/test_vmlinux.c - runner/vmlinux.c: a bzImage's kernel as the ELF
 * QEMU boots through its PVH entry (issue 16, guest start).  Synthetic
 * images: a real-mode header (Documentation/arch/x86/boot.rst: "HdrS",
 * protocol 2.15, setup_sects, payload_offset and payload_length) whose
 * payload is a gzip'd minimal x86-64 ELF carrying (or not) the Xen note
 * of type 18 (XEN_ELFNOTE_PHYS32_ENTRY), with or without the 4-byte
 * size the kernel's build appends.  The cache is a temporary
 * KBENCH_CACHE. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/file.h"
#include "runner/vmlinux.h"

#define TEST_TMPDIR "/tmp/kbench-test-vmlinux-XXXXXX"
#include "tests/tmpdir.h"

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* A 64-byte ELF header, one program header (PT_NOTE) and one note
 * ("Xen", type): 64 + 56 + 12 + 4 + 4 bytes.  *len: its size. */
static unsigned char *elf(uint32_t type, size_t *len)
{
	unsigned char *b = calloc(1, 256);

	memcpy(b, "\177ELF", 4);
	b[4] = 2;			/* ELFCLASS64 */
	b[5] = 1;			/* little-endian */
	put16(b + 18, 62);		/* EM_X86_64 */
	put64(b + 32, 64);		/* e_phoff */
	put16(b + 54, 56);		/* e_phentsize */
	put16(b + 56, 1);		/* e_phnum */
	put32(b + 64, 4);		/* PT_NOTE */
	put64(b + 64 + 8, 120);		/* p_offset */
	put64(b + 64 + 32, 20);		/* p_filesz */
	put32(b + 120, 4);		/* namesz */
	put32(b + 124, 4);		/* descsz */
	put32(b + 128, type);
	memcpy(b + 132, "Xen", 4);
	put32(b + 136, 0x1000000);	/* the entry */
	*len = 140;
	return b;
}

/* in[0..n) gzip'd (zlib, gzip framing) */
static unsigned char *gzip(const unsigned char *in, size_t n, size_t *len)
{
	z_stream z = { 0 };
	unsigned char *out = malloc(n + 256);

	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 31, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)in;
	z.avail_in = (unsigned)n;
	z.next_out = out;
	z.avail_out = (unsigned)n + 256;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* A bzImage at path: 1 setup sector after the boot sector, then 16
 * bytes of decompressor, then the payload (plen bytes at payload, and
 * with size_append the 4-byte size after it). */
static void bzimage(const char *path, const unsigned char *payload,
		    size_t plen, int size_append)
{
	size_t pm = 2 * 512, tot = pm + 16 + plen + 4;
	unsigned char *b = calloc(1, tot);

	b[0x1f1] = 1;			/* setup_sects */
	memcpy(b + 0x202, "HdrS", 4);
	put16(b + 0x206, 0x20f);	/* protocol 2.15 */
	put32(b + 0x248, 16);		/* payload_offset */
	put32(b + 0x24c, (uint32_t)(plen + (size_append ? 4 : 0)));
	memcpy(b + pm + 16, payload, plen);
	put32(b + pm + 16 + plen, 140);
	assert_int_equal(kb_write_atomic(path, b, tot), 0);
	free(b);
}

/* the .elf files in the cache's vmlinux directory */
static int elfs_in_cache(void)
{
	char *dir = kb_path_join(tmpdir, "vmlinux");
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strstr(e->d_name, ".elf") != NULL;
	closedir(d);
	free(dir);
	return n;
}

static void test_is_pvh(void **state)
{
	size_t n;
	unsigned char *e = elf(KB_XEN_ELFNOTE_PHYS32_ENTRY, &n);
	unsigned char *o = elf(17, &n);

	(void)state;
	assert_true(kb_vmlinux_is_pvh(e, n));
	assert_false(kb_vmlinux_is_pvh(o, n));	/* another Xen note */
	assert_false(kb_vmlinux_is_pvh(e, n - 1));	/* cut in the note */
	assert_false(kb_vmlinux_is_pvh(e, 100));	/* cut in the phdr */
	e[18] = 3;					/* EM_386 */
	assert_false(kb_vmlinux_is_pvh(e, n));
	free(e);
	free(o);
}

static void test_payload(void **state)
{
	unsigned char b[0x500] = { 0 };
	const char *why = NULL;
	size_t off = 0, len = 0;

	(void)state;
	assert_int_equal(kb_bzimage_payload(b, sizeof(b), &off, &len, &why),
			 1);
	assert_non_null(strstr(why, "HdrS"));
	memcpy(b + 0x202, "HdrS", 4);
	put16(b + 0x206, 0x207);
	assert_int_equal(kb_bzimage_payload(b, sizeof(b), &off, &len, &why),
			 1);
	assert_non_null(strstr(why, "2.08"));
	put16(b + 0x206, 0x20f);
	b[0x1f1] = 0;			/* 0 means 4 setup sectors */
	put32(b + 0x248, 0);
	put32(b + 0x24c, 8);
	assert_int_equal(kb_bzimage_payload(b, sizeof(b), &off, &len, &why),
			 1);		/* 5 * 512 > the file */
	b[0x1f1] = 1;
	assert_int_equal(kb_bzimage_payload(b, sizeof(b), &off, &len, &why),
			 0);
	assert_int_equal(off, 1024);
	assert_int_equal(len, 8);
	put32(b + 0x24c, 0xffffffffu);	/* past the end */
	assert_int_equal(kb_bzimage_payload(b, sizeof(b), &off, &len, &why),
			 1);
}

/* unpacked once into the cache, with or without the appended size,
 * reused, and refused with the reason */
static void test_for_pvh(void **state)
{
	char *img = kb_path_join(tmpdir, "vmlinuz"), *path = NULL;
	char *why = NULL, *buf = NULL, *again = NULL;
	size_t n, zn, len;
	unsigned char *e = elf(KB_XEN_ELFNOTE_PHYS32_ENTRY, &n);
	unsigned char *z = gzip(e, n, &zn);
	struct stat st1, st2;
	int sa;

	(void)state;
	setenv("KBENCH_CACHE", tmpdir, 1);
	for (sa = 0; sa < 2; sa++) {
		bzimage(img, z, zn, sa);
		/* --dry-run: nothing written, not unpacked yet */
		assert_int_equal(kb_vmlinux_for_pvh(img, 1, &path, &why), 1);
		assert_null(path);
		assert_non_null(strstr(why, "dry-run"));
		free(why);
		assert_int_equal(kb_vmlinux_for_pvh(img, 0, &path, &why), 0);
		assert_null(why);
		assert_non_null(strstr(path, "/vmlinux/vmlinuz-"));
		assert_int_equal(kb_read_file(path, &buf, &len, 0), 0);
		assert_int_equal(len, n);
		assert_memory_equal(buf, e, n);
		free(buf);
		assert_int_equal(stat(path, &st1), 0);
		/* the second time: the same file, not written again */
		assert_int_equal(kb_vmlinux_for_pvh(img, 1, &again, &why), 0);
		assert_string_equal(again, path);
		assert_int_equal(stat(again, &st2), 0);
		assert_int_equal(st1.st_ino, st2.st_ino);
		free(again);
		free(path);
		/* one ELF for the path: an earlier version's is removed */
		assert_int_equal(elfs_in_cache(), 1);
		unlink(img);	/* a new image: a new inode, a new name */
	}
	/* another path's ELF is its own */
	{
		char *img2 = kb_path_join(tmpdir, "bzImage-other");

		bzimage(img2, z, zn, 1);
		assert_int_equal(kb_vmlinux_for_pvh(img2, 0, &path, &why), 0);
		free(path);
		bzimage(img, z, zn, 1);
		assert_int_equal(kb_vmlinux_for_pvh(img, 0, &path, &why), 0);
		free(path);
		assert_int_equal(elfs_in_cache(), 2);
		unlink(img);
		free(img2);
	}
	free(z);
	free(e);

	/* a kernel without the PVH note boots as the bzImage */
	e = elf(17, &n);
	z = gzip(e, n, &zn);
	bzimage(img, z, zn, 1);
	assert_int_equal(kb_vmlinux_for_pvh(img, 0, &path, &why), 1);
	assert_null(path);
	assert_non_null(strstr(why, "PVH entry note"));
	free(why);
	unlink(img);
	/* a payload kbench cannot decompress (lz4, say: not the three) */
	bzimage(img, e, n, 0);
	assert_int_equal(kb_vmlinux_for_pvh(img, 0, &path, &why), 1);
	assert_non_null(strstr(why, "cannot be decompressed"));
	free(why);
	/* not a file */
	assert_int_equal(kb_vmlinux_for_pvh("/nonexistent/bzImage", 0, &path,
					    &why), 1);
	assert_non_null(strstr(why, "cannot stat"));
	free(why);
	free(z);
	free(e);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_pvh),
		cmocka_unit_test(test_payload),
		cmocka_unit_test(test_for_pvh),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
