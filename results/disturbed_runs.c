/* results/disturbed_runs.c - see disturbed_runs.h. */
#include "results/disturbed_runs.h"
#include "results/paths.h"
#include "lib/file.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

char *results_disturbed_in_unit(json_t *res, unsigned iteration,
				unsigned warmup, const char *cfg_id,
				const char *job)
{
	json_t *run, *w;
	size_t i, k;
	char b[KB_ITER_LABEL_MAX];

	json_array_foreach(json_object_get(res, "runs"), i, run) {
		json_t *why = json_object_get(run, "disturbed");
		char *s;

		if (json_integer_value(json_object_get(run, "iteration")) !=
		    (json_int_t)iteration || !json_array_size(why) ||
		    json_is_true(json_object_get(run, "warmup")) ||
		    (cfg_id && strcmp(cfg_id, json_string_value(
			json_object_get(run, "configuration")) ?: "")) ||
		    (job && strcmp(job, json_string_value(
			json_object_get(run, "job")) ?: "")))
			continue;
		s = kb_xasprintf("%s %s iteration %s:",
				 json_string_value(json_object_get(run,
					"configuration")) ?: "?",
				 json_string_value(json_object_get(run, "job")) ?:
				 "?", kb_iteration_label(iteration, warmup,
							b));
		json_array_foreach(why, k, w) {
			char *t = kb_xasprintf("%s%s %s", s, k ? ";" : "",
					       json_string_value(w) ?: "");
			free(s);
			s = t;
		}
		return s;
	}
	return NULL;
}
