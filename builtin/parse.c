/* builtin/parse.c - `kbench parse FILE...`: fio output -> metrics JSON.
 *
 * Prints, for each FILE, the object fio_parse_file() returns (see
 * parsers/fio_json.h), one after the other (a JSON stream).  A terse v3
 * file (parsers/fio_terse.h) prints one object per terse line, each on
 * one line; fio logs (--logs, or files named *_iops.N.log etc.) are
 * combined into one object of per-window totals (parsers/fio_log.h).  Exit status:
 * 0 when every file parsed (warnings and fio job errors included), 1 when
 * any file could not be parsed, 2 on a usage error. */
#include "builtin/builtin.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"
#include "parsers/fio_json.h"
#include "parsers/fio_log.h"
#include "parsers/fio_print.h"
#include "parsers/fio_terse.h"
#include "parsers/kconf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench parse [--compact] [-q|--quiet] [--ram SIZE] FILE...\n"
"       kbench parse [--logs] [--log-avg-msec MS] LOGFILE...\n"
"\n"
"Read fio output files (fio --output-format=json or json+; text that fio or\n"
"a shell wrote around the JSON is skipped with a warning; of several\n"
"concatenated documents, e.g. from --status-interval, the last one is used)\n"
"and print for each FILE one JSON object: the jobs, and the metrics kbench\n"
"compares (read.iops, write.bw_kib, read.clat_p99_ns, ...; latency in ns,\n"
"bandwidth in KiB/s, IOPS and bandwidth summed over the jobs).  Objects of\n"
"several files are printed one after the other.\n"
"\n"
"fio terse v3 output (--output-format=terse; lines starting with \"3;\") is\n"
"recognised: one object per terse line, printed on one line, with the same\n"
"metrics and the line's disk records (\"disks\", an md/dm device's members in\n"
"\"slaves\"); other lines (fio's \"fio: ...\" notes) are skipped with a\n"
"warning; with --output-format=terse,json the JSON document after the\n"
"terse lines is read.  fio's normal (human-readable) output is not read: it\n"
"is said so; run fio again with --output-format=json.\n"
"\n"
"fio's per-job logs (write_iops_log, write_bw_log, write_lat_log: one file\n"
"per job, NAME_iops.N.log, even with group_reporting) are combined: the\n"
"values of all LOGFILEs are summed per time window (window = round(time_ms /\n"
"log_avg_msec); latency logs: averaged, a log of every I/O within a window\n"
"too), and the per-window totals and their mean printed as one object.\n"
"Files named *_iops.N.log, *_bw.N.log, *_lat.N.log (clat, slat) are\n"
"recognised as logs; so is `tail -n +1 FILE...` output (\"==> FILE <==\"\n"
"headers start each file).\n"
"\n"
"A FILE may be a pipe (/dev/stdin, <(ssh host cat out.json)): it is read\n"
"once, whole.\n"
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
"  --logs        read every FILE as a fio log of one kind (see above)\n"
"  --log-avg-msec MS\n"
"                the log_avg_msec fio ran with: the window width (default\n"
"                1000); an IOPS or bandwidth log whose samples of one\n"
"                direction come closer together than 3/4 of it is refused\n"
"                (its rates would be added up), but for an IOPS log of\n"
"                every I/O (fio without log_avg_msec: values of 1),\n"
"                counted per window as I/Os per second; a log of every\n"
"                I/O leaves out its last window, partial (the job's end)\n"
"  -q, --quiet   print no warnings on stderr (the parser's warnings stay in\n"
"                the object's \"warnings\" array, a failed fio job in its\n"
"                \"error\"); files that cannot be parsed are still reported\n"
"  -h, --help    show this help and exit\n"
"\n"
"Exit status: 0 when every FILE was parsed (a fio job that reported an error\n"
"is printed with its \"error\" and a warning), 1 when any FILE could not be\n"
"parsed (the message names the file and what was wrong), 2 on bad usage.\n");
}

/* doc's warnings, unless quiet. */
static void print_warnings(const char *path, const struct json_t *doc,
			   int quiet)
{
	if (!quiet)
		fio_doc_warn(path, doc);
}

/* The first bytes of path (up to n); 0, or -1 when it cannot be read
 * (fio_parse_file then says why). */
static int read_head(const char *path, char *head, size_t n, size_t *len)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	*len = fread(head, 1, n, f);
	fclose(f);
	return 0;
}

/* Several fio logs of one kind: one object.  in[i].buf: the file read
 * already (a pipe, see cmd_parse()), else NULL: read here; every buf is
 * freed. */
static int parse_logs(struct fio_log_input *in, int n, unsigned avg_msec,
		      int compact, int quiet)
{
	char err[1024];
	struct json_t *res;
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		if (in[i].buf)
			continue;
		if (kb_read_file(in[i].name, (char **)&in[i].buf, &in[i].len,
				 0)) {
			rc = -EIO;
			goto out;
		}
	}
	res = fio_log_parse(in, n, avg_msec, err, sizeof(err));
	if (!res) {
		kb_error("%s", err);
		rc = -EINVAL;
		goto out;
	}
	print_warnings(n == 1 ? in[0].name : "logs", res, quiet);
	rc = fio_doc_print(stdout, in[0].name, res, compact);
	fio_doc_free(res);
out:
	for (i = 0; i < n; i++)
		free((char *)in[i].buf);
	return rc;
}

/* path's fio JSON output; buf (len bytes): the file read already (a
 * pipe), else NULL: read from path. */
static int parse_one(const char *path, const char *buf, size_t len,
		     int compact, int quiet, const struct fio_parse_opts *po)
{
	char err[1024];
	struct json_t *res;
	int rc;

	res = buf ? fio_parse_buf_opts(path, buf, len, po, err, sizeof(err)) :
	      fio_parse_file_opts(path, po, err, sizeof(err));
	if (!res) {
		kb_error("%s", err);
		return -EINVAL;
	}
	print_warnings(path, res, quiet);
	if (!quiet && fio_result_error(res, err, sizeof(err)))
		kb_warn("%s: %s: the run is invalid", path, err);
	rc = fio_doc_print(stdout, path, res, compact);
	fio_doc_free(res);
	return rc;
}

const struct option kb_parse_options[] = {
	{ "compact", no_argument, NULL, 'c' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "ram", required_argument, NULL, 'r' },
	{ "logs", no_argument, NULL, 'l' },
	{ "log-avg-msec", required_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_parse_shortopts[] = "qh";
const struct kb_arg_spec kb_parse_args[] = {
	{ NULL, KB_ARG_FILE, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

/* The message for what getopt_long refused: arg is the word it stopped
 * at (argv[optind - 1]); missing: it wanted a value there.  A long option
 * is named as written (getopt's optopt would be its short letter, which
 * parse does not have). */
static void bad_option(const char *arg, int missing)
{
	const struct option *o, *meant = NULL;
	size_t n, nmeant = 0, k = 0;
	char *list = NULL;

	/* a long option: optopt is 0 (unknown) or its val, and getopt has
	 * moved past it; a short one (-x, or inside -qx, where arg is the
	 * word before): optopt is its letter */
	if (optopt && strncmp(arg, "--", 2) == 0) {
		for (o = kb_parse_options; o->name; o++)
			if (o->val == optopt)
				break;
		n = strcspn(arg + 2, "=");
		if (!o->name || strncmp(o->name, arg + 2, n))
			arg = "-";	/* not that long option: short */
	}
	if (strncmp(arg, "--", 2)) {
		if (missing || !optopt)
			kb_error("parse: %s: bad option (see kbench parse "
				 "--help)", arg);
		else
			kb_error("parse: unknown option '-%c' (see kbench "
				 "parse --help)", optopt);
		return;
	}
	/* the options the name before '=' abbreviates; an exact name is
	 * the one (getopt_long takes it before any longer one) */
	n = strcspn(arg + 2, "=");
	for (o = kb_parse_options; o->name && n; o++) {
		if (strncmp(o->name, arg + 2, n))
			continue;
		if (!o->name[n]) {
			meant = o;
			nmeant = 1;
			break;
		}
		if (!nmeant++)
			meant = o;
	}
	if (!meant) {
		/* the option meant, as every command's kb_bad_option() */
		const char *best = kb_option_near(kb_parse_options, arg);

		if (best)
			kb_error("parse: unknown option '%.*s'; did you mean "
				 "'--%s'? (see kbench parse --help)", (int)n + 2,
				 arg, best);
		else
			kb_error("parse: unknown option '%.*s' (see kbench "
				 "parse --help)", (int)n + 2, arg);
	} else if (nmeant > 1) {
		/* '--lo': "--logs or --log-avg-msec" */
		for (o = kb_parse_options; o->name; o++)
			if (!strncmp(o->name, arg + 2, n))
				kb_str_append(&list, ++k < nmeant ? ", " :
					      " or ", "--%s", o->name);
		kb_error("parse: option '%.*s' is ambiguous: %s (see kbench "
			 "parse --help)", (int)n + 2, arg, list);
		free(list);
	} else if (missing) {
		kb_error("parse: --%s needs a value (see kbench parse --help)",
			 meant->name);
	} else if (arg[2 + n] == '=' && meant->has_arg == no_argument) {
		kb_error("parse: --%s takes no value ('%s')", meant->name,
			 arg);
	} else {
		kb_error("parse: '%s': bad option (see kbench parse --help)",
			 arg);
	}
}

/* Does a line of buf[0..len) start (after blanks) with '{'? */
static int has_json_line(const char *buf, size_t len)
{
	size_t p = 0;

	while (p < len) {
		const char *nl = memchr(buf + p, '\n', len - p);
		size_t e = nl ? (size_t)(nl - buf) : len;

		while (p < e && (buf[p] == ' ' || buf[p] == '\t'))
			p++;
		if (p < e && buf[p] == '{')
			return 1;
		p = e + 1;
	}
	return 0;
}

int cmd_parse(int argc, char **argv)
{
	struct fio_parse_opts po = { 0 };
	int compact = 0, quiet = 0, failed = 0, logs = 0, nlogs = 0, c, i;
	unsigned long long avg_msec = 1000;
	struct fio_log_input *logfiles;
	char so[sizeof(kb_parse_shortopts) + 1];

	optind = 1;
	opterr = 0;	/* messages here, exit 2 (a leading ':': ':' for a
			 * missing value) */
	snprintf(so, sizeof(so), ":%s", kb_parse_shortopts);
	while ((c = getopt_long(argc, argv, so, kb_parse_options,
				NULL)) != -1) {
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
		case 'l':
			logs = 1;
			break;
		case 'a':
			if (kb_parse_ull(optarg, 86400000, &avg_msec, NULL) ||
			    !avg_msec) {
				kb_error("parse: --log-avg-msec '%s': expected milliseconds, e.g. 1000",
					 optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			bad_option(argv[optind - 1], c == ':');
			return 2;
		}
	}
	if (optind >= argc) {
		kb_error("parse: no FILE given (usage: kbench parse [--compact] [-q] [--ram SIZE] FILE...)");
		return 2;
	}
	logfiles = calloc(argc, sizeof(*logfiles));
	if (!logfiles) {
		kb_error("out of memory");
		return 1;
	}
	for (i = optind; i < argc; i++) {
		char *buf = NULL, head[4096];
		size_t len = 0;
		struct stat st;

		if (logs) {
			logfiles[nlogs++].name = argv[i];
			continue;
		}
		/* a pipe (<(ssh host cat out.json), /dev/stdin) can be read
		 * only once: read whole here, everything below from buf
		 * (reading its head, then the file, began mid-file) */
		if (!stat(argv[i], &st) &&
		    (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
			if (kb_read_file(argv[i], &buf, &len, 0)) {
				failed = 1;
				continue;
			}
		}
		/* terse and log files are told by their name or first line
		 * (only the head is read here: JSON files can be large);
		 * everything else (JSON, compressed files) goes to fio_json */
		if (buf || !read_head(argv[i], head, sizeof(head), &len)) {
			const char *h = buf ? buf : head;
			size_t hl = buf && len > sizeof(head) ? sizeof(head) :
				    len;

			if (fio_log_detect(argv[i], h, hl)) {
				logfiles[nlogs].name = argv[i];
				logfiles[nlogs].buf = buf;
				logfiles[nlogs++].len = len;
				continue;
			}
			if (fio_terse_detect(h, hl)) {
				int json_after;

				if (!buf && kb_read_file(argv[i], &buf, &len,
							 0)) {
					failed = 1;
					continue;
				}
				/* --output-format=terse,json: terse lines, then
				 * the JSON document, which says more: read it
				 * (the JSON parser warns about the lines) */
				json_after = has_json_line(buf, len);
				if (!json_after) {
					if (fio_terse_print_buf(stdout, argv[i],
								buf, len,
								quiet))
						failed = 1;
					free(buf);
					continue;
				}
			}
		}
		if (parse_one(argv[i], buf, len, compact, quiet, &po))
			failed = 1;
		free(buf);
	}
	if (nlogs && parse_logs(logfiles, nlogs, (unsigned)avg_msec, compact,
				quiet))
		failed = 1;
	free(logfiles);
	if (fflush(stdout)) {
		kb_error("writing to stdout: %m");
		failed = 1;
	}
	return failed;
}
