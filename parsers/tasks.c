/* parsers/tasks.c - see tasks.h for the formats. */
#include "parsers/tasks.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct task {
	long tid;
	unsigned long long start, ticks;
	char comm[64];
};

struct snap {
	struct task *t;
	size_t n;
	long clk_tck;
};

static int parse_snap(const char *name, const char *text, struct snap *s)
{
	const char *line = text, *next, *open, *close;
	unsigned long long ut, st, start;
	int lineno = 0;

	memset(s, 0, sizeof(*s));
	for (; line && *line; line = next) {
		struct task *t;

		next = strchr(line, '\n');
		if (next)
			next++;
		lineno++;
		if (*line == '#') {
			const char *c = strstr(line, "clk_tck=");

			if (c)
				s->clk_tck = strtol(c + 8, NULL, 10);
			continue;
		}
		if (*line == '\n')
			continue;
		open = strchr(line, '(');
		close = NULL;
		for (const char *c = open; c && c < (next ? next : line +
						    strlen(line)); c++)
			if (*c == ')')
				close = c;
		/* after ") ": state(3) ppid pgrp session tty tpgid flags
		 * minflt cminflt majflt cmajflt utime(14) stime(15) cutime
		 * cstime priority nice num_threads itrealvalue starttime(22) */
		if (!open || !close ||
		    sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u "
			   "%*u %*u %llu %llu %*d %*d %*d %*d %*d %*d %llu",
			   &ut, &st, &start) != 3) {
			kb_error("%s:%d: not a /proc/PID/stat line (expected "
				 "'PID (comm) STATE ...', proc(5))", name,
				 lineno);
			free(s->t);
			s->t = NULL;
			return -EINVAL;
		}
		s->t = kb_xrealloc(s->t, (s->n + 1) * sizeof(*s->t));
		t = &s->t[s->n++];
		t->tid = strtol(line, NULL, 10);
		t->start = start;
		t->ticks = ut + st;
		snprintf(t->comm, sizeof(t->comm), "%.*s",
			 (int)(close - open - 1), open + 1);
	}
	if (s->clk_tck <= 0)
		s->clk_tck = 100;	/* USER_HZ on every Linux arch */
	return 0;
}

int tasks_cpu_metrics(const char *name, const char *before,
		      const char *after, const char *groups, double elapsed_s,
		      const char *extra_group, double extra_s, json_t *metrics)
{
	struct snap a, b;
	char *gcopy = NULL, *line, *next, *gname[64], *gpat[64], key[160];
	double gsec[65] = { 0 }, total = 0;
	size_t ng = 0, i, j, g;
	int ret;

	if (elapsed_s <= 0) {
		kb_error("%s: elapsed time unknown; task.* n/a", name);
		return -EINVAL;
	}
	ret = parse_snap(name, before, &a);
	if (ret)
		return ret;
	ret = parse_snap(name, after, &b);
	if (ret) {
		free(a.t);
		return ret;
	}
	gcopy = kb_xstrdup(groups ? groups : "");
	for (line = gcopy; line && *line && ng < 64; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line += strspn(line, " \t");
		if (!*line || *line == '#')
			continue;
		gname[ng] = line;
		line += strcspn(line, " \t");
		if (*line)
			*line++ = '\0';
		gpat[ng++] = line;
	}
	for (i = 0; i < b.n; i++) {
		unsigned long long d = b.t[i].ticks;
		double sec;

		for (j = 0; j < a.n; j++)
			if (a.t[j].tid == b.t[i].tid &&
			    a.t[j].start == b.t[i].start) {
				d = b.t[i].ticks >= a.t[j].ticks ?
				    b.t[i].ticks - a.t[j].ticks : 0;
				break;
			}
		sec = (double)d / (double)b.clk_tck;
		total += sec;
		for (g = 0; g < ng; g++) {
			char *pats = kb_xstrdup(gpat[g]), *p, *save = NULL;
			int hit = 0;

			for (p = strtok_r(pats, " \t", &save); p && !hit;
			     p = strtok_r(NULL, " \t", &save))
				hit = !fnmatch(p, b.t[i].comm, 0);
			free(pats);
			if (hit)
				break;
		}
		gsec[g] += sec;	/* g == ng: other */
	}
	for (g = 0; extra_group && g < ng; g++)
		if (!strcmp(gname[g], extra_group)) {
			gsec[g] += extra_s;
			total += extra_s;
		}
	for (g = 0; g < ng; g++) {
		snprintf(key, sizeof(key), "task.%s.cpu_pct", gname[g]);
		json_object_set_new(metrics, key,
				    json_real(100 * gsec[g] / elapsed_s));
	}
	json_object_set_new(metrics, "task.other.cpu_pct",
			    json_real(100 * gsec[ng] / elapsed_s));
	json_object_set_new(metrics, "task.total.cpu_pct",
			    json_real(100 * total / elapsed_s));
	free(gcopy);
	free(a.t);
	free(b.t);
	return 0;
}
