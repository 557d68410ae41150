/* bench/summarize.c - turn `make bench`'s raw samples into the figures:
 * one line per figure on stdout and bench/results.json.
 *
 * usage: summarize SAMPLES OUT.json
 *
 * SAMPLES holds lines written by bench/bench.sh, in the order of the run:
 *   def NAME UNIT OP GOAL DESCRIPTION...   declare a figure; OP is one of
 *                                          >= <= < > (GOAL the threshold)
 *                                          or - (no goal, GOAL ignored)
 *                                          or ci (a ratio printed with its
 *                                          95% CI, not judged; GOAL
 *                                          ignored)
 *   s NAME VALUE                           one sample (one pair's ratio,
 *                                          or one measurement)
 *   pending NAME TEXT...                   a figure that cannot be
 *                                          measured yet, and why
 * Each figure prints as
 *   NAME: median M (min A, max B, n=N) UNIT; goal OP GOAL: met|MISSED
 * with the median of GSL (gsl_stats_median_from_sorted_data).  A ci
 * figure's samples are ratios (one per pair): it also prints their
 * geometric mean and its 95% CI, exp(mean ln r -+ t(0.975; n-1) sd/sqrt(n))
 * (kb_paired_log_test against ratios of 1, stats/paired.h), into OUT.json
 * as "geomean", "ci95_lo", "ci95_hi" (null when n < 2).  OUT.json:
 *   {"schema_version": 1, "kbench_version", "date" (UTC ISO 8601),
 *    "environment": {...as in campaign.json},
 *    "figures": [{"name", "unit", "description", "n", "min", "median",
 *                 "max", "samples": [...], "goal": {"op", "value"}|null,
 *                 "met": bool|null}],
 *    "pending": [{"name", "reason"}]}
 * Exit status 0 (a missed goal is a figure, not a failure), 1 on an
 * unreadable SAMPLES file or a malformed line.
 */
#include "lib/file.h"
#include "runner/campaign.h"
#include "parsers/json_file.h"
#include "stats/paired.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct figure {
	char name[64], unit[32], op[4], desc[256];
	double goal;
	double *v;
	size_t n;
};

static struct figure *figs;
static size_t nfigs;

static struct figure *find(const char *name)
{
	size_t i;

	for (i = 0; i < nfigs; i++)
		if (!strcmp(figs[i].name, name))
			return &figs[i];
	return NULL;
}

static int met(const struct figure *f, double x)
{
	if (!strcmp(f->op, ">="))
		return x >= f->goal;
	if (!strcmp(f->op, "<="))
		return x <= f->goal;
	if (!strcmp(f->op, "<"))
		return x < f->goal;
	if (!strcmp(f->op, ">"))
		return x > f->goal;
	return -1;
}

/* A ci figure: the geometric mean of the ratio samples and its 95% CI. */
static void ci_figure(const struct figure *f, json_t *arr, json_t *samples)
{
	double *ones = kb_xmalloc(f->n * sizeof(*ones));
	double g = NAN, lo = NAN, hi = NAN;
	struct kb_log_test t;
	size_t k;

	for (k = 0; k < f->n; k++)
		ones[k] = 1;
	if (f->n == 1) {
		g = f->v[0];
	} else if (kb_paired_log_test(ones, f->v, f->n, &t) == 0) {
		g = 1 + t.change_pct / 100;
		lo = 1 + t.change_ci95_lo_pct / 100;
		hi = 1 + t.change_ci95_hi_pct / 100;
	}
	free(ones);
	if (isfinite(lo) && isfinite(hi))
		printf("%-28s %-6.4g (95%% CI %.4g-%.4g, n=%zu) %s; not judged",
		       f->name, g, lo, hi, f->n, f->unit);
	else
		printf("%-28s %-6.4g (no CI, n=%zu) %s; not judged", f->name,
		       g, f->n, f->unit);
	printf("  - %s\n", f->desc);
	json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:i, s:o, s:o, "
		"s:o, s:o, s:n, s:n}", "name", f->name, "unit", f->unit,
		"description", f->desc, "n", (int)f->n, "geomean",
		isfinite(g) ? json_real(g) : json_null(), "ci95_lo",
		isfinite(lo) ? json_real(lo) : json_null(), "ci95_hi",
		isfinite(hi) ? json_real(hi) : json_null(), "samples", samples,
		"goal", "met"));
}

int main(int argc, char **argv)
{
	json_t *out = NULL, *arr, *pend;
	char line[1024], name[64], ts[32];
	FILE *in;
	int lineno = 0, ret = 1, off;
	size_t i;
	time_t now = time(NULL);
	struct kb_environment env;

	if (argc != 3) {
		fprintf(stderr, "usage: summarize SAMPLES OUT.json\n");
		return 1;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	arr = json_array();
	pend = json_array();
	while (fgets(line, sizeof(line), in)) {
		struct figure *f;
		double x;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "def ", 4)) {
			figs = kb_xrealloc(figs, (nfigs + 1) * sizeof(*figs));
			f = &figs[nfigs];
			memset(f, 0, sizeof(*f));
			if (sscanf(line + 4, "%63s %31s %3s %lf %n", f->name,
				   f->unit, f->op, &f->goal, &off) < 4)
				goto bad;
			snprintf(f->desc, sizeof(f->desc), "%s", line + 4 + off);
			nfigs++;
		} else if (!strncmp(line, "s ", 2)) {
			if (sscanf(line + 2, "%63s %lf", name, &x) != 2 ||
			    !(f = find(name)))
				goto bad;
			f->v = kb_xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
			f->v[f->n++] = x;
		} else if (!strncmp(line, "pending ", 8)) {
			if (sscanf(line + 8, "%63s %n", name, &off) != 1)
				goto bad;
			printf("%s: pending: %s\n", name, line + 8 + off);
			json_array_append_new(pend, json_pack("{s:s, s:s}",
				"name", name, "reason", line + 8 + off));
		} else if (line[0]) {
			goto bad;
		}
	}
	for (i = 0; i < nfigs; i++) {
		struct figure *f = &figs[i];
		json_t *samples = json_array(), *e;
		double med;
		size_t k;
		int ok;

		for (k = 0; k < f->n; k++)
			json_array_append_new(samples, json_real(f->v[k]));
		if (!f->n) {
			printf("%s: no samples (see the messages above)\n",
			       f->name);
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s, "
				"s:i, s:o}", "name", f->name, "unit", f->unit,
				"description", f->desc, "n", 0, "samples",
				samples));
			continue;
		}
		if (!strcmp(f->op, "ci")) {
			ci_figure(f, arr, samples);
			continue;
		}
		gsl_sort(f->v, 1, f->n);
		med = gsl_stats_median_from_sorted_data(f->v, 1, f->n);
		ok = met(f, med);
		printf("%-28s median %-10.4g (min %.4g, max %.4g, n=%zu) %s",
		       f->name, med, f->v[0], f->v[f->n - 1], f->n, f->unit);
		if (ok >= 0)
			printf("; goal %s %g: %s", f->op, f->goal,
			       ok ? "met" : "MISSED");
		printf("  - %s\n", f->desc);
		e = json_pack("{s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:o}",
			"name", f->name, "unit", f->unit, "description",
			f->desc, "n", (int)f->n, "min", f->v[0], "median", med,
			"max", f->v[f->n - 1], "samples", samples);
		json_object_set_new(e, "goal", ok < 0 ? json_null() :
			json_pack("{s:s, s:f}", "op", f->op, "value", f->goal));
		json_object_set_new(e, "met", ok < 0 ? json_null() :
				    json_boolean(ok));
		json_array_append_new(arr, e);
	}
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	campaign_environment(&env);
	out = json_pack("{s:i, s:s, s:s, s:o, s:o, s:o}", "schema_version", 1,
			"kbench_version", KBENCH_VERSION, "date", ts,
			"environment", results_environment_json(&env),
			"figures", arr,
			"pending", pend);
	results_environment_free(&env);
	arr = pend = NULL;
	ret = kb_json_write_atomic(argv[2], out) ? 1 : 0;
	goto out;
bad:
	fprintf(stderr, "summarize: %s:%d: malformed line '%s'\n", argv[1],
		lineno, line);
out:
	json_decref(arr);
	json_decref(pend);
	json_decref(out);
	fclose(in);
	for (i = 0; i < nfigs; i++)
		free(figs[i].v);
	free(figs);
	return ret;
}
