/* parsers/json_file.c - see json_file.h. */
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int kb_json_write_atomic(const char *path, const json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS |
				JSON_REAL_PRECISION(17));
	char *withnl;
	int ret;

	if (!s) {
		kb_error("cannot serialise JSON for %s", path);
		return -ENOMEM;
	}
	withnl = kb_xasprintf("%s\n", s);
	free(s);
	ret = kb_write_atomic(path, withnl, strlen(withnl));
	free(withnl);
	return ret;
}

json_t *kb_json_load(const char *path)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);

	if (!j)
		kb_error("%s:%d:%d: %s", path, err.line, err.column, err.text);
	return j;
}
