/* runner/retry.h - retry_disturbed = N (kernels.conf [global], default
 * 1): a retry unit that holds a disturbed counted run (stats/disturbed.h)
 * is run again, at most N times per unit.  The unit is:
 *   - order = interleave or random: the round (iteration i of every
 *     configuration and job; with random, the round's shuffled run of
 *     the plan, whose end is where the next planned run has another
 *     iteration index).  It is redone whole, in the plan's own order
 *     (same rotation, same shuffle), so that both sides of every pair
 *     are measured under the same conditions;
 *   - order = block: one run (a configuration's iteration of a job, with
 *     its profiling runs).  Block order has no rounds and is compared
 *     unpaired (Welch), so the disturbed run is redone alone, right after
 *     itself; the log says so.
 * Booted variants (method = vm, kexec) are retried the same way: a vm
 * batch is one boot of a variant per round (order = interleave), and
 * after each boot the rounds it closed are judged; a superseded round is
 * booted again, each variant in the plan's order.  Runs of a kexec
 * variant run in this process after the boot (driver is_running), so
 * they take the local path.
 *
 * The superseded runs are never dropped silently: each run directory is
 * renamed runs/CFG/JOB/NNN.superseded-K (K = the attempt) and state.json
 * lists it under "superseded" with the reason; the unit's state entries
 * are removed so that the run loop (and a resumed campaign) does them
 * again.  The attempts per unit are kept in state.json
 * "disturbed_retries": {"ITERATION": K} (order = block: {"CFG/JOB/NNN":
 * K}).  The judgment uses the campaign's runs so far (early units see
 * few runs; the report judges again with all of them).  With push = URL
 * a superseded run was already pushed when it completed: its point stays
 * in the store.
 */
#ifndef KB_RETRY_H
#define KB_RETRY_H

#include <signal.h>
#include <stddef.h>

#include "runner/campaign.h"

/* After plan run i completed: when it closes its unit (round, or with
 * order = block its run) and the unit has a disturbed counted run and
 * fewer than retry_disturbed attempts, supersede the unit and return the
 * number of runs to do again (> 0); 0 otherwise (warm-ups, --dry-run,
 * retry_disturbed = 0 included); -errno on error (message). */
int retry_disturbed_round(struct kb_campaign *c, size_t i);

/* --retry-failed: each failed run of the plan is kept aside as
 * runs/KEY.superseded-N (N the first number free; its fio.stderr and
 * the rest are the evidence of the failure) and listed among the
 * superseded runs with "failed: REASON", its record forgotten so that it
 * runs again.  The state is saved.  The number kept aside, or -errno. */
int retry_failed_supersede(struct kb_campaign *c);

/* A resumed campaign: the runs a kbench killed between the renames of
 * retry_disturbed_round() or retry_failed_supersede() and the state's
 * save left recorded done while their directory is runs/KEY.superseded-K
 * (named by no record) are superseded now as that stop would have: a
 * failed run alone ("failed: REASON"), an ok run with the rest of its
 * unit (renamed now, one more attempt counted).  Without it a resume
 * took such a run for a deleted one and ran it alone (the rest of its
 * round kept, its copy unlisted, the attempt not counted), and
 * --retry-failed recorded a copy that is not there.  campaign_open()
 * calls it on a resume, before the campaign's validation.  Said (a
 * warning) and the state saved when anything changed.  The number of
 * runs superseded, or -errno. */
int retry_resume_superseding(struct kb_campaign *c);

/* Before the runs retry_disturbed_round() returned are done again: wait
 * for a quiet 1-s window, at most retry_quiet_wait seconds (0: return at
 * once; --dry-run too), with the limits that judged the runs
 * (c->retry_quiet: task.other.cpu_pct's limit for the busy CPU,
 * disturbed_steal_pct, disturbed_psi_pct; runner/quiet.h), returning
 * early when *stop (may be NULL) becomes non-zero.  Says what it did
 * (kb_info): quiet after how long, or still busy and why; a machine that
 * cannot be sampled is a warning, and the round runs at once. */
void retry_wait_quiet(const struct kb_campaign *c,
		      const volatile sig_atomic_t *stop);

#endif
