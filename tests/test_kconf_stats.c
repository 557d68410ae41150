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
		TAIL, &cfg), 0);
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
	assert_string_equal(p.runs[before].key, "running,NM=0/randread-4k/003");
	plan_free(&p);
	kconf_free(&cfg);
}

/* A results model with summaries and one comparison, CI half-widths
 * given in % of a mean of 100. */
static json_t *model(double base_half, double new_half)
{
	return json_pack("{s:[{s:s, s:s, s:s, s:f, s:f, s:f},"
			 "{s:s, s:s, s:s, s:f, s:f, s:f}],"
			 "s:[{s:s, s:s, s:s, s:s}]}",
		"summaries",
		"configuration", "A", "job", "j", "metric", "read.iops",
		"mean", 100.0, "ci95_lo", 100.0 - base_half,
		"ci95_hi", 100.0 + base_half,
		"configuration", "B", "job", "j", "metric", "read.iops",
		"mean", 100.0, "ci95_lo", 100.0 - new_half,
		"ci95_hi", 100.0 + new_half,
		"comparisons", "configuration", "B", "baseline", "A", "job", "j",
		"metric", "read.iops");
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

	res = model(0.5, 1.5);	/* B too wide: go on */
	assert_int_equal(adaptive_decide(res, &cfg, 3, &why), 1);
	assert_non_null(strstr(why, "+-1.50% of the mean (B j read.iops)"));
	free(why);
	/* ... unless the maximum is reached */
	assert_int_equal(adaptive_decide(res, &cfg, 10, &why), 0);
	assert_non_null(strstr(why, "max_iterations = 10 reached"));
	free(why);
	json_decref(res);

	res = model(0.5, 0.9);	/* both below target: stop */
	assert_int_equal(adaptive_decide(res, &cfg, 3, &why), 0);
	assert_non_null(strstr(why, "below target_ci_pct = 1%"));
	free(why);
	json_decref(res);

	/* paired by round: the CI of the change decides, not the means'
	 * (wide here: a round effect the pairing removes) */
	res = model(3.0, 3.0);
	{
		json_t *add = json_pack("{s:s, s:f, s:f}", "analysis", "paired",
					"change_ci95_lo_pct", -0.4,
					"change_ci95_hi_pct", 1.2);

		json_object_update(json_array_get(json_object_get(res,
				   "comparisons"), 0), add);
		json_decref(add);
	}
	assert_int_equal(adaptive_decide(res, &cfg, 3, &why), 0);
	assert_non_null(strstr(why, "+-0.80% of the change vs A, paired by "
			       "round (B j read.iops)"));
	free(why);
	json_object_set_new(json_array_get(json_object_get(res,
		"comparisons"), 0), "change_ci95_hi_pct", json_real(3.0));
	assert_int_equal(adaptive_decide(res, &cfg, 3, &why), 1);
	assert_non_null(strstr(why, "+-1.70% of the change vs A"));
	free(why);
	json_decref(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_add_round),
		cmocka_unit_test(test_adaptive_decide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
