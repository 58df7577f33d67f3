#!/bin/bash
# Crash consistency: kab killed with -9 at random moments of import,
# merge and a run, and a database on a full disk.  After each, SQLite's
# integrity check passes and what is stored is whole: a run imported or
# merged entirely or not at all, an iteration with all its metrics.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml

# An export of N runs of 5 iterations of 60 metrics each.
big_export() {
	python3 - "$1" <<-'PY'
	import json, sys
	n = int(sys.argv[1])
	runs = []
	for i in range(n):
	    runs.append({"uuid": "20000000-0000-4000-8000-%012d" % i,
	        "kernel": {"label": "k%d" % (i % 2), "release": "6.1.0",
	                   "cmdline": "", "commit": None},
	        "job": "will-it-scale-malloc1", "suite": "will-it-scale",
	        "test": "malloc1", "params": {"nr_task": "1"},
	        "resolved": {}, "target": "qemu", "host": {"nr_cpus": 2},
	        "iterations_planned": 5, "started_at": "2026-12-03T10:00:00Z",
	        "ended_at": "2026-12-03T10:01:00Z", "status": "ok",
	        "iterations": [{"iteration": k + 1, "metrics":
	            {"m.%02d" % m: float(i * 1000 + k * 60 + m) for m in range(60)}}
	            for k in range(5)]})
	print(json.dumps({"kab_export": 1, "kab_version": "0.1.0", "runs": runs}))
	PY
}

# The database is intact and every run in it has 300 samples.
whole() {
	test "$(sqlite3 "$1" "PRAGMA integrity_check")" = ok
	test "$(sqlite3 "$1" "SELECT count(*) FROM (SELECT run_id FROM samples GROUP BY run_id HAVING count(*) != 300)")" = 0
	test "$(sqlite3 "$1" "SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM samples)")" = 0
}

test_expect "kill -9 at random moments of an import: intact, each run whole or absent" '
	big_export 200 >$TMP/big.json
	for i in $(seq 1 6); do
		"$KAB" --db $TMP/imp.db import $TMP/big.json >/dev/null 2>&1 &
		pid=$!
		sleep 0.$((RANDOM % 9 + 1))
		kill -9 $pid 2>/dev/null || true
		wait $pid || true
		whole $TMP/imp.db
		echo "after kill $i: $(sqlite3 $TMP/imp.db "SELECT count(*) FROM runs") runs"
	done
	# and the next import finishes the job, skipping what is there
	kab --db $TMP/imp.db import $TMP/big.json >/dev/null
	whole $TMP/imp.db
	test "$(sqlite3 $TMP/imp.db "SELECT count(*) FROM runs")" = 200
'

test_expect "kill -9 at random moments of a merge: all of it or nothing" '
	for i in $(seq 1 6); do
		rm -f $TMP/m.db $TMP/m.db-wal $TMP/m.db-shm
		"$KAB" merge $TMP/m.db $TMP/imp.db >/dev/null 2>&1 &
		pid=$!
		sleep 0.$((RANDOM % 6))$((RANDOM % 10))
		kill -9 $pid 2>/dev/null || true
		wait $pid || true
		# killed before it made the schema: a file a kab will fill
		[ "$(sqlite3 $TMP/m.db "SELECT count(*) FROM sqlite_master WHERE name = '"'"'runs'"'"'" 2>/dev/null || echo 0)" = 1 ] || continue
		whole $TMP/m.db
		n=$(sqlite3 $TMP/m.db "SELECT count(*) FROM runs")
		echo "after kill $i: $n runs"
		[ "$n" = 0 ] || [ "$n" = 200 ] || fail "a merge killed left $n of 200 runs"
	done
'

test_expect "kill -9 at random moments of a run: every stored iteration whole" '
	for i in $(seq 1 4); do
		"$KAB" --db $TMP/run.db run --runs 8 --monitors none --set nr_task=1 \
			--set warmup=0 --set testtime=1s $JOB >/dev/null 2>&1 &
		pid=$!
		sleep $((RANDOM % 5 + 1)).$((RANDOM % 10))
		kill -9 $pid 2>/dev/null || true
		wait $pid || true
		test "$(sqlite3 $TMP/run.db "PRAGMA integrity_check")" = ok
		# every iteration stored holds as many metrics as the first
		test "$(sqlite3 $TMP/run.db "SELECT count(DISTINCT n) FROM (SELECT count(*) AS n FROM samples GROUP BY run_id, iteration)")" -le 1
	done
	# the next kab marks the dead runs interrupted
	kab --db $TMP/run.db ls >$TMP/ls
	cat $TMP/ls
	not grep -q " running " $TMP/ls
'

test_expect "a run on a full disk: said so, with the iterations really stored" '
	[ "$(id -u)" = 0 ] || { echo "needs root for a mount"; exit 0; }
	mkdir $TMP/full
	mount -t tmpfs -o size=300k tmpfs $TMP/full || { echo "no tmpfs here"; exit 0; }
	rc=0
	"$KAB" --db $TMP/full/k.db run --runs 20 --set nr_task=1 --set warmup=0 \
		--set testtime=1s $JOB >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	stored=$(sqlite3 $TMP/full/k.db "SELECT count(DISTINCT iteration) FROM samples" 2>/dev/null || echo ?)
	ok=$(sqlite3 $TMP/full/k.db "PRAGMA integrity_check" 2>/dev/null || echo broken)
	umount $TMP/full
	[ $rc = 1 ]
	grep -q "($stored of 20 iterations stored in" $TMP/e
	[ "$ok" = ok ]
'

test_done
