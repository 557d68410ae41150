/* parsers/netrc.c - a netrc file's entry for a host (see netrc.h). */
#include "parsers/netrc.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct lexer {
	const char *p, *end;
	char *tok;		/* the last token, malloc'd */
	size_t cap;
	int quoted;		/* it was "..." (never a keyword) */
};

static int at_end(const struct lexer *l)
{
	return l->p >= l->end || !*l->p;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void put(struct lexer *l, size_t n, char c)
{
	if (n + 1 >= l->cap) {
		/* grown by hand: realloc would leave a copy of a password
		 * behind in the block it frees */
		size_t cap = l->cap ? 2 * l->cap : 64;
		char *t = kb_xmalloc(cap);

		if (l->tok) {
			memcpy(t, l->tok, n);
			explicit_bzero(l->tok, l->cap);
			free(l->tok);
		}
		l->tok = t;
		l->cap = cap;
	}
	l->tok[n] = c;
	l->tok[n + 1] = '\0';
}

/* The next token into l->tok: 1, 0 at the end, -EBADMSG for a quoted one
 * that never ends. */
static int next(struct lexer *l)
{
	size_t n = 0;

	while (!at_end(l) && blank(*l->p))
		l->p++;
	if (at_end(l))
		return 0;
	put(l, 0, '\0');
	l->quoted = *l->p == '"';
	if (!l->quoted) {
		for (; !at_end(l) && !blank(*l->p); l->p++)
			put(l, n++, *l->p);
		return 1;
	}
	for (l->p++; !at_end(l) && *l->p != '"'; l->p++) {
		char c = *l->p;

		if (c == '\\') {
			l->p++;
			if (at_end(l))
				return -EBADMSG;
			c = *l->p == 'n' ? '\n' : *l->p == 'r' ? '\r' :
			    *l->p == 't' ? '\t' : *l->p;
		}
		put(l, n++, c);
	}
	if (at_end(l))
		return -EBADMSG;
	l->p++;		/* the closing quote */
	return 1;
}

static int keyword(const struct lexer *l, const char *k)
{
	return !l->quoted && !strcasecmp(l->tok, k);
}

/* After "macdef": past the next empty line (a line break, carriage
 * returns, a line break). */
static void skip_macro(struct lexer *l)
{
	for (; !at_end(l); l->p++) {
		if (*l->p != '\n')
			continue;
		while (l->p + 1 < l->end && l->p[1] == '\r')
			l->p++;
		if (l->p + 1 < l->end && l->p[1] == '\n') {
			l->p += 2;
			return;
		}
	}
}

static void skip_line(struct lexer *l)
{
	while (!at_end(l) && *l->p != '\n')
		l->p++;
}

/* The value after login, password or account into *v (replacing it;
 * NULL: ignored).  0 or -EBADMSG. */
static int value(struct lexer *l, char **v)
{
	int r = next(l);

	if (r <= 0)
		return r;
	if (v) {
		if (*v) {
			explicit_bzero(*v, strlen(*v));
			free(*v);
		}
		*v = kb_xstrdup(l->tok);
	}
	return 0;
}

void kb_netrc_entry_clear(struct kb_netrc_entry *e)
{
	if (e->login) {
		explicit_bzero(e->login, strlen(e->login));
		free(e->login);
	}
	if (e->password) {
		explicit_bzero(e->password, strlen(e->password));
		free(e->password);
	}
	memset(e, 0, sizeof(*e));
}

int kb_netrc_find(const char *text, size_t len, const char *host,
		  struct kb_netrc_entry *e)
{
	struct lexer l = { text, text + len, NULL, 0, 0 };
	int matches = 0, is_default = 0, r;

	memset(e, 0, sizeof(*e));
	for (;;) {
		r = next(&l);
		if (r < 0)
			break;
		/* an entry ends where another (or a macro) starts */
		if (!r || keyword(&l, "machine") || keyword(&l, "default") ||
		    keyword(&l, "macdef")) {
			if (matches && (e->login || e->password)) {
				e->is_default = is_default;
				r = 1;
				break;
			}
			kb_netrc_entry_clear(e);
			matches = is_default = 0;
		}
		if (!r)
			break;
		if (keyword(&l, "machine")) {
			r = next(&l);
			if (r < 0)
				break;
			matches = r && !strcasecmp(l.tok, host);
		} else if (keyword(&l, "default")) {
			matches = is_default = 1;
		} else if (keyword(&l, "macdef")) {
			skip_macro(&l);
		} else if (keyword(&l, "login")) {
			r = value(&l, matches ? &e->login : NULL);
		} else if (keyword(&l, "password")) {
			r = value(&l, matches ? &e->password : NULL);
		} else if (keyword(&l, "account")) {
			r = value(&l, NULL);
		} else if (!l.quoted && l.tok[0] == '#') {
			skip_line(&l);
		}
		if (r < 0)
			break;
	}
	if (l.tok) {
		explicit_bzero(l.tok, l.cap);
		free(l.tok);
	}
	if (r < 0)
		kb_netrc_entry_clear(e);
	return r < 0 ? r : r == 1;
}
