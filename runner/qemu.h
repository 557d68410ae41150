/* runner/qemu.h - one QEMU process, watched through its serial console
 * file: the vm driver's boots (runner/driver_vm.c) and the KVM probe
 * (runner/accel.c).  QEMU is started from an argv array in its own
 * process group, stdin from /dev/null, stdout and stderr into logpath.
 */
#ifndef KB_QEMU_H
#define KB_QEMU_H

#include <stddef.h>

struct kb_qemu_watch {
	const char *console;	/* the -serial file:PATH file */
	const char *needle;	/* text to wait for in it */
	double needle_by_s;	/* kill QEMU when not seen by then */
	double total_s;		/* kill QEMU after this in any case */
	int stop_at_needle;	/* 1: kill QEMU as soon as it is seen */
	const char *mark;	/* NULL, or text whose first appearance is
				 * timed too (e.g. the guest's first run) */
	const char *log_stop;	/* NULL, or text in QEMU's own output (the
				 * log) that ends the wait at once, QEMU
				 * killed: KB_QEMU_KVM_ERROR */
};

/* What QEMU prints on stderr when KVM cannot go on with a guest ("KVM
 * internal error. Suberror: 1 ... emulation failure" and a register
 * dump); QEMU then sits with the guest paused, printing nothing more, so
 * waiting for the console is waiting for the timeout (seen 2026-12-04
 * under a nested hypervisor: the kernel's decompressor, at a BMI2
 * instruction KVM's emulator does not know; tests/data/qemu). */
#define KB_QEMU_KVM_ERROR "KVM internal error"

struct kb_qemu_result {
	int needle_seen;	/* 1 when the needle appeared */
	double needle_s;	/* seconds from start to it, else -1 */
	double mark_s;		/* seconds from start to the mark, else -1 */
	double wall_s;		/* seconds QEMU ran */
	int killed_needle;	/* killed: no needle by needle_by_s */
	int killed_total;	/* killed: past total_s */
	int log_stopped;	/* killed: log_stop appeared in its output */
	int exited;		/* 1 when QEMU exited by itself */
	int exit_status;	/* its status then (127: could not exec) */
};

/* How often the console is read while a line is awaited: the needle
 * and the mark are timed to within this (the boot log is tens of KiB
 * then; 0.1 s, and 0.25 s for the mark, until 2026-12-01: a guest's
 * first run was timed 0.15 s late on average, a plain boot's line 0.05). */
#define KB_QEMU_TICK_S 0.02

/* Run and watch; the console is read every KB_QEMU_TICK_S until the
 * needle and the mark show, then no more (a console can grow to
 * megabytes once the guest runs; QEMU's exit and the time limits are
 * checked every 0.1 s).
 * kb_spawn_forward_signal (lib/proc.h) set: QEMU gets SIGTERM and the
 * call returns -EINTR.  0 when QEMU ran (whatever happened: *res), or
 * -errno when it could not be started (message printed). */
int kb_qemu_run(char *const argv[], const char *logpath,
		const struct kb_qemu_watch *w, struct kb_qemu_result *res);

/* The first line of QEMU's own output in logpath that contains text,
 * control characters as '?', at most max bytes; malloc'd, or NULL. */
char *kb_qemu_log_line(const char *logpath, const char *text, size_t max);

/* The last line of QEMU's own output in logpath (its error, if any),
 * trailing blanks cut, control characters as '?', at most max bytes;
 * malloc'd, or NULL when QEMU printed nothing (or the log is missing). */
char *kb_qemu_last_line(const char *logpath, size_t max);

/* The guest kernel's command line (QEMU's -append) for variant NAME:
 * kbench's console and marker words, then the variant's own cmdline
 * (NULL: none).  Under TCG (kvm 0) "acpi=noirq" comes first too: Linux's
 * ACPI interpreter spends about 150 ms per PCI device there routing its
 * legacy interrupt (the _PRT and interrupt-link methods, run once per
 * device as its driver enables it: virtio_pci probing two 9p devices took
 * 0.30 s of a 6.1 guest's start, 7 ms with acpi=noirq, measured
 * 2026-12-01), while virtio devices interrupt through MSI-X, which
 * acpi=noirq leaves alone (Documentation/admin-guide/kernel-parameters.txt:
 * "acpi=noirq: Do not use ACPI for IRQ routing"; the PIRQ table of
 * QEMU's firmware routes what is left).  Left out when the variant's
 * cmdline has its own acpi= or pci= word.  malloc'd. */
char *kb_qemu_guest_cmdline(const char *name, const char *cmdline, int kvm);

#endif
