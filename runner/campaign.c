#include "runner/campaign.h"
#include "runner/calibrate.h"
#include "results/validate.h"
#include "results/records.h"
#include "results/paths.h"
#include "runner/drivers.h"
#include "runner/tool_version.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/json_file.h"
#include "parsers/fio_probe.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <openssl/evp.h>
#include <sys/file.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* a kernels.conf threshold: a number, or null when "off" (NAN) */
static json_t *kb_num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static char *iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static json_t *first_line_of(const char *path, const char *prefix)
{
	char *buf, *p, *nl;
	json_t *v = NULL;

	if (kb_read_file(path, &buf, NULL, 1) < 0)
		return json_null();
	for (p = buf; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (!prefix) {
			v = json_string(p);
			break;
		}
		if (!strncmp(p, prefix, strlen(prefix))) {
			char *c = strchr(p, ':');

			if (c) {
				c++;
				while (*c == ' ' || *c == '\t')
					c++;
				v = json_string(c);
				break;
			}
		}
	}
	free(buf);
	return v ? v : json_null();
}

/* The first line of `tool --version`, or null; cached per binary
 * (results/records.h: a changed binary is asked again). */
/* `TOOL --version`'s first line (cached: runner/tool_version.h), or null */
static json_t *tool_version(const char *tool)
{
	char *v = kb_tool_version(tool);
	json_t *j = v ? json_string(v) : json_null();

	free(v);
	return j;
}

/* A cpufreq file of every online CPU (cpuN/cpufreq/NAME): its value
 * when every CPU has the same, else "VALUE xN, VALUE xM" in CPU order of
 * first appearance; null when no CPU has it. */
static json_t *every_cpu(const char *name)
{
	char **val = NULL;
	size_t *cnt = NULL, nval = 0, i, k;
	char *path, *tmp, *out = NULL;
	json_t *v, *ret;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (i = 0; ncpu > 0 && i < (size_t)ncpu; i++) {
		path = kb_xasprintf("/sys/devices/system/cpu/cpu%zu/cpufreq/%s",
				    i, name);
		v = first_line_of(path, NULL);
		free(path);
		if (!json_is_string(v)) {
			json_decref(v);
			continue;
		}
		for (k = 0; k < nval; k++)
			if (!strcmp(val[k], json_string_value(v)))
				break;
		if (k == nval) {
			val = kb_xrealloc(val, (nval + 1) * sizeof(*val));
			cnt = kb_xrealloc(cnt, (nval + 1) * sizeof(*cnt));
			val[nval] = kb_xstrdup(json_string_value(v));
			cnt[nval++] = 0;
		}
		cnt[k]++;
		json_decref(v);
	}
	if (!nval)
		ret = json_null();
	else if (nval == 1)
		ret = json_string(val[0]);
	else {
		for (k = 0; k < nval; k++) {
			tmp = kb_xasprintf("%s%s%s x%zu", out ? out : "",
					   out ? ", " : "", val[k], cnt[k]);
			free(out);
			out = tmp;
		}
		ret = json_string(out);
		free(out);
	}
	for (k = 0; k < nval; k++)
		free(val[k]);
	free(val);
	free(cnt);
	return ret;
}

json_t *campaign_environment(void)
{
	struct utsname u;
	json_t *env = json_object();

	if (uname(&u) == 0) {
		json_object_set_new(env, "kernel_release", json_string(u.release));
		json_object_set_new(env, "kernel_version", json_string(u.version));
		json_object_set_new(env, "machine", json_string(u.machine));
		json_object_set_new(env, "hostname", json_string(u.nodename));
	}
	json_object_set_new(env, "cmdline", first_line_of("/proc/cmdline", NULL));
	json_object_set_new(env, "cpu_model",
			    first_line_of("/proc/cpuinfo", "model name"));
	json_object_set_new(env, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(env, "memory_total",
			    first_line_of("/proc/meminfo", "MemTotal"));
	json_object_set_new(env, "governor", first_line_of(
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", NULL));
	/* every CPU's, not only cpu0's; turbo, boost and SMT where the
	 * kernel exposes them (null otherwise) */
	json_object_set_new(env, "governor_all_cpus",
			    every_cpu("scaling_governor"));
	json_object_set_new(env, "epp",
			    every_cpu("energy_performance_preference"));
	json_object_set_new(env, "no_turbo", first_line_of(
		"/sys/devices/system/cpu/intel_pstate/no_turbo", NULL));
	json_object_set_new(env, "boost", first_line_of(
		"/sys/devices/system/cpu/cpufreq/boost", NULL));
	json_object_set_new(env, "smt", first_line_of(
		"/sys/devices/system/cpu/smt/control", NULL));
	json_object_set_new(env, "fio_version", tool_version("fio"));
	json_object_set_new(env, "perf_version", tool_version("perf"));
	json_object_set_new(env, "kbench_version", json_string(KBENCH_VERSION));
	return env;
}

/* hosts =: what each load host's fio --server says of itself
 * (parsers/fio_probe.h), asked apart with `fio --client=HOST,PORT
 * --parse-only /dev/null` (connects, runs nothing; kb_capture's 60 s
 * limit): [{"host": "HOST:PORT", "hostname", "fio_version"}], null for
 * what a host did not answer; versions other than local_fio's warned. */
#define MAX_ALL_HOSTS (KB_MAX_HOSTS * (KB_MAX_JOBS + 1))

/* ["HOST:PORT", ...] (kconf_host_label) of n load hosts */
static json_t *host_labels(const char *const *hosts, const unsigned *ports,
			   size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		char *l = kconf_host_label(hosts[i], ports[i]);

		json_array_append_new(a, json_string(l));
		free(l);
	}
	return a;
}

/* Every load host of the campaign, once: [global]'s hosts =, then those
 * of the [job NAME] sections not already there.  Returns how many. */
static size_t all_load_hosts(const struct kb_config *cfg,
			     const char *hosts[MAX_ALL_HOSTS],
			     unsigned ports[MAX_ALL_HOSTS])
{
	size_t n = 0, j, i, k;

	for (j = 0; j <= cfg->njob_hosts; j++) {
		char *const *h = j ? cfg->job_hosts[j - 1].hosts : cfg->hosts;
		const unsigned *pt = j ? cfg->job_hosts[j - 1].host_ports :
					 cfg->host_ports;
		size_t nh = j ? cfg->job_hosts[j - 1].nhosts : cfg->nhosts;

		for (i = 0; i < nh; i++) {
			for (k = 0; k < n; k++)
				if (!strcmp(hosts[k], h[i]) && ports[k] == pt[i])
					break;
			if (k == n) {
				hosts[n] = h[i];
				ports[n++] = pt[i];
			}
		}
	}
	return n;
}

static json_t *load_hosts_environment(const struct kb_config *cfg,
				      const char *local_fio)
{
	struct kb_fio_host_version hv[MAX_ALL_HOSTS];
	char *labels[MAX_ALL_HOSTS], *skew;
	const char *hosts[MAX_ALL_HOSTS];
	unsigned ports[MAX_ALL_HOSTS];
	json_t *arr = json_array();
	size_t i, n = all_load_hosts(cfg, hosts, ports);

	for (i = 0; i < n; i++) {
		char *client = kconf_host_client_arg(hosts[i], ports[i]);
		char *argv[] = { "fio", client, "--parse-only", "/dev/null",
				 NULL };
		char *name = NULL, *version = NULL, *out = NULL;

		labels[i] = kconf_host_label(hosts[i], ports[i]);
		if (kb_capture(argv, &out) != 0 || !out ||
		    kb_fio_probe_parse(out, &name, &version))
			kb_warn("load host %s: no answer to fio's probe (fio "
				"--client ... --parse-only): its fio version "
				"is unknown; its runs will say why", labels[i]);
		json_array_append_new(arr, json_pack("{s:s, s:s?, s:s?}",
			"host", labels[i], "hostname", name, "fio_version",
			version));
		hv[i].host = labels[i];
		hv[i].version = json_string_value(json_object_get(
			json_array_get(arr, i), "fio_version"));
		free(name);
		free(version);
		free(out);
		free(client);
	}
	skew = kb_fio_version_skew(local_fio, hv, n);
	if (skew)
		kb_warn("%s: fio's defaults and statistics may differ between "
			"versions; run one fio version on every host", skew);
	free(skew);
	for (i = 0; i < n; i++)
		free(labels[i]);
	return arr;
}

static json_t *campaign_section(const struct kb_campaign *c)
{
	const struct kb_config *cfg = &c->cfg;
	json_t *tun = json_array(), *jobs = json_array(), *ret;
	char *target;
	size_t i;

	if (cfg->target_kind == KB_TARGET_LOOP || !cfg->target)
		target = kb_xasprintf("loop:%lluM", cfg->loop_size_bytes >> 20);
	else
		target = kb_xasprintf("%s%s", cfg->target_kind == KB_TARGET_FILE ?
				      "file:" : "", cfg->target);

	for (i = 0; i < cfg->ntunables; i++)
		json_array_append_new(tun, cfg->tunables[i].sweep ?
			json_pack("{s:s, s:b}", "label", cfg->tunables[i].label,
				  "sweep", 1) :
			json_pack("{s:s, s:s}", "label", cfg->tunables[i].label,
				  "path", cfg->tunables[i].path));
	for (i = 0; i < cfg->njobs; i++)
		json_array_append_new(jobs, json_string(cfg->jobs[i]));
	ret = json_pack("{s:s, s:o, s:o, s:i, s:i, s:i, s:s, s:s}",
		"baseline", c->plan.configs[c->plan.baseline].id,
		"tunables", tun, "jobs", jobs,
		"iterations", (int)cfg->iterations, "warmup", (int)cfg->warmup,
		"runtime_s", (int)cfg->runtime_s,
		"order", cfg->order == KB_ORDER_BLOCK ? "block" :
			 cfg->order == KB_ORDER_RANDOM ? "random" : "interleave",
		"target", target);
	free(target);
	if (c->calibration_analysis)	/* stats/compare.h: the analysis */
		json_object_set_new(ret, "calibration", json_pack("{s:s, s:s}",
			"file", cfg->calibration, "analysis",
			c->calibration_analysis));
	/* statistics settings (stats/compare.h, docs/results-format.md) */
	{
		json_t *me = json_object();

		for (i = 0; i < cfg->nmin_effects; i++)
			json_object_set_new(me, cfg->min_effects[i].metric,
					    json_real(cfg->min_effects[i].pct));
		json_object_set_new(ret, "alpha", json_real(cfg->alpha));
		json_object_set_new(ret, "min_effect_pct",
				    json_real(cfg->min_effect_pct));
		json_object_set_new(ret, "min_effect_by_metric", me);
		me = json_object();
		for (i = 0; i < cfg->nmax_mdes; i++)
			json_object_set_new(me, cfg->max_mdes[i].metric,
					    json_real(cfg->max_mdes[i].pct));
		json_object_set_new(ret, "max_mde_pct",
				    json_real(cfg->max_mde_pct));
		json_object_set_new(ret, "max_mde_by_metric", me);
		/* stats/disturbed.h; null = off */
		json_object_set_new(ret, "disturbed", json_pack(
			"{s:o, s:f, s:o, s:o, s:o, s:i}",
			"other_cpu_pct", kb_num_or_null(
				cfg->disturbed_other_cpu_pct),
			"other_factor", 1.5,
			"steal_pct", kb_num_or_null(cfg->disturbed_steal_pct),
			"psi_pct", kb_num_or_null(cfg->disturbed_psi_pct),
			"idle_fraction", kb_num_or_null(
				cfg->disturbed_idle_fraction),
			"retry", (int)cfg->retry_disturbed));
		if (cfg->iterations_auto)
			json_object_set_new(ret, "iterations_auto", json_pack(
				"{s:i, s:i, s:f}",
				"min_iterations", (int)cfg->min_iterations,
				"max_iterations", (int)cfg->max_iterations,
				"target_ci_pct", cfg->target_ci_pct));
	}
	if (cfg->nhosts) {	/* hosts =: fio --server load hosts */
		json_t *by_job = json_object();
		const char *hosts[MAX_ALL_HOSTS];
		unsigned ports[MAX_ALL_HOSTS];
		size_t n = all_load_hosts(cfg, hosts, ports), j, k;

		json_object_set_new(ret, "hosts", host_labels(hosts, ports,
								 n));
		/* [job NAME] hosts =: that job's, where they differ */
		for (j = 0; j < cfg->njobs; j++) {
			char *const *jh;
			const unsigned *jp;

			k = kconf_job_hosts(cfg, cfg->jobs[j], &jh, &jp);
			if (jh != cfg->hosts)
				json_object_set_new(by_job, cfg->jobs[j],
					host_labels((const char **)jh, jp, k));
		}
		if (json_object_size(by_job))
			json_object_set(ret, "job_hosts", by_job);
		json_decref(by_job);
	}
	if (cfg->allow_page_cache)	/* results/model.c */
		json_object_set_new(ret, "allow_page_cache", json_true());
	if (cfg->nlayouts) {
		json_t *l = json_array();

		for (i = 0; i < cfg->nlayouts; i++)
			json_array_append_new(l, json_string(cfg->layouts[i]));
		json_object_set_new(ret, "layouts", l);
	}
	return ret;
}

static json_t *configurations(const struct kb_campaign *c)
{
	const struct kb_config *cfg = &c->cfg;
	json_t *arr = json_array();
	size_t i, t;

	for (i = 0; i < c->plan.nconfigs; i++) {
		const struct kb_configuration *k = &c->plan.configs[i];
		const struct kb_variant *v = &cfg->variants[k->variant];
		json_t *tv = json_object();

		for (t = 0; t < cfg->ntunables; t++)
			json_object_set_new(tv, cfg->tunables[t].label,
				json_string(cfg->tunables[t].values[k->value[t]]));
		json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s?, s:o}",
			"id", k->id, "variant", v->name, "method", v->method,
			"release", v->release, "tunables", tv));
	}
	return arr;
}

static int copy_file(const char *from, const char *to)
{
	char *buf;
	size_t len;
	int ret = kb_read_file(from, &buf, &len, 0);

	if (ret)
		return ret;
	ret = kb_write_atomic(to, buf, len);
	free(buf);
	return ret;
}

int campaign_lock(const char *dir)
{
	char *path;
	int fd, ret;

	ret = kb_mkdir_p(dir);
	if (ret)
		return ret;
	path = kb_path_join(dir, ".lock");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		kb_error("cannot create %s: %s", path, strerror(-ret));
		free(path);
		return ret;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (ret == -EBUSY)
			kb_error("%s: another kbench is running this campaign "
				 "(it holds %s); wait for it, or stop it with "
				 "Ctrl-C / kill PID (it restores its tunables)",
				 dir, path);
		else
			kb_error("cannot lock %s: %s", path, strerror(-ret));
		close(fd);
		free(path);
		return ret;
	}
	free(path);
	/* the lock is ours: temporary files that a killed kbench left here
	 * and in the machine-wide records are nobody's any more */
	kb_remove_stale_tmp(dir, 5);
	kb_remove_stale_tmp(kb_machine_dir(), 2);
	return fd;
}

int campaign_check_jobs(const struct kb_config *cfg)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < cfg->njobs; i++) {
		char *from = kb_xasprintf("%s/%s.fio", cfg->profiles_dir,
					  cfg->jobs[i]);

		if (!kb_exists(from)) {
			kb_error("%s:%d: job '%s': no job file %s (jobs name "
				 "files in the profiles directory, without .fio)",
				 cfg->path, cfg->jobs_line, cfg->jobs[i], from);
			if (!ret) {	/* the places, once */
				char *help = kconf_profiles_help(cfg,
								 cfg->jobs[i]);

				fputs(help, stderr);
				free(help);
			}
			ret = -ENOENT;
		}
		free(from);
	}
	return ret;
}

/* SHA-256 of the text of kernels.conf, in hex (malloc'd), or NULL. */
static char *conf_sha256(const char *path)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0, i;
	char *buf, *hex;
	size_t n;

	if (kb_read_file(path, &buf, &n, 0))
		return NULL;
	if (!EVP_Digest(buf, n, md, &len, EVP_sha256(), NULL)) {
		free(buf);
		return NULL;
	}
	free(buf);
	hex = kb_xcalloc(2 * len + 1, 1);
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return hex;
}

/* campaign.json "shard": which part of the matrix this directory holds
 * (runner/plan.h), and what identifies the campaign it is a part of (the
 * kernels.conf text: results_merge_shards() in results/model.c). */
static json_t *shard_section(const struct kb_campaign *c)
{
	json_t *its = json_array();
	char *sum = conf_sha256(c->conf_path);
	unsigned it;
	json_t *ret;

	for (it = 0; it < c->cfg.warmup + c->cfg.iterations; it++) {
		unsigned s = plan_shard_of(&c->cfg, it, c->shard_n);

		if (!s || s == c->shard_k)
			json_array_append_new(its, json_integer(it));
	}
	ret = json_pack("{s:i, s:i, s:o, s:s, s:s*}",
		"k", (int)c->shard_k, "n", (int)c->shard_n,
		"iterations", its,
		"rule", "timed iteration t (0-based after the warm-ups) runs on "
			"shard t mod n + 1; warm-ups on every shard",
		"conf_sha256", sum);
	free(sum);
	return ret;
}

static int create(struct kb_campaign *c, const char *conf_path)
{
	json_t *cj = NULL, *plan = json_array();
	char *pdir = kb_path_join(c->dir, "profiles"), ts[32], *cjpath = NULL;
	size_t i;
	int ret;

	ret = kb_mkdir_p(pdir);
	if (ret)
		goto out;
	ret = campaign_check_jobs(&c->cfg);
	for (i = 0; i < c->cfg.njobs && !ret; i++) {
		char *from = kb_xasprintf("%s/%s.fio", c->cfg.profiles_dir,
					  c->cfg.jobs[i]);
		char *to = kb_xasprintf("%s/%s.fio", pdir, c->cfg.jobs[i]);

		ret = copy_file(from, to);
		free(from);
		free(to);
	}
	if (ret)
		goto out;
	ret = copy_file(conf_path, c->conf_path);
	if (ret)
		goto out;
	for (i = 0; i < c->plan.nruns; i++)
		json_array_append_new(plan, json_string(c->plan.runs[i].key));
	cj = json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
		"schema_version", KB_SCHEMA_VERSION, "kbench_version",
		KBENCH_VERSION,
		"created", iso_now(ts, sizeof(ts)), "config_file", conf_path,
		"campaign", campaign_section(c),
		"configurations", configurations(c),
		"plan", plan, "environment", campaign_environment());
	plan = NULL;
	if (c->cfg.nhosts) {
		json_t *env = json_object_get(cj, "environment");

		json_object_set_new(env, "load_hosts", load_hosts_environment(
			&c->cfg, json_string_value(json_object_get(env,
			"fio_version"))));
	}
	if (c->shard_n) {
		json_t *sh = shard_section(c);

		if (!json_string_value(json_object_get(sh, "conf_sha256"))) {
			kb_error("%s: cannot hash the kernels.conf snapshot, "
				 "which identifies the campaign its shards "
				 "belong to", c->conf_path);
			json_decref(sh);
			ret = -EIO;
			goto out;
		}
		json_object_set_new(cj, "shard", sh);
	}
	cjpath = kb_path_join(c->dir, "campaign.json");
	ret = kb_json_write_atomic(cjpath, cj);
out:
	free(cjpath);
	json_decref(plan);
	json_decref(cj);
	free(pdir);
	return ret;
}

/* 1 when dir does not exist or holds nothing but what create() writes
 * before campaign.json (a creation cut short is taken up again) */
static int dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return errno == ENOENT;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "profiles") &&
		    strcmp(e->d_name, ".lock") &&
		    strcmp(e->d_name, "kernels.conf") &&
		    strncmp(e->d_name, "campaign.json.tmp", 17) &&
		    strncmp(e->d_name, "kernels.conf.tmp", 16)) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

/* 1 when both files can be read and their texts differ. */
static int conf_differs(const char *a_path, const char *b_path)
{
	char *a = NULL, *b = NULL;
	int differ = kb_read_file(a_path, &a, NULL, 0) == 0 &&
		     kb_read_file(b_path, &b, NULL, 0) == 0 && strcmp(a, b);

	free(a);
	free(b);
	return differ;
}

/* 1 when dir/name exists. */
static int has_entry(const char *dir, const char *name)
{
	char *p = kb_path_join(dir, name);
	int has = kb_exists(p);

	free(p);
	return has;
}

/* On resume: the shard DIR/campaign.json records (0 0: none) must be
 * the one asked for (k = n = 0: whatever it is). */
static int resume_shard(struct kb_campaign *c, const char *cjpath,
			unsigned k, unsigned n)
{
	json_t *cj = kb_json_load(cjpath), *sh;
	unsigned rk, rn;

	if (!cj)
		return -EINVAL;
	sh = json_object_get(cj, "shard");
	rk = (unsigned)json_integer_value(json_object_get(sh, "k"));
	rn = (unsigned)json_integer_value(json_object_get(sh, "n"));
	json_decref(cj);
	if (sh && (rn < 1 || rk < 1 || rk > rn)) {
		kb_error("%s: malformed \"shard\" (k %u, n %u)", cjpath, rk, rn);
		return -EINVAL;
	}
	if (n && !rn) {
		kb_error("%s holds a campaign that is not split into shards; "
			 "--shard %u/%u needs a directory of its own (-o "
			 "NEWDIR)", c->dir, k, n);
		return -EEXIST;
	}
	if (n && (rk != k || rn != n)) {
		kb_error("%s holds shard %u/%u, not %u/%u: give each shard its "
			 "own directory (-o DIR/shard-K)", c->dir, rk, rn, k, n);
		return -EEXIST;
	}
	c->shard_k = rk;
	c->shard_n = rn;
	return 0;
}

int campaign_open(struct kb_campaign *c, const char *dir,
		  const char *conf_path, int conf_explicit)
{
	return campaign_open_shard(c, dir, conf_path, conf_explicit, 0, 0);
}

int campaign_open_shard(struct kb_campaign *c, const char *dir,
			const char *conf_path, int conf_explicit, unsigned k,
			unsigned n)
{
	char *cjpath, *statepath;
	int ret;

	memset(c, 0, sizeof(*c));
	c->dir = kb_xstrdup(dir);
	c->conf_path = kb_path_join(dir, "kernels.conf");
	cjpath = kb_path_join(dir, "campaign.json");
	statepath = kb_path_join(dir, "state.json");
	c->resumed = kb_exists(cjpath);
	if (c->resumed && conf_explicit && !kb_exists(statepath) &&
	    !has_entry(dir, KB_RUNS_DIR) &&
	    conf_differs(conf_path, c->conf_path)) {
		/* a start that stopped before its first run (a tunable
		 * value refused, a job file missing): the corrected
		 * kernels.conf starts it again, as its error asked */
		kb_info("%s: no run was recorded from its kernels.conf (it "
			"stopped before the first run); starting it again from "
			"%s", dir, conf_path);
		if (unlink(cjpath) == 0)
			c->resumed = 0;
	}

	if (!c->resumed && !dir_is_empty(dir)) {
		kb_error("%s exists and is not a kbench campaign (no "
			 "campaign.json) but holds files; give -o a new or "
			 "empty directory, so nothing of yours is mixed with "
			 "or overwritten by the campaign", dir);
		ret = -EEXIST;
		goto out;
	}
	if (c->resumed) {
		if (conf_explicit && conf_differs(conf_path, c->conf_path)) {
			kb_error("%s holds a campaign made from a different "
				 "kernels.conf than %s; resume it without -c, or "
				 "start a new campaign with -o NEWDIR", dir,
				 conf_path);
			ret = -EEXIST;
			goto out;
		}
		ret = resume_shard(c, cjpath, k, n);
		if (!ret)
			ret = kconf_load(c->conf_path, &c->cfg);
	} else {
		c->shard_k = k;
		c->shard_n = n;
		ret = kb_driver_dry_run ? 0 : kb_mkdir_p(dir);
		if (!ret)
			ret = kconf_load(conf_path, &c->cfg);
		if (!ret) {	/* iterations = auto starts at its rounds */
			struct kb_calibration cal;

			ret = calibrate_apply(&c->cfg, &cal);
			if (ret > 0 && cal.analysis)
				c->calibration_analysis =
					kb_xstrdup(cal.analysis);
			ret = ret < 0 ? -EINVAL : 0;
			results_calibration_free(&cal);
		}
	}
	if (ret)
		goto out;
	ret = plan_build(&c->cfg, &c->plan);
	if (!ret && c->shard_n)
		ret = plan_shard(&c->cfg, &c->plan, c->shard_k, c->shard_n);
	if (ret)
		goto out;
	if (!c->resumed && kb_driver_dry_run) {
		ret = campaign_check_jobs(&c->cfg);	/* nothing written */
		if (ret)
			goto out;
	} else if (!c->resumed) {
		ret = create(c, conf_path);
		if (ret)
			goto out;
	}
	if (c->resumed) {
		/* one validation of the campaign files (results/validate.h);
		 * runs whose metrics.json is damaged are re-parsed from their
		 * raw artefacts, or redone */
		struct kb_repairs rep = { 0 };

		ret = results_validate_campaign(dir, &rep);
		if (!ret && rep.n && !kb_driver_dry_run)
			ret = results_repair_runs(dir, &rep);
		results_repairs_free(&rep);
		if (ret)
			goto out;
	}
	if (kb_exists(statepath)) {
		c->state = kb_json_load(statepath);
		if (!c->state || !json_is_object(json_object_get(c->state, "runs"))) {
			kb_error("%s: not a kbench state file (no \"runs\" "
				 "object); move it away to start over", statepath);
			ret = -EINVAL;
			goto out;
		}
	} else {
		c->state = json_pack("{s:i, s:{}}", "schema_version",
				     KB_SCHEMA_VERSION, "runs");
	}
out:
	free(cjpath);
	free(statepath);
	return ret;
}

json_t *campaign_run_state(const struct kb_campaign *c, const char *key)
{
	return json_object_get(json_object_get(c->state, "runs"), key);
}

int campaign_record(struct kb_campaign *c, const char *key,
		    const char *status, const char *reason)
{
	char ts[32], *path = kb_path_join(c->dir, "state.json");
	int ret;

	json_object_set_new(json_object_get(c->state, "runs"), key,
		json_pack("{s:s, s:s?, s:s}", "status", status, "reason", reason,
			  "finished", iso_now(ts, sizeof(ts))));
	ret = kb_driver_dry_run ? 0 : kb_json_write_atomic(path, c->state);
	free(path);
	return ret;
}

int campaign_record_result(struct kb_campaign *c, const char *key,
			   json_t *m, size_t *nfailed)
{
	const char *st = json_string_value(json_object_get(m, "status"));
	const char *why = json_string_value(json_object_get(m, "reason"));
	int ret;

	if (!st)
		st = "failed";
	ret = campaign_record(c, key, st, why);
	if (strcmp(st, "ok")) {
		(*nfailed)++;
		kb_warn("run %s failed: %s (recorded; the campaign goes on)",
			key, why ? why : "no reason recorded");
	}
	return ret;
}

char *campaign_job_path(const struct kb_campaign *c, size_t job)
{
	return kb_xasprintf("%s/profiles/%s.fio", c->dir, c->cfg.jobs[job]);
}

/* Number of timed runs recorded as ok. */
size_t campaign_ok_runs(const struct kb_campaign *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->plan.nruns; i++) {
		const char *s = json_string_value(json_object_get(
			campaign_run_state(c, c->plan.runs[i].key), "status"));

		if (!c->plan.runs[i].warmup && !c->plan.runs[i].extra && s &&
		    !strcmp(s, "ok"))
			n++;
	}
	return n;
}

/* Counted and warm-up runs of the campaign recorded as failed. */
size_t campaign_failed_runs(const struct kb_campaign *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->plan.nruns; i++) {
		const char *s = json_string_value(json_object_get(
			campaign_run_state(c, c->plan.runs[i].key), "status"));

		if (s && strcmp(s, "ok"))
			n++;
	}
	return n;
}

void campaign_close(struct kb_campaign *c)
{
	plan_free(&c->plan);
	kconf_free(&c->cfg);
	json_decref(c->state);
	free(c->dir);
	free(c->conf_path);
	free(c->calibration_analysis);
	memset(c, 0, sizeof(*c));
}
