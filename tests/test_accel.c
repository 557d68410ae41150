/* tests/test_accel.c - runner/accel.c: the accelerator request
 * (KBENCH_ACCEL over accel = over [global] over auto), the kernels.conf
 * keys, and the KVM probe against stand-in QEMUs put first in PATH (a
 * guest that prints the kernel banner, one that hangs after firmware
 * output, one that prints nothing, a QEMU that exits with an error), and
 * the plan's boot estimate found by driver capability (runner/drivers.h).
 * The real probe on a real /dev/kvm is `make check-vm`. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "parsers/kconf.h"
#include "runner/accel.h"
#include "runner/drivers.h"
#include "runner/plan.h"

static char bindir[] = "/tmp/kbench-test-accel.XXXXXX";
static char *oldpath;

/* A stand-in qemu-system-x86_64: finds "-serial file:PATH" and behaves
 * as FAKE_QEMU says. */
static const char fake_qemu[] =
	"#!/bin/sh\n"
	"serial=\n"
	"while [ $# -gt 0 ]; do\n"
	"  case \"$1\" in -serial) serial=${2#file:}; shift;; esac; shift\n"
	"done\n"
	"case \"$FAKE_QEMU\" in\n"
	"works) printf 'SeaBIOS\\r\\n[    0.000000] Linux version 6.1.0-fake\\n' > \"$serial\"; sleep 30;;\n"
	"hangs) printf 'SeaBIOS (version 1.16)\\r\\nProbing EDD\\r\\n' > \"$serial\"; sleep 30;;\n"
	"silent) sleep 30;;\n"
	"dies) echo 'qemu-system-x86_64: failed to initialize kvm: Permission denied' >&2; exit 1;;\n"
	"internal) cat tests/data/qemu/kvm-internal-error.console > \"$serial\"; sleep 1; cat tests/data/qemu/kvm-internal-error.stderr >&2; sleep 30;;\n"
	"esac\n";

static int setup(void **state)
{
	char *path;
	FILE *f;

	(void)state;
	if (!mkdtemp(bindir))
		return -1;
	path = kb_xasprintf("%s/qemu-system-x86_64", bindir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(fake_qemu, f);
	fclose(f);
	chmod(path, 0755);
	free(path);
	oldpath = kb_xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	path = kb_xasprintf("%s:%s", bindir, oldpath);
	setenv("PATH", path, 1);
	free(path);
	return 0;
}

static int teardown(void **state)
{
	char *path = kb_xasprintf("%s/qemu-system-x86_64", bindir);

	(void)state;
	unlink(path);
	rmdir(bindir);
	setenv("PATH", oldpath, 1);
	free(oldpath);
	free(path);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_probe_banner(void **state)
{
	char *why = NULL;
	double t0 = now_s();

	(void)state;
	setenv("FAKE_QEMU", "works", 1);
	assert_int_equal(accel_kvm_probe("/nonexistent/bzImage", 10, &why), 1);
	assert_non_null(strstr(why, "banner"));
	/* it stops at the banner: not after the stand-in's 30 s */
	assert_true(now_s() - t0 < 9);
	free(why);
}

static void test_probe_hang_after_firmware(void **state)
{
	char *why = NULL;

	(void)state;
	setenv("FAKE_QEMU", "hangs", 1);
	assert_int_equal(accel_kvm_probe("/nonexistent/bzImage", 1, &why), 0);
	assert_string_equal(why, "no kernel output within 1 s (firmware "
			    "output only)");
	free(why);
	setenv("FAKE_QEMU", "silent", 1);
	assert_int_equal(accel_kvm_probe("/nonexistent/bzImage", 1, &why), 0);
	assert_string_equal(why, "no kernel output within 1 s (no console "
			    "output at all)");
	free(why);
}

static void test_probe_qemu_fails(void **state)
{
	char *why = NULL;

	(void)state;
	setenv("FAKE_QEMU", "dies", 1);
	assert_int_equal(accel_kvm_probe("/nonexistent/bzImage", 5, &why), 0);
	assert_non_null(strstr(why, "exited (status 1)"));
	assert_non_null(strstr(why, "failed to initialize kvm"));
	free(why);
}

/* QEMU's "KVM internal error" (recorded: tests/data/qemu) ends the probe
 * at once with QEMU's words: QEMU stays up, paused, and the stand-in
 * sleeps 30 s after it, so a probe that waited for the banner would
 * return after its 10 s. */
static void test_probe_kvm_internal_error(void **state)
{
	char *why = NULL;
	double t0 = now_s();

	(void)state;
	setenv("FAKE_QEMU", "internal", 1);
	assert_int_equal(accel_kvm_probe("/nonexistent/bzImage", 10, &why), 0);
	assert_true(now_s() - t0 < 8);
	assert_non_null(strstr(why, "QEMU stopped the guest after "));
	assert_non_null(strstr(why, "\"KVM internal error. Suberror: 1\""));
	assert_non_null(strstr(why, "(emulation failure)"));
	free(why);
}

static void test_request_order(void **state)
{
	struct kb_config cfg;
	enum kb_accel a;
	const char *src;
	static const char conf[] =
		"[global]\njobs = j\naccel = tcg\nkvm_probe_timeout = 7\n"
		"[a]\nmethod = vm\nkernel = /k\naccel = kvm\n"
		"[b]\nmethod = vm\nkernel = /k\n";

	(void)state;
	unsetenv("KBENCH_ACCEL");
	assert_int_equal(kconf_parse("t.conf", conf, &cfg), 0);
	assert_int_equal(cfg.kvm_probe_timeout_s, 7);
	assert_int_equal(accel_requested(&cfg.variants[0], &a, &src), 0);
	assert_int_equal(a, KB_ACCEL_KVM);
	assert_string_equal(src, "kernels.conf");
	assert_int_equal(accel_requested(&cfg.variants[1], &a, &src), 0);
	assert_int_equal(a, KB_ACCEL_TCG);	/* [global]'s */
	setenv("KBENCH_ACCEL", "auto", 1);	/* the environment wins */
	assert_int_equal(accel_requested(&cfg.variants[0], &a, &src), 0);
	assert_int_equal(a, KB_ACCEL_AUTO);
	assert_string_equal(src, "KBENCH_ACCEL");
	setenv("KBENCH_ACCEL", "hvf", 1);
	assert_int_equal(accel_requested(&cfg.variants[0], &a, &src), -EINVAL);
	unsetenv("KBENCH_ACCEL");
	kconf_free(&cfg);

	/* unset everywhere: auto; the default probe timeout is 20 s */
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = j\n[a]\n"
				     "method = vm\nkernel = /k\n", &cfg), 0);
	assert_int_equal(cfg.kvm_probe_timeout_s, 20);
	assert_int_equal(accel_requested(&cfg.variants[0], &a, &src), 0);
	assert_int_equal(a, KB_ACCEL_AUTO);
	assert_string_equal(src, "default");
	kconf_free(&cfg);
}

static void test_conf_errors(void **state)
{
	struct kb_config cfg;

	(void)state;
	/* a bad value, and accel on a local variant */
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = j\n"
		"accel = whpx\n[a]\nmethod = local\naccel = kvm\n", &cfg),
		-EINVAL);
	kconf_free(&cfg);
}

/* The plan's boot estimate is TCG's when a variant whose driver boots
 * under QEMU's accelerator (KB_DRIVER_ACCEL: method = vm, found by
 * capability, not by name) asks for TCG. */
static void test_boot_estimate(void **state)
{
	struct kb_config cfg;

	(void)state;
	unsetenv("KBENCH_ACCEL");
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = j\n[a]\n"
		"method = local\n[b]\nmethod = vm\nkernel = /k\naccel = tcg\n"
		"[c]\nmethod = kexec\nkernel = /k\n", &cfg), 0);
	assert_non_null(driver_of(&cfg.variants[0]));
	assert_int_equal(driver_of(&cfg.variants[0])->flags, 0);
	assert_true(driver_of(&cfg.variants[1])->flags & KB_DRIVER_ACCEL);
	assert_true(driver_of(&cfg.variants[1])->flags & KB_DRIVER_BOOTS);
	assert_false(driver_of(&cfg.variants[2])->flags & KB_DRIVER_ACCEL);
	assert_true(driver_of(&cfg.variants[2])->flags & KB_DRIVER_BOOTS);
	assert_true(plan_boot_estimate_s(&cfg, NULL) == KB_BOOT_TCG_S);
	kconf_free(&cfg);

	/* kexec boots are not QEMU's: their estimate is KB_BOOT_KEXEC_S
	 * whatever the accelerator (they were TCG's 35 s without /dev/kvm,
	 * KVM's 8 s with it: a break-it trial); a vm boot's is its own */
	{
		struct kb_plan plan;
		size_t boots;
		const char *accel[] = { "tcg", "kvm" };
		int a;

		for (a = 0; a < 2; a++) {
			setenv("KBENCH_ACCEL", accel[a], 1);
			assert_int_equal(kconf_parse("t.conf", "[global]\n"
				"jobs = j\n[a]\nmethod = kexec\nkernel = /k\n"
				"[b]\nmethod = kexec\nkernel = /k2\n", &cfg), 0);
			assert_int_equal(plan_build(&cfg, &plan), 0);
			boots = plan_count_boots(&cfg, &plan, NULL);
			assert_true(boots > 0);
			assert_true(plan_boots_s(&cfg, &plan, NULL, NULL) ==
				    boots * KB_BOOT_KEXEC_S);
			plan_free(&plan);
			kconf_free(&cfg);
			assert_int_equal(kconf_parse("t.conf", "[global]\n"
				"jobs = j\n[a]\nmethod = kexec\nkernel = /k\n"
				"[b]\nmethod = vm\nkernel = /k2\n", &cfg), 0);
			assert_int_equal(plan_build(&cfg, &plan), 0);
			boots = plan_count_boots(&cfg, &plan, NULL);
			assert_true(plan_boots_s(&cfg, &plan, NULL, NULL) ==
				    boots / 2 * (KB_BOOT_KEXEC_S + (a ?
				    KB_BOOT_KVM_S : KB_BOOT_TCG_S)));
			plan_free(&plan);
			kconf_free(&cfg);
		}
		unsetenv("KBENCH_ACCEL");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_banner),
		cmocka_unit_test(test_probe_hang_after_firmware),
		cmocka_unit_test(test_probe_qemu_fails),
		cmocka_unit_test(test_probe_kvm_internal_error),
		cmocka_unit_test(test_request_order),
		cmocka_unit_test(test_conf_errors),
		cmocka_unit_test(test_boot_estimate),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
