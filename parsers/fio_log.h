/* parsers/fio_log.h - fio's per-job logs (write_iops_log, write_bw_log,
 * write_lat_log) -> totals per time window.
 *
 * Format: fio HOWTO, section "Log File Formats": one sample per line,
 * "time (ms), value, data direction, block size, offset" (newer fio adds
 * a priority column; only the first two are used here).  IOPS values are
 * I/Os per second, bw values KiB/s, latency values ns (usec before fio 3).
 *
 * fio writes one log per job, name_KIND.N.log (N = job number), even with
 * group_reporting=1 (../shared/cases/B13).  The logs of one kind are
 * combined per time window: window = round(time_ms / log_avg_msec), so
 * samples at 1000 ms and 1003 ms fall into the same window (timestamps
 * need not be identical across files).  iops and bw: the window's total
 * is the sum over the files (and over the directions of one file);
 * lat/clat/slat: the mean over the files of each file's mean in the
 * window (a log of every I/O has many).  A window missing from some
 * files is totalled from the files present, with a warning (the first
 * 5 windows of each file one by one, then their count).
 *
 * An iops or bw log (or one of no known kind) with a sample of one
 * direction less than 3/4 of a window after the one before it, or in
 * the same window, is refused (an averaged log read with a wider window:
 * its rates would be added up), each direction's last sample excepted
 * (fio's partial window at the job's end); but an IOPS log whose values are all
 * 1 is a log of every I/O (fio without log_avg_msec: one line per I/O),
 * and its window totals are counts x 1000 / avg_msec, I/Os per second.
 * A log of every I/O (that one, or a latency log whose lines come that
 * close) is windowed by its lines' times, window k = [(k-1)W, kW)
 * (floor(time_ms / avg_msec) + 1), and its last window, which ends with
 * the job, is left out with a warning when its last line is more than
 * 5% of a window before its end (a 1-s job's last I/O at 1008 ms made a
 * window of one I/O); the windows without I/O inside its span are 0;
 * a span of more than 1,000,000 windows is refused (a wider window is
 * asked for).
 * Times that start again within one file (fio's per_job_logs=0 writes
 * the jobs' logs one after the other in one file) begin a segment of
 * their own, summed with the others as another job's.  A window no
 * file has between two that some have is left out of the mean, said; an
 * averaged latency log of reads and writes is said to hold the mean of
 * the directions' means (fio writes no I/O counts).
 *
 * Input may also be `tail -n +1 FILE...` output: "==> NAME <==" header
 * lines start a new file. */
#ifndef KB_FIO_LOG_H
#define KB_FIO_LOG_H

#include <stddef.h>
#include <jansson.h>

struct fio_log_input {
	const char *name;	/* file name, for messages and the kind */
	const char *buf;
	size_t len;
};

/* The kind of a fio log from its name (".../job_iops.1.log" -> "iops",
 * also without ".N"): 1 and the kind in kind[n], else 0. */
int fio_log_name_kind(const char *path, char *kind, size_t n);

/* 1 when the file is a fio log: its name says so, or its content starts
 * with a "==> NAME <==" header or a "T, V, D, B" sample line. */
int fio_log_detect(const char *path, const char *buf, size_t len);

/* Combine the logs (one kind) with windows of avg_msec (0: 1000).
 * Returns a new reference:
 *
 * { "format": "fio_log", "kind": "iops", "combine": "sum" or "mean",
 *   "avg_msec": 1000, "files": [ names ],
 *   "windows": [ { "window": 1, "time_ms": 1000, "total": 10002,
 *                  "files": 2 (files with a sample there) } ... ],
 *   "mean": mean of the window totals, "warnings": [ ... ] }
 *
 * A log without a sample among several (an empty file, a "==> NAME <=="
 * header with no line after it) is left out of "files" and the totals,
 * with a warning naming it.
 *
 * NULL with a message in err when a line is not a log sample, the kinds
 * differ, samples are closer together than the window (above; the
 * message names the file, the line and the spacing), or there is no
 * sample. */
json_t *fio_log_parse(const struct fio_log_input *in, size_t n,
		      unsigned avg_msec, char *err, size_t errlen);

#endif
