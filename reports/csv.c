/* reports/csv.c - the report model as CSV and as JSON tables.
 *
 * CSV follows RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180): CRLF
 * line ends, every field in double quotes with inner quotes doubled, so
 * commas in configuration ids ("stock,NM=0") and newlines stay inside
 * their field.  The report holds several tables; each becomes a block of
 * records in the same file: one record with "job", the job name, "table"
 * and the title; the header record (the column heads); the data records;
 * then an empty line.  Cells are the text of the other renderers
 * ("n/a" for a value not measured); significance marks stay in the text
 * ("* -0.42%*").  Values stay UTF-8 ("±").
 *
 * JSON tables: {"title", "header": {KEY: VALUE}, "jobs": [{"name",
 * "tables": [{"title", "columns": [{"head", "align"}], "rows": [{"cells":
 * [...], "significant": [INDEX...]}], "notes": [...]}], "failures":
 * [...], "excluded": [...] (runs left out of the statistics), "flagged":
 * [...] (counted runs with flags)}]}, for `kbench report --format json
 * --layout NAME`.
 */
#include "reports/table.h"

#include <errno.h>
#include <string.h>

static void csv_field(FILE *out, const char *s, int last)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
	fputs(last ? "\r\n" : ",", out);
}

int report_csv(FILE *out, const struct kb_report *r)
{
	const struct kb_table *t;
	size_t i, k, row, c;

	for (i = 0; i < r->njobs; i++) {
		for (k = 0; k < r->jobs[i].ntables; k++) {
			t = r->jobs[i].tables[k];
			csv_field(out, "job", 0);
			csv_field(out, r->jobs[i].name, 0);
			csv_field(out, "table", 0);
			csv_field(out, t->title, 1);
			for (c = 0; c < t->ncols; c++)
				csv_field(out, t->cols[c].head,
					  c + 1 == t->ncols);
			for (row = 0; row < t->nrows; row++)
				for (c = 0; c < t->ncols; c++)
					csv_field(out, t->rows[row].cells[c],
						  c + 1 == t->ncols);
			fputs("\r\n", out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

static json_t *table_json(const struct kb_table *t)
{
	json_t *o = json_object(), *cols = json_array(), *rows = json_array();
	json_t *notes = json_array(), *cells, *sig, *row;
	size_t r, c;

	json_object_set_new(o, "title", json_string(t->title));
	for (c = 0; c < t->ncols; c++)
		json_array_append_new(cols, json_pack("{s:s, s:s}", "head",
				t->cols[c].head, "align",
				t->cols[c].right ? "right" : "left"));
	for (r = 0; r < t->nrows; r++) {
		cells = json_array();
		sig = json_array();
		for (c = 0; c < t->ncols; c++) {
			json_array_append_new(cells,
					json_string(t->rows[r].cells[c]));
			if (t->rows[r].strong[c])
				json_array_append_new(sig, json_integer(
						      (json_int_t)c));
		}
		row = json_object();
		json_object_set_new(row, "cells", cells);
		json_object_set_new(row, "significant", sig);
		json_array_append_new(rows, row);
	}
	for (c = 0; c < t->nnotes; c++)
		json_array_append_new(notes, json_string(t->notes[c]));
	json_object_set_new(o, "columns", cols);
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "notes", notes);
	return o;
}

int report_tables_json(FILE *out, const struct kb_report *r)
{
	json_t *doc = json_object(), *hdr = json_object(), *jobs = json_array();
	json_t *job, *tables, *fails;
	size_t i, k;
	int ret = 0;

	json_object_set_new(doc, "title", json_string(r->title));
	for (i = 0; i < r->nheader; i++)
		json_object_set_new(hdr, r->keys[i], json_string(r->vals[i]));
	for (i = 0; i < r->njobs; i++) {
		tables = json_array();
		fails = json_array();
		for (k = 0; k < r->jobs[i].ntables; k++)
			json_array_append_new(tables,
					table_json(r->jobs[i].tables[k]));
		for (k = 0; k < r->jobs[i].nfailures; k++)
			json_array_append_new(fails,
					json_string(r->jobs[i].failures[k]));
		job = json_object();
		json_object_set_new(job, "name", json_string(r->jobs[i].name));
		json_object_set_new(job, "tables", tables);
		json_object_set_new(job, "failures", fails);
		fails = json_array();
		for (k = 0; k < r->jobs[i].nexcluded; k++)
			json_array_append_new(fails,
					json_string(r->jobs[i].excluded[k]));
		json_object_set_new(job, "excluded", fails);
		fails = json_array();
		for (k = 0; k < r->jobs[i].nflagged; k++)
			json_array_append_new(fails,
					json_string(r->jobs[i].flagged[k]));
		json_object_set_new(job, "flagged", fails);
		json_array_append_new(jobs, job);
	}
	json_object_set_new(doc, "header", hdr);
	json_object_set_new(doc, "jobs", jobs);
	if (json_dumpf(doc, out, JSON_INDENT(2)) || fputc('\n', out) == EOF)
		ret = -EIO;
	json_decref(doc);
	return ret;
}
