/* parsers/fio_terse.h - fio terse (--minimal, --output-format=terse)
 * version 3 output -> kbench metrics.
 *
 * Field layout: fio HOWTO, section "Terse output" (and fio's stat.c
 * show_thread_status_terse_all()).  One line per job (or group, with
 * group_reporting), fields separated by ';', numbered from 1:
 *
 *   1 terse version ("3")   2 fio version   3 jobname   4 groupid  5 error
 *   read:   6 io KiB  7 bw KiB/s  8 iops  9 runtime ms
 *          10-13 slat min/max/mean/dev (usec)
 *          14-17 clat min/max/mean/dev (usec)
 *          18-37 clat percentiles, "P%=V" (V in usec; unused slots are
 *                written as "0%=0" padding and skipped)
 *          38-41 lat min/max/mean/dev (usec)
 *          42-46 bw min/max/agg%/mean/dev (KiB/s)
 *   write: 47-87, the same 41 fields
 *   88 usr cpu%  89 sys cpu%  90 ctx switches  91 major faults  92 minor
 *   93-99 IO depth distribution, 100-109 latency usec buckets, 110-121
 *   latency msec buckets.
 *
 * Fields 1..121 are fixed for v3.  After them come 9-field disk
 * records (name; read ios; write ios; read merges; write merges; read
 * ticks; write ticks; time in queue; util%); a record whose name is the
 * literal "slaves" is the aggregate of the members of the md/dm device
 * of the record before it.  Then, optionally, 2 fields (continue_on_error:
 * total errors; first error) and 1 field (the job description).  Any
 * other field count is an error: "unexpected terse v3 field count N".
 */
#ifndef KB_FIO_TERSE_H
#define KB_FIO_TERSE_H

#include <stddef.h>
#include <jansson.h>

/* Number of fixed fields of a terse v3 line. */
#define FIO_TERSE_V3_FIELDS 121

/* 1 when buf (len bytes) looks like terse output: after a UTF-8 byte
 * order mark, blank lines and lines of other text (fio's "fio: ..."
 * notes, fio --client's "<host> ..." lines), a line starts with "3;"
 * (or another terse version, "N;fio-") before any line starting '{'. */
int fio_terse_detect(const char *buf, size_t len);

/* Parse one terse v3 line (len bytes, no newline needed); name and lineno
 * are used in messages.  Returns a new reference with the shape
 * fio_parse_buf() gives for one job (parsers/fio_json.h): "file", "line",
 * "format": "terse", "terse_version", "fields", "fio_version",
 * "jobs": [ { "name", "groupid", "error", "usr_cpu_pct", "sys_cpu_pct",
 * "read"/"write" (directions with I/O: "iops", "bw_kib", "io_bytes",
 * "runtime_ms", "clat_mean_ns", "clat_p50_ns", "clat_p99_ns",
 * "clat_p999_ns", "lat_mean_ns", "slat_mean_ns") } ], "metrics",
 * "disks": [ { "name", "read_ios", "write_ios", "read_merges",
 * "write_merges", "read_ticks", "write_ticks", "in_queue", "util_pct",
 * "slaves": {the same counters, for an md/dm device} } ] (and in
 * "metrics" disk.read_ios, disk.write_ios, disk.ios, disk.*merges summed
 * over the disks, or over the md/dm devices when there are any),
 * "total_errors"/"first_error" (continue_on_error), "description",
 * "warnings", "error".  NULL with a message in err on failure. */
json_t *fio_terse_parse_line(const char *line, size_t len, const char *name,
			     int lineno, char *err, size_t errlen);

/* Parse every terse line (one starting "N;") of buf: a JSON array of
 * the objects above, one per line.  A UTF-8 byte order mark and blank
 * lines are skipped; so are other lines (fio's notes), each with a
 * warning naming it in the next terse line's "warnings" (those after
 * the last, in the last's).  NULL with err naming the file and line on
 * the first line that cannot be parsed, also a last line without a
 * newline whose last field is not a percentage ending in '%' (cut:
 * fio ends every line with a newline, and its fields 121 and disk
 * utilisations with '%'). */
json_t *fio_terse_parse_buf(const char *buf, size_t len, const char *name,
			    char *err, size_t errlen);

#endif
