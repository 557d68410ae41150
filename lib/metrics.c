#include "lib/metrics.h"
#include "lib/str.h"

#include <string.h>
#include <strings.h>

#define FIO_DIR(d, D) \
	{ d ".iops", "IOPS", KB_HIGHER_BETTER, D " IOPS", \
	  D " I/Os per second, summed over the jobs (fio JSON " d ".iops)" }, \
	{ d ".bw_kib", "KiB/s", KB_HIGHER_BETTER, D " KiB/s", \
	  D " bandwidth in KiB/s, summed over the jobs (fio JSON " d ".bw)" }, \
	{ d ".clat_mean_ns", "ns", KB_LOWER_BETTER, D " clat mean", \
	  D " mean completion latency, weighted by I/O count over jobs" }, \
	{ d ".clat_p50_ns", "ns", KB_LOWER_BETTER, D " clat p50", \
	  D " median completion latency" }, \
	{ d ".clat_p99_ns", "ns", KB_LOWER_BETTER, D " clat p99", \
	  D " 99th percentile completion latency" }, \
	{ d ".clat_p999_ns", "ns", KB_LOWER_BETTER, D " clat p99.9", \
	  D " 99.9th percentile completion latency" }, \
	{ d ".slat_mean_ns", "ns", KB_LOWER_BETTER, D " slat mean", \
	  D " mean submission latency, weighted by I/O count over jobs " \
	  "(async engines only: libaio, io_uring)" }, \
	{ d ".lat_mean_ns", "ns", KB_LOWER_BETTER, D " lat mean", \
	  D " mean total latency (submission + completion)" }, \
	{ d ".lat_p50_ns", "ns", KB_LOWER_BETTER, D " lat p50", \
	  D " median total latency (fio lat_percentiles=1)" }, \
	{ d ".lat_p99_ns", "ns", KB_LOWER_BETTER, D " lat p99", \
	  D " 99th percentile total latency (fio lat_percentiles=1)" }, \
	{ d ".lat_p999_ns", "ns", KB_LOWER_BETTER, D " lat p99.9", \
	  D " 99.9th percentile total latency (fio lat_percentiles=1)" }

#define PERF_COUNT(n, u, l, d) \
	{ n, u, KB_NEUTRAL, l, d " during the run (perf_event_open)" }, \
	{ n "_coverage_pct", "%", KB_NEUTRAL, l " cov%", \
	  "time counted / time enabled of " n ", percent (100 = not " \
	  "multiplexed)" }

#define PROFILE_ROLE(r, T) \
	{ "profile." r ".samples", "count", KB_NEUTRAL, T " samples", \
	  T " profile: samples attributed" }, \
	{ "profile." r ".kernel_pct", "%", KB_NEUTRAL, T " kernel%", \
	  T " profile: kernel samples, percent of all" }, \
	{ "profile." r ".unresolved_pct", "%", KB_LOWER_BETTER, \
	  T " unresolved%", T " profile: kernel samples shown as raw " \
	  "addresses (kptr_restrict), percent of all" }, \
	{ "profile." r ".io.total_pct", "%", KB_LOWER_BETTER, T " I/O", \
	  T " profile: block I/O code (symbols.conf [io]), % of all" }, \
	{ "profile." r ".merge.total_pct", "%", KB_LOWER_BETTER, "Total", \
	  T " profile: merge attempts ([merge]), % of all samples" }, \
	{ "profile." r ".merge.io_pct", "%", KB_LOWER_BETTER, "I/O Code", \
	  T " profile: merge attempts, percent of the I/O code's" }, \
	{ "profile." r ".idle.total_pct", "%", KB_NEUTRAL, T " idle", \
	  T " profile: CPU idle loops ([idle]), % of all samples" }, \
	{ "profile." r ".other_pct", "%", KB_NEUTRAL, T " other", \
	  T " profile: samples in no top-level group, % of all" }

const struct kb_metric_def kb_metrics[] = {
	FIO_DIR("read", "read"),
	FIO_DIR("write", "write"),
	FIO_DIR("trim", "trim"),
	{ "fio.usr_cpu_pct", "%", KB_LOWER_BETTER, "fio usr%",
	  "fio's user CPU, percent of one CPU, mean over jobs (usr_cpu)" },
	{ "fio.sys_cpu_pct", "%", KB_LOWER_BETTER, "fio sys%",
	  "fio's system CPU, percent of one CPU, mean over jobs (sys_cpu)" },
	{ "fio.total_ios", "count", KB_NEUTRAL, "fio I/Os",
	  "I/Os fio issued: reads + writes + trims, summed over the jobs "
	  "(fio JSON total_ios, \"IO issued rwts: total=\" without syncs)" },

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
	{ "cpu.steal_pct", "%", KB_LOWER_BETTER, "steal%",
	  "/proc/stat steal time during the run (a hypervisor ran other "
	  "guests on this VM's CPUs), percent of the machine" },
	{ "cpu.freq_mhz", "MHz", KB_NEUTRAL, "MHz",
	  "mean scaling_cur_freq of every CPU at the run's start and end "
	  "(cpufreq sysfs), MHz" },
	{ "psi.cpu_some_pct", "%", KB_LOWER_BETTER, "PSI cpu%",
	  "/proc/pressure/cpu \"some\": time some task waited for a CPU, "
	  "percent of the run's wall time" },
	{ "psi.io_some_pct", "%", KB_NEUTRAL, "PSI io%",
	  "/proc/pressure/io \"some\": time some task waited for I/O, "
	  "percent of the run's wall time" },
	{ "psi.memory_some_pct", "%", KB_LOWER_BETTER, "PSI mem%",
	  "/proc/pressure/memory \"some\": time some task stalled on "
	  "memory (reclaim, refaults), percent of the run's wall time" },

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
	{ "disk.util_pct", "%", KB_NEUTRAL, "util%",
	  "device utilisation fio measured, percent of the run the device "
	  "was busy (fio's disk_util, terse disk_util: the first device, an "
	  "md device's busiest member; mean over hosts)" },

	{ "rusage.user_s", "s", KB_LOWER_BETTER, "user",
	  "fio's user CPU seconds (wait4 rusage, children included)" },
	{ "rusage.sys_s", "s", KB_LOWER_BETTER, "system",
	  "fio's system CPU seconds (wait4 rusage)" },
	{ "rusage.elapsed_s", "s", KB_NEUTRAL, "elapsed",
	  "wall-clock seconds from fio's start to its exit" },
	{ "rusage.cpu_pct", "%", KB_LOWER_BETTER, "%CPU",
	  "(user+system)/elapsed, percent of one CPU, as /usr/bin/time" },
	{ "rusage.maxrss_kib", "KiB", KB_LOWER_BETTER, "maxres",
	  "fio's peak resident set, KiB (ru_maxrss; n/a when not above "
	  "kbench's own at the fork, which Linux counts in it)" },
	{ "rusage.major_faults", "count", KB_LOWER_BETTER, "major",
	  "fio's major page faults (ru_majflt)" },
	{ "rusage.minor_faults", "count", KB_LOWER_BETTER, "minor",
	  "fio's minor page faults (ru_minflt)" },

	/* runner/collect_perf.c: perf_event_open(2), whole machine */
	PERF_COUNT("perf.cycles", "count", "cycles",
		   "CPU cycles, all CPUs (scaled if multiplexed)"),
	PERF_COUNT("perf.instructions", "count", "instr",
		   "instructions retired, all CPUs"),
	PERF_COUNT("perf.cache_references", "count", "cache refs",
		   "last-level cache references (cache-references)"),
	PERF_COUNT("perf.cache_misses", "count", "cache miss",
		   "last-level cache misses (cache-misses)"),
	PERF_COUNT("perf.l1d_misses", "count", "L1d miss",
		   "L1 data cache load misses (L1-dcache-load-misses, DCM)"),
	PERF_COUNT("perf.llc_load_misses", "count", "LLC miss",
		   "last-level cache load misses (LLC-load-misses)"),
	PERF_COUNT("perf.branch_misses", "count", "br miss",
		   "mispredicted branches (branch-misses)"),
	PERF_COUNT("perf.cpu_clock_ms", "ms", "cpu-clock",
		   "CPU time of all CPUs by the cpu-clock software event"),
	PERF_COUNT("perf.context_switches", "count", "ctx sw",
		   "context switches, all CPUs"),
	PERF_COUNT("perf.cpu_migrations", "count", "migr",
		   "task migrations between CPUs"),
	PERF_COUNT("perf.page_faults", "count", "faults",
		   "page faults, all tasks"),
	{ "perf.ipc", "ratio", KB_HIGHER_BETTER, "IPC",
	  "instructions per cycle (instructions / cycles)" },
	{ "perf.cache_miss_pct", "%", KB_LOWER_BETTER, "miss%",
	  "cache-misses / cache-references, percent" },
	{ "perf.mpki", "count", KB_LOWER_BETTER, "MPKI",
	  "cache misses per 1000 instructions" },
	{ "perf.l1d_mpki", "count", KB_LOWER_BETTER, "L1d MPKI",
	  "L1 data cache load misses per 1000 instructions" },

	/* parsers/perf_report.c with profiles/symbols.conf: shares of
	 * sampled events (cycles = CPU, dcm = L1-dcache-load-misses) */
	PROFILE_ROLE("cycles", "CPU"),
	PROFILE_ROLE("dcm", "DCM"),
	{ "profile.lost_samples", "count", KB_LOWER_BETTER, "lost",
	  "samples perf record lost (Total Lost Samples)" },
	{ "profile.lost_pct", "%", KB_LOWER_BETTER, "lost%",
	  "samples perf record lost, percent of all (lost + kept)" },

	/* parsers/tasks.c: /proc/[pid]/task/[tid]/stat deltas */
	{ "task.fio.cpu_pct", "%", KB_LOWER_BETTER, "fio",
	  "CPU of fio tasks (rusage), percent of one CPU over the run" },
	{ "task.writeback.cpu_pct", "%", KB_LOWER_BETTER, "writeback",
	  "CPU of flusher threads (flush-*, kworker/*flush*), % of one CPU" },
	{ "task.kworker.cpu_pct", "%", KB_LOWER_BETTER, "kworker",
	  "CPU of other kworker threads, percent of one CPU" },
	{ "task.kswapd.cpu_pct", "%", KB_LOWER_BETTER, "kswapd",
	  "CPU of kswapd threads, percent of one CPU" },
	{ "task.other.cpu_pct", "%", KB_NEUTRAL, "other",
	  "CPU of tasks in no task group, percent of one CPU" },
	{ "task.total.cpu_pct", "%", KB_LOWER_BETTER, "total",
	  "CPU of all tasks, percent of one CPU (800% = 8 CPUs busy)" },
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

const struct kb_metric_def *kb_metric_find_key(const char *key)
{
	return kb_metric_find(key + kb_metric_host_split(key));
}

const char *kb_metric_near(const char *name)
{
	const struct kb_metric_def *m;
	const char *best = NULL;
	size_t bestd = (size_t)-1;

	for (m = kb_metrics; name && m->name; m++)	/* READ.IOPS */
		if (!strcasecmp(m->name, name))
			return m->name;
	for (m = kb_metrics; name && m->name; m++)
		if (kb_nearer(name, m->name, &bestd))
			best = m->name;
	if (best || !name || !*name)
		return best;
	/* "read.clat_p99": the one name that is it and a unit ("_ns"),
	 * not read.clat_p999_ns */
	for (m = kb_metrics; m->name; m++)
		if (!strncmp(m->name, name, strlen(name)) &&
		    m->name[strlen(name)] == '_' &&
		    !strchr(m->name + strlen(name) + 1, '_')) {
			if (best)
				return NULL;	/* more than one */
			best = m->name;
		}
	return best;
}

size_t kb_metric_host_split(const char *key)
{
	const char *p;

	if (strncmp(key, "host.", 5))
		return 0;
	for (p = strchr(key + 6, '.'); p; p = strchr(p + 1, '.'))
		if (kb_metric_find(p + 1))
			return (size_t)(p + 1 - key);
	return 0;
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
