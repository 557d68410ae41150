/* runner/retry.c - rerun rounds (order = block: runs) that hold a
 * disturbed run (runner/retry.h). */
#include "runner/retry.h"
#include "runner/drivers.h"
#include "results/disturbed_runs.h"
#include "results/model.h"
#include "results/paths.h"
#include "stats/disturbed.h"
#include "results/rmodel.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
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

/* "RUNDIR.superseded-N" with the first N >= first not taken: a failed
 * run kept by --retry-failed and a disturbed round kept by
 * retry_disturbed share the names (rename(2) onto a kept run's
 * directory would fail, ENOTEMPTY, and stop the campaign).  *taken, when
 * not NULL, gets that N. */
static char *superseded_name(const char *from, unsigned first,
			     unsigned *taken)
{
	char *to = kb_xasprintf("%s.superseded-%u", from, first);

	while (kb_exists(to)) {
		free(to);
		to = kb_xasprintf("%s.superseded-%u", from, ++first);
	}
	if (taken)
		*taken = first;
	return to;
}

/* retry_disturbed's unit of plan run r: "ITERATION", or with order =
 * block "CFG/JOB/NNN" (malloc'd) */
static char *unit_key(const struct kb_campaign *c, const struct kb_run *r)
{
	return c->cfg.order == KB_ORDER_BLOCK ?
	       kb_xasprintf("%s/%s/%03u", c->plan.configs[r->config].id,
			    c->cfg.jobs[r->job], r->iteration) :
	       kb_xasprintf("%u", r->iteration);
}

/* The copy of run key that a supersede renamed but that no record of
 * the state names (kbench stopped between the renames and the state's
 * save): "runs/KEY.superseded-K" (malloc'd, relative to the campaign),
 * the largest such K in *k; NULL when there is none. */
static char *unrecorded_copy(const struct kb_campaign *c, const char *key,
			     unsigned *k)
{
	char *best = NULL;
	unsigned i;
	size_t j;

	for (i = 1; i <= 1000; i++) {
		char *rel = kb_xasprintf("%s/%s.superseded-%u", KB_RUNS_DIR,
					 key, i);
		char *abs = kb_path_join(c->dir, rel);
		int named = 0;

		for (j = 0; j < c->state.nsuperseded && !named; j++)
			named = !strcmp(c->state.superseded[j].dir, rel);
		if (kb_exists(abs) && !named) {
			free(best);
			best = rel;
			rel = NULL;
			*k = i;
		}
		free(rel);
		free(abs);
	}
	return best;
}

int retry_resume_superseding(struct kb_campaign *c)
{
	size_t i, j, n = 0;
	int ret = 0;

	for (i = 0; i < c->plan.nruns && !ret; i++) {
		const struct kb_run *r = &c->plan.runs[i];
		const struct kb_run_record *st = campaign_run_state(c, r->key);
		char *from, *rel, *unit, *why;
		unsigned k = 0, attempt;

		if (!st)
			continue;
		from = kb_run_dir(c->dir, r->key);
		rel = kb_exists(from) ? NULL : unrecorded_copy(c, r->key, &k);
		free(from);
		if (!rel)
			continue;
		if (!strcmp(st->status, "failed")) {
			/* --retry-failed's: the run alone */
			why = kb_xasprintf("failed: %s", st->reason ?
					   st->reason : "(no reason recorded)");
			results_state_add_superseded(&c->state, r->key, rel,
						     k, why);
			results_state_del_run(&c->state, r->key);
			free(why);
			free(rel);
			n++;
			continue;
		}
		free(rel);
		/* retry_disturbed's: its whole unit, as one more attempt */
		unit = unit_key(c, r);
		attempt = results_state_retries(&c->state, unit) + 1;
		results_state_set_retries(&c->state, unit, attempt);
		free(unit);
		for (j = 0; j < c->plan.nruns && !ret; j++) {
			const char *key = c->plan.runs[j].key;
			char *to;

			if (!same_unit(&c->cfg, &c->plan.runs[j], r) ||
			    !campaign_run_state(c, key))
				continue;
			from = kb_run_dir(c->dir, key);
			to = NULL;
			if (!kb_exists(from)) {
				rel = unrecorded_copy(c, key, &k);
				to = rel ? kb_path_join(c->dir, rel) : NULL;
				free(rel);
			}
			if (!to)
				to = superseded_name(from, attempt, NULL);
			if (kb_exists(from) && rename(from, to)) {
				ret = -errno;
				kb_error("cannot keep the superseded run %s as "
					 "%s: %s", from, to, strerror(errno));
			} else {
				results_state_add_superseded(&c->state, key,
					to + strlen(c->dir) + 1, attempt,
					"its round had a disturbed run (kbench "
					"stopped before state.json said which)");
				results_state_del_run(&c->state, key);
				n++;
			}
			free(from);
			free(to);
		}
	}
	if (ret)
		return ret;
	if (!n)
		return 0;
	kb_warn("%s: kbench stopped while it set %zu run(s) aside to run "
		"them again (runs/KEY.superseded-K, not yet in state.json): "
		"recorded now, and run again", c->dir, n);
	ret = campaign_save_state(c);
	return ret ? ret : (int)n;
}

int retry_disturbed_round(struct kb_campaign *c, size_t i)
{
	const struct kb_run *r = &c->plan.runs[i];
	const struct kb_config *cfg = &c->cfg;
	int block = cfg->order == KB_ORDER_BLOCK;
	const char *cfg_id = block ? c->plan.configs[r->config].id : NULL;
	const char *job = block ? cfg->jobs[r->job] : NULL;
	struct kb_rmodel *m;
	char *ukey, *why, lb[KB_ITER_LABEL_MAX];
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
	ukey = unit_key(c, r);
	attempt = results_state_retries(&c->state, ukey);
	if (attempt >= cfg->retry_disturbed) {
		free(ukey);
		return 0;
	}

	m = kb_rmodel__load(c->dir, 0);
	if (!m) {	/* named by kb_rmodel__load() */
		free(ukey);
		return -EIO;
	}
	stats_mark_disturbed_in(m, NULL, 0);
	why = results_disturbed_in_unit(m->results, r->iteration,
					c->cfg.warmup, cfg_id, job);
	/* what retry_wait_quiet() holds the idle machine to: the limits
	 * the runs were just judged by */
	c->retry_quiet.busy_cpu_pct = m->campaign.disturbed.other_cpu_limit;
	c->retry_quiet.steal_pct = m->campaign.disturbed.steal_pct;
	c->retry_quiet.psi_cpu_pct = m->campaign.disturbed.psi_pct;
	kb_rmodel__delete(m);
	if (!why) {
		free(ukey);
		return 0;
	}

	attempt++;
	results_state_set_retries(&c->state, ukey, attempt);
	for (j = 0; j < c->plan.nruns && !ret; j++) {
		const char *key = c->plan.runs[j].key;
		char *from, *to;

		if (!same_unit(cfg, &c->plan.runs[j], r))
			continue;
		from = kb_run_dir(c->dir, key);
		to = superseded_name(from, attempt, NULL);
		if (kb_exists(from) && rename(from, to)) {
			ret = -errno;
			kb_error("cannot keep the superseded run %s as %s: %s",
				 from, to, strerror(errno));
		} else {
			results_state_add_superseded(&c->state, key,
				to + strlen(c->dir) + 1, attempt, why);
			results_state_del_run(&c->state, key);
			n++;
		}
		free(from);
		free(to);
	}
	if (!ret)
		ret = campaign_save_state(c);
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

int retry_failed_supersede(struct kb_campaign *c)
{
	size_t i;
	int n = 0, ret = 0;

	for (i = 0; i < c->plan.nruns && !ret; i++) {
		const char *key = c->plan.runs[i].key;
		const struct kb_run_record *st = campaign_run_state(c, key);
		char *from, *to = NULL, *why;
		unsigned k;

		if (!st || strcmp(st->status, "failed"))
			continue;
		from = kb_run_dir(c->dir, key);
		to = superseded_name(from, 1, &k);
		if (kb_exists(from) && rename(from, to)) {
			ret = -errno;
			kb_error("cannot keep the failed run %s as %s: %s",
				 from, to, strerror(errno));
		} else {
			why = kb_xasprintf("failed: %s", st->reason ?
					   st->reason : "(no reason recorded)");
			results_state_add_superseded(&c->state, key,
				to + strlen(c->dir) + 1, k, why);
			free(why);
			results_state_del_run(&c->state, key);
			n++;
		}
		free(from);
		free(to);
	}
	if (!ret && n) {
		ret = campaign_save_state(c);
		kb_info("--retry-failed: %d failed run(s) run again, each "
			"kept as NNN.superseded-N with its files", n);
	}
	return ret ? ret : n;
}

void retry_wait_quiet(const struct kb_campaign *c,
		      const volatile sig_atomic_t *stop)
{
	const struct kb_quiet_limits *l = &c->retry_quiet;
	double max_s = c->cfg.retry_quiet_wait_s, waited;
	char why[128];
	int q;

	if (!max_s || kb_driver_dry_run)
		return;
	if (isnan(l->busy_cpu_pct) && isnan(l->steal_pct) &&
	    isnan(l->psi_cpu_pct))
		return;		/* every rule off: nothing to wait for */
	/* said before: the wait is silent, up to retry_quiet_wait */
	kb_info("waiting up to %.0f s for a quiet second before the round "
		"runs again (retry_quiet_wait)", max_s);
	q = kb_wait_quiet(l, max_s, stop, &waited, why, sizeof(why));
	if (q < 0)
		kb_warn("cannot sample the machine (/proc/stat: %s): retrying "
			"without waiting for a quiet moment", strerror(-q));
	else if (stop && *stop)
		return;
	else if (q)
		kb_info("the machine was quiet for 1 s after %.1f s: running "
			"the round again", waited);
	else
		kb_info("the machine stayed busy for %.0f s (%s; "
			"retry_quiet_wait): running the round again anyway",
			waited, why);
}
