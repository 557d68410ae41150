/* tests/test_push.c - the parts of `kbench push` that need no server:
 * InfluxDB line protocol from a results model (push/influx.h: escaping,
 * tags, skipped runs, timestamps), the run start times of a campaign
 * directory, endpoint resolution (push_endpoint), the refusal of URLs
 * with credentials, and the push queue file.  The results model is
 * written here by hand (docs/results-format.md); the expected lines follow
 * the line protocol reference (InfluxDB 1.x docs, "Line protocol
 * reference": ',', '=' and ' ' escaped in tags and field keys).  Talking
 * to a real InfluxDB and an HTTP server is tests/e2e_push.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/kconf.h"
#include "push/http.h"
#include "push/influx.h"
#include "push/push.h"

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
	*ret = influx_format(f, res, times, only, n);
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

static void test_influx_no_runs(void **state)
{
	json_t *res = json_pack("{s:i}", "schema_version", 1);
	FILE *f = fopen("/dev/null", "w");

	(void)state;
	assert_int_equal(influx_format(f, res, NULL, NULL, NULL), -EINVAL);
	fclose(f);
	json_decref(res);
}

static void test_parse_utc(void **state)
{
	int64_t s = 0;

	(void)state;
	assert_int_equal(influx_parse_utc("1970-01-01T00:00:00Z", &s), 0);
	assert_int_equal(s, 0);
	assert_int_equal(influx_parse_utc("2026-11-30T00:58:34Z", &s), 0);
	assert_int_equal(s, 1796000314LL);
	assert_int_equal(influx_parse_utc("2026-11-30 00:58:34", &s), -EINVAL);
	assert_int_equal(influx_parse_utc("2026-11-30T00:58:34Zjunk", &s),
			 -EINVAL);
	assert_int_equal(influx_parse_utc(NULL, &s), -EINVAL);
}

static char tmp[64];

static void rm_tmp(void)
{
	char *argv[] = { "rm", "-rf", tmp, NULL };
	struct kb_spawn_opts o = { 0 };
	struct kb_spawn_result r;

	kb_spawn(argv, &o, &r);
}

static void put(const char *rel, const char *text)
{
	char *p = kb_path_join(tmp, rel), *d = kb_xstrdup(p);

	*strrchr(d, '/') = '\0';
	assert_int_equal(kb_mkdir_p(d), 0);
	assert_int_equal(kb_write_atomic(p, text, strlen(text)), 0);
	free(d);
	free(p);
}

static void test_run_times(void **state)
{
	json_t *t;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/kbench-push.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	put("state.json", "{\"runs\": {"
	    "\"a,NM=0/j/001\": {\"finished\": \"2026-11-30T00:58:34Z\", \"status\": \"ok\"},"
	    "\"a,NM=0/j/002\": {\"finished\": \"2026-11-30T00:58:50Z\", \"status\": \"ok\"},"
	    "\"a,NM=0/j/003\": {\"finished\": \"2026-11-30T00:59:10Z\", \"status\": \"ok\"},"
	    "\"a,NM=0/j/004\": {\"status\": \"ok\"}}}");
	/* start_unix_ns wins */
	put("runs/a,NM=0/j/001/run.json",
	    "{\"start_unix_ns\": 1796000309123456789, \"elapsed_s\": 5.4}");
	/* older run.json: finished - elapsed_s, whole seconds */
	put("runs/a,NM=0/j/002/run.json", "{\"elapsed_s\": 5.6}");
	/* no run.json at all: finished */
	/* 004: no time at all: left out (warned) */
	t = influx_run_times(tmp);
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
	json_t *q;
	char *qpath = kb_path_join(tmp, "push-queue.json");

	(void)state;
	q = push_queue_load(tmp);
	assert_int_equal(json_array_size(q), 0);
	json_decref(q);
	assert_int_equal(push_queue_add(tmp, "http://127.0.0.1:1/write?db=a",
					PUSH_INFLUX), 0);
	assert_int_equal(push_queue_add(tmp, "http://127.0.0.1:2/x",
					PUSH_JSON), 0);
	assert_int_equal(push_queue_add(tmp, "http://127.0.0.1:1/write?db=a",
					PUSH_INFLUX), 0);
	q = push_queue_load(tmp);
	assert_int_equal(json_array_size(q), 2);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(q, 0), "format")), "influx");
	assert_int_equal(json_integer_value(json_object_get(
		json_array_get(q, 0), "attempts")), 2);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(q, 1), "format")), "json");
	json_decref(q);
	assert_int_equal(push_queue_remove(tmp, "http://127.0.0.1:1/write?db=a"), 0);
	q = push_queue_load(tmp);
	assert_int_equal(json_array_size(q), 1);
	json_decref(q);
	assert_int_equal(push_queue_remove(tmp, "http://127.0.0.1:2/x"), 0);
	assert_false(kb_exists(qpath));
	/* a damaged queue is reported, not silently emptied */
	put("push-queue.json", "{\"pending\": 3}");
	assert_null(push_queue_load(tmp));
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
	/* a parameter merely containing "p" is fine */
	assert_int_equal(push_url_check("http://h/write?db=a&precision=s",
					NULL), 0);
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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_influx_lines),
		cmocka_unit_test(test_influx_no_runs),
		cmocka_unit_test(test_parse_utc),
		cmocka_unit_test(test_run_times),
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_endpoint),
		cmocka_unit_test(test_url_check),
		cmocka_unit_test(test_kconf_push),
	};

	kb_quiet = 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
