/* results/records.c - see records.h. */
#include "results/records.h"
#include "results/json.h"
#include "results/paths.h"
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *boot_id(void)
{
	char *t = NULL;

	if (kb_read_file("/proc/sys/kernel/random/boot_id", &t, NULL, 1))
		return kb_xstrdup("unknown");
	t[strcspn(t, "\n")] = '\0';
	return t;
}

static char *machine_path(void)
{
	const char *base = getenv("KBENCH_RUN_DIR");

	return kb_xasprintf("%s/kvm-probe.json", base && *base ? base :
			    "/run/kbench");
}

/* usable/reason of an object holding them: 1 when well-formed. */
static int probe_of(json_t *o, int *usable, char **reason)
{
	if (!json_is_boolean(json_object_get(o, "usable")))
		return 0;
	*usable = json_is_true(json_object_get(o, "usable"));
	*reason = kb_xstrdup(json_string_value(json_object_get(o, "reason")) ?:
			     "recorded");
	return 1;
}

int records_kvm_probe_campaign(const char *dir, int *usable, char **reason)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_exists(path) ? kb_json_load(path) : NULL;
	int found;

	found = probe_of(json_object_get(json_object_get(json_object_get(cj,
		"environment"), "vm"), "kvm_probe"), usable, reason);
	json_decref(cj);
	free(path);
	return found;
}

int records_kvm_probe_campaign_save(const char *dir, int usable,
				    const char *reason)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *vm;
	int ret = -EIO;

	if (cj) {
		vm = kb_json_object_member(kb_json_object_member(cj,
					   "environment"), "vm");
		json_object_set_new(vm, "kvm_probe", json_pack("{s:b, s:s}",
			"usable", usable, "reason", reason));
		ret = kb_json_write_atomic(path, cj);
	}
	json_decref(cj);
	free(path);
	return ret;
}

int records_kvm_probe_machine(int *usable, char **reason)
{
	char *mp = machine_path(), *id = boot_id();
	json_t *m = kb_exists(mp) ? kb_json_load(mp) : NULL;
	int found = 0;

	if (!strcmp(json_string_value(json_object_get(m, "boot_id")) ?: "", id))
		found = probe_of(m, usable, reason);
	json_decref(m);
	free(mp);
	free(id);
	return found;
}

void records_kvm_probe_machine_save(int usable, const char *reason)
{
	char *mp = machine_path(), *dir = kb_xstrdup(mp), *id = boot_id();
	json_t *m;

	*strrchr(dir, '/') = '\0';
	m = json_pack("{s:i, s:s, s:b, s:s}", "schema_version", KB_SCHEMA_VERSION,
		      "boot_id", id, "usable", usable, "reason", reason);
	if (kb_mkdir_p(dir) || kb_json_write_atomic(mp, m))
		kb_warn("cannot write %s; the next campaign probes KVM again",
			mp);
	json_decref(m);
	free(id);
	free(dir);
	free(mp);
}

int records_boot_timing_save(const char *boot_dir, const char *accel,
			     double wall_s, size_t runs,
			     double guest_started_s)
{
	char *tp = kb_path_join(boot_dir, "timing.json");
	json_t *tj = json_pack("{s:s, s:f, s:I, s:o?}", "accel", accel,
		"wall_s", wall_s, "runs", (json_int_t)runs, "guest_started_s",
		guest_started_s >= 0 ? json_real(guest_started_s) : NULL);
	int ret = kb_json_write_atomic(tp, tj);

	json_decref(tj);
	free(tp);
	return ret;
}

double records_boot_overhead_mean(const char *dir, double per_run_s,
				  size_t *n)
{
	char *bdir = kb_path_join(dir, "boots");
	DIR *d = opendir(bdir);
	struct dirent *e;
	double sum = 0;

	*n = 0;
	while (d && (e = readdir(d))) {
		char *tp;
		json_t *t, *w, *r;

		if (e->d_name[0] == '.')
			continue;
		tp = kb_xasprintf("%s/%s/timing.json", bdir, e->d_name);
		t = kb_exists(tp) ? kb_json_load(tp) : NULL;
		w = json_object_get(t, "wall_s");
		r = json_object_get(t, "runs");
		if (json_is_number(w) && json_is_integer(r)) {
			double extra = json_number_value(w) -
				       json_integer_value(r) * per_run_s;

			sum += extra > 0 ? extra : 0;
			(*n)++;
		}
		json_decref(t);
		free(tp);
	}
	if (d)
		closedir(d);
	free(bdir);
	return *n ? sum / *n : 0;
}

static char *tool_versions_path(void)
{
	const char *base = getenv("KBENCH_RUN_DIR");

	return kb_xasprintf("%s/tool-versions.json", base && *base ? base :
			    "/run/kbench");
}

int records_tool_version_get(const char *key, char **version)
{
	char *path = tool_versions_path();
	json_t *j = kb_exists(path) ? json_load_file(path, 0, NULL) : NULL;
	const char *v = json_string_value(json_object_get(j, key));

	if (v)
		*version = kb_xstrdup(v);
	json_decref(j);
	free(path);
	return v != NULL;
}

void records_tool_version_put(const char *key, const char *version)
{
	char *path = tool_versions_path(), *dir = kb_xstrdup(path);
	json_t *j = kb_exists(path) ? json_load_file(path, 0, NULL) : NULL;

	if (!json_is_object(j)) {
		json_decref(j);
		j = json_object();
	}
	json_object_set_new(j, key, json_string(version));
	*strrchr(dir, '/') = '\0';
	if (!kb_mkdir_p(dir))
		kb_json_write_atomic(path, j);
	json_decref(j);
	free(dir);
	free(path);
}
