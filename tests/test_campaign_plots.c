/* tests/test_campaign_plots.c - which graphs `kbench run` draws
 * (runner/campaign_reports.h campaign_plots_for(), issue 16): none for a
 * campaign with nothing to compare (one configuration, one counted run
 * per job), SVG otherwise, SVG and PNG whenever plot_png = yes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/capture.h"

#include <stdlib.h>

#include "parsers/kconf.h"
#include "runner/campaign_reports.h"
#include "runner/plan.h"

/* The graphs for the campaign of kernels.conf global (its [global]
 * lines; variant "running"). */
static enum campaign_plots plots_of(const char *global)
{
	char *text = NULL, *msg;
	struct kb_config cfg;
	struct kb_plan p;
	struct capture c;
	enum campaign_plots got;
	int ret;

	assert_true(asprintf(&text, "[global]\n%s[running]\n", global) > 0);
	cap_begin(&c);
	ret = kconf_parse("p.conf", text, &cfg);
	msg = cap_end(&c);
	if (ret)
		fail_msg("kconf_parse: %s", msg);
	free(msg);
	free(text);
	assert_int_equal(plan_build(&cfg, &p), 0);
	got = campaign_plots_for(&p, cfg.njobs, cfg.plot_png);
	plan_free(&p);
	kconf_free(&cfg);
	return got;
}

#define ONE "warmup = 0\niterations = 1\n"

static void test_one_run_no_plots(void **state)
{
	(void)state;
	/* one configuration, one counted run: one bar, one point */
	assert_int_equal(plots_of("jobs = randread-4k\n" ONE),
			 CAMPAIGN_PLOTS_NONE);
	/* warm-ups are not counted: still one counted run */
	assert_int_equal(plots_of("jobs = randread-4k\nwarmup = 2\n"
				  "iterations = 1\n"), CAMPAIGN_PLOTS_NONE);
	/* one counted run of each job */
	assert_int_equal(plots_of("jobs = randread-4k seqwrite-1m\n" ONE),
			 CAMPAIGN_PLOTS_NONE);
	/* a profiling run is not counted either */
	assert_int_equal(plots_of("jobs = randread-4k\n" ONE
				  "profile = cycles\n"), CAMPAIGN_PLOTS_NONE);
}

static void test_something_to_compare(void **state)
{
	(void)state;
	/* two configurations */
	assert_int_equal(plots_of("jobs = randread-4k\n" ONE
				  "tunable NM = queue/nomerges: 0 2\n"),
			 CAMPAIGN_PLOTS_SVG);
	/* two iterations of one configuration */
	assert_int_equal(plots_of("jobs = randread-4k\nwarmup = 0\n"
				  "iterations = 2\n"), CAMPAIGN_PLOTS_SVG);
}

static void test_plot_png_asks_for_graphs(void **state)
{
	(void)state;
	assert_int_equal(plots_of("jobs = randread-4k\n" ONE
				  "plot_png = yes\n"), CAMPAIGN_PLOTS_SVG_PNG);
	assert_int_equal(plots_of("jobs = randread-4k\niterations = 3\n"
				  "plot_png = yes\n"), CAMPAIGN_PLOTS_SVG_PNG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_run_no_plots),
		cmocka_unit_test(test_something_to_compare),
		cmocka_unit_test(test_plot_png_asks_for_graphs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
