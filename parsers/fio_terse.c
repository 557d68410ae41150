/* parsers/fio_terse.c - fio terse v3 output (see fio_terse.h and fio's
 * HOWTO "Terse output" for the field layout). */
#include "parsers/fio_terse.h"
#include "parsers/fio_json.h"
#include "lib/str.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1-based positions of the fixed fields (HOWTO "Terse output", v3). */
enum {
	T_VERSION = 1, T_FIO_VERSION = 2, T_JOBNAME = 3, T_GROUPID = 4,
	T_ERROR = 5,
	T_READ = 6,		/* first field of the read block */
	T_WRITE = 47,		/* first field of the write block */
	T_USR_CPU = 88, T_SYS_CPU = 89,
	/* offsets inside a direction block (41 fields) */
	D_IO_KB = 0, D_BW = 1, D_IOPS = 2, D_RUNTIME = 3,
	D_SLAT_MEAN = 6, D_CLAT_MEAN = 10, D_CLAT_PCT = 12, D_NPCT = 20,
	D_LAT_MEAN = 34,
	DISK_FIELDS = 9,
};

/* A number, optionally followed by '%'; 0 or -1 when not a number. */
static int num(const char *s, double *v)
{
	char *end;

	errno = 0;
	/* decimal only: fio prints none in hex ("0x10" was read as 16) */
	if (strpbrk(s, "xXnN"))
		return -1;
	*v = strtod(s, &end);
	if (end == s || errno || !isfinite(*v))
		return -1;
	if (*end == '%')
		end++;
	return *end ? -1 : 0;
}

static void set_num(json_t *o, const char *key, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		json_object_set_new(o, key, json_integer((json_int_t)v));
	else
		json_object_set_new(o, key, json_real(v));
}

/* d.key = raw x scale, or, when raw is impossible, a warning naming the
 * field and nothing set (the metric is n/a, as in the JSON parser). */
static void put(json_t *d, const char *dname, const char *key, int field,
		double raw, double scale, json_t *warnings)
{
	char w[256];

	if (!fio_value_impossible(raw)) {	/* fio_json.h */
		set_num(d, key, raw * scale);
		return;
	}
	snprintf(w, sizeof(w), "%s.%s (field %d) = %.17g is impossible (negative or a wrapped counter): dropped",
		 dname, key, field, raw);
	json_array_append_new(warnings, json_string(w));
}

/* p50 <= p99 <= p99.9, as the JSON parser checks (parsers/fio_json.c):
 * else all three dropped, with a warning. */
static void pct_monotonic(json_t *d, const char *dname, json_t *warnings)
{
	static const char *const k[] = { "clat_p50_ns", "clat_p99_ns",
					  "clat_p999_ns" };
	double prev = -1, v;
	const char *pk = NULL;
	char w[256];
	int i;

	for (i = 0; i < 3; i++) {
		if (!json_is_number(json_object_get(d, k[i])))
			continue;
		v = json_number_value(json_object_get(d, k[i]));
		if (pk && v < prev) {
			snprintf(w, sizeof(w), "%s clat percentiles are not monotonic (%s = %.17g > %s = %.17g): %s.clat_p50/p99/p999 dropped",
				 dname, pk, prev, k[i], v, dname);
			json_array_append_new(warnings, json_string(w));
			for (i = 0; i < 3; i++)
				json_object_del(d, k[i]);
			return;
		}
		prev = v;
		pk = k[i];
	}
}

/* One direction's block starting at field base (1-based); NULL when the
 * direction did no I/O.  Numbers that are not numbers -> -1 + err. */
static json_t *direction(char **f, int base, const char *dname,
			 json_t *warnings, int *bad)
{
	double io_kb, bw, iops, rt, v, p, pv;
	json_t *d;
	int i;

	if (num(f[base + D_IO_KB], &io_kb) || num(f[base + D_BW], &bw) ||
	    num(f[base + D_IOPS], &iops) || num(f[base + D_RUNTIME], &rt)) {
		*bad = base;
		return NULL;
	}
	if (io_kb == 0 && iops == 0)
		return NULL;
	d = json_object();
	put(d, dname, "iops", base + D_IOPS, iops, 1, warnings);
	put(d, dname, "bw_kib", base + D_BW, bw, 1, warnings);
	put(d, dname, "io_bytes", base + D_IO_KB, io_kb, 1024, warnings);
	put(d, dname, "runtime_ms", base + D_RUNTIME, rt, 1, warnings);
	if (!num(f[base + D_CLAT_MEAN], &v))
		put(d, dname, "clat_mean_ns", base + D_CLAT_MEAN, v, 1000,
		    warnings);
	if (!num(f[base + D_LAT_MEAN], &v))
		put(d, dname, "lat_mean_ns", base + D_LAT_MEAN, v, 1000,
		    warnings);
	if (!num(f[base + D_SLAT_MEAN], &v) && v != 0)
		put(d, dname, "slat_mean_ns", base + D_SLAT_MEAN, v, 1000,
		    warnings);
	for (i = 0; i < D_NPCT; i++) {
		const char *s = f[base + D_CLAT_PCT + i];
		const char *eq = strstr(s, "%=");
		char pbuf[64];
		const char *key = NULL;

		if (!eq || (size_t)(eq - s) >= sizeof(pbuf)) {
			char w[256];

			snprintf(w, sizeof(w), "%s clat percentile field %d: '%.64s' is not 'P%%=V'; skipped",
				 dname, base + D_CLAT_PCT + i, s);
			json_array_append_new(warnings, json_string(w));
			continue;
		}
		memcpy(pbuf, s, eq - s);
		pbuf[eq - s] = 0;
		if (num(pbuf, &p) || num(eq + 2, &pv))
			continue;
		if (p == 0)	/* "0%=0": padding */
			continue;
		if (fabs(p - 50) < 1e-9)
			key = "clat_p50_ns";
		else if (fabs(p - 99) < 1e-9)
			key = "clat_p99_ns";
		else if (fabs(p - 99.9) < 1e-9)
			key = "clat_p999_ns";
		if (key)
			put(d, dname, key, base + D_CLAT_PCT + i, pv, 1000,
			    warnings);
	}
	pct_monotonic(d, dname, warnings);
	return d;
}

static json_t *disk_record(char **f, int base, int *bad)
{
	static const char *keys[] = { "read_ios", "write_ios", "read_merges",
		"write_merges", "read_ticks", "write_ticks", "in_queue",
		"util_pct" };
	json_t *d = json_object();
	double v;
	int i;

	json_object_set_new(d, "name", json_string(f[base]));
	for (i = 0; i < 8; i++) {
		if (num(f[base + 1 + i], &v)) {
			*bad = base + 1 + i;
			json_decref(d);
			return NULL;
		}
		set_num(d, keys[i], v);
	}
	return d;
}

static void metrics_of(json_t *metrics, const char *dname, const json_t *d)
{
	static const char *keys[] = { "iops", "bw_kib", "clat_mean_ns",
		"clat_p50_ns", "clat_p99_ns", "clat_p999_ns", "lat_mean_ns",
		"slat_mean_ns" };
	char name[64];
	size_t i;

	if (!d)
		return;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(d, keys[i]);

		if (!v)
			continue;
		snprintf(name, sizeof(name), "%s.%s", dname, keys[i]);
		json_object_set(metrics, name, v);
	}
}

/* disk.* metrics (lib/metrics.h): summed over the disk records; when an
 * md/dm device is among them (it has "slaves"), over the md/dm devices
 * only, as their members are listed too and would count twice.
 * disk.util_pct: the first record's utilisation, for an md/dm device its
 * members' aggregate record's (fio's busiest member), as parsers/
 * fio_json.c reads fio's JSON. */
static void disk_metrics(json_t *metrics, const json_t *disks)
{
	static const char *keys[][2] = {
		{ "read_ios", "disk.read_ios" }, { "write_ios", "disk.write_ios" },
		{ "read_merges", "disk.read_merges" },
		{ "write_merges", "disk.write_merges" },
	};
	double sum[4] = { 0 };
	const json_t *d;
	size_t i, k;
	int md = 0, used = 0;

	json_array_foreach(disks, i, d)
		md |= json_object_get(d, "slaves") != NULL;
	json_array_foreach(disks, i, d) {
		if (md && !json_object_get(d, "slaves"))
			continue;
		used++;
		for (k = 0; k < 4; k++)
			sum[k] += json_number_value(json_object_get(d, keys[k][0]));
	}
	d = json_array_get(disks, 0);
	if (d && json_object_get(d, "slaves"))
		d = json_object_get(d, "slaves");
	if (d && json_is_number(json_object_get(d, "util_pct")))
		json_object_set(metrics, "disk.util_pct",
				json_object_get(d, "util_pct"));
	if (!used)
		return;
	for (k = 0; k < 4; k++)
		set_num(metrics, keys[k][1], sum[k]);
	set_num(metrics, "disk.ios", sum[0] + sum[1]);
	set_num(metrics, "disk.merges", sum[2] + sum[3]);
}

json_t *fio_terse_parse_line(const char *line, size_t len, const char *name,
			     int lineno, char *err, size_t errlen)
{
	char **f = NULL, *copy, *p;
	size_t n = 1, i, extra, ndisks, tail;
	json_t *res = NULL, *job, *rd, *wr, *metrics, *disks, *warnings;
	double v, gid, jerr;
	int bad = 0;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	/* fio never writes a NUL byte; strndup() would stop at it, and the
	 * fields counted over len would run past the copy */
	if (memchr(line, '\0', len)) {
		snprintf(err, errlen, "%s: line %d: a NUL byte: not fio terse output (a corrupted or binary file?)",
			 name, lineno);
		return NULL;
	}
	copy = strndup(line, len);
	if (!copy) {
		snprintf(err, errlen, "%s: line %d: out of memory", name, lineno);
		return NULL;
	}
	for (i = 0; i < len; i++)
		n += copy[i] == ';';
	f = calloc(n + 2, sizeof(*f));	/* f[1..n] */
	if (!f) {
		free(copy);
		snprintf(err, errlen, "%s: line %d: out of memory", name, lineno);
		return NULL;
	}
	p = copy;
	for (i = 1; i <= n; i++)
		f[i] = strsep(&p, ";");

	if (strcmp(f[T_VERSION], "3")) {
		snprintf(err, errlen, "%s: line %d: terse version '%.16s' is not supported (only terse v3: fio --terse-version=3)",
			 name, lineno, f[T_VERSION]);
		goto out;
	}
	extra = n >= FIO_TERSE_V3_FIELDS ? n - FIO_TERSE_V3_FIELDS : 0;
	ndisks = extra / DISK_FIELDS;
	tail = extra % DISK_FIELDS;
	if (n < FIO_TERSE_V3_FIELDS || tail > 3) {
		snprintf(err, errlen, "%s: line %d: unexpected terse v3 field count %zu (121 fixed fields, + 9 per disk, + 2 with continue_on_error, + 1 with a description)",
			 name, lineno, n);
		goto out;
	}
	if (num(f[T_GROUPID], &gid) || num(f[T_ERROR], &jerr)) {
		snprintf(err, errlen, "%s: line %d: field %d or %d (groupid, error) is not a number",
			 name, lineno, T_GROUPID, T_ERROR);
		goto out;
	}

	warnings = json_array();
	res = json_object();
	json_object_set_new(res, "file", json_string(name));
	json_object_set_new(res, "line", json_integer(lineno));
	json_object_set_new(res, "format", json_string("terse"));
	json_object_set_new(res, "terse_version", json_integer(3));
	json_object_set_new(res, "fields", json_integer((json_int_t)n));
	json_object_set_new(res, "fio_version", json_string(f[T_FIO_VERSION]));

	job = json_object();
	json_object_set_new(job, "name", json_string(f[T_JOBNAME]));
	set_num(job, "groupid", gid);
	set_num(job, "error", jerr);
	if (!num(f[T_USR_CPU], &v))
		put(job, "job", "usr_cpu_pct", T_USR_CPU, v, 1, warnings);
	if (!num(f[T_SYS_CPU], &v))
		put(job, "job", "sys_cpu_pct", T_SYS_CPU, v, 1, warnings);
	rd = direction(f, T_READ, "read", warnings, &bad);
	wr = bad ? NULL : direction(f, T_WRITE, "write", warnings, &bad);
	if (bad) {
		snprintf(err, errlen, "%s: line %d: the %s block (fields %d-%d) holds a field that is not a number",
			 name, lineno, bad == T_READ ? "read" : "write", bad,
			 bad + 3);
		json_decref(rd);
		json_decref(job);
		json_decref(warnings);
		json_decref(res);
		res = NULL;
		goto out;
	}
	if (rd)
		json_object_set_new(job, "read", rd);
	if (wr)
		json_object_set_new(job, "write", wr);

	metrics = json_object();
	metrics_of(metrics, "read", rd);
	metrics_of(metrics, "write", wr);
	if (json_object_get(job, "usr_cpu_pct"))
		json_object_set(metrics, "fio.usr_cpu_pct",
				json_object_get(job, "usr_cpu_pct"));
	if (json_object_get(job, "sys_cpu_pct"))
		json_object_set(metrics, "fio.sys_cpu_pct",
				json_object_get(job, "sys_cpu_pct"));

	disks = json_array();
	for (i = 0; i < ndisks; i++) {
		int base = FIO_TERSE_V3_FIELDS + 1 + (int)i * DISK_FIELDS;
		json_t *d = disk_record(f, base, &bad);
		json_t *prev = json_array_get(disks, json_array_size(disks) - 1);

		if (!d) {
			snprintf(err, errlen, "%s: line %d: disk record at field %d: field %d ('%.32s') is not a number",
				 name, lineno, base, bad, f[bad]);
			json_decref(disks);
			json_decref(metrics);
			json_decref(job);
			json_decref(warnings);
			json_decref(res);
			res = NULL;
			goto out;
		}
		if (!strcmp(f[base], "slaves")) {
			json_object_del(d, "name");
			if (prev && !json_object_get(prev, "slaves")) {
				json_object_set_new(prev, "slaves", d);
				continue;
			}
			json_array_append_new(warnings, json_string(
				"a 'slaves' disk record follows no md/dm device; kept as a disk named 'slaves'"));
			json_object_set_new(d, "name", json_string("slaves"));
		}
		json_array_append_new(disks, d);
	}
	i = FIO_TERSE_V3_FIELDS + 1 + ndisks * DISK_FIELDS;
	if (tail >= 2) {
		double te, fe;

		if (num(f[i], &te) || num(f[i + 1], &fe))
			json_array_append_new(warnings, json_string(
				"continue_on_error fields (total errors; first error) are not numbers"));
		else {
			set_num(res, "total_errors", te);
			set_num(res, "first_error", fe);
		}
		i += 2;
	}
	if (tail == 1 || tail == 3)
		json_object_set_new(res, "description", json_string(f[i]));

	disk_metrics(metrics, disks);
	json_object_set_new(res, "jobs", json_pack("[o]", job));
	json_object_set_new(res, "metrics", metrics);
	json_object_set_new(res, "disks", disks);
	json_object_set_new(res, "warnings", warnings);
	set_num(res, "error", jerr);
out:
	free(f);
	free(copy);
	return res;
}

/* 1 when [s, s+n) is a terse line: a version number, then ';'. */
static int terse_line(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	return i && i < n && s[i] == ';';
}

/* The length of a UTF-8 byte order mark at buf (an editor's, or a
 * Windows tool's), else 0. */
static size_t bom(const char *buf, size_t len)
{
	return len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0;
}

int fio_terse_detect(const char *buf, size_t len)
{
	size_t i = bom(buf, len);

	/* lines fio (or fio --client) writes before its output ("fio: ...",
	 * "note: ...", "<host> ...") are skipped; a JSON document is not
	 * terse output */
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) : len;

		while (i < e && isspace((unsigned char)buf[i]))
			i++;
		if (i < e && buf[i] == '{')
			return 0;
		if (i + 2 <= e && buf[i] == '3' && buf[i + 1] == ';')
			return 1;
		/* another terse version: "N;fio-" */
		if (i + 6 <= e && isdigit((unsigned char)buf[i]) &&
		    !memcmp(buf + i + 1, ";fio-", 5))
			return 1;
		if (!nl)
			break;
		i = e + 1;
	}
	return 0;
}

/* The warning for line lineno, which is not terse output: skipped. */
static json_t *skipped_line(const char *s, size_t n, int lineno)
{
	char *line = strndup(s, n), *q;
	json_t *w;

	if (!line)
		return json_string("a line that is not terse output skipped");
	q = kb_xstrndup_printable(kb_trim(line), 80);
	w = json_sprintf("line %d is not terse output: skipped: '%s'",
			 lineno, q);
	free(q);
	free(line);
	return w;
}

json_t *fio_terse_parse_buf(const char *buf, size_t len, const char *name,
			    char *err, size_t errlen)
{
	json_t *all = json_array(), *skipped = json_array(), *w, *r = NULL;
	size_t pos = bom(buf, len), k;
	int lineno = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len, j, last;
		int blank = 1;

		lineno++;
		for (j = pos; j < end; j++)
			if (!isspace((unsigned char)buf[j]))
				blank = 0;
		if (blank) {
			pos = end + 1;
			continue;
		}
		if (!terse_line(buf + pos, end - pos)) {
			/* "fio: ..." notes, "<host> ..." lines: as the JSON
			 * parser skips them around a document */
			json_array_append_new(skipped, skipped_line(buf + pos,
				end - pos, lineno));
			pos = end + 1;
			continue;
		}
		/* fio ends every terse line with a newline: a last line
		 * without one whose last field is not a complete
		 * percentage (fields 121 and each disk's utilisation end
		 * in '%') was cut, and its field count may still fit (a
		 * cut disk record read as a description) */
		for (last = end; last > pos && buf[last - 1] == '\r'; last--)
			;
		if (!nl && last > pos && buf[last - 1] != '%') {
			size_t f0 = last;

			while (f0 > pos && buf[f0 - 1] != ';')
				f0--;
			/* the field's bytes only: buf is not NUL-terminated
			 * (make fuzz: a read past its end) */
			snprintf(err, errlen, "%s: line %d: ends without a newline, in a field that is not a complete percentage ('%.*s'): the file looks truncated (fio ends every terse line with a newline; add one if the line is whole)",
				 name, lineno, (int)(last - f0 < 32 ?
						     last - f0 : 32), buf + f0);
			for (j = 0; err[j]; j++)	/* a cut UTF-8 byte */
				if ((unsigned char)err[j] < 0x20)
					err[j] = '?';
			json_decref(all);
			json_decref(skipped);
			return NULL;
		}
		r = fio_terse_parse_line(buf + pos, end - pos, name, lineno,
					 err, errlen);
		if (!r) {
			json_decref(all);
			json_decref(skipped);
			return NULL;
		}
		/* the lines skipped before it: in its warnings, first */
		json_array_foreach(skipped, k, w)
			json_array_insert(json_object_get(r, "warnings"), k, w);
		json_array_clear(skipped);
		json_array_append_new(all, r);
		pos = end + 1;
	}
	if (!json_array_size(all)) {
		snprintf(err, errlen, "%s: no terse line", name);
		json_decref(all);
		json_decref(skipped);
		return NULL;
	}
	/* lines after the last terse line: in its warnings */
	json_array_extend(json_object_get(r, "warnings"), skipped);
	json_decref(skipped);
	return all;
}
