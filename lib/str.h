/* lib/str.h - small string helpers. */
#ifndef KB_STR_H
#define KB_STR_H

/* Strip leading and trailing white space (isspace(3)) in place; returns
 * the first non-blank character of s. */
char *kb_trim(char *s);

#endif
