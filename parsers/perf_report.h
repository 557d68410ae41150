/* parsers/perf_report.h - perf report output -> per-symbol sample weights
 * -> shares of symbol groups (the oprofile-style "Total" / "I/O Code"
 * columns of ../shared/seeds/000).
 *
 * Input: `perf report --stdio` text (perf-report(1)), in any of these
 * shapes: the default columns (Overhead Command Shared Object Symbol),
 * --children (Children Self ...: the Self column is used, as Self sums to
 * 100%), perf 5.1+'s "IPC   [IPC Coverage]" columns after the symbol
 * (cut off it), folded call-chain lines under entries (skipped), -F with a
 * Samples column, and -t SEP (field separator, e.g. '|').  "# Samples: N
 * of event 'E'" starts the section of event E ("# Samples: 0 of event
 * 'dummy:HG'" sections are empty); "# Total Lost Samples: N" gives the
 * lost samples (PERF_RECORD_LOST_SAMPLES), perf's own warnings
 * "Processed N samples and lost X%!" and "Processed N events and lost M
 * chunks!" (on perf report's stderr: perf_report_scan_lost()) and the
 * --stats lines "SAMPLE events: N" / "LOST events: M" the samples kept
 * and the chunks of events lost (PERF_RECORD_LOST, ring buffer overrun).  A data line is one whose first field is a percentage
 * and which holds a "[x]" marker ([k] kernel, [.] user, [g] [u] [H]
 * guest/hypervisor); the symbol is the rest of the line after it.  A
 * percentage (and an IPC column) may have a decimal comma, "12,34%", as
 * perf writes it with LC_NUMERIC=de_DE.  Weights
 * are sample counts when a Samples column is present, else the overhead
 * percentages.  A kernel symbol printed as a hex address ("[k]
 * 0xffffffff81a3c5e0") means kernel symbols could not be resolved
 * (kptr_restrict, ../shared/cases/B22): such samples are counted as
 * unresolved, never matched against groups.
 *
 * Symbol groups (profiles/symbols.conf): INI-like, "[NAME]" starts a group,
 * "parent = NAME" names its parent group (defined earlier), every other
 * line is one fnmatch(3) glob on kernel function names; ';' or '#' starts
 * a comment.  A kernel symbol belongs to the deepest group that has a
 * matching pattern (file order breaks ties) and to all that group's
 * ancestors; so top-level groups are disjoint and a child's samples are
 * a subset of its parent's.
 */
#ifndef KB_PERF_REPORT_H
#define KB_PERF_REPORT_H

#include <stddef.h>
#include <jansson.h>

#define KB_PROF_MAX_EVENTS 8
#define KB_MAX_SYM_GROUPS 32

struct kb_sym_group {
	char *name;
	int parent;		/* index of the parent group, -1 = none */
	int depth;		/* 0 for top level */
	char **patterns;
	size_t npatterns;
};

struct kb_sym_groups {
	struct kb_sym_group g[KB_MAX_SYM_GROUPS];
	size_t n;
};

/* Parse symbols.conf text.  0, or -EINVAL with every error printed as
 * "NAME:LINE: what". */
int symgroups_parse(const char *name, const char *text,
		    struct kb_sym_groups *groups);
void symgroups_free(struct kb_sym_groups *groups);

struct kb_prof_sym {
	char *sym;
	int kernel;		/* [k] */
	int unresolved;		/* [k] 0x... */
	double weight;
};

struct kb_prof_event {
	char event[96];		/* "cycles", "cpu-clock", "cycles:pp" */
	struct kb_prof_sym *syms;
	size_t nsyms;
	double total;		/* sum of weights */
	int weights_are_samples;	/* 1: counts, 0: percentages */
};

struct kb_profile {
	struct kb_prof_event ev[KB_PROF_MAX_EVENTS];
	size_t nev;
	long long lost_samples;	/* -1 when the report does not say */
	long long lost_chunks;	/* PERF_RECORD_LOST records, -1 = unknown */
	long long samples_seen;	/* samples perf processed, -1 = unknown */
	double lost_pct_said;	/* perf's "lost X%", -1 = not said */
	int kptr_warning;	/* perf warned that kernel maps are restricted */
};

/* Parse a perf report text.  default_event names the section of data
 * lines that come before any "# Samples:" line (B22 has none).  0, or
 * -EINVAL (message naming name) when no data line was found at all. */
int perf_report_parse(const char *name, const char *text,
		      const char *default_event, struct kb_profile *p);
void perf_report_free(struct kb_profile *p);

/* Read the lost-sample lines (see above) of text, e.g. perf report's
 * stderr, into p (after perf_report_parse()). */
void perf_report_scan_lost(const char *text, struct kb_profile *p);

/* The samples a profile lost: profile.lost_samples and profile.lost_pct
 * (100 * lost / (lost + kept); kept = the Samples column summed over the
 * events, else perf's own count; perf's own "lost X%" when neither is
 * known) into metrics; for any loss (samples or chunks of events) a
 * warning and a flag, both starting "profile:", since the shares are
 * then those of the samples kept, not of the run. */
void perf_report_lost(const struct kb_profile *p, json_t *metrics,
		      json_t *warnings, json_t *flags);

/* Weight of group gi in event e (its subtree), and of kernel symbols. */
double perf_report_group_weight(const struct kb_prof_event *e,
				const struct kb_sym_groups *groups, size_t gi);

/* Add for the event e, under the role name (metric component: "cycles",
 * "dcm"): profile.ROLE.samples (when weights are counts),
 * profile.ROLE.kernel_pct, profile.ROLE.unresolved_pct (kernel samples
 * shown as raw addresses, percent of all), and - unless more than 5% of
 * all samples are unresolved, which makes group shares meaningless (a
 * warning says so) - for each group G: profile.ROLE.G.total_pct (percent
 * of all samples) and, for a group with a parent P,
 * profile.ROLE.G.P_pct (percent of P's samples, when P has any), and
 * profile.ROLE.other_pct (samples in no top-level group). */
void perf_report_metrics(const struct kb_prof_event *e, const char *role,
			 const struct kb_sym_groups *groups, json_t *metrics,
			 json_t *warnings);

#endif
