/* parsers/json_file.c - see json_file.h. */
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"

#include <yajl/yajl_parse.h>

#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

int kb_json_write_atomic(const char *path, const json_t *j)
{
	return kb_json_write_atomic_opt(path, j, 0);
}

int kb_json_write_atomic_opt(const char *path, const json_t *j,
			     unsigned flags)
{
	return kb_json_text_write_atomic(path, json_dumps(j, JSON_INDENT(2) |
		JSON_SORT_KEYS | JSON_REAL_PRECISION(17)), flags);
}

int kb_json_text_write_atomic(const char *path, char *text, unsigned flags)
{
	char *withnl;
	int ret;

	if (!text) {
		kb_error("cannot serialise JSON for %s", path);
		return -ENOMEM;
	}
	withnl = kb_xasprintf("%s\n", text);
	free(text);
	ret = kb_write_atomic_opt(path, withnl, strlen(withnl), flags);
	free(withnl);
	return ret;
}

/* kb_json_dumpf_shown()'s output: jansson's text with DEL and each C1
 * control escaped (outside a string jansson writes only ASCII); c2: a
 * 0xc2 lead byte held until the next byte says whether it starts a C1
 * control (that byte may come in the next chunk). */
struct dump_shown {
	FILE *out;
	int c2;
};

static int dump_shown_chunk(const char *buf, size_t size, void *data)
{
	struct dump_shown *d = data;
	size_t i, from = 0;	/* buf[from..i) is still to write */

	for (i = 0; i < size; i++) {
		unsigned char b = (unsigned char)buf[i];

		if (d->c2) {	/* from == i: the byte after a 0xc2 */
			d->c2 = 0;
			if (b >= 0x80 && b <= 0x9f) {
				fprintf(d->out, "\\u%04X", b);
				from = i + 1;
				continue;
			}
			fputc(0xc2, d->out);
		}
		if (b == 0x7f || b == 0xc2) {
			fwrite(buf + from, 1, i - from, d->out);
			from = i + 1;
			if (b == 0x7f)
				fputs("\\u007F", d->out);
			else
				d->c2 = 1;
		}
	}
	fwrite(buf + from, 1, size - from, d->out);
	return ferror(d->out) ? -1 : 0;
}

const char *kb_json_kind(const json_t *x)
{
	return !x ? "nothing" : json_is_string(x) ? "a string" :
	       json_is_null(x) ? "null" : json_is_boolean(x) ? "a boolean" :
	       json_is_number(x) ? "a number" : json_is_array(x) ?
	       "an array" : "an object";
}

int kb_json_dumpf_shown(const json_t *j, FILE *out, size_t flags)
{
	struct dump_shown d = { out, 0 };

	if (json_dump_callback(j, dump_shown_chunk, &d, flags))
		return -EIO;
	if (d.c2)
		fputc(0xc2, out);
	return ferror(out) ? -EIO : 0;
}

/* kb_json_decode_fast() (json_file.h): yajl's events build the tree
 * through jansson's checked constructors (json_stringn,
 * json_object_setn_new: they refuse invalid UTF-8 as json_loadb does),
 * and any callback returning 0 stops yajl, so that the caller falls back
 * to json_loadb.  jansson's own decode reads through a per-character
 * stream with a locale lookup per number: 0.5 s of CPU for the
 * metrics.json files of a 10k-run report, about half that here. */
#define FAST_MAX_DEPTH 2048	/* jansson's JSON_PARSER_MAX_DEPTH */

struct fast_state {
	json_t *root;
	int depth;
	const struct kb_json_sink *sink;	/* or NULL */
	json_t *sunk;		/* the object whose numbers go to sink */
	json_t *stack[FAST_MAX_DEPTH];	/* the open containers */
	/* the key read last, copied: yajl decodes an escaped key into a
	 * buffer that an escaped value then overwrites */
	char *key;
	size_t keylen, keycap;
};

/* 1 when the key read last, at the top level, is the sink's member. */
static int at_sink_member(const struct fast_state *s)
{
	return s->sink && s->depth == 1 &&
	       s->keylen == strlen(s->sink->member) &&
	       !memcmp(s->key, s->sink->member, s->keylen);
}

/* Attach v (a new reference) to the open container, or make it the
 * root; 0 (stop) when jansson refuses it. */
static int fast_add(struct fast_state *s, json_t *v)
{
	json_t *top;
	size_t n;

	if (!v)
		return 0;
	if (!s->depth) {
		if (s->root) {
			json_decref(v);
			return 0;
		}
		s->root = v;
		return 1;
	}
	top = s->stack[s->depth - 1];
	if (json_is_array(top))
		return !json_array_append_new(top, v);
	/* the sink's member again: jansson would replace the object whose
	 * numbers the sink has */
	if (s->sunk && at_sink_member(s)) {
		json_decref(v);
		return 0;
	}
	/* not a number, in the sink's object: a key the sink has a number
	 * for already is a repeated key (see sink_number()) */
	if (top == s->sunk && s->sink->has(s->sink->ctx, s->key, s->keylen)) {
		json_decref(v);
		return 0;
	}
	/* checked: a key with invalid UTF-8 or a NUL is refused; a key
	 * the object has already (jansson would replace its value in place)
	 * leaves the size as it was: stop, json_loadb() with
	 * JSON_REJECT_DUPLICATES says where */
	n = json_object_size(top);
	return !json_object_setn_new(top, s->key, s->keylen, v) &&
	       json_object_size(top) > n;
}

static int fast_null(void *ctx)
{
	return fast_add(ctx, json_null());
}

static int fast_boolean(void *ctx, int b)
{
	return fast_add(ctx, json_boolean(b));
}

/* RFC 8259's number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?;
 * *real: it has a fraction or an exponent (jansson's json_real). */
static int fast_number_ok(const char *n, size_t len, int *real)
{
	size_t i = 0, d;

	*real = 0;
	if (i < len && n[i] == '-')
		i++;
	if (i < len && n[i] == '0')
		i++;
	else if (i < len && n[i] >= '1' && n[i] <= '9')
		while (i < len && n[i] >= '0' && n[i] <= '9')
			i++;
	else
		return 0;
	if (i < len && n[i] == '.') {
		*real = 1;
		for (d = ++i; i < len && n[i] >= '0' && n[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	if (i < len && (n[i] == 'e' || n[i] == 'E')) {
		*real = 1;
		i++;
		if (i < len && (n[i] == '+' || n[i] == '-'))
			i++;
		for (d = i; i < len && n[i] >= '0' && n[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return i == len;
}

/* An RFC 8259 number (fast_number_ok() checked it) with at most 19
 * significant digits and a decimal exponent within +-27, as the double
 * strtod returns, without strtod: the digits (< 2^64) and 10^|e| (5^27 <
 * 2^64) are exact in x87's 64-bit-mantissa long double, so one multiply
 * or divide there rounds the exact value once; rounding that to double
 * is then strtod's correctly rounded result unless the long double lies
 * within one of its units of a double's halfway point (its low 11
 * mantissa bits 0x3ff-0x401), where 0 leaves the number to strtod (the
 * extended-precision form of W. D. Clinger, "How to read floating point
 * numbers accurately", PLDI 1990).  0 also outside that range or where
 * long double is not x87's.  strtod's slow path for kbench's 17-digit
 * numbers (JSON_REAL_PRECISION(17)) was a sixth of `kbench report` on
 * 10k runs (issue 16). */
static int fast_real(const char *n, size_t len, double *out)
{
#if defined(__x86_64__) && LDBL_MANT_DIG == 64
	static const long double pow10[] = {
		1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L,
		1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L,
		1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
	};
	unsigned long long digits = 0, mant;
	size_t i = 0;
	int neg = 0, ndig = 0, exp10 = 0, e = 0, eneg = 0;
	long double l;

	if (n[i] == '-') {
		neg = 1;
		i++;
	}
	for (; i < len && n[i] >= '0' && n[i] <= '9'; i++) {
		if (digits || n[i] != '0')
			ndig++;
		if (ndig > 19)
			return 0;
		digits = digits * 10 + (unsigned)(n[i] - '0');
	}
	if (i < len && n[i] == '.')
		for (i++; i < len && n[i] >= '0' && n[i] <= '9'; i++) {
			if (digits || n[i] != '0')
				ndig++;
			if (ndig > 19)
				return 0;
			digits = digits * 10 + (unsigned)(n[i] - '0');
			exp10--;
		}
	if (i < len) {		/* 'e' or 'E', [+-], digits */
		i++;
		if (n[i] == '+' || n[i] == '-')
			eneg = n[i++] == '-';
		for (; i < len; i++) {
			e = e * 10 + (n[i] - '0');
			if (e > 1000)
				return 0;
		}
		exp10 += eneg ? -e : e;
	}
	if (exp10 < -27 || exp10 > 27)
		return 0;
	l = (long double)digits;
	l = exp10 < 0 ? l / pow10[-exp10] : l * pow10[exp10];
	memcpy(&mant, &l, sizeof(mant));	/* x87: the 64-bit significand */
	if ((mant & 0x7ff) >= 0x3ff && (mant & 0x7ff) <= 0x401)
		return 0;
	*out = neg ? -(double)l : (double)l;
	return 1;
#else
	(void)n;
	(void)len;
	(void)out;
	return 0;
#endif
}

/* In the sink's object (kb_json_decode_sink()): 1 when the member being
 * read goes to the sink rather than the tree. */
static int in_sink(const struct fast_state *s)
{
	return s->sunk && s->depth && s->stack[s->depth - 1] == s->sunk;
}

/* A number of the sink's object to the sink: a key the object holds
 * already (a repeated key) stops the fast decode (the sink cannot
 * replace in place as jansson does), and so does the sink's refusal (a
 * key it was given a number for already). */
static int sink_number(struct fast_state *s, double d)
{
	if (json_object_getn(s->sunk, s->key, s->keylen))
		return 0;
	return s->sink->number(s->sink->ctx, s->key, s->keylen, d) == 0;
}

static int fast_number(void *ctx, const char *n, size_t len)
{
	struct fast_state *s = ctx;
	char buf[128], *end;
	int real;

	if (len >= sizeof(buf) || !fast_number_ok(n, len, &real))
		return 0;
	if (real) {
		double d;

		if (fast_real(n, len, &d))
			return in_sink(s) ? sink_number(s, d) :
			       fast_add(ctx, json_real(d));
	}
	memcpy(buf, n, len);
	buf[len] = '\0';
	errno = 0;
	if (real) {
		double d = strtod(buf, &end);

		if (errno || *end)
			return 0;
		return in_sink(s) ? sink_number(s, d) :
		       fast_add(ctx, json_real(d));
	} else {
		long long i = strtoll(buf, &end, 10);

		if (errno || *end)
			return 0;
		/* json_number_value()'s double of the json_integer */
		return in_sink(s) ? sink_number(s, (double)i) :
		       fast_add(ctx, json_integer(i));
	}
}

static int fast_string(void *ctx, const unsigned char *str, size_t len)
{
	/* checked: invalid UTF-8 or a NUL is refused */
	return fast_add(ctx, json_stringn((const char *)str, len));
}

static int fast_open(struct fast_state *s, json_t *c)
{
	if (!c || s->depth >= FAST_MAX_DEPTH) {
		json_decref(c);
		return 0;
	}
	json_incref(c);		/* the stack's until closed */
	if (!fast_add(s, c)) {
		json_decref(c);
		return 0;
	}
	/* the top-level object's member named by the sink, an object */
	if (!s->sunk && at_sink_member(s) && json_is_object(c) &&
	    json_is_object(s->stack[0]))
		s->sunk = c;
	s->stack[s->depth++] = c;
	return 1;
}

static int fast_start_map(void *ctx)
{
	return fast_open(ctx, json_object());
}

static int fast_start_array(void *ctx)
{
	return fast_open(ctx, json_array());
}

static int fast_map_key(void *ctx, const unsigned char *key, size_t len)
{
	struct fast_state *s = ctx;

	if (len >= s->keycap) {
		s->keycap = len + 64;
		s->key = kb_xrealloc(s->key, s->keycap);
	}
	memcpy(s->key, key, len);
	s->keylen = len;
	return 1;
}

static int fast_end(void *ctx)
{
	struct fast_state *s = ctx;

	json_decref(s->stack[--s->depth]);
	return 1;
}

static const yajl_callbacks fast_callbacks = {
	.yajl_null = fast_null,
	.yajl_boolean = fast_boolean,
	.yajl_number = fast_number,
	.yajl_string = fast_string,
	.yajl_start_map = fast_start_map,
	.yajl_map_key = fast_map_key,
	.yajl_end_map = fast_end,
	.yajl_start_array = fast_start_array,
	.yajl_end_array = fast_end,
};

json_t *kb_json_decode_fast(const char *buf, size_t n)
{
	return kb_json_decode_sink(buf, n, NULL, NULL);
}

json_t *kb_json_decode_sink(const char *buf, size_t n,
			    const struct kb_json_sink *sink, int *sunk)
{
	struct fast_state *s;
	yajl_handle h;
	json_t *root = NULL;
	const char *p;
	int ok;

	/* any "\u" escape: jansson's (memchr: kbench's own files have few
	 * backslashes or none; an escaped backslash is skipped whole) */
	for (p = buf; p < buf + n &&
	     (p = memchr(p, '\\', (size_t)(buf + n - p))); p += 2)
		if (p + 1 < buf + n && p[1] == 'u')
			return NULL;
	s = kb_xmalloc(sizeof(*s));
	s->root = NULL;
	s->depth = 0;
	s->sink = sink;
	s->sunk = NULL;
	s->key = NULL;
	s->keylen = s->keycap = 0;
	h = yajl_alloc(&fast_callbacks, NULL, s);
	if (!h) {
		free(s);
		return NULL;
	}
	ok = yajl_parse(h, (const unsigned char *)buf, n) == yajl_status_ok &&
	     yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	while (s->depth)	/* stopped inside a container */
		json_decref(s->stack[--s->depth]);
	if (ok && (json_is_object(s->root) || json_is_array(s->root)))
		root = s->root;
	else
		json_decref(s->root);
	if (sunk)
		*sunk = root && s->sunk;
	free(s->key);
	free(s);
	return root;
}

/* Why a load failed: errnum an errno (open(2)'s when at_open, else
 * read(2)'s), or 0 with err jansson's decode error. */
struct load_failure {
	int errnum;
	int at_open;		/* errnum is open(2)'s */
	size_t nul_at;		/* errnum EILSEQ: the first NUL byte */
	int fifo;		/* errnum ENODATA: read from a pipe */
	json_error_t err;
};

/* No kbench or fio JSON file is near this: a larger one (a 4 GB file of
 * zeros planted as state.json took 4.2 GB of memory and 26 s to refuse)
 * is refused before it is read.  A 100k-run results.json is about
 * 300 MB. */
#define KB_JSON_MAX_BYTES (1024ULL * 1024 * 1024)

/* The whole file in one read (fstat's size + 1 asked for: a regular
 * file whose read returns exactly its size is at its end, anything else
 * is read until EOF) and
 * one json_loadb(): jansson's json_load_file() reads through stdio a
 * character at a time, which was a quarter of `kbench report` on 10k runs
 * (issue 16).  The positions in an error are json_loadb's, the same line
 * and column as json_load_file's.  Quiet: NULL with *f filled. */
static json_t *load_core(int dirfd, const char *rel,
			 const struct kb_json_sink *sink, int *sunk,
			 struct load_failure *f)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;
	json_t *j;
	/* O_NONBLOCK: a FIFO with no writer (one planted as state.json
	 * hung report forever) opens, and reads as empty; a pipe with a
	 * writer (--from-json <(...)) is read as it comes (poll below) */
	int regular, fifo, fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC |
				       O_NONBLOCK);

	memset(f, 0, sizeof(*f));
	if (fd < 0) {
		f->errnum = errno;
		f->at_open = 1;
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		f->errnum = errno;
		close(fd);
		return NULL;
	}
	/* a device (/dev/urandom, /dev/zero) never ends: not read */
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		f->errnum = ENODEV;
		close(fd);
		return NULL;
	}
	/* a /proc file is regular with size 0: read until EOF */
	regular = S_ISREG(st.st_mode) && st.st_size > 0;
	fifo = S_ISFIFO(st.st_mode);
	f->fifo = fifo;
	/* O_NONBLOCK "has no effect for regular files" (open(2)): cleared
	 * for the rest only, two system calls fewer a file (a 100k-run
	 * report reads 100k files) */
	if (!fifo && !S_ISREG(st.st_mode))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (regular && (unsigned long long)st.st_size > KB_JSON_MAX_BYTES) {
		f->errnum = EFBIG;
		close(fd);
		return NULL;
	}
	cap = regular ? (size_t)st.st_size + 1 : 4096;
	buf = kb_xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap *= 2;
			buf = kb_xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN && fifo) {
			/* a writer, nothing written yet: wait for it */
			struct pollfd pfd = { fd, POLLIN, 0 };

			if (poll(&pfd, 1, -1) >= 0 || errno == EINTR)
				continue;
		}
		if ((unsigned long long)n > KB_JSON_MAX_BYTES) {
			f->errnum = EFBIG;	/* a pipe or /proc file */
			free(buf);
			close(fd);
			return NULL;
		}
		if (r < 0) {
			f->errnum = errno;
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		/* all of a regular file's size, and not the byte past it:
		 * its end, in one read() (a read short of the size, as
		 * from a network file system, reads on) */
		if (regular && n == (size_t)st.st_size)
			break;
	}
	close(fd);
	if (!n) {	/* "empty", not jansson's "'[' or '{' expected" */
		f->errnum = ENODATA;
		free(buf);
		return NULL;
	}
	{
		/* zeros (a file cut short by a crash, a truncate -s): said
		 * so, not jansson's "'[' or '{' expected near end of
		 * file" */
		const char *nul = memchr(buf, '\0', n);

		if (nul) {
			f->errnum = EILSEQ;
			f->nul_at = (size_t)(nul - buf);
			free(buf);
			return NULL;
		}
	}
	j = kb_json_decode_sink(buf, n, sink, sunk);
	if (!j)
		j = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &f->err);
	free(buf);
	return j;
}

/* load_core() with jansson's wording for a failure, except a missing
 * file when missing is given (*missing = 1, nothing printed). */
static json_t *load_whole_as(int dirfd, const char *rel, const char *path,
			     int *missing, const struct kb_json_sink *sink,
			     int *sunk, unsigned flags)
{
	struct load_failure f;
	json_t *j = load_core(dirfd, rel, sink, sunk, &f);
	/* an error, or a warning for a caller that goes on without it */
	void (*say)(const char *, ...) = (flags & KB_JSON_WARN) ? kb_warn :
					 kb_error;

	if (j)
		return j;
	if (f.at_open && missing && f.errnum == ENOENT)
		*missing = 1;
	else if (f.at_open)	/* no line or column to name: none read */
		say("%s: cannot open: %s", path, strerror(f.errnum));
	else if (f.errnum == ENODEV)
		say("%s: a device, not a file: not read", path);
	else if (f.errnum == EFBIG)
		say("%s: larger than %llu MiB, far more than any kbench or "
		    "fio JSON file: not read", path,
		    KB_JSON_MAX_BYTES >> 20);
	else if (f.errnum == ENODATA)
		say("%s: empty (0 bytes%s): no JSON in it", path,
		    f.fifo ? " from a pipe or FIFO" : "");
	else if (f.errnum == EILSEQ)
		say("%s: a NUL byte at offset %zu: not JSON (zeros left "
		    "by a crash or a truncate?)", path, f.nul_at);
	else if (f.errnum)
		say("%s: read error: %s", path, strerror(f.errnum));
	else
		say("%s:%d:%d: %s", path, f.err.line, f.err.column,
		    f.err.text);
	return NULL;
}

static json_t *load_whole(int dirfd, const char *rel, const char *path,
			  int *missing, const struct kb_json_sink *sink,
			  int *sunk)
{
	return load_whole_as(dirfd, rel, path, missing, sink, sunk, 0);
}

json_t *kb_json_load_why(const char *path, const struct kb_json_sink *sink,
			 char **why)
{
	struct load_failure f;
	json_t *j = load_core(AT_FDCWD, path, sink, NULL, &f);

	*why = NULL;
	if (j)
		return j;
	if (f.at_open && f.errnum == ENOENT)
		*why = kb_xstrdup("missing");
	else if (f.errnum == EILSEQ)
		*why = kb_xasprintf("a NUL byte at offset %zu (zeros left by "
				    "a crash?)", f.nul_at);
	else if (f.errnum == ENODATA)
		*why = kb_xstrdup("empty (0 bytes)");
	else if (f.errnum == EFBIG)
		*why = kb_xasprintf("larger than %llu MiB",
				    KB_JSON_MAX_BYTES >> 20);
	else if (f.errnum)
		*why = kb_xasprintf("unreadable: %s", strerror(f.errnum));
	else
		*why = kb_xasprintf("line %d: %s", f.err.line, f.err.text);
	return NULL;
}

json_t *kb_json_load(const char *path)
{
	return load_whole(AT_FDCWD, path, path, NULL, NULL, NULL);
}

json_t *kb_json_load_existing(const char *path, int *missing)
{
	*missing = 0;
	return load_whole(AT_FDCWD, path, path, missing, NULL, NULL);
}

json_t *kb_json_load_existing_sink(const char *path, int *missing,
				   const struct kb_json_sink *sink, int *sunk)
{
	*missing = 0;
	*sunk = 0;
	return load_whole(AT_FDCWD, path, path, missing, sink, sunk);
}

json_t *kb_json_load_existing_sink_at(int dirfd, const char *rel,
				      const char *path, int *missing,
				      const struct kb_json_sink *sink,
				      int *sunk, unsigned flags)
{
	*missing = 0;
	*sunk = 0;
	return load_whole_as(dirfd, rel, path, missing, sink, sunk, flags);
}
