/* lib/metrics.h - the one table of every metric kbench knows.
 *
 * Parsers and collectors fill values by name; stats and reports read the
 * unit and direction from here.  Units are normalised at parse time:
 * latency in nanoseconds, bandwidth in KiB/s, /proc/stat CPU in percent
 * of the whole machine, rusage CPU in percent of one CPU (as
 * /usr/bin/time prints it), counters as raw counts.  A metric that could
 * not be measured is absent (or JSON null) and prints as "n/a", never 0.
 */
#ifndef KB_METRICS_H
#define KB_METRICS_H

#include <stddef.h>

enum kb_direction {
	KB_NEUTRAL = 0,		/* neither better nor worse */
	KB_HIGHER_BETTER,	/* IOPS, bandwidth */
	KB_LOWER_BETTER,	/* latency, CPU cost */
};

struct kb_metric_def {
	const char *name;	/* "read.iops", "write.clat_p99_ns", ... */
	const char *unit;	/* "IOPS", "KiB/s", "ns", "%", "s", "KiB", "count" */
	enum kb_direction direction;
	const char *label;	/* short column heading, e.g. "I/Os per sec" */
	const char *description;
};

/* The table, terminated by an entry whose name is NULL. */
extern const struct kb_metric_def kb_metrics[];

/* Look a metric up by exact name; NULL when unknown. */
const struct kb_metric_def *kb_metric_find(const char *name);

/* The definition of a results key: kb_metric_find(key), and for a
 * per-load-host key "host.NAME.METRIC" (kb_metric_host_split() below)
 * METRIC's: a load host's IOPS are IOPS, higher better, in the same
 * unit.  NULL when neither is known. */
const struct kb_metric_def *kb_metric_find_key(const char *key);

/* For "did you mean": the table's name equal to name but for case, else
 * the nearest within 2 edits (kb_nearer(), lib/str.h), else the one
 * name that is name and a unit ("read.clat_p99" + "_ns"); NULL when
 * none. */
const char *kb_metric_near(const char *name);

/* A per-load-host metric (hosts =, fio --client; parsers/fio_json.c):
 * "host.NAME.METRIC" is METRIC (a name of the table) measured on load host
 * NAME alone, NAME being fio's "hostname" (the address or name given to
 * --client, itself possibly dotted: "host.10.0.0.2.read.iops").  Returns
 * the offset of METRIC in key, NAME being the shortest prefix that leaves
 * a known METRIC (so NAME is key[5 .. offset - 2]); 0 when key is not such
 * a name. */
size_t kb_metric_host_split(const char *key);

/* "higher", "lower" or "neutral". */
const char *kb_direction_name(enum kb_direction d);

#endif
