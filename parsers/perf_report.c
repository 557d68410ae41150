/* parsers/perf_report.c - see perf_report.h for formats and rules. */
#include "lib/str.h"
#include "parsers/perf_report.h"
#include "lib/err.h"
#include "lib/file.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- symbol groups -------------------------------------------------- */

int symgroups_parse(const char *name, const char *text,
		    struct kb_sym_groups *gs)
{
	char *copy = kb_xstrdup(text), *line, *next, *p, *c;
	struct kb_sym_group *cur = NULL;
	int lineno = 0, ret = 0;
	size_t i;

	memset(gs, 0, sizeof(*gs));
	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		for (c = line; *c; c++)
			if (*c == ';' || *c == '#') {
				*c = '\0';
				break;
			}
		p = kb_trim(line);
		if (!*p)
			continue;
		if (*p == '[') {
			c = strchr(p, ']');
			if (!c || c[1] || c == p + 1) {
				kb_error("%s:%d: bad group header '%s' "
					 "(expected [NAME])", name, lineno, p);
				ret = -EINVAL;
				cur = NULL;
				continue;
			}
			*c = '\0';
			if (gs->n == KB_MAX_SYM_GROUPS) {
				kb_error("%s:%d: too many groups (at most %d)",
					 name, lineno, KB_MAX_SYM_GROUPS);
				ret = -EINVAL;
				break;
			}
			for (c = p + 1; *c; c++)
				if (!isalnum((unsigned char)*c) && *c != '_' &&
				    *c != '-') {
					kb_error("%s:%d: group name '%s': use "
						 "letters, digits, _ and -",
						 name, lineno, p + 1);
					ret = -EINVAL;
					break;
				}
			cur = &gs->g[gs->n++];
			cur->name = kb_xstrdup(p + 1);
			cur->parent = -1;
			continue;
		}
		if (!cur) {
			kb_error("%s:%d: '%s' before any [GROUP] header",
				 name, lineno, p);
			ret = -EINVAL;
			continue;
		}
		if (!strncmp(p, "parent", 6) &&
		    p[6 + strspn(p + 6, " \t")] == '=') {
			char *pname = kb_trim(strchr(p, '=') + 1);

			cur->parent = -2;
			for (i = 0; i + 1 < gs->n; i++)
				if (!strcmp(gs->g[i].name, pname)) {
					cur->parent = (int)i;
					cur->depth = gs->g[i].depth + 1;
				}
			if (cur->parent == -2) {
				kb_error("%s:%d: [%s] parent = %s: no such "
					 "group above it (define the parent "
					 "first)", name, lineno, cur->name,
					 pname);
				cur->parent = -1;
				ret = -EINVAL;
			}
			continue;
		}
		cur->patterns = kb_xrealloc(cur->patterns, (cur->npatterns + 1) *
					    sizeof(*cur->patterns));
		cur->patterns[cur->npatterns++] = kb_xstrdup(p);
	}
	free(copy);
	if (ret)
		symgroups_free(gs);
	return ret;
}

void symgroups_free(struct kb_sym_groups *gs)
{
	size_t i, k;

	for (i = 0; i < gs->n; i++) {
		for (k = 0; k < gs->g[i].npatterns; k++)
			free(gs->g[i].patterns[k]);
		free(gs->g[i].patterns);
		free(gs->g[i].name);
	}
	memset(gs, 0, sizeof(*gs));
}

/* The deepest group with a matching pattern (file order on ties), -1. */
static int home_group(const struct kb_sym_groups *gs, const char *sym)
{
	int best = -1;
	size_t i, k;

	for (i = 0; i < gs->n; i++) {
		if (best >= 0 && gs->g[i].depth <= gs->g[best].depth)
			continue;
		for (k = 0; k < gs->g[i].npatterns; k++)
			if (!fnmatch(gs->g[i].patterns[k], sym, 0)) {
				best = (int)i;
				break;
			}
	}
	return best;
}

static int in_subtree(const struct kb_sym_groups *gs, int g, size_t root)
{
	for (; g >= 0; g = gs->g[g].parent)
		if ((size_t)g == root)
			return 1;
	return 0;
}

double perf_report_group_weight(const struct kb_prof_event *e,
				const struct kb_sym_groups *gs, size_t gi)
{
	double w = 0;
	size_t i;

	for (i = 0; i < e->nsyms; i++)
		if (e->syms[i].kernel && !e->syms[i].unresolved &&
		    in_subtree(gs, home_group(gs, e->syms[i].sym), gi))
			w += e->syms[i].weight;
	return w;
}

/* ---- perf report text ------------------------------------------------ */

static struct kb_prof_event *new_event(struct kb_profile *p, const char *ev)
{
	struct kb_prof_event *e;

	if (p->nev == KB_PROF_MAX_EVENTS)
		return NULL;
	e = &p->ev[p->nev++];
	memset(e, 0, sizeof(*e));
	snprintf(e->event, sizeof(e->event), "%s", ev);
	return e;
}

/* tok (len bytes) is a percentage, "12.34%", into *v; also "12,34%", as
 * perf writes it in a locale whose decimal separator is a comma
 * (LC_NUMERIC=de_DE): a comma there separates no columns. */
static int is_pct(const char *tok, size_t len, double *v)
{
	char buf[32], *end, *comma;

	if (!len || tok[len - 1] != '%' || len >= sizeof(buf))
		return 0;
	memcpy(buf, tok, len - 1);
	buf[len - 1] = '\0';
	comma = strchr(buf, ',');
	if (comma && !strchr(buf, '.') && comma == strrchr(buf, ','))
		*comma = '.';
	*v = strtod(buf, &end);
	return end != buf && !*end && isfinite(*v);
}

/* perf report's "IPC   [IPC Coverage]" columns after the symbol (perf
 * 5.1+, util/sort.c sort_sym_ipc: "%-5.2f" or "-", then "[%5.1f%%]" or
 * "-"): the symbol column is padded to its width, so these are the line's
 * last words.  Cuts them off sym (in place). */
static void cut_ipc_columns(char *sym)
{
	char *end = sym + strlen(sym), *w;
	int col;

	for (col = 0; col < 2; col++) {
		while (end > sym && isspace((unsigned char)end[-1]))
			end--;
		*end = '\0';
		if (col == 0 && end > sym && end[-1] == ']') {
			/* "[ 45.2%]": the coverage, blanks inside */
			const char *c;

			w = strrchr(sym, '[');
			if (!w || w == sym)
				return;
			c = w + 1 + strspn(w + 1, " ");
			c += strspn(c, "0123456789.,");
			if (strcmp(c, "%]"))
				return;
		} else {
			w = end;
			while (w > sym && !isspace((unsigned char)w[-1]))
				w--;
			if (w == sym || (strcmp(w, "-") &&
					 strspn(w, "0123456789.,") != strlen(w)))
				return;
		}
		end = w;
	}
	while (end > sym && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
}

static int is_hex_addr(const char *s)
{
	if (strncmp(s, "0x", 2) || !s[2])
		return 0;
	for (s += 2; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

int perf_report_parse(const char *name, const char *text,
		      const char *default_event, struct kb_profile *p)
{
	char *copy = kb_xstrdup(text ? text : ""), *line, *next, *q;
	struct kb_prof_event *e = NULL;
	int children = 0, samples_col = 0, ndata = 0, sep = 0, ipc_cols = 0;

	memset(p, 0, sizeof(*p));
	p->lost_samples = -1;
	p->lost_chunks = -1;
	p->samples_seen = -1;
	p->lost_pct_said = -1;
	perf_report_scan_lost(copy, p);
	for (line = copy; line; line = next) {
		char *tok[8], *mark = NULL, *sym;
		size_t ntok = 0, len;
		double pct[2], w;
		int npct = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strstr(line, "Kernel address maps") &&
		    strstr(line, "restricted"))
			p->kptr_warning = 1;
		if (line[0] == '#') {
			if ((q = strstr(line, " of event '"))) {
				char *end = strchr(q + 11, '\'');

				if (end)
					*end = '\0';
				e = new_event(p, q + 11);
				children = samples_col = 0;
			}
			if (strstr(line, "Overhead") || strstr(line, "Self")) {
				children = strstr(line, "Children") != NULL;
				samples_col = strstr(line, "Samples") != NULL;
				sep = strstr(line, "Overhead|") ||
				      strstr(line, "Children|") ? '|' : 0;
				ipc_cols = strstr(line, "[IPC Coverage]") != NULL;
			}
			continue;
		}
		if (sep)
			for (q = line; *q; q++)
				if (*q == sep)
					*q = ' ';
		/* the "[x]" marker; the symbol is what follows it */
		for (q = line; (q = strchr(q, '[')); q++)
			if (q[1] && q[2] == ']' && q > line &&
			    isspace((unsigned char)q[-1]) &&
			    (isspace((unsigned char)q[3]))) {
				mark = q;
				break;
			}
		if (!mark)
			continue;
		*mark = '\0';
		sym = kb_trim(mark + 3);
		if (ipc_cols)
			cut_ipc_columns(sym);
		/* leading fields: percentages, then maybe a sample count */
		for (q = strtok(line, " \t"); q && ntok < 8; q = strtok(NULL, " \t"))
			tok[ntok++] = q;
		while (npct < (int)ntok && npct < 2 &&
		       is_pct(tok[npct], strlen(tok[npct]), &pct[npct]))
			npct++;
		if (!npct || !*sym)
			continue;
		if (children && npct < 2)
			continue;
		w = children ? pct[1] : pct[0];
		if (samples_col && (size_t)npct < ntok) {
			char *end;
			long long n = strtoll(tok[npct], &end, 10);

			if (!*end && n >= 0)
				w = (double)n;
		}
		if (!e && !(e = new_event(p, default_event)))
			continue;
		if (!e->nsyms)
			e->weights_are_samples = samples_col;
		len = e->nsyms + 1;
		e->syms = kb_xrealloc(e->syms, len * sizeof(*e->syms));
		e->syms[e->nsyms].sym = kb_xstrdup(sym);
		e->syms[e->nsyms].kernel = mark[1] == 'k';
		e->syms[e->nsyms].unresolved = mark[1] == 'k' &&
					       is_hex_addr(sym);
		e->syms[e->nsyms].weight = w;
		e->nsyms++;
		e->total += w;
		ndata++;
	}
	free(copy);
	if (!ndata && !p->nev) {
		kb_error("%s: no perf report data lines (expected lines like "
			 "'  12.34%%  fio  [kernel.kallsyms]  [k] blk_mq_submit_bio'"
			 ", from perf report --stdio)", name);
		perf_report_free(p);
		return -EINVAL;
	}
	return 0;
}

void perf_report_scan_lost(const char *text, struct kb_profile *p)
{
	const char *line, *next, *q;
	long long a, b;
	double pct;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			next++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '#' && (q = strstr(line, "Total Lost Samples:")) &&
		    q < line + strcspn(line, "\n"))
			p->lost_samples = strtoll(q + 19, NULL, 10);
		else if (sscanf(line, "Processed %lld samples and lost %lf%%",
				&a, &pct) == 2) {
			p->samples_seen = a;
			p->lost_pct_said = pct;
		} else if (sscanf(line, "Processed %lld events and lost %lld chunks",
				  &a, &b) == 2) {
			p->lost_chunks = b;
		} else if (sscanf(line, "LOST events: %lld", &b) == 1) {
			p->lost_chunks = b;
		} else if (sscanf(line, "SAMPLE events: %lld", &a) == 1) {
			p->samples_seen = a;
		}
	}
}

void perf_report_lost(const struct kb_profile *p, json_t *metrics,
		      json_t *warnings, json_t *flags)
{
	double kept = 0, pct = -1;
	int counted = 0;
	char *msg;
	size_t i;

	for (i = 0; i < p->nev; i++)
		if (p->ev[i].weights_are_samples) {
			kept += p->ev[i].total;
			counted = 1;
		}
	if (!counted && p->samples_seen >= 0) {
		kept = (double)p->samples_seen;
		counted = 1;
	}
	if (p->lost_samples >= 0) {
		json_object_set_new(metrics, "profile.lost_samples",
				    json_integer(p->lost_samples));
		if (counted && p->lost_samples + kept > 0)
			pct = 100.0 * (double)p->lost_samples /
			      ((double)p->lost_samples + kept);
	}
	if (pct < 0 && p->lost_pct_said >= 0)
		pct = p->lost_pct_said;
	if (pct >= 0)
		json_object_set_new(metrics, "profile.lost_pct", json_real(pct));
	if (p->lost_samples > 0 || (p->lost_samples < 0 && pct > 0)) {
		char share[64] = "";

		if (pct >= 0)
			snprintf(share, sizeof(share), " (%.2f%% of all)", pct);
		if (p->lost_samples > 0)
			msg = kb_xasprintf("profile: perf lost %lld samples%s "
				"(buffer overrun): the profile's shares are "
				"those of the samples kept", p->lost_samples,
				share);
		else
			msg = kb_xasprintf("profile: perf lost samples%s "
				"(buffer overrun): the profile's shares are "
				"those of the samples kept", share);
		json_array_append_new(warnings, json_string(msg));
		free(msg);
		if (p->lost_samples > 0)
			msg = kb_xasprintf("profile: %lld samples lost%s",
					   p->lost_samples, share);
		else
			msg = kb_xasprintf("profile: samples lost%s", share);
		json_array_append_new(flags, json_string(msg));
		free(msg);
	}
	if (p->lost_chunks > 0) {
		msg = kb_xasprintf("profile: perf lost %lld chunks of events "
			"(PERF_RECORD_LOST: the ring buffer overran; raise "
			"perf record -m or lower -F): the profile misses what "
			"they held", p->lost_chunks);
		json_array_append_new(warnings, json_string(msg));
		free(msg);
		msg = kb_xasprintf("profile: %lld chunks of events lost",
				   p->lost_chunks);
		json_array_append_new(flags, json_string(msg));
		free(msg);
	}
}

void perf_report_free(struct kb_profile *p)
{
	size_t i, k;

	for (i = 0; i < p->nev; i++) {
		for (k = 0; k < p->ev[i].nsyms; k++)
			free(p->ev[i].syms[k].sym);
		free(p->ev[i].syms);
	}
	p->nev = 0;
}

static void setm(json_t *m, double v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void setm(json_t *m, double v, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	json_object_set_new(m, name, json_real(v));
}

void perf_report_metrics(const struct kb_prof_event *e, const char *role,
			 const struct kb_sym_groups *gs, json_t *metrics,
			 json_t *warnings)
{
	double kern = 0, unres = 0, top = 0, w[KB_MAX_SYM_GROUPS], total;
	size_t i;
	char *msg;

	if (e->total <= 0) {
		msg = kb_xasprintf("profile: no %s samples (event %s); "
				   "profile.%s.* n/a", role, e->event, role);
		json_array_append_new(warnings, json_string(msg));
		free(msg);
		return;
	}
	/* percentages are shares of all samples, also of rows not shown */
	total = e->weights_are_samples || e->total > 100 ? e->total : 100;
	for (i = 0; i < e->nsyms; i++) {
		if (!e->syms[i].kernel)
			continue;
		kern += e->syms[i].weight;
		if (e->syms[i].unresolved)
			unres += e->syms[i].weight;
	}
	if (e->weights_are_samples)
		setm(metrics, e->total, "profile.%s.samples", role);
	setm(metrics, 100 * kern / total, "profile.%s.kernel_pct", role);
	setm(metrics, 100 * unres / total, "profile.%s.unresolved_pct",
	     role);
	if (100 * unres / total > 5) {
		msg = kb_xasprintf("profile: kernel symbols unresolved "
				   "(kptr_restrict?): %.2f%% of %s samples are "
				   "raw [k] addresses; group shares n/a - set "
				   "kernel.kptr_restrict=0 (as root) and rerun",
				   100 * unres / total, role);
		json_array_append_new(warnings, json_string(msg));
		free(msg);
		return;
	}
	for (i = 0; i < gs->n; i++) {
		w[i] = perf_report_group_weight(e, gs, i);
		setm(metrics, 100 * w[i] / total, "profile.%s.%s.total_pct",
		     role, gs->g[i].name);
		if (gs->g[i].parent < 0)
			top += w[i];
	}
	for (i = 0; i < gs->n; i++) {
		int pa = gs->g[i].parent;

		if (pa >= 0 && w[pa] > 0)
			setm(metrics, 100 * w[i] / w[pa], "profile.%s.%s.%s_pct",
			     role, gs->g[i].name, gs->g[pa].name);
	}
	setm(metrics, 100 * (total - top) / total, "profile.%s.other_pct",
	     role);
}
