/* runner/quiet.c - wait for a quiet machine before a retry
 * (runner/quiet.h). */
#include "runner/quiet.h"
#include "parsers/procfs.h"
#include "lib/file.h"
#include "lib/proc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int kb_quiet_parse(const char *stat_text, const char *psi_text,
		   double time_s, struct kb_quiet_snap *s)
{
	struct kb_cpu_ticks t;
	const char *p, *tot;

	memset(s, 0, sizeof(*s));
	s->time_s = time_s;
	if (procfs_parse_stat("/proc/stat", stat_text, &t))
		return -EINVAL;
	s->busy = t.user + t.nice + t.system + t.irq + t.softirq;
	s->steal = t.steal;
	s->have_steal = t.nfields >= 8;
	s->total = s->busy + t.idle + t.iowait + t.steal;
	for (p = stat_text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, "cpu", 3) && isdigit((unsigned char)p[3]))
			s->ncpus++;
	if (!s->ncpus)
		s->ncpus = 1;
	/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=123" */
	if (psi_text && !strncmp(psi_text, "some ", 5) &&
	    (tot = strstr(psi_text, "total=")) &&
	    sscanf(tot + 6, "%llu", &s->psi_some_us) == 1)
		s->have_psi = 1;
	return 0;
}

int kb_quiet_snapshot(struct kb_quiet_snap *s)
{
	char *st = NULL, *psi = NULL;
	size_t len;
	int ret;

	ret = kb_read_file("/proc/stat", &st, &len, 1);
	if (ret)
		return ret;
	if (kb_read_file("/proc/pressure/cpu", &psi, &len, 1))
		psi = NULL;
	ret = kb_quiet_parse(st, psi, kb_mono_s(), s);
	free(st);
	free(psi);
	return ret;
}

int kb_quiet_sample_of(const struct kb_quiet_snap *a,
		       const struct kb_quiet_snap *b,
		       struct kb_quiet_sample *out)
{
	double total;

	out->busy_cpu_pct = out->steal_pct = out->psi_cpu_pct = NAN;
	if (b->total <= a->total || b->busy < a->busy ||
	    b->steal < a->steal || b->time_s <= a->time_s)
		return -ERANGE;
	total = (double)(b->total - a->total);
	out->busy_cpu_pct = (double)(b->busy - a->busy) / total *
			    (double)b->ncpus * 100.0;
	if (a->have_steal && b->have_steal)
		out->steal_pct = (double)(b->steal - a->steal) / total * 100.0;
	if (a->have_psi && b->have_psi && b->psi_some_us >= a->psi_some_us)
		out->psi_cpu_pct = (double)(b->psi_some_us - a->psi_some_us) *
				   1e-6 / (b->time_s - a->time_s) * 100.0;
	return 0;
}

/* v > limit, both known */
static int over(double v, double limit)
{
	return isfinite(v) && isfinite(limit) && v > limit;
}

int kb_quiet_judge(const struct kb_quiet_limits *l,
		   const struct kb_quiet_sample *s, char *why, size_t len)
{
	if (over(s->busy_cpu_pct, l->busy_cpu_pct))
		snprintf(why, len, "other tasks used %.0f%% of a CPU > %.0f%%",
			 s->busy_cpu_pct, l->busy_cpu_pct);
	else if (over(s->steal_pct, l->steal_pct))
		snprintf(why, len, "steal %.1f%% > %.1f%%", s->steal_pct,
			 l->steal_pct);
	else if (over(s->psi_cpu_pct, l->psi_cpu_pct))
		snprintf(why, len, "CPU pressure %.0f%% > %.0f%%",
			 s->psi_cpu_pct, l->psi_cpu_pct);
	else
		return 1;
	return 0;
}

#define KB_QUIET_RING (KB_QUIET_WINDOW_MS / KB_QUIET_STEP_MS + 1)

int kb_wait_quiet(const struct kb_quiet_limits *l, double max_wait_s,
		  const volatile sig_atomic_t *stop, double *waited_s,
		  char *why, size_t len)
{
	struct kb_quiet_snap ring[KB_QUIET_RING];
	struct timespec step = { KB_QUIET_STEP_MS / 1000,
				 (KB_QUIET_STEP_MS % 1000) * 1000000L };
	double t0 = kb_mono_s();
	size_t n;
	int ret;

	*waited_s = 0;
	snprintf(why, len, "not sampled");
	ret = kb_quiet_snapshot(&ring[0]);
	if (ret)
		return ret;
	n = 1;
	for (;;) {
		struct kb_quiet_sample s;
		const struct kb_quiet_snap *first, *last;

		if (stop && *stop)
			return 0;
		nanosleep(&step, NULL);
		ret = kb_quiet_snapshot(&ring[n % KB_QUIET_RING]);
		if (ret)
			return ret;
		n++;
		*waited_s = kb_mono_s() - t0;
		if (n >= KB_QUIET_RING) {
			/* the last window: the oldest snapshot in the ring
			 * to the newest */
			first = &ring[n % KB_QUIET_RING];
			last = &ring[(n - 1) % KB_QUIET_RING];
			if (!kb_quiet_sample_of(first, last, &s) &&
			    kb_quiet_judge(l, &s, why, len))
				return 1;
		}
		if (*waited_s >= max_wait_s)
			return 0;
	}
}
