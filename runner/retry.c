/* runner/retry.c - rerun interleaved rounds that hold a disturbed run
 * (runner/retry.h). */
#include "runner/retry.h"
#include "runner/drivers.h"
#include "results/model.h"
#include "results/paths.h"
#include "stats/disturbed.h"
#include "lib/err.h"
#include "lib/file.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "CFG JOB iteration N: why; why" of the round's first disturbed counted
 * run (N as a reader numbers it, results/paths.h), or NULL. */
static char *disturbed_in_round(json_t *res, unsigned iteration,
				unsigned warmup)
{
	json_t *run, *w;
	size_t i, k;
	char b[KB_ITER_LABEL_MAX];

	json_array_foreach(json_object_get(res, "runs"), i, run) {
		json_t *why = json_object_get(run, "disturbed");
		char *s;

		if (json_integer_value(json_object_get(run, "iteration")) !=
		    (json_int_t)iteration || !json_array_size(why) ||
		    json_is_true(json_object_get(run, "warmup")))
			continue;
		s = kb_xasprintf("%s %s iteration %s:",
				 json_string_value(json_object_get(run,
					"configuration")) ?: "?",
				 json_string_value(json_object_get(run, "job")) ?:
				 "?", kb_iteration_label(iteration, warmup,
							b));
		json_array_foreach(why, k, w) {
			char *t = kb_xasprintf("%s%s %s", s, k ? ";" : "",
					       json_string_value(w) ?: "");
			free(s);
			s = t;
		}
		return s;
	}
	return NULL;
}

int retry_disturbed_round(struct kb_campaign *c, size_t i)
{
	const struct kb_run *r = &c->plan.runs[i];
	json_t *retries, *sup, *res;
	char itkey[16], *why, *spath, lb[KB_ITER_LABEL_MAX];
	unsigned attempt;
	size_t j, n = 0;
	int ret = 0;

	if (!c->cfg.retry_disturbed || c->cfg.order != KB_ORDER_INTERLEAVE ||
	    r->warmup || kb_driver_dry_run)
		return 0;
	/* the round closes when the next planned run belongs to another */
	if (i + 1 < c->plan.nruns &&
	    c->plan.runs[i + 1].iteration == r->iteration)
		return 0;
	/* every run of the round done (a variant left for another kernel
	 * leaves its round open) */
	for (j = 0; j < c->plan.nruns; j++)
		if (c->plan.runs[j].iteration == r->iteration &&
		    !campaign_run_state(c, c->plan.runs[j].key))
			return 0;
	retries = json_object_get(c->state, "disturbed_retries");
	snprintf(itkey, sizeof(itkey), "%u", r->iteration);
	attempt = (unsigned)json_integer_value(json_object_get(retries, itkey));
	if (attempt >= c->cfg.retry_disturbed)
		return 0;

	res = results_load_campaign(c->dir, 0);
	if (!res)
		return -EIO;
	stats_mark_disturbed(res, NULL, 0);
	why = disturbed_in_round(res, r->iteration, c->cfg.warmup);
	json_decref(res);
	if (!why)
		return 0;

	attempt++;
	if (!json_is_object(retries)) {
		retries = json_object();
		json_object_set_new(c->state, "disturbed_retries", retries);
	}
	json_object_set_new(retries, itkey, json_integer(attempt));
	sup = json_object_get(c->state, "superseded");
	if (!json_is_array(sup)) {
		sup = json_array();
		json_object_set_new(c->state, "superseded", sup);
	}
	for (j = 0; j < c->plan.nruns && !ret; j++) {
		const char *key = c->plan.runs[j].key;
		char *from, *to;

		if (c->plan.runs[j].iteration != r->iteration)
			continue;
		from = kb_run_dir(c->dir, key);
		to = kb_xasprintf("%s.superseded-%u", from, attempt);
		if (kb_exists(from) && rename(from, to)) {
			ret = -errno;
			kb_error("cannot keep the superseded run %s as %s: %s",
				 from, to, strerror(errno));
		} else {
			json_array_append_new(sup, json_pack(
				"{s:s, s:s, s:i, s:s}", "key", key,
				"dir", to + strlen(c->dir) + 1,
				"attempt", (int)attempt, "reason", why));
			json_object_del(json_object_get(c->state, "runs"), key);
			n++;
		}
		free(from);
		free(to);
	}
	spath = kb_path_join(c->dir, "state.json");
	if (!ret)
		ret = kb_json_write_atomic(spath, c->state);
	free(spath);
	if (!ret)
		kb_info("iteration %s had a disturbed run (%s): running the "
			"round again (attempt %u of at most %u; retry_disturbed),"
			" the runs kept as NNN.superseded-%u",
			kb_iteration_label(r->iteration, c->cfg.warmup, lb), why,
			attempt + 1, c->cfg.retry_disturbed + 1, attempt);
	free(why);
	return ret ? ret : (int)n;
}
