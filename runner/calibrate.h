/* runner/calibrate.h - `kbench calibrate`: an A/A campaign of the
 * baseline configuration, and its use by `kbench plan` and
 * `iterations = auto` (kernels.conf `calibration = FILE`).
 *
 * The A/A campaign is an ordinary campaign (runner/campaign_run.h) made
 * from kernels.conf: its [global] settings, without the keys that shape
 * the matrix or the run count (iterations, min_iterations,
 * max_iterations, target_ci_pct, baseline, order, seed, profiles,
 * push, calibration, every tunable and sweep), then iterations = ROUNDS,
 * order = interleave, the job files' directory, each tunable and sweep
 * with the baseline's value only, and the baseline's variant section
 * twice, as [copy1] and [copy2]: two identical configurations
 * (copy1,... the baseline, copy2,... compared with it), each run once a
 * round, positions rotating (order = interleave), disturbed rounds
 * retried as kernels.conf says (retry_disturbed).  With method = vm or
 * kexec a round is one boot of each copy.
 *
 * Files: DIR/aa.conf (that text), DIR/aa/ (the campaign, resumed when
 * calibrate runs again with the same kernels.conf and rounds),
 * DIR/calibration.json (results/calibration.h).
 */
#ifndef KB_RUNNER_CALIBRATE_H
#define KB_RUNNER_CALIBRATE_H

#include "parsers/kconf.h"
#include "results/calibration.h"
#include "runner/plan.h"

#define KB_CALIB_DEFAULT_ROUNDS 10

/* The A/A kernels.conf text for cfg (loaded from its file, plan built
 * from it) with rounds timed rounds; malloc'd, or NULL with a message
 * when cfg's file cannot be read. */
char *calibrate_conf_text(const struct kb_config *cfg,
			  const struct kb_plan *plan, unsigned rounds);

/* Run (or resume) the A/A campaign of conf in dir with rounds rounds,
 * compute the calibration (stats/calibrate.h) into *cal and write
 * dir/calibration.json.  Returns 0; 1 on an error (message printed);
 * 130 when interrupted (run again to resume). */
int calibrate_run(const char *conf, const char *dir, unsigned rounds,
		  struct kb_calibration *cal);

/* Only the campaign's own jobs, and with kernels.conf target_metrics
 * only the metrics it names, decide when iterations = auto stops
 * (runner/adaptive.h), so only they decide the rounds a calibration
 * asks for: cal->analysis, rounds_max_mde and rounds_min_effect become
 * the most over those (job, metric)s (kb_calibrate_totals(), stats/
 * calibrate.h), and cal->totals_targeted 1 when target_metrics named
 * some.  Returns how many target_metrics covered: 0 without it, or, with
 * a warning, when it names none of the calibration's for these jobs
 * (then the most over the jobs' every metric). */
size_t calibrate_target(const struct kb_config *cfg,
			struct kb_calibration *cal);

/* When cfg has calibration = FILE: read it into *cal (zeroed first)
 * and, for iterations = auto, start at its rounds for an MDE within
 * max_mde (rounds_max_mde over the targeted metrics,
 * calibrate_target(), kept within min_iterations .. max_iterations):
 * cfg->iterations is set to that.  Returns 1 when a
 * calibration was read, 0 when cfg has none, -errno with a message
 * naming kernels.conf's line when the file cannot be used. */
int calibrate_apply(struct kb_config *cfg, struct kb_calibration *cal);

/* A round count of the calibration for people: "12", or "more than
 * 1000" for 0 (above KB_CALIB_MAX_ROUNDS); buf of len bytes. */
const char *calibrate_rounds_str(unsigned n, char *buf, size_t len);

#endif
