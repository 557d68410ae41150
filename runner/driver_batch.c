/* runner/driver_batch.c - handing batches of runs to the drivers that run
 * them on another boot (vm, kexec); see runner/drivers.h. */
#include "runner/drivers.h"
#include "runner/campaign.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int kb_driver_dry_run;
int kb_driver_dry_failures;
const char *kb_guest_variant;

const struct kb_driver *driver_batch(const struct kb_config *cfg, size_t v)
{
	const struct kb_variant *var = &cfg->variants[v];
	const struct kb_driver *d = driver_of(var);

	if (!d || !d->run_batch || kb_guest_variant)
		return NULL;
	if (d->is_running && d->is_running(var))
		return NULL;
	return d;
}

int driver_run_next_batch(struct kb_campaign *c, size_t i, int retry_failed,
			  size_t *last, size_t *ndone, size_t *nfailed)
{
	size_t v = c->plan.configs[c->plan.runs[i].config].variant;
	const struct kb_driver *d = driver_batch(&c->cfg, v);
	size_t *idx, n = 0, j;
	int ret;

	*last = i;
	*ndone = *nfailed = 0;
	if (!d)
		return -EINVAL;
	idx = kb_xcalloc(c->plan.nruns, sizeof(*idx));
	for (j = i; j < c->plan.nruns; j++) {
		const struct kb_run *r = &c->plan.runs[j];
		size_t rv = c->plan.configs[r->config].variant;

		if (!campaign_run_todo(c, r->key, retry_failed))
			continue;
		if (rv != v) {
			/* a variant that cannot run now does not end the
			 * boot: its runs are skipped anyway */
			if (driver_variant_ready(&c->cfg, rv))
				break;
			continue;
		}
		idx[n++] = j;
	}
	*last = idx[n - 1];
	ret = d->run_batch(c, idx, n, nfailed);
	if (ret == -EINTR) {
		*nfailed = 0;
		ret = 0;
	} else if (!ret && !kb_driver_dry_run) {
		*ndone = n;
	}
	free(idx);
	return ret;
}
