#!/bin/bash
# tests/deb_e2e.sh - the Debian package end to end: build it with
# `dpkg-buildpackage -us -uc -b` in a copy of the tree under /tmp (the
# source tree stays clean), check it with lintian (no error or warning),
# `dpkg -i` it, then, from another directory, run the INSTALLED binary
# with its installed job files: `kbench plan -c` and a one-run campaign
# on a file target; the man page and completions are where man and bash
# look; `dpkg -r kbench` at the end (also when a step fails).
# Needs root (dpkg -i), dpkg-buildpackage, debhelper and lintian
# (scripts/install-deps installs them); prints a SKIP line otherwise.
# Cost on 2 cores: about 1 minute (the build, then lintian).
# Closing line: "deb: N passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
repo=$(pwd)
installed=0
finish() {
	if [ "$installed" = 1 ]; then
		dpkg -r kbench >/dev/null 2>&1
	fi
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary deb
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	skipped "the package test needs root (dpkg -i)"
	finish
fi
for tool in dpkg-buildpackage dh lintian fio git; do
	if ! command -v $tool >/dev/null; then
		skipped "the package test needs $tool (scripts/install-deps installs it)"
		finish
	fi
done
if dpkg-query -W -f='${Status}' kbench 2>/dev/null | grep -q ' installed'; then
	skipped "a kbench package is already installed; dpkg -r kbench first (this test installs and removes its own)"
	finish
fi

version=$(dpkg-parsechangelog -l "$repo/debian/changelog" -S Version)
tmp=$(mktemp -d /tmp/kbench-deb.XXXXXX)
src=$tmp/kbench-$version
mkdir "$src"
# the tracked and new files, as a commit would have them (no build/)
git -C "$repo" ls-files -z -co --exclude-standard |
	(cd "$repo" && tar --null -T - -cf -) | tar -C "$src" -xf -

(cd "$src" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
	dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -30 "$tmp/build.log"
deb=$tmp/kbench_${version}_$(dpkg --print-architecture).deb
check "dpkg-buildpackage -us -uc -b (exit $rc)" "[ $rc -eq 0 ] && [ -f '$deb' ]"
[ -f "$deb" ] || finish
check "the source tree stays clean (the build ran in $src)" \
	"[ ! -e '$repo/debian/kbench' ] && [ ! -e '$repo/debian/files' ]"

lintian --fail-on error,warning "$tmp"/kbench_*.changes >"$tmp/lintian.out" 2>&1
rc=$?
grep -v '^running with root privileges' "$tmp/lintian.out"
check "lintian: no error or warning (exit $rc)" "[ $rc -eq 0 ]"

contents=$(dpkg -c "$deb")
check "the package holds the binary, the job files, the man pages, the completions" \
	"grep -q ' ./usr/bin/kbench$' <<<\"\$contents\" && grep -q ' ./usr/share/kbench/profiles/randread-4k.fio$' <<<\"\$contents\" && grep -q ' ./usr/share/man/man1/kbench.1.gz$' <<<\"\$contents\" && grep -q ' ./usr/share/man/man1/kbench-compare.1.gz$' <<<\"\$contents\" && grep -q ' ./usr/share/bash-completion/completions/kbench$' <<<\"\$contents\" && grep -q ' ./usr/share/zsh/vendor-completions/_kbench$' <<<\"\$contents\""
check "the static guest binary (/usr/libexec/kbench/kbench-guest), Built-Using its libraries' sources ($(dpkg-deb -f "$deb" Built-Using))" \
	"grep -q ' ./usr/libexec/kbench/kbench-guest$' <<<\"\$contents\" && dpkg-deb -f '$deb' Built-Using | grep -q 'gsl (= ' && dpkg-deb -f '$deb' Built-Using | grep -q 'glibc (= '"
depends=$(dpkg-deb -f "$deb" Depends)
# libcurl4 by name: kbench loads it with dlopen (push/curl_dl.h), so
# dpkg-shlibdeps does not see it
check "Depends: fio and the libraries, libcurl4 included (${depends})" \
	"grep -q 'fio' <<<\"\$depends\" && grep -q 'libjansson4' <<<\"\$depends\" && grep -q 'libgsl' <<<\"\$depends\" && grep -q 'libcurl4' <<<\"\$depends\""

dpkg -i "$deb" >"$tmp/dpkg-i.out" 2>&1
rc=$?
[ $rc -eq 0 ] && installed=1
[ $rc -eq 0 ] || cat "$tmp/dpkg-i.out"
check "dpkg -i (exit $rc)" "[ $rc -eq 0 ] && [ -x /usr/bin/kbench ]"
[ "$installed" = 1 ] || finish

mkdir -p "$tmp/elsewhere" "$tmp/conf"
cat >"$tmp/conf/kernels.conf" <<CONF
[global]
jobs = randread-4k
iterations = 1
warmup = 0
runtime = 1
target = file:$tmp/target

[running]
method = local
CONF
cd "$tmp/elsewhere" || finish
/usr/bin/kbench plan -c "$tmp/conf/kernels.conf" >"$tmp/plan.out" 2>&1
rc=$?
check "installed kbench plan -c from another directory (exit $rc)" \
	"[ $rc -eq 0 ] && grep -q '= 1 runs of 1 s' '$tmp/plan.out'"
check "... uses the installed job files" \
	"grep -qF 'job files: /usr/share/kbench/profiles (beside the binary /usr/bin/kbench)' '$tmp/plan.out'"
/usr/bin/kbench run -q -c "$tmp/conf/kernels.conf" -o "$tmp/camp" \
	>"$tmp/run.out" 2>&1
rc=$?
[ $rc -eq 0 ] || cat "$tmp/run.out"
check "installed kbench run: one run of 1 s on a file target (exit $rc)" \
	"[ $rc -eq 0 ] && [ -f '$tmp/camp/runs/running/randread-4k/000/fio.json' ] && [ -f '$tmp/camp/report.txt' ]"
# dh_strip must keep the build ID kbench matches its guest binary by
# (runner/guest_binary.h)
check "the installed kbench and kbench-guest share one build ID" \
	'a=$(readelf -n /usr/bin/kbench | sed -n "s/.*Build ID: //p"); b=$(readelf -n /usr/libexec/kbench/kbench-guest | sed -n "s/.*Build ID: //p"); [ -n "$a" ] && [ "$a" = "$b" ]'
check "... with the installed job file" \
	"cmp -s /usr/share/kbench/profiles/randread-4k.fio '$tmp/camp/profiles/randread-4k.fio'"
if command -v man >/dev/null; then
	check "man kbench finds the installed page" \
		"[ \"\$(man -w kbench 2>/dev/null)\" = /usr/share/man/man1/kbench.1.gz ]"
else
	check "the man page is installed" "[ -f /usr/share/man/man1/kbench.1.gz ]"
fi
r=$(bash --norc -c 'source /usr/share/bash-completion/completions/kbench
	COMP_WORDS=(kbench report --layout sc); COMP_CWORD=3; _kbench
	echo "${COMPREPLY[*]}"')
check "the installed bash completion: kbench report --layout sc -> scaling" \
	"[ \"\$r\" = scaling ]"
cd "$repo" || finish

dpkg -r kbench >"$tmp/dpkg-r.out" 2>&1
rc=$?
[ $rc -eq 0 ] && installed=0
check "dpkg -r kbench (exit $rc) removes the binary and the job files" \
	"[ $rc -eq 0 ] && [ ! -e /usr/bin/kbench ] && [ ! -e /usr/share/kbench ]"
finish
