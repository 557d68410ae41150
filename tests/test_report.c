/* tests/test_report.c - the text, markdown and json reports.
 *
 * tests/data/report/results.json is a hand-written campaign: variant
 * "running" with tunable NM = 0, 1, 2 (baseline NM=0), job randread-4k,
 * 3 timed iterations and 1 warm-up each; NM=1 iteration 2 failed (its
 * partial numbers must not count, so NM=1 has n=2); NM=2 has no disk.*
 * metrics (n/a).  golden.txt and golden.md are its reports, checked by
 * eye when they were made; any change of the output fails the test.  To
 * accept an intended change, run the test with KBENCH_UPDATE_GOLDEN=1 and
 * read the diff before committing.  Runs from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "lib/str.h"
#include "reports/report.h"
#include "reports/table.h"
#include "results/model.h"
#include "stats/summary.h"
#include "stats/compare.h"
#include "tests/flatten.h"
#include "tests/replace_all.h"
#include "tests/report_fixture.h"
#include "tests/run_kbench.h"

/* Render into a malloc'd string; *ret gets report_render()'s result. */
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
	size_t i, line = 1;

	if (getenv("KBENCH_UPDATE_GOLDEN")) {
		assert_int_equal(kb_write_atomic(golden, out, strlen(out)), 0);
		return;
	}
	assert_int_equal(kb_read_file(golden, &want, NULL, 0), 0);
	for (i = 0; out[i] && out[i] == want[i]; i++)
		if (out[i] == '\n')
			line++;
	if (out[i] != want[i]) {
		const char *o = out + i, *w = want + i;

		while (o > out && o[-1] != '\n')
			o--;
		while (w > want && w[-1] != '\n')
			w--;
		fail_msg("%s: output differs at line %zu:\n got: %.*s\nwant: "
			 "%.*s\n(KBENCH_UPDATE_GOLDEN=1 rewrites the golden "
			 "file)", golden, line, (int)strcspn(o, "\n"), o,
			 (int)strcspn(w, "\n"), w);
	}
	free(want);
}

/* Every line at most 80 columns, no tab, no trailing blank. */
static void check_text_shape(const char *out)
{
	const char *p = out, *e;
	size_t n = 1;

	assert_null(strchr(out, '\t'));
	while (*p) {
		e = strchr(p, '\n');
		assert_non_null(e);	/* newline-terminated */
		if (e - p > 80)
			fail_msg("line %zu is %td columns: %.*s", n, e - p,
				 (int)(e - p), p);
		if (e > p && e[-1] == ' ')
			fail_msg("line %zu ends with a blank", n);
		for (; p < e; p++)
			if ((unsigned char)*p >= 0x80)
				fail_msg("line %zu is not ASCII", n);
		p = e + 1;
		n++;
	}
}

/* The line of out that starts with prefix (NULL if none), copied. */
static char *line_starting(const char *out, const char *prefix)
{
	const char *p = out;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			return strndup(p, strcspn(p, "\n"));
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The text report of res with the default options but layout (NULL:
 * the default), checked to render and to fit 80 columns (malloc'd). */
static char *render_text(json_t *res, const char *layout)
{
	struct report_opts opts;
	char *out;
	int ret;

	report_opts_init(&opts);
	opts.layout = layout;
	out = render(res, "text", &opts, &ret);

	assert_int_equal(ret, 0);
	check_text_shape(out);
	return out;
}

/* The line of out starting with prefix exists and holds needle. */
static void assert_line_has(const char *out, const char *prefix,
			    const char *needle)
{
	char *l = line_starting(out, prefix);

	if (!l)
		fail_msg("no line starts with '%s'", prefix);
	if (!strstr(l, needle))
		fail_msg("'%s' lacks '%s'", l, needle);
	free(l);
}

static void test_text_golden(void **state)
{
	json_t *res = load_fixture();
	char *out;

	(void)state;
	out = render_text(res, NULL);
	check_golden(out, "tests/data/report/golden.txt");

	/* the baseline row says base; others a signed change */
	assert_line_has(out, "running   0     101241.33", "base");
	assert_line_has(out, "running   1     101901.17", "+0.65%");
	/* NM=2 has no disk metrics: n/a, never 0 */
	assert_line_has(out, "running   2    2.86", "n/a");
	/* the failed run is named, its 812.4 IOPS are not averaged in */
	assert_non_null(strstr(out, "1 run(s) failed: running,NM=1 "
				    "randread-4k iteration 2: fio exited"));
	assert_null(strstr(out, "812"));
	/* seed-000 layout: heading, dashes; groups of one row (a single
	 * variant) get no blank line between them (tests/e2e_run.sh checks
	 * the blank line between groups of several variants) */
	assert_non_null(strstr(out, "Kernel   NM  I/Os per sec"));
	assert_non_null(strstr(out, "-------  --  ------------"));
	assert_non_null(strstr(out, "0.25  3\nrunning   1"));
	/* significance markers: NM=2 +1.23% is significant, NM=1 not */
	assert_non_null(strstr(out, "102485.04  * +1.23%*"));
	assert_non_null(strstr(out, "101901.17   (+0.65%)"));
	assert_non_null(strstr(out, "minimum detectable effect"));
	free(out);
	json_decref(res);
}

/* 1 when out holds a control character (kb_control_len(): C0, DEL or
 * C1) other than its format's line end eol ("\n"; CSV: "\r\n", a lone
 * CR or LF counted) */
static int has_control(const char *out, const char *eol)
{
	size_t n = strlen(eol);

	while (*out) {
		if (!strncmp(out, eol, n)) {
			out += n;
			continue;
		}
		if (kb_control_len(out))
			return 1;
		out++;
	}
	return 0;
}

/* ESC, DEL and CSI (U+009B) in a job name, an OSC title sequence (ESC
 * ] ... BEL) and CR LF in a variant's name, a tab in a tunable's label
 * and ESC, tab and LF in a failed run's reason (fio's message): CSV
 * shows each as '?' as the text report does, every record one line,
 * JSON escapes them (\u001B, \u007F, \u009B: the data kept), markdown
 * shows ESC as '?', and the failed-run reason of markdown and text ESC
 * as '?', a tab or line break as a blank; the CSV and the JSON wrote
 * them raw, the reason ESC as a blank (a break-it trial) */
static void test_control_chars(void **state)
{
	char path[] = "/tmp/kbench-test-ctl-XXXXXX";
	/* each format (json with a layout: its tables,
	 * results_report_tables_json()) and what it shows */
	static const struct {
		const char *format, *eol;
		int layout;
		const char *has[2];
	} want[] = {
		{ "csv", "\r\n", 0, { "configuration,variant,N?M,job,",
		  "\r\n\"run?]0;x???ning,N?M=1\",run?]0;x???ning,1,"
		  "rand?[31mread??,read.iops," } },
		{ "json", "\n", 0, { "\"rand\\u001B[31mread\\u007F\\u009B\"",
		  "\"run\\u001B]0;x\\u0007\\r\\nning\"" } },
		{ "json", "\n", 1, { "rand\\u001B[31mread\\u007F\\u009B" } },
		{ "markdown", "\n", 0, { "\n## rand?\\[31mread??\n",
		  "iteration 2: fio exited with status 1: "
		  "?\\[31mfio: io\\_u error on file" } },
		{ "text", "\n", 0,
		  { "status 1: ?[31mfio: io_u error on file" } },
	};
	struct report_opts opts;
	char *text = NULL, *t[5], *out;
	json_t *res, *back;
	json_error_t jerr;
	size_t w, k;
	int fd, i, ret;

	(void)state;
	assert_int_equal(kb_read_file(REPORT_FIXTURE, &text, NULL, 0), 0);
	t[0] = replace_all(text, "randread-4k",
			   "rand\\u001b[31mread\\u007f\\u009b");
	t[1] = replace_all(t[0], "fio: io_u error",
			   "\\u001b[31mfio:\\tio_u\\nerror");
	t[2] = replace_all(t[1], "running",
			   "run\\u001b]0;x\\u0007\\r\\nning");
	t[3] = replace_all(t[2], "NM", "N\\tM");
	t[4] = NULL;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kb_write_atomic(path, t[3], strlen(t[3])), 0);
	res = results_load_export(path);
	assert_non_null(res);
	assert_int_equal(tree_analyse(res, NULL), 0);

	report_opts_init(&opts);
	opts.layout = "rounds";
	for (w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		out = render(res, want[w].format,
			     want[w].layout ? &opts : NULL, &ret);
		assert_int_equal(ret, 0);
		if (has_control(out, want[w].eol))
			fail_msg("%s: a control character", want[w].format);
		if (!strcmp(want[w].format, "text"))
			flatten(out);
		for (k = 0; k < 2 && want[w].has[k]; k++)
			if (!strstr(out, want[w].has[k]))
				fail_msg("%s: no '%s'", want[w].format,
					 want[w].has[k]);
		if (!strcmp(want[w].format, "json") && !want[w].layout) {
			back = json_loads(out, 0, &jerr);	/* data kept */
			assert_non_null(back);
			assert_true(json_equal(back, res));
			json_decref(back);
		}
		free(out);
	}

	json_decref(res);
	unlink(path);
	for (i = 0; t[i]; i++)
		free(t[i]);
	free(text);
}

/* a local variant without release =: the header names the kernel the
 * campaign ran on (environment.kernel_release), not the variant alone */
static void test_header_local_release(void **state)
{
	json_t *res = load_fixture(), *cfgs, *e;
	char *out;
	size_t i;

	(void)state;
	cfgs = json_object_get(res, "configurations");
	json_array_foreach(cfgs, i, e)
		json_object_del(e, "release");
	out = render_text(res, NULL);
	assert_line_has(out, "Kernels:", "running");
	assert_null(strstr(out, "6.1.0-13-amd64)"));
	free(out);
	json_object_set_new(json_object_get(json_object_get(res, "campaign"),
					    "environment"),
			    "kernel_release", json_string("6.1.0-99-amd64"));
	out = render_text(res, NULL);
	assert_line_has(out, "Kernels:", "running (6.1.0-99-amd64)");
	free(out);
	json_decref(res);
}

static void test_markdown_golden(void **state)
{
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	check_golden(out, "tests/data/report/golden.md");
	assert_non_null(strstr(out, "## randread-4k\n"));
	assert_non_null(strstr(out, "| running | 0 | 101241.33 | base |  | "
				    "640.05 | 0.25 | 3 |\n"));
	/* significant cells in bold; the change's CI beside it (issue 13:
	 * every change with its CI, of the ratio: above -100%) */
	assert_non_null(strstr(out, "| **102485.04** | **\\* +1.23%\\*** | "
				    "+0.7..+1.8 |"));
	assert_non_null(strstr(out, "| running | 2 | 2.86 | 10.91 | 30.05 | "
				    "45.83 | 2.97 | n/a | n/a |\n"));
	free(out);
	json_decref(res);
}

static void test_json(void **state)
{
	json_t *res = load_fixture(), *back;
	json_error_t jerr;
	char *out;
	int ret;

	(void)state;
	out = render(res, "json", NULL, &ret);
	assert_int_equal(ret, 0);
	back = json_loads(out, 0, &jerr);
	assert_non_null(back);
	assert_true(json_equal(back, res));
	assert_int_equal(json_array_size(json_object_get(back, "summaries")),
			 25);
	assert_non_null(strstr(out, "\n  \"campaign\": {"));	/* indent 2 */
	assert_true(out[strlen(out) - 1] == '\n');
	json_decref(back);
	free(out);
	json_decref(res);
}

static void test_options(void **state)
{
	const char *metrics[] = { "read.clat_p99_ns", "cpu.iowait_pct", NULL };
	const char *bad[] = { "read.iopz", NULL };
	struct report_opts opts;
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	report_opts_init(&opts);
	opts.show_cpu_table = 0;
	opts.metrics = metrics;
	out = render(res, "text", &opts, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	assert_null(strstr(out, "CPU and I/O"));
	assert_null(strstr(out, "I/Os per sec"));
	assert_non_null(strstr(out, "read clat p99 ns"));
	assert_non_null(strstr(out, "iowait%"));
	free(out);

	opts.metrics = bad;
	kb_quiet = 1;
	out = render(res, "text", &opts, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	/* csv is a format since issue 6 (reports/csv.c); html is not */
	out = render(res, "html", NULL, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
	json_decref(res);
}

/* n = 1: the CI prints n/a, never a zero-width interval. */
static void test_n1(void **state)
{
	json_t *res = load_fixture(), *runs, *run;
	char *out, *l;
	size_t i;
	int ret;

	(void)state;
	/* keep only iteration 1 of NM=2 */
	runs = json_object_get(res, "runs");
	for (i = json_array_size(runs); i-- > 0;) {
		run = json_array_get(runs, i);
		if (!strcmp(json_string_value(json_object_get(run,
				"configuration")), "running,NM=2") &&
		    json_integer_value(json_object_get(run, "iteration")) > 1)
			json_array_remove(runs, i);
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render(res, "text", NULL, &ret);
	assert_int_equal(ret, 0);
	l = line_starting(out, "running   2     102455.81");
	assert_non_null(l);
	/* n = 1: no CI (of the change either), no CV, no significance
	 * marker (case B29); no change either: the comparison has no
	 * estimate, and the means' ratio (+1.20%) is not what the legend
	 * says the column holds */
	assert_non_null(strstr(l, "102455.81       n/a         n/a      n/a   n/a  1"));
	assert_non_null(strstr(out, "running,NM=2 read.iops: insufficient "
			       "samples"));
	free(l);
	free(out);
	json_decref(res);
}

/* Long names and huge values still fit 80 columns. */
/* Configuration running,NM=I (I = 0, 1, 2) of the unanalysed fixture
 * res renamed id with tunables tun (taken), in its runs and as the
 * baseline too. */
static void rename_config(json_t *res, size_t i, const char *id, json_t *tun)
{
	json_t *o = json_array_get(json_object_get(res, "configurations"), i);
	char old[32];
	size_t k;

	snprintf(old, sizeof(old), "running,NM=%zu", i);
	json_object_set_new(o, "id", json_string(id));
	json_object_set_new(o, "tunables", tun);
	if (!i)
		json_object_set_new(json_object_get(res, "campaign"),
				    "baseline", json_string(id));
	json_array_foreach(json_object_get(res, "runs"), k, o)
		if (!strcmp(json_string_value(json_object_get(o,
				"configuration")), old))
			json_object_set_new(o, "configuration",
					    json_string(id));
}

/* A tunable value too long for the NM column beside the values (a CPU
 * list) is cut to fit 80 columns with ~N, named in full under the table,
 * one tag per value (the table was 92 columns wide). */
static void test_long_tunable_value(void **state)
{
	static const char *const vals[] = { "0-3,8-11,16-19,24-27,32-35",
					    "0-1,4-5,8-9,12-13,16-17,20-21",
					    "ff" };
	json_t *res = results_load_export(REPORT_FIXTURE);
	char id[64], *out;
	size_t i;

	(void)state;
	assert_non_null(res);
	for (i = 0; i < 3; i++) {
		snprintf(id, sizeof(id), "running,NM=%s", vals[i]);
		rename_config(res, i, id, json_pack("{s:s}", "NM", vals[i]));
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, NULL);	/* fits 80 columns */
	assert_non_null(strstr(out, "\n        0-3,8-11,16-19,~1     "
				    "101241.33"));
	assert_non_null(strstr(out, "\n                       ff     "
				    "102485.04"));
	assert_non_null(strstr(out, "\nvalues cut to fit 80 columns: ~1: "
		"0-3,8-11,16-19,24-27,32-35; ~2:\n    0-1,4-5,8-9,12-13,16-17,"
		"20-21\n"));
	free(out);
	json_decref(res);
}

/* Tunables too many for their columns to fit 80 columns beside the
 * values even cut (four labels of 10-20 characters: 106 columns): each
 * row's variant and LABEL=value pairs on a line of their own above its
 * numbers. */
static void test_many_tunables(void **state)
{
	static const char *const labels[] = { "NM", "SCHEDULER_LONG_LABEL",
					       "READ_AHEAD", "AFFINITY_MASK" };
	static const char *const vals[3][4] = {
		{ "0", "mq-deadline", "128", "0-3,8-11" },
		{ "1", "kyber", "4096", "0-1,4-5,8-9,12-13" },
		{ "2", "bfq", "16", "ff,ffffffff,00000000" } };
	json_t *res = results_load_export(REPORT_FIXTURE), *t, *tun;
	char id[160], *out;
	size_t i, k;

	(void)state;
	assert_non_null(res);
	tun = json_array();
	for (k = 0; k < 4; k++)
		json_array_append_new(tun, json_pack("{s:s, s:s}", "label",
			labels[k], "path", k ? "queue/x" : "queue/nomerges"));
	json_object_set_new(json_object_get(res, "campaign"), "tunables", tun);
	for (i = 0; i < 3; i++) {
		snprintf(id, sizeof(id), "running,NM=%s,SCHEDULER_LONG_LABEL="
			 "%s,READ_AHEAD=%s,AFFINITY_MASK=%s", vals[i][0],
			 vals[i][1], vals[i][2], vals[i][3]);
		t = json_object();
		for (k = 0; k < 4; k++)
			json_object_set_new(t, labels[k],
					    json_string(vals[i][k]));
		rename_config(res, i, id, t);
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, NULL);	/* fits 80 columns */
	assert_non_null(strstr(out, "\nrunning NM=1 SCHEDULER_LONG_LABEL=kyber "
		"READ_AHEAD=4096\n    AFFINITY_MASK=0-1,4-5,8-9,12-13\n      "));
	assert_non_null(strstr(out, "    101901.17   (+0.65%)  +0.1..+1.2  "
				    "1406.96  0.15  2\n"));
	free(out);
	json_decref(res);
}

/* Wild data (the IOPS of NM=2 spread over five orders of magnitude): the
 * change's CI cell stays narrow (">+9999"), every line within 80
 * columns, and its lower bound is no lower than -100% (a ratio's CI:
 * -99.99% prints -100.0). */
static void test_wild_change_ci(void **state)
{
	json_t *res = load_fixture(), *runs, *run;
	static const double wild[] = { 10, 1e5, 1 };
	char *out, *l;
	size_t i;
	int ret;

	(void)state;
	runs = json_object_get(res, "runs");
	for (i = 0; i < json_array_size(runs); i++) {
		json_int_t it;

		run = json_array_get(runs, i);
		it = json_integer_value(json_object_get(run, "iteration"));
		if (strcmp(json_string_value(json_object_get(run,
				"configuration")), "running,NM=2") || it < 1)
			continue;
		json_object_set_new(json_object_get(run, "metrics"),
				    "read.iops", json_real(wild[it - 1]));
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render(res, "text", NULL, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	l = line_starting(out, "running   2");
	assert_non_null(l);
	assert_non_null(strstr(l, "-100.0..>+9999"));
	free(l);
	free(out);
	json_decref(res);
}

static void test_wide(void **state)
{
	static const char *variants[] = {
		"2.6.25",
		"2.6.25-nomerges-with-a-very-long-localversion-string.x86_64",
		("v-with-an-absurdly-long-name-that-by-itself-is-longer-than-"
		 "eighty-columns-of-text-ok"),
	};
	const char *metrics[] = { "write.iops", "write.clat_p99_ns",
				  "write.bw_kib", NULL };
	struct report_opts opts;
	json_t *res, *cfgs, *runs, *m;
	char id[256], *out;
	size_t v, i;
	int ret;

	(void)state;
	res = json_pack("{s:i, s:{s:s, s:[{s:s}, {s:s}], s:[s]}}",
			"schema_version", 1, "campaign", "name", "wide",
			"tunables", "label", "NM", "label", "SCHEDULER",
			"jobs", "seqwrite-1m");
	cfgs = json_array();
	runs = json_array();
	for (v = 0; v < 3; v++) {
		snprintf(id, sizeof(id), "%s,NM=%zu,SCHEDULER=mq-deadline",
			 variants[v], v);
		json_array_append_new(cfgs, json_pack("{s:s, s:s, s:{s:s, s:s}}",
			"id", id, "variant", variants[v], "tunables",
			"NM", v ? "1" : "0", "SCHEDULER", "mq-deadline"));
		for (i = 1; i <= 3; i++) {
			m = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}",
				      "write.iops", 123456789012.345 + i,
				      "write.clat_p99_ns", 9.9e11 + i * 1e9,
				      "write.bw_kib", 5e12 + i,
				      "rusage.user_s", 1e7 + i,
				      "disk.ios", 1e13 + i,
				      "disk.merges", 5e12);
			json_array_append_new(runs, json_pack(
				"{s:s, s:s, s:i, s:b, s:s, s:n, s:o}",
				"configuration", id, "job", "seqwrite-1m",
				"iteration", (int)i, "warmup", 0, "status",
				"ok", "reason", "metrics", m));
		}
	}
	json_array_append_new(runs, json_pack(
		"{s:s, s:s, s:i, s:b, s:s, s:s, s:{}}", "configuration", id,
		"job", "seqwrite-1m", "iteration", 4, "warmup", 0, "status",
		"failed", "reason", "a reason\twith a tab and\na newline and a "
		"very long word: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"metrics"));
	json_object_set_new(res, "configurations", cfgs);
	json_object_set_new(res, "runs", runs);
	assert_int_equal(tree_fill_summaries(res), 0);

	report_opts_init(&opts);
	out = render(res, "text", &opts, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	free(out);
	opts.metrics = metrics;
	out = render(res, "text", &opts, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	/* every value is still there, with 2 decimals */
	assert_non_null(strstr(out, "123456789014.35"));
	assert_non_null(strstr(out, "5000000000002.00"));
	free(out);
	json_decref(res);
}

/* Two campaigns merged (kbench report A B, results_merge()): the
 * fixture as "old" and, 5% faster, as "new" on another kernel. */
static json_t *merged_fixture_set(const struct results_map *map,
				  int new_setup);

static json_t *merged_fixture(const struct results_map *map)
{
	return merged_fixture_set(map, 0);
}

/* new_setup: new ran 10-s runs, 5 iterations, with fio-3.35 */
static json_t *merged_fixture_set(const struct results_map *map,
				  int new_setup)
{
	const char *names[] = { "old", "new" };
	json_t *m[2], *run, *res, *iops;
	size_t i;

	m[0] = results_load_export(REPORT_FIXTURE);
	m[1] = results_load_export(REPORT_FIXTURE);
	assert_non_null(m[0]);
	assert_non_null(m[1]);
	json_object_set_new(json_object_get(m[0], "campaign"), "name",
			    json_string("old"));
	json_object_set_new(json_object_get(m[1], "campaign"), "name",
			    json_string("new"));
	json_object_set_new(json_object_get(json_object_get(m[1], "campaign"),
			    "environment"), "uname",
			    json_string("Linux bench1 6.6.0 x86_64"));
	if (new_setup == 2) {
		/* both interleaved: old's own comparisons are paired, new's
		 * against old's unpaired (two campaigns) */
		for (i = 0; i < 2; i++)
			json_object_set_new(json_object_get(m[i], "campaign"),
					    "order", json_string("interleave"));
	} else if (new_setup) {
		json_t *c1 = json_object_get(m[1], "campaign");

		json_object_set_new(c1, "runtime_s", json_integer(10));
		json_object_set_new(c1, "iterations", json_integer(5));
		json_object_set_new(json_object_get(c1, "environment"),
				    "fio_version", json_string("fio-3.35"));
	}
	json_array_foreach(json_object_get(m[1], "runs"), i, run) {
		iops = json_object_get(json_object_get(run, "metrics"),
				       "read.iops");
		if (iops)
			json_real_set(iops, json_number_value(iops) * 1.05);
	}
	res = results_merge(m, names, 2, map);
	assert_non_null(res);
	assert_int_equal(tree_analyse(res, NULL), 0);
	json_decref(m[0]);
	json_decref(m[1]);
	return res;
}

/* Merged: the title names both, every row its campaign, each
 * configuration of new is compared with the same-named one of old (all
 * +5.00%), markdown gives both environments; --map another pairing. */
static void test_merged(void **state)
{
	struct results_map map = { 0 };
	json_t *res = merged_fixture(NULL);
	char *out;
	int ret;

	(void)state;
	out = render_text(res, NULL);
	assert_non_null(strstr(out, "kbench report: old vs new\n"));
	assert_line_has(out, "old:running   0     101241.33", "base");
	assert_null(line_starting(out, "running "));	/* no bare name */
	/* NM=1 of new vs NM=1 of old, not vs old's baseline NM=0 */
	assert_line_has(out, "new:running   1", "+5.00%");
	assert_line_has(out, "new:running   2", "+5.00%");
	/* old's own NM=1 vs old's baseline */
	assert_line_has(out, "old:running   1", "+0.65%");
	free(out);
	{
		/* local variants without release =: the kernel of the
		 * campaigns' environments when they all ran on one (a merged
		 * report printed bare names), none when they differ */
		json_t *res2 = merged_fixture(NULL);
		json_t *envs = json_object_get(json_object_get(res2,
						"campaign"), "environments");
		json_t *e;
		const char *k;
		size_t i;

		json_array_foreach(json_object_get(res2, "configurations"),
				   i, e)
			json_object_del(e, "release");
		assert_int_equal(json_object_size(envs), 2);
		json_object_foreach(envs, k, e)
			json_object_set_new(e, "kernel_release",
					    json_string("6.1.0-42-amd64"));
		out = render_text(res2, NULL);
		assert_line_has(out, "Kernels:", "old:running (6.1.0-42-amd64), "
				"new:running (6.1.0-42-amd64)");
		free(out);
		json_object_foreach(envs, k, e)
			if (!strcmp(k, "new"))
				json_object_set_new(e, "kernel_release",
						    json_string("6.6.0"));
		out = render_text(res2, NULL);
		assert_line_has(out, "Kernels:", "old:running, new:running");
		assert_null(strstr(out, "6.1.0-42-amd64"));
		free(out);
		json_decref(res2);
	}

	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "# kbench report: old vs new\n"));
	assert_non_null(strstr(out, "## Environment\n\n### old\n"));
	assert_non_null(strstr(out, "\n### new\n\n- uname -a: Linux bench1 "
				    "6.6.0 x86\\_64\n"));
	assert_non_null(strstr(out, "| old:running | 0 | 101241.33 | base |"));
	free(out);
	/* the lkp layout pairs them the same way */
	out = render_text(res, "lkp");
	assert_non_null(strstr(out, "randread-4k: new:running,NM=1 vs "
			       "old:running,NM=1, lkp style"));
	assert_non_null(strstr(out, "randread-4k: old:running,NM=1 vs "
			       "old:running,NM=0, lkp style"));
	free(out);
	json_decref(res);

	/* --map: new's NM=2 against old's NM=0 */
	kb_quiet = 1;
	assert_int_equal(results_map_add(&map, "running"), -EINVAL);
	assert_int_equal(results_map_add(&map, "=running"), -EINVAL);
	assert_int_equal(results_map_add(&map, "running,NM=2=running,NM=0"),
			 0);
	res = merged_fixture(&map);
	out = render_text(res, NULL);
	assert_line_has(out, "new:running   2", "+6.29%");
	free(out);
	json_decref(res);
	results_map_free(&map);
}

/* A merged report whose table holds paired and unpaired comparisons:
 * each analysis names its configurations (a new-user trial read two
 * "analysis:" lines without knowing which rows each was for) */
static void test_merged_two_analyses(void **state)
{
	json_t *res = merged_fixture_set(NULL, 2);
	char *out = render_text(res, NULL), *p, *u;

	(void)state;
	flatten(out);
	p = strstr(out, "analysis of old:running,NM=1, old:running,NM=2: "
		   "paired by round");
	u = strstr(out, "analysis of new:running,NM=0, new:running,NM=1, "
		   "new:running,NM=2: unpaired");
	if (!p || !u)
		fail_msg("no analysis per configuration in:\n%s", out);
	assert_null(strstr(out, "analysis: "));
	free(out);
	json_decref(res);
}

/* Merged campaigns that ran with different settings: the header gives
 * each one's runtime, iterations and fio (it gave the first's alone);
 * settings they share stay one value. */
static void test_merged_settings(void **state)
{
	json_t *res = merged_fixture(NULL);
	char *out;
	int ret;

	(void)state;
	out = render_text(res, NULL);
	assert_non_null(strstr(out, "\nRuntime:     30 s per run\n"));
	assert_non_null(strstr(out, "\nfio:         fio-3.33\n"));
	assert_null(strstr(out, "(new)"));
	free(out);
	json_decref(res);

	res = merged_fixture_set(NULL, 1);
	assert_non_null(json_object_get(json_object_get(json_object_get(res,
			"campaign"), "merged_settings"), "iterations"));
	assert_null(json_object_get(json_object_get(json_object_get(res,
			"campaign"), "merged_settings"), "warmup"));
	out = render_text(res, NULL);
	assert_non_null(strstr(out, "\nRuntime:     30 s per run (old), 10 s "
				    "per run (new)\n"));
	assert_non_null(strstr(out, "\nIterations:  3 (old), 5 (new) timed + "
				    "1 warm-up"));
	assert_non_null(strstr(out, "\nfio:         fio-3.33 (old), fio-3.35 "
				    "(new)\n"));
	free(out);
	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "3 (old), 5 (new)"));
	free(out);
	json_decref(res);
}

/* report.md's reproducer: KBENCH_SIZE is the size the runs recorded,
 * else loop:SIZE's, else a command printing it; never a placeholder. */
static void test_reproducer_size(void **state)
{
	struct report_opts opts;
	json_t *res = load_fixture(), *camp = json_object_get(res, "campaign");
	char *out;
	int ret;

	(void)state;
	report_opts_init(&opts);
	opts.full_markdown = 1;
	out = render(res, "markdown", &opts, &ret);
	assert_int_equal(ret, 0);
	assert_null(strstr(out, "<bytes>"));
	assert_non_null(strstr(out, "KBENCH_TARGET=/dev/nvme0n1 KBENCH_SIZE="
			       "$(blockdev --getsize64 \"$KBENCH_TARGET\") "));
	free(out);
	json_object_set_new(camp, "target", json_string("loop:256M"));
	out = render(res, "markdown", &opts, &ret);
	assert_non_null(strstr(out, "KBENCH_SIZE=268435456 "));
	free(out);
	json_object_set_new(json_array_get(json_object_get(res, "runs"), 2),
			    "target_size_bytes", json_integer(1000204886016));
	out = render(res, "markdown", &opts, &ret);
	assert_non_null(strstr(out, "KBENCH_SIZE=1000204886016 "));
	free(out);
	json_decref(res);
}

/* report.md of a vm campaign: the TCG warning, each kernel as its
 * guest saw it with the QEMU command line as sh words (quoted where the
 * shell would interpret them), the job file, and per configuration its
 * kernel command line and tunable writes. */
static void test_markdown_vm_reproducer(void **state)
{
	struct report_opts opts;
	json_error_t err;
	json_t *res = load_fixture(), *camp = json_object_get(res, "campaign");
	char *out;
	int ret;

	(void)state;
	json_object_set_new(json_object_get(camp, "environment"), "vm",
		json_loads("{\"accel\": \"tcg\", \"qemu_version\": \"QEMU 7.2\","
			   " \"variants\": {\"running\": {\"release\": \"6.1\","
			   " \"guest_proc_version\": \"Linux version 6.1\","
			   " \"accel\": \"tcg\", \"accel_requested\": \"kvm\","
			   " \"accel_reason\": \"KVM hangs\", \"cpus\": 2,"
			   " \"memory_mib\": 1024, \"nullblk_params\": \"\","
			   " \"qemu_argv\": [\"qemu-system-x86_64\", \"-append\","
			   " \"console=ttyS0 quiet\", \"it's\", \"\","
			   " \"a`id`b\", \"x{y,z}\", \"#c\", \"-m\"]}}}",
			   0, &err));
	json_object_set_new(camp, "job_files", json_pack("{s:s}",
		"randread-4k", "[randread-4k]\nrw=randread"));
	json_object_set_new(res, "configurations", json_pack(
		"[{s:s, s:s, s:s, s:{s:s}}, {s:s, s:{s:s}}]",
		"id", "running,NM=0", "method", "vm", "cmdline", "quiet",
		"tunables", "NM", "0", "id", "running,NM=2", "tunables",
		"NM", "2"));
	report_opts_init(&opts);
	opts.full_markdown = 1;
	out = render(res, "markdown", &opts, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "## Environment\n\n> **Warning: emulated "
		"(TCG).** At least one variant booted in QEMU without KVM: "
		"timings are not representative.\n\n"));
	assert_non_null(strstr(out, "\n### Kernels under test (method = vm)\n"
		"\n#### running\n\n- uname -r (guest): 6.1\n"
		"- /proc/version (guest): Linux version 6.1\n"));
	assert_non_null(strstr(out, "- Accelerator: tcg (asked: kvm; KVM "
		"hangs)\n- Guest: 2 vCPUs, 1024 MiB\n- null\\_blk parameters: "
		"(defaults)\n- QEMU: QEMU 7.2\n"));
	assert_non_null(strstr(out, "\n```sh\nqemu-system-x86_64 -append "
		"'console=ttyS0 quiet' 'it'\\''s' '' 'a`id`b' 'x{y,z}' '#c' -m\n"
		"```\n"));
	/* the job file, its last line ended */
	assert_non_null(strstr(out, "KBENCH_RUNTIME=30 \\\n  fio "
		"--output-format=json+ --output=fio.json randread-4k.fio\n```\n"
		"\n```ini\n[randread-4k]\nrw=randread\n```\n"));
	assert_non_null(strstr(out, "\n`running,NM=0` (method vm, kernel as "
		"running)\n\n```sh\n# kernel command line: quiet\n"
		"sys=/sys/class/block/$(basename \"$(readlink -f /dev/nvme0n1)\"); "
		"[ ! -e \"$sys/partition\" ] || sys=$sys/..\n"
		"echo 0 > \"$sys\"/queue/nomerges\n```\n"));
	assert_non_null(strstr(out, "\n`running,NM=2` (method local, kernel "
		"as running)\n\n```sh\n# kernel command line (running): "));
	free(out);
	json_decref(res);
}

/* report.md's graphs are linked whatever the plot directory's name holds:
 * --plots 'run 2 (new)' gave ](run 2 (new)/...), no link at all. */
static void test_markdown_plot_link(void **state)
{
	char tmp[] = "/tmp/kbench-test-report-XXXXXX";
	struct report_opts opts;
	json_t *res = load_fixture();
	char *dir, *svg, *out;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	dir = kb_path_join(tmp, "run 2 (new)");
	assert_int_equal(mkdir(dir, 0700), 0);
	svg = kb_path_join(dir, "randread-4k-bar.svg");
	assert_int_equal(kb_write_atomic(svg, "<svg/>", 6), 0);
	report_opts_init(&opts);
	opts.plots_dir = dir;
	opts.plots_href = "run 2 (new)";
	out = render(res, "markdown", &opts, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "\n![randread-4k: mean per configuration, "
		"95% CI](run%202%20%28new%29/randread-4k-bar.svg)\n"));
	free(out);
	unlink(svg);
	rmdir(dir);
	rmdir(tmp);
	free(svg);
	free(dir);
	json_decref(res);
}

/* A markdown table cell shows a tunable value as it is: an entity's &
 * and GFM's strikethrough ~ escaped (&lt; showed as <, ~~x~~ struck
 * through). */
static void test_markdown_entity_tilde(void **state)
{
	json_t *res = load_fixture();
	char *out;
	int ret;

	(void)state;
	json_object_set_new(json_object_get(json_array_get(json_object_get(
		res, "configurations"), 1), "tunables"), "NM",
		json_string("&lt;~~x~~"));
	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "\n| running | \\&lt;\\~\\~x\\~\\~ | "
				    "101901.17 |"));
	free(out);
	json_decref(res);
}

/* report.md's reproducer pastes as it ran whatever the names hold: the
 * tunables are written under the sysfs directory of the device the
 * target names (/sys/block/$(basename $KBENCH_TARGET) was none for a
 * by-id link, a dm device or a partition), a
 * tunable value is one sh word (echo a|b piped into b, $(x) ran x), a
 * kernel command line one comment line, a configuration id with
 * backticks one code span, a job file with ``` one block. */
static void test_markdown_reproducer_quoting(void **state)
{
	struct report_opts opts;
	json_t *res = load_fixture(), *camp = json_object_get(res, "campaign");
	char *out;
	int ret;

	(void)state;
	json_object_set_new(camp, "job_files", json_pack("{s:s}",
		"randread-4k", "[randread-4k]\n; ```\nrw=randread"));
	/* a by-id link with a blank: the device it names, quoted */
	json_object_set_new(camp, "target",
			    json_string("/dev/disk/by-id/nvme-A (1)"));
	json_object_set_new(res, "configurations", json_pack(
		"[{s:s, s:s, s:s, s:{s:s}}, {s:s, s:s, s:{s:s}}]",
		"id", "running,NM=a|b", "release", "6.1<b>_x",
		"cmdline", "quiet\nreboot", "tunables", "NM", "a|b",
		"id", "running,NM=`id`$(x)'", "method", "local",
		"tunables", "NM", "`id`$(x)'"));
	report_opts_init(&opts);
	opts.full_markdown = 1;
	out = render(res, "markdown", &opts, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "\n`running,NM=a|b` (method local, "
		"kernel 6.1\\<b\\>\\_x)\n\n```sh\n# kernel command line: "
		"quiet?reboot\nsys=/sys/class/block/$(basename \"$(readlink -f "
		"'/dev/disk/by-id/nvme-A (1)')\"); [ ! -e \"$sys/partition\" ] "
		"|| sys=$sys/..\necho 'a|b' > \"$sys\"/queue/nomerges\n```\n"));
	assert_non_null(strstr(out, "\n``running,NM=`id`$(x)'`` (method "
		"local, kernel as running)\n\n```sh\n"));
	assert_non_null(strstr(out, "\necho '`id`$(x)'\\''' > \"$sys\"/"));
	assert_non_null(strstr(out, "\n````ini\n[randread-4k]\n; ```\n"
		"rw=randread\n````\n"));
	free(out);
	json_decref(res);
}

/* The fixture with profile and task metrics, as a campaign with
 * profile = and task groups has them (parsers/perf.h, parsers/procfs.h). */
static json_t *profile_fixture(void)
{
	static const char *const names[] = {
		"rusage.user_s", "rusage.sys_s", "rusage.elapsed_s",
		"rusage.cpu_pct", "rusage.maxrss_kib", "rusage.major_faults",
		"rusage.minor_faults", "task.total.cpu_pct", "task.fio.cpu_pct",
		"task.writeback.cpu_pct", "task.kworker.cpu_pct",
		"task.kswapd.cpu_pct", "task.other.cpu_pct",
		"profile.cycles.kernel_pct", "profile.cycles.io.total_pct",
		"profile.cycles.idle.total_pct", "profile.cycles.merge.total_pct",
		"profile.cycles.merge.io_pct",
	};
	json_t *res = results_load_export(REPORT_FIXTURE), *run;
	size_t i, k;

	assert_non_null(res);
	json_array_foreach(json_object_get(res, "runs"), i, run)
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			json_object_set_new(json_object_get(run, "metrics"),
				names[k], json_real(12345.5 + (double)(i + k)));
	assert_int_equal(tree_analyse(res, NULL), 0);
	return res;
}

/* The disturbed runs' note under a table gives each configuration's
 * share: 1 disturbed run of 202 was "(0%)", read as none; it is
 * "(0.50%)" (kb_cell_dec()), 1 of 3 still "(33%)". */
static void test_disturbed_share_not_zero(void **state)
{
	json_t *res = results_load_export(REPORT_FIXTURE), *runs, *run = NULL;
	json_t *c;
	size_t i, n;
	char *out;

	(void)state;
	assert_non_null(res);
	runs = json_object_get(res, "runs");
	n = json_array_size(runs);
	/* iteration 1 of each configuration stolen from (50% > 5%) */
	json_array_foreach(runs, i, run)
		json_object_set_new(json_object_get(run, "metrics"),
			"cpu.steal_pct", json_real(json_integer_value(
			json_object_get(run, "iteration")) == 1 ? 50 : 0));
	for (i = 0; i < n; i++) {
		run = json_array_get(runs, i);
		if (!strcmp(json_string_value(json_object_get(run,
				"configuration")), "running,NM=1") &&
		    json_integer_value(json_object_get(run, "iteration")) == 3)
			break;	/* ok and not disturbed (2 failed) */
	}
	assert_true(i < n);
	/* 200 more timed runs of NM=1, none disturbed: 1 of 202 */
	json_object_set_new(json_object_get(res, "campaign"), "iterations",
			    json_integer(203));
	for (i = 0; i < 200; i++) {
		c = json_deep_copy(run);
		json_object_set_new(c, "iteration", json_integer(4 + (json_int_t)i));
		json_array_append_new(runs, c);
	}
	assert_int_equal(tree_mark_disturbed(res, NULL, 0), 3);
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, NULL);
	if (!strstr(out, "running,NM=1 1 of 202 (0.50%)") ||
	    !strstr(out, "running,NM=0 1 of 3\n    (33%)"))
		fail_msg("no disturbed shares 1 of 202 (0.50%%) and 1 of 3 "
			 "(33%%):\n%s", out);
	free(out);
	json_decref(res);
}

/* The time/task table (13 columns) fits 100 columns as two tables in
 * markdown and text; the profile legend names its io and idle columns. */
static void test_time_task_tables(void **state)
{
	json_t *res = profile_fixture();
	char *out;
	const char *p;
	int ret;

	(void)state;
	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	for (p = out; *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")])
		if (*p == '|' && strcspn(p, "\n") > 100)
			fail_msg("table row over 100 columns: %.*s",
				 (int)strcspn(p, "\n"), p);
	assert_non_null(strstr(out, "**randread-4k: fio's time (as "
			       "/usr/bin/time), mean of the timed runs**"));
	assert_non_null(strstr(out, "**randread-4k: sustained CPU by task, % "
			       "of one CPU, mean of the timed runs**"));
	assert_non_null(strstr(out, "| Kernel | NM | total% | fio% |"));
	assert_non_null(strstr(out, "; io, idle: the share of all samples in "
			       "that group "));
	free(out);
	out = render_text(res, NULL);
	assert_non_null(strstr(out, "\nKernel   NM  total%"));
	free(out);
	json_decref(res);
}

/* fio.total_ios (the I/Os fio issued, seed 001's "number of IOs
 * issued") is the time table's last column, "fio I/Os", the mean of the
 * counted runs beside fio's CPU, under 80 columns with 7-digit faults;
 * runs without it (parsed before kbench read it) keep the table as it
 * was, no column of n/a. */
static void test_time_table_fio_ios(void **state)
{
	static const double ios[3] = { 3037240, 3057035, 3074551 };
	json_t *res = profile_fixture(), *run, *m;
	const char *cfg, *t;
	char *out, *row, *want;
	size_t i, k;
	int ret;

	(void)state;
	out = render_text(res, "time");
	assert_non_null(strstr(out, "fio's time (as /usr/bin/time)"));
	assert_null(strstr(out, "fio I/Os"));
	free(out);
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		cfg = json_string_value(json_object_get(run, "configuration"));
		m = json_object_get(run, "metrics");
		/* seed 001's shape: a 30 s run's time and faults */
		json_object_set_new(m, "rusage.user_s", json_real(2.91));
		json_object_set_new(m, "rusage.sys_s", json_real(11.17));
		json_object_set_new(m, "rusage.elapsed_s", json_real(30.05));
		json_object_set_new(m, "rusage.cpu_pct", json_real(46.88));
		json_object_set_new(m, "rusage.maxrss_kib", json_real(82560));
		json_object_set_new(m, "rusage.major_faults", json_real(403));
		json_object_set_new(m, "rusage.minor_faults",
				    json_real(2599763));
		/* NM=1's failed run (iteration 2) must not count */
		json_object_set_new(m, "fio.total_ios", json_integer(
			strcmp(json_string_value(json_object_get(run,
				"status")), "ok") ? 1 :
			(json_int_t)ios[cfg[strlen(cfg) - 1] - '0']));
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, "time");
	check_text_shape(out);
	t = strstr(out, "fio's time (as /usr/bin/time)");
	assert_non_null(t);
	assert_non_null(strstr(t, "  minor  fio I/Os\n"));
	for (k = 0; k < 3; k++) {
		want = kb_xasprintf("running   %zu", k);
		row = line_starting(t, want);
		free(want);
		assert_non_null(row);
		want = kb_xasprintf("  2599763   %.0f", ios[k]);
		if (!strstr(row, want) ||
		    strcmp(row + strlen(row) - strlen(want), want))
			fail_msg("row '%s' does not end in '%s'", row, want);
		free(want);
		free(row);
	}
	free(out);
	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "| minor | fio I/Os |"));
	assert_non_null(strstr(out, "| 2599763 | 3057035 |"));
	assert_non_null(strstr(out, "; fio I/Os: the reads, writes and trims "
			       "fio issued, a count (fio's total\\_ios; "));
	assert_null(strstr(out, "maxres KiB n/a"));
	free(out);
	/* a maxres not above kbench's own peak at the fork is n/a
	 * (parsers/run_dir.c): the table says why, not only "not
	 * measured" */
	json_array_foreach(json_object_get(res, "runs"), i, run)
		json_object_del(json_object_get(run, "metrics"),
				"rusage.maxrss_kib");
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, "time");
	assert_non_null(strstr(out, "\nmaxres KiB n/a: fio's ru_maxrss was not "
			       "above kbench's own peak"));
	free(out);
	json_decref(res);
}

/* Many task groups (kernels.conf task group lines) and symbol groups
 * (profiles/symbols.conf), and the large counts of a long run: the time,
 * task and profile tables are split into parts of at most 80 columns
 * (a helper's trial: the task table of 12 groups was 146 columns, the
 * time table of a 100 GiB, 10^10-fault run 95), every value still
 * there. */
static void test_time_task_tables_many_columns(void **state)
{
	static const char *const groups[] = {
		"jbd2", "xfsaild", "ksoftirqd", "rcu_sched", "kcompactd",
		"systemd_journald", "irqbalance", "fs_mark",
	};
	json_t *res = profile_fixture(), *run, *m;
	char name[64], *out;
	size_t i, k;
	int ret;

	(void)state;
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		m = json_object_get(run, "metrics");
		for (k = 0; k < sizeof(groups) / sizeof(groups[0]); k++) {
			snprintf(name, sizeof(name), "task.%s.cpu_pct",
				 groups[k]);
			json_object_set_new(m, name, json_real(12.0));
			snprintf(name, sizeof(name),
				 "profile.cycles.%s.total_pct", groups[k]);
			json_object_set_new(m, name, json_real(1.5));
		}
		json_object_set_new(m, "rusage.maxrss_kib",
				    json_real(104857600.0));
		json_object_set_new(m, "rusage.minor_faults",
				    json_real(12345678901.0));
		json_object_set_new(m, "rusage.sys_s", json_real(1234567.25));
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render(res, "text", NULL, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	assert_non_null(strstr(out, "systemd_journald%"));
	assert_non_null(strstr(out, "12345678901"));
	assert_non_null(strstr(out, "104857600"));
	free(out);
	json_decref(res);
}

/* A profile of top-level groups only (no group with parts: no Total,
 * I/O Code or ± column): its legend names those groups and no column
 * it lacks (it described "Total", "I/O Code" and "±": a new user's
 * trial); one with parts keeps the full legend. */
static void test_profile_legend_columns(void **state)
{
	static const char *const drop[] = {
		"profile.cycles.io.total_pct", "profile.cycles.merge.total_pct",
		"profile.cycles.merge.io_pct",
	};
	json_t *res = profile_fixture(), *run;
	char *out;
	const char *p, *end;
	size_t i, k;

	(void)state;
	out = render_text(res, NULL);
	p = strstr(out, "CPU profile (perf record -a)");
	assert_non_null(p);
	end = strstr(p, "\nrandread-4k: ");	/* the next table */
	assert_non_null(end);
	assert_non_null(strstr(p, "Total: the [merge] group's share of all"));
	assert_true(strstr(p, "+-: half-width of the 95%") < end);
	free(out);
	json_array_foreach(json_object_get(res, "runs"), i, run)
		for (k = 0; k < sizeof(drop) / sizeof(drop[0]); k++)
			json_object_del(json_object_get(run, "metrics"),
					drop[k]);
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, NULL);
	p = strstr(out, "CPU profile (perf record -a)");
	assert_non_null(p);
	end = strstr(p, "\nrandread-4k: ");
	assert_non_null(end);
	if (!strstr(p, "idle: the share of all CPU samples in that group") ||
	    (strstr(p, "+-") && strstr(p, "+-") < end) ||
	    (strstr(p, "I/O Code") && strstr(p, "I/O Code") < end))
		fail_msg("legend of a profile of top-level groups:\n%.*s",
			 (int)(end - p), p);
	free(out);
	json_decref(res);
}

/* The line of out after the first "\nafter" that starts with prefix,
 * its blank-separated cells joined by one blank (malloc'd), NULL when
 * none. */
static char *cells_after(const char *out, const char *after,
			 const char *prefix)
{
	const char *p = strstr(out, after);
	char *l, *w, *r;

	if (!p)
		return NULL;
	l = line_starting(p + 1, prefix);
	if (!l)
		return NULL;
	for (r = w = l; *r; r++)
		if (*r != ' ' || (w > l && w[-1] != ' '))
			*w++ = *r;
	if (w > l && w[-1] == ' ')
		w--;
	*w = '\0';
	return l;
}

/* A task's share of a CPU that is not 0 is never written "0" (the task
 * table's 0 decimals: kworker's 0.5% was "0", writeback's 0.004% "0",
 * read as "no CPU at all"): it keeps its first 2 digits ("0.50",
 * "0.0040"), as --prefix auto's cells do (kb_cell_dec()); 0 stays "0";
 * so in the time table (%CPU, faults) and the header's "other tasks
 * used 0.30% of a CPU". */
static void test_task_cpu_not_zero(void **state)
{
	static const struct {
		const char *metric;
		double v;
	} set[] = {
		{ "task.total.cpu_pct", 95.3 },
		{ "task.fio.cpu_pct", 90.1 },
		{ "task.writeback.cpu_pct", 0.004 },
		{ "task.kworker.cpu_pct", 0.5 },
		{ "task.kswapd.cpu_pct", 0 },
		{ "task.other.cpu_pct", 0.3 },
		{ "rusage.cpu_pct", 0.4 },
		{ "rusage.major_faults", 0 },
		{ "rusage.minor_faults", 0.25 },
	};
	json_t *res = profile_fixture(), *run;
	char *out, *l;
	size_t i, k;

	(void)state;
	json_array_foreach(json_object_get(res, "runs"), i, run)
		for (k = 0; k < sizeof(set) / sizeof(set[0]); k++)
			json_object_set_new(json_object_get(run, "metrics"),
					    set[k].metric, json_real(set[k].v));
	/* judged (kbench report does): the header's "Machine:" line */
	assert_int_equal(tree_mark_disturbed(res, NULL, 0), 0);
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, NULL);
	l = cells_after(out, "\nrandread-4k: sustained CPU by task",
			"running   0");
	assert_non_null(l);
	/* total, fio, writeback, kworker, kswapd, other */
	assert_string_equal(l, "running 0 95 90 0.0040 0.50 0 0.30");
	free(l);
	l = cells_after(out, "\nrandread-4k: fio's time", "running   0");
	assert_non_null(l);
	/* %CPU, maxres KiB, major, minor */
	if (!strstr(l, " 0.40 12"))
		fail_msg("%%CPU 0.4 not 0.40: '%s'", l);
	if (!strstr(l, " 0 0.25") || strcmp(l + strlen(l) - 7, " 0 0.25"))
		fail_msg("faults 0 and 0.25 not '0 0.25': '%s'", l);
	free(l);
	assert_line_has(out, "Machine:", "other tasks used 0.30% of a CPU");
	free(out);

	/* the rule, in what printf writes: 0.5 at 0 decimals is "0" (to
	 * even), 0.005 at 2 "0.01" (the double is above 0.005) */
	assert_int_equal(kb_cell_dec(0, 0.5), 2);
	assert_int_equal(kb_cell_dec(0, -0.3), 2);	/* not "-0" */
	assert_int_equal(kb_cell_dec(2, 0.0004), 5);	/* "0.00040" */
	assert_int_equal(kb_cell_dec(2, 0.005), 2);
	assert_int_equal(kb_cell_dec(0, 0.51), 0);	/* "1" */
	assert_int_equal(kb_cell_dec(0, 0), 0);
	assert_int_equal(kb_cell_dec(2, NAN), 2);
	assert_int_equal(kb_cell_dec(0, -INFINITY), 0);
	assert_int_equal(kb_cell_dec(0, 1e300), 0);

	/* a break-it trial: 1e-300 (a results.json's) wanted 301 decimals,
	 * a 303-column cell past every line's 80; now at most 12 */
	assert_int_equal(kb_cell_dec(0, 1e-300), KB_CELL_DEC_MAX);
	assert_int_equal(kb_cell_dec(2, -4.9e-324), KB_CELL_DEC_MAX);
	assert_int_equal(kb_cell_dec(0, 4e-10), 11);	/* 0.00000000040 */
	json_array_foreach(json_object_get(res, "runs"), i, run)
		json_object_set_new(json_object_get(run, "metrics"),
				    "task.writeback.cpu_pct",
				    json_real(1e-300));
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render_text(res, NULL);	/* every line in 80 columns */
	l = cells_after(out, "\nrandread-4k: sustained CPU by task",
			"running   0");
	assert_non_null(l);
	assert_string_equal(l, "running 0 95 90 0.000000000000 0.50 0 0.30");
	free(l);
	free(out);
	json_decref(res);
}

/* CSV of a campaign with hosts = and a tunable labelled host: the label's
 * column is tunable_host, as for any label that is a column's name (the
 * header held "host" twice, and a reader by name got the wrong one). */
static void test_csv_host_label(void **state)
{
	json_t *res = results_load_export("tests/data/report/hosts-results.json");
	json_t *cfg;
	char *out;
	size_t i;
	int ret;

	(void)state;
	assert_non_null(res);
	json_object_set_new(json_object_get(res, "campaign"), "tunables",
			    json_pack("[{s:s, s:s}]", "label", "host", "path",
				      "queue/nomerges"));
	json_array_foreach(json_object_get(res, "configurations"), i, cfg)
		json_object_set_new(cfg, "tunables", json_pack("{s:s}",
							       "host", "0"));
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render(res, "csv", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_memory_equal(out, "configuration,variant,tunable_host,job,host,"
			    "metric,unit,n,", 46);
	assert_non_null(strstr(out, "\r\na,a,0,randread-4k,127.0.0.2,"
				    "read.iops,IOPS,3,"));
	free(out);
	json_decref(res);
}

/* hosts = (fio --client): tests/data/report/hosts-results.json, a
 * recorded campaign with two load hosts (tests/data/report/README).  Under
 * each configuration's row (all hosts together) one row per load host,
 * "  @NAME", with that host's host.NAME.METRIC mean for each column; the
 * CSV gets a host column.  The means are computed here from the runs. */
static double host_mean(json_t *res, const char *cfg, const char *metric)
{
	json_t *run;
	double sum = 0;
	size_t i, n = 0;

	json_array_foreach(json_object_get(res, "runs"), i, run) {
		if (strcmp(json_string_value(json_object_get(run,
				"configuration")), cfg) ||
		    json_is_true(json_object_get(run, "warmup")))
			continue;
		sum += json_number_value(json_object_get(json_object_get(run,
					 "metrics"), metric));
		n++;
	}
	assert_true(n > 0);
	return sum / (double)n;
}

static void test_host_rows(void **state)
{
	static const char *const hosts[] = { "127.0.0.2", "127.0.0.3" };
	const char *metrics[] = { "read.iops", "read.clat_p99_ns", NULL };
	json_t *res = results_load_export("tests/data/report/hosts-results.json");
	struct report_opts opts;
	char *out, *l, *key, want[64];
	const char *p;
	size_t h;
	int ret;

	(void)state;
	assert_non_null(res);
	assert_int_equal(tree_analyse(res, NULL), 0);
	out = render(res, "text", NULL, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	/* a, its two hosts, then b and its two hosts, in that order */
	p = strstr(out, "\na  ");
	assert_non_null(p);
	p = strstr(p, "\n  @127.0.0.2  ");
	assert_non_null(p);
	p = strstr(p, "\n  @127.0.0.3  ");
	assert_non_null(p);
	p = strstr(p, "\nb  ");
	assert_non_null(p);
	assert_non_null(strstr(p, "\n  @127.0.0.3  "));
	for (h = 0; h < 2; h++) {
		key = kb_xasprintf("host.%s.read.iops", hosts[h]);
		snprintf(want, sizeof(want), "  @%s", hosts[h]);
		l = line_starting(strstr(out, "\nb  ") + 1, want);
		assert_non_null(l);
		snprintf(want, sizeof(want), " %.2f  ",
			 host_mean(res, "b", key));
		if (!strstr(l, want))
			fail_msg("%s: no mean%s", l, want);
		assert_non_null(strstr(l, "%)"));	/* vs the base's host */
		free(l);
		free(key);
	}
	assert_non_null(strstr(out, "@HOST: load host HOST alone"));
	free(out);

	/* the table's columns, each host's own percentiles */
	report_opts_init(&opts);
	opts.metrics = metrics;
	out = render(res, "text", &opts, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	snprintf(want, sizeof(want), " %.0f  ",
		 host_mean(res, "a", "host.127.0.0.3.read.clat_p99_ns"));
	/* the table is wrapped: the p99 columns are in its second part */
	for (p = strstr(out, "\n  @127.0.0.3"), ret = 0; p && !ret;
	     p = strstr(p + 1, "\n  @127.0.0.3")) {
		l = line_starting(p + 1, "  @127.0.0.3");
		ret = l && strstr(l, want);
		free(l);
	}
	if (!ret)
		fail_msg("no @127.0.0.3 row with the p99 mean%s:\n%s", want,
			 out);
	free(out);

	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "\n|   @127.0.0.2 | "));
	free(out);

	/* --prefix auto on a per-host metric asked for by name: its cells
	 * in MiB/s (2148 for 2199758 KiB/s), and its heading says so, not
	 * only "host.127.0.0.2.read.bw_kib" */
	report_opts_init(&opts);
	opts.metrics = (const char *[]){ "host.127.0.0.2.read.bw_kib", NULL };
	opts.prefix = KB_PREFIX_AUTO;
	out = render(res, "markdown", &opts, &ret);
	assert_int_equal(ret, 0);
	snprintf(want, sizeof(want), "\n| a | %.0f | base |",
		 host_mean(res, "a", "host.127.0.0.2.read.bw_kib") / 1024);
	if (!strstr(out, want))
		fail_msg("no row '%s' in:\n%s", want, out);
	assert_non_null(strstr(out, "| host.127.0.0.2.read.bw\\_kib (MiB/s) |"));
	free(out);

	/* a per-host metric asked for by name has its metric's decimals:
	 * a p99 in whole ns (210773, not 210773.33), as read.clat_p99_ns */
	report_opts_init(&opts);
	opts.metrics = (const char *[]){ "host.127.0.0.2.read.clat_p99_ns",
					 NULL };
	out = render(res, "markdown", &opts, &ret);
	assert_int_equal(ret, 0);
	snprintf(want, sizeof(want), "\n| a | %.0f | base |",
		 host_mean(res, "a", "host.127.0.0.2.read.clat_p99_ns"));
	if (!strstr(out, want))
		fail_msg("no row '%s' in:\n%s", want, out);
	free(out);

	out = render(res, "csv", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "configuration,variant,job,host,metric,"));
	assert_non_null(strstr(out, "\r\nb,b,randread-4k,,read.iops,IOPS,3,"));
	assert_non_null(strstr(out, "\r\nb,b,randread-4k,127.0.0.3,read.iops,"
			       "IOPS,3,"));
	assert_null(strstr(out, "host.127"));
	free(out);

	/* the load hosts' fio versions (campaign.json environment.
	 * load_hosts, runner/campaign.c); one differs: a warning */
	json_object_set_new(json_object_get(json_object_get(res, "campaign"),
		"environment"), "load_hosts", json_pack("[{s:s, s:s, s:s}, "
		"{s:s, s:s, s:s}]", "host", "127.0.0.2:8765", "hostname", "l2",
		"fio_version", "fio-3.33", "host", "127.0.0.3:8765", "hostname",
		"l3", "fio_version", "fio-3.35"));
	out = render(res, "text", NULL, &ret);
	assert_int_equal(ret, 0);
	check_text_shape(out);
	p = strstr(out, "\nfio:");
	assert_non_null(p);
	if (!strstr(p, "fio-3.33 here; load hosts: 127.0.0.2:8765 fio-3.33 "
		    "(l2),"))
		fail_msg("no load hosts' fio in:\n%s", out);
	l = line_starting(out, "Warning:");
	assert_non_null(l);
	assert_string_equal(l, "Warning:     fio versions differ: local "
			    "fio-3.33, 127.0.0.3:8765 fio-3.35");
	free(l);
	assert_non_null(strstr(out, "their kernels are not variants"));
	free(out);

	/* a [job NAME] hosts = (campaign.job_hosts, runner/campaign.c) */
	json_object_set_new(json_object_get(res, "campaign"), "job_hosts",
			    json_pack("{s:[s]}", "randread-4k",
				      "127.0.0.3:8765"));
	out = render(res, "markdown", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(out, "- Load hosts: 127.0.0.2:8765, "
			       "127.0.0.3:8765; randread-4k on 127.0.0.3:8765 "
			       "only (fio --client;"));
	free(out);
	json_decref(res);

	/* lib/metrics.h: NAME is the shortest prefix that leaves a metric */
	assert_int_equal(kb_metric_host_split("host.10.0.0.2.read.iops"), 14);
	assert_int_equal(kb_metric_host_split("host.::1.read.clat_p99_ns"), 9);
	assert_int_equal(kb_metric_host_split("host.a.nosuch"), 0);
	assert_int_equal(kb_metric_host_split("host..read.iops"), 0);
	assert_int_equal(kb_metric_host_split("read.iops"), 0);
	/* reports/table.h: a host's metric has its metric's decimals, the
	 * host named by an address (dots, colons) or a name */
	assert_int_equal(kb_metric_decimals("host.10.0.0.2.read.iops"),
			 kb_metric_decimals("read.iops"));
	assert_int_equal(kb_metric_decimals("host.10.0.0.2.read.clat_p99_ns"),
			 0);
	assert_int_equal(kb_metric_decimals("host.::1.read.clat_p99_ns"), 0);
	assert_int_equal(kb_metric_decimals("host.[fe80::1]:8765.write."
					    "clat_p999_ns"), 0);
	assert_int_equal(kb_metric_decimals("host.load1.read.bw_kib"),
			 kb_metric_decimals("read.bw_kib"));
	assert_int_equal(kb_metric_decimals("host.load1.disk.ios"), 0);
	assert_int_equal(kb_metric_decimals("host.load1.nosuch"), 2);
	assert_int_equal(kb_metric_decimals("host.read.clat_p99_ns"), 2);
}

static void test_load_export(void **state)
{
	char path[] = "/tmp/kbench-test-report-XXXXXX";
	const char *bad = "{\"schema_version\": 2, \"runs\": []}";
	int fd;

	(void)state;
	kb_quiet = 1;
	assert_null(results_load_export("tests/data/report/nonexistent.json"));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
	close(fd);
	assert_null(results_load_export(path));		/* version 2 */
	assert_int_equal(kb_write_atomic(path, "{\"runs\": []}", 12), 0);
	assert_null(results_load_export(path));		/* no version */
	assert_int_equal(kb_write_atomic(path, "[1]", 3), 0);
	assert_null(results_load_export(path));		/* not an object */
	unlink(path);
}

/* `kbench report --separate -f json` of two campaigns (an array of
 * results models) reads back with --from-json: the same reports, each
 * campaign named FILE[K] (the array was refused: "not a JSON object");
 * an empty array is refused, saying so. */
static void test_separate_json_round_trip(void **state)
{
	char path[] = "/tmp/kbench-test-report-XXXXXX";
	char *two[] = { "report", "--from-json", REPORT_FIXTURE,
			"--from-json", REPORT_FIXTURE, "--separate", NULL,
			NULL, NULL };
	char *back[] = { "report", "--from-json", path, "--separate", NULL,
			 NULL, NULL };
	char *json, *want, *got, *err;
	json_t **models;
	char **names;
	size_t n;
	int fd;

	(void)state;
	two[6] = "-f";
	two[7] = "json";
	assert_int_equal(run_kbench(two, &json, &err), 0);
	free(err);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kb_write_atomic(path, json, strlen(json)), 0);
	assert_int_equal(results_load_exports(path, &models, &names, &n), 0);
	assert_int_equal(n, 2);
	assert_memory_equal(names[1], path, strlen(path));
	assert_string_equal(names[1] + strlen(path), "[1]");
	results_exports_free(models, names, n);
	two[6] = back[4] = NULL;
	assert_int_equal(run_kbench(two, &want, &err), 0);
	free(err);
	assert_int_equal(run_kbench(back, &got, &err), 0);
	assert_string_equal(got, want);
	free(err);
	free(got);
	free(want);
	back[4] = "-f";
	back[5] = "json";
	assert_int_equal(run_kbench(back, &got, &err), 0);
	assert_string_equal(got, json);
	free(err);
	free(got);
	free(json);

	kb_quiet = 1;
	assert_int_equal(kb_write_atomic(path, "[]", 2), 0);
	assert_int_equal(results_load_exports(path, &models, &names, &n), -1);
	assert_null(models);
	unlink(path);
}

/* The fixture with runs[run].key set to v (a new reference, taken),
 * written to a temporary file: its path (malloc'd). */
static char *fixture_with(size_t run, const char *key, json_t *v)
{
	char path[] = "/tmp/kbench-test-report-XXXXXX";
	json_t *res = results_load_export(REPORT_FIXTURE);
	int fd;

	assert_non_null(res);
	json_object_set_new(json_array_get(json_object_get(res, "runs"), run),
			    key, v);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(results_export_write(path, res, KB_WRITE_NOSYNC), 0);
	json_decref(res);
	return kb_xstrdup(path);
}

/* `kbench report --from-json FILE` of path: the exit status, stdout and
 * stderr (malloc'd); path removed. */
static int report_from_json(char *path, char **out, char **err)
{
	char *args[] = { "report", "--from-json", path, NULL };
	int rc = run_kbench(args, out, err);

	unlink(path);
	free(path);
	return rc;
}

/* `kbench report --separate -f json --layout rounds` of two campaigns is
 * one JSON document, an array of their tables (it was two documents one
 * after the other: no JSON reader took it). */
static void test_separate_json_tables(void **state)
{
	char *args[] = { "report", "--from-json", REPORT_FIXTURE,
			 "--from-json", REPORT_FIXTURE, "--separate", "-f",
			 "json", "-l", "rounds", NULL };
	json_error_t jerr;
	json_t *doc;
	char *out, *err;

	(void)state;
	assert_int_equal(run_kbench(args, &out, &err), 0);
	doc = json_loads(out, 0, &jerr);
	assert_non_null(doc);
	assert_true(json_is_array(doc));
	assert_int_equal(json_array_size(doc), 2);
	assert_non_null(json_object_get(json_array_get(doc, 1), "jobs"));
	json_decref(doc);
	free(out);
	free(err);
}

/* `kbench report --separate -f csv` of two campaigns is refused, saying
 * what to give instead (it wrote two CSV documents one after the other:
 * the second header read as a data row, no row naming its campaign); one
 * campaign with --separate, and two merged, are one CSV document. */
static void test_separate_csv_refused(void **state)
{
	char *args[] = { "report", "--from-json", REPORT_FIXTURE,
			 "--from-json", REPORT_FIXTURE, "--separate", "-f",
			 "csv", NULL };
	char *out, *err;

	(void)state;
	assert_int_equal(run_kbench(args, &out, &err), 2);
	assert_non_null(strstr(err, "-f csv with --separate: a CSV file has "
				    "one header"));
	assert_string_equal(out, "");
	free(out);
	free(err);
	args[3] = "--separate";
	args[4] = "-f";
	args[5] = "csv";
	args[6] = NULL;
	assert_int_equal(run_kbench(args, &out, &err), 0);
	assert_true(!strncmp(out, "configuration,variant,", 22));
	assert_null(strstr(out + 1, "configuration,variant,"));
	free(out);
	free(err);
}

/* An export of `report --exclude-outliers -f json` read back without the
 * option still says its outliers are left out (the values stay in the
 * runs' "excluded_outliers": the means are those without them, but the
 * note "outliers excluded" was gone). */
static void test_excluded_outliers_read_back(void **state)
{
	static const double iops[] = { 101300.0, 101250.0, 80000.0 };
	char path[] = "/tmp/kbench-test-report-XXXXXX";
	char *args[] = { "report", "--from-json", path, "--exclude-outliers",
			 "-f", "json", NULL };
	json_t *res = results_load_export(REPORT_FIXTURE), *runs, *run;
	char *json, *out, *err;
	size_t i;
	int fd;

	(void)state;
	assert_non_null(res);
	runs = json_object_get(res, "runs");
	for (i = 0; i < 3; i++) {	/* NM=0's iteration 1, three more */
		run = json_deep_copy(json_array_get(runs, 1));
		json_object_set_new(run, "iteration", json_integer(4 + i));
		json_object_set_new(json_object_get(run, "metrics"),
				    "read.iops", json_real(iops[i]));
		json_array_append_new(runs, run);
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(results_export_write(path, res, KB_WRITE_NOSYNC), 0);
	json_decref(res);
	assert_int_equal(run_kbench(args, &json, &err), 0);
	free(err);
	assert_non_null(strstr(json, "\"excluded_outliers\""));
	assert_int_equal(kb_write_atomic(path, json, strlen(json)), 0);
	free(json);
	assert_int_equal(report_from_json(kb_xstrdup(path), &out, &err), 0);
	assert_non_null(strstr(out, "marked; outliers excluded "
				    "(--exclude-outliers)\n"));
	free(out);
	free(err);
}

/* A run whose "status" is none kbench writes ("OK"): said, naming the
 * file, the run and what is expected, and read as failed (a break-it
 * trial: the table only said "no successful runs", or n went down in
 * silence). */
static void test_export_bad_status(void **state)
{
	char *out, *err, *path = fixture_with(1, "status", json_string("OK"));
	char *want = kb_xasprintf("%s: runs[1].status \"OK\" (running,NM=0 "
		"randread-4k iteration 1) is not a status kbench writes; "
		"expected \"ok\" or \"failed\": the run is read as failed\n",
		path);

	(void)state;
	assert_int_equal(report_from_json(path, &out, &err), 0);
	if (!strstr(err, want))
		fail_msg("no warning '%s' in:\n%s", want, err);
	/* read as failed: listed so, NM=0 has n=2 */
	assert_non_null(strstr(out, "running,NM=0 randread-4k iteration 1: "
				    "no reason recorded"));
	free(want);
	free(out);
	free(err);

	/* not a string: said the same way, with the value as JSON */
	path = fixture_with(1, "status", json_integer(1));
	want = kb_xasprintf("%s: runs[1].status 1 (running,NM=0 randread-4k "
			    "iteration 1) is not a status", path);
	assert_int_equal(report_from_json(path, &out, &err), 0);
	if (!strstr(err, want))
		fail_msg("no warning '%s' in:\n%s", want, err);
	free(want);
	free(out);
	free(err);
}

/* A run whose "iteration" (its round) is above any a campaign has
 * (2^62): said, naming the file, the run, the key and the range, and
 * left out of the statistics (a break-it trial: it paired with no round
 * of the other configurations, "vs base" n/a in silence). */
static void test_export_bad_iteration(void **state)
{
	char *out, *err, *path = fixture_with(3, "iteration",
					      json_integer(1LL << 62));
	char *want = kb_xasprintf("%s: runs[3].iteration 4611686018427387904 "
		"(running,NM=0 randread-4k) is out of range; expected the "
		"run's round, a whole number from 0 to 2147483647: the run is "
		"left out of the statistics\n", path);

	(void)state;
	assert_int_equal(report_from_json(path, &out, &err), 0);
	if (!strstr(err, want))
		fail_msg("no warning '%s' in:\n%s", want, err);
	assert_non_null(strstr(out, "1 run(s) left out of the statistics:\n"
		"  running,NM=0 randread-4k iteration 4611686018427387904: "
		"damaged: \"iteration\""));
	free(want);
	free(out);
	free(err);

	/* the largest round index is no damage */
	path = fixture_with(3, "iteration", json_integer(2147483647));
	assert_int_equal(report_from_json(path, &out, &err), 0);
	assert_null(strstr(err, "out of range"));
	free(out);
	free(err);
}

/* results.json as a campaign writes it (results_export_write): the
 * serializer's bytes and a newline, the same bytes as `report --format
 * json` prints, read back equal to the model. */
static void test_export_write(void **state)
{
	char path[] = "/tmp/kbench-test-export-XXXXXX";
	json_t *res = load_fixture(), *back;
	char *want = results_export_dumps(res), *got = NULL, *shown;
	size_t len = 0;
	int fd, ret;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_non_null(want);
	assert_int_equal(results_export_write(path, res, KB_WRITE_NOSYNC), 0);
	assert_int_equal(kb_read_file(path, &got, &len, 0), 0);
	assert_int_equal(len, strlen(want) + 1);
	assert_memory_equal(got, want, strlen(want));
	assert_int_equal(got[len - 1], '\n');
	shown = render(res, "json", NULL, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(shown, got);
	back = results_load_export(path);
	assert_non_null(back);
	assert_true(json_equal(back, res));
	json_decref(back);
	free(shown);
	free(got);
	free(want);
	json_decref(res);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_golden),
		cmocka_unit_test(test_header_local_release),
		cmocka_unit_test(test_markdown_golden),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_n1),
		cmocka_unit_test(test_wide),
		cmocka_unit_test(test_long_tunable_value),
		cmocka_unit_test(test_many_tunables),
		cmocka_unit_test(test_wild_change_ci),
		cmocka_unit_test(test_host_rows),
		cmocka_unit_test(test_csv_host_label),
		cmocka_unit_test(test_load_export),
		cmocka_unit_test(test_separate_json_round_trip),
		cmocka_unit_test(test_separate_json_tables),
		cmocka_unit_test(test_separate_csv_refused),
		cmocka_unit_test(test_excluded_outliers_read_back),
		cmocka_unit_test(test_export_bad_status),
		cmocka_unit_test(test_export_bad_iteration),
		cmocka_unit_test(test_export_write),
		cmocka_unit_test(test_merged),
		cmocka_unit_test(test_merged_two_analyses),
		cmocka_unit_test(test_merged_settings),
		cmocka_unit_test(test_reproducer_size),
		cmocka_unit_test(test_markdown_vm_reproducer),
		cmocka_unit_test(test_markdown_reproducer_quoting),
		cmocka_unit_test(test_markdown_entity_tilde),
		cmocka_unit_test(test_markdown_plot_link),
		cmocka_unit_test(test_time_task_tables),
		cmocka_unit_test(test_time_table_fio_ios),
		cmocka_unit_test(test_time_task_tables_many_columns),
		cmocka_unit_test(test_task_cpu_not_zero),
		cmocka_unit_test(test_disturbed_share_not_zero),
		cmocka_unit_test(test_profile_legend_columns),
		cmocka_unit_test(test_control_chars),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
