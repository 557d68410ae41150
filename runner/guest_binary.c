/* runner/guest_binary.c - which kbench binary a vm guest runs (see
 * runner/guest_binary.h). */
#include "runner/guest_binary.h"
#include "lib/buildid.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void guest_kbench_find(const char *exe, struct kb_guest_kbench *g)
{
	char id[132], tid[132];
	const char *slash = strrchr(exe, '/');
	char *cand[2];
	int i, n, found = -1;

	memset(g, 0, sizeof(*g));
	g->path = kb_xstrdup(exe);
	cand[0] = kb_xasprintf("%.*s/kbench-guest",
			       slash ? (int)(slash - exe) : 1,
			       slash ? exe : ".");
	cand[1] = kb_xasprintf("%.*s/../libexec/kbench/kbench-guest",
			       slash ? (int)(slash - exe) : 1,
			       slash ? exe : ".");
	n = kb_elf_build_id(exe, id, sizeof(id));
	for (i = 0; i < 2 && found < 0; i++) {
		int t = kb_elf_build_id(cand[i], tid, sizeof(tid));
		char *why = NULL;

		if (t == -ENOENT)
			continue;
		if (n <= 0)
			why = kb_xasprintf("%s has no build ID to match %s "
				"against (linked outside the Makefile?)", exe,
				cand[i]);
		else if (t <= 0)
			why = kb_xasprintf("%s: %s", cand[i], t == -ENODATA ?
				"no build ID" : t == -ENOEXEC ?
				"not an ELF-64 executable" : strerror(-t));
		else if (strcmp(id, tid))
			why = kb_xasprintf("%s is from another build (build "
				"ID %.12s, this kbench's %.12s): `make` links "
				"both", cand[i], tid, id);
		if (!why)
			found = i;
		else if (!g->why)
			g->why = why;	/* the first reason, the next tried */
		else
			free(why);
	}
	if (found >= 0) {
		free(g->why);
		g->why = NULL;
		free(g->path);
		g->path = kb_xstrdup(cand[found]);
		g->is_static = 1;
	} else if (!g->why) {
		g->why = kb_xasprintf("no static guest binary beside it (%s "
				      "or %s)", cand[0], cand[1]);
	}
	free(cand[0]);
	free(cand[1]);
}

void guest_kbench_free(struct kb_guest_kbench *g)
{
	free(g->path);
	free(g->why);
	memset(g, 0, sizeof(*g));
}
