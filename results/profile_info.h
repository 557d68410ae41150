/* results/profile_info.h - a run's profile.json (runner/collect_profile.c
 * writes it for `profile = cycles,dcm` in kernels.conf): what was asked,
 * what was sampled and why (docs/results-format.md).
 *
 *   {"events": [{"role": "cycles"|"dcm", "requested": EVENT,
 *                "event": EVENT or null, "note": WHY}...],
 *    "kptr_restrict": N, "symbols_missing": PATH, "record_error": ERR,
 *    "record_exit_status": N, "report_exit_status": N,
 *    "perf_data": "kept ..."|"removed ..."}
 * every member but "events" (and each event's "role" and "event") left
 * out when not known; an exit status is -1 for a perf killed by a
 * signal.  Keys sorted (parsers/json_file.h kb_json_write_atomic).
 */
#ifndef KB_RESULTS_PROFILE_INFO_H
#define KB_RESULTS_PROFILE_INFO_H

#include <stddef.h>

struct kb_profile_event {
	char *role;		/* kernels.conf's profile word */
	char *requested;	/* perf event name asked for, NULL: none */
	char *event;		/* perf event sampled, NULL: none (null) */
	char *note;		/* why event differs from requested, or NULL */
};

struct kb_profile_info {
	struct kb_profile_event *events;
	size_t nevents;
	int has_kptr_restrict;
	int kptr_restrict;		/* /proc/sys/kernel/kptr_restrict */
	char *symbols_missing;		/* the symbols.conf not found */
	char *record_error;		/* strerror of a failed perf record */
	int has_record_exit_status;
	int record_exit_status;
	int has_report_exit_status;
	int report_exit_status;
	char *perf_data;		/* what became of perf.data */
};

/* Append an event for role (copied); the new entry, its other members
 * NULL (set them with kb_xstrdup). */
struct kb_profile_event *profile_info_add_event(struct kb_profile_info *p,
						const char *role);

/* Write p as profile.json to path atomically
 * (parsers/json_file.h kb_json_write_atomic).  0 or -errno. */
int profile_info_save(const char *path, const struct kb_profile_info *p);

/* Read path into *p (zeroed first).  0, or -EINVAL with a message naming
 * the file for a file that is not such an object (no "events" array, an
 * event without a "role" string). */
int profile_info_load(const char *path, struct kb_profile_info *p);

void profile_info_free(struct kb_profile_info *p);

#endif
