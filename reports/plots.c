/* reports/plots.c - gnuplot graphs of a campaign (reports/plots.h).
 * gnuplot 5 script syntax: http://gnuplot.info/docs_5.4/Gnuplot_5_4.pdf
 * ("plot", "yerrorbars", "set terminal svg", "pngcairo"). */
#include "results/json.h"
#include "results/paths.h"
#include "reports/plots.h"
#include "reports/table.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "lib/proc.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *plots_file_name(const char *job, const char *kind, const char *ext)
{
	char *s = kb_xasprintf("%s-%s.%s", job, kind, ext), *p;
	size_t l = strlen(job);

	for (p = s; p < s + l; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		      *p == '-'))
			*p = '_';
	return s;
}

/* A title for gnuplot's double-quoted strings: no quotes, backslashes
 * or control characters; '_' shown literally (noenhanced). */
static char *gp_title(const char *s)
{
	char *d = kb_xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
			*p = '\'';
	return d;
}

struct plot {
	char *dat, *gp, *svg, *png;	/* full paths */
	FILE *d;			/* the data file being written */
	char *dbuf;
	size_t dlen;
};

static void plot_open(struct plot *p, const char *dir, const char *job,
		      const char *kind)
{
	char *n;

	memset(p, 0, sizeof(*p));
	n = plots_file_name(job, kind, "dat");
	p->dat = kb_path_join(dir, n);
	free(n);
	n = plots_file_name(job, kind, "gp");
	p->gp = kb_path_join(dir, n);
	free(n);
	n = plots_file_name(job, kind, "svg");
	p->svg = kb_path_join(dir, n);
	free(n);
	n = plots_file_name(job, kind, "png");
	p->png = kb_path_join(dir, n);
	free(n);
	p->d = kb_xmemstream(&p->dbuf, &p->dlen);
}

static void plot_free(struct plot *p)
{
	if (p->d)
		fclose(p->d);
	free(p->dbuf);
	free(p->dat);
	free(p->gp);
	free(p->svg);
	free(p->png);
}

/* Write the data and the script (head: settings, body: the plot
 * command using '%1$s' for the data path) and add it to the batch that
 * plots_write() draws.  0 or -errno. */
/* The scripts plots_write() draws with one gnuplot at the end. */
static struct {
	char **gp;
	char **out;	/* svg, png of each script */
	size_t n;
} batch;

static int plot_draw(struct plot *p, const char *head, const char *body)
{
	char *script = NULL;
	int ret;

	if (fclose(p->d)) {
		p->d = NULL;
		return -EIO;
	}
	p->d = NULL;
	ret = kb_write_atomic(p->dat, p->dbuf, p->dlen);
	if (ret)
		return ret;
	script = kb_xasprintf(
		"# drawn by kbench report --plots; redraw: gnuplot '%s'\n"
		"datafile = '%s'\n"
		"set encoding utf8\n"
		"set termoption noenhanced\n"
		"set key outside bottom center horizontal\n"
		"set grid ytics\n"
		"%s\n"
		"set terminal svg size 900,520 dynamic background rgb 'white'\n"
		"set output '%s'\n"
		"%s\n"
		"set terminal pngcairo size 900,520\n"
		"set output '%s'\n"
		"replot\n"
		"unset output\n", p->gp, p->dat, head, p->svg, body, p->png);
	ret = kb_write_atomic(p->gp, script, strlen(script));
	free(script);
	if (ret)
		return ret;
	/* drawn with the others by one gnuplot (plots_write) */
	batch.gp = kb_xrealloc(batch.gp, (batch.n + 1) * sizeof(*batch.gp));
	batch.out = kb_xrealloc(batch.out, (batch.n + 1) * 2 *
				sizeof(*batch.out));
	batch.gp[batch.n] = kb_xstrdup(p->gp);
	batch.out[2 * batch.n] = kb_xstrdup(p->svg);
	batch.out[2 * batch.n + 1] = kb_xstrdup(p->png);
	batch.n++;
	return 0;
}

static void batch_free(void)
{
	size_t i;

	for (i = 0; i < batch.n; i++) {
		free(batch.gp[i]);
		free(batch.out[2 * i]);
		free(batch.out[2 * i + 1]);
	}
	free(batch.gp);
	free(batch.out);
	memset(&batch, 0, sizeof(batch));
}

/* One gnuplot process for every script of the batch (gnuplot runs its
 * file arguments in order), then a check that each wrote its SVG and
 * PNG.  0 or -errno with a message. */
static int batch_draw(void)
{
	struct kb_argv argv = KB_ARGV_INIT;
	struct kb_spawn_result res;
	size_t i;
	int ret;

	if (!batch.n)
		return 0;
	kb_argv_push(&argv, "gnuplot");
	for (i = 0; i < batch.n; i++)
		kb_argv_push(&argv, batch.gp[i]);
	ret = kb_spawn(argv.v, &(struct kb_spawn_opts){ .timeout_s = 120 },
		       &res);
	kb_argv_clear(&argv);
	if (ret == -ENOENT) {
		kb_error("gnuplot is not installed: apt-get install "
			 "gnuplot-nox (or run scripts/install-deps)");
		return ret;
	}
	if (ret)
		return ret;
	if (!res.exited || res.exit_status) {
		kb_error("gnuplot failed (exit %d, signal %d); run 'gnuplot "
			 "SCRIPT' on each of %s ... to see why",
			 res.exit_status, res.signal, batch.gp[0]);
		return -EIO;
	}
	for (i = 0; i < 2 * batch.n; i++)
		if (!kb_exists(batch.out[i])) {
			kb_error("gnuplot wrote no %s", batch.out[i]);
			return -EIO;
		}
	return 0;
}

static const char *job_metric(json_t *results, const char *job,
			      const struct report_opts *opts)
{
	static const char *const dflt[] = { "read.iops", "write.iops",
					    "trim.iops" };
	json_t *e;
	size_t i, k;

	if (opts && opts->metrics && opts->metrics[0])
		return opts->metrics[0];
	for (k = 0; k < 3; k++)
		json_array_foreach(json_object_get(results, "summaries"), i, e)
			if (kb_jstr(e, "job") && kb_jstr(e, "metric") &&
			    !strcmp(kb_jstr(e, "job"), job) &&
			    !strcmp(kb_jstr(e, "metric"), dflt[k]))
				return dflt[k];
	return NULL;
}

static char *axis_label(const char *metric)
{
	const struct kb_metric_def *d = kb_metric_find(metric);

	return d ? kb_xasprintf("%s (%s)", metric, d->unit) :
		   kb_xstrdup(metric);
}

static int bar_plot(json_t *results, const char *dir, const char *job,
		    const char *metric)
{
	struct plot p;
	json_t *cfg, *s, *m, *lo, *hi;
	char *t, *head, *ylab;
	size_t i, n = 0;
	int ret;

	plot_open(&p, dir, job, "bar");
	fprintf(p.d, "# configuration mean ci95_lo ci95_hi (%s)\n", metric);
	json_array_foreach(json_object_get(results, "configurations"), i, cfg) {
		s = stats_find_summary(json_object_get(results, "summaries"),
				       kb_jstr(cfg, "id") ?: "", job, metric);
		m = json_object_get(s, "mean");
		if (!json_is_number(m))
			continue;
		lo = json_object_get(s, "ci95_lo");
		hi = json_object_get(s, "ci95_hi");
		t = gp_title(kb_jstr(cfg, "id"));
		/* no CI (n = 1): a zero-length bar */
		fprintf(p.d, "\"%s\" %.17g %.17g %.17g\n", t,
			json_number_value(m), json_is_number(lo) ?
			json_number_value(lo) : json_number_value(m),
			json_is_number(hi) ? json_number_value(hi) :
			json_number_value(m));
		free(t);
		n++;
	}
	if (!n) {
		plot_free(&p);
		return 0;
	}
	ylab = axis_label(metric);
	t = gp_title(job);
	head = kb_xasprintf("set title \"%s: mean of %s, 95%% CI\"\n"
			    "set ylabel \"%s\"\nset yrange [0:*]\n"
			    "set style fill solid 0.6 border -1\n"
			    "set boxwidth 0.6\nset xtics rotate by -20\n"
			    "unset key", t, metric, ylab);
	ret = plot_draw(&p, head, "plot datafile using 0:2:xtic(1) with boxes "
			"lc rgb '#4878a8', '' using 0:2:3:4 with yerrorbars "
			"lc rgb 'black' pt -1");
	free(head);
	free(ylab);
	free(t);
	plot_free(&p);
	return ret ? ret : 1;
}

/* One data block per configuration (separated by two blank lines, gnuplot
 * "index"), a plot clause per block. */
static int iterations_plot(json_t *results, const char *dir, const char *job,
			   const char *metric)
{
	struct plot p;
	json_t *cfg, *run, *v;
	char *t, *head, *ylab, *body = NULL, *tmp;
	size_t i, k, block = 0, nb;
	int ret;

	plot_open(&p, dir, job, "iterations");
	json_array_foreach(json_object_get(results, "configurations"), i, cfg) {
		const char *id = kb_jstr(cfg, "id");

		if (!id)
			continue;
		nb = 0;
		json_array_foreach(json_object_get(results, "runs"), k, run) {
			v = json_object_get(json_object_get(run, "metrics"),
					    metric);
			if (!kb_jstr(run, "configuration") || !kb_jstr(run, "job") ||
			    strcmp(kb_jstr(run, "configuration"), id) ||
			    strcmp(kb_jstr(run, "job"), job) ||
			    !kb_run_counts(run) || !json_is_number(v))
				continue;
			if (!nb)
				fprintf(p.d, "%s# %s\n", block ? "\n\n" : "",
					id);
			fprintf(p.d, "%lld %.17g\n", (long long)
				json_integer_value(json_object_get(run,
				"iteration")), json_number_value(v));
			nb++;
		}
		if (!nb)
			continue;
		t = gp_title(id);
		tmp = kb_xasprintf("%s%s datafile index %zu using 1:2 with "
				   "linespoints pt 7 ps 1.2 title \"%s\"",
				   body ? body : "plot", body ? "," : "",
				   block, t);
		free(body);
		body = tmp;
		free(t);
		block++;
	}
	if (!block) {
		plot_free(&p);
		return 0;
	}
	ylab = axis_label(metric);
	t = gp_title(job);
	head = kb_xasprintf("set title \"%s: %s of every timed iteration\"\n"
			    "set xlabel \"iteration\"\nset ylabel \"%s\"\n"
			    "set xtics 1", t, metric, ylab);
	ret = plot_draw(&p, head, body);
	free(head);
	free(ylab);
	free(t);
	free(body);
	plot_free(&p);
	return ret ? ret : 1;
}

/* Something swept: a run with "params", or a tunable with 2+ values. */
static int swept(json_t *results)
{
	json_t *run, *cfg, *v;
	const char *k;
	size_t i, j;

	json_array_foreach(json_object_get(results, "runs"), i, run)
		if (json_object_size(json_object_get(run, "params")))
			return 1;
	json_array_foreach(json_object_get(results, "configurations"), i, cfg)
		json_object_foreach(json_object_get(cfg, "tunables"), k, v) {
			json_t *o;

			json_array_foreach(json_object_get(results,
					   "configurations"), j, o) {
				json_t *w = json_object_get(json_object_get(o,
							    "tunables"), k);

				if (json_is_string(w) && json_is_string(v) &&
				    strcmp(json_string_value(w),
					   json_string_value(v)))
					return 1;
			}
		}
	return 0;
}

/* The scaling layout's table (reports/layout.c), drawn as lines. */
static int scaling_plot(json_t *results, const char *dir, const char *job,
			const char *metric, const struct report_opts *opts)
{
	struct report_opts o = *opts;
	const char *ms[2] = { metric, NULL };
	struct kb_report *r = NULL;
	struct kb_table *t = NULL;
	struct plot p;
	char *head, *body = NULL, *tmp, *ti, *ylab, *end;
	size_t i, row, c, nser = 0;
	int ret;

	if (!swept(results))
		return 0;
	o.layout = "scaling";
	o.rows = NULL;
	o.metrics = ms;
	if (kb_report_build(results, &o, &r))
		return 0;	/* the message says why */
	for (i = 0; i < r->njobs; i++)
		if (!strcmp(r->jobs[i].name, job) && r->jobs[i].ntables)
			t = r->jobs[i].tables[0];
	if (!t || t->ncols < 3) {
		kb_report_free(r);
		return 0;
	}
	plot_open(&p, dir, job, "scaling");
	fputs("# column", p.d);
	for (c = 1; c < t->ncols; c++) {
		ti = gp_title(t->cols[c].head);
		fprintf(p.d, " \"%s\"", ti);
		free(ti);
	}
	fputc('\n', p.d);
	for (row = 0; row < t->nrows; row++) {
		if (!strncmp(t->rows[row].cells[0], "% change", 8))
			continue;
		ti = gp_title(t->rows[row].cells[0]);
		fprintf(p.d, "%s# %s\n", nser ? "\n\n" : "", ti);
		for (c = 1; c < t->ncols; c++) {
			double v = strtod(t->rows[row].cells[c], &end);
			char *h = gp_title(t->cols[c].head);

			if (end != t->rows[row].cells[c] && !*end)
				fprintf(p.d, "%zu \"%s\" %.17g\n", c - 1, h, v);
			free(h);
		}
		tmp = kb_xasprintf("%s%s datafile index %zu using 1:3:xtic(2) "
				   "with linespoints pt 7 lw 2 title \"%s\"",
				   body ? body : "plot", body ? "," : "", nser,
				   ti);
		free(body);
		body = tmp;
		free(ti);
		nser++;
	}
	ylab = axis_label(metric);
	ti = gp_title(t->title);
	head = kb_xasprintf("set title \"%s\"\nset ylabel \"%s\"\n"
			    "set yrange [0:*]", ti, ylab);
	ret = plot_draw(&p, head, body);
	free(head);
	free(ylab);
	free(ti);
	free(body);
	plot_free(&p);
	kb_report_free(r);
	return ret ? ret : 1;
}

struct bin {
	double ns;
	double count;
};

static int cmp_bin(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

/* Add the json+ clat bins of direction dname of every job in fio.json. */
static void add_bins(const char *path, const char *dname, struct bin **bins,
		     size_t *n)
{
	json_t *doc = kb_json_load(path), *job, *b, *cnt;
	const char *key;
	size_t i;

	json_array_foreach(json_object_get(doc, "jobs"), i, job) {
		b = json_object_get(json_object_get(json_object_get(job,
				    dname), "clat_ns"), "bins");
		json_object_foreach(b, key, cnt) {
			if (!json_is_number(cnt))
				continue;
			*bins = kb_xrealloc(*bins, (*n + 1) * sizeof(**bins));
			(*bins)[*n].ns = strtod(key, NULL);
			(*bins)[(*n)++].count = json_number_value(cnt);
		}
	}
	json_decref(doc);
}

static int cdf_plot(json_t *results, const char *dir, const char *cdir,
		    const char *job, const char *metric)
{
	char dname[16], *path, *key, *t, *head, *body = NULL, *tmp;
	json_t *cfg, *run;
	struct bin *bins;
	size_t i, k, n, block = 0;
	double total, cum;
	struct plot p;
	int ret;

	/* the direction of the metric ("read.iops" -> "read") */
	if (!cdir || strcspn(metric, ".") >= sizeof(dname))
		return 0;
	snprintf(dname, sizeof(dname), "%.*s", (int)strcspn(metric, "."),
		 metric);
	if (strcmp(dname, "read") && strcmp(dname, "write") &&
	    strcmp(dname, "trim"))
		return 0;
	plot_open(&p, dir, job, "cdf");
	json_array_foreach(json_object_get(results, "configurations"), i, cfg) {
		const char *id = kb_jstr(cfg, "id");

		if (!id)
			continue;
		bins = NULL;
		n = 0;
		json_array_foreach(json_object_get(results, "runs"), k, run) {
			if (!kb_jstr(run, "configuration") || !kb_jstr(run, "job") ||
			    strcmp(kb_jstr(run, "configuration"), id) ||
			    strcmp(kb_jstr(run, "job"), job) ||
			    !kb_run_counts(run))
				continue;
			key = kb_run_key(id, job, (long long)
				json_integer_value(json_object_get(run,
							"iteration")));
			path = kb_run_file(cdir, key, "fio.json");
			free(key);
			if (kb_exists(path))
				add_bins(path, dname, &bins, &n);
			free(path);
		}
		if (!n) {
			free(bins);
			continue;
		}
		qsort(bins, n, sizeof(*bins), cmp_bin);
		for (k = 0, total = 0; k < n; k++)
			total += bins[k].count;
		fprintf(p.d, "%s# %s: latency_us cumulative_fraction\n",
			block ? "\n\n" : "", id);
		for (k = 0, cum = 0; k < n; k++) {
			cum += bins[k].count;
			/* one point per distinct latency */
			if (k + 1 < n && bins[k + 1].ns == bins[k].ns)
				continue;
			fprintf(p.d, "%.17g %.17g\n", bins[k].ns / 1000,
				cum / total);
		}
		free(bins);
		t = gp_title(id);
		tmp = kb_xasprintf("%s%s datafile index %zu using 1:2 with steps "
				   "lw 2 title \"%s\"", body ? body : "plot",
				   body ? "," : "", block, t);
		free(body);
		body = tmp;
		free(t);
		block++;
	}
	if (!block) {
		plot_free(&p);
		return 0;
	}
	t = gp_title(job);
	head = kb_xasprintf("set title \"%s: %s completion latency CDF (fio "
			    "json+ bins, timed runs merged)\"\n"
			    "set xlabel \"completion latency (us)\"\n"
			    "set ylabel \"fraction of I/Os\"\nset logscale x\n"
			    "set yrange [0:1]", t, dname);
	ret = plot_draw(&p, head, body);
	free(head);
	free(t);
	free(body);
	plot_free(&p);
	return ret ? ret : 1;
}

int plots_write(json_t *results, const char *dir, const char *campaign_dir,
		const struct report_opts *opts)
{
	struct report_opts defaults;
	const char *job, *metric;
	json_t *jobs, *v;
	size_t i;
	int ret, n = 0;

	if (!opts) {
		report_opts_init(&defaults);
		opts = &defaults;
	}
	if (strchr(dir, '\'') || (campaign_dir && strchr(campaign_dir, '\''))) {
		kb_error("--plots %s: a directory name with a quote (') cannot "
			 "go into a gnuplot script; choose another", dir);
		return -EINVAL;
	}
	ret = kb_mkdir_p(dir);
	if (ret)
		return ret;
	batch_free();
	jobs = json_object_get(json_object_get(results, "campaign"), "jobs");
	json_array_foreach(jobs, i, v) {
		job = json_string_value(v);
		metric = job ? job_metric(results, job, opts) : NULL;
		if (!metric)
			continue;
		ret = bar_plot(results, dir, job, metric);
		if (ret < 0)
			goto out;
		n += ret;
		ret = iterations_plot(results, dir, job, metric);
		if (ret < 0)
			goto out;
		n += ret;
		ret = scaling_plot(results, dir, job, metric, opts);
		if (ret < 0)
			goto out;
		n += ret;
		ret = cdf_plot(results, dir, campaign_dir, job, metric);
		if (ret < 0)
			goto out;
		n += ret;
	}
	ret = batch_draw();
out:
	batch_free();
	return ret < 0 ? ret : n;
}
