/* tests/test_run_dir.c - /proc snapshots and a run directory -> metrics,
 * and the failed-run rules of parsers/run_dir.c (../shared/cases/B02). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/err.h"
#include "lib/file.h"
#include "parsers/procfs.h"
#include "parsers/run_dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *path)
{
	char *buf;

	assert_int_equal(kb_read_file(path, &buf, NULL, 0), 0);
	return buf;
}

static double metric(const json_t *m, const char *k)
{
	json_t *v = json_object_get(m, k);

	assert_non_null(v);
	return json_number_value(v);
}

static void test_stat_cpu_pct(void **state)
{
	char *a = slurp("tests/data/proc/stat.before");
	char *b = slurp("tests/data/proc/stat.after");
	struct kb_cpu_ticks ta, tb;
	json_t *m = json_object();

	(void)state;
	assert_int_equal(procfs_parse_stat("a", a, &ta), 0);
	assert_int_equal(procfs_parse_stat("b", b, &tb), 0);
	assert_int_equal(ta.user, 1000);
	assert_int_equal(ta.softirq, 400);
	assert_int_equal(procfs_cpu_metrics(&ta, &tb, m, NULL, NULL, 0), 0);
	/* deltas 100/0/300/500/50/10/40 of 1000 ticks */
	assert_float_equal(metric(m, "cpu.user_pct"), 10.0, 1e-9);
	assert_float_equal(metric(m, "cpu.system_pct"), 30.0, 1e-9);
	assert_float_equal(metric(m, "cpu.idle_pct"), 50.0, 1e-9);
	assert_float_equal(metric(m, "cpu.iowait_pct"), 5.0, 1e-9);
	assert_float_equal(metric(m, "cpu.irq_pct"), 1.0, 1e-9);
	assert_float_equal(metric(m, "cpu.softirq_pct"), 4.0, 1e-9);
	json_decref(m);

	/* no tick elapsed: nothing, not zeros */
	m = json_object();
	procfs_cpu_metrics(&ta, &ta, m, NULL, NULL, 0);
	assert_int_equal(json_object_size(m), 0);
	json_decref(m);
	free(a);
	free(b);
}

/* Real snapshots of this machine (tests/data/proc/SOURCES): steal is a
 * share like the others; read backwards, the counters are detected and
 * every share dropped with the reason, never clamped to 0. */
static void test_stat_steal_backwards(void **state)
{
	char *a = slurp("tests/data/proc/stat-6.18.before");
	char *b = slurp("tests/data/proc/stat-6.18.after");
	struct kb_cpu_ticks ta, tb;
	json_t *m = json_object(), *un = json_object();
	char why[256] = "";

	(void)state;
	assert_int_equal(procfs_parse_stat("a", a, &ta), 0);
	assert_int_equal(procfs_parse_stat("b", b, &tb), 0);
	assert_int_equal(ta.nfields, 8);
	assert_int_equal(procfs_cpu_metrics(&ta, &tb, m, un, why,
					    sizeof(why)), 0);
	/* 336 + 0 + 112 + 1 + 25 + 0 + 4 + 0 = 478 ticks */
	assert_float_equal(metric(m, "cpu.steal_pct"), 0.0, 1e-9);
	assert_float_equal(metric(m, "cpu.user_pct"), 100.0 * 336 / 478, 1e-9);
	assert_float_equal(metric(m, "cpu.idle_pct"), 100.0 * 1 / 478, 1e-9);
	assert_int_equal(json_object_size(un), 0);
	json_decref(m);

	m = json_object();
	assert_int_equal(procfs_cpu_metrics(&tb, &ta, m, un, why,
					    sizeof(why)), -ERANGE);
	assert_int_equal(json_object_size(m), 0);
	assert_non_null(strstr(why, "user ticks went backwards"));
	assert_non_null(strstr(json_string_value(json_object_get(un,
				"cpu.steal_pct")), "went backwards"));
	json_decref(m);
	json_decref(un);

	/* a /proc/stat without the steal column: steal unavailable */
	m = json_object();
	un = json_object();
	assert_int_equal(procfs_parse_stat("old", "cpu  10 0 10 80 0 0 0\n",
					   &ta), 0);
	assert_int_equal(procfs_parse_stat("old", "cpu  20 0 20 160 0 0 0\n",
					   &tb), 0);
	assert_int_equal(procfs_cpu_metrics(&ta, &tb, m, un, NULL, 0), 0);
	assert_float_equal(metric(m, "cpu.idle_pct"), 80.0, 1e-9);
	assert_null(json_object_get(m, "cpu.steal_pct"));
	assert_non_null(json_object_get(un, "cpu.steal_pct"));
	json_decref(m);
	json_decref(un);
	free(a);
	free(b);
}

static void test_pressure(void **state)
{
	char *a = slurp("tests/data/proc/pressure.before");
	char *b = slurp("tests/data/proc/pressure.after");
	struct kb_pressure pa, pb, off;
	json_t *m = json_object(), *un = json_object(), *w = json_array();

	(void)state;
	assert_int_equal(procfs_parse_pressure("a", a, &pa), 0);
	assert_int_equal(procfs_parse_pressure("b", b, &pb), 0);
	assert_true(pa.res[KB_PSI_CPU].have);
	assert_int_equal(pa.res[KB_PSI_CPU].some_us, 1197311225ULL);
	procfs_psi_metrics(&pa, &pb, m, un, w);
	/* cpu some +1322244 us, io +329151 us over 2400439834 ns */
	assert_float_equal(metric(m, "psi.cpu_some_pct"),
			   100.0 * 1322244 / 2400439.834, 1e-6);
	assert_float_equal(metric(m, "psi.io_some_pct"),
			   100.0 * 329151 / 2400439.834, 1e-6);
	/* measured 0 is 0: the source was read */
	assert_float_equal(metric(m, "psi.memory_some_pct"), 0.0, 1e-12);
	assert_int_equal(json_object_size(un), 0);
	assert_int_equal(json_array_size(w), 0);
	json_decref(m);

	/* backwards: dropped with a warning, not a share */
	m = json_object();
	pb.time_ns = pa.time_ns + 1000000000ULL;
	pb.res[KB_PSI_IO].some_us = pa.res[KB_PSI_IO].some_us - 5;
	procfs_psi_metrics(&pa, &pb, m, un, w);
	assert_null(json_object_get(m, "psi.io_some_pct"));
	assert_non_null(json_object_get(m, "psi.cpu_some_pct"));
	assert_int_equal(json_array_size(w), 1);
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)),
			       "went backwards"));
	json_decref(m);
	json_decref(un);

	/* a kernel without PSI: the reason, never 0 */
	m = json_object();
	un = json_object();
	assert_int_equal(procfs_parse_pressure("off", "time_ns 5\n"
		"cpu unavailable: no /proc/pressure (CONFIG_PSI off)\n"
		"io unavailable: no /proc/pressure (CONFIG_PSI off)\n"
		"memory unavailable: no /proc/pressure (CONFIG_PSI off)\n",
		&off), 0);
	procfs_psi_metrics(&off, &pa, m, un, w);
	assert_int_equal(json_object_size(m), 0);
	assert_string_equal(json_string_value(json_object_get(un,
		"psi.cpu_some_pct")), "no /proc/pressure (CONFIG_PSI off)");
	assert_string_equal(json_string_value(json_object_get(un,
		"psi.memory_some_pct")), "no /proc/pressure (CONFIG_PSI off)");
	kb_quiet = 1;
	assert_int_equal(procfs_parse_pressure("x", "cpu some total=1\n",
					       &off), -EINVAL);
	kb_quiet = 0;
	json_decref(m);
	json_decref(un);
	json_decref(w);
	free(a);
	free(b);
}

static void test_cpufreq(void **state)
{
	struct kb_cpufreq a, b;
	json_t *m = json_object(), *un = json_object();

	(void)state;
	procfs_parse_cpufreq("cpu0 2000000\ncpu1 3000000\n", &a);
	procfs_parse_cpufreq("cpu0 2400000\ncpu1 2600000\n", &b);
	assert_int_equal(a.n, 2);
	procfs_cpufreq_metrics(&a, &b, m, un);
	assert_float_equal(metric(m, "cpu.freq_mhz"), 2500.0, 1e-9);
	json_decref(m);
	m = json_object();
	procfs_parse_cpufreq("unavailable: no cpufreq driver\n", &b);
	assert_int_equal(b.n, 0);
	procfs_cpufreq_metrics(&a, &b, m, un);
	assert_null(json_object_get(m, "cpu.freq_mhz"));
	assert_string_equal(json_string_value(json_object_get(un,
			    "cpu.freq_mhz")), "no cpufreq driver");
	json_decref(m);
	json_decref(un);
}

static void test_stat_malformed(void **state)
{
	struct kb_cpu_ticks t;

	(void)state;
	kb_quiet = 1;
	assert_int_equal(procfs_parse_stat("x", "intr 1 2\nctxt 3\n", &t),
			 -EINVAL);
	assert_int_equal(procfs_parse_stat("x", "cpu  1 2\n", &t), -EINVAL);
}

static void test_diskstats_layouts(void **state)
{
	char *old = slurp("tests/data/proc/diskstats.old");
	char *new = slurp("tests/data/proc/diskstats.new");
	struct kb_diskstats d, z;
	json_t *m = json_object();

	(void)state;
	assert_int_equal(procfs_parse_diskstats("old", old, "sda1", &d), 0);
	assert_int_equal(d.rd_ios, 900);
	assert_int_equal(d.wr_merges, 25);
	assert_int_equal(d.io_ticks, 1100);
	assert_false(d.has_discard);
	assert_int_equal(procfs_parse_diskstats("new", new, "loop0", &d), 0);
	assert_true(d.has_discard);
	assert_int_equal(d.rd_ios, 251220);
	assert_int_equal(d.rd_merges, 7);
	assert_int_equal(d.dc_ios, 5);
	assert_int_equal(d.dc_merges, 1);
	assert_int_equal(procfs_parse_diskstats("new", new, "nvme0n1", &z),
			 -ENOENT);
	/* "sda" must not match "sda1" and vice versa */
	assert_int_equal(procfs_parse_diskstats("old", old, "sda", &z), 0);
	assert_int_equal(z.rd_ios, 1000);

	memset(&z, 0, sizeof(z));
	procfs_disk_metrics(&z, &d, m);
	assert_int_equal(metric(m, "disk.ios"), 251220 + 100 + 5);
	assert_int_equal(metric(m, "disk.merges"), 7 + 3 + 1);
	assert_int_equal(metric(m, "disk.read_sectors"), 2009824);
	assert_int_equal(metric(m, "disk.io_ticks_ms"), 9904);
	json_decref(m);
	free(old);
	free(new);
}

/* A run directory in /tmp: fio.json copied from src (or text), run.json
 * from the given JSON text. */
static char *make_run(const char *fio_src, const char *fio_text,
		      const char *run_json)
{
	char tmpl[] = "/tmp/kbench-test-run.XXXXXX";
	char *dir = kb_xstrdup(mkdtemp(tmpl)), *p, *buf;
	size_t len;

	p = kb_path_join(dir, "fio.json");
	if (fio_src) {
		assert_int_equal(kb_read_file(fio_src, &buf, &len, 0), 0);
		assert_int_equal(kb_write_atomic(p, buf, len), 0);
		free(buf);
	} else if (fio_text) {
		assert_int_equal(kb_write_atomic(p, fio_text, strlen(fio_text)), 0);
	}
	free(p);
	p = kb_path_join(dir, "run.json");
	assert_int_equal(kb_write_atomic(p, run_json, strlen(run_json)), 0);
	free(p);
	p = kb_path_join(dir, "proc_stat.before");
	buf = slurp("tests/data/proc/stat.before");
	assert_int_equal(kb_write_atomic(p, buf, strlen(buf)), 0);
	free(buf);
	free(p);
	p = kb_path_join(dir, "proc_stat.after");
	buf = slurp("tests/data/proc/stat.after");
	assert_int_equal(kb_write_atomic(p, buf, strlen(buf)), 0);
	free(buf);
	free(p);
	return dir;
}

/* A run fio --client ran until kbench killed it at the timeout (44 s of
 * runtime 4 s), with fio's output from fio_src (NULL: none) and run.json
 * "hosts": [hosts]; its directory (malloc'd). */
static char *timed_out_run(const char *fio_src, const char *hosts)
{
	char *rj = kb_xasprintf("{\"exit_status\": -1, \"signal\": 0, "
		"\"timed_out\": true, \"elapsed_s\": 44.0, \"runtime_s\": 4, "
		"\"hosts\": [%s]}", hosts);
	char *dir = make_run(fio_src, fio_src ? NULL : "", rj);

	free(rj);
	return dir;
}

static void rm_run(char *dir)
{
	static const char *const files[] = { "fio.json", "run.json",
		"proc_stat.before", "proc_stat.after", "fio.stderr", NULL };
	const char *const *f;

	for (f = files; *f; f++) {
		char *p = kb_path_join(dir, *f);

		unlink(p);
		free(p);
	}
	rmdir(dir);
	free(dir);
}

static const char *status(const json_t *r)
{
	return json_string_value(json_object_get(r, "status"));
}

static const char *reason(const json_t *r)
{
	return json_string_value(json_object_get(r, "reason"));
}

/* fio's ru_maxrss holds kbench's own peak resident set when that was
 * larger at the fork (Linux carries it across fork and exec): 363482 KiB
 * for a 30 MiB fio under an ASan kbench, printed as fio's "maxres KiB".
 * Not above run.json's kbench_maxrss_kib, it is n/a with the reason;
 * above it, it is fio's. */
static void test_maxrss_hidden_by_kbench(void **state)
{
	static const char fmt[] = "{\"exit_status\": 0, \"signal\": 0, "
		"\"timed_out\": false, \"elapsed_s\": 302.0, \"user_s\": 1.5, "
		"\"sys_s\": 0.5, \"maxrss_kib\": 363482, "
		"\"kbench_maxrss_kib\": %d, \"runtime_s\": 300}";
	char *run = kb_xasprintf(fmt, 363482);
	char *dir = make_run("tests/data/fio/B05.json", NULL, run);
	json_t *r = run_dir_parse(dir), *m;
	const char *why;

	(void)state;
	assert_non_null(r);
	m = json_object_get(r, "metrics");
	assert_null(json_object_get(m, "rusage.maxrss_kib"));
	why = json_string_value(json_object_get(json_object_get(r,
				"unavailable"), "rusage.maxrss_kib"));
	assert_non_null(why);
	assert_non_null(strstr(why, "363482 KiB is not above kbench's own"));
	/* the other rusage columns are fio's as ever */
	assert_float_equal(metric(m, "rusage.user_s"), 1.5, 1e-9);
	json_decref(r);
	rm_run(dir);
	free(run);

	run = kb_xasprintf(fmt, 20000);
	dir = make_run("tests/data/fio/B05.json", NULL, run);
	r = run_dir_parse(dir);
	assert_non_null(r);
	assert_int_equal(metric(json_object_get(r, "metrics"),
				"rusage.maxrss_kib"), 363482);
	json_decref(r);
	rm_run(dir);
	free(run);
}

static void test_ok_run(void **state)
{
	char *dir = make_run("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 302.0, \"user_s\": 100.5, \"sys_s\": 50.5, "
		"\"maxrss_kib\": 82560, \"major_faults\": 3, \"minor_faults\": 99, "
		"\"runtime_s\": 300}");
	json_t *r = run_dir_parse(dir), *m;

	(void)state;
	assert_non_null(r);
	assert_string_equal(status(r), "ok");
	assert_true(json_is_null(json_object_get(r, "reason")));
	m = json_object_get(r, "metrics");
	assert_float_equal(metric(m, "read.iops"), 26214.312619, 1e-6);
	assert_float_equal(metric(m, "read.clat_p99_ns"), 528384, 1e-6);
	assert_null(json_object_get(m, "write.iops"));
	assert_null(json_object_get(m, "write.clat_p99_ns"));
	/* (100.5 + 50.5) / 302 of one CPU, as /usr/bin/time prints %CPU */
	assert_float_equal(metric(m, "rusage.cpu_pct"), 50.0, 1e-9);
	assert_int_equal(metric(m, "rusage.maxrss_kib"), 82560);
	assert_float_equal(metric(m, "cpu.iowait_pct"), 5.0, 1e-9);
	/* no diskstats_name: no disk metrics, not zeros */
	assert_null(json_object_get(m, "disk.ios"));
	/* no pressure/cpufreq snapshots: absent, with the reason */
	assert_null(json_object_get(m, "psi.cpu_some_pct"));
	assert_non_null(json_object_get(json_object_get(r, "unavailable"),
					"psi.cpu_some_pct"));
	assert_non_null(json_object_get(json_object_get(r, "unavailable"),
					"cpu.freq_mhz"));
	assert_string_equal(json_string_value(json_object_get(r, "fio_version")),
			    "fio-3.32");
	json_decref(r);
	rm_run(dir);
}

/* A tunable that changed while fio ran (run.json "tunables_changed",
 * written by runner/run_exec.c): the run is failed with that reason, its
 * metrics kept. */
static void test_tunable_changed_fails_run(void **state)
{
	char *dir = make_run("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 302.0, \"runtime_s\": 300, "
		"\"tunables_after\": {\"/sys/block/loop0/queue/nomerges\": \"2\"}, "
		"\"tunables_changed\": \"tunable NM (/sys/block/loop0/queue/"
		"nomerges) changed during the run: wrote 0, read 2 after fio\"}");
	json_t *r = run_dir_parse(dir);

	(void)state;
	assert_non_null(r);
	assert_string_equal(status(r), "failed");
	assert_string_equal(reason(r), "tunable NM (/sys/block/loop0/queue/"
			    "nomerges) changed during the run: wrote 0, read 2 "
			    "after fio");
	assert_float_equal(metric(json_object_get(r, "metrics"), "read.iops"),
			   26214.312619, 1e-6);
	json_decref(r);
	rm_run(dir);
}

/* A taint bit that appeared while fio ran (run.json kernel_taint_before
 * and _after, runner/run_exec.c): the run stays ok and counted, flagged
 * with the new letters and what they mean; a taint already there before
 * (E: the vm guest's unsigned modules) flags nothing. */
static void test_taint_flag(void **state)
{
	static const char *const runs[] = {
		/* E before, E and W after: W is new */
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 302.0, \"runtime_s\": 300, "
		"\"kernel_taint_before\": 8192, \"kernel_taint_after\": 8704}",
		/* E on both sides */
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 302.0, \"runtime_s\": 300, "
		"\"kernel_taint_before\": 8192, \"kernel_taint_after\": 8192}",
		/* D and L (an oops, a soft lockup) from nothing */
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 302.0, \"runtime_s\": 300, "
		"\"kernel_taint_before\": 0, \"kernel_taint_after\": 16512}",
	};
	static const char *const want[] = {
		"the kernel tainted itself while fio ran: W (a kernel "
		"warning); see dmesg",
		NULL,
		"the kernel tainted itself while fio ran: D (an oops or "
		"BUG), L (a soft lockup); see dmesg",
	};
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		char *dir = make_run("tests/data/fio/B05.json", NULL, runs[i]);
		json_t *r = run_dir_parse(dir), *flags;

		assert_non_null(r);
		assert_string_equal(status(r), "ok");
		flags = json_object_get(r, "flags");
		if (want[i]) {
			assert_int_equal(json_array_size(flags), 1);
			assert_string_equal(json_string_value(
				json_array_get(flags, 0)), want[i]);
		} else {
			assert_int_equal(json_array_size(flags), 0);
		}
		json_decref(r);
		rm_run(dir);
	}
}

/* ../shared/cases/B05 through a run directory (what kbench run, report
 * and parse read): no disk_util in fio's JSON, so the run's device
 * utilisation is unavailable with fio's reason, not 0%, and the run is
 * ok. */
static void test_B05_disk_util(void **state)
{
	char *dir = make_run("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 30.0, \"runtime_s\": 30}");
	json_t *r = run_dir_parse(dir);

	(void)state;
	assert_non_null(r);
	assert_string_equal(status(r), "ok");
	assert_null(json_object_get(json_object_get(r, "metrics"),
				    "disk.util_pct"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		r, "unavailable"), "disk.util_pct")),
		"disk_util not reported by fio");
	json_decref(r);
	rm_run(dir);
}

/* The letters in the kernel's order, a bit past its table by number,
 * and the mask of this machine read (a number, whatever it holds). */
static void test_taint_letters(void **state)
{
	static const char letters[] = "PFSRMBUDAWCIOELKXTNJ";
	char *d, want[4];
	unsigned long long m = ~0ULL;

	(void)state;
	d = procfs_taint_describe((1ULL << 13) | (1ULL << 9) | 1);
	assert_string_equal(d, "P (a proprietary module loaded), W (a kernel "
			    "warning), E (an unsigned module loaded)");
	free(d);
	assert_string_equal(procfs_taint_meaning('W'), "a kernel warning");
	assert_null(procfs_taint_meaning('Z'));
	/* every bit of the table is its letter, with words */
	for (m = 0; m < 20; m++) {
		d = procfs_taint_describe(1ULL << m);
		snprintf(want, sizeof(want), "%c (", letters[m]);
		assert_true(!strncmp(d, want, 3));
		assert_non_null(procfs_taint_meaning(letters[m]));
		assert_null(strstr(d, "(null)"));
		free(d);
	}
	/* every bit is named, none cut off however many are set */
	d = procfs_taint_describe((1ULL << 9) | (1ULL << 25));
	assert_string_equal(d, "W (a kernel warning), bit 25 (not in "
			    "tainted-kernels.rst)");
	free(d);
	d = procfs_taint_describe(~0ULL);
	assert_non_null(strstr(d, "P (a proprietary module loaded), "));
	assert_non_null(strstr(d, ", J (a mutating debug operation by fwctl), "
			       "bit 20 "));
	assert_non_null(strstr(d, "bit 63 (not in tainted-kernels.rst)"));
	free(d);
	d = procfs_taint_describe(0);
	assert_string_equal(d, "");
	free(d);
	/* what /proc/sys/kernel/tainted may hold, and what it may not */
	assert_int_equal(procfs_parse_taint("8704\n", &m), 0);
	assert_int_equal(m, 8704);
	assert_int_equal(procfs_parse_taint("0", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(procfs_parse_taint("9223372036854775807\n", &m), 0);
	assert_int_equal(procfs_parse_taint("9223372036854775808\n", &m),
			 -ERANGE);
	assert_int_equal(procfs_parse_taint("18446744073709551615", &m),
			 -ERANGE);
	assert_int_equal(procfs_parse_taint("99999999999999999999", &m),
			 -ERANGE);
	assert_int_equal(procfs_parse_taint("-1", &m), -EINVAL);
	assert_int_equal(procfs_parse_taint("", &m), -EINVAL);
	assert_int_equal(procfs_parse_taint("12 x", &m), -EINVAL);
	m = ~0ULL;
	if (kb_exists("/proc/sys/kernel/tainted")) {
		assert_int_equal(procfs_read_taint(&m), 0);
		assert_true(m < (1ULL << 32));
	}
}

/* ../shared/cases/B02: the report parses, but the job failed. */
static void test_B02_failed_job(void **state)
{
	char *dir = make_run("tests/data/fio/B02.json", NULL,
		"{\"exit_status\": 1, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 3.4, \"user_s\": 0.1, \"sys_s\": 0.2, "
		"\"runtime_s\": 30}");
	json_t *r = run_dir_parse(dir);

	(void)state;
	assert_non_null(r);
	assert_string_equal(status(r), "failed");
	assert_string_equal(reason(r), "fio job 'test' failed: error=5 "
			    "(Input/output error); exit status 1; ran 3 s of 30 s");
	/* the partial IOPS are kept in the run's data, but the run is failed,
	 * so stats never use them */
	assert_float_equal(metric(json_object_get(r, "metrics"), "read.iops"),
			   3981.184669, 1e-6);
	json_decref(r);
	rm_run(dir);
}

/* A run made of (fio's JSON file or text, run.json) that run_dir_parse()
 * calls failed, its reason holding want and, when not NULL, want2. */
static void failed_with(const char *fio_src, const char *fio_text,
			const char *run_json, const char *want,
			const char *want2)
{
	char *dir = make_run(fio_src, fio_text, run_json);
	json_t *r = run_dir_parse(dir);

	assert_string_equal(status(r), "failed");
	if (!strstr(reason(r), want) || (want2 && !strstr(reason(r), want2)))
		fail_msg("reason '%s' lacks '%s'%s%s", reason(r), want,
			 want2 ? " or " : "", want2 ? want2 : "");
	json_decref(r);
	rm_run(dir);
}

static void test_failures(void **state)
{
	char *dir;
	json_t *r;

	(void)state;
	kb_quiet = 1;
	failed_with("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": null, \"signal\": 15, \"timed_out\": true, "
		"\"elapsed_s\": 340.0, \"runtime_s\": 300}", "timed out", NULL);
	failed_with(NULL, "fio: engine libaio not loadable\n",
		"{\"exit_status\": 1, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 0.1, \"runtime_s\": 5}", "exited with status 1",
		NULL);
	/* fio stopped by a SIGINT or SIGTERM that kbench did not send: its
	 * status 128, named (a break-it trial: a bare "exited with status
	 * 128"); its JSON, written on the way out, holds the partial run */
	failed_with("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": 128, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 1.2, \"runtime_s\": 5}",
		"fio exited with status 128: stopped by SIGINT or SIGTERM from "
		"outside kbench (fio's status for those); ran ", " of 5 s");
	/* a SIGTERM to fio's job process: fio says so before its report and
	 * exits 0 with what it ran (a break-it trial: recorded ok) */
	{
		char *b05 = NULL, *text;

		assert_int_equal(kb_read_file("tests/data/fio/B05.json", &b05,
					      NULL, 0), 0);
		text = kb_xasprintf("fio: terminating on signal 15\n%s", b05);
		failed_with(NULL, text,
			"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": "
			"false, \"elapsed_s\": 1.3, \"runtime_s\": 5}",
			"fio stopped by signal 15 from outside kbench ('fio: "
			"terminating on signal 15'), exit status 0; ran ",
			"cut short");
		free(text);
		free(b05);
	}
	/* the same line before text that is not a report (read whole) */
	failed_with(NULL, "fio: terminating on signal 2\ngarbage\n",
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 0.2, \"runtime_s\": 5}",
		"fio stopped by signal 2 from outside kbench", NULL);
	failed_with(NULL, "garbage, no JSON here\n",
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 5.1, \"runtime_s\": 5}", "unparsable fio output",
		NULL);
	failed_with("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": null, \"signal\": 9, \"timed_out\": false, "
		"\"elapsed_s\": 1.0, \"runtime_s\": 5}", "signal 9", NULL);

	/* a report with no I/O in any direction is not a measurement */
	dir = make_run(NULL, "{\"fio version\": \"fio-3.33\", \"jobs\": [{"
		"\"jobname\": \"j\", \"groupid\": 0, \"error\": 0, \"elapsed\": 5,"
		"\"read\": {\"iops\": 0, \"bw\": 0, \"runtime\": 0, "
		"\"total_ios\": 0, \"clat_ns\": {\"N\": 0, \"mean\": 0}}}]}",
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 5.2, \"runtime_s\": 5}");
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_string_equal(reason(r), "fio reported no I/O");
	json_decref(r);
	rm_run(dir);

	/* run.json missing: NULL */
	dir = make_run(NULL, NULL, "{}");
	{
		char *p = kb_path_join(dir, "run.json");

		unlink(p);
		free(p);
	}
	assert_null(run_dir_parse(dir));
	rm_run(dir);
}

static void put_stderr(const char *dir, const char *text)
{
	char *p = kb_path_join(dir, "fio.stderr");

	assert_int_equal(kb_write_atomic(p, text, strlen(text)), 0);
	free(p);
}

/* issue 14: fio's stderr (its last lines) in every failure reason, and a
 * process group killed after fio is said so (lib/proc.h own_group). */
static void test_failure_reasons(void **state)
{
	static const char err3[] = "fio: first line\n\nfio: pid=4242, "
		"err=5/file:io_u.c:1889, func=io_u error\n"
		"fio: io_u error on file /dev/loop7: Input/output error\n"
		"\tcontrol\x01" "char\n\n";
	char *dir;
	json_t *r;

	(void)state;
	kb_quiet = 1;
	/* timed out: with its whole group; the stderr's last 3 lines */
	dir = make_run("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": null, \"signal\": 15, \"timed_out\": true, "
		"\"elapsed_s\": 340.0, \"runtime_s\": 300, "
		"\"group_left\": 0, \"group_signal\": 0}");
	put_stderr(dir, err3);
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_string_equal(reason(r), "fio timed out: killed with its job "
		"processes after 301 s (runtime 300 s + grace); fio stderr: "
		"fio: pid=4242, err=5/file:io_u.c:1889, func=io_u error | "
		"fio: io_u error on file /dev/loop7: Input/output error | "
		"?control?char");
	json_decref(r);
	rm_run(dir);

	/* killed by a signal: the stderr too */
	dir = make_run("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": null, \"signal\": 9, \"timed_out\": false, "
		"\"elapsed_s\": 1.0, \"runtime_s\": 5}");
	put_stderr(dir, "fio: terminating on signal 9\n");
	r = run_dir_parse(dir);
	assert_non_null(strstr(reason(r), "signal 9"));
	assert_non_null(strstr(reason(r), "; fio stderr: fio: terminating on signal 9"));
	json_decref(r);
	rm_run(dir);

	/* cut short, never read as whole: not "ran 2 s of 2 s" */
	dir = make_run(NULL, NULL,
		"{\"exit_status\": null, \"signal\": 9, \"timed_out\": false, "
		"\"elapsed_s\": 1.58, \"runtime_s\": 2}");
	r = run_dir_parse(dir);
	assert_non_null(strstr(reason(r), "fio killed by signal 9; ran 1.58 s "
			       "of 2 s"));
	json_decref(r);
	rm_run(dir);

	/* exit status: the last lines, not only the first */
	dir = make_run(NULL, "garbage", "{\"exit_status\": 1, \"signal\": 0, "
		"\"timed_out\": false, \"elapsed_s\": 0.1, \"runtime_s\": 5}");
	put_stderr(dir, "fio: one\nfio: two\nfio: three\nfio: four\n");
	r = run_dir_parse(dir);
	assert_string_equal(reason(r), "fio exited with status 1: fio: two | "
			    "fio: three | fio: four");
	json_decref(r);
	rm_run(dir);

	/* fio ended, ok, but a job process was still running: failed */
	dir = make_run("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": 0, \"signal\": 0, \"timed_out\": false, "
		"\"elapsed_s\": 302.0, \"runtime_s\": 300, "
		"\"group_left\": 2, \"group_signal\": 9}");
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_string_equal(reason(r), "fio ended but 2 of fio's job "
		"process(es) (stopped, hung, or left by a fio that died) were "
		"still running after fio ended and were killed (SIGTERM, then "
		"SIGKILL)");
	json_decref(r);
	rm_run(dir);

	/* the limit said as it was: runtime + timeout_grace */
	dir = make_run("tests/data/fio/B05.json", NULL,
		"{\"exit_status\": null, \"signal\": 9, \"timed_out\": true, "
		"\"elapsed_s\": 15.0, \"runtime_s\": 2, \"timeout_s\": 5, "
		"\"group_left\": 1, \"group_signal\": 9}");
	r = run_dir_parse(dir);
	assert_non_null(strstr(reason(r), "fio timed out: killed with its job "
		"processes after "));
	assert_non_null(strstr(reason(r), " s, its limit 5 s (runtime 2 s + "
		"grace 3 s)"));
	json_decref(r);
	rm_run(dir);

	/* a long stderr: its end, at most 400 bytes */
	dir = make_run(NULL, "garbage", "{\"exit_status\": 2, \"signal\": 0, "
		"\"timed_out\": false, \"elapsed_s\": 0.1, \"runtime_s\": 5}");
	{
		char big[3000];

		memset(big, 'x', sizeof(big) - 6);
		memcpy(big + sizeof(big) - 6, "END\n", 5);
		put_stderr(dir, big);
	}
	r = run_dir_parse(dir);
	assert_true(strlen(reason(r)) < 450);
	assert_non_null(strstr(reason(r), "xxxEND"));
	json_decref(r);
	rm_run(dir);
}

/* hosts = (fio --client): every load host in run.json must have results
 * in fio's client_stats; fio exits 0 without the ones it could not reach */
static void test_missing_host(void **state)
{
	static const char runj[] = "{\"exit_status\": 0, \"signal\": 0, "
		"\"timed_out\": false, \"elapsed_s\": 2.0, \"runtime_s\": 1, "
		"\"hosts\": [{\"host\": \"10.231.1.2\", \"port\": 8765}, "
		"{\"host\": \"10.231.2.2\", \"port\": 8765}%s]}";
	char *rj, *dir;
	json_t *r;

	(void)state;
	kb_quiet = 1;
	/* both hosts answered: ok, the sum and each host's metrics */
	rj = kb_xasprintf(runj, "");
	dir = make_run("tests/data/fio/kbench-3.33-client2-jsonplus.json",
		       NULL, rj);
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "ok");
	assert_float_equal(metric(json_object_get(r, "metrics"),
				  "host.10.231.2.2.read.iops"), 12787.212787,
			   1e-6);
	json_decref(r);
	rm_run(dir);
	free(rj);
	/* a third host gave nothing: failed, naming it, with fio's stderr */
	rj = kb_xasprintf(runj, ", {\"host\": \"load3\", \"port\": 9000}");
	dir = make_run("tests/data/fio/kbench-3.33-client2-jsonplus.json",
		       NULL, rj);
	put_stderr(dir, "fio: connect: Connection refused\n"
		   "fio: failed to connect to load3:9000\n");
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_string_equal(reason(r), "load host load3:9000 gave no results "
		"(down, no fio --server listening, refused, or its server died "
		"during the run); fio stderr: fio: connect: Connection refused | "
		"fio: failed to connect to load3:9000");
	json_decref(r);
	rm_run(dir);
	free(rj);
	/* target@HOST: a device missing on one host; fio --client writes
	 * that server's messages before its JSON: the reason names the host
	 * and quotes them */
	rj = kb_xasprintf("{\"exit_status\": 1, \"signal\": 0, \"timed_out\": "
		"false, \"elapsed_s\": 3.0, \"runtime_s\": 1, \"hosts\": "
		"[{\"host\": \"10.231.117.2\", \"port\": 8765}, {\"host\": "
		"\"10.231.117.6\", \"port\": 8765}]}");
	dir = make_run("tests/data/fio/kbench-3.33-client2-target-missing.json",
		       NULL, rj);
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_non_null(strstr(reason(r), "fio job 'randread-4k' on "
			       "10.231.117.6 failed: error=22"));
	assert_non_null(strstr(reason(r), "; fio's output: <vm> randread-4k: "
			       "you need to specify size= | <vm> fio: pid=0, "));
	assert_non_null(strstr(reason(r), "| client <10.231.117.6>: exited "
			       "with error 1"));
	/* the parser's quotes cut */
	assert_null(strstr(reason(r), "size='"));
	assert_null(strstr(reason(r), "error 1'"));
	json_decref(r);
	rm_run(dir);
	free(rj);
	/* no output at all: every host named */
	rj = kb_xasprintf(runj, "");
	dir = make_run(NULL, "", rj);
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_non_null(strstr(reason(r), "load hosts 10.231.1.2:8765, "
				"10.231.2.2:8765 gave no results"));
	json_decref(r);
	rm_run(dir);
	free(rj);
	/* fio --client killed at the timeout (waiting for a host whose
	 * server died), nothing written: the hosts without results named */
	dir = timed_out_run(NULL, "{\"host\": \"10.231.1.2\", \"port\": "
			    "8765}, {\"host\": \"10.231.2.2\", \"port\": 8765}");
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_non_null(strstr(reason(r), "fio timed out: killed after 44 s"));
	assert_non_null(strstr(reason(r), "; no results from load hosts "
			       "10.231.1.2:8765, 10.231.2.2:8765"));
	json_decref(r);
	rm_run(dir);
	/* ... and the probe after the timeout (runner/run_exec.c) tells
	 * the host that kept fio waiting from the one that answered (a
	 * break-it trial: a SIGSTOPped server) */
	dir = timed_out_run(NULL, "{\"host\": \"10.231.1.2\", \"port\": "
			    "8765, \"answered_probe\": true}, {\"host\": "
			    "\"fd00::2\", \"port\": 8766, \"answered_probe\": "
			    "false}");
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_non_null(strstr(reason(r), "; no results from load hosts "
			       "10.231.1.2:8765, [fd00::2]:8766; [fd00::2]:8766 "
			       "did not answer fio's probe after the timeout "
			       "(down, hung or cut off: it kept fio waiting); "
			       "10.231.1.2:8765 did (the results of a host that "
			       "answered were lost"));
	json_decref(r);
	rm_run(dir);
	/* fio had both hosts' results and still waited (a server's main
	 * process stopped): the one that did not answer named, no result
	 * said lost */
	dir = timed_out_run("tests/data/fio/kbench-3.33-client2-jsonplus.json",
			    "{\"host\": \"10.231.1.2\", \"port\": 8765, "
			    "\"answered_probe\": true}, {\"host\": "
			    "\"10.231.2.2\", \"port\": 8765, "
			    "\"answered_probe\": false}");
	r = run_dir_parse(dir);
	assert_string_equal(status(r), "failed");
	assert_non_null(strstr(reason(r), "fio timed out: "));
	assert_non_null(strstr(reason(r), "; 10.231.2.2:8765 did not answer "
			       "fio's probe after the timeout (down, hung or "
			       "cut off: it kept fio waiting); 10.231.1.2:8765 "
			       "did"));
	assert_null(strstr(reason(r), "no results"));
	assert_null(strstr(reason(r), "were lost"));
	json_decref(r);
	rm_run(dir);
	/* every host answered: none is blamed */
	dir = timed_out_run(NULL, "{\"host\": \"10.231.1.2\", \"port\": "
			    "8765, \"answered_probe\": true}");
	r = run_dir_parse(dir);
	assert_non_null(strstr(reason(r), "; every load host answered fio's "
			       "probe after the timeout"));
	assert_null(strstr(reason(r), "did not answer"));
	json_decref(r);
	rm_run(dir);
	/* ... and a run without hosts says nothing of them */
	dir = make_run(NULL, "", "{\"exit_status\": -1, \"signal\": 0, "
		       "\"timed_out\": true, \"elapsed_s\": 44.0, "
		       "\"runtime_s\": 4}");
	r = run_dir_parse(dir);
	assert_null(strstr(reason(r), "load host"));
	json_decref(r);
	rm_run(dir);
	kb_quiet = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_cpu_pct),
		cmocka_unit_test(test_stat_steal_backwards),
		cmocka_unit_test(test_pressure),
		cmocka_unit_test(test_cpufreq),
		cmocka_unit_test(test_stat_malformed),
		cmocka_unit_test(test_diskstats_layouts),
		cmocka_unit_test(test_ok_run),
		cmocka_unit_test(test_maxrss_hidden_by_kbench),
		cmocka_unit_test(test_tunable_changed_fails_run),
		cmocka_unit_test(test_taint_flag),
		cmocka_unit_test(test_B05_disk_util),
		cmocka_unit_test(test_taint_letters),
		cmocka_unit_test(test_B02_failed_job),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_failure_reasons),
		cmocka_unit_test(test_missing_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
