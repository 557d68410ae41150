/* reports/csv.c - the results as CSV data (the report's tables as JSON:
 * results/report_tables.c).
 *
 * CSV is data for a spreadsheet or a script, not the text table:
 * RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180), CRLF line ends,
 * one header record, then one record per (configuration, job, metric)
 * that has a summary (every metric measured, not only the compared ones;
 * in the summaries' order), every record with the header's number of
 * fields.  Numbers are plain ("%.15g", '.' as the decimal point, no
 * unit, no sign or percent decoration); a value that was not measured or
 * cannot be computed is an empty field, never 0 or "n/a"; 0/1 for
 * yes/no.  A field is quoted only when it holds a comma or a quote
 * (inner quotes doubled): configuration ids ("stock,NM=0") are.  A
 * control character in a name from the results (ESC in a job name; tab,
 * CR and LF too: lib/str.h kb_control_len()) is written as '?', as the
 * text report shows it: RFC 4180's TEXTDATA has none, a terminal that
 * shows the file would obey it, and a record stays one line.
 *
 * The columns (docs/results-format.md names the model's members):
 *   configuration, variant, one per tunable label (campaign.tunables,
 *   kernels.conf order; "tunable_LABEL" if the label is a column name
 *   below), job, [host,] metric, unit,
 *   host             only when the summaries hold per-load-host metrics
 *                    (hosts =, "host.NAME.METRIC", lib/metrics.h): NAME,
 *                    and metric is then METRIC; empty on the rows of all
 *                    hosts together (the aggregate).  A campaign on one
 *                    machine has no host column.
 *   n, mean, sd, cv_pct, ci_low, ci_high    the summary (95% CI)
 *   baseline                                the configuration compared with
 *   change_pct, change_ci_low, change_ci_high, p_adjusted,
 *   significant (0/1), mde_pct              the comparison (stats/compare.h);
 *                                           empty for a metric not compared
 *                                           (--metric) and for a baseline
 *   disturbed_runs   ok timed runs of the (configuration, job) marked
 *                    disturbed (stats/disturbed.h), left out by
 *                    --exclude-disturbed or not: empty when the runs
 *                    were not judged (stats_machine_busy_in() < 0)
 *   bimodal          1/0 from the summary's "modes"; empty when the
 *                    model has none (not computed)
 *   analysis         the comparison's "analysis" (paired, welch-log,
 *                    welch); "welch" for a model without it whose test
 *                    ran (Welch's t-test on the values)
 *   verdict          the comparison's verdict, words
 */
#include "reports/table.h"
#include "results/analysis.h"
#include "results/json.h"
#include "results/rmodel.h"
#include "lib/file.h"
#include "lib/str.h"
#include "lib/metrics.h"
#include "stats/disturbed.h"
#include "stats/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The fixed columns after configuration, variant and the tunables. */
static const char *const columns[] = { "job", "metric", "unit", "n",
	"mean", "sd", "cv_pct", "ci_low", "ci_high", "baseline", "change_pct",
	"change_ci_low", "change_ci_high", "p_adjusted", "significant",
	"mde_pct", "disturbed_runs", "bimodal", "analysis", "verdict", NULL };

static void csv_sep(FILE *out, int *first)
{
	if (!*first)
		fputc(',', out);
	*first = 0;
}

/* A text field, control characters as '?' (kb_xstr_shown()); quoted
 * when it must be (RFC 4180 2.6, 2.7). */
static void csv_str(FILE *out, int *first, const char *text)
{
	char *shown, *s;

	csv_sep(out, first);
	if (!text)
		return;
	shown = kb_xstr_shown(text, "");
	if (!strpbrk(shown, ",\"")) {
		fputs(shown, out);
		free(shown);
		return;
	}
	fputc('"', out);
	for (s = shown; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
	free(shown);
}

/* A number of the typed analysis (results/analysis.h); empty when not
 * finite (NAN: null or absent). */
static void csv_dbl(FILE *out, int *first, double v)
{
	csv_sep(out, first);
	if (isfinite(v))
		fprintf(out, "%.15g", v);
}

/* The ok timed runs of (cfg, job) marked disturbed (their "disturbed"
 * list, stats/disturbed.h: whether or not --exclude-disturbed left them
 * out), as the "Machine:" header counts them. */
static long disturbed_runs(const struct kb_rmodel *m, const char *cfg,
			   const char *job)
{
	size_t d, t;

	stats_disturbed_counts_in(m, &cfg, 1, job, &d, &t);
	return (long)d;
}

int report_csv(FILE *out, const struct kb_rmodel *m)
{
	struct kb_analysis an;
	const struct kb_rconfig *cfg;
	struct kb_strlist labels = { 0 };
	size_t i, k, c, off, nd, nt;
	/* disturbance judged: stats_mark_disturbed_in() ran on m */
	int first, flags = stats_machine_busy_in(m, NULL, &nd, &nt) >= 0;
	int hosts = 0;

	/* the summaries and comparisons as typed rows (results/analysis.h) */
	kb_analysis__from_json(m->results, &an);
	for (i = 0; i < an.nsummaries; i++)
		hosts |= kb_metric_host_split(an.summaries[i].metric ?: "") > 0;

	for (i = 0; i < m->campaign.ntunables; i++)
		kb_strlist_add(&labels, m->campaign.tunables[i].label);

	first = 1;
	csv_str(out, &first, "configuration");
	csv_str(out, &first, "variant");
	for (k = 0; k < labels.n; k++) {
		int clash = !strcmp(labels.v[k], "configuration") ||
			    !strcmp(labels.v[k], "variant") ||
			    (hosts && !strcmp(labels.v[k], "host"));

		for (c = 0; columns[c]; c++)
			clash |= !strcmp(labels.v[k], columns[c]);
		if (clash) {
			char *h = kb_xasprintf("tunable_%s", labels.v[k]);

			csv_str(out, &first, h);
			free(h);
		} else {
			csv_str(out, &first, labels.v[k]);
		}
	}
	for (c = 0; columns[c]; c++) {
		csv_str(out, &first, columns[c]);
		if (hosts && !strcmp(columns[c], "job"))
			csv_str(out, &first, "host");
	}
	fputs("\r\n", out);

	for (i = 0; i < an.nsummaries; i++) {
		const struct kb_summary_row *s = &an.summaries[i];
		const struct kb_comparison_row *cmp;
		const char *id = s->configuration, *job = s->job;
		const char *metric = s->metric;
		const char *verdict, *analysis, *bl;

		if (!id || !job || !metric)
			continue;
		cfg = kb_rcampaign__config(&m->campaign, id);
		cmp = kb_analysis__comparison(&an, id, NULL, job, metric);
		verdict = cmp ? cmp->verdict : NULL;
		first = 1;
		csv_str(out, &first, id);
		csv_str(out, &first, cfg ? cfg->variant : NULL);
		for (k = 0; k < labels.n; k++)
			csv_str(out, &first, kb_rconfig__tunable(cfg,
								 labels.v[k]));
		csv_str(out, &first, job);
		if (hosts) {	/* "host.NAME.METRIC": NAME, METRIC */
			off = kb_metric_host_split(metric);
			if (off) {
				char *name = kb_xasprintf("%.*s",
					(int)(off - 6), metric + 5);

				csv_str(out, &first, name);
				free(name);
			} else {
				csv_str(out, &first, NULL);
			}
			metric += off;
		}
		csv_str(out, &first, metric);
		csv_str(out, &first, s->unit);
		csv_sep(out, &first);
		fprintf(out, "%zu", s->n);
		csv_dbl(out, &first, s->mean);
		csv_dbl(out, &first, s->sd);
		csv_dbl(out, &first, s->cv_pct);
		csv_dbl(out, &first, s->ci95_lo);
		csv_dbl(out, &first, s->ci95_hi);
		bl = cmp ? cmp->baseline : stats_baseline_for(m, id);
		csv_str(out, &first, bl && strcmp(bl, id) ? bl : NULL);
		csv_dbl(out, &first, cmp ? cmp->change_pct : NAN);
		csv_dbl(out, &first, cmp ? cmp->change_ci95_lo_pct : NAN);
		csv_dbl(out, &first, cmp ? cmp->change_ci95_hi_pct : NAN);
		csv_dbl(out, &first, cmp ? cmp->p_adjusted : NAN);
		csv_str(out, &first, !verdict ? NULL :
			kb_verdict_significant(verdict) ? "1" : "0");
		csv_dbl(out, &first, cmp ? cmp->mde_pct : NAN);
		csv_sep(out, &first);
		if (flags)
			fprintf(out, "%ld", disturbed_runs(m, id, job));
		csv_str(out, &first, s->modes_absent ? NULL :
			s->modes ? "1" : "0");
		analysis = cmp ? cmp->analysis : NULL;
		if (!analysis && cmp && isfinite(cmp->welch_p))
			analysis = "welch";
		csv_str(out, &first, analysis);
		csv_str(out, &first, verdict);
		fputs("\r\n", out);
	}
	free(labels.v);
	kb_analysis__clear(&an);
	return ferror(out) ? -EIO : 0;
}
