#!/bin/bash
# tests/e2e_report.sh - the reports people look at, end to end:
#  1. results.json exports (the report fixture, and a real 1 s campaign on
#     a loop device when we are root) validate against
#     schema/results.schema.json with Debian's python3-jsonschema
#     (/usr/bin/jsonschema, started from an argv array);
#  2. `kbench report --plots` draws SVG and PNG graphs with gnuplot, and
#     the SVG files are well-formed XML with an <svg> root;
#  3. every layout renders in text and markdown from an export alone, and
#     the CSV (data: a record per configuration, job and metric) loads in
#     Python's csv module with numbers in its numeric columns;
#  4. report.md, turned into HTML by cmark-gfm (GitHub's markdown), renders
#     in headless Chromium; the screenshot must be a PNG of real size.
# A missing tool gives a SKIP line for its part.  Closing line:
# "e2e-report: N passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-e2e-report.XXXXXX)
finish() {
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary e2e-report
	exit $?
}
fixture="$repo/tests/data/report/results.json"
schema="$repo/schema/results.schema.json"

# --- 1. JSON schema ---------------------------------------------------
"$KBENCH" report --from-json "$fixture" -f json -o "$tmp/fixture.json"
check "fixture export written" "[ -s '$tmp/fixture.json' ]"
campaign=""
if [ "$(id -u)" -eq 0 ] && command -v fio >/dev/null &&
   command -v losetup >/dev/null; then
	cat >"$tmp/r.conf" <<CONF
[global]
jobs = randread-4k
iterations = 2
warmup = 0
runtime = 1
target = loop:64M
profiles = $repo/profiles
tunable NM = queue/nomerges: 0 1

[running]
method = local
CONF
	campaign="$tmp/c"
	"$KBENCH" run -q -c "$tmp/r.conf" -o "$campaign" >"$tmp/run.out" \
		2>"$tmp/run.err"
	rc=$?
	check "real campaign runs (rc $rc)" "[ $rc -eq 0 ]"
	[ $rc -eq 0 ] || { cat "$tmp/run.err"; campaign=""; }
else
	skipped "no real campaign (needs root, fio, losetup)"
fi
if [ -x /usr/bin/jsonschema ]; then
	args=(/usr/bin/jsonschema -i "$tmp/fixture.json")
	[ -n "$campaign" ] && args+=(-i "$campaign/results.json")
	out=$("${args[@]}" "$schema" 2>&1)
	check "exports validate against schema/results.schema.json${out:+: $out}" "[ -z \"\$out\" ]"
	jq '.runs[0].status = "done" | del(.summaries)' "$tmp/fixture.json" \
		>"$tmp/bad.json"
	out=$(/usr/bin/jsonschema -i "$tmp/bad.json" "$schema" 2>&1)
	check "the schema rejects a damaged export" \
		"echo \"\$out\" | grep -q \"'done' is not one of\""
	check "the schema requires summaries" \
		"echo \"\$out\" | grep -q \"'summaries' is a required property\""
else
	skipped "schema validation needs python3-jsonschema (/usr/bin/jsonschema)"
fi
if [ -n "$campaign" ]; then
	check "the reproducer gives the target's real size (64M: KBENCH_SIZE=67108864)" \
		"grep -q 'KBENCH_SIZE=67108864 ' '$campaign/report.md' && ! grep -q 'KBENCH_SIZE=<' '$campaign/report.md' && [ \"\$(jq '.runs[0].target_size_bytes' '$campaign/results.json')\" = 67108864 ]"
	check "fio's I/O count: fio.total_ios > 0 in every run, the time table's fio I/Os" \
		"[ \"\$(jq '[.runs[] | select(.metrics[\"fio.total_ios\"] > 0)] | length' '$campaign/results.json')\" = \"\$(jq '.runs | length' '$campaign/results.json')\" ] && grep -Eq '^Kernel +NM +user +system .* fio I/Os\$' '$campaign/report.txt'"
	check "results.json carries the job files" \
		"jq -e '.campaign.job_files[\"randread-4k\"] | test(\"rw=randread\")' '$campaign/results.json' >/dev/null"
	"$KBENCH" report --from-json "$campaign/results.json" -f json \
		-o "$tmp/again.json"
	check "an export re-exports to the same runs and comparisons" \
		"[ \"\$(jq -S '.runs, .comparisons' '$tmp/again.json')\" = \"\$(jq -S '.runs, .comparisons' '$campaign/results.json')\" ]"
	# kernels.conf prefix = auto (one 1 s run a configuration): the
	# runner's report.txt and `kbench report DIR` scale the variants
	# table's mean ("45.12k"); --prefix none wins (plain IOPS).  Its
	# layouts = time rounds adds the rounds table, not the time tables
	# the default report has already (they were printed twice)
	sed -e 's/^iterations = 2$/iterations = 1/' \
	    -e 's/^runtime = 1$/runtime = 1\nprefix = auto\nlayouts = time rounds/' "$tmp/r.conf" \
	    >"$tmp/prefix.conf"
	"$KBENCH" run -q -c "$tmp/prefix.conf" -o "$tmp/cpfx" >/dev/null \
		2>"$tmp/pfx.err"
	rc1=$?
	"$KBENCH" report "$tmp/cpfx" >"$tmp/pfx-auto.txt" 2>>"$tmp/pfx.err"
	rc2=$?
	"$KBENCH" report --prefix none "$tmp/cpfx" >"$tmp/pfx-none.txt" \
		2>>"$tmp/pfx.err"
	rc3=$?
	mean_of() {	# FILE: the NM=0 row's mean
		awk '$1 == "running" && $2 == "0" { print $3; exit }' "$1"
	}
	m1=$(mean_of "$tmp/cpfx/report.txt"); m2=$(mean_of "$tmp/pfx-auto.txt")
	m3=$(mean_of "$tmp/pfx-none.txt"); m4=$(mean_of "$campaign/report.txt")
	check "layouts = time rounds: report.txt has the time table once ($(grep -c 'fio.s time (as /usr/bin/time)' "$tmp/cpfx/report.txt")), the rounds table after it once ($(grep -c ', per round$' "$tmp/cpfx/report.txt"))" \
		"[ \$(grep -c 'fio.s time (as /usr/bin/time)' '$tmp/cpfx/report.txt') -eq 1 ] && [ \$(grep -c ', per round\$' '$tmp/cpfx/report.txt') -eq 1 ] && [ \$(grep -c 'fio.s time (as /usr/bin/time)' '$tmp/cpfx/report.md') -eq 1 ]"
	check "prefix = auto: report.txt and kbench report scale the mean ($m1, $m2), --prefix none does not ($m3), nor a campaign without it ($m4) (rc $rc1 $rc2 $rc3)" \
		"[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && grep -q '\"prefix\": \"auto\"' '$tmp/cpfx/campaign.json' && [[ '$m1' =~ ^[0-9.]+[kM]\$ ]] && [ '$m1' = '$m2' ] && [[ '$m3' =~ ^[0-9]+\\.[0-9]+\$ ]] && [[ '$m4' =~ ^[0-9]+\\.[0-9]+\$ ]]"
	# another of the campaign's files given for results.json: said so,
	# not "damaged"; a missing file without jansson's -1:-1
	"$KBENCH" report --from-json "$campaign/state.json" >/dev/null 2>"$tmp/fj1.err"
	rc1=$?
	"$KBENCH" report --from-json "$campaign/campaign.json" >/dev/null 2>"$tmp/fj2.err"
	rc2=$?
	"$KBENCH" report --from-json "$tmp/nosuch.json" >/dev/null 2>"$tmp/fj3.err"
	rc3=$?
	"$KBENCH" compare --metric read.iopz "$campaign" "$campaign" >/dev/null 2>"$tmp/near1.err"
	rc4=$?
	"$KBENCH" report --metric read.clat_p99_nz "$campaign" >/dev/null 2>"$tmp/near2.err"
	rc5=$?
	check "a metric name one edit off: exit 2 ($rc4 $rc5), did you mean the one these results have" \
		"[ $rc4 -eq 2 ] && [ $rc5 -eq 2 ] && grep -q \"'read.iopz': no such metric in these results; did you mean 'read.iops'?\" '$tmp/near1.err' && grep -q \"did you mean 'read.clat_p99_ns'?\" '$tmp/near2.err'"
	# a FIFO with no writer: said empty, not jansson's "'[' expected"
	mkfifo "$tmp/ff.json"
	timeout 20 "$KBENCH" report --from-json "$tmp/ff.json" >/dev/null 2>"$tmp/ff.err"
	rc7=$?
	check "--from-json a FIFO with no writer: exit 2 (got $rc7), said empty, from a pipe" \
		"[ $rc7 -eq 2 ] && grep -q 'ff.json: empty (0 bytes from a pipe or FIFO): no JSON in it' '$tmp/ff.err'"
	# a run's metrics.json damaged: the run counts as failed and the
	# report is written (exit 0), so the lines are warnings, with the
	# file's line and column (a helper's trial: "error:" and exit 0)
	cp -a "$campaign" "$tmp/dmg"
	# a recorded run's (not a superseded copy's, NNN.superseded-K)
	m1=$(jq -r '.runs[0] | "\(.configuration)/\(.job)/\(.iteration)"' "$campaign/results.json")
	m1=$tmp/dmg/runs/${m1%/*}/$(printf %03d "${m1##*/}")/metrics.json
	truncate -s 100 "$m1"
	"$KBENCH" report "$tmp/dmg" >/dev/null 2>"$tmp/dmg.err"
	rc6=$?
	check "a damaged metrics.json: report exits 0 (got $rc6), warnings naming FILE:LINE:COL and the run, no error" \
		"[ $rc6 -eq 0 ] && grep -q 'warning: .*/metrics.json:[0-9]*:[0-9]*: ' '$tmp/dmg.err' && grep -q 'counted as failed here' '$tmp/dmg.err' && ! grep -q 'error:' '$tmp/dmg.err'"
	check "--from-json state.json / campaign.json / a missing file: exit 2, each named for what it is (got $rc1 $rc2 $rc3)" \
		"[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && grep -q \"state.json: not a kbench results.json (a campaign's state.json\" '$tmp/fj1.err' && grep -q \"campaign.json: not a kbench results.json (a campaign's campaign.json\" '$tmp/fj2.err' && grep -q 'nosuch.json: cannot open: No such file' '$tmp/fj3.err' && ! grep -q -- '-1:-1\\|damaged' '$tmp/fj1.err' '$tmp/fj2.err' '$tmp/fj3.err'"
fi

# --- 2. plots -----------------------------------------------------------
src="$fixture"; from=(--from-json "$fixture")
[ -n "$campaign" ] && { src="$campaign"; from=("$campaign"); }
if command -v gnuplot >/dev/null; then
	"$KBENCH" report "${from[@]}" --plots "$tmp/out/plots" --png \
		-f markdown -o "$tmp/out/report.md" 2>"$tmp/plots.err"
	rc=$?
	check "report --plots exits 0 (rc $rc)" "[ $rc -eq 0 ]"
	for k in bar iterations scaling; do
		f="$tmp/out/plots/randread-4k-$k"
		check "$k plot: SVG and PNG exist" "[ -s '$f.svg' ] && [ -s '$f.png' ]"
		check "$k plot: SVG is XML with an <svg> root" \
			"/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(r.tag != \"{http://www.w3.org/2000/svg}svg\")' '$f.svg'"
		check "$k plot: PNG signature" \
			"[ \"\$(head -c 8 '$f.png' | od -An -tx1 | tr -d ' \n')\" = 89504e470d0a1a0a ]"
		check "$k plot embedded in report.md" \
			"grep -qF '](plots/randread-4k-$k.svg)' '$tmp/out/report.md'"
	done
	if [ -n "$campaign" ]; then
		check "latency CDF drawn from the json+ bins" \
			"[ -s '$tmp/out/plots/randread-4k-cdf.svg' ] && [ \$(grep -cv '^#' '$tmp/out/plots/randread-4k-cdf.dat') -gt 10 ]"
		check "the runner's report.md embeds its plots" \
			"grep -qF '](plots/randread-4k-bar.svg)' '$campaign/report.md' && [ -s '$campaign/plots/randread-4k-bar.svg' ]"
		check "the runner draws SVG only unless plot_png = yes (issue 16)" \
			"! ls '$campaign'/plots/*.png 2>/dev/null | grep -q ."
		"$KBENCH" report "$campaign" --plots "$tmp/out/svgonly" \
			>/dev/null 2>&1
		check "report --plots without --png draws no PNG" \
			"[ -s '$tmp/out/svgonly/randread-4k-bar.svg' ] && ! ls '$tmp/out/svgonly'/*.png 2>/dev/null | grep -q ."
		# plot_png = yes: the runner's graphs as PNG too (one 1 s run)
		sed -e 's/^iterations = 2$/iterations = 1/' \
		    -e 's/^tunable NM = .*/plot_png = yes/' "$tmp/r.conf" \
		    >"$tmp/png.conf"
		"$KBENCH" run -q -c "$tmp/png.conf" -o "$tmp/cpng" \
			>/dev/null 2>"$tmp/png.err"
		check "plot_png = yes: the runner draws a PNG beside each SVG" \
			"[ -s '$tmp/cpng/plots/randread-4k-bar.svg' ] && [ \"\$(head -c 8 '$tmp/cpng/plots/randread-4k-bar.png' | od -An -tx1 | tr -d ' \n')\" = 89504e470d0a1a0a ]"
	fi
	check "report.md has environment and reproducer sections" \
		"grep -q '^## Environment' '$tmp/out/report.md' && grep -q '^## Reproduce' '$tmp/out/report.md'"
else
	skipped "plots need gnuplot (apt-get install gnuplot-nox)"
fi

# --- 3. every layout from the export alone -------------------------------
for l in variants profile time rounds scaling mmtests lkp; do
	for f in text markdown; do
		"$KBENCH" report --from-json "$fixture" --layout $l -f $f \
			>"$tmp/l.out" 2>"$tmp/l.err"
		rc=$?
		check "--layout $l -f $f exits 0 (rc $rc)" \
			"[ $rc -eq 0 ] && [ -s '$tmp/l.out' ]"
	done
done

# --- 3b. CSV is data: Python's csv module reads numbers ------------------
# (reports/csv.c): one header, one record per (configuration, job, metric)
# summary, the same width on every record, numeric columns that parse as
# numbers or are empty, 0/1 flags, verdict and analysis words.
csv_check() {	# CSV RESULTS_JSON
	/usr/bin/python3 - "$1" "$2" <<'PY'
import csv, json, math, sys
raw = open(sys.argv[1], 'rb').read()
assert raw.endswith(b'\r\n'), 'records end in CRLF'
rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
head, recs = rows[0], rows[1:]
want = ['job', 'metric', 'unit', 'n', 'mean', 'sd', 'cv_pct', 'ci_low',
        'ci_high', 'baseline', 'change_pct', 'change_ci_low',
        'change_ci_high', 'p_adjusted', 'significant', 'mde_pct',
        'disturbed_runs', 'bimodal', 'analysis', 'verdict']
assert head[:2] == ['configuration', 'variant'], head
assert head[-len(want):] == want, head
model = json.load(open(sys.argv[2]))
assert len(recs) == len(model['summaries']), (len(recs), len(model['summaries']))
assert len(recs) > 0
col = {h: i for i, h in enumerate(head)}
floats = ['mean', 'sd', 'cv_pct', 'ci_low', 'ci_high', 'change_pct',
          'change_ci_low', 'change_ci_high', 'p_adjusted', 'mde_pct']
verdicts = {'', 'improvement', 'regression', 'significant difference',
            'no significant difference', 'underpowered',
            'insufficient samples',
            'inconclusive'}
compared = 0
for r in recs:
    assert len(r) == len(head), ('width', len(r), len(head), r)
    for name in floats:
        v = r[col[name]]
        if v:
            assert math.isfinite(float(v)), (name, v)
    for name in ('n', 'disturbed_runs'):
        v = r[col[name]]
        assert v == '' or int(v) >= 0, (name, v)
    assert int(r[col['n']]) >= 1
    for name in ('significant', 'bimodal'):
        assert r[col[name]] in ('', '0', '1'), (name, r[col[name]])
    assert r[col['verdict']] in verdicts, r[col['verdict']]
    assert r[col['analysis']] in ('', 'paired', 'welch-log', 'welch')
    mean, lo, hi = (r[col[k]] for k in ('mean', 'ci_low', 'ci_high'))
    if lo and hi:
        assert float(lo) <= float(mean) <= float(hi), (lo, mean, hi)
    for i, v in enumerate(r):	# no display strings ('%' is a unit)
        assert v not in ('n/a', 'base') and '\u00b1' not in v, v
        assert head[i] == 'unit' or not v.endswith('%'), v
    if r[col['verdict']]:
        compared += 1
        assert r[col['significant']] in ('0', '1') and r[col['baseline']]
assert compared > 0, 'no compared metric'
print('%d records of %d fields, %d compared' % (len(recs), len(head), compared))
PY
}
"$KBENCH" report --from-json "$fixture" -f csv -o "$tmp/data.csv"
"$KBENCH" report --from-json "$fixture" -f json -o "$tmp/data.json"
out=$(csv_check "$tmp/data.csv" "$tmp/data.json" 2>&1)
check "report -f csv loads in Python's csv module as numbers: $out" "grep -q records <<<\"\$out\""
if [ -n "$campaign" ]; then
	"$KBENCH" report "$campaign" -f csv -o "$tmp/camp.csv"
	"$KBENCH" report "$campaign" -f json -o "$tmp/camp.json"
	out=$(csv_check "$tmp/camp.csv" "$tmp/camp.json" 2>&1)
	check "a real campaign's CSV too: $out" "grep -q records <<<\"\$out\""
	# compare A A: every change 0.00%; 0, or 125 when underpowered
	"$KBENCH" compare "$campaign" "$campaign" >"$tmp/aa.out" 2>&1
	rc=$?
	check "compare A A on a real campaign: exit 0 or 125 (rc $rc), every change +0.00%" \
		"[ $rc -eq 0 -o $rc -eq 125 ] && grep -q '(+0.00%)' '$tmp/aa.out' && ! grep -E '^[a-z]+[.][a-z0-9_.]+ ' '$tmp/aa.out' | grep -qE '[(*] ?[-+][0-9.]*[1-9][0-9.]*%[)*]'"
	"$KBENCH" compare --accept-underpowered "$campaign" "$campaign" \
		>/dev/null 2>&1
	rc=$?
	check "compare A A --accept-underpowered: exit 0 (rc $rc)" "[ $rc -eq 0 ]"
fi
for l in rounds scaling mmtests lkp; do
	"$KBENCH" report --from-json "$fixture" --layout $l >"$tmp/l.txt"
	check "--layout $l text: no line over 80 columns" \
		"awk 'length > 80 { bad = 1 } END { exit bad }' '$tmp/l.txt'"
done
# --prefix auto: IOPS cells with an SI prefix ("101.2k"), the same table
# as json plain numbers (data); an unknown WHAT refused naming the choices
for l in rounds scaling mmtests; do
	"$KBENCH" report "${from[@]}" --layout $l --prefix auto >"$tmp/p.txt" \
		2>"$tmp/p.err"
	rc=$?
	check "--layout $l --prefix auto: exit 0, IOPS cells in k (rc $rc)" \
		"[ $rc -eq 0 ] && grep -Eq '^ *[A-Za-z0-9,=.-]+ +[0-9.]+k( |\$)' '$tmp/p.txt' && grep -q '^k = 10^3' '$tmp/p.txt' && awk 'length > 80 { bad = 1 } END { exit bad }' '$tmp/p.txt'"
done
"$KBENCH" report "${from[@]}" --layout rounds --prefix auto -f json \
	>"$tmp/p.json" 2>/dev/null
check "--prefix auto -f json: the table's cells stay plain numbers" \
	"jq -e '[.jobs[].tables[].rows[].cells[1:][] | select(. != \"n/a\")] | length > 0 and all(test(\"^-?[0-9]+([.][0-9]+)?\$\"))' '$tmp/p.json' >/dev/null"
"$KBENCH" report --from-json "$fixture" --layout rounds --prefix bogus \
	>"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
check "--prefix bogus: exit 2, nothing written, the choices named" \
	"[ $rc -eq 2 ] && [ ! -s '$tmp/p.out' ] && grep -q \"prefix 'bogus'.*auto.*none\" '$tmp/p.err'"
"$KBENCH" report --from-json "$fixture" --rows nosuch --cols NM \
	>/dev/null 2>"$tmp/e.err"
rc=$?
check "--rows nosuch: exit 2 and names the choices" \
	"[ $rc -eq 2 ] && grep -q 'rows nosuch: no such dimension.*tunable label (NM)' '$tmp/e.err'"
# a named layout with --rows/--cols: refused, each layout (lkp crashed
# on --rows job; mmtests and rounds averaged two jobs' IOPS together: a
# new user's trial); scaling takes --cols alone
for l in lkp mmtests rounds variants time profile scaling; do
	"$KBENCH" report --from-json "$fixture" --layout $l --rows job \
		--cols NM >/dev/null 2>"$tmp/lr.err"
	rc=$?
	check "--layout $l --rows job --cols NM: exit 2 (got $rc), said" \
		"[ $rc -eq 2 ] && grep -q 'layout $l with --rows job: a layout is a table of its own' '$tmp/lr.err'"
done
"$KBENCH" report --from-json "$fixture" --layout scaling --cols NM >/dev/null 2>&1
rc=$?
"$KBENCH" report --from-json "$fixture" --layout pivot --rows NM --cols job >/dev/null 2>&1
rc2=$?
check "--layout scaling --cols NM, --layout pivot --rows NM --cols job: still taken (got $rc, $rc2)" "[ $rc -eq 0 ] && [ $rc2 -eq 0 ]"
# --metric write.iops with a read-only job beside a job that writes: its
# table says it is not measured by that job, not "no successful runs"
# (a new user's trial)
jq '.runs += [.runs[] | .job = "randrw-4k" | .metrics["write.iops"] = 1000]' \
	"$fixture" >"$tmp/wonly.json"
"$KBENCH" report --from-json "$tmp/wonly.json" --metric write.iops >"$tmp/wonly.txt" 2>&1
rc=$?
check "--metric write.iops, a read-only job beside: exit 0 (got $rc), 'not measured by this job', not 'no successful runs'" \
	"[ $rc -eq 0 ] && grep -q '^randread-4k: write.iops: not measured by this job' '$tmp/wonly.txt' && ! grep -q 'no successful runs' '$tmp/wonly.txt' && grep -q '^randrw-4k: write.iops, mean of' '$tmp/wonly.txt'"
# a device never ends: refused, not read into memory
timeout 20 "$KBENCH" report --from-json /dev/urandom >/dev/null 2>"$tmp/dev.err"
rc=$?
check "report --from-json /dev/urandom: exit 2, a device, not read (got $rc)" \
	"[ $rc -eq 2 ] && grep -q '/dev/urandom: a device, not a file: not read' '$tmp/dev.err'"
timeout 20 "$KBENCH" parse /dev/zero >/dev/null 2>"$tmp/dev2.err"
rc=$?
check "parse /dev/zero: an error, a device, not read (got $rc)" \
	"[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q '/dev/zero: a device, not a file: not read' '$tmp/dev2.err'"
# README's csv example is what kbench prints for that file today
want=$(grep -A1 '^configuration,variant,NM,job,metric' "$repo/README.md" | sed -n 2p)
"$KBENCH" report --from-json "$repo/tests/data/report/results.json" -f csv \
	2>/dev/null | tr -d '\r' >"$tmp/readme.csv"	# RFC 4180: CRLF
check "README's csv example record is kbench's own output" \
	"[ -n '$want' ] && grep -qxF -- '$want' '$tmp/readme.csv'"
# parse's option errors name the option as written (no '-r' for --ram)
"$KBENCH" parse --ram >/dev/null 2>"$tmp/po1.err"; rc1=$?
"$KBENCH" parse --compact=1 x >/dev/null 2>"$tmp/po2.err"; rc2=$?
"$KBENCH" parse --bogus x >/dev/null 2>"$tmp/po3.err"; rc3=$?
"$KBENCH" parse --comapct x >/dev/null 2>"$tmp/po4.err"; rc4=$?
check "parse --ram / --compact=1 / --bogus / --comapct: exit 2, each named as written, the option meant suggested ($rc1 $rc2 $rc3 $rc4)" \
	"[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && [ $rc4 -eq 2 ] && grep -q 'parse: --ram needs a value' '$tmp/po1.err' && grep -q 'parse: --compact takes no value' '$tmp/po2.err' && grep -q \"parse: unknown option '--bogus'\" '$tmp/po3.err' && grep -q \"parse: unknown option '--comapct'; did you mean '--compact'?\" '$tmp/po4.err'"
# an abbreviation of several options names them (getopt_long's 'ambiguous')
"$KBENCH" parse --lo x >/dev/null 2>"$tmp/po5.err"; rc5=$?
"$KBENCH" parse --log=5 x >/dev/null 2>"$tmp/po6.err"; rc6=$?
check "parse --lo / --log=5: exit 2, ambiguous, naming --logs and --log-avg-msec ($rc5 $rc6)" \
	"[ $rc5 -eq 2 ] && [ $rc6 -eq 2 ] && grep -q \"parse: option '--lo' is ambiguous: --logs or --log-avg-msec (see kbench parse --help)\" '$tmp/po5.err' && grep -q \"parse: option '--log' is ambiguous: --logs or --log-avg-msec\" '$tmp/po6.err'"
# the lines listed under a warning (the campaigns' differences, their
# configurations) show a control character of a results file as '?',
# as the warning's own line does (a raw ESC ] 0 ; ... BEL retitled the
# terminal)
jq '.campaign.target = "loop:64M\u001b]0;pwned\u0007" | .environment.cpu_model = "x\u001b[31m" | .configurations[0].id = "c\u001b[2J"' \
	"$fixture" >"$tmp/esc.json"
"$KBENCH" report --from-json "$fixture" --from-json "$tmp/esc.json" >/dev/null 2>"$tmp/esc.err"
rc=$?
check "a merge's differences from a results file with ESC and BEL: listed with '?' (got $rc: $(grep -c 'pwned' "$tmp/esc.err") lines), no control character on stderr" \
	"grep -q 'loop:64M?]0;pwned? in' '$tmp/esc.err' && ! LC_ALL=C grep -q \"[\$(printf '\\001-\\010\\013-\\037')]\" '$tmp/esc.err'"
"$KBENCH" report --from-json "$fixture" --map 'running,NM=1=running,NM=0' \
	>"$tmp/m.out" 2>"$tmp/m.err"
rc=$?
check "--map with one campaign: exit 2 naming the option, no report" \
	"[ $rc -eq 2 ] && grep -q -- '--map running,NM=1=running,NM=0: --map pairs the configurations of several campaigns' '$tmp/m.err' && [ ! -s '$tmp/m.out' ]"
"$KBENCH" report --from-json "$fixture" --from-json "$fixture" --separate \
	--map 'x=y' >/dev/null 2>"$tmp/m.err"
rc=$?
check "--map with --separate: exit 2 saying why" \
	"[ $rc -eq 2 ] && grep -q -- '--separate reports each campaign alone' '$tmp/m.err'"
"$KBENCH" compare --map 'running,NM=1=running,NM=0' \
	--map 'running,NM=1=running,NM=2' "$repo/tests/data/push/demo" \
	"$repo/tests/data/push/demo" >/dev/null 2>"$tmp/m.err"
rc=$?
check "--map of one configuration twice: exit 2, both named (the second was ignored)" \
	"[ $rc -eq 2 ] && grep -q -- '--map: running,NM=1 is mapped twice, to running,NM=0 and to running,NM=2' '$tmp/m.err'"
# campaigns merged into one table: what differs from the first is said
# (the header shows the first's fio and iterations)
jq '.campaign.environment.fio_version="fio-3.36" | .campaign.iterations=7' "$fixture" >"$tmp/other.json"
"$KBENCH" report --from-json "$fixture" --from-json "$tmp/other.json" >/dev/null 2>"$tmp/diff.err"
"$KBENCH" report --from-json "$fixture" --from-json "$fixture" >/dev/null 2>"$tmp/same.err"
check "report of two campaigns: their differences (fio version, iterations) said, none for two alike" \
	"grep -q 'fio_version: \"fio-3.33\" in .*results.json, \"fio-3.36\" in .*other.json' '$tmp/diff.err' && grep -q 'iterations: 3 in .*results.json, 7 in .*other.json' '$tmp/diff.err' && ! grep -q 'different' '$tmp/same.err'"
# a significant change of a metric the default table does not show
# (p99 here) is named under the table, not only counted in the family
jq '.runs |= map(if .configuration == "running,NM=2" and .metrics["read.clat_p99_ns"] != null then .metrics["read.clat_p99_ns"] *= 0.6 else . end)' "$fixture" >"$tmp/p99.json"
"$KBENCH" report --from-json "$tmp/p99.json" >"$tmp/p99.txt" 2>/dev/null
"$KBENCH" report --metric read.iops,read.clat_p99_ns --from-json "$tmp/p99.json" >"$tmp/nop99.txt" 2>/dev/null
check "a significant p99 change off the default table: named under it (not when the table shows p99)" \
	"tr -s ' \n' ' ' <'$tmp/p99.txt' | grep -q 'also significant, of a metric not in this table: read.clat_p99_ns of running,NM=2 -4[0-9].[0-9][0-9]% (improvement)' && ! grep -q 'also significant' '$tmp/nop99.txt'"
# mmtests compares every column with the first: a --map pair is said
# to be elsewhere, not silently ignored
sed 's/running,NM=2/other,NM=2/g' "$fixture" >"$tmp/renamed.json"
"$KBENCH" report --from-json "$fixture" --from-json "$tmp/renamed.json" \
	--map 'other,NM=2=running,NM=2' -l mmtests 2>/dev/null | tr -s ' \n' ' ' >"$tmp/mm.txt"
check "--layout mmtests with --map: each column against the first, the mapped baseline named" \
	"grep -q \"every column against nomerges-nvme:running,NM=0, as mmtests compares, not against its own baseline (.*nomerges-nvme(2):other,NM=2's is nomerges-nvme:running,NM=2)\" '$tmp/mm.txt'"
"$KBENCH" report -f text,csv -o "$tmp/two.txt" "$repo/tests/data/push/demo" 2>"$tmp/m.err"
rc=$?
check "-f text,csv -o FILE: exit 2, no file of two formats" \
	"[ $rc -eq 2 ] && grep -q -- '-o $tmp/two.txt: one file takes one format, 2 given' '$tmp/m.err' && [ ! -e '$tmp/two.txt' ]"
"$KBENCH" report -f text, "$repo/tests/data/push/demo" >"$tmp/tc.txt" 2>"$tmp/tc.err"
rc=$?
check "-f text, (a name left out): exit 2, said, nothing printed (it passed as text)" \
	"[ $rc -eq 2 ] && grep -q -- \"--format 'text,': an empty name (expected FMT\[,FMT...\]\" '$tmp/tc.err' && [ ! -s '$tmp/tc.txt' ]"
# blanks around a list's items are not part of them (a break-it trial:
# ' read.clat_p99_ns' was no metric); an item of blanks is an empty name
"$KBENCH" report -f 'text, csv' -m 'read.iops, read.clat_p99_ns' \
	"$repo/tests/data/push/demo" >"$tmp/tb.txt" 2>"$tmp/tb.err"
rc=$?
"$KBENCH" report -m 'read.iops, ' "$repo/tests/data/push/demo" \
	>/dev/null 2>"$tmp/tb2.err"
rc2=$?
check "-f 'text, csv' -m 'read.iops, read.clat_p99_ns': blanks trimmed; -m 'read.iops, ': an empty name" \
	"[ $rc -eq 0 ] && [ ! -s '$tmp/tb.err' ] && grep -q 'read.iops, read.clat_p99_ns' '$tmp/tb.txt' && grep -q '^configuration,' '$tmp/tb.txt' && [ $rc2 -eq 2 ] && grep -q -- \"--metric 'read.iops, ': an empty name\" '$tmp/tb2.err'"
cp -r "$repo/tests/data/push/demo" "$tmp/demo2"
"$KBENCH" report --layout rounds "$repo/tests/data/push/demo" "$tmp/demo2" >"$tmp/mr.txt" 2>/dev/null
"$KBENCH" report --layout rounds "$repo/tests/data/push/demo" >"$tmp/mr1.txt" 2>/dev/null
check "--layout rounds of two campaigns says a row pairs only one campaign's columns; of one, not" \
	"grep -q '2 campaigns: a row holds each campaign.s iteration of that number' '$tmp/mr.txt' && ! grep -q 'campaigns: a row holds' '$tmp/mr1.txt'"
# a merged report keeps each campaign's superseded runs (it had none)
cp -r "$repo/tests/data/push/demo" "$tmp/sup1"
cp -r "$repo/tests/data/push/demo" "$tmp/sup2"
for d in sup1 sup2; do
	jq -c '.superseded = [{"key": "running,NM=1/randread-4k/002", "dir": "runs/running,NM=1/randread-4k/002.superseded-1", "attempt": 1, "reason": "disturbed: task.other.cpu_pct 131% > 41%"}]' \
		"$tmp/$d/state.json" >"$tmp/$d/s.json" && mv "$tmp/$d/s.json" "$tmp/$d/state.json"
done
"$KBENCH" report "$tmp/sup1" "$tmp/sup2" >"$tmp/sup.txt" 2>/dev/null
"$KBENCH" report -f json "$tmp/sup1" "$tmp/sup2" >"$tmp/sup.json" 2>/dev/null
check "a merged report: 'Retried: 2 run(s) superseded (1 in sup1, 1 in sup2)', and its JSON lists both, each with its campaign" \
	"grep -q 'Retried:     2 run(s) superseded (1 in sup1, 1 in sup2): ' '$tmp/sup.txt' && [ \"\$(jq -r '[.superseded[] | .campaign + \" \" + .key] | join(\",\")' '$tmp/sup.json')\" = 'sup1 sup1:running,NM=1/randread-4k/002,sup2 sup2:running,NM=1/randread-4k/002' ]"
# and which campaign each run run again belongs to, the failed ones too
# (a break-it trial: "Retried: 2 run(s) superseded" named neither)
cp -r "$repo/tests/data/push/demo" "$tmp/sup3"
jq -c '.superseded = [{"key": "running,NM=0/randread-4k/001", "dir": "runs/running,NM=0/randread-4k/001.superseded-1", "attempt": 1, "reason": "failed: fio exited with status 1"}]' \
	"$tmp/sup3/state.json" >"$tmp/sup3/s.json" && mv "$tmp/sup3/s.json" "$tmp/sup3/state.json"
"$KBENCH" report "$tmp/sup1" "$tmp/sup3" 2>/dev/null | tr -s ' \n' ' ' >"$tmp/sup13.txt"
"$KBENCH" report -f markdown "$tmp/sup3" "$tmp/sup1" 2>/dev/null | tr -s ' \n' ' ' >"$tmp/sup31.md"
check "a merged report's Retried lines name each run's campaign: '1 run(s) superseded (1 in sup1)', '1 failed run(s) (1 in sup3) run again'" \
	"grep -q 'Retried: 1 run(s) superseded (1 in sup1): their rounds' '$tmp/sup13.txt' && grep -q 'Retried: 1 failed run(s) (1 in sup3) run again (--retry-failed;' '$tmp/sup13.txt' && grep -q -- '- Retried: 1 run(s) superseded (1 in sup1): ' '$tmp/sup31.md' && grep -q -- '- Retried: 1 failed run(s) (1 in sup3) run again' '$tmp/sup31.md'"
# campaigns of both orders: the block one's runs were run again alone (a
# break-it trial's note: the merged order is none, and the line said
# every run's round was run again)
cp -r "$tmp/sup2" "$tmp/supb"
jq '.campaign.order = "block"' "$tmp/supb/campaign.json" >"$tmp/supb/c.json" && mv "$tmp/supb/c.json" "$tmp/supb/campaign.json"
"$KBENCH" report "$tmp/sup1" "$tmp/supb" 2>/dev/null | tr -s ' \n' ' ' >"$tmp/sup1b.txt"
check "a merged report of an interleaved and a block campaign says how each one's runs were run again" \
	"grep -q 'Retried: 2 run(s) superseded (1 in sup1, 1 in supb): their rounds had a disturbed run and were run again, or under order = block (supb) each disturbed run alone' '$tmp/sup1b.txt'"
# a damaged state.json names what it found (break-it trials' notes: a
# newer kbench's version was "another version", a run entry that is a
# number was named as its .status): NAME|jq edit|what the error says
while IFS='|' read -r name edit says; do
	cp -r "$repo/tests/data/push/demo" "$tmp/$name"
	jq -c "$edit" "$tmp/$name/state.json" >"$tmp/$name/s.json" && mv "$tmp/$name/s.json" "$tmp/$name/state.json"
	"$KBENCH" report "$tmp/$name" >/dev/null 2>"$tmp/$name.err"
	rc=$?
	printf '%s\n' "$says" >"$tmp/$name.says"
	check "state.json, $edit: refused (got $rc), saying: $says" \
		"[ $rc -ne 0 ] && grep -qFf '$tmp/$name.says' '$tmp/$name.err'"
done <<'EOS'
sv9|.schema_version = 9|state.json: schema_version: expected 1 (this kbench's), got 9 (a newer kbench's)
rn5|.runs["running,NM=0/randread-4k/001"] = 5|state.json: runs."running,NM=0/randread-4k/001": expected an object ({"status": "ok", ...}), got a number
EOS
# a merged report's Machine line: each campaign's median, judged the same
# whatever the order (a break-it trial: "busy" one way, "steady load" the
# other, from the first campaign's limit and the pooled median)
"$KBENCH" report -f json "$repo/tests/data/push/demo" >"$tmp/mq.json" 2>/dev/null
jq '.runs |= map(.metrics["task.other.cpu_pct"] = 5)' "$tmp/mq.json" >"$tmp/q.json"
jq '.runs |= map(.metrics["task.other.cpu_pct"] = 98)' "$tmp/mq.json" >"$tmp/s.json"
"$KBENCH" report --from-json "$tmp/q.json" --from-json "$tmp/s.json" 2>/dev/null | grep -A2 '^Machine' | tr -s ' \n' ' ' >"$tmp/qs.txt"
"$KBENCH" report --from-json "$tmp/s.json" --from-json "$tmp/q.json" 2>/dev/null | grep -A2 '^Machine' | tr -s ' \n' ' ' >"$tmp/sq.txt"
check "merged Machine line: steady load either order, each campaign's median named" \
	"grep -q 'Machine: steady load: other tasks used 5% (demo), 98% (demo(2)) of a CPU' '$tmp/qs.txt' && grep -q 'Machine: steady load: other tasks used 98% (demo), 5% (demo(2))' '$tmp/sq.txt'"
# busy for the share of disturbed runs (1 of 18, over 5%) while the
# medians are 5%: the header says the share first, so that the verdict
# follows from it ("busy: other tasks used 5% ..., 1 of 18 runs
# disturbed" read as a contradiction, a helper's note)
jq '.runs |= (map(.metrics["task.other.cpu_pct"] = 5) | .[3].metrics["task.other.cpu_pct"] = 150 | .[3].disturbed = ["task.other.cpu_pct 150% > 40%"])' "$tmp/mq.json" >"$tmp/b.json"
"$KBENCH" report --from-json "$tmp/b.json" --from-json "$tmp/q.json" 2>/dev/null | grep -A2 '^Machine' | tr -s ' \n' ' ' >"$tmp/bq.txt"
check "merged Machine line: busy says the disturbed share first, then the medians" \
	"grep -q 'Machine: busy: 1 of 18 runs disturbed, each against its own campaign.s level (by task.other.cpu_pct 1); other tasks used 5% (demo), 5% (demo(2)) of a CPU during the runs (medians)' '$tmp/bq.txt'"
# a metrics.json whose status kbench never writes: said, counted failed
cp -r "$repo/tests/data/push/demo" "$tmp/st"
f="$tmp/st/runs/running,NM=0/randread-4k/001/metrics.json"
jq -c '.status = "OK"' "$f" >"$f.n" && mv "$f.n" "$f"
"$KBENCH" report "$tmp/st" >"$tmp/st.txt" 2>"$tmp/st.err"
check "a metrics.json with status 'OK': a warning naming the file, the run failed with the reason" \
	"grep -q \"metrics.json: \\\"status\\\": 'OK' is not one kbench writes\" '$tmp/st.err' && grep -q 'iteration 1: metrics.json has a status' '$tmp/st.txt'"
"$KBENCH" report -f text "$repo/tests/data/push/demo" "$repo/tests/data/push/demo/." >"$tmp/dup.txt" 2>"$tmp/m.err"
rc=$?
"$KBENCH" report -f text "$repo/tests/data/push/demo" >"$tmp/one.txt" 2>/dev/null
check "report A A/.: one campaign, said, the same report as report A (rc $rc)" \
	"[ $rc -eq 0 ] && grep -q 'demo/. is .*demo again: reported once' '$tmp/m.err' && cmp -s '$tmp/dup.txt' '$tmp/one.txt'"
# two campaigns whose job files differ: warned once on standard error,
# and the report says it in its header (it was warned twice, and in
# neither report: a new user's trial)
mkdir -p "$tmp/jfa"
cp -r "$repo/tests/data/push/demo/." "$tmp/jfa"
mkdir "$tmp/jfa/profiles"
cp "$repo/profiles/randread-4k.fio" "$tmp/jfa/profiles/"
cp -r "$tmp/jfa" "$tmp/jfc"
echo 'rate_iops=1000' >>"$tmp/jfc/profiles/randread-4k.fio"
jfw="job randread-4k: the fio job file differs from line [0-9]*: '(end of file)' in jfa, 'rate_iops=1000' in jfc: a difference may come from it"
"$KBENCH" report -f text "$tmp/jfa" "$tmp/jfc" >"$tmp/jf.txt" 2>"$tmp/jf.err"
rc=$?
"$KBENCH" report -f markdown "$tmp/jfa" "$tmp/jfc" >"$tmp/jf.md" 2>/dev/null
n=$(grep -c 'fio job file differs' "$tmp/jf.err")
check "report A C of different job files: exit 0 ($rc), warned once ($n), in the text and markdown headers" \
	"[ $rc -eq 0 ] && [ $n -eq 1 ] && tr -s ' \n' ' ' <'$tmp/jf.txt' | grep -q \"Warning: $jfw\" && grep -q '^- Warning: job randread-4k: the fio job file differs from line [0-9]*: .*in jfc: a difference may come from it' '$tmp/jf.md'"
"$KBENCH" report -m read.iops -m read.iops,read.iops -f text,text "$repo/tests/data/push/demo" >"$tmp/mm.txt" 2>/dev/null
"$KBENCH" report -m read.iops "$repo/tests/data/push/demo" >"$tmp/m1.txt" 2>/dev/null
check "a metric or format given twice is one table (it printed the table twice)" \
	"[ -s '$tmp/m1.txt' ] && cmp -s '$tmp/mm.txt' '$tmp/m1.txt'"
"$KBENCH" report --rows NM --cols job "$repo/tests/data/push/demo" >"$tmp/pv.txt" 2>/dev/null
check "a pivot of cells of equal n says 'the mean of the 3 timed runs' (it said 3-3)" \
	"grep -q 'each cell: the mean of the 3 timed runs with that NM and job' '$tmp/pv.txt'"
"$KBENCH" report -l profile "$repo/tests/data/push/demo" >"$tmp/np.txt" 2>&1
check "-l profile on a campaign without profiles says so (it printed the header alone)" \
	"grep -q 'randread-4k: no CPU or DCM profile: the campaign sampled none' '$tmp/np.txt'"

# --- 3c. one iteration numbering (issue 15) -----------------------------
# A reader's iteration N is the N-th counted round whatever warmup is;
# run keys keep the round index (warm-ups first, from 000), so campaign
# directories made before keep their keys and read as before.
for w in 0 2; do
	printf '[global]\njobs = randread-4k\niterations = 2\nwarmup = %s\nruntime = 1\ntarget = loop:64M\nprofiles = %s\n\n[running]\nmethod = local\n' \
		"$w" "$repo/profiles" >"$tmp/w$w.conf"
	"$KBENCH" plan -c "$tmp/w$w.conf" --runs >"$tmp/plan-w$w" 2>&1
done
check "plan --runs, warmup = 0: key 000 is iteration 1, 001 iteration 2" \
	"grep -q '/randread-4k/000  (iteration 1)\$' '$tmp/plan-w0' && grep -q '/randread-4k/001  (iteration 2)\$' '$tmp/plan-w0' && ! grep -q '(warm-up w' '$tmp/plan-w0'"
check "plan --runs, warmup = 2: keys 000 001 are warm-ups w1 w2, 002 is iteration 1" \
	"grep -q '/randread-4k/000  (warm-up w1)\$' '$tmp/plan-w2' && grep -q '/randread-4k/001  (warm-up w2)\$' '$tmp/plan-w2' && grep -q '/randread-4k/002  (iteration 1)\$' '$tmp/plan-w2'"
# no -c and no kernels.conf here (a new user's trial outside the
# checkout: "cannot open kernels.conf" said nothing of -c): run, plan and
# calibrate name the default and what to give; -o DIR of a campaign needs
# none, and a -c FILE that is missing keeps the loader's message
mkdir "$tmp/noconf"
(cd "$tmp/noconf" && "$KBENCH" run) >/dev/null 2>"$tmp/nc-run.err"; nc1=$?
(cd "$tmp/noconf" && "$KBENCH" plan) >/dev/null 2>"$tmp/nc-plan.err"; nc2=$?
(cd "$tmp/noconf" && "$KBENCH" calibrate) >/dev/null 2>"$tmp/nc-cal.err"; nc3=$?
nc4=0	# the real campaign: plan -o and run -o (nothing left to run)
[ -n "$campaign" ] && { (cd "$tmp/noconf" && "$KBENCH" plan -o "$campaign" && "$KBENCH" run -q -o "$campaign") >/dev/null 2>&1; nc4=$?; }
(cd "$tmp/noconf" && "$KBENCH" plan -c nope.conf) >/dev/null 2>"$tmp/nc-c.err"; nc5=$?
ncmsg="no kernels.conf in the current directory (the default of -c): give -c FILE (kbench(1) KERNELS.CONF describes it; kbench's source has kernels.conf and examples/\*.conf)"
check "no kernels.conf and no -c: run, plan, calibrate say it is -c's default and what to give (exit 1: $nc1 $nc2 $nc3), run also -o DIR; plan -o DIR and run -o DIR need none ($nc4); -c nope.conf: cannot open ($nc5)" \
	"[ $nc1 -eq 1 ] && [ $nc2 -eq 1 ] && [ $nc3 -eq 1 ] && [ $nc4 -eq 0 ] && [ $nc5 -eq 1 ] && grep -q \"$ncmsg, or -o DIR to resume a campaign\\$\" '$tmp/nc-run.err' && grep -q \"$ncmsg\\$\" '$tmp/nc-plan.err' && grep -q \"$ncmsg\\$\" '$tmp/nc-cal.err' && grep -q 'cannot open nope.conf: No such file or directory' '$tmp/nc-c.err' && [ -z \"\$(ls -A '$tmp/noconf')\" ]"
# plan -o of a directory that does not exist, or of a file: said so, not
# "not a kbench campaign (no campaign.json)" (a new user's trial)
"$KBENCH" plan -o "$tmp/noconf/nodir" >/dev/null 2>"$tmp/po1.err"; po1=$?
"$KBENCH" plan -o "$tmp/nc-run.err" >/dev/null 2>"$tmp/po2.err"; po2=$?
check "plan -o NODIR: no such directory, plan -o FILE: not a directory (exit 1: $po1 $po2)" \
	"[ $po1 -eq 1 ] && [ $po2 -eq 1 ] && grep -q 'nodir: no such directory; kbench plan -o takes a campaign' '$tmp/po1.err' && grep -q 'nc-run.err is not a directory; kbench plan -o takes' '$tmp/po2.err' && [ ! -e '$tmp/noconf/nodir' ]"
# a file: target kbench cannot make or use: the message names
# kernels.conf's line, as every other target error (a new user's trial:
# "ft.conf: target = ..." without it)
printf '[global]\njobs = randread-4k\nprofiles = %s\ntarget = file:%s/no-such-dir/t\n[running]\nmethod = local\n' "$repo/profiles" "$tmp" >"$tmp/ft1.conf"
printf '[global]\njobs = randread-4k\nprofiles = %s\ntarget = file:%s\n[running]\nmethod = local\n' "$repo/profiles" "$tmp" >"$tmp/ft2.conf"
"$KBENCH" plan -c "$tmp/ft1.conf" >/dev/null 2>"$tmp/ft1.err"; ft1=$?
"$KBENCH" plan -c "$tmp/ft2.conf" >/dev/null 2>"$tmp/ft2.err"; ft2=$?
check "plan, file: target in no directory or a directory: exit 1 ($ft1 $ft2), kernels.conf's line named" \
	"[ $ft1 -eq 1 ] && [ $ft2 -eq 1 ] && grep -q '^kbench: error: $tmp/ft1.conf:4: target = file:$tmp/no-such-dir/t: its directory $tmp/no-such-dir does not exist' '$tmp/ft1.err' && grep -q '^kbench: error: $tmp/ft2.conf:4: target = file:$tmp: $tmp is a directory, not a file' '$tmp/ft2.err'"
# -o where no file can be written: the name given, not its temporary
# one (a new user's trial: "cannot create out/r.md.tmp.17558: No such
# file or directory", "cannot rename out.tmp.21902 to out: Is a directory")
mkdir "$tmp/odir"
"$KBENCH" report -o "$tmp/no-such-dir/r.md" --from-json "$fixture" 2>"$tmp/o1.err"; o1=$?
"$KBENCH" report -o "$tmp/odir" --from-json "$fixture" 2>"$tmp/o2.err"; o2=$?
"$KBENCH" report -o "$tmp/odir/" --from-json "$fixture" 2>"$tmp/o3.err"; o3=$?
check "report -o in a missing directory, or naming a directory: exit 2 ($o1 $o2 $o3), the name given and why, no temporary left" \
	"[ $o1 -eq 2 ] && [ $o2 -eq 2 ] && [ $o3 -eq 2 ] && grep -qx 'kbench: error: cannot create $tmp/no-such-dir/r.md: its directory $tmp/no-such-dir does not exist' '$tmp/o1.err' && grep -qx \"kbench: error: cannot write $tmp/odir: it names a directory; give a file's name\" '$tmp/o2.err' && grep -qx \"kbench: error: cannot write $tmp/odir/: it names a directory; give a file's name\" '$tmp/o3.err' && [ -z \"\$(ls -A '$tmp/odir')\" ] && ! ls '$tmp' | grep -q 'odir.tmp'"
# a campaign directory of an earlier kbench (warmup = 1, runs 000..003)
cp -r "$repo/tests/data/push/demo" "$tmp/old"
"$KBENCH" report --layout rounds -f text "$tmp/old" >"$tmp/old.txt" 2>&1
rc=$?
check "an earlier campaign directory reads as before: rounds 1 2 3, its keys 000..003 (rc $rc)" \
	"[ $rc -eq 0 ] && [ \"\$(awk '/^---------/ { t = 1; next } t && /^ *[0-9w]+ / { print \$1 } /^\$/ { t = 0 }' '$tmp/old.txt' | tr '\n' ' ')\" = '1 2 3 ' ] && [ -d '$tmp/old/runs/running,NM=0/randread-4k/000' ]"
# one campaign's tables load its runs' numbers beside the tree
# (results/run_values.h); with json among the formats the whole tree is
# loaded: the same tables either way, with every option that changes the
# analysis
same=0 differ=
for f in text markdown csv; do
	for o in "" --exclude-outliers --exclude-disturbed "--metric read.iops"; do
		# shellcheck disable=SC2086
		"$KBENCH" report -f $f $o "$tmp/old" >"$tmp/lean.out" 2>"$tmp/lean.err"
		# shellcheck disable=SC2086
		"$KBENCH" report -f $f,json $o "$tmp/old" >"$tmp/tree.out" 2>"$tmp/tree.err"
		if [ -s "$tmp/lean.out" ] &&
		   head -c "$(wc -c <"$tmp/lean.out")" "$tmp/tree.out" | cmp -s - "$tmp/lean.out" &&
		   cmp -s "$tmp/lean.err" "$tmp/tree.err"; then
			same=$((same + 1))
		else
			differ="$differ [$f $o]"
		fi
	done
done
check "report: the same tables from the numbers loaded beside the tree as from the whole tree (12 of 12)${differ:+; differ:$differ}" \
	"[ $same -eq 12 ]"
# a value no statistic can take (GSL aborted the report on -1e300): left
# out with a warning naming run, metric and value, report and compare go on
cp -r "$tmp/old" "$tmp/huge"
m=$(find "$tmp/huge/runs" -name metrics.json | sort | sed -n 2p)
jq '.metrics["read.iops"] = -1e300' "$m" >"$m.new" && mv "$m.new" "$m"
"$KBENCH" report -f text "$tmp/huge" >"$tmp/huge.out" 2>"$tmp/huge.err"
rc=$?
"$KBENCH" compare --metric read.iops "$tmp/old" "$tmp/huge" >"$tmp/huge-cmp.out" 2>&1
crc=$?
check "a metric value of -1e300: report exit 0 ($rc), compare not aborted ($crc), the value named and left out, no GSL abort" \
	"[ $rc -eq 0 ] && [ $crc -ne 134 ] && [ $crc -ne 2 ] && grep -q 'metric read.iops is out of range (-1e+300); left out of the statistics' '$tmp/huge.err' && ! grep -q 'gsl:' '$tmp/huge.err' '$tmp/huge-cmp.out'"
cp -r "$tmp/old" "$tmp/old0"
jq '.campaign.warmup = 0' "$tmp/old/campaign.json" >"$tmp/old0/campaign.json"
"$KBENCH" report -f text "$tmp/old" "$tmp/old0" >/dev/null 2>"$tmp/merge-w.err"
check "a merge of campaigns with different warmup says whose numbering it uses" \
	"grep -q 'old0 has warmup = 0, .*old warmup = 1: the report numbers the iterations of both as' '$tmp/merge-w.err'"
# hosts = (fio --client): the metrics are the load hosts' sum, so another
# set of hosts is another load; compare and a merged report say so (one
# host against two read "improvement +88%" unremarked), a job's own
# hosts (campaign.job_hosts) by job; the same hosts in another order are
# the same load
cp -r "$tmp/old" "$tmp/oldh"
jq '.campaign.hosts = ["10.0.0.2:8765", "10.0.0.3:8765"]' "$tmp/old/campaign.json" >"$tmp/oldh/campaign.json"
cp -r "$tmp/old" "$tmp/oldh1"
jq '.campaign.hosts = ["10.0.0.3:8765", "10.0.0.2:8765"] | .campaign.job_hosts = {"randread-4k": ["10.0.0.2:8765"]}' "$tmp/old/campaign.json" >"$tmp/oldh1/campaign.json"
cp -r "$tmp/old" "$tmp/oldh2"
jq '.campaign.hosts = ["10.0.0.3:8765", "10.0.0.2:8765"]' "$tmp/old/campaign.json" >"$tmp/oldh2/campaign.json"
"$KBENCH" compare "$tmp/old" "$tmp/oldh" >/dev/null 2>"$tmp/hosts-cmp.err"
"$KBENCH" report -f text "$tmp/oldh" "$tmp/oldh1" >/dev/null 2>"$tmp/hosts-rep.err"
"$KBENCH" compare "$tmp/oldh" "$tmp/oldh2" >/dev/null 2>"$tmp/hosts-same.err"
check "compare: other load hosts are named (this machine's fio against two hosts'); a merged report names a job's own hosts; the same hosts in another order are not" \
	"grep -q 'measured different things' '$tmp/hosts-cmp.err' && grep -qxF '  load hosts: none (fio on its own machine) in $tmp/old, 10.0.0.2:8765 10.0.0.3:8765 in $tmp/oldh' '$tmp/hosts-cmp.err' && grep -qxF '  load hosts of job randread-4k: 10.0.0.2:8765 10.0.0.3:8765 in $tmp/oldh, 10.0.0.2:8765 in $tmp/oldh1' '$tmp/hosts-rep.err' && ! grep -q 'load hosts' '$tmp/hosts-same.err'"
if [ -n "$campaign" ]; then
	# made above with warmup = 0: round 0 is iteration 1
	"$KBENCH" report --layout rounds -f text "$campaign" >"$tmp/w0.txt" 2>&1
	check "warmup = 0 campaign: rounds 1 2 in the table, keys 000 001 on disk" \
		"[ \"\$(awk '/^---------/ { t = 1; next } t && /^ *[0-9w]+ / { print \$1 } /^\$/ { t = 0 }' '$tmp/w0.txt' | tr '\n' ' ')\" = '1 2 ' ] && [ -d '$campaign/runs/running,NM=0/randread-4k/000' ] && [ -d '$campaign/runs/running,NM=0/randread-4k/001' ]"
	jq -S .runs "$campaign/state.json" >"$tmp/state-before"
	"$KBENCH" run -q -c "$tmp/r.conf" -o "$campaign" >"$tmp/resume.out" \
		2>"$tmp/resume.err"
	rc=$?
	check "the campaign resumes with nothing left to run (rc $rc, state unchanged)" \
		"[ $rc -eq 0 ] && jq -S .runs '$campaign/state.json' | cmp -s - '$tmp/state-before'"
	# the same job name from an edited job file: compare and a merged
	# report say so (a rate_iops line made "regression -81%" unremarked)
	cp -r "$campaign" "$tmp/edited"
	echo 'rate_iops=1000' >>"$tmp/edited/profiles/randread-4k.fio"
	"$KBENCH" compare "$campaign" "$tmp/edited" >/dev/null 2>"$tmp/edited-cmp.err"
	"$KBENCH" report -f text "$campaign" "$tmp/edited" >"$tmp/edited-rep.out" 2>"$tmp/edited-rep.err"
	check "an edited job file: compare and the merged report name the job and the line" \
		"grep -q \"job randread-4k: its fio job file differs from line [0-9]*: '(end of file)' in $campaign, 'rate_iops=1000' in $tmp/edited\" '$tmp/edited-cmp.err' && grep -q 'job randread-4k: its fio job file differs from line [0-9]*: ' '$tmp/edited-rep.err' && tr -s ' \n' ' ' <'$tmp/edited-rep.out' | grep -q 'Warning: job randread-4k: the fio job file differs from line [0-9]*: .* a difference may come from it'"
	# state.json lost or damaged: rebuilt from the runs' metrics.json,
	# no run redone (a missing state.json had every run run again over
	# its files), the damaged one kept aside
	md5sum "$campaign"/runs/*/*/*/fio.json >"$tmp/fio.md5"
	rm "$campaign/state.json"
	"$KBENCH" run -q -o "$campaign" >"$tmp/lost.out" 2>"$tmp/lost.err"
	rc=$?
	check "state.json missing: rebuilt, nothing redone (rc $rc, the same runs ok, fio.json untouched)" \
		"[ $rc -eq 0 ] && grep -q 'state.json is missing: rebuilt from the runs on disk: 4 of 4 run(s) done' '$tmp/lost.err' && jq -S '.runs | map_values(.status)' '$campaign/state.json' | cmp -s - <(jq -S 'map_values(.status)' '$tmp/state-before') && md5sum -c --quiet '$tmp/fio.md5'"
	printf '{"schema_version": 1, "runs": [' >"$campaign/state.json"
	"$KBENCH" run -q -o "$campaign" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	check "state.json damaged: kept aside, rebuilt, nothing redone (rc $rc)" \
		"[ $rc -eq 0 ] && grep -q 'state.json could not be used; kept as .*state.json.bad-' '$tmp/bad.err' && [ \"\$(cat '$campaign'/state.json.bad-*)\" = '{\"schema_version\": 1, \"runs\": [' ] && jq -S '.runs | map_values(.status)' '$campaign/state.json' | cmp -s - <(jq -S 'map_values(.status)' '$tmp/state-before') && md5sum -c --quiet '$tmp/fio.md5'"
	# an unfinished campaign says so in its report's header
	cp -r "$campaign" "$tmp/unfinished"
	jq '.runs |= with_entries(select(.key | endswith("/001") | not))' "$campaign/state.json" >"$tmp/unfinished/state.json"
	"$KBENCH" report -f text "$tmp/unfinished" >"$tmp/unfinished.txt" 2>&1
	"$KBENCH" report -f text "$campaign" >"$tmp/finished.txt" 2>&1
	check "an unfinished campaign's report: 'Progress: 2 of 4 runs done, 2 to do'; a finished one has no such line" \
		"grep -q '^Progress: *2 of 4 runs done, 2 to do: the campaign is unfinished' '$tmp/unfinished.txt' && ! grep -q '^Progress:' '$tmp/finished.txt'"
	# gnuplot's own warnings stay out of kbench's output (graphs of one
	# run a configuration: "Warning: empty x range" on each)
	"$KBENCH" report --plots "$tmp/unfinished-plots" "$tmp/unfinished" >/dev/null 2>"$tmp/uplots.err"
	rc=$?
	check "graphs of one run: drawn, no gnuplot warning in kbench's output (rc $rc)" \
		"[ $rc -eq 0 ] && ls '$tmp/unfinished-plots'/*.svg >/dev/null 2>&1 && ! grep -q 'Warning: empty' '$tmp/uplots.err'"
fi

# --- 4. report.md in a browser --------------------------------------------
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ] || ! command -v cmark-gfm >/dev/null ||
   [ ! -s "$tmp/out/report.md" ]; then
	skipped "browser check needs chromium, cmark-gfm and the plots above"
	finish
fi
{
	echo '<!DOCTYPE html><html><head><meta charset="utf-8">'
	echo '<style>body{font-family:sans-serif;max-width:980px;margin:auto}'
	echo 'table{border-collapse:collapse}td,th{border:1px solid #bbb;'
	echo 'padding:2px 6px}img{max-width:100%}</style></head><body>'
	cmark-gfm --extension table --extension autolink "$tmp/out/report.md"
	echo '</body></html>'
} >"$tmp/out/report.html"
check "HTML has the tables and the images" \
	"grep -q '<table>' '$tmp/out/report.html' && grep -q '<img src=\"plots/randread-4k-bar.svg\"' '$tmp/out/report.html'"
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
	--disable-background-networking --disable-component-update \
	--disable-sync --no-first-run --user-data-dir="$tmp/chrome" \
	--window-size=1024,2400 --screenshot="$tmp/out/report.png" \
	"file://$tmp/out/report.html" >"$tmp/chrome.log" 2>&1
size=$(stat -c %s "$tmp/out/report.png" 2>/dev/null || echo 0)
check "Chromium screenshot of report.md is a non-trivial PNG ($size bytes)" \
	"[ $size -gt 20000 ] && [ \"\$(head -c 8 '$tmp/out/report.png' | od -An -tx1 | tr -d ' \n')\" = 89504e470d0a1a0a ]"
[ -n "${KBENCH_KEEP_SCREENSHOT:-}" ] && cp "$tmp/out/report.png" "$KBENCH_KEEP_SCREENSHOT"
finish
