/* tests/test_artefacts.c - results/artefacts.h: a run's latency bins read
 * through results_run_latency_bins() from a recorded campaign, equal to
 * what parsers/fio_json.h gives for the same file (fio_lat_bins_file())
 * and to the bins counted straight from the file by jansson: the number
 * of bins, the I/Os, the first and last latency in ns.
 *
 * Input: a copy of tests/data/push/demo (a real 12-run campaign, runs/
 * without fio.json), each run given a recorded fio output of
 * tests/data/fio as its fio.json: fio 3.33 json+ (one job, write bins in
 * ns), fio 3.33 --client json+ (two clients' read bins, merged), fio 2.19
 * json+ keyed by histogram index in usec (../shared/cases/B09), fio 3.33
 * with lat_percentiles=1 (B38, bins under "lat_ns").  Runs
 * from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/lat_bins.h"
#include "results/artefacts.h"
#include "results/paths.h"

#define TEST_TMPDIR "/tmp/kbench-test-artefacts.XXXXXX"
#include "tests/tmpdir.h"

#define DATA "tests/data/fio/"
#define KEY_JSONPLUS "running,NM=0/randread-4k/001"
#define KEY_CLIENTS "running,NM=1/randread-4k/001"
#define KEY_FIO2 "running,NM=2/randread-4k/001"
#define KEY_NONE "running,NM=2/randread-4k/002"
#define KEY_LAT "running,NM=1/randread-4k/002"

static char *camp;	/* tmpdir/demo */

static void copy_file(const char *from, const char *to)
{
	char *buf = NULL;
	size_t len = 0;

	assert_int_equal(kb_read_file(from, &buf, &len, 0), 0);
	assert_int_equal(kb_write_atomic(to, buf, len), 0);
	free(buf);
}

/* tests/data/push/demo copied to tmpdir/demo, recorded fio outputs as
 * three of its runs' fio.json. */
static int setup(void **state)
{
	static const char *const runs[][2] = {
		{ KEY_JSONPLUS, DATA "benson-3.33-jsonplus-sigint.json" },
		{ KEY_CLIENTS, DATA "kbench-3.33-client2-jsonplus.json" },
		{ KEY_FIO2, DATA "B09.json" },
	};
	char *argv[] = { "cp", "-a", "tests/data/push/demo", tmpdir, NULL };
	struct kb_spawn_result r;
	size_t i;

	if (tmpdir_setup(state))
		return -1;
	if (kb_spawn(argv, NULL, &r) || r.exit_status)
		return -1;
	camp = kb_path_join(tmpdir, "demo");
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char *path = kb_run_file(camp, runs[i][0], "fio.json");

		copy_file(runs[i][1], path);
		free(path);
	}
	return 0;
}

static int teardown(void **state)
{
	free(camp);
	return tmpdir_teardown(state);
}

/* What the file says without kbench's parser: over the job entries of
 * its fio JSON document (jobs, else client_stats without fio's "All
 * clients" sum), the bins of "direction"."clat_ns" (keys in ns) with a
 * count > 0: their number of distinct keys, I/Os, first and last key. */
struct raw {
	size_t nkeys;
	double total, first_ns, last_ns;
};

static struct raw raw_clat_ns_bins(const char *path, const char *direction)
{
	struct raw w = { 0, 0, INFINITY, 0 };
	json_t *doc, *entries, *e, *seen = json_object();
	json_error_t je;
	char *buf = NULL, *brace;
	const char *key;
	json_t *cnt;
	size_t i;

	assert_int_equal(kb_read_file(path, &buf, NULL, 1), 0);
	brace = strstr(buf, "\n{");	/* after fio's notes */
	assert_non_null(brace);
	doc = json_loads(brace + 1, JSON_DISABLE_EOF_CHECK, &je);
	assert_non_null(doc);
	entries = json_object_get(doc, "jobs");
	if (!entries)
		entries = json_object_get(doc, "client_stats");
	json_array_foreach(entries, i, e) {
		const char *jn = json_string_value(json_object_get(e,
							"jobname"));

		if (jn && !strcmp(jn, "All clients"))
			continue;
		json_object_foreach(json_object_get(json_object_get(
			json_object_get(e, direction), "clat_ns"), "bins"),
			key, cnt) {
			double ns = strtod(key, NULL), c = json_number_value(cnt);

			if (!(c > 0))
				continue;
			if (!json_object_get(seen, key))
				w.nkeys++;
			json_object_set_new(seen, key, json_true());
			w.total += c;
			w.first_ns = fmin(w.first_ns, ns);
			w.last_ns = fmax(w.last_ns, ns);
		}
	}
	json_decref(seen);
	json_decref(doc);
	free(buf);
	return w;
}

/* The accessor's bins of run key equal fio_lat_bins_file()'s on its
 * fio.json, bin for bin, and are sorted with each value once. */
static void same_as_parser(const char *key, const char *direction,
			   struct kb_lat_bins *b)
{
	struct kb_lat_bins direct = { 0 };
	char *path = kb_run_file(camp, key, "fio.json"), err[512];
	size_t i;

	assert_int_equal(results_run_latency_bins(camp, key, direction,
						  KB_LAT_CLAT, b), 0);
	assert_int_equal(fio_lat_bins_file(path, direction, KB_LAT_CLAT,
					   &direct, err, sizeof(err)), 0);
	assert_int_equal(b->n, direct.n);
	for (i = 0; i < b->n; i++) {
		assert_true(b->bin[i].value_ns == direct.bin[i].value_ns);
		assert_true(b->bin[i].count == direct.bin[i].count);
		assert_true(b->bin[i].count > 0);
		if (i)
			assert_true(b->bin[i - 1].value_ns < b->bin[i].value_ns);
	}
	kb_lat_bins_free(&direct);
	free(path);
}

static void same_as_file(const char *key, const char *direction,
			 const struct kb_lat_bins *b)
{
	char *path = kb_run_file(camp, key, "fio.json");
	struct raw w = raw_clat_ns_bins(path, direction);

	assert_true(w.nkeys > 0);
	assert_int_equal(b->n, w.nkeys);
	assert_true(fabs(kb_lat_bins_total(b) - w.total) < 0.5);
	assert_true(b->bin[0].value_ns == w.first_ns);
	assert_true(b->bin[b->n - 1].value_ns == w.last_ns);
	free(path);
}

/* fio 3.33 json+, one job: the write bins as the file has them; no read
 * bins (the job only wrote), no total-latency bins (clat only). */
static void test_jsonplus_one_job(void **state)
{
	struct kb_lat_bins b = { 0 };

	(void)state;
	same_as_parser(KEY_JSONPLUS, "write", &b);
	same_as_file(KEY_JSONPLUS, "write", &b);
	assert_int_equal(results_run_latency_bins(camp, KEY_JSONPLUS, "read",
						  KB_LAT_CLAT, &b), 0);
	assert_int_equal(b.n, 0);
	assert_int_equal(results_run_latency_bins(camp, KEY_JSONPLUS, "write",
						  KB_LAT_TOTAL, &b), 0);
	assert_int_equal(b.n, 0);
	kb_lat_bins_free(&b);
}

/* fio --client, two clients: one distribution of both clients' I/Os
 * (equal latencies summed into one bin), fio's "All clients" entry not
 * counted twice. */
static void test_clients_merged(void **state)
{
	struct kb_lat_bins b = { 0 };

	(void)state;
	same_as_parser(KEY_CLIENTS, "read", &b);
	same_as_file(KEY_CLIENTS, "read", &b);
	kb_lat_bins_free(&b);
}

/* fio 2.19 (../shared/cases/B09): "clat" in usec, json+ keys histogram
 * indexes (FIO_IO_U_PLAT_BITS 6): converted by fio's plat_idx_to_val()
 * (stat.c): an index below 2 * 64 is the value itself (100 -> 100 us);
 * 200 is in group (200 >> 6) - 1 = 2, base 1 << 8 = 256, the middle of
 * its bucket 256 + (200 % 64 + 0.5) * 4 = 290 us.  Zero bins left out:
 * 100, 104, 105, 106, 130, 200 hold I/Os. */
static void test_fio2_usec_indexes(void **state)
{
	struct kb_lat_bins b = { 0 };

	(void)state;
	same_as_parser(KEY_FIO2, "read", &b);
	assert_int_equal(b.n, 6);
	assert_true(b.bin[0].value_ns == 100e3);
	assert_true(b.bin[b.n - 1].value_ns == 290e3);
	assert_true(kb_lat_bins_total(&b) == 5 + 530 + 6000 + 7500 + 410 + 12);
	kb_lat_bins_free(&b);
}

/* lat_percentiles=1 (../shared/cases/B38, fio 3.33): fio writes the
 * json+ bins under "lat_ns", none under "clat_ns".  B38.json with bins
 * added there (fio's sum: N = 102400 I/Os): KB_LAT_TOTAL gives them,
 * KB_LAT_CLAT none. */
static void test_total_latency_bins(void **state)
{
	static const char bins[] = "\"bins\" : { \"329728\" : 1024, "
		"\"387072\" : 100352, \"9138456\" : 1024 }, ";
	char *buf = NULL, *p, *doc, *path = kb_run_file(camp, KEY_LAT,
							 "fio.json");
	struct kb_lat_bins b = { 0 };

	(void)state;
	assert_int_equal(kb_read_file(DATA "B38.json", &buf, NULL, 1), 0);
	p = strstr(buf, "\"percentile\" : {");	/* lat_ns's only */
	assert_non_null(p);
	doc = kb_xasprintf("%.*s%s%s", (int)(p - buf), buf, bins, p);
	assert_int_equal(kb_write_atomic(path, doc, strlen(doc)), 0);
	assert_int_equal(results_run_latency_bins(camp, KEY_LAT, "read",
						  KB_LAT_TOTAL, &b), 0);
	assert_int_equal(b.n, 3);
	assert_true(b.bin[0].value_ns == 329728);
	assert_true(b.bin[2].value_ns == 9138456);
	assert_true(kb_lat_bins_total(&b) == 102400);
	assert_int_equal(results_run_latency_bins(camp, KEY_LAT, "read",
						  KB_LAT_CLAT, &b), 0);
	assert_int_equal(b.n, 0);
	kb_lat_bins_free(&b);
	free(doc);
	free(buf);
	free(path);
}

/* No fio.json (the demo's runs have none): -ENOENT, empty; another
 * direction name: -EINVAL; a run.json given as fio.json: -EBADMSG, and
 * nothing kept from an earlier call. */
static void test_errors(void **state)
{
	struct kb_lat_bins b = { 0 };
	char *from = kb_run_file(camp, KEY_NONE, "run.json");
	char *to = kb_run_file(camp, KEY_NONE, "fio.json");

	(void)state;
	assert_int_equal(results_run_latency_bins(camp, KEY_NONE, "read",
						  KB_LAT_CLAT, &b), -ENOENT);
	assert_int_equal(b.n, 0);
	assert_int_equal(results_run_latency_bins(camp, KEY_JSONPLUS, "rw",
						  KB_LAT_CLAT, &b), -EINVAL);
	assert_int_equal(b.n, 0);
	assert_int_equal(results_run_latency_bins(camp, KEY_JSONPLUS, "write",
						  KB_LAT_CLAT, &b), 0);
	assert_true(b.n > 0);
	copy_file(from, to);
	assert_int_equal(results_run_latency_bins(camp, KEY_NONE, "read",
						  KB_LAT_CLAT, &b), -EBADMSG);
	assert_int_equal(b.n, 0);
	assert_null(b.bin);
	free(from);
	free(to);
}

/* kb_lat_bins_add(): the union of two sorted distributions, equal values
 * summed, empty bins dropped, the result sorted. */
static void test_add_merges(void **state)
{
	const struct kb_lat_bin x[] = { { 10, 1 }, { 20, 2 }, { 40, 0 } };
	const struct kb_lat_bin y[] = { { 5, 3 }, { 20, 4 }, { 50, 1 } };
	struct kb_lat_bins b = { 0 };

	(void)state;
	kb_lat_bins_add(&b, x, 3);
	assert_int_equal(b.n, 2);
	kb_lat_bins_add(&b, y, 3);
	assert_int_equal(b.n, 4);
	assert_true(b.bin[0].value_ns == 5 && b.bin[0].count == 3);
	assert_true(b.bin[1].value_ns == 10 && b.bin[1].count == 1);
	assert_true(b.bin[2].value_ns == 20 && b.bin[2].count == 6);
	assert_true(b.bin[3].value_ns == 50 && b.bin[3].count == 1);
	assert_true(kb_lat_bins_total(&b) == 11);
	kb_lat_bins_free(&b);
	assert_int_equal(b.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonplus_one_job),
		cmocka_unit_test(test_clients_merged),
		cmocka_unit_test(test_fio2_usec_indexes),
		cmocka_unit_test(test_total_latency_bins),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_add_merges),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
