/* parsers/fio_log.c - fio per-job logs combined per time window (see
 * fio_log.h; fio HOWTO "Log File Formats"). */
#include "parsers/fio_log.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sample {
	long window;
	double value;		/* the sum of the window's samples */
	unsigned count;		/* how many */
	unsigned dirs;		/* the data directions summed here: bit d
				 * for direction d (0 read, 1 write, 2
				 * trim), bit 3 for a line without one */
};

struct segment {
	char *name;
	struct sample *s;	/* one per window, sorted by window */
	size_t n, cap;
	struct sample *fs;	/* the same by floor(t / W) + 1: add_sample() */
	size_t fn, fcap;
	size_t missing;		/* windows of other files it has none of */
	/* the time of the last sample of each direction (index as the
	 * bits of sample.dirs); has_prev: there was one */
	double prev_t[4];
	int has_prev[4];
	/* the first line, not the segment's last (fio's partial window at
	 * the job's end), whose sample came less than 3/4 of a window
	 * after the one before it of its direction, or shared a window
	 * with it (0: none), and the two times */
	int close_line;
	double close_t0, close_t1;
	/* the last sample of each direction, when it came that close: it
	 * counts once another of its direction follows it (a direction's
	 * last sample may be fio's partial window at the job's end) */
	int pend_line[4];
	double pend_t0[4], pend_t1[4];
	int all_one;		/* every value is 1: a log of every I/O */
	double last_t;		/* the latest time of a sample, ms */
	int header;		/* named by a "==> NAME <==" header */
	size_t input;		/* the index of its file in fio_log_parse()'s in */
};

/* A new segment named name (taken over) at the end of *seg: NULL when
 * out of memory (name freed). */
static struct segment *new_segment(struct segment **seg, size_t *nseg,
				   size_t *capseg, char *name)
{
	struct segment *g;

	if (!name)
		return NULL;
	if (*nseg == *capseg) {
		size_t c = *capseg ? *capseg * 2 : 8;
		struct segment *ns = realloc(*seg, c * sizeof(*ns));

		if (!ns) {
			free(name);
			return NULL;
		}
		*seg = ns;
		*capseg = c;
	}
	g = &(*seg)[(*nseg)++];
	memset(g, 0, sizeof(*g));
	g->all_one = 1;
	g->name = name;
	return g;
}

static void set_num(json_t *o, const char *key, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		json_object_set_new(o, key, json_integer((json_int_t)v));
	else
		json_object_set_new(o, key, json_real(v));
}

int fio_log_name_kind(const char *path, char *kind, size_t n)
{
	static const char *kinds[] = { "iops", "bw", "lat", "clat", "slat" };
	const char *base = strrchr(path, '/');
	size_t len, i, klen;
	const char *end;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len < 5 || strcmp(base + len - 4, ".log"))
		return 0;
	end = base + len - 4;
	/* ".N" job number */
	{
		const char *q = end;

		while (q > base && isdigit((unsigned char)q[-1]))
			q--;
		if (q < end && q > base && q[-1] == '.')
			end = q - 1;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		klen = strlen(kinds[i]);
		if ((size_t)(end - base) > klen &&
		    !memcmp(end - klen, kinds[i], klen) && end[-(long)klen - 1] == '_') {
			snprintf(kind, n, "%s", kinds[i]);
			return 1;
		}
	}
	return 0;
}

/* "T, V, ..." with T and V integers or reals */
/* "time, value[, direction, ...]": *t, *v, *dir (the third column, -1
 * when there is none) and *ncols (the columns on the line).  0, or -1
 * when the line is not a sample. */
/* The largest time a sample may have, in ms (31,700 years): its window
 * number and time_ms stay far inside a long. */
#define LOG_TIME_MAX_MS 1e15

static int sample_line(const char *s, const char *e, double *t, double *v,
		       int *dir, int *ncols)
{
	char buf[256], *p, *q, *r;
	size_t len = (size_t)(e - s);
	long d;
	int range;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*t = strtod(buf, &p);
	range = errno == ERANGE;
	if (p == buf || (errno && !range) || *p != ',')
		return -1;
	errno = 0;
	*v = strtod(p + 1, &q);
	range |= errno == ERANGE;
	if (q == p + 1 || (errno && errno != ERANGE) ||
	    (*q && *q != ',' && !isspace((unsigned char)*q)))
		return -1;
	/* a sample, with a number no window can take (fio writes times
	 * in ms from 0 and values >= 0): -2 */
	if (range || !isfinite(*t) || !isfinite(*v) || *t < 0 ||
	    *t > LOG_TIME_MAX_MS || *v < 0)
		return -2;
	*ncols = 2;
	*dir = -1;
	for (r = q; *r; r++)
		*ncols += *r == ',';
	if (*q == ',') {
		d = strtol(q + 1, &r, 10);
		if (r != q + 1 && d >= 0 && d <= 2)
			*dir = (int)d;
	}
	return 0;
}

static int header_line(const char *s, const char *e, char **name)
{
	size_t len = (size_t)(e - s);

	while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	if (len < 9 || memcmp(s, "==> ", 4) || memcmp(s + len - 4, " <==", 4))
		return 0;
	*name = strndup(s + 4, len - 8);
	return 1;
}

int fio_log_detect(const char *path, const char *buf, size_t len)
{
	char kind[16], *name = NULL;
	const char *e;
	double t, v;
	int dir, ncols;
	size_t i = 0;

	if (fio_log_name_kind(path, kind, sizeof(kind)))
		return 1;
	while (i < len && isspace((unsigned char)buf[i]))
		i++;
	e = memchr(buf + i, '\n', len - i);
	if (!e)
		e = buf + len;
	if (header_line(buf + i, e, &name)) {
		free(name);
		return 1;
	}
	return i < len && isdigit((unsigned char)buf[i]) &&
	       !sample_line(buf + i, e, &t, &v, &dir, &ncols);
}

/* 1 when the next line to read (from p to end) is a "==> NAME <=="
 * header, or there is none left. */
static int header_next(const char *p, const char *end)
{
	const char *e;
	char *name = NULL;
	int h;

	if (p >= end)
		return 1;
	e = memchr(p, '\n', (size_t)(end - p));
	h = header_line(p, e ? e : end, &name);
	free(name);
	return h;
}

/* Sample v of direction dir (-1: none) into window w of the list *ps
 * (*pn windows, room for *pcap, sorted by window): the
 * samples of a window are summed and counted (read + write of one file;
 * the samples of a log of every I/O).  0, -1 out of memory, 1 when the
 * window had a sample of that direction already. */
static int add_to(struct sample **ps, size_t *pn, size_t *pcap, long w,
		  double v, int dir)
{
	unsigned bit = 1u << (dir < 0 ? 3 : dir);
	struct sample *s = *ps;
	size_t i, n = *pn;
	int again;

	for (i = n; i > 0 && s[i - 1].window >= w; i--)
		if (s[i - 1].window == w) {
			again = !!(s[i - 1].dirs & bit);
			s[i - 1].value += v;
			s[i - 1].count++;
			s[i - 1].dirs |= bit;
			return again;
		}
	if (n == *pcap) {
		size_t cap = *pcap ? *pcap * 2 : 64;

		s = realloc(s, cap * sizeof(*s));
		if (!s)
			return -1;
		*ps = s;
		*pcap = cap;
	}
	memmove(s + i + 1, s + i, (n - i) * sizeof(*s));
	s[i].window = w;
	s[i].value = v;
	s[i].count = 1;
	s[i].dirs = bit;
	*pn = n + 1;
	return 0;
}

/* Sample v at t ms into g's windows: round(t / avg_msec), the window
 * whose end an averaged sample stamps (fio writes the average of
 * ((k-1)W, kW] at about kW), and beside them floor(t / avg_msec) + 1,
 * [(k-1)W, kW), for a log of every I/O, whose lines fall anywhere in it
 * (fio truncates an I/O's time to whole ms: a line at kW is an I/O of
 * [kW, kW + 1) ms, window k + 1)
 * (taken instead when the log turns out to be one).  As add_to(): 1 when
 * the round window had a sample of that direction already. */
static int add_sample(struct segment *g, double t, unsigned avg_msec,
		      double v, int dir)
{
	int r = add_to(&g->s, &g->n, &g->cap, lround(t / avg_msec), v, dir);

	if (r >= 0 && add_to(&g->fs, &g->fn, &g->fcap,
			     (long)floor(t / avg_msec) + 1, v, dir) < 0)
		return -1;
	return r;
}

/* Windows of g (sorted) with none between its first and last added as
 * empty ones (value 0, count 0): a log of every I/O's windows without an
 * I/O.  0, or -1 out of memory. */
static int fill_gaps(struct segment *g)
{
	long span;
	size_t i, k = 0;
	struct sample *s;

	if (g->n < 2)
		return 0;
	span = g->s[g->n - 1].window - g->s[0].window + 1;
	if ((size_t)span == g->n)
		return 0;
	s = calloc((size_t)span, sizeof(*s));
	if (!s)
		return -1;
	for (i = 0; i < (size_t)span; i++) {
		s[i].window = g->s[0].window + (long)i;
		if (k < g->n && g->s[k].window == s[i].window)
			s[i] = g->s[k++];
	}
	free(g->s);
	g->s = s;
	g->n = g->cap = (size_t)span;
	return 0;
}

/* g's value in window w with *found 1, or 0 with *found 0 when g has no
 * sample there.  g->s is sorted by window: a binary search (a scan was
 * quadratic: 3.3 s for two files of a day's 86,400 windows). */
static double seg_value(const struct segment *g, long w, int *found)
{
	size_t lo = 0, hi = g->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->s[mid].window < w)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < g->n && g->s[lo].window == w;
	return *found ? g->s[lo].value : 0;
}

/* The most windows a log of every I/O is read into (its windows without
 * I/O are 0s): a day at 100 ms is 864,000; one line at 8,114 s among
 * lines of the first 300 ms, read per 5 ms, made 1.6 million JSON
 * objects, 2 GiB under ASan. */
#define FIO_LOG_MAX_WINDOWS	1000000

/* Windows missing from one file said one by one, the rest counted. */
#define MISSING_SAID	5

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Add name to the list in buf (bufsz bytes): "A", "A, B", ... (cut
 * with "..." when full). */
static void note_empty(char *buf, size_t bufsz, const char *name)
{
	size_t l = strlen(buf);

	if (l + 4 >= bufsz)
		return;
	snprintf(buf + l, bufsz - l, "%s%s", l ? ", " : "",
		 name ? name : "?");
	if (strlen(buf) + 4 >= bufsz)
		snprintf(buf + bufsz - 4, 4, "...");
}

json_t *fio_log_parse(const struct fio_log_input *in, size_t n,
		      unsigned avg_msec, char *err, size_t errlen)
{
	struct segment *seg = NULL;
	size_t nseg = 0, capseg = 0, i, j, nw = 0;
	long *wins = NULL;
	char kind[16] = "", k[16], cut[512] = "", partial[700] = "";
	char restart[600] = "", gap[600] = "", mixed[600] = "";
	char empty[600] = "";
	json_t *res = NULL, *files, *windows, *warnings;
	double sum = 0;
	int mean_combine;

	if (!avg_msec)
		avg_msec = 1000;
	for (i = 0; i < n; i++) {
		const char *p = in[i].buf, *end = in[i].buf + in[i].len;
		int lineno = 0, prev_cols = 0, last, di;
		struct segment *cur = NULL;

		while (p < end) {
			const char *e = memchr(p, '\n', (size_t)(end - p));
			char *hname = NULL;
			double t, v;
			int dir, ncols, r;

			if (!e)
				e = end;
			lineno++;
			if (header_line(p, e, &hname) || !cur) {
				cur = new_segment(&seg, &nseg, &capseg, hname ?
						  hname : strdup(in[i].name));
				if (!cur) {
					snprintf(err, errlen, "out of memory");
					goto fail;
				}
				cur->input = i;
				if (hname) {
					cur->header = 1;
					p = e + 1;
					continue;
				}
			}
			{
				const char *q = p;

				while (q < e && isspace((unsigned char)*q))
					q++;
				if (q == e) {
					p = e + 1;
					continue;
				}
			}
			/* the last line of a file (no newline) or of a
			 * file within `tail -n +1` output (a header next),
			 * cut off by a fio that was killed: "401, 14" is not
			 * a sample of 14, "401" no sample at all */
			last = e == end || header_next(e + 1, end);
			r = sample_line(p, e, &t, &v, &dir, &ncols);
			if (r == -2) {
				snprintf(err, errlen, "%s: line %d: a time or "
					 "value out of range (times are ms from 0 "
					 "to %.0e, values 0 or more, finite): "
					 "'%.*s'", in[i].name, lineno,
					 LOG_TIME_MAX_MS,
					 (int)((e - p) > 60 ? 60 : (e - p)), p);
				goto fail;
			}
			if (r) {
				if (last && prev_cols &&
				    isdigit((unsigned char)*p)) {
					ncols = 0;
				} else {
					snprintf(err, errlen, "%s: line %d: not a fio log sample ('time, value, direction, block size, offset'): '%.*s'",
						 in[i].name, lineno,
						 (int)((e - p) > 60 ? 60 : (e - p)), p);
					goto fail;
				}
			}
			if (last && ncols < prev_cols) {
				if (!*cut)	/* the first one said */
					snprintf(cut, sizeof(cut), "%s%sline %d: cut off (%d of %d columns): '%.*s' ignored",
						 n > 1 ? in[i].name : "",
						 n > 1 ? ": " : "", lineno, ncols,
						 prev_cols, (int)((e - p) > 60 ?
						 60 : (e - p)), p);
				p = e + 1;
				continue;
			}
			prev_cols = ncols;
			di = dir < 0 ? 3 : dir;
			/* times starting again: another job's log in the
			 * same file (fio's per_job_logs=0 writes one file
			 * for all jobs, each job's lines after the last's):
			 * read as a log of its own, said */
			if (cur->n && t < cur->last_t - avg_msec / 2.0) {
				char *nm = strdup(cur->name);

				if (!*restart)
					snprintf(restart, sizeof(restart),
						 "%s%sline %d: times start "
						 "again (%.0f ms after %.0f "
						 "ms): another job's log in "
						 "the same file (fio's "
						 "per_job_logs=0), summed "
						 "with the ones before as "
						 "the log of another job",
						 n > 1 ? in[i].name : "",
						 n > 1 ? ": " : "", lineno, t,
						 cur->last_t);
				cur = new_segment(&seg, &nseg, &capseg, nm);
				if (!cur) {
					snprintf(err, errlen, "out of memory");
					goto fail;
				}
				cur->input = i;
			}
			r = add_sample(cur, t, avg_msec, v, dir);
			if (r < 0) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			/* samples closer together than the window, or two of
			 * one direction in one window; a direction's last
			 * sample may be fio's partial window at the job's
			 * end, so one counts once a later one follows it */
			if (cur->pend_line[di] && !cur->close_line) {
				cur->close_line = cur->pend_line[di];
				cur->close_t0 = cur->pend_t0[di];
				cur->close_t1 = cur->pend_t1[di];
			}
			cur->pend_line[di] = 0;
			if (cur->has_prev[di] &&
			    (r == 1 || t - cur->prev_t[di] < 0.75 * avg_msec)) {
				cur->pend_line[di] = lineno;
				cur->pend_t0[di] = cur->prev_t[di];
				cur->pend_t1[di] = t;
			}
			cur->prev_t[di] = t;
			cur->has_prev[di] = 1;
			if (t > cur->last_t)
				cur->last_t = t;
			if (v != 1.0)
				cur->all_one = 0;
			p = e + 1;
		}
		/* an empty file: a log without a sample (below) */
		if (!cur && !(cur = new_segment(&seg, &nseg, &capseg,
						strdup(in[i].name)))) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		cur->input = i;
	}
	/* segments without a sample go: an empty file before a header
	 * silently, a log with none (an empty file, a header with no line
	 * after it: a job that did no I/O, a fio killed before it wrote)
	 * said, as the totals leave out a job */
	for (i = 0, j = 0; i < nseg; i++) {
		if (seg[i].n)
			seg[j++] = seg[i];
		else {
			if ((seg[i].header || i + 1 == nseg ||
			     !seg[i + 1].header ||
			     seg[i + 1].input != seg[i].input) && nseg > 1)
				note_empty(empty, sizeof(empty), seg[i].name);
			free(seg[i].name);
			free(seg[i].s);
			free(seg[i].fs);
		}
	}
	nseg = j;
	if (!nseg) {
		snprintf(err, errlen, "%s: no fio log sample", n ? in[0].name : "(no file)");
		goto fail;
	}
	for (i = 0; i < nseg; i++) {
		if (!seg[i].name || !fio_log_name_kind(seg[i].name, k, sizeof(k)))
			continue;
		if (!*kind)
			snprintf(kind, sizeof(kind), "%s", k);
		else if (strcmp(kind, k)) {
			snprintf(err, errlen, "%s: a %s log among %s logs: give the logs of one kind together",
				 seg[i].name, k, kind);
			goto fail;
		}
	}
	mean_combine = strstr(kind, "lat") != NULL;
	for (i = 0; i < nseg; i++) {
		struct segment *g = &seg[i];
		/* a log of every I/O (fio without log_avg_msec): a latency
		 * log whose lines come closer than the window, an IOPS log
		 * so whose values are all 1 (one line per I/O) */
		int per_io = g->close_line && (mean_combine ||
				(g->all_one && strcmp(kind, "bw")));

		if (per_io) {
			/* its windows are those of its lines' times,
			 * [(k-1)W, kW) (add_sample()); the last one ends
			 * with the job, whose last I/O came early in it (a
			 * 1-s job's I/O at 1008 ms made a window of one
			 * I/O, "1 IOPS"): left out, said */
			struct sample *sw = g->s;
			double end;

			g->s = g->fs;
			g->fs = sw;
			g->n = g->fn;
			/* windows missing inside its span: in an IOPS log a
			 * window without I/O, 0 (left out, they raised the
			 * mean 2.5 times for a job that paused); in an
			 * averaged log a window fio logged nothing for, said
			 * below when no file has it */
			if (!mean_combine && g->n > 1 &&
			    g->s[g->n - 1].window - g->s[0].window >=
			    FIO_LOG_MAX_WINDOWS) {
				snprintf(err, errlen, "%s: a log of every I/O "
					 "(values of 1) from %ld to %.0f ms: "
					 "more than %d windows of %u ms; give "
					 "a wider window (--log-avg-msec)",
					 g->name ? g->name : "?",
					 (g->s[0].window - 1) * (long)avg_msec,
					 g->last_t, FIO_LOG_MAX_WINDOWS,
					 avg_msec);
				goto fail;
			}
			if (!mean_combine && fill_gaps(g)) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			end = (double)g->s[g->n - 1].window * avg_msec;
			if (g->n > 1 && g->last_t < end - 0.05 * avg_msec) {
				if (!*partial)
					snprintf(partial, sizeof(partial),
						 "%s%sa log of every I/O (fio "
						 "without log_avg_msec), read "
						 "per window of %u ms%s; its "
						 "last window, from %.0f ms, "
						 "ends with the job (last I/O "
						 "at %.0f ms): partial, left "
						 "out",
						 n > 1 && g->name ? g->name : "",
						 n > 1 && g->name ? ": " : "",
						 avg_msec, mean_combine ?
						 " (the mean of its I/Os)" :
						 " (its I/Os per second)",
						 end - avg_msec, g->last_t);
				g->n--;
			}
		}
		/* an averaged latency log of reads and writes: fio averaged
		 * each direction apart and wrote no I/O counts, so a
		 * window's value is the mean of the directions' means */
		if (mean_combine && !per_io && !*mixed) {
			unsigned d = 0;

			for (j = 0; j < g->n; j++)
				d |= g->s[j].dirs & 7u;
			if (d & (d - 1))
				snprintf(mixed, sizeof(mixed), "%s%sreads and "
					 "writes in one averaged latency log: "
					 "fio averaged each direction apart "
					 "and wrote no I/O counts, so each "
					 "window holds the mean of the "
					 "directions' means, not of the I/Os "
					 "(fio's JSON gives each direction's "
					 "mean)",
					 n > 1 && g->name ? g->name : "",
					 n > 1 && g->name ? ": " : "");
		}
		/* a latency log: a window of several samples holds their
		 * mean; an IOPS log of every I/O: its I/Os over the
		 * window's width */
		for (j = 0; mean_combine && j < g->n; j++)
			g->s[j].value /= g->s[j].count;
		for (j = 0; per_io && !mean_combine && j < g->n; j++)
			g->s[j].value *= 1000.0 / avg_msec;
		if (per_io || mean_combine || !g->close_line)
			continue;
		snprintf(err, errlen, "%s: line %d: a sample at %.0f ms, %.0f "
			 "ms after the one before it of its direction, closer "
			 "than the window of %u ms (--log-avg-msec): an "
			 "averaged log's rates would be added up; give "
			 "--log-avg-msec the log_avg_msec fio ran with (these "
			 "samples are about %.0f ms apart)%s",
			 g->name ? g->name : "?", g->close_line, g->close_t1,
			 g->close_t1 - g->close_t0, avg_msec,
			 g->close_t1 - g->close_t0,
			 !strcmp(kind, "bw") ? "; a bandwidth log of every "
			 "I/O (fio without log_avg_msec) holds each I/O's "
			 "own rate and has no window total: run fio with "
			 "log_avg_msec" : "");
		goto fail;
	}

	for (i = 0; i < nseg; i++)
		nw += seg[i].n;
	wins = malloc(nw * sizeof(*wins));
	if (!wins) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	nw = 0;
	for (i = 0; i < nseg; i++)
		for (j = 0; j < seg[i].n; j++)
			wins[nw++] = seg[i].s[j].window;
	qsort(wins, nw, sizeof(*wins), cmp_long);
	for (i = 0, j = 0; i < nw; i++)
		if (!j || wins[j - 1] != wins[i])
			wins[j++] = wins[i];
	nw = j;
	/* a window no file has, between two that some have: fio logged
	 * nothing for it (its logging held up: a one-file log's mean was
	 * 107 for 100 IOPS without a word); left out of the mean, said */
	for (i = 1; i < nw && !*gap; i++)
		if (wins[i] - wins[i - 1] > 1)
			snprintf(gap, sizeof(gap), "window %ld (%ld ms)%s: no "
				 "sample in any file, fio logged nothing for "
				 "it (its logging held up?): the mean is of the "
				 "windows that have one", wins[i - 1] + 1,
				 (wins[i - 1] + 1) * (long)avg_msec,
				 wins[i] - wins[i - 1] > 2 ? " and after" : "");

	res = json_object();
	files = json_array();
	windows = json_array();
	warnings = json_array();
	if (*cut)
		json_array_append_new(warnings, json_string(cut));
	if (*partial)
		json_array_append_new(warnings, json_string(partial));
	if (*restart)
		json_array_append_new(warnings, json_string(restart));
	if (*gap)
		json_array_append_new(warnings, json_string(gap));
	if (*mixed)
		json_array_append_new(warnings, json_string(mixed));
	if (*empty) {
		char msg[700];

		snprintf(msg, sizeof(msg), "no sample in %s (a job that did "
			 "no I/O, or a log fio did not write): left out of "
			 "the totals", empty);
		json_array_append_new(warnings, json_string(msg));
	}
	for (i = 0; i < nseg; i++)
		json_array_append_new(files, json_string(seg[i].name ? seg[i].name : ""));
	for (i = 0; i < nw; i++) {
		double total = 0;
		int present = 0, found;
		json_t *w = json_object();

		for (j = 0; j < nseg; j++) {
			total += seg_value(&seg[j], wins[i], &found);
			present += found;
		}
		for (j = 0; j < nseg && present < (int)nseg; j++) {
			char msg[512];

			seg_value(&seg[j], wins[i], &found);
			if (found || ++seg[j].missing > MISSING_SAID)
				continue;
			snprintf(msg, sizeof(msg), "window %ld (%ld ms): no sample in %s; total from %d of %zu files",
				 wins[i], wins[i] * (long)avg_msec,
				 seg[j].name ? seg[j].name : "?", present, nseg);
			json_array_append_new(warnings, json_string(msg));
		}
		if (mean_combine && present)
			total /= present;
		json_object_set_new(w, "window", json_integer(wins[i]));
		json_object_set_new(w, "time_ms", json_integer((json_int_t)wins[i] * avg_msec));
		set_num(w, "total", total);
		json_object_set_new(w, "files", json_integer(present));
		json_array_append_new(windows, w);
		sum += total;
	}
	for (j = 0; j < nseg; j++)
		if (seg[j].missing > MISSING_SAID) {
			char msg[512];

			snprintf(msg, sizeof(msg), "%zu more windows without a "
				 "sample in %s (%zu in all), each totalled from "
				 "the other files", seg[j].missing -
				 MISSING_SAID, seg[j].name ? seg[j].name : "?",
				 seg[j].missing);
			json_array_append_new(warnings, json_string(msg));
		}
	json_object_set_new(res, "format", json_string("fio_log"));
	json_object_set_new(res, "kind", *kind ? json_string(kind) : json_null());
	json_object_set_new(res, "combine", json_string(mean_combine ? "mean" : "sum"));
	json_object_set_new(res, "avg_msec", json_integer(avg_msec));
	json_object_set_new(res, "files", files);
	json_object_set_new(res, "windows", windows);
	set_num(res, "mean", sum / (double)nw);
	json_object_set_new(res, "warnings", warnings);
fail:
	for (i = 0; i < nseg; i++) {
		free(seg[i].name);
		free(seg[i].s);
		free(seg[i].fs);
	}
	free(seg);
	free(wins);
	return res;
}
