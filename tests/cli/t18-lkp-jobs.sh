#!/bin/bash
# lkp's job files as they are (tests/fixtures/lkp-jobs: their shapes,
# written for these tests): every document, the jobs kab runs run, the
# rest named in a note and skipped; --only picks jobs, in kab run, ab,
# bisect and ci matrix alike; stress-ng's method reaches stress-ng; and
# lkp's result roots (tests/fixtures/lkp-result, written for these tests
# in lkp's layout) imported as runs; and lkp's table for the same
# samples (tests/fixtures/lkp-golden: derived by hand from lkp's rules).
. "$(dirname "$0")/lib.sh"

L=$FIXTURES/lkp-jobs
QUICK="--runs 1 --set testtime=1s"

test_expect "an lkp will-it-scale file: malloc1 runs, the other tests are named" '
	kab run $QUICK --set nr_task=1 --set warmup=0 --only mode=process \
		$L/will-it-scale-mixed.yaml >$TMP/o 2>$TMP/e
	cat $TMP/e
	grep -qx "kab: note: $L/will-it-scale-mixed.yaml: skips 3 jobs of workloads kab does not run: will-it-scale brk1, will-it-scale page_fault2, will-it-scale pipe1; leaves out keys kab does not use: cpufreq_governor" $TMP/e
	test "$(sql "SELECT count(*) || test || status FROM runs")" = 1malloc1ok
	sql "SELECT params FROM runs" >$TMP/p
	grep -q "\"mode\": *\"process\"" $TMP/p
	not grep -q cpufreq_governor $TMP/p
'

test_expect "a file with nothing kab runs, or an --only that picks nothing, is refused" '
	printf "suite: will-it-scale\nwill-it-scale:\n  test: [brk1, dup1]\n" >$TMP/none.yaml
	expect_error 2 "no job kab can run: unknown workload will-it-scale brk1, will-it-scale dup1: kab knows will-it-scale malloc1, stress-ng radixsort" -- \
		"$KAB" run $TMP/none.yaml
	expect_error 2 "--only mode=fork matches none of its 8 jobs" -- \
		"$KAB" run --only mode=fork $L/will-it-scale-mixed.yaml
	for cmd in "ab --a /nonexistent --b /nonexistent --job" \
		   "ci matrix"; do
		expect_error 2 "--only mode=fork matches none" -- \
			"$KAB" $cmd $L/will-it-scale-mixed.yaml --only mode=fork
	done
	git init -q $TMP/tree
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
	       GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
	git -C $TMP/tree commit -q --allow-empty -m a
	git -C $TMP/tree commit -q --allow-empty -m b
	expect_error 2 "matches none" -- "$KAB" bisect --tree $TMP/tree \
		--good HEAD~1 --bad HEAD --metric m \
		--job $L/will-it-scale-mixed.yaml --only mode=fork
	# and a bisect whose job is refused leaves no bisect behind
	test "$(sql "SELECT count(*) FROM runs")" = 1
	test "$(sql "SELECT count(*) FROM bisects")" = 0
'

test_expect "an lkp stress-ng file: every document read, radixsort found in the last" '
	kab ci matrix $L/stress-ng-mixed.yaml >$TMP/m 2>$TMP/e
	cat $TMP/e $TMP/m
	grep -q "skips 6 jobs of workloads kab does not run: stress-ng heapsort (document 1), stress-ng mergesort (document 1), stress-ng shellsort (document 1), stress-ng flushcache (document 2), stress-ng qsort (document 3); leaves out sections kab does not use: oom-killer" $TMP/e
	/usr/bin/python3 - $TMP/m <<-PY
	import json, sys
	cells = json.load(open(sys.argv[1]))["include"]
	assert len(cells) == 1, cells
	p = cells[0]["params"]
	# document 4 on top of document 1: not document 3'"'"'s nr_threads
	assert p["test"] == "radixsort" and p["method"] == "radixsort-nonlibc", p
	assert p["nr_threads"] == "100%" and p["testtime"] == "60s", p
	PY
'

test_expect "stress-ng without --radixsort-method: the run says so; method= leaves it out" '
	# Debian 12'"'"'s stress-ng 0.15.06 has no --radixsort-method
	stress-ng --radixsort-method radixsort-nonlibc --radixsort 1 -t 1s >$TMP/sng 2>&1 || true
	if grep -q "unrecognized option" $TMP/sng; then
		expect_error 1 "this stress-ng has no --radixsort-method, which the job.s method .radixsort-nonlibc. needs (stress-ng 0.17.04 or later)" -- \
			"$KAB" run $QUICK --set nr_threads=1 $L/stress-ng-mixed.yaml
		test "$(sql "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = failed
	fi
	kab run $QUICK --set nr_threads=1 --set method= $L/stress-ng-mixed.yaml >$TMP/o 2>$TMP/e
	id=$(sql "SELECT max(id) FROM runs")
	test "$(sql "SELECT test || status FROM runs WHERE id = $id")" = radixsortok
	sql "SELECT params FROM runs WHERE id = $id" >$TMP/p
	not grep -q method $TMP/p
	check "$(sql "SELECT value FROM samples WHERE run_id = $id AND metric = '"'"'stress-ng.radixsort.ops'"'"'") > 0"
'

test_expect "fake-stress-ng: a method reaches stress-ng as --radixsort-method" '
	# a stand-in: this machine'"'"'s stress-ng may be too old to take it
	cat >$TMP/fake-stress-ng <<-EOS
	#!/bin/bash
	echo "\$@" >$TMP/args
	exit 2
	EOS
	chmod +x $TMP/fake-stress-ng
	KAB_STRESS_NG=$TMP/fake-stress-ng "$KAB" run $QUICK --set nr_threads=1 \
		$L/stress-ng-mixed.yaml >/dev/null 2>&1 || true
	cat $TMP/args
	grep -q -- "--radixsort 1 --radixsort-method radixsort-nonlibc --yaml " $TMP/args
	expect_error 2 "method: .a b. is not a name" -- \
		"$KAB" run --set "method=a b" $L/stress-ng-mixed.yaml
'

test_expect "lkp result roots import as runs that compare and gate like kab's own" '
	R=$FIXTURES/lkp-result
	base=0f1e2d3c4b5a69788796a5b4c3d2e1f0abcdef12
	head=a1b2c3d4e5f60718293a4b5c6d7e8f9012345678
	# a commit'"'"'s directory of runs, and one run'"'"'s directory
	kab --db $TMP/l.db import --lkp $R/$base $R/$head/0 >$TMP/o
	grep -qx "imported 4 runs into $TMP/l.db" $TMP/o
	kab --db $TMP/l.db import --lkp $R/$head >$TMP/o
	grep -qx "imported 2 runs into $TMP/l.db (1 already there, skipped)" $TMP/o
	test "$(sqlite3 $TMP/l.db "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.commit_sha = '"'"'$head'"'"' AND r.test = '"'"'malloc1'"'"' AND r.target = '"'"'lkp'"'"'")" = 3
	sqlite3 $TMP/l.db "SELECT params, host FROM runs LIMIT 1" >$TMP/p
	grep -q "\"mode\": *\"process\"" $TMP/p
	grep -q "\"nr_task\": *\"100%\"" $TMP/p
	grep -q "\"kconfig\": *\"x86_64-rhel-8.3\"" $TMP/p
	kab --db $TMP/l.db compare ${head:0:12} ${base:0:12} >$TMP/c
	cat $TMP/c
	grep -q "^  *[0-9]* *-9[0-9].[0-9]% *1[01][0-9][.0-9]* .*will-it-scale.per_process_ops$" $TMP/c
	grep -q "perf-profile.self.cycles-pp.clear_page_erms$" $TMP/c
	rc=0
	kab --db $TMP/l.db ci gate ${head:0:12} ${base:0:12} >$TMP/g || rc=$?
	[ $rc = 1 ]
	grep -q "^FAIL .*will-it-scale.per_process_ops: -9[0-9.]*% regression" $TMP/g
'

test_expect "a run whose stats are lkp's stats.json.gz imports the same samples" '
	R=$FIXTURES/lkp-result
	head=a1b2c3d4e5f60718293a4b5c6d7e8f9012345678
	mkdir -p $TMP/gz/$head
	cp -r $R/$head/0 $TMP/gz/$head/0
	gzip $TMP/gz/$head/0/stats.json
	kab --db $TMP/plain.db import --lkp $R/$head/0 >/dev/null
	kab --db $TMP/gz.db import --lkp $TMP/gz/$head >$TMP/o
	grep -qx "imported 1 run into $TMP/gz.db" $TMP/o
	q="SELECT metric || '"'"' '"'"' || value FROM samples ORDER BY metric"
	sqlite3 $TMP/plain.db "$q" >$TMP/a
	sqlite3 $TMP/gz.db "$q" >$TMP/b
	test -s $TMP/a
	diff $TMP/a $TMP/b
	# a damaged stream is named, and nothing is stored
	printf "not gzip" | gzip | head -c 12 >$TMP/gz/$head/0/stats.json.gz
	expect_error 2 "stats.json.gz: not a gzip stream of at most 256 MiB" -- \
		"$KAB" --db $TMP/gz2.db import --lkp $TMP/gz/$head
'

test_expect "a damaged lkp result root is named with its field, and nothing is stored" '
	cp -r $FIXTURES/lkp-result $TMP/lr
	run=$TMP/lr/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678/1
	sed -i "s/\"mpstat.cpu.all.sys%\": .*/\"mpstat.cpu.all.sys%\": \"high\"/" $run/stats.json
	expect_error 2 "$run/stats.json: .mpstat.cpu.all.sys%. is not a metric kab stores" -- \
		"$KAB" --db $TMP/d.db import --lkp $TMP/lr/*
	test "$(sqlite3 $TMP/d.db "SELECT count(*) FROM runs")" = 0
	rm $run/stats.json
	mkdir $TMP/empty
	expect_error 2 "$TMP/empty: no stats.json(.gz) in it or in its directories" -- \
		"$KAB" --db $TMP/d.db import --lkp $TMP/empty
	printf "suite: [a\n" >$TMP/lr/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678/2/job.yaml
	expect_error 2 "job.yaml:[0-9]*: malformed YAML" -- \
		"$KAB" --db $TMP/d.db import --lkp $TMP/lr/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678
	test "$(sqlite3 $TMP/d.db "SELECT count(*) FROM runs")" = 0
'

test_expect "a hostile lkp result root: links, FIFOs, devices, YAML bombs and sizes are refused" '
	good=$FIXTURES/lkp-result/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678/0
	fresh() {
		rm -rf $TMP/hr
		mkdir -p $TMP/hr
		cp -r $good $TMP/hr/r
	}
	echo "SECRET-TOKEN-42" >$TMP/secret
	# a link out of the tree: refused, and nothing of it quoted
	fresh
	ln -sf $TMP/secret $TMP/hr/r/stats.json
	expect_error 2 "r/stats.json is a symbolic link: kab reads only a result root.s own regular files" -- \
		"$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r
	not grep -q SECRET $TMP/stderr
	fresh
	ln -sf /etc/passwd $TMP/hr/r/job.yaml
	expect_error 2 "r/job.yaml is a symbolic link" -- "$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r
	# a stats.json that is not JSON: its position, not its bytes
	fresh
	cp $TMP/secret $TMP/hr/r/stats.json
	expect_error 2 "r/stats.json:1:[0-9]*: not lkp.s stats.json: a JSON object of numbers" -- \
		"$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r
	not grep -q SECRET $TMP/stderr
	# a FIFO would hang a reader, a device never ends
	fresh
	rm $TMP/hr/r/job.yaml
	mkfifo $TMP/hr/r/job.yaml
	timeout 20 "$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r 2>$TMP/e && false
	grep -q "r/job.yaml is not a regular file (a FIFO, a device?)" $TMP/e
	fresh
	rm $TMP/hr/r/stats.json
	if mknod $TMP/hr/r/stats.json c 1 5 2>/dev/null; then
		timeout 20 "$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r 2>$TMP/e && false
		grep -q "r/stats.json is not a regular file" $TMP/e
	fi
	# sizes: a 2 MiB job.yaml is not lkp'"'"'s
	fresh
	{ cat $good/job.yaml; head -c 2200000 /dev/zero | tr "\0" "#"; echo; } >$TMP/hr/r/job.yaml
	expect_error 2 "r/job.yaml is larger than 1 MiB: not a file lkp writes" -- \
		"$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r
	# a billion laughs: 9 levels of 9 aliases each, a few hundred bytes
	fresh
	python3 - >$TMP/hr/r/job.yaml <<-'"'"'PY'"'"'
	print("suite: will-it-scale")
	print("l0: &l0 [x, x, x, x, x, x, x, x, x]")
	for i in range(1, 10):
	    print("l%d: &l%d [%s]" % (i, i, ", ".join(["*l%d" % (i - 1)] * 9)))
	PY
	timeout 20 "$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r 2>$TMP/e && false
	grep -q "r/job.yaml:[0-9]*: more than 64 YAML aliases: not lkp.s job.yaml" $TMP/e
	# nesting 100,000 deep is refused at its 33rd level
	fresh
	{ head -c 100000 /dev/zero | tr "\0" "["; } >$TMP/hr/r/job.yaml
	timeout 20 "$KAB" --db $TMP/hr.db import --lkp $TMP/hr/r 2>$TMP/e && false
	grep -q "r/job.yaml:1: nested deeper than 32: not lkp.s job.yaml" $TMP/e
	test "$(sqlite3 $TMP/hr.db "SELECT count(*) FROM runs")" = 0
	# a directory linking to a run elsewhere is not one of the tree'"'"'s
	fresh
	mkdir $TMP/hr/commit
	cp -r $good $TMP/hr/commit/0
	ln -s $TMP/hr/r $TMP/hr/commit/1
	kab --db $TMP/hr.db import --lkp $TMP/hr/commit >$TMP/o
	grep -qx "imported 1 run into $TMP/hr.db" $TMP/o
'

test_expect "kab compare --format lkp: lkp ncompare's table, derived by hand" '
	G=$FIXTURES/lkp-golden
	kab import --format csv $G/four-sides.csv >/dev/null
	kab compare --format lkp base h1 h2 h3 >$TMP/t
	diff -u $G/four-sides.lkp $TMP/t
	# lkp forces no KPI row in: stress-ng.x.ops_per_sec (the job'"'"'s
	# KPI) did not change from base to h3; kab'"'"'s own table shows it
	kab compare --format lkp base h3 >$TMP/t
	cat $TMP/t
	grep -q "proc-vmstat.pgfault$" $TMP/t
	not grep -q "stress-ng" $TMP/t
	kab compare --test lkp base h3 >$TMP/t
	grep -q "stress-ng.x.ops_per_sec  (boots<2)$" $TMP/t
	# nothing changed: lkp prints no group at all
	{
		echo run,kernel_label,iteration,metric,value
		for r in 1 2; do
			for i in 1 2 3; do
				echo "$r,same$r,$i,will-it-scale.per_process_ops,10$i"
			done
		done
	} >$TMP/same.csv
	kab --db $TMP/same.db import --format csv $TMP/same.csv >/dev/null
	kab --db $TMP/same.db compare --format lkp same1 same2 >$TMP/t
	test ! -s $TMP/t
	kab --db $TMP/same.db compare --format lkp --all same1 same2 >$TMP/t
	grep -q "+0.0%.*will-it-scale.per_process_ops$" $TMP/t
	# -a: every stat, those of one side too, in lkp'"'"'s order
	kab compare --format lkp --all base h1 >$TMP/t
	grep -q "^      0.00            +8.0        8.00 ± 10%  perf-profile.self.cycles-pp.b$" $TMP/t
	grep -q "interrupts.CPU0.LOC$" $TMP/t
	test "$(grep -n "sched_debug.y$" $TMP/t | cut -d: -f1)" -gt "$(grep -n "mpstat.cpu.all.usr%$" $TMP/t | cut -d: -f1)"
	# and kab'"'"'s text with --all: the same rows, remarks after them
	kab compare --all base h1 >$TMP/t
	grep -q "perf-profile.self.cycles-pp.b  (one side only)$" $TMP/t
'

test_expect "lkp result roots are united as lkp unites a commit's runs" '
	U=$FIXTURES/lkp-unite
	base=5b1e9c0d2a3f4e5d6c7b8a9f0e1d2c3b4a596877
	head=c0ffee0123456789abcdef0123456789abcdef01
	kab --db $TMP/u.db import --lkp $U/$base $U/$head >$TMP/o 2>$TMP/e
	cat $TMP/o $TMP/e
	grep -qx "imported 9 runs into $TMP/u.db" $TMP/o
	grep -q "1 stat 0 in every run left out; 9 per-CPU sched_debug values left out; 2 pass/fail stats (dmesg.\*, last_state.\* ...) not stored: kab stores performance numbers; 1 run lkp marked incomplete stored as failed, left out of comparisons" $TMP/e
	q() { sqlite3 $TMP/u.db "$1"; }
	test "$(q "SELECT count(*) FROM samples WHERE metric LIKE '"'"'sched_debug.%.3'"'"' OR metric LIKE '"'"'dmesg.%'"'"' OR metric LIKE '"'"'last_state.%'"'"' OR metric = '"'"'proc-vmstat.nr_unstable'"'"'")" = 0
	test "$(q "SELECT count(*) FROM samples WHERE metric = '"'"'sched_debug.cpu.nr_running.avg'"'"'")" = 9
	test "$(q "SELECT count(*) FROM runs WHERE status = '"'"'failed'"'"' AND message LIKE '"'"'%last_state.is_incomplete_run%'"'"'")" = 1
	# one such stat: said in the singular
	cp -r $U $TMP/u1
	for f in $TMP/u1/*/*/stats.json; do
		python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d.pop(\"dmesg.WARNING:at_mm/page_alloc.c:#__alloc_pages\", None); json.dump(d, open(sys.argv[1], \"w\"))" $f
	done
	kab --db $TMP/u1.db import --lkp $TMP/u1/$base $TMP/u1/$head >/dev/null 2>$TMP/e1
	grep -q "; 1 pass/fail stat (dmesg.\*, last_state.\* ...) not stored: kab stores performance numbers;" $TMP/e1
	# a stat a run lacks is not stored: comparisons count it as 0
	test "$(q "SELECT count(*) FROM samples WHERE metric = '"'"'will-it-scale.time.voluntary_context_switches'"'"'")" = 6
	# the table lkp ncompare prints for these roots, derived by hand
	kab --db $TMP/u.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	diff -u $FIXTURES/lkp-golden/unite.lkp $TMP/t
	# kab'"'"'s own table: the same fail:runs block and zero-filled rows
	kab --db $TMP/u.db compare ${base:0:12} ${head:0:12} >$TMP/k
	grep -q "^           :4           20%           1:5     last_state.is_incomplete_run$" $TMP/k
	grep -q "^      5000 .* -90.0%     500.00 ±173%  will-it-scale.time.voluntary_context_switches" $TMP/k
	kab --db $TMP/u.db compare --format json ${base:0:12} ${head:0:12} >$TMP/j
	test "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"tables\"][0][\"incomplete\"])" $TMP/j)" = "[0, 1]"
	# and the report, in each of its tables
	for f in text markdown html; do
		kab --db $TMP/u.db report --format $f -o $TMP/r.$f ${base:0:12} ${head:0:12}
		grep -q "           :4           20%           1:5     last_state.is_incomplete_run" $TMP/r.$f ||
			fail "report --format $f lacks the fail:runs row"
	done
	# without the incomplete run neither block shows it
	kab --db $TMP/v.db import --lkp $U/$base $U/$head/0 $U/$head/1 $U/$head/3 >/dev/null 2>&1
	kab --db $TMP/v.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	not grep -q "fail:runs" $TMP/t
	grep -q "will-it-scale.per_process_ops$" $TMP/t
	kab --db $TMP/v.db compare ${base:0:12} ${head:0:12} >$TMP/t
	not grep -q "fail:runs" $TMP/t
	# an incomplete run on both sides: lkp shows no row (the largest
	# value is the same), kab'"'"'s table still counts them
	cp -r $U $TMP/u2
	sed -i "s/^{/{ \"last_state.is_incomplete_run\": 1,/" $TMP/u2/$base/3/stats.json
	kab --db $TMP/w.db import --lkp $TMP/u2/$base $TMP/u2/$head >/dev/null 2>&1
	kab --db $TMP/w.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	cat $TMP/t
	not grep -q "fail:runs" $TMP/t
	grep -q "will-it-scale.per_process_ops$" $TMP/t
	kab --db $TMP/w.db compare ${base:0:12} ${head:0:12} >$TMP/t
	grep -q "^          1:4           -5%           1:5     last_state.is_incomplete_run$" $TMP/t
	# three of the head'"'"'s five incomplete: 60 points more (the
	# share'"'"'s difference in percent, not a near multiple)
	cp -r $U $TMP/u3
	sed -i "s/^{/{ \"last_state.is_incomplete_run\": 1,/" $TMP/u3/$head/0/stats.json $TMP/u3/$head/1/stats.json
	kab --db $TMP/y3.db import --lkp $TMP/u3/$base $TMP/u3/$head >/dev/null 2>&1
	kab --db $TMP/y3.db compare ${base:0:12} ${head:0:12} >$TMP/t
	grep -q "^           :4           60%           3:5     last_state.is_incomplete_run$" $TMP/t
	# a stat only an incomplete run carries: lkp'"'"'s matrix fills it
	# with 0 in the complete runs, so -a has its row; its default
	# (changed stats only) and kab'"'"'s own table do not call it a change
	cp -r $U $TMP/u4
	sed -i "s/^{/{ \"will-it-scale.time.minor_page_faults\": 777,/" $TMP/u4/$head/2/stats.json
	kab --db $TMP/x.db import --lkp $TMP/u4/$base $TMP/u4/$head >/dev/null 2>&1
	kab --db $TMP/x.db compare --format lkp --all ${base:0:12} ${head:0:12} >$TMP/t
	grep -q "^      0.00          -100.0%       0.00        will-it-scale.time.minor_page_faults$" $TMP/t
	kab --db $TMP/x.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	not grep -q minor_page_faults $TMP/t
	# a 0 in each of the head commit'"'"'s four complete runs, none for the base
	kab --db $TMP/x.db compare --format json --all ${base:0:12} ${head:0:12} >$TMP/j
	python3 -c "import json, sys; r = [r for r in json.load(open(sys.argv[1]))[\"tables\"][0][\"rows\"] if r[\"metric\"] == \"will-it-scale.time.minor_page_faults\"][0]; assert (r[\"base\"][\"n\"], r[\"heads\"][0][\"n\"], r[\"heads\"][0][\"max\"]) == (0, 4, 0), r" $TMP/j
	kab --db $TMP/x.db compare --all ${base:0:12} ${head:0:12} >$TMP/t
	grep -q "^      0.00            +0.0%       0.00        will-it-scale.time.minor_page_faults  (one side only)$" $TMP/t
'

test_expect "tables of lkp's result roots come newest first, as lkp ncompare lists them" '
	U=$FIXTURES/lkp-unite
	base=5b1e9c0d2a3f4e5d6c7b8a9f0e1d2c3b4a596877
	head=c0ffee0123456789abcdef0123456789abcdef01
	for n in 16 32; do
		mkdir -p $TMP/o$n
		cp -r $U/$base $U/$head $TMP/o$n/
		sed -i "s/^nr_task: 16$/nr_task: $n/" $TMP/o$n/*/*/job.yaml
	done
	# nr_task=16 ran first, nr_task=32 a month later
	touch -d 2024-01-01 $TMP/o16/*/*/stats.json
	touch -d 2024-02-01 $TMP/o32/*/*/stats.json
	kab --db $TMP/o.db import --lkp $TMP/o16/* $TMP/o32/* >/dev/null 2>&1
	kab --db $TMP/o.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	grep "^  gcc-7/" $TMP/t | cut -d/ -f5 >$TMP/order
	printf "32\n16\n" | diff - $TMP/order
'

test_expect "lkp result roots: --format lkp has lkp's axes and commits" '
	R=$FIXTURES/lkp-result
	base=0f1e2d3c4b5a69788796a5b4c3d2e1f0abcdef12
	head=a1b2c3d4e5f60718293a4b5c6d7e8f9012345678
	kab import --lkp $R/$base $R/$head >/dev/null
	kab compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	cat $TMP/t
	sed -n 2,9p $TMP/t >$TMP/h
	printf "%s\n" \
		"compiler/cpufreq_governor/kconfig/mode/nr_task/rootfs/tbox_group/test/testcase:" \
		"  gcc-12/performance/x86_64-rhel-8.3/process/100%/debian-12-x86_64-20240206.cgz/lkp-skl-fpga01/malloc1/will-it-scale" \
		"" "commit: " "  $base" "  $head" "" \
		"${base:0:16} ${head:0:27} " >$TMP/want
	diff -u $TMP/want $TMP/h
	grep -q "will-it-scale.per_process_ops$" $TMP/t
'

test_expect "three lkp commits: lkp's fail:runs rule and shares, a label of digits, a commit with no complete run" '
	U=$FIXTURES/lkp-unite
	base=5b1e9c0d2a3f4e5d6c7b8a9f0e1d2c3b4a596877
	head=c0ffee0123456789abcdef0123456789abcdef01
	third=287385820942dc06bc69f2658575062102fbcd4f
	T=$TMP/three
	mkdir -p $T
	cp -r $U/$base $U/$head $T/
	cp -r $U/$base $T/$third
	sed -i "s/^commit: .*/commit: $third/" $T/$third/*/job.yaml
	sed -i "s/^{/{ \"last_state.is_incomplete_run\": 1,/" $T/$base/3/stats.json $T/$third/2/stats.json
	sed -i "s/\"will-it-scale.per_process_ops\": \([0-9]*\)000,/\"will-it-scale.per_process_ops\": \1200,/" $T/$third/*/stats.json
	kab --db $TMP/3.db import --lkp $T/* >/dev/null 2>&1
	# the third commit is labelled by 12 digits: a label, not a run id
	kab --db $TMP/3.db compare --format lkp ${base:0:12} ${head:0:12} ${third:0:12} >$TMP/t
	# lkp compares every head with one copy of the base that loses its
	# incomplete runs at the first: the row shows for the third alone,
	# each head'"'"'s count over the runs of the column before it
	diff -u $FIXTURES/lkp-golden/three.lkp $TMP/t
	kab --db $TMP/3.db show ${third:0:12} >$TMP/s
	grep -q "^kernel ${third:0:12}: runs " $TMP/s
	# a blank line between two, none after the last
	test -n "$(tail -n 1 $TMP/s)"
	kab --db $TMP/3.db show ${third:0:12} ${base:0:12} >$TMP/s2
	test "$(grep -c "^\$" $TMP/s2)" = "$(($(grep -c "^\$" $TMP/s) + 1))"
	# kab'"'"'s own table: each side'"'"'s share of its own runs
	kab --db $TMP/3.db compare ${base:0:12} ${head:0:12} ${third:0:12} >$TMP/k
	grep -q "^          1:4           -5%           1:5            0%           1:4     last_state.is_incomplete_run$" $TMP/k
	# a commit whose only run is incomplete: said, not "no such label"
	mkdir -p $TMP/none && cp -r $U/$head $TMP/none/
	rm -r $TMP/none/$head/[0134]
	kab --db $TMP/n.db import --lkp $TMP/none/$head $U/$base >/dev/null 2>&1
	expect_error 2 "^kab: no run of .c0ffee012345. completed (1 failed or interrupted): a side needs complete runs; .kab ls --label c0ffee012345. lists them$" -- \
		kab --db $TMP/n.db compare ${base:0:12} ${head:0:12}
	# ... and a label of digits alone, which could be a run id
	mkdir -p $TMP/none3 && cp -r $T/$third $TMP/none3/
	rm -r $TMP/none3/$third/[0134]
	kab --db $TMP/n3.db import --lkp $TMP/none3/$third $U/$base >/dev/null 2>&1
	expect_error 2 "^kab: no run of .${third:0:12}. completed (1 failed or interrupted)" -- \
		kab --db $TMP/n3.db compare ${base:0:12} ${third:0:12}
	# lkp -a shows the fail:runs row of an incomplete run on both sides
	kab --db $TMP/3.db compare --format lkp --all ${base:0:12} ${third:0:12} >$TMP/t
	grep -q "^          1:4            0%           1:4     last_state.is_incomplete_run$" $TMP/t
	kab --db $TMP/3.db compare --format lkp ${base:0:12} ${third:0:12} >$TMP/t
	not grep -q "fail:runs" $TMP/t
'

test_expect "two runs whose job.yaml and stats.json are the same bytes are two runs; the same root again is none" '
	U=$FIXTURES/lkp-unite
	base=5b1e9c0d2a3f4e5d6c7b8a9f0e1d2c3b4a596877
	mkdir -p $TMP/twin/$base
	cp -r $U/$base/0 $TMP/twin/$base/0
	cp -r $U/$base/0 $TMP/twin/$base/1
	kab --db $TMP/twin.db import --lkp $TMP/twin/$base >$TMP/o 2>/dev/null
	grep -qx "imported 2 runs into $TMP/twin.db" $TMP/o
	(cd $TMP/twin && kab --db $TMP/twin.db import --lkp ./$base/0 >$TMP/o 2>/dev/null) || true
	test "$(sqlite3 $TMP/twin.db "SELECT count(*) FROM runs")" = 2
'

test_expect "lkp roots of one second come newest first, to the nanosecond" '
	U=$FIXTURES/lkp-unite
	base=5b1e9c0d2a3f4e5d6c7b8a9f0e1d2c3b4a596877
	head=c0ffee0123456789abcdef0123456789abcdef01
	for n in 16 32; do
		mkdir -p $TMP/ns$n
		cp -r $U/$base $U/$head $TMP/ns$n/
		sed -i "s/^nr_task: 16$/nr_task: $n/" $TMP/ns$n/*/*/job.yaml
	done
	# one second: nr_task=16 at .9, nr_task=32 at .1; imported 16 first
	touch -d "2024-01-01 00:00:00.900000000" $TMP/ns16/*/*/stats.json
	touch -d "2024-01-01 00:00:00.100000000" $TMP/ns32/*/*/stats.json
	kab --db $TMP/ns.db import --lkp $TMP/ns16/* $TMP/ns32/* >/dev/null 2>&1
	kab --db $TMP/ns.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	grep "^  gcc-7/" $TMP/t | cut -d/ -f5 >$TMP/order
	printf "16\n32\n" | diff - $TMP/order
	# imported the other way round: the same order
	kab --db $TMP/ns2.db import --lkp $TMP/ns32/* $TMP/ns16/* >/dev/null 2>&1
	kab --db $TMP/ns2.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	grep "^  gcc-7/" $TMP/t | cut -d/ -f5 >$TMP/order
	printf "16\n32\n" | diff - $TMP/order
	# a set is as old as its base'"'"'s earliest run: one run of 16 at .05,
	# before all of 32, in the last of its run directories
	touch -d "2024-01-01 00:00:00.050000000" $TMP/ns16/$base/3/stats.json
	kab --db $TMP/ns3.db import --lkp $TMP/ns16/* $TMP/ns32/* >/dev/null 2>&1
	kab --db $TMP/ns3.db compare --format lkp ${base:0:12} ${head:0:12} >$TMP/t
	grep "^  gcc-7/" $TMP/t | cut -d/ -f5 >$TMP/order
	printf "32\n16\n" | diff - $TMP/order
'

test_done
