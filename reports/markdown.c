/* reports/markdown.c - the report as GitHub-flavoured markdown: the same
 * content as the text report, one heading per job, GitHub tables
 * (https://github.github.com/gfm/#tables-extension-).  Markdown tables
 * cannot hold blank lines, so the groups of the text report are only
 * kept as row order. */
#include "reports/table.h"

#include <errno.h>
#include <string.h>

/* Write s with the characters markdown would interpret escaped. */
static void md_put(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', out);
		if ((unsigned char)*s < 0x20)
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}

static void md_table(FILE *out, const struct kb_table *t)
{
	size_t r, c, i;

	if (t->title[0]) {
		fputs("**", out);
		md_put(out, t->title);
		fputs("**\n\n", out);
	}
	if (t->ncols) {
		fputc('|', out);
		for (c = 0; c < t->ncols; c++) {
			fputc(' ', out);
			md_put(out, t->cols[c].head);
			fputs(" |", out);
		}
		fputs("\n|", out);
		for (c = 0; c < t->ncols; c++)
			fputs(t->cols[c].right ? " --: |" : " :-- |", out);
		fputc('\n', out);
		for (r = 0; r < t->nrows; r++) {
			fputc('|', out);
			for (c = 0; c < t->ncols; c++) {
				/* significant cells in bold */
				int b = t->rows[r].strong &&
					t->rows[r].strong[c] &&
					t->rows[r].cells[c][0];

				fputs(b ? " **" : " ", out);
				md_put(out, t->rows[r].cells[c]);
				fputs(b ? "** |" : " |", out);
			}
			fputc('\n', out);
		}
	}
	for (i = 0; i < t->nnotes; i++) {
		fputc('\n', out);
		md_put(out, t->notes[i]);
		fputc('\n', out);
	}
}

int report_markdown(FILE *out, const struct kb_report *r)
{
	const struct kb_report_job *j;
	size_t i, k;

	fputs("# ", out);
	md_put(out, r->title);
	fputs("\n\n", out);
	for (i = 0; i < r->nheader; i++) {
		fputs("- ", out);
		md_put(out, r->keys[i]);
		fputs(": ", out);
		md_put(out, r->vals[i]);
		fputc('\n', out);
	}
	for (i = 0; i < r->njobs; i++) {
		j = &r->jobs[i];
		fputs("\n## ", out);
		md_put(out, j->name);
		fputc('\n', out);
		for (k = 0; k < j->ntables; k++) {
			fputc('\n', out);
			md_table(out, j->tables[k]);
			if (k || !j->nfailures)
				continue;
			fprintf(out, "\n%zu run(s) failed:\n\n", j->nfailures);
			for (size_t f = 0; f < j->nfailures; f++) {
				fputs("- ", out);
				md_put(out, j->failures[f]);
				fputc('\n', out);
			}
		}
		if (!j->ntables && j->nfailures) {
			fprintf(out, "\n%zu run(s) failed:\n\n", j->nfailures);
			for (k = 0; k < j->nfailures; k++) {
				fputs("- ", out);
				md_put(out, j->failures[k]);
				fputc('\n', out);
			}
		}
	}
	return ferror(out) ? -EIO : 0;
}
