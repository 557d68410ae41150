/* parsers/json_file.h - whole JSON files on disk (jansson), read with a
 * FILE:LINE:COL message on error and written atomically (lib/file.h's
 * kb_write_atomic: temporary name, fsync, rename).  The one place below
 * results/ where kbench's own JSON files are read and written. */
#ifndef KB_JSON_FILE_H
#define KB_JSON_FILE_H

#include <jansson.h>
#include <stdio.h>

/* json_dumps(j, JSON_INDENT(2)|JSON_SORT_KEYS) + newline, written with
 * kb_write_atomic().  0 or -errno. */
int kb_json_write_atomic(const char *path, const json_t *j);

/* The same with kb_write_atomic_opt()'s flags (KB_WRITE_NOSYNC for a
 * file derivable from runs/, lib/file.h's durability rule). */
int kb_json_write_atomic_opt(const char *path, const json_t *j,
			     unsigned flags);

/* Write text (a serialized document, malloc'd, taken over and freed;
 * NULL: serialization failed, -ENOMEM with a message naming path) and a
 * final newline to path with kb_write_atomic_opt()'s flags.  0 or
 * -errno. */
int kb_json_text_write_atomic(const char *path, char *text, unsigned flags);

/* What JSON value x is, for a message: "a string", "null", "a number",
 * "a boolean", "an array", "an object"; "nothing" for NULL. */
const char *kb_json_kind(const json_t *x);

/* json_dumpf(j, out, flags) for a reader's terminal: the control
 * characters jansson leaves raw in a string, DEL and the C1 controls
 * U+0080..U+009F (lib/str.h kb_control_len(): U+009B is CSI), written
 * as \u007F .. \u009F escapes as it writes ESC as \u001B; the document
 * is the same.  0, or -EIO when jansson or out failed. */
int kb_json_dumpf_shown(const json_t *j, FILE *out, size_t flags);

/* Load a JSON file (read whole, then kb_json_decode_fast(), else
 * json_loadb with JSON_REJECT_DUPLICATES: a key repeated in one object
 * is an error); on error prints jansson's "FILE:LINE:COL: what" and
 * returns NULL. */
json_t *kb_json_load(const char *path);

/* kb_json_load(), where a file that does not exist is no error: then
 * NULL, *missing = 1 and nothing printed (one open() instead of a stat
 * and an open per file: a report opens every run's metrics.json).
 * Otherwise *missing = 0 and kb_json_load()'s result. */
json_t *kb_json_load_existing(const char *path, int *missing);

/* buf[0..len) decoded by yajl (its lexer over the whole buffer, about
 * half of json_loadb's CPU: issue 16) into exactly the tree json_loadb(buf,
 * len, 0) gives: keys in file order, integers as json_integer and
 * numbers with '.', 'e' or 'E' as
 * json_real (strtod's double bit for bit; up to 19 significant digits
 * and exponents within +-27 without strtod: json_file.c's fast_real).
 * NULL, with nothing printed, for every input it does not
 * take as jansson does, so that the caller decodes it with json_loadb()
 * for jansson's own result or message: invalid JSON, a top level that is
 * not an object or array, any "\u" escape, a number outside RFC 8259's
 * grammar or out of strtoll/strtod's range, a key repeated in one
 * object (kb_json_load() then refuses the file with jansson's
 * JSON_REJECT_DUPLICATES message and its position: kbench's files never
 * repeat one, so a repeat is damage or a hand edit, not "the last value
 * wins" without a word), a string or key that
 * jansson's constructors refuse (invalid UTF-8), nesting deeper than
 * 2048 (jansson's limit).  New reference. */
json_t *kb_json_decode_fast(const char *buf, size_t len);

/* Numbers of one object handed to a consumer instead of the tree (issue
 * 16: a report's 100k runs' metrics without a json_real, a pair and a
 * hash table each; results/run_values.h).  member: a member of the
 * top-level object; when its value is an object, each of its members
 * that is a JSON number goes to number(ctx, key, keylen, value) (an
 * integer as its double, json_number_value()'s) in file order and not
 * into the tree, which keeps that object with its other members.
 * number() returns 0, or nonzero to stop the fast decode: it must refuse
 * a key it was given already (a repeated key, whose value jansson
 * replaces in place).  has(ctx, key, keylen): 1 when number() was given
 * key already, so that a repeated key whose later value is not a number
 * stops the fast decode too. */
struct kb_json_sink {
	const char *member;
	int (*number)(void *ctx, const char *key, size_t keylen, double v);
	int (*has)(void *ctx, const char *key, size_t keylen);
	void *ctx;
};

/* kb_json_decode_fast() with sink (NULL: the same); *sunk (when not
 * NULL): 1 when the tree returned lacks the sink's numbers (they went to
 * the sink), 0 when it is whole.  NULL as kb_json_decode_fast(), after
 * which sink may have been given some numbers (the caller forgets
 * them). */
json_t *kb_json_decode_sink(const char *buf, size_t len,
			    const struct kb_json_sink *sink, int *sunk);

/* kb_json_load_existing_sink() without messages, for a caller that says
 * what the file was for (results/validate.c: a run directory to redo):
 * the tree (sink as there; NULL: none), or NULL with *why (malloc'd):
 * "missing", "unreadable: STRERROR" (open or read), or "line L: TEXT"
 * (jansson's decode error).  *why is NULL after a load. */
json_t *kb_json_load_why(const char *path, const struct kb_json_sink *sink,
			 char **why);

/* kb_json_load_existing() through kb_json_decode_sink(): *sunk 1 when the
 * sink took the member's numbers, 0 when the tree is whole (the fast
 * decode refused the file and json_loadb() read it, or no such member),
 * after which sink may have been given numbers the caller forgets. */
json_t *kb_json_load_existing_sink(const char *path, int *missing,
				   const struct kb_json_sink *sink, int *sunk);

/* kb_json_load_existing_sink() of the file rel names relative to the
 * directory open at dirfd (openat(2); AT_FDCWD: the working directory),
 * which is path: the name every message gives.  A loop over many files
 * of one directory walks two path components per file instead of the
 * whole path (issue 16: the 10k metrics.json of a report).  flags:
 * KB_JSON_WARN prints a failure as a warning (a caller that goes on
 * without the file: a damaged run counted as failed), else 0. */
#define KB_JSON_WARN 1u
json_t *kb_json_load_existing_sink_at(int dirfd, const char *rel,
				      const char *path, int *missing,
				      const struct kb_json_sink *sink,
				      int *sunk, unsigned flags);

#endif
