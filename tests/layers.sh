#!/bin/bash
# tests/layers.sh - the layering rule (scripts/check-layers): the tree
# passes it, and a tree with each kind of violation fails it (an include
# of a layer above, of a sibling, <jansson.h> outside results/ and
# parsers/, a json_*() call or json_t there, a stale entry in the
# pending list).  LAYERS comes from the
# Makefile.  Closing line: "layers: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAYERS=${LAYERS:?LAYERS (from the Makefile) is not set}
CHECK="$ROOT/scripts/check-layers"
tmp=$(mktemp -d /tmp/kbench-layers.XXXXXX)

check "the source tree follows the layers ($LAYERS)" \
	'"$CHECK" "$ROOT" "$LAYERS" "$ROOT/scripts/jansson-pending" > "$tmp/tree.out"'
sed 's/^/# /' "$tmp/tree.out"

mk() {	# a small tree: FILE CONTENT
	mkdir -p "$tmp/t/$(dirname "$1")"
	printf '%s\n' "$2" > "$tmp/t/$1"
}
reset() { rm -rf "$tmp/t"; mkdir -p "$tmp/t"; : > "$tmp/t/pending"; }

reset
mk lib/a.h '/* ok */'
mk stats/s.c '#include "lib/a.h"'
mk reports/r.c '#include "stats/s.h"'
check "a clean tree passes" '"$CHECK" "$tmp/t" "$LAYERS" "$tmp/t/pending"'

reset
mk stats/s.c '#include "reports/table.h"'
check "a lower folder including a higher one fails, naming file and line" \
	'! "$CHECK" "$tmp/t" "$LAYERS" > "$tmp/o" && grep -q "^stats/s.c:1: includes reports/, a layer above stats/" "$tmp/o"'

reset
mk push/p.c '/* x */
#include "reports/report.h"'
check "a sibling include (push/ -> reports/) fails" \
	'! "$CHECK" "$tmp/t" "$LAYERS" > "$tmp/o" && grep -q "^push/p.c:2: includes reports/, a sibling of push/" "$tmp/o"'

reset
mk reports/j.c '#include <jansson.h>'
mk results/m.c '#include <jansson.h>
json_t *f(void) { return json_object(); }'
mk parsers/f.c '#include <jansson.h>'
check "<jansson.h> outside results/ and parsers/ fails; inside them it passes" \
	'! "$CHECK" "$tmp/t" "$LAYERS" "$tmp/t/pending" > "$tmp/o" && grep -q "^reports/j.c: includes <jansson.h>" "$tmp/o" && [ "$(wc -l < "$tmp/o")" = 1 ]'
echo reports/j.c > "$tmp/t/pending"
check "... even when the file is in the pending list (an include is never pending)" \
	'! "$CHECK" "$tmp/t" "$LAYERS" "$tmp/t/pending" > "$tmp/o" && grep -q "^reports/j.c: includes <jansson.h>" "$tmp/o"'

reset
mk stats/s.c '/* json_t in a comment is fine: json_object_get(x) */
#include "results/model.h"
static double f(json_t *r) { return json_number_value(json_object_get(r, "x")); }'
mk stats/t.c '/* json_t *x; json_decref(x); only in comments */
int g(void);'
check "a json_*() call or json_t outside results/ and parsers/ fails (through another header too); comments do not count" \
	'! "$CHECK" "$tmp/t" "$LAYERS" "$tmp/t/pending" > "$tmp/o" && grep -q "^stats/s.c: uses jansson" "$tmp/o" && [ "$(wc -l < "$tmp/o")" = 1 ]'
echo stats/s.c > "$tmp/t/pending"
check "... unless the file is in the pending list" \
	'"$CHECK" "$tmp/t" "$LAYERS" "$tmp/t/pending"'
echo 'int f(void);' > "$tmp/t/stats/s.c"
check "a pending entry that no longer uses jansson fails (the list only shrinks)" \
	'! "$CHECK" "$tmp/t" "$LAYERS" "$tmp/t/pending" > "$tmp/o" && grep -q "stats/s.c no longer uses jansson" "$tmp/o"'

rm -rf "$tmp"
e2e_summary "layers"
