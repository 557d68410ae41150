/* runner/retry.c - rerun rounds (order = block: runs) that hold a
 * disturbed run (runner/retry.h). */
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

/* 1 when plan runs a and b belong to the same retry unit: the same
 * round (iteration index), and with order = block also the same
 * configuration and job (a run and its profiling runs). */
static int same_unit(const struct kb_config *cfg, const struct kb_run *a,
		     const struct kb_run *b)
{
	return a->iteration == b->iteration &&
	       (cfg->order != KB_ORDER_BLOCK ||
		(a->config == b->config && a->job == b->job));
}

/* "CFG JOB iteration N: why; why" of the unit's first disturbed counted
 * run (cfg_id and job NULL: any of round `iteration`; N as a reader
 * numbers it, results/paths.h), or NULL. */
static char *disturbed_in_unit(json_t *res, unsigned iteration,
			       unsigned warmup, const char *cfg_id,
			       const char *job)
{
	json_t *run, *w;
	size_t i, k;
	char b[KB_ITER_LABEL_MAX];

	json_array_foreach(json_object_get(res, "runs"), i, run) {
		json_t *why = json_object_get(run, "disturbed");
		char *s;

		if (json_integer_value(json_object_get(run, "iteration")) !=
		    (json_int_t)iteration || !json_array_size(why) ||
		    json_is_true(json_object_get(run, "warmup")) ||
		    (cfg_id && strcmp(cfg_id, json_string_value(
			json_object_get(run, "configuration")) ?: "")) ||
		    (job && strcmp(job, json_string_value(
			json_object_get(run, "job")) ?: "")))
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
	const struct kb_config *cfg = &c->cfg;
	int block = cfg->order == KB_ORDER_BLOCK;
	const char *cfg_id = block ? c->plan.configs[r->config].id : NULL;
	const char *job = block ? cfg->jobs[r->job] : NULL;
	json_t *retries, *sup, *res;
	char *ukey, *why, *spath, lb[KB_ITER_LABEL_MAX];
	unsigned attempt;
	size_t j, n = 0;
	int ret = 0;

	if (!cfg->retry_disturbed || r->warmup || kb_driver_dry_run)
		return 0;
	/* the unit closes when the next planned run belongs to another */
	if (i + 1 < c->plan.nruns && same_unit(cfg, &c->plan.runs[i + 1], r))
		return 0;
	/* every run of the unit done (a variant left for another kernel
	 * leaves its round open) */
	for (j = 0; j < c->plan.nruns; j++)
		if (same_unit(cfg, &c->plan.runs[j], r) &&
		    !campaign_run_state(c, c->plan.runs[j].key))
			return 0;
	retries = json_object_get(c->state, "disturbed_retries");
	/* "ITERATION", or with order = block "CFG/JOB/NNN" */
	ukey = block ? kb_xasprintf("%s/%s/%03u", cfg_id, job, r->iteration) :
		       kb_xasprintf("%u", r->iteration);
	attempt = (unsigned)json_integer_value(json_object_get(retries, ukey));
	if (attempt >= cfg->retry_disturbed) {
		free(ukey);
		return 0;
	}

	res = results_load_campaign(c->dir, 0);
	if (!res) {
		free(ukey);
		return -EIO;
	}
	stats_mark_disturbed(res, NULL, 0);
	why = disturbed_in_unit(res, r->iteration, c->cfg.warmup, cfg_id, job);
	json_decref(res);
	if (!why) {
		free(ukey);
		return 0;
	}

	attempt++;
	if (!json_is_object(retries)) {
		retries = json_object();
		json_object_set_new(c->state, "disturbed_retries", retries);
	}
	json_object_set_new(retries, ukey, json_integer(attempt));
	sup = json_object_get(c->state, "superseded");
	if (!json_is_array(sup)) {
		sup = json_array();
		json_object_set_new(c->state, "superseded", sup);
	}
	for (j = 0; j < c->plan.nruns && !ret; j++) {
		const char *key = c->plan.runs[j].key;
		char *from, *to;

		if (!same_unit(cfg, &c->plan.runs[j], r))
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
	if (!ret && block)
		kb_info("run %s was disturbed (%s): running it again alone "
			"(attempt %u of at most %u; retry_disturbed; order = "
			"block has no rounds and is compared unpaired), the "
			"run kept as NNN.superseded-%u", ukey, why, attempt + 1,
			cfg->retry_disturbed + 1, attempt);
	else if (!ret)
		kb_info("iteration %s had a disturbed run (%s): running the "
			"round again (attempt %u of at most %u; retry_disturbed),"
			" the runs kept as NNN.superseded-%u",
			kb_iteration_label(r->iteration, cfg->warmup, lb), why,
			attempt + 1, cfg->retry_disturbed + 1, attempt);
	free(why);
	free(ukey);
	return ret ? ret : (int)n;
}
