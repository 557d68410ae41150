/* tests/test_perf.c - perf counting (parsers/perf_stat.c and
 * runner/collect_perf.c on this machine), perf report attribution to
 * symbol groups (parsers/perf_report.c) and per-task CPU
 * (parsers/tasks.c).  Data: tests/data/perf/ (see SOURCES there).  Runs
 * from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/perf_event.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "parsers/kconf.h"
#include "parsers/perf_report.h"
#include "parsers/perf_stat.h"
#include "parsers/tasks.h"
#include "runner/collect.h"
#include "runner/collect_perf.h"

static char *slurp(const char *path)
{
	char *buf = NULL;

	assert_int_equal(kb_read_file(path, &buf, NULL, 0), 0);
	return buf;
}

static json_t *stat_metrics(const char *path, json_t **warnings,
			    struct kb_perf_stat *st)
{
	char *text = slurp(path);
	json_t *m = json_object();

	*warnings = json_array();
	assert_int_equal(perf_stat_parse(path, text, st), 0);
	perf_stat_metrics(st, m, *warnings);
	free(text);
	return m;
}

static double metric(json_t *m, const char *name)
{
	json_t *v = json_object_get(m, name);

	if (!json_is_number(v))
		fail_msg("metric %s absent", name);
	return json_number_value(v);
}

static int warned(json_t *w, const char *needle)
{
	size_t i;
	json_t *x;

	json_array_foreach(w, i, x)
		if (strstr(json_string_value(x), needle))
			return 1;
	return 0;
}

/* B16: no PMU: hardware events null, software ones kept, no IPC */
static void test_b16_not_supported(void **state)
{
	struct kb_perf_stat *st = calloc(1, sizeof(*st));
	json_t *w, *m = stat_metrics("tests/data/perf/B16.csv", &w, st);

	(void)state;
	assert_float_equal(metric(m, "perf.context_switches"), 2, 1e-9);
	assert_float_equal(metric(m, "perf.cpu_migrations"), 0, 1e-9);
	assert_float_equal(metric(m, "perf.page_faults"), 57, 1e-9);
	assert_null(json_object_get(m, "perf.cycles"));
	assert_null(json_object_get(m, "perf.instructions"));
	assert_null(json_object_get(m, "perf.branch_misses"));
	assert_null(json_object_get(m, "perf.ipc"));
	assert_true(warned(w, "not supported"));
	assert_true(warned(w, "cycles, instructions, branch-misses"));
	json_decref(m);
	json_decref(w);
	free(st);
}

/* B17: -I and -A columns before the value; summed over CPUs/intervals */
static void test_b17_interval_per_cpu(void **state)
{
	struct kb_perf_stat *st = calloc(1, sizeof(*st));
	json_t *w, *m = stat_metrics("tests/data/perf/B17.csv", &w, st);

	(void)state;
	assert_float_equal(metric(m, "perf.cycles"), 5678313, 1e-6);
	assert_float_equal(metric(m, "perf.instructions"), 4223102, 1e-6);
	assert_float_equal(metric(m, "perf.ipc"), 4223102.0 / 5678313.0,
			   1e-9);
	assert_float_equal(metric(m, "perf.cycles_coverage_pct"), 100, 1e-6);
	assert_false(warned(w, "multiplexed"));
	json_decref(m);
	json_decref(w);
	free(st);
}

/* B19: values used as printed, coverage recorded, warning given */
static void test_b19_multiplexed(void **state)
{
	struct kb_perf_stat *st = calloc(1, sizeof(*st));
	json_t *w, *m = stat_metrics("tests/data/perf/B19.csv", &w, st);
	struct kb_perf_count c;

	(void)state;
	assert_float_equal(metric(m, "perf.cycles"), 2498765432.0, 1e-3);
	assert_float_equal(metric(m, "perf.cycles_coverage_pct"), 33.35,
			   1e-9);
	assert_float_equal(metric(m, "perf.cache_misses_coverage_pct"),
			   33.31, 1e-9);
	assert_true(perf_stat_find(st, "cycles", &c));
	/* enabled = running / (pct / 100): 5000129565 ns */
	assert_float_equal(c.enabled_ns, 1667543210 / 0.3335, 1);
	assert_float_equal(metric(m, "perf.cache_miss_pct"),
			   100.0 * 45678901 / 987654321, 1e-9);
	assert_float_equal(metric(m, "perf.mpki"),
			   1000.0 * 45678901 / 1876543210, 1e-9);
	assert_true(warned(w, "multiplexed (6 events, coverage down to "
			   "33.3%"));
	json_decref(m);
	json_decref(w);
	free(st);
}

static json_t *stat_text(const char *text, json_t **warnings,
			 struct kb_perf_stat *st)
{
	json_t *m = json_object();

	*warnings = json_array();
	assert_int_equal(perf_stat_parse("t.csv", text, st), 0);
	perf_stat_metrics(st, m, *warnings);
	return m;
}

/* perf stat records with the wrong number of fields: the event's metric
 * (and the ratios using it) absent with a warning, never a value read
 * from shifted columns or summed from the event's other records. */
static void test_stat_wrong_field_count(void **state)
{
	struct kb_perf_stat *st = calloc(1, sizeof(*st));
	json_t *w, *m;

	(void)state;
	/* thousands separators (a locale) split a value over 3 fields */
	m = stat_text("2000000,,instructions,1000,100.00,,\n"
		      "1,825,312,,cycles,1000,100.00,,\n"
		      "12,,context-switches,1000,100.00,,\n", &w, st);
	assert_null(json_object_get(m, "perf.cycles"));
	assert_null(json_object_get(m, "perf.ipc"));
	assert_float_equal(metric(m, "perf.instructions"), 2000000, 0);
	assert_float_equal(metric(m, "perf.context_switches"), 12, 0);
	assert_true(warned(w, "perf stat: 1 record(s) of cycles have the wrong number of fields (line 2: 9 fields; the layout of line 1 has 7, the value in column 1); perf.cycles n/a"));
	json_decref(m);
	json_decref(w);

	/* -I -A (B17's layout): CPU1's record cut short in the middle of the
	 * file: cycles is not CPU0's count alone */
	m = stat_text("     1.001016720;CPU0;1825312;;cycles;1000894250;100.00;;\n"
		      "     1.001016720;CPU0;1421843;;instructions;1000894250;100.00;0.78;insn per cycle\n"
		      "     1.001016720;CPU1;948311;;cycles;1000871120\n"
		      "     1.001016720;CPU1;611203;;instructions;1000871120;100.00;0.64;insn per cycle\n",
		      &w, st);
	assert_null(json_object_get(m, "perf.cycles"));
	assert_null(json_object_get(m, "perf.ipc"));
	assert_float_equal(metric(m, "perf.instructions"), 1421843 + 611203, 0);
	assert_true(warned(w, "of cycles have the wrong number of fields (line 3: 6 fields"));
	json_decref(m);
	json_decref(w);

	/* the last line cut inside the event name (perf stopped): every
	 * event the stub may name is left out */
	m = stat_text("1.0;CPU0;100;;cycles;1000;100.00;;\n"
		      "1.0;CPU0;80;;instructions;1000;100.00;;\n"
		      "1.0;CPU0;7;;cache-misses;1000;100.00;;\n"
		      "1.0;CPU1;90;;cyc", &w, st);
	assert_null(json_object_get(m, "perf.cycles"));
	assert_float_equal(metric(m, "perf.instructions"), 80, 0);
	assert_float_equal(metric(m, "perf.cache_misses"), 7, 0);
	json_decref(m);
	json_decref(w);

	/* an uncore event whose name holds the separator: skipped with a
	 * warning, the others read */
	m = stat_text("123,,cha/event=0x34,umask=0x1/,1000,100.00,,\n"
		      "5000,,cycles,1000,100.00,,\n", &w, st);
	assert_float_equal(metric(m, "perf.cycles"), 5000, 0);
	assert_int_equal(st->nev, 1);
	json_decref(m);
	json_decref(w);

	/* LKP's -I -a lines whose time column looks like a value:
	 * "time,96844.71,msec,cpu-clock,..." reads cpu-clock, not "msec" */
	m = stat_text("     1.000659830,4100064372,,cpu-cycles,16139216640,16.66,0.042,GHz\n"
		      "     1.000659830,96844.71,msec,cpu-clock,96844614045,100.00,96.845,CPUs utilized\n",
		      &w, st);
	assert_float_equal(metric(m, "perf.cpu_clock_ms"), 96844.71, 1e-9);
	assert_float_equal(metric(m, "perf.cycles"), 4100064372.0, 0);
	json_decref(m);
	json_decref(w);
	free(st);
}

/* perf stat -x run with LC_NUMERIC=de_DE (perf calls setlocale(): the
 * corpus's kargjonas file is perf stat's human-readable output in that
 * locale, "1.101,01 msec"): its decimals are commas.  With -x , the
 * comma cut "1010,83" and "100,00" in two and the record still fitted:
 * cpu-clock read as 83 msec (a break-it trial).  With ';' or TAB each
 * record was "the wrong fields".  Now an error naming the line and the
 * locale, nothing read. */
static void test_stat_comma_locale(void **state)
{
	static const char *const in[] = {
		"1010,83,msec,cpu-clock,1010830000,100,00,1,000,CPUs utilized\n"
		"37915273,,cycles,1010830000,100,00,0,038,GHz\n",
		"CPU0,37915273,,cycles,1010830000,16,66,0,038,GHz\n",
		"1010,83;msec;cpu-clock;1010830000;100,00;1,000;CPUs utilized\n"
		"37915273;;cycles;1010830000;100,00;0,038;GHz\n",
		"37915273\t\tcycles\t1010830000\t50,00\t0,038\tGHz\n",
	};
	struct kb_perf_stat *st = malloc(sizeof(*st));
	size_t i;

	(void)state;
	kb_quiet = 1;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		if (perf_stat_parse("de.csv", in[i], st) != -EINVAL)
			fail_msg("input %zu: read (cpu-clock %g ms)", i,
				 st->nev ? st->ev[0].value : -1);
		assert_int_equal(st->nev, 0);
	}
	/* the C locale's: read (a thousands separator stays malformed) */
	assert_int_equal(perf_stat_parse("c.csv",
		"1010.83,msec,cpu-clock,1010830000,100.00,1.000,CPUs utilized\n"
		"37915273;;cycles;1010830000;100.00;0.038;GHz\n", st), 0);
	assert_float_equal(st->ev[0].value, 1010.83, 1e-9);
	free(st);
}

/* B21: perf's paranoid stderr: one error saying what to change */
static void test_b21_paranoid(void **state)
{
	struct kb_perf_stat *st = calloc(1, sizeof(*st));
	json_t *w, *m = stat_metrics("tests/data/perf/B21.txt", &w, st);

	(void)state;
	assert_int_equal(st->nev, 0);
	assert_non_null(strstr(st->error, "perf_event_paranoid=4"));
	assert_non_null(strstr(st->error, "CAP_PERFMON"));
	assert_int_equal(json_object_size(m), 0);
	assert_true(warned(w, "<= 0 (system-wide -a)"));
	json_decref(m);
	json_decref(w);
	free(st);
}

/* The collector on this machine: software events count; a hardware
 * event is present exactly when perf_event_open(2) supports it (on the
 * build VM: never, so n/a). */
static void test_collect_here(void **state)
{
	char dir[] = "/tmp/kbench-test-perf-XXXXXX", *path;
	struct kb_run_ctx ctx = { 0 };
	struct kb_perf_stat *st = calloc(1, sizeof(*st));
	volatile double x = 0;
	void *cs = NULL;
	json_t *w, *m;
	int hw, i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	ctx.rdir = dir;
	assert_int_equal(kb_collector_perf.start(&ctx, &cs), 0);
	for (i = 0; i < 20000000; i++)
		x += i * 0.5;
	for (i = 0; i < 5; i++)
		usleep(2000);	/* context switches */
	assert_int_equal(kb_collector_perf.stop(&ctx, cs), 0);
	path = kb_path_join(dir, "perf_counters.csv");
	m = stat_metrics(path, &w, st);
	if (getuid() == 0 || kb_perf_paranoid() <= 0) {
		assert_true(metric(m, "perf.cpu_clock_ms") > 0);
		assert_true(metric(m, "perf.context_switches") > 0);
		hw = kb_perf_event_supported(PERF_TYPE_HARDWARE,
					     PERF_COUNT_HW_CPU_CYCLES, NULL);
		if (hw) {
			assert_true(metric(m, "perf.cycles") > 0);
		} else {
			assert_null(json_object_get(m, "perf.cycles"));
			assert_null(json_object_get(m, "perf.ipc"));
			assert_true(warned(w, "not supported"));
		}
	} else {
		assert_non_null(strstr(st->error, "perf_event_paranoid"));
	}
	unlink(path);
	rmdir(dir);
	free(path);
	json_decref(m);
	json_decref(w);
	free(st);
}

static void load_groups(struct kb_sym_groups *gs, const char *path)
{
	char *text = slurp(path);

	assert_int_equal(symgroups_parse(path, text, gs), 0);
	free(text);
}

/* Recorded report with lost samples: shares hand-computed with awk over
 * tests/data/perf/symbols-test.conf (SOURCES): 1860185 samples, 831846
 * of them kernel, 557 in [io], 55 of those in [merge]
 * (blk_mq_sched_bio_merge). */
static void test_report_lost(void **state)
{
	char *text = slurp("tests/data/perf/report-lost-samples.txt");
	struct kb_sym_groups gs;
	struct kb_profile p;
	json_t *m = json_object(), *w = json_array();

	(void)state;
	load_groups(&gs, "tests/data/perf/symbols-test.conf");
	assert_int_equal(perf_report_parse("lost", text, "x", &p), 0);
	assert_int_equal(p.nev, 1);
	assert_string_equal(p.ev[0].event, "cpu-clock");
	assert_int_equal(p.lost_samples, 287547);
	assert_true(p.ev[0].weights_are_samples);
	perf_report_metrics(&p.ev[0], "cycles", &gs, m, w);
	assert_float_equal(metric(m, "profile.cycles.samples"), 1860185, 0);
	assert_float_equal(metric(m, "profile.cycles.kernel_pct"),
			   100.0 * 831846 / 1860185, 1e-9);
	assert_float_equal(metric(m, "profile.cycles.io.total_pct"),
			   100.0 * 557 / 1860185, 1e-9);
	assert_float_equal(metric(m, "profile.cycles.merge.total_pct"),
			   100.0 * 55 / 1860185, 1e-9);
	assert_float_equal(metric(m, "profile.cycles.merge.io_pct"),
			   100.0 * 55 / 557, 1e-9);
	/* io is the only top-level group: the rest is "other" */
	assert_float_equal(metric(m, "profile.cycles.other_pct") +
			   metric(m, "profile.cycles.io.total_pct"), 100,
			   1e-9);
	assert_float_equal(metric(m, "profile.cycles.unresolved_pct"), 0, 0);
	perf_report_free(&p);
	symgroups_free(&gs);
	json_decref(m);
	json_decref(w);
	free(text);
}

static int has_str(json_t *a, const char *s)
{
	size_t i;
	json_t *x;

	json_array_foreach(a, i, x)
		if (!strcmp(json_string_value(x), s))
			return 1;
	return 0;
}

/* perf report's lost samples: the share lost recorded, the profile
 * flagged.  The recorded report: 287547 lost, 1860185 kept (the Samples
 * column summed). */
static void test_report_lost_share(void **state)
{
	char *text = slurp("tests/data/perf/report-lost-samples.txt");
	struct kb_profile p;
	json_t *m = json_object(), *w = json_array(), *f = json_array();

	(void)state;
	assert_int_equal(perf_report_parse("lost", text, "x", &p), 0);
	perf_report_lost(&p, m, w, f);
	assert_float_equal(metric(m, "profile.lost_samples"), 287547, 0);
	assert_float_equal(metric(m, "profile.lost_pct"),
			   100.0 * 287547 / (287547 + 1860185), 1e-9);
	assert_true(has_str(f, "profile: 287547 samples lost (13.39% of all)"));
	assert_true(warned(w, "profile: perf lost 287547 samples (13.39% of all)"));
	perf_report_free(&p);
	json_decref(m);
	json_decref(w);
	json_decref(f);
	free(text);

	/* percentages only (no Samples column): perf's own count and share
	 * from its stderr; LOST records (ring buffer overrun) as chunks */
	m = json_object();
	w = json_array();
	f = json_array();
	assert_int_equal(perf_report_parse("pct",
		"# Samples: 9K of event 'cycles'\n"
		"# Overhead  Command  Shared Object      Symbol\n"
		"    60.00%  fio      [kernel.kallsyms]  [k] blk_mq_submit_bio\n"
		"    40.00%  fio      fio                [.] main\n", "cycles", &p), 0);
	assert_int_equal(p.lost_samples, -1);
	perf_report_scan_lost("Warning:\nProcessed 8000 samples and lost 12.50%!\n\n"
			      "Warning:\nProcessed 9100 events and lost 3 chunks!\n\nCheck IO/CPU overload!\n", &p);
	perf_report_lost(&p, m, w, f);
	assert_null(json_object_get(m, "profile.lost_samples"));
	assert_float_equal(metric(m, "profile.lost_pct"), 12.5, 1e-9);
	assert_true(has_str(f, "profile: samples lost (12.50% of all)"));
	assert_true(has_str(f, "profile: 3 chunks of events lost"));
	assert_true(warned(w, "PERF_RECORD_LOST"));
	perf_report_free(&p);
	json_decref(m);
	json_decref(w);
	json_decref(f);

	/* perf report --stats: "SAMPLE events" counts the samples kept */
	m = json_object();
	w = json_array();
	f = json_array();
	assert_int_equal(perf_report_parse("stats",
		"# Total Lost Samples: 1000\n"
		"#\n# Samples: 9K of event 'cycles'\n"
		"    100.00%  fio  [kernel.kallsyms]  [k] blk_mq_submit_bio\n"
		"Aggregated stats:\n"
		"           TOTAL events:      10020\n"
		"          SAMPLE events:       9000  (89.8%)\n"
		"            LOST events:          2  ( 0.0%)\n", "cycles", &p), 0);
	perf_report_lost(&p, m, w, f);
	assert_float_equal(metric(m, "profile.lost_pct"), 10.0, 1e-9);
	assert_true(has_str(f, "profile: 2 chunks of events lost"));
	perf_report_free(&p);
	json_decref(m);
	json_decref(w);
	json_decref(f);

	/* nothing lost: no flag, 0% recorded */
	m = json_object();
	w = json_array();
	f = json_array();
	assert_int_equal(perf_report_parse("none", "# Total Lost Samples: 0\n"
		"# Samples: 10 of event 'cycles'\n"
		"# Overhead  Samples  Command  Shared Object      Symbol\n"
		"   100.00%       10  fio      [kernel.kallsyms]  [k] x\n",
		"cycles", &p), 0);
	perf_report_lost(&p, m, w, f);
	assert_float_equal(metric(m, "profile.lost_pct"), 0, 0);
	assert_int_equal(json_array_size(f), 0);
	perf_report_free(&p);
	json_decref(m);
	json_decref(w);
	json_decref(f);
}

/* B22: kptr_restrict: raw kernel addresses are unresolved, not "other";
 * group shares are withheld with a warning. */
static void test_report_kptr(void **state)
{
	char *text = slurp("tests/data/perf/B22.txt");
	struct kb_sym_groups gs;
	struct kb_profile p;
	json_t *m = json_object(), *w = json_array();

	(void)state;
	load_groups(&gs, "tests/data/perf/symbols-test.conf");
	assert_int_equal(perf_report_parse("B22", text, "cycles", &p), 0);
	assert_true(p.kptr_warning);
	assert_int_equal(p.lost_samples, -1);
	assert_int_equal(p.ev[0].nsyms, 6);
	assert_string_equal(p.ev[0].syms[2].sym, "get_io_u");
	assert_false(p.ev[0].syms[2].kernel);
	assert_true(p.ev[0].syms[0].unresolved);
	assert_false(p.ev[0].syms[5].unresolved);
	/* 31.20 + 18.75 + 9.65 of 100% */
	perf_report_metrics(&p.ev[0], "cycles", &gs, m, w);
	assert_float_equal(metric(m, "profile.cycles.unresolved_pct"), 59.60,
			   1e-9);
	assert_float_equal(metric(m, "profile.cycles.kernel_pct"), 63.60,
			   1e-9);
	assert_null(json_object_get(m, "profile.cycles.io.total_pct"));
	assert_null(json_object_get(m, "profile.cycles.other_pct"));
	assert_true(warned(w, "kptr_restrict"));
	/* the resolved kernel symbol does fall in [io] */
	assert_float_equal(perf_report_group_weight(&p.ev[0], &gs, 0), 4.0,
			   1e-9);
	perf_report_free(&p);
	symgroups_free(&gs);
	json_decref(m);
	json_decref(w);
	free(text);
}

/* The corpus's --children report: Self is the weight, chains skipped */
static void test_report_children(void **state)
{
	const char *text =
		"# Samples: 8K of event 'cycles:pp'\n"
		"# Children      Self  Shared Object        Symbol\n"
		"    82.61%     0.42%  [kernel.kallsyms]    [k] cpu_startup_entry\n"
		"81.41% cpu_startup_entry;start_secondary\n"
		"    10.00%     6.00%  [kernel.kallsyms]    [k] blk_mq_submit_bio\n"
		"    3.00%     2.00%  [kernel.kallsyms]    [k] blk_attempt_plug_merge\n"
		"# Samples: 0  of event 'dummy:HG'\n";
	struct kb_sym_groups gs;
	struct kb_profile p;

	(void)state;
	load_groups(&gs, "tests/data/perf/symbols-test.conf");
	assert_int_equal(perf_report_parse("children", text, "x", &p), 0);
	assert_int_equal(p.nev, 2);
	assert_string_equal(p.ev[0].event, "cycles:pp");
	assert_int_equal(p.ev[0].nsyms, 3);
	assert_float_equal(p.ev[0].total, 8.42, 1e-9);
	assert_float_equal(perf_report_group_weight(&p.ev[0], &gs, 0), 8.0,
			   1e-9);
	assert_float_equal(perf_report_group_weight(&p.ev[0], &gs, 1), 2.0,
			   1e-9);
	assert_int_equal(p.ev[1].nsyms, 0);
	perf_report_free(&p);
	symgroups_free(&gs);
}

/* ../shared/corpus/perf (tests/data/perf, SOURCES): real perf stat -x
 * outputs.  Each expected value is the file's records summed with awk
 * (intervals and CPUs: perf_stat_parse() sums every record of an event),
 * e.g. awk -F, '$4=="cpu-cycles"{s+=$2} END{printf "%.0f", s}'. */
static void test_corpus_stat_csv(void **state)
{
	static const struct {
		const char *file;	/* tests/data/perf/ */
		double cycles, instructions, cpu_clock_ms;
	} want[] = {
		/* LKP, old perf: its command line on line 1 */
		{ "lkp-perf-stat-interval-csv-old.txt", 44442888069.0,
		  33002464905.0, 16689.57 },
		/* 5.13: padded timestamps, cpu-clock in msec */
		{ "lkp-perf-stat-interval-csv-5.13.txt", 13297686805.0,
		  7337763276.0, 289760.67 },
		/* 6.17 hybrid: cpu_atom + cpu_core summed; cpu-clock in ns
		 * with an empty unit (66333083004 ns) */
		{ "lkp-perf-stat-interval-csv-6.17-hybrid.txt", 37093992959.0,
		  51719642457.0, 66333.083004 },
		/* -x ' ': an empty unit is two blanks, metric units are
		 * words ("100.000 of all cache refs"); line 1 has commas */
		{ "lkp-perf-stat-interval-spaces.txt", 39970365027.0,
		  32248859936.0, 16167.76 },
		/* -A -x, on 160 CPUs, 5 intervals */
		{ "hperf-perf-stat-A-x-comma-interval-multiplex.csv",
		  23267802083.0, 1768424483.0, 801589.76 },
		/* -A -x TAB, uncore events whose names hold commas */
		{ "hperf-perf-stat-A-x-tab-interval-uncore.tsv", 48416815706.0,
		  62807577205.0, 641055.70 },
	};
	struct kb_perf_stat *st = malloc(sizeof(*st));
	struct kb_perf_count c;
	size_t i;
	json_t *w, *m;

	(void)state;
	kb_quiet = 1;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *path = kb_xasprintf("tests/data/perf/%s", want[i].file);

		m = stat_metrics(path, &w, st);
		assert_float_equal(metric(m, "perf.cycles"), want[i].cycles,
				   0.5);
		assert_float_equal(metric(m, "perf.instructions"),
				   want[i].instructions, 0.5);
		assert_float_equal(metric(m, "perf.ipc"), want[i].instructions /
				   want[i].cycles, 1e-12);
		assert_float_equal(metric(m, "perf.cpu_clock_ms"),
				   want[i].cpu_clock_ms, 1e-4);
		switch (i) {
		case 0:	/* groups at 16.7% */
			assert_float_equal(metric(m, "perf.cycles_coverage_pct"),
					   16.68, 0.01);
			assert_true(warned(w, "multiplexed"));
			break;
		case 3:
			assert_int_equal(st->layout_line, 2);
			assert_float_equal(metric(m, "perf.cache_misses"),
					   187890613.0, 0.5);
			break;
		case 4:	/* 800 records an event; duration_time on CPU0 */
			assert_int_equal(perf_stat_find(st, "cycles", &c), 1);
			assert_int_equal(c.nrecords, 800);
			assert_float_equal(metric(m, "perf.instructions_"
						  "coverage_pct"), 50.016761,
					   1e-5);
			assert_string_equal(st->ev[1].event, "duration_time");
			assert_int_equal(st->ev[1].nrecords, 5);
			break;
		case 5:
			assert_string_equal(st->ev[4].event,
					    "cha/event=0x34,umask=0x1fe001/");
			assert_int_equal(st->ev[4].nrecords, 20);
			assert_float_equal(st->ev[4].value, 98455694.0, 0.5);
			break;
		}
		json_decref(m);
		json_decref(w);
		free(path);
	}
	free(st);
}

/* Blank-separated records and the text around them (a helper's review):
 * each input as printf writes it, the events read or left out */
static void test_stat_blank_separator(void **state)
{
	static const struct {
		const char *text;
		int rc;
		const char *event;	/* then its value, NULL: none read */
		double value;
		int malformed;		/* records of it left out */
	} in[] = {
		/* perf's own text is no record */
		{ "60.04 seconds user\n", -EINVAL, NULL, 0, 0 },
		/* a line of words before comma records: skipped */
		{ "Running 4 worker threads\n1234,,cycles,100,100.00,,\n",
		  0, "cycles", 1234, 0 },
		{ "   60.04 seconds user\n1234,,cycles,100,100.00,,\n", 0,
		  "cycles", 1234, 0 },
		/* other separators after a blank-separated first record */
		{ "1.0 100  cycles 1000 100.00\n2.0 200,,cycles,1000,100.00,,\n",
		  0, "cycles", 100, 1 },
		/* cut short, a thousands separator, no unit */
		{ "1.0 100  cycles 1000 100.00\n2.0 200  cycl", 0, "cycles",
		  100, 1 },
		{ "1.0 100  cycles 1000 100.00\n2.0 1,234  cycles 1000 100.00\n",
		  0, "cycles", 100, 1 },
		{ "1.0 100  cycles 1000 100.00\n2.0 200 cycles 1000 100.00\n",
		  0, "cycles", 100, 1 },
		/* a comma in a blank-separated event's name */
		{ "1.0 5  uncore/a=1,b=2/ 100 100.00\n1.0 7  cycles 100 100.00\n"
		  "2.0 6  uncore/a=1,b=2/ 100 100.00\n", 0, "uncore/a=1,b=2/",
		  11, 0 },
		/* "<not supported>" is one field */
		{ "1.0 <not supported>  cycles 0 100.00\n", 0, "cycles", 0, 0 },
		/* the phrase in a comment or a program's line is not perf's
		 * human-readable header */
		{ "# Performance counter stats for fio, -x form\n"
		  "1234,,cycles,100,100.00,,\n", 0, "cycles", 1234, 0 },
		{ "1234,,cycles,100,100.00,,\nfio: Performance counter stats "
		  "for job 1 follow\n", 0, "cycles", 1234, 0 },
		/* human-readable with perf_event_paranoid's message: its
		 * error, no record */
		{ " Performance counter stats for system wide:\n\n      "
		  "60.040000000 seconds user\n Error:\nAccess to performance "
		  "monitoring and observability operations is limited.\n", 0,
		  NULL, 0, 0 },
	};
	struct kb_perf_stat *st = malloc(sizeof(*st));
	size_t i;

	(void)state;
	kb_quiet = 1;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		int rc = perf_stat_parse("t", in[i].text, st);

		if (rc != in[i].rc)
			fail_msg("input %zu: rc %d, expected %d", i, rc,
				 in[i].rc);
		if (!in[i].event) {
			assert_int_equal(st->nev, 0);
			continue;
		}
		assert_int_equal(st->nev, 1 + (i == 7));
		assert_string_equal(st->ev[0].event, in[i].event);
		assert_float_equal(st->ev[0].value, in[i].value, 1e-9);
		assert_int_equal(st->ev[0].malformed, in[i].malformed);
		if (i == 8)
			assert_int_equal(st->ev[0].state, KB_COUNT_UNSUPPORTED);
	}
	assert_true(perf_stat_parse("t", in[11].text, st) == 0 &&
		    strstr(st->error, "perf_event_paranoid"));
	free(st);
}

/* perf stat without -x (aligned, locale separators: "1.101,01 msec" in
 * de_DE): an error saying so, no field misread as a record */
static void test_corpus_stat_plain(void **state)
{
	static const char *const files[] = {
		"hardik-perf-stat-notsupported-repeat-runs.txt",
		"kargjonas-perf-stat-de-locale-hybrid-multiplex.txt",
		"ayuram-perf-stat-multiplex-nocomment.txt",
		"ayuram-perf-stat-stalled-continuation.txt",
		"ysay-perf-stat-no-big-num.txt",
		"grahamking-perf-stat-3runs-topdown.txt",
	};
	struct kb_perf_stat *st = malloc(sizeof(*st));
	size_t i;

	(void)state;
	kb_quiet = 1;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = kb_xasprintf("tests/data/perf/%s", files[i]);
		char *text = slurp(path);

		assert_int_equal(perf_stat_parse(path, text, st), -EINVAL);
		assert_int_equal(st->nev, 0);
		free(text);
		free(path);
	}
	free(st);
}

/* Real perf report --stdio files: --children (4.6), the IPC columns
 * after the symbol (5.1), seven event sections */
static void test_corpus_report(void **state)
{
	struct kb_sym_groups gs;
	struct kb_profile p;
	char *text;
	size_t e, i;

	(void)state;
	text = slurp("tests/data/perf/lkp-perf-report-children-4.6.txt");
	assert_int_equal(perf_report_parse("4.6", text, "x", &p), 0);
	assert_int_equal(p.nev, 1);
	assert_string_equal(p.ev[0].event, "cycles:pp");
	assert_string_equal(p.ev[0].syms[0].sym, "cpu_startup_entry");
	assert_float_equal(p.ev[0].syms[0].weight, 0.42, 1e-9);	/* Self */
	perf_report_free(&p);
	free(text);

	text = slurp("tests/data/perf/lkp-perf-report-children-5.1.txt");
	assert_int_equal(perf_report_parse("5.1", text, "x", &p), 0);
	assert_int_equal(p.nev, 2);
	assert_string_equal(p.ev[0].syms[0].sym,
			    "entry_SYSCALL_64_after_hwframe");
	for (i = 0; i < p.ev[0].nsyms; i++) {
		const char *s = p.ev[0].syms[i].sym;

		assert_null(strstr(s, "  "));
		assert_false(s[strlen(s) - 1] == '-');
	}
	assert_string_equal(p.ev[1].event, "dummy:HG");
	assert_int_equal(p.ev[1].nsyms, 0);
	/* a group matches the symbol itself: 0.20 + 0.28 (Self) */
	assert_int_equal(symgroups_parse("t", "[sys]\nentry_SYSCALL_64_after_"
					 "hwframe\ndo_syscall_64\n", &gs), 0);
	assert_float_equal(perf_report_group_weight(&p.ev[0], &gs, 0), 0.48,
			   1e-9);
	symgroups_free(&gs);
	perf_report_free(&p);
	free(text);

	text = slurp("tests/data/perf/akashmaji-perf-report-multi-event.txt");
	assert_int_equal(perf_report_parse("multi", text, "x", &p), 0);
	assert_int_equal(p.nev, 7);
	{
		static const char *const ev[] = { "L1-dcache-loads",
			"L1-dcache-load-misses", "L1-dcache-stores", "LLC-loads",
			"LLC-load-misses", "LLC-stores", "LLC-store-misses" };

		for (e = 0; e < 7; e++)
			assert_string_equal(p.ev[e].event, ev[e]);
	}
	assert_string_equal(p.ev[0].syms[0].sym, "work_run");
	assert_int_equal(p.ev[0].syms[0].kernel, 0);	/* [.] */
	assert_float_equal(p.ev[0].syms[0].weight, 99.59, 1e-9);
	assert_float_equal(p.ev[3].syms[0].weight, 80.49, 1e-9);
	perf_report_free(&p);
	free(text);
}

/* perf report in a locale whose decimal separator is a comma
 * (LC_NUMERIC=de_DE): "99,59%" overheads (and "1,23 [ 45,2%]" IPC
 * columns) were no data lines: every event section read with no symbol
 * and no word of it, an empty profile (a break-it trial).  Now the same
 * symbols and weights as the C locale's. */
static void test_report_comma_locale(void **state)
{
	static const char *const files[] = {
		"tests/data/perf/lkp-perf-report-children-4.6.txt",
		"tests/data/perf/lkp-perf-report-children-5.1.txt",
		"tests/data/perf/akashmaji-perf-report-multi-event.txt",
	};
	struct kb_profile p, q;
	size_t f, e, i;

	(void)state;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char *text = slurp(files[f]), *de = kb_xstrdup(text), *c;
		int comment = 0;

		/* a digit '.' digit outside "#" lines: a decimal comma */
		for (c = de; *c; c++) {
			if (c == de || c[-1] == '\n')
				comment = *c == '#';
			if (!comment && *c == '.' && c > de &&
			    isdigit((unsigned char)c[-1]) &&
			    isdigit((unsigned char)c[1]))
				*c = ',';
		}
		assert_int_equal(perf_report_parse("c", text, "x", &p), 0);
		assert_int_equal(perf_report_parse("de", de, "x", &q), 0);
		assert_int_equal(p.nev, q.nev);
		for (e = 0; e < p.nev; e++) {
			if (p.ev[e].nsyms != q.ev[e].nsyms)
				fail_msg("%s: event %zu: %zu symbols in the C "
					 "locale, %zu with decimal commas",
					 files[f], e, p.ev[e].nsyms,
					 q.ev[e].nsyms);
			for (i = 0; i < p.ev[e].nsyms; i++) {
				assert_string_equal(p.ev[e].syms[i].sym,
						    q.ev[e].syms[i].sym);
				assert_float_equal(p.ev[e].syms[i].weight,
						   q.ev[e].syms[i].weight, 1e-9);
			}
		}
		assert_true(p.ev[0].nsyms > 0);
		perf_report_free(&p);
		perf_report_free(&q);
		free(de);
		free(text);
	}
	/* perf 5.1+'s IPC columns, in that locale */
	assert_int_equal(perf_report_parse("ipc", "# Overhead  Shared Object"
		"      Symbol  IPC   [IPC Coverage]\n    12,50%  "
		"[kernel.kallsyms]  [k] foo           1,23 [ 45,2%]\n", "x",
		&p), 0);
	assert_int_equal(p.ev[0].nsyms, 1);
	assert_string_equal(p.ev[0].syms[0].sym, "foo");
	assert_float_equal(p.ev[0].syms[0].weight, 12.5, 1e-9);
	perf_report_free(&p);
}

static void test_symgroups_errors(void **state)
{
	struct kb_sym_groups gs;

	(void)state;
	kb_quiet = 1;
	assert_int_equal(symgroups_parse("t", "[merge]\nparent = io\n", &gs),
			 -EINVAL);
	assert_int_equal(symgroups_parse("t", "blk_*\n", &gs), -EINVAL);
	assert_int_equal(symgroups_parse("t", "[a b]\nx\n", &gs), -EINVAL);
	assert_int_equal(symgroups_parse("t", "[io]\nblk_* ; why\n[m]\n"
					 "parent = io\nblk_attempt*\n", &gs), 0);
	assert_int_equal(gs.n, 2);
	assert_int_equal(gs.g[1].parent, 0);
	assert_string_equal(gs.g[0].patterns[0], "blk_*");
	symgroups_free(&gs);
}

/* Task CPU: comm with blanks and ')', a task new during the run, a
 * task reused tid (other starttime), groups first-match. */
static void test_tasks(void **state)
{
	const char *before =
		"# kbench tasks clk_tck=100\n"
		"10 (kworker/u4:1-flush-7:0) I 2 0 0 0 -1 0 0 0 0 0 100 50 0 0 20 0 1 0 500\n"
		"11 (kworker/0:1) I 2 0 0 0 -1 0 0 0 0 0 10 10 0 0 20 0 1 0 600\n"
		"12 (my (odd) task) S 1 0 0 0 -1 0 0 0 0 0 1000 0 0 0 20 0 1 0 700\n"
		"13 (kswapd0) S 2 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 800\n";
	const char *after =
		"# kbench tasks clk_tck=100\n"
		"10 (kworker/u4:1-flush-7:0) I 2 0 0 0 -1 0 0 0 0 0 150 100 0 0 20 0 1 0 500\n"
		"11 (kworker/0:1) I 2 0 0 0 -1 0 0 0 0 0 30 20 0 0 20 0 1 0 600\n"
		"12 (my (odd) task) S 1 0 0 0 -1 0 0 0 0 0 1200 0 0 0 20 0 1 0 700\n"
		"13 (kswapd0) S 2 0 0 0 -1 0 0 0 0 0 70 10 0 0 20 0 1 0 800\n"
		"14 (kworker/1:2) I 2 0 0 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 900\n";
	const char *groups = "fio fio*\nwriteback flush-* kworker/*flush*\n"
			     "kworker kworker/*\nkswapd kswapd*\n";
	json_t *m = json_object();

	(void)state;
	/* elapsed 2 s; fio's rusage 1.5 s */
	assert_int_equal(tasks_cpu_metrics("t", before, after, groups, 2.0,
					   "fio", 1.5, m), 0);
	/* writeback: 100 ticks = 1 s -> 50% */
	assert_float_equal(metric(m, "task.writeback.cpu_pct"), 50, 1e-9);
	/* kworker: 30 + 10 (new task) = 40 ticks -> 20% */
	assert_float_equal(metric(m, "task.kworker.cpu_pct"), 20, 1e-9);
	assert_float_equal(metric(m, "task.kswapd.cpu_pct"), 40, 1e-9);
	assert_float_equal(metric(m, "task.other.cpu_pct"), 100, 1e-9);
	assert_float_equal(metric(m, "task.fio.cpu_pct"), 75, 1e-9);
	assert_float_equal(metric(m, "task.total.cpu_pct"),
			   50 + 20 + 40 + 100 + 75, 1e-9);
	assert_int_equal(tasks_cpu_metrics("t", "1 broken\n", after, groups,
					   2.0, NULL, 0, m), -EINVAL);
	json_decref(m);
}

/* kernels.conf keys: profile = cycles,dcm and task group NAME = GLOB... */
static void test_kconf_keys(void **state)
{
	struct kb_config cfg;
	const char *good = "[global]\njobs = randread-4k\ntarget = loop:64M\n"
			   "profile = cycles, dcm\n"
			   "task group flusher = flush-* kworker/*flush*\n"
			   "[running]\nmethod = local\n";
	const char *bad = "[global]\njobs = randread-4k\ntarget = loop:64M\n"
			  "profile = cycles,ipc\n[running]\nmethod = local\n";

	(void)state;
	kb_quiet = 1;
	assert_int_equal(kconf_parse("good.conf", good, &cfg), 0);
	assert_int_equal(cfg.nprofile, 2);
	assert_string_equal(cfg.profile[1], "dcm");
	assert_int_equal(cfg.ntask_groups, 1);
	assert_string_equal(cfg.task_groups[0].name, "flusher");
	assert_string_equal(cfg.task_groups[0].patterns,
			    "flush-* kworker/*flush*");
	kconf_free(&cfg);
	assert_int_equal(kconf_parse("bad.conf", bad, &cfg), -EINVAL);
	kconf_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b16_not_supported),
		cmocka_unit_test(test_b17_interval_per_cpu),
		cmocka_unit_test(test_b19_multiplexed),
		cmocka_unit_test(test_stat_wrong_field_count),
		cmocka_unit_test(test_stat_comma_locale),
		cmocka_unit_test(test_b21_paranoid),
		cmocka_unit_test(test_collect_here),
		cmocka_unit_test(test_report_lost),
		cmocka_unit_test(test_report_lost_share),
		cmocka_unit_test(test_report_kptr),
		cmocka_unit_test(test_report_children),
		cmocka_unit_test(test_corpus_stat_csv),
		cmocka_unit_test(test_stat_blank_separator),
		cmocka_unit_test(test_corpus_stat_plain),
		cmocka_unit_test(test_corpus_report),
		cmocka_unit_test(test_report_comma_locale),
		cmocka_unit_test(test_symgroups_errors),
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_kconf_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
