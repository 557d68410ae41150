/* results/paths.c - see paths.h. */
#include "results/paths.h"
#include "lib/file.h"

#include <stdlib.h>
#include <string.h>

char *kb_run_key(const char *configuration, const char *job,
		 long long iteration)
{
	return kb_xasprintf("%s/%s/%03lld", configuration, job, iteration);
}

char *kb_run_dir(const char *dir, const char *key)
{
	return kb_xasprintf("%s/runs/%s", dir, key);
}

char *kb_run_file(const char *dir, const char *key, const char *name)
{
	return kb_xasprintf("%s/runs/%s/%s", dir, key, name);
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
