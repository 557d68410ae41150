/* results/campaign_info.c - see campaign_info.h. */
#include "results/campaign_info.h"
#include "results/json.h"
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

/* obj[key] as a number, else NAN. */
static double num_of(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* obj[key] as an integer, else -1. */
static long long int_of(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
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

static void env_fill(struct kb_renv *e, json_t *env)
{
	json_t *vm = json_object_get(env, "vm");

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

void kb_rcampaign__fill(struct kb_rcampaign *c, json_t *results)
{
	json_t *camp = json_object_get(results, "campaign");
	json_t *env = json_object_get(camp, "environment");
	json_t *configs = json_object_get(results, "configurations");
	json_t *ds = json_object_get(results, "disturbed_settings"), *e;
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
	strs_of(&c->jobs, json_object_get(camp, "jobs"));
	strs_of(&c->hosts, json_object_get(camp, "hosts"));
	strs_of(&c->merged_from, json_object_get(camp, "merged_from"));
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
	json_object_foreach(json_object_get(camp, "environments"), name, e) {
		c->env_names[i] = name;
		env_fill(&c->envs[i++], e);
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
	c->alpha = num_of(camp, "alpha");
	c->min_effect_pct = num_of(camp, "min_effect_pct");
	c->max_mde_pct = num_of(camp, "max_mde_pct");
	pcts_of(&c->min_effect_by_metric, json_object_get(camp,
		"min_effect_by_metric"));
	pcts_of(&c->max_mde_by_metric, json_object_get(camp,
		"max_mde_by_metric"));
	e = json_object_get(camp, "calibration");
	c->calibration_analysis = kb_jstr(e, "analysis");
	c->calibration_file = kb_jstr(e, "file");
	rules_fill(&c->disturbed_rules, json_object_get(camp, "disturbed"));
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
	free(c->env_names);
	free(c->envs);
	free(c->min_effect_by_metric.v);
	free(c->max_mde_by_metric.v);
	memset(c, 0, sizeof(*c));
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
	memset(i, 0, sizeof(*i));
}

const char *kb_rrun_info__param(const struct kb_rrun_info *i,
				const char *name)
{
	size_t k;

	for (k = 0; name && k < i->nparams; k++)
		if (!strcmp(i->param_names[k], name))
			return i->param_values[k];
	return NULL;
}
