/* results/state.c - state.json (see state.h). */
#include "results/state.h"
#include "results/paths.h"
#include "results/validate.h"
#include "parsers/json_file.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/str.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void results_state_init(struct kb_state *s)
{
	memset(s, 0, sizeof(*s));
	s->schema_version = KB_SCHEMA_VERSION;
}

static char *dup_or_null(const char *v)
{
	return v ? kb_xstrdup(v) : NULL;
}

/* the index of key in s->runs, or where it would go (*found 0) */
static size_t run_index(const struct kb_state *s, const char *key,
			int *found)
{
	size_t lo = 0, hi = s->nruns;

	*found = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->runs[mid].key, key);

		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct kb_run_record *results_state_run(const struct kb_state *s,
					      const char *key)
{
	int found;
	size_t i = run_index(s, key, &found);

	return found ? &s->runs[i] : NULL;
}

static void run_record_free(struct kb_run_record *r)
{
	free(r->key);
	free(r->status);
	free(r->reason);
	free(r->finished);
}

void results_state_set_run(struct kb_state *s, const char *key,
			   const char *status, const char *reason,
			   const char *finished)
{
	int found;
	size_t i = run_index(s, key, &found);
	struct kb_run_record *r;

	if (!found) {
		if (s->nruns == s->runs_cap) {
			s->runs_cap = s->runs_cap ? 2 * s->runs_cap : 64;
			s->runs = kb_xrealloc(s->runs,
					      s->runs_cap * sizeof(*s->runs));
		}
		memmove(&s->runs[i + 1], &s->runs[i],
			(s->nruns - i) * sizeof(*s->runs));
		s->nruns++;
		r = &s->runs[i];
		memset(r, 0, sizeof(*r));
		r->key = kb_xstrdup(key);
	} else {
		r = &s->runs[i];
		free(r->status);
		free(r->reason);
		free(r->finished);
	}
	r->status = kb_xstrdup(status);
	r->reason = dup_or_null(reason);
	r->finished = dup_or_null(finished);
}

int results_state_del_run(struct kb_state *s, const char *key)
{
	int found;
	size_t i = run_index(s, key, &found);

	if (!found)
		return 0;
	run_record_free(&s->runs[i]);
	memmove(&s->runs[i], &s->runs[i + 1],
		(s->nruns - i - 1) * sizeof(*s->runs));
	s->nruns--;
	return 1;
}

unsigned results_state_retries(const struct kb_state *s, const char *unit)
{
	size_t i;

	for (i = 0; i < s->nretries; i++)
		if (!strcmp(s->retries[i].unit, unit))
			return s->retries[i].attempts;
	return 0;
}

void results_state_set_retries(struct kb_state *s, const char *unit,
			       unsigned attempts)
{
	size_t i;

	for (i = 0; i < s->nretries; i++)
		if (!strcmp(s->retries[i].unit, unit))
			break;
	if (i == s->nretries) {
		s->retries = kb_xrealloc(s->retries, (s->nretries + 1) *
					 sizeof(*s->retries));
		s->retries[s->nretries++].unit = kb_xstrdup(unit);
	}
	s->retries[i].attempts = attempts;
}

void results_state_add_superseded(struct kb_state *s, const char *key,
				  const char *dir, unsigned attempt,
				  const char *reason)
{
	struct kb_superseded_run *r;

	s->superseded = kb_xrealloc(s->superseded, (s->nsuperseded + 1) *
				    sizeof(*s->superseded));
	r = &s->superseded[s->nsuperseded++];
	r->key = kb_xstrdup(key);
	r->dir = kb_xstrdup(dir);
	r->attempt = attempt;
	r->reason = kb_xstrdup(reason);
}

void results_state_free(struct kb_state *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		run_record_free(&s->runs[i]);
	free(s->runs);
	free(s->adaptive_stopped);
	for (i = 0; i < s->nretries; i++)
		free(s->retries[i].unit);
	free(s->retries);
	for (i = 0; i < s->nsuperseded; i++) {
		free(s->superseded[i].key);
		free(s->superseded[i].dir);
		free(s->superseded[i].reason);
	}
	free(s->superseded);
	memset(s, 0, sizeof(*s));
}

static const char *jstr(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

int results_state_load(const char *path, struct kb_state *s)
{
	char *why = NULL;
	int ret = results_state_load_why(path, s, &why);

	if (ret)
		kb_error("%s", why);
	free(why);
	return ret;
}

int results_state_load_why(const char *path, struct kb_state *s,
			   char **why)
{
	char *jwhy = NULL;
	json_t *j = kb_json_load_why(path, NULL, &jwhy), *runs, *e, *ad;
	const char *key;
	size_t i;

	*why = NULL;
	results_state_init(s);
	runs = json_object_get(j, "runs");
	if (!j || !json_is_object(runs)) {
		*why = j ? kb_xasprintf("%s: not a kbench state file (no "
					"\"runs\" object)", path) :
			   kb_xasprintf("%s: %s", path, jwhy ?: "unreadable");
		free(jwhy);
		json_decref(j);
		return -EINVAL;
	}
	if (json_is_integer(json_object_get(j, "schema_version")))
		s->schema_version = json_integer_value(json_object_get(j,
							"schema_version"));
	json_object_foreach(runs, key, e) {
		if ((*why = results_state_run_problem(path, key, e))) {
			json_decref(j);
			results_state_free(s);
			return -EINVAL;
		}
		results_state_set_run(s, key, jstr(e, "status"),
				      jstr(e, "reason"), jstr(e, "finished"));
	}
	ad = json_object_get(j, "adaptive");
	if (json_is_object(ad)) {
		s->has_adaptive = 1;
		s->adaptive_timed_iterations = (unsigned)json_integer_value(
			json_object_get(ad, "timed_iterations"));
		s->adaptive_stopped = dup_or_null(jstr(ad, "stopped"));
	}
	json_object_foreach(json_object_get(j, "disturbed_retries"), key, e)
		results_state_set_retries(s, key,
					  (unsigned)json_integer_value(e));
	json_array_foreach(json_object_get(j, "superseded"), i, e)
		results_state_add_superseded(s, jstr(e, "key") ?: "",
			jstr(e, "dir") ?: "", (unsigned)json_integer_value(
			json_object_get(e, "attempt")), jstr(e, "reason") ?: "");
	json_decref(j);
	return 0;
}

int results_state_adopt(const char *dir, struct kb_state *s,
			const char *key)
{
	char *mp = kb_run_file(dir, key, "metrics.json");
	int missing, done = 0;
	json_t *rec = kb_json_load_existing(mp, &missing);
	const char *st = jstr(rec, "status");
	struct stat sb;
	char ts[32] = "";

	/* an "ok" record without its metrics is no run done: it is run
	 * again rather than kept without numbers */
	if (st && ((!strcmp(st, "ok") &&
		    json_is_object(json_object_get(rec, "metrics"))) ||
		   !strcmp(st, "failed"))) {
		if (!stat(mp, &sb))
			kb_format_utc(sb.st_mtime, ts, sizeof(ts));
		results_state_set_run(s, key, st, jstr(rec, "reason"),
				      *ts ? ts : NULL);
		done = 1;
	}
	json_decref(rec);
	free(mp);
	return done;
}

/* A superseded copy found on disk: the run key it was, its K. */
struct found_superseded {
	char *key;
	unsigned long k;
};

static int cmp_found(const void *a, const void *b)
{
	const struct found_superseded *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->k > y->k) - (x->k < y->k);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The superseded copies of the plan's runs on disk (DIR/runs/KEY.
 * superseded-K, retry.c's names) into s, by key and K, each with the
 * reason its metrics.json gives ("failed: R"; an ok run's reason for
 * being run again was only in the lost state.json), and retry_disturbed's
 * count of its unit ("ITERATION", or with order = block the key) raised
 * to the largest number of ok copies of one of its runs (each retry keeps
 * a copy of every run of the round, the disturbed one ok; --retry-failed
 * keeps failed ones, which count nothing).
 * A directory without a finished run's metrics.json is no kept run.
 * Each job directory is read once (keys: the plan's, sorted here). */
static void rebuild_superseded(const char *dir, struct kb_state *s,
			       const char **keys, size_t nkeys, int block)
{
	struct found_superseded *f = NULL;
	size_t nf = 0, i, j;
	unsigned nok = 0;
	const char *prev = NULL, *cur = NULL;

	qsort(keys, nkeys, sizeof(*keys), cmp_str);
	for (i = 0; i < nkeys; i++) {
		const char *sl = strrchr(keys[i], '/');
		size_t plen = sl ? (size_t)(sl - keys[i]) : 0;
		char *parent, *pd;
		struct dirent *e;
		DIR *d;

		/* keys of one job directory are neighbours once sorted */
		if (!sl || (prev && !strncmp(prev, keys[i], plen) &&
			    prev[plen] == '/' && !strchr(prev + plen + 1, '/')))
			continue;
		prev = keys[i];
		parent = kb_xasprintf("%.*s", (int)plen, keys[i]);
		pd = kb_run_dir(dir, parent);
		d = opendir(pd);
		while (d && (e = readdir(d))) {
			const char *m = strstr(e->d_name, ".superseded-");
			char *end, *key;
			const char *kp;
			unsigned long k;

			if (!m || m == e->d_name ||
			    !isdigit((unsigned char)m[12]))
				continue;
			errno = 0;
			k = strtoul(m + 12, &end, 10);
			/* retry.c's names only: no "-01" (its dir would be
			 * recorded as "-1", which does not exist) */
			if (*end || errno || !k || k > 100000 ||
			    m[12] == '0')
				continue;
			key = kb_xasprintf("%s/%.*s", parent,
					   (int)(m - e->d_name), e->d_name);
			kp = key;
			if (!bsearch(&kp, keys, nkeys, sizeof(*keys),
				     cmp_str)) {	/* no run of the plan */
				free(key);
				continue;
			}
			f = kb_xrealloc(f, (nf + 1) * sizeof(*f));
			f[nf].key = key;
			f[nf++].k = k;
		}
		if (d)
			closedir(d);
		free(pd);
		free(parent);
	}
	if (nf)
		qsort(f, nf, sizeof(*f), cmp_found);
	for (i = 0; i < nf; i++) {
		char *sk = kb_xasprintf("%s.superseded-%lu", f[i].key, f[i].k);
		char *rel = kb_xasprintf("%s/%s", KB_RUNS_DIR, sk);
		char *mp = kb_run_file(dir, sk, "metrics.json"), *why, *unit;
		const char *nnn = strrchr(f[i].key, '/');
		int missing;
		json_t *rec = kb_json_load_existing(mp, &missing);
		const char *st = jstr(rec, "status");

		/* the ok copies of one run key are counted together (f is
		 * sorted by key); a new key starts at 0 even when the copy
		 * that opens it is skipped below */
		if (!cur || strcmp(f[i].key, cur))
			nok = 0;
		cur = f[i].key;
		/* no finished run in it (an empty directory, a damaged
		 * metrics.json): no run kbench kept aside */
		if (!st || (strcmp(st, "ok") && strcmp(st, "failed")))
			goto next;
		why = !strcmp(st, "failed") ?
		      kb_xasprintf("failed: %s", jstr(rec, "reason") ?:
				   "(no reason recorded)") :
		      kb_xstrdup("run again (state.json was rebuilt from the "
				 "runs on disk: why is not known)");
		results_state_add_superseded(s, f[i].key, rel,
					     (unsigned)f[i].k, why);
		/* each retry of a disturbed round keeps a copy of every
		 * run of it, the disturbed one ok; --retry-failed keeps
		 * failed ones only: the ok copies of a run (f is sorted by
		 * key) count its round's retries, their largest number over
		 * the round's runs is retry_disturbed's count (not K: a
		 * failed run's copy takes -1, the retry's then -2) */
		if (!strcmp(st, "ok") && nnn && isdigit((unsigned char)nnn[1])) {
			nok++;
			unit = block ? kb_xstrdup(f[i].key) :
			       kb_xasprintf("%lu", strtoul(nnn + 1, NULL, 10));
			if (results_state_retries(s, unit) < nok)
				results_state_set_retries(s, unit, nok);
			free(unit);
		}
		free(why);
next:
		json_decref(rec);
		free(mp);
		free(rel);
		free(sk);
	}
	for (j = 0; j < nf; j++)
		free(f[j].key);
	free(f);
}

size_t results_state_rebuild(const char *dir, struct kb_state *s,
			     size_t *planned)
{
	char *cjpath = kb_path_join(dir, "campaign.json");
	json_t *cj, *e;
	const char **keys;
	size_t i, n = 0, nkeys = 0;
	int missing, block;

	results_state_free(s);
	results_state_init(s);
	/* campaign.json's plan: the rounds iterations = auto added
	 * included (runner/adaptive.h), which a plan built from
	 * kernels.conf does not hold yet */
	cj = kb_json_load_existing(cjpath, &missing);
	keys = kb_xcalloc(json_array_size(json_object_get(cj, "plan")) + 1,
			  sizeof(*keys));
	json_array_foreach(json_object_get(cj, "plan"), i, e)
		if (json_is_string(e))
			keys[nkeys++] = json_string_value(e);
	*planned = nkeys;
	block = jstr(cj, "order") && !strcmp(jstr(cj, "order"), "block");
	for (i = 0; i < nkeys; i++)
		n += (size_t)results_state_adopt(dir, s, keys[i]);
	rebuild_superseded(dir, s, keys, nkeys, block);
	free(keys);
	json_decref(cj);
	free(cjpath);
	return n;
}

int results_state_save(const char *path, const struct kb_state *s)
{
	json_t *j = json_object(), *runs = json_object(), *o;
	size_t i;
	int ret;

	json_object_set_new(j, "schema_version",
			    json_integer(s->schema_version));
	for (i = 0; i < s->nruns; i++) {
		const struct kb_run_record *r = &s->runs[i];

		o = json_pack("{s:s, s:s?}", "status", r->status, "reason",
			      r->reason);
		if (r->finished)
			json_object_set_new(o, "finished",
					    json_string(r->finished));
		json_object_set_new(runs, r->key, o);
	}
	json_object_set_new(j, "runs", runs);
	if (s->has_adaptive)
		json_object_set_new(j, "adaptive", json_pack("{s:i, s:s?}",
			"timed_iterations", (int)s->adaptive_timed_iterations,
			"stopped", s->adaptive_stopped));
	if (s->nretries) {
		o = json_object();
		for (i = 0; i < s->nretries; i++)
			json_object_set_new(o, s->retries[i].unit,
				json_integer(s->retries[i].attempts));
		json_object_set_new(j, "disturbed_retries", o);
	}
	if (s->nsuperseded) {
		o = json_array();
		for (i = 0; i < s->nsuperseded; i++)
			json_array_append_new(o, json_pack(
				"{s:s, s:s, s:i, s:s}",
				"key", s->superseded[i].key,
				"dir", s->superseded[i].dir,
				"attempt", (int)s->superseded[i].attempt,
				"reason", s->superseded[i].reason));
		json_object_set_new(j, "superseded", o);
	}
	ret = kb_json_write_atomic(path, j);
	json_decref(j);
	return ret;
}
