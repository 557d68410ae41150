/* tests/test_profiling.c - profiling runs (issue 16) and the compressed
 * perf report (issue 15): kernels.conf's profile_runs, profile_during
 * and keep (parsers/kconf.c), the extra runs of the plan
 * (runner/plan.c), their keys (results/paths.c, results/validate.c),
 * their statistics kept apart from the counted runs' (stats/profiling.c)
 * and the zstd round trip (lib/compress.c, lib/decompress.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/capture.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/compress.h"
#include "lib/decompress.h"
#include "lib/file.h"
#include "parsers/kconf.h"
#include "results/json.h"
#include "results/model.h"
#include "results/paths.h"
#include "reports/profile.h"
#include "reports/report.h"
#include "results/rmodel.h"
#include "runner/plan.h"
#include "stats/compare.h"
#include "stats/profiling.h"
#include "tests/analysis_round_trip.h"
#include "tests/report_fixture.h"

#define CONF(extra) "[global]\njobs = randread-4k\niterations = 2\n" \
	"warmup = 1\ntunable NM = queue/nomerges: 0 2\n" extra \
	"[running]\n"

/* Parse text; the return code, *msg = what was printed. */
static int parse(const char *text, struct kb_config *cfg, char **msg)
{
	struct capture c;
	int ret;

	cap_begin(&c);
	ret = kconf_parse("p.conf", text, cfg);
	*msg = cap_end(&c);
	return ret;
}

static void test_kconf_keys(void **state)
{
	struct kb_config cfg;
	char *msg;

	(void)state;
	/* defaults: one profiling run, sampling there, nothing raw kept */
	assert_int_equal(parse(CONF("profile = cycles\n"), &cfg, &msg), 0);
	assert_int_equal(cfg.profile_runs, 1);
	assert_int_equal(cfg.profile_during_counted, 0);
	assert_int_equal(cfg.keep, 0);
	free(msg);
	kconf_free(&cfg);

	assert_int_equal(parse(CONF("profile = cycles\nprofile_runs = 3\n"
				    "profile_during = counted-runs\n"
				    "keep = perf.data\n"), &cfg, &msg), 0);
	assert_int_equal(cfg.profile_runs, 3);
	assert_int_equal(cfg.profile_during_counted, 1);
	assert_true(cfg.keep & KB_KEEP_PERF_DATA);
	free(msg);
	kconf_free(&cfg);

	/* counted-runs without extra runs: allowed (overhead not measured) */
	assert_int_equal(parse(CONF("profile = cycles\nprofile_runs = 0\n"
				    "profile_during = counted-runs\n"), &cfg,
			       &msg), 0);
	free(msg);
	kconf_free(&cfg);
}

static void test_kconf_errors(void **state)
{
	struct kb_config cfg;
	char *msg;

	(void)state;
	assert_int_equal(parse(CONF("profile = cycles\nprofile_runs = 0\n"),
			       &cfg, &msg), -EINVAL);
	assert_non_null(strstr(msg, "p.conf:7: profile_runs = 0"));
	assert_non_null(strstr(msg, "nothing would be sampled"));
	free(msg);
	kconf_free(&cfg);

	assert_int_equal(parse(CONF("profile_during = always\n"), &cfg, &msg),
			 -EINVAL);
	assert_non_null(strstr(msg, "p.conf:6: profile_during = 'always': "
			       "expected profiling-runs"));
	free(msg);
	kconf_free(&cfg);

	assert_int_equal(parse(CONF("keep = perf.data fio.log\n"), &cfg, &msg),
			 -EINVAL);
	assert_non_null(strstr(msg, "p.conf:6: keep = 'perf.data fio.log': "
			       "unknown artefact 'fio.log' (expected "
			       "perf.data)"));
	free(msg);
	kconf_free(&cfg);

	/* the profiling keys without profile = would do nothing */
	assert_int_equal(parse(CONF("profile_runs = 2\n"), &cfg, &msg),
			 -EINVAL);
	assert_non_null(strstr(msg, "p.conf:6: profile_runs and profile_during "
			       "apply to profile = (no profile = line"));
	free(msg);
	kconf_free(&cfg);
	assert_int_equal(parse(CONF("profile_during = counted-runs\n"), &cfg,
			       &msg), -EINVAL);
	assert_non_null(strstr(msg, "p.conf:6: profile_runs and profile_during "
			       "apply to profile ="));
	free(msg);
	kconf_free(&cfg);

	assert_int_equal(parse(CONF("profile_runs = -1\n"), &cfg, &msg),
			 -EINVAL);
	assert_non_null(strstr(msg, "p.conf:6: profile_runs = '-1'"));
	free(msg);
	kconf_free(&cfg);
}

/* Every counted run of a timed round is followed by its extra runs (same
 * configuration, job and iteration), warm-ups have none, and only the
 * runs that should sample do. */
static void check_plan(const char *text, unsigned extra, int kind)
{
	struct kb_config cfg;
	struct kb_plan p;
	size_t i, counted = 0, extras = 0, sampled = 0;
	unsigned k;
	char *msg;

	assert_int_equal(parse(text, &cfg, &msg), 0);
	free(msg);
	assert_int_equal(plan_build(&cfg, &p), 0);
	/* 2 configurations x (1 warm-up + 2 timed rounds x (1 + extra)) */
	assert_int_equal(p.nruns, 2 * (1 + 2 * (1 + extra)));
	for (i = 0; i < p.nruns; i++) {
		const struct kb_run *r = &p.runs[i];

		sampled += plan_run_sampled(&cfg, r);
		if (r->extra) {
			extras++;
			assert_int_equal(r->extra, kind);
			assert_false(r->warmup);
			continue;
		}
		counted++;
		if (r->warmup)
			continue;
		for (k = 1; k <= extra; k++) {
			char *want = kb_extra_run_key(p.configs[r->config].id,
				"randread-4k", r->iteration, kind ==
				KB_RUN_PROFILING ? "profiling" : "unsampled",
				k);
			const struct kb_run *e = NULL;
			size_t j;

			/* right after it; order = random: in its round */
			if (cfg.order != KB_ORDER_RANDOM) {
				assert_true(i + k < p.nruns);
				e = &p.runs[i + k];
			} else {
				for (j = 0; j < p.nruns; j++)
					if (!strcmp(p.runs[j].key, want))
						e = &p.runs[j];
			}
			assert_non_null(e);
			assert_int_equal(e->extra, kind);
			assert_int_equal(e->config, r->config);
			assert_int_equal(e->iteration, r->iteration);
			assert_string_equal(e->key, want);
			free(want);
		}
	}
	assert_int_equal(counted, 6);
	assert_int_equal(extras, 4 * extra);
	/* profiling runs: they alone sample; counted-runs: all but them */
	assert_int_equal(sampled, kind == KB_RUN_PROFILING ? extras :
			 p.nruns - extras);
	plan_free(&p);
	kconf_free(&cfg);
}

static void test_plan_extra_runs(void **state)
{
	struct kb_config cfg;
	struct kb_plan p;
	size_t i;
	char *msg;

	(void)state;
	check_plan(CONF("profile = cycles\n"), 1, KB_RUN_PROFILING);
	check_plan(CONF("profile = cycles\nprofile_runs = 2\n"), 2,
		   KB_RUN_PROFILING);
	check_plan(CONF("profile = cycles\nprofile_during = counted-runs\n"),
		   1, KB_RUN_UNSAMPLED);
	check_plan(CONF("profile = cycles\norder = random\n"), 1,
		   KB_RUN_PROFILING);

	/* no profile =: no extra run (profile_runs defaults to 1), nothing
	 * samples */
	assert_int_equal(parse(CONF(""), &cfg, &msg), 0);
	free(msg);
	assert_int_equal(plan_build(&cfg, &p), 0);
	assert_int_equal(p.nruns, 6);
	for (i = 0; i < p.nruns; i++) {
		assert_int_equal(p.runs[i].extra, KB_RUN_COUNTED);
		assert_false(plan_run_sampled(&cfg, &p.runs[i]));
	}
	plan_free(&p);
	kconf_free(&cfg);
}

static void test_run_key_extra(void **state)
{
	char *k = kb_extra_run_key("stock,NM=0", "randread-4k", 3,
				   "profiling", 1);
	const char *kind;
	size_t len = 0;

	(void)state;
	assert_string_equal(k, "stock,NM=0/randread-4k/003-profiling1");
	kind = kb_run_key_extra(strrchr(k, '/') + 1, &len);
	assert_non_null(kind);
	assert_int_equal(len, strlen("profiling"));
	assert_memory_equal(kind, "profiling", len);
	assert_null(kb_run_key_extra("003", &len));
	free(k);
}

/* A run of the model with read.iops and a profile share. */
static json_t *run(const char *cfg, int it, const char *extra, double iops,
		   double io_pct)
{
	json_t *r = json_pack("{s:s, s:s, s:i, s:b, s:s, s:{s:f}}",
			      "configuration", cfg, "job", "randread-4k",
			      "iteration", it, "warmup", 0, "status", "ok",
			      "metrics", "read.iops", iops);

	if (extra)
		json_object_set_new(r, "extra", json_string(extra));
	if (io_pct >= 0)
		json_object_set_new(json_object_get(r, "metrics"),
				    "profile.cycles.io.total_pct",
				    json_real(io_pct));
	return r;
}

static json_t *find(json_t *arr, const char *cfg, const char *metric)
{
	json_t *e;
	size_t i;

	json_array_foreach(arr, i, e)
		if (!strcmp(kb_jstr(e, "configuration") ?: "", cfg) &&
		    (!metric || !strcmp(kb_jstr(e, "metric") ?: "", metric)))
			return e;
	return NULL;
}

/* Profiling runs stay out of the counted summaries; their own summaries
 * hold the profile; the overhead is the paired ratio of geometric
 * means, sampled / unsampled. */
static void test_stats_profiling(void **state)
{
	const double counted[3] = { 1000, 1100, 900 };
	const double prof[3] = { 900, 1045, 720 };
	const double io[3] = { 10, 12, 14 };
	json_t *res, *runs = json_array(), *pruns = json_array(), *s, *o;
	double sum_log = 0, mean_counted = 0;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		json_array_append_new(runs, run("a", i, NULL, counted[i], -1));
		json_array_append_new(pruns, run("a", i, "profiling", prof[i],
						 io[i]));
		sum_log += log(prof[i] / counted[i]);
		mean_counted += counted[i] / 3;
	}
	res = json_pack("{s:{s:s, s:[s]}, s:[{s:s, s:s}], s:o, s:o, s:[]}",
			"campaign", "baseline", "a", "jobs", "randread-4k",
			"configurations", "id", "a", "variant", "a",
			"runs", runs, "profiling_runs", pruns, "summaries");
	assert_int_equal(tree_analyse(res, NULL), 0);

	/* counted summaries: the counted runs' IOPS only, no profile */
	s = find(json_object_get(res, "summaries"), "a", "read.iops");
	assert_non_null(s);
	assert_int_equal(json_integer_value(json_object_get(s, "n")), 3);
	assert_true(fabs(json_number_value(json_object_get(s, "mean")) -
			 mean_counted) < 1e-9);
	assert_null(find(json_object_get(res, "summaries"), "a",
			 "profile.cycles.io.total_pct"));
	/* the profiling runs' own */
	s = find(json_object_get(res, "profiling_summaries"), "a",
		 "profile.cycles.io.total_pct");
	assert_non_null(s);
	assert_true(fabs(json_number_value(json_object_get(s, "mean")) -
			 (io[0] + io[1] + io[2]) / 3) < 1e-9);
	/* overhead: exp(mean ln(prof / counted)), the CI around it */
	o = find(json_object_get(res, "profile_overhead"), "a", NULL);
	assert_non_null(o);
	assert_string_equal(kb_jstr(o, "sampled"), "profiling runs");
	assert_int_equal(json_integer_value(json_object_get(o, "n")), 3);
	assert_true(fabs(json_number_value(json_object_get(o, "ratio")) -
			 exp(sum_log / 3)) < 1e-9);
	assert_true(json_number_value(json_object_get(o, "ci95_lo")) <
		    json_number_value(json_object_get(o, "ratio")));
	assert_true(json_number_value(json_object_get(o, "ci95_hi")) >
		    json_number_value(json_object_get(o, "ratio")));
	/* read back from the export: the same rows, the same JSON */
	assert_round_trip(res);
	json_decref(res);
}

/* profile_during = counted-runs: the counted runs are the sampled side. */
static void test_stats_counted_sampled(void **state)
{
	json_t *res;

	(void)state;
	res = json_pack("{s:{s:s, s:[s]}, s:[{s:s}], s:[o, o], s:[o, o], "
			"s:[]}", "campaign", "baseline", "a", "jobs",
			"randread-4k", "configurations", "id", "a",
			"runs", run("a", 0, NULL, 800, 5),
			run("a", 1, NULL, 900, 6), "profiling_runs",
			run("a", 0, "unsampled", 1000, -1),
			run("a", 1, "unsampled", 1000, -1), "summaries");
	assert_int_equal(tree_analyse(res, NULL), 0);
	assert_null(json_object_get(res, "profiling_summaries"));
	assert_string_equal(kb_jstr(find(json_object_get(res,
		"profile_overhead"), "a", NULL), "sampled"), "counted runs");
	assert_true(fabs(json_number_value(json_object_get(find(
		json_object_get(res, "profile_overhead"), "a", NULL),
		"ratio")) - sqrt(0.8 * 0.9)) < 1e-9);
	assert_round_trip(res);
	json_decref(res);
}

/* The typed rows (results/analysis.h) stats_fill_profiling_in() fills,
 * and what the profile table reads: those rows, not the tree. */
static void test_profile_typed_rows(void **state)
{
	static const int zero[1] = { 0 };
	const char *ids[1] = { "a" }, *variants[1] = { "a" };
	struct kb_profile_rows rows = {
		.n = 1, .ids = ids, .variants = variants, .group_start = zero,
		.baseline = "a",
	};
	const struct kb_profile_overhead_row *o;
	struct kb_rmodel *m, *back;
	struct kb_table *t[4];
	char *buf = NULL;
	size_t len = 0, n;
	json_t *res;
	FILE *f;

	(void)state;
	res = json_pack("{s:{s:s, s:[s]}, s:[{s:s, s:s}], s:[o, o], "
			"s:[o, o, o]}", "campaign", "baseline", "a", "jobs",
			"randread-4k", "configurations", "id", "a", "variant",
			"a", "runs", run("a", 0, NULL, 1000, -1),
			run("a", 1, NULL, 1000, -1), "profiling_runs",
			run("a", 0, "profiling", 900, 10),
			run("a", 1, "profiling", 800, 20),
			/* one round only: n = 1 for b, no CI */
			run("b", 0, "profiling", 500, 30));
	json_object_set_new(json_array_get(json_object_get(res,
		"profiling_runs"), 0), "warnings", json_pack("[i, s]", 1,
		"profile: cycles: cycles not supported here"));
	m = kb_rmodel__new(res);
	assert_non_null(m);
	assert_non_null(m->profiling);
	assert_int_equal(m->profiling->nruns, 3);
	assert_string_equal(m->profiling->runs[0].info.extra, "profiling");
	assert_int_equal(stats_fill_profiling_in(m), 0);
	assert_true(m->analysis.profiling_sampled);
	/* a (2 profile rows: read.iops and io share) and b */
	assert_non_null(kb_summary_rows__find(m->analysis.profiling_summaries,
		m->analysis.nprofiling_summaries, "b", "randread-4k",
		"profile.cycles.io.total_pct"));
	/* b has no counted run: no pair, no row */
	assert_int_equal(m->analysis.nprofile_overhead, 1);
	o = &m->analysis.profile_overhead[0];
	assert_string_equal(o->configuration, "a");
	assert_string_equal(o->sampled, "profiling runs");
	assert_int_equal(o->n, 2);
	assert_true(fabs(o->ratio - sqrt(0.9 * 0.8)) < 1e-9);
	assert_true(o->ci95_lo < o->ratio && o->ratio < o->ci95_hi);
	/* the tree has them; a model of it reads them back */
	assert_non_null(json_object_get(res, "profile_overhead"));
	back = kb_rmodel__new(res);
	assert_non_null(back);
	assert_int_equal(back->analysis.nprofile_overhead, 1);
	assert_true(back->analysis.profile_overhead[0].ratio == o->ratio);
	assert_int_equal(back->analysis.nprofiling_summaries,
			 m->analysis.nprofiling_summaries);
	kb_rmodel__delete(back);

	/* the table's note comes from the typed row: change it there */
	m->analysis.profile_overhead[0].ratio = 0.5;
	m->analysis.profile_overhead[0].ci95_lo = NAN;
	n = profile_tables_which(m, "randread-4k", &rows, t, 4,
				 PROFILE_ROLES);
	assert_int_equal(n, 1);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(kb_table_write_text(f, t[0], 200), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "mean of the profiling runs"));
	assert_non_null(strstr(buf, "a: 0.500 (n=2: no CI)"));
	/* the io share's mean of a's profiling runs: (10 + 20) / 2 */
	assert_non_null(strstr(buf, "15.00"));
	/* the extra runs' "profile:" warnings (typed run info), once */
	assert_non_null(strstr(buf, "cycles: cycles not supported here"));
	free(buf);
	kb_table_free(t[0]);
	kb_rmodel__delete(m);
	json_decref(res);
}

/* The text report of a campaign with profiling runs: the profile table
 * is theirs and says so, perf record's cost is under it, and a failed
 * profiling run is listed as one (not as a counted run). */
static void test_report_profiling_runs(void **state)
{
	json_t *res = results_load_export("tests/data/report/results.json");
	json_t *pruns = json_array(), *e;
	char *buf = NULL, *flat, *p, *q;
	size_t len = 0, i;
	FILE *f;
	int it;

	(void)state;
	assert_non_null(res);
	for (it = 1; it <= 3; it++) {
		json_array_append_new(pruns, run("running,NM=0", it, "profiling",
						 1000 + it, 5 + it));
		json_array_append_new(pruns, run("running,NM=1", it, "profiling",
						 1000 + it, 6 + it));
	}
	/* a DCM table too */
	json_array_foreach(pruns, i, e)
		json_object_set_new(json_object_get(e, "metrics"),
				    "profile.dcm.io.total_pct",
				    json_real(2.0 + (double)i));
	json_array_append_new(pruns, json_pack("{s:s, s:s, s:i, s:b, s:s, "
		"s:s, s:s, s:{}}", "configuration", "running,NM=2", "job",
		"randread-4k", "iteration", 2, "warmup", 0, "status",
		"failed", "extra", "profiling", "reason", "perf record died",
		"metrics"));
	json_object_set_new(res, "profiling_runs", pruns);
	assert_int_equal(tree_analyse(res, NULL), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(render_results(f, res, "text", NULL), 0);
	assert_int_equal(fclose(f), 0);
	/* one line of words: the text wraps at 80 columns */
	flat = kb_xstrdup(buf);
	for (p = q = flat; *p; p++) {
		if (*p == '\n')
			*p = ' ';
		if (*p == ' ' && q > flat && q[-1] == ' ')
			continue;
		*q++ = *p;
	}
	*q = '\0';
	assert_non_null(strstr(flat, "CPU profile (perf record -a), share of "
			       "samples, mean of the profiling runs"));
	assert_non_null(p = strstr(flat, "perf record's cost"));
	/* once, under the first profile table: the DCM table repeated it
	 * (the same ratios: a configuration's, not a role's; a helper's
	 * trial) */
	assert_non_null(strstr(flat, "DCM profile"));
	assert_null(strstr(p + 1, "perf record's cost"));
	assert_non_null(strstr(flat, "running,NM=2 randread-4k iteration 2 "
			       "(profiling run, not counted): perf record "
			       "died"));
	free(flat);
	free(buf);
	json_decref(res);
}

static void test_zstd_round_trip(void **state)
{
	char src[] = "/tmp/kbench-test-zstd.XXXXXX", *dst, *back = NULL;
	char *text = kb_xmalloc(200001);
	size_t i, len = 0;
	long plain, packed;
	FILE *f;
	int fd;

	(void)state;
	for (i = 0; i < 200000; i++)	/* a perf report is repetitive */
		text[i] = "  12.34%  fio [kernel.kallsyms] blk_mq_submit\n"
			  [i % 44];
	text[200000] = '\0';
	fd = mkstemp(src);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, 200000), 200000);
	close(fd);
	dst = kb_xasprintf("%s.zst", src);
	assert_int_equal(kb_compress_file_zstd(src, dst), 0);
	assert_int_equal(kb_decompress_file(dst, &back, &len), 0);
	assert_int_equal(len, 200000);
	assert_memory_equal(back, text, len);
	f = fopen(dst, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	packed = ftell(f);
	fclose(f);
	plain = 200000;
	assert_true(packed * 10 < plain);
	/* a missing source is an error, not an empty file */
	unlink(src);
	unlink(dst);
	{
		struct capture c;
		char *msg;

		cap_begin(&c);
		assert_true(kb_compress_file_zstd(src, dst) < 0);
		msg = cap_end(&c);
		free(msg);
		assert_false(kb_exists(dst));
	}
	free(back);
	free(dst);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kconf_keys),
		cmocka_unit_test(test_kconf_errors),
		cmocka_unit_test(test_plan_extra_runs),
		cmocka_unit_test(test_run_key_extra),
		cmocka_unit_test(test_stats_profiling),
		cmocka_unit_test(test_stats_counted_sampled),
		cmocka_unit_test(test_profile_typed_rows),
		cmocka_unit_test(test_report_profiling_runs),
		cmocka_unit_test(test_zstd_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
