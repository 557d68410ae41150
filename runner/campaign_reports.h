/* runner/campaign_reports.h - the reports `kbench run` leaves in a
 * campaign directory. */
#ifndef KB_CAMPAIGN_REPORTS_H
#define KB_CAMPAIGN_REPORTS_H

/* results.json (the results model with its statistics), report.txt and
 * report.md (tables, kernels.conf's layouts = ..., SVG plots under
 * DIR/plots when gnuplot is installed, PNG too with png: kernels.conf
 * plot_png); with print the text report also on stdout.  All derivable
 * from runs/, so written atomically without fsync (lib/file.h's
 * durability rule).  0 or -errno with a message. */
int campaign_write_reports(const char *dir, int print, int png);

/* 1 when results.json and both reports are newer than state.json (the
 * last recorded run): a resume with nothing to do need not redo them. */
int campaign_reports_current(const char *dir);

#endif
