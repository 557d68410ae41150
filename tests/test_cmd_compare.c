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

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/json_file.h"
#include "results/paths.h"

#define TEST_TMPDIR "/tmp/kbench-test-compare-XXXXXX"
#include "tests/flatten.h"
#include "tests/tmpdir.h"

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
			key = kb_run_key(ids[c], "randread-4k", (long long)i);
			json_array_append_new(plan, json_string(key));
			json_object_set_new(done, key, json_pack("{s:s}",
					    "status", "ok"));
			path = kb_run_dir(dir, key);
			assert_int_equal(kb_mkdir_p(path), 0);
			free(path);
			path = kb_run_file(dir, key, "metrics.json");
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
	char *se = kb_xasprintf("%s/err", tmpdir);
	struct kb_spawn_opts o = { .stdout_path = so, .stderr_path = se };
	struct kb_spawn_result r;
	char *o1, *o2;

	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.exited);
	/* standard error (warnings), then standard output */
	assert_int_equal(kb_read_file(se, &o1, NULL, 0), 0);
	assert_int_equal(kb_read_file(so, &o2, NULL, 0), 0);
	*out = kb_xasprintf("%s%s", o1, o2);
	free(o1);
	free(o2);
	free(so);
	free(se);
	return r.exit_status;
}

static const char *ids1[] = { "stock" };
static const char *ids2[] = { "stock", "patched" };

/* campaign.json "environment" of dir := env (stolen) */
static void set_env(const char *dir, json_t *env)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path);

	assert_non_null(cj);
	json_object_set_new(cj, "environment", env);
	assert_int_equal(kb_json_write_atomic(path, cj), 0);
	json_decref(cj);
	free(path);
}

/* out contains every string of has and none of lacks (NULL-terminated
 * lists, either may be NULL). */
static void says(const char *out, const char *const *has,
		 const char *const *lacks)
{
	for (; has && *has; has++)
		if (!strstr(out, *has))
			fail_msg("no \"%s\" in:\n%s", *has, out);
	for (; lacks && *lacks; lacks++)
		if (strstr(out, *lacks))
			fail_msg("\"%s\" in:\n%s", *lacks, out);
}

/* compare A A (by two paths): what it must and must not say; and a
 * configuration of A against A's baseline (one campaign) */
static const char *const self_has[] = { "compares the campaign",
	"with itself", ":patched (again) vs", NULL };
static const char *const self_lacks[] = { "different campaigns",
	"different environments", "(-", NULL };
static const char *const one_lacks[] = { "different campaigns",
	"with itself", NULL };

/* kbench compare A A: every change 0.00%; exit 0, or 125 when
 * underpowered (max_mde), 0 again with --accept-underpowered. */
static void test_compare_self_and_underpowered(void **state)
{
	const double base[][8] = { { 1000, 1010, 995, 1005, 990 } };
	const double noisy[][8] = { { 1000, 1200, 850, 1150, 900 } };
	const size_t n5[] = { 5 };
	char *a, *z, *out;
	int rc;

	(void)state;
	a = campaign("self", ids1, 1, base, n5);
	z = campaign("noisy", ids1, 1, noisy, n5);

	rc = compare(&out, a, a, NULL, NULL);
	if (rc != 0)
		fail_msg("compare A A: exit %d, expected 0:\n%s", rc, out);
	assert_non_null(strstr(out, "(+0.00%)"));
	assert_null(strstr(out, "(-"));
	assert_non_null(strstr(out, "verdict: no regression (exit 0)"));
	free(out);

	/* one configuration against itself: the same */
	{
		char *one = kb_xasprintf("%s:stock", a);

		rc = compare(&out, one, one, NULL, NULL);
		if (rc != 0 || !strstr(out, "(+0.00%)"))
			fail_msg("compare A:X A:X: exit %d, expected 0 and "
				 "+0.00%%:\n%s", rc, out);
		free(out);
		free(one);
	}

	/* two configurations, the directory given by two paths ("A" and
	 * "A/." name one campaign): each configuration against itself,
	 * every change 0.00%, said to be a campaign compared with itself,
	 * never "different campaigns" */
	{
		const double two[][8] = { { 1000, 1010, 995, 1005, 990 },
					  { 900, 905, 895, 910, 890 } };
		const size_t n55[] = { 5, 5 };
		char *t = campaign("two", ids2, 2, two, n55);
		char *t2 = kb_xasprintf("%s/.", t);
		char *patched = kb_xasprintf("%s:patched", t2);

		rc = compare(&out, t, t2, NULL, NULL);
		if (rc != 0)
			fail_msg("compare A A/.: exit %d, expected 0:\n%s", rc,
				 out);
		says(out, self_has, self_lacks);
		{
			/* every change printed (the cell before its CI) is
			 * +0.00%: 2 configurations x 2 metrics */
			const char *q = out;
			size_t nchg = 0;

			while ((q = strstr(q, "%)  [")) != NULL) {
				assert_memory_equal(q - 6, "(+0.00", 6);
				nchg++;
				q += 4;
			}
			assert_int_equal(nchg, 4);
		}
		{
			/* two tables, the legend under the first only */
			const char *q = strstr(out, "rank p: Wilcoxon");

			assert_non_null(q);
			assert_null(strstr(q + 1, "rank p: Wilcoxon"));
			assert_true(q > strstr(out, ":stock (again) vs"));
			assert_true(q < strstr(out, ":patched (again) vs"));
		}
		free(out);
		/* one configuration of it (by the other path) against its
		 * baseline: two configurations of one campaign, not a
		 * campaign with itself nor two campaigns (-10%: exit 1) */
		rc = compare(&out, t, patched, NULL, NULL);
		assert_int_equal(rc, 1);
		says(out, NULL, one_lacks);
		free(out);
		/* the second table has an inconclusive row (two modes)
		 * and the first none: its "?" explained under it */
		{
			const double bi[][8] = {
				{ 1000, 1010, 995, 1005, 990, 1002, 998, 1001 },
				{ 1000, 1002, 998, 1001, 600, 601, 599, 602 } };
			const size_t n88[] = { 8, 8 };
			char *b2 = campaign("bimodal", ids2, 2, bi, n88);
			const char *q;

			rc = compare(&out, b2, b2, NULL, NULL);
			assert_int_equal(rc, 125);
			flatten(out);
			/* not in the legend under the first table */
			assert_null(strstr(out, "\"(-8.40%)?\" inconclusive"));
			q = strstr(out, ":patched (again) vs");
			assert_non_null(q);
			assert_non_null(strstr(q, "change \"(-8.40%)?\": "
					       "inconclusive"));
			assert_non_null(strstr(q, "(+0.00%)?"));
			free(b2);
		}
		free(t);
		free(t2);
		free(patched);
		free(out);
	}

	/* a max_mde below this campaign's MDE: underpowered, 125 */
	rc = compare(&out, "--max-mde=0.1", a, a, NULL);
	if (rc != 125)
		fail_msg("compare A A --max-mde=0.1: exit %d, expected "
			 "125:\n%s", rc, out);
	assert_non_null(strstr(out, "underpowered"));
	assert_non_null(strstr(out, "(+0.00%)"));
	free(out);
	rc = compare(&out, "--max-mde=0.1", "--accept-underpowered", a, a);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "underpowered and accepted (exit 0)"));
	free(out);
	/* per metric: only read.iops held to 0.1% */
	rc = compare(&out, "--max-mde=read.iops=0.1", "--metric=read.iops",
		     a, a);
	assert_int_equal(rc, 125);
	free(out);

	/* CV about 15%: the default max_mde 5% is not met */
	rc = compare(&out, z, z, NULL, NULL);
	if (rc != 125)
		fail_msg("noisy A A: exit %d, expected 125:\n%s", rc, out);
	assert_non_null(strstr(out, "underpowered"));
	assert_non_null(strstr(out, "minimum detectable effect"));
	{
		/* on the log scale: +U% up is 1/(1+U) - 1 down, not -U% */
		const char *at = strstr(out, "minimum detectable effect +");
		double up = NAN, down = NAN;

		assert_non_null(at);
		assert_int_equal(sscanf(at, "minimum detectable effect +%lf%%/"
					"%lf%%", &up, &down), 2);
		assert_true(up > 5.0);
		assert_true(fabs(down - 100.0 * (1.0 / (1.0 + up / 100.0) -
						 1.0)) < 0.01);
	}
	flatten(out);	/* the advice to accept it, when not accepted */
	says(out, (const char *const[]){ "or quiet the machine, or accept "
		"it (--accept-underpowered)", NULL }, NULL);
	free(out);
	rc = compare(&out, "--accept-underpowered", z, z, NULL);
	assert_int_equal(rc, 0);
	flatten(out);	/* accepted: said, not advised again */
	says(out, (const char *const[]){ "or quiet the machine; accepted "
		"(--accept-underpowered)", NULL }, (const char *const[]){
		"or accept it", NULL });
	free(out);
	/* a regression is a regression, underpowered or not */
	rc = compare(&out, "--accept-underpowered", a, z, NULL);
	assert_true(rc == 0 || rc == 1);
	free(out);

	rc = compare(&out, "--max-mde=x", a, a, NULL);
	assert_int_equal(rc, 2);
	free(out);
	free(a);
	free(z);
}

/* Campaign against campaign: configurations paired by name, not by
 * position; --map NEW=OLD; environments that differ are listed. */
static void test_compare_by_name(void **state)
{
	const double ab[][8] = { { 1000, 1010, 995, 1005, 990 },
				 { 900, 905, 895, 910, 890 } };
	const double ba[][8] = { { 902, 904, 897, 908, 891 },
				 { 1002, 1008, 996, 1004, 992 } };
	const char *rev[] = { "patched", "stock" };
	const char *ren[] = { "stock", "fixed" };
	const size_t n5[] = { 5, 5 };
	char *x, *y, *r, *out;
	int rc;

	(void)state;
	x = campaign("ab", ids2, 2, ab, n5);
	y = campaign("ba", rev, 2, ba, n5);
	r = campaign("renamed", ren, 2, ab, n5);

	/* by position patched (900) would be compared with stock (1000) */
	rc = compare(&out, x, y, NULL, NULL);
	if (rc != 0)
		fail_msg("same names, other order: exit %d, expected 0:\n%s",
			 rc, out);
	if (!strstr(out, "ba:patched vs") ||
	    !strstr(out, "ab:patched (base)"))
		fail_msg("not paired by name:\n%s", out);
	free(out);

	/* "fixed" is not in ab: against its baseline, with a warning */
	rc = compare(&out, x, r, NULL, NULL);
	if (rc != 1 || !strstr(out, "no configuration 'fixed'") ||
	    !strstr(out, "--map fixed=OLD"))
		fail_msg("fixed: exit %d, expected 1 and a warning:\n%s", rc,
			 out);
	free(out);
	rc = compare(&out, "--map=fixed=patched", x, r, NULL);
	if (rc != 0)
		fail_msg("--map fixed=patched: exit %d, expected 0:\n%s", rc,
			 out);
	assert_non_null(strstr(out, "ab:patched (base)"));
	assert_null(strstr(out, "no configuration 'fixed'"));
	free(out);
	/* a --map naming nothing: an error */
	rc = compare(&out, "--map=fixed=nosuch", x, r, NULL);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "no configuration 'nosuch'"));
	free(out);
	/* which side names nothing, or that they are swapped */
	rc = compare(&out, "--map=nosuch=stock", x, r, NULL);
	assert_int_equal(rc, 2);
	says(out, (const char *const[]){ "--map nosuch=stock: NEW (before "
		"'=') is no configuration or variant of", "renamed has:", NULL },
		NULL);
	free(out);
	rc = compare(&out, "--map=patched=fixed", x, r, NULL);
	assert_int_equal(rc, 2);
	says(out, (const char *const[]){ "--map patched=fixed: the other way "
		"round? give --map fixed=patched", NULL }, NULL);
	free(out);
	rc = compare(&out, "--map=nosuch=nothing", x, r, NULL);
	assert_int_equal(rc, 2);
	says(out, (const char *const[]){ "--map nosuch=nothing: neither side "
		"names anything", NULL }, NULL);
	free(out);
	rc = compare(&out, "--map=fixed", x, r, NULL);
	assert_int_equal(rc, 2);
	free(out);
	/* a --metric neither has: the error alone, before the pairing's
	 * warnings (fixed unmapped) */
	rc = compare(&out, "--metric=read.iopz", x, r, NULL);
	assert_int_equal(rc, 2);
	says(out, (const char *const[]){ "--metric 'read.iopz': no such "
		"metric in these results; did you mean 'read.iops'?", NULL },
		(const char *const[]){ "no configuration 'fixed'", NULL });
	free(out);
	/* a control byte in the name is shown as '?', not echoed raw */
	rc = compare(&out, "--metric=read\x1b[2J.iops", x, r, NULL);
	assert_int_equal(rc, 2);
	says(out, (const char *const[]){ "--metric 'read?[2J.iops': no such "
		"metric", NULL }, (const char *const[]){ "\x1b", NULL });
	free(out);
	/* a renamed variant: one --map VARIANT=OLD for all its tunable
	 * values (fixed,NM=1 against stock,NM=1, not the baseline) */
	{
		const char *sv[] = { "stock,NM=0", "stock,NM=1" };
		const char *fv[] = { "fixed,NM=0", "fixed,NM=1" };
		char *vs = campaign("vstock", sv, 2, ab, n5);
		char *vf = campaign("vfixed", fv, 2, ab, n5);

		rc = compare(&out, vs, vf, NULL, NULL);
		flatten(out);
		assert_int_equal(rc, 1);	/* 900 against 1000 */
		says(out, (const char *const[]){ "no configuration "
			"'fixed,NM=1' (give --map fixed,NM=1=OLD to name the "
			"one to compare with; --map VARIANT=OLD maps every "
			"configuration of a renamed variant)", NULL }, NULL);
		free(out);
		rc = compare(&out, "--map=fixed=stock", vs, vf, NULL);
		if (rc != 0)
			fail_msg("--map fixed=stock: exit %d, expected 0:\n%s",
				 rc, out);
		says(out, (const char *const[]){ "vstock:stock,NM=1 (base)",
			NULL }, (const char *const[]){ "no configuration",
			NULL });
		free(out);
		/* two --map of one variant: an error, as two of one
		 * configuration are (the first was taken, the second
		 * ignored in silence: a break-it trial) */
		{
			const char *s2[] = { "stock,NM=0", "stock,NM=1",
					     "old,NM=0", "old,NM=1" };
			const double i4[][8] = {
				{ 1000, 1010, 995, 1005, 990 },
				{ 900, 905, 895, 910, 890 },
				{ 1000, 1010, 995, 1005, 990 },
				{ 900, 905, 895, 910, 890 } };
			const size_t n4[] = { 5, 5, 5, 5 };
			char *two = campaign("vtwo", s2, 4, i4, n4);

			rc = compare(&out, "--map=fixed=stock", "--map=fixed=old",
				     two, vf);
			assert_int_equal(rc, 2);
			says(out, (const char *const[]){ "--map fixed=stock "
				"and --map fixed=old: fixed,NM=0 is mapped "
				"twice, to stock,NM=0 and to old,NM=0; give one "
				"--map per variant", NULL }, (const char *const[]){
				"verdict:", NULL });
			free(out);
			free(two);
		}
		free(vs);
		free(vf);
	}
	/* NEW as DIR:CONFIGURATION against another campaign: the
	 * same-named configuration, else the baseline with a warning */
	{
		char *yp = kb_xasprintf("%s:patched", y);
		char *rf = kb_xasprintf("%s:fixed", r);

		rc = compare(&out, x, yp, NULL, NULL);
		if (rc != 0 || !strstr(out, "ab:patched (base)") ||
		    strstr(out, "no configuration"))
			fail_msg("%s: exit %d, expected 0 against ab:patched:"
				 "\n%s", yp, rc, out);
		free(out);
		rc = compare(&out, x, rf, NULL, NULL);
		if (!strstr(out, "no configuration 'fixed'") ||
		    !strstr(out, "ab:stock (base)"))
			fail_msg("%s: expected the baseline with a warning:"
				 "\n%s", rf, out);
		free(out);
		/* a --map of NEW's configuration: read */
		rc = compare(&out, "--map=fixed=patched", x, rf, NULL);
		if (rc != 0 || !strstr(out, "ab:patched (base)"))
			fail_msg("--map fixed=patched %s: exit %d, expected 0 "
				 "against ab:patched:\n%s", rf, rc, out);
		free(out);
		/* a --map of another configuration of NEW's campaign:
		 * nothing would read it, an error (a break-it trial: it
		 * was accepted and ignored) */
		rc = compare(&out, "--map=stock=patched", x, rf, NULL);
		assert_int_equal(rc, 2);
		flatten(out);
		says(out, (const char *const[]){ "--map stock=patched: NEW ",
			":fixed is one configuration, which this --map does "
			"not map (only fixed is compared; give NEW as ", NULL },
			(const char *const[]){ "verdict", NULL });
		free(out);
		free(yp);
		free(rf);
	}
	/* a configuration id holding ':' (a tunable value a:b): DIR is
	 * cut before the ':' that ends a directory, not the last one (a
	 * break-it trial: "no campaign directory DIR:stock,RW=a") */
	{
		const char *colon_ids[] = { "stock,RW=c", "stock,RW=a:b" };
		char *k = campaign("colon", colon_ids, 2, ab, n5);
		char *kb = kb_xasprintf("%s:stock,RW=c", k);
		char *kn = kb_xasprintf("%s:stock,RW=a:b", k);

		rc = compare(&out, kb, kn, NULL, NULL);
		if (rc != 1 || !strstr(out, "colon:stock,RW=a:b vs"))
			fail_msg("%s %s: exit %d, expected 1:\n%s", kb, kn,
				 rc, out);
		free(out);
		free(kn);
		free(kb);
		free(k);
	}
	/* one campaign, NEW one configuration of it: a VARIANT=OLD --map
	 * pairs patched,NM=1 with stock,NM=1, not with the baseline (it
	 * was read without BASE's configurations, so never found) */
	{
		const char *v3[] = { "stock,NM=0", "stock,NM=1",
				     "patched,NM=1", "patched,NM=2" };
		const double i3[][8] = { { 1000, 1010, 995, 1005, 990 },
					 { 900, 905, 895, 910, 890 },
					 { 902, 904, 897, 908, 891 },
					 { 902, 904, 897, 908, 891 } };
		const size_t n3[] = { 5, 5, 5, 5 };
		char *v = campaign("v3", v3, 4, i3, n3);
		char *vp = kb_xasprintf("%s:patched,NM=1", v);

		rc = compare(&out, "--map=patched=stock", v, vp, NULL);
		if (rc != 0 || !strstr(out, "v3:stock,NM=1 (base)"))
			fail_msg("--map patched=stock V V:patched,NM=1: exit "
				 "%d, expected 0 against stock,NM=1:\n%s", rc,
				 out);
		free(out);
		free(vp);
		/* NEW's variant mapped, but BASE without OLD of its values:
		 * said so, not "a --map of another configuration" */
		vp = kb_xasprintf("%s:patched,NM=2", v);
		rc = compare(&out, "--map=patched=stock", v, vp, NULL);
		assert_int_equal(rc, 2);
		flatten(out);
		says(out, (const char *const[]){ "--map patched=stock: ",
			"v3 has no configuration 'stock,NM=2' to compare NEW ",
			"(give --map patched,NM=2=OLD to name one)", NULL },
			(const char *const[]){ "does not map", NULL });
		free(out);
		free(vp);
		free(v);
	}
	/* two --map of one campaign pairing two configurations both ways:
	 * one comparison twice in the Benjamini-Hochberg family, its
	 * direction (so the verdict) unknown: an error (a break-it trial);
	 * between two campaigns the same two --map are a swap */
	rc = compare(&out, "--map=patched=stock", "--map=stock=patched", x, x);
	assert_int_equal(rc, 2);
	flatten(out);
	says(out, (const char *const[]){ "--map stock=patched and --map "
		"patched=stock pair stock and patched of ", "both ways (each "
		"against the other): one comparison, counted twice", NULL },
		(const char *const[]){ "verdict:", "Benjamini", NULL });
	free(out);
	rc = compare(&out, "--map=patched=stock", "--map=stock=patched", x, y);
	assert_int_equal(rc, 1);	/* ba:patched 902 against ab:stock */
	says(out, (const char *const[]){ "ba:patched vs", "ab:stock (base)",
		NULL }, (const char *const[]){ "both ways", NULL });
	free(out);

	/* environments */
	set_env(x, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:n}",
		"governor", "performance", "cpu_model", "Xeon", "memory_total",
		"MemTotal: 100 kB", "fio_version", "fio-3.36", "cmdline",
		"BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda quiet", "smt", "on",
		"boost"));
	set_env(y, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
		"governor", "powersave", "cpu_model", "Xeon", "memory_total",
		"MemTotal: 100 kB", "fio_version", "fio-3.36", "cmdline",
		"BOOT_IMAGE=/vmlinuz-6.2 root=/dev/vda quiet", "smt", "off",
		"boost", "1", "epp", "performance"));
	rc = compare(&out, x, y, NULL, NULL);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "different environments"));
	assert_non_null(strstr(out, "governor: \"performance\""));
	assert_non_null(strstr(out, "smt: \"on\""));
	/* turbo/boost/EPP/SMT only when both campaigns recorded them */
	assert_null(strstr(out, "boost:"));
	assert_null(strstr(out, "epp:"));
	assert_null(strstr(out, "cpu_model:"));
	assert_null(strstr(out, "cmdline:"));	/* BOOT_IMAGE= only */
	free(out);
	set_env(y, json_pack("{s:s, s:s, s:s, s:s, s:s}", "governor",
		"performance", "cpu_model", "Xeon", "memory_total",
		"MemTotal: 100 kB", "fio_version", "fio-3.36", "cmdline",
		"BOOT_IMAGE=/vmlinuz-6.2 root=/dev/vda quiet mitigations=off"));
	rc = compare(&out, x, y, NULL, NULL);
	assert_non_null(strstr(out, "cmdline:"));
	assert_null(strstr(out, "governor:"));
	/* the words that differ, not both lines; none on one side is not
	 * "only in A: (nothing)" (a break-it trial) */
	says(out, (const char *const[]){ "cmdline: only in", "ba: "
		"mitigations=off\n", NULL }, (const char *const[]){
		"root=/dev/vda", "(nothing)", "; only in", NULL });
	free(out);
	/* words on both sides; the same words reordered (the last of a
	 * word given twice wins); none recorded on one side, as the other
	 * keys say it */
	{
		static const struct {
			const char *cmdline;	/* NULL: none recorded */
			const char *has, *lacks;
		} cl[] = {
			{ "root=/dev/vda mitigations=off",
			  "cmdline: only in %s: quiet; only in %s: "
			  "mitigations=off\n", "(nothing)" },
			{ "quiet root=/dev/vda", "cmdline: the same words, in "
			  "another order or repeated: \"root=/dev/vda quiet\" "
			  "in %s, \"quiet root=/dev/vda\" in %s\n",
			  "(nothing)" },
			{ NULL, "cmdline: \"root=/dev/vda quiet\" in %s, not "
			  "recorded in %s\n", "only in" },
		};
		size_t k;

		for (k = 0; k < sizeof(cl) / sizeof(cl[0]); k++) {
			char *want = kb_xasprintf(cl[k].has, x, y);

			set_env(y, json_pack("{s:s, s:s, s:s, s:s, s:s?}",
				"governor", "performance", "cpu_model", "Xeon",
				"memory_total", "MemTotal: 100 kB",
				"fio_version", "fio-3.36", "cmdline",
				cl[k].cmdline));
			rc = compare(&out, x, y, NULL, NULL);
			assert_int_equal(rc, 0);
			says(out, (const char *const[]){ want, NULL },
			     (const char *const[]){ cl[k].lacks, NULL });
			free(out);
			free(want);
		}
	}
	/* memory within 1% is the same machine (two kernels reserve a
	 * little differently); 2% is not; a null governor is "not
	 * recorded" */
	set_env(y, json_pack("{s:n, s:s, s:s, s:s, s:s}", "governor",
		"cpu_model", "Xeon", "memory_total", "MemTotal: 100.5 kB",
		"fio_version", "fio-3.36", "cmdline",
		"BOOT_IMAGE=/vmlinuz-6.2 root=/dev/vda quiet"));
	rc = compare(&out, x, y, NULL, NULL);
	says(out, (const char *const[]){ "governor: \"performance\" in",
		"not recorded in", NULL }, (const char *const[]){
		"memory_total", "null", NULL });
	free(out);
	set_env(y, json_pack("{s:s, s:s, s:s, s:s, s:s}", "governor",
		"performance", "cpu_model", "Xeon", "memory_total",
		"MemTotal: 102 kB", "fio_version", "fio-3.36", "cmdline",
		"BOOT_IMAGE=/vmlinuz-6.2 root=/dev/vda quiet"));
	rc = compare(&out, x, y, NULL, NULL);
	says(out, (const char *const[]){ "memory_total: \"MemTotal: 100 kB"
		"\" in", NULL }, NULL);
	free(out);
	/* no environment recorded: said, not skipped in silence */
	set_env(y, json_string("x"));
	rc = compare(&out, x, y, NULL, NULL);
	says(out, (const char *const[]){ "ba records no environment", NULL },
	     NULL);
	free(out);
	/* an unfinished campaign (a run of its plan not in state.json):
	 * said, with how to resume it */
	{
		char *sp = kb_path_join(y, "state.json");
		json_t *st = kb_json_load(sp);
		char *key = kb_run_key("stock", "randread-4k", 5);

		assert_non_null(st);
		assert_int_equal(json_object_del(json_object_get(st, "runs"),
						 key), 0);
		assert_int_equal(kb_json_write_atomic(sp, st), 0);
		json_decref(st);
		free(key);
		free(sp);
	}
	rc = compare(&out, x, y, NULL, NULL);
	says(out, (const char *const[]){ "ba is unfinished: 11 of 12 runs "
		"done (kbench run -o", NULL }, (const char *const[]){
		"ab is unfinished", NULL });
	free(out);

	free(x);
	free(y);
	free(r);
}

/* The timed runs 1..n of configuration cfg of the campaign dir failed
 * (metrics.json status "failed", fio's exit status the reason). */
static void fail_runs(const char *dir, const char *cfg, size_t n)
{
	char *p, *key;
	json_t *m;
	size_t i;

	for (i = 1; i <= n; i++) {
		key = kb_run_key(cfg, "randread-4k", (long long)i);
		p = kb_run_file(dir, key, "metrics.json");
		m = json_pack("{s:s, s:s, s:{}}", "status", "failed", "reason",
			      "fio exited with status 1", "metrics");
		assert_int_equal(kb_json_write_atomic(p, m), 0);
		json_decref(m);
		free(p);
		free(key);
	}
}

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

	/* an alpha no p of 5 runs reaches: its "no difference" could not
	 * have seen the -10%, so underpowered, not "good" (a break-it
	 * trial: 1 - alpha/2 rounded to 1, the MDE was lost and the
	 * verdict exit 0); past any double the MDE is said infinite */
	rc = compare(&out, "--alpha", "1e-20", a, r);
	if (rc != 125)
		fail_msg("--alpha 1e-20, 10%% slower: exit %d, expected "
			 "125:\n%s", rc, out);
	flatten(out);
	says(out, (const char *const[]){ "underpowered: no significant "
		"difference, but the minimum detectable effect +", NULL },
		(const char *const[]){ "no regression (exit 0)", NULL });
	free(out);
	rc = compare(&out, "--alpha", "1e-300", a, r);
	assert_int_equal(rc, 125);
	flatten(out);
	says(out, (const char *const[]){ "minimum detectable effect "
		"infinite (80% power", NULL }, NULL);
	free(out);

	/* wild values (1e-30 IOPS beside 1000): the CI's bounds as the
	 * report caps them, the MDE and CV in three digits, not hundreds
	 * of digits cut where the line's buffer ended (a break-it trial) */
	{
		const double wild[][8] = { { 1e-30, 1000, 1e-30, 1000,
					     1e-30 } };
		char *w = campaign("wild", ids1, 1, wild, n5);

		rc = compare(&out, a, w, NULL, NULL);
		flatten(out);
		says(out, (const char *const[]){ ">+9999%]", "e+", NULL },
		     (const char *const[]){ "00000000000000000000", NULL });
		free(out);
		free(w);
	}

	/* --map beside BASE DIR:CONFIGURATION: nothing would read it, an
	 * error, not ignored (a break-it trial: patched went on against
	 * stock whatever the map said) */
	arg = kb_xasprintf("%s:stock", a);
	rc = compare(&out, "--map", "patched=stock", arg, t);
	assert_int_equal(rc, 2);
	flatten(out);
	says(out, (const char *const[]){ "--map patched=stock: BASE ",
		":stock is one configuration, which every configuration of "
		"NEW is compared with", NULL },
		(const char *const[]){ "verdict", NULL });
	free(out);
	free(arg);

	/* constant samples: an MDE of 0 says its down side signed as the
	 * rest do, "+0.00%/-0.00%", not "+0.00%/0.00%" (a break-it trial) */
	{
		const double flat[][8] = { { 1000, 1000, 1000, 1000, 1000 } };
		char *x = campaign("flat1", ids1, 1, flat, n5);
		char *y = campaign("flat2", ids1, 1, flat, n5);

		rc = compare(&out, "-m", "read.iops", x, y);
		assert_int_equal(rc, 0);
		flatten(out);
		says(out, (const char *const[]){ "minimum detectable effect "
			"+0.00%/-0.00% (80% power", NULL }, NULL);
		free(out);
		free(x);
		free(y);
	}

	/* n = 1: cannot decide (git bisect skip) */
	rc = compare(&out, u, s, NULL, NULL);
	if (rc != 125)
		fail_msg("n=1: exit %d, expected 125:\n%s", rc, out);
	assert_non_null(strstr(out, "insufficient samples"));
	/* the side with n = 5 keeps its CV beside the n/a of n = 1 */
	assert_non_null(strstr(out, " 1/5 "));
	assert_non_null(strstr(out, "n/a/"));
	says(out, (const char *const[]){ "verdict: undecidable:\n    2 "
		"comparison(s) with insufficient samples (n < 2 on a side);",
		NULL }, (const char *const[]){ "inconclusive", NULL });
	free(out);

	/* n = 1 in one configuration, an underpowered "no difference" in
	 * the other: the verdict counts both (a break-it trial: the
	 * underpowered one went unsaid beside the insufficient one) */
	{
		const double mixed[][8] = { { 1000 },
					    { 1002, 998, 1007, 993, 1001 } };
		const size_t n15[] = { 1, 5 };
		char *x = campaign("mixed", ids2, 2, mixed, n15);

		rc = compare(&out, "--max-mde", "0.1", a, x);
		assert_int_equal(rc, 125);
		flatten(out);
		says(out, (const char *const[]){ "verdict: undecidable: 2 "
			"comparison(s) with insufficient samples (n < 2 on a "
			"side), 2 underpowered (minimum detectable effect "
			"above max_mde); no regression (exit 125)", NULL },
			NULL);
		free(out);
		rc = compare(&out, "--accept-underpowered", "--max-mde=0.1",
			     a, x);
		assert_int_equal(rc, 125);
		flatten(out);
		says(out, (const char *const[]){ "2 underpowered (minimum "
			"detectable effect above max_mde; accepted); no "
			"regression (exit 125)", NULL }, NULL);
		free(out);
		free(x);
	}

	/* every counted run of a campaign failed: said with the first
	 * reason; the analysis of two campaigns is unpaired even when a
	 * side has no value */
	{
		char *x = campaign("failed", ids1, 1, same, n5), *p;
		char *y = campaign("interleaved", ids1, 1, base, n5);
		json_t *m;
		size_t i;

		/* both interleaved: a side of one campaign would pair */
		for (i = 0; i < 2; i++) {
			p = kb_path_join(i ? y : x, "campaign.json");
			m = kb_json_load(p);
			assert_non_null(m);
			json_object_set_new(json_object_get(m, "campaign"),
					    "order", json_string("interleave"));
			assert_int_equal(kb_json_write_atomic(p, m), 0);
			json_decref(m);
			free(p);
		}

		fail_runs(x, "stock", 5);
		rc = compare(&out, y, x, NULL, NULL);
		assert_int_equal(rc, 125);
		flatten(out);	/* the analysis note wraps */
		says(out, (const char *const[]){ "failed: 5 of 5 counted "
			"run(s) failed, left out of the comparison (the first: "
			"fio exited with status 1;", "come from different "
			"campaigns: unpaired", NULL }, (const char *const[]){
			"paired by round", NULL });
		free(out);
		free(x);
		free(y);
	}
	/* two configurations of one campaign (A:stock A:patched): the
	 * failed runs of NEW's are said too, not only BASE's (a break-it
	 * trial: patched's 3 failed runs went unsaid) */
	{
		char *x = campaign("failed2", ids2, 2, two, n5);
		char *bs = kb_xasprintf("%s:stock", x);
		char *nw = kb_xasprintf("%s:patched", x);

		char *key = kb_run_key("stock", "randread-4k", 2);
		char *mj = kb_run_file(x, key, "metrics.json");
		const char *p;
		int nsaid = 0;
		FILE *fm;

		fail_runs(x, "patched", 3);
		/* a damaged metrics.json: said once, the directory read
		 * once for both sides (a break-it trial: twice) */
		fm = fopen(mj, "w");
		assert_non_null(fm);
		fputs("{not json", fm);
		assert_int_equal(fclose(fm), 0);
		rc = compare(&out, bs, nw, NULL, NULL);
		flatten(out);
		says(out, (const char *const[]){ ":patched: 3 of 5 counted "
			"run(s) failed, left out of the comparison (the first: "
			"fio exited with status 1;", NULL },
			(const char *const[]){ ":stock: 0 of", NULL });
		for (p = out; (p = strstr(p, "expected near 'not'")); p++)
			nsaid++;
		if (nsaid != 1)
			fail_msg("the damaged run named %d times:\n%s", nsaid,
				 out);
		free(out);
		free(mj);
		free(key);
		free(bs);
		free(nw);
		free(x);
	}

	/* configurations inside one campaign: DIR:CONFIG */
	arg = kb_xasprintf("%s:patched", t);
	rc = compare(&out, t, arg, NULL, NULL);
	assert_int_equal(rc, 1);
	free(out);
	/* --format json: the same verdict, as JSON on standard output */
	{
		char *so = kb_xasprintf("%s/out", tmpdir);
		json_t *doc, *e, *row = NULL;
		size_t i;

		rc = compare(&out, "--format=json", t, arg, NULL);
		assert_int_equal(rc, 1);
		doc = kb_json_load(so);	/* standard output alone */
		assert_non_null(doc);
		e = json_object_get(doc, "verdict");
		assert_string_equal(json_string_value(json_object_get(e,
				    "verdict")), "regression");
		assert_int_equal(json_integer_value(json_object_get(e,
				 "exit")), 1);
		json_array_foreach(json_object_get(doc, "comparisons"), i, e)
			if (!strcmp(json_string_value(json_object_get(e,
				    "metric")) ?: "", "read.iops"))
				row = e;
		assert_non_null(row);
		assert_string_equal(json_string_value(json_object_get(row,
				    "verdict")), "regression");
		assert_null(strstr(out, "verdict: "));	/* no text */
		json_decref(doc);
		free(so);
		free(out);
		rc = compare(&out, "--format=xml", t, arg, NULL);
		assert_int_equal(rc, 2);
		free(out);
	}
	/* a larger minimum effect hides the 10% change */
	rc = compare(&out, "--min-effect=15", t, arg, NULL);
	assert_int_equal(rc, 0);
	/* and says why a p that small is no difference */
	flatten(out);	/* the notes are wrapped */
	says(out, (const char *const[]){ "read.iops: no significant "
		"difference: p adj ", "but the change is smaller than the "
		"minimum effect (|-10.00%| < minimum effect 15%)", NULL },
		NULL);
	free(out);
	/* --exclude-outliers lists what it left out, per side */
	{
		const double wild[][8] = { { 900, 905, 895, 910, 2000 } };
		char *w = campaign("wild", ids1, 1, wild, n5);

		rc = compare(&out, "--exclude-outliers", a, w, NULL);
		flatten(out);
		says(out, (const char *const[]){ "read.iops: left out in new "
			"(--exclude-outliers): iteration 5 (2000)", NULL },
			(const char *const[]){ "left out in base", NULL });
		free(out);
		free(w);
	}
	/* only one metric compared */
	rc = compare(&out, "--metric=read.clat_p99_ns", a, r, NULL);
	assert_int_equal(rc, 1);
	assert_null(strstr(out, "read.iops "));
	free(out);
	/* a wrong --metric is an error (2) with a hint, not exit 125 ("no
	 * metric in common") nor, empty, the default metrics */
	{
		static const struct {
			const char *opt, *says;
		} bad[] = {
			{ "--metric=READ.IOPS", "--metric 'READ.IOPS': no such "
			  "metric in these results; did you mean 'read.iops'?" },
			/* a part of one name */
			{ "--metric=iops", "--metric 'iops': no such metric in "
			  "these results; did you mean 'read.iops'?" },
			{ "--metric=write.iops", "--metric 'write.iops': no run "
			  "in these results has a value for it; did you mean "
			  "'read.iops'?" },
			{ "--metric=", "--metric '': an empty name" },
			/* kernels.conf's "did you mean" on the command
			 * line too (a break-it trial) */
			{ "--min-effect=READ.IOPS=3", "--min-effect "
			  "READ.IOPS=3: no metric 'READ.IOPS' (did you mean "
			  "'read.iops'?)" },
			/* a name left out of a list (a new user's trial:
			 * `-f text,` passed) */
			{ "--metric=read.iops,", "--metric 'read.iops,': an "
			  "empty name (expected NAME[,NAME...]" },
			/* blanks around an item are not part of it (a
			 * break-it trial: ' iops' named unquoted), one of
			 * blanks only is an empty name */
			{ "--metric=read.iops, iops ", "--metric 'iops': no "
			  "such metric in these results; did you mean "
			  "'read.iops'?" },
			{ "--metric=read.iops, ,read.iops", "--metric "
			  "'read.iops, ,read.iops': an empty name" },
			{ "--metrc=read.iops", "did you mean '--metric'? see "
			  "'kbench compare --help'" },
			/* a probability: 0.5% was read as 0.5 (a break-it
			 * trial) */
			{ "--alpha=0.5%", "--alpha 0.5%: a probability, not a "
			  "percentage (e.g. 0.05 for 5%)" },
			/* decimal numbers only (lib/str.h kb_parse_real()):
			 * a hex float was read (a break-it trial) */
			{ "--min-effect=0x1p-3", "--min-effect 0x1p-3: "
			  "expected PCT or METRIC=PCT" },
			{ "--max-mde=read.iops=0x10", "--max-mde "
			  "read.iops=0x10: expected PCT or METRIC=PCT" },
			{ "--alpha=0x1p-5", "--alpha 0x1p-5: expected a "
			  "number" },
			{ "--min-effect=1e-320", "--min-effect 1e-320: "
			  "expected PCT or METRIC=PCT" },
		};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			rc = compare(&out, bad[i].opt, a, r, NULL);
			assert_int_equal(rc, 2);
			says(out, (const char *const[]){ bad[i].says, NULL },
			     NULL);
			free(out);
		}
		/* an abbreviation getopt_long resolved, its value missing:
		 * getopt's message, no "did you mean" the same option */
		rc = compare(&out, a, r, "--metr", NULL);
		assert_int_equal(rc, 2);
		says(out, (const char *const[]){ "requires an argument",
			"see 'kbench compare --help'", NULL },
		     (const char *const[]){ "did you mean", NULL });
		free(out);
	}
	/* blanks around an item trimmed: " read.iops " is read.iops,
	 * given twice, compared once */
	rc = compare(&out, "--metric= read.iops ,read.iops", a, r, NULL);
	assert_int_not_equal(rc, 2);
	assert_non_null(strstr(out, "read.iops"));
	assert_null(strstr(out, "error"));
	free(out);
	free(arg);

	/* a job only one side ran: said and left out, not rows of
	 * "insufficient samples" that make the verdict undecidable */
	{
		char *w = campaign("withjob", ids1, 1, same, n5);
		char *cjp = kb_path_join(w, "campaign.json");
		json_t *cj = kb_json_load(cjp);
		size_t i;

		assert_non_null(cj);
		json_array_append_new(json_object_get(json_object_get(cj,
			"campaign"), "jobs"), json_string("buffered-write"));
		for (i = 0; i < 3; i++) {
			char *key = kb_run_key("stock", "buffered-write",
					       (long long)i);
			char *rd = kb_run_dir(w, key);
			char *mp = kb_run_file(w, key, "metrics.json");
			json_t *m = json_pack("{s:s, s:n, s:{s:f}}", "status",
				"ok", "reason", "metrics", "read.iops",
				500.0 + (double)i);

			json_array_append_new(json_object_get(cj, "plan"),
					      json_string(key));
			assert_int_equal(kb_mkdir_p(rd), 0);
			assert_int_equal(kb_json_write_atomic(mp, m), 0);
			json_decref(m);
			free(mp);
			free(rd);
			free(key);
		}
		assert_int_equal(kb_json_write_atomic(cjp, cj), 0);
		json_decref(cj);
		free(cjp);
		/* recorded done, as kbench run would */
		cjp = kb_path_join(w, "state.json");
		cj = kb_json_load(cjp);
		assert_non_null(cj);
		for (i = 0; i < 3; i++) {
			char *key = kb_run_key("stock", "buffered-write",
					       (long long)i);

			json_object_set_new(json_object_get(cj, "runs"), key,
					    json_pack("{s:s}", "status", "ok"));
			free(key);
		}
		assert_int_equal(kb_json_write_atomic(cjp, cj), 0);
		json_decref(cj);
		free(cjp);
		rc = compare(&out, a, w, NULL, NULL);
		if (rc != 0)
			fail_msg("a job only in NEW: exit %d, expected 0:\n%s",
				 rc, out);
		assert_non_null(strstr(out, "job buffered-write: only in "));
		assert_null(strstr(out, "buffered-write: "
				    "stock"));	/* no table of it */
		assert_null(strstr(out, "insufficient samples"));
		free(out);
		free(w);
	}

	/* errors: exit 2 */
	arg = kb_xasprintf("%s:nosuch", t);
	rc = compare(&out, a, arg, NULL, NULL);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "no configuration 'nosuch'"));
	free(out);
	free(arg);
	rc = compare(&out, a, "/nonexistent/dir", NULL, NULL);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "/nonexistent/dir: not a campaign "
			       "directory (No such file or directory;"));
	free(out);
	/* an unset variable: said so (it read "error: : not a campaign
	 * directory") */
	rc = compare(&out, a, "", NULL, NULL);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "an empty argument where a campaign was "
			       "expected"));
	free(out);
	rc = compare(&out, a, NULL, NULL, NULL);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "1 given"));
	free(out);
	rc = compare(&out, a, a, a, NULL);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "3 given"));
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

/* The recorded demo campaign (running x NM = 0 1 2, 3 timed runs). */
#define DEMO "tests/data/push/demo"

/* kbench compare DEMO:running,NM=1 DEMO: NM=1 paired with itself beside
 * NM=0 and NM=2 against it is left out, said once; its 0.00% neither
 * joins the Benjamini-Hochberg family (4 comparisons, not 6: p adj
 * 0.439, not 0.659) nor the underpowered count (a new user's trial).
 * Every pair with itself (DEMO:X DEMO:X) is still compare A A; a --map
 * of DEMO DEMO is still the campaign with itself. */
static void test_compare_self_left_out(void **state)
{
	const char *left = DEMO ":running,NM=1: compared with itself, "
			   "left out";
	char *out;
	const char *q;
	int rc;

	(void)state;
	rc = compare(&out, DEMO ":running,NM=1", DEMO, NULL, NULL);
	if (rc != 125)
		fail_msg("compare A:X A: exit %d, expected 125:\n%s", rc, out);
	q = strstr(out, left);
	if (!q || strstr(q + 1, left))
		fail_msg("\"%s\" not said once:\n%s", left, out);
	says(out, (const char *const[]){ ":running,NM=0 vs",
		":running,NM=2 vs", NULL }, (const char *const[]){
		"(again)", "with itself: each", NULL });
	flatten(out);
	says(out, (const char *const[]){ "Benjamini-Hochberg over the 4 "
		"comparison(s)", "verdict: undecidable: 4 comparison(s) "
		"underpowered", "read.iops 0.439 ", NULL },
		(const char *const[]){ "0.659", NULL });
	free(out);

	rc = compare(&out, DEMO ":running,NM=1", DEMO ":running,NM=1", NULL,
		     NULL);
	assert_true(rc == 0 || rc == 125);
	says(out, (const char *const[]){ "(+0.00%)", "with itself: each",
		NULL }, (const char *const[]){ "left out", NULL });
	free(out);

	/* a --map that names nothing of compare A A: A's configurations
	 * listed once (they were twice) */
	rc = compare(&out, "--map=running,NM=1=nosuch", DEMO, DEMO, NULL);
	assert_int_equal(rc, 2);
	q = strstr(out, DEMO " has: running,NM=0 running,NM=1 running,NM=2");
	if (!q || strstr(q + 1, DEMO " has:"))
		fail_msg("the configurations not listed once:\n%s", out);
	free(out);

	/* --map of compare A A: still said to be the campaign with itself
	 * (the line was lost), the unmapped NM=0 and NM=2 left out */
	rc = compare(&out, "--map=running,NM=1=running,NM=0", DEMO, DEMO,
		     NULL);
	assert_int_equal(rc, 125);
	flatten(out);
	says(out, (const char *const[]){ "this compares the campaign "
		DEMO " with itself: the configurations --map pairs with "
		"others of it", ":running,NM=1 vs " DEMO ":running,NM=0 (base)",
		DEMO ":running,NM=2: compared with itself, left out: no --map "
		"pairs it with another configuration of " DEMO " (give --map "
		"running,NM=2=OLD to compare it)", NULL },
		(const char *const[]){ "(again)", "compares each configuration "
		"with itself)", ":running,NM=0: compared with itself", NULL });
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_compare_self_and_underpowered),
		cmocka_unit_test(test_compare_by_name),
		cmocka_unit_test(test_compare_self_left_out),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup,
				      tmpdir_teardown);
}
