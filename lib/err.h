/* lib/err.h - user-facing diagnostics.
 *
 * Every message goes to stderr prefixed with "kbench: " and says what
 * failed, on which file/line/value, and what to do.  Functions in kbench
 * return 0 on success or a negative errno-style code (-EINVAL, -ENOENT,
 * ...) and print their own message once, at the place that knows the
 * context; callers propagate the code without printing again.
 */
#ifndef KB_ERR_H
#define KB_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Print "kbench: error: <fmt>\n" to stderr. */
void kb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "kbench: warning: <fmt>\n" to stderr. */
void kb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line of a warning or error just printed (a list under it: "  NAME
 * in A, NAME in B"), as is, without the "kbench: " prefix, with control
 * characters as '?' as every message (kb_error()); no newline added.
 * Silenced with kb_silent. */
void kb_warn_more(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "kbench: <fmt>\n" to stderr unless kb_quiet is set. */
void kb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Set to 1 to silence kb_info (tests, --quiet). */
extern int kb_quiet;
/* Set to 1 to silence kb_error and kb_warn too (the fuzz harnesses under
 * fuzz/, where every malformed input would print). */
extern int kb_silent;

/* snprintf into buf, never overflowing; returns buf. */
char *kb_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
