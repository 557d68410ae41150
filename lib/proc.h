/* lib/proc.h - start children from argv arrays (never a shell string).
 *
 * kb_spawn() forks, redirects the child's stdout and stderr to files,
 * adds environment variables, execvp()s argv, and waits with wait4(2) so
 * the child's rusage is returned (getrusage(2) semantics: the child and
 * its waited-for descendants).  A timeout sends SIGTERM, then SIGKILL 10 s
 * later.  The child gets SIGTERM if kbench dies (PR_SET_PDEATHSIG,
 * prctl(2)).  By default the child runs in the parent's process group, so
 * a Ctrl-C at the terminal reaches it too (fio then writes its report and
 * exits).
 *
 * With own_group (fio) the child leads a process group of its own
 * (setpgid(2)) with stdin from /dev/null, so that its whole tree can be
 * killed: the timeout's SIGTERM (with SIGCONT, which wakes a stopped
 * process) and SIGKILL, and a forwarded signal (kb_spawn_forward_signal:
 * the caller's SIGINT/SIGTERM/SIGHUP handler sets it, which is how a
 * Ctrl-C still reaches it) go to the whole group, and whatever of the
 * group is still running when the child has ended (a fio job process that
 * is stopped or hung) gets SIGTERM + SIGCONT, then SIGKILL 3 s later,
 * before kb_spawn() returns: nothing of it outlives the call.  "Group"
 * here is the tree of kb_tree_count(): fio's job processes lead sessions
 * of their own (fio calls setsid(2) in each), out of reach of kill(-pgid),
 * and outlive a fio killed by a signal.
 */
#ifndef KB_PROC_H
#define KB_PROC_H

#include <signal.h>
#include <sys/resource.h>
#include <stddef.h>

struct kb_spawn_opts {
	const char *stdout_path;	/* NULL: inherit */
	const char *stderr_path;	/* NULL: inherit */
	const char *const *env;		/* "NAME=value" additions, NULL-ended */
	unsigned timeout_s;		/* 0: none */
	unsigned kill_after_s;		/* SIGKILL this long after the
					 * timeout's SIGTERM or a forwarded
					 * signal; 0: 10 s */
	int own_group;			/* see above */
};

struct kb_spawn_result {
	int exited;		/* 1 if the child exited normally */
	int exit_status;	/* its status when exited */
	int signal;		/* the signal that ended it, else 0 */
	int timed_out;		/* 1 if kbench killed it on timeout */
	double elapsed_s;	/* wall-clock, CLOCK_MONOTONIC */
	struct rusage ru;	/* from wait4(2) */
	long pid;		/* the child's (with own_group: its group's) */
	int group_left;		/* own_group: processes of the group still
				 * running when the child had ended */
	int group_signal;	/* the signal they needed at last: SIGTERM or
				 * SIGKILL (0: none was left) */
	long parent_maxrss_kib;	/* kbench's own peak resident set at the
				 * fork (getrusage RUSAGE_SELF): Linux
				 * carries the parent's peak across fork
				 * and exec into the child's ru_maxrss, so
				 * one not above it may be kbench's */
};

/* Run argv[0] (PATH searched) with argv and wait for it.  Returns 0 when
 * the child was started and reaped (whatever its status: see *res), or
 * -errno when it could not be started (message printed; exec failure is
 * reported as -ENOENT/-EACCES from the child through a pipe). */
int kb_spawn(char *const argv[], const struct kb_spawn_opts *opts,
	     struct kb_spawn_result *res);

/* A child started by kb_spawn_start(), not yet waited for. */
struct kb_child {
	long pid;
	int stdin_fd;		/* the write end of its stdin, or -1 */
	double start_s;		/* kb_mono_s() when it was started */
	struct kb_spawn_opts opts;	/* a copy (its strings: the
					 * caller's, until the wait) */
	const char *name;	/* argv[0] (the caller's), for messages */
	char *tree_cmd;		/* own_group: its /proc/PID/cmdline after
				 * the exec (malloc'd; freed by the wait) */
	size_t tree_cmdlen;
	long parent_maxrss_kib;	/* kb_spawn_result's, taken at the fork */
};

/* kb_spawn() in two steps, for a child started early and given its work
 * later (a gnuplot started before fio runs, fed its scripts after:
 * reports/plots.h kb_gnuplot_start()).  kb_spawn_start() starts argv as
 * kb_spawn() does and returns once it has exec'd: 0, or -errno as
 * kb_spawn() (message printed; *c then holds no child).  stdin_pipe:
 * the child's stdin is a pipe whose write end is c->stdin_fd (close-on-
 * exec, so later children do not hold it open), for kb_child_write();
 * with own_group too, the pipe rather than /dev/null.
 * kb_spawn_wait() closes that pipe (end of input), then waits as
 * kb_spawn() does: the timeout (opts.timeout_s) counts from the wait,
 * elapsed_s from the start; exactly one wait per started child. */
int kb_spawn_start(char *const argv[], const struct kb_spawn_opts *opts,
		   int stdin_pipe, struct kb_child *c);
int kb_spawn_wait(struct kb_child *c, struct kb_spawn_result *res);

/* Write len bytes of buf to the child's stdin pipe: 0, or -errno
 * (-EPIPE: the child has closed it or ended, with no SIGPIPE to kbench;
 * -EBADF: no pipe).  Nothing printed. */
int kb_child_write(struct kb_child *c, const char *buf, size_t len);

/* Seconds on CLOCK_MONOTONIC (clock_gettime(2)): for deadlines. */
double kb_mono_s(void);

/* The path execvp(3) would run for prog: prog itself when it holds a
 * '/', else the first executable PATH entry (PATH unset: /usr/bin:/bin).
 * malloc'd, or NULL when there is none. */
char *kb_which(const char *prog);

/* The same lookup in the colon-separated list path instead of $PATH
 * (NULL: /usr/bin:/bin; an empty entry, and so "", is the working
 * directory, as for glibc's execvp): what a child given PATH=path
 * runs. */
char *kb_path_which(const char *path, const char *prog);

/* Run argv and capture its stdout (at most 64 KiB, NUL-terminated,
 * malloc'd into *out).  Returns the exit status (>= 0), or -errno when it
 * could not be run.  stderr goes to /dev/null. */
int kb_capture(char *const argv[], char **out);

/* kb_capture() of n commands at once: all started, then each waited for,
 * so n children that hang cost timeout_s in all, not n times it
 * (timeout_s counts from the first start, for every child; the first
 * child over it gets SIGTERM and kill_after_s later (0: 10 s) SIGKILL as
 * in kb_spawn(), and those still running after that SIGKILL at once: a
 * fio --client waiting for a server ignores SIGTERM).  outs[i] and
 * statuses[i] as kb_capture()'s *out and return value for argvs[i]
 * (outs[i] NULL when it could not be run or its output not read).
 * Returns 0. */
int kb_capture_all(char *const *const argvs[], size_t n, unsigned timeout_s,
		   unsigned kill_after_s, char **outs, int *statuses);

/* Set (from a signal handler) to a signal number to have kb_spawn
 * forward it to the running child once (SIGTERM from `kill`, which unlike
 * a terminal's SIGINT does not reach the child by itself); a child still
 * running kill_after_s (0: 10 s) later gets SIGKILL. */
extern volatile int kb_spawn_forward_signal;

/* *set = kbench run's stop signals: every signal whose default action
 * ends the process and that a handler can catch (INT, TERM, HUP, QUIT,
 * USR1/2, ALRM, PIPE, XCPU, XFSZ, VTALRM, PROF, IO, PWR, STKFLT and the
 * real-time signals SIGRTMIN..SIGRTMAX), not those of a fault (SEGV,
 * BUS, ILL, FPE, TRAP, SYS, ABRT).  kbench run stops on each after
 * restoring its tunables; kb_spawn() blocks them around its wait. */
void kb_stop_signals(sigset_t *set);

/* Counted (from kbench run's SIGCONT handler) each time kbench went on
 * after a stop (Ctrl-Z's SIGTSTP, or a SIGSTOP, which no handler sees):
 * a run during which it changed had its snapshots taken late, fio going
 * on in its own process group meanwhile. */
extern volatile sig_atomic_t kb_continued;

/* The processes of child root's tree still running (zombies not
 * counted), from /proc/PID/stat: those of process group root, root's
 * descendants (while the root lives).  Inside kb_spawn_wait() also
 * kbench's children in another session whose command line is the
 * root's: kbench is a subreaper (PR_SET_CHILD_SUBREAPER) while an
 * own_group child runs, so a fio job process (each calls setsid(2); a
 * fork, it shares fio's command line, which names the run's job file)
 * comes to kbench when fio dies; a daemon another tool left, or a stuck
 * job of an earlier run, never matches.  This public form sees no
 * orphans (it knows no command line).  For a root that has ended: the
 * count comes from kbench's children where nothing can be left, and
 * from every /proc/PID/stat otherwise. */
int kb_tree_count(long root);

/* 1 when pid is a running kbench (/proc/PID/comm), else 0. */
int kb_pid_is_kbench(long pid);

/* The start time of process pid (pid 0: this process, read from
 * /proc/self, right inside a PID namespace too), in clock ticks after
 * boot (proc(5), /proc/PID/stat field 22 "starttime"); 0 when it cannot
 * be read.  With the pid it names one process: a pid used again is
 * another. */
unsigned long long kb_pid_start_ticks(long pid);

#endif
