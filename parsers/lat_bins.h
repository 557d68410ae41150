/* parsers/lat_bins.h - a latency distribution as fio's json+ output gives
 * it: bins of (latency in ns, number of I/Os), and the reader of one fio
 * output file's bins.
 *
 * fio --output-format=json+ writes, under each job direction's latency
 * block, "bins": { LATENCY: COUNT, ... } (fio HOWTO "JSON+ output"; fio
 * 3.x "clat_ns"/"lat_ns" keyed in ns, fio 2.x "clat"/"lat" keyed in usec
 * or, before 2.20, by histogram index).  parsers/fio_json.h reads every
 * form and converts the keys to ns; this header is what it hands out, so
 * that readers of bins (results/artefacts.h, the latency CDF of
 * reports/plots.c) need neither jansson nor fio's formats.
 */
#ifndef KB_LAT_BINS_H
#define KB_LAT_BINS_H

#include <stddef.h>

/* The latency kinds fio writes bins for: completion latency ("clat",
 * fio's default clat_percentiles=1) and total latency ("lat",
 * lat_percentiles=1: then fio writes the bins under "lat_ns"). */
enum kb_lat_kind {
	KB_LAT_CLAT,
	KB_LAT_TOTAL,
};

/* One bin: value_ns, the latency fio files the I/Os under (ns), and
 * count, the number of I/Os (a whole number, kept as fio's JSON number). */
struct kb_lat_bin {
	double value_ns;
	double count;
};

/* A distribution: n bins sorted by value_ns, each value once, every
 * count > 0 (bins fio wrote with 0 left out).  Zero-initialise (an empty
 * distribution); bin is malloc'd, kb_lat_bins_free(). */
struct kb_lat_bins {
	struct kb_lat_bin *bin;
	size_t n;
};

/* Add the n bins of add (sorted by value_ns; counts of equal values are
 * summed) to to, which stays sorted with each value once: the
 * distribution of both sets of I/Os.  Bins with count <= 0 are left
 * out. */
void kb_lat_bins_add(struct kb_lat_bins *to, const struct kb_lat_bin *add,
		     size_t n);

/* The number of I/Os of b: the sum of its counts. */
double kb_lat_bins_total(const struct kb_lat_bins *b);

/* Free b's bins; b is empty afterwards. */
void kb_lat_bins_free(struct kb_lat_bins *b);

/* The json+ bins of fio output file path (what parsers/fio_json.h reads:
 * fio 2.x or 3.x, JSON or json+, with text around it, the last of several
 * documents, --client's per-client entries): those of direction
 * ("read", "write", "trim" or "mixed") and latency kind, merged over the
 * document's jobs, into *out (emptied first).  A job that did no I/O in
 * that direction but wrote bins still adds them.
 *
 * 0 (out->n == 0 when the file has no such bins: fio run without
 * --output-format=json+, or no I/O in that direction); -ENOENT when path
 * does not exist; -EINVAL for an unknown direction and -EBADMSG when the
 * file is not fio JSON output, with err (errlen bytes) naming the file
 * and what was wrong (fio_json.h's messages). */
int fio_lat_bins_file(const char *path, const char *direction,
		      enum kb_lat_kind kind, struct kb_lat_bins *out,
		      char *err, size_t errlen);

#endif
