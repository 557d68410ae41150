/* builtin/options.c - what every command says after getopt_long refused
 * an option, or when the default kernels.conf is missing (builtin.h). */
#include "builtin/builtin.h"
#include "lib/err.h"
#include "lib/str.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *kb_option_near(const struct option *options, const char *word)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, len;
	const struct option *o;
	char name[64];

	if (!word || strncmp(word, "--", 2) || !word[2])
		return NULL;
	/* "--metrc=x": the name before '=' */
	len = strcspn(word + 2, "=");
	if (len >= sizeof(name))
		return NULL;
	memcpy(name, word + 2, len);
	name[len] = '\0';
	for (o = options; o && o->name; o++) {
		/* known, or an abbreviation getopt_long resolved (its
		 * error is then the value's) or called ambiguous, naming
		 * the options: nothing nearer to say */
		if (!strncmp(o->name, name, len))
			return NULL;
		if (kb_nearer(name, o->name, &bestd))
			best = o->name;
	}
	return best;
}

void kb_bad_option(const char *cmd, const struct option *options,
		   const char *word)
{
	const char *best = kb_option_near(options, word);

	if (best)
		fprintf(stderr, "did you mean '--%s'? ", best);
	fprintf(stderr, "see 'kbench %s --help'\n", cmd);
}

int kb_default_conf_missing(const char *conf, int given, const char *resume)
{
	if (given || access(conf, F_OK) == 0 || errno != ENOENT)
		return 0;
	kb_error("no %s in the current directory (the default of -c): give "
		 "-c FILE (kbench(1) KERNELS.CONF describes it; kbench's "
		 "source has kernels.conf and examples/*.conf)%s%s", conf,
		 resume ? ", or " : "", resume ? resume : "");
	return 1;
}
