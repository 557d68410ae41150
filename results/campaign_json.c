/* results/campaign_json.c - campaign.json: written when a campaign is
 * created, its plan updated as it goes (see campaign_json.h). */
#include "results/campaign_json.h"
#include "results/paths.h"
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

size_t results_campaign_load_hosts(const struct kb_config *cfg,
				   const char *hosts[KB_MAX_ALL_HOSTS],
				   unsigned ports[KB_MAX_ALL_HOSTS])
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

/* a string, or null for NULL */
static json_t *str_or_null(const char *v)
{
	return v ? json_string(v) : json_null();
}

/* The string members of "environment", in struct kb_environment; the
 * uname(2) ones first (written only when has_uname). */
static const struct {
	const char *name;
	size_t offset;
} env_strings[] = {
#define ENV_STRING(m) { #m, offsetof(struct kb_environment, m) }
	ENV_STRING(kernel_release), ENV_STRING(kernel_version),
	ENV_STRING(machine), ENV_STRING(hostname),
	ENV_STRING(cmdline), ENV_STRING(cpu_model), ENV_STRING(memory_total),
	ENV_STRING(governor), ENV_STRING(governor_all_cpus), ENV_STRING(epp),
	ENV_STRING(no_turbo), ENV_STRING(boost), ENV_STRING(smt),
	ENV_STRING(fio_version), ENV_STRING(perf_version),
#undef ENV_STRING
};
#define ENV_UNAME_STRINGS 4

static char **env_string(const struct kb_environment *env, size_t i)
{
	return (char **)((char *)env + env_strings[i].offset);
}

json_t *results_environment_json(const struct kb_environment *env)
{
	json_t *o = json_object();
	size_t i;

	for (i = env->has_uname ? 0 : ENV_UNAME_STRINGS;
	     i < sizeof(env_strings) / sizeof(env_strings[0]); i++)
		json_object_set_new(o, env_strings[i].name,
				    str_or_null(*env_string(env, i)));
	json_object_set_new(o, "cpus", json_integer(env->cpus));
	json_object_set_new(o, "kbench_version",
			    str_or_null(env->kbench_version));
	if (env->has_load_hosts) {
		json_t *arr = json_array();

		for (i = 0; i < env->nload_hosts; i++)
			json_array_append_new(arr, json_pack(
				"{s:s, s:s?, s:s?}",
				"host", env->load_hosts[i].host,
				"hostname", env->load_hosts[i].hostname,
				"fio_version", env->load_hosts[i].fio_version));
		json_object_set_new(o, "load_hosts", arr);
	}
	return o;
}

void results_environment_free(struct kb_environment *env)
{
	size_t i;

	for (i = 0; i < sizeof(env_strings) / sizeof(env_strings[0]); i++)
		free(*env_string(env, i));
	for (i = 0; i < env->nload_hosts; i++) {
		free(env->load_hosts[i].host);
		free(env->load_hosts[i].hostname);
		free(env->load_hosts[i].fio_version);
	}
	free(env->load_hosts);
	memset(env, 0, sizeof(*env));
}

/* a kernels.conf threshold: a number, or null when "off" (NAN) */
static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

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

/* {METRIC: pct} of kernels.conf's per-metric thresholds */
static json_t *by_metric(const struct kb_min_effect *m, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_set_new(o, m[i].metric, json_real(m[i].pct));
	return o;
}

/* campaign.json "campaign" */
static json_t *campaign_section(const struct results_campaign_doc *d)
{
	const struct kb_config *cfg = d->cfg;
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
		"baseline", d->baseline,
		"tunables", tun, "jobs", jobs,
		"iterations", (int)cfg->iterations, "warmup", (int)cfg->warmup,
		"runtime_s", (int)cfg->runtime_s,
		"order", cfg->order == KB_ORDER_BLOCK ? "block" :
			 cfg->order == KB_ORDER_RANDOM ? "random" : "interleave",
		"target", target);
	free(target);
	if (d->calibration_analysis)	/* stats/compare.h: the analysis */
		json_object_set_new(ret, "calibration", json_pack("{s:s, s:s}",
			"file", cfg->calibration, "analysis",
			d->calibration_analysis));
	/* statistics settings (stats/compare.h, docs/results-format.md) */
	json_object_set_new(ret, "alpha", json_real(cfg->alpha));
	json_object_set_new(ret, "min_effect_pct",
			    json_real(cfg->min_effect_pct));
	json_object_set_new(ret, "min_effect_by_metric",
			    by_metric(cfg->min_effects, cfg->nmin_effects));
	json_object_set_new(ret, "max_mde_pct", json_real(cfg->max_mde_pct));
	json_object_set_new(ret, "max_mde_by_metric",
			    by_metric(cfg->max_mdes, cfg->nmax_mdes));
	/* stats/disturbed.h; null = off */
	json_object_set_new(ret, "disturbed", json_pack(
		"{s:o, s:f, s:o, s:o, s:o, s:i, s:i}",
		"other_cpu_pct", num_or_null(cfg->disturbed_other_cpu_pct),
		"other_factor", 1.5,
		"steal_pct", num_or_null(cfg->disturbed_steal_pct),
		"psi_pct", num_or_null(cfg->disturbed_psi_pct),
		"idle_fraction", num_or_null(cfg->disturbed_idle_fraction),
		"retry", (int)cfg->retry_disturbed,
		"retry_quiet_wait_s", (int)cfg->retry_quiet_wait_s));
	if (cfg->iterations_auto)
		json_object_set_new(ret, "iterations_auto", json_pack(
			"{s:i, s:i, s:f}",
			"min_iterations", (int)cfg->min_iterations,
			"max_iterations", (int)cfg->max_iterations,
			"target_ci_pct", cfg->target_ci_pct));
	if (cfg->iterations_auto && cfg->target_metrics)
		json_object_set_new(json_object_get(ret, "iterations_auto"),
				    "target_metrics",
				    json_string(cfg->target_metrics));
	if (cfg->nhosts) {	/* hosts =: fio --server load hosts */
		json_t *by_job = json_object();
		const char *hosts[KB_MAX_ALL_HOSTS];
		unsigned ports[KB_MAX_ALL_HOSTS];
		size_t n = results_campaign_load_hosts(cfg, hosts, ports), j, k;

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
	if (cfg->prefix_auto)	/* reports/report.h KB_PREFIX_CAMPAIGN */
		json_object_set_new(ret, "prefix", json_string("auto"));
	return ret;
}

/* campaign.json "configurations" */
static json_t *configurations(const struct results_campaign_doc *d)
{
	const struct kb_config *cfg = d->cfg;
	json_t *arr = json_array();
	size_t i, t;

	for (i = 0; i < d->nconfigs; i++) {
		const struct results_campaign_config *k = &d->configs[i];
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

/* campaign.json "shard": which part of the matrix this directory holds
 * (runner/plan.h), and what identifies the campaign it is a part of (the
 * kernels.conf text: results_merge_shards() in results/model.c). */
static json_t *shard_section(const struct results_campaign_doc *d)
{
	json_t *its = json_array();
	size_t i;

	for (i = 0; i < d->nshard_iterations; i++)
		json_array_append_new(its, json_integer(d->shard_iterations[i]));
	return json_pack("{s:i, s:i, s:o, s:s, s:s*}",
		"k", (int)d->shard_k, "n", (int)d->shard_n,
		"iterations", its,
		"rule", "timed iteration t (0-based after the warm-ups) runs on "
			"shard t mod n + 1; warm-ups on every shard",
		"conf_sha256", d->conf_sha256);
}

int results_campaign_json_write(const char *path,
				const struct results_campaign_doc *d)
{
	json_t *cj, *plan = json_array();
	size_t i;
	int ret;

	for (i = 0; i < d->nplan; i++)
		json_array_append_new(plan, json_string(d->plan[i]));
	cj = json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
		"schema_version", KB_SCHEMA_VERSION, "kbench_version",
		KBENCH_VERSION, "created", d->created,
		"config_file", d->config_file,
		"campaign", campaign_section(d),
		"configurations", configurations(d),
		"plan", plan, "environment", results_environment_json(d->env));
	if (d->shard_n)
		json_object_set_new(cj, "shard", shard_section(d));
	if (d->nsnapshot) {
		json_t *snap = json_object();

		for (i = 0; i < d->nsnapshot; i++)
			json_object_set_new(snap, d->snapshot[i].path,
					    json_string(d->snapshot[i].sha256));
		json_object_set_new(cj, "snapshot", snap);
	}
	ret = kb_json_write_atomic(path, cj);
	json_decref(cj);
	return ret;
}

int results_campaign_has_method(const char *path, const char *method)
{
	json_t *cj = results_campaign_json_load(path), *c;
	const char *m;
	size_t i;
	int has = 0;

	if (!cj)
		return -EINVAL;
	json_array_foreach(json_object_get(cj, "configurations"), i, c) {
		m = json_string_value(json_object_get(c, "method"));
		has |= m && !strcmp(m, method);
	}
	json_decref(cj);
	return has;
}

json_t *results_campaign_json_load(const char *path)
{
	json_t *cj = kb_json_load(path);
	char *dir, *res, *slash;
	int has_res;

	if (cj || !kb_exists(path))
		return cj;
	dir = kb_xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	res = kb_path_join(dir, "results.json");
	has_res = kb_exists(res);
	kb_error("%s is damaged: it defines the campaign and cannot be "
		 "rebuilt from its runs; restore it from a copy (the measured "
		 "runs under %s/%s are untouched%s%s%s)", path, dir, KB_RUNS_DIR,
		 has_res ? "; the last export reads with 'kbench report "
		 "--from-json " : "", has_res ? res : "", has_res ? "'" : "");
	free(res);
	free(dir);
	return NULL;
}

/* "kernels.conf" or "profiles/NAME", NAME without '/' and not starting
 * with '.': a key of "snapshot" names a file of the campaign directory,
 * never one elsewhere */
static int snapshot_path_ok(const char *p)
{
	if (!strcmp(p, "kernels.conf"))
		return 1;
	if (strncmp(p, "profiles/", 9))
		return 0;
	p += 9;
	return *p && *p != '.' && !strchr(p, '/');
}

static int sha256_hex_ok(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return s[64] == '\0';
}

void results_snapshot_free(struct results_snapshot_file *files, size_t n)
{
	size_t i;

	for (i = 0; files && i < n; i++) {
		free(files[i].path);
		free(files[i].sha256);
	}
	free(files);
}

int results_campaign_snapshot(const char *path,
			      struct results_snapshot_file **files, size_t *n)
{
	json_t *cj = results_campaign_json_load(path), *snap, *v;
	const char *key;
	int ret = 0;

	*files = NULL;
	*n = 0;
	if (!cj)
		return -EINVAL;
	snap = json_object_get(cj, "snapshot");
	if (snap && !json_is_object(snap)) {
		kb_error("%s: \"snapshot\": expected an object of file names "
			 "and their SHA-256", path);
		ret = -EINVAL;
		goto out;
	}
	if (snap)
		*files = kb_xcalloc(json_object_size(snap) + 1,
				    sizeof(**files));
	json_object_foreach(snap, key, v) {
		const char *hex = json_string_value(v);

		if (!snapshot_path_ok(key) || !hex || !sha256_hex_ok(hex)) {
			kb_error("%s: \"snapshot\" key '%s': expected "
				 "kernels.conf or profiles/NAME with the "
				 "file's SHA-256 (64 lowercase hex digits)",
				 path, key);
			results_snapshot_free(*files, *n);
			*files = NULL;
			*n = 0;
			ret = -EINVAL;
			goto out;
		}
		(*files)[*n].path = kb_xstrdup(key);
		(*files)[*n].sha256 = kb_xstrdup(hex);
		(*n)++;
	}
out:
	json_decref(cj);
	return ret;
}

int results_campaign_shard(const char *path, unsigned *k, unsigned *n)
{
	json_t *cj = results_campaign_json_load(path), *sh;

	*k = *n = 0;
	if (!cj)
		return -EINVAL;
	sh = json_object_get(cj, "shard");
	*k = (unsigned)json_integer_value(json_object_get(sh, "k"));
	*n = (unsigned)json_integer_value(json_object_get(sh, "n"));
	json_decref(cj);
	if (sh && (*n < 1 || *k < 1 || *k > *n)) {
		kb_error("%s: malformed \"shard\" (k %u, n %u)", path, *k, *n);
		return -EINVAL;
	}
	return 0;
}

int results_campaign_plan_rounds(const char *dir, unsigned *rounds)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *k;
	const char *slash;
	unsigned it;
	size_t i;

	free(path);
	*rounds = 0;
	if (!cj)
		return -EINVAL;
	json_array_foreach(json_object_get(cj, "plan"), i, k) {
		slash = strrchr(json_string_value(k) ?: "", '/');
		if (slash) {
			it = (unsigned)atoi(slash + 1) + 1;
			if (it > *rounds)
				*rounds = it;
		}
	}
	json_decref(cj);
	return 0;
}

size_t results_campaign_unknown_load_hosts(const char *dir, char **labels,
					   size_t max)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *h;
	size_t i, n = 0;

	json_array_foreach(json_object_get(json_object_get(cj, "environment"),
					   "load_hosts"), i, h) {
		const char *label = json_string_value(json_object_get(h,
								      "host"));

		if (label && n < max &&
		    !json_is_string(json_object_get(h, "fio_version")))
			labels[n++] = kb_xstrdup(label);
	}
	json_decref(cj);
	free(path);
	return n;
}

int results_campaign_load_host_set(const char *dir, const char *label,
				   const char *hostname, const char *version)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *h;
	size_t i;
	int ret = cj ? -ENOENT : -EINVAL;

	json_array_foreach(json_object_get(json_object_get(cj, "environment"),
					   "load_hosts"), i, h) {
		if (!json_is_string(json_object_get(h, "host")) ||
		    strcmp(json_string_value(json_object_get(h, "host")), label))
			continue;
		json_object_set_new(h, "hostname", hostname ?
				    json_string(hostname) : json_null());
		json_object_set_new(h, "fio_version", version ?
				    json_string(version) : json_null());
		ret = kb_json_write_atomic(path, cj);
		break;
	}
	json_decref(cj);
	free(path);
	return ret;
}

int results_campaign_plan_save(const char *dir, const char *const *keys,
			       size_t n, unsigned iterations)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *plan;
	size_t i;
	int ret = -EINVAL;

	if (!cj)
		goto out;
	plan = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(plan, json_string(keys[i]));
	json_object_set_new(cj, "plan", plan);
	json_object_set_new(json_object_get(cj, "campaign"), "iterations",
			    json_integer(iterations));
	ret = kb_json_write_atomic(path, cj);
out:
	json_decref(cj);
	free(path);
	return ret;
}
