/* stats/model.h - reading the results model (docs/results-format.md),
 * shared by the statistics (summary.c, compare.c). */
#ifndef KB_STATS_MODEL_H
#define KB_STATS_MODEL_H

#include <jansson.h>
#include <math.h>
#include <string.h>

/* The string member key of obj, or NULL. */
static inline const char *kb_jstr(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* A JSON number, or null when v is NaN/Inf (never NaN in JSON). */
static inline json_t *kb_jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* 1 when a run enters the statistics: status "ok" and not a warm-up. */
static inline int kb_run_counts(json_t *run)
{
	const char *status = kb_jstr(run, "status");

	return status && !strcmp(status, "ok") &&
	       !json_is_true(json_object_get(run, "warmup"));
}

#endif
