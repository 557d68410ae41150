/* bench/jansson_decode.c - the baseline of `make bench`'s parse rate: a
 * bare jansson decode of whole files, nothing else (no metrics, no output).
 *
 * usage: jansson_decode [-c] FILE...
 *
 * Reads each FILE whole (as kbench parse does, lib/file.c kb_read_file)
 * and decodes it with json_loadb(3) (jansson manual, "Decoding"), then
 * frees it.  Prints "files=N bytes=B" on stdout.
 *
 *   -c   check mode: decode nothing twice, print the name of each FILE
 *        that is one valid JSON document and nothing else, one per line
 *        (bench/bench.sh picks the parse-rate corpus with it)
 *
 * Exit status 0, or 1 when a file cannot be read or (without -c) does not
 * decode.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_all(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;
	int ret = -EIO;

	if (!f)
		return -errno;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	*buf = malloc((size_t)n + 1);
	if (!*buf) {
		ret = -ENOMEM;
		goto out;
	}
	if (fread(*buf, 1, (size_t)n, f) != (size_t)n) {
		free(*buf);
		goto out;
	}
	(*buf)[n] = '\0';
	*len = (size_t)n;
	ret = 0;
out:
	fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	int check = 0, i, ret = 0;
	unsigned long long bytes = 0;
	unsigned long files = 0;

	if (argc > 1 && !strcmp(argv[1], "-c")) {
		check = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: jansson_decode [-c] FILE...\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		json_error_t je;
		char *buf = NULL;
		size_t len = 0;
		json_t *j;
		int rc = read_all(argv[i], &buf, &len);

		if (rc) {
			fprintf(stderr, "jansson_decode: %s: %s\n", argv[i],
				strerror(-rc));
			ret = 1;
			continue;
		}
		j = json_loadb(buf, len, 0, &je);
		free(buf);
		if (check) {
			if (j)
				printf("%s\n", argv[i]);
		} else if (!j) {
			fprintf(stderr, "jansson_decode: %s:%d:%d: %s\n",
				argv[i], je.line, je.column, je.text);
			ret = 1;
		}
		json_decref(j);
		bytes += len;
		files++;
	}
	if (!check)
		printf("files=%lu bytes=%llu\n", files, bytes);
	return ret;
}
