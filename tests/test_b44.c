/* tests/test_b44.c - ../shared/cases/B44 (a bimodal sample: identical
 * runs land in one of two performance modes) through the built binary,
 * as B44.expected says: `kbench report --no-cpu --from-json
 * B44.results.json`, with and without --exclude-outliers, prints the
 * warning of B44.expected, never lists iterations 3, 5, 7, 10 as MAD
 * outliers nor drops them; and `kbench compare` of the same runs as a
 * campaign directory is inconclusive, exit 125.  Runs the binary named
 * by $KBENCH (the Makefile sets it), else build/kbench, from the
 * repository root. */
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
#include "results/paths.h"

#define TEST_TMPDIR "/tmp/kbench-test-b44-XXXXXX"
#include "tests/tmpdir.h"

#define CASE "tests/data/stats/B44.results.json"

/* Run kbench with argv[1..] (NULL-terminated, at most 6); output in
 * *out (malloc'd, stdout and stderr); returns the exit status. */
static int kbench(char **out, const char *a1, const char *a2, const char *a3,
		  const char *a4, const char *a5, const char *a6)
{
	const char *kb = getenv("KBENCH") ?: "build/kbench";
	char *argv[] = { (char *)kb, (char *)a1, (char *)a2, (char *)a3,
			 (char *)a4, (char *)a5, (char *)a6, NULL };
	char *so = kb_xasprintf("%s/out", tmpdir);
	struct kb_spawn_opts o = { .stdout_path = so, .stderr_path = so };
	struct kb_spawn_result r;

	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.exited);
	assert_int_equal(kb_read_file(so, out, NULL, 0), 0);
	free(so);
	return r.exit_status;
}

/* The text with every run of white space (the report wraps its notes
 * at 80 columns) turned into one space (malloc'd). */
static char *unwrap(const char *s)
{
	char *o = kb_xmalloc(strlen(s) + 1), *p = o;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\t') {
			if (p == o || p[-1] != ' ')
				*p++ = ' ';
			continue;
		}
		*p++ = *s;
	}
	*p = 0;
	return o;
}

/* The warning B44.expected asks for: its line `warning: "..."`. */
static char *expected_warning(void)
{
	char *text, *w, *end;

	assert_int_equal(kb_read_file("tests/data/stats/B44.expected", &text,
				      NULL, 0), 0);
	w = strstr(text, "warning: \"");
	assert_non_null(w);
	w += strlen("warning: \"");
	end = strchr(w, '"');
	assert_non_null(end);
	w = kb_xasprintf("%.*s", (int)(end - w), w);
	free(text);
	return w;
}

static void check_report(const char *out, int excluded)
{
	char *flat = unwrap(out), *want = expected_warning();

	/* the warning, word for word */
	if (!strstr(flat, want))
		fail_msg("no B44 warning \"%s\" in:\n%s", want, out);
	/* the comparison is inconclusive, for that reason */
	assert_non_null(strstr(flat, "running,NM=2 read.iops: inconclusive "
			       "(two performance modes"));
	/* the slow mode is not 4 outliers, listed or dropped */
	assert_null(strstr(flat, "outlier(s) (MAD"));
	assert_null(strstr(flat, "3, 5, 7, 10"));
	assert_null(strstr(flat, "(-0.02%)"));
	/* the row's change is not marked significant, and is marked
	 * inconclusive: "(-8.40%)?", the ratio of geometric means, not
	 * "* -8.40%*" nor a plain "(-8.40%)" (a non-significant change) */
	assert_null(strstr(flat, "(-8.40%) "));
	/* an inconclusive comparison's change has no CI in the table: the
	 * mean's change describes neither mode (it printed -15.5..-0.7) */
	assert_non_null(strstr(flat, "running 2 379750.00 (-8.40%)? n/a "));
	/* the legend says what the mark means */
	assert_non_null(strstr(flat, "\"(-8.40%)?\" inconclusive"));
	/* n stays 10 on both sides: "mean of 10 iterations" */
	assert_non_null(strstr(flat, "mean of 10 iterations"));
	if (excluded)
		assert_non_null(strstr(flat, "a mode is not outliers: "
				       "--exclude-outliers keeps both"));
	free(flat);
	free(want);
}

static void test_b44_report(void **state)
{
	char *out;
	int rc;

	(void)state;
	rc = kbench(&out, "report", "--no-cpu", "--from-json", CASE, NULL,
		    NULL);
	if (rc != 0)
		fail_msg("exit %d:\n%s", rc, out);
	check_report(out, 0);
	free(out);

	rc = kbench(&out, "report", "--no-cpu", "--exclude-outliers",
		    "--from-json", CASE, NULL);
	if (rc != 0)
		fail_msg("--exclude-outliers: exit %d:\n%s", rc, out);
	check_report(out, 1);
	free(out);

	/* the export records the modes and the verdict */
	rc = kbench(&out, "report", "--from-json", CASE, "-f", "json", NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\"iterations\": [\n"));
	assert_non_null(strstr(out, "\"verdict\": \"inconclusive\""));
	free(out);
}

/* B44.results.json as a campaign directory (campaign.json, state.json,
 * runs/CONFIG/JOB/NNN/metrics.json: docs/results-format.md), with
 * order as given. */
static char *campaign_from_case(const char *name, const char *order)
{
	json_t *res = kb_json_load(CASE), *run, *plan = json_array();
	json_t *done = json_object(), *cj, *m;
	char *dir = kb_xasprintf("%s/%s", tmpdir, name), *key, *path;
	size_t i;

	assert_non_null(res);
	json_array_foreach(json_object_get(res, "runs"), i, run) {
		key = kb_run_key(
			json_string_value(json_object_get(run, "configuration")),
			json_string_value(json_object_get(run, "job")),
			json_integer_value(json_object_get(run, "iteration")));
		json_array_append_new(plan, json_string(key));
		json_object_set_new(done, key, json_pack("{s:s}", "status",
							 "ok"));
		path = kb_run_dir(dir, key);
		assert_int_equal(kb_mkdir_p(path), 0);
		free(path);
		path = kb_run_file(dir, key, "metrics.json");
		m = json_pack("{s:s, s:n, s:b, s:O}", "status", "ok", "reason",
			      "warmup", 0, "metrics",
			      json_object_get(run, "metrics"));
		assert_int_equal(kb_json_write_atomic(path, m), 0);
		json_decref(m);
		free(path);
		free(key);
	}
	cj = json_pack("{s:i, s:O, s:O, s:o}", "schema_version", 1,
		       "campaign", json_object_get(res, "campaign"),
		       "configurations", json_object_get(res, "configurations"),
		       "plan", plan);
	json_object_set_new(json_object_get(cj, "campaign"), "order",
			    json_string(order));
	path = kb_path_join(dir, "campaign.json");
	assert_int_equal(kb_json_write_atomic(path, cj), 0);
	free(path);
	json_decref(cj);
	cj = json_pack("{s:i, s:o}", "schema_version", 1, "runs", done);
	path = kb_path_join(dir, "state.json");
	assert_int_equal(kb_json_write_atomic(path, cj), 0);
	free(path);
	json_decref(cj);
	json_decref(res);
	return dir;
}

static void test_b44_compare_exit_125(void **state)
{
	char *dir = campaign_from_case("b44", "interleave"), *a, *b, *out;
	int rc;

	(void)state;
	a = kb_xasprintf("%s:running,NM=0", dir);
	b = kb_xasprintf("%s:running,NM=2", dir);
	rc = kbench(&out, "compare", "--metric=read.iops", a, b, NULL, NULL);
	if (rc != 125)
		fail_msg("bimodal: exit %d, expected 125:\n%s", rc, out);
	assert_non_null(strstr(out, "inconclusive"));
	assert_non_null(strstr(out, "is bimodal"));
	/* no CI beside "inconclusive" (it printed one excluding 0) */
	assert_null(strstr(out, "%, +"));
	assert_null(strstr(out, "%, -"));
	/* the change cell is marked inconclusive, and the legend says so */
	assert_non_null(strstr(out, "%)?  "));
	assert_non_null(strstr(out, "inconclusive (the change of the "
			       "samples"));
	/* one campaign, interleaved: paired by round */
	assert_non_null(strstr(out, "analysis: paired by round"));
	free(out);
	rc = kbench(&out, "compare", "--exclude-outliers",
		    "--metric=read.iops", a, b, NULL);
	assert_int_equal(rc, 125);
	assert_non_null(strstr(out, "10/10"));	/* n: nothing dropped */
	free(out);
	free(a);
	free(b);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b44_report),
		cmocka_unit_test(test_b44_compare_exit_125),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup,
				      tmpdir_teardown);
}
