#include "parsers/run_dir.h"
#include "parsers/fio_json.h"
#include "parsers/procfs.h"
#include "parsers/run_perf.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double num(const json_t *o, const char *k, double def)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : def;
}

/* fio's rusage from run.json.  Linux carries a process's peak resident
 * set across fork and exec (exec_mmap() keeps the old mm's in
 * signal->maxrss), so fio's ru_maxrss is at least kbench's own peak at
 * the fork (run.json kbench_maxrss_kib, recorded since kbench kept it):
 * one not above that is kbench's as likely as fio's, n/a with why. */
static void rusage_metrics(const json_t *run, json_t *m, json_t *unavail)
{
	double user = num(run, "user_s", -1), sys = num(run, "sys_s", -1);
	double el = num(run, "elapsed_s", -1);
	double rss = num(run, "maxrss_kib", 0);
	double self = num(run, "kbench_maxrss_kib", 0);

	if (user < 0 || sys < 0 || el <= 0)
		return;
	json_object_set_new(m, "rusage.user_s", json_real(user));
	json_object_set_new(m, "rusage.sys_s", json_real(sys));
	json_object_set_new(m, "rusage.elapsed_s", json_real(el));
	json_object_set_new(m, "rusage.cpu_pct",
			    json_real(100.0 * (user + sys) / el));
	if (self > 0 && rss <= self) {
		char *why = kb_xasprintf("fio's ru_maxrss %.0f KiB is not "
					 "above kbench's own peak resident set "
					 "at the fork, %.0f KiB, which Linux "
					 "counts in the child's: fio's own "
					 "peak is not known", rss, self);

		json_object_set_new(unavail, "rusage.maxrss_kib",
				    json_string(why));
		free(why);
	} else
		json_object_set_new(m, "rusage.maxrss_kib",
				    json_integer((json_int_t)rss));
	json_object_set_new(m, "rusage.major_faults",
			    json_integer((json_int_t)num(run, "major_faults", 0)));
	json_object_set_new(m, "rusage.minor_faults",
			    json_integer((json_int_t)num(run, "minor_faults", 0)));
}

/* Load a snapshot pair name.{before,after}; NULL texts when absent. */
static int load_pair(const char *dir, const char *name, char **a, char **b)
{
	char *pa = kb_xasprintf("%s/%s.before", dir, name);
	char *pb = kb_xasprintf("%s/%s.after", dir, name);
	int ret = 0;

	*a = *b = NULL;
	if (kb_read_file(pa, a, NULL, 1) < 0 || kb_read_file(pb, b, NULL, 1) < 0) {
		free(*a);
		free(*b);
		*a = *b = NULL;
		ret = -1;
	}
	free(pa);
	free(pb);
	return ret;
}

/* What else the machine did: PSI and CPU frequency (runner/
 * collect_proc.c).  Campaigns recorded before these snapshots existed
 * get the reason, not zeros. */
static void machine_metrics(const char *dir, json_t *m, json_t *unavail,
			    json_t *warnings)
{
	static const char *const psi[] = { "psi.cpu_some_pct",
		"psi.io_some_pct", "psi.memory_some_pct" };
	char *a, *b;
	size_t i;

	if (load_pair(dir, "pressure", &a, &b) == 0) {
		struct kb_pressure pa, pb;

		if (procfs_parse_pressure("pressure.before", a, &pa) == 0 &&
		    procfs_parse_pressure("pressure.after", b, &pb) == 0)
			procfs_psi_metrics(&pa, &pb, m, unavail, warnings);
		else
			for (i = 0; i < 3; i++)
				json_object_set_new(unavail, psi[i],
					json_string("malformed pressure "
						    "snapshot"));
		free(a);
		free(b);
	} else {
		for (i = 0; i < 3; i++)
			json_object_set_new(unavail, psi[i], json_string(
				"no pressure snapshots in the run directory"));
	}
	if (load_pair(dir, "cpufreq", &a, &b) == 0) {
		struct kb_cpufreq fa, fb;

		procfs_parse_cpufreq(a, &fa);
		procfs_parse_cpufreq(b, &fb);
		procfs_cpufreq_metrics(&fa, &fb, m, unavail);
		free(a);
		free(b);
	} else {
		json_object_set_new(unavail, "cpu.freq_mhz", json_string(
			"no cpufreq snapshots in the run directory"));
	}
}

static void proc_metrics(const char *dir, const json_t *run, json_t *m,
			 json_t *unavail, json_t *warnings)
{
	const char *dev = json_string_value(json_object_get(run, "diskstats_name"));
	char *a, *b;

	if (load_pair(dir, "proc_stat", &a, &b) == 0) {
		struct kb_cpu_ticks ta, tb;
		char why[256];

		if (procfs_parse_stat("proc_stat.before", a, &ta) == 0 &&
		    procfs_parse_stat("proc_stat.after", b, &tb) == 0 &&
		    procfs_cpu_metrics(&ta, &tb, m, unavail, why,
				       sizeof(why)) == -ERANGE)
			json_array_append_new(warnings, json_string(why));
		free(a);
		free(b);
	} else {
		json_array_append_new(warnings,
			json_string("no /proc/stat snapshots: cpu.* n/a"));
	}
	machine_metrics(dir, m, unavail, warnings);
	if (!dev)
		return;
	if (load_pair(dir, "diskstats", &a, &b) == 0) {
		struct kb_diskstats da, db;

		if (procfs_parse_diskstats("diskstats.before", a, dev, &da) == 0 &&
		    procfs_parse_diskstats("diskstats.after", b, dev, &db) == 0)
			procfs_disk_metrics(&da, &db, m);
		else
			json_array_append_new(warnings, json_string(
				"target not found in /proc/diskstats: disk.* n/a"));
		free(a);
		free(b);
	}
}

static int has_io(const json_t *m)
{
	static const char *const keys[] = { "read.iops", "write.iops",
					    "trim.iops", "mixed.iops", NULL };
	const char *const *k;

	for (k = keys; *k; k++)
		if (num(m, *k, 0) > 0)
			return 1;
	return 0;
}

/* The kernel the run ran on, as run.json recorded it (builtin/run.c,
 * parsers/procfs.h procfs_record_kernel()): { "release", "proc_version",
 * "build_id" }, only the keys known; NULL for runs recorded before. */
static json_t *kernel_identity(const json_t *run)
{
	static const char *const keys[][2] = {
		{ "kernel_release", "release" },
		{ "proc_version", "proc_version" },
		{ "kernel_build_id", "build_id" },
	};
	json_t *k = NULL;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(run, keys[i][0]);

		if (!json_is_string(v))
			continue;
		if (!k)
			k = json_object();
		json_object_set(k, keys[i][1], v);
	}
	return k;
}

/* kbench was stopped while fio ran (run.json kbench_stopped: Ctrl-Z's
 * SIGTSTP or a SIGSTOP; fio, in its own process group, went on): the
 * "after" snapshots were taken when it went on, so the shares of the
 * machine's CPU, the tasks', PSI, the disk's counts and fio's %CPU over
 * kbench's wall clock cover more than the run (a break-it trial: idle
 * 89.6% for about 40, fio 12% for 70, elapsed 4.83 s for 1.4, nothing
 * said).  Those metrics are n/a with the reason, the run flagged; fio's
 * own numbers stand. */
static void kbench_stopped(const json_t *run, json_t *m, json_t *unavail,
			   json_t *flags)
{
	static const char *const prefixes[] = { "cpu.", "task.", "psi.",
						"disk.", "rusage.", "mem." };
	static const char why[] = "kbench was stopped (Ctrl-Z or SIGSTOP) "
		"while fio ran: its snapshots cover more than the run";
	const char *k;
	json_t *v;
	void *tmp;
	size_t i;

	if (!json_is_true(json_object_get(run, "kbench_stopped")))
		return;
	json_object_foreach_safe(m, tmp, k, v)
		for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			if (!strncmp(k, prefixes[i], strlen(prefixes[i]))) {
				json_object_set_new(unavail, k,
						    json_string(why));
				json_object_del(m, k);
				break;
			}
	json_array_append_new(flags, json_string(why));
}

/* A taint bit the kernel set while fio ran (run.json kernel_taint_before
 * and _after, runner/run_exec.c): a flag, "the kernel tainted itself
 * while fio ran: W (a kernel warning); see dmesg".  A WARN's
 * backtrace, an oops or a soft lockup costs the run time the job's
 * numbers do not say, and the kernel is the thing measured. */
static void taint_flag(const json_t *run, json_t *flags)
{
	json_t *b = json_object_get(run, "kernel_taint_before");
	json_t *a = json_object_get(run, "kernel_taint_after");
	unsigned long long added;
	char *what, *msg;

	if (!json_is_integer(b) || !json_is_integer(a))
		return;
	added = (unsigned long long)json_integer_value(a) &
		~(unsigned long long)json_integer_value(b);
	if (!added)
		return;
	what = procfs_taint_describe(added);
	msg = kb_xasprintf("the kernel tainted itself while fio ran: %s; see "
			   "dmesg", what);
	json_array_append_new(flags, json_string(msg));
	free(what);
	free(msg);
}

/* The last lines of DIR/fio.stderr (at most 3 non-blank ones, at most
 * 400 bytes: the end is kept), joined with " | ", control characters as
 * '?'; "" when there is none. */
static void stderr_tail(const char *dir, char *out, size_t size)
{
	char *sp = kb_path_join(dir, "fio.stderr"), *se = NULL, *line, *save;
	char *last[3] = { NULL };
	size_t max = size - 1 < 400 ? size - 1 : 400, n = 0, i, len;
	char *joined;

	out[0] = '\0';
	if (kb_read_file(sp, &se, NULL, 1) < 0) {
		free(sp);
		return;
	}
	free(sp);
	for (line = strtok_r(se, "\r\n", &save); line;
	     line = strtok_r(NULL, "\r\n", &save)) {
		if (!line[strspn(line, " \t")])
			continue;
		last[0] = last[1];
		last[1] = last[2];
		last[2] = line;
	}
	joined = kb_xasprintf("%s%s%s%s%s", last[0] ? last[0] : "",
			      last[0] ? " | " : "", last[1] ? last[1] : "",
			      last[1] ? " | " : "", last[2] ? last[2] : "");
	len = strlen(joined);
	for (i = len > max ? len - max : 0; i < len; i++) {
		unsigned char c = (unsigned char)joined[i];

		out[n++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[n] = '\0';
	free(joined);
	free(se);
}

/* fio --client writes the servers' messages ("<name> job: you need to
 * specify size=", "client <HOST>: exited with error 1") into its output
 * file before the JSON, where the parser warns of them ("non-JSON
 * preamble line N: '...'", parsers/fio_json.c): the last 3 joined with
 * " | " into out (at most size - 1 bytes, the end kept), "" if none. */
static void preamble_tail(const json_t *fio, char *out, size_t size)
{
	static const char tag[] = "non-JSON preamble line ";
	const char *last[3] = { NULL }, *w, *q;
	const json_t *v;
	size_t i, l;
	char *joined, *r;

	out[0] = '\0';
	json_array_foreach(json_object_get(fio, "warnings"), i, v) {
		w = json_string_value(v);
		if (!w || strncmp(w, tag, sizeof(tag) - 1) ||
		    !(q = strstr(w, ": '")))
			continue;
		last[0] = last[1];
		last[1] = last[2];
		last[2] = q + 3;
	}
	joined = kb_xasprintf("%s%s%s%s%s", last[0] ? last[0] : "",
			      last[0] ? " | " : "", last[1] ? last[1] : "",
			      last[1] ? " | " : "", last[2] ? last[2] : "");
	/* each line ends with the parser's closing quote */
	for (r = joined; (r = strstr(r, "' | ")); )
		memmove(r, r + 1, strlen(r));
	l = strlen(joined);
	if (l && joined[l - 1] == '\'')
		joined[--l] = '\0';
	snprintf(out, size, "%s", l >= size ? joined + l - (size - 1) : joined);
	free(joined);
}

/* hosts = (run.json "hosts": [{"host", "port"}], runner/run_exec.c):
 * the load hosts with no client_stats entry in fio's output ("HOST:PORT,
 * ..." into out), e.g. down or no fio --server there (fio says "failed to
 * connect" on stderr, goes on with the others and exits 0) or a server
 * that died during the run (fio 3.33 says nothing and exits 0); fio NULL:
 * all of them.  probe: only those whose answered_probe (a timed-out
 * run's, runner/run_exec.c) is false (-1) or true (1); 0: any.  Returns
 * how many. */
static int missing_hosts(const json_t *run, const json_t *fio, int probe,
			 char *out, size_t size)
{
	const json_t *h, *job, *ap;
	size_t i, j, l;
	int n = 0;

	out[0] = '\0';
	json_array_foreach(json_object_get(run, "hosts"), i, h) {
		const char *name = json_string_value(json_object_get(h, "host"));
		int found = 0;

		if (!name)
			continue;
		ap = json_object_get(h, "answered_probe");
		if (probe && (!json_is_boolean(ap) ||
			      json_is_true(ap) != (probe > 0)))
			continue;
		json_array_foreach(json_object_get(fio, "jobs"), j, job) {
			const char *jh = json_string_value(
				json_object_get(job, "hostname"));

			if (jh && !strcmp(jh, name))
				found = 1;
		}
		if (found)
			continue;
		l = strlen(out);
		/* an IPv6 address bracketed, as kconf_host_label() */
		snprintf(out + l, size - l, "%s%s%s%s:%d", n ? ", " : "",
			 strchr(name, ':') ? "[" : "", name,
			 strchr(name, ':') ? "]" : "", (int)num(h, "port", 0));
		n++;
	}
	return n;
}

/* A timed-out fio --client's hosts told apart by the probe after it
 * (run.json hosts[].answered_probe), appended to reason: "; HOST did not
 * answer fio's probe after the timeout ...; HOST did", whether or not
 * fio wrote their results (a client that had them all may still wait
 * for a server that stopped answering); nmiss: how many hosts' results
 * fio's output lacks.  Nothing when no host was probed. */
static void silent_hosts(const json_t *run, int nmiss, char *reason,
			 size_t size)
{
	char silent[512], answered[512];
	int ns = missing_hosts(run, NULL, -1, silent, sizeof(silent));
	int na = missing_hosts(run, NULL, 1, answered, sizeof(answered));
	size_t l = strlen(reason);

	if (ns)
		snprintf(reason + l, size - l, "; %s did not answer fio's "
			 "probe after the timeout (down, hung or cut off: it "
			 "kept fio waiting)%s%s%s", silent, na ? "; " : "",
			 na ? answered : "", na ? " did" : "");
	else if (na)
		snprintf(reason + l, size - l, "; every load host answered "
			 "fio's probe after the timeout");
	l = strlen(reason);
	if (na && nmiss)
		snprintf(reason + l, size - l, " (the results of a host that "
			 "answered were lost with the killed fio client, which "
			 "writes every host's at its end)");
}

/* What the run's work was (issue 13, fixed-size jobs): "time" when its
 * job file (job.fio, as run) sets time_based, which fio 3.33 leaves out
 * of its JSON options when given as a bare flag; else what fio's options
 * said (parsers/fio_json.h "work"); NULL when unknown. */
static const char *run_work(const char *dir, const json_t *fio)
{
	char *path = kb_path_join(dir, "job.fio"), *text = NULL, *line;
	char *save = NULL;
	const char *work = json_string_value(json_object_get(fio, "work"));

	if (kb_exists(path) && kb_read_file(path, &text, NULL, 1) == 0) {
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *l = kb_trim(line), *eq;

			if (strncmp(l, "time_based", 10) ||
			    (l[10] && l[10] != '=' && l[10] != ' ' &&
			     l[10] != '\t'))
				continue;
			eq = strchr(l, '=');
			if (!eq || strcmp(kb_trim(eq + 1), "0"))
				work = "time";
		}
	}
	free(text);
	free(path);
	return work;
}

/* The bytes of fio.json's head searched for fio's messages. */
#define FIO_HEAD_BYTES 65536

/* fio's "fio: terminating on signal N" (its signal handler, fio's
 * backend.c) in head, the head of its output (FIO_HEAD_BYTES, as the
 * parser read it: the file is not read again), or in its stderr: a signal
 * from outside kbench stopped it, to whichever of its processes it went
 * (a SIGTERM to the job process: fio exits 0 with the part it ran, a
 * break-it trial: recorded ok and counted); N, or 0. */
static int fio_terminated(const char *head, const char *se_text)
{
	static const char tag[] = "fio: terminating on signal ";
	const char *p = head ? strstr(head, tag) : NULL;

	if (!p && se_text)
		p = strstr(se_text, tag);
	return p ? atoi(p + sizeof(tag) - 1) : 0;
}

json_t *run_dir_parse(const char *dir)
{
	char *runpath = kb_path_join(dir, "run.json");
	char *fiopath = kb_path_join(dir, "fio.json");
	char *sepath = kb_path_join(dir, "fio.stderr"), *fio_stderr = NULL;
	json_t *run = kb_json_load(runpath), *out = NULL, *fio = NULL;
	json_t *metrics = json_object(), *warnings = json_array(), *fv;
	json_t *flags = json_array(), *kernel, *unavail = json_object();
	char reason[2048] = "", err[1024] = "", ran[128] = "", tail[512];
	char miss[1024];
	int nmiss;
	char *fio_head = NULL;
	struct fio_parse_opts fo = { .side_name = "fio.stderr",
				     .head = &fio_head,
				     .head_max = FIO_HEAD_BYTES };
	double runtime, elapsed;
	int exit_status, group_left, tail_said = 0, tsig;

	if (!run)
		goto out;
	runtime = num(run, "runtime_s", 0);
	elapsed = num(run, "elapsed_s", 0);
	exit_status = (int)num(run, "exit_status", -1);
	group_left = (int)num(run, "group_left", 0);
	stderr_tail(dir, tail, sizeof(tail));

	rusage_metrics(run, metrics, unavail);
	proc_metrics(dir, run, metrics, unavail, warnings);
	run_dir_perf(dir, run, metrics, warnings, flags);
	taint_flag(run, flags);

	/* what fio_json.h's page-cache check needs beyond fio.json */
	if (num(run, "mem_total_kib", 0) > 0)
		fo.ram_bytes = (unsigned long long)num(run, "mem_total_kib", 0) *
			       1024;
	if (kb_exists(sepath) && kb_read_file(sepath, &fio_stderr, NULL, 1) == 0)
		fo.side_text = fio_stderr;
	fio = fio_parse_file_opts(fiopath, &fo, err, sizeof(err));
	if (fio) {
		json_t *fm = json_object_get(fio, "metrics"), *w, *job;
		double fio_elapsed = 0;
		size_t i;

		json_object_update(metrics, fm);
		json_object_update(unavail, json_object_get(fio,
							  "unavailable"));
		json_array_foreach(json_object_get(fio, "warnings"), i, w)
			json_array_append(warnings, w);
		json_array_foreach(json_object_get(fio, "flags"), i, w)
			json_array_append(flags, w);
		/* fio's own elapsed (whole seconds) says how long the job ran,
		 * kbench's wall clock includes fio's start-up */
		json_array_foreach(json_object_get(fio, "jobs"), i, job)
			if (num(job, "elapsed_s", 0) > fio_elapsed)
				fio_elapsed = num(job, "elapsed_s", 0);
		if (fio_elapsed > 0)
			elapsed = fio_elapsed;
	}
	/* to the second, but a run cut short never reads as whole ("ran
	 * 2 s of 2 s" for 1.58 s) */
	if (runtime > 0)
		snprintf(ran, sizeof(ran), elapsed < runtime &&
			 round(elapsed) >= runtime ? "; ran %.2f s of %.0f s" :
			 "; ran %.0f s of %.0f s", elapsed, runtime);

	if (json_is_true(json_object_get(run, "timed_out"))) {
		/* fio --client waiting for a load host that died: which
		 * hosts' results never came (all, when fio wrote nothing) */
		nmiss = missing_hosts(run, fio, 0, miss, sizeof(miss));
		double limit = num(run, "timeout_s", 0);
		char lim[96] = "";

		/* the limit is runtime + timeout_grace; the end comes later
		 * (SIGTERM, and SIGKILL 10 s after it) */
		if (limit > runtime && runtime > 0)
			snprintf(lim, sizeof(lim), ", its limit %.0f s (runtime "
				 "%.0f s + grace %.0f s)", limit, runtime,
				 limit - runtime);
		else
			snprintf(lim, sizeof(lim), " (runtime %.0f s + grace)",
				 runtime);
		snprintf(reason, sizeof(reason),
			 "fio timed out: %s after %.0f s%s%s%s%s",
			 json_object_get(run, "group_left") ?
			 "killed with its job processes" : "killed",
			 elapsed, lim, nmiss ? "; no results from load host" :
			 "", nmiss > 1 ? "s " : nmiss ? " " : "", nmiss ? miss : "");
		/* fio's client writes every host's results at its end: the
		 * hosts that kept it waiting are those that did not answer
		 * a probe after it (runner/run_exec.c) */
		silent_hosts(run, nmiss, reason, sizeof(reason));
	} else if (num(run, "signal", 0) > 0) {
		snprintf(reason, sizeof(reason), "fio killed by signal %d%s",
			 (int)num(run, "signal", 0), ran);
	} else if ((nmiss = missing_hosts(run, fio, 0, miss, sizeof(miss)))) {
		snprintf(reason, sizeof(reason), "load host%s %s gave no results (down, no fio --server listening, refused, or its server died during the run)",
			 nmiss > 1 ? "s" : "", miss);
	} else if (fio && fio_result_error(fio, err, sizeof(err))) {
		snprintf(reason, sizeof(reason), "%s; exit status %d%s", err,
			 exit_status, ran);
	} else if (exit_status == 128) {
		/* fio's own status when SIGINT or SIGTERM stops it (its
		 * signal handler, fio.h/backend.c exit_value = 128): sent by
		 * someone else, kbench's own stop records no run */
		snprintf(reason, sizeof(reason), "fio exited with status 128: "
			 "stopped by SIGINT or SIGTERM from outside kbench "
			 "(fio's status for those)%s%s%s", ran,
			 tail[0] ? ": " : "", tail);
		tail_said = 1;
	} else if ((tsig = fio_terminated(fio_head, fio_stderr)) > 0) {
		snprintf(reason, sizeof(reason), "fio stopped by signal %d from "
			 "outside kbench ('fio: terminating on signal %d'), "
			 "exit status %d%s: what it measured is cut short",
			 tsig, tsig, exit_status, ran);
	} else if (exit_status != 0) {
		snprintf(reason, sizeof(reason), "fio exited with status %d%s%s",
			 exit_status, tail[0] ? ": " : "", tail);
		tail_said = 1;
	} else if (!fio) {
		snprintf(reason, sizeof(reason), "unparsable fio output: %s",
			 err);
	} else if (!has_io(metrics)) {
		snprintf(reason, sizeof(reason), "fio reported no I/O");
	}
	/* a tunable something else wrote while fio ran (runner/run_exec.c
	 * read it back after fio): not the configuration measured */
	if (json_is_string(json_object_get(run, "tunables_changed"))) {
		size_t l = strlen(reason);

		if (!l)
			tail_said = 1;	/* fio's stderr says nothing of it */
		snprintf(reason + l, sizeof(reason) - l, "%s%s", l ? "; " : "",
			 json_string_value(json_object_get(run,
							   "tunables_changed")));
	}
	/* a job process that outlived fio (stopped, hung) held the device
	 * into the next run until kbench killed it (lib/proc.h) */
	if (group_left > 0) {
		size_t l = strlen(reason);

		snprintf(reason + l, sizeof(reason) - l, "%s%d of fio's job "
			 "process(es) (stopped, hung, or left by a fio that "
			 "died) were still running after fio ended and were "
			 "killed (%s)", l ? "; " : "fio ended but ",
			 group_left, num(run, "group_signal", 0) == 9 ?
			 "SIGTERM, then SIGKILL" : "SIGTERM");
	}
	if (reason[0] && tail[0] && !tail_said) {
		size_t l = strlen(reason);

		snprintf(reason + l, sizeof(reason) - l, "; fio stderr: %s",
			 tail);
	} else if (reason[0] && !tail[0] && json_object_get(run, "hosts")) {
		/* fio --client: the servers' messages are in its output */
		size_t l = strlen(reason);

		preamble_tail(fio, tail, sizeof(tail));
		if (tail[0])
			snprintf(reason + l, sizeof(reason) - l,
				 "; fio's output: %s", tail);
	}

	kbench_stopped(run, metrics, unavail, flags);
	fv = fio ? json_object_get(fio, "fio_version") : NULL;
	/* a metric measured after all (another source) is not unavailable */
	{
		const char *k;
		json_t *v;
		void *tmp;

		json_object_foreach_safe(unavail, tmp, k, v)
			if (json_object_get(metrics, k))
				json_object_del(unavail, k);
	}
	out = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
			"status", reason[0] ? "failed" : "ok",
			"reason", reason[0] ? json_string(reason) : json_null(),
			"metrics", metrics, "unavailable", unavail,
			"warnings", warnings, "flags", flags,
			"fio_version", fv ? json_incref(fv) : json_null());
	metrics = warnings = flags = unavail = NULL;
	if (fio && json_is_string(json_object_get(fio, "suspect"))) {
		json_object_set(out, "suspect", json_object_get(fio, "suspect"));
		json_object_set(out, "message", json_object_get(fio, "message"));
	}
	if (fio && run_work(dir, fio))
		json_object_set_new(out, "work", json_string(run_work(dir,
								      fio)));
	kernel = kernel_identity(run);
	if (kernel)
		json_object_set_new(out, "kernel", kernel);
	/* KBENCH_SIZE (runner/run_exec.c): the reproducer's size */
	if (json_integer_value(json_object_get(run, "target_size_bytes")) > 0)
		json_object_set(out, "target_size_bytes",
				json_object_get(run, "target_size_bytes"));
out:
	json_decref(unavail);
	json_decref(metrics);
	json_decref(warnings);
	json_decref(flags);
	json_decref(fio);
	json_decref(run);
	free(fio_stderr);
	free(fio_head);
	free(runpath);
	free(fiopath);
	free(sepath);
	return out;
}
