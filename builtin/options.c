/* builtin/options.c - what every command says after getopt_long refused
 * an option (builtin.h). */
#include "builtin/builtin.h"
#include "lib/str.h"

#include <stdio.h>
#include <string.h>

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
