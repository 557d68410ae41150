/* parsers/run_perf.c - see run_perf.h. */
#include "parsers/run_perf.h"
#include "parsers/perf_report.h"
#include "parsers/perf_stat.h"
#include "parsers/tasks.h"
#include "lib/decompress.h"
#include "lib/file.h"
#include "parsers/json_file.h"

#include <stdlib.h>
#include <string.h>

static char *load(const char *dir, const char *name)
{
	char *path = kb_path_join(dir, name), *buf = NULL;

	if (kb_read_file(path, &buf, NULL, 1) < 0)
		buf = NULL;
	free(path);
	return buf;
}

/* The run's perf report: perf_report.txt.zst (runner/collect_profile.c
 * keeps it compressed, lib/decompress.h), else a plain perf_report.txt
 * (campaigns of older kbench).  *name: the file's name, for messages. */
static char *load_report(const char *dir, const char **name)
{
	char *path = kb_path_join(dir, "perf_report.txt.zst"), *buf = NULL;

	*name = "perf_report.txt.zst";
	if (kb_exists(path)) {
		if (kb_decompress_file(path, &buf, NULL) < 0)
			buf = NULL;
		free(path);
		return buf;
	}
	free(path);
	*name = "perf_report.txt";
	return load(dir, "perf_report.txt");
}

static void warn(json_t *warnings, char *msg)
{
	json_array_append_new(warnings, json_string(msg));
	free(msg);
}

/* "cycles:pp" and "cycles" name the same event */
static int same_event(const char *a, const char *b)
{
	size_t la = strcspn(a, ":"), lb = strcspn(b, ":");

	return la == lb && !strncmp(a, b, la);
}

static void profile_metrics(const char *dir, json_t *metrics,
			    json_t *warnings, json_t *flags)
{
	char *pjpath = kb_path_join(dir, "profile.json");
	json_t *info = kb_exists(pjpath) ? kb_json_load(pjpath) : NULL, *e;
	char *report = NULL, *symtext = NULL;
	struct kb_sym_groups gs = { 0 };
	struct kb_profile prof = { 0 };
	int have_prof = 0;
	const char *rname;
	size_t i, k;

	free(pjpath);
	if (!info)
		return;
	symtext = load(dir, "symbols.conf");
	if (!symtext || symgroups_parse("symbols.conf", symtext, &gs))
		warn(warnings, kb_xasprintf("profile: no usable symbols.conf "
			"in %s: group shares n/a", dir));
	report = load_report(dir, &rname);
	if (report && perf_report_parse(rname, report, "cycles",
					&prof) == 0)
		have_prof = 1;
	if (have_prof) {
		/* perf report's own warnings about losses go to stderr */
		char *rerr = load(dir, "perf_report.stderr");

		if (rerr)
			perf_report_scan_lost(rerr, &prof);
		free(rerr);
		perf_report_lost(&prof, metrics, warnings, flags);
	}
	if (have_prof && prof.kptr_warning)
		warn(warnings, kb_xstrdup("profile: perf warned that kernel "
			"address maps are restricted (kptr_restrict)"));
	json_array_foreach(json_object_get(info, "events"), i, e) {
		const char *role = json_string_value(json_object_get(e, "role"));
		const char *ev = json_string_value(json_object_get(e, "event"));
		const char *note = json_string_value(json_object_get(e, "note"));

		if (!role)
			continue;
		if (note)
			warn(warnings, kb_xasprintf("profile: %s: %s%s", role,
				note, ev ? "" : "; its rows are n/a"));
		if (!ev)
			continue;
		for (k = 0; have_prof && k < prof.nev; k++)
			if (same_event(prof.ev[k].event, ev))
				break;
		if (!have_prof || k == prof.nev) {
			warn(warnings, kb_xasprintf("profile: no %s samples in "
				"%s (see perf_record.log); "
				"profile.%s.* n/a", ev, rname, role));
			continue;
		}
		perf_report_metrics(&prof.ev[k], role, &gs, metrics, warnings);
	}
	perf_report_free(&prof);
	symgroups_free(&gs);
	free(report);
	free(symtext);
	json_decref(info);
}

void run_dir_perf(const char *dir, const json_t *run, json_t *metrics,
		  json_t *warnings, json_t *flags)
{
	char *csv = load(dir, "perf_counters.csv");
	char *before, *after, *groups;
	json_t *u, *s, *el;

	if (csv) {
		struct kb_perf_stat *st = kb_xcalloc(1, sizeof(*st));

		if (perf_stat_parse("perf_counters.csv", csv, st) == 0)
			perf_stat_metrics(st, metrics, warnings);
		free(st);
		free(csv);
	}
	profile_metrics(dir, metrics, warnings, flags);

	before = load(dir, "tasks.before");
	after = load(dir, "tasks.after");
	groups = load(dir, "tasks.groups");
	u = json_object_get(run, "user_s");
	s = json_object_get(run, "sys_s");
	el = json_object_get(run, "elapsed_s");
	if (before && after && json_is_number(el))
		tasks_cpu_metrics("tasks", before, after, groups,
				  json_number_value(el), "fio",
				  json_is_number(u) && json_is_number(s) ?
				  json_number_value(u) + json_number_value(s) :
				  0, metrics);
	free(before);
	free(after);
	free(groups);
}
