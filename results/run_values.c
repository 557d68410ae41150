/* results/run_values.c - see run_values.h. */
#include "results/run_values.h"
#include "lib/err.h"
#include "lib/file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct kb_run_values *kb_run_values__new(void)
{
	struct kb_run_values *v = kb_xcalloc(1, sizeof(*v));

	v->index = json_object();
	return v;
}

/* The column of name[0..len), or (size_t)-1; runs mostly list their
 * metrics in the same order, so hint (the column after the previous
 * key's) is tried before the hash. */
static size_t find(const struct kb_run_values *v, const char *name,
		   size_t len, size_t hint)
{
	json_t *j;

	if (hint < v->nmetrics && !strncmp(v->names[hint], name, len) &&
	    !v->names[hint][len])
		return hint;
	j = json_object_getn(v->index, name, len);
	return j ? (size_t)json_integer_value(j) : (size_t)-1;
}

/* The column of name[0..len), created (NAN in every row) when new. */
static size_t column(struct kb_run_values *v, const char *name, size_t len,
		     size_t hint)
{
	size_t k = find(v, name, len, hint), r;

	if (k != (size_t)-1)
		return k;
	if (v->nmetrics == v->capm) {
		v->capm = v->capm ? v->capm * 2 : 64;
		v->names = kb_xrealloc(v->names, v->capm * sizeof(*v->names));
		v->cols = kb_xrealloc(v->cols, v->capm * sizeof(*v->cols));
	}
	k = v->nmetrics++;
	v->names[k] = kb_xmalloc(len + 1);
	memcpy(v->names[k], name, len);
	v->names[k][len] = '\0';
	v->cols[k] = kb_xmalloc((v->cap ? v->cap : 1) * sizeof(double));
	for (r = 0; r < v->cap; r++)
		v->cols[k][r] = NAN;
	json_object_setn_new(v->index, name, len, json_integer((json_int_t)k));
	return k;
}

void kb_run_values__reserve(struct kb_run_values *v, size_t rows)
{
	if (!v->nrows && !v->nmetrics && rows > v->cap)
		v->cap = rows;
}

size_t kb_run_values__begin_row(struct kb_run_values *v)
{
	if (v->nrows == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 1024, i, k;

		for (k = 0; k < v->nmetrics; k++) {
			v->cols[k] = kb_xrealloc(v->cols[k],
						 cap * sizeof(double));
			for (i = v->cap; i < cap; i++)
				v->cols[k][i] = NAN;
		}
		v->cap = cap;
	}
	v->row_nmetrics = v->nmetrics;
	v->hint = 0;
	return v->nrows++;
}

void kb_run_values__abort_row(struct kb_run_values *v)
{
	size_t r = v->nrows - 1, k;

	if (!v->nrows)
		return;
	for (k = 0; k < v->row_nmetrics; k++)
		v->cols[k][r] = NAN;
	/* the columns this row made: no other row has a number in them */
	for (k = v->row_nmetrics; k < v->nmetrics; k++) {
		json_object_del(v->index, v->names[k]);
		free(v->names[k]);
		free(v->cols[k]);
	}
	v->nmetrics = v->row_nmetrics;
	v->hint = 0;
}

int kb_run_values__sink_number(void *ctx, const char *key, size_t keylen,
			       double val)
{
	struct kb_run_values *v = ctx;
	size_t k = column(v, key, keylen, v->hint);

	if (!isnan(v->cols[k][v->nrows - 1]))
		return 1;	/* a repeated key */
	v->cols[k][v->nrows - 1] = val;
	v->hint = k + 1;
	return 0;
}

int kb_run_values__sink_has(void *ctx, const char *key, size_t keylen)
{
	const struct kb_run_values *v = ctx;
	size_t k = find(v, key, keylen, v->nmetrics);

	return k != (size_t)-1 && !isnan(v->cols[k][v->nrows - 1]);
}

json_t *kb_run_values__fill_row(struct kb_run_values *v, json_t *metrics)
{
	json_t *rest = json_object(), *val;
	const char *name;
	size_t r = v->nrows - 1, k;

	json_object_foreach(metrics, name, val) {
		if (!json_is_number(val)) {
			json_object_set(rest, name, val);
			continue;
		}
		k = column(v, name, strlen(name), v->hint);
		v->cols[k][r] = json_number_value(val);
		v->hint = k + 1;
	}
	return rest;
}

void kb_run_values__delete(struct kb_run_values *v)
{
	size_t k;

	if (!v)
		return;
	for (k = 0; k < v->nmetrics; k++) {
		free(v->names[k]);
		free(v->cols[k]);
	}
	free(v->names);
	free(v->cols);
	json_decref(v->index);
	free(v);
}
