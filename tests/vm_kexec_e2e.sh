#!/bin/bash
# tests/vm_kexec_e2e.sh - end-to-end for method = kexec with real kexecs
# (`make check-vm`): one QEMU guest (TCG, -no-reboot) whose /init is the
# resume hook a machine without systemd needs.  On every boot the /init of
# the test's initramfs (busybox; the modules of both kernels, by `uname
# -r`) mounts the host's root read-only over virtio-9p and this test's
# directory read-write at the same path, and runs, chrooted into the host
# root, `kbench run -c kexec.conf -o DIR` (KBENCH_STATE_DIR in the test
# directory: the state must survive the kexec).  kbench runs what the
# running kernel can run and, for the next variant, `kexec -l IMAGE
# --initrd=<the same initramfs> --command-line="<this cmdline>
# kbench.campaign=MARKER"` then `kexec -e` (no /run/systemd/system in the
# guest); the new kernel boots the same /init.  When the campaign is
# complete kbench exits and /init powers the guest off.
#
# Campaign: variants a (Debian 12's 6.1, linux-image-amd64) and b (6.12,
# linux-image-6.12-amd64, .ko.xz modules), method = kexec, randread-4k on
# null_blk, warmup 1 + 1 iteration of 2 s, order = interleave: the plan
# is a b a b, so the guest boots 6.1 (QEMU's -kernel: variant a without a
# kexec) and kexecs to 6.12, 6.1 and 6.12.  The kernels are fetched on the
# host by kbench itself (a --dry-run of deb: variants: apt-get download
# into $KBENCH_CACHE, default /var/cache/kbench) and the guest's
# kernels.conf names the unpacked vmlinuz files, seen through the 9p root.
#
# Asserts, from the one console log and the campaign directory: the
# kernel banners go 6.1 6.12 6.1 6.12, three "Starting new kernel"; each
# kexec'd kernel's /proc/cmdline keeps console=ttyS0 and holds the marker
# kbench announced, its /init came from the initrd kbench passed, and
# kbench verified marker, release, build and target on it; every run's
# metrics.json names the kernel it ran on (/proc/version = its variant's
# image build, the kexec boot and marker); state.json has the 4 runs ok;
# kbench exited 0 in the guest; the host sees the campaign complete.
# A boot that hangs (no kernel banner within BOOT_TIMEOUT s of QEMU's
# start or of "kexec_core: Starting new kernel"; no /init within
# BOOT_TIMEOUT s of the banner) ends QEMU and fails with the reason; the
# watcher is first tested against a fake console that stops after
# "Starting new kernel".
#
# Cost: about 4-6 minutes on 2 cores under TCG, plus the first download
# of the two kernel packages (about 180 MB).  Needs root and the Debian
# mirror.  KEEP=1 keeps the directory (console.log, the campaign).
# Closing line: "vm kexec e2e: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MKINITRD=${KBENCH_KEXEC_INITRAMFS:-$(dirname "$KBENCH")/tests/kexec_initramfs}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-150}	# s, per boot (TCG)
TOTAL_TIMEOUT=${TOTAL_TIMEOUT:-540}	# s, the whole guest
NULLBLK="queue_mode=2 irqmode=0 completion_nsec=0"

finish() {
	if [ -n "${qpid:-}" ] && kill -0 "$qpid" 2>/dev/null; then
		kill -9 "$qpid" 2>/dev/null
	fi
	if [ -n "${tmp:-}" ]; then
		if [ "$fail" -gt 0 ] || [ -n "${KEEP:-}" ]; then
			echo "# kept $tmp for a look"
		else
			rm -rf "$tmp"
		fi
	fi
	e2e_summary "vm kexec e2e"
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	bad "vm kexec e2e needs root (QEMU's 9p export of /, the kernel cache)"
	finish
fi
for tool in qemu-system-x86_64 jq depmod dpkg apt-get od dd; do
	command -v "$tool" >/dev/null || { bad "$tool missing (scripts/install-deps)"; finish; }
done
[ -x /usr/sbin/kexec ] || { bad "kexec-tools missing: the guest runs the host's /usr/sbin/kexec (apt-get install kexec-tools)"; finish; }
[ -x /bin/busybox ] || { bad "busybox-static missing (scripts/install-deps)"; finish; }
[ -x "$MKINITRD" ] || { bad "$MKINITRD missing (make BUILD=... \$BUILD/tests/kexec_initramfs)"; finish; }

tmp=$(mktemp -d /tmp/kbench-vm-kexec.XXXXXX)
export KBENCH_CACHE=${KBENCH_CACHE:-/var/cache/kbench}

# watch_qemu PID LOG BOOT_S TOTAL_S: wait for PID (QEMU) to end; kill it
# when a boot hangs or the whole run takes more than TOTAL_S.  Sets hang
# to the reason ("" when QEMU ended by itself) and qrc to its status.
watch_qemu() {
	local pid=$1 log=$2 boot_s=$3 total_s=$4
	local t0 now last nk nb nh pk=0 pb=0 ph=0
	t0=$(date +%s); last=$t0; hang=""
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		nk=$(grep -c "kexec_core: Starting new kernel" "$log" 2>/dev/null)
		nb=$(grep -c "Linux version " "$log" 2>/dev/null)
		nh=$(grep -c "kexec-e2e: hook: " "$log" 2>/dev/null)
		nk=${nk:-0}; nb=${nb:-0}; nh=${nh:-0}	# no log yet
		if [ "$nk" != "$pk" ] || [ "$nb" != "$pb" ] || [ "$nh" != "$ph" ]; then
			last=$now; pk=$nk; pb=$nb; ph=$nh
		fi
		if [ "$nb" -le "$nk" ] && [ $((now - last)) -gt "$boot_s" ]; then
			if [ "$nk" -gt 0 ]; then
				hang="kexec hang: no kernel banner within $boot_s s after 'kexec_core: Starting new kernel' (kexec $nk)"
			else
				hang="boot hang: no kernel banner within $boot_s s of QEMU's start"
			fi
		elif [ "$nb" -gt "$nk" ] && [ "$nh" -lt "$nb" ] && [ $((now - last)) -gt "$boot_s" ]; then
			hang="boot $nb hang: the kernel printed its banner but /init did not start kbench within $boot_s s"
		elif [ $((now - t0)) -gt "$total_s" ]; then
			hang="the guest ran past $total_s s (boot $nb, $nk kexec(s))"
		fi
		if [ -n "$hang" ]; then
			kill -9 "$pid" 2>/dev/null
			break
		fi
	done
	wait "$pid" 2>/dev/null
	qrc=$?
}

# -- the watcher's timeout path, on a console that stops after the kexec
{ echo "Linux version 6.1.0-fake (x@y) #1"; echo "kexec-e2e: hook: fake";
  echo "[    9.9] kexec_core: Starting new kernel"; exec sleep 300; } > "$tmp/fake.log" &
fpid=$!
s0=$(date +%s)
watch_qemu "$fpid" "$tmp/fake.log" 2 60
check "a kexec that hangs fails that boot by timeout, with the reason" \
	'[ "$hang" = "kexec hang: no kernel banner within 2 s after '"'"'kexec_core: Starting new kernel'"'"' (kexec 1)" ] && ! kill -0 "$fpid" 2>/dev/null && [ $(( $(date +%s) - s0 )) -lt 10 ]'

# -- the kernels: fetched and unpacked by kbench (deb: variants, dry run)
cat > "$tmp/fetch.conf" <<EOF
[global]
jobs = randread-4k
iterations = 1
runtime = 2
target = null_blk: $NULLBLK
profiles = $ROOT/profiles
[a]
method = kexec
kernel = deb:linux-image-amd64
[b]
method = kexec
kernel = deb:linux-image-6.12-amd64
EOF
mkdir -p "$tmp/drystate"
KBENCH_STATE_DIR=$tmp/drystate "$KBENCH" run --dry-run -c "$tmp/fetch.conf" \
	-o "$tmp/fetch" > "$tmp/fetch.out" 2> "$tmp/fetch.err"
imgs=$(awk '$1 == "kexec" && $2 == "-l" { print $3 }' "$tmp/fetch.out" | head -2)
ka=$(echo "$imgs" | sed -n 1p); kb=$(echo "$imgs" | sed -n 2p)
case "$ka,$kb" in
*/vmlinuz-6.1.0-*,*/vmlinuz-6.12.*) ok "kbench fetched 6.1 and 6.12 (${ka##*/}, ${kb##*/})" ;;
*) bad "kbench did not fetch both kernels: '$ka' '$kb'"; sed 's/^/# /' "$tmp/fetch.err" | tail; finish ;;
esac
rela=${ka##*/vmlinuz-}; relb=${kb##*/vmlinuz-}
moda=${ka%/boot/*}/lib/modules/$rela; modb=${kb%/boot/*}/lib/modules/$relb

# the image's version string (x86 boot protocol: offset at 0x20E, + 0x200)
bz_version() {
	local off
	off=$(od -An -tu2 -j $((0x20E)) -N2 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=$((off + 0x200)) count=256 2>/dev/null | tr '\0' '\n' | head -1
}
builda=$(bz_version "$ka"); buildb=$(bz_version "$kb")

# -- the guest: /init is the resume hook
cp "$KBENCH" "$tmp/kbench"	# the 9p root hides nothing under $tmp
mkdir -p "$tmp/state"
cat > "$tmp/init" <<EOF
#!/bin/busybox sh
# tests/vm_kexec_e2e.sh's /init: on every boot, the hook that resumes
# the kexec campaign (no systemd here)
/bin/busybox --install -s /bin
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
say() { echo "kexec-e2e: \$*"; }
fail() { say "error: \$*"; sync; poweroff -f; }
rel=\$(uname -r)
say "boot on \$rel, /init from the initrd, cmdline: \$(cat /proc/cmdline)"
[ -d /modules/\$rel ] || fail "no modules for \$rel in this initramfs"
for m in /modules/\$rel/*.ko; do
	case \$m in
	*-null_blk.ko) insmod \$m $NULLBLK || fail "insmod \$m" ;;
	*) insmod \$m || fail "insmod \$m" ;;
	esac
done
R=/mnt/root
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro hostroot \$R || fail "9p hostroot"
mount -t proc proc \$R/proc
mount -t sysfs sysfs \$R/sys
mount -t devtmpfs devtmpfs \$R/dev
mount -t tmpfs tmpfs \$R/tmp
mount -t tmpfs tmpfs \$R/run
mkdir -p \$R$tmp	# under the tmpfs /tmp
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,rw kbtest \$R$tmp || fail "9p kbtest"
say "hook: kbench run -o $tmp/camp"
chroot \$R /usr/bin/env -i PATH="\$PATH" HOME=/root TERM=dumb \\
	KBENCH_STATE_DIR=$tmp/state $tmp/kbench run -c $tmp/kexec.conf -o $tmp/camp
say "kbench run exited with status \$?"
sync
umount \$R$tmp
poweroff -f
EOF
"$MKINITRD" "$tmp/initramfs.cpio" "$tmp/init" "$moda" "$modb" > "$tmp/mkinitrd.out" 2>&1 ||
	{ bad "cannot build the initramfs"; sed 's/^/# /' "$tmp/mkinitrd.out"; finish; }
# the job files where the guest sees them: its /tmp is a tmpfs, so a
# checkout under /tmp (CI's clone may be there) is not in its 9p root view
cp -r "$ROOT/profiles" "$tmp/profiles"
cat > "$tmp/kexec.conf" <<EOF
[global]
jobs = randread-4k
warmup = 1
iterations = 1
runtime = 2
order = interleave
target = null_blk: $NULLBLK
profiles = $tmp/profiles

[a]
method = kexec
kernel = $ka
initrd = $tmp/initramfs.cpio

[b]
method = kexec
kernel = $kb
initrd = $tmp/initramfs.cpio
EOF

echo "# booting $rela; kexecs to $relb (TCG; a few minutes)"
# thread=single: one host thread for both vCPUs, as kbench's own TCG
# guests (runner/driver_vm.c): Linux 6.12's text patching hit stale int3s
# with a thread per vCPU
start=$(date +%s)
qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
	-machine pc -accel tcg,thread=single -cpu max -m 1024 -smp 2 \
	-kernel "$ka" -initrd "$tmp/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 loglevel=6" \
	-serial "file:$tmp/console.log" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$tmp,mount_tag=kbtest,security_model=none,multidevs=remap" \
	> "$tmp/qemu.log" 2>&1 &
qpid=$!
watch_qemu "$qpid" "$tmp/console.log" "$BOOT_TIMEOUT" "$TOTAL_TIMEOUT"
qpid=
secs=$(( $(date +%s) - start ))
echo "# guest ran ${secs}s (QEMU exit $qrc)"
C=$tmp/console.txt	# the serial console's lines end with \r\n
tr -d '\r' < "$tmp/console.log" > "$C"
D=$tmp/camp
check "no boot hung, the guest powered itself off${hang:+ (}${hang}${hang:+)}" \
	'[ -z "$hang" ] && [ "$qrc" -eq 0 ]'
banners=$(grep -o "Linux version [^ ]*" "$C" | awk '{ print $3 }' | tr '\n' ' ')
echo "# kernel banners: $banners"
check "kernel banners go 6.1 6.12 6.1 6.12 (the plan: a b a b)" \
	'[ "$banners" = "$rela $relb $rela $relb " ]'
check "three real kexecs (kexec_core: Starting new kernel)" \
	'[ "$(grep -c "kexec_core: Starting new kernel" "$C")" -eq 3 ]'
check "kbench used kexec -e (no systemd in the guest)" \
	'[ "$(grep -c "kexec: rebooting into .* with kexec -e" "$C")" -eq 3 ]'
# the markers kbench announced before each kexec, and each new boot's cmdline
markers=$(grep -o "with kexec -e (kbench.campaign=[0-9a-f]*)" "$C" | sed 's/.*(\(.*\))/\1/')
cmdlines=$(grep "kexec-e2e: boot on" "$C" | sed 's/.*cmdline: //' | tail -n +2)
i=0; good=0
for m in $markers; do
	i=$((i + 1))
	l=$(echo "$cmdlines" | sed -n ${i}p)
	case " $l " in *" console=ttyS0 "*" $m "*) good=$((good + 1)) ;; *) echo "# boot $((i + 1)): cmdline '$l', marker $m" ;; esac
done
check "each kexec'd kernel's /init came from the initrd, its cmdline keeps console=ttyS0 and holds the announced marker" \
	'[ "$(grep -c "kexec-e2e: boot on .*/init from the initrd" "$C")" -eq 4 ] && [ "$good" -eq 3 ]'
check "marker, release, build and target checked on every kexec'd boot" \
	'[ "$(grep -c "kexec: variant [ab] verified on kexec boot [123]: uname -r .*, marker kbench.campaign=[0-9a-f]* in /proc/cmdline, /proc/version is the image.s build; target: no serial/WWN" "$C")" -eq 3 ]'
check "variant a ran on the first boot without a kexec (build checked)" \
	'grep -q "kexec: variant a is the running kernel (booted without kexec" "$C"'
check "kbench finished the campaign in the guest (exit status 0) and powered it off" \
	'[ "$(grep "kexec-e2e: kbench run exited with status" "$C")" = "kexec-e2e: kbench run exited with status 0" ]'
check "state.json: the 4 runs ok" \
	'[ "$(jq "[.runs[] | select(.status == \"ok\")] | length" "$D/state.json")" = 4 ] &&
	 [ "$(jq ".runs | length" "$D/state.json")" = 4 ]'
# run -> variant, kexec boot
runmeta() { jq -r "[.status, .kernel_release, .proc_version, (.kexec.boot|tostring), (.kexec.marker // \"-\")] | join(\"|\")" "$D/runs/$1/randread-4k/$2/metrics.json" 2>/dev/null; }
pv_matches() {	# /proc/version vs the image's "REL (WHO) #BUILD..."
	local pv=$1 b=$2 rel who ver
	rel=${b%% *}; who=$(echo "$b" | sed 's/^[^ ]* (\([^)]*\)).*/\1/'); ver="#${b#*#}"
	case "$pv" in "Linux version $rel ($who) "*" $ver") return 0 ;; esac
	return 1
}
n=0
m1=$(echo "$markers" | sed -n 1p); m2=$(echo "$markers" | sed -n 2p); m3=$(echo "$markers" | sed -n 3p)
m1=${m1:-?}; m2=${m2:-?}; m3=${m3:-?}
for want in "a 000 $rela 0 -" "b 000 $relb 1 $m1" "a 001 $rela 2 $m2" "b 001 $relb 3 $m3"; do
	set -- $want
	IFS='|' read -r st krel pv kboot kmark <<< "$(runmeta "$1" "$2")"
	b=$builda; [ "$1" = b ] && b=$buildb
	if [ "$st" = ok ] && [ "$krel" = "$3" ] && pv_matches "$pv" "$b" && [ "$kboot" = "$4" ] && [ "$kmark" = "$5" ]; then
		n=$((n + 1))
	else
		echo "# run $1/$2: $st $krel boot $kboot marker $kmark; /proc/version $pv; want $3 boot $4 $5, build $b"
	fi
done
check "each run's metrics.json: ok, on its variant's kernel (/proc/version is the image's build), its kexec boot and marker" \
	'[ "$n" -eq 4 ]'
check "the kexec state after the campaign: variant b, 3 kexec boots" \
	'[ "$(jq -r "[.variant, .boot, .campaign] | join(\" \")" "$tmp/state/kexec.json")" = "b 3 $D" ]'
check "the report names both kernels' runs" \
	'grep -Eq "^a +[0-9]" "$D/report.txt" && grep -Eq "^b +[0-9]" "$D/report.txt"'
check "on the host: the campaign is complete, nothing left to run (exit 0)" \
	'KBENCH_STATE_DIR=$tmp/state "$KBENCH" run -o "$D" > "$tmp/host.out" 2>&1'
if [ "$fail" -gt 0 ]; then
	echo "# console log: $C"
	grep -E "kexec-e2e|kbench|Linux version|kexec_core|Kernel panic" "$C" | tail -40 | sed 's/^/# /'
fi
finish
