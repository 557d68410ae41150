/* runner/campaign.h - a campaign directory: campaign.json, state.json,
 * the snapshot of kernels.conf and the job files (docs/results-format.md).
 */
#ifndef KB_CAMPAIGN_H
#define KB_CAMPAIGN_H

#include "parsers/kconf.h"
#include "runner/quiet.h"
#include "results/campaign_json.h"
#include "results/state.h"
#include "runner/plan.h"

struct kb_campaign {
	char *dir;
	char *conf_path;	/* DIR/kernels.conf (the snapshot) */
	struct kb_config cfg;	/* parsed from the snapshot */
	struct kb_plan plan;
	struct kb_state state;	/* state.json (results/state.h) */
	int resumed;		/* 1 when DIR already held a campaign */
	char *calibration_analysis;	/* a new campaign with calibration =
					 * (runner/calibrate.h): its analysis,
					 * "paired" or "welch-log", recorded in
					 * campaign.json's campaign.calibration;
					 * NULL: none */
	unsigned shard_k, shard_n;	/* --shard K/N (runner/plan.h); 0 0:
					 * the whole campaign */
	/* the limits the last retry_disturbed_round() that superseded a
	 * unit judged with, for retry_wait_quiet() (runner/retry.h) */
	struct kb_quiet_limits retry_quiet;
};

/* Open DIR: resume it when DIR/campaign.json exists (conf_path, if not
 * NULL, must then have the same text as the snapshot), else create it
 * from conf_path (snapshot kernels.conf and profiles/JOB.fio, write
 * campaign.json).  0 or -errno with a message. */
int campaign_open(struct kb_campaign *c, const char *dir,
		  const char *conf_path, int conf_explicit);

/* campaign_open() for shard k of n (`kbench run --shard K/N`; k = n = 0:
 * none asked).  A new DIR records the shard in campaign.json ("shard":
 * {"k", "n", "iterations", "rule", "conf_sha256"}) and plans only its
 * runs; a resumed DIR keeps the shard it recorded (then k/n, when given,
 * must be that one, and a DIR holding an unsplit campaign refuses a
 * shard).  0 or -errno with a message. */
int campaign_open_shard(struct kb_campaign *c, const char *dir,
			const char *conf_path, int conf_explicit, unsigned k,
			unsigned n);

/* For `kbench guest` inside a vm variant's boot: open the existing
 * campaign in DIR as planned (campaign.json's shard, the snapshot
 * kernels.conf, the plan) without the host's work: no validation or
 * repair of the run directories (the host did it before the boot; over
 * 9p it read every run's metrics.json at each boot), no state.json (the
 * host is its one writer).  0 or -errno with a message. */
int campaign_open_guest(struct kb_campaign *c, const char *dir);

/* Take DIR/.lock (flock(2), exclusive, not waiting) for the life of the
 * process, creating DIR if needed, so two `kbench run` never work on one
 * campaign (they would restore each other's tunables and overwrite each
 * other's state).  With the lock held, the "*.tmp.PID" files of killed
 * kbench processes are removed from DIR (and its subdirectories) and from
 * the machine-wide records (kb_remove_stale_tmp()).  Returns the lock's
 * fd (O_CLOEXEC: fio does not hold it), or -EBUSY with a message when
 * another kbench holds it, or -errno. */
int campaign_lock(const char *dir);

/* The PID of the kbench running the campaign in dir (written into
 * DIR/.lock by campaign_lock()), when that process exists and is a
 * kbench; 0 otherwise.  Takes no lock (kbench plan -o DIR). */
long campaign_running_pid(const char *dir);

/* -EEXIST with a message when dir exists, holds files and is not a
 * campaign (no campaign.json): kbench run refuses it before it makes or
 * removes anything there.  0 otherwise (missing, empty, or a campaign). */
int campaign_dir_foreign(const char *dir);

/* What kbench run checks before it makes or removes anything in dir:
 * campaign_dir_foreign(), then who can change dir and its campaign files
 * (lib/file.h kb_path_trusted(); a resume's kernels.conf, campaign.json
 * and job files), or for a dir to be made the nearest directory above
 * it that exists.  0, or -EEXIST / -EPERM / -errno with a message. */
int campaign_dir_check(const char *dir);

/* campaign_dir_check() of an existing campaign for kbench report
 * --reparse, which writes each run's metrics.json: its message says
 * "not re-parsed".  0, or -EEXIST / -EPERM / -errno with a message. */
int campaign_dir_check_reparse(const char *dir);

/* The highest directory of dir's path that does not exist yet (dir
 * itself when only it is missing), malloc'd; NULL when dir exists. */
char *campaign_first_missing(const char *dir);

/* Undo what a start that stopped before campaign.json made in dir: its
 * .lock, and with whole (the start made dir) the kernels.conf and
 * profiles/ it copied, then dir itself when nothing else is left. */
void campaign_unmake(const char *dir, int whole);

/* Check that every job of cfg has its profiles/JOB.fio.  0, or -ENOENT
 * with one message per missing file. */
int campaign_check_jobs(const struct kb_config *cfg);

/* Set cfg->job_run_s[] from the job files in cfg->profiles_dir: a
 * time_based job's runtime= (else runtime) plus its ramp_time= and
 * startdelay=, at most runtime + timeout_grace; 0 for a file that
 * cannot be read.  What the ETA counts (runner/plan.h
 * plan_job_run_s()). */
void campaign_job_run_s(struct kb_config *cfg);

/* The state.json record of a run, or NULL when it has not completed. */
const struct kb_run_record *campaign_run_state(const struct kb_campaign *c,
					     const char *key);

/* 1 when the run key is still to do: not recorded, or recorded as
 * failed and retry_failed (`kbench run --retry-failed`) is set. */
int campaign_run_todo(const struct kb_campaign *c, const char *key,
		      int retry_failed);

/* Write c->state to DIR/state.json atomically (nothing with
 * --dry-run).  0 or -errno. */
int campaign_save_state(const struct kb_campaign *c);

/* Record a completed run (status "ok" or "failed") and write state.json
 * atomically.  0 or -errno; on an error the record in memory is what it
 * was (none, or the earlier one), as on disk. */
int campaign_record(struct kb_campaign *c, const char *key,
		    const char *status, const char *reason);

/* Record a run from its metrics.json's "status" and "reason"
 * (parsers/run_dir.h; status NULL: "failed") with campaign_record(); a
 * failed run is counted in *nfailed and named in a warning (the campaign
 * goes on).  0 or the error of writing state.json. */
int campaign_record_result(struct kb_campaign *c, const char *key,
			   const char *status, const char *reason,
			   size_t *nfailed);

/* What the job files of cfg may do as root, refused before anything
 * runs (parsers/fio_jobfile.h): a job that acts beyond its I/O
 * (exec_prerun, ioscheduler=, a log at a path, ioengine=exec...), a
 * job that may write and does its I/O anywhere but ${KBENCH_TARGET}
 * (its own filename=, directory=...: kbench's target checks miss it),
 * and with local_target (a variant runs in this kernel) runner/target.h
 * target_file_overwrite_check(); the vm variants' disk = always
 * (target_vm_disk_check()).  The job files are the campaign's
 * snapshots DIR/profiles/JOB.fio (what fio runs), or with dir NULL the
 * profiles directory's (kbench plan).  0, -EPERM (said: kernels.conf's
 * jobs line, the job file and its line, what to do instead), or the
 * overwrite check's error. */
int campaign_check_job_safety(const struct kb_config *cfg, const char *dir,
			      int local_target);

/* The job file snapshot DIR/profiles/JOB.fio (malloc'd). */
char *campaign_job_path(const struct kb_campaign *c, size_t job);

/* Probe the environment snapshot into *env (results/campaign_json.h;
 * free with results_environment_free()): uname, /proc/cmdline, CPU model
 * and count, cpufreq governor, memory, fio and perf versions, kbench
 * version.  What cannot be read is left NULL. */
void campaign_environment(struct kb_environment *env);

/* Timed runs recorded as ok. */
size_t campaign_ok_runs(const struct kb_campaign *c);

/* Runs (timed and warm-up) recorded as failed. */
size_t campaign_failed_runs(const struct kb_campaign *c);

void campaign_close(struct kb_campaign *c);

#endif
