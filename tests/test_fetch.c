/* tests/test_fetch.c - fetch_url() (push/fetch.h) against a loopback HTTP
 * server (tests/http_server.py, python3): download with and without a
 * sha256, a wrong sha256, reuse of the cache, resume of a .part file,
 * resume after a connection cut mid-transfer, a server that ignores
 * Range, 404, bad arguments.  The artifact is 300 000 pseudo-random bytes
 * written by the test; its expected SHA-256 comes from sha256sum(1), the
 * two FIPS 180-2 vectors check fetch_sha256_file() itself.  Skipped
 * (cmocka skip) when python3 is missing.  Runs from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <nettle/sha2.h>
#include <signal.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "push/fetch.h"

#define ART_SIZE 300000

static char tmp[64];
static char *root, *posts, *reqlog, *portf, *art;
static char art_sha[65];
static pid_t server;
static int port;

static char *url(const char *kind, const char *name)
{
	return kb_xasprintf("http://127.0.0.1:%d/%s/%s", port, kind, name);
}

/* Requests logged for path; last (NULL: not asked) gets the last one's
 * field ("range", "authorization_value"), "" when it had none. */
static int requests_field(const char *path, const char *field, char *last,
			  size_t len)
{
	FILE *f = fopen(reqlog, "r");
	char line[4096];
	int n = 0;

	if (last)
		last[0] = '\0';
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		json_t *j = json_loads(line, 0, NULL);
		const char *p = json_string_value(json_object_get(j, "path"));

		if (p && !strcmp(p, path)) {
			n++;
			if (last) {
				const char *r = json_string_value(
					json_object_get(j, field));

				snprintf(last, len, "%s", r ? r : "");
			}
		}
		json_decref(j);
	}
	fclose(f);
	return n;
}

/* Requests logged for path; *last_range gets the last one's Range. */
static int requests(const char *path, char *last_range, size_t len)
{
	return requests_field(path, "range", last_range, len);
}

/* The cache file fetch_url() uses (fetch.h: 16 hex of sha256(url)). */
static char *cache_path(const char *dir, const char *u, const char *base)
{
	unsigned char md[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;
	unsigned i;
	char hex[17];

	sha256_init(&ctx);
	sha256_update(&ctx, strlen(u), (const uint8_t *)u);
	sha256_digest(&ctx, sizeof(md), md);
	for (i = 0; i < 8; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return kb_xasprintf("%s/%s-%s", dir, hex, base);
}

static int same_as_art(const char *path)
{
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	int same;

	if (kb_read_file(path, &a, &la, 1) || kb_read_file(art, &b, &lb, 1))
		same = 0;
	else
		same = la == lb && !memcmp(a, b, la);
	free(a);
	free(b);
	return same;
}

static int group_setup(void **state)
{
	char *argv[12], *out = NULL;
	unsigned char *buf;
	unsigned long x = 12345;
	FILE *f;
	int i;

	(void)state;
	kb_quiet = 1;
	snprintf(tmp, sizeof(tmp), "/tmp/kbench-fetch.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	root = kb_path_join(tmp, "root");
	posts = kb_path_join(tmp, "posts");
	reqlog = kb_path_join(tmp, "requests.log");
	portf = kb_path_join(tmp, "port");
	art = kb_path_join(root, "art.bin");
	mkdir(root, 0755);
	mkdir(posts, 0755);
	buf = kb_xmalloc(ART_SIZE);
	for (i = 0; i < ART_SIZE; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		buf[i] = (unsigned char)(x >> 56);
	}
	f = fopen(art, "wb");
	if (!f || fwrite(buf, 1, ART_SIZE, f) != ART_SIZE || fclose(f))
		return -1;
	free(buf);
	argv[0] = "sha256sum";
	argv[1] = art;
	argv[2] = NULL;
	if (kb_capture(argv, &out) != 0 || strlen(out) < 64)
		return -1;
	memcpy(art_sha, out, 64);
	art_sha[64] = '\0';
	free(out);

	server = fork();
	if (server < 0)
		return -1;
	if (server == 0) {
		argv[0] = "python3";
		argv[1] = "tests/http_server.py";
		argv[2] = "--root";
		argv[3] = root;
		argv[4] = "--post-dir";
		argv[5] = posts;
		argv[6] = "--log";
		argv[7] = reqlog;
		argv[8] = "--port-file";
		argv[9] = portf;
		argv[10] = NULL;
		execvp(argv[0], argv);
		_exit(127);
	}
	for (i = 0; i < 200 && !kb_exists(portf); i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		int st;

		if (waitpid(server, &st, WNOHANG) == server) {
			server = 0;
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (kb_exists(portf)) {
		f = fopen(portf, "r");
		if (!f || fscanf(f, "%d", &port) != 1)
			port = 0;
		if (f)
			fclose(f);
	}
	return 0;
}

static int group_teardown(void **state)
{
	char *argv[] = { "rm", "-rf", tmp, NULL };
	struct kb_spawn_result res;
	struct kb_spawn_opts o = { 0 };

	(void)state;
	if (server > 0) {
		kill(server, SIGTERM);
		waitpid(server, NULL, 0);
	}
	if (tmp[0])
		kb_spawn(argv, &o, &res);
	free(root);
	free(posts);
	free(reqlog);
	free(portf);
	free(art);
	return 0;
}

static void need_server(void)
{
	if (!port) {
		fprintf(stderr, "SKIP: python3 tests/http_server.py did not "
				"start (apt-get install python3)\n");
		skip();
	}
}

static void test_sha256_vectors(void **state)
{
	char *p = kb_path_join(tmp, "abc.txt"), hex[65];

	(void)state;
	/* FIPS 180-2, appendix B.1 ("abc") and the empty message */
	assert_int_equal(kb_write_atomic(p, "abc", 3), 0);
	assert_int_equal(fetch_sha256_file(p, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
				 "b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(kb_write_atomic(p, "", 0), 0);
	assert_int_equal(fetch_sha256_file(p, hex), 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
				 "27ae41e4649b934ca495991b7852b855");
	free(p);
}

static void test_fetch_sha_ok_then_reused(void **state)
{
	char *u, *cache, *path = NULL, *want, *part;
	char upper[65];
	size_t i;

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c1");
	u = url("files", "art.bin");
	want = cache_path(cache, u, "art.bin");
	assert_int_equal(fetch_url(u, cache, art_sha, &path), 0);
	assert_non_null(path);
	assert_string_equal(path, want);
	assert_true(same_as_art(path));
	part = kb_xasprintf("%s.part", path);
	assert_false(kb_exists(part));
	assert_int_equal(requests("/files/art.bin", NULL, 0), 1);
	free(path);

	/* present and matching (any case of hex digits): no new request */
	for (i = 0; i < 65; i++)
		upper[i] = (char)(art_sha[i] >= 'a' && art_sha[i] <= 'f' ?
				  art_sha[i] - 32 : art_sha[i]);
	assert_int_equal(fetch_url(u, cache, upper, &path), 0);
	assert_string_equal(path, want);
	assert_int_equal(requests("/files/art.bin", NULL, 0), 1);
	free(path);
	/* without sha256: reused as well */
	assert_int_equal(fetch_url(u, cache, NULL, &path), 0);
	assert_int_equal(requests("/files/art.bin", NULL, 0), 1);
	free(path);
	free(part);
	free(want);
	free(u);
	free(cache);
}

static void test_fetch_without_sha(void **state)
{
	char *u, *cache, *path = NULL;

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c2");
	u = url("files", "art.bin");
	assert_int_equal(fetch_url(u, cache, NULL, &path), 0);
	assert_true(same_as_art(path));
	free(path);
	free(u);
	free(cache);
}

static void test_fetch_wrong_sha(void **state)
{
	char *u, *cache, *path = (char *)"x";
	char *want, *part;
	const char *bad = "0000000000000000000000000000000000000000000000000000000000000000";

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c3");
	u = url("files", "art.bin");
	want = cache_path(cache, u, "art.bin");
	part = kb_xasprintf("%s.part", want);
	assert_int_equal(fetch_url(u, cache, bad, &path), -EBADMSG);
	assert_null(path);
	assert_false(kb_exists(want));
	assert_false(kb_exists(part));

	/* a cached file that does not match is downloaded again */
	assert_int_equal(kb_write_atomic(want, "stale", 5), 0);
	assert_int_equal(fetch_url(u, cache, art_sha, &path), 0);
	assert_true(same_as_art(path));
	free(path);
	free(want);
	free(part);
	free(u);
	free(cache);
}

static void test_fetch_resumes_part_file(void **state)
{
	char *u, *cache, *path = NULL, *want, *part;
	char *data = NULL, range[64];
	size_t len = 0;

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c4");
	u = url("files", "art.bin");
	want = cache_path(cache, u, "art.bin");
	part = kb_xasprintf("%s.part", want);
	assert_int_equal(kb_mkdir_p(cache), 0);
	assert_int_equal(kb_read_file(art, &data, &len, 0), 0);
	assert_int_equal(kb_write_atomic(part, data, 100000), 0);
	int before = requests("/files/art.bin", NULL, 0);

	assert_int_equal(fetch_url(u, cache, art_sha, &path), 0);
	assert_int_equal(requests("/files/art.bin", range, sizeof(range)),
			 before + 1);
	assert_string_equal(range, "bytes=100000-");
	assert_true(same_as_art(path));
	assert_false(kb_exists(part));
	free(data);
	free(path);
	free(want);
	free(part);
	free(u);
	free(cache);
}

static void test_fetch_resumes_after_cut(void **state)
{
	char *u, *cache, *path = NULL, range[64];

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c5");
	u = url("cut", "art.bin");
	assert_int_equal(fetch_url(u, cache, art_sha, &path), 0);
	/* first request cut at half, the second resumed there */
	assert_int_equal(requests("/cut/art.bin", range, sizeof(range)), 2);
	assert_string_equal(range, "bytes=150000-");
	assert_true(same_as_art(path));
	free(path);
	free(u);
	free(cache);
}

static void test_fetch_server_without_ranges(void **state)
{
	char *u, *cache, *path = NULL, *want, *part;

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c6");
	u = url("norange", "art.bin");
	want = cache_path(cache, u, "art.bin");
	part = kb_xasprintf("%s.part", want);
	assert_int_equal(kb_mkdir_p(cache), 0);
	assert_int_equal(kb_write_atomic(part, "junk-junk", 9), 0);
	assert_int_equal(fetch_url(u, cache, art_sha, &path), 0);
	assert_true(same_as_art(path));
	assert_int_equal(requests("/norange/art.bin", NULL, 0), 2);
	free(path);
	free(want);
	free(part);
	free(u);
	free(cache);
}

static void test_fetch_http_error(void **state)
{
	char *u, *cache, *path = NULL;

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c7");
	u = url("files", "missing.bin");
	assert_int_equal(fetch_url(u, cache, NULL, &path), -EREMOTEIO);
	assert_null(path);
	assert_int_equal(requests("/files/missing.bin", NULL, 0), 1);
	free(u);
	free(cache);
}

/* The server's redirect (302) named name to URL to (malloc'd). */
static char *redirect_to(const char *name, const char *to)
{
	char *q = kb_xmalloc(3 * strlen(to) + 1), *p = q, *u;
	const char *s;

	for (s = to; *s; s++)	/* %-encoded but letters and digits */
		p += isalnum((unsigned char)*s) ? sprintf(p, "%c", *s) :
		     sprintf(p, "%%%02X", (unsigned char)*s);
	*p = '\0';
	u = kb_xasprintf("http://127.0.0.1:%d/redirect/302/%s?to=%s", port,
			 name, q);
	free(q);
	return u;
}

/* A redirect is followed to http(s) only: a server (or whoever answers
 * for a http:// URL) cannot make kbench copy a local file such as
 * /etc/shadow into the cache, where a vm or kexec boot would use it. */
static void test_fetch_redirect_not_to_file(void **state)
{
	char *u, *cache, *path = NULL, *secret, *to;

	(void)state;
	need_server();
	cache = kb_path_join(tmp, "c9");
	secret = kb_path_join(tmp, "secret");
	assert_int_equal(kb_write_atomic(secret, "root:x\n", 7), 0);
	to = kb_xasprintf("file://%s", secret);
	u = redirect_to("k", to);
	assert_int_not_equal(fetch_url(u, cache, NULL, &path), 0);
	assert_null(path);
	free(u);
	free(to);
	/* a redirect to http is followed */
	to = url("files", "art.bin");
	u = redirect_to("k2", to);
	free(to);
	assert_int_equal(fetch_url(u, cache, NULL, &path), 0);
	assert_true(same_as_art(path) && strstr(path, "/c9/"));
	free(secret);
	free(path);
	free(cache);
	free(u);
}

/* A download's credentials come from the netrc's entry for its host,
 * never from its 'default' entry (which names no host: a kernels.conf
 * copy in a campaign directory could send that login anywhere), and not
 * from a file others can read (a break-it trial: libcurl's
 * CURLOPT_NETRC sent both). */
static void test_fetch_netrc(void **state)
{
	static const struct {
		const char *text;
		mode_t mode;
		int ret;
		const char *auth;
	} c[] = {
		{ "default login d password DSECRET\n", 0600, 0, "" },
		{ "machine 127.0.0.1 login m password MSECRET\n"
		  "default login d password DSECRET\n", 0600, 0,
		  "Basic bTpNU0VDUkVU" },
		{ "machine 127.0.0.1 login m password MSECRET\n", 0644,
		  -EINVAL, NULL },
	};
	const char *oldhome = getenv("HOME");
	char *home = kb_path_join(tmp, "home"), *netrc, *saved;
	char auth[256], name[32];
	size_t i;
	int n;

	(void)state;
	need_server();
	saved = oldhome ? kb_xstrdup(oldhome) : NULL;
	mkdir(home, 0700);
	netrc = kb_path_join(home, ".netrc");
	setenv("HOME", home, 1);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *cache, *u, *path = NULL;
		FILE *f = fopen(netrc, "w");

		assert_non_null(f);
		fputs(c[i].text, f);
		assert_int_equal(fclose(f), 0);
		assert_int_equal(chmod(netrc, c[i].mode), 0);
		snprintf(name, sizeof(name), "cn%zu", i);
		cache = kb_path_join(tmp, name);
		n = requests_field("/files/art.bin", "authorization_value",
				   auth, sizeof(auth));
		u = url("files", "art.bin");
		assert_int_equal(fetch_url(u, cache, NULL, &path), c[i].ret);
		if (c[i].auth) {
			assert_non_null(path);
			assert_true(requests_field("/files/art.bin",
						    "authorization_value", auth,
						    sizeof(auth)) > 0);
			assert_string_equal(auth, c[i].auth);
		} else {	/* refused: nothing asked */
			assert_null(path);
			assert_int_equal(requests_field("/files/art.bin",
						  "authorization_value", auth,
						  sizeof(auth)), n);
		}
		free(path);
		free(u);
		free(cache);
	}
	if (saved)
		setenv("HOME", saved, 1);
	else
		unsetenv("HOME");
	free(saved);
	free(netrc);
	free(home);
}

static void test_fetch_bad_arguments(void **state)
{
	char *cache = kb_path_join(tmp, "c8"), *path = NULL;

	(void)state;
	assert_int_equal(fetch_url("http://127.0.0.1:1/x", cache, "abc",
				   &path), -EINVAL);
	assert_int_equal(fetch_url("ftp://127.0.0.1/x", cache, NULL, &path),
			 -EINVAL);
	assert_int_equal(fetch_url("http://u:p@127.0.0.1/x", cache, NULL,
				   &path), -EINVAL);
	assert_int_equal(fetch_url("not a url", cache, NULL, &path), -EINVAL);
	assert_null(path);
	free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_fetch_sha_ok_then_reused),
		cmocka_unit_test(test_fetch_without_sha),
		cmocka_unit_test(test_fetch_wrong_sha),
		cmocka_unit_test(test_fetch_resumes_part_file),
		cmocka_unit_test(test_fetch_resumes_after_cut),
		cmocka_unit_test(test_fetch_server_without_ranges),
		cmocka_unit_test(test_fetch_http_error),
		cmocka_unit_test(test_fetch_redirect_not_to_file),
		cmocka_unit_test(test_fetch_netrc),
		cmocka_unit_test(test_fetch_bad_arguments),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
