/* results/precision.c - the 95% CIs of an analysed results model as
 * typed rows (see precision.h). */
#include "results/precision.h"
#include "results/json.h"
#include "lib/file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* obj's member key as a double; NAN when absent or not a number. */
static double num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void results_cis_of(json_t *results, struct results_cis *out)
{
	json_t *sums = json_object_get(results, "summaries");
	json_t *cmps = json_object_get(results, "comparisons"), *e;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->summaries = kb_xcalloc(json_array_size(sums) + 1,
				    sizeof(*out->summaries));
	json_array_foreach(sums, i, e)
		out->summaries[out->nsummaries++] = (struct results_summary_ci){
			kb_jstr(e, "configuration"), kb_jstr(e, "job"),
			kb_jstr(e, "metric"), num(e, "mean"),
			num(e, "ci95_lo"), num(e, "ci95_hi"),
			kb_jstr(e, "mean_kind") &&
			!strcmp(kb_jstr(e, "mean_kind"), "harmonic") };
	out->comparisons = kb_xcalloc(json_array_size(cmps) + 1,
				      sizeof(*out->comparisons));
	json_array_foreach(cmps, i, e)
		out->comparisons[out->ncomparisons++] =
			(struct results_comparison_ci){
			kb_jstr(e, "configuration"), kb_jstr(e, "baseline"),
			kb_jstr(e, "job"), kb_jstr(e, "metric"),
			kb_jstr(e, "analysis"), num(e, "change_ci95_lo_pct"),
			num(e, "change_ci95_hi_pct") };
}

void results_cis_free(struct results_cis *c)
{
	free(c->summaries);
	free(c->comparisons);
	memset(c, 0, sizeof(*c));
}
