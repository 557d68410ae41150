/* results/paths.c - see paths.h. */
#include "results/paths.h"
#include "lib/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *kb_run_key(const char *configuration, const char *job,
		 long long iteration)
{
	return kb_xasprintf("%s/%s/%03lld", configuration, job, iteration);
}

long long kb_iteration_counted(long long round, long long warmup)
{
	return round - warmup + 1;
}

const char *kb_iteration_label(long long round, long long warmup,
			       char buf[KB_ITER_LABEL_MAX])
{
	if (round < warmup)
		snprintf(buf, KB_ITER_LABEL_MAX, "w%lld", round + 1);
	else
		snprintf(buf, KB_ITER_LABEL_MAX, "%lld",
			 kb_iteration_counted(round, warmup));
	return buf;
}

char *kb_extra_run_key(const char *configuration, const char *job,
		       long long iteration, const char *kind, unsigned k)
{
	return kb_xasprintf("%s/%s/%03lld-%s%u", configuration, job, iteration,
			    kind, k);
}

const char *kb_run_key_extra(const char *last, size_t *len)
{
	const char *dash = strchr(last, '-');

	if (!dash || !dash[1])
		return NULL;
	*len = strcspn(dash + 1, "0123456789/");
	return *len ? dash + 1 : NULL;
}

char *kb_run_dir(const char *dir, const char *key)
{
	return kb_xasprintf("%s/" KB_RUNS_DIR "/%s", dir, key);
}

int kb_run_dir_linked(const char *dir, const char *key)
{
	char *rel = kb_xasprintf(KB_RUNS_DIR "/%s", key);
	int linked = kb_real_dirs(dir, rel) == -ELOOP;

	free(rel);
	return linked;
}

char *kb_run_file(const char *dir, const char *key, const char *name)
{
	return kb_xasprintf("%s/" KB_RUNS_DIR "/%s/%s", dir, key, name);
}

char *kb_conf_results_dir(const char *conf, const char *suffix)
{
	const char *b = strrchr(conf, '/');
	char *stem = kb_xstrdup(b ? b + 1 : conf), *dot = strrchr(stem, '.');
	char *dir;

	if (dot && dot != stem)
		*dot = '\0';
	dir = kb_xasprintf("results/%s%s", stem, suffix);
	free(stem);
	return dir;
}
