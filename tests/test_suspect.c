/* tests/test_suspect.c - runs that must not count although fio finished:
 * buffered reads that measured the page cache (../shared/cases/B30: the
 * run is flagged "suspect" and kept out of the statistics unless
 * kernels.conf allow_page_cache = yes) and runs of one configuration on
 * two kernel builds with the same `uname -r` (never pooled).  The whole
 * path is exercised: raw artifacts of a run directory (fio.json,
 * fio.stderr, run.json) -> parsers/run_dir.c -> metrics.json -> the
 * results model (results/model.c) -> the statistics and the report, the
 * latter through the built `kbench report --reparse DIR` ($KBENCH, else
 * build/kbench).  Runs from the repository root. */
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
#include "parsers/json_file.h"
#include "parsers/kconf.h"
#include "parsers/procfs.h"
#include "parsers/run_dir.h"
#include "results/json.h"
#include "results/model.h"
#include "results/paths.h"
#include "stats/summary.h"
#include "tests/stats_tree.h"

#define PV_A "Linux version 6.1.0-13-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29)"
#define PV_B "Linux version 6.1.0-13-amd64 (me@box) (gcc-12 (Debian 12.2.0-14) 12.2.0) #2 SMP PREEMPT_DYNAMIC Tue Oct  3 10:00:00 UTC 2023"

static char tmpdir[] = "/tmp/kbench-test-suspect-XXXXXX";

static void put(const char *dir, const char *name, const char *text)
{
	char *p = kb_path_join(dir, name);

	assert_int_equal(kb_mkdir_p(dir), 0);
	assert_int_equal(kb_write_atomic(p, text, strlen(text)), 0);
	free(p);
}

static void copy(const char *dir, const char *name, const char *src)
{
	char *buf = NULL;

	assert_int_equal(kb_read_file(src, &buf, NULL, 0), 0);
	put(dir, name, buf);
	free(buf);
}

/* run.json as builtin/run.c writes it, on kernel build pv, with RAM. */
static char *run_json(const char *pv, long long mem_kib)
{
	return kb_xasprintf("{\"exit_status\": 0, \"signal\": 0, "
		"\"timed_out\": false, \"elapsed_s\": 2.0, \"runtime_s\": 0, "
		"\"kernel_release\": \"6.1.0-13-amd64\", \"proc_version\": "
		"\"%s\", \"mem_total_kib\": %lld}", pv, mem_kib);
}

/* ../shared/cases/B30 as a run of a campaign: fio.json (with fio's cache
 * invalidation line in front), run.json of a 64 GiB machine. */
static void test_B30_run_dir(void **state)
{
	char *dir = kb_path_join(tmpdir, "b30run"), *rj = run_json(PV_A,
		64LL << 20);
	json_t *r, *want;

	(void)state;
	copy(dir, "fio.json", "tests/data/fio/B30.json");
	put(dir, "run.json", rj);
	r = run_dir_parse(dir);
	assert_non_null(r);
	assert_string_equal(kb_jstr(r, "status"), "ok");
	assert_string_equal(kb_jstr(r, "suspect"), "page_cache");
	assert_string_equal(kb_jstr(r, "message"),
			    "results likely measure the page cache, not the device: use direct=1 (or size >> RAM) and make sure cache invalidation succeeds");
	want = json_pack("[s, s, s, s]", "direct=1 not set (buffered I/O)",
			 "working set 1 GiB < RAM 64 GiB",
			 "fio could not invalidate the page cache (line 1)",
			 "clat_ns.min = 0");
	assert_true(json_equal(json_object_get(r, "flags"), want));
	assert_string_equal(kb_jstr(json_object_get(r, "kernel"),
				    "proc_version"), PV_A);
	assert_string_equal(kb_jstr(json_object_get(r, "kernel"), "release"),
			    "6.1.0-13-amd64");
	json_decref(want);
	json_decref(r);
	free(rj);
	free(dir);
}

/* The same kind from a kbench run: fio --output=fio.json keeps the JSON
 * clean, its complaint is in fio.stderr. */
static void test_B30_kind_fio_stderr(void **state)
{
	char *dir = kb_path_join(tmpdir, "stderrrun"), *rj = run_json(PV_A,
		1LL << 20);
	char *buf = NULL, *json;
	json_t *r;

	(void)state;
	assert_int_equal(kb_read_file("tests/data/fio/B30.json", &buf, NULL, 0),
			 0);
	json = strchr(buf, '{');
	put(dir, "fio.json", json);
	put(dir, "fio.stderr", "fio: cache invalidation of /mnt/test/fio.dat failed: Operation not permitted\n");
	put(dir, "run.json", rj);
	r = run_dir_parse(dir);
	assert_string_equal(kb_jstr(r, "suspect"), "page_cache");
	/* 1 GiB of RAM: the working set does not fit */
	assert_int_equal(json_array_size(json_object_get(r, "flags")), 3);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
		r, "flags"), 1)), "fio could not invalidate the page cache (fio.stderr line 1)");
	json_decref(r);
	free(buf);
	free(rj);
	free(dir);
}

/* A campaign of configurations cfgs with iterations 000 (warm-up) to 003
 * of job randread-4k, built from raw artifacts: fio[c][i] is the fio
 * output, pv[c][i] the kernel build of run.json.  allow: kernels.conf
 * allow_page_cache = yes. */
static char *campaign(const char *name, const char **cfgs, size_t ncfg,
		      const char *fio[][4], const char *pv[][4], int allow)
{
	char *dir = kb_path_join(tmpdir, name), *key, *rdir, *rj, *path;
	json_t *plan = json_array(), *cj = json_array(), *done = json_object();
	json_t *c, *camp;
	size_t k, i;

	for (k = 0; k < ncfg; k++) {
		json_array_append_new(cj, json_pack("{s:s, s:s, s:{}}", "id",
			cfgs[k], "variant", cfgs[k], "tunables"));
		for (i = 0; i < 4; i++) {
			key = kb_run_key(cfgs[k], "randread-4k", (long long)i);
			rdir = kb_run_dir(dir, key);
			json_array_append_new(plan, json_string(key));
			json_object_set_new(done, key, json_pack("{s:s}",
					    "status", "ok"));
			copy(rdir, "fio.json", fio[k][i]);
			rj = run_json(pv[k][i], 64LL << 20);
			put(rdir, "run.json", rj);
			free(rj);
			free(rdir);
			free(key);
		}
	}
	camp = json_pack("{s:s, s:[s], s:i, s:i, s:[], s:s}", "baseline",
			 cfgs[0], "jobs", "randread-4k", "iterations", 3,
			 "warmup", 1, "tunables", "target", "loop:256M");
	if (allow)
		json_object_set_new(camp, "allow_page_cache", json_true());
	c = json_pack("{s:i, s:o, s:o, s:o}", "schema_version", 1,
		      "campaign", camp, "configurations", cj, "plan", plan);
	path = kb_path_join(dir, "campaign.json");
	assert_int_equal(kb_json_write_atomic(path, c), 0);
	free(path);
	json_decref(c);
	c = json_pack("{s:i, s:o}", "schema_version", 1, "runs", done);
	path = kb_path_join(dir, "state.json");
	assert_int_equal(kb_json_write_atomic(path, c), 0);
	free(path);
	json_decref(c);
	return dir;
}

#define OK "tests/data/fio/B05.json"	/* direct=1 randread, 26214 IOPS */
#define PC "tests/data/fio/B30.json"	/* buffered, page cache */

static json_t *run_of(json_t *res, const char *cfg, int it)
{
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(res, "runs"), i, run)
		if (!strcmp(kb_jstr(run, "configuration"), cfg) &&
		    json_integer_value(json_object_get(run, "iteration")) == it)
			return run;
	fail_msg("no run %s %d", cfg, it);
	return NULL;
}

static json_t *summary_of(json_t *res, const char *cfg)
{
	json_t *s;

	assert_int_equal(tree_fill_summaries(res), 0);
	s = stats_find_summary(json_object_get(res, "summaries"), cfg,
			       "randread-4k", "read.iops");
	assert_non_null(s);
	return s;
}

/* `kbench ARGS...` -> exit status, its stderr then its stdout in *out
 * (malloc'd). */
static int kbench(char **out, char *a, char *b, char *c)
{
	const char *kb = getenv("KBENCH") ?: "build/kbench";
	char *argv[] = { (char *)kb, a, b, c, NULL };
	char *so = kb_path_join(tmpdir, "out"), *se = kb_path_join(tmpdir, "err");
	struct kb_spawn_opts o = { .stdout_path = so, .stderr_path = se };
	struct kb_spawn_result r;
	char *text = NULL, *etext = NULL;

	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.exited);
	assert_int_equal(kb_read_file(so, &text, NULL, 0), 0);
	assert_int_equal(kb_read_file(se, &etext, NULL, 0), 0);
	*out = kb_xasprintf("%s%s", etext, text);
	free(text);
	free(etext);
	free(so);
	free(se);
	return r.exit_status;
}

/* B30 in a campaign: the suspect run is left out of n and the mean, the
 * report lists it with the reasons; allow_page_cache = yes counts it. */
static void test_B30_campaign_excluded(void **state)
{
	static const char *cfgs[] = { "stock" };
	const char *fio[][4] = { { OK, OK, PC, OK } };
	const char *pv[][4] = { { PV_A, PV_A, PV_A, PV_A } };
	char *dir = campaign("b30camp", cfgs, 1, fio, pv, 0), *out = NULL;
	json_t *res, *run, *s;
	int rc;

	(void)state;
	/* the command a user runs after a parser fix */
	rc = kbench(&out, "report", "--reparse", dir);
	if (rc)
		fail_msg("kbench report --reparse: exit %d\n%s", rc, out);
	if (!strstr(out, "1 run(s) left out of the statistics:\n  stock randread-4k iteration 2: suspect: results likely measure the page cache,"))
		fail_msg("report does not list the suspect run:\n%s", out);
	assert_non_null(strstr(out, "fio could not invalidate the page"));
	assert_non_null(strstr(out, "allow_page_cache"));
	assert_non_null(strstr(out, "mean of 2 iterations"));
	free(out);

	res = results_load_campaign(dir, 0);
	assert_non_null(res);
	run = run_of(res, "stock", 2);
	assert_false(kb_run_counts(run));
	assert_string_equal(kb_jstr(run, "suspect"), "page_cache");
	assert_non_null(strstr(kb_jstr(run, "excluded"), "working set 1 GiB < RAM 64 GiB"));
	assert_true(kb_run_counts(run_of(res, "stock", 1)));
	s = summary_of(res, "stock");
	assert_int_equal(json_integer_value(json_object_get(s, "n")), 2);
	assert_float_equal(json_number_value(json_object_get(s, "mean")),
			   26214.312619, 1e-6);
	json_decref(res);
	free(dir);

	/* allow_page_cache = yes: counted (and still flagged) */
	dir = campaign("b30allow", cfgs, 1, fio, pv, 1);
	res = results_load_campaign(dir, 1);
	assert_non_null(res);
	run = run_of(res, "stock", 2);
	assert_true(kb_run_counts(run));
	assert_null(json_object_get(run, "excluded"));
	assert_string_equal(kb_jstr(run, "suspect"), "page_cache");
	s = summary_of(res, "stock");
	assert_int_equal(json_integer_value(json_object_get(s, "n")), 3);
	json_decref(res);
	free(dir);
}

/* Two builds with the same `uname -r` (6.1.0-13-amd64: Debian's and one
 * rebuilt with a patch): the runs on the other build are not pooled with
 * the configuration's first build, and the report says so. */
static void test_same_release_two_builds(void **state)
{
	static const char *cfgs[] = { "stock", "patched" };
	const char *fio[][4] = { { OK, OK, OK, OK }, { OK, OK, OK, OK } };
	const char *pv[][4] = { { PV_A, PV_A, PV_A, PV_A },
				{ PV_B, PV_B, PV_A, PV_B } };
	char *dir = campaign("builds", cfgs, 2, fio, pv, 0), *out = NULL;
	json_t *res, *run;
	int rc;

	(void)state;
	rc = kbench(&out, "report", "--reparse", dir);
	if (rc)
		fail_msg("kbench report --reparse: exit %d\n%s", rc, out);
	if (!strstr(out, "1 run(s) left out of the statistics:\n  patched randread-4k iteration 2: ran on another kernel build than"))
		fail_msg("report does not list the other build:\n%s", out);
	assert_non_null(strstr(out, "configuration patched ran on two kernel builds"));
	/* the reference run is patched's warm-up (round 0): w1 (issue 15) */
	assert_non_null(strstr(out, "ran on another kernel build than "
				    "iteration w1 of patched"));
	free(out);

	res = results_load_campaign(dir, 0);
	run = run_of(res, "patched", 2);
	assert_false(kb_run_counts(run));
	assert_non_null(strstr(kb_jstr(run, "excluded"), "never pooled"));
	assert_non_null(strstr(kb_jstr(run, "excluded"), "#1 SMP"));
	assert_true(kb_run_counts(run_of(res, "patched", 3)));
	assert_true(kb_run_counts(run_of(res, "stock", 2)));
	assert_int_equal(json_integer_value(json_object_get(summary_of(res,
			 "patched"), "n")), 2);
	assert_int_equal(json_integer_value(json_object_get(summary_of(res,
			 "stock"), "n")), 3);
	json_decref(res);
	free(dir);
}

/* The build id from /sys/kernel/notes: the NT_GNU_BUILD_ID note among
 * others ("Linux" notes first, as the kernel writes them). */
static void test_build_id_notes(void **state)
{
	static const unsigned char notes[] = {
		6, 0, 0, 0, 4, 0, 0, 0, 1, 1, 0, 0, 'L', 'i', 'n', 'u', 'x',
		0, 0, 0, 0, 0, 0, 0,
		4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
		0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
		0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9,
	};
	char hex[64];
	json_t *rec = json_object();

	(void)state;
	assert_int_equal(procfs_notes_build_id(notes, sizeof(notes), hex,
					       sizeof(hex)), 0);
	assert_string_equal(hex, "4a5a9b0affb66c437abcd455d2738af879985fa9");
	assert_int_equal(procfs_notes_build_id(notes, 24, hex, sizeof(hex)),
			 -ENOENT);
	assert_int_equal(procfs_notes_build_id(notes, 40, hex, sizeof(hex)),
			 -EINVAL);
	/* this machine: release and /proc/version are always there */
	procfs_record_kernel(rec);
	assert_non_null(kb_jstr(rec, "kernel_release"));
	assert_non_null(strstr(kb_jstr(rec, "proc_version"),
			       kb_jstr(rec, "kernel_release")));
	assert_true(json_integer_value(json_object_get(rec, "mem_total_kib")) > 0);
	json_decref(rec);
}

static void test_kconf_allow_page_cache(void **state)
{
	struct kb_config cfg;

	(void)state;
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = randread-4k\n[v]\nmethod = local\n", &cfg), 0);
	assert_false(cfg.allow_page_cache);
	kconf_free(&cfg);
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = randread-4k\nallow_page_cache = yes\n[v]\nmethod = local\n", &cfg), 0);
	assert_true(cfg.allow_page_cache);
	kconf_free(&cfg);
	kb_quiet = 1;
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = randread-4k\nallow_page_cache = maybe\n[v]\nmethod = local\n", &cfg), -EINVAL);
	kconf_free(&cfg);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *argv[] = { "rm", "-rf", tmpdir, NULL };

	if (getenv("KBENCH_KEEP_TMP"))
		return 0;
	struct kb_spawn_result r;

	(void)state;
	return kb_spawn(argv, NULL, &r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_B30_run_dir),
		cmocka_unit_test(test_B30_kind_fio_stderr),
		cmocka_unit_test(test_B30_campaign_excluded),
		cmocka_unit_test(test_same_release_two_builds),
		cmocka_unit_test(test_build_id_notes),
		cmocka_unit_test(test_kconf_allow_page_cache),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
