/* parsers/fio_json.c - fio JSON / JSON+ output -> kbench metrics.
 * See fio_json.h for the formats, the returned shape and the units. */
#include "parsers/fio_json.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { DIR_READ, DIR_WRITE, DIR_TRIM, DIR_MIXED, NR_DIRS };

static const char *const dir_names[NR_DIRS] = { "read", "write", "trim", "mixed" };

/* The percentiles kbench keeps; fio's keys are "%f" of these ("99.000000",
 * older files "99.00"), so they are matched numerically. */
#define NR_PCT 3
static const double pct_points[NR_PCT] = { 50.0, 99.0, 99.9 };
static const char *const pct_names[NR_PCT] = {
	"clat_p50_ns", "clat_p99_ns", "clat_p999_ns"
};

#define MAX_PREAMBLE_WARNINGS	10
#define MAX_QUOTE		160

struct bin {
	double ns;
	double count;
};

struct dir_stat {
	int has_io;
	double iops;
	double bw_kib;
	double weight;		/* I/O count estimate, for weighted means */
	int has_clat;
	double clat_mean_ns;
	double clat_n;		/* clat "N", or -1 when the file has none */
	int has_lat;
	double lat_mean_ns;
	double lat_n;
	int has_pct[NR_PCT];
	double pct_ns[NR_PCT];
	int has_bins;
	struct bin *bins;
	size_t nbins;
};

struct job_stat {
	struct dir_stat dir[NR_DIRS];
	int has_cpu;
	double usr_cpu;
	double sys_cpu;
	json_int_t groupid;
};

struct ctx {
	const char *name;
	json_t *warnings;
	int ver_major;		/* -1 when the version is unknown */
	int ver_minor;
	const char *version;
	int warned_kib;
	int warned_bins;
};

static void warnf(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warnf(struct ctx *c, const char *fmt, ...)
{
	char buf[512];
	json_t *s;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s = json_string(buf);
	if (!s) {
		/* not UTF-8 (quoted input bytes): keep the ASCII */
		for (i = 0; buf[i]; i++)
			if ((unsigned char)buf[i] >= 0x80)
				buf[i] = '?';
		s = json_string(buf);
	}
	if (s)
		json_array_append_new(c->warnings, s);
}

/* Copy at most MAX_QUOTE bytes of [s, s+n) into out for quoting, trimmed
 * of trailing blanks and CR, control characters shown as '?'. */
static void quote(char *out, size_t outlen, const char *s, size_t n)
{
	size_t i, k = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	for (i = 0; i < n && k + 4 < outlen; i++) {
		if (i == MAX_QUOTE) {
			memcpy(out + k, "...", 3);
			k += 3;
			break;
		}
		out[k++] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ?
			'?' : s[i];
	}
	out[k] = '\0';
}

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

static int count_lines(const char *buf, size_t from, size_t to)
{
	int n = 0;

	for (; from < to; from++)
		if (buf[from] == '\n')
			n++;
	return n;
}

/* A number under key (integer or real, json_number_value). */
static int num(const json_t *o, const char *key, double *v)
{
	const json_t *x = json_object_get(o, key);

	if (!json_is_number(x))
		return 0;
	*v = json_number_value(x);
	return 1;
}

/* An exact integer under key (a real is rounded). */
static int inum(const json_t *o, const char *key, json_int_t *v)
{
	const json_t *x = json_object_get(o, key);

	if (json_is_integer(x))
		*v = json_integer_value(x);
	else if (json_is_real(x))
		*v = (json_int_t)llround(json_real_value(x));
	else
		return 0;
	return 1;
}

static void set_num(json_t *o, const char *key, double v)
{
	json_object_set_new(o, key, json_real(v));
}

/* The latency block "<base>_ns" (ns, fio 3.x) or "<base>" (usec, fio
 * 2.x); *mult converts its values to ns. */
static const json_t *lat_block(const json_t *d, const char *base, double *mult)
{
	const json_t *b;
	char key[16];

	snprintf(key, sizeof(key), "%s_ns", base);
	b = json_object_get(d, key);
	if (json_is_object(b)) {
		*mult = 1.0;
		return b;
	}
	b = json_object_get(d, base);
	if (json_is_object(b)) {
		*mult = 1000.0;
		return b;
	}
	return NULL;
}

/* 1 when a latency block holds samples: N > 0, or (no N, old fio) a
 * non-zero max/mean.  *n gets N, or -1 without one. */
static int block_measured(const json_t *b, double *n)
{
	double mx = 0, mean = 0;

	*n = -1;
	if (!b)
		return 0;
	if (num(b, "N", n))
		return *n > 0;
	num(b, "max", &mx);
	num(b, "mean", &mean);
	return mx > 0 || mean > 0;
}

/* fio stat.c plat_idx_to_val(): the middle of histogram bucket idx, for
 * FIO_IO_U_PLAT_BITS = bits and FIO_IO_U_PLAT_VAL = val = 1 << bits. */
static int plat_idx_to_val(unsigned long long idx, unsigned int bits,
			   unsigned int val, double *out)
{
	unsigned long long error_bits, base, k;

	if (idx < ((unsigned long long)val << 1)) {
		*out = (double)idx;
		return 0;
	}
	error_bits = (idx >> bits) - 1;
	if (error_bits + bits >= 63)
		return -ERANGE;
	base = 1ULL << (error_bits + bits);
	k = idx % val;
	*out = (double)(base +
		(unsigned long long)((k + 0.5) * (double)(1ULL << error_bits)));
	return 0;
}

/* Read the json+ "bins" of a clat block into s->bins (latency in ns). */
static void read_bins(struct ctx *c, const char *dname, const json_t *clat,
		      double mult, struct dir_stat *s)
{
	const json_t *bins = json_object_get(clat, "bins");
	const json_t *jbits, *jval;
	unsigned int bits = 0, val = 0;
	int indexed, bad = 0;
	const char *key;
	json_t *v;
	size_t cap;

	if (!json_is_object(bins))
		return;
	jbits = json_object_get(bins, "FIO_IO_U_PLAT_BITS");
	jval = json_object_get(bins, "FIO_IO_U_PLAT_VAL");
	indexed = jbits || jval || json_object_get(bins, "FIO_IO_U_PLAT_NR");
	if (indexed) {
		/* fio < 2.20: keys are histogram indexes, in usec */
		if (json_is_integer(jbits) && json_is_integer(jval)) {
			bits = (unsigned int)json_integer_value(jbits);
			val = (unsigned int)json_integer_value(jval);
		}
		if (bits < 1 || bits > 16 || val != 1U << bits) {
			warnf(c, "%s: json+ bins keyed by histogram index without valid FIO_IO_U_PLAT_BITS/FIO_IO_U_PLAT_VAL: bins ignored",
			      dname);
			return;
		}
	}
	cap = json_object_size(bins);
	s->bins = kb_xcalloc(cap, sizeof(*s->bins));
	s->nbins = 0;
	json_object_foreach((json_t *)bins, key, v) {
		unsigned long long k;
		double ns;
		char *end;

		if (!strncmp(key, "FIO_IO_U_PLAT_", 14))
			continue;
		errno = 0;
		k = strtoull(key, &end, 10);
		if (end == key || *end || errno || !json_is_number(v) ||
		    json_number_value(v) < 0) {
			bad++;
			continue;
		}
		if (indexed) {
			if (plat_idx_to_val(k, bits, val, &ns)) {
				bad++;
				continue;
			}
		} else {
			ns = (double)k;
		}
		if (json_number_value(v) == 0)
			continue;
		s->bins[s->nbins].ns = ns * mult;
		s->bins[s->nbins].count = json_number_value(v);
		s->nbins++;
	}
	if (bad && !c->warned_bins) {
		warnf(c, "%s: %d json+ bin key(s) are not latency values: ignored",
		      dname, bad);
		c->warned_bins = 1;
	}
	s->has_bins = 1;
}

static void read_percentiles(const json_t *clat, double mult,
			     struct dir_stat *s)
{
	const json_t *map = json_object_get(clat, "percentile");
	const char *key;
	json_t *v;
	int i;

	if (!json_is_object(map))
		return;
	json_object_foreach((json_t *)map, key, v) {
		char *end;
		double p = strtod(key, &end);

		if (end == key || *end || !json_is_number(v))
			continue;
		for (i = 0; i < NR_PCT; i++) {
			if (fabs(p - pct_points[i]) < 1e-6) {
				s->pct_ns[i] = json_number_value(v) * mult;
				s->has_pct[i] = 1;
			}
		}
	}
}

/* Does fio 2.x <= 2.20 (io_bytes in KiB) apply to direction d? */
static int io_bytes_in_kib(struct ctx *c, const json_t *d)
{
	if (c->ver_major >= 0)
		return c->ver_major < 2 ||
			(c->ver_major == 2 && c->ver_minor <= 20);
	/* unknown version: fio 3.x has io_kbytes and clat_ns */
	return !json_object_get(d, "io_kbytes") &&
		!json_object_get(d, "clat_ns");
}

/* One direction of one job.  Returns its metric object (new reference),
 * or NULL when the direction did no I/O. */
static json_t *parse_dir(struct ctx *c, const char *dname, const json_t *d,
			 struct dir_stat *s)
{
	double total = 0, io = 0, runtime = 0, mult = 1, n, mean;
	const json_t *clat, *lat, *slat;
	int have_total, i;
	json_int_t iv;
	json_t *o;

	have_total = num(d, "total_ios", &total);
	clat = lat_block(d, "clat", &mult);
	num(d, "io_bytes", &io);
	if (have_total)
		s->has_io = total > 0;
	else if (clat && num(clat, "N", &n))
		s->has_io = n > 0;
	else
		s->has_io = io > 0;
	if (!s->has_io)
		return NULL;

	o = json_object();
	num(d, "iops", &s->iops);
	num(d, "bw", &s->bw_kib);
	set_num(o, "iops", s->iops);
	set_num(o, "bw_kib", s->bw_kib);
	if (inum(d, "io_bytes", &iv)) {
		if (io_bytes_in_kib(c, d)) {
			iv *= 1024;
			if (!c->warned_kib) {
				warnf(c, "%s: io_bytes read as KiB (fio <= 2.20 writes KiB there)",
				      c->version ? c->version : "unknown fio version");
				c->warned_kib = 1;
			}
		}
		json_object_set_new(o, "io_bytes", json_integer(iv));
	}
	if (inum(d, "total_ios", &iv))
		json_object_set_new(o, "total_ios", json_integer(iv));
	if (inum(d, "runtime", &iv)) {
		json_object_set_new(o, "runtime_ms", json_integer(iv));
		runtime = (double)iv;
	}
	s->weight = have_total ? total : s->iops * runtime / 1000.0;

	if (block_measured(clat, &s->clat_n) && num(clat, "mean", &mean)) {
		s->has_clat = 1;
		s->clat_mean_ns = mean * mult;
		set_num(o, "clat_mean_ns", s->clat_mean_ns);
		read_percentiles(clat, mult, s);
		for (i = 0; i < NR_PCT; i++)
			if (s->has_pct[i])
				set_num(o, pct_names[i], s->pct_ns[i]);
		read_bins(c, dname, clat, mult, s);
	}
	lat = lat_block(d, "lat", &mult);
	if (block_measured(lat, &s->lat_n) && num(lat, "mean", &mean)) {
		s->has_lat = 1;
		s->lat_mean_ns = mean * mult;
		set_num(o, "lat_mean_ns", s->lat_mean_ns);
	}
	slat = lat_block(d, "slat", &mult);
	if (block_measured(slat, &n) && num(slat, "mean", &mean))
		set_num(o, "slat_mean_ns", mean * mult);
	return o;
}

static json_t *string_or_null(const json_t *s)
{
	return json_is_string(s) ? json_string(json_string_value(s)) :
		json_null();
}

static json_t *parse_job(struct ctx *c, const json_t *job,
			 const json_t *gopts, struct job_stat *js)
{
	const json_t *jopts = json_object_get(job, "job options");
	const json_t *rw = json_object_get(jopts, "rw");
	json_t *o = json_object();
	json_int_t iv;
	double v;
	int d;

	json_object_set_new(o, "name",
			    string_or_null(json_object_get(job, "jobname")));
	if (json_object_get(job, "hostname"))
		json_object_set_new(o, "hostname",
			string_or_null(json_object_get(job, "hostname")));
	if (!json_is_string(rw))
		rw = json_object_get(gopts, "rw");
	if (!json_is_string(rw))
		rw = json_object_get(gopts, "readwrite");
	json_object_set_new(o, "rw", string_or_null(rw));
	js->groupid = 0;
	if (inum(job, "groupid", &iv))
		js->groupid = iv;
	json_object_set_new(o, "groupid", json_integer(js->groupid));
	iv = 0;
	inum(job, "error", &iv);
	json_object_set_new(o, "error", json_integer(iv));
	json_object_set_new(o, "elapsed_s", num(job, "elapsed", &v) ?
			    json_real(v) : json_null());

	for (d = 0; d < NR_DIRS; d++) {
		const json_t *dj = json_object_get(job, dir_names[d]);
		json_t *dm;

		if (!json_is_object(dj))
			continue;
		dm = parse_dir(c, dir_names[d], dj, &js->dir[d]);
		if (dm)
			json_object_set_new(o, dir_names[d], dm);
	}
	if (num(job, "usr_cpu", &js->usr_cpu) &&
	    num(job, "sys_cpu", &js->sys_cpu)) {
		js->has_cpu = 1;
		set_num(o, "usr_cpu_pct", js->usr_cpu);
		set_num(o, "sys_cpu_pct", js->sys_cpu);
	}
	return o;
}

static int cmp_bin(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

/* Percentiles of the union of the bins of every contributing job, as fio
 * computes them (stat.c calc_clat_percentiles()): the value of the first
 * bin whose cumulative count reaches p/100 of all samples. */
static int merge_percentiles(struct job_stat *js, size_t njobs, int d,
			     double out[NR_PCT])
{
	struct bin *all;
	size_t n = 0, j, k;
	long double total = 0, cum = 0;
	int i = 0;

	for (j = 0; j < njobs; j++)
		if (js[j].dir[d].has_clat)
			n += js[j].dir[d].nbins;
	if (!n)
		return -ENODATA;
	all = kb_xcalloc(n, sizeof(*all));
	n = 0;
	for (j = 0; j < njobs; j++) {
		struct dir_stat *s = &js[j].dir[d];

		if (!s->has_clat)
			continue;
		for (k = 0; k < s->nbins; k++) {
			all[n] = s->bins[k];
			total += all[n].count;
			n++;
		}
	}
	qsort(all, n, sizeof(*all), cmp_bin);
	for (k = 0; k < n && i < NR_PCT; k++) {
		cum += all[k].count;
		while (i < NR_PCT &&
		       cum >= (long double)pct_points[i] / 100.0L * total)
			out[i++] = all[k].ns;
	}
	/* rounding: anything left is the last bin */
	while (i < NR_PCT)
		out[i++] = all[n - 1].ns;
	free(all);
	return 0;
}

static void set_metric(json_t *m, const char *dname, const char *what,
		       double v)
{
	char key[64];

	snprintf(key, sizeof(key), "%s.%s", dname, what);
	set_num(m, key, v);
}

static void aggregate(struct ctx *c, struct job_stat *js, size_t njobs,
		      json_t *m)
{
	double usr = 0, sys = 0;
	size_t j, ncpu = 0;
	int d, i;

	for (d = 0; d < NR_DIRS; d++) {
		const char *dn = dir_names[d];
		double iops = 0, bw = 0, cw = 0, cwm = 0, csum = 0;
		double lw = 0, lwm = 0, lsum = 0;
		size_t nio = 0, nclat = 0, nlat = 0, nobins = 0;
		struct dir_stat *one = NULL;
		double pct[NR_PCT];

		for (j = 0; j < njobs; j++) {
			struct dir_stat *s = &js[j].dir[d];
			double w;

			if (!s->has_io)
				continue;
			nio++;
			iops += s->iops;
			bw += s->bw_kib;
			if (s->has_clat) {
				w = s->clat_n > 0 ? s->clat_n : s->weight;
				nclat++;
				cw += w;
				cwm += w * s->clat_mean_ns;
				csum += s->clat_mean_ns;
				if (!s->has_bins)
					nobins++;
				one = s;
			}
			if (s->has_lat) {
				w = s->lat_n > 0 ? s->lat_n : s->weight;
				nlat++;
				lw += w;
				lwm += w * s->lat_mean_ns;
				lsum += s->lat_mean_ns;
			}
		}
		if (!nio)
			continue;
		set_metric(m, dn, "iops", iops);
		set_metric(m, dn, "bw_kib", bw);
		if (nclat)
			set_metric(m, dn, "clat_mean_ns",
				   cw > 0 ? cwm / cw : csum / nclat);
		if (nlat)
			set_metric(m, dn, "lat_mean_ns",
				   lw > 0 ? lwm / lw : lsum / nlat);
		if (nclat == 1) {
			for (i = 0; i < NR_PCT; i++)
				if (one->has_pct[i])
					set_metric(m, dn, pct_names[i],
						   one->pct_ns[i]);
		} else if (nclat > 1 && !nobins) {
			if (!merge_percentiles(js, njobs, d, pct))
				for (i = 0; i < NR_PCT; i++)
					set_metric(m, dn, pct_names[i], pct[i]);
		} else if (nclat > 1) {
			warnf(c, "%s: %zu jobs report %s latency but %zu lack json+ bins: their clat percentiles cannot be combined, %s.clat_p50_ns/p99/p999 left out (run fio with --output-format=json+ or group_reporting=1)",
			      dn, nclat, dn, nobins, dn);
		}
		if (d == DIR_MIXED)
			warnf(c, "unified_rw_reporting: fio reported a 'mixed' direction; its metrics are mixed.* (not in kbench's metric table)");
	}
	for (j = 0; j < njobs; j++) {
		if (!js[j].has_cpu)
			continue;
		usr += js[j].usr_cpu;
		sys += js[j].sys_cpu;
		ncpu++;
	}
	if (ncpu) {
		set_num(m, "fio.usr_cpu_pct", usr / ncpu);
		set_num(m, "fio.sys_cpu_pct", sys / ncpu);
	}
}

/* Does the '{' at off open what looks like a JSON object ('{' then blanks
 * then '"', '}' or the end)?  Braces in prose ("{foo}") do not. */
static int object_start(const char *buf, size_t off, size_t len)
{
	for (off++; off < len; off++)
		if (buf[off] != ' ' && buf[off] != '\t' && buf[off] != '\r' &&
		    buf[off] != '\n')
			return buf[off] == '"' || buf[off] == '}';
	return 1;
}

static int is_fio_doc(const json_t *j)
{
	return json_is_object(j) &&
		(json_is_array(json_object_get(j, "jobs")) ||
		 json_is_array(json_object_get(j, "client_stats")));
}

/* Warn about the non-blank lines of [from, to) before the first document;
 * first_line is the line number of from. */
static void warn_preamble(struct ctx *c, const char *buf, size_t from,
			  size_t to, int first_line)
{
	char q[MAX_QUOTE + 8];
	int line = first_line, shown = 0, more = 0;
	size_t p = from;

	while (p < to) {
		const char *nl = memchr(buf + p, '\n', to - p);
		size_t e = nl ? (size_t)(nl - buf) : to;

		if (!is_blank(buf + p, e - p)) {
			if (shown < MAX_PREAMBLE_WARNINGS) {
				quote(q, sizeof(q), buf + p, e - p);
				warnf(c, "non-JSON preamble line %d: '%s'",
				      line, q);
				shown++;
			} else {
				more++;
			}
		}
		p = e + 1;
		line++;
	}
	if (more)
		warnf(c, "... and %d more non-JSON preamble lines", more);
}

/* One warning for the text between/after documents. */
static void warn_between(struct ctx *c, const char *buf, size_t from,
			 size_t to, int first_line, int after_doc)
{
	char q[MAX_QUOTE + 8];
	size_t s = from, e;
	int l0, l1;

	if (is_blank(buf + from, to - from))
		return;
	while (s < to && (buf[s] == ' ' || buf[s] == '\t' || buf[s] == '\r' ||
			  buf[s] == '\n'))
		s++;
	l0 = first_line + count_lines(buf, from, s);
	e = to;
	while (e > s && (buf[e - 1] == ' ' || buf[e - 1] == '\t' ||
			 buf[e - 1] == '\r' || buf[e - 1] == '\n'))
		e--;
	l1 = l0 + count_lines(buf, s, e);
	{
		const char *nl = memchr(buf + s, '\n', e - s);

		quote(q, sizeof(q), buf + s, nl ? (size_t)(nl - (buf + s)) :
		      e - s);
	}
	if (l1 > l0)
		warnf(c, "non-JSON text after JSON document %d (lines %d-%d) ignored: '%s'",
		      after_doc, l0, l1, q);
	else
		warnf(c, "non-JSON text after JSON document %d (line %d) ignored: '%s'",
		      after_doc, l0, q);
}

static int looks_like_terse(const char *buf, size_t len)
{
	size_t p = 0;

	while (p < len) {
		const char *nl = memchr(buf + p, '\n', len - p);
		size_t e = nl ? (size_t)(nl - buf) : len, i;
		int semis = 0;

		for (i = p; i < e; i++)
			if (buf[i] == ';')
				semis++;
		if (semis >= 40)
			return 1;
		p = e + 1;
	}
	return 0;
}

static int looks_like_normal(const char *buf, size_t len)
{
	static const char *const marks[] = {
		"Run status group", ": (groupid=", "(g=", " IOPS=", " iops=",
		"clat percentiles",
	};
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (memmem(buf, len, marks[i], strlen(marks[i])))
			return 1;
	return 0;
}

/* The message for a buffer with no fio JSON document in it. */
static void no_doc_error(const char *name, const char *buf, size_t len,
			 const char *bad, int bad_line, int nondoc_line,
			 char *err, size_t errlen)
{
	if (is_blank(buf, len))
		kb_fmt(err, errlen, "%s: %s: no JSON document found (is this fio --output-format=json output?)",
		       name, len ? "only blank text" : "empty file");
	else if (looks_like_terse(buf, len) || looks_like_normal(buf, len))
		kb_fmt(err, errlen, "%s: looks like fio normal/terse text output; kbench parses JSON: run fio with --output-format=json",
		       name);
	else if (bad)
		kb_fmt(err, errlen, "%s:%d: invalid JSON document (truncated file?): %s",
		       name, bad_line, bad);
	else if (nondoc_line)
		kb_fmt(err, errlen, "%s:%d: JSON document has no \"jobs\" (or \"client_stats\") array: not fio --output-format=json output",
		       name, nondoc_line);
	else
		kb_fmt(err, errlen, "%s: no JSON document found (is this fio --output-format=json output?)",
		       name);
}

json_t *fio_parse_buf(const char *name, const char *buf, size_t len,
		      char *err, size_t errlen)
{
	struct ctx c = { .name = name, .ver_major = -1, .ver_minor = -1 };
	json_t *doc = NULL, *res = NULL, *jobs = NULL, *metrics = NULL;
	const json_t *entries, *gopts, *e;
	struct job_stat *js = NULL;
	size_t p = 0, text = 0, njs = 0, i, k;
	int ndocs = 0, line = 1, text_line = 1, doc_line = 0;
	int bad_line = 0, nondoc_line = 0, bad_after_line = 0;
	json_int_t first_error = 0;
	char bad[200] = "", bad_after[200] = "";
	json_int_t groups[2];
	int ngroups = 0;

	if (!buf)
		len = 0;
	c.warnings = json_array();

	/* The documents, read as a stream: every '{' is a candidate start. */
	while (p < len) {
		const char *q = memchr(buf + p, '{', len - p);
		size_t off;
		json_error_t je;
		json_t *j;

		if (!q)
			break;
		off = (size_t)(q - buf);
		line += count_lines(buf, p, off);
		j = json_loadb(buf + off, len - off, JSON_DISABLE_EOF_CHECK,
			       &je);
		if (j && is_fio_doc(j) && je.position > 0) {
			if (ndocs == 0)
				warn_preamble(&c, buf, text, off, text_line);
			else
				warn_between(&c, buf, text, off, text_line,
					     ndocs);
			ndocs++;
			json_decref(doc);
			doc = j;
			doc_line = line;
			bad_after[0] = '\0';
			p = off + (size_t)je.position;
			line += count_lines(buf, off, p);
			text = p;
			text_line = line;
			continue;
		}
		if (j) {
			if (!nondoc_line)
				nondoc_line = line;
			json_decref(j);
			p = off + (je.position > 0 ? (size_t)je.position : 1);
			line += count_lines(buf, off, p);
			continue;
		}
		if (!object_start(buf, off, len)) {
			p = off + 1;
			continue;
		}
		if (!bad[0]) {
			bad_line = line;
			kb_fmt(bad, sizeof(bad), "%s (line %d, column %d)",
			       je.text, line + je.line - 1, je.column);
		}
		if (ndocs && !bad_after[0]) {
			bad_after_line = line;
			kb_fmt(bad_after, sizeof(bad_after), "%s (line %d, column %d)",
			       je.text, line + je.line - 1, je.column);
		}
		p = off + 1;
	}

	if (!doc) {
		no_doc_error(name, buf ? buf : "", len, bad[0] ? bad : NULL,
			     bad_line, nondoc_line, err, errlen);
		goto out;
	}
	if (bad_after[0])
		warnf(&c, "invalid JSON after document %d, from line %d (truncated document?), ignored: %s",
		      ndocs, bad_after_line, bad_after);
	else
		warn_between(&c, buf, text, len, text_line, ndocs);
	if (ndocs > 1)
		warnf(&c, "%d JSON documents (fio --status-interval, or several runs in one file): using the last one, from line %d",
		      ndocs, doc_line);

	c.version = json_string_value(json_object_get(doc, "fio version"));
	if (c.version && sscanf(c.version, "fio-%d.%d", &c.ver_major,
				&c.ver_minor) != 2)
		c.ver_major = c.ver_minor = -1;

	gopts = json_object_get(doc, "global options");
	entries = json_object_get(doc, "jobs");
	if (!json_is_array(entries))
		entries = json_object_get(doc, "client_stats");
	js = kb_xcalloc(json_array_size(entries) + 1, sizeof(*js));
	jobs = json_array();
	json_array_foreach(entries, i, e) {
		const char *jn = json_string_value(json_object_get(e, "jobname"));
		json_t *jo;

		if (!json_is_object(e))
			continue;
		if (jn && !strcmp(jn, "All clients"))
			continue;	/* fio --client aggregate */
		jo = parse_job(&c, e, gopts, &js[njs]);
		json_array_append_new(jobs, jo);
		if (!first_error)
			first_error = json_integer_value(
				json_object_get(jo, "error"));
		for (k = 0; k < (size_t)ngroups; k++)
			if (groups[k] == js[njs].groupid)
				break;
		if (k == (size_t)ngroups && ngroups < 2)
			groups[ngroups++] = js[njs].groupid;
		njs++;
	}
	if (!njs)
		warnf(&c, "the fio JSON document has no job entries");
	if (ngroups > 1)
		warnf(&c, "jobs are in several reporting groups (groupid): metrics combine all of them");

	metrics = json_object();
	aggregate(&c, js, njs, metrics);

	res = json_object();
	json_object_set_new(res, "file", json_string(name));
	json_object_set_new(res, "fio_version", c.version ?
			    json_string(c.version) : json_null());
	json_object_set_new(res, "documents", json_integer(ndocs));
	json_object_set_new(res, "jobs", jobs);
	jobs = NULL;
	json_object_set_new(res, "metrics", metrics);
	metrics = NULL;
	json_object_set(res, "warnings", c.warnings);
	json_object_set_new(res, "error", json_integer(first_error));
out:
	if (js) {
		for (i = 0; i < njs; i++) {
			int d;

			for (d = 0; d < NR_DIRS; d++)
				free(js[i].dir[d].bins);
		}
		free(js);
	}
	json_decref(jobs);
	json_decref(metrics);
	json_decref(doc);
	json_decref(c.warnings);
	return res;
}

json_t *fio_parse_file(const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	struct stat st;
	json_t *res;
	int rc;

	/* fio's largest outputs (json+ of many jobs) are tens of MB; a
	 * disk image or a core file given by mistake is not read whole */
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > FIO_MAX_OUTPUT_BYTES) {
		kb_fmt(err, errlen, "%s: %lld bytes is far larger than any fio "
		       "output (limit %d MiB); is this the right file?", path,
		       (long long)st.st_size, FIO_MAX_OUTPUT_BYTES >> 20);
		return NULL;
	}
	rc = kb_read_file(path, &buf, &len, 1);
	if (rc < 0) {
		kb_fmt(err, errlen, "%s: cannot read: %s", path, strerror(-rc));
		return NULL;
	}
	res = fio_parse_buf(path, buf, len, err, errlen);
	free(buf);
	return res;
}

int fio_result_error(const json_t *parsed, char *msg, size_t msglen)
{
	const json_t *jobs = json_object_get(parsed, "jobs");
	const json_t *job, *first = NULL;
	json_int_t code = 0;
	size_t i, nfail = 0;
	const char *name, *host;
	char more[64] = "";

	json_array_foreach(jobs, i, job) {
		json_int_t e = json_integer_value(json_object_get(job, "error"));

		if (!e)
			continue;
		if (!first) {
			first = job;
			code = e;
		}
		nfail++;
	}
	if (!first) {
		if (msg && msglen)
			msg[0] = '\0';
		return 0;
	}
	if (!msg)
		return (int)code;
	name = json_string_value(json_object_get(first, "name"));
	host = json_string_value(json_object_get(first, "hostname"));
	if (nfail > 1)
		kb_fmt(more, sizeof(more), "; %zu more job%s failed", nfail - 1,
		       nfail > 2 ? "s" : "");
	kb_fmt(msg, msglen, "fio job '%s'%s%s failed: error=%lld (%s)%s",
	       name ? name : "?", host ? " on " : "", host ? host : "",
	       (long long)code, strerror((int)code), more);
	return code > 0 && code < 0x7fffffff ? (int)code : 1;
}
