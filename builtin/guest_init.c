/* builtin/guest_init.c - kbench as the /init of a 9p guest (see
 * kb_guest_init_main() in builtin/builtin.h; the initramfs:
 * runner/initramfs.h).
 *
 * The same steps, console lines and exit path as the busybox script of
 * the other guests (runner/initramfs.c, initramfs_init_script()): the
 * host reads "kbench-initramfs: error: ..." lines as a boot's reason and
 * waits for `kbench guest`'s own lines.  `kbench guest` runs in a child:
 * a crash there is its exit status on the console, not a panic of
 * process 1.
 */
#include "builtin/builtin.h"
#include "lib/file.h"
#include "runner/initramfs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A console line after the seconds since the kernel started
 * (CLOCK_BOOTTIME, /proc/uptime's clock, in microseconds as the kernel's
 * own lines and `kbench guest`'s: builtin/guest.c guest_say()), so that
 * the boot log shows each step's cost; no /proc needed. */
static void init_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void init_say(const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	fprintf(stderr, "[%5ld.%06ld] kbench-initramfs: ", (long)ts.tv_sec,
		ts.tv_nsec / 1000);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((noreturn)) power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();	/* process 1 must not exit */
}

static void __attribute__((noreturn)) init_fail(const char *what)
{
	init_say("error: %s", what);
	power_off();
}

/* The NUL-terminated strings of path as an argv (malloc'd array into
 * the malloc'd *text), or -errno. */
static int read_argv(const char *path, char **text, char ***argv, int *argc)
{
	size_t len, i, n = 0;
	char **v;
	int ret = kb_read_file(path, text, &len, 0);

	if (ret)
		return ret;
	/* runner/initramfs.c ends every string, the last one too */
	if (!len || (*text)[len - 1])
		return -EINVAL;
	for (i = 0; i < len; i++)
		n += !(*text)[i];
	v = kb_xmalloc((n + 1) * sizeof(*v));
	n = 0;
	for (i = 0; i < len; i += strlen(*text + i) + 1)
		v[n++] = *text + i;
	v[n] = NULL;
	*argv = v;
	*argc = (int)n;
	return n ? 0 : -EINVAL;
}

/* Run `kbench guest` with argv in a child; its exit status (128 + the
 * signal when one killed it).  Reaps every orphan meanwhile. */
static int run_guest(int argc, char **argv)
{
	pid_t pid, w;
	int st = 0;

	fflush(NULL);		/* nothing buffered twice */
	pid = fork();
	if (pid < 0)
		init_fail("cannot fork kbench guest");
	if (pid == 0)
		exit(cmd_guest(argc, argv));	/* flushes, as main() would */
	do {
		w = waitpid(-1, &st, 0);
	} while ((w >= 0 && w != pid) || (w < 0 && errno == EINTR));
	if (w < 0)
		return 255;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* init=PROG on the kernel command line (malloc'd), else NULL. */
static char *cmdline_init(void)
{
	char *text = NULL, *w, *save = NULL, *prog = NULL;

	if (kb_read_file("/proc/cmdline", &text, NULL, 1))
		return NULL;
	for (w = strtok_r(text, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save))
		if (!strncmp(w, "init=", 5)) {	/* the last, as the kernel */
			free(prog);
			prog = kb_xstrdup(w + 5);
		}
	free(text);
	return prog;
}

void kb_guest_init_main(void)
{
	char *text = NULL, **argv = NULL, *prog;
	int argc, st;

	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL))
		init_fail("cannot mount /proc");
	prog = cmdline_init();
	if (prog) {
		char *pargv[2] = { prog, NULL };

		if (read_argv(KB_INIT_SETUP_ARGV, &text, &argv, &argc))
			init_fail("cannot read " KB_INIT_SETUP_ARGV);
		if (run_guest(argc, argv))
			init_fail("cannot set the guest up");
		if (chroot("/mnt/root") || chdir("/"))
			init_fail("cannot chroot to /mnt/root");
		/* PROG as busybox chroot took it: found in PATH (the
		 * kernel gives init no PATH) */
		setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:"
		       "/usr/bin:/sbin:/bin", 0);
		execvp(prog, pargv);
		init_say("error: cannot run init=%s: %s", prog,
			 strerror(errno));
		power_off();
	}
	if (read_argv(KB_INIT_GUEST_ARGV, &text, &argv, &argc))
		init_fail("cannot read " KB_INIT_GUEST_ARGV);
	init_say("starting kbench guest");
	st = run_guest(argc, argv);
	init_say("kbench guest exited with status %d", st);
	sync();
	umount2("/mnt/root/tmp", 0);
	umount2("/mnt/root/run", 0);
	power_off();
}
