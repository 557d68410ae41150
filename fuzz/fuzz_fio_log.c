/* fuzz/fuzz_fio_log.c - libFuzzer harness of the fio log reader
 * (parsers/fio_log.h, `kbench parse --logs`): fio_log_detect() and
 * fio_log_parse() on the input as is (not NUL-terminated), one file, or
 * two when it holds a NUL byte (the part after it is the second file).
 * The window (log_avg_msec) and the kind the files' names give come from
 * the input's size, so a seed is read with every window and kind as it
 * changes.  `make fuzz` builds and runs it. */
#include <stdint.h>
#include <string.h>

#include "lib/err.h"
#include "parsers/fio_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned avg[] = { 0, 1, 2, 5, 100, 250, 500, 1000 };
	static const char *const names[][2] = {
		{ "job_iops.1.log", "job_iops.2.log" },
		{ "job_bw.1.log", "job_bw.2.log" },
		{ "job_lat.1.log", "job_lat.2.log" },
		{ "job_clat.1.log", "job_clat.2.log" },
		{ "job_slat.1.log", "job_slat.2.log" },
		{ "a.log", "b.log" },
	};
	const char *buf = (const char *)data;
	const char *nul = memchr(buf, '\0', size);
	size_t k = (size / 8) % (sizeof(names) / sizeof(names[0]));
	struct fio_log_input in[2];
	char err[1024];
	json_t *r;

	kb_silent = 1;
	in[0].name = names[k][0];
	in[0].buf = buf;
	in[0].len = nul ? (size_t)(nul - buf) : size;
	in[1].name = names[k][1];
	in[1].buf = nul ? nul + 1 : NULL;
	in[1].len = nul ? size - in[0].len - 1 : 0;
	fio_log_detect(in[0].name, in[0].buf, in[0].len);
	r = fio_log_parse(in, nul ? 2 : 1, avg[size % 8], err, sizeof(err));
	json_decref(r);
	return 0;
}
