/* parsers/kconf.c - kernels.conf parser (format: see kconf.h).
 *
 * The file is read line by line.  Every problem is reported as
 * "FILE:LINE: what" through kb_error() and parsing goes on, so one run
 * shows every mistake in the file; kconf_parse() then returns -EINVAL.
 *
 * Decisions beyond the header:
 *  - a ';' or '#' preceded by a blank starts a trailing comment;
 *  - ${VAR} is expanded in values only (after comments are stripped), so
 *    a variable's value may hold ';' or '#';
 *  - relative "file:PATH" targets and "profiles" directories are taken
 *    relative to the directory of the conf file;
 *  - target defaults to loop:256M (never touches a real device);
 *  - jobs may be written with or without the ".fio" suffix;
 *  - tunable values are split on blanks only (a value such as a CPU list
 *    "0-3,8" keeps its commas);
 *  - a relative tunable path (under /sys/block/<dev>/) needs a block
 *    device target, so it is an error with a file: target.
 */
#include "lib/str.h"
#include "parsers/kconf.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/metrics.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>

/* The Makefile's PREFIX (make install): -DKBENCH_PREFIX='"/usr"' */
#ifndef KBENCH_PREFIX
#define KBENCH_PREFIX "/usr/local"
#endif

#define KB_DEFAULT_LOOP_SIZE (256ULL << 20)
#define KB_CONF_MAX_LINE 4096	/* bytes of one kernels.conf line */
#define KB_CONF_MAX_NAME 64	/* a variant name, a tunable label */
#define KB_MIN_LOOP_SIZE (16ULL << 20)

enum section { SEC_NONE, SEC_GLOBAL, SEC_VARIANT, SEC_JOB };

/* what separates the names of target_metrics = */
#define TARGET_METRICS_SEP " \t,"

/* The next name of a target_metrics list at *t (*len bytes, not
 * NUL-terminated), *t moved past it; NULL at the end.  The one reading
 * of the list: the parser's check and kconf_target_metric(). */
static const char *next_target_metric(const char **t, size_t *len)
{
	const char *w = *t + strspn(*t, TARGET_METRICS_SEP);

	*len = strcspn(w, TARGET_METRICS_SEP);
	*t = w + *len;
	return *len ? w : NULL;
}

/* The keys whose value is a list: names separated by commas and/or
 * blanks (baseline: a configuration id, VARIANT,LABEL=VALUE...). */
static const char *const kconf_list_keys[] = {
	"jobs", "profile", "keep", "hosts", "layouts", "target_metrics",
	"baseline", NULL
};

/* kernels.conf's keys are the rows of kconf_opts[] below (fio's
 * fio_options[] is the model): name, section, how the value is read, where
 * it goes, its range and a line of help.  The parser, the "unknown key"
 * messages, `kbench run --help-keys` and the man page's key list
 * (tests/man.sh) all come from that one table. */
#define KCONF_MAX_OPTS 64	/* at least the rows of kconf_opts[] */

struct parser {
	const char *name;	/* file name for messages */
	char *dir;		/* directory of the file, NULL = cwd */
	struct kb_config *cfg;
	int nerrors;
	int line;		/* current line */
	int nlines;
	enum section sec;
	struct kb_variant *var;	/* current variant section */
	struct kb_variant scratch;	/* for sections that are not kept */
	struct kb_job_hosts *jh;	/* current [job NAME] section */
	struct kb_job_hosts jscratch;	/* for job sections not kept */
	int global_line;	/* line of the first [global], 0 = none */
	int variant_headers;	/* variant section headers met, kept or
				 * refused (no "no variants" after a
				 * refused name) */
	int variants_capped;	/* "too many variants" said (once) */
	/* line where each kconf_opts[] key was set: [global] keys for the
	 * file, variant keys for the current section */
	int seen[KCONF_MAX_OPTS];
	int global_hint;	/* the line of the variant section whose
				 * name was said to be a misspelt [global] */
};

static void perr(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void perr(struct parser *p, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	char *c;
	size_t n;

	va_start(ap, fmt);
	n = (size_t)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* a value from the file is printed as text: control characters
	 * (a raw ESC could rewrite the terminal) as '?', and a long value
	 * cut, not echoed whole */
	for (c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	if (n >= sizeof(msg))
		strcpy(msg + sizeof(msg) - 5, "...");
	/* a byte order mark (U+FEFF) is invisible on a terminal: shown,
	 * and said once what to do (one at the file's start is skipped) */
	if (strstr(msg, "\xef\xbb\xbf")) {
		/* every one shown: 3 bytes become 8 */
		char shown[sizeof(msg) * 3], *o = shown;

		for (c = msg; *c; c++) {
			if (!strncmp(c, "\xef\xbb\xbf", 3)) {
				o = stpcpy(o, "<U+FEFF>");
				c += 2;
			} else {
				*o++ = *c;
			}
		}
		*o = '\0';
		kb_error("%s:%d: %s (a byte order mark inside the file: save "
			 "it without one)", p->name, line, shown);
		p->nerrors++;
		return;
	}
	kb_error("%s:%d: %s", p->name, line, msg);
	p->nerrors++;
}


/* Cut a trailing " ;comment" or " #comment". */
static void strip_comment(char *s)
{
	char *c;

	for (c = s + 1; *c; c++) {
		if ((*c == ';' || *c == '#') && (c[-1] == ' ' || c[-1] == '\t')) {
			*c = '\0';
			return;
		}
	}
}

static int is_name_char(int c, const char *extra)
{
	return isalnum((unsigned char)c) || (c && strchr(extra, c));
}

int kconf_module_param_ok(const char *w)
{
	const char *eq = strchr(w, '='), *c;

	if (!eq || eq == w || !eq[1] || isdigit((unsigned char)w[0]))
		return 0;
	for (c = w; c < eq; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return 0;
	for (c = eq + 1; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_.,:+-", *c))
			return 0;
	return 1;
}

static int valid_name(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_name_char(*s, extra))
			return 0;
	return 1;
}

/* A variant's or a job's name: it names directories (runs/<variant>/
 * <job>/...) and files (profiles/<job>.fio), so letters, digits and
 * ._+- but neither "." nor ".." (runs/../.. is outside the campaign),
 * and no leading '-' (an option's look in an argv). */
static int valid_dir_name(const char *s)
{
	return valid_name(s, "._+-") && strcmp(s, ".") && strcmp(s, "..") &&
	       s[0] != '-';
}

static const char *closest(const char *key, const char *const *names,
			   size_t n, const char *extra)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, i;

	for (i = 0; i < n; i++)
		if (kb_nearer(key, names[i], &bestd))
			best = names[i];
	if (extra && kb_nearer(key, extra, &bestd))
		best = extra;
	return best;
}

/* Expand ${VAR} from the environment into a malloc'd string.  NULL (with
 * every problem reported) when a variable is unset or malformed. */
static char *expand(struct parser *p, const char *v)
{
	size_t cap = strlen(v) + 1, n = 0, add;
	char *out = kb_xmalloc(cap), *name;
	const char *end, *val, *src;
	int bad = 0;

	while (*v) {
		if (v[0] != '$' || v[1] != '{') {
			src = v;
			add = 1;
			v++;
			goto append;
		}
		end = strchr(v + 2, '}');
		if (!end) {
			perr(p, p->line, "unterminated '${' in '%s' (write ${NAME})",
			     v);
			bad = 1;
			break;
		}
		name = kb_xasprintf("%.*s", (int)(end - v - 2), v + 2);
		v = end + 1;
		if (!valid_name(name, "_")) {
			perr(p, p->line,
			     "bad variable name '${%s}' (letters, digits, _)",
			     name);
			bad = 1;
			free(name);
			continue;
		}
		val = getenv(name);
		if (!val) {
			perr(p, p->line,
			     "environment variable '%s' is not set (used as ${%s})",
			     name, name);
			bad = 1;
			free(name);
			continue;
		}
		free(name);
		src = val;
		add = strlen(val);
append:
		if (n + add + 1 > cap) {
			cap = (n + add + 1) * 2;
			out = kb_xrealloc(out, cap);
		}
		memcpy(out + n, src, add);
		n += add;
	}
	out[n] = '\0';
	if (bad) {
		free(out);
		return NULL;
	}
	return out;
}

int kconf_parse_size(const char *s, unsigned long long *bytes)
{
	static const char units[] = "kmgtp";
	unsigned long long v, mult = 1;
	const char *rest, *u;

	if (!s || kb_parse_ull(s, ULLONG_MAX, &v, &rest))
		return -EINVAL;
	if (*rest && (u = strchr(units, tolower((unsigned char)*rest)))) {
		int shift = 10 * (int)(u - units + 1);

		mult = 1ULL << shift;
		rest++;
		if (*rest == 'i' || *rest == 'I') {
			rest++;
			if (*rest != 'b' && *rest != 'B')
				return -EINVAL;
		}
	}
	if (*rest == 'b' || *rest == 'B')
		rest++;
	if (*rest)
		return -EINVAL;
	if (v && v > ULLONG_MAX / mult)
		return -EINVAL;
	*bytes = v * mult;
	return 0;
}

/* "60", "30s", "2m", "1h" -> seconds. */
static int parse_duration(const char *s, unsigned *secs)
{
	unsigned long long v, mult = 1;
	const char *rest;

	if (kb_parse_ull(s, UINT_MAX, &v, &rest))
		return -EINVAL;
	switch (tolower((unsigned char)*rest)) {
	case '\0':
		break;
	case 's':
		rest++;
		break;
	case 'm':
		mult = 60;
		rest++;
		break;
	case 'h':
		mult = 3600;
		rest++;
		break;
	default:
		return -EINVAL;
	}
	if (*rest || v > UINT_MAX / mult)
		return -EINVAL;
	*secs = (unsigned)(v * mult);
	return 0;
}

/* A path relative to the conf file's directory (absolute ones kept). */
static char *conf_relative(struct parser *p, const char *path)
{
	char *r;

	if (path[0] == '/')
		return kb_xstrdup(path);
	r = p->dir ? kb_path_join(p->dir, path) : kb_xstrdup(path);
	if (r[0] == '-') {
		/* never a word that a program takes for an option: the
		 * path, or the conf's directory (-c -d/kernels.conf made
		 * `kexec -l -d/bzImage`, kexec's --debug) */
		char *t = kb_xasprintf("./%s", r);

		free(r);
		r = t;
	}
	return r;
}

static int has_dotdot(const char *path)
{
	const char *c = path;

	while ((c = strstr(c, ".."))) {
		if ((c == path || c[-1] == '/') && (c[2] == '\0' || c[2] == '/'))
			return 1;
		c += 2;
	}
	return 0;
}

static void set_jobs(struct parser *p, const char *val)
{
	struct kb_config *cfg = p->cfg;
	char *copy = kb_xstrdup(val), *save = NULL, *tok;
	size_t i, len;

	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		len = strlen(tok);
		if (len > 4 && !strcmp(tok + len - 4, ".fio"))
			tok[len - 4] = '\0';
		if (!valid_dir_name(tok)) {
			perr(p, p->line,
			     "jobs: bad job name '%s' (expected the NAME of profiles/NAME.fio: letters, digits, . _ + -; not . or .., no leading -)",
			     tok);
			continue;
		}
		for (i = 0; i < cfg->njobs; i++)
			if (!strcmp(cfg->jobs[i], tok))
				break;
		if (i < cfg->njobs) {
			perr(p, p->line, "jobs: job '%s' is listed twice", tok);
			continue;
		}
		if (cfg->njobs == KB_MAX_JOBS) {
			perr(p, p->line, "jobs: too many jobs (at most %d)",
			     KB_MAX_JOBS);
			break;
		}
		cfg->jobs[cfg->njobs++] = kb_xstrdup(tok);
	}
	free(copy);
}

/* A whole number >= min, and <= max when max is not 0. */
static void set_uint(struct parser *p, const char *key, const char *val,
		     unsigned min, unsigned max, unsigned *out)
{
	unsigned long long v;

	if (kb_parse_ull(val, UINT_MAX, &v, NULL) || v < min || (max && v > max)) {
		if (max)
			perr(p, p->line, "%s = '%s': expected a whole number "
			     "from %u to %u", key, val, min, max);
		else
			perr(p, p->line, "%s = '%s': expected a whole number "
			     ">= %u", key, val, min);
		return;
	}
	*out = (unsigned)v;
}

/* A number in (lo, hi] (or [lo, hi] with lo_ok), an optional '%'. */
static void set_real(struct parser *p, const char *key, const char *val,
		     double lo, double hi, int lo_ok, double *out)
{
	const char *end = val;
	double v = NAN;
	int bad = kb_parse_real(val, &end, &v);

	/* a percentage, but alpha is a probability: "alpha = 0.5%" read
	 * as 0.5 was 100 times the alpha meant (a break-it trial) */
	if (!bad && *end == '%' && !strcmp(key, "alpha")) {
		perr(p, p->line, "%s = '%s': a probability, not a percentage "
		     "(e.g. 0.05 for 5%%)", key, val);
		return;
	}
	if (!bad && *end == '%')
		end++;
	if (bad || *end || v > hi || v < lo || (v == lo && !lo_ok)) {
		perr(p, p->line, "%s = '%s': expected a number %s %g and <= %g",
		     key, val, lo_ok ? ">=" : ">", lo, hi);
		return;
	}
	*out = v;
}

/* A disturbed-run threshold: a number in [0, hi] (an optional '%'), or
 * "off" (NAN: the rule is not applied). */
static void set_threshold(struct parser *p, const char *key,
			  const char *val, double hi, double *out)
{
	if (!strcmp(val, "off")) {
		*out = NAN;
		return;
	}
	set_real(p, key, val, 0.0, hi, 1, out);
}

/* "KEY NAME: no such metric", with the name meant when one is near */
static void bad_metric(struct parser *p, int line, const char *key,
		       const char *name)
{
	const char *near = kb_metric_near(name);
	size_t host = kb_metric_host_split(name);

	if (host)	/* host.NAME.METRIC: stats/compare.c setting_for() */
		perr(p, line, "%s %s: a load host's metric; the settings name "
		     "metrics, and host.NAME.%s takes %s's: give %s",
		     key, name, name + host, name + host, name + host);
	else if (near)
		perr(p, line, "%s %s: no such metric (did you mean '%s'?)",
		     key, name, near);
	else
		perr(p, line, "%s %s: no such metric (names look like read.iops, write.clat_p99_ns; see lib/metrics.c)",
		     key, name);
}

/* "min_effect METRIC = PCT" (mde 0) or "max_mde METRIC = PCT" (mde 1):
 * the threshold of one metric. */
static void add_metric_pct(struct parser *p, const char *metric,
			   const char *val, int mde)
{
	struct kb_config *cfg = p->cfg;
	struct kb_min_effect *v = mde ? cfg->max_mdes : cfg->min_effects;
	size_t *n = mde ? &cfg->nmax_mdes : &cfg->nmin_effects;
	const char *key = mde ? "max_mde" : "min_effect";
	struct kb_min_effect *m;
	size_t i;

	if (!kb_metric_find(metric)) {
		bad_metric(p, p->line, key, metric);
		return;
	}
	for (i = 0; i < *n; i++) {
		if (!strcmp(v[i].metric, metric)) {
			perr(p, p->line,
			     "duplicate %s %s (first set at line %d)",
			     key, metric, v[i].line);
			return;
		}
	}
	if (*n == KB_MAX_MIN_EFFECTS) {
		perr(p, p->line, "%s %s: too many (at most %d)",
		     key, metric, KB_MAX_MIN_EFFECTS);
		return;
	}
	m = &v[*n];
	m->pct = NAN;
	{
		/* "min_effect read.iops = 'x'": the metric in the message */
		char *named = kb_xasprintf("%s %s", key, metric);

		set_real(p, named, val, 0.0, 1000.0, 1, &m->pct);
		free(named);
	}
	if (isnan(m->pct))
		return;
	m->metric = kb_xstrdup(metric);
	m->line = p->line;
	(*n)++;
}

static void set_duration(struct parser *p, const char *key, const char *val,
			 unsigned min, unsigned *out)
{
	unsigned v;

	if (parse_duration(val, &v) || v < min) {
		perr(p, p->line,
		     "%s = '%s': expected seconds from %u to %u (e.g. 60, 30s, "
		     "2m)", key, val, min, UINT_MAX);
		return;
	}
	*out = v;
}

/* One word an enum-valued key takes: every such key (order, prefix,
 * accel, boot, ...) has a static table of them, ended by a NULL word,
 * and is read by kconf_word(), so that each says a value it does not
 * take the same way. */
struct kconf_word {
	const char *word;	/* "interleave" */
	int value;		/* what it stands for: KB_ORDER_INTERLEAVE */
	const char *hint;	/* said after the word in a message: "the
				 * default: ..."; NULL: nothing */
};

/* The value of tok in w; -1 when it is none of its words. */
static int word_value(const struct kconf_word *w, const char *tok)
{
	for (; w->word; w++)
		if (!strcmp(w->word, tok))
			return w->value;
	return -1;
}

/* The word of w meant by tok when it is one but for case or within 2
 * edits of a word twice as long ("interleaved", "Block", "kvn"); NULL
 * when none (a short "vm" is not "9p" misspelt). */
static const char *word_meant(const struct kconf_word *w, const char *tok)
{
	const struct kconf_word *k;
	const char *best = NULL;
	size_t bestd = (size_t)-1, d;

	for (k = w; k->word; k++)
		if (!strcasecmp(k->word, tok))
			return k->word;
	for (k = w; k->word; k++) {
		d = bestd;
		if (kb_nearer(tok, k->word, &d) && 2 * d < strlen(k->word)) {
			bestd = d;
			best = k->word;
		}
	}
	return best;
}

/* val's value for key among the words of w.  When it is none: -1, said
 * at FILE:LINE as "KEY = 'VAL': expected A (hint), B or C", with
 * " (did you mean 'B'?)" when it is B misspelt.  For an item tok of a
 * list key (profile = cycles,dcm) what names the item: "KEY = 'VAL':
 * unknown WHAT 'TOK' (expected A or B, e.g. KEY = A,B)" (no e.g. for
 * a list of one word). */
static int kconf_word(struct parser *p, const char *key, const char *val,
		      const char *tok, const char *what,
		      const struct kconf_word *w)
{
	const char *meant;
	char list[768];
	size_t n = 0, i, len = 0;
	int v = word_value(w, tok ? tok : val);

	if (v >= 0)
		return v;
	while (w[n].word)
		n++;
	list[0] = '\0';
	for (i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%s%s%s%s%s",
					!i ? "" : i + 1 < n ? ", " : " or ",
					w[i].word, w[i].hint ? " (" : "",
					w[i].hint ? w[i].hint : "",
					w[i].hint ? ")" : "");
	meant = word_meant(w, tok ? tok : val);
	if (tok && n > 1)	/* and how a list is written */
		perr(p, p->line, "%s = '%s': unknown %s '%s' (expected %s, "
		     "e.g. %s = %s,%s%s%s%s)", key, val, what, tok, list, key,
		     w[0].word, w[1].word, meant ? "; did you mean '" : "",
		     meant ? meant : "", meant ? "'?" : "");
	else if (tok)
		perr(p, p->line, "%s = '%s': unknown %s '%s' (expected %s%s%s%s)",
		     key, val, what, tok, list, meant ? "; did you mean '" : "",
		     meant ? meant : "", meant ? "'?" : "");
	else
		perr(p, p->line, "%s = '%s': expected %s%s%s%s", key, val, list,
		     meant ? " (did you mean '" : "", meant ? meant : "",
		     meant ? "'?)" : "");
	return -1;
}

/* The words of the enum-valued keys (kconf_word()) */
static const struct kconf_word order_words[] = {
	{ "interleave", KB_ORDER_INTERLEAVE, NULL },
	{ "block", KB_ORDER_BLOCK, NULL },
	{ "random", KB_ORDER_RANDOM, NULL },
	{ NULL, 0, NULL },
};

static const struct kconf_word drop_caches_words[] = {
	{ "pagecache", KB_DROP_PAGECACHE, NULL },
	{ "all", KB_DROP_ALL, NULL },
	{ NULL, 0, NULL },
};

static const struct kconf_word profile_event_words[] = {
	{ "cycles", 0, NULL },
	{ "dcm", 1, NULL },
	{ NULL, 0, NULL },
};

/* profile_during = profiling-runs | counted-runs (kconf.h) */
static const struct kconf_word profile_during_words[] = {
	{ "profiling-runs", 0, "the default: perf samples only in extra runs "
	  "that are not counted" },
	{ "counted-runs", 1, "samples during the counted runs, overhead "
	  "measured by unsampled extra runs" },
	{ NULL, 0, NULL },
};

static const struct kconf_word keep_words[] = {
	{ "perf.data", KB_KEEP_PERF_DATA, NULL },
	{ NULL, 0, NULL },
};

/* prefix = auto|none: how the report tables write their values
 * (kbench report --prefix, which wins over it) */
static const struct kconf_word prefix_words[] = {
	{ "auto", 1, "4310k IOPS, MiB/s, us" },
	{ "none", 0, "the metric's own unit, the default" },
	{ NULL, 0, NULL },
};

/* accel = auto | kvm | tcg (runner/accel.h); kb_accel_from_name() */
static const struct kconf_word accel_words[] = {
	{ "auto", KB_ACCEL_AUTO, NULL },
	{ "kvm", KB_ACCEL_KVM, NULL },
	{ "tcg", KB_ACCEL_TCG, NULL },
	{ NULL, 0, NULL },
};

/* method = local | vm | kexec: kept as the word (struct kb_variant) */
static const struct kconf_word method_words[] = {
	{ "local", 0, NULL },
	{ "vm", 1, NULL },
	{ "kexec", 2, NULL },
	{ NULL, 0, NULL },
};

static const struct kconf_word guest_root_words[] = {
	{ "9p", KB_GUEST_ROOT_9P, "the host's root over virtio-9p" },
	{ "initramfs", KB_GUEST_ROOT_INITRAMFS, "a self-contained guest" },
	{ NULL, 0, NULL },
};

static const struct kconf_word boot_words[] = {
	{ "auto", KB_VM_BOOT_AUTO, "the kernel's PVH entry when it has one" },
	{ "pvh", KB_VM_BOOT_PVH, NULL },
	{ "bzimage", KB_VM_BOOT_BZIMAGE, NULL },
	{ NULL, 0, NULL },
};

static const struct kconf_word module_signatures_words[] = {
	{ "auto", KB_VM_MODSIG_AUTO, "stripped when the kernel loads "
	  "unsigned modules" },
	{ "keep", KB_VM_MODSIG_KEEP, NULL },
	{ NULL, 0, NULL },
};

/* The words of each KT_ENUM key of kconf_opts[] (accel: of [global] and
 * of a variant section) */
static const struct {
	const char *key;
	const struct kconf_word *words;
} kconf_enums[] = {
	{ "order", order_words },
	{ "drop_caches", drop_caches_words },
	{ "profile_during", profile_during_words },
	{ "prefix", prefix_words },
	{ "accel", accel_words },
	{ "guest_root", guest_root_words },
	{ "boot", boot_words },
	{ "module_signatures", module_signatures_words },
};

static const struct kconf_word *enum_words(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(kconf_enums) / sizeof(kconf_enums[0]); i++)
		if (!strcmp(kconf_enums[i].key, key))
			return kconf_enums[i].words;
	abort();	/* a KT_ENUM key missing from kconf_enums[] */
}

/* set_opt() stores a KT_ENUM key's value as an int */
_Static_assert(sizeof(enum kb_order) == sizeof(int) &&
	       sizeof(enum kb_drop_caches) == sizeof(int) &&
	       sizeof(enum kb_accel) == sizeof(int) &&
	       sizeof(enum kb_guest_root) == sizeof(int) &&
	       sizeof(enum kb_vm_boot) == sizeof(int) &&
	       sizeof(enum kb_vm_modsig) == sizeof(int),
	       "a KT_ENUM field is not an int");

static void set_target(struct parser *p, const char *val)
{
	struct kb_config *cfg = p->cfg;
	unsigned long long size;

	cfg->target_line = p->line;
	if (!strncmp(val, "/dev/", 5)) {
		if (!val[5] || has_dotdot(val)) {
			perr(p, p->line,
			     "target = '%s': expected a block device such as /dev/nvme0n1",
			     val);
			return;
		}
		cfg->target_kind = KB_TARGET_DEVICE;
		cfg->target = kb_xstrdup(val);
	} else if (!strncmp(val, "loop:", 5)) {
		if (kconf_parse_size(val + 5, &size)) {
			perr(p, p->line,
			     "target = '%s': expected loop:SIZE, e.g. loop:256M",
			     val);
			return;
		}
		if (size < KB_MIN_LOOP_SIZE) {
			perr(p, p->line,
			     "target = '%s': loop size must be at least 16M",
			     val);
			return;
		}
		cfg->target_kind = KB_TARGET_LOOP;
		cfg->loop_size_bytes = size;
	} else if (!strncmp(val, "null_blk", 8) &&
		   (!val[8] || val[8] == ':')) {
		char *params = kb_xstrdup(val + (val[8] ? 9 : 8));
		char *w, *save = NULL;

		/* each word goes to modprobe's argv (runner/nullblk.c) */
		for (w = strtok_r(params, " \t", &save); w;
		     w = strtok_r(NULL, " \t", &save)) {
			if (kconf_module_param_ok(w))
				continue;
			perr(p, p->line,
			     "target = '%s': '%s' is not a module parameter NAME=VALUE (NAME: letters, digits, _; VALUE: letters, digits and _ . , : + -), e.g. null_blk: queue_mode=2 irqmode=0",
			     val, w);
			free(params);
			return;
		}
		free(params);
		cfg->target_kind = KB_TARGET_NULLBLK;
		cfg->target = kb_xstrdup("/dev/nullb0");
		cfg->nullblk_params = kb_xstrdup(kb_trim((char *)val +
					(val[8] ? 9 : 8)));
	} else if (!strncmp(val, "file:", 5)) {
		if (!val[5]) {
			perr(p, p->line,
			     "target = '%s': expected file:PATH, e.g. file:/mnt/test/kbench.img",
			     val);
			return;
		}
		if (strchr(val + 5, ':')) {
			/* fio's filename= takes ':' between several files */
			perr(p, p->line,
			     "target = '%s': a ':' in the path would make fio open several files (filename=A:B); rename the file",
			     val);
			return;
		}
		cfg->target_kind = KB_TARGET_FILE;
		cfg->target = conf_relative(p, val + 5);
	} else {
		/* a link to a device elsewhere (/tmp/disk -> /dev/loop0):
		 * devices are named by their /dev path; say which */
		char *real = val[0] == '/' ? realpath(val, NULL) : NULL;

		if (real && !strncmp(real, "/dev/", 5))
			perr(p, p->line,
			     "target = '%s': a block device is named by its /dev path: target = %s",
			     val, real);
		else
			perr(p, p->line,
			     "target = '%s': expected a block device (/dev/...), loop:SIZE or file:PATH (or null_blk: PARAMS)",
			     val);
		free(real);
	}
}

/* "profile = cycles,dcm": the events runner/collect_profile.c samples. */
static void set_profile(struct parser *p, const char *val)
{
	char *copy = kb_xstrdup(val), *tok, *save = NULL;

	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		if (kconf_word(p, "profile", val, tok, "event",
			       profile_event_words) < 0)
			continue;
		if (p->cfg->nprofile < KB_MAX_PROFILE_EVENTS)
			p->cfg->profile[p->cfg->nprofile++] = kb_xstrdup(tok);
	}
	free(copy);
}

/* "keep = perf.data": artefacts kept beside the compressed reports. */
static void set_keep(struct parser *p, const char *val)
{
	char *copy = kb_xstrdup(val), *tok, *save = NULL;

	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		int k = kconf_word(p, "keep", val, tok, "artefact",
				   keep_words);

		if (k >= 0)
			p->cfg->keep |= (unsigned)k;
	}
	free(copy);
}

/* "task group NAME = GLOB...": comm patterns for task.NAME.cpu_pct. */
static void add_task_group(struct parser *p, const char *name,
			   const char *val)
{
	struct kb_config *cfg = p->cfg;
	const char *c;

	for (c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			break;
	if (!*name || *c) {
		perr(p, p->line,
		     "task group '%s': name must be letters, digits, _ or - (e.g. task group flusher = flush-* kworker/*flush*)",
		     name);
		return;
	}
	if (cfg->ntask_groups == KB_MAX_TASK_GROUPS) {
		perr(p, p->line, "task group %s: too many (at most %d)", name,
		     KB_MAX_TASK_GROUPS);
		return;
	}
	cfg->task_groups[cfg->ntask_groups].name = kb_xstrdup(name);
	cfg->task_groups[cfg->ntask_groups++].patterns = kb_xstrdup(val);
}

/* hosts = HOST[:PORT] ...: fio --server load hosts (runner/run_exec.c
 * runs fio --client=HOST,PORT for each, --client=ip6:ADDR,PORT for an
 * IPv6 address).  HOST: an IPv4 address or a host name (letters, digits,
 * '-', '.', not starting with '-' or '.'), or an IPv6 address, bracketed
 * when a port follows ([fd00::2]:8765); PORT: 1..65535, default fio's
 * 8765.  Nothing option-like reaches fio's argv. */
static int host_name_ok(const char *h)
{
	size_t n = strlen(h), i;
	struct in_addr a;

	if (n && strspn(h, "0123456789.") == n)	/* dotted: an IPv4 address */
		return inet_pton(AF_INET, h, &a) == 1;
	if (!n || n > 253 || !isalnum((unsigned char)h[0]) || h[n - 1] == '.' ||
	    h[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)h[i]) && h[i] != '-' &&
		    !(h[i] == '.' && h[i + 1] != '.'))
			return 0;
	return 1;
}

/* 1 when h, an IPv6 address without brackets, reads as well as an
 * address and a port: its last group is decimal (a port 1..65535) and
 * what comes before it is an IPv6 address too (fd00::2:8765: the
 * address fd00::2:8765, or fd00::2 port 8765?).  fd00::2, ::1 and
 * 2001:db8:0:0:0:0:0:1 are not (a break-it trial read fd00::2:8765 as
 * the address, the port meant lost without a word). */
static int v6_port_ambiguous(const char *h)
{
	const char *last = strrchr(h, ':');
	unsigned long long port;
	struct in6_addr a6;
	char *before;
	int r;

	if (!last || last == strchr(h, ':') ||
	    kb_parse_ull(last + 1, 65535, &port, NULL) || !port)
		return 0;
	before = kb_xasprintf("%.*s", (int)(last - h), h);
	r = inet_pton(AF_INET6, before, &a6) == 1 &&
	    inet_pton(AF_INET6, h, &a6) == 1;
	free(before);
	return r;
}

/* One hosts = item: HOST[:PORT], [IPV6]:PORT, [IPV6] or a bare IPv6
 * address (two colons or more; no port then).  *host is the host in one
 * spelling per host, so that a host given twice is seen (set_host_list())
 * and target@HOST finds it: an IPv6 address as inet_ntop() writes it
 * ("fd00::2" for FD00:0::2) into canon, a name in lower case (DNS names
 * are case-blind) in tok.  fio is given that spelling and names the host
 * so in its JSON (client_stats "hostname", the host.NAME.* metrics).
 * Returns 0, or -1 with the error given. */
static int parse_host(struct parser *p, char *tok, char **host,
		      unsigned *port, char canon[INET6_ADDRSTRLEN])
{
	char *colon = NULL, *end, *h = tok, *c;
	unsigned long long v = KB_FIO_SERVER_PORT;
	struct in6_addr a6;

	if (tok[0] == '[') {		/* [ADDR] or [ADDR]:PORT */
		end = strchr(tok, ']');
		if (!end || (end[1] && end[1] != ':')) {
			perr(p, p->line, "hosts: '%s': expected [IPV6-ADDRESS] or [IPV6-ADDRESS]:PORT, e.g. [fd00::2]:8765",
			     tok);
			return -1;
		}
		*end = '\0';
		h = tok + 1;
		colon = end[1] ? end + 1 : NULL;
	} else if (strchr(tok, ':') == strrchr(tok, ':')) {
		colon = strchr(tok, ':');	/* HOST:PORT */
		if (colon)
			*colon = '\0';
	}
	if (colon) {
		if (kb_parse_ull(colon + 1, 65535, &v, NULL) || v < 1) {
			if (h != tok)
				perr(p, p->line, "hosts: '[%s]:%s': the port must be 1..65535",
				     h, colon + 1);
			else
				perr(p, p->line, "hosts: '%s:%s': the port must be 1..65535",
				     tok, colon + 1);
			return -1;
		}
	}
	if (h == tok && v6_port_ambiguous(h)) {
		const char *last = strrchr(h, ':');

		perr(p, p->line, "hosts: '%s': an IPv6 address, or %.*s with "
		     "port %s? give [%s] for the address, [%.*s]:%s for the "
		     "port", h, (int)(last - h), h, last + 1, h,
		     (int)(last - h), h, last + 1);
		return -1;
	}
	if (strchr(h, ':') ? inet_pton(AF_INET6, h, &a6) != 1 :
	    (h != tok || !host_name_ok(h))) {
		perr(p, p->line,
		     "hosts: '%s' is not a host name, IPv4 or IPv6 address (expected HOST[:PORT] or [IPV6]:PORT, e.g. load1, 10.0.0.2:8765 or [fd00::2]:8765)",
		     h);
		return -1;
	}
	if (strchr(h, ':'))
		h = (char *)inet_ntop(AF_INET6, &a6, canon, INET6_ADDRSTRLEN);
	else
		for (c = h; *c; c++)
			*c = (char)tolower((unsigned char)*c);
	*host = h;
	*port = (unsigned)v;
	return 0;
}

/* hosts = of [global] or of a [job NAME] section into hosts, ports, *n */
static void set_host_list(struct parser *p, const char *val, char **hosts,
			  unsigned *ports, size_t *n)
{
	char *copy = kb_xstrdup(val), *tok, *save = NULL, *host;
	char canon[INET6_ADDRSTRLEN];
	unsigned port;
	size_t i;

	for (i = 0; i < *n; i++)
		free(hosts[i]);
	*n = 0;
	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		if (parse_host(p, tok, &host, &port, canon))
			continue;
		for (i = 0; i < *n; i++)
			if (!strcmp(hosts[i], host))
				break;
		if (i < *n && ports[i] == port) {
			perr(p, p->line, "hosts: '%s' is given twice", host);
			continue;
		}
		/* fio's JSON names a server by its host alone (client_stats
		 * "hostname", no port): two servers of one host would be
		 * one host.NAME.*, and one of them that died would go
		 * unnoticed (parsers/run_dir.c counts a host's results by
		 * that name) */
		if (i < *n) {
			perr(p, p->line, "hosts: '%s' is given twice, with ports %u and %u: fio's output names a load host by its address alone, so two servers on one host cannot be told apart; give it once (more load: numjobs or iodepth in the job file)",
			     host, ports[i], port);
			continue;
		}
		if (*n == KB_MAX_HOSTS) {
			perr(p, p->line, "hosts: at most %d", KB_MAX_HOSTS);
			break;
		}
		ports[*n] = port;
		hosts[(*n)++] = kb_xstrdup(host);
	}
	if (!val[strspn(val, " \t,")])
		perr(p, p->line, "hosts: no host given (HOST[:PORT] ...)");
	free(copy);
}

/* [global] hosts = (kconf_opts[]) */
static void set_hosts(struct parser *p, const char *val)
{
	set_host_list(p, val, p->cfg->hosts, p->cfg->host_ports,
		      &p->cfg->nhosts);
}

char *kconf_host_label(const char *host, unsigned port)
{
	int v6 = !!strchr(host, ':');

	return kb_xasprintf("%s%s%s:%u", v6 ? "[" : "", host, v6 ? "]" : "",
			    port);
}

char *kconf_host_client_arg(const char *host, unsigned port)
{
	return kb_xasprintf("--client=%s%s,%u", strchr(host, ':') ? "ip6:" :
			    "", host, port);
}

size_t kconf_job_hosts(const struct kb_config *cfg, const char *job,
		       char *const **hosts, const unsigned **ports)
{
	size_t i;

	for (i = 0; i < cfg->njob_hosts; i++)
		if (!strcmp(cfg->job_hosts[i].job, job) &&
		    cfg->job_hosts[i].nhosts) {
			*hosts = cfg->job_hosts[i].hosts;
			*ports = cfg->job_hosts[i].host_ports;
			return cfg->job_hosts[i].nhosts;
		}
	*hosts = cfg->hosts;
	*ports = cfg->host_ports;
	return cfg->nhosts;
}

/* target@HOST = VALUE in [global]: HOST as in hosts = (its port, if
 * given, is not looked at), VALUE a device path or file:/PATH on that
 * host; checked against the load hosts at the end
 * (check_host_targets()). */
static void host_target_key(struct parser *p, const char *spec, char *raw)
{
	struct kb_config *cfg = p->cfg;
	char *copy = kb_xstrdup(spec), *val = NULL, *host;
	char canon[INET6_ADDRSTRLEN];
	struct kb_host_target *ht;
	unsigned port;
	size_t i;

	if (parse_host(p, copy, &host, &port, canon))
		goto out;
	for (i = 0; i < cfg->nhost_targets; i++)
		if (!strcmp(cfg->host_targets[i].host, host)) {
			perr(p, p->line,
			     "duplicate key 'target@%s' (first set at line %d)",
			     spec, cfg->host_targets[i].line);
			goto out;
		}
	val = expand(p, raw);
	if (!val)
		goto out;
	if (!(!strncmp(val, "/dev/", 5) && val[5] && !has_dotdot(val)) &&
	    !(!strncmp(val, "file:/", 6) && !strchr(val + 5, ':'))) {
		perr(p, p->line,
		     "target@%s = '%s': expected a device path (/dev/...) or file:/PATH on that host (no ':' in the path)",
		     spec, val);
		goto out;
	}
	if (cfg->nhost_targets == KB_MAX_HOSTS) {
		perr(p, p->line, "target@HOST: at most %d", KB_MAX_HOSTS);
		goto out;
	}
	ht = &cfg->host_targets[cfg->nhost_targets++];
	ht->host = kb_xstrdup(host);
	ht->kind = val[0] == '/' ? KB_TARGET_DEVICE : KB_TARGET_FILE;
	ht->path = kb_xstrdup(val + (val[0] == '/' ? 0 : 5));
	ht->line = p->line;
out:
	free(val);
	free(copy);
}

const struct kb_host_target *kconf_host_target(const struct kb_config *cfg,
					       const char *host)
{
	size_t i;

	for (i = 0; i < cfg->nhost_targets; i++)
		if (!strcmp(cfg->host_targets[i].host, host))
			return &cfg->host_targets[i];
	return NULL;
}

/* Every target@HOST names a load host of hosts = ([global] or a job's). */
static void check_host_targets(struct parser *p)
{
	struct kb_config *cfg = p->cfg;
	size_t i, j, h;
	int found;

	for (i = 0; i < cfg->nhost_targets; i++) {
		const char *host = cfg->host_targets[i].host;

		found = 0;
		for (h = 0; h < cfg->nhosts; h++)
			found |= !strcmp(cfg->hosts[h], host);
		for (j = 0; j < cfg->njob_hosts; j++)
			for (h = 0; h < cfg->job_hosts[j].nhosts; h++)
				found |= !strcmp(cfg->job_hosts[j].hosts[h],
						 host);
		if (!found)
			perr(p, cfg->host_targets[i].line,
			     "target@%s: %s is not a load host of hosts =",
			     host, host);
	}
}

static void free_job_hosts(struct kb_job_hosts *jh)
{
	size_t h;

	for (h = 0; h < jh->nhosts; h++)
		free(jh->hosts[h]);
	free(jh->job);
	memset(jh, 0, sizeof(*jh));
}

/* [job NAME]: a section of per-job settings (hosts =) for a job of
 * jobs =, checked at the end (check_job_sections()).  A bad one's keys
 * go to a scratch section, not kept. */
static void start_job_section(struct parser *p, const char *name)
{
	struct kb_config *cfg = p->cfg;
	size_t i;

	free_job_hosts(&p->jscratch);
	p->sec = SEC_JOB;
	p->jh = &p->jscratch;
	p->jh->job = kb_xstrdup(name);
	if (!valid_dir_name(name)) {
		perr(p, p->line,
		     "bad section header [job %.64s] (expected [job NAME], NAME a job of jobs =)",
		     name);
		return;
	}
	for (i = 0; i < cfg->njob_hosts; i++)
		if (!strcmp(cfg->job_hosts[i].job, name)) {
			perr(p, p->line,
			     "duplicate section [job %s] (first at line %d)",
			     name, cfg->job_hosts[i].line);
			return;
		}
	if (cfg->njob_hosts == KB_MAX_JOBS) {
		perr(p, p->line, "too many [job NAME] sections (at most %d)",
		     KB_MAX_JOBS);
		return;
	}
	p->jh = &cfg->job_hosts[cfg->njob_hosts++];
	p->jh->job = kb_xstrdup(name);
	p->jh->line = p->line;
}

static int list_empty_item(struct parser *p, const char *key,
			   const char *val);

/* A key of a [job NAME] section: hosts = only. */
static void job_key(struct parser *p, const char *key, char *raw)
{
	char *val;

	if (strcmp(key, "hosts")) {
		perr(p, p->line,
		     "unknown key '%s' in [job %s] (expected hosts)", key,
		     p->jh->job);
		return;
	}
	if (p->jh->hosts_line) {
		perr(p, p->line,
		     "duplicate key 'hosts' in [job %s] (first set at line %d)",
		     p->jh->job, p->jh->hosts_line);
		return;
	}
	p->jh->hosts_line = p->line;
	val = expand(p, raw);
	if (val && !list_empty_item(p, key, val))
		set_host_list(p, val, p->jh->hosts, p->jh->host_ports,
			      &p->jh->nhosts);
	free(val);
}

/* Every [job NAME] names a job of jobs = and has hosts =, which
 * overrides [global]'s: [global] must have one. */
static void check_job_sections(struct parser *p)
{
	struct kb_config *cfg = p->cfg;
	size_t i, j;

	for (i = 0; i < cfg->njob_hosts; i++) {
		struct kb_job_hosts *jh = &cfg->job_hosts[i];

		for (j = 0; j < cfg->njobs; j++)
			if (!strcmp(cfg->jobs[j], jh->job))
				break;
		if (j == cfg->njobs)
			perr(p, jh->line, "[job %s]: no job %s in jobs =",
			     jh->job, jh->job);
		else if (!jh->hosts_line)
			perr(p, jh->line, "[job %s]: no hosts = (the only key of a job section)",
			     jh->job);
		else if (!cfg->nhosts)
			perr(p, jh->line,
			     "[job %s]: hosts = overrides [global]'s, which is missing: give the campaign's load hosts in [global] too",
			     jh->job);
	}
}

/* Why tok cannot be a tunable's or a sweep's value, or NULL.  A value
 * is part of its configurations' names ("running,NM=0") and so of the
 * run directories (runs/CONFIG/JOB/NNN): no '/' (a path out of the
 * campaign directory: `sweep numjobs = ../../x` wrote a run there), no
 * control character.  (A name too long for a directory is plan_build()'s
 * error; ',' stays allowed: CPU lists such as 0-3,8.) */
static const char *value_problem(const char *tok)
{
	const unsigned char *c;

	for (c = (const unsigned char *)tok; *c; c++) {
		if (*c == '/')
			return "'/' is not allowed (values name the run "
			       "directories, runs/CONFIG/JOB/NNN)";
		if (*c < 0x20 || *c == 0x7f)
			return "control characters are not allowed";
	}
	return NULL;
}

/* "tunable LABEL = PATH: V1 V2 ..."; label is the text after "tunable".
 * With sweep: "sweep NAME = V1 V2 ..." (no path). */
/* 1 when sweep NAME would set a variable kbench itself gives fio:
 * KBENCH_TARGET, KBENCH_SIZE, KBENCH_RUNTIME, and KBENCH_TARGET_N and
 * KBENCH_SIZE_N of fio --client (any case: the name is upper-cased). */
static int reserved_sweep(const char *label)
{
	static const char *const fixed[] = { "target", "size", "runtime" };
	static const char *const numbered[] = { "target_", "size_" };
	size_t i, n;

	for (i = 0; i < sizeof(fixed) / sizeof(*fixed); i++)
		if (!strcasecmp(label, fixed[i]))
			return 1;
	for (i = 0; i < sizeof(numbered) / sizeof(*numbered); i++) {
		n = strlen(numbered[i]);
		if (!strncasecmp(label, numbered[i], n) && label[n] &&
		    strspn(label + n, "0123456789") == strlen(label + n))
			return 1;
	}
	return 0;
}

static void add_tunable(struct parser *p, const char *label, const char *val,
			int sweep)
{
	struct kb_config *cfg = p->cfg;
	struct kb_tunable *t = NULL;
	char *copy = NULL, *path, *vals, *tok, *save = NULL, *colon;
	size_t i;

	if (!valid_name(label, "_")) {
		perr(p, p->line,
		     "tunable label '%.64s': expected letters, digits and _ (e.g. tunable NM = queue/nomerges: 0 1 2)",
		     label);
		return;
	}
	if (strlen(label) > KB_CONF_MAX_NAME) {
		perr(p, p->line, "tunable label '%.32s...' is %zu characters: "
		     "at most %d", label, strlen(label), KB_CONF_MAX_NAME);
		return;
	}
	if (sweep && reserved_sweep(label)) {
		/* ${KBENCH_TARGET} swept would send fio to a path kbench
		 * never checked (mounted, swap, another disk) */
		char up[KB_CONF_MAX_NAME + 1];

		for (i = 0; label[i] && i < KB_CONF_MAX_NAME; i++)
			up[i] = (char)toupper((unsigned char)label[i]);
		up[i] = '\0';
		perr(p, p->line, "sweep %s: ${KBENCH_%s} is kbench's to set "
		     "(the target, its size or the runtime); a sweep may not "
		     "change it: choose another name", label, up);
		return;
	}
	for (i = 0; i < cfg->ntunables; i++) {
		if (!strcmp(cfg->tunables[i].label, label)) {
			perr(p, p->line,
			     "duplicate %s '%s' (first defined at line %d as a %s)",
			     sweep ? "sweep" : "tunable", label,
			     cfg->tunables[i].line,
			     cfg->tunables[i].sweep ? "sweep" : "tunable");
			return;
		}
	}
	if (cfg->ntunables == KB_MAX_TUNABLES) {
		perr(p, p->line, "tunable %s: too many tunables (at most %d)",
		     label, KB_MAX_TUNABLES);
		return;
	}
	/* The path ends at the first ':' followed by a blank or the end, so
	 * sysfs paths such as .../0000:00:1f.2/... keep their colons; else
	 * ("PATH:VALUE") at the last ':' of the first word. */
	copy = kb_xstrdup(val);
	if (sweep) {
		path = NULL;
		vals = copy;
		goto values;
	}
	for (colon = copy; (colon = strchr(colon, ':')); colon++)
		if (colon[1] == '\0' || colon[1] == ' ' || colon[1] == '\t')
			break;
	if (!colon) {
		size_t w = strcspn(copy, " \t");

		for (i = w; i > 0; i--) {
			if (copy[i - 1] == ':') {
				colon = copy + i - 1;
				break;
			}
		}
	}
	if (!colon) {
		perr(p, p->line,
		     "tunable %s = '%s': expected PATH: VALUE... (e.g. queue/nomerges: 0 1 2)",
		     label, val);
		goto out;
	}
	*colon = '\0';
	path = kb_trim(copy);
	vals = colon + 1;
	if (!*path) {
		perr(p, p->line, "tunable %s: missing PATH before ':'", label);
		goto out;
	}
	if (has_dotdot(path) ||
	    (path[0] == '/' && strncmp(path, "/sys/", 5) &&
	     strncmp(path, "/proc/", 6))) {
		perr(p, p->line,
		     "tunable %s: path '%s' must be relative to /sys/block/<dev>/ (e.g. queue/nomerges) or start with /sys/ or /proc/, without '..'",
		     label, path);
		goto out;
	}
	for (i = 0; i < cfg->ntunables; i++)
		if (cfg->tunables[i].path &&
		    !strcmp(cfg->tunables[i].path, path)) {
			/* one file, two values per run: each run would set
			 * one and find the other "changed during the run" */
			perr(p, p->line, "tunable %s: path '%s' is tunable "
			     "%s's already (line %d); one tunable per file, "
			     "with all its values", label, path,
			     cfg->tunables[i].label, cfg->tunables[i].line);
			goto out;
		}
values:
	t = &cfg->tunables[cfg->ntunables];
	for (tok = strtok_r(vals, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		const char *why = value_problem(tok);

		if (why) {
			perr(p, p->line, "%s %s: value '%.64s': %s",
			     sweep ? "sweep" : "tunable", label, tok, why);
			continue;
		}
		for (i = 0; i < t->nvalues; i++)
			if (!strcmp(t->values[i], tok))
				break;
		if (i < t->nvalues) {
			perr(p, p->line, "%s %s: value '%s' is listed twice",
			     sweep ? "sweep" : "tunable", label, tok);
			continue;
		}
		if (t->nvalues == KB_MAX_VALUES) {
			perr(p, p->line,
			     "%s %s: too many values (at most %d)",
			     sweep ? "sweep" : "tunable", label, KB_MAX_VALUES);
			break;
		}
		t->values[t->nvalues++] = kb_xstrdup(tok);
	}
	if (!t->nvalues) {
		if (sweep)
			perr(p, p->line, "sweep %s: no values (expected e.g. "
			     "sweep numjobs = 1 2 4 8)", label);
		else
			perr(p, p->line,
			     "tunable %s: no values after '%s:' (expected at least one)",
			     label, path);
		goto out;
	}
	t->label = kb_xstrdup(label);
	t->path = path ? kb_xstrdup(path) : NULL;
	t->sweep = sweep;
	t->line = p->line;
	cfg->ntunables++;
out:
	if (t && !t->label) {
		for (i = 0; i < t->nvalues; i++) {
			free(t->values[i]);
			t->values[i] = NULL;
		}
		t->nvalues = 0;
	}
	free(copy);
}

/* The setters of the keys that need more than a number or a string.
 * Each reads val (already ${VAR}-expanded, not empty) into p->cfg or the
 * current variant p->var and reports problems with perr(). */

static void set_iterations(struct parser *p, const char *val)
{
	unsigned long long v;

	if (!strcmp(val, "auto"))
		p->cfg->iterations_auto = 1;
	else if (kb_parse_ull(val, UINT_MAX, &v, NULL) || v < 1)
		perr(p, p->line, "iterations = '%s': expected a whole number "
		     ">= 1 or auto", val);
	else
		p->cfg->iterations = (unsigned)v;
}

static void set_seed(struct parser *p, const char *val)
{
	unsigned long long v;

	if (kb_parse_ull(val, ULONG_MAX, &v, NULL))
		perr(p, p->line, "seed = '%s': expected a whole number >= 0",
		     val);
	else
		p->cfg->seed = (unsigned long)v;
}

/* calibration = FILE: read by runner/calibrate.h */
static void set_calibration(struct parser *p, const char *val)
{
	p->cfg->calibration = conf_relative(p, val);
	p->cfg->calibration_line = p->line;
}

static void set_profiles(struct parser *p, const char *val)
{
	p->cfg->profiles_dir = conf_relative(p, val);
	p->cfg->profiles_line = p->line;
}

/* push = URL: checked fully by push_url_check() at push time */
/* What is wrong with the HOST[:PORT] that starts at a (an http URL after
 * "//", RFC 3986 section 3.2: a name, an IPv4 address or [IPv6]), or
 * NULL.  Found when kernels.conf is read, not after the campaign when
 * the push fails ("http://[::1" was taken). */
static const char *url_authority_problem(const char *a)
{
	size_t n = strcspn(a, "/?#");
	const char *end = a + n, *port, *e;
	unsigned long long v;

	if (!n)
		return "no host";
	if (*a == '[') {
		const char *close = memchr(a, ']', n);

		if (!close)
			return "an IPv6 address without its closing ']'";
		if (close == a + 1)
			return "an empty IPv6 address";
		port = close + 1 < end ? close + 1 : NULL;
		if (port && *port != ':')
			return "text after the IPv6 address's ']'";
	} else {
		port = memchr(a, ':', n);
		if (port == a)
			return "no host";
		if (memchr(a, '[', n) || memchr(a, ']', n))
			return "'[' or ']' outside an IPv6 address";
	}
	if (!port)
		return NULL;
	if (port + 1 == end)
		return NULL;	/* "host:": the scheme's port (RFC 3986 3.2.3) */
	if (kb_parse_ull(port + 1, 65535, &v, &e) || e != end || v < 1)
		return "the port is not a number from 1 to 65535";
	return NULL;
}

static void set_push(struct parser *p, const char *val)
{
	if (strchr(val, '@'))	/* never echo credentials */
		perr(p, p->line,
		     "push: the URL holds credentials (user@host); remove them and set KBENCH_PUSH_TOKEN, KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD or a ~/.netrc entry");
	else if ((strncmp(val, "http://", 7) && strncmp(val, "https://", 8)) ||
		 strpbrk(val, " \t"))
		perr(p, p->line,
		     "push = '%s': expected an http:// or https:// URL without credentials (e.g. http://127.0.0.1:8086/write?db=kbench; credentials go in KBENCH_PUSH_TOKEN, KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD or ~/.netrc)",
		     val);
	else if (url_authority_problem(strstr(val, "//") + 2))
		perr(p, p->line, "push = '%s': %s (e.g. http://[::1]:8086/write?db=kbench)",
		     val, url_authority_problem(strstr(val, "//") + 2));
	else
		p->cfg->push_url = kb_xstrdup(val);
}

static void set_layouts(struct parser *p, const char *val)
{
	struct kb_config *cfg = p->cfg;
	/* kconf_layout_names (shared with reports/: tests/test_layout.c)
	 * as kconf_word() reads them */
	struct kconf_word known[16];
	char *copy = kb_xstrdup(val), *tok, *save = NULL;
	size_t li;

	for (li = 0; kconf_layout_names[li]; li++) {
		if (li + 1 == sizeof(known) / sizeof(known[0]))
			abort();	/* raise known[]'s size */
		known[li] = (struct kconf_word){ kconf_layout_names[li],
						 (int)li, NULL };
	}
	known[li].word = NULL;
	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		if (kconf_word(p, "layouts", val, tok, "layout", known) < 0)
			continue;
		if (cfg->nlayouts == KB_MAX_LAYOUTS)
			perr(p, p->line, "layouts: at most %d", KB_MAX_LAYOUTS);
		else
			cfg->layouts[cfg->nlayouts++] = kb_xstrdup(tok);
	}
	free(copy);
}

/* 1 for the URLs push/fetch.h downloads (http, https, file) */
static int is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8) ||
	       !strncmp(s, "file://", 7);
}

/* 1 (said, FILE:LINE) when val is an http(s) URL whose host or port is
 * wrong (url_authority_problem()): found when the conf is read, not when
 * the boot fetches it */
static int bad_url(struct parser *p, const char *key, const char *val)
{
	const char *why;

	if (strncmp(val, "http://", 7) && strncmp(val, "https://", 8))
		return 0;
	why = url_authority_problem(strstr(val, "//") + 2);
	if (why)
		perr(p, p->line, "%s = '%s': %s", key, val, why);
	return why != NULL;
}

static void set_method(struct parser *p, const char *val)
{
	if (kconf_word(p, "method", val, NULL, NULL, method_words) < 0)
		return;
	free(p->var->method);
	p->var->method = kb_xstrdup(val);
}

static void set_release(struct parser *p, const char *val)
{
	if (strpbrk(val, " \t\n\v\f\r")) {
		perr(p, p->line,
		     "release = '%s': expected one `uname -r` string, without blanks",
		     val);
		return;
	}
	p->var->release = kb_xstrdup(val);
}

static void set_kernel(struct parser *p, const char *val)
{
	/* a package name or glob (Debian policy 5.6.1: lower case letters,
	 * digits, + - .; starting with an alphanumeric): never an option of
	 * apt-get */
	if (!strncmp(val, "deb:", 4) &&
	    (!valid_name(val + 4, ".+-*?[]") ||
	     !isalnum((unsigned char)val[4]))) {
		perr(p, p->line,
		     "kernel = '%s': expected a bzImage path or deb:PACKAGE (e.g. deb:linux-image-amd64, deb:linux-image-6.12-amd64, or a glob such as deb:linux-image-6.12.*+deb12-amd64)",
		     val);
		return;
	}
	/* a bad URL is said once: kept, so no "needs kernel =" follows */
	bad_url(p, "kernel", val);
	p->var->kernel = strncmp(val, "deb:", 4) && !is_url(val) ?
			 conf_relative(p, val) : kb_xstrdup(val);
}

static void set_sha256(struct parser *p, const char *val)
{
	size_t h;

	for (h = 0; val[h] && isxdigit((unsigned char)val[h]); h++)
		;
	if (h != 64 || val[h])
		perr(p, p->line,
		     "sha256 = '%s': expected 64 hexadecimal digits (the output of sha256sum FILE)",
		     val);
	else
		p->var->sha256 = kb_xstrdup(val);
}

/* The kernel's own parser (Documentation/admin-guide/kernel-parameters.rst,
 * lib/cmdline.c next_arg()): a '"' opens a value to the next '"' and a
 * lone "--" ends the kernel's parameters (the rest goes to init).
 * kbench appends its own parameters after cmdline = (the kexec
 * campaign's marker, the guest's kbench.*): an odd '"' would put them
 * inside the last value, a "--" would hand them to init, and the
 * kernel would see neither. */
static void set_cmdline(struct parser *p, const char *val)
{
	const char *t, *dashes = NULL;
	int quoted = 0;

	for (t = val; *t; t++) {
		if (*t == '"')
			quoted = !quoted;
		else if (!quoted && !dashes && !strncmp(t, "--", 2) &&
			 (t == val || t[-1] == ' ' || t[-1] == '\t') &&
			 (!t[2] || t[2] == ' ' || t[2] == '\t'))
			dashes = t;
	}
	if (quoted)
		perr(p, p->line, "cmdline = '%s': an unclosed '\"' (the "
		     "kernel would read the parameters kbench appends as "
		     "part of its value)", val);
	else if (dashes)
		perr(p, p->line, "cmdline = '%s': a lone '--' (the words after "
		     "it go to init, and so would the parameters kbench "
		     "appends: cmdline = holds kernel parameters only)", val);
	else {
		free(p->var->cmdline);
		p->var->cmdline = kb_xstrdup(val);
	}
}

static void set_initrd(struct parser *p, const char *val)
{
	if (bad_url(p, "initrd", val))
		return;
	p->var->initrd = is_url(val) ? kb_xstrdup(val) : conf_relative(p, val);
}

static void set_modules(struct parser *p, const char *val)
{
	if (bad_url(p, "modules", val))
		return;
	p->var->modules = is_url(val) ? kb_xstrdup(val) :
			  conf_relative(p, val);
}

static void set_disk(struct parser *p, const char *val)
{
	char *d = conf_relative(p, val);

	/* QEMU's -drive file= reads "PROTOCOL:" before a path's first '/'
	 * as a block driver (json:{...} its options, nbd:HOST:PORT a
	 * network disk): a relative path is ./PATH */
	if (d[0] != '/' && strncmp(d, "./", 2)) {
		char *t = kb_xasprintf("./%s", d);

		free(d);
		d = t;
	}
	p->var->disk = d;
}

static void set_memory(struct parser *p, const char *val)
{
	unsigned long long b;

	if (kconf_parse_size(val, &b) || b < (128ULL << 20) ||
	    b > (1ULL << 40)) {
		perr(p, p->line,
		     "memory = '%s': expected a size from 128M to 1T (e.g. 1G; a bare number is bytes)",
		     val);
		return;
	}
	p->var->memory_mib = (unsigned)(b >> 20);
}

/* The keys with a name after them ("tunable NM = ..."): name is that
 * text, trimmed and not empty. */
static void set_tunable(struct parser *p, const char *name, const char *val)
{
	add_tunable(p, name, val, 0);
}

static void set_sweep(struct parser *p, const char *name, const char *val)
{
	add_tunable(p, name, val, 1);
}

static void set_min_effect_of(struct parser *p, const char *name,
			      const char *val)
{
	add_metric_pct(p, name, val, 0);
}

static void set_max_mde_of(struct parser *p, const char *name,
			   const char *val)
{
	add_metric_pct(p, name, val, 1);
}

/* How a key's value is read (struct kconf_opt's type). */
enum kopt_type {
	KT_UINT,	/* a whole number >= min (<= max when not 0):
			 * unsigned at offset */
	KT_REAL,	/* a number, an optional '%', <= max and > min (>= min
			 * with min_ok): double at offset */
	KT_THRESHOLD,	/* KT_REAL from 0 to max, or "off" (NAN) */
	KT_DURATION,	/* seconds >= min: 60, 30s, 2m: unsigned at offset */
	KT_BOOL,	/* yes/no, true/false, 1/0: int at offset */
	KT_STRING,	/* the text: char * at offset */
	KT_ENUM,	/* one of words (kconf_word()): an enum at offset */
	KT_FUNC,	/* set() reads it */
	KT_NAMED,	/* "KEY NAME = value": set_named() reads it */
};

struct kconf_opt {
	const char *name;	/* the key; for KT_NAMED the word before NAME */
	enum section sec;	/* SEC_GLOBAL or SEC_VARIANT */
	enum kopt_type type;
	size_t offset;		/* in struct kb_config ([global]) or struct
				 * kb_variant (a variant section) */
	double min, max;
	int min_ok;
	void (*set)(struct parser *p, const char *val);
	void (*set_named)(struct parser *p, const char *name, const char *val);
	const char *help;	/* the value expected, one line */
};

#define G_OFF(f) offsetof(struct kb_config, f)
#define V_OFF(f) offsetof(struct kb_variant, f)
#define G_FUNC(n, fn, h) { n, SEC_GLOBAL, KT_FUNC, 0, 0, 0, 0, fn, NULL, h }
#define V_FUNC(n, fn, h) { n, SEC_VARIANT, KT_FUNC, 0, 0, 0, 0, fn, NULL, h }
#define G_ENUM(n, f, h) { n, SEC_GLOBAL, KT_ENUM, G_OFF(f), 0, 0, 0, NULL, \
			  NULL, h }
#define V_ENUM(n, f, h) { n, SEC_VARIANT, KT_ENUM, V_OFF(f), 0, 0, 0, NULL, \
			  NULL, h }

static const struct kconf_opt kconf_opts[] = {
	/* [global] */
	G_FUNC("jobs", set_jobs,
	       "job files to run: NAME ... (profiles/NAME.fio)"),
	G_FUNC("iterations", set_iterations,
	       "timed runs per configuration and job (default 3), or auto"),
	{ "warmup", SEC_GLOBAL, KT_UINT, G_OFF(warmup), 0, 0, 0, NULL, NULL,
	  "untimed runs before the timed ones (default 1)" },
	{ "runtime", SEC_GLOBAL, KT_DURATION, G_OFF(runtime_s), 1, 0, 0, NULL,
	  NULL, "seconds per run, ${KBENCH_RUNTIME} in job files (default 60)" },
	G_ENUM("order", order,
	       "interleave (default), block or random"),
	G_FUNC("seed", set_seed, "seed of order = random (default 1)"),
	G_FUNC("target", set_target,
	       "/dev/DEVICE, loop:SIZE (default loop:256M), file:PATH or null_blk[: PARAMS]"),
	{ "baseline", SEC_GLOBAL, KT_STRING, G_OFF(baseline), 0, 0, 0, NULL,
	  NULL, "the configuration compared against: VARIANT[,LABEL=VALUE...] (default: the first)" },
	{ "timeout_grace", SEC_GLOBAL, KT_DURATION, G_OFF(timeout_grace_s), 0,
	  0, 0, NULL, NULL,
	  "seconds a run may last beyond runtime before it is killed (default 30)" },
	G_FUNC("profiles", set_profiles,
	       "directory of the job files (default: found, see FILES)"),
	G_FUNC("calibration", set_calibration,
	       "what `kbench calibrate -o DIR` measured: DIR/calibration.json"),
	G_FUNC("profile", set_profile,
	       "events sampled with perf record: cycles and/or dcm"),
	{ "profile_runs", SEC_GLOBAL, KT_UINT, G_OFF(profile_runs), 0, 0, 0,
	  NULL, NULL,
	  "profile =: extra runs per configuration, job and round, never counted (default 1)" },
	G_ENUM("profile_during", profile_during_counted,
	       "profile =: profiling-runs (default: only the extra runs sample) or counted-runs"),
	G_FUNC("keep", set_keep,
	       "artefacts kept beyond the compressed perf report: perf.data"),
	G_FUNC("push", set_push,
	       "http(s) URL of a results store, each run pushed when done "
	       "(InfluxDB line protocol for .../write?db= or "
	       ".../api/v2/write, else the results.json export)"),
	{ "alpha", SEC_GLOBAL, KT_REAL, G_OFF(alpha), 0.0, 0.5, 0, NULL, NULL,
	  "significance level, a probability, not a percentage (default "
	  "0.05)" },
	{ "min_effect", SEC_GLOBAL, KT_REAL, G_OFF(min_effect_pct), 0.0, 1000.0,
	  1, NULL, NULL,
	  "smallest change called significant, % (default 1)" },
	{ "max_mde", SEC_GLOBAL, KT_REAL, G_OFF(max_mde_pct), 0.0, 1000.0, 1,
	  NULL, NULL,
	  "largest minimum detectable effect of a \"no regression\", % (default 5)" },
	{ "min_iterations", SEC_GLOBAL, KT_UINT, G_OFF(min_iterations), 2, 0, 0,
	  NULL, NULL, "iterations = auto: runs before the first check (default 3)" },
	{ "max_iterations", SEC_GLOBAL, KT_UINT, G_OFF(max_iterations), 2, 0, 0,
	  NULL, NULL, "iterations = auto: at most this many runs (default 10)" },
	{ "target_ci_pct", SEC_GLOBAL, KT_REAL, G_OFF(target_ci_pct), 0.0, 100.0,
	  0, NULL, NULL,
	  "iterations = auto: stop when each compared change's 95% CI half-width, in %, is below this (with one configuration: of the mean; default 1)" },
	{ "target_metrics", SEC_GLOBAL, KT_STRING, G_OFF(target_metrics), 0, 0,
	  0, NULL, NULL,
	  "iterations = auto: the metrics whose CIs decide (e.g. read.iops; default: every compared metric)" },
	G_FUNC("layouts", set_layouts,
	       "extra tables in report.txt/.md: rounds, scaling, mmtests, lkp (variants, profile, time: in them already)"),
	G_ENUM("prefix", prefix_auto,
	       "the reports' values: none (default: the metric's unit) or auto (4310k IOPS, MiB/s, us); kbench report --prefix wins"),
	G_ENUM("accel", accel,
	       "vm variants: auto (default), kvm or tcg"),
	{ "kvm_probe_timeout", SEC_GLOBAL, KT_DURATION,
	  G_OFF(kvm_probe_timeout_s), 1, 0, 0, NULL, NULL,
	  "seconds a KVM probe boot may take to print the kernel banner (default 20)" },
	{ "allow_page_cache", SEC_GLOBAL, KT_BOOL, G_OFF(allow_page_cache), 0, 0,
	  0, NULL, NULL, "yes: count runs flagged as measuring the page cache (buffered reads without direct=1...; default no: they are left out of the comparisons)" },
	{ "plot_png", SEC_GLOBAL, KT_BOOL, G_OFF(plot_png), 0, 0, 0, NULL, NULL,
	  "yes: DIR/plots gets a PNG beside each SVG graph (default no)" },
	G_ENUM("drop_caches", drop_caches,
	       "before each run: pagecache (default) or all (also dentries and inodes)"),
	{ "disturbed_other_cpu_pct", SEC_GLOBAL, KT_THRESHOLD,
	  G_OFF(disturbed_other_cpu_pct), 0, 1000000.0, 1, NULL, NULL,
	  "a run is disturbed when other tasks used more % of a CPU than this and than 1.5 x the campaign's lower quartile, or off" },
	{ "disturbed_steal_pct", SEC_GLOBAL, KT_THRESHOLD,
	  G_OFF(disturbed_steal_pct), 0, 100.0, 1, NULL, NULL,
	  "... when steal time is above this %, or off" },
	{ "disturbed_psi_pct", SEC_GLOBAL, KT_THRESHOLD,
	  G_OFF(disturbed_psi_pct), 0, 100.0, 1, NULL, NULL,
	  "... when CPU pressure (/proc/pressure/cpu \"some\": % of the run's wall time, psi.cpu_some_pct) is above this, or off" },
	{ "disturbed_idle_fraction", SEC_GLOBAL, KT_THRESHOLD,
	  G_OFF(disturbed_idle_fraction), 0, 1.0, 1, NULL, NULL,
	  "... when idle is below this fraction of the expected idle, or off" },
	{ "retry_disturbed", SEC_GLOBAL, KT_UINT, G_OFF(retry_disturbed), 0, 0,
	  0, NULL, NULL, "rerun a round with a disturbed run at most N times "
	  "(order = block: the run alone; default 1, 0: off)" },
	{ "retry_quiet_wait", SEC_GLOBAL, KT_DURATION,
	  G_OFF(retry_quiet_wait_s), 0, 0, 0, NULL, NULL,
	  "before such a rerun, wait at most this long for a quiet 1-s "
	  "window (default 20s, 0: no wait)" },
	G_FUNC("hosts", set_hosts,
	       "fio --server load hosts: HOST[:PORT] ..."),
	{ "tunable", SEC_GLOBAL, KT_NAMED, 0, 0, 0, 0, NULL, set_tunable,
	  "tunable LABEL = PATH: VALUE... (e.g. tunable NM = queue/nomerges: 0 1 2)" },
	{ "sweep", SEC_GLOBAL, KT_NAMED, 0, 0, 0, 0, NULL, set_sweep,
	  "sweep NAME = V1 V2 ... (e.g. sweep numjobs = 1 2 4 8, used as ${KBENCH_NUMJOBS} in the job file)" },
	{ "task group", SEC_GLOBAL, KT_NAMED, 0, 0, 0, 0, NULL, add_task_group,
	  "task group NAME = GLOB... (e.g. task group flusher = flush-* kworker/*flush*)" },
	{ "min_effect", SEC_GLOBAL, KT_NAMED, 0, 0, 0, 0, NULL,
	  set_min_effect_of, "min_effect METRIC = PCT (e.g. min_effect read.clat_p99_ns = 5)" },
	{ "max_mde", SEC_GLOBAL, KT_NAMED, 0, 0, 0, 0, NULL, set_max_mde_of,
	  "max_mde METRIC = PCT (e.g. max_mde read.iops = 3)" },
	/* a variant section [NAME] */
	V_FUNC("method", set_method, "local (default), vm or kexec"),
	V_FUNC("release", set_release,
	       "the expected `uname -r` (default: any)"),
	V_FUNC("kernel", set_kernel,
	       "vm/kexec: a bzImage path or URL, or deb:PACKAGE"),
	V_FUNC("initrd", set_initrd, "kexec: an initrd path or URL"),
	V_FUNC("modules", set_modules,
	       "vm: a lib/modules/RELEASE directory or URL"),
	V_FUNC("sha256", set_sha256, "the kernel URL's SHA-256"),
	V_FUNC("cmdline", set_cmdline,
	       "vm/kexec: extra kernel command line (no lone '--', quotes closed)"),
	V_FUNC("memory", set_memory, "vm: guest memory, 128M to 1T (default 1G)"),
	/* 255: QEMU's pc machine, which the guest boots on, takes no more
	 * ("Invalid SMP CPUs 256", QEMU 7.2): refused here, not at boot */
	{ "cpus", SEC_VARIANT, KT_UINT, V_OFF(cpus), 1, 255, 0, NULL, NULL,
	  "vm: vCPUs, 1 to 255 (default 2)" },
	V_FUNC("disk", set_disk, "vm: a host file or block device for the guest's target"),
	{ "boot_timeout", SEC_VARIANT, KT_DURATION, V_OFF(boot_timeout_s), 1, 0,
	  0, NULL, NULL, "vm: seconds from QEMU start to the guest's first run (default 120)" },
	V_ENUM("accel", accel,
	       "vm: auto, kvm or tcg (default: [global]'s)"),
	V_ENUM("guest_root", guest_root,
	       "vm: 9p or initramfs (default: 9p when the kernel has it)"),
	V_ENUM("boot", boot,
	       "vm: auto, pvh or bzimage (default auto: the kernel's PVH entry when it has one)"),
	V_ENUM("module_signatures", module_signatures,
	       "vm: auto or keep (default auto: the guest's modules unsigned when its kernel allows it)"),
};

#define KCONF_NOPTS (sizeof(kconf_opts) / sizeof(kconf_opts[0]))
_Static_assert(sizeof(kconf_opts) / sizeof(kconf_opts[0]) <= KCONF_MAX_OPTS,
	       "raise KCONF_MAX_OPTS");

/* Read val into the place o names. */
static void set_opt(struct parser *p, const struct kconf_opt *o,
		    const char *val)
{
	char *base = o->sec == SEC_GLOBAL ? (char *)p->cfg : (char *)p->var;
	void *field = base + o->offset;

	switch (o->type) {
	case KT_UINT:
		set_uint(p, o->name, val, (unsigned)o->min, (unsigned)o->max,
			 field);
		break;
	case KT_REAL:
		set_real(p, o->name, val, o->min, o->max, o->min_ok, field);
		break;
	case KT_THRESHOLD:
		set_threshold(p, o->name, val, o->max, field);
		break;
	case KT_DURATION:
		set_duration(p, o->name, val, (unsigned)o->min, field);
		break;
	case KT_BOOL:
		if (!strcasecmp(val, "yes") || !strcasecmp(val, "true") ||
		    !strcmp(val, "1"))
			*(int *)field = 1;
		else if (!strcasecmp(val, "no") || !strcasecmp(val, "false") ||
			 !strcmp(val, "0"))
			*(int *)field = 0;
		else
			perr(p, p->line, "%s = '%s': expected yes or no",
			     o->name, val);
		break;
	case KT_STRING:
		free(*(char **)field);
		*(char **)field = kb_xstrdup(val);
		break;
	case KT_ENUM: {
		int v = kconf_word(p, o->name, val, NULL, NULL,
				   enum_words(o->name));

		if (v >= 0)
			*(int *)field = v;
		break;
	}
	case KT_FUNC:
		o->set(p, val);
		break;
	case KT_NAMED:
		break;
	}
}

/* The row of key in section sec (KT_NAMED rows are not keys by
 * themselves), or -1. */
static int find_opt(const char *key, enum section sec)
{
	size_t i;

	for (i = 0; i < KCONF_NOPTS; i++)
		if (kconf_opts[i].sec == sec &&
		    kconf_opts[i].type != KT_NAMED &&
		    !strcmp(kconf_opts[i].name, key))
			return (int)i;
	return -1;
}

/* 1 (said, FILE:LINE, with what the key expects) when the list val of
 * key names nothing ("jobs = , ,") or has an empty item: a comma first
 * or last, or two commas with only blanks between ("jobs = a,"), which
 * strtok_r() would pass over; refused as the command line's lists
 * (kb_list_add_split()) refuse them.  0 when every item has a name, for
 * "" (the caller's "has no value") and when key is no list key. */
static int list_empty_item(struct parser *p, const char *key,
			   const char *val)
{
	const char *c = val, *end;
	const char *where = NULL;
	size_t i;
	int k;

	for (i = 0; kconf_list_keys[i] && strcmp(kconf_list_keys[i], key); i++)
		;
	if (!kconf_list_keys[i] || !*val)
		return 0;
	for (;; c = end + 1) {
		end = c + strcspn(c, ",");
		if (c + strspn(c, " \t") == end)
			where = c == val ? "before the first comma" :
				!*end ? "after the last comma" :
				"between two commas";
		if (where || !*end)
			break;
	}
	if (!val[strspn(val, " \t,")])
		where = NULL;	/* said as no items at all */
	else if (!where)
		return 0;
	k = find_opt(key, SEC_GLOBAL);
	perr(p, p->line,
	     "%s = '%s': %s%s (expected %s%s)", key, val,
	     where ? "an empty item " : "no items, only commas and blanks",
	     where ? where : "",
	     k >= 0 ? kconf_opts[k].help : key,
	     strcmp(key, "baseline") ? ", the items separated by commas or blanks" :
	     "");
	return 1;
}

/* The line where the [global] key was set, 0 when it was not. */
static int global_line(const struct parser *p, const char *key)
{
	int i = find_opt(key, SEC_GLOBAL);

	if (i < 0)
		abort();	/* a name missing from kconf_opts[] */
	return p->seen[i];
}

void kconf_print_keys(FILE *out)
{
	size_t i;

	for (i = 0; i < KCONF_NOPTS; i++) {
		const struct kconf_opt *o = &kconf_opts[i];

		if (i == 0 || o->sec != kconf_opts[i - 1].sec)
			fprintf(out, "%s%s\n", i ? "\n" : "",
				o->sec == SEC_GLOBAL ? "[global]" :
				"[VARIANT] (a variant section)");
		if (o->type == KT_NAMED)	/* its help is its form */
			fprintf(out, "  %s\n", o->help);
		else
			fprintf(out, "  %-24s %s\n", o->name, o->help);
		if (!strcmp(o->name, "hosts") && o->sec == SEC_GLOBAL)
			fprintf(out, "  target@HOST = /dev/DEVICE | file:/PATH "
				"(the target on one load host of hosts =)\n");
	}
	fprintf(out, "\n[job NAME] (a job's own load hosts, NAME one of "
		"jobs =)\n  %-24s %s\n", "hosts",
		"HOST[:PORT] ... (instead of [global]'s hosts = for that job)");
}

static void free_variant(struct kb_variant *v)
{
	free(v->name);
	free(v->method);
	free(v->release);
	free(v->kernel);
	free(v->sha256);
	free(v->initrd);
	free(v->modules);
	free(v->cmdline);
	free(v->disk);
	memset(v, 0, sizeof(*v));
}

static void start_section(struct parser *p, char *s)
{
	struct kb_config *cfg = p->cfg;
	char *end = strchr(s, ']'), *name;
	size_t i;

	for (i = 0; i < KCONF_NOPTS; i++)
		if (kconf_opts[i].sec == SEC_VARIANT)
			p->seen[i] = 0;
	free_variant(&p->scratch);
	p->sec = SEC_VARIANT;
	p->var = &p->scratch;
	if (!end || end[1]) {
		perr(p, p->line, "bad section header '%s' (expected [NAME])",
		     s);
		/* read on as the section it was meant to be, so what
		 * follows is not also called wrong ("no variants" after
		 * "[running") */
		if (!end)
			end = s + strlen(s);
	}
	*end = '\0';
	name = s + 1;
	if (!strncmp(name, "job", 3) && (name[3] == ' ' || name[3] == '\t')) {
		start_job_section(p, kb_trim(name + 4));
		return;
	}
	if (!strcmp(name, "global")) {
		if (p->global_line)
			perr(p, p->line,
			     "duplicate section [global] (first at line %d)",
			     p->global_line);
		else
			p->global_line = p->line;
		p->sec = SEC_GLOBAL;
		return;
	}
	p->variant_headers++;
	if (!valid_dir_name(name)) {
		perr(p, p->line,
		     "bad variant name [%.64s] (expected letters, digits, . _ + -; not . or .., no leading -)",
		     name);
		return;
	}
	if (strlen(name) > KB_CONF_MAX_NAME) {
		/* it names directories (runs/<configuration id>/...) */
		perr(p, p->line,
		     "variant name [%.32s...] is %zu characters: at most %d",
		     name, strlen(name), KB_CONF_MAX_NAME);
		return;
	}
	for (i = 0; i < cfg->nvariants; i++) {
		if (!strcmp(cfg->variants[i].name, name)) {
			perr(p, p->line,
			     "duplicate variant [%s] (first at line %d)", name,
			     cfg->variants[i].line);
			return;
		}
	}
	if (cfg->nvariants == KB_MAX_VARIANTS) {
		if (!p->variants_capped++)
			perr(p, p->line, "too many variants (at most %d; "
			     "this one and those after it refused)",
			     KB_MAX_VARIANTS);
		else
			p->nerrors++;
		return;
	}
	p->var = &cfg->variants[cfg->nvariants++];
	p->var->name = kb_xstrdup(name);
	p->var->line = p->line;
}

/* The names of section sec's keys, for "did you mean" and for the list
 * in "unknown key" ("a, b or c"). */
static size_t opt_names(enum section sec, const char **names)
{
	size_t i, n = 0;

	for (i = 0; i < KCONF_NOPTS; i++)
		if (kconf_opts[i].sec == sec)
			names[n++] = kconf_opts[i].name;
	return n;
}

static int named_in(const char *key, enum section sec)
{
	size_t i;

	for (i = 0; i < KCONF_NOPTS; i++)
		if (kconf_opts[i].sec == sec && !strcmp(kconf_opts[i].name, key))
			return 1;
	return 0;
}

/* After "'KEY' belongs in [global], not in a variant section": when the
 * section's name is [global] misspelt ([globl], [Global]; within two
 * edits, or another case) and no [global] came before it, " ([globl]
 * is read as a variant: did you mean [global]?)", once per section; else
 * "" (a new user's trial: three lines said each key of [globl] belongs
 * in [global], none why). */
static const char *global_typo(struct parser *p)
{
	static char hint[160];
	size_t d = (size_t)-1;
	const char *name = p->var ? p->var->name : NULL;

	if (p->sec != SEC_VARIANT || !name || p->global_line ||
	    p->global_hint == p->var->line ||
	    (strcasecmp(name, "global") && !kb_nearer(name, "global", &d)))
		return "";
	p->global_hint = p->var->line;
	kb_fmt(hint, sizeof(hint), " ([%s] is read as a variant: did you mean "
	       "[global]?)", name);
	return hint;
}

static void unknown_key(struct parser *p, const char *key)
{
	enum section other = p->sec == SEC_GLOBAL ? SEC_VARIANT : SEC_GLOBAL;
	const char *names[KCONF_MAX_OPTS], *hint;
	char list[1024];
	size_t n, i, len = 0;

	if (named_in(key, other)) {
		perr(p, p->line, other == SEC_VARIANT ?
		     "'%s' belongs in a variant section such as [running], not [global]" :
		     "'%s' belongs in [global], not in a variant section%s", key,
		     other == SEC_VARIANT ? "" : global_typo(p));
		return;
	}
	n = opt_names(p->sec, names);
	hint = closest(key, names, n, NULL);
	if (hint) {
		perr(p, p->line, "unknown key '%s' (did you mean '%s'?)", key,
		     hint);
		return;
	}
	if (strchr(key, ' ')) {
		/* a named key misspelt: "tunabel NM" -> "tunable NM" */
		size_t w = strcspn(key, " ");
		char *word = kb_xasprintf("%.*s", (int)w, key);

		hint = closest(word, names, n, NULL);
		free(word);
		if (hint) {
			perr(p, p->line, "unknown key '%s' (did you mean "
			     "'%s%s'?)", key, hint, key + w);
			return;
		}
	}
	list[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < i && strcmp(names[j], names[i]); j++)
			;
		if (j < i)	/* min_effect and min_effect METRIC */
			continue;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					!i ? "" : i + 1 == n ? " or " : ", ",
					names[i]);
		if (len >= sizeof(list))
			break;
	}
	perr(p, p->line, "unknown key '%s' in %s (expected %s)", key,
	     p->sec == SEC_GLOBAL ? "[global]" : "a variant section", list);
}

/* The KT_NAMED row whose word starts key ("tunable NM"): *name is then
 * what follows, trimmed (may be empty).  -1 when none. */
static int find_named(struct parser *p, char *key, char **name)
{
	size_t i, len;

	for (i = 0; i < KCONF_NOPTS; i++) {
		const struct kconf_opt *o = &kconf_opts[i];

		if (o->type != KT_NAMED)
			continue;
		len = strlen(o->name);
		if (strncmp(key, o->name, len) ||
		    (key[len] && key[len] != ' ' && key[len] != '\t'))
			continue;
		if (!key[len] && o->sec == p->sec && find_opt(key, p->sec) >= 0)
			continue;	/* "min_effect = 2": the plain key */
		*name = kb_trim(key + len);
		return (int)i;
	}
	return -1;
}

static void handle_key(struct parser *p, char *key, char *raw)
{
	const struct kconf_opt *o;
	char *val = NULL, *name = NULL;
	int k;

	if (!*key) {
		perr(p, p->line, "missing key before '='");
		return;
	}
	if (p->sec == SEC_NONE) {
		perr(p, p->line,
		     "'%s' is outside any section (put it under [global] or a variant section)",
		     key);
		return;
	}
	if (p->sec == SEC_JOB) {
		job_key(p, key, raw);
		return;
	}
	if (p->sec == SEC_GLOBAL && !strncmp(key, "target@", 7)) {
		host_target_key(p, key + 7, raw);
		return;
	}
	/* Which key, and is it a repeat?  Decided before the value is
	 * looked at, so a bad value does not also cause "no jobs". */
	k = find_named(p, key, &name);
	if (k >= 0) {
		o = &kconf_opts[k];
		if (o->sec != p->sec) {
			perr(p, p->line, "'%s' belongs in [global], not in a "
			     "variant section%s", o->name, global_typo(p));
			return;
		}
		if (!*name) {
			perr(p, p->line, "%s needs a %s: %s", o->name,
			     !strcmp(o->name, "tunable") ? "label" :
			     !strcmp(o->name, "sweep") ?
			     "job parameter name" : "name", o->help);
			return;
		}
	} else {
		k = find_opt(key, p->sec);
		if (k < 0) {
			unknown_key(p, key);
			return;
		}
		o = &kconf_opts[k];
		if (p->seen[k]) {
			perr(p, p->line,
			     "duplicate key '%s' (first set at line %d)", key,
			     p->seen[k]);
			return;
		}
		p->seen[k] = p->line;
	}
	val = expand(p, raw);
	if (!val)
		return;
	if (!*val && o->set == set_release)
		perr(p, p->line,
		     "'release' has no value (remove the line to accept any running kernel)");
	else if (!*val)
		perr(p, p->line, "'%s' has no value", key);
	else if (o->type == KT_NAMED)
		o->set_named(p, name, val);
	else if (!list_empty_item(p, key, val))
		set_opt(p, o, val);
	free(val);
}

static void parse_line(struct parser *p, char *s)
{
	char *eq;

	s = kb_trim(s);
	if (!*s || *s == ';' || *s == '#')
		return;
	strip_comment(s);
	s = kb_trim(s);
	if (*s == '[') {
		start_section(p, s);
		return;
	}
	eq = strchr(s, '=');
	if (!eq) {
		perr(p, p->line,
		     "'%s': expected 'key = value' or '[section]'", s);
		return;
	}
	*eq = '\0';
	handle_key(p, kb_trim(s), kb_trim(eq + 1));
}

/* baseline = VARIANT[,LABEL=VALUE]...: every part must name something
 * defined in the file. */
static void check_baseline(struct parser *p)
{
	struct kb_config *cfg = p->cfg;
	int line = global_line(p, "baseline");
	char *copy, *tok, *save = NULL, *eq;
	size_t i, j;
	int first = 1;

	if (!cfg->baseline)
		return;
	copy = kb_xstrdup(cfg->baseline);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save), first = 0) {
		tok = kb_trim(tok);
		if (first) {
			for (i = 0; i < cfg->nvariants; i++)
				if (!strcmp(cfg->variants[i].name, tok))
					break;
			if (i == cfg->nvariants)
				perr(p, line,
				     "baseline = '%s': no variant [%s] in this file",
				     cfg->baseline, tok);
			continue;
		}
		eq = strchr(tok, '=');
		if (!eq) {
			perr(p, line,
			     "baseline = '%s': '%s' should be LABEL=VALUE (e.g. stock,NM=0)",
			     cfg->baseline, tok);
			continue;
		}
		*eq = '\0';
		for (i = 0; i < cfg->ntunables; i++)
			if (!strcmp(cfg->tunables[i].label, kb_trim(tok)))
				break;
		if (i == cfg->ntunables) {
			perr(p, line, "baseline = '%s': no tunable '%s'",
			     cfg->baseline, kb_trim(tok));
			continue;
		}
		for (j = 0; j < cfg->tunables[i].nvalues; j++)
			if (!strcmp(cfg->tunables[i].values[j], kb_trim(eq + 1)))
				break;
		if (j == cfg->tunables[i].nvalues)
			perr(p, line,
			     "baseline = '%s': '%s' is not one of tunable %s's values",
			     cfg->baseline, kb_trim(eq + 1), cfg->tunables[i].label);
	}
	free(copy);
}

/* The variant keys a method takes: a key another method needs is an
 * error, never silently ignored (a kexec variant's memory = or a local
 * one's cmdline = would do nothing). */
static void method_keys(struct parser *p, const struct kb_variant *v)
{
	enum { LOCAL = 1, VM = 2, KEXEC = 4 };
	const struct {
		const char *key;
		int set, methods;
		const char *why;
	} k[] = {
		{ "kernel", v->kernel != NULL, VM | KEXEC,
		  "; a local variant is the running kernel" },
		{ "initrd", v->initrd != NULL, KEXEC,
		  "; a vm boots kbench's own initramfs" },
		{ "modules", v->modules != NULL, VM,
		  " (the guest's modules; a kexec'd kernel loads the machine's own)" },
		{ "cmdline", v->cmdline != NULL, VM | KEXEC,
		  "; a local variant runs on the command line it booted with" },
		{ "memory", v->memory_mib != 0, VM, " (the guest's)" },
		{ "cpus", v->cpus != 0, VM, " (the guest's)" },
		{ "disk", v->disk != NULL, VM, " (the guest's target)" },
		{ "boot_timeout", v->boot_timeout_s != 0, VM,
		  " (QEMU start to the guest's first run)" },
		{ "accel", v->accel != KB_ACCEL_UNSET, VM,
		  " (QEMU's accelerator)" },
		{ "guest_root", v->guest_root != KB_GUEST_ROOT_AUTO, VM,
		  " (what the guest runs from)" },
		{ "boot", v->boot != KB_VM_BOOT_AUTO, VM,
		  " (how QEMU boots the kernel)" },
		{ "module_signatures",
		  v->module_signatures != KB_VM_MODSIG_AUTO, VM,
		  " (the guest's modules)" },
	};
	int m = !strcmp(v->method, "vm") ? VM :
		!strcmp(v->method, "kexec") ? KEXEC : LOCAL;
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (k[i].set && !(k[i].methods & m))
			perr(p, v->line, "[%s]: %s is for method = %s%s, not "
			     "%s", v->name, k[i].key,
			     k[i].methods == VM ? "vm" :
			     k[i].methods == KEXEC ? "kexec" : "vm or kexec",
			     k[i].why, v->method);
}

static void finish(struct parser *p)
{
	struct kb_config *cfg = p->cfg;
	size_t i;

	cfg->jobs_line = global_line(p, "jobs");
	if (!global_line(p, "jobs"))
		perr(p, p->global_line ? p->global_line : 1,
		     "%s: no jobs: [global] needs jobs = NAME... (profiles/NAME.fio)",
		     p->global_line ? "[global]" : "no [global] section");
	if (!cfg->nvariants && !p->variant_headers)
		perr(p, p->nlines ? p->nlines : 1,
		     "no variants: add a section such as [running] with method = local");
	if (cfg->nprofile && !cfg->profile_runs && !cfg->profile_during_counted)
		perr(p, global_line(p, "profile_runs"),
		     "profile_runs = 0: profile = samples only in the profiling runs (profile_during = profiling-runs, the default), so nothing would be sampled; set profile_runs >= 1, or profile_during = counted-runs to sample during the counted runs");
	if (!cfg->nprofile) {
		int l = global_line(p, "profile_runs") ?:
			global_line(p, "profile_during");

		if (l)
			perr(p, l,
			     "profile_runs and profile_during apply to profile = (no profile = line: nothing is sampled; add profile = cycles, dcm or cycles,dcm)");
	}
	/* a run's limit, runtime + timeout_grace, is an unsigned count of
	 * seconds: past UINT_MAX it wrapped (runtime = 4294967295 killed
	 * every run after 29 s, a break-it trial) */
	if ((unsigned long long)cfg->runtime_s + cfg->timeout_grace_s >
	    UINT_MAX)
		perr(p, global_line(p, "timeout_grace") ?:
		     global_line(p, "runtime"),
		     "runtime = %u s + timeout_grace = %u s is more than %u s, "
		     "the longest run kbench can time: lower them",
		     cfg->runtime_s, cfg->timeout_grace_s, UINT_MAX);
	if (!cfg->iterations_auto) {
		int l = global_line(p, "min_iterations") ?:
			global_line(p, "max_iterations") ?:
			global_line(p, "target_ci_pct") ?:
			global_line(p, "target_metrics");

		int il = global_line(p, "iterations");

		if (l && il)
			perr(p, l,
			     "min_iterations, max_iterations, target_ci_pct and target_metrics apply to iterations = auto (line %d sets iterations = %u)",
			     il, cfg->iterations);
		else if (l)
			perr(p, l,
			     "min_iterations, max_iterations, target_ci_pct and target_metrics apply to iterations = auto (add iterations = auto; the default is iterations = %u)",
			     cfg->iterations);
	} else if (cfg->min_iterations > cfg->max_iterations) {
		perr(p, global_line(p, "max_iterations") ?:
		     global_line(p, "min_iterations"),
		     "min_iterations = %u is more than max_iterations = %u",
		     cfg->min_iterations, cfg->max_iterations);
	} else {
		cfg->iterations = cfg->min_iterations;
	}
	if (cfg->target_metrics) {
		const char *t = cfg->target_metrics, *w;
		size_t n;

		/* list_empty_item() refused one without a name */
		while ((w = next_target_metric(&t, &n))) {
			char *name = kb_xasprintf("%.*s", (int)n, w);

			if (!kb_metric_find(name))
				bad_metric(p, global_line(p, "target_metrics"),
					   "target_metrics:", name);
			free(name);
		}
	}
	for (i = 0; i < cfg->nvariants; i++) {
		struct kb_variant *v = &cfg->variants[i];

		if (!v->method)
			v->method = kb_xstrdup("local");
		if (strcmp(v->method, "local") && !v->kernel)
			perr(p, v->line,
			     "[%s]: method = %s needs kernel = PATH (a bzImage) or kernel = deb:PACKAGE",
			     v->name, v->method);
		method_keys(p, v);
		/* checked only for a download: with a path or deb: kernel it
		 * would do nothing, and was silently ignored */
		if (v->sha256 && (!v->kernel || !is_url(v->kernel)))
			perr(p, v->line,
			     "[%s]: sha256 is for a kernel = URL (http://, https:// or file://), which kbench downloads and checks; %s%s",
			     v->name, v->kernel ? "kernel = " : "this variant has none",
			     v->kernel ? v->kernel : "");
		if (v->accel == KB_ACCEL_UNSET)
			v->accel = cfg->accel;
		if (!v->memory_mib)
			v->memory_mib = 1024;
		if (!v->cpus)
			v->cpus = 2;
		if (!v->boot_timeout_s)
			v->boot_timeout_s = 120;
	}
	if (cfg->target_kind == KB_TARGET_FILE) {
		for (i = 0; i < cfg->ntunables; i++)
			if (cfg->tunables[i].path &&
			    cfg->tunables[i].path[0] != '/')
				perr(p, cfg->tunables[i].line,
				     "tunable %s: relative path '%s' is under /sys/block/<dev>/, which a file: target (line %d) does not have; use a block device or loop:SIZE target",
				     cfg->tunables[i].label,
				     cfg->tunables[i].path,
				     global_line(p, "target"));
	}
	if (cfg->nhosts && (cfg->target_kind == KB_TARGET_LOOP ||
			    cfg->target_kind == KB_TARGET_NULLBLK))
		perr(p, global_line(p, "target") ? global_line(p, "target") :
		     global_line(p, "hosts"),
		     "hosts = runs fio on the load hosts, which need a target they have: a device path or file:PATH, not %s",
		     cfg->target_kind == KB_TARGET_LOOP ?
		     (global_line(p, "target") ? "loop:SIZE" :
		      "the default loop:256M") : "null_blk");
	for (i = 0; cfg->nhosts && i < cfg->nvariants; i++)
		if (cfg->variants[i].method &&
		    !strcmp(cfg->variants[i].method, "vm"))
			perr(p, cfg->variants[i].line,
			     "[%s]: method = vm with hosts = (line %d): the guest runs fio and cannot reach the load hosts; use method = local or kexec",
			     cfg->variants[i].name, global_line(p, "hosts"));
	for (i = 0; cfg->nhosts && i < cfg->ntunables; i++)
		if (cfg->tunables[i].path && cfg->tunables[i].path[0] != '/')
			perr(p, cfg->tunables[i].line,
			     "tunable %s: relative path '%s' is under the target's /sys/block/<dev>/, but with hosts = (line %d) the target is the load hosts' device; give an absolute path of this machine",
			     cfg->tunables[i].label, cfg->tunables[i].path,
			     global_line(p, "hosts"));
	check_job_sections(p);
	check_host_targets(p);
	check_baseline(p);
	kconf_find_profiles(cfg, NULL, NULL);
}

/* The directory part of path, malloc'd: "." without a '/', "/" for
 * "/x". */
static char *parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return kb_xstrdup(".");
	if (slash == path)
		return kb_xstrdup("/");
	return kb_xasprintf("%.*s", (int)(slash - path), path);
}

/* Adds a place unless it is one already (same path, or the same
 * directory once links are resolved); takes dir and source. */
static void add_place(struct kb_config *cfg, char *dir, char *source)
{
	char a[PATH_MAX], b[PATH_MAX];
	size_t i;

	for (i = 0; i < cfg->nprofiles_places; i++) {
		const char *o = cfg->profiles_places[i].dir;

		if (!strcmp(o, dir) || (realpath(o, a) && realpath(dir, b) &&
					!strcmp(a, b))) {
			free(dir);
			free(source);
			return;
		}
	}
	if (cfg->nprofiles_places == KB_MAX_PROFILE_PLACES) {
		free(dir);
		free(source);
		return;
	}
	cfg->profiles_places[cfg->nprofiles_places].dir = dir;
	cfg->profiles_places[cfg->nprofiles_places++].source = source;
}

/* The profiles directory beside the binary exe, or NULL: for
 * PREFIX/bin/kbench, PREFIX/share/kbench/profiles; for a binary in a
 * checkout (its root, build/, build/san/, build/X/tests/), the checkout's
 * profiles/. */
static char *beside_binary(const char *exe)
{
	char *d = parent_dir(exe), *up, *ret = NULL;
	const char *base = strrchr(d, '/');
	int level;

	if (!strcmp(base ? base + 1 : d, "bin")) {
		up = parent_dir(d);
		ret = kb_path_join(up, "share/kbench/profiles");
		free(up);
		free(d);
		return ret;
	}
	for (level = 0; level < 4 && !ret; level++) {
		char *src = kb_path_join(d, "kbench.c");
		char *prof = kb_path_join(d, "profiles");

		if (kb_exists(src) && kb_is_dir(prof))
			ret = prof;
		else
			free(prof);
		free(src);
		if (!strcmp(d, "/") || !strcmp(d, "."))
			break;
		up = parent_dir(d);
		free(d);
		d = up;
	}
	free(d);
	return ret;
}

static void free_places(struct kb_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nprofiles_places; i++) {
		free(cfg->profiles_places[i].dir);
		free(cfg->profiles_places[i].source);
	}
	cfg->nprofiles_places = 0;
}

void kconf_find_profiles(struct kb_config *cfg, const char *exe,
			 const char *prefix)
{
	const char *env = getenv("KBENCH_PROFILES");
	const char *slash = cfg->path ? strrchr(cfg->path, '/') : NULL;
	char *self = NULL, *dir;
	size_t i;

	free_places(cfg);
	if (cfg->profiles_line && cfg->profiles_dir) {
		add_place(cfg, kb_xstrdup(cfg->profiles_dir),
			  kb_xasprintf("profiles = in %s, line %d", cfg->path,
				       cfg->profiles_line));
		return;
	}
	free(cfg->profiles_dir);
	cfg->profiles_dir = NULL;
	if (env && *env) {
		add_place(cfg, kb_xstrdup(env),
			  kb_xstrdup("the environment variable KBENCH_PROFILES"));
		cfg->profiles_dir = kb_xstrdup(env);
		return;
	}
	if (slash) {
		char *cd = parent_dir(cfg->path);

		dir = kb_path_join(cd, "profiles");
		free(cd);
	} else {
		dir = kb_xstrdup("profiles");
	}
	add_place(cfg, dir, kb_xasprintf("next to %s",
					 cfg->path ? cfg->path : "kernels.conf"));
	if (!exe)
		exe = self = kb_self_exe();
	if (exe && (dir = beside_binary(exe)))
		add_place(cfg, dir, kb_xasprintf("beside the binary %s", exe));
	if (!prefix)
		prefix = KBENCH_PREFIX;
	add_place(cfg, kb_path_join(prefix, "share/kbench/profiles"),
		  kb_xasprintf("the install prefix %s", prefix));
	free(self);
	for (i = 0; i < cfg->nprofiles_places; i++)
		if (kb_is_dir(cfg->profiles_places[i].dir))
			break;
	if (i == cfg->nprofiles_places)
		i = 0;
	cfg->profiles_dir = kb_xstrdup(cfg->profiles_places[i].dir);
}

/* The job of dir (NAME.fio files) within 2 edits of job, malloc'd, or
 * NULL (the first in name order among the nearest); *jobs = their names,
 * ", "-joined in name order (scandir(3) with alphasort: the same list on
 * every file system; at most 20, then "..."), malloc'd, or NULL when
 * there are none. */
static char *job_near(const char *dir, const char *job, char **jobs)
{
	struct dirent **ents = NULL;
	char *best = NULL, *list = NULL, *t, *name;
	size_t bestd = (size_t)-1, n = 0, len;
	int i, nents = scandir(dir, &ents, NULL, alphasort);

	*jobs = NULL;
	for (i = 0; i < nents; i++) {
		name = ents[i]->d_name;
		len = strlen(name);
		if (len <= 4 || strcmp(name + len - 4, ".fio") ||
		    name[0] == '.')
			continue;
		name[len - 4] = '\0';
		if (n++ < 20) {
			t = kb_xasprintf("%s%s%s", list ? list : "",
					 list ? ", " : "", name);
			free(list);
			list = t;
		} else if (n == 21) {
			t = kb_xasprintf("%s, ...", list);
			free(list);
			list = t;
		}
		if (kb_nearer(job, name, &bestd)) {
			free(best);
			best = kb_xstrdup(name);
		}
	}
	for (i = 0; i < nents; i++)
		free(ents[i]);
	free(ents);
	*jobs = list;
	return best;
}

char *kconf_profiles_help(const struct kb_config *cfg, const char *job)
{
	char *out = kb_xstrdup("  looked in, in this order:\n"), *t;
	const char *holder = NULL;
	size_t i;

	for (i = 0; i < cfg->nprofiles_places; i++) {
		const struct kb_profiles_place *pl = &cfg->profiles_places[i];
		char *f = kb_xasprintf("%s/%s.fio", pl->dir, job);
		const char *what = !kb_is_dir(pl->dir) ? "no such directory" :
			kb_exists(f) ? "has it" : "no such file";
		int used = cfg->profiles_dir &&
			!strcmp(cfg->profiles_dir, pl->dir);

		if (kb_exists(f) && !holder)
			holder = pl->dir;
		t = kb_xasprintf("%s    %s (%s): %s%s\n", out, f, pl->source,
				 what, used ? " [used]" : "");
		free(out);
		out = t;
		free(f);
	}
	/* a typo of a job the used directory has: say which, not where
	 * else to look */
	if (!holder && cfg->profiles_dir) {
		char *jobs = NULL, *hint = job_near(cfg->profiles_dir, job,
						    &jobs);

		if (hint) {
			t = kb_xasprintf("%s  did you mean '%s'? (%s/%s.fio; "
					 "the jobs there: %s)\n  fix: jobs = "
					 "%s in %s\n", out, hint,
					 cfg->profiles_dir, hint, jobs, hint,
					 cfg->path ? cfg->path : "kernels.conf");
			free(out);
			free(hint);
			free(jobs);
			return t;
		}
		if (jobs) {
			t = kb_xasprintf("%s  the jobs in %s: %s\n", out,
					 cfg->profiles_dir, jobs);
			free(out);
			out = t;
		}
		free(jobs);
	}
	t = kb_xasprintf("%s  fix: in [global] of %s, set profiles = DIR "
			 "(relative to the conf's directory), or set "
			 "KBENCH_PROFILES=DIR, to the directory holding %s.fio%s%s"
			 "\n", out, cfg->path ? cfg->path : "kernels.conf",
			 job, holder ? ", e.g. profiles = " : "",
			 holder ? holder : "");
	free(out);
	return t;
}

int kconf_parse(const char *name, const char *text, struct kb_config *cfg)
{
	struct parser p = { .name = name, .cfg = cfg };
	char *buf, *line, *next;
	const char *slash;
	int ret = 0, toolong = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->path = kb_xstrdup(name);
	cfg->iterations = 3;
	cfg->alpha = 0.05;
	cfg->min_effect_pct = 1.0;
	cfg->max_mde_pct = 5.0;
	cfg->min_iterations = 3;
	cfg->max_iterations = 10;
	cfg->target_ci_pct = 1.0;
	cfg->warmup = 1;
	cfg->profile_runs = 1;
	cfg->runtime_s = 60;
	cfg->timeout_grace_s = 30;
	cfg->kvm_probe_timeout_s = 20;
	cfg->disturbed_other_cpu_pct = 40.0;	/* stats/disturbed.h */
	cfg->disturbed_steal_pct = 5.0;
	cfg->disturbed_psi_pct = 40.0;
	cfg->disturbed_idle_fraction = 0.5;
	cfg->retry_disturbed = 1;
	cfg->retry_quiet_wait_s = KB_RETRY_QUIET_WAIT_DEFAULT_S;
	cfg->order = KB_ORDER_INTERLEAVE;
	cfg->drop_caches = KB_DROP_PAGECACHE;
	cfg->seed = 1;
	cfg->target_kind = KB_TARGET_LOOP;
	cfg->loop_size_bytes = KB_DEFAULT_LOOP_SIZE;

	slash = strrchr(name, '/');
	if (slash)
		p.dir = slash == name ? kb_xstrdup("/") :
			kb_xasprintf("%.*s", (int)(slash - name), name);

	buf = kb_xstrdup(text);
	line = buf;
	if (!strncmp(line, "\xef\xbb\xbf", 3))	/* UTF-8 byte order mark */
		line += 3;
	while (line) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!next && !*line)
			break;	/* the text ended with a newline */
		p.line = ++p.nlines;
		if (strlen(line) > KB_CONF_MAX_LINE) {
			/* never echoed: a 1 MB value would be printed twice */
			perr(&p, p.line, "line of %zu bytes: at most %d (a "
			     "kernels.conf line is a key = value)",
			     strlen(line), KB_CONF_MAX_LINE);
			/* not a kernels.conf: nothing more is said of it
			 * (the lost line's section or key made every
			 * later line an error: "[global]: no jobs") */
			toolong = 1;
			break;
		}
		parse_line(&p, line);
		line = next;
	}
	if (!toolong)
		finish(&p);
	if (p.nerrors) {
		kconf_free(cfg);
		ret = -EINVAL;
	}
	free_variant(&p.scratch);
	free_job_hosts(&p.jscratch);
	free(buf);
	free(p.dir);
	return ret;
}

int kconf_load(const char *path, struct kb_config *cfg)
{
	char *text = NULL, *nul;
	size_t len = 0;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	{
		/* -c DIR: a campaign given for its kernels.conf */
		struct stat st;
		char *cj;

		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			cj = kb_path_join(path, "campaign.json");
			if (kb_exists(cj))
				kb_error("%s: a campaign directory, not a "
					 "kernels.conf (-c); give it with -o "
					 "%s (it keeps its own kernels.conf)",
					 path, path);
			else
				kb_error("%s: a directory, not a kernels.conf "
					 "file (-c)", path);
			free(cj);
			return -EISDIR;
		}
	}
	ret = kb_read_file(path, &text, &len, 0);
	if (ret)
		goto out;
	nul = memchr(text, '\0', len);
	if (nul) {
		/* the parse would stop there, silently dropping the rest */
		size_t i;
		int line = 1;

		for (i = 0; text + i < nul; i++)
			line += text[i] == '\n';
		kb_error("%s:%d: a NUL byte: kernels.conf is text (is this the "
			 "right file?)", path, line);
		ret = -EINVAL;
		goto out;
	}
	ret = kconf_parse(path, text, cfg);
out:
	free(text);
	return ret;
}

int kconf_target_metric(const struct kb_config *cfg, const char *metric)
{
	const char *t = cfg->target_metrics, *w;
	size_t n, l;

	if (!t)
		return 1;
	if (!metric || !*metric)
		return 0;
	n = strlen(metric);
	while ((w = next_target_metric(&t, &l)))
		if (l == n && !strncmp(w, metric, n))
			return 1;
	return 0;
}

void kconf_free(struct kb_config *cfg)
{
	size_t i, j;

	if (!cfg)
		return;
	free(cfg->path);
	for (i = 0; i < cfg->njobs; i++)
		free(cfg->jobs[i]);
	free(cfg->target);
	free(cfg->nullblk_params);
	free(cfg->baseline);
	free(cfg->target_metrics);
	for (i = 0; i < cfg->nmin_effects; i++)
		free(cfg->min_effects[i].metric);
	for (i = 0; i < cfg->nmax_mdes; i++)
		free(cfg->max_mdes[i].metric);
	free(cfg->profiles_dir);
	free_places(cfg);
	free(cfg->push_url);
	free(cfg->calibration);
	for (i = 0; i < cfg->nlayouts; i++)
		free(cfg->layouts[i]);
	for (i = 0; i < cfg->nhosts; i++)
		free(cfg->hosts[i]);
	for (i = 0; i < cfg->njob_hosts; i++)
		free_job_hosts(&cfg->job_hosts[i]);
	for (i = 0; i < cfg->nhost_targets; i++) {
		free(cfg->host_targets[i].host);
		free(cfg->host_targets[i].path);
	}
	for (i = 0; i < cfg->nprofile; i++)
		free(cfg->profile[i]);
	for (i = 0; i < cfg->ntask_groups; i++) {
		free(cfg->task_groups[i].name);
		free(cfg->task_groups[i].patterns);
	}
	for (i = 0; i < cfg->ntunables; i++) {
		free(cfg->tunables[i].label);
		free(cfg->tunables[i].path);
		for (j = 0; j < cfg->tunables[i].nvalues; j++)
			free(cfg->tunables[i].values[j]);
	}
	for (i = 0; i < cfg->nvariants; i++)
		free_variant(&cfg->variants[i]);
	memset(cfg, 0, sizeof(*cfg));
}

/* reports/builder.c's layouts but pivot (it needs --rows and --cols);
 * tests/test_layout.c checks the two lists agree. */
const char *const kconf_layout_names[] = { "variants", "profile", "time",
	"rounds", "scaling", "mmtests", "lkp", NULL };

enum kb_accel kb_accel_from_name(const char *s)
{
	int v = s ? word_value(accel_words, s) : -1;

	return v < 0 ? KB_ACCEL_UNSET : (enum kb_accel)v;
}

const char *kb_accel_name(enum kb_accel a)
{
	const struct kconf_word *w;

	for (w = accel_words; w->word; w++)
		if (w->value == (int)a)
			return w->word;
	return "auto";
}
