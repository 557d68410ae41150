/* lib/str.h - small string helpers. */
#ifndef KB_STR_H
#define KB_STR_H

/* Strip leading and trailing white space (isspace(3)) in place; returns
 * the first non-blank character of s. */
char *kb_trim(char *s);

#include <stddef.h>
#include <stdio.h>

/* A copy of at most max bytes of s for a message: control characters
 * (and bytes >= 0x7f) shown as '?', "..." appended when cut (malloc'd). */
char *kb_xstrndup_printable(const char *s, size_t max);

/* The bytes of the control character s starts with: 1 for C0 (below
 * 0x20) or DEL (0x7f), 2 for a C1 control in UTF-8 (U+0080..U+009F:
 * 0xc2 0x80..0x9f); 0 for any other character and at the end of s.
 * What a terminal acts on instead of showing (ESC opens its escape
 * sequences, BEL rings). */
size_t kb_control_len(const char *s);

/* A copy of s to print: each control character (kb_control_len()) shown
 * as '?', but the bytes of keep (say "\n" for a block of lines) kept as
 * they are; every other character, UTF-8 included, as it is (malloc'd).
 * For text from a results file that a report shows (a job name holding
 * ESC [ 3 1 m turned the rest of the terminal red). */
char *kb_xstr_shown(const char *s, const char *keep);

/* w printed to out as one sh word, for a command line a user pastes (a
 * dry run's, a report's reproducer): as it is when it is not empty and
 * every byte is a letter, a digit or one of @%+=:,./_- ; else in single
 * quotes (' as '\''), control characters shown as '?' (kb_xstr_shown()).
 * Anything else may be the shell's: ` $ ; & | < > ( ) { } [ ] * ? ~ # !
 * and blanks (a kernels.conf cmdline = a`id` printed as it was ran id). */
void kb_sh_word(FILE *out, const char *w);

/* The NULL-terminated argv as one command line to paste: each word
 * kb_sh_word(), blanks between, then a newline. */
void kb_sh_line(FILE *out, char *const argv[]);

/* kb_xstr_shown() in place (s only shrinks): for a caller that must not
 * allocate (lib/err.c, whose messages say "out of memory"). */
void kb_str_show(char *s, const char *keep);

/* The comma-separated items of arg appended to the NULL-terminated
 * *list (*n items), each item once (`-m read.iops -m read.iops` printed
 * the table twice) and without the blanks around it (`-m 'a, b'` is a
 * and b, as kernels.conf's lists read): the items point into a copy of
 * arg kept in *keep (*nkeep copies, freed by the caller).  For options
 * given as LIST or repeated (-m, -f).  Returns how many items arg names,
 * duplicates included: 0, adding nothing, for "" or an empty item ("a,",
 * ",a", "a,,b", "a, ,b"), which the caller refuses (`--metric ''`
 * silently meant the default metrics, `-f text,` passed as text). */
size_t kb_list_add_split(const char ***list, size_t *n, char ***keep,
		       size_t *nkeep, const char *arg);

/* 1 when a word of the kernel command line cmdline (words separated by
 * blanks; NULL = none) is parameter name, the names compared as the
 * kernel's parameq() compares them (kernel/params.c: '-' and '_'
 * alike), bare (value NULL) or "name=VALUE" (value VALUE), and accept
 * takes that value (accept NULL: any).  Any such word counts, not only
 * the last. */
int kb_cmdline_has(const char *cmdline, const char *name,
		   int (*accept)(const char *value));

/* *s := *s, then sep when *s holds text, then fmt formatted: a list
 * built item by item ("a, b, c").  *s is NULL or malloc'd; it is
 * replaced (freed and reallocated). */
void kb_str_append(char **s, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "WHAT differs from line N: 'LINE A' in NAME_A, 'LINE B' in NAME_B"
 * (malloc'd; each line printable, at most 60 bytes, "(end of file)" past
 * its last line) for the first line where texts a and b differ; NULL
 * when they are equal or either is NULL.  For messages naming what
 * differs between two campaigns' job files. */
char *kb_text_diff(const char *what, const char *a, const char *name_a,
		   const char *b, const char *name_b);

/* An ordered list of distinct strings, borrowed (not copied): the
 * configuration ids, jobs or metric names of a results model.  Linear
 * lookups: the lists are short (tens of names).  Zero-initialise. */
struct kb_strlist {
	const char **v;
	size_t n, cap;
};

/* Index of s in l, or l->n when absent. */
size_t kb_strlist_index(const struct kb_strlist *l, const char *s);

/* 1 when s is in l. */
int kb_strlist_has(const struct kb_strlist *l, const char *s);

/* Append s unless NULL or already present. */
void kb_strlist_add(struct kb_strlist *l, const char *s);

/* Parse "YYYY-MM-DDTHH:MM:SSZ" (UTC, ISO 8601 as state.json writes it)
 * into seconds since the epoch.  0 or -EINVAL (NULL, another form, or
 * anything after the Z). */
#include <stdint.h>
int kb_parse_utc(const char *iso, int64_t *secs);

/* t as "YYYY-MM-DDTHH:MM:SSZ" (UTC, kb_parse_utc()'s form) into buf
 * (at least 21 bytes); returns buf. */
#include <time.h>
char *kb_format_utc(time_t t, char *buf, size_t len);

/* A number as a user writes one in an option or a kernels.conf value,
 * into *v: decimal only, [+-]DIGITS[.DIGITS][(e|E)[+-]DIGITS] or
 * [+-].DIGITS[...], nothing before it.  rest NULL: nothing may follow;
 * else *rest is set past the number (a unit such as '%', which the
 * caller checks).  0; -EINVAL for anything else (blanks, "", hex such
 * as 0x1p-3, inf, nan, "1.2.3": all but the first three of which
 * strtod(3) takes); -ERANGE for a value a double does not hold: one
 * that overflows (1e400) or underflows to a subnormal or to 0 (1e-320,
 * 1e-400; glibc's ERANGE), 0 itself (0, 0.0e5) read.  One parser for
 * every option and key that takes a real number (a break-it trial:
 * --min-effect 0x1p-3 was taken as 0.125). */
int kb_parse_real(const char *s, const char **rest, double *v);

/* An unsigned whole number, decimal digits only (no sign, blank or 0x),
 * at most max, into *v; rest as kb_parse_real().  0, -EINVAL (no digit
 * first, or text after the digits when rest is NULL) or -ERANGE (more
 * than max). */
int kb_parse_ull(const char *s, unsigned long long max,
		 unsigned long long *v, const char **rest);

/* The Levenshtein distance of a and b (insertions, deletions and
 * substitutions of one byte each; V. I. Levenshtein, Soviet Physics
 * Doklady 10 (1966) 707), for "did you mean"; (size_t)-1 when either is
 * 64 bytes or longer. */
size_t kb_edit_distance(const char *a, const char *b);

/* For "did you mean": 1 when cand is within 2 edits of key
 * (kb_edit_distance()) and nearer than *bestd (start it at (size_t)-1),
 * which then becomes cand's distance; else 0. */
int kb_nearer(const char *key, const char *cand, size_t *bestd);

#endif
