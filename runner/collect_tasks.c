/* runner/collect_tasks.c - every task's CPU time before and after a run.
 *
 * Snapshots /proc/[pid]/task/[tid]/stat of every thread, kernel threads
 * included (proc(5): field 2 comm, 14 utime, 15 stime in clock ticks, 22
 * starttime), into tasks.before and tasks.after, each headed by
 * "# kbench tasks clk_tck=N" (sysconf(_SC_CLK_TCK)).  tasks.groups holds
 * the comm groups to aggregate by ("NAME GLOB..." per line: kernels.conf
 * "task group" lines, else the defaults below).  parsers/tasks.c turns
 * them into task.<group>.cpu_pct.
 */
#include "runner/collect.h"
#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Default groups, first match wins (so writeback workers are not
 * counted as plain kworkers): the seed-001 split of CPU between the
 * workload, the flusher threads and kswapd. */
static const char default_groups[] =
	"fio fio*\n"
	"writeback flush-* kworker/*flush* kworker/*writeback* bdi-*\n"
	"kworker kworker/*\n"
	"kswapd kswapd*\n";

/* Append the stat line of the task open at dirfd's name/stat to f: one
 * read(2) (proc(5) builds the whole line for the first read; a line
 * longer than the buffer, which comm's 16 bytes and 52 numbers cannot
 * make, is read on), no allocation; nothing when the task is gone. */
static void append_stat(FILE *f, int dirfd, const char *name)
{
	char path[300], buf[1024];
	ssize_t r;
	int fd, last = '\n';

	snprintf(path, sizeof(path), "%s/stat", name);
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)	/* a task may exit between readdir and open */
		return;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, (size_t)r, f);
		last = buf[r - 1];
		if ((size_t)r < sizeof(buf))
			break;
	}
	close(fd);
	if (last != '\n')
		fputc('\n', f);
}

/* Every task's stat line, through directory fds (openat(2)): about 3
 * system calls per task instead of 8 (a path walk through /proc/PID/task
 * per task, stdio's fstat and the read that finds the end), which was a
 * quarter of a one-run campaign's own CPU on a paravirtualised guest
 * (issue 16). */
static int snapshot_tasks(const char *rdir, const char *name)
{
	char *buf = NULL, *path, sub[300];
	size_t len = 0;
	DIR *proc, *tasks;
	struct dirent *p, *t;
	FILE *f;
	int ret, fd;

	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	fprintf(f, "# kbench tasks clk_tck=%ld\n", sysconf(_SC_CLK_TCK));
	proc = opendir("/proc");
	while (proc && (p = readdir(proc))) {
		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(sub, sizeof(sub), "%s/task", p->d_name);
		fd = openat(dirfd(proc), sub, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
		tasks = fd < 0 ? NULL : fdopendir(fd);
		if (!tasks) {
			if (fd >= 0)
				close(fd);
			continue;	/* the process is gone */
		}
		while ((t = readdir(tasks)))
			if (t->d_name[0] >= '0' && t->d_name[0] <= '9')
				append_stat(f, dirfd(tasks), t->d_name);
		closedir(tasks);
	}
	if (proc)
		closedir(proc);
	if (fclose(f)) {
		free(buf);
		return -EIO;
	}
	path = kb_path_join(rdir, name);
	ret = kb_write_atomic(path, buf, len);
	free(path);
	free(buf);
	return ret;
}

static int tasks_start(struct kb_run_ctx *ctx, void **state)
{
	char *buf = NULL, *path;
	size_t len = 0, i;
	FILE *f;
	int ret;

	*state = NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	if (!ctx->cfg->ntask_groups)
		fputs(default_groups, f);
	for (i = 0; i < ctx->cfg->ntask_groups; i++)
		fprintf(f, "%s %s\n", ctx->cfg->task_groups[i].name,
			ctx->cfg->task_groups[i].patterns);
	fclose(f);
	path = kb_path_join(ctx->rdir, "tasks.groups");
	ret = kb_write_atomic(path, buf, len);
	free(path);
	free(buf);
	if (!ret)
		ret = snapshot_tasks(ctx->rdir, "tasks.before");
	return ret;
}

static int tasks_stop(struct kb_run_ctx *ctx, void *state)
{
	(void)state;
	return snapshot_tasks(ctx->rdir, "tasks.after");
}

const struct kb_collector kb_collector_tasks = {
	.name = "tasks",
	.enabled = NULL,
	.start = tasks_start,
	.stop = tasks_stop,
};
