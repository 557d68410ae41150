/* builtin/compare.c - `kbench compare BASE NEW`: a verdict per job and
 * metric, and an exit status `git bisect run` understands (0 good, 1
 * bad, 125 skip).  The statistics are those of stats/compare.h.
 *
 * Each side is loaded as a results tree (results/model.h) with its
 * campaign typed (results/campaign_info.h); the configurations compared
 * are copied into one merged pair model (results_pair_new(),
 * results_pair_add()), whose typed model (results/rmodel.h) is built
 * once, analysed, and is all that the tables and the verdict read. */
#include "builtin/builtin.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"
#include "reports/table.h"
#include "results/analysis.h"
#include "results/json.h"
#include "results/campaign_diff.h"
#include "results/model.h"
#include "results/rmodel.h"
#include "stats/compare.h"
#include "stats/disturbed.h"
#include "stats/summary.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EXIT_NO_REGRESSION 0
#define EXIT_REGRESSION 1
#define EXIT_ERROR 2
#define EXIT_UNDECIDABLE 125

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench compare [--metric NAME]... [--alpha P] [--min-effect PCT]\n"
"                      [--max-mde PCT] [--accept-underpowered]\n"
"                      [--map NEW=OLD]... [--exclude-outliers]\n"
"                      [--exclude-disturbed] [-f text|json] BASE NEW\n"
"\n"
"Compare the campaign NEW with the campaign BASE and print a verdict per\n"
"job and metric: improvement, regression, no significant difference,\n"
"underpowered (no significant difference, but the minimum detectable\n"
"effect is above max_mde), insufficient samples (n < 2 on a side) or\n"
"inconclusive (the baseline drifts over the run order more than the\n"
"change, or a sample has two performance modes).  BASE and NEW are\n"
"campaign directories, or\n"
"DIR:CONFIGURATION for one configuration of a campaign (e.g.\n"
"results/demo:running,NM=0).  A campaign split with\n"
"kbench run --shard K/N is given as the directory holding its shard\n"
"directories (results/NAME for results/NAME/shard-K): its shards are\n"
"merged into the one campaign (all of them needed).  Two whole\n"
"directories: each configuration of NEW against the configuration of\n"
"BASE with the same name (--map NEW=OLD when names differ; one with\n"
"no match against BASE's baseline, with a warning).  BASE given as\n"
"DIR:CONFIGURATION: every configuration of NEW against it (of the\n"
"same campaign: itself left out, with a warning, as is any\n"
"configuration paired with itself beside others).  NEW given\n"
"as DIR:CONFIGURATION: against BASE's configuration of that name, as\n"
"for two directories (of the same campaign: against its baseline,\n"
"kbench compare A A:running,NM=1).  The same\n"
"directory twice (kbench compare A A, or two paths to it) compares each\n"
"configuration with itself as two campaigns would be, and says so:\n"
"every change 0.00%%; with --map, the configurations it pairs, as two\n"
"of one campaign (said too).  When the two\n"
"campaigns' environments differ where it matters (CPU governor, model,\n"
"memory, fio version, kernel command line, turbo/boost/EPP/SMT when\n"
"recorded) a warning lists the differences; so it does when they\n"
"measured different things: target, runtime, load hosts (hosts =: the\n"
"metrics are their sum), or a job's fio job file (the first line that\n"
"differs).\n"
"\n"
"Two configurations of one campaign run with order = interleave or\n"
"random are compared round by round (paired t-test on the per-round log\n"
"ratios ln(NEW/BASE), matched by iteration; Wilcoxon signed-rank beside\n"
"it); configurations of different campaigns, of an order = block\n"
"campaign, or of two variants that ran in different boots (a local\n"
"variant and another method, or local variants pinned to different\n"
"kernels by release =: no round holds both), unpaired (Welch's t-test\n"
"on ln values; Mann-Whitney U beside it).  The change is the ratio of\n"
"geometric means - 1 with its 95%% CI.\n"
"A difference is significant when the test's p, adjusted by\n"
"Benjamini-Hochberg over every comparison printed, is below alpha AND the\n"
"change is at least the minimum effect.  A sample with two performance\n"
"modes makes its comparisons inconclusive.  Under the table: the analysis,\n"
"the minimum detectable effect (80%% power), outliers (MAD modified z >\n"
"3.5), two modes, drift and warm-up warnings.\n"
"\n"
"options:\n"
"  -m, --metric NAME   compare NAME (repeat, or NAME,NAME); default: per\n"
"                      job, the IOPS and p99 completion latency of each\n"
"                      direction with I/O (read.iops, read.clat_p99_ns...)\n"
"      --alpha P       significance level (0 < P <= 0.5; default: BASE's\n"
"                      kernels.conf alpha, else 0.05)\n"
"      --min-effect PCT  smallest change in %% called significant, every\n"
"                      metric; METRIC=PCT for one, e.g. read.iops=2\n"
"                      (default: BASE's kernels.conf min_effect, else 1)\n"
"      --max-mde PCT   a \"no significant difference\" whose minimum\n"
"                      detectable effect is above PCT is \"underpowered\"\n"
"                      (exit 125); METRIC=PCT for one (default: BASE's\n"
"                      kernels.conf max_mde, else 5)\n"
"      --accept-underpowered  exit 0, not 125, when the only undecided\n"
"                      comparisons are underpowered\n"
"      --map NEW=OLD   compare NEW's configuration NEW with BASE's OLD\n"
"                      (repeat for several); variants too: patched=stock\n"
"                      maps each patched,NM=V to stock,NM=V; an error\n"
"                      with BASE given as DIR:CONFIGURATION, one of\n"
"                      another configuration than NEW DIR:CONFIGURATION's,\n"
"                      and two that pair X and Y of one campaign both ways\n"
"      --exclude-outliers  leave outlier runs out of the tests (they are\n"
"                      listed either way)\n"
"      --exclude-disturbed  leave disturbed runs (stats/disturbed.h: other\n"
"                      tasks, steal, CPU pressure, lost idle) out of the\n"
"                      tests; they are listed either way\n"
"  -f, --format FMT    text (default) or json: the comparisons as\n"
"                      results.json holds them and the verdict with its\n"
"                      counts (warnings stay on standard error)\n"
"  -h, --help          this text\n"
"\n"
"exit status: 0 no metric regressed, 1 at least one regressed, 2 error\n"
"(a bad option, a missing campaign or configuration, no fio job in\n"
"common), 125 the data cannot decide (too few runs, drift, two modes, an\n"
"underpowered \"no difference\" without --accept-underpowered, or a job\n"
"in common with no value of a metric on both sides) and nothing\n"
"regressed: `git bisect run` skips that commit.\n");
}

/* 1 when the two campaigns list a job in common */
static int has_job(const struct kb_rcampaign *c, const char *job)
{
	size_t k;

	for (k = 0; k < c->jobs.n; k++)
		if (c->jobs.v[k] && !strcmp(c->jobs.v[k], job))
			return 1;
	return 0;
}

static int jobs_in_common(const struct kb_rcampaign *a,
			  const struct kb_rcampaign *b)
{
	size_t i;

	for (i = 0; i < a->jobs.n; i++)
		if (a->jobs.v[i] && has_job(b, a->jobs.v[i]))
			return 1;
	return 0;
}

static int is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* One side: a campaign directory and its results model. */
struct side {
	const char *arg;
	char *dir;
	char *config;		/* NULL: the whole directory */
	json_t *res;		/* its results model (results/model.h) */
	struct kb_rcampaign camp;	/* res's campaign and configurations,
					 * typed (borrows from res) */
};

/* The jobs of one side that the other never ran: said, and their runs
 * left out of the comparison (they had rows of "insufficient samples"
 * under a table saying how the other side's rounds were paired). */
static void drop_unshared_jobs(struct side *s, const struct side *other)
{
	size_t i;

	for (i = 0; i < s->camp.jobs.n; i++) {
		const char *job = s->camp.jobs.v[i];

		if (!job || has_job(&other->camp, job))
			continue;
		kb_warn("job %s: only in %s, not compared", job, s->arg);
		results_drop_job_runs(s->res, job);
	}
}

static void list_configs(const struct kb_rcampaign *c)
{
	size_t i;

	for (i = 0; i < c->nconfigs; i++)
		kb_warn_more("  %s\n", c->configs[i].id ?: "?");
}

/* The ':' of arg (DIR:CONFIGURATION) that ends DIR: the last one after
 * which arg's start is a directory, else the last one (NULL: none).  A
 * configuration id may hold ':' itself (a tunable value a:b, in
 * running,RW=a:b: DIR:running,RW=a:b was cut at its last ':', a break-it
 * trial), and so may a directory's name. */
static const char *dir_colon(const char *arg)
{
	const char *last = strrchr(arg, ':'), *c;
	char *d;
	int found;

	for (c = last; c && c > arg; c = memrchr(arg, ':', (size_t)(c - arg))) {
		d = kb_xasprintf("%.*s", (int)(c - arg), arg);
		found = is_dir(d);
		free(d);
		if (found)
			return c;
	}
	return last;
}

/* Open side s of arg (DIR or DIR:CONFIGURATION); prev: the side opened
 * before (NULL: none), whose results s copies when both name one
 * directory (compare A:x A:y), so that its files are read, and their
 * warnings said, once.  0 or -errno, with a message. */
static int side_open(struct side *s, const char *arg, const struct side *prev)
{
	const char *colon;

	s->arg = arg;
	if (!*arg) {	/* "kbench compare '' DIR": an unset variable */
		kb_error("an empty argument where a campaign was expected "
			 "(give DIR or DIR:CONFIGURATION)");
		return -ENOENT;
	}
	if (is_dir(arg)) {
		s->dir = kb_xstrdup(arg);
	} else {
		struct stat st;

		colon = dir_colon(arg);
		if (!colon || colon == arg || !colon[1]) {
			int e = stat(arg, &st) < 0 ? errno : 0;

			kb_error("%s: not a campaign directory (%s; give DIR "
				 "or DIR:CONFIGURATION)", arg, e ? strerror(e) :
				 "not a directory");
			return -ENOENT;
		}
		s->dir = kb_xasprintf("%.*s", (int)(colon - arg), arg);
		s->config = kb_xstrdup(colon + 1);
		if (!is_dir(s->dir)) {
			kb_error("%s: no campaign directory %s", arg, s->dir);
			return -ENOENT;
		}
	}
	if (prev && prev->res && kb_same_file(prev->dir, s->dir)) {
		/* prev's, its shards already combined */
		s->res = json_deep_copy(prev->res);
		if (!s->res)
			return -ENOMEM;
	} else if (!(s->res = results_load_dir(s->dir, 0)))
		return -EINVAL;	/* the message names the directory */
	if (results_is_shard(s->res)) {
		/* one shard alone: refused, naming the shards missing */
		const char *name = s->dir;
		size_t one = 1;

		if (results_combine_shards(&s->res, &name, &one))
			return -EINVAL;
	}
	kb_rcampaign__fill(&s->camp, s->res);
	if (s->config && !kb_rcampaign__config(&s->camp, s->config)) {
		kb_error("%s: %s has no configuration '%s'; it has:", arg,
			 s->dir, s->config);
		list_configs(&s->camp);
		return -EINVAL;
	}
	return 0;
}

static const char *baseline_of(const struct kb_rcampaign *c)
{
	if (kb_rcampaign__config(c, c->baseline))
		return c->baseline;
	return c->nconfigs ? c->configs[0].id : NULL;
}

static void side_close(struct side *s)
{
	free(s->dir);
	free(s->config);
	kb_rcampaign__clear(&s->camp);
	json_decref(s->res);
}

struct pairs {
	struct kb_compare_pair *v;
	char **labels;		/* owned */
	size_t n, nlabels;
	size_t nself;		/* pairs of a configuration with itself:
				 * 0 or all (build_pairs()) */
};

/* The merged model's name of configuration id of side s; again != 0:
 * the second copy of a configuration compared with itself (kbench
 * compare A A), a campaign of its own so that the two are compared as
 * two campaigns are (unpaired). */
static const char *label_for(struct pairs *p, json_t *merged,
			     const struct side *s, const char *id, int again)
{
	char *l = kb_xasprintf("%s:%s%s", s->dir, id, again ? " (again)" : "");
	char *camp;
	size_t i;

	for (i = 0; i < p->nlabels; i++) {
		if (!strcmp(p->labels[i], l)) {
			free(l);
			return p->labels[i];
		}
	}
	p->labels = kb_xrealloc(p->labels, (p->nlabels + 1) *
				sizeof(*p->labels));
	p->labels[p->nlabels++] = l;
	camp = kb_xasprintf("%s%s", s->dir, again ? " (again)" : "");
	results_pair_add(merged, s->res, id, l, camp);
	free(camp);
	return l;
}

static void add_pair(struct pairs *p, json_t *merged, const struct side *b,
		     const char *bid, const struct side *n, const char *nid)
{
	const char *bl = label_for(p, merged, b, bid, 0);
	const char *nl = label_for(p, merged, n, nid, 0);

	if (!strcmp(bl, nl)) {	/* a configuration against itself */
		nl = label_for(p, merged, n, nid, 1);
		p->nself++;
	}
	p->v = kb_xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n].baseline = bl;
	p->v[p->n++].configuration = nl;
}

/* The pairs of configuration ids (BASE's, NEW's) to compare, before
 * they are labelled (add_pair()). */
struct wanted {
	struct kb_compare_pair *v;
	size_t n;
};

static void want(struct wanted *w, const char *bid, const char *nid)
{
	w->v = kb_xrealloc(w->v, (w->n + 1) * sizeof(*w->v));
	w->v[w->n].baseline = bid;
	w->v[w->n++].configuration = nid;
}

static void want_pairs(struct wanted *w, struct side *b, struct side *n,
		       const struct results_map *map)
{
	const char *bid = b->config ? b->config : baseline_of(&b->camp), *id;
	const char *old;
	size_t i;

	if (n->config) {
		/* NEW's configuration against the same campaign: against its
		 * baseline (compare A A:NM=1), unless --map says; against
		 * another campaign: the same-named configuration, as for two
		 * whole directories, else its baseline with a warning (a
		 * NEW:patched,NM=1 against an OLD of running,NM=* was once
		 * compared with running,NM=0 in silence) */
		int same = !strcmp(b->dir, n->dir);

		/* of one campaign: the --map's (cmd_compare() checked that
		 * each maps n->config), a variant's too (VARIANT=OLD was
		 * read without BASE, so never found) */
		if (b->config || (same && !map->n))
			old = NULL;
		else
			old = results_match_config(b->res, n->config, map);
		if (!b->config && !same && !old)
			kb_warn("%s has no configuration '%s' (give --map "
				"%s=OLD to name the one to compare with%s): "
				"compared with its baseline %s", b->dir,
				n->config, n->config,
				results_map_hint(n->config), bid);
		want(w, old ? old : bid, n->config);
		return;
	}
	for (i = 0; i < n->camp.nconfigs; i++) {
		id = n->camp.configs[i].id;
		if (!id)
			continue;
		if (b->config) {
			want(w, bid, id);
			continue;
		}
		/* one rule with kbench report A B (results_merge) */
		old = results_match_config(b->res, id, map);
		if (!old)
			kb_warn("%s has no configuration '%s' (give --map "
				"%s=OLD to name the one to compare with%s): "
				"compared with its baseline %s", b->dir, id,
				id, results_map_hint(id), bid);
		want(w, old ? old : bid, id);
	}
}

/* The --map argument that maps configuration id of NEW (its first) */
static const char *map_of(const struct results_map *map, json_t *base,
			  const char *id)
{
	size_t i;

	for (i = 0; i < map->n; i++)
		if (results_map_maps(map->v[i], base, id))
			return map->v[i];
	return "?";
}

/* 1 when id is the base of a pair of w with another configuration */
static int is_base(const struct wanted *w, const char *id)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].baseline, id) &&
		    strcmp(w->v[i].configuration, id))
			return 1;
	return 0;
}

/* The pairs to compare, labelled in merged.  A configuration with
 * itself (one campaign, one configuration) beside comparisons of other
 * configurations is left out, said once (kbench compare A:X A, or a
 * --map of A A): its 0.00% would join the Benjamini-Hochberg family and
 * the verdict's counts.  Every pair such: kbench compare A A.  Two
 * configurations of one campaign paired both ways (compare A A --map
 * X=Y --map Y=X): an error, -EINVAL; 0 otherwise. */
static int build_pairs(struct pairs *p, json_t *merged, struct side *b,
		       struct side *n, const struct results_map *map)
{
	struct wanted w = { NULL, 0 };
	const struct kb_compare_pair *pr;
	size_t i, j, nself = 0;
	int one = !strcmp(b->dir, n->dir);

	want_pairs(&w, b, n, map);
	/* X against Y and Y against X: one comparison, its p twice in the
	 * Benjamini-Hochberg family, and a regression one way is an
	 * improvement the other, so the verdict would depend on which of
	 * the two is taken as the base: refused, not guessed (a break-it
	 * trial) */
	for (i = 0; one && i < w.n; i++)
		for (j = i + 1; j < w.n; j++) {
			const struct kb_compare_pair *x = &w.v[i], *y = &w.v[j];

			if (strcmp(x->baseline, x->configuration) &&
			    !strcmp(x->baseline, y->configuration) &&
			    !strcmp(x->configuration, y->baseline)) {
				kb_error("--map %s and --map %s pair %s and %s "
					 "of %s both ways (each against the "
					 "other): one comparison, counted "
					 "twice, whose verdict depends on which "
					 "is the base; give one of the two "
					 "(NEW=OLD, OLD the base)",
					 map_of(map, b->res, x->configuration),
					 map_of(map, b->res, y->configuration),
					 x->configuration, y->configuration,
					 n->dir);
				free(w.v);
				return -EINVAL;
			}
		}
	for (i = 0; i < w.n; i++)
		nself += one && !strcmp(w.v[i].baseline, w.v[i].configuration);
	for (i = 0; i < w.n; i++) {
		pr = &w.v[i];
		if (nself < w.n && one &&
		    !strcmp(pr->baseline, pr->configuration)) {
			/* a --map of compare A A: the configurations it
			 * does not name have no other to go against (a
			 * break-it trial: "compares each configuration with
			 * itself" read as if they had been compared) */
			if (map->n && !b->config && !n->config &&
			    is_base(&w, pr->configuration))
				;	/* in the table as another's (base) */
			else if (map->n && !b->config && !n->config)
				kb_warn("%s:%s: compared with itself, left out: "
					"no --map pairs it with another "
					"configuration of %s (give --map "
					"%s=OLD to compare it)", n->dir,
					pr->configuration, n->dir,
					pr->configuration);
			else
				kb_warn("%s:%s: compared with itself, left out "
					"(kbench compare %s %s compares each "
					"configuration with itself)", n->dir,
					pr->configuration, n->dir, n->dir);
			continue;
		}
		add_pair(p, merged, b, pr->baseline, n, pr->configuration);
	}
	free(w.v);
	return 0;
}

/* kbench compare A A: the comparisons of a configuration with its own
 * copy ("(again)", add_pair()) are unpaired because the copy is taken as
 * another campaign; their reason says so, not "different campaigns". */
static void self_reasons(struct kb_analysis *a)
{
	struct kb_comparison_row *e;
	size_t i, l;
	const char *c;

	for (i = 0; i < a->ncomparisons; i++) {
		e = &a->comparisons[i];
		c = e->configuration;
		l = c ? strlen(c) : 0;
		if (l > 8 && !strcmp(c + l - 8, " (again)")) {
			free(e->analysis_reason);
			e->analysis_reason = kb_xstrdup(
				"a campaign compared with itself: each "
				"configuration against a copy of its runs "
				"taken as another campaign, so unpaired, "
				"every change 0.00%, and the minimum "
				"detectable effect that of two such "
				"campaigns");
		}
	}
}

/* A campaign with runs still to do (kbench run stopped, or waiting for
 * another kernel): its comparisons use the runs it has, and that is
 * said, as report's Progress header does (with progress; without it,
 * only the failed runs, for a side of a campaign already said). */
static void progress_warn(const struct side *s, int progress)
{
	const struct kb_rcampaign *c = &s->camp;
	const char *st, *reason = NULL, *cfg;
	size_t i, nfailed = 0, ncounted = 0;
	long long *shard_k = NULL;
	char *retry;
	json_t *r;

	/* failed counted runs (of the configuration given, if one): how
	 * many, the first reason; the comparison's n counts only the
	 * others */
	json_array_foreach(json_object_get(s->res, "runs"), i, r) {
		if (json_is_true(json_object_get(r, "warmup")))
			continue;
		cfg = json_string_value(json_object_get(r, "configuration"));
		if (s->config && (!cfg || strcmp(cfg, s->config)))
			continue;
		ncounted++;
		st = json_string_value(json_object_get(r, "status"));
		if (st && !strcmp(st, "ok"))
			continue;
		/* merged shards: the shard each came from, whose own
		 * directory --retry-failed runs in (a helper's trial) */
		shard_k = kb_xrealloc(shard_k, (nfailed + 1) *
				      sizeof(*shard_k));
		shard_k[nfailed] = json_integer_value(json_object_get(r,
								"shard"));
		if (!nfailed++)
			reason = json_string_value(json_object_get(r,
								   "reason"));
	}
	if (nfailed) {
		retry = kb_rcampaign__retry_failed_hint(c, s->dir, shard_k,
							nfailed);
		kb_warn("%s: %zu of %zu counted run(s) failed, left out of "
			"the comparison (the first: %s; kbench report %s "
			"lists them, %s)", s->arg, nfailed, ncounted, reason ?
			reason : "no reason recorded", s->dir, retry);
		free(retry);
	}
	free(shard_k);

	if (progress && c->progress_planned > 0 &&
	    c->progress_done < c->progress_planned) {
		/* merged shards: each unfinished shard's own directory */
		char *todo = kb_rcampaign__unfinished_shards(c);

		if (todo)
			kb_warn("%s is unfinished: %lld of %lld runs done (%s); "
				"its comparisons use the runs it has", s->dir,
				c->progress_done, c->progress_planned, todo);
		else
			kb_warn("%s is unfinished: %lld of %lld runs done "
				"(kbench run -o %s resumes it; kbench plan -o "
				"%s lists what is left); its comparisons use "
				"the runs it has", s->dir, c->progress_done,
				c->progress_planned, s->dir, s->dir);
		free(todo);
	}
}

static const char *verdict_word(const struct kb_comparison_row *e)
{
	return e->verdict ?: "?";
}

/* v, and in *ok whether it is a number results.json would hold (the
 * serializer writes null for NaN and Inf, results/json.h kb_jreal()) */
static double num(double v, int *ok)
{
	*ok = isfinite(v);
	return *ok ? v : NAN;
}

static int cmp_matches(const struct kb_comparison_row *e,
		       const struct kb_compare_pair *pr, const char *job)
{
	return !strcmp(e->baseline, pr->baseline) &&
	       !strcmp(e->configuration, pr->configuration) &&
	       !strcmp(e->job, job);
}

/* --exclude-outliers: the values of metric left out on side cfg (a
 * configuration label) in job's runs, as a note: "(listed either way)",
 * the help says, and with the option they are no longer in the
 * comparison's own outlier counts. */
static void excluded_note(struct kb_table *t, const struct kb_rmodel *m,
			  const char *side, const char *cfg, const char *job,
			  const char *metric)
{
	const struct kb_rrun *r;
	char *list = NULL, lb[KB_ITER_LABEL_MAX];
	size_t i, k;

	for (i = 0; i < m->nruns; i++) {
		r = &m->runs[i];
		if (r->config == KB_RMODEL_NONE || r->job == KB_RMODEL_NONE ||
		    strcmp(m->configs.v[r->config] ?: "", cfg) ||
		    strcmp(m->jobs.v[r->job] ?: "", job))
			continue;
		for (k = 0; k < r->info.nexcluded_outliers; k++) {
			if (strcmp(r->info.excluded_outlier_names[k], metric))
				continue;
			kb_str_append(&list, ", ", "iteration %s (%.10g)",
				kb_iteration_label(r->iteration,
					m->campaign.warmup > 0 ?
					m->campaign.warmup : 0, lb),
				r->info.excluded_outlier_values[k]);
		}
	}
	if (list)
		kb_table_add_note(t, "%s: left out in %s (--exclude-outliers): "
				  "%s", metric, side, list);
	free(list);
}

/* What "(-8.40%)?" means, in the legend or, after it, on its own. */
static const char unsure_text[] = "inconclusive (the change of the "
	"samples, which the verdict does not stand behind: see its note)";

/* What the tables printed so far explained (the legend once, under the
 * first table; the "?" mark under the first table that has one). */
struct legend_said {
	int legend, unsure;
};

/* One table per pair and job; nothing when they have no comparison.
 * accept_under: --accept-underpowered (its notes do not advise it). */
static void print_pair(FILE *out, const struct kb_rmodel *m,
		       const struct kb_compare_pair *pr, const char *job,
		       int accept_under, struct legend_said *said)
{
	const struct kb_analysis *a = &m->analysis;
	const struct kb_comparison_settings *set = &a->settings;
	const struct kb_comparison_row *e;
	struct kb_table *t;
	char *title, *p_adj;
	size_t i, row, nunsure = 0;
	int ok, ok2;
	double v, w;
	char *mt;

	for (i = 0; i < a->ncomparisons; i++)
		if (cmp_matches(&a->comparisons[i], pr, job))
			break;
	if (i == a->ncomparisons)
		return;
	title = kb_xasprintf("%s: %s vs %s (base)", job, pr->configuration,
			     pr->baseline);
	t = kb_table_new(title);
	free(title);
	kb_table_add_col(t, "metric", 0, 0);
	kb_table_add_col(t, "base", 1, 1);
	kb_table_add_col(t, "new", 1, 1);
	kb_table_add_col(t, "change", 1, 1);
	kb_table_add_col(t, "95% CI of change", 1, 1);
	kb_table_add_col(t, "p adj", 1, 2);
	kb_table_add_col(t, "rank p", 1, 2);
	kb_table_add_col(t, "n", 1, 2);
	kb_table_add_col(t, "CV%", 1, 2);
	kb_table_add_col(t, "verdict", 0, 2);
	for (i = 0; i < a->ncomparisons; i++) {
		const char *vd;

		e = &a->comparisons[i];
		if (!cmp_matches(e, pr, job))
			continue;
		vd = verdict_word(e);
		row = kb_table_add_row(t, 0);
		kb_table_set(t, row, 0, "%s", e->metric);
		v = num(e->mean_baseline, &ok);
		kb_table_set(t, row, 1, ok ? "%.2f" : "n/a", v);
		v = num(e->mean, &ok);
		kb_table_set(t, row, 2, ok ? "%.2f" : "n/a", v);
		v = num(e->change_pct, &ok);
		if (ok && kb_verdict_significant(vd))
			kb_table_set(t, row, 3, "* %+.2f%%*", v);
		else if (ok && !kb_verdict_shows_ci(e->verdict) && ++nunsure)
			kb_table_set(t, row, 3, "(%+.2f%%)?", v);
		else if (ok)
			kb_table_set(t, row, 3, "(%+.2f%%)", v);
		else
			kb_table_set(t, row, 3, "n/a");
		v = num(e->change_ci95_lo_pct, &ok);
		w = num(e->change_ci95_hi_pct, &ok2);
		if (ok && ok2 && kb_verdict_shows_ci(e->verdict)) {
			char lo[16], hi[16];

			kb_table_set(t, row, 4, "[%s%%, %s%%]",
				     kb_pct_bound(lo, sizeof(lo), v, 2),
				     kb_pct_bound(hi, sizeof(hi), w, 2));
		} else
			kb_table_set(t, row, 4, "n/a");
		v = num(e->p_adjusted, &ok);
		kb_table_set(t, row, 5, ok ? "%.3g" : "n/a", v);
		v = num(e->mw_p, &ok);
		if (!ok)
			v = num(e->wilcoxon.present ? e->wilcoxon.p : NAN,
				&ok);
		kb_table_set(t, row, 6, ok ? "%.3g" : "n/a", v);
		kb_table_set(t, row, 7, "%lld/%lld",
			     (long long)e->n_baseline, (long long)e->n);
		v = num(e->cv_baseline_pct, &ok);
		w = num(e->cv_pct, &ok2);
		/* each side its own: one with n < 2 has no CV, the other
		 * does (a new user's trial: "n/a" for both at n = 3/1) */
		if (ok && ok2)
			kb_table_set(t, row, 8, "%.2f/%.2f", v, w);
		else if (ok || ok2)
			kb_table_set(t, row, 8, ok ? "%.2f/n/a" : "n/a/%.2f",
				     ok ? v : w);
		else
			kb_table_set(t, row, 8, "n/a");
		kb_table_set(t, row, 9, "%s", vd);
	}
	if (set->family_size)
		p_adj = kb_xasprintf("that test's p after Benjamini-Hochberg "
			"over the %lld comparison(s) with a p (false discovery "
			"rate %g)", (long long)set->family_size,
			num(set->alpha, &ok));
	else
		p_adj = kb_xstrdup("none: no comparison had a p to adjust");
	/* the legend under the first table (it is the same for every
	 * table); the "?" mark where a row has it first */
	if (!said->legend)
		kb_table_add_note(t, "base, new: arithmetic means of the "
			"timed runs; change: vs base as the analysis below "
			"estimates it (not the ratio of those means), "
			"\"* -0.42%%*\" significant, "
			"\"(+0.03%%)\" not%s%s; p adj: %s; rank p: Wilcoxon "
			"signed-rank (paired) or Mann-Whitney U (unpaired), "
			"two-sided, not used for the verdict; n and CV%%: "
			"base/new; n/a: no value (too few runs%s)",
			nunsure ? ", \"(-8.40%)?\" " : "",
			nunsure ? unsure_text : "", p_adj, nunsure ? ", or an "
			"inconclusive comparison's CI" : "");
	else if (nunsure && !said->unsure)
		kb_table_add_note(t, "change \"(-8.40%%)?\": %s; its CI is n/a",
				  unsure_text);
	said->legend = 1;
	said->unsure |= nunsure > 0;
	free(p_adj);
	{
		/* the analyses of this table, each once */
		char *seen = NULL, *tmp;

		for (i = 0; i < a->ncomparisons; i++) {
			const char *an;
			char *key;

			e = &a->comparisons[i];
			an = e->analysis;
			if (!cmp_matches(e, pr, job) || !an)
				continue;
			key = kb_xasprintf("|%s|", an);
			if (!seen || !strstr(seen, key)) {
				kb_table_add_note(t, "analysis: %s (%s)",
					kb_analysis_text(an),
					e->analysis_reason ?: "");
				tmp = kb_xasprintf("%s%s", seen ? seen : "",
						   key);
				free(seen);
				seen = tmp;
			}
			free(key);
		}
		free(seen);
	}
	for (i = 0; i < a->ncomparisons; i++) {
		const struct kb_drift_row *d;
		const char *mn;

		e = &a->comparisons[i];
		if (!cmp_matches(e, pr, job))
			continue;
		d = &e->drift_baseline;
		mn = e->metric;
		mt = kb_mde_text(e);
		if (mt)
			kb_table_add_note(t, "%s: %s; minimum effect %g%%, "
				"max_mde %g%%", mn, mt,
				num(e->min_effect_pct, &ok2),
				num(e->max_mde_pct, &ok2));
		free(mt);
		if (e->bimodal) {
			const char *side[] = { e->bimodal_baseline,
					       e->bimodal_configuration };
			size_t k;

			for (k = 0; k < 2; k++)
				if (side[k])
					kb_table_add_note(t, "warning: %s%s",
						side[k],
						set->outliers_excluded ?
						" (a mode is not outliers: "
						"--exclude-outliers keeps "
						"both)" : "");
		}
		if (set->outliers_excluded) {
			excluded_note(t, m, "base", pr->baseline, job, mn);
			excluded_note(t, m, "new", pr->configuration, job, mn);
		}
		if (!strcmp(verdict_word(e), "no significant difference") &&
		    isfinite(e->p_adjusted) && e->p_adjusted < set->alpha)
			kb_table_add_note(t, "%s: no significant difference: "
				"p adj %.3g < alpha %g, but the change is "
				"smaller than the minimum effect (%s)", mn,
				e->p_adjusted, num(set->alpha, &ok2),
				e->reason ?: "");
		if (e->outliers_baseline.n || e->outliers.n)
			kb_table_add_note(t, "%s: outliers (MAD modified z > "
				"3.5, over 1%% from the median): %zu in base, %zu in new%s", mn,
				e->outliers_baseline.n, e->outliers.n,
				set->outliers_excluded ?
				" (excluded)" : " (kept; --exclude-outliers)");
		if (e->warmup_suspect_baseline || e->warmup_suspect)
			kb_table_add_note(t, "warning: %s: the first timed "
				"run(s) are outliers (base %lld, new %lld): "
				"warm-up too short; raise warmup", mn,
				(long long)e->warmup_suspect_baseline,
				(long long)e->warmup_suspect);
		if (d->present && d->warn)
			kb_table_add_note(t, "warning: %s: base drifts %+.2f%% "
				"over its run order (slope p = %.2g)", mn,
				num(d->change_pct, &ok), num(d->p, &ok2));
		if (!kb_verdict_significant(verdict_word(e)) && strcmp(verdict_word(e),
				"no significant difference")) {
			/* accepted already: the advice to accept it is
			 * not repeated */
			const char *r = e->reason ?: "", *cut = NULL;
			static const char adv[] =
				", or accept it (--accept-underpowered)";

			if (accept_under &&
			    !strcmp(verdict_word(e), "underpowered"))
				cut = strstr(r, adv);
			if (cut)
				kb_table_add_note(t, "%s: %s: %.*s; accepted "
					"(--accept-underpowered)", mn,
					verdict_word(e), (int)(cut - r), r);
			else
				kb_table_add_note(t, "%s: %s: %s", mn,
					verdict_word(e), r);
		}
	}
	{	/* disturbed runs (stats/disturbed.h) on each side */
		const char *cfgs[2] = { pr->baseline, pr->configuration };
		size_t dist[2], tot[2];

		stats_disturbed_counts_in(m, cfgs, 2, job, dist, tot);
		if (dist[0] || dist[1])
			kb_table_add_note(t, "disturbed runs (another load, "
				"steal, CPU pressure or lost idle): %zu of %zu "
				"in base, %zu of %zu in new (%s)", dist[0],
				tot[0], dist[1], tot[1],
				m->campaign.exclude_disturbed ? "excluded" :
				"kept; --exclude-disturbed");
	}
	fputc('\n', out);
	kb_table_write_text(out, t, REPORT_TEXT_WIDTH);
	kb_table_free(t);
}

const struct option kb_compare_options[] = {
	{ "metric", required_argument, NULL, 'm' },
	{ "alpha", required_argument, NULL, 'A' },
	{ "min-effect", required_argument, NULL, 'E' },
	{ "max-mde", required_argument, NULL, 'M' },
	{ "accept-underpowered", no_argument, NULL, 'U' },
	{ "map", required_argument, NULL, 'P' },
	{ "exclude-outliers", no_argument, NULL, 'X' },
	{ "exclude-disturbed", no_argument, NULL, 'D' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_compare_shortopts[] = "m:f:h";
const struct kb_arg_spec kb_compare_args[] = {
	{ "metric", KB_ARG_METRIC, NULL },
	{ "alpha", KB_ARG_NONE, NULL },
	{ "min-effect", KB_ARG_NONE, NULL },
	{ "max-mde", KB_ARG_NONE, NULL },
	{ "map", KB_ARG_NONE, NULL },
	{ "format", KB_ARG_WORD, "text json" },
	{ NULL, KB_ARG_CAMPAIGN_CONFIG, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_compare(int argc, char **argv)
{
	struct side b = { 0 }, n = { 0 };
	struct kb_compare_opts copts;
	struct pairs pairs = { 0 };
	struct legend_said said = { 0, 0 };
	const char **metrics = NULL;
	char **keep = NULL;
	size_t nmetrics = 0, nkeep = 0, i, nreg = 0, nweak = 0;
	size_t nunder = 0, ninsufficient = 0, ninconclusive = 0;
	struct results_map map = { 0 };
	json_t *merged = NULL;
	struct kb_rmodel *rm = NULL;
	int c, ret = EXIT_ERROR, exclude_disturbed = 0, accept_under = 0;
	int json_out = 0;	/* --format json */
	const char *word;

	kb_compare_opts_init(&copts);
	optind = 1;
	while ((c = getopt_long(argc, argv, kb_compare_shortopts, kb_compare_options, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!kb_list_add_split(&metrics, &nmetrics, &keep,
					       &nkeep, optarg)) {
				kb_error("--metric '%s': an empty name (expected "
					 "NAME[,NAME...], e.g. read.iops,"
					 "read.clat_p99_ns)", optarg);
				goto out;
			}
			break;
		case 'A':
		case 'E':
		case 'M':
			if (kb_compare_parse_opt(&copts, c, optarg))
				goto out;
			break;
		case 'U':
			accept_under = 1;
			break;
		case 'P':
			if (results_map_add(&map, optarg))
				goto out;
			break;
		case 'X':
			copts.exclude_outliers = 1;
			break;
		case 'D':
			exclude_disturbed = 1;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				kb_error("--format %s: expected text or json",
					 optarg);
				goto out;
			}
			json_out = !strcmp(optarg, "json");
			break;
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		default:
			kb_bad_option("compare", kb_compare_options, argv[optind - 1]);
			goto out;
		}
	}
	if (argc - optind != 2) {
		kb_error("compare needs two arguments, BASE and NEW (campaign "
			 "directories or DIR:CONFIGURATION), %d given; see "
			 "'kbench compare --help'", argc - optind);
		goto out;
	}
	copts.metrics = metrics;
	if (side_open(&b, argv[optind], NULL) ||
	    side_open(&n, argv[optind + 1], &b))
		goto out;
	if (strcmp(b.dir, n.dir) && kb_same_file(b.dir, n.dir)) {
		/* two paths to one campaign: one name, so that its
		 * configurations are recognised as themselves */
		free(n.dir);
		n.dir = kb_xstrdup(b.dir);
	}
	if (map.n && b.config) {
		/* nothing would read it: every configuration of NEW is
		 * compared with BASE's one (a break-it trial: --map was
		 * accepted here and ignored) */
		kb_error("--map %s: BASE %s is one configuration, which every "
			 "configuration of NEW is compared with; --map pairs "
			 "configurations of two whole directories (give BASE "
			 "as %s)", map.v[0], b.arg, b.dir);
		goto out;
	}
	if (results_map_check(&map, &n.res, (const char *const *)&n.dir, 1,
			      b.res, b.dir))
		goto out;
	for (i = 0; n.config && i < map.n; i++) {
		/* NEW one configuration: a --map of another of its
		 * campaign's would pair nothing (a break-it trial: it was
		 * accepted and ignored, as with BASE DIR:CONFIGURATION) */
		size_t vl = strcspn(n.config, ",");

		if (results_map_maps(map.v[i], b.res, n.config))
			continue;
		if (n.config[vl] && !strncmp(map.v[i], n.config, vl) &&
		    map.v[i][vl] == '=') {
			/* its variant's, without OLD of its values */
			kb_error("--map %s: %s has no configuration '%s%s' to "
				 "compare NEW %s with (give --map %s=OLD to "
				 "name one)", map.v[i], b.dir, map.v[i] + vl + 1,
				 n.config + vl, n.arg, n.config);
			goto out;
		}
		kb_error("--map %s: NEW %s is one configuration, which this "
			 "--map does not map (only %s is compared; give NEW as "
			 "%s to compare each of its configurations)", map.v[i],
			 n.arg, n.config, n.dir);
		goto out;
	}
	/* each campaign's runs against its own quiet level; the marks
	 * travel with the runs into the merged model */
	{
		struct kb_rmodel *m[2];
		int bad = 0;

		for (i = 0; i < 2; i++) {
			m[i] = kb_rmodel__new(i ? n.res : b.res);
			if (m[i])	/* NULL: no runs, none disturbed */
				stats_mark_disturbed_in(m[i], NULL,
							exclude_disturbed);
		}
		/* a --metric neither campaign has: said before the
		 * warnings of the pairing (unmapped configurations) */
		for (i = 0; metrics && metrics[i] && m[0] && !bad; i++)
			if (!kb_rmodel__metric_asked_ok(m[0], metrics[i]) &&
			    !(m[1] && kb_rmodel__metric_asked_ok(m[1],
								 metrics[i])))
				bad = kb_rmodel__no_metric(m[0], metrics[i]);
		kb_rmodel__delete(m[0]);
		kb_rmodel__delete(m[1]);
		if (bad)
			goto out;
	}
	if (strcmp(b.dir, n.dir)) {	/* not one campaign with itself */
		results_env_diff_warn(b.dir, &b.camp, n.dir, &n.camp);
		results_setup_diff_warn(b.dir, &b.camp, n.dir, &n.camp);
	}
	progress_warn(&b, 1);
	if (strcmp(b.dir, n.dir))
		progress_warn(&n, 1);
	else if (b.config && (!n.config || strcmp(b.config, n.config)))
		/* one campaign, BASE one configuration of it: NEW's failed
		 * runs are its own (compare A:stock A:patched said nothing
		 * of patched's) */
		progress_warn(&n, 0);
	if (!jobs_in_common(&b.camp, &n.camp)) {
		kb_error("%s and %s ran no job in common (compare campaigns of "
			 "the same fio jobs)", b.arg, n.arg);
		goto out;
	}
	drop_unshared_jobs(&b, &n);
	drop_unshared_jobs(&n, &b);

	if (!b.config && !baseline_of(&b.camp)) {
		/* no configuration to compare with (a campaign.json whose
		 * "configurations" is empty): a NULL id went to strcmp */
		kb_error("%s has no configuration: nothing to compare with",
			 b.arg);
		goto out;
	}
	/* the merged model: BASE's statistics settings (its kernels.conf) */
	merged = results_pair_new(b.res);
	if (build_pairs(&pairs, merged, &b, &n, &map))
		goto out;
	if (!pairs.n) {
		kb_error("%s has no configuration: nothing to compare", n.arg);
		goto out;
	}
	results_pair_finish(merged, pairs.v[0].baseline, exclude_disturbed);
	/* the typed model, built once: analysed with these pairs, then
	 * everything printed below is read from it */
	rm = kb_rmodel__new(merged);
	if (!rm || stats_mark_outliers_in(rm, copts.exclude_outliers) < 0)
		goto out;
	/* the runs' "outliers" / "excluded_outliers" as marked (as
	 * stats_analyse does): the --exclude-outliers note reads them */
	kb_rmodel__reread_runs(rm);
	if (stats_fill_summaries_in(rm) ||
	    stats_fill_comparisons_in(rm, &copts, pairs.v, pairs.n))
		goto out;
	if (!rm->analysis.ncomparisons) {
		/* the campaigns are readable but hold nothing measured in
		 * common (every run failed, say): the data cannot decide,
		 * so `git bisect run` skips rather than calls it bad */
		const char *all = NULL;
		size_t nd, nt;

		stats_disturbed_counts_in(rm, &all, 1, NULL, &nd, &nt);
		kb_error("%s and %s have no job and metric in common with "
			 "successful timed runs: nothing to compare (exit "
			 "125)%s", b.arg, n.arg, exclude_disturbed && nd ?
			 "; --exclude-disturbed left out their disturbed runs" :
			 "");
		ret = EXIT_UNDECIDABLE;
		goto out;
	}

	self_reasons(&rm->analysis);
	if (json_out)
		goto verdict;
	printf("kbench compare: %s (base) vs %s\n", b.arg, n.arg);
	if (pairs.nself)
		printf("this compares the campaign %s with itself: each "
		       "configuration against a\n    copy of its own runs, "
		       "so every change is 0.00%%\n", b.dir);
	else if (!b.config && !n.config && !strcmp(b.dir, n.dir))
		/* --map of compare A A: still one campaign with itself */
		printf("this compares the campaign %s with itself: the "
		       "configurations --map\n    pairs with others of it, as "
		       "two configurations of one campaign\n", b.dir);
	for (i = 0; i < pairs.n; i++) {
		size_t k;

		for (k = 0; k < rm->campaign.jobs.n; k++)
			if (rm->campaign.jobs.v[k])
				print_pair(stdout, rm, &pairs.v[i],
					   rm->campaign.jobs.v[k], accept_under,
					   &said);
	}
verdict:
	for (i = 0; i < rm->analysis.ncomparisons; i++) {
		const struct kb_comparison_row *e = &rm->analysis.comparisons[i];
		const char *v = verdict_word(e);
		int okm, oke;
		double mde = num(e->mde_pct, &okm);
		double me = num(e->min_effect_pct, &oke);

		/* "no difference" from a campaign that could not have seen
		 * one: say so, since bisect takes exit 0 as "good" */
		if (!strcmp(v, "no significant difference") && okm && oke &&
		    mde > me)
			nweak++;
		if (!strcmp(v, "underpowered"))
			nunder++;
		else if (!strcmp(v, "regression"))
			nreg++;
		else if (!strcmp(v, "insufficient samples"))
			ninsufficient++;
		else if (!strcmp(v, "inconclusive"))
			ninconclusive++;
	}
	if (nreg) {
		word = "regression";
		ret = EXIT_REGRESSION;
	} else if (ninsufficient || ninconclusive ||
		   (nunder && !accept_under)) {
		word = "undecidable";
		ret = EXIT_UNDECIDABLE;
	} else {
		word = "no regression";
		ret = EXIT_NO_REGRESSION;
	}
	if (json_out) {
		/* the comparisons as results.json holds them
		 * (docs/results-format.md), and the verdict */
		json_t *doc = json_pack("{s:s, s:s, s:s, s:{s:s, s:i, s:I, "
			"s:I, s:I, s:I, s:b, s:I}}", "kbench_version",
			KBENCH_VERSION, "base", b.arg, "new", n.arg, "verdict",
			"verdict", word, "exit", ret, "regressions",
			(json_int_t)nreg, "underpowered", (json_int_t)nunder,
			"insufficient_samples", (json_int_t)ninsufficient,
			"inconclusive", (json_int_t)ninconclusive,
			"underpowered_accepted", accept_under && nunder,
			"no_difference_below_mde", (json_int_t)nweak);

		kb_analysis__comparisons_to_json(&rm->analysis, doc);
		if (results_dumpf(stdout, doc))
			ret = EXIT_ERROR;
		json_decref(doc);
		goto out;
	}
	/* the text of the verdict decided above */
	if (nreg) {
		printf("\nverdict: %zu regression(s) (exit 1)\n", nreg);
	} else if (ninsufficient || ninconclusive) {
		/* every undecided kind counted, the underpowered ones
		 * too: more rounds for the n < 2 could still leave those
		 * (a break-it trial: they went unsaid here) */
		printf("\nverdict: undecidable:\n    ");
		if (ninsufficient)
			printf("%zu comparison(s) with insufficient "
			       "samples (n < 2 on a side)%s", ninsufficient,
			       ninconclusive || nunder ? ",\n    " : "");
		if (ninconclusive)
			printf("%zu inconclusive (drift or two performance "
			       "modes: see their notes)%s", ninconclusive,
			       nunder ? ",\n    " : "");
		if (nunder)
			printf("%zu underpowered (minimum detectable effect "
			       "above max_mde%s)", nunder, accept_under ?
			       "; accepted" : "");
		printf(";\n    no regression (exit 125)\n");
	} else if (nunder && !accept_under) {
		printf("\nverdict: undecidable: %zu comparison(s) underpowered "
		       "(minimum detectable\n    effect above max_mde), no "
		       "regression (exit 125; --accept-underpowered\n    "
		       "takes it as no regression)\n", nunder);
	} else if (nunder) {
		printf("\nverdict: no regression, %zu comparison(s) "
		       "underpowered and accepted (exit 0)\n", nunder);
	} else {
		printf("\nverdict: no regression (exit 0)\n");
	}
	if (nweak)
		printf("warning: %zu comparison(s) found no difference but "
		       "could only have\n    detected a change larger than "
		       "their minimum effect (minimum detectable\n    effect "
		       "above): add iterations before trusting \"no "
		       "regression\"\n", nweak);
	if (fflush(stdout)) {
		kb_error("writing to standard output failed");
		ret = EXIT_ERROR;
	}
out:
	kb_rmodel__delete(rm);
	json_decref(merged);
	side_close(&b);
	side_close(&n);
	for (i = 0; i < pairs.nlabels; i++)
		free(pairs.labels[i]);
	free(pairs.labels);
	free(pairs.v);
	for (i = 0; i < nkeep; i++)
		free(keep[i]);
	free(keep);
	free(metrics);
	kb_compare_opts_free(&copts);
	results_map_free(&map);
	return ret;
}
