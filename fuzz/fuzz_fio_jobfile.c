/* fuzz/fuzz_fio_jobfile.c - libFuzzer harness of the fio job-file scan
 * (parsers/fio_jobfile.h): the input, NUL-terminated, as a job file;
 * a write, I/O elsewhere or an act beyond the I/O is said with a reason
 * that names a line, and fio_jobfile_writes() agrees with the scan.  `make fuzz` builds
 * and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "parsers/fio_jobfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *why = NULL;
	struct fio_jobfile_scan s;
	int w;

	if (!text)
		return 0;
	w = fio_jobfile_writes(text, &why);
	if (w && (!why || strncmp(why, "line ", 5)))
		abort();	/* a write without its line */
	fio_jobfile_scan(text, &s);
	if ((s.writes != NULL) != w ||
	    (s.elsewhere && strncmp(s.elsewhere, "line ", 5)) ||
	    (s.outside && strncmp(s.outside, "line ", 5)))
		abort();
	fio_jobfile_scan_free(&s);
	free(why);
	free(text);
	return 0;
}
