/* builtin/install_resume.c - `kbench install-resume`: the systemd unit
 * that resumes a kexec campaign after each boot (runner/driver_kexec.c).
 *
 * Unit format: systemd.unit(5), systemd.service(5).  The unit runs
 * `kbench run -o DIR` once per boot while the kexec state file exists
 * (ConditionPathExists=), after local file systems are mounted.
 */
#include "builtin/builtin.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "lib/str.h"
#include "results/campaign_json.h"
#include "results/kexec_state.h"
#include "runner/campaign.h"
#include "runner/kexec.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNIT "kbench-resume.service"

static void usage(FILE *f)
{
	fprintf(f,
"usage: kbench install-resume [options] DIR\n"
"       kbench install-resume --remove [options]\n"
"\n"
"Install (and enable) the systemd unit " UNIT " that runs\n"
"`kbench run -o DIR` after every boot while a kexec campaign is under way\n"
"(method = kexec variants: kbench kexecs into a variant's kernel and the\n"
"campaign resumes there).  --remove disables and deletes it.\n"
"A KBENCH_STATE_DIR set now (an absolute path) is set in the unit too.\n"
"Without systemd (no /run/systemd/system) kbench kexecs with `kexec -e`;\n"
"then run `kbench run -o DIR` on every boot from rc.local or the init\n"
"instead (README.md: method = kexec, without systemd).\n"
"\n"
"options:\n"
"      --unit-dir D   where the unit goes (default /etc/systemd/system);\n"
"                     with a non-default D, systemctl is not called\n"
"      --remove       disable and remove the unit\n"
"  -n, --dry-run      print the unit and the commands; change nothing\n"
"  -h, --help         this text\n"
"\n"
"exit status: 0 installed (or removed, or printed with --dry-run); 1 an\n"
"error (a bad option, no DIR, a DIR the hook would refuse or whose\n"
"campaign has no kexec variant, a DIR, state file or binary on a tmpfs,\n"
"which the kexec empties, a kbench binary that others than root\n"
"and the user who ran sudo could replace, the unit cannot be written,\n"
"systemctl failed).\n");
}

/* The bytes of the UTF-8 character s starts with (RFC 3629: no
 * overlong form, no surrogate, at most U+10FFFF), 0 when it is none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned long cp;

	if (*s < 0x80)
		return 1;
	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2, cp = *s & 0x1f;
	else if ((*s & 0xf0) == 0xe0)
		n = 3, cp = *s & 0x0f;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4, cp = *s & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* A path the unit file cannot hold: a control character (a newline
 * would start another directive), or bytes that are not UTF-8 (systemd
 * ignores such a line: the unit had no ExecStart= and never loaded, a
 * break-it trial).  1 with a message. */
static int unit_unsafe(const char *path)
{
	const unsigned char *c;
	size_t n;

	for (c = (const unsigned char *)path; *c; c += n) {
		int ctl = *c < 0x20 || *c == 0x7f;
		char *shown;

		n = ctl ? 0 : utf8_len(c);
		if (n)
			continue;
		shown = kb_xstrndup_printable(path, 4096);
		if (ctl)
			kb_error("%s: a control character (0x%02x) in the path; "
				 "a systemd unit cannot hold it", shown, *c);
		else
			kb_error("%s: byte 0x%02x at offset %zu is not UTF-8; "
				 "systemd ignores a unit file's line that is "
				 "not, so the unit would never run: rename it",
				 shown, *c,
				 (size_t)(c - (const unsigned char *)path));
		free(shown);
		return 1;
	}
	if (*path && path[strlen(path) - 1] == '\\') {
		/* Description= would continue on the next line */
		kb_error("%s: a path ending in '\\' cannot go into a systemd "
			 "unit", path);
		return 1;
	}
	return 0;
}

/* How unit_quote() writes a value. */
enum unit_word {
	UNIT_PLAIN,	/* as it is, '%' as "%%" (Description=, a path) */
	UNIT_EXEC,	/* one ExecStart= word */
	UNIT_ENV,	/* one Environment= assignment */
};

/* path for a unit file (systemd.service(5), systemd.unit(5)): '%' is a
 * specifier, "%%" a literal one, everywhere; in ExecStart= and
 * Environment= the word is also double-quoted with '\' and '"' escaped,
 * so a space does not split it, and in ExecStart= "$$" for '$' (no
 * environment substitution; Environment= substitutes none).  malloc'd. */
static char *unit_quote(const char *path, enum unit_word how)
{
	size_t n = 0;
	char *q = kb_xmalloc(2 * strlen(path) + 3);
	const char *c;

	if (how != UNIT_PLAIN)
		q[n++] = '"';
	for (c = path; *c; c++) {
		if (*c == '%' || (how == UNIT_EXEC && *c == '$'))
			q[n++] = *c;
		else if (how != UNIT_PLAIN && (*c == '\\' || *c == '"'))
			q[n++] = '\\';
		q[n++] = *c;
	}
	if (how != UNIT_PLAIN)
		q[n++] = '"';
	q[n] = '\0';
	return q;
}

#define DESC "Description=kbench: resume the kexec campaign "

/* What installing the unit for dir at upath replaces, said as warnings:
 * a unit that resumed another campaign, and the state file (at state)
 * of another campaign's kexec, which no boot resumes then unless it is
 * complete (the file stays) (a break-it trial: both were replaced
 * silently). */
static void warn_replaced(const char *upath, const char *dir,
			  const char *state)
{
	struct kb_kexec_state s = { 0 };
	char *old = NULL, *d, *e, *shown;

	if (!kb_read_file(upath, &old, NULL, 1) &&
	    (d = strstr(old, "\n" DESC))) {
		d += strlen("\n" DESC);
		e = strchr(d, '\n');
		if (e)
			*e = '\0';
		for (e = d; (e = strstr(e, "%%")); e++)	/* unit_quote() */
			memmove(e, e + 1, strlen(e + 1) + 1);
		if (strcmp(d, dir)) {
			shown = kb_xstr_shown(d, "");
			kb_warn("%s: replaces the unit that resumed the "
				"campaign %s", upath, shown);
			free(shown);
		}
	}
	free(old);
	if (kb_exists(state) && !kexec_state_load(state, &s) && s.campaign &&
	    strcmp(s.campaign, dir)) {
		shown = kb_xstr_shown(s.campaign, "");
		kb_warn("%s: the kexec state of the campaign %s (boot %u): "
			"unless that campaign is complete, no boot resumes it "
			"with this unit (kbench run -o %s by hand does)",
			state, shown, s.boot, shown);
		free(shown);
	}
	kexec_state_free(&s);
}

static int systemctl(const char *verb, int dry)
{
	int reload = !strcmp(verb, "daemon-reload");
	char *argv[] = { "systemctl", (char *)verb, reload ? NULL : UNIT,
			 NULL };
	struct kb_spawn_result r;
	int ret;

	if (dry) {
		printf("systemctl %s%s\n", verb, reload ? "" : " " UNIT);
		return 0;
	}
	ret = kb_spawn(argv, NULL, &r);
	if (!ret && (!r.exited || r.exit_status)) {
		kb_error("systemctl %s %s failed (exit status %d)", verb, UNIT,
			 r.exited ? r.exit_status : -1);
		ret = -EIO;
	}
	return ret;
}

const struct option kb_install_resume_options[] = {
	{ "unit-dir", required_argument, NULL, 'u' },
	{ "remove", no_argument, NULL, 'r' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
const char kb_install_resume_shortopts[] = "nh";
const struct kb_arg_spec kb_install_resume_args[] = {
	{ "unit-dir", KB_ARG_DIR, NULL },
	{ NULL, KB_ARG_CAMPAIGN, NULL },
	{ NULL, KB_ARG_NONE, NULL },
};

int cmd_install_resume(int argc, char **argv)
{
	const char *udir = "/etc/systemd/system";
	int o, remove = 0, dry = 0, custom = 0, ret = 1;
	char *upath = NULL, *unit = NULL, *state = NULL, *qexe = NULL;
	char *qdir = NULL, *pdir = NULL, *pstate = NULL, *trust = NULL;
	char *qenv = NULL;
	const char *sdir = getenv("KBENCH_STATE_DIR");
	char exe[PATH_MAX], dir[PATH_MAX];
	ssize_t n;

	optind = 1;
	while ((o = getopt_long(argc, argv, kb_install_resume_shortopts, kb_install_resume_options, NULL)) != -1) {
		switch (o) {
		case 'u':
			udir = optarg;
			custom = 1;
			break;
		case 'r':
			remove = 1;
			break;
		case 'n':
			dry = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:	/* getopt said which option */
			kb_bad_option("install-resume", kb_install_resume_options, argv[optind - 1]);
			return 1;
		}
	}
	upath = kb_path_join(udir, UNIT);
	if (remove) {
		if (optind != argc) {
			kb_error("--remove takes no DIR");
			goto out;
		}
		if (!custom && systemctl("disable", dry))
			goto out;
		if (dry)
			printf("rm %s\n", upath);
		else if (unlink(upath) < 0 && errno != ENOENT) {
			kb_error("%s: %s", upath, strerror(errno));
			goto out;
		}
		ret = 0;
		goto out;
	}
	if (optind + 1 != argc) {
		if (optind == argc)
			kb_error("install-resume needs the campaign directory; "
				 "see kbench install-resume --help");
		else
			kb_error("install-resume takes one campaign directory, "
				 "not %d ('%s' ...); see kbench install-resume "
				 "--help", argc - optind, argv[optind + 1]);
		goto out;
	}
	if (!realpath(argv[optind], dir)) {
		kb_error("%s: %s (create it first, mkdir -p %s: the first "
			 "`kbench run -c CONF -o %s` starts the campaign there)",
			 argv[optind], strerror(errno), argv[optind],
			 argv[optind]);
		goto out;
	}
	if (!kb_is_dir(dir)) {
		kb_error("%s: not a directory (install-resume takes the "
			 "campaign directory given to kbench run -o)", dir);
		goto out;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		kb_error("cannot find the kbench binary (/proc/self/exe)");
		goto out;
	}
	exe[n] = '\0';
	/* systemd starts the unit without sudo's SUDO_UID: the user it ran
	 * for is recorded in the unit, or the campaign under that user's
	 * directories would be refused at the first boot */
	if (kb_env_uid("SUDO_UID") >= 0) {
		trust = kb_xasprintf("Environment=KBENCH_TRUST_UID=%ld\n",
				     kb_env_uid("SUDO_UID"));
		setenv("KBENCH_TRUST_UID", getenv("SUDO_UID"), 1);
	}
	/* a directory that holds files and no campaign: the hook's
	 * `kbench run -o DIR` refuses it (a helper's trial installed one
	 * for a source tree) */
	if (campaign_dir_foreign(dir)) {
		kb_error("%s: the boot hook (kbench run -o DIR) would refuse "
			 "it, as said above; install-resume takes the "
			 "directory of a kexec campaign", dir);
		goto out;
	}
	/* a campaign that is there: readable, and one the hook has boots
	 * to resume (a local campaign, a campaign.json of {} or a
	 * directory of that name were installed: a helper's trial) */
	{
		char *cj = kb_path_join(dir, "campaign.json");
		int has = kb_exists(cj) ?
			  results_campaign_has_method(cj, "kexec") : 1;

		if (has <= 0)
			kb_error("%s: %s; install-resume takes the directory "
				 "of a kexec campaign (a new or empty one, or "
				 "one with a method = kexec variant)", dir,
				 has < 0 ? "the boot hook (kbench run -o DIR) "
				 "could not resume it, as said above" :
				 "its campaign has no method = kexec variant, "
				 "so no boot resumes it");
		free(cj);
		if (has <= 0)
			goto out;
	}
	{
		char *why = NULL;

		/* the unit runs this binary as root at every boot: whoever
		 * can replace it (a world-writable directory on its path)
		 * could run anything as root (a break-it trial) */
		if (kb_path_trusted(exe, &why)) {
			kb_error("%s: the unit would run this kbench as root at "
				 "every boot, but %s, so whoever can write there "
				 "could run anything as root; install kbench "
				 "where only root (or the user who ran sudo) can "
				 "write (make install), or chown, chmod go-w",
				 exe, why);
			free(why);
			goto out;
		}
		if (kb_path_trusted(dir, &why)) {
			kb_error("%s: the boot hook would refuse this campaign "
				 "directory: %s (root and the user who ran "
				 "sudo are trusted; chown, chmod go-w, or use "
				 "another directory)", dir, why);
			free(why);
			goto out;
		}
	}
	state = kexec_state_path();
	if (sdir && *sdir && sdir[0] != '/') {
		/* ConditionPathExists= ignores a relative path, and the
		 * unit runs in / */
		kb_error("KBENCH_STATE_DIR=%s: not an absolute path; the unit "
			 "tests and reads the kexec state file at boot, from /: "
			 "give the whole path", sdir);
		goto out;
	}
	if (unit_unsafe(dir) || unit_unsafe(exe) || unit_unsafe(state))
		goto out;
	{
		/* the kexec boots a new kernel: a tmpfs (/dev/shm, /run, a
		 * /tmp of tmpfs) is empty after it, so the unit would find no
		 * campaign, no state or no kbench (a break-it trial) */
		const char *what[3] = { "the campaign directory",
					"the kexec state file",
					"the kbench binary" };
		const char *path[3] = { dir, state, exe };
		int i;

		for (i = 0; i < 3; i++)
			if (kb_path_in_memory(path[i])) {
				kb_error("%s: %s is in memory (tmpfs or ramfs), "
					 "which is empty after the kexec: the "
					 "unit could not resume the campaign; "
					 "use a directory on disk%s", path[i],
					 what[i], i == 1 ? " (KBENCH_STATE_DIR)" :
					 "");
				goto out;
			}
	}
	qexe = unit_quote(exe, UNIT_EXEC);
	qdir = unit_quote(dir, UNIT_EXEC);
	pdir = unit_quote(dir, UNIT_PLAIN);
	pstate = unit_quote(state, UNIT_PLAIN);
	if (sdir && *sdir) {
		/* the boot's kbench reads the state file where this one
		 * looks: without it, it read /var/lib/kbench while the
		 * condition tested KBENCH_STATE_DIR's (a break-it trial) */
		char *a = kb_xasprintf("KBENCH_STATE_DIR=%s", sdir);

		qenv = unit_quote(a, UNIT_ENV);
		free(a);
	}
	unit = kb_xasprintf(
		"# installed by kbench install-resume; remove with\n"
		"# kbench install-resume --remove\n"
		"[Unit]\n"
		DESC "%s\n"
		"After=local-fs.target\n"
		"ConditionPathExists=%s\n"
		"\n"
		"[Service]\n"
		"Type=oneshot\n"
		"%s"
		"%s%s%s"
		"ExecStart=%s run -o %s\n"
		"StandardOutput=journal+console\n"
		"\n"
		"[Install]\n"
		"WantedBy=multi-user.target\n", pdir, pstate, trust ? trust :
		"", qenv ? "Environment=" : "", qenv ? qenv : "",
		qenv ? "\n" : "", qexe, qdir);
	warn_replaced(upath, dir, state);
	if (dry) {
		printf("# %s\n%s", upath, unit);
	} else if (kb_mkdir_p(udir) ||
		   kb_write_atomic(upath, unit, strlen(unit))) {
		goto out;
	}
	if (!custom && (systemctl("daemon-reload", dry) ||
			systemctl("enable", dry)))
		goto out;
	if (!dry)
		kb_info("installed %s: `kbench run -o %s` runs after each boot "
			"while %s exists", upath, dir, state);
	ret = 0;
out:
	free(upath);
	free(unit);
	free(state);
	free(qexe);
	free(qdir);
	free(pdir);
	free(pstate);
	free(qenv);
	free(trust);
	return ret;
}
