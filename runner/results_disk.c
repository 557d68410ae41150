/* runner/results_disk.c - the results disk of a self-contained vm guest:
 * a "newc" cpio archive read back with bounds checks (see
 * results_disk.h for the format and the rules). */
#include "runner/results_disk.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HDR_LEN 110
#define NAME_MAX_LEN 4096		/* namesize, with the NUL */
#define MAX_MEMBERS 1000000

struct member {
	char *name;		/* relative, "./" dropped */
	unsigned mode;
	uint64_t off;		/* of the data */
	uint64_t size;
};

struct index {
	struct member *m;
	size_t n;
};

int results_disk_create(const char *path, unsigned long long bytes)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret = 0;

	if (fd < 0) {
		ret = -errno;
		kb_error("cannot create %s: %s", path, strerror(errno));
		return ret;
	}
	if (ftruncate(fd, (off_t)bytes) < 0) {
		ret = -errno;
		kb_error("cannot size %s to %llu bytes: %s", path, bytes,
			 strerror(errno));
	}
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret)
		unlink(path);
	return ret;
}

static void index_free(struct index *x)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		free(x->m[i].name);
	free(x->m);
	memset(x, 0, sizeof(*x));
}

/* Read exactly len bytes at off; 0, -EIO on a short read, -errno. */
static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t r = kb_pread_full(fd, buf, len, off);

	return r < 0 ? (int)r : (size_t)r < len ? -EIO : 0;
}

/* 8 hexadecimal digits (no sign, no blanks: strtoul would take both). */
static int hex8(const char *p, uint32_t *out)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		char c = p[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

static uint64_t pad4(uint64_t x)
{
	return (x + 3) & ~(uint64_t)3;
}

/* Why name (already without "./") may not be extracted, or NULL when it
 * is runs/KEY or below for one of keys. */
static const char *name_refused(const char *name, const char *const *keys,
				size_t nkeys)
{
	const char *p = name, *rest;
	size_t i;

	if (name[0] == '/')
		return "an absolute path";
	for (p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "a control character in its name";
	p = name;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 0)
			return "an empty path component ('//' or a trailing '/')";
		if (len == 1 && p[0] == '.')
			return "a '.' component";
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return "a '..' component";
		p += len;
		if (*p == '/') {
			p++;
			if (!*p)
				return "an empty path component ('//' or a trailing '/')";
		}
	}
	if (strncmp(name, "runs/", 5))
		return "outside runs/ (only this boot's run directories come back)";
	rest = name + 5;
	for (i = 0; i < nkeys; i++) {
		size_t kl = strlen(keys[i]);

		if (!strncmp(rest, keys[i], kl) &&
		    (rest[kl] == '\0' || rest[kl] == '/'))
			return NULL;
	}
	return "not under the run directory of a run of this boot";
}

/* 1 when name is runs/KEY itself for one of keys. */
static int is_run_dir(const char *name, const char *const *keys,
		      size_t nkeys)
{
	size_t i;

	for (i = 0; i < nkeys; i++)
		if (!strcmp(name + 5, keys[i]))
			return 1;
	return 0;
}

/* Parse and check every member of the archive in fd (size bytes).
 * 0, -ENODATA, -EINVAL or -errno, with *why. */
static int read_index(int fd, uint64_t size, const char *const *keys,
		      size_t nkeys, struct index *x, char **why)
{
	static const char zeros[HDR_LEN];
	uint64_t off = 0;
	char hdr[HDR_LEN + 1], *name = NULL, *shown;
	int ret;

	memset(x, 0, sizeof(*x));
	for (;;) {
		uint32_t f[13];
		uint64_t noff, doff;
		const char *bad, *nm;
		int i;

		free(name);
		name = NULL;
		if (size < HDR_LEN || off > size - HDR_LEN) {
			*why = off == 0 ? kb_xasprintf("the results disk holds "
				"%llu bytes, less than one cpio header",
				(unsigned long long)size) :
				kb_xasprintf("the archive is truncated: it ends "
				"inside the header of member %zu (byte %llu of "
				"%llu) before its trailer", x->n + 1,
				(unsigned long long)off,
				(unsigned long long)size);
			ret = off == 0 ? -ENODATA : -EINVAL;
			goto out;
		}
		ret = read_at(fd, hdr, HDR_LEN, off);
		if (ret) {
			*why = kb_xasprintf("cannot read the results disk at "
					    "byte %llu: %s",
					    (unsigned long long)off,
					    strerror(-ret));
			goto out;
		}
		hdr[HDR_LEN] = '\0';
		if (off == 0 && !memcmp(hdr, zeros, HDR_LEN)) {
			*why = kb_xstrdup("the guest wrote no results archive "
					  "(the results disk is blank)");
			ret = -ENODATA;
			goto out;
		}
		if (!memcmp(hdr, zeros, HDR_LEN)) {
			*why = kb_xasprintf("the archive ends at byte %llu "
				"without its trailer (truncated: the guest's "
				"write was cut short?)",
				(unsigned long long)off);
			ret = -EINVAL;
			goto out;
		}
		if (memcmp(hdr, "070701", 6) && memcmp(hdr, "070702", 6)) {
			char magic[7];

			memcpy(magic, hdr, 6);
			magic[6] = '\0';
			shown = kb_xstrndup_printable(magic, 6);
			*why = kb_xasprintf("member %zu (byte %llu): not a newc "
				"cpio header (magic '%s', expected 070701)",
				x->n + 1, (unsigned long long)off, shown);
			free(shown);
			ret = -EINVAL;
			goto out;
		}
		for (i = 0; i < 13; i++) {
			if (hex8(hdr + 6 + 8 * i, &f[i])) {
				*why = kb_xasprintf("member %zu (byte %llu): "
					"header field %d is not 8 hexadecimal "
					"digits", x->n + 1,
					(unsigned long long)off, i + 1);
				ret = -EINVAL;
				goto out;
			}
		}
		/* f[1] mode, f[6] filesize, f[11] namesize */
		if (f[11] < 2 || f[11] > NAME_MAX_LEN) {
			*why = kb_xasprintf("member %zu (byte %llu): name size "
				"%u out of range (2 to %d)", x->n + 1,
				(unsigned long long)off, f[11], NAME_MAX_LEN);
			ret = -EINVAL;
			goto out;
		}
		noff = off + HDR_LEN;
		if (f[11] > size - noff) {
			*why = kb_xasprintf("the archive is truncated: member "
				"%zu's name runs past the end of the results "
				"disk (%llu bytes)", x->n + 1,
				(unsigned long long)size);
			ret = -EINVAL;
			goto out;
		}
		name = kb_xmalloc(f[11]);
		ret = read_at(fd, name, f[11], noff);
		if (ret) {
			*why = kb_xasprintf("cannot read the results disk at "
					    "byte %llu: %s",
					    (unsigned long long)noff,
					    strerror(-ret));
			goto out;
		}
		if (name[f[11] - 1] != '\0' || strlen(name) != f[11] - 1) {
			*why = kb_xasprintf("member %zu (byte %llu): its name "
				"is not one NUL-terminated string of %u bytes",
				x->n + 1, (unsigned long long)off, f[11]);
			ret = -EINVAL;
			goto out;
		}
		doff = pad4(noff + f[11]);
		if (!strcmp(name, "TRAILER!!!")) {
			ret = 0;
			break;
		}
		shown = kb_xstrndup_printable(name, 200);
		if (doff > size || f[6] > size - doff) {
			*why = kb_xasprintf("member %zu '%s' claims %u bytes, "
				"past the end of the results disk (%llu bytes): "
				"the archive is truncated or corrupt", x->n + 1,
				shown, f[6], (unsigned long long)size);
			free(shown);
			ret = -EINVAL;
			goto out;
		}
		nm = name;
		while (nm[0] == '.' && nm[1] == '/')
			nm += 2;
		if (!strcmp(nm, ".")) {		/* find's own "." */
			free(shown);
			off = pad4(doff + f[6]);
			continue;
		}
		bad = name_refused(nm, keys, nkeys);
		if (!bad && !S_ISREG(f[1]) && !S_ISDIR(f[1]))
			bad = S_ISLNK(f[1]) ? "a symbolic link" :
			      "neither a regular file nor a directory";
		if (!bad && S_ISDIR(f[1]) && f[6])
			bad = "a directory with data";
		if (!bad && S_ISREG(f[1]) && is_run_dir(nm, keys, nkeys))
			bad = "a file in the place of a run directory";
		if (!bad && x->n == MAX_MEMBERS)
			bad = "one member too many";
		if (bad) {
			*why = kb_xasprintf("member %zu '%s' refused: %s",
					    x->n + 1, shown, bad);
			free(shown);
			ret = -EINVAL;
			goto out;
		}
		free(shown);
		x->m = kb_xrealloc(x->m, (x->n + 1) * sizeof(*x->m));
		x->m[x->n].name = kb_xstrdup(nm);
		x->m[x->n].mode = f[1];
		x->m[x->n].off = doff;
		x->m[x->n].size = f[6];
		x->n++;
		off = pad4(doff + f[6]);
	}
out:
	free(name);
	if (ret)
		index_free(x);
	return ret;
}

static int extract_member(int fd, const char *dir, const struct member *m,
			  char **why)
{
	char *path = kb_path_join(dir, m->name), *parent, *buf = NULL;
	int ret;

	if (S_ISDIR(m->mode)) {
		ret = kb_mkdir_p(path);
		if (ret)
			*why = kb_xasprintf("cannot create %s: %s", path,
					    strerror(-ret));
		free(path);
		return ret;
	}
	parent = kb_xstrdup(path);
	*strrchr(parent, '/') = '\0';
	ret = kb_mkdir_p(parent);
	free(parent);
	if (ret) {
		*why = kb_xasprintf("cannot create the directory of %s: %s",
				    path, strerror(-ret));
		goto out;
	}
	buf = kb_xmalloc(m->size ? (size_t)m->size : 1);
	ret = read_at(fd, buf, (size_t)m->size, m->off);
	if (ret) {
		*why = kb_xasprintf("cannot read member '%s' from the results "
				    "disk: %s", m->name, strerror(-ret));
		goto out;
	}
	ret = kb_write_atomic(path, buf, (size_t)m->size);
	if (ret)
		*why = kb_xasprintf("cannot write %s: %s", path,
				    strerror(-ret));
out:
	free(buf);
	free(path);
	return ret;
}

int results_extract(const char *image, const char *dir,
		    const char *const *keys, size_t nkeys, size_t *nfiles,
		    char **why)
{
	struct index x = { 0 };
	struct stat st;
	size_t i;
	int fd, ret;

	*why = NULL;
	*nfiles = 0;
	fd = open(image, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		*why = kb_xasprintf("cannot read the results disk %s: %s",
				    image, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	ret = read_index(fd, (uint64_t)st.st_size, keys, nkeys, &x, why);
	for (i = 0; !ret && i < x.n; i++) {
		ret = extract_member(fd, dir, &x.m[i], why);
		if (!ret && S_ISREG(x.m[i].mode))
			(*nfiles)++;
	}
	index_free(&x);
	close(fd);
	return ret;
}
