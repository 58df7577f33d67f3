#!/bin/bash
# make test-lava-server: kab against a real LAVA server on this machine
# (scripts/lava-server.sh started it: lava-server 2023.01 with
# PostgreSQL, its scheduler and a worker with two qemu devices, each
# tagged with its name).
. "$(dirname "$0")/../cli/lib.sh"

PY=/usr/bin/python3
D=${KAB_LAVA_SERVER_DIR:-/tmp/kab-lava-server}
URL=$(cat $D/url)
export KAB_LAVA_TOKEN=$(cat $D/token)
QUICK="--set nr_task=1 --set warmup=0 --set testtime=1s --monitors none"
JOB=$TOP/jobs/will-it-scale-malloc1.yaml
[ -z "${KAB_SAN:-}" ] || export KAB_AGENT=$TOP/build/kab-agent

test_expect "kab ab --target lava:URL: every boot a job of the server, alternating, stored and compared" '
	kab ab --target lava:$URL --a-cmdline transparent_hugepage=never \
		--b-cmdline transparent_hugepage=always --job $JOB $QUICK \
		--boots 2 --runs-per-boot 2 >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/o $TMP/e
	[ $(grep -c "^kab: \[[1-4]/4 [^]]*\] LAVA job [0-9]*: ${URL}scheduler/job/[0-9]*$" $TMP/e) = 4 ]
	[ "$(sql "SELECT group_concat(k.label || \"/\" || json_extract(r.host, \"\$.thp_enabled\") || \"/\" || json_extract(r.host, \"\$.lava_worker\"), \" \") FROM (SELECT * FROM runs ORDER BY id) r JOIN kernels k ON k.id = r.kernel_id")" = "transparent_hugepage=never/never/kab-worker transparent_hugepage=always/always/kab-worker transparent_hugepage=never/never/kab-worker transparent_hugepage=always/always/kab-worker" ]
	# whichever device LAVA picked is the run'"'"'s block
	[ "$(sql "SELECT count(*) FROM runs WHERE block = json_extract(host, \"\$.lava_device\") AND block IN (\"kab-qemu01\", \"kab-qemu02\")")" = 4 ]
	[ "$(sql "SELECT count(DISTINCT run_id || \".\" || iteration) FROM samples")" = 8 ]
	# the jobs are the server'"'"'s, Complete
	for id in $(sed -n "s/^kab: \[.\/4 [^]]*\] LAVA job \([0-9]*\):.*/\1/p" $TMP/e); do
		$PY -c "
import json, sys, urllib.request
r = urllib.request.Request(sys.argv[1] + \"api/v0.2/jobs/\" + sys.argv[2] + \"/\", headers={\"Authorization\": \"Token \" + sys.argv[3]})
j = json.load(urllib.request.urlopen(r))
assert (j[\"state\"], j[\"health\"]) == (\"Finished\", \"Complete\"), j
" $URL $id "$KAB_LAVA_TOKEN"
	done
	kab compare transparent_hugepage=never transparent_hugepage=always >$TMP/c
	grep -q "will-it-scale.per_process_ops" $TMP/c
	not grep -aq "$KAB_LAVA_TOKEN" $KAB_DB
'

test_expect "kab ab --devices 2: both kernels on each of the server's devices, in parallel" '
	before=$(sql "SELECT count(*) FROM runs")
	kab ab --target lava:$URL --devices 2 --a-label A2 --b-label B2 \
		--job $JOB $QUICK --boots 1 --runs-per-boot 1 >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/o $TMP/e
	grep -q "^kab: 2 devices, each a block with both kernels every round: kab-qemu01 kab-qemu02$" $TMP/e
	[ "$(sql "SELECT group_concat(x, \" \") FROM (SELECT k.label || \"@\" || r.block AS x FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE r.id > $before AND r.status = \"ok\" ORDER BY x)")" = "A2@kab-qemu01 A2@kab-qemu02 B2@kab-qemu01 B2@kab-qemu02" ]
'

test_expect "the server refuses a bad token and knows no such device type: one line each" '
	KAB_LAVA_TOKEN=wrong expect_error 1 "refused the token (HTTP 403)" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	expect_error 1 "has no device type .nosuch." -- \
		"$KAB" run --target lava:$URL --device-type nosuch $QUICK $JOB
'

test_expect "^C cancels the server's job; the run is interrupted" '
	"$KAB" run --target lava:$URL --runs 3 --set nr_task=1 --set warmup=0 \
		--set testtime=20s --monitors none $JOB >$TMP/o 2>$TMP/e &
	pid=$!
	for i in $(seq 900); do
		grep -q "iteration 1 of 3" $TMP/e && break
		sleep 0.2
	done
	id=$(sed -n "s/^kab: \[1\/1\] LAVA job \([0-9]*\):.*/\1/p" $TMP/e)
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	cat $TMP/e
	[ $rc = 130 ]
	[ "$(sql "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = interrupted ]
	$PY -c "
import json, sys, urllib.request
r = urllib.request.Request(sys.argv[1] + \"api/v0.2/jobs/\" + sys.argv[2] + \"/\", headers={\"Authorization\": \"Token \" + sys.argv[3]})
j = json.load(urllib.request.urlopen(r))
assert j[\"health\"] == \"Canceled\", j
" $URL $id "$KAB_LAVA_TOKEN"
'

test_done
