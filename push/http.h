/* push/http.h - HTTP POST to a results store with libcurl: auth from the
 * environment or ~/.netrc, TLS verification, timeouts, retries.
 *
 * Credentials never come from the command line and never reach a log:
 *   KBENCH_PUSH_TOKEN          sent as "Authorization: <scheme> <token>"
 *                              (scheme "Token" for InfluxDB 2.x - and 1.8+
 *                              with "user:password" - or "Bearer")
 *   KBENCH_PUSH_USER and       HTTP basic auth (InfluxDB 1.x with
 *   KBENCH_PUSH_PASSWORD       auth-enabled = true)
 *   otherwise ~/.netrc         (or netrc_file): the login and password of
 *                              its entry for the host, or of its "default"
 *                              entry but for a URL not trusted with
 *                              credentials (no_env_auth), as HTTP basic
 *                              auth; read by kbench (parsers/netrc.h), not
 *                              by libcurl's CURLOPT_NETRC, so that what is
 *                              sent is what kbench looked at; a password
 *                              in a file that others than its owner can
 *                              read or change (mode & 077), or whose owner
 *                              is not trusted (lib/file.h
 *                              kb_owner_untrusted()), is not used: an
 *                              error, nothing sent
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
 * body, as InfluxDB 1.x and 2.x send, read by parsers/store_reply.h;
 * else the body's first line).
 * A 429 or 503 with Retry-After (RFC 9110 section 10.2.3: delay-seconds
 * or an HTTP-date) is retried no earlier than the store asked, at most
 * retry_after_max_s (default 60 s) later; the wait is said in the output.
 * 413 (Content Too Large) is not retried: -E2BIG tells the caller to send
 * less per request.
 *
 * Redirects: 307 and 308 (which keep the method and the body, RFC 9110
 * section 15.4) are followed, at most 5 in a row, only when the Location
 * stays on the same origin (scheme, host and port; RFC 6454): the
 * credentials never go to another host.  Any other redirect (another
 * origin, or 301/302/303, which would turn the POST into a GET) is an
 * error naming the Location, not retried.
 *
 * Credentials over plain http:// (a token, or basic auth) travel in clear
 * text: a warning says so, once per process.
 */
#ifndef KB_PUSH_HTTP_H
#define KB_PUSH_HTTP_H

#include <stddef.h>
#include <time.h>

struct push_http_opts {
	const char *content_type;	/* e.g. "text/plain; charset=utf-8" */
	const char *cacert;		/* PEM CA bundle; NULL = system store */
	const char *netrc_file;		/* NULL = ~/.netrc ($HOME's, else the
					 * effective user's home's) */
	const char *auth_scheme;	/* word before KBENCH_PUSH_TOKEN */
	unsigned timeout_s;		/* whole request; default 30 */
	unsigned connect_timeout_s;	/* TCP + TLS handshake; default 10 */
	unsigned retries;		/* extra attempts on transient errors;
					 * default 3 */
	double backoff_s;		/* first delay; default 1.0 */
	int no_env_auth;		/* 1: without KBENCH_PUSH_TOKEN and
					 * KBENCH_PUSH_USER (a URL read from a
					 * campaign directory's queue, not
					 * trusted with them); a ~/.netrc
					 * "machine HOST" entry still applies,
					 * its "default" entry does not */
	unsigned retry_after_max_s;	/* longest Retry-After honoured;
					 * default 60 */
};

/* The longest wait a Retry-After gets by default (seconds). */
#define PUSH_RETRY_AFTER_MAX_S 60

/* Defaults as documented above (content_type text/plain, scheme "Token"). */
void push_http_opts_init(struct push_http_opts *o);

/* Check that url is http:// or https:// with a host and without
 * credentials in it.  0, or -EINVAL with a message naming what (where =
 * "kernels.conf:12" style prefix or NULL); -ENOENT or -ENOSYS when
 * libcurl cannot be loaded (push/curl_dl.h kb_curl_load(): message
 * printed).  push_http_post() and push_endpoint() (push/push.h) return
 * these too. */
int push_url_check(const char *url, const char *where);

/* Does the environment hold push credentials (a non-empty
 * KBENCH_PUSH_TOKEN or KBENCH_PUSH_USER)?  1 or 0. */
int push_env_auth(void);

/* Which credentials push_http_post() would use with o, for --dry-run and
 * logs: "token from KBENCH_PUSH_TOKEN", "basic auth from
 * KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD", the netrc's entries, and for a
 * URL not trusted with credentials (o->no_env_auth) only its "machine
 * HOST" entry (never the secret). */
const char *push_auth_describe(const struct push_http_opts *o);

/* The netrc entry of url's host onto the libcurl handle curl (a CURL *:
 * CURLOPT_USERNAME and CURLOPT_PASSWORD, basic auth), read by kbench
 * (parsers/netrc.h) rather than by libcurl's CURLOPT_NETRC, so that what
 * is sent is what kbench looked at, whatever libcurl's version reads, and
 * libcurl sends it to url's host only (not after a redirect to another
 * host: CURLOPT_UNRESTRICTED_AUTH is left off).  The file: netrc_file,
 * else ~/.netrc.  The "default" entry, which names no host, only when
 * allow_default (a URL trusted with credentials; a campaign directory's
 * or a download's would get that login for any host it names), else
 * warned about once.  Nothing when there is no file or no entry (a
 * netrc_file that is not there, or one with an unclosed quote, is
 * warned about).  method ("POST", "GET") begins the messages.  0, or
 * -EINVAL with a message when the entry holds a password and the file is
 * readable or writable by others than its owner, or owned by a user kbench
 * does not trust (lib/file.h kb_owner_untrusted()), as ftp(1) refuses
 * such a file.  curl NULL: the checks and their messages alone (push
 * --dry-run). */
int push_netrc_auth(void *curl, const char *url, const char *netrc_file,
		    int allow_default, const char *method);

/* The wait a Retry-After header value asks for, in whole seconds from
 * now (an HTTP-date in the past: 0).  0, or -EINVAL when value is neither
 * delay-seconds nor an HTTP-date. */
int push_retry_after(const char *value, time_t now, unsigned long *secs);

/* 1 when a and b are absolute http(s) URLs of the same origin: scheme,
 * host (case-insensitive) and port (the scheme's default when absent),
 * and b holds no credentials (user@). */
int push_same_origin(const char *a, const char *b);

/* Warn, once per process, when url is plain http:// and credentials from
 * the environment (KBENCH_PUSH_TOKEN, KBENCH_PUSH_USER/PASSWORD) would be
 * sent to it in clear text. */
void push_http_warn_cleartext(const char *url);

/* POST len bytes of body to url.  Returns 0 on a 2xx answer;
 * -EAGAIN when a transient failure (see above) persisted through every
 * retry (the caller may queue the push and try later); -EREMOTEIO when the
 * server refused (4xx, message printed; trying again will not help);
 * -E2BIG on HTTP 413 (nothing printed: the caller splits the body or
 * explains; *server_msg, when server_msg is not NULL, gets the server's
 * message, malloc'd); -EXDEV for a redirect that is not followed (message
 * printed, naming the Location); -EINVAL for a local problem (bad URL,
 * TLS verification failed, cacert unreadable, a netrc password others
 * could read; message printed); -ENOMEM.
 * Messages name the URL. */
int push_http_post(const char *url, const char *body, size_t len,
		   const struct push_http_opts *o, char **server_msg);

#endif
