/* runner/run_exec.c - one run in this kernel (run_exec.h): the job file
 * copied, caches dropped, the collectors around fio started from an argv
 * array with a timeout, run.json written and the run directory parsed.
 * Shared by `kbench run` (builtin/run.c) and `kbench guest`
 * (builtin/guest.c). */
#include "runner/run_exec.h"
#include "parsers/procfs.h"
#include "parsers/fio_jobfile.h"
#include "runner/collect.h"
#include "results/run_json.h"
#include "parsers/run_dir.h"
#include "parsers/fio_probe.h"
#include "results/campaign_json.h"
#include "lib/argv.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* sync(), then write what (enum kb_drop_caches: KB_DROP_ALL "3", also
 * dentries and inodes; anything else "1", the page cache) to
 * /proc/sys/vm/drop_caches; warns once (*warned) when it cannot (not
 * root). */
static void drop_caches(int what, int *warned)
{
	const char *val = what == KB_DROP_ALL ? "3\n" : "1\n";
	FILE *f;
	int ok;

	sync();
	f = fopen("/proc/sys/vm/drop_caches", "w");
	ok = f != NULL;
	if (f) {
		if (fputs(val, f) < 0)
			ok = 0;
		if (fclose(f) != 0)	/* closed either way: once */
			ok = 0;
	}
	if (!ok) {
		if (!*warned)
			kb_warn("cannot drop caches (/proc/sys/vm/drop_caches "
				"needs root): runs may start with a warm cache");
		*warned = 1;
	}
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* user + system CPU seconds from getrusage() a to b */
static double cpu_between_s(const struct rusage *a, const struct rusage *b)
{
	return tv_s(b->ru_utime) + tv_s(b->ru_stime) -
	       tv_s(a->ru_utime) - tv_s(a->ru_stime);
}

/* target@HOST (parsers/kconf.h): fio's client expands ${VAR} from this
 * machine's environment, one for every host, so a host with a target of
 * its own gets a job file of its own (fio(1), CLIENT / SERVER:
 * `--client=HOST1 JOB1 --client=HOST2 JOB2`): copies of the job in rdir,
 * job.hostN.fio, whose ${KBENCH_TARGET} and ${KBENCH_SIZE} read
 * ${KBENCH_TARGET_N} and ${KBENCH_SIZE_N}, set to host N's target (its
 * own, else the campaign's) and its size (target_remote_size_bytes()).
 * hj->n = 0 when no host of the run has one (one job file for all). */
struct host_jobs {
	size_t n;			/* hosts, or 0 */
	char *jobfile[KB_MAX_HOSTS];
	char *env[2 * KB_MAX_HOSTS];	/* KBENCH_TARGET_N=, KBENCH_SIZE_N= */
};

static void host_jobs_free(struct host_jobs *hj)
{
	size_t i;

	for (i = 0; i < hj->n; i++) {
		free(hj->jobfile[i]);
		free(hj->env[2 * i]);
		free(hj->env[2 * i + 1]);
	}
	hj->n = 0;
}

/* text with every needle replaced by with (malloc'd) */
static char *replace_all(const char *text, const char *needle,
			 const char *with)
{
	size_t nl = strlen(needle), n = 0;
	const char *p, *q;
	char *out, *o;

	for (p = text; (q = strstr(p, needle)); p = q + nl)
		n++;
	out = o = kb_xmalloc(strlen(text) + n * strlen(with) + 1);
	for (p = text; (q = strstr(p, needle)); p = q + nl) {
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		strcpy(o, with);
		o += strlen(with);
	}
	strcpy(o, p);
	return out;
}

static int host_jobs(const struct kb_config *cfg, const struct kb_target *t,
		     const char *rdir, const char *jobtext,
		     char *const *hosts, size_t nhosts,
		     struct results_run_host *hosts_rec, struct host_jobs *hj)
{
	const struct kb_host_target *ht;
	size_t i, any = 0;
	int ret = 0;

	for (i = 0; i < nhosts; i++)
		any |= !!kconf_host_target(cfg, hosts[i]);
	if (!any)
		return 0;
	for (i = 0; i < nhosts && !ret; i++) {
		char *v = kb_xasprintf("${KBENCH_TARGET_%zu}", i);
		char *z = kb_xasprintf("${KBENCH_SIZE_%zu}", i);
		char *t1 = replace_all(jobtext, "${KBENCH_TARGET}", v);
		char *t2 = replace_all(t1, "${KBENCH_SIZE}", z);
		char *name = kb_xasprintf("job.host%zu.fio", i);
		const char *path = t->path;
		unsigned long long size = t->size_bytes;

		ht = kconf_host_target(cfg, hosts[i]);
		if (ht) {
			path = ht->path;
			size = target_remote_size_bytes(cfg, ht->kind, path);
		}
		hj->jobfile[i] = kb_path_join(rdir, name);
		hj->env[2 * i] = kb_xasprintf("KBENCH_TARGET_%zu=%s", i, path);
		hj->env[2 * i + 1] = kb_xasprintf("KBENCH_SIZE_%zu=%llu", i,
						  size);
		hj->n = i + 1;
		/* run.json hosts: which target each host ran on */
		hosts_rec[i].target = path;
		ret = kb_write_atomic(hj->jobfile[i], t2, strlen(t2));
		free(v);
		free(z);
		free(t1);
		free(t2);
		free(name);
	}
	return ret;
}

/* KBENCH_<NAME>=value for every swept job parameter of the
 * configuration (kconf.h "sweep"), into env (NULL-terminated) and owned[]
 * (to free). */
static void sweep_env(const struct kb_config *cfg,
		      const struct kb_configuration *k, const char **env,
		      char **owned)
{
	size_t t, n = 0;
	char *p;

	for (t = 0; t < cfg->ntunables; t++) {
		if (!cfg->tunables[t].sweep)
			continue;
		owned[n] = kb_xasprintf("KBENCH_%s=%s", cfg->tunables[t].label,
					cfg->tunables[t].values[k->value[t]]);
		for (p = owned[n] + 7; *p != '='; p++)
			*p = (char)toupper((unsigned char)*p);
		env[n] = owned[n];
		n++;
	}
	env[n] = NULL;
}

/* Read every tunable of tu back (right after fio) into reads[] (the
 * values malloc'd into after[], NULL when unreadable; the caller frees
 * them); returns how many.  When one differs from the value
 * configuration k applied, *changed = the reason (malloc'd;
 * tunables_changed()), else NULL. */
static size_t tunables_after(const struct kb_tunables *tu,
			     const struct kb_config *cfg,
			     const struct kb_configuration *k,
			     char *after[KB_MAX_TUNABLES],
			     struct results_tunable_read *reads,
			     char **changed)
{
	const char *applied[KB_MAX_TUNABLES] = { NULL };
	char reason[2048];
	size_t i, n = 0;

	*changed = NULL;
	for (i = 0; tu && i < tu->n && i < cfg->ntunables; i++) {
		if (!tu->paths[i])
			continue;	/* a sweep: fio's */
		applied[i] = cfg->tunables[i].values[k->value[i]];
		after[i] = tunable_read(tu->paths[i], 1);
		reads[n++] = (struct results_tunable_read){ tu->paths[i],
							    after[i] };
	}
	if (tu && tunables_changed(tu->n < cfg->ntunables ? tu->n :
				   cfg->ntunables, tu->labels, tu->paths,
				   applied, (const char *const *)after,
				   reason, sizeof(reason)))
		*changed = kb_xstrdup(reason);
	return n;
}

void run_exec_probe_hosts(const char *const *hosts, const unsigned *ports,
			  size_t n, unsigned timeout_s, unsigned kill_after_s,
			  char **hostnames, char **versions)
{
	char *clients[KB_MAX_ALL_HOSTS], *outs[KB_MAX_ALL_HOSTS];
	int st[KB_MAX_ALL_HOSTS];
	char *argvs[KB_MAX_ALL_HOSTS][5];
	char *const *pargvs[KB_MAX_ALL_HOSTS] = { NULL };
	size_t i;

	if (n > KB_MAX_ALL_HOSTS)
		n = KB_MAX_ALL_HOSTS;
	for (i = 0; i < n; i++) {
		clients[i] = kconf_host_client_arg(hosts[i], ports[i]);
		argvs[i][0] = "fio";
		argvs[i][1] = clients[i];
		argvs[i][2] = "--parse-only";
		argvs[i][3] = "/dev/null";
		argvs[i][4] = NULL;
		pargvs[i] = argvs[i];
	}
	kb_capture_all(pargvs, n, timeout_s, kill_after_s, outs, st);
	for (i = 0; i < n; i++) {
		hostnames[i] = versions[i] = NULL;
		if (st[i] == 0 && outs[i])
			kb_fio_probe_parse(outs[i], &hostnames[i],
					   &versions[i]);
		free(outs[i]);
		free(clients[i]);
	}
}

/* How long the load hosts of a timed-out run may take to answer fio's
 * probe, all together (one that answers does in about a second), and
 * the SIGKILL after it */
#define TIMEOUT_PROBE_S 5
#define TIMEOUT_PROBE_KILL_S 1

/* fio --client timed out: it writes every host's results at its end, so
 * the killed client leaves none, of the hosts that answered too.  Which
 * host kept it waiting (down, hung, cut off) is asked of each apart
 * (run_exec_probe_hosts()) into hosts[].probe, for run_dir.c's
 * reason. */
static void probe_after_timeout(char *const *names, const unsigned *ports,
				size_t n, struct results_run_host *hosts)
{
	char *hn[KB_MAX_HOSTS], *ver[KB_MAX_HOSTS];
	size_t i;

	run_exec_probe_hosts((const char *const *)names, ports, n,
			     TIMEOUT_PROBE_S, TIMEOUT_PROBE_KILL_S, hn, ver);
	for (i = 0; i < n; i++) {
		hosts[i].probe = ver[i] ? 1 : -1;
		free(hn[i]);
		free(ver[i]);
	}
}

void run_exec_fio_argv(struct kb_argv *a, char *const *hosts,
		       const unsigned *ports, size_t nhosts,
		       char *const *host_jobs, const char *out,
		       const char *aux, const char *jobfile, int readonly)
{
	size_t i;

	kb_argv_push(a, "fio");
	/* before any --client: fio's client hands the options that follow
	 * one to that server, which opened (O_TRUNC, as root) the run
	 * directory's fio.json path on its own machine; --output-format
	 * must follow (a server not given it sends its results as text) */
	kb_argv_pushf(a, "--output=%s", out);
	/* also before any --client: fio 3.33 keeps --aux-path to itself
	 * wherever it is (init.c: no FIO_CLIENT_FLAG; a server under
	 * strace never saw it, 2026-12-06), and ahead of the servers'
	 * options no fio that passed it on would make a server write
	 * under this run directory's path on its own machine */
	kb_argv_pushf(a, "--aux-path=%s", aux);
	for (i = 0; i < nhosts; i++) {
		char *client = kconf_host_client_arg(hosts[i], ports[i]);

		kb_argv_push(a, client);
		free(client);
		if (host_jobs)
			kb_argv_push(a, host_jobs[i]);
	}
	kb_argv_push(a, "--output-format=json+");
	if (readonly)
		kb_argv_push(a, "--readonly");
	if (!host_jobs)
		kb_argv_push(a, jobfile);
}

/* ${NAME} as fio will see it for this run: kbench's additions (env,
 * "NAME=value", NULL-ended), else the environment fio inherits */
static const char *run_env_lookup(const char *name, void *ctx)
{
	const char *const *env = ctx;
	size_t n = strlen(name);

	for (; *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return *env + n + 1;
	return getenv(name) ?: "";	/* fio: an unset one is empty */
}

/* The job file text fio is about to run, read as fio will read it in
 * this run's environment (runner/campaign.h campaign_check_job_safety()
 * checked the snapshot when the campaign started; this is the text of
 * this run, sweep values in: a snapshot edited since, or a sweep value
 * that makes an option, is caught here).  0 with *readonly set when no
 * job writes, or -EPERM (said). */
static int run_job_check(const struct kb_config *cfg, const struct kb_run *r,
			 const char *text, size_t len, const char *const *env,
			 int *readonly)
{
	struct fio_jobfile_scan s;
	int ret = 0;

	fio_jobfile_scan_env(text, len, run_env_lookup, (void *)env, &s);
	if (fio_jobfile_refused(&s)) {
		kb_error("run %s: job '%s' %s%s%s%s: refused, fio not started "
			 "(its job file was checked when the campaign started; "
			 "this run's text or environment differs)", r->key,
			 cfg->jobs[r->job], s.outside ? s.outside : s.writes,
			 s.outside ? "" : " and ",
			 s.outside ? "" : s.elsewhere ? "does its I/O where " :
			 "does its I/O in files named after the job: ",
			 s.outside ? "" : s.elsewhere ? s.elsewhere :
			 s.unnamed);
		ret = -EPERM;
	}
	*readonly = !s.writes;
	fio_jobfile_scan_free(&s);
	return ret;
}

int do_run(struct kb_campaign *c, const struct kb_run *r,
	   const struct kb_target *t, const struct kb_tunables *tu,
	   const char *rdir, struct json_t **result, int *drop_warned)
	/* also `kbench guest` */
{
	const struct kb_config *cfg = &c->cfg;
	char *job = campaign_job_path(c, r->job);
	char *jobcopy = kb_path_join(rdir, "job.fio");
	char *out = kb_path_join(rdir, "fio.json");
	char *so = kb_path_join(rdir, "fio.stdout");
	char *se = kb_path_join(rdir, "fio.stderr");
	char *runjson = kb_path_join(rdir, "run.json");
	char *e_target = kb_xasprintf("KBENCH_TARGET=%s", t->path);
	char *e_runtime = kb_xasprintf("KBENCH_RUNTIME=%u", cfg->runtime_s);
	char *e_size = kb_xasprintf("KBENCH_SIZE=%llu", t->size_bytes);
	const char *env[4 + KB_MAX_TUNABLES + 2 * KB_MAX_HOSTS] = { e_target,
		e_runtime, e_size };
	char *e_sweep[KB_MAX_TUNABLES] = { NULL };
	struct kb_argv argv = KB_ARGV_INIT;
	struct host_jobs hj = { 0 };
	struct results_run_host hosts[KB_MAX_HOSTS] = { { 0 } };
	size_t na, hi, nhosts;
	char *const *hnames;
	const unsigned *hports;
	struct kb_run_ctx ctx = { .cfg = cfg, .target = t, .run = r,
				  .config_id = c->plan.configs[r->config].id,
				  .rdir = rdir };
	struct kb_collect_state cst;
	struct kb_spawn_opts so_opts = { 0 };
	struct rusage self0, self1, drop0, drop1;
	struct timespec drop_t0, drop_t1;
	struct kb_spawn_result res;
	struct timespec start;	/* run.json start_unix_ns (push/influx.h) */
	char *buf = NULL;
	int err, readonly = 0;
	sig_atomic_t cont0;
	struct results_run_json rj = { 0 };
	struct results_tunable_read reads[KB_MAX_TUNABLES];
	char *after[KB_MAX_TUNABLES] = { NULL };
	char *tchanged = NULL;
	size_t len;
	int ret;

	*result = NULL;
	/* this job's load hosts: its [job NAME] hosts =, else [global]'s */
	nhosts = kconf_job_hosts(cfg, cfg->jobs[r->job], &hnames, &hports);
	for (hi = 0; hi < nhosts; hi++)
		hosts[hi] = (struct results_run_host){ hnames[hi],
						       hports[hi], NULL, 0 };
	unlink(out);
	sweep_env(cfg, &c->plan.configs[r->config], env + 3, e_sweep);
	ret = kb_read_file(job, &buf, &len, 0);
	if (!ret)
		ret = run_job_check(cfg, r, buf, len, env, &readonly);
	if (!ret)
		ret = kb_write_atomic(jobcopy, buf, len);
	if (!ret)
		ret = host_jobs(cfg, t, rdir, buf, hnames, nhosts, hosts,
				&hj);
	free(buf);
	if (ret)
		goto out;
	run_exec_fio_argv(&argv, hnames, hports, nhosts,
			  hj.n ? hj.jobfile : NULL, out, rdir, jobcopy,
			  readonly && !nhosts);
	/* methodology, not kbench's overhead: make bench drops the same
	 * before bare fio, and prints it apart (run.json
	 * cache_drop_cpu_s); its CPU grows with the page cache (and with
	 * the slab when drop_caches = all) */
	getrusage(RUSAGE_SELF, &drop0);
	clock_gettime(CLOCK_MONOTONIC, &drop_t0);
	drop_caches(cfg->drop_caches, drop_warned);
	clock_gettime(CLOCK_MONOTONIC, &drop_t1);
	getrusage(RUSAGE_SELF, &drop1);
	cont0 = kb_continued;
	ret = collectors_start(&ctx, &cst);
	if (ret)
		goto out;

	so_opts.stdout_path = so;
	so_opts.stderr_path = se;
	for (na = 3; env[na]; na++)
		;
	for (hi = 0; hi < 2 * hj.n; hi++)
		env[na++] = hj.env[hi];
	env[na] = NULL;
	so_opts.env = env;
	so_opts.timeout_s = cfg->runtime_s + cfg->timeout_grace_s;
	so_opts.own_group = 1;	/* fio's job processes die with it */
	/* the kernel's taint around fio: a bit that appears while fio ran
	 * (a WARN, an oops, a soft lockup) is a reason to doubt the run
	 * (parsers/run_dir.c flags it) */
	rj.taint_known = procfs_read_taint(&rj.taint_before) == 0;
	clock_gettime(CLOCK_REALTIME, &start);
	getrusage(RUSAGE_SELF, &self0);
	ret = kb_spawn(argv.v, &so_opts, &res);
	getrusage(RUSAGE_SELF, &self1);
	if (rj.taint_known)
		rj.taint_known = procfs_read_taint(&rj.taint_after) == 0;
	if (rj.taint_known && (rj.taint_after & ~rj.taint_before)) {
		char *what = procfs_taint_describe(rj.taint_after &
						   ~rj.taint_before);

		kb_warn("run %s: the kernel tainted itself while fio ran: "
			"%s; see dmesg; the run is flagged", r->key, what);
		free(what);
	}
	/* a tunable something else wrote while fio ran: not the
	 * configuration measured */
	if (!ret)
		rj.ntunables_after = tunables_after(tu, cfg,
			&c->plan.configs[r->config], after, reads, &tchanged);
	err = collectors_stop(&ctx, &cst);
	rj.kbench_stopped = kb_continued != cont0;
	if (ret) {
		if (ret == -ENOENT)
			kb_error("fio is not installed (apt-get install fio, "
				 "or scripts/install-deps)");
		goto out;
	}
	ret = err;
	if (ret)
		goto out;
	/* after the collectors and the tunables' read-back: not the run */
	if (res.timed_out && nhosts && !kb_spawn_forward_signal)
		probe_after_timeout(hnames, hports, nhosts, hosts);
	rj.fio = &res;
	rj.runtime_s = cfg->runtime_s;
	rj.timeout_s = so_opts.timeout_s;
	rj.diskstats_name = t->stat_name;
	rj.target = t->path;
	rj.warmup = r->warmup;
	/* a profiling run (runner/plan.h): never counted; and whether perf
	 * record sampled during this run */
	if (r->extra)
		rj.extra = r->extra == KB_RUN_PROFILING ? "profiling" :
			   "unsampled";
	rj.perf_record = plan_run_sampled(cfg, r);
	/* KBENCH_SIZE as fio got it: report.md's reproducer */
	rj.target_size_bytes = t->size_bytes;
	rj.start_unix_ns = (int64_t)start.tv_sec * 1000000000 + start.tv_nsec;
	rj.record_hosts = cfg->nhosts != 0;	/* run_dir.c checks each gave
						 * results */
	rj.hosts = hosts;
	rj.nhosts = nhosts;
	rj.tunables_after = reads;
	rj.tunables_changed = tchanged;	/* the run's reason (run_dir.c) */
	/* kbench's own CPU (not fio's) while fio ran: what the measuring
	 * costs the measured run (make bench); run.json also gets the
	 * kernel's identity (release + /proc/version build string + build
	 * id: two builds can share `uname -r`) and the RAM */
	rj.kbench_cpu_during_run_s = cpu_between_s(&self0, &self1);
	/* sync() and the cache drop before the run: CPU and wall */
	rj.cache_drop_cpu_s = cpu_between_s(&drop0, &drop1);
	rj.cache_drop_wall_s = (double)(drop_t1.tv_sec - drop_t0.tv_sec) +
			       (drop_t1.tv_nsec - drop_t0.tv_nsec) / 1e9;
	/* fio wrote these itself: durable before run.json (and then
	 * state.json) say the run is done; inside the local loop's
	 * deferral (lib/file.h) the run's one syncfs covers them */
	kb_fsync_path(out);
	kb_fsync_path(so);
	kb_fsync_path(se);
	ret = results_run_json_write(runjson, &rj);
	if (ret)
		goto out;
	/* stopped by a signal (kb_spawn_forward_signal, set by kbench run's
	 * handler): fio and perf were cut short, so the run is not a
	 * measurement; the caller records nothing and a resume runs it
	 * again, and parsing its files would only print false errors (an
	 * empty perf report of a profiling run) */
	if (kb_spawn_forward_signal)
		goto out;
	*result = run_dir_parse(rdir);
	if (!*result)
		ret = -EIO;
out:
	for (hi = 0; hi < KB_MAX_TUNABLES; hi++)
		free(after[hi]);
	free(tchanged);
	kb_argv_clear(&argv);
	host_jobs_free(&hj);
	free(job);
	free(jobcopy);
	free(out);
	free(so);
	free(se);
	free(runjson);
	free(e_target);
	free(e_runtime);
	free(e_size);
	for (size_t si = 0; si < KB_MAX_TUNABLES; si++)
		free(e_sweep[si]);
	return ret;
}
