/* fuzz/fuzz_perf_stat.c - libFuzzer harness of the perf stat parser
 * (parsers/perf_stat.h): perf_stat_parse() on a NUL-terminated copy of
 * the input, then perf_stat_metrics() on what it read.  `make fuzz`
 * builds and runs it. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz/fuzz.h"
#include "lib/err.h"
#include "parsers/perf_stat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kb_perf_stat s;	/* large: not on the stack */
	json_t *metrics, *warnings;
	char *text = fuzz_cstr(data, size);

	if (!text)
		return 0;
	kb_silent = 1;
	if (perf_stat_parse("fuzz.csv", text, &s) == 0) {
		metrics = json_object();
		warnings = json_array();
		perf_stat_metrics(&s, metrics, warnings);
		json_decref(metrics);
		json_decref(warnings);
	}
	free(text);
	return 0;
}
