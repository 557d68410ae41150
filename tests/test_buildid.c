/* tests/test_buildid.c - an ELF file's GNU build ID (lib/buildid.h) read
 * from handmade ELF-64 files (a PT_NOTE segment holding other notes
 * first, then NT_GNU_BUILD_ID), refused ones (not ELF, 32-bit, program
 * headers or a note past the file's end, no build ID, a too small
 * buffer), this test binary's own; and the guest binary chosen from them
 * (runner/guest_binary.h): the static twin beside kbench or under
 * ../libexec/kbench when its build ID is kbench's, else kbench itself with
 * the reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define TEST_TMPDIR "/tmp/kbench-test-buildid.XXXXXX"
#include "tests/tmpdir.h"

#include "lib/buildid.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "runner/guest_binary.h"

#include <elf.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

/* A minimal ELF-64 file: header, one PT_NOTE program header, its notes
 * (a "XYZ" note of type 1, then the build ID when id_len > 0).  Returns
 * the malloc'd bytes; *len their count. */
static unsigned char *make_elf(const unsigned char *id, size_t id_len,
			       size_t *len)
{
	size_t notes = sizeof(Elf64_Nhdr) + 4 + 8 +
		(id_len ? sizeof(Elf64_Nhdr) + 4 + ((id_len + 3) & ~3u) : 0);
	size_t off = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr), n = off;
	unsigned char *b = calloc(1, off + notes);
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph = { 0 };
	Elf64_Nhdr nh;

	assert_non_null(b);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	eh.e_ehsize = sizeof(eh);
	memcpy(b, &eh, sizeof(eh));
	ph.p_type = PT_NOTE;
	ph.p_offset = off;
	ph.p_filesz = notes;
	memcpy(b + sizeof(eh), &ph, sizeof(ph));
	nh.n_namesz = 4;
	nh.n_descsz = 8;
	nh.n_type = 1;
	memcpy(b + n, &nh, sizeof(nh));
	memcpy(b + n + sizeof(nh), "XYZ", 4);
	memcpy(b + n + sizeof(nh) + 4, "abcdefgh", 8);
	n += sizeof(nh) + 12;
	if (id_len) {
		nh.n_namesz = 4;
		nh.n_descsz = (Elf64_Word)id_len;
		nh.n_type = NT_GNU_BUILD_ID;
		memcpy(b + n, &nh, sizeof(nh));
		memcpy(b + n + sizeof(nh), "GNU", 4);
		memcpy(b + n + sizeof(nh) + 4, id, id_len);
	}
	*len = off + notes;
	return b;
}

static char *write_file(const char *rel, const void *p, size_t len)
{
	char *path = kb_path_join(tmpdir, rel), *d = kb_xstrdup(path);

	*strrchr(d, '/') = '\0';
	assert_int_equal(kb_mkdir_p(d), 0);
	assert_int_equal(kb_write_atomic(path, p, len), 0);
	free(d);
	return path;
}

static const unsigned char id_a[20] = { 0xf9, 0x20, 0x59, 0x14, 0x8a, 0x84,
	0x67, 0x8f, 0xa7, 0x46, 0xf7, 0x01, 0x3e, 0x8f, 0xf1, 0xc6, 0xba,
	0xe8, 0x58, 0x18 };
static const unsigned char id_b[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
	12, 13, 14, 15, 16, 17, 18, 19, 20 };
#define ID_A_HEX "f92059148a84678fa746f7013e8ff1c6bae85818"

static void test_build_id(void **state)
{
	unsigned char *b;
	size_t len;
	char hex[132], *p;

	(void)state;
	b = make_elf(id_a, sizeof(id_a), &len);
	p = write_file("a.elf", b, len);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), 20);
	assert_string_equal(hex, ID_A_HEX);
	/* a buffer one byte short of the hex and its NUL */
	assert_int_equal(kb_elf_build_id(p, hex, 40), -ENOSPC);
	free(p);
	/* the note cut off at the file's end */
	p = write_file("cut.elf", b, len - 4);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), -ENOEXEC);
	free(p);
	/* program headers past the end */
	p = write_file("short.elf", b, sizeof(Elf64_Ehdr) + 10);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), -ENOEXEC);
	free(p);
	/* 32-bit */
	b[EI_CLASS] = ELFCLASS32;
	p = write_file("32.elf", b, len);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), -ENOEXEC);
	free(p);
	free(b);
	/* notes without a build ID */
	b = make_elf(NULL, 0, &len);
	p = write_file("noid.elf", b, len);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), -ENODATA);
	free(p);
	free(b);
	p = write_file("text", "#!/bin/sh\n", 10);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), -ENOEXEC);
	free(p);
	p = kb_path_join(tmpdir, "absent");
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), -ENOENT);
	free(p);
	/* a FIFO: refused, not read (it would block) */
	p = kb_path_join(tmpdir, "fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), -ENOEXEC);
	free(p);
	/* an 8-aligned note segment (binutils' .note.gnu.property layout):
	 * a 16-byte property note, then the build ID, each descriptor at a
	 * multiple of 8 from its note's start */
	{
		unsigned char seg[72] = { 0 };
		Elf64_Nhdr nh = { 4, 16, 5 };
		Elf64_Phdr ph;

		memcpy(seg, &nh, sizeof(nh));
		memcpy(seg + 12, "GNU", 4);
		memset(seg + 16, 0xee, 16);		/* ends at 32 */
		nh.n_descsz = 20;
		nh.n_type = NT_GNU_BUILD_ID;
		memcpy(seg + 32, &nh, sizeof(nh));
		memcpy(seg + 44, "GNU", 4);
		memcpy(seg + 48, id_a, 20);		/* 48 + 20 = 68 */
		b = make_elf(NULL, 0, &len);
		b = realloc(b, sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) +
			    sizeof(seg));
		assert_non_null(b);
		memcpy(&ph, b + sizeof(Elf64_Ehdr), sizeof(ph));
		ph.p_filesz = sizeof(seg);
		ph.p_align = 8;
		memcpy(b + sizeof(Elf64_Ehdr), &ph, sizeof(ph));
		memcpy(b + ph.p_offset, seg, sizeof(seg));
		p = write_file("al8.elf", b, ph.p_offset + sizeof(seg));
		assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), 20);
		assert_string_equal(hex, ID_A_HEX);
		free(p);
		free(b);
	}
	/* this test's binary: linked with ld's default --build-id (sha1) */
	p = kb_self_exe();
	assert_non_null(p);
	assert_int_equal(kb_elf_build_id(p, hex, sizeof(hex)), 20);
	assert_int_equal(strlen(hex), 40);
	free(p);
}

/* kbench at DIR/bin/kbench with build ID A; its twin at twin_rel (NULL:
 * none) with twin_id (NULL: not an ELF file). */
static void layout(const char *dir, const char *twin_rel,
		   const unsigned char *twin_id, struct kb_guest_kbench *g)
{
	unsigned char *b;
	size_t len;
	char *rel = kb_xasprintf("%s/bin/kbench", dir), *exe;

	b = make_elf(id_a, sizeof(id_a), &len);
	exe = write_file(rel, b, len);
	free(b);
	free(rel);
	if (twin_rel) {
		rel = kb_xasprintf("%s/%s", dir, twin_rel);
		if (twin_id) {
			b = make_elf(twin_id, 20, &len);
			free(write_file(rel, b, len));
			free(b);
		} else {
			free(write_file(rel, "not elf", 7));
		}
		free(rel);
	}
	guest_kbench_find(exe, g);
	free(exe);
}

static void test_guest_binary(void **state)
{
	struct kb_guest_kbench g;

	(void)state;
	/* beside it, the same build */
	layout("l1", "bin/kbench-guest", id_a, &g);
	assert_int_equal(g.is_static, 1);
	assert_non_null(strstr(g.path, "/l1/bin/kbench-guest"));
	assert_null(g.why);
	guest_kbench_free(&g);
	/* installed: PREFIX/libexec/kbench/kbench-guest */
	layout("l2", "libexec/kbench/kbench-guest", id_a, &g);
	assert_int_equal(g.is_static, 1);
	assert_non_null(strstr(g.path,
			       "/l2/bin/../libexec/kbench/kbench-guest"));
	guest_kbench_free(&g);
	/* another build: kbench itself, and why */
	layout("l3", "bin/kbench-guest", id_b, &g);
	assert_int_equal(g.is_static, 0);
	assert_non_null(strstr(g.path, "/l3/bin/kbench"));
	assert_null(strstr(g.path, "kbench-guest"));
	assert_non_null(strstr(g.why, "is from another build (build ID "
			       "010203040506, this kbench's f92059148a84)"));
	guest_kbench_free(&g);
	/* not an ELF file */
	layout("l4", "bin/kbench-guest", NULL, &g);
	assert_int_equal(g.is_static, 0);
	assert_non_null(strstr(g.why, "kbench-guest: not an ELF-64"));
	guest_kbench_free(&g);
	/* a stale twin beside it, a good one under libexec: that one */
	{
		size_t len;
		unsigned char *b = make_elf(id_a, sizeof(id_a), &len);

		free(write_file("l6/libexec/kbench/kbench-guest", b, len));
		free(b);
	}
	layout("l6", "bin/kbench-guest", id_b, &g);
	assert_int_equal(g.is_static, 1);
	assert_non_null(strstr(g.path, "/l6/bin/../libexec/kbench/"));
	assert_null(g.why);
	guest_kbench_free(&g);
	/* none */
	layout("l5", NULL, NULL, &g);
	assert_int_equal(g.is_static, 0);
	assert_non_null(strstr(g.path, "/l5/bin/kbench"));
	assert_non_null(strstr(g.why, "no static guest binary beside it"));
	guest_kbench_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_guest_binary),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
