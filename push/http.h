/* push/http.h - HTTP POST to a results store with libcurl: auth from the
 * environment or ~/.netrc, TLS verification, timeouts, retries.
 *
 * Credentials never come from the command line and never reach a log:
 *   KBENCH_PUSH_TOKEN          sent as "Authorization: <scheme> <token>"
 *                              (scheme "Token" for InfluxDB 2.x - and 1.8+
 *                              with "user:password" - or "Bearer")
 *   KBENCH_PUSH_USER and       HTTP basic auth (InfluxDB 1.x with
 *   KBENCH_PUSH_PASSWORD       auth-enabled = true)
 *   otherwise ~/.netrc         (or netrc_file) when it has the host:
 *                              libcurl's CURLOPT_NETRC, CURL_NETRC_OPTIONAL
 * URLs holding credentials (user:password@host, ?p=, ?password=, ?token=)
 * are refused by push_url_check().
 *
 * TLS: peer and host verification are always on (CURLOPT_SSL_VERIFYPEER,
 * CURLOPT_SSL_VERIFYHOST = 2); cacert names a PEM bundle for a private CA
 * (CURLOPT_CAINFO); default: the system store.
 *
 * Retries: a connection error, a timeout, HTTP 5xx, 408 or 429 is
 * transient and retried after backoff_s, 2 * backoff_s, 4 * ... (capped
 * at 60 s); any other 4xx is the client's fault and is not retried: the
 * server's message is printed (the "error" or "message" member of a JSON
 * body, as InfluxDB 1.x and 2.x send, else the body's first line).
 */
#ifndef KB_PUSH_HTTP_H
#define KB_PUSH_HTTP_H

#include <stddef.h>

struct push_http_opts {
	const char *content_type;	/* e.g. "text/plain; charset=utf-8" */
	const char *cacert;		/* PEM CA bundle; NULL = system store */
	const char *netrc_file;		/* NULL = libcurl's default ~/.netrc */
	const char *auth_scheme;	/* word before KBENCH_PUSH_TOKEN */
	unsigned timeout_s;		/* whole request; default 30 */
	unsigned connect_timeout_s;	/* TCP + TLS handshake; default 10 */
	unsigned retries;		/* extra attempts on transient errors;
					 * default 3 */
	double backoff_s;		/* first delay; default 1.0 */
};

/* Defaults as documented above (content_type text/plain, scheme "Token"). */
void push_http_opts_init(struct push_http_opts *o);

/* Check that url is http:// or https:// with a host and without
 * credentials in it.  0, or -EINVAL with a message naming what (where =
 * "kernels.conf:12" style prefix or NULL). */
int push_url_check(const char *url, const char *where);

/* Which credentials push_http_post() would use, for --dry-run and logs:
 * "token from KBENCH_PUSH_TOKEN", "basic auth from KBENCH_PUSH_USER",
 * "~/.netrc if it has the host" (never the secret). */
const char *push_auth_describe(void);

/* POST len bytes of body to url.  Returns 0 on a 2xx answer;
 * -EAGAIN when a transient failure (see above) persisted through every
 * retry (the caller may queue the push and try later); -EREMOTEIO when the
 * server refused (4xx, message printed; trying again will not help);
 * -EINVAL for a local problem (bad URL, TLS verification failed, cacert
 * unreadable; message printed); -ENOMEM.  Messages name the URL. */
int push_http_post(const char *url, const char *body, size_t len,
		   const struct push_http_opts *o);

#endif
