/* results/records.c - see records.h. */
#include "results/records.h"
#include "results/json.h"
#include "results/paths.h"
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
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
			     double guest_started_s, double first_run_s)
{
	char *tp = kb_path_join(boot_dir, "timing.json");
	json_t *tj = json_pack("{s:s, s:f, s:I, s:o?, s:o?}", "accel", accel,
		"wall_s", wall_s, "runs", (json_int_t)runs, "guest_started_s",
		guest_started_s >= 0 ? json_real(guest_started_s) : NULL,
		"first_run_s", first_run_s >= 0 ? json_real(first_run_s) : NULL);
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
		kb_json_write_atomic_opt(path, j, KB_WRITE_NOSYNC);
	json_decref(j);
	free(dir);
	free(path);
}

int records_vm_variant_save(const char *dir, const struct records_vm_variant *v,
			    const char *qemu_version, const char *timing_note)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *vm, *vars, *old, *vr;
	int ret = -EIO;

	if (!cj)
		goto out;
	vm = kb_json_object_member(kb_json_object_member(cj, "environment"),
				   "vm");
	/* one TCG boot makes the whole campaign's timings emulated */
	if (!v->kvm || !json_is_string(json_object_get(vm, "accel"))) {
		json_object_set_new(vm, "accel", json_string(v->kvm ? "kvm" :
							     "tcg"));
		json_object_set_new(vm, "accel_reason",
				    json_string(v->accel_reason));
	}
	if (timing_note &&
	    !strcmp(json_string_value(json_object_get(vm, "accel")), "tcg"))
		json_object_set_new(vm, "timing_note", json_string(timing_note));
	if (qemu_version)
		json_object_set_new(vm, "qemu_version",
				    json_string(qemu_version));
	vars = kb_json_object_member(vm, "variants");
	old = json_object_get(vars, v->name);
	vr = json_pack(
	"{s:s, s:s, s:s, s:i, s:i, s:s, s:s?, s:s?, s:s, s:s?, s:s?, s:s?, s:s?}",
		"accel", v->kvm ? "kvm" : "tcg", "accel_requested",
		v->accel_requested, "accel_reason", v->accel_reason,
		"cpus", (int)v->cpus, "memory_mib", (int)v->memory_mib,
		"kernel", v->kernel, "package", v->package,
		"package_version", v->package_version,
		"release", v->release ? v->release : "unknown",
		"build", v->build, "cmdline", v->cmdline,
		"disk", v->disk, "image", v->image);
	if (!vr)
		goto out;
	if (v->image_sha256)
		json_object_set_new(vr, "image_sha256",
				    json_string(v->image_sha256));
	if (v->nullblk_params)
		json_object_set_new(vr, "nullblk_params",
				    json_string(v->nullblk_params));
	/* what an earlier boot saw stays until this boot reports
	 * (json_object_set of an absent key sets nothing) */
	if (json_is_object(old)) {
		json_object_set(vr, "guest_release",
				json_object_get(old, "guest_release"));
		json_object_set(vr, "guest_proc_version",
				json_object_get(old, "guest_proc_version"));
	}
	json_object_set_new(vars, v->name, vr);
	ret = kb_json_write_atomic(path, cj);
out:
	json_decref(cj);
	free(path);
	return ret;
}

/* environment.vm.variants.VARIANT of a loaded campaign.json, or NULL */
static json_t *vm_variant(json_t *cj, const char *variant)
{
	return json_object_get(json_object_get(json_object_get(json_object_get(
		cj, "environment"), "vm"), "variants"), variant);
}

/* environment.vm.variants.VARIANT.key = val (stolen) */
static int vm_variant_set(const char *dir, const char *variant,
			  const char *key, json_t *val)
{
	char *path = kb_path_join(dir, "campaign.json");
	json_t *cj = kb_json_load(path), *vr = vm_variant(cj, variant);
	int ret = -ENOENT;

	if (json_is_object(vr) && val) {
		json_object_set_new(vr, key, val);
		val = NULL;
		ret = kb_json_write_atomic(path, cj);
	}
	json_decref(val);
	json_decref(cj);
	free(path);
	return ret;
}

int records_vm_variant_set(const char *dir, const char *variant,
			   const char *key, const char *value)
{
	return vm_variant_set(dir, variant, key, json_string(value));
}

int records_vm_variant_set_argv(const char *dir, const char *variant,
				const char *key, const char *const *v,
				size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return vm_variant_set(dir, variant, key, a);
}

char *records_vm_pinned_package(const char *dir, const char *variant,
				const char *kernel)
{
	char *path = kb_path_join(dir, "campaign.json"), *pkg = NULL;
	json_t *cj = kb_exists(path) ? kb_json_load(path) : NULL;
	json_t *vr = vm_variant(cj, variant);
	const char *p = json_string_value(json_object_get(vr, "package"));

	if (p && !strcmp(json_string_value(json_object_get(vr, "kernel")) ?: "",
			 kernel))
		pkg = kb_xstrdup(p);
	json_decref(cj);
	free(path);
	return pkg;
}

int records_run_guest_kernel(const char *metrics_json, char **release,
			     char **proc_version)
{
	json_t *m = kb_exists(metrics_json) ? kb_json_load(metrics_json) :
		    NULL;
	const char *rel = json_string_value(json_object_get(m, "guest_kernel"));
	const char *pv = json_string_value(json_object_get(m,
							"guest_proc_version"));

	*release = rel ? kb_xstrdup(rel) : NULL;
	*proc_version = rel && pv ? kb_xstrdup(pv) : NULL;
	json_decref(m);
	return rel != NULL;
}

/* ---- DIR/push-queue.json ---- */

#define PUSH_QUEUE_FILE "push-queue.json"

/* The "pending" array of the queue (new reference; empty when there is
 * no file), or NULL when the file is damaged (message printed). */
static json_t *push_queue_pending(const char *dir)
{
	char *path = kb_path_join(dir, PUSH_QUEUE_FILE);
	json_t *q = NULL, *pending = NULL;

	if (!kb_exists(path)) {
		pending = json_array();
		goto out;
	}
	q = kb_json_load(path);
	if (!q)
		goto out;
	pending = json_object_get(q, "pending");
	if (!json_is_array(pending)) {
		kb_error("%s: no \"pending\" array; the file is damaged "
			 "(fix it or remove it and run kbench push URL %s)",
			 path, dir);
		pending = NULL;
		goto out;
	}
	json_incref(pending);
out:
	json_decref(q);
	free(path);
	return pending;
}

static int push_queue_write(const char *dir, json_t *pending)
{
	char *path = kb_path_join(dir, PUSH_QUEUE_FILE);
	json_t *q;
	int ret;

	if (!json_array_size(pending)) {
		ret = unlink(path) < 0 && errno != ENOENT ? -errno : 0;
		if (ret)
			kb_error("cannot remove %s: %s", path, strerror(-ret));
		free(path);
		return ret;
	}
	q = json_pack("{s:i, s:O}", "schema_version", KB_SCHEMA_VERSION,
		      "pending", pending);
	ret = kb_json_write_atomic(path, q);
	json_decref(q);
	free(path);
	return ret;
}

/* The index of url's entry in pending, or -1. */
static long push_queue_find(json_t *pending, const char *url)
{
	json_t *e;
	size_t i;

	json_array_foreach(pending, i, e) {
		const char *u = json_string_value(json_object_get(e, "url"));

		if (u && !strcmp(u, url))
			return (long)i;
	}
	return -1;
}

int records_push_queue_load(const char *dir,
			    struct records_push_entry **entries, size_t *n)
{
	json_t *pending = push_queue_pending(dir), *e;
	size_t i;

	*entries = NULL;
	*n = 0;
	if (!pending)
		return -EINVAL;
	if (json_array_size(pending))
		*entries = kb_xcalloc(json_array_size(pending),
				      sizeof(**entries));
	json_array_foreach(pending, i, e) {
		const char *u = json_string_value(json_object_get(e, "url"));
		const char *f = json_string_value(json_object_get(e, "format"));
		json_int_t a = json_integer_value(json_object_get(e,
								 "attempts"));

		(*entries)[i].url = u ? kb_xstrdup(u) : NULL;
		(*entries)[i].format = f ? kb_xstrdup(f) : NULL;
		(*entries)[i].attempts = a > 0 && a < UINT_MAX ? (unsigned)a : 0;
	}
	*n = json_array_size(pending);
	json_decref(pending);
	return 0;
}

void records_push_queue_free(struct records_push_entry *entries, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(entries[i].url);
		free(entries[i].format);
	}
	free(entries);
}

int records_push_queue_add(const char *dir, const char *url,
			   const char *format)
{
	json_t *pending = push_queue_pending(dir), *e;
	char now[32];
	long i;
	int ret;

	if (!pending)
		return -EINVAL;
	kb_format_utc(time(NULL), now, sizeof(now));
	i = push_queue_find(pending, url);
	if (i < 0) {
		e = json_pack("{s:s, s:s, s:s, s:i}", "url", url, "format",
			      format, "queued", now, "attempts", 0);
		json_array_append_new(pending, e);
	} else {
		e = json_array_get(pending, (size_t)i);
	}
	json_object_set_new(e, "last_attempt", json_string(now));
	json_object_set_new(e, "attempts", json_integer(
		json_integer_value(json_object_get(e, "attempts")) + 1));
	ret = push_queue_write(dir, pending);
	json_decref(pending);
	return ret;
}

int records_push_queue_remove(const char *dir, const char *url)
{
	json_t *pending = push_queue_pending(dir);
	long i;
	int ret = 0;

	if (!pending)
		return -EINVAL;
	i = push_queue_find(pending, url);
	if (i >= 0) {
		json_array_remove(pending, (size_t)i);
		ret = push_queue_write(dir, pending);
	}
	json_decref(pending);
	return ret;
}

/* ---- when each run started (push/influx.h timestamps) ---- */

/* Start time of one run, ns, or -1. */
static int64_t run_time(const char *dir, const char *key, json_t *st)
{
	char *path = kb_run_file(dir, key, "run.json");
	json_t *rj = NULL, *v;
	int64_t ns = -1, fin;
	double el = 0;

	if (kb_exists(path)) {
		json_error_t jerr;

		rj = json_load_file(path, 0, &jerr);
	}
	v = json_object_get(rj, "start_unix_ns");
	if (json_is_integer(v) && json_integer_value(v) > 0) {
		ns = (int64_t)json_integer_value(v);
		goto out;
	}
	if (kb_parse_utc(json_string_value(json_object_get(st, "finished")),
			     &fin))
		goto out;
	v = json_object_get(rj, "elapsed_s");
	if (json_is_number(v) && json_number_value(v) > 0 &&
	    json_number_value(v) < 1e7)
		el = json_number_value(v);
	ns = (fin - (int64_t)llround(el)) * 1000000000LL;
out:
	json_decref(rj);
	free(path);
	return ns;
}

json_t *results_run_start_times(const char *dir, const char *only_key)
{
	char *spath = kb_path_join(dir, "state.json");
	json_t *state = NULL, *times = NULL, *st;
	const char *key;

	if (!kb_exists(spath)) {
		times = json_object();	/* no run completed yet */
		goto out;
	}
	state = kb_json_load(spath);
	if (!state)
		goto out;
	times = json_object();
	json_object_foreach(json_object_get(state, "runs"), key, st) {
		int64_t ns;

		if (only_key && strcmp(only_key, key))
			continue;
		ns = run_time(dir, key, st);

		if (ns < 0) {
			kb_warn("%s: run %s has no start time (no run.json "
				"start_unix_ns, no state.json \"finished\"): "
				"not pushed", dir, key);
			continue;
		}
		json_object_set_new(times, key, json_integer((json_int_t)ns));
	}
out:
	json_decref(state);
	free(spath);
	return times;
}

