/* runner/driver_local.c - method = local: the running kernel. */
#include "runner/drivers.h"
#include "lib/err.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

static int local_ready(const struct kb_variant *v, char *why, size_t len)
{
	struct utsname u;

	if (!v->release)
		return 1;
	if (uname(&u) < 0) {
		snprintf(why, len, "uname failed");
		return 0;
	}
	if (!strcmp(u.release, v->release))
		return 1;
	snprintf(why, len, "variant '%s' expects kernel release %s, but the "
		 "running kernel is %s; boot %s and run the same kbench run "
		 "command again to do its runs", v->name, v->release, u.release,
		 v->release);
	return 0;
}

/* implemented in runner/driver_kexec.c */
int kexec_is_running(const struct kb_variant *v);

const struct kb_driver kb_drivers[] = {
	{ "local", 0, local_ready, NULL, NULL },
	{ "vm", KB_DRIVER_BOOTS | KB_DRIVER_ACCEL, vm_ready, vm_run_batch,
	  NULL },
	{ "kexec", KB_DRIVER_BOOTS, kexec_ready, kexec_run_batch,
	  kexec_is_running },
	{ NULL, 0, NULL, NULL, NULL },
};

const struct kb_driver *driver_find(const char *method)
{
	const struct kb_driver *d;

	for (d = kb_drivers; d->name; d++)
		if (method && !strcmp(d->name, method))
			return d;
	return NULL;
}

const struct kb_driver *driver_of(const struct kb_variant *v)
{
	return driver_find(v->method ? v->method : "local");
}

int driver_variant_ready(const struct kb_config *cfg, size_t v)
{
	const struct kb_driver *d = driver_of(&cfg->variants[v]);
	char why[512];

	return d && d->ready(&cfg->variants[v], why, sizeof(why));
}

void driver_explain_skipped(const struct kb_config *cfg)
{
	size_t v;

	for (v = 0; v < cfg->nvariants; v++) {
		const struct kb_variant *var = &cfg->variants[v];
		const struct kb_driver *d = driver_of(var);
		char why[512];

		if (!d)
			kb_error("variant '%s': method '%s' has no driver",
				 var->name, var->method);
		else if (!d->ready(var, why, sizeof(why)) &&
			 !strcmp(d->name, "local"))
			kb_warn("%s", why);	/* another kernel: exit 3 */
		else if (!d->ready(var, why, sizeof(why)))
			kb_error("%s", why);	/* a tool to install */
	}
}
