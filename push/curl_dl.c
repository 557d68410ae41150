/* push/curl_dl.c - libcurl loaded at first use (see push/curl_dl.h). */
#define KB_CURL_DL_IMPL 1
#include "push/curl_dl.h"
#include "lib/err.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

struct kb_curl_api kb_curl_api;

int kb_curl_load_lib(const char *soname, struct kb_curl_api *out)
{
	static const struct {
		const char *sym;
		size_t off;
	} fns[] = {
#define F(name) { "curl_" #name, offsetof(struct kb_curl_api, name) }
		F(global_init), F(global_cleanup), F(easy_init),
		F(easy_cleanup), F(easy_setopt), F(easy_getinfo),
		F(easy_perform), F(easy_strerror), F(easy_header),
		F(slist_append), F(slist_free_all), F(url), F(url_cleanup),
		F(url_get), F(url_set), F(free), F(getdate),
#undef F
	};
	struct kb_curl_api api;
	void *h;
	size_t i;

#ifdef KB_STATIC_GUEST
	/* the static guest binary (Makefile: build/kbench-guest) runs only
	 * `kbench guest`; glibc's dlopen in a static program needs the
	 * shared libraries of the glibc it was linked with, which a guest
	 * does not have */
	(void)fns;
	(void)api;
	(void)h;
	(void)i;
	(void)out;
	kb_error("cannot load libcurl (%s): this is kbench's static guest "
		 "binary, which neither pushes nor downloads; run kbench",
		 soname);
	return -ENOSYS;
#else
	/* never unloaded: libcurl's global state lives as long as kbench */
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		kb_error("cannot load libcurl (%s): %s; kbench needs it to "
			 "push results and download kernels (Debian: apt-get "
			 "install libcurl4)", soname, dlerror());
		return -ENOENT;
	}
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		void *p = dlsym(h, fns[i].sym);

		if (!p) {
			kb_error("%s has no %s (kbench needs libcurl 7.84 or "
				 "later)", soname, fns[i].sym);
			dlclose(h);
			return -ENOSYS;
		}
		/* POSIX: a function pointer round-trips through void * */
		memcpy((char *)&api + fns[i].off, &p, sizeof(p));
	}
	*out = api;
	return 0;
#endif
}

int kb_curl_load(void)
{
	static int state = 1;	/* 1: not tried; else the result */

	if (state == 1)
		state = kb_curl_load_lib(KB_CURL_SONAME, &kb_curl_api);
	return state;
}
