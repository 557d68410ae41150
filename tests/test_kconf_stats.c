/* tests/test_kconf_stats.c - the statistics keys of kernels.conf (alpha,
 * min_effect, min_effect METRIC, iterations = auto with min_iterations,
 * max_iterations, target_ci_pct), plan_add_round() and the adaptive stop
 * rule (runner/adaptive.c).  Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "lib/file.h"
#include "parsers/kconf.h"
#include "runner/adaptive.h"
#include "runner/plan.h"

#define HEAD "[global]\njobs = randread-4k\ntunable NM = queue/nomerges: 0 1\n"
#define TAIL "[running]\nmethod = local\n"

static void test_defaults(void **state)
{
	struct kb_config cfg;

	(void)state;
	assert_int_equal(kconf_parse("t.conf", HEAD TAIL, &cfg), 0);
	assert_true(fabs(cfg.alpha - 0.05) < 1e-12);
	assert_true(fabs(cfg.min_effect_pct - 1.0) < 1e-12);
	assert_int_equal(cfg.iterations_auto, 0);
	assert_int_equal(cfg.nmin_effects, 0);
	assert_true(fabs(cfg.max_mde_pct - 5.0) < 1e-12);
	assert_int_equal(cfg.nmax_mdes, 0);
	kconf_free(&cfg);
}

static void test_keys(void **state)
{
	struct kb_config cfg;

	(void)state;
	assert_int_equal(kconf_parse("t.conf", HEAD
		"alpha = 0.01\nmin_effect = 2%\nmin_effect read.iops = 0.5\n"
		"min_effect write.clat_p99_ns = 5\niterations = auto\n"
		"min_iterations = 4\nmax_iterations = 12\n"
		"target_ci_pct = 0.5\nmax_mde = 3%\nmax_mde read.iops = 2\n"
		"target_metrics = read.iops write.iops\n"
		TAIL, &cfg), 0);
	assert_string_equal(cfg.target_metrics, "read.iops write.iops");
	assert_true(fabs(cfg.max_mde_pct - 3.0) < 1e-12);
	assert_int_equal(cfg.nmax_mdes, 1);
	assert_string_equal(cfg.max_mdes[0].metric, "read.iops");
	assert_true(fabs(cfg.max_mdes[0].pct - 2.0) < 1e-12);
	assert_true(fabs(cfg.alpha - 0.01) < 1e-12);
	assert_true(fabs(cfg.min_effect_pct - 2.0) < 1e-12);
	assert_int_equal(cfg.nmin_effects, 2);
	assert_string_equal(cfg.min_effects[0].metric, "read.iops");
	assert_true(fabs(cfg.min_effects[0].pct - 0.5) < 1e-12);
	assert_string_equal(cfg.min_effects[1].metric, "write.clat_p99_ns");
	assert_int_equal(cfg.iterations_auto, 1);
	assert_int_equal(cfg.iterations, 4);	/* the first rounds */
	assert_int_equal(cfg.min_iterations, 4);
	assert_int_equal(cfg.max_iterations, 12);
	assert_true(fabs(cfg.target_ci_pct - 0.5) < 1e-12);
	kconf_free(&cfg);
}

static void test_errors(void **state)
{
	struct kb_config cfg;

	(void)state;
	assert_int_equal(kconf_parse("t.conf", HEAD "alpha = 0.7\n" TAIL,
				     &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "alpha = 0\n" TAIL,
				     &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "min_effect = -1\n" TAIL,
				     &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "min_effect no.such = 1\n"
				     TAIL, &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "max_mde = -1\n" TAIL,
				     &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "max_mde no.such = 1\n"
				     TAIL, &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "max_mde read.iops = 1\n"
				     "max_mde read.iops = 2\n" TAIL, &cfg),
			 -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "min_effect read.iops = 1\n"
				     "min_effect read.iops = 2\n" TAIL, &cfg),
			 -EINVAL);
	/* min/max only with auto; min <= max */
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = 5\n"
				     "max_iterations = 9\n" TAIL, &cfg),
			 -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = auto\n"
				     "min_iterations = 9\nmax_iterations = 4\n"
				     TAIL, &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = autox\n"
				     TAIL, &cfg), -EINVAL);
	/* target_metrics: with auto, known metric names only */
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = 5\n"
				     "target_metrics = read.iops\n" TAIL,
				     &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = auto\n"
				     "target_metrics = read.iops no.such\n"
				     TAIL, &cfg), -EINVAL);
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = auto\n"
				     "target_metrics = read.iops,read.bw_kib\n"
				     TAIL, &cfg), 0);
	kconf_free(&cfg);
}

static void test_add_round(void **state)
{
	struct kb_config cfg;
	struct kb_plan p;
	size_t i, before;

	(void)state;
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = auto\n"
				     "min_iterations = 2\nwarmup = 1\n" TAIL,
				     &cfg), 0);
	assert_int_equal(plan_build(&cfg, &p), 0);
	assert_int_equal(p.nruns, 2 * 3);
	assert_int_equal(plan_rounds(&p), 3);
	before = p.nruns;
	assert_int_equal(plan_add_round(&cfg, &p), 2);
	assert_int_equal(plan_rounds(&p), 4);
	for (i = before; i < p.nruns; i++) {
		assert_int_equal(p.runs[i].iteration, 3);
		assert_false(p.runs[i].warmup);
	}
	/* round 3 of 2 configurations starts at configuration 3 mod 2 = 1
	 * (runner/plan.h: rotation), as plan_build() would have it */
	assert_string_equal(p.runs[before].key, "running,NM=1/randread-4k/003");
	assert_string_equal(p.runs[before + 1].key,
			    "running,NM=0/randread-4k/003");
	plan_free(&p);
	kconf_free(&cfg);
}

/* order = interleave rotates: round r starts at configuration r mod C,
 * so over C rounds every configuration runs in every position; iteration
 * i of every configuration still comes before iteration i+1 of any.
 * order = random: every round is still one run of each configuration;
 * order = block is not rotated. */
static void test_rotation(void **state)
{
	static const char *const orders[] = { "interleave", "random", "block" };
	struct kb_config cfg;
	struct kb_plan p;
	size_t o, i, r, c, pos[3][3];
	unsigned last;
	char *conf;

	(void)state;
	for (o = 0; o < 3; o++) {
		conf = kb_xasprintf("[global]\njobs = randread-4k\n"
			"tunable NM = queue/nomerges: 0 1 2\niterations = 5\n"
			"warmup = 1\norder = %s\nseed = 3\n" TAIL, orders[o]);
		assert_int_equal(kconf_parse("t.conf", conf, &cfg), 0);
		assert_int_equal(plan_build(&cfg, &p), 0);
		assert_int_equal(p.nconfigs, 3);
		assert_int_equal(p.nruns, 3 * 6);
		memset(pos, 0, sizeof(pos));
		last = 0;
		for (i = 0; i < p.nruns; i++) {
			c = p.runs[i].config;
			if (o == 2) {	/* block: configuration by configuration */
				assert_int_equal(c, i / 6);
				continue;
			}
			/* rounds in order, each one run of every configuration */
			assert_true(p.runs[i].iteration >= last);
			last = p.runs[i].iteration;
			assert_int_equal(p.runs[i].iteration, i / 3);
			if (o == 0)
				assert_int_equal(c, (i % 3 + i / 3) % 3);
			pos[i % 3][c]++;
		}
		if (o == 0)	/* rounds 0-5: each position held by each
				 * configuration twice */
			for (r = 0; r < 3; r++)
				for (c = 0; c < 3; c++)
					assert_int_equal(pos[r][c], 2);
		if (o == 1)
			for (c = 0; c < 3; c++)
				assert_int_equal(pos[0][c] + pos[1][c] +
						 pos[2][c], 6);
		plan_free(&p);
		kconf_free(&cfg);
		free(conf);
	}
}

/* Two variants of two configurations each: the variants rotate, then
 * the configurations inside them; a variant's configurations stay
 * together (one boot per variant per round) and over 4 rounds each
 * configuration holds each position once. */
static void test_rotation_variants(void **state)
{
	struct kb_config cfg;
	struct kb_plan p;
	size_t i, c, pos[4][4] = { { 0 } };

	(void)state;
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = 4\n"
		"warmup = 0\n[a]\nmethod = local\n[b]\nmethod = local\n",
		&cfg), 0);
	assert_int_equal(plan_build(&cfg, &p), 0);
	assert_int_equal(p.nconfigs, 4);
	assert_int_equal(p.nruns, 16);
	for (i = 0; i < p.nruns; i++) {
		c = p.runs[i].config;
		assert_int_equal(p.runs[i].iteration, i / 4);
		pos[i % 4][c]++;
		if (i % 2)	/* the same variant as the run before */
			assert_int_equal(p.configs[c].variant,
					 p.configs[p.runs[i - 1].config].variant);
	}
	for (i = 0; i < 4; i++)
		for (c = 0; c < 4; c++)
			assert_int_equal(pos[i][c], 1);
	plan_free(&p);
	kconf_free(&cfg);
}

/* Variants that boot (method = vm): the variants keep their order, one
 * boot of each per round (A B A B), and the configurations inside each
 * rotate. */
static void test_rotation_booting_variants(void **state)
{
	struct kb_config cfg;
	struct kb_plan p;
	size_t i, c;

	(void)state;
	assert_int_equal(kconf_parse("t.conf", HEAD "iterations = 4\n"
		"warmup = 0\n[a]\nmethod = vm\nkernel = /k\n"
		"[b]\nmethod = vm\nkernel = /k2\n", &cfg), 0);
	assert_int_equal(plan_build(&cfg, &p), 0);
	assert_int_equal(p.nconfigs, 4);
	for (i = 0; i < p.nruns; i++) {
		c = p.runs[i].config;
		assert_int_equal(p.configs[c].variant, (i % 4) / 2);
		/* inside the variant: NM=0 first in even rounds */
		assert_int_equal(c % 2, (i % 2 + i / 4) % 2);
	}
	/* one boot per variant per round */
	assert_int_equal(plan_count_boots(&cfg, &p, NULL), 8);
	plan_free(&p);
	kconf_free(&cfg);
}

/* A results model with summaries (CI half-widths given in % of a mean
 * of 100) and one comparison of B with A by analysis, whose change has
 * the 95% CI [lo, hi] %. */
static json_t *model(double base_half, double new_half, const char *analysis,
		     double lo, double hi)
{
	return json_pack("{s:[{s:s, s:s, s:s, s:f, s:f, s:f},"
			 "{s:s, s:s, s:s, s:f, s:f, s:f}],"
			 "s:[{s:s, s:s, s:s, s:s, s:s, s:f, s:f}]}",
		"summaries",
		"configuration", "A", "job", "j", "metric", "read.iops",
		"mean", 100.0, "ci95_lo", 100.0 - base_half,
		"ci95_hi", 100.0 + base_half,
		"configuration", "B", "job", "j", "metric", "read.iops",
		"mean", 100.0, "ci95_lo", 100.0 - new_half,
		"ci95_hi", 100.0 + new_half,
		"comparisons", "configuration", "B", "baseline", "A", "job", "j",
		"metric", "read.iops", "analysis", analysis,
		"change_ci95_lo_pct", lo, "change_ci95_hi_pct", hi);
}

/* adaptive_decide() on the CIs of res, as adaptive_next() reads them. */
static int decide(json_t *res, const struct kb_config *cfg, unsigned rounds,
		  char **why)
{
	struct results_cis cis;
	int ret;

	results_cis_of(res, &cis);
	ret = adaptive_decide(&cis, cfg, rounds, why);
	results_cis_free(&cis);
	return ret;
}

static void test_adaptive_decide(void **state)
{
	struct kb_config cfg;
	json_t *res;
	char *why;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.target_ci_pct = 1.0;
	cfg.max_iterations = 10;

	/* unpaired (Welch on ln values): the CI of the change decides, the
	 * spread its MDE uses too (both samples), not the CIs of the two
	 * means: narrow means, change +-1.5%: go on */
	res = model(0.5, 0.9, "welch-log", -1.0, 2.0);
	assert_int_equal(decide(res, &cfg, 3, &why), 1);
	assert_non_null(strstr(why, "+-1.50% of the change vs A, Welch on "
			       "ln values (B j read.iops)"));
	free(why);
	/* ... unless the maximum is reached */
	assert_int_equal(decide(res, &cfg, 10, &why), 0);
	assert_non_null(strstr(why, "max_iterations = 10 reached"));
	free(why);
	json_decref(res);

	/* the change's CI below target: stop, however wide the means' */
	res = model(3.0, 3.0, "welch-log", -0.5, 1.3);
	assert_int_equal(decide(res, &cfg, 3, &why), 0);
	assert_non_null(strstr(why, "below target_ci_pct = 1%"));
	assert_non_null(strstr(why, "+-0.90% of the change vs A"));
	free(why);
	json_decref(res);

	/* paired by round: the CI of the change decides, not the means'
	 * (wide here: a round effect the pairing removes) */
	res = model(3.0, 3.0, "paired", -0.4, 1.2);
	assert_int_equal(decide(res, &cfg, 3, &why), 0);
	assert_non_null(strstr(why, "+-0.80% of the change vs A, paired by "
			       "round (B j read.iops)"));
	free(why);
	json_object_set_new(json_array_get(json_object_get(res,
		"comparisons"), 0), "change_ci95_hi_pct", json_real(3.0));
	assert_int_equal(decide(res, &cfg, 3, &why), 1);
	assert_non_null(strstr(why, "+-1.70% of the change vs A"));
	free(why);
	json_decref(res);

	/* no comparison (one configuration): the IOPS means' CIs */
	res = model(0.5, 1.5, "paired", 0.0, 0.0);
	json_object_set_new(res, "comparisons", json_array());
	assert_int_equal(decide(res, &cfg, 3, &why), 1);
	assert_non_null(strstr(why, "+-1.50% of the mean (B j read.iops)"));
	free(why);
	json_decref(res);

	/* target_metrics: a wide p99 CI decides without it, not with it */
	res = model(0.5, 0.5, "paired", -0.4, 0.4);
	json_array_append_new(json_object_get(res, "comparisons"), json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:f, s:f}", "configuration", "B",
		"baseline", "A", "job", "j", "metric", "read.clat_p99_ns",
		"analysis", "paired", "change_ci95_lo_pct", -40.0,
		"change_ci95_hi_pct", 40.0));
	assert_int_equal(decide(res, &cfg, 3, &why), 1);
	assert_non_null(strstr(why, "+-40.00% of the change vs A, paired by "
			       "round (B j read.clat_p99_ns)"));
	free(why);
	cfg.target_metrics = "read.bw_kib, read.iops";
	assert_int_equal(decide(res, &cfg, 3, &why), 0);
	assert_non_null(strstr(why, "every targeted metric's 95% CI "
			       "half-width (target_metrics = read.bw_kib, "
			       "read.iops) is below target_ci_pct = 1%"));
	assert_non_null(strstr(why, "+-0.40% of the change vs A, paired by "
			       "round (B j read.iops)"));
	free(why);
	/* a name that is a prefix of a compared metric is not that metric */
	cfg.target_metrics = "read.clat_p99";
	assert_int_equal(decide(res, &cfg, 3, &why), 0);
	assert_non_null(strstr(why, "no compared metric has values"));
	free(why);
	cfg.target_metrics = NULL;
	json_decref(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_add_round),
		cmocka_unit_test(test_rotation),
		cmocka_unit_test(test_rotation_variants),
		cmocka_unit_test(test_rotation_booting_variants),
		cmocka_unit_test(test_adaptive_decide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
