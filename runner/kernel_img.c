/* runner/kernel_img.c - a variant's kernel image and modules (see
 * kernel_img.h for the sources). */
#include "push/fetch.h"
#include "runner/kernel_img.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

int bzimage_version(const char *path, char *buf, size_t len)
{
	unsigned char hdr[0x210];
	uint16_t off;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		ret = -ENOEXEC;
		goto out;
	}
	off = (uint16_t)(hdr[0x20E] | hdr[0x20F] << 8);
	if (!off || !len) {
		ret = -ENOEXEC;
		goto out;
	}
	n = pread(fd, buf, len - 1, (off_t)off + 0x200);
	if (n <= 0) {
		ret = -ENOEXEC;
		goto out;
	}
	buf[n] = '\0';
	buf[strnlen(buf, (size_t)n)] = '\0';
out:
	close(fd);
	return ret;
}

int bzimage_sizes(const char *path, uint64_t *need, uint64_t *have)
{
	unsigned char hdr[0x210];
	unsigned setup_sects, version;
	uint64_t syssize;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		ret = -ENOEXEC;
		goto out;
	}
	setup_sects = hdr[0x1F1] ? hdr[0x1F1] : 4;
	version = (unsigned)(hdr[0x206] | hdr[0x207] << 8);
	syssize = (uint64_t)hdr[0x1F4] | (uint64_t)hdr[0x1F5] << 8;
	if (version >= 0x0204)
		syssize |= (uint64_t)hdr[0x1F6] << 16 |
			   (uint64_t)hdr[0x1F7] << 24;
	*need = (uint64_t)(setup_sects + 1) * 512 + syssize * 16;
	*have = (uint64_t)st.st_size;
out:
	close(fd);
	return ret;
}

char *kernel_cache_dir(void)
{
	const char *e = getenv("KBENCH_CACHE"), *home = getenv("HOME");

	if (e && *e)
		return kb_xstrdup(e);
	if (geteuid() == 0)
		return kb_xstrdup("/var/cache/kbench");
	return kb_xasprintf("%s/.cache/kbench", home ? home : "/tmp");
}

/* The first entry of dir whose name starts with prefix (malloc'd). */
static char *find_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	if (!d)
		return NULL;
	while (!found && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			found = kb_xstrdup(e->d_name);
	closedir(d);
	return found;
}

/* 1 for a Debian package name (Policy 5.6.1: lower case letters, digits,
 * + - ., starting with an alphanumeric; upper case accepted as apt
 * does): never an option, never a path. */
static int deb_name_ok(const char *name)
{
	const char *c;

	if (!isalnum((unsigned char)name[0]))
		return 0;
	for (c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("+-.", *c))
			return 0;
	return 1;
}

/* 1 when pkg has a candidate version in the archive (apt-cache policy). */
static int deb_has_candidate(const char *pkg)
{
	char *argv[] = { "apt-cache", "policy", "--", (char *)pkg, NULL };
	char *text = NULL, *c;
	int ok = 0;

	if (kb_capture(argv, &text) == 0 && text &&
	    (c = strstr(text, "Candidate: ")))
		ok = strncmp(c + 11, "(none)", 6) != 0;
	free(text);
	return ok;
}

static int cmp_desc(const void *a, const void *b)
{
	return strverscmp(*(char *const *)b, *(char *const *)a);
}

/* deb:linux-image-6.12.*-amd64: the highest-versioned package name
 * (strverscmp(3) order) that matches the fnmatch(3) glob and has a
 * candidate in the archive (`apt-cache pkgnames PREFIX`, PREFIX the text
 * before the first glob character). */
static int deb_glob(const char *glob, char **out)
{
	size_t plen = strcspn(glob, "*?["), n = 0, i;
	char *prefix = strndup(glob, plen), *text = NULL, *line, *save = NULL;
	char *argv[] = { "apt-cache", "pkgnames", "--", prefix, NULL };
	char **names = NULL;
	int ret = -ENOENT;

	if (!prefix)
		return -ENOMEM;
	if (kb_capture(argv, &text) != 0 || !text) {
		kb_error("kernel = deb:%s: `apt-cache pkgnames %s` failed",
			 glob, prefix);
		goto out;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!fnmatch(glob, line, 0)) {
			names = kb_xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = line;
		}
	qsort(names, n, sizeof(*names), cmp_desc);
	for (i = 0; i < n && ret; i++)
		if (deb_has_candidate(names[i])) {
			*out = kb_xstrdup(names[i]);
			ret = 0;
		}
	if (ret)
		kb_error("kernel = deb:%s: no package in the archive matches "
			 "(%zu known name(s) match, none downloadable; apt-get "
			 "update?)", glob, n);
out:
	free(names);
	free(text);
	free(prefix);
	return ret;
}

int deb_is_concrete(const char *pkg)
{
	const char *p = pkg + 12;
	int i;

	if (strncmp(pkg, "linux-image-", 12))
		return 0;
	for (i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
		if (i < 2 && *p++ != '.')
			return 0;
	}
	return 1;
}

/* A metapackage (linux-image-amd64, linux-image-6.12-amd64) -> the
 * concrete package it depends on (linux-image-6.12.117+deb12-amd64),
 * following `apt-cache depends` while the package depends on another
 * linux-image-* package; a glob is matched first (deb_glob()); a
 * deb_is_concrete() name needs no look-up. */
static int deb_resolve(const char *pkg, char **out)
{
	char *cur = NULL, *text = NULL, *p, *e;
	int depth, st, ret;

	if (strpbrk(pkg, "*?[")) {
		ret = deb_glob(pkg, &cur);
		if (ret)
			return ret;
	} else {
		cur = kb_xstrdup(pkg);
	}
	for (depth = 0; depth < 4; depth++) {
		char *argv[] = { "apt-cache", "depends", "--", cur, NULL };

		if (deb_is_concrete(cur))
			break;
		st = kb_capture(argv, &text);
		if (st != 0) {
			kb_error("kernel = deb:%s: `apt-cache depends %s` "
				 "failed (%d); is it a Debian package name "
				 "(apt-cache search linux-image)?", pkg, cur, st);
			free(text);
			free(cur);
			return -ENOENT;
		}
		p = strstr(text, "  Depends: linux-image-");
		if (!p)
			break;	/* not a metapackage: take it as it is */
		p += 11;
		e = p + strcspn(p, " \n<>");
		free(cur);
		cur = strndup(p, (size_t)(e - p));
		free(text);
		text = NULL;
		if (!cur)
			return -ENOMEM;
	}
	free(text);
	*out = cur;
	return 0;
}

static int run_quiet(char *const argv[], const char *what)
{
	struct kb_spawn_result r;
	int ret = kb_spawn(argv, &(struct kb_spawn_opts){ 0 }, &r);

	if (ret)
		return ret;
	if (!r.exited || r.exit_status) {
		kb_error("%s failed (exit status %d)", what,
			 r.exited ? r.exit_status : -1);
		return -EIO;
	}
	return 0;
}

/* "linux-image-X_6.1.192-3_amd64.deb" -> "6.1.192-3" (apt-get download
 * writes ':' of an epoch as "%3a"), malloc'd, or NULL. */
static char *deb_version(const char *deb)
{
	const char *a = strchr(deb, '_'), *b = a ? strchr(a + 1, '_') : NULL;
	char *v, *e;

	if (!a || !b)
		return NULL;
	v = strndup(a + 1, (size_t)(b - a - 1));
	if (v && (e = strstr(v, "%3a"))) {
		*e = ':';
		memmove(e + 1, e + 3, strlen(e + 3) + 1);
	}
	return v;
}

static int deb_fetch(const char *pkg, const char *pinned, struct kb_kernel *k)
{
	char *cache = kernel_cache_dir();
	char *debs = kb_path_join(cache, "debs");
	char *prefix = NULL, *deb = NULL, *debpath = NULL, *xdir = NULL;
	char *tmp = NULL, *boot = NULL, *img = NULL, *moddirs = NULL;
	char *rel = NULL;
	int ret, cwd = -1;

	if (pinned) {
		k->package = kb_xstrdup(pinned);
		ret = 0;
	} else {
		ret = deb_resolve(pkg, &k->package);
	}
	if (ret)
		goto out;
	/* the pinned name comes from the campaign directory, the resolved
	 * one from apt-cache's output: both go to apt-get's argv (after
	 * "--") and into cache paths, so both must be package names */
	if (!deb_name_ok(k->package)) {
		kb_error("kernel = deb:%s: '%s' (%s) is not a Debian package "
			 "name (letters, digits and + - . starting with a letter "
			 "or digit); nothing fetched", pkg, k->package,
			 pinned ? "recorded in the campaign" : "from apt-cache");
		ret = -EINVAL;
		goto out;
	}
	ret = kb_mkdir_p(debs);
	if (ret)
		goto out;
	prefix = kb_xasprintf("%s_", k->package);
	deb = find_prefixed(debs, prefix);
	if (!deb) {
		/* the cache is root's: no _apt sandbox (and no warning) */
		char *argv[] = { "apt-get", "download", "-q", "-o",
				 "APT::Sandbox::User=root", "--", k->package,
				 NULL };

		kb_info("fetching %s into %s", k->package, debs);
		cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cwd < 0 || chdir(debs) < 0) {
			ret = -errno;
			kb_error("%s: %s", debs, strerror(errno));
			goto out;
		}
		ret = run_quiet(argv, "apt-get download");
		if (fchdir(cwd) < 0 && !ret)
			ret = -errno;
		if (ret && pinned) {
			kb_error("kernel = deb:%s: the campaign was started on "
				 "%s, which is neither in the cache %s nor in "
				 "the archive any more; start a new campaign "
				 "(-o NEWDIR) to test the archive's current "
				 "build", pkg, pinned, debs);
			ret = -ENOENT;
		}
		if (ret)
			goto out;
		deb = find_prefixed(debs, prefix);
		if (!deb) {
			kb_error("apt-get download %s left no %s*.deb in %s",
				 k->package, prefix, debs);
			ret = -ENOENT;
			goto out;
		}
	}
	debpath = kb_path_join(debs, deb);
	k->package_version = deb_version(deb);
	xdir = kb_xasprintf("%s/unpacked/%s", cache, k->package);
	boot = kb_path_join(xdir, "boot");
	if (!kb_exists(boot)) {
		char *argv[] = { "dpkg", "-x", debpath, NULL, NULL };

		tmp = kb_xasprintf("%s.tmp.%d", xdir, (int)getpid());
		argv[3] = tmp;
		ret = kb_mkdir_p(tmp);
		if (!ret)
			ret = run_quiet(argv, "dpkg -x");
		if (!ret && rename(tmp, xdir) < 0) {
			ret = -errno;
			kb_error("rename %s -> %s: %s", tmp, xdir, strerror(errno));
		}
		if (ret)
			goto out;
	}
	img = find_prefixed(boot, "vmlinuz-");
	if (!img) {
		kb_error("%s: no boot/vmlinuz-* (is %s a kernel image package?)",
			 debpath, k->package);
		ret = -ENOENT;
		goto out;
	}
	k->image = kb_path_join(boot, img);
	rel = kb_xstrdup(img + 8);
	moddirs = kb_xasprintf("%s/lib/modules/%s", xdir, rel);
	if (kb_exists(moddirs)) {
		char *dep = kb_path_join(moddirs, "modules.dep");

		if (!kb_exists(dep)) {
			char *argv[] = { "depmod", "-b", xdir, rel, NULL };

			ret = run_quiet(argv, "depmod");
			if (ret == -ENOENT)
				kb_error("depmod is not installed (apt-get "
					 "install kmod)");
		}
		free(dep);
		if (ret)
			goto out;
		k->moddir = moddirs;
		moddirs = NULL;
	}
	k->release = rel;
	rel = NULL;
out:
	if (cwd >= 0)
		close(cwd);
	free(cache);
	free(debs);
	free(prefix);
	free(deb);
	free(debpath);
	free(xdir);
	free(tmp);
	free(boot);
	free(img);
	free(moddirs);
	free(rel);
	return ret;
}

/* 1 for a release that is one path component: printable ASCII, no
 * blank, no '/', not "." nor "..". */
static int release_ok(const char *r)
{
	const char *c;

	if (!*r || !strcmp(r, ".") || !strcmp(r, ".."))
		return 0;
	for (c = r; *c; c++)
		if (!isgraph((unsigned char)*c) || *c == '/')
			return 0;
	return 1;
}

int kernel_is_url(const char *s)
{
	return s && (!strncmp(s, "http://", 7) || !strncmp(s, "https://", 8) ||
		     !strncmp(s, "file://", 7));
}

/* modules = URL: a tarball of lib/modules/<release> (as `make
 * modules_install INSTALL_MOD_PATH=D` lays it out under D, packed from
 * D), fetched into CACHE/urls, unpacked once with tar(1) into
 * CACHE/unpacked/<its cache name>; k->moddir is its
 * lib/modules/<k->release> (or <k->release> at the top), and depmod -b
 * writes modules.dep when the tarball has none. */
static int modules_tarball(const struct kb_variant *v, struct kb_kernel *k)
{
	char *cache = kernel_cache_dir(), *urls = kb_path_join(cache, "urls");
	char *tarball = NULL, *dest = NULL, *cand = NULL, *dep = NULL;
	struct kb_spawn_result r;
	int ret;

	ret = fetch_url(v->modules, urls, NULL, &tarball);
	if (ret)
		goto out;
	/* what the tarball holds is unpacked as root: the unpacked trees
	 * are root's alone (a device node in it, readable by all, would
	 * be a way to the disk), and no file keeps the owner or the
	 * setuid bit the archive says */
	dest = kb_path_join(cache, "unpacked");
	ret = kb_mkdir_p(dest);
	if (!ret && chmod(dest, 0700) < 0) {
		ret = -errno;
		kb_error("chmod 0700 %s: %s", dest, strerror(errno));
	}
	free(dest);
	dest = NULL;
	if (ret)
		goto out;
	dest = kb_xasprintf("%s/unpacked/%s", cache, strrchr(tarball, '/') + 1);
	if (!kb_exists(dest)) {
		char *tmp = kb_xasprintf("%s.tmp", dest);
		char *argv[] = { "tar", "--no-same-owner",
				 "--no-same-permissions", "-xf", tarball, "-C",
				 tmp, NULL };

		ret = kb_mkdir_p(tmp);
		if (!ret)
			ret = kb_spawn(argv, NULL, &r);
		if (!ret && (!r.exited || r.exit_status)) {
			kb_error("variant '%s': modules = %s: tar could not "
				 "unpack %s (expected a .tar, .tar.gz or .tar.xz "
				 "of lib/modules/RELEASE)", v->name, v->modules,
				 tarball);
			ret = -EINVAL;
		}
		if (!ret && rename(tmp, dest) < 0)
			ret = -errno;
		free(tmp);
		if (ret)
			goto out;
	}
	cand = kb_xasprintf("lib/modules/%s", k->release);
	ret = kb_real_dirs(dest, cand);
	if (ret == -ENOENT) {
		free(cand);
		cand = kb_xstrdup(k->release);
		ret = kb_real_dirs(dest, cand);
	}
	if (ret == -ENOENT) {
		kb_error("variant '%s': modules = %s holds neither "
			 "lib/modules/%s nor %s/ (the kernel's release)",
			 v->name, v->modules, k->release, k->release);
		goto out;
	}
	if (ret) {
		kb_error("variant '%s': modules = %s: %s/%s: %s; refused (depmod "
			 "would write where a link leads)", v->name, v->modules,
			 dest, cand, ret == -ELOOP ? "a symbolic link or a file "
			 "where the tarball should have a directory" :
			 strerror(-ret));
		ret = -EINVAL;
		goto out;
	}
	{
		char *t = kb_path_join(dest, cand);

		free(cand);
		cand = t;
	}
	dep = kb_path_join(cand, "modules.dep");
	if (!kb_exists(dep)) {
		char *base = kb_xstrdup(cand), *lm = strstr(base, "/lib/modules/");
		char *argv[] = { "depmod", "-b", base, k->release, NULL };

		if (lm) {
			*lm = '\0';
			if (kb_spawn(argv, NULL, &r) == 0 && r.exited &&
			    !r.exit_status)
				kb_info("depmod -b %s %s: modules.dep written",
					base, k->release);
		}
		free(base);
	}
	k->moddir = cand;
	cand = NULL;
out:
	free(cache);
	free(urls);
	free(tarball);
	free(dest);
	free(cand);
	free(dep);
	return ret;
}

int kernel_resolve(const struct kb_variant *v, struct kb_kernel *k)
{
	return kernel_resolve_pinned(v, NULL, k);
}

int kernel_resolve_pinned(const struct kb_variant *v, const char *pinned,
			  struct kb_kernel *k)
{
	char ver[512];
	uint64_t need, have;
	int ret = 0;

	memset(k, 0, sizeof(*k));
	if (!v->kernel) {
		kb_error("variant '%s' has no kernel = (a bzImage path or "
			 "deb:PACKAGE)", v->name);
		return -EINVAL;
	}
	if (!strncmp(v->kernel, "deb:", 4)) {
		ret = deb_fetch(v->kernel + 4, pinned, k);
		if (ret)
			goto out;
	} else if (kernel_is_url(v->kernel)) {
		char *cache = kernel_cache_dir(), *dir;

		dir = kb_path_join(cache, "urls");
		ret = fetch_url(v->kernel, dir, v->sha256, &k->image);
		free(dir);
		free(cache);
		if (ret)
			goto out;
	} else {
		if (access(v->kernel, R_OK) < 0) {
			ret = -errno;
			kb_error("variant '%s': kernel = %s: %s", v->name,
				 v->kernel, strerror(errno));
			goto out;
		}
		k->image = kb_xstrdup(v->kernel);
	}
	if (!bzimage_version(k->image, ver, sizeof(ver))) {
		k->build = kb_xstrdup(ver);
		if (!k->release)
			k->release = strndup(ver, strcspn(ver, " "));
	}
	if (!k->release) {
		kb_error("variant '%s': %s is not a bzImage (no \"HdrS\" setup "
			 "header); use arch/x86/boot/bzImage of the build",
			 v->name, k->image);
		ret = -ENOEXEC;
		goto out;
	}
	if (!release_ok(k->release)) {
		/* it goes into paths: /lib/modules/RELEASE, depmod -b */
		char *shown = kb_xstrndup_printable(k->release, 80);

		kb_error("variant '%s': %s: kernel release '%s' (its version "
			 "string's first word) is not a `uname -r` (expected "
			 "printable characters, no '/', not . or ..)", v->name,
			 k->image, shown);
		free(shown);
		ret = -EINVAL;
		goto out;
	}
	if (!bzimage_sizes(k->image, &need, &have) && have < need) {
		kb_error("variant '%s': kernel %s is truncated: the setup "
			 "header says %llu bytes, the file has %llu", v->name,
			 k->image, (unsigned long long)need,
			 (unsigned long long)have);
		ret = -ENOEXEC;
		goto out;
	}
	if (v->modules && kernel_is_url(v->modules)) {
		free(k->moddir);
		k->moddir = NULL;
		ret = modules_tarball(v, k);
		if (ret)
			goto out;
	} else if (v->modules) {
		free(k->moddir);
		k->moddir = kb_xstrdup(v->modules);
	} else if (!k->moddir) {
		char *d = kb_xasprintf("/lib/modules/%s", k->release);

		if (kb_exists(d))
			k->moddir = d;
		else
			free(d);
	}
out:
	if (ret)
		kernel_free(k);
	return ret;
}

void kernel_free(struct kb_kernel *k)
{
	free(k->image);
	free(k->moddir);
	free(k->release);
	free(k->build);
	free(k->package);
	free(k->package_version);
	memset(k, 0, sizeof(*k));
}

/* 1 when the kernel config text has the line "NAME=y". */
static int config_has_y(const char *text, const char *name)
{
	size_t nl = strlen(name);
	const char *p = text;

	while ((p = strstr(p, name))) {
		if ((p == text || p[-1] == '\n') && !strncmp(p + nl, "=y", 2) &&
		    (p[nl + 2] == '\n' || p[nl + 2] == '\0'))
			return 1;
		p += nl;
	}
	return 0;
}

/* A boolean parameter's value as kstrtobool() reads it true: bare, y,
 * Y, 1 or on ("module.sig_enforce=0" does not ask for signatures). */
static int bool_true(const char *v)
{
	return !v || (*v && strchr("yY1", *v)) || !strncasecmp(v, "on", 2);
}

/* The value of CONFIG_CMDLINE="..." in a kernel config (malloc'd, the
 * quotes dropped; escapes are rare there and left as they are), or
 * NULL. */
static char *config_cmdline(const char *text)
{
	static const char key[] = "CONFIG_CMDLINE=\"";
	const char *p = strstr(text, key), *e;

	while (p && p != text && p[-1] != '\n')
		p = strstr(p + 1, key);
	if (!p)
		return NULL;
	p += sizeof(key) - 1;
	e = strchr(p, '"');
	return e ? kb_xasprintf("%.*s", (int)(e - p), p) : NULL;
}

/* Why the command line words cmdline (the variant's, or the config's
 * built-in one: where) keep the signatures, or NULL: signatures enforced
 * (module.sig_enforce), lockdown (its modules must be signed), IMA
 * appraisal (an appended signature may be what satisfies it). */
static char *cmdline_keeps(const char *cmdline, const char *where)
{
	if (kb_cmdline_has(cmdline, "module.sig_enforce", bool_true))
		return kb_xasprintf("%s has module.sig_enforce (the kernel "
				    "loads signed modules only)", where);
	if (kb_cmdline_has(cmdline, "lockdown", NULL))
		return kb_xasprintf("%s has lockdown= (a locked-down kernel "
				    "loads signed modules only)", where);
	if (kb_cmdline_has(cmdline, "ima_policy", NULL) ||
	    kb_cmdline_has(cmdline, "ima_appraise", NULL))
		return kb_xasprintf("%s sets an IMA policy or appraisal (it "
				    "may check the modules' appended "
				    "signatures)", where);
	return NULL;
}

int kernel_module_sig_strip(const struct kb_kernel *k, const char *cmdline,
			    char **why)
{
	char *cand[3] = { NULL, NULL, NULL }, *dir, *text = NULL;
	char *cmd = NULL, *cwhy = NULL;
	const char *found = NULL;
	size_t i;
	int strip = 0;

	*why = cmdline_keeps(cmdline, "the variant's cmdline");
	if (*why)
		return 0;
	if (k->image && k->release) {
		const char *slash = strrchr(k->image, '/');

		dir = slash ? kb_xasprintf("%.*s", (int)(slash - k->image),
					   k->image) : kb_xstrdup(".");
		cand[0] = kb_xasprintf("%s/config-%s", dir, k->release);
		cand[1] = kb_xasprintf("%s/../../../.config", dir);
		free(dir);
	}
	if (k->moddir)
		cand[2] = kb_path_join(k->moddir, "build/.config");
	for (i = 0; i < 3 && !found; i++)
		if (cand[i] && !kb_read_file(cand[i], &text, NULL, 1))
			found = cand[i];
	if (!found)
		*why = kb_xasprintf("the kernel's config was not found "
				    "(config-%s beside the image, a tree's "
				    ".config, MODULES/build/.config): whether "
				    "it enforces module signatures is unknown",
				    k->release ? k->release : "?");
	else if (config_has_y(text, "CONFIG_MODULE_SIG_FORCE"))
		*why = kb_xasprintf("%s: CONFIG_MODULE_SIG_FORCE=y (the kernel "
				    "loads signed modules only)", found);
	else if (config_has_y(text, "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY") ||
		 config_has_y(text,
			      "CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY"))
		*why = kb_xasprintf("%s: CONFIG_LOCK_DOWN_KERNEL_FORCE_* (locked "
				    "down from boot: signed modules only)",
				    found);
	else if ((cmd = config_cmdline(text)) &&
		 (cwhy = cmdline_keeps(cmd, "its built-in CONFIG_CMDLINE")))
		*why = kb_xasprintf("%s: %s", found, cwhy);
	else if (!config_has_y(text, "CONFIG_MODULE_SIG"))
		*why = kb_xasprintf("%s: no CONFIG_MODULE_SIG=y (the kernel "
				    "checks no signature)", found);
	else {
		strip = 1;
		*why = kb_xasprintf("%s: CONFIG_MODULE_SIG=y without "
				    "CONFIG_MODULE_SIG_FORCE: the guest loads "
				    "them unsigned and taints itself 'E'",
				    found);
	}
	free(text);
	free(cmd);
	free(cwhy);
	for (i = 0; i < 3; i++)
		free(cand[i]);
	return strip;
}
