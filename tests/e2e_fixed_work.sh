#!/bin/bash
# tests/e2e_fixed_work.sh - end-to-end: a fixed-size job (size= without
# time_based) on a loop device, 3 runs: every run recorded as fixed work,
# read.iops summarised as total work over total time (the harmonic mean
# of the runs' rates, checked here with jq) and the report saying so; the
# time_based job of profiles/ stays arithmetic.  Needs root; prints a
# SKIP line otherwise.  About 15 s.  Closing line: "fixed-work: N
# passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
finish() {
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary fixed-work
	exit $?
}
why=$(e2e_missing "fixed-work e2e" fio jq losetup)
[ -z "$why" ] || { skipped "$why"; finish; }
repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-fixed.XXXXXX)
mkdir "$tmp/profiles"
cp "$repo/profiles/randread-4k.fio" "$tmp/profiles/"
cat >"$tmp/profiles/read-8m.fio" <<'JOB'
; a fixed amount of work: 8 MiB of 4 KiB random reads, no time_based
[global]
filename=${KBENCH_TARGET}
ioengine=libaio
direct=1
[read-8m]
rw=randread
bs=4k
iodepth=16
size=8m
JOB
cat >"$tmp/k.conf" <<CONF
[global]
jobs = read-8m randread-4k
iterations = 3
warmup = 0
runtime = 1
target = loop:64M
profiles = $tmp/profiles

[running]
method = local
CONF
"$KBENCH" run -q -c "$tmp/k.conf" -o "$tmp/c" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
check "campaign exits 0 (got $rc)" "[ $rc -eq 0 ]"
r=$tmp/c/results.json
check "the fixed-size job's runs: work fixed; the time_based job's: time" \
	"[ \"\$(jq -c '[.runs[] | select(.job == \"read-8m\") | .work] | unique' $r)\" = '[\"fixed\"]' ] && [ \"\$(jq -c '[.runs[] | select(.job == \"randread-4k\") | .work] | unique' $r)\" = '[\"time\"]' ]"
check "read-8m read.iops: the harmonic mean of the runs' rates" \
	"jq -e '([.runs[] | select(.job == \"read-8m\" and .status == \"ok\") | .metrics[\"read.iops\"]]) as \$x
		| ((\$x | length) / (\$x | map(1 / .) | add)) as \$h
		| .summaries[] | select(.job == \"read-8m\" and .metric == \"read.iops\")
		| .mean_kind == \"harmonic\" and ((.mean - \$h) | fabs) < 1e-6 * \$h' $r >/dev/null"
check "randread-4k read.iops stays an arithmetic mean" \
	"jq -e '.summaries[] | select(.job == \"randread-4k\" and .metric == \"read.iops\") | .mean_kind == null' $r >/dev/null"
check "the report says how fixed-size rates are summarised" \
	"grep -q 'fixed-size jobs (not time_based)' $tmp/c/report.txt"
finish
