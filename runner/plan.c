#include "runner/plan.h"
#include "runner/drivers.h"
#include "results/calibration.h"
#include "results/paths.h"
#include "results/records.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <errno.h>
#include <limits.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *config_id(const struct kb_config *cfg,
		       const struct kb_configuration *c)
{
	char *id = kb_xstrdup(cfg->variants[c->variant].name);
	size_t t;

	for (t = 0; t < cfg->ntunables; t++) {
		char *next = kb_xasprintf("%s,%s=%s", id,
					  cfg->tunables[t].label,
					  cfg->tunables[t].values[c->value[t]]);
		free(id);
		id = next;
	}
	return id;
}

char *plan_target_str(const struct kb_config *cfg)
{
	if (cfg->target_kind == KB_TARGET_LOOP || !cfg->target)
		return kb_xasprintf("loop:%lluM", cfg->loop_size_bytes >> 20);
	return kb_xasprintf("%s%s", cfg->target_kind == KB_TARGET_FILE ?
			    "file:" : "", cfg->target);
}

int plan_check_calibration(const struct kb_config *cfg,
			   const struct kb_plan *plan,
			   const struct kb_calibration *cal)
{
	char *target = plan_target_str(cfg), *diff;
	int no_job = 0;

	diff = results_calibration_misfit(cal, (const char *const *)cfg->jobs,
					  cfg->njobs, target,
					  plan->configs[plan->baseline].id,
					  cfg->runtime_s, &no_job);
	free(target);
	if (!diff)
		return 0;
	if (no_job)
		kb_error("%s:%d: calibration = %s calibrated none of this "
			 "campaign's jobs (%s): its rounds and analysis say "
			 "nothing about them; run `kbench calibrate -c %s` "
			 "again, or remove the key", cfg->path,
			 cfg->calibration_line, cfg->calibration, diff,
			 cfg->path);
	else
		kb_warn("%s:%d: calibration = %s was measured on another "
			"setup (%s): its rounds (iterations = auto, kbench "
			"plan) and its analysis choice may not fit this "
			"campaign; run `kbench calibrate -c %s` again",
			cfg->path, cfg->calibration_line, cfg->calibration,
			diff, cfg->path);
	free(diff);
	return no_job ? -EINVAL : 0;
}

unsigned plan_extra_runs(const struct kb_config *cfg)
{
	return cfg->nprofile ? cfg->profile_runs : 0;
}

int plan_run_sampled(const struct kb_config *cfg, const struct kb_run *r)
{
	if (!cfg->nprofile)
		return 0;
	if (cfg->profile_during_counted)
		return r->extra != KB_RUN_UNSAMPLED;
	return r->extra == KB_RUN_PROFILING;
}

/* The counted (or warm-up) run of (c, j) in round it, then its extra
 * runs when the round is timed (runner/plan.h). */
static void add_run(const struct kb_config *cfg, struct kb_plan *p,
		    size_t c, size_t j, unsigned it)
{
	struct kb_run *r = &p->runs[p->nruns++];
	unsigned k;

	r->config = c;
	r->job = j;
	r->iteration = it;
	r->warmup = it < cfg->warmup;
	r->extra = KB_RUN_COUNTED;
	r->key = kb_run_key(p->configs[c].id, cfg->jobs[j], it);
	if (it < cfg->warmup)
		return;
	for (k = 1; k <= plan_extra_runs(cfg); k++) {
		r = &p->runs[p->nruns++];
		r->config = c;
		r->job = j;
		r->iteration = it;
		r->warmup = 0;
		r->extra = cfg->profile_during_counted ? KB_RUN_UNSAMPLED :
			   KB_RUN_PROFILING;
		r->key = kb_extra_run_key(p->configs[c].id, cfg->jobs[j], it,
					  r->extra == KB_RUN_PROFILING ?
					  "profiling" : "unsampled", k);
	}
}

/* The configuration at position pos of round it (runner/plan.h,
 * rotation).  Configurations are variant-major, K = C / V of each
 * variant: round it moves the variants by it mod V and, inside each
 * variant, its configurations by (it / V) mod K, so a variant's
 * configurations stay together (one boot per variant per round for the
 * vm and kexec methods) and over C rounds every configuration takes
 * every position once.  One variant: configuration (pos + it) mod C. */
static size_t rotated(size_t ncfg, size_t nvariants, size_t pos,
		      unsigned it, int fixed_variants)
{
	size_t k = nvariants ? ncfg / nvariants : ncfg;
	size_t v, i;

	if (!k || !nvariants || k * nvariants != ncfg)
		return (pos + it) % (ncfg ? ncfg : 1);
	if (fixed_variants) {
		v = pos / k;
		i = (pos % k + it % k) % k;
	} else {
		v = (pos / k + it % nvariants) % nvariants;
		i = (pos % k + (it / nvariants) % k) % k;
	}
	return v * k + i;
}

/* 1 when a variant boots a kernel (method = vm or kexec): its variants
 * keep their order in every round (runner/plan.h). */
static int boots(const struct kb_config *cfg)
{
	const struct kb_driver *d;
	size_t v;

	for (v = 0; v < cfg->nvariants; v++) {
		d = driver_of(&cfg->variants[v]);
		if (d && (d->flags & KB_DRIVER_BOOTS))
			return 1;
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 (said) when two configurations share an id: values that hold
 * ",LABEL=" (sweep A = p p,B=q with sweep B = q,B=r r) spell one
 * configuration's id with another's, and the two would share their run
 * directories and be pooled as one sample. */
static int duplicate_id(const struct kb_config *cfg, const struct kb_plan *p)
{
	char **ids = kb_xcalloc(p->nconfigs + 1, sizeof(*ids));
	size_t c;
	int dup = 0;

	for (c = 0; c < p->nconfigs; c++)
		ids[c] = p->configs[c].id;
	qsort(ids, p->nconfigs, sizeof(*ids), cmp_id);
	for (c = 1; c < p->nconfigs && !dup; c++)
		if (!strcmp(ids[c - 1], ids[c])) {
			kb_error("%s: two configurations have the id '%s' "
				 "(a tunable's or sweep's value holds ',' and "
				 "'=' as in ',LABEL=value'); change the values "
				 "so that each configuration has an id of its "
				 "own", cfg->path ? cfg->path : "kernels.conf",
				 ids[c]);
			dup = 1;
		}
	free(ids);
	return dup;
}

int plan_build(const struct kb_config *cfg, struct kb_plan *p)
{
	size_t ncfg = cfg->nvariants, c, t, j, v;
	unsigned it, nit;
	/* counted in double: warmup + iterations wrapped in unsigned
	 * (iterations = 4294967295 planned 0 runs, "about 0s": a break-it
	 * trial); with iterations = auto, the most its rounds can reach */
	int grows = cfg->iterations_auto &&
		    cfg->max_iterations > cfg->iterations;
	double timed = grows ? cfg->max_iterations : cfg->iterations;
	double nruns = (double)cfg->nvariants * cfg->njobs *
		       ((double)cfg->warmup + timed *
			(1.0 + plan_extra_runs(cfg)));

	memset(p, 0, sizeof(*p));
	for (t = 0; t < cfg->ntunables; t++) {
		ncfg *= cfg->tunables[t].nvalues;
		nruns *= (double)cfg->tunables[t].nvalues;
	}
	if (nruns > KB_MAX_RUNS) {
		char extra[64] = "";

		if (plan_extra_runs(cfg))
			snprintf(extra, sizeof(extra), " x (1 + profile_runs "
				 "= %u)", plan_extra_runs(cfg));
		kb_error("%s: the matrix has %.0f runs (variants x tunable and "
			 "sweep values x jobs x (warmup = %u + %s = %u%s)); "
			 "kbench plans at most %d: sweep fewer values, lower "
			 "these or split the campaign", cfg->path, nruns,
			 cfg->warmup, grows ? "max_iterations" : "iterations",
			 grows ? cfg->max_iterations : cfg->iterations, extra,
			 KB_MAX_RUNS);
		return -E2BIG;
	}
	nit = cfg->warmup + cfg->iterations;	/* at most KB_MAX_RUNS now */
	p->configs = kb_xcalloc(ncfg, sizeof(*p->configs));
	for (c = 0; c < ncfg; c++) {
		size_t rest = c;

		/* last tunable varies fastest */
		for (t = cfg->ntunables; t-- > 0;) {
			p->configs[c].value[t] = rest % cfg->tunables[t].nvalues;
			rest /= cfg->tunables[t].nvalues;
		}
		p->configs[c].variant = rest;
		p->configs[c].id = config_id(cfg, &p->configs[c]);
	}
	p->nconfigs = ncfg;
	/* a configuration id is a directory name (runs/<id>/...): `plan`
	 * refuses what `run` could not create (NAME_MAX 255 bytes) */
	for (c = 0; c < ncfg; c++)
		if (strlen(p->configs[c].id) > KB_MAX_ID) {
			kb_error("%s: configuration id '%.48s...' is %zu bytes: "
				 "at most %d (it names the run directories); "
				 "use shorter variant names, labels or values",
				 cfg->path ? cfg->path : "kernels.conf",
				 p->configs[c].id, strlen(p->configs[c].id),
				 KB_MAX_ID);
			plan_free(p);
			return -ENAMETOOLONG;
		}
	if (duplicate_id(cfg, p)) {
		plan_free(p);
		return -EINVAL;
	}

	p->runs = kb_xcalloc(ncfg * cfg->njobs * (nit + cfg->iterations *
			     plan_extra_runs(cfg)), sizeof(*p->runs));
	if (cfg->order == KB_ORDER_BLOCK) {
		for (c = 0; c < ncfg; c++)
			for (j = 0; j < cfg->njobs; j++)
				for (it = 0; it < nit; it++)
					add_run(cfg, p, c, j, it);
	} else {
		gsl_rng *rng = NULL;

		if (cfg->order == KB_ORDER_RANDOM) {
			rng = gsl_rng_alloc(gsl_rng_mt19937);
			gsl_rng_set(rng, cfg->seed);
		}
		for (it = 0; it < nit; it++) {
			size_t first = p->nruns;

			/* round it starts at configuration it mod C: every
			 * configuration takes every position in turn, so
			 * position and configuration are not confounded */
			for (c = 0; c < ncfg; c++)
				for (j = 0; j < cfg->njobs; j++)
					add_run(cfg, p, rotated(ncfg,
						cfg->nvariants, c, it,
						boots(cfg)), j, it);
			if (rng)
				gsl_ran_shuffle(rng, p->runs + first,
						p->nruns - first,
						sizeof(*p->runs));
		}
		if (rng)
			gsl_rng_free(rng);
	}

	p->baseline = 0;
	if (cfg->baseline) {
		for (v = 0; v < ncfg; v++)
			if (!strcmp(p->configs[v].id, cfg->baseline))
				break;
		if (v == ncfg) {
			kb_error("%s: baseline '%s' is not a configuration; "
				 "configurations are:", cfg->path, cfg->baseline);
			for (v = 0; v < ncfg; v++)
				fprintf(stderr, "  %s\n", p->configs[v].id);
			plan_free(p);
			return -EINVAL;
		}
		p->baseline = v;
	}
	return 0;
}

int plan_parse_shard(const char *arg, unsigned *k, unsigned *n)
{
	unsigned long long kk, nn;
	const char *end;

	if (kb_parse_ull(arg, ULONG_MAX, &kk, &end) || *end != '/' ||
	    kb_parse_ull(end + 1, ULONG_MAX, &nn, NULL))
		goto syntax;
	if (nn < 1 || nn > KB_MAX_SHARDS) {
		kb_error("--shard %s: N, the number of shards, must be 1 to %d",
			 arg, KB_MAX_SHARDS);
		return -EINVAL;
	}
	if (kk < 1 || kk > nn) {
		kb_error("--shard %s: K, this shard, must be 1 to N (%llu)", arg,
			 nn);
		return -EINVAL;
	}
	*k = (unsigned)kk;
	*n = (unsigned)nn;
	return 0;
syntax:
	kb_error("--shard '%s': give K/N, this machine's shard K of N "
		 "(e.g. --shard 1/4)", arg ? arg : "");
	return -EINVAL;
}

unsigned plan_shard_of(const struct kb_config *cfg, unsigned it, unsigned n)
{
	if (it < cfg->warmup)
		return 0;
	return (it - cfg->warmup) % n + 1;
}

int plan_shard(const struct kb_config *cfg, struct kb_plan *p, unsigned k,
	       unsigned n)
{
	size_t i, kept = 0;

	if (cfg->iterations_auto) {
		kb_error("%s: iterations = auto cannot be split into shards "
			 "(--shard %u/%u): each shard would decide alone when "
			 "to stop, and the merged campaign would follow no "
			 "rule; set a number of iterations", cfg->path, k, n);
		return -EINVAL;
	}
	if (cfg->iterations < n) {
		kb_error("%s: --shard %u/%u: the campaign has %u timed "
			 "iteration(s), fewer than %u shards, so a shard would "
			 "measure nothing (shards split whole rounds); use at "
			 "most %u shards or raise iterations", cfg->path, k, n,
			 cfg->iterations, n, cfg->iterations);
		return -EINVAL;
	}
	for (i = 0; i < p->nruns; i++) {
		unsigned s = plan_shard_of(cfg, p->runs[i].iteration, n);

		if (s && s != k) {
			free(p->runs[i].key);
			continue;
		}
		p->runs[kept++] = p->runs[i];
	}
	p->nruns = kept;
	return 0;
}

unsigned plan_rounds(const struct kb_plan *p)
{
	unsigned max = 0;
	size_t i;

	for (i = 0; i < p->nruns; i++)
		if (p->runs[i].iteration + 1 > max)
			max = p->runs[i].iteration + 1;
	return max;
}

size_t plan_add_round(const struct kb_config *cfg, struct kb_plan *p)
{
	unsigned it = plan_rounds(p);
	size_t first = p->nruns, c, j;

	p->runs = kb_xrealloc(p->runs, (p->nruns + p->nconfigs * cfg->njobs *
			      (1 + plan_extra_runs(cfg))) * sizeof(*p->runs));
	for (c = 0; c < p->nconfigs; c++)	/* rotated, as plan_build() */
		for (j = 0; j < cfg->njobs; j++)
			add_run(cfg, p, rotated(p->nconfigs,
				cfg->nvariants, c, it, boots(cfg)), j, it);
	if (cfg->order == KB_ORDER_RANDOM) {
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

		gsl_rng_set(rng, cfg->seed + it);
		gsl_ran_shuffle(rng, p->runs + first, p->nruns - first,
				sizeof(*p->runs));
		gsl_rng_free(rng);
	}
	return p->nruns - first;
}

double plan_job_run_s(const struct kb_config *cfg, size_t j)
{
	return j < cfg->njobs && cfg->job_run_s[j] > 0 ? cfg->job_run_s[j] :
	       cfg->runtime_s;
}

double plan_estimate_s(const struct kb_config *cfg, size_t nruns)
{
	double sum = 0;
	size_t j;

	for (j = 0; j < cfg->njobs; j++)
		sum += plan_job_run_s(cfg, j);
	return nruns * ((cfg->njobs ? sum / cfg->njobs : cfg->runtime_s) +
			KB_RUN_OVERHEAD_S);
}

/* plan_count_boots(), and with secs the seconds they add: a vm boot
 * plan_boot_estimate_s(cfg, dir), a kexec one KB_BOOT_KEXEC_S. */
static size_t count_boots(const struct kb_config *cfg, const struct kb_plan *p,
			  const unsigned char *todo, const char *dir,
			  double *secs)
{
	size_t i, boots = 0, prev = (size_t)-1;
	double vm_s = -1;

	if (secs)
		*secs = 0;
	for (i = 0; i < p->nruns; i++) {
		size_t v = p->configs[p->runs[i].config].variant;
		const struct kb_driver *d = driver_of(&cfg->variants[v]);

		if (todo && !todo[i])
			continue;
		if (d && (d->flags & KB_DRIVER_BOOTS) && v != prev) {
			boots++;
			if (secs && !(d->flags & KB_DRIVER_ACCEL))
				*secs += KB_BOOT_KEXEC_S;
			else if (secs && vm_s < 0)
				*secs += vm_s = plan_boot_estimate_s(cfg, dir);
			else if (secs)
				*secs += vm_s;
		}
		prev = v;
	}
	return boots;
}

size_t plan_count_boots(const struct kb_config *cfg, const struct kb_plan *p,
			const unsigned char *todo)
{
	return count_boots(cfg, p, todo, NULL, NULL);
}

double plan_boots_s(const struct kb_config *cfg, const struct kb_plan *p,
		    const unsigned char *todo, const char *dir)
{
	double s;

	count_boots(cfg, p, todo, dir, &s);
	return s;
}

/* 1 when the vm variants of cfg will boot under TCG (runner/accel.h). */
static int expect_tcg(const struct kb_config *cfg)
{
	const char *e = getenv("KBENCH_ACCEL");
	char *why = NULL;
	int usable;
	size_t i;

	if (e && *e && strcmp(e, "auto"))	/* "auto": as below */
		return !strcmp(e, "tcg");
	for (i = 0; i < cfg->nvariants; i++) {
		const struct kb_driver *d = driver_of(&cfg->variants[i]);

		if (d && (d->flags & KB_DRIVER_ACCEL) &&
		    cfg->variants[i].accel == KB_ACCEL_TCG)
			return 1;
	}
	if (access("/dev/kvm", R_OK | W_OK) < 0)
		return 1;
	if (records_kvm_probe_machine(&usable, &why)) {
		free(why);
		return !usable;
	}
	return 0;
}

double plan_boot_estimate_s(const struct kb_config *cfg, const char *dir)
{
	size_t n = 0;
	double mean = dir ? records_boot_overhead_mean(dir, cfg->runtime_s +
				KB_RUN_OVERHEAD_S, &n) : 0;

	if (n)
		return mean;
	return expect_tcg(cfg) ? KB_BOOT_TCG_S : KB_BOOT_KVM_S;
}

double plan_estimate_total_s(const struct kb_config *cfg,
			     const struct kb_plan *p, const unsigned char *todo,
			     const char *dir)
{
	size_t i;
	double s = 0;

	for (i = 0; i < p->nruns; i++)
		if (!todo || todo[i])
			s += plan_job_run_s(cfg, p->runs[i].job) +
			     KB_RUN_OVERHEAD_S;
	return s + plan_boots_s(cfg, p, todo, dir);
}

char *plan_fmt_duration(double s, char *buf, size_t len)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%luh%02lum", t / 3600, t % 3600 / 60);
	else if (t >= 60)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%lus", t);
	return buf;
}

void plan_free(struct kb_plan *p)
{
	size_t i;

	for (i = 0; i < p->nconfigs; i++)
		free(p->configs[i].id);
	for (i = 0; i < p->nruns; i++)
		free(p->runs[i].key);
	free(p->configs);
	free(p->runs);
	memset(p, 0, sizeof(*p));
}
