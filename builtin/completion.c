/* builtin/completion.c - `kbench --completion bash|zsh`: the shell
 * completion script, generated from the tables --help and getopt_long
 * read: kbench.c's command table, each command's option table
 * (kb_CMD_options, kb_CMD_shortopts), what their arguments are
 * (kb_CMD_args), the layouts (reports/layout.h) and the metrics
 * (lib/metrics.h).  `make install` writes it to
 * PREFIX/share/bash-completion/completions/kbench and
 * PREFIX/share/zsh/vendor-completions/_kbench.
 *
 * The bash script defines _kbench (complete -F _kbench kbench) and needs
 * nothing but bash (no bash-completion package): it completes commands,
 * options (long, and short where the optstring has them), option values
 * (formats, layouts, metrics, files, directories), campaign directories
 * (those holding campaign.json; other directories end in '/' to descend
 * into), and compare's DIR:CONFIGURATION (the configuration ids of DIR's
 * campaign.json, else the variants of DIR/kernels.conf).  The zsh script
 * is the same function under zsh's bashcompinit.
 */
#include "builtin/builtin.h"
#include "lib/metrics.h"
#include "reports/layout.h"
#include "lib/err.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int kb_no_operands(int argc, char **argv, const char *cmd)
{
	if (optind >= argc)
		return 0;
	kb_error("unexpected argument '%s'; see kbench %s --help",
		 argv[optind], cmd);
	return 1;
}

int kb_word_in(const char *words, const char *word)
{
	size_t n = strlen(word);
	const char *w = words;

	if (!n)
		return 0;
	while (*w) {
		size_t len = strcspn(w, " ");

		if (len == n && !strncmp(w, word, n))
			return 1;
		w += len;
		while (*w == ' ')
			w++;
	}
	return 0;
}

/* Shell functions the generated part calls. */
static const char helpers[] =
"# _kbench_words WORDS CUR: the words that start with CUR\n"
"_kbench_words() {\n"
"\tlocal IFS=$' \\t\\n'\n"
"\tCOMPREPLY+=($(compgen -W \"$1\" -- \"$2\"))\n"
"}\n"
"\n"
"# _kbench_list WORDS CUR: a comma-separated list (text,csv): the last item\n"
"_kbench_list() {\n"
"\tlocal pre= last=$2 w IFS=$' \\t\\n'\n"
"\tif [[ $2 == *,* ]]; then\n"
"\t\tpre=${2%,*},\n"
"\t\tlast=${2##*,}\n"
"\tfi\n"
"\tfor w in $(compgen -W \"$1\" -- \"$last\"); do\n"
"\t\tCOMPREPLY+=(\"$pre$w\")\n"
"\tdone\n"
"}\n"
"\n"
"# _kbench_files GLOB CUR: files matching GLOB ('' for any) and directories\n"
"_kbench_files() {\n"
"\tlocal IFS=$'\\n'\n"
"\tcompopt -o filenames 2>/dev/null\n"
"\tif [[ -n $1 ]]; then\n"
"\t\tCOMPREPLY+=($(compgen -f -X \"!$1\" -- \"$2\") $(compgen -d -- \"$2\"))\n"
"\telse\n"
"\t\tCOMPREPLY+=($(compgen -f -- \"$2\"))\n"
"\tfi\n"
"}\n"
"\n"
"# _kbench_dirs CUR: directories\n"
"_kbench_dirs() {\n"
"\tlocal IFS=$'\\n'\n"
"\tcompopt -o filenames 2>/dev/null\n"
"\tCOMPREPLY+=($(compgen -d -- \"$1\"))\n"
"}\n"
"\n"
"# _kbench_campaigns CUR: campaign directories (holding campaign.json);\n"
"# other directories with a '/' to go on into them\n"
"_kbench_campaigns() {\n"
"\tlocal d more=0 IFS=$'\\n'\n"
"\tfor d in $(compgen -d -- \"$1\"); do\n"
"\t\tif [[ -f $d/campaign.json ]]; then\n"
"\t\t\tCOMPREPLY+=(\"$d\")\n"
"\t\telse\n"
"\t\t\tCOMPREPLY+=(\"$d/\")\n"
"\t\t\tmore=1\n"
"\t\tfi\n"
"\tdone\n"
"\t((more)) && compopt -o nospace 2>/dev/null\n"
"\treturn 0\n"
"}\n"
"\n"
"# _kbench_configs CUR: DIR:CONFIGURATION for the configuration ids of\n"
"# DIR/campaign.json (else the variants, the sections of DIR/kernels.conf);\n"
"# CUR is the whole word: the shell splits it at ':' and '='\n"
"# (COMP_WORDBREAKS), so what comes back starts after the last of them\n"
"_kbench_configs() {\n"
"\tlocal dir=${1%:*} ids id i n=0 IFS=$'\\n'\n"
"\tif [[ -f $dir/campaign.json ]]; then\n"
"\t\tids=$(sed -n '/^  \"configurations\": \\[/,/^  \\]/s/^      \"id\": \"\\(.*\\)\",\\{0,1\\}$/\\1/p' \"$dir/campaign.json\")\n"
"\telif [[ -f $dir/kernels.conf ]]; then\n"
"\t\tids=$(sed -n 's/^[[:space:]]*\\[\\([^]]*\\)\\].*/\\1/p' \"$dir/kernels.conf\" | grep -vx global)\n"
"\tfi\n"
"\tfor ((i = ${#1} - 1; i >= 0; i--)); do\n"
"\t\tif [[ $COMP_WORDBREAKS == *\"${1:i:1}\"* ]]; then\n"
"\t\t\tn=$((i + 1))\n"
"\t\t\tbreak\n"
"\t\tfi\n"
"\tdone\n"
"\tfor id in $ids; do\n"
"\t\tif [[ $dir:$id == \"$1\"* ]]; then\n"
"\t\t\tid=$dir:$id\n"
"\t\t\tCOMPREPLY+=(\"${id:n}\")\n"
"\t\tfi\n"
"\tdone\n"
"}\n"
"\n"
"# _kbench_operand CUR: the word being completed, whole (COMP_LINE up to\n"
"# the cursor, after the last blank), else CUR\n"
"_kbench_operand() {\n"
"\tlocal line\n"
"\tif [[ -n ${COMP_LINE-} ]]; then\n"
"\t\tline=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}\n"
"\t\tprintf '%s' \"${line##*[[:space:]]}\"\n"
"\telse\n"
"\t\tprintf '%s' \"$1\"\n"
"\tfi\n"
"}\n"
"\n";

/* The words of every metric of lib/metrics.h, blank-separated. */
static void print_metrics(FILE *f)
{
	const struct kb_metric_def *m;

	for (m = kb_metrics; m->name; m++)
		fprintf(f, "%s%s", m == kb_metrics ? "" : " ", m->name);
}

static void print_layouts(FILE *f)
{
	const char *name;
	size_t i;

	for (i = 0; (name = kb_layout_name(i, NULL)); i++)
		fprintf(f, "%s%s", i ? " " : "", name);
}

/* The shell command completing an argument of kind with the word in
 * $cur (an option's value or an operand). */
static void print_arg(FILE *f, const struct kb_arg_spec *a)
{
	switch (a->kind) {
	case KB_ARG_NONE:
		fprintf(f, ":");
		break;
	case KB_ARG_FILE:
		fprintf(f, "_kbench_files '' \"$cur\"");
		break;
	case KB_ARG_DIR:
		fprintf(f, "_kbench_dirs \"$cur\"");
		break;
	case KB_ARG_CONF:
		fprintf(f, "_kbench_files '*.conf' \"$cur\"");
		break;
	case KB_ARG_JSON:
		fprintf(f, "_kbench_files '*.json' \"$cur\"");
		break;
	case KB_ARG_CAMPAIGN:
		fprintf(f, "_kbench_campaigns \"$cur\"");
		break;
	case KB_ARG_CAMPAIGN_CONFIG:
		fprintf(f, "w=$(_kbench_operand \"$cur\"); if [[ $w == *:* ]]; "
			"then _kbench_configs \"$w\"; else _kbench_campaigns "
			"\"$cur\"; fi");
		break;
	case KB_ARG_LAYOUT:
		fprintf(f, "_kbench_words \"$_kbench_layouts\" \"$cur\"");
		break;
	case KB_ARG_METRIC:
		fprintf(f, "_kbench_list \"$_kbench_metrics\" \"$cur\"");
		break;
	case KB_ARG_WORD:
		fprintf(f, "_kbench_words '%s' \"$cur\"", a->words);
		break;
	case KB_ARG_WORDS:
		fprintf(f, "_kbench_list '%s' \"$cur\"", a->words);
		break;
	}
}

/* The short option of o, or 0 (val a letter the optstring lists). */
static int short_of(const struct option *o, const char *shortopts)
{
	return o->val > 0 && o->val < 128 && isalnum(o->val) &&
		strchr(shortopts, o->val) ? o->val : 0;
}

static const struct kb_arg_spec *arg_of(const struct kb_cmd *c,
					const char *option)
{
	static const struct kb_arg_spec none = { NULL, KB_ARG_NONE, NULL };
	const struct kb_arg_spec *a;

	for (a = c->args; a->option; a++)
		if (!strcmp(a->option, option))
			return a;
	return &none;
}

static const struct kb_arg_spec *operands_of(const struct kb_cmd *c)
{
	const struct kb_arg_spec *a = c->args;

	while (a->option)
		a++;
	return a;
}

static void print_command(FILE *f, const struct kb_cmd *c)
{
	const struct option *o;
	const struct kb_arg_spec *ops = operands_of(c);
	int s, first = 1;

	fprintf(f, "\t%s)\n", c->name);
	for (o = c->options; o->name; o++) {
		if (o->has_arg != required_argument)
			continue;
		if (first)
			fprintf(f, "\t\tcase $prev in\n");
		first = 0;
		s = short_of(o, c->shortopts);
		if (s)
			fprintf(f, "\t\t-%c|--%s)\n\t\t\t", s, o->name);
		else
			fprintf(f, "\t\t--%s)\n\t\t\t", o->name);
		print_arg(f, arg_of(c, o->name));
		fprintf(f, "\n\t\t\treturn 0 ;;\n");
	}
	if (!first)
		fprintf(f, "\t\tesac\n");
	fprintf(f, "\t\topts='");
	first = 1;
	for (o = c->options; o->name; o++) {
		s = short_of(o, c->shortopts);
		fprintf(f, "%s--%s", first ? "" : " ", o->name);
		if (s)
			fprintf(f, " -%c", s);
		first = 0;
	}
	fprintf(f, "'\n");
	if (ops->kind == KB_ARG_NONE) {
		fprintf(f, "\t\t_kbench_words \"$opts\" \"$cur\" ;;\n");
		return;
	}
	fprintf(f, "\t\tif [[ $cur == -* ]]; then\n"
		   "\t\t\t_kbench_words \"$opts\" \"$cur\"\n"
		   "\t\telse\n\t\t\t");
	print_arg(f, ops);
	fprintf(f, "\n\t\tfi ;;\n");
}

static void print_bash_function(FILE *f, const char *name,
				const struct kb_cmd *cmds)
{
	const struct kb_cmd *c;
	int first = 1;

	fputs(helpers, f);
	fprintf(f, "# report --layout (reports/layout.h)\n_kbench_layouts='");
	print_layouts(f);
	fprintf(f, "'\n# --metric (lib/metrics.h)\n_kbench_metrics='");
	print_metrics(f);
	fprintf(f, "'\n\n");
	fprintf(f,
"%s() {\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= opts w i\n"
"\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
"\t# --option=VALUE: the shell splits the word at '='\n"
"\tif [[ $cur == = ]]; then\n"
"\t\tcur=\n"
"\telif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
"\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
"\tfi\n"
"\tCOMPREPLY=()\n"
"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
"\t\tcase ${COMP_WORDS[i]} in\n"
"\t\t-*) ;;\n"
"\t\t*) cmd=${COMP_WORDS[i]}; break ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tcase $cmd in\n"
"\t\"\")\n"
"\t\tif [[ $cur == -* ]]; then\n"
"\t\t\t_kbench_words '--help --version' \"$cur\"\n"
"\t\telse\n"
"\t\t\t_kbench_words '", name);
	for (c = cmds; c->name; c++) {
		if (c->internal)
			continue;
		fprintf(f, "%s%s", first ? "" : " ", c->name);
		first = 0;
	}
	fprintf(f, " help' \"$cur\"\n\t\tfi ;;\n");
	/* kbench help COMMAND (kbench.c): the commands */
	fprintf(f, "\thelp)\n\t\t((i == COMP_CWORD - 1)) && _kbench_words '");
	for (c = cmds, first = 1; c->name; c++) {
		if (c->internal)
			continue;
		fprintf(f, "%s%s", first ? "" : " ", c->name);
		first = 0;
	}
	fprintf(f, "' \"$cur\" ;;\n");
	for (c = cmds; c->name; c++)
		if (!c->internal)
			print_command(f, c);
	fprintf(f, "\tesac\n\treturn 0\n}\n");
}

int kb_completion(int argc, char **argv, const struct kb_cmd *cmds)
{
	const char *shell = argc > 1 ? argv[1] : "";

	if (!strcmp(shell, "bash")) {
		printf("# bash completion for kbench%*s-*- shell-script -*-\n"
		       "# Generated by `kbench --completion bash` (kbench %s) "
		       "from the tables its\n# --help is printed from; do not "
		       "edit.  Installed as\n# /usr/share/bash-completion/"
		       "completions/kbench, or in ~/.bashrc:\n"
		       "#   source <(kbench --completion bash)\n\n",
		       30, "", KBENCH_VERSION);
		print_bash_function(stdout, "_kbench", cmds);
		printf("\ncomplete -F _kbench kbench\n");
		return 0;
	}
	if (!strcmp(shell, "zsh")) {
		printf("#compdef kbench\n"
		       "# zsh completion for kbench, generated by `kbench "
		       "--completion zsh` (kbench %s):\n# the bash completion "
		       "function under zsh's bashcompinit; do not edit.\n"
		       "# Installed as .../zsh/vendor-completions/_kbench.\n\n"
		       "autoload -U +X bashcompinit && bashcompinit\n\n",
		       KBENCH_VERSION);
		print_bash_function(stdout, "_kbench_bash", cmds);
		printf("\ncomplete -F _kbench_bash kbench\n"
		       "# this first call (later ones go to _kbench_bash "
		       "directly)\n_bash_complete -F _kbench_bash \"$@\"\n");
		return 0;
	}
	fprintf(stderr, "usage: kbench --completion bash|zsh\n");
	return 2;
}
