/* parsers/netrc.h - the login and password a netrc file holds for a host
 * (push/http.c reads ~/.netrc, or --netrc-file, and hands them to
 * libcurl itself, so that what it sends is what kbench looked at).
 *
 * Format: netrc(5) as libcurl 8 reads it (lib/netrc.c).  Tokens are
 * separated by blanks and line breaks; a token starting with '"' runs to
 * the next unescaped '"', '\' escaping any character and \n, \r, \t
 * standing for a line break, a carriage return and a tab.  The keywords
 * (case-insensitive, unquoted) are:
 *   machine NAME     starts the entry of host NAME (compared with the
 *                    host case-insensitively)
 *   default          starts the entry of any host
 *   login V, password V, account V
 *                    a value of the current entry (account is ignored);
 *                    V is the next token, whatever it is
 *   macdef NAME      a macro: its text, skipped, runs to the next empty
 *                    line
 * Anything else is ignored; a '#' where a keyword could stand starts a
 * comment that runs to the end of the line.  An entry ends at the next
 * machine, default or macdef.  The entry used is the first one, "machine
 * HOST" or "default", that holds a login or a password.
 */
#ifndef KB_PARSERS_NETRC_H
#define KB_PARSERS_NETRC_H

#include <stddef.h>

struct kb_netrc_entry {
	char *login;		/* malloc'd; NULL: the entry has none */
	char *password;		/* malloc'd; NULL: the entry has none */
	int is_default;		/* 1: the "default" entry, which names no
				 * host */
};

/* The entry for host in the len bytes of text (a netrc file, NUL bytes
 * ending it early).  1 with *e filled (kb_netrc_entry_clear() frees it),
 * 0 when no entry holds credentials for host (*e zeroed); -EBADMSG when
 * a quoted token has no closing '"' before the end (libcurl then reads
 * no credentials from the file; *e zeroed). */
int kb_netrc_find(const char *text, size_t len, const char *host,
		  struct kb_netrc_entry *e);

/* Wipe (explicit_bzero) and free e's login and password; zero e. */
void kb_netrc_entry_clear(struct kb_netrc_entry *e);

#endif
