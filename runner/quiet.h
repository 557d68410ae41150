/* runner/quiet.h - wait, bounded, for the machine to go quiet before a
 * disturbed round is run again (retry_disturbed, runner/retry.h; issue
 * 13).
 *
 * Re-running a disturbed round at once puts it into the same busy phase
 * that disturbed it (../shared/tools/switching-load.sh: 7 s on, 6 s
 * off; measured 2026-12-01, 7-12 of 20 runs still disturbed after two
 * immediate retries).  Before a retry kbench samples the machine every
 * KB_QUIET_STEP_MS and starts the round as soon as the last
 * KB_QUIET_WINDOW_MS were quiet, or after retry_quiet_wait seconds
 * (kernels.conf [global], default KB_RETRY_QUIET_WAIT_DEFAULT_S of
 * parsers/kconf.h, 20 s, 0 = no wait)
 * either way, saying so.
 *
 * Quiet means, over the window, with kbench running nothing:
 *   busy_cpu_pct  (user + nice + system + irq + softirq ticks of
 *                 /proc/stat's aggregate "cpu" line over all its ticks, x
 *                 the number of "cpuN" lines, x 100: % of one CPU, the
 *                 unit of task.other.cpu_pct) <= the campaign's
 *                 task.other.cpu_pct limit (stats/disturbed.h: max(
 *                 disturbed_other_cpu_pct, 1.5 x the lower quartile));
 *   steal_pct     (steal ticks / all ticks x 100) <= disturbed_steal_pct;
 *   psi_cpu_pct   (/proc/pressure/cpu "some" total= delta over the
 *                 window's wall time x 100) <= disturbed_psi_pct.
 * The idle machine's busy CPU is compared with the limit a run's other
 * tasks are held to: everything busy now is "other" (a run's own kernel
 * threads, counted in task.other during runs, are absent, so the test is
 * if anything lenient).  A limit that is off (NAN) or a source that
 * cannot be read (no steal column, no PSI) is not checked.
 * Formats: proc(5) /proc/stat (USER_HZ ticks),
 * Documentation/accounting/psi.rst.
 */
#ifndef KB_RUNNER_QUIET_H
#define KB_RUNNER_QUIET_H

#include <signal.h>
#include <stddef.h>

#define KB_QUIET_WINDOW_MS 1000
#define KB_QUIET_STEP_MS 250

/* NAN: not checked */
struct kb_quiet_limits {
	double busy_cpu_pct, steal_pct, psi_cpu_pct;
};

/* One snapshot of the machine (kb_quiet_snapshot()). */
struct kb_quiet_snap {
	double time_s;			/* kb_mono_s() (lib/proc.h) */
	unsigned long long busy, steal, total;	/* /proc/stat ticks */
	int have_steal;			/* the steal column was there */
	unsigned ncpus;			/* "cpuN" lines */
	int have_psi;
	unsigned long long psi_some_us;
};

/* What the machine did between two snapshots; NAN: unknown. */
struct kb_quiet_sample {
	double busy_cpu_pct, steal_pct, psi_cpu_pct;
};

/* A snapshot from the texts of /proc/stat and /proc/pressure/cpu
 * (psi_text NULL: none) at time_s.  0, or -EINVAL when stat_text has no
 * valid "cpu " line (named by procfs_parse_stat()). */
int kb_quiet_parse(const char *stat_text, const char *psi_text,
		   double time_s, struct kb_quiet_snap *s);

/* Read the two files now.  0 or -errno (a malformed /proc/stat named
 * by procfs_parse_stat(), else no message). */
int kb_quiet_snapshot(struct kb_quiet_snap *s);

/* The sample of the interval a -> b.  -ERANGE when a counter went
 * backwards or no tick elapsed (nothing can be said), else 0. */
int kb_quiet_sample_of(const struct kb_quiet_snap *a,
		       const struct kb_quiet_snap *b,
		       struct kb_quiet_sample *out);

/* 1 when s is quiet under l, 0 when busy with the first broken limit in
 * why ("other tasks used 190% of a CPU > 40%"). */
int kb_quiet_judge(const struct kb_quiet_limits *l,
		   const struct kb_quiet_sample *s, char *why, size_t len);

/* Sample every KB_QUIET_STEP_MS until the last KB_QUIET_WINDOW_MS were
 * quiet (1), max_wait_s passed (0: busy; why says what the last window
 * broke), *stop became non-zero (0), or the files cannot be read (-errno:
 * nothing to wait on).  *waited_s: the seconds spent.  No message. */
int kb_wait_quiet(const struct kb_quiet_limits *l, double max_wait_s,
		  const volatile sig_atomic_t *stop, double *waited_s,
		  char *why, size_t len);

#endif
