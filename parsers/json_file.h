/* parsers/json_file.h - whole JSON files on disk (jansson), read with a
 * FILE:LINE:COL message on error and written atomically (lib/file.h's
 * kb_write_atomic: temporary name, fsync, rename).  The one place below
 * results/ where kbench's own JSON files are read and written. */
#ifndef KB_JSON_FILE_H
#define KB_JSON_FILE_H

#include <jansson.h>

/* json_dumps(j, JSON_INDENT(2)|JSON_SORT_KEYS) + newline, written with
 * kb_write_atomic().  0 or -errno. */
int kb_json_write_atomic(const char *path, const json_t *j);

/* The same with kb_write_atomic_opt()'s flags (KB_WRITE_NOSYNC for a
 * file derivable from runs/, lib/file.h's durability rule). */
int kb_json_write_atomic_opt(const char *path, const json_t *j,
			     unsigned flags);

/* Load a JSON file (read whole, then json_loadb); on error prints
 * "FILE:LINE:COL: what" and returns NULL. */
json_t *kb_json_load(const char *path);

/* kb_json_load(), where a file that does not exist is no error: then
 * NULL, *missing = 1 and nothing printed (one open() instead of a stat
 * and an open per file: a report opens every run's metrics.json).
 * Otherwise *missing = 0 and kb_json_load()'s result. */
json_t *kb_json_load_existing(const char *path, int *missing);

#endif
