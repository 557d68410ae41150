#include "lib/err.h"

#include <stdio.h>

int kb_quiet;
int kb_silent;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	if (kb_silent)
		return;
	fprintf(stderr, "kbench: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void kb_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void kb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void kb_info(const char *fmt, ...)
{
	va_list ap;

	if (kb_quiet || kb_silent)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

char *kb_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}
