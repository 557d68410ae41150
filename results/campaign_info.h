/* results/campaign_info.h - the typed campaign metadata of a results
 * model: what reports/ and push/ read of results.json besides the metric
 * values (issue 12, step 2).
 *
 * Filled ONCE by kb_rcampaign__fill() when the typed model is built
 * (results/rmodel.h kb_rmodel__new(): kb_rmodel.campaign, and each run's
 * kb_rrun.info), from the jansson results model of
 * docs/results-format.md.  Every string is borrowed from that tree (NULL:
 * the member is absent or not a string), so the tree must outlive the
 * model, as for the rest of kb_rmodel; the arrays are owned and freed by
 * kb_rcampaign__clear() / kb_rrun_info__clear().
 *
 * Numbers that may be absent: NAN for a double, -1 for a count.
 */
#ifndef KB_RESULTS_CAMPAIGN_INFO_H
#define KB_RESULTS_CAMPAIGN_INFO_H

#include <stddef.h>
#include <jansson.h>

#include "results/analysis.h"	/* struct kb_iters */

/* A list of borrowed strings in document order (duplicates kept). */
struct kb_rstrs {
	const char **v;
	size_t n;
};

/* campaign.tunables[i]: {"label": "NM", "path": "queue/nomerges"}, or
 * {"label": "numjobs", "sweep": true} for a swept job parameter. */
struct kb_rtunable {
	const char *label;
	const char *path;	/* sysfs path relative to the queue; NULL
				 * when swept */
	unsigned sweep : 1;
};

/* results["configurations"][i], with what campaign.environment.vm says
 * of its variant (environment.vm.variants[VARIANT]). */
struct kb_rconfig {
	const char *id;			/* "stock,NM=0" */
	const char *variant;		/* "stock" */
	const char *method;		/* "local", "vm", "kexec", ... */
	const char *release;		/* the kernel release */
	const char *baseline;		/* merged reports: the configuration
					 * of the first campaign it is
					 * compared with */
	const char *guest_release;	/* vm: as its guest saw it */
	const char *vm_release;		/* vm.variants[].release */
	const char *accel;		/* vm: "kvm" / "tcg" */
	/* its "tunables" by campaign tunable index: values[t] is the value
	 * of tunables[t].label ({"NM": "0"}), NULL when not set; ntunables
	 * entries (the campaign's) */
	const char **tunable_values;
	const char *cmdline;		/* the kernel command line it booted
					 * with (method vm, kexec); NULL: the
					 * running kernel's */
	json_t *tunables;		/* the object itself (borrowed), for
					 * labels the campaign does not list */
};

/* campaign.environment.load_hosts[i] (hosts =, fio --client): each load
 * host's fio as it answered when the campaign began (runner/campaign.c). */
struct kb_rload_host {
	const char *host;		/* "10.0.0.2:8765"; NULL: absent */
	const char *fio_version;	/* NULL: no answer */
	const char *hostname;		/* NULL: not recorded */
};

/* campaign.environment.vm.variants[NAME] (runner/driver_vm.c): one
 * kernel as method = vm booted it, for report.md's "Kernels under test"
 * (reports/markdown.c). */
struct kb_rvm_variant {
	const char *name;		/* the variant ("stock") */
	const char *guest_release;	/* uname -r in the guest */
	const char *release;		/* kernels.conf's / the package's */
	const char *guest_proc_version;	/* /proc/version in the guest */
	const char *kernel;		/* kernels.conf kernel = */
	const char *package, *package_version;	/* a Debian package */
	const char *image, *image_sha256;	/* the kernel image booted */
	const char *accel;		/* "kvm" / "tcg" */
	const char *accel_requested;	/* accel = ("auto" when NULL) */
	const char *accel_reason;	/* why that accelerator */
	long long cpus, memory_mib;	/* the guest's vCPUs and memory in
					 * MiB; 0: not recorded */
	const char *nullblk_params;	/* null_blk module parameters, ""
					 * for its defaults; NULL: none */
	struct kb_rstrs qemu_argv;	/* the QEMU command line (a NULL
					 * entry: not a string) */
};

/* campaign.environment (campaign.json; runner/env.c): the facts the
 * report header and report.md print. */
struct kb_renv {
	json_t *json;			/* the object (borrowed); NULL: none */
	const char *uname, *kernel_release, *kernel_version, *cpu_model;
	long long cpus;			/* -1: not recorded */
	const char *governor, *memory_total, *fio_version, *perf_version;
	const char *kbench_version, *hostname, *cmdline;
	const char *vm_accel, *vm_timing_note;	/* environment.vm */
	unsigned has_cpus : 1;		/* "cpus" is an integer (any value,
					 * -1 included) */
	const char *vm_qemu_version;	/* environment.vm.qemu_version */
	struct kb_rvm_variant *vm_variants;	/* environment.vm.variants,
						 * in document order */
	size_t nvm_variants;
	struct kb_rload_host *load_hosts;	/* environment.load_hosts */
	size_t nload_hosts;
};

/* kbench run --shard K/N (results/shards.c): campaign.shard of one shard
 * (k, n and the iterations, round indexes, it ran), or one entry of
 * campaign.shards.from of their merge (dir and iterations; k, n -1). */
struct kb_rshard {
	const char *dir;		/* shards.from[].dir; NULL: absent */
	long long k, n;			/* -1: absent */
	struct kb_iters iterations;	/* owned */
	long long planned, done;	/* shards.from[].progress; -1: absent */
};

/* campaign.job_hosts: [job NAME] hosts = ... (the load hosts of one
 * job). */
struct kb_rjob_hosts {
	const char *job;
	struct kb_rstrs hosts;		/* NULL entries: not a string */
};

/* results["disturbed_settings"] (stats/disturbed.h): the thresholds
 * used and the campaign's levels and limits, in percent (idle_fraction:
 * a fraction of the median idle); NAN = off or absent. */
struct kb_rdisturbed_settings {
	int present;			/* the member exists */
	double other_cpu_pct, other_factor, steal_pct, psi_pct;
	double idle_fraction, other_cpu_q1, other_cpu_limit;
	double idle_q3, idle_limit;
};

/* A percentage per metric of the campaign (kernels.conf min_effect /
 * max_mde METRIC=PCT: campaign.min_effect_by_metric {"read.iops": 2}):
 * the members that are numbers, in document order. */
struct kb_rmetric_pct {
	const char *metric;
	double pct;
};

struct kb_rmetric_pcts {
	struct kb_rmetric_pct *v;
	size_t n;
};

/* One rule of campaign.disturbed (kernels.conf disturbed_*, stats/
 * disturbed.h): given = the member is a number (value) or null (value
 * NAN: the rule is off); absent or of another type: not given (the
 * default applies). */
struct kb_rdisturbed_rule {
	int given;
	double value;
};

/* campaign.disturbed: the rules kernels.conf set (present: the member
 * is an object). */
struct kb_rdisturbed_rules {
	int present;
	struct kb_rdisturbed_rule other_cpu_pct, other_factor, steal_pct;
	struct kb_rdisturbed_rule psi_pct, idle_fraction;
};

struct kb_rcampaign {
	const char *name;		/* campaign.name */
	const char *baseline;		/* campaign.baseline: a configuration
					 * id */
	const char *order;		/* "interleave" | "block" | "random" */
	const char *target;		/* "loop:1024M", "/dev/nvme0n1" */
	long long iterations, warmup;	/* -1: absent */
	/* campaign.progress (results_load_campaign()): the runs of the
	 * plan and those done; -1: absent (an export, a merge) */
	long long progress_planned, progress_done;
	double runtime_s;		/* NAN: absent */
	struct kb_rstrs jobs;		/* campaign.jobs */
	struct kb_rstrs hosts;		/* campaign.hosts (fio --client) */
	struct kb_rstrs merged_from;	/* merged reports: the names given */
	/* merged reports (results_merge(), results/model.h): each
	 * campaign's name, the prefix "NAME:" of its configuration ids and
	 * its runs' "campaign", at the index of its merged_from entry */
	struct kb_rstrs merged_names;
	/* merged reports: each campaign's order at the same index (NULL
	 * where it recorded none); order above is NULL when they differ,
	 * and a comparison within one campaign uses that campaign's */
	struct kb_rstrs merged_orders;
	/* merged reports: campaign.merged_job_file_diffs, "job J: the fio
	 * job file differs from line N: ..." for each later campaign whose
	 * job file of J is not the first's (none: n = 0) */
	struct kb_rstrs merged_job_file_diffs;
	/* merged reports: campaign.merged_settings, the settings in which
	 * the campaigns differ, each one's value at the index of its
	 * merged_names entry (NAN or -1 where it recorded none); n = 0
	 * when they all agree (runtime_s, iterations and warmup above are
	 * the first's) */
	struct kb_rmerged_settings {
		size_t n;
		double *runtime_s;		/* NULL: all equal */
		long long *iterations, *warmup;	/* NULL: all equal */
	} merged_settings;
	struct kb_rtunable *tunables;	/* campaign.tunables */
	size_t ntunables;
	struct kb_rconfig *configs;	/* results["configurations"] */
	size_t nconfigs;
	struct kb_renv env;		/* campaign.environment */
	/* merged reports: campaign.environments, by campaign name */
	const char **env_names;
	struct kb_renv *envs;
	size_t nenvs;
	unsigned envs_equal : 1;	/* every one of envs is equal to the
					 * first, member for member (jansson's
					 * json_equal(); 1 when nenvs < 2) */
	/* campaign.job_files: each job's fio job file text, by job name
	 * (texts[i] NULL when not a string) */
	const char **job_file_names, **job_file_texts;
	size_t njob_files;
	struct kb_rdisturbed_settings disturbed;
	/* the comparison settings kernels.conf gave (stats/compare.h):
	 * campaign.alpha, .min_effect_pct and .max_mde_pct (percent), NAN
	 * when absent or not a number, and per metric
	 * campaign.min_effect_by_metric, .max_mde_by_metric */
	double alpha, min_effect_pct, max_mde_pct;
	struct kb_rmetric_pcts min_effect_by_metric, max_mde_by_metric;
	/* campaign.calibration (kernels.conf calibration = FILE,
	 * runner/calibrate.h): the analysis it chose ("welch-log", ...)
	 * and the file; NULL: none */
	const char *calibration_analysis, *calibration_file;
	struct kb_rdisturbed_rules disturbed_rules;	/* campaign.disturbed */
	/* kbench run --shard: has_shard, this shard (campaign.shard);
	 * nshards_merged > 0 (campaign.shards.n, -1 when absent): the merge
	 * of shards_from[0 .. nshards_from) */
	int has_shard, has_shards;
	struct kb_rshard shard;
	long long nshards_merged;
	struct kb_rshard *shards_from;
	size_t nshards_from;
	struct kb_rjob_hosts *job_hosts;	/* campaign.job_hosts */
	size_t njob_hosts;
	struct kb_rstrs layouts;	/* campaign.layouts (kernels.conf
					 * layouts = rounds ...) */
	/* campaign.prefix (kernels.conf prefix = auto): "auto", the
	 * reports' values scaled unless --prefix says otherwise
	 * (reports/report.h KB_PREFIX_CAMPAIGN); NULL: none */
	const char *prefix;
	size_t nsuperseded;		/* results["superseded"]: runs run
					 * again (retry_disturbed) */
	size_t nsuperseded_failed;	/* of those, the failed runs that
					 * --retry-failed ran again (reason
					 * "failed: ...") */
	/* merged reports (merged_names.n > 0): of nsuperseded and
	 * nsuperseded_failed, each campaign's (the entry's "campaign",
	 * results_merge()) at the index of its merged_names entry; an
	 * entry of no campaign named counts in neither.  NULL when not
	 * merged. */
	size_t *merged_superseded, *merged_superseded_failed;
	int exclude_disturbed;		/* analysis_options.exclude_disturbed
					 * is true (stats/disturbed.h) */
};

/* What reports read of one run (results["runs"][i]) besides its
 * metrics. */
struct kb_rrun_info {
	const char *excluded;		/* why it is left out although ok
					 * ("disturbed", "suspect", ...) */
	const char *reason;		/* why it failed */
	int has_iteration;		/* "iteration" is an integer (the
					 * value: kb_rrun.iteration) */
	struct kb_rstrs disturbed;	/* "disturbed": the broken rules */
	struct kb_rstrs outliers;	/* "outliers": metric names */
	struct kb_rstrs flags;		/* "flags": reasons to doubt it */
	unsigned has_flags : 1;		/* a "flags" member, of any type
					 * (disturbance was measured) */
	unsigned flagged : 1;		/* "flags" is a non-empty array or
					 * object */
	unsigned has_excluded : 1;	/* an "excluded" member, of any
					 * type */
	/* "params": swept job parameters, names[i] = values[i] ({"numjobs":
	 * "4"}); values NULL when not a string */
	const char **param_names, **param_values;
	size_t nparams;
	struct kb_rstrs warnings;	/* "warnings", in order (a non-string
					 * entry: NULL); "profile: ..." ones
					 * are the profile tables' notes */
	const char *extra;		/* an extra run's "extra"
					 * (results["profiling_runs"]:
					 * "profiling" | "unsampled"), NULL
					 * for a counted run */
	/* "excluded_outliers" (--exclude-outliers, stats_mark_outliers_in()):
	 * the metric names and the values left out (0 when not a number) */
	const char **excluded_outlier_names;
	double *excluded_outlier_values;
	size_t nexcluded_outliers;
	long long target_size_bytes;	/* "target_size_bytes" (the size fio
					 * was given, runner/run_exec.c); 0
					 * when absent or not an integer */
};

/* Fill c from results (campaign, configurations, disturbed_settings).
 * Never fails: what is absent stays NULL / NAN / -1 / empty. */
void kb_rcampaign__fill(struct kb_rcampaign *c, json_t *results);
void kb_rcampaign__clear(struct kb_rcampaign *c);

/* 1 when the campaign sweeps a job parameter (a tunable with "sweep":
 * true, kernels.conf "sweep"), else 0. */
int kb_rcampaign__swept(const struct kb_rcampaign *c);

/* The text of job's fio job file (campaign.job_files[job]), or NULL
 * (not recorded, or not a string). */
const char *kb_rcampaign__job_file(const struct kb_rcampaign *c,
				   const char *job);

/* Index of tunable label in c->tunables, or (size_t)-1. */
size_t kb_rcampaign__tunable(const struct kb_rcampaign *c, const char *label);

/* The distinct keys of every configuration's "tunables", in order of
 * first appearance (the labels a report's dimensions take; a merged
 * report's configurations may have labels its campaign.tunables lacks):
 * at most max into out (borrowed), the number stored. */
size_t kb_rcampaign__labels(const struct kb_rcampaign *c, const char **out,
			    size_t max);

/* The value of tunable label in configuration x ({"NM": "0"}): the
 * string, or NULL (x NULL, label unset or not a string). */
const char *kb_rconfig__tunable(const struct kb_rconfig *x,
				const char *label);

/* The configuration of id, or NULL. */
const struct kb_rconfig *kb_rcampaign__config(const struct kb_rcampaign *c,
					      const char *id);

/* The percentage of metric in p (its first entry), or NAN (none). */
double kb_rmetric_pcts__get(const struct kb_rmetric_pcts *p,
			    const char *metric);

/* One member key of an environment (campaign.environment, any JSON
 * type), for comparing two campaigns' (`kbench compare`'s warning):
 * kb_renv__has(): KB_RENV_ABSENT (no such member, or no environment),
 *   KB_RENV_NULL (null) or KB_RENV_SET (any other value).
 * kb_renv__equal(): 1 when both hold key with equal values (jansson's
 *   json_equal(): same type and value, member for member), else 0.
 * kb_renv__text(): the value as compact JSON ("\"performance\"", "8",
 *   "true", "null"; jansson's json_dumps() with JSON_ENCODE_ANY),
 *   malloc'd; NULL when absent. */
enum kb_renv_has { KB_RENV_ABSENT, KB_RENV_NULL, KB_RENV_SET };
enum kb_renv_has kb_renv__has(const struct kb_renv *e, const char *key);
int kb_renv__equal(const struct kb_renv *a, const struct kb_renv *b,
		   const char *key);
char *kb_renv__text(const struct kb_renv *e, const char *key);

/* Fill / free the info of one run object. */
void kb_rrun_info__fill(struct kb_rrun_info *i, json_t *run);
void kb_rrun_info__clear(struct kb_rrun_info *i);

/* The value of swept parameter name in the run, or NULL. */
const char *kb_rrun_info__param(const struct kb_rrun_info *i,
				const char *name);

/* Merged shards (kbench report DIR/shard-*): "shard 2/2 has 1 to do:
 * kbench run -o DIR/shard-2 resumes it; ...", each shard whose own
 * progress (shards.from[].progress) is short of its plan; NULL when c is
 * not merged shards or none is (malloc'd). */
char *kb_rcampaign__unfinished_shards(const struct kb_rcampaign *c);

/* What runs failed runs again: "kbench run -o DIR --retry-failed runs
 * them again"; for merged shards (c->has_shards) each shard among
 * shard_k[0..nk) (the runs' "shard" numbers, repeats allowed) by its
 * own directory, "kbench run -o DIR/shard-1 --retry-failed; kbench run
 * -o DIR/shard-2 --retry-failed run them again" (kbench run -o on the
 * directory holding the shards starts no shard).  malloc'd. */
char *kb_rcampaign__retry_failed_hint(const struct kb_rcampaign *c,
				      const char *dir,
				      const long long *shard_k, size_t nk);

#endif
