/* kbench.c - main(): the subcommand table, nothing else. */
#include "builtin/builtin.h"

#include <stdio.h>
#include <string.h>

struct kb_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct kb_cmd commands[] = {
	{ "run", cmd_run, "run or resume a campaign" },
	{ "plan", cmd_plan, "print the run order, count and ETA; run nothing" },
	{ "report", cmd_report, "render the tables of one or more campaigns" },
	{ "compare", cmd_compare, "verdict per metric, BASE vs NEW; exit 0/1/2/125 (git bisect)" },
	{ "parse", cmd_parse, "normalise fio output files into metrics JSON" },
	{ "push", cmd_push, "send a campaign's results to a results store" },
	{ "guest", cmd_guest, "inside a vm variant's guest: do its runs (internal)" },
	{ "install-resume", cmd_install_resume, "install/remove the unit resuming a kexec campaign" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct kb_cmd *c;

	fprintf(f, "usage: kbench [--version] [--help] COMMAND [ARGS]\n\n"
		   "kbench runs fio jobs across kernel variants and tunable "
		   "values and prints\nthe comparison tables posted to "
		   "linux-kernel.\n\ncommands:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "  %-15s %s\n", c->name, c->summary);
	fprintf(f, "\n'kbench COMMAND --help' explains a command; "
		   "man kbench(1) explains them all.\n");
}

int main(int argc, char **argv)
{
	const struct kb_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("kbench %s\n", KBENCH_VERSION);
		return 0;
	}
	for (c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "kbench: '%s' is not a kbench command; see "
			"'kbench --help'\n", argv[1]);
	return 2;
}
