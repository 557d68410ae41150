/* parsers/store_reply.c - a results store's error body (see
 * store_reply.h). */
#include "parsers/store_reply.h"
#include "lib/file.h"

#include <jansson.h>
#include <string.h>

char *kb_store_error_message(const char *body, size_t len)
{
	json_t *j = body && len ? json_loadb(body, len, 0, NULL) : NULL;
	json_t *m = json_object_get(j, "error");
	char *msg = NULL;

	if (!json_is_string(m))
		m = json_object_get(j, "message");
	if (json_is_string(m)) {
		const char *v = json_string_value(m);
		size_t n = strlen(v), i;

		/* one line of at most STORE_MESSAGE_MAX bytes, cut between
		 * two UTF-8 characters: a store's "\n" would otherwise start
		 * a line that reads as kbench's own (a break-it trial) */
		if (n > STORE_MESSAGE_MAX) {
			n = STORE_MESSAGE_MAX;
			while (n && ((unsigned char)v[n] & 0xc0) == 0x80)
				n--;
			msg = kb_xasprintf("%.*s...", (int)n, v);
		} else {
			msg = kb_xstrdup(v);
		}
		for (i = 0; msg[i]; i++)
			if (msg[i] == '\n' || msg[i] == '\r' || msg[i] == '\t')
				msg[i] = ' ';
	}
	json_decref(j);
	return msg;
}
