#!/bin/bash
# tests/man.sh - man/kbench.1 against the binary: every option of every
# command (the option lines of `kbench CMD --help`, which are its
# getopt_long table: tests/completion.sh) is in that command's SYNOPSIS;
# the EXIT STATUS section gives each command the statuses its --help
# lists; EXAMPLES runs only real commands; the page of each command
# (scripts/gen-manpage, kbench-CMD(1)) has every option and the exit
# statuses; man(1) renders every page without a warning.  About 2 s.  Closing line: "man: N passed, N failed".
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

# KERNELS.CONF documents every key of the parser's table (kbench run
# --help-keys prints parsers/kconf.c's kconf_opts[]: "  KEY  help", or
# "  task group NAME = ..." for the keys followed by a name)
conf_sec=$(awk '/^\.SH/ { on = ($2 == "KERNELS.CONF") } on' <<<"$src")
keys=$("$KBENCH" run --help-keys | awk '/^  [a-z]/ { k = ($1 == "task" ? "task group" : $1); sub(/@HOST$/, "@", k); print k }' | sort -u)
undoc=""
while read -r k; do
	grep -qw -- "$k" <<<"$conf_sec" || undoc="$undoc '$k'"
done <<<"$keys"
nkeys=$(grep -c . <<<"$keys")
check "KERNELS.CONF documents the $nkeys keys of kbench run --help-keys${undoc:+ (missing:$undoc)}" \
	"[ $nkeys -ge 40 ] && [ -z \"$undoc\" ]"

bad=$(awk '/^\.SH/ { on = ($2 == "EXAMPLES") } on' <<<"$src" |
	grep -oE '^kbench [a-z-]+' | awk '{ print $2 }' | sort -u |
	while read -r c; do grep -qx -- "$c" <<<"$cmds" || echo "$c"; done)
n=$(awk '/^\.SH/ { on = ($2 == "EXAMPLES") } on' <<<"$src" | grep -c '^kbench ')
check "EXAMPLES: $n command lines, each a kbench command${bad:+ (unknown: $bad)}" \
	"[ $n -ge 10 ] && [ -z '$bad' ]"

# one page per command (scripts/gen-manpage), for every command but the
# internal guest, each with its options and exit statuses
tmp=$(mktemp -d /tmp/kbench-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pages=("$page")
listed=$(sed -n 's/^MAN_CMDS := //p' Makefile)
for c in $cmds; do
	[ "$c" = guest ] && continue
	check "the Makefile's MAN_CMDS has kbench-$c(1)" "grep -qw -- '$c' <<<'$listed'"
	scripts/gen-manpage "$KBENCH" "$c" >"$tmp/kbench-$c.1"
	rc=$?
	gen=$(sed 's/\\-/-/g' "$tmp/kbench-$c.1")
	opts=$(awk '/^\.SH/ { on = ($2 == "OPTIONS") } on && /^\.B / { print }' <<<"$gen")
	missing=""
	for o in $("$KBENCH" "$c" --help | grep -E '^ {2,8}(-[a-zA-Z], )?--[a-z]' |
		sed 's/^ *//; s/  .*//' | grep -oE -- '--[a-z][a-z-]*'); do
		grep -q -- "$o\\b" <<<"$opts" || missing="$missing $o"
	done
	check "kbench-$c(1): NAME, SYNOPSIS, OPTIONS${missing:+ (missing:$missing)}, EXIT STATUS" \
		"[ $rc -eq 0 ] && grep -q '^kbench-$c - ' <<<\"\$gen\" && grep -q '^\.B kbench $c' <<<\"\$gen\" && [ -z '$missing' ] && grep -q '^\.SH EXIT STATUS' <<<\"\$gen\""
	# the DESCRIPTION starts with --help's first paragraph, whole (a
	# "Word word: " start was once taken for a heading and dropped)
	first=$("$KBENCH" "$c" --help | awk 'NR > 1 && /^[A-Z]/ { print $1, $2, $3; exit }')
	desc=$(awk '/^\.SH DESCRIPTION/ { getline; print; exit }' <<<"$gen")
	starts=0
	[ -n "$first" ] && case "$desc" in "$first"*) starts=1 ;; esac
	check "kbench-$c(1): the DESCRIPTION starts as --help's does (${first//\`/})" \
		"[ $starts = 1 ]"
	pages+=("$tmp/kbench-$c.1")
done

if command -v man >/dev/null; then
	for p in "${pages[@]}"; do
		w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)
		check "man --warnings renders $(basename "$p") cleanly${w:+: $w}" "[ -z \"\$w\" ]"
	done
else
	skipped "no man(1) here to render the pages"
fi
# a mistyped option: getopt's line naming it and where the help is, not
# the whole --help (a 40-line screen that hid the one line that mattered);
# getopt's line names the program "kbench CMD", not "CMD" alone (parse
# words its own: "kbench: error: parse: ...")
bad=""
for c in $cmds; do
	"$KBENCH" "$c" --no-such-option >/dev/null 2>"$tmp/badopt.err" && bad="$bad $c(exit 0)"
	[ "$(wc -l <"$tmp/badopt.err")" -le 2 ] && grep -q -- "no-such-option" "$tmp/badopt.err" &&
		grep -q "kbench $c --help" "$tmp/badopt.err" &&
		head -n1 "$tmp/badopt.err" | grep -qE "^kbench(: error:)? $c: " || bad="$bad $c"
done
rm -f "$tmp/badopt.err"
check "kbench CMD --no-such-option: 'kbench CMD: ' naming it and 'kbench CMD --help' in at most 2 lines, exit non-zero${bad:+ (not:$bad)}" "[ -z '$bad' ]"
# kbench help CMD, as git's (SYNOPSIS: "kbench help COMMAND"): CMD's
# --help (a new user's trial: it printed kbench's usage, CMD ignored)
bad=""
for c in $cmds; do
	cmp -s <("$KBENCH" help "$c" 2>&1) <("$KBENCH" "$c" --help 2>&1) || bad="$bad $c"
done
"$KBENCH" help no-such-command >/dev/null 2>"$tmp/nohelp.err"
rc=$?
check "kbench help CMD prints kbench CMD --help${bad:+ (not:$bad)}; an unknown CMD is exit 2 ($rc), named" \
	"[ -z '$bad' ] && [ $rc -eq 2 ] && grep -q \"'no-such-command' is not a kbench command\" '$tmp/nohelp.err' && grep -qx '.B kbench help' <<<\"\$(synopsis help)\""

e2e_summary man
