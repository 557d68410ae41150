#!/bin/bash
# tests/cluster_e2e.sh - a campaign split across a Slurm cluster, for
# real: Debian's munge and slurm-wlm started by this test as a one-node
# cluster (munged, slurmctld, slurmd; key, config, state, spool, logs and
# sockets in a private temporary directory, non-default ports), then
# examples/slurm/submit.sh submits an array of 2 shards of a small
# campaign (2 configurations x (1 warm-up + 4 iterations) x 1 s, a sparse
# file target) and the merge as a job depending on it.  Checks: the
# merged report holds every timed run an unsplit campaign of the same
# conf plans (kbench plan --runs), each shard ran only its rounds, a
# missing shard and a shard given twice are refused.  Daemons stopped by
# the PIDs in their pid files, everything removed on exit (trap).  The
# daemons talk over 127.0.0.1 only (SlurmctldHost and NodeAddr pinned).
# Needs root (the daemons; apt-get when slurm-wlm or munge is missing).
# `make check-cluster` runs it (about 1 minute on 2 cores).
# Closing line: "cluster: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=
daemons_started=

stop_daemons() {
	local f pid comm i
	[ -n "$tmp" ] || return 0
	# the jobs of this test's cluster only (never a real cluster's)
	if [ -n "$daemons_started" ] && [ "${SLURM_CONF:-}" = "$tmp/slurm.conf" ] &&
	   [ -s "$tmp/slurmctld.pid" ] && command -v scancel >/dev/null; then
		scancel --quiet --user=root >/dev/null 2>&1
	fi
	# only the daemons this test started: the PID in its pid file, if
	# that process still is the daemon named
	for f in slurmd:slurmd.pid slurmctld:slurmctld.pid munged:munge/munged.pid; do
		comm=${f%%:*}
		[ -s "$tmp/${f#*:}" ] || continue
		pid=$(cat "$tmp/${f#*:}")
		[ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$comm" ] || continue
		kill "$pid" 2>/dev/null
		for i in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
	done
}
finish() {
	[ -n "${interrupted:-}" ] && bad "interrupted by a signal"
	stop_daemons
	[ -n "$tmp" ] && rm -rf "$tmp"
	e2e_summary cluster
	exit $?
}
trap finish EXIT
trap 'interrupted=1; exit 130' INT TERM

if [ "$(id -u)" -ne 0 ]; then
	bad "the cluster test needs root (it starts munged, slurmctld and slurmd; make check-cluster as root)"
	exit 1
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
   ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
	echo "# installing slurm-wlm and munge (Debian's archive)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends slurm-wlm munge >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends slurm-wlm munge >/dev/null 2>&1; }
fi
for tool in slurmctld slurmd sbatch squeue scontrol munged fio jq; do
	if ! command -v $tool >/dev/null; then
		bad "$tool is installed (scripts/install-deps installs it)"
		exit 1
	fi
done

tmp=$(mktemp -d /tmp/kbench-cluster.XXXXXX)
chmod 700 "$tmp"
mkdir -m 700 "$tmp/munge" "$tmp/state" "$tmp/spool"

# --- 1. munged with a key of its own -----------------------------------
head -c 1024 /dev/urandom > "$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" \
	--socket="$tmp/munge/munge.sock" --pid-file="$tmp/munge/munged.pid" \
	--log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed"
check "munged starts on a private socket" \
	"[ -S $tmp/munge/munge.sock ] && [ -s $tmp/munge/munged.pid ]"
daemons_started=1

# --- 2. slurmctld + slurmd: a one-node cluster --------------------------
port_free() { ! ss -Htln "sport = :$1" 2>/dev/null | grep -q .; }
ctl_port=16817
while ! port_free $ctl_port || ! port_free $((ctl_port + 1)); do
	ctl_port=$((ctl_port + 2))
	[ $ctl_port -lt 16900 ] || { bad "no two free ports in 16817-16900"; exit 1; }
done
node=$(hostname -s)
mem=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
cat > "$tmp/slurm.conf" <<CONF
# written by tests/cluster_e2e.sh: a one-node cluster for this test only
ClusterName=kbenchtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$((ctl_port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=kbench Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF"
up=
for _ in $(seq 1 60); do
	if sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; then up=1; break; fi
	sleep 0.5
done
check "slurmctld and slurmd start; the node is idle (ports $ctl_port, $((ctl_port + 1)))" \
	"[ -n '$up' ]"
if [ -z "$up" ]; then
	tail -5 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>/dev/null | sed 's/^/# /'
	exit 1
fi

# --- 3. a campaign of 2 shards as an array job, merged by a dependent job
truncate -s 32M "$tmp/target"
conf="$tmp/kernels.conf"
cat > "$conf" <<CONF
[global]
jobs = randread-4k
iterations = 4
warmup = 1
runtime = 1
target = file:$tmp/target
profiles = $repo/profiles

[a]
method = local
release = $(uname -r)

[b]
method = local
release = $(uname -r)
CONF
camp="$tmp/camp"
ids=$(cd "$tmp" && KBENCH="$KBENCH" "$repo/examples/slurm/submit.sh" 2 "$conf" "$camp" 2>"$tmp/submit.err")
array=${ids% *}
merge=${ids#* }
check "examples/slurm/submit.sh submits the array and the merge ($ids)" \
	"[ -n '$array' ] && [ -n '$merge' ] && [ '$array' != '$merge' ]"
sed 's/^/# /' "$tmp/submit.err"
t0=$(date +%s)
done_=
while [ $(($(date +%s) - t0)) -lt 150 ]; do
	if [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ]; then done_=1; break; fi
	sleep 2
done
check "the array and the merge job leave the queue within 150 s ($(($(date +%s) - t0)) s)" \
	"[ -n '$done_' ]"
[ -n "$done_" ] || scancel "$array" "$merge" 2>/dev/null
job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort -u | tr '\n' ' '; }
check "both shards and the merge completed ($(job_state "$array")/ $(job_state "$merge"))" \
	"[ \"\$(job_state $array)\" = 'JobState=COMPLETED ' ] && [ \"\$(job_state $merge)\" = 'JobState=COMPLETED ' ]"
for f in "$camp"/slurm-*.out; do
	[ -e "$f" ] || continue
	grep -E 'error|kbench shard|merged' "$f" | sed "s|^|# $(basename "$f"): |"
done

# --- 4. each shard did only its rounds ---------------------------------
for k in 1 2; do
	"$KBENCH" plan -c "$conf" --shard $k/2 --runs |
		awk '/^ *[0-9]+  / { print $2 }' | sort > "$tmp/plan$k"
	jq -r '.runs | keys[]' "$camp/shard-$k/state.json" 2>/dev/null | sort > "$tmp/done$k"
	check "shard $k/2 ran exactly its runs ($(wc -l < "$tmp/done$k") of kbench plan --shard $k/2)" \
		"[ -s $tmp/plan$k ] && cmp -s $tmp/plan$k $tmp/done$k"
	check "shard $k/2 ran only ok runs" \
		"[ \"\$(jq '[.runs[] | select(.status != \"ok\")] | length' $camp/shard-$k/state.json)\" = 0 ]"
done
check "campaign.json records the split: shard 1 iterations 0 1 3, shard 2 iterations 0 2 4" \
	"[ \"\$(jq -c '[.shard.k, .shard.n, .shard.iterations]' $camp/shard-1/campaign.json)\" = '[1,2,[0,1,3]]' ] && [ \"\$(jq -c '[.shard.k, .shard.n, .shard.iterations]' $camp/shard-2/campaign.json)\" = '[2,2,[0,2,4]]' ]"
check "the shards' timed iterations do not overlap (whole rounds, one shard each)" \
	"[ -z \"\$(comm -12 <(grep -v '/000\$' $tmp/done1) <(grep -v '/000\$' $tmp/done2))\" ]"

# --- 5. the merged campaign has the unsplit campaign's runs ------------
"$KBENCH" plan -c "$conf" --runs > "$tmp/plan-all"
plan_timed=$(grep -Ec '^ *[0-9]+  [^ ]+  \(iteration [0-9]+\)$' "$tmp/plan-all")
plan_warm=$(grep -Ec '\(warm-up w[0-9]+\)$' "$tmp/plan-all")
check "the merge job wrote the merged report (Shards: 2 merged)" \
	"grep -q '^Shards: *2 merged' $camp/report.txt && [ -s $camp/report.md ]"
"$KBENCH" report -f json "$camp"/shard-* > "$tmp/merged.json" 2>"$tmp/merged.err"
rc=$?
check "kbench report on the shard directories exits 0 (got $rc)" "[ $rc -eq 0 ]"
timed=$(jq '[.runs[] | select(.warmup == false)] | length' "$tmp/merged.json")
warm=$(jq '[.runs[] | select(.warmup == true)] | length' "$tmp/merged.json")
check "merged: $timed timed runs, as many as the unsplit plan's ($plan_timed)" \
	"[ '$timed' = '$plan_timed' ] && [ '$plan_timed' = 8 ]"
check "merged: every warm-up once per shard ($warm = 2 x $plan_warm)" \
	"[ '$warm' = $((2 * plan_warm)) ]"
check "merged: n = 4 per configuration (one campaign, not renamed per shard)" \
	"[ \"\$(jq -c '[.summaries[] | select(.metric == \"read.iops\") | [.configuration, .n]]' $tmp/merged.json)\" = '[[\"a\",4],[\"b\",4]]' ]"
check "merged: the same runs as the merge job's results.json" \
	"[ \"\$(jq -c '[.runs[] | [.configuration, .iteration, .shard]]' $tmp/merged.json)\" = \"\$(jq -c '[.runs[] | [.configuration, .iteration, .shard]]' $camp/results.json)\" ]"
"$KBENCH" report "$camp" > "$tmp/parent.txt" 2>&1
check "kbench report on the directory holding the shards: the same campaign" \
	"grep -q '^Shards: *2 merged' $tmp/parent.txt && grep -q 'mean of 4 iterations' $tmp/parent.txt"
"$KBENCH" compare "$camp:a" "$camp:b" > "$tmp/compare.out" 2>&1
rc=$?
check "kbench compare takes the shards' directory (DIR:a vs DIR:b, exit $rc)" \
	"[ $rc -ne 2 ] && grep -q 'verdict' $tmp/compare.out"

# --- 6. refused: a shard missing, a shard given twice ------------------
"$KBENCH" report "$camp/shard-1" > /dev/null 2>"$tmp/missing.err"
rc=$?
check "a set with shard 2/2 missing is refused, naming it (exit $rc)" \
	"[ $rc -eq 2 ] && grep -q 'shard 2/2 missing' $tmp/missing.err"
"$KBENCH" report "$camp/shard-1" "$camp/shard-2" "$camp/shard-1" > /dev/null 2>"$tmp/twice.err"
rc=$?
check "a set with shard 1/2 given twice is refused, naming it (exit $rc)" \
	"[ $rc -eq 2 ] && grep -q 'shard 1/2 is given twice' $tmp/twice.err"
"$KBENCH" compare "$camp/shard-2" "$camp/shard-1" > /dev/null 2>"$tmp/cmissing.err"
rc=$?
check "kbench compare refuses a lone shard (exit $rc)" \
	"[ $rc -eq 2 ] && grep -q 'shard 1/2 missing' $tmp/cmissing.err"
"$KBENCH" report --separate "$camp/shard-1" > "$tmp/separate.txt" 2>&1
check "report --separate shows a shard alone (Shard: 1/2, mean of 2 iterations)" \
	"grep -q '^Shard: *1/2' $tmp/separate.txt && grep -q 'mean of 2 iterations' $tmp/separate.txt"
