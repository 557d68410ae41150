#include "lib/err.h"
#include "lib/str.h"

#include <stdio.h>
#include <stdlib.h>

int kb_quiet;
int kb_silent;

/* The message with every control character but a line break and a tab
 * written as '?' (kb_control_len()): a name read from a file (a job name
 * with ESC [ 31 m in results.json or a fio report) never drives the
 * terminal (a break-it trial: the renderers were fixed, the warnings
 * naming it were not). */
static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char *msg;

	if (kb_silent)
		return;
	if (vasprintf(&msg, fmt, ap) < 0) {
		fprintf(stderr, "kbench: %s(out of memory for the message "
			"'%s')\n", prefix, fmt);
		return;
	}
	kb_str_show(msg, "\n\t");
	fprintf(stderr, "kbench: %s%s\n", prefix, msg);
	free(msg);
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

void kb_warn_more(const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	if (kb_silent)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	kb_str_show(msg, "\n\t");
	fputs(msg, stderr);
	free(msg);
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
