/* results/artefacts.c - a run's raw artefacts, typed.  See artefacts.h. */
#include "results/artefacts.h"
#include "results/paths.h"
#include "lib/err.h"

#include <errno.h>
#include <stdlib.h>

int results_run_latency_bins(const char *dir, const char *key,
			     const char *direction, enum kb_lat_kind kind,
			     struct kb_lat_bins *out)
{
	char *path = kb_run_file(dir, key, "fio.json"), err[512];
	int ret = fio_lat_bins_file(path, direction, kind, out, err,
				    sizeof(err));

	if (ret < 0 && ret != -ENOENT)
		kb_warn("%s", err);
	free(path);
	return ret;
}
