/* tests/test_curl_dl.c - push/curl_dl.h: libcurl is loaded at first use,
 * not linked.  kbench's binary must not list libcurl among the libraries
 * the loader maps at start (its DT_NEEDED entries, read with readelf -d
 * from binutils), a library that is missing or is not libcurl is refused
 * with the name of the library (and the missing function), and the real
 * one loads, once, with working functions (curl_url_set/curl_url_get
 * round trip, curl_getdate on RFC 9110's example date).  Runs from the
 * repository root; KBENCH names the binary (tests/run-unit sets it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/proc.h"
#include "push/curl_dl.h"
#include "capture.h"

static void test_binary_does_not_link_libcurl(void **state)
{
	const char *bin = getenv("KBENCH") ? getenv("KBENCH") : "build/kbench";
	char *argv[] = { "readelf", "-d", (char *)bin, NULL }, *out = NULL;
	int st;

	(void)state;
	st = kb_capture(argv, &out);
	assert_int_equal(st, 0);
	assert_non_null(out);
	/* it does list the libraries it links: the check can fail */
	assert_non_null(strstr(out, "(NEEDED)"));
	assert_non_null(strstr(out, "libjansson"));
	assert_null(strstr(out, "libcurl"));
	free(out);
}

static void test_missing_library_named(void **state)
{
	struct kb_curl_api api = { 0 };
	struct capture c;
	char *err;

	(void)state;
	cap_begin(&c);
	assert_int_equal(kb_curl_load_lib("libkbench-no-such-curl.so.4", &api),
			 -ENOENT);
	err = cap_end(&c);
	assert_non_null(strstr(err, "cannot load libcurl (libkbench-no-such-curl.so.4)"));
	assert_non_null(strstr(err, "libcurl4"));
	assert_null(api.url);
	free(err);
}

static void test_not_libcurl_refused(void **state)
{
	struct kb_curl_api api = { 0 };
	struct capture c;
	char *err;

	(void)state;
	cap_begin(&c);
	assert_int_equal(kb_curl_load_lib("libz.so.1", &api), -ENOSYS);
	err = cap_end(&c);
	assert_non_null(strstr(err, "libz.so.1 has no curl_global_init"));
	assert_null(api.global_init);
	free(err);
}

static void test_loads_once_and_works(void **state)
{
	CURLU *u;
	char *host = NULL;

	(void)state;
	assert_null(kb_curl_api.url);
	assert_int_equal(kb_curl_load(), 0);
	assert_non_null(kb_curl_api.url);
	assert_int_equal(kb_curl_load(), 0);
	u = curl_url();
	assert_non_null(u);
	assert_int_equal(curl_url_set(u, CURLUPART_URL,
				      "https://store.example.org:8086/write?db=k", 0),
			 CURLUE_OK);
	assert_int_equal(curl_url_get(u, CURLUPART_HOST, &host, 0), CURLUE_OK);
	assert_string_equal(host, "store.example.org");
	curl_free(host);
	curl_url_cleanup(u);
	/* RFC 9110 section 5.6.7's example: 784111777 s after the epoch */
	assert_int_equal((long)curl_getdate("Sun, 06 Nov 1994 08:49:37 GMT",
					    NULL), 784111777L);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary_does_not_link_libcurl),
		cmocka_unit_test(test_missing_library_named),
		cmocka_unit_test(test_not_libcurl_refused),
		cmocka_unit_test(test_loads_once_and_works),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
