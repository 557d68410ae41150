/* tests/test_push.c - the parts of `kbench push` that need no server:
 * InfluxDB line protocol from a results model (push/influx.h: escaping,
 * tags, skipped runs, timestamps), the run start times of a campaign
 * directory, endpoint resolution (push_endpoint), the refusal of URLs
 * with credentials, and the push queue file.  The results model is
 * written here by hand (docs/results-format.md); the expected lines follow
 * the line protocol reference (InfluxDB 1.x docs, "Line protocol
 * reference": ',', '=' and ' ' escaped in tags and field keys).
 *
 * HTTP as stores mean it: `kbench push` ($KBENCH, else build/kbench) run
 * against local servers on 127.0.0.1, started here on a free port and
 * stopped after: tests/data/push/http-fault-server.py (the B40 and B41
 * cases of ../shared/cases, and its 308 mode) and tests/http_server.py
 * (Retry-After as an HTTP-date, body limits, redirects to another origin,
 * precision=, the push queue at the next `kbench run`).  Skipped without
 * python3.  A real InfluxDB is tests/e2e_push.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "put_file.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"
#include "parsers/json_file.h"
#include "parsers/kconf.h"
#include "parsers/netrc.h"
#include "parsers/store_reply.h"
#include "push/http.h"
#include "push/influx.h"
#include "push/push.h"
#include "results/points.h"
#include "results/records.h"

static const char *model_json =
"{\"schema_version\": 1,"
" \"campaign\": {\"name\": \"demo 1\", \"environment\": {\"hostname\": \"box\","
"   \"kernel_release\": \"6.1.0-13-amd64\"}},"
" \"configurations\": ["
"   {\"id\": \"stock,NM=0\", \"variant\": \"stock\", \"release\": null,"
"    \"tunables\": {\"NM\": \"0\", \"host\": \"a b\"}},"
"   {\"id\": \"new,NM=0\", \"variant\": \"new\", \"release\": \"6.9.0-rc1+\","
"    \"tunables\": {\"NM\": \"0\", \"host\": \"x\"}}],"
" \"runs\": ["
"   {\"configuration\": \"stock,NM=0\", \"job\": \"randread-4k\", \"iteration\": 0,"
"    \"warmup\": true, \"status\": \"ok\", \"metrics\": {\"read.iops\": 5.0}},"
"   {\"configuration\": \"stock,NM=0\", \"job\": \"randread-4k\", \"iteration\": 1,"
"    \"warmup\": false, \"status\": \"ok\", \"metrics\": {\"read.iops\": 106186.562687,"
"     \"disk.ios\": 531039, \"perf.cycles\": null, \"cpu.iowait_pct\": 0.1}},"
"   {\"configuration\": \"stock,NM=0\", \"job\": \"randread-4k\", \"iteration\": 2,"
"    \"warmup\": false, \"status\": \"failed\", \"reason\": \"x\", \"metrics\": {\"read.iops\": 1.0}},"
"   {\"configuration\": \"new,NM=0\", \"job\": \"seq write\", \"iteration\": 1,"
"    \"warmup\": false, \"status\": \"ok\", \"metrics\": {\"write.iops\": 2.5}},"
"   {\"configuration\": \"new,NM=0\", \"job\": \"seq write\", \"iteration\": 2,"
"    \"warmup\": false, \"status\": \"ok\", \"metrics\": {}}"
" ],"
" \"summaries\": []}";

/* influx_format() of the typed points of res (results_points_from()). */
static int format_points(FILE *f, json_t *res, const json_t *times,
			 const char *only, int64_t unit, size_t *n)
{
	struct results_points p;
	int ret = results_points_from(res, times, only, &p);

	if (!ret)
		ret = influx_format(f, &p, unit, n);
	results_points_free(&p);
	return ret;
}

static char *format(const char *only, size_t *n, int *ret)
{
	json_t *res = json_loads(model_json, 0, NULL), *times;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(res);
	times = json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"stock,NM=0/randread-4k/000", (json_int_t)1000,
		"stock,NM=0/randread-4k/001", (json_int_t)1764464314123456789LL,
		"stock,NM=0/randread-4k/002", (json_int_t)3000,
		"new,NM=0/seq write/001", (json_int_t)1764464400000000000LL,
		"new,NM=0/seq write/002", (json_int_t)5000);
	*ret = format_points(f, res, times, only, 1, n);
	assert_int_equal(fclose(f), 0);
	json_decref(times);
	json_decref(res);
	return buf;
}

static void test_influx_lines(void **state)
{
	size_t n = 0;
	int ret;
	char *out = format(NULL, &n, &ret);

	(void)state;
	assert_int_equal(ret, 0);
	/* warm-up, failed and empty runs are not written; null metrics are
	 * left out; tags sorted; the tunable "host" cannot shadow the host
	 * tag; the configuration's release wins over the environment's */
	assert_string_equal(out,
		"randread-4k,NM=0,campaign=demo\\ 1,configuration=stock\\,NM\\=0,"
		"host=box,release=6.1.0-13-amd64,tunable_host=a\\ b,variant=stock "
		"iteration=1i,read.iops=106186.562687,disk.ios=531039,"
		"cpu.iowait_pct=0.10000000000000001 1764464314123456789\n"
		"seq\\ write,NM=0,campaign=demo\\ 1,configuration=new\\,NM\\=0,"
		"host=box,release=6.9.0-rc1+,tunable_host=x,variant=new "
		"iteration=1i,write.iops=2.5 1764464400000000000\n");
	assert_int_equal(n, 2);
	free(out);

	out = format("new,NM=0/seq write/001", &n, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, 1);
	assert_non_null(strstr(out, "seq\\ write,"));
	assert_null(strstr(out, "randread"));
	free(out);

	/* the warm-up run alone: nothing */
	out = format("stock,NM=0/randread-4k/000", &n, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, 0);
	assert_string_equal(out, "");
	free(out);
}

/* A store's error body (parsers/store_reply.h): InfluxDB 1.x's "error",
 * 2.x's "message"; anything else is left to the caller (NULL). */
static void test_store_error_message(void **state)
{
	static const char v1[] = "{\"error\":\"database not found: \\\"x\\\"\"}";
	static const char v2[] = "{\"code\":\"invalid\",\"message\":\"no org\"}";
	static const char both[] = "{\"error\":7,\"message\":\"m\"}";
	static const char nl[] = "{\"error\":\"bad\\r\\nkbench: pushed\\t12 runs\"}";
	char text[STORE_MESSAGE_MAX + 100] = "", *body, *m;
	json_t *big;

	(void)state;
	m = kb_store_error_message(v1, strlen(v1));
	assert_string_equal(m, "database not found: \"x\"");
	free(m);
	m = kb_store_error_message(v2, strlen(v2));
	assert_string_equal(m, "no org");
	free(m);
	m = kb_store_error_message(both, strlen(both));
	assert_string_equal(m, "m");
	free(m);
	/* one line, however long: a store's "\n" starts no line of
	 * kbench's (a break-it trial printed "\nkbench: pushed ...") */
	m = kb_store_error_message(nl, strlen(nl));
	assert_string_equal(m, "bad  kbench: pushed 12 runs");
	free(m);
	/* at most STORE_MESSAGE_MAX bytes, not cutting the 2-byte 'é'
	 * that straddles the limit */
	memset(text, 'a', sizeof(text) - 1);
	memcpy(text + STORE_MESSAGE_MAX - 1, "\xc3\xa9", 2);
	big = json_pack("{s:s}", "error", text);
	body = json_dumps(big, 0);
	m = kb_store_error_message(body, strlen(body));
	assert_int_equal(strlen(m), STORE_MESSAGE_MAX - 1 + 3);
	assert_string_equal(m + STORE_MESSAGE_MAX - 1, "...");
	free(m);
	free(body);
	json_decref(big);
	assert_null(kb_store_error_message("{\"code\":1}", 10));
	assert_null(kb_store_error_message("<html>502</html>", 16));
	assert_null(kb_store_error_message("[\"error\"]", 9));
	assert_null(kb_store_error_message("", 0));
	assert_null(kb_store_error_message(NULL, 0));
}

static void test_influx_no_runs(void **state)
{
	json_t *res = json_pack("{s:i}", "schema_version", 1);
	struct results_points p;

	(void)state;
	assert_int_equal(results_points_from(res, NULL, NULL, &p), -EINVAL);
	assert_int_equal(p.n, 0);
	results_points_free(&p);
	json_decref(res);
}

static void test_parse_utc(void **state)
{
	int64_t s = 0;

	(void)state;
	assert_int_equal(kb_parse_utc("1970-01-01T00:00:00Z", &s), 0);
	assert_int_equal(s, 0);
	assert_int_equal(kb_parse_utc("2026-11-30T00:58:34Z", &s), 0);
	assert_int_equal(s, 1796000314LL);
	assert_int_equal(kb_parse_utc("2026-11-30 00:58:34", &s), -EINVAL);
	assert_int_equal(kb_parse_utc("2026-11-30T00:58:34Zjunk", &s),
			 -EINVAL);
	assert_int_equal(kb_parse_utc(NULL, &s), -EINVAL);
}

static char tmp[64];

static void rm_tmp(void)
{
	char *argv[] = { "rm", "-rf", tmp, NULL };
	struct kb_spawn_opts o = { 0 };
	struct kb_spawn_result r;

	kb_spawn(argv, &o, &r);
}

static void test_run_times(void **state)
{
	json_t *t;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/kbench-push.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	put_file(tmp, "state.json", "{\"runs\": {"
	    "\"a,NM=0/j/001\": {\"finished\": \"2026-11-30T00:58:34Z\", \"status\": \"ok\"},"
	    "\"a,NM=0/j/002\": {\"finished\": \"2026-11-30T00:58:50Z\", \"status\": \"ok\"},"
	    "\"a,NM=0/j/003\": {\"finished\": \"2026-11-30T00:59:10Z\", \"status\": \"ok\"},"
	    "\"a,NM=0/j/004\": {\"status\": \"ok\"}}}");
	/* start_unix_ns wins */
	put_file(tmp, "runs/a,NM=0/j/001/run.json",
	    "{\"start_unix_ns\": 1796000309123456789, \"elapsed_s\": 5.4}");
	/* older run.json: finished - elapsed_s, whole seconds */
	put_file(tmp, "runs/a,NM=0/j/002/run.json", "{\"elapsed_s\": 5.6}");
	/* no run.json at all: finished */
	/* 004: no time at all: left out (warned) */
	t = results_run_start_times(tmp, NULL);
	assert_non_null(t);
	assert_int_equal(json_object_size(t), 3);
	assert_int_equal(json_integer_value(json_object_get(t, "a,NM=0/j/001")),
			 1796000309123456789LL);
	assert_int_equal(json_integer_value(json_object_get(t, "a,NM=0/j/002")),
			 (1796000314LL + 16 - 6) * 1000000000LL);
	assert_int_equal(json_integer_value(json_object_get(t, "a,NM=0/j/003")),
			 (1796000314LL + 36) * 1000000000LL);
	json_decref(t);
}

static void test_queue(void **state)
{
	struct records_push_entry *q;
	char *qpath = kb_path_join(tmp, "push-queue.json");
	size_t n;

	(void)state;
	assert_int_equal(records_push_queue_load(tmp, &q, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(push_queue_add(tmp, "http://127.0.0.1:1/write?db=a",
					PUSH_INFLUX), 0);
	assert_int_equal(push_queue_add(tmp, "http://127.0.0.1:2/x",
					PUSH_JSON), 0);
	assert_int_equal(push_queue_add(tmp, "http://127.0.0.1:1/write?db=a",
					PUSH_INFLUX), 0);
	assert_int_equal(records_push_queue_load(tmp, &q, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(q[0].format, "influx");
	assert_int_equal(q[0].attempts, 2);
	assert_string_equal(q[1].format, "json");
	assert_int_equal(push_format_of(q[1].format), PUSH_JSON);
	records_push_queue_free(q, n);
	assert_int_equal(records_push_queue_remove(tmp,
				"http://127.0.0.1:1/write?db=a"), 0);
	assert_int_equal(records_push_queue_load(tmp, &q, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(q[0].url, "http://127.0.0.1:2/x");
	records_push_queue_free(q, n);
	assert_int_equal(records_push_queue_remove(tmp, "http://127.0.0.1:2/x"),
			 0);
	assert_false(kb_exists(qpath));
	/* a damaged queue is reported, not silently emptied */
	put_file(tmp, "push-queue.json", "{\"pending\": 3}");
	assert_int_equal(records_push_queue_load(tmp, &q, &n), -EINVAL);
	assert_int_equal(n, 0);
	free(qpath);
	rm_tmp();
}

static void endpoint_ok(const char *url, const char *fmt, const char *db,
			const char *bucket, const char *org, const char *want,
			enum push_format want_fmt)
{
	char *ep = NULL;
	enum push_format f = PUSH_INFLUX;

	assert_int_equal(push_endpoint(url, fmt, db, bucket, org, &ep, &f), 0);
	assert_string_equal(ep, want);
	assert_int_equal(f, want_fmt);
	free(ep);
}

static void endpoint_bad(const char *url, const char *fmt, const char *db,
			 const char *bucket, const char *org)
{
	char *ep = NULL;
	enum push_format f;

	assert_int_equal(push_endpoint(url, fmt, db, bucket, org, &ep, &f),
			 -EINVAL);
	assert_null(ep);
}

static void test_endpoint(void **state)
{
	(void)state;
	endpoint_ok("http://127.0.0.1:8086/write?db=kb", NULL, NULL, NULL,
		    NULL, "http://127.0.0.1:8086/write?db=kb", PUSH_INFLUX);
	endpoint_ok("http://127.0.0.1:8086", NULL, "my db", NULL, NULL,
		    "http://127.0.0.1:8086/write?db=my+db", PUSH_INFLUX);
	endpoint_ok("https://influx.example:8086/", "influx", NULL, "b", "o",
		    "https://influx.example:8086/api/v2/write?bucket=b&org=o",
		    PUSH_INFLUX);
	endpoint_ok("http://h/api/v2/write?org=o&bucket=b", NULL, NULL, NULL,
		    NULL, "http://h/api/v2/write?org=o&bucket=b", PUSH_INFLUX);
	endpoint_ok("http://127.0.0.1:9000/ingest", NULL, NULL, NULL, NULL,
		    "http://127.0.0.1:9000/ingest", PUSH_JSON);
	endpoint_ok("http://127.0.0.1:9000/write", "json", NULL, NULL, NULL,
		    "http://127.0.0.1:9000/write", PUSH_JSON);
	/* influx without a database, or at a non-write path */
	endpoint_bad("http://127.0.0.1:8086/write", NULL, NULL, NULL, NULL);
	endpoint_bad("http://127.0.0.1:8086", "influx", NULL, NULL, NULL);
	endpoint_bad("http://127.0.0.1:8086/ingest", "influx", "kb", NULL,
		     NULL);
	endpoint_bad("http://h/api/v2/write?bucket=b", NULL, NULL, NULL, NULL);
	endpoint_bad("http://h:8086", NULL, "kb", "b", NULL);
	endpoint_bad("http://h:8086", "xml", NULL, NULL, NULL);
	endpoint_bad("http://h:8086/x", "json", "kb", NULL, NULL);
}

static void test_url_check(void **state)
{
	(void)state;
	assert_int_equal(push_url_check("http://127.0.0.1:8086/write?db=a",
					NULL), 0);
	assert_int_equal(push_url_check("https://h/x", "kernels.conf:3"), 0);
	assert_int_equal(push_url_check("http://u:secret@h/write?db=a", NULL),
			 -EINVAL);
	assert_int_equal(push_url_check("http://u@h/write?db=a", NULL),
			 -EINVAL);
	assert_int_equal(push_url_check("http://h/write?db=a&u=me&p=secret",
					NULL), -EINVAL);
	assert_int_equal(push_url_check("http://h/x?token=abc", NULL),
			 -EINVAL);
	assert_int_equal(push_url_check("ftp://h/x", NULL), -EINVAL);
	assert_int_equal(push_url_check("nonsense", NULL), -EINVAL);
	/* port 0, as kernels.conf's push = refuses it */
	assert_int_equal(push_url_check("http://127.0.0.1:0/write?db=a",
					NULL), -EINVAL);
	/* a parameter merely containing "p" is fine */
	assert_int_equal(push_url_check("http://h/write?db=a&precision=s",
					NULL), 0);
}

/* netrc entry e is login l and password p (NULL: none), from "default"
 * when d; wiped. */
static void netrc_is(struct kb_netrc_entry *e, const char *l, const char *p,
		     int d)
{
	if (l)
		assert_string_equal(e->login, l);
	else
		assert_null(e->login);
	if (p)
		assert_string_equal(e->password, p);
	else
		assert_null(e->password);
	assert_int_equal(e->is_default, d);
	kb_netrc_entry_clear(e);
	assert_null(e->login);
}

/* The netrc entry for a host, as libcurl 8 reads the file: push reads
 * it itself and hands a URL from a campaign directory a "machine HOST"
 * entry, never "default" (a break-it trial: a queued URL to any host
 * got the default login). */
static void test_netrc_find(void **state)
{
	static const char rc[] =
		"# a comment: machine comment.example login x password y\n"
		"machine store.example login a password \"default x\"\n"
		"macdef init\nmachine evil.example login m password m\n\n"
		"MACHINE Influx Login b PASSWORD machine account acct\n"
		"machine nothing.example\n"
		"machine q.example login \"a b\\\"c\\\\d\\te\"\n"
		"default login d password p\n"
		"machine late.example login c password q\n";
	static const char bad[] = "machine b.example password \"open";
	struct kb_netrc_entry e;

	(void)state;
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "store.example", &e), 1);
	netrc_is(&e, "a", "default x", 0);
	/* keywords and the host name in any case */
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "influx", &e), 1);
	netrc_is(&e, "b", "machine", 0);
	/* a login alone; a quoted token's escapes */
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "q.example", &e), 1);
	netrc_is(&e, "a b\"c\\d\te", NULL, 0);
	/* a comment, a macro's text, a password and an entry without
	 * credentials are not entries: "default" applies */
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "comment.example", &e),
			 1);
	netrc_is(&e, "d", "p", 1);
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "evil.example", &e), 1);
	netrc_is(&e, "d", "p", 1);
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "machine", &e), 1);
	netrc_is(&e, "d", "p", 1);
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "nothing.example", &e),
			 1);
	netrc_is(&e, "d", "p", 1);
	/* "default" before the host's entry: it is the one (libcurl stops
	 * there) */
	assert_int_equal(kb_netrc_find(rc, strlen(rc), "late.example", &e), 1);
	netrc_is(&e, "d", "p", 1);
	/* no default: none */
	assert_int_equal(kb_netrc_find(rc, strlen("# a comment: machine "
						  "comment.example login x "
						  "password y\n"),
				       "comment.example", &e), 0);
	netrc_is(&e, NULL, NULL, 0);
	assert_int_equal(kb_netrc_find(bad, strlen(bad), "b.example", &e),
			 -EBADMSG);
	netrc_is(&e, NULL, NULL, 0);
	assert_int_equal(kb_netrc_find("", 0, "b.example", &e), 0);
}

static void test_kconf_push(void **state)
{
	struct kb_config cfg;

	(void)state;
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = a\n"
		"push = http://127.0.0.1:8086/write?db=kb\n[v]\n", &cfg), 0);
	assert_string_equal(cfg.push_url, "http://127.0.0.1:8086/write?db=kb");
	kconf_free(&cfg);
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = a\n[v]\n",
				     &cfg), 0);
	assert_null(cfg.push_url);
	kconf_free(&cfg);
	/* credentials, or not http(s): errors naming the line */
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = a\n"
		"push = http://u:pw@127.0.0.1/write?db=kb\n[v]\n", &cfg),
		-EINVAL);
	kconf_free(&cfg);
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = a\n"
		"push = influx:8086\n[v]\n", &cfg), -EINVAL);
	kconf_free(&cfg);
	/* a host and port that cannot be: refused when the file is read,
	 * not when the push fails after the campaign */
	{
		static const char *const bad[] = { "http://[::1",
			"http://:80/", "http://h:0/", "http://h:99999",
			"http://[]/", "http://[::1]x/",
			"http://a[b/", NULL };
		static const char *const good[] = {
			"http://[::1]:8086/write?db=kb", "https://example.org",
			"http://h:65535/x#y", "http://h:/x", NULL };
		size_t i;

		for (i = 0; bad[i]; i++) {
			char *t = kb_xasprintf("[global]\njobs = a\npush = "
					       "%s\n[v]\n", bad[i]);

			if (kconf_parse("t.conf", t, &cfg) != -EINVAL)
				fail_msg("push = %s was taken", bad[i]);
			kconf_free(&cfg);
			free(t);
		}
		for (i = 0; good[i]; i++) {
			char *t = kb_xasprintf("[global]\njobs = a\npush = "
					       "%s\n[v]\n", good[i]);

			if (kconf_parse("t.conf", t, &cfg))
				fail_msg("push = %s was refused", good[i]);
			kconf_free(&cfg);
			free(t);
		}
	}
}

/* ---- unit: Retry-After, origins, precision ---- */

static void test_retry_after_parse(void **state)
{
	/* 2015-10-21T07:28:00Z */
	const time_t when = 1445412480;
	unsigned long s = 7;

	(void)state;
	assert_int_equal(push_retry_after("5", when, &s), 0);
	assert_int_equal(s, 5);
	assert_int_equal(push_retry_after(" 120 ", when, &s), 0);
	assert_int_equal(s, 120);
	assert_int_equal(push_retry_after("0", when, &s), 0);
	assert_int_equal(s, 0);
	/* huge: saturates, never wraps (the caller caps it) */
	assert_int_equal(push_retry_after("99999999999999999999999", when, &s),
			 0);
	assert_true(s >= 100000000UL);
	/* the three HTTP-date forms of RFC 9110 section 5.6.7 */
	assert_int_equal(push_retry_after("Wed, 21 Oct 2015 07:28:30 GMT",
					  when, &s), 0);
	assert_int_equal(s, 30);
	assert_int_equal(push_retry_after("Wednesday, 21-Oct-15 07:28:30 GMT",
					  when, &s), 0);
	assert_int_equal(s, 30);
	assert_int_equal(push_retry_after("Wed Oct 21 07:28:30 2015", when,
					  &s), 0);
	assert_int_equal(s, 30);
	/* a date in the past: now */
	assert_int_equal(push_retry_after("Wed, 21 Oct 2015 07:27:00 GMT",
					  when, &s), 0);
	assert_int_equal(s, 0);
	assert_int_equal(push_retry_after("-1", when, &s), -EINVAL);
	assert_int_equal(push_retry_after("5s", when, &s), -EINVAL);
	assert_int_equal(push_retry_after("1.5", when, &s), -EINVAL);
	assert_int_equal(push_retry_after("", when, &s), -EINVAL);
	assert_int_equal(push_retry_after("soon", when, &s), -EINVAL);
	assert_int_equal(push_retry_after(NULL, when, &s), -EINVAL);
}

static void test_same_origin(void **state)
{
	(void)state;
	assert_true(push_same_origin("http://127.0.0.1:8086/write?db=a",
				     "http://127.0.0.1:8086/secure/write?db=a"));
	/* the default port, written or not; the host's case */
	assert_true(push_same_origin("http://h/write", "http://h:80/x"));
	assert_true(push_same_origin("https://H.example/a",
				     "https://h.example:443/b"));
	assert_false(push_same_origin("http://h/a", "https://h/a"));
	assert_false(push_same_origin("http://h:8086/a", "http://h:8087/a"));
	assert_false(push_same_origin("http://127.0.0.1/a",
				      "http://localhost/a"));
	assert_false(push_same_origin("http://h/a", "http://u:p@h/a"));
	assert_false(push_same_origin("http://h/a", "ftp://h/a"));
	assert_false(push_same_origin("http://h/a", "/relative"));
	assert_false(push_same_origin("http://h/a", NULL));
}

static void test_precision(void **state)
{
	int64_t u = 0;
	size_t n = 0;
	int ret;
	json_t *res = json_loads(model_json, 0, NULL), *times;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(influx_precision("ns", &u), 0);
	assert_int_equal(u, 1);
	assert_int_equal(influx_precision("n", &u), 0);
	assert_int_equal(u, 1);
	assert_int_equal(influx_precision("u", &u), 0);
	assert_int_equal(u, 1000);
	assert_int_equal(influx_precision("us", &u), 0);
	assert_int_equal(u, 1000);
	assert_int_equal(influx_precision("ms", &u), 0);
	assert_int_equal(u, 1000000);
	assert_int_equal(influx_precision("s", &u), 0);
	assert_int_equal(u, 1000000000);
	assert_int_equal(influx_precision("m", &u), -ERANGE);
	assert_int_equal(influx_precision("h", &u), -ERANGE);
	assert_int_equal(influx_precision("S", &u), -EINVAL);
	assert_int_equal(influx_precision("", &u), -EINVAL);
	assert_int_equal(influx_precision(NULL, &u), -EINVAL);

	/* whole milliseconds: truncated, never rounded up into the next */
	times = json_pack("{s:I}", "stock,NM=0/randread-4k/001",
			  (json_int_t)1764464314123956789LL);
	f = open_memstream(&buf, &len);
	ret = format_points(f, res, times, NULL, 1000000, &n);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ret, 0);
	assert_int_equal(n, 1);
	assert_non_null(strstr(buf, " 1764464314123\n"));
	free(buf);
	json_decref(times);
	json_decref(res);
}

/* ---- against local servers ---- */

struct srv_req {
	double t;		/* arrival, seconds (log's clock) */
	char path[512];
	size_t len, lines;
	int code;
	int auth;		/* an Authorization header came */
};

struct srv {
	char dir[64];		/* temp dir: logs, campaign copy, outputs */
	int port;
	pid_t pid;
	int fault;		/* 1: http-fault-server.py, 0: http_server.py */
};

static void rm_rf(const char *dir);

/* Servers still running: a failed assertion longjmps past srv_stop();
 * the teardown stops them.  Each runs in its own process group (a pyenv
 * shim may fork the interpreter). */
static pid_t live[8];
static char live_dir[64];	/* the temp dir of the running test */

static void live_kill(pid_t pid)
{
	size_t i;

	kill(-pid, SIGTERM);
	waitpid(pid, NULL, 0);
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] == pid)
			live[i] = 0;
}

static int stop_servers(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] > 0)
			live_kill(live[i]);
	if (live_dir[0]) {
		rm_rf(live_dir);
		live_dir[0] = '\0';
	}
	return 0;
}

static int have_python(void)
{
	char *argv[] = { "python3", "-c", "pass", NULL };
	struct kb_spawn_opts o = { .stdout_path = "/dev/null",
				   .stderr_path = "/dev/null" };
	struct kb_spawn_result r;

	return !kb_spawn(argv, &o, &r) && r.exited && !r.exit_status;
}

static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	assert_true(fd >= 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &l), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int port_open(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

static void rm_rf(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	struct kb_spawn_opts o = { 0 };
	struct kb_spawn_result r;

	kb_spawn(argv, &o, &r);
}

/* A temp dir with a copy of tests/data/push/demo as DIR/demo; the
 * server is not started yet (srv_start).  Skips without python3. */
static void srv_init(struct srv *s)
{
	char *dst;
	char *argv[] = { "cp", "-r", "tests/data/push/demo", NULL, NULL };
	struct kb_spawn_opts o = { 0 };
	struct kb_spawn_result r;

	if (!have_python())
		skip();
	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "/tmp/kbench-push-srv.XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(live_dir, sizeof(live_dir), "%s", s->dir);
	dst = kb_path_join(s->dir, "demo");
	argv[3] = dst;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_int_equal(r.exit_status, 0);
	free(dst);
	s->port = free_port();
}

/* Start the fault server in mode (fault = 1) or tests/http_server.py
 * (mode NULL) on s->port; wait until it accepts connections. */
static void srv_start(struct srv *s, const char *mode)
{
	char port[16], *log = kb_path_join(s->dir, "server.log");
	char *posts = kb_path_join(s->dir, "posts");
	char *pfile = kb_path_join(s->dir, "server.port");
	size_t i;

	snprintf(port, sizeof(port), "%d", s->port);
	assert_int_equal(kb_mkdir_p(posts), 0);
	s->fault = mode != NULL;
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (!s->pid) {
		int fd = open("/dev/null", O_WRONLY);

		setpgid(0, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (mode)
			execlp("python3", "python3",
			       "tests/data/push/http-fault-server.py", mode,
			       port, log, (char *)NULL);
		else
			execlp("python3", "python3", "tests/http_server.py",
			       "--root", posts, "--post-dir", posts, "--log",
			       log, "--port-file", pfile, "--port", port,
			       (char *)NULL);
		_exit(127);
	}
	setpgid(s->pid, s->pid);	/* either side may run first */
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		if (!live[i]) {
			live[i] = s->pid;
			break;
		}
	}
	for (i = 0; i < 200 && !port_open(s->port); i++)
		usleep(50000);
	if (!port_open(s->port))
		fail_msg("the test server did not listen on 127.0.0.1:%d",
			 s->port);
	free(log);
	free(posts);
	free(pfile);
}

static void srv_stop(struct srv *s)
{
	if (s->pid > 0) {
		live_kill(s->pid);
		s->pid = 0;
	}
}

static void srv_done(struct srv *s)
{
	srv_stop(s);
	rm_rf(s->dir);
	live_dir[0] = '\0';
}

/* The requests the server logged, in order; *n gets the count. */
static struct srv_req *srv_log(const struct srv *s, size_t *n)
{
	char *path = kb_path_join(s->dir, "server.log"), *buf = NULL, *line;
	char *save = NULL;
	struct srv_req *reqs = NULL;
	size_t cap = 0;

	*n = 0;
	if (kb_read_file(path, &buf, NULL, 1)) {
		free(path);
		return NULL;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct srv_req q;

		memset(&q, 0, sizeof(q));
		if (s->fault) {
			if (sscanf(line, "%lf POST %511s len=%zu lines=%zu -> %d",
				   &q.t, q.path, &q.len, &q.lines,
				   &q.code) != 5)
				fail_msg("unexpected log line: %s", line);
		} else {
			json_t *j = json_loads(line, 0, NULL);

			assert_non_null(j);
			if (strcmp(json_string_value(json_object_get(j,
				"method")), "POST")) {
				json_decref(j);
				continue;
			}
			q.t = json_number_value(json_object_get(j, "t"));
			snprintf(q.path, sizeof(q.path), "%s",
				 json_string_value(json_object_get(j, "path")));
			q.len = (size_t)json_integer_value(json_object_get(j,
								"length"));
			q.lines = (size_t)json_integer_value(json_object_get(j,
								"lines"));
			q.code = (int)json_integer_value(json_object_get(j,
								"code"));
			q.auth = json_is_string(json_object_get(j,
							"authorization"));
			json_decref(j);
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			reqs = kb_xrealloc(reqs, cap * sizeof(*reqs));
		}
		reqs[(*n)++] = q;
	}
	free(buf);
	free(path);
	return reqs;
}

/* Run kbench with args (NULL-ended; "DEMO" stands for the campaign copy)
 * and extra environment; its stderr + stdout in *out (malloc'd).  Returns
 * the exit status; *elapsed gets the wall-clock seconds. */
static int run_kbench(const struct srv *s, const char *const *env,
		      char **out, double *elapsed, ...)
{
	const char *kb = getenv("KBENCH") ? getenv("KBENCH") : "build/kbench";
	char *argv[32], *demo = kb_path_join(s->dir, "demo");
	char *so = kb_path_join(s->dir, "kbench.out");
	char *se = kb_path_join(s->dir, "kbench.err");
	char *a = NULL, *b = NULL;
	struct kb_spawn_opts o = { .stdout_path = so, .stderr_path = se,
				   .env = env, .timeout_s = 120 };
	struct kb_spawn_result r;
	const char *arg;
	size_t n = 0;
	va_list ap;

	argv[n++] = (char *)kb;
	va_start(ap, elapsed);
	while ((arg = va_arg(ap, const char *)) && n < 31)
		argv[n++] = !strcmp(arg, "DEMO") ? demo : (char *)arg;
	va_end(ap);
	argv[n] = NULL;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.exited);
	if (kb_read_file(se, &a, NULL, 1))
		a = kb_xstrdup("");
	if (kb_read_file(so, &b, NULL, 1))
		b = kb_xstrdup("");
	*out = kb_xasprintf("%s%s", a, b);
	if (elapsed)
		*elapsed = r.elapsed_s;
	free(a);
	free(b);
	free(so);
	free(se);
	free(demo);
	return r.exit_status;
}

static char *srv_url(const struct srv *s, const char *host, const char *path)
{
	return kb_xasprintf("http://%s:%d%s", host, s->port, path);
}

static int queue_exists(const struct srv *s)
{
	char *q = kb_xasprintf("%s/demo/push-queue.json", s->dir);
	int e = kb_exists(q);

	free(q);
	return e;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

#define EXPECT_RC(rc, want, out) do { \
	if ((rc) != (want)) \
		fail_msg("exit %d, expected %d; output:\n%s", (rc), (want), \
			 (out)); \
} while (0)

/* B40: 429 + "Retry-After: 5" for 5 s (InfluxDB Cloud's rate limit):
 * the first retry comes no earlier than 5 s later, the wait is said, the
 * second POST is accepted (exit 0), nothing queued. */
static void test_B40(void **state)
{
	struct srv s;
	struct srv_req *q;
	char *url, *out;
	size_t n;
	double el;
	int rc;

	(void)state;
	srv_init(&s);
	srv_start(&s, "429");
	url = srv_url(&s, "127.0.0.1", "");
	rc = run_kbench(&s, NULL, &out, &el, "push", "--db", "kbench",
			"--retries", "2", url, "DEMO", NULL);
	srv_stop(&s);
	EXPECT_RC(rc, 0, out);
	q = srv_log(&s, &n);
	assert_int_equal(n, 2);
	assert_int_equal(q[0].code, 429);
	assert_int_equal(q[1].code, 204);
	assert_int_equal(q[1].lines, 9);
	if (q[1].t - q[0].t < 5.0)
		fail_msg("retried %.2f s after the 429, Retry-After said 5 s",
			 q[1].t - q[0].t);
	assert_true(el >= 5.0 && el < 30.0);
	assert_non_null(strstr(out, "HTTP 429"));
	assert_non_null(strstr(out, "the store asked to wait 5 s "
				    "(Retry-After); retrying in 5.0 s, at "));
	assert_non_null(strstr(out, "pushed 9 points"));
	assert_false(queue_exists(&s));
	free(q);
	free(out);
	free(url);
	srv_done(&s);
}

/* Retry-After as an HTTP-date on a 503: the retry comes no earlier than
 * that date. */
static void test_retry_after_date(void **state)
{
	struct srv s;
	struct srv_req *q;
	char *url, *out;
	size_t n;
	int rc;

	(void)state;
	srv_init(&s);
	srv_start(&s, NULL);
	/* busy for 2 s, asking to come back at first request + 3 s (the
	 * HTTP-date has whole seconds: first + 2 s at the earliest) */
	url = srv_url(&s, "127.0.0.1", "/busy/503/2/date+3/write?db=kbench");
	rc = run_kbench(&s, NULL, &out, NULL, "push", "--retries", "2",
			"--backoff", "0.1", url, "DEMO", NULL);
	srv_stop(&s);
	EXPECT_RC(rc, 0, out);
	q = srv_log(&s, &n);
	assert_int_equal(n, 2);
	assert_int_equal(q[0].code, 503);
	assert_int_equal(q[1].code, 204);
	/* the date sent was floor(first + 3) */
	if (q[1].t < floor(q[0].t + 3))
		fail_msg("retried at %.2f, before the HTTP-date %.0f", q[1].t,
			 floor(q[0].t + 3));
	assert_non_null(strstr(out, "HTTP 503"));
	assert_non_null(strstr(out, "(Retry-After)"));
	free(q);
	free(out);
	free(url);
	srv_done(&s);
}

/* A Retry-After longer than retry_after_max_s is capped (and said). */
static void test_retry_after_cap(void **state)
{
	struct srv s;
	struct push_http_opts o;
	struct srv_req *q;
	char *url, *errf, *err = NULL;
	const char *body = "m f=1 1\n";
	size_t n;
	int rc, saved;

	(void)state;
	srv_init(&s);
	srv_start(&s, NULL);
	url = srv_url(&s, "127.0.0.1", "/busy/429/1.5/3600/write?db=kbench");
	push_http_opts_init(&o);
	o.retries = 3;
	o.retry_after_max_s = 1;
	assert_int_equal(o.backoff_s, 1.0);
	errf = kb_path_join(s.dir, "stderr");
	fflush(stderr);
	saved = dup(2);
	rc = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(rc, 2);
	close(rc);
	rc = push_http_post(url, body, strlen(body), &o, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	srv_stop(&s);
	assert_int_equal(rc, 0);
	q = srv_log(&s, &n);
	assert_int_equal(n, 3);	/* 0 s: 429, 1 s: 429, 2 s: 204 */
	assert_int_equal(q[2].code, 204);
	assert_true(q[1].t - q[0].t >= 1.0 && q[1].t - q[0].t < 3.0);
	assert_true(q[2].t - q[1].t >= 1.0 && q[2].t - q[1].t < 3.0);
	assert_int_equal(kb_read_file(errf, &err, NULL, 0), 0);
	assert_int_equal(count(err, "the store asked to wait 3600 s "
			       "(Retry-After), longer than kbench waits: 1 s"),
			 2);
	free(err);
	free(errf);
	free(q);
	free(url);
	srv_done(&s);
}

/* B41: bodies over 3000 bytes get 413: the 9-point batch is halved until
 * every request fits: 9 points written in >= 3 accepted requests; never
 * the "fix the URL/credentials" advice. */
static void test_B41(void **state)
{
	struct srv s;
	struct srv_req *q;
	char *url, *out;
	size_t n, i, ok = 0, points = 0;
	int rc;

	(void)state;
	srv_init(&s);
	srv_start(&s, "413");
	url = srv_url(&s, "127.0.0.1", "");
	rc = run_kbench(&s, NULL, &out, NULL, "push", "--db", "kbench",
			"--retries", "2", url, "DEMO", NULL);
	srv_stop(&s);
	EXPECT_RC(rc, 0, out);
	q = srv_log(&s, &n);
	for (i = 0; i < n; i++) {
		if (q[i].code == 204) {
			ok++;
			points += q[i].lines;
			assert_true(q[i].len <= 3000);
		} else {
			assert_int_equal(q[i].code, 413);
			assert_true(q[i].len > 3000);
		}
	}
	assert_int_equal(points, 9);
	assert_true(ok >= 3);
	assert_int_equal(q[0].code, 413);
	assert_int_equal(q[0].lines, 9);
	assert_non_null(strstr(out, "pushed 9 points"));
	assert_non_null(strstr(out, "--batch-size"));
	assert_null(strstr(out, "fix the URL"));
	assert_null(strstr(out, "credentials"));
	assert_false(queue_exists(&s));
	free(q);
	free(out);
	free(url);
	srv_done(&s);
}

/* 413 for a single point: exit 1 with the body limit advice, not queued,
 * never "fix the URL"; the json export (one document) likewise. */
static void test_B41_one_point_too_large(void **state)
{
	struct srv s;
	struct srv_req *q;
	char *url, *out;
	size_t n;
	int rc;

	(void)state;
	srv_init(&s);
	srv_start(&s, NULL);
	url = srv_url(&s, "127.0.0.1", "/limit/500/write?db=kbench");
	rc = run_kbench(&s, NULL, &out, NULL, "push", "--retries", "2", url,
			"DEMO", NULL);
	EXPECT_RC(rc, 1, out);
	q = srv_log(&s, &n);
	/* 9, 5, 3, 2, 1 points: every one refused */
	assert_int_equal(n, 5);
	assert_int_equal(q[0].lines, 9);
	assert_int_equal(q[4].lines, 1);
	assert_int_equal(q[4].code, 413);
	assert_non_null(strstr(out, "HTTP 413: the server's body limit is "
				    "smaller than one point ("));
	assert_non_null(strstr(out, "request body exceeds 500 bytes"));
	assert_null(strstr(out, "fix the URL"));
	assert_null(strstr(out, "retrying"));
	assert_false(queue_exists(&s));
	free(q);
	free(out);
	free(url);

	url = srv_url(&s, "127.0.0.1", "/limit/500/ingest");
	rc = run_kbench(&s, NULL, &out, NULL, "push", "--format", "json",
			url, "DEMO", NULL);
	srv_stop(&s);
	EXPECT_RC(rc, 1, out);
	assert_non_null(strstr(out, "HTTP 413: the server's body limit is "
				    "smaller than the results export"));
	assert_null(strstr(out, "fix the URL"));
	assert_false(queue_exists(&s));
	free(out);
	free(url);
	srv_done(&s);
}

/* 308 to /secure/write on the same origin: followed with the same method
 * and body. */
static void test_redirect_same_origin(void **state)
{
	static const char *const env[] = { "KBENCH_PUSH_TOKEN=t0k", NULL };
	struct srv s;
	struct srv_req *q;
	char *url, *out;
	size_t n;
	int rc;

	(void)state;
	srv_init(&s);
	srv_start(&s, "308");
	url = srv_url(&s, "127.0.0.1", "");
	rc = run_kbench(&s, env, &out, NULL, "push", "--db", "kbench",
			"--retries", "2", url, "DEMO", NULL);
	srv_stop(&s);
	EXPECT_RC(rc, 0, out);
	q = srv_log(&s, &n);
	assert_int_equal(n, 2);
	assert_int_equal(q[0].code, 308);
	assert_string_equal(q[1].path, "/secure/write?db=kbench");
	assert_int_equal(q[1].code, 204);
	assert_int_equal(q[1].lines, 9);
	assert_int_equal(q[1].len, q[0].len);
	assert_non_null(strstr(out, "same origin"));
	free(q);
	free(out);
	free(url);
	srv_done(&s);
}

/* Redirects that are not followed: another host, port or scheme, and a
 * 301 (POST -> GET): exit 1 naming the Location, one request, no retry,
 * no queue; the token never reaches the other origin. */
static void test_redirect_other_origin(void **state)
{
	static const char *const env[] = { "KBENCH_PUSH_TOKEN=s3cr3t", NULL };
	/* code, origin of the Location (%d: this server's port, or another
	 * free one for the second) */
	static const char *const targets[][2] = {
		{ "308", "http://localhost:%d" },
		{ "307", "http://127.0.0.1:%d" },
		{ "308", "https://127.0.0.1:%d" },
		{ "301", "http://127.0.0.1:%d" },
	};
	struct srv s;
	struct srv_req *q;
	size_t n, i;
	int rc, other;

	(void)state;
	srv_init(&s);
	srv_start(&s, NULL);
	other = free_port();
	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		char *origin = kb_xasprintf(targets[i][1],
					    i == 1 ? other : s.port);
		/* the Location, and as the server's ?to= (encoded) */
		char *loc = kb_xasprintf("%s/write?db=kbench", origin);
		char *path = kb_xasprintf("/redirect/%s/write?db=kbench&to=%s"
					  "/write%%3Fdb%%3Dkbench",
					  targets[i][0], origin);
		char *url = srv_url(&s, "127.0.0.1", path), *out;

		rc = run_kbench(&s, env, &out, NULL, "push", "--retries", "2",
				"--backoff", "0.1", "--format", "influx", url,
				"DEMO", NULL);
		EXPECT_RC(rc, 1, out);
		if (!strstr(out, loc))
			fail_msg("the Location %s is not named:\n%s", loc, out);
		assert_non_null(strstr(out, i == 3 ? "turns the POST into a GET"
					       : "another origin"));
		assert_null(strstr(out, "retrying"));
		assert_null(strstr(out, "s3cr3t"));
		assert_false(queue_exists(&s));
		q = srv_log(&s, &n);
		/* one request per push, every one to /redirect: the 301 to
		 * this very server was not followed either */
		assert_int_equal(n, i + 1);
		assert_non_null(strstr(q[i].path, "/redirect/"));
		free(q);
		free(loc);
		free(out);
		free(url);
		free(path);
		free(origin);
	}
	srv_stop(&s);
	srv_done(&s);
}

/* precision= in the URL: timestamps sent in that unit; m and h refused
 * before anything is sent. */
static void test_precision_push(void **state)
{
	static const char *const ok[][2] = { { "", "1" },
		{ "&precision=ns", "1" }, { "&precision=n", "1" },
		{ "&precision=u", "1000" }, { "&precision=us", "1000" },
		{ "&precision=ms", "1000000" }, { "&precision=s", "1000000000" } };
	static const char *const bad[] = { "m", "h", "x" };
	struct srv s;
	struct srv_req *q;
	char *out, *body, *first = NULL, *p;
	long long ns = 0, t;
	size_t n, i;
	int rc;

	(void)state;
	srv_init(&s);
	srv_start(&s, NULL);
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		char *path = kb_xasprintf("/write?db=kbench%s", ok[i][0]);
		char *url = srv_url(&s, "127.0.0.1", path);
		char *bpath = kb_xasprintf("%s/posts/%zu.body", s.dir, i + 1);

		rc = run_kbench(&s, NULL, &out, NULL, "push", url, "DEMO",
				NULL);
		EXPECT_RC(rc, 0, out);
		assert_int_equal(kb_read_file(bpath, &body, NULL, 0), 0);
		/* the first point's timestamp */
		p = strchr(body, '\n');
		assert_non_null(p);
		*p = '\0';
		t = atoll(strrchr(body, ' ') + 1);
		if (!i) {
			ns = t;
			assert_true(ns > 1000000000000000000LL);
		}
		assert_int_equal(t, ns / atoll(ok[i][1]));
		if (!i)
			first = kb_xstrdup(body);
		else	/* the same point otherwise */
			assert_memory_equal(body, first,
					    strrchr(first, ' ') - first);
		free(body);
		free(bpath);
		free(out);
		free(url);
		free(path);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *path = kb_xasprintf("/write?db=kbench&precision=%s",
					  bad[i]);
		char *url = srv_url(&s, "127.0.0.1", path);

		rc = run_kbench(&s, NULL, &out, NULL, "push", url, "DEMO",
				NULL);
		EXPECT_RC(rc, 1, out);
		assert_non_null(strstr(out, i < 2 ? "refused: kbench would "
			"send timestamps in whole" : "is not an InfluxDB "
			"precision"));
		free(out);
		free(url);
		free(path);
	}
	srv_stop(&s);
	q = srv_log(&s, &n);
	assert_int_equal(n, sizeof(ok) / sizeof(ok[0]));	/* none for bad */
	free(q);
	free(first);
	srv_done(&s);
}

/* Two runs of one configuration started within the same second: at
 * precision=s they would be one point: refused; at ms they are sent. */
static void test_precision_collision(void **state)
{
	struct srv s;
	char *out, *url, *p;
	int rc;

	(void)state;
	srv_init(&s);
	p = kb_xasprintf("%s/demo/runs/running,NM=0/randread-4k/001/run.json",
			 s.dir);
	assert_int_equal(kb_write_atomic(p,
		"{\"start_unix_ns\": 1796000309100000000}", 38), 0);
	free(p);
	p = kb_xasprintf("%s/demo/runs/running,NM=0/randread-4k/002/run.json",
			 s.dir);
	assert_int_equal(kb_write_atomic(p,
		"{\"start_unix_ns\": 1796000309900000000}", 38), 0);
	free(p);
	srv_start(&s, NULL);
	url = srv_url(&s, "127.0.0.1", "/write?db=kbench&precision=s");
	rc = run_kbench(&s, NULL, &out, NULL, "push", url, "DEMO", NULL);
	EXPECT_RC(rc, 1, out);
	assert_non_null(strstr(out, "the same timestamp 1796000309"));
	assert_non_null(strstr(out, "configuration=running\\,NM\\=0"));
	free(out);
	free(url);
	url = srv_url(&s, "127.0.0.1", "/write?db=kbench&precision=ms");
	rc = run_kbench(&s, NULL, &out, NULL, "push", url, "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	p = kb_xasprintf("%s/posts/2.body", s.dir);
	srv_stop(&s);
	assert_false(kb_exists(p));	/* one POST: the ms one */
	free(p);
	free(out);
	free(url);
	srv_done(&s);
}

/* Credentials over plain http:// warn once per process (3 requests
 * here), saying they travel in clear, never printing them. */
static void test_token_cleartext(void **state)
{
	static const char *const tok[] = { "KBENCH_PUSH_TOKEN=s3cr3t", NULL };
	static const char *const basic[] = { "KBENCH_PUSH_TOKEN=",
		"KBENCH_PUSH_USER=me", "KBENCH_PUSH_PASSWORD=pw0rd", NULL };
	static const char *const none[] = { "KBENCH_PUSH_TOKEN=",
		"KBENCH_PUSH_USER=", NULL };
	static const char rc_text[] =
		"machine 127.0.0.1 login me password n3trc\n";
	struct srv s;
	char *out, *url, *netrc;
	int rc;

	(void)state;
	srv_init(&s);
	srv_start(&s, NULL);
	url = srv_url(&s, "127.0.0.1", "/write?db=kbench");
	rc = run_kbench(&s, tok, &out, NULL, "push", "--batch-size", "4",
			url, "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	assert_non_null(strstr(out, "in 3 batches"));
	assert_int_equal(count(out, "in clear text"), 1);
	assert_non_null(strstr(out, "the token (KBENCH_PUSH_TOKEN) travels "
				    "in clear text"));
	assert_null(strstr(out, "s3cr3t"));
	free(out);
	rc = run_kbench(&s, tok, &out, NULL, "push", "-n", url, "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	assert_int_equal(count(out, "in clear text"), 1);
	free(out);
	rc = run_kbench(&s, basic, &out, NULL, "push", url, "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	assert_int_equal(count(out, "password"), 1);
	assert_int_equal(count(out, "in clear text"), 1);
	assert_null(strstr(out, "pw0rd"));
	free(out);
	rc = run_kbench(&s, none, &out, NULL, "push", url, "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	assert_null(strstr(out, "clear text"));
	free(out);
	/* a netrc's password too (a break-it trial: it went unsaid) */
	netrc = kb_path_join(s.dir, "netrc");
	assert_int_equal(kb_write_atomic(netrc, rc_text, strlen(rc_text)), 0);
	assert_int_equal(chmod(netrc, 0600), 0);
	rc = run_kbench(&s, none, &out, NULL, "push", "--netrc-file", netrc,
			url, "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	assert_int_equal(count(out, "in clear text"), 1);
	assert_non_null(strstr(out, "the password of the netrc entry"));
	assert_null(strstr(out, "n3trc"));
	free(out);
	free(netrc);
	srv_stop(&s);
	free(url);
	srv_done(&s);
}

/* A queued push is sent at the next `kbench run` of the campaign (README
 * "Results stores"), which never changes run's exit status: store down
 * -> exit 0, still queued; store back -> sent, queue gone; a queued
 * destination that redirects to another origin -> exit 0, warned,
 * nothing sent there. */
static void test_queue_sent_at_run(void **state)
{
	struct srv s;
	struct srv_req *q;
	struct records_push_entry *pending;
	size_t npending;
	char *url, *out, *demo, *redir, *path;
	size_t n;
	int rc;

	(void)state;
	srv_init(&s);
	demo = kb_path_join(s.dir, "demo");
	url = srv_url(&s, "127.0.0.1", "/write?db=kbench");
	rc = run_kbench(&s, NULL, &out, NULL, "push", "--retries", "0", url,
			"DEMO", NULL);
	EXPECT_RC(rc, 75, out);
	free(out);
	assert_true(queue_exists(&s));

	/* the store still down: the run's status is the campaign's (0) */
	rc = run_kbench(&s, NULL, &out, NULL, "run", "-o", "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	assert_non_null(strstr(out, "sending the queued push to"));
	assert_non_null(strstr(out, "failed again"));
	assert_int_equal(records_push_queue_load(demo, &pending, &npending), 0);
	assert_int_equal(npending, 1);
	assert_int_equal(pending[0].attempts, 2);
	records_push_queue_free(pending, npending);
	free(out);

	/* back: sent at the next run, the queue is gone */
	srv_start(&s, NULL);
	rc = run_kbench(&s, NULL, &out, NULL, "run", "-o", "DEMO", NULL);
	EXPECT_RC(rc, 0, out);
	assert_non_null(strstr(out, "the queued push to"));
	assert_non_null(strstr(out, "is done"));
	assert_false(queue_exists(&s));
	q = srv_log(&s, &n);
	assert_int_equal(n, 1);
	assert_int_equal(q[0].code, 204);
	assert_int_equal(q[0].lines, 9);
	free(q);
	free(out);

	/* queued to a store that redirects to another origin */
	path = kb_xasprintf("/redirect/308/write?db=kbench&to=http://"
			    "localhost:%d/x", s.port);
	redir = srv_url(&s, "127.0.0.1", path);
	assert_int_equal(push_queue_add(demo, redir, PUSH_INFLUX), 0);
	rc = run_kbench(&s, NULL, &out, NULL, "run", "-o", "DEMO", NULL);
	srv_stop(&s);
	EXPECT_RC(rc, 0, out);
	assert_non_null(strstr(out, "redirects to http://localhost:"));
	assert_non_null(strstr(out, "is redirected and not followed"));
	q = srv_log(&s, &n);
	assert_int_equal(n, 2);
	assert_non_null(strstr(q[1].path, "/redirect/308"));
	free(q);
	free(out);
	free(path);
	free(redir);
	free(url);
	free(demo);
	srv_done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_influx_lines),
		cmocka_unit_test(test_influx_no_runs),
		cmocka_unit_test(test_store_error_message),
		cmocka_unit_test(test_parse_utc),
		cmocka_unit_test(test_run_times),
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_endpoint),
		cmocka_unit_test(test_url_check),
		cmocka_unit_test(test_netrc_find),
		cmocka_unit_test(test_kconf_push),
		cmocka_unit_test(test_retry_after_parse),
		cmocka_unit_test(test_same_origin),
		cmocka_unit_test(test_precision),
		cmocka_unit_test_teardown(test_B40, stop_servers),
		cmocka_unit_test_teardown(test_retry_after_date, stop_servers),
		cmocka_unit_test_teardown(test_retry_after_cap, stop_servers),
		cmocka_unit_test_teardown(test_B41, stop_servers),
		cmocka_unit_test_teardown(test_B41_one_point_too_large, stop_servers),
		cmocka_unit_test_teardown(test_redirect_same_origin, stop_servers),
		cmocka_unit_test_teardown(test_redirect_other_origin, stop_servers),
		cmocka_unit_test_teardown(test_precision_push, stop_servers),
		cmocka_unit_test_teardown(test_precision_collision, stop_servers),
		cmocka_unit_test_teardown(test_token_cleartext, stop_servers),
		cmocka_unit_test_teardown(test_queue_sent_at_run, stop_servers),
	};

	kb_quiet = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
