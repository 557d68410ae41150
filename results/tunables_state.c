/* results/tunables_state.c - tunables.saved.json and the tunables
 * registry's records (see tunables_state.h). */
#include "results/tunables_state.h"
#include "results/json.h"
#include "parsers/json_file.h"
#include "lib/file.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void tunables_saved_add(struct kb_tunables_saved *s, const char *path,
			const char *value)
{
	s->paths = kb_xrealloc(s->paths, (s->n + 1) * sizeof(*s->paths));
	s->values = kb_xrealloc(s->values, (s->n + 1) * sizeof(*s->values));
	s->paths[s->n] = kb_xstrdup(path);
	s->values[s->n] = kb_xstrdup(value);
	s->n++;
}

int tunables_saved_load(const char *path, struct kb_tunables_saved *s)
{
	json_t *j = kb_json_load(path), *v;
	const char *p;

	memset(s, 0, sizeof(*s));
	if (!j)
		return -EINVAL;
	json_object_foreach(j, p, v)
		if (json_is_string(v))
			tunables_saved_add(s, p, json_string_value(v));
	json_decref(j);
	return 0;
}

int tunables_saved_save(const char *path, const struct kb_tunables_saved *s)
{
	json_t *j = json_object();
	size_t i;
	int ret;

	for (i = 0; i < s->n; i++)
		json_object_set_new(j, s->paths[i], json_string(s->values[i]));
	ret = kb_json_write_atomic(path, j);
	json_decref(j);
	return ret;
}

void tunables_saved_free(struct kb_tunables_saved *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->paths[i]);
		free(s->values[i]);
	}
	free(s->paths);
	free(s->values);
	memset(s, 0, sizeof(*s));
}

int tunable_record_load(const char *path, struct kb_tunable_record *r)
{
	json_t *j;

	memset(r, 0, sizeof(*r));
	if (!kb_exists(path))
		return -ENOENT;
	j = json_load_file(path, 0, NULL);
	if (!j)
		return -EINVAL;
	r->path = kb_jstrdup(j, "path");
	r->original = kb_jstrdup(j, "original");
	r->partner_original = kb_jstrdup(j, "partner_original");
	r->diskseq = kb_jstrdup(j, "diskseq");
	r->campaign = kb_jstrdup(j, "campaign");
	r->pid = (long)json_integer_value(json_object_get(j, "pid"));
	r->pid_start = (unsigned long long)json_integer_value(
		json_object_get(j, "pid_start"));
	json_decref(j);
	return 0;
}

int tunable_record_save(const char *path, const struct kb_tunable_record *r)
{
	json_t *j = json_pack("{s:s, s:s, s:s, s:I, s:I}", "path", r->path,
			      "original", r->original, "campaign",
			      r->campaign, "pid", (json_int_t)r->pid,
			      "pid_start", (json_int_t)r->pid_start);
	int ret;

	if (!j)
		return -EINVAL;
	if (r->partner_original)
		json_object_set_new(j, "partner_original",
				    json_string(r->partner_original));
	if (r->diskseq)
		json_object_set_new(j, "diskseq", json_string(r->diskseq));
	ret = kb_json_write_atomic(path, j);
	json_decref(j);
	return ret;
}

void tunable_record_free(struct kb_tunable_record *r)
{
	free(r->path);
	free(r->original);
	free(r->partner_original);
	free(r->diskseq);
	free(r->campaign);
	memset(r, 0, sizeof(*r));
}
