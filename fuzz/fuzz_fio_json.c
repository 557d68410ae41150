/* fuzz/fuzz_fio_json.c - libFuzzer harness of the fio JSON parser
 * (parsers/fio_json.h): fio output text as fio_parse_buf_opts() takes it,
 * the strict and the lenient path (prompts, warnings and glued documents
 * around the JSON), then fio_result_error() on what it returned.  The
 * input is passed as is (not NUL-terminated): a read past its end is a
 * finding.  `make fuzz` builds and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "parsers/fio_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_parse_opts o = { .ram_bytes = 1ULL << 30,
				    .side_name = "fio.stderr" };
	char err[512], msg[512];
	char *side;
	json_t *r;

	kb_silent = 1;
	r = fio_parse_buf("fuzz", (const char *)data, size, err, sizeof(err));
	if (r) {
		fio_result_error(r, msg, sizeof(msg));
		json_decref(r);
	}
	/* the same text as fio's stderr beside it (NUL-terminated) */
	side = malloc(size + 1);
	if (!side)
		return 0;
	memcpy(side, data, size);
	side[size] = '\0';
	o.side_text = side;
	r = fio_parse_buf_opts("fuzz", (const char *)data, size, &o, err,
			       sizeof(err));
	json_decref(r);
	free(side);
	return 0;
}
