/* tests/test_qemu_cmdline.c - kb_qemu_guest_cmdline() (runner/qemu.h):
 * the guest's -append under TCG and KVM, with and without the variant's
 * own words, and the variant's acpi= / pci= choice kept over kbench's
 * acpi=noirq; and `kbench run --dry-run`'s QEMU command, quoted for the
 * shell. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "put_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "runner/drivers.h"
#include "runner/qemu.h"
#include "run_kbench.h"
#define TEST_TMPDIR "/tmp/kbench-test-qemu-dry.XXXXXX"
#include "tmpdir.h"

static void check(const char *name, const char *cmdline, int kvm,
		  const char *want)
{
	char *got = kb_qemu_guest_cmdline(name, cmdline, kvm);

	assert_string_equal(got, want);
	free(got);
}

static void test_tcg_adds_noirq(void **state)
{
	(void)state;
	check("base", NULL, 0, "console=ttyS0 panic=-1 loglevel=5 "
	      "printk.time=1 acpi=noirq kbench.variant=base");
	check("v2", "mitigations=off quiet", 0, "console=ttyS0 panic=-1 "
	      "loglevel=5 printk.time=1 acpi=noirq kbench.variant=v2 "
	      "mitigations=off quiet");
}

static void test_kvm_untouched(void **state)
{
	(void)state;
	check("base", NULL, 1, "console=ttyS0 panic=-1 loglevel=5 "
	      "printk.time=1 kbench.variant=base");
	check("v2", "quiet", 1, "console=ttyS0 panic=-1 loglevel=5 "
	      "printk.time=1 kbench.variant=v2 quiet");
}

static void test_variant_choice_wins(void **state)
{
	(void)state;
	check("a", "quiet acpi=off", 0, "console=ttyS0 panic=-1 loglevel=5 "
	      "printk.time=1 kbench.variant=a quiet acpi=off");
	check("p", "\tpci=noacpi", 0, "console=ttyS0 panic=-1 loglevel=5 "
	      "printk.time=1 kbench.variant=p \tpci=noacpi");
	/* a word that only contains the prefix is not the parameter */
	check("x", "foo.acpi=1 nopci=1", 0, "console=ttyS0 panic=-1 "
	      "loglevel=5 printk.time=1 acpi=noirq kbench.variant=x "
	      "foo.acpi=1 nopci=1");
}

/* A file with a bzImage setup header whose kernel_version is ver. */
static void write_bzimage(const char *path, const char *ver)
{
	unsigned char img[0x400] = { 0 };

	img[0x1F1] = 1;		/* setup_sects: 2 * 512 bytes, the whole file */
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20F] = 0x01;	/* version at 0x100 + 0x200 */
	memcpy(img + 0x300, ver, strlen(ver) + 1);
	assert_int_equal(kb_write_atomic(path, (char *)img, sizeof(img)), 0);
}

/* tmpdir/sub/ with a bzImage, a qemu-system-x86_64 of script first on
 * PATH (the old PATH in *old_path, malloc'd), KBENCH_CACHE tmpdir, and
 * k.conf: one vm variant [v] of that kernel with the lines extra; its
 * path (malloc'd). */
static char *vm_setup(const char *sub, const char *script, const char *extra,
		      char **old_path)
{
	char cwd[4096], *dir = kb_path_join(tmpdir, sub), *img, *bin, *q;
	char *path, *text, *conf;
	const char *old = getenv("PATH");

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	*old_path = kb_xstrdup(old ? old : "/usr/bin:/bin");
	bin = kb_path_join(dir, "bin");
	assert_int_equal(kb_mkdir_p(bin), 0);
	img = kb_path_join(dir, "bzImage");
	write_bzimage(img, "6.9.0-test (dev@box) #1 SMP");
	q = kb_path_join(bin, "qemu-system-x86_64");
	assert_int_equal(kb_write_atomic(q, script, strlen(script)), 0);
	assert_int_equal(chmod(q, 0755), 0);
	path = kb_xasprintf("%s:%s", bin, *old_path);
	setenv("PATH", path, 1);
	setenv("KBENCH_CACHE", tmpdir, 1);
	text = kb_xasprintf("[global]\njobs = randread-4k\niterations = 1\n"
		"warmup = 0\nruntime = 1\ntarget = null_blk: queue_mode=2\n"
		"profiles = %s/profiles\naccel = tcg\n[v]\nmethod = vm\n"
		"kernel = %s\n%s", cwd, img, extra);
	conf = kb_path_join(dir, "k.conf");
	assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);
	free(text);
	free(path);
	free(q);
	free(img);
	free(bin);
	free(dir);
	return conf;
}

/* PATH and KBENCH_CACHE as before vm_setup() (old freed). */
static void vm_unset(char *old)
{
	setenv("PATH", old, 1);
	unsetenv("KBENCH_CACHE");
	free(old);
}

/* The dry run prints QEMU's command to paste: -append's value one
 * single-quoted word, a cmdline = a`id`b no command (the words were
 * printed as they were, the command line's blanks splitting -append). */
static void test_dry_run_quoted(void **state)
{
	char *out = NULL, *err = NULL, *old;
	char *args[] = { "run", "--dry-run", "-q", "-c", NULL, "-o", NULL,
			 NULL };

	(void)state;
	/* vm variants need QEMU on PATH; the dry run does not start it */
	args[4] = vm_setup("dry", "#!/bin/sh\nexit 1\n",
			   "cmdline = a`id`b -m 1\n", &old);
	args[6] = kb_path_join(tmpdir, "camp");
	run_kbench(args, &out, &err);
	if (!strstr(out, " -append 'console=ttyS0 panic=-1 loglevel=5 "
		    "printk.time=1 acpi=noirq kbench.variant=v a`id`b -m 1' "
		    "-serial "))
		fail_msg("-append not one quoted word in:\n%s\n%s", out, err);
	vm_unset(old);
	free(args[4]);
	free(args[6]);
	free(out);
	free(err);
}

/* The 9p guest writes the campaign directory: a name it made there in
 * advance (boots/002-v a link out of it) was taken as the next boot's
 * directory, where kbench and QEMU write as root (runs.txt, the
 * initramfs, qemu.log opened with O_TRUNC). */
static void test_boot_dir_not_the_guests(void **state)
{
	char *camp = kb_path_join(tmpdir, "bootcamp");
	char *out = kb_path_join(tmpdir, "outside");
	char *boots = kb_path_join(camp, "boots");
	char *planted = kb_path_join(boots, "002-v"), *p, *want;
	struct stat st;

	(void)state;
	assert_int_equal(kb_mkdir_p(boots), 0);
	assert_int_equal(kb_mkdir_p(out), 0);
	assert_int_equal(symlink(out, planted), 0);
	/* one entry: the next boot is number 2, taken: 3 */
	p = vm_new_boot_dir(camp, "v");
	want = kb_path_join(boots, "003-v");
	assert_non_null(p);
	assert_string_equal(p, want);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	free(p);
	free(want);
	/* boots itself a link (to out): no boot, nothing made there */
	{
		char *moved = kb_path_join(tmpdir, "boots-moved");
		char *made = kb_path_join(out, "001-v");

		assert_int_equal(rename(boots, moved), 0);
		assert_int_equal(symlink(out, boots), 0);
		assert_null(vm_new_boot_dir(camp, "v"));
		assert_false(kb_exists(made));
		free(made);
		free(moved);
	}
	free(camp);
	free(out);
	free(boots);
	free(planted);
}

/* A fake QEMU that plays a 9p guest leaving links in the campaign
 * directory (KB_FAKE_MODE run: runs/v/randread-4k -> KB_FAKE_OUTSIDE;
 * boot: its boot directory replaced by a link there), then exits. */
static const char fake_guest_qemu[] =
	"#!/bin/sh\n"
	"[ \"$1\" = --version ] && { echo 'QEMU emulator version 7.2.0'; "
	"exit 0; }\n"
	"for a in \"$@\"; do case \"$a\" in file:*) con=\"${a#file:}\";; "
	"esac; done\n"
	"echo 'kbench guest: started' > \"$con\"\n"
	"bd=$(dirname \"$con\"); camp=$(dirname \"$(dirname \"$bd\")\")\n"
	"if [ \"$KB_FAKE_MODE\" = run ]; then mkdir -p \"$camp/runs/v\"; "
	"ln -s \"$KB_FAKE_OUTSIDE\" \"$camp/runs/v/randread-4k\"; "
	"elif [ \"$KB_FAKE_MODE\" = local ]; then mkdir -p \"$camp/runs/l\"; "
	"ln -s \"$KB_FAKE_OUTSIDE\" \"$camp/runs/l/randread-4k\"; "
	"else mv \"$bd\" \"$bd.moved\"; ln -s \"$KB_FAKE_OUTSIDE\" \"$bd\"; fi\n";

/* After a 9p boot kbench writes the runs' console.log and failure
 * records, the boot's timing.json, and removes its initramfs: through a
 * link the guest left there, as root, wherever it led. */
static void test_guest_links_not_followed(void **state)
{
	static const char *const modes[] = { "boot", "run" };
	char *out, *err, *old;
	char *args[] = { "run", "-c", NULL, "-o", NULL, NULL };
	size_t m;

	(void)state;
	args[2] = vm_setup("guest", fake_guest_qemu, "", &old);
	for (m = 0; m < 2; m++) {
		char *outside = kb_xasprintf("%s/outside-%s", tmpdir, modes[m]);
		char *camp = kb_xasprintf("%s/gcamp-%s", tmpdir, modes[m]);
		int rc;

		assert_int_equal(kb_mkdir_p(outside), 0);
		setenv("KB_FAKE_OUTSIDE", outside, 1);
		setenv("KB_FAKE_MODE", modes[m], 1);
		args[4] = camp;
		rc = run_kbench(args, &out, &err);
		/* the run failed (every run: exit 1), nothing was written or
		 * removed outside */
		if (rmdir(outside))	/* still empty */
			fail_msg("%s: %s: %s", modes[m], outside,
				 strerror(errno));
		if (rc != 1)
			fail_msg("%s: exit %d:\n%s", modes[m], rc, err);
		if (!strstr(err, "the guest left a symbolic link") &&
		    !strstr(err, "is no longer the directory kbench made"))
			fail_msg("%s: no refusal in:\n%s", modes[m], err);
		free(out);
		free(err);
		free(outside);
		free(camp);
	}
	vm_unset(old);
	unsetenv("KB_FAKE_OUTSIDE");
	unsetenv("KB_FAKE_MODE");
	free(args[2]);
}

/* A local variant's run in a campaign with a vm variant: kbench wrote
 * its fio files and metrics.json into runs/l/randread-4k as root, a link
 * the 9p guest (which writes the campaign directory) left there before
 * it, to wherever it led.  Now the run fails with the reason, nothing
 * written through it. */
static void test_guest_link_local_run(void **state)
{
	char *out, *err, *old;
	char *args[] = { "run", "-c", NULL, "-o", NULL, NULL };
	char *outside = kb_path_join(tmpdir, "outside-local");
	int rc;

	(void)state;
	/* the vm variant first in the plan: its boot plants the link */
	args[2] = vm_setup("glocal", fake_guest_qemu, "[l]\n", &old);
	{
		/* a target the host has for the local run (no null_blk) */
		char *t = NULL, *p;

		assert_int_equal(kb_read_file(args[2], &t, NULL, 0), 0);
		p = strstr(t, "null_blk: queue_mode=2\n");
		assert_non_null(p);
		memcpy(p, "loop:64M", 8);
		memmove(p + 8, p + 22, strlen(p + 22) + 1);
		assert_int_equal(kb_write_atomic(args[2], t, strlen(t)), 0);
		free(t);
	}
	args[4] = kb_path_join(tmpdir, "gcamp-local");
	assert_int_equal(kb_mkdir_p(outside), 0);
	setenv("KB_FAKE_OUTSIDE", outside, 1);
	setenv("KB_FAKE_MODE", "local", 1);
	rc = run_kbench(args, &out, &err);
	if (rmdir(outside))	/* still empty */
		fail_msg("%s: %s\n%s", outside, strerror(errno), err);
	if (!strstr(err, "run l/randread-4k/000 failed: a symbolic link (or "
		    "a file) is on the path of"))
		fail_msg("no refusal (exit %d) in:\n%s", rc, err +
			 (strlen(err) > 2000 ? strlen(err) - 2000 : 0));
	vm_unset(old);
	unsetenv("KB_FAKE_OUTSIDE");
	unsetenv("KB_FAKE_MODE");
	free(outside);
	free(out);
	free(err);
	free(args[2]);
	free(args[4]);
}

/* The 9p guest runs as root with the host's root file system, yet a vm
 * variant's kernel and the modules its initramfs loads were booted
 * whoever could change them (a kexec variant's are refused so): now, as
 * a kexec's, their runs fail naming the file and why. */
static void test_vm_kernel_untrusted(void **state)
{
	char *out = NULL, *err = NULL, *old, *extra, *img, *ko, *want;
	char *dir = kb_path_join(tmpdir, "untrusted");
	char *mods = kb_path_join(dir, "mods");
	char *dep = kb_path_join(mods, "modules.dep");
	char *builtin = kb_path_join(mods, "modules.builtin");
	char *args[] = { "run", "--dry-run", "-q", "-c", NULL, "-o", NULL,
			 NULL };
	int i;

	(void)state;
	extra = kb_xasprintf("modules = %s\n", mods);
	args[4] = vm_setup("untrusted", "#!/bin/sh\nexit 1\n", extra, &old);
	args[6] = kb_path_join(tmpdir, "ucamp");
	img = kb_path_join(dir, "bzImage");
	ko = kb_path_join(mods, "kernel/null_blk.ko");
	put_file(mods, "modules.dep", "kernel/null_blk.ko:\n");
	put_file(mods, "modules.builtin", "kernel/virtio_pci.ko\n"
	    "kernel/9pnet_virtio.ko\nkernel/9p.ko\n");
	put_file(mods, "kernel/null_blk.ko", "x");
	/* the kernel, then (the kernel root's again) a module, then the
	 * index that says which file a module is (modules.dep: another
	 * root-owned module could be loaded in its place; modules.builtin:
	 * one left out): writable by all */
	for (i = 0; i < 4; i++) {
		const char *files[] = { img, ko, dep, builtin };
		const char *whats[] = { "kernel", "module", "module index",
					"module index" };
		int k;

		for (k = 0; k < 4; k++)
			assert_int_equal(chmod(files[k], k == i ? 0666 : 0644),
					 0);
		run_kbench(args, &out, &err);
		want = kb_xasprintf("# v: its runs would fail: vm: %s %s is not "
				    "loaded: %s: writable by all (mode 0666)",
				    whats[i], files[i], files[i]);
		if (!strstr(out, want))
			fail_msg("no \"%s\" in:\n%s\n%s", want, out, err);
		free(want);
		free(out);
		free(err);
	}
	/* all root's: the boot would go on */
	assert_int_equal(chmod(builtin, 0644), 0);
	run_kbench(args, &out, &err);
	if (strstr(out, "is not loaded"))
		fail_msg("refused:\n%s\n%s", out, err);
	free(out);
	free(err);
	vm_unset(old);
	free(extra);
	free(img);
	free(ko);
	free(dep);
	free(builtin);
	free(mods);
	free(dir);
	free(args[4]);
	free(args[6]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcg_adds_noirq),
		cmocka_unit_test(test_kvm_untouched),
		cmocka_unit_test(test_variant_choice_wins),
		cmocka_unit_test(test_dry_run_quoted),
		cmocka_unit_test(test_boot_dir_not_the_guests),
		cmocka_unit_test(test_guest_links_not_followed),
		cmocka_unit_test(test_guest_link_local_run),
		cmocka_unit_test(test_vm_kernel_untrusted),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
