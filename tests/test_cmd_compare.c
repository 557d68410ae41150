/* tests/test_cmd_compare.c - `kbench compare` exit codes on fabricated
 * campaign directories (campaign.json + state.json +
 * runs/CONFIG/JOB/NNN/metrics.json, docs/results-format.md): 0 no
 * regression, 1 regression, 125 undecidable (too few runs), 2 error.
 * Runs the binary named by $KBENCH (the Makefile sets it), else
 * build/kbench.  Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/json_file.h"

static char tmpdir[] = "/tmp/kbench-test-compare-XXXXXX";

/* A campaign in tmpdir/name: configurations ids[0..ncfg), job "randread-
 * 4k", one warm-up (iteration 000, value 1.0: must never count) and
 * n[c] timed runs with read.iops = iops[c][i]. */
static char *campaign(const char *name, const char **ids, size_t ncfg,
		      const double iops[][8], const size_t *n)
{
	char *dir = kb_xasprintf("%s/%s", tmpdir, name), *path, *key;
	json_t *plan = json_array(), *cfgs = json_array(), *done = json_object();
	json_t *cj, *m;
	size_t c, i;

	for (c = 0; c < ncfg; c++) {
		json_array_append_new(cfgs, json_pack("{s:s, s:s, s:{}}", "id",
			ids[c], "variant", ids[c], "tunables"));
		for (i = 0; i <= n[c]; i++) {
			key = kb_xasprintf("%s/randread-4k/%03zu", ids[c], i);
			json_array_append_new(plan, json_string(key));
			json_object_set_new(done, key, json_pack("{s:s}",
					    "status", "ok"));
			path = kb_xasprintf("%s/runs/%s", dir, key);
			assert_int_equal(kb_mkdir_p(path), 0);
			free(path);
			path = kb_xasprintf("%s/runs/%s/metrics.json", dir,
					    key);
			m = json_pack("{s:s, s:n, s:{s:f, s:f}}", "status",
				"ok", "reason", "metrics", "read.iops",
				i ? iops[c][i - 1] : 1.0, "read.clat_p99_ns",
				i ? 1e9 / iops[c][i - 1] : 1.0);
			assert_int_equal(kb_json_write_atomic(path, m), 0);
			json_decref(m);
			free(path);
			free(key);
		}
	}
	cj = json_pack("{s:i, s:{s:s, s:[s], s:i, s:i, s:[]}, s:o, s:o}",
		"schema_version", 1, "campaign", "baseline", ids[0], "jobs",
		"randread-4k", "iterations", 5, "warmup", 1, "tunables",
		"configurations", cfgs, "plan", plan);
	path = kb_path_join(dir, "campaign.json");
	assert_int_equal(kb_json_write_atomic(path, cj), 0);
	free(path);
	json_decref(cj);
	cj = json_pack("{s:i, s:o}", "schema_version", 1, "runs", done);
	path = kb_path_join(dir, "state.json");
	assert_int_equal(kb_json_write_atomic(path, cj), 0);
	free(path);
	json_decref(cj);
	return dir;
}

/* Run kbench compare with args; returns its exit status, output in
 * *out (malloc'd). */
static int compare(char **out, const char *a, const char *b, const char *c,
		   const char *d)
{
	const char *kb = getenv("KBENCH") ?: "build/kbench";
	char *argv[] = { (char *)kb, "compare", (char *)a, (char *)b,
			 (char *)c, (char *)d, NULL };
	char *so = kb_xasprintf("%s/out", tmpdir);
	struct kb_spawn_opts o = { .stdout_path = so, .stderr_path = so };
	struct kb_spawn_result r;

	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.exited);
	assert_int_equal(kb_read_file(so, out, NULL, 0), 0);
	free(so);
	return r.exit_status;
}

static const char *ids1[] = { "stock" };
static const char *ids2[] = { "stock", "patched" };

static void test_exit_codes(void **state)
{
	const double base[][8] = { { 1000, 1010, 995, 1005, 990 } };
	const double same[][8] = { { 1002, 998, 1007, 993, 1001 } };
	const double slow[][8] = { { 900, 905, 895, 910, 890 } };
	const double fast[][8] = { { 1100, 1105, 1095, 1110, 1090 } };
	const double one[][8] = { { 1000 } };
	const double two[][8] = { { 1000, 1010, 995, 1005, 990 },
				  { 900, 905, 895, 910, 890 } };
	const size_t n5[] = { 5, 5 }, n1[] = { 1 };
	char *a, *s, *r, *f, *u, *t, *out, *arg;
	int rc;

	(void)state;
	a = campaign("base", ids1, 1, base, n5);
	s = campaign("same", ids1, 1, same, n5);
	r = campaign("slow", ids1, 1, slow, n5);
	f = campaign("fast", ids1, 1, fast, n5);
	u = campaign("one", ids1, 1, one, n1);
	t = campaign("two", ids2, 2, two, n5);

	rc = compare(&out, a, s, NULL, NULL);
	if (rc != 0)
		fail_msg("same distribution: exit %d, expected 0:\n%s", rc, out);
	assert_non_null(strstr(out, "no significant difference"));
	assert_non_null(strstr(out, "minimum detectable effect"));
	free(out);

	rc = compare(&out, a, r, NULL, NULL);
	if (rc != 1)
		fail_msg("10%% slower: exit %d, expected 1:\n%s", rc, out);
	assert_non_null(strstr(out, "regression"));
	assert_non_null(strstr(out, "* -10.00%*"));	/* marked */
	free(out);

	/* faster is not a regression */
	rc = compare(&out, a, f, NULL, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "improvement"));
	free(out);

	/* n = 1: cannot decide (git bisect skip) */
	rc = compare(&out, u, s, NULL, NULL);
	if (rc != 125)
		fail_msg("n=1: exit %d, expected 125:\n%s", rc, out);
	assert_non_null(strstr(out, "insufficient samples"));
	free(out);

	/* configurations inside one campaign: DIR:CONFIG */
	arg = kb_xasprintf("%s:patched", t);
	rc = compare(&out, t, arg, NULL, NULL);
	assert_int_equal(rc, 1);
	free(out);
	/* a larger minimum effect hides the 10% change */
	rc = compare(&out, "--min-effect=15", t, arg, NULL);
	assert_int_equal(rc, 0);
	free(out);
	/* only one metric compared */
	rc = compare(&out, "--metric=read.clat_p99_ns", a, r, NULL);
	assert_int_equal(rc, 1);
	assert_null(strstr(out, "read.iops "));
	free(out);
	free(arg);

	/* errors: exit 2 */
	arg = kb_xasprintf("%s:nosuch", t);
	rc = compare(&out, a, arg, NULL, NULL);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "no configuration 'nosuch'"));
	free(out);
	free(arg);
	rc = compare(&out, a, "/nonexistent/dir", NULL, NULL);
	assert_int_equal(rc, 2);
	free(out);
	rc = compare(&out, a, NULL, NULL, NULL);
	assert_int_equal(rc, 2);
	free(out);
	rc = compare(&out, "--alpha=2", a, s, NULL);
	assert_int_equal(rc, 2);
	free(out);
	rc = compare(&out, "--metric=no.such", a, s, NULL);
	assert_int_equal(rc, 2);
	free(out);
	rc = compare(&out, "--help", NULL, NULL, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "--exclude-outliers"));
	free(out);

	free(a);
	free(s);
	free(r);
	free(f);
	free(u);
	free(t);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *argv[] = { "rm", "-rf", tmpdir, NULL };
	struct kb_spawn_result r;
	struct kb_spawn_opts o = { 0 };

	(void)state;
	return kb_spawn(argv, &o, &r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_codes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
