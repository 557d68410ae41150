/* bench/kbtime.c - run a command and report its wall time, CPU and peak
 * RSS, measured from outside (part of `make bench`, never of kbench).
 *
 * usage: kbtime [-q] [-o FILE] COMMAND [ARG...]
 *
 *   -q       send the command's stdout and stderr to /dev/null
 *   -o FILE  send the command's stdout to FILE
 *
 * Prints one line on stdout after the command ends:
 *
 *   rc=0 wall_s=3.512 user_s=0.41 sys_s=1.22 maxrss_kib=5120 self_cpu_s=0.0123
 *
 * wall_s    CLOCK_MONOTONIC from fork(2) to the end of the child
 * user_s, sys_s, maxrss_kib
 *           wait4(2)'s rusage: the child and every descendant it waited
 *           for (getrusage(2) RUSAGE_CHILDREN semantics); ru_maxrss is the
 *           largest RSS of any one of them (KiB)
 * self_cpu_s
 *           the child's own CPU time (user + system, all its threads,
 *           excluding its children): /proc/PID/stat utime + stime of the
 *           exited, not yet reaped child (proc(5); waitid(2) WNOWAIT keeps
 *           it a zombie), in clock ticks (sysconf(_SC_CLK_TCK)); "nan"
 *           when it cannot be read.  Resolution: one tick (10 ms at
 *           USER_HZ = 100), so it is a cross-check for short commands.
 *
 * Exit status: the command's (128 + signal when killed); 127 when it
 * could not be started.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* utime + stime (fields 14 and 15 of proc(5) /proc/PID/stat) in seconds,
 * or NAN. */
static double self_cpu_s(pid_t pid)
{
	char path[64], buf[4096], *p;
	unsigned long long ut, st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NAN;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NAN;
	buf[n] = '\0';
	/* comm (field 2) may hold blanks and ')': skip to the last ')' */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%llu %llu", &ut, &st) != 2)
		return NAN;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static void usage(void)
{
	fprintf(stderr, "usage: kbtime [-q] [-o FILE] COMMAND [ARG...]\n");
}

int main(int argc, char **argv)
{
	const char *outfile = NULL;
	int quiet = 0, o, status = 0, rc;
	struct rusage ru;
	siginfo_t si;
	double t0, t1, self;
	pid_t pid;

	while ((o = getopt(argc, argv, "+qo:")) != -1) {
		switch (o) {
		case 'q':
			quiet = 1;
			break;
		case 'o':
			outfile = optarg;
			break;
		default:
			usage();
			return 127;
		}
	}
	if (optind >= argc) {
		usage();
		return 127;
	}
	t0 = now_s();
	pid = fork();
	if (pid < 0) {
		perror("kbtime: fork");
		return 127;
	}
	if (pid == 0) {
		int fd = -1;

		if (outfile)
			fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		else if (quiet)
			fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			if (quiet)
				dup2(fd, STDERR_FILENO);
			close(fd);
		}
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "kbtime: %s: %s\n", argv[optind],
			strerror(errno));
		_exit(127);
	}
	/* wait for the end without reaping, so /proc/PID/stat still holds
	 * the child's own CPU times */
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 &&
	       errno == EINTR)
		;
	t1 = now_s();
	self = self_cpu_s(pid);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("kbtime: wait4");
			return 127;
		}
	}
	rc = WIFEXITED(status) ? WEXITSTATUS(status) :
	     WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
	printf("rc=%d wall_s=%.6f user_s=%.6f sys_s=%.6f maxrss_kib=%ld "
	       "self_cpu_s=%.4f\n", rc, t1 - t0, tv_s(ru.ru_utime),
	       tv_s(ru.ru_stime), ru.ru_maxrss, self);
	return rc;
}
