/* runner/guest_binary.h - which kbench binary a vm guest runs.
 *
 * A guest's initramfs gets `kbench guest` (runner/initramfs.h).  The
 * Makefile links kbench twice from the same objects: build/kbench
 * (shared libraries) and build/kbench-guest (static, stripped, with the
 * same explicit build ID; installed as PREFIX/libexec/kbench/kbench-guest).
 * The twin is one file of about 3 MB where kbench and its ten libraries
 * are about 10 MB: under TCG the kernel unpacks an initramfs at about
 * 20 ms a MB and the dynamic loader's work before main() is gone too
 * (issue 16: 0.2-0.3 s of a 3.5 s start to the first run).  A twin of
 * another build (kbench rebuilt without `make`, a stale install) is not
 * used: the guest and the host must be the same code.
 */
#ifndef KB_GUEST_BINARY_H
#define KB_GUEST_BINARY_H

struct kb_guest_kbench {
	char *path;	/* malloc'd: the binary for /usr/bin/kbench in the
			 * guest (the twin, or exe itself) */
	int is_static;	/* 1: the twin: no shared libraries go with it */
	char *why;	/* malloc'd when !is_static: why not the twin,
			 * one clause for a note ("no static guest binary
			 * beside it (DIR/kbench-guest or ...)") */
};

/* The kbench binary for a guest of the kbench at exe (absolute path of
 * the running binary): the first of DIR/kbench-guest and
 * DIR/../libexec/kbench/kbench-guest (DIR = exe's directory) whose GNU
 * build ID (lib/buildid.h) equals exe's; else exe, with the reason of
 * the first candidate that exists (or that none does).  Never fails:
 * exe is the fallback, with the reason in g->why.  Free with
 * guest_kbench_free(). */
void guest_kbench_find(const char *exe, struct kb_guest_kbench *g);
void guest_kbench_free(struct kb_guest_kbench *g);

#endif
