/* tests/analysis_round_trip.h - assert_round_trip(res): the analysis
 * of an analysed results model, read back with kb_analysis__from_json()
 * (results/analysis.h), serializes to the same JSON, member by member
 * (the extra runs' "profiling_summaries" and "profile_overhead" too,
 * absent when they were).
 * What a report of a results.json on disk relies on.  Include after
 * cmocka.h and jansson.h. */
#ifndef KB_TESTS_ANALYSIS_ROUND_TRIP_H
#define KB_TESTS_ANALYSIS_ROUND_TRIP_H

#include <stdlib.h>

#include "results/analysis.h"

static inline void assert_round_trip(json_t *res)
{
	static const char *const keys[] = { "summaries", "comparisons",
		"sample_checks", "comparison_settings", "profiling_summaries",
		"profile_overhead" };
	struct kb_analysis an;
	json_t *again = json_object();
	size_t k;

	if (!json_object_get(res, "comparisons"))
		goto out;	/* not analysed */
	kb_analysis__from_json(res, &an);
	kb_analysis__summaries_to_json(&an, again);
	kb_analysis__comparisons_to_json(&an, again);
	kb_analysis__profiling_to_json(&an, again);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		char *want, *got;

		if (!json_object_get(res, keys[k])) {
			assert_null(json_object_get(again, keys[k]));
			continue;
		}
		want = json_dumps(json_object_get(res, keys[k]),
				  JSON_ENCODE_ANY);
		got = json_dumps(json_object_get(again, keys[k]),
				 JSON_ENCODE_ANY);

		assert_non_null(want);
		assert_non_null(got);
		assert_string_equal(got, want);
		free(want);
		free(got);
	}
	kb_analysis__clear(&an);
out:
	json_decref(again);
}

#endif
