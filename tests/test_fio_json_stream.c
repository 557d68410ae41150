/* tests/test_fio_json_stream.c - the streaming pass of the fio JSON parser
 * (parsers/fio_json_stream.h) against jansson's json_loadb(): the same
 * tree, json+ bins pair for pair, the same bytes used, the same parse
 * results (fio_parse_*_opts() with and without dom_only), and a failure
 * (so jansson, then the lenient reading, decide) on whatever jansson might
 * read differently. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "parsers/fio_json.h"
#include "parsers/fio_json_stream.h"

#define DATA "tests/data/fio/"

/* Fail unless the bins object dom (jansson's) holds exactly the pairs of
 * set in the same order, and its FIO_IO_U_PLAT_* keys are those of the
 * placeholder ph. */
static void check_bins(const char *where, const json_t *dom, const json_t *ph,
		       const struct fio_bin_set *set)
{
	const char *key;
	json_t *v;
	size_t i = 0, nplat = 0;

	json_object_foreach((json_t *)dom, key, v) {
		if (!strncmp(key, "FIO_IO_U_PLAT_", 14)) {
			nplat++;
			if (!json_equal(v, json_object_get(ph, key)))
				fail_msg("%s: bins.%s differs", where, key);
			continue;
		}
		if (i >= set->n)
			fail_msg("%s: bin '%s' missing from the set (%zu)",
				 where, key, set->n);
		if (set->bin[i].key != strtoull(key, NULL, 10) ||
		    set->bin[i].count != json_number_value(v))
			fail_msg("%s: bin %zu: streamed %llu: %.17g, jansson %s: %.17g",
				 where, i, set->bin[i].key, set->bin[i].count,
				 key, json_number_value(v));
		i++;
	}
	if (i != set->n || nplat != json_object_size(ph))
		fail_msg("%s: %zu bins streamed, %zu in jansson's tree", where,
			 set->n, i);
}

/* Fail unless the streamed tree s equals jansson's d, bins objects
 * compared with their sets; returns the number of bins objects seen. */
static size_t check_tree(const char *where, const json_t *s, const json_t *d,
			 const struct fio_bin_table *bt)
{
	size_t n = 0, i;
	const char *key;
	json_t *v;

	if (json_is_object(d)) {
		if (!json_is_object(s) || json_object_size(s) !=
		    json_object_size(d))
			fail_msg("%s: objects differ", where);
		json_object_foreach((json_t *)d, key, v) {
			const json_t *sv = json_object_get(s, key);
			struct fio_bin_set *set = fio_bin_table_find(bt, sv);

			if (!sv)
				fail_msg("%s: key '%s' missing", where, key);
			if (set) {
				assert_string_equal(key, "bins");
				check_bins(where, v, sv, set);
				n++;
			} else {
				n += check_tree(key, sv, v, bt);
			}
		}
	} else if (json_is_array(d)) {
		if (!json_is_array(s) || json_array_size(s) !=
		    json_array_size(d))
			fail_msg("%s: arrays differ", where);
		for (i = 0; i < json_array_size(d); i++)
			n += check_tree(where, json_array_get(s, i),
					json_array_get(d, i), bt);
	} else if (!json_equal(s, d) ||
		   json_typeof(s) != json_typeof(d)) {
		fail_msg("%s: values differ", where);
	}
	return n;
}

/* The json+ corpus files: every bin streamed equals jansson's, the rest
 * of the tree too, and the object ends where jansson's does. */
static void test_bins_equal_jansson(void **state)
{
	static const struct {
		const char *file;
		size_t nbins_objects;
	} files[] = {
		{ "benson-3.33-jsonplus-sigint.json", 1 },
		{ "kbench-3.33-client2-jsonplus.json", 2 },
		{ "kbench-3.33-client2-target-missing.json", 1 },
		{ "B09.json", 1 },	/* fio 2.x: bins in usec */
	};
	size_t f;

	(void)state;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct fio_bin_table bt = { 0 };
		char path[256];
		size_t off, len, used = 0, i, nbins = 0;
		json_error_t je;
		json_t *s, *d;
		char *buf = NULL;

		snprintf(path, sizeof(path), DATA "%s", files[f].file);
		assert_int_equal(kb_read_file(path, &buf, &len, 1), 0);
		assert_non_null(strchr(buf, '{'));
		off = (size_t)(strchr(buf, '{') - buf);
		assert_true(fio_stream_safe(buf, len));
		s = fio_stream_load(buf + off, len - off, &used, &bt);
		d = json_loadb(buf + off, len - off, JSON_DISABLE_EOF_CHECK,
			       &je);
		if (!s || !d)
			fail_msg("%s: streamed %p, jansson %p (%s)", path,
				 (void *)s, (void *)d, je.text);
		assert_int_equal(used, (size_t)je.position);
		assert_int_equal(check_tree(path, s, d, &bt),
				 files[f].nbins_objects);
		for (i = 0; i < bt.n; i++)
			nbins += bt.set[i].n;
		assert_true(nbins > 10);
		json_decref(s);
		json_decref(d);
		fio_bin_table_free(&bt);
		free(buf);
	}
}

/* fio_parse_file_opts() on every corpus file: the same result (metrics,
 * warnings, flags, errors) with the streaming pass and without it. */
static void test_corpus_same_results(void **state)
{
	struct fio_parse_opts stream = { .ram_bytes = 1ULL << 30 };
	struct fio_parse_opts dom = { .ram_bytes = 1ULL << 30,
				      .dom_only = 1 };
	DIR *dir = opendir(DATA);
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(dir);
	while ((de = readdir(dir))) {
		char path[512], e1[1024] = "", e2[1024] = "";
		json_t *a, *b;
		size_t l = strlen(de->d_name);

		if (l < 5 || (strcmp(de->d_name + l - 5, ".json") &&
			      strcmp(de->d_name + l - 4, ".txt")))
			continue;
		snprintf(path, sizeof(path), DATA "%s", de->d_name);
		a = fio_parse_file_opts(path, &stream, e1, sizeof(e1));
		b = fio_parse_file_opts(path, &dom, e2, sizeof(e2));
		if (((a || b) && !json_equal(a, b)) || strcmp(e1, e2)) {
			char *sa = a ? json_dumps(a, JSON_COMPACT) : NULL;
			char *sb = b ? json_dumps(b, JSON_COMPACT) : NULL;

			fail_msg("%s: streamed %s (%s)\njansson %s (%s)", path,
				 sa ? sa : "NULL", e1, sb ? sb : "NULL", e2);
		}
		json_decref(a);
		json_decref(b);
		n++;
	}
	closedir(dir);
	assert_true(n >= 30);
}

/* The result of path read in chunks of chunk bytes against the whole
 * file read by jansson (dom); *whole says whether the chunked reading
 * gave way.  Either way the head handed back is the file's first 30
 * bytes (to a NUL byte). */
static void check_chunked(const char *path, size_t chunk, int *whole)
{
	int w = -1;
	char *h1 = NULL, *h2 = NULL, *text = NULL;
	size_t len = 0, hl;
	struct fio_parse_opts ck = { .ram_bytes = 1ULL << 30,
				     .read_chunk_bytes = chunk,
				     .read_whole = &w, .head = &h1,
				     .head_max = 30 };
	struct fio_parse_opts dom = { .ram_bytes = 1ULL << 30,
				      .dom_only = 1, .head = &h2,
				      .head_max = 30 };
	char e1[1024] = "", e2[1024] = "";
	json_t *a = fio_parse_file_opts(path, &ck, e1, sizeof(e1));
	json_t *b = fio_parse_file_opts(path, &dom, e2, sizeof(e2));

	assert_int_equal(kb_read_file(path, &text, &len, 0), 0);
	hl = len < 30 ? len : 30;
	assert_non_null(h1);
	assert_non_null(h2);
	assert_string_equal(h1, h2);
	if (memcmp(h1, text, strlen(h1)) ||
	    (strlen(h1) != hl && !memchr(text, 0, hl)))
		fail_msg("%s, chunks of %zu: head '%s'", path, chunk, h1);
	free(h1);
	free(h2);
	free(text);

	if (((a || b) && !json_equal(a, b)) || strcmp(e1, e2)) {
		char *sa = a ? json_dumps(a, JSON_COMPACT) : NULL;
		char *sb = b ? json_dumps(b, JSON_COMPACT) : NULL;

		fail_msg("%s, chunks of %zu: read %s %s (%s)\njansson %s (%s)",
			 path, chunk, w ? "whole" : "in chunks",
			 sa ? sa : "NULL", e1, sb ? sb : "NULL", e2);
	}
	assert_true(w == 0 || w == 1);
	*whole = w;
	json_decref(a);
	json_decref(b);
}

/* Every corpus file read in chunks of a few bytes (documents, lines,
 * escapes and numbers split between reads) gives what jansson gives; the
 * files fio wrote are read in chunks, those the streaming pass cannot
 * read (no document, invalid JSON) whole. */
static void test_corpus_chunked(void **state)
{
	static const size_t chunks[] = { 1, 3, 61, 4096 };
	static const struct {
		const char *file;
		int whole;
	} expect[] = {
		{ "benson-3.33-jsonplus-sigint.json", 0 },
		{ "arau-3.12-two-json-with-shell-prompt.txt", 0 },
		{ "arau-3.12-gt-prompt-glued.txt", 0 },
		{ "B30.json", 0 },
		{ "hwt-2.2.10-normal-4groups.txt", 1 },
		{ "B36.json", 1 },
	};
	DIR *dir = opendir(DATA);
	struct dirent *de;
	int n = 0, nchunked = 0;
	size_t i, k;

	(void)state;
	assert_non_null(dir);
	while ((de = readdir(dir))) {
		char path[512];
		size_t l = strlen(de->d_name);
		struct stat st;
		int whole;

		if (l < 5 || (strcmp(de->d_name + l - 5, ".json") &&
			      strcmp(de->d_name + l - 4, ".txt")))
			continue;
		snprintf(path, sizeof(path), DATA "%s", de->d_name);
		assert_int_equal(stat(path, &st), 0);
		for (k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
			/* a byte a read: the small files only (time) */
			if (chunks[k] == 1 && st.st_size > 16384)
				continue;
			check_chunked(path, chunks[k], &whole);
			for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++)
				if (!strcmp(expect[i].file, de->d_name) &&
				    whole != expect[i].whole)
					fail_msg("%s, chunks of %zu: read %s",
						 path, chunks[k], whole ?
						 "whole" : "in chunks");
		}
		nchunked += !whole;
		n++;
	}
	closedir(dir);
	assert_true(n >= 30);
	assert_true(nchunked >= n / 2);
}

/* One document of two read jobs whose clat_ns bins are bins1 and bins2
 * (several jobs: the percentiles come from the merged bins). */
static char *two_jobs(const char *pre, const char *bins1, const char *bins2)
{
	static const char job[] =
		"{\"jobname\": \"j%d\", \"groupid\": 0, \"error\": 0, "
		"\"read\": {\"io_bytes\": 409600, \"iops\": 100.0, "
		"\"bw\": 400, \"runtime\": 1000, \"total_ios\": 100, "
		"\"clat_ns\": {\"min\": 1000, \"max\": 9000, \"mean\": 5000.0, "
		"\"N\": 100, \"percentile\": {\"50.000000\": 5000, "
		"\"99.000000\": 9000, \"99.900000\": 9000}, "
		"\"bins\": {%s}}}}";
	char *j1 = kb_xasprintf(job, 1, bins1), *j2 = kb_xasprintf(job, 2, bins2);
	char *doc = kb_xasprintf("%s{\"fio version\": \"fio-3.33\", "
				 "\"jobs\": [%s, %s]}\n", pre, j1, j2);

	free(j1);
	free(j2);
	return doc;
}

/* Text around and between documents split between reads: prose braces,
 * a '{' whose blanks run past a chunk, a fio line saying the page cache
 * could not be dropped (found by reading the file again in chunks),
 * several documents: read in chunks; then a lone surrogate escape and a
 * JSON object that is not a fio document after a good one: read whole.
 * The same result as jansson's every way. */
static void test_chunked_text(void **state)
{
	static const char bins[] = "\"1000\": 10, \"5000\": 60";
	char *doc = two_jobs("", bins, bins), *files[4];
	size_t chunk, i;
	int whole;

	(void)state;
	files[0] = kb_xasprintf("fio: {prose} here\nfio: cache invalidation of "
				"f failed: Operation not permitted\n%s"
				"{      \n   junk} trailing {b}\n%s\n"
				"Run status group 0\n", doc, doc);
	files[1] = kb_xasprintf("{\n\n   \t%s", doc + 1);
	files[2] = kb_xasprintf("%s{\"fio version\": \"\\ud800\", "
				"\"jobs\": []}\n", doc);
	files[3] = kb_xasprintf("%s{\"a\": 1}\n", doc);
	for (i = 0; i < 4; i++) {
		char path[] = "/tmp/kbench-test-chunked.XXXXXX";
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, files[i], strlen(files[i])),
				 (ssize_t)strlen(files[i]));
		close(fd);
		for (chunk = 1; chunk <= 9; chunk++) {
			check_chunked(path, chunk, &whole);
			if (whole != (i >= 2))
				fail_msg("file %zu, chunks of %zu: read %s", i,
					 chunk, whole ? "whole" : "in chunks");
		}
		unlink(path);
		free(files[i]);
	}
	free(doc);
}

/* Inputs where the streaming pass must either read what jansson reads or
 * give way to it: the parse results are the same both ways, and the pass
 * accepts (1) or refuses (0) the document as expected. */
static void test_edge_cases_same_results(void **state)
{
	static const struct {
		const char *what, *pre, *bins1, *bins2;
		int streamed;
	} cases[] = {
		{ "plain", "", "\"1000\": 10, \"5000\": 60, \"9000\": 30",
		  "\"2000\": 50, \"8000\": 50", 1 },
		{ "zero counts and reals", "", "\"1000\": 0, \"5000\": 60.5",
		  "\"2000\": 0.0, \"8000\": 1e2", 1 },
		{ "unsorted", "", "\"9000\": 30, \"1000\": 10, \"5000\": 60",
		  "\"8000\": 50, \"2000\": 50", 1 },
		{ "FIO_IO_U_PLAT keys", "",
		  "\"FIO_IO_U_PLAT_BITS\": 6, \"FIO_IO_U_PLAT_VAL\": 64, "
		  "\"FIO_IO_U_PLAT_NR\": 1216, \"100\": 5, \"700\": 5",
		  "\"FIO_IO_U_PLAT_BITS\": 6, \"FIO_IO_U_PLAT_VAL\": 64, "
		  "\"300\": 5, \"99999\": 5", 1 },
		{ "duplicate key, last wins", "",
		  "\"1000\": 10, \"5000\": 60, \"1000\": 0", "\"2000\": 5", 0 },
		{ "leading zero key", "", "\"01000\": 10, \"1000\": 60",
		  "\"2000\": 5", 0 },
		{ "keys that are not latencies", "",
		  "\"abc\": 10, \"-5\": 3, \"1000\": 60", "\"2000\": 5", 0 },
		{ "key beyond uint64", "", "\"18446744073709551616\": 1, "
		  "\"1000\": 60", "\"2000\": 5", 0 },
		{ "negative and string counts", "", "\"1000\": -1, \"2000\": 5",
		  "\"3000\": \"7\"", 0 },
		{ "nested count", "", "\"1000\": {\"a\": 1}", "\"2000\": 5", 0 },
		{ "lone surrogate escape", "\"\\ud800\"\n", "\"1000\": 1",
		  "\"2000\": 5", 0 },
		{ "form feed between tokens", "\f", "\"1000\": 1", "\"2000\": 5",
		  0 },
		{ "text and a non-fio object before", "fio: {\"a\": 1}\n",
		  "\"1000\": 1", "\"2000\": 5", 1 },
	};
	struct fio_parse_opts dom = { .dom_only = 1 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *doc = two_jobs(cases[i].pre, cases[i].bins1,
				     cases[i].bins2);
		const char *start = strstr(doc, "{\"fio version");
		struct fio_bin_table bt = { 0 };
		char e1[512] = "", e2[512] = "";
		size_t used = 0, len = strlen(doc);
		json_t *a, *b, *s = NULL;

		if (fio_stream_safe(doc, len))
			s = fio_stream_load(start, len - (size_t)(start - doc),
					    &used, &bt);
		if (!!s != cases[i].streamed)
			fail_msg("%s: streaming pass %s", cases[i].what,
				 s ? "accepted" : "refused");
		json_decref(s);
		fio_bin_table_free(&bt);
		a = fio_parse_buf_opts("t.json", doc, len, NULL, e1,
				       sizeof(e1));
		b = fio_parse_buf_opts("t.json", doc, len, &dom, e2,
				       sizeof(e2));
		assert_non_null(a);
		if (!json_equal(a, b)) {
			char *sa = json_dumps(a, JSON_COMPACT);
			char *sb = json_dumps(b, JSON_COMPACT);

			fail_msg("%s: streamed %s\njansson %s", cases[i].what,
				 sa, sb);
		}
		json_decref(a);
		json_decref(b);
		free(doc);
	}
}

/* The pass refuses what jansson refuses, never yields a partial tree:
 * invalid JSON, a truncated object, \u0000, bytes that are not UTF-8
 * (yajl's check and jansson's), nesting beyond FIO_STREAM_MAX_DEPTH. */
static void test_refused(void **state)
{
	static const char *const bad[] = {
		"{\"a\": 1,}", "{\"a\": [1, 2}", "{\"a\": 1", "{\"a\": \"x",
		"{\"a\": \"\\u0000\"}", "{\"\\u0000\": 1}",
		"{\"a\": \"\xc3\"}", "{\"a\": \"\xc0\x80\"}",
		"{\"a\": \"\xed\xa0\x80\"}", "{\"a\": \"tab\there\"}",
		"{\"a\": 01}", "{\"a\": 1e999}",
	};
	struct fio_bin_table bt = { 0 };
	size_t i, used;
	char *deep;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *s = fio_stream_load(bad[i], strlen(bad[i]), &used,
					    &bt);

		if (s)
			fail_msg("accepted: %s", bad[i]);
		assert_int_equal(bt.n, 0);
	}
	/* jansson refuses beyond 2048 levels: FIO_STREAM_MAX_DEPTH is
	 * read, one more refused */
	for (i = FIO_STREAM_MAX_DEPTH; i <= FIO_STREAM_MAX_DEPTH + 1; i++) {
		size_t k, l = 0;
		json_t *s;

		deep = kb_xcalloc(7 * i + 2, 1);
		for (k = 0; k < i; k++)
			l += (size_t)sprintf(deep + l, "{\"a\": ");
		deep[l++] = '1';
		for (k = 0; k < i; k++)
			deep[l++] = '}';
		s = fio_stream_load(deep, l, &used, &bt);
		if (!s != (i > FIO_STREAM_MAX_DEPTH))
			fail_msg("depth %zu: %s", i, s ? "read" : "refused");
		json_decref(s);
		fio_bin_table_free(&bt);
		free(deep);
	}
	/* and the object alone, text after it left */
	{
		const char *ok = "{\"a\": [1, {\"b\": null}]} fio: done {";
		json_t *s = fio_stream_load(ok, strlen(ok), &used, &bt);

		assert_non_null(s);
		assert_int_equal(used, strlen("{\"a\": [1, {\"b\": null}]}"));
		json_decref(s);
		fio_bin_table_free(&bt);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins_equal_jansson),
		cmocka_unit_test(test_corpus_same_results),
		cmocka_unit_test(test_edge_cases_same_results),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_corpus_chunked),
		cmocka_unit_test(test_chunked_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
