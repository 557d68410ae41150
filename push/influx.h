/* push/influx.h - a campaign's runs as InfluxDB line protocol.
 *
 * Format: InfluxDB line protocol (InfluxDB 1.x docs, "Line protocol
 * reference"; identical in 2.x, "Line protocol"):
 *   MEASUREMENT,TAG=V,TAG=V FIELD=VALUE,FIELD=VALUE TIMESTAMP_NS\n
 * Measurement names escape ',' and ' '; tag keys, tag values and field
 * keys escape ',', '=' and ' ' with a backslash.  Timestamps are integer
 * nanoseconds since the Unix epoch (the default precision of /write and
 * /api/v2/write), or whole microseconds, milliseconds or seconds when the
 * URL says precision=u (us), ms or s: the server reads the number in that
 * unit.  precision=m and h are refused: the iterations of one
 * configuration are seconds apart, so they would get the same timestamp
 * and overwrite each other (one point per series and time).
 *
 * The layout kbench writes (one point per counted, ok run; the values
 * come from results_points_load(), results/points.h):
 *   measurement  the job name                       randread-4k
 *   tags         campaign   the campaign directory's basename
 *                configuration  the configuration id  running,NM=0
 *                variant    the variant name         running
 *                release    the variant's release, else the kernel the
 *                           campaign started on (environment)
 *                host       environment.hostname
 *                one tag per tunable label, its value  NM=0
 *                (a label equal to a reserved tag name gets "tunable_")
 *   fields       every measured metric, by its kbench name, as a float
 *                (read.iops=106186.56,...); iteration as an integer
 *   timestamp    the run's start: run.json start_unix_ns, or for runs
 *                recorded before that existed, state.json "finished"
 *                minus run.json elapsed_s (whole seconds)
 * Warm-up and failed runs, and metrics that were not measured (absent or
 * null), are not written.  Pushing the same campaign again writes the
 * same series and timestamps, so InfluxDB overwrites instead of adding.
 */
#ifndef KB_PUSH_INFLUX_H
#define KB_PUSH_INFLUX_H

#include "results/points.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The nanoseconds in one unit of an InfluxDB precision= value: n and ns
 * 1, u and us 1000, ms 1000000, s 1000000000.  0; -ERANGE for m and h
 * (see above); -EINVAL for anything else. */
int influx_precision(const char *name, int64_t *ns_per_unit);

/* Write points (results/points.h: what each tag and field is taken
 * from) to out, one line each, newline-terminated, in the layout above,
 * with timestamps in units of ns_per_unit nanoseconds (influx_precision();
 * 1 = ns).  *npoints (may be NULL) gets the count.  Returns 0, or -EIO
 * when out fails. */
int influx_format(FILE *out, const struct results_points *points,
		  int64_t ns_per_unit, size_t *npoints);

#endif
