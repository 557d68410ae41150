/* fuzz/fuzz_fio_terse.c - libFuzzer harness of the fio terse parser
 * (parsers/fio_terse.h): fio_terse_detect() and fio_terse_parse_buf() on
 * the input as is (not NUL-terminated), and fio_terse_parse_line() on its
 * first line.  `make fuzz` builds and runs it. */
#include <stdint.h>
#include <string.h>

#include "lib/err.h"
#include "parsers/fio_terse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	const char *nl = memchr(buf, '\n', size);
	char err[512];
	json_t *r;

	kb_silent = 1;
	fio_terse_detect(buf, size);
	r = fio_terse_parse_buf(buf, size, "fuzz", err, sizeof(err));
	json_decref(r);
	r = fio_terse_parse_line(buf, nl ? (size_t)(nl - buf) : size, "fuzz",
				 1, err, sizeof(err));
	json_decref(r);
	return 0;
}
