/* runner/tool_version.c - `TOOL --version` cached per binary
 * (runner/tool_version.h). */
#include "runner/tool_version.h"
#include "results/records.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/proc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* "PATH:INO:SIZE:SEC.NSEC" of the binary tool names now, or NULL;
 * *found: 1 when PATH has the tool at all */
static char *binary_key(const char *tool, int *found_out)
{
	char *found = kb_which(tool), real[PATH_MAX], *key = NULL;
	struct stat st;

	*found_out = found != NULL;

	if (found && realpath(found, real) && stat(real, &st) == 0)
		key = kb_xasprintf("%s:%llu:%lld:%lld.%09ld", real,
				   (unsigned long long)st.st_ino,
				   (long long)st.st_size,
				   (long long)st.st_mtim.tv_sec,
				   st.st_mtim.tv_nsec);
	free(found);
	return key;
}

char *kb_tool_version(const char *tool)
{
	char *argv[] = { (char *)tool, "--version", NULL }, *out = NULL;
	int prev = kb_silent, rc, found;
	char *key = binary_key(tool, &found);

	if (key && records_tool_version_get(key, &out)) {
		free(key);
		return out;
	}
	/* an optional tool (perf) that is not installed is n/a in the
	 * environment, not an error: the campaign that needs it says so
	 * (PATH is walked once, by binary_key()) */
	if (!found) {
		free(key);
		return NULL;
	}
	kb_silent = 1;
	rc = kb_capture(argv, &out);
	kb_silent = prev;
	if (rc != 0 || !out || !*out) {
		free(out);
		free(key);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	if (key)
		records_tool_version_put(key, out);
	free(key);
	return out;
}
