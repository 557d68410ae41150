/* fuzz/fuzz_fio_jobfile.c - libFuzzer harness of the fio job-file scan
 * (parsers/fio_jobfile.h): the input, NUL-terminated, as a job file;
 * a write is said with a reason that names a line.  `make fuzz` builds
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

	if (!text)
		return 0;
	if (fio_jobfile_writes(text, &why) && (!why || strncmp(why, "line ",
							       5)))
		abort();	/* a write without its line */
	free(why);
	free(text);
	return 0;
}
