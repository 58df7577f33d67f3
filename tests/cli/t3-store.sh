#!/bin/bash
# What is stored comes back out: ls, show, CSV and JSON export, and an
# import that round-trips exactly and never duplicates a run.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml

test_expect "kab run says where it stored what" '
	kab run --kernel-label base --runs 2 --set nr_task=1 --set warmup=0 \
		--set testtime=1s $JOB >$TMP/o
	grep -q "^run 1: will-it-scale malloc1 (.*nr_task=1.*): 2 iterations, stored in $KAB_DB" $TMP/o
	grep -q "will-it-scale.per_process_ops" $TMP/o
'

test_expect "kab ls lists the run with its kernel, status, iterations and clock" '
	kab ls >$TMP/ls
	cat $TMP/ls
	grep -Eq "^ +1 +[0-9T:-]+Z +base +ok +2/2 +wall +malloc1 +bind=core mode=process nr_task=1" $TMP/ls
'

test_expect "kab show prints n, mean and stddev that match the samples" '
	kab show 1 >$TMP/show
	grep -q "kernel: *base" $TMP/show
	grep -q "job: *will-it-scale-malloc1: .*nr_task=1" $TMP/show
	read -r n mean sd _ < <(grep " will-it-scale.workload$" $TMP/show)
	test "$n" = 2
	read -r a b < <(sql "SELECT group_concat(value, \" \") FROM samples WHERE run_id = 1 AND metric = '"'"'will-it-scale.workload'"'"'")
	# shown rounded: to a whole number, or to two places below 100
	check "($mean - ($a + $b) / 2)^2 <= 0.25"
	# population stddev of two values is half their distance
	check "($sd - ($a > $b ? $a - $b : $b - $a) / 2)^2 < 1"
'

test_expect "CSV export has one row per sample with the documented columns" '
	kab export --format csv 1 >$TMP/x.csv
	head -1 $TMP/x.csv | grep -qx "run,kernel_label,iteration,metric,value,clock,seed"
	test $(($(wc -l <$TMP/x.csv) - 1)) = "$(sql "SELECT count(*) FROM samples WHERE run_id = 1")"
	grep -q "^1,base,2,will-it-scale.per_process_ops,[0-9.e+-]*,wall,$" $TMP/x.csv
'

test_expect "JSON export carries kernel, job parameters and host facts" '
	kab export --format json -o $TMP/x.json
	python3 - $TMP/x.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["runs"][0]
	assert d["kab_export"] == 1
	assert r["kernel"]["label"] == "base"
	assert r["params"]["nr_task"] == "1"
	assert r["host"]["nr_cpus"] >= 1 and r["host"]["cpu_model"]
	assert r["status"] == "ok" and len(r["iterations"]) == 2
	assert "will-it-scale.per_process_ops" in r["iterations"][0]["metrics"]
	# and the profile'"'"'s stacks of each iteration, for flame graphs
	for it in r["iterations"]:
	    s = it["stacks"]
	    assert s["event"] in ("cpu-clock", "cycles-pp", "cycles"), s["event"]
	    assert s["stacks"] and all(1 <= n <= s["total"] for n in s["stacks"].values())
	PY
	test "$(sql "SELECT count(*) FROM stacks WHERE run_id = 1")" = \
		"$(python3 -c "import json; print(sum(len(i[\"stacks\"][\"stacks\"]) for i in json.load(open(\"$TMP/x.json\"))[\"runs\"][0][\"iterations\"]))")"
'

test_expect "import into another database round-trips exactly" '
	KAB_DB=$TMP/copy.db kab import $TMP/x.json >$TMP/pipe
	grep -q "imported 1 run" $TMP/pipe
	KAB_DB=$TMP/copy.db kab export --format json -o $TMP/y.json
	cmp $TMP/x.json $TMP/y.json
	KAB_DB=$TMP/copy.db kab export --format csv >$TMP/y.csv
	kab export --format csv >$TMP/x.csv
	cmp $TMP/x.csv $TMP/y.csv
	q="SELECT iteration, event, stack, samples, total FROM stacks ORDER BY 1, 3"
	sqlite3 $TMP/copy.db "$q" >$TMP/y.stacks
	sql "$q" >$TMP/x.stacks
	test -s $TMP/x.stacks
	cmp $TMP/x.stacks $TMP/y.stacks
'

test_expect "importing the same runs again adds nothing" '
	KAB_DB=$TMP/copy.db kab import $TMP/x.json >$TMP/pipe
	grep -q "imported 0 runs .*(1 already there, skipped)" $TMP/pipe
	test "$(sqlite3 $TMP/copy.db "SELECT count(*) FROM runs")" = 1
'

test_expect "a bad import file is refused and nothing already stored is lost" '
	before=$(sql "SELECT count(*) FROM samples")
	echo "{ not json" >$TMP/bad.json
	expect_error 2 "not JSON" -- "$KAB" import $TMP/bad.json
	echo "{\"runs\": []}" >$TMP/bad.json
	expect_error 2 "not a kab export" -- "$KAB" import $TMP/bad.json
	python3 -c "
import json; d = json.load(open(\"$TMP/x.json\"))
d[\"runs\"][0][\"uuid\"] = \"00000000-0000-4000-8000-000000000000\"
d[\"runs\"][0][\"iterations\"][1][\"metrics\"][\"evil name\"] = 1
json.dump(d, open(\"$TMP/bad.json\", \"w\"))"
	expect_error 1 "bad sample" -- "$KAB" import $TMP/bad.json
	# a stack that is not frames, or counts more than its samples
	python3 - $TMP/x.json $TMP/bad.json $TMP/bad2.json <<-PY
	import json, sys
	for path, key, n in ((sys.argv[2], "main;evil frame\n", 1),
	                     (sys.argv[3], "main;f", 10**9)):
	    d = json.load(open(sys.argv[1]))
	    d["runs"][0]["uuid"] = "00000000-0000-4000-8000-000000000000"
	    d["runs"][0]["iterations"][1]["stacks"]["stacks"][key] = n
	    json.dump(d, open(path, "w"))
	PY
	expect_error 1 "bad profile stack .main;evil frame?." -- \
		"$KAB" import $TMP/bad.json
	expect_error 1 "bad profile stack .main;f. (frames of symbol names, a count within the total)" -- \
		"$KAB" import $TMP/bad2.json
	# a failed import never says "imported" on stdout
	"$KAB" import $TMP/bad.json >$TMP/o 2>/dev/null || true
	test ! -s $TMP/o
	expect_error 2 "^kab: cannot read $TMP/none.json: No such file" -- \
		"$KAB" import $TMP/none.json
	# and no database made for it
	expect_error 2 "^kab: cannot read $TMP/none.json: No such file" -- \
		"$KAB" --db $TMP/fresh.db import $TMP/none.json
	test ! -e $TMP/fresh.db
	test "$(sql "SELECT count(*) FROM samples")" = "$before"
	test "$(sql "SELECT count(*) FROM runs")" = 1
	test "$(sql "SELECT count(DISTINCT run_id) FROM stacks")" = 1
	# files taken in order, each run whole: what came before stays, said
	expect_error 1 "^kab: note: 1 run imported into $TMP/part.db before that error stay\$" -- \
		"$KAB" --db $TMP/part.db import $TMP/x.json $TMP/bad.json
	test "$(sqlite3 $TMP/part.db "SELECT count(*) FROM runs")" = 1
	expect_error 2 "^kab: --format .yaml.: use json, csv or lkp\$" -- \
		"$KAB" --db $TMP/part.db import --format yaml $TMP/x.json
'

test_expect "CSV samples from anywhere import as runs, once, checked whole" '
	kab export --format csv >$TMP/x.csv
	KAB_DB=$TMP/csv.db kab import --format csv $TMP/x.csv >$TMP/o
	grep -qx "imported 1 run into $TMP/csv.db" $TMP/o
	# the same samples, run and iteration for run and iteration
	KAB_DB=$TMP/csv.db kab export --format csv >$TMP/y.csv
	sed 1d $TMP/x.csv | cut -d, -f2- >$TMP/x.rows
	sed 1d $TMP/y.csv | cut -d, -f2- >$TMP/y.rows
	cmp $TMP/x.rows $TMP/y.rows
	test "$(sqlite3 $TMP/csv.db "SELECT job || suite || test FROM runs")" = csvcsvcsv
	# the same file again adds nothing; a job names what they are of
	KAB_DB=$TMP/csv.db kab import --format csv $TMP/x.csv >$TMP/o
	grep -q "imported 0 runs .*(1 already there, skipped)" $TMP/o
	KAB_DB=$TMP/csv2.db kab import --format csv --set nr_task=1 \
		--job $TOP/jobs/will-it-scale-malloc1.yaml - <$TMP/x.csv >$TMP/o
	test "$(sqlite3 $TMP/csv2.db "SELECT suite || test || json_extract(params, '"'"'$.nr_task'"'"') FROM runs")" = will-it-scalemalloc11
	# damaged input: the file and line named, nothing stored
	printf "run,label\n" >$TMP/bad.csv
	expect_error 2 "bad.csv:1: not kab.s CSV: the first line must be run,kernel_label,iteration,metric,value" -- \
		"$KAB" --db $TMP/csv3.db import --format csv $TMP/bad.csv
	for row in "1,a,1,m.x,1e308:value .1e308. is not a finite number" \
		   "1,a,0,m.x,1:iteration .0. is not a number" \
		   "1,a,1,evil name,1:metric .evil name. is not a metric name" \
		   "1,b,2,m.y,1:kernel label .b. is the run.s second" \
		   "1,a,1,m.x,2:run 1, iteration 1: m.x is given twice" \
		   "2,\"open,1,m.x,1:a quoted field is not closed"; do
		{ echo "run,kernel_label,iteration,metric,value"
		  echo "1,a,1,m.x,1"; echo "${row%%:*}"; } >$TMP/bad.csv
		expect_error 2 "bad.csv:3: ${row#*:}.*: fix that line" -- \
			"$KAB" --db $TMP/csv3.db import --format csv $TMP/bad.csv
	done
	# the seven columns: a clock and a seed a run, each checked
	for row in "1,a,2,m.x,1,icount:7,5|run 1: a second clock or seed" \
		   "1,a,2,m.x,1,wall,5|run 1: a second clock or seed" \
		   "2,b,1,m.x,1,sundial,|clock .sundial. is not wall or icount:N" \
		   "2,b,1,m.x,1,wall,0|seed .0. is not a layout seed" \
		   "2,b,1,m.x,1,wall|6 fields, not 7"; do
		{ echo "run,kernel_label,iteration,metric,value,clock,seed"
		  echo "1,a,1,m.x,1,wall,"; echo "${row%%|*}"; } >$TMP/bad.csv
		expect_error 2 "bad.csv:3: ${row#*|}.*: fix that line" -- \
			"$KAB" --db $TMP/csv3.db import --format csv $TMP/bad.csv
	done
	test "$(sqlite3 $TMP/csv3.db "SELECT count(*) FROM runs")" = 0
	expect_error 2 "add --format csv" -- "$KAB" import --set a=b $TMP/x.csv
'

test_expect "CSV keeps a run's clock and layout seed through export and import" '
	id=$(sql "SELECT min(id) FROM runs")
	sqlite3 $KAB_DB "UPDATE runs SET clock = \"icount:7\", seed = 42 WHERE id = $id"
	kab export --format csv >$TMP/clk.csv
	sqlite3 $KAB_DB "UPDATE runs SET clock = \"wall\", seed = NULL WHERE id = $id"
	grep -q "^$id,[^,]*,1,will-it-scale.per_process_ops,[0-9.e+-]*,icount:7,42$" $TMP/clk.csv
	kab --db $TMP/clk.db import --format csv $TMP/clk.csv >/dev/null
	test "$(sqlite3 $TMP/clk.db "SELECT clock || \"/\" || ifnull(seed, \"-\") FROM runs ORDER BY id LIMIT 1")" = "icount:7/42"
	test "$(sqlite3 $TMP/clk.db "SELECT count(*) FROM runs WHERE clock = \"wall\" AND seed IS NULL")" = "$(($(sql "SELECT count(*) FROM runs") - 1))"
	# the five columns of elsewhere: the wall clock, no seed
	cut -d, -f1-5 $TMP/clk.csv >$TMP/clk5.csv
	kab --db $TMP/clk5.db import --format csv $TMP/clk5.csv >/dev/null
	test "$(sqlite3 $TMP/clk5.db "SELECT DISTINCT clock || \"/\" || ifnull(seed, \"-\") FROM runs")" = "wall/-"
'

test_expect "CSV import: RFC 4180's corners" '
	# CRLF line ends, a quoted label with a comma and a doubled quote,
	# an empty line, a quoted number, no line end after the last record
	printf "run,kernel_label,iteration,metric,value\r\n1,\"v6.1, \"\"rc\"\"\",1,m.x,1\r\n\r\n1,\"v6.1, \"\"rc\"\"\",2,m.x,\"3\"\r\n2,b,1,m.x,5" >$TMP/rfc.csv
	kab --db $TMP/rfc.db import --format csv $TMP/rfc.csv >$TMP/o
	grep -qx "imported 2 runs into $TMP/rfc.db" $TMP/o
	test "$(sqlite3 $TMP/rfc.db "SELECT group_concat(x, '"'"';'"'"') FROM (SELECT k.label || '"'"'='"'"' || s.value AS x FROM samples s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id ORDER BY s.run_id, s.iteration)")" = "v6.1, \"rc\"=1.0;v6.1, \"rc\"=3.0;b=5.0"
	# a quote inside an unquoted field, text after a closing quote
	printf "run,kernel_label,iteration,metric,value\n1,\"a\"x,1,m.x,1\n" >$TMP/rfc2.csv
	expect_error 2 "rfc2.csv:2: text after a quoted field" -- \
		"$KAB" --db $TMP/rfc2.db import --format csv $TMP/rfc2.csv
'

test_expect "a failed run keeps its status and message through export and import" '
	python3 - $TMP/x.json $TMP/failed.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["runs"][0]
	r["uuid"] = "00000000-0000-4000-8000-000000000777"
	r["status"] = "failed"
	r["message"] = "stress-ng was killed by signal 11 (Segmentation fault)"
	d["runs"] = [r]
	json.dump(d, open(sys.argv[2], "w"))
	PY
	KAB_DB=$TMP/f1.db kab import $TMP/failed.json >/dev/null
	KAB_DB=$TMP/f1.db kab export --format json -o $TMP/f1.json
	KAB_DB=$TMP/f2.db kab import $TMP/f1.json >/dev/null
	KAB_DB=$TMP/f2.db kab export --format json -o $TMP/f2.json
	python3 - $TMP/f1.json $TMP/f2.json <<-PY
	import json, sys
	for path in sys.argv[1:]:
	    r = json.load(open(path))["runs"][0]
	    assert r["status"] == "failed", (path, r["status"])
	    assert r["message"] == "stress-ng was killed by signal 11 (Segmentation fault)", (path, r["message"])
	PY
	KAB_DB=$TMP/f2.db kab show 1 >$TMP/fshow
	grep -q "message: *stress-ng was killed by signal 11" $TMP/fshow
'

test_expect "a kernel label pools its ok runs, never interrupted or running ones" '
	python3 - $TMP/x.json $TMP/broken.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	runs = []
	for i, status in enumerate(["interrupted", "failed", "ok"]):
	    r = json.loads(json.dumps(d["runs"][0]))
	    r["uuid"] = "00000000-0000-4000-8000-%012d" % (100 + i)
	    r["status"] = status
	    for it in r["iterations"]:
	        it["metrics"]["will-it-scale.per_process_ops"] = 1e9
	    runs.append(r)
	d["runs"] = runs
	json.dump(d, open(sys.argv[2], "w"))
	PY
	kab import $TMP/broken.json >/dev/null
	# the third is ok by its status; the test makes it "running" (a
	# kab still measuring it, or one that died without saying)
	id=$(sql "SELECT max(id) FROM runs")
	sql "UPDATE runs SET status = '"'"'running'"'"' WHERE id = $id"
	kab show --metric will-it-scale.per_process_ops base >$TMP/pool
	cat $TMP/pool
	# run 1 alone: 2 iterations, none of the 1e9 values
	grep -Eq "^ +2 .* will-it-scale.per_process_ops$" $TMP/pool
	not grep -q "1000000000\|1e+09" $TMP/pool
	# compare pools the same: base is run 1 alone, so it is refused as
	# the same runs as 1
	expect_error 2 "^kab: .1. and .base. are the same runs" -- "$KAB" compare --all 1 base
'

test_expect "CSV fields with quotes or commas read back as they were" '
	for label in "\"quoted\" label" "one, two"; do
		kab run --kernel-label "$label" --runs 1 --set nr_task=1 \
			--set warmup=0 --set testtime=1s $JOB >/dev/null
	done
	id=$(sql "SELECT max(id) FROM runs")
	kab export --format csv $((id - 1)) $id >$TMP/q.csv
	kab compare --format csv --all $((id - 1)) $id >$TMP/qc.csv
	# RFC 4180: a field with a quote is quoted, its quotes doubled
	grep -q "^$((id - 1)),\"\"\"quoted\"\" label\",1," $TMP/q.csv
	python3 - $TMP/q.csv $TMP/qc.csv <<-PY
	import csv, sys
	quoted, comma = "\"quoted\" label", "one, two"
	rows = list(csv.DictReader(open(sys.argv[1], newline="")))
	assert all(len(r) == 7 for r in rows), rows[:2]
	assert {r["kernel_label"] for r in rows} == {quoted, comma}, rows[:2]
	rows = list(csv.DictReader(open(sys.argv[2], newline="")))
	assert rows and all(len(r) == 20 and r["base"] == quoted and r["head"] == comma
	                    for r in rows), rows[:2]
	PY
'

test_expect "kab run --repeat: runs of each job interleaved, enough for a verdict here" '
	Q="--runs 2 --set nr_task=1 --set warmup=0 --set testtime=1s --monitors none"
	kab --db $TMP/rep.db run --repeat 2 --kernel-label one $Q $JOB $TOP/jobs/stress-ng-radixsort.yaml >$TMP/o
	cat $TMP/o
	grep -q "^turn 4/4 one: run 4 ok, 2 iterations$" $TMP/o
	grep -q "^4 of 4 runs ok, labelled one: with another kernel.s runs, .kab compare one OTHER. decides$" $TMP/o
	# interleaved: malloc1, radixsort, malloc1, radixsort
	test "$(sqlite3 $TMP/rep.db "SELECT group_concat(json_extract(params, \"\$.test\"), \" \") FROM (SELECT params FROM runs ORDER BY id)")" = "malloc1 radixsort malloc1 radixsort"
	# one run (--repeat 1, the default) is no repetition to sum up
	kab --db $TMP/rep1.db run --repeat 1 --kernel-label one $Q $JOB >$TMP/o1
	grep -q "^run 1: will-it-scale malloc1 .*stored in $TMP/rep1.db$" $TMP/o1
	not grep -q "runs ok, labelled" $TMP/o1
	kab --db $TMP/rep.db run --repeat 2 --kernel-label two $Q $JOB >/dev/null
	kab --db $TMP/rep.db compare two one >$TMP/c
	cat $TMP/c
	# two runs a side: tested (a verdict or its plan), never "no verdict"
	not grep -q "fewer than 2" $TMP/c
	grep -q "will-it-scale.per_process_ops" $TMP/c
	# one run a side: the note names the command that works here
	kab --db $TMP/rep.db compare 1 5 >$TMP/c1
	grep -q "measure more (kab run --repeat 3 on each kernel)" $TMP/c1
	kab --db $TMP/rep.db plan --detect 5 1 >$TMP/p1 2>&1 || true
	grep -q "(kab run --repeat 2 --runs 2 on each kernel)" $TMP/p1
	expect_error 2 "--repeat .0.: give a number of runs" -- "$KAB" run --repeat 0 $JOB
'

test_expect "a layout seed goes through show, export, import and merge, checked" '
	fresh=$TMP/seed.db
	KAB_DB=$fresh kab run --kernel-label seeded --runs 1 --set nr_task=1 \
		--set warmup=0 --set testtime=1s $JOB >/dev/null
	sqlite3 $fresh "UPDATE runs SET seed = 4294967295"
	KAB_DB=$fresh kab show 1 >$TMP/o
	grep -q "^  layout: *seed 4294967295 " $TMP/o
	# and in the JSON of ls and show, where a run without one has none
	for c in "ls" "show 1"; do
		# shellcheck disable=SC2086
		KAB_DB=$fresh kab $c --format json >$TMP/j
		python3 -c "import json; d = json.load(open(\"$TMP/j\")); r = d[\"runs\"][0] if \"runs\" in d else d[\"items\"][0][\"run\"]; assert r[\"seed\"] == 4294967295, d"
	done
	KAB_DB=$TMP/noseed.db kab run --kernel-label plain --runs 1 --set nr_task=1 \
		--set warmup=0 --set testtime=1s $JOB >/dev/null
	KAB_DB=$TMP/noseed.db kab ls --format json | python3 -c "import json, sys; assert \"seed\" not in json.load(sys.stdin)[\"runs\"][0]"
	KAB_DB=$fresh kab export --format json -o $TMP/s.json
	python3 -c "import json; assert json.load(open(\"$TMP/s.json\"))[\"runs\"][0][\"seed\"] == 4294967295"
	KAB_DB=$TMP/seed2.db kab import $TMP/s.json >/dev/null
	test "$(sqlite3 $TMP/seed2.db "SELECT seed FROM runs")" = 4294967295
	kab merge $TMP/seed3.db $fresh >/dev/null
	test "$(sqlite3 $TMP/seed3.db "SELECT seed FROM runs")" = 4294967295
	# a seed kab never writes is refused where it enters
	for bad in 0 -3 4294967296 "\"7\"" 1.5; do
		python3 - $TMP/s.json $TMP/bad.json "$bad" <<-PY
		import json, sys
		d = json.load(open(sys.argv[1]))
		d["runs"][0]["uuid"] = "00000000-0000-4000-8000-00000000000a"
		d["runs"][0]["seed"] = json.loads(sys.argv[3])
		json.dump(d, open(sys.argv[2], "w"))
		PY
		expect_error 1 "run #1 has a layout seed that is not a whole number from 1 to 4294967295" -- \
			"$KAB" --db $TMP/seed2.db import $TMP/bad.json
	done
	test "$(sqlite3 $TMP/seed2.db "SELECT count(*) FROM runs")" = 1
	# and the smallest is one
	python3 - $TMP/s.json $TMP/one.json <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	d["runs"][0]["uuid"] = "00000000-0000-4000-8000-00000000000b"
	d["runs"][0]["seed"] = 1
	json.dump(d, open(sys.argv[2], "w"))
	PY
	KAB_DB=$TMP/seed2.db kab import $TMP/one.json >/dev/null
	test "$(sqlite3 $TMP/seed2.db "SELECT group_concat(seed) FROM runs")" = 4294967295,1
	# the database itself refuses one
	not sqlite3 $fresh "UPDATE runs SET seed = 0"
	not sqlite3 $fresh "UPDATE runs SET seed = '"'"'abc'"'"'"
	expect_error 2 "--layout-seed .0.: give a whole number from 1 to 4294967295" -- \
		"$KAB" run --layout-seed 0 $JOB
	expect_error 2 "--layout-seed 4294967295: 2 boots take seeds past 4294967295" -- \
		"$KAB" run --layout-seed 4294967295 --repeat 2 $JOB
'

test_done
