/* results/artefacts.h - typed access to a run's raw artefacts, so that
 * the stages above results/ (reports/plots.c's latency CDF) open no file
 * of runs/ themselves: the path comes from results/paths.h, the format
 * from the parser that knows it.
 *
 *   DIR/runs/KEY/fio.json   fio's --output-format=json+ output: its
 *                           latency bins (results_run_latency_bins())
 *
 * run.json is read through results/records.h (results_run_start_times())
 * and parsers/run_dir.h; the profiles of perf report are metrics of the
 * run (profile.ROLE.GROUP.*_pct in metrics.json), so reports/profile.c
 * reads them from the results model, never from runs/.
 */
#ifndef KB_RESULTS_ARTEFACTS_H
#define KB_RESULTS_ARTEFACTS_H

#include "parsers/lat_bins.h"

/* The json+ latency bins of the run KEY of campaign directory dir
 * (DIR/runs/KEY/fio.json, results/paths.h kb_run_file()): those of
 * direction ("read", "write", "trim" or "mixed") and latency kind
 * (KB_LAT_CLAT: completion latency, KB_LAT_TOTAL: total latency), merged
 * over the run's fio jobs, into *out (emptied first): value_ns in ns
 * whatever fio version wrote them (fio 2.x usec and histogram indexes
 * converted, parsers/fio_json.h), counts in I/Os, sorted by value_ns.
 *
 * 0 (out->n == 0 when fio wrote no such bins: no json+, or no I/O in that
 * direction); -ENOENT when the run has no fio.json (it failed before fio
 * wrote one, or the directory holds no runs/: an export), nothing
 * printed; -EINVAL for another direction name and -EBADMSG for a
 * fio.json that is not fio JSON output, each with a warning naming the
 * file and what was wrong. */
int results_run_latency_bins(const char *dir, const char *key,
			     const char *direction, enum kb_lat_kind kind,
			     struct kb_lat_bins *out);

#endif
