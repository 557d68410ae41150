#include "lib/str.h"

#include "lib/err.h"
#include "lib/file.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *kb_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *kb_xstrndup_printable(const char *s, size_t max)
{
	size_t n = strnlen(s, max), i;
	char *o = kb_xmalloc(n + 4);

	for (i = 0; i < n; i++)
		o[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ?
		       '?' : s[i];
	strcpy(o + n, s[n] ? "..." : "");
	return o;
}

size_t kb_control_len(const char *s)
{
	unsigned char c = (unsigned char)s[0];

	if (!c)
		return 0;
	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
	    (unsigned char)s[1] <= 0x9f)
		return 2;
	return 0;
}

void kb_str_show(char *s, const char *keep)
{
	char *q = s;
	size_t k;

	while (*s) {
		k = kb_control_len(s);
		if (!k || (k == 1 && strchr(keep, *s))) {
			*q++ = *s++;
			continue;
		}
		*q++ = '?';
		s += k;
	}
	*q = '\0';
}

char *kb_xstr_shown(const char *s, const char *keep)
{
	char *o = kb_xstrdup(s);

	kb_str_show(o, keep);
	return o;
}

void kb_sh_word(FILE *out, const char *w)
{
	char *c = kb_xstr_shown(w, ""), *p;

	if (*c && strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789@%+=:,./_-") == strlen(c)) {
		fputs(c, out);
		free(c);
		return;
	}
	fputc('\'', out);
	for (p = c; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", out);
		else
			fputc(*p, out);
	}
	fputc('\'', out);
	free(c);
}

void kb_sh_line(FILE *out, char *const argv[])
{
	size_t i;

	for (i = 0; argv[i]; i++) {
		if (i)
			fputc(' ', out);
		kb_sh_word(out, argv[i]);
	}
	fputc('\n', out);
}

size_t kb_strlist_index(const struct kb_strlist *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return i;
	return l->n;
}

int kb_strlist_has(const struct kb_strlist *l, const char *s)
{
	return kb_strlist_index(l, s) < l->n;
}

void kb_strlist_add(struct kb_strlist *l, const char *s)
{
	if (!s || kb_strlist_has(l, s))
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = kb_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = s;
}

int kb_parse_utc(const char *iso, int64_t *secs)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	if (!iso)
		return -EINVAL;
	end = strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return -EINVAL;
	*secs = (int64_t)timegm(&tm);
	return 0;
}

/* Line number (1-based) of the first line where a and b differ, with
 * each side's line (malloc'd) in *la and *lb; 0 when equal. */
static size_t first_diff_line(const char *a, const char *b, char **la,
			      char **lb)
{
	size_t line = 1, i;

	while (*a || *b) {
		size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");

		if (na != nb || strncmp(a, b, na)) {
			const char *s[2] = { a, b };
			size_t n[2] = { na, nb };
			char **out[2] = { la, lb };

			for (i = 0; i < 2; i++) {
				char *l = kb_xasprintf("%.*s", (int)n[i], s[i]);

				*out[i] = *s[i] ? kb_xstrndup_printable(l, 60) :
					  kb_xstrdup("(end of file)");
				free(l);
			}
			return line;
		}
		a += na + (a[na] == '\n');
		b += nb + (b[nb] == '\n');
		line++;
	}
	return 0;
}

char *kb_text_diff(const char *what, const char *a, const char *name_a,
		   const char *b, const char *name_b)
{
	char *la = NULL, *lb = NULL, *msg = NULL;
	size_t line;

	if (!a || !b)
		return NULL;
	line = first_diff_line(a, b, &la, &lb);
	if (line)
		msg = kb_xasprintf("%s differs from line %zu: '%s' in %s, '%s' "
				   "in %s", what, line, la, name_a, lb, name_b);
	free(la);
	free(lb);
	return msg;
}

size_t kb_list_add_split(const char ***list, size_t *n, char ***keep,
			 size_t *nkeep, const char *arg)
{
	char *copy, *tok, *next;
	const char *c;
	size_t i, items = 0;

	/* "text," or "a, ,b": a name left out, not a list to guess at */
	for (c = arg;; c++) {
		while (isspace((unsigned char)*c))	/* as kb_trim() */
			c++;
		if (!*c || *c == ',')
			return 0;
		c += strcspn(c, ",");
		if (!*c)
			break;
	}
	copy = kb_xstrdup(arg);
	*keep = kb_xrealloc(*keep, (*nkeep + 1) * sizeof(**keep));
	(*keep)[(*nkeep)++] = copy;
	for (tok = copy; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		tok = kb_trim(tok);	/* "-m 'a, b'": b, not " b" */
		items++;
		for (i = 0; i < *n && strcmp((*list)[i], tok); i++)
			;
		if (i < *n)
			continue;	/* given already */
		*list = kb_xrealloc(*list, (*n + 2) * sizeof(**list));
		(*list)[(*n)++] = tok;
		(*list)[*n] = NULL;
	}
	return items;
}

void kb_str_append(char **s, const char *sep, const char *fmt, ...)
{
	va_list ap;
	char *item, *tmp;

	va_start(ap, fmt);
	if (vasprintf(&item, fmt, ap) < 0) {	/* as kb_xasprintf() */
		kb_error("out of memory formatting a string");
		abort();
	}
	va_end(ap);
	tmp = kb_xasprintf("%s%s%s", *s ? *s : "", *s && **s ? sep : "",
			   item);
	free(item);
	free(*s);
	*s = tmp;
}

char *kb_format_utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		*buf = '\0';
	return buf;
}

size_t kb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64], prev, tmp;

	if (lb >= sizeof(row) / sizeof(row[0]) || la >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

int kb_nearer(const char *key, const char *cand, size_t *bestd)
{
	size_t d = kb_edit_distance(key, cand);

	if (d > 2 || d >= *bestd)
		return 0;
	*bestd = d;
	return 1;
}

int kb_cmdline_has(const char *cmdline, const char *name,
		   int (*accept)(const char *value))
{
	const char *p = cmdline;
	size_t nl = strlen(name), i, wl;

	while (p && *p) {
		p += strspn(p, " \t\n");
		wl = strcspn(p, " \t\n");
		for (i = 0; i < nl && i < wl; i++)
			if (p[i] != name[i] && !(strchr("-_", p[i]) &&
						 strchr("-_", name[i])))
				break;
		if (i == nl && (wl == nl || p[nl] == '=') &&
		    (!accept || accept(wl == nl ? NULL : p + nl + 1)))
			return 1;
		p += wl;
	}
	return 0;
}

/* digits at s: how many */
static size_t digits_at(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

int kb_parse_real(const char *s, const char **rest, double *v)
{
	const char *c = s;
	char *end;
	size_t nd;
	double r;

	if (!s)
		return -EINVAL;
	if (*c == '+' || *c == '-')
		c++;
	nd = digits_at(c);
	c += nd;
	if (*c == '.') {
		nd += digits_at(c + 1);
		c += 1 + digits_at(c + 1);
	}
	if (!nd)
		return -EINVAL;
	if (*c == 'e' || *c == 'E') {
		const char *x = c + 1;

		if (*x == '+' || *x == '-')
			x++;
		if (digits_at(x))
			c = x + digits_at(x);
	}
	if (!rest && *c)
		return -EINVAL;
	errno = 0;
	r = strtod(s, &end);
	if (end != c)	/* a locale's other decimal point */
		return -EINVAL;
	if (errno == ERANGE || !isfinite(r) || (r != 0.0 && fabs(r) < DBL_MIN))
		return -ERANGE;
	if (rest)
		*rest = c;
	*v = r;
	return 0;
}

int kb_parse_ull(const char *s, unsigned long long max,
		 unsigned long long *v, const char **rest)
{
	unsigned long long r = 0;
	const char *c = s;

	if (!s || !isdigit((unsigned char)*c))
		return -EINVAL;
	for (; isdigit((unsigned char)*c); c++) {
		unsigned d = (unsigned)(*c - '0');

		if (r > (max - d) / 10)
			return -ERANGE;
		r = r * 10 + d;
	}
	if (rest)
		*rest = c;
	else if (*c)
		return -EINVAL;
	*v = r;
	return 0;
}
