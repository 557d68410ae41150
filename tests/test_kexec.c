/* tests/test_kexec.c - the kexec driver's checks after a boot (cases B32,
 * B34 from tests/data/kexec/, prepared /-like trees) and its state
 * machine, with the reboot simulated: fake `kexec` and `systemctl` on
 * PATH record their argv, then the "booted" system is a prepared root
 * (KBENCH_PROC_ROOT) and resume is re-invoked against it.
 */
#include "runner/campaign.h"
#include "runner/drivers.h"
#include "runner/kexec.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "run_kbench.h"
#include "capture.h"
#define TEST_TMPDIR "/tmp/kbench-test-kexec-dry.XXXXXX"
#include "tmpdir.h"

#define DATA "tests/data/kexec/"

int kexec_is_running(const struct kb_variant *v);

static void test_b32_firmware_reboot(void **state)
{
	/* B32.txt: intended 6.9.0-rc3-bench+ with marker bench_nonce=...;
	 * the machine came back on 6.8.0-31-generic without the marker */
	struct kb_kexec_state s = {
		.variant = "kernel-B", .marker = "bench_nonce=7f3a9c21",
		.release = "6.9.0-rc3-bench+",
	};
	char why[1024];

	(void)state;
	assert_int_equal(kexec_verify(DATA "B32-root", &s, why, sizeof(why)),
			 KB_KEXEC_WRONG_KERNEL);
	/* the message of B32.expected, word for word */
	assert_string_equal(why, "booted kernel mismatch: uname -r is "
		"6.8.0-31-generic, expected 6.9.0-rc3-bench+; kexec marker "
		"'bench_nonce=7f3a9c21' missing from /proc/cmdline (kexec "
		"likely fell back to a firmware reboot into the default "
		"kernel)");
}

static void test_b34_target_identity(void **state)
{
	struct kb_kexec_state s = {
		.variant = "kernel-B", .marker = "bench_nonce=7f3a9c21",
		.release = "6.9.0-rc3-bench+", .target_dev = "nvme0n1",
		.boot = 1,
	};
	struct kb_disk_id id;
	char why[1024];

	(void)state;
	/* the identity recorded before the first kexec (kernel-A boot 1) */
	assert_int_equal(kexec_disk_id(DATA "B34-kernel-A-boot1", "nvme0n1",
				       &id), 0);
	assert_string_equal(id.serial, "SNX0001");
	assert_string_equal(id.wwn, "eui.0025385a11b22c33");
	assert_string_equal(id.model, "VENDOR-X_1.92TB");
	s.target = id;
	assert_int_equal(kexec_verify(DATA "B34-kernel-B-boot1", &s, why,
				      sizeof(why)), KB_KEXEC_WRONG_TARGET);
	assert_string_equal(why, "target device identity changed: /dev/nvme0n1 "
		"is serial SNY0042 (VENDOR-Y_960GB) in kernel-B boot 1, "
		"expected serial SNX0001 / wwn eui.0025385a11b22c33; run "
		"discarded");
	s.boot = 2;
	assert_int_equal(kexec_verify(DATA "B34-kernel-B-boot2", &s, why,
				      sizeof(why)), KB_KEXEC_OK);
	assert_int_equal(kexec_disk_id(DATA "B34-kernel-B-boot2", "nvme9n9",
				       &id), -ENOENT);
	kexec_disk_id_free(&s.target);
}

static void test_build_identity(void **state)
{
	/* same release and marker, another build of the tree */
	struct kb_kexec_state s = {
		.variant = "kernel-B", .marker = "bench_nonce=7f3a9c21",
		.release = "6.9.0-rc3-bench+",
		.build = "6.9.0-rc3-bench+ (dev@box) #2 SMP PREEMPT_DYNAMIC "
			 "Wed Apr 10 09:00:00 UTC 2024",
	};
	char why[1024];

	(void)state;
	assert_int_equal(kexec_verify(DATA "B34-kernel-B-boot2", &s, why,
				      sizeof(why)), KB_KEXEC_WRONG_BUILD);
	assert_non_null(strstr(why, "not the intended build"));
	assert_non_null(strstr(why, "#1 SMP"));
	s.build = "6.9.0-rc3-bench+ (dev@box) #1 SMP PREEMPT_DYNAMIC Tue "
		  "Apr  9 10:00:00 UTC 2024";
	assert_int_equal(kexec_verify(DATA "B34-kernel-B-boot2", &s, why,
				      sizeof(why)), KB_KEXEC_OK);
}

static void test_cmdline(void **state)
{
	char *c;

	(void)state;
	c = kexec_cmdline("BOOT_IMAGE=/boot/vmlinuz-6.8 root=UUID=x ro "
			  "kbench.campaign=0011 quiet\n", "mitigations=off",
			  "kbench.campaign=abcd");
	assert_string_equal(c, "root=UUID=x ro quiet mitigations=off "
			    "kbench.campaign=abcd");
	free(c);
	/* init's arguments after "--" stay last */
	c = kexec_cmdline("ro quiet -- --init-flag x", NULL,
			  "kbench.campaign=abcd");
	assert_string_equal(c, "ro quiet kbench.campaign=abcd -- --init-flag x");
	free(c);
}

/* ---- the state machine, reboot simulated ---- */

static char tmp[64];

static void write_text(const char *dir, const char *rel, const char *text)
{
	char *p = kb_path_join(dir, rel), *d = kb_xstrdup(p);

	*strrchr(d, '/') = '\0';
	assert_int_equal(kb_mkdir_p(d), 0);
	assert_int_equal(kb_write_atomic(p, text, strlen(text)), 0);
	chmod(p, 0755);
	free(p);
	free(d);
}

/* A file with a bzImage setup header whose kernel_version is ver. */
static void write_bzimage(const char *path, const char *ver)
{
	unsigned char img[0x400] = { 0 };
	FILE *f = fopen(path, "w");

	img[0x1F1] = 1;		/* setup_sects: 2 * 512 bytes, the whole file */
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20E] = 0x00;	/* version at 0x100 + 0x200 */
	img[0x20F] = 0x01;
	memcpy(img + 0x300, ver, strlen(ver) + 1);
	assert_non_null(f);
	assert_int_equal(fwrite(img, 1, sizeof(img), f), sizeof(img));
	fclose(f);
}

/* dir/k.conf (its path, malloc'd): a kexec variant [name] of kernel img,
 * with the lines extra, on a file: target in dir; cwd: the repository. */
static char *write_conf(const char *dir, const char *cwd, int iterations,
			const char *name, const char *img, const char *extra)
{
	char *text = kb_xasprintf("[global]\njobs = randread-4k\n"
		"iterations = %d\nwarmup = 0\nruntime = 1\n"
		"target = file:%s/t.img\nprofiles = %s/profiles\n[%s]\n"
		"method = kexec\nkernel = %s\n%s", iterations, dir, cwd, name,
		img, extra);

	write_text(dir, "k.conf", text);
	free(text);
	return kb_path_join(dir, "k.conf");
}

/* "booted" root: release, cmdline, /proc/version */
static char *make_root(const char *name, const char *rel, const char *cmdline,
		       const char *version)
{
	char *r = kb_path_join(tmp, name);

	write_text(r, "proc/sys/kernel/osrelease", rel);
	write_text(r, "proc/cmdline", cmdline);
	write_text(r, "proc/version", version);
	return r;
}

static void test_state_machine(void **state)
{
	struct kb_campaign c;
	struct kb_kexec_state s;
	char *conf, *img, *bin, *path, *log = NULL, *cl, *root, *cmd;
	char *spath;
	size_t last, nd, nf;
	char cwd[4096];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	/* on disk: the driver will not kexec with the campaign or its
	 * state in memory (a /tmp of tmpfs) */
	strcpy(tmp, kb_path_in_memory("/tmp") ?
	       "/var/tmp/kbench-test-kexec.XXXXXX" :
	       "/tmp/kbench-test-kexec.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	img = kb_path_join(tmp, "bzImage");
	write_bzimage(img, "6.9.0-rc3-bench+ (dev@box) #1 SMP PREEMPT_DYNAMIC "
		      "Tue Apr  9 10:00:00 UTC 2024");
	/* fake kexec/systemctl: append their argv to calls.log */
	bin = kb_path_join(tmp, "bin");
	cmd = kb_xasprintf("#!/bin/sh\necho \"$0 $*\" >> %s/calls.log\n", tmp);
	write_text(bin, "kexec", cmd);
	write_text(bin, "systemctl", cmd);
	free(cmd);
	path = kb_xasprintf("%s:%s", bin, getenv("PATH"));
	setenv("PATH", path, 1);
	setenv("KBENCH_STATE_DIR", tmp, 1);
	root = make_root("root-before", "6.8.0-31-generic",
			 "BOOT_IMAGE=/boot/vmlinuz-6.8.0-31-generic root=UUID=0000-test ro quiet",
			 "Linux version 6.8.0-31-generic (buildd@lcy02) (gcc) #31-Ubuntu SMP");
	setenv("KBENCH_PROC_ROOT", root, 1);
	free(root);

	conf = write_conf(tmp, cwd, 2, "bench", img,
			  "cmdline = mitigations=off\n");
	cmd = kb_path_join(tmp, "camp");
	kb_quiet = 1;
	assert_int_equal(campaign_open(&c, cmd, conf, 1), 0);
	free(cmd);

	/* 0. the state file in memory (a tmpfs, /dev/shm): gone after the
	 * kexec, so no kexec: an error, and kexec never ran (a break-it
	 * trial) */
	if (kb_path_in_memory("/dev/shm")) {
		char shm[] = "/dev/shm/kbench-test-kexec.XXXXXX";
		struct capture cap;
		char *err;

		assert_non_null(mkdtemp(shm));
		setenv("KBENCH_STATE_DIR", shm, 1);
		cap_begin(&cap);
		assert_int_equal(driver_run_next_batch(&c, 0, 0, &last, &nd,
						       &nf), -EINVAL);
		err = cap_end(&cap);
		setenv("KBENCH_STATE_DIR", tmp, 1);
		assert_non_null(strstr(err, "kexec.json: the kexec state file "
				       "is in memory (tmpfs or ramfs)"));
		free(err);
		cmd = kb_path_join(tmp, "calls.log");
		assert_false(kb_exists(cmd));
		free(cmd);
		cmd = kb_path_join(shm, "kexec.json");
		assert_false(kb_exists(cmd));
		free(cmd);
		assert_int_equal(rmdir(shm), 0);
	}

	/* 1. not on the variant: the batch is a kexec */
	assert_int_equal(kexec_is_running(&c.cfg.variants[0]), 0);
	assert_non_null(driver_batch(&c.cfg, 0));
	assert_int_equal(driver_run_next_batch(&c, 0, 0, &last, &nd, &nf),
			 -ECANCELED);	/* "the machine is going down" */
	cmd = kb_path_join(tmp, "calls.log");
	assert_int_equal(kb_read_file(cmd, &log, NULL, 0), 0);
	free(cmd);
	assert_non_null(strstr(log, "kexec -l "));
	assert_non_null(strstr(log, img));
	assert_non_null(strstr(log, "--command-line=root=UUID=0000-test ro "
			       "quiet mitigations=off kbench.campaign="));
	/* systemd present: systemctl kexec, else kexec -e */
	assert_true(strstr(log, "systemctl kexec") || strstr(log, "kexec -e"));
	spath = kexec_state_path();
	assert_int_equal(kexec_state_load(spath, &s), 0);
	assert_string_equal(s.variant, "bench");
	assert_string_equal(s.release, "6.9.0-rc3-bench+");
	assert_int_equal(s.boot, 1);
	assert_non_null(strstr(log, s.marker));
	assert_null(campaign_run_state(&c, c.plan.runs[0].key));

	/* 2. B32: the machine came back on the default kernel */
	assert_int_equal(kexec_is_running(&c.cfg.variants[0]), 0);
	assert_int_equal(driver_run_next_batch(&c, 0, 0, &last, &nd, &nf), 0);
	assert_int_equal(nd, 2);
	assert_int_equal(nf, 2);
	assert_string_equal(campaign_run_state(&c, c.plan.runs[0].key)->status,
			    "failed");
	assert_non_null(strstr(campaign_run_state(&c,
		c.plan.runs[1].key)->reason, "missing from /proc/cmdline"));
	kexec_state_free(&s);
	assert_int_equal(kexec_state_load(spath, &s), 0);
	assert_null(s.variant);	/* that boot is over */
	kexec_state_free(&s);

	/* 3. retry: a new kexec with a new marker, then the right boot */
	free(log);
	log = NULL;
	assert_int_equal(driver_run_next_batch(&c, 0, 1, &last, &nd, &nf),
			 -ECANCELED);
	assert_int_equal(kexec_state_load(spath, &s), 0);
	assert_int_equal(s.boot, 2);
	cl = kb_xasprintf("root=UUID=0000-test ro quiet mitigations=off %s",
			  s.marker);
	root = make_root("root-after", "6.9.0-rc3-bench+", cl,
			 "Linux version 6.9.0-rc3-bench+ (dev@box) (gcc (Debian "
			 "12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Tue Apr  9 "
			 "10:00:00 UTC 2024");
	setenv("KBENCH_PROC_ROOT", root, 1);
	/* resume: the variant is running, its runs go the local way */
	assert_int_equal(kexec_is_running(&c.cfg.variants[0]), 1);
	assert_null(driver_batch(&c.cfg, 0));
	assert_int_equal(driver_variant_ready(&c.cfg, 0), 1);
	{	/* what the run's metrics.json records as "kexec" */
		struct kb_kexec_run_info ki;
		json_t *run = json_object(), *kx;

		assert_int_equal(kexec_run_info(&c.cfg.variants[0], &ki), 1);
		assert_int_equal(ki.by_kexec, 1);
		kexec_run_info_record(run, &ki);
		kexec_run_info_free(&ki);
		kx = json_object_get(run, "kexec");
		assert_int_equal(json_integer_value(json_object_get(kx,
							"boot")), 2);
		assert_string_equal(json_string_value(json_object_get(kx,
					"marker")), s.marker);
		assert_true(json_is_string(json_object_get(kx, "build")));
		assert_null(json_object_get(kx, "booted"));
		json_decref(run);
	}

	/* 4. same release and marker, another build: not running */
	free(cl);
	free(root);
	kexec_state_free(&s);
	assert_int_equal(kexec_state_load(spath, &s), 0);
	cl = kb_xasprintf("root=UUID=0000-test ro %s", s.marker);
	root = make_root("root-rebuilt", "6.9.0-rc3-bench+", cl,
			 "Linux version 6.9.0-rc3-bench+ (dev@box) (gcc) #2 SMP "
			 "PREEMPT_DYNAMIC Wed Apr 10 09:00:00 UTC 2024");
	setenv("KBENCH_PROC_ROOT", root, 1);
	assert_int_equal(kexec_is_running(&c.cfg.variants[0]), 0);
	{
		struct kb_kexec_run_info ki;

		assert_int_equal(kexec_run_info(&c.cfg.variants[0], &ki), 0);
		assert_null(ki.marker);
	}

	/* 5. that boot's runs fail; the retry's `kexec -e` fails (it
	 * returns): an error, and the state is as before the batch */
	assert_int_equal(driver_run_next_batch(&c, 0, 1, &last, &nd, &nf), 0);
	assert_int_equal(nf, 2);
	cmd = kb_xasprintf("#!/bin/sh\necho \"$0 $*\" >> %s/calls.log\n"
			   "[ \"$1\" = -e ] && exit 1\nexit 0\n", tmp);
	write_text(bin, "kexec", cmd);
	write_text(bin, "systemctl", "#!/bin/sh\nexit 1\n");
	free(cmd);
	assert_int_equal(driver_run_next_batch(&c, 0, 1, &last, &nd, &nf),
			 -EIO);
	kexec_state_free(&s);
	assert_int_equal(kexec_state_load(spath, &s), 0);
	assert_null(s.variant);
	assert_null(s.marker);
	assert_int_equal(s.boot, 2);
	assert_string_equal(s.campaign, c.dir);

	kexec_state_free(&s);
	campaign_close(&c);
	free(cl);
	free(root);
	free(spath);
	free(conf);
	free(img);
	free(bin);
	free(path);
	free(log);
	{
		char *rm[] = { "rm", "-rf", tmp, NULL };
		struct kb_spawn_result r;

		assert_int_equal(kb_spawn(rm, NULL, &r), 0);
	}
}

/* A run's "kexec" record (results/kexec_state.h): a kexec boot with its
 * unknown members null, or how the kernel booted without one. */
static void test_run_info_record(void **state)
{
	struct kb_kexec_run_info ki = { .by_kexec = 1, .boot = 3 };
	json_t *run = json_object(), *kx;

	(void)state;
	ki.marker = kb_xstrdup("kbench.campaign=abc");
	kexec_run_info_record(run, &ki);
	kexec_run_info_free(&ki);
	assert_null(ki.marker);
	kx = json_object_get(run, "kexec");
	assert_int_equal(json_integer_value(json_object_get(kx, "boot")), 3);
	assert_string_equal(json_string_value(json_object_get(kx, "marker")),
			    "kbench.campaign=abc");
	assert_true(json_is_null(json_object_get(kx, "build")));
	assert_int_equal(json_object_size(kx), 3);

	ki = (struct kb_kexec_run_info){ .booted = "without kexec" };
	kexec_run_info_record(run, &ki);	/* replaces the first */
	kx = json_object_get(run, "kexec");
	assert_int_equal(json_integer_value(json_object_get(kx, "boot")), 0);
	assert_string_equal(json_string_value(json_object_get(kx, "booted")),
			    "without kexec");
	assert_int_equal(json_object_size(kx), 2);
	json_decref(run);
}

/* kbench run --dry-run prints the kexec commands to paste: a word the
 * shell would read (an initrd path with a backquote) single-quoted
 * (lib/str.h kb_sh_word()); it was printed as it was, and ran id. */
static void test_dry_run_quoted(void **state)
{
	const char *dir = tmpdir;
	char cwd[4096];
	char *img, *conf, *out = NULL, *err = NULL, *want, *root;
	char *args[] = { "run", "--dry-run", "-q", "-c", NULL, "-o", NULL,
			 NULL };

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	img = kb_path_join(dir, "bzImage");
	write_bzimage(img, "6.9.0-rc3-bench+ (dev@box) #1 SMP");
	write_text(dir, "in`id`rd", "initrd");
	root = kb_path_join(dir, "root");
	write_text(root, "proc/cmdline", "root=/dev/vda ro\n");
	setenv("KBENCH_PROC_ROOT", root, 1);
	setenv("KBENCH_STATE_DIR", dir, 1);
	conf = write_conf(dir, cwd, 1, "k", img, "initrd = in`id`rd\n");
	args[4] = conf;
	args[6] = kb_path_join(dir, "camp");
	run_kbench(args, &out, &err);
	want = kb_xasprintf("kexec -l %s '--command-line=root=/dev/vda ro "
			    "kbench.campaign=", img);
	assert_non_null(strstr(out, want));
	free(want);
	want = kb_xasprintf(" '--initrd=%s/in`id`rd'\n", dir);
	if (!strstr(out, want))
		fail_msg("no %s in:\n%s\n%s", want, out, err);
	free(want);
	unsetenv("KBENCH_PROC_ROOT");
	unsetenv("KBENCH_STATE_DIR");
	free(args[6]);
	free(conf);
	free(root);
	free(img);
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b32_firmware_reboot),
		cmocka_unit_test(test_b34_target_identity),
		cmocka_unit_test(test_build_identity),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_state_machine),
		cmocka_unit_test(test_run_info_record),
		cmocka_unit_test(test_dry_run_quoted),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
