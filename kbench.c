/* kbench.c - main(): the subcommand table, nothing else. */
#include "builtin/builtin.h"

#include <gsl/gsl_errno.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CMD(name, fn, summary) \
	{ name, cmd_##fn, summary, kb_##fn##_options, kb_##fn##_shortopts, \
	  kb_##fn##_args, 0 }

/* The commands: --help lists them, main() runs them, `kbench
 * --completion bash|zsh` (builtin/completion.c) completes them with
 * their options. */
static const struct kb_cmd commands[] = {
	CMD("run", run, "run or resume a campaign"),
	CMD("plan", plan, "print the run order, count and ETA; run nothing"),
	CMD("calibrate", calibrate, "A/A runs of the baseline: noise, pairing or Welch, rounds needed"),
	CMD("report", report, "render the tables of one or more campaigns"),
	CMD("compare", compare, "verdict per metric, BASE vs NEW; exit 0/1/2/125 (git bisect)"),
	CMD("parse", parse, "normalise fio output files into metrics JSON"),
	CMD("push", push, "send a campaign's results to a results store"),
	{ "guest", cmd_guest, "inside a vm variant's guest: do its runs (internal)",
	  kb_guest_options, kb_guest_shortopts, kb_guest_args, 1 },
	CMD("install-resume", install_resume, "install/remove the unit resuming a kexec campaign"),
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0 },
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
	fprintf(f, "\n'kbench COMMAND --help' (or 'kbench help COMMAND') "
		   "explains a command;\nman kbench(1) explains them all.\n"
		   "kbench --completion bash|zsh prints the shell completion "
		   "script.\n");
}

int main(int argc, char **argv)
{
	const struct kb_cmd *c;

	/* GSL's default error handler aborts the process (gsl_errno.h):
	 * off, so a function out of its domain returns its error value
	 * (NaN) and stats/ reports the comparison as not computable
	 * instead of kbench dying with the campaign's report unwritten */
	gsl_set_error_handler_off();
	/* a 9p guest's initramfs runs kbench as its /init (pid 1) */
	if (getpid() == 1 && argc >= 1 && !strcmp(argv[0], "/init"))
		kb_guest_init_main();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		/* kbench help CMD, as git's: CMD --help (it printed this
		 * usage, CMD ignored) */
		char help[] = "--help", *hargv[3] = { argv[2], help, NULL };

		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		for (c = commands; c->name; c++)
			if (!strcmp(argv[2], c->name))
				return c->fn(2, hargv);
		fprintf(stderr, "kbench: '%s' is not a kbench command; see "
				"'kbench --help'\n", argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "--completion"))	/* for make install */
		return kb_completion(argc - 1, argv + 1, commands);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("kbench %s\n", KBENCH_VERSION);
		return 0;
	}
	for (c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name)) {
			/* getopt_long's own messages name argv[0]: "kbench
			 * compare: unrecognized option '--x'", not "compare:
			 * ..." (a break-it trial) */
			static char prog[64];

			snprintf(prog, sizeof(prog), "kbench %s", c->name);
			argv[1] = prog;
			return c->fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "kbench: '%s' is not a kbench command; see "
			"'kbench --help'\n", argv[1]);
	return 2;
}
