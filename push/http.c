/* push/http.c - HTTP POST with libcurl (see http.h).
 *
 * libcurl API: https://curl.se/libcurl/c/ (curl_easy_setopt options named
 * below, curl_url_get for URL parsing).
 */
#include "push/http.h"
#include "lib/err.h"
#include "lib/file.h"
#include "parsers/netrc.h"
#include "parsers/store_reply.h"

#include <ctype.h>
#include <math.h>
#include "push/curl_dl.h"
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	o->retry_after_max_s = PUSH_RETRY_AFTER_MAX_S;
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
	CURLU *u;
	char *scheme = NULL, *host = NULL, *user = NULL, *pass = NULL;
	char *query = NULL;
	int ret = kb_curl_load();
	size_t i;

	if (ret)
		return ret;
	ret = -EINVAL;
	u = curl_url();
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
	{
		/* as kernels.conf's push = (parsers/kconf.c): 1 to 65535 */
		char *port = NULL;

		curl_url_get(u, CURLUPART_PORT, &port, 0);
		if (port && atol(port) < 1) {
			kb_error("%s%spush URL '%s': the port is not a number "
				 "from 1 to 65535", pre, sep, url);
			curl_free(port);
			goto out;
		}
		curl_free(port);
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

int push_env_auth(void)
{
	const char *tok = getenv("KBENCH_PUSH_TOKEN");
	const char *user = getenv("KBENCH_PUSH_USER");

	return (tok && *tok) || (user && *user);
}

const char *push_auth_describe(const struct push_http_opts *o)
{
	const char *tok = getenv("KBENCH_PUSH_TOKEN");
	const char *user = getenv("KBENCH_PUSH_USER");

	if (o->no_env_auth)
		return "the netrc's entry for the host if it has one (not the "
		       "environment's credentials nor the netrc's 'default' "
		       "entry: the URL comes from the campaign directory), "
		       "else none";
	if (tok && *tok)
		return "token from KBENCH_PUSH_TOKEN";
	if (user && *user)
		return "basic auth from KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD";
	return "the netrc's entry for the host, or its 'default' entry, "
	       "else none";
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
	char *msg;
	size_t n;

	if (!r->buf || !r->len)
		return kb_xstrdup("(empty body)");
	msg = kb_store_error_message(r->buf, r->len);
	if (msg)
		return msg;
	n = strcspn(r->buf, "\r\n");
	if (n > 300)
		n = 300;
	msg = kb_xasprintf("%.*s", (int)n, r->buf);
	for (n = 0; msg[n]; n++)
		if (!isprint((unsigned char)msg[n]))
			msg[n] = '?';
	return msg;
}

/* The host of url as libcurl matches it against netrc (no IPv6
 * brackets), malloc'd, or NULL. */
static char *url_host(const char *url)
{
	CURLU *u = curl_url();
	char *h = NULL, *ret = NULL;

	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK && h) {
		size_t n = strlen(h);

		ret = h[0] == '[' && n > 1 && h[n - 1] == ']' ?
		      kb_xasprintf("%.*s", (int)(n - 2), h + 1) :
		      kb_xstrdup(h);
	}
	curl_free(h);
	curl_url_cleanup(u);
	return ret;
}

/* Say, once per process, that what (the credentials, "... travel") go
 * to url in clear text when it is plain http://; push: a push's (its
 * --cacert named), else a download's. */
static void warn_cleartext(const char *url, const char *what, int push)
{
	static int warned;

	if (warned || !url || strncasecmp(url, "http://", 7))
		return;
	warned = 1;
	kb_warn("%s is plain http://: %s in clear text, readable by anyone "
		"who can see the traffic; use https://%s", url, what,
		push ? " (--cacert for a private CA)" : "");
}

/* The netrc file: netrc_file, else .netrc in $HOME, else in the
 * effective user's home directory (as libcurl looks for it); malloc'd,
 * NULL when there is none. */
static char *netrc_path(const char *netrc_file)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (netrc_file)
		return kb_xstrdup(netrc_file);
	if (!home || !*home) {
		pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	return home && *home ? kb_path_join(home, ".netrc") : NULL;
}

/* Why the netrc file path (whose stat is st) must not give its password
 * away, with the fix, malloc'd; NULL when it may: others than its owner
 * can read or change it, or its owner is not trusted
 * (kb_owner_untrusted()).  ftp(1) refuses such a file, ssh(1) such a
 * key. */
static char *netrc_unsafe(const char *path, const struct stat *st)
{
	char *who = kb_owner_untrusted(path, st->st_uid), *why;

	if (who) {
		why = kb_xasprintf("%s; chown it to the user it is for", who);
		free(who);
		return why;
	}
	if (!(st->st_mode & 077))
		return NULL;
	return kb_xasprintf("%s: %s by others than its owner (mode %04o); "
			    "chmod 600 %s", path, st->st_mode & 044 ?
			    "readable" : "writable",
			    (unsigned)(st->st_mode & 07777), path);
}

int push_netrc_auth(void *curl, const char *url, const char *netrc_file,
		    int allow_default, const char *method)
{
	CURL *e = curl;
	static int said_default;
	struct kb_netrc_entry n;
	struct stat st;
	char *path = netrc_path(netrc_file), *host = url_host(url);
	char *buf = NULL;
	char *why = NULL;
	size_t len = 0;
	int r, ret = 0;

	if (!path || !host)
		goto out;
	r = kb_read_file(path, &buf, &len, 1);
	if (r) {
		/* no ~/.netrc is no credentials; a --netrc-file that is
		 * not there is a mistake */
		if (r != -ENOENT || netrc_file)
			kb_warn("%s: %s: no credentials from it", path,
				strerror(-r));
		goto out;
	}
	r = kb_netrc_find(buf, len, host, &n);
	if (r < 0)
		kb_warn("%s: a quoted token has no closing '\"': no "
			"credentials from it", path);
	if (r <= 0)
		goto out;
	if (n.is_default && !allow_default) {
		if (!said_default++)
			kb_warn("%s %s goes without the 'default' entry of "
				"%s: %s; a 'machine %s' entry is used",
				method, url, path, !strcmp(method, "POST") ?
				"the URL comes from the campaign directory, "
				"which is not trusted with credentials" :
				"a download gets a host's own entry only",
				host);
	} else if (n.password &&
		   (why = stat(path, &st) < 0 ?
		    kb_xasprintf("%s: %s", path, strerror(errno)) :
		    netrc_unsafe(path, &st))) {
		/* a password others could read is not used (the push fails,
		 * as it would with a wrong one), nor one others could set */
		kb_error("%s %s: nothing sent: the password of the netrc "
			 "entry for %s is not used from a file that others "
			 "than its user can read or change, and %s", method, url,
			 n.is_default ? "any host ('default')" : host, why);
		ret = -EINVAL;
	} else {
		if (n.password)
			warn_cleartext(url, "the password of the netrc entry "
				       "(basic auth is not encryption) "
				       "travels", !strcmp(method, "POST"));
		if (e) {
			curl_easy_setopt(e, CURLOPT_HTTPAUTH,
					 (long)CURLAUTH_BASIC);
			curl_easy_setopt(e, CURLOPT_USERNAME,
					 n.login ? n.login : "");
			curl_easy_setopt(e, CURLOPT_PASSWORD,
					 n.password ? n.password : "");
		}
	}
	kb_netrc_entry_clear(&n);
out:
	if (buf) {
		explicit_bzero(buf, len);
		free(buf);
	}
	free(why);
	free(host);
	free(path);
	return ret;
}

/* Sleep s seconds; -EINTR when a signal handler ran (kbench run's
 * Ctrl-C: stop waiting, the push gets queued). */
static int sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return 0;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	return nanosleep(&ts, &ts) < 0 && errno == EINTR ? -EINTR : 0;
}

int push_retry_after(const char *value, time_t now, unsigned long *secs)
{
	const char *p = value, *q;
	unsigned long v = 0;
	time_t t;

	if (!value)
		return -EINVAL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (isdigit((unsigned char)*p)) {
		/* delay-seconds = 1*DIGIT */
		for (q = p; isdigit((unsigned char)*q); q++)
			if (v < 100000000UL)	/* saturate: years */
				v = v * 10 + (unsigned long)(*q - '0');
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q)
			return -EINVAL;
		*secs = v;
		return 0;
	}
	/* an HTTP-date (IMF-fixdate, RFC 850 or asctime: RFC 9110 section
	 * 5.6.7); libcurl's parser reads all three */
	if (!*p || !strpbrk(p, ":") || kb_curl_load())
		return -EINVAL;
	t = curl_getdate(p, NULL);
	if (t == (time_t)-1)
		return -EINVAL;
	*secs = t > now ? (unsigned long)(t - now) : 0;
	return 0;
}

int push_same_origin(const char *a, const char *b)
{
	CURLU *ua, *ub;
	char *sa = NULL, *sb = NULL, *ha = NULL, *hb = NULL, *pa = NULL;
	char *pb = NULL, *user = NULL, *pass = NULL;
	int same = 0;

	if (kb_curl_load())
		return 0;	/* not known to be the same: no credentials */
	ua = curl_url();
	ub = curl_url();
	if (!ua || !ub || !a || !b ||
	    curl_url_set(ua, CURLUPART_URL, a, 0) != CURLUE_OK ||
	    curl_url_set(ub, CURLUPART_URL, b, 0) != CURLUE_OK)
		goto out;
	curl_url_get(ua, CURLUPART_SCHEME, &sa, 0);
	curl_url_get(ub, CURLUPART_SCHEME, &sb, 0);
	curl_url_get(ua, CURLUPART_HOST, &ha, 0);
	curl_url_get(ub, CURLUPART_HOST, &hb, 0);
	curl_url_get(ua, CURLUPART_PORT, &pa, CURLU_DEFAULT_PORT);
	curl_url_get(ub, CURLUPART_PORT, &pb, CURLU_DEFAULT_PORT);
	curl_url_get(ub, CURLUPART_USER, &user, 0);
	curl_url_get(ub, CURLUPART_PASSWORD, &pass, 0);
	same = sa && sb && ha && hb && pa && pb && !user && !pass &&
	       (!strcasecmp(sa, "http") || !strcasecmp(sa, "https")) &&
	       !strcasecmp(sa, sb) && !strcasecmp(ha, hb) && !strcmp(pa, pb);
out:
	curl_free(sa);
	curl_free(sb);
	curl_free(ha);
	curl_free(hb);
	curl_free(pa);
	curl_free(pb);
	curl_free(user);
	curl_free(pass);
	curl_url_cleanup(ua);
	curl_url_cleanup(ub);
	return same;
}

void push_http_warn_cleartext(const char *url)
{
	const char *tok = getenv("KBENCH_PUSH_TOKEN");
	const char *user = getenv("KBENCH_PUSH_USER");

	if (tok && *tok)
		warn_cleartext(url, "the token (KBENCH_PUSH_TOKEN) travels",
			       1);
	else if (user && *user)
		warn_cleartext(url, "the user name and password "
			       "(KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD; basic "
			       "auth is not encryption) travel", 1);
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

/* The wait before the next attempt: Retry-After on 429/503 when the
 * store sent a usable one (capped), else the backoff.  Says why in why
 * (appended). */
static double next_delay(CURL *e, long code, double backoff,
			 const struct push_http_opts *o, char *why,
			 size_t whylen)
{
	struct curl_header *h = NULL;
	unsigned long ra;
	size_t n = strlen(why);
	unsigned max = o->retry_after_max_s;

	if ((code != 429 && code != 503) ||
	    curl_easy_header(e, "Retry-After", 0, CURLH_HEADER, -1, &h) !=
	    CURLHE_OK || !h || push_retry_after(h->value, time(NULL), &ra))
		return backoff;
	if (ra > max)
		kb_fmt(why + n, whylen - n, "; the store asked to wait %lu s "
		       "(Retry-After), longer than kbench waits: %u s", ra,
		       max);
	else
		kb_fmt(why + n, whylen - n, "; the store asked to wait %lu s "
		       "(Retry-After)", ra);
	return ra > max ? (double)max : (double)ra;
}

/* "HH:MM:SS", local time, s seconds from now. */
static const char *clock_in(double s, char *buf, size_t len)
{
	time_t t = time(NULL) + (time_t)ceil(s);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}

int push_http_post(const char *url, const char *body, size_t len,
		   const struct push_http_opts *o, char **server_msg)
{
	const char *tok = getenv("KBENCH_PUSH_TOKEN");
	const char *user = getenv("KBENCH_PUSH_USER");
	const char *pass = getenv("KBENCH_PUSH_PASSWORD");
	struct curl_slist *hdrs = NULL, *tmp;
	struct response resp = { NULL, 0 };
	char errbuf[CURL_ERROR_SIZE], *h = NULL, *msg, *cur = NULL;
	double delay = o->backoff_s, wait;
	unsigned attempt = 1, attempts = o->retries + 1, redirects = 0;
	long code = 0;
	CURLcode c;
	CURL *e;
	int ret = -ENOMEM;

	if (server_msg)
		*server_msg = NULL;
	ret = push_url_check(url, NULL);	/* loads libcurl */
	if (ret)
		return ret;
	ret = -ENOMEM;
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return -ENOMEM;
	if (o->no_env_auth)
		tok = user = pass = NULL;
	else
		push_http_warn_cleartext(url);
	cur = kb_xstrdup(url);
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
	} else if ((ret = push_netrc_auth(e, url, o->netrc_file,
					   !o->no_env_auth, "POST"))) {
		goto out;
	}
	/* redirects are followed here, not by libcurl (see http.h) */
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
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

	for (;;) {
		char why[512], at[16];

		curl_easy_setopt(e, CURLOPT_URL, cur);
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
			if (code >= 300 && code < 400) {
				char *loc = NULL;

				curl_easy_getinfo(e, CURLINFO_REDIRECT_URL, &loc);
				if (!loc) {
					kb_error("POST %s: HTTP %ld without a "
						 "Location: the store answered "
						 "a redirect to nowhere; check "
						 "the URL", cur, code);
					ret = -EXDEV;
					goto out;
				}
				if ((code == 307 || code == 308) &&
				    push_same_origin(cur, loc) &&
				    redirects < 5) {
					redirects++;
					kb_info("POST %s: HTTP %ld: moved to %s "
						"(same origin): sending it there",
						cur, code, loc);
					free(cur);
					cur = kb_xstrdup(loc);
					continue;	/* not an attempt */
				}
				if (code != 307 && code != 308)
					kb_error("POST %s: HTTP %ld redirects "
						 "to %s: not followed (a %ld "
						 "turns the POST into a GET and "
						 "the data would be lost); push "
						 "to that URL directly", cur,
						 code, loc, code);
				else if (redirects >= 5)
					kb_error("POST %s: HTTP %ld redirects "
						 "to %s: more than 5 redirects "
						 "in a row, not followed; push "
						 "to the final URL directly",
						 cur, code, loc);
				else
					kb_error("POST %s: HTTP %ld redirects "
						 "to %s, another origin (scheme, "
						 "host or port): not followed, "
						 "so that no credentials go to "
						 "another host; if you trust it, "
						 "push to that URL directly",
						 cur, code, loc);
				ret = -EXDEV;
				goto out;
			}
			msg = server_message(&resp);
			if (code == 413) {
				/* the caller splits or explains */
				if (server_msg)
					*server_msg = msg;
				else
					free(msg);
				ret = -E2BIG;
				goto out;
			}
			if (code >= 400 && code < 500 && code != 408 &&
			    code != 429) {
				kb_error("POST %s: the server refused it: HTTP "
					 "%ld: %s (not retried: fix the URL, "
					 "database/bucket name or credentials)",
					 cur, code, msg);
				free(msg);
				ret = -EREMOTEIO;
				goto out;
			}
			kb_fmt(why, sizeof(why), "HTTP %ld: %s", code, msg);
			free(msg);
		} else if (curl_tls_problem(c)) {
			kb_error("POST %s: TLS: %s (certificates are always "
				 "verified; for a private CA give its PEM file "
				 "with --cacert or KBENCH_PUSH_CACERT)", cur,
				 errbuf[0] ? errbuf : curl_easy_strerror(c));
			ret = -EINVAL;
			goto out;
		} else if (!curl_transient(c)) {
			kb_error("POST %s: %s", cur,
				 errbuf[0] ? errbuf : curl_easy_strerror(c));
			ret = -EINVAL;
			goto out;
		} else {
			kb_fmt(why, sizeof(why), "%s",
			       errbuf[0] ? errbuf : curl_easy_strerror(c));
		}
		if (attempt == attempts) {
			kb_error("POST %s failed %u time%s, last: %s", cur,
				 attempts, attempts == 1 ? "" : "s", why);
			ret = -EAGAIN;
			goto out;
		}
		wait = next_delay(e, code, delay, o, why, sizeof(why));
		kb_warn("POST %s: %s; retrying in %.1f s, at %s (attempt %u "
			"of %u)", cur, why, wait, clock_in(wait, at, sizeof(at)),
			attempt + 1, attempts);
		if (sleep_s(wait)) {
			kb_error("POST %s: interrupted while waiting to retry",
				 cur);
			ret = -EAGAIN;
			goto out;
		}
		attempt++;
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
	free(cur);
	free(resp.buf);
	curl_global_cleanup();
	return ret;
}
