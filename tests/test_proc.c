/* tests/test_proc.c - lib/proc.c: children from argv arrays, exit
 * status, timeout, signal forwarding, output capture, and with own_group
 * (fio) the whole process group killed: nothing of it outlives the call;
 * a child started first and fed its stdin later (kb_spawn_start()). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_exit_status(void **state)
{
	char *ok[] = { "true", NULL }, *bad[] = { "false", NULL };
	struct kb_spawn_result r;

	(void)state;
	assert_int_equal(kb_spawn(ok, NULL, &r), 0);
	assert_true(r.exited);
	assert_int_equal(r.exit_status, 0);
	assert_int_equal(kb_spawn(bad, NULL, &r), 0);
	assert_true(r.exited);
	assert_int_equal(r.exit_status, 1);
	assert_false(r.timed_out);
}

/* Linux carries the parent's peak resident set across fork and exec
 * into the child's ru_maxrss: a "true" forked from a process of 64 MiB
 * reports 64 MiB.  kb_spawn() keeps kbench's own peak at the fork beside
 * it, which run.json records (parsers/run_dir.c: fio's maxres is n/a
 * when not above it). */
static void test_parent_maxrss(void **state)
{
	char *ok[] = { "true", NULL };
	struct kb_spawn_result r;
	size_t len = 64u << 20, i;
	volatile char *big = malloc(len);

	(void)state;
	assert_non_null(big);
	for (i = 0; i < len; i += 4096)
		big[i] = 1;
	assert_int_equal(kb_spawn(ok, NULL, &r), 0);
	assert_true(r.exited);
	assert_true(r.parent_maxrss_kib >= 64 * 1024);
	/* the child's is kbench's, not above it (but for the few pages the
	 * child touched between fork and exec) */
	assert_true(r.ru.ru_maxrss <= r.parent_maxrss_kib + 1024);
	free((void *)big);
}

static void test_not_found(void **state)
{
	char *argv[] = { "kbench-no-such-program", NULL };
	struct kb_spawn_result r;

	(void)state;
	kb_quiet = 1;
	assert_int_equal(kb_spawn(argv, NULL, &r), -ENOENT);
}

static void test_timeout(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct kb_spawn_opts o = { .timeout_s = 1 };
	struct kb_spawn_result r;

	(void)state;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.timed_out);
	assert_false(r.exited);
	assert_int_equal(r.signal, SIGTERM);
	/* woken by the deadline, not by the child's natural end */
	assert_true(r.elapsed_s >= 0.9 && r.elapsed_s < 10);
}

static void test_forward_signal(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct kb_spawn_opts o = { .timeout_s = 60 };
	struct kb_spawn_result r;

	(void)state;
	kb_spawn_forward_signal = SIGTERM;	/* as the run's handler sets it */
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	kb_spawn_forward_signal = 0;
	assert_int_equal(r.signal, SIGTERM);
	assert_false(r.timed_out);
	assert_true(r.elapsed_s < 10);
}

/* kbench run's handler, a second after the start: the child below has
 * set its trap by then */
static void forward_on_alarm(int sig)
{
	(void)sig;
	kb_spawn_forward_signal = SIGTERM;
}

/* A child that ignores the forwarded signal (fio --client waiting for a
 * load host that stopped answering: Ctrl-C waited out the run's timeout,
 * a break-it trial) gets SIGKILL kill_after_s after it. */
static void test_forward_signal_ignored(void **state)
{
	char *argv[] = { "sh", "-c", "trap '' TERM; exec sleep 30", NULL };
	struct kb_spawn_opts o = { .timeout_s = 60, .kill_after_s = 1 };
	struct kb_spawn_result r;

	(void)state;
	signal(SIGALRM, forward_on_alarm);
	alarm(1);
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	kb_spawn_forward_signal = 0;
	signal(SIGALRM, SIG_DFL);
	assert_int_equal(r.signal, SIGKILL);
	assert_false(r.timed_out);
	/* the alarm's second, then kill_after_s (30 s without it) */
	assert_true(r.elapsed_s >= 1.9 && r.elapsed_s < 7);
}

static void test_capture(void **state)
{
	char *argv[] = { "echo", "kbench capture", NULL }, *out = NULL;

	(void)state;
	assert_int_equal(kb_capture(argv, &out), 0);
	assert_non_null(out);
	assert_string_equal(out, "kbench capture\n");
	free(out);
}

/* kb_capture_all runs its commands at once: the first waits for a file
 * that only the second makes, so run one after the other the first would
 * wait out the limit (killed: 128 + SIGTERM) and say nothing.  A third
 * that cannot be run has a status of its own and no output. */
static void test_capture_all(void **state)
{
	char dir[] = "/tmp/kbench-test-capall.XXXXXX", *flag, *wait_cmd, *make_cmd;
	char *outs[3], *a[4], *b[4], *c[] = { "/nonexistent/kbench-none", NULL };
	char *const *argvs[3] = { a, b, c };
	int st[3];

	(void)state;
	assert_non_null(mkdtemp(dir));
	flag = kb_xasprintf("%s/flag", dir);
	wait_cmd = kb_xasprintf("while [ ! -e %s ]; do sleep 0.02; done; "
				"echo first", flag);
	make_cmd = kb_xasprintf("sleep 0.2; : > %s; echo second", flag);
	a[0] = "sh"; a[1] = "-c"; a[2] = wait_cmd; a[3] = NULL;
	b[0] = "sh"; b[1] = "-c"; b[2] = make_cmd; b[3] = NULL;
	assert_int_equal(kb_capture_all(argvs, 3, 20, 0, outs, st), 0);
	assert_int_equal(st[0], 0);
	assert_int_equal(st[1], 0);
	assert_non_null(outs[0]);
	assert_non_null(outs[1]);
	assert_string_equal(outs[0], "first\n");
	assert_string_equal(outs[1], "second\n");
	assert_true(st[2] < 0);
	assert_null(outs[2]);
	free(outs[0]);
	free(outs[1]);
	unlink(flag);
	rmdir(dir);
	free(flag);
	free(wait_cmd);
	free(make_cmd);
}

/* kb_capture_all's kill_after_s: a child that ignores SIGTERM (a fio
 * --client waiting for a server that does not answer, a break-it trial)
 * gets SIGKILL that long after the timeout's SIGTERM, not 10 s later:
 * runner/run_exec.c probes the load hosts of a timed-out run with it. */
static void test_capture_all_kill_after(void **state)
{
	char *a[] = { "sh", "-c", "trap '' TERM; exec sleep 30", NULL };
	char *const *argvs[1] = { a };
	char *out = NULL;
	int st = 0;
	double t0 = kb_mono_s(), took;

	(void)state;
	assert_int_equal(kb_capture_all(argvs, 1, 3, 1, &out, &st), 0);
	took = kb_mono_s() - t0;
	free(out);
	assert_int_equal(st, 128 + SIGKILL);
	assert_true(took >= 2);	/* the timeout's SIGTERM, ignored */
	assert_true(took < 7);	/* 12 s and more without kill_after_s */
}

/* Running (not zombie) processes whose command line holds marker:
 * what the tests below leave behind, whatever process group it is in. */
static int count_marker(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], buf[4096], stat[512], *rp;
		ssize_t len, i;
		int fd;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		for (i = 0; i < len; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[len] = '\0';
		if (!strstr(buf, marker))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		if (len <= 0)
			continue;
		stat[len] = '\0';
		rp = strrchr(stat, ')');
		if (rp && rp[1] == ' ' && rp[2] != 'Z')
			n++;
	}
	closedir(d);
	return n;
}

/* A child that ignores SIGTERM and sleeps, under a main process that
 * times out: the group is killed, SIGTERM then SIGKILL, and no process of
 * it is left when kb_spawn returns. */
static void test_group_timeout(void **state)
{
	char *argv[] = { "sh", "-c",
		"(trap '' TERM; exec sleep 100) & exec sleep 100", NULL };
	struct kb_spawn_opts o = { .timeout_s = 1, .own_group = 1 };
	struct kb_spawn_result r;

	(void)state;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.timed_out);
	assert_int_equal(r.signal, SIGTERM);
	assert_true(r.pid > 0);
	assert_int_equal(r.group_left, 1);
	assert_int_equal(r.group_signal, SIGKILL);
	assert_int_equal(kb_tree_count(r.pid), 0);
}

/* A job process stopped itself and the main process waits for it (as
 * fio waits for its jobs): at the timeout the whole group gets SIGTERM
 * and SIGCONT, the stopped one included, well before the SIGKILL. */
static void test_group_stopped_job(void **state)
{
	char marker[64], *script;
	char *argv[] = { "sh", "-c", NULL, NULL };
	struct kb_spawn_opts o = { .timeout_s = 1, .own_group = 1 };
	struct kb_spawn_result r;

	(void)state;
	snprintf(marker, sizeof(marker), "kbtest-stopped-%ld", (long)getpid());
	script = kb_xasprintf("sh -c 'kill -STOP $$; exec sleep 100' %s & "
			      "wait", marker);
	argv[2] = script;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.timed_out);
	assert_int_equal(kb_tree_count(r.pid), 0);
	assert_int_equal(count_marker(marker), 0);
	assert_true(r.elapsed_s < 8);
	free(script);
}

/* The main process ends (status 0) and leaves a process behind (one
 * that ignores SIGHUP): it is ended with the group, and said so. */
static void test_group_leftover(void **state)
{
	char *argv[] = { "sh", "-c",
		"(trap '' HUP; exec sleep 100) & sleep 0.3; exit 0", NULL };
	struct kb_spawn_opts o = { .timeout_s = 30, .own_group = 1 };
	struct kb_spawn_result r;

	(void)state;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_false(r.timed_out);
	assert_true(r.exited);
	assert_int_equal(r.exit_status, 0);
	assert_int_equal(r.group_left, 1);
	assert_int_equal(r.group_signal, SIGTERM);
	assert_int_equal(kb_tree_count(r.pid), 0);
	assert_true(r.elapsed_s < 10);
}

/* No zombie left among this process's children (a subreaper's orphans
 * are reaped by kb_spawn). */
static int zombie_children(void)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return 0;	/* ECHILD: no child at all */
	return si.si_pid != 0;
}

static char *self_exe;	/* this test program, for fake_fio() */

/* A fake fio, this test program run again (main()): "fake-fio crash
 * MARKER" forks a job process that calls setsid(2), as fio's do (the same
 * command line: a fork), ignores SIGTERM and lives on; the main process
 * then dies of SIGKILL (a fio crash).  "fake-fio stop MARKER": the job
 * process stops itself and the main process waits for it. */
static int fake_fio(const char *how)
{
	pid_t job = fork();

	if (job == 0) {
		setsid();
		signal(SIGTERM, SIG_IGN);
		if (!strcmp(how, "stop")) {
			signal(SIGTERM, SIG_DFL);
			raise(SIGSTOP);
		}
		for (;;)
			pause();
	}
	if (!strcmp(how, "stop")) {
		waitpid(job, NULL, 0);
		return 0;
	}
	usleep(500000);
	raise(SIGKILL);
	return 1;
}

/* fio's job processes lead sessions of their own (setsid in fio's
 * fork): the main process killed by SIGKILL (a fio crash) leaves one that
 * ignores SIGTERM; it is found (reparented here, the subreaper, with the
 * main process's command line), ended with SIGKILL and reaped before
 * kb_spawn returns. */
static void test_tree_setsid_crash(void **state)
{
	char marker[64];
	char *argv[] = { NULL, "fake-fio", "crash", marker, NULL };
	struct kb_spawn_opts o = { .timeout_s = 30, .own_group = 1 };
	struct kb_spawn_result r;

	(void)state;
	snprintf(marker, sizeof(marker), "kbtest-setsid-%ld", (long)getpid());
	argv[0] = self_exe;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_int_equal(r.signal, SIGKILL);
	assert_true(r.group_left >= 1);
	assert_int_equal(r.group_signal, SIGKILL);
	assert_int_equal(count_marker(marker), 0);
	assert_false(zombie_children());
}

/* The same job process stopped (SIGSTOP) while the main process waits
 * for it: at the timeout it gets SIGTERM and SIGCONT like the group. */
static void test_tree_setsid_stopped(void **state)
{
	char marker[64];
	char *argv[] = { NULL, "fake-fio", "stop", marker, NULL };
	struct kb_spawn_opts o = { .timeout_s = 1, .own_group = 1 };
	struct kb_spawn_result r;

	(void)state;
	snprintf(marker, sizeof(marker), "kbtest-setsid-stop-%ld",
		 (long)getpid());
	argv[0] = self_exe;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_true(r.timed_out);
	assert_int_equal(count_marker(marker), 0);
	assert_false(zombie_children());
	assert_true(r.elapsed_s < 8);
}

/* A process in a session of its own that is no fio job of the run (a
 * daemon another tool left: another command line) is kbench's child
 * too, yet never signalled nor reaped by a run's end. */
static void test_tree_spares_others(void **state)
{
	char *argv[] = { "true", NULL };
	struct kb_spawn_opts o = { .timeout_s = 30, .own_group = 1 };
	struct kb_spawn_result r;
	pid_t other = fork();
	int st;

	(void)state;
	if (other == 0) {
		setsid();
		pause();
		_exit(0);
	}
	usleep(100000);
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_int_equal(r.group_left, 0);
	assert_int_equal(kill(other, 0), 0);		/* alive */
	kill(other, SIGKILL);
	assert_int_equal(waitpid(other, &st, 0), other);	/* ours */
}

/* A forwarded signal (the run's Ctrl-C handler) reaches the whole group,
 * not only its leader; a group that ends by itself leaves nothing. */
static void test_group_forward(void **state)
{
	char *argv[] = { "sh", "-c", "sleep 100 & sleep 100 & wait", NULL };
	char *quick[] = { "true", NULL };
	struct kb_spawn_opts o = { .timeout_s = 60, .own_group = 1 };
	struct kb_spawn_result r;

	(void)state;
	kb_spawn_forward_signal = SIGTERM;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	kb_spawn_forward_signal = 0;
	assert_false(r.timed_out);
	assert_int_equal(r.signal, SIGTERM);
	/* the sleeps got the SIGTERM themselves: nothing was left over */
	assert_int_equal(r.group_left, 0);
	assert_int_equal(kb_tree_count(r.pid), 0);
	assert_true(r.elapsed_s < 5);

	assert_int_equal(kb_spawn(quick, &o, &r), 0);
	assert_int_equal(r.group_left, 0);
	assert_int_equal(r.group_signal, 0);
}

/* In a group of its own the child is not the terminal's foreground
 * group: its stdin is /dev/null, so a read gets EOF, never SIGTTIN. */
static void test_group_stdin(void **state)
{
	char tmpl[] = "/tmp/kbench-test-proc.XXXXXX", *out = NULL;
	char *argv[] = { "sh", "-c", "read x; echo \"[$x]\"; ps -o pgid= -p $$",
			 NULL };
	struct kb_spawn_opts o = { .timeout_s = 10, .own_group = 1 };
	struct kb_spawn_result r;
	int fd = mkstemp(tmpl);
	long pgid = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	o.stdout_path = tmpl;
	assert_int_equal(kb_spawn(argv, &o, &r), 0);
	assert_false(r.timed_out);
	assert_int_equal(kb_read_file(tmpl, &out, NULL, 0), 0);
	assert_non_null(strstr(out, "[]\n"));
	/* it led its own group */
	assert_int_equal(sscanf(strstr(out, "]\n") + 2, "%ld", &pgid), 1);
	assert_int_equal(pgid, r.pid);
	assert_true(pgid != (long)getpgrp());
	free(out);
	unlink(tmpl);
}

static void test_pid_is_kbench(void **state)
{
	(void)state;
	assert_false(kb_pid_is_kbench(getpid()));	/* test_proc */
	assert_false(kb_pid_is_kbench(0));
	assert_false(kb_pid_is_kbench(-1));
}

/* kb_pid_start_ticks(): this process's start from /proc/self and from
 * its pid agree; a child started later has a later (or equal, within a
 * tick) start; a pid with no process has none */
static void test_pid_start(void **state)
{
	unsigned long long self = kb_pid_start_ticks(0), child;
	pid_t pid;

	(void)state;
	assert_true(self > 0);
	assert_true(self == kb_pid_start_ticks(getpid()));
	usleep(30000);
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	child = kb_pid_start_ticks(pid);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_true(child >= self);
	assert_true(kb_pid_start_ticks(pid) == 0);	/* reaped */
	assert_true(kb_pid_start_ticks(-5) == 0);
}

/* kb_spawn_start() with a stdin pipe, fed later (a gnuplot started
 * early): what is written reaches the child, the wait closes its input
 * so it ends; a child that stops reading gives -EPIPE, not a SIGPIPE;
 * the timeout counts from the wait, not from the start. */
static void test_start_then_feed(void **state)
{
	char out[] = "/tmp/kbench-test-proc-feed.XXXXXX", *buf = NULL;
	char *cat[] = { "cat", NULL }, *head[] = { "head", "-c", "1", NULL };
	char *sleeper[] = { "sleep", "30", NULL };
	struct kb_spawn_opts o = { .stdout_path = out, .timeout_s = 5 };
	struct kb_spawn_opts t = { .timeout_s = 1 };
	struct kb_spawn_result r;
	struct kb_child c;
	size_t big = 1 << 20;
	char *junk;
	int fd;

	(void)state;
	fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kb_spawn_start(cat, &o, 1, &c), 0);
	assert_true(c.stdin_fd >= 0);
	assert_int_equal(kb_child_write(&c, "load 'a.gp'\n", 12), 0);
	assert_int_equal(kb_spawn_wait(&c, &r), 0);
	assert_true(r.exited && r.exit_status == 0 && !r.timed_out);
	assert_int_equal(c.stdin_fd, -1);
	assert_int_equal(kb_child_write(&c, "x", 1), -EBADF);
	assert_int_equal(kb_read_file(out, &buf, NULL, 0), 0);
	assert_string_equal(buf, "load 'a.gp'\n");
	free(buf);
	unlink(out);

	o.stdout_path = "/dev/null";
	assert_int_equal(kb_spawn_start(head, &o, 1, &c), 0);
	junk = calloc(big, 1);
	assert_non_null(junk);
	assert_int_equal(kb_child_write(&c, junk, big), -EPIPE);
	free(junk);
	assert_int_equal(kb_spawn_wait(&c, &r), 0);
	assert_true(r.exited && r.exit_status == 0);

	assert_int_equal(kb_spawn_start(sleeper, &t, 1, &c), 0);
	sleep(2);	/* started 2 s ago: the 1 s timeout is not yet due */
	assert_int_equal(kb_spawn_wait(&c, &r), 0);
	assert_true(r.timed_out && r.signal == SIGTERM);
	assert_true(r.elapsed_s >= 2.9);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_parent_maxrss),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_forward_signal),
		cmocka_unit_test(test_forward_signal_ignored),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_capture_all),
		cmocka_unit_test(test_capture_all_kill_after),
		cmocka_unit_test(test_group_timeout),
		cmocka_unit_test(test_group_stopped_job),
		cmocka_unit_test(test_group_leftover),
		cmocka_unit_test(test_tree_setsid_crash),
		cmocka_unit_test(test_tree_setsid_stopped),
		cmocka_unit_test(test_tree_spares_others),
		cmocka_unit_test(test_group_forward),
		cmocka_unit_test(test_group_stdin),
		cmocka_unit_test(test_pid_is_kbench),
		cmocka_unit_test(test_pid_start),
		cmocka_unit_test(test_start_then_feed),
	};

	if (argc == 4 && !strcmp(argv[1], "fake-fio"))
		return fake_fio(argv[2]);
	self_exe = realpath("/proc/self/exe", NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
