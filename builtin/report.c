/* builtin/report.c - `kbench report`: render the tables of one or
 * more campaigns (text for a mailing-list post, markdown, JSON). */
#include "builtin/builtin.h"
#include "results/campaign_diff.h"
#include "results/campaign_json.h"
#include "runner/campaign.h"
#include "reports/layout.h"
#include "lib/err.h"
#include "lib/file.h"
#include "reports/report.h"
#include "reports/plots.h"
#include "results/model.h"
#include "results/report_sources.h"
#include "results/rmodel.h"
#include "results/run_values.h"
#include "stats/summary.h"
#include "stats/compare.h"
#include "stats/disturbed.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* "  NAME      help" under --layout, help wrapped at 78 columns. */
static void print_wrapped(FILE *f, const char *name, const char *help)
{
	const int indent = 34;
	int col = fprintf(f, "                        %-9s", name);
	const char *w = help;

	while (*w) {
		size_t len = strcspn(w, " ");

		if (col + 1 + (int)len > 78)
			col = fprintf(f, "\n%*s", indent - 1, "") - 1;
		col += fprintf(f, " %.*s", (int)len, w);
		w += len;
		while (*w == ' ')
			w++;
	}
	fputc('\n', f);
}

static void usage(FILE *f)
{
	const char *name, *help;
	size_t i;

	fprintf(f,
"usage: kbench report [--format FMT[,FMT...]] [--metric NAME]... [--no-cpu]\n"
"                     [--layout NAME | --rows DIM --cols DIM]\n"
"                     [--prefix auto|none]\n"
"                     [--plots DIR [--png]]\n"
"                     [--reparse] [--from-json FILE]... [--separate]\n"
"                     [--map NEW=OLD]... [--alpha P] [--min-effect PCT]\n"
"                     [--max-mde PCT] [--exclude-outliers]\n"
"                     [--exclude-disturbed] [-o FILE] DIR...\n"
"\n"
"Render the comparison tables of the campaign directory DIR (or of a\n"
"results.json given with --from-json).  Several campaigns (kernels measured\n"
"separately, e.g. on different days) are merged into one table when they\n"
"ran the same jobs on the same target with the same tunables: the title\n"
"names them all (A vs B), every configuration is named with its campaign\n"
"(A:running, B:running), each configuration of a later campaign is\n"
"compared with the configuration of the first with the same name, as\n"
"kbench compare does (--map NEW=OLD when names differ; one with no match\n"
"with the first's baseline, with a warning), and the markdown gives each\n"
"campaign's environment (--separate: one report after the other).\n"
"The shard directories of one campaign (kbench run --shard K/N), or the\n"
"directory holding them, make that one campaign with all its rounds; a\n"
"shard missing or given twice is an error (--separate: each shard alone).\n"
"Each job gets a table of configurations (variant, tunable values) with the\n"
"mean of the timed iterations, the half-width of its 95%% confidence\n"
"interval (Student t), the change vs the baseline in percent and n, then a\n"
"CPU/time table; failed runs are listed under the table.  Warm-up and\n"
"failed runs never enter the means.  Values not measured print n/a.\n"
"\n"
"options:\n"
"  -f, --format FMT    text (default): fixed-width, 80 columns, ASCII, for\n"
"                      a mailing-list post (wide tables are split into\n"
"                      several); markdown: GitHub tables, and for one\n"
"                      campaign the environment and reproducer sections\n"
"                      (with --plots the graphs embedded too); csv: data\n"
"                      for a spreadsheet (RFC 4180):\n"
"                      a header, then one record per configuration, job\n"
"                      and metric with plain numbers (mean, sd, cv_pct,\n"
"                      ci_low, ci_high, n, change_pct and its CI,\n"
"                      p_adjusted, significant 0/1, mde_pct, ...), empty\n"
"                      when not measured, whatever --layout says;\n"
"                      json: the results model with its summaries\n"
"                      and comparisons (docs/results-format.md,\n"
"                      schema/results.schema.json; with --separate and\n"
"                      several campaigns an array of them), or with\n"
"                      --layout/--rows the tables themselves (an array\n"
"                      of each campaign's with --separate).  Several\n"
"                      formats: FMT,FMT (on standard output, one after\n"
"                      the other)\n"
"  -l, --layout NAME   the tables to show (default: variants, time and\n"
"                      profile tables together):\n"
	);
	for (i = 0; (name = kb_layout_name(i, &help)); i++)
		print_wrapped(f, name, help);
	fprintf(f,
"      --rows DIM, --cols DIM  any other table: the mean of the metric per\n"
"                      (row, column); DIM is configuration, variant, job,\n"
"                      iteration, a tunable label (NM) or a swept job\n"
"                      parameter (numjobs)\n"
"      --prefix WHAT   the values of the rounds, scaling, mmtests and\n"
"                      --rows/--cols tables, and the variants table's\n"
"                      mean and +- columns (default: the campaign's\n"
"                      kernels.conf prefix =, else none): none: in the\n"
"                      metric's unit (4310000.00 IOPS, 681574.40 KiB/s);\n"
"                      auto: one prefix per table (per metric in the\n"
"                      variants table), the smallest that writes its\n"
"                      largest value in at most 4 integer\n"
"                      digits, about 4 significant digits: IOPS and\n"
"                      counts with k, M, G (x1000) on each cell\n"
"                      (4310k), KiB/s and KiB as MiB/s, GiB/s (x1024)\n"
"                      and ns as us, ms, s, named in the title;\n"
"                      percentages, ratios and %% change as they are;\n"
"                      csv and json stay plain numbers\n"
"  -p, --plots DIR     draw graphs with gnuplot into DIR (SVG, with their\n"
"                      data and scripts): mean per configuration\n"
"                      with 95%% CI bars, every iteration, scaling (lines\n"
"                      over a numeric swept job parameter, else clustered\n"
"                      bars per tunable value), completion latency CDF\n"
"                      from fio's json+ bins (campaign directories only;\n"
"                      several: each one's configurations, one graph);\n"
"                      the changes the table marks significant are\n"
"                      labelled (\"+1.23%%*\") on the graphs\n"
"      --png           with --plots: a PNG beside each SVG (pngcairo: about\n"
"                      4x the CPU of the SVG)\n"
"  -m, --metric NAME   a metric to compare instead of the default (the\n"
"                      IOPS of the job's direction: read.iops, else\n"
"                      write.iops, else trim.iops); repeat it or give\n"
"                      NAME,NAME for several, e.g. read.iops,read.clat_p99_ns\n"
"      --no-cpu        leave out the CPU/time table (user s, sys s,\n"
"                      elapsed s, %%CPU, iowait%%, I/Os issued, merges)\n"
"      --alpha P       significance level of the verdicts (default: the\n"
"                      campaign's alpha, else 0.05)\n"
"      --min-effect PCT  smallest change in %% called significant, for every\n"
"                      metric; METRIC=PCT for one (default: the campaign's\n"
"                      min_effect, else 1)\n"
"      --max-mde PCT   a \"no significant difference\" whose minimum\n"
"                      detectable effect is above PCT is \"underpowered\";\n"
"                      METRIC=PCT for one (default: the campaign's max_mde,\n"
"                      else 5)\n"
"      --exclude-outliers  leave runs flagged as outliers (MAD modified\n"
"                      z-score > 3.5, over 1%% from the median) out of the\n"
"                      means and tests; they are listed under the table\n"
"                      either way\n"
"      --exclude-disturbed  leave disturbed runs (another load, steal,\n"
"                      CPU pressure or lost idle past the thresholds of\n"
"                      kernels.conf; see stats/disturbed.h) out of the\n"
"                      statistics; they are listed under the table\n"
"      --reparse       parse every run's raw artifacts again (after a parser\n"
"                      fix) and rewrite its metrics.json before reporting\n"
"      --from-json FILE  report a results.json export instead of (or as\n"
"                      well as) a campaign directory; may be repeated;\n"
"                      an array of them (--separate -f json) gives each\n"
"                      of its campaigns, named FILE[0], FILE[1], ...\n"
"  -o, --output FILE   write the report to FILE (replaced atomically)\n"
"                      instead of standard output\n"
"      --separate      with several campaigns, one report each instead of\n"
"                      one merged table (shards too: each shard alone;\n"
"                      not with -f csv, one header naming no campaign)\n"
"      --map NEW=OLD   with several campaigns: compare configuration NEW\n"
"                      of a later campaign with configuration OLD of the\n"
"                      first (default: the one of the same name); variants\n"
"                      too: patched=stock maps each patched,NM=V to\n"
"                      stock,NM=V; an error with one campaign or --separate\n"
"  -h, --help          show this help\n"
"\n"
"exit status: 0 on success, 2 on any error (message on standard error).\n");
}

struct source {
	const char *name;
	struct json_t *results;	/* its results model (results/model.h) */
	/* the typed model of results, built once after the merges: what
	 * stats_analyse() and every report read (results/rmodel.h) */
	struct kb_rmodel *rm;
	const char *campaign_dir;	/* NULL for --from-json */
	/* its runs' numbers loaded beside the tree (one campaign directory
	 * reported from the typed model alone: results/run_values.h), until
	 * the typed model takes them */
	struct kb_run_values *values;
};

/* The plot directory as a link from the directory of the markdown file
 * (output; NULL or "-": the current directory): a relative path when
 * the plots lie below it, else the absolute path (malloc'd). */
static char *plots_href(const char *plots, const char *output)
{
	char pr[PATH_MAX], od[PATH_MAX], *dir, *slash;
	size_t l;

	if (!realpath(plots, pr))
		return kb_xstrdup(plots);
	dir = kb_xstrdup(output && strcmp(output, "-") ? output : "./x");
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (!realpath(slash ? (*dir ? dir : "/") : ".", od)) {
		free(dir);
		return kb_xstrdup(pr);
	}
	free(dir);
	l = strlen(od);
	if (!strncmp(pr, od, l) && pr[l] == '/')
		return kb_xstrdup(pr + l + 1);
	return kb_xstrdup(pr);
}

/* 1 when dir's campaign.json records a shard (kbench run --shard). */
static int is_shard_dir(const char *dir)
{
	char *cj = kb_path_join(dir, "campaign.json");
	unsigned k = 0, n = 0;
	int bad = !kb_exists(cj) || results_campaign_shard(cj, &k, &n);

	free(cj);
	return bad || n > 0;	/* unreadable: loaded, and said, below */
}

static int has_format(const char **formats, const char *name)
{
	size_t f;

	for (f = 0; formats && formats[f]; f++)
		if (!strcmp(formats[f], name))
			return 1;
	return 0;
}

/* The results model of dir (results_load_dir()); with lean and dir a
 * campaign directory that is not a shard, its runs' numbers in *values
 * beside the tree (results_load_campaign_values(): a 100k-run campaign
 * in a quarter of the memory), else *values NULL. */
/* --reparse writes each run's metrics.json in dir (a campaign, or a
 * directory of shard campaigns): as kbench run -o DIR does, only where
 * root and the trusted users alone can change the campaign (runner/
 * campaign.h campaign_dir_check(): no link under runs/, no file of
 * another's); a break-it trial had root write through a run directory
 * linked elsewhere.  1 refused (said), else 0. */
static int reparse_refused(const char *dir)
{
	char **shards = NULL, *cj = kb_path_join(dir, "campaign.json");
	size_t n = results_shard_dirs(dir, &shards), i;
	int bad = !n && kb_exists(cj) && campaign_dir_check_reparse(dir) != 0;

	for (i = 0; i < n; i++) {
		bad = bad || campaign_dir_check_reparse(shards[i]) != 0;
		free(shards[i]);
	}
	free(shards);
	free(cj);
	if (bad)
		kb_error("%s: --reparse not done: it writes each run's "
			 "metrics.json as this user (kbench report without "
			 "--reparse reads the campaign as it is)", dir);
	return bad;
}

static struct json_t *lean_load(const char *dir, int reparse, int lean,
				struct kb_run_values **values)
{
	char *cj = kb_path_join(dir, "campaign.json");
	struct json_t *res;

	*values = NULL;
	lean = lean && kb_exists(cj);
	free(cj);
	if (!lean)
		return results_load_dir(dir, reparse);
	res = results_load_campaign_values(dir, reparse, values);
	if (res && results_is_shard(res)) {
		/* one shard alone: results_combine_shards() copies trees */
		results_free(res);
		kb_run_values__delete(*values);
		*values = NULL;
		res = results_load_dir(dir, 0);
	}
	return res;
}

static int render_all(FILE *out, struct source *src, size_t nsrc,
		      const char **formats, const struct report_opts *opts)
{
	size_t f, i;
	int ret = 0, first = 1, tables;
	struct json_t **all;

	for (f = 0; formats[f]; f++) {
		if (!strcmp(formats[f], "json") && nsrc > 1 &&
		    !opts->layout && !opts->rows && !opts->cols) {
			/* several documents: one parseable array */
			all = kb_xcalloc(nsrc, sizeof(*all));
			for (i = 0; i < nsrc; i++)
				all[i] = src[i].results;
			if (!first)
				fputc('\n', out);
			ret = results_dumpf_all(out, all, nsrc);
			free(all);
			if (ret)
				return ret;
			first = 0;
			continue;
		}
		/* several JSON documents of tables (--layout, --rows):
		 * one array too, not documents one after the other */
		tables = !strcmp(formats[f], "json") && nsrc > 1;
		if (tables)
			fputs(first ? "[\n" : "\n[\n", out);
		for (i = 0; i < nsrc; i++) {
			if (tables ? i > 0 : !first)
				fputs(tables ? ",\n" : "\n", out);
			ret = report_render(out, src[i].rm, formats[f], opts);
			if (ret)
				return ret;
			first = 0;
		}
		if (tables)
			fputs("]\n", out);
	}
	return 0;
}

/* The shards of a campaign among src (kbench run --shard) as that one
 * campaign, at its first shard's place (results_combine_shards()). */
static int combine_shards(struct source *src, size_t *nsrc)
{
	struct json_t **models = kb_xcalloc(*nsrc + 1, sizeof(*models));
	const char **names = kb_xcalloc(*nsrc + 1, sizeof(*names));
	size_t i, j, m = *nsrc;
	struct source *was = kb_xcalloc(*nsrc + 1, sizeof(*was));

	for (i = 0; i < *nsrc; i++) {
		models[i] = src[i].results;
		names[i] = src[i].name;
		was[i] = src[i];
	}
	if (results_combine_shards(models, names, &m)) {
		free(models);
		free(names);
		free(was);
		return -1;
	}
	for (i = 0; i < m; i++) {
		src[i].name = names[i];
		src[i].results = models[i];
		src[i].campaign_dir = NULL;	/* merged: several dirs */
		src[i].rm = NULL;	/* a new tree: its model built anew */
		for (j = 0; j < *nsrc; j++)
			if (was[j].results == models[i]) {
				src[i].campaign_dir = was[j].campaign_dir;
				src[i].rm = was[j].rm;
				was[j].rm = NULL;
			}
	}
	for (j = 0; j < *nsrc; j++)
		kb_rmodel__delete(was[j].rm);
	*nsrc = m;
	free(models);
	free(names);
	free(was);
	return 0;
}

const struct option kb_report_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "metric", required_argument, NULL, 'm' },
	{ "no-cpu", no_argument, NULL, 'C' },
	{ "reparse", no_argument, NULL, 'R' },
	{ "exclude-outliers", no_argument, NULL, 'X' },
	{ "exclude-disturbed", no_argument, NULL, 'D' },
	{ "alpha", required_argument, NULL, 'A' },
	{ "min-effect", required_argument, NULL, 'E' },
	{ "max-mde", required_argument, NULL, 'M' },
	{ "from-json", required_argument, NULL, 'J' },
	{ "output", required_argument, NULL, 'o' },
	{ "layout", required_argument, NULL, 'l' },
	{ "rows", required_argument, NULL, 'r' },
	{ "cols", required_argument, NULL, 'c' },
	{ "plots", required_argument, NULL, 'p' },
	{ "png", no_argument, NULL, 'G' },
	{ "separate", no_argument, NULL, 'S' },
	{ "map", required_argument, NULL, 'P' },
	{ "prefix", required_argument, NULL, 'x' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_report_shortopts[] = "f:m:o:l:p:h";
const struct kb_arg_spec kb_report_args[] = {
	{ "format", KB_ARG_WORDS, KB_REPORT_FORMATS },
	{ "metric", KB_ARG_METRIC, NULL },
	{ "alpha", KB_ARG_NONE, NULL },
	{ "min-effect", KB_ARG_NONE, NULL },
	{ "max-mde", KB_ARG_NONE, NULL },
	{ "from-json", KB_ARG_JSON, NULL },
	{ "output", KB_ARG_FILE, NULL },
	{ "layout", KB_ARG_LAYOUT, NULL },
	{ "rows", KB_ARG_WORD, "configuration variant job iteration" },
	{ "cols", KB_ARG_WORD, "configuration variant job iteration" },
	{ "plots", KB_ARG_DIR, NULL },
	{ "map", KB_ARG_NONE, NULL },
	{ "prefix", KB_ARG_WORD, KB_REPORT_PREFIXES },
	{ NULL, KB_ARG_CAMPAIGN, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_report(int argc, char **argv)
{
	const char **formats = NULL, **metrics = NULL, **jsons = NULL;
	size_t nformats = 0, nmetrics = 0, njsons = 0, nkeep = 0, nsrc = 0, i;
	struct source *src = NULL;
	struct report_opts opts;
	struct kb_compare_opts copts;
	struct results_map map = { 0 };
	const char *output = NULL, *plots = NULL;
	char *href = NULL;
	char **keep = NULL, *buf = NULL;
	size_t buflen = 0;
	FILE *out = stdout;
	int reparse = 0, separate = 0, exclude_disturbed = 0, ret = 2, c;
	int png = 0;

	report_opts_init(&opts);
	kb_compare_opts_init(&copts);
	optind = 1;
	while ((c = getopt_long(argc, argv, kb_report_shortopts, kb_report_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!kb_list_add_split(&formats, &nformats, &keep,
					       &nkeep, optarg)) {
				kb_error("--format '%s': an empty name (expected "
					 "FMT[,FMT...] of text, markdown, csv and "
					 "json)", optarg);
				goto out;
			}
			break;
		case 'm':
			if (!kb_list_add_split(&metrics, &nmetrics, &keep,
					       &nkeep, optarg)) {
				kb_error("--metric '%s': an empty name (expected "
					 "NAME[,NAME...], e.g. read.iops,"
					 "read.clat_p99_ns)", optarg);
				goto out;
			}
			break;
		case 'C':
			opts.show_cpu_table = 0;
			break;
		case 'X':
			copts.exclude_outliers = 1;
			break;
		case 'D':
			exclude_disturbed = 1;
			break;
		case 'A':
		case 'E':
		case 'M':
			if (kb_compare_parse_opt(&copts, c, optarg))
				goto out;
			break;
		case 'R':
			reparse = 1;
			break;
		case 'J':
			jsons = kb_xrealloc(jsons, (njsons + 1) *
					    sizeof(*jsons));
			jsons[njsons++] = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'l':
			opts.layout = optarg;
			break;
		case 'r':
			opts.rows = optarg;
			break;
		case 'c':
			opts.cols = optarg;
			break;
		case 'p':
			plots = optarg;
			break;
		case 'G':
			png = 1;
			break;
		case 'S':
			separate = 1;
			break;
		case 'P':
			if (results_map_add(&map, optarg))
				goto out;
			break;
		case 'x':
			/* wins over kernels.conf's prefix = (the
			 * campaign's, KB_PREFIX_CAMPAIGN) */
			opts.prefix = report_prefix_word(optarg);
			if (opts.prefix < 0) {
				kb_error("--prefix '%s': unknown (choose auto: "
					 "4310k IOPS, MiB/s, us; or none: the "
					 "metric's own unit, the default unless "
					 "kernels.conf says prefix = auto)",
					 optarg);
				goto out;
			}
			break;
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		default:
			kb_bad_option("report", kb_report_options, argv[optind - 1]);
			goto out;
		}
	}
	if (!nformats)
		kb_list_add_split(&formats, &nformats, &keep, &nkeep, "text");
	for (i = 0; i < nformats; i++) {
		if (kb_word_in(KB_REPORT_FORMATS, formats[i]))
			continue;
		kb_error("--format %s: unknown format (choose text, markdown, "
			 "csv or json)", formats[i]);
		goto out;
	}
	if (nformats > 1 && output && strcmp(output, "-")) {
		/* one file of several formats is a file of none (a CSV
		 * after a text report loads in no spreadsheet) */
		kb_error("-o %s: one file takes one format, %zu given (-f %s,"
			 "...); write each with its own -f and -o, or leave -o "
			 "out for standard output", output, nformats,
			 formats[0]);
		goto out;
	}
	if (nmetrics)
		opts.metrics = copts.metrics = metrics;
	if (optind >= argc && !njsons) {
		kb_error("report: no campaign directory given");
		fprintf(stderr, "usage: kbench report [OPTIONS] DIR... "
			"(see 'kbench report --help')\n");
		goto out;
	}
	if (reparse && njsons)
		kb_warn("--reparse does not apply to --from-json files (they "
			"hold no raw artifacts)");

	src = kb_xcalloc(njsons + (size_t)(argc - optind) + 1, sizeof(*src));
	for (i = 0; i < njsons; i++) {
		struct stat st;
		struct json_t **models;
		char **names;
		size_t j, k;

		if (!stat(jsons[i], &st) && S_ISDIR(st.st_mode)) {
			/* a campaign given for its export */
			kb_error("--from-json %s: a directory, not a "
				 "results.json; a campaign directory is "
				 "reported as it is: 'kbench report %s'",
				 jsons[i], jsons[i]);
			goto out;
		}
		/* an object, or the array --separate -f json writes: one
		 * source per campaign in it */
		if (results_load_exports(jsons[i], &models, &names, &k))
			goto out;
		src = kb_xrealloc(src, (nsrc + k + (size_t)(argc - optind) +
					njsons - i) * sizeof(*src));
		keep = kb_xrealloc(keep, (nkeep + k) * sizeof(*keep));
		for (j = 0; j < k; j++) {
			memset(&src[nsrc], 0, sizeof(*src));
			src[nsrc].name = keep[nkeep++] = names[j];
			src[nsrc++].results = models[j];
		}
		free(models);
		free(names);
	}
	for (c = optind; c < argc; c++) {
		int k, dup = 0;

		/* "A ./A": one campaign, not two to merge (a shard given
		 * twice stays: the shards' merge refuses it, naming it) */
		for (k = optind; k < c && !dup; k++)
			dup = kb_same_file(argv[k], argv[c]);
		if (dup && !is_shard_dir(argv[c])) {
			kb_warn("%s is %s again: reported once", argv[c],
				argv[k - 1]);
			continue;
		}
		if (reparse && reparse_refused(argv[c]))
			goto out;	/* said */
		src[nsrc].name = argv[c];
		src[nsrc].results = lean_load(argv[c], reparse,
			/* what reads only the typed model: one campaign's
			 * tables */
			argc - optind == 1 && !njsons && !plots &&
			!has_format(formats, "json"), &src[nsrc].values);
		if (!src[nsrc].results)
			goto out;	/* the message names the directory */
		/* a directory of shard directories: merged already */
		src[nsrc].campaign_dir = results_is_shard(src[nsrc].results) ||
			!results_has_shards(src[nsrc].results) ? argv[c] :
			NULL;
		nsrc++;
	}
	/* disturbed runs, against each campaign's (each shard's: another
	 * machine) own quiet level, before any merge: the runs keep their
	 * marks */
	for (i = 0; i < nsrc; i++) {
		struct kb_rmodel *m = src[i].values ?
			kb_rmodel__new_values(src[i].results, src[i].values) :
			kb_rmodel__new(src[i].results);

		src[i].values = NULL;	/* taken */
		if (!m)
			goto out;	/* named there: no runs array */
		stats_mark_disturbed_in(m, NULL, exclude_disturbed);
		/* the marks are in both (kb_rmodel__set_disturbed()): the
		 * model is kept unless a merge below makes a new tree */
		src[i].rm = m;
	}
	if (!separate && combine_shards(src, &nsrc))
		goto out;	/* a shard missing or twice: named */
	if (map.n && (nsrc < 2 || separate)) {
		/* nothing would read it: say so rather than ignore it */
		kb_error("--map %s: --map pairs the configurations of several "
			 "campaigns merged into one table; %s", map.v[0],
			 separate ? "--separate reports each campaign alone" :
			 "one campaign given, whose configurations are "
			 "compared with its own baseline");
		goto out;
	}
	if (nsrc > 1 && !separate) {
		/* what differs between them, each against the first (as
		 * compare says it): the merged header shows the first's */
		struct kb_rcampaign c0, ci;

		kb_rcampaign__fill(&c0, src[0].results);
		for (i = 1; i < nsrc; i++) {
			kb_rcampaign__fill(&ci, src[i].results);
			results_env_diff_warn(src[0].name, &c0, src[i].name,
					      &ci);
			results_setup_diff_warn(src[0].name, &c0, src[i].name,
						&ci);
			kb_rcampaign__clear(&ci);
		}
		kb_rcampaign__clear(&c0);
	}
	if (nsrc > 1 && !separate) {
		/* several campaigns: their configurations in one table */
		struct json_t **models = kb_xcalloc(nsrc, sizeof(*models));
		struct json_t *merged;
		const char **names = kb_xcalloc(nsrc, sizeof(*names));

		for (i = 0; i < nsrc; i++) {
			size_t k;

			models[i] = src[i].results;
			names[i] = src[i].name;
			for (k = 0; k < i; k++)
				if (!strcmp(names[k], names[i]))
					kb_warn("%s is given twice: its "
						"configurations appear twice, "
						"renamed", names[i]);
		}
		/* each run was judged against its own campaign; the header
		 * takes the thresholds of the first (the baseline's) */
		merged = results_merge_campaigns(models, names, nsrc, &map);
		free(models);
		free(names);
		if (!merged)
			goto out;
		for (i = 0; i < nsrc; i++) {
			kb_rmodel__delete(src[i].rm);
			src[i].rm = NULL;
			results_free(src[i].results);
		}
		src[0].results = merged;
		src[0].campaign_dir = NULL;	/* no single raw-artifact dir */
		nsrc = 1;
	}
	for (i = 0; i < nsrc; i++) {
		if (!src[i].rm)
			src[i].rm = kb_rmodel__new(src[i].results);
		if (!src[i].rm || stats_analyse(src[i].rm, &copts))
			goto out;	/* named by either */
	}
	if (nsrc > 1 && has_format(formats, "csv")) {
		/* --separate: one CSV document after another is no CSV (a
		 * reader takes the second header for data) and the rows of
		 * two campaigns would not say whose they are */
		kb_error("-f csv with --separate: a CSV file has one header "
			 "and names no campaign; leave out --separate (one "
			 "table: each configuration named CAMPAIGN:NAME) or "
			 "give one campaign at a time");
		goto out;
	}
	if (png && !plots) {
		kb_error("--png draws the graphs of --plots DIR as PNG too; "
			 "give --plots DIR");
		goto out;
	}
	if (plots) {
		/* one campaign at a time; the markdown links the graphs
		 * relative to the output file */
		if (nsrc > 1) {
			kb_error("--plots: give one campaign at a time (%zu "
				 "given)", nsrc);
			goto out;
		}
		if (plots_write(src[0].rm, plots, src[0].campaign_dir, &opts,
				png, NULL) < 0)
			goto out;
		href = plots_href(plots, output);
		opts.plots_dir = plots;
		opts.plots_href = href;
		opts.full_markdown = 1;
	}

	/* markdown of one campaign is for posting: its environment and
	 * reproducers with it, as the runner's report.md has them (a
	 * new-user trial found them only with --plots) */
	if (nsrc == 1 && has_format(formats, "markdown"))
		opts.full_markdown = 1;
	if (output && strcmp(output, "-")) {
		out = open_memstream(&buf, &buflen);
		if (!out) {
			kb_error("cannot buffer the report: %s",
				 strerror(errno));
			out = stdout;
			goto out;
		}
	}
	if (render_all(out, src, nsrc, formats, &opts))
		goto out;
	if (out != stdout) {
		if (fclose(out)) {
			out = stdout;
			kb_error("cannot buffer the report: %s",
				 strerror(errno));
			goto out;
		}
		out = stdout;
		if (kb_write_atomic(output, buf, buflen))
			goto out;
	} else if (fflush(stdout)) {
		kb_error("writing the report to standard output failed: %s",
			 strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (out != stdout)
		fclose(out);
	kb_compare_opts_free(&copts);
	results_map_free(&map);
	/* the models are the report's only large memory: left to the
	 * kernel at exit in release builds (lib/file.h) */
	for (i = 0; i < nsrc && KB_FREE_AT_EXIT; i++) {
		kb_rmodel__delete(src[i].rm);
		kb_run_values__delete(src[i].values);
		results_free(src[i].results);
	}
	for (i = 0; i < nkeep; i++)
		free(keep[i]);
	free(keep);
	free(formats);
	free(metrics);
	free(jsons);
	free(src);
	free(buf);
	free(href);
	return ret;
}
