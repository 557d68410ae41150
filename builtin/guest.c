/* builtin/guest.c - `kbench guest`: inside a vm variant's boot, run
 * the runs the host planned for it (runner/driver_vm.c starts it from
 * the initramfs /init, runner/initramfs.c).
 *
 * The campaign directory is the host's, shared read-write at the same
 * path.  Each run is done exactly as `kbench run` does it on the running
 * kernel (runner/run_exec.h: tunables, cache drop, collectors, fio) and
 * its metrics.json written into runs/KEY/; the host records the state
 * after the guest powers off, so state.json has one writer.  Tunables are
 * saved in the guest's /tmp (they reset with the guest anyway), never in
 * the shared directory, so a host `kbench run` never "restores" a guest
 * path on the host.
 */
#include "builtin/builtin.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"
#include "runner/campaign.h"
#include "runner/drivers.h"
#include "runner/guest_setup.h"
#include "runner/run_exec.h"
#include "runner/target.h"
#include "runner/tunables.h"
#include "results/run_metrics.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/utsname.h>
#include <time.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench guest [SETUP] --dir DIR --variant NAME --runs FILE\n"
"       kbench guest SETUP [--dir DIR] --setup-only\n"
"\n"
"Run inside a guest booted by the vm driver (method = vm): do the runs\n"
"listed in FILE (one run key per line, CONFIG/JOB/NNN) of the campaign in\n"
"DIR, as `kbench run` does them on the running kernel, and write each\n"
"run's artifacts and metrics.json under DIR/runs/.  The host records them\n"
"in state.json after the guest powers off.  Not meant to be run by hand.\n"
"\n"
"options:\n"
"      --dir DIR       the campaign directory (the host's path)\n"
"      --variant NAME  the variant this boot is\n"
"      --runs FILE     the run keys of this boot\n"
"      --path PATH     the PATH after the chroot of --mount-9p: the host's\n"
"                      (its fio and perf), default the usual sbin and bin\n"
"                      directories\n"
"\n"
"SETUP (what the initramfs /init asks for first, in this order; each step\n"
"on its own timestamped console line):\n"
"      --load-module 'FILE [NAME=VALUE ...]'\n"
"                      load a kernel module (finit_module(2), insmod's\n"
"                      syntax); repeated, in load order\n"
"      --mount-9p ROOT mount the host's root (9p tag hostroot, read-only)\n"
"                      at ROOT with /proc, /sys, /dev, /dev/pts, /tmp and\n"
"                      /run in it and DIR (9p tag kbresults) at its path,\n"
"                      then chroot there with a clean environment\n"
"      --setup-only    stop after the setup, without the chroot (the\n"
"                      init=PROG debugging path)\n"
"  -h, --help          this text\n"
"\n"
"exit status: 0 every listed run was done (a failed run is recorded in its\n"
"metrics.json, not in the status); 1 an error (bad options, the campaign,\n"
"the target, a tunable that cannot be restored): the host fails this\n"
"boot's runs with the console log.\n");
}

static const struct kb_run *find_run(const struct kb_campaign *c,
				     const char *key)
{
	size_t i;

	for (i = 0; i < c->plan.nruns; i++)
		if (!strcmp(c->plan.runs[i].key, key))
			return &c->plan.runs[i];
	return NULL;
}

/* Record a run that could not be done at all (bad tunable, ...). */
static int write_failed(const char *rdir,
			const struct results_run_ident *id, const char *reason)
{
	char *mpath = kb_path_join(rdir, "metrics.json");
	int ret = results_metrics_write_failed(mpath, id, reason);

	free(mpath);
	return ret;
}

/* A line on the guest's console (stderr), after the seconds since the
 * kernel started ([    1.234567], CLOCK_BOOTTIME as /proc/uptime and the
 * initramfs's say()), so the boot log shows where the time goes. */
static void guest_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void guest_say(const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	fprintf(stderr, "[%5ld.%06ld] kbench guest: ", (long)ts.tv_sec,
		ts.tv_nsec / 1000);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}


const struct option kb_guest_options[] = {
	{ "dir", required_argument, NULL, 'd' },
	{ "variant", required_argument, NULL, 'v' },
	{ "runs", required_argument, NULL, 'r' },
	{ "load-module", required_argument, NULL, 'm' },
	{ "mount-9p", required_argument, NULL, '9' },
	{ "path", required_argument, NULL, 'p' },
	{ "setup-only", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_guest_shortopts[] = "h";
const struct kb_arg_spec kb_guest_args[] = {
	{ "dir", KB_ARG_CAMPAIGN, NULL },
	{ "runs", KB_ARG_FILE, NULL },
	{ "load-module", KB_ARG_FILE, NULL },
	{ "mount-9p", KB_ARG_DIR, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_guest(int argc, char **argv)
{
	const char *dir = NULL, *variant = NULL, *runs = NULL;
	const char *root9p = NULL, *path = NULL;
	const char **mods = NULL;
	size_t nmods = 0, m;
	int setup_only = 0;
	char *keys = NULL, *line, *save = NULL, *tmpdir = NULL;
	struct kb_campaign c;
	struct kb_target t;
	struct kb_tunables tu;
	struct utsname u;
	int o, ret = 1, have_target = 0, drop_warned = 0, err;
	size_t done = 0, failed = 0;

	memset(&c, 0, sizeof(c));
	memset(&tu, 0, sizeof(tu));
	optind = 1;
	while ((o = getopt_long(argc, argv, kb_guest_shortopts, kb_guest_options, NULL)) != -1) {
		switch (o) {
		case 'd':
			dir = optarg;
			break;
		case 'v':
			variant = optarg;
			break;
		case 'r':
			runs = optarg;
			break;
		case 'm':
			mods = kb_xrealloc(mods, (nmods + 1) * sizeof(*mods));
			mods[nmods++] = optarg;
			break;
		case '9':
			root9p = optarg;
			break;
		case 'p':
			path = optarg;
			break;
		case 's':
			setup_only = 1;
			break;
		case 'h':
			usage(stdout);
			free(mods);
			return 0;
		default:	/* getopt said which option */
			kb_bad_option("guest", kb_guest_options, argv[optind - 1]);
			free(mods);
			return 1;
		}
	}
	if (optind < argc || (setup_only ? (variant || runs ||
					    (root9p && !dir)) :
			      (!dir || !variant || !runs))) {
		kb_error("kbench guest needs --dir, --variant and --runs, or "
			 "with --setup-only only the setup options (and --dir "
			 "with --mount-9p); see kbench guest --help");
		free(mods);
		return 1;
	}
	/* the setup: a timestamped line before each step, an error line
	 * the host names as the boot's reason (runner/driver_vm.c) */
	for (m = 0; m < nmods; m++) {
		guest_say("loading module %s", mods[m]);
		if (kb_guest_load_module(mods[m])) {
			guest_say("error: cannot load %s (see above)", mods[m]);
			free(mods);
			return 1;
		}
	}
	free(mods);
	if (root9p) {
		guest_say("mounting the host's root (9p) at %s", root9p);
		if (kb_guest_mount_9p(root9p, dir) ||
		    (!setup_only && kb_guest_enter_root(root9p, path))) {
			guest_say("error: cannot mount the host's root and the "
				  "campaign directory (see above)");
			return 1;
		}
	}
	if (setup_only)
		return 0;
	kb_guest_variant = variant;
	uname(&u);
	/* the host waits for this line on the console (boot_timeout) */
	guest_say("started: variant %s, kernel %s",
		variant, u.release);
	{
		char *cj = kb_path_join(dir, "campaign.json");
		int ok = kb_exists(cj);

		free(cj);
		if (!ok) {
			kb_error("%s: no campaign.json (is the host's campaign "
				 "directory mounted here?)", dir);
			goto out;
		}
	}
	if (campaign_open_guest(&c, dir))
		goto out;
	if (kb_read_file(runs, &keys, NULL, 0))
		goto out;
	{
		size_t v;

		for (v = 0; v < c.cfg.nvariants; v++)
			if (!strcmp(c.cfg.variants[v].name, variant))
				break;
		if (v == c.cfg.nvariants) {
			kb_error("%s: no variant '%s' in the campaign", dir,
				 variant);
			goto out;
		}
		if (c.cfg.variants[v].disk) {
			/* the host's disk = PATH is the guest's /dev/vda */
			free(c.cfg.target);
			c.cfg.target = kb_xstrdup("/dev/vda");
			c.cfg.target_kind = KB_TARGET_DEVICE;
		}
	}
	tmpdir = kb_xstrdup("/tmp/kbench-guest");
	if (kb_mkdir_p(tmpdir))
		goto out;
	/* the campaign's read (from "started"), the target's open (to the
	 * first "run"): each step's cost in the boot log (issue 16) */
	guest_say("opening the target %s", c.cfg.target ? c.cfg.target : "?");
	if (tunables_restore_orphans() || target_open(&c.cfg, tmpdir, &t))
		goto out;
	have_target = 1;
	if (tunables_init(&tu, &c.cfg, &t, tmpdir))
		goto out;
	/* no fsync over 9p: the host syncs its file system after the boot,
	 * before it records the runs (lib/file.h's durability rule) */
	kb_sync_defer_begin();
	for (line = strtok_r(keys, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const struct kb_run *r = find_run(&c, line);
		const struct kb_configuration *k;
		struct json_t *result = NULL;
		struct results_run_ident id = { 0 };
		struct results_run_kernel kern = { .guest = 1 };
		char *rdir, *mpath, *pv = NULL;
		const char *s;

		if (!r) {
			kb_warn("%s: run '%s' is not in the plan; skipped", runs,
				line);
			continue;
		}
		k = &c.plan.configs[r->config];
		id.configuration = k->id;
		id.job = c.cfg.jobs[r->job];
		id.iteration = r->iteration;
		id.warmup = r->warmup;
		guest_say("run %s", r->key);
		rdir = kb_run_dir(dir, r->key);
		if (kb_mkdir_p(rdir)) {
			free(rdir);
			goto out;
		}
		if (tunables_apply(&tu, &c.cfg, k)) {
			err = write_failed(rdir, &id, "guest: cannot set the "
					   "tunables (see console.log)");
			free(rdir);
			if (err)
				goto out;
			failed++;
			continue;
		}
		err = do_run(&c, r, &t, &tu, rdir, &result, &drop_warned);
		if (err) {
			free(rdir);
			goto out;
		}
		kern.release = u.release;
		/* the build as the guest saw it (identity, not the release
		 * alone: two builds can share `uname -r`) */
		if (!kb_read_file("/proc/version", &pv, NULL, 1)) {
			pv[strcspn(pv, "\n")] = '\0';
			kern.proc_version = pv;
		}
		mpath = kb_path_join(rdir, "metrics.json");
		err = results_metrics_write(mpath, result, &id, &kern);
		free(pv);
		s = results_metrics_status(result);
		if (s && strcmp(s, "ok"))
			failed++;
		guest_say("run %s: %s", r->key,
			s ? s : "?");
		results_metrics_free(result);
		free(mpath);
		free(rdir);
		if (err)
			goto out;
		done++;
	}
	guest_say("done: %zu run(s), %zu failed", done,
		failed);
	ret = 0;
out:
	kb_sync_defer_drop();
	if (tunables_restore(&tu))
		ret = 1;
	tunables_free(&tu);
	if (have_target)
		target_close(&t);
	campaign_close(&c);
	free(keys);
	free(tmpdir);
	return ret;
}
