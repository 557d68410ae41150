/* push/influx.c - InfluxDB line protocol from a campaign's typed points
 * (results/points.h; see influx.h for the layout and the format's
 * source). */
#include "push/influx.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int influx_precision(const char *name, int64_t *ns_per_unit)
{
	static const struct { const char *name; int64_t ns; } units[] = {
		{ "n", 1 }, { "ns", 1 }, { "u", 1000 }, { "us", 1000 },
		{ "ms", 1000000 }, { "s", 1000000000 },
	};
	size_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(name, units[i].name)) {
			*ns_per_unit = units[i].ns;
			return 0;
		}
	}
	if (!strcmp(name, "m") || !strcmp(name, "h"))
		return -ERANGE;
	return -EINVAL;
}

/* Write s escaping the characters in special with a backslash; newlines
 * (not allowed in line protocol) become blanks, escaped. */
static void put_escaped(FILE *out, const char *s, const char *special)
{
	for (; *s; s++) {
		char ch = (*s == '\n' || *s == '\r') ? ' ' : *s;

		if (strchr(special, ch))
			fputc('\\', out);
		fputc(ch, out);
	}
}

struct tag {
	const char *key;
	char *keybuf;	/* owned when the key was renamed */
	const char *value;
};

static int tag_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tag *)a)->key, ((const struct tag *)b)->key);
}

static int reserved_tag(const char *k)
{
	static const char *const names[] = { "campaign", "configuration",
		"variant", "release", "host", "time", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(k, names[i]))
			return 1;
	return 0;
}

/* One point, one line. */
static void put_point(FILE *out, const struct results_point *p, int64_t ts)
{
	struct tag tags[32];
	size_t ntags = 0, i;

	tags[ntags++] = (struct tag){ "campaign", NULL, p->campaign };
	tags[ntags++] = (struct tag){ "configuration", NULL, p->configuration };
	tags[ntags++] = (struct tag){ "variant", NULL, p->variant };
	tags[ntags++] = (struct tag){ "release", NULL, p->release };
	tags[ntags++] = (struct tag){ "host", NULL, p->host };
	for (i = 0; i < p->ntunables; i++) {
		const char *name = p->tunables[i].label;

		if (ntags == sizeof(tags) / sizeof(tags[0]))
			break;
		if (reserved_tag(name)) {
			char *kb = kb_xasprintf("tunable_%s", name);

			tags[ntags++] = (struct tag){ kb, kb,
						      p->tunables[i].value };
		} else {
			tags[ntags++] = (struct tag){ name, NULL,
						      p->tunables[i].value };
		}
	}
	/* sorted by key: what InfluxDB recommends (and does itself) */
	qsort(tags, ntags, sizeof(tags[0]), tag_cmp);

	put_escaped(out, p->job, ", ");
	for (i = 0; i < ntags; i++) {
		if (tags[i].value && *tags[i].value) {
			fputc(',', out);
			put_escaped(out, tags[i].key, ",= ");
			fputc('=', out);
			put_escaped(out, tags[i].value, ",= ");
		}
		free(tags[i].keybuf);
	}
	fputc(' ', out);
	fprintf(out, "iteration=%lldi", p->iteration);
	for (i = 0; i < p->nfields; i++) {
		fputc(',', out);
		put_escaped(out, p->fields[i].name, ",= ");
		/* %.17g: every double reads back bit-identical */
		fprintf(out, "=%.17g", p->fields[i].value);
	}
	fprintf(out, " %lld\n", (long long)ts);
}

int influx_format(FILE *out, const struct results_points *points,
		  int64_t ns_per_unit, size_t *npoints)
{
	size_t i;

	for (i = 0; i < points->n; i++)
		put_point(out, &points->v[i], points->v[i].start_unix_ns /
			  (ns_per_unit > 0 ? ns_per_unit : 1));
	if (npoints)
		*npoints = points->n;
	return ferror(out) ? -EIO : 0;
}
