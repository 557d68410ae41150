/* parsers/procfs.h - /proc/stat and /proc/diskstats snapshots.
 *
 * Formats: proc(5) ("/proc/stat": the aggregate "cpu" line, fields in
 * USER_HZ ticks: user nice system idle iowait irq softirq steal guest
 * guest_nice) and Documentation/admin-guide/iostats.rst ("/proc/diskstats":
 * major minor name, then reads completed, reads merged, sectors read, ms
 * reading, writes completed, writes merged, sectors written, ms writing,
 * I/Os in progress, ms doing I/O (io_ticks), weighted ms; kernels >= 4.18
 * add 4 discard fields, >= 5.5 add 2 flush fields).
 */
#ifndef KB_PROCFS_H
#define KB_PROCFS_H

#include <jansson.h>

struct kb_cpu_ticks {
	unsigned long long user, nice, system, idle, iowait, irq, softirq,
		steal;
	int nfields;		/* tick columns read (steal needs 8) */
};

/* PSI (Documentation/accounting/psi.rst) of one resource: the "some"
 * line's total= (microseconds some task was stalled on it). */
struct kb_psi_res {
	int have;			/* total read */
	unsigned long long some_us;
	char reason[160];		/* why not, when !have */
};

/* A pressure snapshot as runner/collect_proc.c writes it
 * (pressure.before/.after): a "time_ns N" line (CLOCK_MONOTONIC), then
 * each of /proc/pressure/{cpu,io,memory} prefixed with its name
 * ("cpu some avg10=0.00 avg60=0.00 avg300=0.00 total=123"), or
 * "NAME unavailable: REASON" when it could not be read. */
enum { KB_PSI_CPU, KB_PSI_IO, KB_PSI_MEMORY, KB_PSI_N };
struct kb_pressure {
	unsigned long long time_ns;
	struct kb_psi_res res[KB_PSI_N];
};

/* CPU frequency snapshot (cpufreq.before/.after): "cpuN KHZ" lines of
 * /sys/devices/system/cpu/cpuN/cpufreq/scaling_cur_freq, or one line
 * "unavailable: REASON". */
struct kb_cpufreq {
	int n;				/* CPUs read */
	double sum_khz;
	char reason[160];		/* when n == 0 */
};

struct kb_diskstats {
	unsigned long long rd_ios, rd_merges, rd_sectors, rd_ticks;
	unsigned long long wr_ios, wr_merges, wr_sectors, wr_ticks;
	unsigned long long in_flight, io_ticks, time_in_queue;
	unsigned long long dc_ios, dc_merges, dc_sectors, dc_ticks;
	int has_discard;
};

/* Parse the "cpu " line of a /proc/stat text.  0, or -EINVAL with a
 * message naming name when the line is missing or malformed. */
int procfs_parse_stat(const char *name, const char *text,
		      struct kb_cpu_ticks *t);

/* Find device dev (e.g. "loop0", "nvme0n1") in a /proc/diskstats text.
 * 0, -ENOENT when absent (no message), -EINVAL when malformed (message). */
int procfs_parse_diskstats(const char *name, const char *text,
			   const char *dev, struct kb_diskstats *d);

/* Add to metrics the cpu.*_pct of the interval between two /proc/stat
 * snapshots: each field's delta as a percent of all fields' delta (the
 * whole machine), cpu.steal_pct included when both have the steal
 * column (else unavailable["cpu.steal_pct"] says why).  Nothing is added
 * when no tick elapsed.  A counter that went backwards makes every share
 * meaningless: nothing is added, each cpu.* gets the reason in
 * unavailable (may be NULL), and -ERANGE is returned with the reason in
 * why (the caller warns). */
int procfs_cpu_metrics(const struct kb_cpu_ticks *a,
		       const struct kb_cpu_ticks *b, json_t *metrics,
		       json_t *unavailable, char *why, size_t whylen);

/* Parse a pressure snapshot (see struct kb_pressure).  0, or -EINVAL
 * with a message naming name when there is no time_ns line. */
int procfs_parse_pressure(const char *name, const char *text,
			  struct kb_pressure *p);

/* psi.{cpu,io,memory}_some_pct: the "some" total's delta over the
 * interval as a percent of the interval's time.  A resource not read in
 * either snapshot gets its reason in unavailable; one whose total went
 * backwards is left out with a warning appended to warnings. */
void procfs_psi_metrics(const struct kb_pressure *a,
			const struct kb_pressure *b, json_t *metrics,
			json_t *unavailable, json_t *warnings);

/* Parse a cpufreq snapshot.  Always 0 (a malformed line is skipped). */
int procfs_parse_cpufreq(const char *text, struct kb_cpufreq *f);

/* cpu.freq_mhz: the mean over both snapshots' CPUs, or its reason in
 * unavailable. */
void procfs_cpufreq_metrics(const struct kb_cpufreq *a,
			    const struct kb_cpufreq *b, json_t *metrics,
			    json_t *unavailable);

/* Add to metrics the disk.* deltas between two diskstats samples. */
void procfs_disk_metrics(const struct kb_diskstats *a,
			 const struct kb_diskstats *b, json_t *metrics);

/* The GNU build ID of the running kernel from the ELF notes of
 * /sys/kernel/notes (Elf_Nhdr: namesz, descsz, type, then the name and
 * the descriptor, each padded to 4 bytes; NT_GNU_BUILD_ID = 3, name
 * "GNU"), as lowercase hex into hex (hexlen >= 2 * size + 1).  0,
 * -ENOENT when there is none, -EINVAL when buf is malformed. */
int procfs_notes_build_id(const unsigned char *buf, size_t len, char *hex,
			  size_t hexlen);

/* Record the machine a run runs on into rec (run.json): "kernel_release"
 * (uname -r), "proc_version" (the first line of /proc/version: release
 * plus the build string, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 ..."),
 * "kernel_build_id" (procfs_notes_build_id(), when readable) and
 * "mem_total_kib" (/proc/meminfo MemTotal).  Two builds can share a
 * release: the three together are the kernel's identity.  What cannot be
 * read is left out. */
void procfs_record_kernel(json_t *rec);

/* The kernel's taint mask: /proc/sys/kernel/tainted, a decimal number
 * (Documentation/admin-guide/tainted-kernels.rst).  0 and *mask, or
 * -errno (unreadable: not there in a container without /proc/sys, say),
 * -EINVAL (not a number) or -ERANGE (above 2^63 - 1: no kernel sets bits
 * that high, and run.json's integers are signed 64-bit). */
int procfs_read_taint(unsigned long long *mask);

/* The taint mask in text (what /proc/sys/kernel/tainted holds: decimal,
 * an optional newline): 0 and *mask, -EINVAL (not such a number, or
 * negative) or -ERANGE (above 2^63 - 1). */
int procfs_parse_taint(const char *text, unsigned long long *mask);

/* What a taint letter says, for a message ("a kernel warning"), after
 * tainted-kernels.rst's table; NULL for a letter not in it. */
const char *procfs_taint_meaning(char letter);

/* The set bits of mask as a message names them, lowest bit first, by
 * the letters the kernel's "Tainted:" line prints (tainted-kernels.rst's
 * table: P F S R M B U D A W C I O E L K X T N J for bits 0-19):
 * "W (a kernel warning), L (a soft lockup)"; a bit past the table as
 * "bit 25 (not in tainted-kernels.rst)".  Malloc'd, "" for 0; every
 * bit is named (no truncation). */
char *procfs_taint_describe(unsigned long long mask);

#endif
