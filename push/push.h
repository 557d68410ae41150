/* push/push.h - send a campaign's results to a results store.
 *
 * Two formats:
 *  - influx: InfluxDB line protocol (push/influx.h), POSTed to
 *    .../write?db=NAME (InfluxDB 1.x HTTP API, "/write") or
 *    .../api/v2/write?org=ORG&bucket=BUCKET (InfluxDB 2.x API), in
 *    batches of at most batch_points lines; a batch the store refuses
 *    with HTTP 413 is halved and sent again until every request fits (a
 *    single point too large is an error), and the later batches keep
 *    the smaller size;
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
 * influx timestamps make a re-push overwrite, see influx.h), at the start
 * of the next `kbench run` of the campaign (push_send_queued), after its
 * next completed run (push_after_run), or from `kbench push DIR`.  No credential
 * is ever written to it (URLs with credentials are refused).
 */
#ifndef KB_PUSH_H
#define KB_PUSH_H

#include "push/http.h"

#include <stddef.h>

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
 * bucket= and org= (or orgID=), and its precision=, if any, be one
 * kbench converts to (ns, n, u, us, ms, s; m and h are refused, see
 * influx.h).  *endpoint is malloc'd.  0 or -EINVAL with a message saying
 * what to add or change. */
int push_endpoint(const char *url, const char *format, const char *db,
		  const char *bucket, const char *org, char **endpoint,
		  enum push_format *fmt);

/* Push the campaign in dir to endpoint: every counted ok run (influx) or
 * the results export (json).  only_key restricts influx to one run
 * ("CONFIG/JOB/NNN"); NULL = all.  Returns 0 (also when there was nothing
 * to send), -EAGAIN when the store could not be reached or kept failing
 * with 5xx (worth queueing), -EREMOTEIO when it refused (4xx), -E2BIG
 * when one point (or the json export) is larger than the store accepts,
 * -EXDEV for a redirect that is not followed (push/http.h), -EEXIST when
 * the URL's precision= would merge points, other -errno for local
 * problems; messages printed. */
int push_campaign(const char *dir, const char *endpoint,
		  const struct push_opts *o, const char *only_key);

/* 0 when libcurl is loaded (push/curl_dl.h kb_curl_load(), loading it
 * the first time), else -ENOENT or -ENOSYS with the message printed:
 * for callers outside push/ that must not mistake a missing libcurl
 * for a bad URL. */
int push_curl_ready(void);

/* The queue (see above) is results/records.h's records_push_queue_*();
 * push_queue_add() adds endpoint with fmt's name (or counts one more
 * attempt).  0 or -errno. */
int push_queue_add(const char *dir, const char *endpoint,
		   enum push_format fmt);
/* The format of a queue entry's "format": json, else influx. */
enum push_format push_format_of(const char *name);

/* At the start of `kbench run` on dir: send every push queued in
 * DIR/push-queue.json (the whole campaign to each), with the options of
 * push_after_run; a sent entry leaves the queue, a failed one stays
 * (attempts + 1) with a warning.  Never fails the caller.  trusted: the
 * push = URL of a kernels.conf the user gave (-c), or NULL; only an
 * entry of its origin is sent with KBENCH_PUSH_TOKEN/KBENCH_PUSH_USER
 * (push_queue_trust()). */
void push_send_queued(const char *dir, const char *trusted);

/* Whether url, read from the file from in campaign directory dir
 * (push-queue.json, or the kernels.conf copy a resume without -c reads:
 * the directory is not trusted with credentials), may carry the
 * environment's credentials: only when trusted (a URL the user gave in
 * this command, or NULL) has its origin (push_same_origin()).  Returns
 * the value for push_http_opts.no_env_auth; when 1 and the environment
 * holds a token or a user, says once that the push goes without them and
 * how to send it with them. */
int push_no_env_auth(const char *dir, const char *from, const char *url,
		     const char *trusted);

/* After a run of `kbench run` completed (push = URL in kernels.conf):
 * push that run (run_key; NULL after a vm/kexec batch = every run), or
 * the whole campaign when url is queued; on a failure queue url and
 * warn (not for a redirect to another origin, which would fail again:
 * warned only).  Never fails the caller: the measurement is on disk
 * whatever happens.  Short timeouts, one retry and a Retry-After of at
 * most 15 s, so a dead store delays the campaign by seconds, not
 * minutes.  url_trusted: url is the push = of a kernels.conf given with
 * -c; else (DIR/kernels.conf, a resume) without the environment's
 * credentials (push_no_env_auth()). */
void push_after_run(const char *dir, const char *url, const char *run_key,
		    int url_trusted);

#endif
