/* parsers/fio_json_stream.h - the streaming pass of the fio JSON parser
 * (parsers/fio_json.c): one JSON document read with libyajl's callback
 * parser (yajl_parse.h, yajl 2.1) into a jansson tree of everything
 * except the json+ latency bins, whose pairs go into compact arrays.
 *
 * Why: a json+ file is mostly its "bins" objects (thousands of
 * "value_ns": count pairs per job, direction and latency kind); as a
 * jansson tree each pair costs about 120 bytes (a hashtable entry, the
 * key, a json_integer), 6.1x the file size in all.  Here a pair costs 16
 * bytes (struct fio_bin), and the rest of the document is a tree as
 * json_loadb() would make it, so fio_json.c reads both the same way.
 * libyajl because it is a small, well-kept streaming parser packaged by
 * Debian (libyajl-dev 2.1) with callbacks per key and value; jansson has
 * no streaming decoder.
 *
 * Which objects are bins: the value of key "bins" in an object that is
 * itself the value of a latency key ("clat_ns", "lat_ns", "slat_ns",
 * "clat", "lat", "slat").  In the tree it becomes a placeholder object
 * holding only its "FIO_IO_U_PLAT_*" keys (fio < 2.20's histogram
 * geometry); its other pairs are in the fio_bin_set whose obj is that
 * placeholder, in file order, counts of 0 included.
 *
 * Strictness: the pass accepts exactly what json_loadb(buf, len,
 * JSON_DISABLE_EOF_CHECK) accepts, and makes the same tree, or fails.  It
 * fails (and the caller reads the document with jansson, then leniently,
 * as before) on anything jansson might read differently: invalid JSON
 * (yajl's error), a string or key that jansson refuses (NUL, invalid
 * UTF-8: checked by json_stringn() and json_object_setn_new()), nesting
 * deeper than FIO_STREAM_MAX_DEPTH, and in a bins object a key that is not
 * a plain decimal uint64 nor "FIO_IO_U_PLAT_*", a value that is not a
 * number >= 0, or a key given twice.  fio_stream_safe() rules out, for a
 * whole buffer, what yajl reads more leniently than jansson and the
 * callbacks cannot see: surrogate escapes (\uD800-\uDFFF: yajl turns a
 * lone one into '?') and form feed or vertical tab between tokens (yajl
 * takes them for blanks). */
#ifndef KB_FIO_JSON_STREAM_H
#define KB_FIO_JSON_STREAM_H

#include <stddef.h>
#include <jansson.h>

/* Below jansson's JSON_PARSER_MAX_DEPTH (2048): deeper documents are
 * left to jansson, which gives its own error. */
#define FIO_STREAM_MAX_DEPTH 2000

/* One json+ bin, 16 bytes: as read, key is its key as written (ns, usec
 * or a histogram index, by the latency block and the FIO_IO_U_PLAT_*
 * keys); fio_json.c converts it in place to ns, the latency in ns. */
struct fio_bin {
	union {
		unsigned long long key;
		double ns;
	};
	double count;
};

/* The pairs of one bins object; obj is its placeholder in the tree (a
 * reference held by the table, so no two sets share an address). */
struct fio_bin_set {
	json_t *obj;
	struct fio_bin *bin;
	size_t n, cap;
	int unsorted;		/* keys not strictly increasing in the file */
};

/* The bins of one document.  Zero-initialise; fio_bin_table_free(). */
struct fio_bin_table {
	struct fio_bin_set *set;
	size_t n, cap;
};

/* 1 when the streaming pass may read buf (len bytes), 0 when jansson
 * must (see "Strictness" above). */
int fio_stream_safe(const char *buf, size_t len);

/* fio_stream_safe() over bytes read in pieces: call it on each piece
 * in order, with one state zero-initialised before the first; 1 while
 * all the bytes so far are safe (a pattern split between two pieces
 * included), 0 as soon as they are not. */
struct fio_safe_state {
	char tail[3];		/* the last bytes so far (a pattern is 4) */
	size_t n;
};
int fio_stream_safe_piece(struct fio_safe_state *s, const char *buf,
			  size_t len);

/* Read the JSON object at s[0] == '{' (n bytes available, text may follow
 * it).  Returns the tree (a new reference) with *used = the bytes the
 * object spans and its bins added to bt (which must be empty), sorted for
 * fio_bin_table_find(); NULL on failure, with bt left empty. */
json_t *fio_stream_load(const char *s, size_t n, size_t *used,
			struct fio_bin_table *bt);

/* The same pass fed in pieces (fio_json.c reads a file in chunks, so
 * the whole file is never in memory): fio_stream_new(bt) (bt empty; NULL
 * when yajl cannot allocate), then fio_stream_feed() with the bytes from
 * the '{' on, piece after piece, until it returns 1: the object closed,
 * *used = the bytes of this piece up to its end; 0: all n bytes read,
 * the object goes on; -1: refused (nothing more to feed).  Then
 * fio_stream_end() (always, once): the tree as fio_stream_load() gives
 * it when feed returned 1, else NULL with bt left empty; it frees st.
 * fio_stream_safe() must hold for all the bytes, as for
 * fio_stream_load(). */
struct fio_stream;
struct fio_stream *fio_stream_new(struct fio_bin_table *bt);
int fio_stream_feed(struct fio_stream *st, const char *s, size_t n,
		    size_t *used);
json_t *fio_stream_end(struct fio_stream *st);

/* The set whose placeholder is bins, or NULL (bins came from jansson). */
struct fio_bin_set *fio_bin_table_find(const struct fio_bin_table *bt,
				       const json_t *bins);

/* Free the sets and drop the placeholders' references; bt is empty
 * afterwards. */
void fio_bin_table_free(struct fio_bin_table *bt);

#endif
