/* tests/test_fio_json.c - the fio JSON parser against real fio output
 * (tests/data/fio, copied from ../shared/corpus/fio, see SOURCES.md; the
 * expected values are those of the corpus INDEX.md) and the failing
 * inputs of ../shared/cases (Bxx.json with Bxx.expected beside it).
 * Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/run_kbench.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "lib/proc.h"
#include "parsers/fio_json.h"

#define DATA "tests/data/fio/"

/* ---- helpers ---------------------------------------------------------- */

static json_t *parse_ok(const char *file)
{
	char err[1024] = "";
	json_t *r = fio_parse_file(file, err, sizeof(err));

	if (!r)
		fail_msg("%s: parse failed: %s", file, err);
	return r;
}

static json_t *parse_str_ok(const char *text)
{
	char err[1024] = "";
	json_t *r = fio_parse_buf("test.json", text, strlen(text), err,
				  sizeof(err));

	if (!r)
		fail_msg("in-test JSON: parse failed: %s", err);
	return r;
}

/* Relative tolerance 1e-6 (values are copied from the files with 6-9
 * significant digits), absolute 1e-9 around 0. */
static void check_close(const char *what, double got, double want)
{
	double tol = fabs(want) * 1e-6 + 1e-9;

	if (fabs(got - want) > tol)
		fail_msg("%s: got %.9g, want %.9g", what, got, want);
}

static double metric(const json_t *r, const char *name)
{
	const json_t *v = json_object_get(json_object_get(r, "metrics"), name);

	if (!json_is_number(v))
		fail_msg("metric %s missing (file %s)", name,
			 json_string_value(json_object_get(r, "file")));
	return json_number_value(v);
}

static void check_metric(const json_t *r, const char *name, double want)
{
	check_close(name, metric(r, name), want);
}

static void check_no_metric(const json_t *r, const char *name)
{
	const json_t *v = json_object_get(json_object_get(r, "metrics"), name);

	if (v && !json_is_null(v))
		fail_msg("metric %s present (%g), want absent/null", name,
			 json_number_value(v));
}

static const json_t *job(const json_t *r, size_t i)
{
	const json_t *j = json_array_get(json_object_get(r, "jobs"), i);

	assert_non_null(j);
	return j;
}

static double jdir(const json_t *r, size_t i, const char *dir,
		   const char *key)
{
	const json_t *v = json_object_get(json_object_get(job(r, i), dir), key);

	if (!json_is_number(v))
		fail_msg("jobs[%zu].%s.%s missing", i, dir, key);
	return json_number_value(v);
}

/* One job's direction against INDEX.md: iops, bw KiB/s, clat mean and
 * p99 in the file's unit (mult 1000 for fio 2.x usec -> ns). */
static void check_jdir(const json_t *r, size_t i, const char *dir,
		       double iops, double bw, double clat_mean, double p99,
		       double mult)
{
	check_close("iops", jdir(r, i, dir, "iops"), iops);
	check_close("bw_kib", jdir(r, i, dir, "bw_kib"), bw);
	check_close("clat_mean_ns", jdir(r, i, dir, "clat_mean_ns"),
		    clat_mean * mult);
	check_close("clat_p99_ns", jdir(r, i, dir, "clat_p99_ns"), p99 * mult);
}

static void check_cpu(const json_t *r, size_t i, double usr, double sys)
{
	const json_t *j = job(r, i);

	check_close("usr_cpu_pct",
		    json_number_value(json_object_get(j, "usr_cpu_pct")), usr);
	check_close("sys_cpu_pct",
		    json_number_value(json_object_get(j, "sys_cpu_pct")), sys);
}

static size_t njobs(const json_t *r)
{
	return json_array_size(json_object_get(r, "jobs"));
}

static int has_warning(const json_t *r, const char *needle)
{
	const json_t *w;
	size_t i;

	json_array_foreach(json_object_get(r, "warnings"), i, w)
		if (strstr(json_string_value(w), needle))
			return 1;
	return 0;
}

static void check_parse_fails(const char *file, const char *needle)
{
	char err[1024] = "";
	json_t *r = fio_parse_file(file, err, sizeof(err));

	if (r) {
		json_decref(r);
		fail_msg("%s: parsed, want an error containing '%s'", file,
			 needle);
	}
	if (!strstr(err, needle) || strncmp(err, file, strlen(file)))
		fail_msg("%s: error '%s' lacks the file name or '%s'", file,
			 err, needle);
}

/* ---- fio 2.x ---------------------------------------------------------- */

static void test_pkb_2_1_4_multijob(void **state)
{
	json_t *r = parse_ok(DATA "pkb-2.1.4-multijob.json");

	(void)state;
	assert_int_equal(njobs(r), 5);
	assert_string_equal(json_string_value(json_object_get(r, "fio_version")),
			    "fio-2.1.4");
	assert_true(json_is_null(json_object_get(job(r, 0), "rw")));
	check_jdir(r, 0, "write", 133, 68118, 477734.84, 823296, 1000);
	check_jdir(r, 1, "read", 253, 129836, 250667.06, 473088, 1000);
	check_jdir(r, 2, "write", 1610, 6443, 587.02, 1688, 1000);
	check_jdir(r, 3, "read", 317, 1269, 3117.62, 3728, 1000);
	check_jdir(r, 4, "read", 323, 1292, 198030.44, 209920, 1000);
	check_cpu(r, 0, 0.23, 1.2);
	check_cpu(r, 4, 0.27, 1.24);
	/* directions without I/O are left out of the job */
	assert_null(json_object_get(job(r, 0), "read"));
	assert_null(json_object_get(job(r, 1), "write"));
	/* fio 2.x io_bytes is KiB */
	check_close("io_bytes", jdir(r, 0, "write", "io_bytes"), 361984.0 * 1024);
	check_metric(r, "read.iops", 893);
	check_metric(r, "read.bw_kib", 132397);
	check_metric(r, "write.iops", 1743);
	check_metric(r, "write.bw_kib", 74561);
	check_metric(r, "fio.usr_cpu_pct", (0.23 + 0.57 + 1.42 + 0.28 + 0.27) / 5);
	check_metric(r, "fio.sys_cpu_pct", (1.2 + 2.44 + 4.84 + 0.91 + 1.24) / 5);
	/* fio 2.1.4 writes no total_ios: no count, not a guess */
	check_no_metric(r, "fio.total_ios");
	/* several jobs, no json+ bins: no made-up percentile */
	check_no_metric(r, "read.clat_p99_ns");
	check_no_metric(r, "write.clat_p50_ns");
	assert_true(has_warning(r, "json+ bins"));
	assert_int_equal(json_integer_value(json_object_get(r, "error")), 0);
	json_decref(r);
}

static void test_pkb_2_17_2jobs(void **state)
{
	json_t *r = parse_ok(DATA "pkb-2.17-2jobs.json");

	(void)state;
	assert_int_equal(njobs(r), 2);
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "name")),
			    "rand_16k_read_100%-io-depth-1-num-jobs-2");
	assert_string_equal(json_string_value(json_object_get(job(r, 1), "rw")),
			    "randwrite");
	check_jdir(r, 0, "read", 8086.673998, 129386, 238.357679, 1352, 1000);
	check_jdir(r, 1, "write", 2457.017193, 39312, 800.193694, 2384, 1000);
	check_cpu(r, 0, 1.539846, 4.039596);
	check_cpu(r, 1, 0.739889, 1.879718);
	/* one job per direction: its own percentile map */
	check_metric(r, "read.clat_p99_ns", 1352000);
	check_metric(r, "write.clat_p99_ns", 2384000);
	check_metric(r, "read.clat_mean_ns", 238357.679);
	json_decref(r);
}

static void test_fioplot_2_18_usec(void **state)
{
	json_t *r = parse_ok(DATA "fioplot-2.18-usec.json");

	(void)state;
	check_jdir(r, 0, "read", 73.184143, 292, 13636.394809, 22912, 1000);
	check_cpu(r, 0, 0.046657, 0.259948);
	check_metric(r, "read.clat_mean_ns", 13636394.809);
	check_metric(r, "read.clat_p99_ns", 22912000);
	check_metric(r, "fio.usr_cpu_pct", 0.046657);
	json_decref(r);
}

static void test_pbench_2_2_5(void **state)
{
	json_t *r = parse_ok(DATA "pbench-2.2.5-json.json");

	(void)state;
	check_jdir(r, 0, "read", 10984.92, 703100, 2889.34, 5088, 1000);
	check_cpu(r, 0, 8.39, 37.21);
	check_close("io_bytes", jdir(r, 0, "read", "io_bytes"),
		    21067712.0 * 1024);
	check_metric(r, "read.iops", 10984.92);
	check_metric(r, "read.clat_p99_ns", 5088000);
	json_decref(r);
}

/* ---- fio 3.x ---------------------------------------------------------- */

static void test_fioplot_3_1_grouprep(void **state)
{
	json_t *r = parse_ok(DATA "fioplot-3.1-randrw-grouprep.json");

	(void)state;
	assert_int_equal(njobs(r), 1);
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "rw")),
			    "randrw");
	check_jdir(r, 0, "read", 75912.042129, 303648, 1680995.090236, 4882432, 1);
	check_jdir(r, 0, "write", 75968.719795, 303874, 1589192.146235, 4685824, 1);
	check_metric(r, "read.iops", 75912.042129);
	check_metric(r, "write.bw_kib", 303874);
	check_metric(r, "read.clat_p99_ns", 4882432);
	check_metric(r, "write.clat_mean_ns", 1589192.146235);
	check_metric(r, "fio.usr_cpu_pct", 3.810342);
	check_metric(r, "fio.sys_cpu_pct", 8.573452);
	/* "IO issued rwts: total=4555178,4558579,0,0": reads + writes */
	check_metric(r, "fio.total_ios", 4555178 + 4558579);
	json_decref(r);
}

static void test_jbern_3_1_dupkeys(void **state)
{
	json_t *r = parse_ok(DATA "jbern-3.1-4jobs-dupkeys-trailingspace.json");

	(void)state;
	assert_int_equal(njobs(r), 8);
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "name")),
			    "job /dev/sdb ");
	check_jdir(r, 0, "read", 7311.735583, 29246, 4370142.546181, 168820736, 1);
	check_jdir(r, 7, "read", 18394.779314, 73579, 1732542.963013, 6914048, 1);
	check_metric(r, "read.iops", 102702.455978);
	check_metric(r, "read.bw_kib", 410806);
	check_no_metric(r, "read.clat_p99_ns");
	json_decref(r);
}

static void test_fioplot_3_6_nogroup(void **state)
{
	json_t *r = parse_ok(DATA "fioplot-3.6-4jobs-nogroup.json");
	const json_t *j;
	double w = 0, wm = 0;
	size_t i;

	(void)state;
	assert_int_equal(njobs(r), 4);
	check_jdir(r, 0, "read", 20.579217, 82, 48563918.021862, 164626432, 1);
	check_jdir(r, 3, "read", 20.02599, 80, 49903601.117304, 152043520, 1);
	check_metric(r, "read.iops", 82.030622);
	check_metric(r, "read.bw_kib", 327);
	/* mean clat weighted by I/O count */
	json_array_foreach(json_object_get(r, "jobs"), i, j) {
		const json_t *d = json_object_get(j, "read");
		double n = json_number_value(json_object_get(d, "total_ios"));

		w += n;
		wm += n * json_number_value(json_object_get(d, "clat_mean_ns"));
	}
	assert_true(w > 0);
	check_metric(r, "read.clat_mean_ns", wm / w);
	check_no_metric(r, "read.clat_p99_ns");
	check_no_metric(r, "read.clat_p50_ns");
	assert_true(has_warning(r, "read: 4 jobs"));
	check_metric(r, "fio.usr_cpu_pct",
		     (0.033327 + 0.019995 + 0.046663 + 0.039986) / 4);
	json_decref(r);
}

static void test_client_server_3_7(void **state)
{
	json_t *r = parse_ok(DATA "pbench-fio-3.7-client-server.txt");
	const json_t *j;
	size_t i;

	(void)state;
	/* 10 per-client entries; "All clients" is left out */
	assert_int_equal(njobs(r), 10);
	json_array_foreach(json_object_get(r, "jobs"), i, j) {
		assert_string_equal(json_string_value(json_object_get(j, "name")),
				    "job-/tmp/fio");
		assert_string_equal(json_string_value(json_object_get(j, "rw")),
				    "read");
	}
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "hostname")),
			    "perf36");
	assert_string_equal(json_string_value(json_object_get(job(r, 9), "hostname")),
			    "perf84");
	check_jdir(r, 0, "read", 7951.016328, 31812, 3994084.886371, 6193152, 1);
	check_jdir(r, 9, "read", 10405.790349, 41631, 3070663.373365, 3489792, 1);
	check_cpu(r, 9, 2.402822, 4.965389);
	check_metric(r, "read.iops", 93303.649418);
	check_metric(r, "read.bw_kib", 373293);
	/* per-host metrics: the hosts' jobs summed, the sum is the total */
	check_metric(r, "host.perf36.read.iops", 39758.738126);
	check_metric(r, "host.perf84.read.iops", 53544.911292);
	check_metric(r, "host.perf84.read.bw_kib", 214219);
	assert_false(has_warning(r, "All clients"));
	assert_true(has_warning(r, "non-JSON preamble line 1: 'hostname=perf84"));
	json_decref(r);
}

/* fio 3.33 --client with two servers, json+: the campaign's metrics the
 * sum of the hosts', per-host percentiles from each host's bins (one job
 * per host: fio's own percentiles of that job) */
static void test_client_server_3_33_jsonplus(void **state)
{
	json_t *r = parse_ok(DATA "kbench-3.33-client2-jsonplus.json");

	(void)state;
	assert_int_equal(njobs(r), 2);
	check_metric(r, "host.10.231.1.2.read.iops", 12653.346653);
	check_metric(r, "host.10.231.2.2.read.iops", 12787.212787);
	check_metric(r, "read.iops", 12653.346653 + 12787.212787);
	check_metric(r, "host.10.231.1.2.read.clat_p99_ns", 301056);
	check_metric(r, "host.10.231.2.2.read.clat_p99_ns", 264192);
	/* merged from both hosts' bins, not averaged (282624) */
	check_metric(r, "read.clat_p99_ns", 276480);
	/* each host's I/Os, and their sum */
	check_metric(r, "host.10.231.1.2.fio.total_ios", 12666);
	check_metric(r, "host.10.231.2.2.fio.total_ios", 12800);
	check_metric(r, "fio.total_ios", 12666 + 12800);
	assert_false(has_warning(r, "All clients"));
	json_decref(r);
}

static void test_arau_3_12_randrw_global_rw(void **state)
{
	json_t *r = parse_ok(DATA "arau-3.12-randrw50-32k.json");

	(void)state;
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "rw")),
			    "randrw");
	check_jdir(r, 0, "read", 225.893944, 7228, 20349678.747112, 624951296, 1);
	check_jdir(r, 0, "write", 224.677039, 7189, 50706022.898989, 666894336, 1);
	check_cpu(r, 0, 0.383979, 1.146782);
	check_metric(r, "write.clat_p99_ns", 666894336);
	json_decref(r);
}

static void test_arau_3_12_two_documents(void **state)
{
	json_t *r = parse_ok(DATA "arau-3.12-two-json-with-shell-prompt.txt");

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(r, "documents")), 2);
	assert_int_equal(njobs(r), 1);		/* the last document only */
	check_jdir(r, 0, "write", 457.18591, 1828, 34979929.88508, 708837376, 1);
	assert_null(json_object_get(job(r, 0), "read"));
	check_metric(r, "write.iops", 457.18591);
	check_no_metric(r, "read.iops");
	assert_true(has_warning(r, "non-JSON text after JSON document 1"));
	assert_true(has_warning(r, "2 JSON documents"));
	json_decref(r);
}

static void test_arau_3_12_glued_prompt(void **state)
{
	json_t *r = parse_ok(DATA "arau-3.12-gt-prompt-glued.txt");

	(void)state;
	check_jdir(r, 0, "read", 462.84917, 1851, 34553287.595176, 759169024, 1);
	check_cpu(r, 0, 0.313929, 0.741609);
	check_no_metric(r, "write.iops");
	assert_true(has_warning(r, "non-JSON preamble line 1: '>'"));
	json_decref(r);
}

static void test_vc_3_13_error_prefix(void **state)
{
	json_t *r = parse_ok(DATA "vc-3.13-error-prefix.json");
	char msg[256];

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(r, "error")), 42);
	assert_int_equal(json_integer_value(json_object_get(job(r, 0), "error")), 42);
	check_jdir(r, 0, "read", 49501.318267, 197509, 5922036.884193, 10420224, 1);
	check_cpu(r, 0, 37.678975, 37.678975);
	assert_int_equal(fio_result_error(r, msg, sizeof(msg)), 42);
	assert_non_null(strstr(msg, "fio job 'fiotest' failed: error=42 ("));
	assert_true(has_warning(r, "non-JSON preamble line 2: 'fio: pid=19192, err=43"));
	json_decref(r);
}

static void test_lkp_3_15_big_values(void **state)
{
	json_t *r = parse_ok(DATA "lkp-3.15-mmap-randread-numjobs24.json");
	const json_t *io;

	(void)state;
	check_jdir(r, 0, "read", 30149334.614981, 120597338, 1286.465566, 2608, 1);
	check_cpu(r, 0, 98.294183, 1.697494);
	/* > 2^32, kept exact */
	io = json_object_get(json_object_get(job(r, 0), "read"), "io_bytes");
	assert_true(json_is_integer(io));
	assert_true(json_integer_value(io) == 24698705391616LL);
	/* lkp-3.15-mmap-randread-numjobs24.lkp-expected.yaml */
	check_close("read_bw_MBps", metric(r, "read.bw_kib") / 1024,
		    117770.837890625);
	check_metric(r, "read.iops", 30149334.614981);
	check_metric(r, "read.clat_mean_ns", 1286.465566);
	check_metric(r, "read.clat_p99_ns", 2608);
	/* lkp: write_iops 0.0 - kbench: absent, never 0 */
	check_no_metric(r, "write.iops");
	check_no_metric(r, "write.clat_mean_ns");
	json_decref(r);
}

static void test_fioplot_3_16_sync(void **state)
{
	json_t *r = parse_ok(DATA "fioplot-3.16-fsync-sync-percentiles.json");

	(void)state;
	check_jdir(r, 0, "write", 321.697752, 1286, 49688714.647841, 204472320, 1);
	check_cpu(r, 0, 0.712123, 1.51742);
	check_metric(r, "write.clat_p99_ns", 204472320);
	/* the writes, not the fsync ("sync": {"total_ios": 1}) */
	check_metric(r, "fio.total_ios", 19335);
	json_decref(r);
}

static void test_pbench_3_19_24h(void **state)
{
	json_t *r = parse_ok(DATA "pbench-3.19-8jobs-24h-rw.json");

	(void)state;
	assert_int_equal(njobs(r), 8);
	check_jdir(r, 0, "read", 96.77941, 387, 325444045.939162, 985661440, 1);
	check_jdir(r, 1, "write", 17.784458, 71, 1770277189.535764, 4043309056.0, 1);
	/* INDEX.md's 8 entries (the 8th from the file: 18.521817, 74) */
	check_metric(r, "read.iops", 96.77941 + 17.782051 + 18.091854 +
		     17.7525 + 17.757455 + 17.651393 + 18.878322 + 18.521817);
	check_metric(r, "read.bw_kib", 387 + 71 + 72 + 71 + 71 + 70 + 75 + 74);
	check_no_metric(r, "read.clat_p99_ns");
	json_decref(r);
}

static void test_vc_3_26_readwrite(void **state)
{
	json_t *r = parse_ok(DATA "vc-3.26-readwrite.json");

	(void)state;
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "rw")),
			    "readwrite");
	check_jdir(r, 0, "read", 569.699415, 145843, 76331646.873584, 104333312, 1);
	check_jdir(r, 0, "write", 256.606819, 65691, 79727338.892296, 151864912, 1);
	check_cpu(r, 0, 0.585149, 2.623083);
	check_metric(r, "read.clat_p99_ns", 104333312);
	check_metric(r, "write.clat_p99_ns", 151864912);
	json_decref(r);
}

static void test_fioplot_3_33_error_warnings(void **state)
{
	json_t *r = parse_ok(DATA "fioplot-3.33-error-warnings.json");
	char msg[256];
	const char *d[] = { "read", "write", "trim" };
	size_t i;

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(r, "error")), 22);
	assert_int_equal(fio_result_error(r, msg, sizeof(msg)), 22);
	assert_string_equal(msg, "fio job '1m' failed: error=22 (Invalid argument)");
	for (i = 0; i < 3; i++) {
		char name[32];

		assert_null(json_object_get(job(r, 0), d[i]));
		snprintf(name, sizeof(name), "%s.iops", d[i]);
		check_no_metric(r, name);
		snprintf(name, sizeof(name), "%s.bw_kib", d[i]);
		check_no_metric(r, name);
	}
	assert_true(has_warning(r, "non-JSON preamble line 1: 'fio: time_based requires a runtime/timeout setting'"));
	assert_true(has_warning(r, "non-JSON preamble line 3: 'fio: pid=0, err=22"));
	json_decref(r);
}

static void test_benson_3_33_rw_sigint(void **state)
{
	json_t *r = parse_ok(DATA "benson-3.33-rw-sigint.json");

	(void)state;
	check_jdir(r, 0, "read", 7662.030309, 30648, 7881155.058386, 35913728, 1);
	check_jdir(r, 0, "write", 39338.066766, 157352, 886230.578053, 6848512, 1);
	check_cpu(r, 0, 1.087927, 9.178172);
	assert_true(has_warning(r, "non-JSON preamble line 2: 'fio: terminating on signal 2'"));
	json_decref(r);
}

static void test_benson_3_33_jsonplus(void **state)
{
	json_t *r = parse_ok(DATA "benson-3.33-jsonplus-sigint.json");

	(void)state;
	check_jdir(r, 0, "write", 3166.251295, 12665, 5028538.63596, 61079552, 1);
	check_cpu(r, 0, 0.394847, 3.626435);
	check_metric(r, "write.clat_p99_ns", 61079552);
	check_metric(r, "write.clat_p50_ns", 264192);
	check_metric(r, "write.clat_p999_ns", 147849216);
	json_decref(r);
}

/* Two copies of the json+ job: the merged percentiles must equal fio's own
 * (same distribution, doubled), computed from the 697 bins. */
static void test_benson_jsonplus_merged_twice(void **state)
{
	char *buf = NULL, *text;
	size_t len = 0;
	json_t *doc, *jobs, *r;
	json_error_t je;

	(void)state;
	assert_int_equal(kb_read_file(DATA "benson-3.33-jsonplus-sigint.json",
				      &buf, &len, 0), 0);
	doc = json_loads(strchr(buf, '{'), 0, &je);
	assert_non_null(doc);
	jobs = json_object_get(doc, "jobs");
	json_array_append_new(jobs, json_deep_copy(json_array_get(jobs, 0)));
	text = json_dumps(doc, 0);
	r = parse_str_ok(text);
	assert_int_equal(njobs(r), 2);
	check_metric(r, "write.iops", 2 * 3166.251295);
	check_metric(r, "write.clat_mean_ns", 5028538.63596);
	check_metric(r, "write.clat_p50_ns", 264192);
	check_metric(r, "write.clat_p99_ns", 61079552);
	check_metric(r, "write.clat_p999_ns", 147849216);
	assert_false(has_warning(r, "json+ bins"));
	json_decref(r);
	free(text);
	json_decref(doc);
	free(buf);
}

static void test_samyaple_3_33_16jobs(void **state)
{
	json_t *r = parse_ok(DATA "samyaple-3.33-16jobs-nogroup.json");

	(void)state;
	assert_int_equal(njobs(r), 16);
	check_jdir(r, 0, "write", 25042.799287, 100171, 35911.835089, 187392, 1);
	check_jdir(r, 15, "write", 25024.932918, 100099, 35911.854318, 189440, 1);
	check_cpu(r, 15, 5.465, 16.27);
	check_metric(r, "write.iops", 401027.466208);
	check_metric(r, "write.bw_kib", 1604102);
	/* the 16 jobs' write total_ios summed */
	check_metric(r, "fio.total_ios", 24062049);
	check_no_metric(r, "write.clat_p99_ns");
	assert_true(has_warning(r, "write: 16 jobs"));
	json_decref(r);
}

static void test_fioplot_3_34_sigint(void **state)
{
	json_t *r = parse_ok(DATA "fioplot-3.34-sigint-prefix.json");

	(void)state;
	check_jdir(r, 0, "read", 10102.601156, 40410, 95948.612502, 175104, 1);
	check_cpu(r, 0, 3.397181, 12.396097);
	json_decref(r);
}

static void test_lkp_3_38(void **state)
{
	json_t *r = parse_ok(DATA "lkp-3.38-libaio-seqread.json");

	(void)state;
	check_jdir(r, 0, "read", 26343.32139, 3372201, 4831323.057972, 5144576, 1);
	check_cpu(r, 0, 0.872244, 13.20741);
	/* lkp-3.38-libaio-seqread.lkp-expected.yaml */
	check_close("read_bw_MBps", metric(r, "read.bw_kib") / 1024,
		    3293.1650390625);
	check_metric(r, "read.iops", 26343.32139);
	check_metric(r, "read.clat_mean_ns", 4831323.057972);
	check_metric(r, "read.clat_p99_ns", 5144576);
	/* lkp calls it read_slat_mean_us, but it is fio's slat_ns mean */
	check_close("slat", jdir(r, 0, "read", "slat_mean_ns"), 26479.533411);
	/* and a campaign metric, as clat's mean (one job: its own) */
	check_metric(r, "read.slat_mean_ns", 26479.533411);
	check_no_metric(r, "write.iops");
	json_decref(r);
}

/* ---- text output: a clear error --------------------------------------- */

static void test_normal_text_rejected(void **state)
{
	(void)state;
	check_parse_fails(DATA "hwt-2.2.10-normal-4groups.txt",
			  "looks like fio's normal (human-readable) text output, which kbench does not read: run fio with --output-format=json");
	check_parse_fails(DATA "vtech-2.1.11-normal-unified-mixed-10groups.txt",
			  "--output-format=json");
}

/* The corpus's other normal-text files (fio 2.1.11 to 3.41: a job file
 * ahead of the output, --description, Ctrl-C, several invocations,
 * group_reporting, B/s units): the same clear error, never a number */
static void test_normal_text_corpus(void **state)
{
	static const char *const files[] = {
		"corsair-3.12-normal-description-2runs.txt",
		"rafm-3.41-normal-randrw-jobfile-prefix.txt",
		"ceph-2.16-rw-6groups-grouprep.txt",
		"nfs-smb-3.36-normal-multi-invocations.txt",
		"ceph-2.2.10-rw-Bps-mixed-units.txt",
		"pve-3.25-normal-8groups-crystaldisk.txt",
		"satish-3.19-normal-sigint-nolat.txt",
		"vtech-2.1.11-normal-no-clat-bogus-lat-12groups.txt",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256];

		snprintf(path, sizeof(path), DATA "%s", files[i]);
		check_parse_fails(path, "looks like fio's normal "
				  "(human-readable) text output");
	}
}

static void test_terse_rejected(void **state)
{
	(void)state;
	/* the JSON parser's word on terse (kbench parse reads v3 with
	 * parsers/fio_terse.h before it gets here) */
	check_parse_fails(DATA "jtulak-2.1.2-terse3-12jobs.terse",
			  "looks like fio terse output, not JSON (kbench parse reads terse version 3");
}

static void test_no_json_errors(void **state)
{
	char err[512];
	const char *trunc = "fio: note\n{\n  \"fio version\" : \"fio-3.36\",\n  \"jobs\" : [ { \"jobname\" : \"x\", ";
	const char *nojobs = "{ \"hello\" : 1 }\n";
	json_t *r;

	(void)state;
	r = fio_parse_buf("empty.json", "", 0, err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "empty.json: "));
	assert_non_null(strstr(err, "no JSON document found (is this fio --output-format=json output?)"));

	r = fio_parse_buf("trunc.json", trunc, strlen(trunc), err, sizeof(err));
	assert_null(r);
	/* FILE:LINE where the text stops, the document's start beside */
	assert_non_null(strstr(err, "trunc.json:4: invalid JSON"));
	assert_non_null(strstr(err, "the document starts at line 2)"));

	r = fio_parse_buf("x.json", nojobs, strlen(nojobs), err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "x.json:1: JSON document has no \"jobs\""));

	check_parse_fails(DATA "does-not-exist.json", "cannot read");

	/* an array is named as one, not "no JSON document" */
	r = fio_parse_buf("arr.json", "[1, 2, 3]\n", 10, err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "arr.json: a JSON array, not a fio report"));
	/* ... also one nested too deep to read (a break-it trial: "no
	 * JSON document found") */
	{
		size_t n = 100000, i;
		char *deep = malloc(2 * n + 1);

		assert_non_null(deep);
		for (i = 0; i < n; i++) {
			deep[i] = '[';
			deep[n + i] = ']';
		}
		deep[2 * n] = '\0';
		r = fio_parse_buf("deep.json", deep, 2 * n, err, sizeof(err));
		free(deep);
		assert_null(r);
		assert_non_null(strstr(err, "deep.json: a JSON array (maximum parsing depth reached"));
	}
}

/* ---- shared/cases ----------------------------------------------------- */

static void test_B01_preamble_notice(void **state)
{
	json_t *r = parse_ok(DATA "B01.json");
	const json_t *w = json_object_get(r, "warnings");

	(void)state;
	assert_string_equal(json_string_value(json_array_get(w, 0)),
			    "non-JSON preamble line 1: 'fio: sprandom sets norandommap=1'");
	assert_int_equal(njobs(r), 1);
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "name")),
			    "precond");
	assert_int_equal(json_integer_value(json_object_get(r, "error")), 0);
	check_metric(r, "write.iops", 65534.907752);
	/* write.bw_bytes 268430982 -> fio's bw 262139 KiB/s */
	check_metric(r, "write.bw_kib", 262139);
	check_close("bw_bytes / 1024", metric(r, "write.bw_kib"),
		    floor(268430982.0 / 1024));
	check_metric(r, "write.clat_p99_ns", 561152);
	/* read: total_ios = 0 -> nothing, not 0 */
	assert_null(json_object_get(job(r, 0), "read"));
	check_no_metric(r, "read.iops");
	check_no_metric(r, "read.bw_kib");
	json_decref(r);
}

static void test_B02_io_error(void **state)
{
	json_t *r = parse_ok(DATA "B02.json");
	char msg[256];

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(job(r, 0), "error")), 5);
	assert_int_equal(json_integer_value(json_object_get(r, "error")), 5);
	check_close("elapsed_s",
		    json_number_value(json_object_get(job(r, 0), "elapsed_s")), 3);
	assert_int_not_equal(fio_result_error(r, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "error=5"));
	assert_string_equal(msg, "fio job 'test' failed: error=5 (Input/output error)");
	assert_int_equal(json_array_size(json_object_get(r, "warnings")), 2);
	json_decref(r);
}

static void test_B04_status_interval(void **state)
{
	json_t *r = parse_ok(DATA "B04.json");

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(r, "documents")), 3);
	assert_int_equal(njobs(r), 1);
	check_metric(r, "write.iops", 150);
	check_metric(r, "write.bw_kib", 153600);
	check_close("bw_bytes", metric(r, "write.bw_kib") * 1024, 157286400);
	check_close("runtime", jdir(r, 0, "write", "runtime_ms"), 3000);
	check_close("io_bytes", jdir(r, 0, "write", "io_bytes"), 471859200);
	json_decref(r);
}

/* --status-interval stream cut short: the last complete report is used,
 * with a warning about the truncated one. */
static void test_B04_truncated_last(void **state)
{
	char *buf = NULL, *cut;
	char err[512];
	size_t len = 0;
	json_t *r;

	(void)state;
	assert_int_equal(kb_read_file(DATA "B04.json", &buf, &len, 0), 0);
	cut = strstr(strstr(strstr(buf, "\"eta\" : 0") - 200, "{"), "\"write\"");
	assert_non_null(cut);
	r = fio_parse_buf("b04-cut.json", buf, (size_t)(cut - buf) + 20, err,
			  sizeof(err));
	assert_non_null(r);
	assert_int_equal(json_integer_value(json_object_get(r, "documents")), 2);
	check_metric(r, "write.iops", 150);
	check_close("runtime", jdir(r, 0, "write", "runtime_ms"), 2000);
	assert_true(has_warning(r, "invalid JSON after document 2"));
	/* the numbers are an interim report's: a reason to doubt the run */
	assert_true(json_array_size(json_object_get(r, "flags")) == 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
		r, "flags"), 0)), "truncated output: the numbers are document "
		"2's, the last complete one");
	json_decref(r);
	free(buf);
}

static void test_B05_no_io_direction(void **state)
{
	json_t *r = parse_ok(DATA "B05.json");
	const json_t *m = json_object_get(r, "metrics");

	(void)state;
	check_metric(r, "read.iops", 26214.312619);
	check_metric(r, "read.clat_p99_ns", 528384);
	assert_null(json_object_get(m, "write.iops"));
	assert_null(json_object_get(m, "write.bw_kib"));
	assert_null(json_object_get(m, "write.clat_p99_ns"));
	assert_null(json_object_get(m, "write.clat_mean_ns"));
	assert_null(json_object_get(m, "trim.iops"));
	assert_null(json_object_get(job(r, 0), "write"));
	assert_null(json_object_get(job(r, 0), "trim"));
	assert_int_equal(json_array_size(json_object_get(r, "warnings")), 0);
	/* no disk_util: utilisation null with its note, not 0%, no error */
	check_no_metric(r, "disk.util_pct");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		r, "unavailable"), "disk.util_pct")),
		"disk_util not reported by fio");
	json_decref(r);
}

/* fio's disk_util: the device's util; an md device's aggr_util (its own
 * util is 0); with fio --client the mean of each host's first device. */
static void test_disk_util(void **state)
{
	static const struct { const char *file; double want; } cases[] = {
		{ DATA "lkp-3.38-libaio-seqread.json", 99.869402 },
		{ DATA "fioplot-3.1-randrw-grouprep.json", 99.877105 },
		{ DATA "kbench-3.33-client2-jsonplus.json",
		  (74.297189 + 73.921971) / 2 },
	};
	size_t i;
	json_t *r;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = parse_ok(cases[i].file);
		check_metric(r, "disk.util_pct", cases[i].want);
		assert_null(json_object_get(json_object_get(r, "unavailable"),
					    "disk.util_pct"));
		json_decref(r);
	}
	/* hostile disk_util: each case's metric (-1: unavailable) and the
	 * words its warning or note must hold */
	{
		static const struct { const char *du; double want;
				      const char *says; } bad[] = {
			{ "{\"name\": \"sda\", \"util\": 50}", -1,
			  "disk_util is not an array" },
			{ "[]", -1, "disk_util is empty" },
			{ "[{\"name\": \"sda\", \"util\": \"99.5\"}]", -1,
			  "disk_util[0].util is not a number" },
			{ "[{\"util\": 99.87, \"aggr_util\": -5}]", -1,
			  "disk_util[0].aggr_util = -5 is not a percentage" },
			{ "[{\"util\": 100.0002}]", -1,
			  "disk_util[0].util = 100.0002 is not" },
			/* a bad md device: its member does not stand in */
			{ "[{\"name\": \"md0\", \"util\": \"x\"}, "
			  "{\"name\": \"sda\", \"util\": 77}]", -1,
			  "disk_util[0].util is not a number" },
			{ "[{\"util\": 10, \"hostname\": 1}, "
			  "{\"util\": 90, \"hostname\": \"b\"}]", 90,
			  "disk_util[0].hostname is not a string" },
			{ "[{\"util\": 10, \"hostname\": \"a\"}, "
			  "{\"util\": \"x\", \"hostname\": \"b\"}]", 10,
			  "mean over 1 of 2 hosts" },
			{ "[1, {\"name\": \"sda\", \"util\": 50}]", -1,
			  "disk_util[0] is not an object" },
		};
		char *doc, *all;
		size_t b, h, n;

		for (b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			doc = kb_xasprintf("{\"fio version\": \"fio-3.33\", "
				"\"jobs\": [{\"jobname\": \"j\", \"groupid\": "
				"0, \"error\": 0, \"read\": {\"io_bytes\": 4096, "
				"\"bw\": 4, \"iops\": 1, \"runtime\": 1000, "
				"\"total_ios\": 1}}], \"disk_util\": %s}",
				bad[b].du);
			r = parse_str_ok(doc);
			if (bad[b].want < 0)
				check_no_metric(r, "disk.util_pct");
			else
				check_metric(r, "disk.util_pct", bad[b].want);
			/* each is a warning, not only a reason */
			all = json_dumps(json_object_get(r, "warnings"),
					 JSON_COMPACT);
			if (!strstr(all, bad[b].says))
				fail_msg("disk_util %s: no warning \"%s\" in %s",
					 bad[b].du, bad[b].says, all);
			free(all);
			json_decref(r);
			free(doc);
		}
		/* 70 hosts: every one counts (10 each for 64, 90 for 6) */
		all = kb_xstrdup("");
		for (h = 0; h < 70; h++) {
			doc = kb_xasprintf("%s%s{\"util\": %d, \"hostname\": "
					   "\"h%zu\"}", all, h ? ", " : "",
					   h < 64 ? 10 : 90, h);
			free(all);
			all = doc;
		}
		doc = kb_xasprintf("{\"fio version\": \"fio-3.33\", \"jobs\": "
			"[{\"jobname\": \"j\", \"groupid\": 0, \"error\": 0, "
			"\"read\": {\"io_bytes\": 4096, \"bw\": 4, \"iops\": "
			"1, \"runtime\": 1000, \"total_ios\": 1}}], "
			"\"disk_util\": [%s]}", all);
		r = parse_str_ok(doc);
		n = 70;
		check_metric(r, "disk.util_pct", (64 * 10.0 + 6 * 90.0) / n);
		json_decref(r);
		free(doc);
		free(all);
	}
	/* a util that is no percentage is not read, and said */
	r = parse_str_ok("{\"fio version\": \"fio-3.33\", \"jobs\": [{"
		"\"jobname\": \"j\", \"groupid\": 0, \"error\": 0, "
		"\"read\": {\"io_bytes\": 4096, \"bw\": 4, \"iops\": 1, "
		"\"runtime\": 1000, \"total_ios\": 1}}], \"disk_util\": "
		"[{\"name\": \"sda\", \"util\": -3}]}");
	check_no_metric(r, "disk.util_pct");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		r, "unavailable"), "disk.util_pct")),
		"disk_util has no usable util");
	assert_non_null(strstr(json_string_value(json_array_get(
		json_object_get(r, "warnings"), 0)), "disk_util[0].util = -3 "
		"is not a percentage"));
	json_decref(r);
}

static void test_B08_io_bytes_kib(void **state)
{
	json_t *r = parse_ok(DATA "B08.json");
	double io, bw, rt;

	(void)state;
	io = jdir(r, 0, "read", "io_bytes");
	bw = jdir(r, 0, "read", "bw_kib");
	rt = jdir(r, 0, "read", "runtime_ms");
	check_close("io_bytes", io, 5368709120.0);
	check_close("bw_bytes", bw * 1024, 262144000.0);
	assert_true(fabs(io * 1000 / rt - bw * 1024) <= 1023);
	check_metric(r, "read.iops", 2000);
	check_metric(r, "read.clat_mean_ns", 497600);
	check_metric(r, "read.clat_p99_ns", 748000);
	assert_true(has_warning(r, "io_bytes read as KiB"));
	json_decref(r);
}

static void test_B09_usec_and_index_bins(void **state)
{
	json_t *r = parse_ok(DATA "B09.json");

	(void)state;
	check_metric(r, "read.clat_mean_ns", 106428.028);
	check_metric(r, "read.clat_p50_ns", 106000);
	check_metric(r, "read.clat_p99_ns", 133000);
	check_metric(r, "read.clat_p999_ns", 133000);
	json_decref(r);
}

/* B09's index-keyed bins merged over two jobs: index 130 -> 133 usec and
 * 200 -> 290 usec (FIO_IO_U_PLAT_BITS=6, VAL=64), never a 0 ns bucket. */
static void test_B09_bins_merged(void **state)
{
	char *buf = NULL, *text;
	json_t *doc, *jobs, *r;
	json_error_t je;

	(void)state;
	assert_int_equal(kb_read_file(DATA "B09.json", &buf, NULL, 0), 0);
	doc = json_loads(buf, 0, &je);
	assert_non_null(doc);
	jobs = json_object_get(doc, "jobs");
	json_array_append_new(jobs, json_deep_copy(json_array_get(jobs, 0)));
	text = json_dumps(doc, 0);
	r = parse_str_ok(text);
	check_metric(r, "read.clat_p50_ns", 106000);
	check_metric(r, "read.clat_p99_ns", 133000);
	check_metric(r, "read.clat_p999_ns", 133000);
	check_metric(r, "read.iops", 2 * 9424.380704);
	assert_false(has_warning(r, "not latency values"));
	json_decref(r);
	free(text);
	json_decref(doc);
	free(buf);

	r = parse_str_ok(
		"{ \"fio version\" : \"fio-2.19\", \"jobs\" : ["
		"{ \"jobname\" : \"a\", \"read\" : { \"io_bytes\" : 40, \"bw\" : 1, \"iops\" : 1, \"runtime\" : 10, \"total_ios\" : 10,"
		"  \"clat\" : { \"min\" : 280, \"max\" : 300, \"mean\" : 290, \"stddev\" : 1,"
		"    \"bins\" : { \"200\" : 10, \"FIO_IO_U_PLAT_BITS\" : 6, \"FIO_IO_U_PLAT_VAL\" : 64, \"FIO_IO_U_PLAT_NR\" : 1216 } } } },"
		"{ \"jobname\" : \"b\", \"read\" : { \"io_bytes\" : 40, \"bw\" : 1, \"iops\" : 1, \"runtime\" : 10, \"total_ios\" : 10,"
		"  \"clat\" : { \"min\" : 280, \"max\" : 300, \"mean\" : 290, \"stddev\" : 1,"
		"    \"bins\" : { \"130\" : 10, \"FIO_IO_U_PLAT_BITS\" : 6, \"FIO_IO_U_PLAT_VAL\" : 64, \"FIO_IO_U_PLAT_NR\" : 1216 } } } } ] }");
	check_metric(r, "read.clat_p50_ns", 133000);
	check_metric(r, "read.clat_p99_ns", 290000);
	json_decref(r);
}

/* ---- kbench parse, the built binary ($KBENCH, else build/kbench) ------ */

/* `kbench parse ARGS` must exit 0; its JSON object (new reference), its
 * stderr in *errout. */
static json_t *cmd_parse_ok(char **args, char **errout)
{
	char *out = NULL;
	json_error_t je;
	json_t *r;
	int rc = run_kbench(args, &out, errout);

	if (rc != 0)
		fail_msg("kbench parse exited %d:\n%s", rc, *errout);
	r = json_loads(out, 0, &je);
	if (!r)
		fail_msg("kbench parse printed no JSON (%s):\n%s", je.text, out);
	free(out);
	return r;
}

/* ---- ../shared/cases B36, B38, B30 and their kinds ------------------- */

/* B36: fio wrote a raw TAB into a job description: read leniently, with
 * the warning the .expected file gives, never "truncated". */
static void test_B36_unescaped_tab(void **state)
{
	static const char *want = "fio wrote an unescaped control character (TAB) in a string at line 14 (job option 'description'); read leniently";
	char *args[] = { "parse", DATA "B36.json", NULL }, *err = NULL;
	json_t *r = cmd_parse_ok(args, &err);
	char line[512];

	(void)state;
	check_metric(r, "read.iops", 104855.823069);
	check_metric(r, "read.bw_kib", 419423);
	check_metric(r, "read.clat_p99_ns", 354304);
	assert_int_equal(json_array_size(json_object_get(r, "warnings")), 1);
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(r, "warnings"), 0)), want);
	snprintf(line, sizeof(line), "kbench: warning: %sB36.json: %s\n", DATA,
		 want);
	if (!strstr(err, line))
		fail_msg("stderr lacks '%s':\n%s", line, err);
	assert_null(strstr(err, "truncated"));
	/* the description, as fio meant it */
	json_decref(r);
	free(err);

	r = parse_ok(DATA "B36.json");
	assert_true(has_warning(r, want));
	assert_int_equal(njobs(r), 1);
	json_decref(r);
}

#define DOC_HEAD "{\n  \"fio version\" : \"fio-3.33\",\n"
#define JOB_READ(name, extra) \
	"    { \"jobname\" : \"" name "\", \"groupid\" : 0, \"error\" : 0,\n" extra \
	"      \"read\" : { \"io_bytes\" : 4096000, \"bw\" : 4000, \"iops\" : 1000.5, \"runtime\" : 1000, \"total_ios\" : 1000,\n" \
	"        \"clat_ns\" : { \"min\" : 1000, \"max\" : 90000, \"mean\" : 5000.5, \"N\" : 1000, \"percentile\" : { \"50.000000\" : 4000, \"99.000000\" : 20000, \"99.900000\" : 80000 } } } }"

/* The same kind: other control characters (a newline, SOH), bytes that
 * are not UTF-8 (a Latin-1 file name, a cut sequence), in keys and
 * values; the last of several --status-interval documents; and a
 * document broken otherwise (lenient reading changes nothing there). */
static void test_B36_kind_control_and_latin1(void **state)
{
	const char *doc =
		"fio: a note\n"
		DOC_HEAD
		"  \"global options\" : { \"filename\" : \"/mnt/caf\xe9/f\", \"bs\" : \"4k\" },\n"
		"  \"jobs\" : [\n"
		JOB_READ("a\x01" "b", "      \"job options\" : { \"description\" : \"line one\nline two\", \"x\xe2\x82\" : \"1\" },\n")
		"\n  ]\n}\n";
	char err[512];
	json_t *r;

	(void)state;
	r = parse_str_ok(doc);
	check_metric(r, "read.iops", 1000.5);
	check_metric(r, "read.clat_p99_ns", 20000);
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "name")),
			    "a\x01" "b");
	assert_true(has_warning(r, "fio wrote a byte that is not UTF-8 (0xE9) in a string at line 4 (global option 'filename'); replaced by U+FFFD, read leniently"));
	assert_true(has_warning(r, "fio wrote an unescaped control character (SOH) in a string at line 6 (key 'jobname'); read leniently"));
	assert_true(has_warning(r, "fio wrote an unescaped control character (LF) in a string at line 7 (job option 'description'); read leniently"));
	/* 0xE2 0x82 is a cut 3-byte sequence: both bytes replaced */
	assert_true(has_warning(r, "fio wrote bytes that are not UTF-8 (0xE2, 0x82) in a string at line 8 (a key in 'job options')"));
	/* the line numbers after the newline inside the string still count */
	assert_true(has_warning(r, "non-JSON preamble line 1: 'fio: a note'"));
	json_decref(r);

	/* --status-interval: the final report is the one with the TAB */
	r = parse_str_ok(DOC_HEAD "  \"jobs\" : [\n" JOB_READ("first", "") "\n  ]\n}\n"
			 DOC_HEAD "  \"jobs\" : [\n" JOB_READ("fi\tnal", "") "\n  ]\n}\n");
	assert_int_equal(json_integer_value(json_object_get(r, "documents")), 2);
	assert_string_equal(json_string_value(json_object_get(job(r, 0), "name")),
			    "fi\tnal");
	assert_true(has_warning(r, "(TAB) in a string at line 12 (key 'jobname')"));
	assert_false(has_warning(r, "invalid JSON after document"));
	json_decref(r);

	/* broken otherwise: a missing comma; the message names it and does
	 * not guess truncation */
	r = fio_parse_buf("comma.json", DOC_HEAD "  \"jobs\" : [ { \"jobname\" : \"x\" \"read\" : {} } ]\n}\n",
			  strlen(DOC_HEAD "  \"jobs\" : [ { \"jobname\" : \"x\" \"read\" : {} } ]\n}\n"),
			  err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "comma.json:3: invalid JSON document: "));
	assert_non_null(strstr(err, "the document starts at line 1)"));
	assert_null(strstr(err, "(line "));	/* one line number each */
	assert_null(strstr(err, "truncated"));
	/* a TAB in a document that is also cut short: the cause is named,
	 * and nothing is read */
	r = fio_parse_buf("cut.json", DOC_HEAD "  \"jobs\" : [ { \"jobname\" : \"a\tb\", ",
			  strlen(DOC_HEAD "  \"jobs\" : [ { \"jobname\" : \"a\tb\", "),
			  err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "control character"));
}

/* B38: lat_percentiles=1, clat_percentiles=0: the map is under lat_ns. */
/* Braces nested past jansson's depth limit, a '{' every 5 bytes: read
 * once, not once per brace to the limit (a break-it trial: 49 s for 300
 * KB), with jansson's depth message.  A fio document inside a wrapper
 * that fails is still found, and what follows it and fails is named. */
static void test_deep_nesting(void **state)
{
	const size_t n = 30000;
	const char *doc = DOC_HEAD "  \"jobs\" : [\n" JOB_READ("x", "")
			  "\n  ]\n}";
	char err[512], *deep = malloc(6 * n + 2), *w;
	size_t i;
	json_t *r;

	(void)state;
	assert_non_null(deep);
	for (i = 0; i < n; i++)
		memcpy(deep + 5 * i, "{\"a\":", 5);
	deep[5 * n] = '1';
	memset(deep + 5 * n + 1, '}', n);
	deep[6 * n + 1] = '\0';
	r = fio_parse_buf("deep.json", deep, 6 * n + 1, err, sizeof(err));
	free(deep);
	assert_null(r);
	assert_non_null(strstr(err, "deep.json:1: invalid JSON document: maximum parsing depth reached"));
	assert_non_null(strstr(err, "the document starts at line 1)"));

	w = kb_xasprintf("{\"x\": [%s, {\"y\": {\"z\": nope\n", doc);
	r = fio_parse_buf("wrap.json", w, strlen(w), err, sizeof(err));
	free(w);
	assert_non_null(r);
	check_metric(r, "read.iops", 1000.5);
	assert_true(has_warning(r, "invalid JSON after document 1"));
	json_decref(r);
}

/* Hostile input: a '{' in every string and after it, each a candidate
 * document failing within a few bytes.  The reading goes through each
 * byte a few times, and the lenient reading (a scan of up to 64 levels
 * per candidate, 14 s for 3.2 MB) only where the strict parse stopped on
 * what it fixes: none here, one for a TAB in a string. */
static void test_hostile_braces(void **state)
{
	const size_t n = 20000;
	static const char *const unit[] = { "{\"a\":\"{\"", "{\"a\":" };
	const char *tab = DOC_HEAD "  \"jobs\" : [\n" JOB_READ("x\ty", "")
			  "\n  ]\n}";
	char err[512], *buf;
	size_t u, i, ul, len;
	json_t *r;

	(void)state;
	for (u = 0; u < 2; u++) {
		struct fio_parse_work work = { 0 };
		struct fio_parse_opts o = { .work = &work };

		ul = strlen(unit[u]);
		len = n * ul;
		buf = malloc(len);
		assert_non_null(buf);
		for (i = 0; i < n; i++)
			memcpy(buf + i * ul, unit[u], ul);
		r = fio_parse_buf_opts("hostile.json", buf, len, &o, err,
				       sizeof(err));
		free(buf);
		assert_null(r);
		assert_non_null(strstr(err, u ? "maximum parsing depth reached" :
				       "'}' expected near '{'"));
		assert_true(work.strict_reads > 0);
		if (work.bytes > 4 * len)
			fail_msg("unit %zu: %llu bytes read for %zu", u,
				 work.bytes, len);
		assert_int_equal(work.lenient_reads, 0);
	}

	{
		struct fio_parse_work work = { 0 };
		struct fio_parse_opts o = { .work = &work };

		r = fio_parse_buf_opts("tab.json", tab, strlen(tab), &o, err,
				       sizeof(err));
		assert_non_null(r);
		assert_true(has_warning(r, "(TAB) in a string at line 4 (key 'jobname'); read leniently"));
		assert_int_equal(work.lenient_reads, 1);
		json_decref(r);
	}
}

static void test_B38_lat_percentiles(void **state)
{
	char *args[] = { "parse", DATA "B38.json", NULL }, *err = NULL;
	json_t *r = cmd_parse_ok(args, &err);

	(void)state;
	check_metric(r, "read.iops", 2512.811375);
	check_metric(r, "read.clat_mean_ns", 383456.1);
	check_metric(r, "read.lat_mean_ns", 397667.4);
	check_no_metric(r, "read.clat_p50_ns");
	check_no_metric(r, "read.clat_p99_ns");
	check_no_metric(r, "read.clat_p999_ns");
	check_metric(r, "read.lat_p50_ns", 387072);
	check_metric(r, "read.lat_p99_ns", 602112);
	check_metric(r, "read.lat_p999_ns", 1302528);
	assert_true(has_warning(r, "percentiles are for total latency (lat_percentiles=1), not completion latency"));
	assert_non_null(strstr(err, "kbench: warning: " DATA "B38.json: read: percentiles are for total latency"));
	assert_non_null(kb_metric_find("write.lat_p999_ns"));
	assert_int_equal(kb_metric_find("read.lat_p99_ns")->direction,
			 KB_LOWER_BETTER);
	assert_string_equal(kb_metric_find("trim.lat_p50_ns")->unit, "ns");
	json_decref(r);
	free(err);
}

/* The same kind: several jobs with lat bins (json+) merge like clat
 * bins; a file with both kinds keeps both, without the warning. */
static void test_B38_kind_merged_and_both(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		"{ \"jobname\" : \"a\", \"read\" : { \"iops\" : 1, \"bw\" : 4, \"total_ios\" : 100, \"runtime\" : 100,"
		"  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 100 },"
		"  \"lat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 6, \"N\" : 100, \"percentile\" : { \"50.000000\" : 1000, \"99.000000\" : 2000 }, \"bins\" : { \"1000\" : 50, \"2000\" : 50 } } } },"
		"{ \"jobname\" : \"b\", \"read\" : { \"iops\" : 3, \"bw\" : 12, \"total_ios\" : 300, \"runtime\" : 100,"
		"  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 300 },"
		"  \"lat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 6, \"N\" : 300, \"percentile\" : { \"50.000000\" : 3000, \"99.000000\" : 100000 }, \"bins\" : { \"3000\" : 294, \"100000\" : 6 } } } } ] }");
	check_metric(r, "read.lat_p50_ns", 3000);
	check_metric(r, "read.lat_p99_ns", 100000);
	check_no_metric(r, "read.clat_p99_ns");
	assert_true(has_warning(r, "percentiles are for total latency"));
	json_decref(r);

	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		"{ \"jobname\" : \"a\", \"write\" : { \"iops\" : 1, \"bw\" : 4, \"total_ios\" : 100, \"runtime\" : 100,"
		"  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 100, \"percentile\" : { \"99.000000\" : 900 } },"
		"  \"lat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 6, \"N\" : 100, \"percentile\" : { \"99.000000\" : 1000 } } } } ] }");
	check_metric(r, "write.clat_p99_ns", 900);
	check_metric(r, "write.lat_p99_ns", 1000);
	assert_false(has_warning(r, "percentiles are for total latency"));
	json_decref(r);
}

static int has_flag(const json_t *r, const char *f)
{
	const json_t *x;
	size_t i;

	json_array_foreach(json_object_get(r, "flags"), i, x)
		if (!strcmp(json_string_value(x), f))
			return 1;
	return 0;
}

/* B30: buffered reads of a file smaller than RAM: flagged suspect with
 * the reasons of B30.expected that the data allows (the device's speed
 * is not in the file). */
static void test_B30_page_cache(void **state)
{
	char *args[] = { "parse", "--ram", "64G", DATA "B30.json", NULL };
	char *err = NULL;
	json_t *r = cmd_parse_ok(args, &err), *want;

	(void)state;
	check_metric(r, "read.iops", 189410.404624);
	check_close("bw_bytes", metric(r, "read.bw_kib") * 1024,
		    775825017 - 775825017 % 1024);
	want = json_pack("[s, s, s, s]", "direct=1 not set (buffered I/O)",
			 "working set 1 GiB < RAM 64 GiB",
			 "fio could not invalidate the page cache (line 1)",
			 "clat_ns.min = 0");
	if (!json_equal(json_object_get(r, "flags"), want))
		fail_msg("flags: %s", json_dumps(json_object_get(r, "flags"), 0));
	assert_string_equal(json_string_value(json_object_get(r, "suspect")),
			    "page_cache");
	assert_string_equal(json_string_value(json_object_get(r, "message")),
			    "results likely measure the page cache, not the device: use direct=1 (or size >> RAM) and make sure cache invalidation succeeds");
	assert_non_null(strstr(err, "kbench: warning: " DATA "B30.json: results likely measure the page cache"));
	json_decref(want);
	json_decref(r);
	free(err);

	/* without --ram: the RAM comparison is left out, the rest stays */
	r = parse_ok(DATA "B30.json");
	assert_int_equal(json_array_size(json_object_get(r, "flags")), 3);
	assert_false(has_flag(r, "working set 1 GiB < RAM 64 GiB"));
	assert_string_equal(json_string_value(json_object_get(r, "suspect")),
			    "page_cache");
	json_decref(r);
}

static json_t *parse_opts_ok(const char *text, unsigned long long ram,
			     const char *side)
{
	struct fio_parse_opts o = { .ram_bytes = ram, .side_text = side,
				    .side_name = "fio.stderr" };
	char err[512] = "";
	json_t *r = fio_parse_buf_opts("pc.json", text, strlen(text), &o, err,
				       sizeof(err));

	if (!r)
		fail_msg("parse failed: %s", err);
	return r;
}

#define PC_DOC(gopts, rdir) \
	"{ \"fio version\" : \"fio-3.36\", \"global options\" : { " gopts " }, \"jobs\" : [ { \"jobname\" : \"j\", " \
	"\"" rdir "\" : { \"iops\" : 50000, \"bw\" : 200000, \"total_ios\" : 100000, \"runtime\" : 2000, " \
	"\"clat_ns\" : { \"min\" : 900, \"max\" : 9000, \"mean\" : 5000, \"N\" : 100000 } } } ] }"

/* The same kind: the invalidation failure in fio's stderr, the working set
 * of numjobs files, and what is not flagged (direct=1, buffered=0, writes,
 * a cache-less engine, a working set larger than RAM with no other sign). */
static void test_B30_kind_page_cache(void **state)
{
	json_t *r;

	(void)state;
	r = parse_opts_ok(PC_DOC("\"rw\" : \"read\", \"ioengine\" : \"psync\", \"size\" : \"100g\"", "read"),
			  64ULL << 30, "fio: note\nfio: cache invalidation of /f failed: Operation not permitted\n");
	assert_true(has_flag(r, "direct=1 not set (buffered I/O)"));
	assert_true(has_flag(r, "fio could not invalidate the page cache (fio.stderr line 2)"));
	assert_false(has_flag(r, "working set 100 GiB < RAM 64 GiB"));
	assert_string_equal(json_string_value(json_object_get(r, "suspect")),
			    "page_cache");
	json_decref(r);

	r = parse_opts_ok(PC_DOC("\"rw\" : \"randread\", \"size\" : \"512m\", \"numjobs\" : \"4\"", "read"),
			  4ULL << 30, NULL);
	assert_true(has_flag(r, "working set 2 GiB < RAM 4 GiB"));
	assert_non_null(json_object_get(r, "suspect"));
	json_decref(r);

	/* no sign of the cache: buffered alone is not flagged */
	r = parse_opts_ok(PC_DOC("\"rw\" : \"read\", \"size\" : \"100g\"", "read"),
			  64ULL << 30, NULL);
	assert_int_equal(json_array_size(json_object_get(r, "flags")), 0);
	assert_null(json_object_get(r, "suspect"));
	json_decref(r);

	r = parse_opts_ok(PC_DOC("\"rw\" : \"read\", \"direct\" : \"1\", \"size\" : \"1g\"", "read"),
			  64ULL << 30, "fio: cache invalidation of /f failed: x\n");
	assert_null(json_object_get(r, "suspect"));
	json_decref(r);
	r = parse_opts_ok(PC_DOC("\"rw\" : \"read\", \"buffered\" : \"0\", \"size\" : \"1g\"", "read"),
			  64ULL << 30, NULL);
	assert_null(json_object_get(r, "suspect"));
	json_decref(r);
	r = parse_opts_ok(PC_DOC("\"rw\" : \"write\", \"size\" : \"1g\"", "write"),
			  64ULL << 30, NULL);
	assert_null(json_object_get(r, "suspect"));
	json_decref(r);
	r = parse_opts_ok(PC_DOC("\"rw\" : \"read\", \"ioengine\" : \"null\", \"size\" : \"1g\"", "read"),
			  64ULL << 30, NULL);
	assert_null(json_object_get(r, "suspect"));
	json_decref(r);
}

/* fio's latency buckets must sum to about 100%; a share outside 0..100
 * is flagged too. */
static void test_latency_buckets_sum(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"jobs\" : [ { \"jobname\" : \"lb\", \"read\" : { \"iops\" : 1, \"bw\" : 4, \"total_ios\" : 10 },"
			 " \"latency_ns\" : { \"2\" : 0.0, \"1000\" : 0.0 }, \"latency_us\" : { \"2\" : 40.0, \"4\" : 10.0 },"
			 " \"latency_ms\" : { \"2\" : 7.3, \">=2000\" : 0.0 } } ] }");
	check_metric(r, "read.iops", 1);
	assert_true(has_warning(r, "job 'lb': latency bucket shares (latency_ns/latency_us/latency_ms) sum to 57.30%, not about 100%"));
	assert_true(has_flag(r, "latency bucket shares sum to 57.30% (job 'lb')"));
	json_decref(r);

	r = parse_str_ok("{ \"jobs\" : [ { \"jobname\" : \"lb\", \"read\" : { \"iops\" : 1, \"bw\" : 4, \"total_ios\" : 10 },"
			 " \"latency_us\" : { \"2\" : 140.0, \"4\" : -40.0 } } ] }");
	assert_true(has_flag(r, "latency bucket latency_us[\"2\"] = 140% (job 'lb')"));
	json_decref(r);

	/* a job that did I/O with gtod_reduce=1 (seed 002's job, profiles/
	 * write-4k-io_uring-32x32.fio) measures no latency: every bucket is
	 * 0, and that is no inconsistency */
	r = parse_str_ok("{ \"jobs\" : [ { \"jobname\" : \"gr\", \"write\" : { \"iops\" : 5, \"bw\" : 20, \"total_ios\" : 50,"
			 " \"clat_ns\" : { \"min\" : 0, \"max\" : 0, \"mean\" : 0.0, \"N\" : 0 } },"
			 " \"latency_ns\" : { \"2\" : 0.0, \"1000\" : 0.0 }, \"latency_us\" : { \"2\" : 0.0 },"
			 " \"latency_ms\" : { \"2\" : 0.0, \">=2000\" : 0.0 } } ] }");
	assert_int_equal(json_array_size(json_object_get(r, "flags")), 0);
	assert_false(has_warning(r, "latency bucket"));
	json_decref(r);

	/* a job without I/O has all-zero buckets: nothing to say */
	r = parse_ok(DATA "fioplot-3.33-error-warnings.json");
	assert_false(has_warning(r, "latency bucket"));
	json_decref(r);
}

static void test_steadystate_not_attained(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"jobs\" : [ { \"jobname\" : \"ss\", \"read\" : { \"iops\" : 1, \"bw\" : 4, \"total_ios\" : 10 },"
			 " \"steadystate\" : { \"ss\" : \"iops_slope\", \"duration\" : 1800, \"attained\" : 0, \"criterion\" : \"0.300000%\", \"max_deviation\" : 12.0, \"slope\" : 3.1 } } ] }");
	assert_true(has_flag(r, "steady state not attained: job 'ss' (iops_slope, criterion 0.300000%, 1800 s)"));
	assert_true(has_warning(r, "job 'ss': steady state not attained"));
	json_decref(r);
	r = parse_str_ok("{ \"jobs\" : [ { \"jobname\" : \"ss\", \"read\" : { \"iops\" : 1, \"bw\" : 4, \"total_ios\" : 10 },"
			 " \"steadystate\" : { \"ss\" : \"iops_slope\", \"duration\" : 1800, \"attained\" : 1, \"criterion\" : \"0.300000%\" } } ] }");
	assert_int_equal(json_array_size(json_object_get(r, "flags")), 0);
	json_decref(r);
}

/* Negative or wrapped values and percentiles that decrease with p: the
 * metric is dropped with a warning naming it, never kept or guessed from
 * the other jobs. */
static void test_impossible_values(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		"{ \"jobname\" : \"a\", \"usr_cpu\" : 1.0, \"sys_cpu\" : 2.0, \"read\" : { \"iops\" : -5, \"bw\" : 4, \"total_ios\" : 10, \"runtime\" : 10,"
		"  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 1.8446744073709552e19, \"N\" : 10,"
		"    \"percentile\" : { \"50.000000\" : 5000, \"99.000000\" : 3000, \"99.900000\" : 9000 } } } },"
		"{ \"jobname\" : \"b\", \"usr_cpu\" : -1.0, \"sys_cpu\" : 2.0, \"read\" : { \"iops\" : 7, \"bw\" : 4, \"total_ios\" : 10, \"runtime\" : 10,"
		"  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 10 } } } ] }");
	check_no_metric(r, "read.iops");
	check_metric(r, "read.bw_kib", 8);
	check_no_metric(r, "read.clat_mean_ns");
	check_no_metric(r, "read.clat_p50_ns");
	check_no_metric(r, "read.clat_p99_ns");
	check_no_metric(r, "fio.usr_cpu_pct");
	check_no_metric(r, "fio.sys_cpu_pct");
	assert_true(has_warning(r, "job 'a': read.iops = -5 is impossible (negative or a wrapped counter): read.iops dropped"));
	assert_true(has_warning(r, "job 'a': read.clat_mean_ns = 1.8446744073709552e+19 is impossible"));
	assert_true(has_warning(r, "job 'a': read percentiles are not monotonic (clat_p50_ns = 5000 > clat_p99_ns = 3000): read.clat_p50/p99/p999 dropped"));
	assert_true(has_warning(r, "job 'b': fio.usr_cpu_pct = -1 is impossible"));
	assert_null(json_object_get(json_object_get(job(r, 0), "read"), "iops"));
	assert_null(json_object_get(json_object_get(job(r, 0), "read"), "clat_p99_ns"));
	check_close("b iops", jdir(r, 1, "read", "iops"), 7);
	json_decref(r);
	/* total_ios < 0: said and ignored (the I/O judged from the rest),
	 * not the direction dropped in silence, IOPS included; clat N < 0:
	 * said, the mean and percentiles dropped (a break-it trial) */
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		"{ \"jobname\" : \"a\", \"read\" : { \"iops\" : 5, \"bw\" : 20, \"io_bytes\" : 40960, \"total_ios\" : -5, \"runtime\" : 2000,"
		"  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : -1,"
		"    \"percentile\" : { \"50.000000\" : 5, \"99.000000\" : 9, \"99.900000\" : 9 } } } } ] }");
	check_metric(r, "read.iops", 5);
	check_no_metric(r, "read.clat_mean_ns");
	check_no_metric(r, "read.clat_p99_ns");
	assert_true(has_warning(r, "job 'a': read.total_ios = -5 is impossible (negative or a wrapped counter): ignored"));
	check_no_metric(r, "fio.total_ios");
	assert_true(has_warning(r, "job 'a': read.clat.N = -1 is impossible (negative or a wrapped counter): its mean and percentiles dropped"));
	json_decref(r);
}

/* A member that is there but not a number: said, the metric left out
 * (a string "123" was read as 0 IOPS without a word). */
/* A job's "error" that is not a number ("EIO", null, true, an object:
 * a document someone's tool rewrote): read as 0, the job valid, with no
 * word of it (a break-it trial).  fio writes its errno there; anything
 * else says nothing of success: now a warning naming the job and the
 * job counted as failed (-1).  A number still reads as it is. */
static void test_error_not_a_number(void **state)
{
	static const char *const bad[] = { "\"EIO\"", "null", "true", "{}",
					   "[5]" };
	char err[256];
	size_t i;
	json_t *r;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *doc = kb_xasprintf("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
			"{ \"jobname\" : \"a\", \"error\" : %s, \"read\" : { \"iops\" : 5, \"bw\" : 20,"
			" \"total_ios\" : 10, \"runtime\" : 2000 } } ] }", bad[i]);

		r = parse_str_ok(doc);
		if (!fio_result_error(r, err, sizeof(err)))
			fail_msg("\"error\" : %s read as no error", bad[i]);
		assert_true(has_warning(r, "job 'a': \"error\" is "));
		assert_true(has_warning(r, ", not a number (fio's error code for the job): the job counted as failed (error -1)"));
		json_decref(r);
		free(doc);
	}
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		"{ \"jobname\" : \"a\", \"error\" : 0, \"read\" : { \"iops\" : 5, \"bw\" : 20,"
		" \"total_ios\" : 10, \"runtime\" : 2000 } } ] }");
	assert_int_equal(fio_result_error(r, err, sizeof(err)), 0);
	json_decref(r);
}

static void test_not_a_number(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		"{ \"jobname\" : \"a\", \"read\" : { \"iops\" : \"123\", \"bw\" : null, \"total_ios\" : 10, \"runtime\" : 10,"
		"  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 10 } } } ] }");
	check_no_metric(r, "read.iops");
	check_no_metric(r, "read.bw_kib");
	check_metric(r, "read.clat_mean_ns", 5);
	assert_true(has_warning(r, "job 'a': read.iops is a string, not a number: left out"));
	assert_true(has_warning(r, "job 'a': read.bw is null, not a number: left out"));
	json_decref(r);
}

/* `kbench parse` of the fio document doc (written to a temporary file):
 * its JSON object (new reference) and stderr in *errout. */
static json_t *cmd_parse_doc(const char *doc, char **errout)
{
	char path[] = "/tmp/kbench-test-fio-XXXXXX";
	char *args[] = { "parse", path, NULL };
	int fd = mkstemp(path);
	json_t *r;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kb_write_atomic(path, doc, strlen(doc)), 0);
	r = cmd_parse_ok(args, errout);
	unlink(path);
	return r;
}

/* A direction block of the wrong type or missing, a percentile that is a
 * string, a negative runtime: each said, naming the job and the key, and
 * the numbers that are fine kept (a break-it trial: all were silent). */
static void test_damaged_blocks(void **state)
{
	static const struct {
		const char *doc;
		const char *said[4];	/* warnings, NULL-terminated */
		const char *kept[4];	/* metrics there, NULL-terminated */
		const char *dropped;	/* a metric left out, or NULL */
	} cases[] = {
		/* "read": 5, a string p50, runtime -1000 */
		{ "{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		  "{ \"jobname\" : \"a\", \"read\" : 5, \"write\" : { \"iops\" : 10, \"bw\" : 40, \"total_ios\" : 10, \"runtime\" : -1000,"
		  "  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 10,"
		  "    \"percentile\" : { \"50.000000\" : \"4\", \"99.000000\" : 8, \"99.900000\" : 9 } } } } ] }",
		  { "job 'a': \"read\" is a number, not an object (fio's block of the direction): read.* left out",
		    "job 'a': write.clat_ns.percentile[\"50.000000\"] is a string, not a number: write.clat_p50_ns left out",
		    "job 'a': write.runtime = -1000 is impossible (negative or a wrapped counter): write.runtime dropped",
		    NULL },
		  { "write.iops", "write.clat_mean_ns", "write.clat_p99_ns",
		    "write.clat_p999_ns" }, "write.clat_p50_ns" },
		/* "read": "x"; a randrw job without its "read" block; a job
		 * with no block at all; a percentile map not an object */
		{ "{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		  "{ \"jobname\" : \"a\", \"read\" : \"x\", \"write\" : { \"iops\" : 10, \"bw\" : 40, \"total_ios\" : 10, \"runtime\" : 1000 } },"
		  "{ \"jobname\" : \"b\", \"job options\" : { \"rw\" : \"randrw\" }, \"write\" : { \"iops\" : 20, \"bw\" : 80, \"total_ios\" : 20, \"runtime\" : 1000,"
		  "  \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 20, \"percentile\" : [ 1 ] } } },"
		  "{ \"jobname\" : \"c\" } ] }",
		  { "job 'a': \"read\" is a string, not an object",
		    "job 'b': no \"read\" block, though rw=randrw does read I/O: read.* not measured",
		    "job 'b': write.clat_ns.percentile is an array, not an object of percentiles: write.clat_p50/p99/p999 left out",
		    "job 'c': no \"read\", \"write\", \"trim\" or \"mixed\" block (fio writes one per direction): no I/O metrics" },
		  { "write.iops", "write.clat_mean_ns", NULL }, "write.clat_p99_ns" },
	};
	size_t i, k;
	json_t *r;
	char *err;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = cmd_parse_doc(cases[i].doc, &err);
		for (k = 0; k < 4 && cases[i].said[k]; k++)
			if (!has_warning(r, cases[i].said[k]) ||
			    !strstr(err, cases[i].said[k]))
				fail_msg("case %zu: not said: %s\n%s", i,
					 cases[i].said[k], err);
		for (k = 0; k < 4 && cases[i].kept[k]; k++)
			metric(r, cases[i].kept[k]);
		check_no_metric(r, cases[i].dropped);
		json_decref(r);
		free(err);
	}
	/* runtime_ms of the job dropped, its IOPS kept */
	r = cmd_parse_doc(cases[0].doc, &err);
	check_metric(r, "write.iops", 10);
	assert_null(json_object_get(json_object_get(job(r, 0), "write"),
				    "runtime_ms"));
	json_decref(r);
	free(err);
}

/* ---- aggregation (in-test documents) ---------------------------------- */

#define JOB3(name, extra, n, mean, clatextra)				\
	"{ \"jobname\" : \"" name "\", \"groupid\" : 0, \"error\" : 0, " \
	"\"usr_cpu\" : 1.0, \"sys_cpu\" : 3.0, "			\
	"\"read\" : { \"io_bytes\" : 4096, \"bw\" : 100, \"iops\" : 25.5, " \
	"\"runtime\" : 1000, \"total_ios\" : " #n ", " extra		\
	"\"clat_ns\" : { \"min\" : 1, \"max\" : 200000, \"mean\" : " #mean ", " \
	"\"N\" : " #n ", " clatextra " } } }"

static void test_jsonplus_merge_two_jobs(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"global options\" : { \"rw\" : \"randread\" }, \"jobs\" : ["
		JOB3("a", "", 100, 1500, "\"percentile\" : { \"50.000000\" : 1000, \"99.000000\" : 2000 }, \"bins\" : { \"1000\" : 50, \"2000\" : 50 }")
		","
		JOB3("b", "", 300, 4940, "\"percentile\" : { \"50.000000\" : 3000, \"99.000000\" : 100000 }, \"bins\" : { \"3000\" : 294, \"100000\" : 6 }")
		"] }");
	assert_string_equal(json_string_value(json_object_get(job(r, 1), "rw")),
			    "randread");
	check_metric(r, "read.iops", 51);
	check_metric(r, "read.bw_kib", 200);
	/* weighted by N: (100 * 1500 + 300 * 4940) / 400, not 3220 */
	check_metric(r, "read.clat_mean_ns", 4080);
	/* 400 samples: 50% -> 200th (bin 3000), 99% -> 396th (bin 100000) */
	check_metric(r, "read.clat_p50_ns", 3000);
	check_metric(r, "read.clat_p99_ns", 100000);
	check_metric(r, "read.clat_p999_ns", 100000);
	check_metric(r, "fio.usr_cpu_pct", 1.0);
	check_metric(r, "fio.sys_cpu_pct", 3.0);
	assert_false(has_warning(r, "json+ bins"));
	json_decref(r);
}

static void test_multijob_without_bins(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : ["
		JOB3("a", "", 100, 1500, "\"percentile\" : { \"50.000000\" : 1000, \"99.000000\" : 2000 }")
		","
		JOB3("b", "", 300, 4940, "\"percentile\" : { \"50.000000\" : 3000, \"99.000000\" : 100000 }, \"bins\" : { \"3000\" : 294, \"100000\" : 6 }")
		"] }");
	check_metric(r, "read.iops", 51);
	check_no_metric(r, "read.clat_p50_ns");
	check_no_metric(r, "read.clat_p99_ns");
	check_no_metric(r, "read.clat_p999_ns");
	assert_true(has_warning(r, "1 lack json+ bins"));
	/* each job keeps its own map */
	check_close("a p99", jdir(r, 0, "read", "clat_p99_ns"), 2000);
	check_close("b p50", jdir(r, 1, "read", "clat_p50_ns"), 3000);
	json_decref(r);
}

static void test_dup_keys_last_wins(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"jobs\" : [ { \"jobname\" : \"d\", \"read\" : { \"iops\" : 1, \"iops\" : 2.5, \"bw\" : 7, \"total_ios\" : 5 } } ] }");
	check_metric(r, "read.iops", 2.5);
	check_metric(r, "read.bw_kib", 7);
	assert_true(json_is_null(json_object_get(r, "fio_version")));
	json_decref(r);
}

static void test_text_after_and_no_clat(void **state)
{
	json_t *r;

	(void)state;
	/* --output-format=json,normal; clat disabled (N = 0) with I/O */
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : [ { \"jobname\" : \"n\", \"write\" : { \"iops\" : 10, \"bw\" : 40, \"total_ios\" : 100, \"runtime\" : 10000,"
			 " \"clat_ns\" : { \"min\" : 0, \"max\" : 0, \"mean\" : 0, \"N\" : 0 } } } ] }\n"
			 "n: (groupid=0, jobs=1): err= 0: pid=1\n  write: IOPS=10, BW=40KiB/s\n");
	check_metric(r, "write.iops", 10);
	check_no_metric(r, "write.clat_mean_ns");
	check_no_metric(r, "write.clat_p99_ns");
	assert_true(has_warning(r, "non-JSON text after JSON document 1 (lines 2-3) ignored: 'n: (groupid=0"));
	assert_int_equal(json_integer_value(json_object_get(r, "documents")), 1);
	json_decref(r);
}

/* fio.total_ios: the I/Os fio issued, reads + writes + trims of every
 * job; a direction with no I/O adds 0; a job that did I/O without a
 * count (total_ios absent) leaves the sum out, as does no I/O at all */
static void test_total_ios(void **state)
{
#define TI_DOC(jobs) "{ \"fio version\" : \"fio-3.36\", \"jobs\" : [ " jobs " ] }"
#define TI_DIR(d, n) "\"" d "\" : { \"iops\" : 1, \"bw\" : 4, \"io_bytes\" : 4096, \"total_ios\" : " #n ", \"runtime\" : 1000 }"
	json_t *r;

	(void)state;
	r = parse_str_ok(TI_DOC(
		"{ \"jobname\" : \"a\", " TI_DIR("read", 100) ", " TI_DIR("write", 0) ", " TI_DIR("trim", 7) " },"
		"{ \"jobname\" : \"b\", " TI_DIR("read", 20) ", " TI_DIR("write", 3) ", "
		"  \"sync\" : { \"total_ios\" : 50 } }"));
	check_metric(r, "fio.total_ios", 100 + 7 + 20 + 3);
	assert_true(json_is_integer(json_object_get(json_object_get(r,
		"metrics"), "fio.total_ios")));
	json_decref(r);
	/* job b read 40 KiB without saying how many I/Os (no total_ios) */
	r = parse_str_ok(TI_DOC(
		"{ \"jobname\" : \"a\", " TI_DIR("read", 100) " },"
		"{ \"jobname\" : \"b\", \"read\" : { \"iops\" : 1, \"bw\" : 4, \"io_bytes\" : 40960, \"runtime\" : 1000 } }"));
	check_metric(r, "read.iops", 2);
	check_no_metric(r, "fio.total_ios");
	json_decref(r);
	/* ... but one with no I/O and no count takes nothing away */
	r = parse_str_ok(TI_DOC(
		"{ \"jobname\" : \"a\", " TI_DIR("read", 100) ", "
		"  \"write\" : { \"iops\" : 0, \"bw\" : 0, \"io_bytes\" : 0, \"runtime\" : 0 } }"));
	check_metric(r, "fio.total_ios", 100);
	json_decref(r);
	/* unified_rw_reporting=both: read, write and mixed, counted once */
	r = parse_str_ok(TI_DOC(
		"{ \"jobname\" : \"a\", " TI_DIR("read", 60) ", " TI_DIR("write", 40) ", " TI_DIR("mixed", 100) " }"));
	check_metric(r, "fio.total_ios", 100);
	json_decref(r);
	/* nothing issued: no count (as no IOPS), not 0 */
	r = parse_str_ok(TI_DOC(
		"{ \"jobname\" : \"a\", " TI_DIR("read", 0) ", " TI_DIR("write", 0) " }"));
	check_no_metric(r, "fio.total_ios");
	json_decref(r);
#undef TI_DIR
#undef TI_DOC
}

static void test_mixed_direction(void **state)
{
	json_t *r;

	(void)state;
	r = parse_str_ok("{ \"fio version\" : \"fio-3.36\", \"jobs\" : [ { \"jobname\" : \"m\", \"mixed\" : { \"iops\" : 10, \"bw\" : 40, \"total_ios\" : 100, \"runtime\" : 10000,"
			 " \"clat_ns\" : { \"min\" : 1, \"max\" : 9, \"mean\" : 5, \"N\" : 100, \"percentile\" : { \"99.000000\" : 9 } } } } ] }");
	check_metric(r, "mixed.iops", 10);
	check_metric(r, "mixed.bw_kib", 40);
	/* unified_rw_reporting=mixed: the mixed block's count */
	check_metric(r, "fio.total_ios", 100);
	check_no_metric(r, "read.iops");
	check_close("mixed p99", jdir(r, 0, "mixed", "clat_p99_ns"), 9);
	assert_true(has_warning(r, "mixed"));
	json_decref(r);
}

static void test_no_error(void **state)
{
	json_t *r = parse_ok(DATA "B05.json");
	char msg[64] = "x";

	(void)state;
	assert_int_equal(fio_result_error(r, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	json_decref(r);
}

/* ---- every data file: no crash, only known metric names --------------- */

static const char *const all_json[] = {
	"pkb-2.1.4-multijob.json", "pkb-2.17-2jobs.json",
	"fioplot-2.18-usec.json", "pbench-2.2.5-json.json",
	"fioplot-3.1-randrw-grouprep.json",
	"jbern-3.1-4jobs-dupkeys-trailingspace.json",
	"fioplot-3.6-4jobs-nogroup.json", "pbench-fio-3.7-client-server.txt",
	"kbench-3.33-client2-jsonplus.json",
	"arau-3.12-randrw50-32k.json", "arau-3.12-two-json-with-shell-prompt.txt",
	"arau-3.12-gt-prompt-glued.txt", "vc-3.13-error-prefix.json",
	"lkp-3.15-mmap-randread-numjobs24.json",
	"fioplot-3.16-fsync-sync-percentiles.json",
	"pbench-3.19-8jobs-24h-rw.json", "vc-3.26-readwrite.json",
	"fioplot-3.33-error-warnings.json", "benson-3.33-rw-sigint.json",
	"benson-3.33-jsonplus-sigint.json", "samyaple-3.33-16jobs-nogroup.json",
	"fioplot-3.34-sigint-prefix.json", "lkp-3.38-libaio-seqread.json",
	"B01.json", "B02.json", "B04.json", "B05.json", "B08.json", "B09.json",
	"B30.json", "B36.json", "B38.json",
};

/* "host.<name>.<metric>" (fio --client, per load host): <metric> known */
static int host_metric_known(const char *key)
{
	const char *p;

	if (strncmp(key, "host.", 5))
		return 0;
	for (p = strchr(key + 5, '.'); p; p = strchr(p + 1, '.'))
		if (kb_metric_find(p + 1))
			return 1;
	return 0;
}

static void test_all_files_known_metrics(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(all_json) / sizeof(all_json[0]); i++) {
		char path[256];
		const char *key;
		json_t *r, *v;

		snprintf(path, sizeof(path), DATA "%s", all_json[i]);
		r = parse_ok(path);
		assert_true(json_array_size(json_object_get(r, "jobs")) > 0);
		json_object_foreach(json_object_get(r, "metrics"), key, v) {
			if (!kb_metric_find(key) && !host_metric_known(key))
				fail_msg("%s: metric '%s' not in lib/metrics.c",
					 path, key);
			if (!json_is_number(v) || !isfinite(json_number_value(v)))
				fail_msg("%s: metric '%s' not a finite number",
					 path, key);
		}
		json_decref(r);
	}
}

/* ---- kbench parse ----------------------------------------------------- */

static int run_cmd_parse(int argc, char **argv)
{
	int saved_out, saved_err, devnull, rc;

	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 1);
	dup2(devnull, 2);
	rc = cmd_parse(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	close(devnull);
	return rc;
}

/* A job name holding ESC [ 31 m: the warning that names it shows the
 * ESC as '?' on standard error (lib/err.c), as the reports do (a
 * helper's note: "warnings still print fio job names raw"). */
static void test_warning_control_chars(void **state)
{
	char path[] = "/tmp/kbench-test-esc.XXXXXX";
	const char *doc = "{\"fio version\": \"fio-3.33\", \"jobs\": [{"
		"\"jobname\": \"a\\u001b[31mRED\\u0007\", \"groupid\": 0, "
		"\"error\": 0, \"read\": {\"iops\": -5, \"bw\": 1, "
		"\"runtime\": 1000, \"io_bytes\": 4096, \"total_ios\": 1}}]}\n";
	char *args[] = { "parse", path, NULL }, *out = NULL, *err = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, doc, strlen(doc)), (ssize_t)strlen(doc));
	close(fd);
	assert_int_equal(run_kbench(args, &out, &err), 0);
	assert_non_null(strstr(err, "job 'a?[31mRED?': read.iops = -5 is impossible"));
	assert_null(strchr(err, '\033'));
	assert_null(strchr(err, '\a'));
	unlink(path);
	free(out);
	free(err);
}

/* kbench parse FILE where FILE is a pipe (/dev/stdin, <(ssh host cat
 * out.json)): its output, with "file" left out, is that of the same
 * bytes in a regular file.  kbench read the pipe's first 4 KiB to tell
 * the format, then opened it again and parsed the rest: a JSON file was
 * refused ("no \"jobs\" array"), a terse file's line 1 began mid-line
 * (a break-it trial). */
static char *parse_via_pipe(const char *file, int *status)
{
	char so[] = "/tmp/kbench-test-pipe.XXXXXX";
	const char *kb = getenv("KBENCH") ?: "build/kbench";
	char *argv[] = { (char *)kb, "parse", "--compact", "-q", "/dev/stdin",
			 NULL };
	struct kb_spawn_opts o = { .stdout_path = so, .timeout_s = 60 };
	struct kb_spawn_result r;
	struct kb_child c;
	char *text = NULL, *out = NULL;
	size_t len = 0;

	close(mkstemp(so));
	assert_int_equal(kb_read_file(file, &text, &len, 0), 0);
	assert_true(len > 4096);	/* more than the head read first */
	assert_int_equal(kb_spawn_start(argv, &o, 1, &c), 0);
	assert_int_equal(kb_child_write(&c, text, len), 0);
	assert_int_equal(kb_spawn_wait(&c, &r), 0);
	assert_true(r.exited);
	*status = r.exit_status;
	assert_int_equal(kb_read_file(so, &out, NULL, 0), 0);
	unlink(so);
	free(text);
	return out;
}

static void test_cmd_parse_pipe(void **state)
{
	static const char *const files[] = {
		DATA "pkb-2.17-2jobs.json", DATA "jtulak-2.1.2-terse3-12jobs.terse",
		DATA "benson-3.33-jsonplus-sigint.json",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *args[] = { "parse", "--compact", "-q", (char *)files[i],
				 NULL };
		char *out = NULL, *err = NULL, *piped, *p, *q, *pe, *qe;
		json_t *a, *b;
		json_error_t je;
		int st;

		assert_int_equal(run_kbench(args, &out, &err), 0);
		piped = parse_via_pipe(files[i], &st);
		if (st)
			fail_msg("%s through a pipe: exit %d", files[i], st);
		/* every line (a terse file: one per job) without "file" */
		for (p = out, q = piped; *p || *q; p = pe + 1, q = qe + 1) {
			pe = strchr(p, '\n');
			qe = strchr(q, '\n');
			assert_non_null(pe);
			assert_non_null(qe);
			a = json_loadb(p, pe - p, 0, &je);
			b = json_loadb(q, qe - q, 0, &je);
			assert_non_null(a);
			assert_non_null(b);
			json_object_del(a, "file");
			json_object_del(b, "file");
			if (!json_equal(a, b))
				fail_msg("%s through a pipe: %.200s", files[i], q);
			json_decref(a);
			json_decref(b);
		}
		free(out);
		free(err);
		free(piped);
	}
}

/* fio's JSON saved as UTF-16 (Windows PowerShell's "fio ... > out.json";
 * the corpus has Windows fio output, vc-3.13-error-prefix.json): "no JSON
 * document found", or for terse output "kbench parse reads terse version
 * 3", which it is (a break-it trial).  Now the error says UTF-16 and how
 * to convert, with a byte order mark or without (NULs beside ASCII). */
static void test_utf16_named(void **state)
{
	static const char *const files[] = { DATA "vc-3.13-error-prefix.json",
		DATA "jtulak-2.1.2-terse3-12jobs.terse" };
	char dir[] = "/tmp/kbench-test-u16.XXXXXX";
	size_t f, i, len = 0;
	int bom, be;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (f = 0; f < 2; f++)
		for (bom = 0; bom < 2; bom++)
			for (be = 0; be < 2; be++) {
				char *text = NULL, *path;
				FILE *o;

				assert_int_equal(kb_read_file(files[f], &text,
							      &len, 0), 0);
				path = kb_xasprintf("%s/u16-%zu%d%d", dir, f,
						    bom, be);
				o = fopen(path, "wb");
				assert_non_null(o);
				if (bom)
					fputs(be ? "\xfe\xff" : "\xff\xfe", o);
				for (i = 0; i < len; i++) {
					if (be)
						fputc(0, o);
					fputc(text[i], o);
					if (!be)
						fputc(0, o);
				}
				assert_int_equal(fclose(o), 0);
				check_parse_fails(path, ": UTF-16 text (as Windows PowerShell's > writes it), not fio's UTF-8 output: convert it (iconv -f UTF-16 -t UTF-8 FILE)");
				unlink(path);
				free(path);
				free(text);
			}
	rmdir(dir);
}

static void test_cmd_parse_exit_status(void **state)
{
	char *ok[] = { "parse", "--compact", "-q", DATA "B01.json",
		       DATA "B02.json", NULL };
	char *bad[] = { "parse", DATA "B05.json",
			DATA "hwt-2.2.10-normal-4groups.txt", NULL };
	char *none[] = { "parse", NULL };
	char *help[] = { "parse", "--help", NULL };
	char *unknown[] = { "parse", "--frobnicate", DATA "B05.json", NULL };

	(void)state;
	assert_int_equal(run_cmd_parse(5, ok), 0);	/* error=5 still 0 */
	assert_int_equal(run_cmd_parse(3, bad), 1);
	assert_int_equal(run_cmd_parse(1, none), 2);
	assert_int_equal(run_cmd_parse(2, help), 0);
	assert_int_equal(run_cmd_parse(3, unknown), 2);
}

/* A file far larger than any fio output is refused unread. */
static void test_too_large(void **state)
{
	char path[] = "/tmp/kbench-test-big.XXXXXX", err[512] = "";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)FIO_MAX_OUTPUT_BYTES + 1), 0);
	close(fd);
	assert_null(fio_parse_file(path, err, sizeof(err)));
	assert_non_null(strstr(err, "far larger than any fio output"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pkb_2_1_4_multijob),
		cmocka_unit_test(test_pkb_2_17_2jobs),
		cmocka_unit_test(test_fioplot_2_18_usec),
		cmocka_unit_test(test_pbench_2_2_5),
		cmocka_unit_test(test_fioplot_3_1_grouprep),
		cmocka_unit_test(test_jbern_3_1_dupkeys),
		cmocka_unit_test(test_fioplot_3_6_nogroup),
		cmocka_unit_test(test_client_server_3_7),
		cmocka_unit_test(test_client_server_3_33_jsonplus),
		cmocka_unit_test(test_arau_3_12_randrw_global_rw),
		cmocka_unit_test(test_arau_3_12_two_documents),
		cmocka_unit_test(test_arau_3_12_glued_prompt),
		cmocka_unit_test(test_vc_3_13_error_prefix),
		cmocka_unit_test(test_lkp_3_15_big_values),
		cmocka_unit_test(test_fioplot_3_16_sync),
		cmocka_unit_test(test_pbench_3_19_24h),
		cmocka_unit_test(test_vc_3_26_readwrite),
		cmocka_unit_test(test_fioplot_3_33_error_warnings),
		cmocka_unit_test(test_benson_3_33_rw_sigint),
		cmocka_unit_test(test_benson_3_33_jsonplus),
		cmocka_unit_test(test_benson_jsonplus_merged_twice),
		cmocka_unit_test(test_samyaple_3_33_16jobs),
		cmocka_unit_test(test_fioplot_3_34_sigint),
		cmocka_unit_test(test_lkp_3_38),
		cmocka_unit_test(test_normal_text_rejected),
		cmocka_unit_test(test_normal_text_corpus),
		cmocka_unit_test(test_terse_rejected),
		cmocka_unit_test(test_no_json_errors),
		cmocka_unit_test(test_B01_preamble_notice),
		cmocka_unit_test(test_B02_io_error),
		cmocka_unit_test(test_B04_status_interval),
		cmocka_unit_test(test_B04_truncated_last),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_hostile_braces),
		cmocka_unit_test(test_B05_no_io_direction),
		cmocka_unit_test(test_disk_util),
		cmocka_unit_test(test_B08_io_bytes_kib),
		cmocka_unit_test(test_B09_usec_and_index_bins),
		cmocka_unit_test(test_B09_bins_merged),
		cmocka_unit_test(test_B36_unescaped_tab),
		cmocka_unit_test(test_B36_kind_control_and_latin1),
		cmocka_unit_test(test_B38_lat_percentiles),
		cmocka_unit_test(test_B38_kind_merged_and_both),
		cmocka_unit_test(test_B30_page_cache),
		cmocka_unit_test(test_B30_kind_page_cache),
		cmocka_unit_test(test_latency_buckets_sum),
		cmocka_unit_test(test_steadystate_not_attained),
		cmocka_unit_test(test_impossible_values),
		cmocka_unit_test(test_not_a_number),
		cmocka_unit_test(test_error_not_a_number),
		cmocka_unit_test(test_damaged_blocks),
		cmocka_unit_test(test_jsonplus_merge_two_jobs),
		cmocka_unit_test(test_multijob_without_bins),
		cmocka_unit_test(test_dup_keys_last_wins),
		cmocka_unit_test(test_text_after_and_no_clat),
		cmocka_unit_test(test_total_ios),
		cmocka_unit_test(test_mixed_direction),
		cmocka_unit_test(test_no_error),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_all_files_known_metrics),
		cmocka_unit_test(test_cmd_parse_exit_status),
		cmocka_unit_test(test_utf16_named),
		cmocka_unit_test(test_cmd_parse_pipe),
		cmocka_unit_test(test_warning_control_chars),
	};

	kb_quiet = 1;
	return cmocka_run_group_tests_name("fio_json", tests, NULL, NULL);
}
