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
 * whole machine).  Nothing is added when no tick elapsed. */
void procfs_cpu_metrics(const struct kb_cpu_ticks *a,
			const struct kb_cpu_ticks *b, json_t *metrics);

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

#endif
