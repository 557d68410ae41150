#!/bin/bash
# tests/e2e_push.sh - `kbench push` against real servers on 127.0.0.1:
#  1. tests/http_server.py (python3): --format json POSTs the results
#     export; token sent, never printed; 503 -> retries then queued (exit
#     75); 400 -> no retry, the server's message, nothing queued;
#  2. InfluxDB 1.x (Debian's influxd, own config and data dir in a temp
#     dir, free ports): the demo campaign of tests/data/push/demo pushed
#     and queried back (/query) value by value with its tags; pushed twice
#     without duplicates; wrong database -> 4xx, no retries; server down ->
#     retries, exit 75, queued, nothing lost, `kbench push DIR` sends it
#     when the server is back; precision=s converts the timestamps (the
#     points read back at the same times); with max-body-size = 3000 (the
#     B41 case on a real InfluxDB) the 413 batches are halved until they
#     fit and all 9 points arrive;
#  3. (root, fio) `push = URL` in kernels.conf: a 1 s loop campaign pushes
#     after every run with run.json's start time; with the server down the
#     campaign completes and the push is queued, then sent; a push = URL
#     that redirects to another origin: the campaign completes (exit 0),
#     warned, nothing queued.
# Prints SKIP lines for what cannot run (no python3, no influxd, not root).
# Closing line: "e2e-push: N passed, N failed[, N skipped]".
set -u
. "$(dirname "$0")/e2e_lib.sh"
repo=$(pwd)
http_pid=""; influx_pid=""
finish() {
	[ -n "$http_pid" ] && kill "$http_pid" 2>/dev/null && wait "$http_pid" 2>/dev/null
	[ -n "$influx_pid" ] && kill "$influx_pid" 2>/dev/null && wait "$influx_pid" 2>/dev/null
	[ -n "${influx2_pid:-}" ] && kill "$influx2_pid" 2>/dev/null && wait "$influx2_pid" 2>/dev/null
	[ -n "${dev:-}" ] && losetup -d "$dev" 2>/dev/null
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	e2e_summary e2e-push
	exit $?
}
trap finish INT TERM

for tool in python3 jq curl; do
	if ! command -v $tool >/dev/null; then
		echo "SKIP: e2e-push needs $tool (scripts/install-deps installs it)"
		skip=1
		finish
	fi
done

tmp=$(mktemp -d /tmp/kbench-e2e-push.XXXXXX)
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# A copy of the demo campaign: kbench push must not write into tests/data.
demo="$tmp/demo"
cp -r "$repo/tests/data/push/demo" "$demo"
tree_sum() { (cd "$1" && find . -type f ! -name push-queue.json | sort | xargs -d '\n' sha256sum | sha256sum); }
demo_sum=$(tree_sum "$demo")
# The model the push is made from (runs + summaries), for comparisons.
"$KBENCH" report --format json "$demo" >"$tmp/model.json" 2>"$tmp/model.err"
check "kbench report --format json on the demo campaign" \
	"[ \"\$(jq '.runs | length' $tmp/model.json)\" = 12 ]"

# ---- 1. JSON format against tests/http_server.py ----
mkdir -p "$tmp/www" "$tmp/posts"
# the interpreter itself, not a wrapper (pyenv shims fork), so that kill
# $http_pid stops the server
py=$(python3 -c 'import sys; print(sys.executable)')
"$py" "$repo/tests/http_server.py" --root "$tmp/www" --post-dir "$tmp/posts" \
	--log "$tmp/http.log" --port-file "$tmp/http.port" 2>"$tmp/http.err" &
http_pid=$!
for _ in $(seq 1 100); do [ -s "$tmp/http.port" ] && break; sleep 0.1; done
hp=$(cat "$tmp/http.port" 2>/dev/null)
if [ -z "$hp" ]; then
	bad "tests/http_server.py did not start: $(cat "$tmp/http.err")"
else
	hurl="http://127.0.0.1:$hp"
	KBENCH_PUSH_TOKEN=s3cr3t-t0ken "$KBENCH" push --format json \
		--auth-scheme Bearer "$hurl/ingest" "$demo" >"$tmp/j1.out" 2>"$tmp/j1.err"
	rc=$?
	check "push --format json exits 0 (got $rc)" "[ $rc -eq 0 ]"
	check "one POST to /ingest" "[ \"\$(jq -s '[.[] | select(.method == \"POST\" and .path == \"/ingest\")] | length' $tmp/http.log)\" = 1 ]"
	check "the body is the results export: schema_version 1, 12 runs, the summaries and comparisons of the model" \
		"[ \"\$(jq -S '{schema_version, runs: (.runs | length), summaries, comparisons}' $tmp/posts/1.body)\" = \"\$(jq -S '{schema_version, runs: (.runs | length), summaries, comparisons}' $tmp/model.json)\" ] && [ \"\$(jq '.comparisons | length' $tmp/posts/1.body)\" -gt 0 ]"
	check "Content-Type application/json" \
		"[ \"\$(jq -r '.headers[\"Content-Type\"]' $tmp/posts/1.json)\" = application/json ]"
	check "the token was sent as 'Authorization: Bearer ...'" \
		"[ \"\$(jq -r '.headers.Authorization' $tmp/posts/1.json)\" = 'Bearer s3cr3t-t0ken' ]"
	check "the token appears in no output of kbench" \
		"! grep -q s3cr3t $tmp/j1.out $tmp/j1.err"
	KBENCH_PUSH_TOKEN=s3cr3t-t0ken "$KBENCH" push -n --format json "$hurl/ingest" "$demo" >"$tmp/j2.out" 2>&1
	check "--dry-run prints the request, sends nothing, hides the token" \
		"grep -q '^POST $hurl/ingest' $tmp/j2.out && grep -q 'KBENCH_PUSH_TOKEN' $tmp/j2.out && ! grep -q s3cr3t $tmp/j2.out && [ ! -e $tmp/posts/2.body ]"

	"$KBENCH" push --format json --retries 2 --backoff 0.1 "$hurl/status/503" "$demo" >/dev/null 2>"$tmp/j3.err"
	rc=$?
	check "503: exit 75 (got $rc)" "[ $rc -eq 75 ]"
	check "503: 3 attempts (1 + 2 retries)" "[ \"\$(grep -c '/status/503' $tmp/http.log)\" = 3 ]"
	check "503: 'retrying' said twice, the server's message shown" \
		"[ \"\$(grep -c 'retrying in' $tmp/j3.err)\" = 2 ] && grep -q 'simulated 503' $tmp/j3.err"
	check "503: queued in push-queue.json" \
		"[ \"\$(jq -r '.pending[0].url + \" \" + .pending[0].format' $demo/push-queue.json)\" = '$hurl/status/503 json' ]"

	"$KBENCH" push --format json --retries 2 --backoff 0.1 "$hurl/status/400" "$demo" >/dev/null 2>"$tmp/j4.err"
	rc=$?
	check "400: exit 1 (got $rc), one attempt, the server's message" \
		"[ $rc -eq 1 ] && [ \"\$(grep -c '/status/400' $tmp/http.log)\" = 1 ] && grep -q 'HTTP 400: simulated 400' $tmp/j4.err && ! grep -q retrying $tmp/j4.err"
	check "400: not queued" "[ \"\$(jq '.pending | length' $demo/push-queue.json)\" = 1 ]"
	"$KBENCH" push "http://user:pw@127.0.0.1:$hp/ingest" "$demo" >/dev/null 2>"$tmp/j5.err"
	rc=$?
	check "credentials in the URL are refused (exit $rc), nothing sent" \
		"[ $rc -eq 1 ] && grep -q 'holds credentials' $tmp/j5.err && [ ! -e $tmp/posts/2.body ]"
	rm -f "$demo/push-queue.json"
	# a queue in the campaign directory names the host: it does not
	# get the environment's token (the directory is not trusted)
	cp -a "$demo" "$tmp/qdemo"
	printf '{"schema_version": 1, "pending": [{"url": "%s/evil", "format": "json", "queued": "2026-01-01T00:00:00Z", "attempts": 1}]}\n' \
		"$hurl" >"$tmp/qdemo/push-queue.json"
	KBENCH_PUSH_TOKEN=s3cr3t-t0ken "$KBENCH" push "$tmp/qdemo" >"$tmp/jq.out" 2>"$tmp/jq.err"
	rc=$?
	check "kbench push DIR: a queued URL gets no KBENCH_PUSH_TOKEN, said so (got $rc)" \
		"[ $rc -eq 0 ] && [ \"\$(jq -s '[.[] | select(.path == \"/evil\")] | length' $tmp/posts/*.json)\" = 1 ] && [ \"\$(jq -s '[.[] | select(.path == \"/evil\") | .headers.Authorization // empty] | length' $tmp/posts/*.json)\" = 0 ] && grep -q 'goes without KBENCH_PUSH_TOKEN: its URL comes from $tmp/qdemo/push-queue.json' $tmp/jq.err"
	# nor the push = of the campaign's own kernels.conf copy
	rm -f "$tmp/qdemo/push-queue.json"
	sed -i "s|^\[global\]\$|[global]\npush = $hurl/conf2|" "$tmp/qdemo/kernels.conf"
	KBENCH_PUSH_TOKEN=s3cr3t-t0ken "$KBENCH" push "$tmp/qdemo" >/dev/null 2>"$tmp/jc.err"
	rc=$?
	check "kbench push DIR: DIR/kernels.conf's push = gets no KBENCH_PUSH_TOKEN either, said so (got $rc)" \
		"[ $rc -eq 0 ] && [ \"\$(jq -s '[.[] | select(.path == \"/conf2\")] | length' $tmp/posts/*.json)\" = 1 ] && [ \"\$(jq -s '[.[] | select(.path == \"/conf2\") | .headers.Authorization // empty] | length' $tmp/posts/*.json)\" = 0 ] && grep -q 'its URL comes from $tmp/qdemo/kernels.conf' $tmp/jc.err"
	# nor a ~/.netrc 'default' line, which names no host (a break-it
	# trial: the queue's URL got its login); a 'machine HOST' line does
	printf 'default login dflt password DEFAULTSECRET\n' >"$tmp/netrc-default"
	printf 'machine 127.0.0.1 login mach password MACHSECRET\ndefault login dflt password DEFAULTSECRET\n' >"$tmp/netrc-machine"
	chmod 600 "$tmp/netrc-default" "$tmp/netrc-machine"
	nd_auth() { jq -s -r "[.[] | select(.path == \"$1\") | .headers.Authorization // \"none\"] | join(\" \")" "$tmp"/posts/*.json; }
	for nd in nd1:netrc-default nd2:netrc-machine; do
		rm -f "$tmp/qdemo/push-queue.json"
		printf '{"schema_version": 1, "pending": [{"url": "%s/%s", "format": "json", "queued": "2026-01-01T00:00:00Z", "attempts": 1}]}\n' \
			"$hurl" "${nd%%:*}" >"$tmp/qdemo/push-queue.json"
		"$KBENCH" push --netrc-file "$tmp/${nd#*:}" "$tmp/qdemo" >/dev/null 2>"$tmp/${nd%%:*}.err"
		echo $? >"$tmp/${nd%%:*}.rc"
	done
	check "kbench push DIR: a queued URL gets no ~/.netrc 'default' login, said so (got $(cat $tmp/nd1.rc))" \
		"[ \"\$(cat $tmp/nd1.rc)\" = 0 ] && [ \"\$(nd_auth /nd1)\" = none ] && grep -q \"goes without the 'default' entry of $tmp/netrc-default\" $tmp/nd1.err"
	check "... but the 'machine 127.0.0.1' line of its host (got $(cat $tmp/nd2.rc))" \
		"[ \"\$(cat $tmp/nd2.rc)\" = 0 ] && [ \"\$(nd_auth /nd2)\" = 'Basic $(printf mach:MACHSECRET | base64)' ]"
	# --dry-run says the same of a queued URL: no token, no warning
	# that it travels in clear text (a break-it trial: both were said)
	printf '{"schema_version": 1, "pending": [{"url": "%s/nd0", "format": "json", "queued": "2026-01-01T00:00:00Z", "attempts": 1}]}\n' \
		"$hurl" >"$tmp/qdemo/push-queue.json"
	KBENCH_PUSH_TOKEN=s3cr3t-t0ken "$KBENCH" push -n "$tmp/qdemo" >"$tmp/nd0.out" 2>"$tmp/nd0.err"
	rc=$?
	check "kbench push -n DIR: a queued URL's Authorization is its netrc 'machine HOST' entry, no token, no clear-text warning (got $rc)" \
		"[ $rc -eq 0 ] && grep -q \"^Authorization: the netrc's entry for the host if it has one (not the environment's credentials nor the netrc's 'default' entry\" $tmp/nd0.out && ! grep -q 'KBENCH_PUSH_TOKEN' $tmp/nd0.out && ! grep -q 'clear text' $tmp/nd0.err && [ -z \"\$(nd_auth /nd0)\" ]"
	rm -f "$tmp/qdemo/push-queue.json"
	"$KBENCH" push --netrc-file "$tmp/netrc-default" -f json "$hurl/nd3" "$tmp/qdemo" >/dev/null 2>&1
	rc=$?
	check "a URL given on the command line gets the 'default' login (got $rc)" \
		"[ $rc -eq 0 ] && [ \"\$(nd_auth /nd3)\" = 'Basic $(printf dflt:DEFAULTSECRET | base64)' ]"
	"$KBENCH" push --netrc-file "$tmp/no-netrc" -f json "$hurl/nd4" "$tmp/qdemo" >/dev/null 2>"$tmp/nd4.err"
	rc=$?
	check "a --netrc-file that is not there is said, the push goes without credentials (got $rc)" \
		"[ $rc -eq 0 ] && [ \"\$(nd_auth /nd4)\" = none ] && grep -qF '$tmp/no-netrc: No such file or directory: no credentials from it' $tmp/nd4.err"
	# a password in a netrc that others can read, or that another user
	# owns, is not used, as ftp(1) refuses it: nothing sent, the file
	# named with the fix (a break-it trial sent it)
	cp "$tmp/netrc-machine" "$tmp/netrc-644" && chmod 644 "$tmp/netrc-644"
	"$KBENCH" push --netrc-file "$tmp/netrc-644" -f json "$hurl/nd5" "$tmp/qdemo" >/dev/null 2>"$tmp/nd5.err"
	rc=$?
	check "a netrc password readable by others: not used, nothing sent, exit 1, the file and chmod 600 named (got $rc)" \
		"[ $rc -eq 1 ] && [ -z \"\$(nd_auth /nd5)\" ] && grep -qF 'the password of the netrc entry for 127.0.0.1 is not used' $tmp/nd5.err && grep -qF '$tmp/netrc-644: readable by others than its owner (mode 0644); chmod 600 $tmp/netrc-644' $tmp/nd5.err"
	# --dry-run says so beforehand (a helper's note: it read no netrc)
	"$KBENCH" push -n --netrc-file "$tmp/netrc-644" -f json "$hurl/nd7" "$tmp/qdemo" >"$tmp/nd7.out" 2>"$tmp/nd7.err"
	check "push --dry-run with that netrc: says its password would not be used, sends nothing" \
		"[ -z \"\$(nd_auth /nd7)\" ] && grep -q '^POST $hurl/nd7' $tmp/nd7.out && grep -qF 'the password of the netrc entry for 127.0.0.1 is not used' $tmp/nd7.err"
	if [ "$(id -u)" -eq 0 ]; then
		cp "$tmp/netrc-machine" "$tmp/netrc-nobody" && chown 65534 "$tmp/netrc-nobody"
		"$KBENCH" push --netrc-file "$tmp/netrc-nobody" -f json "$hurl/nd6" "$tmp/qdemo" >/dev/null 2>"$tmp/nd6.err"
		rc=$?
		check "... nor one in a netrc another user owns (got $rc)" \
			"[ $rc -eq 1 ] && [ -z \"\$(nd_auth /nd6)\" ] && grep -qF '$tmp/netrc-nobody: owned by uid 65534 (trusted: root); chown it to the user it is for' $tmp/nd6.err"
	fi
	rm -f "$tmp/qdemo/push-queue.json"
fi

# ---- 2. InfluxDB 1.x ----
influxd=$(command -v influxd)
if [ -z "$influxd" ]; then
	echo "SKIP: InfluxDB tests need influxd (Debian package influxdb; scripts/install-deps)"
	skip=$((skip + 1))
	finish
fi
ip=$(free_port); rp=$(free_port)
mkdir -p "$tmp/influx"
cat >"$tmp/influx/influxdb.conf" <<CONF
reporting-enabled = false
bind-address = "127.0.0.1:$rp"
[meta]
  dir = "$tmp/influx/meta"
[data]
  dir = "$tmp/influx/data"
  wal-dir = "$tmp/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:$ip"
  log-enabled = false
  unix-socket-enabled = false
[continuous_queries]
  enabled = false
CONF
iurl="http://127.0.0.1:$ip"
influx_start() {
	"$influxd" -config "$tmp/influx/influxdb.conf" >>"$tmp/influx/log" 2>&1 &
	influx_pid=$!
	for _ in $(seq 1 100); do
		curl -sf "$iurl/ping" >/dev/null && return 0
		sleep 0.1
	done
	return 1
}
influx_stop() { kill "$influx_pid"; wait "$influx_pid" 2>/dev/null; influx_pid=""; }
q() {	# q DB QUERY -> JSON (times as integer ns)
	curl -sf -G "$iurl/query" --data-urlencode "db=$1" \
		--data-urlencode "epoch=ns" --data-urlencode "q=$2"
}
if ! influx_start; then
	bad "influxd did not answer /ping on $iurl: $(tail -5 "$tmp/influx/log")"
	finish
fi
curl -sf -XPOST "$iurl/query" --data-urlencode 'q=CREATE DATABASE kbench' >/dev/null
curl -sf -XPOST "$iurl/query" --data-urlencode 'q=CREATE DATABASE kbrun' >/dev/null

"$KBENCH" push --db kbench --batch-size 4 "$iurl" "$demo" >"$tmp/i1.out" 2>"$tmp/i1.err"
rc=$?
check "push to InfluxDB exits 0 (got $rc)" "[ $rc -eq 0 ]"
check "9 points (3 configurations x 3 counted runs) in 3 batches of <= 4" \
	"grep -q 'pushed 9 points .* in 3 batches' $tmp/i1.err"
# every point of a /query answer as an object {column: value}
pts='.results[0].series[0] as $s | [$s.values[] | [$s.columns, .] | transpose | map({(.[0]): .[1]}) | add]'
q kbench 'SELECT * FROM "randread-4k"' | jq "$pts" >"$tmp/p1.json"
check "9 points queried back" "[ \"\$(jq length $tmp/p1.json)\" = 9 ]"
# Compare every metric of every counted run of the model with the point of
# the same configuration and iteration: jq prints both with 17 digits.
jq -S --slurpfile m "$tmp/model.json" 'map({key: (.configuration + "/" + (.iteration | tostring)), value: .}) | from_entries as $p
  | [$m[0].runs[] | select(.status == "ok" and .warmup == false)
     | . as $r | $p[$r.configuration + "/" + ($r.iteration | tostring)] as $pt
     | ($r.metrics | to_entries[] | select(.value != null)
        | select($pt[.key] != .value) | "\($r.configuration) \($r.iteration) \(.key): pushed \($pt[.key]) model \(.value)")]' \
	"$tmp/p1.json" >"$tmp/diff.json"
check "every metric of every run reads back identically ($(jq length "$tmp/diff.json") differences)" \
	"[ \"\$(jq length $tmp/diff.json)\" = 0 ] && [ \"\$(jq '[.runs[] | select(.warmup == false) | .metrics | length] | add' $tmp/model.json)\" -gt 200 ]"
jq -r 'map([.variant, .release, .host, .campaign, .configuration, .NM] | join(" ")) | unique | join(",")' "$tmp/p1.json" >"$tmp/tags.txt"
check "tags: variant, release, host, campaign, configuration, NM per point" \
	"[ \"\$(cat $tmp/tags.txt)\" = 'running 6.18.44-fc-v782 vm demo running,NM=0 0,running 6.18.44-fc-v782 vm demo running,NM=1 1,running 6.18.44-fc-v782 vm demo running,NM=2 2' ]"
check "warm-up runs (iteration 0) were not pushed" \
	"[ \"\$(jq 'map(select(.iteration == 0)) | length' $tmp/p1.json)\" = 0 ]"
# time = state.json finished - elapsed_s (these run.json predate start_unix_ns)
fin=$(jq -r '.runs["running,NM=1/randread-4k/002"].finished' "$demo/state.json")
el=$(jq '.elapsed_s | round' "$demo/runs/running,NM=1/randread-4k/002/run.json")
want_t=$(( ($(date -u -d "$fin" +%s) - el) * 1000000000 ))
check "timestamp of NM=1 iteration 2 is its start ($want_t)" \
	"[ \"\$(jq 'map(select(.NM == \"1\" and .iteration == 2)) | .[0].time' $tmp/p1.json)\" = $want_t ]"

"$KBENCH" push -q "$iurl/write?db=kbench" "$demo" >/dev/null 2>"$tmp/i2.err"
rc=$?
q kbench 'SELECT count("read.iops") FROM "randread-4k"' >"$tmp/q2.json"
check "pushed twice (exit $rc): still 9 points, no duplicates" \
	"[ $rc -eq 0 ] && [ \"\$(jq '.results[0].series[0].values[0][1]' $tmp/q2.json)\" = 9 ]"

"$KBENCH" push --retries 3 --backoff 0.1 "$iurl/write?db=nosuchdb" "$demo" >/dev/null 2>"$tmp/i3.err"
rc=$?
check "wrong database: exit 1 (got $rc), the server's message, no retries" \
	"[ $rc -eq 1 ] && grep -q 'database not found' $tmp/i3.err && ! grep -q retrying $tmp/i3.err"
check "wrong database: nothing queued" "[ ! -e $demo/push-queue.json ]"

influx_stop
"$KBENCH" push --retries 2 --backoff 0.2 "$iurl/write?db=kbench" "$demo" >/dev/null 2>"$tmp/i4.err"
rc=$?
check "server down: exit 75 (got $rc) after 2 retries and a clear error" \
	"[ $rc -eq 75 ] && [ \"\$(grep -c 'retrying in' $tmp/i4.err)\" = 2 ] && grep -q 'failed 3 times' $tmp/i4.err && grep -q 'kbench push $demo' $tmp/i4.err"
check "server down: queued in push-queue.json" \
	"[ \"\$(jq -r '.pending[0].url' $demo/push-queue.json)\" = '$iurl/write?db=kbench' ]"
check "server down: nothing of the campaign lost or changed" "[ \"\$(tree_sum $demo)\" = '$demo_sum' ]"
if influx_start; then
	curl -sf -XPOST "$iurl/query" --data-urlencode 'q=DROP MEASUREMENT "randread-4k"' -G --data-urlencode db=kbench >/dev/null
	"$KBENCH" push "$demo" >/dev/null 2>"$tmp/i5.err"
	rc=$?
	q kbench 'SELECT count("read.iops") FROM "randread-4k"' >"$tmp/q3.json"
	check "server back: 'kbench push DIR' sends the queue (exit $rc), 9 points, queue gone" \
		"[ $rc -eq 0 ] && [ \"\$(jq '.results[0].series[0].values[0][1]' $tmp/q3.json)\" = 9 ] && [ ! -e $demo/push-queue.json ]"
else
	bad "influxd did not restart"
fi

curl -sf -XPOST "$iurl/query" --data-urlencode 'q=CREATE DATABASE kbprec' >/dev/null
"$KBENCH" push "$iurl/write?db=kbprec&precision=s" "$demo" >/dev/null 2>"$tmp/i6.err"
rc=$?
q kbprec 'SELECT "read.iops" FROM "randread-4k"' | jq -c '[.results[0].series[0].values[][0]] | sort' >"$tmp/t6.json"
q kbench 'SELECT "read.iops" FROM "randread-4k"' | jq -c '[.results[0].series[0].values[][0]] | sort' >"$tmp/t1.json"
check "precision=s (exit $rc): the 9 points read back at the times of the ns push" \
	"[ $rc -eq 0 ] && [ \"\$(jq length $tmp/t6.json)\" = 9 ] && [ \"\$(cat $tmp/t6.json)\" = \"\$(cat $tmp/t1.json)\" ]"
"$KBENCH" push "$iurl/write?db=kbprec&precision=m" "$demo" >/dev/null 2>"$tmp/i7.err"
rc=$?
check "precision=m: refused before sending (exit $rc), saying why" \
	"[ $rc -eq 1 ] && grep -q 'same timestamp' $tmp/i7.err"

# B41 on a real InfluxDB: a second influxd with max-body-size = 3000
ip2=$(free_port); rp2=$(free_port)
mkdir -p "$tmp/influx2"
sed -e "s|$tmp/influx/|$tmp/influx2/|" -e "s|127.0.0.1:$ip\"|127.0.0.1:$ip2\"|" \
	-e "s|127.0.0.1:$rp\"|127.0.0.1:$rp2\"|" \
	-e 's|^  log-enabled = false|  log-enabled = false\n  max-body-size = 3000|' \
	"$tmp/influx/influxdb.conf" >"$tmp/influx2/influxdb.conf"
"$influxd" -config "$tmp/influx2/influxdb.conf" >>"$tmp/influx2/log" 2>&1 &
influx2_pid=$!
iurl2="http://127.0.0.1:$ip2"
for _ in $(seq 1 100); do curl -sf "$iurl2/ping" >/dev/null && break; sleep 0.1; done
curl -sf -XPOST "$iurl2/query" --data-urlencode 'q=CREATE DATABASE kbench' >/dev/null
"$KBENCH" push --db kbench "$iurl2" "$demo" >/dev/null 2>"$tmp/i8.err"
rc=$?
n8=$(curl -sf -G "$iurl2/query" --data-urlencode db=kbench \
	--data-urlencode 'q=SELECT count("read.iops") FROM "randread-4k"' | jq '.results[0].series[0].values[0][1]')
check "max-body-size = 3000 (B41): exit $rc, 413 answered by halving the batch, 9 points stored" \
	"[ $rc -eq 0 ] && [ \"$n8\" = 9 ] && grep -q 'HTTP 413' $tmp/i8.err && grep -q 'batch-size 3' $tmp/i8.err && ! grep -q 'fix the URL' $tmp/i8.err"
kill "$influx2_pid"; wait "$influx2_pid" 2>/dev/null; influx2_pid=""

# ---- 3. push = URL in kernels.conf, after every run (root, fio) ----
if [ "$(id -u)" -ne 0 ] || ! command -v fio >/dev/null || ! command -v losetup >/dev/null; then
	echo "SKIP: push after every run needs root, fio and losetup (a loop-device campaign)"
	skip=$((skip + 1))
	finish
fi
cat >"$tmp/push.conf" <<CONF
[global]
jobs = randread-4k
iterations = 2
warmup = 1
runtime = 1
target = loop:32M
profiles = $repo/profiles
tunable NM = queue/nomerges: 0 1
push = $iurl/write?db=kbrun
; one push per planned run: no rounds run again on a busy machine (a
; superseded run's point stays in the store, see runner/retry.h)
retry_disturbed = 0

[running]
method = local
CONF
c1="$tmp/c1"
"$KBENCH" run -c "$tmp/push.conf" -o "$c1" >"$tmp/r1.out" 2>"$tmp/r1.err"
rc=$?
check "campaign with push = URL exits 0 (got $rc)" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || tail -5 "$tmp/r1.err"
check "a push after each of the 4 counted runs" "[ \"\$(grep -c 'pushed 1 point ' $tmp/r1.err)\" = 4 ]"
q kbrun 'SELECT "read.iops", iteration, configuration FROM "randread-4k"' | jq "$pts" >"$tmp/p4.json"
check "4 points in InfluxDB" "[ \"\$(jq length $tmp/p4.json)\" = 4 ]"
jq -s '[.[] | select(.warmup == false) | .start_unix_ns] | sort' "$c1"/runs/*/randread-4k/*/run.json >"$tmp/starts.json"
check "point times are run.json start_unix_ns" \
	"[ \"\$(jq -c '[.[].time] | sort' $tmp/p4.json)\" = \"\$(jq -c . $tmp/starts.json)\" ]"
check "read.iops of each point equals its metrics.json" \
	"[ \"\$(jq -c 'map(.[\"read.iops\"]) | sort' $tmp/p4.json)\" = \"\$(jq -s -c '[.[] | select(.warmup == false) | .metrics[\"read.iops\"]] | sort' $c1/runs/*/randread-4k/*/metrics.json)\" ]"

influx_stop
c2="$tmp/c2"
"$KBENCH" run -c "$tmp/push.conf" -o "$c2" >"$tmp/r2.out" 2>"$tmp/r2.err"
rc=$?
check "store down: the campaign still completes (exit $rc), 6 runs ok" \
	"[ $rc -eq 0 ] && [ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $c2/results.json)\" = 6 ]"
check "store down: the push is queued, with a warning" \
	"grep -q 'queued in' $tmp/r2.err && [ \"\$(jq -r '.pending[0].url' $c2/push-queue.json)\" = '$iurl/write?db=kbrun' ]"
if influx_start; then
	"$KBENCH" push "$c2" >/dev/null 2>"$tmp/r3.err"
	rc=$?
	q kbrun "SELECT count(\"read.iops\") FROM \"randread-4k\" WHERE campaign = 'c2'" >"$tmp/q5.json"
	check "store back: kbench push DIR sends the queued campaign (exit $rc): 4 points" \
		"[ $rc -eq 0 ] && [ \"\$(jq '.results[0].series[0].values[0][1]' $tmp/q5.json)\" = 4 ] && [ ! -e $c2/push-queue.json ]"
else
	bad "influxd did not restart"
fi

# a store that redirects to another origin (localhost, not 127.0.0.1):
# the measurement goes on, nothing is queued
if [ -n "$hp" ]; then
	sed "s|^push = .*|push = $hurl/redirect/308/write?db=kbrun\&to=http://localhost:$hp/write%3Fdb%3Dkbrun|" \
		"$tmp/push.conf" >"$tmp/redir.conf"
	c3="$tmp/c3"
	KBENCH_PUSH_TOKEN=s3cr3t-t0ken "$KBENCH" run -c "$tmp/redir.conf" -o "$c3" >"$tmp/r4.out" 2>"$tmp/r4.err"
	rc=$?
	check "push = URL redirecting to another origin: the campaign completes (exit $rc), 6 runs ok" \
		"[ $rc -eq 0 ] && [ \"\$(jq '[.runs[] | select(.status == \"ok\")] | length' $c3/results.json)\" = 6 ]"
	check "... each push names the Location, not followed, nothing queued, the token never sent to localhost" \
		"grep -q 'redirects to http://localhost:$hp/write?db=kbrun, another origin' $tmp/r4.err && grep -q 'not queued' $tmp/r4.err && [ ! -e $c3/push-queue.json ] && ! grep -q '\"path\": \"/write?db=kbrun\"' $tmp/http.log"
fi
finish
