/* parsers/fio_print.c - printing the fio parsers' documents (see
 * fio_print.h). */
#include "parsers/fio_print.h"
#include "parsers/fio_terse.h"
#include "lib/err.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>

int fio_doc_print(FILE *out, const char *path, const json_t *doc,
		  int compact)
{
	size_t flags = (compact ? JSON_COMPACT : JSON_INDENT(2)) |
		JSON_REAL_PRECISION(15);
	char *text = json_dumps(doc, flags);
	int rc = 0;

	if (!text) {
		kb_error("%s: out of memory formatting the result", path);
		return -ENOMEM;
	}
	if (fputs(text, out) == EOF || fputc('\n', out) == EOF) {
		kb_error("writing to stdout: %m");
		rc = -EIO;
	}
	free(text);
	return rc;
}

void fio_doc_warn(const char *name, const json_t *doc)
{
	const json_t *w;
	size_t i;

	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		kb_warn("%s: %s", name, json_string_value(w));
}

int fio_terse_print_buf(FILE *out, const char *path, const char *buf,
			size_t len, int quiet)
{
	char err[1024];
	json_t *all = fio_terse_parse_buf(buf, len, path, err, sizeof(err));
	const json_t *r;
	size_t i;
	int rc = 0;

	if (!all) {
		kb_error("%s", err);
		return -EINVAL;
	}
	json_array_foreach(all, i, r) {
		if (!quiet)
			fio_doc_warn(path, r);
		if (!rc)
			rc = fio_doc_print(out, path, r, 1);
	}
	json_decref(all);
	return rc;
}

void fio_doc_free(json_t *doc)
{
	json_decref(doc);
}
