/* tests/put_file.h - put_file(dir, rel, text): write text to dir/rel,
 * making the directories on the way (kb_mkdir_p(), kb_write_atomic()),
 * asserting each step.  Include after <cmocka.h>. */
#ifndef KB_TESTS_PUT_FILE_H
#define KB_TESTS_PUT_FILE_H

#include <stdlib.h>
#include <string.h>

#include "lib/file.h"

static inline void put_file(const char *dir, const char *rel,
			    const char *text)
{
	char *p = kb_path_join(dir, rel), *d = kb_xstrdup(p);

	*strrchr(d, '/') = '\0';
	assert_int_equal(kb_mkdir_p(d), 0);
	assert_int_equal(kb_write_atomic(p, text, strlen(text)), 0);
	free(d);
	free(p);
}

#endif
