/* results/export.c - the results.json export (docs/results-format.md):
 * results_load_export() loads one written by kbench for `kbench report
 * --from-json`, results_export_dumps() serializes a model (results/model.h). */
#include "results/model.h"
#include "results/paths.h"
#include "lib/err.h"
#include "lib/file.h"
#include "parsers/json_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

json_t *results_load_export(const char *path)
{
	json_t *res, *ver;

	res = kb_json_load(path);
	if (!res)
		return NULL;
	if (!json_is_object(res)) {
		kb_error("%s: not a kbench results.json (the document is not "
			 "a JSON object)", path);
		goto fail;
	}
	ver = json_object_get(res, "schema_version");
	if (!ver) {
		kb_error("%s: not a kbench results.json (no schema_version); "
			 "give the results.json of a campaign directory",
			 path);
		goto fail;
	}
	if (!json_is_integer(ver) ||
	    json_integer_value(ver) != KB_SCHEMA_VERSION) {
		char *v = json_dumps(ver, JSON_ENCODE_ANY);

		kb_error("%s: schema_version %s is not supported; this kbench "
			 "(%s) reads schema_version %d (use the kbench that "
			 "wrote it, or rebuild it with 'kbench report "
			 "--reparse DIR')", path, v ? v : "?", KBENCH_VERSION,
			 KB_SCHEMA_VERSION);
		free(v);
		goto fail;
	}
	if (!json_is_array(json_object_get(res, "runs")) &&
	    !json_object_get(res, "summaries")) {
		/* state.json (runs: an object), campaign.json (a plan) and
		 * results.json all carry a schema_version */
		kb_error("%s: not a kbench results.json (%s); give the "
			 "results.json of a campaign directory", path,
			 json_is_object(json_object_get(res, "runs")) ?
			 "a campaign's state.json, by its keys" :
			 json_object_get(res, "plan") ?
			 "a campaign's campaign.json, by its keys" :
			 "no \"runs\" array, no \"summaries\"");
		goto fail;
	}
	if (!json_is_array(json_object_get(res, "runs"))) {
		kb_error("%s: schema_version 1 but no \"runs\" array; the file "
			 "is damaged (see docs/results-format.md)", path);
		goto fail;
	}
	return res;
fail:
	json_decref(res);
	return NULL;
}

char *results_export_dumps(const json_t *results)
{
	return json_dumps(results, JSON_INDENT(2) | JSON_SORT_KEYS |
			  JSON_REAL_PRECISION(17));
}

int results_dumpf(FILE *out, const json_t *doc)
{
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_SORT_KEYS) ||
	    fputc('\n', out) == EOF)
		return -EIO;
	return 0;
}

int results_export_write(const char *path, const json_t *results,
			 unsigned flags)
{
	return kb_json_text_write_atomic(path, results_export_dumps(results),
					 flags);
}

size_t results_run_count(const json_t *results)
{
	return json_array_size(json_object_get(results, "runs"));
}

void results_free(json_t *results)
{
	json_decref(results);
}
