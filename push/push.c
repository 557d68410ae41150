/* push/push.c - endpoints, campaign push, the push queue, the hook for
 * `kbench run` (see push.h). */
#include "push/push.h"
#include "results/records.h"
#include "results/paths.h"
#include "push/influx.h"
#include "results/points.h"
#include "lib/err.h"
#include "lib/file.h"
#include "results/model.h"
#include "stats/compare.h"
#include "results/rmodel.h"

#include "push/curl_dl.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define QUEUE_FILE "push-queue.json"

void push_opts_init(struct push_opts *o)
{
	const char *ca = getenv("KBENCH_PUSH_CACERT");

	memset(o, 0, sizeof(*o));
	push_http_opts_init(&o->http);
	if (ca && *ca)
		o->http.cacert = ca;
	o->format = PUSH_INFLUX;
	o->batch_points = 5000;
}

const char *push_format_name(enum push_format f)
{
	return f == PUSH_JSON ? "json" : "influx";
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int query_has(const char *query, const char *name)
{
	size_t n = strlen(name);
	const char *p = query;

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == '=' && p[n + 1] &&
		    p[n + 1] != '&')
			return 1;
		p = strchr(p, '&');
		if (p)
			p++;
	}
	return 0;
}

/* The value of the first parameter name= in query (no leading '?'),
 * malloc'd, or NULL. */
static char *query_value(const char *query, const char *name)
{
	size_t n = strlen(name);
	const char *p = query;

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == '=')
			return kb_xasprintf("%.*s", (int)strcspn(p + n + 1, "&"),
					    p + n + 1);
		p = strchr(p, '&');
		if (p)
			p++;
	}
	return NULL;
}

/* The precision= of an influx endpoint in ns per unit (1 without one).
 * 0, or -EINVAL / -ERANGE with a message (influx.h says why m and h are
 * refused). */
static int endpoint_precision(const char *endpoint, int64_t *ns_per_unit)
{
	CURLU *u;
	char *query = NULL, *prec = NULL;
	int ret = kb_curl_load();

	*ns_per_unit = 1;
	if (ret)
		return ret;
	u = curl_url();
	if (!u)
		return -ENOMEM;
	if (curl_url_set(u, CURLUPART_URL, endpoint, 0) == CURLUE_OK)
		curl_url_get(u, CURLUPART_QUERY, &query, 0);
	prec = query ? query_value(query, "precision") : NULL;
	if (prec) {
		ret = influx_precision(prec, ns_per_unit);
		if (ret == -ERANGE)
			kb_error("push URL '%s': precision=%s refused: kbench "
				 "would send timestamps in whole %s, and the "
				 "iterations of one configuration are seconds "
				 "apart, so they would get the same timestamp; "
				 "InfluxDB keeps one point per series and time, "
				 "so all but one would be lost.  Use "
				 "precision=s, ms, u or ns (or none: ns)",
				 endpoint, prec, strcmp(prec, "m") ? "hours" :
				 "minutes");
		else if (ret)
			kb_error("push URL '%s': precision='%s' is not an "
				 "InfluxDB precision kbench can write: use ns "
				 "(the default), u (or us), ms or s", endpoint,
				 prec);
	}
	free(prec);
	curl_free(query);
	curl_url_cleanup(u);
	return ret;
}

static int add_param(CURLU *u, const char *name, const char *value)
{
	char *q = kb_xasprintf("%s=%s", name, value);
	CURLUcode c = curl_url_set(u, CURLUPART_QUERY, q,
				   CURLU_APPENDQUERY | CURLU_URLENCODE);

	free(q);
	return c == CURLUE_OK ? 0 : -EINVAL;
}

int push_endpoint(const char *url, const char *format, const char *db,
		  const char *bucket, const char *org, char **endpoint,
		  enum push_format *fmt)
{
	CURLU *u = NULL;
	char *path = NULL, *query = NULL, *out = NULL;
	int ret = -EINVAL, v2, v1;

	*endpoint = NULL;
	ret = push_url_check(url, NULL);	/* loads libcurl */
	if (ret)
		return ret;
	ret = -EINVAL;
	if (format && strcmp(format, "influx") && strcmp(format, "json")) {
		kb_error("--format '%s': expected influx or json", format);
		return -EINVAL;
	}
	if (format && !strcmp(format, "json") && (db || bucket || org)) {
		kb_error("--db, --bucket and --org are for --format influx");
		return -EINVAL;
	}
	if (db && (bucket || org)) {
		kb_error("--db is for InfluxDB 1.x, --bucket/--org for 2.x: "
			 "give one or the other");
		return -EINVAL;
	}
	u = curl_url();
	if (!u)
		return -ENOMEM;
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
		goto out;
	curl_url_get(u, CURLUPART_PATH, &path, 0);
	v2 = path && ends_with(path, "/api/v2/write");
	v1 = !v2 && path && ends_with(path, "/write");
	if (!format && !v1 && !v2 && !db && !bucket) {
		*fmt = PUSH_JSON;
	} else if (format && !strcmp(format, "json")) {
		*fmt = PUSH_JSON;
	} else {
		*fmt = PUSH_INFLUX;
		if (!v1 && !v2) {
			if (path && strcmp(path, "/") && strcmp(path, "")) {
				kb_error("push URL '%s': path '%s' is not an "
					 "InfluxDB write endpoint; give the "
					 "server's base URL with --db NAME "
					 "(1.x) or --bucket/--org (2.x), or the "
					 "full .../write?db=NAME or "
					 ".../api/v2/write?org=O&bucket=B",
					 url, path);
				goto out;
			}
			if (!db && !bucket) {
				kb_error("push URL '%s': which database? add "
					 "--db NAME (InfluxDB 1.x) or --bucket "
					 "NAME --org ORG (2.x), or give "
					 ".../write?db=NAME", url);
				goto out;
			}
			v2 = bucket != NULL;
			v1 = !v2;
			curl_url_set(u, CURLUPART_PATH,
				     v2 ? "/api/v2/write" : "/write", 0);
		}
		if ((db && add_param(u, "db", db)) ||
		    (bucket && add_param(u, "bucket", bucket)) ||
		    (org && add_param(u, "org", org)))
			goto out;
		curl_url_get(u, CURLUPART_QUERY, &query, 0);
		if (v1 && !query_has(query, "db")) {
			kb_error("push URL '%s': InfluxDB 1.x /write needs the "
				 "database: add ?db=NAME or --db NAME", url);
			goto out;
		}
		if (v2 && (!query_has(query, "bucket") ||
			   (!query_has(query, "org") &&
			    !query_has(query, "orgID")))) {
			kb_error("push URL '%s': InfluxDB 2.x /api/v2/write "
				 "needs bucket= and org= (or --bucket and "
				 "--org)", url);
			goto out;
		}
	}
	if (curl_url_get(u, CURLUPART_URL, &out, 0) != CURLUE_OK)
		goto out;
	if (*fmt == PUSH_INFLUX) {
		int64_t unit;

		/* before anything is sent (influx.h) */
		if (endpoint_precision(out, &unit))
			goto out;
	}
	*endpoint = kb_xstrdup(out);
	ret = 0;
out:
	curl_free(path);
	curl_free(query);
	curl_free(out);
	curl_url_cleanup(u);
	return ret;
}

static void dry_print(const char *endpoint, const struct push_opts *o,
		      const char *body, size_t len, size_t npoints,
		      size_t batch, size_t nbatches)
{
	/* as push_http_post() sends it */
	if (!o->http.no_env_auth)
		push_http_warn_cleartext(endpoint);
	printf("POST %s\n", endpoint);
	printf("Content-Type: %s\n", o->http.content_type);
	printf("Authorization: %s\n", push_auth_describe(&o->http));
	/* what the push would say of the netrc it would use (a password
	 * others can read: refused), once */
	if (batch <= 1 && (o->http.no_env_auth || !push_env_auth()))
		push_netrc_auth(NULL, endpoint, o->http.netrc_file,
				!o->http.no_env_auth, "POST");
	if (o->format == PUSH_INFLUX)
		printf("# batch %zu of %zu: %zu points, %zu bytes\n", batch,
		       nbatches, npoints, len);
	else
		printf("# %zu bytes\n", len);
	printf("\n");
	fwrite(body, 1, len, stdout);
	if (len && body[len - 1] != '\n')
		putchar('\n');
	printf("\n");
}

/* The results model with summaries; NULL with a message. */
static struct kb_rmodel *load_results(const char *dir)
{
	struct kb_rmodel *m = kb_rmodel__load(dir, 0);

	/* the same document as DIR/results.json: summaries and the
	 * comparisons (stats_analyse, as runner/campaign_reports.c) */
	if (m && stats_analyse(m, NULL)) {
		kb_rmodel__delete(m);
		m = NULL;
	}
	return m;
}

static int push_json(const char *dir, const char *endpoint,
		     const struct push_opts *o)
{
	struct push_http_opts h = o->http;
	struct kb_rmodel *m = load_results(dir);
	char *body = NULL, *smsg = NULL;
	int ret = -EIO;

	if (!m)
		goto out;
	body = results_export_dumps(m->results);
	if (!body) {
		ret = -ENOMEM;
		goto out;
	}
	h.content_type = "application/json";
	if (o->dry_run) {
		struct push_opts d = *o;

		d.http = h;
		dry_print(endpoint, &d, body, strlen(body), 0, 1, 1);
		ret = 0;
		goto out;
	}
	ret = push_http_post(endpoint, body, strlen(body), &h, &smsg);
	if (ret == -E2BIG)
		kb_error("POST %s: HTTP 413: the server's body limit is smaller "
			 "than the results export (%zu bytes; server: %s), which "
			 "cannot be split: raise the store's request body limit, "
			 "or use --format influx (points in batches of "
			 "--batch-size)", endpoint, strlen(body),
			 smsg ? smsg : "no message");
	free(smsg);
	if (!ret)
		kb_info("pushed %s results (%zu runs) to %s", dir,
			m->nruns, endpoint);
out:
	free(body);
	kb_rmodel__delete(m);
	return ret;
}

/* A line's series ("MEASUREMENT,TAGS") and timestamp, and its place. */
struct series_ts {
	const char *line;
	int series_len, ts_len;
	const char *ts;
	size_t index;
};

/* <0, 0, >0 as a's series and timestamp sort before, as, after b's. */
static int series_ts_order(const struct series_ts *a,
			   const struct series_ts *b)
{
	int c = a->series_len - b->series_len;

	if (!c)
		c = memcmp(a->line, b->line, (size_t)a->series_len);
	if (!c)
		c = a->ts_len - b->ts_len;
	if (!c)
		c = memcmp(a->ts, b->ts, (size_t)a->ts_len);
	return c;
}

/* qsort: series, timestamp, then place. */
static int series_ts_cmp(const void *a, const void *b)
{
	const struct series_ts *x = a, *y = b;
	int c = series_ts_order(x, y);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Two points of one series with the same timestamp: InfluxDB keeps the
 * last.  Refused (-EEXIST, message) when the precision made them collide;
 * at ns (nothing coarser to blame) a warning for each line whose series
 * and timestamp an earlier line has.  Lines: "SERIES FIELDS TS". */
static int check_collisions(const char *buf, size_t npoints,
			    const char *endpoint, int64_t unit)
{
	struct series_ts *v = kb_xcalloc(npoints + 1, sizeof(*v));
	struct series_ts *sorted = kb_xcalloc(npoints + 1, sizeof(*v));
	unsigned char *dup = kb_xcalloc(npoints + 1, 1);
	const char *line = buf, *nl, *sp, *last;
	size_t n = 0, i;
	int ret = 0;

	for (; *line && n < npoints; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		/* the series ends at the first unescaped blank */
		for (sp = line; sp < nl && *sp != ' '; sp++)
			if (*sp == '\\' && sp + 1 < nl)
				sp++;
		for (last = nl; last > sp && last[-1] != ' '; last--)
			;
		v[n] = (struct series_ts){ line, (int)(sp - line),
					   (int)(nl - last), last, n };
		n++;
	}
	/* sorted by series, timestamp, then place: an entry whose
	 * predecessor has its series and timestamp repeats an earlier line */
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), series_ts_cmp);
	for (i = 1; i < n; i++)
		dup[sorted[i].index] = !series_ts_order(&sorted[i - 1],
							&sorted[i]);
	for (i = 0; i < n && !ret; i++) {
		if (!dup[i])
			continue;
		if (unit > 1) {
			kb_error("push URL '%s': at this precision two points "
				 "of the series '%.*s' get the same timestamp "
				 "%.*s, and InfluxDB would keep only one: "
				 "nothing sent; use a finer precision= (ms, u "
				 "or ns)", endpoint, v[i].series_len,
				 v[i].line, v[i].ts_len, v[i].ts);
			ret = -EEXIST;
		} else {
			kb_warn("two points of the series '%.*s' have the "
				"same timestamp %.*s: InfluxDB keeps only the "
				"last", v[i].series_len, v[i].line, v[i].ts_len,
				v[i].ts);
		}
	}
	free(sorted);
	free(dup);
	free(v);
	return ret;
}

static int push_influx(const char *dir, const char *endpoint,
		       const struct push_opts *o, const char *only_key)
{
	struct results_points points = { 0 };
	char *buf = NULL, *smsg = NULL;
	size_t len = 0, npoints = 0, nbatches, b, sent = 0, nok = 0;
	size_t nrefused = 0;
	size_t per = o->batch_points ? o->batch_points : 5000, split = 0;
	const char *p, *end;
	int64_t unit = 1;
	FILE *m = NULL;
	int ret = -EIO;

	if (endpoint_precision(endpoint, &unit)) {
		ret = -EINVAL;
		goto out;
	}
	/* after each run only that run is read (push_after_run): the
	 * campaign's pushes stay linear in its runs */
	ret = results_points_load(dir, only_key, &points);
	if (ret)
		goto out;
	m = open_memstream(&buf, &len);
	if (!m) {
		ret = -errno;
		goto out;
	}
	ret = influx_format(m, &points, unit, &npoints);
	if (fclose(m) && !ret)
		ret = -EIO;
	m = NULL;
	if (ret)
		goto out;
	if (!npoints) {
		if (o->dry_run)
			printf("# nothing to push: %s has no completed, "
			       "counted run%s\n", dir,
			       only_key ? " with that key" : "s");
		ret = 0;
		goto out;
	}
	ret = check_collisions(buf, npoints, endpoint, unit);
	if (ret)
		goto out;
	nbatches = (npoints + per - 1) / per;
	p = buf;
	for (b = 1; sent < npoints; b++) {
		size_t lines = 0;

		for (end = p; *end && lines < per; end++)
			if (*end == '\n')
				lines++;
		if (o->dry_run) {
			dry_print(endpoint, o, p, (size_t)(end - p), lines, b,
				  nbatches);
		} else {
			ret = push_http_post(endpoint, p, (size_t)(end - p),
					     &o->http, &smsg);
			if (ret == -E2BIG && lines > 1) {
				nrefused++;
				/* halve and send again, until it fits (as
				 * Telegraf's outputs do) */
				per = (lines + 1) / 2;
				split = per;
				kb_warn("POST %s: HTTP 413 (%s): %zu points "
					"(%zu bytes) are more than the store "
					"takes in one request; sending batches "
					"of %zu", endpoint, smsg ? smsg : "no "
					"message", lines, (size_t)(end - p), per);
				free(smsg);
				smsg = NULL;
				continue;
			}
			if (ret == -E2BIG)
				kb_error("POST %s: HTTP 413: the server's body "
					 "limit is smaller than one point (%zu "
					 "bytes; server: %s): raise the store's "
					 "request body limit (InfluxDB 1.x: "
					 "max-body-size in [http]; a proxy in "
					 "front: its own limit, e.g. nginx's "
					 "client_max_body_size)", endpoint,
					 (size_t)(end - p),
					 smsg ? smsg : "no message");
			if (ret) {
				if (sent)
					kb_info("%zu of %zu points were sent "
						"before the failure; a re-push "
						"overwrites them", sent,
						npoints);
				goto out;
			}
		}
		sent += lines;
		nok++;
		p = end;
	}
	if (!o->dry_run) {
		char nb[48] = "";

		if (nok > 1)
			kb_fmt(nb, sizeof(nb), " in %zu batches", nok);
		kb_info("pushed %zu point%s of %s to %s%s", npoints,
			npoints == 1 ? "" : "s", dir, endpoint, nb);
		if (split)
			kb_info("%zu request%s refused with HTTP 413 (body "
				"too large); batches of %zu points fit: "
				"--batch-size %zu avoids the refusals",
				nrefused, nrefused == 1 ? " was" : "s were",
				split, split);
	}
	ret = 0;
out:
	if (m)
		fclose(m);
	free(smsg);
	free(buf);
	results_points_free(&points);
	return ret;
}

int push_campaign(const char *dir, const char *endpoint,
		  const struct push_opts *o, const char *only_key)
{
	if (o->format == PUSH_JSON)
		return push_json(dir, endpoint, o);
	return push_influx(dir, endpoint, o, only_key);
}

/* ---- the queue ---- */

int push_queue_add(const char *dir, const char *endpoint,
		   enum push_format fmt)
{
	return records_push_queue_add(dir, endpoint, push_format_name(fmt));
}

/* 1 when endpoint is queued in dir (a damaged queue: not). */
static int queued(const char *dir, const char *endpoint)
{
	struct records_push_entry *e;
	size_t n, i;
	int found = 0;

	if (records_push_queue_load(dir, &e, &n))
		return 0;
	for (i = 0; i < n; i++)
		found |= e[i].url && !strcmp(e[i].url, endpoint);
	records_push_queue_free(e, n);
	return found;
}

enum push_format push_format_of(const char *name)
{
	return name && !strcmp(name, "json") ? PUSH_JSON : PUSH_INFLUX;
}

/* The options of a push made by `kbench run`: short timeouts, one retry,
 * a short Retry-After (push.h). */
static void run_push_opts(struct push_opts *o)
{
	push_opts_init(o);
	o->http.retries = 1;
	o->http.timeout_s = 15;
	o->http.connect_timeout_s = 5;
	o->http.retry_after_max_s = 15;
}

int push_no_env_auth(const char *dir, const char *from, const char *url,
		     const char *trusted)
{
	static int said;
	const char *tok = getenv("KBENCH_PUSH_TOKEN");

	if (trusted && push_same_origin(trusted, url))
		return 0;
	if (!said && push_env_auth()) {
		said = 1;
		kb_warn("the push to %s goes without %s: its URL comes from "
			"%s/%s, and a campaign directory is not trusted with "
			"credentials; 'kbench push %s URL' (or kbench run "
			"with -c and the kernels.conf) sends it with them",
			url, tok && *tok ? "KBENCH_PUSH_TOKEN" :
			"KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD", dir, from,
			dir);
	}
	return 1;
}

void push_send_queued(const char *dir, const char *trusted)
{
	struct records_push_entry *q;	/* a copy: the file changes as
					 * entries are sent */
	size_t i, n;

	if (records_push_queue_load(dir, &q, &n))
		return;
	if (n && kb_curl_load()) {	/* the entries stay queued */
		records_push_queue_free(q, n);
		return;
	}
	for (i = 0; i < n; i++) {
		struct push_opts o;
		int ret;

		const char *url = q[i].url;

		if (!url || push_url_check(url, NULL)) {
			kb_warn("%s/%s: entry %zu has no usable \"url\": not "
				"sent; fix or remove it", dir, QUEUE_FILE, i);
			continue;
		}
		run_push_opts(&o);
		o.http.no_env_auth = push_no_env_auth(dir, QUEUE_FILE, url,
						      trusted);
		o.format = push_format_of(q[i].format);
		kb_info("sending the queued push to %s (%s)", url,
			push_format_name(o.format));
		ret = push_campaign(dir, url, &o, NULL);
		if (!ret) {
			if (!records_push_queue_remove(dir, url))
				kb_info("the queued push to %s is done",
					url);
		} else if (push_queue_add(dir, url, o.format)) {
			continue;	/* said why */
		} else if (ret == -EXDEV) {
			kb_warn("the queued push to %s is redirected and not "
				"followed; it stays in %s/%s: push to the new "
				"URL with 'kbench push URL %s' and remove the "
				"entry", url, dir, QUEUE_FILE, dir);
		} else {
			kb_warn("the queued push to %s failed again; it stays "
				"in %s/%s (the next run or 'kbench push %s' "
				"sends it)", url, dir, QUEUE_FILE, dir);
		}
	}
	records_push_queue_free(q, n);
}

int push_curl_ready(void)
{
	return kb_curl_load();
}

void push_after_run(const char *dir, const char *url, const char *run_key,
		    int url_trusted)
{
	struct push_opts o;
	char *endpoint = NULL;
	int was_queued, ret;

	run_push_opts(&o);
	if (push_endpoint(url, NULL, NULL, NULL, NULL, &endpoint, &o.format)) {
		kb_warn("push = %s (kernels.conf): not pushed; the results "
			"are kept in %s", url, dir);
		return;
	}
	if (!url_trusted)
		o.http.no_env_auth = push_no_env_auth(dir, "kernels.conf",
						      endpoint, NULL);
	was_queued = queued(dir, endpoint);
	ret = push_campaign(dir, endpoint, &o, was_queued ? NULL : run_key);
	if (!ret) {
		if (was_queued && !records_push_queue_remove(dir, endpoint))
			kb_info("the queued push to %s is done", endpoint);
	} else if (ret == -EXDEV) {
		/* a redirect to another origin: sending again would be
		 * refused again; not queued (http.h) */
		kb_warn("push to %s not sent and not queued (the "
			"measurement is kept in %s): fix push = in "
			"kernels.conf, then 'kbench push URL %s'", endpoint,
			dir, dir);
	} else if (!push_queue_add(dir, endpoint, o.format)) {
		kb_warn("push to %s failed; queued in %s/%s: the next run or "
			"'kbench push %s' sends it (the measurement is kept)",
			endpoint, dir, QUEUE_FILE, dir);
	}
	free(endpoint);
}
