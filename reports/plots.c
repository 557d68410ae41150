/* reports/plots.c - gnuplot graphs of a campaign (reports/plots.h).
 * gnuplot 5 script syntax: http://gnuplot.info/docs_5.4/Gnuplot_5_4.pdf
 * ("plot", "yerrorbars", "set terminal svg", "pngcairo"). */
#include "results/json.h"
#include "results/artefacts.h"
#include "results/paths.h"
#include "results/rmodel.h"
#include "reports/plots.h"
#include "stats/summary.h"
#include "lib/str.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "lib/proc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
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

/* A title for gnuplot's double-quoted strings: no quotes, backslashes,
 * backquotes (gnuplot runs `...` in a double-quoted string through
 * /bin/sh: a configuration id from a campaign directory ran a command
 * as root) or control characters (a newline ends the command); '_'
 * shown literally (noenhanced). */
static char *gp_title(const char *s)
{
	char *d = kb_xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p == '"' || *p == '\\' || *p == '`' ||
		    (unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '\'';
	return d;
}

/* 1 when s can go into a gnuplot command as it is (a metric name, a
 * tunable label): letters, digits and . _ - + = % only; what a
 * campaign directory says otherwise is not plotted */
static int gp_plain(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-+=%", *s)))
			return 0;
	return 1;
}

/* A tick label under a bar: gp_title(s) with a line per
 * comma-separated part ("running\nNM=0"), so that long configuration
 * ids stand side by side without rotation or clipping; *lines: the
 * most lines of any label so far, for the bottom margin (malloc'd). */
static char *gp_tic(const char *s, int *lines)
{
	char *t = gp_title(s), *r = kb_xcalloc(2 * strlen(t) + 1, 1), *d = r;
	const char *p;
	int n = 1;

	for (p = t; *p; p++) {
		if (*p == ',') {
			n++;
			*d++ = '\\';
			*d++ = 'n';
		} else {
			*d++ = *p;
		}
	}
	if (n > *lines)
		*lines = n;
	free(t);
	return r;
}

/* Append clause (malloc'd, taken) to the plot command *body: "plot "
 * before the first, ", " before the others (*body malloc'd). */
static void clause_add(char **body, char *clause)
{
	char *tmp = kb_xasprintf("%s%s%s", *body ? *body : "plot ",
				 *body ? ", " : "", clause);

	free(clause);
	free(*body);
	*body = tmp;
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
	char **out;	/* svg, png (NULL: not asked for) of each script */
	size_t n;
	int png;	/* plots_write()'s png: draw PNG too */
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
	/* every string of a campaign's went through gp_title() or
	 * gp_plain(): a backquote left is a bug, never run */
	if (strchr(head, '`') || strchr(body, '`')) {
		kb_error("%s: a backquote in the gnuplot commands; not drawn "
			 "(a bug: please report it)", p->gp);
		return -EINVAL;
	}
	ret = kb_write_atomic_opt(p->dat, p->dbuf, p->dlen, KB_WRITE_NOSYNC);
	if (ret)
		return ret;
	script = kb_xasprintf(
		"# drawn by kbench report --plots%s; redraw: gnuplot '%s'\n"
		/* one gnuplot runs every script: no setting of the one
		 * before (xrange, xtics, labels) may leak into this one */
		"reset\n"
		"datafile = '%s'\n"
		"set encoding utf8\n"
		"set termoption noenhanced\n"
		"set key outside right top vertical Left reverse\n"
		"set grid ytics\n"
		"%s\n"
		"set terminal svg size 900,520 dynamic background rgb 'white'\n"
		"set output '%s'\n"
		"%s\n"
		"%s%s%s"
		"unset output\n", batch.png ? " --png" : "", p->gp, p->dat,
		head, p->svg, body,
		/* PNG only on request: pngcairo's font setup costs 4x
		 * the SVG (issue 16) */
		batch.png ? "set terminal pngcairo size 900,520\n"
			    "set output '" : "",
		batch.png ? p->png : "", batch.png ? "'\nreplot\n" : "");
	ret = kb_write_atomic_opt(p->gp, script, strlen(script),
				 KB_WRITE_NOSYNC);
	free(script);
	if (ret)
		return ret;
	/* drawn with the others by one gnuplot (plots_write) */
	batch.gp = kb_xrealloc(batch.gp, (batch.n + 1) * sizeof(*batch.gp));
	batch.out = kb_xrealloc(batch.out, (batch.n + 1) * 2 *
				sizeof(*batch.out));
	batch.gp[batch.n] = kb_xstrdup(p->gp);
	batch.out[2 * batch.n] = kb_xstrdup(p->svg);
	batch.out[2 * batch.n + 1] = batch.png ? kb_xstrdup(p->png) : NULL;
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

/* After gnuplot has drawn the batch (ret: its start and wait, res: its
 * end): each SVG (and PNG when asked for) written.  0 or -errno with a
 * message. */
static int batch_check(int ret, const struct kb_spawn_result *res)
{
	size_t i;

	if (ret == -ENOENT) {
		kb_error("gnuplot is not installed: apt-get install "
			 "gnuplot-nox (or run scripts/install-deps)");
		return ret;
	}
	if (ret)
		return ret;
	if (kb_spawn_forward_signal && !res->exited) {
		/* kbench was interrupted (Ctrl-C, kill): gnuplot with it */
		kb_warn("the graphs were not drawn: interrupted (signal %d)",
			res->signal);
		return -EINTR;
	}
	if (!res->exited || res->exit_status) {
		kb_error("gnuplot failed (exit %d, signal %d); run 'gnuplot "
			 "SCRIPT' on each of %s ... to see why",
			 res->exit_status, res->signal, batch.gp[0]);
		return -EIO;
	}
	for (i = 0; i < 2 * batch.n; i++)
		if (batch.out[i] && !kb_exists(batch.out[i])) {
			kb_error("gnuplot wrote no %s", batch.out[i]);
			return -EIO;
		}
	return 0;
}

/* seconds gnuplot may take over the scripts of one plots_write() */
#define GNUPLOT_TIMEOUT_S 120
/* gnuplot's warnings ("empty x range" for a graph of one point) stay
 * out of kbench's output; when it fails, batch_check() says how to see
 * why (gnuplot SCRIPT) */
#define GNUPLOT_STDERR "/dev/null"

int kb_gnuplot_start(struct kb_gnuplot *g)
{
	char *argv[] = { "gnuplot", NULL }, *path = kb_which("gnuplot");
	int ret;

	memset(g, 0, sizeof(*g));
	if (!path)
		return -ENOENT;	/* said by plots_write() if it draws */
	free(path);
	ret = kb_spawn_start(argv, &(struct kb_spawn_opts){
			     .timeout_s = GNUPLOT_TIMEOUT_S,
			     .stderr_path = GNUPLOT_STDERR }, 1, &g->child);
	g->started = !ret;
	return ret;
}

void kb_gnuplot_discard(struct kb_gnuplot *g)
{
	struct kb_spawn_result res;

	if (!g || !g->started)
		return;
	kb_spawn_wait(&g->child, &res);	/* its input ends: so does it */
	g->started = 0;
}

/* The started gnuplot gp draws the batch: "load 'SCRIPT'" for each, in
 * order (the paths hold no quote: plots_write() checked the
 * directory), then the end of its input and the wait.  0, or -errno
 * (failed wait: message printed); *res its end. */
static int batch_feed(struct kb_gnuplot *gp, struct kb_spawn_result *res)
{
	char *cmds = NULL;
	size_t len = 0, i;
	FILE *f = kb_xmemstream(&cmds, &len);
	int wret, ret;

	for (i = 0; i < batch.n; i++)
		fprintf(f, "load '%s'\n", batch.gp[i]);
	fclose(f);
	ret = kb_child_write(&gp->child, cmds, len);
	free(cmds);
	wret = kb_spawn_wait(&gp->child, res);
	gp->started = 0;
	/* not fed (-EPIPE: it had gone), yet it says it did fine: it did
	 * not draw, so it failed */
	if (!wret && ret && res->exited && !res->exit_status)
		res->exit_status = 1;
	return wret;
}

/* One gnuplot process for every script of the batch: gp when started
 * (batch_feed()), else one started now with the scripts as arguments
 * (gnuplot runs its file arguments in order); then batch_check().
 * 0 or -errno with a message. */
static int batch_draw(struct kb_gnuplot *gp)
{
	struct kb_argv argv = KB_ARGV_INIT;
	struct kb_spawn_result res;
	size_t i;
	int ret;

	if (!batch.n) {
		kb_gnuplot_discard(gp);
		return 0;
	}
	/* gnuplot's set output follows a link, and truncates a file
	 * linked elsewhere: a campaign directory a vm guest wrote (its
	 * links are root's, so a trusted directory's) could hold
	 * plots/JOB-bar.svg -> /etc/passwd; such a name is removed first
	 * and drawn anew */
	for (i = 0; i < 2 * batch.n; i++) {
		struct stat st;

		if (batch.out[i] && lstat(batch.out[i], &st) == 0 &&
		    (!S_ISREG(st.st_mode) || st.st_nlink > 1))
			unlink(batch.out[i]);
	}
	if (gp && gp->started)
		return batch_check(batch_feed(gp, &res), &res);
	kb_argv_push(&argv, "gnuplot");
	for (i = 0; i < batch.n; i++)
		kb_argv_push(&argv, batch.gp[i]);
	ret = kb_spawn(argv.v, &(struct kb_spawn_opts){
		       .timeout_s = GNUPLOT_TIMEOUT_S,
		       .stderr_path = GNUPLOT_STDERR }, &res);
	kb_argv_clear(&argv);
	return batch_check(ret, &res);
}

static const char *job_metric(const struct kb_rmodel *m, const char *job,
			      const struct report_opts *opts)
{
	static const char *const dflt[] = { "read.iops", "write.iops",
					    "trim.iops" };
	const struct kb_summary_row *e;
	size_t i, k;

	if (opts && opts->metrics && opts->metrics[0])
		return opts->metrics[0];
	for (k = 0; k < 3; k++)
		for (i = 0; i < m->analysis.nsummaries; i++) {
			e = &m->analysis.summaries[i];
			if (e->job && e->metric && !strcmp(e->job, job) &&
			    !strcmp(e->metric, dflt[k]))
				return dflt[k];
		}
	return NULL;
}

static char *axis_label(const char *metric)
{
	const struct kb_metric_def *d = kb_metric_find_key(metric);

	return d ? kb_xasprintf("%s (%s)", metric, d->unit) :
		   kb_xstrdup(metric);
}

/* A mean and its 95% CI, in the metric's unit. */
struct point {
	double mean, lo, hi;
};

/* The summary of (cfg, job, metric) (m->analysis) into *pt (the mean
 * for both CI ends when n = 1: a zero-length whisker).  0 when not
 * measured (no summary, or its mean NAN). */
static int summary_point(const struct kb_rmodel *m, const char *cfg,
			 const char *job, const char *metric, struct point *pt)
{
	const struct kb_summary_row *s = kb_analysis__summary(&m->analysis,
							      cfg, job, metric);

	if (!s || isnan(s->mean))
		return 0;
	pt->mean = s->mean;
	pt->lo = isnan(s->ci95_lo) ? s->mean : s->ci95_lo;
	pt->hi = isnan(s->ci95_hi) ? s->mean : s->ci95_hi;
	return 1;
}

/* The label of a significant change of cfg, "+1.23%*": the change and
 * verdict of its comparison with its baseline (stats_baseline_for) that
 * the report already computed (results "comparisons", the cells the
 * table marks with '*'); NULL when not significant or not compared
 * (malloc'd). */
static char *significance_label(const struct kb_rmodel *m, const char *cfg,
				const char *job, const char *metric)
{
	const char *base = stats_baseline_for(m, cfg);
	const struct kb_comparison_row *e;

	if (!base || !strcmp(base, cfg))
		return NULL;
	e = kb_analysis__comparison(&m->analysis, cfg, base, job, metric);
	if (!e || !kb_verdict_significant(e->verdict))
		return NULL;
	return isnan(e->change_pct) ? kb_xstrdup("*") :
	       kb_xasprintf("%+.2f%%*", e->change_pct);
}

/* What the significance labels mean, for a title's second line. */
#define SIGNIFICANCE_NOTE \
	"labels: significant change vs the baseline (the table's * verdicts)"

/* The y range of a graph whose highest whisker (or mean) is top: from 0
 * to top plus 15% (room for the labels above it), so no whisker is
 * clipped; autoscaled when nothing is positive (malloc'd). */
static char *yrange_to(double top)
{
	return isfinite(top) && top > 0 ?
	       kb_xasprintf("set yrange [0:%.6g]", top * 1.15) :
	       kb_xstrdup("set yrange [*:*]");
}

/* The significance labels of a graph: one "X Y LABEL" line each, written
 * as the data file's last block (gnuplot "index") when there is one. */
struct marks {
	char *buf;
	size_t len;
	FILE *f;
	size_t n;
};

static void marks_add(struct marks *mk, double x, double y, char *label)
{
	if (!label)
		return;
	if (!mk->f)
		mk->f = open_memstream(&mk->buf, &mk->len);
	if (!mk->f) {
		kb_error("out of memory for a plot's labels");
		abort();
	}
	fprintf(mk->f, "%.17g %.17g \"%s\"\n", x, y, label);
	mk->n++;
	free(label);
}

/* Append the labels block to p's data file as block `index` and return
 * the plot clause that draws it (malloc'd; "" when there are none). */
static char *marks_finish(struct marks *mk, struct plot *p, size_t index)
{
	if (mk->f)
		fclose(mk->f);
	mk->f = NULL;
	if (!mk->n) {
		free(mk->buf);
		return kb_xstrdup("");
	}
	fprintf(p->d, "\n\n# significant changes: x y label\n%s", mk->buf);
	free(mk->buf);
	mk->buf = NULL;
	return kb_xasprintf(", datafile index %zu using 1:2:3 with labels "
			    "offset 0,0.9 font ',10' textcolor rgb '#b00000' "
			    "notitle", index);
}

/* Write "X MEAN CI95_LO CI95_HI" of cfg's summary to p's data file (x:
 * where it is drawn), its significance label at label_x above the
 * whisker into mk, and raise *top to the whisker.  0 when cfg is not
 * measured (nothing written). */
static int put_point(const struct kb_rmodel *m, const char *cfg,
		     const char *job, const char *metric, struct plot *p,
		     struct marks *mk, const char *x, double label_x,
		     double *top)
{
	struct point pt;

	if (!cfg || !summary_point(m, cfg, job, metric, &pt))
		return 0;
	fprintf(p->d, "%s %.17g %.17g %.17g\n", x, pt.mean, pt.lo, pt.hi);
	marks_add(mk, label_x, fmax(pt.hi, pt.mean),
		  significance_label(m, cfg, job, metric));
	*top = fmax(*top, fmax(pt.hi, pt.mean));
	return 1;
}

static int bar_plot(const struct kb_rmodel *m, const char *dir,
		    const char *job, const char *metric)
{
	struct marks mk = { 0 };
	struct plot p;
	char *t, *q, *head, *ylab, *yr, *labels, *body, *tics = NULL, *tmp;
	double top = 0;
	size_t i, n = 0;
	int ret, tic_lines = 1;

	plot_open(&p, dir, job, "bar");
	fprintf(p.d, "# configuration mean ci95_lo ci95_hi (%s)\n", metric);
	for (i = 0; i < m->campaign.nconfigs; i++) {
		const char *id = m->campaign.configs[i].id;

		if (!id)
			continue;
		t = gp_title(id);
		q = kb_xasprintf("\"%s\"", t);
		free(t);
		ret = put_point(m, id, job, metric, &p, &mk, q, (double)n,
				&top);
		free(q);
		if (!ret)
			continue;
		t = gp_tic(id, &tic_lines);
		tmp = kb_xasprintf("%s%s\"%s\" %zu",
				   tics ? tics : "set xtics (",
				   tics ? ", " : "", t, n);
		free(t);
		free(tics);
		tics = tmp;
		n++;
	}
	if (!n) {	/* nothing measured: no labels either */
		free(tics);
		plot_free(&p);
		return 0;
	}
	labels = marks_finish(&mk, &p, 1);
	ylab = axis_label(metric);
	t = gp_title(job);
	yr = yrange_to(top);
	head = kb_xasprintf("set title \"%s: mean of %s, 95%% CI%s%s\"\n"
			    "set ylabel \"%s\"\n%s\n%s)\n"
			    "set xrange [-0.5:%zu.5]\nset bmargin %d\n"
			    "set style fill solid 0.6 border -1\n"
			    "set boxwidth 0.6\nunset key", t, metric,
			    *labels ? "\\n" : "",
			    *labels ? SIGNIFICANCE_NOTE : "", ylab, yr, tics,
			    n - 1, tic_lines + 2);
	body = kb_xasprintf("plot datafile index 0 using 0:2 with boxes lc "
			    "rgb '#4878a8', '' index 0 using 0:2:3:4 with "
			    "yerrorbars lc rgb 'black' pt 7 ps 0.6%s", labels);
	ret = plot_draw(&p, head, body);
	free(body);
	free(head);
	free(yr);
	free(ylab);
	free(t);
	free(labels);
	free(tics);
	plot_free(&p);
	return ret ? ret : 1;
}

/* One data block per configuration (separated by two blank lines, gnuplot
 * "index"), a plot clause per block. */
static int iterations_plot(const struct kb_rmodel *m, const char *dir,
			   const char *job, const char *metric)
{
	struct plot p;
	char *t, *head, *ylab, *body = NULL;
	size_t i, k, n, block = 0, nb;
	size_t col = kb_rmodel__metric(m, metric), jx = kb_rmodel__job(m, job);
	/* campaign.warmup, 0 when absent */
	long long warmup = m->campaign.warmup < 0 ? 0 : m->campaign.warmup;
	const size_t *runs;
	double v;
	int ret;

	plot_open(&p, dir, job, "iterations");
	for (i = 0; col != KB_RMODEL_NONE && i < m->campaign.nconfigs; i++) {
		const char *id = m->campaign.configs[i].id;

		if (!id)
			continue;
		nb = 0;
		/* the counted runs of (id, job), in run order */
		runs = kb_rmodel__group(m, kb_rmodel__config(m, id), jx, &n);
		for (k = 0; k < n; k++) {
			v = kb_rmodel__value(m, runs[k], col);
			if (isnan(v))
				continue;
			if (!nb)
				fprintf(p.d, "%s# %s\n", block ? "\n\n" : "",
					id);
			/* x: the counted number, 1..N (results/paths.h) */
			fprintf(p.d, "%lld %.17g\n", kb_iteration_counted(
				m->runs[runs[k]].iteration, warmup), v);
			nb++;
		}
		if (!nb)
			continue;
		t = gp_title(id);
		clause_add(&body, kb_xasprintf("datafile index %zu using 1:2 "
			   "with linespoints pt 7 ps 1.2 title \"%s\"", block,
			   t));
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
			    "set xtics 1\n"
			    /* the first and last points whole, not cut by
			     * the border */
			    "set autoscale xfix\nset offsets 0.25, 0.25, 0, 0",
			    t, metric, ylab);
	ret = plot_draw(&p, head, body);
	free(head);
	free(ylab);
	free(t);
	free(body);
	plot_free(&p);
	return ret ? ret : 1;
}

/* The scaling graph's grid: the configurations by the value of one
 * tunable label (x) and the rest of their id (a series). */
struct grid {
	const char *dim;	/* the tunable label on x */
	int lines;		/* a swept job parameter with numeric values */
	struct kb_strlist xs;	/* dim's values: numeric sorted, else in
				 * campaign order */
	char **rows;		/* configuration ids without ",dim=value" */
	size_t nrows;
	const char **cell;	/* nrows x xs.n configuration ids, or NULL */
};

static int cmp_numstr(const void *a, const void *b)
{
	double x = strtod(*(const char *const *)a, NULL);
	double y = strtod(*(const char *const *)b, NULL);

	return (x > y) - (x < y);
}

static int is_number(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return 0;
	v = strtod(s, &end);
	return !*end && isfinite(v);
}

/* The label drawn on x: --cols when it names a tunable (or swept job
 * parameter), else the first swept job parameter (kernels.conf
 * "sweep"), else the last tunable, as the scaling layout chooses
 * (reports/layout.h).  *sweep: 1 when it is a swept job parameter. */
static const char *grid_dim(const struct kb_rmodel *m,
			    const struct report_opts *opts, int *sweep)
{
	const struct kb_rcampaign *c = &m->campaign;
	const char *dim = NULL, *first_sweep = NULL, *cols_dim = NULL;
	size_t i;

	for (i = 0; i < c->ntunables; i++) {
		const char *label = c->tunables[i].label;

		if (!label)
			continue;
		if (opts->cols && !strcmp(opts->cols, label))
			cols_dim = label;
		if (!first_sweep && c->tunables[i].sweep)
			first_sweep = label;
		dim = label;
	}
	dim = cols_dim ? cols_dim : first_sweep ? first_sweep : dim;
	*sweep = 0;
	for (i = 0; i < c->ntunables; i++)
		if (dim && c->tunables[i].label &&
		    !strcmp(c->tunables[i].label, dim))
			*sweep = c->tunables[i].sweep;
	return dim;
}

/* id without its ",dim=value" part (malloc'd). */
static char *id_without(const char *id, const char *dim, const char *value)
{
	char *part = kb_xasprintf(",%s=%s", dim, value);
	const char *at = strstr(id, part);
	char *r;

	if (at && (at[strlen(part)] == ',' || !at[strlen(part)]))
		r = kb_xasprintf("%.*s%s", (int)(at - id), id,
				 at + strlen(part));
	else
		r = kb_xstrdup(id);
	free(part);
	return r;
}

/* Fill g; 0 when there is nothing to draw (fewer than 2 values). */
static int grid_build(const struct kb_rmodel *m,
		      const struct report_opts *opts, struct grid *g)
{
	const struct kb_rconfig *cfg;
	size_t i, k, r;

	memset(g, 0, sizeof(*g));
	g->dim = grid_dim(m, opts, &g->lines);
	if (g->dim && !gp_plain(g->dim))
		g->dim = NULL;	/* a campaign's label that is not a name */
	if (!g->dim)
		return 0;
	for (i = 0; i < m->campaign.nconfigs; i++)
		kb_strlist_add(&g->xs, kb_rconfig__tunable(
			&m->campaign.configs[i], g->dim));
	if (g->xs.n < 2)
		return 0;
	for (k = 0; k < g->xs.n && is_number(g->xs.v[k]); k++)
		;
	if (k == g->xs.n)	/* numbers: in order, as the layout does */
		qsort(g->xs.v, g->xs.n, sizeof(*g->xs.v), cmp_numstr);
	else
		g->lines = 0;
	for (i = 0; i < m->campaign.nconfigs; i++) {
		const char *id, *v;
		char *row;

		cfg = &m->campaign.configs[i];
		id = cfg->id;
		v = kb_rconfig__tunable(cfg, g->dim);

		if (!id || !v)
			continue;
		row = id_without(id, g->dim, v);
		for (r = 0; r < g->nrows && strcmp(g->rows[r], row); r++)
			;
		if (r == g->nrows) {
			g->rows = kb_xrealloc(g->rows, (r + 1) *
					      sizeof(*g->rows));
			g->rows[g->nrows++] = row;
			g->cell = kb_xrealloc(g->cell, g->nrows * g->xs.n *
					      sizeof(*g->cell));
			memset(g->cell + r * g->xs.n, 0,
			       g->xs.n * sizeof(*g->cell));
		} else {
			free(row);
		}
		g->cell[r * g->xs.n + kb_strlist_index(&g->xs, v)] = id;
	}
	return 1;
}

static void grid_free(struct grid *g)
{
	size_t r;

	for (r = 0; r < g->nrows; r++)
		free(g->rows[r]);
	free(g->rows);
	free(g->cell);
	free(g->xs.v);
}

/* The swept values' axis is log2 when they are positive and span a
 * factor of 4 or more (numjobs = 1 2 4 8, iodepth = 1 ... 128). */
static int grid_log2(const struct grid *g)
{
	double lo = strtod(g->xs.v[0], NULL);
	double hi = strtod(g->xs.v[g->xs.n - 1], NULL);

	return lo > 0 && hi / lo >= 4;
}

/* A numeric sweep: one line per row over the swept values (x = the value
 * itself, grid_log2), with the 95% CI as error bars; each line drawn a
 * little aside (3% of a doubling, or of the range) so that whiskers at
 * the same value do not hide each other.  Appends clauses to *body;
 * returns the top. */
static double grid_lines(const struct kb_rmodel *m, const struct grid *g,
			 const char *job, const char *metric, struct plot *p,
			 struct marks *mk, char **body, size_t *blocks)
{
	int logx = grid_log2(g);
	double span = strtod(g->xs.v[g->xs.n - 1], NULL) -
		      strtod(g->xs.v[0], NULL);
	double top = 0, off;
	size_t r, k;
	char *t, *xe;

	for (r = 0; r < g->nrows; r++) {
		off = ((double)r - (double)(g->nrows - 1) / 2) * 0.03;
		xe = logx ? kb_xasprintf("($1*%.6g)", pow(2, off)) :
			    kb_xasprintf("($1+%.6g)", off * span);
		t = gp_title(g->rows[r]);
		fprintf(p->d, "%s# %s: %s mean ci95_lo ci95_hi\n",
			*blocks ? "\n\n" : "", t, g->dim);
		for (k = 0; k < g->xs.n; k++) {
			double x = strtod(g->xs.v[k], NULL);

			put_point(m, g->cell[r * g->xs.n + k], job,
				  metric, p, mk, g->xs.v[k], logx ?
				  x * pow(2, off) : x + off * span, &top);
		}
		clause_add(body, kb_xasprintf("datafile index %zu using %s:2 "
			   "with linespoints lc %zu pt 7 lw 2 title \"%s\", "
			   "'' index %zu using %s:2:3:4 with yerrorbars lc %zu "
			   "pt 7 ps 0.6 notitle", *blocks, xe, r + 1, t,
			   *blocks, xe, r + 1));
		free(t);
		free(xe);
		(*blocks)++;
	}
	return top;
}

/* A categorical tunable (no scale): clusters of bars, one cluster per
 * row, one bar (colour, key entry) per value, the 95% CI as error bars. */
static double grid_bars(const struct kb_rmodel *m, const struct grid *g,
			const char *job, const char *metric, struct plot *p,
			struct marks *mk, char **body, size_t *blocks)
{
	double w = 0.8 / (double)g->xs.n, x, top = 0;
	size_t r, k;
	char *t, xs[32];

	for (k = 0; k < g->xs.n; k++) {
		t = gp_title(g->xs.v[k]);
		fprintf(p->d, "%s# %s=%s: x mean ci95_lo ci95_hi\n",
			*blocks ? "\n\n" : "", g->dim, t);
		for (r = 0; r < g->nrows; r++) {
			x = (double)r + ((double)k - (double)(g->xs.n - 1) /
					 2) * w;
			snprintf(xs, sizeof(xs), "%.17g", x);
			put_point(m, g->cell[r * g->xs.n + k], job,
				  metric, p, mk, xs, x, &top);
		}
		clause_add(body, kb_xasprintf("datafile index %zu using 1:2 "
			   "with boxes lc %zu title \"%s=%s\", '' index %zu "
			   "using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 "
			   "ps 0.6 notitle", *blocks, k + 1, g->dim, t,
			   *blocks));
		free(t);
		(*blocks)++;
	}
	return top;
}

/* The x axis of the grid: the swept values as ticks (lines), or the row
 * names under each cluster (bars) (malloc'd). */
static char *grid_xaxis(const struct grid *g)
{
	char *s = NULL, *tmp, *t;
	double lo, hi;
	size_t i, n = g->lines ? g->xs.n : g->nrows;
	int tic_lines = 1;

	for (i = 0; i < n; i++) {
		t = g->lines ? gp_title(g->xs.v[i]) :
			       gp_tic(g->rows[i], &tic_lines);
		tmp = kb_xasprintf("%s%s\"%s\" %.17g", s ? s : "set xtics (",
				   s ? ", " : "", t, g->lines ?
				   strtod(g->xs.v[i], NULL) : (double)i);
		free(s);
		free(t);
		s = tmp;
	}
	if (!g->lines) {
		tmp = kb_xasprintf("%s)\nset xrange [-0.5:%zu.5]\n"
				   "set bmargin %d\n"
				   "set style fill solid 0.6 border -1\n"
				   "set boxwidth %.6g absolute", s, n - 1,
				   tic_lines + 2, 0.8 / (double)g->xs.n);
		free(s);
		return tmp;
	}
	/* room beside the first and last value for their labels */
	lo = strtod(g->xs.v[0], NULL);
	hi = strtod(g->xs.v[n - 1], NULL);
	if (grid_log2(g))
		tmp = kb_xasprintf("%s)\nset logscale x 2\nset xrange "
				   "[%.6g:%.6g]\nset xlabel \"%s\"", s,
				   lo / 1.4, hi * 1.4, g->dim);
	else
		tmp = kb_xasprintf("%s)\nset xrange [%.6g:%.6g]\n"
				   "set xlabel \"%s\"", s,
				   lo - (hi - lo) * 0.1, hi + (hi - lo) * 0.1,
				   g->dim);
	free(s);
	return tmp;
}

/* The scaling graph (the dimension of the scaling layout,
 * reports/layout.h): lines over a numeric swept job parameter, else
 * clustered bars, one per value of the categorical tunable (NM = 0 1 2
 * are not a scale). */
static int scaling_plot(const struct kb_rmodel *m, const char *dir,
			const char *job, const char *metric,
			const struct report_opts *opts)
{
	struct marks mk = { 0 };
	struct grid g;
	struct plot p;
	char *head, *body = NULL, *labels, *ti, *ylab, *yr, *xaxis, *tmp;
	size_t blocks = 0;
	double top;
	int ret;

	if (!grid_build(m, opts, &g)) {
		grid_free(&g);
		return 0;
	}
	plot_open(&p, dir, job, "scaling");
	top = g.lines ? grid_lines(m, &g, job, metric, &p, &mk, &body,
				   &blocks) :
			grid_bars(m, &g, job, metric, &p, &mk, &body, &blocks);
	labels = marks_finish(&mk, &p, blocks);
	tmp = kb_xasprintf("%s%s", body, labels);
	free(body);
	body = tmp;
	ylab = axis_label(metric);
	ti = gp_title(job);
	yr = yrange_to(top);
	xaxis = grid_xaxis(&g);
	head = kb_xasprintf("set title \"%s: mean of %s by %s, 95%% CI%s%s\"\n"
			    "set ylabel \"%s\"\n%s\n%s", ti, metric, g.dim,
			    *labels ? "\\n" : "",
			    *labels ? SIGNIFICANCE_NOTE : "", ylab, yr, xaxis);
	ret = plot_draw(&p, head, body);
	free(head);
	free(xaxis);
	free(yr);
	free(ylab);
	free(ti);
	free(body);
	free(labels);
	plot_free(&p);
	grid_free(&g);
	return ret ? ret : 1;
}

/* The engineering unit for latencies from lo to hi ns on a log axis:
 * the largest of ns, us, ms, s in which the middle of the axis,
 * sqrt(lo * hi), is at least 1, so tick labels stay short ("%g", no
 * "1x10^6").  *scale_ns: nanoseconds per unit. */
static const char *latency_unit(double lo_ns, double hi_ns, double *scale_ns)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = { { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		      { "ns", 1 } };
	double mid = sqrt(fmax(lo_ns, 1) * fmax(hi_ns, 1));
	size_t i;

	for (i = 0; i + 1 < sizeof(units) / sizeof(units[0]); i++)
		if (mid >= units[i].ns)
			break;
	*scale_ns = units[i].ns;
	return units[i].name;
}

/* One configuration's merged json+ bins, sorted by latency. */
struct cdf_series {
	const char *id;
	struct kb_lat_bins bins;
};

/* Where the raw artifacts of run lie, and *id its configuration's id
 * there: cdir, the campaign directory; without one, in a model merged
 * from several campaigns (kbench report A B, results/model.h
 * results_merge()), the directory given for the run's campaign
 * (campaign.merged_from at the index of the run's "campaign" in
 * campaign.merged_names), *id without its "NAME:" prefix.  NULL when
 * unknown (an export: its runs/ are not at hand). */
static const char *run_source(const struct kb_rmodel *m, const char *cdir,
			      const struct kb_rrun *run, const char **id)
{
	const struct kb_rcampaign *camp = &m->campaign;
	/* the run's "campaign" (m->campaigns[0]: none) */
	const char *c = run->campaign ? m->campaigns.v[run->campaign] : NULL;
	size_t i, l;

	*id = run->config != KB_RMODEL_NONE ? m->configs.v[run->config] :
					      NULL;
	if (cdir || !c || !*id)
		return cdir;
	l = strlen(c);
	for (i = 0; i < camp->merged_names.n; i++) {
		if (!camp->merged_names.v[i] ||
		    strcmp(camp->merged_names.v[i], c) ||
		    strncmp(*id, c, l) || (*id)[l] != ':')
			continue;
		*id += l + 1;
		return i < camp->merged_from.n ? camp->merged_from.v[i] : NULL;
	}
	return NULL;
}

static void cdf_collect(const struct kb_rmodel *m, const char *cdir,
			const char *job, const char *dname, const char *id,
			struct cdf_series *s)
{
	struct kb_lat_bins one = { 0 };
	const struct kb_rrun *run;
	const size_t *runs;
	char *key;
	const char *src, *sid;
	size_t k, n;

	s->id = id;
	memset(&s->bins, 0, sizeof(s->bins));
	/* the counted runs of (id, job), in run order */
	runs = kb_rmodel__group(m, kb_rmodel__config(m, id),
				kb_rmodel__job(m, job), &n);
	for (k = 0; k < n; k++) {
		run = &m->runs[runs[k]];
		src = run_source(m, cdir, run, &sid);
		if (!src)
			continue;
		key = kb_run_key(sid, job, (long long)run->iteration);
		if (!results_run_latency_bins(src, key, dname, KB_LAT_CLAT,
					      &one))
			kb_lat_bins_add(&s->bins, one.bin, one.n);
		free(key);
	}
	kb_lat_bins_free(&one);
}

/* The CDF of s into p's data file as block `block`, latencies in units
 * of scale ns. */
static void cdf_write(struct plot *p, const struct cdf_series *s,
		      size_t block, const char *unit, double scale)
{
	double total = kb_lat_bins_total(&s->bins), cum = 0;
	size_t k;

	fprintf(p->d, "%s# %s: latency_%s cumulative_fraction\n",
		block ? "\n\n" : "", s->id, unit);
	/* one point per distinct latency (kb_lat_bins: each value once) */
	for (k = 0; k < s->bins.n; k++) {
		cum += s->bins.bin[k].count;
		fprintf(p->d, "%.17g %.17g\n", s->bins.bin[k].value_ns / scale,
			total > 0 ? cum / total : 0);
	}
}

static int cdf_plot(const struct kb_rmodel *m, const char *dir,
		    const char *cdir, const char *job, const char *metric)
{
	char dname[16], *t, *head, *body = NULL;
	struct cdf_series *ser = NULL;
	double lo = INFINITY, hi = 0, scale;
	const char *unit;
	size_t i, n = 0;
	struct plot p;
	int ret;

	/* the runs' directories: one campaign's, or a merged model's */
	if (!cdir && !m->campaign.merged_names.n)
		return 0;
	/* the direction of the metric ("read.iops" -> "read") */
	if (strcspn(metric, ".") >= sizeof(dname))
		return 0;
	snprintf(dname, sizeof(dname), "%.*s", (int)strcspn(metric, "."),
		 metric);
	if (strcmp(dname, "read") && strcmp(dname, "write") &&
	    strcmp(dname, "trim"))
		return 0;
	for (i = 0; i < m->campaign.nconfigs; i++) {
		const char *id = m->campaign.configs[i].id;

		if (!id)
			continue;
		ser = kb_xrealloc(ser, (n + 1) * sizeof(*ser));
		cdf_collect(m, cdir, job, dname, id, &ser[n]);
		if (!ser[n].bins.n) {
			kb_lat_bins_free(&ser[n].bins);
			continue;
		}
		lo = fmin(lo, ser[n].bins.bin[0].value_ns);
		hi = fmax(hi, ser[n].bins.bin[ser[n].bins.n - 1].value_ns);
		n++;
	}
	if (!n) {
		free(ser);
		return 0;
	}
	unit = latency_unit(lo, hi, &scale);
	plot_open(&p, dir, job, "cdf");
	for (i = 0; i < n; i++) {
		cdf_write(&p, &ser[i], i, unit, scale);
		t = gp_title(ser[i].id);
		clause_add(&body, kb_xasprintf("datafile index %zu using 1:2 "
			   "with steps lw 2 title \"%s\"", i, t));
		free(t);
		kb_lat_bins_free(&ser[i].bins);
	}
	free(ser);
	t = gp_title(job);
	/* the key inside, bottom right: a CDF is near 1 there, so nothing
	 * hides behind it, and the x label keeps the bottom to itself */
	head = kb_xasprintf("set title \"%s: %s completion latency CDF (fio "
			    "json+ bins, timed runs merged)\"\n"
			    "set xlabel \"completion latency (%s, log "
			    "scale)\"\n"
			    "set ylabel \"fraction of I/Os\"\n"
			    "set logscale x 10\nset format x \"%%g\"\n"
			    "set xtics norotate\nset mxtics 10\n"
			    "set grid xtics ytics\n"
			    "set key inside right bottom vertical Left reverse "
			    "box opaque\nset yrange [0:1.02]", t, dname, unit);
	ret = plot_draw(&p, head, body);
	free(head);
	free(t);
	free(body);
	plot_free(&p);
	return ret ? ret : 1;
}

/* A path for gnuplot's single-quoted strings (no substitution there):
 * no quote, no control character (a newline ends the command). */
static int gp_path_ok(const char *p)
{
	for (; *p; p++)
		if (*p == '\'' || (unsigned char)*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

int plots_write(const struct kb_rmodel *m, const char *dir,
		const char *campaign_dir, const struct report_opts *opts,
		int png, struct kb_gnuplot *gp)
{
	struct report_opts defaults;
	const char *job, *metric;
	size_t i;
	int ret, n = 0;

	if (!opts) {
		report_opts_init(&defaults);
		opts = &defaults;
	}
	if (!gp_path_ok(dir) || (campaign_dir && !gp_path_ok(campaign_dir))) {
		kb_error("--plots %s: a directory name with a quote (') or a "
			 "control character cannot go into a gnuplot script; "
			 "choose another", dir);
		kb_gnuplot_discard(gp);
		return -EINVAL;
	}
	ret = kb_mkdir_p(dir);
	if (!ret) {
		/* gnuplot opens each graph's name itself (set output),
		 * following a link: a directory someone else can change
		 * (a planted randread-4k-cdf.svg -> /etc/...) would have
		 * root overwrite what the link names */
		char *why = NULL;

		ret = kb_path_trusted(dir, &why);
		if (ret) {
			kb_error("--plots %s: not drawn there: %s; gnuplot "
				 "writes the graphs as this user, so the "
				 "directory must be changeable only by root "
				 "and the trusted users (see README, "
				 "Security)", dir, why ? why : "?");
			free(why);
		}
	}
	if (ret) {
		kb_gnuplot_discard(gp);
		return ret;
	}
	batch_free();
	batch.png = png;
	for (i = 0; i < m->campaign.jobs.n; i++) {
		job = m->campaign.jobs.v[i];
		metric = job ? job_metric(m, job, opts) : NULL;
		if (!metric)
			continue;
		if (!gp_plain(metric)) {
			kb_warn("job %s: metric '%s' not plotted (a name of "
				"letters, digits and . _ - + = %% expected)",
				job, metric);
			continue;
		}
		ret = bar_plot(m, dir, job, metric);
		if (ret < 0)
			goto out;
		n += ret;
		ret = iterations_plot(m, dir, job, metric);
		if (ret < 0)
			goto out;
		n += ret;
		ret = scaling_plot(m, dir, job, metric, opts);
		if (ret < 0)
			goto out;
		n += ret;
		ret = cdf_plot(m, dir, campaign_dir, job, metric);
		if (ret < 0)
			goto out;
		n += ret;
	}
	ret = batch_draw(gp);
out:
	kb_gnuplot_discard(gp);	/* an error before the drawing */
	batch_free();
	return ret < 0 ? ret : n;
}
