/* reports/text.c - the plain fixed-width report for a mailing-list post.
 *
 * Layout after seed 000 ("Kernel  NM  I/Os per sec"): a heading line, a
 * line of dashes under each column, two spaces between columns, rows
 * grouped by the first tunable with a blank line between groups.  ASCII
 * only ("±" is written "+-"), no tabs, no trailing blanks, no line longer
 * than the width given (80 for report_render()).
 */
#include "reports/table.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define GAP 2		/* spaces between columns */
#define MIN_KEY 6	/* narrowest first column ("Kernel") */

/* s with every "±" written as "+-" and every control character
 * (lib/str.h kb_control_len(): a name from a results file holding ESC)
 * as '?' (malloc'd). */
static char *ascii(const char *s)
{
	size_t n = 0, k;
	const char *p;
	char *d, *q;

	for (p = s; *p; p++)
		n++;
	d = q = kb_xmalloc(n + 1);
	for (p = s; *p; p++) {
		if ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0xb1) {
			*q++ = '+';
			*q++ = '-';
			p++;
		} else if ((k = kb_control_len(p))) {
			*q++ = '?';
			p += k - 1;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	return d;
}

/* Display width of UTF-8 text: one column per code point. */
static size_t dispw(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

size_t kb_text_width(const char *s)
{
	char *a = ascii(s);
	size_t n = dispw(a);

	free(a);
	return n;
}

size_t kb_text_cols_width(const struct kb_table *t, size_t from, size_t to)
{
	size_t c, r, w, sum = 0;

	for (c = from; c < to && c < t->ncols; c++) {
		w = kb_text_width(t->cols[c].head);
		for (r = 0; r < t->nrows; r++)
			if (kb_text_width(t->rows[r].cells[c]) > w)
				w = kb_text_width(t->rows[r].cells[c]);
		sum += w + GAP;
	}
	return sum;
}

/* A line being built; written without trailing blanks. */
struct line {
	char *buf;
	size_t len, cap;
};

static void line_put(struct line *l, const char *s, size_t bytes)
{
	if (l->len + bytes + 1 > l->cap) {
		l->cap = 2 * (l->len + bytes + 1);
		l->buf = kb_xrealloc(l->buf, l->cap);
	}
	memcpy(l->buf + l->len, s, bytes);
	l->len += bytes;
	l->buf[l->len] = '\0';
}

static void line_pad(struct line *l, size_t n)
{
	while (n--)
		line_put(l, " ", 1);
}

/* Add cell s padded to w columns, preceded by a gap unless first. */
static void line_cell(struct line *l, const char *s, size_t w, int right,
		      int first)
{
	size_t sw = dispw(s);

	if (!first)
		line_pad(l, GAP);
	if (right && sw < w)
		line_pad(l, w - sw);
	line_put(l, s, strlen(s));
	if (!right && sw < w)
		line_pad(l, w - sw);
}

static void line_flush(FILE *out, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	fwrite(l->buf ? l->buf : "", 1, l->len, out);
	fputc('\n', out);
	l->len = 0;
	if (l->buf)
		l->buf[0] = '\0';
}

/* The length of the word at p: up to the next blank, or when p opens a
 * short quotation ("* -0.42%*", a mark with a blank inside) to the
 * blank after its closing quote, so that a line never ends inside it. */
static size_t quoted_word(const char *p)
{
	const char *q;

	if (*p == '"' && (q = strchr(p + 1, '"')) && q - p <= 24)
		return (size_t)(q - p) + 1 + strcspn(q + 1, " ");
	return strcspn(p, " ");
}

void kb_text_wrap(FILE *out, const char *prefix, const char *text,
		  int indent, int width)
{
	size_t col, wl, avail, ind = (size_t)indent, wid = (size_t)width;
	char *a = ascii(text);
	const char *p = a;
	int first = 1;

	if (ind >= wid)
		ind = 0;
	fputs(prefix, out);
	col = dispw(prefix);
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		wl = quoted_word(p);
		if (!first && col + 1 + wl > wid) {
			fprintf(out, "\n%*s", (int)ind, "");
			col = ind;
			first = 1;
		}
		/* a word longer than a whole line: cut it */
		while (first && col + wl > wid) {
			avail = col < wid ? wid - col : 0;
			fwrite(p, 1, avail, out);
			p += avail;
			wl -= avail;
			fprintf(out, "\n%*s", (int)ind, "");
			col = ind;
		}
		if (!first)
			fputc(' ', out);
		fwrite(p, 1, wl, out);
		col += wl + (first ? 0 : 1);
		first = 0;
		p += wl;
	}
	fputc('\n', out);
	free(a);
}

/* Narrowest a last text column is made before the table is left wide. */
#define MIN_TAIL 16

/* Write cell s (ASCII) as the last column of line l, at most w wide: cut
 * after the last '.', '_' or '-' that fits (else at w), and go on in the
 * same column on continuation lines indented by col. */
static void write_tail(FILE *out, struct line *l, const char *s, size_t w,
		       size_t col)
{
	size_t len = strlen(s), cut, k;

	line_pad(l, GAP);
	while (len > w) {
		cut = w;
		for (k = w; k > w / 2; k--)
			if (s[k - 1] == '.' || s[k - 1] == '_' || s[k - 1] == '-') {
				cut = k;
				break;
			}
		line_put(l, s, cut);
		line_flush(out, l);
		line_pad(l, col);
		s += cut;
		len -= cut;
	}
	line_put(l, s, len);
	line_flush(out, l);
}

/* One part of a wrapped table: the key columns [0, nkey) and the
 * columns [from, to); the first column is key0_cap wide, a longer name
 * gets a line of its own (wrapped to width). */
static void write_part(FILE *out, const struct kb_table *t, char ***cells,
		       char **heads, const size_t *w, size_t nkey,
		       size_t from, size_t to, size_t key0_cap,
		       int width)
{
	size_t *idx, *cw, n = 0, r, i, used, tail = 0;
	struct line l = { 0 };
	const char *s = "";
	char *dash;

	idx = kb_xcalloc(t->ncols, sizeof(*idx));
	cw = kb_xcalloc(t->ncols, sizeof(*cw));
	for (i = 0; i < nkey; i++)
		idx[n++] = i;
	for (i = from; i < to; i++)
		idx[n++] = i;
	for (i = 0; i < n; i++)
		cw[i] = idx[i] == 0 && nkey ? key0_cap : w[idx[i]];
	/* a last, left-aligned text column (lkp's metric names) too wide
	 * for the line: narrow it; longer cells continue on the next line */
	used = 0;
	for (i = 0; i + 1 < n; i++)
		used += cw[i] + GAP;
	if (n > 1 && !t->cols[idx[n - 1]].right &&
	    used + cw[n - 1] > (size_t)width &&
	    (size_t)width >= used + MIN_TAIL) {
		cw[n - 1] = (size_t)width - used;
		tail = cw[n - 1];
	}

	for (i = 0; i < n; i++)
		line_cell(&l, heads[idx[i]], cw[i], t->cols[idx[i]].right,
			  i == 0);
	line_flush(out, &l);
	for (i = 0; i < n; i++) {
		dash = kb_xmalloc(cw[i] + 1);
		memset(dash, '-', cw[i]);
		dash[cw[i]] = '\0';
		line_cell(&l, dash, cw[i], 0, i == 0);
		free(dash);
	}
	line_flush(out, &l);
	for (r = 0; r < t->nrows; r++) {
		if (t->rows[r].group_start)
			fputc('\n', out);
		for (i = 0; i < n; i++) {
			s = cells[r][idx[i]];

			if (i == 0 && dispw(s) > cw[0]) {
				/* too long for its column: a line of its own
				 * (continued indented) */
				kb_text_wrap(out, "", s, 4, width);
				s = "";
			}
			if (tail && i == n - 1 && strlen(s) > tail) {
				write_tail(out, &l, s, cw[i], used);
				s = NULL;
				break;
			}
			line_cell(&l, s, cw[i], t->cols[idx[i]].right, i == 0);
		}
		if (s)
			line_flush(out, &l);
	}
	free(l.buf);
	free(idx);
	free(cw);
}

#define MIN_HEAD 12	/* a head cut to fit is at least this wide */

/* Heads too long for any part of the table to fit width: a column whose
 * group (its own part when the table is split) or, for a key column
 * after the first, the key columns with the widest group, would still be
 * wider than width only because of a head longer than the column's cells
 * and MIN_HEAD.  Such a head is cut to max(cells, MIN_HEAD) with "~N" at
 * its end, w[] updated; returns the legend naming each ("~1: FULL HEAD,
 * ..."; malloc'd) or NULL when none was cut (a configuration id of 84
 * characters made a rounds table 94 columns wide). */
static char *cut_long_heads(const struct kb_table *t, char **heads,
			    char ***cells, size_t *w, size_t nkey, int width,
			    size_t *ntag)
{
	size_t c, g, r, cellw, gw, keyw = 0, maxg = 0, room, n = 0;
	size_t wid = (size_t)width;
	char *legend = NULL, *tmp, tag[16];

	for (c = 0; c < nkey; c++)
		keyw += w[c] + (c ? GAP : 0);
	for (c = nkey; c < t->ncols; c = g) {
		for (gw = 0, g = c; g < t->ncols &&
		     t->cols[g].group == t->cols[c].group; g++)
			gw += w[g] + GAP;
		if (gw > maxg)
			maxg = gw;
	}
	for (c = 0; c < t->ncols; c++) {
		int key = c < nkey;

		if (c == 0)	/* narrowed by the caller (MIN_KEY) */
			continue;
		if (key ? keyw + maxg <= wid : 0)
			continue;
		if (!key) {
			for (gw = 0, g = c; g > nkey && t->cols[g - 1].group ==
			     t->cols[c].group; g--)
				;
			for (; g < t->ncols && t->cols[g].group ==
			     t->cols[c].group; g++)
				gw += w[g] + GAP;
			if (keyw + gw <= wid)
				continue;
		}
		for (cellw = 0, r = 0; r < t->nrows; r++)
			if (dispw(cells[r][c]) > cellw)
				cellw = dispw(cells[r][c]);
		room = cellw > MIN_HEAD ? cellw : MIN_HEAD;
		if (dispw(heads[c]) <= room)
			continue;
		snprintf(tag, sizeof(tag), "~%zu", ++n);
		tmp = kb_xasprintf("%s%s%s: %s", legend ? legend : "",
				   legend ? "; " : "", tag, heads[c]);
		free(legend);
		legend = tmp;
		tmp = kb_xasprintf("%.*s%s", (int)(room - strlen(tag)),
				   heads[c], tag);
		free(heads[c]);
		heads[c] = tmp;
		if (key)
			keyw -= w[c] - room;
		w[c] = room;
	}
	*ntag = n;
	if (!legend)
		return NULL;
	tmp = kb_xasprintf("column heads cut to fit %d columns: %s", width,
			   legend);
	free(legend);
	return tmp;
}

#define MIN_CUT 8	/* a key cell cut to fit is at least this wide */

/* The bytes of the first cols display columns of s (UTF-8). */
static size_t prefix_bytes(const char *s, size_t cols)
{
	size_t b = 0;

	for (; s[b]; b++)
		if (((unsigned char)s[b] & 0xc0) != 0x80 && !cols--)
			break;
	return b;
}

/* Key cells (after the first column, which the caller narrows) too long
 * for the key columns and the widest group to fit width: the widest key
 * column first is narrowed to what fits, down to max(head, MIN_CUT), and
 * each longer cell cut to it with "~N" at its end (one tag per value),
 * w[] updated and *keyw with it; tags go on from *ntag.  Returns the
 * legend naming each ("~1: FULL VALUE; ..."; malloc'd) or NULL when
 * none was cut (a tunable value "0-3,8-11,16-19,24-27,32-35" made a
 * variants table 92 columns wide). */
static char *cut_long_keys(const struct kb_table *t, char ***cells,
			   char **heads, size_t *w, size_t nkey,
			   size_t *keyw, size_t maxg, int width,
			   size_t *ntag)
{
	size_t c, r, p, widest, room, least, wid = (size_t)width;
	char *legend = NULL, *tmp, tag[16];

	while (*keyw + maxg > wid) {
		for (widest = 0, c = 1; c < nkey; c++) {
			least = dispw(heads[c]) > MIN_CUT ? dispw(heads[c]) :
				MIN_CUT;
			if (w[c] > least && (!widest || w[c] > w[widest]))
				widest = c;
		}
		if (!widest)
			break;	/* as narrow as they go: left wide */
		c = widest;
		least = dispw(heads[c]) > MIN_CUT ? dispw(heads[c]) : MIN_CUT;
		room = w[c] > least + (*keyw + maxg - wid) ?
		       w[c] - (*keyw + maxg - wid) : least;
		for (r = 0; r < t->nrows; r++) {
			if (dispw(cells[r][c]) <= room)
				continue;
			for (p = 0; p < r; p++)	/* a value cut before */
				if (!strcmp(t->rows[p].cells[c],
					    t->rows[r].cells[c]))
					break;
			if (p < r) {	/* the same width: cut, tagged */
				tmp = kb_xstrdup(cells[p][c]);
			} else {
				snprintf(tag, sizeof(tag), "~%zu", ++*ntag);
				tmp = kb_xasprintf("%s%s%s: %s", legend ?
						   legend : "", legend ? "; " :
						   "", tag, cells[r][c]);
				free(legend);
				legend = tmp;
				tmp = kb_xasprintf("%.*s%s", (int)prefix_bytes(
					cells[r][c], room - strlen(tag)),
					cells[r][c], tag);
			}
			free(cells[r][c]);
			cells[r][c] = tmp;
		}
		*keyw -= w[c] - room;
		w[c] = room;
	}
	if (!legend)
		return NULL;
	tmp = kb_xasprintf("values cut to fit %d columns: %s", width, legend);
	free(legend);
	return tmp;
}

/* The narrowest the key columns get (the first to MIN_KEY or its head,
 * the others cut to max(head, MIN_CUT), a head to MIN_HEAD), gaps
 * included. */
static size_t keys_least(char **heads, const size_t *w, size_t nkey)
{
	size_t c, least, sum = 0;

	for (c = 0; c < nkey; c++) {
		least = dispw(heads[c]) < MIN_HEAD ? dispw(heads[c]) :
			MIN_HEAD;
		if (least < (c ? MIN_CUT : MIN_KEY))
			least = c ? MIN_CUT : MIN_KEY;
		sum += (w[c] < least ? w[c] : least) + (c ? GAP : 0);
	}
	return sum;
}

/* Each row's key cells joined into its first ("running NM=0
 * SCHEDULER=bfq", HEAD=VALUE for each non-empty one), the other key
 * columns emptied (head "", width 0: not shown), w[0] updated. */
static void join_keys(const struct kb_table *t, char ***cells, char **heads,
		      size_t *w, size_t nkey)
{
	size_t r, c;
	char *s;

	for (r = 0; r < t->nrows; r++) {
		for (c = 1; c < nkey; c++) {
			if (*cells[r][c]) {
				s = kb_xasprintf("%s%s%s=%s", cells[r][0],
						 *cells[r][0] ? " " : "",
						 heads[c], cells[r][c]);
				free(cells[r][0]);
				cells[r][0] = s;
			}
			free(cells[r][c]);
			cells[r][c] = kb_xstrdup("");
		}
		if (dispw(cells[r][0]) > w[0])
			w[0] = dispw(cells[r][0]);
	}
	for (c = 1; c < nkey; c++) {
		free(heads[c]);
		heads[c] = kb_xstrdup("");
		w[c] = 0;
	}
}

int kb_table_write_text(FILE *out, const struct kb_table *t, int width)
{
	size_t *w, nkey = 0, keyw = 0, allg = 0, gw, r, c, from, to;
	size_t cap, maxg = 0, ntag = 0, nshow;
	char ***cells, **heads, *legend = NULL, *keys, *tmp;
	size_t i;

	if (t->title[0]) {
		kb_text_wrap(out, "", t->title, 4, width);
		fputc('\n', out);
	}
	if (!t->ncols)
		goto notes;

	w = kb_xcalloc(t->ncols, sizeof(*w));
	heads = kb_xcalloc(t->ncols, sizeof(*heads));
	cells = kb_xcalloc(t->nrows + 1, sizeof(*cells));
	for (c = 0; c < t->ncols; c++) {
		heads[c] = ascii(t->cols[c].head);
		w[c] = dispw(heads[c]);
	}
	for (r = 0; r < t->nrows; r++) {
		cells[r] = kb_xcalloc(t->ncols, sizeof(**cells));
		for (c = 0; c < t->ncols; c++) {
			cells[r][c] = ascii(t->rows[r].cells[c]);
			if (dispw(cells[r][c]) > w[c])
				w[c] = dispw(cells[r][c]);
		}
	}

	/* key columns lead; the rest is in groups kept together */
	while (nkey < t->ncols && t->cols[nkey].group == 0)
		nkey++;
	/* key columns too many to fit beside one group of values however
	 * narrow (several tunables with long labels): joined into the
	 * first, which then gets a line of its own */
	nshow = nkey;
	for (c = nkey; c < t->ncols; c = to) {
		for (gw = 0, to = c; to < t->ncols && t->cols[to].group ==
		     t->cols[c].group; to++)
			gw += w[to] + GAP;
		if (gw > maxg)
			maxg = gw;
	}
	if (nkey > 1 && keys_least(heads, w, nkey) + maxg > (size_t)width) {
		join_keys(t, cells, heads, w, nkey);
		nshow = 1;
	}
	maxg = 0;
	legend = cut_long_heads(t, heads, cells, w, nshow, width, &ntag);
	for (c = 0; c < nshow; c++)
		keyw += w[c] + (c ? GAP : 0);
	for (c = nkey; c < t->ncols; c = to) {
		gw = 0;
		for (to = c; to < t->ncols && t->cols[to].group ==
		     t->cols[c].group; to++)
			gw += w[to] + GAP;
		allg += gw;
		if (gw > maxg)
			maxg = gw;
	}
	/* too wide: narrow the first column (the variant name), down to
	 * MIN_KEY, when that makes the whole table fit; longer names then
	 * get a line of their own.  Else split the table into parts. */
	cap = w[0];
	if (nkey && keyw + allg > (size_t)width) {
		size_t over = keyw + allg - (size_t)width;

		cap = w[0] > over + MIN_KEY ? w[0] - over : MIN_KEY;
		if (cap < dispw(heads[0]))
			cap = dispw(heads[0]);
		if (cap > w[0])
			cap = w[0];
		/* narrowing only pays when the table then fits in one part,
		 * or when even one group of columns beside the full names
		 * would be too wide; otherwise keep every name on its row and
		 * split the table instead */
		if (keyw - (w[0] - cap) + allg > (size_t)width &&
		    keyw + maxg <= (size_t)width)
			cap = w[0];
		keyw -= w[0] - cap;
	}
	/* still too wide beside one group: cut the other key columns */
	keys = cut_long_keys(t, cells, heads, w, nshow, &keyw, maxg, width,
			     &ntag);
	if (keys) {
		tmp = legend ? kb_xasprintf("%s; %s", legend, keys) : keys;
		if (legend) {
			free(legend);
			free(keys);
		}
		legend = tmp;
	}

	/* print as many groups per part as fit in width */
	for (from = nkey; from < t->ncols || from == nkey; from = to) {
		size_t used = keyw;

		to = from;
		while (to < t->ncols) {
			size_t g = to;

			gw = 0;
			while (g < t->ncols && t->cols[g].group ==
			       t->cols[to].group)
				gw += w[g++] + GAP;
			if (to > from && used + gw > (size_t)width)
				break;
			used += gw;
			to = g;
		}
		if (from > nkey)
			fputc('\n', out);
		write_part(out, t, cells, heads, w, nshow, from, to, cap,
			   width);
		if (to >= t->ncols)
			break;
	}

	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++)
			free(cells[r][c]);
		free(cells[r]);
	}
	for (c = 0; c < t->ncols; c++)
		free(heads[c]);
	free(cells);
	free(heads);
	free(w);
	if (legend) {
		fputc('\n', out);
		kb_text_wrap(out, "", legend, 4, width);
		free(legend);
	}
notes:
	/* a table of notes alone (kb_report_job_note()): the blank line
	 * before it is the report's */
	if (t->nnotes && (t->title[0] || t->ncols))
		fputc('\n', out);
	for (i = 0; i < t->nnotes; i++)
		kb_text_wrap(out, "", t->notes[i], 4, width);
	return 0;
}

/* The runs of job j left out of the statistics and those flagged. */
static void text_run_notes(FILE *out, const struct kb_report_job *j,
			   int width)
{
	size_t k;

	if (j->nexcluded) {
		fprintf(out, "%zu run(s) left out of the statistics:\n",
			j->nexcluded);
		for (k = 0; k < j->nexcluded; k++)
			kb_text_wrap(out, "  ", j->excluded[k], 4, width);
	}
	if (j->nflagged) {
		fprintf(out, "%zu run(s) flagged (counted):\n", j->nflagged);
		for (k = 0; k < j->nflagged; k++)
			kb_text_wrap(out, "  ", j->flagged[k], 4, width);
	}
}

int report_text(FILE *out, const struct kb_report *r, int width)
{
	const struct kb_report_job *j;
	size_t i, k, keyw = 0;
	char *prefix, *name;

	kb_text_wrap(out, "", r->title, 4, width);
	for (i = 0; i < r->nheader; i++)
		if (strlen(r->keys[i]) > keyw)
			keyw = strlen(r->keys[i]);
	for (i = 0; i < r->nheader; i++) {
		prefix = kb_xasprintf("%s:%*s", r->keys[i],
				      (int)(keyw + 2 - strlen(r->keys[i])), "");
		kb_text_wrap(out, prefix, r->vals[i], (int)keyw + 3, width);
		free(prefix);
	}
	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		for (k = 0; k < j->ntables; k++) {
			fputc('\n', out);
			kb_table_write_text(out, j->tables[k], width);
			if (!k)	/* under the job's first table */
				text_run_notes(out, j, width);
			if (k || !j->nfailures)
				continue;
			/* failures under the job's first table */
			if (j->nfailures == 1) {
				prefix = kb_xasprintf("1 run(s) failed: ");
				kb_text_wrap(out, prefix, j->failures[0], 4,
					     width);
				free(prefix);
				continue;
			}
			fprintf(out, "%zu run(s) failed:\n", j->nfailures);
			for (size_t f = 0; f < j->nfailures; f++)
				kb_text_wrap(out, "  ", j->failures[f], 4,
					     width);
		}
		name = ascii(j->name);
		if (!j->ntables && (j->nfailures || j->nexcluded ||
				    j->nflagged)) {
			fputc('\n', out);
			if (j->nexcluded || j->nflagged)
				fprintf(out, "%s:\n", name);
			text_run_notes(out, j, width);
		}
		if (!j->ntables && j->nfailures) {
			fprintf(out, "%s: %zu run(s) failed:\n", name,
				j->nfailures);
			for (k = 0; k < j->nfailures; k++)
				kb_text_wrap(out, "  ", j->failures[k], 4,
					     width);
		}
		free(name);
	}
	return ferror(out) ? -EIO : 0;
}
