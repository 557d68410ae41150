/* lib/commands.h - the subcommands (one file each, git builtin/ style).
 *
 * Each takes argc/argv with argv[0] = the subcommand name, parses its own
 * options with getopt_long, and returns the process exit status. */
#ifndef KB_COMMANDS_H
#define KB_COMMANDS_H

int cmd_run(int argc, char **argv);	/* runner/cmd_run.c */
int cmd_plan(int argc, char **argv);	/* runner/cmd_plan.c */
int cmd_parse(int argc, char **argv);	/* parsers/cmd_parse.c */
int cmd_report(int argc, char **argv);	/* reports/cmd_report.c */
int cmd_compare(int argc, char **argv);	/* stats/cmd_compare.c */
int cmd_push(int argc, char **argv);	/* push/cmd_push.c */
int cmd_guest(int argc, char **argv);	/* runner/cmd_guest.c */
int cmd_install_resume(int argc, char **argv);	/* runner/cmd_install_resume.c */

#endif
