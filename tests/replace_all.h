/* tests/replace_all.h - replace_all(s, from, to): a copy of s with every
 * "from" replaced by "to" (malloc'd; from not empty), for a test that
 * turns a fixture's name into a hostile one. */
#ifndef KB_TESTS_REPLACE_ALL_H
#define KB_TESTS_REPLACE_ALL_H

#include <stdlib.h>
#include <string.h>

#include "lib/file.h"

static inline char *replace_all(const char *s, const char *from,
				const char *to)
{
	char *out = kb_xstrdup(""), *tmp;
	const char *p;

	while ((p = strstr(s, from))) {
		tmp = kb_xasprintf("%s%.*s%s", out, (int)(p - s), s, to);
		free(out);
		out = tmp;
		s = p + strlen(from);
	}
	tmp = kb_xasprintf("%s%s", out, s);
	free(out);
	return tmp;
}

#endif
