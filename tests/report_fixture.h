/* tests/report_fixture.h - tests/data/report/results.json (see its
 * README: running x NM = 0 1 2, baseline NM=0, randread-4k) loaded as
 * the reports see it: summaries and comparisons filled by
 * tree_analyse() with the default options.  Include after cmocka.h;
 * the tests run from the repository root. */
#ifndef KB_TESTS_REPORT_FIXTURE_H
#define KB_TESTS_REPORT_FIXTURE_H

#include <jansson.h>

#include "reports/report.h"
#include "results/model.h"
#include "results/rmodel.h"
#include "stats/compare.h"
#include "tests/stats_tree.h"

#define REPORT_FIXTURE "tests/data/report/results.json"

static inline json_t *load_fixture(void)
{
	json_t *res = results_load_export(REPORT_FIXTURE);

	assert_non_null(res);
	assert_int_equal(tree_analyse(res, NULL), 0);
	return res;
}

/* The fixture (warmup = 1) renumbered as a campaign with warmup = W would
 * have stored it: every run's round index shifted by W - 1 (W = 0 drops
 * the warm-up runs, W = 2 adds a second one before the first). */
static inline json_t *load_fixture_with_warmup(long long w)
{
	json_t *res = results_load_export(REPORT_FIXTURE), *runs, *run, *out;
	size_t i;

	assert_non_null(res);
	runs = json_object_get(res, "runs");
	out = json_array();
	json_array_foreach(runs, i, run) {
		long long it = json_integer_value(json_object_get(run,
							"iteration"));
		int wu = json_is_true(json_object_get(run, "warmup"));

		if (wu && w == 0)
			continue;
		if (wu && w == 2) {
			json_t *first = json_deep_copy(run);

			json_object_set_new(first, "iteration",
					    json_integer(0));
			json_array_append_new(out, first);
		}
		run = json_deep_copy(run);
		json_object_set_new(run, "iteration",
				    json_integer(it + w - 1));
		json_array_append_new(out, run);
	}
	json_object_set_new(res, "runs", out);
	json_object_set_new(json_object_get(res, "campaign"), "warmup",
			    json_integer(w));
	assert_int_equal(tree_analyse(res, NULL), 0);
	return res;
}

/* report_render() of an analysed results model res, through its typed
 * model (results/rmodel.h: built from the tree, the analysis read back
 * as from a results.json export). */
static inline int render_results(FILE *f, json_t *res, const char *format,
				 const struct report_opts *opts)
{
	struct kb_rmodel *m = kb_rmodel__new(res);
	int ret;

	assert_non_null(m);
	ret = report_render(f, m, format, opts);
	kb_rmodel__delete(m);
	return ret;
}

#endif
