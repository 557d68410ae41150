#!/bin/bash
# tests/e2e_calibrate.sh - end-to-end: `kbench calibrate` on a loop
# device (an A/A campaign of 4 rounds of 1 s: copy1 and copy2 of the
# baseline), calibration.json, `kbench plan` and `iterations = auto` using
# it through kernels.conf's calibration =, resume, a bad --rounds.  Needs
# root (loop devices, sysfs tunables); prints a SKIP line otherwise.
# About 40 s on 2 cores under ASan.  Closing line: "calibrate: N passed,
# N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
finish() {
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary calibrate
	exit $?
}
why=$(e2e_missing "calibrate e2e" fio jq losetup)
[ -z "$why" ] || { skipped "$why"; finish; }
repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-calib.XXXXXX)
cat >"$tmp/k.conf" <<CONF
[global]
jobs = randread-4k
iterations = auto
min_iterations = 2
max_iterations = 3
warmup = 0
runtime = 1
target = loop:64M
profiles = $repo/profiles
tunable NM = queue/nomerges: 0 1
baseline = running,NM=1
calibration = cal/calibration.json

[running]
method = local
CONF

# --- 1. calibrate: 4 A/A rounds ---
"$KBENCH" calibrate -q -c "$tmp/k.conf" -o "$tmp/cal" --rounds 4 \
	>"$tmp/cal.out" 2>"$tmp/cal.err"
rc=$?
check "kbench calibrate exits 0 (got $rc)" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || tail -20 "$tmp/cal.err"
cj=$tmp/cal/calibration.json
check "calibration.json written, 4 rounds of the baseline running,NM=1" \
	"[ \"\$(jq -r '\"\\(.rounds) \\(.baseline)\"' $cj)\" = '4 running,NM=1' ]"
check "the A/A campaign: copy1,NM=1 and copy2,NM=1 only, interleaved" \
	"[ \"\$(jq -c '[.configurations[].id] | sort' $tmp/cal/aa/results.json)\" = '[\"copy1,NM=1\",\"copy2,NM=1\"]' ] && [ \"\$(jq -r .campaign.order $tmp/cal/aa/results.json)\" = interleave ]"
check "the A/A conf sets NM to the baseline's value only" \
	"grep -qx 'tunable NM = queue/nomerges: 1' $tmp/cal/aa.conf && ! grep -q '^calibration' $tmp/cal/aa.conf"
check "calibration.json: read.iops with 3-4 rounds, its CVs, an analysis" \
	"jq -e '.metrics[] | select(.metric == \"read.iops\") | .n >= 3 and .n <= 4 and (.cv_pct[0] > 0) and (.copy1 | length) == .n and (.analysis == \"paired\" or .analysis == \"welch-log\")' $cj >/dev/null"
check "calibration.json: counted and disturbed runs" \
	"jq -e '.runs >= 6 and .runs_disturbed >= 0 and .runs_disturbed <= .runs' $cj >/dev/null"
check "calibrate prints the CV, the fitting analysis and the rounds needed" \
	"grep -q 'read.iops: .* rounds, CV ' $tmp/cal.out && grep -Eq 'pairing by round fits|Welch fits' $tmp/cal.out && grep -q 'rounds needed: .* for an MDE <= max_mde 5%' $tmp/cal.out && grep -q 'disturbed' $tmp/cal.out"

# --- 2. kbench plan and iterations = auto use it ---
want=$(jq -r '.rounds_max_mde // 1000 | if . < 2 then 2 elif . > 3 then 3 else . end' "$cj")
"$KBENCH" plan -c "$tmp/k.conf" >"$tmp/plan.out" 2>&1
rc=$?
check "plan with calibration = exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "plan prints the calibration's rounds needed and where auto starts ($want)" \
	"grep -q 'calibration .*calibration.json (A/A of running,NM=1, 4 rounds): analysis .*rounds needed' $tmp/plan.out && grep -q 'iterations = auto starts at $want rounds' $tmp/plan.out"
"$KBENCH" run -q -c "$tmp/k.conf" -o "$tmp/c" >/dev/null 2>"$tmp/run.err"
rc=$?
check "run with calibration = exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "campaign.json: the calibration's analysis, iterations = auto from $want rounds" \
	"[ \"\$(jq -r .campaign.calibration.analysis $tmp/c/campaign.json)\" = \"\$(jq -r .analysis $cj)\" ] && [ \"\$(jq .campaign.iterations $tmp/c/campaign.json)\" = $want ]"
check "results.json: the comparison's analysis is the calibration's" \
	"[ \"\$(jq -r '.comparisons[] | select(.metric == \"read.iops\") | .analysis' $tmp/c/results.json)\" = \"\$(jq -r .analysis $cj)\" ]"

# --- 3. again on the same DIR: resumed, nothing run again ---
"$KBENCH" calibrate -c "$tmp/k.conf" -o "$tmp/cal" --rounds 4 \
	>"$tmp/cal2.out" 2>"$tmp/cal2.err"
rc=$?
check "calibrate again resumes: exit 0, nothing run ($rc)" \
	"[ $rc -eq 0 ] && grep -q 'nothing to run' $tmp/cal2.err && grep -q 'rounds needed' $tmp/cal2.out"
# the same kernels.conf by another path, from another directory: the same
# A/A, resumed (refused "made from another kernels.conf": aa.conf's
# comment names -c's path, a break-it trial), aa.conf kept byte for byte
cp "$tmp/cal/aa.conf" "$tmp/aa.conf.first"
(cd "$(dirname "$tmp")" && "$KBENCH" calibrate -c "./$(basename "$tmp")/k.conf" \
	-o "$(basename "$tmp")/cal" --rounds 4 >"$tmp/cal2b.out" 2>"$tmp/cal2b.err")
rc=$?
check "calibrate again, kernels.conf by another path from another directory: resumed ($rc)" \
	"[ $rc -eq 0 ] && grep -q 'nothing to run' $tmp/cal2b.err && cmp -s $tmp/cal/aa.conf $tmp/aa.conf.first"
# ... and the calibration = it advises is relative to kernels.conf's
# directory, as kernels.conf reads it (it printed -o's path, relative to
# the working directory, a break-it trial)
check "calibrate's advice: calibration = cal/calibration.json, relative to kernels.conf's directory" \
	"grep -q '(kernels.conf: calibration = cal/calibration.json)\$' $tmp/cal2b.out"
cp "$tmp/cal/aa.conf" "$tmp/aa.conf.before"
"$KBENCH" calibrate -c "$tmp/k.conf" -o "$tmp/cal" --rounds 5 \
	>/dev/null 2>"$tmp/cal3.err"
rc=$?
check "calibrate again with another --rounds: exit 1 saying so, the campaign's aa.conf kept ($rc)" \
	"[ $rc -eq 1 ] && grep -q 'cal holds a calibration made from another kernels.conf or another number of rounds (-n)' $tmp/cal3.err && ! grep -q 'different kernels.conf than' $tmp/cal3.err && cmp -s $tmp/cal/aa.conf $tmp/aa.conf.before"

# --- 4. errors ---
# a baseline on a kernel that is not running: exit 3, saying to boot it
# (it went on to "aa/results.json: unable to open" and exit 1)
sed -e 's/^\[running\]$/[other]\nrelease = 0.0.0-none/' \
	-e 's/^baseline = running,/baseline = other,/' "$tmp/k.conf" >"$tmp/k9.conf"
"$KBENCH" calibrate -q -c "$tmp/k9.conf" -o "$tmp/cal3" --rounds 3 \
	>/dev/null 2>"$tmp/k3.err"
rc=$?
check "a baseline whose kernel is not running: exit 3 (got $rc), boot it and run calibrate again" \
	"[ $rc -eq 3 ] && grep -q 'boot it and run the same kbench calibrate command again' $tmp/k3.err && ! grep -q 'unable to open' $tmp/k3.err"
"$KBENCH" calibrate -c "$tmp/k.conf" -o "$tmp/x" --rounds 2 >/dev/null 2>"$tmp/bad.err"
rc=$?
check "--rounds 2 refused naming the range (exit $rc)" \
	"[ $rc -eq 1 ] && grep -q -- \"--rounds '2': expected a whole number from 3\" $tmp/bad.err"
sed 's|cal/calibration.json|nope/calibration.json|' "$tmp/k.conf" >"$tmp/k2.conf"
"$KBENCH" plan -c "$tmp/k2.conf" >/dev/null 2>"$tmp/bad2.err"
rc=$?
check "a missing calibration file: plan exits 1 naming the line (exit $rc)" \
	"[ $rc -eq 1 ] && grep -q 'k2.conf:12: calibration = ' $tmp/bad2.err && grep -q 'no such calibration file' $tmp/bad2.err"
# a sweep the job file never reads: said (its configurations are one job)
mkdir -p "$tmp/swprof"
{ cat "$repo/profiles/randread-4k.fio"; echo 'numjobs=${KBENCH_NUMJOBS}'; } >"$tmp/swprof/randread-4k.fio"
printf '[global]\njobs = randread-4k\nruntime = 1\ntarget = loop:32M\nprofiles = %s\nsweep bs = 4k 8k\nsweep numjobs = 1 2\n[running]\nmethod = local\n' "$tmp/swprof" >"$tmp/sw.conf"
"$KBENCH" plan -c "$tmp/sw.conf" >/dev/null 2>"$tmp/sw.err"
rc=$?
check "plan: a sweep the job never reads is said, one the job reads is not (rc $rc)" \
	"[ $rc -eq 0 ] && grep -q \"sw.conf:6: sweep bs: job 'randread-4k' (.*randread-4k.fio) never reads .{KBENCH_BS}: its 2 values run the same job\" '$tmp/sw.err' && ! grep -q 'KBENCH_NUMJOBS' '$tmp/sw.err'"

# --- 5. the calibration applied to another setup ---
check "plan on the calibrated setup says nothing of a misfit" \
	"! grep -q 'another setup' $tmp/plan.out"
sed 's|^target = loop:64M|target = loop:128M|; s|^baseline = running,NM=1|baseline = running,NM=0|' \
	"$tmp/k.conf" >"$tmp/k3.conf"
"$KBENCH" plan -c "$tmp/k3.conf" >/dev/null 2>"$tmp/misfit.err"
rc=$?
check "another target and baseline: plan warns naming both (exit $rc)" \
	"[ $rc -eq 0 ] && grep -q 'k3.conf:12: calibration = .*another setup (target loop:128M, calibrated on loop:64M; baseline running,NM=0, calibrated with running,NM=1)' $tmp/misfit.err"
"$KBENCH" run -q --dry-run -c "$tmp/k3.conf" -o "$tmp/c3" >/dev/null 2>"$tmp/misfit-run.err"
rc=$?
# (and the dry run of this iterations = auto conf succeeds, writing
# nothing: it failed, "c3/campaign.json: cannot open", a break-it trial)
check "... and so does run --dry-run, which succeeds writing nothing (exit $rc)" \
	"[ $rc -eq 0 ] && grep -q 'another setup' $tmp/misfit-run.err && ! grep -q 'cannot open' $tmp/misfit-run.err && [ ! -e $tmp/c3 ]"
sed 's|^jobs = randread-4k|jobs = buffered-write|' "$tmp/k.conf" >"$tmp/k4.conf"
"$KBENCH" plan -c "$tmp/k4.conf" >/dev/null 2>"$tmp/nojob.err"
rc=$?
# ... and frees what it built (under ASan it reported leaks, a break-it
# trial)
check "none of its jobs calibrated: plan refuses (exit $rc), leaking nothing" \
	"[ $rc -eq 1 ] && grep -q 'calibrated none of this campaign.s jobs' $tmp/nojob.err && ! grep -q 'LeakSanitizer' $tmp/nojob.err"

# --- 6. target_metrics: only read.iops decides when to stop ---
grep -v '^calibration = ' "$tmp/k.conf" |
	sed 's|^max_iterations = 3|max_iterations = 8\ntarget_ci_pct = 100\ntarget_metrics = read.iops|' \
	>"$tmp/k5.conf"
"$KBENCH" run -q -c "$tmp/k5.conf" -o "$tmp/c5" >/dev/null 2>"$tmp/t5.err"
rc=$?
# (at 2 rounds a paired CI has 1 degree of freedom: it may take a third;
# with a cap of 5 the check failed once under a load average of 5, its
# files not kept: the cap is 8, a round-trip a quiet machine never nears)
check "target_metrics = read.iops: stops before max_iterations on read.iops's CI, recorded (exit $rc)" \
	"[ $rc -eq 0 ] && [ \"\$(jq .adaptive.timed_iterations $tmp/c5/state.json)\" -lt 8 ] && jq -r .adaptive.stopped $tmp/c5/state.json | grep -q 'below target_ci_pct = 100%.*of the change vs running,NM=1, .* read.iops)' && [ \"\$(jq -r .campaign.iterations_auto.target_metrics $tmp/c5/campaign.json)\" = read.iops ]"
# a round iterations = auto adds starts at once: only a retried
# (disturbed) round waits for a quiet window first (retry_quiet_wait)
sed 's|^target_ci_pct = 100|target_ci_pct = 0.01|; s|^max_iterations = 8|max_iterations = 3|' \
	"$tmp/k5.conf" >"$tmp/k6.conf"
"$KBENCH" run -c "$tmp/k6.conf" -o "$tmp/c6" >/dev/null 2>"$tmp/t6.err"
rc=$?
nadd=$(grep -c 'one more round' "$tmp/t6.err")
nretry=$(grep -c 'running the round again (attempt' "$tmp/t6.err")
nwait=$(grep -c -e 'the machine was quiet for 1 s after' -e 'the machine stayed busy for' "$tmp/t6.err")
check "iterations = auto: the round it added started at once ($nadd added, $nwait waits, $nretry retries; exit $rc)" \
	"[ $rc -eq 0 ] && [ $nadd -ge 1 ] && [ $nwait -eq $nretry ]"
sed 's|^target_metrics = read.iops|target_metrics = read.iops read.nosuch|' \
	"$tmp/k5.conf" >"$tmp/k6.conf"
"$KBENCH" plan -c "$tmp/k6.conf" >/dev/null 2>"$tmp/t6.err"
rc=$?
check "target_metrics naming an unknown metric: refused with the line and the name (exit $rc)" \
	"[ $rc -ne 0 ] && grep -q 'k6.conf:[0-9]*: target_metrics: read.nosuch: no such metric' $tmp/t6.err"
finish
