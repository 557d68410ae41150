/* results/points.h - a campaign's counted runs as typed points for a
 * time-series store: per run, the tags that name its series and its
 * metric name/value pairs, with its start time.  push/influx.c writes
 * them as InfluxDB line protocol (push/influx.h has that layout); this
 * header says what each value is taken from in the results model
 * (docs/results-format.md) and state.json/run.json.
 *
 * One point per run of results["runs"] (in that order) that is ok
 * (status "ok"), not a warm-up, names a configuration and a job, has a
 * start time, and has at least one measured metric:
 *   job            run.job (the InfluxDB measurement)
 *   campaign       campaign.name
 *   configuration  run.configuration (its id: "running,NM=0")
 *   variant        the configuration's variant
 *   release        the configuration's release, else the kernel the
 *                  campaign started on (campaign.environment.kernel_release)
 *   host           campaign.environment.hostname
 *   tunables       the configuration's tunables, label and value, in the
 *                  configuration's order (value NULL when not a string)
 *   iteration      run.iteration (the round index, warm-ups first)
 *   fields         every metric of run.metrics whose value is a finite
 *                  number, in the run's order, in the metric's own unit
 *   start_unix_ns  the run's start: results_run_start_times()
 *                  (results/records.h; run.json start_unix_ns, else
 *                  state.json "finished" minus elapsed_s)
 * Any string above may be NULL (not recorded).  The strings are borrowed
 * from the model, which the points keep alive until results_points_free().
 */
#ifndef KB_RESULTS_POINTS_H
#define KB_RESULTS_POINTS_H

#include <stddef.h>
#include <stdint.h>

struct json_t;	/* jansson's, for the results model (results/model.h) */

struct results_tag {
	const char *label;	/* the tunable's label in kernels.conf: "NM" */
	const char *value;	/* "0"; NULL: not a string */
};

struct results_field {
	const char *name;	/* kbench metric name: "read.iops" */
	double value;		/* finite, in the metric's unit */
};

struct results_point {
	const char *job, *campaign, *configuration, *variant, *release, *host;
	struct results_tag *tunables;
	size_t ntunables;
	long long iteration;
	struct results_field *fields;
	size_t nfields;		/* >= 1 */
	int64_t start_unix_ns;
};

struct results_points {
	struct results_point *v;
	size_t n;
	struct json_t *model;	/* owned reference: the strings' owner */
};

/* The points of results (a results model) whose start times are in times
 * (the object results_run_start_times() returns: run key -> ns); only_key
 * ("CONFIG/JOB/NNN"), if not NULL, keeps that run only.  *out is filled
 * (free with results_points_free()).  0, or -EINVAL with a message when
 * results has no "runs" array. */
int results_points_from(struct json_t *results, const struct json_t *times,
			const char *only_key, struct results_points *out);

/* The points of the campaign in dir: every run, or only_key's alone (then
 * only that run's files are read: results_load_campaign_runs()).  0, or
 * -EIO / -EINVAL with a message naming the file. */
int results_points_load(const char *dir, const char *only_key,
			struct results_points *out);

void results_points_free(struct results_points *p);

#endif
