#!/bin/bash
# tests/e2e_run.sh - end-to-end: a real 2-configuration x 2-iteration x 1 s
# campaign on a loop device, then resume, then SIGINT + restore + resume.
# Needs root (loop devices, sysfs tunables); prints a SKIP line otherwise.
# Closing line: "e2e: N passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
finish() {
	[ -n "${tmp:-}" ] && mountpoint -q "$tmp/full" 2>/dev/null && umount "$tmp/full"
	[ -n "${dev:-}" ] && losetup -d "$dev" 2>/dev/null
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary e2e
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: e2e campaign tests need root (loop device, sysfs tunables)"
	skip=1
	finish
fi
for tool in fio jq losetup; do
	if ! command -v $tool >/dev/null; then
		echo "SKIP: e2e needs $tool (scripts/install-deps installs it)"
		skip=1
		finish
	fi
done

repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-e2e.XXXXXX)
# int_when PATTERN LOG ARGS...: kbench ARGS in the background, its
# stderr in LOG, Ctrl-C once LOG has PATTERN (or after 20 s); its exit
# status in rc
int_when() {
	local pat=$1 log=$2 _
	shift 2
	"$KBENCH" "$@" >/dev/null 2>"$log" &
	pid=$!
	for _ in $(seq 1 200); do
		grep -q "$pat" "$log" && break
		sleep 0.1
	done
	kill -INT $pid
	wait $pid
	rc=$?
}

# --- 1. a loop: target campaign, 2 configurations x 2 iterations x 1 s ---
cat >"$tmp/e2e.conf" <<CONF
[global]
jobs = randread-4k
iterations = 2
warmup = 0
runtime = 1
target = loop:64M
profiles = $repo/profiles
layouts = rounds
tunable NM = queue/nomerges: 0 1

[running]
method = local
release = $(uname -r)
CONF
c1="$tmp/c1"
"$KBENCH" run -q -c "$tmp/e2e.conf" -o "$c1" >"$tmp/run1.out" 2>"$tmp/run1.err"
rc=$?
check "kbench run exits 0 (got $rc)" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || { cat "$tmp/run1.err"; }
check "report.txt and report.md written" "[ -s $c1/report.txt ] && [ -s $c1/report.md ]"
# The table rows: "running  0  <IOPS> ..." and "running  1  <IOPS> ..."
for nm in 0 1; do
	iops=$(awk -v nm=$nm '$1 == "running" && $2 == nm { print $3; exit }' "$c1/report.txt")
	check "table row running NM=$nm has positive IOPS ($iops)" \
		"awk 'BEGIN { exit !(\"$iops\" + 0 > 0) }'"
done
check "layouts = rounds: seed 002's per-round table in report.txt and report.md" \
	"grep -Eq '^ +average +[0-9.]+ +[0-9.]+' $c1/report.txt && grep -q 'running,NM=1' $c1/report.txt && grep -q 'average' $c1/report.md"
check "results.json: schema_version 1" \
	"[ \"\$(jq .schema_version $c1/results.json)\" = 1 ]"
check "results.json: 4 runs, all ok" \
	"[ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $c1/results.json)\" = 4 ]"
check "results.json: every run has read.iops > 0" \
	"[ \"\$(jq '[.runs[] | select(.metrics[\"read.iops\"] > 0)] | length' $c1/results.json)\" = 4 ]"
check "results.json: read.iops summary n=2 per configuration" \
	"[ \"\$(jq '[.summaries[] | select(.metric == \"read.iops\" and .n == 2)] | length' $c1/results.json)\" = 2 ]"
check "results.json: disk.ios measured from /proc/diskstats" \
	"[ \"\$(jq '[.runs[] | select(.metrics[\"disk.ios\"] > 0)] | length' $c1/results.json)\" = 4 ]"
check "raw artifacts kept (fio.json, proc snapshots, rusage)" \
	"[ -s '$c1/runs/running,NM=0/randread-4k/000/fio.json' ] && [ -s '$c1/runs/running,NM=1/randread-4k/001/proc_stat.after' ] && [ -s '$c1/runs/running,NM=1/randread-4k/001/run.json' ]"
check "loop device detached and backing file removed" "[ ! -e $c1/target.img ]"

# --- 2. a second run on the same directory runs nothing ---
before=$(jq -S .runs "$c1/state.json")
"$KBENCH" run -c "$tmp/e2e.conf" -o "$c1" >"$tmp/run2.out" 2>"$tmp/run2.err"
rc=$?
check "second kbench run exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "second kbench run runs nothing" "grep -q 'nothing to run' $tmp/run2.err && ! grep -q '^\[1/' $tmp/run2.err"
check "state.json unchanged by the second run" "[ \"\$(jq -S .runs $c1/state.json)\" = \"\$before\" ]"

# --- 3. SIGINT mid-run restores nomerges and resumes ---
img="$tmp/dev.img"
truncate -s 64M "$img"
dev=$(losetup -f --show "$img")
bdev=$(basename "$dev")
echo 0 >/sys/block/$bdev/queue/nomerges
# retry_disturbed = 0: on a loaded machine the first round was found
# disturbed and superseded, its 2 runs taken out of state.json to run
# again ("6 of the 8 runs left"), and "kept its completed runs" read 0
sed -e "s|^target = .*|target = $dev|" -e 's|^iterations = 2|iterations = 3|' \
    -e 's|^runtime = 1|runtime = 2|' -e 's|: 0 1$|: 1 2|' \
    -e '/^\[global\]/a retry_disturbed = 0' "$tmp/e2e.conf" >"$tmp/int.conf"
c2="$tmp/c2"
"$KBENCH" run -c "$tmp/int.conf" -o "$c2" >"$tmp/run3.out" 2>"$tmp/run3.err" &
pid=$!
# wait for 2 recorded runs: up to 2 minutes (a loaded machine; they
# take about 6 s alone), so that the check below is about the interrupt
# and not about how busy the machine is
e2e_wait_runs "$c2" 2
sleep 0.7        # now in the middle of the third run
nm_during=$(cat /sys/block/$bdev/queue/nomerges)
"$KBENCH" run -q -o "$c2" >/dev/null 2>"$tmp/lock.err"
lrc=$?
"$KBENCH" plan -o "$c2" >"$tmp/plan-live.out" 2>/dev/null
check "a second kbench on a running campaign is refused (exit $lrc), naming the first's PID ($pid), which goes on" \
	"[ $lrc -eq 1 ] && grep -q 'another kbench (PID $pid) is running this campaign' $tmp/lock.err && grep -q 'or kill $pid ' $tmp/lock.err && kill -0 $pid && [ -e $c2/tunables.saved.json ]"
check "... plan -o DIR meanwhile names it running (PID $pid), not 'resumes it'" \
	"grep -q 'a kbench (PID $pid) is running it now' '$tmp/plan-live.out' && ! grep -q 'resumes it' '$tmp/plan-live.out'"
kill -INT $pid
wait $pid
rc=$?
check "interrupted kbench run exits 130 (got $rc)" "[ $rc -eq 130 ]"
check "nomerges was changed during the campaign ($nm_during)" "[ '$nm_during' != 0 ]"
check "nomerges restored to 0 after SIGINT ($(cat /sys/block/$bdev/queue/nomerges))" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"
check "no tunables left to restore" "[ ! -e $c2/tunables.saved.json ]"
partial=$(jq '.runs | length' "$c2/state.json")
check "interrupted campaign kept its completed runs ($partial)" "[ $partial -ge 2 ] && [ $partial -lt 6 ]"
# (a round found disturbed on a busy machine is to do again: its runs
# count again in the runs to do)
nsup=$(jq '.superseded | length' "$c2/state.json")
check "the interruption says what a resume will find: $((6 - partial)) of the $((6 + nsup)) runs left" \
	"grep -q 'interrupted by signal 2: $((6 - partial)) of the $((6 + nsup)) runs to do are left ([0-9]* run(s) ran); run the same command again to resume' $tmp/run3.err"
# kbench plan -o DIR: what is done and left of it, DIR unchanged
sum0=$(find "$c2" -type f -exec sha256sum {} + | sort | sha256sum)
"$KBENCH" plan -o "$c2" --runs >"$tmp/plan-o.out" 2>"$tmp/plan-o.err"
rc=$?
sum1=$(find "$c2" -type f -exec sha256sum {} + | sort | sha256sum)
check "plan -o on the interrupted campaign: exit 0 (got $rc), $partial of 6 done, $((6 - partial)) left with an ETA, each run's state, nothing in DIR changed" \
	"[ $rc -eq 0 ] && grep -q '6 runs planned: $partial done ($partial ok, 0 failed), $((6 - partial)) left, about ' $tmp/plan-o.out && grep -q 'kbench run -o $c2 resumes it' $tmp/plan-o.out && [ \"\$(grep -c '^ *[0-9]*  ok  ' $tmp/plan-o.out)\" = $partial ] && [ \"\$(grep -c '^ *[0-9]*  to do ' $tmp/plan-o.out)\" = $((6 - partial)) ] && [ '$sum0' = '$sum1' ]"
# SIGUSR1 (any signal whose default ends the process and that can be
# caught) stops it as SIGINT does: exit 130, nomerges restored; so do
# SIGXCPU (ulimit -t), SIGPWR and a real-time signal (they left nomerges
# changed, as kill -9 does: a break-it trial).  Each is sent while fio
# runs with nomerges changed; the run it cut is not counted
for sig in USR1 XCPU PWR RTMIN+3; do
	"$KBENCH" run -o "$c2" >/dev/null 2>"$tmp/sig.err" &
	pid=$!
	nm_sig=
	for _ in $(seq 1 300); do
		pgrep -f "$c2/runs" >/dev/null && nm_sig=$(cat /sys/block/$bdev/queue/nomerges) && break
		sleep 0.1
	done
	sleep 0.3
	kill -$sig $pid
	wait $pid
	rc=$?
	check "SIG$sig while fio ran (nomerges $nm_sig): exit 130 (got $rc), nomerges restored ($(cat /sys/block/$bdev/queue/nomerges)), said" \
		"[ '$nm_sig' != 0 ] && [ $rc -eq 130 ] && [ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ] && [ ! -e $c2/tunables.saved.json ] && grep -q 'interrupted by signal [0-9]*: ' $tmp/sig.err"
done
"$KBENCH" plan -o "$tmp" >/dev/null 2>"$tmp/plan-o2.err"
rc=$?
check "plan -o on a directory that is no campaign: exit 1 (got $rc), said" \
	"[ $rc -eq 1 ] && grep -q 'is not a kbench campaign (no campaign.json)' $tmp/plan-o2.err"
"$KBENCH" run -q -o "$c2" >"$tmp/run4.out" 2>"$tmp/run4.err"
rc=$?
check "resumed kbench run exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "resumed campaign completed all 6 runs" \
	"[ \"\$(jq '.runs | length' $c2/state.json)\" = 6 ] && [ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $c2/results.json)\" = 6 ]"
"$KBENCH" plan -o "$c2" >"$tmp/plan-o3.out" 2>&1
check "plan -o on the completed campaign: 6 done, 0 left, nothing left to run" \
	"grep -q '6 runs planned: 6 done (6 ok, 0 failed), 0 left\$' $tmp/plan-o3.out && grep -q 'nothing left to run' $tmp/plan-o3.out"
check "nomerges restored to 0 after the resumed campaign" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"

# --- 4. a leftover tunables.saved.json is a hint: the values restored
#     are the machine's records (/run/kbench), and it has none here ---
echo '{"/sys/block/'$bdev'/queue/nomerges": "0"}' >"$c2/tunables.saved.json"
echo 2 >/sys/block/$bdev/queue/nomerges
"$KBENCH" run -q -o "$c2" >/dev/null 2>"$tmp/run5.err"
check "a leftover tunables.saved.json without the machine's record is not written, said so, removed" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 2 ] && grep -q 'the machine has no record of a kbench changing it since boot' $tmp/run5.err && [ ! -e $c2/tunables.saved.json ]"
echo 0 >/sys/block/$bdev/queue/nomerges

# --- a run finished but missing from state.json (kbench killed between
#     its metrics.json and the state's update): recorded, not redone ---
k=$(jq -r '.runs | keys[0]' "$c2/state.json")
m0=$(stat -c %Y "$c2/runs/$k/metrics.json")
jq --arg k "$k" 'del(.runs[$k])' "$c2/state.json" >"$tmp/st.json" && cp "$tmp/st.json" "$c2/state.json"
sleep 1
"$KBENCH" run -o "$c2" >/dev/null 2>"$tmp/adopt.err"
rc=$?
check "a finished run missing from state.json is recorded from its metrics.json, not run again (got $rc)" \
	"[ $rc -eq 0 ] && grep -q '1 run(s) finished without being recorded' $tmp/adopt.err && [ \"\$(stat -c %Y '$c2/runs/$k/metrics.json')\" = $m0 ] && [ \"\$(jq -r --arg k '$k' '.runs[\$k].status' $c2/state.json)\" = ok ]"

# --- 5. wrong kernel release: clear error naming both ---
sed -e "s|^release = .*|release = 0.0.0-not-this-kernel|" "$tmp/e2e.conf" >"$tmp/wrong.conf"
"$KBENCH" run -c "$tmp/wrong.conf" -o "$tmp/c3" >/dev/null 2>"$tmp/run6.err"
rc=$?
check "a variant that is not the running kernel: exit 3, message names both releases" \
	"[ $rc -eq 3 ] && grep -q '0.0.0-not-this-kernel' $tmp/run6.err && grep -q \"$(uname -r)\" $tmp/run6.err"
# --- 7. a value the kernel rejects stops the campaign before its first run ---
sed -e "s|^target = .*|target = $dev|" -e 's|: 0 1$|: 1 7|' "$tmp/e2e.conf" >"$tmp/bad.conf"
line=$(grep -n '^tunable NM' "$tmp/bad.conf" | cut -d: -f1)
"$KBENCH" run -q -c "$tmp/bad.conf" -o "$tmp/c5" >/dev/null 2>"$tmp/run8.err"
rc=$?
check "a rejected tunable value: exit 1 (got $rc)" "[ $rc -eq 1 ]"
check "... with FILE:LINE and the value in the message" \
	"grep -q \"bad.conf:$line: tunable NM: value '7'\" $tmp/run8.err"
check "... before any run (no state.json)" "[ ! -e $tmp/c5/state.json ]"
check "... and nomerges restored to 0" "[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"

# --- 8. kill -9 mid-run: fio dies with kbench; another campaign on the
#     same device restores the value the killed one left changed ---
export KBENCH_RUN_DIR="$tmp/rundir"
sed -e "s|^target = .*|target = $dev|" -e 's|^runtime = 1|runtime = 30|' \
    -e 's|: 0 1$|: 2|' "$tmp/e2e.conf" >"$tmp/k9.conf"
"$KBENCH" run -q -c "$tmp/k9.conf" -o "$tmp/c6" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 50); do
	[ "$(cat /sys/block/$bdev/queue/nomerges)" = 2 ] && pgrep -f "$tmp/c6/runs" >/dev/null && break
	sleep 0.2
done
# a second campaign on the same device while the first runs: refused
# (each would measure the other; a break-it trial ran two that way)
sed -e "s|^target = .*|target = $dev|" -e '/^tunable NM/d' \
    -e 's|^iterations = 2|iterations = 1|' "$tmp/e2e.conf" >"$tmp/notun.conf"
"$KBENCH" run -q -c "$tmp/notun.conf" -o "$tmp/cbusy" >/dev/null 2>"$tmp/busy.err"
rc=$?
check "a second campaign on the device while one runs: exit 1 (got $rc), names the kbench and campaign that hold it" \
	"[ $rc -eq 1 ] && grep -q \"$dev is the target of another kbench (pid and campaign: $pid $tmp/c6): two campaigns on one device measure each other\" $tmp/busy.err && [ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 2 ]"
# ... nor on the loop device's backing file, the same storage
sed -e "s|^target = .*|target = file:$img|" "$tmp/notun.conf" >"$tmp/notunf.conf"
"$KBENCH" run -q -c "$tmp/notunf.conf" -o "$tmp/cbusyf" >/dev/null 2>"$tmp/busyf.err"
rc=$?
check "... nor on the file behind that loop device: exit 1 (got $rc)" \
	"[ $rc -eq 1 ] && grep -q \"$img is the target of another kbench (pid and campaign: $pid $tmp/c6)\" $tmp/busyf.err"
kill -9 $pid
wait $pid 2>/dev/null
sleep 1
check "fio does not outlive a kill -9 of kbench (PR_SET_PDEATHSIG)" \
	"! pgrep -f '$tmp/c6/runs' >/dev/null"
check "the killed campaign left nomerges changed (2)" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 2 ]"
sed -e "s|^target = .*|target = $dev|" -e 's|: 0 1$|: 1|' \
    -e 's|^iterations = 2|iterations = 1|' "$tmp/e2e.conf" >"$tmp/other.conf"
"$KBENCH" run -c "$tmp/other.conf" -o "$tmp/c7" >/dev/null 2>"$tmp/run9.err"
rc=$?
check "another campaign on the device runs (got $rc)" "[ $rc -eq 0 ]"
check "... warns that the killed campaign left the tunable changed" \
	"grep -q \"campaign $tmp/c6 (kbench pid [0-9]*, no longer running) left /sys/.*/queue/nomerges changed; restoring its original value '0' before this campaign\" $tmp/run9.err"
check "... and restores the true original (0), not the leftover 2" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"
# killed again; the next campaign on the device has no tunable: it
# restores what the killed one left changed all the same, and says so
"$KBENCH" run -q -c "$tmp/k9.conf" -o "$tmp/c6b" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 50); do
	[ "$(cat /sys/block/$bdev/queue/nomerges)" = 2 ] && pgrep -f "$tmp/c6b/runs" >/dev/null && break
	sleep 0.2
done
kill -9 $pid
wait $pid 2>/dev/null
sleep 1
"$KBENCH" run -q -c "$tmp/notun.conf" -o "$tmp/c7b" >/dev/null 2>"$tmp/run9b.err"
rc=$?
check "a campaign without tunables after a kill -9 (got $rc): restores nomerges 0 and says who left it at 2" \
	"[ $rc -eq 0 ] && grep -q \"campaign $tmp/c6b (kbench pid $pid, no longer running) left /sys/.*/queue/nomerges changed; restoring its original value '0'\" $tmp/run9b.err && [ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"
# ... and when the next kbench has the dead one's pid: in a PID namespace
# of its own every kbench is pid 1 (a break-it trial: the record was
# taken for the new kbench's own and left, nomerges 2 measured)
if unshare -pf --mount-proc true 2>/dev/null; then
	( unshare -pf --mount-proc "$KBENCH" run -q -c "$tmp/k9.conf" -o "$tmp/c6c" >/dev/null 2>&1; true ) 2>/dev/null &
	upid=$!
	for _ in $(seq 1 50); do
		[ "$(cat /sys/block/$bdev/queue/nomerges)" = 2 ] && pgrep -f "$tmp/c6c/runs" >/dev/null && break
		sleep 0.2
	done
	pkill -9 -f -- "-o $tmp/c6c"
	wait $upid 2>/dev/null
	sleep 1
	unshare -pf --mount-proc "$KBENCH" run -q -c "$tmp/notun.conf" -o "$tmp/c7c" >/dev/null 2>"$tmp/run9c.err"
	rc=$?
	check "pid 1 killed with -9, then another pid 1 (got $rc): nomerges restored to 0, said" \
		"[ $rc -eq 0 ] && grep -q \"campaign $tmp/c6c (kbench pid 1, no longer running) left\" $tmp/run9c.err && [ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"
fi
# one configuration, one counted run: nothing to compare, so no graphs
# and no gnuplot start (issue 16: runner/campaign_reports.h)
check "a one-run campaign draws no graphs, report.md links none" \
	"[ ! -e '$tmp/c7/plots' ] && ! grep -q 'plots/' '$tmp/c7/report.md'"
# each campaign removes its target's lock file as it ends (a killed one
# leaves it to the next on the device): none left behind
check "no target lock files left in \$KBENCH_RUN_DIR/targets ($(ls "$KBENCH_RUN_DIR/targets" 2>/dev/null | tr '\n' ' '))" \
	"[ -z \"\$(ls '$KBENCH_RUN_DIR/targets' 2>/dev/null)\" ]"
# a kill -9 on a loop: target, kbench's own loop device: the kernel
# detaches it when kbench is killed (LO_FLAGS_AUTOCLEAR), which gives it
# a new diskseq but keeps nomerges 2 for whoever attaches it next (a
# break-it trial: the record was taken for another device's and dropped,
# and the next campaign on the device recorded 2 as the original;
# after the lock files' check: a killed campaign leaves its own, until
# the next campaign's sweep)
# k9_loop DIR CONF: a loop: campaign killed with -9 once its loop device
# has nomerges 2 and fio runs on it, the device detached by the kernel;
# its name in lbdev ("" when that did not happen)
k9_loop() {
	local d=$1 l="" _
	"$KBENCH" run -q -c "$2" -o "$d" >/dev/null 2>&1 &
	pid=$!
	lbdev=
	for _ in $(seq 1 100); do
		l=$(losetup -nO NAME -j "$d/target.img" 2>/dev/null | head -1)
		[ -n "$l" ] && [ "$(cat /sys/block/${l#/dev/}/queue/nomerges)" = 2 ] &&
			pgrep -f "$d/runs" >/dev/null && break
		sleep 0.2
	done
	kill -9 $pid
	wait $pid 2>/dev/null
	for _ in $(seq 1 100); do
		[ -z "$(losetup -j "$d/target.img" 2>/dev/null)" ] && lbdev=${l#/dev/} && break
		sleep 0.1
	done
}
sed -e 's|^target = .*|target = loop:32M|' "$tmp/k9.conf" >"$tmp/k9l.conf"
sed -e 's|^target = .*|target = loop:32M|' "$tmp/notun.conf" >"$tmp/notunl.conf"
k9_loop "$tmp/c6l" "$tmp/k9l.conf"
left=$(cat /sys/block/${lbdev:-none}/queue/nomerges 2>/dev/null)
"$KBENCH" run -c "$tmp/notunl.conf" -o "$tmp/c7l" >/dev/null 2>"$tmp/run9l.err"
rc=$?
check "a loop: campaign killed with -9, its loop device ($lbdev) detached with nomerges 2 ($left): the next campaign (got $rc) restores 0 there, said" \
	"[ -n '$lbdev' ] && [ '$left' = 2 ] && [ $rc -eq 0 ] && [ \"\$(cat /sys/block/$lbdev/queue/nomerges)\" = 0 ] && grep -q \"campaign $tmp/c6l (kbench pid $pid, no longer running) left /sys/.*/$lbdev/queue/nomerges changed; restoring its original value '0'\" $tmp/run9l.err && ! grep -q 'its device is gone' $tmp/run9l.err"
# the killed campaign's lock file (its backing file's key, which no later
# campaign has) removed by the next one's sweep (target_lock_sweep()),
# which removes its own as it ends: none left (a break-it trial: one a
# kill -9 piled up until the next boot)
check "the killed loop: campaign's target lock removed by the next campaign ($(ls "$KBENCH_RUN_DIR/targets" 2>/dev/null | tr '\n' ' '))" \
	"[ -z \"\$(ls '$KBENCH_RUN_DIR/targets' 2>/dev/null)\" ]"
k9_loop "$tmp/c6m" "$tmp/k9l.conf"
left=$(cat /sys/block/${lbdev:-none}/queue/nomerges 2>/dev/null)
int_when 'restored .*/queue/nomerges = 0' "$tmp/run9m.err" run -o "$tmp/c6m"
check "... and its own resume restores 0 on the device ($lbdev, $left after the kill), said" \
	"[ -n '$lbdev' ] && [ '$left' = 2 ] && grep -q 'restored /sys/.*/$lbdev/queue/nomerges = 0' $tmp/run9m.err && ! grep -q 'its device is gone' $tmp/run9m.err && [ \"\$(cat /sys/block/$lbdev/queue/nomerges)\" = 0 ]"
unset KBENCH_RUN_DIR

# --- 6. a swept job parameter (seed 003's scaling table) ---
cat >"$tmp/sweep.conf" <<CONF
[global]
jobs = seqwrite-1m-direct-scaling
iterations = 2
warmup = 0
runtime = 1
target = loop:128M
profiles = $repo/profiles
tunable NM = queue/nomerges: 0 1
sweep numjobs = 1 2

[running]
method = local
CONF
c4="$tmp/c4"
"$KBENCH" plan -c "$tmp/sweep.conf" >"$tmp/plan4.out" 2>&1
check "plan: 4 configurations with the swept value in the id" \
	"grep -q 'running,NM=1,numjobs=2' $tmp/plan4.out && grep -q '4 configuration' $tmp/plan4.out"
"$KBENCH" run -q -c "$tmp/sweep.conf" -o "$c4" >/dev/null 2>"$tmp/run7.err"
rc=$?
check "sweep campaign exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "fio ran with numjobs from KBENCH_NUMJOBS" \
	"grep -q '\"numjobs\" : \"2\"' '$c4/runs/running,NM=0,numjobs=2/seqwrite-1m-direct-scaling/000/fio.json'"
check "runs carry params.numjobs" \
	"[ \"\$(jq '[.runs[] | select(.params.numjobs == \"2\")] | length' $c4/results.json)\" = 4 ]"
check "NM=1,numjobs=2 is compared with NM=0,numjobs=2 (same swept value)" \
	"[ \"\$(jq -r '[.comparisons[] | select(.configuration == \"running,NM=1,numjobs=2\")][0].baseline' $c4/results.json)\" = 'running,NM=0,numjobs=2' ]"
check "NM=0,numjobs=2 is a baseline itself, not compared with numjobs=1" \
	"[ \"\$(jq '[.comparisons[] | select(.configuration == \"running,NM=0,numjobs=2\")] | length' $c4/results.json)\" = 0 ]"
"$KBENCH" report --layout scaling "$c4" >"$tmp/scaling.txt" 2>&1
check "report --layout scaling: numjobs columns, one row per NM, % change row" \
	"grep -q 'numjobs=1 *numjobs=2' $tmp/scaling.txt && grep -Eq '^running,NM=0 +[0-9.]+ +[0-9.]+' $tmp/scaling.txt && grep -Eq '^running,NM=1 +[0-9.]+ +[0-9.]+' $tmp/scaling.txt && grep -Eq '^% change running,NM=1 +[-+][0-9.]+% +[-+][0-9.]+%' $tmp/scaling.txt"

# --- 9. several campaigns merge into one table (or refuse, clearly) ---
# a copy of the campaign elsewhere: the same name given again ("c1(2)";
# the same directory twice is reported once, e2e_report.sh)
mkdir -p "$tmp/again" && cp -r "$c1" "$tmp/again/c1"
"$KBENCH" report --no-cpu "$c1" "$tmp/again/c1" >"$tmp/merge.txt" 2>"$tmp/merge.err"
rc=$?
check "report DIR DIR2 of one name: one merged table, every row named with its campaign (exit $rc)" \
	"[ $rc -eq 0 ] && [ \"\$(grep -c '^kbench report:' $tmp/merge.txt)\" = 1 ] && grep -q '^kbench report: c1 vs c1(2)$' $tmp/merge.txt && grep -Eq '^c1:running +0 ' $tmp/merge.txt && grep -Eq '^c1\\(2\\):running +1 ' $tmp/merge.txt && ! grep -Eq '^running ' $tmp/merge.txt"
"$KBENCH" report "$c1" "$c4" >/dev/null 2>"$tmp/merge2.err"
rc=$?
check "merged table: seed 000's blank line between NM groups of several kernels" \
	"awk '/^c1\\(2\\):running +0 /{ getline; found = 1; exit (\$0 != \"\") } END { if (!found) exit 1 }' $tmp/merge.txt"
check "campaigns of different jobs are not merged: exit 2, says why" \
	"[ $rc -eq 2 ] && grep -q 'cannot merge .*jobs differ' $tmp/merge2.err"
"$KBENCH" report --separate --no-cpu "$c1" "$c4" >"$tmp/sep.txt" 2>&1
check "--separate: one report each" "[ \"\$(grep -c '^kbench report:' $tmp/sep.txt)\" = 2 ]"

# --- 10. -o never takes over a directory of someone else's files ---
mkdir -p "$tmp/junk" && echo important >"$tmp/junk/notes.txt"
"$KBENCH" run -q -c "$tmp/e2e.conf" -o "$tmp/junk" >/dev/null 2>"$tmp/junk.err"
rc=$?
check "-o DIR holding other files: exit 1, says why, touches nothing" \
	"[ $rc -eq 1 ] && grep -q 'is not a kbench campaign' $tmp/junk.err && [ ! -e $tmp/junk/runs ] && [ \"\$(cat $tmp/junk/notes.txt)\" = important ]"
# a full file system stops the campaign with what to do; every done run
# is kept and the same command resumes once there is room
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=66000k tmpfs "$tmp/full" 2>/dev/null; then
	# retry_disturbed = 0: on a busy machine a disturbed round is run
	# again (its runs to do again); this check is about the full disk,
	# so the runs left and those that ran add up to the plan's 8
	sed -e 's|^iterations = 2|iterations = 4\nretry_disturbed = 0|' \
		"$tmp/e2e.conf" >"$tmp/full.conf"
	"$KBENCH" run -q -c "$tmp/full.conf" -o "$tmp/full/c" >/dev/null 2>"$tmp/full.err"; r1=$?
	mount -o remount,size=200M "$tmp/full"
	"$KBENCH" run -q -o "$tmp/full/c" >/dev/null 2>"$tmp/full2.err"; r2=$?
	n=$(jq '[.runs[] | select(.status == "ok")] | length' "$tmp/full/c/results.json" 2>/dev/null)
	sum=$(sed -n 's/.*stopped with \([0-9]*\) of the 8 runs to do left (\([0-9]*\) run(s) ran).*/\1 + \2/p' "$tmp/full.err")
	check "a full file system: exit 1 (got $r1), said with how to resume, left + ran = 8 (got $sum); resumed (got $r2) to 8 ok runs (got $n)" \
		"[ $r1 -eq 1 ] && grep -q 'c: its file system is full (.* KiB free): stopped with [0-9]* of the 8 runs to do left ([0-9]* run(s) ran), each done run recorded; free space (or move the directory) and run the same command again to resume' '$tmp/full.err' && [ \$(($sum)) -eq 8 ] && [ $r2 -eq 0 ] && [ '$n' = 8 ]"
	umount "$tmp/full"
fi
# a campaign, a kernels.conf, a results.json, a file given where another
# is wanted: each said for what it is, with the command that takes it
"$KBENCH" run -q -c "$c1" >/dev/null 2>"$tmp/w1.err"; r1=$?
"$KBENCH" run -q -c "$tmp/e2e.conf" -o "$tmp/junk/notes.txt" >/dev/null 2>"$tmp/w2.err"; r2=$?
"$KBENCH" report "$tmp/e2e.conf" >/dev/null 2>"$tmp/w3.err"; r3=$?
"$KBENCH" report "$c1/results.json" >/dev/null 2>"$tmp/w4.err"; r4=$?
"$KBENCH" report --from-json "$c1" >/dev/null 2>"$tmp/w5.err"; r5=$?
check "a campaign for -c, a file for -o, a kernels.conf or results.json for a campaign, a campaign for --from-json: refused and named (got $r1 $r2 $r3 $r4 $r5)" \
	"[ $r1 -eq 1 ] && [ $r2 -eq 1 ] && [ $r3 -eq 2 ] && [ $r4 -eq 2 ] && [ $r5 -eq 2 ] && grep -q '$c1: a campaign directory, not a kernels.conf (-c); give it with -o' $tmp/w1.err && grep -q 'notes.txt exists and is a file, not a directory' $tmp/w2.err && grep -q \"e2e.conf: a file, not a campaign directory; a kernels.conf is run first ('kbench run -c\" $tmp/w3.err && grep -q 'results.json: a file, not a campaign directory; a results.json is read with --from-json' $tmp/w4.err && grep -q \"from-json $c1: a directory, not a results.json; a campaign directory is reported as it is: 'kbench report $c1'\" $tmp/w5.err && [ \"\$(cat $tmp/junk/notes.txt)\" = important ]"
# a run directory deleted: report names it, plan -o warns, run redoes
# it without an error about its run.json; a damaged campaign.json says
# what is safe
cp -a "$c1" "$tmp/gone"
rd=$(find "$tmp/gone/runs" -mindepth 3 -maxdepth 3 -type d -name "[0-9][0-9][0-9]" | sort | tail -1)
rm -rf "$rd"
"$KBENCH" report "$tmp/gone" >"$tmp/gone.out" 2>&1
"$KBENCH" plan -o "$tmp/gone" >/dev/null 2>"$tmp/gone-plan.err"; r1=$?
"$KBENCH" run -q -o "$tmp/gone" >/dev/null 2>"$tmp/gone-run.err"; r2=$?
check "a deleted run directory: report says it is gone, plan -o warns, run redoes it (got $r1 $r2)" \
	"[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && tr -s ' \n' ' ' <'$tmp/gone.out' | grep -q 'its run directory is gone (kbench run -o DIR runs it again)' && grep -q 'metrics.json: missing: counted as done here; kbench run -o' '$tmp/gone-plan.err' && grep -q \"its directory $rd is gone; it will be run again\" '$tmp/gone-run.err' && ! grep -q 'cannot open' '$tmp/gone-run.err' && [ -s '$rd/metrics.json' ]"
# a FIFO planted as state.json does not hang report or plan; a huge
# (sparse) metrics.json is refused unread, a file of zeros named so
mv "$tmp/gone/state.json" "$tmp/gone-state.json"
mkfifo "$tmp/gone/state.json"
timeout 30 "$KBENCH" report "$tmp/gone" >/dev/null 2>"$tmp/fifo.err"; r1=$?
timeout 30 "$KBENCH" plan -o "$tmp/gone" >/dev/null 2>&1; r2=$?
rm "$tmp/gone/state.json"
mv "$tmp/gone-state.json" "$tmp/gone/state.json"
# a counted run's (a superseded-K one, retried when the machine was
# busy, sorts first and is not read as a run)
mp=$(find "$tmp/gone/runs" -path "*/[0-9][0-9][0-9]/metrics.json" | sort | head -1)
cp "$mp" "$tmp/gone-metrics.json"
truncate -s 3G "$mp"
timeout 30 "$KBENCH" report "$tmp/gone" >/dev/null 2>"$tmp/big.err"; r3=$?
truncate -s 0 "$mp"; truncate -s 64 "$mp"
timeout 30 "$KBENCH" report "$tmp/gone" >/dev/null 2>"$tmp/nul.err"; r4=$?
cp "$tmp/gone-metrics.json" "$mp"
check "a FIFO as state.json: report and plan -o end (got $r1 $r2, not 124); a 3 GB metrics.json refused unread, zeros named (got $r3 $r4)" \
	"[ $r1 -eq 2 ] && [ $r2 -ne 124 ] && [ $r3 -eq 0 ] && [ $r4 -eq 0 ] && grep -q 'metrics.json: larger than 1024 MiB' '$tmp/big.err' && grep -q 'metrics.json: a NUL byte at offset 0: not JSON' '$tmp/nul.err'"
head -c 100 "$c1/campaign.json" >"$tmp/gone/campaign.json"
"$KBENCH" report "$tmp/gone" >/dev/null 2>"$tmp/dmg.err"; r1=$?
check "a damaged campaign.json: exit 2 (got $r1), the line, and that the runs are untouched" \
	"[ $r1 -eq 2 ] && grep -q 'gone/campaign.json:[0-9]*:[0-9]*: ' '$tmp/dmg.err' && grep -q 'campaign.json is damaged: it defines the campaign and cannot be rebuilt from its runs; restore it from a copy (the measured runs under .*/gone/runs are untouched' '$tmp/dmg.err'"

# --- 10b. a start refused before its first run: the corrected conf starts it
sed -e 's|: 0 1$|: 0 7|' -e '/^layouts/d' "$tmp/e2e.conf" >"$tmp/fix.conf"
"$KBENCH" run -q -c "$tmp/fix.conf" -o "$tmp/cfix" >/dev/null 2>"$tmp/fix1.err"
rc1=$?
sed -i 's|: 0 7$|: 0 1|' "$tmp/fix.conf"
"$KBENCH" run -c "$tmp/fix.conf" -o "$tmp/cfix" >/dev/null 2>"$tmp/fix2.err"
rc2=$?
check "a refused tunable value: exit 1 (got $rc1); the corrected conf then starts the campaign (exit $rc2)" \
	"[ $rc1 -eq 1 ] && grep -q 'nothing was run' $tmp/fix1.err && [ $rc2 -eq 0 ] && grep -q 'starting it again from' $tmp/fix2.err && [ \"\$(jq '.runs | length' $tmp/cfix/state.json)\" = 4 ]"
"$KBENCH" run -q -c "$tmp/e2e.conf" -o "$tmp/cfix" >/dev/null 2>"$tmp/fix3.err"
rc3=$?
lay=$(grep -n '^layouts' "$tmp/e2e.conf" | cut -d: -f1)
check "... but once a run is recorded another conf is refused (exit $rc3), naming the first line that differs ($lay)" \
	"[ $rc3 -ne 0 ] && grep -q 'made from a different kernels.conf' $tmp/fix3.err && grep -q \"first difference: line $lay: 'layouts\" $tmp/fix3.err"

# --- 11. a campaign whose every run fails exits 1, also when run again ---
mkdir -p "$tmp/badprof"
printf '[global]\nfilename=${KBENCH_TARGET}\nruntime=${KBENCH_RUNTIME}\nsize=${KBENCH_SIZE}\nbs=notasize\n[bad]\nrw=read\n' >"$tmp/badprof/bad.fio"
sed -e "s|^jobs = .*|jobs = bad|" -e "s|^profiles = .*|profiles = $tmp/badprof|" \
    -e 's|: 0 1$|: 0|' -e '/^layouts/d' "$tmp/e2e.conf" >"$tmp/allfail.conf"
"$KBENCH" run -q -c "$tmp/allfail.conf" -o "$tmp/c8" >/dev/null 2>"$tmp/af1.err"
rc1=$?
"$KBENCH" run -q -c "$tmp/allfail.conf" -o "$tmp/c8" >/dev/null 2>"$tmp/af2.err"
rc2=$?
check "every run failed: exit 1 (got $rc1), and again on a rerun (got $rc2)" \
	"[ $rc1 -eq 1 ] && [ $rc2 -eq 1 ] && grep -q 'failed' $tmp/af2.err"
check "... each failure recorded with fio's reason" \
	"[ \"\$(jq '[.runs[] | select(.status == \"failed\" and (.reason | length) > 0)] | length' $tmp/c8/results.json)\" = 2 ]"

# --- 12. completed with some runs failed: exit 4, also on a rerun ---
cp "$repo/profiles/randread-4k.fio" "$tmp/badprof/"
sed -e "s|^jobs = .*|jobs = randread-4k bad|" -e "s|^profiles = .*|profiles = $tmp/badprof|" \
    -e 's|: 0 1$|: 0|' -e '/^layouts/d' "$tmp/e2e.conf" >"$tmp/somefail.conf"
"$KBENCH" run -q -c "$tmp/somefail.conf" -o "$tmp/c9" >/dev/null 2>"$tmp/sf1.err"
rc1=$?
"$KBENCH" run -q -c "$tmp/somefail.conf" -o "$tmp/c9" >/dev/null 2>"$tmp/sf2.err"
rc2=$?
check "completed with failed runs: exit 4 (got $rc1), and again on a rerun (got $rc2)" \
	"[ $rc1 -eq 4 ] && [ $rc2 -eq 4 ] && grep -q 'exit status 4' $tmp/sf2.err"
check "... the good job's runs are ok, the bad job's failed" \
	"[ \"\$(jq '[.runs[] | select(.job == \"randread-4k\" and .status == \"ok\")] | length' $tmp/c9/results.json)\" = 2 ] && [ \"\$(jq '[.runs[] | select(.job == \"bad\" and .status == \"failed\")] | length' $tmp/c9/results.json)\" = 2 ]"

# --- 13. --dry-run writes nothing ---
"$KBENCH" run --dry-run -q -c "$tmp/e2e.conf" -o "$tmp/dry" >"$tmp/dry.out" 2>&1
rc=$?
check "--dry-run of a new campaign exits 0 and creates nothing (got $rc)" \
	"[ $rc -eq 0 ] && [ ! -e $tmp/dry ]"
check "... and says a local campaign has no boot command to show" \
	"grep -q 'every variant is method = local, so there is no boot command to show' $tmp/dry.out"
# a new directory made in /tmp (sticky, writable by all: fine above it),
# with a trailing slash and a parent to make
"$KBENCH" run --dry-run -q -c "$tmp/e2e.conf" -o "/tmp/kbench-dry2.$$/x/" \
	>/dev/null 2>"$tmp/dry2.err"
rc=$?
check "--dry-run -o /tmp/NEW/DIR/: not refused (got $rc), nothing made" \
	"[ $rc -eq 0 ] && ! grep -q 'not started' $tmp/dry2.err && [ ! -e /tmp/kbench-dry2.$$ ]"
# a directory of the user's is refused untouched (no .lock, and a file
# named like a dead kbench's temporary file is not removed); a start that
# fails on its conf leaves no directory behind
mkdir -p "$tmp/mine"
echo keep >"$tmp/mine/notes.tmp.999999999"
"$KBENCH" run -q -c "$tmp/e2e.conf" -o "$tmp/mine" >/dev/null 2>"$tmp/mine.err"
rc=$?
check "a directory of the user's: refused (got $rc), nothing made or removed in it" \
	"[ $rc -eq 1 ] && grep -q 'is not a kbench campaign' $tmp/mine.err && [ -e $tmp/mine/notes.tmp.999999999 ] && [ ! -e $tmp/mine/.lock ]"
# a project directory (kernels.conf and profiles/ of the user's, no
# .lock of kbench's) is not a creation cut short: not overwritten
mkdir -p "$tmp/proj/profiles"
echo '; mine' >"$tmp/proj/kernels.conf"
echo '; mine' >"$tmp/proj/profiles/randread-4k.fio"
"$KBENCH" run -q -c "$tmp/e2e.conf" -o "$tmp/proj" >/dev/null 2>"$tmp/proj.err"
rc=$?
check "a project directory with kernels.conf and profiles/: refused (got $rc), nothing overwritten" \
	"[ $rc -eq 1 ] && grep -q 'is not a kbench campaign' $tmp/proj.err && [ \"\$(cat $tmp/proj/kernels.conf)\" = '; mine' ] && [ \"\$(cat $tmp/proj/profiles/randread-4k.fio)\" = '; mine' ]"
"$KBENCH" run -q -c "$tmp/nosuch.conf" -o "$tmp/nodir/a/b" >/dev/null 2>&1
rc=$?
check "-c a missing conf: exit 1 (got $rc), no campaign directory left, nor the ones above it made for it" \
	"[ $rc -eq 1 ] && [ ! -e $tmp/nodir ]"

# --- 14. retry_disturbed: a round with a disturbed run is run again ---
# thresholds that make every run with any CPU pressure (or below the top
# quartile of idle) disturbed: each round is superseded once, kept
# retry_campaign DIR ORDER WAIT: that campaign with those thresholds,
# retry_disturbed = 1 and retry_quiet_wait = WAIT (order = ORDER when not
# empty) into $tmp/DIR, its log in $tmp/DIR.err, the exit status in rc
retry_campaign() {
	sed -e "s/^layouts = rounds\$/${2:+order = $2\\
}disturbed_psi_pct = 0\\
disturbed_idle_fraction = 1\\
retry_quiet_wait = $3\\
retry_disturbed = 1/" "$tmp/e2e.conf" >"$tmp/$1.conf"
	"$KBENCH" run -c "$tmp/$1.conf" -o "$tmp/$1" >/dev/null 2>"$tmp/$1.err"
	rc=$?
}
if [ -r /proc/pressure/cpu ]; then
	retry_campaign c14 '' 1s
	check "retry_disturbed: the campaign completes (got $rc)" "[ $rc -eq 0 ]"
	# retry_quiet_wait = 1s: before each retried round a 1-s window is
	# sampled, and the log says whether it was quiet or why not (CPU
	# pressure above 0% is busy here)
	nw=$(grep -c -e 'the machine was quiet for 1 s after' -e 'the machine stayed busy for 1 s (.*; retry_quiet_wait)' "$tmp/c14.err")
	nws=$(grep -c 'waiting up to 1 s for a quiet second before the round runs again (retry_quiet_wait)' "$tmp/c14.err")
	check "... retry_quiet_wait: each retried round waited for a quiet window, the log says so before ($nws) and how it went ($nw)" \
		"[ \"\$(jq '.superseded | length' $tmp/c14/state.json)\" = \$((2 * $nw)) ] && [ $nw -ge 1 ] && [ $nws = $nw ]"
	nsup=$(jq '.superseded | length' "$tmp/c14/state.json" 2>/dev/null)
	check "retry_disturbed: superseded runs recorded in state.json ($nsup)" \
		"[ \"\${nsup:-0}\" -ge 2 ]"
	check "... each superseded run's directory kept" \
		"jq -r '.superseded[].dir' $tmp/c14/state.json | while read -r d; do [ -s \"$tmp/c14/\$d/fio.json\" ] || exit 1; done"
	check "... at most retry_disturbed = 1 retry per round" \
		"[ \"\$(jq '[.disturbed_retries[] | select(. > 1)] | length' $tmp/c14/state.json)\" = 0 ]"
	check "... the planned runs all done, the report marks disturbed runs" \
		"[ \"\$(jq '.runs | length' $tmp/c14/results.json)\" = 4 ] && grep -q '^Machine: ' $tmp/c14/report.txt"
	# state.json lost: the superseded runs and the retry counts rebuilt
	# from the NNN.superseded-K directories (a helper's trial found the
	# list, and the report's Retried line, gone after a rebuild)
	cp -a "$tmp/c14" "$tmp/c14x" && rm "$tmp/c14x/state.json"
	# ... and what is no run kbench kept aside is not taken for one: a
	# "-01" name, an empty directory (it set disturbed_retries to 7)
	r0=$(ls -d "$tmp/c14x"/runs/*/*/000 | head -1)
	cp -a "$r0" "$r0.superseded-01"
	mkdir "$r0.superseded-7"
	"$KBENCH" run -q -o "$tmp/c14x" >/dev/null 2>"$tmp/c14x.err"
	rc=$?
	sup='[.superseded[] | {key, dir, attempt}] | sort_by(.dir)'
	check "... state.json lost: rebuilt with the same superseded runs and retry counts (rc $rc)" \
		"[ $rc -eq 0 ] && [ \"\$(jq -cS '$sup' $tmp/c14x/state.json)\" = \"\$(jq -cS '$sup' $tmp/c14/state.json)\" ] && [ \"\$(jq -cS .disturbed_retries $tmp/c14x/state.json)\" = \"\$(jq -cS .disturbed_retries $tmp/c14/state.json)\" ] && jq -e '.superseded | length > 0' $tmp/c14x/state.json >/dev/null"
	rm -rf "$tmp/c14x"
	# ... and a run's first copy that is no kept run (an empty
	# superseded-1 before its real copy, now superseded-2) counts from 0:
	# the round's other run's copies were carried into its count (2)
	cp -a "$tmp/c14" "$tmp/c14y" && rm "$tmp/c14y/state.json"
	r1=$(jq -r '.superseded[].dir' "$tmp/c14/state.json" | grep '/running,NM=1/' | while read -r d; do
		[ -d "$tmp/c14/${d/NM=1/NM=0}" ] && { echo "$tmp/c14y/$d"; break; }; done)
	[ -n "$r1" ] && mv "$r1" "${r1%-1}-2" && mkdir "$r1"
	"$KBENCH" run -q -o "$tmp/c14y" >/dev/null 2>"$tmp/c14y.err"
	rc=$?
	check "... a run whose first copy is an empty directory: its round's retry count not raised by another run's copies (rc $rc, $(jq -cS .disturbed_retries $tmp/c14y/state.json 2>/dev/null))" \
		"[ $rc -eq 0 ] && [ -n '$r1' ] && [ \"\$(jq -cS .disturbed_retries $tmp/c14y/state.json)\" = \"\$(jq -cS .disturbed_retries $tmp/c14/state.json)\" ]"
	rm -rf "$tmp/c14y"
	check "... metrics.json has PSI and says why cpufreq is missing, if it is" \
		"jq -e '.metrics[\"psi.cpu_some_pct\"] != null' $tmp/c14/runs/running,NM=0/randread-4k/000/metrics.json >/dev/null && { [ -r /sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq ] || jq -e '.unavailable[\"cpu.freq_mhz\"]' $tmp/c14/runs/running,NM=0/randread-4k/000/metrics.json >/dev/null; }"
	# order = random: a round is still a block; its end is found in the
	# Ctrl-C after a round was found disturbed: the runs to do count
	# the round's runs again, as the runs left do (a break-it trial:
	# "7 of the 2 runs to do are left (3 run(s) ran)")
	sed -e 's/^retry_quiet_wait = .*/retry_quiet_wait = 60s/' \
	    "$tmp/c14.conf" >"$tmp/c14i.conf"
	int_when 'running the round again' "$tmp/c14i.err" run -c "$tmp/c14i.conf" -o "$tmp/c14i"
	msg=$(grep -o 'interrupted by signal 2: [0-9]* of the [0-9]* runs to do are left ([0-9]* run(s) ran)' "$tmp/c14i.err")
	sum=$(echo "$msg" | sed -n 's/.*: \([0-9]*\) of the \([0-9]*\) runs .*(\([0-9]*\) run(s) ran)/\1 + \3 - \2/p')
	check "Ctrl-C after a retried round: exit 130 (got $rc), runs left + runs ran = runs to do ($msg)" \
		"[ $rc -eq 130 ] && grep -q 'running the round again' $tmp/c14i.err && [ -n '$sum' ] && [ \$(($sum)) -eq 0 ]"
	# shuffled plan and the whole round (both configurations) is redone
	retry_campaign c14r random 0
	check "retry_disturbed, order = random: completes (got $rc), rounds superseded" \
		"[ $rc -eq 0 ] && [ \"\$(jq '.superseded | length' $tmp/c14r/state.json)\" -ge 2 ]"
	check "... each retried round superseded whole: both configurations" \
		"jq -e '[.superseded[] | {a: .attempt, it: (.key | split(\"/\")[2])}] | group_by(.) | all(length == 2)' $tmp/c14r/state.json >/dev/null && jq -e '.disturbed_retries | keys | all(test(\"^[0-9]+\$\"))' $tmp/c14r/state.json >/dev/null"
	check "... the planned runs all done" \
		"[ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $tmp/c14r/results.json)\" = 4 ]"
	# order = block: no rounds; a disturbed run is redone alone, the
	# attempts kept per run ("CFG/JOB/NNN")
	retry_campaign c14b block 0
	check "retry_disturbed, order = block: completes (got $rc), runs superseded" \
		"[ $rc -eq 0 ] && [ \"\$(jq '.superseded | length' $tmp/c14b/state.json)\" -ge 1 ]"
	check "... each disturbed run redone alone, once at most, and the log says why" \
		"jq -e '(.superseded | map(.key) | sort) == (.disturbed_retries | keys | sort) and (.disturbed_retries | all(. == 1))' $tmp/c14b/state.json >/dev/null && grep -q 'running it again alone.*order = block has no rounds' $tmp/c14b.err"
	check "... the planned runs all done" \
		"[ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $tmp/c14b/results.json)\" = 4 ]"
	check "... retry_quiet_wait = 0: retried without waiting" \
		"! grep -q -e 'the machine was quiet' -e 'stayed busy' $tmp/c14b.err $tmp/c14r.err"
else
	skipped "retry_disturbed: no /proc/pressure here"
fi

# --- 15. a tunable written by someone else while fio runs fails the run ---
# (runner/run_exec.c reads every tunable back after fio; the run is
# failed with the reason, its artefacts kept)
sed -e "s|^target = .*|target = $dev|" -e 's|^iterations = 2|iterations = 1|' \
    -e 's|^runtime = 1|runtime = 3|' -e 's|: 0 1$|: 0|' -e '/^layouts/d' \
    "$tmp/e2e.conf" >"$tmp/tchg.conf"
echo 0 >/sys/block/$bdev/queue/nomerges
"$KBENCH" run -q -c "$tmp/tchg.conf" -o "$tmp/c15" >/dev/null 2>"$tmp/c15.err" &
pid=$!
for _ in $(seq 1 100); do
	pgrep -f "$tmp/c15/runs" >/dev/null && break
	sleep 0.1
done
sleep 0.5        # fio is running
echo 2 >/sys/block/$bdev/queue/nomerges
wait $pid
rc=$?
r15="$tmp/c15/runs/running,NM=0/randread-4k/000"
check "nomerges written during the run: the run failed, exit 1 (got $rc)" \
	"[ $rc -eq 1 ]"
check "... with the reason 'tunable NM (...) changed during the run: wrote 0, read 2 after fio'" \
	"jq -r '.runs[0].reason' $tmp/c15/results.json | grep -q '^tunable NM (/sys/.*/queue/nomerges) changed during the run: wrote 0, read 2 after fio'"
check "... run.json has tunables_after, fio.json kept" \
	"[ \"\$(jq -r '.tunables_after | to_entries[0].value' '$r15/run.json')\" = 2 ] && [ -s '$r15/fio.json' ]"
check "... nomerges restored to 0 after the campaign" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"

# --- --retry-failed keeps each failed run's files aside (its fio.stderr
#     is the failure's evidence) and runs it again ---
mkdir -p "$tmp/failbin"
printf '#!/bin/sh\ncase "$1" in --version) echo fio-3.33; exit 0 ;; esac\necho "fio: fake failure" >&2\nexit 1\n' >"$tmp/failbin/fio"
chmod +x "$tmp/failbin/fio"
# (every run judged disturbed, retry_disturbed = 1: the round run again
# is kept as NNN.superseded-2, the name after the failed run's)
sed -e 's|^iterations = 2|iterations = 1|' -e 's|^layouts = rounds$|disturbed_psi_pct = 0\
disturbed_idle_fraction = 1\
retry_quiet_wait = 0\
retry_disturbed = 1|' "$tmp/e2e.conf" >"$tmp/rf.conf"
PATH="$tmp/failbin:$PATH" "$KBENCH" run -q -c "$tmp/rf.conf" -o "$tmp/c17" >/dev/null 2>"$tmp/c17a.err"
"$KBENCH" run --retry-failed -o "$tmp/c17" >/dev/null 2>"$tmp/c17.err"
rc=$?
r17="$tmp/c17/runs/running,NM=0/randread-4k/000"
check "--retry-failed: the failed runs run again (got $rc: $(tail -n 2 "$tmp/c17.err" | tr '\n' ' ')), each kept as NNN.superseded-1 with its fio.stderr" \
	"[ $rc -eq 0 ] && grep -q 'fio: fake failure' '$r17.superseded-1/fio.stderr' && [ \"\$(jq -r .status '$r17/metrics.json')\" = ok ]"
check "... listed as superseded, 'failed: ...', and said so in the report" \
	"[ \"\$(jq '[.superseded[] | select(.reason | startswith(\"failed: fio exited with status 1\"))] | length' $tmp/c17/results.json)\" = 2 ] && grep -q '2 failed run(s) run again (--retry-failed' $tmp/c17/report.txt"
check "... the disturbed round run again after it kept as NNN.superseded-2" \
	"[ -d '$r17.superseded-2' ] && [ \"\$(jq '[.superseded[] | select(.dir | endswith(\"superseded-2\"))] | length' $tmp/c17/results.json)\" = 2 ]"
# state.json lost: the --retry-failed copies count no disturbed retry,
# the disturbed round's one (kept as -2) counts one, as recorded
cp -a "$tmp/c17" "$tmp/c17x" && rm "$tmp/c17x/state.json"
"$KBENCH" run -q -o "$tmp/c17x" >/dev/null 2>"$tmp/c17x.err"
rc=$?
check "... state.json lost: rebuilt with the same retry counts (rc $rc: $(jq -c .disturbed_retries "$tmp/c17x/state.json" 2>&1), recorded $(jq -c .disturbed_retries "$tmp/c17/state.json" 2>&1)) and superseded runs" \
	"[ $rc -eq 0 ] && [ \"\$(jq -cS .disturbed_retries $tmp/c17x/state.json)\" = \"\$(jq -cS .disturbed_retries $tmp/c17/state.json)\" ] && [ \"\$(jq '.superseded | length' $tmp/c17x/state.json)\" = \"\$(jq '.superseded | length' $tmp/c17/state.json)\" ]"
rm -rf "$tmp/c17x"
# --retry-failed runs each failed run once: one that fails again is
# recorded so, not run yet again when a disturbed run sends the loop
# back to the start (a break-it trial: its directory and its second
# failure overwritten, "[5/4]").  order = block: the NM=1 run retried
# alone after NM=0 failed again.
realfio=$(command -v fio)
mkdir -p "$tmp/oncebin"
printf '#!/bin/sh\ncase "$1" in --version) exec %s --version ;; esac\nn=$(cat %s/rf2.n 2>/dev/null || echo 0); echo $((n + 1)) >%s/rf2.n\n[ "$n" = 0 ] && { echo "fio: second failure" >&2; exit 1; }\nexec %s "$@"\n' \
	"$realfio" "$tmp" "$tmp" "$realfio" >"$tmp/oncebin/fio"
chmod +x "$tmp/oncebin/fio"
sed -e 's|^retry_disturbed = 1|retry_disturbed = 1\
order = block|' "$tmp/rf.conf" >"$tmp/rf2.conf"
PATH="$tmp/failbin:$PATH" "$KBENCH" run -q -c "$tmp/rf2.conf" -o "$tmp/c17b" >/dev/null 2>&1
PATH="$tmp/oncebin:$PATH" "$KBENCH" run --retry-failed -o "$tmp/c17b" \
	>/dev/null 2>"$tmp/c17b.err"
rc=$?
r17b="$tmp/c17b/runs/running,NM=0/randread-4k/000"
check "--retry-failed, a run failing again: recorded failed with its second failure, run once (rc $rc: $(grep -c 'running,NM=0 randread-4k' "$tmp/c17b.err") starts of it; $(jq -r '.runs["running,NM=0/randread-4k/000"].reason' "$tmp/c17b/state.json" 2>&1))" \
	"[ \"\$(grep -c 'running,NM=0 randread-4k iteration' $tmp/c17b.err)\" = 1 ] && jq -r '.runs[\"running,NM=0/randread-4k/000\"].reason' $tmp/c17b/state.json | grep -q 'second failure' && grep -q 'second failure' '$r17b/fio.stderr'"
check "... the progress counter never passes the runs to do ($(grep -o '\[[0-9]*/[0-9]*\]' "$tmp/c17b.err" | tr '\n' ' '))" \
	"! grep -o '\[[0-9]*/[0-9]*\]' $tmp/c17b.err | tr -d '[]' | awk -F/ '\$1 > \$2 { bad = 1 } END { exit !bad }'"

# --- Ctrl-C while the reports are written (a gnuplot that takes its
#     time): exit 130, said so; the next kbench run writes them ---
mkdir -p "$tmp/slowbin"
printf '#!/bin/sh\ntouch %s/gp.started\nexec sleep 60\n' "$tmp" >"$tmp/slowbin/gnuplot"
chmod +x "$tmp/slowbin/gnuplot"
sed -e 's|^iterations = 2|iterations = 1|' "$tmp/e2e.conf" >"$tmp/rep.conf"
PATH="$tmp/slowbin:$PATH" "$KBENCH" run -c "$tmp/rep.conf" -o "$tmp/c16" \
	>/dev/null 2>"$tmp/c16.err" &
pid=$!
# gnuplot may start before the last run ends (drawn off the critical
# path): the signal waits for both runs recorded
for _ in $(seq 1 300); do
	[ -e "$tmp/gp.started" ] &&
		[ "$(jq '.runs | length' "$tmp/c16/state.json" 2>/dev/null)" = 2 ] && break
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
check "SIGINT while gnuplot draws: exit 130 (got $rc), said so, not blamed on gnuplot" \
	"[ -e $tmp/gp.started ] && [ $rc -eq 130 ] && grep -q 'interrupted by signal 2 while writing the reports' $tmp/c16.err && ! grep -q 'gnuplot failed' $tmp/c16.err"
"$KBENCH" run -q -o "$tmp/c16" >/dev/null 2>"$tmp/c16b.err"
rc=$?
check "... the next kbench run writes the reports with their graphs (got $rc)" \
	"[ $rc -eq 0 ] && grep -q 'plots/' $tmp/c16/report.md && ls $tmp/c16/plots/*.svg >/dev/null 2>&1"

# --- --add-rounds: a finished campaign extended by whole rounds (a
#     new-user trial: editing DIR/kernels.conf's iterations broke it) ---
"$KBENCH" run -o "$tmp/c16" --add-rounds 2 >/dev/null 2>"$tmp/more.err"
rc=$?
n=$(jq '[.runs[] | select(.status == "ok" and .warmup != true)] | length' "$tmp/c16/results.json" 2>/dev/null)
it=$(jq '.campaign.iterations' "$tmp/c16/campaign.json" 2>/dev/null)
check "--add-rounds 2 on a finished 1-round campaign: exit 0 (got $rc), 6 ok runs (got $n), campaign.iterations 3 (got $it), said" \
	"[ $rc -eq 0 ] && [ '$n' = 6 ] && [ '$it' = 3 ] && grep -q '2 round(s) added: 3 timed rounds in all' $tmp/more.err"
"$KBENCH" run -q -o "$tmp/c16" >/dev/null 2>"$tmp/more2.err"
rc=$?
n=$(jq '[.runs[] | select(.status == "ok")] | length' "$tmp/c16/results.json" 2>/dev/null)
"$KBENCH" report "$tmp/c16" >"$tmp/more.rep" 2>/dev/null
check "... run again: nothing left (got $rc), still 6 runs (got $n); the report's n is 3" \
	"[ $rc -eq 0 ] && [ '$n' = 6 ] && grep -q 'n = 3\\|n=3\\|3 timed' $tmp/more.rep"
"$KBENCH" run -q -c "$tmp/rep.conf" -o "$tmp/cnew" --add-rounds 1 >/dev/null 2>"$tmp/more3.err"
rc=$?
"$KBENCH" run -q -o "$tmp/c16" --add-rounds 0 >/dev/null 2>"$tmp/more4.err"
rc2=$?
check "--add-rounds on a new campaign (got $rc) and --add-rounds 0 (got $rc2): exit 1, said, nothing made" \
	"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q 'cnew holds none (give -o DIR of one' $tmp/more3.err && grep -q -- '--add-rounds 0: expected a number of rounds from 1 to 10000' $tmp/more4.err && [ ! -e $tmp/cnew ]"

# --- the campaign's snapshot: a hand edit of DIR/kernels.conf or of a
#     job file refused on resume, naming the file (the runs to come were
#     measured from another text than those done) ---
check "campaign.json records the SHA-256 of kernels.conf and each job file" \
	"[ \"\$(jq -r '.snapshot[\"kernels.conf\"]' $tmp/c16/campaign.json)\" = \"\$(sha256sum <$tmp/c16/kernels.conf | cut -d' ' -f1)\" ] && [ \"\$(jq -r '.snapshot[\"profiles/randread-4k.fio\"]' $tmp/c16/campaign.json)\" = \"\$(sha256sum <$tmp/c16/profiles/randread-4k.fio | cut -d' ' -f1)\" ]"
cp "$tmp/c16/kernels.conf" "$tmp/c16.conf.orig"
cp "$tmp/c16/state.json" "$tmp/c16.state.orig"
sed -i 's/^iterations *=.*/iterations = 5/' "$tmp/c16/kernels.conf"
"$KBENCH" run -q -o "$tmp/c16" >/dev/null 2>"$tmp/snap1.err"
rc=$?
check "DIR/kernels.conf edited: the resume is refused (exit 1, got $rc), the file named, nothing run" \
	"[ $rc -eq 1 ] && grep -q \"$tmp/c16/kernels.conf: changed since the campaign began\" $tmp/snap1.err && grep -q -- '--add-rounds N' $tmp/snap1.err && cmp -s $tmp/c16/state.json $tmp/c16.state.orig"
cp "$tmp/c16.conf.orig" "$tmp/c16/kernels.conf"
echo 'iodepth=1' >>"$tmp/c16/profiles/randread-4k.fio"
"$KBENCH" plan -o "$tmp/c16" >/dev/null 2>"$tmp/snap2.err"
rc=$?
sed -i '$d' "$tmp/c16/profiles/randread-4k.fio"
rm -f "$tmp/c16/profiles/symbols.conf"
"$KBENCH" run -q -o "$tmp/c16" >/dev/null 2>"$tmp/snap3.err"
rc3=$?
check "a job file edited (plan -o DIR: exit 1, got $rc) and symbols.conf removed (run: exit 1, got $rc3): each named" \
	"[ $rc -eq 1 ] && [ $rc3 -eq 1 ] && grep -q \"$tmp/c16/profiles/randread-4k.fio: changed since the campaign began\" $tmp/snap2.err && grep -q \"$tmp/c16/profiles/symbols.conf: missing: the campaign was planned from it\" $tmp/snap3.err"
cp "$repo/profiles/symbols.conf" "$tmp/c16/profiles/symbols.conf"
"$KBENCH" run -q -o "$tmp/c16" >/dev/null 2>"$tmp/snap4.err"
rc=$?
check "the old texts back: the campaign resumes (exit 0, got $rc)" "[ $rc -eq 0 ]"
finish
