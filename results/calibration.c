/* results/calibration.c - calibration.json; see results/calibration.h. */
#include "results/calibration.h"
#include "results/json.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "lib/str.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A counted run's round and value. */
struct round_value {
	json_int_t it;
	size_t at;		/* its index in runs */
	double v;		/* NAN: no value */
};

static int by_round(const void *a, const void *b)
{
	const struct round_value *x = a, *y = b;

	if (x->it != y->it)
		return x->it < y->it ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The counted runs of (config, job) and their value of metric (NAN when
 * none), by round (*n of them, malloc'd); the first in runs of a round
 * kept, should the model have two. */
static struct round_value *round_values(json_t *runs, const char *config,
					const char *job, const char *metric,
					size_t *n)
{
	struct round_value *rv = kb_xcalloc(json_array_size(runs) + 1,
					    sizeof(*rv));
	json_t *r, *v;
	size_t i, k;

	*n = 0;
	json_array_foreach(runs, i, r) {
		if (!kb_run_counts(r) ||
		    strcmp(kb_jstr(r, "configuration") ?: "", config) ||
		    strcmp(kb_jstr(r, "job") ?: "", job) ||
		    !json_is_integer(json_object_get(r, "iteration")) ||
		    json_integer_value(json_object_get(r, "iteration")) < 0)
			continue;
		v = json_object_get(json_object_get(r, "metrics"), metric);
		rv[*n].it = json_integer_value(json_object_get(r,
							       "iteration"));
		rv[*n].at = i;
		rv[(*n)++].v = json_is_number(v) ? json_number_value(v) : NAN;
	}
	qsort(rv, *n, sizeof(*rv), by_round);
	for (i = k = 0; i < *n; i++)
		if (!k || rv[k - 1].it != rv[i].it)
			rv[k++] = rv[i];
	*n = k;
	return rv;
}

/* The rounds where both copies have a value, matched by round id (a
 * hole, a failed or excluded run, is skipped), in round order: one
 * sort, sized by the runs (an "iteration" of 2^62 in results.json sized
 * two arrays by it, and every round was a scan of every run). */
static void add_samples(struct kb_calibration *cal, json_t *runs,
			json_t *cmp, const char *copy1, const char *copy2)
{
	struct kb_calib_metric *m;
	const char *job = kb_jstr(cmp, "job"), *metric = kb_jstr(cmp, "metric");
	struct round_value *a, *b;
	size_t na, nb, i = 0, j = 0;

	cal->m = kb_xrealloc(cal->m, (cal->nm + 1) * sizeof(*cal->m));
	m = &cal->m[cal->nm++];
	memset(m, 0, sizeof(*m));
	m->job = kb_xstrdup(job);
	m->metric = kb_xstrdup(metric);
	a = round_values(runs, copy1, job ?: "", metric ?: "", &na);
	b = round_values(runs, copy2, job ?: "", metric ?: "", &nb);
	m->copy1 = kb_xcalloc((na < nb ? na : nb) + 1, sizeof(double));
	m->copy2 = kb_xcalloc((na < nb ? na : nb) + 1, sizeof(double));
	while (i < na && j < nb) {
		if (a[i].it < b[j].it) {
			i++;
		} else if (a[i].it > b[j].it) {
			j++;
		} else if (!isfinite(a[i].v) || !isfinite(b[j].v)) {
			i++;	/* a hole */
			j++;
		} else {
			m->copy1[m->n] = a[i++].v;
			m->copy2[m->n++] = b[j++].v;
		}
	}
	free(a);
	free(b);
	m->min_effect_pct = json_number_value(json_object_get(cmp,
							"min_effect_pct"));
	m->max_mde_pct = json_number_value(json_object_get(cmp, "max_mde_pct"));
	m->cv_pct[0] = m->cv_pct[1] = NAN;
	m->sd_log_pct = m->sd_log_ratio_pct = m->corr = m->corr_p = NAN;
}

int results_calibration_samples(const char *dir, const char *copy1,
				const char *copy2, struct kb_calibration *cal)
{
	char *path = kb_path_join(dir, "results.json");
	json_t *res = kb_json_load(path), *runs, *r, *cmp;
	size_t i;
	int ret = 0;

	if (!res) {
		free(path);
		return -EINVAL;
	}
	runs = json_object_get(res, "runs");
	json_array_foreach(runs, i, r) {
		if (!kb_run_counts(r))
			continue;
		cal->runs++;
		if (json_array_size(json_object_get(r, "disturbed")))
			cal->runs_disturbed++;
	}
	cal->runs_superseded = json_array_size(json_object_get(res,
							       "superseded"));
	if (kb_jstr(json_object_get(res, "campaign"), "target"))
		cal->target = kb_xstrdup(kb_jstr(json_object_get(res,
						"campaign"), "target"));
	json_array_foreach(json_object_get(res, "comparisons"), i, cmp) {
		if (strcmp(kb_jstr(cmp, "baseline") ?: "", copy1) ||
		    strcmp(kb_jstr(cmp, "configuration") ?: "", copy2) ||
		    !kb_jstr(cmp, "job") || !kb_jstr(cmp, "metric"))
			continue;
		cal->alpha = json_number_value(json_object_get(cmp, "alpha"));
		add_samples(cal, runs, cmp, copy1, copy2);
	}
	if (!cal->nm) {
		kb_error("%s: no comparison of %s against %s: the A/A "
			 "campaign measured nothing to calibrate (did every "
			 "run fail? see its report.txt)", path, copy2, copy1);
		ret = -EINVAL;
	}
	json_decref(res);
	free(path);
	return ret;
}

static json_t *rounds_json(unsigned n)
{
	return n ? json_integer(n) : json_null();
}

static json_t *values_json(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, kb_jreal(v[i]));
	return a;
}

int results_calibration_write(const char *path,
			      const struct kb_calibration *cal)
{
	json_t *j, *ms = json_array();
	char ts[32];
	time_t now = time(NULL);
	size_t i;
	int ret;

	for (i = 0; i < cal->nm; i++) {
		const struct kb_calib_metric *m = &cal->m[i];

		json_array_append_new(ms, json_pack(
			"{s:s, s:s, s:I, s:o, s:o, s:[o,o], s:o, s:o, s:o, "
			"s:o, s:s, s:o, s:o, s:o, s:o}",
			"job", m->job, "metric", m->metric,
			"n", (json_int_t)m->n,
			"copy1", values_json(m->copy1, m->n),
			"copy2", values_json(m->copy2, m->n),
			"cv_pct", kb_jreal(m->cv_pct[0]), kb_jreal(m->cv_pct[1]),
			"sd_log_pct", kb_jreal(m->sd_log_pct),
			"sd_log_ratio_pct", kb_jreal(m->sd_log_ratio_pct),
			"corr", kb_jreal(m->corr), "corr_p", kb_jreal(m->corr_p),
			"analysis", m->analysis ?: "paired",
			"min_effect_pct", kb_jreal(m->min_effect_pct),
			"max_mde_pct", kb_jreal(m->max_mde_pct),
			"rounds_max_mde", rounds_json(m->rounds_max_mde),
			"rounds_min_effect", rounds_json(m->rounds_min_effect)));
	}
	kb_format_utc(now, ts, sizeof(ts));
	j = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:o, s:I, "
		      "s:I, s:I, s:s, s:o, s:o, s:o}",
		      "schema_version", KB_SCHEMA_VERSION,
		      "kbench_version", KBENCH_VERSION, "created", ts,
		      "conf", cal->conf ?: "", "baseline", cal->baseline ?: "",
		      "campaign", cal->campaign ?: "",
		      "rounds", (json_int_t)cal->rounds,
		      "runtime_s", (json_int_t)cal->runtime_s,
		      "alpha", kb_jreal(cal->alpha),
		      "runs", (json_int_t)cal->runs,
		      "runs_disturbed", (json_int_t)cal->runs_disturbed,
		      "runs_superseded", (json_int_t)cal->runs_superseded,
		      "analysis", cal->analysis ?: "paired",
		      "rounds_max_mde", rounds_json(cal->rounds_max_mde),
		      "rounds_min_effect", rounds_json(cal->rounds_min_effect),
		      "metrics", ms);
	if (j && cal->target)
		json_object_set_new(j, "target", json_string(cal->target));
	ret = j ? kb_json_write_atomic(path, j) : -ENOMEM;
	if (ret)
		kb_error("%s: cannot write the calibration: %s", path,
			 strerror(-ret));
	json_decref(j);
	return ret;
}

/* "rounds_*": a positive integer, or null (more than the cap): 0.  -1
 * for anything else. */
static long rounds_get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > KB_CALIB_MAX_ROUNDS)
		return -1;
	return (long)json_integer_value(v);
}

/* "runtime_s": absent (an older kbench), or seconds an unsigned holds
 * (-1 read as 4294967295 s, 2^40 as 0: no runtime to check) */
static int runtime_ok(json_t *o)
{
	json_t *v = json_object_get(o, "runtime_s");

	return !v || (json_is_integer(v) && json_integer_value(v) >= 0 &&
		      json_integer_value(v) <= UINT_MAX);
}

static const char *analysis_of(const char *s)
{
	if (s && !strcmp(s, "paired"))
		return "paired";
	if (s && !strcmp(s, "welch-log"))
		return "welch-log";
	return NULL;
}

/* The values array key of o into a malloc'd array of n doubles; -1 when
 * it is not an array of n numbers. */
static int values_get(json_t *o, const char *key, size_t n, double **out)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) != n)
		return -1;
	*out = kb_xcalloc(n + 1, sizeof(double));
	json_array_foreach(a, i, v) {
		if (!json_is_number(v))
			return -1;
		(*out)[i] = json_number_value(v);
	}
	return 0;
}

/* A number of metrics[i] (key, or element idx of the array key when idx
 * >= 0) into *out: null or absent is NAN (not computed: the writer's
 * NAN, a metric of fewer than 3 rounds), else a finite number in [lo,
 * hi] (what, e.g. "(a spread, %)", says what it is).  -1 (said, naming
 * the file and the key path) for anything else: a negative sd or CV, a
 * correlation of 1.5, a p of -0.1, a string such as "inf". */
static int num_get(const char *path, size_t i, json_t *e, const char *key,
		   int idx, double lo, double hi, const char *what,
		   double *out)
{
	json_t *v = json_object_get(e, key);
	char at[8] = "", range[64];

	if (idx >= 0) {
		v = json_array_get(v, (size_t)idx);
		snprintf(at, sizeof(at), "[%d]", idx);
	}
	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (json_is_number(v) && isfinite(json_number_value(v)) &&
	    json_number_value(v) >= lo && json_number_value(v) <= hi) {
		*out = json_number_value(v);
		return 0;
	}
	if (isinf(hi))
		snprintf(range, sizeof(range), ">= %g", lo);
	else
		snprintf(range, sizeof(range), "from %g to %g", lo, hi);
	if (json_is_number(v))
		kb_error("%s: metrics[%zu].%s%s: expected a finite number %s "
			 "%s or null, got %.17g", path, i, key, at, range, what,
			 json_number_value(v));
	else
		kb_error("%s: metrics[%zu].%s%s: expected a finite number %s "
			 "%s or null, got %s", path, i, key, at, range, what,
			 kb_json_kind(v));
	return -1;
}

/* A spread (an sd or a CV, %) of metrics[i]: num_get() >= 0. */
static int spread_get(const char *path, size_t i, json_t *e, const char *key,
		      int idx, double *out)
{
	return num_get(path, i, e, key, idx, 0.0, INFINITY, "(a spread, %)",
		       out);
}

/* metrics[i]'s name: one of lib/metrics.h's, or a load host's
 * host.NAME.METRIC of one (what a comparison compares); refused as
 * kernels.conf refuses a name it does not know, with the name meant
 * when one is near. */
static int metric_name_ok(const char *path, size_t i, const char *name)
{
	const char *near;

	if (kb_metric_find_key(name))
		return 0;
	near = kb_metric_near(name);
	if (near)
		kb_error("%s: metrics[%zu].metric: no such metric '%s' (did "
			 "you mean '%s'?)", path, i, name, near);
	else
		kb_error("%s: metrics[%zu].metric: no such metric '%s' "
			 "(expected a name of lib/metrics.c such as read.iops, "
			 "write.clat_p99_ns)", path, i, name);
	return -1;
}

/* metrics[i] into m: -1 said (naming the file and metrics[i]) when it is
 * not one. */
static int metric_read(const char *path, size_t i, json_t *e,
		       struct kb_calib_metric *m)
{
	long rm = rounds_get(e, "rounds_max_mde");
	long re = rounds_get(e, "rounds_min_effect");
	json_t *cv = json_object_get(e, "cv_pct");

	if (!kb_jstr(e, "job") || !kb_jstr(e, "metric") ||
	    !json_is_integer(json_object_get(e, "n")) || rm < 0 || re < 0 ||
	    !analysis_of(kb_jstr(e, "analysis")))
		goto bad;
	m->job = kb_xstrdup(kb_jstr(e, "job"));
	m->metric = kb_xstrdup(kb_jstr(e, "metric"));
	m->n = (size_t)json_integer_value(json_object_get(e, "n"));
	m->analysis = analysis_of(kb_jstr(e, "analysis"));
	m->rounds_max_mde = (unsigned)rm;
	m->rounds_min_effect = (unsigned)re;
	if (metric_name_ok(path, i, m->metric))
		return -1;
	/* each in its range (a break-it trial: corr 1.5, corr_p -0.1 and
	 * min_effect_pct -1 were read as they were) */
	if (num_get(path, i, e, "corr", -1, -1.0, 1.0,
		    "(a correlation)", &m->corr) ||
	    num_get(path, i, e, "corr_p", -1, 0.0, 1.0, "(a p-value)",
		    &m->corr_p) ||
	    num_get(path, i, e, "min_effect_pct", -1, 0.0, INFINITY,
		    "(a percentage)", &m->min_effect_pct) ||
	    num_get(path, i, e, "max_mde_pct", -1, 0.0, INFINITY,
		    "(a percentage)", &m->max_mde_pct))
		return -1;
	if (cv && !json_is_null(cv) &&
	    (!json_is_array(cv) || json_array_size(cv) != 2)) {
		kb_error("%s: metrics[%zu].cv_pct: expected [CV of copy1, CV "
			 "of copy2] (%%, each a number >= 0 or null), got %s",
			 path, i, kb_json_kind(cv));
		return -1;
	}
	if (spread_get(path, i, e, "sd_log_pct", -1, &m->sd_log_pct) ||
	    spread_get(path, i, e, "sd_log_ratio_pct", -1,
		       &m->sd_log_ratio_pct) ||
	    spread_get(path, i, e, "cv_pct", 0, &m->cv_pct[0]) ||
	    spread_get(path, i, e, "cv_pct", 1, &m->cv_pct[1]))
		return -1;
	if (values_get(e, "copy1", m->n, &m->copy1) ||
	    values_get(e, "copy2", m->n, &m->copy2))
		goto bad;
	return 0;
bad:
	kb_error("%s: metrics[%zu]: expected job, metric, n, copy1 and copy2 "
		 "(n numbers each), analysis and rounds_max_mde, "
		 "rounds_min_effect", path, i);
	return -1;
}

int results_calibration_read(const char *path, struct kb_calibration *cal)
{
	json_t *j, *ms, *e;
	long rm, re;
	size_t i;
	int ret = -EINVAL;

	memset(cal, 0, sizeof(*cal));
	if (!kb_exists(path)) {
		kb_error("%s: no such calibration file; `kbench calibrate -c "
			 "kernels.conf -o DIR` writes DIR/calibration.json",
			 path);
		return -ENOENT;
	}
	j = kb_json_load(path);
	if (!j)
		return -EINVAL;
	ms = json_object_get(j, "metrics");
	rm = rounds_get(j, "rounds_max_mde");
	re = rounds_get(j, "rounds_min_effect");
	if (json_integer_value(json_object_get(j, "schema_version")) !=
	    KB_SCHEMA_VERSION) {
		kb_error("%s: schema_version is not %d: not a calibration "
			 "this kbench wrote", path, KB_SCHEMA_VERSION);
		goto out;
	}
	if (!json_is_array(ms) || !json_array_size(ms) || rm < 0 || re < 0 ||
	    !analysis_of(kb_jstr(j, "analysis")) ||
	    rounds_get(j, "rounds") < 1 || !runtime_ok(j)) {
		kb_error("%s: not a calibration: expected \"metrics\" (a "
			 "non-empty array), \"analysis\" (paired or "
			 "welch-log), \"rounds\", \"rounds_max_mde\" and "
			 "\"rounds_min_effect\" (1..%d, the last two or null), "
			 "\"runtime_s\" (seconds, if any)", path,
			 KB_CALIB_MAX_ROUNDS);
		goto out;
	}
	cal->conf = kb_xstrdup(kb_jstr(j, "conf") ?: "");
	cal->baseline = kb_xstrdup(kb_jstr(j, "baseline") ?: "");
	cal->campaign = kb_xstrdup(kb_jstr(j, "campaign") ?: "");
	if (kb_jstr(j, "target"))
		cal->target = kb_xstrdup(kb_jstr(j, "target"));
	cal->rounds = (unsigned)json_integer_value(json_object_get(j, "rounds"));
	cal->runtime_s = (unsigned)json_integer_value(json_object_get(j,
							"runtime_s"));
	cal->alpha = json_number_value(json_object_get(j, "alpha"));
	cal->runs = (size_t)json_integer_value(json_object_get(j, "runs"));
	cal->runs_disturbed = (size_t)json_integer_value(
		json_object_get(j, "runs_disturbed"));
	cal->runs_superseded = (size_t)json_integer_value(
		json_object_get(j, "runs_superseded"));
	cal->analysis = analysis_of(kb_jstr(j, "analysis"));
	cal->rounds_max_mde = (unsigned)rm;
	cal->rounds_min_effect = (unsigned)re;
	cal->m = kb_xcalloc(json_array_size(ms), sizeof(*cal->m));
	json_array_foreach(ms, i, e) {
		size_t k;

		cal->nm++;
		if (metric_read(path, i, e, &cal->m[i]))
			goto out;
		/* one entry a (job, metric): a second would be counted twice
		 * in the rounds, or silently win in a lookup */
		for (k = 0; k < i; k++)
			if (!strcmp(cal->m[k].job, cal->m[i].job) &&
			    !strcmp(cal->m[k].metric, cal->m[i].metric))
				break;
		if (k < i) {
			kb_error("%s: metrics[%zu]: job %s, metric %s again "
				 "(first at metrics[%zu]): expected one entry "
				 "a job and metric", path, i, cal->m[i].job,
				 cal->m[i].metric, k);
			goto out;
		}
	}
	ret = 0;
out:
	if (ret)
		results_calibration_free(cal);
	json_decref(j);
	return ret;
}

void results_calibration_free(struct kb_calibration *cal)
{
	size_t i;

	for (i = 0; i < cal->nm; i++) {
		free(cal->m[i].job);
		free(cal->m[i].metric);
		free(cal->m[i].copy1);
		free(cal->m[i].copy2);
	}
	free(cal->m);
	free(cal->conf);
	free(cal->baseline);
	free(cal->campaign);
	free(cal->target);
	memset(cal, 0, sizeof(*cal));
}

/* append "; " and a formatted difference to *out */
static void misfit_add(char **out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void misfit_add(char **out, const char *fmt, ...)
{
	va_list ap;
	char *one, *both;

	va_start(ap, fmt);
	if (vasprintf(&one, fmt, ap) < 0)
		abort();
	va_end(ap);
	both = kb_xasprintf("%s%s%s", *out ? *out : "", *out ? "; " : "",
			    one);
	free(one);
	free(*out);
	*out = both;
}

char *results_calibration_misfit(const struct kb_calibration *cal,
				 const char *const *jobs, size_t njobs,
				 const char *target, const char *baseline,
				 unsigned runtime_s, int *no_job)
{
	char *out = NULL, *cj = NULL, *tmp;
	size_t i, k, common = 0, seen;

	for (i = 0; i < cal->nm; i++) {
		/* the calibrated jobs, each once, in cal's order */
		for (k = seen = 0; k < i; k++)
			seen |= !strcmp(cal->m[k].job, cal->m[i].job);
		if (seen)
			continue;
		tmp = kb_xasprintf("%s%s%s", cj ? cj : "", cj ? " " : "",
				   cal->m[i].job);
		free(cj);
		cj = tmp;
	}
	for (i = 0; i < njobs; i++) {
		for (k = seen = 0; k < cal->nm; k++)
			seen |= !strcmp(cal->m[k].job, jobs[i]);
		common += seen;
	}
	*no_job = !common;
	if (common < njobs || !cj) {
		tmp = NULL;
		for (i = 0; i < njobs; i++) {
			char *t = kb_xasprintf("%s%s%s", tmp ? tmp : "",
					       tmp ? " " : "", jobs[i]);

			free(tmp);
			tmp = t;
		}
		misfit_add(&out, "jobs %s, calibrated with %s", tmp ? tmp : "",
			   cj ? cj : "none");
		free(tmp);
	}
	free(cj);
	if (!cal->target)
		misfit_add(&out, "target %s, the calibration's not recorded "
			   "(an older kbench)", target);
	else if (strcmp(cal->target, target))
		misfit_add(&out, "target %s, calibrated on %s", target,
			   cal->target);
	if (strcmp(cal->baseline ?: "", baseline))
		misfit_add(&out, "baseline %s, calibrated with %s", baseline,
			   cal->baseline && *cal->baseline ? cal->baseline :
			   "none recorded");
	if (cal->runtime_s && cal->runtime_s != runtime_s)
		misfit_add(&out, "runtime %u s, calibrated with %u s",
			   runtime_s, cal->runtime_s);
	return out;
}
