/* lib/argv.h - building a child's argv (git's strvec): every string is
 * copied, the vector is always NULL-terminated, one kb_argv_clear()
 * frees it all.  For lib/proc.h's kb_spawn() and execvp(3): never a
 * shell string.  Allocation failure aborts (lib/file.h's allocators).
 *
 *   struct kb_argv a = KB_ARGV_INIT;
 *   kb_argv_pushl(&a, "qemu-system-x86_64", "-nodefaults", NULL);
 *   kb_argv_pushf(&a, "%u", memory_mib);
 *   execvp(a.v[0], a.v);
 *   kb_argv_clear(&a);
 */
#ifndef KB_ARGV_H
#define KB_ARGV_H

#include <stddef.h>

struct kb_argv {
	char **v;	/* v[n] == NULL once anything was pushed */
	size_t n, cap;
};

#define KB_ARGV_INIT { NULL, 0, 0 }

/* Append a copy of s. */
void kb_argv_push(struct kb_argv *a, const char *s);

/* Append copies of the strings up to a NULL. */
void kb_argv_pushl(struct kb_argv *a, ...) __attribute__((sentinel));

/* Append a formatted string. */
void kb_argv_pushf(struct kb_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Free every string and the vector; a is empty again. */
void kb_argv_clear(struct kb_argv *a);

#endif
