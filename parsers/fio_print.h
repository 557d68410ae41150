/* parsers/fio_print.h - the documents the fio parsers return
 * (parsers/fio_json.h fio_parse_file(), parsers/fio_log.h
 * fio_log_parse(), parsers/fio_terse.h) as `kbench parse` prints them:
 * JSON text with reals to 15 significant digits (what a double's decimal
 * form keeps), and the document's "warnings" strings as kbench warnings.
 * The callers above parsers/ hold a document as an opaque struct json_t.
 */
#ifndef KB_PARSERS_FIO_PRINT_H
#define KB_PARSERS_FIO_PRINT_H

#include <stddef.h>
#include <stdio.h>

struct json_t;	/* jansson's: a parser's document */

/* Write doc to out, indented by two (compact: on one line), and a
 * newline.  0, or -ENOMEM / -EIO with a message (path names the input
 * for the first). */
int fio_doc_print(FILE *out, const char *path, const struct json_t *doc,
		  int compact);

/* kb_warn("NAME: WARNING") for each string of doc's "warnings" array. */
void fio_doc_warn(const char *name, const struct json_t *doc);

/* A terse v3 buffer (fio_terse_parse_buf()): each line's document to
 * out on one line, after its warnings (none with quiet).  0, -EINVAL
 * with the parser's message naming path and line, or fio_doc_print()'s
 * error. */
int fio_terse_print_buf(FILE *out, const char *path, const char *buf,
			size_t len, int quiet);

/* Release a document (NULL: nothing). */
void fio_doc_free(struct json_t *doc);

#endif
