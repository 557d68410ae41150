#!/bin/bash
# device check 2: issue 16's guest start under KVM (not committed)
set -u
cd "$(dirname "$0")/.."
D=$PWD/.dev
O=${OUT:-/tmp/devout2}; mkdir -p "$O"
export PATH=$D/bin:$PATH LD_LIBRARY_PATH=$D/lib
exec > >(tee "$O/log2.txt") 2>&1
R=6.12.118+deb12-amd64
echo "== setup $(date -u +%FT%TZ)"
[ -d /tmp/devx/qemu ] || { mkdir -p /tmp/devx && tar xJf .dev/vmbundle.tar.xz -C /tmp/devx; }
[ -d /lib/modules/$R ] || { mkdir -p /lib/modules && cp -r /tmp/devx/vm/mods/$R /lib/modules/; }
ls -l /dev/kvm; qemu-system-x86_64 --version | head -1; nproc
export KBENCH_RUN_DIR=/run/kbench-dev2
cat > /tmp/vm.conf <<EOC
[global]
jobs = randread-4k
iterations = 1
warmup = 0
runtime = 1
target = null_blk: queue_mode=2 irqmode=0 completion_nsec=0
profiles = $PWD/profiles
retry_disturbed = 0

[vm]
method = vm
kernel = /tmp/devx/vm/boot/vmlinuz-$R
EOC
echo "== one campaign (accel auto: the KVM probe)"
rm -rf /tmp/vmk; time .dev/build/kbench run -c /tmp/vm.conf -o /tmp/vmk 2>&1 | grep -vE '^ {4}|^$' | head -20
cat /tmp/vmk/boots/001-vm/timing.json; jq -c '.environment.vm.kvm_probe, .environment.vm.accel' /tmp/vmk/campaign.json
cat "$KBENCH_RUN_DIR/kvm-probe.json" 2>/dev/null; echo
echo "== manual KVM boots, 15 s each: the bzImage (as the probe) and kbench's PVH ELF"
E=$(ls /var/cache/kbench/vmlinux/*.elf 2>/dev/null | head -1); echo "elf: $E"
for k in bz:/tmp/devx/vm/boot/vmlinuz-$R pvh:$E; do n=${k%%:*} img=${k#*:}; [ -n "$img" ] || continue
	timeout 15 qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot -machine pc -accel kvm -cpu host -m 1024 -smp 2 -kernel "$img" \
		-append "console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1 printk.time=1" -serial file:$O/kvm-$n.console; echo "$n rc=$? $(wc -c <$O/kvm-$n.console) bytes; banner: $(grep -c 'Linux version' $O/kvm-$n.console)"
done
echo "== step 6 under TCG (KBENCH_ACCEL=tcg; the plain boot uses the campaign's argv)"
KBENCH_ACCEL=tcg KBENCH_BENCH_STEPS=6 KBENCH_BENCH_VM_PAIRS=${PAIRS_TCG:-4} KBENCH_BENCH_VM_KERNEL=/tmp/devx/vm/boot/vmlinuz-$R \
	KBENCH_BENCH_KEEP=1 KBENCH_BENCH_OUT=$O/results-6tcg.json timeout ${T6T:-150} sh bench/bench.sh .dev/build
echo "step 6 tcg rc=$?"
for d in /var/tmp/kbench-bench.*; do [ -f "$d/vm/boots/001-vm/console.log" ] && cp "$d/vm/boots/001-vm/console.log" "$O/vm-tcg-console.log"; [ -f "$d/plain.console" ] && cp "$d/plain.console" "$O/plain-tcg.console"; done
ls -la "$O"
