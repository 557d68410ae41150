/* runner/run_exec.h - one run in this kernel, shared by `kbench run`
 * (the local driver) and `kbench guest` (inside a vm variant's boot).
 */
#ifndef KB_RUN_EXEC_H
#define KB_RUN_EXEC_H

#include "runner/campaign.h"
#include "runner/target.h"
#include "runner/tunables.h"
#include "lib/argv.h"

struct json_t;	/* jansson's: the run record of parsers/run_dir.h */

/* Run r in rdir (created): copy the job file, drop caches, start the
 * collectors, run fio from an argv array with a timeout of runtime +
 * timeout_grace, stop the collectors, write run.json (results/run_json.h)
 * and parse the directory into *result (run_dir_parse(), parsers/run_dir.h:
 * the run's metrics.json record, status "ok" or "failed" with a reason;
 * the caller's reference).
 * Tunables are the caller's (applied before): tu's are read back right
 * after fio, into run.json's "tunables_after" ({PATH: value, null when
 * unreadable}); one that no longer reads as applied fails the run
 * (run.json "tunables_changed", the reason tunables_changed() gives;
 * parsers/run_dir.c makes it the run's).  tu NULL: none.  0 when it ran
 * (ok or failed), -errno when the campaign cannot go on; 0 with *result
 * NULL when a signal stopped it (kb_spawn_forward_signal, lib/proc.h:
 * not a measurement, nothing parsed).  Implemented in
 * runner/run_exec.c. */
int do_run(struct kb_campaign *c, const struct kb_run *r,
	   const struct kb_target *t, const struct kb_tunables *tu,
	   const char *rdir, struct json_t **result, int *drop_warned);

/* Append fio's command line for one run to a (fio(1)): "fio",
 * --output=OUT and --aux-path=AUX (the run directory: the files fio makes
 * for itself, such as verify's local-JOB-N-verify.state, written there,
 * not in kbench's working directory, where a symlink of that name made
 * fio overwrite its target as root), both ahead of the --client options:
 * fio's client passes the options after one to that server, and a
 * server given --output opened that path on its own machine (fio 3.33
 * keeps --aux-path to itself; a load host's own files, its verify
 * state in its working directory, are the business of its fio
 * --server); for each
 * load host (kernels.conf hosts =; nhosts 0: none) its
 * --client=HOST,PORT (ip6:ADDR,PORT, kconf_host_client_arg(): fio reads
 * the job file here, expanding ${KBENCH_*} from its environment, and
 * sends it to the servers), followed by that host's own job file when
 * host_jobs is not NULL (target@HOST); then --output-format=json+
 * (the servers need it too); with readonly (a local run of a job file that only
 * reads: parsers/fio_jobfile.h) --readonly, fio's own guard (fio(1):
 * no write, trim or file extension; a job that would is refused); then
 * jobfile when host_jobs is NULL. */
void run_exec_fio_argv(struct kb_argv *a, char *const *hosts,
		       const unsigned *ports, size_t nhosts,
		       char *const *host_jobs, const char *out,
		       const char *aux, const char *jobfile, int readonly);

/* What each load host's fio --server says of itself: `fio
 * --client=HOST,PORT --parse-only /dev/null` (connects, runs nothing;
 * its reply parsers/fio_probe.h reads) for the n hosts at once, within
 * timeout_s in all, SIGKILL kill_after_s after the timeout's SIGTERM
 * (0: 10 s; fio's client ignores SIGTERM while a server keeps it
 * waiting): hostnames[i] and versions[i] kb_fio_probe_parse()'s of a
 * probe that exited 0 (malloc'd), both NULL for a host that did not
 * answer so. */
void run_exec_probe_hosts(const char *const *hosts, const unsigned *ports,
			  size_t n, unsigned timeout_s, unsigned kill_after_s,
			  char **hostnames, char **versions);

#endif
