/* builtin/compare.c - `kbench compare BASE NEW`: a verdict per job and
 * metric, and an exit status `git bisect run` understands (0 good, 1
 * bad, 125 skip).  The statistics are those of stats/compare.h. */
#include "builtin/builtin.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"
#include "reports/table.h"
#include "results/analysis.h"
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
"                      [--exclude-disturbed] BASE NEW\n"
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
"DIR:CONFIGURATION: every configuration of NEW against it.  The same\n"
"directory twice (kbench compare A A, or two paths to it) compares each\n"
"configuration with itself as two campaigns would be, and says so:\n"
"every change 0.00%%.  When the two\n"
"campaigns' environments differ where it matters (CPU governor, model,\n"
"memory, fio version, kernel command line, turbo/boost/EPP/SMT when\n"
"recorded) a warning lists the differences.\n"
"\n"
"Two configurations of one campaign run with order = interleave or\n"
"random are compared round by round (paired t-test on the per-round log\n"
"ratios ln(NEW/BASE), matched by iteration; Wilcoxon signed-rank beside\n"
"it); configurations of different campaigns, or of an order = block\n"
"campaign, unpaired (Welch's t-test on ln values; Mann-Whitney U beside\n"
"it).  The change is the ratio of geometric means - 1 with its 95%% CI.\n"
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
"                      (repeat for several)\n"
"      --exclude-outliers  leave outlier runs out of the tests (they are\n"
"                      listed either way)\n"
"      --exclude-disturbed  leave disturbed runs (stats/disturbed.h: other\n"
"                      tasks, steal, CPU pressure, lost idle) out of the\n"
"                      tests; they are listed either way\n"
"  -h, --help          this text\n"
"\n"
"exit status: 0 no metric regressed, 1 at least one regressed, 2 error,\n"
"125 the data cannot decide (too few runs, drift, two modes, an\n"
"underpowered \"no difference\" without --accept-underpowered, or nothing\n"
"measured in common) and nothing regressed: `git bisect run` skips that\n"
"commit.\n");
}

/* 1 when the two models' campaigns list a job in common */
static int jobs_in_common(json_t *a, json_t *b)
{
	json_t *ja = json_object_get(json_object_get(a, "campaign"), "jobs");
	json_t *jb = json_object_get(json_object_get(b, "campaign"), "jobs");
	json_t *x, *y;
	size_t i, k;

	json_array_foreach(ja, i, x)
		json_array_foreach(jb, k, y)
			if (json_equal(x, y))
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
	json_t *res;
};

static int config_exists(json_t *res, const char *id)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(res, "configurations"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "id")) ?: "",
			    id))
			return 1;
	return 0;
}

static void list_configs(json_t *res)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(res, "configurations"), i, e)
		fprintf(stderr, "  %s\n",
			json_string_value(json_object_get(e, "id")) ?: "?");
}

static int side_open(struct side *s, const char *arg)
{
	const char *colon;

	s->arg = arg;
	if (is_dir(arg)) {
		s->dir = kb_xstrdup(arg);
	} else {
		colon = strrchr(arg, ':');
		if (!colon || colon == arg || !colon[1]) {
			kb_error("%s: not a campaign directory (give DIR or "
				 "DIR:CONFIGURATION)", arg);
			return -ENOENT;
		}
		s->dir = kb_xasprintf("%.*s", (int)(colon - arg), arg);
		s->config = kb_xstrdup(colon + 1);
		if (!is_dir(s->dir)) {
			kb_error("%s: no campaign directory %s", arg, s->dir);
			return -ENOENT;
		}
	}
	s->res = results_load_dir(s->dir, 0);
	if (!s->res)
		return -EINVAL;	/* the message names the directory */
	if (results_is_shard(s->res)) {
		/* one shard alone: refused, naming the shards missing */
		const char *name = s->dir;
		size_t one = 1;

		if (results_combine_shards(&s->res, &name, &one))
			return -EINVAL;
	}
	if (s->config && !config_exists(s->res, s->config)) {
		kb_error("%s: %s has no configuration '%s'; it has:", arg,
			 s->dir, s->config);
		list_configs(s->res);
		return -EINVAL;
	}
	return 0;
}

static const char *baseline_of(json_t *res)
{
	const char *b = json_string_value(json_object_get(json_object_get(res,
				"campaign"), "baseline"));

	if (b && config_exists(res, b))
		return b;
	return json_string_value(json_object_get(json_array_get(
		json_object_get(res, "configurations"), 0), "id"));
}

static void side_close(struct side *s)
{
	free(s->dir);
	free(s->config);
	json_decref(s->res);
}

/* Copy the runs of configuration id from s into the merged model under
 * the name label; "order" keeps their place in s's run order. */
static void add_runs(json_t *merged, const struct side *s, const char *id,
		     const char *label, const char *campaign)
{
	json_t *runs = json_object_get(merged, "runs"), *run, *copy, *j;
	json_t *jobs = json_object_get(json_object_get(merged, "campaign"),
				       "jobs");
	const char *c, *job;
	size_t i, k;
	int have;

	json_array_foreach(json_object_get(s->res, "runs"), i, run) {
		c = json_string_value(json_object_get(run, "configuration"));
		if (!c || strcmp(c, id))
			continue;
		copy = json_deep_copy(run);
		json_object_set_new(copy, "configuration", json_string(label));
		/* rounds pair only within one campaign (stats/compare.h) */
		json_object_set_new(copy, "campaign", json_string(campaign));
		json_object_set_new(copy, "order", json_integer((json_int_t)i));
		json_array_append_new(runs, copy);
		job = json_string_value(json_object_get(run, "job"));
		have = 0;
		json_array_foreach(jobs, k, j)
			have |= job && !strcmp(json_string_value(j), job);
		if (job && !have)
			json_array_append_new(jobs, json_string(job));
	}
}

struct pairs {
	struct kb_compare_pair *v;
	char **labels;		/* owned */
	size_t n, nlabels;
	size_t nself;		/* pairs of a configuration with itself */
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
	add_runs(merged, s, id, l, camp);
	free(camp);
	json_array_append_new(json_object_get(merged, "configurations"),
			      json_pack("{s:s}", "id", l));
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

static void build_pairs(struct pairs *p, json_t *merged, struct side *b,
			struct side *n, const struct results_map *map)
{
	json_t *nc = json_object_get(n->res, "configurations"), *e;
	const char *bid = b->config ? b->config : baseline_of(b->res), *id;
	const char *old;
	size_t i;

	if (n->config) {
		/* a whole BASE is its baseline here, unless --map says */
		old = b->config ? NULL : results_match_config(NULL,
							      n->config, map);
		add_pair(p, merged, b, old ? old : bid, n, n->config);
		return;
	}
	json_array_foreach(nc, i, e) {
		id = json_string_value(json_object_get(e, "id"));
		if (!id)
			continue;
		if (b->config) {
			add_pair(p, merged, b, bid, n, id);
			continue;
		}
		/* one rule with kbench report A B (results_merge) */
		old = results_match_config(b->res, id, map);
		if (!old)
			kb_warn("%s has no configuration '%s' (give --map "
				"%s=OLD to name the one to compare with): "
				"compared with its baseline %s", b->dir, id,
				id, bid);
		add_pair(p, merged, b, old ? old : bid, n, id);
	}
}

/* 1 when directories a and b are one (the same device and inode:
 * "A", "A/", "./A" or a link to it). */
static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* kbench compare A A: the comparisons of a configuration with its own
 * copy ("(again)", add_pair()) are unpaired because the copy is taken as
 * another campaign; their reason says so, not "different campaigns". */
static void self_reasons(json_t *merged)
{
	json_t *e;
	size_t i, l;
	const char *c;

	json_array_foreach(json_object_get(merged, "comparisons"), i, e) {
		c = json_string_value(json_object_get(e, "configuration"));
		l = c ? strlen(c) : 0;
		if (l > 8 && !strcmp(c + l - 8, " (again)"))
			json_object_set_new(e, "analysis_reason", json_string(
				"a campaign compared with itself: each "
				"configuration against a copy of its runs "
				"taken as another campaign, so unpaired, "
				"every change 0.00%, and the minimum "
				"detectable effect that of two such "
				"campaigns"));
	}
}

/* The environment members that change results (campaign.json
 * "environment", runner/campaign.c) where the two campaigns differ:
 * a warning listing them.  The kernel command line without BOOT_IMAGE=
 * and initrd= (they name the kernel being compared). */
static char *cmdline_norm(const char *c)
{
	char *copy = kb_xstrdup(c ?: ""), *tok, *save = NULL, *out, *tmp;

	out = kb_xstrdup("");
	for (tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(tok, "BOOT_IMAGE=", 11) ||
		    !strncmp(tok, "initrd=", 7))
			continue;
		tmp = kb_xasprintf("%s%s%s", out, *out ? " " : "", tok);
		free(out);
		out = tmp;
	}
	free(copy);
	return out;
}

static void env_warn(const struct side *b, const struct side *n)
{
	/* the first `always` keys always (one campaign without it is a
	 * difference), the rest when both recorded a value */
	static const char *const keys[] = { "governor", "cpu_model",
		"memory_total", "fio_version", "cmdline", "cpus",
		"governor_all_cpus", "turbo", "no_turbo", "boost", "epp",
		"smt" };
	const size_t always = 6;
	json_t *eb = json_object_get(json_object_get(b->res, "campaign"),
				     "environment");
	json_t *en = json_object_get(json_object_get(n->res, "campaign"),
				     "environment");
	json_t *x, *y;
	size_t i, ndiff = 0;
	char *sx, *sy;

	if (!json_is_object(eb) || !json_is_object(en) ||
	    !strcmp(b->dir, n->dir))
		return;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		x = json_object_get(eb, keys[i]);
		y = json_object_get(en, keys[i]);
		if (!x && !y)
			continue;	/* recorded by neither */
		if (i >= always && (!x || !y || json_is_null(x) ||
				    json_is_null(y)))
			continue;	/* not recorded by both */
		if (!strcmp(keys[i], "cmdline")) {
			char *cx = cmdline_norm(json_string_value(x));
			char *cy = cmdline_norm(json_string_value(y));
			int same = !strcmp(cx, cy);

			free(cx);
			free(cy);
			if (same)
				continue;
		} else if (x && y && json_equal(x, y)) {
			continue;
		}
		if (!ndiff++)
			kb_warn("the campaigns ran in different environments "
				"(a difference may come from them, not from "
				"what is compared):");
		sx = x ? json_dumps(x, JSON_ENCODE_ANY) : NULL;
		sy = y ? json_dumps(y, JSON_ENCODE_ANY) : NULL;
		fprintf(stderr, "  %s: %s in %s, %s in %s\n", keys[i],
			sx ? sx : "not recorded", b->dir,
			sy ? sy : "not recorded", n->dir);
		free(sx);
		free(sy);
	}
}

static const char *verdict_word(json_t *e)
{
	return json_string_value(json_object_get(e, "verdict")) ?: "?";
}

static double num(json_t *e, const char *key, int *ok)
{
	json_t *v = json_object_get(e, key);

	*ok = json_is_number(v);
	return *ok ? json_number_value(v) : NAN;
}

static int is_sig(const char *v)
{
	return !strcmp(v, "improvement") || !strcmp(v, "regression") ||
	       !strcmp(v, "significant difference");
}

static int cmp_matches(json_t *e, const struct kb_compare_pair *pr,
		       const char *job)
{
	return !strcmp(json_string_value(json_object_get(e, "baseline")),
		       pr->baseline) &&
	       !strcmp(json_string_value(json_object_get(e, "configuration")),
		       pr->configuration) &&
	       !strcmp(json_string_value(json_object_get(e, "job")), job);
}

/* One table per pair and job; nothing when they have no comparison. */
static void print_pair(FILE *out, json_t *merged,
		       const struct kb_compare_pair *pr, const char *job)
{
	json_t *e, *set = json_object_get(merged, "comparison_settings");
	struct kb_table *t;
	char *title;
	size_t i, row;
	int ok, ok2;
	double v, w;
	struct kb_comparison_row crow;
	char *mt;

	json_array_foreach(json_object_get(merged, "comparisons"), i, e)
		if (cmp_matches(e, pr, job))
			break;
	if (i == json_array_size(json_object_get(merged, "comparisons")))
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
	json_array_foreach(json_object_get(merged, "comparisons"), i, e) {
		const char *vd = verdict_word(e);

		if (!cmp_matches(e, pr, job))
			continue;
		row = kb_table_add_row(t, 0);
		kb_table_set(t, row, 0, "%s", json_string_value(
			json_object_get(e, "metric")));
		v = num(e, "mean_baseline", &ok);
		kb_table_set(t, row, 1, ok ? "%.2f" : "n/a", v);
		v = num(e, "mean", &ok);
		kb_table_set(t, row, 2, ok ? "%.2f" : "n/a", v);
		v = num(e, "change_pct", &ok);
		if (ok && is_sig(vd))
			kb_table_set(t, row, 3, "* %+.2f%%*", v);
		else if (ok)
			kb_table_set(t, row, 3, "(%+.2f%%)", v);
		else
			kb_table_set(t, row, 3, "n/a");
		v = num(e, "change_ci95_lo_pct", &ok);
		w = num(e, "change_ci95_hi_pct", &ok2);
		if (ok && ok2)
			kb_table_set(t, row, 4, "[%+.2f%%, %+.2f%%]", v, w);
		else
			kb_table_set(t, row, 4, "n/a");
		v = num(e, "p_adjusted", &ok);
		kb_table_set(t, row, 5, ok ? "%.3g" : "n/a", v);
		v = num(e, "mw_p", &ok);
		if (!ok)
			v = num(json_object_get(e, "wilcoxon"), "p", &ok);
		kb_table_set(t, row, 6, ok ? "%.3g" : "n/a", v);
		kb_table_set(t, row, 7, "%lld/%lld",
			     (long long)json_integer_value(json_object_get(e,
				"n_baseline")),
			     (long long)json_integer_value(json_object_get(e,
				"n")));
		v = num(e, "cv_baseline_pct", &ok);
		w = num(e, "cv_pct", &ok2);
		if (ok && ok2)
			kb_table_set(t, row, 8, "%.2f/%.2f", v, w);
		else
			kb_table_set(t, row, 8, "n/a");
		kb_table_set(t, row, 9, "%s", vd);
	}
	kb_table_add_note(t, "change: vs base as the analysis below "
		"estimates it, \"* -0.42%%*\" significant, \"(+0.03%%)\" "
		"not; p adj: that test's p after Benjamini-Hochberg over the "
		"%lld comparisons made (false discovery rate %g); rank p: "
		"Wilcoxon signed-rank (paired) or Mann-Whitney U (unpaired), "
		"two-sided, not used for the verdict; n and CV%%: base/new",
		(long long)json_integer_value(json_object_get(set,
			"family_size")), num(set, "alpha", &ok));
	{
		/* the analyses of this table, each once */
		char *seen = NULL, *tmp;

		json_array_foreach(json_object_get(merged, "comparisons"), i,
				   e) {
			const char *a = json_string_value(json_object_get(e,
								"analysis"));
			char *key;

			if (!cmp_matches(e, pr, job) || !a)
				continue;
			key = kb_xasprintf("|%s|", a);
			if (!seen || !strstr(seen, key)) {
				kb_table_add_note(t, "analysis: %s (%s)",
					kb_analysis_text(a), json_string_value(
					json_object_get(e, "analysis_reason")) ?:
					"");
				tmp = kb_xasprintf("%s%s", seen ? seen : "",
						   key);
				free(seen);
				seen = tmp;
			}
			free(key);
		}
		free(seen);
	}
	json_array_foreach(json_object_get(merged, "comparisons"), i, e) {
		json_t *d = json_object_get(e, "drift_baseline");
		const char *m = json_string_value(json_object_get(e, "metric"));

		if (!cmp_matches(e, pr, job))
			continue;
		kb_comparison_row__from_json(e, &crow);
		mt = kb_mde_text(&crow);
		if (mt)
			kb_table_add_note(t, "%s: %s; minimum effect %g%%, "
				"max_mde %g%%", m, mt,
				num(e, "min_effect_pct", &ok2),
				num(e, "max_mde_pct", &ok2));
		free(mt);
		kb_comparison_row__clear(&crow);
		{
			json_t *bm = json_object_get(e, "bimodal");
			const char *side[] = { "baseline", "configuration" };
			size_t k;

			for (k = 0; k < 2; k++)
				if (json_is_string(json_object_get(bm, side[k])))
					kb_table_add_note(t, "warning: %s%s",
						json_string_value(
						json_object_get(bm, side[k])),
						json_is_true(json_object_get(set,
						"outliers_excluded")) ? " (a mode "
						"is not outliers: "
						"--exclude-outliers keeps both)" :
						"");
		}
		if (json_array_size(json_object_get(e, "outliers_baseline")) ||
		    json_array_size(json_object_get(e, "outliers")))
			kb_table_add_note(t, "%s: outliers (MAD modified z > "
				"3.5): %zu in base, %zu in new%s", m,
				json_array_size(json_object_get(e,
					"outliers_baseline")),
				json_array_size(json_object_get(e, "outliers")),
				json_is_true(json_object_get(set,
					"outliers_excluded")) ?
				" (excluded)" : " (kept; --exclude-outliers)");
		if (json_integer_value(json_object_get(e,
				"warmup_suspect_baseline")) ||
		    json_integer_value(json_object_get(e, "warmup_suspect")))
			kb_table_add_note(t, "warning: %s: the first timed "
				"run(s) are outliers (base %lld, new %lld): "
				"warm-up too short; raise warmup", m,
				(long long)json_integer_value(json_object_get(e,
					"warmup_suspect_baseline")),
				(long long)json_integer_value(json_object_get(e,
					"warmup_suspect")));
		if (json_is_true(json_object_get(d, "warn")))
			kb_table_add_note(t, "warning: %s: base drifts %+.2f%% "
				"over its run order (slope p = %.2g)", m,
				num(d, "change_pct", &ok), num(d, "p", &ok2));
		if (!is_sig(verdict_word(e)) && strcmp(verdict_word(e),
				"no significant difference"))
			kb_table_add_note(t, "%s: %s: %s", m, verdict_word(e),
				json_string_value(json_object_get(e,
					"reason")) ?: "");
	}
	{	/* disturbed runs (stats/disturbed.h) on each side */
		size_t bd, bn, nd, nn;

		stats_disturbed_count(merged, pr->baseline, job, &bd, &bn);
		stats_disturbed_count(merged, pr->configuration, job, &nd, &nn);
		if (bd || nd)
			kb_table_add_note(t, "disturbed runs (another load, "
				"steal, CPU pressure or lost idle): %zu of %zu "
				"in base, %zu of %zu in new (%s)", bd, bn, nd,
				nn, json_is_true(json_object_get(json_object_get(
				merged, "analysis_options"),
				"exclude_disturbed")) ? "excluded" :
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
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_compare_shortopts[] = "m:h";
const struct kb_arg_spec kb_compare_args[] = {
	{ "metric", KB_ARG_METRIC, NULL },
	{ "alpha", KB_ARG_NONE, NULL },
	{ "min-effect", KB_ARG_NONE, NULL },
	{ "max-mde", KB_ARG_NONE, NULL },
	{ "map", KB_ARG_NONE, NULL },
	{ NULL, KB_ARG_CAMPAIGN_CONFIG, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_compare(int argc, char **argv)
{
	struct side b = { 0 }, n = { 0 };
	struct kb_compare_opts copts;
	struct pairs pairs = { 0 };
	const char **metrics = NULL;
	char **keep = NULL, *copy, *tok, *save;
	size_t nmetrics = 0, nkeep = 0, i, nreg = 0, nundecided = 0, nweak = 0;
	size_t nunder = 0;
	struct results_map map = { 0 };
	json_t *merged = NULL, *e;
	int c, ret = EXIT_ERROR, exclude_disturbed = 0, accept_under = 0;

	kb_compare_opts_init(&copts);
	optind = 1;
	while ((c = getopt_long(argc, argv, kb_compare_shortopts, kb_compare_options, NULL)) != -1) {
		switch (c) {
		case 'm':
			copy = kb_xstrdup(optarg);
			keep = kb_xrealloc(keep, (nkeep + 1) * sizeof(*keep));
			keep[nkeep++] = copy;
			save = NULL;
			for (tok = strtok_r(copy, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				metrics = kb_xrealloc(metrics, (nmetrics + 2) *
						      sizeof(*metrics));
				metrics[nmetrics++] = tok;
				metrics[nmetrics] = NULL;
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
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		default:
			fprintf(stderr, "see 'kbench compare --help'\n");
			goto out;
		}
	}
	if (argc - optind != 2) {
		kb_error("compare needs two arguments, BASE and NEW (campaign "
			 "directories or DIR:CONFIGURATION); see 'kbench "
			 "compare --help'");
		goto out;
	}
	copts.metrics = metrics;
	if (side_open(&b, argv[optind]) || side_open(&n, argv[optind + 1]))
		goto out;
	if (strcmp(b.dir, n.dir) && same_dir(b.dir, n.dir)) {
		/* two paths to one campaign: one name, so that its
		 * configurations are recognised as themselves */
		free(n.dir);
		n.dir = kb_xstrdup(b.dir);
	}
	if (results_map_check(&map, &n.res, (const char *const *)&n.dir, 1,
			      b.res, b.dir))
		goto out;
	env_warn(&b, &n);
	/* each campaign's runs against its own quiet level; the marks
	 * travel with the runs into the merged model */
	stats_mark_disturbed(b.res, NULL, exclude_disturbed);
	stats_mark_disturbed(n.res, NULL, exclude_disturbed);
	if (!jobs_in_common(b.res, n.res)) {
		kb_error("%s and %s ran no job in common (compare campaigns of "
			 "the same fio jobs)", b.arg, n.arg);
		goto out;
	}

	/* the merged model: BASE's statistics settings (its kernels.conf) */
	merged = json_pack("{s:i, s:O, s:[], s:[], s:[]}", "schema_version",
			   KB_SCHEMA_VERSION,
			   "campaign", json_object_get(b.res, "campaign"),
			   "configurations", "runs", "summaries");
	json_object_set_new(json_object_get(merged, "campaign"), "jobs",
			    json_array());
	build_pairs(&pairs, merged, &b, &n, &map);
	if (!pairs.n) {
		kb_error("%s has no configuration: nothing to compare", n.arg);
		goto out;
	}
	json_object_set_new(json_object_get(merged, "campaign"), "baseline",
			    json_string(pairs.v[0].baseline));
	json_object_set_new(merged, "analysis_options", json_pack("{s:b}",
			    "exclude_disturbed", exclude_disturbed));
	{
		/* the typed model built once for the three (stats_analyse
		 * with these pairs) */
		struct kb_rmodel *rm = kb_rmodel__new(merged);
		int bad = !rm ||
			stats_mark_outliers_in(rm, copts.exclude_outliers) < 0 ||
			stats_fill_summaries_in(rm) ||
			stats_fill_comparisons_in(rm, &copts, pairs.v, pairs.n);

		kb_rmodel__delete(rm);
		if (bad)
			goto out;
	}
	if (!json_array_size(json_object_get(merged, "comparisons"))) {
		/* the campaigns are readable but hold nothing measured in
		 * common (every run failed, say): the data cannot decide,
		 * so `git bisect run` skips rather than calls it bad */
		size_t nd, nt;

		stats_disturbed_count(merged, NULL, NULL, &nd, &nt);
		kb_error("%s and %s have no job and metric in common with "
			 "successful timed runs: nothing to compare (exit "
			 "125)%s", b.arg, n.arg, exclude_disturbed && nd ?
			 "; --exclude-disturbed left out their disturbed runs" :
			 "");
		ret = EXIT_UNDECIDABLE;
		goto out;
	}

	self_reasons(merged);
	printf("kbench compare: %s (base) vs %s\n", b.arg, n.arg);
	if (pairs.nself)
		printf("%s compares the campaign %s with itself: each "
		       "configuration against a\n    copy of its own runs, "
		       "so every change is 0.00%%\n", pairs.nself == pairs.n ?
		       "this" : "part of this", b.dir);
	for (i = 0; i < pairs.n; i++) {
		size_t k;

		json_array_foreach(json_object_get(json_object_get(merged,
				   "campaign"), "jobs"), k, e)
			print_pair(stdout, merged, &pairs.v[i],
				   json_string_value(e));
	}
	json_array_foreach(json_object_get(merged, "comparisons"), i, e) {
		const char *v = verdict_word(e);
		int okm, oke;
		double mde = num(e, "mde_pct", &okm);
		double me = num(e, "min_effect_pct", &oke);

		/* "no difference" from a campaign that could not have seen
		 * one: say so, since bisect takes exit 0 as "good" */
		if (!strcmp(v, "no significant difference") && okm && oke &&
		    mde > me)
			nweak++;
		if (!strcmp(v, "underpowered"))
			nunder++;
		else if (!strcmp(v, "regression"))
			nreg++;
		else if (!strcmp(v, "insufficient samples") ||
			 !strcmp(v, "inconclusive"))
			nundecided++;
	}
	if (nreg) {
		printf("\nverdict: %zu regression(s) (exit 1)\n", nreg);
		ret = EXIT_REGRESSION;
	} else if (nundecided) {
		printf("\nverdict: undecidable: %zu comparison(s) without "
		       "enough data, with drift\n    or with two performance "
		       "modes, no regression (exit 125)\n", nundecided);
		ret = EXIT_UNDECIDABLE;
	} else if (nunder && !accept_under) {
		printf("\nverdict: undecidable: %zu comparison(s) underpowered "
		       "(minimum detectable\n    effect above max_mde), no "
		       "regression (exit 125; --accept-underpowered\n    "
		       "takes it as no regression)\n", nunder);
		ret = EXIT_UNDECIDABLE;
	} else if (nunder) {
		printf("\nverdict: no regression, %zu comparison(s) "
		       "underpowered and accepted (exit 0)\n", nunder);
		ret = EXIT_NO_REGRESSION;
	} else {
		printf("\nverdict: no regression (exit 0)\n");
		ret = EXIT_NO_REGRESSION;
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
