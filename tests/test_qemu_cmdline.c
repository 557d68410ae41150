/* tests/test_qemu_cmdline.c - kb_qemu_guest_cmdline() (runner/qemu.h):
 * the guest's -append under TCG and KVM, with and without the variant's
 * own words, and the variant's acpi= / pci= choice kept over kbench's
 * acpi=noirq. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "runner/qemu.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcg_adds_noirq),
		cmocka_unit_test(test_kvm_untouched),
		cmocka_unit_test(test_variant_choice_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
