/* runner/driver_vm.c - method = vm: each batch of runs of a variant is
 * one boot of its kernel under QEMU (the virtme-ng approach).
 *
 * One boot, in DIR/boots/NNN-VARIANT/:
 *  - the kernel and its modules are found (runner/kernel_img.c: a bzImage
 *    path or a Debian package, fetched and cached);
 *  - an initramfs is built (runner/initramfs.c) holding busybox, the
 *    virtio/9p modules (and null_blk, virtio_blk or loop for the target)
 *    and an /init that mounts the host's root read-only over virtio-9p,
 *    the campaign directory read-write at the same path, chroots and runs
 *    `kbench guest --dir DIR --variant V --runs boots/NNN-V/runs.txt
 *    --path PATH` (PATH: the host's, so the guest runs the fio the host
 *    found), which runs the batch exactly as the local driver would and writes
 *    runs/KEY/metrics.json for each run (builtin/guest.c);
 *  - a kernel without 9p (no module or built-in 9p/9pnet_virtio in its
 *    modules directory, or guest_root = initramfs) gets a self-contained
 *    guest instead: fio, the kbench binary, their shared libraries (as
 *    ldd lists them) and the loader go into the initramfs, with the
 *    campaign files `kbench guest` reads; the guest runs in a tmpfs at
 *    the campaign directory's path and writes this boot's runs/KEY
 *    directories as a cpio archive onto a sparse raw disk
 *    (boots/NNN-V/results.img, the last virtio disk, serial kbresults),
 *    which the host checks and extracts after QEMU exits
 *    (runner/results_disk.h).  campaign.json environment.vm.variants.V
 *    .transport says which ("9p" or "self-contained") and why;
 *  - QEMU runs with KVM or TCG as runner/accel.h decides (accel = auto:
 *    KVM only when a probe boot shows it works); with TCG campaign.json's
 *    environment.vm.timing_note says "emulated (TCG): timings are not
 *    representative" and every report prints it;
 *    the console goes to console.log, QEMU's own output to qemu.log;
 *  - the guest must print "kbench guest: started" within boot_timeout
 *    seconds, and finish within boot_timeout + runs x (runtime +
 *    timeout_grace + 30) seconds, else QEMU is killed.  A kernel panic
 *    ends QEMU at once (panic=-1 with -no-reboot);
 *  - every run of the batch is then recorded: the guest's metrics.json,
 *    or "failed" with the reason (panic line, boot timeout, missing
 *    module) and console.log copied into the run directory.  The
 *    campaign goes on with the next boot.
 *
 * QEMU options: qemu-system-x86_64(1), "-virtfs" and "-drive" in
 * QEMU's invocation documentation (QEMU 7.2).
 */
#include "runner/drivers.h"
#include "results/paths.h"
#include "runner/accel.h"
#include "runner/qemu.h"
#include "runner/vmlinux.h"
#include "results/records.h"
#include "results/run_metrics.h"
#include "runner/campaign.h"
#include "runner/guest_binary.h"
#include "runner/guest_setup.h"
#include "runner/initramfs.h"
#include "runner/kernel_img.h"
#include "runner/results_disk.h"
#include "push/fetch.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#define QEMU "qemu-system-x86_64"
#define GUEST_STARTED "kbench guest: started"
/* the least guest memory fio was seen to run in (2026-12-02: Debian 12's
 * fio and its libraries from the host's root over 9p, the initramfs
 * with kbench in it: 128M and 160M failed, 256M ran) */
#define KB_VM_MEMORY_WORKS_MIB 256u
#define GUEST_FIRST_RUN "kbench guest: run "	/* before its fio starts */
#define GUEST_ERROR "kbench guest: error: "	/* its setup failed */
#define KBENCH_ERROR "kbench: error: "		/* kb_error()'s prefix */
#define TCG_NOTE "emulated (TCG): timings are not representative"

static int in_path(const char *prog)
{
	char *p = kb_which(prog);

	free(p);
	return p != NULL;
}

int vm_ready(const struct kb_variant *v, char *why, size_t len)
{
	if (kb_guest_variant) {
		if (!strcmp(kb_guest_variant, v->name))
			return 1;
		snprintf(why, len, "variant '%s' runs in its own guest (this "
			 "is the guest of '%s')", v->name, kb_guest_variant);
		return 0;
	}
	if (!in_path(QEMU)) {
		snprintf(why, len, "variant '%s' (method = vm) needs %s: "
			 "apt-get install qemu-system-x86 busybox-static kmod "
			 "(or scripts/install-deps)", v->name, QEMU);
		return 0;
	}
	return 1;
}

/* QEMU's option syntax: a ',' inside a value is written ",,". */
static char *qemu_escape(const char *s)
{
	size_t n = strlen(s), i, j = 0;
	char *o = kb_xmalloc(2 * n + 1);

	for (i = 0; i < n; i++) {
		o[j++] = s[i];
		if (s[i] == ',')
			o[j++] = ',';
	}
	o[j] = '\0';
	return o;
}

/* campaign.json environment.vm: accelerator, note, and this variant's
 * guest (vCPUs, memory, kernel): results/records.h. */
static int record_environment(struct kb_campaign *c,
			      const struct kb_variant *v,
			      const struct kb_kernel *k,
			      const struct kb_accel_choice *ac)
{
	char *argv[] = { QEMU, "--version", NULL };
	struct records_vm_variant r = {
		.name = v->name, .kvm = ac->kvm,
		.accel_requested = kb_accel_name(ac->requested),
		.accel_reason = ac->reason, .cpus = v->cpus,
		.memory_mib = v->memory_mib, .kernel = v->kernel,
		.package = k ? k->package : NULL,
		.package_version = k ? k->package_version : NULL,
		.release = k ? k->release : NULL, .build = k ? k->build : NULL,
		.cmdline = v->cmdline, .disk = v->disk,
		.image = k ? k->image : NULL,
	};
	char hex[65], *ver = NULL;
	int ret;

	if (k && k->image && !fetch_sha256_file(k->image, hex))
		r.image_sha256 = hex;
	if (c->cfg.target_kind == KB_TARGET_NULLBLK && !v->disk)
		r.nullblk_params = c->cfg.nullblk_params ?
				   c->cfg.nullblk_params : "";
	if (kb_capture(argv, &ver) == 0 && ver)
		ver[strcspn(ver, "\n")] = '\0';
	ret = records_vm_variant_save(c->dir, &r, ver, TCG_NOTE);
	free(ver);
	return ret;
}

/* The concrete package a deb: variant was first booted with in this
 * campaign (its pin), or NULL (malloc'd). */
static char *recorded_package(const struct kb_campaign *c,
			      const struct kb_variant *v)
{
	if (!v->kernel || strncmp(v->kernel, "deb:", 4))
		return NULL;
	return records_vm_pinned_package(c->dir, v->name, v->kernel);
}

/* After a boot: the kernel as the guest saw it (uname -r and
 * /proc/version from the first run it reported). */
static void record_guest_view(struct kb_campaign *c, const char *variant,
			      const size_t *runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *mp = kb_run_file(c->dir, c->plan.runs[runs[i]].key,
				       "metrics.json");
		char *rel, *pv;
		int found = records_run_guest_kernel(mp, &rel, &pv);

		free(mp);
		if (!found)
			continue;
		records_vm_variant_set(c->dir, variant, "guest_release", rel);
		if (pv)
			records_vm_variant_set(c->dir, variant,
					       "guest_proc_version", pv);
		free(rel);
		free(pv);
		return;
	}
}

/* The next DIR/boots/NNN-VARIANT, made here (malloc'd; NULL, said):
 * NNN counts the boots of the campaign, so the listing shows the boot
 * order (A B A B ...).  The 9p guest can write DIR: a name it made
 * (boots/003-b a link to /etc, or a directory holding qemu.log -> a
 * file of the host's) is never taken for the next boot's, which kbench
 * and QEMU write as root, and a boots that is not a directory of its
 * own (a link) is refused.  No guest runs while this runs. */
char *vm_new_boot_dir(const char *dir, const char *variant)
{
	char *bdir = kb_path_join(dir, "boots"), *p = NULL;
	unsigned i = 1;
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (mkdir(bdir, 0755) < 0 && errno != EEXIST) {
		kb_error("cannot create directory %s: %s", bdir,
			 strerror(errno));
		goto out;
	}
	if (lstat(bdir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		kb_error("vm: %s is not a directory (a symbolic link?): the "
			 "guests write the campaign directory, and no boot "
			 "goes where one of them points; remove it", bdir);
		goto out;
	}
	d = opendir(bdir);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			i++;
	if (d)
		closedir(d);
	for (;; i++) {
		p = kb_xasprintf("%s/%03u-%s", bdir, i, variant);
		if (mkdir(p, 0755) == 0)
			break;
		if (errno != EEXIST) {
			kb_error("cannot create directory %s: %s", p,
				 strerror(errno));
			free(p);
			p = NULL;
			break;
		}
		free(p);	/* there already: the next number */
	}
out:
	free(bdir);
	return p;
}

/* Size of path in bytes, -1 when it cannot be read. */
static long long kb_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 ? -1 : (long long)st.st_size;
}

/* Why the guest did not report, from its console (malloc'd). */
static char *console_reason(const char *console, int boot_to, int total_to,
			    unsigned boot_timeout_s)
{
	char *t = NULL, *p, *r;

	if (kb_read_file(console, &t, NULL, 1))
		t = kb_xstrdup("");
	if ((p = strstr(t, "Kernel panic - not syncing"))) {
		p[strcspn(p, "\r\n")] = '\0';
		r = kb_xasprintf("vm: guest kernel panic: %s", p);
	} else if ((p = strstr(t, "kbench-initramfs: error: "))) {
		p[strcspn(p, "\r\n")] = '\0';
		r = kb_xasprintf("vm: %s", p);
	} else if ((p = strstr(t, GUEST_ERROR))) {
		/* the guest's setup (builtin/guest.c): kbench's own message
		 * (lib/err.c) before that line says what failed */
		char *e = NULL, *q;

		p[strcspn(p, "\r\n")] = '\0';
		for (q = t; (q = strstr(q, KBENCH_ERROR)) && q < p; q++)
			e = q;
		if (e)
			e[strcspn(e, "\r\n")] = '\0';
		r = kb_xasprintf("vm: guest setup: %s",
				 e ? e + strlen(KBENCH_ERROR) :
				     p + strlen(GUEST_ERROR));
	} else if (boot_to) {
		r = kb_xasprintf("vm: boot timeout: kbench guest did not start "
				 "within boot_timeout = %u s", boot_timeout_s);
	} else if (total_to) {
		r = kb_xstrdup("vm: the guest ran past its time limit and was "
			       "killed before reporting this run");
	} else {
		r = kb_xstrdup("vm: the guest ended without reporting this run");
	}
	free(t);
	return r;
}

/* Record runs[] not reported by the guest as failed with reason. */
static int record_batch(struct kb_campaign *c, const size_t *runs, size_t n,
			const char *console, const char *reason,
			size_t *nfailed)
{
	char *ctext = NULL;
	size_t i, clen = 0;
	int ret = 0;

	if (console && kb_read_file(console, &ctext, &clen, 1))
		ctext = NULL;
	for (i = 0; i < n && !ret; i++) {
		const struct kb_run *r = &c->plan.runs[runs[i]];
		char *rdir = kb_run_dir(c->dir, r->key);
		char *mpath = kb_path_join(rdir, "metrics.json");
		char *cpath = kb_path_join(rdir, "console.log");
		struct results_run_ident id = {
			.configuration = c->plan.configs[r->config].id,
			.job = c->cfg.jobs[r->job],
			.iteration = r->iteration, .warmup = r->warmup };
		char *status = NULL, *why = NULL;

		/* the 9p guest wrote the campaign directory: a link it left
		 * on the run's path is not followed by root's writes */
		if (kb_run_dir_linked(c->dir, r->key)) {
			why = kb_xasprintf("vm: the guest left a symbolic link "
				"(or a file) on the path of %s; nothing written "
				"there, the run not counted", rdir);
			status = kb_xstrdup("failed");
			kb_warn("%s", why);
		} else {
			if (kb_mkdir_p(rdir) == 0 && ctext)
				kb_write_atomic(cpath, ctext, clen);
			ret = results_metrics_outcome(mpath, &id, reason,
						      &status, &why);
		}
		if (!ret)
			ret = campaign_record_result(c, r->key, status, why,
						     nfailed);
		free(status);
		free(why);
		free(rdir);
		free(mpath);
		free(cpath);
	}
	free(ctext);
	return ret;
}

/* NULL when only root and the trusted users can change path (lib/file.h
 * kb_path_trusted(), the rule of a kexec variant's kernel and initrd),
 * else the runs' failure reason (malloc'd): the 9p guest runs as root
 * with the host's root file system, so the kernel that boots it and the
 * modules it loads are as much root's as a kexec's.  what: "kernel",
 * "module", "module index". */
static char *vm_untrusted(const char *what, const char *path)
{
	char *untrusted = NULL, *r;

	if (!kb_path_trusted(path, &untrusted))
		return NULL;
	r = kb_xasprintf("vm: %s %s is not loaded: %s (only root and the "
			 "trusted users may be able to change what a vm guest "
			 "boots: it runs as root with the host's root file "
			 "system)", what, path, untrusted);
	free(untrusted);
	return r;
}

/* The modules this boot needs (names), by target: 9p over virtio, or
 * virtio_blk for the results disk of a self-contained guest. */
static size_t wanted_modules(const struct kb_config *cfg,
			     const struct kb_variant *v, int selfc,
			     const char **want)
{
	size_t n = 0;

	want[n++] = "virtio_pci";
	if (selfc) {
		want[n++] = "virtio_blk";
	} else {
		want[n++] = "9pnet_virtio";
		want[n++] = "9p";
	}
	if (v->disk) {
		if (!selfc)
			want[n++] = "virtio_blk";
	} else if (cfg->target_kind == KB_TARGET_NULLBLK)
		want[n++] = "null_blk";
	else if (cfg->target_kind == KB_TARGET_LOOP)
		want[n++] = "loop";
	return n;
}

/* The kernel option behind a missing 9p module. */
static const char *config_of(const char *module)
{
	return !strcmp(module, "9p") ? "CONFIG_NET_9P or CONFIG_9P_FS" :
	       "CONFIG_NET_9P_VIRTIO";
}

/* NULL when the modules in moddir give 9p over virtio (as modules or
 * built in), else the name of the one missing (malloc'd). */
static char *missing_9p(const char *moddir)
{
	const char *want[] = { "9p", "9pnet_virtio" };
	struct kb_modlist m;
	char *missing = NULL;
	int ret = modules_resolve(moddir, want, 2, &m, &missing);

	if (!ret)
		modules_free(&m);
	if (ret == -ENOENT && missing)
		return missing;
	free(missing);
	return NULL;	/* read errors: reported by the full resolve */
}

/* The self-contained guest's payload: fio and the campaign files
 * `kbench guest` reads (campaign.json, kernels.conf, profiles/, this
 * boot's runs.txt); kbench and the libraries go in either way.  0 or
 * -errno with a message. */
static int selfc_payload(const struct kb_campaign *c, const char *boot,
			 const char *keys, struct kb_guest_payload *g,
			 struct kb_pathlist *files, char **fio)
{
	char *pdir = kb_path_join(c->dir, "profiles"), *rel;
	DIR *d;
	struct dirent *e;

	*fio = kb_which("fio");
	if (!*fio) {
		kb_error("vm: the self-contained guest needs fio on the host "
			 "(apt-get install fio)");
		free(pdir);
		return -ENOENT;
	}
	pathlist_add(files, "campaign.json");
	pathlist_add(files, "kernels.conf");
	d = opendir(pdir);
	while (d && (e = readdir(d))) {
		struct stat st;
		char *full = kb_path_join(pdir, e->d_name);

		if (e->d_name[0] != '.' && !stat(full, &st) &&
		    S_ISREG(st.st_mode)) {
			rel = kb_path_join("profiles", e->d_name);
			pathlist_add(files, rel);
			free(rel);
		}
		free(full);
	}
	if (d)
		closedir(d);
	free(pdir);
	rel = kb_xasprintf("boots/%s/runs.txt", strrchr(boot, '/') + 1);
	pathlist_add(files, rel);
	free(rel);
	g->fio = *fio;
	g->files = files;
	g->runs_file = keys;
	return 0;
}

/* Self-contained guest, after QEMU: the results archive on the results
 * disk into the campaign directory.  0 (extracted, or nothing there: the
 * console says why), or -EINVAL with *why (refused). */
static int selfc_collect(struct kb_campaign *c, const size_t *runs, size_t n,
			 const char *img, char **why)
{
	const char **kv = kb_xcalloc(n, sizeof(*kv));
	size_t i, nfiles = 0;
	int ret;

	for (i = 0; i < n; i++)
		kv[i] = c->plan.runs[runs[i]].key;
	ret = results_extract(img, c->dir, kv, n, &nfiles, why);
	free(kv);
	if (!ret) {
		kb_info("vm: %zu file(s) back from the guest's results disk",
			nfiles);
		unlink(img);
	} else if (ret == -ENODATA) {
		free(*why);
		*why = NULL;
		ret = 0;
		unlink(img);
	} else {
		kb_warn("vm: the results archive from the guest was refused "
			"(kept in %s): %s", img, *why);
		ret = -EINVAL;
	}
	return ret;
}

/* NULL when the 9p guest, given PATH gpath (kb_guest_path()), runs the
 * fio this host runs (kb_which: the one whose version campaign.json
 * records), or neither has one (the runs then fail as they do on the
 * host: "fio is not installed"); else the variant's failure reason
 * (malloc'd).  The guest sees the host's root but its own tmpfs on /tmp
 * and /run, no relative PATH entry and at most KB_GUEST_PATH_MAX bytes
 * of the host's: a host fio found there, behind such an entry or past
 * that, is not the guest's, which ran whatever fio came next in PATH;
 * and a host without fio in PATH records no fio version, while the
 * guest's usual directories may hold one (found by helpers' trials,
 * 2026-12-04).  *guest_fio: the fio the guest's PATH finds (malloc'd),
 * or NULL. */
static char *guest_fio_differs(const char *gpath, char **guest_fio)
{
	char *hf = kb_which("fio"), *gf = kb_path_which(gpath, "fio");
	char *hr = hf ? realpath(hf, NULL) : NULL;
	char *gr = gf ? realpath(gf, NULL) : NULL, *why = NULL;
	int gtmp = gr && kb_guest_tmpfs_path(gr);

	if (!hf && gf)
		why = kb_xasprintf("vm: fio is not in this host's PATH (the "
			"campaign records no fio version), but the guest would "
			"run %s: install fio, or put its directory (absolute) "
			"in PATH", gf);
	else if (hf && (!gr || !hr || strcmp(hr, gr) || gtmp)) {
		char *runs = !gf ? kb_xstrdup("the guest would find no fio in "
					      "its PATH") :
			     gtmp ? kb_xasprintf("the guest's PATH finds %s, "
					"which leads into /tmp or /run, not "
					"there in the guest", gf) :
			     kb_xasprintf("the guest would run %s", gf);

		why = kb_xasprintf("vm: %s, not this host's fio %s (the one "
			"whose version the campaign records): the guest mounts "
			"its own tmpfs on /tmp and /run, ignores relative PATH "
			"entries and gets the first %d bytes of PATH; install "
			"fio outside /tmp and /run, or put its directory "
			"(absolute) first in PATH", runs, hr ? hr : hf,
			KB_GUEST_PATH_MAX);
		free(runs);
	}
	free(hf);
	free(hr);
	free(gr);
	*guest_fio = gf;
	return why;
}

/* What vm_run_batch() says once per variant of the process (a campaign
 * boots each variant once per round): 1 the first time said_first(vi,
 * what) is asked, 0 after. */
enum { SAID_MEMORY = 1, SAID_NO_9P = 2, SAID_GUEST_KBENCH = 4,
       SAID_GUEST_FIO = 8 };

static int said_first(size_t vi, unsigned what)
{
	static unsigned char said[KB_MAX_VARIANTS];

	if (vi >= KB_MAX_VARIANTS)	/* kconf allows no more */
		return 1;
	if (said[vi] & what)
		return 0;
	said[vi] |= (unsigned char)what;
	return 1;
}

int vm_run_batch(struct kb_campaign *c, const size_t *runs, size_t n,
		 size_t *nfailed)
{
	const struct kb_config *cfg = &c->cfg;
	size_t vi = c->plan.configs[c->plan.runs[runs[0]].config].variant;
	const struct kb_variant *v = &cfg->variants[vi];
	const char *want[8];
	struct kb_kernel k = { 0 };
	struct kb_modlist mods = { 0 };
	char *boot = NULL, *keys = NULL, *initrd = NULL, *console = NULL;
	char *qlog = NULL, *exe = NULL, *missing = NULL, *reason = NULL;
	char *append = NULL, *e;
	struct kb_argv qa = KB_ARGV_INIT;	/* QEMU's argv */
	char *keytext = NULL, *pinned = NULL, *why9p = NULL, *img = NULL;
	char *fio = NULL, *pvh = NULL, *pvh_why = NULL;
	char *refused = NULL, *adir = NULL, *sigwhy = NULL;
	struct kb_pathlist libs = { 0 }, files = { 0 };
	struct kb_guest_payload payload = { 0 };
	size_t i, klen = 0, nwant;
	FILE *kf;
	int ret, kvm = 0, boot_to = 0, total_to = 0, qstatus = -1, selfc;
	int kvm_error = 0;
	int dry = kb_driver_dry_run, strip_sig = 0;
	struct kb_accel_choice accel = { 0 };
	struct kb_guest_kbench gk = { 0 };
	double total_s;		/* unsigned, it wrapped for long runs */
	double t_start, started_s = -1, first_run_s = -1;

	*nfailed = 0;
	/* the guest names the campaign by its absolute path (its --dir,
	 * the 9p share): -o DIR may be relative to where kbench runs */
	adir = realpath(c->dir, NULL);
	ret = adir ? 0 : -errno;
	if (!adir && dry) {
		/* not created by a dry run: named from the working directory */
		char *cwd = getcwd(NULL, 0);

		adir = c->dir[0] == '/' || !cwd ? kb_xstrdup(c->dir) :
			kb_path_join(cwd, c->dir);
		free(cwd);
	}
	if (!adir) {
		kb_error("vm: campaign directory %s: %s", c->dir,
			 strerror(-ret));
		return ret;
	}
	/* --dry-run writes nothing: the boot directory is only named */
	boot = dry ? kb_xasprintf("%s/boots/NNN-%s", adir, v->name) :
		     vm_new_boot_dir(adir, v->name);
	if (!boot) {
		free(adir);
		return -EIO;
	}
	keys = kb_path_join(boot, "runs.txt");
	initrd = kb_path_join(boot, "initramfs.cpio");
	img = kb_path_join(boot, "results.img");
	console = kb_path_join(boot, "console.log");
	qlog = kb_path_join(boot, "qemu.log");
	/* the run list, and no stale metrics from an earlier attempt */
	kf = open_memstream(&keytext, &klen);
	for (i = 0; i < n; i++) {
		const struct kb_run *r = &c->plan.runs[runs[i]];
		char *mp = kb_run_file(c->dir, r->key, "metrics.json");

		fprintf(kf, "%s\n", r->key);
		if (!dry)
			unlink(mp);
		free(mp);
	}
	fclose(kf);
	ret = dry ? 0 : kb_write_atomic(keys, keytext, klen);
	if (ret)
		goto out;

	pinned = recorded_package(c, v);
	if (kernel_resolve_pinned(v, pinned, &k)) {
		reason = kb_xasprintf("vm: cannot get the kernel of variant "
				      "'%s' (kernel = %s); see the messages "
				      "above", v->name, v->kernel);
		goto record;
	}
	/* a local image (one downloaded lives in kbench's cache) */
	if (strncmp(v->kernel, "deb:", 4) && !kernel_is_url(v->kernel) &&
	    (reason = vm_untrusted("kernel", k.image)))
		goto record;
	ret = accel_choose(c, v, k.image, dry, &accel);
	if (ret)
		goto out;
	kvm = accel.kvm;
	if (accel.fail) {
		reason = kb_xstrdup(accel.reason);
		kb_warn("%s", accel.reason);
		goto record;
	}
	kb_info("vm: %s %s for %zu run(s) (%s)", dry ? "would boot" :
		"booting", v->name, n,
		kvm ? "KVM" : "TCG, emulated: slow, timings not representative");
	if (v->memory_mib < KB_VM_MEMORY_WORKS_MIB) {
		/* kconf takes 128M; fio did not load in less than this */
		if (said_first(vi, SAID_MEMORY))
			kb_warn("vm: %s: memory = %uM: a guest under %uM "
				"could not load fio's libraries here (Debian "
				"12's fio: \"cannot map zero-fill pages\" at "
				"160M, runs at 256M); raise memory = if its runs "
				"fail so", v->name, v->memory_mib,
				KB_VM_MEMORY_WORKS_MIB);
	}
	/* campaign.json is rewritten once per key recorded before the
	 * boot (about ten): without a sync each, then one syncfs before
	 * QEMU starts or the runs are recorded (lib/file.h) */
	if (!dry)
		kb_sync_defer_begin();
	ret = dry ? 0 : record_environment(c, v, &k, &accel);
	if (ret)
		goto out;
	/* the guest's root: the host's over 9p when the kernel has it,
	 * else (or with guest_root = initramfs) a self-contained initramfs */
	selfc = v->guest_root == KB_GUEST_ROOT_INITRAMFS;
	if (v->guest_root == KB_GUEST_ROOT_AUTO && k.moddir &&
	    (why9p = missing_9p(k.moddir))) {
		selfc = 1;
		if (said_first(vi, SAID_NO_9P))
			kb_info("vm: %s: kernel %s has no 9p (no module or "
				"built-in '%s' in %s: %s unset); using a "
				"self-contained guest (fio, kbench and their "
				"libraries in the initramfs, results back on a "
				"virtio disk)", v->name, k.release, why9p,
				k.moddir, config_of(why9p));
	}
	if (dry)
		printf("# %s: guest root: %s\n", v->name, selfc ?
		       "self-contained (initramfs)" : "9p (the host's)");
	if (!dry) {
		char *tr = why9p ? kb_xasprintf("kernel %s has no module or "
			"built-in '%s' (%s unset)", k.release, why9p,
			config_of(why9p)) :
			kb_xstrdup(v->guest_root != KB_GUEST_ROOT_AUTO ?
			(selfc ? "guest_root = initramfs" : "guest_root = 9p") :
			k.moddir ? "the kernel has 9p over virtio" :
			"no modules directory: 9p assumed built in");

		records_vm_variant_set(c->dir, v->name, "transport",
				       selfc ? "self-contained" : "9p");
		records_vm_variant_set(c->dir, v->name, "transport_reason", tr);
		free(tr);
	}
	nwant = wanted_modules(cfg, v, selfc, want);
	if (k.moddir) {
		ret = modules_resolve(k.moddir, want, nwant, &mods, &missing);
		if (ret == -ENOENT && missing) {
			reason = kb_xasprintf("vm: kernel %s has no module or "
				"built-in '%s' in %s (the vm driver needs virtio "
				"PCI and %s: CONFIG_VIRTIO_PCI, %s, and the "
				"target's driver)", k.release, missing, k.moddir,
				selfc ? "virtio block for the self-contained "
				"guest's results disk" : "9p over virtio",
				selfc ? "CONFIG_VIRTIO_BLK" :
				"CONFIG_NET_9P_VIRTIO, CONFIG_9P_FS");
			ret = 0;
			goto record;
		}
		if (ret) {
			reason = kb_xasprintf("vm: cannot read the modules of "
					      "%s in %s", k.release, k.moddir);
			ret = 0;
			goto record;
		}
		/* local modules: modules = DIR, /lib/modules (those of a
		 * deb: package or a modules = URL are in kbench's cache) */
		if (v->modules ? !kernel_is_url(v->modules) :
		    !strncmp(k.moddir, "/lib/modules/", 13)) {
			/* and the indexes that name them: a modules.dep
			 * anyone can write loads another file */
			static const char *const idx[] = { "modules.dep",
				"modules.builtin" };

			for (i = 0; i < 2 && !reason; i++) {
				char *f = kb_path_join(k.moddir, idx[i]);

				if (kb_exists(f))
					reason = vm_untrusted("module index",
							      f);
				free(f);
			}
			for (i = 0; i < mods.n && !reason; i++)
				reason = vm_untrusted("module", mods.path[i]);
		}
		if (reason)
			goto record;
		/* unsigned when the kernel allows it: its check of each
		 * signature cost a third of the modules' load under TCG */
		if (mods.n) {
			if (v->module_signatures == KB_VM_MODSIG_KEEP)
				sigwhy = kb_xstrdup("module_signatures = keep");
			else
				strip_sig = kernel_module_sig_strip(&k,
						v->cmdline, &sigwhy);
			if (dry)
				printf("# %s: module signatures %s: %s\n",
				       v->name, strip_sig ? "stripped" :
				       "kept", sigwhy);
			else {
				records_vm_variant_set(c->dir, v->name,
					"module_signatures", strip_sig ?
					"stripped" : "kept");
				records_vm_variant_set(c->dir, v->name,
					"module_signatures_reason", sigwhy);
			}
		}
	} else {
		kb_warn("vm: no modules directory for %s (modules = DIR); "
			"assuming virtio, %s and the target driver are built "
			"in%s", k.release, selfc ? "virtio block" : "9p",
			selfc ? "" : " (a kernel without 9p needs guest_root "
			"= initramfs then)");
	}
	if (selfc && !dry && selfc_payload(c, boot, keys, &payload, &files,
					   &fio)) {
		reason = kb_xstrdup("vm: cannot gather what the self-contained "
				    "guest needs; see the messages above");
		goto record;
	}
	/* this kbench, from the initramfs in either guest (its first exec
	 * over 9p cost 0.2-0.3 s under TCG) */
	exe = kb_self_exe();
	if (!exe) {
		reason = kb_xstrdup("vm: cannot find this kbench binary "
				    "(/proc/self/exe) for the guest");
		goto record;
	}
	/* its static twin when one of the same build is there (no shared
	 * libraries to unpack and load: runner/guest_binary.h) */
	guest_kbench_find(exe, &gk);
	if (dry)
		printf("# %s: guest kbench: %s%s%s\n", v->name, gk.path,
		       gk.is_static ? " (static)" : ", with its libraries: ",
		       gk.is_static ? "" : gk.why);
	else {
		records_vm_variant_set(c->dir, v->name, "guest_kbench",
				       gk.path);
		records_vm_variant_set(c->dir, v->name, "guest_kbench_reason",
				       gk.is_static ? "static, this kbench's "
				       "build (no shared libraries)" : gk.why);
		if (!gk.is_static && said_first(vi, SAID_GUEST_KBENCH))
			kb_info("vm: %s: the guest gets this kbench and its "
				"shared libraries: %s", v->name, gk.why);
	}
	if (!dry) {
		/* the static twin needs none: ldd only for fio, if any */
		const char *bins[2] = { gk.path, fio };
		size_t nb = fio ? 2 : 1, skip = gk.is_static ? 1 : 0;

		if (nb > skip && initramfs_libs(bins + skip, nb - skip,
						&libs)) {
			reason = kb_xasprintf("vm: cannot list the libraries of "
				"%s for the guest; see the messages above",
				skip ? "fio" : fio ? "kbench and fio" :
				"kbench");
			goto record;
		}
	}
	{
		/* the 9p guest looks fio and perf up in the host's $PATH
		 * (runner/guest_setup.h kb_guest_path()); the self-contained
		 * one has its fio at /usr/bin/fio */
		char *gpath = selfc ? NULL : kb_guest_path(getenv("PATH"));
		char *gfio = NULL;
		char *why_fio = gpath ? guest_fio_differs(gpath, &gfio) : NULL;
		const char *gargv[] = { "/usr/bin/kbench",
			"guest", "--dir", adir, "--variant", v->name, "--runs",
			keys, gpath ? "--path" : NULL, gpath, NULL };
		struct kb_initramfs_opts io = {
			.kbench = gk.path,
			.libs = &libs,
			.mods = &mods,
			.nullblk_params = cfg->target_kind == KB_TARGET_NULLBLK &&
				!v->disk ? (cfg->nullblk_params ?
				cfg->nullblk_params : "") : NULL,
			.results_dir = adir,
			.guest_argv = gargv,
			.payload = selfc ? &payload : NULL,
			.kbench_init = gk.is_static,
			.strip_module_sig = strip_sig,
		};

		if (why_fio) {
			reason = why_fio;
			free(gfio);
			free(gpath);
			goto record;
		}
		if (gfio && said_first(vi, SAID_GUEST_FIO))
			kb_info("vm: %s: the guest runs %s (the host's fio, "
				"through the host's root)", v->name, gfio);
		free(gfio);
		if (!dry && initramfs_build(initrd, &io)) {
			reason = kb_xstrdup("vm: cannot build the initramfs; "
					    "see the messages above");
			free(gpath);
			goto record;
		}
		free(gpath);
	}

	append = kb_qemu_guest_cmdline(v->name, v->cmdline, kvm);
	kb_argv_pushl(&qa, QEMU, "-nodefaults", "-no-user-config",
		      "-display", "none", "-no-reboot", "-machine", NULL);
	/* TCG runs its vCPUs in one thread (thread=single): with one host
	 * thread per vCPU (QEMU 7.2's default), Linux 6.12's live text
	 * patching (text_poke_bp(), arch/x86/kernel/alternative.c) was
	 * seen to leave another vCPU executing a stale int3 after the
	 * patch completed: "Oops: int3" in __schedule or enqueue_timer,
	 * in 1 of 8 to 3 of 5 boots here.  One thread is slower with
	 * many vCPUs; TCG timings are not representative either way. */
	if (kvm)
		kb_argv_push(&qa, "pc,accel=kvm");
	else
		kb_argv_pushl(&qa, "pc", "-accel", "tcg,thread=single", NULL);
	kb_argv_pushl(&qa, "-cpu", kvm ? "host" : "max", "-m", NULL);
	kb_argv_pushf(&qa, "%u", v->memory_mib);
	kb_argv_push(&qa, "-smp");
	kb_argv_pushf(&qa, "%u", v->cpus);
	/* the kernel's ELF through its PVH entry, about 4 s sooner under
	 * TCG than the bzImage decompressing itself (runner/vmlinux.h);
	 * the bzImage when it cannot boot that way, said once a boot */
	if (v->boot == KB_VM_BOOT_BZIMAGE) {
		pvh_why = kb_xstrdup("boot = bzimage");
	} else if (kb_vmlinux_for_pvh(k.image, dry, &pvh, &pvh_why) &&
		   v->boot == KB_VM_BOOT_PVH && !dry) {
		reason = kb_xasprintf("vm: boot = pvh, but %s cannot boot "
				      "through its PVH entry: %s", k.image,
				      pvh_why);
		kb_warn("%s", reason);
		goto record;
	} else if (!pvh) {
		kb_info("vm: %s: booting the bzImage %s: %s", v->name,
			k.image, pvh_why);
	}
	kb_argv_pushl(&qa, "-kernel", pvh ? pvh : k.image, "-initrd", initrd,
		      "-append", append, "-serial", NULL);
	kb_argv_pushf(&qa, "file:%s", console);
	if (!selfc) {
		e = qemu_escape(adir);
		kb_argv_pushl(&qa, "-virtfs", "local,path=/,mount_tag=hostroot,"
			      "security_model=none,readonly=on,multidevs=remap",
			      "-virtfs", NULL);
		kb_argv_pushf(&qa, "local,path=%s,mount_tag=kbresults,"
			      "security_model=none,multidevs=remap", e);
		free(e);
	}
	if (v->disk) {
		/* the guest's /dev/vda: the first virtio disk */
		e = qemu_escape(v->disk);
		kb_argv_push(&qa, "-drive");
		kb_argv_pushf(&qa, "file=%s,%s,format=raw,cache=none", e,
			      selfc ? "if=none,id=kbtarget" : "if=virtio");
		free(e);
		if (selfc)
			kb_argv_pushl(&qa, "-device",
				      "virtio-blk-pci,drive=kbtarget", NULL);
	}
	if (selfc) {
		/* the results disk: the last virtio disk, found by its
		 * serial (-drive serial= was removed in QEMU 3.0: the
		 * device takes it).  With a target disk both are -device,
		 * in this order, so the target stays /dev/vda. */
		unsigned long long sz = (64ULL << 20) + (32ULL << 20) * n;

		if (!dry && results_disk_create(img, sz)) {
			reason = kb_xstrdup("vm: cannot create the results "
					    "disk; see the messages above");
			goto record;
		}
		e = qemu_escape(img);
		kb_argv_push(&qa, "-drive");
		kb_argv_pushf(&qa, "file=%s,if=none,id=kbresults,format=raw", e);
		free(e);
		kb_argv_pushl(&qa, "-device", "virtio-blk-pci,drive=kbresults,"
			      "serial=" KB_RESULTS_SERIAL, NULL);
	}
	{
		char **argv = qa.v;
		size_t ac = qa.n;

		if (dry) {
			printf("# %s: %s\n", v->name, accel.reason);
			/* to paste: cmdline = a`id` is no command */
			kb_sh_line(stdout, argv);
			ret = 0;
			goto out;
		}
		records_vm_variant_set_argv(c->dir, v->name, "qemu_argv",
					    (const char *const *)argv, ac);
		/* how the kernel was booted, and why not through PVH */
		records_vm_variant_set(c->dir, v->name, "boot",
				       pvh ? "pvh" : "bzimage");
		if (!pvh && pvh_why)
			records_vm_variant_set(c->dir, v->name, "boot_reason",
					       pvh_why);
		total_s = v->boot_timeout_s + (double)n *
			  ((double)cfg->runtime_s + cfg->timeout_grace_s + 30);
		kb_sync_defer_end(c->dir);
		t_start = kb_mono_s();
		{
			struct kb_qemu_watch qw = { .console = console,
				.needle = GUEST_STARTED,
				.mark = GUEST_FIRST_RUN,
				.needle_by_s = v->boot_timeout_s,
				.total_s = total_s,
				.log_stop = kvm ? KB_QEMU_KVM_ERROR : NULL };
			struct kb_qemu_result qr;

			ret = kb_qemu_run(argv, qlog, &qw, &qr);
			if (ret)
				goto out;	/* -EINTR: nothing recorded */
			kvm_error = qr.log_stopped;
			boot_to = qr.killed_needle;
			total_to = qr.killed_total;
			qstatus = qr.exited ? qr.exit_status : -1;
			started_s = qr.needle_s;
			first_run_s = qr.mark_s;
		}
		/* the 9p guest could write the campaign directory: its boot
		 * directory still the one made for it, or nothing more is
		 * written or removed there */
		if (kb_real_dirs(adir, boot + strlen(adir))) {
			reason = kb_xasprintf("vm: %s is no longer the directory "
				"kbench made for this boot (the guest replaced "
				"it, with a symbolic link say); nothing written "
				"there", boot);
			kb_warn("%s", reason);
			free(initrd);
			initrd = NULL;	/* not unlinked through it */
			goto record;
		}
		/* for the ETA of later boots (runner/plan.h) */
		records_boot_timing_save(boot, kvm ? "kvm" : "tcg",
					 kb_mono_s() - t_start, n, started_s,
					 first_run_s);
	}
	if (selfc && selfc_collect(c, runs, n, img, &refused) == -EINVAL) {
		reason = kb_xasprintf("vm: the results archive from the guest "
				      "was refused: %s", refused);
		goto record;
	}
	reason = console_reason(console, boot_to, total_to, v->boot_timeout_s);
	if (kvm_error) {
		/* QEMU paused the guest: the console stops wherever it was */
		char *l = kb_qemu_log_line(qlog, KB_QEMU_KVM_ERROR, 120);

		free(reason);
		reason = kb_xasprintf("vm: QEMU stopped the guest: \"%s\" "
				      "(KVM; its register dump is in %s; accel "
				      "= tcg boots without KVM)",
				      l ? l : KB_QEMU_KVM_ERROR, qlog);
		free(l);
	} else if (!kb_file_contains(console, GUEST_STARTED) &&
		   !strstr(reason, "panic") && kb_file_size(console) <= 0) {
		char *said = kb_qemu_last_line(qlog, 300);

		free(reason);
		if (boot_to)
			reason = kb_xasprintf("vm: no console output: the "
				"kernel did not start within boot_timeout = "
				"%u s (%s; QEMU killed) / stderr: %s",
				v->boot_timeout_s, kvm ? "KVM" : "TCG",
				said ? said : "(QEMU printed nothing)");
		else
			reason = kb_xasprintf("vm: no console output: the "
				"kernel did not start; QEMU exited with status "
				"%d / stderr: %s", qstatus,
				said ? said : "(QEMU printed nothing)");
		free(said);
	} else if (!kb_file_contains(console, GUEST_STARTED) && !boot_to &&
		   qstatus != 0 && !strstr(reason, "panic")) {
		free(reason);
		reason = kb_xasprintf("vm: %s exited with status %d before the "
				      "guest started; see %s", QEMU, qstatus,
				      qlog);
	}
record:
	kb_sync_defer_end(c->dir);	/* before the runs are recorded */
	if (dry) {	/* nothing is recorded by a dry run */
		if (reason) {
			printf("# %s: its runs would fail: %s\n", v->name,
			       reason);
			kb_driver_dry_failures++;
		}
		ret = 0;
		goto out;
	}
	ret = record_batch(c, runs, n, kb_exists(console) ? console : NULL,
			   reason ? reason : "vm: no reason", nfailed);
	if (!ret)
		record_guest_view(c, v->name, runs, n);
out:
	kb_sync_defer_end(c->dir);	/* a goto out before the boot */
	if (initrd && !dry)
		unlink(initrd);
	if (img && !dry && !refused)
		unlink(img);	/* kept only when its archive was refused */
	accel_choice_free(&accel);
	free(sigwhy);
	kb_argv_clear(&qa);
	pathlist_free(&libs);
	pathlist_free(&files);
	free(fio);
	free(why9p);
	free(img);
	free(refused);
	kernel_free(&k);
	modules_free(&mods);
	free(pinned);
	free(boot);
	free(keys);
	free(keytext);
	free(initrd);
	free(console);
	free(qlog);
	free(exe);
	free(missing);
	free(reason);
	free(append);
	free(adir);
	guest_kbench_free(&gk);
	free(pvh);
	free(pvh_why);
	return ret;
}
