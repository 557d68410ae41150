/* parsers/json_file.c - see json_file.h. */
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

int kb_json_write_atomic(const char *path, const json_t *j)
{
	return kb_json_write_atomic_opt(path, j, 0);
}

int kb_json_write_atomic_opt(const char *path, const json_t *j,
			     unsigned flags)
{
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS |
				JSON_REAL_PRECISION(17));
	char *withnl;
	int ret;

	if (!s) {
		kb_error("cannot serialise JSON for %s", path);
		return -ENOMEM;
	}
	withnl = kb_xasprintf("%s\n", s);
	free(s);
	ret = kb_write_atomic_opt(path, withnl, strlen(withnl), flags);
	free(withnl);
	return ret;
}

/* The whole file in one read (fstat's size, then read() until EOF) and
 * one json_loadb(): jansson's json_load_file() reads through stdio a
 * character at a time, which was a quarter of `kbench report` on 10k runs
 * (issue 16).  The positions in an error are json_loadb's, the same line
 * and column as json_load_file's. */
static json_t *load_whole(const char *path, int *missing)
{
	json_error_t err;
	struct stat st;
	size_t cap, n = 0;
	char *buf;
	json_t *j;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (missing && errno == ENOENT) {
			*missing = 1;
			return NULL;
		}
		/* jansson's own wording, as before */
		kb_error("%s:-1:-1: unable to open %s: %s", path, path,
			 strerror(errno));
		return NULL;
	}
	cap = fstat(fd, &st) == 0 && st.st_size > 0 ?
	      (size_t)st.st_size + 1 : 4096;
	buf = kb_xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap *= 2;
			buf = kb_xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			kb_error("%s:-1:-1: read error: %s", path,
				 strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	j = json_loadb(buf, n, 0, &err);
	free(buf);
	if (!j)
		kb_error("%s:%d:%d: %s", path, err.line, err.column, err.text);
	return j;
}

json_t *kb_json_load(const char *path)
{
	return load_whole(path, NULL);
}

json_t *kb_json_load_existing(const char *path, int *missing)
{
	*missing = 0;
	return load_whole(path, missing);
}
