/* results/campaign_json.c - campaign.json's plan and state.json's
 * "adaptive" (see campaign_json.h). */
#include "results/campaign_json.h"
#include "parsers/json_file.h"
#include "lib/file.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

int results_campaign_plan_rounds(const char *dir, unsigned *rounds)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *k;
	const char *slash;
	unsigned it;
	size_t i;

	free(path);
	*rounds = 0;
	if (!cj)
		return -EINVAL;
	json_array_foreach(json_object_get(cj, "plan"), i, k) {
		slash = strrchr(json_string_value(k) ?: "", '/');
		if (slash) {
			it = (unsigned)atoi(slash + 1) + 1;
			if (it > *rounds)
				*rounds = it;
		}
	}
	json_decref(cj);
	return 0;
}

int results_campaign_plan_save(const char *dir, const char *const *keys,
			       size_t n, unsigned iterations)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *plan;
	size_t i;
	int ret = -EINVAL;

	if (!cj)
		goto out;
	plan = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(plan, json_string(keys[i]));
	json_object_set_new(cj, "plan", plan);
	json_object_set_new(json_object_get(cj, "campaign"), "iterations",
			    json_integer(iterations));
	ret = kb_json_write_atomic(path, cj);
out:
	json_decref(cj);
	free(path);
	return ret;
}

int results_state_adaptive_save(const char *dir, json_t *state,
				unsigned timed_iterations, const char *why)
{
	char *path = kb_path_join(dir, "state.json");
	int ret;

	json_object_set_new(state, "adaptive", json_pack("{s:i, s:s}",
			    "timed_iterations", (int)timed_iterations,
			    "stopped", why));
	ret = kb_json_write_atomic(path, state);
	free(path);
	return ret;
}
