#include "lib/file.h"
#include "lib/err.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void *kb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		kb_error("out of memory allocating %zu bytes", n);
		abort();
	}
	return p;
}

void *kb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		kb_error("out of memory allocating %zu x %zu bytes", n, size);
		abort();
	}
	return p;
}

void *kb_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		kb_error("out of memory allocating %zu bytes", n);
		abort();
	}
	return q;
}

char *kb_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(kb_xmalloc(n), s, n);
}

char *kb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		kb_error("out of memory formatting a string");
		abort();
	}
	return s;
}

char *kb_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (la && a[la - 1] == '/')
		return kb_xasprintf("%s%s", a, b);
	return kb_xasprintf("%s/%s", a, b);
}

int kb_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int kb_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *kb_self_exe(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0 || (size_t)n >= sizeof(buf) - 1)
		return NULL;
	buf[n] = '\0';
	return kb_xstrdup(buf);
}

int kb_read_file(const char *path, char **buf, size_t *len, int quiet)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0;
	char *b;
	int ret = 0;

	*buf = NULL;
	if (!f) {
		ret = -errno;
		if (!quiet)
			kb_error("cannot open %s: %s", path, strerror(errno));
		return ret;
	}
	b = kb_xmalloc(cap + 1);
	for (;;) {
		size_t r = fread(b + n, 1, cap - n, f);

		n += r;
		if (n < cap) {
			if (ferror(f)) {
				ret = errno ? -errno : -EIO;
				if (!quiet)
					kb_error("cannot read %s: %s", path,
						 strerror(errno));
				free(b);
				goto out;
			}
			break;
		}
		cap *= 2;
		b = kb_xrealloc(b, cap + 1);
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
out:
	fclose(f);
	return ret;
}

static int fsync_dir_of(const char *path)
{
	char *copy = kb_xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);

	free(copy);
	if (fd < 0)
		return -errno;
	fsync(fd);
	close(fd);
	return 0;
}

int kb_write_atomic(const char *path, const void *buf, size_t len)
{
	char *tmp = kb_xasprintf("%s.tmp.%ld", path, (long)getpid());
	const char *p = buf;
	int fd, ret = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		kb_error("cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			kb_error("cannot write %s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			goto out;
		}
		p += w;
		len -= (size_t)w;
	}
	ret = fsync(fd) < 0 ? -errno : 0;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret) {
		kb_error("cannot flush %s: %s", tmp, strerror(-ret));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		ret = -errno;
		kb_error("cannot rename %s to %s: %s", tmp, path,
			 strerror(errno));
		unlink(tmp);
		goto out;
	}
	fsync_dir_of(path);
out:
	free(tmp);
	return ret;
}

int kb_fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int kb_mkdir_p(const char *path)
{
	char *p = kb_xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST) {
				ret = -errno;
				kb_error("cannot create directory %s: %s", p,
					 strerror(errno));
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}
