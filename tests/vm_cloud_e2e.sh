#!/bin/bash
# tests/vm_cloud_e2e.sh - end-to-end for the self-contained vm guest
# (`make check-vm`): Debian's cloud kernel (deb:linux-image-cloud-amd64,
# fetched with apt-get download, cached in $KBENCH_CACHE, default
# /var/cache/kbench) has no 9p (CONFIG_NET_9P unset), so kbench boots it
# with fio, kbench and their libraries in the initramfs and gets the
# results back on a virtio disk.  Target: null_blk (the cloud kernel has
# CONFIG_BLK_DEV_NULL_BLK=m: drivers/block/null_blk/null_blk.ko), job
# randread-4k, 2 iterations x 2 s, one boot, TCG unless KVM works.
# Asserts: the log says why the guest is self-contained, both runs ok
# with read IOPS > 0 on /dev/nullb0, guest_kernel ends in -cloud-amd64,
# campaign.json records transport "self-contained" with its reason, the
# console shows the self-contained /init writing the results disk, the
# initramfs and the results disk are not left behind, and a dry run
# prints the results disk on QEMU's command line and no -virtfs.  About
# 30 s on TCG (2 vCPUs), plus the first download (about 27 MB).  Needs
# root and the Debian mirror.
# Closing line: "vm cloud e2e: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
finish() {
	if [ -n "${tmp:-}" ]; then
		if [ "$fail" -gt 0 ]; then echo "# kept $tmp for a look"; else rm -rf "$tmp"; fi
	fi
	e2e_summary "vm cloud e2e"
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	bad "vm cloud e2e needs root (null_blk in the guest)"
	finish
fi
for tool in qemu-system-x86_64 fio jq depmod dpkg apt-get ldd; do
	command -v "$tool" >/dev/null || { bad "$tool missing (scripts/install-deps)"; finish; }
done
[ -x /bin/busybox ] || { bad "busybox-static missing (scripts/install-deps)"; finish; }

tmp=$(mktemp -d /tmp/kbench-vm-cloud-e2e.XXXXXX)
export KBENCH_CACHE=${KBENCH_CACHE:-/var/cache/kbench}
cat > "$tmp/vm.conf" <<EOF
[global]
jobs = randread-4k
iterations = 2
warmup = 0
runtime = 2
target = null_blk: queue_mode=2 irqmode=0 completion_nsec=0
profiles = $ROOT/profiles

[cloud]
method = vm
kernel = deb:linux-image-cloud-amd64
EOF
d="$tmp/camp"
start=$(date +%s)
"$KBENCH" run -c "$tmp/vm.conf" -o "$d" > "$tmp/out" 2> "$tmp/err"
rc=$?
secs=$(( $(date +%s) - start ))
echo "# campaign took ${secs}s (exit $rc)"
check "kbench run exits 0" '[ "$rc" -eq 0 ]'
[ "$rc" -eq 0 ] || { sed 's/^/# /' "$tmp/err" | tail -20; }
check "the log says the kernel has no 9p and the guest is self-contained, once" \
	'[ "$(grep -c "cloud: kernel .*-cloud-amd64 has no 9p (no module or built-in .9p.* using a self-contained guest" "$tmp/err")" = 1 ]'
R="$d/results.json"
check "2 ok runs, each with read IOPS > 0" \
	'[ "$(jq "[.runs[] | select(.configuration == \"cloud\" and .status == \"ok\" and .metrics[\"read.iops\"] > 0)] | length" "$R")" = 2 ]'
check "the runs ran on the guest's null_blk (/dev/nullb0)" \
	'(for i in 000 001; do jq -e ".target == \"/dev/nullb0\"" "$d/runs/cloud/randread-4k/$i/run.json" >/dev/null || exit 1; done)'
check "guest_kernel in each run's metrics.json ends in -cloud-amd64" \
	'(for i in 000 001; do jq -e ".guest_kernel | test(\"-cloud-amd64$\")" "$d/runs/cloud/randread-4k/$i/metrics.json" >/dev/null || exit 1; done)'
check "the raw fio output came back too" \
	'jq -e ".jobs[0].read.iops > 0" "$d/runs/cloud/randread-4k/001/fio.json" >/dev/null'
check "campaign.json records transport self-contained and why" \
	'[ "$(jq -r .environment.vm.variants.cloud.transport "$d/campaign.json")" = self-contained ] && jq -r .environment.vm.variants.cloud.transport_reason "$d/campaign.json" | grep -q "no module or built-in .9p"'
check "campaign.json records the guest's release" \
	'jq -r .environment.vm.variants.cloud.guest_release "$d/campaign.json" | grep -q -- "-cloud-amd64$"'
check "one boot; its /init ran kbench from the initramfs and wrote the results disk" \
	'[ "$(ls "$d/boots" | tr "\n" " ")" = "001-cloud " ] && grep -q "starting kbench guest (self-contained, results to /dev/vd" "$d/boots/001-cloud/console.log" && grep -q "kbench-initramfs: results written to /dev/vd" "$d/boots/001-cloud/console.log"'
check "QEMU had the results disk (serial kbresults) and no 9p export" \
	'jq -r ".environment.vm.variants.cloud.qemu_argv | join(\" \")" "$d/campaign.json" | grep -q "serial=kbresults" && ! jq -r ".environment.vm.variants.cloud.qemu_argv | join(\" \")" "$d/campaign.json" | grep -q virtfs'
check "neither the initramfs nor the results disk is left in the boot directory" \
	'[ ! -e "$d/boots/001-cloud/initramfs.cpio" ] && [ ! -e "$d/boots/001-cloud/results.img" ]'
check "the report has the cloud row" \
	'grep -Eq "^cloud +[0-9]" "$d/report.txt"'
check "resume: nothing left to run, exit 0" \
	'"$KBENCH" run -o "$d" > /dev/null 2>&1'
check "dry run: self-contained guest, results disk on the command line, nothing written" \
	'"$KBENCH" run --dry-run -c "$tmp/vm.conf" -o "$tmp/dry" > "$tmp/dry.out" 2>&1 && grep -q "guest root: self-contained" "$tmp/dry.out" && grep -q "serial=kbresults" "$tmp/dry.out" && ! grep -q -- "-virtfs" "$tmp/dry.out" && [ ! -e "$tmp/dry" ]'
finish
