/* fuzz/fuzz_fio_json.c - libFuzzer harness of the fio JSON parser
 * (parsers/fio_json.h): fio output text as fio_parse_buf_opts() takes it,
 * the strict and the lenient path (prompts, warnings and glued documents
 * around the JSON), then fio_result_error() on what it returned.  The
 * input is passed as is (not NUL-terminated): a read past its end is a
 * finding.  The streaming pass must give what jansson alone gives
 * (dom_only): the same result or the same error, from the buffer and from
 * a file read in chunks of 1-128 bytes (fio_parse_file_opts(), the input
 * in a memfd); a difference aborts.  `make fuzz` builds and runs it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "lib/err.h"
#include "parsers/fio_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort unless a (error ea) and b (eb) are the same outcome; drops a. */
static void same(const char *what, json_t *a, const char *ea,
		 const json_t *b, const char *eb)
{
	if (((a || b) && !json_equal(a, b)) || (!a && strcmp(ea, eb))) {
		char *sa = a ? json_dumps(a, JSON_COMPACT) : NULL;
		char *sb = b ? json_dumps(b, JSON_COMPACT) : NULL;

		fprintf(stderr, "%s: streamed %s (%s)\njansson %s (%s)\n",
			what, sa ? sa : "NULL", ea, sb ? sb : "NULL", eb);
		abort();
	}
	json_decref(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_parse_opts o = { .ram_bytes = 1ULL << 30,
				    .side_name = "fio.stderr" };
	struct fio_parse_opts dom;
	char path[64], err[512] = "", err2[512] = "", msg[512];
	const char *buf = (const char *)data;
	int fd = -1;
	char *side;
	json_t *r, *d;

	kb_silent = 1;
	r = fio_parse_buf("fuzz", buf, size, err, sizeof(err));
	if (r) {
		fio_result_error(r, msg, sizeof(msg));
		json_decref(r);
	}
	/* the same text as fio's stderr beside it (NUL-terminated) */
	side = fuzz_cstr(data, size);
	if (!side)
		return 0;
	o.side_text = side;
	/* the input in a memfd too, named by its path both ways */
	fd = memfd_create("fuzz_fio_json", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		fd = -1;
	}
	snprintf(path, sizeof(path), fd >= 0 ? "/proc/self/fd/%d" : "fuzz",
		 fd);
	dom = o;
	dom.dom_only = 1;
	d = fio_parse_buf_opts(path, buf, size, &dom, err2, sizeof(err2));
	r = fio_parse_buf_opts(path, buf, size, &o, err, sizeof(err));
	same("buffer", r, err, d, err2);
	if (fd >= 0) {
		o.read_chunk_bytes = size ? 1 + data[size / 2] % 128 : 1;
		err[0] = '\0';
		r = fio_parse_file_opts(path, &o, err, sizeof(err));
		same("file in chunks", r, err, d, err2);
		close(fd);
	}
	json_decref(d);
	free(side);
	return 0;
}
