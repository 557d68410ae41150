/* stats/profiling.c - see profiling.h. */
#include "stats/profiling.h"
#include "stats/paired.h"
#include "stats/summary.h"
#include "results/json.h"
#include "lib/file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* read.iops + write.iops + trim.iops of a run, or NAN when none is a
 * number (not measured). */
static double run_iops(json_t *run)
{
	static const char *const dirs[] = { "read.iops", "write.iops",
					    "trim.iops" };
	json_t *m = json_object_get(run, "metrics"), *v;
	double sum = 0;
	int any = 0;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		v = json_object_get(m, dirs[i]);
		if (json_is_number(v)) {
			sum += json_number_value(v);
			any = 1;
		}
	}
	return any ? sum : NAN;
}

static char *round_key(json_t *run)
{
	return kb_xasprintf("%s\n%s\n%lld", kb_jstr(run, "configuration") ?: "",
			    kb_jstr(run, "job") ?: "",
			    (long long)json_integer_value(json_object_get(run,
							  "iteration")));
}

/* The summaries of the sampled extra runs ("extra": "profiling"). */
static int fill_summaries(json_t *results, json_t *pruns)
{
	json_t *tmp, *sampled = json_array(), *run;
	size_t i;
	int ret;

	json_array_foreach(pruns, i, run)
		if (!strcmp(kb_jstr(run, "extra") ?: "", "profiling"))
			json_array_append(sampled, run);
	json_object_del(results, "profiling_summaries");
	if (!json_array_size(sampled)) {
		json_decref(sampled);
		return 0;
	}
	tmp = json_pack("{s:O, s:O, s:o, s:[]}", "campaign",
			json_object_get(results, "campaign"), "configurations",
			json_object_get(results, "configurations"), "runs",
			sampled, "summaries");
	ret = stats_fill_summaries(tmp);
	if (!ret)
		json_object_set(results, "profiling_summaries",
				json_object_get(tmp, "summaries"));
	json_decref(tmp);
	return ret;
}

/* One profile_overhead entry from n pairs. */
static json_t *overhead_entry(const char *cfg, const char *job,
			      const char *sampled, const double *unsampled_iops,
			      const double *sampled_iops, size_t n)
{
	struct kb_log_test t;
	double ratio = NAN, lo = NAN, hi = NAN;

	if (n == 1) {
		ratio = sampled_iops[0] / unsampled_iops[0];
	} else if (kb_paired_log_test(unsampled_iops, sampled_iops, n,
				      &t) == 0) {
		ratio = 1 + t.change_pct / 100;
		lo = 1 + t.change_ci95_lo_pct / 100;
		hi = 1 + t.change_ci95_hi_pct / 100;
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o}",
			 "configuration", cfg, "job", job, "metric", "iops",
			 "sampled", sampled, "n", (json_int_t)n,
			 "ratio", kb_jreal(ratio), "ci95_lo", kb_jreal(lo),
			 "ci95_hi", kb_jreal(hi));
}

int stats_fill_profiling(json_t *results)
{
	json_t *pruns = json_object_get(results, "profiling_runs");
	json_t *rounds = json_object(), *counted = json_object(), *out;
	json_t *run, *r, *c, *jv;
	const char *key, *sampled = "profiling runs";
	double *a, *b, v;
	size_t i, j, n;
	int ret;

	ret = fill_summaries(results, pruns);
	json_object_del(results, "profile_overhead");
	if (ret || !json_array_size(pruns)) {
		json_decref(rounds);
		json_decref(counted);
		return ret;
	}
	/* the extra runs of each round: their IOPS summed and counted */
	json_array_foreach(pruns, i, run) {
		char *k;

		if (strcmp(kb_jstr(run, "status") ?: "", "ok") ||
		    !isfinite(v = run_iops(run)) || v <= 0)
			continue;
		if (!strcmp(kb_jstr(run, "extra") ?: "", "unsampled"))
			sampled = "counted runs";
		k = round_key(run);
		r = json_object_get(rounds, k);
		if (!r) {
			r = json_pack("{s:f, s:i}", "sum", 0.0, "n", 0);
			json_object_set_new(rounds, k, r);
		}
		json_object_set_new(r, "sum", json_real(json_number_value(
			json_object_get(r, "sum")) + v));
		json_object_set_new(r, "n", json_integer(json_integer_value(
			json_object_get(r, "n")) + 1));
		free(k);
	}
	json_array_foreach(json_object_get(results, "runs"), i, run) {
		char *k;

		if (!kb_run_counts(run) || !isfinite(v = run_iops(run)) ||
		    v <= 0)
			continue;
		k = round_key(run);
		json_object_set_new(counted, k, json_real(v));
		free(k);
	}
	n = json_object_size(rounds);
	a = kb_xcalloc(n + 1, sizeof(*a));
	b = kb_xcalloc(n + 1, sizeof(*b));
	out = json_array();
	/* configurations and jobs in the model's order */
	json_array_foreach(json_object_get(results, "configurations"), i, c) {
		const char *cfg = kb_jstr(c, "id");

		json_array_foreach(json_object_get(json_object_get(results,
				   "campaign"), "jobs"), j, jv) {
			const char *job = json_string_value(jv);
			size_t np = 0, pl;
			char *prefix;

			if (!cfg || !job)
				continue;
			prefix = kb_xasprintf("%s\n%s\n", cfg, job);
			pl = strlen(prefix);
			json_object_foreach(rounds, key, r) {
				json_t *cv = json_object_get(counted, key);
				double extra = json_number_value(json_object_get(
					r, "sum")) / (double)json_integer_value(
					json_object_get(r, "n"));

				if (strncmp(key, prefix, pl) || !cv)
					continue;
				/* profiling runs sample: the counted run is
				 * the unsampled side; counted-runs: the
				 * other way round */
				a[np] = !strcmp(sampled, "profiling runs") ?
					json_number_value(cv) : extra;
				b[np] = !strcmp(sampled, "profiling runs") ?
					extra : json_number_value(cv);
				np++;
			}
			free(prefix);
			if (np)
				json_array_append_new(out, overhead_entry(cfg,
					job, sampled, a, b, np));
		}
	}
	if (json_array_size(out))
		json_object_set(results, "profile_overhead", out);
	json_decref(out);
	json_decref(rounds);
	json_decref(counted);
	free(a);
	free(b);
	return 0;
}
