/* builtin/builtin.h - the subcommands (one file each, git builtin/ style).
 *
 * Each takes argc/argv with argv[0] = "kbench NAME" (getopt_long's
 * messages name it), parses its own options with getopt_long, and
 * returns the process exit status.  Each
 * exports its getopt_long table and short options (kb_CMD_options,
 * kb_CMD_shortopts) and what their arguments are (kb_CMD_args), which
 * kbench.c's command table hands to the completion generator
 * (builtin/completion.c): --help, parsing and completion read the same
 * tables. */
#ifndef KB_COMMANDS_H
#define KB_COMMANDS_H

#include <getopt.h>

/* What an option's argument, or an operand, completes to. */
enum kb_arg {
	KB_ARG_NONE = 0,	/* free text: nothing to complete */
	KB_ARG_FILE,		/* a file */
	KB_ARG_DIR,		/* a directory */
	KB_ARG_CONF,		/* a kernels.conf: *.conf */
	KB_ARG_JSON,		/* *.json */
	KB_ARG_CAMPAIGN,	/* a campaign directory (holds campaign.json) */
	KB_ARG_CAMPAIGN_CONFIG,	/* DIR or DIR:CONFIGURATION: the campaign's
				 * configuration ids (its variants and their
				 * tunable values) */
	KB_ARG_LAYOUT,		/* a report layout (reports/layout.h) */
	KB_ARG_METRIC,		/* metric names, NAME,NAME (lib/metrics.h) */
	KB_ARG_WORD,		/* one of words */
	KB_ARG_WORDS,		/* words, comma-separated: text,csv */
};

/* The argument of the long option `option`; option NULL: the operands.
 * A table ends with { NULL, KB_ARG_NONE, NULL } after the operands'
 * entry (or with the operands' entry itself, when it is KB_ARG_NONE). */
struct kb_arg_spec {
	const char *option;
	enum kb_arg kind;
	const char *words;	/* KB_ARG_WORD(S): blank-separated */
};

/* One command of kbench.c's table. */
struct kb_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct option *options;	/* its getopt_long table */
	const char *shortopts;		/* its getopt optstring */
	const struct kb_arg_spec *args;	/* the arguments' kinds */
	int internal;			/* not offered by completion */
};

/* After getopt_long refused word (argv[optind - 1]) and said why:
 * "did you mean '--metric'?" when word is an unknown long option within
 * two edits of one of options (kb_nearer(), lib/str.h), then "see
 * 'kbench CMD --help'", on standard error. */
void kb_bad_option(const char *cmd, const struct option *options,
		   const char *word);

/* The long option of options that word ("--metrc", "--metrc=x") is
 * within two edits of, for "did you mean"; NULL when word is no long
 * option, names one of options or abbreviates one (getopt_long's own
 * message named what it meant), or none is near. */
const char *kb_option_near(const struct option *options, const char *word);

/* Before a command reads kernels.conf that -c did not name (given 0):
 * when conf does not exist, 1 with an error saying it is the default of
 * -c, where one is described and found, and resume ("-o DIR to resume a
 * campaign") after ", or " when not NULL; else 0 (it exists, or -c named
 * it: the loader's own "cannot open" then).  A new user's trial: "cannot open kernels.conf"
 * outside the checkout said nothing of -c. */
int kb_default_conf_missing(const char *conf, int given,
			    const char *resume);

/* report --format (reports/report.h renders each) */
#define KB_REPORT_FORMATS "text markdown csv json"
/* report --prefix (reports/report.h report_opts.prefix) */
#define KB_REPORT_PREFIXES "none auto"

#define KB_BUILTIN(cmd) \
	int cmd_##cmd(int argc, char **argv); \
	extern const struct option kb_##cmd##_options[]; \
	extern const char kb_##cmd##_shortopts[]; \
	extern const struct kb_arg_spec kb_##cmd##_args[]

KB_BUILTIN(run);		/* builtin/run.c */
KB_BUILTIN(plan);		/* builtin/plan.c */
KB_BUILTIN(calibrate);		/* builtin/calibrate.c */
KB_BUILTIN(parse);		/* builtin/parse.c */
KB_BUILTIN(report);		/* builtin/report.c */
KB_BUILTIN(compare);		/* builtin/compare.c */
KB_BUILTIN(push);		/* builtin/push.c */
KB_BUILTIN(guest);		/* builtin/guest.c */
KB_BUILTIN(install_resume);	/* builtin/install_resume.c */

/* kbench as the /init of a 9p guest's initramfs (builtin/guest_init.c;
 * runner/initramfs.h, struct kb_initramfs_opts.kbench_init): kbench.c
 * calls it when it runs as process 1 under the name "/init".  It does
 * what the initramfs's busybox script did, without busybox: mounts
 * /proc, runs `kbench guest` with the options in KB_INIT_GUEST_ARGV in a
 * child, says its exit status on the console, syncs and powers off (or,
 * with init=PROG on the kernel command line, the setup in
 * KB_INIT_SETUP_ARGV, then chroot to the host's root and exec PROG).
 * Never returns. */
void kb_guest_init_main(void) __attribute__((noreturn));

/* `kbench --completion bash|zsh`: print the completion script for the
 * shell, generated from cmds (NULL-name terminated).  Exit status. */
int kb_completion(int argc, char **argv, const struct kb_cmd *cmds);

/* After getopt_long: 0 when no operand is left (optind == argc), else
 * 1 with "unexpected argument 'X'; see kbench CMD --help" (builtin/
 * completion.c). */
int kb_no_operands(int argc, char **argv, const char *cmd);

/* 1 when word is one of the blank-separated words. */
int kb_word_in(const char *words, const char *word);

#endif
