/* parsers/fio_json.c - fio JSON / JSON+ output -> kbench metrics.
 * See fio_json.h for the formats, the returned shape and the units. */
#include "parsers/fio_json.h"
#include "parsers/json_file.h"
#include "parsers/fio_terse.h"
#include "lib/err.h"
#include "lib/file.h"
#include "parsers/fio_json_stream.h"
#include "parsers/kconf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

enum { DIR_READ, DIR_WRITE, DIR_TRIM, DIR_MIXED, NR_DIRS };

static const char *const dir_names[NR_DIRS] = { "read", "write", "trim", "mixed" };

/* The percentiles kbench keeps; fio's keys are "%f" of these ("99.000000",
 * older files "99.00"), so they are matched numerically. */
#define NR_PCT 3
static const double pct_points[NR_PCT] = { 50.0, 99.0, 99.9 };

/* The latency kinds whose percentiles kbench keeps: completion latency
 * (fio's default, clat_percentiles=1) and total latency
 * (lat_percentiles=1); fio writes the percentile map (and the json+ bins)
 * under the block whose percentiles it computed. */
enum { LK_CLAT, LK_LAT, NR_LK };
static const char *const lk_names[NR_LK] = { "clat", "lat" };
static const char *const pct_names[NR_LK][NR_PCT] = {
	{ "clat_p50_ns", "clat_p99_ns", "clat_p999_ns" },
	{ "lat_p50_ns", "lat_p99_ns", "lat_p999_ns" },
};

#define MAX_PREAMBLE_WARNINGS	10
#define MAX_QUOTE		160

/* The percentiles of one latency kind of one job's direction. */
struct lat_dist {
	int has_pct[NR_PCT];
	double pct_ns[NR_PCT];
	int has_bins;
	struct fio_bin *bins;	/* sorted by ns (merge_percentiles()) */
	size_t nbins;
	int bad;		/* impossible values: dropped, with a warning */
};

/* A mean latency of one job's direction: fio's clat, lat or slat block's
 * "mean" (in ns) and "N" (-1 when the file has none). */
enum { LM_CLAT, LM_LAT, LM_SLAT, NR_LM };
static const char *const lm_names[NR_LM] = { "clat_mean_ns", "lat_mean_ns",
					     "slat_mean_ns" };
static const char *const lm_blocks[NR_LM] = { "clat", "lat", "slat" };

struct lat_mean {
	int has;		/* the block measured something */
	int bad;		/* impossible mean: dropped, with a warning */
	double mean_ns;
	double n;
};

struct dir_stat {
	int seen;		/* the job has the direction's block */
	int has_io;
	int has_total;		/* total_ios read (possible: >= 0) */
	double total_ios;	/* I/Os fio issued (its total_ios) */
	double iops;
	double bw_kib;
	int bad_iops;		/* impossible value: the metric is dropped */
	int bad_bw;
	double weight;		/* I/O count estimate, for weighted means */
	struct lat_mean mean[NR_LM];	/* by LM_* */
	struct lat_dist dist[NR_LK];
};

struct job_stat {
	struct dir_stat dir[NR_DIRS];
	int has_cpu;
	int bad_cpu;
	double usr_cpu;
	double sys_cpu;
	json_int_t groupid;
};

struct ctx {
	const char *name;
	json_t *warnings;
	json_t *flags;		/* reasons to doubt the run (strings) */
	int ver_major;		/* -1 when the version is unknown */
	int ver_minor;
	const char *version;
	const char *jobname;	/* the job being read, for messages */
	int warned_kib;
	int warned_bins;
	/* the document's json+ bins when the streaming pass read it */
	const struct fio_bin_table *bins;
	/* fio_parse_opts.bins_out: the direction and kind wanted, or -1 */
	int want_dir, want_kind;
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

static void flagf(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Add a flag (a reason to doubt the run), once. */
static void flagf(struct ctx *c, const char *fmt, ...)
{
	char buf[512];
	const json_t *f;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_foreach(c->flags, i, f)
		if (!strcmp(json_string_value(f), buf))
			return;
	for (i = 0; buf[i]; i++)	/* quoted input: keep the ASCII */
		if ((unsigned char)buf[i] >= 0x80)
			buf[i] = '?';
	json_array_append_new(c->flags, json_string(buf));
}

int fio_value_impossible(double v)
{
	return v < 0 || v >= 9.2e18;
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
	const char *p, *end;
	int n = 0;

	if (from >= to)
		return 0;	/* buf may be NULL then */
	p = buf + from;
	end = buf + to;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p++;
	}
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

static int cmp_bin(const void *a, const void *b)
{
	const struct fio_bin *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

/* The latency in ns of json+ bin key k: k itself, or for fio < 2.20
 * (indexed) the histogram index converted with plat_idx_to_val(); then
 * times mult (1000 for a block in usec).  -ERANGE for an index beyond the
 * histogram. */
static int bin_key_ns(unsigned long long k, int indexed, unsigned int bits,
		      unsigned int val, double mult, double *ns)
{
	if (indexed) {
		if (plat_idx_to_val(k, bits, val, ns))
			return -ERANGE;
	} else {
		*ns = (double)k;
	}
	*ns *= mult;
	return 0;
}

/* Read the json+ "bins" of a clat block into s->bins (latency in ns): from
 * c->bins when the streaming pass read them (its set is freed here), else
 * from the jansson object. */
static void read_bins(struct ctx *c, const char *dname, const json_t *clat,
		      double mult, struct lat_dist *s)
{
	const json_t *bins = json_object_get(clat, "bins");
	const json_t *jbits, *jval;
	struct fio_bin_set *set;
	unsigned int bits = 0, val = 0;
	int indexed, bad = 0;
	const char *key;
	json_t *v;
	size_t i;

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
	set = fio_bin_table_find(c->bins, bins);
	s->nbins = 0;
	if (set) {
		/* keys are decimal, counts numbers >= 0 (else jansson read
		 * the document): converted in place, the set's array taken */
		s->bins = set->bin;
		for (i = 0; i < set->n; i++) {
			struct fio_bin b = set->bin[i];

			if (bin_key_ns(b.key, indexed, bits, val, mult,
				       &b.ns)) {
				bad++;
				continue;
			}
			if (b.count == 0)
				continue;
			s->bins[s->nbins++] = b;
		}
		set->bin = NULL;
		set->n = set->cap = 0;
	} else {
		s->bins = kb_xcalloc(json_object_size(bins), sizeof(*s->bins));
		json_object_foreach((json_t *)bins, key, v) {
			unsigned long long k;
			char *end;

			if (!strncmp(key, "FIO_IO_U_PLAT_", 14))
				continue;
			errno = 0;
			k = strtoull(key, &end, 10);
			if (end == key || *end || errno ||
			    !json_is_number(v) || json_number_value(v) < 0 ||
			    bin_key_ns(k, indexed, bits, val, mult,
				       &s->bins[s->nbins].ns)) {
				bad++;
				continue;
			}
			if (json_number_value(v) == 0)
				continue;
			s->bins[s->nbins].count = json_number_value(v);
			s->nbins++;
		}
	}
	for (i = 1; i < s->nbins; i++)
		if (s->bins[i].ns < s->bins[i - 1].ns)
			break;
	if (i < s->nbins)	/* fio writes them in order: rarely */
		qsort(s->bins, s->nbins, sizeof(*s->bins), cmp_bin);
	if (bad && !c->warned_bins) {
		warnf(c, "%s: %d json+ bin key(s) are not latency values: ignored",
		      dname, bad);
		c->warned_bins = 1;
	}
	s->has_bins = 1;
}

/* The percentiles kbench keeps of latency kind k of direction dname from
 * its block blk (fio's "clat_ns", or "clat" in usec when mult is 1000)
 * into s.  A map or a kept percentile that is not a number is said and
 * left out (a string was skipped in silence: a break-it trial); the
 * others are kept. */
static void read_percentiles(struct ctx *c, const char *dname, int k,
			     const json_t *blk, double mult,
			     struct lat_dist *s)
{
	const json_t *map = json_object_get(blk, "percentile");
	const char *key, *unit = mult == 1.0 ? "_ns" : "";
	json_t *v;
	int i;

	if (map && !json_is_object(map))
		warnf(c, "job '%s': %s.%s%s.percentile is %s, not an object of percentiles: %s.%s_p50/p99/p999 left out",
		      c->jobname, dname, lk_names[k], unit, kb_json_kind(map),
		      dname, lk_names[k]);
	if (!json_is_object(map))
		return;
	json_object_foreach((json_t *)map, key, v) {
		char *end;
		double p = strtod(key, &end);

		if (end == key || *end)
			continue;
		for (i = 0; i < NR_PCT; i++) {
			if (fabs(p - pct_points[i]) >= 1e-6)
				continue;
			if (!json_is_number(v)) {
				warnf(c, "job '%s': %s.%s%s.percentile[\"%s\"] is %s, not a number: %s.%s left out",
				      c->jobname, dname, lk_names[k], unit,
				      key, kb_json_kind(v), dname,
				      pct_names[k][i]);
				continue;
			}
			s->pct_ns[i] = json_number_value(v) * mult;
			s->has_pct[i] = 1;
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

/* Percentiles must not decrease with p (p50 <= p99 <= p99.9) and cannot
 * be negative: else the kind's percentiles are dropped, with a warning. */
static void check_percentiles(struct ctx *c, const char *dname, int k,
			      struct lat_dist *s)
{
	double prev = -1;
	int i, pi = -1;

	for (i = 0; i < NR_PCT; i++) {
		if (!s->has_pct[i])
			continue;
		if (fio_value_impossible(s->pct_ns[i])) {
			warnf(c, "job '%s': %s.%s = %.17g is impossible: %s.%s_p50/p99/p999 dropped",
			      c->jobname, dname, pct_names[k][i], s->pct_ns[i],
			      dname, lk_names[k]);
			s->bad = 1;
			break;
		}
		if (pi >= 0 && s->pct_ns[i] < prev) {
			warnf(c, "job '%s': %s percentiles are not monotonic (%s = %.17g > %s = %.17g): %s.%s_p50/p99/p999 dropped",
			      c->jobname, dname, pct_names[k][pi], prev,
			      pct_names[k][i], s->pct_ns[i], dname,
			      lk_names[k]);
			s->bad = 1;
			break;
		}
		prev = s->pct_ns[i];
		pi = i;
	}
	if (s->bad)
		memset(s->has_pct, 0, sizeof(s->has_pct));
}

/* Warn about an impossible value of a metric and say that it is dropped. */
static int drop_if_impossible(struct ctx *c, const char *dname,
			      const char *what, double v)
{
	if (!fio_value_impossible(v))
		return 0;
	warnf(c, "job '%s': %s.%s = %.17g is impossible (negative or a wrapped counter): %s.%s dropped",
	      c->jobname, dname, what, v, dname, what);
	return 1;
}

/* num() of a member a metric comes from: a member that is there but not
 * a number ("iops": "123") is said and the metric left out (it was read
 * as 0 IOPS without a word); an absent one is left out quietly (an older
 * fio's output). */
static int num_or_warn(struct ctx *c, const char *dname, const json_t *d,
		       const char *key, double *v)
{
	const json_t *x = json_object_get(d, key);

	if (num(d, key, v))
		return 1;
	if (x)
		warnf(c, "job '%s': %s.%s is %s, not a number: left out",
		      c->jobname, dname, key, kb_json_kind(x));
	return 0;
}

/* Mean latency k of block blk (fio's "mean" times mult, in ns) into
 * s->mean[k] and, unless impossible, o's lm_names[k].  Returns 1 when the
 * block measured something (its percentiles are then read too). */
static int read_mean(struct ctx *c, const char *dname, const json_t *blk,
		     double mult, int k, struct dir_stat *s, json_t *o)
{
	struct lat_mean *lm = &s->mean[k];
	double mean, n;

	if (blk && num(blk, "N", &n) && fio_value_impossible(n)) {
		warnf(c, "job '%s': %s.%s.N = %.17g is impossible (negative or a wrapped counter): its mean and percentiles dropped",
		      c->jobname, dname, lm_blocks[k], n);
		return 0;
	}
	if (!block_measured(blk, &lm->n) || !num(blk, "mean", &mean))
		return 0;
	lm->has = 1;
	lm->mean_ns = mean * mult;
	lm->bad = drop_if_impossible(c, dname, lm_names[k], lm->mean_ns);
	if (!lm->bad)
		set_num(o, lm_names[k], lm->mean_ns);
	return 1;
}

/* One direction of one job.  Returns its metric object (new reference),
 * or NULL when the direction did no I/O. */
static json_t *parse_dir(struct ctx *c, const char *dname, const json_t *d,
			 struct dir_stat *s)
{
	double total = 0, io = 0, runtime = 0, mult = 1, n;
	const json_t *clat, *lat, *slat;
	int have_total, i, k;
	json_int_t iv;
	json_t *o;

	have_total = num(d, "total_ios", &total);
	if (have_total && fio_value_impossible(total)) {
		/* said, and judged as without it (it dropped the direction,
		 * IOPS included, without a word: a break-it trial) */
		warnf(c, "job '%s': %s.total_ios = %.17g is impossible (negative or a wrapped counter): ignored",
		      c->jobname, dname, total);
		have_total = 0;
	}
	s->seen = 1;
	s->has_total = have_total;
	s->total_ios = have_total ? total : 0;
	clat = lat_block(d, "clat", &mult);
	num(d, "io_bytes", &io);
	if (have_total)
		s->has_io = total > 0;
	else if (clat && num(clat, "N", &n) && !fio_value_impossible(n))
		s->has_io = n > 0;
	else
		s->has_io = io > 0;
	if (!s->has_io)
		return NULL;

	o = json_object();
	s->bad_iops = !num_or_warn(c, dname, d, "iops", &s->iops) ||
		      drop_if_impossible(c, dname, "iops", s->iops);
	s->bad_bw = !num_or_warn(c, dname, d, "bw", &s->bw_kib) ||
		    drop_if_impossible(c, dname, "bw_kib", s->bw_kib);
	if (!s->bad_iops)
		set_num(o, "iops", s->iops);
	if (!s->bad_bw)
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
	/* < 0 or not a number: said, left out (runtime_ms -1000 was kept
	 * in silence: a break-it trial) */
	if (num_or_warn(c, dname, d, "runtime", &runtime) &&
	    !drop_if_impossible(c, dname, "runtime", runtime) &&
	    inum(d, "runtime", &iv))
		json_object_set_new(o, "runtime_ms", json_integer(iv));
	else
		runtime = 0;
	s->weight = have_total ? total : s->iops * runtime / 1000.0;
	if (fio_value_impossible(s->weight))
		s->weight = 0;

	if (read_mean(c, dname, clat, mult, LM_CLAT, s, o)) {
		read_percentiles(c, dname, LK_CLAT, clat, mult,
				 &s->dist[LK_CLAT]);
		read_bins(c, dname, clat, mult, &s->dist[LK_CLAT]);
	}
	lat = lat_block(d, "lat", &mult);
	if (read_mean(c, dname, lat, mult, LM_LAT, s, o)) {
		read_percentiles(c, dname, LK_LAT, lat, mult,
				 &s->dist[LK_LAT]);
		read_bins(c, dname, lat, mult, &s->dist[LK_LAT]);
	}
	for (k = 0; k < NR_LK; k++) {
		check_percentiles(c, dname, k, &s->dist[k]);
		for (i = 0; i < NR_PCT; i++)
			if (s->dist[k].has_pct[i])
				set_num(o, pct_names[k][i], s->dist[k].pct_ns[i]);
	}
	/* slat: measured by async engines only (libaio, io_uring; fio's
	 * HOWTO, "slat"); a sync engine's block has N = 0 */
	slat = lat_block(d, "slat", &mult);
	read_mean(c, dname, slat, mult, LM_SLAT, s, o);
	return o;
}

static json_t *string_or_null(const json_t *s)
{
	return json_is_string(s) ? json_string(json_string_value(s)) :
		json_null();
}

/* fio's latency distribution (latency_ns, latency_us, latency_ms: the
 * percent of all I/Os per latency bucket) covers every I/O once, so its
 * shares sum to 100% (the files of tests/data/fio: 99.76% to 100.08%,
 * rounding), or to 0 when fio measured no latency (gtod_reduce=1).  A
 * sum off by more than LAT_BUCKETS_TOLERANCE points, or a share outside
 * 0..100, is flagged. */
#define LAT_BUCKETS_TOLERANCE 1.0

static void check_latency_buckets(struct ctx *c, const json_t *job)
{
	static const char *const maps[] = { "latency_ns", "latency_us",
					    "latency_ms" };
	double sum = 0;
	const char *key, *badkey = NULL, *badmap = NULL;
	double badv = 0;
	int have = 0;
	size_t i;
	json_t *v;

	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		const json_t *m = json_object_get(job, maps[i]);

		if (!json_is_object(m))
			continue;
		json_object_foreach((json_t *)m, key, v) {
			if (!json_is_number(v))
				continue;
			have = 1;
			sum += json_number_value(v);
			if (!badkey && (json_number_value(v) < 0 ||
					json_number_value(v) > 100.0001)) {
				badkey = key;
				badmap = maps[i];
				badv = json_number_value(v);
			}
		}
	}
	/* every bucket 0 although the job did I/O: fio measured no latency
	 * (gtod_reduce=1, as seed 002's job, or disable_lat=1), as its
	 * clat/lat N of 0 says: nothing inconsistent, nothing to flag */
	if (!have || (!badkey && sum == 0))
		return;
	if (badkey) {
		warnf(c, "job '%s': latency bucket %s[\"%s\"] = %g%% is not a share of the I/Os (0..100%%): fio's latency distribution is inconsistent",
		      c->jobname, badmap, badkey, badv);
		flagf(c, "latency bucket %s[\"%s\"] = %g%% (job '%s')", badmap,
		      badkey, badv, c->jobname);
	} else if (fabs(sum - 100.0) > LAT_BUCKETS_TOLERANCE) {
		warnf(c, "job '%s': latency bucket shares (latency_ns/latency_us/latency_ms) sum to %.2f%%, not about 100%%: fio's latency distribution is inconsistent",
		      c->jobname, sum);
		flagf(c, "latency bucket shares sum to %.2f%% (job '%s')", sum,
		      c->jobname);
	}
}

/* fio steadystate= (fio HOWTO "Steady state"): the job ran until its
 * criterion held, or until ss_dur ran out; "attained": 0 says the latter,
 * so the numbers are not those of a steady state. */
static void check_steadystate(struct ctx *c, const json_t *job)
{
	const json_t *ss = json_object_get(job, "steadystate");
	const char *what, *crit;
	json_int_t att = 1, dur = 0;

	if (!json_is_object(ss) || !inum(ss, "attained", &att) || att)
		return;
	what = json_string_value(json_object_get(ss, "ss"));
	crit = json_string_value(json_object_get(ss, "criterion"));
	inum(ss, "duration", &dur);
	warnf(c, "job '%s': steady state not attained (%s, criterion %s) within %lld s: the results are not those of a steady state",
	      c->jobname, what ? what : "?", crit ? crit : "?",
	      (long long)dur);
	flagf(c, "steady state not attained: job '%s' (%s, criterion %s, %lld s)",
	      c->jobname, what ? what : "?", crit ? crit : "?",
	      (long long)dur);
}

/* fio_parse_opts.bins_out: the wanted bins of job that parse_dir() did
 * not read (a direction without I/O, a block without samples). */
static void read_wanted_bins(struct ctx *c, const json_t *job,
			     struct job_stat *js)
{
	struct lat_dist *s = &js->dir[c->want_dir].dist[c->want_kind];
	const json_t *d = json_object_get(job, dir_names[c->want_dir]);
	const json_t *b;
	double mult;

	if (s->has_bins || !json_is_object(d))
		return;
	b = lat_block(d, lk_names[c->want_kind], &mult);
	if (b)
		read_bins(c, dir_names[c->want_dir], b, mult, s);
}

/* Add the wanted bins of every job (read_wanted_bins()) to *out. */
static void add_wanted_bins(const struct ctx *c, const struct job_stat *js,
			    size_t njobs, struct kb_lat_bins *out)
{
	struct kb_lat_bin *tmp;
	size_t j, b;

	for (j = 0; j < njobs; j++) {
		const struct lat_dist *s =
			&js[j].dir[c->want_dir].dist[c->want_kind];

		if (!s->nbins)
			continue;
		tmp = kb_xcalloc(s->nbins, sizeof(*tmp));
		for (b = 0; b < s->nbins; b++) {
			tmp[b].value_ns = s->bins[b].ns;
			tmp[b].count = s->bins[b].count;
		}
		kb_lat_bins_add(out, tmp, s->nbins);
		free(tmp);
	}
}

/* c's want_dir and want_kind from o->bins_out's direction and kind (-1:
 * no bins wanted, or a direction fio does not have). */
static void want_bins(struct ctx *c, const struct fio_parse_opts *o)
{
	size_t k;

	c->want_dir = c->want_kind = -1;
	if (!o || !o->bins_out || !o->bins_direction)
		return;
	for (k = 0; k < NR_DIRS; k++)
		if (!strcmp(o->bins_direction, dir_names[k])) {
			c->want_dir = (int)k;
			c->want_kind = o->bins_kind == KB_LAT_TOTAL ? LK_LAT :
				       LK_CLAT;
		}
}

/* 1 when fio's rw (the job's or the global "rw" option: "randread",
 * "rw", "randrw:8", ...) does I/O of direction d (DIR_READ, DIR_WRITE,
 * DIR_TRIM). */
static int rw_does(const char *rw, int d)
{
	static const char *const does[][8] = {
		[DIR_READ] = { "read", "randread", "rw", "readwrite", "randrw",
			       NULL },
		[DIR_WRITE] = { "write", "randwrite", "rw", "readwrite",
				"randrw", "trimwrite", "randtrimwrite", NULL },
		[DIR_TRIM] = { "trim", "randtrim", "trimwrite",
			       "randtrimwrite", NULL },
	};
	size_t n = strcspn(rw, ":"), i;

	for (i = 0; does[d][i]; i++)
		if (strlen(does[d][i]) == n && !strncmp(does[d][i], rw, n))
			return 1;
	return 0;
}

/* A job with none of fio's direction blocks ("read", "write", "trim",
 * "mixed"), or without the block of a direction its rw option (rw, NULL
 * when not given) does: said (a "read" block taken out left read.* out
 * in silence: a break-it trial).  fio writes read, write and trim (fio
 * 3.x also sync) for every job, or mixed alone with
 * unified_rw_reporting. */
static void check_dir_blocks(struct ctx *c, const json_t *job, const char *rw)
{
	int d;

	for (d = 0; d < NR_DIRS; d++)
		if (json_object_get(job, dir_names[d]))
			break;
	if (d == NR_DIRS) {
		warnf(c, "job '%s': no \"read\", \"write\", \"trim\" or \"mixed\" block (fio writes one per direction): no I/O metrics",
		      c->jobname);
		return;
	}
	if (!rw || json_object_get(job, dir_names[DIR_MIXED]))
		return;
	for (d = 0; d < DIR_MIXED; d++) {
		char q[MAX_QUOTE + 8];

		if (!rw_does(rw, d) || json_object_get(job, dir_names[d]))
			continue;
		quote(q, sizeof(q), rw, strlen(rw));
		warnf(c, "job '%s': no \"%s\" block, though rw=%s does %s I/O: %s.* not measured",
		      c->jobname, dir_names[d], q, dir_names[d], dir_names[d]);
	}
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
	json_object_set_new(o, "elapsed_s", num(job, "elapsed", &v) ?
			    json_real(v) : json_null());

	c->jobname = json_string_value(json_object_get(job, "jobname"));
	if (!c->jobname)
		c->jobname = "?";
	/* fio's errno for the job, a number; anything else there says
	 * nothing of success: the job counts as failed, -1 */
	iv = 0;
	if (json_object_get(job, "error") && !inum(job, "error", &iv)) {
		warnf(c, "job '%s': \"error\" is %s, not a number (fio's error code for the job): the job counted as failed (error -1)",
		      c->jobname, kb_json_kind(json_object_get(job, "error")));
		iv = -1;
	}
	json_object_set_new(o, "error", json_integer(iv));
	for (d = 0; d < NR_DIRS; d++) {
		const json_t *dj = json_object_get(job, dir_names[d]);
		json_t *dm;

		if (dj && !json_is_object(dj))
			warnf(c, "job '%s': \"%s\" is %s, not an object (fio's block of the direction): %s.* left out",
			      c->jobname, dir_names[d], kb_json_kind(dj),
			      dir_names[d]);
		if (!json_is_object(dj))
			continue;
		dm = parse_dir(c, dir_names[d], dj, &js->dir[d]);
		if (dm)
			json_object_set_new(o, dir_names[d], dm);
	}
	check_dir_blocks(c, job, json_string_value(rw));
	if (num(job, "usr_cpu", &js->usr_cpu) &&
	    num(job, "sys_cpu", &js->sys_cpu)) {
		js->has_cpu = 1;
		js->bad_cpu = drop_if_impossible(c, "fio", "usr_cpu_pct",
						 js->usr_cpu) |
			      drop_if_impossible(c, "fio", "sys_cpu_pct",
						 js->sys_cpu);
		if (!js->bad_cpu) {
			set_num(o, "usr_cpu_pct", js->usr_cpu);
			set_num(o, "sys_cpu_pct", js->sys_cpu);
		}
	}
	if (c->want_dir >= 0)
		read_wanted_bins(c, job, js);
	for (d = 0; d < NR_DIRS; d++)
		if (js->dir[d].has_io)
			break;
	if (d < NR_DIRS)
		check_latency_buckets(c, job);
	check_steadystate(c, job);
	return o;
}

/* Does job direction s contribute latency kind k (its block measured)? */
static int has_kind(const struct dir_stat *s, int k)
{
	return s->mean[k == LK_CLAT ? LM_CLAT : LM_LAT].has;
}

/* A job's bins in a k-way merge: the next one is b[i]. */
struct bin_cursor {
	const struct fio_bin *b;
	size_t n, i;
};

static double cursor_ns(const struct bin_cursor *c)
{
	return c->b[c->i].ns;
}

/* Restore the min-heap (by next ns) of h[0..n) from h[k] down. */
static void cursor_sift(struct bin_cursor *h, size_t n, size_t k)
{
	for (;;) {
		size_t l = 2 * k + 1, m = k;
		struct bin_cursor t;

		if (l < n && cursor_ns(&h[l]) < cursor_ns(&h[m]))
			m = l;
		if (l + 1 < n && cursor_ns(&h[l + 1]) < cursor_ns(&h[m]))
			m = l + 1;
		if (m == k)
			return;
		t = h[k];
		h[k] = h[m];
		h[m] = t;
		k = m;
	}
}

/* Percentiles of kind k of the union of the bins of every contributing
 * job, as fio computes them (stat.c calc_clat_percentiles()): the value
 * of the first bin whose cumulative count reaches p/100 of all samples.
 * The jobs' bins (each sorted by ns) are walked in ns order by a k-way
 * merge (a heap of one cursor per job), not copied: a json+ file of many
 * jobs is mostly bins. */
static int merge_percentiles(struct job_stat *js, size_t njobs, int d, int k,
			     double out[NR_PCT])
{
	struct bin_cursor *h;
	size_t n = 0, j, b;
	long double total = 0, cum = 0;
	double max_ns = 0;
	int i = 0;

	h = kb_xcalloc(njobs + 1, sizeof(*h));
	for (j = 0; j < njobs; j++) {
		struct lat_dist *s = &js[j].dir[d].dist[k];

		if (!has_kind(&js[j].dir[d], k) || !s->nbins)
			continue;
		for (b = 0; b < s->nbins; b++)
			total += s->bins[b].count;
		if (!n || s->bins[s->nbins - 1].ns > max_ns)
			max_ns = s->bins[s->nbins - 1].ns;
		h[n].b = s->bins;
		h[n].n = s->nbins;
		n++;
	}
	if (!n) {
		free(h);
		return -ENODATA;
	}
	for (j = n; j-- > 0; )
		cursor_sift(h, n, j);
	while (n && i < NR_PCT) {
		const struct fio_bin *bin = &h[0].b[h[0].i];

		cum += bin->count;
		while (i < NR_PCT &&
		       cum >= (long double)pct_points[i] / 100.0L * total)
			out[i++] = bin->ns;
		if (++h[0].i == h[0].n)
			h[0] = h[--n];
		cursor_sift(h, n, 0);
	}
	/* rounding: anything left is the last bin */
	while (i < NR_PCT)
		out[i++] = max_ns;
	free(h);
	return 0;
}

static void set_metric(json_t *m, const char *dname, const char *what,
		       double v)
{
	char key[64];

	snprintf(key, sizeof(key), "%s.%s", dname, what);
	set_num(m, key, v);
}

/* The percentile metrics of kind k of direction d over the jobs: the
 * job's own map when one job contributes, merged json+ bins when several
 * do; absent, with a warning, when they cannot be combined or one job's
 * were impossible.  Returns 1 when any percentile metric was set. */
static int aggregate_percentiles(struct ctx *c, struct job_stat *js,
				 size_t njobs, int d, json_t *m)
{
	const char *dn = dir_names[d];
	int k, i, any = 0, kinds = 0;

	for (k = 0; k < NR_LK; k++) {
		size_t j, n = 0, nobins = 0, npct = 0, nbad = 0;
		struct lat_dist *one = NULL;
		double pct[NR_PCT];

		for (j = 0; j < njobs; j++) {
			struct dir_stat *s = &js[j].dir[d];

			if (!s->has_io || !has_kind(s, k))
				continue;
			n++;
			one = &s->dist[k];
			if (one->bad)
				nbad++;
			if (!one->has_bins)
				nobins++;
			for (i = 0; i < NR_PCT; i++)
				if (one->has_pct[i]) {
					npct++;
					break;
				}
		}
		if (!npct && !nbad && nobins == n)
			continue;	/* fio computed none of this kind */
		kinds |= 1 << k;
		if (nbad) {
			/* the warning named the job and the values */
			continue;
		} else if (n == 1) {
			for (i = 0; i < NR_PCT; i++)
				if (one->has_pct[i]) {
					set_metric(m, dn, pct_names[k][i],
						   one->pct_ns[i]);
					any = 1;
				}
		} else if (!nobins) {
			if (!merge_percentiles(js, njobs, d, k, pct)) {
				for (i = 0; i < NR_PCT; i++)
					set_metric(m, dn, pct_names[k][i],
						   pct[i]);
				any = 1;
			}
		} else {
			warnf(c, "%s: %zu jobs report %s latency but %zu lack json+ bins: their %s percentiles cannot be combined, %s.%s_p50_ns/p99/p999 left out (run fio with --output-format=json+ or group_reporting=1)",
			      dn, n, dn, nobins, lk_names[k], dn, lk_names[k]);
		}
	}
	if (kinds == 1 << LK_LAT)
		warnf(c, "%s: percentiles are for total latency (lat_percentiles=1), not completion latency: %s.lat_p50_ns/p99/p999 kept, %s.clat_p50/p99/p999 not available",
		      dn, dn, dn);
	return any;
}

/* fio.total_ios: the I/Os fio issued over the jobs, reads + writes +
 * trims (each block's total_ios, fio's "IO issued rwts: total=" without
 * the syncs), or the "mixed" blocks' when none of those did I/O
 * (unified_rw_reporting=mixed; =both has both: not counted twice).
 * Absent when a block that did I/O lacks total_ios (fio 2.x before it
 * wrote it) or had an impossible one (said by parse_dir()): a sum
 * without a job's count would be a guess. */
static void total_ios_metric(const struct job_stat *js, size_t njobs,
			     json_t *m)
{
	double sum[2] = { 0, 0 };	/* [0] read/write/trim, [1] mixed */
	int any[2] = { 0, 0 }, missing[2] = { 0, 0 }, d, k;
	size_t j;

	for (j = 0; j < njobs; j++)
		for (d = 0; d < NR_DIRS; d++) {
			const struct dir_stat *s = &js[j].dir[d];

			k = d == DIR_MIXED;
			if (!s->seen)
				continue;
			if (!s->has_total) {
				/* no count: fine only where it did no I/O */
				missing[k] |= s->has_io;
				any[k] |= s->has_io;
				continue;
			}
			sum[k] += s->total_ios;
			any[k] |= s->total_ios > 0;
		}
	k = any[0] ? 0 : any[1] ? 1 : -1;
	if (k >= 0 && !missing[k])	/* a count, as disk.ios */
		json_object_set_new(m, "fio.total_ios",
				    json_integer((json_int_t)sum[k]));
}

static void aggregate(struct ctx *c, struct job_stat *js, size_t njobs,
		      json_t *m)
{
	double usr = 0, sys = 0;
	size_t j, ncpu = 0, nbadcpu = 0;
	int d;

	for (d = 0; d < NR_DIRS; d++) {
		const char *dn = dir_names[d];
		double iops = 0, bw = 0;
		double lw[NR_LM] = { 0 }, lwm[NR_LM] = { 0 };
		double lsum[NR_LM] = { 0 };
		size_t nio = 0, nlm[NR_LM] = { 0 };
		int bad_iops = 0, bad_bw = 0, bad_lm[NR_LM] = { 0 }, k;

		for (j = 0; j < njobs; j++) {
			struct dir_stat *s = &js[j].dir[d];

			if (!s->has_io)
				continue;
			nio++;
			iops += s->iops;
			bw += s->bw_kib;
			bad_iops |= s->bad_iops;
			bad_bw |= s->bad_bw;
			for (k = 0; k < NR_LM; k++) {
				const struct lat_mean *lm = &s->mean[k];
				double w = lm->n > 0 ? lm->n : s->weight;

				if (!lm->has)
					continue;
				nlm[k]++;
				lw[k] += w;
				lwm[k] += w * lm->mean_ns;
				lsum[k] += lm->mean_ns;
				bad_lm[k] |= lm->bad;
			}
		}
		if (!nio)
			continue;
		/* an impossible value in one job drops the sum or mean:
		 * the other jobs' alone would be a guess */
		if (!bad_iops)
			set_metric(m, dn, "iops", iops);
		if (!bad_bw)
			set_metric(m, dn, "bw_kib", bw);
		for (k = 0; k < NR_LM; k++)
			if (nlm[k] && !bad_lm[k])
				set_metric(m, dn, lm_names[k], lw[k] > 0 ?
					   lwm[k] / lw[k] : lsum[k] / nlm[k]);
		aggregate_percentiles(c, js, njobs, d, m);
		if (d == DIR_MIXED)
			warnf(c, "unified_rw_reporting: fio reported a 'mixed' direction; its metrics are mixed.* (not in kbench's metric table)");
	}
	for (j = 0; j < njobs; j++) {
		if (!js[j].has_cpu)
			continue;
		nbadcpu += js[j].bad_cpu;
		usr += js[j].usr_cpu;
		sys += js[j].sys_cpu;
		ncpu++;
	}
	if (ncpu && !nbadcpu) {
		set_num(m, "fio.usr_cpu_pct", usr / ncpu);
		set_num(m, "fio.sys_cpu_pct", sys / ncpu);
	}
	total_ios_metric(js, njobs, m);
}

/* fio --client: the metrics of each load host (its client_stats
 * entries, "hostname") as "host.<name>.<metric>", from the same
 * aggregate() as the campaign's metric (percentiles merged from the
 * hosts' json+ bins, never averaged); fio's "All clients" entry checked
 * against the sum of the hosts' IOPS.  Warnings of the per-host passes
 * are those of the whole pass already: dropped. */
static void per_host_metrics(struct ctx *c, const json_t *entries,
			     const json_t *jobs, struct job_stat *js,
			     size_t njs, json_t *m)
{
	json_t *done = json_object();
	struct job_stat *sub = kb_xcalloc(njs + 1, sizeof(*sub));
	const json_t *e;
	size_t i, j, n, nhosts = 0;
	double sum[2] = { 0, 0 };
	int d;

	for (i = 0; i < njs; i++) {
		const char *h = json_string_value(json_object_get(
			json_array_get(jobs, i), "hostname"));
		struct ctx hc = *c;
		json_t *hm, *v;
		const char *k;

		if (!h || json_object_get(done, h))
			continue;
		json_object_set_new(done, h, json_true());
		nhosts++;
		for (j = i, n = 0; j < njs; j++) {
			const char *hj = json_string_value(json_object_get(
				json_array_get(jobs, j), "hostname"));

			if (hj && !strcmp(hj, h))
				sub[n++] = js[j];
		}
		hc.warnings = json_array();
		hc.flags = json_array();
		hm = json_object();
		aggregate(&hc, sub, n, hm);
		json_object_foreach(hm, k, v) {
			char *key = kb_xasprintf("host.%s.%s", h, k);

			json_object_set(m, key, v);
			free(key);
		}
		for (d = 0; d < 2; d++) {
			char key[16];

			snprintf(key, sizeof(key), "%s.iops", dir_names[d]);
			sum[d] += json_real_value(json_object_get(hm, key));
		}
		json_decref(hm);
		json_decref(hc.warnings);
		json_decref(hc.flags);
	}
	json_array_foreach(entries, i, e) {
		const char *jn = json_string_value(json_object_get(e, "jobname"));
		double all;

		if (!jn || strcmp(jn, "All clients") || nhosts < 2)
			continue;
		for (d = 0; d < 2; d++)
			if (num(json_object_get(e, dir_names[d]), "iops",
				&all) &&
			    fabs(all - sum[d]) > 0.01 * (all > sum[d] ?
							 all : sum[d]) + 1)
				warnf(c, "fio's \"All clients\" %s.iops = %.17g is not the sum of the hosts' (%.17g)",
				      dir_names[d], all, sum[d]);
	}
	free(sub);
	json_decref(done);
}

/* Candidates known to fail.  When the candidate '{' at lo failed to
 * parse (jansson stopped at hi), every '{' or '[' in (lo, hi) whose value
 * does not close before hi starts the same tokens up to hi and fails
 * there too: its parse is skipped, so deep nesting (a '{' per few bytes,
 * each read again to jansson's depth limit) costs one scan, not one parse
 * per brace.  One that closes before hi is a complete value and is still
 * tried.  The only inputs read differently: a document starting more
 * than about 2000 levels deep inside one that failed at jansson's depth
 * limit (from that document's own start the depth is smaller). */
struct fail_zone {
	size_t lo, hi;		/* the failed candidate's [lo, hi) */
	size_t *open;		/* the openers that stay open at hi, sorted */
	size_t n, cap;
	int lenient;		/* its error is one the lenient reading
				 * may fix (lenient_may_fix()) */
};

/* buf[lo..hi) was read by jansson without error: strings and brackets are
 * well formed there, so a plain scan finds the openers left open. */
static void zone_build(struct fail_zone *z, const char *buf, size_t lo,
		       size_t hi)
{
	size_t i;
	int in_str = 0;

	z->lo = lo;
	z->hi = hi;
	z->n = 0;
	for (i = lo; i < hi; i++) {
		char ch = buf[i];

		if (in_str) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_str = 0;
		} else if (ch == '"') {
			in_str = 1;
		} else if (ch == '{' || ch == '[') {
			if (z->n == z->cap) {
				z->cap = z->cap ? 2 * z->cap : 64;
				z->open = kb_xrealloc(z->open, z->cap *
						      sizeof(*z->open));
			}
			z->open[z->n++] = i;
		} else if ((ch == '}' || ch == ']') && z->n) {
			z->n--;
		}
	}
}

/* Is the candidate at off one that fails as the zone's did? */
static int zone_has(const struct fail_zone *z, size_t off)
{
	size_t a = 0, b = z->n;

	if (off <= z->lo || off >= z->hi)
		return 0;
	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (z->open[m] < off)
			a = m + 1;
		else
			b = m;
	}
	return a < z->n && z->open[a] == off;
}

/* May the lenient reading (below) read what jansson failed on with je,
 * s being the candidate's text?  Its copy changes only strings holding a
 * control character or bytes that are not UTF-8, and parses with
 * JSON_ALLOW_NUL: where jansson stopped for another reason, outside a
 * string, the copy is the same text up to there and fails there too.
 * Not trying it keeps a '{' per few bytes (a '{' in each string, every
 * candidate failing early) from costing a lenient scan of up to
 * LENIENT_MAX_DEPTH levels each: 14 s for 3.2 MB. */
static int lenient_may_fix(const char *s, const json_error_t *je)
{
	size_t i;
	int in_str = 0;

	switch (json_error_code(je)) {
	case json_error_invalid_utf8:
	case json_error_null_character:
		return 1;
	case json_error_invalid_syntax:
		break;
	default:
		return 0;
	}
	/* jansson read s[0 .. position) as valid tokens: a plain scan says
	 * whether it stopped inside a string (a control character) */
	for (i = 0; i < (size_t)je->position; i++) {
		if (in_str && s[i] == '\\')
			i++;
		else if (s[i] == '"')
			in_str = !in_str;
	}
	return in_str;
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
	int terse = 0, terse_first = 0, terse_last = 0;
	size_t p = from;

	while (p < to) {
		const char *nl = memchr(buf + p, '\n', to - p);
		size_t e = nl ? (size_t)(nl - buf) : to;

		if (fio_terse_detect(buf + p, e - p)) {
			/* --output-format=terse,json: one warning for all */
			if (!terse++)
				terse_first = line;
			terse_last = line;
		} else if (!is_blank(buf + p, e - p)) {
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
	if (terse == 1)
		warnf(c, "line %d is fio terse output (--output-format=terse,json?): not read; the JSON document after it is",
		      terse_first);
	else if (terse)
		warnf(c, "%d lines from line %d to %d are fio terse output (--output-format=terse,json?): not read; the JSON document after them is",
		      terse, terse_first, terse_last);
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

/* 1 when buf[0..len) is one JSON array (not a fio job file's
 * "[global]"), also one too deep for jansson to read (its message in
 * why, else why is ""). */
static int is_json_array(const char *buf, size_t len, char *why,
			 size_t whylen)
{
	json_error_t e;
	json_t *j = json_loadb(buf, len, 0, &e);
	int a = json_is_array(j);

	why[0] = '\0';
	if (!j && strstr(e.text, "depth")) {
		kb_fmt(why, whylen, " (%s at column %d)", e.text, e.column);
		a = 1;
	}
	json_decref(j);
	return a;
}

/* The first character of buf[0..len) that is not blank, or 0. */
static char first_nonblank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)buf[i]))
			return buf[i];
	return 0;
}

/* 1 when buf[0..len) is UTF-16 text: a byte order mark (FF FE, FE FF),
 * or a NUL byte beside each of its first ASCII characters. */
static int utf16(const char *buf, size_t len)
{
	const unsigned char *b = (const unsigned char *)buf;
	size_t i, n = len < 64 ? len & ~(size_t)1 : 64;

	if (len >= 2 && ((b[0] == 0xff && b[1] == 0xfe) ||
			 (b[0] == 0xfe && b[1] == 0xff)))
		return 1;
	if (n < 8)
		return 0;
	for (i = 0; i < n; i += 2)	/* "{\0\n\0" or "\0{\0\n" */
		if (!!b[i] == !!b[i + 1] || (b[i] | b[i + 1]) >= 0x80)
			return 0;
	return 1;
}

/* The message for a buffer with no fio JSON document in it. */
static void no_doc_error(const char *name, const char *buf, size_t len,
			 const char *bad, int bad_line, int truncated,
			 int nondoc_line, char *err, size_t errlen)
{
	char why[200];

	if (utf16(buf, len))
		kb_fmt(err, errlen, "%s: UTF-16 text (as Windows PowerShell's > writes it), not fio's UTF-8 output: convert it (iconv -f UTF-16 -t UTF-8 FILE) or use fio --output=FILE",
		       name);
	else if (is_blank(buf, len))
		kb_fmt(err, errlen, "%s: %s: no JSON document found (is this fio --output-format=json output?)",
		       name, len ? "only blank text" : "empty file");
	else if (looks_like_terse(buf, len))	/* kbench parse reads v3 */
		kb_fmt(err, errlen, "%s: looks like fio terse output, not JSON (kbench parse reads terse version 3, lines starting \"3;\"; no other version): run fio with --output-format=json",
		       name);
	else if (looks_like_normal(buf, len))
		kb_fmt(err, errlen, "%s: looks like fio's normal (human-readable) text output, which kbench does not read: run fio with --output-format=json (or --output-format=terse, version 3)",
		       name);
	else if (bad && truncated)
		kb_fmt(err, errlen, "%s:%d: invalid JSON document (truncated file?): %s",
		       name, bad_line, bad);
	else if (bad)
		kb_fmt(err, errlen, "%s:%d: invalid JSON document: %s", name,
		       bad_line, bad);
	else if (nondoc_line)
		kb_fmt(err, errlen, "%s:%d: JSON document has no \"jobs\" (or \"client_stats\") array: not fio --output-format=json output",
		       name, nondoc_line);
	else if (first_nonblank(buf, len) == '[' &&
		 is_json_array(buf, len, why, sizeof(why)))
		kb_fmt(err, errlen, "%s: a JSON array%s, not a fio report (fio --output-format=json writes an object with a \"jobs\" array)",
		       name, why);
	else
		kb_fmt(err, errlen, "%s: no JSON document found (is this fio --output-format=json output?)",
		       name);
}

/* ---- lenient reading ----------------------------------------------------
 *
 * fio escapes only '\\' and '"' in the strings it writes (json.c
 * strdup_escape()), so a job option holding a TAB, a newline or bytes that
 * are not UTF-8 (a Latin-1 file name) makes its document invalid JSON
 * (../shared/cases/B36).  When the strict parse of a document fails, the
 * document (from its '{' to the matching '}') is copied with every raw
 * control character inside a string escaped (\t, \n, \r, \b, \f, else
 * \u00XX) and every byte that is not part of a valid UTF-8 sequence
 * replaced by \ufffd (U+FFFD), and parsed again; each string fixed gets a
 * warning naming the characters, the line and the key. */

#define MAX_LENIENT_NOTES	10
#define LENIENT_MAX_DEPTH	64

struct lenient_note {
	int line;		/* relative to the document's first line (0) */
	int utf8;		/* 1: bytes that are not UTF-8 */
	char what[96];		/* "TAB", "TAB, LF" / "0xE9" */
	char where[200];	/* "job option 'description'" */
};

struct lenient {
	struct lenient_note note[MAX_LENIENT_NOTES];
	int nnotes;
	int more;		/* strings fixed beyond the notes kept */
};

struct outbuf {
	char *p;
	size_t len, cap;
};

static void out_put(struct outbuf *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		o->p = kb_xrealloc(o->p, o->cap);
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static const char *const ctrl_names[32] = {
	"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB",
	"LF", "VT", "FF", "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4",
	"NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
};

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0 (RFC 3629
 * section 4: no overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t need, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		need = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		need = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		need = 4;
	else
		return 0;
	if (s[0] == 0xE0)
		lo = 0xA0;
	else if (s[0] == 0xED)
		hi = 0x9F;
	else if (s[0] == 0xF0)
		lo = 0x90;
	else if (s[0] == 0xF4)
		hi = 0x8F;
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < need; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return need;
}

/* Append name to a ", "-separated list in buf unless it is there. */
static void list_add(char *buf, size_t len, const char *name)
{
	size_t l = strlen(buf), nl = strlen(name);
	const char *p = buf;

	while ((p = strstr(p, name))) {
		if ((p == buf || p[-1] == ' ') && (!p[nl] || p[nl] == ','))
			return;
		p += nl;
	}
	if (l + nl + 3 < len)
		snprintf(buf + l, len - l, "%s%s", l ? ", " : "", name);
}

struct lz_level {
	char type;		/* '{' or '[' */
	int expect_key;
	char key[64];		/* the last key read in this object */
};

/* What a string at the top of the stack is, for the warning. */
static void describe(const struct lz_level *st, int top, int is_key,
		     char *out, size_t len)
{
	const char *parent = top > 0 && st[top - 1].type == '{' ?
		st[top - 1].key : NULL;

	if (top < 0)
		snprintf(out, len, "a string");
	else if (is_key)
		snprintf(out, len, "a key%s%s%s", parent ? " in '" : "",
			 parent ? parent : "", parent ? "'" : "");
	else if (st[top].type == '[')
		snprintf(out, len, "an element of '%s'", parent ? parent : "?");
	else if (parent && !strcmp(parent, "job options"))
		snprintf(out, len, "job option '%s'", st[top].key);
	else if (parent && !strcmp(parent, "global options"))
		snprintf(out, len, "global option '%s'", st[top].key);
	else
		snprintf(out, len, "key '%s'", st[top].key);
}

/* The JSON object at s[0] == '{' (n bytes available) with its strings
 * repaired as described above.  Returns the repaired copy (malloc'd,
 * *outlen bytes) and in *used the bytes of s the object spans; NULL when
 * the object does not close within n bytes or nothing needed repairing,
 * *used then the bytes gone through. */
static char *lenient_copy(const char *s, size_t n, size_t *used,
			  size_t *outlen, struct lenient *lz)
{
	struct lz_level st[LENIENT_MAX_DEPTH];
	struct outbuf o = { 0 };
	int top = -1, line = 0, fixed = 0;
	size_t i = 0;

	memset(lz, 0, sizeof(*lz));
	while (i < n) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"') {
			char ctrl[96] = "", bytes[96] = "", where[200];
			char key[64];
			size_t kl = 0;
			int is_key = top >= 0 && st[top].type == '{' &&
				     st[top].expect_key;
			int first_line = -1;

			describe(st, top, is_key, where, sizeof(where));
			out_put(&o, "\"", 1);
			for (i++; i < n && s[i] != '"'; ) {
				unsigned char b = (unsigned char)s[i];
				size_t ul;

				if (b == '\\' && i + 1 < n &&
				    (unsigned char)s[i + 1] >= 0x20) {
					out_put(&o, s + i, 2);
					if (kl + 2 < sizeof(key)) {
						key[kl++] = s[i];
						key[kl++] = s[i + 1];
					}
					i += 2;
					continue;
				}
				if (b < 0x20) {
					static const char esc[] = "btnvfr";
					char e[8];

					if (b >= 8 && b <= 13 && b != 11)
						snprintf(e, sizeof(e), "\\%c",
							 esc[b - 8]);
					else
						snprintf(e, sizeof(e),
							 "\\u%04x", b);
					out_put(&o, e, strlen(e));
					list_add(ctrl, sizeof(ctrl),
						 ctrl_names[b]);
					if (first_line < 0)
						first_line = line;
					if (b == '\n')
						line++;
					i++;
					continue;
				}
				ul = utf8_len((const unsigned char *)s + i,
					      n - i);
				if (!ul) {
					char hx[8];

					out_put(&o, "\\ufffd", 6);
					snprintf(hx, sizeof(hx), "0x%02X", b);
					list_add(bytes, sizeof(bytes), hx);
					if (first_line < 0)
						first_line = line;
					i++;
					continue;
				}
				out_put(&o, s + i, ul);
				if (kl + ul < sizeof(key)) {
					memcpy(key + kl, s + i, ul);
					kl += ul;
				}
				i += ul;
			}
			if (i >= n)
				break;	/* the string does not close */
			out_put(&o, "\"", 1);
			i++;
			if (is_key) {
				key[kl] = '\0';
				snprintf(st[top].key, sizeof(st[top].key),
					 "%s", key);
				st[top].expect_key = 0;
			}
			if (ctrl[0] || bytes[0])
				fixed = 1;
			for (int u = 0; u < 2; u++) {
				const char *what = u ? bytes : ctrl;
				struct lenient_note *nt;

				if (!what[0])
					continue;
				if (lz->nnotes == MAX_LENIENT_NOTES) {
					lz->more++;
					continue;
				}
				nt = &lz->note[lz->nnotes++];
				nt->line = first_line;
				nt->utf8 = u;
				snprintf(nt->what, sizeof(nt->what), "%s", what);
				snprintf(nt->where, sizeof(nt->where), "%s",
					 where);
			}
			continue;
		}
		out_put(&o, s + i, 1);
		i++;
		switch (ch) {
		case '\n':
			line++;
			break;
		case '{':
		case '[':
			if (++top == LENIENT_MAX_DEPTH)
				goto fail;
			st[top].type = (char)ch;
			st[top].expect_key = ch == '{';
			st[top].key[0] = '\0';
			break;
		case '}':
		case ']':
			if (top < 0)
				goto fail;
			if (--top < 0) {
				if (!fixed)
					goto fail;
				*used = i;
				*outlen = o.len;
				return o.p;
			}
			break;
		case ',':
			if (top >= 0 && st[top].type == '{')
				st[top].expect_key = 1;
			break;
		default:
			break;
		}
	}
fail:
	*used = i;
	free(o.p);
	return NULL;
}

/* Parse the document at s leniently (see lenient_copy()).  A new
 * reference, with *used set, or NULL.  The reading is added to work
 * (NULL: not counted). */
static json_t *lenient_load(const char *s, size_t n, size_t *used,
			    struct lenient *lz, struct fio_parse_work *work)
{
	size_t outlen = 0;
	char *fixed = lenient_copy(s, n, used, &outlen, lz);
	json_error_t je;
	json_t *j;

	if (work) {
		work->lenient_reads++;
		work->bytes += *used;
	}
	if (!fixed)
		return NULL;
	j = json_loadb(fixed, outlen, JSON_ALLOW_NUL, &je);
	free(fixed);
	return j;
}

/* The warnings of a document read leniently that starts at line doc_line. */
static void lenient_warn(struct ctx *c, const struct lenient *lz,
			 int doc_line)
{
	int i;

	for (i = 0; i < lz->nnotes; i++) {
		const struct lenient_note *nt = &lz->note[i];

		if (nt->utf8)
			warnf(c, "fio wrote %s that %s not UTF-8 (%s) in a string at line %d (%s); replaced by U+FFFD, read leniently",
			      strchr(nt->what, ',') ? "bytes" : "a byte",
			      strchr(nt->what, ',') ? "are" : "is", nt->what,
			      doc_line + nt->line, nt->where);
		else
			warnf(c, "fio wrote %s (%s) in a string at line %d (%s); read leniently",
			      strchr(nt->what, ',') ?
			      "unescaped control characters" :
			      "an unescaped control character", nt->what,
			      doc_line + nt->line, nt->where);
	}
	if (lz->more)
		warnf(c, "... and %d more strings with unescaped control characters or bytes that are not UTF-8; read leniently",
		      lz->more);
}

/* ---- buffered reads that measure the page cache (../shared/cases/B30) */

/* fio's value of option key: the job's own, else the global one. */
static const char *fio_opt(const json_t *job, const json_t *gopts,
			   const char *key)
{
	const char *v = json_string_value(json_object_get(
		json_object_get(job, "job options"), key));

	return v ? v : json_string_value(json_object_get(gopts, key));
}

static int opt_true(const char *v)
{
	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") ||
		     !strcasecmp(v, "yes") || !strcasecmp(v, "on"));
}

/* ---- fixed-size jobs (issue 13): rates over total work */

/* fio's runtime option in ms (fio HOWTO "Time related parameters":
 * seconds without a unit; us, ms, s, m, h, d), -1 when absent or not a
 * plain number with a unit. */
static double runtime_ms(const char *v)
{
	static const struct { const char *unit; double ms; } units[] = {
		{ "", 1000 }, { "s", 1000 }, { "sec", 1000 }, { "ms", 1 },
		{ "msec", 1 }, { "us", 1e-3 }, { "usec", 1e-3 },
		{ "m", 60e3 }, { "min", 60e3 }, { "h", 3600e3 },
		{ "hour", 3600e3 }, { "d", 86400e3 },
	};
	char *end;
	double x;
	size_t i;

	if (!v || !*v)
		return -1;
	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || !(x > 0))
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(end, units[i].unit))
			return x * units[i].ms;
	return -1;
}

/* "time" when a job runs for a time (time_based), "fixed" when none does
 * and every job has an amount of work (size, io_size/io_limit or
 * number_ios: fio HOWTO "I/O size"), NULL when fio's options do not say.
 * fio 3.33 leaves a bare "time_based" flag out of its JSON options, so a
 * caller with the job file checks that too (parsers/run_dir.c); without
 * one, a job that ran its whole runtime (job_runtime, ms, within 1% of
 * the option) counts as "time": it stopped on the clock, whether
 * time_based or short of its size. */
static const char *work_kind(const json_t *entries, const json_t *gopts)
{
	static const char *const amounts[] = { "size", "io_size", "io_limit",
					       "number_ios", NULL };
	const json_t *e;
	const char *tb;
	double rt, ran;
	size_t i, k, jobs = 0, fixed = 0;

	json_array_foreach(entries, i, e) {
		const char *jn = json_string_value(json_object_get(e,
							"jobname"));

		if (!json_is_object(e) || (jn && !strcmp(jn, "All clients")))
			continue;
		jobs++;
		tb = fio_opt(e, gopts, "time_based");
		if (tb && strcmp(tb, "0"))
			return "time";
		rt = runtime_ms(fio_opt(e, gopts, "runtime"));
		ran = json_number_value(json_object_get(e, "job_runtime"));
		if (rt > 0 && ran >= 0.99 * rt)
			return "time";
		for (k = 0; amounts[k]; k++)
			if (fio_opt(e, gopts, amounts[k]))
				break;
		fixed += amounts[k] != NULL;
	}
	return jobs && fixed == jobs ? "fixed" : NULL;
}

/* I/O engines that never go through the page cache (fio HOWTO
 * "ioengine"): their buffered setting means nothing. */
static int engine_bypasses_cache(const char *e)
{
	static const char *const engines[] = {
		"null", "sg", "rbd", "rados", "spdk", "spdk_bdev", "libblkio",
		"nbd", "net", "netsplice", "rdma", "http", "cpuio", "exec",
		"falloc", "filecreate", "filestat", "filedelete", "dircreate",
		"dirstat", "dirdelete", "e4defrag", "dev-dax", "io_uring_cmd",
		"xnvme", "dfs", "libnfs", "nfs", NULL,
	};
	size_t i;

	if (!e)
		return 0;
	for (i = 0; engines[i]; i++)
		if (!strcmp(e, engines[i]))
			return 1;
	return !strncmp(e, "external:", 9);
}

static void fmt_bytes(char *out, size_t len, unsigned long long b)
{
	if (b >= 1ULL << 30)
		snprintf(out, len, b % (1ULL << 30) ? "%.1f GiB" : "%.0f GiB",
			 (double)b / (1ULL << 30));
	else
		snprintf(out, len, b % (1ULL << 20) ? "%.1f MiB" : "%.0f MiB",
			 (double)b / (1ULL << 20));
}

/* Where fio says it could not drop the file's cached pages: the first
 * line with "cache invalidation" and "failed" (fio filesetup.c
 * __file_invalidate_cache(): "fio: cache invalidation of F failed: E")
 * or, older fio, "Cache flush bypassed" ("only root may flush block
 * devices. Cache flush bypassed!").  Scanned in pieces (a file read in
 * chunks, lines of any length): inval_feed() each piece in order, then
 * inval_end(). */
#define INVAL_NPAT 3
#define PAT(s) { s, sizeof(s) - 1 }
static const struct {
	const char *s;
	size_t n;
} inval_pat[INVAL_NPAT] = {
	PAT("cache invalidation"), PAT("failed"), PAT("Cache flush bypassed")
};
#undef PAT
#define INVAL_TAIL 19		/* the longest pattern, less one */

struct inval_scan {
	int line;		/* the line being read, from 1 */
	int found;		/* the first matching line, 0 = none yet */
	unsigned seen;		/* bit i: inval_pat[i] is in the line */
	char tail[INVAL_TAIL];	/* the line's last bytes so far */
	size_t tlen;
};

static void inval_mark(struct inval_scan *s, const char *t, size_t n)
{
	int i;

	for (i = 0; i < INVAL_NPAT; i++)
		if (memmem(t, n, inval_pat[i].s, inval_pat[i].n))
			s->seen |= 1u << i;
}

/* t[0..n): more of the current line (no newline in it); more says
 * whether the line may go on in the next piece (then its tail is kept). */
static void inval_piece(struct inval_scan *s, const char *t, size_t n,
			int more)
{
	char join[2 * INVAL_TAIL];
	size_t head = n < INVAL_TAIL ? n : INVAL_TAIL, keep;

	inval_mark(s, t, n);
	if (!s->tlen && !more)
		return;		/* a whole line */
	memcpy(join, s->tail, s->tlen);
	memcpy(join + s->tlen, t, head);
	inval_mark(s, join, s->tlen + head);	/* across the pieces */
	keep = s->tlen + head < INVAL_TAIL ? s->tlen + head : INVAL_TAIL;
	if (n >= INVAL_TAIL)
		memcpy(s->tail, t + n - INVAL_TAIL, INVAL_TAIL);
	else
		memmove(s->tail, join + s->tlen + head - keep, keep);
	s->tlen = keep;
}

static void inval_end_line(struct inval_scan *s)
{
	if (!s->found && ((s->seen & 3u) == 3u || (s->seen & 4u)))
		s->found = s->line;
	s->seen = 0;
	s->tlen = 0;
	s->line++;
}

static void inval_feed(struct inval_scan *s, const char *t, size_t n)
{
	while (n && !s->found) {
		const char *nl = memchr(t, '\n', n);
		size_t k = nl ? (size_t)(nl - t) : n;

		inval_piece(s, t, k, !nl);
		if (!nl)
			break;
		inval_end_line(s);
		t += k + 1;
		n -= k + 1;
	}
}

/* The first matching line, or 0. */
static int inval_end(struct inval_scan *s)
{
	inval_end_line(s);
	return s->found;
}

/* The first line of text (len bytes) that says so, or 0. */
static int invalidation_failed_line(const char *text, size_t len)
{
	struct inval_scan s = { .line = 1 };

	if (text)
		inval_feed(&s, text, len);
	return inval_end(&s);
}

/* The same for the file at path, read again in chunks of chunk bytes
 * (fio_parse_file_opts() does not keep it); 0 when it cannot be read. */
static int invalidation_failed_file(const char *path, size_t chunk)
{
	struct inval_scan s = { .line = 1 };
	char *b = kb_xmalloc(chunk);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	while (fd >= 0 && !s.found &&
	       ((n = read(fd, b, chunk)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			inval_feed(&s, b, (size_t)n);
	if (fd >= 0)
		close(fd);
	free(b);
	return inval_end(&s);
}

/* The text page_cache_check() searches: a buffer, or a file (path). */
struct text_src {
	const char *buf;
	size_t len;
	const char *path;
	size_t chunk;		/* bytes per read of path */
};

/* Flag buffered reads whose numbers likely come from the page cache:
 * reads without direct=1 (on an engine that uses the page cache) and at
 * least one sign of it: fio could not invalidate the cache, a read
 * completed in 0 ns, or the working set (size x numjobs) fits in RAM. */
static void page_cache_check(struct ctx *c, const json_t *entries,
			     const json_t *gopts, const struct text_src *src,
			     const struct fio_parse_opts *o,
			     json_t *res)
{
	unsigned long long ws = 0;
	int buffered_reads = 0, ws_known = 1, inval, zero = 0;
	const char *zero_key = NULL;
	json_t *names = json_object(), *reasons = json_array();
	const json_t *e;
	size_t i;

	json_array_foreach(entries, i, e) {
		const char *jn = json_string_value(json_object_get(e, "jobname"));
		const json_t *rd = json_object_get(e, "read");
		const json_t *mx = json_object_get(e, "mixed");
		const json_t *d = json_is_object(rd) ? rd : mx;
		const json_t *cl;
		const char *size, *nj;
		unsigned long long sz = 0, n = 1;
		double mult, v, tot = 0;

		if (!json_is_object(e) || (jn && !strcmp(jn, "All clients")))
			continue;
		if (opt_true(fio_opt(e, gopts, "direct")) ||
		    (fio_opt(e, gopts, "buffered") &&
		     !opt_true(fio_opt(e, gopts, "buffered"))) ||
		    engine_bypasses_cache(fio_opt(e, gopts, "ioengine")))
			continue;
		if (!json_is_object(d) ||
		    (num(d, "total_ios", &tot) ? tot <= 0 :
		     !(num(d, "io_bytes", &tot) && tot > 0)))
			continue;
		buffered_reads = 1;
		cl = lat_block(d, "clat", &mult);
		if (block_measured(cl, &tot) && num(cl, "min", &v) && v == 0) {
			zero = 1;
			zero_key = json_object_get(d, "clat_ns") ?
				"clat_ns" : "clat";
		}
		if (json_object_get(names, jn ? jn : ""))
			continue;	/* a clone of a job counted already */
		json_object_set_new(names, jn ? jn : "", json_true());
		size = fio_opt(e, gopts, "size");
		if (!size)
			size = fio_opt(e, gopts, "filesize");
		nj = fio_opt(e, gopts, "numjobs");
		if (nj && !fio_opt(e, gopts, "filename"))
			n = strtoull(nj, NULL, 10) ? strtoull(nj, NULL, 10) : 1;
		if (!size || kconf_parse_size(size, &sz) || !sz)
			ws_known = 0;
		else
			ws += sz * n;
	}
	json_decref(names);
	if (!buffered_reads) {
		json_decref(reasons);
		return;
	}
	json_array_append_new(reasons,
			      json_string("direct=1 not set (buffered I/O)"));
	if (ws_known && o && o->ram_bytes && ws < o->ram_bytes) {
		char a[32], b[32], f[96];

		fmt_bytes(a, sizeof(a), ws);
		fmt_bytes(b, sizeof(b), o->ram_bytes);
		snprintf(f, sizeof(f), "working set %s < RAM %s", a, b);
		json_array_append_new(reasons, json_string(f));
	}
	inval = src->path ? invalidation_failed_file(src->path, src->chunk) :
		invalidation_failed_line(src->buf, src->len);
	if (inval) {
		char f[96];

		snprintf(f, sizeof(f),
			 "fio could not invalidate the page cache (line %d)",
			 inval);
		json_array_append_new(reasons, json_string(f));
	} else if (o && o->side_text &&
		   (inval = invalidation_failed_line(o->side_text,
						     strlen(o->side_text)))) {
		char f[128];

		snprintf(f, sizeof(f),
			 "fio could not invalidate the page cache (%s line %d)",
			 o->side_name ? o->side_name : "stderr", inval);
		json_array_append_new(reasons, json_string(f));
	}
	if (zero) {
		char f[64];

		snprintf(f, sizeof(f), "%s.min = 0", zero_key);
		json_array_append_new(reasons, json_string(f));
	}
	if (json_array_size(reasons) > 1) {
		json_t *r;
		char all[1024] = "";

		json_array_foreach(reasons, i, r) {
			size_t l = strlen(all);

			flagf(c, "%s", json_string_value(r));
			snprintf(all + l, sizeof(all) - l, "%s%s", l ? "; " : "",
				 json_string_value(r));
		}
		json_object_set_new(res, "suspect", json_string("page_cache"));
		json_object_set_new(res, "message",
				    json_string(FIO_PAGE_CACHE_MESSAGE));
		warnf(c, "%s (%s)", FIO_PAGE_CACHE_MESSAGE, all);
	}
	json_decref(reasons);
}

json_t *fio_parse_buf(const char *name, const char *buf, size_t len,
		      char *err, size_t errlen)
{
	return fio_parse_buf_opts(name, buf, len, NULL, err, errlen);
}

/* Does jansson's error say the input ended early (a truncated file)? */
static int at_end(const json_error_t *je, size_t avail)
{
	return strstr(je->text, "end of file") ||
	       strstr(je->text, "premature end") ||
	       (je->position > 0 && (size_t)je->position >= avail);
}

/* The documents read: the last fio document and what it came with. */
struct docs {
	json_t *doc;
	struct fio_bin_table bins;	/* its json+ bins (streaming pass) */
	int ndocs;			/* fio documents seen */
	int doc_line;			/* the line where doc starts */
};

/* 1 when host is in seen[0..*n), else 0 after adding it (seen has room
 * for every entry of disk_util) */
static int host_seen(const char **seen, size_t *n, const char *host)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if (!strcmp(seen[k], host))
			return 1;
	seen[(*n)++] = host;
	return 0;
}

/* The device utilisation fio measured into metrics as "disk.util_pct",
 * or the reason it is not into unavail.  fio's JSON "disk_util" is an
 * array of one entry per device it saw (fio's stat.c, show_disk_util();
 * HOWTO "Interpreting the output": util is the percentage of the run the
 * device was busy): the device the job ran against first, then, for an
 * md or dm device, its members; an md device's own util is 0 and its
 * aggr_util is its busiest member's (stat.c: agg->max_util).  With fio
 * --client each host's entries carry "hostname".  Per host the first entry counts (aggr_util when
 * there is one), the metric is their mean.  fio leaves the key out where
 * it had no block device statistics (a file on tmpfs, a container without
 * /sys/block, the null engine): then null, never 0 (../shared/cases/B05).
 */
static void disk_util_metric(struct ctx *c, const json_t *doc,
			     json_t *metrics, json_t *unavail)
{
	const json_t *du = json_object_get(doc, "disk_util"), *e;
	const char **seen, *why = NULL;
	size_t i, nseen = 0, nused = 0;
	double sum = 0;

	if (!du) {
		json_object_set_new(unavail, "disk.util_pct", json_string(
			"disk_util not reported by fio"));
		return;
	}
	if (!json_is_array(du) || !json_array_size(du)) {
		why = json_is_array(du) ? "disk_util is empty" :
		      "disk_util is not an array";
		warnf(c, "%s: device utilisation not read", why);
		json_object_set_new(unavail, "disk.util_pct",
				    json_string(why));
		return;
	}
	seen = kb_xcalloc(json_array_size(du) + 1, sizeof(*seen));
	json_array_foreach(du, i, e) {
		const json_t *h = json_object_get(e, "hostname");
		const json_t *u = json_object_get(e, "aggr_util");
		const char *host = json_string_value(h), *key = "aggr_util";
		double v;

		if (!json_is_object(e)) {
			/* no hostname to tell: the local host's first
			 * device, unusable */
			host_seen(seen, &nseen, "");
			warnf(c, "disk_util[%zu] is not an object: not read", i);
			continue;
		}
		if (h && !host) {
			warnf(c, "disk_util[%zu].hostname is not a string: "
			      "entry not read", i);
			continue;
		}
		/* the host's first device decides, usable or not: a member
		 * disk never stands in for its md device */
		if (host_seen(seen, &nseen, host ? host : ""))
			continue;	/* that host's first device counted */
		if (!u) {
			u = json_object_get(e, "util");
			key = "util";
		}
		if (!u) {
			warnf(c, "disk_util[%zu] has no util: device "
			      "utilisation not read from it", i);
			continue;
		}
		if (!json_is_number(u)) {
			warnf(c, "disk_util[%zu].%s is not a number: device "
			      "utilisation not read from it", i, key);
			continue;
		}
		v = json_number_value(u);
		if (!(v >= 0 && v <= 100.0001)) {
			warnf(c, "disk_util[%zu].%s = %.10g is not a "
			      "percentage: device utilisation not read from "
			      "it", i, key, v);
			continue;
		}
		sum += v;
		nused++;
	}
	free(seen);
	if (nused && nused < nseen)
		warnf(c, "disk_util: device utilisation is the mean over %zu "
		      "of %zu hosts (the others' are unusable)", nused, nseen);
	if (nused)
		json_object_set_new(metrics, "disk.util_pct",
				    json_real(sum / (double)nused));
	else
		json_object_set_new(unavail, "disk.util_pct", json_string(
			"disk_util has no usable util"));
}

/* The result of d's last document (see fio_parse_buf()), with c's
 * warnings and flags; src is the text the page-cache check searches.
 * The job entries of d->doc are released as they are parsed. */
static json_t *build_result(struct ctx *c, struct docs *d,
			    const struct text_src *src,
			    const struct fio_parse_opts *o)
{
	struct ctx pc = { 0 };	/* the page-cache check's warnings, flags */
	json_t *pc_res, *res, *jobs, *metrics, *unavail;
	const char *work;
	const json_t *entries, *gopts, *e;
	struct job_stat *js;
	size_t njs = 0, i, k;
	json_int_t first_error = 0;
	json_int_t groups[2];
	int ngroups = 0;

	if (d->ndocs > 1)
		warnf(c, "%d JSON documents (fio --status-interval, or several runs in one file): using the last one, from line %d",
		      d->ndocs, d->doc_line);
	c->version = json_string_value(json_object_get(d->doc, "fio version"));
	if (c->version && sscanf(c->version, "fio-%d.%d", &c->ver_major,
				 &c->ver_minor) != 2)
		c->ver_major = c->ver_minor = -1;

	c->bins = &d->bins;
	gopts = json_object_get(d->doc, "global options");
	entries = json_object_get(d->doc, "jobs");
	if (!json_is_array(entries))
		entries = json_object_get(d->doc, "client_stats");
	/* What reads the job entries beside parse_job() reads them first:
	 * each entry is released once parsed (below), so the results reuse
	 * its memory (a json+ file of thousands of jobs).  The page-cache
	 * check's warnings and flags are added where it ran before. */
	work = work_kind(entries, gopts);
	pc = *c;
	pc.warnings = json_array();
	pc.flags = json_array();
	pc_res = json_object();
	page_cache_check(&pc, entries, gopts, src, o, pc_res);
	js = kb_xcalloc(json_array_size(entries) + 1, sizeof(*js));
	jobs = json_array();
	json_array_foreach(entries, i, e) {
		const char *jn = json_string_value(json_object_get(e, "jobname"));
		json_t *jo;

		if (!json_is_object(e))
			continue;
		if (jn && !strcmp(jn, "All clients"))
			continue;	/* fio --client aggregate */
		jo = parse_job(c, e, gopts, &js[njs]);
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
		/* per_host_metrics() reads only the "All clients" entries */
		json_array_set_new((json_t *)entries, i, json_null());
	}
	c->jobname = NULL;	/* was in the entry */
	if (!njs)
		warnf(c, "the fio JSON document has no job entries");
	if (ngroups > 1)
		warnf(c, "jobs are in several reporting groups (groupid): metrics combine all of them");

	if (c->want_dir >= 0)
		add_wanted_bins(c, js, njs, o->bins_out);
	metrics = json_object();
	aggregate(c, js, njs, metrics);
	per_host_metrics(c, entries, jobs, js, njs, metrics);
	unavail = json_object();
	disk_util_metric(c, d->doc, metrics, unavail);

	res = json_object();
	json_object_set_new(res, "file", json_string(c->name));
	json_object_set_new(res, "fio_version", c->version ?
			    json_string(c->version) : json_null());
	json_object_set_new(res, "documents", json_integer(d->ndocs));
	json_object_set_new(res, "work", work ? json_string(work) :
			    json_null());
	json_object_set_new(res, "jobs", jobs);
	json_object_set_new(res, "metrics", metrics);
	json_object_set_new(res, "unavailable", unavail);
	json_object_update(res, pc_res);
	json_array_extend(c->warnings, pc.warnings);
	json_array_foreach(pc.flags, i, e)
		flagf(c, "%s", json_string_value(e));
	json_object_set(res, "warnings", c->warnings);
	json_object_set(res, "flags", c->flags);
	json_object_set_new(res, "error", json_integer(first_error));

	for (i = 0; i < njs; i++) {
		int dd;

		for (dd = 0; dd < NR_DIRS; dd++) {
			free(js[i].dir[dd].dist[LK_CLAT].bins);
			free(js[i].dir[dd].dist[LK_LAT].bins);
		}
	}
	free(js);
	json_decref(pc.warnings);
	json_decref(pc.flags);
	json_decref(pc_res);
	return res;
}

static void docs_free(struct docs *d)
{
	json_decref(d->doc);
	d->doc = NULL;
	fio_bin_table_free(&d->bins);
}

json_t *fio_parse_buf_opts(const char *name, const char *buf, size_t len,
			   const struct fio_parse_opts *o, char *err,
			   size_t errlen)
{
	struct ctx c = { .name = name, .ver_major = -1, .ver_minor = -1 };
	struct docs d = { 0 };
	struct text_src src = { .buf = buf, .len = len };
	json_t *res = NULL;
	struct lenient *lz = kb_xcalloc(1, sizeof(*lz));
	size_t p = 0, text = 0;
	int line = 1, text_line = 1;
	int bad_line = 0, nondoc_line = 0, bad_after_line = 0;
	int bad_truncated = 0;
	char bad[200] = "", bad_after[200] = "";
	/* the json+ bins of the candidate being read */
	struct fio_bin_table cand = { 0 };
	struct fail_zone zone = { 0 };
	int stream;

	if (!buf)
		len = 0;
	stream = !(o && o->dom_only) && fio_stream_safe(buf, len);
	want_bins(&c, o);
	c.warnings = json_array();
	c.flags = json_array();

	/* The documents, read as a stream: every '{' is a candidate start. */
	while (p < len) {
		const char *q = memchr(buf + p, '{', len - p);
		size_t off, used = 0;
		int lenient = 0;
		json_error_t je;
		json_t *j;
		int known_bad, may_fix;

		if (!q)
			break;
		off = (size_t)(q - buf);
		line += count_lines(buf, p, off);
		/* inside a failed candidate, failing as it did: not parsed
		 * again, unless its error is still to be reported (below) */
		known_bad = zone_has(&zone, off) &&
			    !(object_start(buf, off, len) &&
			      (!bad[0] || (d.ndocs && !bad_after[0])));
		memset(&je, 0, sizeof(je));
		/* the streaming pass first (fio_json_stream.h); jansson's
		 * json_loadb() when it fails, for the same tree or jansson's
		 * error, then the lenient reading */
		j = stream && !known_bad ?
			fio_stream_load(buf + off, len - off, &used, &cand) :
			NULL;
		if (!j && !known_bad) {
			j = json_loadb(buf + off, len - off,
				       JSON_DISABLE_EOF_CHECK, &je);
			if (j && je.position > 0)
				used = (size_t)je.position;
			if (o && o->work) {
				o->work->strict_reads++;
				o->work->bytes += j ? used :
						  (size_t)je.position;
			}
		} else if (j && o && o->work) {
			o->work->strict_reads++;
			o->work->bytes += used;
		}
		may_fix = !j && (known_bad ? zone.lenient :
				 lenient_may_fix(buf + off, &je));
		/* only after the strict parse failed, where it may help */
		if (may_fix && object_start(buf, off, len)) {
			j = lenient_load(buf + off, len - off, &used, lz,
					 o ? o->work : NULL);
			lenient = j != NULL;
		}
		if (j && is_fio_doc(j) && used > 0) {
			if (d.ndocs == 0)
				warn_preamble(&c, buf, text, off, text_line);
			else
				warn_between(&c, buf, text, off, text_line,
					     d.ndocs);
			if (lenient)
				lenient_warn(&c, lz, line);
			d.ndocs++;
			docs_free(&d);
			d.doc = j;
			d.bins = cand;
			memset(&cand, 0, sizeof(cand));
			d.doc_line = line;
			bad_after[0] = '\0';
			p = off + used;
			line += count_lines(buf, off, p);
			text = p;
			text_line = line;
			continue;
		}
		if (j) {
			if (!nondoc_line)
				nondoc_line = line;
			json_decref(j);
			fio_bin_table_free(&cand);
			p = off + (used > 0 ? used : 1);
			line += count_lines(buf, off, p);
			continue;
		}
		if (!known_bad && je.position > 0 && off >= zone.hi) {
			zone_build(&zone, buf, off, off + (size_t)je.position);
			zone.lenient = may_fix;
		}
		if (known_bad || !object_start(buf, off, len)) {
			p = off + 1;
			continue;
		}
		if (!bad[0]) {
			/* FILE:LINE is where jansson stopped; the document's
			 * first line beside it (one line number each) */
			bad_line = line + je.line - 1;
			bad_truncated = at_end(&je, len - off);
			kb_fmt(bad, sizeof(bad), "%s (column %d; the document "
			       "starts at line %d)", je.text, je.column, line);
		}
		if (d.ndocs && !bad_after[0]) {
			bad_after_line = line;
			kb_fmt(bad_after, sizeof(bad_after), "%s (line %d, column %d)",
			       je.text, line + je.line - 1, je.column);
		}
		p = off + 1;
	}

	if (!d.doc) {
		no_doc_error(name, buf ? buf : "", len, bad[0] ? bad : NULL,
			     bad_line, bad_truncated, nondoc_line, err,
			     errlen);
		goto out;
	}
	if (bad_after[0]) {
		warnf(&c, "invalid JSON after document %d, from line %d (truncated document?), ignored: %s",
		      d.ndocs, bad_after_line, bad_after);
		/* the numbers are an earlier report's: with --status-interval
		 * an interim one, not the run's end */
		flagf(&c, "truncated output: the numbers are document %d's, "
		      "the last complete one", d.ndocs);
	}
	else
		warn_between(&c, buf, text, len, text_line, d.ndocs);
	res = build_result(&c, &d, &src, o);
out:
	free(lz);
	free(zone.open);
	docs_free(&d);
	json_decref(c.warnings);
	json_decref(c.flags);
	return res;
}

/* ---- a file read in chunks ----------------------------------------------
 *
 * fio_parse_file_opts() reads a regular file in chunks (1 MiB reads), so
 * the whole file is never in memory: the text between documents is kept
 * (in the window below) for its warnings, each document is fed to the
 * streaming pass (fio_stream_feed()) as it is read, and the page-cache
 * check reads the file again in chunks when it needs the text.  This
 * handles files whose every document the streaming pass reads, as fio
 * writes them; anything else (no document, a document the pass refuses
 * or that is not a fio document, bytes fio_stream_safe() rules out, a
 * read error) makes it give way: the caller reads the whole file with
 * fio_parse_buf_opts(), which gives the same result for what both read
 * (tests/test_fio_json_stream.c, fuzz/fuzz_fio_json.c). */

struct chunked {
	int fd;
	char *w;		/* the window: w[0 .. n), from the end of
				 * the last document (or the file's start) */
	size_t n, cap;
	size_t chunk;		/* bytes per read */
	int eof;
	struct fio_safe_state safe;
	char *head;		/* the file's first head_n bytes read, of
				 * head_max wanted (fio_parse_opts head) */
	size_t head_n, head_max;
};

/* Append up to one chunk to the window: 1 bytes read, 0 end of file, -1
 * a read error or bytes the streaming pass must not read. */
static int chunk_read(struct chunked *r)
{
	ssize_t got;

	if (r->n + r->chunk > r->cap) {
		r->cap = r->n + r->chunk > 2 * r->cap ? r->n + r->chunk :
			 2 * r->cap;
		r->w = kb_xrealloc(r->w, r->cap);
	}
	do
		got = read(r->fd, r->w + r->n, r->chunk);
	while (got < 0 && errno == EINTR);
	if (got <= 0) {
		r->eof = 1;
		return got < 0 ? -1 : 0;
	}
	if (r->head_n < r->head_max) {
		size_t k = r->head_max - r->head_n;

		if (k > (size_t)got)
			k = (size_t)got;
		memcpy(r->head + r->head_n, r->w + r->n, k);
		r->head_n += k;
	}
	if (!fio_stream_safe_piece(&r->safe, r->w + r->n, (size_t)got))
		return -1;
	r->n += (size_t)got;
	return 1;
}

/* Feed the document at r->w[off] to the streaming pass, reading chunks
 * until it closes; *line advances over its lines.  Its tree (bins in bt)
 * with the window left holding what follows it, or NULL. */
static json_t *chunk_doc(struct chunked *r, size_t off, int *line,
			 struct fio_bin_table *bt)
{
	struct fio_stream *st = fio_stream_new(bt);
	size_t used = 0;
	int fed = st ? 0 : -1;

	while (fed == 0) {
		fed = fio_stream_feed(st, r->w + off, r->n - off, &used);
		if (fed == 1) {
			*line += count_lines(r->w, off, off + used);
			off += used;
			break;
		}
		*line += count_lines(r->w, off, r->n);
		off = r->n = 0;
		if (fed == 0 && chunk_read(r) <= 0)
			fed = -1;
	}
	if (fed == 1) {
		memmove(r->w, r->w + off, r->n - off);
		r->n -= off;
	}
	return st ? fio_stream_end(st) : NULL;
}

/* fio_parse_file_opts() in chunks of chunk bytes for a regular file; NULL
 * with *whole = 1 when it gives way (see above). */
static json_t *parse_chunked(const char *path, size_t chunk,
			     const struct fio_parse_opts *o, int *whole)
{
	struct ctx c = { .name = path, .ver_major = -1, .ver_minor = -1 };
	struct chunked r = { .chunk = chunk };
	struct docs d = { 0 };
	struct text_src src = { .path = path, .chunk = chunk };
	json_t *res = NULL;
	size_t p = 0;		/* scanned up to w[p] */
	int line = 1, text_line = 1;

	*whole = 1;
	r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0)
		return NULL;
	if (o && o->head) {
		r.head_max = o->head_max;
		r.head = kb_xmalloc(r.head_max + 1);
	}
	want_bins(&c, o);
	c.warnings = json_array();
	c.flags = json_array();
	for (;;) {
		const char *q = p < r.n ? memchr(r.w + p, '{', r.n - p) : NULL;
		struct fio_bin_table cand = { 0 };
		size_t off, b;
		json_t *j;
		int doc_line;

		if (!q) {
			line += count_lines(r.w, p, r.n);
			p = r.n;
			if (r.eof)
				break;
			if (chunk_read(&r) < 0)
				goto out;
			continue;
		}
		off = (size_t)(q - r.w);
		/* object_start() needs the first byte after the blanks */
		for (b = off + 1;; ) {
			while (b < r.n && is_blank(r.w + b, 1))
				b++;
			if (b < r.n || r.eof)
				break;
			if (chunk_read(&r) < 0)
				goto out;
		}
		line += count_lines(r.w, p, off);
		p = off + 1;
		if (!object_start(r.w, off, r.n))
			continue;
		/* the text before: its warnings now, dropped with the rest
		 * if the file is read whole after all */
		if (d.ndocs == 0)
			warn_preamble(&c, r.w, 0, off, text_line);
		else
			warn_between(&c, r.w, 0, off, text_line, d.ndocs);
		docs_free(&d);	/* this one replaces it, or gives way */
		doc_line = line;
		j = chunk_doc(&r, off, &line, &cand);
		if (!is_fio_doc(j)) {
			json_decref(j);
			fio_bin_table_free(&cand);
			goto out;
		}
		d.doc = j;
		d.bins = cand;
		d.ndocs++;
		d.doc_line = doc_line;
		p = 0;
		text_line = line;
	}
	if (!d.ndocs)
		goto out;	/* the whole file's reading says why */
	warn_between(&c, r.w, 0, r.n, text_line, d.ndocs);
	close(r.fd);
	r.fd = -1;
	free(r.w);
	r.w = NULL;
	*whole = 0;
	res = build_result(&c, &d, &src, o);
	if (r.head) {
		r.head[r.head_n] = '\0';
		*o->head = r.head;
		r.head = NULL;
	}
out:
	if (r.fd >= 0)
		close(r.fd);
	free(r.head);
	free(r.w);
	docs_free(&d);
	json_decref(c.warnings);
	json_decref(c.flags);
	return res;
}

json_t *fio_parse_file(const char *path, char *err, size_t errlen)
{
	return fio_parse_file_opts(path, NULL, err, errlen);
}

json_t *fio_parse_file_opts(const char *path, const struct fio_parse_opts *o,
			    char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	struct stat st;
	json_t *res;
	int rc, whole = 1, reg = stat(path, &st) == 0 && S_ISREG(st.st_mode);

	if (o && o->head)
		*o->head = NULL;
	/* fio's largest outputs (json+ of many jobs) are tens of MB; a
	 * disk image or a core file given by mistake is not read whole */
	if (reg && st.st_size > FIO_MAX_OUTPUT_BYTES) {
		kb_fmt(err, errlen, "%s: %lld bytes is far larger than any fio "
		       "output (limit %d MiB); is this the right file?", path,
		       (long long)st.st_size, FIO_MAX_OUTPUT_BYTES >> 20);
		return NULL;
	}
	/* a regular file in chunks (a pipe could not be read twice) */
	if (reg && !(o && o->dom_only)) {
		size_t chunk = o && o->read_chunk_bytes ? o->read_chunk_bytes :
			       FIO_READ_CHUNK_BYTES;

		if ((size_t)st.st_size < chunk)
			chunk = (size_t)st.st_size + 1;
		res = parse_chunked(path, chunk, o, &whole);
		if (!whole) {
			if (o && o->read_whole)
				*o->read_whole = 0;
			return res;
		}
	}
	if (o && o->read_whole)
		*o->read_whole = 1;
	rc = kb_read_file(path, &buf, &len, 1);
	if (rc < 0) {
		if (rc == -ENODEV)
			kb_fmt(err, errlen, "%s: a device, not a file: not "
			       "read", path);
		else
			kb_fmt(err, errlen, "%s: cannot read: %s", path,
			       strerror(-rc));
		return NULL;
	}
	if (o && o->head) {
		size_t hl = len < o->head_max ? len : o->head_max;

		*o->head = kb_xmalloc(hl + 1);
		memcpy(*o->head, buf, hl);
		(*o->head)[hl] = '\0';
	}
	res = fio_parse_buf_opts(path, buf, len, o, err, errlen);
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
