/* fuzz/fuzz_perf_report.c - libFuzzer harness of the perf report parser
 * (parsers/perf_report.h): perf_report_parse() on a NUL-terminated copy
 * of the input, the lost-sample metrics and each event's group weights
 * (with symbols.conf groups parsed from the same text), then the frees.
 * `make fuzz` builds and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "lib/err.h"
#include "parsers/perf_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kb_profile p;
	static struct kb_sym_groups g;
	json_t *metrics, *warnings, *flags;
	char *text = fuzz_cstr(data, size);
	size_t i;

	if (!text)
		return 0;
	kb_silent = 1;
	symgroups_parse("fuzz-symbols.conf", text, &g);	/* frees on error */
	memset(&p, 0, sizeof(p));
	if (perf_report_parse("fuzz.txt", text, "cycles", &p) == 0) {
		metrics = json_object();
		warnings = json_array();
		flags = json_array();
		perf_report_lost(&p, metrics, warnings, flags);
		for (i = 0; i < p.nev; i++)
			perf_report_metrics(&p.ev[i], "cycles", &g, metrics,
					    warnings);
		json_decref(metrics);
		json_decref(warnings);
		json_decref(flags);
	}
	perf_report_free(&p);
	symgroups_free(&g);
	free(text);
	return 0;
}
