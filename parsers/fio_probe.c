/* parsers/fio_probe.c - fio --server probe replies and version skew
 * (parsers/fio_probe.h). */
#include "parsers/fio_probe.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The value of "KEY=" in the comma-separated fields of line [p, end):
 * malloc'd, NULL when absent or empty. */
static char *field(const char *p, const char *end, const char *key)
{
	size_t kl = strlen(key), vl;
	const char *f = p;

	while (f < end) {
		while (f < end && (*f == ' ' || *f == ','))
			f++;
		if ((size_t)(end - f) > kl && !strncmp(f, key, kl) &&
		    f[kl] == '=') {
			f += kl + 1;
			vl = strcspn(f, ",\n");
			if (f + vl > end)
				vl = (size_t)(end - f);
			return vl ? kb_xasprintf("%.*s", (int)vl, f) : NULL;
		}
		f += strcspn(f, ",\n");
		if (f < end && *f == '\n')
			break;
	}
	return NULL;
}

int kb_fio_probe_parse(const char *text, char **hostname, char **version)
{
	const char *p = text, *end;

	*hostname = *version = NULL;
	while (p && *p) {
		end = p + strcspn(p, "\n");
		if (!strncmp(p, "hostname=", 9)) {
			*version = field(p, end, "fio");
			if (*version) {
				*hostname = field(p, end, "hostname");
				return 0;
			}
		}
		p = *end ? end + 1 : NULL;
	}
	return -EINVAL;
}

char *kb_fio_version_skew(const char *local,
			  const struct kb_fio_host_version *hosts, size_t n)
{
	char *msg = NULL, *tmp;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!hosts[i].version ||
		    (local && !strcmp(local, hosts[i].version)))
			continue;
		tmp = kb_xasprintf("%s, %s %s", msg ? msg : "", hosts[i].host,
				   hosts[i].version);
		free(msg);
		msg = tmp;
	}
	if (!msg)
		return NULL;
	tmp = kb_xasprintf("fio versions differ: local %s%s",
			   local ? local : "unknown", msg);
	free(msg);
	return tmp;
}
