/* parsers/fio_jobfile.c - what a fio job file does to the files it runs
 * against, and beyond them (parsers/fio_jobfile.h) */
#include "parsers/fio_jobfile.h"
#include "lib/file.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* [b, e) without the blanks at either end */
static void trim(const char **b, const char **e)
{
	while (*b < *e && isspace((unsigned char)**b))
		(*b)++;
	while (*e > *b && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static int word_is(const char *b, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - b) == n && !strncasecmp(b, w, n);
}

static int starts(const char *b, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - b) >= n && !strncasecmp(b, w, n);
}

/* rw=VALUE: 1 unless it only reads ("read", "randread", each with an
 * optional ":N" modifier) */
static int rw_writes(const char *b, const char *e)
{
	const char *colon = memchr(b, ':', (size_t)(e - b));

	if (colon)
		e = colon;
	trim(&b, &e);
	return !word_is(b, e, "read") && !word_is(b, e, "randread");
}

/* a boolean option given alone, or with a value other than 0/false */
static int flag_on(const char *b, const char *e)
{
	if (!b)
		return 1;
	return !word_is(b, e, "0") && !word_is(b, e, "false");
}

/* [b, e) is "${KBENCH_TARGET}" or "${KBENCH_TARGET_N}" (run_exec.c's
 * name for load host N's target) */
static int is_target_var(const char *b, const char *e)
{
	static const char pre[] = "${KBENCH_TARGET";
	const char *p;

	trim(&b, &e);
	if ((size_t)(e - b) < sizeof(pre) || strncmp(b, pre, sizeof(pre) - 1) ||
	    e[-1] != '}')
		return 0;
	p = b + sizeof(pre) - 1;
	if (p == e - 1)
		return 1;
	if (*p++ != '_' || p == e - 1)
		return 0;
	for (; p < e - 1; p++)
		if (!isdigit((unsigned char)*p))
			return 0;
	return 1;
}

/* filename=VALUE names only the target: every ':'-separated file of it
 * (fio HOWTO "filename": '\:' escapes a colon in a name) is
 * ${KBENCH_TARGET} */
static int filename_is_target(const char *b, const char *e)
{
	const char *p, *s = b;

	if (b == e)
		return 0;
	for (p = b; p <= e; p++) {
		if (p < e && *p == '\\' && p + 1 < e) {
			p++;
			continue;
		}
		if (p < e && *p != ':')
			continue;
		if (!is_target_var(s, p))
			return 0;
		s = p + 1;
	}
	return 1;
}

static char *describe(int lineno, const char *kb, const char *ke,
		      const char *vb, const char *ve, const char *note)
{
	return kb_xasprintf("line %d: %.*s%s%.*s%s", lineno, (int)(ke - kb), kb,
			    vb ? "=" : "", vb ? (int)(ve - vb) : 0,
			    vb ? vb : "", note);
}

/* options off kbench's list (allowed_opts) that are known to act
 * beyond the job's I/O, with what they do, for the message (fio HOWTO
 * "Measurements and reporting", "I/O replay", "Miscellaneous") */
static const struct {
	const char *name;
	const char *what;
} outside_opts[] = {
	{ "exec_prerun", "runs a shell command" },
	{ "exec_postrun", "runs a shell command" },
	{ "ioscheduler", "switches the device's I/O scheduler and does not "
			 "switch it back" },
	{ "write_iolog", "writes the file it names" },
	{ "write_bw_log", "writes a log named after it or the job" },
	{ "write_lat_log", "writes a log named after it or the job" },
	{ "write_iops_log", "writes a log named after it or the job" },
	{ "write_hist_log", "writes a log named after it or the job" },
	{ "replay_redirect", "sends the replayed I/O to another device" },
	{ "read_iolog", "replays an I/O log, whose writes go where it says" },
	{ "unlink", "deletes the job's files, the target's device node "
		    "included" },
	{ "unlink_each_loop", "deletes the job's files" },
	{ "cgroup", "makes a cgroup where its path says" },
	{ "directory", "does its I/O in files of that directory" },
	{ "opendir", "does its I/O on every file of that directory" },
	{ "filename_format", "names its files itself" },
};

/* A fio time value in seconds (fio_jobfile.h), or -1 when it is not a
 * plain number with a unit fio knows */
static double time_s(const char *b, const char *e)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = { { "", 1 }, { "s", 1 }, { "sec", 1 }, { "m", 60 },
		      { "min", 60 }, { "h", 3600 }, { "d", 86400 },
		      { "ms", 1e-3 }, { "msec", 1e-3 }, { "us", 1e-6 },
		      { "usec", 1e-6 } };
	const char *p = b;
	double v = 0;
	size_t i;

	if (b == e || !isdigit((unsigned char)*b))
		return -1;
	for (; p < e && isdigit((unsigned char)*p); p++)
		v = v * 10 + (*p - '0');
	if (p < e && *p == '.') {	/* fio reads "8.5" as 8.5 or 8 */
		double f = 0.1;

		for (p++; p < e && isdigit((unsigned char)*p); p++, f /= 10)
			v += (*p - '0') * f;
	}
	for (i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (word_is(p, e, units[i].unit) && (p < e || !*units[i].unit))
			return v * units[i].s;
	return -1;
}

/* keep the largest literal time value of an option (runtime, ramp) */
static void keep_time(double *best, char **at, int lineno, const char *kb,
		      const char *ke, const char *vb, const char *ve)
{
	double v = vb ? time_s(vb, ve) : -1;

	if (v < 0 || v <= *best)
		return;
	*best = v;
	free(*at);
	*at = describe(lineno, kb, ke, vb, ve, "");
}

/* The options kbench runs (fio HOWTO names; an alias fio has, such as
 * readwrite or timeout, too): those of I/O on the job's files and of
 * its timing and reporting.  Any other is refused, whatever it does
 * (a list of what is dangerous missed one after another in two break-it
 * trials: unlink on a read job, mem=mmap:FILE, ioengine=net deleting
 * its filename, cgroup=../.., logs named after the job...).  Checked
 * further below: filename, ioengine, mem/iomem. */
static const char *const allowed_opts[] = {
	"name", "description", "filename", "size", "filesize", "io_size",
	"io_limit", "offset", "offset_increment", "offset_align",
	"number_ios", "rw", "readwrite", "rwmixread", "rwmixwrite",
	"rw_sequencer", "bs", "blocksize", "bsrange", "blocksize_range",
	"bssplit", "bs_unaligned", "blocksize_unaligned", "blockalign", "ba",
	"bs_is_seq_rand", "ioengine", "iodepth", "iodepth_batch",
	"iodepth_batch_submit", "iodepth_batch_complete",
	"iodepth_batch_complete_min", "iodepth_batch_complete_max",
	"iodepth_low", "io_submit_mode", "direct", "buffered", "atomic",
	"sync", "fsync", "fdatasync", "end_fsync", "fsync_on_close",
	"write_barrier", "randrepeat", "randseed", "random_generator",
	"random_distribution", "norandommap", "softrandommap",
	"percentage_random", "allrandrepeat", "numjobs", "group_reporting",
	"thread", "time_based", "runtime", "timeout", "ramp_time",
	"startdelay", "stonewall", "wait_for_previous", "new_group", "loops",
	"cpus_allowed", "cpus_allowed_policy", "cpumask", "numa_cpu_nodes",
	"numa_mem_policy", "nice", "prio", "prioclass", "hipri", "fixedbufs",
	"registerfiles", "sqthread_poll", "sqthread_poll_cpu", "nonvectored",
	"force_async", "cmdprio_percentage", "cmdprio_class", "cmdprio",
	"rate", "rate_min", "rate_iops", "rate_iops_min", "rate_process",
	"rate_cycle", "rate_ignore_thinktime", "thinktime", "thinktime_spin",
	"thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime",
	"lat_percentiles", "clat_percentiles", "slat_percentiles",
	"percentile_list", "disable_lat", "disable_clat", "disable_slat",
	"disable_bw_measurement", "disable_bw", "gtod_reduce", "gtod_cpu",
	"clocksource", "unified_rw_reporting", "invalidate", "pre_read",
	"zero_buffers", "refill_buffers", "scramble_buffers",
	"buffer_compress_percentage", "buffer_compress_chunk",
	"dedupe_percentage", "buffer_pattern", "mem", "iomem", "mem_align",
	"iomem_align", "hugepage-size", "file_service_type", "nrfiles",
	"openfiles", "fadvise_hint", "allow_mounted_write", "exitall",
	"exitall_on_error", "continue_on_error", "ignore_error",
	"error_dump", "kb_base", "unit_base", "steadystate", "ss",
	"steadystate_duration", "ss_dur", "steadystate_ramp_time", "ss_ramp",
	"max_latency", "latency_target", "latency_window",
	"latency_percentile", "latency_run", "significant_figures",
	"serialize_overlap", "experimental_verify",
	"verify", "do_verify", "verify_fatal", "verify_pattern",
	"verify_interval", "verify_offset", "verify_backlog",
	"verify_state_save", "verify_async", "trim_percentage",
	"bwavgtime", "iopsavgtime", "stats", "per_job_logs",
	"zonemode", "zonesize", "zonerange", "zoneskip",
};

/* The ioengines kbench runs: block and file I/O of the kernel's
 * syscalls; any other (a name fio dlopen()s, exec, net, e4defrag,
 * falloc, libpmem...) is refused */
static const char *const allowed_engines[] = {
	"sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring",
	"posixaio", "mmap", "null", "splice", "sg",
};

static int in_list(const char *b, const char *e, const char *const *list,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((size_t)(e - b) == strlen(list[i]) &&
		    !strncmp(b, list[i], (size_t)(e - b)))
			return 1;
	return 0;
}

#define N_ALLOWED (sizeof(allowed_opts) / sizeof(*allowed_opts))
#define N_ENGINES (sizeof(allowed_engines) / sizeof(*allowed_engines))

/* fio's keywords (options.c fio_keywords): a value holding one makes
 * fio compute it with bc, run through a shell */
static int has_keyword(const char *b, const char *e)
{
	static const char *const kw[] = { "$pagesize", "$mb_memory",
					  "$ncpus" };
	size_t i, n;
	const char *p;

	for (i = 0; i < sizeof(kw) / sizeof(*kw); i++)
		for (p = b, n = strlen(kw[i]); p + n <= e; p++)
			if (!strncmp(p, kw[i], n))
				return 1;
	return 0;
}

/* fio's line buffer (init.c parse_jobs_ini(): fgets of 8192 bytes): a
 * longer line is read as two */
#define FIO_LINE_MAX 8191

/* line [b, e) with each ${NAME} replaced as fio_option_dup_subs() (fio
 * options.c) does before it parses an option, with lookup's value
 * (malloc'd); ${KBENCH_TARGET...} and a name lookup does not know are
 * kept as they are (checked as such: filename_is_target(), "set when fio
 * runs") */
static char *expand(const char *b, const char *e,
		    const char *(*lookup)(const char *name, void *ctx),
		    void *ctx)
{
	size_t cap = (size_t)(e - b) + 1, n = 0, vl;
	char *out = kb_xmalloc(cap), *name;
	const char *p = b, *close, *v;

	while (p < e) {
		close = p + 1 < e && p[0] == '$' && p[1] == '{' ?
			memchr(p + 2, '}', (size_t)(e - p - 2)) : NULL;
		v = NULL;
		if (close && lookup && close > p + 2 &&
		    strncmp(p + 2, "KBENCH_TARGET", 13)) {
			name = kb_xasprintf("%.*s", (int)(close - p - 2), p + 2);
			v = lookup(name, ctx);
			free(name);
		}
		if (v) {
			vl = strlen(v);
			p = close + 1;
		} else {
			v = p;
			vl = 1;
			p++;
		}
		if (n + vl + 1 > cap) {
			cap = 2 * (n + vl + 1);
			out = kb_xrealloc(out, cap);
		}
		memcpy(out + n, v, vl);
		n += vl;
	}
	out[n] = '\0';
	return out;
}

static void set_once(char **field, char *why)
{
	if (!*field)
		*field = why;
	else
		free(why);
}

/* where a section's I/O goes: none named, ${KBENCH_TARGET}, elsewhere */
enum { FN_NONE, FN_TARGET, FN_ELSEWHERE };

struct section {
	char *name;		/* "[j]" (malloc'd) or NULL */
	int writes, fn;
};

/* The section that ends: one that may write (its own rw=... or
 * [global]'s) and names no file (its own or [global]'s) does its I/O in
 * files fio names after the job, in the current directory */
static void section_end(struct fio_jobfile_scan *s, struct section *sec,
			const struct section *glob)
{
	if (sec->name && (sec->writes || glob->writes) &&
	    (sec->fn ? sec->fn : glob->fn) == FN_NONE)
		set_once(&s->unnamed, kb_xasprintf("job %s has no filename=",
						   sec->name));
	free(sec->name);
	memset(sec, 0, sizeof(*sec));
}

void fio_jobfile_scan_env(const char *text, size_t len,
			  const char *(*lookup)(const char *name, void *ctx),
			  void *ctx, struct fio_jobfile_scan *s)
{
	const char *line = text, *end = text + len, *next, *b, *e, *eq, *kb,
		   *ke, *vb, *ve, *p, *nul;
	struct section glob = { 0 }, sec = { 0 }, *cur = &glob;
	int lineno = 0, dollar;
	char *x = NULL;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->runtime_s = s->ramp_s = s->startdelay_s = -1;
	/* fio reads a job file with fgets(): a NUL byte ends a string here
	 * and not there, so what follows it would go unchecked */
	if ((nul = memchr(text, '\0', len))) {
		s->outside = kb_xasprintf("a NUL byte at offset %zu (fio reads "
					  "on past it)", (size_t)(nul - text));
		goto done;
	}
	for (; line < end; line = next) {
		next = memchr(line, '\n', (size_t)(end - line));
		e = next ? next : end;
		next = next ? next + 1 : end;
		lineno++;
		if (e - line > FIO_LINE_MAX) {
			set_once(&s->outside, kb_xasprintf("line %d: longer "
				 "than fio's line buffer (%d bytes): fio reads "
				 "it as two", lineno, FIO_LINE_MAX));
			continue;
		}
		/* a control character: fio strips some where kbench would
		 * not (exec_prerun\x01= ran a command), so none is read */
		for (p = line; p < e; p++)
			if ((*p > 0 && *p < 0x20 && *p != '\t' && *p != '\r') ||
			    *p == 0x7f)
				break;
		if (p < e) {
			set_once(&s->outside, kb_xasprintf("line %d: a control "
				 "character (byte 0x%02x), which fio may strip",
				 lineno, (unsigned)(unsigned char)*p));
			continue;
		}
		b = line;
		trim(&b, &e);
		if (b == e || *b == ';' || *b == '#')
			continue;
		/* fio cuts a line at its first ';' or '#', wherever it is
		 * (init.c strip_blank_end()), before it substitutes ${NAME} */
		for (p = b; p < e; p++)
			if (*p == ';' || *p == '#') {
				e = p;
				break;
			}
		trim(&b, &e);
		if (*b == '[') {
			section_end(s, &sec, &glob);
			p = memchr(b, ']', (size_t)(e - b));
			/* fio: a section whose name starts with "global" (the
			 * case counts) holds the defaults */
			if (p && !strncmp(b + 1, "global", 6)) {
				cur = &glob;
			} else {
				cur = &sec;
				sec.name = kb_xasprintf("%.*s", (int)(e - b), b);
				/* a job's name names its files and logs */
				if (memchr(b, '/', (size_t)(e - b)))
					set_once(&s->outside, kb_xasprintf(
						 "line %d: %s (a job name with "
						 "'/': fio names files after "
						 "it)", lineno, sec.name));
			}
			continue;
		}
		/* fio substitutes ${NAME} over the whole option, its name
		 * included, before it parses it */
		free(x);
		x = expand(b, e, lookup, ctx);
		b = x;
		e = x + strlen(x);
		trim(&b, &e);
		/* "include FILE" (fio: the word, then any one character) */
		if ((size_t)(e - b) >= 7 && !strncmp(b, "include", 7)) {
			/* another file's options: any of the three */
			char *w = kb_xasprintf("line %d: %.*s (a file kbench "
					       "does not read)", lineno,
					       (int)(e - b), b);

			set_once(&s->writes, kb_xstrdup(w));
			set_once(&s->elsewhere, kb_xstrdup(w));
			set_once(&s->outside, w);
			cur->writes = 1;
			cur->fn = FN_ELSEWHERE;
			continue;
		}
		eq = memchr(b, '=', (size_t)(e - b));
		kb = b;
		ke = eq ? eq : e;
		trim(&kb, &ke);
		vb = ve = NULL;
		if (eq) {
			vb = eq + 1;
			ve = e;
			trim(&vb, &ve);
		}
		/* an option's name set when fio runs: anything */
		if (memchr(kb, '$', (size_t)(ke - kb))) {
			set_once(&s->outside, describe(lineno, kb, ke, vb, ve,
				 " (an option whose name is set when fio "
				 "runs)"));
			continue;
		}
		/* a value fio takes from the environment: unknown here */
		dollar = vb && memchr(vb, '$', (size_t)(ve - vb)) &&
			 !filename_is_target(vb, ve);
		if (((word_is(kb, ke, "rw") || word_is(kb, ke, "readwrite")) &&
		     vb && (dollar || rw_writes(vb, ve))) ||
		    ((word_is(kb, ke, "unlink") ||
		      word_is(kb, ke, "unlink_each_loop")) &&
		     (flag_on(vb, ve) || dollar)) ||
		    (word_is(kb, ke, "ioengine") && vb &&
		     (dollar || (starts(vb, ve, "file") &&
				 !word_is(vb, ve, "filestat"))))) {
			set_once(&s->writes, describe(lineno, kb, ke, vb, ve,
				 dollar ? " (set when fio runs)" : ""));
			cur->writes = 1;
		}
		if (word_is(kb, ke, "runtime") || word_is(kb, ke, "timeout"))
			keep_time(&s->runtime_s, &s->runtime_at, lineno, kb,
				  ke, vb, ve);
		else if (word_is(kb, ke, "ramp_time"))
			keep_time(&s->ramp_s, &s->ramp_at, lineno, kb, ke, vb,
				  ve);
		else if (word_is(kb, ke, "startdelay"))
			keep_time(&s->startdelay_s, &s->startdelay_at, lineno,
				  kb, ke, vb, ve);
		else if (word_is(kb, ke, "time_based") && flag_on(vb, ve))
			s->time_based = 1;
		if (word_is(kb, ke, "filename") && vb) {
			if (filename_is_target(vb, ve)) {
				s->names_target = 1;
				if (cur->fn != FN_ELSEWHERE)
					cur->fn = FN_TARGET;
			} else {
				set_once(&s->elsewhere, describe(lineno, kb, ke,
					 vb, ve, ""));
				cur->fn = FN_ELSEWHERE;
			}
		} else if (word_is(kb, ke, "directory") ||
			   word_is(kb, ke, "opendir") ||
			   word_is(kb, ke, "filename_format")) {
			set_once(&s->elsewhere, describe(lineno, kb, ke, vb, ve,
							 ""));
			cur->fn = FN_ELSEWHERE;
		}
		if (s->outside)
			continue;
		for (i = 0; i < sizeof(outside_opts) / sizeof(*outside_opts);
		     i++)
			if (word_is(kb, ke, outside_opts[i].name)) {
				char *note = kb_xasprintf(" (%s)",
							  outside_opts[i].what);

				s->outside = describe(lineno, kb, ke, vb, ve,
						      note);
				free(note);
				break;
			}
		if (s->outside)
			continue;
		/* an option not on kbench's list (allowed_opts) */
		if (!in_list(kb, ke, allowed_opts, N_ALLOWED))
			s->outside = describe(lineno, kb, ke, vb, ve, " (an "
				"option kbench does not run: only those of I/O "
				"on the target and of timing, parsers/"
				"fio_jobfile.c)");
		/* fio dlopen()s an engine name it does not know; exec, net
		 * and others act on more than their file */
		else if (word_is(kb, ke, "ioengine") && vb && !dollar &&
			 !in_list(vb, ve, allowed_engines, N_ENGINES))
			s->outside = describe(lineno, kb, ke, vb, ve, " (an "
				"ioengine kbench does not run: it runs sync, "
				"psync, vsync, pvsync, pvsync2, libaio, "
				"io_uring, posixaio, mmap, null, splice, sg)");
		/* mem=mmap:FILE: fio maps (and truncates) that file */
		else if ((word_is(kb, ke, "mem") || word_is(kb, ke, "iomem")) &&
			 vb && memchr(vb, ':', (size_t)(ve - vb)))
			s->outside = describe(lineno, kb, ke, vb, ve, " (a "
				"buffer in a file the job file names)");
		else if (vb && has_keyword(vb, ve))
			s->outside = describe(lineno, kb, ke, vb, ve, " (fio "
				"computes $ncpus, $pagesize and $mb_memory with "
				"bc, run through a shell)");
	}
	section_end(s, &sec, &glob);
done:
	free(x);
}

int fio_jobfile_refused(const struct fio_jobfile_scan *s)
{
	return s->outside || (s->writes && (s->elsewhere || s->unnamed));
}

void fio_jobfile_scan(const char *text, struct fio_jobfile_scan *s)
{
	fio_jobfile_scan_env(text, strlen(text), NULL, NULL, s);
}

void fio_jobfile_scan_free(struct fio_jobfile_scan *s)
{
	free(s->writes);
	free(s->elsewhere);
	free(s->outside);
	free(s->runtime_at);
	free(s->ramp_at);
	free(s->startdelay_at);
	free(s->unnamed);
	memset(s, 0, sizeof(*s));
}

int fio_jobfile_writes(const char *text, char **why)
{
	struct fio_jobfile_scan s;

	fio_jobfile_scan(text, &s);
	*why = s.writes;
	s.writes = NULL;
	fio_jobfile_scan_free(&s);
	return *why != NULL;
}
