/* results/campaign_json.h - the parts of DIR/campaign.json and
 * DIR/state.json (docs/results-format.md; results/paths.h has the
 * layout) that the runner updates as a campaign goes, read and written
 * here so that runner/ handles no JSON:
 *   campaign.json "plan"                 every planned run's key, in run
 *                                        order ("CONFIG/JOB/NNN")
 *   campaign.json campaign.iterations    timed rounds per (configuration,
 *                                        job)
 * and the whole of campaign.json when a campaign is created
 * (results_campaign_json_write(): the expanded plan, the configuration
 * snapshot, the environment snapshot; state.json is results/state.h's).
 */
#ifndef KB_RESULTS_CAMPAIGN_JSON_H
#define KB_RESULTS_CAMPAIGN_JSON_H

#include "parsers/kconf.h"

#include <jansson.h>
#include <stddef.h>

struct json_t;	/* jansson's: an environment object (bench/summarize.c) */

/* Most load hosts a campaign names ([global]'s and its jobs'). */
#define KB_MAX_ALL_HOSTS (KB_MAX_HOSTS * (KB_MAX_JOBS + 1))

/* Every load host of cfg, once: [global]'s hosts =, then those of the
 * [job NAME] sections not already there, into hosts/ports (borrowed
 * from cfg).  Returns how many. */
size_t results_campaign_load_hosts(const struct kb_config *cfg,
				   const char *hosts[KB_MAX_ALL_HOSTS],
				   unsigned ports[KB_MAX_ALL_HOSTS]);

/* On resume: the load hosts of DIR/campaign.json's
 * environment.load_hosts whose fio version is null (no answer to the
 * probe when the campaign began), their "HOST:PORT" (malloc'd) into
 * labels, at most max; how many. */
size_t results_campaign_unknown_load_hosts(const char *dir, char **labels,
					   size_t max);

/* ... and one of them that answered now: its entry's hostname and
 * fio_version set, campaign.json rewritten.  0, -ENOENT (no such
 * entry) or -errno. */
int results_campaign_load_host_set(const char *dir, const char *label,
				   const char *hostname, const char *version);

/* What a load host's fio --server said of itself (parsers/fio_probe.h):
 * campaign.json environment.load_hosts[]. */
struct kb_load_host_env {
	char *host;		/* "HOST:PORT" (kconf_host_label) */
	char *hostname;		/* NULL: it did not answer (null) */
	char *fio_version;	/* "fio-3.35"; NULL: unknown (null) */
};

/* campaign.json "environment": the machine when the campaign was
 * created (runner/campaign.h, campaign_environment(), probes it).  Every
 * string is the first line of its source, NULL when it could not be read
 * (null in the file). */
struct kb_environment {
	int has_uname;		/* 0: uname(2) failed, its four absent */
	char *kernel_release, *kernel_version, *machine, *hostname;
	char *cmdline;		/* /proc/cmdline */
	char *cpu_model;	/* /proc/cpuinfo "model name" */
	long cpus;		/* online CPUs */
	char *memory_total;	/* /proc/meminfo MemTotal ("N kB") */
	char *governor;		/* cpu0's scaling_governor */
	char *governor_all_cpus;	/* every CPU's: "V" or "V xN, W xM" */
	char *epp;		/* energy_performance_preference, same form */
	char *no_turbo, *boost, *smt;	/* intel_pstate, cpufreq, smt */
	char *fio_version, *perf_version;	/* `TOOL --version` */
	const char *kbench_version;	/* static */
	int has_load_hosts;	/* 1: write "load_hosts" (hosts = given) */
	struct kb_load_host_env *load_hosts;
	size_t nload_hosts;
};

/* env as campaign.json's "environment" object (new reference). */
struct json_t *results_environment_json(const struct kb_environment *env);
void results_environment_free(struct kb_environment *env);

/* A configuration of the plan (runner/plan.h's struct kb_configuration). */
struct results_campaign_config {
	const char *id;			/* "stock,NM=0" */
	size_t variant;			/* index into cfg->variants */
	const size_t *value;		/* [cfg->ntunables]: index into
					 * cfg->tunables[t].values */
};

/* One file of a campaign directory's snapshot: what the campaign was
 * planned and is measured from, its SHA-256 (FIPS 180-4) recorded when
 * the campaign is created (campaign.json "snapshot", docs/results-
 * format.md) so that a resume finds a hand edit before it mixes runs of
 * two texts.  path: relative to the campaign directory, "kernels.conf"
 * or "profiles/NAME" (NAME without '/', not starting with '.');
 * sha256: 64 lowercase hex digits. */
struct results_snapshot_file {
	char *path;
	char *sha256;
};

/* What campaign.json is written from when a campaign is created. */
struct results_campaign_doc {
	const char *config_file;	/* the kernels.conf given */
	const struct kb_config *cfg;	/* parsed from it */
	const char *created;		/* UTC, "YYYY-MM-DDTHH:MM:SSZ" */
	const char *baseline;		/* the baseline configuration's id */
	const char *calibration_analysis;	/* "paired", "welch-log";
						 * NULL: no calibration */
	const struct results_campaign_config *configs;
	size_t nconfigs;
	const char *const *plan;	/* every run's key, in run order */
	size_t nplan;
	const struct kb_environment *env;
	unsigned shard_k, shard_n;	/* 0 0: not a shard (no "shard") */
	const unsigned *shard_iterations;	/* the iterations it runs */
	size_t nshard_iterations;
	const char *conf_sha256;	/* the kernels.conf text's, hex */
	const struct results_snapshot_file *snapshot;	/* "snapshot" */
	size_t nsnapshot;
};

/* Write path (DIR/campaign.json, docs/results-format.md) from d,
 * atomically.  0 or -errno. */
int results_campaign_json_write(const char *path,
				const struct results_campaign_doc *d);

/* DIR/campaign.json (path) as a tree (the caller's reference), or NULL
 * with jansson's message naming the file and line, and, when the file
 * is there but damaged, what is still safe: kbench cannot rebuild it
 * (it defines the campaign), the runs under DIR/runs are untouched and
 * DIR/results.json, when there, reads with report --from-json. */
json_t *results_campaign_json_load(const char *path);

/* Whether a configuration of DIR/campaign.json (path) runs its variant
 * with method ("kexec", "vm", "local"): 1 or 0; -EINVAL when the file
 * cannot be read (results_campaign_json_load()'s message). */
int results_campaign_has_method(const char *path, const char *method);

/* The snapshot DIR/campaign.json (path) records (struct
 * results_snapshot_file): *files (the caller frees it with
 * results_snapshot_free()) and *n; none (0, *files NULL) for a campaign
 * made before kbench recorded one.  0, or -EINVAL when the file cannot
 * be read or its "snapshot" is malformed: not an object, a value not 64
 * hex digits, a path other than kernels.conf or profiles/NAME (a message
 * naming the file and the key). */
int results_campaign_snapshot(const char *path,
			      struct results_snapshot_file **files, size_t *n);
void results_snapshot_free(struct results_snapshot_file *files, size_t n);

/* The shard DIR/campaign.json (path) records: *k, *n (0 0: none).  0,
 * or -EINVAL when the file cannot be read or its "shard" is malformed
 * (a message naming the file). */
int results_campaign_shard(const char *path, unsigned *k, unsigned *n);

/* The rounds DIR/campaign.json's "plan" reaches: 1 + the highest
 * iteration (the NNN of a key, extra runs' "NNN-KINDK" included) of its
 * keys, 0 when none.  0, or -EINVAL with a message naming the file. */
int results_campaign_plan_rounds(const char *dir, unsigned *rounds);

/* Replace DIR/campaign.json's "plan" by keys[0..n) and its
 * campaign.iterations by iterations; written atomically.  0, -EINVAL
 * when the file cannot be read (message), or -errno. */
int results_campaign_plan_save(const char *dir, const char *const *keys,
			       size_t n, unsigned iterations);

#endif
