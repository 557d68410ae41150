/* tests/test_json_file.c - parsers/json_file.c's loader (issue 16): the
 * yajl decode (kb_json_decode_fast) builds exactly the tree json_loadb()
 * builds (same keys in the same order, same integer/real types and
 * values: compared as serialised text) and takes every file of the
 * corpus itself; every input it does not take as jansson would - invalid
 * JSON, a scalar top level, "\u" escapes, numbers out of range, invalid
 * UTF-8, nesting past jansson's limit - it leaves to jansson, so that
 * kb_json_load gives jansson's own result or FILE:LINE:COL message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"
#include "parsers/json_file.h"

#define TEST_TMPDIR "/tmp/kbench-test-json-file-XXXXXX"
#include "tmpdir.h"
#include "capture.h"

/* The text of j as the reports write it, keys in the tree's order (not
 * sorted: the order is part of what must match), reals to 17 digits. */
static char *dump(const json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY |
			     JSON_REAL_PRECISION(17));

	assert_non_null(s);
	return s;
}

/* got is want's tree, as text. */
static void assert_same_tree(const json_t *got, const json_t *want)
{
	char *a = dump(want), *b = dump(got);

	assert_string_equal(b, a);
	free(a);
	free(b);
}

/* kb_json_load(path) against json_loadb of the same bytes: the same
 * tree, or both NULL with jansson's message naming path.  The fast
 * decode alone gives jansson's tree or NULL, never another tree; with
 * must_be_fast it must be the one that decoded it. */
static void check_same(const char *path, int must_be_fast)
{
	char *text = NULL, *want_msg = NULL, *got_msg;
	size_t len = 0;
	json_error_t err;
	json_t *want, *got, *fast;
	struct capture c;

	assert_int_equal(kb_read_file(path, &text, &len, 1), 0);
	/* kbench's own files: a repeated key is damage, not the last
	 * value silently (json_file.h) */
	want = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	fast = kb_json_decode_fast(text, len);
	if (must_be_fast && !fast)
		fail_msg("%s: left to jansson, expected the fast decode", path);
	if (fast && !want)
		fail_msg("%s: decoded fast, jansson refuses it", path);
	if (fast)
		assert_same_tree(fast, want);
	json_decref(fast);
	if (!want && !len)	/* said as empty, not "'[' or '{' expected" */
		want_msg = kb_xasprintf("kbench: error: %s: empty (0 bytes): "
					"no JSON in it\n", path);
	else if (!want)
		want_msg = kb_xasprintf("kbench: error: %s:%d:%d: %s\n", path,
					err.line, err.column, err.text);
	cap_begin(&c);
	got = kb_json_load(path);
	got_msg = cap_end(&c);
	if (!want) {
		if (got)
			fail_msg("%s: decoded, jansson refuses it (%s)", path,
				 want_msg);
		assert_string_equal(got_msg, want_msg);
	} else {
		if (!got)
			fail_msg("%s: refused (%s), jansson decodes it", path,
				 got_msg);
		assert_string_equal(got_msg, "");
		assert_same_tree(got, want);
	}
	json_decref(want);
	json_decref(got);
	free(want_msg);
	free(got_msg);
	free(text);
}

/* Every JSON file of a tests/data folder (fio outputs, campaign files,
 * metrics.json of real runs). */
static void check_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = kb_path_join(dir, e->d_name);
		if (e->d_type == DT_DIR)
			check_dir(p, n);
		else if (l > 5 && !strcmp(e->d_name + l - 5, ".json")) {
			check_same(p, 0);
			(*n)++;
		}
		free(p);
	}
	closedir(d);
}

static void test_corpus_same_tree(void **state)
{
	size_t n = 0;

	(void)state;
	check_dir("tests/data", &n);
	assert_true(n >= 20);	/* the corpus is there */
}

/* What kbench writes (jansson's dumps: no "\u" escapes for non-ASCII
 * text) is decoded by the fast path: a real run's metrics.json and
 * campaign files, a fio output with latency bins. */
static void test_own_files_fast(void **state)
{
	static const char *const files[] = {
		"tests/data/push/demo/campaign.json",
		"tests/data/push/demo/state.json",
		"tests/data/push/demo/runs/running,NM=0/randread-4k/000/metrics.json",
		"tests/data/fio/B09.json",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		check_same(files[i], 1);
}

/* Inputs on the edges of the two decoders: each written to a file and
 * loaded both ways. */
static void test_edges_as_jansson(void **state)
{
	/* inputs[0..nfast) must be decoded fast */
	static const size_t nfast = 5;
	static const char *const inputs[] = {
		"{\"a\": 1, \"b\": -0, \"c\": 1.5, \"d\": 1e3, \"e\": 2E-2}",
		"[true, false, null, \"x\", [], {}, [[1]]]",
		"{\"big\": 9223372036854775807, \"neg\": -9223372036854775808}",
		/* escaped keys and values: yajl decodes both into one buffer */
		"{\"a\\tb\": \"c\\td\", \"e\\n\": {\"f\\\"\": \"g\\\\\"}}",
		"{\"a\": \"x\\\\u\"}",		/* "\\" then u */
		/* a repeated key: refused, where (JSON_REJECT_DUPLICATES) */
		"{\"z\": 1, \"a\": 2, \"z\": 3}",
		"{\"o\": {\"k\": [1], \"k\": {}}}",
		"{\"over\": 9223372036854775808}",	/* too big integer */
		"{\"huge\": 1e400}",			/* real overflow */
		"{\"tiny\": 1e-400}",			/* underflow: accepted */
		"{\"lead\": 01}",
		"{\"frac\": 1.}",
		"{\"exp\": 1e}",
		"{\"plus\": +1}",
		"{\"esc\": \"caf\\u00e9 \\ud83d\\ude00\"}",
		"{\"nul\": \"a\\u0000b\"}",
		"{\"lone\": \"\\ud800\"}",
		"{\"\\u00e9\": 1}",
		"{\"tab\": \"a\\tb\\n\\\"\\\\\\/\"}",
		"{\"ctl\": \"a\tb\"}",			/* raw control char */
		"{\"utf8\": \"caf\xc3\xa9\"}",
		"{\"bad\": \"\xc3\x28\"}",		/* invalid UTF-8 */
		"{\"overlong\": \"\xc0\xaf\"}",
		"{\"surrogate\": \"\xed\xa0\x80\"}",
		"{\"\xff\": 1}",			/* invalid key */
		"42",					/* scalar top level */
		"\"text\"",
		"",
		"   ",
		"{} {}",				/* two values */
		"{} x",
		"{\"a\": 1,}",
		"[1, 2,]",
		"{\"a\" 1}",
		"{'a': 1}",
		"/* c */ {}",
		"{\"a\": tru}",
		"{\"a\": NaN}",
		"\xef\xbb\xbf{}",			/* byte order mark */
		"{\"a\": [1, 2",			/* truncated */
		"{\"a\": \"x\\",			/* ends in a backslash */
		"\\",
	};
	char *p = kb_path_join(tmpdir, "edge.json");
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		assert_int_equal(kb_write_atomic(p, inputs[i],
						 strlen(inputs[i])), 0);
		check_same(p, i < nfast);
	}
	free(p);
}

/* Deeper than jansson's parser goes (2048): jansson's message; just
 * under it: the same tree. */
static void test_depth_as_jansson(void **state)
{
	char *p = kb_path_join(tmpdir, "deep.json");
	size_t depths[] = { 2047, 2048, 2049, 5000 }, i, d;

	(void)state;
	for (i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		char *s = kb_xmalloc(2 * depths[i] + 1);

		for (d = 0; d < depths[i]; d++) {
			s[d] = '[';
			s[2 * depths[i] - 1 - d] = ']';
		}
		s[2 * depths[i]] = '\0';
		assert_int_equal(kb_write_atomic(p, s, strlen(s)), 0);
		check_same(p, depths[i] <= 2048);
		free(s);
	}
	free(p);
}

/* Reals decoded without strtod (parsers/json_file.c's fast_real:
 * up to 19 significant digits, exponents within +-27) are strtod's double
 * bit for bit, and so are the ones left to it: edge forms, then 20,000
 * pseudo-random doubles printed with 1 to 19 significant digits, with
 * %.17g as kbench writes them and in fixed notation (a fixed LCG seed: the same inputs every run). */
static void check_real(const char *num)
{
	char *text = kb_xasprintf("[%s]", num);
	json_t *j = kb_json_decode_fast(text, strlen(text));
	double want, got;

	errno = 0;
	want = strtod(num, NULL);
	if (errno == ERANGE) {	/* subnormal: jansson's to decode */
		assert_null(j);
		free(text);
		return;
	}
	if (!j)
		fail_msg("%s: left to jansson", num);
	assert_true(json_is_real(json_array_get(j, 0)));
	got = json_real_value(json_array_get(j, 0));
	if (memcmp(&got, &want, sizeof(got)))
		fail_msg("%s: decoded %.17g, strtod gives %.17g", num, got,
			 want);
	json_decref(j);
	free(text);
}

#ifndef REALS_N
#define REALS_N 20000
#endif

static void test_reals_as_strtod(void **state)
{
	static const char *const edges[] = {
		"0.0", "-0.0", "0e0", "-0e5", "1e22", "1e23", "1e-22", "1e-23",
		"123456789012345e7", "123456789012345e8", "1234567890123456e0",
		"9007199254740993.0", "0.000123", "0.1", "0.3", "2.5e-1",
		"1.7976931348623157e308", "2.2250738585072014e-308", "1E+2",
		"100000000000000000000000.0", "1.000000000000000000001",
		"0.00000000000000000000001234", "-123.456e-7", "7e0022",
		"9223372036854775807.0", "18446744073709551615.0", "1e27",
		"1e-27", "1e28", "1e-28", "12345678901234567890.0",
		"0.10000000000000001", "9007199254740993e-1",
		"4.9406564584124654e-324", "2.4703282292062328e-324",
	};
	char num[64];
	unsigned long long x = 42;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_real(edges[i]);
	for (i = 0; i < REALS_N; i++) {
		double d;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		d = (double)(x >> 11) / (double)(1ULL << 53) *
		    (i % 2 ? 1e6 : 1e-3) * (i % 3 ? 1 : -1);
		if (i % 4 == 3)
			snprintf(num, sizeof(num), "%.*f", (int)(i % 9) + 1,
				 d);
		else if (i % 4 == 2)	/* as kbench writes them */
			snprintf(num, sizeof(num), "%.17g", d * 1e-9);
		else	/* 1 to 19 significant digits */
			snprintf(num, sizeof(num), "%.*e", (int)(i % 19), d);
		check_real(num);
	}
}

/* A missing file is no error for kb_json_load_existing, one for
 * kb_json_load (naming it). */
static void test_missing(void **state)
{
	char *p = kb_path_join(tmpdir, "absent.json");
	struct capture c;
	char *msg;
	int missing = 0;

	(void)state;
	cap_begin(&c);
	assert_null(kb_json_load_existing(p, &missing));
	msg = cap_end(&c);
	assert_int_equal(missing, 1);
	assert_string_equal(msg, "");
	free(msg);
	cap_begin(&c);
	assert_null(kb_json_load(p));
	msg = cap_end(&c);
	assert_non_null(strstr(msg, "absent.json"));
	assert_non_null(strstr(msg, "No such file"));
	free(msg);
	free(p);
}

/* kb_json_load_why(): quiet, and the reason for each failure; the same
 * failures printed by kb_json_load() with the file named. */
static void test_load_why(void **state)
{
	char *miss = kb_path_join(tmpdir, "absent.json");
	char *bad = kb_path_join(tmpdir, "bad.json");
	char *ok = kb_path_join(tmpdir, "ok.json");
	char *why = (char *)"unset";
	struct capture c;
	char *msg;
	json_t *j;

	(void)state;
	assert_int_equal(kb_write_atomic(bad, "{\n \"a\": 1,\n}\n", 12), 0);
	assert_int_equal(kb_write_atomic(ok, "{\"a\": [1, 2.5]}", 15), 0);
	cap_begin(&c);
	assert_null(kb_json_load_why(miss, NULL, &why));
	assert_string_equal(why, "missing");
	free(why);
	assert_null(kb_json_load_why(bad, NULL, &why));
	assert_non_null(strstr(why, "line 3: "));
	free(why);
	/* a directory opens, and its read fails */
	assert_null(kb_json_load_why(tmpdir, NULL, &why));
	assert_string_equal(why, "unreadable: Is a directory");
	free(why);
	j = kb_json_load_why(ok, NULL, &why);
	msg = cap_end(&c);
	assert_string_equal(msg, "");	/* nothing printed */
	free(msg);
	assert_non_null(j);
	assert_null(why);
	assert_int_equal(json_array_size(json_object_get(j, "a")), 2);
	json_decref(j);
	cap_begin(&c);
	assert_null(kb_json_load(bad));
	assert_null(kb_json_load(tmpdir));
	assert_null(kb_json_load(miss));
	msg = cap_end(&c);
	assert_non_null(strstr(msg, "absent.json: cannot open: No such file"));
	assert_non_null(strstr(msg, "bad.json:3:"));
	assert_non_null(strstr(msg, ": read error: Is a directory"));
	assert_null(strstr(msg, ":-1:-1:"));
	free(msg);
	free(miss);
	free(bad);
	free(ok);
}

/* kb_json_dumpf_shown(): ESC (jansson's \u001B), DEL and the C1
 * controls U+0080 and U+009B (CSI) escaped, U+00A0 (0xc2 0xa0: the lead
 * byte of a C1 control) and U+00E9 kept as UTF-8, the same document read
 * back; a failed stream is -EIO */
static void test_dumpf_shown(void **state)
{
	static const char s[] = "a\x1b[1m\x7f\xc2\x80\xc2\x9b"
				"\xc2\xa0\xc3\xa9";
	char *buf = NULL;
	size_t len = 0;
	json_t *j, *back;
	FILE *f;

	(void)state;
	j = json_pack("{s:s}", "k\x7f", s);
	assert_non_null(j);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(kb_json_dumpf_shown(j, f, JSON_COMPACT), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "{\"k\\u007F\":\"a\\u001B[1m\\u007F\\u0080"
			    "\\u009B\xc2\xa0\xc3\xa9\"}");
	back = json_loads(buf, 0, NULL);
	assert_true(json_equal(back, j));
	json_decref(back);
	free(buf);
	f = fopen("/dev/full", "w");
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	assert_int_equal(kb_json_dumpf_shown(j, f, 0), -EIO);
	fclose(f);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_same_tree),
		cmocka_unit_test(test_own_files_fast),
		cmocka_unit_test(test_edges_as_jansson),
		cmocka_unit_test(test_depth_as_jansson),
		cmocka_unit_test(test_reals_as_strtod),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_load_why),
		cmocka_unit_test(test_dumpf_shown),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
