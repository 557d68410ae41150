/* results/calibration.h - calibration.json, what `kbench calibrate`
 * measured (issue 13, "Calibration and proof"), and the A/A samples it
 * is computed from.
 *
 * `kbench calibrate -o DIR` runs an A/A campaign in DIR/aa (two copies
 * of the baseline configuration per round, runner/calibrate.h) and
 * writes DIR/calibration.json (schema_version 1):
 *
 *   {"schema_version": 1, "kbench_version", "created", "conf",
 *    "baseline": "running,NM=0", "campaign": "DIR/aa",
 *    "target": "loop:256M",   (the A/A campaign's; absent: an older file)
 *    "rounds": 10, "runtime_s": 1, "alpha": 0.05,
 *    "runs": 20, "runs_disturbed": 3, "runs_superseded": 2,
 *    "analysis": "paired" | "welch-log",
 *    "rounds_max_mde": 4, "rounds_min_effect": 31,   (null: > 1000)
 *    "metrics": [{"job", "metric", "n", "copy1": [..], "copy2": [..],
 *                 "cv_pct": [c1, c2], "sd_log_ratio_pct", "sd_log_pct",
 *                 "corr", "corr_p", "analysis", "min_effect_pct",
 *                 "max_mde_pct", "rounds_max_mde",
 *                 "rounds_min_effect"}]}
 *
 * The statistics are stats/calibrate.h's; this file only moves them
 * between the campaign, the struct and the file.  kernels.conf's
 * `calibration = FILE` makes `kbench plan` print the rounds needed and
 * `iterations = auto` start there (runner/calibrate.h).
 */
#ifndef KB_RESULTS_CALIBRATION_H
#define KB_RESULTS_CALIBRATION_H

#include <stddef.h>

/* Rounds needed above this are reported as "more than" (0 in the
 * struct, null in the file). */
#define KB_CALIB_MAX_ROUNDS 1000

/* One compared (job, metric) of the A/A campaign. */
struct kb_calib_metric {
	char *job, *metric;		/* "randread-4k", "read.iops" */
	size_t n;			/* rounds where both copies counted */
	double *copy1, *copy2;		/* their values, by round, [n] */
	double min_effect_pct, max_mde_pct;	/* the campaign's, per metric */
	/* stats/calibrate.h fills the rest */
	double cv_pct[2];		/* CV of each copy, % */
	double sd_log_pct;		/* pooled sd of ln values, % */
	double sd_log_ratio_pct;	/* sd of d_r = ln(copy2_r/copy1_r), % */
	double corr;			/* Pearson r of ln copy1, ln copy2 */
	double corr_p;			/* one-sided p of r < 0 */
	const char *analysis;		/* "paired" or "welch-log" (static) */
	unsigned rounds_max_mde;	/* rounds for MDE <= max_mde; 0: more
					 * than KB_CALIB_MAX_ROUNDS */
	unsigned rounds_min_effect;	/* the same for min_effect */
};

struct kb_calibration {
	char *conf;			/* the kernels.conf calibrated */
	char *baseline;			/* its baseline configuration id */
	char *campaign;			/* the A/A campaign directory */
	char *target;			/* its target ("loop:256M",
					 * campaign.json); NULL: not recorded */
	unsigned rounds, runtime_s;
	double alpha;
	size_t runs, runs_disturbed;	/* counted runs, those disturbed */
	size_t runs_superseded;		/* runs redone (retry_disturbed) */
	struct kb_calib_metric *m;
	size_t nm;
	const char *analysis;		/* "welch-log" when any metric's is */
	unsigned rounds_max_mde, rounds_min_effect;	/* the most over the
					 * metrics; 0: more than the cap */
	int totals_targeted;		/* not in the file: 1 when the two
					 * above are over a campaign's
					 * target_metrics (runner/calibrate.h
					 * calibrate_target()) */
};

/* From the A/A campaign in dir (its results.json, written by the run):
 * for each comparison of copy2 against copy1 (the compared metrics of
 * stats/compare.h), the two copies' values by round where both counted;
 * the counted runs, disturbed ones and superseded ones; alpha, min_effect
 * and max_mde as the comparison used them.  cal->conf, baseline and
 * campaign are left to the caller.  0, or -EINVAL with a message naming
 * the file (no results.json, no comparison). */
int results_calibration_samples(const char *dir, const char *copy1,
				const char *copy2, struct kb_calibration *cal);

/* Write cal to path (atomically).  0 or -errno with a message. */
int results_calibration_write(const char *path,
			      const struct kb_calibration *cal);

/* Read path into *cal (zeroed first; the samples are read back too).  0,
 * or -EINVAL / -errno with a message naming the file, the key
 * ("metrics[2].cv_pct[1]") and what is wrong or missing: among others a
 * metric name lib/metrics.h does not know (nor a load host's
 * host.NAME.METRIC of one), a (job, metric) listed twice, an sd or CV
 * (sd_log_pct, sd_log_ratio_pct, cv_pct) that is negative or not a
 * number (null is: not computed). */
int results_calibration_read(const char *path, struct kb_calibration *cal);

void results_calibration_free(struct kb_calibration *cal);

/* What differs between the setup cal was measured on and a campaign's
 * (kernels.conf calibration = FILE used by another campaign): its jobs
 * (those of cal's metrics) against jobs[0..njobs), its target, its
 * baseline configuration id and its runtime_s.  Returns NULL when they
 * agree, else a malloc'd "; "-separated list naming each difference and
 * both values ("target loop:1G, calibrated on loop:256M"); a value cal
 * did not record (an older file) is named as not recorded.  *no_job:
 * 1 when none of jobs was calibrated (then cal's numbers say nothing
 * about this campaign). */
char *results_calibration_misfit(const struct kb_calibration *cal,
				 const char *const *jobs, size_t njobs,
				 const char *target, const char *baseline,
				 unsigned runtime_s, int *no_job);

#endif
