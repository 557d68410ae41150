/* results/rmodel.c - see rmodel.h. */
#include "results/rmodel.h"
#include "lib/str.h"
#include "results/json.h"
#include "results/model.h"
#include "results/paths.h"
#include "results/run_values.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A new column for name: nruns NANs (values grows by doubling). */
static size_t add_metric(struct kb_rmodel *m, const char *name, size_t *cap)
{
	/* def: the table's own name alone (stats/summary.c lists those
	 * first, the others after); a load host's metric has its METRIC's
	 * unit and direction */
	const struct kb_metric_def *def = kb_metric_find(name),
				   *like = kb_metric_find_key(name);
	size_t k = m->nmetrics, r;

	if (k == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		m->metrics = kb_xrealloc(m->metrics, *cap * sizeof(*m->metrics));
		m->values = kb_xrealloc(m->values, (*cap * m->nruns + 1) *
					sizeof(*m->values));
	}
	m->metrics[k].name = kb_xstrdup(name);
	m->metrics[k].def = def;
	m->metrics[k].unit = like ? like->unit : "";
	m->metrics[k].direction = like ? like->direction : KB_NEUTRAL;
	for (r = 0; r < m->nruns; r++)
		m->values[k * m->nruns + r] = NAN;
	json_object_set_new(m->metric_index, name, json_integer((json_int_t)k));
	m->nmetrics++;
	return k;
}

/* The column of name; runs mostly list their metrics in the same order,
 * so the column after the previous key's is tried before the hash. */
static size_t column_of(const struct kb_rmodel *m, const char *name,
			size_t hint)
{
	if (hint < m->nmetrics && !strcmp(m->metrics[hint].name, name))
		return hint;
	return kb_rmodel__metric(m, name);
}

static void free_groups(struct kb_rmodel *m)
{
	free(m->group_off);
	free(m->group_runs);
	free(m->group_order);
	free(m->group_iter);
	free(m->group_values);
	free(m->group_pos);
}

/* The number of counted runs in some group: the length of group_runs
 * and the stride of group_values' columns. */
static size_t grouped_runs(const struct kb_rmodel *m)
{
	return m->group_off[m->configs.n * m->jobs.n];
}

/* Counted runs by (configuration, job), in run order (counting sort). */
static void build_groups(struct kb_rmodel *m)
{
	size_t ng = m->configs.n * m->jobs.n, r, g, k, *fill;

	m->group_off = kb_xcalloc(ng + 2, sizeof(*m->group_off));
	m->group_runs = kb_xcalloc(m->nruns + 1, sizeof(*m->group_runs));
	m->group_order = kb_xcalloc(m->nruns + 1, sizeof(*m->group_order));
	m->group_iter = kb_xcalloc(m->nruns + 1, sizeof(*m->group_iter));
	for (r = 0; r < m->nruns; r++)
		if (m->runs[r].counts && m->runs[r].config != KB_RMODEL_NONE &&
		    m->runs[r].job != KB_RMODEL_NONE)
			m->group_off[m->runs[r].config * m->jobs.n +
				     m->runs[r].job + 1]++;
	for (g = 0; g < ng; g++)
		m->group_off[g + 1] += m->group_off[g];
	fill = kb_xcalloc(ng + 1, sizeof(*fill));
	for (r = 0; r < m->nruns; r++) {
		const struct kb_rrun *x = &m->runs[r];

		if (!x->counts || x->config == KB_RMODEL_NONE ||
		    x->job == KB_RMODEL_NONE)
			continue;
		g = x->config * m->jobs.n + x->job;
		m->group_order[m->group_off[g] + fill[g]] = x->order;
		m->group_iter[m->group_off[g] + fill[g]] = x->iteration;
		m->group_runs[m->group_off[g] + fill[g]++] = r;
	}
	free(fill);
	/* the values in group order: each column read once, in order, and
	 * written into as many ascending streams as there are groups */
	m->group_pos = kb_xcalloc(m->nruns + 1, sizeof(*m->group_pos));
	for (r = 0; r < m->nruns; r++)
		m->group_pos[r] = KB_RMODEL_NONE;
	for (r = 0; r < grouped_runs(m); r++)
		m->group_pos[m->group_runs[r]] = r;
	m->group_values = kb_xcalloc(m->nmetrics * grouped_runs(m) + 1,
				     sizeof(*m->group_values));
	for (k = 0; k < m->nmetrics; k++) {
		const double *col = m->values + k * m->nruns;
		double *gv = m->group_values + k * grouped_runs(m);

		for (r = 0; r < m->nruns; r++)
			if (m->group_pos[r] != KB_RMODEL_NONE)
				gv[m->group_pos[r]] = col[r];
	}
}

static void add_bad(struct kb_rmodel *m, size_t *cap, size_t run,
		    const char *metric, const char *why, double value)
{
	if (m->nbad == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		m->bad = kb_xrealloc(m->bad, *cap * sizeof(*m->bad));
	}
	m->bad[m->nbad].run = run;
	m->bad[m->nbad].metric = metric;
	m->bad[m->nbad].why = why;
	m->bad[m->nbad++].value = value;
}

/* Values no statistic may take (struct kb_rbad): NAN in the matrix, and
 * named for counted runs.  One pass over the matrix, whichever way its
 * numbers were loaded (the tree, or kb_run_values beside it). */
static void check_ranges(struct kb_rmodel *m, size_t *cap)
{
	size_t k, r;

	for (k = 0; k < m->nmetrics; k++) {
		double *col = m->values + k * m->nruns;
		int known = m->metrics[k].def != NULL;

		for (r = 0; r < m->nruns; r++) {
			double d = col[r];
			const char *why;

			if (isnan(d))
				continue;
			if (!(fabs(d) <= KB_METRIC_ABS_MAX))
				why = "is out of range";
			else if (d < 0.0 && known)
				why = "is negative";
			else
				continue;
			col[r] = NAN;
			if (m->runs[r].counts)
				add_bad(m, cap, r, m->metrics[k].name, why, d);
		}
	}
}

/* for drop_duplicates(): counted runs by campaign, iteration, index */
static const struct kb_rmodel *dup_model;

static int cmp_dup(const void *a, const void *b)
{
	const struct kb_rrun *x = &dup_model->runs[*(const size_t *)a];
	const struct kb_rrun *y = &dup_model->runs[*(const size_t *)b];

	if (x->campaign != y->campaign)
		return x->campaign < y->campaign ? -1 : 1;
	if (x->iteration != y->iteration)
		return x->iteration < y->iteration ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 :
	       *(const size_t *)a > *(const size_t *)b;
}

/* A counted run that is another's copy (same campaign, configuration,
 * job and iteration: a results file edited or concatenated) would be
 * pooled as a second sample of one measurement: each later copy is
 * excluded ("excluded": "duplicate" in the tree, so a model built again
 * on it agrees) and the first is named once.  1 when any was. */
static int drop_duplicates(struct kb_rmodel *m)
{
	size_t ng = m->configs.n * m->jobs.n, g, i, n, first = 0, ndup = 0;
	size_t *idx = kb_xcalloc(grouped_runs(m) + 1, sizeof(*idx));

	dup_model = m;
	for (g = 0; g < ng; g++) {
		n = m->group_off[g + 1] - m->group_off[g];
		if (n < 2)
			continue;
		memcpy(idx, m->group_runs + m->group_off[g], n * sizeof(*idx));
		/* a campaign's runs come in order: sorted only when not
		 * (qsort was 0.8% of a 100k-run report, issue 16) */
		for (i = 1; i < n && cmp_dup(&idx[i - 1], &idx[i]) < 0; i++)
			;
		if (i < n)
			qsort(idx, n, sizeof(*idx), cmp_dup);
		for (i = 1; i < n; i++) {
			struct kb_rrun *a = &m->runs[idx[i - 1]];
			struct kb_rrun *b = &m->runs[idx[i]];

			/* "iteration" is optional (results from elsewhere):
			 * runs without one are never copies of each other */
			if (a->campaign != b->campaign ||
			    a->iteration != b->iteration ||
			    !json_is_integer(json_object_get(a->json,
							     "iteration")) ||
			    !json_is_integer(json_object_get(b->json,
							     "iteration")))
				continue;
			if (!ndup++)
				first = idx[i];
			b->counts = 0;
			json_object_set_new(b->json, "excluded",
					    json_string("duplicate"));
			kb_rrun_info__clear(&b->info);
			kb_rrun_info__fill(&b->info, b->json);
		}
	}
	free(idx);
	if (ndup) {
		const struct kb_rrun *x = &m->runs[first];
		char lb[KB_ITER_LABEL_MAX];

		kb_warn("%zu run(s) appear twice in the results (first: %s %s "
			"iteration %s, runs[%zu]): the first of each is kept, every "
			"later copy left out of the statistics (a results file "
			"edited or concatenated?)",
			ndup, m->configs.v[x->config], m->jobs.v[x->job],
			kb_iteration_label(x->iteration, m->campaign.warmup > 0 ?
					   m->campaign.warmup : 0, lb), first);
	}
	return ndup > 0;
}

/* The model of results and its runs array, without analysis nor extra
 * runs. */
static struct kb_rmodel *build(json_t *results, json_t *runs,
			       const struct kb_run_values *vals)
{
	json_t *c, *run, *v;
	struct kb_rmodel *m;
	const char *name;
	size_t i, r, cap = 0, capbad = 0, nodd = 0, odd_first = 0;

	m = kb_xcalloc(1, sizeof(*m));
	m->results = results;
	m->metric_index = json_object();
	m->nruns = json_array_size(runs);
	m->runs = kb_xcalloc(m->nruns + 1, sizeof(*m->runs));
	json_array_foreach(json_object_get(results, "configurations"), i, c)
		kb_strlist_add(&m->configs, kb_jstr(c, "id"));
	json_array_foreach(json_object_get(json_object_get(results,
					   "campaign"), "jobs"), i, c)
		kb_strlist_add(&m->jobs, json_string_value(c));
	kb_strlist_add(&m->campaigns, "");
	/* the numbers loaded beside the tree first: the same columns in the
	 * same order as from the tree (first met, rows in order) */
	for (i = 0; vals && i < vals->nmetrics; i++) {
		size_t k = add_metric(m, vals->names[i], &cap);

		/* vals->nrows == m->nruns: kb_rmodel__new_values() */
		memcpy(m->values + k * m->nruns, vals->cols[i],
		       m->nruns * sizeof(double));
	}
	json_array_foreach(runs, r, run) {
		struct kb_rrun *x = &m->runs[r];
		json_t *it = json_object_get(run, "iteration");
		int bad_it;
		const char *cfg = kb_jstr(run, "configuration");
		const char *job = kb_jstr(run, "job");
		const char *status = kb_jstr(run, "status");
		json_t *ord = json_object_get(run, "order");
		size_t hint = 0, k;

		kb_strlist_add(&m->configs, cfg);
		kb_strlist_add(&m->jobs, job);
		kb_strlist_add(&m->campaigns, kb_jstr(run, "campaign"));
		x->json = run;
		x->config = cfg ? kb_strlist_index(&m->configs, cfg) :
			    KB_RMODEL_NONE;
		x->job = job ? kb_strlist_index(&m->jobs, job) : KB_RMODEL_NONE;
		x->iteration = (long)json_integer_value(it);
		/* a damaged file: said, not read as round 0 in silence (a
		 * helper's trial: "abc" paired the run with round 0) */
		bad_it = it && (!json_is_integer(it) ||
				json_integer_value(it) < 0);
		if (bad_it || !cfg || !job) {
			if (!nodd++)
				odd_first = r;
			if (bad_it)
				json_object_set_new(run, "excluded", json_string(
					"damaged: \"iteration\" is not a whole "
					"number >= 0"));
		}
		x->order = json_is_number(ord) ? json_number_value(ord) :
			   (double)r;
		x->campaign = kb_strlist_index(&m->campaigns,
					       kb_jstr(run, "campaign") ?: "");
		x->ok = status && !strcmp(status, "ok");
		x->warmup = json_is_true(json_object_get(run, "warmup"));
		x->counts = kb_run_counts(run);
		x->fixed_work = !strcmp(kb_jstr(run, "work") ?: "", "fixed");
		kb_rrun_info__fill(&x->info, run);
		json_object_foreach(json_object_get(run, "metrics"), name, v) {
			if (!json_is_number(v)) {
				if (!json_is_null(v) && x->counts)
					add_bad(m, &capbad, r, name,
						"is not a number", NAN);
				continue;
			}
			k = column_of(m, name, hint);
			if (k == KB_RMODEL_NONE)
				k = add_metric(m, name, &cap);
			m->values[k * m->nruns + r] = json_number_value(v);
			hint = k + 1;
		}
	}
	if (nodd)
		kb_warn("%zu run(s) of the results have no \"configuration\" or "
			"\"job\" string, or an \"iteration\" that is not a "
			"whole number >= 0 (first: runs[%zu]; "
			"docs/results-format.md): each is left out of the "
			"statistics",
			nodd, odd_first);
	check_ranges(m, &capbad);
	kb_rcampaign__fill(&m->campaign, results);
	build_groups(m);
	if (drop_duplicates(m)) {
		free_groups(m);
		build_groups(m);
	}
	return m;
}

/* kb_rmodel__new() and kb_rmodel__new_values() (values NULL or checked
 * against the runs there). */
static struct kb_rmodel *new_model(json_t *results, json_t *runs,
				   const struct kb_run_values *values)
{
	struct kb_rmodel *m = build(results, runs, values);

	kb_analysis__from_json(results, &m->analysis);
	if (json_array_size(json_object_get(results, "profiling_runs")))
		m->profiling = kb_rmodel__new_extra(results, NULL);
	return m;
}

struct kb_rmodel *kb_rmodel__new(json_t *results)
{
	json_t *runs = json_object_get(results, "runs");

	if (!json_is_array(runs)) {
		kb_error("results model has no \"runs\" array; is this a "
			 "kbench results.json (docs/results-format.md)?");
		return NULL;
	}
	return new_model(results, runs, NULL);
}

struct kb_rmodel *kb_rmodel__new_values(json_t *results,
					struct kb_run_values *values)
{
	json_t *runs = json_object_get(results, "runs");
	struct kb_rmodel *m = NULL;

	if (!json_is_array(runs) || values->nrows != json_array_size(runs))
		kb_error("results model has no \"runs\" array of the %zu "
			 "runs its values were loaded for", values->nrows);
	else
		m = new_model(results, runs, values);
	kb_run_values__delete(values);	/* in the matrix now */
	return m;
}

struct kb_rmodel *kb_rmodel__new_extra(json_t *results, const char *extra)
{
	json_t *tree = json_object(), *runs = json_array(), *run, *v;
	struct kb_rmodel *m;
	size_t i;

	json_array_foreach(json_object_get(results, "profiling_runs"), i, run)
		if (!extra || !strcmp(kb_jstr(run, "extra") ?: "", extra))
			json_array_append(runs, run);
	if ((v = json_object_get(results, "campaign")))
		json_object_set(tree, "campaign", v);
	if ((v = json_object_get(results, "configurations")))
		json_object_set(tree, "configurations", v);
	json_object_set_new(tree, "runs", runs);
	m = build(tree, runs, NULL);
	m->owned = tree;
	return m;
}

struct kb_rmodel *kb_rmodel__load(const char *dir, int reparse)
{
	json_t *res = results_load_campaign(dir, reparse);
	struct kb_rmodel *m;

	if (!res)
		return NULL;	/* named by results_load_campaign() */
	m = kb_rmodel__new(res);
	if (!m) {
		json_decref(res);
		return NULL;
	}
	m->owned = res;
	return m;
}

void kb_rmodel__reread_runs(struct kb_rmodel *m)
{
	size_t r;

	for (r = 0; r < m->nruns; r++) {
		kb_rrun_info__clear(&m->runs[r].info);
		kb_rrun_info__fill(&m->runs[r].info, m->runs[r].json);
	}
}

void kb_rmodel__delete(struct kb_rmodel *m)
{
	size_t k;

	if (!m)
		return;
	for (k = 0; k < m->nmetrics; k++)
		free(m->metrics[k].name);
	for (k = 0; k < m->nruns; k++)
		kb_rrun_info__clear(&m->runs[k].info);
	kb_rcampaign__clear(&m->campaign);
	free(m->metrics);
	free(m->values);
	free(m->runs);
	free(m->bad);
	free_groups(m);
	free(m->configs.v);
	free(m->jobs.v);
	free(m->campaigns.v);
	json_decref(m->metric_index);
	kb_analysis__clear(&m->analysis);
	kb_rmodel__delete(m->profiling);
	json_decref(m->owned);
	free(m);
}

size_t kb_rmodel__metric(const struct kb_rmodel *m, const char *name)
{
	json_t *k = json_object_get(m->metric_index, name);

	return k ? (size_t)json_integer_value(k) : KB_RMODEL_NONE;
}

size_t kb_rmodel__config(const struct kb_rmodel *m, const char *id)
{
	size_t c = id ? kb_strlist_index(&m->configs, id) : m->configs.n;

	return c < m->configs.n ? c : KB_RMODEL_NONE;
}

size_t kb_rmodel__job(const struct kb_rmodel *m, const char *name)
{
	size_t j = name ? kb_strlist_index(&m->jobs, name) : m->jobs.n;

	return j < m->jobs.n ? j : KB_RMODEL_NONE;
}

const size_t *kb_rmodel__group(const struct kb_rmodel *m, size_t c, size_t j,
			       size_t *n)
{
	size_t g;

	if (c == KB_RMODEL_NONE || j == KB_RMODEL_NONE || c >= m->configs.n ||
	    j >= m->jobs.n) {
		*n = 0;
		return m->group_runs;
	}
	g = c * m->jobs.n + j;
	*n = m->group_off[g + 1] - m->group_off[g];
	return m->group_runs + m->group_off[g];
}

const double *kb_rmodel__group_values(const struct kb_rmodel *m, size_t c,
				      size_t j, size_t k)
{
	size_t n;
	const size_t *g = kb_rmodel__group(m, c, j, &n);

	if (!n || k >= m->nmetrics)
		return NULL;
	return m->group_values + k * grouped_runs(m) +
	       (size_t)(g - m->group_runs);
}

void kb_rmodel__drop(struct kb_rmodel *m, size_t r, size_t k)
{
	if (r < m->nruns && k < m->nmetrics) {
		m->values[k * m->nruns + r] = NAN;
		/* every model has its groups (build()) */
		if (m->group_pos[r] != KB_RMODEL_NONE)
			m->group_values[k * grouped_runs(m) +
					m->group_pos[r]] = NAN;
	}
}

int kb_rmodel__names_metric(const struct kb_rmodel *m, const char *name)
{
	size_t r;

	/* a column: some run has a number for it (in the tree or, loaded
	 * with kb_rmodel__new_values(), beside it) */
	if (name && kb_rmodel__metric(m, name) != KB_RMODEL_NONE)
		return 1;
	for (r = 0; name && r < m->nruns; r++)
		if (json_object_get(json_object_get(m->runs[r].json,
						    "metrics"), name))
			return 1;
	return 0;
}

const char *kb_rmodel__no_counted_why(const struct kb_rmodel *m,
				      const char *job)
{
	size_t r, j = kb_rmodel__job(m, job);
	int timed = 0, ok = 0;

	for (r = 0; j != KB_RMODEL_NONE && r < m->nruns; r++) {
		if (m->runs[r].job != j || m->runs[r].warmup)
			continue;
		timed = 1;
		ok |= m->runs[r].ok;
	}
	if (ok)
		return "no run counted (all left out of the statistics)";
	return timed || !m->nruns ? "no successful runs" : "no timed run yet";
}

int kb_rmodel__metric_asked_ok(const struct kb_rmodel *m, const char *name)
{
	return kb_rmodel__names_metric(m, name) ||
	       (!m->nruns && kb_metric_find(name));
}

const char *kb_rmodel__metric_near(const struct kb_rmodel *m,
				   const char *name)
{
	const char *best = NULL;
	size_t k, bestd = (size_t)-1;

	for (k = 0; name && k < m->nmetrics; k++)	/* READ.IOPS */
		if (!strcasecmp(name, m->metrics[k].name))
			return m->metrics[k].name;
	for (k = 0; name && k < m->nmetrics; k++)
		if (kb_nearer(name, m->metrics[k].name, &bestd))
			best = m->metrics[k].name;
	return best;
}

/* m's metrics that name is part of ("iops": read.iops, write.iops) or
 * that have name's field in another direction (write.iops: read.iops),
 * else those of name's group (perf.cycles: perf.*), at most 6, as "a,
 * b, c" (malloc'd; *n of them), or NULL. */
static char *metrics_like(const struct kb_rmodel *m, const char *name,
			  size_t *n)
{
	const char *field = strchr(name, '.'), *mf;
	char *list = NULL;
	size_t k, pass;

	*n = 0;
	for (pass = 0; pass < 2 && !*n; pass++) {
		for (k = 0; *name && k < m->nmetrics && *n < 6; k++) {
			const char *mn = m->metrics[k].name;

			mf = strchr(mn, '.');
			if (pass == 0 && !strcasestr(mn, name) &&
			    !(field && field[1] && mf && !strcasecmp(mf, field)))
				continue;
			if (pass == 1 && !(field && mf && field - name ==
					   mf - mn && !strncasecmp(mn, name,
						(size_t)(field - name))))
				continue;
			kb_str_append(&list, ", ", "%s", mn);
			(*n)++;
		}
	}
	return list;
}

int kb_rmodel__no_metric(const struct kb_rmodel *m, const char *asked)
{
	/* the name as typed, printed: control bytes as '?', cut at 80 */
	char *name = kb_xstrndup_printable(asked, 80);
	const char *near = kb_rmodel__metric_near(m, asked);
	int known = kb_metric_find(asked) != NULL;
	size_t nlike = 0;
	char *like = near ? NULL : metrics_like(m, asked, &nlike);
	const char *what = known ? "no run in these results has a value for "
				   "it" : "no such metric in these results";

	if (near)
		kb_error("--metric '%s': %s; did you mean '%s'?", name, what,
			 near);
	else if (like)
		kb_error("--metric '%s': %s; did you mean %s%s%s?", name, what,
			 nlike > 1 ? "one of " : "'", like,
			 nlike > 1 ? "" : "'");
	else
		kb_error("--metric '%s': %s (names look like read.iops, "
			 "read.clat_p99_ns, cpu.iowait_pct)", name, what);
	free(like);
	free(name);
	return -EINVAL;
}

void kb_rmodel__outliers_clear(struct kb_rmodel *m)
{
	size_t r;

	for (r = 0; r < m->nruns; r++) {
		struct kb_rrun *x = &m->runs[r];

		if (!x->counts)
			continue;
		json_object_set_new(x->json, "outliers", json_array());
		free(x->info.outliers.v);
		x->info.outliers.v = NULL;
		x->info.outliers.n = 0;
	}
}

void kb_rmodel__outlier_add(struct kb_rmodel *m, size_t r, size_t k)
{
	struct kb_rrun *x = &m->runs[r];
	struct kb_rstrs *o = &x->info.outliers;
	json_t *a = json_object_get(x->json, "outliers");
	json_t *name = json_string(m->metrics[k].name);

	if (!json_is_array(a)) {
		a = json_array();
		json_object_set_new(x->json, "outliers", a);
		o->n = 0;
	}
	json_array_append_new(a, name);
	o->v = kb_xrealloc(o->v, (o->n + 1) * sizeof(*o->v));
	o->v[o->n++] = json_string_value(name);
}

void kb_rmodel__outliers_exclude(struct kb_rmodel *m)
{
	size_t r, t;
	json_t *v;

	for (r = 0; r < m->nruns; r++) {
		json_t *run = m->runs[r].json, *ex, *mm;
		json_t *outl = json_object_get(run, "outliers");

		if (!json_array_size(outl))
			continue;
		mm = json_object_get(run, "metrics");
		ex = json_object();
		json_array_foreach(outl, t, v) {
			const char *name = json_string_value(v);
			size_t k = kb_rmodel__metric(m, name);
			json_t *val = json_object_get(mm, name);

			/* a number loaded beside the tree is only in the
			 * matrix (kb_rmodel__new_values()) */
			if (!val && k != KB_RMODEL_NONE &&
			    !isnan(kb_rmodel__value(m, r, k)))
				json_object_set_new(ex, name, json_real(
					kb_rmodel__value(m, r, k)));
			else if (val)
				json_object_set(ex, name, val);
			kb_rmodel__drop(m, r, k);
			json_object_del(mm, name);
		}
		json_object_set_new(run, "excluded_outliers", ex);
	}
}

void kb_rmodel__set_disturbed(struct kb_rmodel *m, size_t r,
			      const char *const *why, size_t n, int exclude)
{
	struct kb_rrun *x = &m->runs[r];
	json_t *run = x->json, *a;
	const char *ex = kb_jstr(run, "excluded");
	size_t i;

	json_object_del(run, "disturbed");
	if (ex && !strcmp(ex, "disturbed"))
		json_object_del(run, "excluded");
	if (n) {
		a = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(a, json_string(why[i]));
		json_object_set_new(run, "disturbed", a);
		if (exclude)
			json_object_set_new(run, "excluded",
					    json_string("disturbed"));
	}
	kb_rrun_info__clear(&x->info);
	kb_rrun_info__fill(&x->info, run);
	x->counts = kb_run_counts(run);
}

void kb_rmodel__set_disturbed_settings(struct kb_rmodel *m,
		const struct kb_rdisturbed_settings *s, int exclude)
{
	json_t *opts;

	json_object_set_new(m->results, "disturbed_settings", json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"other_cpu_pct", kb_jreal(s->other_cpu_pct),
		"other_factor", kb_jreal(s->other_factor),
		"other_cpu_q1", kb_jreal(s->other_cpu_q1),
		"other_cpu_limit", kb_jreal(s->other_cpu_limit),
		"steal_pct", kb_jreal(s->steal_pct),
		"psi_pct", kb_jreal(s->psi_pct),
		"idle_fraction", kb_jreal(s->idle_fraction),
		"idle_q3", kb_jreal(s->idle_q3),
		"idle_limit", kb_jreal(s->idle_limit)));
	opts = kb_json_object_member(m->results, "analysis_options");
	json_object_set_new(opts, "exclude_disturbed", json_boolean(exclude));
	m->campaign.disturbed = *s;
	m->campaign.disturbed.present = 1;
	m->campaign.exclude_disturbed = exclude != 0;
	free_groups(m);
	build_groups(m);
}
