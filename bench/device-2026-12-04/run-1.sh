#!/bin/bash
# device check for issues 13 and 16 (not committed: .dev/ is excluded)
set -u
cd "$(dirname "$0")/.."
D=$PWD/.dev
O=${OUT:-/tmp/devout}; mkdir -p "$O"
export PATH=$D/bin:$PATH LD_LIBRARY_PATH=$D/lib
exec > >(tee "$O/log.txt") 2>&1
echo "== probe $(date -u +%FT%TZ)"
nproc; uname -a; grep -m1 'model name' /proc/cpuinfo; grep -m1 -o -wE 'vmx|svm|hypervisor' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
free -m | head -2; df -h /var/tmp | tail -1
ls -l /dev/kvm 2>&1; timeout 10 kvmcheck; echo "kvmcheck rc=$?"
ls -l /dev/loop-control 2>&1; ls /sys/module | grep -E '^(loop|null_blk)$' | tr '\n' ' '; echo
echo "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>&1)"; ls /sys/bus/event_source/devices 2>&1 | tr '\n' ' '; echo
for t in losetup fio jq awk gnuplot perf qemu-system-x86_64 busybox sync; do printf '%s=%s ' $t "$(command -v $t || echo -)"; done; echo
fio --version; .dev/build/kbench --version | head -2
cat /proc/pressure/cpu 2>&1 | head -1; head -1 /proc/stat
L=$(losetup -f 2>&1); echo "losetup -f: $L"
[ -e /dev/loop-control ] || modprobe loop 2>&1; [ -e /dev/loop-control ] || { echo "no loop: file target"; export KBENCH_BENCH_TRUTH_TARGET=file:/var/tmp/kb-target; }
export KBENCH_RUN_DIR=/run/kbench-dev KBENCH_BENCH_SWITCHING_LOAD=/nonexistent
echo "== step 7 detect"
KBENCH_BENCH_STEPS=7 KBENCH_BENCH_TRUTH_PARTS=detect KBENCH_BENCH_TRUTH_SCALE=${SCALE:-0.4} \
	KBENCH_BENCH_KEEP=1 KBENCH_BENCH_OUT=$O/results-7.json timeout ${T7:-330} sh bench/bench.sh .dev/build
echo "step 7 rc=$?"
echo "== steps 1,3"
KBENCH_BENCH_STEPS=1,3 KBENCH_BENCH_PAIRS=3 KBENCH_BENCH_OUT=$O/results-13.json timeout ${T13:-160} sh bench/bench.sh .dev/build
echo "steps 1,3 rc=$?"
# the campaigns' compare outputs of the detections
for d in /var/tmp/kbench-bench.*; do [ -d "$d" ] && (cd "$d" && find . -maxdepth 1 \( -name '*.cmp' -o -name '*.ci' -o -name '*.log' \) -print0 | xargs -0 tar czf "$O/detect-work.tgz") && break; done
ls -la "$O"
