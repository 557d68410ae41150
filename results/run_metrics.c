/* results/run_metrics.c - a run's metrics.json, its last steps (see
 * run_metrics.h). */
#include "results/run_metrics.h"
#include "results/json.h"
#include "parsers/json_file.h"
#include "lib/file.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>

static void stamp_ident(json_t *rec, const struct results_run_ident *id)
{
	json_object_set_new(rec, "configuration",
			    json_string(id->configuration));
	json_object_set_new(rec, "job", json_string(id->job));
	json_object_set_new(rec, "iteration", json_integer(id->iteration));
	json_object_set_new(rec, "warmup", json_boolean(id->warmup));
}

int results_metrics_write(const char *path, json_t *rec,
			  const struct results_run_ident *id,
			  const struct results_run_kernel *k)
{
	stamp_ident(rec, id);
	if (k && k->release)
		json_object_set_new(rec, k->guest ? "guest_kernel" :
				    "kernel_release", json_string(k->release));
	if (k && k->proc_version)
		json_object_set_new(rec, k->guest ? "guest_proc_version" :
				    "proc_version",
				    json_string(k->proc_version));
	if (k && k->kexec)
		kexec_run_info_record(rec, k->kexec);
	return kb_json_write_atomic(path, rec);
}

static json_t *failed_record(const struct results_run_ident *id,
			     const char *reason)
{
	json_t *rec = json_pack("{s:s, s:s, s:{}}", "status", "failed",
				"reason", reason, "metrics");

	stamp_ident(rec, id);
	return rec;
}

int results_metrics_write_failed(const char *path,
				 const struct results_run_ident *id,
				 const char *reason)
{
	json_t *rec = failed_record(id, reason);
	int ret = kb_json_write_atomic(path, rec);

	json_decref(rec);
	return ret;
}

int results_metrics_outcome(const char *path,
			    const struct results_run_ident *id,
			    const char *reason, char **status, char **why)
{
	json_t *rec = kb_exists(path) ? kb_json_load(path) : NULL;
	int ret = 0;

	*status = *why = NULL;
	if (!kb_jstr(rec, "status")) {
		json_decref(rec);
		rec = failed_record(id, reason);
		ret = kb_json_write_atomic(path, rec);
	}
	if (!ret) {
		*status = kb_jstrdup(rec, "status");
		*why = kb_jstrdup(rec, "reason");
	}
	json_decref(rec);
	return ret;
}

const char *results_metrics_status(json_t *rec)
{
	return kb_jstr(rec, "status");
}

const char *results_metrics_reason(json_t *rec)
{
	return kb_jstr(rec, "reason");
}

void results_metrics_free(json_t *rec)
{
	json_decref(rec);
}
