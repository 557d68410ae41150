/* runner/plan.h - the campaign matrix expanded into an ordered run list.
 *
 * configurations = variants x (values of tunable 1) x ... x (values of
 * tunable k), in kernels.conf order (the first variant and the first
 * value of each tunable vary slowest).  Each (configuration, job) gets
 * warmup + iterations runs, iteration indices 0..warmup+iterations-1,
 * the first `warmup` of them discarded from the statistics.
 *
 * Orders (kernels.conf `order`):
 *   interleave  iteration i of every configuration and job before
 *               iteration i+1 of any (drift hits every configuration alike);
 *               round i (iteration i) starts at configuration i mod C and
 *               goes round (C = the number of configurations): each
 *               configuration takes each position in turn, so a position
 *               effect (the run after a reboot, after an idle pause) is
 *               not confounded with a configuration.  With several
 *               variants of several configurations each, the variants
 *               rotate (i mod V) and, inside each, its configurations
 *               ((i / V) mod K): a variant's configurations stay
 *               together.  When a variant boots a kernel (method = vm
 *               or kexec) the variants keep their order (A B A B: one
 *               boot of each per round; rotated, B's runs of two rounds
 *               would share a boot) and only the configurations inside
 *               each variant rotate (i mod K)
 *   block       all iterations of one (configuration, job), then the next
 *   random      interleave (rotated), with the order inside each round
 *               shuffled by GSL's MT19937 seeded with `seed` (a
 *               randomised block design: warm-ups still come first)
 *
 * Profiling runs (kernels.conf profile =, profile_runs =,
 * profile_during =): in every timed round (never a warm-up round) each
 * (configuration, job) gets profile_runs extra runs planned right after
 * its counted run (order = random shuffles them with the round), with
 * the round's iteration index and a key suffix "-profilingK" or
 * "-unsampledK" (K = 1..profile_runs).  They never enter the samples,
 * summaries or comparisons (results/model.c keeps them apart, in
 * results.json "profiling_runs").
 */
#ifndef KB_PLAN_H
#define KB_PLAN_H

#include "parsers/kconf.h"

#include <stddef.h>

struct kb_configuration {
	char *id;		/* "stock,NM=0" */
	size_t variant;		/* index into cfg->variants */
	size_t value[KB_MAX_TUNABLES];	/* index into tunables[t].values */
};

/* What a run is for (struct kb_run .extra). */
enum kb_run_extra {
	KB_RUN_COUNTED = 0,	/* a counted run (or a warm-up) */
	KB_RUN_PROFILING,	/* perf record samples here; never counted */
	KB_RUN_UNSAMPLED,	/* profile_during = counted-runs: the pair of
				 * a sampled counted run; never counted */
};

struct kb_run {
	size_t config;		/* index into plan->configs */
	size_t job;		/* index into cfg->jobs */
	unsigned iteration;	/* 0-based, warm-ups first */
	int warmup;		/* 1 when iteration < cfg->warmup */
	int extra;		/* enum kb_run_extra */
	char *key;		/* "stock,NM=0/randread-4k/001": the run's
				 * directory below runs/ and its state key;
				 * an extra run's key has a suffix
				 * (results/paths.h kb_extra_run_key) */
};

struct kb_plan {
	struct kb_configuration *configs;
	size_t nconfigs;
	struct kb_run *runs;
	size_t nruns;
	size_t baseline;	/* index of the baseline configuration */
};

/* Longest configuration id (a directory name under runs/). */
#define KB_MAX_ID 200

/* Most runs one campaign may plan (a million 1-second runs is 11 days). */
#define KB_MAX_RUNS 1000000

/* Extra runs per (configuration, job) and timed round: profile_runs
 * when profile = is set, else 0. */
unsigned plan_extra_runs(const struct kb_config *cfg);

/* 1 when perf record samples during run r: the profiling runs, or with
 * profile_during = counted-runs every run but the unsampled ones. */
int plan_run_sampled(const struct kb_config *cfg, const struct kb_run *r);

/* Expand cfg into plan.  0, -EINVAL when `baseline` names no
 * configuration (message lists the ids), -E2BIG over KB_MAX_RUNS. */
int plan_build(const struct kb_config *cfg, struct kb_plan *plan);

/* The target as campaign.json records it: "loop:256M", "file:PATH",
 * or the device path; malloc'd. */
char *plan_target_str(const struct kb_config *cfg);

/* kernels.conf calibration = FILE (cal, read by calibrate_apply(),
 * runner/calibrate.h) against this campaign (cfg, plan): when the A/A
 * campaign it was measured on differs where its numbers come from
 * (results_calibration_misfit(): jobs, target, baseline configuration,
 * runtime), a warning naming kernels.conf's line and each difference:
 * its rounds (iterations = auto, kbench plan) and its analysis choice
 * may not fit.  Refused (-EINVAL, the message says so) when it
 * calibrated none of this campaign's jobs: then it measured the noise of
 * other work, and its rounds and analysis would be meaningless here.
 * 0 otherwise. */
struct kb_calibration;
int plan_check_calibration(const struct kb_config *cfg,
			   const struct kb_plan *plan,
			   const struct kb_calibration *cal);

/* Seconds a run of job j lasts: cfg->job_run_s[j] (its job file's
 * time_based runtime, ramp_time and startdelay) when known, else
 * runtime. */
double plan_job_run_s(const struct kb_config *cfg, size_t j);

/* Estimated seconds for n runs, the jobs in equal shares: each job's
 * plan_job_run_s() plus a fixed per-run overhead (cache drop, fio
 * start-up) of KB_RUN_OVERHEAD_S. */
#define KB_RUN_OVERHEAD_S 2.0
double plan_estimate_s(const struct kb_config *cfg, size_t nruns);

/* Boots the runs of p need: a method = vm or kexec variant boots once per
 * batch, a batch being its consecutive runs in plan order (runs not to
 * do skipped: todo[i] == 0; todo NULL = every run), as
 * driver_run_next_batch() groups them. */
size_t plan_count_boots(const struct kb_config *cfg, const struct kb_plan *p,
			const unsigned char *todo);

/* Seconds one boot of a vm variant adds beyond its runs: the mean
 * measured by this campaign's earlier boots (dir/boots/NNN-V/timing.json,
 * written by the vm driver: wall_s - runs x (runtime +
 * KB_RUN_OVERHEAD_S)), else a
 * default by accelerator: KB_BOOT_TCG_S when the vm variants will run
 * under TCG (accel = tcg, KBENCH_ACCEL=tcg, no usable /dev/kvm, or a
 * remembered failed KVM probe), else KB_BOOT_KVM_S.  dir may be NULL. */
#define KB_BOOT_TCG_S 35.0
#define KB_BOOT_KVM_S 8.0
double plan_boot_estimate_s(const struct kb_config *cfg, const char *dir);

/* Seconds a kexec boot adds: the kernel's shutdown and boot, userspace
 * up to kbench-resume.service (no firmware); a guess, not measured.
 * Not QEMU's accelerator: kexec boots were estimated as TCG guests where
 * /dev/kvm was missing (a break-it trial). */
#define KB_BOOT_KEXEC_S 30.0

/* Seconds the boots of plan_count_boots() add: each vm boot
 * plan_boot_estimate_s(cfg, dir), each kexec boot KB_BOOT_KEXEC_S. */
double plan_boots_s(const struct kb_config *cfg, const struct kb_plan *p,
		    const unsigned char *todo, const char *dir);

/* Runs plus boots: the ETA of `kbench plan` and `kbench run`. */
double plan_estimate_total_s(const struct kb_config *cfg,
			     const struct kb_plan *p, const unsigned char *todo,
			     const char *dir);

/* "1h02m", "3m05s", "42s" into buf. */
char *plan_fmt_duration(double s, char *buf, size_t len);

/* iterations = auto (runner/adaptive.c): append one more round, the
 * next iteration index of every (configuration, job), interleaved
 * (shuffled by GSL MT19937 seeded with seed + the index for order =
 * random).  Returns the number of runs added. */
size_t plan_add_round(const struct kb_config *cfg, struct kb_plan *plan);

/* Rounds (warm-ups included) in the plan: iterations per
 * (configuration, job). */
unsigned plan_rounds(const struct kb_plan *plan);

/* Shards (`kbench run --shard K/N`, issue 17): a campaign split over N
 * machines, each running a deterministic K-th of the matrix made of
 * whole rounds.  Timed round t (0-based among the timed iterations, run
 * key iteration warmup + t) goes to shard t mod N + 1; the warm-up
 * rounds go to every shard, since a warm-up brings the machine that runs
 * it to steady state (page cache, device, clocks) and each shard is
 * another machine.  A round is never split, so every configuration of a
 * timed round runs on one machine close in time, and pairing by round
 * holds in the merged campaign; warm-ups never enter the statistics.
 * Shard K of N keeps the run order of the unsplit plan for its rounds
 * (order = random too: the same shuffles). */
#define KB_MAX_SHARDS 1000

/* Parse "K/N" (decimal, 1 <= K <= N <= KB_MAX_SHARDS) into *k, *n.  0,
 * or -EINVAL with a message naming what is wrong. */
int plan_parse_shard(const char *arg, unsigned *k, unsigned *n);

/* The shard (1..n) that runs iteration index it (warm-ups first, as in
 * run keys), or 0 for a warm-up (every shard). */
unsigned plan_shard_of(const struct kb_config *cfg, unsigned it, unsigned n);

/* Keep only the runs of shard k of n in p (plan order kept).  0, or
 * -EINVAL with a message: iterations = auto (each shard would stop on
 * its own rule), or fewer timed iterations than shards (a shard would
 * measure nothing). */
int plan_shard(const struct kb_config *cfg, struct kb_plan *p, unsigned k,
	       unsigned n);

void plan_free(struct kb_plan *plan);

#endif
