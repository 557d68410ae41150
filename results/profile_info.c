/* results/profile_info.c - a run's profile.json (see profile_info.h). */
#include "results/profile_info.h"
#include "results/json.h"
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct kb_profile_event *profile_info_add_event(struct kb_profile_info *p,
						const char *role)
{
	struct kb_profile_event *e;

	p->events = kb_xrealloc(p->events,
				(p->nevents + 1) * sizeof(*p->events));
	e = &p->events[p->nevents++];
	memset(e, 0, sizeof(*e));
	e->role = kb_xstrdup(role);
	return e;
}

/* Set o's k to s, when s is not NULL. */
static void set_str(json_t *o, const char *k, const char *s)
{
	if (s)
		json_object_set_new(o, k, json_string(s));
}

static void set_int(json_t *o, const char *k, int has, int v)
{
	if (has)
		json_object_set_new(o, k, json_integer(v));
}

int profile_info_save(const char *path, const struct kb_profile_info *p)
{
	json_t *events = json_array(), *j;
	size_t i;
	int ret;

	for (i = 0; i < p->nevents; i++) {
		const struct kb_profile_event *e = &p->events[i];
		json_t *o = json_pack("{s:s}", "role", e->role);

		set_str(o, "requested", e->requested);
		set_str(o, "note", e->note);
		json_object_set_new(o, "event", e->event ?
				    json_string(e->event) : json_null());
		json_array_append_new(events, o);
	}
	j = json_pack("{s:o}", "events", events);
	set_int(j, "kptr_restrict", p->has_kptr_restrict, p->kptr_restrict);
	set_str(j, "symbols_missing", p->symbols_missing);
	set_str(j, "record_error", p->record_error);
	set_int(j, "record_exit_status", p->has_record_exit_status,
		p->record_exit_status);
	set_int(j, "report_exit_status", p->has_report_exit_status,
		p->report_exit_status);
	set_str(j, "perf_data", p->perf_data);
	ret = kb_json_write_atomic(path, j);
	json_decref(j);
	return ret;
}

static void get_int(json_t *o, const char *k, int *has, int *v)
{
	json_t *n = json_object_get(o, k);

	*has = json_is_integer(n);
	*v = *has ? (int)json_integer_value(n) : 0;
}

int profile_info_load(const char *path, struct kb_profile_info *p)
{
	json_t *j, *events, *o;
	size_t i;

	memset(p, 0, sizeof(*p));
	j = kb_json_load(path);
	if (!j)
		return -EINVAL;
	events = json_object_get(j, "events");
	if (!json_is_array(events)) {
		kb_error("%s: expected an \"events\" array", path);
		json_decref(j);
		return -EINVAL;
	}
	json_array_foreach(events, i, o) {
		struct kb_profile_event *e;
		const char *role = json_string_value(json_object_get(o,
								     "role"));

		if (!role) {
			kb_error("%s: events[%zu]: expected a \"role\" string",
			       path, i);
			json_decref(j);
			profile_info_free(p);
			return -EINVAL;
		}
		e = profile_info_add_event(p, role);
		e->requested = kb_jstrdup(o, "requested");
		e->event = kb_jstrdup(o, "event");
		e->note = kb_jstrdup(o, "note");
	}
	get_int(j, "kptr_restrict", &p->has_kptr_restrict, &p->kptr_restrict);
	p->symbols_missing = kb_jstrdup(j, "symbols_missing");
	p->record_error = kb_jstrdup(j, "record_error");
	get_int(j, "record_exit_status", &p->has_record_exit_status,
		&p->record_exit_status);
	get_int(j, "report_exit_status", &p->has_report_exit_status,
		&p->report_exit_status);
	p->perf_data = kb_jstrdup(j, "perf_data");
	json_decref(j);
	return 0;
}

void profile_info_free(struct kb_profile_info *p)
{
	size_t i;

	for (i = 0; i < p->nevents; i++) {
		free(p->events[i].role);
		free(p->events[i].requested);
		free(p->events[i].event);
		free(p->events[i].note);
	}
	free(p->events);
	free(p->symbols_missing);
	free(p->record_error);
	free(p->perf_data);
	memset(p, 0, sizeof(*p));
}
