/* lib/decompress.c - xz (liblzma), zstd (libzstd) and gzip (zlib)
 * decompression of whole files, capped (see decompress.h). */
#include "lib/decompress.h"
#include "lib/err.h"
#include "lib/file.h"

#include <errno.h>
#include <limits.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

/* The xz decoder's memory limit (its dictionary, at most 1.5 GiB in the
 * format; xz -9 uses 64 MiB). */
#define KB_XZ_MEMLIMIT ((uint64_t)256 << 20)

/* The output: grows by doubling up to max + 1 bytes (one byte more than
 * allowed tells "too big" from "exactly max"), plus room for a NUL. */
struct obuf {
	char *p;
	size_t len, cap, max;
};

/* Room for at least one more byte; -EFBIG past max. */
static int obuf_room(struct obuf *o)
{
	size_t ncap;

	if (o->len < o->cap)
		return 0;
	if (o->cap > o->max)
		return -EFBIG;
	ncap = o->cap ? o->cap * 2 : 65536;
	if (ncap > o->max + 1 || ncap < o->cap)
		ncap = o->max + 1;
	o->p = kb_xrealloc(o->p, ncap + 1);
	o->cap = ncap;
	return 0;
}

/* Each decoder: 0, or -errno with why (a sentence without the file
 * name) filled in. */
typedef int (*decode_fn)(const unsigned char *in, size_t inlen,
			 struct obuf *o, char *why, size_t wlen);

static int truncated(char *why, size_t wlen)
{
	kb_fmt(why, wlen, "truncated data (the file ends inside the "
	       "compressed stream)");
	return -EBADMSG;
}

static int un_xz(const unsigned char *in, size_t inlen, struct obuf *o,
		 char *why, size_t wlen)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret r;
	int ret = 0;

	r = lzma_stream_decoder(&s, KB_XZ_MEMLIMIT, LZMA_CONCATENATED);
	if (r != LZMA_OK) {
		kb_fmt(why, wlen, "cannot start the decoder (liblzma error "
		       "%d)", (int)r);
		return -ENOMEM;
	}
	s.next_in = in;
	s.avail_in = inlen;
	for (;;) {
		ret = obuf_room(o);
		if (ret)
			break;
		s.next_out = (uint8_t *)o->p + o->len;
		s.avail_out = o->cap - o->len;
		/* all the input is there: LZMA_FINISH from the start */
		r = lzma_code(&s, LZMA_FINISH);
		o->len = o->cap - s.avail_out;
		if (r == LZMA_STREAM_END)
			break;
		if (r == LZMA_OK)
			continue;
		switch (r) {
		case LZMA_BUF_ERROR:
			ret = truncated(why, wlen);
			break;
		case LZMA_MEM_ERROR:
			kb_fmt(why, wlen, "out of memory");
			ret = -ENOMEM;
			break;
		case LZMA_MEMLIMIT_ERROR:
			kb_fmt(why, wlen, "the decoder would need more than "
			       "%llu MiB of memory",
			       (unsigned long long)(KB_XZ_MEMLIMIT >> 20));
			ret = -EFBIG;
			break;
		case LZMA_FORMAT_ERROR:
			kb_fmt(why, wlen, "not an xz stream, or trailing "
			       "bytes after one");
			ret = -EBADMSG;
			break;
		case LZMA_OPTIONS_ERROR:
			kb_fmt(why, wlen, "unsupported xz options");
			ret = -EBADMSG;
			break;
		case LZMA_DATA_ERROR:
			kb_fmt(why, wlen, "corrupt data (liblzma: "
			       "LZMA_DATA_ERROR)");
			ret = -EBADMSG;
			break;
		default:
			kb_fmt(why, wlen, "corrupt data (liblzma error %d)",
			       (int)r);
			ret = -EBADMSG;
			break;
		}
		break;
	}
	lzma_end(&s);
	return ret;
}

static int un_zstd(const unsigned char *in, size_t inlen, struct obuf *o,
		   char *why, size_t wlen)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { in, inlen, 0 };
	size_t r;
	int ret = 0;

	if (!d) {
		kb_fmt(why, wlen, "cannot start the decoder (out of memory)");
		return -ENOMEM;
	}
	/* the default window limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT, 128 MiB)
	 * bounds the decoder's memory */
	for (;;) {
		ZSTD_outBuffer ob;

		ret = obuf_room(o);
		if (ret)
			break;
		ob.dst = o->p;
		ob.size = o->cap;
		ob.pos = o->len;
		r = ZSTD_decompressStream(d, &ob, &ib);
		o->len = ob.pos;
		if (ZSTD_isError(r)) {
			kb_fmt(why, wlen, "corrupt data (libzstd: %s)",
			       ZSTD_getErrorName(r));
			ret = ZSTD_getErrorCode(r) ==
			      ZSTD_error_memory_allocation ? -ENOMEM : -EBADMSG;
			break;
		}
		if (ib.pos == ib.size && r == 0)
			break;	/* the last frame is complete */
		if (ib.pos == ib.size && ob.pos < ob.size) {
			ret = truncated(why, wlen);
			break;
		}
	}
	ZSTD_freeDCtx(d);
	return ret;
}

static int un_gzip(const unsigned char *in, size_t inlen, struct obuf *o,
		   char *why, size_t wlen)
{
	z_stream z;
	int r, ret = 0;

	if (inlen > UINT_MAX) {	/* zlib counts input in an unsigned int */
		kb_fmt(why, wlen, "more than 4 GiB of compressed data");
		return -EFBIG;
	}
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {	/* gzip framing */
		kb_fmt(why, wlen, "cannot start the decoder (out of memory)");
		return -ENOMEM;
	}
	z.next_in = (unsigned char *)in;
	z.avail_in = (unsigned)inlen;
	for (;;) {
		size_t room;

		ret = obuf_room(o);
		if (ret)
			break;
		room = o->cap - o->len;
		if (room > UINT_MAX)
			room = UINT_MAX;
		z.next_out = (unsigned char *)o->p + o->len;
		z.avail_out = (unsigned)room;
		r = inflate(&z, Z_NO_FLUSH);
		o->len += room - z.avail_out;
		if (r == Z_STREAM_END) {
			if (!z.avail_in)
				break;
			/* another member follows (gzip(1) concatenates) */
			if (inflateReset(&z) != Z_OK) {
				kb_fmt(why, wlen, "zlib: cannot reset");
				ret = -EBADMSG;
				break;
			}
			continue;
		}
		if (r == Z_OK)
			continue;
		if (r == Z_BUF_ERROR && !z.avail_in) {
			ret = truncated(why, wlen);
		} else if (r == Z_MEM_ERROR) {
			kb_fmt(why, wlen, "out of memory");
			ret = -ENOMEM;
		} else {
			kb_fmt(why, wlen, "corrupt data (zlib: %s)",
			       z.msg ? z.msg : "error");
			ret = -EBADMSG;
		}
		break;
	}
	inflateEnd(&z);
	return ret;
}

static const struct format {
	const char *name;	/* "xz" */
	const char *lib;	/* "liblzma" */
	const char *suffix;	/* ".xz" */
	const char *magic;
	size_t mlen;
	const char *magic_text;
	decode_fn decode;
} formats[] = {
	{ "xz", "liblzma", ".xz", "\xFD" "7zXZ\0", 6, "FD 37 7A 58 5A 00",
	  un_xz },
	{ "zstd", "libzstd", ".zst", "\x28\xB5\x2F\xFD", 4, "28 B5 2F FD",
	  un_zstd },
	{ "gzip", "zlib", ".gz", "\x1F\x8B", 2, "1F 8B", un_gzip },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The format of in (NULL: not compressed); -EBADMSG with a message when
 * the name's suffix promises a format the magic bytes deny. */
static int pick_format(const char *name, const void *in, size_t inlen,
		       const struct format **f)
{
	size_t i;

	*f = NULL;
	for (i = 0; i < NFORMATS && !*f; i++)
		if (inlen >= formats[i].mlen &&
		    !memcmp(in, formats[i].magic, formats[i].mlen))
			*f = &formats[i];
	for (i = 0; i < NFORMATS; i++)
		if (ends_with(name, formats[i].suffix) && *f != &formats[i]) {
			kb_error("%s: not %s data (it does not start with "
				 "the %s magic bytes %s)", name,
				 formats[i].name, formats[i].name,
				 formats[i].magic_text);
			return -EBADMSG;
		}
	return 0;
}

/* why_out NULL: the error is printed naming name; else written there. */
static int decode(const char *name, const struct format *f,
		  const void *in, size_t inlen, size_t max, char **out,
		  size_t *len, char *why_out, size_t wlen)
{
	struct obuf o = { NULL, 0, 0, max };
	char why[256] = "";
	int ret;

	if (o.max > SIZE_MAX / 2)
		o.max = SIZE_MAX / 2;
	ret = f->decode(in, inlen, &o, why, sizeof(why));
	if (!ret && o.len > o.max)
		ret = -EFBIG;
	if (ret == -EFBIG && !why[0] && o.max % (1 << 20) == 0)
		kb_fmt(why, sizeof(why), "it decompresses to more than %zu "
		       "MiB, the limit; refused", o.max >> 20);
	else if (ret == -EFBIG && !why[0])
		kb_fmt(why, sizeof(why), "it decompresses to more than %zu "
		       "bytes, the limit; refused", o.max);
	if (ret) {
		if (why_out)
			kb_fmt(why_out, wlen, "%s data (%s): %s", f->name,
			       f->lib, why);
		else
			kb_error("%s: cannot decompress the %s data (%s): %s",
				 name, f->name, f->lib, why);
		free(o.p);
		return ret;
	}
	if (!o.p)
		o.p = kb_xmalloc(1);
	o.p[o.len] = '\0';
	*out = o.p;
	if (len)
		*len = o.len;
	return 0;
}

int kb_decompress_buf(const char *name, const void *in, size_t inlen,
		      size_t max, char **out, size_t *len)
{
	const struct format *f;
	int ret;

	*out = NULL;
	ret = pick_format(name, in, inlen, &f);
	if (ret)
		return ret;
	if (f)
		return decode(name, f, in, inlen, max, out, len, NULL, 0);
	*out = kb_xmalloc(inlen + 1);
	memcpy(*out, in, inlen);
	(*out)[inlen] = '\0';
	if (len)
		*len = inlen;
	return 0;
}

int kb_decompress_data(const void *in, size_t inlen, size_t max, char **out,
		       size_t *len, char *why, size_t wlen)
{
	const struct format *f;
	int ret;

	*out = NULL;
	if (wlen)
		why[0] = '\0';
	ret = pick_format("", in, inlen, &f);	/* "": no suffix to check */
	if (ret)
		return ret;
	if (!f) {
		kb_fmt(why, wlen, "not xz, zstd or gzip data (no magic "
		       "bytes of theirs)");
		return -EBADMSG;
	}
	return decode("", f, in, inlen, max, out, len, why, wlen);
}

int kb_decompress_file(const char *path, char **out, size_t *len)
{
	const struct format *f;
	char *data;
	size_t dlen;
	int ret;

	*out = NULL;
	ret = kb_read_file(path, &data, &dlen, 0);
	if (ret)
		return ret;
	ret = pick_format(path, data, dlen, &f);
	if (!ret && !f) {	/* plain: the buffer as read */
		*out = data;
		if (len)
			*len = dlen;
		return 0;
	}
	if (!ret)
		ret = decode(path, f, data, dlen, KB_DECOMPRESS_MAX, out, len,
			     NULL, 0);
	free(data);
	return ret;
}
