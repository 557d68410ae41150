#include "runner/tunables.h"
#include "runner/plan.h"
#include "lib/err.h"
#include "lib/file.h"
#include "parsers/json_file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *normalise(const char *raw)
{
	const char *lb = strchr(raw, '['), *rb = lb ? strchr(lb, ']') : NULL;
	const char *s = raw, *e;
	char *out;

	if (lb && rb) {
		s = lb + 1;
		e = rb;
	} else {
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
	}
	out = kb_xmalloc((size_t)(e - s) + 1);
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return out;
}

char *tunable_read(const char *path, int quiet)
{
	char *buf, *v;

	if (kb_read_file(path, &buf, NULL, quiet) < 0)
		return NULL;
	v = normalise(buf);
	free(buf);
	return v;
}

static int write_value(const char *path, const char *value)
{
	size_t len = strlen(value);
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	ssize_t n;

	if (fd < 0) {
		ret = -errno;
		kb_error("cannot open tunable %s for writing: %s%s", path,
			 strerror(-ret), ret != -EACCES && ret != -EPERM ? "" :
			 geteuid() ? " (tunables need root)" :
			 " (the attribute is read-only)");
		return ret;
	}
	n = write(fd, value, len);
	if (n != (ssize_t)len) {
		/* a short write sets no errno */
		ret = n < 0 ? -errno : -EIO;
		kb_error("cannot write '%s' to %s: %s", value, path,
			 n < 0 ? strerror(-ret) : "short write");
	}
	close(fd);
	return ret;
}

/* The machine-wide record of the tunables kbench has changed, so that a
 * campaign killed with -9 is undone even by another campaign on the same
 * device: one file per tunable in $KBENCH_RUN_DIR/tunables (default
 * /run/kbench/tunables; /run is emptied at boot, when sysfs values reset
 * too), named by the tunable's path with '/' written as '!', holding
 * {"original": VALUE, "campaign": DIR, "pid": PID}. */
static char *registry_path(const char *tpath)
{
	const char *base = getenv("KBENCH_RUN_DIR");
	char *p, *s;

	p = kb_xasprintf("%s/tunables/%s", base && *base ? base : "/run/kbench",
			 tpath);
	for (s = strstr(p, "/tunables/") + 10; *s; s++)
		if (*s == '/')
			*s = '!';
	return p;
}

/* 1 when pid is a running kbench. */
static int kbench_alive(pid_t pid)
{
	char path[64], *comm = NULL;
	int alive;

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	if (kb_read_file(path, &comm, NULL, 1) < 0)
		return 0;
	alive = !strncmp(comm, "kbench", 6);
	free(comm);
	return alive;
}

/* The original value of tpath: the registry's when a dead kbench left
 * it changed, else current.  Records this campaign in the registry.
 * NULL (message printed) when another running kbench owns the tunable. */
static char *registry_claim(const char *tpath, char *current,
			    const char *campaign)
{
	char *rp = registry_path(tpath), *dir, *orig = current;
	json_t *e = kb_exists(rp) ? json_load_file(rp, 0, NULL) : NULL, *rec;
	pid_t pid = (pid_t)json_integer_value(json_object_get(e, "pid"));
	const char *o = json_string_value(json_object_get(e, "original"));
	const char *owner = json_string_value(json_object_get(e, "campaign"));

	if (e && pid != getpid() && kbench_alive(pid)) {
		kb_error("%s is being changed by another kbench (pid %ld, "
			 "campaign %s): two campaigns on one device measure "
			 "each other; wait for it or stop it", tpath, (long)pid,
			 owner ? owner : "?");
		free(current);
		orig = NULL;
		goto out;
	}
	if (e && o && pid != getpid()) {
		if (strcmp(current, o))
			kb_warn("%s was left at '%s' by campaign %s (kbench pid "
				"%ld, no longer running); its original value "
				"'%s' will be restored", tpath, current,
				owner ? owner : "?", (long)pid, o);
		free(current);
		orig = kb_xstrdup(o);
	}
	dir = kb_xstrdup(rp);
	*strrchr(dir, '/') = '\0';
	{
		/* campaign is DIR/tunables.saved.json: record DIR */
		char *cdir = kb_xstrdup(campaign), *slash = strrchr(cdir, '/');

		if (slash)
			*slash = '\0';
		rec = json_pack("{s:s, s:s, s:I}", "original", orig, "campaign",
				cdir, "pid", (json_int_t)getpid());
		free(cdir);
	}
	if (kb_mkdir_p(dir) == 0)
		kb_json_write_atomic(rp, rec);
	json_decref(rec);
	free(dir);
out:
	json_decref(e);
	free(rp);
	return orig;
}

static void registry_release(const char *tpath)
{
	char *rp = registry_path(tpath);

	unlink(rp);
	free(rp);
}

int tunables_restore_file(const char *path)
{
	json_t *saved = kb_json_load(path), *v;
	const char *p;
	int ret = 0;

	if (!saved)
		return -EINVAL;
	json_object_foreach(saved, p, v) {
		if (!json_is_string(v))
			continue;
		if (!kb_exists(p)) {
			kb_warn("cannot restore %s = %s: the file is gone "
				"(device removed?)", p, json_string_value(v));
			registry_release(p);
			continue;
		}
		if (write_value(p, json_string_value(v)) < 0) {
			ret = -EIO;
		} else {
			kb_info("restored %s = %s", p, json_string_value(v));
			registry_release(p);
		}
	}
	json_decref(saved);
	if (ret == 0)
		unlink(path);
	return ret;
}

int tunables_init(struct kb_tunables *tu, const struct kb_config *cfg,
		  const struct kb_target *t, const char *dir)
{
	size_t i;

	memset(tu, 0, sizeof(*tu));
	tu->saved_path = kb_path_join(dir, "tunables.saved.json");
	if (kb_exists(tu->saved_path)) {
		kb_info("a previous run of this campaign stopped without "
			"restoring its tunables; restoring them now");
		if (tunables_restore_file(tu->saved_path) < 0)
			return -EIO;
	}
	for (i = 0; i < cfg->ntunables; i++) {
		tu->labels[i] = kb_xstrdup(cfg->tunables[i].label);
		tu->n++;
		if (cfg->tunables[i].sweep)
			continue;	/* a job parameter: no file to write */
		tu->paths[i] = target_tunable_path(t, cfg->tunables[i].path,
						   cfg->tunables[i].label);
		if (!tu->paths[i])
			return -EINVAL;
		if (!kb_exists(tu->paths[i])) {
			kb_error("%s:%d: tunable %s: %s does not exist",
				 cfg->path, cfg->tunables[i].line,
				 cfg->tunables[i].label, tu->paths[i]);
			return -ENOENT;
		}
	}
	return 0;
}

static int save_originals(struct kb_tunables *tu)
{
	json_t *saved = json_object();
	size_t i;
	int ret = 0;

	for (i = 0; i < tu->n; i++) {
		char *v;

		if (!tu->paths[i])
			continue;
		v = tunable_read(tu->paths[i], 0);
		if (v)
			v = registry_claim(tu->paths[i], v, tu->saved_path);
		if (!v) {
			ret = -EIO;
			goto out;
		}
		json_object_set_new(saved, tu->paths[i], json_string(v));
		free(v);
	}
	ret = kb_json_write_atomic(tu->saved_path, saved);
	if (ret == 0)
		tu->saved = 1;
out:
	if (ret) {
		/* nothing will be changed: drop the claims just made, except
		 * where a dead campaign's original differs from the value now
		 * (that record is still needed to undo it) */
		const char *p;
		json_t *v;

		json_object_foreach(saved, p, v) {
			char *cur = tunable_read(p, 1);

			if (cur && !strcmp(cur, json_string_value(v)))
				registry_release(p);
			free(cur);
		}
	}
	json_decref(saved);
	return ret;
}

int tunables_set(struct kb_tunables *tu, size_t i, const char *value)
{
	char *back;
	int ret;

	if (!tu->paths[i])
		return 0;	/* a sweep: passed to fio, see kconf.h */
	if (!tu->saved) {
		ret = save_originals(tu);
		if (ret)
			return ret;
	}
	ret = write_value(tu->paths[i], value);
	if (ret)
		return ret;
	back = tunable_read(tu->paths[i], 0);
	if (!back)
		return -EIO;
	if (strcmp(back, value)) {
		kb_error("tunable %s: wrote '%s' to %s but it reads back '%s' "
			 "(value not supported by this kernel or device?)",
			 tu->labels[i], value, tu->paths[i], back);
		ret = -EIO;
	}
	free(back);
	return ret;
}

int tunables_apply(struct kb_tunables *tu, const struct kb_config *cfg,
		   const struct kb_configuration *k)
{
	size_t i;
	int ret;

	for (i = 0; i < tu->n; i++) {
		ret = tunables_set(tu, i, cfg->tunables[i].values[k->value[i]]);
		if (ret)
			return ret;
	}
	return 0;
}

int tunables_probe(struct kb_tunables *tu, const struct kb_config *cfg)
{
	size_t i, v;
	int ret = 0, r, quiet = kb_quiet;

	/* a failure to save the originals (read-only campaign directory)
	 * is not the values' fault: say only that */
	if (!tu->saved) {
		ret = save_originals(tu);
		if (ret)
			return ret;
	}
	for (i = 0; i < tu->n && i < cfg->ntunables; i++) {
		if (!tu->paths[i])
			continue;
		for (v = 0; v < cfg->tunables[i].nvalues; v++) {
			r = tunables_set(tu, i, cfg->tunables[i].values[v]);
			if (r == 0)
				continue;
			kb_error("%s:%d: tunable %s: value '%s' is not accepted "
				 "by %s on this kernel and device; remove it "
				 "from the list (nothing was run)", cfg->path,
				 cfg->tunables[i].line, cfg->tunables[i].label,
				 cfg->tunables[i].values[v], tu->paths[i]);
			if (!ret)
				ret = r;
		}
	}
	kb_quiet = 1;	/* no "restored" lines for a probe */
	r = tunables_restore(tu);
	kb_quiet = quiet;
	return ret ? ret : r;
}

int tunables_restore(struct kb_tunables *tu)
{
	int ret;

	if (!tu->saved)
		return 0;
	ret = tunables_restore_file(tu->saved_path);
	if (ret == 0)
		tu->saved = 0;
	return ret;
}

void tunables_free(struct kb_tunables *tu)
{
	size_t i;

	for (i = 0; i < tu->n; i++) {
		free(tu->paths[i]);
		free(tu->labels[i]);
	}
	free(tu->saved_path);
	memset(tu, 0, sizeof(*tu));
}
