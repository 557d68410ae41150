/* runner/campaign_reports.h - the reports `kbench run` leaves in a
 * campaign directory. */
#ifndef KB_CAMPAIGN_REPORTS_H
#define KB_CAMPAIGN_REPORTS_H

#include "runner/plan.h"

/* The graphs campaign_write_reports() draws into DIR/plots. */
enum campaign_plots {
	CAMPAIGN_PLOTS_NONE,	/* none; report.md links no graph */
	CAMPAIGN_PLOTS_SVG,	/* NAME.svg (the default) */
	CAMPAIGN_PLOTS_SVG_PNG,	/* and NAME.png (kernels.conf plot_png = yes) */
};

/* The graphs the runner draws for a campaign of plan (issue 16):
 * CAMPAIGN_PLOTS_NONE when there is nothing to compare, i.e. one
 * configuration and at most one counted run (not a warm-up, not a
 * profiling run) per job, so the bar and iterations graphs would hold
 * one bar and one point, and gnuplot's start (15-30 ms of CPU, 100-400
 * ms of wall after the cache drop: half of a one-run campaign's cost
 * beyond fio) would buy nothing; `kbench report --plots` draws them on
 * request.  plot_png (kernels.conf plot_png = yes) asks for the graphs
 * explicitly: CAMPAIGN_PLOTS_SVG_PNG whatever the plan.  Otherwise
 * CAMPAIGN_PLOTS_SVG. */
enum campaign_plots campaign_plots_for(const struct kb_plan *plan,
				       size_t njobs, int plot_png);

/* results.json (the results model with its statistics), report.txt and
 * report.md (tables, kernels.conf's layouts = ..., the plots asked for
 * under DIR/plots when gnuplot is installed, linked from report.md);
 * with print the text report also on stdout.  All derivable from runs/,
 * so written atomically without fsync (lib/file.h's durability rule).
 * 0 or -errno with a message. */
int campaign_write_reports(const char *dir, int print,
			   enum campaign_plots plots);

/* 1 when results.json and both reports are newer than state.json (the
 * last recorded run): a resume with nothing to do need not redo them. */
int campaign_reports_current(const char *dir);

#endif
