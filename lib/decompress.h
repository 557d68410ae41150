/* lib/decompress.h - read a file that may be compressed: the kernel
 * modules of Debian 12's 6.12 kernels are .ko.xz, other distributions
 * ship .ko.zst or .ko.gz, and the vm driver's initramfs needs plain .ko
 * files (busybox insmod loads them as they are).
 *
 * Formats, recognised by their magic bytes, and the library that reads
 * each:
 *   xz    FD 37 7A 58 5A 00   liblzma (lzma_stream_decoder; concatenated
 *                             streams allowed, as xz(1) allows them)
 *   zstd  28 B5 2F FD         libzstd (ZSTD_decompressStream; several
 *                             frames and skippable frames allowed)
 *   gzip  1F 8B               zlib (inflate with gzip framing; several
 *                             members allowed, as gzip(1) allows them)
 * Anything else is returned as it is, unless the file name ends in
 * ".xz", ".zst" or ".gz" (then the missing magic is an error: the file
 * is not what its name says).  Trailing bytes after the compressed data
 * are an error, not ignored.
 *
 * The decompressed size is capped (KB_DECOMPRESS_MAX) so a hostile or
 * corrupt file (a decompression bomb) cannot exhaust memory; the xz
 * decoder's own memory use is capped the same way.
 */
#ifndef KB_DECOMPRESS_H
#define KB_DECOMPRESS_H

#include <stddef.h>

/* The largest decompressed output kb_decompress_file() accepts: 256 MiB,
 * far more than any module the guest loads (virtio, 9p, null_blk). */
#define KB_DECOMPRESS_MAX ((size_t)256 << 20)

/* Read path into a malloc'd, NUL-terminated buffer (*len: the byte count
 * without the NUL), decompressed when it is xz, zstd or gzip data (see
 * above).  0; or -errno with a message naming the file: the read's
 * errors (-ENOENT, ...), -EBADMSG for corrupt or truncated data or a
 * name whose suffix does not match the contents, -EFBIG when the data
 * decompresses to more than KB_DECOMPRESS_MAX bytes, -ENOMEM when a
 * decoder cannot get memory.  *out is NULL on error. */
int kb_decompress_file(const char *path, char **out, size_t *len);

/* The same for len bytes at in, with an explicit cap (max bytes of
 * output); name is used for the format check by suffix and in
 * messages. */
int kb_decompress_buf(const char *name, const void *in, size_t inlen,
		      size_t max, char **out, size_t *len);

/* len bytes at in that must be xz, zstd or gzip data (no other bytes
 * returned as they are), decompressed with the cap max, nothing printed:
 * 0, or -errno as kb_decompress_buf() (-EBADMSG for data of none of the
 * three formats too) with why[0..wlen) saying what failed. */
int kb_decompress_data(const void *in, size_t inlen, size_t max, char **out,
		       size_t *len, char *why, size_t wlen);

#endif
