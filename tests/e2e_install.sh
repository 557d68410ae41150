#!/bin/bash
# tests/e2e_install.sh - `make install PREFIX=$tmp/usr DESTDIR=`, then the
# installed binary, run from another directory with a kernels.conf that
# has no `profiles =`, finds the installed job files (beside the binary:
# PREFIX/share/kbench/profiles), the compiled-in prefix when the binary is
# copied elsewhere, KBENCH_PROFILES before both, and the "no job file"
# error names every place it looked and how to fix it
# (parsers/kconf.h, kconf_find_profiles).  Needs no root: a plain build
# of its own (BUILD=$tmp/build, -O0: about 10 s on 2 cores).
# Closing line: "install: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
repo=$(pwd)
# not in memory: install-resume refuses a binary or campaign on a tmpfs,
# which the kexec empties (a /tmp of tmpfs on many systems)
base=/tmp
for d in /tmp /var/tmp "$repo"; do
	case $(stat -f -c %T "$d" 2>/dev/null) in
	tmpfs|ramfs) ;;
	*) base=$d; break ;;
	esac
done
tmp=$(mktemp -d "$base/kbench-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
usr=$tmp/usr

env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C "$repo" install \
	PREFIX="$usr" DESTDIR= BUILD="$tmp/build" SANITIZE= CFLAGS=-O0 \
	>"$tmp/make.log" 2>&1
rc=$?
[ $rc -eq 0 ] || cat "$tmp/make.log"
check "make install PREFIX=$usr DESTDIR= (exit $rc)" \
	"[ $rc -eq 0 ] && [ -x '$usr/bin/kbench' ] && [ -f '$usr/share/kbench/profiles/randread-4k.fio' ] && [ -f '$usr/share/man/man1/kbench.1' ] && [ -f '$usr/share/man/man1/kbench-run.1' ] && [ -f '$usr/share/man/man1/kbench-install-resume.1' ]"
check "... with the bash and zsh completions" \
	"grep -q '^complete -F _kbench kbench' '$usr/share/bash-completion/completions/kbench' && grep -q '^#compdef kbench' '$usr/share/zsh/site-functions/_kbench'"

mkdir -p "$tmp/work" "$tmp/elsewhere" "$tmp/mine"
cat >"$tmp/work/kernels.conf" <<CONF
[global]
jobs = randread-4k seqwrite-1m-direct
runtime = 1
target = file:$tmp/work/target

[running]
method = local
CONF
cd "$tmp/elsewhere" || exit 1

"$usr/bin/kbench" plan -c "$tmp/work/kernels.conf" >"$tmp/plan1.out" 2>&1
rc=$?
check "installed kbench plan from another directory (exit $rc)" \
	"[ $rc -eq 0 ] && grep -q '2 job(s)' '$tmp/plan1.out'"
check "... with the installed job files, found beside the binary" \
	"grep -qF 'job files: $usr/share/kbench/profiles (beside the binary $usr/bin/kbench)' '$tmp/plan1.out'"

cp "$usr/bin/kbench" "$tmp/elsewhere/kbench"
"$tmp/elsewhere/kbench" plan -c "$tmp/work/kernels.conf" >"$tmp/plan2.out" 2>&1
check "a copy outside PREFIX/bin: the prefix it was built for" \
	"grep -qF 'job files: $usr/share/kbench/profiles (the install prefix $usr)' '$tmp/plan2.out'"

cp "$repo/profiles/randread-4k.fio" "$repo/profiles/seqwrite-1m-direct.fio" "$tmp/mine/"
KBENCH_PROFILES="$tmp/mine" "$usr/bin/kbench" plan -c "$tmp/work/kernels.conf" \
	>"$tmp/plan3.out" 2>&1
check "KBENCH_PROFILES comes before the installed ones" \
	"grep -qF 'job files: $tmp/mine (the environment variable KBENCH_PROFILES)' '$tmp/plan3.out'"

mkdir "$tmp/work/profiles"
cp "$repo/profiles/randread-4k.fio" "$tmp/work/profiles/"
"$usr/bin/kbench" plan -c "$tmp/work/kernels.conf" >"$tmp/plan4.out" 2>"$tmp/plan4.err"
rc=$?
check "profiles/ next to kernels.conf comes first; a job it lacks is an error (exit $rc)" \
	"[ $rc -eq 1 ] && grep -q \"job 'seqwrite-1m-direct': no job file $tmp/work/profiles/seqwrite-1m-direct.fio\" '$tmp/plan4.err'"
check "... naming every place looked, what each holds, and the fix" \
	"grep -qF '$tmp/work/profiles/seqwrite-1m-direct.fio (next to $tmp/work/kernels.conf): no such file [used]' '$tmp/plan4.err' && grep -qF '$usr/share/kbench/profiles/seqwrite-1m-direct.fio (beside the binary $usr/bin/kbench): has it' '$tmp/plan4.err' && grep -qF 'set profiles = DIR' '$tmp/plan4.err' && grep -qF 'e.g. profiles = $usr/share/kbench/profiles' '$tmp/plan4.err'"

# install-resume: the unit holds a campaign directory with a space, '%'
# and '$' as one ExecStart word (systemd.service(5) quoting: "..." with
# %% and $$), and refuses a file given as the directory
odd="$tmp/kexec camp%1\$HOME"
mkdir -p "$odd" "$tmp/units"
"$usr/bin/kbench" install-resume --unit-dir "$tmp/units" "$odd" \
	>/dev/null 2>"$tmp/ir.err"
rc=$?
check "install-resume DIR with ' ', '%', '\$': one quoted ExecStart word (exit $rc)" \
	"[ $rc -eq 0 ] && grep -qxF 'ExecStart=\"$usr/bin/kbench\" run -o \"$tmp/kexec camp%%1\$\$HOME\"' '$tmp/units/kbench-resume.service'"
"$usr/bin/kbench" install-resume --unit-dir "$tmp/units" \
	"$tmp/work/kernels.conf" >/dev/null 2>"$tmp/ir2.err"
rc=$?
check "install-resume FILE: refused, not a directory (exit $rc)" \
	"[ $rc -eq 1 ] && grep -q 'kernels.conf: not a directory' '$tmp/ir2.err'"
# a directory of files that is no campaign: `kbench run -o` refuses it,
# so the boot hook would (a helper's trial installed one for results/ of
# the source tree); an empty one is a campaign to be
mkdir -p "$tmp/notcamp" && echo x >"$tmp/notcamp/x.c"
# ir_fresh BIN DIR ERR: BIN install-resume DIR into $tmp/units, where no
# unit is left from before; its standard error in $tmp/ERR, status in rc
ir_fresh() {
	rm -f "$tmp/units/kbench-resume.service"
	"$1" install-resume --unit-dir "$tmp/units" "$2" >/dev/null 2>"$tmp/$3"
	rc=$?
}
ir_fresh "$usr/bin/kbench" "$tmp/notcamp" ir3.err
check "install-resume DIR holding files and no campaign: refused as run -o refuses it, no unit (exit $rc)" \
	"[ $rc -eq 1 ] && grep -q 'notcamp exists and is not a kbench campaign' '$tmp/ir3.err' && grep -q 'the boot hook (kbench run -o DIR) would refuse it' '$tmp/ir3.err' && [ ! -e '$tmp/units/kbench-resume.service' ]"
# a campaign the hook has nothing to resume, or cannot read: a local
# one, campaign.json {} or a directory of that name; a kexec one is taken
mkdir -p "$tmp/loccamp" "$tmp/objcamp" "$tmp/dircamp/campaign.json" "$tmp/kxcamp"
echo '{"configurations": [{"id": "a", "variant": "a", "method": "local"}]}' >"$tmp/loccamp/campaign.json"
echo '{}' >"$tmp/objcamp/campaign.json"
echo '{"configurations": [{"id": "k", "variant": "k", "method": "kexec"}]}' >"$tmp/kxcamp/campaign.json"
bad=0
for d in loccamp objcamp dircamp; do
	"$usr/bin/kbench" install-resume --unit-dir "$tmp/units" "$tmp/$d" \
		>/dev/null 2>"$tmp/ir-$d.err" && bad=1
	[ -e "$tmp/units/kbench-resume.service" ] && bad=1
done
"$usr/bin/kbench" install-resume --unit-dir "$tmp/units" "$tmp/kxcamp" \
	>/dev/null 2>"$tmp/ir-kx.err"
rc=$?
check "install-resume: a local campaign, campaign.json {} or a directory of that name refused, no unit; a kexec campaign installed (exit $rc)" \
	"[ $bad = 0 ] && grep -q 'its campaign has no method = kexec variant' '$tmp/ir-loccamp.err' && grep -q 'its campaign has no method = kexec variant' '$tmp/ir-objcamp.err' && grep -q 'could not resume it' '$tmp/ir-dircamp.err' && [ $rc -eq 0 ] && grep -qF 'run -o \"$tmp/kxcamp\"' '$tmp/units/kbench-resume.service'"

# a directory whose name is not UTF-8: systemd ignores each line that
# holds it (no ExecStart=, the unit never loads), so it is refused (a
# break-it trial)
nonutf=$(printf '%s/n\377\376' "$tmp")
mkdir -p "$nonutf"
ir_fresh "$usr/bin/kbench" "$nonutf" ir-u8.err
check "install-resume DIR not UTF-8: refused, no unit (exit $rc)" \
	"[ $rc -eq 1 ] && grep -q 'byte 0xff at offset .* is not UTF-8' '$tmp/ir-u8.err' && [ ! -e '$tmp/units/kbench-resume.service' ]"
# KBENCH_STATE_DIR: set in the unit too, for the boot's kbench reads the
# state file there (it read /var/lib/kbench while the unit's condition
# tested the other: a break-it trial), and refused when relative
# (ConditionPathExists= ignores it)
rm -f "$tmp/units/kbench-resume.service"
KBENCH_STATE_DIR=state "$usr/bin/kbench" install-resume --unit-dir \
	"$tmp/units" "$tmp/kxcamp" >/dev/null 2>"$tmp/ir-sr.err"
rc=$?
check "install-resume with a relative KBENCH_STATE_DIR: refused, no unit (exit $rc)" \
	"[ $rc -eq 1 ] && grep -q 'KBENCH_STATE_DIR=state: not an absolute path' '$tmp/ir-sr.err' && [ ! -e '$tmp/units/kbench-resume.service' ]"
sdir="$tmp/st ate%1\$x\"q"
KBENCH_STATE_DIR=$sdir "$usr/bin/kbench" install-resume --unit-dir \
	"$tmp/units" "$tmp/kxcamp" >/dev/null 2>"$tmp/ir-s.err"
rc=$?
check "install-resume with KBENCH_STATE_DIR: the unit tests and passes it (exit $rc)" \
	"[ $rc -eq 0 ] && grep -qxF 'ConditionPathExists=$tmp/st ate%%1\$x\"q/kexec.json' '$tmp/units/kbench-resume.service' && grep -qxF 'Environment=\"KBENCH_STATE_DIR=$tmp/st ate%%1\$x\\\"q\"' '$tmp/units/kbench-resume.service'"
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify "$tmp/units/kbench-resume.service" \
		>"$tmp/ir-verify.out" 2>&1
	rc=$?
	check "... and systemd-analyze verify takes the unit (exit $rc)" \
		"! grep -q 'kbench-resume.service' '$tmp/ir-verify.out'"
fi

# another campaign's unit, and the state file of another campaign's
# kexec under way, which no boot resumes then: each said (a break-it
# trial: replaced silently); the same campaign again: nothing said
mkdir -p "$tmp/kx2" "$tmp/st2"
echo '{"configurations": [{"id": "k", "variant": "k", "method": "kexec"}]}' >"$tmp/kx2/campaign.json"
printf '{"campaign": "%s", "boot": 1}\n' "$tmp/kxcamp" >"$tmp/st2/kexec.json"
KBENCH_STATE_DIR=$tmp/st2 "$usr/bin/kbench" install-resume --unit-dir \
	"$tmp/units" "$tmp/kx2" >/dev/null 2>"$tmp/ir-re.err"
rc=$?
KBENCH_STATE_DIR=$tmp/nostate "$usr/bin/kbench" install-resume \
	--unit-dir "$tmp/units" "$tmp/kx2" >/dev/null 2>"$tmp/ir-re2.err"
rc2=$?
check "install-resume over another campaign's unit and kexec: both said; the same campaign again: not (exit $rc $rc2)" \
	"[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -qF 'kbench-resume.service: replaces the unit that resumed the campaign $tmp/kxcamp' '$tmp/ir-re.err' && grep -qF '$tmp/st2/kexec.json: the kexec state of the campaign $tmp/kxcamp (boot 1): unless that campaign is complete, no boot resumes it' '$tmp/ir-re.err' && grep -qF 'run -o \"$tmp/kx2\"' '$tmp/units/kbench-resume.service' && ! grep -q warning '$tmp/ir-re2.err'"

# a campaign directory or state file in memory (tmpfs: /dev/shm here) is
# empty after the kexec, so the unit could resume nothing: refused (a
# break-it trial installed one)
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	shm=$(mktemp -d /dev/shm/kbench-install.XXXXXX)
	ir_fresh "$usr/bin/kbench" "$shm" ir-shm.err
	r1=$rc
	KBENCH_STATE_DIR=$shm/state "$usr/bin/kbench" install-resume \
		--unit-dir "$tmp/units" "$tmp/kx2" >/dev/null 2>"$tmp/ir-shm2.err"
	r2=$?
	rm -rf "$shm"
	check "install-resume DIR or KBENCH_STATE_DIR on a tmpfs: refused, no unit (exit $r1 $r2)" \
		"[ $r1 -eq 1 ] && [ $r2 -eq 1 ] && grep -qF '$shm: the campaign directory is in memory (tmpfs or ramfs)' '$tmp/ir-shm.err' && grep -qF '$shm/state/kexec.json: the kexec state file is in memory' '$tmp/ir-shm2.err' && [ ! -e '$tmp/units/kbench-resume.service' ]"
else
	skipped "install-resume on a tmpfs: /dev/shm is no tmpfs here"
fi

# the unit runs the binary as root at every boot: a kbench that others
# can replace (in a world-writable directory) is refused (a break-it
# trial installed one)
mkdir -p "$tmp/wdir" && chmod 0777 "$tmp/wdir" && cp "$usr/bin/kbench" "$tmp/wdir/kbench"
ir_fresh "$tmp/wdir/kbench" "$tmp/kxcamp" ir-w.err
check "install-resume run by a kbench in a world-writable directory: refused, no unit (exit $rc)" \
	"[ $rc -eq 1 ] && grep -qF '$tmp/wdir: writable by all (mode 0777)' '$tmp/ir-w.err' && grep -q 'would run this kbench as root at every boot' '$tmp/ir-w.err' && [ ! -e '$tmp/units/kbench-resume.service' ]"

env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C "$repo" uninstall \
	PREFIX="$usr" DESTDIR= BUILD="$tmp/build" >/dev/null 2>&1
check "make uninstall removes what install put there" \
	"[ ! -e '$usr/bin/kbench' ] && [ ! -e '$usr/share/kbench' ] && [ ! -e '$usr/share/man/man1/kbench.1' ] && [ ! -e '$usr/share/man/man1/kbench-run.1' ] && [ ! -e '$usr/share/bash-completion/completions/kbench' ] && [ ! -e '$usr/share/zsh/site-functions/_kbench' ]"

e2e_summary install
