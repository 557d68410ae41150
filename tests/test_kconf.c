/* tests/test_kconf.c - kernels.conf parser (parsers/kconf.c).
 *
 * Run from the repository root: the valid cases read tests/data/kconf/
 * and the example kernels.conf; the error cases parse inline text named
 * "bad.conf" so the expected line numbers can be read off the test.
 * stderr is captured (dup2 onto a temporary file) to check the
 * "FILE:LINE: " of every message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/capture.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "parsers/kconf.h"
#include "runner/plan.h"

#define DATA "tests/data/kconf/"


static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Parse text as "bad.conf"; return the code, *msg = stderr output. */
static int parse_text(const char *text, struct kb_config *cfg, char **msg)
{
	struct capture c;
	int ret;

	cap_begin(&c);
	ret = kconf_parse("bad.conf", text, cfg);
	*msg = cap_end(&c);
	return ret;
}

/* Expect -EINVAL, exactly nerr messages, one containing want. */
static void expect_errors(const char *text, int nerr, const char *want)
{
	struct kb_config cfg;
	char *msg;
	int ret;

	ret = parse_text(text, &cfg, &msg);
	if (!strstr(msg, want) || count_lines(msg) != nerr)
		print_error("wanted %d message(s) with \"%s\", got:\n%s", nerr,
			    want, msg);
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(msg, want));
	assert_int_equal(count_lines(msg), nerr);
	/* a failed parse leaves nothing allocated behind */
	assert_null(cfg.path);
	assert_int_equal(cfg.nvariants, 0);
	assert_int_equal(cfg.njobs, 0);
	free(msg);
	kconf_free(&cfg);
}

#define expect_error(text, want) expect_errors(text, 1, want)

/* Load a valid file, asserting no message at all was printed. */
static void load_ok(const char *path, struct kb_config *cfg)
{
	struct capture c;
	char *msg;
	int ret;

	cap_begin(&c);
	ret = kconf_load(path, cfg);
	msg = cap_end(&c);
	if (ret || *msg)
		print_error("%s: ret %d:\n%s", path, ret, msg);
	assert_int_equal(ret, 0);
	assert_string_equal(msg, "");
	free(msg);
	assert_string_equal(cfg->path, path);
}

static void test_full(void **state)
{
	struct kb_config cfg;

	(void)state;
	load_ok(DATA "full.conf", &cfg);
	assert_int_equal(cfg.njobs, 3);
	assert_string_equal(cfg.jobs[0], "randread-4k");
	assert_string_equal(cfg.jobs[1], "seqwrite-1m-direct");
	assert_string_equal(cfg.jobs[2], "buffered-write");
	assert_int_equal(cfg.iterations, 5);
	assert_int_equal(cfg.warmup, 2);
	assert_int_equal(cfg.runtime_s, 120);
	assert_int_equal(cfg.order, KB_ORDER_BLOCK);
	assert_int_equal(cfg.seed, 12345);
	assert_int_equal(cfg.target_kind, KB_TARGET_DEVICE);
	assert_string_equal(cfg.target, "/dev/nullb0");
	assert_int_equal(cfg.ntunables, 2);
	assert_string_equal(cfg.tunables[0].label, "NM");
	assert_string_equal(cfg.tunables[0].path, "queue/nomerges");
	assert_int_equal(cfg.tunables[0].nvalues, 3);
	assert_string_equal(cfg.tunables[0].values[0], "0");
	assert_string_equal(cfg.tunables[0].values[1], "1");
	assert_string_equal(cfg.tunables[0].values[2], "2");
	assert_int_equal(cfg.tunables[0].line, 10);
	assert_string_equal(cfg.tunables[1].label, "SCHED");
	assert_string_equal(cfg.tunables[1].path, "queue/scheduler");
	assert_int_equal(cfg.tunables[1].nvalues, 2);
	assert_string_equal(cfg.tunables[1].values[0], "none");
	assert_string_equal(cfg.tunables[1].values[1], "mq-deadline");
	assert_int_equal(cfg.tunables[1].line, 11);
	assert_string_equal(cfg.baseline, "stock,NM=0,SCHED=none");
	assert_int_equal(cfg.timeout_grace_s, 45);
	assert_string_equal(cfg.profiles_dir, DATA "../../../profiles");
	assert_int_equal(cfg.nvariants, 2);
	assert_string_equal(cfg.variants[0].name, "stock");
	assert_string_equal(cfg.variants[0].method, "local");
	assert_string_equal(cfg.variants[0].release, "6.1.0-13-amd64");
	assert_int_equal(cfg.variants[0].line, 17);
	assert_string_equal(cfg.variants[1].name, "patched");
	assert_string_equal(cfg.variants[1].method, "local");
	assert_string_equal(cfg.variants[1].release,
			    "6.1.0-13-amd64+nomerges");
	assert_int_equal(cfg.variants[1].line, 21);
	kconf_free(&cfg);
	assert_null(cfg.path);
	assert_int_equal(cfg.nvariants, 0);
}

static void test_minimal_defaults(void **state)
{
	struct kb_config cfg;

	(void)state;
	load_ok(DATA "minimal.conf", &cfg);
	assert_int_equal(cfg.njobs, 1);
	assert_string_equal(cfg.jobs[0], "randread-4k");
	assert_int_equal(cfg.iterations, 3);
	assert_int_equal(cfg.warmup, 1);
	assert_int_equal(cfg.runtime_s, 60);
	assert_int_equal(cfg.timeout_grace_s, 30);
	assert_int_equal(cfg.order, KB_ORDER_INTERLEAVE);
	assert_int_equal(cfg.seed, 1);
	assert_int_equal(cfg.target_kind, KB_TARGET_LOOP);
	assert_null(cfg.target);
	assert_int_equal(cfg.loop_size_bytes, 256ULL << 20);
	assert_null(cfg.baseline);
	assert_int_equal(cfg.ntunables, 0);
	/* no tests/data/kconf/profiles/: this test binary is in the
	 * checkout's build tree, whose profiles/ is used */
	assert_false(kb_exists(DATA "profiles"));
	assert_true(kb_exists(cfg.profiles_dir));
	assert_int_equal(cfg.profiles_line, 0);
	/* nothing anywhere: the first place, for the error to name */
	kconf_find_profiles(&cfg, "/nonexistent/kbench",
			    "/nonexistent/prefix");
	assert_string_equal(cfg.profiles_dir, DATA "profiles");
	assert_int_equal(cfg.nprofiles_places, 2);
	assert_string_equal(cfg.profiles_places[1].dir,
			    "/nonexistent/prefix/share/kbench/profiles");
	assert_int_equal(cfg.nvariants, 1);
	assert_string_equal(cfg.variants[0].name, "running");
	assert_string_equal(cfg.variants[0].method, "local");
	assert_null(cfg.variants[0].release);
	assert_int_equal(cfg.variants[0].line, 4);
	/* disturbed runs (stats/disturbed.h) */
	assert_float_equal(cfg.disturbed_other_cpu_pct, 40.0, 0);
	assert_float_equal(cfg.disturbed_steal_pct, 5.0, 0);
	assert_float_equal(cfg.disturbed_psi_pct, 40.0, 0);
	assert_float_equal(cfg.disturbed_idle_fraction, 0.5, 0);
	assert_int_equal(cfg.retry_disturbed, 1);
	assert_int_equal(cfg.drop_caches, KB_DROP_PAGECACHE);
	kconf_free(&cfg);
}


static void test_target_loop(void **state)
{
	struct kb_config cfg;

	(void)state;
	load_ok(DATA "target-loop.conf", &cfg);
	assert_int_equal(cfg.target_kind, KB_TARGET_LOOP);
	assert_null(cfg.target);
	assert_int_equal(cfg.loop_size_bytes, 1ULL << 30);
	assert_int_equal(cfg.runtime_s, 30);
	kconf_free(&cfg);
}

static void test_target_file(void **state)
{
	struct kb_config cfg;

	(void)state;
	load_ok(DATA "target-file.conf", &cfg);
	assert_int_equal(cfg.target_kind, KB_TARGET_FILE);
	/* relative to the conf file's directory */
	assert_string_equal(cfg.target, DATA "scratch/kbench.img");
	assert_int_equal(cfg.ntunables, 1);
	assert_string_equal(cfg.tunables[0].label, "DR");
	assert_string_equal(cfg.tunables[0].path, "/proc/sys/vm/dirty_ratio");
	assert_int_equal(cfg.tunables[0].nvalues, 3);
	assert_string_equal(cfg.tunables[0].values[2], "40");
	assert_string_equal(cfg.jobs[0], "buffered-write");
	kconf_free(&cfg);
}

static void test_target_device(void **state)
{
	struct kb_config cfg;

	(void)state;
	load_ok(DATA "target-device.conf", &cfg);
	assert_int_equal(cfg.target_kind, KB_TARGET_DEVICE);
	assert_string_equal(cfg.target, "/dev/nvme0n1");
	assert_int_equal(cfg.runtime_s, 30);
	assert_int_equal(cfg.nvariants, 2);
	assert_string_equal(cfg.variants[0].name, "v6.9");
	assert_string_equal(cfg.variants[0].release, "6.9.0");
	assert_string_equal(cfg.variants[1].name, "v6.10-rc1+fix");
	assert_string_equal(cfg.variants[1].release, "6.10.0-rc1+");
	assert_int_equal(cfg.variants[1].line, 8);
	kconf_free(&cfg);
}

static void test_tunables(void **state)
{
	struct kb_config cfg;

	(void)state;
	load_ok(DATA "tunables.conf", &cfg);
	assert_int_equal(cfg.ntunables, 6);
	assert_string_equal(cfg.tunables[1].label, "SCHED");
	assert_int_equal(cfg.tunables[1].nvalues, 3);
	assert_string_equal(cfg.tunables[1].values[2], "kyber");
	/* "PATH:VALUE" without a blank after the colon */
	assert_string_equal(cfg.tunables[2].path, "queue/read_ahead_kb");
	assert_int_equal(cfg.tunables[2].nvalues, 1);
	assert_string_equal(cfg.tunables[2].values[0], "128");
	/* absolute /proc path */
	assert_string_equal(cfg.tunables[3].label, "DR");
	assert_string_equal(cfg.tunables[3].path, "/proc/sys/vm/dirty_ratio");
	assert_string_equal(cfg.tunables[3].values[0], "5");
	assert_string_equal(cfg.tunables[3].values[1], "40");
	assert_int_equal(cfg.tunables[3].line, 7);
	/* colons inside a sysfs path are part of the path */
	assert_string_equal(cfg.tunables[4].path,
			    "/sys/devices/pci0000:00/0000:00:1f.2/power/control");
	assert_int_equal(cfg.tunables[4].nvalues, 2);
	assert_string_equal(cfg.tunables[4].values[1], "auto");
	/* commas inside a value are kept */
	assert_int_equal(cfg.tunables[5].nvalues, 2);
	assert_string_equal(cfg.tunables[5].values[0], "0-3,8");
	kconf_free(&cfg);
}

static void test_order_random_seed(void **state)
{
	struct kb_config cfg;

	(void)state;
	load_ok(DATA "random.conf", &cfg);
	assert_int_equal(cfg.order, KB_ORDER_RANDOM);
	assert_int_equal(cfg.seed, 42);
	assert_int_equal(cfg.iterations, 10);
	assert_int_equal(cfg.warmup, 0);
	assert_int_equal(cfg.njobs, 2);
	assert_int_equal(cfg.nvariants, 3);
	assert_string_equal(cfg.variants[2].name, "c");
	kconf_free(&cfg);
}

/* The example campaign at the repository root: seed 000's shape, and
 * every job it names has a profile. */
static void test_example_kernels_conf(void **state)
{
	struct kb_config cfg;
	char *path;
	size_t i;

	(void)state;
	load_ok("kernels.conf", &cfg);
	assert_int_equal(cfg.njobs, 1);
	assert_string_equal(cfg.jobs[0], "randread-4k");
	assert_int_equal(cfg.iterations, 3);
	assert_int_equal(cfg.warmup, 1);
	assert_int_equal(cfg.runtime_s, 5);
	assert_int_equal(cfg.order, KB_ORDER_INTERLEAVE);
	assert_int_equal(cfg.target_kind, KB_TARGET_LOOP);
	assert_int_equal(cfg.loop_size_bytes, 256ULL << 20);
	assert_int_equal(cfg.ntunables, 1);
	assert_string_equal(cfg.tunables[0].label, "NM");
	assert_string_equal(cfg.tunables[0].path, "queue/nomerges");
	assert_int_equal(cfg.tunables[0].nvalues, 3);
	assert_string_equal(cfg.tunables[0].values[0], "0");
	assert_string_equal(cfg.tunables[0].values[2], "2");
	assert_int_equal(cfg.nvariants, 1);
	assert_string_equal(cfg.variants[0].name, "running");
	assert_string_equal(cfg.variants[0].method, "local");
	assert_null(cfg.variants[0].release);
	assert_string_equal(cfg.profiles_dir, "profiles");
	for (i = 0; i < cfg.njobs; i++) {
		path = kb_xasprintf("%s/%s.fio", cfg.profiles_dir,
				    cfg.jobs[i]);
		if (!kb_exists(path))
			print_error("missing profile %s\n", path);
		assert_true(kb_exists(path));
		free(path);
	}
	kconf_free(&cfg);
}

static void test_env_and_comments(void **state)
{
	struct kb_config cfg;
	char *msg;

	(void)state;
	setenv("KB_TEST_DEV", "/dev/nullb0", 1);
	setenv("KB_TEST_REL", "6.9.0-rc1", 1);
	assert_int_equal(parse_text(
		"\xef\xbb\xbf# comment\r\n"
		"  ; indented comment\n"
		"[global]\t; trailing\n"
		"jobs=randread-4k # a comment\n"
		"target = ${KB_TEST_DEV}\n"
		"runtime = 90s\n"
		"\n"
		"[x]\n"
		"release = ${KB_TEST_REL}+${KB_TEST_REL};x  ; two\n"
		"method=local\n", &cfg, &msg), 0);
	assert_string_equal(msg, "");
	free(msg);
	assert_int_equal(cfg.njobs, 1);
	assert_string_equal(cfg.jobs[0], "randread-4k");
	assert_string_equal(cfg.target, "/dev/nullb0");
	assert_int_equal(cfg.runtime_s, 90);
	assert_string_equal(cfg.variants[0].release, "6.9.0-rc1+6.9.0-rc1;x");
	assert_int_equal(cfg.variants[0].line, 8);
	/* no '/' in the name: profiles next to it is ./profiles */
	assert_string_equal(cfg.profiles_dir, "profiles");
	kconf_free(&cfg);
}

static void touch(const char *dir, const char *name)
{
	char *path = kb_path_join(dir, name);
	FILE *f;

	assert_int_equal(kb_mkdir_p(dir), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[x]\n", f);
	fclose(f);
	free(path);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The profiles search order (kconf_find_profiles): a temporary tree
 * with an installed layout (T/usr/bin, T/usr/share/kbench/profiles), a
 * checkout (T/src: kbench.c, profiles/, build/san/), a conf directory,
 * KBENCH_PROFILES and a prefix; fake binary paths, never /proc/self/exe. */
static void test_profiles_search(void **state)
{
	char tmpl[] = "/tmp/kbprof.XXXXXX", *t = mkdtemp(tmpl);
	char *conf, *usr, *src, *pfx, *env, *exe, *want, *help, *p;
	struct kb_config cfg;
	const char *text = "[global]\njobs = randread-4k\n[running]\n";

	(void)state;
	assert_non_null(t);
	unsetenv("KBENCH_PROFILES");
	conf = kb_path_join(t, "conf/kernels.conf");
	p = kb_path_join(t, "conf");
	touch(p, "kernels.conf");
	free(p);
	usr = kb_path_join(t, "usr/share/kbench/profiles");
	touch(usr, "randread-4k.fio");
	src = kb_path_join(t, "src/profiles");
	touch(src, "randread-4k.fio");
	p = kb_path_join(t, "src");
	touch(p, "kbench.c");
	free(p);
	pfx = kb_path_join(t, "pfx");
	env = kb_path_join(t, "env");
	touch(env, "randread-4k.fio");

	assert_int_equal(kconf_parse(conf, text, &cfg), 0);

	/* installed: PREFIX/bin/kbench -> PREFIX/share/kbench/profiles */
	exe = kb_path_join(t, "usr/bin/kbench");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_string_equal(cfg.profiles_dir, usr);
	assert_int_equal(cfg.nprofiles_places, 3);
	want = kb_path_join(t, "conf/profiles");
	assert_string_equal(cfg.profiles_places[0].dir, want);
	assert_non_null(strstr(cfg.profiles_places[0].source, "next to"));
	assert_string_equal(cfg.profiles_places[1].dir, usr);
	assert_non_null(strstr(cfg.profiles_places[1].source, exe));
	assert_non_null(strstr(cfg.profiles_places[2].dir, "/pfx/share/kbench/profiles"));
	free(exe);

	/* the build tree: build/san/kbench, build/kbench, ./kbench */
	exe = kb_path_join(t, "src/build/san/kbench");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_string_equal(cfg.profiles_dir, src);
	free(exe);
	exe = kb_path_join(t, "src/build/kbench");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_string_equal(cfg.profiles_dir, src);
	free(exe);
	exe = kb_path_join(t, "src/kbench");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_string_equal(cfg.profiles_dir, src);
	free(exe);

	/* a binary elsewhere: the compiled-in prefix, once it exists */
	exe = kb_path_join(t, "opt/kbench");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_int_equal(cfg.nprofiles_places, 2);
	assert_string_equal(cfg.profiles_dir, want);	/* none exists */
	p = kb_path_join(pfx, "share/kbench/profiles");
	touch(p, "randread-4k.fio");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_string_equal(cfg.profiles_dir, p);
	free(p);
	free(exe);
	/* the prefix is the binary's own: listed once */
	exe = kb_path_join(pfx, "bin/kbench");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_int_equal(cfg.nprofiles_places, 2);
	free(exe);

	/* nothing found: every place named, with what it holds */
	exe = kb_path_join(t, "none/bin/kbench");
	kconf_find_profiles(&cfg, exe, "/nonexistent");
	assert_string_equal(cfg.profiles_dir, want);
	help = kconf_profiles_help(&cfg, "randread-4k");
	assert_non_null(strstr(help, "conf/profiles/randread-4k.fio (next to"));
	assert_non_null(strstr(help, "no such directory [used]"));
	assert_non_null(strstr(help, "none/share/kbench/profiles/randread-4k.fio (beside the binary"));
	assert_non_null(strstr(help, "/nonexistent/share/kbench/profiles"));
	assert_non_null(strstr(help, "set profiles = DIR"));
	assert_non_null(strstr(help, "KBENCH_PROFILES=DIR"));
	assert_null(strstr(help, "e.g."));
	assert_int_equal(count_lines(help), 5);
	free(help);
	free(exe);

	/* a profiles/ next to the conf comes first of the defaults, even
	 * without the job; the error then points at the one that has it */
	p = kb_path_join(t, "conf/profiles");
	assert_int_equal(kb_mkdir_p(p), 0);
	free(p);
	exe = kb_path_join(t, "usr/bin/kbench");
	kconf_find_profiles(&cfg, exe, pfx);
	assert_string_equal(cfg.profiles_dir, want);
	help = kconf_profiles_help(&cfg, "randread-4k");
	assert_non_null(strstr(help, "no such file [used]"));
	assert_non_null(strstr(help, "has it"));
	p = kb_xasprintf("e.g. profiles = %s\n", usr);
	assert_non_null(strstr(help, p));
	free(p);
	free(help);

	/* KBENCH_PROFILES before every default */
	setenv("KBENCH_PROFILES", env, 1);
	kconf_find_profiles(&cfg, exe, pfx);
	assert_string_equal(cfg.profiles_dir, env);
	assert_int_equal(cfg.nprofiles_places, 1);
	assert_non_null(strstr(cfg.profiles_places[0].source,
			       "KBENCH_PROFILES"));
	/* a typo of a job the directory has: that job, not another place */
	help = kconf_profiles_help(&cfg, "randread-4kk");
	assert_non_null(strstr(help, "did you mean 'randread-4k'?"));
	assert_non_null(strstr(help, "the jobs there: randread-4k)"));
	assert_non_null(strstr(help, "fix: jobs = randread-4k in "));
	assert_null(strstr(help, "set profiles = DIR"));
	free(help);
	/* nothing near: the jobs it has, and where else to look */
	help = kconf_profiles_help(&cfg, "seqwrite-1m");
	assert_null(strstr(help, "did you mean"));
	p = kb_xasprintf("the jobs in %s: randread-4k\n", env);
	assert_non_null(strstr(help, p));
	free(p);
	assert_non_null(strstr(help, "set profiles = DIR"));
	free(help);
	/* the jobs are listed in name order, whatever order the directory
	 * holds them in; the nearest wins over a farther one */
	touch(env, "zz-last.fio");
	touch(env, "aa-first.fio");
	touch(env, "randread-4q.fio");
	help = kconf_profiles_help(&cfg, "randread-4kk");
	assert_non_null(strstr(help, "did you mean 'randread-4k'?"));
	assert_non_null(strstr(help, "the jobs there: aa-first, randread-4k, "
			       "randread-4q, zz-last)"));
	free(help);
	kconf_free(&cfg);

	/* profiles = in kernels.conf before KBENCH_PROFILES */
	assert_int_equal(kconf_parse(conf, "[global]\njobs = randread-4k\n"
				     "profiles = mine\n[running]\n", &cfg), 0);
	kconf_find_profiles(&cfg, exe, pfx);
	p = kb_path_join(t, "conf/mine");
	assert_string_equal(cfg.profiles_dir, p);
	free(p);
	assert_int_equal(cfg.profiles_line, 3);
	assert_int_equal(cfg.nprofiles_places, 1);
	assert_non_null(strstr(cfg.profiles_places[0].source, "line 3"));
	kconf_free(&cfg);
	unsetenv("KBENCH_PROFILES");

	free(exe);
	free(want);
	free(conf);
	free(usr);
	free(src);
	free(pfx);
	free(env);
	assert_int_equal(nftw(t, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void test_load_missing_file(void **state)
{
	struct kb_config cfg;
	struct capture c;
	char *msg;
	int ret;

	(void)state;
	cap_begin(&c);
	ret = kconf_load(DATA "does-not-exist.conf", &cfg);
	msg = cap_end(&c);
	assert_int_equal(ret, -ENOENT);
	assert_non_null(strstr(msg, DATA "does-not-exist.conf"));
	assert_null(cfg.path);
	free(msg);
	kconf_free(&cfg);
}

static void test_parse_size(void **state)
{
	unsigned long long b;

	(void)state;
	assert_int_equal(kconf_parse_size("4096", &b), 0);
	assert_int_equal(b, 4096);
	assert_int_equal(kconf_parse_size("64k", &b), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(kconf_parse_size("256M", &b), 0);
	assert_int_equal(b, 256ULL << 20);
	assert_int_equal(kconf_parse_size("1G", &b), 0);
	assert_int_equal(b, 1ULL << 30);
	assert_int_equal(kconf_parse_size("2t", &b), 0);
	assert_int_equal(b, 2ULL << 40);
	assert_int_equal(kconf_parse_size("512MiB", &b), 0);
	assert_int_equal(b, 512ULL << 20);
	assert_int_equal(kconf_parse_size("8KB", &b), 0);
	assert_int_equal(b, 8192);
	assert_int_equal(kconf_parse_size("0", &b), 0);
	assert_int_equal(b, 0);
	b = 7;
	assert_int_equal(kconf_parse_size("", &b), -EINVAL);
	assert_int_equal(kconf_parse_size("M", &b), -EINVAL);
	assert_int_equal(kconf_parse_size("-1", &b), -EINVAL);
	assert_int_equal(kconf_parse_size("1.5G", &b), -EINVAL);
	assert_int_equal(kconf_parse_size("10X", &b), -EINVAL);
	assert_int_equal(kconf_parse_size("10 M", &b), -EINVAL);
	assert_int_equal(kconf_parse_size("10Mi", &b), -EINVAL);
	assert_int_equal(kconf_parse_size("99999999999999999999", &b),
			 -EINVAL);
	assert_int_equal(kconf_parse_size("17179869184G", &b), -EINVAL);
	assert_int_equal(b, 7);
}

#define GLOBAL_OK "[global]\njobs = randread-4k\n"
#define VARIANT_OK "[running]\n"

/* "hosts = LINE" parses into the n names and ports given; load host 0
 * is label0 in kbench's output and arg0 on fio's command line. */
static void check_hosts(const char *line, size_t n, const char *const names[],
			const unsigned ports[], const char *label0,
			const char *arg0)
{
	struct kb_config cfg;
	char *text = kb_xasprintf(GLOBAL_OK "target = file:/tmp/kb.img\n"
				  "hosts = %s\n" VARIANT_OK, line);
	char *msg, *l, *a;
	size_t i;

	assert_int_equal(parse_text(text, &cfg, &msg), 0);
	assert_string_equal(msg, "");
	assert_int_equal(cfg.nhosts, n);
	for (i = 0; i < n; i++) {
		assert_string_equal(cfg.hosts[i], names[i]);
		assert_int_equal(cfg.host_ports[i], ports[i]);
	}
	l = kconf_host_label(cfg.hosts[0], cfg.host_ports[0]);
	a = kconf_host_client_arg(cfg.hosts[0], cfg.host_ports[0]);
	assert_string_equal(l, label0);
	assert_string_equal(a, arg0);
	free(l);
	free(a);
	free(msg);
	free(text);
	kconf_free(&cfg);
}

/* [job NAME] hosts = overrides [global]'s for that job's runs */
static void test_job_hosts(void)
{
	struct kb_config cfg;
	char *const *h;
	const unsigned *pt;
	char *msg;

	assert_int_equal(parse_text("[global]\njobs = randread-4k, other\n"
		"target = /dev/sdz\nhosts = a b:9000\n[job other]\n"
		"hosts = [fd00::2]\n" VARIANT_OK, &cfg, &msg), 0);
	assert_string_equal(msg, "");
	assert_int_equal(kconf_job_hosts(&cfg, "other", &h, &pt), 1);
	assert_string_equal(h[0], "fd00::2");
	assert_int_equal(pt[0], 8765);
	assert_int_equal(kconf_job_hosts(&cfg, "randread-4k", &h, &pt), 2);
	assert_string_equal(h[1], "b");
	assert_int_equal(pt[1], 9000);
	free(msg);
	kconf_free(&cfg);
#define J "[global]\njobs = randread-4k, other\ntarget = /dev/sdz\n"
	expect_error(J "hosts = a\n[job nosuch]\nhosts = b\n" VARIANT_OK,
		     "bad.conf:5: [job nosuch]: no job nosuch in jobs =");
	expect_error(J "[job other]\nhosts = b\n" VARIANT_OK,
		     "bad.conf:4: [job other]: hosts = overrides [global]'s, which is missing");
	expect_error(J "hosts = a\n[job other]\nhosts = b\ntarget = /dev/x\n" VARIANT_OK,
		     "bad.conf:7: unknown key 'target' in [job other] (expected hosts)");
	expect_error(J "hosts = a\n[job other]\nhosts = b\nhosts = c\n" VARIANT_OK,
		     "bad.conf:7: duplicate key 'hosts' in [job other]");
	expect_error(J "hosts = a\n[job other]\nhosts = b\n[job other]\nhosts = c\n" VARIANT_OK,
		     "bad.conf:7: duplicate section [job other] (first at line 5)");
	expect_error(J "hosts = a\n[job o/x]\nhosts = b\n" VARIANT_OK,
		     "bad.conf:5: bad section header [job o/x]");
	expect_error(J "hosts = a\n[job other]\n" VARIANT_OK,
		     "bad.conf:5: [job other]: no hosts =");
	expect_error(J "hosts = a\n[job other]\nhosts = -x\n" VARIANT_OK,
		     "bad.conf:6: hosts: '-x' is not a host name");
#undef J
}

/* Every list key takes names separated by commas and/or blanks and
 * refuses an empty item, as the command line's lists do: a trailing
 * comma in target_metrics = was passed over (a break-it trial) */
/* prefix = auto|none (the reports' values, kbench report --prefix's
 * default): none unless given; a bad value or a variant section named
 * with FILE:LINE */
/* The value an enum-valued key left in cfg (method: its index in local,
 * vm, kexec). */
static int enum_field(const struct kb_config *cfg, const char *key, int var)
{
	const struct kb_variant *v = &cfg->variants[0];

	if (!strcmp(key, "order"))
		return (int)cfg->order;
	if (!strcmp(key, "drop_caches"))
		return cfg->drop_caches;
	if (!strcmp(key, "profile_during"))
		return cfg->profile_during_counted;
	if (!strcmp(key, "prefix"))
		return cfg->prefix_auto;
	if (!strcmp(key, "accel"))
		return (int)(var ? v->accel : cfg->accel);
	if (!strcmp(key, "method"))
		return !strcmp(v->method, "local") ? 0 :
		       !strcmp(v->method, "vm") ? 1 :
		       !strcmp(v->method, "kexec") ? 2 : -1;
	if (!strcmp(key, "guest_root"))
		return (int)v->guest_root;
	if (!strcmp(key, "boot"))
		return (int)v->boot;
	if (!strcmp(key, "module_signatures"))
		return (int)v->module_signatures;
	if (!strcmp(key, "profile"))
		return (int)cfg->nprofile;
	if (!strcmp(key, "keep"))
		return (int)cfg->keep;
	if (!strcmp(key, "layouts"))
		return (int)cfg->nlayouts;
	fail_msg("no field for %s", key);
	return -1;
}

/* Every enum-valued key (a word of a fixed set: parsers/kconf.c's
 * kconf_word()) says a value it does not take the same way: FILE:LINE,
 * the key, the value given and every word it takes ("method" said
 * "unknown method 'qemu'", without the key); a word but for case, or
 * misspelt, gets "did you mean"; and each of its words still gives
 * its value.  A list key (profile = cycles,dcm) names the item. */
static void test_enum_keys(void **state)
{
#define VM_VARIANT VARIANT_OK "method = vm\nkernel = /k\n"
	static const struct {
		const char *key;
		int var;		/* in a variant section (method = vm) */
		const char *words[8];	/* the words it takes, */
		int values[8];		/* and their values */
		const char *expected;	/* the message's list */
		const char *item;	/* a list key's item: "event" */
		const char *typo, *meant;	/* a misspelt word */
		const char *pre;	/* [global] lines it needs first */
	} keys[] = {
		{ "order", 0, { "interleave", "block", "random" },
		  { KB_ORDER_INTERLEAVE, KB_ORDER_BLOCK, KB_ORDER_RANDOM },
		  "interleave, block or random", NULL, "interleaved",
		  "interleave", NULL },
		{ "drop_caches", 0, { "pagecache", "all" },
		  { KB_DROP_PAGECACHE, KB_DROP_ALL }, "pagecache or all", NULL,
		  "PageCache", "pagecache", NULL },
		{ "profile_during", 0, { "profiling-runs", "counted-runs" },
		  { 0, 1 }, "profiling-runs (the default: perf samples only in "
		  "extra runs that are not counted) or counted-runs (samples "
		  "during the counted runs, overhead measured by unsampled "
		  "extra runs)", NULL, "counted_runs", "counted-runs",
		  "profile = cycles\n" },
		{ "prefix", 0, { "auto", "none" }, { 1, 0 },
		  "auto (4310k IOPS, MiB/s, us) or none (the metric's own "
		  "unit, the default)", NULL, "Auto", "auto", NULL },
		{ "accel", 0, { "auto", "kvm", "tcg" },
		  { KB_ACCEL_AUTO, KB_ACCEL_KVM, KB_ACCEL_TCG },
		  "auto, kvm or tcg", NULL, "KVM", "kvm", NULL },
		{ "method", 1, { "local", "vm", "kexec" }, { 0, 1, 2 },
		  "local, vm or kexec", NULL, "kexek", "kexec", NULL },
		{ "accel", 1, { "auto", "kvm", "tcg" },
		  { KB_ACCEL_AUTO, KB_ACCEL_KVM, KB_ACCEL_TCG },
		  "auto, kvm or tcg", NULL, "tcgg", "tcg", NULL },
		{ "guest_root", 1, { "9p", "initramfs" },
		  { KB_GUEST_ROOT_9P, KB_GUEST_ROOT_INITRAMFS },
		  "9p (the host's root over virtio-9p) or initramfs (a "
		  "self-contained guest)", NULL, "9P", "9p", NULL },
		{ "boot", 1, { "auto", "pvh", "bzimage" },
		  { KB_VM_BOOT_AUTO, KB_VM_BOOT_PVH, KB_VM_BOOT_BZIMAGE },
		  "auto (the kernel's PVH entry when it has one), pvh or "
		  "bzimage", NULL, "bzImage", "bzimage", NULL },
		{ "module_signatures", 1, { "auto", "keep" },
		  { KB_VM_MODSIG_AUTO, KB_VM_MODSIG_KEEP },
		  "auto (stripped when the kernel loads unsigned modules) or "
		  "keep", NULL, "keeep", "keep", NULL },
		/* list keys: one word each here (the count or bits) */
		{ "profile", 0, { "cycles", "dcm" }, { 1, 1 },
		  "cycles or dcm", "event", "cycle", "cycles", NULL },
		{ "keep", 0, { "perf.data" }, { KB_KEEP_PERF_DATA },
		  "perf.data", "artefact", "perf-data", "perf.data", NULL },
		{ "layouts", 0, { "variants", "profile", "time", "rounds",
				  "scaling", "mmtests", "lkp" },
		  { 1, 1, 1, 1, 1, 1, 1 }, "variants, profile, time, rounds, "
		  "scaling, mmtests or lkp", "layout", "rounds2", "rounds", NULL },
	};
	size_t i, w;

	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *key = keys[i].key;
		const char *pre = keys[i].pre ? keys[i].pre : "";
		/* the key's line: 3 in [global] (after pre), 4 for method,
		 * else 6 */
		int line = !keys[i].var ? 3 + count_lines(pre) :
			   !strcmp(key, "method") ? 4 : 6;
		const char *bad[2] = { "bogus", keys[i].typo };
		char *text, *want;

		/* method = vm or kexec needs a kernel = */
#define KEY_TEXT(v) (!keys[i].var ? \
	kb_xasprintf(GLOBAL_OK "%s%s = %s\n" VARIANT_OK, pre, key, v) : \
	!strcmp(key, "method") ? \
	kb_xasprintf(GLOBAL_OK VARIANT_OK "method = %s\n%s", v, \
		     !strcmp(v, "vm") || !strcmp(v, "kexec") ? \
		     "kernel = /k\n" : "") : \
	kb_xasprintf(GLOBAL_OK VM_VARIANT "%s = %s\n", key, v))
		for (w = 0; keys[i].words[w]; w++) {
			struct kb_config cfg;
			char *msg;

			text = KEY_TEXT(keys[i].words[w]);
			if (parse_text(text, &cfg, &msg))
				print_error("%s = %s: %s", key,
					    keys[i].words[w], msg);
			assert_string_equal(msg, "");
			assert_int_equal(enum_field(&cfg, key, keys[i].var),
					 keys[i].values[w]);
			free(msg);
			free(text);
			kconf_free(&cfg);
		}
		for (w = 0; w < 2; w++) {
			char *head = kb_xasprintf("bad.conf:%d: %s = '%s': ",
						  line, key, bad[w]);

			text = KEY_TEXT(bad[w]);
			if (keys[i].item) {
				/* how a list of two words or more is
				 * written: the first two */
				char *eg = keys[i].words[1] ?
					kb_xasprintf(", e.g. %s = %s,%s", key,
						     keys[i].words[0],
						     keys[i].words[1]) :
					kb_xstrdup("");

				want = kb_xasprintf("%sunknown %s '%s' (expected "
						    "%s%s%s%s%s)", head,
						    keys[i].item, bad[w],
						    keys[i].expected, eg,
						    w ? "; did you mean '" : "",
						    w ? keys[i].meant : "",
						    w ? "'?" : "");
				free(eg);
			} else {
				want = kb_xasprintf("%sexpected %s%s%s%s", head,
						    keys[i].expected,
						    w ? " (did you mean '" : "",
						    w ? keys[i].meant : "",
						    w ? "'?)" : "");
			}
			expect_error(text, want);
			free(head);
			free(want);
			free(text);
		}
#undef KEY_TEXT
	}
#undef VM_VARIANT
}

static void test_prefix(void **state)
{
	static const struct {
		const char *val;
		int want;
	} ok[] = { { NULL, 0 }, { "auto", 1 }, { "none", 0 } };
	struct kb_config cfg;
	size_t i;
	char *msg, *text;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		text = kb_xasprintf(GLOBAL_OK "%s%s%s" VARIANT_OK,
				    ok[i].val ? "prefix = " : "",
				    ok[i].val ? ok[i].val : "",
				    ok[i].val ? "\n" : "");
		assert_int_equal(parse_text(text, &cfg, &msg), 0);
		assert_string_equal(msg, "");
		assert_int_equal(cfg.prefix_auto, ok[i].want);
		free(msg);
		free(text);
		kconf_free(&cfg);
	}
	expect_error(GLOBAL_OK "prefix = Auto\n" VARIANT_OK,
		     "bad.conf:3: prefix = 'Auto': expected auto (4310k IOPS, "
		     "MiB/s, us) or none (the metric's own unit, the default)");
	expect_error(GLOBAL_OK "prefix = auto none\n" VARIANT_OK,
		     "bad.conf:3: prefix = 'auto none': expected auto");
	expect_error(GLOBAL_OK "prefix =\n" VARIANT_OK,
		     "bad.conf:3: 'prefix' has no value");
	expect_error(GLOBAL_OK VARIANT_OK "prefix = auto\n",
		     "bad.conf:4: 'prefix' belongs in [global], not in a "
		     "variant section");
}

static void test_err_list_empty_item(void **state)
{
	struct kb_config cfg;
	char *msg;

	(void)state;
	assert_int_equal(parse_text("[global]\njobs = a, b\tc,d\n"
				    "profile = cycles, dcm\n"
				    "iterations = auto\n"
				    "target_metrics = read.iops ,read.bw_kib\n"
				    "baseline = running, \n[running]\n", &cfg, &msg),
			 -EINVAL);
	assert_non_null(strstr(msg, "bad.conf:6: baseline = 'running,': an "
			       "empty item after the last comma (expected the "
			       "configuration compared against: "
			       "VARIANT[,LABEL=VALUE...]"));
	assert_int_equal(count_lines(msg), 1);
	free(msg);
	kconf_free(&cfg);
	assert_int_equal(parse_text("[global]\njobs = a, b\tc,d\n"
				    "profile = cycles, dcm\n"
				    "iterations = auto\n"
				    "target_metrics = read.iops ,read.bw_kib\n"
				    "[running]\n", &cfg, &msg), 0);
	assert_string_equal(msg, "");
	assert_int_equal(cfg.njobs, 4);
	assert_int_equal(cfg.nprofile, 2);
	assert_true(kconf_target_metric(&cfg, "read.bw_kib"));
	free(msg);
	kconf_free(&cfg);
	expect_error("[global]\njobs = a\niterations = auto\n"
		     "target_metrics = read.iops,\n[v]\n",
		     "bad.conf:4: target_metrics = 'read.iops,': an empty item "
		     "after the last comma (expected iterations = auto: the "
		     "metrics whose CIs decide (e.g. read.iops; default: every "
		     "compared metric), the items separated by commas or "
		     "blanks)");
	/* no name at all: said once, not also "no metric" */
	expect_error("[global]\njobs = a\niterations = auto\n"
		     "target_metrics = ,\n[v]\n",
		     "bad.conf:4: target_metrics = ',': no items, only commas "
		     "and blanks (expected iterations = auto");
	expect_error(GLOBAL_OK "profile = , \n" VARIANT_OK,
		     "bad.conf:3: profile = ',': no items");
	expect_error("[global]\njobs = a,\n[v]\n",
		     "bad.conf:2: jobs = 'a,': an empty item after the last "
		     "comma (expected job files to run: NAME ...");
	expect_error("[global]\njobs = ,a\n[v]\n",
		     "bad.conf:2: jobs = ',a': an empty item before the first "
		     "comma");
	expect_error(GLOBAL_OK "profile = cycles, ,dcm\n" VARIANT_OK,
		     "bad.conf:3: profile = 'cycles, ,dcm': an empty item "
		     "between two commas");
	expect_error(GLOBAL_OK "keep = perf.data,\n" VARIANT_OK,
		     "bad.conf:3: keep = 'perf.data,': an empty item");
	expect_error(GLOBAL_OK "layouts = rounds,,time\n" VARIANT_OK,
		     "bad.conf:3: layouts = 'rounds,,time': an empty item");
	expect_error(GLOBAL_OK "target = /dev/sdz\nhosts = a,\n" VARIANT_OK,
		     "bad.conf:4: hosts = 'a,': an empty item");
	expect_error("[global]\njobs = a b\ntarget = /dev/sdz\nhosts = h\n"
		     "[job b]\nhosts = h1,,h2\n" VARIANT_OK,
		     "bad.conf:6: hosts = 'h1,,h2': an empty item between two "
		     "commas");
}

/* target@HOST = in [global]: load host HOST's own target */
static void test_host_targets(void **state)
{
	const struct kb_host_target *ht;
	struct kb_config cfg;
	char *msg;

	(void)state;
	assert_int_equal(parse_text(GLOBAL_OK "target = /dev/sdz\n"
		"hosts = a [fd00::2]:9000 b\ntarget@a = file:/srv/a.img\n"
		"target@[FD00:0::2] = /dev/nvme1n1\n" VARIANT_OK, &cfg, &msg), 0);
	assert_string_equal(msg, "");
	ht = kconf_host_target(&cfg, "a");
	assert_non_null(ht);
	assert_string_equal(ht->path, "/srv/a.img");
	assert_int_equal(ht->kind, KB_TARGET_FILE);
	ht = kconf_host_target(&cfg, "fd00::2");
	assert_non_null(ht);
	assert_string_equal(ht->path, "/dev/nvme1n1");
	assert_int_equal(ht->kind, KB_TARGET_DEVICE);
	assert_null(kconf_host_target(&cfg, "b"));
	free(msg);
	kconf_free(&cfg);
#define H GLOBAL_OK "target = /dev/sdz\nhosts = a\n"
	expect_error(H "target@c = /dev/sdb\n" VARIANT_OK,
		     "bad.conf:5: target@c: c is not a load host of hosts =");
	expect_error(H "target@a = relative.img\n" VARIANT_OK,
		     "bad.conf:5: target@a = 'relative.img': expected a device path (/dev/...) or file:/PATH on that host");
	expect_error(H "target@a = file:/a:b\n" VARIANT_OK,
		     "no ':' in the path");
	expect_error(H "target@a = /dev/../etc/passwd\n" VARIANT_OK,
		     "expected a device path");
	expect_error(H "target@a = /dev/sdb\ntarget@a = /dev/sdc\n" VARIANT_OK,
		     "bad.conf:6: duplicate key 'target@a' (first set at line 5)");
	expect_error(H "target@-x = /dev/sdb\n" VARIANT_OK,
		     "bad.conf:5: hosts: '-x' is not a host name");
	expect_error(GLOBAL_OK "target = /dev/sdz\ntarget@a = /dev/sdb\n" VARIANT_OK,
		     "bad.conf:4: target@a: a is not a load host of hosts =");
#undef H
}

/* hosts = HOST[:PORT] ...: fio --server load hosts (parsers/kconf.h) */
static void test_hosts(void **state)
{
	static const char *const v4[] = { "load1", "10.0.0.2",
					  "a-b.example.org" };
	static const unsigned v4_ports[] = { 8765, 9000, 8765 };
	static const char *const v6[] = { "fd00::2", "fd00::3", "fd00::4",
					  "::1" };
	static const unsigned v6_ports[] = { 9000, 8765, 8765, 8765 };

	(void)state;
	check_hosts("load1 10.0.0.2:9000, a-b.example.org", 3, v4, v4_ports,
		    "load1:8765", "--client=load1,8765");
	/* IPv6: bracketed with a port, bracketed, bare; fio's ip6: syntax */
	check_hosts("[fd00::2]:9000 [fd00::3] fd00::4 ::1", 4, v6, v6_ports,
		    "[fd00::2]:9000", "--client=ip6:fd00::2,9000");
	/* one spelling per host: an IPv6 address as inet_ntop() writes it,
	 * a name in lower case (fio's JSON then names it so) */
	check_hosts("[FD00:0:0:0:0:0:0:2]:9000 fd00:0::3 FD00::4 0::1", 4, v6,
		    v6_ports, "[fd00::2]:9000", "--client=ip6:fd00::2,9000");
	check_hosts("LOAD1 10.0.0.2:9000 A-b.Example.ORG", 3, v4, v4_ports,
		    "load1:8765", "--client=load1,8765");
	test_job_hosts();
#define FILE_T "target = /dev/sdz\n"
	expect_error(GLOBAL_OK FILE_T "hosts = [fd00::2]:0\n" VARIANT_OK,
		     "bad.conf:4: hosts: '[fd00::2]:0': the port must be 1..65535");
	expect_error(GLOBAL_OK FILE_T "hosts = [fd00::2\n" VARIANT_OK,
		     "bad.conf:4: hosts: '[fd00::2': expected [IPV6-ADDRESS] or [IPV6-ADDRESS]:PORT");
	expect_error(GLOBAL_OK FILE_T "hosts = [fd00::2]x\n" VARIANT_OK,
		     "expected [IPV6-ADDRESS] or [IPV6-ADDRESS]:PORT");
	/* an address that reads as ADDRESS:PORT too: which is meant is
	 * asked, not guessed (a break-it trial: fd00::2:8765 was the
	 * address, port 8765 lost) */
	expect_error(GLOBAL_OK FILE_T "hosts = fd00::2:8765\n" VARIANT_OK,
		     "bad.conf:4: hosts: 'fd00::2:8765': an IPv6 address, or "
		     "fd00::2 with port 8765? give [fd00::2:8765] for the "
		     "address, [fd00::2]:8765 for the port");
	expect_error(GLOBAL_OK FILE_T "hosts = 2001:db8::1:1\n" VARIANT_OK,
		     "bad.conf:4: hosts: '2001:db8::1:1': an IPv6 address, or "
		     "2001:db8::1 with port 1?");
	{
		static const char *const v6b[] = { "fd00::2:8765",
						   "2001:db8::1:1", "fd00::1:a",
						   "2001:db8::1" };
		static const unsigned v6b_ports[] = { 8765, 9000, 8765,
						      8765 };

		/* bracketed, or a last group no port (hex, or a prefix
		 * no address): read */
		check_hosts("[fd00::2:8765] [2001:db8::1:1]:9000 fd00::1:a "
			    "2001:db8:0:0:0:0:0:1", 4, v6b, v6b_ports,
			    "[fd00::2:8765]:8765",
			    "--client=ip6:fd00::2:8765,8765");
	}
	expect_error(GLOBAL_OK FILE_T "hosts = fd00::zz\n" VARIANT_OK,
		     "bad.conf:4: hosts: 'fd00::zz' is not a host name, IPv4 or IPv6 address");
	expect_error(GLOBAL_OK FILE_T "hosts = [load1]:8765\n" VARIANT_OK,
		     "hosts: 'load1' is not a host name, IPv4 or IPv6 address");
	expect_error(GLOBAL_OK FILE_T "hosts = fe80::1%eth0\n" VARIANT_OK,
		     "is not a host name, IPv4 or IPv6 address");
	expect_error(GLOBAL_OK FILE_T "hosts = [::1] ::1\n" VARIANT_OK,
		     "hosts: '::1' is given twice");
	/* one host in two spellings, or with two ports: fio's JSON would
	 * name both servers alike */
	expect_error(GLOBAL_OK FILE_T "hosts = fd00::2 [FD00:0:0::2]:8765\n"
		     VARIANT_OK, "bad.conf:4: hosts: 'fd00::2' is given twice");
	expect_error(GLOBAL_OK FILE_T "hosts = Load1 load1\n" VARIANT_OK,
		     "bad.conf:4: hosts: 'load1' is given twice");
	expect_error(GLOBAL_OK FILE_T "hosts = 10.0.0.2 10.0.0.2:8766\n"
		     VARIANT_OK, "bad.conf:4: hosts: '10.0.0.2' is given twice, with ports 8765 and 8766: fio's output names a load host by its address alone");
	expect_error(GLOBAL_OK FILE_T "hosts = [fd00::2]:9000 fd00:0::2\n"
		     VARIANT_OK, "hosts: 'fd00::2' is given twice, with ports 9000 and 8765");
	expect_error(GLOBAL_OK FILE_T "hosts = --output=x\n" VARIANT_OK,
		     "bad.conf:4: hosts: '--output=x' is not a host name");
	expect_error(GLOBAL_OK FILE_T "hosts = -h\n" VARIANT_OK,
		     "bad.conf:4: hosts: '-h' is not a host name");
	expect_error(GLOBAL_OK FILE_T "hosts = 10.0.0.300\n" VARIANT_OK,
		     "bad.conf:4: hosts: '10.0.0.300' is not a host name");
	expect_error(GLOBAL_OK FILE_T "hosts = a:0\n" VARIANT_OK,
		     "bad.conf:4: hosts: 'a:0': the port must be 1..65535");
	expect_error(GLOBAL_OK FILE_T "hosts = a:65536\n" VARIANT_OK,
		     "bad.conf:4: hosts: 'a:65536': the port must be 1..65535");
	expect_error(GLOBAL_OK FILE_T "hosts = a:-1\n" VARIANT_OK,
		     "the port must be 1..65535");
	expect_error(GLOBAL_OK FILE_T "hosts = a a\n" VARIANT_OK,
		     "bad.conf:4: hosts: 'a' is given twice");
	expect_error(GLOBAL_OK FILE_T "hosts = sock:/x\n" VARIANT_OK,
		     "the port must be 1..65535");
	expect_error(GLOBAL_OK FILE_T "hosts = a..b\n" VARIANT_OK,
		     "hosts: 'a..b' is not a host name");
	expect_error(GLOBAL_OK "hosts = a\n" VARIANT_OK,
		     "bad.conf:3: hosts = runs fio on the load hosts, which need a target they have: a device path or file:PATH, not the default loop:256M");
	expect_error(GLOBAL_OK "target = loop:64M\nhosts = a\n" VARIANT_OK,
		     "bad.conf:3: hosts = runs fio on the load hosts, which need a target they have: a device path or file:PATH, not loop:SIZE");
	expect_error(GLOBAL_OK "target = null_blk\nhosts = a\n" VARIANT_OK,
		     "not null_blk");
	expect_error(GLOBAL_OK FILE_T "hosts = a\ntunable NM = queue/nomerges: 0 1\n" VARIANT_OK,
		     "bad.conf:5: tunable NM: relative path 'queue/nomerges' is under the target's /sys/block/<dev>/, but with hosts = (line 4)");
	expect_error(GLOBAL_OK FILE_T "hosts = a\n[g]\nmethod = vm\nkernel = /boot/vmlinuz\n",
		     "bad.conf:5: [g]: method = vm with hosts = (line 4)");
#undef FILE_T
}

static void test_disturbed_keys(void **state)
{
	struct kb_config cfg;
	char *msg;

	(void)state;
	assert_int_equal(parse_text(GLOBAL_OK "disturbed_other_cpu_pct = 60\n"
		"disturbed_steal_pct = 2%\ndisturbed_psi_pct = off\n"
		"disturbed_idle_fraction = 0.25\nretry_disturbed = 0\n"
		VARIANT_OK, &cfg, &msg), 0);
	assert_string_equal(msg, "");
	assert_float_equal(cfg.disturbed_other_cpu_pct, 60.0, 0);
	assert_float_equal(cfg.disturbed_steal_pct, 2.0, 0);
	assert_true(isnan(cfg.disturbed_psi_pct));
	assert_float_equal(cfg.disturbed_idle_fraction, 0.25, 0);
	assert_int_equal(cfg.retry_disturbed, 0);
	free(msg);
	kconf_free(&cfg);
	expect_error(GLOBAL_OK "disturbed_steal_pct = 120\n" VARIANT_OK,
		     "bad.conf:3: disturbed_steal_pct = '120'");
	expect_error(GLOBAL_OK "disturbed_idle_fraction = 2\n" VARIANT_OK,
		     "bad.conf:3: disturbed_idle_fraction = '2'");
	expect_error(GLOBAL_OK "retry_disturbed = -1\n" VARIANT_OK,
		     "bad.conf:3: retry_disturbed = '-1'");
}

/* drop_caches = pagecache | all: the value written to
 * /proc/sys/vm/drop_caches before each run (1 or 3); nothing else, not
 * even the kernel's own numbers. */
static void test_drop_caches_key(void **state)
{
	struct kb_config cfg;
	char *msg;

	(void)state;
	assert_int_equal(parse_text(GLOBAL_OK "drop_caches = all\n" VARIANT_OK,
				    &cfg, &msg), 0);
	assert_string_equal(msg, "");
	assert_int_equal(cfg.drop_caches, KB_DROP_ALL);
	assert_int_equal(KB_DROP_ALL, 3);
	free(msg);
	kconf_free(&cfg);
	assert_int_equal(parse_text(GLOBAL_OK "drop_caches = pagecache\n"
				    VARIANT_OK, &cfg, &msg), 0);
	assert_int_equal(cfg.drop_caches, KB_DROP_PAGECACHE);
	assert_int_equal(KB_DROP_PAGECACHE, 1);
	free(msg);
	kconf_free(&cfg);
	expect_error(GLOBAL_OK "drop_caches = 3\n" VARIANT_OK,
		     "bad.conf:3: drop_caches = '3': expected pagecache or all");
	expect_error(GLOBAL_OK VARIANT_OK "drop_caches = all\n",
		     "bad.conf:4: 'drop_caches' belongs in [global]");
}

static void test_err_unknown_key(void **state)
{
	(void)state;
	expect_error(GLOBAL_OK "iteration = 3\n" VARIANT_OK,
		     "bad.conf:3: unknown key 'iteration' (did you mean 'iterations'?)");
	expect_error(GLOBAL_OK "frobnicate = 3\n" VARIANT_OK,
		     "bad.conf:3: unknown key 'frobnicate' in [global]");
	expect_error(GLOBAL_OK VARIANT_OK "relase = 6.1\n",
		     "bad.conf:4: unknown key 'relase' (did you mean 'release'?)");
	/* a named key: its word is what is misspelt */
	expect_error(GLOBAL_OK "tunabel NM = queue/nomerges: 0 1\n" VARIANT_OK,
		     "bad.conf:3: unknown key 'tunabel NM' (did you mean "
		     "'tunable NM'?)");
	expect_error(GLOBAL_OK "method = local\n" VARIANT_OK,
		     "bad.conf:3: 'method' belongs in a variant section");
	expect_error(GLOBAL_OK VARIANT_OK "runtime = 5\n",
		     "bad.conf:4: 'runtime' belongs in [global]");
	expect_error(GLOBAL_OK VARIANT_OK "tunable NM = queue/nomerges: 0\n",
		     "bad.conf:4: 'tunable' belongs in [global]");
	/* [global] misspelt (a new user's trial: each of its keys said
	 * to belong in [global], none why): said once, on the first; a
	 * variant after [global] is not one */
	expect_errors("[globl]\njobs = randread-4k\ntarget = loop:64M\n"
		      VARIANT_OK, 3, "bad.conf:2: 'jobs' belongs in [global], "
		      "not in a variant section ([globl] is read as a variant: "
		      "did you mean [global]?)\n");
	expect_errors("[GLOBAL]\niterations = 2\n" VARIANT_OK, 2,
		      "bad.conf:2: 'iterations' belongs in [global], not in a "
		      "variant section ([GLOBAL] is read as a variant: did you "
		      "mean [global]?)\n");
	expect_error(GLOBAL_OK "[local]\nmethod = local\nruntime = 5\n",
		     "bad.conf:5: 'runtime' belongs in [global], not in a "
		     "variant section\n");
}

static void test_err_duplicate_key(void **state)
{
	(void)state;
	expect_error(GLOBAL_OK "iterations = 3\niterations = 4\n" VARIANT_OK,
		     "bad.conf:4: duplicate key 'iterations' (first set at line 3)");
	expect_error(GLOBAL_OK "jobs = seqwrite-1m-direct\n" VARIANT_OK,
		     "bad.conf:3: duplicate key 'jobs' (first set at line 2)");
	expect_error(GLOBAL_OK VARIANT_OK "release = a\nrelease = b\n",
		     "bad.conf:5: duplicate key 'release' (first set at line 4)");
	expect_error(GLOBAL_OK "tunable NM = queue/nomerges: 0\n"
		     "tunable NM = queue/nomerges: 1\n" VARIANT_OK,
		     "bad.conf:4: duplicate tunable 'NM' (first defined at line 3 as a tunable)");
}

static void test_err_sections(void **state)
{
	(void)state;
	expect_error("jobs = randread-4k\n" GLOBAL_OK VARIANT_OK,
		     "bad.conf:1: 'jobs' is outside any section");
	expect_error(GLOBAL_OK VARIANT_OK "[running]\n",
		     "bad.conf:4: duplicate variant [running] (first at line 3)");
	expect_error(GLOBAL_OK "[bad name]\n" VARIANT_OK,
		     "bad.conf:3: bad variant name [bad name]");
	expect_error(GLOBAL_OK "[a,b]\n" VARIANT_OK,
		     "bad.conf:3: bad variant name [a,b]");
	expect_error(GLOBAL_OK "[oops\n" VARIANT_OK,
		     "bad.conf:3: bad section header '[oops'");
	/* read on as the section meant: one error, not also "no
	 * variants" or "no jobs" (a helper's trial) */
	expect_error(GLOBAL_OK "[running\nmethod = local\n",
		     "bad.conf:3: bad section header '[running'");
	expect_error("[global\njobs = randread-4k\n" VARIANT_OK,
		     "bad.conf:1: bad section header '[global'");
	expect_error(GLOBAL_OK "[running] x\nmethod = local\n",
		     "bad.conf:3: bad section header '[running] x'");
	expect_error(GLOBAL_OK VARIANT_OK "[global]\n",
		     "bad.conf:4: duplicate section [global] (first at line 1)");
	expect_error(GLOBAL_OK VARIANT_OK "just words\n",
		     "bad.conf:4: 'just words': expected 'key = value'");
	expect_error(GLOBAL_OK VARIANT_OK " = 3\n",
		     "bad.conf:4: missing key before '='");
	/* keys in a rejected section are still checked */
	expect_errors(GLOBAL_OK VARIANT_OK "[running]\nmethod = qemu\n", 2,
		      "bad.conf:5: method = 'qemu': expected local, vm or kexec");
}

static void test_err_missing(void **state)
{
	(void)state;
	expect_error("[global]\niterations = 3\n" VARIANT_OK,
		     "bad.conf:1: [global]: no jobs");
	expect_error(VARIANT_OK, "bad.conf:1: no [global] section: no jobs");
	expect_error(GLOBAL_OK "\n; nothing else\n",
		     "bad.conf:4: no variants");
	expect_error(GLOBAL_OK "jobs = , ,\n" VARIANT_OK,
		     "bad.conf:3: duplicate key 'jobs'");
	expect_error("[global]\njobs = , ,\n" VARIANT_OK,
		     "bad.conf:2: jobs = ', ,': no items, only commas and "
		     "blanks (expected job files to run: NAME ...");
	expect_error("[global]\njobs =\n" VARIANT_OK,
		     "bad.conf:2: 'jobs' has no value");
	expect_error(GLOBAL_OK VARIANT_OK "release =   ; any\n",
		     "bad.conf:4: 'release' has no value (remove the line");
	expect_errors("", 2, "bad.conf:1: no variants");
}

static void test_err_values(void **state)
{
	(void)state;
	expect_error(GLOBAL_OK "iterations = 0\n" VARIANT_OK,
		     "bad.conf:3: iterations = '0': expected a whole number >= 1");
	expect_error(GLOBAL_OK "iterations = -2\n" VARIANT_OK,
		     "bad.conf:3: iterations = '-2'");
	expect_error(GLOBAL_OK "iterations = 99999999999\n" VARIANT_OK,
		     "bad.conf:3: iterations = '99999999999'");
	expect_error(GLOBAL_OK "warmup = one\n" VARIANT_OK,
		     "bad.conf:3: warmup = 'one': expected a whole number >= 0");
	expect_error(GLOBAL_OK "runtime = 0\n" VARIANT_OK,
		     "bad.conf:3: runtime = '0': expected seconds from 1 to ");
	/* too large: said with the range, not ">= 1" */
	expect_error(GLOBAL_OK "runtime = 99999999999\n" VARIANT_OK,
		     "bad.conf:3: runtime = '99999999999': expected seconds "
		     "from 1 to 4294967295");
	expect_error(GLOBAL_OK "runtime = 5x\n" VARIANT_OK,
		     "bad.conf:3: runtime = '5x'");
	expect_error(GLOBAL_OK "timeout_grace = 1d\n" VARIANT_OK,
		     "bad.conf:3: timeout_grace = '1d'");
	/* runtime + timeout_grace past UINT_MAX: it wrapped to a 29 s
	 * limit, every run killed (a break-it trial) */
	expect_error(GLOBAL_OK "runtime = 4294967295\n" VARIANT_OK,
		     "bad.conf:3: runtime = 4294967295 s + timeout_grace = 30 s "
		     "is more than 4294967295 s");
	expect_error(GLOBAL_OK "runtime = 1193046h\ntimeout_grace = 1h\n"
		     VARIANT_OK, "bad.conf:4: runtime = 4294965600 s + "
		     "timeout_grace = 3600 s is more than");
	expect_error(GLOBAL_OK "order = sideways\n" VARIANT_OK,
		     "bad.conf:3: order = 'sideways': expected interleave, block or random");
	expect_error(GLOBAL_OK "seed = x42\n" VARIANT_OK,
		     "bad.conf:3: seed = 'x42'");
	expect_error(GLOBAL_OK "jobs2 = a\n" VARIANT_OK,
		     "bad.conf:3: unknown key 'jobs2' (did you mean 'jobs'?)");
	expect_error("[global]\njobs = a ../etc/passwd\n" VARIANT_OK,
		     "bad.conf:2: jobs: bad job name '../etc/passwd'");
	expect_error("[global]\njobs = a b a\n" VARIANT_OK,
		     "bad.conf:2: jobs: job 'a' is listed twice");
	expect_error(GLOBAL_OK VARIANT_OK "release = 6.1 rc\n",
		     "bad.conf:4: release = '6.1 rc'");
}

static void test_err_target(void **state)
{
	(void)state;
	expect_error(GLOBAL_OK "target = nvme0n1\n" VARIANT_OK,
		     "bad.conf:3: target = 'nvme0n1': expected a block device (/dev/...), loop:SIZE or file:PATH");
	/* a link to a device outside /dev (a break-it trial read
	 * "expected a block device" for one): the /dev path named */
	unlink("/tmp/kbench-test-kconf-null");
	if (symlink("/dev/null", "/tmp/kbench-test-kconf-null") == 0) {
		expect_error(GLOBAL_OK "target = /tmp/kbench-test-kconf-null\n"
			     VARIANT_OK, "bad.conf:3: target = "
			     "'/tmp/kbench-test-kconf-null': a block device is "
			     "named by its /dev path: target = /dev/null");
		unlink("/tmp/kbench-test-kconf-null");
	}
	expect_error(GLOBAL_OK "target = loop:8M\n" VARIANT_OK,
		     "bad.conf:3: target = 'loop:8M': loop size must be at least 16M");
	expect_error(GLOBAL_OK "target = loop:big\n" VARIANT_OK,
		     "bad.conf:3: target = 'loop:big': expected loop:SIZE");
	expect_error(GLOBAL_OK "target = file:\n" VARIANT_OK,
		     "bad.conf:3: target = 'file:': expected file:PATH");
	expect_error(GLOBAL_OK "target = /dev/\n" VARIANT_OK,
		     "bad.conf:3: target = '/dev/'");
	expect_error(GLOBAL_OK "tunable NM = queue/nomerges: 0 1\n"
		     "target = file:/tmp/x.img\n" VARIANT_OK,
		     "bad.conf:3: tunable NM: relative path 'queue/nomerges' is under /sys/block/<dev>/, which a file: target (line 4)");
}

static void test_err_tunable(void **state)
{
	(void)state;
	expect_error(GLOBAL_OK "tunable NM = queue/nomerges:\n" VARIANT_OK,
		     "bad.conf:3: tunable NM: no values after 'queue/nomerges:'");
	expect_error(GLOBAL_OK "tunable NM = queue/nomerges 0 1\n" VARIANT_OK,
		     "bad.conf:3: tunable NM = 'queue/nomerges 0 1': expected PATH: VALUE...");
	expect_error(GLOBAL_OK "tunable N-M = queue/nomerges: 0\n" VARIANT_OK,
		     "bad.conf:3: tunable label 'N-M'");
	expect_error(GLOBAL_OK "tunable = queue/nomerges: 0\n" VARIANT_OK,
		     "bad.conf:3: tunable needs a label");
	expect_error(GLOBAL_OK "tunable X = /etc/passwd: 0\n" VARIANT_OK,
		     "bad.conf:3: tunable X: path '/etc/passwd' must be relative");
	expect_error(GLOBAL_OK "tunable X = ../../etc/passwd: 0\n" VARIANT_OK,
		     "bad.conf:3: tunable X: path '../../etc/passwd'");
	expect_error(GLOBAL_OK "tunable X = /sys/../etc/passwd: 0\n" VARIANT_OK,
		     "bad.conf:3: tunable X: path '/sys/../etc/passwd'");
	expect_error(GLOBAL_OK "tunable X = : 0\n" VARIANT_OK,
		     "bad.conf:3: tunable X: missing PATH");
	expect_error(GLOBAL_OK "tunable NM = queue/nomerges: 0 1 0\n" VARIANT_OK,
		     "bad.conf:3: tunable NM: value '0' is listed twice");
	/* values name the run directories: a '/' led a sweep's runs out
	 * of the campaign directory */
	expect_error(GLOBAL_OK "sweep numjobs = ../../../../tmp/PWN 1\n"
		     VARIANT_OK, "bad.conf:3: sweep numjobs: value "
		     "'../../../../tmp/PWN': '/' is not allowed");
	expect_error(GLOBAL_OK "sweep bs = 4k <b>x</b>\n" VARIANT_OK,
		     "bad.conf:3: sweep bs: value '<b>x</b>': '/' is not "
		     "allowed");
	expect_error(GLOBAL_OK "sweep x = 1 a\tb\001c\n" VARIANT_OK,
		     "': control characters are not allowed");
	/* two tunables on one file: each run would find the other's value
	 * "changed during the run" */
	expect_error(GLOBAL_OK "tunable A = queue/nomerges: 0 1\n"
		     "tunable B = queue/nomerges: 2 1\n" VARIANT_OK,
		     "bad.conf:4: tunable B: path 'queue/nomerges' is tunable "
		     "A's already (line 3)");
}

/* Values that become other programs' arguments: nothing that looks
 * like an option reaches them (issue 14), each refused with FILE:LINE. */
/* The paths of variant [v] (body: its lines) in a conf named name; a
 * NULL want is not checked. */
static void expect_paths(const char *name, const char *body,
			 const char *kernel, const char *initrd,
			 const char *disk)
{
	struct kb_config cfg;
	char *text = kb_xasprintf("[global]\njobs = j\n[v]\n%s", body);

	assert_int_equal(kconf_parse(name, text, &cfg), 0);
	if (kernel)
		assert_string_equal(cfg.variants[0].kernel, kernel);
	if (initrd)
		assert_string_equal(cfg.variants[0].initrd, initrd);
	if (disk)
		assert_string_equal(cfg.variants[0].disk, disk);
	kconf_free(&cfg);
	free(text);
}

static void test_err_option_like(void **state)
{
	struct kb_config cfg;
	char *msg;

	(void)state;
	expect_error(GLOBAL_OK "target = null_blk: -r --first-time\n" VARIANT_OK,
		     "bad.conf:3: target = 'null_blk: -r --first-time': '-r' is not a module parameter NAME=VALUE");
	expect_error(GLOBAL_OK "target = null_blk: queue_mode=2 --first-time\n" VARIANT_OK,
		     "bad.conf:3: target = 'null_blk: queue_mode=2 --first-time': '--first-time' is not a module parameter");
	expect_error(GLOBAL_OK "target = null_blk: queue_mode=$(reboot)\n" VARIANT_OK,
		     "bad.conf:3: target = 'null_blk: queue_mode=$(reboot)': 'queue_mode=$(reboot)'");
	expect_error(GLOBAL_OK "target = null_blk: =2\n" VARIANT_OK,
		     "'=2' is not a module parameter");
	expect_errors(GLOBAL_OK VARIANT_OK "method = vm\nkernel = deb:--allow-unauthenticated\n", 2,
		      "bad.conf:5: kernel = 'deb:--allow-unauthenticated': expected a bzImage path or deb:PACKAGE");
	expect_errors(GLOBAL_OK VARIANT_OK "method = vm\nkernel = deb:-o=APT::Foo\n", 2,
		      "bad.conf:5: kernel = 'deb:-o=APT::Foo'");
	expect_error(GLOBAL_OK "target = file:/tmp/a:/etc/passwd\n" VARIANT_OK,
		     "bad.conf:3: target = 'file:/tmp/a:/etc/passwd': a ':' in the path would make fio open several files");
	assert_true(kconf_module_param_ok("queue_mode=2"));
	assert_true(kconf_module_param_ok("home_node=-1"));
	assert_true(kconf_module_param_ok("zone_size=1.5,x:y+z"));
	assert_false(kconf_module_param_ok("-r"));
	assert_false(kconf_module_param_ok("queue_mode"));
	assert_false(kconf_module_param_ok("queue_mode="));
	assert_false(kconf_module_param_ok("1x=2"));
	assert_false(kconf_module_param_ok("a=b c"));
	assert_false(kconf_module_param_ok("a=`id`"));
	/* valid parameters pass, unchanged */
	assert_int_equal(parse_text(GLOBAL_OK "target = null_blk: queue_mode=2 home_node=-1\n"
				    VARIANT_OK, &cfg, &msg), 0);
	assert_string_equal(cfg.nullblk_params, "queue_mode=2 home_node=-1");
	free(msg);
	kconf_free(&cfg);
	/* a path relative to a conf named without a directory never
	 * starts with '-' (kexec -l, qemu -kernel take it) */
	expect_paths("k.conf", "method = kexec\nkernel = --help\n",
		     "./--help", NULL, NULL);
	/* nor relative to a conf whose directory starts with '-' (`kbench
	 * run -c -d/k.conf`: kexec -l -d/bzImage was kexec's -d) */
	expect_paths("-d/k.conf", "method = kexec\nkernel = bzImage\n"
		     "initrd = initrd.img\n", "./-d/bzImage", "./-d/initrd.img",
		     NULL);
	/* a disk = that QEMU's -drive file= would read as a block driver
	 * before its first '/' (json:{...}, nbd:HOST:PORT) is a path */
	expect_paths("k.conf", "method = vm\nkernel = /k\n"
		     "disk = nbd:127.0.0.1:9\n", "/k", NULL, "./nbd:127.0.0.1:9");
	expect_paths("c:d/k.conf", "method = vm\nkernel = /k\n"
		     "disk = json:{}\n", "/k", NULL, "./c:d/json:{}");
	expect_paths("k.conf", "method = vm\nkernel = /k\n"
		     "disk = /dev/sdb\n", "/k", NULL, "/dev/sdb");
}

static void test_err_too_many(void **state)
{
	char *text = kb_xstrdup("[global]\njobs = randread-4k\n"
				"tunable NM = queue/nomerges:");
	char *t;
	int i;

	(void)state;
	for (i = 0; i <= KB_MAX_VALUES; i++) {
		t = kb_xasprintf("%s %d", text, i);
		free(text);
		text = t;
	}
	t = kb_xasprintf("%s\n[running]\n", text);
	free(text);
	text = t;
	expect_error(text, "bad.conf:3: tunable NM: too many values (at most 32)");
	free(text);

	text = kb_xstrdup("[global]\njobs =");
	for (i = 0; i <= KB_MAX_JOBS; i++) {
		t = kb_xasprintf("%s j%d", text, i);
		free(text);
		text = t;
	}
	t = kb_xasprintf("%s\n[running]\n", text);
	free(text);
	text = t;
	expect_error(text, "bad.conf:2: jobs: too many jobs (at most 32)");
	free(text);

	text = kb_xstrdup("[global]\njobs = a\n");
	for (i = 0; i <= KB_MAX_TUNABLES; i++) {
		t = kb_xasprintf("%stunable T%d = queue/x%d: 1\n", text, i, i);
		free(text);
		text = t;
	}
	t = kb_xasprintf("%s[running]\n", text);
	free(text);
	text = t;
	expect_error(text, "bad.conf:11: tunable T8: too many tunables (at most 8)");
	free(text);

	/* said once however many more there are (5000 variants printed
	 * 4936 lines) */
	text = kb_xstrdup("[global]\njobs = a\n");
	for (i = 0; i <= KB_MAX_VARIANTS + 100; i++) {
		t = kb_xasprintf("%s[v%d]\n", text, i);
		free(text);
		text = t;
	}
	expect_error(text, "bad.conf:67: too many variants (at most 64;");
	free(text);
	/* a byte order mark inside the file is shown, not invisible */
	expect_error("[global]\njobs = a\n\xef\xbb\xbfiterations = 3\n"
		     "[v]\n", "bad.conf:3: unknown key '<U+FEFF>iterations'");
	/* the metric named in a bad value; the default iterations said
	 * as the default, not as "line 0" */
	expect_error("[global]\njobs = a\nmin_effect read.iops = nan\n[v]\n",
		     "bad.conf:3: min_effect read.iops = 'nan': expected a "
		     "number");
	/* decimal numbers only, one parser (lib/str.h kb_parse_real()):
	 * a hex float, inf, a subnormal were taken (a break-it trial) */
	expect_error("[global]\njobs = a\nmin_effect = 0x1p-3\n[v]\n",
		     "bad.conf:3: min_effect = '0x1p-3': expected a number");
	expect_error("[global]\njobs = a\nmax_mde = 1e-320\n[v]\n",
		     "bad.conf:3: max_mde = '1e-320': expected a number");
	expect_error("[global]\njobs = a\nmin_effect read.iops = inf%\n"
		     "[v]\n", "bad.conf:3: min_effect read.iops = 'inf%': "
		     "expected a number");
	expect_error("[global]\njobs = a\nalpha = 0x0.1p0\n[v]\n",
		     "bad.conf:3: alpha = '0x0.1p0': expected a number");
	{
		struct kb_config cfg;
		char *msg;

		assert_int_equal(parse_text("[global]\njobs = a\n"
					    "min_effect = .5e1%\nalpha = 5e-2\n"
					    "[v]\n", &cfg, &msg), 0);
		assert_string_equal(msg, "");
		assert_true(cfg.min_effect_pct == 5.0);
		assert_true(cfg.alpha == 0.05);
		free(msg);
		kconf_free(&cfg);
	}
	/* alpha is a probability: 0.5% was read as 0.5 (a break-it
	 * trial); min_effect's % is a percentage */
	expect_error("[global]\njobs = a\nalpha = 0.5%\n[v]\n",
		     "bad.conf:3: alpha = '0.5%': a probability, not a "
		     "percentage (e.g. 0.05 for 5%)");
	/* a metric name near one kbench has: the one meant, as report
	 * and compare say (a new user's trial) */
	expect_error("[global]\njobs = a\nmax_mde read.iopz = 3\n[v]\n",
		     "bad.conf:3: max_mde read.iopz: no such metric (did you "
		     "mean 'read.iops'?)");
	expect_error("[global]\njobs = a\niterations = auto\n"
		     "target_metrics = read.iops READ.CLAT_P99_NS\n[v]\n",
		     "bad.conf:4: target_metrics: READ.CLAT_P99_NS: no such "
		     "metric (did you mean 'read.clat_p99_ns'?)");
	expect_error("[global]\njobs = a\nmin_effect read.clat_p99 = 3\n"
		     "[v]\n", "bad.conf:3: min_effect read.clat_p99: no such "
		     "metric (did you mean 'read.clat_p99_ns'?)");
	/* a load host's metric takes its metric's setting (stats/compare.c
	 * setting_for()): said, with the name to give */
	expect_error("[global]\njobs = a\nmin_effect host.10.0.0.2.read.iops "
		     "= 3\n[v]\n", "bad.conf:3: min_effect "
		     "host.10.0.0.2.read.iops: a load host's metric; the "
		     "settings name metrics, and host.NAME.read.iops takes "
		     "read.iops's: give read.iops");
	expect_error("[global]\njobs = a\nmin_effect frobs = 3\n[v]\n",
		     "bad.conf:3: min_effect frobs: no such metric (names look "
		     "like read.iops");
	expect_error("[global]\njobs = a\ntarget_ci_pct = 2\n[v]\n",
		     "bad.conf:3: min_iterations, max_iterations, target_ci_pct "
		     "and target_metrics apply to iterations = auto (add "
		     "iterations = auto; the default is iterations = 3)");
	/* a kernel URL's port checked when the conf is read */
	expect_error("[global]\njobs = a\n[v]\nmethod = vm\n"
		     "kernel = http://127.0.0.1:99999/bzImage\n",
		     "bad.conf:5: kernel = 'http://127.0.0.1:99999/bzImage': "
		     "the port is not a number from 1 to 65535");
	/* names of directories: never . or .., nor an option's look */
	expect_error("[global]\njobs = a\n[..]\n",
		     "bad.conf:3: bad variant name [..] (expected letters");
	expect_error("[global]\njobs = a\n[.]\n",
		     "bad.conf:3: bad variant name [.] (expected letters");
	expect_error("[global]\njobs = a\n[-x]\n",
		     "bad.conf:3: bad variant name [-x] (expected letters");
	expect_error("[global]\njobs = ..\n[v]\n",
		     "bad.conf:2: jobs: bad job name '..'");
	/* a sweep may not set what kbench gives fio */
	expect_error("[global]\njobs = a\nsweep target = loop1 loop2\n[v]\n",
		     "bad.conf:3: sweep target: ${KBENCH_TARGET} is kbench's "
		     "to set");
	expect_error("[global]\njobs = a\nsweep Size_2 = 1 2\n[v]\n",
		     "bad.conf:3: sweep Size_2: ${KBENCH_SIZE_2} is kbench's");
	expect_error("[global]\njobs = a\nsweep RUNTIME = 1 2\n[v]\n",
		     "bad.conf:3: sweep RUNTIME: ${KBENCH_RUNTIME}");
	/* every one of them */
	expect_error("[global]\njobs = a\n\xef\xbb\xbfiter\xef\xbb\xbf" "ations = 3\n"
		     "[v]\n",
		     "bad.conf:3: unknown key '<U+FEFF>iter<U+FEFF>ations'");
	/* a refused variant name is the error, not also "no variants" */
	expect_error("[global]\njobs = a\n[bad name!]\n",
		     "bad.conf:3: bad variant name [bad name!]");
}

/* method = vm with every key, and a null_blk target (seed 002's device) */
static void test_vm_variant(void **state)
{
	struct kb_config cfg;
	char *msg;
	int ret;

	(void)state;
	ret = parse_text("[global]\njobs = write-4k-io_uring-32x32\n"
		"target = null_blk: queue_mode=2 irqmode=0 completion_nsec=0\n"
		"[a]\nmethod = vm\nkernel = deb:linux-image-amd64\n"
		"memory = 2G\ncpus = 4\ncmdline = mitigations=off\n"
		"boot_timeout = 3m\n"
		"[b]\nmethod = vm\nkernel = /boot/vmlinuz-6.12\n"
		"modules = /tmp/m/lib/modules/6.12\ndisk = /dev/sdb\n"
		"guest_root = initramfs\nboot = bzimage\n"
		"[c]\nmethod = kexec\nkernel = /boot/vmlinuz-6.12\n"
		"initrd = /boot/initrd.img-6.12\n"
		"[d]\nmethod = vm\nkernel = /k\nguest_root = 9p\nboot = pvh\n"
		"module_signatures = keep\n",
		&cfg, &msg);
	if (ret)
		print_error("%s", msg);
	assert_int_equal(ret, 0);
	assert_int_equal(cfg.target_kind, KB_TARGET_NULLBLK);
	assert_string_equal(cfg.target, "/dev/nullb0");
	assert_string_equal(cfg.nullblk_params,
			    "queue_mode=2 irqmode=0 completion_nsec=0");
	assert_string_equal(cfg.variants[0].method, "vm");
	assert_string_equal(cfg.variants[0].kernel, "deb:linux-image-amd64");
	assert_int_equal(cfg.variants[0].memory_mib, 2048);
	assert_int_equal(cfg.variants[0].cpus, 4);
	assert_int_equal(cfg.variants[0].boot_timeout_s, 180);
	assert_string_equal(cfg.variants[0].cmdline, "mitigations=off");
	assert_string_equal(cfg.variants[1].modules, "/tmp/m/lib/modules/6.12");
	assert_string_equal(cfg.variants[1].disk, "/dev/sdb");
	assert_int_equal(cfg.variants[1].memory_mib, 1024);
	assert_int_equal(cfg.variants[1].cpus, 2);
	assert_int_equal(cfg.variants[1].boot_timeout_s, 120);
	assert_string_equal(cfg.variants[2].initrd, "/boot/initrd.img-6.12");
	assert_int_equal(cfg.variants[2].boot_timeout_s, 120); /* unused */
	assert_int_equal(cfg.variants[0].guest_root, KB_GUEST_ROOT_AUTO);
	assert_int_equal(cfg.variants[1].guest_root, KB_GUEST_ROOT_INITRAMFS);
	assert_int_equal(cfg.variants[3].guest_root, KB_GUEST_ROOT_9P);
	assert_int_equal(cfg.variants[0].boot, KB_VM_BOOT_AUTO);
	assert_int_equal(cfg.variants[1].boot, KB_VM_BOOT_BZIMAGE);
	assert_int_equal(cfg.variants[3].boot, KB_VM_BOOT_PVH);
	assert_int_equal(cfg.variants[0].module_signatures, KB_VM_MODSIG_AUTO);
	assert_int_equal(cfg.variants[3].module_signatures, KB_VM_MODSIG_KEEP);
	free(msg);
	kconf_free(&cfg);
}

#define SHA_A "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

static void test_err_method(void **state)
{
	(void)state;
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\n",
		     "bad.conf:3: [running]: method = vm needs kernel = PATH");
	expect_error(GLOBAL_OK VARIANT_OK "method = kexec\n",
		     "bad.conf:3: [running]: method = kexec needs kernel = PATH");
	expect_error(GLOBAL_OK VARIANT_OK "kernel = /boot/vmlinuz\n",
		     "bad.conf:3: [running]: kernel is for method = vm or kexec; a local variant is the running kernel, not local");
	/* keys the method would ignore are errors */
	expect_error(GLOBAL_OK VARIANT_OK "cmdline = quiet\n",
		     "bad.conf:3: [running]: cmdline is for method = vm or kexec");
	expect_error(GLOBAL_OK VARIANT_OK "boot_timeout = 5\n",
		     "bad.conf:3: [running]: boot_timeout is for method = vm");
	expect_errors(GLOBAL_OK VARIANT_OK "method = kexec\nkernel = /k\n"
		      "memory = 64G\ncpus = 9\ndisk = /dev/null\n"
		      "modules = /m\nboot_timeout = 5\n", 5,
		      "bad.conf:3: [running]: memory is for method = vm (the guest's), not kexec");
	expect_errors(GLOBAL_OK VARIANT_OK "method = kexec\nkernel = /k\n"
		      "memory = 64G\ncpus = 9\ndisk = /dev/null\n"
		      "modules = /m\nboot_timeout = 5\n", 5,
		      "bad.conf:3: [running]: boot_timeout is for method = vm");
	expect_errors(GLOBAL_OK VARIANT_OK "method = vm\nkernel = deb:linux image\n", 2,
		     "bad.conf:5: kernel = 'deb:linux image': expected a bzImage path or deb:PACKAGE");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\nmemory = 1M\n",
		     "bad.conf:6: memory = '1M': expected a size from 128M to 1T");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\ncpus = 0\n",
		     "bad.conf:6: cpus = '0': expected a whole number from 1 to 255");
	/* QEMU's pc machine refused it at boot (a break-it trial) */
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\ncpus = 100000\n",
		     "bad.conf:6: cpus = '100000': expected a whole number from 1 to 255");
	/* kbench's own parameters go after cmdline =: an odd quote put the
	 * kexec marker inside a value, a "--" handed it to init (a
	 * break-it trial); "--" inside quotes is a value */
	expect_error(GLOBAL_OK VARIANT_OK "method = kexec\nkernel = /k\n"
		     "cmdline = quiet -- single\n",
		     "bad.conf:6: cmdline = 'quiet -- single': a lone '--' (the words after it go to init");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\n"
		     "cmdline = dyndbg=\"file x.c +p\n",
		     "bad.conf:6: cmdline = 'dyndbg=\"file x.c +p': an unclosed '\"'");
	{
		struct kb_config cfg;
		char *msg;

		assert_int_equal(parse_text(GLOBAL_OK VARIANT_OK
			"method = vm\nkernel = /k\ncpus = 255\n"
			"cmdline = dyndbg=\"file a -- b +p\" --x\n",
			&cfg, &msg), 0);
		assert_string_equal(msg, "");
		assert_string_equal(cfg.variants[0].cmdline,
				    "dyndbg=\"file a -- b +p\" --x");
		assert_int_equal(cfg.variants[0].cpus, 255);
		kconf_free(&cfg);
		free(msg);
	}
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\ninitrd = /i\n",
		     "bad.conf:3: [running]: initrd is for method = kexec");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\nboot_timeout = soon\n",
		     "bad.conf:6: boot_timeout = 'soon': expected seconds from 1 to ");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\nguest_root = nfs\n",
		     "bad.conf:6: guest_root = 'nfs': expected 9p (the host's root over virtio-9p) or initramfs");
	expect_error(GLOBAL_OK VARIANT_OK "method = kexec\nkernel = /k\nguest_root = 9p\n",
		     "bad.conf:3: [running]: guest_root is for method = vm");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\nboot = uefi\n",
		     "bad.conf:6: boot = 'uefi': expected auto (the kernel's PVH entry when it has one), pvh or bzimage");
	expect_error(GLOBAL_OK VARIANT_OK "method = kexec\nkernel = /k\nboot = pvh\n",
		     "bad.conf:3: [running]: boot is for method = vm");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\nkernel = /k\nmodule_signatures = strip\n",
		     "bad.conf:6: module_signatures = 'strip': expected auto (stripped when the kernel loads unsigned modules) or keep");
	expect_error(GLOBAL_OK VARIANT_OK "method = kexec\nkernel = /k\nmodule_signatures = keep\n",
		     "bad.conf:3: [running]: module_signatures is for method = vm (the guest's modules), not kexec");
	expect_error(GLOBAL_OK VARIANT_OK "method = qemu\n",
		     "bad.conf:4: method = 'qemu': expected local, vm or kexec");
	/* sha256 = checks a download only: beside a path it did nothing */
	expect_error(GLOBAL_OK VARIANT_OK "method = kexec\nkernel = /k\n"
		     "sha256 = " SHA_A "\n",
		     "bad.conf:3: [running]: sha256 is for a kernel = URL (http://, https:// or file://), which kbench downloads and checks; kernel = /k");
	expect_error(GLOBAL_OK VARIANT_OK "method = vm\n"
		     "kernel = deb:linux-image-amd64\nsha256 = " SHA_A "\n",
		     "bad.conf:3: [running]: sha256 is for a kernel = URL");
	expect_error(GLOBAL_OK VARIANT_OK "sha256 = " SHA_A "\n",
		     "bad.conf:3: [running]: sha256 is for a kernel = URL (http://, https:// or file://), which kbench downloads and checks; this variant has none");
}

static void test_err_env(void **state)
{
	(void)state;
	unsetenv("KB_TEST_UNSET");
	unsetenv("KB_TEST_UNSET2");
	expect_error(GLOBAL_OK "target = ${KB_TEST_UNSET}\n" VARIANT_OK,
		     "bad.conf:3: environment variable 'KB_TEST_UNSET' is not set (used as ${KB_TEST_UNSET})");
	expect_errors(GLOBAL_OK VARIANT_OK
		      "release = ${KB_TEST_UNSET}-${KB_TEST_UNSET2}\n", 2,
		      "bad.conf:4: environment variable 'KB_TEST_UNSET2'");
	expect_error(GLOBAL_OK "target = ${KB_TEST_UNSET\n" VARIANT_OK,
		     "bad.conf:3: unterminated '${'");
	expect_error(GLOBAL_OK "target = ${A-B}\n" VARIANT_OK,
		     "bad.conf:3: bad variable name '${A-B}'");
}

static void test_err_baseline(void **state)
{
	(void)state;
	expect_error(GLOBAL_OK "baseline = stock\n" VARIANT_OK,
		     "bad.conf:3: baseline = 'stock': no variant [stock]");
	expect_error(GLOBAL_OK "tunable NM = queue/nomerges: 0 1\n"
		     "baseline = running,NM=2\n" VARIANT_OK,
		     "bad.conf:4: baseline = 'running,NM=2': '2' is not one of tunable NM's values");
	expect_error(GLOBAL_OK "baseline = running,XX=1\n" VARIANT_OK,
		     "bad.conf:3: baseline = 'running,XX=1': no tunable 'XX'");
	expect_error(GLOBAL_OK "baseline = running,NM\n" VARIANT_OK,
		     "bad.conf:3: baseline = 'running,NM': 'NM' should be LABEL=VALUE");
}

/* Every mistake in a file is reported, each with its own line. */
static void test_err_all_reported(void **state)
{
	struct kb_config cfg;
	struct capture c;
	char *msg;
	int ret;

	(void)state;
	cap_begin(&c);
	ret = kconf_load(DATA "errors.conf", &cfg);
	msg = cap_end(&c);
	if (count_lines(msg) != 6)
		print_error("%s", msg);
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(count_lines(msg), 6);
	assert_non_null(strstr(msg, "kbench: error: " DATA
			       "errors.conf:4: unknown key 'iteration'"));
	assert_non_null(strstr(msg, DATA "errors.conf:5: iterations = '0'"));
	assert_non_null(strstr(msg, DATA "errors.conf:6: runtime = 'fast'"));
	assert_non_null(strstr(msg, DATA "errors.conf:7: order = 'sideways'"));
	assert_non_null(strstr(msg, DATA "errors.conf:8: target = 'nvme0n1'"));
	assert_non_null(strstr(msg, DATA "errors.conf:10: [running]: method = vm needs kernel"));
	assert_null(cfg.path);
	free(msg);
	kconf_free(&cfg);
}

/* kernels.conf as the field sends it (issue 14): a NUL byte is an error
 * with its line (not a silent cut), a 1 MB value is neither parsed nor
 * echoed, control characters in a name are printed as '?', names that
 * would make run directories too long are refused by parse or plan,
 * never first by run. */
static void test_err_field_inputs(void **state)
{
	struct kb_config cfg;
	struct kb_plan plan;
	struct capture c;
	char path[] = "/tmp/kbench-test-kconf-nul.XXXXXX", *err, *big, *conf;
	static const char head[] = "[global]\njobs = j\n";
	int fd;

	(void)state;
	/* a NUL byte on line 3 */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[global]\njobs = j\n[a]\0\nmethod = "
			       "local\n", 35), 35);
	close(fd);
	cap_begin(&c);
	assert_int_equal(kconf_load(path, &cfg), -EINVAL);
	err = cap_end(&c);
	assert_non_null(strstr(err, ":3: a NUL byte"));
	free(err);
	unlink(path);

	/* a 1 MB value: one line, cut, never echoed */
	big = kb_xmalloc((1 << 20) + 64);
	memset(big, 'x', 1 << 20);
	big[1 << 20] = '\0';
	conf = kb_xasprintf("%s[a]\ncmdline = %s\n", head, big);
	cap_begin(&c);
	assert_int_equal(kconf_parse("t.conf", conf, &cfg), -EINVAL);
	err = cap_end(&c);
	assert_non_null(strstr(err, "t.conf:4: line of 1048586 bytes"));
	assert_true(strlen(err) < 1024);
	free(err);
	free(conf);
	/* a long line in [global]'s header: that error alone, not "no
	 * jobs" and "outside any section" for every later line */
	conf = kb_xasprintf("[global]%s\njobs = randread-4k\n[a]\n", big);
	cap_begin(&c);
	assert_int_equal(kconf_parse("t.conf", conf, &cfg), -EINVAL);
	err = cap_end(&c);
	assert_non_null(strstr(err, "t.conf:1: line of 1048584 bytes"));
	assert_null(strstr(err, "no jobs"));
	assert_null(strstr(err, "outside any section"));
	free(err);
	free(conf);

	/* a 3000-character variant name (a 5000-character one is a line
	 * over the limit, refused as such) */
	big[3000] = '\0';
	conf = kb_xasprintf("%s[%s]\n", head, big);
	cap_begin(&c);
	assert_int_equal(kconf_parse("t.conf", conf, &cfg), -EINVAL);
	err = cap_end(&c);
	assert_non_null(strstr(err, "is 3000 characters: at most 64"));
	assert_true(strlen(err) < 400);
	free(err);
	free(conf);
	free(big);

	/* an ESC in a name: shown as '?' */
	cap_begin(&c);
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = j\n[a\x1b[2Jb]\n",
				     &cfg), -EINVAL);
	err = cap_end(&c);
	assert_null(strchr(err, 0x1b));
	assert_non_null(strstr(err, "a?[2Jb"));
	free(err);

	/* within the conf's limits, but a configuration id too long for a
	 * directory name: plan refuses it as run would fail */
	conf = kb_xasprintf("[global]\njobs = j\ntunable AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA "
		"= /proc/sys/vm/swappiness: %.150s\n[%.60s]\n",
		"0000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000000000000000000",
		"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv");
	assert_int_equal(kconf_parse("t.conf", conf, &cfg), 0);
	cap_begin(&c);
	assert_int_equal(plan_build(&cfg, &plan), -ENAMETOOLONG);
	err = cap_end(&c);
	assert_non_null(strstr(err, "it names the run directories"));
	free(err);
	kconf_free(&cfg);
	free(conf);

	/* warmup + iterations past UINT_MAX, and iterations = auto's
	 * max_iterations: counted whole, refused (they wrapped to a plan
	 * of 0 runs, a break-it trial) */
	{
		static const char *const huge[][2] = {
			{ "iterations = 4294967295\n",
			  "(warmup = 1 + iterations = 4294967295)" },
			{ "warmup = 4294967295\niterations = 2\n",
			  "(warmup = 4294967295 + iterations = 2)" },
			{ "iterations = auto\nmax_iterations = 4294967295\n",
			  "(warmup = 1 + max_iterations = 4294967295)" },
			{ "profile = cycles\nprofile_runs = 4294967295\n",
			  "x (1 + profile_runs = 4294967295))" },
		};
		size_t b;

		for (b = 0; b < sizeof(huge) / sizeof(huge[0]); b++) {
			conf = kb_xasprintf("[global]\njobs = j\n%s[a]\n",
					    huge[b][0]);
			assert_int_equal(kconf_parse("t.conf", conf, &cfg), 0);
			cap_begin(&c);
			assert_int_equal(plan_build(&cfg, &plan), -E2BIG);
			err = cap_end(&c);
			assert_non_null(strstr(err, "t.conf: the matrix has "));
			assert_non_null(strstr(err, huge[b][1]));
			free(err);
			kconf_free(&cfg);
			free(conf);
		}
	}

	/* values holding ",LABEL=": two configurations, one id (they would
	 * share run directories and be pooled) */
	assert_int_equal(kconf_parse("t.conf", "[global]\njobs = j\n"
		"sweep A = p p,B=q\nsweep B = q,B=r r\n[a]\n", &cfg), 0);
	cap_begin(&c);
	assert_int_equal(plan_build(&cfg, &plan), -EINVAL);
	err = cap_end(&c);
	assert_non_null(strstr(err, "t.conf: two configurations have the id "
			       "'a,A=p,B=q,B=r'"));
	free(err);
	kconf_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_minimal_defaults),
		cmocka_unit_test(test_target_loop),
		cmocka_unit_test(test_target_file),
		cmocka_unit_test(test_target_device),
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_order_random_seed),
		cmocka_unit_test(test_example_kernels_conf),
		cmocka_unit_test(test_env_and_comments),
		cmocka_unit_test(test_profiles_search),
		cmocka_unit_test(test_load_missing_file),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_drop_caches_key),
		cmocka_unit_test(test_err_unknown_key),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_host_targets),
		cmocka_unit_test(test_err_duplicate_key),
		cmocka_unit_test(test_err_sections),
		cmocka_unit_test(test_err_missing),
		cmocka_unit_test(test_err_values),
		cmocka_unit_test(test_err_target),
		cmocka_unit_test(test_err_tunable),
		cmocka_unit_test(test_err_option_like),
		cmocka_unit_test(test_err_too_many),
		cmocka_unit_test(test_err_method),
		cmocka_unit_test(test_vm_variant),
		cmocka_unit_test(test_err_env),
		cmocka_unit_test(test_err_baseline),
		cmocka_unit_test(test_err_all_reported),
		cmocka_unit_test(test_disturbed_keys),
		cmocka_unit_test(test_err_field_inputs),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_enum_keys),
		cmocka_unit_test(test_err_list_empty_item),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
