/* tests/test_plots.c - the gnuplot scripts and data files that
 * reports/plots.c writes (not the pixels): bars for a categorical tunable
 * and lines only for a numeric sweep, a y range that holds every CI
 * whisker, a label on exactly the configurations whose comparison the
 * table marks significant, and the latency CDF in engineering units with
 * readable log ticks and its key away from the x label.
 *
 * Input: tests/data/report/results.json (running x NM = 0 1 2, baseline
 * NM=0; after tree_analyse() NM=2's read.iops is an "improvement", NM=1's
 * is not significant), changed in memory where a case needs it.  The
 * scripts are written before gnuplot runs, so the checks hold with or
 * without gnuplot installed (plots_write() then returns -ENOENT).  The
 * golden files tests/data/plots/NAME.txt hold every script and data file of
 * three campaigns byte for byte (written by the code before the typed
 * model reached reports/plots.c, issue 12); KBENCH_UPDATE_GOLDEN=1
 * rewrites them.  Runs from the repository root.
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
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "reports/plots.h"
#include "results/json.h"
#include "results/model.h"
#include "results/paths.h"
#include "results/rmodel.h"
#include "stats/compare.h"
#include "stats/summary.h"

#define TEST_TMPDIR "/tmp/kbench-test-plots.XXXXXX"
#include "tests/tmpdir.h"
#include "tests/report_fixture.h"

#define JOB "randread-4k"

/* plots_write() of res's typed model (built now, so that it sees what a
 * test changed in res) into tmpdir/name: the graphs drawn, or -ENOENT
 * when gnuplot is missing (the scripts and data are written either
 * way). */
static char *draw_as(json_t *res, const char *name, const char *campaign_dir,
		     int want_graphs, int png)
{
	char *dir = kb_path_join(tmpdir, name);
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret;

	assert_non_null(m);
	ret = plots_write(m, dir, campaign_dir, NULL, png, NULL);
	kb_rmodel__delete(m);

	if (ret != -ENOENT)
		assert_int_equal(ret, want_graphs);
	return dir;
}

static char *draw(json_t *res, const char *name, const char *campaign_dir,
		  int want_graphs)
{
	return draw_as(res, name, campaign_dir, want_graphs, 0);
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

/* A graph's directory and the script and data of one of its kinds. */
struct graph {
	char *dir, *gp, *dat;
};

static void graph_free(struct graph *g)
{
	free(g->dir);
	free(g->gp);
	free(g->dat);
	memset(g, 0, sizeof(*g));
}

/* Draw res's graphs into tmpdir/name (the previous ones of g let go). */
static void graph_draw(struct graph *g, json_t *res, const char *name,
		       const char *campaign_dir, int want_graphs)
{
	graph_free(g);
	g->dir = draw(res, name, campaign_dir, want_graphs);
}

/* Read the script and data of kind ("bar", "scaling", "cdf"). */
static void graph_read(struct graph *g, const char *kind)
{
	free(g->gp);
	free(g->dat);
	g->gp = read_plot(g->dir, kind, "gp");
	g->dat = read_plot(g->dir, kind, "dat");
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
/* A graph's name that is a link (a vm guest can leave one in the
 * campaign directory, owned by root) or a hard link: gnuplot, as root,
 * wrote the SVG through it over the file it names. */
static void test_graph_name_not_followed(void **state)
{
	json_t *res = load_fixture();
	char *dir = kb_path_join(tmpdir, "linked"), *svg, *name, *victim;
	char *text = NULL;
	struct stat st;

	(void)state;
	assert_int_equal(kb_mkdir_p(dir), 0);
	victim = kb_path_join(tmpdir, "victim");
	assert_int_equal(kb_write_atomic(victim, "keep\n", 5), 0);
	name = plots_file_name(JOB, "bar", "svg");
	svg = kb_path_join(dir, name);
	assert_int_equal(symlink(victim, svg), 0);
	free(draw(res, "linked", NULL, 3));
	if (lstat(svg, &st) == 0 && S_ISREG(st.st_mode)) {	/* drawn */
		assert_int_equal(kb_read_file(victim, &text, NULL, 0), 0);
		assert_string_equal(text, "keep\n");
		free(text);
	}
	/* a hard link: the same */
	unlink(svg);
	assert_int_equal(link(victim, svg), 0);
	free(draw(res, "linked", NULL, 3));
	assert_int_equal(kb_read_file(victim, &text, NULL, 0), 0);
	assert_string_equal(text, "keep\n");
	free(text);
	free(name);
	free(svg);
	free(victim);
	free(dir);
	json_decref(res);
}

static void test_categorical_bars_and_yrange(void **state)
{
	json_t *res = load_fixture();
	struct graph g = { 0 };
	double top = 0;
	size_t k;

	(void)state;
	graph_draw(&g, res, "cat", NULL, 3);
	graph_read(&g, "scaling");
	assert_non_null(strstr(g.gp, "with boxes"));
	assert_null(strstr(g.gp, "linespoints"));
	assert_non_null(strstr(g.gp, "title \"NM=0\""));
	assert_non_null(strstr(g.gp, "title \"NM=2\""));
	assert_non_null(strstr(g.gp, "set xtics (\"running\" 0)"));
	assert_non_null(strstr(g.dat, "# NM=1:"));
	for (k = 0; k < 3; k++)	/* a block per value, a bar per cluster */
		assert_int_equal(for_block(g.dat, k, max_hi, &top), 1);
	assert_true(top > 100000);
	assert_true(yrange_top(g.gp) > top);
	graph_read(&g, "bar");
	top = 0;
	assert_int_equal(for_block(g.dat, 0, max_hi, &top), 3);
	assert_true(yrange_top(g.gp) > top);
	/* a script of its own: nothing left over from the graph before */
	assert_non_null(strstr(g.gp, "\nreset\n"));
	graph_free(&g);
	json_decref(res);
}

/* The configurations labelled are those whose comparison's verdict is
 * significant (NM=2 +1.23%), read from results "comparisons"; with no
 * significant verdict nothing is labelled and the title says nothing. */
static void test_significance_labels(void **state)
{
	json_t *res = load_fixture(), *e;
	struct graph g = { 0 };
	size_t i, n = 0;

	(void)state;
	graph_draw(&g, res, "sig", NULL, 3);
	graph_read(&g, "bar");
	assert_non_null(strstr(g.gp, "with labels"));
	assert_non_null(strstr(g.gp, "significant change vs the baseline"));
	/* block 1: the labels; one, on NM=2's bar (x = 2) */
	assert_int_equal(for_block(g.dat, 1, count_line, &n), 1);
	assert_non_null(strstr(g.dat,
				 "\n2 102745.12518385969 \"+1.23%*\"\n"));
	graph_read(&g, "scaling");
	assert_non_null(strstr(g.gp, "with labels"));
	assert_non_null(strstr(g.dat, "\"+1.23%*\""));
	assert_null(strstr(g.dat, "\"+0.65%*\""));	/* NM=1: not */
	json_array_foreach(json_object_get(res, "comparisons"), i, e)
		json_object_set_new(e, "verdict",
				    json_string("no significant difference"));
	graph_draw(&g, res, "nosig", NULL, 3);
	graph_read(&g, "bar");
	assert_null(strstr(g.gp, "with labels"));
	assert_null(strstr(g.gp, "significant change"));
	assert_null(strstr(g.dat, "significant changes"));
	graph_free(&g);
	json_decref(res);
}

/* A swept job parameter with numeric values (kernels.conf "sweep"):
 * lines over the values themselves, CI whiskers, no bars. */
static void test_numeric_sweep_lines(void **state)
{
	json_t *res = load_fixture(), *t;
	struct graph g = { 0 };
	double top = 0;

	(void)state;
	t = json_array_get(json_object_get(json_object_get(res, "campaign"),
					   "tunables"), 0);
	json_object_set_new(t, "sweep", json_true());
	graph_draw(&g, res, "sweep", NULL, 3);
	graph_read(&g, "scaling");
	assert_non_null(strstr(g.gp, "with linespoints"));
	assert_non_null(strstr(g.gp, "with yerrorbars"));
	assert_null(strstr(g.gp, "with boxes"));
	assert_non_null(strstr(g.gp,
				 "set xtics (\"0\" 0, \"1\" 1, \"2\" 2)"));
	assert_non_null(strstr(g.gp, "set xlabel \"NM\""));
	/* one line, "running", over x = 0 1 2 */
	assert_int_equal(for_block(g.dat, 0, max_hi, &top), 3);
	assert_non_null(strstr(g.dat, "\n1 101901.17 "));
	assert_true(yrange_top(g.gp) > top);
	graph_free(&g);
	json_decref(res);
}

/* The fixture with NM swept (a job parameter, kernels.conf "sweep") and a
 * second variant "new" whose every run reads 5% more IOPS: each new,NM=V
 * is compared with running,NM=V (stats_baseline_for) and is a
 * significant improvement. */
static json_t *two_variant_sweep(void)
{
	json_t *res = results_load_export(REPORT_FIXTURE), *cfgs, *runs;
	json_t *e, *c, *m;
	size_t i, n;

	assert_non_null(res);
	json_object_set_new(json_array_get(json_object_get(json_object_get(
		res, "campaign"), "tunables"), 0), "sweep", json_true());
	cfgs = json_object_get(res, "configurations");
	for (i = 0, n = json_array_size(cfgs); i < n; i++) {
		c = json_deep_copy(json_array_get(cfgs, i));
		json_object_set_new(c, "variant", json_string("new"));
		json_object_set_new(c, "id", json_sprintf("new,NM=%s",
			kb_jstr(json_object_get(c, "tunables"), "NM")));
		json_array_append_new(cfgs, c);
	}
	runs = json_object_get(res, "runs");
	for (i = 0, n = json_array_size(runs); i < n; i++) {
		e = json_deep_copy(json_array_get(runs, i));
		json_object_set_new(e, "configuration", json_sprintf("new,%s",
			strchr(kb_jstr(e, "configuration"), ',') + 1));
		m = json_object_get(json_object_get(e, "metrics"),
				    "read.iops");
		if (json_is_number(m))
			json_real_set(m, json_number_value(m) * 1.05);
		json_array_append_new(runs, e);
	}
	assert_int_equal(tree_analyse(res, NULL), 0);
	return res;
}

/* Lines for "running" and "new" over NM = 0 1 2; a label on each of
 * new's points (about +5%), none on the baselines. */
static void test_sweep_significance_on_lines(void **state)
{
	json_t *res = two_variant_sweep();
	struct graph g = { 0 };
	size_t n = 0;

	(void)state;
	graph_draw(&g, res, "sweep2", NULL, 3);
	graph_read(&g, "scaling");
	assert_non_null(strstr(g.gp, "title \"running\""));
	assert_non_null(strstr(g.gp, "title \"new\""));
	assert_non_null(strstr(g.gp, "with labels"));
	assert_non_null(strstr(g.gp, "significant change vs the baseline"));
	/* blocks 0, 1: the lines; block 2: the labels, one per NM value */
	assert_int_equal(for_block(g.dat, 2, count_line, &n), 3);
	assert_int_equal(n, 3);
	assert_non_null(strstr(g.dat, "\"+5.00%*\""));
	graph_free(&g);
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
	char *cdir = kb_path_join(tmpdir, "campaign");
	struct graph g = { 0 };

	(void)state;
	write_fio_json(res, cdir, 50000, 5000000);
	graph_draw(&g, res, "cdf-us", cdir, 4);
	graph_read(&g, "cdf");
	assert_non_null(strstr(g.gp, "set xlabel \"completion latency (us, "
				   "log scale)\""));
	assert_non_null(strstr(g.gp, "set logscale x 10\n"));
	assert_non_null(strstr(g.gp, "set format x \"%g\"\n"));
	assert_non_null(strstr(g.gp, "set key inside right bottom"));
	assert_non_null(strstr(g.dat, "latency_us"));
	assert_true(fabs(first_latency(g.dat) - 50) < 1e-9);
	write_fio_json(res, cdir, 1e6, 1e8);
	graph_draw(&g, res, "cdf-ms", cdir, 4);
	graph_read(&g, "cdf");
	assert_non_null(strstr(g.gp, "(ms, log scale)"));
	assert_true(fabs(first_latency(g.dat) - 1) < 1e-9);
	free(cdir);
	graph_free(&g);
	json_decref(res);
}

/* a and b merged into one model as `kbench report A B` does
 * (results_merge(), names: the directories or files given), analysed. */
static json_t *merge_two(json_t *a, json_t *b, const char *const names[2])
{
	json_t *models[2] = { a, b }, *m;

	m = results_merge(models, names, 2, NULL);
	assert_non_null(m);
	assert_int_equal(tree_analyse(m, NULL), 0);
	return m;
}

/* kbench report A B --plots: the two campaigns merged into one model
 * (no single campaign directory) still get their latency CDF, one curve
 * per configuration of each, read from the directory given for each
 * (campaign.merged_from); an export alone (no directories) gets none. */
static void test_cdf_merged_campaigns(void **state)
{
	json_t *a = load_fixture(), *b = load_fixture(), *m;
	char *da = kb_path_join(tmpdir, "old"), *db = kb_path_join(tmpdir,
								   "new");
	const char *names[2] = { da, db };
	struct graph g = { 0 };
	size_t nblocks = 0;
	const char *p;

	(void)state;
	write_fio_json(a, da, 50000, 5000000);
	write_fio_json(b, db, 100000, 10000000);
	m = merge_two(a, b, names);
	graph_draw(&g, m, "cdf-merged", NULL, 4);
	graph_read(&g, "cdf");
	for (p = g.dat; (p = strstr(p, "latency_us cumulative")); p++)
		nblocks++;
	assert_int_equal(nblocks, 6);	/* 3 configurations x 2 */
	assert_non_null(strstr(g.dat, ":running,NM=2: latency_us"));
	assert_non_null(strstr(g.gp, "datafile index 5 "));
	/* the first campaign's curves start at 50 us, the second's 100 */
	assert_true(fabs(first_latency(g.dat) - 50) < 1e-9);
	assert_non_null(strstr(g.dat, "\n100 0.1"));
	json_decref(m);

	/* the same models without their directories: no CDF */
	names[0] = "x.json";
	names[1] = "y.json";
	m = merge_two(a, b, names);
	graph_draw(&g, m, "cdf-none", NULL, 3);
	json_decref(m);
	graph_free(&g);
	json_decref(a);
	json_decref(b);
	free(da);
	free(db);
}

/* The every-iteration plot numbers the counted rounds 1..N whatever
 * warmup is (results/paths.h kb_iteration_label()): the fixture stored
 * as a campaign with warmup = 2 would store it (every round index one
 * higher) still starts at x = 1. */
static void test_iterations_counted_from_1(void **state)
{
	json_t *res = load_fixture_with_warmup(2);
	struct graph g = { 0 };

	(void)state;
	graph_draw(&g, res, "iter", NULL, 3);
	graph_read(&g, "iterations");
	assert_non_null(strstr(g.dat, "# running,NM=0\n1 101234.56"));
	assert_non_null(strstr(g.dat, "\n3 101502.3"));
	assert_null(strstr(g.dat, "\n4 "));
	graph_free(&g);
	json_decref(res);
}

/* SVG only by default (issue 16: pngcairo costs 4x the SVG); with png
 * the script draws a PNG after its SVG, and gnuplot (when installed)
 * wrote both. */
static void test_png_only_on_request(void **state)
{
	json_t *res = load_fixture();
	struct graph g = { 0 };
	char *png, *gnuplot = kb_which("gnuplot");

	(void)state;
	graph_draw(&g, res, "svgonly", NULL, 3);
	graph_read(&g, "bar");
	assert_non_null(strstr(g.gp, "set terminal svg"));
	assert_null(strstr(g.gp, "pngcairo"));
	png = kb_path_join(g.dir, JOB "-bar.png");
	assert_false(kb_exists(png));
	free(png);
	graph_free(&g);
	g.dir = draw_as(res, "withpng", NULL, 3, 1);
	graph_read(&g, "bar");
	assert_true(strstr(g.gp, "set terminal svg") <
		    strstr(g.gp, "set terminal pngcairo"));
	png = kb_path_join(g.dir, JOB "-bar.png");
	if (gnuplot)
		assert_true(kb_exists(png));
	free(png);
	free(gnuplot);
	graph_free(&g);
	json_decref(res);
}

/* The kinds of graph plots_write() draws, in the order of a golden file. */
static const char *const golden_kinds[] = { "bar", "iterations", "scaling",
					    "cdf" };

/* Every .gp and .dat file under dir, in golden_kinds order, each after a
 * "==> NAME <==" line, with dir's tmpdir written as "@TMPDIR@" (the
 * scripts name their data by full path), compared with golden (tests/
 * data/plots/NAME.txt; KBENCH_UPDATE_GOLDEN=1 rewrites it): the scripts
 * and data must stay byte-identical when the code that writes them is
 * reworked.  A difference fails naming its first line. */
static void check_golden_plots(const char *dir, const char *golden)
{
	static const char *const exts[] = { "gp", "dat" };
	char *out = NULL, *want = NULL, *buf, *name, *path;
	const char *p, *at;
	size_t len = 0, k, e, i, line, tl = strlen(tmpdir);
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	for (k = 0; k < sizeof(golden_kinds) / sizeof(*golden_kinds); k++)
		for (e = 0; e < 2; e++) {
			name = plots_file_name(JOB, golden_kinds[k], exts[e]);
			path = kb_path_join(dir, name);
			buf = NULL;
			fprintf(f, "==> %s <==\n", name);
			if (!kb_exists(path)) {
				fputs("(not written)\n", f);
			} else {
				assert_int_equal(kb_read_file(path, &buf,
							      NULL, 0), 0);
				for (p = buf; (at = strstr(p, tmpdir));
				     p = at + tl)
					fprintf(f, "%.*s@TMPDIR@",
						(int)(at - p), p);
				fputs(p, f);
			}
			free(buf);
			free(path);
			free(name);
		}
	assert_int_equal(fclose(f), 0);
	if (getenv("KBENCH_UPDATE_GOLDEN")) {
		assert_int_equal(kb_write_atomic(golden, out, len), 0);
	} else {
		assert_int_equal(kb_read_file(golden, &want, NULL, 0), 0);
		for (i = 0, line = 1; out[i] && out[i] == want[i]; i++)
			if (out[i] == '\n')
				line++;
		if (out[i] != want[i]) {
			p = out + i;
			while (p > out && p[-1] != '\n')
				p--;
			fail_msg("the plots of %s differ from %s at its line "
				 "%zu: \"%.*s\" (KBENCH_UPDATE_GOLDEN=1 "
				 "rewrites it when the change is meant)", dir,
				 golden, line, (int)strcspn(p, "\n"), p);
		}
	}
	free(want);
	free(out);
}

/* The scripts and data of every kind, byte for byte: the report fixture
 * with its latency bins (bars, iterations, categorical scaling, CDF), two
 * variants over a numeric sweep (lines, labels on each point) and two
 * campaigns merged into one model (a CDF per campaign directory). */
static void test_golden_scripts_and_data(void **state)
{
	json_t *res = load_fixture(), *sw = two_variant_sweep(), *b, *m;
	char *cdir = kb_path_join(tmpdir, "golden-campaign");
	char *db = kb_path_join(tmpdir, "golden-other");
	const char *names[2] = { cdir, db };
	char *dir;

	(void)state;
	write_fio_json(res, cdir, 50000, 5000000);
	dir = draw(res, "golden-fixture", cdir, 4);
	check_golden_plots(dir, "tests/data/plots/fixture.txt");
	free(dir);
	dir = draw(sw, "golden-sweep", NULL, 3);
	check_golden_plots(dir, "tests/data/plots/sweep.txt");
	free(dir);
	b = load_fixture();
	write_fio_json(b, db, 100000, 10000000);
	m = merge_two(res, b, names);
	dir = draw(m, "golden-merged", NULL, 4);
	check_golden_plots(dir, "tests/data/plots/merged.txt");
	free(dir);
	json_decref(m);
	json_decref(b);
	json_decref(sw);
	json_decref(res);
	free(db);
	free(cdir);
}

/* A gnuplot started ahead (issue 16, kb_gnuplot_start()) draws the
 * same graphs from the same scripts, fed on its stdin, and is ended by
 * plots_write() whatever happens: also when there is nothing to draw or
 * the directory is refused; one never given is discarded.  Without
 * gnuplot installed it is not started (-ENOENT, nothing printed) and
 * plots_write() says so as before. */
static void test_gnuplot_started_ahead(void **state)
{
	json_t *res = load_fixture(), *empty;
	struct kb_rmodel *m = kb_rmodel__new(res), *none;
	struct kb_gnuplot gp;
	/* names of one length: the scripts differ only in them */
	char *a = kb_path_join(tmpdir, "byarg"), *b = kb_path_join(tmpdir,
								   "ahead");
	char *ga, *gb, *svg, *at;
	int ret;

	(void)state;
	assert_non_null(m);
	ret = kb_gnuplot_start(&gp);
	if (ret == -ENOENT) {
		assert_false(gp.started);
		assert_int_equal(plots_write(m, b, NULL, NULL, 0, &gp),
				 -ENOENT);
		goto out;
	}
	assert_int_equal(ret, 0);
	assert_true(gp.started);
	assert_int_equal(plots_write(m, b, NULL, NULL, 0, &gp), 3);
	assert_false(gp.started);
	assert_int_equal(plots_write(m, a, NULL, NULL, 0, NULL), 3);
	svg = kb_path_join(b, JOB "-scaling.svg");
	assert_true(kb_exists(svg));
	free(svg);
	/* the same script but for its directory's name */
	ga = read_plot(a, "bar", "gp");
	gb = read_plot(b, "bar", "gp");
	while ((at = strstr(gb, "/ahead/")))
		memcpy(at, "/byarg/", 7);
	assert_string_equal(ga, gb);
	free(ga);
	free(gb);
	/* ended when nothing is drawn, or the directory refused */
	empty = json_pack("{s:[], s:{s:[s]}}", "runs", "campaign", "jobs",
			  JOB);
	none = kb_rmodel__new(empty);
	assert_int_equal(kb_gnuplot_start(&gp), 0);
	assert_int_equal(plots_write(none, b, NULL, NULL, 0, &gp), 0);
	assert_false(gp.started);
	assert_int_equal(kb_gnuplot_start(&gp), 0);
	assert_int_equal(plots_write(m, "/tmp/it's", NULL, NULL, 0, &gp),
			 -EINVAL);
	assert_false(gp.started);
	assert_int_equal(kb_gnuplot_start(&gp), 0);
	kb_gnuplot_discard(&gp);
	assert_false(gp.started);
	kb_gnuplot_discard(NULL);
	kb_rmodel__delete(none);
	json_decref(empty);
out:
	kb_rmodel__delete(m);
	json_decref(res);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_categorical_bars_and_yrange),
		cmocka_unit_test(test_significance_labels),
		cmocka_unit_test(test_numeric_sweep_lines),
		cmocka_unit_test(test_sweep_significance_on_lines),
		cmocka_unit_test(test_cdf_units),
		cmocka_unit_test(test_cdf_merged_campaigns),
		cmocka_unit_test(test_iterations_counted_from_1),
		cmocka_unit_test(test_png_only_on_request),
		cmocka_unit_test(test_golden_scripts_and_data),
		cmocka_unit_test(test_gnuplot_started_ahead),
		cmocka_unit_test(test_graph_name_not_followed),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup,
				      tmpdir_teardown);
}
