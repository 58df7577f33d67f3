#!/bin/bash
# The harness itself: a snippet fails at its first failing command, and
# expect_error fails on a wrong status, a wrong message or a message of
# more than one line.  Each test runs a small test file of its own
# through lib.sh and reads its TAP.
. "$(dirname "$0")/lib.sh"
# the runs of tests/run below are whole suites of their own, not a
# selection of the one this file is in
unset KAB_TEST_FILES KAB_TEST_SKIP

export KAB_TOP=$TOP KAB_BUILD=$BUILD

# inner: run the test file on stdin (lib.sh is sourced first, test_done
# is called last); its TAP is in $TMP/tap, its exit status in $TMP/rc.
inner() {
	{
		echo ". $TOP/tests/cli/lib.sh"
		cat
		echo "test_done"
	} >"$TMP/inner.sh"
	rc=0
	bash "$TMP/inner.sh" >"$TMP/tap" 2>&1 || rc=$?
	echo $rc >"$TMP/rc"
	cat "$TMP/tap"
}

# verdicts: the ok / not ok words of $TMP/tap, one line.
verdicts() {
	sed -n 's/^\(ok\|not ok\) [0-9]* - .*/\1/p' "$TMP/tap" | paste -sd,
}

test_expect "a false first line fails the snippet, and the output names it" '
	inner <<-\EOF
	test_expect "first" "
		false
		true
		true
	"
	EOF
	test "$(verdicts)" = "not ok"
	grep -q "stopped at: false (status 1)" $TMP/tap
	test "$(cat $TMP/rc)" = 1
'

test_expect "a false middle line fails; the lines after it do not run" '
	inner <<-EOF
	test_expect "middle" "
		true
		test 1 = 2
		touch $TMP/after
	"
	EOF
	test "$(verdicts)" = "not ok"
	test ! -e $TMP/after
'

test_expect "a passing snippet passes, and test_done exits 0" '
	inner <<-\EOF
	test_expect "good" "
		true
		x=\$(echo 1)
		test \$x = 1
	"
	EOF
	test "$(verdicts)" = ok
	test "$(cat $TMP/rc)" = 0
'

test_expect "failures in a pipeline, a loop and a command substitution count" '
	inner <<-\EOF
	test_expect "pipe" "
		false | cat
		true
	"
	test_expect "loop" "
		for i in 1 2 3; do test \$i != 2; done
		true
	"
	test_expect "substitution" "
		x=\$(false; echo yes)
		true
	"
	test_expect "function" "
		f() { false; true; }
		f
		true
	"
	EOF
	test "$(verdicts)" = "not ok,not ok,not ok,not ok"
'

test_expect "a line starting with ! is refused, with what to write instead" '
	bang="!"
	inner <<-EOF
	test_expect "bang" "
		true
		$bang true
	"
	EOF
	test "$(verdicts)" = "not ok"
	grep -q "write .not cmd." $TMP/tap
'

test_expect "not CMD passes when CMD fails, not when it succeeds or crashes" '
	inner <<-\EOF
	test_expect "not true" "
		not true
		true
	"
	test_expect "not false" "
		not false
	"
	test_expect "not a crash" "
		not sh -c \"kill -SEGV \\\$\\\$\"
	"
	test_expect "not a missing command" "
		not /nonexistent/cmd
	"
	EOF
	test "$(verdicts)" = "not ok,ok,not ok,not ok"
'

test_expect "expect_error: right status, one line, right message passes" '
	inner <<-\EOF
	test_expect "right" "
		expect_error 3 \"the reason\" -- sh -c \"echo >&2 kab: the reason; exit 3\"
	"
	EOF
	test "$(verdicts)" = ok
'

test_expect "expect_error: a wrong exit status fails, even on a middle line" '
	inner <<-\EOF
	test_expect "status" "
		expect_error 2 \"the reason\" -- sh -c \"echo >&2 kab: the reason; exit 1\"
		true
	"
	EOF
	test "$(verdicts)" = "not ok"
	grep -q "exit status 1, wanted 2" $TMP/tap
'

test_expect "expect_error: a wrong message fails, even on a middle line" '
	inner <<-\EOF
	test_expect "message" "
		expect_error 2 \"the reason\" -- sh -c \"echo >&2 kab: another; exit 2\"
		true
	"
	test_expect "no kab: prefix" "
		expect_error 2 \"the reason\" -- sh -c \"echo >&2 the reason; exit 2\"
		true
	"
	EOF
	test "$(verdicts)" = "not ok,not ok"
	grep -q "no .the reason. on stderr" $TMP/tap
	grep -q "a line on stderr that is not kab.s" $TMP/tap
'

test_expect "expect_error: a message broken over two lines, or none, fails" '
	inner <<-\EOF
	test_expect "two lines" "
		expect_error 2 \"the reason\" -- sh -c \"printf >&2 \\\"kab: the reason\\\\nBcc: x\\\\n\\\"; exit 2\"
		true
	"
	test_expect "silent" "
		expect_error 2 \"\" -- sh -c \"exit 2\"
		true
	"
	test_expect "progress, then the error" "
		expect_error 2 \"b\" -- sh -c \"printf >&2 \\\"kab: a\\\\nkab: b\\\\n\\\"; exit 2\"
	"
	EOF
	test "$(verdicts)" = "not ok,not ok,ok"
	grep -q "a line on stderr that is not kab.s" $TMP/tap
	grep -q "nothing on stderr" $TMP/tap
'

test_expect "tests/run counts a failing file: not ok, and its status" '
	mkdir -p $TMP/suite
	printf "%s\n" ". $TOP/tests/cli/lib.sh" \
		"test_expect one \"false; true\"" \
		"test_expect two true" test_done >$TMP/suite/t1-x.sh
	rc=0
	(cd $TOP && tests/run $TMP/suite) >$TMP/run.out 2>&1 || rc=$?
	cat $TMP/run.out
	test $rc = 1
	test "$(tail -1 $TMP/run.out)" = "1 passed, 1 failed"
'

test_expect "tests/run ends with each failure and the last lines it printed" '
	# CI shows only the head and the tail of a long output
	mkdir -p $TMP/tail
	printf "%s\n" ". $TOP/tests/cli/lib.sh" \
		"test_expect first \"seq 1 40; echo the-reason-is-here; false\"" \
		"test_expect second true" test_done >$TMP/tail/t1-x.sh
	rc=0
	(cd $TOP && tests/run $TMP/tail) >$TMP/run.out 2>&1 || rc=$?
	cat $TMP/run.out
	test $rc = 1
	tail -14 $TMP/run.out >$TMP/last
	grep -q "^#   t1-x.sh: 1 - first$" $TMP/last
	grep -q "^#     |   the-reason-is-here$" $TMP/last
	grep -q "^#     |   # stopped at: false" $TMP/last
	not grep -q "|   30$" $TMP/last
'

test_expect "tests/run skips what KAB_TEST_SKIP names, and says so" '
	mkdir -p $TMP/skips
	printf "%s\n" ". $TOP/tests/cli/lib.sh" "test_expect one false" \
		test_done >$TMP/skips/t1-no.sh
	printf "%s\n" ". $TOP/tests/cli/lib.sh" "test_expect two true" \
		test_done >$TMP/skips/t2-yes.sh
	(cd $TOP && KAB_TEST_SKIP="t0-x.sh t1-no.sh" tests/run $TMP/skips) \
		>$TMP/run.out 2>&1
	cat $TMP/run.out
	grep -qx "ok - t1-no.sh # SKIP in KAB_TEST_SKIP" $TMP/run.out
	grep -qx "# 1 skipped" $TMP/run.out
	test "$(tail -1 $TMP/run.out)" = "1 passed, 0 failed"
	# KAB_TEST_FILES: only those files, no unit tests unless named
	(cd $TOP && KAB_TEST_FILES="t2-yes.sh" tests/run $TMP/skips) \
		>$TMP/run.out 2>&1
	cat $TMP/run.out
	not grep -q "t1-no.sh" $TMP/run.out
	test "$(tail -1 $TMP/run.out)" = "1 passed, 0 failed"
'

test_expect "tests/run runs KAB_TEST_JOBS files at once and prints each whole" '
	# each file waits for the other to have started: only two lanes
	# at once end both, and each file keeps its lines together
	mkdir -p $TMP/lanes
	printf "%s\n" "touch \$1.up" "for i in \$(seq 600); do" \
		"	test -e \$2.up && exit 0; sleep 0.1" "done" "exit 1" \
		>$TMP/lanes/meet
	for me in a b; do
		other=b; [ $me = a ] || other=a
		printf "%s\n" ". $TOP/tests/cli/lib.sh" "test_expect start true" \
			"test_expect meet \"sh $TMP/lanes/meet $TMP/lanes/$me $TMP/lanes/$other\"" \
			"test_expect end true" test_done >$TMP/lanes/t1-$me.sh
	done
	(cd $TOP && unset KAB_TEST_ONLY && KAB_TEST_JOBS=2 tests/run $TMP/lanes) >$TMP/run.out 2>&1
	cat $TMP/run.out
	test "$(tail -1 $TMP/run.out)" = "6 passed, 0 failed"
	for me in a b; do
		grep -A3 -x "# t1-$me.sh" $TMP/run.out | cut -c1-2 >$TMP/block
		test "$(sed 1d $TMP/block | tr -d "\n")" = okokok
	done
	rc=0
	(cd $TOP && KAB_TEST_JOBS=0 tests/run $TMP/lanes) >$TMP/run.out 2>&1 || rc=$?
	test $rc = 2
	grep -q "^tests/run: KAB_TEST_JOBS=0: give a number of files at a time, 1 or more$" $TMP/run.out
'

test_expect "no quote cuts the snippet of a test short, and one planted is named" '
	(cd $TOP && tests/snippet-quotes.py tests/cli/t*.sh)
	# an apostrophe in a comment, as a test file would have it
	q=$(printf "\047")
	printf "%s\n" "test_expect \"one\" $q" "	# the server${q}s log" \
		"	true" "$q" "test_expect \"two\" ${q}true${q}" \
		"test_expect \"three\" $q" "	echo ${q}\"${q}\"${q}" "$q" \
		>$TMP/cut.sh
	rc=0
	$TOP/tests/snippet-quotes.py $TMP/cut.sh >$TMP/q || rc=$?
	cat $TMP/q
	test $rc = 1
	test "$(cut -d: -f2 $TMP/q | paste -sd,)" = 2
	grep -q "a quote ends the snippet of line 1: " $TMP/q
'

test_expect "make mutate-diff: a line gcov gives no count takes the tests that reach it" '
	printf "%s\n" "int f(int c, int x)" "{" "	switch (c) {" \
		"	case 1:" "		if (x)" "			return 2;" "		break;" \
		"	case 2:" "		break;" "	}" "	while (x--)" "		if (x == 3)" \
		"			continue;" "	return g(x," "		 c);" "}" \
		"int h(int x)" "{" "	struct s v = {" "		.a = 1," \
		"		.b = { 2, 3 }," "	};" "	static const int t[] = {" \
		"		4, 5," "	};" "	(void)x;" "	return t[x] + v.a;" "}" >$TMP/f.c
	cat >$TMP/t.py <<-\EOF
	import importlib.util, json, sys
	spec = importlib.util.spec_from_file_location("md", sys.argv[1])
	md = importlib.util.module_from_spec(spec)
	spec.loader.exec_module(md)
	# gcov counted these lines; 7, 9, 13 and 15 it gives no count
	cov = {"4": ["a"], "5": ["a"], "6": ["b"], "8": ["c"],
	       "11": ["d"], "12": ["d"], "14": ["e"], "19": ["f"], "27": ["g"]}
	print(json.dumps([md.statement_tests(cov, sys.argv[2], n)
	                  for n in (7, 9, 13, 15, 10, 20, 21, 23, 24)]))
	# a parameter marked unused is no code
	print(md.arid("\t(void)x;", "\tstatic const int t[] = {"),
	      md.arid("\t(void)f(x);", "\tint a;"))
	EOF
	python3 $TMP/t.py $TOP/tests/mutate-diff.py $TMP/f.c >$TMP/got
	cat $TMP/got
	# the break after an if: the if'"'"'s; a break first in its case: the
	# case'"'"'s; a continue: its if'"'"'s; a continued line: its first'"'"'s;
	# an initializer'"'"'s lines: its declaration'"'"'s; a static table:
	# the function'"'"'s first counted line after it
	test "$(sed -n 1p $TMP/got)" = "[[\"a\"], [\"c\"], [\"d\"], [\"e\"], [], [\"f\"], [\"f\"], [\"g\"], [\"g\"]]"
	test "$(sed -n 2p $TMP/got)" = "True False"
'

test_expect "make mutate-diff --retest refuses a map whose sources changed" '
	cat >$TMP/r.py <<-\EOF
	import importlib.util, sys
	spec = importlib.util.spec_from_file_location("md", sys.argv[1])
	md = importlib.util.module_from_spec(spec)
	spec.loader.exec_module(md)
	# a map made when common/common.c was other than it is
	m = {"files": {"common/common.c": "0" * 40}, "lines": {}, "times": {},
	     "failing": [], "not_ok": {}, "texts": {}}
	md.build_cov = lambda: sys.exit("built")
	md.retest(m, ["t0-basics.sh"])
	EOF
	rc=0
	python3 $TMP/r.py $TOP/tests/mutate-diff.py >$TMP/out 2>&1 || rc=$?
	cat $TMP/out
	test $rc != 0
	grep -q "^mutate-diff: --retest: common/common.c changed since the map; .*: make the map again with --remap" $TMP/out
	not grep -q built $TMP/out
'

test_expect "every mutant of make mutate still applies and names its killer" '
	(cd $TOP && tests/mutate.sh --check) >$TMP/check
	cat $TMP/check
	grep -qx "[0-9][0-9]* mutants apply" $TMP/check
'

test_done
