/* results/campaign_json.h - the parts of DIR/campaign.json and
 * DIR/state.json (docs/results-format.md; results/paths.h has the
 * layout) that the runner updates as a campaign goes, read and written
 * here so that runner/ handles no JSON:
 *   campaign.json "plan"                 every planned run's key, in run
 *                                        order ("CONFIG/JOB/NNN")
 *   campaign.json campaign.iterations    timed rounds per (configuration,
 *                                        job)
 *   state.json "adaptive"                {"timed_iterations", "stopped"}:
 *                                        why iterations = auto stopped
 *                                        (runner/adaptive.h)
 */
#ifndef KB_RESULTS_CAMPAIGN_JSON_H
#define KB_RESULTS_CAMPAIGN_JSON_H

#include <stddef.h>

struct json_t;	/* jansson's: state.json as runner/campaign.h holds it */

/* The rounds DIR/campaign.json's "plan" reaches: 1 + the highest
 * iteration (the NNN of a key, extra runs' "NNN-KINDK" included) of its
 * keys, 0 when none.  0, or -EINVAL with a message naming the file. */
int results_campaign_plan_rounds(const char *dir, unsigned *rounds);

/* Replace DIR/campaign.json's "plan" by keys[0..n) and its
 * campaign.iterations by iterations; written atomically.  0, -EINVAL
 * when the file cannot be read (message), or -errno. */
int results_campaign_plan_save(const char *dir, const char *const *keys,
			       size_t n, unsigned iterations);

/* Set state's "adaptive" to {"timed_iterations", "stopped": why} and
 * write it to DIR/state.json atomically.  0 or -errno. */
int results_state_adaptive_save(const char *dir, struct json_t *state,
				unsigned timed_iterations, const char *why);

#endif
