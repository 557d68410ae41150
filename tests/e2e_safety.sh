#!/bin/bash
# tests/e2e_safety.sh - end-to-end: kbench runs as root and writes only
# where it means to; nothing of fio outlives its run (issue 14, "Security"
# and "Processes").  On loop devices, runs of 1 s:
#   1. a tunable path through /proc/self/root is refused (FILE:LINE) and
#      the file it leads to keeps its content;
#   2. an edited tunables.saved.json naming files outside sysfs (and a
#      sysctl the conf does not name) writes none of them; the conf's own
#      tunable is restored;
#   3. stale *.tmp.PID files of a killed kbench (one a symlink to the
#      victim) are removed from the campaign and /run/kbench, the victim
#      untouched; a campaign directory whose job file others can write,
#      or whose kernels.conf another user owns, is not resumed (unless
#      root came from that user through sudo);
#   4. option-like kernels.conf values never reach modprobe or apt-get
#      (fakes first in PATH log their argv): FILE:LINE errors;
#   5. a mounted target (a loop device with ext4 mounted in a temporary
#      directory) is refused naming the mount, before any tunable is
#      touched, even with allow_mounted_write=1 in the job file;
#   5b. a write job whose own filename= names a file of the user's is
#      refused by run and plan, the file unchanged; exec_prerun= and
#      ioscheduler= in a job file are refused, the command not run;
#   6. a fake fio whose job process ignores SIGTERM and SIGHUP: at the
#      timeout, at the end of fio and on Ctrl-C the whole process group
#      is killed before the next run starts, the failure reason says so
#      and carries fio's stderr, and no process survives kbench.
# Needs root; prints a SKIP line otherwise.  About 40 s.
# Closing line: "e2e-safety: N passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
finish() {
	[ -n "${mnt:-}" ] && umount "$mnt" 2>/dev/null
	[ -n "${mdev:-}" ] && losetup -d "$mdev" 2>/dev/null
	[ -n "${dev:-}" ] && losetup -d "$dev" 2>/dev/null
	[ -n "${dev2:-}" ] && losetup -d "$dev2" 2>/dev/null
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary e2e-safety
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: e2e safety tests need root (loop devices, sysfs, mount)"
	skip=1
	finish
fi
for tool in fio jq losetup; do
	if ! command -v $tool >/dev/null; then
		echo "SKIP: e2e safety tests need $tool (scripts/install-deps)"
		skip=1
		finish
	fi
done

repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-e2e-safety.XXXXXX)
export KBENCH_RUN_DIR="$tmp/rundir"
victim="$tmp/victim"
echo original >"$victim"
unchanged() { [ "$(cat "$victim")" = original ]; }

conf() {	# conf FILE TARGET TUNABLE-LINE [more [global] lines]
	local f=$1 target=$2 tun=$3
	shift 3
	{
		printf '[global]\njobs = randread-4k\niterations = 1\nwarmup = 0\n'
		printf 'runtime = 1\ntarget = %s\nprofiles = %s\n' "$target" "$repo/profiles"
		[ -n "$tun" ] && printf '%s\n' "$tun"
		for l in "$@"; do printf '%s\n' "$l"; done
		printf '\n[running]\nmethod = local\n'
	} >"$f"
}

# --- 1. a tunable through /proc/self/root ---
conf "$tmp/root.conf" loop:32M "tunable X = /proc/self/root$victim: pwned"
line=$(grep -n '^tunable X' "$tmp/root.conf" | cut -d: -f1)
"$KBENCH" run -q -c "$tmp/root.conf" -o "$tmp/c1" >/dev/null 2>"$tmp/1.err"
rc=$?
check "tunable via /proc/self/root: exit 1 (got $rc), FILE:LINE, outside /sys" \
	"[ $rc -eq 1 ] && grep -q \"root.conf:$line: tunable X: /proc/self/root$victim resolves to $victim, outside /sys and /proc/sys: refused\" $tmp/1.err"
check "... the victim keeps its content, nothing saved" \
	"unchanged && [ ! -e $tmp/c1/tunables.saved.json ]"
# kbench plan refuses it as run does (it listed the plan, exit 0)
"$KBENCH" plan -c "$tmp/root.conf" >/dev/null 2>"$tmp/1p.err"
rc=$?
check "kbench plan: the same refusal, exit 1 (got $rc)" \
	"[ $rc -eq 1 ] && grep -q \"root.conf:$line: tunable X: /proc/self/root$victim resolves to $victim, outside /sys and /proc/sys: refused\" $tmp/1p.err && unchanged"

# KBENCH_ACCEL that run refuses, plan refuses (it estimated KVM boots
# for KBENCH_ACCEL=bogus, a helper's trial)
KBENCH_ACCEL=bogus "$KBENCH" plan -c "$repo/examples/kernels-vm.conf" >/dev/null 2>"$tmp/accel.err"
rc=$?
KBENCH_ACCEL=bogus "$KBENCH" run -q -c "$tmp/root.conf" -o "$tmp/caccel" >/dev/null 2>"$tmp/accel2.err"
rc2=$?
check "KBENCH_ACCEL=bogus: kbench plan and run (of a local campaign too) exit 1 (got $rc, $rc2), nothing made" \
	"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q \"KBENCH_ACCEL='bogus': expected auto, kvm or tcg\" $tmp/accel.err && grep -q \"KBENCH_ACCEL='bogus'\" $tmp/accel2.err && [ ! -e $tmp/caccel ]"

# --- 2. an edited tunables.saved.json ---
img="$tmp/dev.img"
truncate -s 32M "$img"
dev=$(losetup -f --show "$img")
bdev=$(basename "$dev")
echo 0 >/sys/block/$bdev/queue/nomerges
conf "$tmp/ok.conf" "$dev" "tunable NM = queue/nomerges: 1"
"$KBENCH" run -q -c "$tmp/ok.conf" -o "$tmp/c2" >/dev/null 2>"$tmp/2a.err"
rc=$?
check "a campaign on $dev runs (got $rc)" "[ $rc -eq 0 ]"
sw=$(cat /proc/sys/vm/swappiness)
echo 2 >/sys/block/$bdev/queue/nomerges
cat >"$tmp/c2/tunables.saved.json" <<JSON
{"$victim": "pwned", "/proc/self/root$victim": "pwned2",
 "/proc/sys/vm/swappiness": "$((sw == 7 ? 8 : 7))",
 "/sys/block/$bdev/queue/nomerges": "0"}
JSON
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/2b.err"
rc=$?
check "edited tunables.saved.json: the run goes on (got $rc)" "[ $rc -eq 0 ]"
check "... a file outside sysfs it names is not written (victim unchanged)" \
	"unchanged && grep -q \"names $victim, which resolves to $victim, outside /sys and /proc/sys\" $tmp/2b.err"
check "... nor a sysctl, without the machine's record (swappiness still $sw)" \
	"[ \"\$(cat /proc/sys/vm/swappiness)\" = $sw ] && grep -q 'swappiness.*but the machine has no record' $tmp/2b.err"
check "... nor the conf's own tunable (nomerges still 2: no record), the file removed" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 2 ] && [ ! -e $tmp/c2/tunables.saved.json ]"
echo 0 >/sys/block/$bdev/queue/nomerges

# two spellings of one file (kconf compares the names; the resolved files
# are compared before anything is written)
echo 0 >/sys/block/$bdev/queue/nomerges
conf "$tmp/two.conf" "$dev" "tunable NM = queue/nomerges: 1" \
	"tunable NM2 = /sys/block/$bdev/queue/nomerges: 2"
"$KBENCH" run -q -c "$tmp/two.conf" -o "$tmp/ctwo" >/dev/null 2>"$tmp/2c.err"
rc=$?
check "one file under two tunables' names: exit 1 (got $rc), FILE:LINE of the second" \
	"[ $rc -eq 1 ] && grep -q \"two.conf:9: tunable NM2: /sys/devices/.*/$bdev/queue/nomerges is tunable NM's file already (line 8)\" $tmp/2c.err"
check "... nothing written, saved or run (nomerges 0)" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ] && [ ! -e $tmp/ctwo/tunables.saved.json ] && [ ! -e $tmp/ctwo/runs ]"

# a relative tunable stays with the target: sysfs links (subsystem/,
# holders/, device/...) reach other devices' files
truncate -s 8M "$tmp/dev2.img"
dev2=$(losetup -f --show "$tmp/dev2.img")
bdev2=$(basename "$dev2")
echo 0 >/sys/block/$bdev2/queue/nomerges
conf "$tmp/esc.conf" "$dev" "tunable X = subsystem/$bdev2/queue/nomerges: 2"
"$KBENCH" run -q -c "$tmp/esc.conf" -o "$tmp/cesc" >/dev/null 2>"$tmp/esc.err"
rc=$?
check "relative tunable through subsystem/ to $bdev2: exit 1 (got $rc), FILE:LINE, refused" \
	"[ $rc -eq 1 ] && grep -q \"esc.conf:8: tunable X: subsystem/$bdev2/queue/nomerges resolves to /sys/devices/.*/$bdev2/queue/nomerges, outside the target's .*/$bdev and its device/ and bdi/.*: refused\" $tmp/esc.err"
check "... $bdev2 untouched (nomerges 0), no run" \
	"[ \"\$(cat /sys/block/$bdev2/queue/nomerges)\" = 0 ] && [ ! -e $tmp/cesc/runs ]"
conf "$tmp/bdi.conf" "$dev" "tunable RA = bdi/read_ahead_kb: 256"
"$KBENCH" run -q -c "$tmp/bdi.conf" -o "$tmp/cbdi" >/dev/null 2>"$tmp/bdi.err"
rc=$?
check "... while the target's own bdi/read_ahead_kb is taken (got $rc)" "[ $rc -eq 0 ]"
losetup -d "$dev2" && dev2=

# the machine's record cannot be written: the tunable is not changed
# (after a crash nothing could restore it)
echo 0 >/sys/block/$bdev/queue/nomerges
conf "$tmp/norec.conf" "$dev" "tunable NM = queue/nomerges: 1"
# (/proc/kbench-x: under a directory root owns, where nothing can be made)
KBENCH_RUN_DIR=/proc/kbench-x "$KBENCH" run -q -c "$tmp/norec.conf" -o "$tmp/cnorec" >/dev/null 2>"$tmp/norec.err"
rc=$?
check "no machine record possible: exit 1 (got $rc), said so, nomerges not changed" \
	"[ $rc -eq 1 ] && grep -q 'cannot record the original value of .*/queue/nomerges in /proc/kbench-x/tunables/.*: not changed' $tmp/norec.err && [ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"
# plain DIR [-q]: a campaign without tunables on $dev into $tmp/DIR, its
# log in $tmp/DIR.err, its exit status in rc
plain() {
	conf "$tmp/plain.conf" "$dev" ""
	"$KBENCH" run ${2:-} -c "$tmp/plain.conf" -o "$tmp/$1" >/dev/null 2>"$tmp/$1.err"
	rc=$?
}

# a read-only tunable: refused with its line, and no record of it left
# behind (one failed every later campaign on the machine: a break-it
# trial)
mp=/sys/module/loop/parameters/max_part
mprec="$KBENCH_RUN_DIR/tunables/$(echo "$mp" | tr / '!')"
if [ -e $mp ] && [ "$(stat -c %a $mp)" = 444 ]; then
	conf "$tmp/ro.conf" "$dev" "tunable X = $mp: $(cat $mp)"
	"$KBENCH" run -q -c "$tmp/ro.conf" -o "$tmp/cro" >/dev/null 2>"$tmp/ro.err"
	rcro=$?
	plain cplain -q
	check "a read-only tunable: exit 1 (got $rcro) with its line, no record of it left, the next campaign runs (got $rc)" \
		"[ $rcro -eq 1 ] && grep -q 'ro.conf:8: tunable X: .*read-only' $tmp/ro.err && [ ! -e '$mprec' ] && [ $rc -eq 0 ]"
	# a dead kbench's record of a tunable that cannot be written back:
	# a campaign that does not touch it runs, warned; the record kept
	printf '{"campaign": "/nonexistent", "original": "99", "path": "%s", "pid": 999999, "pid_start": 1}' "$mp" >"$mprec"
	plain cplain2 -q
	check "... a dead kbench's record it cannot write back: the campaign runs (got $rc), said, the record kept" \
		"[ $rc -eq 0 ] && grep -q 'left $mp changed; restoring' $tmp/cplain2.err && grep -q 'could not be restored (above); its record in .* is kept: this campaign measures with it changed' $tmp/cplain2.err && [ -e '$mprec' ]"
	rm -f "$mprec"
fi

# a dead kbench's record of a device gone since (its loop device, the
# name attached again by the user: another diskseq): not written to the
# device that has the name now (a break-it trial), the record removed
nmp=$(readlink -f /sys/block/$bdev/queue/nomerges)
nmrec="$KBENCH_RUN_DIR/tunables/$(echo "$nmp" | tr / '!')"
if [ -r /sys/block/$bdev/diskseq ]; then
	echo 1 >/sys/block/$bdev/queue/nomerges
	printf '{"campaign": "/nonexistent", "original": "0", "path": "%s", "diskseq": "%s", "pid": 999999, "pid_start": 1}' \
		"$nmp" "$(( $(cat /sys/block/$bdev/diskseq) - 1 ))" >"$nmrec"
	plain cgone
	check "a dead kbench's record of a device gone since: the device now with its name keeps its value (got $rc), said, the record removed" \
		"[ $rc -eq 0 ] && [ \$(cat /sys/block/$bdev/queue/nomerges) = 1 ] && grep -q 'cannot restore $nmp = 0: its device is gone, another device has its name now' $tmp/cgone.err && [ ! -e '$nmrec' ]"
	echo 0 >/sys/block/$bdev/queue/nomerges
fi

# vm/dirty_bytes: writing it sets vm/dirty_ratio to 0, and its own 0
# cannot be written back: restored by writing dirty_ratio's value, at
# the campaign's end and after a kill -9 (a break-it trial: dirty_ratio
# stayed 0, and the record failed every later campaign)
db0=$(cat /proc/sys/vm/dirty_bytes) dr0=$(cat /proc/sys/vm/dirty_ratio)
if [ "$db0" = 0 ]; then
	conf "$tmp/db.conf" "$dev" "tunable DB = /proc/sys/vm/dirty_bytes: 200000000 400000000"
	"$KBENCH" run -q -c "$tmp/db.conf" -o "$tmp/cdb" >/dev/null 2>"$tmp/db.err"
	rc=$?
	check "tunable vm/dirty_bytes: the campaign runs (got $rc), dirty_bytes 0 and dirty_ratio $dr0 again" \
		"[ $rc -eq 0 ] && [ \$(cat /proc/sys/vm/dirty_bytes) = 0 ] && [ \$(cat /proc/sys/vm/dirty_ratio) = $dr0 ]"
	sed -i 's/^iterations = 1$/iterations = 20/' "$tmp/db.conf"
	"$KBENCH" run -q -c "$tmp/db.conf" -o "$tmp/cdb9" >/dev/null 2>&1 &
	pid=$!
	# set for a run, not for the value check before the runs (written
	# and put back within milliseconds): set twice, 0.3 s apart
	for _ in $(seq 1 200); do
		[ "$(cat /proc/sys/vm/dirty_bytes)" != 0 ] && sleep 0.3 &&
			[ "$(cat /proc/sys/vm/dirty_bytes)" != 0 ] && break
		sleep 0.1
	done
	# a second campaign, on another target, changing the same
	# machine-wide setting: refused, worded for a sysctl (it said
	# 'two campaigns on one device': a break-it trial's note)
	conf "$tmp/db2.conf" loop:32M "tunable DB = /proc/sys/vm/dirty_bytes: 300000000"
	"$KBENCH" run -q -c "$tmp/db2.conf" -o "$tmp/cdb2" >/dev/null 2>"$tmp/db2.err"
	rc=$?
	check "... a second campaign changing vm/dirty_bytes meanwhile: exit 1 (got $rc), the setting named as machine-wide" \
		"[ $rc -eq 1 ] && grep -q '/proc/sys/vm/dirty_bytes is being changed by another kbench (pid $pid, campaign .*): two campaigns changing one machine-wide setting measure each other' $tmp/db2.err"
	kill -9 $pid; wait $pid 2>/dev/null
	dbk=$(cat /proc/sys/vm/dirty_ratio)
	plain cdbp	# not -q: the "restored" line
	check "... killed with -9 (dirty_ratio $dbk then): the next campaign restores dirty_ratio $dr0 (got $rc)" \
		"[ $rc -eq 0 ] && [ $dbk = 0 ] && [ \$(cat /proc/sys/vm/dirty_bytes) = 0 ] && [ \$(cat /proc/sys/vm/dirty_ratio) = $dr0 ] && grep -q 'restored /proc/sys/vm/dirty_ratio = $dr0 (/proc/sys/vm/dirty_bytes = 0 with it)' $tmp/cdbp.err"
	echo "$dr0" >/proc/sys/vm/dirty_ratio
fi

# a KBENCH_RUN_DIR to be made in a directory others can write (not
# sticky): refused before anything is made, there or in -o (a helper's
# trial found targets/, tunables/, tool-versions.json and the campaign
# left behind)
mkdir -p "$tmp/ww" && chmod 777 "$tmp/ww"
KBENCH_RUN_DIR="$tmp/ww/run" "$KBENCH" run -q -c "$tmp/norec.conf" -o "$tmp/cww" >/dev/null 2>"$tmp/ww.err"
rc=$?
check "KBENCH_RUN_DIR under a directory writable by all: exit 1 (got $rc), named, nothing made there nor in -o" \
	"[ $rc -eq 1 ] && grep -q \"KBENCH_RUN_DIR $tmp/ww/run: $tmp/ww: writable by all\" $tmp/ww.err && [ ! -e $tmp/ww/run ] && [ ! -e $tmp/cww ] && [ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ]"
# a relative KBENCH_RUN_DIR (judged from "/", made in that directory)
# and one that is a file: refused the same way
(cd "$tmp/ww" && KBENCH_RUN_DIR=relrun "$KBENCH" run -q -c "$tmp/norec.conf" -o "$tmp/cww" >/dev/null 2>"$tmp/ww2.err")
rc=$?
: >"$tmp/rdfile"
KBENCH_RUN_DIR="$tmp/rdfile" "$KBENCH" run -q -c "$tmp/norec.conf" -o "$tmp/cww" >/dev/null 2>"$tmp/ww3.err"
rc2=$?
check "KBENCH_RUN_DIR relative, or a file: exit 1 (got $rc, $rc2), said, nothing made" \
	"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q 'KBENCH_RUN_DIR relrun: expected an absolute path' $tmp/ww2.err && grep -q \"KBENCH_RUN_DIR $tmp/rdfile: not a directory\" $tmp/ww3.err && [ ! -e $tmp/ww/relrun ] && [ ! -e $tmp/cww ]"

# a value the kernel does not take (nomerges has 0-2): one error, with
# the conf's line and what the file read back, nothing run, restored
echo 0 >/sys/block/$bdev/queue/nomerges
conf "$tmp/bad7.conf" "$dev" "tunable NM = queue/nomerges: 1 7"
"$KBENCH" run -q -c "$tmp/bad7.conf" -o "$tmp/cbad7" >/dev/null 2>"$tmp/bad7.err"
rc=$?
check "a value the kernel refuses (nomerges 7): exit 1 (got $rc), one error line, FILE:LINE and what it read back" \
	"[ $rc -eq 1 ] && [ \$(grep -c 'error' $tmp/bad7.err) -eq 1 ] && grep -q \"bad7.conf:8: tunable NM: value '7' is not accepted by /sys/devices/.*/$bdev/queue/nomerges on this kernel and device (it reads back '1'); remove it from the list (nothing was run)\" $tmp/bad7.err"
check "... nomerges restored (0), nothing run" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ] && [ ! -e $tmp/cbad7/runs/*/randread-4k/000/fio.json ]"

# the reader of kbench's output gone (`kbench run | head`): SIGPIPE
# stops the campaign like Ctrl-C, the tunables restored, not a kill
echo 0 >/sys/block/$bdev/queue/nomerges
conf "$tmp/pipe.conf" "$dev" "tunable NM = queue/nomerges: 1 2"
sed -i 's/^iterations = 1$/iterations = 3/' "$tmp/pipe.conf"
"$KBENCH" run -c "$tmp/pipe.conf" -o "$tmp/cpipe" 2>&1 | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
check "kbench run | head -n 1: stopped as interrupted, exit 130 (got $rc)" "[ $rc -eq 130 ]"
check "... its tunable restored (nomerges 0), nothing left to restore" \
	"[ \"\$(cat /sys/block/$bdev/queue/nomerges)\" = 0 ] && [ ! -e $tmp/cpipe/tunables.saved.json ]"

# Ctrl-C while a loop target's file is filled (before any run): kbench
# stops within a chunk, not after the whole file (a break-it trial: 7 s
# for 2 GiB), exit 130, no loop device left on the file
conf "$tmp/fill.conf" loop:4G ""
"$KBENCH" run -c "$tmp/fill.conf" -o "$tmp/cfill" >"$tmp/fill.log" 2>&1 &
pid=$!
for _ in $(seq 1 400); do
	[ "$(du -k "$tmp/cfill/target.img" 2>/dev/null | cut -f1)" -gt 65536 ] 2>/dev/null && break
	sleep 0.02
done
filled0=$(du -k "$tmp/cfill/target.img" 2>/dev/null | cut -f1)
t0=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "Ctrl-C during the loop target's fill (${filled0:-0} KiB of 4 GiB written): exit 130 (got $rc) in ${ms} ms, said, no loop device on the file, no run" \
	"[ $rc -eq 130 ] && [ $ms -lt 3000 ] && grep -q 'while the target was made ready, before any run' $tmp/fill.log && [ -z \"\$(losetup -j $tmp/cfill/target.img)\" ] && [ ! -e $tmp/cfill/runs/running/randread-4k/000/metrics.json ]"
rm -rf "$tmp/cfill"

# Ctrl-Z (SIGTSTP) during a run: kbench stops, fio (its own process
# group) goes on; the run's snapshots, taken when kbench goes on, cover
# more than the run: its CPU, task, PSI, disk and rusage metrics n/a
# with the reason, the run flagged (a break-it trial: idle 89.6% for
# about 40, nothing said), fio's IOPS kept
conf "$tmp/tstp.conf" "$dev" "" "retry_disturbed = 0"
sed -i 's/^iterations = 1$/iterations = 2/; s/^runtime = 1$/runtime = 3/' "$tmp/tstp.conf"
"$KBENCH" run -c "$tmp/tstp.conf" -o "$tmp/ctstp" >"$tmp/tstp.log" 2>&1 &
pid=$!
# the second run's fio started: kbench took its snapshots before (on a
# busy machine the cache drop before them takes seconds)
for _ in $(seq 1 300); do
	pgrep -f "$tmp/ctstp/runs/running/randread-4k/001/fio.json" >/dev/null && break
	sleep 0.05
done
sleep 0.5
# SIGSTOP, as Ctrl-Z's SIGTSTP is dropped for a process group without
# a terminal's parent (orphaned: CI), as a default action
kill -STOP $pid; sleep 4; kill -CONT $pid
wait $pid
rc=$?
r2="$tmp/ctstp/runs/running/randread-4k/001/metrics.json"
check "Ctrl-Z during a run: the campaign completes (got $rc), that run's CPU and rusage metrics n/a with the reason, the run flagged, its IOPS kept, the run before untouched" \
	"[ $rc -eq 0 ] && jq -e '(.metrics[\"cpu.idle_pct\"] == null) and (.metrics[\"rusage.elapsed_s\"] == null) and (.unavailable[\"cpu.idle_pct\"] | test(\"kbench was stopped\")) and (.flags | any(test(\"kbench was stopped\"))) and (.metrics[\"read.iops\"] > 0)' $r2 >/dev/null && jq -e '.metrics[\"cpu.idle_pct\"] != null and (.flags | any(test(\"kbench was stopped\")) | not)' $tmp/ctstp/runs/running/randread-4k/000/metrics.json >/dev/null"

# a job file that names its own file: kbench's target checks miss it,
# said before the campaign
mkdir -p "$tmp/ownprof"
printf '[global]\nioengine=psync\nruntime=${KBENCH_RUNTIME}\ntime_based=1\n[own]\nfilename=%s/own.img\nsize=1M\nrw=read\n' "$tmp" >"$tmp/ownprof/own.fio"
printf '[global]\njobs = own\niterations = 1\nwarmup = 0\nruntime = 1\ntarget = loop:16M\nprofiles = %s\n[running]\nmethod = local\n' "$tmp/ownprof" >"$tmp/own.conf"
"$KBENCH" run --dry-run -c "$tmp/own.conf" -o "$tmp/cown" >/dev/null 2>"$tmp/own.err"
check "a read job file that reads its own filename=: said, FILE:LINE, the job file's line" \
	"grep -q \"own.conf:2: job 'own' (.*own.fio) reads where its line 6: filename=$tmp/own.img says, not only \\\${KBENCH_TARGET}\" $tmp/own.err"

# a write job whose own filename= names another file (a break-it trial:
# filename=/dev/loop0 with allow_mounted_write=1 destroyed a mounted
# ext4): refused by run and plan, the file unchanged; a job that runs a
# command or switches the scheduler: refused, the command not run
head -c 1048576 /dev/urandom >"$tmp/own.img"
osum=$(md5sum <"$tmp/own.img")
printf '[global]\nioengine=psync\nruntime=${KBENCH_RUNTIME}\ntime_based=1\nallow_mounted_write=1\n[own]\nfilename=%s/own.img\nsize=1M\nrw=randwrite\n' "$tmp" >"$tmp/ownprof/own.fio"
"$KBENCH" run -q -c "$tmp/own.conf" -o "$tmp/cownw" >/dev/null 2>"$tmp/ownw.err"
rc=$?
"$KBENCH" plan -c "$tmp/own.conf" >/dev/null 2>"$tmp/ownw-plan.err"
rc2=$?
check "a write job on its own filename=: run and plan exit 1 ($rc, $rc2), FILE:LINE, both lines, the file unchanged" \
	"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q \"own.conf:2: job 'own' (.*own.fio) may write (line 9: rw=randwrite) and does its I/O where line 7: filename=$tmp/own.img says, which kbench did not check\" $tmp/ownw.err && grep -q 'which kbench did not check' $tmp/ownw-plan.err && [ \"\$(md5sum <$tmp/own.img)\" = \"$osum\" ]"
printf '[global]\nfilename=${KBENCH_TARGET}\nioengine=psync\nruntime=${KBENCH_RUNTIME}\ntime_based=1\nexec_prerun=touch %s/pwned\n[own]\nrw=read\n' "$tmp" >"$tmp/ownprof/own.fio"
"$KBENCH" run -q -c "$tmp/own.conf" -o "$tmp/cownx" >/dev/null 2>"$tmp/ownx.err"
rc=$?
printf '[global]\nfilename=${KBENCH_TARGET}\nioengine=psync\nruntime=${KBENCH_RUNTIME}\ntime_based=1\nioscheduler=none\n[own]\nrw=read\n' >"$tmp/ownprof/own.fio"
"$KBENCH" run -q -c "$tmp/own.conf" -o "$tmp/cowns" >/dev/null 2>"$tmp/owns.err"
rc2=$?
check "exec_prerun= and ioscheduler= in a job file: run exits 1 ($rc, $rc2), nothing run, each said with its line" \
	"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && [ ! -e $tmp/pwned ] && grep -q 'line 6: exec_prerun=touch $tmp/pwned (runs a shell command): refused, as fio would do that as root' $tmp/ownx.err && grep -q 'line 6: ioscheduler=none (switches the device.s I/O scheduler and does not switch it back).*tunable SCHED = queue/scheduler' $tmp/owns.err"

# verify= (fio's verify_state_save is on by default): fio saves its
# verify state as local-JOB-N-verify.state in its aux path, the run's
# directory, not kbench's working directory, where a link of that name
# made fio (root) overwrite the link's target (a break-it trial)
printf '[global]\nfilename=${KBENCH_TARGET}\nioengine=psync\nruntime=${KBENCH_RUNTIME}\ntime_based=1\nsize=1m\n[own]\nrw=randwrite\nverify=crc32c\n' >"$tmp/ownprof/own.fio"
mkdir -p "$tmp/vcwd"
echo ORIGINAL >"$tmp/precious"
ln -s "$tmp/precious" "$tmp/vcwd/local-own-0-verify.state"
(cd "$tmp/vcwd" && "$KBENCH" run -q -c "$tmp/own.conf" -o "$tmp/cver" >/dev/null 2>"$tmp/ver.err")
rc=$?
check "verify= in a job file: fio's verify state in the run's directory (rc $rc), a link of its name in the working directory not followed" \
	"[ $rc -eq 0 ] && [ \"\$(cat $tmp/precious)\" = ORIGINAL ] && [ -L $tmp/vcwd/local-own-0-verify.state ] && [ \$(ls $tmp/vcwd | wc -l) = 1 ] && ls $tmp/cver/runs/*/own/000/local-own-0-verify.state >/dev/null"

# a read job on the user's file that fio would extend (offset= past its
# size: fio lays the file out again): fio runs with --readonly, which
# refuses that, and the file keeps its data
printf '[global]\nfilename=${KBENCH_TARGET}\nioengine=psync\nruntime=${KBENCH_RUNTIME}\ntime_based=1\n[own]\nsize=1m\noffset=4k\nrw=read\n' >"$tmp/ownprof/own.fio"
head -c 100000 /dev/urandom >"$tmp/small.img"
ssum=$(md5sum <"$tmp/small.img")
sed "s|^target = .*|target = file:$tmp/small.img|" "$tmp/own.conf" >"$tmp/small.conf"
"$KBENCH" run -q -c "$tmp/small.conf" -o "$tmp/csmall" >/dev/null 2>"$tmp/small.err"
rc=$?
check "a read job that fio would extend the user's file for: the file unchanged (rc $rc), fio refused the extension (--readonly)" \
	"[ \"\$(md5sum <$tmp/small.img)\" = \"$ssum\" ] && cat $tmp/csmall/runs/*/own/000/fio.stderr | grep -q 'read-only'"

# the job file snapshot edited while the campaign runs: the next run is
# checked again, refused, and the command never runs
printf '[global]\nfilename=${KBENCH_TARGET}\nioengine=psync\nruntime=${KBENCH_RUNTIME}\ntime_based=1\n[own]\nsize=1m\nrw=read\n' >"$tmp/ownprof/own.fio"
sed -e 's|^iterations = 1$|iterations = 3|' "$tmp/own.conf" >"$tmp/mid.conf"
"$KBENCH" run -q -c "$tmp/mid.conf" -o "$tmp/cmid" >/dev/null 2>"$tmp/mid.err" &
pid=$!
for _ in $(seq 1 100); do
	[ -d "$tmp/cmid/runs" ] && break
	sleep 0.1
done
printf 'exec_prerun=touch %s/pwned-mid\n' "$tmp" >>"$tmp/cmid/profiles/own.fio"
wait $pid
rc=$?
check "a snapshot edited mid-campaign: exit non-zero ($rc), the run refused naming the line, the command not run" \
	"[ $rc -ne 0 ] && [ ! -e $tmp/pwned-mid ] && grep -q 'exec_prerun=touch $tmp/pwned-mid (runs a shell command): refused, fio not started' $tmp/mid.err"
"$KBENCH" plan -o "$tmp/cmid" >/dev/null 2>"$tmp/midplan.err"
rc=$?
check "... kbench plan -o DIR of that campaign: exit 1 ($rc), the edited snapshot file named" \
	"[ $rc -eq 1 ] && grep -q '$tmp/cmid/profiles/own.fio: changed since the campaign began' $tmp/midplan.err"
# the same campaign as an older kbench made it (no "snapshot" in its
# campaign.json): the job file's line is what refuses it
jq 'del(.snapshot)' "$tmp/cmid/campaign.json" >"$tmp/cmid.cj" && mv "$tmp/cmid.cj" "$tmp/cmid/campaign.json"
"$KBENCH" plan -o "$tmp/cmid" >/dev/null 2>"$tmp/midplan2.err"
rc=$?
check "... without its snapshot record: exit 1 ($rc), the snapshot's line named" \
	"[ $rc -eq 1 ] && grep -q 'exec_prerun=touch $tmp/pwned-mid (runs a shell command): refused, as fio would do that as root' $tmp/midplan2.err"

# a device of size 0 (a loop device with no file attached): refused by
# plan and run before any run, not a failure per run
free_loop=$(losetup -f 2>/dev/null)
if [ -n "$free_loop" ] && [ -b "$free_loop" ]; then
	conf "$tmp/zero.conf" "$free_loop" ""
	"$KBENCH" plan -c "$tmp/zero.conf" >/dev/null 2>"$tmp/zero-plan.err"
	rc=$?
	"$KBENCH" run -q -c "$tmp/zero.conf" -o "$tmp/czero" >/dev/null 2>"$tmp/zero.err"
	rc2=$?
	check "target = an empty loop device: plan and run exit 1 ($rc, $rc2), its size named, no run" \
		"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q 'zero.conf:6: target $free_loop has no space (size 0 in /sys/dev/block/.*/size' $tmp/zero-plan.err && grep -q 'has no space' $tmp/zero.err && [ ! -e $tmp/czero/runs/running ]"
fi

# target = file: naming a block device: said what to write instead
conf "$tmp/fdev.conf" "file:$dev" ""
"$KBENCH" run -q -c "$tmp/fdev.conf" -o "$tmp/cfdev" >/dev/null 2>"$tmp/fdev.err"
rc=$?
check "target = file:$dev: exit 1 (got $rc), a block device, use target = /dev/NAME" \
	"[ $rc -eq 1 ] && grep -q 'target = file:$dev: $dev is a block device, not a file; a device is target = /dev/NAME' $tmp/fdev.err"

# target = file: naming a file of the user's, with a write job: refused
# before fio runs (fio would overwrite it as root), the file unchanged;
# a read job may use it; a file kbench made (marked) takes writes later
head -c 4194304 /dev/urandom >"$tmp/user.img"
sum0=$(md5sum <"$tmp/user.img")
conf "$tmp/fuser.conf" "file:$tmp/user.img" ""
sed -i 's/^jobs = randread-4k$/jobs = seqwrite-1m-direct/' "$tmp/fuser.conf"
"$KBENCH" run -q -c "$tmp/fuser.conf" -o "$tmp/cfuser" >/dev/null 2>"$tmp/fuser.err"
rc=$?
"$KBENCH" plan -c "$tmp/fuser.conf" >/dev/null 2>"$tmp/fuser-plan.err"
rc2=$?
conf "$tmp/fuserr.conf" "file:$tmp/user.img" ""
"$KBENCH" run -q -c "$tmp/fuserr.conf" -o "$tmp/cfuserr" >/dev/null 2>"$tmp/fuserr.err"
rc3=$?
check "a write job on file: naming the user's file: run and plan exit 1 ($rc, $rc2), FILE:LINE, the job's line, the file unchanged; a read job runs ($rc3)" \
	"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q 'fuser.conf:6: target = file:$tmp/user.img exists (4194304 bytes) and kbench did not create it' $tmp/fuser.err && grep -q 'job seqwrite-1m-direct may write to it: .*seqwrite-1m-direct.fio, line [0-9]*: rw=write' $tmp/fuser.err && grep -q 'kbench did not create it' $tmp/fuser-plan.err && [ \"\$(md5sum <$tmp/user.img)\" = \"$sum0\" ] && [ $rc3 -eq 0 ]"
conf "$tmp/fmade.conf" "file:$tmp/made.img" ""
sed -i 's/^jobs = randread-4k$/jobs = seqwrite-1m-direct/' "$tmp/fmade.conf"
"$KBENCH" run -q -c "$tmp/fmade.conf" -o "$tmp/cfmade" >/dev/null 2>"$tmp/fmade.err"
rc=$?
"$KBENCH" run -q -c "$tmp/fmade.conf" -o "$tmp/cfmade2" >/dev/null 2>"$tmp/fmade2.err"
rc2=$?
check "a file: target kbench created takes a write job, then another campaign's ($rc, $rc2)" \
	"[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ -s $tmp/made.img ]"

# target = a device that is not there, or not a block device: the
# conf's line and what target = expects
conf "$tmp/nodev.conf" "/dev/kbench-no-such-dev" ""
"$KBENCH" run -q -c "$tmp/nodev.conf" -o "$tmp/cnodev" >/dev/null 2>"$tmp/nodev.err"
rc=$?
conf "$tmp/chr.conf" "/dev/null" ""
"$KBENCH" run -q -c "$tmp/chr.conf" -o "$tmp/cchr" >/dev/null 2>"$tmp/chr.err"
rc2=$?
check "target = a missing device / a character device: exit 1 ($rc, $rc2), FILE:LINE, what it is, what target = expects" \
	"[ $rc -eq 1 ] && [ $rc2 -eq 1 ] && grep -q 'nodev.conf:6: target /dev/kbench-no-such-dev: No such file or directory (expected a block device' $tmp/nodev.err && grep -q 'chr.conf:6: target /dev/null is not a block device (a character device); expected a block device' $tmp/chr.err && ! grep -q 'use file:' $tmp/chr.err"

# kbench plan finds the same before anything runs: a missing device, a
# file: target whose directory is missing (nothing made), a device in
# use; a loop: target is made by kbench run, so plan passes it
"$KBENCH" plan -c "$tmp/nodev.conf" >/dev/null 2>"$tmp/plan-nodev.err"
rc=$?
conf "$tmp/nodir.conf" "file:$tmp/no-such-dir/t" ""
"$KBENCH" plan -c "$tmp/nodir.conf" >/dev/null 2>"$tmp/plan-nodir.err"
rc2=$?
root_dev=$(findmnt -no SOURCE / 2>/dev/null)
rc3=skip
if [ -b "$root_dev" ]; then
	conf "$tmp/busy.conf" "$root_dev" ""
	"$KBENCH" plan -c "$tmp/busy.conf" >/dev/null 2>"$tmp/plan-busy.err"
	rc3=$?
fi
conf "$tmp/okplan.conf" loop:32M ""
"$KBENCH" plan -c "$tmp/okplan.conf" >/dev/null 2>"$tmp/plan-ok.err"
rc4=$?
check "kbench plan checks the target: missing device exit 1 ($rc), file: in a missing directory exit 1 ($rc2, nothing made), the root device ($root_dev) in use ($rc3), loop: passes ($rc4)" \
	"[ $rc -eq 1 ] && grep -q 'nodev.conf:6: target /dev/kbench-no-such-dev: No such file or directory' $tmp/plan-nodev.err && [ $rc2 -eq 1 ] && grep -q 'target = file:$tmp/no-such-dir/t: its directory $tmp/no-such-dir does not exist' $tmp/plan-nodir.err && [ ! -e $tmp/no-such-dir ] && { [ $rc3 = skip ] || { [ $rc3 -eq 1 ] && grep -q 'is in use' $tmp/plan-busy.err; }; } && [ $rc4 -eq 0 ]"

# --- 3. stale temporary files of a killed kbench ---
sh -c 'exit 0' & dead=$!
wait $dead
ln -s "$victim" "$tmp/c2/state.json.tmp.$dead"
echo half >"$tmp/c2/results.json.tmp.$dead"
mkdir -p "$KBENCH_RUN_DIR/tunables"
echo half >"$KBENCH_RUN_DIR/tunables/!sys!x.tmp.$dead"
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3.err"
rc=$?
check "stale *.tmp.$dead removed from the campaign and the run dir (got $rc)" \
	"[ $rc -eq 0 ] && [ ! -e $tmp/c2/state.json.tmp.$dead ] && [ ! -L $tmp/c2/state.json.tmp.$dead ] && [ ! -e $tmp/c2/results.json.tmp.$dead ] && [ ! -e '$KBENCH_RUN_DIR/tunables/!sys!x.tmp.$dead' ]"
check "... the symlink removed, not followed (victim unchanged)" "unchanged"

# --- 3b. a campaign directory others can change is not resumed as root ---
unset SUDO_UID KBENCH_TRUST_UID	# a run through sudo would trust that user
job=$(ls "$tmp/c2/profiles/"*.fio | head -1)
chmod o+w "$job"
cp "$tmp/c2/state.json" "$tmp/state.before"
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3b.err"
rc=$?
check "a job file in the campaign writable by all: not resumed, exit 1 (got $rc), the file named" \
	"[ $rc -eq 1 ] && grep -q 'c2: not resumed: .*$job: writable by all (mode 0646)' $tmp/3b.err && cmp -s $tmp/c2/state.json $tmp/state.before"
chmod o-w "$job"
chown 4321 "$tmp/c2/kernels.conf"
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3c.err"
rc=$?
check "its kernels.conf owned by another user: not resumed (got $rc)" \
	"[ $rc -eq 1 ] && grep -q 'kernels.conf: owned by uid 4321 (trusted: root)' $tmp/3c.err"
SUDO_UID=4321 "$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3d.err"
rc=$?
check "... resumed when root came from that user through sudo (got $rc)" "[ $rc -eq 0 ]"
chown 0 "$tmp/c2/kernels.conf"
mkdir -m 0777 "$tmp/pub"
"$KBENCH" run -q -c "$tmp/ok.conf" -o "$tmp/pub/c" >/dev/null 2>"$tmp/3e.err"
rc=$?
check "a new campaign under a directory writable by all: not started (got $rc), nothing made there" \
	"[ $rc -eq 1 ] && grep -q 'pub/c: not started: it would be made in $tmp/pub, and $tmp/pub: writable by all (mode 0777)' $tmp/3e.err && [ -z \"\$(ls -A $tmp/pub)\" ]"
# a job file the campaign links to a file that does not exist yet: what
# appears there later would run as root
ln -sf "$tmp/pub/later.fio" "$job"
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3f.err"
rc=$?
check "a job file linking to nothing: not resumed (got $rc), the link named" \
	"[ $rc -eq 1 ] && grep -qF '$job: a link to nothing ($tmp/pub/later.fio)' $tmp/3f.err"
rm -f "$job"
cp "$repo/profiles/$(basename "$job")" "$job"
# runs/: a run directory another user owns (they could swap the job
# file fio is about to read as root), or a link to elsewhere (the run's
# files written there): not resumed, nothing written through it
rd=$(find "$tmp/c2/runs" -mindepth 2 -maxdepth 2 -type d | sort | head -1)
cp "$tmp/c2/state.json" "$tmp/state.before"
chown 4321 "$rd"
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3i.err"
rc=$?
check "a directory under runs/ owned by another user: not resumed (got $rc), named" \
	"[ $rc -eq 1 ] && grep -qF '$rd: owned by uid 4321 (trusted: root)' $tmp/3i.err && cmp -s $tmp/c2/state.json $tmp/state.before"
chown 0 "$rd"
mv "$rd" "$tmp/pub/moved"
ln -s "$tmp/pub/moved" "$rd"
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3j.err"
rc=$?
check "a run directory replaced by a link: not resumed (got $rc), the link named, nothing written where it points" \
	"[ $rc -eq 1 ] && grep -qF '$rd: a symbolic link (to $tmp/pub/moved)' $tmp/3j.err && [ -z \"\$(find $tmp/pub/moved -newer $tmp/3j.err)\" ]"
rm "$rd"
mv "$tmp/pub/moved" "$rd"
"$KBENCH" run -q -o "$tmp/c2" >/dev/null 2>"$tmp/3k.err"
rc=$?
check "... resumed once runs/ is root's again (got $rc)" "[ $rc -eq 0 ]"
# a -c conf and a job file another user can change are not copied in
mkdir "$tmp/bob"
cp "$tmp/ok.conf" "$tmp/bob/k.conf"
chown -R 4321 "$tmp/bob"
"$KBENCH" run -q -c "$tmp/bob/k.conf" -o "$tmp/cbob" >/dev/null 2>"$tmp/3g.err"
rc=$?
check "-c a conf another user owns: not started (got $rc), no directory left" \
	"[ $rc -eq 1 ] && grep -q 'bob/k.conf: not started: the campaign would run it as root, and $tmp/bob: owned by uid 4321' $tmp/3g.err && [ ! -e $tmp/cbob ]"
# .lock planted as a link in an empty directory of root's: not followed
mkdir "$tmp/lk"
ln -s "$tmp/pub/made-by-lock" "$tmp/lk/.lock"
"$KBENCH" run -q -c "$tmp/ok.conf" -o "$tmp/lk" >/dev/null 2>"$tmp/3h.err"
rc=$?
check ".lock planted as a link: refused (got $rc), nothing made where it points" \
	"[ $rc -eq 1 ] && [ ! -e $tmp/pub/made-by-lock ]"

# --- 4. option-like values never reach modprobe or apt-get ---
mkdir -p "$tmp/bin"
for p in modprobe apt-get apt-cache; do
	printf '#!/bin/sh\necho "%s $*" >>%s/argv.log\nexit 1\n' "$p" "$tmp" >"$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
done
conf "$tmp/nb.conf" "null_blk: -r --first-time" ""
line=$(grep -n '^target' "$tmp/nb.conf" | cut -d: -f1)
PATH="$tmp/bin:$PATH" "$KBENCH" run -q -c "$tmp/nb.conf" -o "$tmp/c4" >/dev/null 2>"$tmp/4a.err"
rc=$?
check "target = null_blk: -r --first-time: exit 1 (got $rc), FILE:LINE" \
	"[ $rc -eq 1 ] && grep -q \"nb.conf:$line: target = 'null_blk: -r --first-time': '-r' is not a module parameter NAME=VALUE\" $tmp/4a.err"
{
	printf '[global]\njobs = randread-4k\nruntime = 1\ntarget = loop:32M\nprofiles = %s\n' "$repo/profiles"
	printf '[new]\nmethod = vm\nkernel = deb:--allow-unauthenticated\n'
} >"$tmp/deb.conf"
PATH="$tmp/bin:$PATH" "$KBENCH" run -q -c "$tmp/deb.conf" -o "$tmp/c5" >/dev/null 2>"$tmp/4b.err"
rc=$?
check "kernel = deb:--allow-unauthenticated: exit 1 (got $rc), FILE:LINE" \
	"[ $rc -eq 1 ] && grep -q \"deb.conf:8: kernel = 'deb:--allow-unauthenticated'\" $tmp/4b.err"
check "... modprobe, apt-get and apt-cache never ran" "[ ! -e $tmp/argv.log ]"
# a sweep value with '/' named a run directory outside the campaign
{
	printf '[global]\njobs = randread-4k\nruntime = 1\ntarget = loop:32M\nprofiles = %s\n' "$repo/profiles"
	printf 'sweep numjobs = ../../../../../../../../..%s/escaped 1\n[running]\nmethod = local\n' "$tmp"
} >"$tmp/sw.conf"
"$KBENCH" run -q -c "$tmp/sw.conf" -o "$tmp/csweep/sub" >/dev/null 2>"$tmp/4c.err"
rc=$?
check "sweep value with '/': exit 1 (got $rc), FILE:LINE, no run anywhere" \
	"[ $rc -eq 1 ] && grep -q \"sw.conf:6: sweep numjobs: value '.*': '/' is not allowed\" $tmp/4c.err && [ ! -e $tmp/escaped ] && [ ! -e $tmp/csweep/sub/runs ]"

# --- 5. a mounted target ---
if command -v mkfs.ext4 >/dev/null && truncate -s 32M "$tmp/m.img" &&
   mkfs.ext4 -q "$tmp/m.img" && mdev=$(losetup -f --show "$tmp/m.img") &&
   mnt="$tmp/mnt point" && mkdir -p "$mnt" && mount "$mdev" "$mnt"; then
	mb=$(basename "$mdev")
	echo 0 >/sys/block/$mb/queue/nomerges
	mkdir -p "$tmp/prof"
	sed 's/^\[global\]$/[global]\nallow_mounted_write=1/' \
		"$repo/profiles/randread-4k.fio" >"$tmp/prof/randread-4k.fio"
	conf "$tmp/m.conf" "$mdev" "tunable NM = queue/nomerges: 2"
	sed -i "s|^profiles = .*|profiles = $tmp/prof|" "$tmp/m.conf"
	"$KBENCH" run -q -c "$tmp/m.conf" -o "$tmp/c6" >/dev/null 2>"$tmp/5.err"
	rc=$?
	check "a mounted target is refused (exit $rc), naming the mount" \
		"[ $rc -eq 1 ] && grep -q \"target $mdev is in use: $mdev is mounted on $mnt (ext4)\" $tmp/5.err"
	check "... allow_mounted_write=1 in the job file does not bypass it" \
		"grep -q 'allow_mounted_write=1' $tmp/prof/randread-4k.fio && grep -q 'allow_mounted_write=1 does not change that' $tmp/5.err"
	check "... before any tunable is touched (nomerges 0, nothing saved, no run)" \
		"[ \"\$(cat /sys/block/$mb/queue/nomerges)\" = 0 ] && [ ! -e $tmp/c6/tunables.saved.json ] && [ ! -e $tmp/c6/runs ]"
	umount "$mnt" && mnt=
	losetup -d "$mdev" && mdev=
else
	skipped "mounted target: cannot make and mount an ext4 loop device here"
fi

# --- 6. a fake fio whose job process ignores SIGTERM and SIGHUP ---
mkdir -p "$tmp/fake"
cat >"$tmp/fake/fio" <<'FIO'
#!/bin/sh
case "$1" in --version) echo fio-3.33; exit 0 ;; esac
# how many job processes of an earlier run are still there?
ps -eo stat=,args= | grep -v '^Z' | grep -c "[k]btest-job-$FAKE_TAG" >>"$FAKE_DIR/before"
sh -c 'trap "" TERM HUP; sleep 300; :' "kbtest-job-$FAKE_TAG" &
echo "fio: fake: first line" >&2
echo "fio: fake: job stuck in uninterruptible wait" >&2
if [ "$FAKE_MODE" = exit ]; then sleep 0.5; exit 0; fi
sleep 300
FIO
chmod +x "$tmp/fake/fio"
# this test's job processes only (tagged with its PID): another run of
# this test on the machine has its own
left() { ps -eo stat=,args= | grep -v '^Z' | grep -c "[k]btest-job-$FAKE_TAG"; }
conf "$tmp/f.conf" "$dev" "" "timeout_grace = 1"
sed -i 's/^iterations = 1/iterations = 2/' "$tmp/f.conf"
export FAKE_DIR="$tmp" FAKE_TAG=$$
: >"$tmp/before"
t0=$(date +%s)
PATH="$tmp/fake:$PATH" FAKE_MODE=hang "$KBENCH" run -q -c "$tmp/f.conf" -o "$tmp/c7" >/dev/null 2>"$tmp/6a.err"
rc=$?
t1=$(date +%s)
check "hung fake fio: both runs fail, exit 1 (got $rc, $((t1 - t0)) s)" "[ $rc -eq 1 ]"
check "... the second run started with no job process of the first left" \
	"[ \"\$(tr '\n' ' ' <$tmp/before)\" = '0 0 ' ]"
check "... no process of fio's group survives kbench" "[ \"\$(left)\" = 0 ]"
r=$(jq -r '.runs[0].reason' "$tmp/c7/results.json")
check "... the reason says the group was killed and carries fio's stderr ($r)" \
	"echo \"\$r\" | grep -q 'fio timed out: killed with its job processes' && echo \"\$r\" | grep -q 'fio stderr: fio: fake: first line | fio: fake: job stuck'"
: >"$tmp/before"
PATH="$tmp/fake:$PATH" FAKE_MODE=exit "$KBENCH" run -q -c "$tmp/f.conf" -o "$tmp/c8" >/dev/null 2>"$tmp/6b.err"
rc=$?
r=$(jq -r '.runs[0].reason' "$tmp/c8/results.json")
check "fake fio ends, its job does not: killed with the group, said so (got $rc: $r)" \
	"[ $rc -eq 1 ] && echo \"\$r\" | grep -q '[0-9] of fio.s job process(es) (stopped, hung, or left by a fio that died) were still running after fio ended and were killed (SIGTERM, then SIGKILL)'"
check "... none left before the second run, none after kbench" \
	"[ \"\$(tr '\n' ' ' <$tmp/before)\" = '0 0 ' ] && [ \"\$(left)\" = 0 ]"
# Ctrl-C (SIGINT to kbench): forwarded to the whole group
: >"$tmp/before"
PATH="$tmp/fake:$PATH" FAKE_MODE=hang "$KBENCH" run -q -c "$tmp/f.conf" -o "$tmp/c9" >/dev/null 2>"$tmp/6c.err" &
pid=$!
for _ in $(seq 1 50); do [ "$(left)" -ge 1 ] && break; sleep 0.1; done
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C during a hung fake fio: exit 130 (got $rc), nothing of fio survives" \
	"[ $rc -eq 130 ] && [ \"\$(left)\" = 0 ]"

# --- 7. what a campaign directory or a run directory says, and where
#     root writes (a break-it trial, 2026-12-04) ---
case $KBENCH in /*) kb=$KBENCH ;; *) kb=$repo/$KBENCH ;; esac
# a configuration id with a backquote: gnuplot runs `...` in a
# double-quoted string through /bin/sh
mkdir -p "$tmp/bq"
conf "$tmp/bq.conf" loop:32M "sweep iodepth = 1 \`>PWNED-bq\`" "retry_disturbed = 0"
(cd "$tmp/bq" && "$kb" run -q -c "$tmp/bq.conf" -o "$tmp/cbq" >/dev/null 2>"$tmp/7a.err")
(cd "$tmp/bq" && "$kb" report --plots "$tmp/bq/p" "$tmp/cbq" >/dev/null 2>>"$tmp/7a.err")
check "a backquote in a configuration id: no command run by gnuplot (run and report --plots), none in its scripts" \
	"[ ! -e $tmp/bq/PWNED-bq ] && ls $tmp/cbq/plots/*.gp $tmp/bq/p/*.gp >/dev/null && ! grep -q '\`' $tmp/cbq/plots/*.gp $tmp/bq/p/*.gp"
# a --plots directory another user owns, a link planted in it
echo orig >"$tmp/victim-svg"
mkdir "$tmp/plnobody"
ln -s "$tmp/victim-svg" "$tmp/plnobody/randread-4k-cdf.svg"
chown -h nobody "$tmp/plnobody" "$tmp/plnobody/randread-4k-cdf.svg"
# (from $tmp/bq as well: cbq's ids run `>PWNED-bq` where gnuplot runs)
(cd "$tmp/bq" && "$kb" report --plots "$tmp/plnobody" "$tmp/cbq" >/dev/null 2>"$tmp/7b.err")
rc=$?
check "report --plots into a directory another user owns: exit 2 (got $rc), named, nothing written through its link" \
	"[ $rc -eq 2 ] && grep -q 'plnobody: not drawn there: .*plnobody: owned by uid' $tmp/7b.err && [ \"\$(cat $tmp/victim-svg)\" = orig ] && [ ! -e $tmp/bq/PWNED-bq ]"
# a KBENCH_RUN_DIR others can write, a record planted in it
mkdir -p "$tmp/rdww/tunables"
chmod 777 "$tmp/rdww"
printf '{"campaign": "/nonexistent", "original": "4", "path": "/sys/devices/virtual/block/loop999/queue/read_ahead_kb", "pid": 999999, "pid_start": 1}' \
	>"$tmp/rdww/tunables/!sys!devices!virtual!block!loop999!queue!read_ahead_kb"
conf "$tmp/rdww.conf" loop:32M "tunable NM = queue/nomerges: 1"
KBENCH_RUN_DIR="$tmp/rdww" "$KBENCH" run -q -c "$tmp/rdww.conf" -o "$tmp/crdww" >/dev/null 2>"$tmp/7c.err"
rc=$?
check "KBENCH_RUN_DIR writable by all, a record planted: exit 1 (got $rc), not used, named, no run" \
	"[ $rc -eq 1 ] && grep -q \"KBENCH_RUN_DIR $tmp/rdww: $tmp/rdww: writable by all\" $tmp/7c.err && ! grep -q 'restored /' $tmp/7c.err && [ ! -e $tmp/crdww ]"
# report --reparse through a run directory linked elsewhere
cp -a "$tmp/cbq" "$tmp/crep"
rd=$(find "$tmp/crep/runs" -path "*/[0-9][0-9][0-9]" -type d | sort | head -1)
mkdir "$tmp/elsewhere"
cp -a "$rd/." "$tmp/elsewhere/"
rm -rf "$rd" "$tmp/elsewhere/metrics.json"
ln -s "$tmp/elsewhere" "$rd"
"$KBENCH" report --reparse "$tmp/crep" >/dev/null 2>"$tmp/7d.err"
rc=$?
check "report --reparse with a run directory linked elsewhere: exit 2 (got $rc), the link named, nothing written there" \
	"[ $rc -eq 2 ] && grep -q 'a symbolic link (to $tmp/elsewhere)' $tmp/7d.err && grep -q -- '--reparse not done' $tmp/7d.err && grep -q 'crep: not re-parsed: --reparse writes' $tmp/7d.err && ! grep -q 'not resumed' $tmp/7d.err && [ ! -e $tmp/elsewhere/metrics.json ]"
# compare against a campaign.json without configurations (a NULL
# baseline went to strcmp: a segfault)
cp -a "$tmp/cbq" "$tmp/cnoconf"
jq '.configurations = []' "$tmp/cbq/campaign.json" >"$tmp/cnoconf/campaign.json"
"$KBENCH" compare "$tmp/cnoconf" "$tmp/cbq" >/dev/null 2>"$tmp/7e.err"
rc=$?
check "compare with a BASE of no configuration: exit 2 (got $rc), said" \
	"[ $rc -eq 2 ] && grep -q 'cnoconf has no configuration: nothing to compare with' $tmp/7e.err"
finish
