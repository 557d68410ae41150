#include "runner/campaign.h"
#include "runner/retry.h"
#include "runner/calibrate.h"
#include "results/validate.h"
#include "results/records.h"
#include "results/paths.h"
#include "results/campaign_json.h"
#include "runner/drivers.h"
#include "runner/tool_version.h"
#include "runner/target.h"
#include "runner/run_exec.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"
#include "parsers/fio_probe.h"
#include "parsers/fio_jobfile.h"
#include "push/fetch.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/file.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static char *iso_now(char *buf, size_t len)
{
	return kb_format_utc(time(NULL), buf, len);
}

/* The first line of path (prefix NULL), or the value after ':' of its
 * first line that starts with prefix ("model name	: X" -> "X");
 * malloc'd, NULL when the file or the line is not there. */
static char *first_line_of(const char *path, const char *prefix)
{
	char *buf, *p, *nl, *v = NULL;

	if (kb_read_file(path, &buf, NULL, 1) < 0)
		return NULL;
	for (p = buf; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (!prefix) {
			v = kb_xstrdup(p);
			break;
		}
		if (!strncmp(p, prefix, strlen(prefix))) {
			char *c = strchr(p, ':');

			if (c) {
				c++;
				while (*c == ' ' || *c == '\t')
					c++;
				v = kb_xstrdup(c);
				break;
			}
		}
	}
	free(buf);
	return v;
}

/* A cpufreq file of every online CPU (cpuN/cpufreq/NAME): its value
 * when every CPU has the same, else "VALUE xN, VALUE xM" in CPU order of
 * first appearance; NULL when no CPU has it.  Malloc'd. */
static char *every_cpu(const char *name)
{
	char **val = NULL;
	size_t *cnt = NULL, nval = 0, i, k;
	char *path, *tmp, *v, *out = NULL;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (i = 0; ncpu > 0 && i < (size_t)ncpu; i++) {
		path = kb_xasprintf("/sys/devices/system/cpu/cpu%zu/cpufreq/%s",
				    i, name);
		v = first_line_of(path, NULL);
		free(path);
		if (!v)
			continue;
		for (k = 0; k < nval; k++)
			if (!strcmp(val[k], v))
				break;
		if (k == nval) {
			val = kb_xrealloc(val, (nval + 1) * sizeof(*val));
			cnt = kb_xrealloc(cnt, (nval + 1) * sizeof(*cnt));
			val[nval] = v;
			cnt[nval++] = 0;
		} else {
			free(v);
		}
		cnt[k]++;
	}
	if (nval == 1) {
		out = val[0];
		val[0] = NULL;
	}
	for (k = 0; nval > 1 && k < nval; k++) {
		tmp = kb_xasprintf("%s%s%s x%zu", out ? out : "",
				   out ? ", " : "", val[k], cnt[k]);
		free(out);
		out = tmp;
	}
	for (k = 0; k < nval; k++)
		free(val[k]);
	free(val);
	free(cnt);
	return out;
}

void campaign_environment(struct kb_environment *env)
{
	struct utsname u;

	memset(env, 0, sizeof(*env));
	if (uname(&u) == 0) {
		env->has_uname = 1;
		env->kernel_release = kb_xstrdup(u.release);
		env->kernel_version = kb_xstrdup(u.version);
		env->machine = kb_xstrdup(u.machine);
		env->hostname = kb_xstrdup(u.nodename);
	}
	env->cmdline = first_line_of("/proc/cmdline", NULL);
	env->cpu_model = first_line_of("/proc/cpuinfo", "model name");
	env->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	env->memory_total = first_line_of("/proc/meminfo", "MemTotal");
	env->governor = first_line_of(
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", NULL);
	/* every CPU's, not only cpu0's; turbo, boost and SMT where the
	 * kernel exposes them (null otherwise) */
	env->governor_all_cpus = every_cpu("scaling_governor");
	env->epp = every_cpu("energy_performance_preference");
	env->no_turbo = first_line_of(
		"/sys/devices/system/cpu/intel_pstate/no_turbo", NULL);
	env->boost = first_line_of("/sys/devices/system/cpu/cpufreq/boost",
				   NULL);
	env->smt = first_line_of("/sys/devices/system/cpu/smt/control", NULL);
	/* `TOOL --version`'s first line (cached: runner/tool_version.h) */
	env->fio_version = kb_tool_version("fio");
	env->perf_version = kb_tool_version("perf");
	env->kbench_version = KBENCH_VERSION;
}

/* A new campaign's kernels.conf (-c) or job file, copied into it: what
 * the campaign will run as root, so it must be changeable only by root
 * and the trusted users, as the campaign directory must
 * (kb_path_trusted()).  0 or -EPERM / -errno with a message. */
static int source_trusted(const char *path)
{
	char *why = NULL;
	int ret = kb_path_trusted(path, &why);

	if (ret)
		kb_error("%s: not started: the campaign would run it as %s, "
			 "and %s; copy it where only %s can write, or make "
			 "it so (chown, chmod go-w)", path, geteuid() ?
			 "this user" : "root", why, geteuid() ? "you" :
			 "root");
	free(why);
	return ret;
}

/* How long the load hosts' probes may take, all of them together: a host
 * that answers does in well under a second; one that drops the packets
 * leaves fio --client in connect(2) for the kernel's SYN retries (about
 * 70 s were measured, one host after another, before 2026-12-06). */
#define LOAD_HOST_PROBE_S 20

/* hosts =: what each load host's fio --server says of itself
 * (parsers/fio_probe.h), asked apart with `fio --client=HOST,PORT
 * --parse-only /dev/null` (connects, runs nothing), all hosts at once
 * within LOAD_HOST_PROBE_S (kb_capture_all), into env->load_hosts;
 * versions other than the local fio's warned. */
static void load_hosts_environment(const struct kb_config *cfg,
				   struct kb_environment *env)
{
	struct kb_fio_host_version hv[KB_MAX_ALL_HOSTS];
	const char *hosts[KB_MAX_ALL_HOSTS];
	unsigned ports[KB_MAX_ALL_HOSTS];
	char *hn[KB_MAX_ALL_HOSTS], *ver[KB_MAX_ALL_HOSTS];
	size_t i, n = results_campaign_load_hosts(cfg, hosts, ports);
	char *skew;

	env->has_load_hosts = 1;
	env->load_hosts = kb_xcalloc(n ? n : 1, sizeof(*env->load_hosts));
	env->nload_hosts = n;
	/* SIGKILL a second after SIGTERM (the limit's, or Ctrl-C's): fio's
	 * client ignores it while a server keeps it waiting */
	run_exec_probe_hosts(hosts, ports, n, LOAD_HOST_PROBE_S, 1, hn, ver);
	for (i = 0; i < n; i++) {
		struct kb_load_host_env *h = &env->load_hosts[i];

		h->host = kconf_host_label(hosts[i], ports[i]);
		h->hostname = hn[i];
		h->fio_version = ver[i];
		if (!ver[i] && !kb_spawn_forward_signal) /* not when stopped */
			kb_warn("load host %s: no answer to fio's probe (fio "
				"--client ... --parse-only) within %d s: its "
				"fio version is unknown; its runs will say why",
				h->host, LOAD_HOST_PROBE_S);
		hv[i].host = h->host;
		hv[i].version = h->fio_version;
	}
	skew = kb_fio_version_skew(env->fio_version, hv, n);
	if (skew)
		kb_warn("%s: fio's defaults and statistics may differ between "
			"versions; run one fio version on every host", skew);
	free(skew);
}

/* A resume: the load hosts that did not answer fio's probe when the
 * campaign began (campaign.json's environment.load_hosts, fio version
 * null) are asked again, and those that answer now recorded there (the
 * report's fio: line and version warning read it), their version checked
 * against the local fio's. */
static void load_hosts_resume(const struct kb_campaign *c)
{
	const char *hosts[KB_MAX_ALL_HOSTS], *ask[KB_MAX_ALL_HOSTS];
	unsigned ports[KB_MAX_ALL_HOSTS], aports[KB_MAX_ALL_HOSTS];
	char *labels[KB_MAX_ALL_HOSTS];
	struct kb_fio_host_version hv[KB_MAX_ALL_HOSTS];
	char *hn[KB_MAX_ALL_HOSTS] = { NULL }, *ver[KB_MAX_ALL_HOSTS] = { NULL };
	char *al[KB_MAX_ALL_HOSTS] = { NULL }, *local = NULL, *skew;
	size_t nl = results_campaign_unknown_load_hosts(c->dir, labels,
							KB_MAX_ALL_HOSTS);
	size_t n = results_campaign_load_hosts(&c->cfg, hosts, ports);
	size_t i, j, na = 0, nv = 0;

	for (i = 0; i < n; i++) {
		char *l = kconf_host_label(hosts[i], ports[i]);

		for (j = 0; j < nl; j++)
			if (!strcmp(labels[j], l)) {
				ask[na] = hosts[i];
				aports[na++] = ports[i];
			}
		free(l);
	}
	if (!na)
		goto out;
	run_exec_probe_hosts(ask, aports, na, LOAD_HOST_PROBE_S, 1, hn, ver);
	for (i = 0; i < na; i++) {
		al[i] = kconf_host_label(ask[i], aports[i]);
		if (ver[i] && !results_campaign_load_host_set(c->dir, al[i],
							      hn[i], ver[i])) {
			kb_info("load host %s answered fio's probe now (not "
				"when the campaign began): %s, recorded in "
				"campaign.json", al[i], ver[i]);
			hv[nv].host = al[i];
			hv[nv++].version = ver[i];
		}
	}
	if (nv)
		local = kb_tool_version("fio");
	skew = local ? kb_fio_version_skew(local, hv, nv) : NULL;
	if (skew)
		kb_warn("%s: fio's defaults and statistics may differ between "
			"versions; run one fio version on every host", skew);
	free(skew);
	free(local);
	for (i = 0; i < na; i++) {
		free(al[i]);
		free(hn[i]);
		free(ver[i]);
	}
out:
	for (j = 0; j < nl; j++)
		free(labels[j]);
}

static int copy_file(const char *from, const char *to)
{
	char *buf;
	size_t len;
	int ret = kb_read_file(from, &buf, &len, 0);

	if (ret)
		return ret;
	ret = kb_write_atomic(to, buf, len);
	free(buf);
	return ret;
}

/* 1 when fd (just locked) is still the file named path. */
static int locked_is_named(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static int campaign_lock_try(const char *dir, int tries);

int campaign_lock(const char *dir)
{
	return campaign_lock_try(dir, 0);
}

/* The PID a running kbench wrote into the .lock open at fd, when that
 * process exists; 0 when none can be told (an older kbench wrote none,
 * or it is gone). */
static long lock_holder(int fd)
{
	char b[32], *end;
	ssize_t n = pread(fd, b, sizeof(b) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	b[n] = '\0';
	pid = strtol(b, &end, 10);
	if (end == b || (*end && *end != '\n') || pid <= 0 || pid > INT_MAX ||
	    (kill((pid_t)pid, 0) && errno != EPERM))
		return 0;
	return pid;
}

long campaign_running_pid(const char *dir)
{
	char *path = kb_path_join(dir, ".lock"), comm[32] = "", *cp;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	long pid;
	FILE *f;

	free(path);
	if (fd < 0)
		return 0;
	pid = lock_holder(fd);
	close(fd);
	if (pid <= 0)
		return 0;
	/* the PID of a kbench that ended may be another program's now */
	cp = kb_xasprintf("/proc/%ld/comm", pid);
	f = fopen(cp, "re");
	free(cp);
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strncmp(comm, "kbench", 6) ? 0 : pid;
}

static int campaign_lock_try(const char *dir, int tries)
{
	char *path;
	int fd, ret;

	ret = kb_mkdir_p(dir);
	if (ret)
		return ret;
	path = kb_path_join(dir, ".lock");
	/* never through a link planted there */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		ret = -errno;
		kb_error("cannot create %s: %s", path, strerror(-ret));
		free(path);
		return ret;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (ret == -EBUSY) {
			long pid = lock_holder(fd);

			if (pid > 0)
				kb_error("%s: another kbench (PID %ld) is "
					 "running this campaign (it holds %s); "
					 "wait for it, or stop it with Ctrl-C "
					 "or kill %ld (it restores its "
					 "tunables)", dir, pid, path, pid);
			else
				kb_error("%s: another kbench is running this "
					 "campaign (it holds %s); wait for it, "
					 "or stop it with Ctrl-C or kill (it "
					 "restores its tunables)", dir, path);
		} else
			kb_error("cannot lock %s: %s", path, strerror(-ret));
		close(fd);
		free(path);
		return ret;
	}
	if (!locked_is_named(fd, path)) {
		/* unlinked between our open and flock (a failed start
		 * removing what it made, campaign_unmake()): lock the file
		 * the name has now */
		close(fd);
		if (tries < 3) {
			free(path);
			return campaign_lock_try(dir, tries + 1);
		}
		kb_error("%s: it keeps being replaced; is another kbench "
			 "starting a campaign there?", path);
		free(path);
		return -EAGAIN;
	}
	free(path);
	/* who holds it, for the message above (a break-it trial: "kill
	 * PID" with no PID named); the lock works without it */
	{
		char b[32];
		int n = snprintf(b, sizeof(b), "%ld\n", (long)getpid());

		if (ftruncate(fd, 0) || pwrite(fd, b, (size_t)n, 0) != n)
			n = 0;	/* the message then names no PID */
	}
	/* the lock is ours: temporary files that a killed kbench left here
	 * and in the machine-wide records are nobody's any more */
	kb_remove_stale_tmp(dir, 5);
	kb_remove_stale_tmp(kb_machine_dir(), 2);
	return fd;
}

/* What job j's file (path) says that kernels.conf does not expect:
 * warned, a read elsewhere than ${KBENCH_TARGET}, a literal runtime=
 * other than the campaign's, and a sweep whose variable it never reads
 * (its configurations would run the same job: `sweep bs = 4k 8k` with a
 * job file without ${KBENCH_BS}); refused (-EINVAL), a time_based job
 * whose runtime= plus ramp_time= is longer than kbench's limit for a
 * run (runtime + timeout_grace), where every run would be killed (a
 * break-it trial: plan said nothing). */
static int job_file_check(const struct kb_config *cfg, size_t j,
			  const char *path)
{
	struct fio_jobfile_scan s;
	char *text = NULL, *var, *p;
	size_t t;
	double run_s, limit_s = (double)cfg->runtime_s + cfg->timeout_grace_s;
	int ret = 0;

	if (kb_read_file(path, &text, NULL, 1))
		return 0;	/* read again, and said, when it runs */
	/* a job that names its own file: kbench's checks of the target (in
	 * use, mounted, swap) and the report's Target line miss it */
	fio_jobfile_scan(text, &s);
	if (!s.writes && s.elsewhere)
		kb_warn("%s:%d: job '%s' (%s) reads where its %s says, not "
			"only ${KBENCH_TARGET}: kbench did not check that (in "
			"use) and the report's Target line does not name it",
			cfg->path, cfg->jobs_line, cfg->jobs[j], path,
			s.elsewhere);
	else if (!s.writes && !s.names_target)
		kb_warn("%s:%d: job '%s' (%s) never reads ${KBENCH_TARGET} "
			"(no filename=${KBENCH_TARGET}): fio reads a file "
			"named after the job in the current directory, which "
			"the report's Target line does not name", cfg->path,
			cfg->jobs_line, cfg->jobs[j], path);
	/* time_based: a run lasts ramp_time + runtime; without, runtime
	 * is a cap the job may not reach */
	run_s = s.runtime_s >= 0 ? s.runtime_s : cfg->runtime_s;
	if (s.time_based && s.startdelay_s > 0)
		run_s += s.startdelay_s;	/* a delay before the runtime */
	if (s.time_based && run_s + (s.ramp_s > 0 ? s.ramp_s : 0) > limit_s) {
		kb_error("%s:%d: job '%s' (%s) runs %g s (%s%s%s%s%s%s), longer "
			 "than kbench's limit for a run, %u s (runtime %u + "
			 "timeout_grace %u): every run would be killed; write "
			 "runtime=${KBENCH_RUNTIME} (kernels.conf's runtime =) "
			 "or raise timeout_grace", cfg->path, cfg->jobs_line,
			 cfg->jobs[j], path, run_s + (s.ramp_s > 0 ?
			 s.ramp_s : 0), s.runtime_at ? s.runtime_at :
			 "runtime =", s.runtime_at ? "" : " of kernels.conf",
			 s.ramp_at ? ", " : "", s.ramp_at ? s.ramp_at : "",
			 s.startdelay_at && s.startdelay_s > 0 ? ", " : "",
			 s.startdelay_at && s.startdelay_s > 0 ?
			 s.startdelay_at : "",
			 (unsigned)limit_s, cfg->runtime_s,
			 cfg->timeout_grace_s);
		ret = -EINVAL;
	} else if (s.time_based && s.runtime_s >= 0 &&
		   s.runtime_s != cfg->runtime_s) {
		kb_warn("%s:%d: job '%s' (%s) %s: its runs last %g s, not "
			"kernels.conf's runtime = %u, which the campaign "
			"records; write runtime=${KBENCH_RUNTIME}", cfg->path,
			cfg->jobs_line, cfg->jobs[j], path, s.runtime_at,
			s.runtime_s, cfg->runtime_s);
	}
	fio_jobfile_scan_free(&s);
	for (t = 0; t < cfg->ntunables; t++) {
		if (!cfg->tunables[t].sweep || cfg->tunables[t].nvalues < 2)
			continue;
		var = kb_xasprintf("${KBENCH_%s}", cfg->tunables[t].label);
		for (p = var + 9; *p != '}'; p++)
			*p = (char)toupper((unsigned char)*p);
		if (!strstr(text, var))
			kb_warn("%s:%d: sweep %s: job '%s' (%s) never reads %s: "
				"its %zu values run the same job",
				cfg->path, cfg->tunables[t].line,
				cfg->tunables[t].label, cfg->jobs[j], path, var,
				cfg->tunables[t].nvalues);
		free(var);
	}
	free(text);
	return ret;
}

void campaign_job_run_s(struct kb_config *cfg)
{
	struct fio_jobfile_scan s;
	double run_s;
	char *path, *text;
	size_t j;

	for (j = 0; j < cfg->njobs; j++) {
		cfg->job_run_s[j] = 0;
		path = kb_xasprintf("%s/%s.fio", cfg->profiles_dir,
				    cfg->jobs[j]);
		text = NULL;
		if (!kb_read_file(path, &text, NULL, 1)) {
			fio_jobfile_scan(text, &s);
			/* as job_file_check() counts it; without time_based,
			 * runtime is a cap */
			run_s = s.runtime_s >= 0 ? s.runtime_s : cfg->runtime_s;
			if (s.time_based)
				run_s += (s.startdelay_s > 0 ? s.startdelay_s : 0) +
					 (s.ramp_s > 0 ? s.ramp_s : 0);
			cfg->job_run_s[j] = fmin(run_s, (double)cfg->runtime_s +
						 cfg->timeout_grace_s);
			fio_jobfile_scan_free(&s);
		}
		free(text);
		free(path);
	}
}

int campaign_check_jobs(const struct kb_config *cfg)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < cfg->njobs; i++) {
		char *from = kb_xasprintf("%s/%s.fio", cfg->profiles_dir,
					  cfg->jobs[i]);

		if (!kb_exists(from)) {
			kb_error("%s:%d: job '%s': no job file %s (jobs name "
				 "files in the profiles directory, without .fio)",
				 cfg->path, cfg->jobs_line, cfg->jobs[i], from);
			if (!ret) {	/* the places, once */
				char *help = kconf_profiles_help(cfg,
								 cfg->jobs[i]);

				fputs(help, stderr);
				free(help);
			}
			ret = -ENOENT;
		} else if (job_file_check(cfg, i, from)) {
			ret = -EINVAL;
		}
		free(from);
	}
	return ret;
}

/* The advice for a job file's option fio_jobfile_scan() put in
 * outside */
static const char *outside_advice(const char *why)
{
	if (strstr(why, "does not run"))
		return "kbench runs the options of I/O on its target and of "
		       "timing only (its list: parsers/fio_jobfile.c); run "
		       "such a job with fio by hand";
	if (strstr(why, "ioscheduler"))
		return "set the scheduler with a tunable instead (tunable "
		       "SCHED = queue/scheduler: none), which kbench writes, "
		       "checks and restores";
	if (strstr(why, "exec_"))
		return "kbench runs no shell commands from a job file (caches "
		       "are kernels.conf's drop_caches =)";
	if (strstr(why, "include"))
		return "copy the included options into the job file";
	return "kbench runs only fio's own I/O on the target, and records "
	       "its results itself";
}

/* ${NAME} as fio will see it in every run, where that is known when the
 * campaign starts: the runtime; kbench's other variables (the size, the
 * sweeps: one value per configuration) are not, and checked per run
 * (runner/run_exec.c); any other name from the environment fio inherits */
static const char *start_env_lookup(const char *name, void *ctx)
{
	if (!strcmp(name, "KBENCH_RUNTIME"))
		return ctx;
	if (!strncmp(name, "KBENCH_", 7))
		return NULL;
	return getenv(name) ?: "";	/* fio: an unset one is empty */
}

int campaign_check_job_safety(const struct kb_config *cfg, const char *dir,
			      int local_target)
{
	size_t j, n = cfg->njobs;
	char **paths = kb_xcalloc(n + 1, sizeof(*paths));
	struct fio_jobfile_scan s;
	char *text, runtime[16];
	size_t len;
	int ret = 0;

	for (j = 0; j < n; j++)
		paths[j] = dir ? kb_xasprintf("%s/profiles/%s.fio", dir,
					      cfg->jobs[j]) :
			   kb_xasprintf("%s/%s.fio", cfg->profiles_dir,
					cfg->jobs[j]);
	snprintf(runtime, sizeof(runtime), "%u", cfg->runtime_s);
	for (j = 0; j < n && !ret; j++) {
		if (kb_read_file(paths[j], &text, &len, 0)) {
			ret = -EIO;	/* said */
			break;
		}
		fio_jobfile_scan_env(text, len, start_env_lookup, runtime, &s);
		free(text);
		if (fio_jobfile_refused(&s))
			ret = -EPERM;
		if (ret && s.outside)
			kb_error("%s:%d: job '%s' (%s) %s: refused, as fio "
				 "would do that as root, beyond the I/O kbench "
				 "checks and restores after; %s", cfg->path,
				 cfg->jobs_line, cfg->jobs[j], paths[j],
				 s.outside, outside_advice(s.outside));
		else if (ret)
			/* a break-it trial: filename=/dev/loop0 holding a
			 * mounted ext4, with allow_mounted_write=1, in a
			 * randwrite job destroyed the file system */
			kb_error("%s:%d: job '%s' (%s) may write (%s) and does "
				 "its I/O %s%s%s, which kbench did not check "
				 "(mounted, in use, someone's data); write "
				 "filename=${KBENCH_TARGET} and name the device "
				 "or file in kernels.conf's target =",
				 cfg->path, cfg->jobs_line, cfg->jobs[j],
				 paths[j], s.writes, s.elsewhere ? "where " :
				 "in files fio names after the job in the "
				 "current directory (", s.elsewhere ?
				 s.elsewhere : s.unnamed, s.elsewhere ? " says" :
				 ")");
		fio_jobfile_scan_free(&s);
	}
	if (!ret && local_target)
		ret = target_file_overwrite_check(cfg,
			(const char *const *)paths,
			(const char *const *)cfg->jobs, n);
	if (!ret)	/* the vm guests' disk = (a break-it trial: disk =
			 * /etc/shadow with a write job went to QEMU) */
		ret = target_vm_disk_check(cfg, (const char *const *)paths,
					   (const char *const *)cfg->jobs, n);
	for (j = 0; j < n; j++)
		free(paths[j]);
	free(paths);
	return ret;
}

/* The snapshot of campaign c's directory (results_snapshot_file,
 * results/campaign_json.h): kernels.conf, each job's file and the
 * profiles' symbols.conf when there, with their SHA-256.  0 (*files and
 * *n set; results_snapshot_free()) or -EIO (said). */
static int snapshot_take(const struct kb_campaign *c,
			 struct results_snapshot_file **files, size_t *n)
{
	char hex[65], *abs;
	size_t i, want = c->cfg.njobs + 2;
	int ret = 0;

	*files = kb_xcalloc(want, sizeof(**files));
	*n = 0;
	for (i = 0; i < want && !ret; i++) {
		char *rel = i == 0 ? kb_xstrdup("kernels.conf") :
			i <= c->cfg.njobs ?
			kb_xasprintf("profiles/%s.fio", c->cfg.jobs[i - 1]) :
			kb_xstrdup("profiles/symbols.conf");

		abs = kb_path_join(c->dir, rel);
		if (i > c->cfg.njobs && !kb_exists(abs)) {
			free(abs);
			free(rel);
			continue;
		}
		ret = fetch_sha256_file(abs, hex) ? -EIO : 0;	/* said */
		free(abs);
		if (ret) {
			free(rel);
			break;
		}
		(*files)[*n].path = rel;
		(*files)[(*n)++].sha256 = kb_xstrdup(hex);
	}
	if (ret) {
		results_snapshot_free(*files, *n);
		*files = NULL;
		*n = 0;
	}
	return ret;
}

/* A resume: is every file of the snapshot campaign.json (cjpath)
 * records the text it was made from?  A hand-edited DIR/kernels.conf
 * (its iterations raised, a tunable's values changed) or job file
 * would otherwise measure the runs still to come from another text
 * than those done, one table.  0, or -EINVAL (said, naming the file). */
static int snapshot_check(const struct kb_campaign *c, const char *cjpath)
{
	struct results_snapshot_file *f;
	size_t n, i;
	char hex[65];
	int ret = results_campaign_snapshot(cjpath, &f, &n);

	for (i = 0; i < n && !ret; i++) {
		char *abs = kb_path_join(c->dir, f[i].path);

		if (!kb_exists(abs)) {
			kb_error("%s: missing: the campaign was planned from it "
				 "(%s \"snapshot\"); put it back, or start a "
				 "new campaign with -o NEWDIR", abs, cjpath);
			ret = -EINVAL;
		} else if (fetch_sha256_file(abs, hex)) {
			ret = -EINVAL;	/* said */
		} else if (strcmp(hex, f[i].sha256)) {
			kb_error("%s: changed since the campaign began (its "
				 "SHA-256 is not the one %s \"snapshot\" "
				 "records): the runs still to come would be "
				 "measured from another text than those done.  "
				 "Put the old text back, or start a new "
				 "campaign with -o NEWDIR; to add rounds, "
				 "kbench run -o %s --add-rounds N", abs,
				 cjpath, c->dir);
			ret = -EINVAL;
		}
		free(abs);
	}
	results_snapshot_free(f, n);
	return ret;
}

static int create(struct kb_campaign *c, const char *conf_path)
{
	struct results_campaign_config *configs = NULL;
	struct results_campaign_doc d = { 0 };
	struct results_snapshot_file *snap = NULL;
	struct kb_environment env = { 0 };
	const char **plan = NULL;
	char *pdir = kb_path_join(c->dir, "profiles"), ts[32], *cjpath = NULL;
	unsigned *its = NULL, it;
	size_t i;
	int ret;

	ret = kb_mkdir_p(pdir);
	if (ret)
		goto out;
	ret = campaign_check_jobs(&c->cfg);
	if (!ret)
		ret = source_trusted(conf_path);
	for (i = 0; i < c->cfg.njobs && !ret; i++) {
		char *from = kb_xasprintf("%s/%s.fio", c->cfg.profiles_dir,
					  c->cfg.jobs[i]);
		char *to = kb_xasprintf("%s/%s.fio", pdir, c->cfg.jobs[i]);

		ret = source_trusted(from);
		if (!ret)
			ret = copy_file(from, to);
		free(from);
		free(to);
	}
	/* the profiles' symbol groups (runner/collect_profile.c) go with
	 * the job files: a resume reads DIR/profiles, and without them every
	 * run after the first boot had its CPU and DCM shares n/a */
	if (!ret) {
		char *from = kb_path_join(c->cfg.profiles_dir, "symbols.conf");
		char *to = kb_path_join(pdir, "symbols.conf");

		if (kb_exists(from)) {
			ret = source_trusted(from);
			if (!ret)
				ret = copy_file(from, to);
		}
		free(from);
		free(to);
	}
	if (ret)
		goto out;
	ret = copy_file(conf_path, c->conf_path);
	if (!ret)
		ret = snapshot_take(c, &snap, &d.nsnapshot);
	if (ret)
		goto out;
	d.snapshot = snap;
	campaign_environment(&env);
	d.config_file = conf_path;
	d.cfg = &c->cfg;
	d.created = iso_now(ts, sizeof(ts));
	d.baseline = c->plan.configs[c->plan.baseline].id;
	d.calibration_analysis = c->calibration_analysis;
	configs = kb_xcalloc(c->plan.nconfigs + 1, sizeof(*configs));
	for (i = 0; i < c->plan.nconfigs; i++) {
		configs[i].id = c->plan.configs[i].id;
		configs[i].variant = c->plan.configs[i].variant;
		configs[i].value = c->plan.configs[i].value;
	}
	d.configs = configs;
	d.nconfigs = c->plan.nconfigs;
	plan = kb_xcalloc(c->plan.nruns + 1, sizeof(*plan));
	for (i = 0; i < c->plan.nruns; i++)
		plan[i] = c->plan.runs[i].key;
	d.plan = plan;
	d.nplan = c->plan.nruns;
	if (c->cfg.nhosts)
		load_hosts_environment(&c->cfg, &env);
	d.env = &env;
	if (c->shard_n) {
		/* which part of the matrix this directory holds
		 * (runner/plan.h), and what identifies the campaign it is
		 * a part of (the kernels.conf text: results/model.c's
		 * results_merge_shards()) */
		d.shard_k = c->shard_k;
		d.shard_n = c->shard_n;
		its = kb_xcalloc(c->cfg.warmup + c->cfg.iterations + 1,
				 sizeof(*its));
		for (it = 0; it < c->cfg.warmup + c->cfg.iterations; it++) {
			unsigned sh = plan_shard_of(&c->cfg, it, c->shard_n);

			if (!sh || sh == c->shard_k)
				its[d.nshard_iterations++] = it;
		}
		d.shard_iterations = its;
		d.conf_sha256 = snap[0].sha256;	/* kernels.conf's */
	}
	cjpath = kb_path_join(c->dir, "campaign.json");
	ret = results_campaign_json_write(cjpath, &d);
out:
	free(cjpath);
	results_snapshot_free(snap, d.nsnapshot);
	free(its);
	free(plan);
	free(configs);
	results_environment_free(&env);
	free(pdir);
	return ret;
}

/* 1 when dir does not exist or holds nothing but what create() writes
 * before campaign.json (a creation cut short is taken up again) */
static int dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *lock;
	int empty = 1, ours;

	if (!d)
		return errno == ENOENT;
	/* a creation cut short (kbench made .lock first, then kernels.conf
	 * and profiles/, campaign.json last); without .lock they are a
	 * user's project files, never overwritten */
	lock = kb_path_join(dir, ".lock");
	ours = kb_exists(lock);
	free(lock);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, ".lock") &&
		    (!ours || (strcmp(e->d_name, "profiles") &&
			       strcmp(e->d_name, "kernels.conf") &&
			       strncmp(e->d_name, "campaign.json.tmp", 17) &&
			       strncmp(e->d_name, "kernels.conf.tmp", 16)))) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

void campaign_unmake(const char *dir, int whole)
{
	char *p = kb_path_join(dir, ".lock");
	DIR *d;
	struct dirent *e;

	unlink(p);
	free(p);
	if (!whole)
		return;
	p = kb_path_join(dir, "profiles");
	d = opendir(p);
	while (d && (e = readdir(d))) {
		char *f;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		f = kb_path_join(p, e->d_name);
		unlink(f);
		free(f);
	}
	if (d)
		closedir(d);
	rmdir(p);
	free(p);
	p = kb_path_join(dir, "kernels.conf");
	unlink(p);
	free(p);
	rmdir(dir);	/* fails, keeping it, if anything else is there */
}

static int campaign_trusted(const char *dir, int resume);

char *campaign_first_missing(const char *dir)
{
	char *p = kb_xstrdup(dir), *top = NULL, *sl;
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')	/* "a/b/": a/b */
		p[--n] = '\0';
	while (*p && !kb_exists(p)) {
		free(top);
		top = kb_xstrdup(p);
		sl = strrchr(p, '/');
		if (!sl)
			break;
		if (sl == p)
			sl[1] = '\0';	/* "/" */
		else
			*sl = '\0';
		for (n = strlen(p); n > 1 && p[n - 1] == '/';)	/* "a//b" */
			p[--n] = '\0';
	}
	free(p);
	return top;
}

int campaign_dir_check_reparse(const char *dir)
{
	if (campaign_dir_foreign(dir))
		return -EEXIST;
	return campaign_trusted(dir, 2);
}

int campaign_dir_check(const char *dir)
{
	char *top, *anc, *why = NULL, *cj;
	int ret;

	if (campaign_dir_foreign(dir))
		return -EEXIST;
	if (kb_exists(dir)) {
		cj = kb_path_join(dir, "campaign.json");
		ret = campaign_trusted(dir, kb_exists(cj));
		free(cj);
		return ret;
	}
	/* made under the nearest directory that exists: judged first */
	top = campaign_first_missing(dir);
	anc = top ? kb_xstrdup(top) : NULL;
	if (anc) {
		char *sl = strrchr(anc, '/');

		if (!sl)
			strcpy(anc, ".");
		else if (sl == anc)
			anc[1] = '\0';
		else
			*sl = '\0';
	}
	ret = anc ? kb_dir_trusted_above(anc, &why) : 0;
	if (ret)
		kb_error("%s: not started: it would be made in %s, and %s; "
			 "give -o DIR where only root%s can write", dir, anc,
			 why, geteuid() ? " and you" : "");
	free(why);
	free(anc);
	free(top);
	return ret;
}

/* -o FILE: said as a file, not as a directory "holding files"; 1 when
 * dir exists and is not a directory. */
static int dir_is_file(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || S_ISDIR(st.st_mode))
		return 0;
	kb_error("%s exists and is a file, not a directory; give -o a new "
		 "or empty directory for the campaign", dir);
	return 1;
}

int campaign_dir_foreign(const char *dir)
{
	char *cj;
	int foreign;

	if (dir_is_file(dir))
		return -ENOTDIR;
	cj = kb_path_join(dir, "campaign.json");
	foreign = !kb_exists(cj) && !dir_is_empty(dir);
	free(cj);
	if (foreign)
		kb_error("%s exists and is not a kbench campaign (no "
			 "campaign.json) but holds files; give -o a new or "
			 "empty directory, so nothing of yours is mixed with "
			 "or overwritten by the campaign", dir);
	return foreign ? -EEXIST : 0;
}

/* 1 when both files can be read and their texts differ. */
static int conf_differs(const char *a_path, const char *b_path)
{
	char *a = NULL, *b = NULL;
	int differ = kb_read_file(a_path, &a, NULL, 0) == 0 &&
		     kb_read_file(b_path, &b, NULL, 0) == 0 && strcmp(a, b);

	free(a);
	free(b);
	return differ;
}

/* Line [p, e) of a file as a message shows it: 'TEXT' (at most 60
 * bytes), or (none) past the file's end; malloc'd. */
static char *shown_line(const char *p, const char *e)
{
	if (!*p)
		return kb_xstrdup("(none)");
	return kb_xasprintf("'%.*s'", (int)(e - p > 60 ? 60 : e - p), p);
}

/* "line N: 'A' in a_path, 'B' in b_path" for the first line where the
 * two files differ ("(none)" past a file's end), malloc'd; NULL when
 * one cannot be read or they are the same. */
static char *conf_first_diff(const char *a_path, const char *b_path)
{
	char *a = NULL, *b = NULL, *out = NULL, *sa, *sb;
	const char *pa, *pb, *ea, *eb;
	int line = 1, same;

	if (kb_read_file(a_path, &a, NULL, 0) || kb_read_file(b_path, &b,
							       NULL, 0) ||
	    !strcmp(a, b))
		goto out;
	for (pa = a, pb = b;; line++) {
		ea = pa + strcspn(pa, "\n");
		eb = pb + strcspn(pb, "\n");
		same = ea - pa == eb - pb &&
		       !memcmp(pa, pb, (size_t)(ea - pa));
		if (!same || !*ea != !*eb)
			break;
		if (!*ea)
			goto out;	/* not reached: strcmp differed */
		pa = ea + 1;
		pb = eb + 1;
	}
	sa = shown_line(pa, ea);
	sb = shown_line(pb, eb);
	out = kb_xasprintf("line %d: %s in %s, %s in %s%s", line, sa, a_path,
			   sb, b_path, same ? " (the end of the line differs: "
			   "a newline at the end of the file?)" : "");
	free(sa);
	free(sb);
out:
	free(a);
	free(b);
	return out;
}

/* 1 when dir/name exists. */
static int has_entry(const char *dir, const char *name)
{
	char *p = kb_path_join(dir, name);
	int has = kb_exists(p);

	free(p);
	return has;
}

/* kb_path_trusted() of an entry that exists (lstat), a dangling link
 * refused as one. */
static int entry_trusted(const char *p, char **why)
{
	char target[PATH_MAX];
	ssize_t n;
	int ret = kb_path_trusted(p, why);

	if (ret != -ENOENT)
		return ret;
	free(*why);
	n = readlink(p, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	*why = kb_xasprintf("%s: a link to nothing (%s)", p, target);
	return -EPERM;
}

/* The campaign directory says what runs, as root: the kernels.conf copy
 * (tunables, target, kernels), campaign.json (the plan, the packages
 * pinned) and the job files in profiles/ (fio's exec_prerun= runs a
 * command).  The directory and each of them must be changeable only by
 * root and the trusted users (kb_path_trusted(): every directory above
 * included), or the campaign is neither started nor resumed, as OpenSSH
 * refuses an authorized_keys others can write.  resume: 0 a start, 1 a
 * resume, 2 report --reparse (the message's wording).  0 or -EPERM /
 * -errno (message printed). */
static int campaign_trusted(const char *dir, int resume)
{
	static const char *const names[] = { ".", "kernels.conf",
					     "campaign.json", "profiles" };
	char *pdir = kb_path_join(dir, "profiles"), *why = NULL, *p;
	struct dirent *e;
	size_t i;
	DIR *d;
	int ret = 0;

	struct stat st;

	/* what is missing (a new campaign's files) is not judged here:
	 * reading it says what is wrong; a link to nothing is refused (what
	 * it names could be made later by anyone who can write there) */
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !ret; i++) {
		p = kb_path_join(dir, names[i]);
		if (!lstat(p, &st))
			ret = entry_trusted(p, &why);
		free(p);
	}
	d = ret ? NULL : opendir(pdir);
	while (d && !ret && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = kb_path_join(pdir, e->d_name);
		ret = entry_trusted(p, &why);
		free(p);
	}
	if (d)
		closedir(d);
	if (!ret) {
		/* runs/: the job file fio reads of each run is written
		 * there, and every run's results; an entry someone else
		 * can change (a run directory handed to another user, a
		 * link to elsewhere) would let them run or write as root */
		p = kb_path_join(dir, KB_RUNS_DIR);
		ret = kb_tree_trusted(p, &why);
		free(p);
	}
	if (ret && resume == 2)	/* report --reparse */
		kb_error("%s: not re-parsed: --reparse writes each run's "
			 "metrics.json under runs/ as %s, and %s; make it and "
			 "the directories above it %s and not writable by "
			 "others (chown, chmod go-w)", dir,
			 geteuid() ? "this user" : "root", why,
			 geteuid() ? "yours" : "root's");
	else if (ret)
		kb_error("%s: not %s: a campaign runs what its directory says "
			 "(its kernels.conf, campaign.json and job files, and "
			 "the job file of each run under runs/) as "
			 "%s, and %s; make it and the directories above it %s "
			 "and not writable by others (chown, chmod go-w), or "
			 "%s -o DIR elsewhere", dir, resume ? "resumed" :
			 "started", geteuid() ? "this user" : "root", why,
			 geteuid() ? "yours" : "root's", resume ?
			 "start a new campaign with" : "give");
	free(why);
	free(pdir);
	return ret;
}

/* On resume: the shard DIR/campaign.json records (0 0: none) must be
 * the one asked for (k = n = 0: whatever it is). */
static int resume_shard(struct kb_campaign *c, const char *cjpath,
			unsigned k, unsigned n)
{
	unsigned rk, rn;
	int ret = results_campaign_shard(cjpath, &rk, &rn);

	if (ret)
		return ret;
	if (n && !rn) {
		kb_error("%s holds a campaign that is not split into shards; "
			 "--shard %u/%u needs a directory of its own (-o "
			 "NEWDIR)", c->dir, k, n);
		return -EEXIST;
	}
	if (n && (rk != k || rn != n)) {
		kb_error("%s holds shard %u/%u, not %u/%u: give each shard its "
			 "own directory (-o DIR/shard-K)", c->dir, rk, rn, k, n);
		return -EEXIST;
	}
	c->shard_k = rk;
	c->shard_n = rn;
	return 0;
}

/* What every open starts with: c cleared, its paths. */
static void open_begin(struct kb_campaign *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->retry_quiet.busy_cpu_pct = c->retry_quiet.steal_pct =
		c->retry_quiet.psi_cpu_pct = NAN;	/* set by a retry */
	results_state_init(&c->state);
	c->dir = kb_xstrdup(dir);
	c->conf_path = kb_path_join(dir, "kernels.conf");
}

int campaign_open_guest(struct kb_campaign *c, const char *dir)
{
	char *cjpath = kb_path_join(dir, "campaign.json");
	int ret;

	open_begin(c, dir);
	c->resumed = 1;
	ret = resume_shard(c, cjpath, 0, 0);
	if (!ret)
		ret = kconf_load(c->conf_path, &c->cfg);
	if (!ret)
		ret = plan_build(&c->cfg, &c->plan);
	if (!ret && c->shard_n)
		ret = plan_shard(&c->cfg, &c->plan, c->shard_k, c->shard_n);
	free(cjpath);
	return ret;
}

/* Runs finished but missing from a usable state.json (a kbench killed
 * between a run's metrics.json and the state's update: runner/campaign.h
 * writes them in that order) are recorded from their metrics.json, as a
 * rebuilt state records them, not run again over their files.  0 or
 * -errno (saving the state). */
static int adopt_unrecorded(struct kb_campaign *c, const char *statepath)
{
	size_t i, n = 0;

	for (i = 0; i < c->plan.nruns; i++) {
		const char *key = c->plan.runs[i].key;

		if (!results_state_run(&c->state, key) &&
		    results_state_adopt(c->dir, &c->state, key))
			n++;
	}
	if (!n)
		return 0;
	kb_info("%s: %zu run(s) finished without being recorded in %s "
		"(kbench stopped in between): recorded from their "
		"metrics.json, not run again", c->dir, n, statepath);
	return kb_driver_dry_run ? 0 : results_state_save(statepath,
							  &c->state);
}

/* A resumed campaign whose state.json is missing (bad 0), unreadable or
 * unusable (bad 1: kept aside as state.json.bad-TIME[-K], never deleted
 * nor overwritten): what is done is rebuilt from the runs' metrics.json
 * (results_state_rebuild()) and saved, so that no run already measured
 * is run, and its files overwritten, again.  Silent when no run is on
 * disk (a campaign that stopped before its first run).  0 or -errno. */
static int rebuild_state(struct kb_campaign *c, const char *statepath,
			 int bad)
{
	char *aside = NULL, ts[32];
	size_t n, planned;
	int ret = 0;

	if (bad && !kb_driver_dry_run) {
		time_t now = time(NULL);
		struct tm tm;
		unsigned k;

		gmtime_r(&now, &tm);
		strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
		/* never over an earlier one kept aside */
		for (k = 0;; k++) {
			free(aside);
			aside = k ? kb_xasprintf("%s.bad-%s-%u", statepath, ts,
						 k) :
				    kb_xasprintf("%s.bad-%s", statepath, ts);
			if (!renameat2(AT_FDCWD, statepath, AT_FDCWD, aside,
				       RENAME_NOREPLACE))
				break;
			/* a file system without RENAME_NOREPLACE (NFS, 9p):
			 * link(2) never replaces either */
			if ((errno == EINVAL || errno == ENOSYS) &&
			    !link(statepath, aside) && !unlink(statepath))
				break;
			if (errno != EEXIST || k == 99) {
				ret = -errno;
				kb_error("%s: cannot keep it aside as %s: %s",
					 statepath, aside, strerror(-ret));
				goto out;
			}
		}
	}
	/* campaign.json's plan: with iterations = auto it holds rounds
	 * c->plan gets only later (adaptive_sync_plan()) */
	n = results_state_rebuild(c->dir, &c->state, &planned);
	if (!n && !bad)
		goto out;
	if (kb_driver_dry_run)
		kb_warn("%s: state.json %s: a run would rebuild it from the "
			"runs on disk (%zu of %zu run(s) done); nothing moved "
			"or written (--dry-run)", c->dir, bad ? "could not be "
			"used" : "is missing", n, planned);
	else
		kb_warn("%s: state.json %s%s: rebuilt from the runs on disk: "
			"%zu of %zu run(s) done (a metrics.json with a status), "
			"the rest to do", c->dir, bad ? "could not be used; kept "
			"as " : "is missing", aside ? aside : "", n, planned);
	ret = campaign_save_state(c);
out:
	free(aside);
	return ret;
}

int campaign_open(struct kb_campaign *c, const char *dir,
		  const char *conf_path, int conf_explicit)
{
	return campaign_open_shard(c, dir, conf_path, conf_explicit, 0, 0);
}

int campaign_open_shard(struct kb_campaign *c, const char *dir,
			const char *conf_path, int conf_explicit, unsigned k,
			unsigned n)
{
	char *cjpath, *statepath;
	int ret, unusable = 0;

	open_begin(c, dir);
	cjpath = kb_path_join(dir, "campaign.json");
	statepath = kb_path_join(dir, "state.json");
	c->resumed = kb_exists(cjpath);
	if (c->resumed && conf_explicit && !kb_exists(statepath) &&
	    !has_entry(dir, KB_RUNS_DIR) &&
	    conf_differs(conf_path, c->conf_path)) {
		/* a start that stopped before its first run (a tunable
		 * value refused, a job file missing): the corrected
		 * kernels.conf starts it again, as its error asked */
		kb_info("%s: no run was recorded from its kernels.conf (it "
			"stopped before the first run); starting it again from "
			"%s", dir, conf_path);
		if (unlink(cjpath) == 0)
			c->resumed = 0;
	}

	if (!c->resumed && dir_is_file(dir)) {
		ret = -ENOTDIR;
		goto out;
	}
	if (!c->resumed && !dir_is_empty(dir)) {
		kb_error("%s exists and is not a kbench campaign (no "
			 "campaign.json) but holds files; give -o a new or "
			 "empty directory, so nothing of yours is mixed with "
			 "or overwritten by the campaign", dir);
		ret = -EEXIST;
		goto out;
	}
	if (c->resumed) {
		if (conf_explicit && conf_differs(conf_path, c->conf_path)) {
			char *d = conf_first_diff(conf_path, c->conf_path);

			kb_error("%s holds a campaign made from a different "
				 "kernels.conf than %s (the two must be the "
				 "same byte for byte, comments included%s%s); "
				 "resume it without -c, or start a new campaign "
				 "with -o NEWDIR", dir, conf_path,
				 d ? "; first difference: " : "", d ? d : "");
			free(d);
			ret = -EEXIST;
			goto out;
		}
		ret = campaign_trusted(dir, 1);
		if (!ret)
			ret = snapshot_check(c, cjpath);
		if (!ret)
			ret = resume_shard(c, cjpath, k, n);
		if (!ret)
			ret = kconf_load(c->conf_path, &c->cfg);
	} else {
		c->shard_k = k;
		c->shard_n = n;
		ret = kb_driver_dry_run ? 0 : kb_mkdir_p(dir);
		if (!ret && kb_exists(dir))	/* a dry run makes nothing */
			ret = campaign_trusted(dir, 0);
		if (!ret)
			ret = kconf_load(conf_path, &c->cfg);
		if (!ret) {	/* iterations = auto starts at its rounds */
			struct kb_calibration cal;

			ret = calibrate_apply(&c->cfg, &cal);
			if (ret > 0 && cal.analysis)
				c->calibration_analysis =
					kb_xstrdup(cal.analysis);
			ret = ret < 0 ? -EINVAL : 0;
			results_calibration_free(&cal);
		}
	}
	if (ret)
		goto out;
	ret = plan_build(&c->cfg, &c->plan);
	if (!ret)
		campaign_job_run_s(&c->cfg);	/* the ETA's */
	if (!ret && c->shard_n)
		ret = plan_shard(&c->cfg, &c->plan, c->shard_k, c->shard_n);
	/* before campaign.json and the load hosts' probes */
	if (!ret && c->cfg.nhosts)
		ret = target_hosts_distinct(&c->cfg);
	if (ret)
		goto out;
	if (!c->resumed && kb_driver_dry_run) {
		ret = campaign_check_jobs(&c->cfg);	/* nothing written */
		if (ret)
			goto out;
	} else if (!c->resumed) {
		ret = create(c, conf_path);
		if (ret)
			goto out;
	}
	if (c->resumed && !kb_driver_dry_run && kb_exists(statepath)) {
		/* a kbench stopped between a supersede's renames and the
		 * state's save: finished first (runner/retry.h), or the
		 * validation below took the renamed runs for deleted ones
		 * and ran them alone, their copies unlisted (a break-it
		 * trial); a state.json that does not load is rebuilt below,
		 * its superseded copies with it */
		char *why = NULL;

		if (!results_state_load_why(statepath, &c->state, &why))
			ret = retry_resume_superseding(c);
		free(why);
		results_state_free(&c->state);
		results_state_init(&c->state);
		if (ret < 0)
			goto out;
		ret = 0;
	}
	if (c->resumed) {
		/* one validation of the campaign files (results/validate.h);
		 * runs whose metrics.json is damaged are re-parsed from their
		 * raw artefacts, or redone; a state.json that cannot be used
		 * is rebuilt from the runs on disk */
		struct kb_repairs rep = { 0 };

		ret = results_validate_campaign(dir, &rep);
		unusable = rep.state_unusable;
		if (!ret && rep.n && !unusable && !kb_driver_dry_run)
			ret = results_repair_runs(dir, &rep);
		else if (!ret && !unusable)	/* plan -o: said, not done */
			results_repairs_say(dir, &rep);
		results_repairs_free(&rep);
		if (ret)
			goto out;
	}
	if (unusable) {
		ret = rebuild_state(c, statepath, 1);
	} else if (kb_exists(statepath)) {
		char *why = NULL;

		/* damaged: said as what it is, a warning when the campaign
		 * goes on with the state rebuilt (an error line, then exit
		 * status 0, read as a failure: a helper's trial) */
		ret = results_state_load_why(statepath, &c->state, &why);
		if (ret == -EINVAL && c->resumed)
			kb_warn("%s", why);
		else if (ret)
			kb_error("%s", why);
		free(why);
		if (ret == -EINVAL && c->resumed)
			ret = rebuild_state(c, statepath, 1);
	} else if (c->resumed) {
		ret = rebuild_state(c, statepath, 0);
	}
	if (!ret && c->resumed)
		ret = adopt_unrecorded(c, statepath);
	if (!ret && c->resumed && !kb_driver_dry_run && c->cfg.nhosts)
		load_hosts_resume(c);
out:
	free(cjpath);
	free(statepath);
	return ret;
}

const struct kb_run_record *campaign_run_state(const struct kb_campaign *c,
					     const char *key)
{
	return results_state_run(&c->state, key);
}

int campaign_run_todo(const struct kb_campaign *c, const char *key,
		      int retry_failed)
{
	const struct kb_run_record *st = campaign_run_state(c, key);

	return !st || (retry_failed && !strcmp(st->status, "failed"));
}

int campaign_save_state(const struct kb_campaign *c)
{
	char *path;
	int ret;

	if (kb_driver_dry_run)
		return 0;
	path = kb_path_join(c->dir, "state.json");
	ret = results_state_save(path, &c->state);
	free(path);
	return ret;
}

int campaign_record(struct kb_campaign *c, const char *key,
		    const char *status, const char *reason)
{
	const struct kb_run_record *was = results_state_run(&c->state, key);
	char ts[32], *old[3] = { NULL, NULL, NULL };
	int ret;

	if (was) {
		old[0] = kb_xstrdup(was->status);
		old[1] = was->reason ? kb_xstrdup(was->reason) : NULL;
		old[2] = was->finished ? kb_xstrdup(was->finished) : NULL;
	}
	results_state_set_run(&c->state, key, status, reason,
			      iso_now(ts, sizeof(ts)));
	ret = campaign_save_state(c);
	if (ret) {
		/* state.json not written (a full disk): the run is not
		 * recorded, in memory either, so that what the stop says is
		 * left is what a resume will find to do (a break-it trial:
		 * "5 of the 8 runs to do left (2 run(s) ran)") */
		if (was)
			results_state_set_run(&c->state, key, old[0], old[1],
					      old[2]);
		else
			results_state_del_run(&c->state, key);
	}
	free(old[0]);
	free(old[1]);
	free(old[2]);
	return ret;
}

int campaign_record_result(struct kb_campaign *c, const char *key,
			   const char *status, const char *reason,
			   size_t *nfailed)
{
	const char *st = status ? status : "failed";
	int ret;

	ret = campaign_record(c, key, st, reason);
	if (strcmp(st, "ok")) {
		(*nfailed)++;
		kb_warn("run %s failed: %s (recorded; the campaign goes on)",
			key, reason ? reason : "no reason recorded");
	}
	return ret;
}

char *campaign_job_path(const struct kb_campaign *c, size_t job)
{
	return kb_xasprintf("%s/profiles/%s.fio", c->dir, c->cfg.jobs[job]);
}

/* Number of timed runs recorded as ok. */
size_t campaign_ok_runs(const struct kb_campaign *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->plan.nruns; i++) {
		const struct kb_run_record *st = campaign_run_state(c,
			c->plan.runs[i].key);

		if (!c->plan.runs[i].warmup && !c->plan.runs[i].extra && st &&
		    !strcmp(st->status, "ok"))
			n++;
	}
	return n;
}

/* Counted and warm-up runs of the campaign recorded as failed. */
size_t campaign_failed_runs(const struct kb_campaign *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->plan.nruns; i++) {
		const struct kb_run_record *st = campaign_run_state(c,
			c->plan.runs[i].key);

		if (st && strcmp(st->status, "ok"))
			n++;
	}
	return n;
}

void campaign_close(struct kb_campaign *c)
{
	plan_free(&c->plan);
	kconf_free(&c->cfg);
	results_state_free(&c->state);
	free(c->dir);
	free(c->conf_path);
	free(c->calibration_analysis);
	memset(c, 0, sizeof(*c));
}
