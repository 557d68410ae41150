# tests/e2e_lib.sh - the harness the end-to-end scripts share; sourced.
# Sets KBENCH (absolute), counters pass/fail/skip, and:
#   ok MSG | bad MSG | skipped MSG    count and print one line
#   check MSG EXPR                    ok when `eval EXPR` succeeds
#   e2e_summary NAME                  print "NAME: N passed, N failed[,
#                                     N skipped]" (the closing line CI
#                                     reads); status 0 when none failed
KBENCH=${KBENCH:-build/kbench}
KBENCH=$(readlink -f "$KBENCH")
pass=0; fail=0; skip=0
ok()   { echo "ok   - $1"; pass=$((pass + 1)); }
bad()  { echo "FAIL - $1"; fail=$((fail + 1)); }
skipped() { echo "SKIP: $1"; skip=$((skip + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
e2e_summary() {
	if [ "$skip" -gt 0 ]; then
		echo "$1: $pass passed, $fail failed, $skip skipped"
	else
		echo "$1: $pass passed, $fail failed"
	fi
	[ "$fail" -eq 0 ]
}
# e2e_missing WHAT TOOL...: nothing when running as root with every TOOL
# installed, else why WHAT cannot run (for `skipped`)
e2e_missing() {
	local what=$1 tool
	shift
	if [ "$(id -u)" -ne 0 ]; then
		echo "$what needs root (loop device, sysfs tunables)"
		return
	fi
	for tool in "$@"; do
		command -v "$tool" >/dev/null || { echo "$what needs $tool"; return; }
	done
}
# e2e_wait_runs DIR N: wait (up to 2 minutes: a loaded machine) until the
# campaign in DIR has recorded N runs (state.json); 1 when it never does
e2e_wait_runs() {
	local n
	for _ in $(seq 1 600); do
		n=$(jq '.runs | length' "$1/state.json" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.2
	done
	return 1
}
