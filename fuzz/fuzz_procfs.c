/* fuzz/fuzz_procfs.c - libFuzzer harness of the /proc parsers
 * (parsers/procfs.h): the input, NUL-terminated, as /proc/stat,
 * /proc/diskstats (devices sda and loop0), a pressure snapshot and a
 * cpufreq snapshot, and the metrics of each against itself.  `make fuzz`
 * builds and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "lib/err.h"
#include "parsers/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_cpu_ticks t;
	struct kb_diskstats d;
	struct kb_pressure pr;
	struct kb_cpufreq f;
	json_t *m = json_object(), *un = json_object(), *w = json_array();
	char why[256];
	char *text = fuzz_cstr(data, size);

	if (!text || !m || !un || !w)
		goto out;
	kb_silent = 1;
	memset(&t, 0, sizeof(t));
	if (procfs_parse_stat("stat", text, &t) == 0)
		procfs_cpu_metrics(&t, &t, m, un, why, sizeof(why));
	memset(&d, 0, sizeof(d));
	if (procfs_parse_diskstats("diskstats", text, "sda", &d) == 0)
		procfs_disk_metrics(&d, &d, m);
	procfs_parse_diskstats("diskstats", text, "loop0", &d);
	memset(&pr, 0, sizeof(pr));
	if (procfs_parse_pressure("pressure", text, &pr) == 0)
		procfs_psi_metrics(&pr, &pr, m, un, w);
	memset(&f, 0, sizeof(f));
	procfs_parse_cpufreq(text, &f);
	procfs_cpufreq_metrics(&f, &f, m, un);
out:
	json_decref(m);
	json_decref(un);
	json_decref(w);
	free(text);
	return 0;
}
