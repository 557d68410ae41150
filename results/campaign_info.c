/* results/campaign_info.c - see campaign_info.h. */
#include "results/campaign_info.h"
#include "results/json.h"
#include "lib/err.h"
#include "lib/str.h"
#include "lib/file.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The strings of array a, in order (a non-string entry: NULL). */
static void strs_of(struct kb_rstrs *s, json_t *a)
{
	size_t i;
	json_t *e;

	s->n = json_array_size(a);
	s->v = NULL;
	if (!s->n)
		return;	/* most runs: nothing to allocate */
	s->v = kb_xcalloc(s->n + 1, sizeof(*s->v));
	json_array_foreach(a, i, e)
		s->v[i] = json_string_value(e);
}

/* The integers of array a (round indexes), 0 for an entry that is not
 * one. */
static void iters_of(struct kb_iters *it, json_t *a)
{
	size_t i;
	json_t *e;

	it->n = json_array_size(a);
	it->v = it->n ? kb_xcalloc(it->n, sizeof(*it->v)) : NULL;
	json_array_foreach(a, i, e)
		it->v[i] = (long)json_integer_value(e);
}

/* obj[key] as a number, else NAN. */
static double num_of(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A statistics setting of campaign.json's "campaign" (alpha, min_effect_
 * pct, max_mde_pct) in (lo, hi], or [lo, hi] with lo_ok, as kernels.conf
 * allows it (parsers/kconf.c); another value is warned about, naming
 * the campaign, and read as absent (NAN: the default): a hand-edited
 * alpha of 2 or -1 made a verdict where the campaign could not decide. */
static double setting_of(const struct kb_rcampaign *c, json_t *camp,
			 const char *key, double lo, double hi, int lo_ok)
{
	static struct kb_strlist said;	/* once per campaign and key: the
					 * model is read more than once per
					 * command; kept to the end */
	double v = num_of(camp, key);
	char *what;

	if (isnan(v) || ((lo_ok ? v >= lo : v > lo) && v <= hi))
		return v;
	what = kb_xasprintf("%s\n%s", c->name ? c->name : "?", key);
	if (kb_strlist_has(&said, what)) {
		free(what);
		return NAN;
	}
	kb_strlist_add(&said, what);
	kb_warn("campaign %s: \"%s\" %g: expected a number in %c%g, %g]; "
		"the default used", c->name ? c->name : "?", key, v,
		lo_ok ? '[' : '(', lo, hi);
	return NAN;
}

/* obj[key] as an integer, else -1. */
static long long int_of_value(json_t *v)
{
	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}
static long long int_of(json_t *obj, const char *key)
{
	return int_of_value(json_object_get(obj, key));
}

/* The number members of obj ({"read.iops": 2}) into p, in order. */
static void pcts_of(struct kb_rmetric_pcts *p, json_t *obj)
{
	const char *name;
	json_t *v;

	p->n = 0;
	p->v = kb_xcalloc(json_object_size(obj) + 1, sizeof(*p->v));
	json_object_foreach(obj, name, v) {
		if (!json_is_number(v))
			continue;
		p->v[p->n].metric = name;
		p->v[p->n++].pct = json_number_value(v);
	}
}

double kb_rmetric_pcts__get(const struct kb_rmetric_pcts *p,
			    const char *metric)
{
	size_t i;

	for (i = 0; metric && i < p->n; i++)
		if (!strcmp(p->v[i].metric, metric))
			return p->v[i].pct;
	return NAN;
}

/* obj[key] as a rule of campaign.disturbed: a number, null (off), else
 * not given. */
static struct kb_rdisturbed_rule rule_of(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	struct kb_rdisturbed_rule r = { 0, NAN };

	if (json_is_null(v)) {
		r.given = 1;
	} else if (json_is_number(v)) {
		r.given = 1;
		r.value = json_number_value(v);
	}
	return r;
}

/* campaign.disturbed's rules, by key. */
static const struct {
	const char *key;
	size_t off;
} rule_keys[] = {
#define RULE(k) { #k, offsetof(struct kb_rdisturbed_rules, k) }
	RULE(other_cpu_pct), RULE(other_factor), RULE(steal_pct),
	RULE(psi_pct), RULE(idle_fraction),
#undef RULE
};

static void rules_fill(struct kb_rdisturbed_rules *r, json_t *d)
{
	size_t i;

	r->present = json_is_object(d);
	for (i = 0; i < sizeof(rule_keys) / sizeof(rule_keys[0]); i++)
		*(struct kb_rdisturbed_rule *)((char *)r + rule_keys[i].off) =
			rule_of(d, rule_keys[i].key);
}

/* obj[key]'s integer value, 0 when absent or not an integer */
static long long int0_of(json_t *obj, const char *key)
{
	return (long long)json_integer_value(json_object_get(obj, key));
}

static void vm_variant_fill(struct kb_rvm_variant *v, const char *name,
			    json_t *vr)
{
	v->name = name;
	v->guest_release = kb_jstr(vr, "guest_release");
	v->release = kb_jstr(vr, "release");
	v->guest_proc_version = kb_jstr(vr, "guest_proc_version");
	v->kernel = kb_jstr(vr, "kernel");
	v->package = kb_jstr(vr, "package");
	v->package_version = kb_jstr(vr, "package_version");
	v->image = kb_jstr(vr, "image");
	v->image_sha256 = kb_jstr(vr, "image_sha256");
	v->accel = kb_jstr(vr, "accel");
	v->accel_requested = kb_jstr(vr, "accel_requested");
	v->accel_reason = kb_jstr(vr, "accel_reason");
	v->cpus = int0_of(vr, "cpus");
	v->memory_mib = int0_of(vr, "memory_mib");
	v->nullblk_params = kb_jstr(vr, "nullblk_params");
	strs_of(&v->qemu_argv, json_object_get(vr, "qemu_argv"));
}

static void env_fill(struct kb_renv *e, json_t *env)
{
	json_t *vm = json_object_get(env, "vm"), *lh, *h, *vr;
	const char *name;
	size_t i;

	memset(e, 0, sizeof(*e));
	e->json = json_is_object(env) ? env : NULL;
	e->uname = kb_jstr(env, "uname");
	e->kernel_release = kb_jstr(env, "kernel_release");
	e->kernel_version = kb_jstr(env, "kernel_version");
	e->cpu_model = kb_jstr(env, "cpu_model");
	e->cpus = int_of(env, "cpus");
	e->governor = kb_jstr(env, "governor");
	e->memory_total = kb_jstr(env, "memory_total");
	e->fio_version = kb_jstr(env, "fio_version");
	e->perf_version = kb_jstr(env, "perf_version");
	e->kbench_version = kb_jstr(env, "kbench_version");
	e->hostname = kb_jstr(env, "hostname");
	e->cmdline = kb_jstr(env, "cmdline");
	e->vm_accel = kb_jstr(vm, "accel");
	e->vm_timing_note = kb_jstr(vm, "timing_note");
	lh = json_object_get(env, "load_hosts");
	e->nload_hosts = json_array_size(lh);
	e->load_hosts = e->nload_hosts ? kb_xcalloc(e->nload_hosts,
					sizeof(*e->load_hosts)) : NULL;
	json_array_foreach(lh, i, h) {
		e->load_hosts[i].host = kb_jstr(h, "host");
		e->load_hosts[i].fio_version = kb_jstr(h, "fio_version");
		e->load_hosts[i].hostname = kb_jstr(h, "hostname");
	}
	e->has_cpus = json_is_integer(json_object_get(env, "cpus"));
	e->vm_qemu_version = kb_jstr(vm, "qemu_version");
	e->nvm_variants = json_object_size(json_object_get(vm, "variants"));
	if (!e->nvm_variants)
		return;
	e->vm_variants = kb_xcalloc(e->nvm_variants,
				    sizeof(*e->vm_variants));
	i = 0;
	json_object_foreach(json_object_get(vm, "variants"), name, vr)
		vm_variant_fill(&e->vm_variants[i++], name, vr);
}

/* campaign.shard, campaign.shards and campaign.job_hosts. */
static void shards_fill(struct kb_rcampaign *c, json_t *camp)
{
	json_t *sh = json_object_get(camp, "shard");
	json_t *all = json_object_get(camp, "shards"), *e;
	const char *job;
	size_t i;

	c->has_shard = json_is_object(sh);
	c->shard.k = c->has_shard ? json_integer_value(json_object_get(sh,
						       "k")) : -1;
	c->shard.n = c->has_shard ? json_integer_value(json_object_get(sh,
						       "n")) : -1;
	iters_of(&c->shard.iterations, json_object_get(sh, "iterations"));
	c->has_shards = json_is_object(all);
	c->nshards_merged = c->has_shards ?
		json_integer_value(json_object_get(all, "n")) : -1;
	c->nshards_from = json_array_size(json_object_get(all, "from"));
	c->shards_from = kb_xcalloc(c->nshards_from + 1,
				    sizeof(*c->shards_from));
	json_array_foreach(json_object_get(all, "from"), i, e) {
		json_t *pg = json_object_get(e, "progress");

		c->shards_from[i].dir = kb_jstr(e, "dir");
		c->shards_from[i].k = json_is_integer(json_object_get(e, "k")) ?
			json_integer_value(json_object_get(e, "k")) : -1;
		c->shards_from[i].n = c->nshards_merged;
		c->shards_from[i].planned = json_is_integer(json_object_get(pg,
			"planned")) ? json_integer_value(json_object_get(pg,
			"planned")) : -1;
		c->shards_from[i].done = json_is_integer(json_object_get(pg,
			"done")) ? json_integer_value(json_object_get(pg,
			"done")) : -1;
		iters_of(&c->shards_from[i].iterations,
			 json_object_get(e, "iterations"));
	}
	c->njob_hosts = json_object_size(json_object_get(camp, "job_hosts"));
	c->job_hosts = kb_xcalloc(c->njob_hosts + 1, sizeof(*c->job_hosts));
	i = 0;
	json_object_foreach(json_object_get(camp, "job_hosts"), job, e) {
		c->job_hosts[i].job = job;
		strs_of(&c->job_hosts[i++].hosts, e);
	}
}

static void env_clear(struct kb_renv *e)
{
	size_t i;

	for (i = 0; i < e->nvm_variants; i++)
		free(e->vm_variants[i].qemu_argv.v);
	free(e->vm_variants);
	e->vm_variants = NULL;
	e->nvm_variants = 0;
	free(e->load_hosts);
	e->load_hosts = NULL;
	e->nload_hosts = 0;
}

static void config_fill(struct kb_rconfig *x, json_t *e,
			const struct kb_rcampaign *c, json_t *vm_variants)
{
	json_t *vr;
	size_t t;

	x->id = kb_jstr(e, "id");
	x->variant = kb_jstr(e, "variant");
	x->method = kb_jstr(e, "method");
	x->release = kb_jstr(e, "release");
	x->baseline = kb_jstr(e, "baseline");
	x->cmdline = kb_jstr(e, "cmdline");
	x->tunables = json_object_get(e, "tunables");
	vr = x->variant ? json_object_get(vm_variants, x->variant) : NULL;
	x->guest_release = kb_jstr(vr, "guest_release");
	x->vm_release = kb_jstr(vr, "release");
	x->accel = kb_jstr(vr, "accel");
	x->tunable_values = kb_xcalloc(c->ntunables + 1,
				       sizeof(*x->tunable_values));
	for (t = 0; t < c->ntunables; t++)
		if (c->tunables[t].label)
			x->tunable_values[t] = kb_jstr(x->tunables,
						       c->tunables[t].label);
}

/* The n integers of array a (-1 for an entry that is not one), or NULL
 * when a is not an array of n (malloc'd). */
static long long *counts_of(json_t *a, size_t n)
{
	long long *v;
	size_t i;

	if (json_array_size(a) != n)
		return NULL;
	v = kb_xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = int_of_value(json_array_get(a, i));
	return v;
}

/* campaign.merged_settings into *ms: each array of n campaigns' values
 * (an array of another length or absent: NULL) */
static void merged_settings_of(struct kb_rmerged_settings *ms, json_t *o,
			       size_t n)
{
	json_t *a;
	size_t i;

	memset(ms, 0, sizeof(*ms));
	if (!json_is_object(o) || !n)
		return;
	ms->n = n;
	a = json_object_get(o, "runtime_s");
	if (json_array_size(a) == n) {
		ms->runtime_s = kb_xcalloc(n, sizeof(*ms->runtime_s));
		for (i = 0; i < n; i++) {
			json_t *v = json_array_get(a, i);

			ms->runtime_s[i] = json_is_number(v) ?
					   json_number_value(v) : NAN;
		}
	}
	ms->iterations = counts_of(json_object_get(o, "iterations"), n);
	ms->warmup = counts_of(json_object_get(o, "warmup"), n);
	if (!ms->runtime_s && !ms->iterations && !ms->warmup)
		ms->n = 0;
}

/* results["superseded"] (sup) into c's counts: all of them, the failed
 * runs run again (reason "failed: ..."), and in a merge each campaign's
 * (c->merged_names filled) */
static void superseded_fill(struct kb_rcampaign *c, json_t *sup)
{
	const char *name;
	json_t *e;
	size_t i, k;
	int failed;

	c->nsuperseded = json_array_size(sup);
	if (c->merged_names.n) {
		c->merged_superseded = kb_xcalloc(c->merged_names.n,
						  sizeof(size_t));
		c->merged_superseded_failed = kb_xcalloc(c->merged_names.n,
							 sizeof(size_t));
	}
	json_array_foreach(sup, i, e) {
		failed = !strncmp(kb_jstr(e, "reason") ?: "", "failed: ", 8);
		c->nsuperseded_failed += failed;
		name = kb_jstr(e, "campaign");
		for (k = 0; name && k < c->merged_names.n; k++)
			if (c->merged_names.v[k] &&
			    !strcmp(c->merged_names.v[k], name)) {
				c->merged_superseded[k]++;
				c->merged_superseded_failed[k] += failed;
				break;
			}
	}
}

void kb_rcampaign__fill(struct kb_rcampaign *c, json_t *results)
{
	json_t *camp = json_object_get(results, "campaign");
	json_t *env = json_object_get(camp, "environment");
	json_t *configs = json_object_get(results, "configurations");
	json_t *ds = json_object_get(results, "disturbed_settings"), *e;
	json_t *first = NULL;	/* campaign.environments' first */
	const char *name;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->name = kb_jstr(camp, "name");
	c->baseline = kb_jstr(camp, "baseline");
	c->order = kb_jstr(camp, "order");
	c->target = kb_jstr(camp, "target");
	c->iterations = int_of(camp, "iterations");
	c->warmup = int_of(camp, "warmup");
	c->runtime_s = num_of(camp, "runtime_s");
	{
		json_t *pg = json_object_get(camp, "progress");
		json_t *pl = json_object_get(pg, "planned");
		json_t *dn = json_object_get(pg, "done");

		c->progress_planned = json_is_integer(pl) ?
				      json_integer_value(pl) : -1;
		c->progress_done = json_is_integer(dn) ?
				   json_integer_value(dn) : -1;
	}
	strs_of(&c->jobs, json_object_get(camp, "jobs"));
	strs_of(&c->hosts, json_object_get(camp, "hosts"));
	strs_of(&c->merged_from, json_object_get(camp, "merged_from"));
	strs_of(&c->merged_names, json_object_get(camp, "merged_names"));
	strs_of(&c->merged_orders, json_object_get(camp, "merged_orders"));
	strs_of(&c->merged_job_file_diffs, json_object_get(camp,
		"merged_job_file_diffs"));
	merged_settings_of(&c->merged_settings,
			   json_object_get(camp, "merged_settings"),
			   c->merged_names.n);
	c->ntunables = json_array_size(json_object_get(camp, "tunables"));
	c->tunables = kb_xcalloc(c->ntunables + 1, sizeof(*c->tunables));
	json_array_foreach(json_object_get(camp, "tunables"), i, e) {
		c->tunables[i].label = kb_jstr(e, "label");
		c->tunables[i].path = kb_jstr(e, "path");
		c->tunables[i].sweep = json_is_true(json_object_get(e,
								    "sweep"));
	}
	c->nconfigs = json_array_size(configs);
	c->configs = kb_xcalloc(c->nconfigs + 1, sizeof(*c->configs));
	json_array_foreach(configs, i, e)
		config_fill(&c->configs[i], e, c, json_object_get(
			json_object_get(env, "vm"), "variants"));
	env_fill(&c->env, env);
	c->nenvs = json_object_size(json_object_get(camp, "environments"));
	c->env_names = kb_xcalloc(c->nenvs + 1, sizeof(*c->env_names));
	c->envs = kb_xcalloc(c->nenvs + 1, sizeof(*c->envs));
	i = 0;
	c->envs_equal = 1;
	json_object_foreach(json_object_get(camp, "environments"), name, e) {
		c->env_names[i] = name;
		env_fill(&c->envs[i++], e);
		if (!first)
			first = e;
		c->envs_equal &= json_equal(e, first);
	}
	c->njob_files = json_object_size(json_object_get(camp, "job_files"));
	c->job_file_names = kb_xcalloc(c->njob_files + 1,
				       sizeof(*c->job_file_names));
	c->job_file_texts = kb_xcalloc(c->njob_files + 1,
				       sizeof(*c->job_file_texts));
	i = 0;
	json_object_foreach(json_object_get(camp, "job_files"), name, e) {
		c->job_file_names[i] = name;
		c->job_file_texts[i++] = json_string_value(e);
	}
	c->disturbed.present = json_is_object(ds);
	c->disturbed.other_cpu_pct = num_of(ds, "other_cpu_pct");
	c->disturbed.other_factor = num_of(ds, "other_factor");
	c->disturbed.steal_pct = num_of(ds, "steal_pct");
	c->disturbed.psi_pct = num_of(ds, "psi_pct");
	c->disturbed.idle_fraction = num_of(ds, "idle_fraction");
	c->disturbed.other_cpu_q1 = num_of(ds, "other_cpu_q1");
	c->disturbed.other_cpu_limit = num_of(ds, "other_cpu_limit");
	c->disturbed.idle_q3 = num_of(ds, "idle_q3");
	c->disturbed.idle_limit = num_of(ds, "idle_limit");
	c->alpha = setting_of(c, camp, "alpha", 0.0, 0.5, 0);
	c->min_effect_pct = setting_of(c, camp, "min_effect_pct", 0.0, 1000.0,
				       1);
	c->max_mde_pct = setting_of(c, camp, "max_mde_pct", 0.0, 1000.0, 1);
	pcts_of(&c->min_effect_by_metric, json_object_get(camp,
		"min_effect_by_metric"));
	pcts_of(&c->max_mde_by_metric, json_object_get(camp,
		"max_mde_by_metric"));
	e = json_object_get(camp, "calibration");
	c->calibration_analysis = kb_jstr(e, "analysis");
	c->calibration_file = kb_jstr(e, "file");
	rules_fill(&c->disturbed_rules, json_object_get(camp, "disturbed"));
	shards_fill(c, camp);
	strs_of(&c->layouts, json_object_get(camp, "layouts"));
	c->prefix = kb_jstr(camp, "prefix");
	superseded_fill(c, json_object_get(results, "superseded"));
	c->exclude_disturbed = json_is_true(json_object_get(json_object_get(
		results, "analysis_options"), "exclude_disturbed"));
}

void kb_rcampaign__clear(struct kb_rcampaign *c)
{
	size_t i;

	for (i = 0; i < c->nconfigs; i++)
		free(c->configs[i].tunable_values);
	free(c->configs);
	free(c->tunables);
	free(c->jobs.v);
	free(c->hosts.v);
	free(c->merged_from.v);
	free(c->merged_names.v);
	free(c->merged_orders.v);
	free(c->merged_job_file_diffs.v);
	free(c->merged_settings.runtime_s);
	free(c->merged_settings.iterations);
	free(c->merged_settings.warmup);
	free(c->merged_superseded);
	free(c->merged_superseded_failed);
	env_clear(&c->env);
	for (i = 0; i < c->nenvs; i++)
		env_clear(&c->envs[i]);
	free(c->env_names);
	free(c->envs);
	free(c->min_effect_by_metric.v);
	free(c->max_mde_by_metric.v);
	free(c->shard.iterations.v);
	for (i = 0; i < c->nshards_from; i++)
		free(c->shards_from[i].iterations.v);
	free(c->shards_from);
	for (i = 0; i < c->njob_hosts; i++)
		free(c->job_hosts[i].hosts.v);
	free(c->job_hosts);
	free(c->layouts.v);
	free(c->job_file_names);
	free(c->job_file_texts);
	memset(c, 0, sizeof(*c));
}

int kb_rcampaign__swept(const struct kb_rcampaign *c)
{
	size_t t;

	for (t = 0; t < c->ntunables; t++)
		if (c->tunables[t].sweep)
			return 1;
	return 0;
}

/* values[i] of names[i] == name (n of each), or NULL: the members of a
 * JSON object kept as two arrays, looked up by key. */
static const char *value_of(const char *const *names,
			    const char *const *values, size_t n,
			    const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(names[i], name))
			return values[i];
	return NULL;
}

const char *kb_rcampaign__job_file(const struct kb_rcampaign *c,
				   const char *job)
{
	return value_of(c->job_file_names, c->job_file_texts, c->njob_files,
			job);
}

size_t kb_rcampaign__tunable(const struct kb_rcampaign *c, const char *label)
{
	size_t t;

	for (t = 0; label && t < c->ntunables; t++)
		if (c->tunables[t].label && !strcmp(c->tunables[t].label,
						    label))
			return t;
	return (size_t)-1;
}

size_t kb_rcampaign__labels(const struct kb_rcampaign *c, const char **out,
			    size_t max)
{
	size_t i, l, n = 0;
	const char *k;
	json_t *v;

	for (i = 0; i < c->nconfigs; i++)
		json_object_foreach(c->configs[i].tunables, k, v) {
			for (l = 0; l < n && strcmp(out[l], k); l++)
				;
			if (l == n && n < max)
				out[n++] = k;
		}
	return n;
}

const char *kb_rconfig__tunable(const struct kb_rconfig *x,
				const char *label)
{
	return x && label ? kb_jstr(x->tunables, label) : NULL;
}

const struct kb_rconfig *kb_rcampaign__config(const struct kb_rcampaign *c,
					      const char *id)
{
	size_t i;

	for (i = 0; id && i < c->nconfigs; i++)
		if (c->configs[i].id && !strcmp(c->configs[i].id, id))
			return &c->configs[i];
	return NULL;
}

void kb_rrun_info__fill(struct kb_rrun_info *i, json_t *run)
{
	json_t *params = json_object_get(run, "params"), *v;
	const char *name;
	size_t k = 0;

	memset(i, 0, sizeof(*i));
	i->excluded = kb_jstr(run, "excluded");
	i->reason = kb_jstr(run, "reason");
	i->has_iteration = json_is_integer(json_object_get(run, "iteration"));
	strs_of(&i->disturbed, json_object_get(run, "disturbed"));
	strs_of(&i->outliers, json_object_get(run, "outliers"));
	strs_of(&i->flags, json_object_get(run, "flags"));
	v = json_object_get(run, "flags");
	i->has_flags = v != NULL;
	i->flagged = json_array_size(v) || json_object_size(v);
	i->has_excluded = json_object_get(run, "excluded") != NULL;
	strs_of(&i->warnings, json_object_get(run, "warnings"));
	i->extra = kb_jstr(run, "extra");
	v = json_object_get(run, "excluded_outliers");
	i->nexcluded_outliers = json_object_size(v);
	if (i->nexcluded_outliers) {
		json_t *x;

		i->excluded_outlier_names = kb_xcalloc(i->nexcluded_outliers,
					sizeof(*i->excluded_outlier_names));
		i->excluded_outlier_values = kb_xcalloc(i->nexcluded_outliers,
					sizeof(*i->excluded_outlier_values));
		json_object_foreach(v, name, x) {
			i->excluded_outlier_names[k] = name;
			i->excluded_outlier_values[k++] = json_number_value(x);
		}
		k = 0;
	}
	i->target_size_bytes = int0_of(run, "target_size_bytes");
	i->nparams = json_object_size(params);
	if (!i->nparams)
		return;
	i->param_names = kb_xcalloc(i->nparams, sizeof(*i->param_names));
	i->param_values = kb_xcalloc(i->nparams, sizeof(*i->param_values));
	json_object_foreach(params, name, v) {
		i->param_names[k] = name;
		i->param_values[k++] = json_string_value(v);
	}
}

void kb_rrun_info__clear(struct kb_rrun_info *i)
{
	free(i->disturbed.v);
	free(i->outliers.v);
	free(i->flags.v);
	free(i->warnings.v);
	free(i->param_names);
	free(i->param_values);
	free(i->excluded_outlier_names);
	free(i->excluded_outlier_values);
	memset(i, 0, sizeof(*i));
}

const char *kb_rrun_info__param(const struct kb_rrun_info *i,
				const char *name)
{
	return value_of(i->param_names, i->param_values, i->nparams, name);
}

enum kb_renv_has kb_renv__has(const struct kb_renv *e, const char *key)
{
	json_t *v = json_object_get(e->json, key);

	return !v ? KB_RENV_ABSENT : json_is_null(v) ? KB_RENV_NULL :
	       KB_RENV_SET;
}

int kb_renv__equal(const struct kb_renv *a, const struct kb_renv *b,
		   const char *key)
{
	json_t *x = json_object_get(a->json, key);
	json_t *y = json_object_get(b->json, key);

	return x && y && json_equal(x, y);
}

char *kb_renv__text(const struct kb_renv *e, const char *key)
{
	json_t *v = json_object_get(e->json, key);

	return v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
}

/* Merged shards (kbench report DIR/shard-*): "shard 2/2 has 1 to do:
 * kbench run -o DIR/shard-2 resumes it; ...", each shard whose own
 * progress is short of its plan; NULL when not merged shards or none
 * says so (malloc'd). */
char *kb_rcampaign__unfinished_shards(const struct kb_rcampaign *camp)
{
	const struct kb_rshard *sh;
	char *s = NULL, *t;
	size_t i;

	if (!camp->has_shards)
		return NULL;
	for (i = 0; i < camp->nshards_from; i++) {
		sh = &camp->shards_from[i];
		if (sh->planned < 0 || sh->done < 0 || sh->done >= sh->planned)
			continue;
		t = kb_xasprintf("%s%sshard %lld/%lld has %lld to do: kbench "
				 "run -o %s resumes it", s ? s : "",
				 s ? "; " : "", sh->k, sh->n,
				 sh->planned - sh->done,
				 sh->dir ? sh->dir : "SHARD-DIR");
		free(s);
		s = t;
	}
	return s;
}

char *kb_rcampaign__retry_failed_hint(const struct kb_rcampaign *c,
				      const char *dir,
				      const long long *shard_k, size_t nk)
{
	char *s = NULL, *t;
	size_t i, j, n = 0;

	for (i = 0; c->has_shards && i < c->nshards_from; i++) {
		const struct kb_rshard *sh = &c->shards_from[i];

		for (j = 0; j < nk && shard_k[j] != sh->k; j++)
			;
		if (j == nk || !sh->dir)
			continue;
		t = kb_xasprintf("%s%skbench run -o %s --retry-failed",
				 s ? s : "", s ? "; " : "", sh->dir);
		free(s);
		s = t;
		n++;
	}
	if (!n)
		return kb_xasprintf("kbench run -o %s --retry-failed runs them "
				    "again", dir);
	t = kb_xasprintf("%s %s them again", s, n > 1 ? "run" : "runs");
	free(s);
	return t;
}
