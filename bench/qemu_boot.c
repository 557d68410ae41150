/* bench/qemu_boot.c - boot QEMU and time a line on its console, with the
 * watcher kbench's vm driver uses (runner/qemu.h kb_qemu_run), so a plain
 * boot and a kbench guest are timed the same way (part of `make bench`,
 * never of kbench).
 *
 * usage: qemu_boot CONSOLE LOG NEEDLE TIMEOUT_S QEMU [ARG...]
 *
 *   CONSOLE    the file QEMU's -serial file: writes (in the argv too)
 *   LOG        QEMU's own stdout and stderr
 *   NEEDLE     the console text to time
 *   TIMEOUT_S  QEMU is killed when NEEDLE has not shown by then
 *
 * QEMU is killed as soon as NEEDLE shows.  Prints one line on stdout:
 *
 *   rc=0 needle_s=8.412 wall_s=8.503
 *
 * needle_s: seconds from QEMU's start to NEEDLE (polled every
 * KB_QEMU_TICK_S, as kbench's first_run_s in boots/NNN/timing.json);
 * rc=1 when it never showed.
 */
#include "runner/qemu.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct kb_qemu_watch w = { 0 };
	struct kb_qemu_result r;

	if (argc < 6) {
		fprintf(stderr, "usage: qemu_boot CONSOLE LOG NEEDLE TIMEOUT_S "
			"QEMU [ARG...]\n");
		return 2;
	}
	w.console = argv[1];
	w.needle = argv[3];
	w.needle_by_s = atof(argv[4]);
	w.total_s = w.needle_by_s + 5;
	w.stop_at_needle = 1;
	if (kb_qemu_run(argv + 5, argv[2], &w, &r))
		return 1;
	printf("rc=%d needle_s=%.3f wall_s=%.3f\n", r.needle_seen ? 0 : 1,
	       r.needle_s, r.wall_s);
	return r.needle_seen ? 0 : 1;
}
