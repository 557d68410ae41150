/* parsers/fio_jobfile.c - does a fio job file only read its files
 * (parsers/fio_jobfile.h)? */
#include "parsers/fio_jobfile.h"
#include "lib/file.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* [b, e) without the blanks at either end */
static void trim(const char **b, const char **e)
{
	while (*b < *e && isspace((unsigned char)**b))
		(*b)++;
	while (*e > *b && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static int word_is(const char *b, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - b) == n && !strncasecmp(b, w, n);
}

/* rw=VALUE: 1 unless it only reads ("read", "randread", each with an
 * optional ":N" modifier) */
static int rw_writes(const char *b, const char *e)
{
	const char *colon = memchr(b, ':', (size_t)(e - b));

	if (colon)
		e = colon;
	trim(&b, &e);
	return !word_is(b, e, "read") && !word_is(b, e, "randread");
}

/* a boolean option given alone, or with a value other than 0/false */
static int flag_on(const char *b, const char *e)
{
	if (!b)
		return 1;
	return !word_is(b, e, "0") && !word_is(b, e, "false");
}

int fio_jobfile_writes(const char *text, char **why)
{
	const char *line = text, *next, *b, *e, *eq, *kb, *ke, *vb, *ve, *p;
	int lineno = 0, w, dollar;

	*why = NULL;
	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		e = next ? next : line + strlen(line);
		if (next)
			next++;
		lineno++;
		b = line;
		trim(&b, &e);
		if (b == e || *b == ';' || *b == '#' || *b == '[')
			continue;
		if ((size_t)(e - b) > 8 && !strncmp(b, "include", 7) &&
		    isspace((unsigned char)b[7])) {
			*why = kb_xasprintf("line %d: %.*s (a file kbench does "
					    "not read)", lineno, (int)(e - b), b);
			return 1;
		}
		eq = memchr(b, '=', (size_t)(e - b));
		kb = b;
		ke = eq ? eq : e;
		trim(&kb, &ke);
		vb = ve = NULL;
		if (eq) {
			vb = eq + 1;
			ve = e;
			/* an inline comment after the value */
			for (p = vb; p < ve; p++)
				if ((*p == ';' || *p == '#') && p > vb &&
				    isspace((unsigned char)p[-1])) {
					ve = p;
					break;
				}
			trim(&vb, &ve);
		}
		/* a value fio takes from the environment: unknown here */
		dollar = vb && memchr(vb, '$', (size_t)(ve - vb));
		w = 0;
		if (word_is(kb, ke, "rw") || word_is(kb, ke, "readwrite"))
			w = vb && (dollar || rw_writes(vb, ve));
		else if (word_is(kb, ke, "unlink") ||
			 word_is(kb, ke, "unlink_each_loop"))
			w = flag_on(vb, ve) || dollar;
		else if (word_is(kb, ke, "ioengine") && vb)
			w = dollar || (!strncasecmp(vb, "file", 4) &&
				       !word_is(vb, ve, "filestat"));
		if (w) {
			*why = kb_xasprintf("line %d: %.*s%s%.*s%s", lineno,
					    (int)(ke - kb), kb, vb ? "=" : "",
					    vb ? (int)(ve - vb) : 0, vb ? vb : "",
					    dollar ? " (set when fio runs)" : "");
			return 1;
		}
	}
	return 0;
}
