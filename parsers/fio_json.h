/* parsers/fio_json.h - fio JSON / JSON+ output -> kbench metrics.
 *
 * Formats read (source: fio HOWTO/fio.1 "JSON output" and "JSON+ output",
 * and fio's stat.c show_thread_status_json()/add_ddir_status_json()):
 *
 *  - fio 2.x: latency blocks "slat"/"clat"/"lat" in microseconds, without
 *    "N" (old files also without total_ios); fio <= 2.20 writes "io_bytes"
 *    in KiB.
 *  - fio 3.x: "slat_ns"/"clat_ns"/"lat_ns" in nanoseconds with "N";
 *    "io_bytes" in bytes.  JSON "bw" is KiB/s in every version, "iops" is
 *    a JSON integer before fio 2.2.6 and a real afterwards (both read).
 *  - json+: "clat_ns"."bins" (fio 3.x, keys = latency in ns) or
 *    "clat"."bins" (fio 2.x; keys = latency in usec, or before 2.20 the
 *    histogram index plus FIO_IO_U_PLAT_BITS/VAL/NR keys, converted with
 *    fio's plat_idx_to_val()).
 *  - fio --client: "client_stats" instead of "jobs"; the "All clients"
 *    aggregate entry is left out (the per-client entries are summed).
 *  - unified_rw_reporting: a "mixed" direction.
 *
 * The input may carry text around the JSON: fio notes/errors before it
 * ("fio: ..." lines, a shell prompt glued as ">{"), normal output after it
 * (--output-format=json,normal), and several concatenated documents
 * (--status-interval): the documents are read as a stream and the LAST one
 * is the final report.  Duplicate keys are accepted (the last one wins).
 *
 * Each document is read first by one streaming pass (libyajl,
 * parsers/fio_json_stream.h) that makes the jansson tree json_loadb()
 * would make, except that the json+ "bins" pairs go into compact arrays
 * (16 bytes a bin instead of about 120 in a tree); when that pass fails
 * (invalid JSON, or anything jansson might read differently), jansson
 * reads the document as before, then the lenient reading below.  Peak
 * memory on a big json+ file read by fio_parse_file*(): its bins, the
 * tree of the rest (each job entry released once parsed) and the
 * results, the file itself being read in chunks (see there).
 *
 * fio escapes only '\\' and '"' in its strings (json.c strdup_escape()),
 * so a job option holding a TAB or bytes that are not UTF-8 makes the
 * document invalid JSON (../shared/cases/B36).  Only when the strict parse
 * of a document fails inside a string (or on bytes that are not UTF-8, or
 * on \u0000), it is read again leniently: raw control characters
 * (0x00-0x1F) inside strings escaped, bytes that are not UTF-8 replaced
 * by U+FFFD, with one warning per string naming the characters, the line
 * and the key ("fio wrote an unescaped control character (TAB) in a
 * string at line 14 (job option 'description'); read leniently").
 *
 * What fio reports is checked (never silently): an impossible value
 * (negative, or a wrapped unsigned counter) drops its metric with a
 * warning naming it, as do percentiles that decrease with p, and a
 * value of the wrong type ("read": 5, a percentile "4000"), the warning
 * naming the job and the key; a job without the block of a direction
 * its rw option does ("randrw" and no "read"), or with no direction
 * block, is said the same way.  Latency bucket shares (latency_ns/us/ms)
 * that do not sum to 100% +- 1, and a steady-state job ("steadystate"
 * with "attained": 0), are flagged.
 */
#ifndef KB_FIO_JSON_H
#define KB_FIO_JSON_H

#include <stddef.h>
#include <jansson.h>

#include "parsers/lat_bins.h"

/* Parse fio output held in buf (len bytes, need not be NUL-terminated);
 * name is used in messages and as "file".  Returns a new reference:
 *
 * { "file": name, "fio_version": "fio-3.33" or null,
 *   "documents": number of fio JSON documents seen (the last is used),
 *   "work": "time" (a job has time_based), "fixed" (no job has it and
 *           every job gives size, io_size/io_limit or number_ios: fixed
 *           work, rates are work over time) or null (the options do not
 *           say; fio 3.33 leaves a bare time_based flag out of them),
 *   "jobs": [ { "name", "hostname" (client/server only), "rw" (job
 *               options, else global options, else null), "groupid",
 *               "error", "elapsed_s" (or null), "usr_cpu_pct",
 *               "sys_cpu_pct",
 *               "read"/"write"/"trim"/"mixed": only directions with I/O:
 *                 { "iops", "bw_kib" (KiB/s), "io_bytes" (true bytes),
 *                   "total_ios", "runtime_ms", "clat_mean_ns",
 *                   "clat_p50_ns", "clat_p99_ns", "clat_p999_ns",
 *                   "lat_mean_ns", "lat_p50_ns", "lat_p99_ns",
 *                   "lat_p999_ns", "slat_mean_ns" } - a key is absent
 *                 when fio did not measure it } ... ],
 *   "metrics": { lib/metrics.h names: "read.iops", "write.bw_kib",
 *                "read.clat_mean_ns", "read.clat_p99_ns",
 *                "read.lat_mean_ns", "read.slat_mean_ns" (async
 *                engines only), ..., "fio.usr_cpu_pct",
 *                "fio.sys_cpu_pct", "fio.total_ios" (the I/Os fio
 *                issued, reads + writes + trims of every job: see
 *                fio_json.c total_ios_metric()), "disk.util_pct" (fio's
 *                disk_util: see fio_json.c disk_util_metric()); with
 *                unified_rw_reporting also "mixed.*" (not in the metric
 *                table) },
 *   "unavailable": { metric: why it is not in "metrics" }: today
 *                "disk.util_pct": "disk_util not reported by fio" when
 *                the document has none (B05: null, not 0%, not an
 *                error),
 *   "warnings": [ "non-JSON preamble line 1: 'fio: ...'", ... ],
 *   "flags": [ reasons to doubt the run, e.g. "clat_ns.min = 0",
 *              "steady state not attained: job 'x' (...)" ],
 *   "suspect": "page_cache" and "message": FIO_PAGE_CACHE_MESSAGE, only
 *              when the reads likely measured the page cache,
 *   "error": first non-zero job error, or 0 }
 *
 * Metrics: IOPS and KiB/s are sums over the jobs; mean latencies are
 * means weighted by I/O count (clat/lat "N", else total_ios, else
 * iops * runtime); percentiles come from the job's own map when one job
 * contributes, from the merged json+ bins when several do (fio's rule:
 * the first bin whose cumulative count reaches p% of all samples), and
 * are absent, with a warning, when several jobs contribute and one lacks
 * bins.  Percentiles are kept per latency kind: clat_p* from the clat
 * block, lat_p* from the lat block (lat_percentiles=1, ../shared/cases/
 * B38: then clat_p* are absent and a warning says the percentiles are for
 * total latency).  fio.*_cpu_pct are means over the jobs.  A direction with no I/O
 * (total_ios == 0, else clat N == 0, else io_bytes == 0) gives no metrics.
 * Latencies are in ns, bandwidth in KiB/s.
 *
 * On failure returns NULL and writes to err (errlen bytes) a message that
 * starts with name and says what was wrong: no JSON document, fio
 * normal/terse text output, or invalid/truncated JSON (with its line). */
json_t *fio_parse_buf(const char *name, const char *buf, size_t len,
		      char *err, size_t errlen);

/* The reading's work, counted for tests that check it stays linear in
 * the input (a '{' every few bytes, each a candidate document start). */
struct fio_parse_work {
	unsigned long long strict_reads;	/* candidates read by the
						 * streaming pass or jansson */
	unsigned long long lenient_reads;	/* candidates read leniently
						 * (after a strict failure
						 * the lenient copy may fix) */
	unsigned long long bytes;	/* bytes those reads went through */
};

/* What fio_parse_*_opts() knows beyond the file. */
struct fio_parse_opts {
	unsigned long long ram_bytes;	/* RAM of the machine fio ran on
					 * (MemTotal), 0 = unknown */
	const char *side_text;	/* fio's stderr (NUL-terminated), or NULL */
	const char *side_name;	/* its name in flags, e.g. "fio.stderr" */
	int dom_only;		/* 1: every document read by jansson's
				 * json_loadb() alone, without the streaming
				 * pass (the reference the tests compare it
				 * with; about 3x the memory on json+) */
	/* When bins_out is set: the json+ bins of direction bins_direction
	 * ("read", "write", "trim", "mixed") and latency kind bins_kind,
	 * merged over the document's jobs (those of jobs without I/O in
	 * that direction too), added to *bins_out (parsers/lat_bins.h;
	 * nothing added for another direction name).  Read on the way,
	 * without a second parse; the result is unchanged. */
	struct kb_lat_bins *bins_out;
	const char *bins_direction;
	enum kb_lat_kind bins_kind;
	/* When not NULL, fio_parse_buf_opts() adds its work to *work (not
	 * the chunked reading of fio_parse_file_opts()). */
	struct fio_parse_work *work;
	/* fio_parse_file_opts() only: */
	size_t read_chunk_bytes;	/* bytes per read() of a regular file
					 * read in chunks; 0: FIO_READ_CHUNK_BYTES
					 * (tests use a few bytes, so documents
					 * and lines span chunks) */
	int *read_whole;	/* when not NULL, set to 0: the file was read
				 * in chunks, 1: read whole (dom_only, not a
				 * regular file, or the chunked reading gave
				 * way to fio_parse_buf_opts()) */
	/* When head is not NULL, *head is set to the file's first bytes as
	 * read, at most head_max (fewer for a shorter file), NUL-terminated
	 * (a NUL byte in them ends the text), malloc'd: the caller frees
	 * it; NULL when the file was not read (cannot be opened or read,
	 * larger than FIO_MAX_OUTPUT_BYTES).  For what fio writes before
	 * its report ("fio: terminating on signal N", parsers/run_dir.c)
	 * without reading the file again. */
	char **head;
	size_t head_max;
};

/* The message of a run flagged "suspect": "page_cache" (../shared/cases/
 * B30).  Such a run is flagged when it read without direct=1 (nor
 * buffered=0) on an engine that uses the page cache and shows at least
 * one sign of the cache: fio could not invalidate it (a "cache
 * invalidation of ... failed" line in the file or in side_text), a read
 * clat min of 0, or a working set (size x numjobs) smaller than
 * ram_bytes.  "flags" then lists "direct=1 not set (buffered I/O)" and
 * each sign seen. */
#define FIO_PAGE_CACHE_MESSAGE "results likely measure the page cache, " \
	"not the device: use direct=1 (or size >> RAM) and make sure " \
	"cache invalidation succeeds"

/* fio_parse_buf() with o (NULL: nothing known beyond the file). */
json_t *fio_parse_buf_opts(const char *name, const char *buf, size_t len,
			   const struct fio_parse_opts *o, char *err,
			   size_t errlen);

/* Read path and fio_parse_buf() it (name = path): the same result and
 * errors.  NULL on failure with err filled (including "PATH: cannot
 * read: <strerror>").  A regular file is read in chunks of
 * FIO_READ_CHUNK_BYTES, each document fed to the streaming pass as it
 * comes, so the file is never whole in memory: peak memory on a json+
 * file is the tree of its non-bin part (1.3x the file), its bins (0.45x)
 * and the program, about 2x the file in all (bench/bench.sh
 * parse.rss_x_file: 1.98 on its 50 MiB file).  A file the streaming
 * pass cannot read through (invalid JSON, text the lenient reading
 * fixes, no fio document, anything fio_stream_safe() rules out) is read
 * again, whole, by fio_parse_buf_opts(). */
/* Files larger than this are refused without being read. */
#define FIO_MAX_OUTPUT_BYTES (1024 << 20)
/* Bytes per read() of a file read in chunks. */
#define FIO_READ_CHUNK_BYTES (1 << 20)

json_t *fio_parse_file(const char *path, char *err, size_t errlen);
json_t *fio_parse_file_opts(const char *path, const struct fio_parse_opts *o,
			    char *err, size_t errlen);

/* Returns 0 when no job of a fio_parse_*() result reported an error, else
 * the first failing job's fio error code (an errno value, > 0) and a
 * message in msg such as
 * "fio job 'test' failed: error=5 (Input/output error)"
 * (plus "; N more jobs failed" when several did).  msg may be NULL. */
int fio_result_error(const json_t *parsed, char *msg, size_t msglen);

/* A value fio cannot mean: negative, or the wrap-around of an unsigned
 * 64-bit counter (fio's fields are uint64_t; 2^63 ns is 292 years).  The
 * one rule of both parsers: JSON here, terse (parsers/fio_terse.c). */
int fio_value_impossible(double v);

#endif
