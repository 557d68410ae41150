/* tests/test_fio_terse.c - `kbench parse` on fio terse v3 output
 * (../shared/cases/B11) and on fio's per-job logs (../shared/cases/B13),
 * copied into tests/data/fio (see SOURCES.md), and on examples of the
 * same kinds built here.  Runs the built binary ($KBENCH, else
 * build/kbench); run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/run_kbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"
#include "parsers/fio_log.h"
#include "parsers/fio_terse.h"

#define DATA "tests/data/fio/"

/* ---- helpers ---------------------------------------------------------- */

/* Line lineno (1-based) of out, parsed as JSON (new reference). */
static json_t *json_line(const char *out, int lineno)
{
	const char *p = out, *e;
	json_error_t je;
	json_t *r;

	while (--lineno > 0) {
		p = strchr(p, '\n');
		if (!p)
			fail_msg("output has too few lines:\n%s", out);
		p++;
	}
	e = strchr(p, '\n');
	r = json_loadb(p, e ? (size_t)(e - p) : strlen(p), 0, &je);
	if (!r)
		fail_msg("output line is not JSON (%s):\n%s", je.text, out);
	return r;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static double num(const json_t *o, const char *path)
{
	char buf[256], *p, *save = NULL;
	const json_t *v = o;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save))
		v = json_is_array(v) ? json_array_get(v, atoi(p))
				     : json_object_get(v, p);
	if (!json_is_number(v))
		fail_msg("%s: not a number", path);
	return json_number_value(v);
}

static const char *str(const json_t *o, const char *path)
{
	char buf[256], *p, *save = NULL;
	const json_t *v = o;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save))
		v = json_is_array(v) ? json_array_get(v, atoi(p))
				     : json_object_get(v, p);
	if (!json_is_string(v))
		fail_msg("%s: not a string", path);
	return json_string_value(v);
}

static const json_t *metrics(const json_t *r)
{
	return json_object_get(r, "metrics");
}

static void check_num(const json_t *o, const char *path, double want)
{
	double got = num(o, path);

	if (fabs(got - want) > 1e-6 * fmax(1, fabs(want)))
		fail_msg("%s = %.9g, want %.9g", path, got, want);
}

/* Write text to a new file in dir named name; its path (static). */
static const char *write_file(const char *dir, const char *name,
			      const char *text)
{
	static char path[4][512];
	static int k;
	char *p = path[k++ % 4];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return p;
}

/* The first 121 fields of B11's first line (no newline), malloc'd. */
static char *b11_fixed_fields(void)
{
	char *buf = NULL, *nl;

	assert_int_equal(kb_read_file(DATA "B11.terse", &buf, NULL, 0), 0);
	nl = strchr(buf, '\n');
	assert_non_null(nl);
	*nl = 0;
	return buf;
}

/* ---- B11: terse v3 ---------------------------------------------------- */

/* B11.expected: line 1 has 121 fields (no disk section) and must not be
 * rejected; line 2 has 139 (2 disk records) whose fields must not be read
 * as job fields; every value of the .expected file. */
static void test_B11_terse_v3_fields_and_disks(void **state)
{
	char *args[] = { "parse", DATA "B11.terse", NULL };
	char *out = NULL, *err = NULL;
	json_t *r;

	(void)state;
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse B11.terse failed:\n%s", err);
	assert_int_equal(count_lines(out), 2);	/* one result per line */

	r = json_line(out, 1);
	assert_string_equal(str(r, "format"), "terse");
	check_num(r, "fields", 121);
	check_num(r, "line", 1);
	assert_string_equal(str(r, "jobs/0/name"), "rr4k-tmpfs");
	check_num(metrics(r), "read.iops", 88746);
	check_num(metrics(r), "read.bw_kib", 354984);
	check_num(metrics(r), "read.clat_p99_ns", 562000);	/* 562 us */
	assert_null(json_object_get(metrics(r), "write.iops"));
	assert_int_equal(json_array_size(json_object_get(r, "disks")), 0);
	assert_int_equal(json_array_size(json_object_get(r, "warnings")), 0);
	json_decref(r);

	r = json_line(out, 2);
	check_num(r, "fields", 139);
	assert_string_equal(str(r, "jobs/0/name"), "rr4k-2dev");
	check_num(metrics(r), "read.iops", 109223);
	check_num(metrics(r), "read.bw_kib", 436892);
	check_num(metrics(r), "read.clat_p99_ns", 478000);	/* 478 us */
	assert_int_equal(json_array_size(json_object_get(r, "disks")), 2);
	assert_string_equal(str(r, "disks/0/name"), "nvme0n1");
	check_num(r, "disks/0/util_pct", 97.53);
	check_num(r, "disks/0/read_ios", 3276210);
	assert_string_equal(str(r, "disks/1/name"), "nvme1n1");
	check_num(r, "disks/1/util_pct", 97.41);
	check_num(r, "disks/1/read_ios", 3276190);
	check_num(metrics(r), "disk.read_ios", 3276210 + 3276190);
	check_num(metrics(r), "disk.write_ios", 0);
	/* utilisation: the first device's, as from fio's JSON */
	check_num(metrics(r), "disk.util_pct", 97.53);
	assert_null(json_object_get(r, "description"));
	assert_null(json_object_get(r, "total_errors"));
	json_decref(r);
	free(out);
	free(err);

	/* a real fio-2.1.2 terse v3 file (12 jobs, one disk each) */
	args[1] = DATA "jtulak-2.1.2-terse3-12jobs.terse";
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse jtulak failed:\n%s", err);
	assert_int_equal(count_lines(out), 12);
	r = json_line(out, 1);
	check_num(r, "fields", 130);
	assert_string_equal(str(r, "jobs/0/name"), "test-multi-file-io-4");
	check_num(metrics(r), "read.iops", 651);
	check_num(metrics(r), "read.bw_kib", 5208);
	check_num(metrics(r), "read.clat_p99_ns", 74240000);
	assert_int_equal(json_array_size(json_object_get(r, "disks")), 1);
	json_decref(r);
	free(out);
	free(err);
}

/* The same kind, built here: continue_on_error and description fields
 * after an md device whose members' aggregate ('slaves') follows it,
 * a job that wrote, and wrong field counts -> the error naming the line. */
static void test_B11_kind_coe_description_md_and_bad_count(void **state)
{
	char dir[] = "/tmp/kbench-test-terse.XXXXXX";
	char *fixed = b11_fixed_fields(), *text, *out = NULL, *err = NULL;
	const char *path;
	char *args[] = { "parse", NULL, NULL };
	json_t *r;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	len = 2 * strlen(fixed) + 512;
	text = malloc(len);
	assert_non_null(text);
	snprintf(text, len, "%s;md0;100;200;0;0;10;20;30;50.00%%;"
		 "slaves;90;190;1;2;11;21;31;99.50%%;"
		 "sda;45;95;0;1;5;10;15;98.00%%;3;5;nightly run\n", fixed);
	path = write_file(dir, "coe.terse", text);
	args[1] = (char *)path;
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse failed:\n%s", err);
	r = json_line(out, 1);
	check_num(r, "fields", 121 + 27 + 3);
	check_num(metrics(r), "read.iops", 88746);
	assert_int_equal(json_array_size(json_object_get(r, "disks")), 2);
	assert_string_equal(str(r, "disks/0/name"), "md0");
	check_num(r, "disks/0/util_pct", 50);
	check_num(r, "disks/0/slaves/read_ios", 90);
	check_num(r, "disks/0/slaves/util_pct", 99.5);
	assert_string_equal(str(r, "disks/1/name"), "sda");
	check_num(r, "disks/1/read_ios", 45);
	check_num(metrics(r), "disk.read_ios", 100);	/* md0 only */
	/* md0's own 50% is not its members' busy time: their aggregate */
	check_num(metrics(r), "disk.util_pct", 99.5);
	check_num(metrics(r), "disk.ios", 300);
	check_num(r, "total_errors", 3);
	check_num(r, "first_error", 5);
	assert_string_equal(str(r, "description"), "nightly run");
	json_decref(r);
	free(out);
	free(err);

	/* continue_on_error only (+2), description only (+1) */
	snprintf(text, len, "%s;0;0\n%s;just a note\n", fixed, fixed);
	args[1] = (char *)write_file(dir, "two.terse", text);
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse failed:\n%s", err);
	assert_int_equal(count_lines(out), 2);
	r = json_line(out, 1);
	check_num(r, "total_errors", 0);
	assert_null(json_object_get(r, "description"));
	json_decref(r);
	r = json_line(out, 2);
	assert_string_equal(str(r, "description"), "just a note");
	assert_null(json_object_get(r, "total_errors"));
	json_decref(r);
	free(out);
	free(err);

	/* 121 + 4 fields: neither disks nor the optional fields; line 2 */
	snprintf(text, len, "%s\n%s;a;b;c;d\n", fixed, fixed);
	path = write_file(dir, "bad.terse", text);
	args[1] = (char *)path;
	assert_int_equal(run_kbench(args, &out, &err), 1);
	if (!strstr(err, "line 2: unexpected terse v3 field count 125"))
		fail_msg("stderr lacks the field count error:\n%s", err);
	assert_non_null(strstr(err, "bad.terse"));
	free(out);
	free(err);

	/* fewer than 121 fields */
	{
		char *semi = strrchr(fixed, ';');
		char msg[1024];

		*semi = 0;
		assert_null(fio_terse_parse_line(fixed, strlen(fixed), "x", 7,
						 msg, sizeof(msg)));
		assert_non_null(strstr(msg, "x: line 7: unexpected terse v3 field count 120"));
	}
	/* a write job: the write block (fields 47-87) */
	{
		char *line = b11_fixed_fields(), *f[128], *p, msg[1024];
		char rebuilt[4096] = "";
		int i = 1;

		for (p = strtok(line, ";"); p && i < 128; p = strtok(NULL, ";"))
			f[i++] = p;
		assert_int_equal(i - 1, 121);
		f[6] = "0"; f[7] = "0"; f[8] = "0";
		f[47] = "4000"; f[48] = "1000"; f[49] = "250"; f[50] = "4000";
		f[65] = "50.000000%=400";
		f[71] = "99.000000%=900";
		f[73] = "99.900000%=1200";	/* monotonic, as fio's */
		for (i = 1; i <= 121; i++) {
			strcat(rebuilt, f[i]);
			if (i < 121)
				strcat(rebuilt, ";");
		}
		r = fio_terse_parse_line(rebuilt, strlen(rebuilt), "w", 1, msg,
					 sizeof(msg));
		if (!r)
			fail_msg("%s", msg);
		check_num(metrics(r), "write.iops", 250);
		check_num(metrics(r), "write.bw_kib", 1000);
		check_num(metrics(r), "write.clat_p99_ns", 900000);
		assert_null(json_object_get(metrics(r), "read.iops"));
		json_decref(r);
		free(line);
	}
	unlink(write_file(dir, "coe.terse", ""));
	unlink(write_file(dir, "two.terse", ""));
	unlink(write_file(dir, "bad.terse", ""));
	rmdir(dir);
	free(text);
	free(fixed);
}

/* Found by fuzz/fuzz_fio_terse.c: a terse v3 line with a NUL byte among
 * its fields.  The copy of the line stopped at the NUL while its ';' were
 * counted over the whole length: a read past the copy (ASan).  Now the
 * line is refused, with its number. */
static void test_terse_line_with_nul_byte_refused(void **state)
{
	char *fixed = b11_fixed_fields(), *text, err[256] = "";
	size_t flen = strlen(fixed), len = 2 * flen + 2;
	json_t *r;

	(void)state;
	text = malloc(len);
	assert_non_null(text);
	/* line 1: fine; line 2: the same with its 40th byte a NUL */
	memcpy(text, fixed, flen);
	text[flen] = '\n';
	memcpy(text + flen + 1, fixed, flen);
	text[flen + 1 + 40] = '\0';
	text[len - 1] = '\n';
	r = fio_terse_parse_buf(text, len, "nul.terse", err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "nul.terse: line 2: a NUL byte"));
	/* the line alone, as fio_terse_parse_line() takes it */
	r = fio_terse_parse_line(text + flen + 1, flen, "nul.terse", 7, err,
				 sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "line 7: a NUL byte"));
	free(text);
	free(fixed);
}

/* Values fio cannot mean (negative, a wrapped counter, 1e308), as the
 * JSON parser treats them: each named with its field in a warning and
 * left out, the line's other numbers kept (a break-it trial: they passed
 * silently, an infinite clat mean became a missing key). */
static void test_terse_impossible_values(void **state)
{
	char *fixed = b11_fixed_fields(), *line = NULL, *f[130], *p, *q;
	char *args[] = { "parse", NULL, NULL };
	char *out = NULL, *err = NULL;
	char dir[] = "/tmp/kbench-test-terse.XXXXXX";
	size_t n = 0, len = 0, i;
	FILE *m;
	json_t *r, *w;
	int k;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (p = fixed; (q = strsep(&p, ";")) && n < 130; )
		f[++n - 1] = q;
	assert_int_equal(n, 121);
	m = open_memstream(&line, &len);
	assert_non_null(m);
	for (i = 0; i < n; i++) {
		const char *v = f[i];

		if (i + 1 == 8)		/* read iops */
			v = "-5";
		else if (i + 1 == 7)	/* read bw (KiB/s) */
			v = "1e308";
		else if (i + 1 == 16)	/* read clat mean (usec) */
			v = "18446744073709551615";
		else if (!strncmp(v, "99.000000%=", 11))
			v = "99.000000%=-1";
		else if (i + 1 == 88)	/* usr_cpu */
			v = "-5.000000%";
		fprintf(m, "%s%s", i ? ";" : "", v);
	}
	fputc('\n', m);
	assert_int_equal(fclose(m), 0);
	args[1] = (char *)write_file(dir, "bad.terse", line);
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse bad.terse failed:\n%s", err);
	r = json_line(out, 1);
	assert_null(json_object_get(metrics(r), "read.iops"));
	assert_null(json_object_get(metrics(r), "read.bw_kib"));
	assert_null(json_object_get(metrics(r), "read.clat_mean_ns"));
	assert_null(json_object_get(metrics(r), "read.clat_p99_ns"));
	assert_true(num(metrics(r), "read.clat_p50_ns") > 0);
	assert_null(json_object_get(metrics(r), "fio.usr_cpu_pct"));
	assert_true(num(metrics(r), "fio.sys_cpu_pct") >= 0);
	w = json_object_get(r, "warnings");
	assert_int_equal(json_array_size(w), 5);
	for (k = 0; k < 5; k++)
		assert_non_null(strstr(json_string_value(json_array_get(w, k)),
				       "is impossible (negative or a wrapped counter): dropped"));
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)),
			       "job.usr_cpu_pct (field 88) = -5 is impossible"));
	assert_non_null(strstr(json_string_value(json_array_get(w, 1)),
			       "read.iops (field 8) = -5 is impossible"));
	assert_non_null(strstr(err, "read.bw_kib (field 7) = 1e+308 is impossible"));
	json_decref(r);

	/* p50 above p99 (a break-it trial: kept, where the JSON parser
	 * drops them), and a number in hex, which fio never prints */
	{
		char *l2 = NULL, msg[512];
		size_t l2len = 0;
		FILE *m2 = open_memstream(&l2, &l2len);

		assert_non_null(m2);
		for (i = 0; i < n; i++)
			fprintf(m2, "%s%s", i ? ";" : "",
				i + 1 == 24 ? "50.000000%=999999" : f[i]);
		assert_int_equal(fclose(m2), 0);
		r = fio_terse_parse_line(l2, strlen(l2), "p.terse", 1, msg,
					 sizeof(msg));
		assert_non_null(r);
		assert_null(json_object_get(metrics(r), "read.clat_p50_ns"));
		assert_null(json_object_get(metrics(r), "read.clat_p99_ns"));
		assert_non_null(strstr(json_string_value(json_array_get(
			json_object_get(r, "warnings"), 0)),
			"read clat percentiles are not monotonic (clat_p50_ns = "));
		json_decref(r);
		free(l2);
		l2 = NULL;
		m2 = open_memstream(&l2, &l2len);
		assert_non_null(m2);
		for (i = 0; i < n; i++)
			fprintf(m2, "%s%s", i ? ";" : "",
				i + 1 == 8 ? "0x10" : f[i]);
		assert_int_equal(fclose(m2), 0);
		assert_null(fio_terse_parse_line(l2, strlen(l2), "h.terse", 1,
						 msg, sizeof(msg)));
		assert_non_null(strstr(msg, "holds a field that is not a number"));
		free(l2);
	}
	unlink(args[1]);
	rmdir(dir);
	free(out);
	free(err);
	free(line);
	free(fixed);
}

/* fio --output-format=terse,json writes the terse lines, then the JSON
 * document: kbench parse reads the document, which says more, as it
 * reads it alone, and says in one warning that the terse lines were not
 * read (a new user's trial: "line 2: terse version '{' is not
 * supported"). */
static void test_terse_then_json(void **state)
{
	char *fixed = b11_fixed_fields(), *json = NULL, *text;
	char *args[] = { "parse", "--compact", NULL, NULL };
	char *out = NULL, *err = NULL, *out1 = NULL, *err1 = NULL;
	char dir[] = "/tmp/kbench-test-terse.XXXXXX";
	json_t *r, *r1;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(kb_read_file(DATA "B05.json", &json, NULL, 0), 0);
	text = kb_xasprintf("%s\n%s\n%s", fixed, fixed, json);
	args[2] = (char *)write_file(dir, "both.out", text);
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse of terse,json output failed:\n%s", err);
	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(err, "2 lines from line 1 to 2 are fio terse output (--output-format=terse,json?): not read; the JSON document after them is"));
	assert_null(strstr(err, "preamble line"));
	args[2] = DATA "B05.json";
	assert_int_equal(run_kbench(args, &out1, &err1), 0);
	r = json_line(out, 1);
	r1 = json_line(out1, 1);
	assert_true(json_equal(json_object_get(r, "metrics"),
			       json_object_get(r1, "metrics")));
	json_decref(r);
	json_decref(r1);
	unlink(write_file(dir, "both.out", ""));
	rmdir(dir);
	free(out);
	free(err);
	free(out1);
	free(err1);
	free(text);
	free(json);
	free(fixed);
}

/* A terse line cut without its newline, given to fio_terse_parse_buf()
 * as bytes that are not NUL-terminated (its contract: buf, len): the
 * error quotes the cut field from those bytes only (it read up to 32
 * bytes past the end: a heap-buffer-overflow under make fuzz, on the
 * corpus's own seed of a cut file). */
static void test_terse_cut_unterminated(void **state)
{
	char *plain = NULL, *copy, err[512];
	size_t len = 0, cut;
	json_t *r;

	(void)state;
	assert_int_equal(kb_read_file(DATA "jtulak-2.1.2-terse3-12jobs.terse",
				      &plain, &len, 0), 0);
	cut = (size_t)(strchr(plain, '\n') - plain) - 20;
	copy = kb_xmalloc(cut);		/* exactly the bytes: no NUL */
	memcpy(copy, plain, cut);
	r = fio_terse_parse_buf(copy, cut, "cut.terse", err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "cut.terse: line 1: ends without a "
				    "newline"));
	free(copy);
	free(plain);
}

/* What the field does to a terse file (a break-it trial on the corpus's
 * jtulak-2.1.2-terse3-12jobs.terse): a UTF-8 byte order mark, CRLF line
 * ends, fio's notes and fio --client's "<host>" lines before and after
 * the terse lines were refused ("terse version 'fio: file hash n' is
 * not supported", or the JSON parser's "kbench parse reads terse version
 * 3"): now skipped with a warning naming each line, the jobs and metrics
 * those of the plain file.  A file cut in its last line was read with a
 * cut number (a disk's utilisation 99.1 for 99.17%) or a cut disk record
 * taken for a description ('vd'), exit 0: now refused, naming the line. */
static void test_terse_field_damage(void **state)
{
	static const size_t cuts[] = { 9520, 11900, 13090 };
	char *plain = NULL, *text, *crlf, *p;
	char *args[] = { "parse", "--compact", NULL, NULL };
	char *out = NULL, *err = NULL, *out1 = NULL, *err1 = NULL;
	char dir[] = "/tmp/kbench-test-terse.XXXXXX";
	size_t len = 0, i, k = 0;
	json_t *a, *b;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(kb_read_file(DATA "jtulak-2.1.2-terse3-12jobs.terse",
				      &plain, &len, 0), 0);
	crlf = kb_xmalloc(2 * len + 1);
	for (p = plain; *p; p++) {
		if (*p == '\n')
			crlf[k++] = '\r';
		crlf[k++] = *p;
	}
	crlf[k] = '\0';
	text = kb_xasprintf("\xef\xbb\xbf" "fio: this platform does not support process shared mutexes, forcing use of threads\r\n"
			    "<host1> fio: file hash not empty on exit\r\n%s"
			    "fio: file hash not empty on exit\r\n", crlf);
	args[2] = (char *)write_file(dir, "mixed.terse", text);
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse of a terse file with notes failed:\n%s",
			 err);
	args[2] = DATA "jtulak-2.1.2-terse3-12jobs.terse";
	assert_int_equal(run_kbench(args, &out1, &err1), 0);
	assert_int_equal(count_lines(out), 12);
	assert_int_equal(count_lines(out1), 12);
	for (i = 1; i <= 12; i++) {
		a = json_line(out, (int)i);
		b = json_line(out1, (int)i);
		assert_true(json_equal(json_object_get(a, "metrics"),
				       json_object_get(b, "metrics")));
		assert_true(json_equal(json_object_get(a, "jobs"),
				       json_object_get(b, "jobs")));
		assert_true(json_equal(json_object_get(a, "disks"),
				       json_object_get(b, "disks")));
		assert_int_equal(json_integer_value(json_object_get(a, "line")),
				 json_integer_value(json_object_get(b, "line")) + 2);
		json_decref(a);
		json_decref(b);
	}
	assert_non_null(strstr(err, "line 1 is not terse output: skipped: 'fio: this platform does not support"));
	assert_non_null(strstr(err, "line 2 is not terse output: skipped: '<host1> fio: file hash not empty on exit'"));
	assert_non_null(strstr(err, "line 15 is not terse output: skipped: 'fio: file hash not empty on exit'"));
	free(out);
	free(err);

	/* cut inside its last line: refused, naming it */
	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		plain[cuts[i]] = '\0';
		args[2] = (char *)write_file(dir, "cut.terse", plain);
		assert_int_equal(run_kbench(args, &out, &err), 1);
		assert_non_null(strstr(err, "cut.terse: line "));
		assert_non_null(strstr(err, "ends without a newline, in a field that is not a complete percentage"));
		assert_non_null(strstr(err, "the file looks truncated"));
		free(out);
		free(err);
	}
	/* a whole last line without its newline is read */
	p = strrchr(crlf, '\r');
	*p = '\0';
	args[2] = (char *)write_file(dir, "nonl.terse", crlf);
	assert_int_equal(run_kbench(args, &out, &err), 0);
	assert_int_equal(count_lines(out), 12);
	unlink(write_file(dir, "mixed.terse", ""));
	unlink(write_file(dir, "cut.terse", ""));
	unlink(write_file(dir, "nonl.terse", ""));
	rmdir(dir);
	free(out);
	free(err);
	free(out1);
	free(err1);
	free(text);
	free(crlf);
	free(plain);
}

/* ---- B13: per-job logs ------------------------------------------------- */

/* B13.expected: the two jobs' IOPS logs summed per window, windows
 * aligned by round(time_ms / 1000) (1000 and 1003 ms are one window);
 * neither job 1 alone (5006.33) nor the mean of the 6 rows (4998.67). */
static void test_B13_iops_logs_summed_per_window(void **state)
{
	char *args[] = { "parse", "--logs", "--compact", DATA "B13.log", NULL };
	char *auto_args[] = { "parse", DATA "B13.log", NULL };
	char *out = NULL, *err = NULL;
	json_t *r;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		if (run_kbench(pass ? auto_args : args, &out, &err) != 0)
			fail_msg("kbench parse B13.log failed:\n%s", err);
		assert_null(strstr(out, "5006.33"));
		assert_null(strstr(out, "4998.67"));
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		assert_string_equal(str(r, "kind"), "iops");
		assert_int_equal(json_array_size(json_object_get(r, "files")), 2);
		assert_string_equal(str(r, "files/0"), "bench_iops.1.log");
		assert_int_equal(json_array_size(json_object_get(r, "windows")), 3);
		check_num(r, "windows/0/window", 1);
		check_num(r, "windows/0/total", 10002);
		check_num(r, "windows/1/total", 9992);
		check_num(r, "windows/2/total", 9998);
		check_num(r, "windows/0/files", 2);
		assert_true(fabs(num(r, "mean") - 9997.33) < 0.005);
		assert_non_null(strstr(out, "9997.33"));
		assert_int_equal(json_array_size(json_object_get(r, "warnings")), 0);
		json_decref(r);
		free(out);
		free(err);
	}
}

/* The same kind, built here: 3 jobs' logs as separate files (found by
 * their names), one lacking window 2: that window's total uses the files
 * present, with a warning; a line that is no sample -> an error. */
/* A job's log with no sample among the logs summed (an empty file, fio
 * killed before it wrote; or a "==> NAME <==" header with nothing after
 * it in `tail -n +1` output): the totals were those of the other jobs,
 * with the file left out of "files" and no word of it, exit 0 (B13's
 * logs with job 2's emptied: 5012 IOPS read as the group's; a break-it
 * trial).  Now a warning names it. */
static void test_B13_kind_empty_log(void **state)
{
	char dir[] = "/tmp/kbench-test-log.XXXXXX";
	char *args[] = { "parse", "--compact", NULL, NULL, NULL };
	char *out = NULL, *err = NULL, *b13 = NULL, *hdr2, *text;
	json_t *r;
	int pass;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(kb_read_file(DATA "B13.log", &b13, NULL, 0), 0);
	hdr2 = strstr(b13, "==> bench_iops.2.log <==");
	assert_non_null(hdr2);
	for (pass = 0; pass < 3; pass++) {
		if (pass == 0) {	/* two files, the second empty */
			*hdr2 = '\0';
			args[2] = (char *)write_file(dir, "bench_iops.1.log",
						     strchr(b13, '\n') + 1);
			args[3] = (char *)write_file(dir, "bench_iops.2.log", "");
		} else {	/* tail -n +1: a header with nothing after */
			text = kb_xasprintf("%s%s==> bench_iops.2.log <==\n",
					    pass == 2 ? "\n" : "", b13);
			args[2] = (char *)write_file(dir, "tail.log", text);
			args[3] = NULL;
			free(text);
		}
		if (run_kbench(args, &out, &err) != 0)
			fail_msg("kbench parse of logs, one empty:\n%s", err);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		assert_int_equal(json_array_size(json_object_get(r, "files")), 1);
		check_num(r, "windows/0/total", 5012);
		assert_non_null(strstr(err, "no sample in "));
		assert_non_null(strstr(err, "bench_iops.2.log (a job that did no I/O, or a log fio did not write): left out of the totals"));
		json_decref(r);
		free(out);
		free(err);
	}
	unlink(write_file(dir, "bench_iops.1.log", ""));
	unlink(write_file(dir, "bench_iops.2.log", ""));
	unlink(write_file(dir, "tail.log", ""));
	rmdir(dir);
	free(b13);
}

static void test_B13_kind_three_jobs_missing_window(void **state)
{
	char dir[] = "/tmp/kbench-test-log.XXXXXX";
	char p1[600], p2[600], p3[600], msg[700];
	char *args[] = { "parse", p1, p2, p3, NULL };
	char *out = NULL, *err = NULL;
	json_t *r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
		 "1000, 100, 0, 4096, 0\n2000, 110, 0, 4096, 0\n3000, 120, 0, 4096, 0\n"));
	snprintf(p2, sizeof(p2), "%s", write_file(dir, "job_iops.2.log",
		 "1001, 200, 0, 4096, 0\n2002, 210, 0, 4096, 0\n2999, 220, 0, 4096, 0\n"));
	snprintf(p3, sizeof(p3), "%s", write_file(dir, "job_iops.3.log",
		 "998, 300, 0, 4096, 0\n3004, 320, 0, 4096, 0\n"));
	if (run_kbench(args, &out, &err) != 0)
		fail_msg("kbench parse failed:\n%s", err);
	r = json_loads(out, 0, NULL);
	assert_non_null(r);
	assert_int_equal(json_array_size(json_object_get(r, "files")), 3);
	check_num(r, "windows/0/total", 600);
	check_num(r, "windows/1/total", 320);
	check_num(r, "windows/1/files", 2);
	check_num(r, "windows/2/total", 660);
	check_num(r, "mean", 1580.0 / 3);
	assert_int_equal(json_array_size(json_object_get(r, "warnings")), 1);
	snprintf(msg, sizeof(msg), "window 2 (2000 ms): no sample in %s; total from 2 of 3 files", p3);
	assert_string_equal(str(r, "warnings/0"), msg);
	if (!strstr(err, msg))
		fail_msg("stderr lacks '%s':\n%s", msg, err);
	json_decref(r);
	free(out);
	free(err);

	/* --log-avg-msec 500: 1000 ms is window 2 */
	{
		char *a2[] = { "parse", "--log-avg-msec", "500", p1, NULL };

		assert_int_equal(run_kbench(a2, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "windows/0/window", 2);
		check_num(r, "windows/0/time_ms", 1000);
		json_decref(r);
		free(out);
		free(err);
	}
	/* a file missing many windows: the first 5 said one by one, the
	 * rest counted (a day's log printed a line per window), each
	 * window still totalled from the files that have it */
	{
		char *a8[] = { "parse", "--logs", p1, p2, NULL };
		char *t1 = NULL, *t2 = NULL, line[64];
		size_t len1 = 0, len2 = 0;
		FILE *f1 = open_memstream(&t1, &len1);
		FILE *f2 = open_memstream(&t2, &len2);
		int w;

		assert_non_null(f1);
		assert_non_null(f2);
		for (w = 1; w <= 40; w++) {
			fprintf(f1, "%d, 100, 0, 4096, 0\n", w * 1000);
			if (w % 4)	/* 10 windows missing */
				fprintf(f2, "%d, 50, 0, 4096, 0\n", w * 1000 + 2);
		}
		fclose(f1);
		fclose(f2);
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log", t1));
		snprintf(p2, sizeof(p2), "%s", write_file(dir, "job_iops.2.log", t2));
		free(t1);
		free(t2);
		if (run_kbench(a8, &out, &err) != 0)
			fail_msg("kbench parse failed:\n%s", err);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "windows/3/total", 100);
		check_num(r, "windows/3/files", 1);
		check_num(r, "windows/4/total", 150);
		check_num(r, "mean", (40 * 100 + 30 * 50) / 40.0);
		assert_int_equal(json_array_size(json_object_get(r, "warnings")), 6);
		snprintf(msg, sizeof(msg), "window 20 (20000 ms): no sample in %s; total from 1 of 2 files", p2);
		assert_string_equal(str(r, "warnings/4"), msg);
		snprintf(msg, sizeof(msg), "5 more windows without a sample in %s (10 in all), each totalled from the other files", p2);
		assert_string_equal(str(r, "warnings/5"), msg);
		snprintf(line, sizeof(line), "window 24 (24000 ms)");
		assert_null(strstr(err, line));
		json_decref(r);
		free(out);
		free(err);
	}
	/* a log of every I/O whose span is more than a million windows
	 * (one line 2,000 s after the others, read per 2 ms): refused,
	 * not 1e6 windows of 0 (2 GiB under ASan; fuzz_fio_log) */
	{
		char *a9[] = { "parse", "--logs", "--log-avg-msec", "2", p1,
			       NULL };
		char text[4096];
		size_t o = 0;
		int l;

		for (l = 1; l <= 50; l++)
			o += (size_t)snprintf(text + o, sizeof(text) - o,
					      "%d, 1, 0, 4096, 0\n", l);
		snprintf(text + o, sizeof(text) - o, "2000051, 1, 0, 4096, 0\n");
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log", text));
		assert_int_equal(run_kbench(a9, &out, &err), 1);
		if (!strstr(err, "job_iops.1.log: a log of every I/O (values of 1) from 0 to 2000051 ms: more than 1000000 windows of 2 ms; give a wider window (--log-avg-msec)"))
			fail_msg("stderr: %s", err);
		free(out);
		free(err);
		/* per 40 ms, 50,000 windows: read, the empty ones 0 */
		text[o] = '\0';
		snprintf(text + o, sizeof(text) - o, "2000000, 1, 0, 4096, 0\n");
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log", text));
		a9[3] = "40";
		assert_int_equal(run_kbench(a9, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "windows/0/total", 39 * 1000 / 40.0);
		check_num(r, "windows/1/total", 11 * 1000 / 40.0);
		check_num(r, "windows/2/total", 0);
		json_decref(r);
		free(out);
		free(err);
	}
	/* not a log sample */
	{
		char *a3[] = { "parse", "--logs", p1, p2, NULL };

		snprintf(p2, sizeof(p2), "%s", write_file(dir, "job_iops.2.log",
			 "1001, 200, 0, 4096, 0\nhello\n"));
		assert_int_equal(run_kbench(a3, &out, &err), 1);
		if (!strstr(err, "job_iops.2.log: line 2: not a fio log sample"))
			fail_msg("stderr: %s", err);
		free(out);
		free(err);
	}
	/* numbers no window can take: a clear error, not a window at
	 * -9.2e18 ms (signed overflow), a negative or NaN total, nor a
	 * 1e400 taken for a cut-off line */
	{
		static const char *const bad[] = {
			"-9223372036854775808, 5, 0, 4096, 0\n",
			"2000, -7, 0, 4096, 0\n", "3000, nan, 0, 4096, 0\n",
			"4000, 1e400, 0, 4096, 0\n" };
		char *a7[] = { "parse", "--logs", p1, NULL };
		size_t b;

		for (b = 0; b < sizeof(bad) / sizeof(*bad); b++) {
			char *text = kb_xasprintf("1000, 100, 0, 4096, 0\n%s",
						  bad[b]);

			snprintf(p1, sizeof(p1), "%s", write_file(dir,
				 "job_iops.1.log", text));
			assert_int_equal(run_kbench(a7, &out, &err), 1);
			if (!strstr(err, "job_iops.1.log: line 2: a time or value "
				    "out of range"))
				fail_msg("%s: stderr: %s", bad[b], err);
			free(text);
			free(out);
			free(err);
		}
	}
	/* the last line cut off (fio killed mid-write): said and ignored,
	 * not a sample of 14 that halves the mean */
	{
		char *a4[] = { "parse", "--logs", p1, NULL };

		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "1000, 100, 0, 4096, 0\n2000, 110, 0, 4096, 0\n2401, 14"));
		assert_int_equal(run_kbench(a4, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		assert_int_equal(json_array_size(json_object_get(r, "windows")), 2);
		check_num(r, "mean", 105);
		if (!strstr(err, "job_iops.1.log: line 3: cut off (2 of 5 columns): '2401, 14' ignored") ||
		    strstr(err, "log: /"))	/* the file named once */
			fail_msg("stderr: %s", err);
		json_decref(r);
		free(out);
		free(err);
		/* cut before its value; and in `tail -n +1` output, where a
		 * header follows the cut line */
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "==> a_iops.1.log <==\n1000, 100, 0, 4096, 0\n2000, 110, 0, 4096, 0\n2401, 14\n"
			 "==> a_iops.2.log <==\n1000, 10, 0, 4096, 0\n2000, 10, 0, 4096, 0\n2401"));
		assert_int_equal(run_kbench(a4, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "mean", 115);
		if (!strstr(err, "line 4: cut off (2 of 5 columns): '2401, 14' ignored"))
			fail_msg("stderr: %s", err);
		json_decref(r);
		free(out);
		free(err);
	}
	/* samples every 200 ms read with 1000-ms windows: refused (five
	 * rates would be added into one), naming the line and the spacing;
	 * fio's partial window at the job's end is no such case */
	{
		char *a5[] = { "parse", "--logs", p1, NULL };
		char *a6[] = { "parse", "--logs", "--log-avg-msec", "200", p1, NULL };

		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "200, 100, 0, 4096, 0\n200, 50, 1, 4096, 0\n"
			 "400, 110, 0, 4096, 0\n600, 90, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a5, &out, &err), 1);
		if (!strstr(err, "job_iops.1.log: line 3: a sample at 400 ms, "
			    "200 ms after the one before it of its direction, "
			    "closer than the window of 1000 ms") ||
		    !strstr(err, "give --log-avg-msec the log_avg_msec fio "
			    "ran with (these samples are about 200 ms apart)"))
			fail_msg("stderr: %s", err);
		free(out);
		free(err);
		/* with the log's own interval: reads and writes of a window
		 * summed, each window once, nothing said */
		assert_int_equal(run_kbench(a6, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "windows/0/total", 150);
		check_num(r, "windows/1/total", 110);
		assert_int_equal(json_array_size(json_object_get(r,
					"warnings")), 0);
		json_decref(r);
		free(out);
		free(err);
		/* a 1000-ms log with fio's last, partial sample 3 ms after
		 * the last full one: taken, nothing said */
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "1000, 100, 0, 4096, 0\n2000, 110, 0, 4096, 0\n"
			 "2003, 20, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a5, &out, &err), 0);
		assert_string_equal(err, "");
		free(out);
		free(err);
		/* a helper's trial: a 250-ms log of 3 samples read with the
		 * default window; the crowded window is at the last line,
		 * the spacing before it tells (it was 10.97M "IOPS") */
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "254, 1000, 0, 4096, 0\n505, 1000, 0, 4096, 0\n"
			 "755, 1000, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a5, &out, &err), 1);
		if (!strstr(err, "job_iops.1.log: line 2: a sample at 505 ms, "
			    "251 ms after"))
			fail_msg("stderr: %s", err);
		free(out);
		free(err);
		/* a bandwidth log so: its own hint */
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_bw.1.log",
			 "10, 4000, 0, 4096, 0\n20, 4100, 0, 4096, 0\n"
			 "30, 3900, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a5, &out, &err), 1);
		if (!strstr(err, "job_bw.1.log: line 2:") ||
		    !strstr(err, "a bandwidth log of every I/O"))
			fail_msg("stderr: %s", err);
		free(out);
		free(err);
		unlink(p1);
		snprintf(p1, sizeof(p1), "%s/job_iops.1.log", dir);
	}
	/* logs of every I/O (fio without log_avg_msec): an IOPS log's
	 * lines of value 1 are counted per window [(k-1)W, kW) of their
	 * times and made a rate (count x 1000 / window ms); a latency log's
	 * window is the mean of its I/Os, not their sum; the last window,
	 * which ends with the job (a 1-s fio job's last I/O at 1008 ms made
	 * "1 IOPS" of it), is left out and said */
	{
		char *a8[] = { "parse", "--logs", p1, NULL };
		char *a9[] = { "parse", "--logs", "--log-avg-msec", "500", p1,
			       NULL };

		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "100, 1, 0, 4096, 0\n300, 1, 0, 4096, 0\n"
			 "500, 1, 0, 4096, 0\n700, 1, 0, 4096, 0\n"
			 "900, 1, 0, 4096, 0\n1100, 1, 0, 4096, 0\n"
			 "1300, 1, 0, 4096, 0\n1500, 1, 0, 4096, 0\n"
			 "1700, 1, 0, 4096, 0\n1900, 1, 0, 4096, 0\n"
			 "2000, 1, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a8, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		assert_int_equal(json_array_size(json_object_get(r,
					"windows")), 2);
		check_num(r, "windows/0/window", 1);
		check_num(r, "windows/0/total", 5);
		check_num(r, "windows/1/total", 5);
		check_num(r, "mean", 5);
		if (!strstr(err, "a log of every I/O (fio without "
			    "log_avg_msec), read per window of 1000 ms (its "
			    "I/Os per second); its last window, from 2000 ms, "
			    "ends with the job (last I/O at 2000 ms): partial, "
			    "left out"))
			fail_msg("stderr: %s", err);
		json_decref(r);
		free(out);
		free(err);
		/* 500-ms windows: 2 and 3 I/Os in turn, 4 and 6 per second */
		assert_int_equal(run_kbench(a9, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		assert_int_equal(json_array_size(json_object_get(r,
					"windows")), 4);
		check_num(r, "windows/0/total", 4);
		check_num(r, "windows/1/total", 6);
		check_num(r, "mean", 5);
		json_decref(r);
		free(out);
		free(err);
		unlink(p1);
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_clat.1.log",
			 "1000, 100, 0, 4096, 0\n1010, 200, 0, 4096, 0\n"
			 "1020, 300, 0, 4096, 0\n1990, 50, 0, 4096, 0\n"
			 "2010, 5000, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a8, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		assert_string_equal(str(r, "combine"), "mean");
		assert_int_equal(json_array_size(json_object_get(r,
					"windows")), 1);
		check_num(r, "windows/0/window", 2);
		check_num(r, "windows/0/total", 162.5);
		if (!strstr(err, "(the mean of its I/Os); its last window"))
			fail_msg("stderr: %s", err);
		json_decref(r);
		free(out);
		free(err);
		unlink(p1);
		snprintf(p1, sizeof(p1), "%s/job_iops.1.log", dir);
	}
	/* a helper's trial, each: fio's last, partial samples in both
	 * directions (taken); an IOPS log of every I/O with seconds
	 * without I/O (windows of 0, not left out: the mean was 2.5 times
	 * fio's); per_job_logs=0, two jobs' logs one after the other in
	 * one file (times start again: summed as two jobs); a window no
	 * file has (said); an averaged latency log of reads and writes
	 * (said: the mean of the directions' means) */
	{
		char *a10[] = { "parse", "--logs", p1, NULL };

		unlink(p1);
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "1000, 100, 0, 4096, 0\n1000, 50, 1, 4096, 0\n"
			 "2000, 110, 0, 4096, 0\n2000, 60, 1, 4096, 0\n"
			 "2500, 100, 0, 4096, 0\n2500, 50, 1, 4096, 0\n"));
		assert_int_equal(run_kbench(a10, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "windows/0/total", 150);
		check_num(r, "windows/1/total", 170);
		json_decref(r);
		free(out);
		free(err);
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "100, 1, 0, 4096, 0\n200, 1, 0, 4096, 0\n"
			 "3100, 1, 0, 4096, 0\n3200, 1, 0, 4096, 0\n"
			 "3999, 1, 0, 4096, 0\n4000, 1, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a10, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		assert_int_equal(json_array_size(json_object_get(r,
					"windows")), 4);
		check_num(r, "windows/1/total", 0);
		check_num(r, "windows/2/total", 0);
		check_num(r, "windows/3/total", 3);
		check_num(r, "mean", 5.0 / 4);
		json_decref(r);
		free(out);
		free(err);
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.log",
			 "1000, 101, 0, 0, 0\n2001, 99, 0, 0, 0\n"
			 "1000, 100, 0, 0, 0\n1999, 98, 0, 0, 0\n"));
		assert_int_equal(run_kbench(a10, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "windows/0/total", 201);
		check_num(r, "windows/1/total", 197);
		if (!strstr(err, "line 3: times start again (1000 ms after "
			    "2001 ms): another job's log in the same file"))
			fail_msg("stderr: %s", err);
		json_decref(r);
		free(out);
		free(err);
		unlink(p1);
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_iops.1.log",
			 "1000, 100, 0, 4096, 0\n2000, 110, 0, 4096, 0\n"
			 "4000, 90, 0, 4096, 0\n5000, 100, 0, 4096, 0\n"));
		assert_int_equal(run_kbench(a10, &out, &err), 0);
		r = json_loads(out, 0, NULL);
		assert_non_null(r);
		check_num(r, "mean", 100);
		if (!strstr(err, "window 3 (3000 ms): no sample in any file"))
			fail_msg("stderr: %s", err);
		json_decref(r);
		free(out);
		free(err);
		unlink(p1);
		snprintf(p1, sizeof(p1), "%s", write_file(dir, "job_clat.1.log",
			 "1000, 100, 0, 4096, 0\n1000, 20, 1, 4096, 0\n"
			 "2000, 110, 0, 4096, 0\n2000, 30, 1, 4096, 0\n"));
		assert_int_equal(run_kbench(a10, &out, &err), 0);
		if (!strstr(err, "reads and writes in one averaged latency "
			    "log"))
			fail_msg("stderr: %s", err);
		free(out);
		free(err);
		unlink(p1);
		snprintf(p1, sizeof(p1), "%s/job_iops.1.log", dir);
	}
	{
		char kind[16];

		assert_int_equal(fio_log_name_kind("/x/a_bw.12.log", kind, sizeof(kind)), 1);
		assert_string_equal(kind, "bw");
		assert_int_equal(fio_log_name_kind("a_clat.log", kind, sizeof(kind)), 1);
		assert_string_equal(kind, "clat");
		assert_int_equal(fio_log_name_kind("fio.log", kind, sizeof(kind)), 0);
	}
	unlink(p1);
	unlink(p2);
	unlink(p3);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_B11_terse_v3_fields_and_disks),
		cmocka_unit_test(test_B11_kind_coe_description_md_and_bad_count),
		cmocka_unit_test(test_terse_line_with_nul_byte_refused),
		cmocka_unit_test(test_terse_impossible_values),
		cmocka_unit_test(test_terse_then_json),
		cmocka_unit_test(test_terse_field_damage),
		cmocka_unit_test(test_terse_cut_unterminated),
		cmocka_unit_test(test_B13_iops_logs_summed_per_window),
		cmocka_unit_test(test_B13_kind_three_jobs_missing_window),
		cmocka_unit_test(test_B13_kind_empty_log),
	};

	kb_quiet = 1;
	return cmocka_run_group_tests_name("fio_terse", tests, NULL, NULL);
}
