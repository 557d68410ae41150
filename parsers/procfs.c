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

void procfs_cpu_metrics(const struct kb_cpu_ticks *a,
			const struct kb_cpu_ticks *b, json_t *metrics)
{
	double user = delta(a->user, b->user), nice = delta(a->nice, b->nice);
	double sys = delta(a->system, b->system), idle = delta(a->idle, b->idle);
	double iow = delta(a->iowait, b->iowait), irq = delta(a->irq, b->irq);
	double sirq = delta(a->softirq, b->softirq);
	double steal = delta(a->steal, b->steal);
	double total = user + nice + sys + idle + iow + irq + sirq + steal;

	if (total <= 0)
		return;
	set_real(metrics, "cpu.user_pct", 100.0 * user / total);
	set_real(metrics, "cpu.nice_pct", 100.0 * nice / total);
	set_real(metrics, "cpu.system_pct", 100.0 * sys / total);
	set_real(metrics, "cpu.iowait_pct", 100.0 * iow / total);
	set_real(metrics, "cpu.irq_pct", 100.0 * irq / total);
	set_real(metrics, "cpu.softirq_pct", 100.0 * sirq / total);
	set_real(metrics, "cpu.idle_pct", 100.0 * idle / total);
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
