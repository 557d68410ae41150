/* push/curl_dl.h - libcurl, loaded when kbench first needs it.
 *
 * kbench links libcurl at run time (dlopen of KB_CURL_SONAME,
 * "libcurl.so.4": Debian's libcurl4, the ABI of libcurl 7.x and 8.x),
 * not at start: libcurl brings 28 of the 39 shared libraries kbench would
 * otherwise load at every start, and a vm guest loads them over 9p before
 * its first run (about 0.2 s of a TCG guest's start, issue 16), though
 * only push and fetch use them.
 *
 * Use: include this header instead of <curl/curl.h>, and call
 * kb_curl_load() at the top of each function that calls libcurl; the
 * libcurl names below then call through the loaded library.  libcurl's
 * own API and documentation apply unchanged (curl_easy_setopt(3) ...),
 * except that libcurl's compile-time checks of curl_easy_setopt() and
 * curl_easy_getinfo() arguments are off (CURL_DISABLE_TYPECHECK: its
 * macros call the functions by name, which kbench no longer links).
 */
#ifndef KBENCH_PUSH_CURL_DL_H
#define KBENCH_PUSH_CURL_DL_H

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <time.h>

#define KB_CURL_SONAME "libcurl.so.4"

/* The libcurl functions kbench calls, as loaded: each member has the
 * type of libcurl's own declaration (<curl/curl.h>, <curl/urlapi.h>,
 * <curl/header.h>), so a changed prototype fails to compile here. */
#define KB_CURL_FN(name) __typeof__(curl_##name) *name
struct kb_curl_api {
	KB_CURL_FN(global_init);
	KB_CURL_FN(global_cleanup);
	KB_CURL_FN(easy_init);
	KB_CURL_FN(easy_cleanup);
	KB_CURL_FN(easy_setopt);
	KB_CURL_FN(easy_getinfo);
	KB_CURL_FN(easy_perform);
	KB_CURL_FN(easy_strerror);
	KB_CURL_FN(easy_header);
	KB_CURL_FN(slist_append);
	KB_CURL_FN(slist_free_all);
	KB_CURL_FN(url);
	KB_CURL_FN(url_cleanup);
	KB_CURL_FN(url_get);
	KB_CURL_FN(url_set);
	KB_CURL_FN(free);
	KB_CURL_FN(getdate);
};
#undef KB_CURL_FN

/* Filled by kb_curl_load(); all NULL before. */
extern struct kb_curl_api kb_curl_api;

/* Loads libcurl once (later calls return the first call's result).
 * 0, or -ENOENT after an error on stderr naming the library, dlerror()'s
 * reason and the Debian package (libcurl4); -ENOSYS when the library
 * lacks one of the functions above (older than 7.84, which added
 * curl_easy_header), naming it. */
int kb_curl_load(void);

/* What kb_curl_load() does once, with any library name (tests): fills
 * *out only on success; the same errors, naming soname. */
int kb_curl_load_lib(const char *soname, struct kb_curl_api *out);

#ifndef KB_CURL_DL_IMPL
/* <curl/curl.h> wraps these two in macros that count the arguments */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init	(*kb_curl_api.global_init)
#define curl_global_cleanup	(*kb_curl_api.global_cleanup)
#define curl_easy_init		(*kb_curl_api.easy_init)
#define curl_easy_cleanup	(*kb_curl_api.easy_cleanup)
#define curl_easy_setopt	(*kb_curl_api.easy_setopt)
#define curl_easy_getinfo	(*kb_curl_api.easy_getinfo)
#define curl_easy_perform	(*kb_curl_api.easy_perform)
#define curl_easy_strerror	(*kb_curl_api.easy_strerror)
#define curl_easy_header	(*kb_curl_api.easy_header)
#define curl_slist_append	(*kb_curl_api.slist_append)
#define curl_slist_free_all	(*kb_curl_api.slist_free_all)
#define curl_url		(*kb_curl_api.url)
#define curl_url_cleanup	(*kb_curl_api.url_cleanup)
#define curl_url_get		(*kb_curl_api.url_get)
#define curl_url_set		(*kb_curl_api.url_set)
#define curl_free		(*kb_curl_api.free)
#define curl_getdate		(*kb_curl_api.getdate)
#endif

#endif
