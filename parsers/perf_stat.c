/* parsers/perf_stat.c - see perf_stat.h for the format and its sources. */
#include "lib/str.h"
#include "parsers/perf_stat.h"
#include "lib/err.h"
#include "lib/file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 32


/* A plain decimal number (no thousands separators: -x output has none). */
static int is_number(const char *s, double *v)
{
	char *end;
	double d;

	if (!*s)
		return 0;
	d = strtod(s, &end);
	if (*kb_trim(end) || !isfinite(d))
		return 0;
	if (v)
		*v = d;
	return 1;
}

/* -x SEP: TAB, ';' or ',' (the most frequent), else a blank (perf stat
 * -x ' ', as LKP's fixture ../shared/corpus/perf/lkp-perf-stat-interval-
 * spaces.txt has it: an empty unit is two blanks in a row). */
static char pick_sep(const char *line)
{
	size_t c = 0, s = 0, t = 0, b = 0;

	for (; *line && *line != '\n'; line++) {
		c += *line == ',';
		s += *line == ';';
		t += *line == '\t';
		b += *line == ' ';
	}
	if (t >= c && t >= s && t)
		return '\t';
	if (!c && !s && b)
		return ' ';
	return s > c ? ';' : ',';
}

static struct kb_perf_count *find_or_add(struct kb_perf_stat *s,
					 const char *event)
{
	size_t i;

	for (i = 0; i < s->nev; i++)
		if (!strcmp(s->ev[i].event, event))
			return &s->ev[i];
	if (s->nev == KB_PERF_MAX_EVENTS)
		return NULL;
	memset(&s->ev[s->nev], 0, sizeof(s->ev[0]));
	snprintf(s->ev[s->nev].event, sizeof(s->ev[0].event), "%s", event);
	s->ev[s->nev].state = KB_COUNT_NOT_COUNTED;
	return &s->ev[s->nev++];
}

/* perf's stderr when perf_event_paranoid forbids (cases/B21). */
static void paranoid_error(struct kb_perf_stat *s, const char *text)
{
	const char *p = strstr(text, "perf_event_paranoid setting is ");
	int level = p ? atoi(p + strlen("perf_event_paranoid setting is ")) : -9;

	if (!strstr(text, "Access to performance monitoring") &&
	    !strstr(text, "perf_event_paranoid setting is"))
		return;
	if (level == -9)
		snprintf(s->error, sizeof(s->error),
			 "perf could not open counters: kernel."
			 "perf_event_paranoid blocks it. Run as root / grant "
			 "CAP_PERFMON, or set kernel.perf_event_paranoid <= 0 "
			 "for system-wide (-a) counting");
	else
		snprintf(s->error, sizeof(s->error),
			 "perf could not open counters: kernel."
			 "perf_event_paranoid=%d blocks unprivileged use. Run "
			 "as root / grant CAP_PERFMON, or set kernel."
			 "perf_event_paranoid <= 2 (user-space counting of own "
			 "process), <= 1 (user+kernel), <= 0 (system-wide -a)",
			 level);
}

static int is_value(const char *f)
{
	return is_number(f, NULL) || !strncmp(f, "<not", 4);
}

static int is_uint(const char *f)
{
	return *f && strspn(f, "0123456789") == strlen(f);
}

/* The columns before the value (perf-stat(1) CSV FORMAT): an optional
 * interval time, then an optional aggregation id (CPUn, S0, S0-D0-C0,
 * N0, comm-pid), which for socket/die/core/node aggregation is followed
 * by the number of CPUs aggregated. */
static int prefix_ok(char **f, size_t k)
{
	switch (k) {
	case 0:
		return 1;
	case 1:
		return *f[0] != '\0';
	case 2:
		return (is_number(f[0], NULL) && *f[1] &&
			!is_number(f[1], NULL)) ||
		       (*f[0] && !is_number(f[0], NULL) && is_uint(f[1]));
	case 3:
		return is_number(f[0], NULL) && *f[1] &&
		       !is_number(f[1], NULL) && is_uint(f[2]);
	default:
		return 0;
	}
}

/* Fields from the value on: value, unit, event, then run time and
 * pct_running (both numbers), then optional variance and metric value and
 * unit: 5 to 9, or 3 (perf before run time was printed).  Blank-separated
 * (-x ' '): at least 5, never 3 ("60.04 seconds user" is perf's own
 * text), and any number after them (the metric's unit is words: "of all
 * cache refs"). */
static int rest_ok(char **f, size_t k, size_t nf, char sep)
{
	size_t m = nf - k;

	if (is_number(f[k + 1], NULL))
		return 0;	/* the unit column holds a number: shifted */
	if (m == 3)
		return sep != ' ';
	return m >= 5 && (m <= 9 || sep == ' ') &&
	       is_number(f[k + 3], NULL) && is_number(f[k + 4], NULL);
}

/* The events a malformed record is about (into out, at most max): a
 * field naming an event read before or one of the canonical events, in a
 * line that also holds a counter value; for the file's last line cut
 * short (cut != 0), also every event read before whose name its last
 * field begins.  Returns their number; 0 when none can be told. */
static size_t malformed_events(struct kb_perf_stat *s, char **f, size_t nf,
			       int cut, struct kb_perf_count **out,
			       size_t max);

/* Split p in place at each byte of seps into trimmed fields (at most
 * MAX_FIELDS); a blank after "<not" does not split ("<not supported>").
 * Returns their number. */
static size_t split_fields(char *p, const char *seps, char **f)
{
	size_t nf = 0, k;

	f[nf++] = p;
	for (; *p && nf < MAX_FIELDS; p++)
		if (strchr(seps, *p) && !(*p == ' ' && p - f[nf - 1] == 4 &&
					  !strncmp(f[nf - 1], "<not", 4))) {
			*p = '\0';
			f[nf++] = p + 1;
		}
	for (k = 0; k < nf; k++)
		f[k] = kb_trim(f[k]);
	return nf;
}

/* The value's column of a record of the file's layout (fixed by its
 * first record), trying prefixes of 0..3 columns; -1 when the fields
 * make none. */
static int record_col(const struct kb_perf_stat *s, char **f, size_t nf,
		      char sep)
{
	size_t k;

	for (k = 0; k + 2 < nf && k <= 3; k++) {
		if (!is_value(f[k]))
			continue;
		if (!*f[k + 2] || is_number(f[k + 2], NULL))
			continue;
		if (!prefix_ok(f, k) || !rest_ok(f, k, nf, sep))
			continue;
		if (s->layout_line &&
		    ((int)k != s->value_col ||
		     (nf - k >= 5) != (s->layout_fields -
				       s->value_col >= 5)))
			continue;
		return (int)k;
	}
	return -1;
}

/* Before the first record: the separator with which line p is one (the
 * most frequent of ',' ';' TAB, then a blank: a blank-separated record
 * may hold a comma in an event's name); else pick_sep()'s. */
static char choose_sep(const struct kb_perf_stat *s, const char *p)
{
	char cand[2] = { pick_sep(p), ' ' }, *f[MAX_FIELDS], one[2] = "";
	size_t i, nf, ncand = cand[0] == ' ' ? 1 : 2;

	for (i = 0; i < ncand; i++) {
		char *tmp = kb_xstrdup(p);
		int k;

		one[0] = cand[i];
		nf = split_fields(tmp, one, f);
		k = record_col(s, f, nf, cand[i]);
		free(tmp);
		if (k >= 0)
			return cand[i];
	}
	return cand[0];
}

/* perf stat without -x: a line starting "Performance counter stats
 * for" (perf prints it with leading blanks; never in -x output). */
static int human_readable(const char *text)
{
	const char *line;

	for (line = text; line; line = strchr(line, '\n')) {
		line += *line == '\n';
		line += strspn(line, " \t");
		if (!strncmp(line, "Performance counter stats for", 29))
			return 1;
	}
	return 0;
}

/* perf stat run in a locale whose decimal separator is a comma
 * (LC_NUMERIC=de_DE: perf calls setlocale()) writes "1010,83" and
 * "100,00" in its -x records.  With -x, the comma splits them in two:
 * pct_running (perf's "%.2f", always with a '.' in the C locale) an
 * integer followed by a field of two digits, the record otherwise
 * fitting with a wrong value ("1010,83,msec,cpu-clock" read as 83 msec
 * with "1010" for a leading column).  With another separator the
 * numbers are whole but not read: a field "N,NN" (pct_running) says so.  1 when the fields f (nf of them; the
 * value in column k, or k < 0: no record) show it. */
static int comma_decimals(char **f, size_t nf, int k, char sep)
{
	size_t i, d;

	if (sep == ',')
		return k >= 0 && (size_t)k + 5 < nf && is_uint(f[k + 4]) &&
		       strlen(f[k + 5]) == 2 && is_uint(f[k + 5]);
	/* "100,00": a pct_running's two decimals ("1,234", three digits
	 * after the comma, may be a thousands separator: malformed) */
	for (i = 0; k < 0 && i < nf; i++) {
		d = strspn(f[i], "0123456789");
		if (d && f[i][d] == ',' && strlen(f[i] + d + 1) == 2 &&
		    strspn(f[i] + d + 1, "0123456789") == 2)
			return 1;
	}
	return 0;
}

int perf_stat_parse(const char *name, const char *text,
		    struct kb_perf_stat *s)
{
	char *copy = kb_xstrdup(text ? text : ""), *line, *next, *f[MAX_FIELDS];
	char sep = 0, seps[2] = "", shown[64];
	int lineno = 0, bad = 0, ret = 0, cut_end, k;
	size_t nf;
	double v, rt, pct;

	/* the file's last line has no newline: perf was stopped mid-line */
	cut_end = text && *text && text[strlen(text) - 1] != '\n';
	memset(s, 0, sizeof(*s));
	paranoid_error(s, copy);
	if (human_readable(copy)) {
		/* its columns are aligned with blanks and its numbers carry
		 * the locale's separators ("1.101,01 msec" in de_DE): no
		 * field of it is read as a record (a perf_event_paranoid
		 * message in it is the error, as for -x output) */
		if (!s->error[0]) {
			kb_error("%s: this is perf stat's human-readable "
				 "output (\"Performance counter stats for\"), "
				 "which kbench does not read; expected perf "
				 "stat -x SEP output (value,unit,event,run_time,"
				 "pct lines as perf-stat(1) CSV FORMAT "
				 "describes)", name);
			ret = -EINVAL;
		}
		free(copy);
		return ret;
	}
	for (line = copy; line; line = next) {
		struct kb_perf_count *c;
		char *p, *orig = NULL;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		p = kb_trim(line);
		if (!strncmp(p, "# error:", 8)) {
			snprintf(s->error, sizeof(s->error), "%s", kb_trim(p + 8));
			continue;
		}
		if (!*p || *p == '#')
			continue;
		snprintf(shown, sizeof(shown), "%s", p);
		/* until the first record: a command line above it may hold
		 * other separators (LKP's files start with perf's argv) */
		if (!s->layout_line)
			sep = choose_sep(s, p);
		if (sep == ' ' && s->layout_line)
			orig = kb_xstrdup(p);
		seps[0] = sep;
		nf = split_fields(p, seps, f);
		k = record_col(s, f, nf, sep);
		if (comma_decimals(f, nf, k, sep)) {
			kb_error("%s:%d: perf stat wrote this in a locale whose "
				 "decimal separator is a comma (LC_NUMERIC="
				 "de_DE?): '%s'; its numbers %s; run perf stat "
				 "with LC_ALL=C", name, lineno, shown,
				 sep == ',' ? "are cut in two by the -x , "
				 "separator" : "are not read");
			free(orig);
			free(copy);
			memset(s, 0, sizeof(*s));
			return -EINVAL;
		}
		if (k < 0) {
			struct kb_perf_count *mal[8];
			size_t nmal = 0, mi, mnf = nf;

			/* before the first record a blank-separated line is
			 * words of text, not a malformed record; after it, a
			 * record with other separators is one too */
			if (sep != ' ' || s->layout_line)
				nmal = malformed_events(s, f, nf, !next &&
							cut_end, mal, 8);
			if (!nmal && orig) {
				mnf = split_fields(orig, " ,;\t", f);
				nmal = malformed_events(s, f, mnf, !next &&
							cut_end, mal, 8);
			}
			free(orig);
			for (mi = 0; mi < nmal; mi++) {
				c = mal[mi];
				if (!c->malformed++) {
					char lay[96] = "";

					c->bad_line = lineno;
					c->bad_fields = (int)nf;
					if (s->layout_line)
						snprintf(lay, sizeof(lay),
							 "; line %d has %d, "
							 "the value in column "
							 "%d", s->layout_line,
							 s->layout_fields,
							 s->value_col + 1);
					kb_warn("%s:%d: perf stat record of %s "
						"has the wrong fields (%zu%s): "
						"%s left out, never guessed",
						name, lineno, c->event, nf, lay,
						c->event);
				}
			}
			if (nmal)
				continue;
			if (!bad && !s->error[0])
				kb_warn("%s:%d: not a perf stat -x record, "
					"skipped: '%s'", name, lineno, shown);
			bad++;
			continue;
		}
		free(orig);
		if (!s->layout_line) {
			s->layout_line = lineno;
			s->value_col = k;
			s->layout_fields = (int)nf;
		}
		c = find_or_add(s, f[k + 2]);
		if (!c)
			continue;
		c->nrecords++;
		if (c->nrecords == 1)
			snprintf(c->unit, sizeof(c->unit), "%s", f[k + 1]);
		if (!strcmp(f[k], "<not supported>")) {
			if (c->state != KB_COUNT_OK)
				c->state = KB_COUNT_UNSUPPORTED;
			continue;
		}
		if (!is_number(f[k], &v))	/* "<not counted>" */
			continue;
		c->state = KB_COUNT_OK;
		c->value += v;
		rt = pct = -1;
		if ((size_t)k + 3 < nf && is_number(f[k + 3], &rt) &&
		    (size_t)k + 4 < nf && is_number(f[k + 4], &pct) &&
		    pct > 0 && rt >= 0) {
			c->running_ns += rt;
			c->enabled_ns += rt * 100.0 / pct;
		}
	}
	if (!s->nev && bad && !s->error[0]) {
		kb_error("%s: no perf stat -x records (%d unreadable lines); "
			 "expected value,unit,event,run_time,pct lines as "
			 "perf-stat(1) CSV FORMAT describes", name, bad);
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

/* "cpu_core/cycles/" -> "cycles", "cycles:D" -> "cycles" */
static void base_name(const char *ev, char *out, size_t len)
{
	const char *slash = strchr(ev, '/');
	char *colon;

	if (slash && slash[1] && strchr(slash + 1, '/')) {
		size_t n = (size_t)(strchr(slash + 1, '/') - slash - 1);

		snprintf(out, len, "%.*s", (int)n, slash + 1);
	} else {
		snprintf(out, len, "%s", ev);
	}
	colon = strchr(out, ':');
	if (colon)
		*colon = '\0';
}

static const struct {
	const char *canon;
	const char *alias;	/* another name perf uses, or NULL */
	const char *metric;
} canon_events[] = {
	{ "cycles", "cpu-cycles", "perf.cycles" },
	{ "instructions", NULL, "perf.instructions" },
	{ "cache-references", NULL, "perf.cache_references" },
	{ "cache-misses", NULL, "perf.cache_misses" },
	{ "L1-dcache-load-misses", NULL, "perf.l1d_misses" },
	{ "LLC-load-misses", NULL, "perf.llc_load_misses" },
	{ "branch-misses", NULL, "perf.branch_misses" },
	{ "cpu-clock", NULL, "perf.cpu_clock_ms" },
	{ "context-switches", "cs", "perf.context_switches" },
	{ "cpu-migrations", "migrations", "perf.cpu_migrations" },
	{ "page-faults", "faults", "perf.page_faults" },
};
#define N_CANON (sizeof(canon_events) / sizeof(canon_events[0]))

static size_t malformed_events(struct kb_perf_stat *s, char **f, size_t nf,
			       int cut, struct kb_perf_count **out,
			       size_t max)
{
	char base[96];
	size_t i, j, e, n = 0, last = nf;
	int value = 0;

	for (i = 0; i < nf; i++)
		value |= is_value(f[i]);
	if (!value)
		return 0;	/* a header or command line, not a record */
	for (i = 0; i < nf; i++) {
		if (!*f[i] || is_number(f[i], NULL))
			continue;
		last = i;
		for (e = 0; e < s->nev; e++)
			if (!strcmp(s->ev[e].event, f[i])) {
				out[0] = &s->ev[e];
				return 1;
			}
		base_name(f[i], base, sizeof(base));
		for (j = 0; j < N_CANON; j++)
			if (!strcmp(base, canon_events[j].canon) ||
			    (canon_events[j].alias &&
			     !strcmp(base, canon_events[j].alias))) {
				out[0] = find_or_add(s, f[i]);
				return out[0] != NULL;
			}
	}
	if (!cut || last == nf || last + 1 != nf)
		return 0;
	/* "...;1003456;;cyc" at the end of a file cut short */
	for (e = 0; e < s->nev && n < max; e++)
		if (!strncmp(s->ev[e].event, f[last], strlen(f[last])))
			out[n++] = &s->ev[e];
	return n;
}

int perf_stat_find(const struct kb_perf_stat *s, const char *canon,
		   struct kb_perf_count *c)
{
	const char *alias = NULL;
	char base[96];
	size_t i;
	int found = 0;

	for (i = 0; i < N_CANON; i++)
		if (!strcmp(canon_events[i].canon, canon))
			alias = canon_events[i].alias;
	memset(c, 0, sizeof(*c));
	snprintf(c->event, sizeof(c->event), "%s", canon);
	c->state = KB_COUNT_NOT_COUNTED;
	for (i = 0; i < s->nev; i++) {
		const struct kb_perf_count *e = &s->ev[i];

		base_name(e->event, base, sizeof(base));
		if (strcmp(base, canon) && (!alias || strcmp(base, alias)))
			continue;
		if (!found)
			snprintf(c->unit, sizeof(c->unit), "%s", e->unit);
		found = 1;
		c->nrecords += e->nrecords;
		if (e->malformed && !c->malformed) {
			c->bad_line = e->bad_line;
			c->bad_fields = e->bad_fields;
		}
		c->malformed += e->malformed;
		if (e->state == KB_COUNT_OK) {
			c->state = KB_COUNT_OK;
			c->value += e->value;
			c->running_ns += e->running_ns;
			c->enabled_ns += e->enabled_ns;
		} else if (c->state != KB_COUNT_OK) {
			c->state = e->state;
		}
	}
	return found;
}

static void set_ratio(json_t *m, const char *name, double num, int okn,
		      double den, int okd, double scale)
{
	if (okn && okd && den > 0)
		json_object_set_new(m, name, json_real(scale * num / den));
}

void perf_stat_metrics(const struct kb_perf_stat *s, json_t *metrics,
		       json_t *warnings)
{
	double val[N_CANON];
	int ok[N_CANON];
	char unsup[512] = "", mux[512] = "", *name;
	double mincov = 101;
	size_t i, nmux = 0;

	if (s->error[0])
		json_array_append_new(warnings, json_string(s->error));
	for (i = 0; i < N_CANON; i++) {
		struct kb_perf_count c;
		double v, cov;

		ok[i] = 0;
		val[i] = 0;
		if (!perf_stat_find(s, canon_events[i].canon, &c))
			continue;
		if (c.malformed) {
			char lay[96] = "", *w;

			if (s->layout_line)
				snprintf(lay, sizeof(lay), "; the layout of "
					 "line %d has %d, the value in column "
					 "%d", s->layout_line, s->layout_fields,
					 s->value_col + 1);
			w = kb_xasprintf("perf stat: %u record(s) of %s "
				"have the wrong number of fields (line %d: "
				"%d fields%s); %s n/a, never guessed from "
				"shifted columns or the other records",
				c.malformed, canon_events[i].canon, c.bad_line,
				c.bad_fields, lay, canon_events[i].metric);

			json_array_append_new(warnings, json_string(w));
			free(w);
			continue;
		}
		if (c.state != KB_COUNT_OK) {
			size_t l = strlen(unsup);

			snprintf(unsup + l, sizeof(unsup) - l, "%s%s",
				 l ? ", " : "", canon_events[i].canon);
			continue;
		}
		v = c.value;
		/* cpu-clock: msec before perf 6.x, ns with an empty unit
		 * after (corpus lkp-perf-stat-interval-csv-6.17-hybrid) */
		if (!strcmp(canon_events[i].canon, "cpu-clock") &&
		    strcmp(c.unit, "msec"))
			v /= 1e6;
		val[i] = c.value;
		ok[i] = 1;
		json_object_set_new(metrics, canon_events[i].metric,
				    json_real(v));
		if (c.enabled_ns > 0) {
			cov = 100.0 * c.running_ns / c.enabled_ns;
			name = kb_xasprintf("%s_coverage_pct",
					    canon_events[i].metric);
			json_object_set_new(metrics, name, json_real(cov));
			free(name);
		}
	}
	/* multiplexing, over every event read (also non-canonical ones) */
	for (i = 0; i < s->nev; i++) {
		const struct kb_perf_count *c = &s->ev[i];
		double cov;
		size_t l = strlen(mux);

		if (c->state != KB_COUNT_OK || c->enabled_ns <= 0)
			continue;
		cov = 100.0 * c->running_ns / c->enabled_ns;
		if (cov >= 99.5)
			continue;
		nmux++;
		if (cov < mincov)
			mincov = cov;
		snprintf(mux + l, sizeof(mux) - l, "%s%s %.1f%%",
			 l ? ", " : "", c->event, cov);
	}
	/* indexes into canon_events: 0 cycles, 1 instructions, 2 cache-refs,
	 * 3 cache-misses, 4 L1-dcache-load-misses */
	set_ratio(metrics, "perf.ipc", val[1], ok[1], val[0], ok[0], 1);
	set_ratio(metrics, "perf.cache_miss_pct", val[3], ok[3], val[2], ok[2],
		  100);
	set_ratio(metrics, "perf.mpki", val[3], ok[3], val[1], ok[1], 1000);
	set_ratio(metrics, "perf.l1d_mpki", val[4], ok[4], val[1], ok[1], 1000);
	if (unsup[0]) {
		char *w = kb_xasprintf("perf events not supported on this machine "
				       "(a virtual machine without a "
				       "virtual PMU?): %s; their perf.* "
				       "metrics are n/a", unsup);

		json_array_append_new(warnings, json_string(w));
		free(w);
	}
	if (nmux) {
		char *w = kb_xasprintf("counters multiplexed (%zu events, "
				       "coverage down to %.1f%%: %s); counts "
				       "are scaled estimates", nmux, mincov,
				       mux);

		json_array_append_new(warnings, json_string(w));
		free(w);
	}
}
