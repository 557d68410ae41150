/* lib/argv.c - see argv.h. */
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void grow(struct kb_argv *a)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->v = kb_xrealloc(a->v, a->cap * sizeof(*a->v));
	}
}

static void push_owned(struct kb_argv *a, char *s)
{
	grow(a);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void kb_argv_push(struct kb_argv *a, const char *s)
{
	push_owned(a, kb_xstrdup(s));
}

void kb_argv_pushl(struct kb_argv *a, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, a);
	while ((s = va_arg(ap, const char *)))
		kb_argv_push(a, s);
	va_end(ap);
}

void kb_argv_pushf(struct kb_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0) {
		kb_error("out of memory building an argument list");
		abort();
	}
	va_end(ap);
	push_owned(a, s);
}

void kb_argv_clear(struct kb_argv *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}
