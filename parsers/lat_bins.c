/* parsers/lat_bins.c - latency bins: merging, and one fio output file's
 * bins through parsers/fio_json.c.  See lat_bins.h. */
#include "parsers/lat_bins.h"
#include "parsers/fio_json.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* fio's directions (fio_json.h: "read"/"write"/"trim"/"mixed"). */
static const char *const directions[] = { "read", "write", "trim", "mixed" };

void kb_lat_bins_add(struct kb_lat_bins *to, const struct kb_lat_bin *add,
		     size_t n)
{
	struct kb_lat_bin *m;
	size_t i = 0, j = 0, k = 0;

	if (!n)
		return;
	/* a merge of two sorted lists, equal values summed */
	m = kb_xcalloc(to->n + n, sizeof(*m));
	while (i < to->n || j < n) {
		struct kb_lat_bin b;

		if (j == n || (i < to->n &&
			       to->bin[i].value_ns <= add[j].value_ns))
			b = to->bin[i++];
		else
			b = add[j++];
		if (!(b.count > 0))
			continue;
		if (k && m[k - 1].value_ns == b.value_ns)
			m[k - 1].count += b.count;
		else
			m[k++] = b;
	}
	free(to->bin);
	to->bin = m;
	to->n = k;
}

double kb_lat_bins_total(const struct kb_lat_bins *b)
{
	double total = 0;
	size_t i;

	for (i = 0; i < b->n; i++)
		total += b->bin[i].count;
	return total;
}

void kb_lat_bins_free(struct kb_lat_bins *b)
{
	free(b->bin);
	b->bin = NULL;
	b->n = 0;
}

int fio_lat_bins_file(const char *path, const char *direction,
		      enum kb_lat_kind kind, struct kb_lat_bins *out,
		      char *err, size_t errlen)
{
	struct fio_parse_opts o = { .bins_out = out,
				    .bins_direction = direction,
				    .bins_kind = kind };
	json_t *res;
	size_t i;

	kb_lat_bins_free(out);
	for (i = 0; i < sizeof(directions) / sizeof(directions[0]); i++)
		if (!strcmp(direction, directions[i]))
			break;
	if (i == sizeof(directions) / sizeof(directions[0])) {
		kb_fmt(err, errlen, "%s: '%s' is not a direction of fio's "
		       "(expected read, write, trim or mixed)", path,
		       direction);
		return -EINVAL;
	}
	if (!kb_exists(path)) {
		kb_fmt(err, errlen, "%s: no such file", path);
		return -ENOENT;
	}
	res = fio_parse_file_opts(path, &o, err, errlen);
	if (!res) {
		kb_lat_bins_free(out);
		return -EBADMSG;
	}
	json_decref(res);
	return 0;
}
