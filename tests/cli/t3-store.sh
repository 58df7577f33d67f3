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

test_expect "kab ls lists the run with its kernel, status and iterations" '
	kab ls >$TMP/ls
	cat $TMP/ls
	grep -Eq "^ +1 +[0-9T:-]+Z +base +ok +2/2 +malloc1 +bind=core mode=process nr_task=1" $TMP/ls
'

test_expect "kab show prints n, mean and stddev that match the samples" '
	kab show 1 >$TMP/show
	grep -q "kernel: *base" $TMP/show
	grep -q "job: *will-it-scale-malloc1: .*nr_task=1" $TMP/show
	read -r n mean sd _ < <(grep " will-it-scale.workload$" $TMP/show)
	test "$n" = 2
	read -r a b < <(sql "SELECT group_concat(value, \" \") FROM samples WHERE run_id = 1 AND metric = '"'"'will-it-scale.workload'"'"'")
	check "$mean == int(($a + $b) / 2 + 0.5) || $mean == int(($a + $b) / 2)"
	# population stddev of two values is half their distance
	check "($sd - ($a > $b ? $a - $b : $b - $a) / 2)^2 < 1"
'

test_expect "CSV export has one row per sample with the documented columns" '
	kab export --format csv 1 >$TMP/x.csv
	head -1 $TMP/x.csv | grep -qx "run,kernel_label,iteration,metric,value"
	test $(($(wc -l <$TMP/x.csv) - 1)) = "$(sql "SELECT count(*) FROM samples WHERE run_id = 1")"
	grep -q "^1,base,2,will-it-scale.per_process_ops,[0-9]" $TMP/x.csv
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
	PY
'

test_expect "import into another database round-trips exactly" '
	KAB_DB=$TMP/copy.db kab import $TMP/x.json >$TMP/pipe
	grep -q "imported 1 run" $TMP/pipe
	KAB_DB=$TMP/copy.db kab export --format json -o $TMP/y.json
	cmp $TMP/x.json $TMP/y.json
	KAB_DB=$TMP/copy.db kab export --format csv >$TMP/y.csv
	kab export --format csv >$TMP/x.csv
	cmp $TMP/x.csv $TMP/y.csv
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
	test "$(sql "SELECT count(*) FROM samples")" = "$before"
	test "$(sql "SELECT count(*) FROM runs")" = 1
'

test_done
