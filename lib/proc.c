#include "lib/proc.h"
#include "lib/err.h"
#include "lib/file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile int kb_spawn_forward_signal;

void kb_stop_signals(sigset_t *set)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
		SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
		SIGIO,
#ifdef SIGPWR
		SIGPWR,
#endif
#ifdef SIGSTKFLT
		SIGSTKFLT,
#endif
	};
	size_t i;
	int s;

	sigemptyset(set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
	for (s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
}
volatile sig_atomic_t kb_continued;

double kb_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* seconds the rest of a process group gets between SIGTERM and SIGKILL
 * once its leader (fio) has ended: fio has had its chance to stop it */
#define GROUP_GRACE_S 3

int kb_pid_is_kbench(long pid)
{
	char path[64], *comm = NULL;
	int alive;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (kb_read_file(path, &comm, NULL, 1) < 0)
		return 0;
	alive = !strncmp(comm, "kbench", 6) &&
		(comm[6] == '\n' || comm[6] == '\0');
	free(comm);
	return alive;
}

unsigned long long kb_pid_start_ticks(long pid)
{
	char path[64], *stat = NULL, *p;
	unsigned long long start = 0;
	int field;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/stat");
	if (kb_read_file(path, &stat, NULL, 1) < 0)
		return 0;
	/* after the command name, which may hold spaces and ')': field 3
	 * (state) follows the last ')' */
	p = strrchr(stat, ')');
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	free(stat);
	return start;
}

/* One line of /proc/PID/stat, the fields kept. */
struct pinfo {
	pid_t pid, ppid, pgrp, sid;
	char state;
};

/* Every process of /proc (malloc'd, *n of them); NULL when /proc cannot
 * be read. */
static struct pinfo *proc_scan(size_t *n)
{
	struct pinfo *v = NULL;
	size_t cap = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char path[300], buf[512], *rp;
		struct pinfo p;
		int ppid, pgrp, sid;
		ssize_t len;
		int fd;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "PID (COMM) STATE PPID PGRP SESSION ...": COMM may hold ')' */
		rp = strrchr(buf, ')');
		if (!rp || sscanf(rp + 1, " %c %d %d %d", &p.state, &ppid,
				  &pgrp, &sid) != 4)
			continue;
		p.pid = (pid_t)atol(e->d_name);
		p.ppid = ppid;
		p.pgrp = pgrp;
		p.sid = sid;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			v = kb_xrealloc(v, cap * sizeof(*v));
		}
		v[(*n)++] = p;
	}
	closedir(d);
	if (!v)
		v = kb_xcalloc(1, sizeof(*v));
	return v;
}

/* The whole of /proc/PID/cmdline (malloc'd, *len bytes), or NULL. */
static char *read_cmdline(pid_t pid, size_t *len)
{
	char path[64], *b = NULL;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	if (kb_read_file(path, &b, len, 1) < 0) {
		free(b);
		return NULL;
	}
	return b;
}

/* The tree of an own_group child: its pid (its process group's too)
 * and its command line as /proc showed it after the exec, which its
 * fork()ed job processes share (fio's do). */
struct tree {
	pid_t root;
	const char *cmd;
	size_t cmdlen;
};

/* 1 when pid, a child of kbench in another session, is one of t's
 * orphans: the same command line as t's root (a fio job process of this
 * run: the job file's path names the run), never a daemon another tool
 * left, nor a stuck job of an earlier run. */
static int orphan_of(const struct tree *t, pid_t pid)
{
	size_t len = 0;
	char *c;
	int same;

	if (!t->cmd)
		return 0;
	c = read_cmdline(pid, &len);
	same = c && len == t->cmdlen && !memcmp(c, t->cmd, len);
	free(c);
	return same;
}

/* Marks in[] the processes of t's tree (see kb_tree_count()). */
static void tree_mark(const struct pinfo *v, size_t n, const struct tree *t,
		      char *in)
{
	pid_t self = getpid(), mysid = getsid(0), root = t->root;
	size_t i, j;
	int more = 1;

	for (i = 0; i < n; i++)
		in[i] = v[i].pid != self &&
			(v[i].pgrp == root || v[i].ppid == root ||
			 (v[i].ppid == self && v[i].sid != mysid &&
			  v[i].pid != root && orphan_of(t, v[i].pid)));
	while (more) {
		more = 0;
		for (i = 0; i < n; i++) {
			if (in[i] || v[i].pid == self)
				continue;
			for (j = 0; j < n && !in[i]; j++)
				in[i] = in[j] && v[j].pid != root &&
					(v[i].ppid == v[j].pid ||
					 v[i].sid == v[j].pid);
			more |= in[i];
		}
	}
}

/* After root has ended, kbench's children (/proc/PID/task/TID/children,
 * CONFIG_PROC_CHILDREN) other than root that are of root's tree: in
 * root's process group, or in a session other than kbench's (kbench
 * starts none there).  Once root has exited, what is left of its tree
 * was reparented to kbench (a subreaper while root ran) or hangs below
 * such a child.  With dying, only those with no command line left: a
 * zombie, or a process on its way out (its memory already released, not
 * a zombie yet: the scans see it in neither state, and it turns into a
 * zombie of kbench's moments later).  1 when there is one; when the
 * children cannot be listed, 1 (something may be left) or with dying 0. */
static int tree_children(pid_t root, int dying)
{
	char path[64], *list = NULL, *tok, *save = NULL, *cmd;
	pid_t mysid = getsid(0);
	size_t len;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
		 (long)getpid(), (long)getpid());
	if (kb_read_file(path, &list, NULL, 1) < 0)
		return !dying;
	for (tok = strtok_r(list, " \n", &save); tok && !found;
	     tok = strtok_r(NULL, " \n", &save)) {
		pid_t c = (pid_t)atol(tok);

		if (c <= 0 || c == root ||
		    (getpgid(c) != root && getsid(c) == mysid))
			continue;
		if (!dying) {
			found = 1;
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)c);
		cmd = NULL;
		len = 0;
		found = kb_read_file(path, &cmd, &len, 1) == 0 && len == 0;
		free(cmd);
	}
	free(list);
	return found;
}

/* 1 when something of root's tree may be left, 0 when nothing is, told
 * from kbench's children alone (no scan of every /proc entry at the end
 * of a common run) */
static int tree_maybe_left(pid_t root)
{
	return tree_children(root, 0);
}

/* The processes of t's tree still running (kb_tree_count()). */
static int tree_count(const struct tree *t)
{
	struct pinfo *v;
	size_t n, i;
	char *in;
	int count = 0;

	if (t->root <= 0)
		return 0;
	if (!tree_maybe_left(t->root))
		return 0;	/* the common end of a run */
	v = proc_scan(&n);
	if (!v)
		return kill(-t->root, 0) == 0;	/* cannot tell */
	in = kb_xcalloc(n + 1, 1);
	tree_mark(v, n, t, in);
	for (i = 0; i < n; i++)
		count += in[i] && v[i].state != 'Z' && v[i].state != 'X';
	free(in);
	free(v);
	return count;
}

int kb_tree_count(long root)
{
	struct tree t = { (pid_t)root, NULL, 0 };

	return tree_count(&t);
}

/* sig to every process of t's tree (tree_count()), with SIGCONT after
 * any other than SIGKILL and SIGCONT, so that a stopped process acts on
 * it; the zombies of the tree that are kbench's children (an orphan
 * reparented here, then ended) are reaped, never the root (its caller's
 * to reap).  kill(-root) first: a process the scan cannot see yet is in
 * the group at least.  sig 0: only the reaping. */
static void signal_tree(const struct tree *t, int sig)
{
	struct pinfo *v;
	size_t n, i;
	char *in;
	pid_t self = getpid(), mysid = getsid(0);

	if (sig) {
		kill(-t->root, sig);
		if (sig != SIGKILL && sig != SIGCONT)
			kill(-t->root, SIGCONT);
	}
	v = proc_scan(&n);
	if (!v)
		return;
	in = kb_xcalloc(n + 1, 1);
	tree_mark(v, n, t, in);
	for (i = 0; i < n; i++) {
		if (v[i].pid == t->root)
			continue;
		/* a zombie has no command line left: any child of kbench in
		 * another session is an orphan (kbench starts none there) */
		if (v[i].state == 'Z') {
			if (v[i].ppid == self && (in[i] || v[i].sid != mysid))
				waitpid(v[i].pid, NULL, WNOHANG);
			continue;
		}
		if (!in[i])
			continue;
		if (sig) {
			kill(v[i].pid, sig);
			if (sig != SIGKILL && sig != SIGCONT)
				kill(v[i].pid, SIGCONT);
		}
	}
	free(in);
	free(v);
}

/* Signal the child, or with a tree (own_group) its whole tree. */
static void signal_child(pid_t pid, const struct tree *t, int sig)
{
	if (!t) {
		kill(pid, sig);
		return;
	}
	signal_tree(t, sig);
}

/* own_group: the child has ended (a zombie still: its pid and group id
 * cannot be another's yet); end what is left of its tree. */
static void reap_group(const struct tree *t, struct kb_spawn_result *res)
{
	double until;
	int n = tree_count(t);

	/* the others may be on their way out (a signal they got with the
	 * child): half a second before they count as left over */
	for (until = kb_mono_s() + 0.5; n && kb_mono_s() < until;) {
		usleep(10000);
		n = tree_count(t);
	}
	if (!n)
		goto out;
	res->group_left = n;
	res->group_signal = SIGTERM;
	signal_tree(t, SIGTERM);
	for (until = kb_mono_s() + GROUP_GRACE_S; kb_mono_s() < until;) {
		if (!tree_count(t))
			goto out;
		usleep(20000);
	}
	res->group_signal = SIGKILL;
	signal_tree(t, SIGKILL);
	for (until = kb_mono_s() + 5; kb_mono_s() < until;) {
		if (!tree_count(t))
			goto out;
		usleep(20000);
	}
	kb_warn("%d process(es) of process group %ld survived SIGKILL "
		"(uninterruptible I/O?)", tree_count(t), (long)t->root);
out:
	/* the orphans' zombies, when there can be any (no scan of /proc at
	 * the end of a common run), and those of orphans on their way out
	 * (a job process that got the group's SIGTERM: test_proc's
	 * test_tree_setsid_stopped found one unreaped on a busy machine) */
	if (n || tree_maybe_left(t->root)) {
		signal_tree(t, 0);
		for (until = kb_mono_s() + 0.5;
		     tree_children(t->root, 1) && kb_mono_s() < until;) {
			usleep(5000);
			signal_tree(t, 0);
		}
	}
}

static int redirect(const char *path, int fd)
{
	int f;

	if (!path)
		return 0;
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (f < 0)
		return -1;
	if (dup2(f, fd) < 0)
		return -1;
	close(f);
	return 0;
}

/* In the child: set up and exec; on failure write errno to errfd.
 * infd >= 0: the read end of the stdin pipe (kb_spawn_start()). */
static void child(char *const argv[], const struct kb_spawn_opts *o, int errfd,
		  int infd)
{
	const char *const *e;
	int err;

	if (o->own_group) {
		/* a group of its own: kbench signals the whole of it; not
		 * the terminal's foreground group, so no terminal input
		 * (/dev/null, unless a stdin pipe is asked for) */
		int in = infd >= 0 ? -1 : open("/dev/null", O_RDONLY);

		if (setpgid(0, 0) < 0 || (infd < 0 && (in < 0 ||
						       dup2(in, 0) < 0)))
			goto fail;
		if (in >= 0)
			close(in);
	}
	if (infd >= 0 && dup2(infd, 0) < 0)
		goto fail;
	if (redirect(o->stdout_path, 1) < 0 || redirect(o->stderr_path, 2) < 0)
		goto fail;
	for (e = o->env; e && *e; e++)
		if (putenv((char *)*e) < 0)
			goto fail;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* if kbench is killed (-9), its fio must not run on unattended */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	execvp(argv[0], argv);
fail:
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int kb_spawn_start(char *const argv[], const struct kb_spawn_opts *opts,
		   int stdin_pipe, struct kb_child *c)
{
	static const struct kb_spawn_opts none;
	const struct kb_spawn_opts *o = opts ? opts : &none;
	int pipefd[2], infd[2] = { -1, -1 }, err = 0;
	ssize_t n;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	c->stdin_fd = -1;
	c->opts = *o;
	c->name = argv[0];
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		err = -errno;
		kb_error("cannot create a pipe: %s", strerror(-err));
		return err;
	}
	if (stdin_pipe && pipe2(infd, O_CLOEXEC) < 0) {
		err = -errno;
		kb_error("cannot create a pipe: %s", strerror(-err));
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	/* fio's job processes each lead a session of their own (setsid):
	 * outside its group, and reparented to init when fio dies.  As a
	 * subreaper while fio runs (until kb_spawn_wait) kbench gets them
	 * instead, and ends them (signal_tree) */
	if (o->own_group)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	c->start_s = kb_mono_s();
	{
		struct rusage self;

		if (getrusage(RUSAGE_SELF, &self) == 0)
			c->parent_maxrss_kib = self.ru_maxrss;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		kb_error("cannot fork to run %s: %s", argv[0], strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		if (stdin_pipe) {
			close(infd[0]);
			close(infd[1]);
		}
		return err;
	}
	if (pid == 0)
		child(argv, o, pipefd[1], infd[0]);
	c->pid = pid;
	if (o->own_group)	/* also here: no signal may miss the group */
		setpgid(pid, pid);
	close(pipefd[1]);
	if (stdin_pipe)
		close(infd[0]);
	c->stdin_fd = infd[1];
	do
		n = read(pipefd[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == sizeof(err)) {
		waitpid(pid, NULL, 0);
		kb_error("cannot run %s: %s", argv[0], strerror(err));
		if (c->stdin_fd >= 0)
			close(c->stdin_fd);
		c->stdin_fd = -1;
		c->pid = 0;
		if (o->own_group)
			prctl(PR_SET_CHILD_SUBREAPER, 0);
		return -err;
	}
	/* exec'd: its command line, which its job processes share (the
	 * orphans of this run: orphan_of()) */
	if (o->own_group)
		c->tree_cmd = read_cmdline(pid, &c->tree_cmdlen);
	return 0;
}

int kb_child_write(struct kb_child *c, const char *buf, size_t len)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	ssize_t n = 0;
	int err = 0;

	if (c->stdin_fd < 0)
		return -EBADF;
	/* a child that has gone gives EPIPE, not a SIGPIPE to kbench */
	sigaction(SIGPIPE, &ign, &old);
	while (len && !err) {
		n = write(c->stdin_fd, buf, len);
		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0) {
			buf += n;
			len -= (size_t)n;
		}
	}
	sigaction(SIGPIPE, &old, NULL);
	return err;
}

int kb_spawn(char *const argv[], const struct kb_spawn_opts *opts,
	     struct kb_spawn_result *res)
{
	struct kb_child c;
	int ret = kb_spawn_start(argv, opts, 0, &c);

	if (ret) {
		memset(res, 0, sizeof(*res));
		return ret;
	}
	return kb_spawn_wait(&c, res);
}

int kb_spawn_wait(struct kb_child *c, struct kb_spawn_result *res)
{
	const struct kb_spawn_opts *o = &c->opts;
	double deadline = 0, killat = 0;
	int status = 0, err = 0, termsent = 0, pfd;
	pid_t pid = (pid_t)c->pid;
	struct tree tr = { pid, c->tree_cmd, c->tree_cmdlen };
	const struct tree *t = o->own_group ? &tr : NULL;
	siginfo_t si;

	memset(res, 0, sizeof(*res));
	res->pid = pid;
	res->parent_maxrss_kib = c->parent_maxrss_kib;
	if (c->stdin_fd >= 0)	/* end of input: the child may finish */
		close(c->stdin_fd);
	c->stdin_fd = -1;
	/* the timeout counts from now: a child started early (a gnuplot
	 * waiting for its scripts) has not been at work until now */
	if (o->timeout_s)
		deadline = kb_mono_s() + o->timeout_s;

	/* sleep until the child exits (a pidfd, pidfd_open(2), Linux 5.3,
	 * becomes readable), a signal arrives or the next deadline; where
	 * pidfd_open is missing, wake every 20 ms instead */
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		/* ended, not reaped yet (WNOWAIT): while it is a zombie its
		 * pid and group id are no one else's, so reap_group's
		 * signals cannot reach a process that took the number */
		int w;

		memset(&si, 0, sizeof(si));
		w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
		if (w == 0 && si.si_pid == pid)
			break;
		if (w < 0 && errno != EINTR) {
			err = -errno;
			kb_error("waitid for %s failed: %s", c->name,
				 strerror(errno));
			signal_child(pid, t, SIGKILL);
			if (pfd >= 0)
				close(pfd);
			goto done;
		}
		if (kb_spawn_forward_signal && !termsent) {
			signal_child(pid, t, kb_spawn_forward_signal);
			termsent = 1;
			/* and SIGKILL if it ignores it: a fio --client
			 * waiting for a load host that stopped answering
			 * does, until the timeout (a break-it trial: Ctrl-C
			 * took that long) */
			if (!killat)
				killat = kb_mono_s() + (o->kill_after_s ?
							o->kill_after_s : 10);
		}
		if (deadline && !res->timed_out && kb_mono_s() > deadline) {
			res->timed_out = 1;
			signal_child(pid, t, SIGTERM);
			killat = kb_mono_s() + (o->kill_after_s ?
						o->kill_after_s : 10);
		}
		if (killat && kb_mono_s() > killat) {
			signal_child(pid, t, SIGKILL);
			killat = 0;
		}
		if (pfd >= 0) {
			struct pollfd p = { .fd = pfd, .events = POLLIN };
			double next = killat ? killat :
				      deadline && !res->timed_out ? deadline : 0;
			struct timespec ts, *tsp = NULL;
			sigset_t block, old;

			if (next) {
				double left = next - kb_mono_s();

				if (left < 0)
					left = 0;
				ts.tv_sec = (time_t)left;
				ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
				tsp = &ts;
			}
			/* the stop signals are blocked from the test of the
			 * flag until ppoll unblocks them atomically, so one
			 * that arrives in between still interrupts the wait
			 * (EINTR) and is forwarded at the top of the loop */
			kb_stop_signals(&block);
			sigprocmask(SIG_BLOCK, &block, &old);
			if (!(kb_spawn_forward_signal && !termsent))
				ppoll(&p, 1, tsp, &old);
			sigprocmask(SIG_SETMASK, &old, NULL);
		} else {
			usleep(20000);
		}
	}
	if (pfd >= 0)
		close(pfd);
	res->elapsed_s = kb_mono_s() - c->start_s;
	if (t)
		reap_group(t, res);
	while (wait4(pid, &status, 0, &res->ru) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status)) {
		res->exited = 1;
		res->exit_status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
	}
done:
	if (t)	/* a subreaper while its own_group child ran only */
		prctl(PR_SET_CHILD_SUBREAPER, 0);
	free(c->tree_cmd);
	c->tree_cmd = NULL;
	return err;
}

int kb_capture_all(char *const *const argvs[], size_t n, unsigned timeout_s,
		   unsigned kill_after_s, char **outs, int *statuses)
{
	struct kb_child *c = kb_xcalloc(n ? n : 1, sizeof(*c));
	char (*tmpl)[32] = kb_xcalloc(n ? n : 1, sizeof(*tmpl));
	int *started = kb_xcalloc(n ? n : 1, sizeof(*started));
	double t0 = kb_mono_s();
	size_t i;

	for (i = 0; i < n; i++) {
		struct kb_spawn_opts o = { 0 };
		int fd;

		outs[i] = NULL;
		snprintf(tmpl[i], sizeof(tmpl[i]), "/tmp/kbench-capture.XXXXXX");
		fd = mkstemp(tmpl[i]);
		if (fd < 0) {
			statuses[i] = -errno;
			tmpl[i][0] = '\0';
			continue;
		}
		close(fd);
		o.stdout_path = tmpl[i];
		o.stderr_path = "/dev/null";
		o.kill_after_s = kill_after_s;
		statuses[i] = kb_spawn_start(argvs[i], &o, 0, &c[i]);
		started[i] = !statuses[i];
	}
	for (i = 0; i < n; i++) {
		struct kb_spawn_result r;
		double left = timeout_s - (kb_mono_s() - t0);

		if (started[i]) {
			/* the limit is one for all: counted from the start,
			 * not from each wait (kb_spawn_wait's); a child still
			 * running when an earlier one's wait has gone past it
			 * (SIGTERM's grace included) had that grace
			 * too: killed at once */
			if (left < 1)
				kill((pid_t)c[i].pid, SIGKILL);
			c[i].opts.timeout_s = left < 1 ? 1 : (unsigned)left;
			statuses[i] = kb_spawn_wait(&c[i], &r);
			if (statuses[i] == 0) {
				size_t len;

				if (kb_read_file(tmpl[i], &outs[i], &len, 1) == 0 &&
				    len > 65536)
					outs[i][65536] = '\0';
				statuses[i] = r.exited ? r.exit_status :
					      128 + r.signal;
			}
		}
		if (tmpl[i][0])
			unlink(tmpl[i]);
	}
	free(started);
	free(tmpl);
	free(c);
	return 0;
}

int kb_capture(char *const argv[], char **out)
{
	char *const *const argvs[1] = { argv };
	int st;

	kb_capture_all(argvs, 1, 60, 0, out, &st);
	return st;
}

char *kb_path_which(const char *path, const char *prog)
{
	const char *p;
	char *full;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? kb_xstrdup(prog) : NULL;
	if (!path)	/* PATH unset: glibc's default; "" is one empty entry */
		path = "/usr/bin:/bin";
	for (p = path;; p++) {
		size_t n = strcspn(p, ":");
		/* an empty entry is the working directory, as for execvp */
		char *dir = n ? kb_xasprintf("%.*s", (int)n, p) :
			    kb_xstrdup(".");

		full = kb_path_join(dir, prog);
		free(dir);
		if (access(full, X_OK) == 0)
			return full;
		free(full);
		p += n;
		if (!*p)
			return NULL;
	}
}

char *kb_which(const char *prog)
{
	return kb_path_which(getenv("PATH"), prog);
}
