/* builtin/builtin.h - the subcommands (one file each, git builtin/ style).
 *
 * Each takes argc/argv with argv[0] = the subcommand name, parses its own
 * options with getopt_long, and returns the process exit status. */
#ifndef KB_COMMANDS_H
#define KB_COMMANDS_H

int cmd_run(int argc, char **argv);	/* builtin/run.c */
int cmd_plan(int argc, char **argv);	/* builtin/plan.c */
int cmd_parse(int argc, char **argv);	/* builtin/parse.c */
int cmd_report(int argc, char **argv);	/* builtin/report.c */
int cmd_compare(int argc, char **argv);	/* builtin/compare.c */
int cmd_push(int argc, char **argv);	/* builtin/push.c */
int cmd_guest(int argc, char **argv);	/* builtin/guest.c */
int cmd_install_resume(int argc, char **argv);	/* builtin/install_resume.c */

#endif
