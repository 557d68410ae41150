/* parsers/store_reply.h - the body of a results store's error answer
 * (push/http.c prints it).
 *
 * Format: a JSON object with the message as a string member, "error" in
 * InfluxDB 1.x ({"error": "database not found: \"x\""}, InfluxDB 1.x
 * docs, "Write HTTP endpoint" responses), "message" in InfluxDB 2.x
 * ({"code": "invalid", "message": "..."}, InfluxDB 2.x API, "Error").
 */
#ifndef KB_PARSERS_STORE_REPLY_H
#define KB_PARSERS_STORE_REPLY_H

#include <stddef.h>

/* The longest message kept, in bytes (a longer one is cut, "..."). */
#define STORE_MESSAGE_MAX 1000

/* The message of the len bytes of body: its "error" member when that is
 * a string, else its "message" member, malloc'd, as one line (line
 * breaks and tabs made blanks) of at most STORE_MESSAGE_MAX bytes; NULL
 * when body is not JSON or holds neither (the caller then shows the body
 * itself). */
char *kb_store_error_message(const char *body, size_t len);

#endif
