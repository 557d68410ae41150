/* tests/capture.h - capture what kbench prints on stderr (kb_error,
 * kb_warn) during a unit test, to check the messages.  Include after
 * cmocka.h; cap_begin() redirects fd 2 to a temporary file, cap_end()
 * restores it and returns the text (malloc'd). */
#ifndef KB_TESTS_CAPTURE_H
#define KB_TESTS_CAPTURE_H

#include <stdio.h>
#include <unistd.h>

#include "lib/file.h"

struct capture {
	FILE *tmp;
	int saved;
};

static inline void cap_begin(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(2);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->tmp), 2) >= 0);
}

static inline char *cap_end(struct capture *c)
{
	char *buf;
	long n;

	fflush(stderr);
	assert_true(dup2(c->saved, 2) >= 0);
	close(c->saved);
	n = ftell(c->tmp);
	assert_true(n >= 0);
	buf = kb_xmalloc((size_t)n + 1);
	rewind(c->tmp);
	assert_int_equal(fread(buf, 1, (size_t)n, c->tmp), (size_t)n);
	buf[n] = '\0';
	fclose(c->tmp);
	return buf;
}

#endif
