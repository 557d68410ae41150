# bench/truth13.sh - `make bench` section 6, issue 13's figures: verdicts
# on real runs of this machine.  Sourced by bench/bench.sh (its helpers
# def, sample, pending, say, calc and $K, $W, $REPO); POSIX sh.
#
#  truth13.aa_*       A/A comparisons (pairs of identical configurations:
#                     sweep copy x sweep side = a b, 3 interleaved rounds
#                     of 1 s, retry_disturbed = 0), each `kbench compare
#                     DIR:copy=K,side=a DIR:copy=K,side=b`: the share with
#                     unadjusted p < 0.05 and its 95% Wilson interval,
#                     which should contain 5%.
#  truth13.detect3_*  an injected 3% slowdown (fio rate_iops 3% under the
#                     A/A runs' median, tests/data/truth/randread-4k-rate.fio)
#                     found (kbench compare exit 1) in how many of the
#                     repetitions of 10 counted rounds, quiet machine.
#  truth13.detect5_*  the same for 5% under ../shared/tools/switching-load.sh
#                     (two busy loops, 7 s on, 6 s off), disturbed rounds
#                     retried (retry_disturbed = 2); wall time / the quiet
#                     campaigns' mean wall time.
#  truth13.verdict_*  time to a verdict, paired vs unpaired: the 3%
#                     slowdown with iterations = auto (min 3, max
#                     KBENCH_BENCH_TRUTH_MAX_ITER, target_ci_pct 1), order =
#                     interleave (paired by round) vs order = block
#                     (Welch on ln values): wall time and timed rounds.
#
# Size knob: KBENCH_BENCH_TRUTH_SCALE (default 1: 200 A/A comparisons, 10
# repetitions each of the two detections; 0.1 for a tenth).  Full size:
# about 1200 + 2 x 10 x 22 runs of 1 s, 1.5-2 s each: about an hour and a
# half.  KBENCH_BENCH_TRUTH=0 skips the section.  Figures measured while
# other work runs on the machine are not quiet-machine figures: the
# section prints the median task.other.cpu_pct of its A/A runs.

TRUTH_SCALE=${KBENCH_BENCH_TRUTH_SCALE:-1}
TRUTH_MAX_ITER=${KBENCH_BENCH_TRUTH_MAX_ITER:-10}
truth_n() { awk -v s="$TRUTH_SCALE" -v n="$1" -v m="$2" \
	'BEGIN { x = int(n * s + 0.999); print (x < m ? m : x) }'; }
TRUTH_AA=$(truth_n 200 4)
TRUTH_REPS=$(truth_n 10 1)

def truth13.aa_comparisons count - 0 "real A/A comparisons made (3 paired rounds of 1 s each)"
def truth13.aa_fp_pct '%' - 0 "share of A/A comparisons with unadjusted p < 0.05"
def truth13.aa_fp_ci_lo_pct '%' '<=' 5 "95% Wilson interval of that share, low end (contains 5% for a correct test)"
def truth13.aa_fp_ci_hi_pct '%' '>=' 5 "the same, high end"
def truth13.other_cpu_pct '%' - 0 "median task.other.cpu_pct of the A/A runs: how busy the machine was (not a quiet-machine figure when high)"
def truth13.detect3_count count '>=' "$(truth_n 8 1)" "3% slowdown found (exit 1) in this many of $TRUTH_REPS repetitions of 10 rounds, quiet"
def truth13.detect5_load_count count '>=' "$(truth_n 8 1)" "5% slowdown found in this many of $TRUTH_REPS repetitions under switching-load.sh, disturbed rounds retried"
def truth13.detect5_wall_ratio ratio '<=' 3 "wall time of a campaign under the switching load / the quiet campaigns' mean"
def truth13.verdict_paired_s s - 0 "iterations = auto to target_ci_pct 1, order = interleave (paired): wall time"
def truth13.verdict_unpaired_s s - 0 "the same with order = block (unpaired, Welch on ln values)"
def truth13.verdict_ratio ratio '<=' 1 "paired / unpaired wall time to the verdict"
def truth13.verdict_paired_rounds count - 0 "timed rounds the paired campaign ran"
def truth13.verdict_unpaired_rounds count - 0 "timed rounds the unpaired campaign ran"

# truth_conf FILE JOB PROFILES EXTRA...: a loop-device kernels.conf
truth_conf() {
	f=$1 job=$2 prof=$3
	shift 3
	{
		printf '[global]\njobs = %s\nruntime = 1\ntarget = loop:64M\n' "$job"
		printf 'profiles = %s\n' "$prof"
		for l in "$@"; do printf '%s\n' "$l"; done
		printf '\n[running]\nmethod = local\n'
	} >"$f"
}

# truth_slow DIR CAP EXTRA...: base vs capped campaign; sets rc wall_s,
# and cmp_rc (kbench compare's exit)
truth_slow() {
	d=$1 cap=$2
	shift 2
	truth_conf "$d.conf" randread-4k-rate "$REPO/tests/data/truth" \
		"sweep rate = 0 $cap" "$@"
	measure "$K" run -q -c "$d.conf" -o "$d"
	cmp_rc=0
	"$K" compare --metric read.iops "$d:running,rate=0" \
		"$d:running,rate=$cap" >"$d.cmp" 2>&1 || cmp_rc=$?
}

if [ "${KBENCH_BENCH_TRUTH:-1}" = 0 ]; then
	pending truth13.aa_fp_pct "skipped (KBENCH_BENCH_TRUTH=0)"
elif [ "$(id -u)" != 0 ] || ! command -v fio >/dev/null; then
	pending truth13.aa_fp_pct "needs root and fio (a loop device)"
else
	# --- A/A: campaigns of at most 30 pairs ---
	say "truth13: $TRUTH_AA A/A comparisons (3 rounds of 1 s each), $TRUTH_REPS repetitions of each detection"
	made=0 low=0 c=0
	: >"$W/aa-iops"
	while [ $made -lt "$TRUTH_AA" ]; do
		c=$((c + 1))
		np=$((TRUTH_AA - made))
		[ $np -gt 30 ] && np=30
		truth_conf "$W/aa$c.conf" randread-4k "$REPO/profiles" \
			"iterations = 3" "warmup = 0" "retry_disturbed = 0" \
			"sweep copy = $(seq -s ' ' 1 $np)" "sweep side = a b"
		"$K" run -q -c "$W/aa$c.conf" -o "$W/aa$c" >/dev/null 2>&1 || true
		jq -r '.runs[] | select(.status == "ok") | "\(.metrics["read.iops"]) \(.metrics["task.other.cpu_pct"] // "")"' \
			"$W/aa$c/results.json" >>"$W/aa-iops" 2>/dev/null || true
		k=1
		while [ $k -le $np ]; do
			p=$("$K" compare --metric read.iops \
				"$W/aa$c:running,copy=$k,side=a" \
				"$W/aa$c:running,copy=$k,side=b" 2>/dev/null |
				awk '$1 == "read.iops" && $4 ~ /^[0-9]+\/[0-9]+$/ { print $2; exit }')
			case $p in
			''|n/a) ;;
			*)	made=$((made + 1))
				awk -v p="$p" 'BEGIN { exit !(p + 0 < 0.05) }' &&
					low=$((low + 1)) ;;
			esac
			k=$((k + 1))
		done
		[ $np -eq 0 ] && break
		[ $c -gt $((TRUTH_AA / 10 + 3)) ] && break	# runs keep failing
	done
	sample truth13.aa_comparisons "$made"
	if [ "$made" -gt 0 ]; then
		# Wilson score interval (E. B. Wilson, JASA 22 (1927) 209-212)
		eval "$(awk -v x=$low -v n=$made 'BEGIN { z = 1.959964; p = x / n;
			c = (p + z * z / (2 * n)) / (1 + z * z / n);
			h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
			printf "fp=%.6g lo=%.6g hi=%.6g", 100 * p, 100 * (c - h), 100 * (c + h) }')"
		sample truth13.aa_fp_pct "$fp"
		sample truth13.aa_fp_ci_lo_pct "$lo"
		sample truth13.aa_fp_ci_hi_pct "$hi"
	fi
	v=$(awk '$2 != "" { print $2 }' "$W/aa-iops" | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
	[ -n "$v" ] && sample truth13.other_cpu_pct "$v"
	rate=$(awk '{ print $1 }' "$W/aa-iops" | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')

	if [ -z "$rate" ]; then
		pending truth13.detect3_count "the A/A runs measured no rate to cap under"
	else
		cap3=$(awk -v r="$rate" 'BEGIN { printf "%d", r * 0.97 }')
		cap5=$(awk -v r="$rate" 'BEGIN { printf "%d", r * 0.95 }')
		# --- detection, quiet ---
		det=0 qwall=0 r=1
		while [ $r -le "$TRUTH_REPS" ]; do
			truth_slow "$W/q$r" "$cap3" "iterations = 10" "warmup = 1"
			[ "$cmp_rc" = 1 ] && det=$((det + 1))
			qwall=$(calc "$qwall + $wall_s")
			r=$((r + 1))
		done
		sample truth13.detect3_count "$det"
		qmean=$(calc "$qwall / $TRUTH_REPS")
		# --- detection under the switching load, retried ---
		load=${KBENCH_BENCH_SWITCHING_LOAD:-$REPO/../shared/tools/switching-load.sh}
		if [ ! -x "$load" ] && [ ! -f "$load" ]; then
			pending truth13.detect5_load_count "no switching load script at $load (KBENCH_BENCH_SWITCHING_LOAD)"
		else
			det=0 r=1
			while [ $r -le "$TRUTH_REPS" ]; do
				bash "$load" 3600 >/dev/null 2>&1 &
				lpid=$!
				truth_slow "$W/l$r" "$cap5" "iterations = 10" \
					"warmup = 1" "retry_disturbed = 2"
				kill "$lpid" 2>/dev/null || true
				wait "$lpid" 2>/dev/null || true
				[ "$cmp_rc" = 1 ] && det=$((det + 1))
				sample truth13.detect5_wall_ratio "$(calc "$wall_s / $qmean")"
				r=$((r + 1))
			done
			sample truth13.detect5_load_count "$det"
		fi
		# --- time to a verdict: paired vs unpaired ---
		for ord in interleave block; do
			truth_slow "$W/v-$ord" "$cap3" "iterations = auto" \
				"min_iterations = 3" \
				"max_iterations = $TRUTH_MAX_ITER" \
				"target_ci_pct = 1" "warmup = 1" "order = $ord"
			eval "w_$ord=$wall_s"
			eval "n_$ord=$(jq '[.runs[] | select(.warmup == false and .configuration == "running,rate=0")] | length' "$W/v-$ord/results.json" 2>/dev/null || echo 0)"
		done
		sample truth13.verdict_paired_s "$w_interleave"
		sample truth13.verdict_unpaired_s "$w_block"
		sample truth13.verdict_ratio "$(calc "$w_interleave / $w_block")"
		sample truth13.verdict_paired_rounds "$n_interleave"
		sample truth13.verdict_unpaired_rounds "$n_block"
	fi
fi
