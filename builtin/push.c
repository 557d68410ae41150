/* builtin/push.c - `kbench push`: send a campaign's results to a results
 * store (InfluxDB line protocol or the results.json export) over HTTP.
 * See push/push.h for the formats and the queue, push/http.h for auth,
 * TLS and retries.
 */
#include "builtin/builtin.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"
#include "parsers/kconf.h"
#include "push/push.h"
#include "results/records.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sysexits.h: EX_TEMPFAIL, "try again later" */
#define EXIT_QUEUED 75

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench push [options] URL DIR\n"
"       kbench push [options] DIR\n"
"\n"
"Send the results of the campaign in DIR to a results store over HTTP.\n"
"With URL: push to it.  Without: send the pushes queued in\n"
"DIR/push-queue.json (failed earlier), or, with nothing queued, push to\n"
"the 'push = URL' of the campaign's kernels.conf.\n"
"\n"
"Formats:\n"
"  influx  InfluxDB line protocol, one point per counted ok run:\n"
"          measurement = job, tags campaign, configuration, variant,\n"
"          release, host and one per tunable, fields = the metrics, time =\n"
"          the run's start (a re-push overwrites, never duplicates).\n"
"          URL: http://HOST:8086/write?db=NAME (1.x) or\n"
"          http://HOST:8086/api/v2/write?org=ORG&bucket=NAME (2.x), or the\n"
"          base URL with --db or --bucket/--org.\n"
"  json    the results.json export (runs and summaries), POSTed as\n"
"          application/json to URL.\n"
"\n"
"options:\n"
"  -f, --format FMT        influx or json (default: influx when the URL ends\n"
"                          in /write or /api/v2/write or --db/--bucket is\n"
"                          given, else json)\n"
"      --db NAME           InfluxDB 1.x database (adds /write?db=NAME)\n"
"      --bucket NAME       InfluxDB 2.x bucket (adds /api/v2/write?bucket=)\n"
"      --org ORG           InfluxDB 2.x organisation (adds org=)\n"
"      --cacert FILE       PEM file of the CA that signed the server's\n"
"                          certificate (default: $KBENCH_PUSH_CACERT, else\n"
"                          the system store); verification is always on\n"
"      --netrc-file FILE   read credentials from FILE instead of ~/.netrc\n"
"      --auth-scheme WORD  word before $KBENCH_PUSH_TOKEN in the\n"
"                          Authorization header (default Token; e.g. Bearer)\n"
"      --timeout S         seconds one request may take (default 30)\n"
"      --connect-timeout S  seconds to connect (default 10)\n"
"      --retries N         retries after a connection error, timeout or\n"
"                          HTTP 5xx/408/429 (default 3; other 4xx: never)\n"
"      --backoff S         seconds before the first retry, doubled for each\n"
"                          next one (default 1); a 429/503 with Retry-After\n"
"                          waits what the store asks, at most 60 s\n"
"      --batch-size N      influx points per request (default 5000); a\n"
"                          batch refused with HTTP 413 is halved until it\n"
"                          fits\n"
"  -n, --dry-run           print the requests that would be sent (the\n"
"                          Authorization header says only where the\n"
"                          credentials come from) and send nothing\n"
"  -q, --quiet             no progress lines\n"
"  -h, --help              this text\n"
"\n"
"Credentials come from the environment or ~/.netrc, never from the command\n"
"line: KBENCH_PUSH_TOKEN (an API token), or KBENCH_PUSH_USER and\n"
"KBENCH_PUSH_PASSWORD (basic auth), else a ~/.netrc 'machine HOST login U\n"
"password P' line (or its 'default' line, but not for a URL read from DIR,\n"
"its queue or its kernels.conf); a password in a netrc that others than\n"
"its owner can read or change (chmod 600), or another user owns, is not\n"
"used: an error.  URLs with credentials in them are refused; over plain\n"
"http:// they travel in clear text (warned).\n"
"Redirects: 307/308 on the same scheme, host and port are followed; any\n"
"other is an error naming the Location.  An InfluxDB URL's precision=\n"
"(ns, u, ms, s) sets the unit of the timestamps; m and h are refused\n"
"(runs would collide).\n"
"\n"
"exit status: 0 pushed, 1 error (nothing queued for a refused push:\n"
"the message says what to fix), 75 the store could not be\n"
"reached or kept failing: the push is queued in DIR/push-queue.json and\n"
"'kbench push DIR' retries it.\n");
}

static int parse_uint(const char *opt, const char *s, unsigned min,
		      unsigned *out)
{
	unsigned long long v;

	if (kb_parse_ull(s, UINT_MAX, &v, NULL) || v < min) {
		kb_error("--%s '%s': expected a whole number >= %u", opt, s,
			 min);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

/* Push dir to one endpoint; queue it on failure when queue_on_fail (any
 * failure) or when the failure is transient.  Returns the exit status. */
static int push_one(const char *dir, const char *endpoint,
		    const struct push_opts *o)
{
	int ret = push_campaign(dir, endpoint, o, NULL);

	if (o->dry_run)
		return ret ? 1 : 0;
	if (!ret) {
		records_push_queue_remove(dir, endpoint);
		return 0;
	}
	if (ret == -EAGAIN) {
		if (push_queue_add(dir, endpoint, o->format))
			return 1;
		kb_error("the results stay in %s; the push is queued in "
			 "%s/push-queue.json: run 'kbench push %s' when %s "
			 "is reachable", dir, dir, dir, endpoint);
		return EXIT_QUEUED;
	}
	return 1;
}

/* `kbench push DIR`: the queue, else kernels.conf's push = URL. */
static int push_pending(const char *dir, const struct push_opts *base)
{
	struct records_push_entry *q = NULL;
	struct kb_config cfg;
	char *conf = NULL, *endpoint = NULL;
	int ret = 1, r;
	size_t i, n = 0;

	memset(&cfg, 0, sizeof(cfg));
	if (!kb_is_dir(dir)) {
		kb_error("%s: %s (kbench push DIR takes a campaign directory)",
			 dir, kb_exists(dir) ? "not a directory" :
			 "no such directory");
		goto out;
	}
	if (records_push_queue_load(dir, &q, &n))
		goto out;
	if (n && push_curl_ready()) {	/* message printed; all stay queued */
		ret = 1;
		goto out;
	}
	if (n) {
		ret = 0;
		for (i = 0; i < n; i++) {
			struct push_opts o = *base;
			const char *u = q[i].url;

			if (!u || push_url_check(u, NULL)) {
				kb_error("%s/push-queue.json: entry %zu has no "
					 "usable \"url\"; fix or remove it", dir,
					 i);
				ret = 1;
				continue;
			}
			o.format = push_format_of(q[i].format);
			o.http.no_env_auth = push_no_env_auth(dir,
					"push-queue.json", u, NULL);
			kb_info("sending the queued push to %s (%s)", u,
				push_format_name(o.format));
			r = push_one(dir, u, &o);
			if (r && (!ret || r == 1))
				ret = r;
		}
		goto out;
	}
	conf = kb_path_join(dir, "kernels.conf");
	if (!kb_exists(conf) || kconf_load(conf, &cfg) || !cfg.push_url) {
		kb_error("nothing queued in %s and no 'push = URL' in %s: "
			 "give the URL, e.g. kbench push "
			 "http://127.0.0.1:8086/write?db=kbench %s", dir, conf,
			 dir);
		goto out;
	}
	{
		struct push_opts o = *base;

		if (push_endpoint(cfg.push_url, NULL, NULL, NULL, NULL,
				  &endpoint, &o.format))
			goto out;
		o.http.no_env_auth = push_no_env_auth(dir, "kernels.conf",
						      endpoint, NULL);
		ret = push_one(dir, endpoint, &o);
	}
out:
	kconf_free(&cfg);
	free(conf);
	free(endpoint);
	records_push_queue_free(q, n);
	return ret;
}

enum { O_DB = 256, O_BUCKET, O_ORG, O_CACERT, O_NETRC, O_SCHEME,
       O_TIMEOUT, O_CTIMEOUT, O_RETRIES, O_BACKOFF, O_BATCH };

const struct option kb_push_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "db", required_argument, NULL, O_DB },
	{ "bucket", required_argument, NULL, O_BUCKET },
	{ "org", required_argument, NULL, O_ORG },
	{ "cacert", required_argument, NULL, O_CACERT },
	{ "netrc-file", required_argument, NULL, O_NETRC },
	{ "auth-scheme", required_argument, NULL, O_SCHEME },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "connect-timeout", required_argument, NULL, O_CTIMEOUT },
	{ "retries", required_argument, NULL, O_RETRIES },
	{ "backoff", required_argument, NULL, O_BACKOFF },
	{ "batch-size", required_argument, NULL, O_BATCH },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_push_shortopts[] = "f:nqh";
const struct kb_arg_spec kb_push_args[] = {
	{ "format", KB_ARG_WORD, PUSH_FORMATS },
	{ "cacert", KB_ARG_FILE, NULL },
	{ "netrc-file", KB_ARG_FILE, NULL },
	{ "auth-scheme", KB_ARG_WORD, "Token Bearer" },
	{ NULL, KB_ARG_CAMPAIGN, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_push(int argc, char **argv)
{
	const char *format = NULL, *db = NULL, *bucket = NULL, *org = NULL;
	const char *url, *dir;
	char *endpoint = NULL;
	struct push_opts o;
	unsigned u;
	int c, ret = 1;

	push_opts_init(&o);
	optind = 1;
	while ((c = getopt_long(argc, argv, kb_push_shortopts, kb_push_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case O_DB:
			db = optarg;
			break;
		case O_BUCKET:
			bucket = optarg;
			break;
		case O_ORG:
			org = optarg;
			break;
		case O_CACERT:
			o.http.cacert = optarg;
			break;
		case O_NETRC:
			o.http.netrc_file = optarg;
			break;
		case O_SCHEME:
			if (!*optarg || strpbrk(optarg, " \t\r\n:")) {
				kb_error("--auth-scheme '%s': expected one "
					 "word such as Token or Bearer", optarg);
				return 1;
			}
			o.http.auth_scheme = optarg;
			break;
		case O_TIMEOUT:
			if (parse_uint("timeout", optarg, 1, &o.http.timeout_s))
				return 1;
			break;
		case O_CTIMEOUT:
			if (parse_uint("connect-timeout", optarg, 1,
				       &o.http.connect_timeout_s))
				return 1;
			break;
		case O_RETRIES:
			if (parse_uint("retries", optarg, 0, &o.http.retries))
				return 1;
			break;
		case O_BACKOFF:
			if (kb_parse_real(optarg, NULL, &o.http.backoff_s) ||
			    o.http.backoff_s < 0 || o.http.backoff_s > 3600) {
				kb_error("--backoff '%s': expected seconds "
					 "between 0 and 3600", optarg);
				return 1;
			}
			break;
		case O_BATCH:
			if (parse_uint("batch-size", optarg, 1, &u))
				return 1;
			o.batch_points = u;
			break;
		case 'n':
			o.dry_run = 1;
			break;
		case 'q':
			kb_quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:	/* getopt said which option */
			kb_bad_option("push", kb_push_options, argv[optind - 1]);
			return 1;
		}
	}
	if (argc - optind == 1) {
		dir = argv[optind];
		if (format || db || bucket || org) {
			kb_error("--format, --db, --bucket and --org need a URL; "
				 "'kbench push DIR' sends what is queued");
			return 1;
		}
		return push_pending(dir, &o);
	}
	if (argc - optind != 2) {
		kb_error("expected URL DIR (or DIR alone to send what is "
			 "queued); see kbench push --help");
		return 1;
	}
	url = argv[optind];
	dir = argv[optind + 1];
	if (!kb_exists(dir)) {
		kb_error("%s: no such campaign directory", dir);
		return 1;
	}
	if (push_endpoint(url, format, db, bucket, org, &endpoint, &o.format))
		goto out;
	ret = push_one(dir, endpoint, &o);
out:
	free(endpoint);
	return ret;
}
