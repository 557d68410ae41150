#!/bin/bash
# tests/check_truth.sh - `make check-truth` (issue 13, "Calibration and
# proof"): kbench's verdicts against the truth, with real runs on a loop
# device.  Needs root; prints a SKIP line otherwise.
#
#  1. A/A: one campaign of 30 pairs of identical configurations (sweep
#     copy = 1..30 x sweep side = a b, the sweeps only name the
#     configurations: the job file does not use them), 2 interleaved
#     rounds of 1 s (rotating positions; retry_disturbed = 0: the test
#     must hold on a noisy machine as it is).  The 30 comparisons
#     `kbench compare DIR:running,copy=K,side=a DIR:running,copy=K,side=b`
#     share no run; each is a paired t-test on 2 rounds.  Under a correct
#     test each has p < 0.05 with probability 0.05: fail when more than 4
#     of 30 do (P(X > 4) = 1.6% for X ~ Binomial(30, 0.05): a correct
#     test fails this check 1.6% of the time).
#  2. A known slowdown: fio's rate_iops (tests/data/truth/
#     randread-4k-rate.fio, sweep rate = 0 CAP), CAP under the 10th
#     percentile of step 1's read.iops by three times the minimum
#     detectable effect
#     of 10 paired rounds at step 1's spread (the sd of its per-round log
#     ratios), at least 5% and at most 60%: a few percent on a quiet
#     machine, more on a busy one, always findable in 10 rounds (runs
#     that were slower than the cap anyway make the true size smaller
#     than the cap says, so it is measured, not assumed): 10 interleaved
#     rounds of base and capped, disturbed
#     rounds retried once.  When the true size comes out under half the
#     slowdown meant (the machine slowed between the steps and the cap
#     hardly bit), or kbench compare cannot decide (exit 125: a cap the
#     machine met on some runs only made two modes), once more with the
#     cap under the lowest of that campaign's own uncapped runs, at most
#     3 campaigns; the checks judge the last.  The true size: the ratio of geometric means
#     over the rounds where neither run was disturbed, computed here with
#     jq from the runs' read.iops (not by kbench's statistics code); on a
#     machine busy throughout (fewer than 3 quiet rounds, as on the
#     shared 2-vCPU VM this was written on, where PSI marks every run)
#     over every counted round, and the output says so.
#     kbench compare must call it a regression (exit 1), with a negative
#     change whose 95% CI covers the true size.
#
# What keeps it steady on a shared machine: pairing by round (a load that
# comes and goes hits both runs of a round), rotation (neither side
# always runs first), a slowdown several times the round-to-round spread
# of the machine measured in step 1 (CV up to 40% on this 2-vCPU VM
# under other engineers' builds).
# Cost on 2 cores: about 5 minutes, 5.5 on a busy 2-vCPU VM, a minute
# more for each time the slowdown campaign runs again (step 1: 120
# runs of 1 s, 1.5-2 s each; step 2: 22-44 runs).  Closing line: "truth:
# N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
finish() {
	[ -n "${tmp:-}" ] && [ -z "${KEEP:-}" ] && rm -rf "$tmp"
	e2e_summary truth
	exit $?
}
why=$(e2e_missing "check-truth" fio jq losetup awk)
[ -z "$why" ] || { skipped "$why"; finish; }
repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-truth.XXXXXX)
[ -n "${KEEP:-}" ] && echo "truth: files in $tmp"

# --- 1. 30 disjoint A/A comparisons ---
cat >"$tmp/aa.conf" <<CONF
[global]
jobs = randread-4k
iterations = 2
warmup = 0
runtime = 1
target = loop:64M
retry_disturbed = 0
profiles = $repo/profiles
sweep copy = $(seq -s ' ' 1 30)
sweep side = a b

[running]
method = local
CONF
"$KBENCH" run -q -c "$tmp/aa.conf" -o "$tmp/aa" >/dev/null 2>"$tmp/aa.err"
rc=$?
check "A/A campaign: 120 runs, exit 0 (got $rc)" \
	"[ $rc -eq 0 ] && [ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $tmp/aa/results.json)\" = 120 ]"
[ $rc -eq 0 ] || tail -5 "$tmp/aa.err"
low=0; tested=0; ps=""
for k in $(seq 1 30); do
	"$KBENCH" compare --metric read.iops "$tmp/aa:running,copy=$k,side=a" \
		"$tmp/aa:running,copy=$k,side=b" >"$tmp/cmp$k.out" 2>&1
	# the verdict table's row: metric, p adj, rank p, n (base/new), ...
	p=$(awk '$1 == "read.iops" && $4 ~ /^[0-9]+\/[0-9]+$/ { print $2; exit }' "$tmp/cmp$k.out")
	grep -q 'analysis: paired by round' "$tmp/cmp$k.out" || p=unpaired
	case $p in
	''|n/a|unpaired) continue ;;
	esac
	tested=$((tested + 1))
	ps="$ps $p"
	awk -v p="$p" 'BEGIN { exit !(p + 0 < 0.05) }' && low=$((low + 1))
done
echo "truth: A/A p values:$ps"
check "30 A/A comparisons made, paired by round (got $tested)" "[ $tested -eq 30 ]"
check "A/A: at most 4 of 30 with p < 0.05 (got $low)" "[ $low -le 4 ]"

# --- 2. a known slowdown injected through the job ---
# the rate to cap under: step 1's 10th percentile, not its median, so
# that an uncapped run slower than usual is still above the cap (else
# the slowdown shrinks: a CI run here capped 19% under the median and
# the true size came out -7%, not significant in 10 rounds)
rate=$(jq '[.runs[] | select(.status == "ok") | .metrics["read.iops"]] | sort
	| if length > 0 then .[length / 10 | floor] else 0 end' "$tmp/aa/results.json")
# the A/A spread: sd of the 60 per-round log ratios of step 1's pairs
sd=$(jq '[.runs[] | select(.status == "ok")] as $r
	| [range(1; 31) as $k | range(0; 2) as $i
	   | [$r[] | select(.iteration == $i and .params.copy == ($k | tostring))]
	   | select(length == 2)
	   | (map(select(.params.side == "b"))[0].metrics["read.iops"]
	      / map(select(.params.side == "a"))[0].metrics["read.iops"]) | log]
	| if length > 2 then ((add / length) as $m
	  | map((. - $m) * (. - $m)) | add / (length - 1) | sqrt) else 1 end' \
	"$tmp/aa/results.json")
# the slowdown: three times the MDE of 10 paired rounds at that spread
# ((t(.975; 9) + t(.8; 9)) / sqrt(10) = 0.995 sd), at least 5%, at most
# 60%
cap=$(awk -v r="$rate" -v sd="$sd" 'BEGIN { x = 3 * 0.995 * sd;
	if (x < 0.0513) x = 0.0513; if (x > 0.916) x = 0.916;
	printf "%d", r * exp(-x) }')
check "a measured rate to cap under (10th percentile of read.iops $rate, A/A sd of log ratios $sd)" "[ \"\${cap:-0}\" -gt 0 ]"
# no rate, no slowdown to inject (step 1 failed, said above)
[ "${cap:-0}" -gt 0 ] || finish
# one slowdown campaign with cap $1 in $tmp/$2; sets rc, truth,
# truth_from
slowdown() {
	cat >"$tmp/$2.conf" <<CONF
[global]
jobs = randread-4k-rate
iterations = 10
warmup = 1
runtime = 1
target = loop:64M
retry_disturbed = 1
profiles = $repo/tests/data/truth
sweep rate = 0 $1

[running]
method = local
CONF
	"$KBENCH" run -q -c "$tmp/$2.conf" -o "$tmp/$2" >/dev/null 2>"$tmp/$2.err"
	rc=$?
	check "slowdown campaign: exit 0 (got $rc)" "[ $rc -eq 0 ]"
	# the true size: geometric means over the rounds where neither run
	# was disturbed (jq, independent of kbench's statistics)
	ratio='map(. as $i | [$r[] | select(.iteration == $i)] | select(length == 2)
		  | (map(select(.configuration == $s))[0].metrics["read.iops"]
		     / map(select(.configuration != $s))[0].metrics["read.iops"]) | log)
		| if length >= 3 then ((add / length) | exp - 1) * 100 else "none" end'
	truth=$(jq -r --arg s "running,rate=$1" '
		[.runs[] | select(.status == "ok" and (.warmup | not))] as $r
		| [$r[] | select(((.disturbed // []) | length) > 0) | .iteration] as $bad
		| [$r[] | .iteration] | unique | map(select(. as $i | $bad | index($i) | not))
		| '"$ratio" "$tmp/$2/results.json" 2>/dev/null)
	truth_from="the quiet rounds (no run disturbed)"
	if [ "$truth" = none ] || [ -z "$truth" ]; then
		# a machine busy throughout (other engineers' builds here):
		# no quiet round is left; the size over every counted round,
		# said so
		truth=$(jq -r --arg s "running,rate=$1" '
			[.runs[] | select(.status == "ok" and (.warmup | not))] as $r
			| [$r[] | .iteration] | unique | '"$ratio" "$tmp/$2/results.json" 2>/dev/null)
		truth_from="every counted round (fewer than 3 quiet ones: a busy machine)"
	fi
}
# the attempts: at most 3 campaigns, each judged by kbench compare; the
# checks below judge the last.  Once more, with the cap under that
# campaign's own uncapped runs (their lowest: a cap every run meets), when
#  - the cap bit little: the true size came out under half the slowdown
#    meant (the machine slowed between the steps: a CI run here, step
#    1's 10th percentile 67k IOPS, a cap of 52k meant -23%, came out
#    -3.2% and kbench rightly said undecidable), or
#  - kbench compare could not decide (exit 125): a CI run here (cap 39.7k,
#    true size -28.5%) came out inconclusive, which issue 13 prescribes
#    for two performance modes: a cap that the machine meets on some runs
#    and not on others piles the capped runs at the cap and leaves the
#    rest where the machine put them, two modes made by the test, not by
#    what it measures; a cap under every uncapped run of that campaign
#    leaves one.
# An attempt that is not a regression prints compare's output.
meant=$(awk -v x="$cap" -v r="$rate" 'BEGIN { printf "%.3f", (x / r - 1) * 100 }')
attempt=1
while :; do
	slow=slow$attempt
	slowdown "$cap" "$slow"
	"$KBENCH" compare --metric read.iops "$tmp/$slow:running,rate=0" \
		"$tmp/$slow:running,rate=$cap" >"$tmp/$slow.out" 2>&1
	rc=$?
	echo "truth: attempt $attempt: cap $cap, true size $truth%, compare exit $rc"
	# anything but a regression: compare's whole output (its notes name
	# the modes, the drift or the power that kept it from deciding)
	[ $rc -eq 1 ] || sed 's/^/truth:   /' "$tmp/$slow.out"
	why=""
	if awk -v t="$truth" -v m="$meant" 'BEGIN { exit !(t == "none" || t == "" || t + 0 > m / 2) }'; then
		why="the cap bit little (true size $truth% of $meant% meant)"
	elif [ $rc -eq 125 ]; then
		why="kbench compare could not decide (exit 125)"
	fi
	[ -n "$why" ] && [ $attempt -lt 3 ] || break
	# the undisturbed uncapped runs' lowest (a disturbed one would set
	# the cap far under what is meant); none: no cap to set, stop here
	rate=$(jq --arg s "running,rate=$cap" '[.runs[] | select(.status == "ok"
		and (.warmup | not) and .configuration != $s
		and (((.disturbed // []) | length) == 0))
		| .metrics["read.iops"] | numbers] | min // 0' \
		"$tmp/$slow/results.json" 2>/dev/null)
	cap=$(awk -v r="${rate:-0}" -v m="$meant" 'BEGIN { printf "%d", r * (1 + m / 100) }')
	[ "${cap:-0}" -gt 0 ] || break
	echo "truth: $why; again with cap $cap under the uncapped runs' lowest $rate"
	attempt=$((attempt + 1))
done
cp "$tmp/$slow.out" "$tmp/slow.out"
row=$(awk '$1 == "read.iops" && /\[/ { print; exit }' "$tmp/slow.out")
read -r change lo hi < <(sed 's/.*[(*] *\([-+0-9.]*\)%.*\[\([-+0-9.]*\)%, \([-+0-9.]*\)%\].*/\1 \2 \3/' <<<"$row")
echo "truth: injected slowdown: cap $cap IOPS; true size over $truth_from $truth%; kbench: $change% [$lo%, $hi%], exit $rc"
check "the true size measured on at least 3 rounds ($truth%)" \
	"awk -v t='$truth' 'BEGIN { exit !(t ~ /^-?[0-9.]+(e-?[0-9]+)?$/) }'"
check "kbench compare calls it a regression (exit $rc)" "[ $rc -eq 1 ]"
check "the change has the right sign ($change%)" \
	"awk -v c='$change' 'BEGIN { exit !(c + 0 < 0) }'"
check "its 95% CI [$lo%, $hi%] covers the true size $truth%" \
	"awk -v t='$truth' -v l='$lo' -v h='$hi' 'BEGIN { exit !(l != \"\" && h != \"\" && t + 0 >= l + 0 && t + 0 <= h + 0) }'"
finish
