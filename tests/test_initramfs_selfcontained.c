/* tests/test_initramfs_selfcontained.c - the self-contained vm guest (a
 * kernel without 9p): the results archive the host reads back from the
 * guest's results disk (runner/results_disk.c: members checked before
 * anything is written; absolute paths, '..', paths outside this boot's
 * runs, links and devices, truncated archives and sizes past the end of
 * the disk refused), ldd output parsed and the libraries of /usr/bin/fio
 * resolved (libc and the loader among them), and the initramfs that
 * carries fio, kbench, their libraries at the host's paths (symbolic
 * links kept) and the campaign files, with an /init that writes the
 * results onto the disk with serial kbresults.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "put_file.h"

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "runner/guest_setup.h"
#include "runner/initramfs.h"
#include "runner/results_disk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/kbench-test-selfc.XXXXXX";

static const char *const keys[] = { "a,NM=0/randread-4k/000",
				    "b/randread-4k/001" };

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

/* --- archives --- */

struct member {
	const char *name;
	unsigned mode;
	const char *data;
};

/* Write members (then the trailer unless no_trailer, then zeros to a
 * disk's size when pad) to tmpdir/NAME; the path (malloc'd). */
static char *archive(const char *name, const struct member *m, size_t n,
		     int no_trailer, size_t pad)
{
	char *path = kb_path_join(tmpdir, name);
	FILE *f = fopen(path, "w");
	struct kb_cpio c;
	size_t i;

	assert_non_null(f);
	cpio_begin(&c, f);
	for (i = 0; i < n; i++)
		cpio_add(&c, m[i].name, m[i].mode, m[i].data,
			 m[i].data ? strlen(m[i].data) : 0, 0, 0);
	if (!no_trailer)
		assert_int_equal(cpio_end(&c), 0);
	assert_int_equal(c.err, 0);
	assert_int_equal(fflush(f), 0);
	if (pad) {
		long at = ftell(f);

		assert_true(at >= 0 && (size_t)at <= pad);
		assert_int_equal(ftruncate(fileno(f), (off_t)pad), 0);
	}
	fclose(f);
	return path;
}

/* results_extract into a fresh campaign directory tmpdir/CAMP; its return
 * code, *why kept (malloc'd) when why is not NULL. */
static int extract(const char *img, const char *camp, size_t *nfiles,
		   char **why)
{
	char *dir = kb_path_join(tmpdir, camp), *w = NULL;
	size_t nf = 0;
	int ret;

	assert_int_equal(kb_mkdir_p(dir), 0);
	ret = results_extract(img, dir, keys, 2, &nf, &w);
	if (nfiles)
		*nfiles = nf;
	if (ret)
		assert_non_null(w);
	else
		assert_null(w);
	if (why)
		*why = w;
	else
		free(w);
	free(dir);
	return ret;
}

static char *camp_file(const char *camp, const char *rel)
{
	char *d = kb_path_join(tmpdir, camp), *p = kb_path_join(d, rel);

	free(d);
	return p;
}

static void assert_file(const char *camp, const char *rel, const char *want)
{
	char *p = camp_file(camp, rel), *text = NULL;

	assert_int_equal(kb_read_file(p, &text, NULL, 0), 0);
	assert_string_equal(text, want);
	free(text);
	free(p);
}

static void assert_absent(const char *camp, const char *rel)
{
	char *p = camp_file(camp, rel);

	assert_false(kb_exists(p));
	free(p);
}

/* What busybox `find runs/KEY | cpio -o -H newc` writes, plus find's own
 * "." and a "./" prefix, on a 1 MiB disk: extracted, byte for byte. */
static void test_extract_ok(void **state)
{
	static const struct member m[] = {
		{ ".", S_IFDIR | 0755, NULL },
		{ "runs/a,NM=0/randread-4k/000", S_IFDIR | 0755, NULL },
		{ "runs/a,NM=0/randread-4k/000/metrics.json", S_IFREG | 0644,
		  "{\"status\": \"ok\"}\n" },
		{ "runs/a,NM=0/randread-4k/000/empty", S_IFREG | 0644, "" },
		{ "./runs/b/randread-4k/001/sub/fio.json", S_IFREG | 0644,
		  "{\"jobs\": [1, 22, 333]}" },
	};
	char *img = archive("ok.img", m, 5, 0, 1 << 20);
	size_t nf = 0;

	(void)state;
	assert_int_equal(extract(img, "ok", &nf, NULL), 0);
	assert_int_equal(nf, 3);
	assert_file("ok", "runs/a,NM=0/randread-4k/000/metrics.json",
		    "{\"status\": \"ok\"}\n");
	assert_file("ok", "runs/a,NM=0/randread-4k/000/empty", "");
	assert_file("ok", "runs/b/randread-4k/001/sub/fio.json",
		    "{\"jobs\": [1, 22, 333]}");
	free(img);
}

/* One hostile member after a good one: the whole archive is refused,
 * the good member is not written either, and why names the member. */
static void hostile(const char *name, unsigned mode, const char *data,
		    const char *want_why)
{
	struct member m[2] = {
		{ "runs/b/randread-4k/001/good", S_IFREG | 0644, "good" },
		{ name, mode, data },
	};
	char *img = archive("hostile.img", m, 2, 0, 1 << 20), *why = NULL;
	char *camp = kb_xasprintf("hostile-%d", (int)(rand() % 1000000));

	assert_int_equal(extract(img, camp, NULL, &why), -EINVAL);
	if (!strstr(why, want_why) || !strstr(why, "member 2"))
		fail_msg("member '%s': why = '%s', expected '%s'", name, why,
			 want_why);
	assert_absent(camp, "runs/b/randread-4k/001/good");
	free(why);
	free(camp);
	free(img);
}

static void test_extract_hostile(void **state)
{
	(void)state;
	hostile("/etc/passwd", S_IFREG | 0644, "x", "an absolute path");
	hostile("/tmp/runs/b/randread-4k/001/x", S_IFREG | 0644, "x",
		"an absolute path");
	hostile("runs/b/randread-4k/001/../../../../etc/cron.d/x",
		S_IFREG | 0644, "x", "a '..' component");
	hostile("../outside", S_IFREG | 0644, "x", "a '..' component");
	hostile("./../outside", S_IFREG | 0644, "x", "a '..' component");
	hostile("runs/b/randread-4k/001/..", S_IFDIR | 0755, NULL,
		"a '..' component");
	hostile("state.json", S_IFREG | 0644, "{}", "outside runs/");
	hostile("campaign.json", S_IFREG | 0644, "{}", "outside runs/");
	hostile("runs/c/randread-4k/000/metrics.json", S_IFREG | 0644, "{}",
		"not under the run directory of a run of this boot");
	/* a key's prefix is not the key */
	hostile("runs/b/randread-4k/0010/metrics.json", S_IFREG | 0644, "{}",
		"not under the run directory");
	hostile("runs/b/randread-4k", S_IFDIR | 0755, NULL,
		"not under the run directory");
	hostile("runs/b/randread-4k/001//x", S_IFREG | 0644, "x",
		"an empty path component");
	hostile("runs/b/randread-4k/001/./x", S_IFREG | 0644, "x",
		"a '.' component");
	hostile("runs/b/randread-4k/001", S_IFREG | 0644, "x",
		"a file in the place of a run directory");
	hostile("runs/b/randread-4k/001/link", S_IFLNK | 0777, "/etc/passwd",
		"a symbolic link");
	hostile("runs/b/randread-4k/001/dev", S_IFCHR | 0600, NULL,
		"neither a regular file nor a directory");
	hostile("runs/b/randread-4k/001/fifo", S_IFIFO | 0600, NULL,
		"neither a regular file nor a directory");
	hostile("runs/b/randread-4k/001/d", S_IFDIR | 0755, "data",
		"a directory with data");
	hostile("runs/b/randread-4k/001/\033[2Jx", S_IFREG | 0644, "x",
		"001/?[2Jx' refused: a control character in its name");
}

/* The archive cut at every length: refused as truncated (never a crash,
 * never a partial extraction); a blank disk: no archive (-ENODATA). */
static void test_extract_truncated(void **state)
{
	static const struct member m[] = {
		{ "runs/b/randread-4k/001", S_IFDIR | 0755, NULL },
		{ "runs/b/randread-4k/001/metrics.json", S_IFREG | 0644,
		  "{\"status\": \"ok\", \"metrics\": {}}\n" },
	};
	char *img = archive("trunc.img", m, 2, 0, 0), *full = NULL, *why;
	char *cut = kb_path_join(tmpdir, "cut.img");
	size_t len = 0, at;
	int ret;

	(void)state;
	assert_int_equal(kb_read_file(img, &full, &len, 0), 0);
	for (at = 0; at < len; at++) {
		assert_int_equal(kb_write_atomic(cut, full, at), 0);
		ret = extract(cut, "trunc", NULL, &why);
		if (ret == 0) {	/* only once the trailer's name is in */
			assert_true(at >= len - 12);
			continue;
		}
		if (at < 110)
			assert_int_equal(ret, -ENODATA);
		else if (ret != -EINVAL || !strstr(why, "truncated"))
			fail_msg("cut at %zu of %zu: %d, %s", at, len, ret, why);
		free(why);
		if (at >= 110)
			assert_absent("trunc",
				      "runs/b/randread-4k/001/metrics.json");
	}
	/* no trailer, then zeros to the end of the disk */
	free(img);
	img = archive("notrailer.img", m, 2, 1, 4096);
	assert_int_equal(extract(img, "trunc", NULL, &why), -EINVAL);
	assert_non_null(strstr(why, "without its trailer"));
	free(why);
	free(img);
	img = archive("notrailer2.img", m, 2, 1, 0);
	assert_int_equal(extract(img, "trunc", NULL, &why), -EINVAL);
	assert_non_null(strstr(why, "truncated"));
	free(why);
	/* blank disk: the guest wrote nothing */
	free(img);
	img = archive("blank.img", m, 0, 1, 1 << 20);
	assert_int_equal(extract(img, "trunc", NULL, &why), -ENODATA);
	assert_non_null(strstr(why, "no results archive"));
	free(why);
	/* no disk at all */
	assert_int_equal(extract("/nonexistent/results.img", "trunc", NULL,
				 &why), -ENOENT);
	free(why);
	free(full);
	free(img);
	free(cut);
}

/* A hand-made header: the 13 fields given (mode, filesize, namesize
 * from the arguments), then name and data as they are. */
static char *raw_member(const char *file, const char *magic, unsigned mode,
			unsigned long fsize, unsigned long nsize,
			const char *name, const char *data, size_t pad)
{
	char *path = kb_path_join(tmpdir, file);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "%s%08X%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08lX%08X",
		magic, 1u, mode, 0u, 0u, 1u, 0u, fsize, 0u, 0u, 0u, 0u, nsize,
		0u);
	fwrite(name, 1, strlen(name) + 1, f);
	fputs(data, f);
	fflush(f);
	if (pad)
		assert_int_equal(ftruncate(fileno(f), (off_t)pad), 0);
	fclose(f);
	return path;
}

static void refused(char *img, const char *want)
{
	char *why = NULL;

	assert_int_equal(extract(img, "huge", NULL, &why), -EINVAL);
	if (!strstr(why, want))
		fail_msg("why = '%s', expected '%s'", why, want);
	free(why);
	free(img);
}

static void test_extract_huge(void **state)
{
	const char *ok = "runs/b/randread-4k/001/x";

	(void)state;
	/* sizes past the end of a 64 KiB disk */
	refused(raw_member("h1.img", "070701", S_IFREG | 0644, 0xFFFFFFFFul,
			   strlen(ok) + 1, ok, "abc", 65536),
		"claims 4294967295 bytes, past the end of the results disk");
	refused(raw_member("h2.img", "070701", S_IFREG | 0644, 65536,
			   strlen(ok) + 1, ok, "abc", 65536),
		"past the end of the results disk");
	refused(raw_member("h3.img", "070701", S_IFREG | 0644, 3,
			   0xFFFFFFFFul, ok, "abc", 65536),
		"name size 4294967295 out of range");
	refused(raw_member("h4.img", "070701", S_IFREG | 0644, 3, 0, ok,
			   "abc", 65536), "name size 0 out of range");
	/* a name size that does not match the string */
	refused(raw_member("h5.img", "070701", S_IFREG | 0644, 3, 5, ok,
			   "abc", 65536), "not one NUL-terminated string");
	/* not hexadecimal, not newc */
	refused(raw_member("h6.img", "070701", S_IFREG | 0644, 3,
			   strlen(ok) + 1, ok, "abc", 65536),
		"ends at byte 140 without its trailer");
	{
		char *img = raw_member("h7.img", "070701", S_IFREG | 0644, 3,
				       strlen(ok) + 1, ok, "abc", 65536);
		char *text = NULL;
		size_t len = 0;

		assert_int_equal(kb_read_file(img, &text, &len, 0), 0);
		memcpy(text + 6 + 8 * 6, "0000000G", 8);	/* filesize */
		assert_int_equal(kb_write_atomic(img, text, len), 0);
		free(text);
		refused(img, "header field 7 is not 8 hexadecimal digits");
		img = raw_member("h8.img", "070701", S_IFREG | 0644, 3,
				 strlen(ok) + 1, ok, "abc", 65536);
		assert_int_equal(kb_read_file(img, &text, &len, 0), 0);
		memcpy(text + 6 + 8 * 6, "-0000003", 8);	/* a sign */
		assert_int_equal(kb_write_atomic(img, text, len), 0);
		free(text);
		refused(img, "header field 7 is not 8 hexadecimal digits");
	}
	refused(raw_member("h9.img", "070707", S_IFREG | 0644, 3,
			   strlen(ok) + 1, ok, "abc", 65536),
		"not a newc cpio header (magic '070707'");
	refused(raw_member("h10.img", "ustar\001", S_IFREG | 0644, 3,
			   strlen(ok) + 1, ok, "abc", 65536),
		"magic 'ustar?'");
}

/* --- libraries --- */

static void test_ldd_parse(void **state)
{
	const char *out =
		"\tlinux-vdso.so.1 (0x00007ffd5a1f2000)\n"
		"\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f0f1)\n"
		"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0f2)\n"
		"\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f0f1)\n"
		"\tlibold.so => (0x00007f0f3)\n"
		"\t/lib64/ld-linux-x86-64.so.2 (0x00007f0f4)\n";
	struct kb_pathlist l = { 0 };
	char *missing = NULL;

	(void)state;
	assert_int_equal(ldd_parse(out, &l, &missing), 0);
	assert_null(missing);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "/lib/x86_64-linux-gnu/libz.so.1");
	assert_string_equal(l.v[1], "/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(l.v[2], "/lib64/ld-linux-x86-64.so.2");
	assert_int_equal(ldd_parse("\tlibgone.so.3 => not found\n", &l,
				   &missing), -ENOENT);
	assert_string_equal(missing, "libgone.so.3");
	free(missing);
	assert_int_equal(ldd_parse("", &l, &missing), 0);
	assert_int_equal(l.n, 3);
	pathlist_free(&l);
}

static int has_suffix(const struct kb_pathlist *l, const char *suffix)
{
	size_t i, n = strlen(suffix);

	for (i = 0; i < l->n; i++)
		if (strlen(l->v[i]) >= n &&
		    !strcmp(l->v[i] + strlen(l->v[i]) - n, suffix))
			return 1;
	return 0;
}

/* The host's fio: libc and the dynamic loader, absolute paths that
 * exist; a static binary (busybox-static) needs nothing. */
static void test_libs_fio(void **state)
{
	const char *bins[] = { "/usr/bin/fio" }, *bb[] = { "/bin/busybox" };
	struct kb_pathlist l = { 0 };
	size_t i;

	(void)state;
	if (!kb_exists(bins[0]))
		skip();
	assert_int_equal(initramfs_libs(bins, 1, &l), 0);
	assert_true(has_suffix(&l, "/libc.so.6"));
	assert_true(has_suffix(&l, "/ld-linux-x86-64.so.2"));
	for (i = 0; i < l.n; i++) {
		assert_int_equal(l.v[i][0], '/');
		assert_true(kb_exists(l.v[i]));
	}
	pathlist_free(&l);
	if (kb_exists(bb[0])) {
		assert_int_equal(initramfs_libs(bb, 1, &l), 0);
		assert_int_equal(l.n, 0);
	}
	{
		const char *nope[] = { "/nonexistent/fio" };

		assert_int_equal(initramfs_libs(nope, 1, &l), -ENOEXEC);
	}
	pathlist_free(&l);
}

/* --- the initramfs --- */

static unsigned long hex8(const char *p)
{
	char f[9];

	memcpy(f, p, 8);
	f[8] = '\0';
	return strtoul(f, NULL, 16);
}

/* Entry name of the newc archive a: its data (borrowed) and mode, or
 * NULL. */
static const char *entry(const char *a, size_t alen, const char *name,
			 size_t *len, unsigned *mode)
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
			*mode = (unsigned)hex8(a + off + 14);
			return a + data;
		}
		off = (data + fsize + 3) & ~(size_t)3;
	}
	return NULL;
}

static void assert_entry(const char *a, size_t alen, const char *name,
			 unsigned type, const char *want)
{
	size_t len = 0;
	unsigned mode = 0;
	const char *d = entry(a, alen, name, &len, &mode);

	if (!d)
		fail_msg("no entry %s in the initramfs", name);
	assert_int_equal(mode & S_IFMT, type);
	if (want) {
		assert_int_equal(len, strlen(want));
		assert_memory_equal(d, want, len);
	}
}

/* fio, kbench, a library reached through two symbolic links and the
 * campaign files go in; /init mounts no 9p and writes the results to the
 * disk with serial kbresults. */
static void test_build_selfcontained(void **state)
{
	char *camp = kb_path_join(tmpdir, "camp"), *cpio, *arch = NULL;
	char *lib = kb_path_join(tmpdir, "link/libx.so.1"), *init, *name;
	char *linkp, *realp;
	const char *gargv[] = { "/usr/bin/kbench", "guest", "--dir", NULL,
				NULL };
	struct kb_pathlist libs = { 0 }, files = { 0 };
	struct kb_guest_payload g = { 0 };
	struct kb_initramfs_opts o = { 0 };
	size_t alen = 0, len = 0;
	unsigned mode = 0;
	const char *d;

	(void)state;
	put_file(tmpdir, "bin/busybox", "#!/bin/sh\necho busybox stand-in\n");
	put_file(tmpdir, "bin/fio", "fio stand-in");
	put_file(tmpdir, "bin/kbench", "kbench stand-in");
	put_file(tmpdir, "realdir/libx.so.1.2", "library bytes");
	linkp = kb_path_join(tmpdir, "link");
	assert_int_equal(symlink("realdir", linkp), 0);
	realp = kb_path_join(tmpdir, "realdir/libx.so.1");
	assert_int_equal(symlink("libx.so.1.2", realp), 0);
	put_file(tmpdir, "camp/campaign.json", "{\"schema_version\": 1}\n");
	put_file(tmpdir, "camp/kernels.conf", "[global]\njobs = randread-4k\n");
	put_file(tmpdir, "camp/profiles/randread-4k.fio", "[randread-4k]\nrw=randread\n");
	put_file(tmpdir, "camp/boots/001-cloud/runs.txt", "cloud/randread-4k/000\n");
	pathlist_add(&libs, lib);
	pathlist_add(&files, "campaign.json");
	pathlist_add(&files, "kernels.conf");
	pathlist_add(&files, "profiles/randread-4k.fio");
	pathlist_add(&files, "boots/001-cloud/runs.txt");
	g.fio = name = kb_path_join(tmpdir, "bin/fio");
	o.kbench = kb_xasprintf("%s/bin/kbench", tmpdir);
	o.libs = &libs;
	g.files = &files;
	g.runs_file = kb_xasprintf("%s/boots/001-cloud/runs.txt", camp);
	gargv[3] = camp;
	o.busybox = kb_xasprintf("%s/bin/busybox", tmpdir);
	o.results_dir = camp;
	o.guest_argv = gargv;
	o.payload = &g;
	cpio = kb_path_join(tmpdir, "sc.cpio");
	assert_int_equal(initramfs_build(cpio, &o), 0);
	assert_int_equal(kb_read_file(cpio, &arch, &alen, 0), 0);

	assert_entry(arch, alen, "usr/bin/fio", S_IFREG, "fio stand-in");
	assert_entry(arch, alen, "usr/bin/kbench", S_IFREG, "kbench stand-in");
	/* the library at the host's path, links kept as links */
	assert_entry(arch, alen, linkp + 1, S_IFLNK, "realdir");
	assert_entry(arch, alen, realp + 1, S_IFLNK, "libx.so.1.2");
	free(realp);
	realp = kb_path_join(tmpdir, "realdir/libx.so.1.2");
	assert_entry(arch, alen, realp + 1, S_IFREG, "library bytes");
	assert_entry(arch, alen, tmpdir + 1, S_IFDIR, NULL);
	assert_entry(arch, alen, "kbench/dir/campaign.json", S_IFREG,
		     "{\"schema_version\": 1}\n");
	assert_entry(arch, alen, "kbench/dir/profiles/randread-4k.fio",
		     S_IFREG, "[randread-4k]\nrw=randread\n");
	assert_entry(arch, alen, "kbench/dir/boots/001-cloud/runs.txt",
		     S_IFREG, "cloud/randread-4k/000\n");
	assert_entry(arch, alen, "kbench/dir/kernels.conf", S_IFREG, NULL);
	assert_entry(arch, alen, "root", S_IFDIR, NULL);

	d = entry(arch, alen, "init", &len, &mode);
	assert_non_null(d);
	init = strndup(d, len);
	/* no 9p mount nor share (the script names the random tmpdir: a
	 * bare "9p" was found in "/tmp/...X9pQ..." once) */
	assert_null(strstr(init, "-t 9p"));
	assert_null(strstr(init, "trans=virtio"));
	assert_null(strstr(init, "--mount-9p"));
	assert_null(strstr(init, KB_9P_HOSTROOT));
	assert_null(strstr(init, "chroot"));
	assert_non_null(strstr(init, "mount -t tmpfs tmpfs \"$D\""));
	assert_non_null(strstr(init, "cp -a /kbench/dir/. \"$D\"/"));
	assert_non_null(strstr(init, "/sys/block/vd*/serial"));
	assert_non_null(strstr(init, "= " KB_RESULTS_SERIAL " ]"));
	assert_non_null(strstr(init, "cpio -o -H newc > \"$res\""));
	assert_non_null(strstr(init, "'/usr/bin/kbench' 'guest' '--dir'"));
	/* the archive after kbench guest, then sync, then power off */
	assert_true(strstr(init, "cpio -o") > strstr(init, "'guest'"));
	assert_true(strstr(init, "poweroff -f\n") > strstr(init, "cpio -o"));
	free(init);

	/* a payload file that is not there: named, nothing half-built */
	pathlist_add(&files, "profiles/missing.fio");
	unlink(cpio);
	assert_int_equal(initramfs_build(cpio, &o), -ENOENT);
	assert_false(kb_exists(cpio));

	free(arch);
	free(cpio);
	free(camp);
	free(lib);
	free(linkp);
	free(realp);
	free(name);
	free((char *)o.kbench);
	free((char *)g.runs_file);
	free((char *)o.busybox);
	pathlist_free(&libs);
	pathlist_free(&files);
}

/* A sparse disk of the size asked. */
static void test_disk_create(void **state)
{
	char *p = kb_path_join(tmpdir, "disk.img");
	struct stat st;

	(void)state;
	assert_int_equal(results_disk_create(p, 64ULL << 20), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 64LL << 20);
	assert_true((long long)st.st_blocks * 512 < (1LL << 20));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extract_ok),
		cmocka_unit_test(test_extract_hostile),
		cmocka_unit_test(test_extract_truncated),
		cmocka_unit_test(test_extract_huge),
		cmocka_unit_test(test_ldd_parse),
		cmocka_unit_test(test_libs_fio),
		cmocka_unit_test(test_build_selfcontained),
		cmocka_unit_test(test_disk_create),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
