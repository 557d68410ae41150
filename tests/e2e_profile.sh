#!/bin/bash
# tests/e2e_profile.sh - end-to-end: a real campaign with "profile = cycles"
# on a loop device (2 configurations x 2 iterations x 2 s, each timed run
# with its profiling run): no perf process runs during a counted run (a
# watcher polls for perf children of kbench and the run windows of
# run.json are checked against what it saw; it must see perf during the
# profiling runs), the CPU profile table comes from the profiling runs
# with perf record's cost under it, the [io] share is > 0 and the group
# shares add up, the perf counters and per-task CPU are recorded, the
# perf report is kept zstd-compressed (perf.data removed) and --reparse
# gives the same numbers from it.  A campaign interrupted and resumed
# keeps its symbol groups (DIR/profiles/symbols.conf).  Then profile_during = counted-runs
# with keep = perf.data: perf runs during the counted runs, not during
# the unsampled ones, and perf.data is kept.  Needs root and perf;
# prints a SKIP line otherwise.
# Closing line: "e2e-profile: N passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
finish() {
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary e2e-profile
	exit $?
}

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: e2e profile test needs root (loop device, perf -a)"
	skip=1
	finish
fi
for tool in fio jq losetup perf; do
	if ! command -v $tool >/dev/null; then
		echo "SKIP: e2e profile test needs $tool (scripts/install-deps)"
		skip=1
		finish
	fi
done

repo=$(pwd)
tmp=$(mktemp -d /tmp/kbench-e2e-profile.XXXXXX)

# watch_perf PID OUT: while PID lives, append the time (ns) of every poll
# (every 50 ms) that finds a perf process among PID's children
watch_perf() {
	while kill -0 "$1" 2>/dev/null; do
		if pgrep -x perf -P "$1" >/dev/null; then
			date +%s%N >>"$2"
		fi
		sleep 0.05
	done
}

# perf_seen RUNDIR SEEN: how many polls in SEEN fell inside the run's fio
# window (run.json start_unix_ns .. + elapsed_s)
perf_seen() {
	local s e
	s=$(jq -r '.start_unix_ns' "$1/run.json")
	e=$(jq -r '.start_unix_ns + .elapsed_s * 1e9 | floor' "$1/run.json")
	awk -v s="$s" -v e="$e" '$1 >= s && $1 <= e { n++ } END { print n + 0 }' "$2"
}

# run_campaign CONF DIR: kbench run in the background, perf watched
run_campaign() {
	: >"$2.perf-seen"
	"$KBENCH" run -q -c "$1" -o "$2" >"$2.out" 2>"$2.err" &
	local pid=$!
	watch_perf $pid "$2.perf-seen" &
	local wpid=$!
	wait $pid
	rc=$?
	wait $wpid
}

# write_conf FILE LINE...: a 2-iteration, 2 s campaign on a loop device
# with profile = cycles, the LINEs added to [global]
write_conf() {
	local f=$1
	shift
	{
		printf '[global]\njobs = randread-4k\niterations = 2\nwarmup = 0\n'
		printf 'runtime = 2\ntarget = loop:64M\nprofiles = %s/profiles\n' "$repo"
		printf 'profile = cycles\nretry_disturbed = 0\n'
		printf '%s\n' "$@"
		printf '\n[running]\nmethod = local\n'
	} >"$f"
}

write_conf "$tmp/p.conf" "tunable NM = queue/nomerges: 0 2"
c="$tmp/c"
# perf record and perf report run in the C locale whatever the user's
# (perf prints "99,59%" under de_DE): a perf on PATH that notes its
# LC_ALL, then is perf
mkdir -p "$tmp/bin"
cat >"$tmp/bin/perf" <<PERF
#!/bin/sh
printf '%s %s\n' "\$1" "\${LC_ALL-unset}" >>"$tmp/perf-locale"
exec $(command -v perf) "\$@"
PERF
chmod 755 "$tmp/bin/perf"
# (bash's own "cannot change locale" where de_DE is not installed: not
# shown)
{ PATH="$tmp/bin:$PATH" LC_ALL=de_DE.UTF-8 run_campaign "$tmp/p.conf" "$c"; } 2>/dev/null
check "kbench run with profile = cycles exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "perf record and report ran with LC_ALL=C, under a user's LC_ALL=de_DE.UTF-8 ($(sort "$tmp/perf-locale" 2>/dev/null | uniq -c | tr -s ' \n' ' '))" \
	"[ \"\$(grep -Ec '^(record|report) C\$' '$tmp/perf-locale')\" -ge 8 ] && ! grep -E '^(record|report) ' '$tmp/perf-locale' | grep -qv ' C\$'"
[ $rc -eq 0 ] || cat "$c.err"
R="$c/results.json"
check "4 counted runs, all ok; 4 profiling runs apart, all ok" \
	"[ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $R)\" = 4 ] && [ \"\$(jq '[.profiling_runs[] | select(.status == \"ok\" and .extra == \"profiling\")] | length' $R)\" = 4 ]"
check "no counted run has a profile.* metric; summaries have none either" \
	"[ \"\$(jq '[.runs[].metrics | keys[] | select(startswith(\"profile.\"))] + [.summaries[].metric | select(startswith(\"profile.\"))] | length' $R)\" = 0 ]"
check "the counted IOPS summary has n = 2 per configuration (profiling runs not in it)" \
	"[ \"\$(jq '[.summaries[] | select(.metric == \"read.iops\" and .n == 2)] | length' $R)\" = 2 ]"
# the check that no perf ran during a counted run, and that it can fail:
# the same watcher sees perf during every profiling run
counted_with_perf=0; prof_without_perf=0; nruns=0
for rd in "$c"/runs/*/randread-4k/*; do
	n=$(perf_seen "$rd" "$c.perf-seen")
	nruns=$((nruns + 1))
	case "$rd" in
	*-profiling1) [ "$n" -gt 0 ] || prof_without_perf=$((prof_without_perf + 1)) ;;
	*) [ "$n" -eq 0 ] || counted_with_perf=$((counted_with_perf + 1)) ;;
	esac
done
check "no perf process during any counted run (8 run windows, $(wc -l <"$c.perf-seen") polls saw perf)" \
	"[ $nruns -eq 8 ] && [ $counted_with_perf -eq 0 ]"
check "the watcher saw perf during every profiling run (the check can fail)" \
	"[ $prof_without_perf -eq 0 ]"
check "run.json: perf_record false in counted runs, true in profiling runs" \
	"[ \"\$(cat $c/runs/*/randread-4k/00?/run.json | jq -s '[.[] | select(.perf_record == false)] | length')\" = 4 ] && [ \"\$(cat $c/runs/*/randread-4k/*-profiling1/run.json | jq -s '[.[] | select(.perf_record == true and .extra == \"profiling\")] | length')\" = 4 ]"
check "report has the CPU profile table of the profiling runs, a CPU: row per configuration" \
	"tr -s ' \\n' ' ' <$c/report.txt | grep -q 'CPU profile (perf record -a), share of samples, mean of the profiling runs' && [ \$(grep -c ' CPU: ' $c/report.txt) -eq 2 ]"
check "perf record's cost under the table: a ratio with its CI per configuration" \
	"grep -q \"perf record's cost\" $c/report.txt && [ \$(grep -cE '^running,NM=[02]: [0-9.]+ \\([0-9.]+-[0-9.]+, n=2\\)' $c/report.txt) -eq 2 ]"
check "results.json profile_overhead: 2 entries, n = 2, ratio inside its CI" \
	"[ \"\$(jq '[.profile_overhead[] | select(.n == 2 and .ci95_lo <= .ratio and .ratio <= .ci95_hi)] | length' $R)\" = 2 ]"
P='.profiling_runs[]'
check "every profiling run: profile.cycles.io.total_pct > 0" \
	"[ \"\$(jq '[$P | select(.metrics[\"profile.cycles.io.total_pct\"] > 0)] | length' $R)\" = 4 ]"
# top-level groups of profiles/symbols.conf (io, idle) + other = 100%
check "every profiling run: io + idle + other = 100% (to 1e-6)" \
	"[ \"\$(jq '[$P.metrics | select(((.\"profile.cycles.io.total_pct\" + .\"profile.cycles.idle.total_pct\" + .\"profile.cycles.other_pct\") - 100 | fabs) < 1e-6)] | length' $R)\" = 4 ]"
check "every profiling run: merge is part of io (merge.total <= io.total, io_pct = merge/io)" \
	"[ \"\$(jq '[$P.metrics | select(.\"profile.cycles.merge.total_pct\" <= .\"profile.cycles.io.total_pct\" and ((.\"profile.cycles.merge.io_pct\" - 100 * .\"profile.cycles.merge.total_pct\" / .\"profile.cycles.io.total_pct\") | fabs) < 1e-6)] | length' $R)\" = 4 ]"
check "kernel_pct >= io share, samples > 0" \
	"[ \"\$(jq '[$P.metrics | select(.\"profile.cycles.kernel_pct\" >= .\"profile.cycles.io.total_pct\" and .\"profile.cycles.samples\" > 0)] | length' $R)\" = 4 ]"
check "lost samples recorded" \
	"[ \"\$(jq '[$P.metrics | select(.\"profile.lost_samples\" >= 0)] | length' $R)\" = 4 ]"
check "software counters positive (cpu-clock, context switches)" \
	"[ \"\$(jq '[.runs[].metrics | select(.\"perf.cpu_clock_ms\" > 0 and .\"perf.context_switches\" > 0)] | length' $R)\" = 4 ]"
# hardware counters: values where the machine has a PMU, else absent (n/a)
# with a warning - never 0
check "perf.cycles is > 0 or absent with a 'not supported' warning" \
	"[ \"\$(jq '[.runs[] | select((.metrics[\"perf.cycles\"] // 0) > 0 or ((.metrics | has(\"perf.cycles\") | not) and ([.warnings[]? | select(test(\"not supported\"))] | length > 0)))] | length' $R)\" = 4 ]"
check "task CPU: total > 0 and fio > 0" \
	"[ \"\$(jq '[.runs[].metrics | select(.\"task.total.cpu_pct\" > 0 and .\"task.fio.cpu_pct\" > 0)] | length' $R)\" = 4 ]"
check "time/task table printed" "grep -q 'sustained CPU by task' $c/report.txt"
rd="$c/runs/running,NM=0/randread-4k/000-profiling1"
check "profiling run keeps perf_report.txt.zst (zstd), symbols.conf, tasks.*; no perf.data, no plain perf_report.txt" \
	"[ -s $rd/perf_report.txt.zst ] && [ \"\$(head -c4 $rd/perf_report.txt.zst | od -An -tx1 | tr -d ' ')\" = 28b52ffd ] && [ ! -e $rd/perf.data ] && [ ! -e $rd/perf_report.txt ] && [ -s $rd/symbols.conf ] && [ -s $rd/tasks.after ] && [ -s $rd/perf_counters.csv ]"
check "profile.json says perf.data was removed" \
	"jq -e '.perf_data | test(\"removed\")' $rd/profile.json >/dev/null"
check "a counted run has no profile artefacts" \
	"[ ! -e $c/runs/running,NM=0/randread-4k/000/profile.json ] && [ ! -e $c/runs/running,NM=0/randread-4k/000/perf_report.txt.zst ]"
before=$(jq '.metrics."profile.cycles.io.total_pct"' "$rd/metrics.json")
rm -f "$rd/metrics.json"
"$KBENCH" report --reparse "$c" >"$tmp/reparse.out" 2>"$tmp/reparse.err"
after=$(jq '.metrics."profile.cycles.io.total_pct"' "$rd/metrics.json" 2>/dev/null)
check "--reparse recomputes the same io share from the compressed report ($before = $after)" \
	"[ \"$before\" = \"$after\" ] && [ \"$before\" != null ]"
for layout in variants profile time rounds lkp mmtests; do
	"$KBENCH" report --layout $layout "$c" >"$tmp/l-$layout.txt" 2>&1
	check "report --layout $layout (long perf metric names): exit 0, no line over 80 columns, no tab" \
		"[ -s $tmp/l-$layout.txt ] && ! awk 'length > 80' $tmp/l-$layout.txt | grep -q . && ! grep -q \"\$(printf '\\t')\" $tmp/l-$layout.txt"
done

# A resumed campaign keeps its symbol groups: made with the profiles
# found through KBENCH_PROFILES (no profiles = line), interrupted during
# the profiling run after its first counted run, resumed without the variable (another shell, or
# after booting the next kernel): the resume reads DIR/profiles, which
# must hold symbols.conf beside the job files, or every profiling run of
# the resume has "symbols_missing" and its CPU shares are n/a
write_conf "$tmp/r.conf"
sed -i '/^profiles = /d' "$tmp/r.conf"
r="$tmp/r"
KBENCH_PROFILES="$repo/profiles" "$KBENCH" run -c "$tmp/r.conf" -o "$r" \
	>"$r.out" 2>"$r.err" &
pid=$!
e2e_wait_runs "$r" 1
# Ctrl-C while perf records the profiling run that follows the first
# counted run: perf's report is cut short; that is no error to print
for _ in $(seq 1 300); do
	pgrep -x perf -P $pid >/dev/null && break
	sleep 0.1
done
perf_at_int=$(pgrep -x perf -P $pid | wc -l)
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C during a profiling run (perf was running: $perf_at_int): no error printed, only the interruption" \
	"[ $perf_at_int -gt 0 ] && ! grep -q 'error' $r.err && grep -q 'interrupted by signal 2' $r.err"
before=$(ls -d "$r"/runs/*/randread-4k/*-profiling1 2>/dev/null | wc -l)
env -u KBENCH_PROFILES "$KBENCH" run -q -o "$r" >"$r.out2" 2>"$r.err2"
rc2=$?
after=$(ls -d "$r"/runs/*/randread-4k/*-profiling1 2>/dev/null | wc -l)
check "resume: interrupted (exit $rc), resumed (exit $rc2), the resume made profiling runs ($before before, $after after)" \
	"[ $rc -eq 130 ] && [ $rc2 -eq 0 ] && [ $after -gt $before ]"
check "resume: DIR/profiles holds symbols.conf, the same as the one the campaign was made with" \
	"cmp -s $repo/profiles/symbols.conf $r/profiles/symbols.conf"
check "resume: no profiling run lacks its symbol groups; every one has an io share" \
	"! grep -l symbols_missing $r/runs/*/randread-4k/*-profiling1/profile.json && [ \"\$(jq '[.profiling_runs[] | select(.status == \"ok\" and (.metrics[\"profile.cycles.io.total_pct\"] // -1) >= 0)] | length' $r/results.json)\" = $after ]"

# sampling during the counted runs, measured against unsampled runs
write_conf "$tmp/q.conf" "profile_during = counted-runs" "keep = perf.data"
d="$tmp/d"
run_campaign "$tmp/q.conf" "$d"
check "profile_during = counted-runs: exits 0 (got $rc)" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || cat "$d.err"
seen_counted=0; seen_unsampled=0
for it in 000 001; do
	[ "$(perf_seen "$d/runs/running/randread-4k/$it" "$d.perf-seen")" -gt 0 ] &&
		seen_counted=$((seen_counted + 1))
	[ "$(perf_seen "$d/runs/running/randread-4k/$it-unsampled1" "$d.perf-seen")" -eq 0 ] &&
		seen_unsampled=$((seen_unsampled + 1))
done
check "counted-runs: perf ran during both counted runs, during neither unsampled run" \
	"[ $seen_counted -eq 2 ] && [ $seen_unsampled -eq 2 ]"
check "counted-runs: the profile comes from the counted runs, the cost from the unsampled ones" \
	"tr -s ' \\n' ' ' <$d/report.txt | grep -q 'CPU profile (perf record -a), share of samples, mean of the timed runs' && tr -s ' \\n' ' ' <$d/report.txt | grep -q 'the sampled counted runs / the unsampled runs' && [ \"\$(jq '[.profile_overhead[] | select(.sampled == \"counted runs\" and .n == 2)] | length' $d/results.json)\" = 1 ]"
check "keep = perf.data keeps it beside the compressed report" \
	"[ -s $d/runs/running/randread-4k/000/perf.data ] && [ -s $d/runs/running/randread-4k/000/perf_report.txt.zst ] && [ ! -e $d/runs/running/randread-4k/000-unsampled1/perf.data ]"
finish
