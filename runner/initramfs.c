/* runner/initramfs.c - kbench's initramfs for vm variants (see
 * initramfs.h for the contents and the sources of the formats). */
#include "runner/initramfs.h"
#include "lib/decompress.h"
#include "lib/err.h"
#include "lib/file.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Module parameters go on an insmod line: NAME=VALUE words only. */
static int param_ok(const char *p)
{
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_=,.:-+ \t", *p))
			return 0;
	return 1;
}

char *initramfs_init_script(const struct kb_initramfs_opts *o)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);
	const char *const *a;

	if (!f)
		return NULL;
	fputs("#!/bin/busybox sh\n"
	      "# kbench initramfs /init (runner/initramfs.c)\n"
	      "/bin/busybox --install -s /bin\n"
	      "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
	      "mount -t proc proc /proc\n"
	      "mount -t sysfs sysfs /sys\n"
	      "mount -t devtmpfs devtmpfs /dev\n"
	      "fail() { echo \"kbench-initramfs: error: $*\"; sync; poweroff -f; }\n"
	      "echo 'kbench-initramfs: loading modules'\n", f);
	for (i = 0; o->mods && i < o->mods->n; i++) {
		fprintf(f, "insmod /modules/%02zu-%s.ko", i,
			o->mods->name[i]);
		if (!strcmp(o->mods->name[i], "null_blk") && o->nullblk_params)
			fprintf(f, " %s", o->nullblk_params);
		fprintf(f, " || fail 'insmod %s'\n", o->mods->name[i]);
	}
	fputs("mkdir -p /mnt/root\n"
	      "mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro "
	      "hostroot /mnt/root || fail 'cannot mount the host root (9p tag hostroot)'\n", f);
	/* the results directory last: it may be under /tmp or /run */
	fputs("mount -t proc proc /mnt/root/proc\n"
	      "mount -t sysfs sysfs /mnt/root/sys\n"
	      "mount -t devtmpfs devtmpfs /mnt/root/dev\n"
	      "mount -t tmpfs tmpfs /mnt/root/tmp\n"
	      "mount -t tmpfs tmpfs /mnt/root/run\n"
	      "[ -d /mnt/root/dev/pts ] || mkdir /mnt/root/dev/pts\n"
	      "mount -t devpts devpts /mnt/root/dev/pts\n"
	      "mkdir -p /mnt/root", f);
	sh_quote(f, o->results_dir);
	fputs(" 2>/dev/null\n"
	      "mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,rw "
	      "kbresults /mnt/root", f);
	sh_quote(f, o->results_dir);
	fputs(" || fail 'cannot mount the results directory (9p tag kbresults)'\n"
	      "for w in $(cat /proc/cmdline); do\n"
	      "\tcase \"$w\" in init=*) exec chroot /mnt/root \"${w#init=}\" ;; esac\n"
	      "done\n"
	      "echo 'kbench-initramfs: starting kbench guest'\n"
	      "chroot /mnt/root /usr/bin/env -i PATH=\"$PATH\" HOME=/root TERM=dumb", f);
	for (a = o->guest_argv; a && *a; a++) {
		fputc(' ', f);
		sh_quote(f, *a);
	}
	fputs("\necho \"kbench-initramfs: kbench guest exited with status $?\"\n"
	      "sync\n"
	      "umount /mnt/root/tmp /mnt/root/run 2>/dev/null\n"
	      "poweroff -f\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

int initramfs_build(const char *path, const struct kb_initramfs_opts *o)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys",
		"mnt", "mnt/root", "modules", "tmp", NULL };
	const char *bb = o->busybox ? o->busybox : KB_BUSYBOX;
	char *text = NULL, *data = NULL, *script = NULL, *name;
	size_t len = 0, dlen, i;
	struct kb_cpio c;
	FILE *f;
	int ret;

	if (o->nullblk_params && !param_ok(o->nullblk_params)) {
		kb_error("null_blk parameters '%s': expected NAME=VALUE words "
			 "(e.g. queue_mode=2 irqmode=0)", o->nullblk_params);
		return -EINVAL;
	}
	ret = kb_read_file(bb, &data, &dlen, 1);
	if (ret) {
		kb_error("%s: %s; the vm driver needs a static busybox "
			 "(apt-get install busybox-static, or "
			 "scripts/install-deps)", bb, strerror(-ret));
		return ret;
	}
	script = initramfs_init_script(o);
	f = open_memstream(&text, &len);
	if (!script || !f) {
		ret = -ENOMEM;
		goto out;
	}
	cpio_begin(&c, f);
	for (i = 0; dirs[i]; i++)
		cpio_add(&c, dirs[i], S_IFDIR | 0755, NULL, 0, 0, 0);
	cpio_add(&c, "dev/console", S_IFCHR | 0600, NULL, 0, 5, 1);
	cpio_add(&c, "bin/busybox", S_IFREG | 0755, data, dlen, 0, 0);
	cpio_add(&c, "init", S_IFREG | 0755, script, strlen(script), 0, 0);
	for (i = 0; o->mods && i < o->mods->n && !c.err; i++) {
		free(data);
		data = NULL;
		/* .ko.xz, .ko.zst, .ko.gz: a plain .ko for busybox insmod */
		ret = kb_decompress_file(o->mods->path[i], &data, &dlen);
		if (ret)
			goto out;
		name = kb_xasprintf("modules/%02zu-%s.ko", i, o->mods->name[i]);
		cpio_add(&c, name, S_IFREG | 0644, data, dlen, 0, 0);
		free(name);
	}
	ret = cpio_end(&c);
	if (fclose(f) && !ret)
		ret = -EIO;
	f = NULL;
	if (!ret)
		ret = kb_write_atomic(path, text, len);
	if (ret)
		kb_error("%s: cannot write the initramfs: %s", path,
			 strerror(-ret));
out:
	if (f)
		fclose(f);
	free(text);
	free(data);
	free(script);
	return ret;
}
