#!/bin/bash
# tests/e2e_profile.sh - end-to-end: a real campaign with "profile = cycles"
# on a loop device (2 configurations x 2 iterations x 2 s): the CPU profile
# table is printed, the [io] share is > 0 and the group shares add up, the
# perf counters and per-task CPU are recorded, and --reparse gives the same
# numbers.  Needs root and perf; prints a SKIP line otherwise.
# Closing line: "e2e-profile: N passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
finish() {
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary e2e-profile
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: e2e profile test needs root (loop device, perf -a)"
	skip=1
	finish
fi
for tool in fio jq losetup perf; do
	if ! command -v $tool >/dev/null; then
		echo "SKIP: e2e profile test needs $tool (scripts/install-deps)"
		skip=1
		finish
	fi
done

repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-e2e-profile.XXXXXX)
cat >"$tmp/p.conf" <<CONF
[global]
jobs = randread-4k
iterations = 2
warmup = 0
runtime = 2
target = loop:64M
profiles = $repo/profiles
tunable NM = queue/nomerges: 0 2
profile = cycles

[running]
method = local
CONF
c="$tmp/c"
"$KBENCH" run -q -c "$tmp/p.conf" -o "$c" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
check "kbench run with profile = cycles exits 0 (got $rc)" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || cat "$tmp/run.err"
R="$c/results.json"
check "4 runs, all ok" \
	"[ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $R)\" = 4 ]"
check "report has the CPU profile table with a CPU: row per configuration" \
	"grep -q 'CPU profile' $c/report.txt && [ \$(grep -c ' CPU: ' $c/report.txt) -eq 2 ]"
check "every run: profile.cycles.io.total_pct > 0" \
	"[ \"\$(jq '[.runs[] | select(.metrics[\"profile.cycles.io.total_pct\"] > 0)] | length' $R)\" = 4 ]"
# top-level groups of profiles/symbols.conf (io, idle) + other = 100%
check "every run: io + idle + other = 100% (to 1e-6)" \
	"[ \"\$(jq '[.runs[].metrics | select(((.\"profile.cycles.io.total_pct\" + .\"profile.cycles.idle.total_pct\" + .\"profile.cycles.other_pct\") - 100 | fabs) < 1e-6)] | length' $R)\" = 4 ]"
check "every run: merge is part of io (merge.total <= io.total, io_pct = merge/io)" \
	"[ \"\$(jq '[.runs[].metrics | select(.\"profile.cycles.merge.total_pct\" <= .\"profile.cycles.io.total_pct\" and ((.\"profile.cycles.merge.io_pct\" - 100 * .\"profile.cycles.merge.total_pct\" / .\"profile.cycles.io.total_pct\") | fabs) < 1e-6)] | length' $R)\" = 4 ]"
check "kernel_pct >= io share, samples > 0" \
	"[ \"\$(jq '[.runs[].metrics | select(.\"profile.cycles.kernel_pct\" >= .\"profile.cycles.io.total_pct\" and .\"profile.cycles.samples\" > 0)] | length' $R)\" = 4 ]"
check "lost samples recorded" \
	"[ \"\$(jq '[.runs[].metrics | select(.\"profile.lost_samples\" >= 0)] | length' $R)\" = 4 ]"
check "software counters positive (cpu-clock, context switches)" \
	"[ \"\$(jq '[.runs[].metrics | select(.\"perf.cpu_clock_ms\" > 0 and .\"perf.context_switches\" > 0)] | length' $R)\" = 4 ]"
# hardware counters: values where the machine has a PMU, else absent (n/a)
# with a warning - never 0
check "perf.cycles is > 0 or absent with a 'not supported' warning" \
	"[ \"\$(jq '[.runs[] | select((.metrics[\"perf.cycles\"] // 0) > 0 or ((.metrics | has(\"perf.cycles\") | not) and ([.warnings[]? | select(test(\"not supported\"))] | length > 0)))] | length' $R)\" = 4 ]"
check "task CPU: total > 0 and fio > 0" \
	"[ \"\$(jq '[.runs[].metrics | select(.\"task.total.cpu_pct\" > 0 and .\"task.fio.cpu_pct\" > 0)] | length' $R)\" = 4 ]"
check "time/task table printed" "grep -q 'sustained CPU by task' $c/report.txt"
rd="$c/runs/running,NM=0/randread-4k/000"
check "raw artifacts kept (perf.data, perf_report.txt, symbols.conf, tasks.*)" \
	"[ -s $rd/perf.data ] && [ -s $rd/perf_report.txt ] && [ -s $rd/symbols.conf ] && [ -s $rd/tasks.after ] && [ -s $rd/perf_counters.csv ]"
before=$(jq '.metrics."profile.cycles.io.total_pct"' "$rd/metrics.json")
rm -f "$rd/metrics.json"
"$KBENCH" report --reparse "$c" >"$tmp/reparse.out" 2>"$tmp/reparse.err"
after=$(jq '.metrics."profile.cycles.io.total_pct"' "$rd/metrics.json" 2>/dev/null)
check "--reparse recomputes the same io share ($before = $after)" \
	"[ \"$before\" = \"$after\" ] && [ \"$before\" != null ]"
for layout in variants profile time rounds lkp mmtests; do
	"$KBENCH" report --layout $layout "$c" >"$tmp/l-$layout.txt" 2>&1
	check "report --layout $layout (long perf metric names): exit 0, no line over 80 columns, no tab" \
		"[ -s $tmp/l-$layout.txt ] && ! awk 'length > 80' $tmp/l-$layout.txt | grep -q . && ! grep -q \"\$(printf '\\t')\" $tmp/l-$layout.txt"
done
finish
