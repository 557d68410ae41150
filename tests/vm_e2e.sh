#!/bin/bash
# tests/vm_e2e.sh - end-to-end for method = vm (`make check-vm`): a real
# campaign booting Debian kernels (fetched with apt-get download, cached
# in $KBENCH_CACHE, default /var/cache/kbench) under QEMU, null_blk
# target, write-4k-io_uring-32x32, 2 iterations x 2 s, order =
# interleave, three variants:
#   a    Debian 12's stock kernel (linux-image-amd64 = 6.1.0-N)
#   b    Debian 12's 6.12 kernel (deb:linux-image-6.12-amd64, resolved to
#        the concrete package once and pinned): modules are .ko.xz
#   bad  the stock kernel with init=/nonexistent: it panics; its runs must
#        be recorded as failed (console log kept) within boot_timeout
#        while a's and b's rows are still there
# accel = auto: KVM only when the probe boot shows it works (a /dev/kvm
# that opens but hangs every guest, as on nested hypervisors, falls back
# to TCG with the reason in the log and campaign.json).
# Asserts: boots went a b bad a b bad, every a/b run ok with IOPS > 0,
# every bad run failed with the panic line, exit status 4 (completed with
# failed runs), the report has a row per kernel naming 6.1.0-N and 6.12.N
# with their builds, the accelerator is recorded with its reason, and
# KBENCH_ACCEL=tcg skips the probe; then retry_disturbed with booted
# variants (a and b, one round, thresholds that disturb any CPU
# pressure), run with a relative -o: the disturbed round boots a and b
# again, its two runs kept as superseded (skipped when no guest run was
# disturbed); then, with KBENCH_STATIC (the release build), a and bad
# once with the static guest binary as /init.  The first campaign runs
# with a wrapper fio first in $PATH, which the 9p guests must run.  About 9-11
# minutes on TCG, plus the first download (about 180 MB).  Needs root and the Debian mirror.
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
cat > "$tmp/vm.conf" <<EOF
[global]
jobs = write-4k-io_uring-32x32
iterations = 2
warmup = 0
runtime = 2
order = interleave
layouts = rounds
retry_disturbed = 0
target = null_blk: queue_mode=2 irqmode=0 completion_nsec=0
profiles = $ROOT/profiles

[a]
method = vm
kernel = deb:linux-image-amd64

[b]
method = vm
kernel = deb:linux-image-6.12-amd64

[bad]
method = vm
kernel = deb:linux-image-amd64
cmdline = init=/nonexistent
boot_timeout = 90
EOF
d="$tmp/camp"
# the 9p guest runs the fio the host's $PATH finds (--path): a wrapper
# first in PATH, outside /tmp (the guest's /tmp is its own tmpfs), that
# notes the kernel it ran on in the campaign directory
pathdir=$(mktemp -d /var/tmp/kbench-vm-e2e-path.XXXXXX)
printf '#!/bin/sh\n[ -d %s ] && uname -r >> %s/fio-kernels.log 2>/dev/null\nexec %s "$@"\n' \
	"'$d'" "'$d'" "'$(command -v fio)'" > "$pathdir/fio"
chmod 755 "$pathdir/fio"
start=$(date +%s)
PATH="$pathdir:$PATH" "$KBENCH" run -c "$tmp/vm.conf" -o "$d" > "$tmp/out" 2> "$tmp/err"
rc=$?
rm -rf "$pathdir"
secs=$(( $(date +%s) - start ))
echo "# campaign took ${secs}s (exit $rc)"
check "kbench run exits 4: completed, with the bad kernel's runs failed" '[ "$rc" -eq 4 ]'
[ "$rc" -eq 4 ] || { sed 's/^/# /' "$tmp/err" | tail -20; }
grep -E "KVM|TCG|probing" "$tmp/err" | sort -u | sed 's/^/# log: /'
acc=$(jq -r .environment.vm.accel "$d/campaign.json")
if [ -c /dev/kvm ] && [ "$acc" = tcg ] && [ -z "${KBENCH_ACCEL:-}" ]; then
	check "a /dev/kvm that does not work: the log says KVM is unusable and TCG used" \
		'grep -q "KVM unusable here: .*; using TCG" "$tmp/err"'
	check "campaign.json records the probe's answer and the reason" \
		'[ "$(jq -r .environment.vm.kvm_probe.usable "$d/campaign.json")" = false ] && jq -r .environment.vm.accel_reason "$d/campaign.json" | grep -q "KVM unusable here"'
elif [ "$acc" = kvm ]; then
	check "KVM works: the probe's answer is recorded" \
		'[ "$(jq -r .environment.vm.kvm_probe.usable "$d/campaign.json")" = true ]'
else
	check "no usable /dev/kvm: TCG with the reason recorded" \
		'jq -r .environment.vm.accel_reason "$d/campaign.json" | grep -Eq "/dev/kvm|tcg"'
fi
check "every variant records its accelerator" \
	'[ "$(jq -r "[.environment.vm.variants[].accel] | unique | length" "$d/campaign.json")" = 1 ]'

check "boots interleaved a b bad a b bad" \
	'[ "$(ls "$d/boots" | tr "\n" " ")" = "001-a 002-b 003-bad 004-a 005-b 006-bad " ]'
R="$d/results.json"
check "4 ok runs for a and b, each with write IOPS > 0" \
	'[ "$(jq "[.runs[] | select((.configuration == \"a\" or .configuration == \"b\") and .status == \"ok\" and .metrics[\"write.iops\"] > 0)] | length" "$R")" = 4 ]'
check "bad: 2 runs failed with the kernel panic as reason" \
	'[ "$(jq "[.runs[] | select(.configuration == \"bad\" and .status == \"failed\" and (.reason | test(\"kernel panic\")))] | length" "$R")" = 2 ]'
check "bad: the console log is kept in the run directory" \
	'grep -q "Kernel panic" "$d/runs/bad/write-4k-io_uring-32x32/000/console.log"'
check "the guests ran the fio first in the host's PATH (6.1 and 6.12 in its log)" \
	'grep -q "^6\.1\.0-" "$d/fio-kernels.log" && grep -q "^6\.12\." "$d/fio-kernels.log"'
check "guest runs ran on the guest kernel" \
	'jq -e ".guest_kernel | test(\"^6\\\\.\")" "$d/runs/a/write-4k-io_uring-32x32/001/metrics.json" >/dev/null'
check "a ran 6.1, b ran 6.12 (as the guests saw them)" \
	'ga=$(jq -r .guest_kernel "$d/runs/a/write-4k-io_uring-32x32/001/metrics.json"); gb=$(jq -r .guest_kernel "$d/runs/b/write-4k-io_uring-32x32/001/metrics.json"); case "$ga" in 6.1.0-*) ;; *) false;; esac && case "$gb" in 6.12.*) ;; *) false;; esac'
check "deb:linux-image-6.12-amd64 was pinned to a concrete package and version" \
	'jq -r ".environment.vm.variants.b.package, .environment.vm.variants.b.package_version" "$d/campaign.json" | tr "\n" " " | grep -Eq "^linux-image-6\.12\.[0-9]+.*-amd64 6\.12\."'
check "the text report names both kernels' releases" \
	'grep -E "^Kernels:" "$d/report.txt" | grep -q "6\.1\.0-" && grep -E "^Kernels:" "$d/report.txt" | grep -q "6\.12\."'
check "report.md names each build (/proc/version), sha256 and the QEMU command line" \
	'grep -q "/proc/version (guest).*#1 SMP" "$d/report.md" && grep -q "Image sha256" "$d/report.md" && grep -q "^qemu-system-x86_64 .*-kernel" "$d/report.md"'
check "seed 002's rounds table: a row per round, kernel columns, average" \
	'grep -Eq "^ +average +[0-9.]+ +[0-9.]+" "$d/report.txt"'
check "report has a row for a and for b" \
	'grep -Eq "^a +[0-9]" "$d/report.txt" && grep -Eq "^b +[0-9]" "$d/report.txt"'
check "campaign.json records vCPUs and memory" \
	'[ "$(jq ".environment.vm.variants.a.cpus, .environment.vm.variants.a.memory_mib" "$d/campaign.json" | tr "\n" " ")" = "2 1024 " ]'
# runner/vmlinux.h: Debian's kernels have CONFIG_PVH: QEMU boots the
# unpacked ELF (the runs above worked with it), not the bzImage
check "a and b booted through PVH: boot = pvh, -kernel the cached ELF" \
	'[ "$(jq -r ".environment.vm.variants.a.boot, .environment.vm.variants.b.boot" "$d/campaign.json" | tr "\n" " ")" = "pvh pvh " ] && jq -r ".environment.vm.variants.a.qemu_argv | join(\" \")" "$d/campaign.json" | grep -Eq -- "-kernel [^ ]*/vmlinux/vmlinuz-[^ ]*\.elf -initrd"'
# runner/kernel_img.h: Debian's kernels check signatures without forcing
# them, so the modules went in unsigned (the runs above loaded them)
check "a's modules went in unsigned: module_signatures = stripped, with the config named" \
	'[ "$(jq -r .environment.vm.variants.a.module_signatures "$d/campaign.json")" = stripped ] && jq -r .environment.vm.variants.a.module_signatures_reason "$d/campaign.json" | grep -q "/config-[^ ]*: CONFIG_MODULE_SIG=y without CONFIG_MODULE_SIG_FORCE"'
check "a's runs record the guest kernel's taint around fio, E (unsigned modules) in it, and no flag for it" \
	'jq -e "(.kernel_taint_before / 8192 | floor) % 2 == 1 and .kernel_taint_after == .kernel_taint_before" "$d/runs/a/write-4k-io_uring-32x32/000/run.json" >/dev/null && ! grep -q tainted "$d/runs/a/write-4k-io_uring-32x32/000/metrics.json"'
if [ "$acc" = tcg ]; then
	check "TCG: the report says the timings are not representative" \
		'grep -q "emulated (TCG): timings are not representative" "$d/report.txt" && grep -q "emulated (TCG)" "$d/report.md"'
	# runner/qemu.h kb_qemu_guest_cmdline(): ACPI's interrupt routing
	# costs about 150 ms per PCI device under TCG
	check "TCG: the guests boot with acpi=noirq (the runs above worked with it)" \
		'jq -r ".environment.vm.variants.a.qemu_argv | join(\" \")" "$d/campaign.json" | grep -q "printk.time=1 acpi=noirq kbench.variant=a"'
else
	check "KVM: the guests boot without kbench's acpi=noirq" \
		'! jq -r ".environment.vm.variants.a.qemu_argv | join(\" \")" "$d/campaign.json" | grep -q "acpi=noirq"'
fi
check "resume: nothing left to run, still exit 4 (failed runs stay failed)" \
	'"$KBENCH" run -o "$d" > /dev/null 2>&1; [ $? -eq 4 ]'
check "KBENCH_ACCEL=tcg: no probe, TCG in the dry run, nothing written" \
	'KBENCH_ACCEL=tcg "$KBENCH" run --dry-run -c "$tmp/vm.conf" -o "$tmp/dry" > "$tmp/dry.out" 2>&1 && grep -q "tcg,thread=single" "$tmp/dry.out" && ! grep -q probing "$tmp/dry.out" && [ ! -e "$tmp/dry" ]'
# a host fio under /tmp (the guest's own tmpfs there): the guest would
# run another one; the dry run says so and names both, and the normal
# dry run names the fio the guest runs
tmpfio=$(mktemp -d /tmp/kbench-vm-e2e-fio.XXXXXX)
printf '#!/bin/sh\nexec %s "$@"\n' "'$(command -v fio)'" > "$tmpfio/fio"
chmod 755 "$tmpfio/fio"
check "a host fio under /tmp: the dry run says the guest would run another, exit 4" \
	'PATH="$tmpfio:$PATH" KBENCH_ACCEL=tcg "$KBENCH" run --dry-run -c "$tmp/vm.conf" -o "$tmp/dry3" > "$tmp/dry3.out" 2>&1; [ $? -eq 4 ] && grep -q "its runs would fail: vm: the guest would run $(command -v fio), not this host.s fio $tmpfio/fio" "$tmp/dry3.out" && grep -q "vm: a: the guest runs $(command -v fio)" "$tmp/dry.out"'
rm -rf "$tmpfio"
# a guest smaller than fio needs: said before it boots (a dry run)
sed 's/^kernel = deb:linux-image-amd64$/&\nmemory = 160M/' "$tmp/vm.conf" > "$tmp/small.conf"
check "memory = 160M: a warning that fio did not load in less than 256M" \
	'KBENCH_ACCEL=tcg "$KBENCH" run --dry-run -c "$tmp/small.conf" -o "$tmp/dry2" > "$tmp/small.out" 2>&1 && grep -q "vm: a: memory = 160M: a guest under 256M could not load fio" "$tmp/small.out" && [ "$(grep -c "vm: a: memory = 160M" "$tmp/small.out")" = 1 ] && ! grep -q "vm: b: memory" "$tmp/small.out"'
# boot = bzimage: QEMU gets the image as given (the ELF above is cached)
awk '/^\[b\]/ { exit } { print } /^kernel = deb:linux-image-amd64$/ { print "boot = bzimage" }' \
	"$tmp/vm.conf" > "$tmp/bz.conf"
check "boot = bzimage: -kernel the bzImage; auto: the ELF (dry runs)" \
	'KBENCH_ACCEL=tcg "$KBENCH" run --dry-run -c "$tmp/bz.conf" -o "$tmp/drybz" > "$tmp/drybz.out" 2>&1 && grep -q -- "-kernel [^ ]*/boot/vmlinuz-6\.1\.0-[^ ]* -initrd" "$tmp/drybz.out" && ! grep -q "\.elf" "$tmp/drybz.out" && grep -Eq -- "-kernel [^ ]*/vmlinux/vmlinuz-[^ ]*\.elf -initrd" "$tmp/dry.out"'

# retry_disturbed with booted variants: a round is one boot of each
# variant; a disturbed round is booted again, a then b (thresholds that
# disturb a run with any CPU pressure, or below the top quartile of idle)
sed -e '/^\[bad\]/,$d' -e 's/^iterations = 2/iterations = 1/' \
    -e 's/^retry_disturbed = 0/retry_disturbed = 1\
retry_quiet_wait = 1s\
disturbed_psi_pct = 0\
disturbed_idle_fraction = 1/' "$tmp/vm.conf" > "$tmp/retry.conf"
# run from $tmp with a relative -o (the guest is given the absolute path)
dr="$tmp/retry"
kabs=$(realpath "$KBENCH")
(cd "$tmp" && "$kabs" run -c retry.conf -o retry > /dev/null 2> retry.err)
rc=$?
check "-o retry (relative): the vm campaign ran, its runs ok" \
	'[ "$(jq "[.runs[] | select(.status == \"ok\")] | length" "$dr/results.json")" = 2 ]'
if [ "$rc" -eq 0 ] && jq -e .disturbed_retries "$dr/state.json" > /dev/null 2>&1; then
	check "retry_disturbed: the disturbed round booted again, a b a b" \
		'[ "$(ls "$dr/boots" | tr "\n" " ")" = "001-a 002-b 003-a 004-b " ]'
	check "... both runs of the round superseded and kept, both redone" \
		'[ "$(jq "[.superseded[].key] | sort | join(\" \")" "$dr/state.json")" = "\"a/write-4k-io_uring-32x32/000 b/write-4k-io_uring-32x32/000\"" ] && [ -s "$dr/runs/a/write-4k-io_uring-32x32/000.superseded-1/metrics.json" ] && [ "$(jq "[.runs[] | select(.status == \"ok\")] | length" "$dr/results.json")" = 2 ]'
elif [ "$rc" -eq 0 ]; then
	skipped "retry_disturbed with vm variants: no guest run was disturbed"
else
	bad "retry_disturbed with vm variants: the campaign failed (exit $rc)"
fi

# The release build (KBENCH_STATIC, `make check-vm` gives build/kbench):
# its static twin build/kbench-guest goes into the initramfs as /init
# (runner/guest_binary.h, builtin/guest_init.c), without busybox; a
# missing init=PROG is an error line naming it, the host's reason.
if [ -n "${KBENCH_STATIC:-}" ]; then
	sed -e '/^\[b\]/,/^$/d' -e 's/^iterations = 2/iterations = 1/' \
	    -e 's/^runtime = 2/runtime = 1/' "$tmp/vm.conf" > "$tmp/static.conf"
	ds="$tmp/static"
	# under strace where there is one (the release build: LeakSanitizer
	# does not work under ptrace): every process's fsyncs, kbench's pid
	# noted by the shell it replaces, so QEMU's can be counted;
	# --seccomp-bpf stops only at those calls
	trace=
	command -v strace >/dev/null &&
		trace="strace -f -qq --seccomp-bpf -e trace=fsync,fdatasync -o $tmp/fsync.trace"
	$trace sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$tmp/kbench.pid" \
		"$KBENCH_STATIC" run -c "$tmp/static.conf" -o "$ds" > /dev/null 2> "$tmp/static.err"
	rc=$?
	check "static guest: the campaign completes with bad's run failed (exit 4)" \
		'[ "$rc" -eq 4 ]'
	check "static guest: campaign.json names build/kbench-guest, static" \
		'jq -r .environment.vm.variants.a.guest_kbench "$ds/campaign.json" | grep -q "/kbench-guest$" && jq -r .environment.vm.variants.a.guest_kbench_reason "$ds/campaign.json" | grep -q "^static"'
	check "static guest: kbench was /init, the guest exited 0, a's run ok with IOPS" \
		'grep -q "kbench-initramfs: starting kbench guest" "$ds/boots/001-a/console.log" && grep -q "kbench-initramfs: kbench guest exited with status 0" "$ds/boots/001-a/console.log" && [ "$(jq "[.runs[] | select(.configuration == \"a\" and .status == \"ok\" and .metrics[\"write.iops\"] > 0)] | length" "$ds/results.json")" = 1 ]'
	check "static guest: init=/nonexistent is a failed run naming it" \
		'[ "$(jq "[.runs[] | select(.configuration == \"bad\" and .status == \"failed\" and (.reason | test(\"cannot run init=/nonexistent\")))] | length" "$ds/results.json")" = 1 ]'
	if [ -n "$trace" ]; then
		# lib/file.h: the guest writes its runs through 9p without a
		# cache and syncs nothing (it made a dozen fsyncs a run, each
		# a host fsync by QEMU); the host syncs once after each boot
		kpid=$(cat "$tmp/kbench.pid")
		others=$(awk -v k="$kpid" '$1 != k && $2 ~ /^f(data)?sync\(/' "$tmp/fsync.trace" | wc -l)
		check "static guest: nothing synced over 9p: QEMU made no fsync (got $others), kbench some" \
			"[ $others -eq 0 ] && awk -v k=$kpid '\$1 == k' $tmp/fsync.trace | grep -q fsync"
	else
		skipped "the guest's syncs: no strace (scripts/install-deps)"
	fi
else
	skipped "static guest binary: KBENCH_STATIC not given (make check-vm gives it)"
fi
finish
