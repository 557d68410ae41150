/* fuzz/fuzz_netrc.c - libFuzzer harness of the netrc reader
 * (parsers/netrc.h): the input as a netrc file (NUL bytes in it as a
 * file may hold them), looked up for a named host, for one that only a
 * 'default' entry can match and for an empty host.  `make fuzz` builds
 * and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "parsers/netrc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const hosts[] = { "influx.example.org",
					     "127.0.0.1", "" };
	struct kb_netrc_entry e;
	size_t i;

	for (i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		if (kb_netrc_find((const char *)data, size, hosts[i], &e) > 0 &&
		    !e.login && !e.password)
			abort();	/* 1: an entry holding credentials */
		kb_netrc_entry_clear(&e);
	}
	return 0;
}
