/* fuzz/fuzz_kconf.c - libFuzzer harness of the kernels.conf parser
 * (parsers/kconf.h): kconf_parse() on a NUL-terminated copy of the input,
 * then kconf_free().  `make fuzz` builds and runs it. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz/fuzz.h"
#include "lib/err.h"
#include "parsers/kconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_config cfg;
	char *text = fuzz_cstr(data, size);

	if (!text)
		return 0;
	kb_silent = 1;
	kconf_parse("fuzz.conf", text, &cfg);
	kconf_free(&cfg);
	free(text);
	return 0;
}
