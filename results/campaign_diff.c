/* results/campaign_diff.c - where two campaigns differ in what makes
 * their numbers comparable (results/campaign_diff.h). */
#include "results/campaign_diff.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The environment members that change results (campaign.json
 * "environment", runner/campaign.c) where the two campaigns differ:
 * a warning listing them.  The kernel command line without BOOT_IMAGE=
 * and initrd= (they name the kernel being compared). */
static char *cmdline_norm(const char *c)
{
	char *copy = kb_xstrdup(c ?: ""), *tok, *save = NULL, *out;

	out = kb_xstrdup("");
	for (tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (strncmp(tok, "BOOT_IMAGE=", 11) &&
		    strncmp(tok, "initrd=", 7))
			kb_str_append(&out, " ", "%s", tok);
	}
	free(copy);
	return out;
}

/* The tokens of command line x (normalised) that y lacks, " "-joined,
 * malloc'd ("" when none). */
static char *cmdline_only_in(const char *x, const char *y)
{
	char *cx = kb_xstrdup(x), *tok, *save = NULL, *out = kb_xstrdup("");
	const char *p;
	size_t len;
	int found;

	for (tok = strtok_r(cx, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		len = strlen(tok);
		found = 0;
		for (p = y; !found && (p = strstr(p, tok)); p += len)
			found = (p == y || p[-1] == ' ') &&
				(p[len] == ' ' || p[len] == '\0');
		if (!found)
			kb_str_append(&out, " ", "%s", tok);
	}
	free(cx);
	return out;
}

/* A command line c (normalised) as a warning shows it: quoted, or "not
 * recorded" when its member is absent or null (malloc'd). */
static char *cmdline_text(enum kb_renv_has h, const char *c)
{
	return h == KB_RENV_SET ? kb_xasprintf("\"%s\"", c) :
	       kb_xstrdup("not recorded");
}

/* memory_total ("24682100 kB", /proc/meminfo's MemTotal): two kernels
 * on one machine differ by a few MB (their own size, what they
 * reserve), which is no difference of the machine; within 1% is the
 * same.  1 same, 0 not, -1 either is not such a number. */
static int memory_close(const struct kb_renv *a, const struct kb_renv *b)
{
	const char *x = json_string_value(json_object_get(a->json,
							  "memory_total"));
	const char *y = json_string_value(json_object_get(b->json,
							  "memory_total"));
	char *ex, *ey;
	double vx, vy;

	if (!x || !y)
		return -1;
	x += strcspn(x, "0123456789");	/* "MemTotal: 100 kB" too */
	y += strcspn(y, "0123456789");
	vx = strtod(x, &ex);
	vy = strtod(y, &ey);
	if (ex == x || ey == y || vx <= 0 || vy <= 0 || strcmp(ex, ey))
		return -1;
	return fabs(vx - vy) <= 0.01 * fmax(vx, vy);
}

void results_env_diff_warn(const char *bdir, const struct kb_rcampaign *cb,
			   const char *ndir, const struct kb_rcampaign *cn)
{
	/* the first `always` keys always (one campaign without it is a
	 * difference), the rest when both recorded a value */
	static const char *const keys[] = { "governor", "cpu_model",
		"memory_total", "fio_version", "cmdline", "cpus",
		"governor_all_cpus", "turbo", "no_turbo", "boost", "epp",
		"smt" };
	const size_t always = 6;
	const struct kb_renv *eb = &cb->env, *en = &cn->env;
	enum kb_renv_has x, y;
	size_t i, ndiff = 0;
	char *sx, *sy;

	if (!eb->json || !en->json) {
		kb_warn("%s records no environment (campaign.json has no "
			"\"environment\" object): whether the two campaigns "
			"ran on the same machine, governor, fio and kernel "
			"command line is not known", !eb->json ? bdir : ndir);
		return;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		x = kb_renv__has(eb, keys[i]);
		y = kb_renv__has(en, keys[i]);
		if (x == KB_RENV_ABSENT && y == KB_RENV_ABSENT)
			continue;	/* recorded by neither */
		if (i >= always && (x != KB_RENV_SET || y != KB_RENV_SET))
			continue;	/* not recorded by both */
		if (!strcmp(keys[i], "cmdline")) {
			char *cx = cmdline_norm(eb->cmdline);
			char *cy = cmdline_norm(en->cmdline);
			int same = !strcmp(cx, cy);
			char *ox, *oy;

			if (same) {
				free(cx);
				free(cy);
				continue;
			}
			if (!ndiff++)
				kb_warn("the campaigns ran in different "
					"environments (a difference may come "
					"from them, not from what is "
					"compared):");
			/* the words that differ, not two lines of 700
			 * characters; a side with none, or none recorded,
			 * is not "only in A: (nothing)" (a break-it trial) */
			ox = cmdline_only_in(cx, cy);
			oy = cmdline_only_in(cy, cx);
			if (x != KB_RENV_SET || y != KB_RENV_SET) {
				/* as the other keys: "not recorded" */
				sx = cmdline_text(x, cx);
				sy = cmdline_text(y, cy);
				kb_warn_more("  cmdline: %s in %s, %s in %s\n",
					sx, bdir, sy, ndir);
				free(sx);
				free(sy);
			} else if (*ox && *oy)
				kb_warn_more("  cmdline: only in %s: %s; only "
					"in %s: %s\n", bdir, ox, ndir, oy);
			else if (*ox || *oy)
				kb_warn_more("  cmdline: only in %s: %s\n",
					*ox ? bdir : ndir, *ox ? ox : oy);
			else	/* the last of a word given twice wins */
				kb_warn_more("  cmdline: the same words, in "
					"another order or repeated: \"%s\" in "
					"%s, \"%s\" in %s\n", cx, bdir, cy, ndir);
			free(ox);
			free(oy);
			free(cx);
			free(cy);
			continue;
		}
		if (kb_renv__equal(eb, en, keys[i]))
			continue;
		if (!strcmp(keys[i], "memory_total") &&
		    memory_close(eb, en) == 1)
			continue;
		if (!ndiff++)
			kb_warn("the campaigns ran in different environments "
				"(a difference may come from them, not from "
				"what is compared):");
		sx = json_is_null(json_object_get(eb->json, keys[i])) ? NULL :
		     kb_renv__text(eb, keys[i]);
		sy = json_is_null(json_object_get(en->json, keys[i])) ? NULL :
		     kb_renv__text(en, keys[i]);
		kb_warn_more("  %s: %s in %s, %s in %s\n", keys[i],
			sx ? sx : "not recorded", bdir,
			sy ? sy : "not recorded", ndir);
		free(sx);
		free(sy);
	}
}

/* The load hosts of job in c (campaign.job_hosts, else campaign.hosts;
 * none: fio ran on the campaign's machine). */
static const struct kb_rstrs *job_load_hosts(const struct kb_rcampaign *c,
					     const char *job)
{
	size_t i;

	for (i = 0; i < c->njob_hosts; i++)
		if (c->job_hosts[i].job && !strcmp(c->job_hosts[i].job, job))
			return &c->job_hosts[i].hosts;
	return &c->hosts;
}

/* 1 when a and b hold the same hosts, in any order (the metrics are
 * their sum), else 0. */
static int same_hosts(const struct kb_rstrs *a, const struct kb_rstrs *b)
{
	size_t i, j;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		for (j = 0; j < b->n; j++)
			if (a->v[i] && b->v[j] && !strcmp(a->v[i], b->v[j]))
				break;
		if (j == b->n)
			return 0;
	}
	return 1;
}

/* "10.0.0.2:8765 10.0.0.3:8765", or "none (fio on its own machine)"
 * (malloc'd) */
static char *hosts_text(const struct kb_rstrs *h)
{
	char *out = kb_xstrdup("");
	size_t i;

	for (i = 0; i < h->n; i++)
		kb_str_append(&out, " ", "%s", h->v[i] ? h->v[i] : "?");
	if (!h->n)
		kb_str_append(&out, "", "none (fio on its own machine)");
	return out;
}

/* What the two campaigns measured, where it differs: the target, the
 * runtime and, for each job both ran, its fio job file (campaign.json
 * job_files): a warning listing them ("regression -81%" between two
 * campaigns whose randread-4k.fio differed by a rate_iops line said
 * nothing of it). */
void results_setup_diff_warn(const char *bdir, const struct kb_rcampaign *cb,
			     const char *ndir, const struct kb_rcampaign *cn)
{
	size_t i, ndiff = 0;

#define SAY_DIFF(...)							\
	do {								\
		if (!ndiff++)						\
			kb_warn("the campaigns measured different things "	\
				"(a difference may come from them, not "	\
				"from what is compared):");		\
		kb_warn_more(__VA_ARGS__);				\
	} while (0)
	if (cb->target && cn->target && strcmp(cb->target, cn->target))
		SAY_DIFF("  target: %s in %s, %s in %s\n", cb->target, bdir,
			 cn->target, ndir);
	if (isfinite(cb->runtime_s) && isfinite(cn->runtime_s) &&
	    cb->runtime_s != cn->runtime_s)
		SAY_DIFF("  runtime: %g s in %s, %g s in %s\n", cb->runtime_s,
			 bdir, cn->runtime_s, ndir);
	/* more rounds is more of the same measurement, not another one
	 * (a new-user trial read "measured different things" as a fault):
	 * said apart */
	if (cb->iterations >= 0 && cn->iterations >= 0 &&
	    cb->iterations != cn->iterations)
		kb_info("the campaigns ran different numbers of rounds (each "
			"table's n says how many counted): iterations: %lld in "
			"%s, %lld in %s", (long long)cb->iterations, bdir,
			(long long)cn->iterations, ndir);
	if (cb->warmup >= 0 && cn->warmup >= 0 && cb->warmup != cn->warmup)
		SAY_DIFF("  warmup: %lld in %s, %lld in %s\n",
			 (long long)cb->warmup, bdir, (long long)cn->warmup,
			 ndir);
	/* hosts = (fio --client): the metrics are the load hosts' sum, so
	 * another set of hosts is another load ("improvement +88%" from
	 * one host to two said nothing of it) */
	for (i = 0; i <= cn->jobs.n; i++) {
		const char *job = i ? cn->jobs.v[i - 1] : NULL;
		const struct kb_rstrs *hb = job ? job_load_hosts(cb, job) :
					    &cb->hosts;
		const struct kb_rstrs *hn = job ? job_load_hosts(cn, job) :
					    &cn->hosts;
		char *tb, *tn;

		/* a job of [global]'s hosts in both: said once, above */
		if ((job && hb == &cb->hosts && hn == &cn->hosts) ||
		    same_hosts(hb, hn))
			continue;
		tb = hosts_text(hb);
		tn = hosts_text(hn);
		if (job)
			SAY_DIFF("  load hosts of job %s: %s in %s, %s in %s\n",
				 job, tb, bdir, tn, ndir);
		else
			SAY_DIFF("  load hosts: %s in %s, %s in %s\n", tb,
				 bdir, tn, ndir);
		free(tb);
		free(tn);
	}
	for (i = 0; i < cn->njob_files; i++) {
		const char *job = cn->job_file_names[i];
		char *what = kb_xasprintf("job %s: its fio job file", job);
		char *d = kb_text_diff(what, kb_rcampaign__job_file(cb, job),
				       bdir, cn->job_file_texts[i], ndir);

		if (d)
			SAY_DIFF("  %s\n", d);
		free(d);
		free(what);
	}
#undef SAY_DIFF
}

