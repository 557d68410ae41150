/* lib/compress.h - write a file zstd-compressed (RFC 8878 frames, libzstd
 * ZSTD_compress), for the artefacts a campaign keeps whole but rarely
 * reads: the perf report of every sampled run (runner/collect_profile.c)
 * is 5-10x smaller so.  lib/decompress.h reads them back (by magic). */
#ifndef KB_COMPRESS_H
#define KB_COMPRESS_H

/* zstd's level for kept artefacts: 9 compresses a perf report of a few
 * MiB in well under a second, within ~10% of level 19's size. */
#define KB_ZSTD_LEVEL 9

/* Compress the file src into dst (written atomically: lib/file.h
 * kb_write_atomic; src is left as it is).  0, or -errno with a message
 * naming the file: src unreadable, dst unwritable, -ENOMEM when zstd
 * cannot get memory. */
int kb_compress_file_zstd(const char *src, const char *dst);

#endif
