/* stats/disturbed.c - disturbed runs (stats/disturbed.h). */
#include "stats/disturbed.h"
#include "results/json.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kb_disturbed_rules_init(struct kb_disturbed_rules *r)
{
	r->other_cpu_pct = KB_DISTURBED_OTHER_CPU_PCT;
	r->other_factor = KB_DISTURBED_OTHER_FACTOR;
	r->steal_pct = KB_DISTURBED_STEAL_PCT;
	r->psi_pct = KB_DISTURBED_PSI_PCT;
	r->idle_fraction = KB_DISTURBED_IDLE_FRACTION;
}

static void rule_from(json_t *o, const char *key, double *v)
{
	json_t *x = json_object_get(o, key);

	if (json_is_null(x))
		*v = NAN;
	else if (json_is_number(x))
		*v = json_number_value(x);
}

void kb_disturbed_rules_from(json_t *results, struct kb_disturbed_rules *r)
{
	json_t *d = json_object_get(json_object_get(results, "campaign"),
				    "disturbed");

	kb_disturbed_rules_init(r);
	if (!json_is_object(d))
		return;
	rule_from(d, "other_cpu_pct", &r->other_cpu_pct);
	rule_from(d, "other_factor", &r->other_factor);
	rule_from(d, "steal_pct", &r->steal_pct);
	rule_from(d, "psi_pct", &r->psi_pct);
	rule_from(d, "idle_fraction", &r->idle_fraction);
}

static int counted_ok(json_t *run)
{
	const char *st = kb_jstr(run, "status");

	return st && !strcmp(st, "ok") &&
	       !json_is_true(json_object_get(run, "warmup"));
}

/* The finite number metrics[name] in *v: 1, else 0 (metrics: a run's
 * "metrics" object, looked up once per run by the callers). */
static int metric_of(json_t *metrics, const char *name, double *v)
{
	json_t *x = json_object_get(metrics, name);

	if (!json_is_number(x))
		return 0;
	*v = json_number_value(x);
	return isfinite(*v);
}

/* GSL's interpolated quantile p of x[0..n) (n >= 1), the value
 * gsl_stats_quantile_from_sorted_data gives on the sorted array, found
 * by selection instead of a sort (issue 16): O(n).  With i = floor(p
 * (n - 1)) and d its fraction, (1 - d) x(i) + d x(i + 1), x(k) the k-th
 * smallest (gsl_stats_select, quickselect; x is reordered).  The same
 * arithmetic as GSL's (gsl/statistics/quantiles_source.c), so the
 * result is bit for bit the sorted one's. */
static double quantile_select(double *x, size_t n, double p)
{
	double index = p * (double)(n - 1);
	size_t lhs = (size_t)index;
	double delta = index - (double)lhs, lo;

	lo = gsl_stats_select(x, 1, n, lhs);
	if (lhs == n - 1)
		return lo;
	return (1 - delta) * lo + delta * gsl_stats_select(x, 1, n, lhs + 1);
}

/* Quantile p of metric over the counted runs (GSL's interpolated
 * quantile: quantile_select); NAN when none has it. */
static double runs_quantile(json_t *results, const char *metric, double p)
{
	json_t *runs = json_object_get(results, "runs"), *run;
	double *x = calloc(json_array_size(runs) + 1, sizeof(*x)), q = NAN;
	size_t i, n = 0;

	if (!x)
		return NAN;
	json_array_foreach(runs, i, run)
		if (counted_ok(run) && metric_of(json_object_get(run,
						 "metrics"), metric, &x[n]))
			n++;
	if (n)
		q = quantile_select(x, n, p);
	free(x);
	return q;
}

double stats_runs_median(json_t *results, const char *metric)
{
	return runs_quantile(results, metric, 0.5);
}

int stats_machine_busy(json_t *results, double *other_median,
		       size_t *disturbed, size_t *total)
{
	json_t *set = json_object_get(results, "disturbed_settings");
	json_t *lim = json_object_get(set, "other_cpu_limit");
	double other = stats_runs_median(results, "task.other.cpu_pct");

	if (other_median)
		*other_median = other;
	stats_disturbed_count(results, NULL, NULL, disturbed, total);
	if (!json_is_object(set) || !*total)
		return -1;
	return (double)*disturbed > KB_BUSY_DISTURBED_SHARE * (double)*total ||
	       (isfinite(other) && json_is_number(lim) &&
		other > json_number_value(lim));
}

/* "131%" / "7.3%": whole percents from 10 up */
static void pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) >= 10 ? "%.0f%%" : "%.1f%%", v);
}

static void add_reason(json_t **why, const char *metric, double v,
		       const char *op, double limit)
{
	char a[32], b[32], line[128];

	pct(a, sizeof(a), v);
	pct(b, sizeof(b), limit);
	snprintf(line, sizeof(line), "%s %s %s %s", metric, a, op, b);
	if (!*why)
		*why = json_array();
	json_array_append_new(*why, json_string(line));
}

int stats_mark_disturbed(json_t *results, const struct kb_disturbed_rules *r,
			 int exclude)
{
	struct kb_disturbed_rules own;
	json_t *runs = json_object_get(results, "runs"), *run, *opts;
	double other_q1 = runs_quantile(results, "task.other.cpu_pct", 0.25);
	double idle_q3 = runs_quantile(results, "cpu.idle_pct", 0.75);
	double other_lim = NAN, idle_lim = NAN;
	int ndist = 0;
	size_t i;

	if (!r) {
		kb_disturbed_rules_from(results, &own);
		r = &own;
	}
	if (isfinite(r->other_cpu_pct)) {
		other_lim = r->other_cpu_pct;
		if (isfinite(other_q1) && isfinite(r->other_factor) &&
		    r->other_factor * other_q1 > other_lim)
			other_lim = r->other_factor * other_q1;
	}
	if (isfinite(r->idle_fraction) && isfinite(idle_q3) &&
	    idle_q3 >= KB_DISTURBED_IDLE_MIN_REF)
		idle_lim = r->idle_fraction * idle_q3;

	json_array_foreach(runs, i, run) {
		json_t *why = NULL, *mx = json_object_get(run, "metrics");
		double v;

		json_object_del(run, "disturbed");
		if (json_is_string(json_object_get(run, "excluded")) &&
		    !strcmp(kb_jstr(run, "excluded"), "disturbed"))
			json_object_del(run, "excluded");
		if (strcmp(kb_jstr(run, "status") ?: "", "ok"))
			continue;
		if (isfinite(other_lim) &&
		    metric_of(mx, "task.other.cpu_pct", &v) && v > other_lim)
			add_reason(&why, "task.other.cpu_pct", v, ">",
				   other_lim);
		if (isfinite(r->steal_pct) &&
		    metric_of(mx, "cpu.steal_pct", &v) && v > r->steal_pct)
			add_reason(&why, "cpu.steal_pct", v, ">", r->steal_pct);
		if (isfinite(r->psi_pct) &&
		    metric_of(mx, "psi.cpu_some_pct", &v) && v > r->psi_pct)
			add_reason(&why, "psi.cpu_some_pct", v, ">", r->psi_pct);
		if (isfinite(idle_lim) && metric_of(mx, "cpu.idle_pct", &v) &&
		    v < idle_lim)
			add_reason(&why, "cpu.idle_pct", v, "<", idle_lim);
		if (!why)
			continue;
		json_object_set_new(run, "disturbed", why);
		if (!json_is_true(json_object_get(run, "warmup")))
			ndist++;
		if (exclude)
			json_object_set_new(run, "excluded",
					    json_string("disturbed"));
	}
	json_object_set_new(results, "disturbed_settings", json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"other_cpu_pct", kb_jreal(r->other_cpu_pct),
		"other_factor", kb_jreal(r->other_factor),
		"other_cpu_q1", kb_jreal(other_q1),
		"other_cpu_limit", kb_jreal(other_lim),
		"steal_pct", kb_jreal(r->steal_pct),
		"psi_pct", kb_jreal(r->psi_pct),
		"idle_fraction", kb_jreal(r->idle_fraction),
		"idle_q3", kb_jreal(idle_q3),
		"idle_limit", kb_jreal(idle_lim)));
	opts = kb_json_object_member(results, "analysis_options");
	json_object_set_new(opts, "exclude_disturbed", json_boolean(exclude));
	return ndist;
}

void stats_disturbed_count(json_t *results, const char *cfg, const char *job,
			   size_t *disturbed, size_t *total)
{
	stats_disturbed_counts(results, &cfg, 1, job, disturbed, total);
}

void stats_disturbed_counts(json_t *results, const char *const *cfgs,
			    size_t n, const char *job, size_t *disturbed,
			    size_t *total)
{
	json_t *run;
	size_t i, k;

	for (k = 0; k < n; k++)
		disturbed[k] = total[k] = 0;
	json_array_foreach(json_object_get(results, "runs"), i, run) {
		const char *rc = kb_jstr(run, "configuration") ?: "";
		int dist;

		if (!counted_ok(run))
			continue;
		if (job && strcmp(kb_jstr(run, "job") ?: "", job))
			continue;
		dist = json_array_size(json_object_get(run, "disturbed")) > 0;
		for (k = 0; k < n; k++) {
			if (cfgs[k] && strcmp(rc, cfgs[k]))
				continue;
			total[k]++;
			disturbed[k] += (size_t)dist;
		}
	}
}
