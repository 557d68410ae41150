/* runner/initramfs.c - kbench's initramfs for vm variants (see
 * initramfs.h for the contents and the sources of the formats). */
#include "runner/initramfs.h"
#include "runner/results_disk.h"
#include "lib/decompress.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KB_BUSYBOX "/bin/busybox"

/* "kernel/fs/9p/9p.ko", "kernel/fs/9p/9p.ko.xz" or "9p" -> "9p" with
 * '-' as '_' (malloc'd): the base name up to its ".ko". */
static char *mod_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *n = kb_xstrdup(b ? b + 1 : path), *dot = strstr(n, ".ko"), *c;

	if (dot)
		*dot = '\0';
	for (c = n; *c; c++)
		if (*c == '-')
			*c = '_';
	return n;
}

struct depline {
	char *mod;		/* relative .ko path */
	char *name;
	char **deps;		/* relative .ko paths */
	size_t ndeps;
};

struct depfile {
	struct depline *l;
	size_t n;
};

static void depfile_free(struct depfile *d)
{
	size_t i, j;

	for (i = 0; i < d->n; i++) {
		free(d->l[i].mod);
		free(d->l[i].name);
		for (j = 0; j < d->l[i].ndeps; j++)
			free(d->l[i].deps[j]);
		free(d->l[i].deps);
	}
	free(d->l);
}

static int depfile_parse(char *text, struct depfile *d)
{
	char *line, *save = NULL, *colon, *tok, *s2;

	memset(d, 0, sizeof(*d));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct depline *l;

		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		d->l = kb_xrealloc(d->l, (d->n + 1) * sizeof(*d->l));
		l = &d->l[d->n++];
		memset(l, 0, sizeof(*l));
		l->mod = kb_xstrdup(line);
		l->name = mod_name(line);
		s2 = NULL;
		for (tok = strtok_r(colon + 1, " \t", &s2); tok;
		     tok = strtok_r(NULL, " \t", &s2)) {
			l->deps = kb_xrealloc(l->deps, (l->ndeps + 1) *
					      sizeof(*l->deps));
			l->deps[l->ndeps++] = kb_xstrdup(tok);
		}
	}
	return 0;
}

static struct depline *dep_find(struct depfile *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->l[i].name, name))
			return &d->l[i];
	return NULL;
}

static int builtin_has(const char *builtin, const char *name)
{
	const char *p = builtin;
	size_t len;
	char *n;
	int found = 0;

	while (p && *p && !found) {
		len = strcspn(p, "\n");
		n = strndup(p, len);
		if (n) {
			char *m = mod_name(n);

			found = !strcmp(m, name);
			free(m);
			free(n);
		}
		p += len;
		if (*p)
			p++;
	}
	return found;
}

/* Depth-first: dependencies of l, then l.  The depth bound stops a
 * (malformed) cyclic modules.dep. */
static int add_module(struct depfile *d, const char *moddir,
		      struct depline *l, struct kb_modlist *out, int depth)
{
	size_t i;
	int ret;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->name[i], l->name))
			return 0;
	if (depth > 32)
		return -ELOOP;
	for (i = 0; i < l->ndeps; i++) {
		char *dn = mod_name(l->deps[i]);
		struct depline *dl = dep_find(d, dn);

		free(dn);
		if (!dl)
			continue;	/* listed but absent: modprobe would fail too */
		ret = add_module(d, moddir, dl, out, depth + 1);
		if (ret)
			return ret;
	}
	if (out->n == KB_MAX_MODULES)
		return -E2BIG;
	out->path[out->n] = l->mod[0] == '/' ? kb_xstrdup(l->mod) :
			    kb_path_join(moddir, l->mod);
	out->name[out->n++] = kb_xstrdup(l->name);
	return 0;
}

int modules_resolve(const char *moddir, const char *const *want, size_t n,
		    struct kb_modlist *out, char **missing)
{
	char *dpath = kb_path_join(moddir, "modules.dep");
	char *bpath = kb_path_join(moddir, "modules.builtin");
	char *text = NULL, *builtin = NULL;
	struct depfile d = { 0 };
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	*missing = NULL;
	ret = kb_read_file(dpath, &text, NULL, 0);
	if (ret)
		goto out;
	if (kb_read_file(bpath, &builtin, NULL, 1))
		builtin = NULL;
	depfile_parse(text, &d);
	for (i = 0; i < n; i++) {
		char *name = mod_name(want[i]);
		struct depline *l = dep_find(&d, name);

		if (l) {
			ret = add_module(&d, moddir, l, out, 0);
		} else if (!builtin_has(builtin, name)) {
			*missing = kb_xstrdup(want[i]);
			ret = -ENOENT;
		}
		free(name);
		if (ret)
			break;
	}
	if (ret == -ELOOP || ret == -E2BIG)
		kb_error("%s: cannot order the modules (%s)", dpath,
			 ret == -ELOOP ? "dependency cycle" :
			 "more than 64 modules");
out:
	if (ret)
		modules_free(out);
	depfile_free(&d);
	free(text);
	free(builtin);
	free(dpath);
	free(bpath);
	return ret;
}

void modules_free(struct kb_modlist *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->path[i]);
		free(m->name[i]);
	}
	memset(m, 0, sizeof(*m));
}

void cpio_begin(struct kb_cpio *c, FILE *f)
{
	c->f = f;
	c->ino = 1;
	c->err = 0;
}

static void cpio_pad(struct kb_cpio *c, size_t n)
{
	static const char zeros[4];

	if (n % 4 && fwrite(zeros, 1, 4 - n % 4, c->f) != 4 - n % 4)
		c->err = c->err ? c->err : -EIO;
}

void cpio_add(struct kb_cpio *c, const char *name, unsigned mode,
	      const void *data, size_t len, unsigned rmajor, unsigned rminor)
{
	size_t nlen = strlen(name) + 1;
	int hl;

	if (c->err)
		return;
	/* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
	 * devminor, rdevmajor, rdevminor, namesize, check */
	hl = fprintf(c->f, "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X"
		     "%08X%08X%08zX%08X", c->ino++, mode, 0u, 0u,
		     S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned long)len, 0u, 0u,
		     rmajor, rminor, nlen, 0u);
	if (hl != 110 || fwrite(name, 1, nlen, c->f) != nlen) {
		c->err = -EIO;
		return;
	}
	cpio_pad(c, 110 + nlen);
	if (len && fwrite(data, 1, len, c->f) != len) {
		c->err = -EIO;
		return;
	}
	cpio_pad(c, len);
}

int cpio_end(struct kb_cpio *c)
{
	cpio_add(c, "TRAILER!!!", 0, NULL, 0, 0, 0);
	return c->err;
}

/* Single-quoted for sh ('\'' for a quote). */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* Each of the NULL-terminated words, after a blank, single-quoted. */
static void sh_words(FILE *f, const char *const *w)
{
	for (; *w; w++) {
		fputc(' ', f);
		sh_quote(f, *w);
	}
}

/* Module parameters go on an insmod line: NAME=VALUE words only. */
static int param_ok(const char *p)
{
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_=,.:-+ \t", *p))
			return 0;
	return 1;
}

void pathlist_add(struct kb_pathlist *l, const char *path)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], path))
			return;
	l->v = kb_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = kb_xstrdup(path);
}

void pathlist_free(struct kb_pathlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* An absolute path up to its " (0x...)" address (malloc'd), or NULL. */
static char *ldd_path(const char *s)
{
	const char *end = strstr(s, " (");

	if (s[0] != '/')
		return NULL;
	return strndup(s, end ? (size_t)(end - s) : strlen(s));
}

int ldd_parse(const char *text, struct kb_pathlist *libs, char **missing)
{
	char *copy = kb_xstrdup(text), *line, *save = NULL;
	int ret = 0;

	*missing = NULL;
	for (line = strtok_r(copy, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char *arrow, *path = NULL, *l = kb_trim(line);

		arrow = strstr(l, "=>");
		if (arrow) {
			char *rhs = kb_trim(arrow + 2);

			*arrow = '\0';
			if (!strncmp(rhs, "not found", 9)) {
				*missing = kb_xstrdup(kb_trim(l));
				ret = -ENOENT;
				break;
			}
			path = ldd_path(rhs);	/* "=>  (0x...)": none */
		} else {
			path = ldd_path(l);	/* the loader; not linux-vdso */
		}
		if (path)
			pathlist_add(libs, path);
		free(path);
	}
	free(copy);
	return ret;
}

/* 1 when path is an ELF file (a static one has no libraries to list). */
static int is_elf(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), elf;

	if (fd < 0)
		return 0;
	elf = read(fd, magic, 4) == 4 && !memcmp(magic, "\x7f" "ELF", 4);
	close(fd);
	return elf;
}

int initramfs_libs(const char *const *bins, size_t n, struct kb_pathlist *libs)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		char *argv[] = { "ldd", (char *)bins[i], NULL }, *out = NULL;
		char *missing = NULL;
		int st = kb_capture(argv, &out);

		if (st < 0) {
			kb_error("cannot run ldd to list the libraries of %s: "
				 "%s (ldd is in Debian's libc-bin)", bins[i],
				 strerror(-st));
			ret = st;
		} else if (st != 0 && (!out || !*kb_trim(out))) {
			/* "not a dynamic executable": a static binary */
			if (!is_elf(bins[i])) {
				kb_error("%s: not an executable ldd can list "
					 "the libraries of (exit status %d)",
					 bins[i], st);
				ret = -ENOEXEC;
			}
		} else {
			ret = ldd_parse(out ? out : "", libs, &missing);
			if (ret == -ENOENT)
				kb_error("%s needs %s, which the host's loader "
					 "does not find (ldd: not found)",
					 bins[i], missing);
		}
		free(missing);
		free(out);
	}
	return ret;
}

/* The 9p guest: kbench guest loads the modules, mounts the host's root
 * read-only and the campaign directory read-write (runner/guest_setup.h)
 * and chroots there itself; the script only starts it.  "$@" holds the
 * --load-module options (init_script()). */
static void script_9p(FILE *f, const struct kb_initramfs_opts *o)
{
	fputs("read -r cmdline < /proc/cmdline\n"
	      "for w in $cmdline; do\n"
	      "\tcase \"$w\" in init=*)\n"
	      "\t\t", f);
	sh_quote(f, o->guest_argv[0]);
	fputs(" guest \"$@\" --mount-9p /mnt/root --dir ", f);
	sh_quote(f, o->results_dir);
	fputs(" --setup-only || fail 'cannot set the guest up'\n"
	      "\t\texec /bin/busybox chroot /mnt/root \"${w#init=}\" ;;\n"
	      "\tesac\n"
	      "done\n"
	      "say 'starting kbench guest'\n", f);
	sh_quote(f, o->guest_argv[0]);
	fputs(" guest \"$@\" --mount-9p /mnt/root", f);
	sh_words(f, o->guest_argv + 2);
	fputs("\nsay \"kbench guest exited with status $?\"\n"
	      "/bin/busybox sync\n"
	      "/bin/busybox umount /mnt/root/tmp /mnt/root/run 2>/dev/null\n"
	      "/bin/busybox poweroff -f\n", f);
}

/* After kbench guest, self-contained: this boot's run directories onto
 * the results disk. */
static void script_results(FILE *f)
{
	fputs("cd \"$D\" || fail \"cannot enter $D\"\n"
	      "while IFS= read -r k; do\n"
	      "\t[ -n \"$k\" ] && [ -e \"runs/$k\" ] && find \"runs/$k\"\n"
	      "done < \"$R\" | cpio -o -H newc > \"$res\" || "
	      "fail \"cannot write the results archive to $res\"\n"
	      "cd /\n"
	      "sync\n"
	      "say \"results written to $res\"\n", f);
}

/* The self-contained guest: everything is in the initramfs; the campaign
 * directory is a tmpfs; the results go back on the results disk. */
static void script_selfcontained(FILE *f, const struct kb_initramfs_opts *o)
{
	fputs("/bin/busybox --install -s /bin\n"
	      "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
	      "mount -t sysfs sysfs /sys\n"
	      "mount -t devtmpfs devtmpfs /dev\n", f);
	if (o->mods && o->mods->n) {
		sh_quote(f, o->guest_argv[0]);
		fputs(" guest \"$@\" --setup-only || fail 'cannot load the "
		      "modules'\n", f);
	}
	fputs("mount -t tmpfs tmpfs /tmp\n"
	      "mount -t tmpfs tmpfs /run\n"
	      "mkdir -p /dev/pts\n"
	      "mount -t devpts devpts /dev/pts\n"
	      "D=", f);
	sh_quote(f, o->results_dir);
	fputs("\nR=", f);
	sh_quote(f, o->payload->runs_file);
	fputs("\nmkdir -p \"$D\" && mount -t tmpfs tmpfs \"$D\" || "
	      "fail \"cannot mount a tmpfs at $D\"\n"
	      "cp -a /kbench/dir/. \"$D\"/ || fail 'cannot copy the campaign "
	      "files into the tmpfs'\n"
	      "# the results disk: the virtio disk with serial " KB_RESULTS_SERIAL
	      " (the last one)\n"
	      "res=\n"
	      "for i in 1 2 3 4 5 6 7 8 9 10; do\n"
	      "\tfor s in /sys/block/vd*/serial; do\n"
	      "\t\t[ \"$(cat \"$s\" 2>/dev/null)\" = " KB_RESULTS_SERIAL " ] && "
	      "{ d=${s%/serial}; res=/dev/${d##*/}; }\n"
	      "\tdone\n"
	      "\t[ -n \"$res\" ] && [ -b \"$res\" ] && break\n"
	      "\tsleep 1\n"
	      "done\n"
	      "[ -n \"$res\" ] && [ -b \"$res\" ] || fail 'no results disk (a "
	      "virtio disk with serial " KB_RESULTS_SERIAL ")'\n"
	      "for w in $(cat /proc/cmdline); do\n"
	      "\tcase \"$w\" in init=*) exec \"${w#init=}\" ;; esac\n"
	      "done\n"
	      "say \"starting kbench guest (self-contained, results to $res)\"\n"
	      "env -i PATH=\"$PATH\" HOME=/root TERM=dumb", f);
	sh_words(f, o->guest_argv);
	fputs("\nsay \"kbench guest exited with status $?\"\n", f);
	script_results(f);
	fputs("sync\n"
	      "poweroff -f\n", f);
}

size_t module_sig_len(const char *ko, size_t len)
{
	static const char marker[] = "~Module signature appended~\n";
	const size_t ml = sizeof(marker) - 1, hl = 12;
	const unsigned char *h;
	size_t sig;

	if (len < ml + hl || memcmp(ko + len - ml, marker, ml))
		return 0;
	h = (const unsigned char *)ko + len - ml - hl;
	if (h[2] != 2)		/* PKEY_ID_PKCS7 */
		return 0;
	if (h[3] || h[4])	/* signer_len, key_id_len: 0 in PKCS#7 (the
				 * kernel refuses the module otherwise) */
		return 0;
	sig = (size_t)h[8] << 24 | (size_t)h[9] << 16 | (size_t)h[10] << 8 |
	      h[11];
	if (!sig || sig > len - ml - hl)
		return 0;
	return ml + hl + sig;
}

/* Module i in the initramfs: its file, "modules/NN-NAME.ko" (relative),
 * and its --load-module spec, "/modules/NN-NAME.ko[ PARAMS]" (null_blk
 * takes nullblk_params); malloc'd. */
static char *module_file(const struct kb_initramfs_opts *o, size_t i)
{
	return kb_xasprintf("modules/%02zu-%s.ko", i, o->mods->name[i]);
}

static char *module_spec(const struct kb_initramfs_opts *o, size_t i)
{
	const char *params = !strcmp(o->mods->name[i], "null_blk") &&
		o->nullblk_params ? o->nullblk_params : "";
	char *file = module_file(o, i);
	char *spec = kb_xasprintf("/%s%s%s", file, *params ? " " : "",
				  params);

	free(file);
	return spec;
}

char *initramfs_init_script(const struct kb_initramfs_opts *o)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	/* every process costs about 10 ms under TCG: the 9p guest's script
	 * starts kbench and little else (runner/guest_setup.h) */
	fputs("#!/bin/busybox sh\n"
	      "# kbench initramfs /init (runner/initramfs.c)\n"
	      "/bin/busybox mount -t proc proc /proc\n"
	      "# each line with the seconds since the kernel started (as printk.time's\n"
	      "# [    1.234567]), so the boot log shows what each step costs\n"
	      "say() { read -r up _ < /proc/uptime; echo \"[$up] kbench-initramfs: $*\"; }\n"
	      "fail() { say \"error: $*\"; /bin/busybox sync; /bin/busybox poweroff -f; }\n"
	      "# the modules, in load order: kbench guest loads each on its own\n"
	      "# timestamped line\n"
	      "set --", f);
	for (i = 0; o->mods && i < o->mods->n; i++) {
		char *spec = module_spec(o, i);

		fputs(" \\\n\t--load-module ", f);
		sh_quote(f, spec);
		free(spec);
	}
	fputc('\n', f);
	if (o->payload)
		script_selfcontained(f, o);
	else
		script_9p(f, o);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* Names already in the archive (relative, no leading '/'). */
struct nameset {
	struct kb_pathlist l;
};

static int ns_add(struct nameset *ns, const char *name)
{
	size_t n = ns->l.n;

	pathlist_add(&ns->l, name);
	return ns->l.n != n;	/* 1: new */
}

/* Every parent directory of the relative name, outermost first. */
static void cpio_parents(struct kb_cpio *c, struct nameset *ns,
			 const char *name)
{
	char *d = kb_xstrdup(name), *p;

	for (p = strchr(d, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (ns_add(ns, d))
			cpio_add(c, d, S_IFDIR | 0755, NULL, 0, 0, 0);
		*p = '/';
	}
	free(d);
}

/* A regular host file into the archive as name. */
static int cpio_add_file(struct kb_cpio *c, struct nameset *ns,
			 const char *host, const char *name, unsigned mode)
{
	char *data = NULL;
	size_t len = 0;
	int ret = kb_read_file(host, &data, &len, 0);

	if (ret)
		return ret;
	cpio_parents(c, ns, name);
	if (ns_add(ns, name))
		cpio_add(c, name, S_IFREG | (mode & 07777), data, len, 0, 0);
	free(data);
	return c->err;
}

/* The host file at the absolute path abs, at the same path in the
 * archive: each directory on the way, each symbolic link on the way as a
 * link (then what it points to, the same way), and the file. */
static int cpio_mirror(struct kb_cpio *c, struct nameset *ns, const char *abs,
		       int depth)
{
	char prefix[PATH_MAX] = "", target[PATH_MAX];
	const char *p = abs;
	struct stat st;

	if (depth > 40) {
		kb_error("%s: too many levels of symbolic links", abs);
		return -ELOOP;
	}
	while (*p) {
		size_t len = strcspn(p, "/"), pl = strlen(prefix);
		const char *rest = p + len;
		char *next;
		ssize_t tl;

		if (len == 0 || (len == 1 && p[0] == '.')) {
			p += len + (*rest == '/');
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(prefix, '/');

			if (slash)
				*slash = '\0';
			p += len + (*rest == '/');
			continue;
		}
		if (pl + 1 + len >= sizeof(prefix)) {
			kb_error("%s: path too long", abs);
			return -ENAMETOOLONG;
		}
		prefix[pl] = '/';
		memcpy(prefix + pl + 1, p, len);
		prefix[pl + 1 + len] = '\0';
		if (lstat(prefix, &st) < 0) {
			kb_error("%s: %s", prefix, strerror(errno));
			return -errno;
		}
		if (S_ISLNK(st.st_mode)) {
			int ret;

			tl = readlink(prefix, target, sizeof(target) - 1);
			if (tl < 0) {
				kb_error("%s: %s", prefix, strerror(errno));
				return -errno;
			}
			target[tl] = '\0';
			cpio_parents(c, ns, prefix + 1);
			if (ns_add(ns, prefix + 1))
				cpio_add(c, prefix + 1, S_IFLNK | 0777, target,
					 (size_t)tl, 0, 0);
			prefix[pl] = '\0';	/* the link's directory */
			next = target[0] == '/' ?
			       kb_xasprintf("%s%s", target, rest) :
			       kb_xasprintf("%s/%s%s", prefix, target, rest);
			ret = cpio_mirror(c, ns, next, depth + 1);
			free(next);
			return ret;
		}
		if (S_ISDIR(st.st_mode) && *rest) {
			if (ns_add(ns, prefix + 1))
				cpio_add(c, prefix + 1, S_IFDIR | 0755, NULL, 0,
					 0, 0);
			p = rest + 1;
			continue;
		}
		if (S_ISREG(st.st_mode) && !*rest)
			return cpio_add_file(c, ns, prefix, prefix + 1,
					     st.st_mode);
		kb_error("%s: expected a regular file (or a link to one) for "
			 "the guest", prefix);
		return -EINVAL;
	}
	kb_error("%s: expected a file", abs);
	return -EINVAL;
}

/* kbench, the libraries and the self-contained guest's files (struct
 * kb_guest_payload). */
static int add_programs(struct kb_cpio *c, struct nameset *ns,
			const struct kb_initramfs_opts *o)
{
	const struct kb_guest_payload *g = o->payload;
	size_t i;
	int ret;

	ret = cpio_add_file(c, ns, o->kbench, "usr/bin/kbench", 0755);
	if (!ret && g)
		ret = cpio_add_file(c, ns, g->fio, "usr/bin/fio", 0755);
	for (i = 0; !ret && o->libs && i < o->libs->n; i++)
		ret = cpio_mirror(c, ns, o->libs->v[i], 0);
	/* the loader's cache, for dynamic executables only */
	if (!ret && o->libs && o->libs->n && kb_exists("/etc/ld.so.cache"))
		ret = cpio_mirror(c, ns, "/etc/ld.so.cache", 0);
	for (i = 0; !ret && g && g->files && i < g->files->n; i++) {
		char *host = kb_path_join(o->results_dir, g->files->v[i]);
		char *name = kb_path_join("kbench/dir", g->files->v[i]);

		ret = cpio_add_file(c, ns, host, name, 0644);
		free(host);
		free(name);
	}
	return ret ? ret : c->err;
}

/* kbench as /init: `kbench guest`'s arguments for the run and for the
 * init=PROG setup, NUL-terminated strings (KB_INIT_GUEST_ARGV,
 * KB_INIT_SETUP_ARGV), as the script would pass them. */
static void init_argv_files(struct kb_cpio *c, struct nameset *ns,
			    const struct kb_initramfs_opts *o)
{
	char *text[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 }, i, k;

	for (k = 0; k < 2; k++) {
		FILE *f = open_memstream(&text[k], &len[k]);

		if (!f) {
			c->err = c->err ? c->err : -ENOMEM;
			free(text[0]);
			return;
		}
		fputs("guest", f);
		fputc('\0', f);
		for (i = 0; o->mods && i < o->mods->n; i++) {
			char *spec = module_spec(o, i);

			fprintf(f, "--load-module%c%s%c", '\0', spec, '\0');
			free(spec);
		}
		fprintf(f, "--mount-9p%c/mnt/root%c", '\0', '\0');
		if (k == 0)	/* guest_argv[0..1]: kbench, "guest" */
			for (i = 2; o->guest_argv[i]; i++)
				fprintf(f, "%s%c", o->guest_argv[i], '\0');
		else
			fprintf(f, "--dir%c%s%c--setup-only%c", '\0',
				o->results_dir, '\0', '\0');
		if (fclose(f)) {
			c->err = c->err ? c->err : -ENOMEM;
			free(text[k]);
			text[k] = NULL;
		}
	}
	ns_add(ns, "kbench");
	cpio_add(c, "kbench", S_IFDIR | 0755, NULL, 0, 0, 0);
	ns_add(ns, KB_INIT_GUEST_ARGV + 1);
	cpio_add(c, KB_INIT_GUEST_ARGV + 1, S_IFREG | 0644, text[0], len[0],
		 0, 0);
	ns_add(ns, KB_INIT_SETUP_ARGV + 1);
	cpio_add(c, KB_INIT_SETUP_ARGV + 1, S_IFREG | 0644, text[1], len[1],
		 0, 0);
	free(text[0]);
	free(text[1]);
}

int initramfs_build(const char *path, const struct kb_initramfs_opts *o)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys",
		"mnt", "mnt/root", "modules", "tmp", "run", "root", NULL };
	const char *bb = o->busybox ? o->busybox : KB_BUSYBOX;
	char *data = NULL, *script = NULL, *name, *tmp;
	size_t dlen, i, cut;
	struct nameset ns = { { 0 } };
	struct kb_cpio c;
	FILE *f = NULL;
	int ret, kinit;

	if (o->nullblk_params && !param_ok(o->nullblk_params)) {
		kb_error("null_blk parameters '%s': expected NAME=VALUE words "
			 "(e.g. queue_mode=2 irqmode=0)", o->nullblk_params);
		return -EINVAL;
	}
	if (!o->kbench || !o->guest_argv || !o->guest_argv[0] ||
	    !o->guest_argv[1]) {
		kb_error("initramfs: no kbench binary or guest argv given");
		return -EINVAL;
	}
	kinit = o->kbench_init && !o->payload;
	tmp = kb_xasprintf("%s.tmp.%ld", path, (long)getpid());
	ret = kinit ? 0 : kb_read_file(bb, &data, &dlen, 1);
	if (ret) {
		kb_error("%s: %s; the vm driver needs a static busybox "
			 "(apt-get install busybox-static, or "
			 "scripts/install-deps)", bb, strerror(-ret));
		goto out;
	}
	script = kinit ? kb_xstrdup("usr/bin/kbench") :
			 initramfs_init_script(o);
	if (!script) {
		ret = -ENOMEM;
		goto out;
	}
	{
		/* in the campaign directory: never through a planted link */
		int fd = kb_open_new(tmp);

		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f && fd >= 0)
			close(fd);
	}
	if (!f) {
		ret = -errno;
		kb_error("cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	cpio_begin(&c, f);
	for (i = 0; dirs[i]; i++) {
		ns_add(&ns, dirs[i]);
		cpio_add(&c, dirs[i], S_IFDIR | 0755, NULL, 0, 0, 0);
	}
	ns_add(&ns, "dev/console");
	cpio_add(&c, "dev/console", S_IFCHR | 0600, NULL, 0, 5, 1);
	if (kinit) {
		/* the kernel runs /init as "/init": kbench.c sees that */
		ns_add(&ns, "init");
		cpio_add(&c, "init", S_IFLNK | 0777, script, strlen(script),
			 0, 0);
		init_argv_files(&c, &ns, o);
	} else {
		ns_add(&ns, "bin/busybox");
		cpio_add(&c, "bin/busybox", S_IFREG | 0755, data, dlen, 0, 0);
		ns_add(&ns, "init");
		cpio_add(&c, "init", S_IFREG | 0755, script, strlen(script),
			 0, 0);
	}
	for (i = 0; o->mods && i < o->mods->n && !c.err; i++) {
		free(data);
		data = NULL;
		/* .ko.xz, .ko.zst, .ko.gz: a plain .ko for finit_module */
		ret = kb_decompress_file(o->mods->path[i], &data, &dlen);
		if (ret)
			goto out;
		/* every trailer: the kernel checks the outer one, then
		 * loads the rest as the module (a module signed twice) */
		while (o->strip_module_sig && (cut = module_sig_len(data,
								    dlen)))
			dlen -= cut;
		name = module_file(o, i);
		cpio_add(&c, name, S_IFREG | 0644, data, dlen, 0, 0);
		free(name);
	}
	if (!c.err) {
		ret = add_programs(&c, &ns, o);
		if (ret && !c.err)
			goto out;	/* the file is named above */
	}
	ret = cpio_end(&c);
	if (fclose(f) && !ret)
		ret = -EIO;
	f = NULL;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		kb_error("%s: cannot write the initramfs: %s", path,
			 strerror(-ret));
out:
	if (f)
		fclose(f);
	if (ret)
		unlink(tmp);
	pathlist_free(&ns.l);
	free(tmp);
	free(data);
	free(script);
	return ret;
}
