/* tests/report_fixture.h - tests/data/report/results.json (see its
 * README: running x NM = 0 1 2, baseline NM=0, randread-4k) loaded as
 * the reports see it: summaries and comparisons filled by
 * stats_analyse() with the default options.  Include after cmocka.h;
 * the tests run from the repository root. */
#ifndef KB_TESTS_REPORT_FIXTURE_H
#define KB_TESTS_REPORT_FIXTURE_H

#include <jansson.h>

#include "results/model.h"
#include "stats/compare.h"

#define REPORT_FIXTURE "tests/data/report/results.json"

static inline json_t *load_fixture(void)
{
	json_t *res = results_load_export(REPORT_FIXTURE);

	assert_non_null(res);
	assert_int_equal(stats_analyse(res, NULL), 0);
	return res;
}

#endif
