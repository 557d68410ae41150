/* runner/qemu.c - see qemu.h. */
#include "runner/qemu.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int kb_qemu_run(char *const argv[], const char *logpath,
		const struct kb_qemu_watch *w, struct kb_qemu_result *res)
{
	double t0 = kb_mono_s(), now, next_check = 0, next_log = 0;
	int status = 0, fd, killed = 0, interrupted = 0, waiting = 1;
	pid_t pid, got;

	memset(res, 0, sizeof(*res));
	res->needle_s = -1;
	res->mark_s = -1;
	fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		int e = errno;

		kb_error("%s: %s", logpath, strerror(e));
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fd);
		kb_error("cannot fork to run %s: %s", argv[0], strerror(e));
		return -e;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul >= 0)
			dup2(nul, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		setpgid(0, 0);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	for (;;) {
		got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			int e = errno;

			kb_error("waitpid for %s: %s", argv[0], strerror(e));
			kill(pid, SIGKILL);
			return -e;
		}
		now = kb_mono_s() - t0;
		waiting = !res->needle_seen || (w->mark && res->mark_s < 0);
		if (waiting && now >= next_check) {
			/* every tick until the needle and the mark showed
			 * (the boot log: tens of KiB), then never: a console
			 * can grow to megabytes once the guest runs */
			next_check = now + KB_QEMU_TICK_S;
			if (!res->needle_seen &&
			    kb_file_contains(w->console, w->needle)) {
				res->needle_seen = 1;
				res->needle_s = now;
			}
			if (w->mark && res->mark_s < 0 &&
			    kb_file_contains(w->console, w->mark))
				res->mark_s = now;
		}
		if (!killed && w->log_stop && now >= next_log) {
			next_log = now + 0.1;
			if (kb_file_contains(logpath, w->log_stop)) {
				res->log_stopped = 1;
				kill(pid, SIGKILL);
				killed = 1;
			}
		}
		if (!killed && kb_spawn_forward_signal) {
			kill(pid, SIGTERM);
			killed = interrupted = 1;
		} else if (!killed && res->needle_seen && w->stop_at_needle) {
			kill(pid, SIGKILL);
			killed = 1;
		} else if (!killed && !res->needle_seen &&
			   now > w->needle_by_s) {
			res->killed_needle = 1;
			kill(pid, SIGKILL);
			killed = 1;
		} else if (!killed && now > w->total_s) {
			res->killed_total = 1;
			kill(pid, SIGKILL);
			killed = 1;
		}
		/* the needle and the mark timed to a tick, the same for
		 * every line watched (bench/qemu_boot times a plain boot
		 * with this loop) */
		usleep(waiting ? (useconds_t)(KB_QEMU_TICK_S * 1e6) : 100000);
	}
	res->wall_s = kb_mono_s() - t0;
	if (!res->needle_seen && kb_file_contains(w->console, w->needle)) {
		res->needle_seen = 1;
		res->needle_s = res->wall_s;
	}
	if (!killed && WIFEXITED(status)) {
		res->exited = 1;
		res->exit_status = WEXITSTATUS(status);
	}
	return interrupted ? -EINTR : 0;
}

char *kb_qemu_log_line(const char *logpath, const char *text, size_t max)
{
	char *t = NULL, *hit, *b, *r;

	if (kb_read_file(logpath, &t, NULL, 1) || !(hit = strstr(t, text))) {
		free(t);
		return NULL;
	}
	for (b = hit; b > t && b[-1] != '\n'; b--)
		;
	b[strcspn(b, "\r\n")] = '\0';
	r = kb_xstrndup_printable(b, max);
	free(t);
	return r;
}

char *kb_qemu_last_line(const char *logpath, size_t max)
{
	char *t = NULL, *e, *b, *r;

	if (kb_read_file(logpath, &t, NULL, 1)) {
		free(t);
		return NULL;
	}
	e = t + strlen(t);
	while (e > t && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' ||
			 e[-1] == '\t'))
		*--e = '\0';
	if (!*t) {
		free(t);
		return NULL;
	}
	b = strrchr(t, '\n');
	r = kb_xstrndup_printable(b ? b + 1 : t, max);
	free(t);
	return r;
}

/* "NAME=VALUE", not a bare NAME */
static int has_value(const char *v)
{
	return v != NULL;
}

char *kb_qemu_guest_cmdline(const char *name, const char *cmdline, int kvm)
{
	int noirq = !kvm && !kb_cmdline_has(cmdline, "acpi", has_value) &&
		    !kb_cmdline_has(cmdline, "pci", has_value);

	return kb_xasprintf("console=ttyS0 panic=-1 loglevel=5 printk.time=1 "
			    "%skbench.variant=%s%s%s", noirq ? "acpi=noirq " : "",
			    name, cmdline ? " " : "", cmdline ? cmdline : "");
}
