#!/bin/bash
# tests/completion.sh - the bash completion (`kbench --completion bash`,
# builtin/completion.c), sourced in `bash --norc` (no bash-completion
# package): commands, options, option values, campaign directories and
# compare's DIR:CONFIGURATION; and every option it offers is the one
# `kbench CMD --help` documents (both come from the same tables); the
# zsh script in an interactive zsh when zsh is installed.  Needs only
# bash; about 2 s (5 more with zsh).  Closing line: "completion: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-compl.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$KBENCH" --completion bash >"$tmp/kbench.bash"
rc=$?
check "kbench --completion bash (exit $rc)" "[ $rc -eq 0 ] && bash -n '$tmp/kbench.bash'"
"$KBENCH" --completion fish >/dev/null 2>&1
rc=$?
check "kbench --completion fish: a usage error (exit $rc)" "[ $rc -eq 2 ]"

# complete LINE: what _kbench returns for LINE (the cursor at its end),
# one candidate a line; the words are split as readline does (at blanks
# and at COMP_WORDBREAKS' ':' and '=')
complete_line() {
	(cd "$tmp/cwd" && bash --norc -c '
		source "$1"
		COMP_LINE=$2
		COMP_POINT=${#2}
		read -ra COMP_WORDS <<<"$(sed "s/[:=]/ & /g" <<<"$2")"
		case $2 in *" "|*:|*=) COMP_WORDS+=("") ;; esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_kbench
		printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp/kbench.bash" "$1")
}
has() { grep -qxF -- "$2" <<<"$1"; }

mkdir -p "$tmp/cwd/results/demo" "$tmp/cwd/results/other" "$tmp/cwd/old"
cp "$repo/tests/data/push/demo/campaign.json" "$tmp/cwd/results/demo/"
cp "$repo/tests/data/push/demo/kernels.conf" "$tmp/cwd/old/"
printf '[global]\njobs = randread-4k\n[stock]\n[patched]\n' >"$tmp/cwd/k.conf"
: >"$tmp/cwd/notes.txt"

r=$(complete_line "kbench report --layout sc")
check "kbench report --layout sc -> scaling" "[ \"\$r\" = scaling ]"
r=$(complete_line "kbench report --layout=sc")
check "kbench report --layout=sc -> scaling" "[ \"\$r\" = scaling ]"
r=$(complete_line "kbench report --prefix a")
check "kbench report --prefix a -> auto" "[ \"\$r\" = auto ]"
r=$(complete_line "kbench ru")
check "kbench ru -> run" "[ \"\$r\" = run ]"
r=$(complete_line "kbench ")
check "kbench: every command, not the internal guest" \
	"has \"\$r\" run && has \"\$r\" install-resume && has \"\$r\" compare && ! has \"\$r\" guest"
r=$(complete_line "kbench he")
check "kbench he -> help" "[ \"\$r\" = help ]"
r=$(complete_line "kbench help ")
check "kbench help: every command, not the internal guest nor help" \
	"has \"\$r\" run && has \"\$r\" report && ! has \"\$r\" guest && ! has \"\$r\" help"
r=$(complete_line "kbench help run ")
check "kbench help run: nothing more" "[ -z \"\$r\" ]"
r=$(complete_line "kbench run -")
check "kbench run - lists --config" "has \"\$r\" --config && has \"\$r\" -c && has \"\$r\" --retry-failed"
r=$(complete_line "kbench run -c ")
check "kbench run -c: the *.conf files (and directories)" \
	"has \"\$r\" k.conf && has \"\$r\" old && ! has \"\$r\" notes.txt"
r=$(complete_line "kbench report --format text,c")
check "report --format text,c -> text,csv" "[ \"\$r\" = text,csv ]"
r=$(complete_line "kbench push --format ")
check "push --format: influx json" "[ \"\$r\" = \$'influx\njson' ]"
r=$(complete_line "kbench compare -m read.clat_p9")
check "compare -m: metric names" "has \"\$r\" read.clat_p99_ns && has \"\$r\" read.clat_p999_ns"
r=$(complete_line "kbench report results/")
check "report DIR: campaign directories" "has \"\$r\" results/demo && has \"\$r\" results/other/"
r=$(complete_line "kbench compare results/demo:")
check "compare DIR: -> the campaign's configurations" \
	"[ \"\$r\" = \$'running,NM=0\nrunning,NM=1\nrunning,NM=2' ]"
r=$(complete_line "kbench compare results/demo:running,NM=")
check "compare DIR:running,NM= -> the values (the word goes on after '=')" "[ \"\$r\" = \$'0\n1\n2' ]"
r=$(complete_line "kbench compare old:")
check "compare DIR: without campaign.json -> kernels.conf's variants" "[ \"\$r\" = running ]"
r=$(complete_line "kbench report --alpha ")
check "an option's free value completes nothing" "[ -z \"\$r\" ]"

# every option completion offers is one --help documents, and back
for c in $("$KBENCH" --help | sed -n 's/^  \([a-z-]*\) .*/\1/p'); do
	[ "$c" = guest ] && continue
	offered=$(complete_line "kbench $c --" | sort -u)
	# the option lines: "  -c, --config FILE  text", "      --rows DIM, --cols DIM  text"
	helped=$("$KBENCH" "$c" --help | grep -E '^ {2,8}(-[a-zA-Z], )?--[a-z]' |
		sed 's/^ *//; s/  .*//' | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	extra=$(comm -23 <(echo "$offered") <(echo "$helped") | tr '\n' ' ')
	missing=$(comm -13 <(echo "$offered") <(echo "$helped") | tr '\n' ' ')
	check "kbench $c: completion offers the options --help lists${extra:+ (not in --help: $extra)}${missing:+ (not offered: $missing)}" \
		"[ -z '$extra' ] && [ -z '$missing' ]"
done

# zsh (when installed): the same function under bashcompinit, driven in
# an interactive zsh on a pseudo-terminal (a TAB after the words)
if command -v zsh >/dev/null && command -v python3 >/dev/null; then
	mkdir -p "$tmp/zsh"
	"$KBENCH" --completion zsh >"$tmp/zsh/_kbench"
	r=$(ZDIR="$tmp/zsh" python3 - 'kbench report --layout sc' <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.environ['HOME'] = os.environ['ZDIR']
    os.execvp('zsh', ['zsh', '-f', '-i'])
def read_until(marker, secs):
    # read until marker shows up (or secs pass: a loaded machine may
    # take seconds to run compinit; no fixed sleep decides the result)
    out, end = b'', time.time() + secs
    while time.time() < end and marker not in out:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out
read_until(b'\x00', 0.3)
os.write(fd, b"PS1='> '; fpath=($ZDIR $fpath); autoload -U compinit; "
         b"compinit -u -D; print kb-ready-$((6*7))\n")
read_until(b'kb-ready-42', 60)
os.write(fd, sys.argv[1].encode() + b"\t")
out = read_until(b'--layout scaling', 30).decode(errors='replace')
os.write(fd, b"\x15exit\n")
read_until(b'\x00', 0.5)
print(out)
PY
)
	check "zsh: kbench report --layout sc -> scaling" \
		"grep -q 'kbench report --layout scaling' <<<\"\$r\""
else
	skipped "zsh completion: no zsh here"
fi

e2e_summary completion
