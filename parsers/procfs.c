#include "parsers/procfs.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

int procfs_parse_stat(const char *name, const char *text,
		      struct kb_cpu_ticks *t)
{
	const char *p = text;

	memset(t, 0, sizeof(*t));
	while (p && *p) {
		if (!strncmp(p, "cpu ", 4)) {
			int n = sscanf(p + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
				       &t->user, &t->nice, &t->system,
				       &t->idle, &t->iowait, &t->irq,
				       &t->softirq, &t->steal);
			t->nfields = n;
			if (n < 4) {
				kb_error("%s: malformed 'cpu' line (expected "
					 "at least 4 tick counts)", name);
				return -EINVAL;
			}
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	kb_error("%s: no 'cpu' line (is this a /proc/stat snapshot?)", name);
	return -EINVAL;
}

int procfs_parse_diskstats(const char *name, const char *text,
			   const char *dev, struct kb_diskstats *d)
{
	const char *p = text;
	int lineno = 0;

	memset(d, 0, sizeof(*d));
	while (p && *p) {
		unsigned maj, min;
		char devname[64];
		int n;

		lineno++;
		n = sscanf(p, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu "
			      "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &maj, &min, devname, &d->rd_ios, &d->rd_merges,
			   &d->rd_sectors, &d->rd_ticks, &d->wr_ios,
			   &d->wr_merges, &d->wr_sectors, &d->wr_ticks,
			   &d->in_flight, &d->io_ticks, &d->time_in_queue,
			   &d->dc_ios, &d->dc_merges, &d->dc_sectors,
			   &d->dc_ticks);
		if (n >= 3 && !strcmp(devname, dev)) {
			if (n < 14) {
				kb_error("%s:%d: diskstats line for %s has %d "
					 "fields (expected at least 14)", name,
					 lineno, dev, n);
				return -EINVAL;
			}
			d->has_discard = n >= 18;
			if (!d->has_discard)
				d->dc_ios = d->dc_merges = d->dc_sectors =
					d->dc_ticks = 0;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	memset(d, 0, sizeof(*d));
	return -ENOENT;
}

static void set_real(json_t *m, const char *k, double v)
{
	json_object_set_new(m, k, json_real(v));
}

static unsigned long long delta(unsigned long long a, unsigned long long b)
{
	return b >= a ? b - a : 0;
}

static const char *const cpu_fields[] = { "user", "nice", "system",
	"idle", "iowait", "irq", "softirq", "steal" };
static const char *const cpu_metric[] = { "cpu.user_pct", "cpu.nice_pct",
	"cpu.system_pct", "cpu.idle_pct", "cpu.iowait_pct", "cpu.irq_pct",
	"cpu.softirq_pct", "cpu.steal_pct" };

static void ticks_array(const struct kb_cpu_ticks *t,
			unsigned long long v[8])
{
	v[0] = t->user; v[1] = t->nice; v[2] = t->system; v[3] = t->idle;
	v[4] = t->iowait; v[5] = t->irq; v[6] = t->softirq; v[7] = t->steal;
}

int procfs_cpu_metrics(const struct kb_cpu_ticks *a,
		       const struct kb_cpu_ticks *b, json_t *metrics,
		       json_t *unavailable, char *why, size_t whylen)
{
	unsigned long long va[8], vb[8];
	int nf = a->nfields < b->nfields ? a->nfields : b->nfields;
	double d[8], total = 0;
	int i;

	/* structs filled by hand (tests) may leave nfields 0: all 8 */
	if (nf <= 0 || nf > 8)
		nf = 8;
	ticks_array(a, va);
	ticks_array(b, vb);
	for (i = 0; i < nf; i++) {
		if (vb[i] < va[i]) {
			char msg[200];
			int k;

			snprintf(msg, sizeof(msg), "/proc/stat %s ticks went "
				 "backwards between the snapshots (%llu -> "
				 "%llu): cpu.* shares dropped", cpu_fields[i],
				 va[i], vb[i]);
			if (why && whylen)
				snprintf(why, whylen, "%s", msg);
			for (k = 0; unavailable && k < 8; k++)
				json_object_set_new(unavailable, cpu_metric[k],
						    json_string(msg));
			return -ERANGE;
		}
		d[i] = (double)(vb[i] - va[i]);
		total += d[i];
	}
	if (total <= 0)
		return 0;
	for (i = 0; i < nf; i++)
		set_real(metrics, cpu_metric[i], 100.0 * d[i] / total);
	if (nf < 8 && unavailable)
		json_object_set_new(unavailable, "cpu.steal_pct", json_string(
			"/proc/stat has no steal column (kernel before "
			"2.6.11)"));
	return 0;
}

static const char *const psi_names[KB_PSI_N] = { "cpu", "io", "memory" };

int procfs_parse_pressure(const char *name, const char *text,
			  struct kb_pressure *p)
{
	const char *l = text;
	int have_time = 0;

	memset(p, 0, sizeof(*p));
	for (int r = 0; r < KB_PSI_N; r++)
		snprintf(p->res[r].reason, sizeof(p->res[r].reason),
			 "/proc/pressure/%s not in the snapshot", psi_names[r]);
	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char line[512];

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, l, len);
		line[len] = '\0';
		if (sscanf(line, "time_ns %llu", &p->time_ns) == 1)
			have_time = 1;
		for (int r = 0; r < KB_PSI_N; r++) {
			size_t nlen = strlen(psi_names[r]);
			const char *rest, *tot;

			if (strncmp(line, psi_names[r], nlen) ||
			    line[nlen] != ' ')
				continue;
			rest = line + nlen + 1;
			if (!strncmp(rest, "unavailable: ", 13)) {
				snprintf(p->res[r].reason,
					 sizeof(p->res[r].reason), "%s",
					 rest + 13);
			} else if (!strncmp(rest, "some ", 5) &&
				   (tot = strstr(rest, "total=")) &&
				   sscanf(tot + 6, "%llu",
					  &p->res[r].some_us) == 1) {
				p->res[r].have = 1;
				p->res[r].reason[0] = '\0';
			}
		}
		l = nl ? nl + 1 : NULL;
	}
	if (!have_time) {
		kb_error("%s: no 'time_ns' line (is this a pressure snapshot "
			 "kbench wrote?)", name);
		return -EINVAL;
	}
	return 0;
}

void procfs_psi_metrics(const struct kb_pressure *a,
			const struct kb_pressure *b, json_t *metrics,
			json_t *unavailable, json_t *warnings)
{
	double span_us = b->time_ns > a->time_ns ?
		(double)(b->time_ns - a->time_ns) / 1000.0 : 0;

	for (int r = 0; r < KB_PSI_N; r++) {
		const struct kb_psi_res *x = &a->res[r], *y = &b->res[r];
		char key[32], msg[256];

		snprintf(key, sizeof(key), "psi.%s_some_pct", psi_names[r]);
		if (!x->have || !y->have) {
			if (unavailable)
				json_object_set_new(unavailable, key,
					json_string(!x->have ? x->reason :
						    y->reason));
			continue;
		}
		if (y->some_us < x->some_us) {
			snprintf(msg, sizeof(msg), "/proc/pressure/%s some "
				 "total went backwards (%llu -> %llu us): %s "
				 "dropped", psi_names[r], x->some_us,
				 y->some_us, key);
			if (warnings)
				json_array_append_new(warnings,
						      json_string(msg));
			if (unavailable)
				json_object_set_new(unavailable, key,
						    json_string(msg));
			continue;
		}
		if (span_us <= 0) {
			if (unavailable)
				json_object_set_new(unavailable, key,
					json_string("no time elapsed between "
						    "the pressure snapshots"));
			continue;
		}
		set_real(metrics, key,
			 100.0 * (double)(y->some_us - x->some_us) / span_us);
	}
}

int procfs_parse_cpufreq(const char *text, struct kb_cpufreq *f)
{
	const char *l = text;

	memset(f, 0, sizeof(*f));
	snprintf(f->reason, sizeof(f->reason), "empty cpufreq snapshot");
	while (l && *l) {
		unsigned cpu;
		unsigned long long khz;

		if (!strncmp(l, "unavailable: ", 13)) {
			const char *nl = strchr(l, '\n');
			int len = nl ? (int)(nl - l - 13) : (int)strlen(l + 13);

			snprintf(f->reason, sizeof(f->reason), "%.*s", len,
				 l + 13);
		} else if (sscanf(l, "cpu%u %llu", &cpu, &khz) == 2) {
			f->n++;
			f->sum_khz += (double)khz;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	if (f->n)
		f->reason[0] = '\0';
	return 0;
}

void procfs_cpufreq_metrics(const struct kb_cpufreq *a,
			    const struct kb_cpufreq *b, json_t *metrics,
			    json_t *unavailable)
{
	if (!a->n || !b->n) {
		if (unavailable)
			json_object_set_new(unavailable, "cpu.freq_mhz",
				json_string(!a->n ? a->reason : b->reason));
		return;
	}
	set_real(metrics, "cpu.freq_mhz",
		 (a->sum_khz + b->sum_khz) / (a->n + b->n) / 1000.0);
}

void procfs_disk_metrics(const struct kb_diskstats *a,
			 const struct kb_diskstats *b, json_t *metrics)
{
	unsigned long long rio = delta(a->rd_ios, b->rd_ios);
	unsigned long long wio = delta(a->wr_ios, b->wr_ios);
	unsigned long long dio = delta(a->dc_ios, b->dc_ios);
	unsigned long long rm = delta(a->rd_merges, b->rd_merges);
	unsigned long long wm = delta(a->wr_merges, b->wr_merges);
	unsigned long long dm = delta(a->dc_merges, b->dc_merges);

	json_object_set_new(metrics, "disk.read_ios", json_integer(rio));
	json_object_set_new(metrics, "disk.read_merges", json_integer(rm));
	json_object_set_new(metrics, "disk.read_sectors",
			    json_integer(delta(a->rd_sectors, b->rd_sectors)));
	json_object_set_new(metrics, "disk.write_ios", json_integer(wio));
	json_object_set_new(metrics, "disk.write_merges", json_integer(wm));
	json_object_set_new(metrics, "disk.write_sectors",
			    json_integer(delta(a->wr_sectors, b->wr_sectors)));
	json_object_set_new(metrics, "disk.ios", json_integer(rio + wio + dio));
	json_object_set_new(metrics, "disk.merges", json_integer(rm + wm + dm));
	json_object_set_new(metrics, "disk.io_ticks_ms",
			    json_integer(delta(a->io_ticks, b->io_ticks)));
}

int procfs_notes_build_id(const unsigned char *buf, size_t len, char *hex,
			  size_t hexlen)
{
	size_t p = 0, i;

	while (p + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_at = p + 12, desc_at, next;

		memcpy(&namesz, buf + p, 4);
		memcpy(&descsz, buf + p + 4, 4);
		memcpy(&type, buf + p + 8, 4);
		desc_at = name_at + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_at + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || next > len || next <= p)
			return -EINVAL;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_at, "GNU", 4)) {
			if (!descsz || hexlen < 2 * (size_t)descsz + 1)
				return -EINVAL;
			for (i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x",
					 buf[desc_at + i]);
			return 0;
		}
		p = next;
	}
	return -ENOENT;
}

/* The first line of path, or NULL (malloc'd). */
static char *first_line(const char *path)
{
	char *buf = NULL;

	if (kb_read_file(path, &buf, NULL, 1) < 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

void procfs_record_kernel(json_t *rec)
{
	struct utsname u;
	char *pv = first_line("/proc/version"), *mem = NULL, *notes = NULL;
	char hex[129];
	size_t nlen = 0;
	const char *m;

	if (uname(&u) == 0)
		json_object_set_new(rec, "kernel_release", json_string(u.release));
	if (pv)
		json_object_set_new(rec, "proc_version", json_string(pv));
	free(pv);
	if (kb_read_file("/sys/kernel/notes", &notes, &nlen, 1) == 0 &&
	    procfs_notes_build_id((const unsigned char *)notes, nlen, hex,
				  sizeof(hex)) == 0)
		json_object_set_new(rec, "kernel_build_id", json_string(hex));
	free(notes);
	if (kb_read_file("/proc/meminfo", &mem, NULL, 1) == 0 &&
	    (m = strstr(mem, "MemTotal:")))
		json_object_set_new(rec, "mem_total_kib", json_integer(
			(json_int_t)strtoull(m + 9, NULL, 10)));
	free(mem);
}

int procfs_parse_taint(const char *text, unsigned long long *mask)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (end == text || errno == EINVAL || text[strspn(text, " ")] == '-' ||
	    (*end && *end != '\n'))
		return -EINVAL;
	if (errno == ERANGE || v > (unsigned long long)INT64_MAX)
		return -ERANGE;
	*mask = v;
	return 0;
}

int procfs_read_taint(unsigned long long *mask)
{
	char *t = NULL;
	int ret = kb_read_file("/proc/sys/kernel/tainted", &t, NULL, 1);

	if (!ret)
		ret = procfs_parse_taint(t, mask);
	free(t);
	return ret;
}

/* tainted-kernels.rst, "Table for decoding tainted state" */
static const char taint_letters[] = "PFSRMBUDAWCIOELKXTNJ";

const char *procfs_taint_meaning(char letter)
{
	switch (letter) {
	case 'P': return "a proprietary module loaded";
	case 'F': return "a module force-loaded";
	case 'S': return "a system out of its specification";
	case 'R': return "a module force-unloaded";
	case 'M': return "a machine check";
	case 'B': return "a bad page";
	case 'U': return "taint set from user space";
	case 'D': return "an oops or BUG";
	case 'A': return "an ACPI table overridden";
	case 'W': return "a kernel warning";
	case 'C': return "a staging driver loaded";
	case 'I': return "a firmware bug worked around";
	case 'O': return "an out-of-tree module loaded";
	case 'E': return "an unsigned module loaded";
	case 'L': return "a soft lockup";
	case 'K': return "a live patch applied";
	case 'X': return "an auxiliary (distribution) taint";
	case 'T': return "a struct-randomized build";
	case 'N': return "an in-kernel test run";
	case 'J': return "a mutating debug operation by fwctl";
	default: return NULL;
	}
}

char *procfs_taint_describe(unsigned long long mask)
{
	char *out = kb_xstrdup(""), *next;
	unsigned bit;

	for (bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		if (bit < sizeof(taint_letters) - 1)
			next = kb_xasprintf("%s%s%c (%s)", out, *out ? ", " :
					    "", taint_letters[bit],
					    procfs_taint_meaning(
						    taint_letters[bit]));
		else
			next = kb_xasprintf("%s%sbit %u (not in "
					    "tainted-kernels.rst)", out,
					    *out ? ", " : "", bit);
		free(out);
		out = next;
	}
	return out;
}
