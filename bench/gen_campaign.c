/* bench/gen_campaign.c - a synthetic, fully done campaign directory for
 * `make bench` (report scale, plan and resume bookkeeping).
 *
 * usage: gen_campaign [--conf-only] DIR NRUNS NMETRICS
 *
 * Writes, in the layout of docs/results-format.md:
 *   DIR/kernels.conf      10 configurations (one variant, tunable RA =
 *                         queue/read_ahead_kb with 10 values), one job
 *                         (randread-4k), warmup 0, iterations NRUNS/10
 *   DIR/profiles/randread-4k.fio   a job file snapshot
 *   DIR/campaign.json     plan (from kbench's own kconf_load + plan_build,
 *                         so the keys are the ones `kbench run` expects),
 *                         campaign, configurations, environment
 *   DIR/state.json        every run "ok"
 *   DIR/runs/<configuration>/<job>/<iteration>/metrics.json
 *                         status ok and NMETRICS metrics: the first
 *                         NMETRICS names of lib/metrics.c's table, with
 *                         values drawn from a normal distribution (GSL
 *                         MT19937, seed 1) around a per-configuration mean
 * With --conf-only only DIR/kernels.conf is written (for `kbench plan`).
 * NRUNS must be a multiple of 10.  Prints "runs=N metrics=M".  Exit
 * status 0 or 1 (message on stderr).  It does not fsync: the files are
 * throw-away benchmark input.
 */
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"
#include "parsers/kconf.h"
#include "results/paths.h"
#include "runner/plan.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCONFIGS 10

static const char job_text[] =
	"[global]\nfilename=${KBENCH_TARGET}\nsize=${KBENCH_SIZE}\n"
	"runtime=${KBENCH_RUNTIME}\ntime_based\nioengine=libaio\ndirect=1\n"
	"group_reporting\n\n[randread-4k]\nrw=randread\nbs=4k\niodepth=32\n";

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "gen_campaign: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static int write_json(const char *path, const json_t *j, size_t flags)
{
	if (json_dump_file(j, path, flags)) {
		fprintf(stderr, "gen_campaign: cannot write %s\n", path);
		return -EIO;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir;
	char *conf = NULL, *path = NULL, *text = NULL;
	struct kb_config cfg;
	struct kb_plan plan;
	json_t *cj = NULL, *st = NULL, *keys, *runs, *configs, *m;
	gsl_rng *rng = NULL;
	long nruns, nmetrics, avail = 0;
	int conf_only = 0, ret = 1, have_plan = 0, have_cfg = 0;
	size_t i, c;

	memset(&cfg, 0, sizeof(cfg));
	if (argc > 1 && !strcmp(argv[1], "--conf-only")) {
		conf_only = 1;
		argv++;
		argc--;
	}
	if (argc != 4 || (nruns = strtol(argv[2], NULL, 10)) < NCONFIGS ||
	    nruns % NCONFIGS || (nmetrics = strtol(argv[3], NULL, 10)) < 1) {
		fprintf(stderr, "usage: gen_campaign [--conf-only] DIR NRUNS "
			"NMETRICS (NRUNS a multiple of %d)\n", NCONFIGS);
		return 1;
	}
	dir = argv[1];
	while (kb_metrics[avail].name)
		avail++;
	if (nmetrics > avail)
		nmetrics = avail;	/* every name must be a real metric */
	if (kb_mkdir_p(dir))
		return 1;
	conf = kb_path_join(dir, "kernels.conf");
	text = kb_xasprintf(
		"; synthetic campaign written by bench/gen_campaign\n"
		"[global]\njobs = randread-4k\niterations = %ld\nwarmup = 0\n"
		"runtime = 5\norder = interleave\ntarget = loop:256M\n"
		"profiles = profiles\n"
		"tunable RA = queue/read_ahead_kb: 0 4 8 16 32 64 128 256 512 1024\n"
		"\n[running]\nmethod = local\n", nruns / NCONFIGS);
	if (write_text(conf, text))
		goto out;
	if (conf_only) {
		printf("runs=%ld metrics=0\n", nruns);
		ret = 0;
		goto out;
	}
	path = kb_path_join(dir, "profiles");
	if (kb_mkdir_p(path))
		goto out;
	free(path);
	path = kb_path_join(dir, "profiles/randread-4k.fio");
	if (write_text(path, job_text))
		goto out;
	if (kconf_load(conf, &cfg))
		goto out;
	have_cfg = 1;
	if (plan_build(&cfg, &plan))
		goto out;
	have_plan = 1;

	keys = json_array();
	runs = json_object();
	configs = json_array();
	for (c = 0; c < plan.nconfigs; c++)
		json_array_append_new(configs, json_pack(
			"{s:s, s:s, s:s, s:n, s:{s:s}}", "id", plan.configs[c].id,
			"variant", "running", "method", "local", "release",
			"tunables", "RA",
			cfg.tunables[0].values[plan.configs[c].value[0]]));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 1);
	for (i = 0; i < plan.nruns; i++) {
		const struct kb_run *r = &plan.runs[i];
		char *rdir = kb_run_dir(dir, r->key);
		long k;

		json_array_append_new(keys, json_string(r->key));
		json_object_set_new(runs, r->key, json_pack("{s:s, s:n, s:s}",
			"status", "ok", "reason", "finished",
			"2024-01-01T00:00:00Z"));
		m = json_object();
		for (k = 0; k < nmetrics; k++) {
			double mean = 1000.0 * (double)(k + 1) *
				      (1.0 + 0.01 * (double)r->config);

			json_object_set_new(m, kb_metrics[k].name, json_real(
				mean + gsl_ran_gaussian(rng, mean * 0.02)));
		}
		m = json_pack("{s:s, s:n, s:b, s:o, s:[], s:s, s:s, s:s, s:i}",
			"status", "ok", "reason", "warmup", r->warmup,
			"metrics", m, "warnings", "fio_version", "fio-3.33",
			"configuration", plan.configs[r->config].id,
			"job", cfg.jobs[r->job], "iteration", (int)r->iteration);
		free(path);
		path = kb_path_join(rdir, "metrics.json");
		ret = kb_mkdir_p(rdir) ? -EIO :
		      write_json(path, m, JSON_INDENT(2) | JSON_SORT_KEYS);
		json_decref(m);
		free(rdir);
		if (ret) {
			json_decref(keys);
			json_decref(runs);
			json_decref(configs);
			ret = 1;
			goto out;
		}
	}
	ret = 1;
	st = json_pack("{s:i, s:o}", "schema_version", 1, "runs", runs);
	cj = json_pack("{s:i, s:s, s:s, s:s, s:{s:s, s:[{s:s, s:s}], s:[s], "
		       "s:i, s:i, s:i, s:s, s:s}, s:o, s:o, s:{s:s, s:s}}",
		"schema_version", 1, "kbench_version", KBENCH_VERSION,
		"created", "2024-01-01T00:00:00Z", "config_file", conf,
		"campaign", "baseline", plan.configs[plan.baseline].id,
		"tunables", "label", "RA", "path", "queue/read_ahead_kb",
		"jobs", "randread-4k", "iterations", (int)cfg.iterations,
		"warmup", 0, "runtime_s", 5, "order", "interleave",
		"target", "loop:256M", "configurations", configs, "plan", keys,
		"environment", "kbench_version", KBENCH_VERSION,
		"fio_version", "fio-3.33");
	free(path);
	path = kb_path_join(dir, "state.json");
	if (write_json(path, st, JSON_INDENT(2) | JSON_SORT_KEYS))
		goto out;
	free(path);
	path = kb_path_join(dir, "campaign.json");
	if (write_json(path, cj, JSON_INDENT(2) | JSON_SORT_KEYS))
		goto out;
	printf("runs=%zu metrics=%ld\n", plan.nruns, nmetrics);
	ret = 0;
out:
	if (have_plan)
		plan_free(&plan);
	if (have_cfg)
		kconf_free(&cfg);
	gsl_rng_free(rng);
	json_decref(cj);
	json_decref(st);
	free(conf);
	free(path);
	free(text);
	return ret;
}
