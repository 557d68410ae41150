/* reports/layout.c - the named layouts of reports/layout.h, built on the
 * table model of reports/table.h.  Statistics of raw run values come
 * from GSL (gsl_stats_mean, gsl_stats_sd: the n-1 sample standard
 * deviation, the same as stats/summary.c). */
#include "results/analysis.h"
#include "results/json.h"
#include "results/paths.h"
#include "results/rmodel.h"
#include "reports/layout.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "stats/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_statistics_double.h>

enum dim_kind { D_CONFIG, D_VARIANT, D_JOB, D_ITER, D_TUNABLE, D_PARAM,
		D_REST };

/* A dimension; D_REST is the configuration without `name` (a tunable
 * label or a parameter): the rows of the scaling layout. */
struct dim {
	enum dim_kind kind;
	const char *name;
};

struct lctx {
	const struct kb_rmodel *m;	/* runs, values, campaign metadata */
	const struct kb_analysis *an;	/* its summaries and comparisons */
	const struct kb_profile_rows *rows;
	const struct kb_rconfig **rcfg;	/* of each row (rows->ids), NULL:
					 * not in "configurations" */
	size_t metric_k;	/* the metric's column in m, or
				 * KB_RMODEL_NONE */
	long long warmup;	/* campaign.warmup, 0 when absent */
	const char *job;	/* NULL: every job */
	const char *metric;
	int prefix;		/* report_opts.prefix: KB_PREFIX_AUTO scales */
};

struct vals {
	char **v;
	size_t n;
};

static void vals_add(struct vals *l, const char *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return;
	l->v = kb_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = kb_xstrdup(s);
}

static void vals_free(struct vals *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int is_number(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return 0;
	*v = strtod(s, &end);
	return !*end && isfinite(*v);
}

static int cmp_num(const void *a, const void *b)
{
	double x = 0, y = 0;

	is_number(*(char *const *)a, &x);
	is_number(*(char *const *)b, &y);
	return (x > y) - (x < y);
}

/* Sort numerically when every value is a number (1 2 4 8 devices). */
static void vals_sort(struct vals *l)
{
	double d;
	size_t i;

	if (!l->n)
		return;	/* qsort(NULL, 0, ...) is undefined */
	for (i = 0; i < l->n; i++)
		if (!is_number(l->v[i], &d))
			return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_num);
}

static long cfg_index(const struct lctx *c, const char *id)
{
	size_t i;

	for (i = 0; id && i < c->rows->n; i++)
		if (!strcmp(c->rows->ids[i], id))
			return (long)i;
	return -1;
}

static int is_label(const struct kb_profile_rows *rows, const char *name)
{
	size_t i;

	for (i = 0; i < rows->nlabels; i++)
		if (!strcmp(rows->labels[i], name))
			return 1;
	return 0;
}

static int is_param(const struct kb_rmodel *m, const char *name)
{
	size_t r, k;

	for (r = 0; r < m->nruns; r++)
		for (k = 0; k < m->runs[r].info.nparams; k++)
			if (!strcmp(m->runs[r].info.param_names[k], name))
				return 1;
	return 0;
}

/* The first swept parameter of any run, NULL when nothing is swept. */
static const char *first_param(const struct kb_rmodel *m)
{
	size_t r;

	for (r = 0; r < m->nruns; r++)
		if (m->runs[r].info.nparams)
			return m->runs[r].info.param_names[0];
	return NULL;
}

static int parse_dim(const struct kb_rmodel *m,
		     const struct kb_profile_rows *rows,
		     const char *opt, const char *name, struct dim *d)
{
	char *labels = NULL, *tmp;
	size_t i;

	d->name = name;
	if (!strcmp(name, "configuration") || !strcmp(name, "config"))
		d->kind = D_CONFIG;
	else if (!strcmp(name, "variant") || !strcmp(name, "kernel"))
		d->kind = D_VARIANT;
	else if (!strcmp(name, "job"))
		d->kind = D_JOB;
	else if (!strcmp(name, "iteration") || !strcmp(name, "round"))
		d->kind = D_ITER;
	else if (is_label(rows, name))
		d->kind = D_TUNABLE;
	else if (is_param(m, name))
		d->kind = D_PARAM;
	else
		goto bad;
	return 0;
bad:
	for (i = 0; i < rows->nlabels; i++) {
		tmp = kb_xasprintf("%s%s%s", labels ? labels : "",
				   labels ? ", " : "", rows->labels[i]);
		free(labels);
		labels = tmp;
	}
	kb_error("%s %s: no such dimension in these results; choose "
		 "configuration, variant, job, iteration%s%s%s, or a swept job "
		 "parameter (kernels.conf 'sweep PARAM = ...')%s%s", opt,
		 name, labels ? ", a tunable label (" : "", labels ? labels : "",
		 labels ? ")" : "",
		 first_param(m) ? ", here: " : "",
		 first_param(m) ? first_param(m) : "");
	free(labels);
	return -EINVAL;
}

/* Run r's configuration id / job name, NULL when it names none. */
static const char *run_config(const struct kb_rmodel *m, size_t r)
{
	return m->runs[r].config == KB_RMODEL_NONE ? NULL :
	       m->configs.v[m->runs[r].config];
}

static const char *run_job(const struct kb_rmodel *m, size_t r)
{
	return m->runs[r].job == KB_RMODEL_NONE ? NULL :
	       m->jobs.v[m->runs[r].job];
}

/* The value of dimension d for run r (malloc'd), NULL when it has
 * none. */
static char *run_value(const struct lctx *c, size_t r, const struct dim *d)
{
	const struct kb_rrun *run = &c->m->runs[r];
	const char *id = run_config(c->m, r), *v;
	long ci = cfg_index(c, id);
	const struct kb_rconfig *cfg = ci >= 0 ? c->rcfg[ci] : NULL;
	char *s = NULL, *tmp, b[KB_ITER_LABEL_MAX];
	size_t l;

	switch (d->kind) {
	case D_CONFIG:
		return id ? kb_xstrdup(id) : NULL;
	case D_VARIANT:
		return ci >= 0 ? kb_xstrdup(c->rows->variants[ci]) : NULL;
	case D_JOB:
		return run_job(c->m, r) ? kb_xstrdup(run_job(c->m, r)) : NULL;
	case D_ITER:
		/* as a reader numbers it: 1..N, warm-ups w1.. (results/paths.h) */
		return run->info.has_iteration ? kb_xstrdup(kb_iteration_label(
				run->iteration, c->warmup, b)) : NULL;
	case D_TUNABLE:
		return kb_xstrdup(kb_rconfig__tunable(cfg, d->name) ?: "");
	case D_PARAM:
		v = kb_rrun_info__param(&run->info, d->name);
		return v ? kb_xstrdup(v) : NULL;
	case D_REST:
		if (ci < 0)
			return NULL;
		s = kb_xstrdup(c->rows->variants[ci]);
		for (l = 0; l < c->rows->nlabels; l++) {
			if (!strcmp(c->rows->labels[l], d->name))
				continue;
			v = kb_rconfig__tunable(cfg, c->rows->labels[l]);
			tmp = kb_xasprintf("%s,%s=%s", s, c->rows->labels[l],
					   v ? v : "");
			free(s);
			s = tmp;
		}
		return s;
	}
	return NULL;
}

/* Run r is a timed, successful run of the context's job with a value
 * of the metric: 1 and *x set, else 0. */
static int run_counts(const struct lctx *c, size_t r, double *x)
{
	const char *job = run_job(c->m, r);
	double v;

	if (c->job && (!job || strcmp(job, c->job)))
		return 0;
	if (!c->m->runs[r].counts || c->metric_k == KB_RMODEL_NONE)
		return 0;
	v = kb_rmodel__value(c->m, r, c->metric_k);
	if (!isfinite(v))
		return 0;
	*x = v;
	return 1;
}

/* The values of d over the counted runs, configurations first in
 * display order for the configuration-like dimensions. */
static void dim_values(const struct lctx *c, const struct dim *d,
		       struct vals *out)
{
	size_t i;
	char *s;
	double x;

	if (d->kind == D_CONFIG) {
		for (i = 0; i < c->rows->n; i++)
			vals_add(out, c->rows->ids[i]);
	} else if (d->kind == D_VARIANT) {
		for (i = 0; i < c->rows->n; i++)
			vals_add(out, c->rows->variants[i]);
	}
	for (i = 0; i < c->m->nruns; i++) {
		if (!run_counts(c, i, &x))
			continue;
		s = run_value(c, i, d);
		vals_add(out, s);
		free(s);
	}
	if (d->kind != D_CONFIG && d->kind != D_VARIANT && d->kind != D_REST)
		vals_sort(out);
	/* drop configurations without a counted run only when others have */
	if (d->kind == D_CONFIG || d->kind == D_VARIANT) {
		size_t k = 0;

		for (i = 0; i < out->n; i++) {
			int any = 0;

			for (k = 0; k < c->m->nruns; k++) {
				if (!run_counts(c, k, &x))
					continue;
				s = run_value(c, k, d);
				any |= s && !strcmp(s, out->v[i]);
				free(s);
				if (any)
					break;
			}
			if (!any) {
				free(out->v[i]);
				memmove(&out->v[i], &out->v[i + 1],
					(out->n - i - 1) * sizeof(*out->v));
				out->n--;
				i--;
			}
		}
	}
}

/* The metric's values over counted runs with a = va and b = vb (b may
 * be NULL); malloc'd array, count in *n. */
static double *sample(const struct lctx *c, const struct dim *a,
		      const char *va, const struct dim *b, const char *vb,
		      size_t *n)
{
	double *xs = kb_xcalloc(c->m->nruns + 1, sizeof(*xs));
	size_t i;
	char *s;
	double x;
	int ok;

	*n = 0;
	for (i = 0; i < c->m->nruns; i++) {
		if (!run_counts(c, i, &x))
			continue;
		s = run_value(c, i, a);
		ok = s && !strcmp(s, va);
		free(s);
		if (ok && b) {
			s = run_value(c, i, b);
			ok = s && !strcmp(s, vb);
			free(s);
		}
		if (ok)
			xs[(*n)++] = x;
	}
	return xs;
}

/* Cell (r, col): v under scale s, or n/a when there is none (have 0). */
static void set_num(struct kb_table *t, size_t r, size_t col,
		    const struct kb_scale *s, int dec, int have, double v)
{
	if (have)
		kb_table_set_scaled(t, r, col, s, dec, v);
	else
		kb_table_set(t, r, col, "n/a");
}

/* The largest |x| of xs[0..n) where have[i] (have NULL: all), 0 when
 * none: what --prefix auto scales a table by. */
static double max_abs(const double *xs, const int *have, size_t n)
{
	double m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if ((!have || have[i]) && isfinite(xs[i]) && fabs(xs[i]) > m)
			m = fabs(xs[i]);
	return m;
}

/* "JOB: METRIC (UNIT), what", UNIT the one s writes the values in. */
static char *metric_title(const struct lctx *c, const struct kb_scale *s,
			  const char *what)
{
	return kb_xasprintf("%s: %s%s%s%s, %s", c->job ? c->job : "all jobs",
			    c->metric, s->unit ? " (" : "", s->unit ?: "",
			    s->unit ? ")" : "", what);
}

/* --rows R --cols C (and rounds: R = iteration, C = configuration).
 * The cells are computed first: --prefix auto scales the table by its
 * largest value. */
static struct kb_table *pivot(const struct lctx *c, const struct dim *r,
			      const struct dim *cl, const char *what)
{
	struct vals rv = { 0 }, cv = { 0 };
	struct kb_table *t;
	struct kb_scale sc;
	size_t i, k, n, row, nmin = (size_t)-1, nmax = 0;
	double *xs, *means, *avg, *sd;
	int *have, *have_avg, *have_sd;
	char *title;

	dim_values(c, r, &rv);
	dim_values(c, cl, &cv);
	means = kb_xcalloc(rv.n * cv.n + 1, sizeof(*means));
	have = kb_xcalloc(rv.n * cv.n + 1, sizeof(*have));
	avg = kb_xcalloc(cv.n + 1, sizeof(*avg));
	sd = kb_xcalloc(cv.n + 1, sizeof(*sd));
	have_avg = kb_xcalloc(cv.n + 1, sizeof(*have_avg));
	have_sd = kb_xcalloc(cv.n + 1, sizeof(*have_sd));
	for (i = 0; i < rv.n; i++) {
		for (k = 0; k < cv.n; k++) {
			xs = sample(c, r, rv.v[i], cl, cv.v[k], &n);
			if (n) {
				means[i * cv.n + k] = gsl_stats_mean(xs, 1, n);
				have[i * cv.n + k] = 1;
			}
			free(xs);
			if (n && n < nmin)
				nmin = n;
			if (n > nmax)
				nmax = n;
		}
	}
	for (k = 0; r->kind == D_ITER && rv.n && k < cv.n; k++) {
		xs = sample(c, cl, cv.v[k], NULL, NULL, &n);
		if (n) {
			avg[k] = gsl_stats_mean(xs, 1, n);
			have_avg[k] = 1;
		}
		if (n >= 2) {
			sd[k] = gsl_stats_sd(xs, 1, n);
			have_sd[k] = 1;
		}
		free(xs);
	}
	kb_scale_pick(&sc, c->metric, c->prefix,
		      fmax(max_abs(means, have, rv.n * cv.n),
			   max_abs(avg, have_avg, cv.n)));
	title = metric_title(c, &sc, what);
	t = kb_table_new(title);
	free(title);
	kb_table_add_col(t, r->name, r->kind == D_ITER, 0);
	for (k = 0; k < cv.n; k++) {
		/* "NM=0", "numjobs=4": a bare value says too little */
		char *h = cl->kind == D_TUNABLE || cl->kind == D_PARAM ?
			  kb_xasprintf("%s=%s", cl->name, cv.v[k]) :
			  kb_xstrdup(cv.v[k]);

		kb_table_add_col(t, h, 1, (int)k + 1);
		free(h);
	}
	for (i = 0; i < rv.n; i++) {
		row = kb_table_add_row(t, 0);
		if (r->kind == D_TUNABLE || r->kind == D_PARAM)
			kb_table_set(t, row, 0, "%s=%s", r->name, rv.v[i]);
		else
			kb_table_set(t, row, 0, "%s", rv.v[i]);
		for (k = 0; k < cv.n; k++)
			set_num(t, row, k + 1, &sc, sc.dec, have[i * cv.n + k],
				means[i * cv.n + k]);
	}
	if (r->kind == D_ITER && rv.n) {
		size_t avg_row = kb_table_add_row(t, 1);
		size_t sd_row = kb_table_add_row(t, 0);
		/* the stddev row in the column's prefix, its decimals its
		 * own (a 400 IOPS stddev is 0.400k, not 0k) */
		int sd_dec = kb_scale_dec(&sc, max_abs(sd, have_sd, cv.n));

		kb_table_set(t, avg_row, 0, "average");
		kb_table_set(t, sd_row, 0, "stddev");
		for (k = 0; k < cv.n; k++) {
			set_num(t, avg_row, k + 1, &sc, sc.dec, have_avg[k],
				avg[k]);
			set_num(t, sd_row, k + 1, &sc, sd_dec, have_sd[k],
				sd[k]);
		}
		kb_table_add_note(t, "one row per timed iteration (warm-ups "
				  "and failed runs left out: n/a); average: "
				  "arithmetic mean; stddev: sample standard "
				  "deviation (n-1)");
		/* a merged report (results_merge()): a row holds each
		 * campaign's k-th iteration, not one round of one machine
		 * state (a new user's trial) */
		if (c->m->campaigns.n > 2)	/* [0]: "" (none) */
			kb_table_add_note(t, "%zu campaigns: a row holds each "
					  "campaign's iteration of that number, "
					  "run at other times: rows pair only "
					  "the columns of one campaign",
					  c->m->campaigns.n - 1);
	} else if (nmax > 1 && nmin == nmax) {
		kb_table_add_note(t, "each cell: the mean of the %zu timed "
				  "runs with that %s and %s; n/a: no run",
				  nmax, r->name, cl->name);
	} else if (nmax > 1) {
		kb_table_add_note(t, "each cell: the mean of the %zu-%zu timed "
				  "runs with that %s and %s; n/a: no run",
				  nmin, nmax, r->name, cl->name);
	} else {
		kb_table_add_note(t, "each cell: the value of the one timed "
				  "run with that %s and %s; n/a: no run",
				  r->name, cl->name);
	}
	kb_scale_note(t, &sc);
	free(means);
	free(have);
	free(avg);
	free(sd);
	free(have_avg);
	free(have_sd);
	vals_free(&rv);
	vals_free(&cv);
	return t;
}

/* Seed 003: rows = configurations without the swept dimension. */
static struct kb_table *scaling(const struct lctx *c, const struct dim *sw)
{
	struct dim rest = { D_REST, sw->name };
	struct vals rv = { 0 }, cv = { 0 };
	struct kb_table *t;
	struct kb_scale sc;
	size_t i, k, n, row, base = 0;
	double *means, *xs;
	char *title, *what, *bid = NULL;
	int *have;
	double x;

	dim_values(c, &rest, &rv);
	dim_values(c, sw, &cv);
	/* the baseline row: the one holding the baseline configuration */
	for (i = 0; i < c->m->nruns; i++) {
		if (!c->rows->baseline || !run_config(c->m, i) ||
		    strcmp(run_config(c->m, i), c->rows->baseline) ||
		    !run_counts(c, i, &x))
			continue;
		bid = run_value(c, i, &rest);
		break;
	}
	for (i = 0; bid && i < rv.n; i++)
		if (!strcmp(rv.v[i], bid))
			base = i;
	means = kb_xcalloc(rv.n * cv.n + 1, sizeof(*means));
	have = kb_xcalloc(rv.n * cv.n + 1, sizeof(*have));
	for (i = 0; i < rv.n; i++) {
		for (k = 0; k < cv.n; k++) {
			xs = sample(c, &rest, rv.v[i], sw, cv.v[k], &n);
			if (n) {
				means[i * cv.n + k] = gsl_stats_mean(xs, 1, n);
				have[i * cv.n + k] = 1;
			}
			free(xs);
		}
	}
	/* the unit in the title, as seed 003's "(numbers expressed in
	 * GB/second)": --prefix auto picks it from the largest mean */
	kb_scale_pick(&sc, c->metric, c->prefix,
		      max_abs(means, have, rv.n * cv.n));
	what = kb_xasprintf("mean by %s", sw->name);
	title = metric_title(c, &sc, what);
	free(what);
	t = kb_table_new(title);
	free(title);
	kb_table_add_col(t, "Kernel", 0, 0);
	for (k = 0; k < cv.n; k++) {
		char *h = kb_xasprintf("%s=%s", sw->name, cv.v[k]);

		kb_table_add_col(t, h, 1, (int)k + 1);
		free(h);
	}
	for (i = 0; i < rv.n; i++) {
		row = kb_table_add_row(t, 0);
		kb_table_set(t, row, 0, "%s", rv.v[i]);
		for (k = 0; k < cv.n; k++)
			set_num(t, row, k + 1, &sc, sc.dec,
				have[i * cv.n + k], means[i * cv.n + k]);
	}
	for (i = 0, k = 1; i < rv.n; i++) {
		if (i == base)
			continue;
		row = kb_table_add_row(t, (int)k);
		k = 0;
		kb_table_set(t, row, 0, "%% change %s", rv.v[i]);
		for (size_t q = 0; q < cv.n; q++) {
			double b = means[base * cv.n + q];

			if (have[i * cv.n + q] && have[base * cv.n + q] &&
			    b != 0)
				kb_table_set(t, row, q + 1, "%+.2f%%",
					     (means[i * cv.n + q] - b) /
					     fabs(b) * 100);
			else
				kb_table_set(t, row, q + 1, "n/a");
		}
	}
	/* one row (one variant): no change rows, none explained */
	if (rv.n > 1)
		kb_table_add_note(t, "mean of the timed runs per cell; %% "
				  "change: vs %s at the same %s; n/a: no run",
				  rv.v[base], sw->name);
	else
		kb_table_add_note(t, "mean of the timed runs per cell; n/a: "
				  "no run");
	kb_scale_note(t, &sc);
	free(bid);
	free(means);
	free(have);
	vals_free(&rv);
	vals_free(&cv);
	return t;
}

/* mmtests compare-kernels.sh: statistic rows x configuration columns. */
static struct kb_table *mmtests(const struct lctx *c)
{
	static const char *const names[] = { "Amean", "Stddev", "CoeffVar",
					      "Min", "Max" };
	struct dim cd = { D_CONFIG, "configuration" };
	struct vals cv = { 0 };
	struct kb_table *t;
	struct kb_scale sc;
	size_t k, s, n, base = 0;
	double (*st)[5], maxv = 0, maxsd = 0;
	int *ok, dec[5];
	double *xs;
	char *title;

	dim_values(c, &cd, &cv);
	for (k = 0; k < cv.n; k++)
		if (c->rows->baseline && !strcmp(cv.v[k], c->rows->baseline))
			base = k;
	st = kb_xcalloc(cv.n + 1, sizeof(*st));
	ok = kb_xcalloc((cv.n + 1) * 5, sizeof(*ok));
	for (k = 0; k < cv.n; k++) {
		xs = sample(c, &cd, cv.v[k], NULL, NULL, &n);
		if (n) {
			st[k][0] = gsl_stats_mean(xs, 1, n);
			st[k][3] = gsl_stats_min(xs, 1, n);
			st[k][4] = gsl_stats_max(xs, 1, n);
			ok[k * 5 + 0] = ok[k * 5 + 3] = ok[k * 5 + 4] = 1;
		}
		if (n >= 2) {
			st[k][1] = gsl_stats_sd(xs, 1, n);
			ok[k * 5 + 1] = 1;
			if (st[k][0] != 0) {
				st[k][2] = st[k][1] / fabs(st[k][0]) * 100;
				ok[k * 5 + 2] = 1;
			}
		}
		free(xs);
		/* --prefix auto: Amean, Min, Max by the largest of them,
		 * Stddev in that prefix with its own decimals; CoeffVar is
		 * a percentage, never scaled */
		if (ok[k * 5 + 4])
			maxv = fmax(maxv, fmax(fabs(st[k][3]),
					       fabs(st[k][4])));
		if (ok[k * 5 + 1])
			maxsd = fmax(maxsd, st[k][1]);
	}
	kb_scale_pick(&sc, c->metric, c->prefix, maxv);
	dec[0] = dec[3] = dec[4] = sc.dec;
	dec[1] = kb_scale_dec(&sc, maxsd);
	dec[2] = 2;
	title = metric_title(c, &sc, "mmtests style");
	t = kb_table_new(title);
	free(title);
	kb_table_add_col(t, "", 0, 0);
	for (k = 0; k < cv.n; k++)
		kb_table_add_col(t, cv.v[k], 1, (int)k + 1);
	for (s = 0; s < 5; s++) {
		size_t row = kb_table_add_row(t, 0);

		kb_table_set(t, row, 0, "%s", names[s]);
		for (k = 0; k < cv.n; k++) {
			double b = st[base][s], v = st[k][s];
			/* CoeffVar: a percentage, as it is */
			double div = s == 2 ? 1 : sc.div;
			const char *cell = s == 2 ? "" : sc.cell;
			int vdec = s == 2 ? dec[s] :
				   kb_scale_cell_dec(&sc, dec[s], v);

			if (!ok[k * 5 + s])
				kb_table_set(t, row, k + 1, "n/a");
			else if (ok[base * 5 + s] && b != 0)
				kb_table_set(t, row, k + 1, "%.*f%s (%6.2f%%)",
					     vdec, v / div, cell, k == base ?
					     0.0 : (v - b) / fabs(b) * 100);
			else
				kb_table_set(t, row, k + 1, "%.*f%s (n/a)",
					     vdec, v / div, cell);
		}
	}
	kb_table_add_note(t, "over the timed runs of each configuration; "
			  "Stddev: sample (n-1); CoeffVar: Stddev/Amean in %%; "
			  "(x.xx%%): change of the row's value vs %s (plain "
			  "sign, not mmtests' \"positive = better\")",
			  cv.n ? cv.v[base] : "the baseline");
	kb_scale_note(t, &sc);
	{
		/* every column against one, as mmtests does: a column
		 * whose own baseline is another (the same-named
		 * configuration of a first campaign, --map) is said */
		char *list = NULL;

		for (k = 0; k < cv.n; k++) {
			const char *own = stats_baseline_for(c->m, cv.v[k]);

			if (k == base || !own || !strcmp(own, cv.v[base]) ||
			    !strcmp(own, cv.v[k]))
				continue;
			kb_str_append(&list, ", ", "%s's is %s", cv.v[k], own);
		}
		if (list)
			kb_table_add_note(t, "every column against %s, as "
				"mmtests compares, not against its own baseline "
				"(%s): the default and lkp layouts compare each "
				"with its own", cv.v[base], list);
		free(list);
	}
	free(st);
	free(ok);
	vals_free(&cv);
	return t;
}

static int significant(const struct kb_analysis *an, const char *cfg,
		       const char *base, const char *job, const char *metric)
{
	const struct kb_comparison_row *e = kb_analysis__comparison(an, cfg,
		base, job, metric);
	const char *v = e ? e->verdict : NULL;

	return kb_verdict_significant(v);
}

/* The analysis of cfg's comparisons with base (stats/compare.h), in
 * words for a legend; "comparison" when there is none. */
static const char *analysis_of(const struct kb_analysis *an, const char *cfg,
			       const char *base, const char *job)
{
	const char *a = NULL, *x;
	size_t i;

	for (i = 0; i < an->ncomparisons; i++) {
		const struct kb_comparison_row *e = &an->comparisons[i];

		if (strcmp(e->configuration ?: "", cfg) ||
		    strcmp(e->baseline ?: "", base) ||
		    strcmp(e->job ?: "", job) || !(x = e->analysis))
			continue;
		if (a && strcmp(a, x))
			return "analyses named in results.json (they differ "
			       "by metric)";
		a = x;
	}
	if (!a)
		return "comparison";
	if (!strcmp(a, "paired"))
		return "paired t-test on the round log ratios";
	if (!strcmp(a, "welch-log"))
		return "unpaired Welch t-test on ln values";
	return "unpaired Welch t-test on the values";
}

/* A change that rounds to 0.0 printed as +0.0, not -0.0. */
static double pct_zero(double v)
{
	return fabs(v) < 0.05 ? 0.0 : v;
}

static void set_pct_sd(struct kb_table *t, size_t row, size_t col,
		       const struct kb_summary_row *s)
{
	double cv = s && s->has_sd ? s->cv_pct : NAN;

	if (isfinite(cv) && cv >= 0.5)
		kb_table_set(t, row, col, "± %2.0f%%", cv);
	else if (!isfinite(cv))
		kb_table_set(t, row, col, "n/a");
}

/* lkp tables fit 80 columns without wrapping a metric name: a name
 * longer than the room the other five columns leave (80 - their text
 * width, at least LKP_MIN_NAME) is cut to that room with "~N" at its
 * end (N numbers the cut names of the table), and a legend under the
 * table gives each full name. */
#define LKP_WIDTH 80
#define LKP_MIN_NAME 16
#define LKP_MAX_HEAD 16	/* a configuration id as a column head */

static void lkp_fit_names(struct kb_table *t)
{
	size_t used = kb_text_cols_width(t, 0, 5), room, r, n = 0, cut;
	char *legend = NULL, *tmp, *name, tag[16];

	room = used + LKP_MIN_NAME < LKP_WIDTH ? LKP_WIDTH - used :
	       LKP_MIN_NAME;
	for (r = 0; r < t->nrows; r++) {
		name = t->rows[r].cells[5];
		if (kb_text_width(name) <= room)
			continue;
		snprintf(tag, sizeof(tag), "~%zu", ++n);
		cut = room - strlen(tag);
		tmp = kb_xasprintf("%s%s %s", legend ? legend : "",
				   legend ? "," : "", tag);
		free(legend);
		legend = kb_xasprintf("%s %s", tmp, name);
		free(tmp);
		kb_table_set(t, r, 5, "%.*s%s", (int)cut, name, tag);
	}
	if (legend)
		kb_table_add_note(t, "metric names cut to fit %d columns:%s",
				  LKP_WIDTH, legend);
	free(legend);
}

/* lkp-tests style: one table per configuration vs its baseline
 * (stats_baseline_for(): the campaign's, the same swept value's, or in
 * merged campaigns the same-named configuration of the first), one row
 * per metric of the job (or only the chosen metrics). */
static void lkp(const struct lctx *c, const struct report_opts *opts,
		struct kb_report_job *j)
{
	const char *base, *m;
	struct vals metrics = { 0 };
	struct kb_table *t;
	const struct kb_summary_row *sb, *sn;
	size_t i, k, row, ntables = 0;
	char *title;
	int dec, short_heads, counted = 0;

	for (i = 0; c->job && i < c->m->nruns; i++)
		counted |= c->m->runs[i].counts && run_job(c->m, i) &&
			   !strcmp(run_job(c->m, i), c->job);
	if (c->job && !counted) {	/* not a table of no rows */
		kb_report_job_note(j, "%s: lkp style: %s", c->job,
				   kb_rmodel__no_counted_why(c->m, c->job));
		return;
	}
	if (opts->metrics) {
		for (i = 0; opts->metrics[i]; i++)
			vals_add(&metrics, opts->metrics[i]);
	} else {
		for (i = 0; i < c->an->nsummaries; i++) {
			const struct kb_summary_row *e = &c->an->summaries[i];

			if (e->job && c->job && !strcmp(e->job, c->job))
				vals_add(&metrics, e->metric);
		}
	}
	for (k = 0; c->rows->baseline && k < c->rows->n; k++) {
		const char *id = c->rows->ids[k];

		/* its own baseline: in merged campaigns the same-named
		 * configuration of the first (stats_baseline_for) */
		base = stats_baseline_for(c->m, id) ?: c->rows->baseline;
		if (!strcmp(id, base))
			continue;
		title = kb_xasprintf("%s: %s vs %s, lkp style", c->job, id,
				     base);
		t = kb_table_new(title);
		free(title);
		/* the two configurations head their columns, as lkp's
		 * commits do, when that fits 80 columns; longer ids are
		 * "base" and "new", named in a note (a 31-character id made
		 * the table 99 columns wide) */
		short_heads = strlen(base) > LKP_MAX_HEAD ||
			      strlen(id) > LKP_MAX_HEAD;
		kb_table_add_col(t, short_heads ? "base" : base, 1, 0);
		kb_table_add_col(t, "%stddev", 1, 0);
		kb_table_add_col(t, "%change", 1, 0);
		kb_table_add_col(t, short_heads ? "new" : id, 1, 0);
		kb_table_add_col(t, "%stddev", 1, 0);
		kb_table_add_col(t, "metric", 0, 0);
		if (short_heads)
			kb_table_add_note(t, "base: %s; new: %s", base, id);
		for (i = 0; i < metrics.n; i++) {
			m = metrics.v[i];
			sb = kb_analysis__summary(c->an, base, c->job, m);
			sn = kb_analysis__summary(c->an, id, c->job, m);
			if (!sb || !sn || !isfinite(sb->mean) ||
			    !isfinite(sn->mean))
				continue;
			dec = kb_metric_decimals(m);
			row = kb_table_add_row(t, 0);
			kb_table_set(t, row, 0, "%.*f",
				     kb_cell_dec(dec, sb->mean), sb->mean);
			set_pct_sd(t, row, 1, sb);
			if (sb->mean != 0)
				kb_table_set(t, row, 2, "%+.1f%%%s", pct_zero(
					(sn->mean - sb->mean) /
					fabs(sb->mean) * 100),
					significant(c->an, id, base, c->job,
						    m) ? "*" : "");
			else
				kb_table_set(t, row, 2, "n/a");
			kb_table_set(t, row, 3, "%.*f",
				     kb_cell_dec(dec, sn->mean), sn->mean);
			set_pct_sd(t, row, 4, sn);
			kb_table_set(t, row, 5, "%s", m);
			if (significant(c->an, id, base, c->job, m))
				kb_table_set_strong(t, row, 2);
		}
		kb_table_add_note(t, "means of the timed runs; %%stddev: "
				  "coefficient of variation (blank below "
				  "0.5%%); %%change: of the mean vs %s, \"*\" "
				  "significant by the %s (see the variants "
				  "layout's legend); metrics measured on both "
				  "sides only", base, analysis_of(c->an,
				  id, base, c->job));
		lkp_fit_names(t);
		kb_report_job_add(j, t);
		ntables++;
	}
	if (!ntables)	/* asked for by name: say why there is none */
		kb_report_job_note(j, "%s: lkp style: no configuration to "
				   "compare with its baseline (%s is the only "
				   "one)", c->job, c->rows->baseline ?
				   c->rows->baseline : "none");
	vals_free(&metrics);
}

int layout_spans_jobs(const struct report_opts *opts)
{
	return opts && ((opts->rows && !strcmp(opts->rows, "job")) ||
			(opts->cols && !strcmp(opts->cols, "job")));
}

int layout_check(const struct kb_rmodel *m, const struct report_opts *opts)
{
	struct kb_profile_rows rows = { 0 };
	const char *labels[64];
	struct dim d;

	if (!opts)
		return 0;
	if (opts->layout && !kb_layout_find(opts->layout)) {
		char *names = kb_layout_names(", ");

		kb_error("--layout %s: no such layout; choose %s, or give "
			 "--rows and --cols", opts->layout, names);
		free(names);
		return -EINVAL;
	}
	/* a named layout is its own table: with --rows/--cols one was
	 * taken and the other half-read (lkp crashed on --rows job, the
	 * others pooled different jobs' values: a new user's trial) */
	if (opts->layout && (opts->rows || opts->cols) &&
	    strcmp(opts->layout, "pivot") &&
	    (strcmp(opts->layout, "scaling") || opts->rows)) {
		kb_error("--layout %s with --%s %s: a layout is a table of its "
			 "own; give --layout, or --rows and --cols (--layout "
			 "scaling takes --cols alone, pivot both)", opts->layout,
			 opts->rows ? "rows" : "cols",
			 opts->rows ? opts->rows : opts->cols);
		return -EINVAL;
	}
	if ((opts->rows != NULL) != (opts->cols != NULL) &&
	    (!opts->layout || strcmp(opts->layout, "scaling") ||
	     opts->rows)) {
		kb_error("--%s %s given without --%s: a table needs both "
			 "(e.g. --rows iteration --cols configuration); "
			 "--layout scaling takes --cols alone",
			 opts->rows ? "rows" : "cols",
			 opts->rows ? opts->rows : opts->cols,
			 opts->rows ? "cols" : "rows");
		return -EINVAL;
	}
	if (opts->rows && opts->cols && !strcmp(opts->rows, opts->cols)) {
		kb_error("--rows and --cols are both '%s': choose two different "
			 "dimensions", opts->rows);
		return -EINVAL;
	}
	if (!opts->rows && !opts->cols)
		return 0;	/* no dimension to check (m may be NULL) */
	/* tunable labels of the results, for the dimension names */
	rows.labels = labels;
	rows.nlabels = kb_rcampaign__labels(&m->campaign, labels, 64);
	if (opts->rows && parse_dim(m, &rows, "--rows", opts->rows, &d))
		return -EINVAL;
	if (opts->cols && parse_dim(m, &rows, "--cols", opts->cols, &d))
		return -EINVAL;
	return 0;
}

/* The presets of the table model (layout.h), each a builder. */
static int lay_rounds(const struct lctx *c, const struct report_opts *opts,
		      struct kb_report_job *j)
{
	struct dim r = { D_ITER, "iteration" }, cl = { D_CONFIG,
						       "configuration" };

	(void)opts;
	kb_report_job_add(j, pivot(c, &r, &cl, "per round"));
	return 0;
}

static int lay_scaling(const struct lctx *c, const struct report_opts *opts,
		       struct kb_report_job *j)
{
	const char *sw = opts->cols ? opts->cols : first_param(c->m);
	struct dim cl;

	if (!sw && c->rows->nlabels)
		sw = c->rows->labels[c->rows->nlabels - 1];
	if (!sw) {
		kb_error("--layout scaling: nothing is swept in these "
			 "results; add 'sweep numjobs = 1 2 4' (or a "
			 "tunable with several values) to kernels.conf, "
			 "or name the dimension with --cols");
		return -EINVAL;
	}
	if (parse_dim(c->m, c->rows, "--cols", sw, &cl))
		return -EINVAL;
	if (cl.kind != D_TUNABLE && cl.kind != D_PARAM) {
		kb_error("--layout scaling --cols %s: the swept "
			 "dimension must be a tunable label or a swept "
			 "job parameter", sw);
		return -EINVAL;
	}
	kb_report_job_add(j, scaling(c, &cl));
	return 0;
}

static int lay_mmtests(const struct lctx *c, const struct report_opts *opts,
		       struct kb_report_job *j)
{
	(void)opts;
	kb_report_job_add(j, mmtests(c));
	return 0;
}

static int lay_lkp(const struct lctx *c, const struct report_opts *opts,
		   struct kb_report_job *j)
{
	lkp(c, opts, j);
	return 0;
}

static int lay_pivot(const struct lctx *c, const struct report_opts *opts,
		     struct kb_report_job *j)
{
	struct dim r, cl;

	if (!opts->rows || !opts->cols) {
		kb_error("--layout pivot needs --rows DIM and --cols "
			 "DIM (e.g. --rows iteration --cols "
			 "configuration)");
		return -EINVAL;
	}
	if (parse_dim(c->m, c->rows, "--rows", opts->rows, &r) ||
	    parse_dim(c->m, c->rows, "--cols", opts->cols, &cl))
		return -EINVAL;
	kb_report_job_add(j, pivot(c, &r, &cl, "mean per cell"));
	return 0;
}

static const struct {
	const char *name;
	int (*build)(const struct lctx *c, const struct report_opts *opts,
		     struct kb_report_job *j);
} presets[] = {
	{ "rounds", lay_rounds },
	{ "scaling", lay_scaling },
	{ "mmtests", lay_mmtests },
	{ "lkp", lay_lkp },
	{ "pivot", lay_pivot },
};

/* 1 when a timed, successful run of the context's job has a value of
 * its metric; else 0 and a note saying so is appended to j (as the
 * variants table's title says it), not a table of no cells. */
static int metric_measured(const struct lctx *c, struct kb_report_job *j)
{
	const char *job;
	size_t r;
	double x;
	int ran = 0;

	for (r = 0; r < c->m->nruns; r++) {
		if (run_counts(c, r, &x))
			return 1;
		job = run_job(c->m, r);
		ran |= c->m->runs[r].counts && job && !strcmp(job, c->job);
	}
	kb_report_job_note(j, "%s: %s: %s", c->job, c->metric ? c->metric :
			   "(no metric)", ran ? "not measured by this job" :
			   kb_rmodel__no_counted_why(c->m, c->job));
	return 0;
}

int layout_job_tables(const struct kb_rmodel *m, const struct kb_analysis *an,
		      const char *job, const char *metric,
		      const struct kb_profile_rows *rows,
		      const struct report_opts *opts, struct kb_report_job *j)
{
	struct lctx c = { m, an, rows, NULL, KB_RMODEL_NONE, 0, job, metric,
			  report_prefix(opts, m) };
	const char *name = opts->layout ? opts->layout : "pivot";
	size_t i;
	int ret = -EINVAL;

	c.rcfg = kb_xcalloc(rows->n + 1, sizeof(*c.rcfg));
	for (i = 0; i < rows->n; i++)
		c.rcfg[i] = kb_rcampaign__config(&m->campaign, rows->ids[i]);
	c.metric_k = metric ? kb_rmodel__metric(m, metric) : KB_RMODEL_NONE;
	c.warmup = m->campaign.warmup > 0 ? m->campaign.warmup : 0;
	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			break;
	if (i < sizeof(presets) / sizeof(presets[0]) &&
	    strcmp(name, "lkp") && job && !metric_measured(&c, j))
		ret = 0;
	else if (i < sizeof(presets) / sizeof(presets[0]))
		ret = presets[i].build(&c, opts, j);
	else
		kb_error("--layout %s: not a preset of the table model", name);
	free(c.rcfg);
	return ret;
}
