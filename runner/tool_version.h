/* runner/tool_version.h - the first line of `TOOL --version` (fio, perf)
 * for campaign.json's environment, asked once per binary and machine
 * boot rather than once per campaign (issue 16: `fio --version` and
 * `perf --version` were 28 ms of a one-run campaign's CPU).
 *
 * The answer is cached in $KBENCH_RUN_DIR/tool-versions.json (default
 * /run/kbench, emptied at boot; the record is results/records.h's),
 * keyed on the binary as it is now: the path found in $PATH with its
 * links resolved (realpath(3)), then st_ino, st_size and st_mtime in
 * ns, "PATH:INO:SIZE:SEC.NSEC".  An upgrade (dpkg writes a new file: a
 * new inode) or an edit in place (a new mtime or size) changes the key,
 * so the tool is asked again; an old key is left to the next boot's
 * empty /run.  Debian's /usr/bin/perf is a script that picks
 * perf_$(uname -r): the same key under another kernel would be stale,
 * which the per-boot cache also covers.
 */
#ifndef KB_TOOL_VERSION_H
#define KB_TOOL_VERSION_H

/* The first line of `tool --version` (tool: a name looked up in $PATH,
 * run from an argv array), from the cache when the key above matches;
 * malloc'd, or NULL when the tool is missing, fails or prints nothing
 * (nothing cached then).  Prints nothing either way: a tool that is not
 * installed is n/a in campaign.json, and the part of kbench that needs
 * it (profile =) says why it cannot run. */
char *kb_tool_version(const char *tool);

#endif
