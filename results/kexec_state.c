/* results/kexec_state.c - kexec.json and a run's "kexec" record (see
 * kexec_state.h). */
#include "results/kexec_state.h"
#include "results/json.h"
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void kexec_disk_id_free(struct kb_disk_id *id)
{
	free(id->serial);
	free(id->wwn);
	free(id->model);
	memset(id, 0, sizeof(*id));
}

char *kexec_state_path(void)
{
	const char *d = getenv("KBENCH_STATE_DIR");

	return kb_path_join(d && *d ? d : "/var/lib/kbench", "kexec.json");
}

int kexec_state_load(const char *path, struct kb_kexec_state *s)
{
	json_t *j, *t;

	memset(s, 0, sizeof(*s));
	if (!kb_exists(path))
		return -ENOENT;
	j = kb_json_load(path);
	if (!j || !json_is_string(json_object_get(j, "campaign"))) {
		kb_error("%s: not a kbench kexec state file; remove it", path);
		json_decref(j);
		return -EINVAL;
	}
	s->campaign = kb_jstrdup(j, "campaign");
	s->variant = kb_jstrdup(j, "variant");
	s->marker = kb_jstrdup(j, "marker");
	s->release = kb_jstrdup(j, "release");
	s->build = kb_jstrdup(j, "build");
	s->target_dev = kb_jstrdup(j, "target_dev");
	t = json_object_get(j, "target");
	s->target.serial = kb_jstrdup(t, "serial");
	s->target.wwn = kb_jstrdup(t, "wwn");
	s->target.model = kb_jstrdup(t, "model");
	s->boot = (unsigned)json_integer_value(json_object_get(j, "boot"));
	json_decref(j);
	return 0;
}

int kexec_state_save(const char *path, const struct kb_kexec_state *s)
{
	char *dir = kb_xstrdup(path), *slash = strrchr(dir, '/');
	json_t *j;
	int ret = 0;

	if (slash && slash != dir) {
		*slash = '\0';
		ret = kb_mkdir_p(dir);
	}
	free(dir);
	if (ret)
		return ret;
	j = json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:{s:s?, s:s?, s:s?}, s:i}",
		"campaign", s->campaign, "variant", s->variant,
		"marker", s->marker, "release", s->release, "build", s->build,
		"target_dev", s->target_dev, "target", "serial",
		s->target.serial, "wwn", s->target.wwn, "model",
		s->target.model, "boot", (int)s->boot);
	ret = kb_json_write_atomic(path, j);
	json_decref(j);
	return ret;
}

void kexec_state_free(struct kb_kexec_state *s)
{
	free(s->campaign);
	free(s->variant);
	free(s->marker);
	free(s->release);
	free(s->build);
	free(s->target_dev);
	kexec_disk_id_free(&s->target);
	memset(s, 0, sizeof(*s));
}

void kexec_run_info_record(json_t *run, const struct kb_kexec_run_info *ki)
{
	json_t *j;

	if (ki->by_kexec)
		j = json_pack("{s:i, s:s?, s:s?}", "boot", (int)ki->boot,
			      "marker", ki->marker, "build", ki->build);
	else
		j = json_pack("{s:i, s:s}", "boot", 0, "booted",
			      ki->booted ? ki->booted : "");
	json_object_set_new(run, "kexec", j);
}

void kexec_run_info_free(struct kb_kexec_run_info *ki)
{
	free(ki->marker);
	free(ki->build);
	memset(ki, 0, sizeof(*ki));
}
