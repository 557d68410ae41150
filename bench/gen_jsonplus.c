/* bench/gen_jsonplus.c - a big fio json+ file for `make bench`'s peak-RSS
 * figure: a real fio json+ document with its "jobs" array replicated.
 *
 * usage: gen_jsonplus SRC OUT MIB
 *
 * SRC is fio --output-format=json+ output (text before the first '{',
 * such as "fio: terminating on signal 2", is skipped).  Its jobs are
 * copied, round robin, with "jobname" suffixed ".N", until the document
 * written to OUT (indented by 2 like fio's own output, key order kept) is
 * at least MIB MiB.  Prints "jobs=N bytes=B".  Exit status 0 or 1.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

int main(int argc, char **argv)
{
	json_t *doc = NULL, *jobs, *orig = NULL;
	json_error_t je;
	char *buf = NULL, *p;
	size_t len = 0, one, target, n, i, k;
	long mib;
	FILE *f = NULL;
	int ret = 1;

	if (argc != 4 || (mib = strtol(argv[3], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: gen_jsonplus SRC OUT MIB\n");
		return 1;
	}
	target = (size_t)mib << 20;
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = (size_t)ftell(f)) == 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = calloc(1, len + 1)) ||
	    fread(buf, 1, len, f) != len) {
		perror(argv[1]);
		goto out;
	}
	p = strchr(buf, '{');
	doc = p ? json_loadb(p, len - (size_t)(p - buf), JSON_DISABLE_EOF_CHECK,
			     &je) : NULL;
	jobs = json_object_get(doc, "jobs");
	if (!json_array_size(jobs)) {
		fprintf(stderr, "%s: not a fio JSON document with jobs\n",
			argv[1]);
		goto out;
	}
	orig = json_deep_copy(jobs);
	one = json_dumpb(doc, NULL, 0, DUMP_FLAGS) /
	      json_array_size(orig);
	n = target / (one ? one : 1) + 1;
	json_array_clear(jobs);
	for (i = 0; i < n; i++) {
		json_t *j = json_deep_copy(json_array_get(orig,
				i % json_array_size(orig)));
		const char *name = json_string_value(json_object_get(j,
								 "jobname"));
		char nb[256];

		snprintf(nb, sizeof(nb), "%s.%zu", name ? name : "job", i);
		json_object_set_new(j, "jobname", json_string(nb));
		json_array_append_new(jobs, j);
	}
	k = json_dumpb(doc, NULL, 0, DUMP_FLAGS);
	fclose(f);
	f = NULL;
	if (json_dump_file(doc, argv[2], DUMP_FLAGS)) {
		perror(argv[2]);
		goto out;
	}
	printf("jobs=%zu bytes=%zu\n", n, k);
	ret = 0;
out:
	if (f)
		fclose(f);
	json_decref(orig);
	json_decref(doc);
	free(buf);
	return ret;
}
