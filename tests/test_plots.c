/* tests/test_plots.c - the gnuplot scripts and data files that
 * reports/plots.c writes (not the pixels): bars for a categorical tunable
 * and lines only for a numeric sweep, a y range that holds every CI
 * whisker, a label on exactly the configurations whose comparison the
 * table marks significant, and the latency CDF in engineering units with
 * readable log ticks and its key away from the x label.
 *
 * Input: tests/data/report/results.json (running x NM = 0 1 2, baseline
 * NM=0; after stats_analyse() NM=2's read.iops is an "improvement", NM=1's
 * is not significant), changed in memory where a case needs it.  The
 * scripts are written before gnuplot runs, so the checks hold with or
 * without gnuplot installed (plots_write() then returns -ENOENT).  Runs
 * from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "reports/plots.h"
#include "results/json.h"
#include "results/model.h"
#include "results/paths.h"
#include "stats/compare.h"
#include "stats/summary.h"

#define TEST_TMPDIR "/tmp/kbench-test-plots.XXXXXX"
#include "tests/tmpdir.h"
#include "tests/report_fixture.h"

#define JOB "randread-4k"

/* plots_write() into tmpdir/name: the graphs drawn, or -ENOENT when
 * gnuplot is missing (the scripts and data are written either way). */
static char *draw(json_t *res, const char *name, const char *campaign_dir,
		  int want_graphs)
{
	char *dir = kb_path_join(tmpdir, name);
	int ret = plots_write(res, dir, campaign_dir, NULL);

	if (ret != -ENOENT)
		assert_int_equal(ret, want_graphs);
	return dir;
}

static char *read_plot(const char *dir, const char *kind, const char *ext)
{
	char *name = plots_file_name(JOB, kind, ext);
	char *path = kb_path_join(dir, name), *buf = NULL;

	assert_int_equal(kb_read_file(path, &buf, NULL, 0), 0);
	free(path);
	free(name);
	return buf;
}

/* The top of "set yrange [0:TOP]" in a script. */
static double yrange_top(const char *gp)
{
	const char *s = strstr(gp, "set yrange [0:");
	double top;

	assert_non_null(s);
	assert_int_equal(sscanf(s, "set yrange [0:%lf]", &top), 1);
	return top;
}

/* Every data line of block `index` (gnuplot: blocks separated by two
 * blank lines; '#' comments), fn called with its text. */
static size_t for_block(const char *dat, size_t index,
			void (*fn)(const char *line, void *arg), void *arg)
{
	const char *p = dat, *nl;
	size_t block = 0, blanks = 0, n = 0;
	char *line;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl == p) {
			if (++blanks == 2)
				block++;
		} else {
			blanks = 0;
			if (*p != '#' && block == index) {
				line = strndup(p, (size_t)(nl - p));
				fn(line, arg);
				free(line);
				n++;
			}
		}
		if (!*nl)
			break;
	}
	return n;
}

/* "X MEAN LO HI" (scaling) or "\"ID\" MEAN LO HI" (bar): the highest
 * whisker so far in *arg. */
static void max_hi(const char *line, void *arg)
{
	double *top = arg, mean, lo, hi;
	const char *p = line;

	if (*p == '"')
		p = strchr(p + 1, '"') + 1;
	else
		strtod(p, (char **)&p);
	assert_int_equal(sscanf(p, "%lf %lf %lf", &mean, &lo, &hi), 3);
	assert_true(lo <= mean && mean <= hi);
	if (hi > *top)
		*top = hi;
}

static void count_line(const char *line, void *arg)
{
	(void)line;
	(*(size_t *)arg)++;
}

/* NM = 0 1 2 is a tunable, not a scale: clustered bars, one per value,
 * never a line; the y range holds the highest whisker of bar and
 * scaling graphs. */
static void test_categorical_bars_and_yrange(void **state)
{
	json_t *res = load_fixture();
	char *dir = draw(res, "cat", NULL, 3);
	char *gp = read_plot(dir, "scaling", "gp");
	char *dat = read_plot(dir, "scaling", "dat");
	double top = 0;
	size_t k;

	(void)state;
	assert_non_null(strstr(gp, "with boxes"));
	assert_null(strstr(gp, "linespoints"));
	assert_non_null(strstr(gp, "title \"NM=0\""));
	assert_non_null(strstr(gp, "title \"NM=2\""));
	assert_non_null(strstr(gp, "set xtics (\"running\" 0)"));
	assert_non_null(strstr(dat, "# NM=1:"));
	for (k = 0; k < 3; k++)	/* a block per value, a bar per cluster */
		assert_int_equal(for_block(dat, k, max_hi, &top), 1);
	assert_true(top > 100000);
	assert_true(yrange_top(gp) > top);
	free(gp);
	free(dat);
	gp = read_plot(dir, "bar", "gp");
	dat = read_plot(dir, "bar", "dat");
	top = 0;
	assert_int_equal(for_block(dat, 0, max_hi, &top), 3);
	assert_true(yrange_top(gp) > top);
	/* a script of its own: nothing left over from the graph before */
	assert_non_null(strstr(gp, "\nreset\n"));
	free(gp);
	free(dat);
	free(dir);
	json_decref(res);
}

/* The configurations labelled are those whose comparison's verdict is
 * significant (NM=2 +1.23%), read from results "comparisons"; with no
 * significant verdict nothing is labelled and the title says nothing. */
static void test_significance_labels(void **state)
{
	json_t *res = load_fixture(), *e;
	char *dir, *gp, *dat;
	size_t i, n = 0;

	(void)state;
	dir = draw(res, "sig", NULL, 3);
	gp = read_plot(dir, "bar", "gp");
	dat = read_plot(dir, "bar", "dat");
	assert_non_null(strstr(gp, "with labels"));
	assert_non_null(strstr(gp, "significant change vs the baseline"));
	/* block 1: the labels; one, on NM=2's bar (x = 2) */
	assert_int_equal(for_block(dat, 1, count_line, &n), 1);
	assert_non_null(strstr(dat, "\n2 102745.12518385969 \"+1.23%*\"\n"));
	free(gp);
	free(dat);
	gp = read_plot(dir, "scaling", "gp");
	dat = read_plot(dir, "scaling", "dat");
	assert_non_null(strstr(gp, "with labels"));
	assert_non_null(strstr(dat, "\"+1.23%*\""));
	assert_null(strstr(dat, "\"+0.65%*\""));	/* NM=1: not */
	free(gp);
	free(dat);
	free(dir);

	json_array_foreach(json_object_get(res, "comparisons"), i, e)
		json_object_set_new(e, "verdict",
				    json_string("no significant difference"));
	dir = draw(res, "nosig", NULL, 3);
	gp = read_plot(dir, "bar", "gp");
	dat = read_plot(dir, "bar", "dat");
	assert_null(strstr(gp, "with labels"));
	assert_null(strstr(gp, "significant change"));
	assert_null(strstr(dat, "significant changes"));
	free(gp);
	free(dat);
	free(dir);
	json_decref(res);
}

/* A swept job parameter with numeric values (kernels.conf "sweep"):
 * lines over the values themselves, CI whiskers, no bars. */
static void test_numeric_sweep_lines(void **state)
{
	json_t *res = load_fixture(), *t;
	char *dir, *gp, *dat;
	double top = 0;

	(void)state;
	t = json_array_get(json_object_get(json_object_get(res, "campaign"),
					   "tunables"), 0);
	json_object_set_new(t, "sweep", json_true());
	dir = draw(res, "sweep", NULL, 3);
	gp = read_plot(dir, "scaling", "gp");
	dat = read_plot(dir, "scaling", "dat");
	assert_non_null(strstr(gp, "with linespoints"));
	assert_non_null(strstr(gp, "with yerrorbars"));
	assert_null(strstr(gp, "with boxes"));
	assert_non_null(strstr(gp, "set xtics (\"0\" 0, \"1\" 1, \"2\" 2)"));
	assert_non_null(strstr(gp, "set xlabel \"NM\""));
	/* one line, "running", over x = 0 1 2 */
	assert_int_equal(for_block(dat, 0, max_hi, &top), 3);
	assert_non_null(strstr(dat, "\n1 101901.17 "));
	assert_true(yrange_top(gp) > top);
	free(gp);
	free(dat);
	free(dir);
	json_decref(res);
}

/* fio.json with json+ read bins from lo_ns to hi_ns for every counted
 * run of the fixture, under cdir/runs/. */
static void write_fio_json(json_t *res, const char *cdir, double lo_ns,
			   double hi_ns)
{
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(res, "runs"), i, run) {
		char *key, *path, *d, *doc;

		if (!kb_run_counts(run))
			continue;
		key = kb_run_key(kb_jstr(run, "configuration"), JOB,
				 (long long)json_integer_value(
				 json_object_get(run, "iteration")));
		path = kb_run_file(cdir, key, "fio.json");
		d = strndup(path, (size_t)(strrchr(path, '/') - path));
		assert_int_equal(kb_mkdir_p(d), 0);
		doc = kb_xasprintf("{\"jobs\": [{\"read\": {\"clat_ns\": "
				   "{\"bins\": {\"%.0f\": 10, \"%.0f\": 80, "
				   "\"%.0f\": 10}}}}]}", lo_ns,
				   sqrt(lo_ns * hi_ns), hi_ns);
		assert_int_equal(kb_write_atomic(path, doc, strlen(doc)), 0);
		free(doc);
		free(d);
		free(path);
		free(key);
	}
}

/* The first data line of the CDF: "LATENCY FRACTION". */
static double first_latency(const char *dat)
{
	const char *p = dat;
	double x;

	while (*p == '#')
		p = strchr(p, '\n') + 1;
	assert_int_equal(sscanf(p, "%lf", &x), 1);
	return x;
}

/* Latency in the unit of the middle of the range (50 us .. 5 ms: us;
 * 1 ms .. 100 ms: ms), the values scaled to it, "%g" log ticks (no
 * "1x10^6") and the key inside, off the x label. */
static void test_cdf_units(void **state)
{
	json_t *res = load_fixture();
	char *cdir = kb_path_join(tmpdir, "campaign"), *dir, *gp, *dat;

	(void)state;
	write_fio_json(res, cdir, 50000, 5000000);
	dir = draw(res, "cdf-us", cdir, 4);
	gp = read_plot(dir, "cdf", "gp");
	dat = read_plot(dir, "cdf", "dat");
	assert_non_null(strstr(gp, "set xlabel \"completion latency (us, "
				   "log scale)\""));
	assert_non_null(strstr(gp, "set logscale x 10\n"));
	assert_non_null(strstr(gp, "set format x \"%g\"\n"));
	assert_non_null(strstr(gp, "set key inside right bottom"));
	assert_non_null(strstr(dat, "latency_us"));
	assert_true(fabs(first_latency(dat) - 50) < 1e-9);
	free(gp);
	free(dat);
	free(dir);

	write_fio_json(res, cdir, 1e6, 1e8);
	dir = draw(res, "cdf-ms", cdir, 4);
	gp = read_plot(dir, "cdf", "gp");
	dat = read_plot(dir, "cdf", "dat");
	assert_non_null(strstr(gp, "(ms, log scale)"));
	assert_true(fabs(first_latency(dat) - 1) < 1e-9);
	free(gp);
	free(dat);
	free(dir);
	free(cdir);
	json_decref(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_categorical_bars_and_yrange),
		cmocka_unit_test(test_significance_labels),
		cmocka_unit_test(test_numeric_sweep_lines),
		cmocka_unit_test(test_cdf_units),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup,
				      tmpdir_teardown);
}
