/* parsers/perf_stat.h - counter values in perf stat's CSV form -> metrics.
 *
 * Format: perf-stat(1), "CSV FORMAT" (-x SEP): one record per line,
 *   [interval time SEP] [CPUn SEP | S0-C0 SEP cpus SEP] value SEP unit SEP
 *   event SEP run_time_ns SEP pct_running [SEP metric SEP metric_unit]
 * where value is already scaled by perf (count * enabled / running) and
 * may be "<not supported>" or "<not counted>"; pct_running is
 * 100 * running / enabled.  The separator is fixed by the file's first
 * record: the first of ',' ';' TAB (the most frequent on that line) and
 * a blank with which the line is a record (-x ' ', LKP's
 * ../shared/corpus/perf/lkp-perf-stat-interval-spaces.txt: an empty unit
 * is two blanks, the metric's unit may be words, "<not supported>" is
 * one field, and an event's name may hold a comma).  A blank-separated
 * record has run time and pct_running (never the 3-field form: "60.04
 * seconds user" is perf's own text), and lines before the first record
 * (LKP writes perf's command line there) are skipped with a warning.
 * Leading "# ..." lines and blank lines are skipped, fields are trimmed,
 * and the value column is found as the first position whose value is a
 * number (or "<not ...>") and whose event column is not a number (so
 * "1.0010;CPU0;1825312;;cycles" reads 1825312, ../shared/cases/B17).
 * Every record of one event (over CPUs and intervals) is summed.
 *
 * perf stat's human-readable output (no -x: a line starting "Performance
 * counter stats for", aligned columns, the locale's digit separators)
 * is not read: -EINVAL with a message saying so, no field of it taken
 * as a record (with a perf_event_paranoid message in it: that error,
 * return 0, no record).
 *
 * Wrong number of fields: the first record fixes the layout (the value's
 * column, and whether run time and pct_running follow); a record whose
 * value is in another column, whose leading columns are not
 * [time] [CPUn | S0 | S0-D0-C0 COUNT | comm-pid], whose run time or
 * pct_running is not a number, or that has 4 fields or more than 9 from
 * the value on (any number after pct_running when blank-separated) is
 * malformed (a value with thousands separators, an event name holding
 * the separator, a line cut short, another separator than the first
 * record's).  Its event, when one of its fields names an event, is then
 * left out altogether (absent, with a warning), never summed from its
 * other records or guessed from shifted columns.
 *
 * perf stat run in a locale whose decimal separator is a comma
 * (LC_NUMERIC=de_DE) writes "1010,83" and "100,00": with -x , a record
 * whose pct_running is an integer followed by a field of two digits,
 * with another separator a field "N,NN", is -EINVAL with a message
 * naming the line and the locale (-x , cut "1010,83 msec" into a
 * leading column and a value of 83).
 *
 * kbench's own counting collector (runner/collect_perf.c) writes this form
 * (as `perf stat -a -A -x,` would), plus "# error: TEXT" and
 * "# unsupported EVENT: TEXT" comment lines, so its artifact and a real
 * perf stat output read the same way.  perf's stderr when
 * perf_event_paranoid forbids counting (../shared/cases/B21) is recognised
 * as an error too.
 */
#ifndef KB_PERF_STAT_H
#define KB_PERF_STAT_H

#include <stddef.h>
#include <jansson.h>

#define KB_PERF_MAX_EVENTS 64

enum kb_count_state {
	KB_COUNT_OK = 0,
	KB_COUNT_UNSUPPORTED,	/* "<not supported>": no such counter here */
	KB_COUNT_NOT_COUNTED,	/* "<not counted>": never scheduled */
};

struct kb_perf_count {
	char event[96];		/* as printed: "cycles", "cpu_core/cycles/" */
	double value;		/* sum over records, scaled as perf prints */
	double running_ns;	/* sum of run_time over records */
	double enabled_ns;	/* sum of run_time * 100 / pct_running */
	char unit[16];		/* "msec", "" ... of the first record */
	enum kb_count_state state;	/* OK if any record had a value */
	unsigned nrecords;
	unsigned malformed;	/* records with the wrong number of fields */
	int bad_line;		/* the first of them, and its field count */
	int bad_fields;
};

struct kb_perf_stat {
	struct kb_perf_count ev[KB_PERF_MAX_EVENTS];
	size_t nev;
	char error[512];	/* why nothing could be counted, or "" */
	int layout_line;	/* the record that fixed the layout, 0 = none */
	int value_col;		/* its value's column (0-based) */
	int layout_fields;	/* its number of fields */
};

/* Parse text (name is used in messages).  Returns 0 (also when the text
 * only carries an error: see s->error), -EINVAL with a message naming
 * name:line when a record is malformed and nothing could be read, or
 * naming name when the text is perf stat's human-readable output. */
int perf_stat_parse(const char *name, const char *text,
		    struct kb_perf_stat *s);

/* The counter of a canonical event ("cycles", "instructions",
 * "cache-references", "cache-misses", "L1-dcache-load-misses",
 * "LLC-load-misses", "branch-misses", "cpu-clock", "context-switches",
 * "cpu-migrations", "page-faults"), summed over aliases (cpu-cycles,
 * cs, migrations, faults) and hybrid PMUs (cpu_core/cycles/); modifiers
 * after ':' are ignored.  Fills *c; returns 1 when found, else 0. */
int perf_stat_find(const struct kb_perf_stat *s, const char *canon,
		   struct kb_perf_count *c);

/* Add perf.* metrics (lib/metrics.c) to metrics: for each canonical event
 * counted, perf.<name> (cpu-clock as perf.cpu_clock_ms) and
 * perf.<name>_coverage_pct (100 * running / enabled); derived
 * perf.ipc = instructions / cycles, perf.cache_miss_pct = 100 *
 * cache-misses / cache-references, perf.mpki = 1000 * cache-misses /
 * instructions, perf.l1d_mpki = 1000 * L1-dcache-load-misses /
 * instructions, each only when both operands were counted and the
 * denominator is > 0.  Unsupported events are left out (n/a, never 0);
 * warnings gets one line naming them, one for multiplexing (coverage
 * < 100%), one per event left out for malformed records, and the error
 * when there is one. */
void perf_stat_metrics(const struct kb_perf_stat *s, json_t *metrics,
		       json_t *warnings);

#endif
