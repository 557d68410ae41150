/* results/run_json.c - run.json from its typed record (run_json.h). */
#include "results/run_json.h"
#include "parsers/json_file.h"
#include "parsers/procfs.h"

#include <errno.h>
#include <jansson.h>

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

int results_run_json_write(const char *path, const struct results_run_json *r)
{
	const struct kb_spawn_result *f = r->fio;
	json_t *rj, *hosts, *after;
	size_t i;
	int ret;

	rj = json_pack("{s:o, s:i, s:b, s:f, s:f, s:f, s:I, s:I, s:I, s:i, s:i, s:s?, s:s, s:b}",
		"exit_status", f->exited ? json_integer(f->exit_status) :
					   json_null(),
		"signal", f->signal, "timed_out", f->timed_out,
		"elapsed_s", f->elapsed_s,
		"user_s", tv_s(f->ru.ru_utime), "sys_s", tv_s(f->ru.ru_stime),
		"maxrss_kib", (json_int_t)f->ru.ru_maxrss,
		"major_faults", (json_int_t)f->ru.ru_majflt,
		"minor_faults", (json_int_t)f->ru.ru_minflt,
		"runtime_s", (int)r->runtime_s,
		"timeout_s", (int)r->timeout_s,
		"diskstats_name", r->diskstats_name,
		"target", r->target, "warmup", r->warmup);
	if (!rj)
		return -ENOMEM;
	if (r->extra)
		json_object_set_new(rj, "extra", json_string(r->extra));
	json_object_set_new(rj, "perf_record", json_boolean(r->perf_record));
	json_object_set_new(rj, "target_size_bytes",
			    json_integer((json_int_t)r->target_size_bytes));
	json_object_set_new(rj, "start_unix_ns",
			    json_integer((json_int_t)r->start_unix_ns));
	if (r->record_hosts) {
		hosts = json_array();
		for (i = 0; i < r->nhosts; i++) {
			json_t *h = json_pack("{s:s, s:i}", "host",
					      r->hosts[i].host, "port",
					      (int)r->hosts[i].port);

			if (r->hosts[i].target)
				json_object_set_new(h, "target", json_string(
						    r->hosts[i].target));
			if (r->hosts[i].probe)
				json_object_set_new(h, "answered_probe",
					json_boolean(r->hosts[i].probe > 0));
			json_array_append_new(hosts, h);
		}
		json_object_set_new(rj, "hosts", hosts);
	}
	/* rusage_metrics() (parsers/run_dir.c): a maxrss_kib not above it
	 * may be kbench's own, not fio's */
	if (f->parent_maxrss_kib > 0)
		json_object_set_new(rj, "kbench_maxrss_kib", json_integer(
				    (json_int_t)f->parent_maxrss_kib));
	json_object_set_new(rj, "group_left", json_integer(f->group_left));
	json_object_set_new(rj, "group_signal", json_integer(f->group_signal));
	after = json_object();
	for (i = 0; i < r->ntunables_after; i++)
		json_object_set_new(after, r->tunables_after[i].path,
				    r->tunables_after[i].value ?
				    json_string(r->tunables_after[i].value) :
				    json_null());
	json_object_set_new(rj, "tunables_after", after);
	if (r->tunables_changed)
		json_object_set_new(rj, "tunables_changed",
				    json_string(r->tunables_changed));
	if (r->kbench_stopped)
		json_object_set_new(rj, "kbench_stopped", json_true());
	if (r->taint_known) {
		json_object_set_new(rj, "kernel_taint_before",
				    json_integer((json_int_t)r->taint_before));
		json_object_set_new(rj, "kernel_taint_after",
				    json_integer((json_int_t)r->taint_after));
	}
	procfs_record_kernel(rj);
	json_object_set_new(rj, "kbench_cpu_during_run_s",
			    json_real(r->kbench_cpu_during_run_s));
	json_object_set_new(rj, "cache_drop_cpu_s",
			    json_real(r->cache_drop_cpu_s));
	json_object_set_new(rj, "cache_drop_wall_s",
			    json_real(r->cache_drop_wall_s));
	ret = kb_json_write_atomic(path, rj);
	json_decref(rj);
	return ret;
}
