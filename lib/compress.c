/* lib/compress.c - see compress.h. */
#include "lib/compress.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

int kb_compress_file_zstd(const char *src, const char *dst)
{
	char *in = NULL, *out;
	size_t len, cap, n;
	int ret;

	ret = kb_read_file(src, &in, &len, 0);
	if (ret)
		return ret;
	cap = ZSTD_compressBound(len);
	out = kb_xmalloc(cap ? cap : 1);
	n = ZSTD_compress(out, cap, in, len, KB_ZSTD_LEVEL);
	if (ZSTD_isError(n)) {
		kb_error("%s: zstd compression failed: %s", src,
			 ZSTD_getErrorName(n));
		ret = -ENOMEM;
	} else {
		ret = kb_write_atomic(dst, out, n);
	}
	free(out);
	free(in);
	return ret;
}
