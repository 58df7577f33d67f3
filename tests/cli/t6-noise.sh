#!/bin/bash
# The stream crosses untrusted ground (a guest's serial console, ssh):
# noise between records is skipped and counted, a damaged record costs
# its iteration, and nothing in the noise ever becomes a sample.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
QUICK="--runs 3 --set nr_task=1 --set warmup=0 --set testtime=1s"
export REAL_AGENT=$KAB_AGENT

test_expect "noisy-agent: noise between records is skipped and counted" '
	KAB_AGENT=$TOP/tests/cli/noisy-agent kab run $QUICK $JOB \
		>$TMP/o 2>$TMP/e
	cat $TMP/e
	grep -q "kab: note: run 1: skipped [0-9]* bytes of noise" $TMP/e
	test "$(sql "SELECT status FROM runs WHERE id = 1")" = ok
	test "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = 1")" = 3
	check "$(sql "SELECT garbage_bytes FROM runs WHERE id = 1") > 100"
	# (the kernel'"'"'s own functions, get_random_u32 say, are profile
	# rows, and dmesg.BUG counts BUG: lines)
	test "$(sql "SELECT count(*) FROM samples WHERE metric NOT LIKE '"'"'perf-profile.%'"'"' AND metric != '"'"'dmesg.BUG'"'"' AND (metric LIKE '"'"'%random%'"'"' OR metric LIKE '"'"'%BUG%'"'"')")" = 0
'

test_expect "noisy-agent: a record damaged in flight costs only its iteration" '
	NOISE_INSIDE=1 KAB_AGENT=$TOP/tests/cli/noisy-agent kab run $QUICK \
		$JOB >$TMP/o 2>$TMP/e
	cat $TMP/e
	grep -q "1 iteration lost in transport" $TMP/e
	test "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = 2")" = 2
	test "$(sql "SELECT bad_records FROM runs WHERE id = 2")" -ge 1
	# said as stored: the bytes and the records
	grep -q "^kab: note: run 2: skipped $(sql "SELECT garbage_bytes FROM runs WHERE id = 2") bytes of noise and $(sql "SELECT bad_records FROM runs WHERE id = 2") bad records in the stream$" $TMP/e
	# The two stored iterations are whole.
	sql "SELECT count(DISTINCT n) FROM (SELECT count(*) AS n FROM samples WHERE run_id = 2 AND metric NOT LIKE '"'"'perf-profile.%'"'"' AND metric NOT LIKE '"'"'%.CPU%'"'"' GROUP BY iteration)" >$TMP/pipe
	grep -qx 1 $TMP/pipe
'

test_expect "an agent that prints only garbage stores no run" '
	printf "#!/bin/sh\nhead -c 100000 /dev/urandom\n" >$TMP/junk-agent
	chmod +x $TMP/junk-agent
	before=$(sql "SELECT count(*) FROM runs")
	KAB_AGENT=$TMP/junk-agent expect_error 1 "did not start" -- "$KAB" run $QUICK $JOB
	test "$(sql "SELECT count(*) FROM runs")" = "$before"
'

test_done
