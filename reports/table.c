/* reports/table.c - the report model (reports/table.h): tables of
 * cells with their notes, grouped per job under a report header (their
 * structures and kb_report_free(): results/report_tables.h).
 * reports/builder.c fills it from a results model, reports/render.c
 * hands it to a renderer (text.c, markdown.c). */
#include "reports/table.h"
#include "lib/err.h"
#include "lib/file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the table ---------------------------------------------------- */

struct kb_table *kb_table_new(const char *title)
{
	struct kb_table *t = kb_xcalloc(1, sizeof(*t));

	t->title = kb_xstrdup(title ? title : "");
	return t;
}

void kb_table_add_col(struct kb_table *t, const char *head, int right,
		      int group)
{
	struct kb_col *c;

	t->cols = kb_xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	c = &t->cols[t->ncols++];
	c->head = kb_xstrdup(head);
	c->right = right;
	c->group = group;
}

size_t kb_table_add_row(struct kb_table *t, int group_start)
{
	struct kb_row *r;
	size_t i;

	t->rows = kb_xrealloc(t->rows, (t->nrows + 1) * sizeof(*t->rows));
	r = &t->rows[t->nrows];
	r->cells = kb_xcalloc(t->ncols, sizeof(*r->cells));
	r->strong = kb_xcalloc(t->ncols + 1, sizeof(*r->strong));
	for (i = 0; i < t->ncols; i++)
		r->cells[i] = kb_xstrdup("");
	r->group_start = group_start;
	return t->nrows++;
}

void kb_table_set(struct kb_table *t, size_t row, size_t col,
		  const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (row >= t->nrows || col >= t->ncols)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0) {
		kb_error("out of memory formatting a table cell");
		abort();
	}
	va_end(ap);
	free(t->rows[row].cells[col]);
	t->rows[row].cells[col] = s;
}

void kb_table_set_strong(struct kb_table *t, size_t row, size_t col)
{
	if (row < t->nrows && col < t->ncols)
		t->rows[row].strong[col] = 1;
}

static void add_note_v(struct kb_table *t, const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0) {
		kb_error("out of memory formatting a table note");
		abort();
	}
	t->notes = kb_xrealloc(t->notes, (t->nnotes + 1) * sizeof(*t->notes));
	t->notes[t->nnotes++] = s;
}

void kb_table_add_note(struct kb_table *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note_v(t, fmt, ap);
	va_end(ap);
}

void kb_report_job_add(struct kb_report_job *j, struct kb_table *t)
{
	if (!t)
		return;
	j->tables = kb_xrealloc(j->tables, (j->ntables + 1) *
				sizeof(*j->tables));
	j->tables[j->ntables++] = t;
}

void kb_report_job_note(struct kb_report_job *j, const char *fmt, ...)
{
	struct kb_table *t = kb_table_new(NULL);
	va_list ap;

	va_start(ap, fmt);
	add_note_v(t, fmt, ap);
	va_end(ap);
	kb_report_job_add(j, t);
}
