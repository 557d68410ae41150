/* parsers/fio_json_stream.c - fio JSON read in one streaming pass (libyajl
 * callbacks), json+ bins into compact arrays.  See fio_json_stream.h. */
#include "parsers/fio_json_stream.h"
#include "lib/file.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

/* fio < 2.20 writes the histogram geometry beside the bins. */
#define PLAT_PREFIX "FIO_IO_U_PLAT_"

/* One open object or array. */
struct frame {
	json_t *c;		/* borrowed: its parent (or the root) holds it */
	int lat;		/* an object under a latency key ("clat_ns"...) */
	int bins;		/* a bins object: set is its pairs */
	size_t set;
	char *key;		/* objects: the key of the value to come */
	size_t keylen, keycap;
	int key_bin;		/* bins: the key is a latency value ... */
	unsigned long long bin_key;	/* ... this one */
};

struct sctx {
	struct frame *st;	/* st[0 .. depth) */
	int depth, cap;
	json_t *root;
	struct fio_bin_table *bt;
	int done;		/* the top-level value closed */
};

static struct frame *top(struct sctx *x)
{
	return x->depth ? &x->st[x->depth - 1] : NULL;
}

/* Is the value to come a bin count (a number, nothing else)? */
static int bin_pending(struct sctx *x)
{
	struct frame *f = top(x);

	return f && f->bins && f->key_bin;
}

/* Add v (a new reference, stolen; NULL: jansson refused it) where the
 * top frame expects its next value.  0 cancels the parse. */
static int add(struct sctx *x, json_t *v)
{
	struct frame *f = top(x);

	if (!v)
		return 0;
	if (!f) {
		x->root = v;
		return 1;
	}
	if (json_is_array(f->c))
		return json_array_append_new(f->c, v) == 0;
	/* checks the key's UTF-8 as jansson's parser does; last one wins */
	return json_object_setn_new(f->c, f->key, f->keylen, v) == 0;
}

static int cb_null(void *ctx)
{
	return !bin_pending(ctx) && add(ctx, json_null());
}

static int cb_boolean(void *ctx, int b)
{
	return !bin_pending(ctx) && add(ctx, json_boolean(b));
}

/* A bin's count: negative counts are left to jansson's reading (which
 * warns about them). */
static int bin_add(struct sctx *x, double count)
{
	struct frame *f = top(x);
	struct fio_bin_set *s = &x->bt->set[f->set];

	if (count < 0)
		return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->bin = kb_xrealloc(s->bin, s->cap * sizeof(*s->bin));
	}
	if (s->n && f->bin_key <= s->bin[s->n - 1].key)
		s->unsorted = 1;
	s->bin[s->n].key = f->bin_key;
	s->bin[s->n].count = count;
	s->n++;
	return 1;
}

static int cb_integer(void *ctx, long long v)
{
	if (bin_pending(ctx))
		return bin_add(ctx, (double)v);
	return add(ctx, json_integer(v));
}

static int cb_double(void *ctx, double v)
{
	if (bin_pending(ctx))
		return bin_add(ctx, v);
	return add(ctx, json_real(v));
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	if (bin_pending(ctx) || memchr(s, '\0', len))
		return 0;	/* jansson refuses \u0000 */
	return add(ctx, json_stringn((const char *)s, len));
}

/* A plain decimal uint64 ("0" or no leading zero), as fio writes bin
 * keys; else 0 (then jansson's reading decides what the key means). */
static int decimal_u64(const unsigned char *k, size_t len,
		       unsigned long long *v)
{
	unsigned long long r = 0;
	size_t i;

	if (!len || (k[0] == '0' && len > 1))
		return 0;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned)(k[i] - '0');

		if (d > 9 || r > (ULLONG_MAX - d) / 10)
			return 0;
		r = r * 10 + d;
	}
	*v = r;
	return 1;
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t len)
{
	struct frame *f = top(ctx);

	if (memchr(k, '\0', len))
		return 0;	/* jansson: "NUL byte in object key" */
	f->key_bin = 0;
	if (f->bins && !(len >= strlen(PLAT_PREFIX) &&
			 !memcmp(k, PLAT_PREFIX, strlen(PLAT_PREFIX)))) {
		if (!decimal_u64(k, len, &f->bin_key))
			return 0;
		f->key_bin = 1;
		return 1;
	}
	if (len + 1 > f->keycap) {
		f->keycap = len + 64;
		f->key = kb_xrealloc(f->key, f->keycap);
	}
	memcpy(f->key, k, len);
	f->key[len] = '\0';
	f->keylen = len;
	return 1;
}

static int is_key(const struct frame *f, const char *k)
{
	return f->keylen == strlen(k) && !memcmp(f->key, k, f->keylen);
}

static int is_latency_key(const struct frame *f)
{
	static const char *const keys[] = { "clat_ns", "lat_ns", "slat_ns",
					    "clat", "lat", "slat" };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (is_key(f, keys[i]))
			return 1;
	return 0;
}

/* Open an object (obj) or array; the new frame is a bins object when the
 * parent is a latency block and the key is "bins". */
static int push(struct sctx *x, int obj)
{
	struct frame *p = top(x), *f;
	json_t *c = obj ? json_object() : json_array();
	int lat = 0, bins = 0;

	if (bin_pending(x) || x->depth >= FIO_STREAM_MAX_DEPTH) {
		json_decref(c);
		return 0;
	}
	if (obj && p && json_is_object(p->c)) {
		lat = is_latency_key(p);
		bins = p->lat && is_key(p, "bins");
	}
	if (!add(x, c))
		return 0;
	if (x->depth == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 16;
		x->st = kb_xrealloc(x->st, (size_t)x->cap * sizeof(*x->st));
		memset(x->st + x->depth, 0,
		       (size_t)(x->cap - x->depth) * sizeof(*x->st));
	}
	f = &x->st[x->depth++];
	f->c = c;
	f->lat = lat;
	f->bins = bins;
	f->key_bin = 0;
	f->keylen = 0;
	if (bins) {
		struct fio_bin_table *bt = x->bt;

		if (bt->n == bt->cap) {
			bt->cap = bt->cap ? bt->cap * 2 : 16;
			bt->set = kb_xrealloc(bt->set,
					      bt->cap * sizeof(*bt->set));
		}
		f->set = bt->n++;
		memset(&bt->set[f->set], 0, sizeof(bt->set[0]));
		bt->set[f->set].obj = json_incref(c);
	}
	return 1;
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/* A bins object closed: a key given twice is left to jansson (the last
 * value would win there); the array is trimmed to its size. */
static int bins_close(struct fio_bin_set *s)
{
	int ok = 1;

	if (s->unsorted) {
		unsigned long long *k = kb_xcalloc(s->n, sizeof(*k));
		size_t i;

		for (i = 0; i < s->n; i++)
			k[i] = s->bin[i].key;
		qsort(k, s->n, sizeof(*k), cmp_u64);
		for (i = 1; i < s->n && ok; i++)
			ok = k[i] != k[i - 1];
		free(k);
	}
	if (s->n < s->cap) {
		s->bin = s->n ? kb_xrealloc(s->bin, s->n * sizeof(*s->bin)) :
			(free(s->bin), NULL);
		s->cap = s->n;
	}
	return ok;
}

static int pop(struct sctx *x)
{
	struct frame *f = top(x);

	if (f->bins && !bins_close(&x->bt->set[f->set]))
		return 0;
	if (--x->depth == 0)
		x->done = 1;
	return 1;
}

static int cb_start_map(void *ctx)
{
	return push(ctx, 1);
}

static int cb_start_array(void *ctx)
{
	return push(ctx, 0);
}

static int cb_end(void *ctx)
{
	return pop(ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_null,
	.yajl_boolean = cb_boolean,
	.yajl_integer = cb_integer,
	.yajl_double = cb_double,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_map_key,
	.yajl_end_map = cb_end,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end,
};

int fio_stream_safe(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	if (!buf || memchr(buf, '\f', len) || memchr(buf, '\v', len))
		return 0;
	while ((p = memmem(p, (size_t)(end - p), "\\u", 2))) {
		if (end - p >= 4 && (p[2] == 'd' || p[2] == 'D') &&
		    memchr("89abAB", p[3], 6))
			return 0;
		p += 2;
	}
	return 1;
}

int fio_stream_safe_piece(struct fio_safe_state *s, const char *buf,
			  size_t len)
{
	char join[2 * sizeof(s->tail)];
	size_t head = len < sizeof(s->tail) ? len : sizeof(s->tail), keep;

	/* a pattern within the piece, or across its start */
	memcpy(join, s->tail, s->n);
	memcpy(join + s->n, buf, head);
	if (!fio_stream_safe(buf, len) || !fio_stream_safe(join, s->n + head))
		return 0;
	/* the last bytes of everything so far */
	keep = s->n + head < sizeof(s->tail) ? s->n + head : sizeof(s->tail);
	if (len >= sizeof(s->tail))
		memcpy(s->tail, buf + len - sizeof(s->tail), sizeof(s->tail));
	else
		memmove(s->tail, join + s->n + head - keep, keep);
	s->n = keep;
	return 1;
}

static int cmp_set(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct fio_bin_set *)a)->obj;
	uintptr_t y = (uintptr_t)((const struct fio_bin_set *)b)->obj;

	return (x > y) - (x < y);
}

struct fio_stream {
	struct sctx x;
	yajl_handle h;
	int failed;
};

struct fio_stream *fio_stream_new(struct fio_bin_table *bt)
{
	struct fio_stream *st = kb_xcalloc(1, sizeof(*st));

	st->x.bt = bt;
	st->h = yajl_alloc(&callbacks, NULL, &st->x);
	if (!st->h) {
		free(st);
		return NULL;
	}
	/* stop after the object: fio's normal output or the next
	 * --status-interval document may follow */
	yajl_config(st->h, yajl_allow_trailing_garbage, 1);
	return st;
}

int fio_stream_feed(struct fio_stream *st, const char *s, size_t n,
		    size_t *used)
{
	if (st->failed || st->x.done)
		return -1;
	if (yajl_parse(st->h, (const unsigned char *)s, n) != yajl_status_ok) {
		st->failed = 1;
		return -1;
	}
	if (!st->x.done)
		return 0;
	*used = yajl_get_bytes_consumed(st->h);
	return 1;
}

json_t *fio_stream_end(struct fio_stream *st)
{
	struct fio_bin_table *bt = st->x.bt;
	json_t *root = st->x.root;
	int i;

	if (st->x.done && !st->failed) {
		if (bt->n)
			qsort(bt->set, bt->n, sizeof(*bt->set), cmp_set);
	} else {
		json_decref(root);
		root = NULL;
		fio_bin_table_free(bt);
	}
	yajl_free(st->h);
	for (i = 0; i < st->x.cap; i++)
		free(st->x.st[i].key);
	free(st->x.st);
	free(st);
	return root;
}

json_t *fio_stream_load(const char *s, size_t n, size_t *used,
			struct fio_bin_table *bt)
{
	struct fio_stream *st = fio_stream_new(bt);

	if (!st)
		return NULL;
	fio_stream_feed(st, s, n, used);
	return fio_stream_end(st);
}

struct fio_bin_set *fio_bin_table_find(const struct fio_bin_table *bt,
				       const json_t *bins)
{
	struct fio_bin_set key = { .obj = (json_t *)bins };

	if (!bt || !bt->n)
		return NULL;
	return bsearch(&key, bt->set, bt->n, sizeof(*bt->set), cmp_set);
}

void fio_bin_table_free(struct fio_bin_table *bt)
{
	size_t i;

	for (i = 0; i < bt->n; i++) {
		free(bt->set[i].bin);
		json_decref(bt->set[i].obj);
	}
	free(bt->set);
	memset(bt, 0, sizeof(*bt));
}
