#!/bin/bash
# tests/vm_e2e.sh - end-to-end for method = vm (`make check-vm`): a real
# campaign booting Debian's current generic kernel (fetched with apt-get
# download, cached in $KBENCH_CACHE, default /var/cache/kbench) under QEMU
# (KVM if usable, else TCG), null_blk target, write-4k-io_uring-32x32,
# 2 iterations x 2 s, order = interleave, three variants:
#   a    the kernel
#   b    the previous build of Debian's 6.1 kernel (the highest
#        linux-image-6.1.0-N-amd64 below the current one, found with
#        apt-cache at test time): two real kernels; if the archive has no
#        other build, the same kernel with mitigations=off
#   bad  the kernel with init=/nonexistent: it panics; its runs must be
#        recorded as failed (console log kept) within boot_timeout while
#        a's and b's rows are still there
# Asserts: boots went a b bad a b bad, every a/b run ok with IOPS > 0,
# every bad run failed with the panic line, the report has a row per
# kernel and says "emulated (TCG)" without KVM.  About 4-6 minutes on
# TCG.  Needs root and network access to the Debian mirror on first use.
# Closing line: "vm e2e: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
finish() {
	if [ -n "${tmp:-}" ]; then
		if [ "$fail" -gt 0 ]; then echo "# kept $tmp for a look"; else rm -rf "$tmp"; fi
	fi
	e2e_summary "vm e2e"
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	bad "vm e2e needs root (null_blk in the guest, QEMU's 9p export of /)"
	finish
fi
for tool in qemu-system-x86_64 fio jq depmod dpkg apt-get; do
	command -v "$tool" >/dev/null || { bad "$tool missing (scripts/install-deps)"; finish; }
done
[ -x /bin/busybox ] || { bad "busybox-static missing (scripts/install-deps)"; finish; }

tmp=$(mktemp -d /tmp/kbench-vm-e2e.XXXXXX)
export KBENCH_CACHE=${KBENCH_CACHE:-/var/cache/kbench}
cur=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/.*Depends: \(linux-image-6\.1\.0-[0-9]*-amd64\).*/\1/p' | head -1)
prev=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' 2>/dev/null |
	awk '{ print $1 }' | grep -vx "${cur:-none}" | sort -t- -k4,4n | tail -1)
if [ -n "$prev" ]; then
	b_kernel="kernel = deb:$prev"
	echo "# variant b: $prev (a: linux-image-amd64 = ${cur:-?})"
else
	b_kernel="kernel = deb:linux-image-amd64
cmdline = mitigations=off"
	echo "# variant b: no other 6.1 build in the archive; the same kernel, mitigations=off"
fi
cat > "$tmp/vm.conf" <<EOF
[global]
jobs = write-4k-io_uring-32x32
iterations = 2
warmup = 0
runtime = 2
order = interleave
layouts = rounds
target = null_blk: queue_mode=2 irqmode=0 completion_nsec=0
profiles = $ROOT/profiles

[a]
method = vm
kernel = deb:linux-image-amd64

[b]
method = vm
$b_kernel

[bad]
method = vm
kernel = deb:linux-image-amd64
cmdline = init=/nonexistent
boot_timeout = 90
EOF
d="$tmp/camp"
start=$(date +%s)
"$KBENCH" run -c "$tmp/vm.conf" -o "$d" > "$tmp/out" 2> "$tmp/err"
rc=$?
secs=$(( $(date +%s) - start ))
echo "# campaign took ${secs}s (exit $rc)"
check "kbench run exits 0 (failed runs are recorded, not fatal)" '[ "$rc" -eq 0 ]'
[ "$rc" -eq 0 ] || { sed 's/^/# /' "$tmp/err" | tail -20; }
check "boots interleaved a b bad a b bad" \
	'[ "$(ls "$d/boots" | tr "\n" " ")" = "001-a 002-b 003-bad 004-a 005-b 006-bad " ]'
R="$d/results.json"
check "4 ok runs for a and b, each with write IOPS > 0" \
	'[ "$(jq "[.runs[] | select((.configuration == \"a\" or .configuration == \"b\") and .status == \"ok\" and .metrics[\"write.iops\"] > 0)] | length" "$R")" = 4 ]'
check "bad: 2 runs failed with the kernel panic as reason" \
	'[ "$(jq "[.runs[] | select(.configuration == \"bad\" and .status == \"failed\" and (.reason | test(\"kernel panic\")))] | length" "$R")" = 2 ]'
check "bad: the console log is kept in the run directory" \
	'grep -q "Kernel panic" "$d/runs/bad/write-4k-io_uring-32x32/000/console.log"'
check "guest runs ran on the guest kernel" \
	'jq -e ".guest_kernel | test(\"^6\\\\.\")" "$d/runs/a/write-4k-io_uring-32x32/001/metrics.json" >/dev/null'
if [ -n "$prev" ]; then
	check "a and b ran two different kernel builds" \
		'ga=$(jq -r .guest_kernel "$d/runs/a/write-4k-io_uring-32x32/001/metrics.json"); gb=$(jq -r .guest_kernel "$d/runs/b/write-4k-io_uring-32x32/001/metrics.json"); [ -n "$ga" ] && [ "$ga" != null ] && [ "$ga" != "$gb" ]'
fi
check "seed 002's rounds table: a row per round, kernel columns, average" \
	'grep -Eq "^ +average +[0-9.]+ +[0-9.]+" "$d/report.txt"'
check "report has a row for a and for b" \
	'grep -Eq "^a +[0-9]" "$d/report.txt" && grep -Eq "^b +[0-9]" "$d/report.txt"'
check "campaign.json records vCPUs and memory" \
	'[ "$(jq ".environment.vm.variants.a.cpus, .environment.vm.variants.a.memory_mib" "$d/campaign.json" | tr "\n" " ")" = "2 1024 " ]'
if [ -w /dev/kvm ] 2>/dev/null && [ -c /dev/kvm ]; then
	check "KVM recorded" '[ "$(jq -r .environment.vm.accel "$d/campaign.json")" = kvm ]'
else
	check "TCG: the report says the timings are not representative" \
		'grep -q "emulated (TCG): timings are not representative" "$d/report.txt" && grep -q "emulated (TCG)" "$d/report.md"'
fi
check "resume: nothing left to run, exit 0" \
	'"$KBENCH" run -o "$d" > /dev/null 2>&1'
finish
