/* parsers/store_reply.c - a results store's error body (see
 * store_reply.h). */
#include "parsers/store_reply.h"
#include "lib/file.h"

#include <jansson.h>

char *kb_store_error_message(const char *body, size_t len)
{
	json_t *j = body && len ? json_loadb(body, len, 0, NULL) : NULL;
	json_t *m = json_object_get(j, "error");
	char *msg = NULL;

	if (!json_is_string(m))
		m = json_object_get(j, "message");
	if (json_is_string(m))
		msg = kb_xstrdup(json_string_value(m));
	json_decref(j);
	return msg;
}
