/* push/fetch.c - fetch_url(): artifacts by URL into a cache (see fetch.h).
 *
 * libcurl: https://curl.se/libcurl/c/ (CURLOPT_RESUME_FROM_LARGE,
 * CURLOPT_XFERINFOFUNCTION, CURLOPT_FAILONERROR); SHA-256 (FIPS 180-4):
 * GNU Nettle's sha256_init/update/digest (the Nettle manual, "Hash
 * functions"; not OpenSSL's libcrypto: loading it was 4 ms of every
 * kbench start here, issue 16).
 */
#include "push/fetch.h"
#include "push/http.h"
#include "lib/err.h"
#include "lib/file.h"

#include <ctype.h>
#include "push/curl_dl.h"
#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FETCH_ATTEMPTS 4
#define BAR_WIDTH 30

static void to_hex(const unsigned char *md, unsigned len, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	unsigned i;

	for (i = 0; i < len; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[2 * len] = '\0';
}

int fetch_sha256_file(const char *path, char hex[65])
{
	unsigned char md[SHA256_DIGEST_SIZE], buf[1 << 16];
	struct sha256_ctx ctx;
	FILE *f;
	size_t n;
	int ret = -EIO;

	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		kb_error("%s: cannot read: %s", path, strerror(errno));
		return ret;
	}
	sha256_init(&ctx);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&ctx, n, buf);
	if (ferror(f)) {
		kb_error("%s: read error", path);
		goto out;
	}
	sha256_digest(&ctx, sizeof(md), md);
	to_hex(md, sizeof(md), hex);
	ret = 0;
out:
	fclose(f);
	return ret;
}

static int valid_sha(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return s[64] == '\0';
}

/* CACHE/<16 hex of sha256(url)>-<sanitised last path component>. */
static char *cache_name(const char *cache_dir, const char *url,
			const char *path)
{
	unsigned char md[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1], *base, *c, *name;
	const char *slash = path ? strrchr(path, '/') : NULL;
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, strlen(url), (const uint8_t *)url);
	sha256_digest(&ctx, sizeof(md), md);
	to_hex(md, sizeof(md), hex);
	hex[16] = '\0';
	base = kb_xstrdup(slash && slash[1] ? slash + 1 :
			  (path && *path && !slash ? path : "download"));
	for (c = base; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._+-", *c))
			*c = '_';
	if (base[0] == '.')
		base[0] = '_';
	name = kb_xasprintf("%s/%s-%s", cache_dir, hex, base);
	free(base);
	return name;
}

struct progress {
	const char *name;
	curl_off_t offset;	/* bytes already in the .part file */
	int tty;
	double last, t0;
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct progress *p = arg;
	double now = mono_s(), mib = 1024.0 * 1024.0, rate;
	curl_off_t have = p->offset + dlnow, total = dltotal ? p->offset +
		dltotal : 0;
	char bar[BAR_WIDTH + 1];
	int i, fill;

	(void)ultotal;
	(void)ulnow;
	if (!p->tty || (now - p->last < 0.2 && (!total || have < total)))
		return 0;
	p->last = now;
	rate = now > p->t0 ? dlnow / (now - p->t0) / mib : 0;
	if (total > 0) {
		fill = (int)((double)have * BAR_WIDTH / (double)total);
		if (fill > BAR_WIDTH)
			fill = BAR_WIDTH;
		for (i = 0; i < BAR_WIDTH; i++)
			bar[i] = i < fill ? '#' : '-';
		bar[BAR_WIDTH] = '\0';
		fprintf(stderr, "\rkbench: %s [%s] %3d%% %.1f/%.1f MiB "
			"%.1f MiB/s ", p->name, bar,
			(int)((double)have * 100 / (double)total),
			have / mib, total / mib, rate);
	} else {
		fprintf(stderr, "\rkbench: %s %.1f MiB %.1f MiB/s ", p->name,
			have / mib, rate);
	}
	fflush(stderr);
	return 0;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int transient(CURLcode c, long code)
{
	if (c == CURLE_HTTP_RETURNED_ERROR)
		return code >= 500 || code == 408 || code == 429;
	return c == CURLE_COULDNT_CONNECT || c == CURLE_OPERATION_TIMEDOUT ||
	       c == CURLE_PARTIAL_FILE || c == CURLE_RECV_ERROR ||
	       c == CURLE_SEND_ERROR || c == CURLE_GOT_NOTHING ||
	       c == CURLE_COULDNT_RESOLVE_HOST || c == CURLE_HTTP2_STREAM;
}

/* One transfer appending to part.  *restart is set when the server
 * cannot resume (the caller removes part and starts again). */
static CURLcode transfer(CURL *e, const char *url, const char *part,
			 struct progress *pr, long *code, char *errbuf,
			 int *restart, int *ioerr)
{
	/* root's alone (0600): a file:// URL may name a file others may
	 * not read (/etc/shadow), and the cache is no place to widen that */
	int fd = open(part, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
		      O_NOFOLLOW, 0600);
	/* at the end, for ftello below (fdopen does not move there) */
	FILE *f = fd < 0 || lseek(fd, 0, SEEK_END) < 0 ? NULL :
		  fdopen(fd, "ab");
	curl_off_t off;
	CURLcode c;

	*restart = 0;
	*ioerr = 0;
	*code = 0;
	if (!f) {
		*ioerr = errno;
		if (fd >= 0)
			close(fd);
		return CURLE_WRITE_ERROR;
	}
	off = (curl_off_t)ftello(f);
	pr->offset = off;
	pr->t0 = mono_s();
	pr->last = 0;
	errbuf[0] = '\0';
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(e, CURLOPT_RESUME_FROM_LARGE, off);
	c = curl_easy_perform(e);
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, code);
	if (fflush(f) || fsync(fileno(f)))
		*ioerr = errno;
	if (fclose(f) && !*ioerr)
		*ioerr = errno;
	if (pr->tty)
		fputc('\n', stderr);
	if (c == CURLE_RANGE_ERROR || c == CURLE_BAD_DOWNLOAD_RESUME ||
	    (c == CURLE_HTTP_RETURNED_ERROR && *code == 416))
		*restart = 1;
	return c;
}

int fetch_url(const char *url, const char *cache_dir, const char *sha256_hex,
	      char **path_out)
{
	CURLU *u = NULL;
	CURL *e = NULL;
	char *scheme = NULL, *upath = NULL, *user = NULL, *final = NULL;
	char *part = NULL, hex[65], errbuf[CURL_ERROR_SIZE];
	struct progress pr = { 0 };
	struct stat stb;
	int ret = -EINVAL, attempt, restart = 0, ioerr;
	double delay = 1.0;
	long code = 0;
	CURLcode c = CURLE_OK;

	*path_out = NULL;
	if (sha256_hex && !valid_sha(sha256_hex)) {
		kb_error("sha256 = '%s': expected 64 hexadecimal digits (the "
			 "output of sha256sum FILE)", sha256_hex);
		return -EINVAL;
	}
	ret = kb_curl_load();
	if (ret)
		return ret;
	ret = -EINVAL;
	u = curl_url();
	if (!u)
		return -ENOMEM;
	if (!url || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
		kb_error("'%s' is not a URL (expected e.g. "
			 "https://build.example.org/bzImage)", url ? url : "");
		goto out;
	}
	curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
	curl_url_get(u, CURLUPART_PATH, &upath, 0);
	curl_url_get(u, CURLUPART_USER, &user, 0);
	if (!scheme || (strcmp(scheme, "http") && strcmp(scheme, "https") &&
			strcmp(scheme, "file"))) {
		kb_error("%s: only http://, https:// and file:// URLs can be "
			 "fetched", url);
		goto out;
	}
	if (user) {
		kb_error("a fetch URL holds credentials (user@host); remove "
			 "them and put them in ~/.netrc instead (machine HOST "
			 "login USER password PASS)");
		goto out;
	}
	ret = kb_mkdir_p(cache_dir);
	if (ret)
		goto out;
	final = cache_name(cache_dir, url, upath);
	if (!final) {
		ret = -ENOMEM;
		goto out;
	}
	part = kb_xasprintf("%s.part", final);

	if (kb_exists(final)) {
		if (!sha256_hex) {
			kb_info("%s: using the cached %s", url, final);
			goto done;
		}
		ret = fetch_sha256_file(final, hex);
		if (ret)
			goto out;
		if (!strcasecmp(hex, sha256_hex)) {
			kb_info("%s: using the cached %s (sha256 matches)", url,
				final);
			goto done;
		}
		kb_warn("%s: cached %s has sha256 %s, not %s: downloading "
			"it again", url, final, hex, sha256_hex);
		unlink(final);
	}

	ret = -ENOMEM;
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		goto out;
	e = curl_easy_init();
	if (!e)
		goto cleanup;
	pr.name = strrchr(final, '/') + 1;
	pr.tty = isatty(STDERR_FILENO);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https,file");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(e, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, 30L);
	/* a stalled transfer (< 1 byte/s for 60 s) is a timeout */
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "kbench/" KBENCH_VERSION);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(e, CURLOPT_XFERINFODATA, &pr);
	/* the netrc's entry for the URL's host, sent to that host only
	 * (push/http.h): never its 'default' entry, which names no host, nor
	 * a password others can read */
	ret = push_netrc_auth(e, url, NULL, 0, "GET");
	if (ret)
		goto cleanup;
	ret = -ENOMEM;

	for (attempt = 1; attempt <= FETCH_ATTEMPTS; attempt++) {
		const char *why;

		if (!stat(part, &stb) && stb.st_size > 0)
			kb_info("%s: resuming at byte %lld of an interrupted "
				"download", url, (long long)stb.st_size);
		c = transfer(e, url, part, &pr, &code, errbuf, &restart, &ioerr);
		if (ioerr) {
			ret = -ioerr;
			kb_error("%s: cannot write %s: %s", url, part,
				 strerror(ioerr));
			goto cleanup;
		}
		if (c == CURLE_OK)
			break;
		why = errbuf[0] ? errbuf : curl_easy_strerror(c);
		if (restart) {
			kb_warn("%s: the server cannot resume (%s): starting "
				"again from byte 0", url, why);
			unlink(part);
			continue;
		}
		if (!transient(c, code)) {
			kb_error("%s: %s%s", url, why, c ==
				 CURLE_PEER_FAILED_VERIFICATION ? " (TLS "
				 "certificates are always verified)" : "");
			ret = c == CURLE_HTTP_RETURNED_ERROR ? -EREMOTEIO :
								-EIO;
			goto cleanup;
		}
		if (attempt == FETCH_ATTEMPTS) {
			kb_error("%s: %s, %d times; the partial download %s is "
				 "kept and the next fetch resumes it", url, why,
				 FETCH_ATTEMPTS, part);
			ret = -EAGAIN;
			goto cleanup;
		}
		kb_warn("%s: %s; resuming in %.0f s (attempt %d of %d)", url,
			why, delay, attempt + 1, FETCH_ATTEMPTS);
		sleep_s(delay);
		delay *= 2;
	}
	if (c != CURLE_OK) {
		kb_error("%s: the server cannot resume and the download "
			 "failed again; see the warnings above", url);
		ret = -EIO;
		goto cleanup;
	}
	if (sha256_hex) {
		ret = fetch_sha256_file(part, hex);
		if (ret)
			goto cleanup;
		if (strcasecmp(hex, sha256_hex)) {
			kb_error("%s: sha256 mismatch: expected %s, got %s; "
				 "the download was removed (check the URL and "
				 "the sha256 in kernels.conf)", url,
				 sha256_hex, hex);
			unlink(part);
			ret = -EBADMSG;
			goto cleanup;
		}
	}
	if (rename(part, final) < 0) {
		ret = -errno;
		kb_error("cannot rename %s to %s: %s", part, final,
			 strerror(errno));
		goto cleanup;
	}
	if (!stat(final, &stb))
		kb_info("%s: fetched %lld bytes%s into %s", url,
			(long long)stb.st_size, sha256_hex ?
			" (sha256 verified)" : "", final);
	ret = 0;
cleanup:
	curl_easy_cleanup(e);
	curl_global_cleanup();
	if (ret)
		goto out;
done:
	*path_out = final;
	final = NULL;
	ret = 0;
out:
	curl_free(scheme);
	curl_free(upath);
	curl_free(user);
	curl_url_cleanup(u);
	free(final);
	free(part);
	return ret;
}
