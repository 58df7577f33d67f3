#!/bin/bash
# stress-ng radixsort through the real binary, and what happens when
# stress-ng fails, is missing or writes a damaged report.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/stress-ng-radixsort.yaml

test_expect "radixsort runs the real stress-ng and stores lkp's metrics" '
	kab run --runs 2 --set testtime=2s $JOB >$TMP/o
	ops=$(mean_of 1 stress-ng.radixsort.ops)
	rate=$(mean_of 1 stress-ng.radixsort.ops_per_sec)
	el=$(mean_of 1 stress-ng.time.elapsed_time)
	echo "ops=$ops ops_per_sec=$rate elapsed=$el"
	check "$ops > 0 && $rate > 0"
	# bogo ops/s (real time) is the count over ~2 s of wall time.
	check "$rate > $ops / 2.5 && $rate < $ops / 1.5"
	check "$el >= 2 && $el < 10"
	n=$(nproc)
	# One worker per CPU; what share of them it got is the machine'"'"'s
	# doing: the share is its CPU time over its wall time, at most all
	cpu=$(mean_of 1 stress-ng.time.percent_of_cpu_this_job_got)
	u=$(mean_of 1 stress-ng.time.user_time)
	s=$(mean_of 1 stress-ng.time.system_time)
	echo "cpu=$cpu% user=$u system=$s"
	check "$cpu > 0 && $cpu <= 100 * $n + 5"
	check "$cpu >= 100 * ($u + $s) / $el - 10 && $cpu <= 100 * ($u + $s) / $el + 10"
'

# Under --clock icount the bogo-ops that fit in 2 s are a whole number
# (20 on every kernel under TCG): an iteration is fixed work instead.
test_expect "exact mode: radixsort does fixed work, timed" '
	printf "%s" "{\"name\":\"r\",\"suite\":\"stress-ng\",\"test\":\"radixsort\",\"params\":{\"nr_threads\":\"1\",\"test\":\"radixsort\",\"testcase\":\"stress-ng\",\"testtime\":\"1s\"}}" >$TMP/job.json
	"$KAB_AGENT" --job $TMP/job.json --exact --monitors none >$TMP/exact
	ops=$(agent_metric $TMP/exact stress-ng.radixsort.ops)
	rate=$(agent_metric $TMP/exact stress-ng.radixsort.ops_per_sec)
	echo "ops=$ops ops_per_sec=$rate"
	# 10 a worker for each second of testtime, however long they take
	check "$ops == 10"
	check "$rate > 0 && $rate != int($rate)"
	# a job that names its work gets it, with or without exact mode
	kab run --runs 1 --set testtime=1s --set ops=3 --set nr_threads=1 \
		$JOB >$TMP/o
	id=$(sql "SELECT max(id) FROM runs")
	test "$(mean_of $id stress-ng.radixsort.ops)" = 3
'

# A stand-in for stress-ng: the real one cannot be made to fail on cue.
fake_stressng() {
	cat >$TMP/fake-stress-ng <<-EOS
	#!/bin/bash
	$1
	EOS
	chmod +x $TMP/fake-stress-ng
	export KAB_STRESS_NG=$TMP/fake-stress-ng
}

test_expect "fake-stress-ng: each exit status gets its own message" '
	for code in 1 2 3 4 5 6 7; do
		fake_stressng "echo \"stress-ng: error: [1] no memory\" >&2; exit $code"
		expect_error 1 "exit $code" -- "$KAB" run --runs 1 \
			--set testtime=1s $JOB
	done
	fake_stressng "exit 3"
	expect_error 1 "ran out of a resource" -- "$KAB" run --runs 1 \
		--set testtime=1s $JOB
	id=$(sql "SELECT max(id) FROM runs")
	test "$(sql "SELECT status FROM runs WHERE id = $id")" = failed
	test "$(sql "SELECT count(*) FROM samples WHERE run_id = $id")" = 0
'

test_expect "fake-stress-ng: a truncated or non-YAML report stores nothing" '
	y=$FIXTURES/stress-ng-truncated-radixsort.yaml
	fake_stressng "for a; do [ \"\$prev\" = --yaml ] && cp $y \"\$a\"; prev=\$a; done; exit 0"
	expect_error 1 "cut short" -- "$KAB" run --runs 1 --set testtime=1s $JOB
	t=$FIXTURES/stress-ng-0.15.06-radixsort.txt
	fake_stressng "for a; do [ \"\$prev\" = --yaml ] && cp $t \"\$a\"; prev=\$a; done; exit 0"
	expect_error 1 "stress-ng" -- "$KAB" run --runs 1 --set testtime=1s $JOB
	fake_stressng "exit 0"
	expect_error 1 "wrote no report" -- "$KAB" run --runs 1 \
		--set testtime=1s $JOB
	test "$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.status != '"'"'ok'"'"'")" = 0
'

test_expect "fake-stress-ng: the method of the job reaches stress-ng as its arguments" '
	# the arguments as stress-ng got them, one a line
	fake_stressng "printf \"%s\\n\" \"\$@\" >$TMP/argv; exit 2"
	expect_error 1 "exit 2" -- "$KAB" run --runs 1 --set testtime=1s \
		--set method=radixsort-nonlibc $JOB
	grep -A1 -x -- "--radixsort-method" $TMP/argv | tail -1 | grep -qx radixsort-nonlibc
	grep -A1 -x -- "--yaml" $TMP/argv | tail -1 | grep -q "stress-ng.yaml$"
	grep -qx -- "--no-rand-seed" $TMP/argv
	# without a method, none is passed
	expect_error 1 "exit 2" -- "$KAB" run --runs 1 --set testtime=1s $JOB
	not grep -q -- "--radixsort-method" $TMP/argv
'

test_expect "fake-stress-ng: a stress-ng killed by a signal is reported" '
	fake_stressng "kill -SEGV \$\$"
	expect_error 1 "killed by signal" -- "$KAB" run --runs 1 \
		--set testtime=1s $JOB
'

test_expect "a missing stress-ng says how to install it" '
	unset KAB_STRESS_NG
	expect_error 1 "apt-get install stress-ng" -- env PATH=/nonexistent \
		"$KAB" run --runs 1 --set testtime=1s $JOB
'

test_expect "stress-ng runs with the options lkp uses" '
	fake_stressng "echo \"\$@\" >$TMP/args; exit 2"
	"$KAB" run --runs 1 --set testtime=7s --set nr_threads=3 $JOB || true
	cat $TMP/args
	grep -q -- "--timeout 7s --times --verify --metrics --no-rand-seed --radixsort 3 --yaml" $TMP/args
'

test_done
