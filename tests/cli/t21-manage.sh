#!/bin/bash
# Living with a database: kab rm and kab relabel (whole transactions,
# nothing lost on an error), kab ls's filters, its layout with long
# labels, and its JSON.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3

# runs 1-3 base, 4-6 align, 7-9 fix (5 iterations each)
test_expect "a seed-like database imports" '
	$PY $FIXTURES/make-seedlike-export.py >$TMP/seed.json
	kab import $TMP/seed.json >$TMP/pipe
	grep -q "imported 9 runs" $TMP/pipe
	# a boot with its console for run 9, as kab ab stores one
	sql "INSERT INTO boots (run_id, kernel_label, outcome, console, console_bytes, started_at) VALUES (9, '"'"'fix'"'"', '"'"'ok'"'"', x'"'"'00'"'"', 1, '"'"'2026-12-01T00:00:00Z'"'"')"
	sql "INSERT INTO boots (run_id, kernel_label, outcome, console, console_bytes, started_at) VALUES (4, '"'"'align'"'"', '"'"'ok'"'"', x'"'"'00'"'"', 1, '"'"'2026-12-01T00:00:00Z'"'"')"
	cp $KAB_DB $TMP/before.db
'

test_expect "kab rm with a run that is not there removes nothing, exit 2" '
	expect_error 2 "run 99 is not there.*nothing was removed" -- kab rm 8 99
	test "$(sql "SELECT count(*) FROM runs")" = 9
	expect_error 2 "no run has kernel label .nosuch." -- kab rm --label nosuch
	expect_error 2 "not a run id" -- kab rm 8,x
	expect_error 2 "which runs" -- kab rm
	expect_error 2 "no database" -- kab --db $TMP/none.db rm 1
	test ! -e $TMP/none.db
'

test_expect "kab rm --dry-run says what would go and keeps it" '
	kab rm --dry-run --label fix >$TMP/o
	grep -qx "would remove 3 runs (7,8,9) from $KAB_DB" $TMP/o
	test "$(sql "SELECT count(*) FROM runs")" = 9
'

test_expect "kab rm takes runs with their samples, stacks, boots and consoles, and their kernel when no run is left" '
	kab rm 8,9 >$TMP/o
	grep -q "^removed 2 runs (8,9) with their samples" $TMP/o
	test "$(sql "SELECT count(*) FROM runs WHERE id IN (8, 9)")" = 0
	test "$(sql "SELECT count(*) FROM samples WHERE run_id IN (8, 9)")" = 0
	test "$(sql "SELECT count(*) FROM stacks WHERE run_id IN (8, 9)")" = 0
	test "$(sql "SELECT count(*) FROM boots WHERE kernel_label = '"'"'fix'"'"' OR run_id IS NULL")" = 0
	test "$(sql "SELECT count(*) FROM boots")" = 1
	# the rest untouched
	test "$(sql "SELECT count(*) FROM samples")" = "$(sqlite3 $TMP/before.db "SELECT count(*) FROM samples WHERE run_id < 8")"
	kab rm --label fix >$TMP/o
	test "$(sql "SELECT count(*) FROM kernels WHERE label = '"'"'fix'"'"'")" = 0
	sql "PRAGMA integrity_check" >$TMP/pipe
	grep -qx ok $TMP/pipe
'

test_expect "kab relabel renames a label, or moves runs into another, boots too" '
	kab compare --format csv base align >$TMP/before
	kab relabel align head >$TMP/o
	grep -qx "3 runs (4,5,6) now labelled '"'"'head'"'"'" $TMP/o
	test "$(sql "SELECT kernel_label FROM boots WHERE run_id = 4")" = head
	kab compare --format csv base head >$TMP/after
	# the same rows under the new name
	diff <(sed "s/align/head/g" $TMP/before) $TMP/after
	expect_error 2 "neither a run id nor the label" -- kab compare base align
	kab relabel --run 6 base >$TMP/o
	grep -qx "1 run (6) now labelled '"'"'base'"'"'" $TMP/o
	test "$(sql "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label = '"'"'base'"'"'")" = 4
	expect_error 2 "cannot be a label" -- kab relabel head 12
	expect_error 2 "cannot be a label" -- kab relabel head "a,b"
	expect_error 2 "cannot be a label" -- kab relabel head "$(printf "x\033[2J")"
	expect_error 2 "run 77 is not there.*nothing was changed" -- kab relabel --run 4,77 other
	test "$(sql "SELECT count(*) FROM kernels WHERE label = '"'"'other'"'"'")" = 0
'

test_expect "kab rm and relabel refuse a run that is still running, and take it once it ended" '
	db=$TMP/live.db
	"$KAB" --db $db run --runs 50 --set nr_task=1 --set warmup=0 \
		--set testtime=1s $TOP/jobs/will-it-scale-malloc1.yaml \
		>$TMP/live.out 2>&1 &
	pid=$!
	for i in $(seq 1 300); do
		n=$(sqlite3 $db "SELECT count(*) FROM samples" 2>/dev/null || echo 0)
		[ "${n:-0}" -gt 0 ] && break
		sleep 0.1
	done
	id=$(sqlite3 $db "SELECT max(id) FROM runs")
	test "$(sqlite3 $db "SELECT status FROM runs WHERE id = $id")" = running
	expect_error 1 "run $id is still running: let it end or stop it first" -- \
		"$KAB" --db $db rm $id
	expect_error 1 "run $id is still running" -- \
		"$KAB" --db $db relabel --run $id other
	test "$(sqlite3 $db "SELECT count(*) FROM runs WHERE id = $id")" = 1
	# its kernel has no complete run yet, and is told so
	label=$(sqlite3 $db "SELECT k.label FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE r.id = $id")
	expect_error 2 "no run of .$label. completed yet (1 still running, 0 failed or interrupted)" -- \
		"$KAB" --db $db compare "$label" nosuch
	kill -INT $pid
	wait $pid || true
	test "$(sqlite3 $db "SELECT status FROM runs WHERE id = $id")" = interrupted
	"$KAB" --db $db relabel --run $id other >$TMP/o
	"$KAB" --db $db rm $id >$TMP/o
	test "$(sqlite3 $db "SELECT count(*) FROM runs")" = 0
'

test_expect "kab ls filters by label, job, status and start, and says when nothing matches" '
	kab ls --label head >$TMP/o
	test "$(grep -c "^ *[0-9]" $TMP/o)" = 2
	kab ls --label "h*" --status ok --job "will-it-scale-*" >$TMP/o
	test "$(grep -c "^ *[0-9]" $TMP/o)" = 2
	kab ls --status failed >$TMP/o
	grep -q "^no run in .* matches" $TMP/o
	kab ls --since 2000-01-01 >$TMP/o
	test "$(grep -c "^ *[0-9]" $TMP/o)" = 6
	kab ls --since 2999-01-01T00:00 >$TMP/o
	grep -q "^no run in .* matches" $TMP/o
	kab ls --since 1000000d >$TMP/o
	test "$(grep -c "^ *[0-9]" $TMP/o)" = 6
	# an age before 1970 is since 1970, not an overflow
	kab ls --since 99999999999999999d >$TMP/o
	test "$(grep -c "^ *[0-9]" $TMP/o)" = 6
	# a run that started exactly at WHEN is "at or after" it
	last=$(sql "SELECT max(started_at) FROM runs")
	kab ls --since "$last" >$TMP/o
	test "$(grep -c "^ *[0-9]" $TMP/o)" -ge 1
	after=$(date -u -d "@$(( $(date -u -d "$last" +%s) + 1 ))" +%Y-%m-%dT%H:%M:%SZ)
	kab ls --since "$after" >$TMP/o
	grep -q "^no run in .* matches" $TMP/o
	expect_error 2 "since .yesterday." -- kab ls --since yesterday
	expect_error 2 "status .done." -- kab ls --status done
	expect_error 2 "2026-13-01" -- kab ls --since 2026-13-01
'

test_expect "kab ls keeps its columns with a long label" '
	kab relabel head "a-kernel-label-of-sixty-characters-built-from-the-rc1-tree-x" >/dev/null
	kab ls >$TMP/o
	cat $TMP/o
	# STATUS starts in the same column on every line
	awk "{ print index(\$0, \"STATUS\") ? index(\$0, \"STATUS\") : index(\$0, \" ok \") + 1 }" $TMP/o | sort -u >$TMP/cols
	test "$(wc -l <$TMP/cols)" = 1
'

test_expect "kab ls --format json: a schema, every run, strings escaped" '
	kab ls --format json >$TMP/j
	$PY - $TMP/j <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["schema"] == "kab.ls/1", d["schema"]
	assert len(d["runs"]) == 6, len(d["runs"])
	r = d["runs"][0]
	for k in ("id", "uuid", "kernel_label", "job", "suite", "test",
	          "target", "params", "status", "iterations",
	          "iterations_planned", "started_at"):
	    assert k in r, k
	assert r["status"] == "ok" and r["iterations"] == 5
	PY
	expect_error 2 "text or json" -- kab ls --format yaml
'

test_expect "sides that share no parameter set: the parameters that differ are named, --ignore-param compares them" '
	kab relabel "a-kernel-label-of-sixty-characters-built-from-the-rc1-tree-x" head >/dev/null
	sql "UPDATE runs SET params = json_set(params, '"'"'\$.nr_task'"'"', '"'"'1'"'"') WHERE id IN (4, 5)"
	expect_error 2 "share no parameter set: they differ in nr_task (base: 100%, head: 1); --ignore-param nr_task compares them anyway" -- \
		kab compare base head
	expect_error 2 "differ in nr_task" -- kab report base head
	expect_error 2 "differ in nr_task" -- kab ci gate base head
	kab compare --ignore-param nr_task base head >$TMP/o
	grep -q "will-it-scale.per_process_ops" $TMP/o
	# the table is of the parameters both ran, nr_task not among them
	not grep -q "nr_task" $TMP/o
	kab report --ignore-param nr_task base head >$TMP/o
	kab ci gate --ignore-param nr_task base head >$TMP/o || test $? = 1
	expect_error 2 "ignore-param .a b." -- kab compare --ignore-param "a b" base head
'

test_expect "a parameter set one side did not run is skipped, with a note on stderr" '
	sql "UPDATE runs SET params = json_set(params, '"'"'\$.nr_task'"'"', '"'"'1'"'"') WHERE id = 1"
	kab compare base head >$TMP/o 2>$TMP/e
	grep -q "will-it-scale.per_process_ops" $TMP/o
	grep -q "^kab: note: .*nr_task=100%.*: no run of these parameters on every side, skipped$" $TMP/e
	not grep -q "skipped" $TMP/o
	kab report base head >$TMP/o 2>$TMP/e
	grep -q "no run of these parameters on every side, skipped" $TMP/e
'

test_expect "the completion helper offers the newest runs' metrics, job parameters, monitors and formats" '
	# 22 runs: each has m.common and its own m.only<k>; the newest has
	# 5000 more names, twice over (a compaction of the words), and a
	# profile row (never offered)
	$PY -c "
import json
runs = []
for k in range(1, 23):
    its = []
    for i in (1, 2):
        m = {\"m.common\": 1.0, \"m.only%02d\" % k: 2.0, \"perf-profile.self.x\": 3.0}
        if k == 22:
            for j in range(5000):
                m[\"w.%05d\" % (4999 - j)] = 1.0
        its.append({\"iteration\": i, \"metrics\": m})
    runs.append({\"uuid\": \"00000000-0000-4000-8000-%012d\" % k,
                 \"kernel\": {\"label\": \"L%02d\" % (k % 3), \"release\": \"r\", \"cmdline\": \"\",
                            \"image_path\": None, \"image_sha256\": None, \"commit\": None},
                 \"job\": \"j\", \"suite\": \"will-it-scale\", \"test\": \"malloc1\",
                 \"params\": {\"test\": \"malloc1\"}, \"resolved\": {}, \"target\": \"local\",
                 \"host\": {}, \"iterations_planned\": 2, \"started_at\": \"2026-12-02T00:00:00Z\",
                 \"ended_at\": None, \"status\": \"ok\", \"message\": None,
                 \"garbage_bytes\": 0, \"bad_records\": 0, \"iterations\": its})
print(json.dumps({\"kab_export\": 1, \"runs\": runs}))" >$TMP/many.json
	kab --db $TMP/many.db import $TMP/many.json >/dev/null
	kab --db $TMP/many.db --completion-helper metrics >$TMP/c
	# runs 3-22: m.only03..m.only22, m.common, w.00000..w.04999, sorted, once
	test "$(wc -l <$TMP/c)" = $((20 + 1 + 5000))
	sort -c $TMP/c
	test "$(sort -u $TMP/c | wc -l)" = $((20 + 1 + 5000))
	grep -qx m.common $TMP/c
	grep -qx m.only03 $TMP/c
	grep -qx m.only22 $TMP/c
	not grep -q "^m.only0[12]$" $TMP/c
	grep -qx w.00000 $TMP/c
	grep -qx w.04999 $TMP/c
	not grep -q perf-profile $TMP/c
	# a name longer than a metric may be (a database written by hand)
	# is not offered; one as long as may be is
	m200=$(head -c 198 /dev/zero | tr "\0" x)
	sqlite3 $TMP/many.db "INSERT INTO samples VALUES (22, 1, \"m.$m200\", 1), (22, 1, \"m.${m200}y\", 1)"
	kab --db $TMP/many.db --completion-helper metrics >$TMP/c
	grep -qx "m.$m200" $TMP/c
	not grep -q "m.${m200}y" $TMP/c
	# labels and runs: each once, sorted
	kab --db $TMP/many.db --completion-helper labels >$TMP/c
	printf "L00\nL01\nL02\n" | diff - $TMP/c
	kab --db $TMP/many.db --completion-helper runs >$TMP/c
	test "$(wc -l <$TMP/c)" = 22
	# no database: nothing, quietly
	kab --db $TMP/none.db --completion-helper metrics >$TMP/c 2>&1
	test ! -s $TMP/c
	test ! -e $TMP/none.db
	# the parameters of the jobs kab finds, as KEY=, sorted, once
	kab --completion-helper params >$TMP/c
	grep -qx "nr_task=" $TMP/c
	grep -qx "testtime=" $TMP/c
	# each job'"'"'s: stress-ng'"'"'s threads as well as will-it-scale'"'"'s tasks
	grep -qx "nr_threads=" $TMP/c
	sort -c $TMP/c
	test "$(sort -u $TMP/c | wc -l)" = "$(wc -l <$TMP/c)"
	# monitors: all, none, then each
	kab --completion-helper monitors >$TMP/c
	test "$(head -2 $TMP/c | tr "\n" " ")" = "all none "
	grep -qx perf-profile $TMP/c
	grep -qx proc-vmstat $TMP/c
	# a command'"'"'s formats, in its own order; none for one without
	test "$(kab --completion-helper formats compare | tr "\n" " ")" = "text lkp json csv markdown "
	test "$(kab --completion-helper formats import | tr "\n" " ")" = "json csv lkp "
	kab --completion-helper formats rm >$TMP/c
	test ! -s $TMP/c
	expect_error 2 "completion-helper .nosuch.: commands, jobs" -- kab --completion-helper nosuch
'

test_done
