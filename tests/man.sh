#!/bin/bash
# tests/man.sh - man/kbench.1 against the binary: every option of every
# command (the option lines of `kbench CMD --help`, which are its
# getopt_long table: tests/completion.sh) is in that command's SYNOPSIS;
# the EXIT STATUS section gives each command the statuses its --help
# lists; EXAMPLES runs only real commands; man(1) renders the page
# without a warning.  About 1 s.  Closing line: "man: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
page=man/kbench.1
# the roff source with \- as -, \fB \fR \fI dropped
src=$(sed 's/\\-/-/g; s/\\f[BIR]//g' "$page")

# the SYNOPSIS lines of a command: from ".B kbench CMD" to the next .br
synopsis() {
	awk -v cmd="$1" '
		/^\.SH/ { in_syn = ($2 == "SYNOPSIS") }
		in_syn && $0 ~ "^\\.B kbench " cmd "( |$)" { on = 1 }
		on && /^\.br/ { on = 0 }
		on { print }' <<<"$src"
}
# the text of the EXIT STATUS entry of a command (".B kbench CMD")
exit_entry() {
	awk -v cmd="$1" '
		/^\.SH/ { in_ex = ($2 " " $3 == "EXIT STATUS") }
		in_ex && /^\.TP/ { on = 0; next }
		in_ex && $0 == ".B kbench " cmd { on = 1; next }
		on { print }' <<<"$src"
}
numbers() { grep -oE '(^|[ (;:,])[0-9]+' | tr -cd '0-9\n' | sort -un | tr '\n' ' '; }

cmds=$("$KBENCH" --help | sed -n 's/^  \([a-z-]*\) .*/\1/p')
check "kbench --help lists the commands" "[ -n '$cmds' ]"
for c in $cmds; do
	helped=$("$KBENCH" "$c" --help | grep -E '^ {2,8}(-[a-zA-Z], )?--[a-z]' |
		sed 's/^ *//; s/  .*//' | grep -oE -- '--[a-z][a-z-]*' |
		grep -vx -- --help | sort -u)
	syn=$(synopsis "$c")
	missing=""
	for o in $helped; do
		grep -q -- "$o\\b" <<<"$syn" || missing="$missing $o"
	done
	check "SYNOPSIS of kbench $c has every option${missing:+ (missing:$missing)}" \
		"[ -n \"\$syn\" ] && [ -z '$missing' ]"

	want=$("$KBENCH" "$c" --help | sed -n '/[Ee]xit status:/,$p' | numbers)
	got=$(exit_entry "$c" | numbers)
	check "EXIT STATUS of kbench $c: $got(--help: $want)" \
		"[ -n '$want' ] && [ '$got' = '$want' ]"
done

bad=$(awk '/^\.SH/ { on = ($2 == "EXAMPLES") } on' <<<"$src" |
	grep -oE '^kbench [a-z-]+' | awk '{ print $2 }' | sort -u |
	while read -r c; do grep -qx -- "$c" <<<"$cmds" || echo "$c"; done)
n=$(awk '/^\.SH/ { on = ($2 == "EXAMPLES") } on' <<<"$src" | grep -c '^kbench ')
check "EXAMPLES: $n command lines, each a kbench command${bad:+ (unknown: $bad)}" \
	"[ $n -ge 10 ] && [ -z '$bad' ]"

if command -v man >/dev/null; then
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	check "man --warnings renders the page cleanly${w:+: $w}" "[ -z \"\$w\" ]"
else
	skipped "no man(1) here to render the page"
fi
e2e_summary man
