/* results/points.c - a campaign's counted runs as typed points (see
 * points.h). */
#include "results/points.h"
#include "results/json.h"
#include "results/model.h"
#include "results/paths.h"
#include "results/records.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *find_config(json_t *results, const char *id)
{
	json_t *k;
	size_t i;

	json_array_foreach(json_object_get(results, "configurations"), i, k) {
		const char *kid = kb_jstr(k, "id");

		if (!strcmp(kid ? kid : "", id))
			return k;
	}
	return NULL;
}

/* Fill p from run (ok, counted, with a configuration and a job): 1 when
 * it has a measured metric, 0 when not (then p holds nothing). */
static int point_of(struct results_point *p, json_t *results, json_t *run,
		    int64_t ns)
{
	json_t *camp = json_object_get(results, "campaign");
	json_t *env = json_object_get(camp, "environment");
	json_t *metrics = json_object_get(run, "metrics"), *v;
	json_t *k, *tunables;
	const char *name;
	size_t n = 0;

	json_object_foreach(metrics, name, v)
		n += json_is_number(v) && isfinite(json_number_value(v));
	if (!n)
		return 0;
	memset(p, 0, sizeof(*p));
	p->fields = kb_xcalloc(n, sizeof(*p->fields));
	json_object_foreach(metrics, name, v) {
		if (json_is_number(v) && isfinite(json_number_value(v)))
			p->fields[p->nfields++] = (struct results_field){
				name, json_number_value(v) };
	}
	p->configuration = kb_jstr(run, "configuration");
	p->job = kb_jstr(run, "job");
	k = find_config(results, p->configuration);
	p->campaign = kb_jstr(camp, "name");
	p->variant = kb_jstr(k, "variant");
	p->release = kb_jstr(k, "release");
	if (!p->release)
		p->release = kb_jstr(env, "kernel_release");
	p->host = kb_jstr(env, "hostname");
	tunables = json_object_get(k, "tunables");
	if (json_object_size(tunables))
		p->tunables = kb_xcalloc(json_object_size(tunables),
					 sizeof(*p->tunables));
	json_object_foreach(tunables, name, v)
		p->tunables[p->ntunables++] = (struct results_tag){
			name, json_string_value(v) };
	p->iteration = (long long)json_integer_value(json_object_get(run,
							"iteration"));
	p->start_unix_ns = ns;
	return 1;
}

int results_points_from(json_t *results, const json_t *times,
			const char *only_key, struct results_points *out)
{
	json_t *runs = json_object_get(results, "runs"), *run, *t;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!json_is_array(runs)) {
		kb_error("results model has no \"runs\" array");
		return -EINVAL;
	}
	out->model = json_incref(results);
	out->v = kb_xcalloc(json_array_size(runs) + 1, sizeof(*out->v));
	json_array_foreach(runs, i, run) {
		const char *status = kb_jstr(run, "status");
		const char *cid = kb_jstr(run, "configuration");
		const char *job = kb_jstr(run, "job");
		char *key;

		if (!status || strcmp(status, "ok") || !cid || !job ||
		    json_is_true(json_object_get(run, "warmup")))
			continue;
		key = kb_run_key(cid, job, (long long)json_integer_value(
				json_object_get(run, "iteration")));
		t = json_object_get(times, key);
		if ((!only_key || !strcmp(only_key, key)) && json_is_integer(t))
			out->n += point_of(&out->v[out->n], results, run,
					   (int64_t)json_integer_value(t));
		free(key);
	}
	return 0;
}

int results_points_load(const char *dir, const char *only_key,
			struct results_points *out)
{
	json_t *res, *times = NULL;
	int ret = -EIO;

	memset(out, 0, sizeof(*out));
	/* one run alone reads only that run's files: a push after each run
	 * stays linear in the campaign's runs */
	res = only_key ? results_load_campaign_runs(dir, &only_key, 1) :
	      results_load_campaign(dir, 0);
	if (res)
		times = results_run_start_times(dir, only_key);
	if (times)
		ret = results_points_from(res, times, only_key, out);
	json_decref(times);
	json_decref(res);
	return ret;
}

void results_points_free(struct results_points *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].fields);
		free(p->v[i].tunables);
	}
	free(p->v);
	json_decref(p->model);
	memset(p, 0, sizeof(*p));
}
