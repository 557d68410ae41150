/* results/report_sources.c - `kbench report`'s several sources (see
 * report_sources.h). */
#include "results/report_sources.h"
#include "results/model.h"

#include <jansson.h>

int results_dumpf_all(FILE *out, json_t *const *models, size_t n)
{
	json_t *all = json_array();
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		json_array_append(all, models[i]);
	ret = results_dumpf(out, all);
	json_decref(all);
	return ret;
}

int results_has_shards(json_t *model)
{
	return json_object_get(json_object_get(model, "campaign"),
			       "shards") != NULL;
}

/* Set merged's key to first's (shared), when first has one. */
static void keep_first(json_t *merged, json_t *first, const char *key)
{
	json_t *v = json_object_get(first, key);

	if (v)
		json_object_set(merged, key, v);
}

json_t *results_merge_campaigns(json_t *const *models,
				const char *const *names, size_t n,
				const struct results_map *map)
{
	json_t *merged = results_merge(models, names, n, map);

	if (!merged)
		return NULL;
	keep_first(merged, models[0], "disturbed_settings");
	keep_first(merged, models[0], "analysis_options");
	return merged;
}
