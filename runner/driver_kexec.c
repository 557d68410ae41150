/* runner/driver_kexec.c - method = kexec: bare-metal runs on the
 * variant's kernel, reached with kexec(8) (see runner/kexec.h for the
 * state kept across the reboot and the checks after it).
 *
 * A batch of a variant that is not running: write the state file, `kexec
 * -l IMAGE [--initrd=INITRD] --command-line="CMDLINE kbench.campaign=N"`,
 * then `systemctl kexec` (or `kexec -e` without systemd).  After the boot
 * the unit from `kbench install-resume DIR` runs `kbench run -o DIR`; the
 * variant counts as running only when every check passes, its runs then
 * go through the local path (tunables are re-applied per run, as they
 * reset on boot).  When a check fails, the runs of that boot are recorded
 * as failed with the reason.  `kbench run --dry-run` prints the commands
 * and changes nothing.
 */
#include "push/fetch.h"
#include "runner/drivers.h"
#include "runner/campaign.h"
#include "runner/kernel_img.h"
#include "runner/kexec.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int kexec_is_running(const struct kb_variant *v);

/* root/rel, trimmed of trailing blanks/newlines (malloc'd) or NULL. */
static char *read_trim(const char *root, const char *rel)
{
	char *p = kb_path_join(root, rel), *t = NULL;
	size_t n;

	if (kb_read_file(p, &t, &n, 1))
		t = NULL;
	free(p);
	while (t && n && (t[n - 1] == '\n' || t[n - 1] == ' ' ||
			  t[n - 1] == '\t'))
		t[--n] = '\0';
	return t;
}

static int has_word(const char *line, const char *word)
{
	size_t wl = strlen(word);
	const char *p = line;

	while (p && (p = strstr(p, word))) {
		if ((p == line || p[-1] == ' ') && (p[wl] == '\0' || p[wl] == ' '))
			return 1;
		p += wl;
	}
	return 0;
}

/* Split "REL (USER@HOST) #BUILD..." (a bzImage kernel_version) or
 * "Linux version REL (USER@HOST) (COMPILER) #BUILD..." (/proc/version)
 * into release, user@host and the "#BUILD ..." part. */
static int split_build(const char *s, char **rel, char **who, char **ver)
{
	const char *p = s, *e, *h;

	*rel = *who = *ver = NULL;
	if (!strncmp(p, "Linux version ", 14))
		p += 14;
	e = p + strcspn(p, " ");
	*rel = strndup(p, (size_t)(e - p));
	if (*e == ' ' && e[1] == '(' && (h = strchr(e, ')')))
		*who = strndup(e + 2, (size_t)(h - e - 2));
	h = strstr(e, " #");
	if (h)
		*ver = kb_xstrdup(h + 1);
	return *rel && *who && *ver ? 0 : -EINVAL;
}

int kexec_disk_id(const char *root, const char *dev, struct kb_disk_id *id)
{
	char *base = kb_xasprintf("sys/block/%s", dev), *full, *rel;
	int ret = 0;

	memset(id, 0, sizeof(*id));
	full = kb_path_join(root, base);
	if (!kb_exists(full)) {
		ret = -ENOENT;
		goto out;
	}
	rel = kb_xasprintf("%s/wwid", base);
	id->wwn = read_trim(root, rel);
	free(rel);
	if (!id->wwn) {
		rel = kb_xasprintf("%s/device/wwid", base);
		id->wwn = read_trim(root, rel);
		free(rel);
	}
	rel = kb_xasprintf("%s/device/serial", base);
	id->serial = read_trim(root, rel);
	free(rel);
	rel = kb_xasprintf("%s/device/model", base);
	id->model = read_trim(root, rel);
	free(rel);
out:
	free(full);
	free(base);
	return ret;
}

static int str_differs(const char *want, const char *got)
{
	return want && (!got || strcmp(want, got));
}

int kexec_verify(const char *root, const struct kb_kexec_state *s,
		 char *why, size_t len)
{
	char *rel = read_trim(root, "proc/sys/kernel/osrelease");
	char *cmdline = read_trim(root, "proc/cmdline");
	char *version = read_trim(root, "proc/version");
	char *r1 = NULL, *w1 = NULL, *v1 = NULL, *r2 = NULL, *w2 = NULL;
	char *v2 = NULL;
	struct kb_disk_id id = { 0 };
	int ret = KB_KEXEC_OK, rel_bad, marker_bad;

	if (!rel || !cmdline) {
		snprintf(why, len, "cannot read %s/proc/sys/kernel/osrelease "
			 "or %s/proc/cmdline", root, root);
		ret = -ENOENT;
		goto out;
	}
	rel_bad = s->release && strcmp(rel, s->release);
	marker_bad = s->marker && !has_word(cmdline, s->marker);
	if (rel_bad || marker_bad) {
		int n = 0;

		if (rel_bad)
			n = snprintf(why, len, "booted kernel mismatch: uname "
				     "-r is %s, expected %s%s", rel, s->release,
				     marker_bad ? "; " : "");
		if (marker_bad && n >= 0 && (size_t)n < len)
			snprintf(why + n, len - n, "kexec marker '%s' missing "
				 "from /proc/cmdline (kexec likely fell back to "
				 "a firmware reboot into the default kernel)",
				 s->marker);
		ret = KB_KEXEC_WRONG_KERNEL;
		goto out;
	}
	if (s->build && version) {
		if (split_build(s->build, &r1, &w1, &v1) ||
		    split_build(version, &r2, &w2, &v2)) {
			snprintf(why, len, "cannot compare builds: image '%s', "
				 "/proc/version '%s'", s->build, version);
			ret = KB_KEXEC_WRONG_BUILD;
			goto out;
		}
		if (strcmp(r1, r2) || strcmp(w1, w2) || strcmp(v1, v2)) {
			snprintf(why, len, "running kernel is not the intended "
				 "build: /proc/version has %s (%s) %s, the image "
				 "is %s (%s) %s", r2, w2, v2, r1, w1, v1);
			ret = KB_KEXEC_WRONG_BUILD;
			goto out;
		}
	}
	if (s->target_dev && (s->target.serial || s->target.wwn)) {
		if (kexec_disk_id(root, s->target_dev, &id)) {
			snprintf(why, len, "target /dev/%s does not exist after "
				 "the boot (expected serial %s / wwn %s)",
				 s->target_dev, s->target.serial ?: "n/a",
				 s->target.wwn ?: "n/a");
			ret = KB_KEXEC_WRONG_TARGET;
		} else if (str_differs(s->target.serial, id.serial) ||
			   str_differs(s->target.wwn, id.wwn)) {
			snprintf(why, len, "target device identity changed: "
				 "/dev/%s is serial %s (%s) in %s boot %u, "
				 "expected serial %s / wwn %s; run discarded",
				 s->target_dev, id.serial ?: "n/a",
				 id.model ?: "unknown model",
				 s->variant ?: "?", s->boot,
				 s->target.serial ?: "n/a",
				 s->target.wwn ?: "n/a");
			ret = KB_KEXEC_WRONG_TARGET;
		}
	}
out:
	kexec_disk_id_free(&id);
	free(rel);
	free(cmdline);
	free(version);
	free(r1);
	free(w1);
	free(v1);
	free(r2);
	free(w2);
	free(v2);
	return ret;
}

char *kexec_cmdline(const char *current, const char *extra,
		    const char *marker)
{
	char *copy = kb_xstrdup(current ? current : ""), *tok, *save = NULL;
	char *out = kb_xstrdup(""), *t, *init_args = NULL;

	/* words after a lone "--" go to init, not to the kernel: keep them
	 * last (Documentation/admin-guide/kernel-parameters.rst) */
	for (t = copy; (t = strstr(t, "--")); t += 2) {
		if ((t == copy || t[-1] == ' ') && (t[2] == '\0' ||
		    t[2] == ' ' || t[2] == '\n')) {
			init_args = kb_xstrdup(t);
			init_args[strcspn(init_args, "\n")] = '\0';
			*t = '\0';
			break;
		}
	}
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(tok, "BOOT_IMAGE=", 11) ||
		    !strncmp(tok, "kbench.campaign=", 16))
			continue;
		t = kb_xasprintf("%s%s%s", out, *out ? " " : "", tok);
		free(out);
		out = t;
	}
	if (extra && *extra) {
		t = kb_xasprintf("%s%s%s", out, *out ? " " : "", extra);
		free(out);
		out = t;
	}
	t = kb_xasprintf("%s%s%s%s%s", out, *out ? " " : "", marker,
			 init_args ? " " : "", init_args ? init_args : "");
	free(out);
	free(copy);
	free(init_args);
	return t;
}

static const char *proc_root(void)
{
	const char *r = getenv("KBENCH_PROC_ROOT");	/* tests */

	return r && *r ? r : "/";
}

/* Say once per process and boot which checks the running variant
 * passed (the console of a kexec'd machine shows it). */
static void say_verified(const struct kb_variant *v,
			 const struct kb_kexec_state *s)
{
	static char *said;	/* "VARIANT MARKER" last said */
	char *key = kb_xasprintf("%s %s", v->name, s->marker ? s->marker : "-");
	char *target;

	if (said && !strcmp(said, key)) {
		free(key);
		return;
	}
	free(said);
	said = key;
	if (s->target_dev && (s->target.serial || s->target.wwn))
		target = kb_xasprintf("/dev/%s is serial %s / wwn %s as before "
				      "the first kexec", s->target_dev,
				      s->target.serial ?: "n/a",
				      s->target.wwn ?: "n/a");
	else
		target = kb_xstrdup("no serial/WWN to compare (not a disk "
				    "with an identity)");
	if (s->marker)
		kb_info("kexec: variant %s verified on kexec boot %u: uname -r "
			"%s, marker %s in /proc/cmdline, /proc/version is the "
			"image's build; target: %s", v->name, s->boot,
			s->release ? s->release : "?", s->marker, target);
	else
		kb_info("kexec: variant %s is the running kernel (booted "
			"without kexec: /proc/version is the image's build)",
			v->name);
	free(target);
}

int kexec_is_running(const struct kb_variant *v)
{
	struct kb_kexec_state s;
	char *path = kexec_state_path(), why[512];
	int running = 0;

	if (kexec_state_load(path, &s) == 0) {
		if (s.variant && !strcmp(s.variant, v->name))
			running = kexec_verify(proc_root(), &s, why,
					       sizeof(why)) == KB_KEXEC_OK;
		if (running)
			say_verified(v, &s);
		kexec_state_free(&s);
	} else if (v->kernel && strncmp(v->kernel, "deb:", 4)) {
		/* booted by hand: the image's build is the running one */
		char ver[512];

		memset(&s, 0, sizeof(s));
		if (!bzimage_version(v->kernel, ver, sizeof(ver))) {
			s.build = ver;
			running = kexec_verify(proc_root(), &s, why,
					       sizeof(why)) == KB_KEXEC_OK;
			if (running)
				say_verified(v, &s);
		}
	}
	free(path);
	return running;
}

int kexec_run_info(const struct kb_variant *v, struct kb_kexec_run_info *ki)
{
	struct kb_kexec_state s;
	char *path;

	memset(ki, 0, sizeof(*ki));
	if (!v->method || strcmp(v->method, "kexec") || !kexec_is_running(v))
		return 0;
	path = kexec_state_path();
	if (kexec_state_load(path, &s) == 0 && s.variant &&
	    !strcmp(s.variant, v->name)) {
		ki->by_kexec = 1;
		ki->boot = s.boot;
		ki->marker = s.marker;
		ki->build = s.build;
		s.marker = s.build = NULL;	/* moved to ki */
	} else {
		ki->booted = "without kexec (the image's build is running)";
	}
	kexec_state_free(&s);
	free(path);
	return 1;
}

int kexec_ready(const struct kb_variant *v, char *why, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *full;
	int found = 0;

	if (kb_guest_variant || kexec_is_running(v) || kb_driver_dry_run)
		return kb_guest_variant ? 0 : 1;
	copy = kb_xstrdup(path ? path : "/usr/sbin:/sbin:/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		full = kb_path_join(dir, "kexec");
		found = access(full, X_OK) == 0;
		free(full);
	}
	free(copy);
	if (!found)
		snprintf(why, len, "variant '%s' (method = kexec) needs "
			 "kexec(8): apt-get install kexec-tools", v->name);
	return found;
}

/* The state file as it was before this batch (prev, len bytes; NULL:
 * there was none): a kexec that did not happen leaves the machine on
 * the kernel that state describes. */
static void restore_state(const char *spath, const char *prev, size_t len)
{
	if (!prev)
		unlink(spath);
	else if (kb_write_atomic(spath, prev, len))
		kb_warn("%s: cannot restore the kexec state; remove it and run "
			"again", spath);
}

/* Fail runs[] with reason (the boot was not the intended one). */
static int fail_batch(struct kb_campaign *c, const size_t *runs, size_t n,
		      const char *reason, size_t *nfailed)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		const struct kb_run *r = &c->plan.runs[runs[i]];

		ret = campaign_record(c, r->key, "failed", reason);
		(*nfailed)++;
		kb_warn("run %s failed: %s (recorded; the campaign goes on)",
			r->key, reason);
	}
	return ret;
}

int kexec_run_batch(struct kb_campaign *c, const size_t *runs, size_t n,
		    size_t *nfailed)
{
	const struct kb_config *cfg = &c->cfg;
	size_t vi = c->plan.configs[c->plan.runs[runs[0]].config].variant;
	const struct kb_variant *v = &cfg->variants[vi];
	char *spath = kexec_state_path(), *cur = NULL, *cmdline = NULL;
	char *a_cmd = NULL, *a_initrd = NULL, why[1024], *cdir, *prev;
	size_t prevlen = 0;
	struct kb_kexec_state s = { 0 };
	struct kb_kernel k = { 0 };
	unsigned char nonce[8];
	char hex[17];
	int ret, have = 0, i;

	*nfailed = 0;
	/* the state names the campaign by its absolute path: the resume
	 * hook's -o DIR may be written differently from the first run's */
	cdir = realpath(c->dir, NULL);
	if (!cdir)
		cdir = kb_xstrdup(c->dir);
	if (kb_read_file(spath, &prev, &prevlen, 1))
		prev = NULL;
	if (kexec_state_load(spath, &s) == 0) {
		have = 1;
		if (s.campaign && !strcmp(s.campaign, cdir) && s.variant &&
		    !strcmp(s.variant, v->name)) {
			/* we are after the boot, and it is not the right one */
			ret = kexec_verify(proc_root(), &s, why, sizeof(why));
			if (ret == KB_KEXEC_OK)
				snprintf(why, sizeof(why), "kexec: the variant "
					 "became ready during the batch");
			free(s.variant);
			s.variant = NULL;
			free(s.marker);
			s.marker = NULL;
			ret = kb_driver_dry_run ? 0 :
			      kexec_state_save(spath, &s);
			if (!ret && !kb_driver_dry_run)
				ret = fail_batch(c, runs, n, why, nfailed);
			goto out;
		}
	}
	ret = kernel_resolve(v, &k);
	if (ret)
		goto out;
	{
		/* kexec replaces this kernel with the image as root: one
		 * another user can change (a bzImage in their directory) is
		 * not loaded, nor such an initrd (lib/file.h) */
		const char *img[2] = { k.image, v->initrd &&
				       !kernel_is_url(v->initrd) ? v->initrd :
				       NULL };
		char *untrusted = NULL, *reason;
		int j;

		for (j = 0; j < 2; j++) {
			if (!img[j] || !kb_path_trusted(img[j], &untrusted))
				continue;
			reason = kb_xasprintf("kexec: %s %s is not loaded: %s "
				"(only root and the trusted users may be able "
				"to change what kexec boots)", j ? "initrd" :
				"kernel", img[j], untrusted);
			free(untrusted);
			ret = kb_driver_dry_run ? 0 :
			      fail_batch(c, runs, n, reason, nfailed);
			if (kb_driver_dry_run) {
				printf("# %s: its runs would fail: %s\n",
				       v->name, reason);
				kb_driver_dry_failures++;
			}
			free(reason);
			goto out;
		}
	}
	if (!have || !s.campaign || strcmp(s.campaign, cdir)) {
		/* first kexec of this campaign: the target's identity now
		 * is the reference for every later boot */
		kexec_state_free(&s);
		s.campaign = kb_xstrdup(cdir);
		if (cfg->target_kind == KB_TARGET_DEVICE && cfg->target) {
			char real[PATH_MAX];
			const char *b;

			if (realpath(cfg->target, real)) {
				b = strrchr(real, '/');
				s.target_dev = kb_xstrdup(b ? b + 1 : real);
				kexec_disk_id(proc_root(), s.target_dev,
					      &s.target);
			}
		}
	}
	if (getrandom(nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce)) {
		ret = -errno;
		kb_error("getrandom: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < 8; i++)
		snprintf(hex + 2 * i, 3, "%02x", nonce[i]);
	free(s.variant);
	free(s.marker);
	free(s.release);
	free(s.build);
	s.variant = kb_xstrdup(v->name);
	s.marker = kb_xasprintf("kbench.campaign=%s", hex);
	s.release = kb_xstrdup(k.release);
	s.build = k.build ? kb_xstrdup(k.build) : NULL;
	s.boot++;
	{
		char *p = kb_path_join(proc_root(), "proc/cmdline");

		if (kb_read_file(p, &cur, NULL, 1))
			cur = NULL;
		free(p);
	}
	cmdline = kexec_cmdline(cur, v->cmdline, s.marker);
	a_cmd = kb_xasprintf("--command-line=%s", cmdline);
	if (v->initrd && kernel_is_url(v->initrd)) {
		/* initrd = URL: fetched into the cache like a kernel */
		char *cache = kernel_cache_dir(), *dir, *path = NULL;

		dir = kb_path_join(cache, "urls");
		ret = fetch_url(v->initrd, dir, NULL, &path);
		free(dir);
		free(cache);
		if (ret)
			goto out;
		a_initrd = kb_xasprintf("--initrd=%s", path);
		free(path);
	} else {
		a_initrd = v->initrd ? kb_xasprintf("--initrd=%s", v->initrd) :
			   NULL;
	}
	{
		struct kb_argv load = KB_ARGV_INIT;
		char *sysd[] = { "systemctl", "kexec", NULL };
		char *exec[] = { "kexec", "-e", NULL };
		char **go = kb_exists("/run/systemd/system") ? sysd : exec;
		struct kb_spawn_result r;

		kb_argv_pushl(&load, "kexec", "-l", k.image, a_cmd, NULL);
		if (a_initrd)
			kb_argv_push(&load, a_initrd);
		if (kb_driver_dry_run) {
			printf("# kexec: variant %s, %zu run(s); state %s\n",
			       v->name, n, spath);
			kb_sh_line(stdout, load.v);
			kb_argv_clear(&load);
			kb_sh_line(stdout, go);
			ret = 0;
			goto out;
		}
		/* the new kernel starts with empty tmpfs: a campaign or
		 * state file there is gone after the kexec, and no boot
		 * resumes it (a break-it trial) */
		for (i = 0; i < 2; i++)
			if (kb_path_in_memory(i ? spath : cdir)) {
				kb_error("%s: the %s is in memory (tmpfs or "
					 "ramfs), which the kexec empties: no "
					 "boot could resume the campaign; use "
					 "a directory on disk%s", i ? spath :
					 cdir, i ? "kexec state file" :
					 "campaign directory", i ?
					 " (KBENCH_STATE_DIR)" : "");
				kb_argv_clear(&load);
				ret = -EINVAL;
				goto out;
			}
		ret = kexec_state_save(spath, &s);
		if (ret) {
			kb_argv_clear(&load);
			goto out;
		}
		ret = kb_spawn(load.v, NULL, &r);
		kb_argv_clear(&load);
		if (!ret && (!r.exited || r.exit_status)) {
			kb_error("kexec -l %s failed (exit status %d)", k.image,
				 r.exited ? r.exit_status : -1);
			ret = -EIO;
		}
		if (ret) {
			restore_state(spath, prev, prevlen);
			goto out;
		}
		kb_info("kexec: rebooting into %s (%s) for %zu run(s) with %s "
			"(%s); the campaign resumes after the boot if `kbench "
			"run -o %s` runs there (`kbench install-resume %s`, or "
			"rc.local / the init without systemd)", v->name,
			k.release, n, go == sysd ? "systemctl kexec" :
			"kexec -e", s.marker, cdir, cdir);
		sync();
		ret = kb_spawn(go, NULL, &r);
		if (!ret && (!r.exited || r.exit_status)) {
			/* kexec -e that returns failed (it does not return
			 * when the new kernel starts): still this kernel */
			kb_error("%s failed (exit status %d): %s was not "
				 "started; the machine stays on this kernel",
				 go == sysd ? "systemctl kexec" : "kexec -e",
				 r.exited ? r.exit_status : -1, k.image);
			restore_state(spath, prev, prevlen);
			ret = -EIO;
		} else if (!ret) {
			ret = -ECANCELED;	/* the machine is going down */
		}
	}
out:
	kernel_free(&k);
	kexec_state_free(&s);
	free(spath);
	free(cur);
	free(cmdline);
	free(a_cmd);
	free(a_initrd);
	free(cdir);
	free(prev);
	return ret;
}
