/* reports/plots.h - graphs of a campaign with gnuplot (Debian package
 * gnuplot-nox; the svg and pngcairo terminals).
 *
 * Per job, into DIR, each as NAME.svg (and NAME.png when asked for:
 * `kbench report --png`, kernels.conf `plot_png = yes`; pngcairo's
 * pango/fontconfig start costs about 4x the SVG), with the data
 * (NAME.dat) and the gnuplot script (NAME.gp) that drew it kept beside
 * them so a graph can be redrawn or restyled by hand:
 *   JOB-bar         mean of the metric per configuration (summaries),
 *                   error bars = the 95% CI (Student t)
 *   JOB-iterations  every timed run's value against its iteration, one
 *                   series per configuration: drift at a glance
 *   JOB-scaling     the dimension of the scaling layout (reports/layout.h:
 *                   --cols when it names a tunable, else the first swept
 *                   job parameter, else the last tunable; drawn when it
 *                   has 2+ values): a swept job parameter with numeric
 *                   values (kernels.conf "sweep") is a scale: one line
 *                   per rest of the configuration over the values (log2
 *                   x axis when they span 4x), CI whiskers; any other
 *                   (a tunable: NM = 0 1 2) is not: clustered bars, a
 *                   cluster per rest of the configuration, a bar per value
 *   JOB-cdf         completion latency CDF per configuration from fio's
 *                   json+ histogram (the clat bins of every fio job,
 *                   results/artefacts.h results_run_latency_bins(): fio
 *                   3.x "clat_ns", fio 2.x "clat"; latency in ns ->
 *                   count), merged over the timed runs; needs
 *                   the campaign directory's runs/.../fio.json (not
 *                   drawn from a results.json export alone); for
 *                   campaigns merged into one table (kbench report A B)
 *                   one curve per configuration of each, from the
 *                   directories given (campaign.merged_from).  x: log
 *                   scale in ns, us, ms or s, the largest unit in which
 *                   the middle of the range (geometric mean of the lowest
 *                   and highest latency) is >= 1; "%g" tick labels
 * Bar and scaling graphs: y from 0 to the highest CI whisker + 15%, so
 * no whisker is clipped; a configuration whose comparison with its
 * baseline (results "comparisons", stats/compare.h; not recomputed) has a
 * significant verdict, the cells the table marks with '*', is labelled
 * with its change ("+1.23%*", the data file's last block) and the title
 * says what the labels mean.
 * Every script begins with "reset": one gnuplot draws them all, in order.
 * The metric is the first --metric, else the IOPS of the job's direction.
 * gnuplot is started from an argv array ("gnuplot NAME.gp ...", or with
 * no argument ahead of time: kb_gnuplot_start()).
 */
#ifndef KB_REPORT_PLOTS_H
#define KB_REPORT_PLOTS_H

#include "reports/report.h"
#include "lib/proc.h"

struct kb_rmodel;	/* results/rmodel.h */

/* A gnuplot started ahead of plots_write() (issue 16: its cold start,
 * 15-30 ms of CPU, off the critical path, e.g. before the runner drops
 * caches for the last run), waiting for scripts on its stdin. */
struct kb_gnuplot {
	struct kb_child child;	/* lib/proc.h: started, stdin a pipe */
	int started;
};

/* Start gnuplot with no script: it waits for "load 'SCRIPT'" commands
 * on its stdin (gnuplot 5 "load").  0; -ENOENT when gnuplot is not
 * installed (nothing printed: plots_write() says so when it draws);
 * -errno when it could not be started (message printed).  Give it to
 * plots_write(), or end it with kb_gnuplot_discard(). */
int kb_gnuplot_start(struct kb_gnuplot *g);

/* End a started gnuplot that drew nothing (its stdin closed, waited
 * for); nothing for NULL or one not started. */
void kb_gnuplot_discard(struct kb_gnuplot *g);

/* "JOB-KIND.EXT", the job name with characters outside [A-Za-z0-9._-]
 * written as '_' (malloc'd). */
char *plots_file_name(const char *job, const char *kind, const char *ext);

/* Draw the plots of the typed results model m (results/rmodel.h) into
 * dir (created).  m is read, never changed: its campaign metadata
 * (m->campaign: jobs, configurations and their tunables, tunables and
 * sweep, merged_names / merged_from), the counted runs and their values
 * (the run x metric matrix) and what stats computed (m->analysis:
 * summaries' mean and CI, comparisons' verdict and change_pct: filled
 * by stats, or read back with the model by kb_rmodel__new() from an
 * analysed results tree).
 * campaign_dir: where runs/ lies, for the CDF; NULL: no CDF, unless
 * m is merged from several campaigns (each one's directory, as
 * results/model.h records it).  png: non-zero draws NAME.png after each
 * NAME.svg.  The .dat and .gp files are written without fsync
 * (derivable: lib/file.h).  Returns
 * the number of graphs drawn (>= 0), or -ENOENT (gnuplot not installed:
 * message says which package), -EINVAL (a directory name gnuplot cannot
 * quote), -EIO (gnuplot failed: message names the script).
 * gp: a gnuplot started by kb_gnuplot_start(), which then draws the
 * scripts ("load" on its stdin, in the same order) and is ended here
 * whatever happens (waited for); NULL or not started: one is started
 * with the scripts as arguments ("gnuplot NAME.gp ...").  The scripts
 * and data are the same either way. */
int plots_write(const struct kb_rmodel *m, const char *dir,
		const char *campaign_dir, const struct report_opts *opts,
		int png, struct kb_gnuplot *gp);

#endif
