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

/* "PATH:INO:SIZE:SEC.NSEC" of the binary tool names now, or NULL */
static char *binary_key(const char *tool)
{
	char *found = kb_which(tool), real[PATH_MAX], *key = NULL;
	struct stat st;

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
	char *key = binary_key(tool), *found;
	int prev = kb_silent, rc;

	if (key && records_tool_version_get(key, &out)) {
		free(key);
		return out;
	}
	/* an optional tool (perf) that is not installed is n/a in the
	 * environment, not an error: the campaign that needs it says so
	 * (a key means binary_key() found it: PATH is walked once) */
	if (!key) {
		found = kb_which(tool);
		if (!found)
			return NULL;
		free(found);
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
