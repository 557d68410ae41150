/* fuzz/fuzz.h - what the libFuzzer harnesses (fuzz/fuzz_*.c) share. */
#ifndef KB_FUZZ_H
#define KB_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated copy of the input (size bytes), for the parsers that
 * take C strings; free() it.  NULL when out of memory (the harness then
 * skips the input). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
	}
	return text;
}

#endif
