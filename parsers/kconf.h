/* parsers/kconf.h - kernels.conf, the campaign description.
 *
 * Format: INI in the dialect of fio job files (fio HOWTO, "Job file
 * format"): "[section]" headers, "key=value" or "key = value" lines,
 * ';' or '#' starting a comment line, blank lines ignored, ${VAR}
 * expanded from the environment.  [global] holds the campaign's
 * settings; every other section is one variant (kernel under test).
 *
 *   [global]
 *   jobs = randread-4k seqwrite-1m-direct   ; names of profiles/NAME.fio
 *   iterations = 3          ; counted runs per (configuration, job)
 *   warmup = 1              ; runs discarded before the counted ones
 *   runtime = 5             ; seconds, overrides the job file (KBENCH_RUNTIME)
 *   order = interleave      ; interleave | block | random
 *   seed = 42               ; for order = random
 *   target = loop:256M      ; block device path, loop:SIZE, or file:PATH
 *   tunable NM = queue/nomerges: 0 1 2
 *   sweep numjobs = 1 2 4 8 ; a job parameter: KBENCH_NUMJOBS in the job
 *   baseline = stock,NM=0   ; configuration id; default: the first
 *   timeout_grace = 30      ; seconds added to runtime before fio is killed
 *   profiles = profiles     ; directory holding the job files (default:
 *                           ; see kconf_find_profiles)
 *   layouts = rounds        ; more tables in report.txt/.md (seed 002's)
 *   prefix = auto           ; their values as 4310k IOPS, MiB/s, us
 *                           ; (kbench report --prefix; default none)
 *   profile = cycles,dcm    ; perf record -a sampling (collect_profile.c)
 *   profile_runs = 1        ; profiling runs per configuration, job, round
 *   profile_during = profiling-runs ; or counted-runs (see below)
 *   keep = perf.data        ; also keep perf record's raw data
 *   task group kswapd = kswapd*  ; comm globs for task.NAME.cpu_pct
 *   push = http://127.0.0.1:8086/write?db=kbench ; results store, pushed
 *                           ; after every completed run (push/push.h)
 *
 *   [stock]
 *   method = local          ; local, vm or kexec
 *   release = 6.1.0-13-amd64 ; `uname -r` the variant must be running
 *
 *   [new]                   ; keys of method = vm and kexec
 *   method = vm
 *   kernel = deb:linux-image-amd64 ; or a bzImage path
 *   modules = /tmp/mods/lib/modules/6.12.0 ; vm: modules of that kernel
 *   initrd = /boot/initrd.img-6.12.0       ; kexec only
 *   cmdline = mitigations=off ; appended to the kernel command line
 *   memory = 1G  cpus = 2   ; vm guest size (one key per line)
 *   disk = /dev/nvme0n1     ; vm: passed as the guest's /dev/vda target
 *   boot_timeout = 120      ; seconds until the guest must have reported
 *   accel = auto            ; vm: auto | kvm | tcg (also in [global];
 *                           ; KBENCH_ACCEL in the environment wins)
 *
 *   [global] kvm_probe_timeout = 20 ; seconds the KVM probe waits for the
 *                           ; kernel's "Linux version" line (runner/accel.h)
 *   [global] calibration = cal/calibration.json ; what `kbench calibrate
 *                           ; -o cal` measured: plan prints the rounds
 *                           ; needed, iterations = auto starts there
 *                           ; (relative to this file's directory)
 *   [global] plot_png = yes ; DIR/plots/ has a PNG beside each SVG
 *   [global] drop_caches = all ; before each run, free dentries and
 *                           ; inodes too (3), not only the page cache
 *                           ; (pagecache, 1: the default)
 *   [global] allow_page_cache = yes ; count runs whose buffered reads
 *                           ; likely measured the page cache (flagged
 *                           ; "suspect", parsers/fio_json.h); default no:
 *                           ; they are kept out of every comparison
 *
 * target = null_blk: queue_mode=2 irqmode=0 ... uses /dev/nullb0 with
 * those module parameters.
 *
 * Every value that becomes another program's argument is checked here,
 * so nothing that looks like an option reaches its argv: module
 * parameters are NAME=VALUE words (kconf_module_param_ok()), a
 * deb:PACKAGE is a package name or glob starting with a letter or digit,
 * a relative path given without a directory in the conf's name gets
 * "./" when it starts with '-', and file:PATH has no ':' (fio's
 * separator of several files).  Absolute tunable paths start with /sys/
 * or /proc/; runner/tunables.h has the rule for what is written (which
 * under /proc is /proc/sys only, after resolving links).
 *
 * A list value (jobs, profile, keep, hosts, layouts, target_metrics)
 * is names separated by commas and/or blanks; an empty item (a comma
 * first, last or after another with only blanks between) is an error,
 * in baseline's VARIANT,LABEL=VALUE... too.
 *
 * Errors name "FILE:LINE: " and the offending key/value.
 */
#ifndef KB_KCONF_H
#define KB_KCONF_H

#include <stddef.h>
#include <stdio.h>

#define KB_MAX_TUNABLES 8
#define KB_MAX_VALUES 32
#define KB_MAX_VARIANTS 64
#define KB_MAX_JOBS 32
#define KB_MAX_MIN_EFFECTS 32

enum kb_order { KB_ORDER_INTERLEAVE = 0, KB_ORDER_BLOCK, KB_ORDER_RANDOM };

/* drop_caches =: the value written to /proc/sys/vm/drop_caches before
 * each run (the kernel's Documentation/admin-guide/sysctl/vm.rst): 1
 * frees the page cache, which is what makes buffered I/O start cold; 3
 * also frees reclaimable slab (dentries, inodes), whose CPU grows with
 * the machine's slab and which fio's I/O to a device does not read. */
enum kb_drop_caches { KB_DROP_PAGECACHE = 1, KB_DROP_ALL = 3 };

enum kb_target_kind {
	KB_TARGET_DEVICE = 0,	/* a block device path, e.g. /dev/nvme0n1 */
	KB_TARGET_LOOP,		/* loop:SIZE - loop device on a sparse file */
	KB_TARGET_FILE,		/* file:PATH - a regular file, no tunables */
	KB_TARGET_NULLBLK,	/* null_blk[: PARAMS] - /dev/nullb0, the module
				 * loaded with PARAMS (in a vm guest: by the
				 * initramfs; locally: by modprobe) */
};

struct kb_tunable {
	char *label;		/* "NM" */
	char *path;		/* "queue/nomerges" (relative to
				 * /sys/block/<dev>/) or an absolute /sys or
				 * /proc path */
	char *values[KB_MAX_VALUES];	/* "0", "1", "2" */
	size_t nvalues;
	int line;		/* line of the definition, for messages */
	/* 1 for "sweep NAME = V1 V2 ...": a job parameter, not a sysfs file
	 * (path is NULL).  Each value is a configuration like a tunable's,
	 * handed to fio as the environment variable KBENCH_<NAME in upper
	 * case> that the job file uses, e.g. numjobs=${KBENCH_NUMJOBS}. */
	int sweep;
};

#define KB_MAX_PROFILE_EVENTS 4
#define KB_MAX_TASK_GROUPS 16

/* "task group NAME = GLOB...": tasks whose comm matches one of the
 * blank-separated fnmatch(3) globs count as NAME in task.NAME.cpu_pct. */
struct kb_task_group {
	char *name;
	char *patterns;
};

/* QEMU's accelerator for method = vm (runner/accel.h). */
enum kb_accel {
	KB_ACCEL_UNSET = 0,	/* not given: [global]'s, else auto */
	KB_ACCEL_AUTO,		/* KVM when the probe shows it works, else TCG */
	KB_ACCEL_KVM,		/* KVM or fail the runs with the reason */
	KB_ACCEL_TCG,		/* always TCG (emulated) */
};

/* The layouts `layouts =` accepts (NULL-terminated): the report layouts
 * of reports/layout.h that need no --rows/--cols. */
extern const char *const kconf_layout_names[];

/* Every kernels.conf key with one line of help, section by section
 * ("[global]", then "[VARIANT]"), from the parser's own table
 * (parsers/kconf.c kconf_opts[]): `kbench run --help-keys` prints it and
 * tests/man.sh checks that the man page documents each key. */
void kconf_print_keys(FILE *out);

/* "auto", "kvm", "tcg" -> the enum; KB_ACCEL_UNSET for anything else. */
enum kb_accel kb_accel_from_name(const char *s);
/* The name; "auto" for KB_ACCEL_UNSET. */
const char *kb_accel_name(enum kb_accel a);

/* vm: what the guest runs from (runner/driver_vm.c) */
enum kb_guest_root {
	KB_GUEST_ROOT_AUTO = 0,	/* 9p when the kernel has it, else initramfs */
	KB_GUEST_ROOT_9P,	/* the host's root over virtio-9p */
	KB_GUEST_ROOT_INITRAMFS,	/* self-contained: fio, kbench and their
				 * libraries in the initramfs, results back
				 * on a virtio disk */
};

/* vm: how QEMU boots the kernel (runner/vmlinux.h) */
enum kb_vm_boot {
	KB_VM_BOOT_AUTO = 0,	/* its PVH entry when it has one, else the
				 * bzImage */
	KB_VM_BOOT_PVH,		/* its PVH entry, or the boot fails */
	KB_VM_BOOT_BZIMAGE,	/* the bzImage as given */
};

/* vm: the modules' signatures (runner/kernel_img.h
 * kernel_module_sig_strip()) */
enum kb_vm_modsig {
	KB_VM_MODSIG_AUTO = 0,	/* stripped when the kernel loads unsigned
				 * modules (it taints itself 'E') */
	KB_VM_MODSIG_KEEP,	/* the modules as the kernel ships them */
};

struct kb_variant {
	char *name;		/* section name */
	char *method;		/* "local" */
	char *release;		/* expected `uname -r`; NULL = any */
	/* method = vm / kexec (runner/driver_vm.c, runner/driver_kexec.c) */
	char *kernel;		/* bzImage/vmlinuz path, "deb:PACKAGE", or an
				 * http(s):// or file:// URL (push/fetch.h) */
	char *sha256;		/* expected SHA-256 of a kernel URL, or NULL */
	char *initrd;		/* kexec: initrd path or URL; NULL = none */
	char *modules;		/* vm: a lib/modules/<release> directory, or
				 * the URL of a tarball of one (as
				 * `make modules_install INSTALL_MOD_PATH=D`
				 * writes it under D); NULL = the package's,
				 * or the host's */
	char *cmdline;		/* extra kernel command line; NULL = none */
	unsigned memory_mib;	/* vm: guest memory, MiB (default 1024) */
	unsigned cpus;		/* vm: vCPUs (default 2) */
	char *disk;		/* vm: host file/block device, the guest's
				 * /dev/vda target (cache=none) */
	unsigned boot_timeout_s;	/* vm: seconds from QEMU start to the
				 * guest's first report (default 120);
				 * another method refuses the key */
	enum kb_accel accel;	/* vm: the variant's, else [global]'s */
	enum kb_guest_root guest_root;	/* vm: guest_root = 9p | initramfs */
	enum kb_vm_boot boot;	/* vm: boot = auto | pvh | bzimage */
	enum kb_vm_modsig module_signatures;	/* vm: auto | keep */
	int line;
};

/* A place the job files were looked for (kconf_find_profiles). */
#define KB_MAX_PROFILE_PLACES 5
struct kb_profiles_place {
	char *dir;
	char *source;		/* why it was looked at, e.g. "KBENCH_PROFILES" */
};

#define KB_MAX_HOSTS 16
#define KB_FIO_SERVER_PORT 8765

/* target@HOST = (kernels.conf [global]): the target that load HOST's fio
 * opens instead of target =, a path on that host: a device (/dev/...)
 * or a file (file:/PATH). */
struct kb_host_target {
	char *host;		/* as in kb_config.hosts (any port) */
	char *path;
	enum kb_target_kind kind;	/* KB_TARGET_DEVICE or _FILE */
	int line;
};

/* hosts = of a [job NAME] section (kernels.conf): that job's load hosts,
 * as kb_config.hosts. */
struct kb_job_hosts {
	char *job;
	int line;		/* of its section header */
	int hosts_line;		/* of its hosts =, 0: none */
	char *hosts[KB_MAX_HOSTS];
	unsigned host_ports[KB_MAX_HOSTS];
	size_t nhosts;
};

/* retry_quiet_wait's default, seconds (runner/quiet.h) */
#define KB_RETRY_QUIET_WAIT_DEFAULT_S 20

struct kb_config {
	char *path;		/* the file it was read from */
	char *jobs[KB_MAX_JOBS];	/* profile names, without ".fio" */
	int jobs_line;		/* the line of jobs =, for messages */
	size_t njobs;
	/* seconds a run of each job lasts as its job file says (time_based:
	 * its runtime plus ramp_time and startdelay), set by
	 * campaign_job_run_s() (runner/campaign.h); 0: runtime */
	double job_run_s[KB_MAX_JOBS];
	unsigned iterations;	/* default 3 */
	unsigned warmup;	/* default 1 */
	unsigned runtime_s;	/* default 60 */
	unsigned timeout_grace_s;	/* default 30 */
	enum kb_order order;	/* default interleave */
	unsigned long seed;	/* default 1 */
	enum kb_target_kind target_kind;
	char *target;		/* device path, or file path for FILE */
	int target_line;	/* its line in path, 0 when unset */
	unsigned long long loop_size_bytes;	/* for KB_TARGET_LOOP */
	char *nullblk_params;	/* KB_TARGET_NULLBLK: "queue_mode=2 ..." or
				 * "" (module defaults) */
	char *baseline;		/* configuration id or NULL (= first) */
	char *profiles_dir;	/* the job files' directory: the first of
				 * profiles_places that exists (kconf_find_
				 * profiles) */
	int profiles_line;	/* line of `profiles =`; 0 = not given */
	struct kb_profiles_place profiles_places[KB_MAX_PROFILE_PLACES];
	size_t nprofiles_places;
	char *push_url;		/* push = URL; NULL = none (push/push.h) */
	/* layouts = rounds scaling: tables (reports/layout.h presets) that
	 * kbench run adds to report.txt/report.md after the default ones */
#define KB_MAX_LAYOUTS 8
	char *layouts[KB_MAX_LAYOUTS];
	size_t nlayouts;
	/* prefix = auto|none (default none): 1 for auto, the reports'
	 * values scaled as `kbench report --prefix auto` does (k/M on IOPS
	 * and counts, MiB/s, us: reports/table.h struct kb_scale), in
	 * report.txt/.md and in `kbench report` without --prefix */
	int prefix_auto;
	struct kb_tunable tunables[KB_MAX_TUNABLES];
	size_t ntunables;
	struct kb_variant variants[KB_MAX_VARIANTS];
	size_t nvariants;
	/* profile = cycles,dcm: sampled events ("cycles", "dcm"), 0 = none */
	char *profile[KB_MAX_PROFILE_EVENTS];
	size_t nprofile;
	/* With profile =, the extra runs of every (configuration, job) in
	 * each timed round (runner/plan.h), never counted:
	 *   profile_during = profiling-runs (default, 0): perf record samples
	 *     only in these "profiling runs", never during a counted run;
	 *   profile_during = counted-runs (1): perf record samples during the
	 *     counted runs and the extra runs are "unsampled runs" that
	 *     measure the overhead (reports/profile.h).
	 * profile_runs = N extra runs per (configuration, job) and round,
	 * default 1; 0 means none: allowed only with counted-runs (then the
	 * overhead is not measured), an error with profiling-runs. */
	unsigned profile_runs;
	int profile_during_counted;
	/* keep = perf.data: artefacts kept beyond what is always kept
	 * (runner/collect_profile.c keeps the compressed perf report) */
#define KB_KEEP_PERF_DATA 1u
	unsigned keep;
	/* task group NAME = GLOB...; none = the defaults of
	 * runner/collect_tasks.c (fio, writeback, kworker, kswapd) */
	struct kb_task_group task_groups[KB_MAX_TASK_GROUPS];
	size_t ntask_groups;
	/* statistics (stats/compare.h):
	 *   alpha = 0.05              significance level of the verdicts
	 *   min_effect = 1            smallest change called significant, %
	 *   min_effect read.iops = 2  the same for one metric
	 *   max_mde = 5               a "no significant difference" whose
	 *                             minimum detectable effect is larger is
	 *                             "underpowered", %
	 *   max_mde read.iops = 3     the same for one metric
	 *   iterations = auto         add interleaved rounds until every
	 *   min_iterations = 3        compared metric's 95% CI half-width is
	 *   max_iterations = 10       below target_ci_pct % of its mean, or
	 *   target_ci_pct = 1         max_iterations is reached
	 *   target_metrics = read.iops  only these metrics' CIs decide
	 *                             (names of lib/metrics.c, blanks or
	 *                             commas between; NULL: every compared
	 *                             metric; kconf_target_metric()) */
	double alpha;
	double min_effect_pct;
	struct kb_min_effect {
		char *metric;
		double pct;
		int line;
	} min_effects[KB_MAX_MIN_EFFECTS];
	size_t nmin_effects;
	double max_mde_pct;
	struct kb_min_effect max_mdes[KB_MAX_MIN_EFFECTS];
	size_t nmax_mdes;
	int iterations_auto;	/* iterations then holds min_iterations */
	unsigned min_iterations, max_iterations;
	double target_ci_pct;
	char *target_metrics;
	/* disturbed runs (stats/disturbed.h; NAN = "off"):
	 *   disturbed_other_cpu_pct = 40   task.other.cpu_pct above
	 *                                  max(this, 1.5 x the campaign's
	 *                                  lower quartile)
	 *   disturbed_steal_pct = 5        cpu.steal_pct above this
	 *   disturbed_psi_pct = 40         psi.cpu_some_pct above this
	 *   disturbed_idle_fraction = 0.5  cpu.idle_pct below this x the
	 *                                  campaign's upper quartile
	 *   retry_disturbed = 1            rerun a round with a disturbed run
	 *                                  (order = block: the run alone) at
	 *                                  most this many times (0: never);
	 *                                  runner/retry.h
	 *   retry_quiet_wait = 20s         before such a rerun wait at most
	 *                                  this long for a quiet 1-s window
	 *                                  (0: no wait); runner/quiet.h */
	double disturbed_other_cpu_pct, disturbed_steal_pct;
	double disturbed_psi_pct, disturbed_idle_fraction;
	unsigned retry_disturbed, retry_quiet_wait_s;
	enum kb_accel accel;	/* [global] accel = (default: unset = auto) */
	unsigned kvm_probe_timeout_s;	/* default 20 */
	/* hosts = HOST[:PORT] ...: fio --server load hosts; none = fio runs
	 * here.  hosts[i] is the name (in lower case), IPv4 address or
	 * IPv6 address (as inet_ntop() writes it: "fd00::2" for [FD00:0::2],
	 * no brackets: it holds ':'), one host once whatever its port (fio's
	 * JSON names a host without it), host_ports[i] its port (default
	 * KB_FIO_SERVER_PORT). */
	char *hosts[KB_MAX_HOSTS];
	unsigned host_ports[KB_MAX_HOSTS];
	size_t nhosts;
	/* [job NAME] sections: hosts = for that job's runs, overriding
	 * [global]'s (which must be given: kconf_job_hosts()) */
	struct kb_job_hosts job_hosts[KB_MAX_JOBS];
	size_t njob_hosts;
	struct kb_host_target host_targets[KB_MAX_HOSTS];
	size_t nhost_targets;
	char *calibration;	/* calibration = FILE (runner/calibrate.h),
				 * relative to the conf's directory; NULL:
				 * none */
	int calibration_line;
	int allow_page_cache;	/* allow_page_cache = yes|no (default no):
				 * count runs flagged "suspect":
				 * "page_cache" (../shared/cases/B30) */
	int plot_png;		/* plot_png = yes|no (default no): the
				 * runner's plots/ as PNG too
				 * (reports/plots.h) */
	int drop_caches;	/* drop_caches = pagecache|all: the value
				 * written to /proc/sys/vm/drop_caches
				 * before each run, KB_DROP_PAGECACHE (1,
				 * the default) or KB_DROP_ALL (3) */
};

/* Parse the file at path into *cfg (zeroed first).  Returns 0, or
 * -EINVAL with every error printed as "kbench: error: FILE:LINE: what"
 * (all errors in the file are reported, not only the first), or -errno
 * when the file cannot be read. */
int kconf_load(const char *path, struct kb_config *cfg);

/* Same from a NUL-terminated buffer; name is used in messages. */
int kconf_parse(const char *name, const char *text, struct kb_config *cfg);

/* Parse "256M", "1G", "4096", "64k" (binary multiples, as fio's size=)
 * into bytes.  0 or -EINVAL. */
int kconf_parse_size(const char *s, unsigned long long *bytes);

/* 1 when w is a module parameter as modprobe(8) takes it: NAME=VALUE,
 * NAME letters, digits and _ (not starting with a digit), VALUE not empty,
 * of letters, digits and _ . , : + - (so "-r", "--first-time" or
 * "a=$(x)" are not). */
int kconf_module_param_ok(const char *w);

/* The profiles directory (the job files NAME.fio and symbols.conf), in
 * this order:
 *   1. `profiles = DIR` in kernels.conf (relative to the conf's directory);
 *   2. the environment variable KBENCH_PROFILES;
 *   3. a "profiles" directory next to kernels.conf, if there is one (a
 *      campaign directory's snapshot, a checkout's kernels.conf);
 *   4. beside the binary, as git's RUNTIME_PREFIX finds its files: for
 *      PREFIX/bin/kbench, PREFIX/share/kbench/profiles; for a binary in a
 *      checkout's build tree (build/kbench, build/san/kbench, or ./kbench
 *      linking to it), the checkout's profiles/ (the nearest of the
 *      binary's directory and the three above it holding kbench.c and
 *      profiles/);
 *   5. the prefix `make install` was built for: KBENCH_PREFIX (the
 *      Makefile's PREFIX) + /share/kbench/profiles.
 * 1 and 2 are taken as they are; of 3-5, the first that is a directory
 * (else 3's path, for the error to name).  Every place looked at is kept
 * in cfg->profiles_places for the "no job file" message
 * (kconf_profiles_help).  exe: the binary's path (NULL: /proc/self/exe);
 * prefix: NULL for KBENCH_PREFIX.  kconf_parse calls it with NULL, NULL;
 * calling it again replaces the choice. */
void kconf_find_profiles(struct kb_config *cfg, const char *exe,
			 const char *prefix);

/* For a missing job file NAME.fio: every place looked at, what each
 * holds, and how to fix it (`profiles =`), as lines to print after the
 * error; malloc'd. */
char *kconf_profiles_help(const struct kb_config *cfg, const char *job);

/* A load host (host as in kb_config.hosts) as kbench names it:
 * "HOST:PORT", "[ADDR]:PORT" for an IPv6 address (malloc'd). */
char *kconf_host_label(const char *host, unsigned port);

/* fio's argument for a load host (fio(1), "CLIENT / SERVER": type ip6
 * for TCP/IP v6, then "hostname,port"): "--client=HOST,PORT", or
 * "--client=ip6:ADDR,PORT" for an IPv6 address (malloc'd). */
char *kconf_host_client_arg(const char *host, unsigned port);

/* target@HOST = of load host host (kb_config.hosts), NULL when it has
 * none (it opens target =). */
const struct kb_host_target *kconf_host_target(const struct kb_config *cfg,
					       const char *host);

/* The load hosts of job's runs: its [job NAME] section's hosts =, else
 * [global]'s.  Points *hosts and *ports at them; returns how many (0:
 * fio runs here). */
size_t kconf_job_hosts(const struct kb_config *cfg, const char *job,
		       char *const **hosts, const unsigned **ports);

/* 1 when metric's CI decides when iterations = auto stops: every metric
 * without target_metrics, else those it names (blanks or commas between
 * the names, as the parser reads them); 0 for NULL or "". */
int kconf_target_metric(const struct kb_config *cfg, const char *metric);

void kconf_free(struct kb_config *cfg);

#endif
