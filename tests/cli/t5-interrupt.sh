#!/bin/bash
# kill -9 and ^C in the middle of a run: the iterations already stored
# stay, whole; the one in flight is dropped; the run says interrupted.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
LONG="--runs 50 --set nr_task=1 --set warmup=0 --set testtime=1s"

# Start a long run in the background; wait until N iterations are stored.
start_long_run() {
	local prev
	prev=$(sql "SELECT coalesce(max(id), 0) FROM runs" 2>/dev/null || echo 0)
	"$KAB" run $LONG $JOB >$TMP/run.out 2>$TMP/run.err &
	KABPID=$!
	wait_iterations "$1" "${prev:-0}"
}

wait_iterations() {
	local i
	for i in $(seq 1 300); do
		n=$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = (SELECT max(id) FROM runs) AND run_id > $2" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge "$1" ] && return 0
		sleep 0.1
	done
	fail "never got $1 iterations"
}

# Every stored iteration is whole: as many metrics as the first one
# (the profile's functions and the CPUs that took interrupts vary: the
# profile's record is whole when it has its sample count), and a
# profile in each.
iterations_whole() {
	sql "SELECT count(DISTINCT n) FROM (SELECT iteration, count(*) AS n FROM samples WHERE run_id = $1 AND metric NOT LIKE 'perf-profile.%' AND metric NOT LIKE '%.CPU%' GROUP BY iteration)" >$TMP/pipe
	grep -qx 1 $TMP/pipe
	test "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = $1 AND metric = 'perf-profile.samples'")" = \
		"$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = $1")"
}

# The long run ended: with exit status RC, stored as STATUS with at
# least MIN whole iterations, PATTERN on its stderr.
long_run_ended() {
	local rc=0 id
	wait $KABPID || rc=$?
	cat $TMP/run.err
	test $rc = "$1"
	grep -q "$4" $TMP/run.err
	id=$(sql "SELECT max(id) FROM runs")
	test "$(sql "SELECT status FROM runs WHERE id = $id")" = "$2"
	check "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = $id") >= $3"
	iterations_whole $id
}

test_expect "kill -9 of kab keeps the stored iterations and marks the run interrupted" '
	mkdir -p $TMP/agent-tmp
	TMPDIR=$TMP/agent-tmp start_long_run 2
	ls $TMP/agent-tmp | grep -q "^kab-agent\."
	tree=$(descendants $KABPID)
	kill -9 $KABPID
	wait $KABPID || true
	id=$(sql "SELECT max(id) FROM runs")
	stored=$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = $id")
	check "$stored >= 2 && $stored < 50"
	iterations_whole $id
	# The next kab to open the database sees that its owner died.
	kab ls >$TMP/ls
	cat $TMP/ls
	grep -Eq "^ +$id .* interrupted +$stored/50 " $TMP/ls
	kab show $id >$TMP/pipe
	grep -q "message: *kab stopped while the run was going" $TMP/pipe
	# The agent noticed its reader was gone and stopped too, and the
	# workload processes it forked with it; it removed its directory.
	gone_pids "$tree" 10
	ls -A $TMP/agent-tmp >$TMP/pipe
	cat $TMP/pipe
	test ! -s $TMP/pipe
'

test_expect "kill -9 of the agent: kab stores the run as interrupted" '
	# the killed agent cannot remove its directory: the test'"'"'s, not /tmp
	mkdir -p $TMP/agent-tmp2
	TMPDIR=$TMP/agent-tmp2 start_long_run 2
	agent=$(pgrep -P $KABPID -f kab-agent)
	kill -9 $agent
	rc=0
	wait $KABPID || rc=$?
	cat $TMP/run.err
	test $rc = 1
	grep -q "interrupted.*without an end record" $TMP/run.err
	id=$(sql "SELECT max(id) FROM runs")
	test "$(sql "SELECT status FROM runs WHERE id = $id")" = interrupted
	iterations_whole $id
'

test_expect "a workload task killed: the run fails naming the task and its signal, the iterations before it kept" '
	start_long_run 2
	# the agent, its harness of the iteration, the harness'"'"'s tasks:
	# one still running (not a task that ended and waits to be reaped,
	# which a loaded host leaves longer), killed until the run ends
	agent=$(pgrep -P $KABPID -f kab-agent)
	for i in $(seq 1 400); do
		kill -0 $KABPID 2>/dev/null || break
		task=
		h=$(pgrep -P "$agent" | head -1 || true)
		[ -z "$h" ] || task=$(pgrep -P "$h" | head -1 || true)
		if [ -n "$task" ] && ! grep -q "^[^ ]* ([^)]*) [ZX] " /proc/$task/stat 2>/dev/null; then
			kill -9 $task 2>/dev/null || true
			sleep 0.5
		fi
		sleep 0.05
	done
	long_run_ended 1 failed 2 "failed: will-it-scale malloc1: task 0 died of signal 9 (Killed)"
'

test_expect "SIGINT stops the run cleanly: exit 130, one message, samples kept" '
	start_long_run 3
	tree=$(descendants $KABPID)
	kill -INT $KABPID
	long_run_ended 130 interrupted 3 "^kab: interrupted: .*kept in $KAB_DB"
	# the agent, and the workload processes it forked, with it
	gone_pids "$tree" 5
'

test_expect "SIGTERM stops the run as ^C does: exit 143, samples kept" '
	start_long_run 2
	kill -TERM $KABPID
	long_run_ended 143 interrupted 2 "^kab: interrupted: .*kept in $KAB_DB"
'

test_expect "two kab processes write one database at the same time" '
	"$KAB" run --runs 3 --set nr_task=1 --set warmup=0 --set testtime=1s \
		--kernel-label one $JOB >$TMP/one.out 2>&1 &
	p1=$!
	"$KAB" run --runs 3 --set nr_task=1 --set warmup=0 --set testtime=1s \
		--kernel-label two $JOB >$TMP/two.out 2>&1 &
	p2=$!
	wait $p1
	wait $p2
	test "$(sql "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label IN ('"'"'one'"'"', '"'"'two'"'"') AND r.status = '"'"'ok'"'"'")" = 2
'

test_done
