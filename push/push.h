/* push/push.h - send a campaign's results to a results store.
 *
 * Two formats:
 *  - influx: InfluxDB line protocol (push/influx.h), POSTed to
 *    .../write?db=NAME (InfluxDB 1.x HTTP API, "/write") or
 *    .../api/v2/write?org=ORG&bucket=BUCKET (InfluxDB 2.x API), in
 *    batches of at most batch_points lines;
 *  - json: the results.json export (docs/results-format.md, with the
 *    summaries) POSTed as application/json to any URL.
 *
 * The push queue, DIR/push-queue.json, remembers the destinations whose
 * push failed, so that nothing is lost when the store is down:
 *   {"schema_version": 1,
 *    "pending": [ {"url": ENDPOINT, "format": "influx"|"json",
 *                  "queued": ISO-8601 UTC, "last_attempt": ISO-8601 UTC,
 *                  "attempts": N} ]}
 * A queued destination gets the whole campaign at the next attempt (the
 * influx timestamps make a re-push overwrite, see influx.h), from the next
 * completed run of `kbench run` or from `kbench push DIR`.  No credential
 * is ever written to it (URLs with credentials are refused).
 */
#ifndef KB_PUSH_H
#define KB_PUSH_H

#include "push/http.h"

#include <stddef.h>
#include <jansson.h>

enum push_format { PUSH_INFLUX = 0, PUSH_JSON };

struct push_opts {
	struct push_http_opts http;
	enum push_format format;
	size_t batch_points;	/* influx lines per POST; default 5000 */
	int dry_run;		/* print what would be sent on stdout */
};

/* Defaults: push_http_opts_init(), influx, 5000 points, no dry run;
 * http.cacert from KBENCH_PUSH_CACERT when set. */
void push_opts_init(struct push_opts *o);

/* "influx" / "json". */
const char *push_format_name(enum push_format f);
/* Every format's name, blank-separated (for completion). */
#define PUSH_FORMATS "influx json"

/* Turn what the user gave into the endpoint to POST to, and its format.
 *   format    "influx", "json" or NULL = from the URL: a path ending in
 *             /write or /api/v2/write (or db/bucket given) is influx,
 *             anything else json
 *   db        InfluxDB 1.x database: path "/write", query db=NAME
 *   bucket, org   InfluxDB 2.x: path "/api/v2/write", bucket=, org=
 * An influx endpoint must end in /write with db= or /api/v2/write with
 * bucket= and org= (or orgID=).  *endpoint is malloc'd.  0 or -EINVAL
 * with a message saying what to add. */
int push_endpoint(const char *url, const char *format, const char *db,
		  const char *bucket, const char *org, char **endpoint,
		  enum push_format *fmt);

/* Push the campaign in dir to endpoint: every counted ok run (influx) or
 * the results export (json).  only_key restricts influx to one run
 * ("CONFIG/JOB/NNN"); NULL = all.  Returns 0 (also when there was nothing
 * to send), -EAGAIN when the store could not be reached or kept failing
 * with 5xx (worth queueing), -EREMOTEIO when it refused (4xx), other
 * -errno for local problems; messages printed. */
int push_campaign(const char *dir, const char *endpoint,
		  const struct push_opts *o, const char *only_key);

/* The queue (see above).  push_queue_load returns the "pending" array
 * (new reference; empty when there is no queue file) or NULL when the
 * file is damaged (message printed). */
json_t *push_queue_load(const char *dir);
/* Add or update (attempts + 1) the entry of endpoint.  0 or -errno. */
int push_queue_add(const char *dir, const char *endpoint,
		   enum push_format fmt);
/* Remove the entry of endpoint; the file goes when it is empty.
 * 0 or -errno. */
int push_queue_remove(const char *dir, const char *endpoint);

/* After a run of `kbench run` completed (push = URL in kernels.conf):
 * push that run (run_key; NULL after a vm/kexec batch = every run), or
 * the whole campaign when url is queued; on any
 * failure queue url and warn.  Never fails the caller: the measurement
 * is on disk whatever happens.  Short timeouts and one retry, so a dead
 * store delays the campaign by seconds, not minutes. */
void push_after_run(const char *dir, const char *url, const char *run_key);

#endif
