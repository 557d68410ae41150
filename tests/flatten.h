/* tests/flatten.h - flatten(s): runs of white space in s as one blank,
 * in place, so that a test can look for a sentence of a note that the
 * text tables wrap at 80 columns (lib/table.h). */
#ifndef KB_TESTS_FLATTEN_H
#define KB_TESTS_FLATTEN_H

#include <ctype.h>

static inline void flatten(char *s)
{
	char *p, *q;

	for (p = q = s; *p; p++)
		if (!(isspace((unsigned char)*p) && q > s && q[-1] == ' '))
			*q++ = isspace((unsigned char)*p) ? ' ' : *p;
	*q = '\0';
}

#endif
