/* tests/test_shards.c - kbench run --shard K/N: parsing K/N, which runs
 * a shard plans (whole rounds, warm-ups on every shard, the unsplit
 * order), the shard recorded in campaign.json and kept on resume, and
 * the shards read back as one campaign (results/shards.c): missing,
 * twice, other campaigns, environments.  Runs from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "parsers/json_file.h"
#include "parsers/kconf.h"
#include "results/campaign_info.h"
#include "results/model.h"
#include "runner/campaign.h"
#include "runner/plan.h"

#define CONF(extra) "[global]\njobs = randread-4k\nwarmup = 1\n" \
	"iterations = 5\ntarget = file:/tmp/x\n" extra \
	"[a]\nmethod = local\n[b]\nmethod = local\n"

static void test_parse(void **state)
{
	static const char *const bad[] = { "", "x", "2", "0/2", "3/2", "1/0",
		"1/1001", "-1/2", "1/-2", "1/2x", " 1/2", "1/ 2", "1//2",
		"1/", "/2", "99999999999999999999/2", NULL };
	unsigned k = 7, n = 7;
	size_t i;

	(void)state;
	assert_int_equal(plan_parse_shard("1/2", &k, &n), 0);
	assert_int_equal(k, 1);
	assert_int_equal(n, 2);
	assert_int_equal(plan_parse_shard("1000/1000", &k, &n), 0);
	assert_int_equal(k, 1000);
	assert_int_equal(plan_parse_shard("1/1", &k, &n), 0);
	for (i = 0; bad[i]; i++) {
		k = n = 7;
		assert_int_equal(plan_parse_shard(bad[i], &k, &n), -EINVAL);
		assert_int_equal(k, 7);		/* untouched */
	}
	assert_int_equal(plan_parse_shard(NULL, &k, &n), -EINVAL);
}

static void shard_plan(const char *text, unsigned k, unsigned n,
		       struct kb_config *cfg, struct kb_plan *p)
{
	assert_int_equal(kconf_parse("t.conf", text, cfg), 0);
	assert_int_equal(plan_build(cfg, p), 0);
	if (n)
		assert_int_equal(plan_shard(cfg, p, k, n), 0);
}

/* Every timed run of the unsplit plan is in exactly one shard, whole
 * rounds, in the unsplit order; every shard has every warm-up. */
static void check_split(const char *text, unsigned n)
{
	struct kb_config cfg;
	struct kb_plan all, *sh = calloc(n, sizeof(*sh));
	size_t i, j, *pos = calloc(n, sizeof(*pos));
	unsigned k;

	for (k = 0; k < n; k++) {
		shard_plan(text, k + 1, n, &cfg, &sh[k]);
		kconf_free(&cfg);
	}
	shard_plan(text, 0, 0, &cfg, &all);	/* cfg kept for shard_of */
	for (i = 0; i < all.nruns; i++) {
		const struct kb_run *r = &all.runs[i];
		unsigned owner = plan_shard_of(&cfg, r->iteration, n);

		for (k = 0; k < n; k++) {
			int in = 0;

			for (j = 0; j < sh[k].nruns; j++)
				in |= !strcmp(sh[k].runs[j].key, r->key);
			if (r->warmup)
				assert_true(in && owner == 0);
			else
				assert_int_equal(in, owner == k + 1);
			/* the unsplit order: the next run of shard k */
			if (in) {
				assert_string_equal(sh[k].runs[pos[k]].key,
						    r->key);
				pos[k]++;
			}
		}
	}
	for (k = 0; k < n; k++) {
		assert_int_equal(pos[k], sh[k].nruns);
		plan_free(&sh[k]);
	}
	plan_free(&all);
	kconf_free(&cfg);
	free(sh);
	free(pos);
}

static void test_plan(void **state)
{
	struct kb_config cfg;
	struct kb_plan p;

	(void)state;
	shard_plan(CONF(""), 2, 2, &cfg, &p);
	/* timed iterations 1..5: t = 1, 3 on shard 2; warm-up 0 too */
	assert_int_equal(p.nruns, 2 * 3);
	assert_string_equal(p.runs[0].key, "a/randread-4k/000");
	assert_true(p.runs[0].warmup);
	assert_string_equal(p.runs[2].key, "a/randread-4k/002");
	assert_string_equal(p.runs[5].key, "b/randread-4k/004");
	plan_free(&p);
	kconf_free(&cfg);
	assert_int_equal(plan_shard_of(&(struct kb_config){ .warmup = 2 }, 1,
				       3), 0);
	assert_int_equal(plan_shard_of(&(struct kb_config){ .warmup = 2 }, 2,
				       3), 1);
	assert_int_equal(plan_shard_of(&(struct kb_config){ .warmup = 2 }, 6,
				       3), 2);

	check_split(CONF(""), 1);
	check_split(CONF(""), 2);
	check_split(CONF(""), 5);
	check_split(CONF("order = random\nseed = 7\n"), 3);
	check_split(CONF("order = block\n"), 2);
}

static void test_plan_refused(void **state)
{
	struct kb_config cfg;
	struct kb_plan p;

	(void)state;
	/* more shards than timed iterations: a shard would measure nothing */
	shard_plan(CONF(""), 0, 0, &cfg, &p);
	assert_int_equal(plan_shard(&cfg, &p, 1, 6), -EINVAL);
	plan_free(&p);
	kconf_free(&cfg);
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = randread-4k\n"
		"iterations = auto\nmin_iterations = 4\ntarget = file:/tmp/x\n"
		"[a]\nmethod = local\n", &cfg), 0);
	assert_int_equal(plan_build(&cfg, &p), 0);
	assert_int_equal(plan_shard(&cfg, &p, 1, 2), -EINVAL);
	plan_free(&p);
	kconf_free(&cfg);
}

/* campaign.json records the shard; resume keeps it; another shard or an
 * unsplit campaign in the same directory is refused. */
static void test_campaign(void **state)
{
	char tmpl[] = "/tmp/kbench-test-shards.XXXXXX", cwd[4096];
	char *dir, *conf, *text, *cjp, *sdir;
	struct kb_campaign c;
	json_t *cj, *its;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	dir = kb_path_join(tmpl, "shard-2");
	sdir = kb_path_join(tmpl, "whole");
	conf = kb_path_join(tmpl, "k.conf");
	text = kb_xasprintf("[global]\njobs = randread-4k\nwarmup = 1\n"
		"iterations = 4\ntarget = file:%s/t\nprofiles = %s/profiles\n"
		"[a]\nmethod = local\n", tmpl, cwd);
	assert_int_equal(kb_write_atomic(conf, text, strlen(text)), 0);

	assert_int_equal(campaign_open_shard(&c, dir, conf, 1, 2, 2), 0);
	assert_int_equal(c.plan.nruns, 3);
	campaign_close(&c);
	cjp = kb_path_join(dir, "campaign.json");
	cj = kb_json_load(cjp);
	assert_non_null(cj);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(cj,
		"shard"), "k")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(cj,
		"shard"), "n")), 2);
	its = json_object_get(json_object_get(cj, "shard"), "iterations");
	assert_int_equal(json_array_size(its), 3);
	assert_int_equal(json_integer_value(json_array_get(its, 2)), 4);
	assert_int_equal(strlen(json_string_value(json_object_get(
		json_object_get(cj, "shard"), "conf_sha256"))), 64);
	assert_int_equal(json_array_size(json_object_get(cj, "plan")), 3);
	json_decref(cj);

	/* resume without --shard: the recorded one */
	assert_int_equal(campaign_open(&c, dir, NULL, 0), 0);
	assert_int_equal(c.shard_k, 2);
	assert_int_equal(c.plan.nruns, 3);
	campaign_close(&c);
	assert_int_equal(campaign_open_shard(&c, dir, conf, 1, 2, 2), 0);
	campaign_close(&c);
	assert_int_equal(campaign_open_shard(&c, dir, NULL, 0, 1, 2), -EEXIST);
	campaign_close(&c);
	/* an unsplit campaign refuses a shard */
	assert_int_equal(campaign_open(&c, sdir, conf, 1), 0);
	assert_int_equal(c.plan.nruns, 5);
	campaign_close(&c);
	assert_int_equal(campaign_open_shard(&c, sdir, NULL, 0, 1, 2), -EEXIST);
	campaign_close(&c);

	{
		char *cmd = kb_xasprintf("rm -rf '%s'", tmpl);

		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
	free(cjp);
	free(text);
	free(conf);
	free(sdir);
	free(dir);
}

/* A shard's results model: one configuration "a", the given timed
 * iterations plus warm-up 0. */
static json_t *shard_model(int k, int n, const char *sum, const char *cpu,
			   const char *jobfile, const int *its, size_t nits)
{
	json_t *runs = json_array(), *iters = json_array();
	size_t i;

	json_array_append_new(iters, json_integer(0));
	json_array_append_new(runs, json_pack("{s:s, s:s, s:i, s:b, s:s, "
		"s:{s:f}}", "configuration", "a", "job", "j", "iteration", 0,
		"warmup", 1, "status", "ok", "metrics", "read.iops", 1.0));
	for (i = 0; i < nits; i++) {
		json_array_append_new(iters, json_integer(its[i]));
		json_array_append_new(runs, json_pack("{s:s, s:s, s:i, s:b, "
			"s:s, s:{s:f}}", "configuration", "a", "job", "j",
			"iteration", its[i], "warmup", 0, "status", "ok",
			"metrics", "read.iops", 100.0 + its[i]));
	}
	return json_pack("{s:i, s:s, s:{s:s, s:s, s:[s], s:i, s:i, s:{s:s}, "
		"s:{s:s, s:s, s:s}, s:{s:i, s:i, s:o, s:s}}, s:[{s:s}], s:o, "
		"s:[]}", "schema_version", 1, "kbench_version", "t",
		"campaign", "name", "x", "baseline", "a", "jobs", "j",
		"iterations", 4, "warmup", 1, "job_files", "j", jobfile,
		"environment", "cpu_model", cpu, "kernel_release", "6.1",
		"fio_version", "fio-3.33",
		"shard", "k", k, "n", n, "iterations", iters,
		"conf_sha256", sum,
		"configurations", "id", "a", "runs", runs, "summaries");
}

static void test_merge(void **state)
{
	static const int i1[] = { 1, 3 }, i2[] = { 2, 4 };
	json_t *m[4], *merged, *runs, *r;
	const char *names[4] = { "c/shard-2", "c/shard-1", "other", "c/x" };
	size_t n, i;
	long last = -1;

	(void)state;
	m[0] = shard_model(2, 2, "aa", "cpu", "J", i2, 2);
	m[1] = shard_model(1, 2, "aa", "cpu", "J", i1, 2);
	/* profile =: each shard's profiling runs stay apart in the merge */
	json_object_set_new(m[0], "profiling_runs", json_pack("[{s:s, s:s, "
		"s:i, s:s, s:s}]", "configuration", "a", "job", "j",
		"iteration", 2, "status", "ok", "extra", "profiling"));
	json_object_set_new(m[1], "profiling_runs", json_pack("[{s:s, s:s, "
		"s:i, s:s, s:s}]", "configuration", "a", "job", "j",
		"iteration", 1, "status", "ok", "extra", "profiling"));

	merged = results_merge_shards(m, names, 2);
	assert_non_null(merged);
	runs = json_object_get(merged, "profiling_runs");
	assert_int_equal(json_array_size(runs), 2);
	json_array_foreach(runs, i, r)
		assert_int_equal(json_integer_value(json_object_get(r,
			"shard")), json_integer_value(json_object_get(r,
			"iteration")) % 2 ? 1 : 2);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		merged, "campaign"), "name")), "c");
	assert_null(json_object_get(json_object_get(merged, "campaign"),
				    "shard"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_object_get(merged, "campaign"), "shards"), "n")), 2);
	runs = json_object_get(merged, "runs");
	assert_int_equal(json_array_size(runs), 6);	/* 4 timed, 2 warm */
	json_array_foreach(runs, i, r) {
		long it = (long)json_integer_value(json_object_get(r,
							"iteration"));

		assert_true(it >= last);	/* round order */
		last = it;
		if (it)
			assert_int_equal(json_integer_value(json_object_get(r,
				"shard")), it % 2 ? 1 : 2);
	}
	json_decref(merged);

	/* missing, twice */
	assert_null(results_merge_shards(m, names, 1));
	m[2] = json_deep_copy(m[0]);
	assert_null(results_merge_shards((json_t *[]){ m[0], m[2], m[1] },
		(const char *[]){ "a", "b", "c" }, 3));
	json_decref(m[2]);
	/* another campaign (conf text) is not a shard of this one */
	m[2] = shard_model(2, 2, "bb", "cpu", "J", i2, 2);
	assert_null(results_merge_shards((json_t *[]){ m[1], m[2] },
		(const char *[]){ "a", "b" }, 2));
	json_decref(m[2]);
	/* other job files: refused; another CPU: a warning only */
	m[2] = shard_model(2, 2, "aa", "cpu", "K", i2, 2);
	assert_null(results_merge_shards((json_t *[]){ m[1], m[2] },
		(const char *[]){ "a", "b" }, 2));
	json_decref(m[2]);
	m[2] = shard_model(2, 2, "aa", "other cpu", "J", i2, 2);
	merged = results_merge_shards((json_t *[]){ m[1], m[2] },
		(const char *[]){ "a", "b" }, 2);
	assert_non_null(merged);
	json_decref(merged);
	json_decref(m[2]);

	/* combine: the shards of one campaign at the first's place; a whole
	 * campaign untouched */
	m[2] = json_pack("{s:{s:s, s:[s]}, s:[], s:[]}", "campaign",
			 "baseline", "a", "jobs", "j", "configurations", "runs");
	m[3] = json_incref(m[1]);	/* same shard given twice */
	n = 3;
	assert_int_equal(results_combine_shards(m, names, &n), 0);
	assert_int_equal(n, 2);
	assert_non_null(json_object_get(json_object_get(m[0], "campaign"),
					"shards"));
	assert_string_equal(names[0], "c/shard-2");
	assert_string_equal(names[1], "other");
	assert_false(results_is_shard(m[1]));
	json_decref(m[0]);
	m[0] = shard_model(2, 2, "aa", "cpu", "J", i2, 2);
	json_decref(m[1]);
	m[1] = m[3];
	n = 2;
	assert_int_equal(results_combine_shards(&m[0], names, &n), 0);
	json_decref(m[0]);
	m[0] = shard_model(1, 2, "aa", "cpu", "J", i1, 2);
	m[1] = shard_model(1, 2, "aa", "cpu", "J", i1, 2);
	m[2] = json_pack("{s:{s:s, s:[s]}, s:[], s:[]}", "campaign",
			 "baseline", "a", "jobs", "j", "configurations", "runs");
	n = 3;
	assert_int_equal(results_combine_shards(m, names, &n), -1);
	assert_int_equal(n, 3);		/* unchanged on error */
	for (i = 0; i < 3; i++)
		json_decref(m[i]);
}

/* A shard interrupted (a break-it trial): the merged campaign's progress
 * is the shards' sum, and its report and compare name the unfinished
 * shard's own directory to resume (kbench run -o on the directory holding
 * the shards starts no shard) */
static void test_merge_unfinished(void **state)
{
	static const int i1[] = { 1, 3 }, i2[] = { 2 };
	const char *names[2] = { "c/shard-1", "c/shard-2" };
	struct kb_rcampaign rc;
	json_t *m[2], *merged, *from;
	char *todo;

	(void)state;
	m[0] = shard_model(1, 2, "aa", "cpu", "J", i1, 2);
	m[1] = shard_model(2, 2, "aa", "cpu", "J", i2, 1);
	json_object_set_new(json_object_get(m[0], "campaign"), "progress",
			    json_pack("{s:i, s:i}", "planned", 3, "done", 3));
	json_object_set_new(json_object_get(m[1], "campaign"), "progress",
			    json_pack("{s:i, s:i}", "planned", 3, "done", 2));
	merged = results_merge_shards(m, names, 2);
	assert_non_null(merged);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_object_get(merged, "campaign"), "progress"), "done")), 5);
	from = json_object_get(json_object_get(json_object_get(merged,
		"campaign"), "shards"), "from");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		json_array_get(from, 1), "progress"), "done")), 2);
	kb_rcampaign__fill(&rc, merged);
	todo = kb_rcampaign__unfinished_shards(&rc);
	assert_non_null(todo);
	assert_string_equal(todo, "shard 2/2 has 1 to do: kbench run -o "
			    "c/shard-2 resumes it");
	free(todo);
	/* failed runs: each one's shard, by its own directory (kbench
	 * compare named the directory holding the shards) */
	{
		static const long long k2[] = { 2, 2 }, k12[] = { 2, 1, 2 };

		todo = kb_rcampaign__retry_failed_hint(&rc, "c", k2, 2);
		assert_string_equal(todo, "kbench run -o c/shard-2 "
				    "--retry-failed runs them again");
		free(todo);
		todo = kb_rcampaign__retry_failed_hint(&rc, "c", k12, 3);
		assert_string_equal(todo, "kbench run -o c/shard-1 "
				    "--retry-failed; kbench run -o c/shard-2 "
				    "--retry-failed run them again");
		free(todo);
	}
	kb_rcampaign__clear(&rc);
	json_decref(merged);
	/* a shard alone is no merged campaign */
	kb_rcampaign__fill(&rc, m[1]);
	assert_null(kb_rcampaign__unfinished_shards(&rc));
	todo = kb_rcampaign__retry_failed_hint(&rc, "c/shard-2", NULL, 0);
	assert_string_equal(todo, "kbench run -o c/shard-2 --retry-failed "
			    "runs them again");
	free(todo);
	kb_rcampaign__clear(&rc);
	json_decref(m[0]);
	json_decref(m[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_refused),
		cmocka_unit_test(test_campaign),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_unfinished),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
