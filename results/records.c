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
