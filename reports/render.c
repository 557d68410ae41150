/* reports/render.c - report_render(): a results model, as its typed
 * model (results/rmodel.h), out in one of the formats (text and markdown
 * through the report model of reports/builder.c; csv; json, written by
 * results/), from one table of renderers. */
#include "reports/table.h"
#include "reports/report.h"
#include "results/model.h"
#include "results/rmodel.h"
#include "lib/err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- dispatch ------------------------------------------------------ */

/* The two table renderers differ only in how a built report is
 * written out. */
enum table_fmt { TF_TEXT, TF_MARKDOWN };

static int render_tables(FILE *out, const struct kb_rmodel *m,
			 const struct report_opts *opts, enum table_fmt f)
{
	struct kb_report *r;
	int ret;

	ret = kb_report_build(m, opts, &r);
	if (ret)
		return ret;
	switch (f) {
	case TF_TEXT:
		ret = report_text(out, r, REPORT_TEXT_WIDTH);
		break;
	default:
		ret = report_markdown_full(out, r, m, opts);
		break;
	}
	kb_report_free(r);
	return ret;
}

static int render_text(FILE *out, const struct kb_rmodel *m,
		       const struct report_opts *opts)
{
	return render_tables(out, m, opts, TF_TEXT);
}

static int render_markdown(FILE *out, const struct kb_rmodel *m,
			   const struct report_opts *opts)
{
	return render_tables(out, m, opts, TF_MARKDOWN);
}

/* CSV is the data under every table: a layout does not change it. */
static int render_csv(FILE *out, const struct kb_rmodel *m,
		      const struct report_opts *opts)
{
	(void)opts;
	return report_csv(out, m);
}

static int render_json(FILE *out, const struct kb_rmodel *m,
		       const struct report_opts *opts)
{
	struct kb_report *r;
	struct report_opts plain;
	int ret;

	if (opts->layout || opts->rows || opts->cols) {
		/* a layout asked for: its tables, not the results model;
		 * numbers as data, in the metric's unit whatever --prefix
		 * says ("4310000.00", not "4310k") */
		plain = *opts;
		plain.prefix = KB_PREFIX_NONE;
		ret = kb_report_build(m, &plain, &r);
		if (ret)
			return ret;
		ret = results_report_tables_json(out, r);
		kb_report_free(r);
		return ret;
	}
	return results_dumpf(out, m->results);
}

/* The renderers, fio ioengine_ops style. */
static const struct report_renderer {
	const char *name;
	int (*render)(FILE *out, const struct kb_rmodel *m,
		      const struct report_opts *opts);
} renderers[] = {
	{ "text", render_text },
	{ "markdown", render_markdown },
	{ "csv", render_csv },
	{ "json", render_json },
	{ NULL, NULL },
};

void report_opts_init(struct report_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->show_cpu_table = 1;
	opts->prefix = KB_PREFIX_CAMPAIGN;
}

int report_prefix_word(const char *word)
{
	if (word && !strcmp(word, "auto"))
		return KB_PREFIX_AUTO;
	if (word && !strcmp(word, "none"))
		return KB_PREFIX_NONE;
	return -1;
}

int report_prefix(const struct report_opts *opts, const struct kb_rmodel *m)
{
	if (opts && opts->prefix != KB_PREFIX_CAMPAIGN)
		return opts->prefix == KB_PREFIX_AUTO ? KB_PREFIX_AUTO :
		       KB_PREFIX_NONE;
	return report_prefix_word(m->campaign.prefix) == KB_PREFIX_AUTO ?
	       KB_PREFIX_AUTO : KB_PREFIX_NONE;
}

int report_render(FILE *out, const struct kb_rmodel *m, const char *format,
		  const struct report_opts *opts)
{
	const struct report_renderer *r;
	struct report_opts defaults;
	int ret;

	if (!opts) {
		report_opts_init(&defaults);
		opts = &defaults;
	}
	for (r = renderers; r->name; r++) {
		if (strcmp(r->name, format))
			continue;
		ret = r->render(out, m, opts);
		if (!ret && ferror(out)) {
			kb_error("writing the %s report failed", format);
			ret = -EIO;
		}
		return ret;
	}
	kb_error("unknown report format '%s' (choose text, markdown, csv or "
		 "json)",
		 format);
	return -EINVAL;
}
