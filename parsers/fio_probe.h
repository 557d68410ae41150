/* parsers/fio_probe.h - what a fio --server load host says of itself,
 * and fio version skew between this machine and its load hosts (hosts =).
 *
 * When fio's client connects to a server it prints the server's probe
 * reply on stdout, one line per server (fio's client.c, handle_probe();
 * not in --output-format=json, so kbench asks each host apart with
 * `fio --client=ip:HOST,PORT --parse-only /dev/null`, which connects,
 * prints the line and runs nothing; runner/campaign.c):
 *
 *   hostname=perf84, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.7, flags=1
 *
 * (tests/data/fio/pbench-fio-3.7-client-server.txt,
 * kbench-3.33-client-probe.txt).  hostname is the server's own name
 * (uname), not the address given to --client. */
#ifndef KB_FIO_PROBE_H
#define KB_FIO_PROBE_H

#include <stddef.h>

/* The first probe line of text (NUL-terminated fio stdout): the server's
 * hostname and fio version ("fio-3.33"), malloc'd into *hostname and
 * *version.  Returns 0, or -EINVAL when text has no line starting with
 * "hostname=" that also has a non-empty "fio=" field (both left NULL). */
int kb_fio_probe_parse(const char *text, char **hostname, char **version);

struct kb_fio_host_version {
	const char *host;	/* as kernels.conf's hosts = names it */
	const char *version;	/* "fio-3.35"; NULL: unknown (no answer) */
};

/* "fio versions differ: local fio-3.33, 10.0.0.2:8765 fio-3.35" naming
 * every host whose known version is not local's (malloc'd), or NULL when
 * none differs.  A NULL local is "unknown" and compares unequal with
 * every known version.  Different fio versions may differ in their
 * defaults and statistics (fio's own changelog), so a campaign should
 * run one version everywhere: the runner warns and the report says it. */
char *kb_fio_version_skew(const char *local,
			  const struct kb_fio_host_version *hosts, size_t n);

#endif
