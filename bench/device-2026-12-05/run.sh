#!/bin/bash
# device check: can KVM boot a kernel there with a reduced CPUID (no BMI2/VEX)?
set -u
O=${OUT:-/tmp/o}; mkdir -p "$O"; exec > >(tee "$O/log.txt") 2>&1
mkdir -p /tmp/d && tar xJf .devt/devk.tar.xz -C /tmp/d
Q=/tmp/d/.devk/q.sh K=/tmp/d/.devk/vmlinuz
echo "== $(date -u +%FT%TZ) $(uname -r) nproc=$(nproc)"; ls -l /dev/kvm
grep -m1 'model name' /proc/cpuinfo; grep -m1 -o -w 'vmx\|svm' /proc/cpuinfo
for f in bmi1 bmi2 avx avx2 avx512f hypervisor; do printf '%s=%s ' $f $(grep -m1 -c -w $f /proc/cpuinfo); done; echo
for p in /sys/module/kvm_intel/parameters/{ept,unrestricted_guest,nested,enable_shadow_vmcs} /sys/module/kvm/parameters/tdp_mmu; do echo "$p=$(cat $p 2>/dev/null)"; done
i=0
boot() { # accel cpu timeout
	i=$((i+1)); s=$(date +%s.%N)
	timeout $3 $Q -nodefaults -no-user-config -display none -no-reboot -machine pc -accel $1 -cpu "$2" -m 512 -smp 1 -kernel $K \
		-append "console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1 printk.time=1" -serial file:$O/c$i.console >$O/q$i.err 2>&1; rc=$?
	e=$(date +%s.%N)
	echo "-- [$i] accel=$1 cpu=$2 rc=$rc wall=$(awk "BEGIN{printf \"%.1f\", $e - $s}") bytes=$(wc -c <$O/c$i.console) banner=$(grep -c 'Linux version' $O/c$i.console) vfs_panic=$(grep -c 'VFS: Unable\|Kernel panic' $O/c$i.console) last: $(grep -a -v '^$' $O/c$i.console | tail -1 | cut -c1-120)"
	grep -a -m3 -i 'error\|emulation' $O/q$i.err; grep -a '^Code=' $O/q$i.err | cut -c1-140
}
boot tcg max 60
boot kvm host 30
boot kvm host,-bmi2 30
boot kvm host,-bmi1,-bmi2,-avx,-avx2,-avx512f,-fma,-f16c,-adx,-movbe 30
boot kvm qemu64 30
boot kvm host,-bmi2 30
cd "$O" && tar czf consoles.tgz c*.console q*.err && rm -f c*.console q*.err; ls -la "$O"
