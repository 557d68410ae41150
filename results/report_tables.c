/* results/report_tables.c - the tables a report holds: their memory and
 * their JSON (see report_tables.h). */
#include "results/report_tables.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>

void kb_table_free(struct kb_table *t)
{
	size_t i, j;

	if (!t)
		return;
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < t->ncols; j++)
			free(t->rows[i].cells[j]);
		free(t->rows[i].cells);
		free(t->rows[i].strong);
	}
	for (j = 0; j < t->ncols; j++)
		free(t->cols[j].head);
	for (i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->rows);
	free(t->cols);
	free(t->notes);
	free(t->title);
	free(t);
}

void kb_report_free(struct kb_report *r)
{
	size_t i, k;

	if (!r)
		return;
	for (i = 0; i < r->nheader; i++) {
		free(r->keys[i]);
		free(r->vals[i]);
	}
	for (i = 0; i < r->njobs; i++) {
		for (k = 0; k < r->jobs[i].ntables; k++)
			kb_table_free(r->jobs[i].tables[k]);
		for (k = 0; k < r->jobs[i].nfailures; k++)
			free(r->jobs[i].failures[k]);
		for (k = 0; k < r->jobs[i].nexcluded; k++)
			free(r->jobs[i].excluded[k]);
		for (k = 0; k < r->jobs[i].nflagged; k++)
			free(r->jobs[i].flagged[k]);
		free(r->jobs[i].tables);
		free(r->jobs[i].failures);
		free(r->jobs[i].excluded);
		free(r->jobs[i].flagged);
		free(r->jobs[i].name);
	}
	free(r->jobs);
	free(r->keys);
	free(r->vals);
	free(r->title);
	free(r);
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

int results_report_tables_json(FILE *out, const struct kb_report *r)
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
	if (kb_json_dumpf_shown(doc, out, JSON_INDENT(2)) ||
	    fputc('\n', out) == EOF)
		ret = -EIO;
	json_decref(doc);
	return ret;
}
