/* runner/retry.h - retry_disturbed = N (kernels.conf [global], default
 * 1): an interleaved round (one iteration of every configuration and
 * job) that holds a disturbed run (stats/disturbed.h) is run again, at
 * most N times per round.
 *
 * The superseded runs are never dropped silently: each run directory is
 * renamed runs/CFG/JOB/NNN.superseded-K (K = the attempt) and state.json
 * lists it under "superseded" with the reason; the round's state entries
 * are removed so that the run loop (and a resumed campaign) does them
 * again.  The attempts per round are kept in state.json
 * "disturbed_retries": {"ITERATION": K}.  Local runs with order =
 * interleave only (a vm/kexec batch spans a boot; block and random
 * orders have no rounds to rerun as a whole).  The judgment uses the
 * campaign's runs so far (early rounds see few runs; the report judges
 * again with all of them).  With push = URL a superseded run was already
 * pushed when it completed: its point stays in the store.
 */
#ifndef KB_RETRY_H
#define KB_RETRY_H

#include <stddef.h>

#include "runner/campaign.h"

/* After plan run i completed: when it closes its round and the round has
 * a disturbed counted run, supersede the round and return the number of
 * runs to do again (> 0); 0 otherwise; -errno on error (message). */
int retry_disturbed_round(struct kb_campaign *c, size_t i);

#endif
