#include "lib/metrics.h"

#include <string.h>

#define FIO_DIR(d, D) \
	{ d ".iops", "IOPS", KB_HIGHER_BETTER, D " IOPS", \
	  D " I/Os per second, summed over the jobs (fio JSON " d ".iops)" }, \
	{ d ".bw_kib", "KiB/s", KB_HIGHER_BETTER, D " KiB/s", \
	  D " bandwidth in KiB/s, summed over the jobs (fio JSON " d ".bw)" }, \
	{ d ".clat_mean_ns", "ns", KB_LOWER_BETTER, D " clat", \
	  D " mean completion latency, weighted by I/O count over jobs" }, \
	{ d ".clat_p50_ns", "ns", KB_LOWER_BETTER, D " clat p50", \
	  D " median completion latency" }, \
	{ d ".clat_p99_ns", "ns", KB_LOWER_BETTER, D " clat p99", \
	  D " 99th percentile completion latency" }, \
	{ d ".clat_p999_ns", "ns", KB_LOWER_BETTER, D " clat p99.9", \
	  D " 99.9th percentile completion latency" }, \
	{ d ".lat_mean_ns", "ns", KB_LOWER_BETTER, D " lat", \
	  D " mean total latency (submission + completion)" }

const struct kb_metric_def kb_metrics[] = {
	FIO_DIR("read", "read"),
	FIO_DIR("write", "write"),
	FIO_DIR("trim", "trim"),
	{ "fio.usr_cpu_pct", "%", KB_LOWER_BETTER, "fio usr%",
	  "fio's user CPU, percent of one CPU, mean over jobs (usr_cpu)" },
	{ "fio.sys_cpu_pct", "%", KB_LOWER_BETTER, "fio sys%",
	  "fio's system CPU, percent of one CPU, mean over jobs (sys_cpu)" },

	{ "cpu.user_pct", "%", KB_LOWER_BETTER, "user%",
	  "/proc/stat user time during the run, percent of the machine" },
	{ "cpu.nice_pct", "%", KB_NEUTRAL, "nice%",
	  "/proc/stat nice time during the run, percent of the machine" },
	{ "cpu.system_pct", "%", KB_LOWER_BETTER, "sys%",
	  "/proc/stat system time during the run, percent of the machine" },
	{ "cpu.iowait_pct", "%", KB_NEUTRAL, "iowait%",
	  "/proc/stat iowait during the run, percent of the machine" },
	{ "cpu.irq_pct", "%", KB_LOWER_BETTER, "irq%",
	  "/proc/stat hard-irq time during the run, percent of the machine" },
	{ "cpu.softirq_pct", "%", KB_LOWER_BETTER, "softirq%",
	  "/proc/stat soft-irq time during the run, percent of the machine" },
	{ "cpu.idle_pct", "%", KB_NEUTRAL, "idle%",
	  "/proc/stat idle time during the run, percent of the machine" },

	{ "disk.read_ios", "count", KB_NEUTRAL, "rd I/Os",
	  "/proc/diskstats reads completed on the target during the run" },
	{ "disk.read_merges", "count", KB_NEUTRAL, "rd merges",
	  "/proc/diskstats reads merged on the target during the run" },
	{ "disk.read_sectors", "count", KB_NEUTRAL, "rd sectors",
	  "/proc/diskstats 512-byte sectors read during the run" },
	{ "disk.write_ios", "count", KB_NEUTRAL, "wr I/Os",
	  "/proc/diskstats writes completed on the target during the run" },
	{ "disk.write_merges", "count", KB_NEUTRAL, "wr merges",
	  "/proc/diskstats writes merged on the target during the run" },
	{ "disk.write_sectors", "count", KB_NEUTRAL, "wr sectors",
	  "/proc/diskstats 512-byte sectors written during the run" },
	{ "disk.ios", "count", KB_NEUTRAL, "I/Os",
	  "/proc/diskstats I/Os issued to the target (reads+writes+discards)" },
	{ "disk.merges", "count", KB_NEUTRAL, "merges",
	  "/proc/diskstats merges on the target (reads+writes+discards)" },
	{ "disk.io_ticks_ms", "ms", KB_NEUTRAL, "busy ms",
	  "/proc/diskstats time the target had I/O in flight (io_ticks)" },

	{ "rusage.user_s", "s", KB_LOWER_BETTER, "user",
	  "fio's user CPU seconds (wait4 rusage, children included)" },
	{ "rusage.sys_s", "s", KB_LOWER_BETTER, "system",
	  "fio's system CPU seconds (wait4 rusage)" },
	{ "rusage.elapsed_s", "s", KB_NEUTRAL, "elapsed",
	  "wall-clock seconds from fio's start to its exit" },
	{ "rusage.cpu_pct", "%", KB_LOWER_BETTER, "%CPU",
	  "(user+system)/elapsed, percent of one CPU, as /usr/bin/time" },
	{ "rusage.maxrss_kib", "KiB", KB_LOWER_BETTER, "maxres",
	  "fio's peak resident set, KiB (ru_maxrss)" },
	{ "rusage.major_faults", "count", KB_LOWER_BETTER, "major",
	  "fio's major page faults (ru_majflt)" },
	{ "rusage.minor_faults", "count", KB_LOWER_BETTER, "minor",
	  "fio's minor page faults (ru_minflt)" },
	{ NULL, NULL, KB_NEUTRAL, NULL, NULL },
};

const struct kb_metric_def *kb_metric_find(const char *name)
{
	const struct kb_metric_def *m;

	for (m = kb_metrics; m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

const char *kb_direction_name(enum kb_direction d)
{
	switch (d) {
	case KB_HIGHER_BETTER:
		return "higher";
	case KB_LOWER_BETTER:
		return "lower";
	default:
		return "neutral";
	}
}
