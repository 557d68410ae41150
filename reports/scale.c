/* reports/scale.c - --prefix: a table of one metric's values written
 * as kernel developers post them (struct kb_scale, reports/table.h):
 * "4310k" IOPS (seed 002), a bandwidth in MiB/s or GiB/s named once in
 * the title (seed 003's "numbers expressed in GB/second"). */
#include "reports/table.h"
#include "lib/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A ladder of units: each step `step` times the one before.  on_cell:
 * the prefix is written on every cell (k, M: the unit stays the
 * metric's), else the step's name is the unit of the title. */
struct ladder {
	const char *unit;	/* the metric's unit (lib/metrics.h) */
	double step;
	int on_cell;
	const char *names[5];	/* NULL-terminated */
};

static const struct ladder ladders[] = {
	{ "IOPS", 1000, 1, { "", "k", "M", "G", "T" } },
	{ "count", 1000, 1, { "", "k", "M", "G", "T" } },
	{ "KiB/s", 1024, 0, { "KiB/s", "MiB/s", "GiB/s", "TiB/s", NULL } },
	{ "KiB", 1024, 0, { "KiB", "MiB", "GiB", "TiB", NULL } },
	{ "ns", 1000, 0, { "ns", "us", "ms", "s", NULL } },
	{ "ms", 1000, 0, { "ms", "s", NULL } },
};

/* The most integer digits a scaled value keeps: 4310k, not 4.31M
 * (seed 002), 1235 us, not 1.235 ms. */
#define SCALE_BELOW 9999.5

static const struct kb_metric_def *metric_def(const char *metric)
{
	return metric ? kb_metric_find_key(metric) : NULL;
}

int kb_scale_dec(const struct kb_scale *s, double maxabs)
{
	double m = fabs(maxabs) / s->div;
	int dec;

	if (!s->on)	/* as without --prefix */
		return s->metric_dec;
	if (!isfinite(m) || m <= 0)	/* all 0: "0k", "0.00" */
		return s->div == 1 ? s->metric_dec : 0;
	dec = 3 - (int)floor(log10(m));
	if (dec < 0)
		dec = 0;
	if (dec > 3)
		dec = 3;
	if (s->div == 1 && dec > s->metric_dec)
		dec = s->metric_dec;	/* 12 faults, not 12.000 */
	return dec;
}

void kb_scale_pick(struct kb_scale *s, const char *metric, int prefix,
		   double maxabs)
{
	const struct kb_metric_def *d = metric_def(metric);
	const struct ladder *l = NULL;
	size_t i, k = 0;

	s->div = 1;
	s->metric_dec = metric ? kb_metric_decimals(metric) : 2;
	s->on = 0;
	s->cell = "";
	s->unit = s->metric_unit = d ? d->unit : NULL;
	for (i = 0; d && i < sizeof(ladders) / sizeof(ladders[0]); i++)
		if (!strcmp(ladders[i].unit, d->unit))
			l = &ladders[i];
	if (prefix != KB_PREFIX_AUTO || !l) {
		s->dec = s->metric_dec;
		return;
	}
	maxabs = isfinite(maxabs) ? fabs(maxabs) : 0;
	s->on = 1;
	while (k + 1 < sizeof(l->names) / sizeof(*l->names) &&
	       l->names[k + 1] && maxabs / s->div >= SCALE_BELOW) {
		s->div *= l->step;
		k++;
	}
	if (l->on_cell)
		s->cell = l->names[k];
	else
		s->unit = l->names[k];
	s->dec = kb_scale_dec(s, maxabs);
}

int kb_cell_dec(int dec, double v)
{
	double x = fabs(v);
	char buf[64];
	int keep;

	/* a value that is not 0 never prints as one: 400 IOPS in a table
	 * of 4310k is "0.40k", not "0k" (a table of mixed magnitudes), a
	 * task's 0.5% of a CPU "0.50", not "0" (printf rounds 0.5 to even:
	 * what it prints decides, not a bound) */
	if (!isfinite(x) || x == 0 || x >= 1)
		return dec;
	snprintf(buf, sizeof(buf), "%.*f", dec, x);
	if (strpbrk(buf, "123456789"))
		return dec;
	keep = (int)ceil(-log10(x)) + 1;	/* its first 2 digits */
	if (keep > KB_CELL_DEC_MAX)	/* 1e-300: not a 300-column cell */
		keep = KB_CELL_DEC_MAX;
	return keep > dec ? keep : dec;
}

int kb_scale_cell_dec(const struct kb_scale *s, int dec, double v)
{
	return kb_cell_dec(dec, v / s->div);
}

void kb_table_set_scaled(struct kb_table *t, size_t row, size_t col,
			 const struct kb_scale *s, int dec, double v)
{
	kb_table_set(t, row, col, "%.*f%s", kb_scale_cell_dec(s, dec, v),
		     v / s->div, s->cell);
}

void kb_scale_note(struct kb_table *t, const struct kb_scale *s)
{
	static const char *const powers[] = { "", "k = 10^3", "M = 10^6",
					      "G = 10^9", "T = 10^12" };
	double d = s->div;
	size_t k = 0;

	if (!*s->cell)
		return;
	while (d >= 1000 && k + 1 < sizeof(powers) / sizeof(*powers)) {
		d /= 1000;
		k++;
	}
	/* --prefix auto, or kernels.conf's prefix = auto */
	kb_table_add_note(t, "%s (prefix auto; not 2^10)", powers[k]);
}
