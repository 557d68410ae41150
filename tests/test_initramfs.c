/* tests/test_initramfs.c - what the vm driver prepares on the host before
 * a boot: compressed kernel modules (.ko.xz, .ko.zst, .ko.gz, made here
 * with liblzma, libzstd and zlib) resolved from a fake modules.dep
 * (runner/initramfs.c, modules_resolve) and put into the cpio as plain
 * modules/NN-NAME.ko (initramfs_build, lib/decompress.c), read back from
 * the archive ("newc" cpio); corrupt, truncated and oversized compressed
 * data refused with the file named; a truncated synthetic bzImage refused
 * by kernel_resolve (the setup header's setup_sects at 0x1F1 and syssize
 * at 0x1F4, Documentation/arch/x86/boot.rst); module signatures cut
 * (module_sig_len(), a real Debian module from tests/data/modules) when
 * the kernel's config allows it (kernel_module_sig_strip()).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/capture.h"

#include "lib/decompress.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/kconf.h"
#include "runner/initramfs.h"
#include "runner/kernel_img.h"

#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static char tmpdir[] = "/tmp/kbench-test-initramfs.XXXXXX";

#define RELEASE "6.12.0-kbtest"


/* --- module contents and the three encoders --- */

struct blob {
	unsigned char *p;
	size_t len;
};

/* A fake module: an ELF magic, text that compresses and pseudo-random
 * bytes that do not; len > 64 KiB so the decoders' output grows. */
static struct blob fake_module(unsigned seed, size_t len)
{
	struct blob b = { kb_xmalloc(len), len };
	uint32_t x = seed * 2654435761u + 1;
	size_t i;

	for (i = 0; i < len; i++) {
		x = x * 1664525u + 1013904223u;
		b.p[i] = (i / 4096) % 2 ? (unsigned char)(x >> 24) :
			 (unsigned char)("module text "[i % 12]);
	}
	memcpy(b.p, "\x7f" "ELF", 4);
	return b;
}

static struct blob enc_xz(const struct blob *in)
{
	size_t cap = lzma_stream_buffer_bound(in->len), pos = 0;
	struct blob b = { kb_xmalloc(cap), 0 };

	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL,
						 in->p, in->len, b.p, &pos,
						 cap), LZMA_OK);
	b.len = pos;
	return b;
}

static struct blob enc_zstd(const struct blob *in)
{
	size_t cap = ZSTD_compressBound(in->len), n;
	struct blob b = { kb_xmalloc(cap), 0 };

	n = ZSTD_compress(b.p, cap, in->p, in->len, 3);
	assert_false(ZSTD_isError(n));
	b.len = n;
	return b;
}

static struct blob enc_gzip(const struct blob *in)
{
	z_stream z;
	struct blob b;

	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	b.len = deflateBound(&z, in->len);
	b.p = kb_xmalloc(b.len);
	z.next_in = in->p;
	z.avail_in = (unsigned)in->len;
	z.next_out = b.p;
	z.avail_out = (unsigned)b.len;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	b.len = z.total_out;
	deflateEnd(&z);
	return b;
}

static void write_blob(const char *dir, const char *rel, const void *p,
		       size_t len)
{
	char *path = kb_path_join(dir, rel), *d = kb_xstrdup(path);

	*strrchr(d, '/') = '\0';
	assert_int_equal(kb_mkdir_p(d), 0);
	assert_int_equal(kb_write_atomic(path, p, len), 0);
	free(path);
	free(d);
}

/* --- reading the cpio back --- */

static unsigned long hex8(const char *p)
{
	char f[9];

	memcpy(f, p, 8);
	f[8] = '\0';
	return strtoul(f, NULL, 16);
}

/* The data of entry name in the newc archive a (borrowed), or NULL. */
static const char *cpio_find(const char *a, size_t alen, const char *name,
			     size_t *len)
{
	size_t off = 0;

	while (off + 110 <= alen) {
		unsigned long fsize = hex8(a + off + 54);
		unsigned long nsize = hex8(a + off + 94);
		const char *n = a + off + 110;
		size_t data = (off + 110 + nsize + 3) & ~(size_t)3;

		assert_memory_equal(a + off, "070701", 6);
		assert_true(data + fsize <= alen);
		if (!strcmp(n, "TRAILER!!!"))
			break;
		if (!strcmp(n, name)) {
			*len = fsize;
			return a + data;
		}
		off = (data + fsize + 3) & ~(size_t)3;
	}
	return NULL;
}

/* The mode (type and permission bits) of entry name, or 0. */
static unsigned long cpio_mode(const char *a, size_t alen, const char *name)
{
	size_t off;

	for (off = 0; off + 110 <= alen;) {
		unsigned long fsize = hex8(a + off + 54);
		unsigned long nsize = hex8(a + off + 94);
		size_t data = (off + 110 + nsize + 3) & ~(size_t)3;

		if (!strcmp(a + off + 110, name))
			return hex8(a + off + 14);
		off = (data + fsize + 3) & ~(size_t)3;
	}
	return 0;
}

static void assert_entry(const char *a, size_t alen, const char *name,
			 const struct blob *want)
{
	size_t len = 0;
	const char *d = cpio_find(a, alen, name, &len);

	assert_non_null(d);
	assert_int_equal(len, want->len);
	assert_memory_equal(d, want->p, want->len);
}

/* The options every test's archive starts from: bb as busybox and as
 * kbench (any file: it goes in as /usr/bin/kbench), mods, gargv. */
static void base_opts(struct kb_initramfs_opts *o, const char *bb,
		      const struct kb_modlist *mods, const char *const *gargv,
		      const char *results_dir)
{
	memset(o, 0, sizeof(*o));
	o->busybox = bb;
	o->kbench = bb;
	o->mods = mods;
	o->results_dir = results_dir;
	o->guest_argv = gargv;
}

/* --- the tests --- */

static int setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(tmpdir));
	kb_quiet = 1;
	return 0;
}

static int teardown(void **state)
{
	char *argv[] = { "rm", "-rf", tmpdir, NULL };
	struct kb_spawn_result r;

	(void)state;
	kb_spawn(argv, NULL, &r);
	return 0;
}

static char *busybox_standin(void)
{
	char *bb = kb_path_join(tmpdir, "busybox");
	const char *text = "#!/bin/sh\necho busybox stand-in\n";

	assert_int_equal(kb_write_atomic(bb, text, strlen(text)), 0);
	return bb;
}

/* modules.dep: a.ko.xz depends on b.ko.zst and c.ko.gz; the cpio holds
 * each as plain modules/NN-NAME.ko, dependencies first, byte for byte. */
static void test_compressed_modules(void **state)
{
	char *md = kb_xasprintf("%s/lib/modules/" RELEASE, tmpdir);
	char *bb = busybox_standin(), *cpio = kb_path_join(tmpdir, "i.cpio");
	char *missing = NULL, *arch = NULL;
	const char *dep = "kernel/drivers/a/a.ko.xz: kernel/drivers/b/b.ko.zst "
			  "kernel/fs/c/c.ko.gz\n"
			  "kernel/drivers/b/b.ko.zst:\n"
			  "kernel/fs/c/c.ko.gz:\n";
	const char *builtin = "kernel/fs/ext4/ext4.ko\n";
	const char *want[] = { "a", "ext4" };
	const char *gargv[] = { "/usr/bin/kbench", "guest", NULL };
	struct blob a = fake_module(1, 200000), b = fake_module(2, 70000);
	struct blob c = fake_module(3, 100000);
	struct blob ax = enc_xz(&a), bz = enc_zstd(&b), cg = enc_gzip(&c);
	struct kb_modlist mods;
	struct kb_initramfs_opts o = { 0 };
	size_t alen = 0, len = 0;
	const char *init;

	(void)state;
	write_blob(md, "kernel/drivers/a/a.ko.xz", ax.p, ax.len);
	write_blob(md, "kernel/drivers/b/b.ko.zst", bz.p, bz.len);
	write_blob(md, "kernel/fs/c/c.ko.gz", cg.p, cg.len);
	write_blob(md, "modules.dep", dep, strlen(dep));
	write_blob(md, "modules.builtin", builtin, strlen(builtin));

	assert_int_equal(modules_resolve(md, want, 2, &mods, &missing), 0);
	assert_null(missing);
	assert_int_equal(mods.n, 3);	/* ext4 is built in */
	assert_string_equal(mods.name[0], "b");
	assert_string_equal(mods.name[1], "c");
	assert_string_equal(mods.name[2], "a");
	assert_non_null(strstr(mods.path[2], "/kernel/drivers/a/a.ko.xz"));
	assert_non_null(strstr(mods.path[0], "/kernel/drivers/b/b.ko.zst"));
	assert_non_null(strstr(mods.path[1], "/kernel/fs/c/c.ko.gz"));

	base_opts(&o, bb, &mods, gargv, "/tmp/kbench-results");
	assert_int_equal(initramfs_build(cpio, &o), 0);
	assert_int_equal(kb_read_file(cpio, &arch, &alen, 0), 0);
	assert_entry(arch, alen, "modules/00-b.ko", &b);
	assert_entry(arch, alen, "modules/01-c.ko", &c);
	assert_entry(arch, alen, "modules/02-a.ko", &a);
	{
		size_t klen = 0;
		const char *k = cpio_find(arch, alen, "usr/bin/kbench", &klen);
		char *kb_bytes = NULL;
		size_t wlen = 0;

		assert_non_null(k);
		assert_int_equal(kb_read_file(bb, &kb_bytes, &wlen, 0), 0);
		assert_int_equal(klen, wlen);
		assert_memory_equal(k, kb_bytes, wlen);
		free(kb_bytes);
	}
	init = cpio_find(arch, alen, "init", &len);
	assert_non_null(init);
	/* kbench guest loads the modules, in load order, then mounts the
	 * host's root over 9p and chroots itself (runner/guest_setup.h):
	 * no insmod or mount process per step */
	{
		const char *m0 = memmem(init, len,
			"--load-module '/modules/00-b.ko'", 32);
		const char *m1 = memmem(init, len,
			"--load-module '/modules/01-c.ko'", 32);
		const char *m2 = memmem(init, len,
			"--load-module '/modules/02-a.ko'", 32);
		static const char run[] = "'/usr/bin/kbench' guest \"$@\" "
			"--mount-9p /mnt/root";
		const char *r = memmem(init, len, run, strlen(run));

		assert_non_null(m0);
		assert_true(m0 < m1 && m1 < m2);
		assert_non_null(r);
		assert_true(r > m2);
		assert_null(memmem(init, len, "insmod", 6));
		assert_null(memmem(init, len, "mount -t 9p", 11));
		/* init=PROG: the same setup, then PROG in the chroot */
		assert_non_null(memmem(init, len, "--dir '/tmp/kbench-results' "
			"--setup-only || fail", 48));
		assert_non_null(memmem(init, len, "exec /bin/busybox chroot "
			"/mnt/root \"${w#init=}\"", 47));
	}
	free(arch);

	/* a wanted module that is neither a module nor built in */
	{
		const char *w2[] = { "nope" };

		modules_free(&mods);
		assert_int_equal(modules_resolve(md, w2, 1, &mods, &missing),
				 -ENOENT);
		assert_string_equal(missing, "nope");
		free(missing);
	}
	free(a.p);
	free(b.p);
	free(c.p);
	free(ax.p);
	free(bz.p);
	free(cg.p);
	free(md);
	free(bb);
	free(cpio);
}

/* initramfs_build with one module file at path: its return code, *msg
 * the messages. */
static int build_one(const char *path, char **msg)
{
	char *bb = busybox_standin(), *cpio = kb_path_join(tmpdir, "bad.cpio");
	struct kb_modlist mods = { .n = 1 };
	struct kb_initramfs_opts o = { 0 };
	const char *gargv[] = { "/usr/bin/kbench", "guest", NULL };
	struct capture cap;
	int ret;

	mods.path[0] = (char *)path;
	mods.name[0] = "bad";
	o.busybox = bb;
	o.kbench = bb;
	o.guest_argv = gargv;
	o.mods = &mods;
	o.results_dir = "/tmp/kbench-results";
	cap_begin(&cap);
	ret = initramfs_build(cpio, &o);
	*msg = cap_end(&cap);
	assert_false(kb_exists(cpio));	/* nothing half-built */
	free(bb);
	free(cpio);
	return ret;
}

static void test_corrupt_modules(void **state)
{
	struct blob m = fake_module(4, 100000), x = enc_xz(&m);
	struct blob z = enc_zstd(&m);
	char *bad = kb_path_join(tmpdir, "bad/bad.ko.xz"), *msg;
	size_t i;

	(void)state;
	/* bytes changed in the middle of the xz stream */
	for (i = x.len / 2; i < x.len / 2 + 16; i++)
		x.p[i] ^= 0x5A;
	write_blob(tmpdir, "bad/bad.ko.xz", x.p, x.len);
	assert_int_equal(build_one(bad, &msg), -EBADMSG);
	assert_non_null(strstr(msg, bad));
	assert_non_null(strstr(msg, "xz"));
	free(msg);
	free(bad);

	/* a zstd module cut in half */
	bad = kb_path_join(tmpdir, "bad/half.ko.zst");
	write_blob(tmpdir, "bad/half.ko.zst", z.p, z.len / 2);
	assert_int_equal(build_one(bad, &msg), -EBADMSG);
	assert_non_null(strstr(msg, bad));
	assert_non_null(strstr(msg, "truncated"));
	free(msg);
	free(bad);

	/* a .ko.gz that is not gzip data */
	bad = kb_path_join(tmpdir, "bad/plain.ko.gz");
	write_blob(tmpdir, "bad/plain.ko.gz", m.p, m.len);
	assert_int_equal(build_one(bad, &msg), -EBADMSG);
	assert_non_null(strstr(msg, bad));
	assert_non_null(strstr(msg, "not gzip data"));
	free(msg);
	free(bad);

	/* a missing module file */
	bad = kb_path_join(tmpdir, "bad/absent.ko.xz");
	assert_int_equal(build_one(bad, &msg), -ENOENT);
	assert_non_null(strstr(msg, bad));
	free(msg);
	free(bad);
	free(m.p);
	free(x.p);
	free(z.p);
}

/* The cap on the output, plain data passed through, and several gzip
 * members / zstd frames read as one. */
static void test_decompress(void **state)
{
	struct blob m = fake_module(5, 100000), x = enc_xz(&m);
	struct blob g = enc_gzip(&m), z = enc_zstd(&m);
	unsigned char *two;
	char *out, *msg, *plain = kb_path_join(tmpdir, "plain.ko");
	size_t len;
	struct capture cap;

	(void)state;
	/* exactly at the cap: accepted; one byte less: refused */
	assert_int_equal(kb_decompress_buf("m.ko.xz", x.p, x.len, m.len,
					   &out, &len), 0);
	assert_int_equal(len, m.len);
	assert_memory_equal(out, m.p, m.len);
	free(out);
	cap_begin(&cap);
	assert_int_equal(kb_decompress_buf("m.ko.xz", x.p, x.len, m.len - 1,
					   &out, &len), -EFBIG);
	msg = cap_end(&cap);
	assert_null(out);
	assert_non_null(strstr(msg, "m.ko.xz"));
	assert_non_null(strstr(msg, "more than 99999 bytes"));
	free(msg);
	cap_begin(&cap);
	assert_int_equal(kb_decompress_buf("m.ko.zst", z.p, z.len, 4096,
					   &out, &len), -EFBIG);
	assert_int_equal(kb_decompress_buf("m.ko.gz", g.p, g.len, 4096,
					   &out, &len), -EFBIG);
	free(cap_end(&cap));

	/* two gzip members, two zstd frames: the concatenation */
	two = kb_xmalloc(2 * (g.len + z.len + x.len) + 4);
	memcpy(two, g.p, g.len);
	memcpy(two + g.len, g.p, g.len);
	assert_int_equal(kb_decompress_buf("m.gz", two, 2 * g.len,
					   KB_DECOMPRESS_MAX, &out, &len), 0);
	assert_int_equal(len, 2 * m.len);
	assert_memory_equal(out + m.len, m.p, m.len);
	free(out);
	memcpy(two, z.p, z.len);
	memcpy(two + z.len, z.p, z.len);
	assert_int_equal(kb_decompress_buf("m.zst", two, 2 * z.len,
					   KB_DECOMPRESS_MAX, &out, &len), 0);
	assert_int_equal(len, 2 * m.len);
	assert_memory_equal(out + m.len, m.p, m.len);
	free(out);
	/* trailing bytes after an xz stream */
	memcpy(two, x.p, x.len);
	memcpy(two + x.len, "junk", 4);
	cap_begin(&cap);
	assert_int_equal(kb_decompress_buf("m.xz", two, x.len + 4,
					   KB_DECOMPRESS_MAX, &out, &len),
			 -EBADMSG);
	free(cap_end(&cap));
	free(two);

	/* a plain module: as it is */
	write_blob(tmpdir, "plain.ko", m.p, m.len);
	assert_int_equal(kb_decompress_file(plain, &out, &len), 0);
	assert_int_equal(len, m.len);
	assert_memory_equal(out, m.p, m.len);
	free(out);
	free(plain);
	free(m.p);
	free(x.p);
	free(g.p);
	free(z.p);
}

/* A synthetic bzImage: "HdrS" at 0x202, boot protocol version, setup_sects
 * and syssize as given, the version string at 0x200 + 0x100; file_len
 * bytes in all. */
static char *write_bzimage(const char *name, unsigned setup_sects,
			   uint32_t syssize, unsigned version, size_t file_len)
{
	char *path = kb_path_join(tmpdir, name);
	unsigned char *img = kb_xcalloc(1, file_len);
	const char *ver = RELEASE " (kb@test) #1 SMP PREEMPT_DYNAMIC";

	assert_true(file_len >= 0x400);
	img[0x1F1] = (unsigned char)setup_sects;
	img[0x1F4] = (unsigned char)syssize;
	img[0x1F5] = (unsigned char)(syssize >> 8);
	img[0x1F6] = (unsigned char)(syssize >> 16);
	img[0x1F7] = (unsigned char)(syssize >> 24);
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = (unsigned char)version;
	img[0x207] = (unsigned char)(version >> 8);
	img[0x20E] = 0x00;
	img[0x20F] = 0x01;
	memcpy(img + 0x300, ver, strlen(ver) + 1);
	assert_int_equal(kb_write_atomic(path, img, file_len), 0);
	free(img);
	return path;
}

/* kernel_resolve of image: the code, *msg the messages. */
static int resolve(const char *image, char **msg)
{
	struct kb_variant v = { 0 };
	struct kb_kernel k;
	struct capture cap;
	int ret;

	v.name = "trunc";
	v.kernel = (char *)image;
	v.modules = tmpdir;
	cap_begin(&cap);
	ret = kernel_resolve(&v, &k);
	*msg = cap_end(&cap);
	if (!ret) {
		assert_string_equal(k.release, RELEASE);
		kernel_free(&k);
	}
	return ret;
}

static void test_bzimage_truncated(void **state)
{
	char *img, *msg, *want;

	(void)state;
	/* (1 + 1) * 512 + 0x100 * 16 = 5120 bytes said, 1024 there */
	img = write_bzimage("trunc", 1, 0x100, 0x020F, 0x400);
	assert_int_equal(resolve(img, &msg), -ENOEXEC);
	want = kb_xasprintf("variant 'trunc': kernel %s is truncated: the "
			    "setup header says 5120 bytes, the file has 1024",
			    img);
	assert_non_null(strstr(msg, want));
	free(want);
	free(msg);
	free(img);

	/* setup_sects 0 means 4: (4 + 1) * 512 = 2560 */
	img = write_bzimage("zero", 0, 0, 0x020F, 0x400);
	assert_int_equal(resolve(img, &msg), -ENOEXEC);
	assert_non_null(strstr(msg, "says 2560 bytes, the file has 1024"));
	free(msg);
	free(img);

	/* whole: accepted, and a longer file (a signature after) too */
	img = write_bzimage("whole", 1, 0x100, 0x020F, 5120);
	assert_int_equal(resolve(img, &msg), 0);
	free(msg);
	free(img);
	img = write_bzimage("signed", 1, 0x100, 0x020F, 5120 + 700);
	assert_int_equal(resolve(img, &msg), 0);
	free(msg);
	free(img);

	/* before boot protocol 2.04 syssize is 16 bits: the upper two bytes
	 * are not part of it */
	img = write_bzimage("old", 1, 0xFFFF0100u, 0x0203, 5120);
	assert_int_equal(resolve(img, &msg), 0);
	free(msg);
	free(img);
	img = write_bzimage("new", 1, 0xFFFF0100u, 0x0204, 5120);
	assert_int_equal(resolve(img, &msg), -ENOEXEC);
	assert_non_null(strstr(msg, "is truncated"));
	free(msg);
	free(img);

	/* not a bzImage at all: the "HdrS" message, unchanged */
	img = kb_path_join(tmpdir, "notbz");
	assert_int_equal(kb_write_atomic(img, "hello", 5), 0);
	assert_int_equal(resolve(img, &msg), -ENOEXEC);
	assert_non_null(strstr(msg, "no \"HdrS\""));
	free(msg);
	free(img);
}

/* kbench as /init (kb_initramfs_opts.kbench_init, a static kbench in a
 * 9p guest): /init a link to usr/bin/kbench, no busybox, no script, and
 * `kbench guest`'s arguments in the two argv files, byte for byte; a
 * self-contained guest keeps its script. */
static void test_kbench_init(void **state)
{
	char *md = kb_xasprintf("%s/lib/modules/init-test", tmpdir);
	char *bb = busybox_standin(), *cpio = kb_path_join(tmpdir, "k.cpio");
	char *missing = NULL, *arch = NULL;
	const char *dep = "kernel/x/null_blk.ko: kernel/x/configfs.ko\n"
			  "kernel/x/configfs.ko:\n";
	const char *want[] = { "null_blk" };
	const char *gargv[] = { "/usr/bin/kbench", "guest", "--dir", "/c d",
		"--variant", "v1", "--runs", "/c d/boots/001-v1/runs.txt",
		NULL };
	static const char guest_want[] = "guest\0"
		"--load-module\0/modules/00-configfs.ko\0"
		"--load-module\0/modules/01-null_blk.ko queue_mode=2 "
		"irqmode=0\0"
		"--mount-9p\0/mnt/root\0--dir\0/c d\0--variant\0v1\0"
		"--runs\0/c d/boots/001-v1/runs.txt\0";
	static const char setup_want[] = "guest\0"
		"--load-module\0/modules/00-configfs.ko\0"
		"--load-module\0/modules/01-null_blk.ko queue_mode=2 "
		"irqmode=0\0"
		"--mount-9p\0/mnt/root\0--dir\0/c d\0--setup-only\0";
	struct blob m1 = fake_module(4, 70000), m2 = fake_module(5, 70000);
	struct kb_modlist mods;
	struct kb_initramfs_opts o = { 0 };
	struct kb_guest_payload pl = { 0 };
	struct kb_pathlist files = { 0 };
	size_t alen = 0, len = 0;
	const char *d;

	(void)state;
	write_blob(md, "kernel/x/null_blk.ko", m1.p, m1.len);
	write_blob(md, "kernel/x/configfs.ko", m2.p, m2.len);
	write_blob(md, "modules.dep", dep, strlen(dep));
	assert_int_equal(modules_resolve(md, want, 1, &mods, &missing), 0);
	base_opts(&o, bb, &mods, gargv, "/c d");
	o.nullblk_params = "queue_mode=2 irqmode=0";
	o.kbench_init = 1;
	assert_int_equal(initramfs_build(cpio, &o), 0);
	assert_int_equal(kb_read_file(cpio, &arch, &alen, 0), 0);
	d = cpio_find(arch, alen, "init", &len);
	assert_non_null(d);
	assert_int_equal(cpio_mode(arch, alen, "init") & 0170000, 0120000);
	assert_int_equal(len, strlen("usr/bin/kbench"));
	assert_memory_equal(d, "usr/bin/kbench", len);
	assert_non_null(cpio_find(arch, alen, "usr/bin/kbench", &len));
	assert_null(cpio_find(arch, alen, "bin/busybox", &len));
	assert_int_equal(cpio_mode(arch, alen, "dev/console") & 0170000,
			 0020000);
	d = cpio_find(arch, alen, KB_INIT_GUEST_ARGV + 1, &len);
	assert_non_null(d);
	assert_int_equal(len, sizeof(guest_want) - 1);
	assert_memory_equal(d, guest_want, len);
	d = cpio_find(arch, alen, KB_INIT_SETUP_ARGV + 1, &len);
	assert_non_null(d);
	assert_int_equal(len, sizeof(setup_want) - 1);
	assert_memory_equal(d, setup_want, len);
	free(arch);
	arch = NULL;

	/* self-contained: the busybox script whatever kbench_init says */
	pl.fio = bb;
	pl.files = &files;
	pl.runs_file = "/c d/boots/001-v1/runs.txt";
	o.payload = &pl;
	assert_int_equal(initramfs_build(cpio, &o), 0);
	assert_int_equal(kb_read_file(cpio, &arch, &alen, 0), 0);
	assert_int_equal(cpio_mode(arch, alen, "init") & 0170000, 0100000);
	assert_non_null(cpio_find(arch, alen, "bin/busybox", &len));
	assert_null(cpio_find(arch, alen, KB_INIT_GUEST_ARGV + 1, &len));
	free(arch);
	modules_free(&mods);
	free(m1.p);
	free(m2.p);
	free(md);
	free(bb);
	free(cpio);
}

/* A module signed as scripts/sign-file.c signs it: the PKCS#7 bytes,
 * struct module_signature (id_type 2 at 2, sig_len big-endian at 8),
 * the marker. */
static struct blob signed_module(const struct blob *m, size_t siglen,
				 unsigned char id_type)
{
	static const char marker[] = "~Module signature appended~\n";
	size_t ml = sizeof(marker) - 1;
	struct blob b = { kb_xmalloc(m->len + siglen + 12 + ml), 0 };
	unsigned char h[12] = { 0 };

	memcpy(b.p, m->p, m->len);
	memset(b.p + m->len, 0x30, siglen);
	h[2] = id_type;
	h[8] = (unsigned char)(siglen >> 24);
	h[9] = (unsigned char)(siglen >> 16);
	h[10] = (unsigned char)(siglen >> 8);
	h[11] = (unsigned char)siglen;
	memcpy(b.p + m->len + siglen, h, 12);
	memcpy(b.p + m->len + siglen + 12, marker, ml);
	b.len = m->len + siglen + 12 + ml;
	return b;
}

/* runner/initramfs.h module_sig_len(): a real Debian module (its ELF
 * ends where its section header table ends), synthetic ones signed as
 * sign-file signs, malformed trailers kept whole; initramfs_build() with
 * strip_module_sig puts the unsigned module in (after decompressing),
 * without it the signed one. */
static void test_module_signature(void **state)
{
	char *ko = NULL, *md = kb_xasprintf("%s/sigmods/lib/modules/" RELEASE,
					    tmpdir);
	char *bb = busybox_standin(), *cpio = kb_path_join(tmpdir, "s.cpio");
	char *arch = NULL, *missing = NULL;
	size_t klen = 0, alen = 0, cut;
	uint64_t shoff;
	uint16_t shentsize, shnum;
	struct blob m = fake_module(7, 90000), sm = signed_module(&m, 543, 2);
	struct blob bad_len = signed_module(&m, 543, 2);
	struct blob bad_id = signed_module(&m, 543, 1), smx;
	const char *dep = "kernel/x/s.ko.xz:\n";
	const char *want[] = { "s" };
	const char *gargv[] = { "/usr/bin/kbench", "guest", NULL };
	struct kb_modlist mods;
	struct kb_initramfs_opts o = { 0 };

	(void)state;
	/* Debian 6.1's virtio_pci_legacy_dev.ko (tests/data/modules) */
	assert_int_equal(kb_read_file("tests/data/modules/"
				      "virtio_pci_legacy_dev.ko", &ko, &klen,
				      0), 0);
	assert_true(klen > 0x40);
	memcpy(&shoff, ko + 0x28, 8);
	memcpy(&shentsize, ko + 0x3a, 2);
	memcpy(&shnum, ko + 0x3c, 2);
	cut = module_sig_len(ko, klen);
	assert_true(cut > 0);
	assert_int_equal(klen - cut, shoff + (uint64_t)shentsize * shnum);
	assert_int_equal(module_sig_len(ko, klen - cut), 0);
	free(ko);

	/* synthetic: the whole trailer; nothing on an unsigned module */
	assert_int_equal(module_sig_len((char *)sm.p, sm.len), 543 + 12 + 28);
	assert_int_equal(module_sig_len((char *)m.p, m.len), 0);
	assert_int_equal(module_sig_len((char *)sm.p, 20), 0);
	/* sig_len past the start of the file, another id_type: kept */
	bad_len.p[bad_len.len - 28 - 4] = 0x7f;
	assert_int_equal(module_sig_len((char *)bad_len.p, bad_len.len), 0);
	assert_int_equal(module_sig_len((char *)bad_id.p, bad_id.len), 0);
	/* a signer length in a PKCS#7 trailer: the kernel refuses it, kept */
	bad_id.p[bad_id.len - 28 - 12 + 2] = 2;
	bad_id.p[bad_id.len - 28 - 12 + 3] = 5;
	assert_int_equal(module_sig_len((char *)bad_id.p, bad_id.len), 0);

	/* into the archive: decompressed, then unsigned on request; signed
	 * twice, both trailers go */
	free(sm.p);
	{
		struct blob once = signed_module(&m, 543, 2);

		sm = signed_module(&once, 300, 2);
		free(once.p);
	}
	smx = enc_xz(&sm);
	write_blob(md, "kernel/x/s.ko.xz", smx.p, smx.len);
	write_blob(md, "modules.dep", dep, strlen(dep));
	assert_int_equal(modules_resolve(md, want, 1, &mods, &missing), 0);
	base_opts(&o, bb, &mods, gargv, "/tmp/kbench-results");
	assert_int_equal(initramfs_build(cpio, &o), 0);
	assert_int_equal(kb_read_file(cpio, &arch, &alen, 0), 0);
	assert_entry(arch, alen, "modules/00-s.ko", &sm);
	free(arch);
	o.strip_module_sig = 1;
	assert_int_equal(initramfs_build(cpio, &o), 0);
	assert_int_equal(kb_read_file(cpio, &arch, &alen, 0), 0);
	assert_entry(arch, alen, "modules/00-s.ko", &m);
	free(arch);
	modules_free(&mods);
	free(m.p);
	free(sm.p);
	free(smx.p);
	free(bad_len.p);
	free(bad_id.p);
	free(md);
	free(bb);
	free(cpio);
}

/* kernel_module_sig_strip(k, cmdline) returns want, and its reason has
 * each of the NULL-terminated substrings that follow. */
static void expect_sig(const struct kb_kernel *k, const char *cmdline,
		       int want, ...)
{
	char *why = NULL;
	const char *sub;
	va_list ap;

	assert_int_equal(kernel_module_sig_strip(k, cmdline, &why), want);
	assert_non_null(why);
	va_start(ap, want);
	while ((sub = va_arg(ap, const char *)))
		if (!strstr(why, sub))
			fail_msg("reason '%s' lacks '%s'", why, sub);
	va_end(ap);
	free(why);
}

/* runner/kernel_img.h kernel_module_sig_strip(): strip only when the
 * kernel's config is found and checks signatures without forcing them,
 * and the variant's command line does not ask for them. */
static void test_module_sig_policy(void **state)
{
	char *base = kb_xasprintf("%s/sigpolicy", tmpdir);
	char *boot = kb_path_join(base, "boot");
	char *img = kb_path_join(boot, "vmlinuz-" RELEASE);
	char *tree = kb_path_join(base, "tree");
	char *treeimg = kb_path_join(tree, "arch/x86/boot/bzImage");
	char *md = kb_path_join(base, "lib/modules/" RELEASE);
	const char *sig = "CONFIG_MODULES=y\nCONFIG_MODULE_SIG_FORMAT=y\n"
			  "CONFIG_MODULE_SIG=y\n# CONFIG_MODULE_SIG_FORCE is "
			  "not set\nCONFIG_MODULE_SIG_ALL=y\n";
	const char *force = "CONFIG_MODULE_SIG=y\nCONFIG_MODULE_SIG_FORCE=y\n";
	const char *unsig = "# CONFIG_MODULE_SIG is not set\n"
			    "CONFIG_MODULE_SIG_ALL=y\nCONFIG_MODULE_SIG_KEY=\"x\"\n";
	const char *lockdown = "CONFIG_MODULE_SIG=y\n"
			       "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY=y\n";
	const char *builtin = "CONFIG_MODULE_SIG=y\nCONFIG_CMDLINE_BOOL=y\n"
			      "CONFIG_CMDLINE=\"quiet module.sig_enforce\"\n";
	struct kb_kernel k = { 0 };

	(void)state;
	write_blob(boot, "vmlinuz-" RELEASE, "bz", 2);
	k.image = img;
	k.release = (char *)RELEASE;

	/* no config anywhere: kept, and said */
	expect_sig(&k, NULL, 0, "config was not found", NULL);

	write_blob(boot, "config-" RELEASE, sig, strlen(sig));
	expect_sig(&k, NULL, 1, "config-" RELEASE, "taints itself 'E'", NULL);
	/* the command line asks for signatures: kept */
	expect_sig(&k, "quiet module.sig_enforce=1", 0, "module.sig_enforce",
		   NULL);
	expect_sig(&k, "lockdown=integrity", 0, NULL);
	/* a word that only contains the name is not it */
	expect_sig(&k, "xmodule.sig_enforce=1 nolockdown=1 "
		   "module.sig_enforcex", 1, NULL);
	/* '-' and '_' alike, as the kernel compares parameter names; a
	 * false value does not ask; IMA appraisal keeps them */
	expect_sig(&k, "module.sig-enforce=1", 0, NULL);
	expect_sig(&k, "module.sig_enforce=0 module.sig_enforce=off "
		   "module.sig_enforce=", 1, NULL);
	expect_sig(&k, "module.sig_enforce=on", 0, NULL);
	expect_sig(&k, "ima_policy=secure_boot", 0, "IMA", NULL);

	write_blob(boot, "config-" RELEASE, force, strlen(force));
	expect_sig(&k, NULL, 0, "CONFIG_MODULE_SIG_FORCE=y", NULL);
	/* locked down from boot by the config, or by its built-in cmdline */
	write_blob(boot, "config-" RELEASE, lockdown, strlen(lockdown));
	expect_sig(&k, NULL, 0, "CONFIG_LOCK_DOWN_KERNEL_FORCE", NULL);
	write_blob(boot, "config-" RELEASE, builtin, strlen(builtin));
	expect_sig(&k, NULL, 0, "built-in CONFIG_CMDLINE has "
		   "module.sig_enforce", NULL);
	/* CONFIG_MODULE_SIG_ALL=y is not CONFIG_MODULE_SIG=y */
	write_blob(boot, "config-" RELEASE, unsig, strlen(unsig));
	expect_sig(&k, NULL, 0, "checks no signature", NULL);

	/* a kernel tree's .config, three levels above its bzImage */
	write_blob(tree, "arch/x86/boot/bzImage", "bz", 2);
	write_blob(tree, ".config", force, strlen(force));
	k.image = treeimg;
	expect_sig(&k, NULL, 0, "/.config: CONFIG_MODULE_SIG_FORCE", NULL);
	write_blob(tree, ".config", sig, strlen(sig));
	expect_sig(&k, NULL, 1, NULL);
	/* MODULES/build/.config (the image somewhere else) */
	k.image = (char *)"vmlinuz";
	k.moddir = md;
	write_blob(md, "build/.config", sig, strlen(sig));
	expect_sig(&k, NULL, 1, "build/.config", NULL);

	free(base);
	free(boot);
	free(img);
	free(tree);
	free(treeimg);
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compressed_modules),
		cmocka_unit_test(test_corrupt_modules),
		cmocka_unit_test(test_decompress),
		cmocka_unit_test(test_bzimage_truncated),
		cmocka_unit_test(test_kbench_init),
		cmocka_unit_test(test_module_signature),
		cmocka_unit_test(test_module_sig_policy),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
