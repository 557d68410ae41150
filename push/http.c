/* push/http.c - HTTP POST with libcurl (see http.h).
 *
 * libcurl API: https://curl.se/libcurl/c/ (curl_easy_setopt options named
 * below, curl_url_get for URL parsing).
 */
#include "push/http.h"
#include "lib/err.h"
#include "lib/file.h"

#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define RESPONSE_MAX (64 * 1024)
#define BACKOFF_MAX_S 60.0

void push_http_opts_init(struct push_http_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->content_type = "text/plain; charset=utf-8";
	o->auth_scheme = "Token";
	o->timeout_s = 30;
	o->connect_timeout_s = 10;
	o->retries = 3;
	o->backoff_s = 1.0;
}

/* 1 when query (no leading '?') has a parameter named name. */
static int has_param(const char *query, const char *name)
{
	size_t n = strlen(name);
	const char *p = query;

	while (p && *p) {
		if (!strncasecmp(p, name, n) && p[n] == '=')
			return 1;
		p = strchr(p, '&');
		if (p)
			p++;
	}
	return 0;
}

int push_url_check(const char *url, const char *where)
{
	static const char *const secret_params[] = { "p", "password", "token",
						     NULL };
	const char *pre = where ? where : "", *sep = where ? ": " : "";
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *user = NULL, *pass = NULL;
	char *query = NULL;
	int ret = -EINVAL;
	size_t i;

	if (!u)
		return -ENOMEM;
	if (!url || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
		kb_error("%s%spush URL '%s' is not a URL (expected e.g. "
			 "http://127.0.0.1:8086/write?db=kbench)", pre, sep,
			 url ? url : "");
		goto out;
	}
	curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
	curl_url_get(u, CURLUPART_HOST, &host, 0);
	curl_url_get(u, CURLUPART_USER, &user, 0);
	curl_url_get(u, CURLUPART_PASSWORD, &pass, 0);
	curl_url_get(u, CURLUPART_QUERY, &query, 0);
	if (!scheme || (strcmp(scheme, "http") && strcmp(scheme, "https"))) {
		kb_error("%s%spush URL '%s': only http:// and https:// are "
			 "supported", pre, sep, url);
		goto out;
	}
	if (!host || !*host) {
		kb_error("%s%spush URL '%s' has no host", pre, sep, url);
		goto out;
	}
	if (user || pass) {
		kb_error("%s%spush URL holds credentials (user@host): remove "
			 "them and set KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD, "
			 "KBENCH_PUSH_TOKEN or a ~/.netrc entry instead "
			 "(credentials on a command line or in kernels.conf "
			 "end up in shell history, ps and logs)", pre, sep);
		goto out;
	}
	for (i = 0; query && secret_params[i]; i++) {
		if (has_param(query, secret_params[i])) {
			kb_error("%s%spush URL holds a secret (query parameter "
				 "'%s='): remove it and set KBENCH_PUSH_TOKEN "
				 "or KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD, or "
				 "use ~/.netrc", pre, sep, secret_params[i]);
			goto out;
		}
	}
	ret = 0;
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(user);
	curl_free(pass);
	curl_free(query);
	curl_url_cleanup(u);
	return ret;
}

const char *push_auth_describe(void)
{
	const char *tok = getenv("KBENCH_PUSH_TOKEN");
	const char *user = getenv("KBENCH_PUSH_USER");

	if (tok && *tok)
		return "token from KBENCH_PUSH_TOKEN";
	if (user && *user)
		return "basic auth from KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD";
	return "~/.netrc if it has the host, else none";
}

struct response {
	char *buf;
	size_t len;
};

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct response *r = arg;
	size_t n = size * nmemb, keep = n;

	if (r->len + keep > RESPONSE_MAX)
		keep = RESPONSE_MAX - r->len;
	if (keep) {
		r->buf = kb_xrealloc(r->buf, r->len + keep + 1);
		memcpy(r->buf + r->len, data, keep);
		r->len += keep;
		r->buf[r->len] = '\0';
	}
	return n;
}

/* The server's message: JSON "error" / "message", else the body's first
 * line (at most 300 characters), else "(empty body)".  malloc'd. */
static char *server_message(const struct response *r)
{
	json_t *j, *m;
	char *msg = NULL;
	size_t n;

	if (!r->buf || !r->len)
		return kb_xstrdup("(empty body)");
	j = json_loadb(r->buf, r->len, 0, NULL);
	if (j) {
		m = json_object_get(j, "error");
		if (!json_is_string(m))
			m = json_object_get(j, "message");
		if (json_is_string(m))
			msg = kb_xstrdup(json_string_value(m));
		json_decref(j);
		if (msg)
			return msg;
	}
	n = strcspn(r->buf, "\r\n");
	if (n > 300)
		n = 300;
	msg = kb_xasprintf("%.*s", (int)n, r->buf);
	for (n = 0; msg[n]; n++)
		if (!isprint((unsigned char)msg[n]))
			msg[n] = '?';
	return msg;
}

static void sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int curl_transient(CURLcode c)
{
	switch (c) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static int curl_tls_problem(CURLcode c)
{
	return c == CURLE_PEER_FAILED_VERIFICATION ||
	       c == CURLE_SSL_CACERT_BADFILE || c == CURLE_SSL_CERTPROBLEM ||
	       c == CURLE_SSL_CONNECT_ERROR;
}

int push_http_post(const char *url, const char *body, size_t len,
		   const struct push_http_opts *o)
{
	const char *tok = getenv("KBENCH_PUSH_TOKEN");
	const char *user = getenv("KBENCH_PUSH_USER");
	const char *pass = getenv("KBENCH_PUSH_PASSWORD");
	struct curl_slist *hdrs = NULL, *tmp;
	struct response resp = { NULL, 0 };
	char errbuf[CURL_ERROR_SIZE], *h = NULL, *msg;
	double delay = o->backoff_s;
	unsigned attempt, attempts = o->retries + 1;
	long code = 0;
	CURLcode c;
	CURL *e;
	int ret = -ENOMEM;

	if (push_url_check(url, NULL))
		return -EINVAL;
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return -ENOMEM;
	e = curl_easy_init();
	if (!e)
		goto out;
	h = kb_xasprintf("Content-Type: %s", o->content_type);
	if (!(tmp = curl_slist_append(hdrs, h)))
		goto out;
	hdrs = tmp;
	if (!(tmp = curl_slist_append(hdrs, "Expect:")))
		goto out;
	hdrs = tmp;
	if (tok && *tok) {
		/* built in memory, handed to libcurl, wiped: never printed */
		explicit_bzero(h, strlen(h));
		free(h);
		h = kb_xasprintf("Authorization: %s %s", o->auth_scheme, tok);
		tmp = curl_slist_append(hdrs, h);
		explicit_bzero(h, strlen(h));
		if (!tmp)
			goto out;
		hdrs = tmp;
	} else if (user && *user) {
		curl_easy_setopt(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(e, CURLOPT_USERNAME, user);
		curl_easy_setopt(e, CURLOPT_PASSWORD, pass ? pass : "");
	} else {
		curl_easy_setopt(e, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		if (o->netrc_file)
			curl_easy_setopt(e, CURLOPT_NETRC_FILE, o->netrc_file);
	}
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(e, CURLOPT_POST, 1L);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "kbench/" KBENCH_VERSION);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, (long)o->timeout_s);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, (long)o->connect_timeout_s);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
	if (o->cacert)
		curl_easy_setopt(e, CURLOPT_CAINFO, o->cacert);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &resp);

	for (attempt = 1; attempt <= attempts; attempt++) {
		const char *what;
		char why[512];

		errbuf[0] = '\0';
		resp.len = 0;
		code = 0;
		c = curl_easy_perform(e);
		if (c == CURLE_OK) {
			curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
			if (code >= 200 && code < 300) {
				ret = 0;
				goto out;
			}
			msg = server_message(&resp);
			if (code >= 400 && code < 500 && code != 408 &&
			    code != 429) {
				kb_error("POST %s: the server refused it: HTTP "
					 "%ld: %s (not retried: fix the URL, "
					 "database/bucket name or credentials)",
					 url, code, msg);
				free(msg);
				ret = -EREMOTEIO;
				goto out;
			}
			kb_fmt(why, sizeof(why), "HTTP %ld: %s", code, msg);
			free(msg);
		} else if (curl_tls_problem(c)) {
			kb_error("POST %s: TLS: %s (certificates are always "
				 "verified; for a private CA give its PEM file "
				 "with --cacert or KBENCH_PUSH_CACERT)", url,
				 errbuf[0] ? errbuf : curl_easy_strerror(c));
			ret = -EINVAL;
			goto out;
		} else if (!curl_transient(c)) {
			kb_error("POST %s: %s", url,
				 errbuf[0] ? errbuf : curl_easy_strerror(c));
			ret = -EINVAL;
			goto out;
		} else {
			kb_fmt(why, sizeof(why), "%s",
			       errbuf[0] ? errbuf : curl_easy_strerror(c));
		}
		what = why;
		if (attempt == attempts) {
			kb_error("POST %s failed %u time%s, last: %s", url,
				 attempts, attempts == 1 ? "" : "s", what);
			ret = -EAGAIN;
			goto out;
		}
		kb_warn("POST %s: %s; retrying in %.1f s (attempt %u of %u)",
			url, what, delay, attempt + 1, attempts);
		sleep_s(delay);
		delay *= 2;
		if (delay > BACKOFF_MAX_S)
			delay = BACKOFF_MAX_S;
	}
out:
	if (e)
		curl_easy_cleanup(e);
	if (hdrs)
		curl_slist_free_all(hdrs);
	free(h);
	free(resp.buf);
	curl_global_cleanup();
	return ret;
}
