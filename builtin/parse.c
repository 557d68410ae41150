/* builtin/parse.c - `kbench parse FILE...`: fio output -> metrics JSON.
 *
 * Prints, for each FILE, the object fio_parse_file() returns (see
 * parsers/fio_json.h), one after the other (a JSON stream).  Exit status:
 * 0 when every file parsed (warnings and fio job errors included), 1 when
 * any file could not be parsed, 2 on a usage error. */
#include "builtin/builtin.h"
#include "lib/err.h"
#include "parsers/fio_json.h"
#include "parsers/kconf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench parse [--compact] [-q|--quiet] [--ram SIZE] FILE...\n"
"\n"
"Read fio output files (fio --output-format=json or json+; text that fio or\n"
"a shell wrote around the JSON is skipped with a warning; of several\n"
"concatenated documents, e.g. from --status-interval, the last one is used)\n"
"and print for each FILE one JSON object: the jobs, and the metrics kbench\n"
"compares (read.iops, write.bw_kib, read.clat_p99_ns, ...; latency in ns,\n"
"bandwidth in KiB/s, IOPS and bandwidth summed over the jobs).  Objects of\n"
"several files are printed one after the other.\n"
"\n"
"fio writes TABs and bytes that are not UTF-8 unescaped into its JSON (a job\n"
"description, a file name): such a document is read leniently, with a\n"
"warning naming the character, line and job option.  What fio reports is\n"
"checked: impossible values (negative, non-monotonic percentiles) are left\n"
"out with a warning; latency buckets that do not sum to 100%%, a steady state\n"
"not attained and buffered reads that likely measured the page cache are\n"
"listed in \"flags\" (the last also as \"suspect\": \"page_cache\").\n"
"\n"
"options:\n"
"  --compact     print each file's object on one line instead of indented\n"
"  --ram SIZE    RAM of the machine fio ran on (e.g. 64G), to compare the\n"
"                working set of buffered reads with\n"
"  -q, --quiet   print no warnings on stderr (the parser's warnings stay in\n"
"                the object's \"warnings\" array, a failed fio job in its\n"
"                \"error\"); files that cannot be parsed are still reported\n"
"  -h, --help    show this help and exit\n"
"\n"
"Exit status: 0 when every FILE was parsed (a fio job that reported an error\n"
"is printed with its \"error\" and a warning), 1 when any FILE could not be\n"
"parsed (the message names the file and what was wrong), 2 on bad usage.\n");
}

static int parse_one(const char *path, int compact, int quiet,
		     const struct fio_parse_opts *po)
{
	size_t flags;
	const json_t *w;
	char err[1024];
	json_t *res;
	char *out = NULL;
	size_t i;
	int rc = 0;

	res = fio_parse_file_opts(path, po, err, sizeof(err));
	if (!res) {
		kb_error("%s", err);
		return -EINVAL;
	}
	if (!quiet)
		json_array_foreach(json_object_get(res, "warnings"), i, w)
			kb_warn("%s: %s", path, json_string_value(w));
	if (!quiet && fio_result_error(res, err, sizeof(err)))
		kb_warn("%s: %s: the run is invalid", path, err);

	flags = (compact ? JSON_COMPACT : JSON_INDENT(2)) |
		JSON_REAL_PRECISION(15);
	out = json_dumps(res, flags);
	if (!out) {
		kb_error("%s: out of memory formatting the result", path);
		rc = -ENOMEM;
		goto out;
	}
	if (puts(out) == EOF) {
		kb_error("writing to stdout: %m");
		rc = -EIO;
	}
out:
	free(out);
	json_decref(res);
	return rc;
}

const struct option kb_parse_options[] = {
	{ "compact", no_argument, NULL, 'c' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "ram", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_parse_shortopts[] = "qh";
const struct kb_arg_spec kb_parse_args[] = {
	{ NULL, KB_ARG_FILE, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_parse(int argc, char **argv)
{
	struct fio_parse_opts po = { 0 };
	int compact = 0, quiet = 0, failed = 0, c, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, kb_parse_shortopts, kb_parse_options, NULL)) != -1) {
		switch (c) {
		case 'c':
			compact = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'r':
			if (kconf_parse_size(optarg, &po.ram_bytes) ||
			    !po.ram_bytes) {
				kb_error("parse: --ram '%s': expected a size such as 64G or 65536M",
					 optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			if (optopt)
				kb_error("parse: unknown option '-%c' (see kbench parse --help)",
					 optopt);
			else
				kb_error("parse: unknown option '%s' (see kbench parse --help)",
					 argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		kb_error("parse: no FILE given (usage: kbench parse [--compact] [-q] [--ram SIZE] FILE...)");
		return 2;
	}
	for (i = optind; i < argc; i++)
		if (parse_one(argv[i], compact, quiet, &po))
			failed = 1;
	if (fflush(stdout)) {
		kb_error("writing to stdout: %m");
		failed = 1;
	}
	return failed;
}
