/* push/influx.c - InfluxDB line protocol from a results model (see
 * influx.h for the layout and the format's source). */
#include "push/influx.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static const json_t *find_config(const json_t *results, const char *id)
{
	const json_t *k;
	size_t i;

	json_array_foreach(json_object_get(results, "configurations"), i, k)
		if (!strcmp(json_string_value(json_object_get(k, "id")) ?
			    json_string_value(json_object_get(k, "id")) : "", id))
			return k;
	return NULL;
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

/* One point; returns 1 when written, 0 when the run has nothing to write. */
static int put_point(FILE *out, const json_t *results, const json_t *run,
		     int64_t ns)
{
	const json_t *camp = json_object_get(results, "campaign");
	const json_t *env = json_object_get(camp, "environment");
	const char *cid = json_string_value(json_object_get(run, "configuration"));
	const char *job = json_string_value(json_object_get(run, "job"));
	const json_t *k = cid ? find_config(results, cid) : NULL;
	const json_t *metrics = json_object_get(run, "metrics"), *v, *tv;
	const char *name, *rel;
	struct tag tags[32];
	size_t ntags = 0, i, nfields = 0;

	if (!cid || !job)
		return 0;
	json_object_foreach((json_t *)metrics, name, v) {
		if (json_is_number(v) && isfinite(json_number_value(v)))
			nfields++;
	}
	if (!nfields)
		return 0;

	tags[ntags++] = (struct tag){ "campaign", NULL,
		json_string_value(json_object_get(camp, "name")) };
	tags[ntags++] = (struct tag){ "configuration", NULL, cid };
	tags[ntags++] = (struct tag){ "variant", NULL,
		json_string_value(json_object_get(k, "variant")) };
	rel = json_string_value(json_object_get(k, "release"));
	if (!rel)
		rel = json_string_value(json_object_get(env, "kernel_release"));
	tags[ntags++] = (struct tag){ "release", NULL, rel };
	tags[ntags++] = (struct tag){ "host", NULL,
		json_string_value(json_object_get(env, "hostname")) };
	json_object_foreach((json_t *)json_object_get(k, "tunables"), name, tv) {
		if (ntags == sizeof(tags) / sizeof(tags[0]))
			break;
		if (reserved_tag(name)) {
			char *kb = kb_xasprintf("tunable_%s", name);

			tags[ntags++] = (struct tag){ kb, kb,
						      json_string_value(tv) };
		} else {
			tags[ntags++] = (struct tag){ name, NULL,
						      json_string_value(tv) };
		}
	}
	/* sorted by key: what InfluxDB recommends (and does itself) */
	qsort(tags, ntags, sizeof(tags[0]), tag_cmp);

	put_escaped(out, job, ", ");
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
	fprintf(out, "iteration=%lldi",
		(long long)json_integer_value(json_object_get(run, "iteration")));
	json_object_foreach((json_t *)metrics, name, v) {
		double d;

		if (!json_is_number(v))
			continue;
		d = json_number_value(v);
		if (!isfinite(d))
			continue;
		fputc(',', out);
		put_escaped(out, name, ",= ");
		/* %.17g: every double reads back bit-identical */
		fprintf(out, "=%.17g", d);
	}
	fprintf(out, " %lld\n", (long long)ns);
	return 1;
}

int influx_format(FILE *out, const json_t *results, const json_t *times,
		  const char *only_key, int64_t ns_per_unit, size_t *npoints)
{
	const json_t *runs = json_object_get(results, "runs"), *run, *t;
	size_t i, n = 0;

	if (npoints)
		*npoints = 0;
	if (!json_is_array(runs)) {
		kb_error("results model has no \"runs\" array");
		return -EINVAL;
	}
	json_array_foreach(runs, i, run) {
		const char *status = json_string_value(json_object_get(run,
							"status"));
		const char *cid = json_string_value(json_object_get(run,
							"configuration"));
		const char *job = json_string_value(json_object_get(run, "job"));
		char *key;

		if (!status || strcmp(status, "ok") || !cid || !job ||
		    json_is_true(json_object_get(run, "warmup")))
			continue;
		key = kb_run_key(cid, job, (long long)json_integer_value(
				json_object_get(run, "iteration")));
		t = json_object_get(times, key);
		if ((!only_key || !strcmp(only_key, key)) && json_is_integer(t))
			n += put_point(out, results, run,
				       (int64_t)json_integer_value(t) /
				       (ns_per_unit > 0 ? ns_per_unit : 1));
		free(key);
	}
	if (npoints)
		*npoints = n;
	return ferror(out) ? -EIO : 0;
}
