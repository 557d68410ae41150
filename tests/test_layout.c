/* tests/test_layout.c - the named layouts of reports/layout.h and the CSV
 * data (reports/csv.c), on the report fixture
 * (tests/data/report/results.json, see tests/test_report.c).  Golden
 * files tests/data/report/layout-NAME.{txt,md} and data.csv were read by
 * eye when made (the rounds average equals the variants table's mean,
 * mmtests' Amean too); KBENCH_UPDATE_GOLDEN=1 rewrites them.  Runs from
 * the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "parsers/kconf.h"
#include "reports/layout.h"
#include "reports/report.h"
#include "results/model.h"
#include "results/paths.h"
#include "stats/summary.h"
#include "stats/compare.h"
#include "tests/replace_all.h"
#include "tests/report_fixture.h"
#include "tests/run_kbench.h"

static char *render(json_t *res, const char *format,
		    const struct report_opts *opts, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*ret = render_results(f, res, format, opts);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void check_golden(const char *out, const char *golden)
{
	char *want = NULL;

	if (getenv("KBENCH_UPDATE_GOLDEN")) {
		assert_int_equal(kb_write_atomic(golden, out, strlen(out)), 0);
		return;
	}
	assert_int_equal(kb_read_file(golden, &want, NULL, 0), 0);
	if (strcmp(out, want))
		fail_msg("%s differs from the output (KBENCH_UPDATE_GOLDEN=1 "
			 "rewrites it):\n%s", golden, out);
	free(want);
}

static void check_layout(const char *layout)
{
	static const char *const fmts[][2] = { { "text", "txt" },
		{ "markdown", "md" } };
	struct report_opts o;
	json_t *res = load_fixture();
	char *out, *golden;
	size_t f;
	int ret;

	report_opts_init(&o);
	o.layout = layout;
	for (f = 0; f < 2; f++) {
		out = render(res, fmts[f][0], &o, &ret);
		assert_int_equal(ret, 0);
		golden = kb_xasprintf("tests/data/report/layout-%s.%s", layout,
				      fmts[f][1]);
		check_golden(out, golden);
		free(golden);
		free(out);
	}
	json_decref(res);
}

static void test_rounds(void **s) { (void)s; check_layout("rounds"); }
static void test_scaling(void **s) { (void)s; check_layout("scaling"); }
static void test_mmtests(void **s) { (void)s; check_layout("mmtests"); }
static void test_lkp(void **s) { (void)s; check_layout("lkp"); }

/* lkp with long metric names (perf, profile, per-host metrics): every
 * line within 80 columns and no name wrapped onto a second line; a name
 * that does not fit is cut with "~N" and named in full in the legend. */
static void test_lkp_long_names(void **state)
{
	static const char *const longs[] = {
		"profile.cycles.merge.io_pct",
		"perf.context_switches_coverage_pct",
		"host.10.0.0.2:8765.read.clat_p99_ns",
	};
	struct report_opts o;
	json_t *res = results_load_export("tests/data/report/results.json");
	json_t *run;
	char *out, *l, *legend;
	const char *p;
	size_t i, k, nrows = 0;
	int ret;

	(void)state;
	assert_non_null(res);
	json_array_foreach(json_object_get(res, "runs"), i, run)
		for (k = 0; k < 3; k++)
			json_object_set_new(json_object_get(run, "metrics"),
					    longs[k], json_real(100.0 + i + k));
	assert_int_equal(tree_analyse(res, NULL), 0);
	report_opts_init(&o);
	o.layout = "lkp";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	for (p = out; *p; p = l + 1) {
		l = strchr(p, '\n');
		assert_non_null(l);
		if (l - p > 80)
			fail_msg("line over 80 columns: %.*s", (int)(l - p), p);
		/* a row's continuation: blanks up to the metric column */
		if (l - p > 50 && strspn(p, " ") >= 50)
			fail_msg("metric name wrapped: %.*s", (int)(l - p), p);
		nrows += !!strstr(p, "+-") && strstr(p, "+-") < l &&
			 memchr(p, '~', (size_t)(l - p));
	}
	assert_true(nrows >= 2);	/* cut names are on rows */
	legend = strstr(out, "metric names cut to fit 80 columns: ~1 ");
	assert_non_null(legend);
	for (k = 0; k < 3; k++)
		assert_non_null(strstr(legend, longs[k]));
	free(out);
	json_decref(res);
}

/* The rounds average is the variants table's mean (same runs). */
static void test_rounds_average_is_mean(void **state)
{
	struct report_opts o;
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	report_opts_init(&o);
	o.layout = "rounds";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "  average     101241.33     101901.17"
				    "     102485.04\n"));
	/* the failed run of NM=1 iteration 2 is n/a, never 0 */
	assert_non_null(strstr(out, "        2     100987.12           n/a"));
	free(out);
	json_decref(res);
}

/* The fields of one CSV record (RFC 4180: "..." with "" inside), from
 * *p up to its CRLF; *p moves past it.  -1 when the record is malformed. */
static int csv_record(const char **p, char fields[][64], int max)
{
	const char *s = *p;
	int n = 0, len;

	for (;;) {
		len = 0;
		if (*s == '"') {
			for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
				if (*s == '"')
					s++;
				if (len < 63)
					fields[n][len++] = *s;
			}
			if (*s++ != '"')
				return -1;
		} else {
			for (; *s && *s != ',' && *s != '\r'; s++) {
				if (*s == '"' || *s == '\n')
					return -1;
				if (len < 63)
					fields[n][len++] = *s;
			}
		}
		fields[n][len] = '\0';
		if (++n == max)
			return -1;
		if (*s == ',') {
			s++;
			continue;
		}
		if (s[0] != '\r' || s[1] != '\n')
			return -1;
		*p = s + 2;
		return n;
	}
}

static const char csv_header[] = "configuration,variant,NM,job,metric,"
	"unit,n,mean,sd,cv_pct,ci_low,ci_high,baseline,change_pct,"
	"change_ci_low,change_ci_high,p_adjusted,significant,mde_pct,"
	"disturbed_runs,bimodal,analysis,verdict\r\n";

/* CSV is data: one header, one record per (configuration, job, metric)
 * of the summaries, the same width everywhere, numbers or empty fields,
 * whatever the layout. */
static void test_csv_data(void **state)
{
	static char f[40][64];
	struct report_opts o;
	json_t *res = load_fixture();
	char *out, *with_layout;
	const char *p;
	int ret, n, records = 0, sig_rows = 0;

	(void)state;
	report_opts_init(&o);
	out = render(res, "csv", &o, &ret);
	assert_int_equal(ret, 0);
	check_golden(out, "tests/data/report/data.csv");
	assert_int_equal(strncmp(out, csv_header, strlen(csv_header)), 0);
	o.layout = "rounds";
	with_layout = render(res, "csv", &o, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(out, with_layout);
	free(with_layout);

	p = out + strlen(csv_header);
	while (*p) {
		n = csv_record(&p, f, 40);
		assert_int_equal(n, 23);
		records++;
		assert_non_null(strchr(f[0], ','));	/* "running,NM=0" */
		assert_null(strstr(f[7], "n/a"));
		assert_true(f[7][0] != '\0');	/* every summary has a mean */
		if (!strcmp(f[0], "running,NM=0")) {
			/* the baseline: nothing to compare */
			assert_string_equal(f[12], "");
			assert_string_equal(f[13], "");
			assert_string_equal(f[22], "");
		}
		if (!strcmp(f[0], "running,NM=1") &&
		    !strcmp(f[4], "read.clat_p99_ns")) {
			assert_string_equal(f[6], "2");
			assert_string_equal(f[12], "running,NM=0");
			assert_true(strtod(f[13], NULL) < -3.39 &&
				    strtod(f[13], NULL) > -3.41);
			/* Welch on ln values (stats/compare.h): adjusted p
			 * 0.0504, just not significant at 0.05 */
			assert_true(strtod(f[16], NULL) > 0.05 &&
				    strtod(f[16], NULL) < 0.051);
			assert_string_equal(f[17], "0");
			assert_string_equal(f[21], "welch-log");
			assert_string_equal(f[22],
					    "no significant difference");
		}
		sig_rows += !strcmp(f[17], "1");
		/* disturbances are not measured on this model: empty, never
		 * 0; modes are looked for in every sample: 0 or 1 */
		assert_string_equal(f[19], "");
		assert_true(!strcmp(f[20], "0") || !strcmp(f[20], "1"));
		/* NM=2 has no disk.* metrics: no record for them */
		assert_false(!strcmp(f[0], "running,NM=2") &&
			     !strncmp(f[4], "disk.", 5));
	}
	assert_int_equal(records, (int)json_array_size(
				json_object_get(res, "summaries")));
	assert_true(sig_rows >= 1);
	free(out);
	json_decref(res);
}

/* Measured disturbances and two modes fill their columns; a tunable
 * named like a column gets a prefix; a text with a quote is quoted. */
/* 1 when s holds a byte a terminal acts on: a control character other
 * than a line break, or a C1 control in UTF-8 (0xc2 0x80..0x9f). */
static int has_control(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\n') || *s == 0x7f ||
		    ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] >= 0x80
		     && (unsigned char)s[1] <= 0x9f))
			return 1;
	return 0;
}

/* Control characters in a job name and a configuration id of a
 * results.json (ESC ] 0 ; ... BEL sets the terminal's title, CSI 3 1 m
 * turns it red) are shown as '?' by the text and markdown reports, in
 * every layout, never written to the terminal (a break-it trial). */
static void test_control_chars_shown(void **state)
{
	static const char *const args[][4] = {
		{ "-f", "text" }, { "-f", "markdown" },
		{ "--layout", "rounds" }, { "--layout", "lkp" },
		{ "--layout", "mmtests" },
	};
	json_t *fx = results_load_export(REPORT_FIXTURE);
	char *text = json_dumps(fx, 0), *t1, *t2, *out, *err;
	char path[] = "/tmp/kbench-test-layout-XXXXXX";
	size_t i;
	int fd;

	(void)state;
	t1 = replace_all(text, "randread-4k", "rand\\u001b]0;x\\u0007read");
	t2 = replace_all(t1, "running,NM=1", "running\\u001b[31m\\u009b0m,NM=1");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kb_write_atomic(path, t2, strlen(t2)), 0);
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		char *argv[] = { "report", "--from-json", path,
				 (char *)args[i][0], (char *)args[i][1], NULL };

		assert_int_equal(run_kbench(argv, &out, &err), 0);
		if (has_control(out))
			fail_msg("report %s %s wrote a control character:\n%s",
				 args[i][0], args[i][1], out);
		if (!strstr(out, "rand?]0;x?read") ||
		    !strstr(out, "31m?0m,NM=1"))
			fail_msg("report %s %s: no job rand?]0;x?read or "
				 "configuration running?[31m?0m,NM=1:\n%s",
				 args[i][0], args[i][1], out);
		free(out);
		free(err);
	}
	unlink(path);
	free(t2);
	free(t1);
	free(text);
	json_decref(fx);
}

/* Every layout fits 80 columns with long names: a 48-character variant
 * and a 31-character tunable label (configuration ids of 82 characters:
 * a rounds table was 94 columns, lkp 99), the long heads cut with a
 * legend, lkp's columns headed base and new. */
static void test_long_names_fit(void **state)
{
	static const char *const lay[] = { "variants", "lkp", "time",
		"rounds", "mmtests", "scaling", "profile", NULL };
	json_t *fx = results_load_export(REPORT_FIXTURE), *res;
	char *text = json_dumps(fx, 0), *t1, *t2, *out, *line;
	struct report_opts o;
	size_t i, widest;
	int ret, cut = 0, lkp_heads = 0;

	(void)state;
	t1 = replace_all(text, "running",
			 "linux-6.9.0-rc1-nomerges-v2-with-long-branch-name");
	t2 = replace_all(t1, "NM", "QUEUE_NOMERGES_SETTING_FOR_NVME");
	res = json_loads(t2, 0, NULL);
	assert_non_null(res);
	assert_int_equal(tree_analyse(res, NULL), 0);
	for (i = 0; lay[i]; i++) {
		report_opts_init(&o);
		o.layout = lay[i];
		out = render(res, "text", &o, &ret);
		assert_int_equal(ret, 0);
		widest = 0;
		for (line = out; *line; ) {
			size_t l = strcspn(line, "\n");

			if (l > widest)
				widest = l;
			line += l + (line[l] == '\n');
		}
		if (widest > 80)
			fail_msg("layout %s: a line of %zu columns:\n%s", lay[i],
				 widest, out);
		cut |= strstr(out, "column heads cut to fit 80 columns: ~1: ")
		       != NULL;
		lkp_heads |= strstr(out, "base  %stddev  %change") &&
			     strstr(out, "new  %stddev  metric") &&
			     strstr(out, "\nbase:");
		free(out);
	}
	assert_true(cut);
	assert_true(lkp_heads);
	json_decref(res);
	json_decref(fx);
	free(text);
	free(t1);
	free(t2);
}

/* A layout asked for by name that has no table for a job says why
 * under the job, as the profile layout does, never the report's header
 * alone or a table of no cells (a helper's trial): lkp with one
 * configuration, time without rusage or task CPU, rounds, mmtests and
 * pivot for a job that does not measure the metric (a second job, of
 * writes only, beside the fixture's reads). */
static void test_layout_nothing_to_show(void **state)
{
	static const struct {
		const char *layout, *rows, *cols, *why;
	} cases[] = {
		{ "lkp", NULL, NULL, "randread-4k: lkp style: no configuration "
		  "to compare with its baseline (running,NM=0 is the only "
		  "one)" },
		{ "time", NULL, NULL, "seqwrite: no time or CPU table: its "
		  "runs recorded no fio rusage, /proc/stat, /proc/diskstats "
		  "or task CPU" },
		{ "rounds", NULL, NULL, "seqwrite: read.iops: not measured by "
		  "this job" },
		{ "mmtests", NULL, NULL, "seqwrite: read.iops: not measured by "
		  "this job" },
		{ NULL, "iteration", "configuration", "seqwrite: read.iops: "
		  "not measured by this job" },
	};
	const char *metric[] = { "read.iops", NULL };
	json_t *one = results_load_export(REPORT_FIXTURE), *two, *runs, *run;
	json_t *res;
	struct report_opts o;
	size_t i, k;
	char *out;
	int ret;

	(void)state;
	assert_non_null(one);
	two = json_deep_copy(one);
	/* one: running,NM=0 alone */
	runs = json_array();
	json_array_foreach(json_object_get(one, "runs"), i, run)
		if (!strcmp(json_string_value(json_object_get(run,
			    "configuration")), "running,NM=0"))
			json_array_append(runs, run);
	json_object_set_new(one, "runs", runs);
	json_array_remove(json_object_get(one, "configurations"), 2);
	json_array_remove(json_object_get(one, "configurations"), 1);
	assert_int_equal(tree_analyse(one, NULL), 0);
	/* two: a job "seqwrite" of write.iops alone beside randread-4k */
	runs = json_object_get(two, "runs");
	for (i = 0, k = json_array_size(runs); i < k; i++) {
		run = json_deep_copy(json_array_get(runs, i));
		json_object_set_new(run, "job", json_string("seqwrite"));
		json_object_set_new(run, "metrics", json_pack("{s:f}",
				    "write.iops", 5000.0 + (double)i));
		json_array_append_new(runs, run);
	}
	json_array_append_new(json_object_get(json_object_get(two,
			      "campaign"), "jobs"), json_string("seqwrite"));
	assert_int_equal(tree_analyse(two, NULL), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		res = i ? two : one;
		report_opts_init(&o);
		o.layout = cases[i].layout;
		o.rows = cases[i].rows;
		o.cols = cases[i].cols;
		o.metrics = i > 1 ? metric : NULL;
		/* markdown: the note on one line */
		out = render(res, "markdown", &o, &ret);
		assert_int_equal(ret, 0);
		if (!strstr(out, cases[i].why))
			fail_msg("layout %s: no '%s' in:\n%s", cases[i].layout ?
				 cases[i].layout : "pivot", cases[i].why, out);
		assert_null(strstr(out, "\n\n\n"));
		free(out);
		/* text: no table of no cells, no double blank line */
		out = render(res, "text", &o, &ret);
		assert_int_equal(ret, 0);
		assert_null(strstr(out, "\niteration\n---------\n"));
		assert_null(strstr(out, "\n--------\nAmean\n"));
		assert_null(strstr(out, "\n\n\n"));
		free(out);
	}
	json_decref(one);
	json_decref(two);
}

/* A job none of whose runs counts says why in every layout: "no timed
 * run yet" for a campaign stopped after its warm-ups, "no run counted
 * (all left out of the statistics)" when --exclude-disturbed (or a
 * suspect page cache) left every successful run out, "no successful
 * runs" only when the timed runs failed (a new user's trial: a campaign
 * interrupted after its warm-ups, and one whose every run was
 * disturbed, both said "no successful runs" of runs that had all
 * succeeded; lkp printed a table of no rows, time blamed the runs for
 * recording no rusage). */
static void test_no_counted_run_said(void **state)
{
	static const char *const layouts[] = { NULL, "rounds", "mmtests",
					       "scaling", "lkp", "time" };
	static const char *const why[] = { "no timed run yet",
		"no run counted (all left out of the statistics)",
		"no successful runs" };
	json_t *res, *runs, *run;
	struct report_opts o;
	size_t i, k, l;
	char *out, *want;
	int ret;

	(void)state;
	for (k = 0; k < 3; k++) {
		res = results_load_export(REPORT_FIXTURE);
		assert_non_null(res);
		runs = json_object_get(res, "runs");
		for (i = json_array_size(runs); i-- > 0;) {
			run = json_array_get(runs, i);
			if (json_is_true(json_object_get(run, "warmup")))
				continue;
			if (k == 0)		/* stopped after the warm-ups */
				json_array_remove(runs, i);
			else if (k == 1)	/* every run disturbed */
				json_object_set_new(run, "excluded",
						    json_string("disturbed"));
			else			/* every timed run failed */
				json_object_set_new(run, "status",
						    json_string("failed"));
		}
		assert_int_equal(tree_analyse(res, NULL), 0);
		for (l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
			report_opts_init(&o);
			o.layout = layouts[l];
			out = render(res, "markdown", &o, &ret);
			assert_int_equal(ret, 0);
			want = kb_xasprintf("randread-4k: %s%s",
				!layouts[l] || strcmp(layouts[l], "lkp") ?
				(layouts[l] && !strcmp(layouts[l], "time") ?
				 "no time or CPU table: " : "read.iops: ") :
				"lkp style: ", why[k]);
			if (!strstr(out, want))
				fail_msg("layout %s: no '%s' in:\n%s",
					 layouts[l] ? layouts[l] : "default",
					 want, out);
			if (k < 2)
				assert_null(strstr(out, "no successful runs"));
			/* no table of no rows */
			assert_null(strstr(out, "| metric |"));
			free(want);
			free(out);
		}
		json_decref(res);
	}
}

static void test_csv_flags_modes(void **state)
{
	static char f[40][64];
	struct report_opts o;
	json_t *res = load_fixture(), *run, *sum;
	char *out;
	const char *p;
	size_t i;
	int ret, n, seen = 0;

	(void)state;
	report_opts_init(&o);
	/* disturbance judged (disturbed_settings), one run of NM=2
	 * disturbed; a fio sanity flag is no disturbance (the column
	 * counted "flags" and stayed empty for real campaigns) */
	json_object_set_new(res, "disturbed_settings", json_object());
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		json_object_set_new(run, "disturbed", json_array());
		json_object_set_new(run, "flags", json_array());
		if (!strcmp(json_string_value(json_object_get(run,
				"configuration")), "running,NM=2") &&
		    json_integer_value(json_object_get(run, "iteration")) == 1)
			json_array_append_new(json_object_get(run,
				"disturbed"), json_string("steal_pct"));
		if (!strcmp(json_string_value(json_object_get(run,
				"configuration")), "running,NM=1"))
			json_array_append_new(json_object_get(run, "flags"),
					      json_string("migrated"));
	}
	json_array_foreach(json_object_get(res, "summaries"), i, sum)
		json_object_set_new(sum, "modes", json_null());
	json_object_set_new(json_array_get(json_object_get(res, "summaries"),
					   0), "modes", json_object());
	json_object_set_new(json_array_get(json_object_get(json_object_get(res,
		"campaign"), "tunables"), 0), "label", json_string("n"));
	json_object_set_new(json_array_get(json_object_get(res,
		"summaries"), 1), "unit", json_string("a \"b\", c"));
	out = render(res, "csv", &o, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(strncmp(out, "configuration,variant,tunable_n,job,",
				 36), 0);
	assert_non_null(strstr(out, ",\"a \"\"b\"\", c\","));
	p = strstr(out, "\r\n") + 2;
	while (*p) {
		n = csv_record(&p, f, 40);
		assert_int_equal(n, 23);
		assert_string_equal(f[20], seen ? "0" : "1");
		assert_string_equal(f[19], !strcmp(f[0], "running,NM=2") ?
				    "1" : "0");
		seen++;
	}
	free(out);
	json_decref(res);
}

static void test_pivot_errors(void **state)
{
	struct report_opts o;
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	report_opts_init(&o);
	o.rows = "nosuch";
	o.cols = "NM";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	o.rows = "NM";
	o.cols = NULL;
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	o.rows = o.cols = "NM";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	o.rows = "iteration";
	o.cols = "NM";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "iteration       NM=0       NM=1"));
	free(out);
	o.rows = NULL;
	o.cols = NULL;
	o.layout = "nosuch";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	json_decref(res);
}

/* --prefix: the fixture (running x NM = 0 1 2, rounds 1-3, NM=1's
 * round 2 failed) with metric set to v[NM][round - 1] in every run (the
 * warm-up: round 1's), analysed again. */
static json_t *fixture_values(const char *metric, const double v[3][3])
{
	json_t *res = results_load_export(REPORT_FIXTURE), *run;
	const char *cfg;
	long long it;
	size_t i;

	assert_non_null(res);
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		cfg = json_string_value(json_object_get(run, "configuration"));
		it = json_integer_value(json_object_get(run, "iteration"));
		assert_non_null(cfg);
		assert_true(strlen(cfg) > 3 && it >= 0 && it <= 3);
		json_object_set_new(json_object_get(run, "metrics"), metric,
			json_real(v[cfg[strlen(cfg) - 1] - '0'][it ? it - 1 : 0]));
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	return res;
}

/* The blank-separated cells of the line of out whose first cell is
 * first (the first such line), into cells[0..max); their count. */
static size_t line_cells(const char *out, const char *first,
			 char cells[][32], size_t max)
{
	const char *p = out, *e;
	size_t n, len;

	for (; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, '\n');
		for (n = 0; n < max; n++) {
			p += strspn(p, " ");
			if (p >= e)
				break;
			len = strcspn(p, " \n");
			if (len > 31)
				len = 31;
			memcpy(cells[n], p, len);
			cells[n][len] = '\0';
			p += strcspn(p, " \n");
		}
		if (n && !strcmp(cells[0], first))
			return n;
	}
	fail_msg("no line starting '%s' in:\n%s", first, out);
	return 0;
}

/* format's output with --prefix auto, asserted equal to --prefix
 * none's (malloc'd): a percentage has nothing to scale, json is data. */
static char *render_unscaled(json_t *res, struct report_opts *o,
			     const char *format)
{
	char *none, *out;
	int ret;

	o->prefix = KB_PREFIX_NONE;
	none = render(res, format, o, &ret);
	assert_int_equal(ret, 0);
	o->prefix = KB_PREFIX_AUTO;
	out = render(res, format, o, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(out, none);
	free(none);
	return out;
}

/* The text of layout under o (its layout set to it; malloc'd). */
static char *render_layout(json_t *res, struct report_opts *o,
			   const char *layout)
{
	char *out;
	int ret;

	o->layout = layout;
	out = render(res, "text", o, &ret);
	assert_int_equal(ret, 0);
	return out;
}

/* The text of layout with --prefix auto (malloc'd), o set up for it. */
static char *render_auto(json_t *res, struct report_opts *o,
			 const char *layout)
{
	report_opts_init(o);
	o->prefix = KB_PREFIX_AUTO;
	return render_layout(res, o, layout);
}

/* Seed 002's table (IOPS per round, "4310k"): --prefix auto writes the
 * rounds layout's cells and average with an SI prefix, 4 significant
 * digits; without it the same table is in IOPS; json stays plain. */
static void test_prefix_rounds_seed002(void **state)
{
	/* seed 002's rounds (with/without the patch) plus a few IOPS the
	 * post rounded away */
	static const double v[3][3] = {
		{ 4310123, 4295456, 4217789 },
		{ 4265321, 4327654, 4213987 },
		{ 4355000, 4236499, 4315501 },
	};
	struct report_opts o;
	json_t *res = fixture_values("read.iops", v);
	char cells[8][32], *out, *want;
	size_t r, k, n;
	double avg;
	int ret;

	(void)state;
	out = render_auto(res, &o, "rounds");
	assert_non_null(strstr(out, "randread-4k: read.iops (IOPS), per "
				    "round\n"));
	assert_non_null(strstr(out, "\nk = 10^3 (prefix auto; not 2^10)"));
	for (r = 0; r < 3; r++) {
		char label[4];

		snprintf(label, sizeof(label), "%zu", r + 1);
		assert_int_equal(line_cells(out, label, cells, 8), 4);
		for (k = 0; k < 3; k++) {
			/* NM=1's round 2 failed */
			want = k == 1 && r == 1 ? kb_xstrdup("n/a") :
			       kb_xasprintf("%.0fk", v[k][r] / 1000);
			assert_string_equal(cells[k + 1], want);
			free(want);
		}
	}
	assert_int_equal(line_cells(out, "average", cells, 8), 4);
	for (k = 0; k < 3; k++) {
		for (r = 0, n = 0, avg = 0; r < 3; r++)
			if (k != 1 || r != 1) {
				avg += v[k][r];
				n++;
			}
		want = kb_xasprintf("%.0fk", avg / (double)n / 1000);
		assert_string_equal(cells[k + 1], want);
		free(want);
	}
	free(out);
	/* the variants table: its mean column in the same prefix (NM=0's
	 * row first: running, 0, mean, base, ±...), the ± too */
	o.layout = "variants";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_true(line_cells(out, "running", cells, 8) >= 5);
	want = kb_xasprintf("%.0fk", (v[0][0] + v[0][1] + v[0][2]) / 3 / 1000);
	assert_string_equal(cells[2], want);
	free(want);
	assert_string_equal(cells[3], "base");
	assert_true(cells[4][strlen(cells[4]) - 1] == 'k');
	free(out);
	o.layout = "rounds";
	/* the default: plain IOPS, as before */
	o.prefix = KB_PREFIX_NONE;
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(line_cells(out, "1", cells, 8), 4);
	assert_string_equal(cells[1], "4310123.00");
	assert_null(strstr(out, "k = 10^3"));
	free(out);
	/* json is data: the same plain numbers whatever --prefix says */
	out = render_unscaled(res, &o, "json");
	assert_non_null(strstr(out, "\"4310123.00\""));
	free(out);
	json_decref(res);
}

/* kernels.conf prefix = auto (campaign.prefix "auto"): the tables are
 * scaled without --prefix (report_opts_init()'s KB_PREFIX_CAMPAIGN), as
 * with --prefix auto, and --prefix none wins over it; a campaign
 * without it, or with "none", stays in the metric's unit. */
static void test_prefix_from_campaign(void **state)
{
	static const double v[3][3] = {
		{ 4310123, 4295456, 4217789 },
		{ 4265321, 4327654, 4213987 },
		{ 4355000, 4236499, 4315501 },
	};
	static const char *const layouts[] = { "rounds", "variants", NULL };
	json_t *res = fixture_values("read.iops", v);
	json_t *camp = json_object_get(res, "campaign");
	struct report_opts o;
	char *dflt, *want, *none, *plain;
	size_t l;
	int ret;

	(void)state;
	for (l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
		report_opts_init(&o);
		o.layout = layouts[l];
		json_object_del(camp, "prefix");
		plain = render(res, "text", &o, &ret);	/* no prefix = */
		assert_int_equal(ret, 0);
		json_object_set_new(camp, "prefix", json_string("none"));
		dflt = render(res, "text", &o, &ret);
		assert_int_equal(ret, 0);
		assert_string_equal(dflt, plain);
		free(dflt);
		json_object_set_new(camp, "prefix", json_string("auto"));
		dflt = render(res, "text", &o, &ret);
		assert_int_equal(ret, 0);
		o.prefix = KB_PREFIX_AUTO;	/* --prefix auto */
		want = render(res, "text", &o, &ret);
		assert_int_equal(ret, 0);
		o.prefix = KB_PREFIX_NONE;	/* --prefix none */
		none = render(res, "text", &o, &ret);
		assert_int_equal(ret, 0);
		assert_string_equal(dflt, want);
		assert_string_not_equal(dflt, plain);
		assert_string_equal(none, plain);
		if (layouts[l] && !strcmp(layouts[l], "rounds")) {
			assert_non_null(strstr(dflt, " 4310k "));
			assert_null(strstr(plain, " 4310k "));
			assert_non_null(strstr(plain, " 4310123.00 "));
		}
		free(dflt);
		free(want);
		free(none);
		free(plain);
	}
	json_decref(res);
}

/* Seed 003's sequential write bandwidth (GB/s: 0.17 0.33 0.50 for 1-3
 * MSAs) as the scaling layout by NM: in MiB/s, the unit named once in
 * the title, not on each cell; 100 times that (an NVMe array's) in
 * GiB/s.  A latency pivot is in us; a percentage is never scaled. */
static void test_prefix_scaling_seed003(void **state)
{
	static const double gib[3] = { 0.17, 0.33, 0.50 };
	static const struct {
		double times;
		const char *unit;
		double div;
		int dec;
	} cases[] = {
		{ 1, "MiB/s", 1024, 1 },		/* 174.1 .. 512.0 */
		{ 100, "GiB/s", 1024 * 1024, 2 },	/* 17.00 .. 50.00 */
	};
	double v[3][3], mean;
	struct report_opts o;
	char cells[8][32], *out, *want;
	size_t c, k, r;
	json_t *res;
	int ret;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (k = 0; k < 3; k++)
			for (r = 0; r < 3; r++)	/* KiB/s, +-1% by round */
				v[k][r] = gib[k] * cases[c].times * 1024 * 1024 *
					  (1 + 0.01 * ((double)r - 1));
		res = fixture_values("read.bw_kib", v);
		report_opts_init(&o);
		o.layout = "scaling";
		o.metrics = (const char *[]){ "read.bw_kib", NULL };
		o.prefix = KB_PREFIX_AUTO;
		out = render(res, "text", &o, &ret);
		assert_int_equal(ret, 0);
		want = kb_xasprintf("randread-4k: read.bw_kib (%s), mean by "
				    "NM\n", cases[c].unit);
		assert_non_null(strstr(out, want));
		free(want);
		assert_int_equal(line_cells(out, "running", cells, 8), 4);
		for (k = 0; k < 3; k++) {
			/* NM=1: rounds 1 and 3 (round 2 failed) */
			mean = k == 1 ? (v[k][0] + v[k][2]) / 2 :
			       (v[k][0] + v[k][1] + v[k][2]) / 3;
			want = kb_xasprintf("%.*f", cases[c].dec,
					    mean / cases[c].div);
			assert_string_equal(cells[k + 1], want);
			free(want);
		}
		assert_null(strstr(out, "KiB/s"));
		assert_null(strstr(out, "k = 10^3"));
		free(out);
		json_decref(res);
	}
	res = load_fixture();
	report_opts_init(&o);
	o.rows = "NM";
	o.cols = "iteration";
	o.metrics = (const char *[]){ "read.clat_p99_ns", NULL };
	o.prefix = KB_PREFIX_AUTO;
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "read.clat_p99_ns (us), mean per cell"));
	free(out);
	o.metrics = (const char *[]){ "cpu.iowait_pct", NULL };
	free(render_unscaled(res, &o, "text"));
	json_decref(res);
}

/* Cell c of a --prefix auto table ("0.00040M", "n/a"): true when it is
 * n/a and want is NAN, or it reads want / div within 5% (0 only for 0):
 * a value the table's prefix cannot hold in its decimals ("0M" for 400
 * IOPS) is a lie. */
static int cell_reads(const char *c, double want, double div)
{
	char *end;
	double got;

	if (isnan(want))
		return !strcmp(c, "n/a");
	got = strtod(c, &end);
	if (end == c || strcmp(end, "M"))
		return 0;
	if (want == 0)
		return got == 0;
	return fabs(got - want / div) <= 0.05 * fabs(want / div);
}

/* Mixed magnitudes in one table (1e9 IOPS and 5): the table is in M
 * (its largest value), and a value that is not 0 keeps its first digits
 * ("0.00040M", "0.0000050M"), never "0M"; 0 stays "0M". */
static void test_prefix_mixed_magnitudes(void **state)
{
	static const double v[3][3] = {
		{ 1e9, 400, 2e9 },
		{ 5, 7, 300 },		/* round 2 failed */
		{ 0, 1e6, 2.5e8 },
	};
	static const char *const rows[] = { "1", "2", "3" };
	struct report_opts o;
	char cells[8][32], *out;
	size_t r, k;
	json_t *res = fixture_values("read.iops", v);
	int ret;

	(void)state;
	out = render_auto(res, &o, "rounds");
	for (r = 0; r < 3; r++) {
		assert_int_equal(line_cells(out, rows[r], cells, 8), 4);
		for (k = 0; k < 3; k++)
			if (!cell_reads(cells[k + 1], k == 1 && r == 1 ? NAN :
					v[k][r], 1e6))
				fail_msg("round %zu NM=%zu: %g IOPS as '%s'",
					 r + 1, k, v[k][r], cells[k + 1]);
	}
	/* the stddev row: NM=1's 208 IOPS, not "0M" */
	assert_int_equal(line_cells(out, "stddev", cells, 8), 4);
	assert_true(cell_reads(cells[2], sqrt((295.0 * 295) / 2), 1e6));
	free(out);
	/* mmtests: Min (400, 5, 0) and its own format */
	o.layout = "mmtests";
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	assert_true(line_cells(out, "Min", cells, 8) >= 4);
	assert_true(cell_reads(cells[1], 400, 1e6));
	/* "Min 0.00040M ( 0.00%) 0.0000050M (..." */
	assert_string_equal(cells[3], "0.00%)");
	assert_true(cell_reads(cells[4], 5, 1e6));
	free(out);
	json_decref(res);
}

/* The cells after the first of out's line whose first cell is first,
 * joined by one blank, are want. */
static void assert_row(const char *out, const char *first, const char *want)
{
	char cells[16][32], got[16 * 33] = "";
	size_t n = line_cells(out, first, cells, 16), k;

	for (k = 1; k < n; k++) {
		if (k > 1)
			strcat(got, " ");
		strcat(got, cells[k]);
	}
	if (strcmp(got, want))
		fail_msg("row '%s': '%s', not '%s'", first, got, want);
}

/* Without --prefix, too: a value that is not 0 but prints as 0 at its
 * metric's decimals keeps its first 2 digits (kb_cell_dec()), in the
 * rounds, mmtests and lkp tables: counts (0 decimals) of 0.5 and 0.25
 * were "0", a percentage of 0.0004 "0.00"; 0 stays "0".  And
 * --prefix auto's 500 IOPS in a table of 5000k (0 decimals) is 0.5k,
 * which printf rounds to even: "0k" under the old bound, "0.50k" now. */
static void test_small_values_not_zero(void **state)
{
	static const double merges[3][3] = {
		{ 0.5, 0.25, 0 },
		{ 0.0004, 1, 7 },	/* round 2 failed */
		{ 0, 0, 0 },
	};
	static const double pct[3][3] = {
		{ 0.0004, 0.0004, 0.0004 },
		{ 50, 1, 50 },
		{ 0, 0, 0 },
	};
	static const double iops[3][3] = {
		{ 5e6, 500, 5e6 },
		{ 4e6, 1, 4e6 },
		{ 0, 0, 0 },
	};
	struct report_opts o;
	char cells[8][32], *out;
	json_t *res = fixture_values("disk.merges", merges);

	(void)state;
	report_opts_init(&o);
	o.metrics = (const char *[]){ "disk.merges", NULL };
	out = render_layout(res, &o, "rounds");
	assert_row(out, "1", "0.50 0.00040 0");
	assert_row(out, "2", "0.25 n/a 0");
	assert_row(out, "3", "0 7 0");
	free(out);
	/* mmtests: NM=0's Amean 0.25, its Min 0, NM=1's 0.0004 */
	out = render_layout(res, &o, "mmtests");
	assert_true(line_cells(out, "Amean", cells, 8) >= 2);
	assert_string_equal(cells[1], "0.25");
	assert_true(line_cells(out, "Min", cells, 8) >= 5);
	assert_string_equal(cells[1], "0");
	assert_string_equal(cells[3], "0.00040");
	free(out);
	/* lkp: NM=1 (4.0002) vs NM=0 (0.25, the base) */
	out = render_layout(res, &o, "lkp");
	assert_true(line_cells(out, "0.25", cells, 8) >= 5);
	assert_string_equal(cells[4], "4");
	free(out);
	json_decref(res);

	res = fixture_values("task.other.cpu_pct", pct);
	o.metrics = (const char *[]){ "task.other.cpu_pct", NULL };
	out = render_layout(res, &o, "rounds");
	assert_row(out, "1", "0.00040 50.00 0.00");
	free(out);
	json_decref(res);

	res = fixture_values("read.iops", iops);
	out = render_auto(res, &o, "rounds");
	assert_row(out, "1", "5000k 4000k 0k");
	assert_row(out, "2", "0.50k n/a 0k");
	free(out);
	json_decref(res);
}

/* One table of layouts: kernels.conf's `layouts =` accepts exactly the
 * report's layouts but pivot (which needs --rows/--cols), each has help,
 * and an unknown name is refused naming every choice. */
static void test_layout_table(void **state)
{
	const char *name, *help;
	size_t i, j, n = 0;

	(void)state;
	for (i = 0; (name = kb_layout_name(i, &help)); i++) {
		assert_true(kb_layout_find(name));
		assert_true(strlen(help) > 10);
		/* --help says what the layout prints: time's first table is
		 * the CPU and I/O table (it said "two tables" of its three) */
		if (!strcmp(name, "time"))
			assert_non_null(strstr(help, "the CPU and I/O table"));
		/* the default report's own: kernels.conf's layouts = does
		 * not add them to report.txt again */
		assert_int_equal(kb_layout_in_default(name),
				 !strcmp(name, "variants") ||
				 !strcmp(name, "profile") ||
				 !strcmp(name, "time"));
		if (!strcmp(name, "pivot"))
			continue;
		for (j = 0; kconf_layout_names[j] &&
		     strcmp(kconf_layout_names[j], name); j++)
			;
		if (!kconf_layout_names[j])
			fail_msg("layout %s is not accepted by kernels.conf", name);
		n++;
	}
	for (j = 0; kconf_layout_names[j]; j++)
		assert_true(kb_layout_find(kconf_layout_names[j]));
	assert_int_equal(j, n);
	assert_false(kb_layout_find("nosuch"));
	assert_false(kb_layout_find(NULL));
	{
		char *all = kb_layout_names(", ");

		assert_non_null(strstr(all, "variants, profile"));
		assert_non_null(strstr(all, "lkp, pivot"));
		free(all);
	}
}

/* One numbering (issue 15): iteration N is the N-th counted round, the
 * warm-ups w1..wW, whatever warmup is; the stored round index (the run
 * key's NNN) is r = W + N - 1. */
static void test_iteration_label(void **state)
{
	char b[KB_ITER_LABEL_MAX];

	(void)state;
	assert_string_equal(kb_iteration_label(0, 0, b), "1");
	assert_string_equal(kb_iteration_label(2, 0, b), "3");
	assert_string_equal(kb_iteration_label(0, 1, b), "w1");
	assert_string_equal(kb_iteration_label(1, 1, b), "1");
	assert_string_equal(kb_iteration_label(1, 2, b), "w2");
	assert_string_equal(kb_iteration_label(2, 2, b), "1");
	assert_string_equal(kb_iteration_label(4, 2, b), "3");
	assert_int_equal(kb_iteration_counted(4, 2), 3);
	assert_int_equal(kb_iteration_counted(0, 2), -1);
}

/* The report's text without its "Iterations:" header line (the one line
 * that names warmup). */
static char *render_without_warmup_line(json_t *res, const char *layout)
{
	struct report_opts o;
	char *out, *line, *end;
	int ret;

	report_opts_init(&o);
	o.layout = layout;
	out = render(res, "text", &o, &ret);
	assert_int_equal(ret, 0);
	line = strstr(out, "Iterations:");
	assert_non_null(line);
	end = strchr(line, '\n');
	assert_non_null(end);
	memmove(line, end + 1, strlen(end + 1) + 1);
	return out;
}

/* The same runs read the same with warmup = 0, 1 or 2: the rounds rows
 * 1..3 and the failed run "iteration 2" in every table and note. */
static void test_numbering_ignores_warmup(void **state)
{
	static const char *const layouts[] = { "rounds", "variants" };
	size_t l;
	long long w;

	(void)state;
	for (l = 0; l < 2; l++) {
		json_t *res = load_fixture_with_warmup(1);
		char *want = render_without_warmup_line(res, layouts[l]);

		json_decref(res);
		assert_non_null(strstr(want, "randread-4k iteration 2: fio "
					     "exited"));
		if (!strcmp(layouts[l], "rounds"))
			assert_non_null(strstr(want, "\n        1     "
						     "101234.56"));
		for (w = 0; w <= 2; w += 2) {
			char *got;

			res = load_fixture_with_warmup(w);
			got = render_without_warmup_line(res, layouts[l]);
			if (strcmp(got, want))
				fail_msg("warmup = %lld, layout %s: the "
					 "numbers moved:\n%s", w, layouts[l],
					 got);
			free(got);
			json_decref(res);
		}
		free(want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_table),
		cmocka_unit_test(test_iteration_label),
		cmocka_unit_test(test_numbering_ignores_warmup),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_mmtests),
		cmocka_unit_test(test_lkp),
		cmocka_unit_test(test_lkp_long_names),
		cmocka_unit_test(test_rounds_average_is_mean),
		cmocka_unit_test(test_prefix_rounds_seed002),
		cmocka_unit_test(test_prefix_from_campaign),
		cmocka_unit_test(test_prefix_scaling_seed003),
		cmocka_unit_test(test_prefix_mixed_magnitudes),
		cmocka_unit_test(test_small_values_not_zero),
		cmocka_unit_test(test_csv_data),
		cmocka_unit_test(test_csv_flags_modes),
		cmocka_unit_test(test_long_names_fit),
		cmocka_unit_test(test_pivot_errors),
		cmocka_unit_test(test_layout_nothing_to_show),
		cmocka_unit_test(test_no_counted_run_said),
		cmocka_unit_test(test_control_chars_shown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
