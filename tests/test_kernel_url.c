/* tests/test_kernel_url.c - kernel = URL (with sha256 =) and modules =
 * URL of a tarball for the vm and kexec drivers (runner/kernel_img.c,
 * push/fetch.c), with file:// URLs and a synthetic bzImage: the x86 boot
 * protocol's "HdrS" at 0x202 and the version string at 0x200 + the
 * 16-bit offset at 0x20E (Documentation/arch/x86/boot.rst). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/kconf.h"
#include "push/fetch.h"
#include "runner/kernel_img.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/kbench-test-kurl.XXXXXX";

#define RELEASE "6.1.0-kbtest"

static char *fake_bzimage_of(const char *name, const char *ver)
{
	char *path = kb_path_join(tmpdir, name);
	unsigned char img[0x400] = { 0 };

	img[0x1F1] = 1;		/* setup_sects: 2 * 512 bytes, the whole file */
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20E] = 0x00;	/* version string at 0x200 + 0x100 */
	img[0x20F] = 0x01;
	memcpy(img + 0x300, ver, strlen(ver) + 1);
	assert_int_equal(kb_write_atomic(path, img, sizeof(img)), 0);
	return path;
}

static char *fake_bzimage(void)
{
	return fake_bzimage_of("bzImage", RELEASE " (kb@test) #1 SMP "
			       "PREEMPT_DYNAMIC");
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(tmpdir));
	setenv("KBENCH_CACHE", tmpdir, 1);
	kb_quiet = 1;
	return 0;
}

static void test_kernel_url_sha256(void **state)
{
	char *img = fake_bzimage(), *url = kb_xasprintf("file://%s", img);
	char hex[65];
	struct kb_variant v = { 0 };
	struct kb_kernel k;

	(void)state;
	assert_int_equal(fetch_sha256_file(img, hex), 0);
	v.name = "url";
	v.kernel = url;
	v.sha256 = hex;
	assert_int_equal(kernel_resolve(&v, &k), 0);
	/* fetched into the cache, not used in place, root's alone (a
	 * file:// source may be unreadable to others) */
	assert_non_null(strstr(k.image, "/urls/"));
	{
		struct stat st;

		assert_int_equal(stat(k.image, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0600);
	}
	assert_string_equal(k.release, RELEASE);
	assert_non_null(strstr(k.build, "#1 SMP"));
	kernel_free(&k);

	/* a wrong sha256: the cached copy does not match, the download
	 * does not either: refused (-EBADMSG), nothing resolved */
	v.sha256 = "0000000000000000000000000000000000000000000000000000000000000000";
	assert_int_equal(kernel_resolve(&v, &k), -EBADMSG);
	assert_null(k.image);
	free(url);
	free(img);
}

static void test_modules_tarball(void **state)
{
	char *img = fake_bzimage(), *url = kb_xasprintf("file://%s", img);
	char *root = kb_path_join(tmpdir, "modroot");
	char *md = kb_xasprintf("%s/lib/modules/" RELEASE, root);
	char *dep = kb_path_join(md, "modules.dep");
	char *tgz = kb_path_join(tmpdir, "mods.tar.gz");
	char *murl = kb_xasprintf("file://%s", tgz);
	char *tar[] = { "tar", "-czf", tgz, "-C", root, "lib", NULL };
	struct kb_spawn_result r;
	struct kb_variant v = { 0 };
	struct kb_kernel k;

	(void)state;
	assert_int_equal(kb_mkdir_p(md), 0);
	assert_int_equal(kb_write_atomic(dep, "kernel/x.ko:\n", 13), 0);
	assert_int_equal(kb_spawn(tar, NULL, &r), 0);
	assert_true(r.exited && r.exit_status == 0);

	v.name = "mods";
	v.kernel = url;
	v.modules = murl;
	assert_int_equal(kernel_resolve(&v, &k), 0);
	assert_non_null(k.moddir);
	assert_non_null(strstr(k.moddir, "/unpacked/"));
	assert_non_null(strstr(k.moddir, "lib/modules/" RELEASE));
	{
		char *d = kb_path_join(k.moddir, "modules.dep");

		assert_true(kb_exists(d));
		free(d);
	}
	kernel_free(&k);

	/* a tarball without the kernel's release: a clear refusal */
	{
		char *bad = kb_path_join(tmpdir, "bad.tar.gz");
		char *burl = kb_xasprintf("file://%s", bad);
		char *t2[] = { "tar", "-czf", bad, "-C", tmpdir, "bzImage", NULL };

		assert_int_equal(kb_spawn(t2, NULL, &r), 0);
		v.modules = burl;
		assert_int_equal(kernel_resolve(&v, &k), -ENOENT);
		free(bad);
		free(burl);
	}
	free(img);
	free(url);
	free(root);
	free(md);
	free(dep);
	free(tgz);
	free(murl);
}

/* root's lib/ as tmpdir/name, a .tar.gz; its file:// URL (malloc'd). */
static char *tar_url(const char *name, const char *root)
{
	char *tgz = kb_path_join(tmpdir, name), *u;
	char *tar[] = { "tar", "-czf", tgz, "-C", (char *)root, "lib", NULL };
	struct kb_spawn_result r;

	assert_int_equal(kb_spawn(tar, NULL, &r), 0);
	assert_true(r.exited && r.exit_status == 0);
	u = kb_xasprintf("file://%s", tgz);
	free(tgz);
	return u;
}

/* A downloaded modules tarball is someone else's content, unpacked as
 * root: its lib/modules/RELEASE a symlink out of the cache made depmod -b
 * write modules.dep (and 11 more) wherever it pointed; its setuid-root
 * file stayed setuid and its device node was reachable by every user. */
static void test_modules_tarball_hostile(void **state)
{
	char *img = fake_bzimage(), *url = kb_xasprintf("file://%s", img);
	char *root = kb_path_join(tmpdir, "evilroot");
	char *lm = kb_path_join(root, "lib/modules");
	char *out = kb_path_join(tmpdir, "outside");
	char *outdep = kb_path_join(out, "modules.dep");
	char *link = kb_path_join(lm, RELEASE);
	char *sroot = kb_path_join(tmpdir, "suidroot"), *murl, *surl;
	char *md = kb_xasprintf("%s/lib/modules/" RELEASE, sroot);
	char *suid = kb_path_join(md, "suid"), *dev = kb_path_join(md, "null");
	struct kb_variant v = { 0 };
	struct kb_kernel k;
	struct stat st;

	(void)state;
	assert_int_equal(kb_mkdir_p(lm), 0);
	assert_int_equal(kb_mkdir_p(out), 0);
	assert_int_equal(symlink(out, link), 0);
	murl = tar_url("evil.tar.gz", root);
	v.name = "evil";
	v.kernel = url;
	v.modules = murl;
	assert_int_equal(kernel_resolve(&v, &k), -EINVAL);
	assert_null(k.moddir);
	assert_false(kb_exists(outdep));	/* depmod wrote nothing there */

	/* setuid and a device node: not as the archive says, and the
	 * unpacked trees are root's alone */
	assert_int_equal(kb_mkdir_p(md), 0);
	assert_int_equal(kb_write_atomic(suid, "#!/bin/sh\n", 10), 0);
	assert_int_equal(chmod(suid, 04755), 0);
	assert_int_equal(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(chmod(dev, 0666), 0);
	surl = tar_url("suid.tar.gz", sroot);
	v.modules = surl;
	assert_int_equal(kernel_resolve(&v, &k), 0);
	{
		char *f = kb_path_join(k.moddir, "suid");
		char *u = kb_path_join(tmpdir, "unpacked");

		assert_int_equal(lstat(f, &st), 0);
		assert_int_equal(st.st_mode & 07000, 0);
		free(f);
		f = kb_path_join(k.moddir, "null");
		assert_int_equal(lstat(f, &st), 0);
		assert_int_equal(st.st_mode & 0077 & ~0055, 0);	/* not 0666 */
		free(f);
		assert_int_equal(stat(u, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0700);
		free(u);
	}
	kernel_free(&k);
	free(img);
	free(url);
	free(root);
	free(lm);
	free(out);
	free(outdep);
	free(link);
	free(murl);
	free(sroot);
	free(md);
	free(suid);
	free(dev);
	free(surl);
}

/* The release in a bzImage's version string (a downloaded one, say) goes
 * into paths (/lib/modules/RELEASE, depmod -b DIR RELEASE): one with a
 * '/' or a "..", or a blank, is refused. */
static void test_release_not_a_path(void **state)
{
	const char *bad[] = { "../../../../etc (a@b) #1", "a/b (a@b) #1",
			      ".. (a@b) #1", "6.1\x1b[31m (a@b) #1" };
	struct kb_variant v = { 0 };
	struct kb_kernel k;
	size_t i;

	(void)state;
	v.name = "rel";
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *img = fake_bzimage_of("badrel", bad[i]);

		v.kernel = img;
		assert_int_equal(kernel_resolve(&v, &k), -EINVAL);
		assert_null(k.image);
		free(img);
	}
}

static void test_kconf_url_keys(void **state)
{
	struct kb_config cfg;
	const char *ok =
		"[global]\njobs = j\ntarget = null_blk:\n"
		"[v]\nmethod = vm\nkernel = https://build.example.org/bzImage\n"
		"sha256 = 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n"
		"modules = https://build.example.org/modules.tar.xz\n";
	const char *bad =
		"[global]\njobs = j\ntarget = null_blk:\n"
		"[v]\nmethod = vm\nkernel = https://build.example.org/bzImage\n"
		"sha256 = abc\n";

	(void)state;
	assert_int_equal(kconf_parse("ok.conf", ok, &cfg), 0);
	assert_string_equal(cfg.variants[0].kernel,
			    "https://build.example.org/bzImage");
	assert_string_equal(cfg.variants[0].modules,
			    "https://build.example.org/modules.tar.xz");
	assert_int_equal(strlen(cfg.variants[0].sha256), 64);
	kconf_free(&cfg);
	assert_int_equal(kconf_parse("bad.conf", bad, &cfg), -EINVAL);
}

static int teardown(void **state)
{
	char *argv[] = { "rm", "-rf", tmpdir, NULL };
	struct kb_spawn_result r;

	(void)state;
	kb_spawn(argv, NULL, &r);
	return 0;
}

static void test_deb_concrete(void **state)
{
	(void)state;
	assert_true(deb_is_concrete("linux-image-6.1.0-57-amd64"));
	assert_true(deb_is_concrete("linux-image-6.12.117+deb12-amd64"));
	assert_true(deb_is_concrete("linux-image-6.8.0-31-generic"));
	/* metapackages: apt-cache depends names the build */
	assert_false(deb_is_concrete("linux-image-amd64"));
	assert_false(deb_is_concrete("linux-image-6.12-amd64"));
	assert_false(deb_is_concrete("linux-image-6-amd64"));
	assert_false(deb_is_concrete("linux-image-cloud-amd64"));
	assert_false(deb_is_concrete("linux-headers-6.1.0-57-amd64"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_url_sha256),
		cmocka_unit_test(test_modules_tarball),
		cmocka_unit_test(test_modules_tarball_hostile),
		cmocka_unit_test(test_release_not_a_path),
		cmocka_unit_test(test_kconf_url_keys),
		cmocka_unit_test(test_deb_concrete),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
