/* runner/campaign_reports.c - a campaign's results.json, report.txt and
 * report.md (with its plots) written from the campaign directory
 * (campaign_reports.h). */
#include "runner/campaign_reports.h"
#include "reports/report.h"
#include "reports/layout.h"
#include "results/model.h"
#include "results/rmodel.h"
#include "stats/compare.h"
#include "stats/disturbed.h"
#include "reports/plots.h"
#include "lib/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* results.json, report.txt, report.md; the text table on stdout. */
int campaign_write_reports(const char *dir, int print,
			   enum campaign_plots plots)
{
	char *rpath = kb_path_join(dir, "results.json");
	char *tpath = kb_path_join(dir, "report.txt");
	char *mpath = kb_path_join(dir, "report.md");
	char *ppath = kb_path_join(dir, "plots");
	struct report_opts mdopts;
	const char *const fmts[] = { "text", "markdown" };
	const char *const paths[] = { tpath, mpath };
	struct kb_rmodel *rm = NULL;
	int ret = -EIO;
	size_t i, li;

	/* the typed model, built once: the disturbed marks, the analysis
	 * and every report read it (issue 16) */
	rm = kb_rmodel__load(dir, 0);
	if (!rm)
		goto out;	/* named by kb_rmodel__load() */
	/* runs disturbed by the rest of the machine: marked, kept */
	stats_mark_disturbed_in(rm, NULL, 0);
	ret = stats_analyse(rm, NULL);
	if (ret)
		goto out;
	/* derivable from runs/: atomic, not synced (lib/file.h) */
	ret = results_export_write(rpath, rm->results, KB_WRITE_NOSYNC);
	/* report.md: environment, tables, graphs (DIR/plots, when gnuplot
	 * is installed) and reproducers (reports/plots.h) */
	report_opts_init(&mdopts);
	mdopts.full_markdown = 1;
	if (!ret && plots != CAMPAIGN_PLOTS_NONE &&
	    plots_write(rm, ppath, dir, NULL,
			plots == CAMPAIGN_PLOTS_SVG_PNG, NULL) > 0) {
		mdopts.plots_dir = ppath;
		mdopts.plots_href = "plots";
	}
	for (i = 0; i < 2 && !ret; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		ret = report_render(m, rm, fmts[i], i ? &mdopts : NULL);
		/* kernels.conf layouts = rounds ...: more tables after them;
		 * not those the default report has already (layouts = time
		 * printed the report's time tables twice, header and all: a
		 * new user's trial) */
		for (li = 0; li < rm->campaign.layouts.n; li++) {
			struct report_opts lo;

			if (ret || !rm->campaign.layouts.v[li])
				break;
			if (kb_layout_in_default(rm->campaign.layouts.v[li]))
				continue;
			report_opts_init(&lo);
			lo.layout = rm->campaign.layouts.v[li];
			fputc('\n', m);
			ret = report_render(m, rm, fmts[i], &lo);
		}
		fclose(m);
		if (!ret)
			ret = kb_write_atomic_opt(paths[i], text, len,
						 KB_WRITE_NOSYNC);
		if (!ret && print && i == 0)
			fwrite(text, 1, len, stdout);
		free(text);
	}
out:
	kb_rmodel__delete(rm);
	free(rpath);
	free(tpath);
	free(mpath);
	free(ppath);
	return ret;
}

/* nothing to compare: one configuration, at most one counted run a job */
enum campaign_plots campaign_plots_for(const struct kb_plan *plan,
				       size_t njobs, int plot_png)
{
	size_t *counted, i, j;
	int compare = plan->nconfigs > 1;

	if (plot_png)
		return CAMPAIGN_PLOTS_SVG_PNG;
	counted = kb_xcalloc(njobs + 1, sizeof(*counted));
	for (i = 0; i < plan->nruns && !compare; i++) {
		const struct kb_run *r = &plan->runs[i];

		if (r->warmup || r->extra != KB_RUN_COUNTED)
			continue;
		j = r->job < njobs ? r->job : njobs;
		compare = ++counted[j] > 1;
	}
	free(counted);
	return compare ? CAMPAIGN_PLOTS_SVG : CAMPAIGN_PLOTS_NONE;
}

/* 1 when results.json and the reports are newer than state.json (the
 * last recorded run), so a resume with nothing to do need not redo them */
int campaign_reports_current(const char *dir)
{
	static const char *const names[] = { "results.json", "report.txt",
					     "report.md", NULL };
	const char *const *n;
	char *sp = kb_path_join(dir, "state.json");
	struct stat st, rs;
	int current = stat(sp, &st) == 0;

	for (n = names; current && *n; n++) {
		char *p = kb_path_join(dir, *n);

		current = stat(p, &rs) == 0 &&
			  (rs.st_mtim.tv_sec > st.st_mtim.tv_sec ||
			   (rs.st_mtim.tv_sec == st.st_mtim.tv_sec &&
			    rs.st_mtim.tv_nsec >= st.st_mtim.tv_nsec));
		free(p);
	}
	free(sp);
	return current;
}
