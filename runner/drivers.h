/* runner/drivers.h - how the machine gets onto a variant (ops table, as
 * fio's ioengine_ops).  Only `local` exists yet: the variant must be the
 * running kernel; `vm` and `kexec` come with their own issue.
 */
#ifndef KB_DRIVERS_H
#define KB_DRIVERS_H

#include "parsers/kconf.h"

#include <stddef.h>

struct kb_driver {
	const char *name;	/* kernels.conf `method` */
	/* 1 when runs of v can be done now; else 0 and why[] says why */
	int (*ready)(const struct kb_variant *v, char *why, size_t len);
};

extern const struct kb_driver kb_drivers[];	/* NULL-name terminated */

const struct kb_driver *driver_find(const char *method);

/* 1 when variant index v of cfg can run now. */
int driver_variant_ready(const struct kb_config *cfg, size_t v);

/* Print, for each variant that cannot run now, why (stderr). */
void driver_explain_skipped(const struct kb_config *cfg);

#endif
