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
#include <sys/stat.h>

/* The Makefile's PREFIX (make install): -DKBENCH_PREFIX='"/usr"' */
#ifndef KBENCH_PREFIX
#define KBENCH_PREFIX "/usr/local"
#endif

#define KB_DEFAULT_LOOP_SIZE (256ULL << 20)
#define KB_CONF_MAX_LINE 4096	/* bytes of one kernels.conf line */
#define KB_CONF_MAX_NAME 64	/* a variant name, a tunable label */
#define KB_MIN_LOOP_SIZE (16ULL << 20)

enum section { SEC_NONE, SEC_GLOBAL, SEC_VARIANT };

enum gkey {
	GK_JOBS, GK_ITERATIONS, GK_WARMUP, GK_RUNTIME, GK_ORDER, GK_SEED,
	GK_TARGET, GK_BASELINE, GK_TIMEOUT_GRACE, GK_PROFILES, GK_PROFILE,
	GK_PUSH, GK_ALPHA, GK_MIN_EFFECT, GK_MAX_MDE, GK_MIN_ITERATIONS,
	GK_MAX_ITERATIONS, GK_TARGET_CI_PCT, GK_LAYOUTS, GK_ACCEL,
	GK_KVM_PROBE_TIMEOUT, GK_ALLOW_PAGE_CACHE, GK_DISTURBED_OTHER,
	GK_DISTURBED_STEAL, GK_DISTURBED_PSI, GK_DISTURBED_IDLE,
	GK_RETRY_DISTURBED, GK_HOSTS, GK_CALIBRATION, GK_NR
};

static const char *const gkey_names[GK_NR] = {
	[GK_JOBS] = "jobs",
	[GK_ITERATIONS] = "iterations",
	[GK_WARMUP] = "warmup",
	[GK_RUNTIME] = "runtime",
	[GK_ORDER] = "order",
	[GK_SEED] = "seed",
	[GK_TARGET] = "target",
	[GK_BASELINE] = "baseline",
	[GK_TIMEOUT_GRACE] = "timeout_grace",
	[GK_PROFILES] = "profiles",
	[GK_PUSH] = "push",
	[GK_PROFILE] = "profile",
	[GK_ALPHA] = "alpha",
	[GK_MIN_EFFECT] = "min_effect",
	[GK_MAX_MDE] = "max_mde",
	[GK_MIN_ITERATIONS] = "min_iterations",
	[GK_MAX_ITERATIONS] = "max_iterations",
	[GK_TARGET_CI_PCT] = "target_ci_pct",
	[GK_LAYOUTS] = "layouts",
	[GK_ACCEL] = "accel",
	[GK_KVM_PROBE_TIMEOUT] = "kvm_probe_timeout",
	[GK_ALLOW_PAGE_CACHE] = "allow_page_cache",
	[GK_DISTURBED_OTHER] = "disturbed_other_cpu_pct",
	[GK_DISTURBED_STEAL] = "disturbed_steal_pct",
	[GK_DISTURBED_PSI] = "disturbed_psi_pct",
	[GK_DISTURBED_IDLE] = "disturbed_idle_fraction",
	[GK_RETRY_DISTURBED] = "retry_disturbed",
	[GK_HOSTS] = "hosts",
	[GK_CALIBRATION] = "calibration",
};

enum vkey {
	VK_METHOD, VK_RELEASE, VK_KERNEL, VK_INITRD, VK_MODULES, VK_CMDLINE,
	VK_MEMORY, VK_CPUS, VK_DISK, VK_BOOT_TIMEOUT, VK_SHA256, VK_ACCEL, VK_GUEST_ROOT,
	VK_NR
};

static const char *const vkey_names[VK_NR] = {
	[VK_METHOD] = "method",
	[VK_RELEASE] = "release",
	[VK_KERNEL] = "kernel",
	[VK_INITRD] = "initrd",
	[VK_MODULES] = "modules",
	[VK_SHA256] = "sha256",
	[VK_CMDLINE] = "cmdline",
	[VK_MEMORY] = "memory",
	[VK_CPUS] = "cpus",
	[VK_DISK] = "disk",
	[VK_BOOT_TIMEOUT] = "boot_timeout",
	[VK_ACCEL] = "accel",
	[VK_GUEST_ROOT] = "guest_root",
};

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
	int global_line;	/* line of the first [global], 0 = none */
	int gseen[GK_NR];	/* line where each [global] key was set */
	int vseen[VK_NR];	/* same for the current variant */
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

/* Levenshtein distance, for "did you mean"; names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64], prev, tmp;

	if (lb >= sizeof(row) / sizeof(row[0]) || la >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

static const char *closest(const char *key, const char *const *names,
			   size_t n, const char *extra)
{
	const char *best = NULL;
	size_t d, bestd = 3;	/* suggest only within 2 edits */
	size_t i;

	for (i = 0; i < n; i++) {
		d = edit_distance(key, names[i]);
		if (d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	if (extra) {
		d = edit_distance(key, extra);
		if (d < bestd)
			best = extra;
	}
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

/* Strict unsigned decimal: digits only, no sign, no overflow past max. */
static int parse_ull(const char *s, unsigned long long max,
		     unsigned long long *out, const char **rest)
{
	unsigned long long v = 0;
	const char *c = s;

	if (!isdigit((unsigned char)*c))
		return -EINVAL;
	for (; isdigit((unsigned char)*c); c++) {
		unsigned d = *c - '0';

		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (rest)
		*rest = c;
	else if (*c)
		return -EINVAL;
	*out = v;
	return 0;
}

int kconf_parse_size(const char *s, unsigned long long *bytes)
{
	static const char units[] = "kmgtp";
	unsigned long long v, mult = 1;
	const char *rest, *u;

	if (!s || parse_ull(s, ULLONG_MAX, &v, &rest))
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

	if (parse_ull(s, UINT_MAX, &v, &rest))
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
	if (path[0] == '/')
		return kb_xstrdup(path);
	if (!p->dir)	/* never a word that a program takes for an option */
		return path[0] == '-' ? kb_xasprintf("./%s", path) :
		       kb_xstrdup(path);
	return kb_path_join(p->dir, path);
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
	size_t i, len, ntok = 0;

	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		ntok++;
		len = strlen(tok);
		if (len > 4 && !strcmp(tok + len - 4, ".fio"))
			tok[len - 4] = '\0';
		if (!valid_name(tok, "._+-")) {
			perr(p, p->line,
			     "jobs: bad job name '%s' (expected the NAME of profiles/NAME.fio: letters, digits, . _ + -)",
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
	if (!ntok)
		perr(p, p->line,
		     "jobs: no job names (expected e.g. jobs = randread-4k)");
	free(copy);
}

static void set_uint(struct parser *p, const char *key, const char *val,
		     unsigned min, unsigned *out)
{
	unsigned long long v;

	if (parse_ull(val, UINT_MAX, &v, NULL) || v < min) {
		perr(p, p->line, "%s = '%s': expected a whole number >= %u",
		     key, val, min);
		return;
	}
	*out = (unsigned)v;
}

/* A number in (lo, hi] (or [lo, hi] with lo_ok), an optional '%'. */
static void set_real(struct parser *p, const char *key, const char *val,
		     double lo, double hi, int lo_ok, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (end != val && *end == '%')
		end++;
	if (end == val || *end || errno || !isfinite(v) || v > hi ||
	    v < lo || (v == lo && !lo_ok)) {
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
		perr(p, p->line,
		     "%s %s: no such metric (names look like read.iops, write.clat_p99_ns; see lib/metrics.c)",
		     key, metric);
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
	set_real(p, key, val, 0.0, 1000.0, 1, &m->pct);
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
		     "%s = '%s': expected seconds >= %u (e.g. 60, 30s, 2m)",
		     key, val, min);
		return;
	}
	*out = v;
}

/* accel = auto | kvm | tcg (runner/accel.h) */
static void set_accel(struct parser *p, const char *val, enum kb_accel *out)
{
	enum kb_accel a = kb_accel_from_name(val);

	if (a == KB_ACCEL_UNSET)
		perr(p, p->line,
		     "accel = '%s': expected auto, kvm or tcg", val);
	else
		*out = a;
}

static void set_target(struct parser *p, const char *val)
{
	struct kb_config *cfg = p->cfg;
	unsigned long long size;

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
		perr(p, p->line,
		     "target = '%s': expected a block device (/dev/...), loop:SIZE or file:PATH (or null_blk: PARAMS)",
		     val);
	}
}

static void set_order(struct parser *p, const char *val)
{
	if (!strcmp(val, "interleave"))
		p->cfg->order = KB_ORDER_INTERLEAVE;
	else if (!strcmp(val, "block"))
		p->cfg->order = KB_ORDER_BLOCK;
	else if (!strcmp(val, "random"))
		p->cfg->order = KB_ORDER_RANDOM;
	else
		perr(p, p->line,
		     "order = '%s': expected interleave, block or random", val);
}

/* "profile = cycles,dcm": the events runner/collect_profile.c samples. */
static void set_profile(struct parser *p, const char *val)
{
	char *copy = kb_xstrdup(val), *tok, *save = NULL;

	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		if (strcmp(tok, "cycles") && strcmp(tok, "dcm"))
			perr(p, p->line,
			     "profile = '%s': unknown event '%s' (expected cycles and/or dcm, e.g. profile = cycles,dcm)",
			     val, tok);
		else if (p->cfg->nprofile < KB_MAX_PROFILE_EVENTS)
			p->cfg->profile[p->cfg->nprofile++] = kb_xstrdup(tok);
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
 * runs fio --client=HOST,PORT for each).  HOST: an IPv4 address or a host
 * name (letters, digits, '-', '.', not starting with '-' or '.'); PORT:
 * 1..65535, default fio's 8765.  Nothing option-like reaches fio's argv. */
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

static void set_hosts(struct parser *p, const char *val)
{
	struct kb_config *cfg = p->cfg;
	char *copy = kb_xstrdup(val), *tok, *save = NULL;
	size_t i;

	for (i = 0; i < cfg->nhosts; i++)
		free(cfg->hosts[i]);
	cfg->nhosts = 0;
	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		char *colon = strchr(tok, ':'), *end;
		unsigned long port = KB_FIO_SERVER_PORT;

		if (colon) {
			*colon = '\0';
			errno = 0;
			port = strtoul(colon + 1, &end, 10);
			if (!isdigit((unsigned char)colon[1]) || *end ||
			    errno || port < 1 || port > 65535) {
				perr(p, p->line,
				     "hosts: '%s:%s': the port must be 1..65535",
				     tok, colon + 1);
				continue;
			}
		}
		if (!host_name_ok(tok)) {
			perr(p, p->line,
			     "hosts: '%s' is not a host name or IPv4 address (expected HOST[:PORT], e.g. load1 or 10.0.0.2:8765)",
			     tok);
			continue;
		}
		for (i = 0; i < cfg->nhosts; i++)
			if (!strcmp(cfg->hosts[i], tok) &&
			    cfg->host_ports[i] == port)
				break;
		if (i < cfg->nhosts) {
			perr(p, p->line, "hosts: '%s' is given twice", tok);
			continue;
		}
		if (cfg->nhosts == KB_MAX_HOSTS) {
			perr(p, p->line, "hosts: at most %d", KB_MAX_HOSTS);
			break;
		}
		cfg->host_ports[cfg->nhosts] = (unsigned)port;
		cfg->hosts[cfg->nhosts++] = kb_xstrdup(tok);
	}
	if (!val[strspn(val, " \t,")])
		perr(p, p->line, "hosts: no host given (HOST[:PORT] ...)");
	free(copy);
}

static void set_global(struct parser *p, enum gkey k, const char *val)
{
	struct kb_config *cfg = p->cfg;
	unsigned long long v;

	switch (k) {
	case GK_JOBS:
		set_jobs(p, val);
		break;
	case GK_ITERATIONS:
		if (!strcmp(val, "auto"))
			cfg->iterations_auto = 1;
		else
			set_uint(p, "iterations", val, 1, &cfg->iterations);
		break;
	case GK_ALPHA:
		set_real(p, "alpha", val, 0.0, 0.5, 0, &cfg->alpha);
		break;
	case GK_MIN_EFFECT:
		set_real(p, "min_effect", val, 0.0, 1000.0, 1,
			 &cfg->min_effect_pct);
		break;
	case GK_MAX_MDE:
		set_real(p, "max_mde", val, 0.0, 1000.0, 1,
			 &cfg->max_mde_pct);
		break;
	case GK_MIN_ITERATIONS:
		set_uint(p, "min_iterations", val, 2, &cfg->min_iterations);
		break;
	case GK_MAX_ITERATIONS:
		set_uint(p, "max_iterations", val, 2, &cfg->max_iterations);
		break;
	case GK_TARGET_CI_PCT:
		set_real(p, "target_ci_pct", val, 0.0, 100.0, 0,
			 &cfg->target_ci_pct);
		break;
	case GK_WARMUP:
		set_uint(p, "warmup", val, 0, &cfg->warmup);
		break;
	case GK_RUNTIME:
		set_duration(p, "runtime", val, 1, &cfg->runtime_s);
		break;
	case GK_TIMEOUT_GRACE:
		set_duration(p, "timeout_grace", val, 0,
			     &cfg->timeout_grace_s);
		break;
	case GK_ORDER:
		set_order(p, val);
		break;
	case GK_SEED:
		if (parse_ull(val, ULONG_MAX, &v, NULL))
			perr(p, p->line,
			     "seed = '%s': expected a whole number >= 0", val);
		else
			cfg->seed = (unsigned long)v;
		break;
	case GK_TARGET:
		set_target(p, val);
		break;
	case GK_BASELINE:
		cfg->baseline = kb_xstrdup(val);
		break;
	case GK_PROFILES:
		cfg->profiles_dir = conf_relative(p, val);
		cfg->profiles_line = p->line;
		break;
	case GK_CALIBRATION:	/* read by runner/calibrate.h */
		cfg->calibration = conf_relative(p, val);
		cfg->calibration_line = p->line;
		break;
	case GK_PROFILE:
		set_profile(p, val);
		break;
	case GK_PUSH:	/* checked fully by push_url_check() at push time */
		if (strchr(val, '@'))	/* never echo credentials */
			perr(p, p->line,
			     "push: the URL holds credentials (user@host); remove them and set KBENCH_PUSH_TOKEN, KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD or a ~/.netrc entry");
		else if ((strncmp(val, "http://", 7) &&
			  strncmp(val, "https://", 8)) || strpbrk(val, " \t"))
			perr(p, p->line,
			     "push = '%s': expected an http:// or https:// URL without credentials (e.g. http://127.0.0.1:8086/write?db=kbench; credentials go in KBENCH_PUSH_TOKEN, KBENCH_PUSH_USER/KBENCH_PUSH_PASSWORD or ~/.netrc)",
			     val);
		else
			cfg->push_url = kb_xstrdup(val);
		break;
	case GK_ACCEL:
		set_accel(p, val, &cfg->accel);
		break;
	case GK_KVM_PROBE_TIMEOUT:
		set_duration(p, "kvm_probe_timeout", val, 1,
			     &cfg->kvm_probe_timeout_s);
		break;
	case GK_ALLOW_PAGE_CACHE:
		if (!strcasecmp(val, "yes") || !strcasecmp(val, "true") ||
		    !strcmp(val, "1"))
			cfg->allow_page_cache = 1;
		else if (!strcasecmp(val, "no") || !strcasecmp(val, "false") ||
			 !strcmp(val, "0"))
			cfg->allow_page_cache = 0;
		else
			perr(p, p->line,
			     "allow_page_cache = '%s': expected yes or no",
			     val);
		break;
	/* disturbed runs (stats/disturbed.h): a threshold or "off" */
	case GK_DISTURBED_OTHER:
		set_threshold(p, gkey_names[k], val, 1000000.0,
			      &cfg->disturbed_other_cpu_pct);
		break;
	case GK_DISTURBED_STEAL:
		set_threshold(p, gkey_names[k], val, 100.0,
			      &cfg->disturbed_steal_pct);
		break;
	case GK_DISTURBED_PSI:
		set_threshold(p, gkey_names[k], val, 100.0,
			      &cfg->disturbed_psi_pct);
		break;
	case GK_DISTURBED_IDLE:
		set_threshold(p, gkey_names[k], val, 1.0,
			      &cfg->disturbed_idle_fraction);
		break;
	case GK_RETRY_DISTURBED:
		set_uint(p, "retry_disturbed", val, 0, &cfg->retry_disturbed);
		break;
	case GK_HOSTS:
		set_hosts(p, val);
		break;
	case GK_LAYOUTS: {
		const char *const *known = kconf_layout_names;
		char *copy = kb_xstrdup(val), *tok, *save = NULL;
		size_t li;

		for (tok = strtok_r(copy, " \t,", &save); tok;
		     tok = strtok_r(NULL, " \t,", &save)) {
			for (li = 0; known[li] && strcmp(known[li], tok); li++)
				;
			if (!known[li])
				perr(p, p->line,
				     "layouts: unknown layout '%s' (expected variants, profile, time, rounds, scaling, mmtests or lkp)",
				     tok);
			else if (cfg->nlayouts == KB_MAX_LAYOUTS)
				perr(p, p->line, "layouts: at most %d",
				     KB_MAX_LAYOUTS);
			else
				cfg->layouts[cfg->nlayouts++] = kb_xstrdup(tok);
		}
		free(copy);
		break;
	}
	case GK_NR:
		break;
	}
}

/* "tunable LABEL = PATH: V1 V2 ..."; label is the text after "tunable".
 * With sweep: "sweep NAME = V1 V2 ..." (no path). */
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
values:
	t = &cfg->tunables[cfg->ntunables];
	for (tok = strtok_r(vals, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
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

/* 1 for the URLs push/fetch.h downloads (http, https, file) */
static int is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8) ||
	       !strncmp(s, "file://", 7);
}

static void set_variant(struct parser *p, enum vkey k, const char *val)
{
	struct kb_variant *v = p->var;
	const char *c;

	switch (k) {
	case VK_METHOD:
		if (!strcmp(val, "local") || !strcmp(val, "vm") ||
		    !strcmp(val, "kexec")) {
			free(v->method);
			v->method = kb_xstrdup(val);
		} else {
			perr(p, p->line,
			     "unknown method '%s' (expected local, vm or kexec)",
			     val);
		}
		break;
	case VK_RELEASE:
		for (c = val; *c; c++)
			if (isspace((unsigned char)*c))
				break;
		if (*c) {
			perr(p, p->line,
			     "release = '%s': expected one `uname -r` string, without blanks",
			     val);
			break;
		}
		v->release = kb_xstrdup(val);
		break;
	case VK_KERNEL:
		/* a package name or glob (Debian policy 5.6.1: lower case
		 * letters, digits, + - .; starting with an alphanumeric):
		 * never an option of apt-get */
		if (!strncmp(val, "deb:", 4) &&
		    (!valid_name(val + 4, ".+-*?[]") ||
		     !isalnum((unsigned char)val[4]))) {
			perr(p, p->line,
			     "kernel = '%s': expected a bzImage path or deb:PACKAGE (e.g. deb:linux-image-amd64, deb:linux-image-6.12-amd64, or a glob such as deb:linux-image-6.12.*+deb12-amd64)",
			     val);
			break;
		}
		v->kernel = strncmp(val, "deb:", 4) && !is_url(val) ?
			    conf_relative(p, val) : kb_xstrdup(val);
		break;
	case VK_SHA256: {
		size_t h;

		for (h = 0; val[h] && isxdigit((unsigned char)val[h]); h++)
			;
		if (h != 64 || val[h])
			perr(p, p->line,
			     "sha256 = '%s': expected 64 hexadecimal digits (the output of sha256sum FILE)",
			     val);
		else
			v->sha256 = kb_xstrdup(val);
		break;
	}
	case VK_INITRD:
		v->initrd = is_url(val) ? kb_xstrdup(val) : conf_relative(p, val);
		break;
	case VK_MODULES:
		v->modules = is_url(val) ? kb_xstrdup(val) :
			     conf_relative(p, val);
		break;
	case VK_CMDLINE:
		v->cmdline = kb_xstrdup(val);
		break;
	case VK_DISK:
		v->disk = conf_relative(p, val);
		break;
	case VK_MEMORY: {
		unsigned long long b;

		if (kconf_parse_size(val, &b) || b < (128ULL << 20) ||
		    b > (1ULL << 40)) {
			perr(p, p->line,
			     "memory = '%s': expected a size from 128M to 1T (e.g. 1G; a bare number is bytes)",
			     val);
			break;
		}
		v->memory_mib = (unsigned)(b >> 20);
		break;
	}
	case VK_CPUS:
		set_uint(p, "cpus", val, 1, &v->cpus);
		break;
	case VK_BOOT_TIMEOUT:
		set_duration(p, "boot_timeout", val, 1, &v->boot_timeout_s);
		break;
	case VK_ACCEL:
		set_accel(p, val, &v->accel);
		break;
	case VK_GUEST_ROOT:
		if (!strcmp(val, "9p"))
			v->guest_root = KB_GUEST_ROOT_9P;
		else if (!strcmp(val, "initramfs"))
			v->guest_root = KB_GUEST_ROOT_INITRAMFS;
		else
			perr(p, p->line,
			     "guest_root = '%s': expected 9p (the host's root over virtio-9p) or initramfs (a self-contained guest)",
			     val);
		break;
	case VK_NR:
		break;
	}
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

	memset(p->vseen, 0, sizeof(p->vseen));
	free_variant(&p->scratch);
	p->sec = SEC_VARIANT;
	p->var = &p->scratch;
	if (!end || end[1]) {
		perr(p, p->line, "bad section header '%s' (expected [NAME])",
		     s);
		return;
	}
	*end = '\0';
	name = s + 1;
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
	if (!valid_name(name, "._+-")) {
		perr(p, p->line,
		     "bad variant name [%.64s] (expected letters, digits, . _ + -)",
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
		perr(p, p->line, "too many variants (at most %d)",
		     KB_MAX_VARIANTS);
		return;
	}
	p->var = &cfg->variants[cfg->nvariants++];
	p->var->name = kb_xstrdup(name);
	p->var->line = p->line;
}

static int find_key(const char *key, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, names[i]))
			return (int)i;
	return -1;
}

static void unknown_key(struct parser *p, const char *key)
{
	const char *hint;

	if (p->sec == SEC_GLOBAL) {
		if (find_key(key, vkey_names, VK_NR) >= 0) {
			perr(p, p->line,
			     "'%s' belongs in a variant section such as [running], not [global]",
			     key);
			return;
		}
		hint = closest(key, gkey_names, GK_NR, "tunable");
	} else {
		if (find_key(key, gkey_names, GK_NR) >= 0 ||
		    !strcmp(key, "tunable")) {
			perr(p, p->line,
			     "'%s' belongs in [global], not in a variant section",
			     key);
			return;
		}
		hint = closest(key, vkey_names, VK_NR, NULL);
	}
	if (hint)
		perr(p, p->line, "unknown key '%s' (did you mean '%s'?)", key,
		     hint);
	else if (p->sec == SEC_GLOBAL)
		perr(p, p->line,
		     "unknown key '%s' in [global] (expected jobs, iterations, warmup, runtime, order, seed, target, tunable, sweep, task group, baseline, timeout_grace, profiles, push, layouts, accel, kvm_probe_timeout, allow_page_cache, alpha, min_effect, max_mde, min_iterations, max_iterations, target_ci_pct, disturbed_other_cpu_pct, disturbed_steal_pct, disturbed_psi_pct, disturbed_idle_fraction, retry_disturbed, hosts or calibration)",
		     key);
	else
		perr(p, p->line,
		     "unknown key '%s' in a variant section (expected method, release, kernel, initrd, modules, cmdline, memory, cpus, disk, boot_timeout, accel or guest_root)",
		     key);
}

static void handle_key(struct parser *p, char *key, char *raw)
{
	char *val = NULL, *label = NULL, *tgroup = NULL, *mename = NULL;
	int k = -1, sweep = 0, mde = 0;

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
	/* Which key, and is it a repeat?  Decided before the value is
	 * looked at, so a bad value does not also cause "no jobs". */
	if (!strncmp(key, "task group", 10) && p->sec == SEC_GLOBAL &&
	    (key[10] == ' ' || key[10] == '\t')) {
		tgroup = kb_trim(key + 10);
	} else if (!strncmp(key, "min_effect", 10) && p->sec == SEC_GLOBAL &&
		   (key[10] == ' ' || key[10] == '\t')) {
		mename = kb_trim(key + 10);
	} else if (!strncmp(key, "max_mde", 7) && p->sec == SEC_GLOBAL &&
		   (key[7] == ' ' || key[7] == '\t')) {
		mename = kb_trim(key + 7);
		mde = 1;
	} else if (!strncmp(key, "tunable", 7) &&
		   (key[7] == ' ' || key[7] == '\t')) {
		if (p->sec != SEC_GLOBAL) {
			perr(p, p->line,
			     "'tunable' belongs in [global], not in a variant section");
			return;
		}
		label = kb_trim(key + 7);
	} else if (!strncmp(key, "sweep", 5) &&
		   (key[5] == ' ' || key[5] == '\t')) {
		if (p->sec != SEC_GLOBAL) {
			perr(p, p->line,
			     "'sweep' belongs in [global], not in a variant section");
			return;
		}
		label = kb_trim(key + 5);
		sweep = 1;
	} else if (!strcmp(key, "sweep") && p->sec == SEC_GLOBAL) {
		perr(p, p->line,
		     "sweep needs a job parameter name: sweep NAME = V1 V2 ... (e.g. sweep numjobs = 1 2 4 8, used as ${KBENCH_NUMJOBS} in the job file)");
		return;
	} else if (!strcmp(key, "tunable") && p->sec == SEC_GLOBAL) {
		perr(p, p->line,
		     "tunable needs a label: tunable LABEL = PATH: VALUE... (e.g. tunable NM = queue/nomerges: 0 1 2)");
		return;
	} else if (p->sec == SEC_GLOBAL) {
		k = find_key(key, gkey_names, GK_NR);
		if (k < 0) {
			unknown_key(p, key);
			return;
		}
		if (p->gseen[k]) {
			perr(p, p->line,
			     "duplicate key '%s' (first set at line %d)", key,
			     p->gseen[k]);
			return;
		}
		p->gseen[k] = p->line;
	} else {
		k = find_key(key, vkey_names, VK_NR);
		if (k < 0) {
			unknown_key(p, key);
			return;
		}
		if (p->vseen[k]) {
			perr(p, p->line,
			     "duplicate key '%s' (first set at line %d)", key,
			     p->vseen[k]);
			return;
		}
		p->vseen[k] = p->line;
	}
	val = expand(p, raw);
	if (!val)
		return;
	if (!*val && p->sec == SEC_VARIANT && k == VK_RELEASE)
		perr(p, p->line,
		     "'release' has no value (remove the line to accept any running kernel)");
	else if (!*val)
		perr(p, p->line, "'%s' has no value", key);
	else if (tgroup)
		add_task_group(p, tgroup, val);
	else if (mename)
		add_metric_pct(p, mename, val, mde);
	else if (label)
		add_tunable(p, label, val, sweep);
	else if (p->sec == SEC_GLOBAL)
		set_global(p, (enum gkey)k, val);
	else
		set_variant(p, (enum vkey)k, val);
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
	int line = p->gseen[GK_BASELINE];
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

static void finish(struct parser *p)
{
	struct kb_config *cfg = p->cfg;
	size_t i;

	cfg->jobs_line = p->gseen[GK_JOBS];
	if (!p->gseen[GK_JOBS])
		perr(p, p->global_line ? p->global_line : 1,
		     "%s: no jobs: [global] needs jobs = NAME... (profiles/NAME.fio)",
		     p->global_line ? "[global]" : "no [global] section");
	if (!cfg->nvariants)
		perr(p, p->nlines ? p->nlines : 1,
		     "no variants: add a section such as [running] with method = local");
	if (!cfg->iterations_auto) {
		int l = p->gseen[GK_MIN_ITERATIONS] ?:
			p->gseen[GK_MAX_ITERATIONS] ?:
			p->gseen[GK_TARGET_CI_PCT];

		if (l)
			perr(p, l,
			     "min_iterations, max_iterations and target_ci_pct apply to iterations = auto (line %d sets iterations = %u)",
			     p->gseen[GK_ITERATIONS], cfg->iterations);
	} else if (cfg->min_iterations > cfg->max_iterations) {
		perr(p, p->gseen[GK_MAX_ITERATIONS] ?:
		     p->gseen[GK_MIN_ITERATIONS],
		     "min_iterations = %u is more than max_iterations = %u",
		     cfg->min_iterations, cfg->max_iterations);
	} else {
		cfg->iterations = cfg->min_iterations;
	}
	for (i = 0; i < cfg->nvariants; i++) {
		struct kb_variant *v = &cfg->variants[i];

		if (!v->method)
			v->method = kb_xstrdup("local");
		if (strcmp(v->method, "local") && !v->kernel)
			perr(p, v->line,
			     "[%s]: method = %s needs kernel = PATH (a bzImage) or kernel = deb:PACKAGE",
			     v->name, v->method);
		if (!strcmp(v->method, "local") && (v->kernel || v->disk ||
						     v->modules || v->memory_mib || v->cpus))
			perr(p, v->line,
			     "[%s]: kernel, modules, memory, cpus and disk need method = vm (or kexec for kernel)",
			     v->name);
		if (strcmp(v->method, "vm") && v->accel != KB_ACCEL_UNSET)
			perr(p, v->line,
			     "[%s]: accel is for method = vm (QEMU's accelerator)",
			     v->name);
		if (v->accel == KB_ACCEL_UNSET)
			v->accel = cfg->accel;
		if (strcmp(v->method, "vm") &&
		    v->guest_root != KB_GUEST_ROOT_AUTO)
			perr(p, v->line,
			     "[%s]: guest_root is for method = vm (what the guest runs from)",
			     v->name);
		if (!strcmp(v->method, "vm") && v->initrd)
			perr(p, v->line,
			     "[%s]: initrd is for method = kexec; a vm boots kbench's own initramfs",
			     v->name);
		if (!v->memory_mib)
			v->memory_mib = 1024;
		if (!v->cpus)
			v->cpus = 2;
		if (!v->boot_timeout_s)
			v->boot_timeout_s = strcmp(v->method, "kexec") ? 120 : 600;
	}
	if (cfg->target_kind == KB_TARGET_FILE) {
		for (i = 0; i < cfg->ntunables; i++)
			if (cfg->tunables[i].path &&
			    cfg->tunables[i].path[0] != '/')
				perr(p, cfg->tunables[i].line,
				     "tunable %s: relative path '%s' is under /sys/block/<dev>/, which a file: target (line %d) does not have; use a block device or loop:SIZE target",
				     cfg->tunables[i].label,
				     cfg->tunables[i].path,
				     p->gseen[GK_TARGET]);
	}
	if (cfg->nhosts && (cfg->target_kind == KB_TARGET_LOOP ||
			    cfg->target_kind == KB_TARGET_NULLBLK))
		perr(p, p->gseen[GK_TARGET] ? p->gseen[GK_TARGET] :
		     p->gseen[GK_HOSTS],
		     "hosts = runs fio on the load hosts, which need a target they have: a device path or file:PATH, not %s",
		     cfg->target_kind == KB_TARGET_LOOP ?
		     (p->gseen[GK_TARGET] ? "loop:SIZE" :
		      "the default loop:256M") : "null_blk");
	for (i = 0; cfg->nhosts && i < cfg->nvariants; i++)
		if (cfg->variants[i].method &&
		    !strcmp(cfg->variants[i].method, "vm"))
			perr(p, cfg->variants[i].line,
			     "[%s]: method = vm with hosts = (line %d): the guest runs fio and cannot reach the load hosts; use method = local or kexec",
			     cfg->variants[i].name, p->gseen[GK_HOSTS]);
	for (i = 0; cfg->nhosts && i < cfg->ntunables; i++)
		if (cfg->tunables[i].path && cfg->tunables[i].path[0] != '/')
			perr(p, cfg->tunables[i].line,
			     "tunable %s: relative path '%s' is under the target's /sys/block/<dev>/, but with hosts = (line %d) the target is the load hosts' device; give an absolute path of this machine",
			     cfg->tunables[i].label, cfg->tunables[i].path,
			     p->gseen[GK_HOSTS]);
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
	int ret = 0;

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
	cfg->runtime_s = 60;
	cfg->timeout_grace_s = 30;
	cfg->kvm_probe_timeout_s = 20;
	cfg->disturbed_other_cpu_pct = 40.0;	/* stats/disturbed.h */
	cfg->disturbed_steal_pct = 5.0;
	cfg->disturbed_psi_pct = 40.0;
	cfg->disturbed_idle_fraction = 0.5;
	cfg->retry_disturbed = 1;
	cfg->order = KB_ORDER_INTERLEAVE;
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
			line = next;
			continue;
		}
		parse_line(&p, line);
		line = next;
	}
	finish(&p);
	if (p.nerrors) {
		kconf_free(cfg);
		ret = -EINVAL;
	}
	free_variant(&p.scratch);
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

/* reports/table.c's layouts but pivot (it needs --rows and --cols);
 * tests/test_layout.c checks the two lists agree. */
const char *const kconf_layout_names[] = { "variants", "profile", "time",
	"rounds", "scaling", "mmtests", "lkp", NULL };

static const char *const accel_names[] = {
	[KB_ACCEL_UNSET] = NULL, [KB_ACCEL_AUTO] = "auto",
	[KB_ACCEL_KVM] = "kvm", [KB_ACCEL_TCG] = "tcg",
};

enum kb_accel kb_accel_from_name(const char *s)
{
	int i;

	for (i = KB_ACCEL_AUTO; i <= KB_ACCEL_TCG; i++)
		if (s && !strcmp(s, accel_names[i]))
			return (enum kb_accel)i;
	return KB_ACCEL_UNSET;
}

const char *kb_accel_name(enum kb_accel a)
{
	return a >= KB_ACCEL_AUTO && a <= KB_ACCEL_TCG ? accel_names[a] :
	       "auto";
}
