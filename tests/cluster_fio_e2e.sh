#!/bin/bash
# tests/cluster_fio_e2e.sh - hosts = (fio client/server), for real: two
# network namespaces of this test's own, each with a veth pair and a
# private /30 that the test assigns (10.231.X.0/30 and 10.231.X.4/30, X
# from the test's PID), each running `fio --server` on its address; a
# 2-run campaign with hosts = both against a file: target on this file
# system (the namespaces share it, so the same path works on both
# "hosts").  Checks: the runs are ok, the aggregate read.iops is the sum of
# the per-host host.<addr>.read.iops, results.json has the per-host
# values; a host with no server (the host side of the first veth) fails
# every run naming it while the campaign goes on, and once a server is
# started there, --retry-failed asks it again and records its fio
# version; a server stopped
# (SIGSTOP) in the middle of a run times it out, the probe after it
# naming that host; a server killed in the
# middle of a run fails that run naming it; a loop: target with hosts = is
# refused with FILE:LINE; each host's fio version recorded; a [job NAME]
# hosts = that overrides [global]'s for one job; target@HOST (a file of
# the second host's own; a device missing there fails the runs naming it
# with fio's message); no server handed --output (a relative -o); an IPv6 load host (a
# ULA fd00:231:X::/64 on the first pair, a third server on it).
# Traffic only to addresses inside the test's
# namespaces and their veth peers; namespaces, links, servers (by the PIDs
# in their pid files) and files removed on exit (trap).  Needs root, fio,
# ip, jq.  `make check-cluster` runs it (about 2 minutes on 2 cores).
# Closing line: "cluster-fio: N passed, N failed".
set -u
. "$(dirname "$0")/e2e_lib.sh"
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=
oct=$((100 + $$ % 150))
ns1=kbfio$$a
ns2=kbfio$$b
made=

# stop_server PIDFILE [SIGNAL]: the server this test started (its PID, if
# that still is fio) and, with KILL, its job processes (its session: fio
# --daemonize makes it a session leader)
stop_server() {
	local f=$1 sig=${2:-TERM} pid i
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	[ "$(cat /proc/"$pid"/comm 2>/dev/null)" = fio ] || return 0
	# (3b stops one's process group: a stopped process acts on nothing)
	kill -CONT -- "-$pid" 2>/dev/null
	if [ "$sig" = KILL ] && [ "$(ps -o sid= -p "$pid" | tr -d ' ')" = "$pid" ]; then
		pkill -KILL -s "$pid"
		# and its forks in sessions of their own (a connection's
		# process outlived the server, daemonized, for hours)
		pkill -KILL -f -- "--daemonize=$f" 2>/dev/null
		return 0
	fi
	kill "-$sig" "$pid" 2>/dev/null
	for i in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
	return 0
}
finish() {
	[ -n "${interrupted:-}" ] && bad "interrupted by a signal"
	if [ -n "$tmp" ]; then
		stop_server "$tmp/fio1.pid"
		stop_server "$tmp/fio2.pid"
		stop_server "$tmp/fio3.pid"
		stop_server "$tmp/fio4.pid"
		# whatever of the servers is left (their forks share the
		# command line, not the pid files)
		pkill -KILL -f -- "--daemonize=$tmp/fio" 2>/dev/null
	fi
	if [ -n "$made" ]; then
		ip netns del "$ns1" 2>/dev/null
		ip netns del "$ns2" 2>/dev/null
		ip link del "kbf$$h1" 2>/dev/null
		ip link del "kbf$$h2" 2>/dev/null
	fi
	[ -n "$tmp" ] && [ -z "${KEEP:-}" ] && rm -rf "$tmp"
	e2e_summary cluster-fio
	exit $?
}
trap 'interrupted=1; finish' INT TERM
trap finish EXIT

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: cluster-fio needs root (network namespaces)"
	skip=1
	exit
fi
for tool in fio ip jq; do
	if ! command -v $tool >/dev/null; then
		echo "SKIP: cluster-fio needs $tool (scripts/install-deps)"
		skip=1
		exit
	fi
done
tmp=$(mktemp -d /tmp/kbench-clfio.XXXXXX)

# --- 1. two namespaces, a veth pair and a /30 each, fio --server in each
made=1
setup_ok=1
for i in 1 2; do
	ns=$ns1; [ $i = 2 ] && ns=$ns2
	base=$(( (i - 1) * 4 ))
	{ ip netns add "$ns" &&
	  ip link add "kbf$$h$i" type veth peer name "kbf$$n$i" &&
	  ip link set "kbf$$n$i" netns "$ns" &&
	  ip addr add "10.231.$oct.$((base + 1))/30" dev "kbf$$h$i" &&
	  ip link set "kbf$$h$i" up &&
	  ip netns exec "$ns" ip addr add "10.231.$oct.$((base + 2))/30" dev "kbf$$n$i" &&
	  ip netns exec "$ns" ip link set "kbf$$n$i" up &&
	  ip netns exec "$ns" ip link set lo up &&
	  ip netns exec "$ns" fio --server="ip:10.231.$oct.$((base + 2)),8765" \
		--daemonize="$tmp/fio$i.pid"; } 2>>"$tmp/setup.err" || setup_ok=
done
h1=10.231.$oct.2
h2=10.231.$oct.6
dead=10.231.$oct.1	# the host side of the first veth: no server there
check "two namespaces with a fio --server each ($h1, $h2)" "[ -n '$setup_ok' ]"
[ -n "$setup_ok" ] || { sed 's/^/# /' "$tmp/setup.err"; exit; }
for i in $(seq 1 50); do	# the servers listen once daemonized
	[ -s "$tmp/fio1.pid" ] && [ -s "$tmp/fio2.pid" ] && break
	sleep 0.1
done
sleep 0.5

truncate -s 32M "$tmp/target"
conf() {	# conf FILE HOSTS [RUNTIME]
	cat > "$1" <<CONF
[global]
jobs = randread-4k
iterations = 2
warmup = 0
runtime = ${3:-1}
target = file:$tmp/target
profiles = $repo/profiles
hosts = $2

[a]
method = local
release = $(uname -r)
CONF
}

# run_ok CONF DIR WHAT: kbench run -c $tmp/CONF.conf -o $tmp/DIR (its
# stdout and stderr in $tmp/DIR.out, .err); checks that it exits 0
run_ok() {
	local conf=$1 dir=$2 what=$3 rc
	"$KBENCH" run -q -c "$tmp/$conf.conf" -o "$tmp/$dir" >"$tmp/$dir.out" 2>"$tmp/$dir.err"
	rc=$?
	check "kbench run with $what exits 0 (got $rc)" "[ $rc -eq 0 ]"
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$dir.err"
}

# --- 2. a 2-run campaign on both hosts ----------------------------------
conf "$tmp/two.conf" "$h1 $h2:8765"
run_ok two c1 "hosts = two servers"
check "both runs ok" \
	"[ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $tmp/c1/state.json)\" = 2 ]"
check "fio ran as a client of both servers (run.json hosts)" \
	"[ \"\$(find $tmp/c1 -name run.json -exec jq -c '[.hosts[].host]' {} + 2>/dev/null | sort -u)\" = '[\"$h1\",\"$h2\"]' ]"
n=0
# (a run superseded by retry_disturbed is kept as NNN.superseded-K)
for rj in $(find "$tmp/c1" -path '*/[0-9][0-9][0-9]/metrics.json' | sort); do
	n=$((n + 1))
	[ -e "$rj" ] || continue
	sums=$(jq -r --arg a "$h1" --arg b "$h2" \
		'[.metrics["read.iops"], .metrics["host.\($a).read.iops"], .metrics["host.\($b).read.iops"]] | @tsv' "$rj")
	check "run $n: read.iops = the sum of the hosts' ($sums)" \
		"awk -v s='$sums' 'BEGIN { split(s, v, \"\t\"); exit !(v[2] > 0 && v[3] > 0 && (v[1] - v[2] - v[3]) ^ 2 < 1) }'"
	check "run $n: per-host p99 latency from the bins" \
		"jq -e --arg a '$h1' '.metrics[\"host.\(\$a).read.clat_p99_ns\"] > 0' $rj >/dev/null"
done
check "a metrics.json for each run" "[ $n = 2 ]"
check "results.json has the per-host metrics" \
	"grep -q 'host.$h1.read.iops' $tmp/c1/results.json && grep -q 'host.$h2.read.iops' $tmp/c1/results.json"

check "report.txt names the load hosts and says their kernels are not variants" \
	"tr -s ' \n' ' ' < $tmp/c1/report.txt | grep -q 'Load hosts: $h1:8765, $h2:8765 .*only this machine'"
check "report.txt: under a's row (both hosts) one row per load host, each with IOPS > 0" \
	"awk '/^a  / { a = NR } a && NR == a + 1 && \$1 == \"@$h1\" && \$2 > 0 { f1 = 1 } a && NR == a + 2 && \$1 == \"@$h2\" && \$2 > 0 { f2 = 1 } END { exit !(f1 && f2) }' $tmp/c1/report.txt"
"$KBENCH" report -f csv "$tmp/c1" > "$tmp/c1.csv" 2>&1
check "kbench report -f csv: a host column, a row of each host's read.iops" \
	"grep -q '^configuration,variant,job,host,metric,' $tmp/c1.csv && grep -q '^a,a,randread-4k,$h1,read.iops,IOPS,' $tmp/c1.csv && grep -q '^a,a,randread-4k,$h2,read.iops,IOPS,' $tmp/c1.csv"
fiov=$(fio --version)
check "campaign.json records each load host's fio version ($fiov, as here) and name" \
	"[ \"\$(jq -r '[.environment.load_hosts[] | select(.fio_version == \"$fiov\" and (.hostname | length) > 0) | .host] | join(\" \")' $tmp/c1/campaign.json)\" = '$h1:8765 $h2:8765' ]"
check "report.txt: the load hosts' fio versions, no version warning (the same fio)" \
	"tr -s ' \n' ' ' < $tmp/c1/report.txt | grep -q 'fio: $fiov here; load hosts: $h1:8765 $fiov' && ! grep -q 'fio versions differ' $tmp/c1/report.txt $tmp/c1.err"
"$KBENCH" report --metric "host.$h1.read.iops" "$tmp/c1" > "$tmp/c1.host1" 2>&1
check "kbench report --metric host.$h1.read.iops: a table of that host's IOPS" \
	"awk '\$1 == \"a\" && \$2 + 0 > 0 { f = 1 } END { exit !f }' $tmp/c1.host1"
check "results.json campaign.hosts" \
	"[ \"\$(jq -c .campaign.hosts $tmp/c1/results.json)\" = '[\"$h1:8765\",\"$h2:8765\"]' ]"

# --- 2a. [job NAME] hosts = overrides [global]'s for that job
{ sed 's/^jobs = randread-4k$/jobs = randread-4k, seqwrite-1m-direct/' "$tmp/two.conf"
  printf '\n[job seqwrite-1m-direct]\nhosts = %s\n' "$h2"; } > "$tmp/jobh.conf"
run_ok jobh cj "[job seqwrite-1m-direct] hosts = $h2"
check "randread-4k ran on both hosts, seqwrite-1m-direct on $h2 only (run.json hosts)" \
	"[ \"\$(find $tmp/cj/runs/a/randread-4k -name run.json -exec jq -c '[.hosts[].host]' {} + | sort -u)\" = '[\"$h1\",\"$h2\"]' ] && [ \"\$(find $tmp/cj/runs/a/seqwrite-1m-direct -name run.json -exec jq -c '[.hosts[].host]' {} + | sort -u)\" = '[\"$h2\"]' ]"
check "results.json campaign.job_hosts names the job's own hosts" \
	"[ \"\$(jq -c .campaign.job_hosts $tmp/cj/results.json)\" = '{\"seqwrite-1m-direct\":[\"$h2:8765\"]}' ]"
check "report.txt: the write job has a row @$h2 and none @$h1" \
	"awk '/^seqwrite-1m-direct: write.iops/ { w = 1 } /^seqwrite-1m-direct: CPU/ { w = 0 } w && \$1 == \"@$h2\" { f2 = 1 } w && \$1 == \"@$h1\" { f1 = 1 } END { exit !(f2 && !f1) }' $tmp/cj/report.txt"

# --- 2c. target@HOST: the second host opens a file of its own; a device
# missing on it fails the runs naming it with fio's message
sed "/^hosts = /a target@$h2 = file:$tmp/target2" "$tmp/two.conf" > "$tmp/ht.conf"
run_ok ht ch "target@$h2 = file:$tmp/target2"
check "$h2's fio opened its own target (run.json hosts[].target, the file it made)" \
	"[ -s $tmp/target2 ] && [ \"\$(find $tmp/ch -path '*/[0-9][0-9][0-9]/run.json' -exec jq -r '.hosts[1].target' {} + | sort -u)\" = '$tmp/target2' ] && [ \"\$(find $tmp/ch -path '*/[0-9][0-9][0-9]/run.json' -exec jq -r '.hosts[0].target' {} + | sort -u)\" = '$tmp/target' ]"
check "each host got a job file of its own (job.host1.fio reads KBENCH_TARGET_1)" \
	"grep -q 'filename=\${KBENCH_TARGET_1}' \$(find $tmp/ch -name job.host1.fio | head -1)"
sed "s|^target@$h2 = .*|target@$h2 = /dev/kbench-nosuch-$$|" "$tmp/ht.conf" > "$tmp/hm.conf"
"$KBENCH" run -q -c "$tmp/hm.conf" -o "$tmp/cm" >"$tmp/cm.out" 2>"$tmp/cm.err"
check "target@$h2 = a device missing there: both runs failed naming $h2 and fio's message" \
	"[ \"\$(jq '[.runs[] | select(.status == \"failed\" and (.reason | test(\"on $h2 failed.*fio.s output: .*you need to specify size=\")))] | length' $tmp/cm/state.json)\" = 2 ]"
jq -r '.runs[] | .reason // empty' "$tmp/cm/state.json" | head -1 | sed 's/^/# /'

# --- 2d. the servers are not handed --output: fio's client passes the
# options after a --client to that server, which opened the run
# directory's fio.json path on its own machine (as root, O_TRUNC).  With
# a relative -o the path means another place to a server (its working
# directory is /), which says so in the output when it tries
( cd "$tmp" && "$KBENCH" run -q -c "$tmp/two.conf" -o rel >"$tmp/rel.out" 2>"$tmp/rel.err" )
rc=$?
check "kbench run -o rel (relative) exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "no server opened the output file (no 'output file open error' in fio.json)" \
	"[ -n \"\$(find $tmp/rel -name fio.json)\" ] && ! grep -l 'output file open error' \$(find $tmp/rel -name fio.json)"

# --- 2b. an IPv6 load host: a ULA on the first pair (nodad: usable at
# once), a third fio --server in the first namespace on it
v6=fd00:231:$oct::2
if ip addr add "fd00:231:$oct::1/64" dev "kbf$$h1" nodad 2>>"$tmp/setup.err" &&
   ip netns exec "$ns1" ip addr add "$v6/64" dev "kbf$$n1" nodad 2>>"$tmp/setup.err" &&
   ip netns exec "$ns1" fio --server="ip6:$v6,8766" --daemonize="$tmp/fio3.pid" 2>>"$tmp/setup.err"; then
	for i in $(seq 1 50); do [ -s "$tmp/fio3.pid" ] && break; sleep 0.1; done
	sleep 0.5
	conf "$tmp/v6.conf" "[$v6]:8766 $h2"
	run_ok v6 c6 "hosts = [$v6]:8766 $h2"
	check "fio ran as a client of the IPv6 server (campaign.hosts, per-host IOPS)" \
		"[ \"\$(jq -c .campaign.hosts $tmp/c6/results.json)\" = '[\"[$v6]:8766\",\"$h2:8765\"]' ] && grep -q 'host.$v6.read.iops' $tmp/c6/results.json"
	check "report.txt: a row @$v6 under a's row" \
		"awk '\$1 == \"@$v6\" && \$2 > 0 { f = 1 } END { exit !f }' $tmp/c6/report.txt"
else
	check "an IPv6 address and a fio --server on it in $ns1" false
	sed 's/^/# /' "$tmp/setup.err"
fi

# --- 3. a host with no server: every run fails naming it, the campaign
# goes on
conf "$tmp/dead.conf" "$h1 $dead $h2"
"$KBENCH" run -q -c "$tmp/dead.conf" -o "$tmp/c2" >"$tmp/c2.out" 2>"$tmp/c2.err"
rc=$?
check "kbench run with a host that has no server ends (status $rc) with both runs tried" \
	"[ \"\$(jq '.runs | length' $tmp/c2/state.json)\" = 2 ]"
check "both runs failed naming $dead:8765 and fio's message" \
	"[ \"\$(jq '[.runs[] | select(.status == \"failed\" and (.reason | test(\"load host $dead:8765 gave no results.*fio stderr: .*connect\")))] | length' $tmp/c2/state.json)\" = 2 ]"
jq -r '.runs[] | .reason // empty' "$tmp/c2/state.json" | head -1 | sed 's/^/# /'

# --- 3a. that host's server started afterwards: --retry-failed resumes
# the campaign, asks the host that did not answer at its start again and
# records its fio version (the report's fio: line said "unknown" before)
check "campaign.json: $dead:8765's fio version unknown (no answer at the start)" \
	"jq -e '.environment.load_hosts[] | select(.host == \"$dead:8765\") | .fio_version == null' $tmp/c2/campaign.json >/dev/null"
if fio --server="ip:$dead,8765" --daemonize="$tmp/fio4.pid" 2>>"$tmp/setup.err"; then
	for i in $(seq 1 50); do [ -s "$tmp/fio4.pid" ] && break; sleep 0.1; done
	sleep 0.5
	"$KBENCH" run --retry-failed -o "$tmp/c2" >"$tmp/c2r.out" 2>"$tmp/c2r.err"
	rc=$?
	check "kbench run --retry-failed with $dead's server up exits 0 (got $rc), both runs ok" \
		"[ $rc -eq 0 ] && [ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $tmp/c2/state.json)\" = 2 ]"
	check "the resume recorded $dead:8765's fio version ($fiov) in campaign.json and said so" \
		"jq -e '.environment.load_hosts[] | select(.host == \"$dead:8765\") | .fio_version == \"$fiov\"' $tmp/c2/campaign.json >/dev/null && grep -q 'load host $dead:8765 answered fio.s probe now' $tmp/c2r.err"
	check "report.txt's fio: line has $dead:8765's version" \
		"tr -s ' \n' ' ' < $tmp/c2/report.txt | grep -q '$dead:8765 $fiov'"
	stop_server "$tmp/fio4.pid"
else
	check "a fio --server on $dead" false
	sed 's/^/# /' "$tmp/setup.err"
fi

# --- 3b. a server that stops answering (SIGSTOP) in the middle of a run:
# fio's client waits for it until the timeout, and writes no host's
# results; the probe after it names the host that kept it waiting
conf "$tmp/stop.conf" "$h1 $h2" 2
sed -i -e 's/^iterations = 2$/iterations = 1/' -e '/^hosts = /a timeout_grace = 2' \
	-e '/^hosts = /a retry_disturbed = 0' "$tmp/stop.conf"
( for i in $(seq 1 300); do	# the run's fio started, then 0.8 s
	[ -n "$(find "$tmp/cs" -name job.fio 2>/dev/null)" ] && break
	sleep 0.1
  done
  # its process group (fio --daemonize: a session of its own): the
  # server, its connection's process and the job's (the server alone
  # stopped, the job may still finish and report)
  sleep 0.8; kill -STOP -- "-$(cat "$tmp/fio2.pid")" ) &
stopper=$!
"$KBENCH" run -q -c "$tmp/stop.conf" -o "$tmp/cs" >"$tmp/cs.out" 2>"$tmp/cs.err"
wait $stopper
kill -CONT -- "-$(cat "$tmp/fio2.pid")"
check "a timed-out run names $h2 (stopped) as the host that did not answer, $h1 as one that did" \
	"jq -e '[.runs[] | select(.status == \"failed\" and (.reason | test(\"fio timed out.*; $h2:8765 did not answer fio.s probe after the timeout.*; $h1:8765 did \")))] | length == 1' $tmp/cs/state.json >/dev/null"
jq -r '.runs[] | .reason // empty' "$tmp/cs/state.json" | head -1 | sed 's/^/# /'

# --- 4. a server killed (SIGKILL) in the middle of a run ------------------
# (SIGTERM lets fio --server finish the job and report it: a good run)
conf "$tmp/kill.conf" "$h1 $h2" 4
( for i in $(seq 1 300); do	# the first run's fio started, then 1.5 s
	[ -n "$(find "$tmp/c3" -name job.fio 2>/dev/null)" ] && break
	sleep 0.1
  done
  sleep 1.5; stop_server "$tmp/fio2.pid" KILL ) &
killer=$!
"$KBENCH" run -q -c "$tmp/kill.conf" -o "$tmp/c3" >"$tmp/c3.out" 2>"$tmp/c3.err"
wait $killer
check "the run during which $h2's server was killed failed naming it" \
	"jq -e '[.runs[] | select(.status == \"failed\" and (.reason | test(\"$h2\")))] | length >= 1' $tmp/c3/state.json >/dev/null"
check "the campaign went on after it (both runs tried)" \
	"[ \"\$(jq '.runs | length' $tmp/c3/state.json)\" = 2 ]"
jq -r '.runs[] | .reason // empty' "$tmp/c3/state.json" | head -2 | sed 's/^/# /'

# --- 5. loop: targets are refused with hosts = ---------------------------
printf '[global]\njobs = randread-4k\ntarget = loop:64M\nhosts = %s\n[a]\nmethod = local\n' "$h1" > "$tmp/loop.conf"
"$KBENCH" plan -c "$tmp/loop.conf" >/dev/null 2>"$tmp/loop.err"
check "target = loop: with hosts = is refused with FILE:LINE" \
	"grep -q 'loop.conf:3: hosts = runs fio on the load hosts' $tmp/loop.err"
