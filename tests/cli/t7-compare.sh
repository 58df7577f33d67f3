#!/bin/bash
# kab compare on stored runs: lkp's table (golden files for two and
# three columns), the other formats, and bad input.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3

test_expect "a seed-like database imports" '
	$PY $FIXTURES/make-seedlike-export.py >$TMP/seed.json
	kab import $TMP/seed.json >$TMP/pipe
	grep -q "imported 9 runs" $TMP/pipe
'

test_expect "two columns: the lkp table matches its golden file" '
	kab compare base align >$TMP/two.txt
	diff -u $FIXTURES/compare-2col.txt $TMP/two.txt
'

test_expect "three columns: each head against the base, golden file" '
	kab compare base align fix >$TMP/three.txt
	diff -u $FIXTURES/compare-3col.txt $TMP/three.txt
'

test_expect "only significant rows by default; --all shows every metric" '
	kab compare base align >$TMP/d.txt
	not grep -q "meminfo.MemFree" $TMP/d.txt
	not grep -q "perf-stat.ps.context-switches" $TMP/d.txt
	not grep -q "elapsed_time" $TMP/d.txt
	kab compare --all base align >$TMP/a.txt
	grep -q "meminfo.MemFree" $TMP/a.txt
	grep -q "perf-stat.ps.context-switches" $TMP/a.txt
'

test_expect "the first sentence names the KPI change and its direction" '
	head -2 $TMP/d.txt | grep -q "^kab noticed a 81.6% regression of will-it-scale.per_process_ops: base -> align$"
	kab compare align base >$TMP/pipe
	grep -q "improvement of will-it-scale.per_process_ops: align -> base" $TMP/pipe
'

test_expect "mwu and lkp tests choose rows too" '
	kab compare --test mwu 1,2,3,7,8,9 4,5,6 >$TMP/pipe
	grep -q "will-it-scale.per_process_ops" $TMP/pipe
	kab compare --test lkp base align >$TMP/pipe
	grep -q "will-it-scale.per_process_ops" $TMP/pipe
	kab compare --test lkp --all base align >$TMP/pipe
	grep -q "meminfo.MemFree" $TMP/pipe
'

test_expect "--stats appends adjusted p, boots, scale, F and the interval" '
	kab compare --stats base align >$TMP/s.txt
	grep "^ .*  will-it-scale.per_process_ops" $TMP/s.txt >$TMP/s0
	grep -Eq "p=[0-9.e-]+ +3/3 boots log F=[0-9.]+/[0-9.]+ \[-8[0-9]\.[0-9], -8[0-9]\.[0-9]\]%$" $TMP/s0
	# a counter at 0 in the base: linear scale, absolute interval
	grep "proc-vmstat.thp_fault_alloc" $TMP/s.txt >$TMP/s0
	grep -Eq "p=[0-9.e-]+ +3/3 boots F=-/[0-9.]+ \[\+[0-9.]+, \+[0-9.]+\]  \(base 0" $TMP/s0
	# the lkp columns themselves are unchanged; the KPI row is marked,
	# its own family of the correction said
	grep "^ .*  will-it-scale.per_process_ops (KPI)  p=" $TMP/s.txt
	not grep -q "pgfault (KPI)" $TMP/s.txt
	grep -q "^note: (KPI) marks the KPI rows: corrected for false discoveries as their own family" $TMP/s.txt
	grep "^ .*  will-it-scale.per_process_ops" $TMP/s.txt | sed "s/ (KPI)//; s/  p=.*//" >$TMP/s1
	grep "^ .*  will-it-scale.per_process_ops" $TMP/d.txt >$TMP/d1
	cmp $TMP/s1 $TMP/d1
'

test_expect "JSON carries every number of every row" '
	kab compare --format json base align fix >$TMP/c.json
	$PY - $TMP/c.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	t = d["tables"][0]
	assert d["test"] == "welch" and t["heads"] == ["align", "fix"]
	assert t["exact"] is False
	rows = {r["metric"]: r for r in t["rows"]}
	assert len(rows) == 8
	c = rows["will-it-scale.per_process_ops"]["heads"][0]
	for k in ("n", "mean", "stddev", "change", "ci_low", "ci_high",
	          "p_welch", "p_mwu", "p_adjusted", "significant", "direction",
	          "verdict", "boots_base", "boots_head", "scale", "unit"):
	    assert k in c, k
	assert c["n"] == 15 and c["significant"] and c["verdict"] == "regression"
	assert c["boots_base"] == 3 and c["boots_head"] == 3 and c["unit"] == "boot"
	assert c["scale"] == "log" and rows["will-it-scale.per_process_ops"]["kpi"]
	assert c["p_welch"] < 1e-5 and c["ci_low"] < c["change"] < c["ci_high"]
	# the U test on 3 against 3 boot means cannot go below 0.1
	assert abs(c["p_mwu"] - 0.1) < 1e-9
	z = rows["proc-vmstat.thp_fault_alloc"]["heads"][0]
	assert z["scale"] == "linear" and z["significant"]
	assert not rows["meminfo.MemFree"]["heads"][0]["significant"]
	assert rows["meminfo.MemFree"]["shown"] is False
	PY
'

test_expect "CSV has one line per row and head with every number" '
	kab compare --format csv base align >$TMP/c.csv
	head -1 $TMP/c.csv | grep -q "^params,metric,base,head,base_n,base_mean,base_stddev,head_n,head_mean,head_stddev,change,change_kind,ci_low,ci_high,p_welch,p_mwu,p_adjusted,significant,direction,verdict$"
	test "$(($(wc -l <$TMP/c.csv) - 1))" = 8
	grep -q ",will-it-scale.per_process_ops,base,align,15,.*,yes,higher-is-better,regression$" $TMP/c.csv
'

test_expect "markdown gives a table for a merge request comment" '
	kab compare --format markdown base align >$TMP/c.md
	grep -q "^| base | ±% | change | align | ±% | metric |$" $TMP/c.md
	grep -q "| \*\*-81.6%" $TMP/c.md
'

test_expect "--plot draws both sides of each KPI" '
	kab compare --plot base align >$TMP/p.txt
	grep -A20 "^will-it-scale.per_process_ops$" $TMP/p.txt >$TMP/p1
	grep -q "x" $TMP/p1
	grep -q "+" $TMP/p1
	grep -q "A" $TMP/p1
	grep -q "x base (n=15)   + align (n=15)" $TMP/p1
'

test_expect "run ids and lists of ids work as sides" '
	# runs of one kernel are named by its label, however they are given
	kab compare 1,2,3 4,5,6 >$TMP/ids.txt
	diff $TMP/two.txt $TMP/ids.txt
	kab compare 1 4 >$TMP/one.txt
	grep -q "^ *base *align $" $TMP/one.txt
'

test_expect "one boot a side: no verdict, and the need is said" '
	# each run is a boot: 5 iterations of one boot are one sample
	kab compare --all 1 4 >$TMP/few.txt
	cat $TMP/few.txt
	grep -q "note: 8 metrics have fewer than 2 boots (or runs) on a side and get no verdict: boots, not iterations, are the samples" $TMP/few.txt
	# the KPI says what to measure, with its counts; said once
	grep -q "^note: base -> align: will-it-scale.per_process_ops has 1 and 1 boots (or runs), fewer than 2 on a side, so no verdict is possible: measure more (kab run --repeat 3 on each kernel)$" $TMP/few.txt
	test "$(grep -c "measure more" $TMP/few.txt)" = 1
	grep "will-it-scale.per_process_ops" $TMP/few.txt >$TMP/pipe
	grep -q "(boots<2)$" $TMP/pipe
	not grep -q "^kab noticed" $TMP/few.txt
	# 2 against 2 boots: the U test cannot, the t-test can
	kab compare --test mwu 1,2 4,5 >$TMP/two-mwu.txt
	grep -q "the U test cannot call a change among 8 metrics at q = 0.01: need >= 7 boots a side" $TMP/two-mwu.txt
	not grep -q "^kab noticed" $TMP/two-mwu.txt
	kab compare 1,2 4,5 >$TMP/pipe
	grep -q "^kab noticed a 81.[0-9]% regression of will-it-scale.per_process_ops" $TMP/pipe
'

test_expect "a run named twice is refused, not counted as two boots" '
	expect_error 2 "run 1 is named twice in .1,2,1.: name each run once" -- "$KAB" compare 1,2,1 4,5
	# a side against itself (by label or by its runs) was not meant
	for c in compare report "ci gate"; do
		# shellcheck disable=SC2086
		expect_error 2 "^kab: .base. and .base. are the same runs: compare two kernels" -- "$KAB" $c base base
	done
	ids=$(sql "SELECT group_concat(r.id) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = '"'"'base'"'"'")
	expect_error 2 "^kab: .base. and .$ids. are the same runs" -- "$KAB" compare base $ids
	# a missing run: an error, and not a byte of CSV before it
	rc=0
	"$KAB" export --format csv 999 >$TMP/x 2>/dev/null || rc=$?
	test $rc = 2
	test ! -s $TMP/x
	expect_error 2 "no run 99" -- "$KAB" compare 1,99 4
'

test_expect "--noise: a significant change under the floor is not called" '
	$PY - $TMP/seed.json $TMP/small.json <<-PY
	import json, random, sys
	d = json.load(open(sys.argv[1]))
	rnd = random.Random(7)
	runs = []
	for side, k in (("small-a", 1.0), ("small-b", 1.005)):
	    for j in range(3):
	        r = json.loads(json.dumps(d["runs"][0]))
	        r["uuid"] = "00000000-0000-4000-8000-%012d" % (500 + len(runs))
	        r["kernel"]["label"] = side
	        for it in r["iterations"]:
	            it["metrics"] = {"will-it-scale.per_process_ops":
	                             10000 * k * rnd.gauss(1, 0.0002)}
	        runs.append(r)
	d["runs"] = runs
	json.dump(d, open(sys.argv[2], "w"))
	PY
	kab import $TMP/small.json >/dev/null
	# +0.5% at p far below 0.05: under the default 1% floor, not
	# called (the KPI row is shown all the same)
	kab compare small-a small-b >$TMP/n1
	cat $TMP/n1
	grep -q "+0.5%.*will-it-scale.per_process_ops" $TMP/n1
	grep -q "^(no significant change in 1 metrics" $TMP/n1
	not grep -q "^kab noticed" $TMP/n1
	kab compare --noise 0.2 small-a small-b >$TMP/n2
	grep -q "^kab noticed a 0.5% improvement of will-it-scale.per_process_ops" $TMP/n2
'

test_expect "bad sides are refused with the fix" '
	expect_error 2 "no run 99" -- "$KAB" compare 99 1
	expect_error 2 "neither a run id nor the label" -- "$KAB" compare nosuch base
	expect_error 2 "needs a base and at least one head" -- "$KAB" compare base
	expect_error 2 "--test .t.: use welch, mwu or lkp" -- "$KAB" compare --test t base align
	expect_error 2 "--fdr .2." -- "$KAB" compare --fdr 2 base align
	expect_error 2 "--format .xml." -- "$KAB" compare --format xml base align
'

test_expect "a misspelt label or KPI, or a run on two sides, is refused; an empty lkp table is explained" '
	expect_error 2 "^kab: .basee. is neither a run id nor the label of a kernel with ok runs: did you mean .base.? .kab ls. lists them$" -- "$KAB" compare basee align
	# the first run'"'"'s label is among those offered, as every other
	printf "run,kernel_label,iteration,metric,value\n1,first,1,x.y,1\n2,second,1,x.y,2\n" >$TMP/fs.csv
	kab --db $TMP/fs.db import --format csv $TMP/fs.csv >/dev/null
	expect_error 2 "did you mean .first.?" -- "$KAB" --db $TMP/fs.db compare frist second
	expect_error 2 "^kab: no job of base and align has the metric will-it-scale.per_proces_ops: did you mean .will-it-scale.per_process_ops.? .kab compare --all base align. lists them$" -- \
		"$KAB" compare --kpi will-it-scale.per_proces_ops base align
	expect_error 2 "no job of base and align has the metric typo: .kab compare --all" -- "$KAB" compare --kpi typo base align
	# report and the gate say the same of the same typo
	expect_error 2 "no job of base and align has the metric typo" -- "$KAB" report --kpi typo base align
	expect_error 2 "no job of base and align has the metric typo" -- "$KAB" ci gate --kpi typo base align
	expect_error 2 "^kab: run 2 is on two sides (.1,2. and .2,3.): name each run on one side$" -- "$KAB" compare 1,2 2,3
	# lkp prints nothing for two runs of one kernel: stderr says why
	"$KAB" compare --format lkp 1 2 >$TMP/lkp.out 2>$TMP/lkp.err
	test ! -s $TMP/lkp.out
	grep -q "^kab: note: 1 of 1 job has no row that lkp.s rule shows" $TMP/lkp.err
	# kab plan: missing data and a misspelt KPI are 2, never 1
	expect_error 2 "^kab: nothing to plan from 1: measure what the notes above ask$" -- "$KAB" plan --detect 5 1
	grep -qx "  will-it-scale.per_process_ops: 1 boot, 5 iterations" $TMP/stdout
	grep -qx "  cannot tell the variance between boots from the variance within them: measure 2 boots (or runs) or more of 2 iterations or more (kab run --repeat 2 --runs 2 on each kernel)" $TMP/stdout
	expect_error 2 "1 of 1 jobs of base have no will-it-scale.per_proces_ops (did you mean .will-it-scale.per_process_ops.?)" -- \
		"$KAB" plan --detect 5 --kpi will-it-scale.per_proces_ops base
	# a plan names its job in words and prints a command to paste
	"$KAB" plan --detect 5 base >$TMP/plan
	cat $TMP/plan
	grep -q "^base, job will-it-scale malloc1: bind=core mode=process nr_task=100% testtime=10s warmup=6:$" $TMP/plan
	# boots that differ (0.6% here) need no word of their variance
	not grep -q "differ no more than their iterations" $TMP/plan
	cmd=$(grep "^  kab run --repeat" $TMP/plan | sed "s/^  //")
	set -- $cmd
	test "$1 $2 $3" = "kab run --repeat"
	case "$cmd" in *"--kernel-label base --set bind=core --set mode=process --set nr_task=100% --set testtime=10s --set warmup=6 will-it-scale-malloc1  # on each kernel") ;; *) false ;; esac
	# a --db whose directory is not there is a typo, not a new database
	expect_error 2 "no directory $TMP/nodir: create it first" -- "$KAB" --db $TMP/nodir/k.db import $TMP/seed.json
	test ! -e $TMP/nodir
'

test_expect "runs of different parameters are not compared: the one that differs is named" '
	$PY - $TMP/seed.json $TMP/other.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["runs"][0]
	r["uuid"] = "00000000-0000-4000-8000-999999999999"
	r["kernel"]["label"] = "other"
	r["params"]["nr_task"] = "1"
	d["runs"] = [r]
	json.dump(d, open(sys.argv[2], "w"))
	PY
	kab import $TMP/other.json >/dev/null
	expect_error 2 "share no parameter set: they differ in nr_task (base: 100%, other: 1); --ignore-param nr_task" -- "$KAB" compare base other
'

test_expect "two sides without a metric in common are refused" '
	$PY - $TMP/seed.json $TMP/disjoint.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["runs"][0]
	r["uuid"] = "00000000-0000-4000-8000-888888888888"
	r["kernel"]["label"] = "renamed"
	for it in r["iterations"]:
	    it["metrics"] = {"x." + k: v for k, v in it["metrics"].items()}
	d["runs"] = [r]
	json.dump(d, open(sys.argv[2], "w"))
	PY
	kab import $TMP/disjoint.json >/dev/null
	expect_error 2 "no metric in common" -- "$KAB" compare base renamed
'

test_expect "runs from another machine are refused unless --force" '
	$PY - $TMP/seed.json $TMP/elsewhere.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["runs"][3]
	r["uuid"] = "00000000-0000-4000-8000-777777777777"
	r["kernel"]["label"] = "elsewhere"
	r["host"]["nr_cpus"] = 224
	d["runs"] = [r]
	json.dump(d, open(sys.argv[2], "w"))
	PY
	kab import $TMP/elsewhere.json >/dev/null
	expect_error 2 "another machine (local 224 CPUs.*pass --force" -- "$KAB" compare base elsewhere
	kab compare --force base elsewhere >$TMP/pipe
	grep -q "will-it-scale.per_process_ops" $TMP/pipe
'

test_expect "non-finite values in a damaged database are left out, said once" '
	cp $KAB_DB $TMP/damaged.db
	sqlite3 $TMP/damaged.db "UPDATE samples SET value = 9e999 WHERE run_id = 1 AND iteration = 1 AND metric = '"'"'meminfo.MemFree'"'"'"
	"$KAB" --db $TMP/damaged.db compare base align >$TMP/o 2>$TMP/e
	grep -q "1 stored values are not finite" $TMP/e
	grep -q "will-it-scale.per_process_ops" $TMP/o
'

test_expect "markdown and the HTML report print numbers for people: commas, no exponents, round ticks" '
	kab compare --format markdown base align >$TMP/md
	cat $TMP/md
	grep -q "^| 7,6[0-9][0-9] | 1% | \*\*-8[0-9].[0-9]%\*\* | 1,[34][0-9][0-9] | " $TMP/md
	grep -q "| 0 | 0% | \*\*from 0\*\* | 49,[0-9]* | .* .proc-vmstat.thp_fault_alloc. |" $TMP/md
	not grep -q "e+[0-9]" $TMP/md
	kab report --format html base align >$TMP/r.html
	grep -o "class=\"tick\">[^<]*<" $TMP/r.html | sed "s/.*>\(.*\)</\1/" >$TMP/ticks
	cat $TMP/ticks
	test -s $TMP/ticks
	not grep -qv "^-\?[0-9][0-9,]*\(\.[0-9]*\)\?$" $TMP/ticks
	not grep -q "e+" $TMP/ticks
'

test_expect "ls, show, compare, report and ci gate speak JSON with a schema version" '
	kab ls --format json >$TMP/ls.json
	kab show --format json 1 base >$TMP/show.json
	kab compare --format json base align >$TMP/compare.json
	kab report --format json base align >$TMP/report.json
	rc=0
	kab ci gate --format json base align >$TMP/gate.json || rc=$?
	test $rc = 1
	$PY - $TMP <<-PY
	import json, sys
	d = sys.argv[1]
	ls = json.load(open(d + "/ls.json"))
	assert ls["schema"] == "kab.ls/1" and len(ls["runs"]) >= 9
	show = json.load(open(d + "/show.json"))
	assert show["schema"] == "kab.show/1"
	run, boots = show["items"]
	assert run["kind"] == "run" and run["run"]["id"] == 1
	m = {x["metric"]: x for x in run["metrics"]}
	assert m["will-it-scale.per_process_ops"]["n"] == 5
	assert boots["kind"] == "boots" and boots["runs"] == [1, 2, 3]
	b = {x["metric"]: x for x in boots["metrics"]}
	assert b["will-it-scale.per_process_ops"]["boots"] == 3
	cmp = json.load(open(d + "/compare.json"))
	assert cmp["schema"] == "kab.compare/1" and cmp["tables"]
	rep = json.load(open(d + "/report.json"))
	assert rep["schema"] == "kab.report/1"
	main = [j for j in rep["jobs"] if j["announced"]][0]
	assert main["kpi"]["metric"] == "will-it-scale.per_process_ops"
	assert main["kpi"]["verdict"] == "regression", main["kpi"]
	assert main["kpi"]["change"] < -70
	gate = json.load(open(d + "/gate.json"))
	assert gate["schema"] == "kab.gate/1" and gate["result"] == "fail"
	assert gate["kpis"][0]["verdict"] == "regression"
	assert gate["kpis"][0]["failed"] is True
	# each real in the fewest digits that read back the same
	import re
	for f in ("ls", "show", "compare", "report", "gate"):
	    text = open(d + "/" + f + ".json").read()
	    for num in re.findall(r"(?<![\w\"])-?\d+\.\d+(?:e[-+]?\d+)?", text):
	        v = float(num)
	        short = next(p for p in range(1, 18) if float("%.*g" % (p, v)) == v)
	        digits = len(re.sub(r"e.*|[-.]", "", num).strip("0"))
	        assert digits <= max(short, 1), (f, num, short)
	PY
	# nothing on stdout before the command knows it succeeds
	expect_error 2 "not a run id\|neither a run id" -- kab show --format json 1 999x
	not grep -q . $TMP/stdout
	# runs timed by guest instructions (a CSV says so): the table says
	# what that clock cannot see; --quiet leaves it out too
	{ echo "run,kernel_label,iteration,metric,value,clock,seed"
	  for r in 1 2 3 4 5 6; do
		l=ia; [ $r -gt 3 ] && l=ib
		echo "$r,$l,1,will-it-scale.per_process_ops,$((1000 + 10 * r)),icount:3,$(( (r - 1) % 3 + 1 ))"
	  done; } >$TMP/exact.csv
	kab --db $TMP/exact.db import --format csv $TMP/exact.csv >/dev/null
	kab --db $TMP/exact.db compare ia ib >$TMP/ex
	grep -q "^note: timed in guest instructions (QEMU icount): cache and TLB effects are not modelled" $TMP/ex
	kab -q --db $TMP/exact.db compare ia ib >$TMP/ex
	not grep -q "timed in guest instructions" $TMP/ex
	kab --db $TMP/exact.db compare --format markdown ia ib >$TMP/ex
	grep -q "^\*timed in guest instructions (QEMU icount): cache and TLB effects are not modelled" $TMP/ex
	# JSON says which tables are exact
	kab --db $TMP/exact.db compare --format json ia ib >$TMP/ex
	$PY -c "import json, sys; assert json.load(open(sys.argv[1]))[\"tables\"][0][\"exact\"] is True" $TMP/ex
	# and the report'"'"'s disclaimer
	kab --db $TMP/exact.db report --kpi will-it-scale.per_process_ops ia ib | grep -A2 "The machine is emulated" | tr "\n" " " >$TMP/ex
	grep -q "timed in guest instructions (icount): cache and TLB effects are not modelled" $TMP/ex
	# a cost model timed them too (kab run --model spr): its KPI is the
	# table'"'"'s second, and the note says where the model'"'"'s rows are
	{ echo "run,kernel_label,iteration,metric,value,clock,seed"
	  for r in 1 2 3 4 5 6; do
		l=ma; [ $r -gt 3 ] && l=mb
		echo "$r,$l,1,will-it-scale.per_process_ops,$((1000 + r)),icount:3,$(( (r - 1) % 3 + 1 ))"
		echo "$r,$l,1,will-it-scale.per_process_ops:spr,$((80000 - 1000 * r)),icount:3,$(( (r - 1) % 3 + 1 ))"
		echo "$r,$l,1,perf-stat.total.cycles:spr,$((1000 * r)),icount:3,$(( (r - 1) % 3 + 1 ))"
	  done; } >$TMP/model.csv
	kab --db $TMP/model.db import --format csv --job $TOP/jobs/will-it-scale-malloc1.yaml $TMP/model.csv >/dev/null
	kab --db $TMP/model.db compare ma mb >$TMP/ex
	cat $TMP/ex
	grep -q "^note: timed in guest instructions (QEMU icount), and by cost model spr for caches and TLBs in the rows marked :spr (doc/exact.md); changes under 0.5% are not called$" $TMP/ex
	# both KPIs, the job'"'"'s first, whatever they did
	grep -A2 "^ *\\\\ *| *\\\\ *$" $TMP/ex | tail -2 >$TMP/kpis
	cat $TMP/kpis
	grep -Eq " will-it-scale.per_process_ops$" <(head -1 $TMP/kpis)
	grep -Eq " -[0-9.]+% .* will-it-scale.per_process_ops:spr$" <(tail -1 $TMP/kpis)
	# and read as lkp reads the KPI: fewer ops are a regression
	grep -q "^kab noticed a [0-9.]*% regression of will-it-scale.per_process_ops:spr: ma -> mb$" $TMP/ex
	kab --db $TMP/model.db compare --format markdown ma mb | grep -q "^\*timed in guest instructions (QEMU icount), and by cost model spr"
	kab --db $TMP/model.db report ma mb >$TMP/rep
	grep -A2 "The machine is emulated" $TMP/rep | tr "\n" " " | grep -q "and by cost model spr for caches and TLBs in the rows marked :spr"
	# the job'"'"'s KPI did not move, the model'"'"'s did: the report is of
	# the model'"'"'s; --kpi names the other
	grep -q "^Subject: mb: will-it-scale.per_process_ops:spr [0-9.]*% regression$" $TMP/rep
	grep -q "^kab noticed a [0-9.]*% regression of will-it-scale.per_process_ops:spr on:$" $TMP/rep
	kab --db $TMP/model.db report --kpi will-it-scale.per_process_ops ma mb >$TMP/rep
	grep -q "^Subject: mb: no significant change of will-it-scale.per_process_ops$" $TMP/rep
	# the same at each seed on both sides: no change beyond the
	# resolution, and what three seeds can find
	{ echo "run,kernel_label,iteration,metric,value,clock,seed"
	  for v in 1,za,1000,1 2,za,1010,2 3,za,1020,3 4,zb,1000.5,1 5,zb,1009.8,2 6,zb,1020.3,3; do
		IFS=, read -r r l x k <<<"$v"
		echo "$r,$l,1,will-it-scale.per_process_ops,$x,icount:3,$k"
	  done; } >$TMP/same.csv
	kab --db $TMP/same.db import --format csv $TMP/same.csv >/dev/null
	kab --db $TMP/same.db compare --kpi will-it-scale.per_process_ops za zb >$TMP/ex
	grep -q "^note: za -> zb: no change of will-it-scale.per_process_ops beyond exact mode.s resolution; with 3 layout seeds this plan finds a change of [0-9.]*% or more 8 times in 10$" $TMP/ex
	# that note alone: not the one of a spread of boots besides
	test "$(grep -c "^note: za -> zb: no" $TMP/ex)" = 1
	# --quiet: the table, without the notes on it
	kab compare base align >$TMP/loud
	kab -q compare base align >$TMP/quiet
	grep -q "^note:" $TMP/loud
	not grep -q "note:" $TMP/quiet
	grep "will-it-scale.per_process_ops$" $TMP/loud | diff - <(grep "will-it-scale.per_process_ops$" $TMP/quiet)
	# a --metric no metric of the run matches is a typo, named
	expect_error 2 "no metric of run 1 matches .will-it-scale.per_proces_ops.: did you mean .will-it-scale.per_process_ops.?" -- \
		kab show --metric will-it-scale.per_proces_ops 1
	expect_error 2 "no metric of run 1 matches .zzz\*." -- kab show --format json --metric "zzz*" 1
	not grep -q . $TMP/stdout
'

test_expect "a long profile: the KPI first, the surest perf-profile rows, the rest counted" '
	# the report fixture with 40 call chains a malloc1 run: 30 move (by 1 to 30
	# points), 10 do not
	$PY $FIXTURES/make-report-export.py | $PY -c "
import json, sys
d = json.load(sys.stdin)
for r in d[\"runs\"]:
    head = r[\"kernel\"][\"label\"] == \"head\"
    for it in r[\"iterations\"]:
        if \"will-it-scale.per_process_ops\" not in it[\"metrics\"]:
            continue
        for k in range(40):
            move = (k + 1) if head and k < 30 else 0
            it[\"metrics\"][\"perf-profile.children.cpu-clock.f%02d\" % k] = 40.0 + move + 0.01 * it[\"iteration\"]
json.dump(d, sys.stdout)" >$TMP/prof.json
	kab --db $TMP/prof.db import $TMP/prof.json >/dev/null
	kab --db $TMP/prof.db compare base head >$TMP/p
	cat $TMP/p
	test "$(grep -c "perf-profile.children" $TMP/p)" = 10
	# the ten surest: f29 (30 points) down to f20, as the noise is alike
	grep -q "perf-profile.children.cpu-clock.f29$" $TMP/p
	grep -q "perf-profile.children.cpu-clock.f20$" $TMP/p
	not grep -q "perf-profile.children.cpu-clock.f19$" $TMP/p
	grep -q "^(20 more perf-profile rows changed; the 10 surest are shown: --profile-rows all or --all shows them)$" $TMP/p
	kab --db $TMP/prof.db compare --profile-rows all base head >$TMP/pa
	test "$(grep -c "perf-profile.children" $TMP/pa)" = 30
	kab --db $TMP/prof.db compare --profile-rows 3 base head >$TMP/p3
	test "$(grep -c "perf-profile.children" $TMP/p3)" = 3
	# the surest one alone
	kab --db $TMP/prof.db compare --profile-rows 1 base head >$TMP/p1
	test "$(grep -c "perf-profile.children" $TMP/p1)" = 1
	grep -q "perf-profile.children.cpu-clock.f29$" $TMP/p1
	expect_error 2 "--profile-rows .x." -- "$KAB" --db $TMP/prof.db compare --profile-rows x base head
	# kab show: the KPI on the first line of the table, the profile counted
	kab --db $TMP/prof.db show head >$TMP/s
	sed -n 3p $TMP/s | grep -q " will-it-scale.per_process_ops$"
	grep -q "^(and 40 perf-profile rows: --metric .perf-profile.\*. shows them)$" $TMP/s
	not grep -q "perf-profile.children" $TMP/s
	kab --db $TMP/prof.db show --metric "perf-profile.*" head | grep -q "cpu-clock.f39$"
	id=$(sqlite3 $TMP/prof.db "SELECT min(id) FROM runs WHERE params LIKE '"'"'%malloc1%'"'"'")
	kab --db $TMP/prof.db show $id >$TMP/s1
	grep -A1 "^ *n  *mean" $TMP/s1 | tail -1 | grep -q " will-it-scale.per_process_ops$"
	# a run shown alone counts its profile rows too
	grep -q "^(and 40 perf-profile rows: --metric .perf-profile.\*. shows them)$" $TMP/s1
	not grep -q "perf-profile.children" $TMP/s1
'

test_expect "the KPIs of the tables of one compare are one family" '
	# nr_task=1: the KPI moved 2.5% (p = 0.037 alone); nr_task=2: not
	# at all.  Corrected together (0.074) neither is called.
	python3 -c "
import math
print(\"run,kernel_label,iteration,metric,value\")
for i, (l, x) in enumerate([(\"base\", 0), (\"base\", .01), (\"base\", .02), (\"head\", .025), (\"head\", .035), (\"head\", .045)]):
    print(\"%d,%s,1,will-it-scale.per_process_ops,%.6f\" % (i + 1, l, 1000 * math.exp(x)))
" >$TMP/k1.csv
	python3 -c "
import math
print(\"run,kernel_label,iteration,metric,value\")
for i, (l, x) in enumerate([(\"base\", 0), (\"base\", .01), (\"base\", .02), (\"head\", 0), (\"head\", .01), (\"head\", .02)]):
    print(\"%d,%s,1,will-it-scale.per_process_ops,%.6f\" % (i + 1, l, 1000 * math.exp(x)))
" >$TMP/k2.csv
	J=$TOP/jobs/will-it-scale-malloc1.yaml
	kab --db $TMP/k.db import --format csv --job $J --set nr_task=1 $TMP/k1.csv >/dev/null
	cp $TMP/k.db $TMP/k1.db
	kab --db $TMP/k.db import --format csv --job $J --set nr_task=2 $TMP/k2.csv >/dev/null
	# alone, the moved table calls it
	kab --db $TMP/k1.db compare base head >$TMP/o
	grep -q "^kab noticed a 2.5% improvement of will-it-scale.per_process_ops" $TMP/o
	kab --db $TMP/k.db compare base head >$TMP/o
	cat $TMP/o
	test "$(grep -c "^=====" $TMP/o)" = 2
	not grep -q "kab noticed" $TMP/o
'

test_done
