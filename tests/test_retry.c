/* tests/test_retry.c - retry_disturbed (runner/retry.h) on a campaign's
 * plan and state, without fio: each planned run is recorded "ok" with a
 * metrics.json whose psi.cpu_some_pct is 5%, except b's run of
 * iteration 2 (timed round 2 of 3) and the warm-ups at 90% (>
 * disturbed_psi_pct 40: disturbed).  Checks which runs
 * retry_disturbed_round() supersedes for order = interleave and random
 * (the whole round, found at its end in the plan, whatever the shuffle)
 * and block (the disturbed run alone), that a warm-up or a quiet unit is
 * never retried, and that retry_disturbed = 1 stops at one attempt.
 * Runs from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "parsers/json_file.h"
#include "results/paths.h"
#include "runner/campaign.h"
#include "runner/retry.h"

/* Record plan run i "ok" with its metrics.json; psi_pct its CPU
 * pressure. */
static void record(struct kb_campaign *c, size_t i, double psi_pct)
{
	const struct kb_run *r = &c->plan.runs[i];
	char *rdir = kb_run_dir(c->dir, r->key), *mp;
	json_t *m;
	size_t nfailed = 0;

	assert_int_equal(kb_mkdir_p(rdir), 0);
	mp = kb_path_join(rdir, "metrics.json");
	m = json_pack("{s:s, s:s, s:s, s:i, s:b, s:{s:f, s:f}}", "status",
		      "ok", "configuration", c->plan.configs[r->config].id,
		      "job", c->cfg.jobs[r->job], "iteration", (int)r->iteration,
		      "warmup", r->warmup, "metrics", "read.iops", 1000.0,
		      "psi.cpu_some_pct", psi_pct);
	assert_int_equal(kb_json_write_atomic(mp, m), 0);
	assert_int_equal(campaign_record_result(c, r->key, "ok", NULL,
						&nfailed), 0);
	assert_int_equal(nfailed, 0);
	json_decref(m);
	free(mp);
	free(rdir);
}

/* A campaign of configurations a and b, one job, warm-up 1 and 3 timed
 * rounds, in order `order`: run it through, iteration 2's run of b (and
 * the warm-ups) disturbed; return in *sup the keys superseded (sorted, space
 * separated) and check the retries stop after one attempt. */
/* The campaign of configurations a and b, one job, warm-up 1 and 3
 * timed rounds, in order `order`, opened in a new directory tmpl/c
 * (tmpl: a mkdtemp() template, filled in); *conf its kernels.conf. */
static char *open_campaign(char *tmpl, const char *order,
			   struct kb_campaign *c, char **conf)
{
	char cwd[4096], *dir, *text;

	assert_non_null(mkdtemp(tmpl));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	dir = kb_path_join(tmpl, "c");
	*conf = kb_path_join(tmpl, "k.conf");
	text = kb_xasprintf("[global]\njobs = randread-4k\nwarmup = 1\n"
		"iterations = 3\norder = %s\nseed = 7\nretry_disturbed = 1\n"
		"target = file:%s/t\nprofiles = %s/profiles\n"
		"[a]\nmethod = local\n[b]\nmethod = local\n", order, tmpl, cwd);
	assert_int_equal(kb_write_atomic(*conf, text, strlen(text)), 0);
	free(text);
	assert_int_equal(campaign_open(c, dir, *conf, 1), 0);
	assert_int_equal(c->plan.nruns, 8);
	return dir;
}

/* rm -rf tmpl */
static void remove_tree(const char *tmpl)
{
	char *cmd = kb_xasprintf("rm -rf '%s'", tmpl);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void campaign(const char *order, char **sup, char **retries)
{
	char tmpl[] = "/tmp/kbench-test-retry.XXXXXX";
	char *dir, *conf, *spath;
	struct kb_campaign c;
	size_t i, nsup = 0, pass;
	json_t *st, *s, *e;
	int n;

	dir = open_campaign(tmpl, order, &c, &conf);

	/* twice through the plan, as the run loop does after a retry: the
	 * second pass redoes the superseded runs, disturbed again */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < c.plan.nruns; i++) {
			const struct kb_run *r = &c.plan.runs[i];
			int hit = r->warmup ||
				  (r->iteration == 2 && r->config == 1);

			if (campaign_run_state(&c, r->key))
				continue;
			record(&c, i, hit ? 90.0 : 5.0);
			n = retry_disturbed_round(&c, i);
			assert_true(n >= 0);
			if (pass)	/* retry_disturbed = 1: one attempt */
				assert_int_equal(n, 0);
			nsup += (size_t)n;
		}
	/* what state.json says, as written (results/state.h) */
	assert_int_equal(c.state.nsuperseded, nsup);
	spath = kb_path_join(dir, "state.json");
	st = kb_json_load(spath);
	free(spath);
	assert_non_null(st);
	s = json_object_get(st, "superseded");
	assert_int_equal(json_array_size(s), nsup);
	*sup = kb_xstrdup("");
	json_array_foreach(s, i, e) {
		char *t = kb_xasprintf("%s%s%s", *sup, i ? " " : "",
				       json_string_value(json_object_get(e,
						"key")));
		char *d = kb_path_join(dir, json_string_value(
			json_object_get(e, "dir")));

		assert_true(kb_exists(d));	/* kept on disk */
		/* why: the unit's disturbed run, its round as numbered for
		 * a reader (warm-up w1, then iterations 1..3) */
		assert_non_null(strstr(json_string_value(json_object_get(e,
			"reason")), "b randread-4k iteration 2: "));
		free(d);
		free(*sup);
		*sup = t;
	}
	*retries = json_dumps(json_object_get(st, "disturbed_retries"),
			      JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(st);
	/* every planned run done in the end */
	for (i = 0; i < c.plan.nruns; i++)
		assert_non_null(campaign_run_state(&c, c.plan.runs[i].key));
	campaign_close(&c);
	remove_tree(tmpl);
	free(conf);
	free(dir);
}

static void check(const char *order, const char *want_sup,
		  const char *want_retries)
{
	char *sup, *retries;

	campaign(order, &sup, &retries);
	/* round order: a superseded round lists its runs in plan order */
	if (strcmp(sup, want_sup)) {
		const char *alt = "b/randread-4k/002 a/randread-4k/002";

		if (strcmp(order, "random") || strcmp(sup, alt))
			fail_msg("order = %s: superseded '%s', expected '%s'",
				 order, sup, want_sup);
	}
	assert_string_equal(retries, want_retries);
	free(sup);
	free(retries);
}

/* interleave: the round with the disturbed run, both configurations */
static void test_interleave(void **state)
{
	(void)state;
	check("interleave", "a/randread-4k/002 b/randread-4k/002",
	      "{\"2\":1}");
}

/* random: the same round, found in the shuffled plan */
static void test_random(void **state)
{
	(void)state;
	check("random", "a/randread-4k/002 b/randread-4k/002", "{\"2\":1}");
}

/* block: no rounds; the disturbed run alone, its attempts by run key */
static void test_block(void **state)
{
	(void)state;
	check("block", "b/randread-4k/002", "{\"b/randread-4k/002\":1}");
}

/* state.json that cannot be written (a full disk; here a directory in
 * its place): the run is not recorded in memory either, and a run
 * recorded before keeps its record, so that the stop's "N of the M runs
 * to do left" is what a resume finds (a break-it trial: a run neither
 * left nor ran) */
static void test_record_unsaved(void **state)
{
	char tmpl[] = "/tmp/kbench-test-retry.XXXXXX", cwd[4096];
	char *dir, *conf, *text, *spath, *blocker;
	const struct kb_run_record *rec;
	struct kb_campaign c;
	size_t nfailed = 0;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	dir = kb_path_join(tmpl, "c");
	conf = kb_path_join(tmpl, "k.conf");
	text = kb_xasprintf("[global]\njobs = randread-4k\niterations = 2\n"
		"target = file:%s/t\nprofiles = %s/profiles\n"
		"[a]\nmethod = local\n", tmpl, cwd);
	assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);
	assert_int_equal(campaign_open(&c, dir, conf, 1), 0);
	assert_true(c.plan.nruns >= 2);
	assert_int_equal(campaign_record(&c, c.plan.runs[0].key, "ok",
					 NULL), 0);
	spath = kb_path_join(dir, "state.json");
	blocker = kb_path_join(spath, "x");
	assert_int_equal(unlink(spath), 0);
	assert_int_equal(kb_mkdir_p(blocker), 0);

	assert_true(campaign_record_result(&c, c.plan.runs[1].key, "ok",
					   NULL, &nfailed) < 0);
	assert_null(campaign_run_state(&c, c.plan.runs[1].key));
	assert_true(campaign_record(&c, c.plan.runs[0].key, "failed",
				    "again") < 0);
	rec = campaign_run_state(&c, c.plan.runs[0].key);
	assert_non_null(rec);
	assert_string_equal(rec->status, "ok");
	assert_null(rec->reason);
	assert_non_null(rec->finished);

	campaign_close(&c);
	remove_tree(tmpl);
	free(blocker);
	free(spath);
	free(text);
	free(conf);
	free(dir);
}

/* A kbench stopped between a supersede's renames and the state's save:
 * retry_resume_superseding() finishes it as the campaign is opened
 * again (a break-it trial: the resume ran the renamed run alone as a
 * deleted one, its copy unlisted, and --retry-failed recorded a
 * ".superseded-2" that was not there).  The quiet interleaved campaign,
 * then round 2's first run renamed as retry_disturbed_round() does, its
 * state untouched: both runs of the round are superseded (the second
 * renamed now), attempt 1, and run again; then a failed run renamed as
 * --retry-failed does: superseded alone with its reason. */
static void test_resume_superseding(void **state)
{
	char tmpl[] = "/tmp/kbench-test-retry.XXXXXX";
	char *dir, *conf, *from, *to, *k1 = NULL, *k2 = NULL;
	struct kb_campaign c;
	size_t i, nf = 0;

	(void)state;
	dir = open_campaign(tmpl, "interleave", &c, &conf);
	for (i = 0; i < c.plan.nruns; i++)
		record(&c, i, 5.0);
	assert_int_equal(retry_resume_superseding(&c), 0);	/* consistent */
	for (i = 0; i < c.plan.nruns; i++) {
		if (c.plan.runs[i].iteration != 2)
			continue;
		if (!k1)	/* copies: the plan goes with campaign_close() */
			k1 = kb_xstrdup(c.plan.runs[i].key);
		else
			k2 = kb_xstrdup(c.plan.runs[i].key);
	}
	assert_non_null(k2);
	from = kb_run_dir(dir, k1);
	to = kb_xasprintf("%s.superseded-1", from);
	assert_int_equal(rename(from, to), 0);
	free(from);
	free(to);
	/* resumed: finished as the campaign opens, before its validation
	 * takes the renamed run for a deleted one to run alone */
	campaign_close(&c);
	assert_int_equal(campaign_open(&c, dir, conf, 1), 0);
	assert_null(campaign_run_state(&c, k1));
	assert_null(campaign_run_state(&c, k2));
	assert_int_equal(c.state.nsuperseded, 2);
	for (i = 0; i < 2; i++) {
		char *d = kb_path_join(dir, c.state.superseded[i].dir);

		assert_true(kb_exists(d));
		assert_int_equal(c.state.superseded[i].attempt, 1);
		free(d);
	}
	from = kb_run_dir(dir, k2);
	assert_false(kb_exists(from));	/* renamed now */
	free(from);
	assert_int_equal(results_state_retries(&c.state, "2"), 1);

	/* a failed run (a warm-up) renamed by --retry-failed */
	free(k1);
	k1 = kb_xstrdup(c.plan.runs[0].key);
	assert_int_equal(campaign_record_result(&c, k1, "failed", "boom",
						&nf), 0);
	from = kb_run_dir(dir, k1);
	to = kb_xasprintf("%s.superseded-1", from);
	assert_int_equal(rename(from, to), 0);
	campaign_close(&c);
	assert_int_equal(campaign_open(&c, dir, conf, 1), 0);
	assert_null(campaign_run_state(&c, k1));
	assert_int_equal(c.state.nsuperseded, 3);
	assert_string_equal(c.state.superseded[2].reason, "failed: boom");
	assert_string_equal(c.state.superseded[2].dir, to + strlen(dir) + 1);
	assert_int_equal(results_state_retries(&c.state, "0"), 0);
	free(from);
	free(to);
	assert_int_equal(retry_resume_superseding(&c), 0);	/* done */
	campaign_close(&c);
	free(k1);
	free(k2);
	remove_tree(tmpl);
	free(conf);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleave),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_record_unsaved),
		cmocka_unit_test(test_resume_superseding),
	};

	kb_quiet = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
