#!/bin/bash
# Strings and numbers from outside kab (a guest, an imported file, a
# merged database) are validated where they enter and escaped by every
# writer: shell, mail headers, markdown, terminal.  A stand-in agent
# (tests/cli/hostile-agent, named as such) sends each attack through
# the real local target; imports and damaged databases do the rest.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
HOSTILE=$TOP/tests/cli/hostile-agent
RUN="run --runs 2 --monitors none $JOB"
ESC=$(printf '\033')

# Process PID exists and is not a zombie (a killed kab's children are
# reaped by init, in its own time).
alive() {
	[ -e /proc/$1/stat ] &&
		[ "$(awk "{ print \$3 }" /proc/$1/stat 2>/dev/null)" != Z ]
}

# An export of one run a side with everything in order.
export_pair() {
	python3 - "$@" <<-'PY'
	import json, sys
	def run(i, label, v):
	    return {"uuid": "00000000-0000-4000-8000-%012d" % i,
	            "kernel": {"label": label, "release": "6.1.0",
	                       "cmdline": "", "commit": None},
	            "job": "will-it-scale-malloc1", "suite": "will-it-scale",
	            "test": "malloc1", "params": {"nr_task": "1",
	            "test": "malloc1", "testcase": "will-it-scale"},
	            "resolved": {}, "target": "qemu", "host": {"nr_cpus": 2},
	            "iterations_planned": 3, "started_at": "2026-12-03T10:00:00Z",
	            "ended_at": "2026-12-03T10:01:00Z", "status": "ok",
	            "iterations": [{"iteration": k + 1, "metrics":
	                {"will-it-scale.per_process_ops": v * (1 + k / 100)}}
	                for k in range(3)]}
	runs = []
	for b in range(3):
	    runs.append(run(2 * b, "base", 1000 + 10 * b))
	    runs.append(run(2 * b + 1, "head", 500 + 10 * b))
	print(json.dumps({"kab_export": 1, "kab_version": "0.1.0", "runs": runs}))
	PY
}

test_expect "stand-in agent: escapes and newlines from a guest are stored as '?'" '
	KAB_AGENT=$HOSTILE KAB_ATTACK=escapes kab $RUN >$TMP/o 2>$TMP/e
	cat $TMP/e
	rel=$(sql "SELECT release FROM kernels")
	case "$rel" in *"$ESC"*|*"
"*) fail "release stored raw: $rel" ;; esac
	test "$(sql "SELECT count(*) FROM kernels WHERE release LIKE '"'"'6.1?]0;owned??[2J?Bcc: victim@example.org'"'"'")" = 1
	# nothing with an escape anywhere in what kab prints
	kab ls >$TMP/ls
	kab show 1 >$TMP/show
	not grep -q "$ESC" $TMP/ls $TMP/show $TMP/e
	grep -qF "6.1?]0;owned" $TMP/ls
'

test_expect "stand-in agent: 1e308 is a rejected record, never a sample" '
	KAB_AGENT=$HOSTILE KAB_ATTACK=huge kab --db $TMP/huge.db $RUN >$TMP/o 2>$TMP/e
	cat $TMP/e
	test "$(sqlite3 $TMP/huge.db "SELECT count(*) FROM samples WHERE abs(value) > 1e30")" = 0
	test "$(sqlite3 $TMP/huge.db "SELECT count(*) FROM samples WHERE metric = '"'"'will-it-scale.per_process_ops'"'"'")" = 2
	test "$(sqlite3 $TMP/huge.db "SELECT bad_records FROM runs")" = 2
'

test_expect "stand-in agent: 100,000 metrics in an iteration are capped, in bounded time" '
	# a hang check, not a speed claim: 60 s is minutes more than needed
	KAB_AGENT=$HOSTILE KAB_ATTACK=flood timeout 60 "$KAB" --db $TMP/flood.db $RUN >$TMP/o 2>$TMP/e
	cat $TMP/e
	n=$(sqlite3 $TMP/flood.db "SELECT count(*) FROM samples WHERE iteration = 1")
	[ "$n" -le 10000 ] || fail "$n metrics stored for one iteration"
	[ "$n" -ge 9000 ] || fail "only $n metrics stored"
	test "$(sqlite3 $TMP/flood.db "SELECT count(*) FROM samples WHERE iteration = 2")" = 1
'

test_expect "stand-in agent: a closed stream with a live agent deaf to SIGTERM: ^C ends kab" '
	# "$KAB", not the kab function: $! is then kab'"'"'s own pid
	KAB_AGENT=$HOSTILE KAB_ATTACK=hang "$KAB" --db $TMP/hang.db $RUN >$TMP/o 2>$TMP/e &
	pid=$!
	for i in $(seq 1 100); do
		[ "$(sqlite3 $TMP/hang.db "SELECT count(*) FROM samples" 2>/dev/null || echo 0)" -ge 2 ] && break
		sleep 0.1
	done
	agent=$(pgrep -P $pid -f hostile-agent)
	[ -n "$agent" ]
	sleep 1
	kill -INT $pid
	# SIGTERM to the agent, SIGKILL 10 s later: kab is back within 20 s
	for i in $(seq 1 200); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		kill -9 $pid
		fail "kab still waits on its agent 20 s after ^C"
	fi
	wait $pid || true
	# its agent too, killed (and reaped by kab)
	not kill -0 $agent 2>/dev/null
	test "$(sqlite3 $TMP/hang.db "SELECT count(*) FROM samples WHERE metric = '"'"'will-it-scale.per_process_ops'"'"'")" = 2
'

test_expect "import: control characters, bad names, commits and huge numbers are refused, nothing stored" '
	export_pair >$TMP/good.json
	kab --db $TMP/imp.db import $TMP/good.json
	before=$(sqlite3 $TMP/imp.db "SELECT count(*) FROM runs")
	for case in "label:a\nBcc: x@y" "job:x;touch pwned" "commit:\$(touch pwned)" \
		    "param:v\nEOF\ntouch pwned" "value:1e308" "release:\u001b[2J"; do
		python3 - $TMP/good.json "$case" >$TMP/bad.json <<-'"'"'PY'"'"'
		import json, sys
		d = json.load(open(sys.argv[1]))
		what, v = sys.argv[2].split(":", 1)
		v = json.loads("\"" + v + "\"") if what != "value" else float(v)
		r = d["runs"][0]
		r["uuid"] = "10000000-0000-4000-8000-000000000000"
		if what in ("label", "commit", "release"):
		    r["kernel"][what] = v
		elif what == "job":
		    r["job"] = v
		elif what == "param":
		    r["params"]["nr_task"] = v
		else:
		    r["iterations"][0]["metrics"]["x"] = v
		d["runs"] = [r]
		print(json.dumps(d))
		PY
		rc=0
		kab --db $TMP/imp.db import $TMP/bad.json 2>$TMP/e || rc=$?
		cat $TMP/e
		[ $rc = 1 ] || fail "$case: exit $rc"
		test "$(wc -l <$TMP/e)" = 1
		not grep -q "$ESC" $TMP/e
	done
	test "$(sqlite3 $TMP/imp.db "SELECT count(*) FROM runs")" = "$before"
	test ! -e pwned
'

test_expect "a run of more than 20,000 distinct metrics is refused at import and merge" '
	# three iterations of 8,000 names each, none repeated: 24,000
	python3 - $TMP/good.json >$TMP/wide.json <<-'"'"'PY'"'"'
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["runs"][0]
	r["uuid"] = "20000000-0000-4000-8000-000000000000"
	for k, it in enumerate(r["iterations"]):
	    it["metrics"].update(("wide.m%05d" % (k * 8000 + m), 1.0)
	                         for m in range(8000))
	d["runs"] = [r]
	print(json.dumps(d))
	PY
	before=$(sqlite3 $TMP/imp.db "SELECT count(*) FROM samples")
	expect_error 1 "run #1 has 24001 distinct metrics, more than a run may hold (20000): it is broken or not kab.s; nothing of it was stored" -- \
		kab --db $TMP/imp.db import $TMP/wide.json
	test "$(sqlite3 $TMP/imp.db "SELECT count(*) FROM samples")" = "$before"
	# exactly 20,000 is a run kab keeps
	python3 - $TMP/wide.json >$TMP/edge.json <<-'"'"'PY'"'"'
	import json, sys
	d = json.load(open(sys.argv[1]))
	r = d["runs"][0]
	r["uuid"] = "20000000-0000-4000-8000-000000000001"
	# 8,000 + 8,000 + 3,999 and the KPI
	it = r["iterations"][2]
	for m in range(3999, 8000):
	    del it["metrics"]["wide.m%05d" % (16000 + m)]
	print(json.dumps(d))
	PY
	kab --db $TMP/imp.db import $TMP/edge.json >/dev/null
	test "$(sqlite3 $TMP/imp.db "SELECT count(DISTINCT metric) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.uuid = '"'"'20000000-0000-4000-8000-000000000001'"'"'")" = 20000
	# a database written otherwise holds a run of 20,001: merge refuses it
	cp $TMP/imp.db $TMP/wide.db
	sqlite3 $TMP/wide.db "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO samples SELECT 1, 1, printf('"'"'wide.m%05d'"'"', i), 1.0 FROM n"
	expect_error 2 "has 20001 distinct metrics, more than a run may hold (20000)" -- \
		kab merge $TMP/merged-w2.db $TMP/wide.db
	test "$(sqlite3 $TMP/merged-w2.db "SELECT count(*) FROM runs")" = 0
'

# A database damaged or written by an older kab, with what import now
# refuses stored anyway: every writer still escapes.
damage() {
	cp $TMP/imp.db $TMP/dmg.db
	sqlite3 $TMP/dmg.db "$1"
}

test_expect "report: the commands to paste stay commands, whatever the stored names" '
	damage "UPDATE runs SET job = '"'"'x;touch pwned-job'"'"', params = json_set(params, '"'"'$.nr_task'"'"', char(10) || '"'"'EOF'"'"' || char(10) || '"'"'touch pwned-eof'"'"' || char(10), '"'"'$.mode'"'"', '"'"'\$(touch pwned-subst)'"'"')"
	kab --db $TMP/dmg.db report base head >$TMP/r.txt
	sed -n "/^To reproduce with kab:/,/^        kab report/p" $TMP/r.txt | sed "s/^        //" | sed 1d >$TMP/paste.sh
	cat $TMP/paste.sh
	mkdir $TMP/paste
	# kab itself is not run: only what the shell makes of the lines
	(cd $TMP/paste && sh -c "kab() { :; }; . $TMP/paste.sh")
	test -z "$(ls $TMP/paste | grep pwned)"
	test ! -e pwned-job
	grep -q "^cat > job.yaml <<" $TMP/paste.sh
'

test_expect "report --mbox: a label with a line break cannot add a header" '
	damage "UPDATE kernels SET label = '"'"'head'"'"' || char(10) || '"'"'Bcc: victim@example.org'"'"' WHERE label = '"'"'head'"'"'"
	kab --db $TMP/dmg.db report --mbox $TMP/m.mbox --from "a <a@b>" --to "c <c@d>" base "$(printf "head\nBcc: victim@example.org")"
	sed "/^$/q" $TMP/m.mbox >$TMP/headers
	cat $TMP/headers
	not grep -q "^Bcc:" $TMP/headers
	# unfolded, the subject carries the label on one line
	tr -d "\n" <$TMP/headers | grep -q "Subject: [^:]*head Bcc: victim@example.org"
'

test_expect "markdown (report, ci gate --summary): a label is text, not HTML or a table row" '
	damage "UPDATE kernels SET label = '"'"'<img src=x onerror=alert(1)>|x'"'"' WHERE label = '"'"'head'"'"'"
	lab="<img src=x onerror=alert(1)>|x"
	kab --db $TMP/dmg.db report --format markdown base "$lab" >$TMP/r.md
	kab --db $TMP/dmg.db ci gate --summary $TMP/s.md base "$lab" >/dev/null || true
	cat $TMP/r.md $TMP/s.md
	# as text it is escaped; in code (spans, fenced tables) it is code
	awk "/^\`\`\`/ { f = !f; next } !f" $TMP/r.md $TMP/s.md |
		sed "s/\`[^\`]*\`//g" >$TMP/prose
	not grep -q "<img" $TMP/prose
	grep -q "&lt;img" $TMP/r.md
	# the label stays in its cell: a row of the summary has 6 columns
	row=$(grep "will-it-scale.per_process_ops" $TMP/s.md | sed "s/\\\\|//g")
	test "$(printf "%s" "$row" | tr -cd "|" | wc -c)" = 7
'

test_expect "compare: an old database's label with escapes reaches the terminal as \\xNN" '
	damage "UPDATE kernels SET label = '"'"'h'"'"' || char(27) || '"'"'[2J'"'"' || char(155) || '"'"'31m'"'"' WHERE label = '"'"'head'"'"'"
	lab=$(printf "h\033[2J\302\23331m")
	kab --db $TMP/dmg.db compare base "$lab" >$TMP/c
	kab --db $TMP/dmg.db compare --format markdown base "$lab" >$TMP/c.md
	cat -v $TMP/c $TMP/c.md
	not grep -q "$ESC" $TMP/c
	not grep -q "$(printf "\302\233")" $TMP/c
	grep -q "h\\\\x1b\[2J\\\\xc2\\\\x9b31m" $TMP/c
	not grep -q "$ESC" $TMP/c.md
'

test_expect "a damaged database with 1e308 gives no verdict, never an abort" '
	damage "UPDATE samples SET value = 1e308 WHERE run_id IN (2, 4, 6)"
	rc=0
	kab --db $TMP/dmg.db compare base head >$TMP/c 2>&1 || rc=$?
	cat $TMP/c
	[ $rc -lt 2 ] || fail "compare exited $rc"
	rc=0
	kab --db $TMP/dmg.db ci gate base head >$TMP/g 2>&1 || rc=$?
	cat $TMP/g
	# a mean that is not a number cannot be judged: inconclusive
	[ $rc = 3 ] || fail "ci gate exited $rc"
	grep -q "^inconclusive .*no verdict: a mean is not a finite number" $TMP/g
	kab --db $TMP/dmg.db report base head >/dev/null
'

test_expect "merge: a database with a view or a bad string is refused whole" '
	cp $TMP/imp.db $TMP/view.db
	sqlite3 $TMP/view.db "CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
	rc=0
	timeout 20 "$KAB" merge $TMP/out.db $TMP/view.db 2>$TMP/e || rc=$?
	cat $TMP/e
	[ $rc = 2 ] || fail "merge exited $rc"
	grep -q "views or triggers" $TMP/e
	damage "UPDATE kernels SET label = '"'"'a'"'"' || char(27) || '"'"'[2J'"'"' WHERE label = '"'"'head'"'"'"
	rc=0
	"$KAB" merge $TMP/out2.db $TMP/dmg.db 2>$TMP/e || rc=$?
	cat $TMP/e
	[ $rc -ge 1 ] && [ $rc -le 2 ]
	grep -q "kernel label" $TMP/e
	test "$(sqlite3 $TMP/out2.db "SELECT count(*) FROM runs")" = 0
'

test_expect "an older database with an endless view is refused before it is migrated" '
	cp $TMP/imp.db $TMP/old.db
	sqlite3 $TMP/old.db "PRAGMA user_version = 7; DROP TABLE boots; CREATE VIEW boots AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id FROM c"
	for cmd in ls "compare base head" "show 1"; do
		rc=0
		timeout 20 "$KAB" --db $TMP/old.db $cmd >/dev/null 2>$TMP/e || rc=$?
		cat $TMP/e
		[ $rc = 1 ] || fail "kab $cmd exited $rc"
		grep -q "views or triggers kab never makes" $TMP/e
	done
	rc=0
	timeout 20 "$KAB" merge $TMP/om.db $TMP/old.db 2>$TMP/e || rc=$?
	[ $rc = 2 ] || fail "merge exited $rc"
	grep -q "views or triggers" $TMP/e
	test "$(sqlite3 $TMP/old.db "PRAGMA user_version")" = 7
'

test_expect "merge: an older source is upgraded in a copy in TMPDIR" '
	cp $TMP/imp.db $TMP/old7.db
	sqlite3 $TMP/old7.db "DROP TABLE watch_changes; DROP TABLE watch_points; DROP TABLE watches; ALTER TABLE abs DROP COLUMN merged_from; ALTER TABLE runs DROP COLUMN seed; DROP TABLE ab_jobs; ALTER TABLE bisects DROP COLUMN parent_runs; ALTER TABLE bisects DROP COLUMN culprit_runs; ALTER TABLE bisects DROP COLUMN verified; PRAGMA user_version = 8"
	expect_error 1 "in $TMP/nodir: .*set TMPDIR" -- env TMPDIR=$TMP/nodir "$KAB" merge $TMP/m7.db $TMP/old7.db
	mkdir -p $TMP/scratch
	TMPDIR=$TMP/scratch kab merge $TMP/m7.db $TMP/old7.db >/dev/null
	test -z "$(ls $TMP/scratch)"
	test "$(sqlite3 $TMP/m7.db "SELECT count(*) FROM runs")" = \
		"$(sqlite3 $TMP/imp.db "SELECT count(*) FROM runs")"
'

test_expect "merge: a boot, build or A/B with escapes is refused whole" '
	for sql in "INSERT INTO builds (status, tree, subject, created_at) VALUES ('"'"'ok'"'"', '"'"'/t'"'"', '"'"'x'"'"' || char(27) || '"'"'[2J'"'"', '"'"'2026'"'"')" \
		   "INSERT INTO abs (argv, created_at) VALUES ('"'"'[]'"'"', '"'"'2026'"'"' || char(10) || '"'"'x'"'"')" \
		   "INSERT INTO boots (kernel_label, outcome, started_at, run_id) VALUES ('"'"'a'"'"' || char(7), '"'"'ok'"'"', '"'"'2026'"'"', 1)"; do
		damage "$sql"
		rm -f $TMP/mb.db
		rc=0
		"$KAB" merge $TMP/mb.db $TMP/dmg.db 2>$TMP/e || rc=$?
		cat $TMP/e
		[ $rc = 2 ] || fail "merge exited $rc"
		grep -q "is not text (control characters or too long)" $TMP/e
		test "$(sqlite3 $TMP/mb.db "SELECT count(*) FROM runs")" = 0
	done
	# a panic'"'"'s lines in a boot'"'"'s problem are text
	damage "INSERT INTO boots (kernel_label, outcome, problem, started_at, run_id) VALUES ('"'"'a'"'"', '"'"'panic'"'"', '"'"'Kernel panic'"'"' || char(10) || '"'"'x'"'"', '"'"'2026'"'"', 1)"
	kab merge $TMP/mb.db $TMP/dmg.db >/dev/null
'

test_expect "merge: a boot's text is taken up to its column's length, refused past it" '
	for c in kernel_label:4096 kernel_path:4096 cmdline:4096 \
		 qemu_version:255 entry:255 mem:64 accel:64; do
		col=${c%%:*} max=${c#*:}
		for n in $max $((max + 1)); do
			damage "INSERT INTO boots (kernel_label, outcome, started_at, run_id) VALUES ('"'"'a'"'"', '"'"'ok'"'"', '"'"'2026'"'"', 1); UPDATE boots SET $col = substr(replace(hex(zeroblob($n)), '"'"'0'"'"', '"'"'x'"'"'), 1, $n) WHERE id = (SELECT max(id) FROM boots)"
			rm -f $TMP/mb.db
			rc=0
			"$KAB" merge $TMP/mb.db $TMP/dmg.db >/dev/null 2>$TMP/e || rc=$?
			if [ $n = $max ]; then
				[ $rc = 0 ] || { cat $TMP/e; fail "$col of $n: exit $rc"; }
			else
				[ $rc = 2 ] || fail "$col of $n: exit $rc"
				grep -q "a boot.s $col is not text (control characters or too long)" $TMP/e
			fi
		done
	done
'

test_expect "a run's message is one line: refused at import, shown escaped" '
	damage "UPDATE runs SET message = '"'"'m'"'"' || char(10) || '"'"'  kernel:     forged'"'"' WHERE id = 1"
	kab --db $TMP/dmg.db show 1 >$TMP/o
	grep -qxF "  message:    m\\n  kernel:     forged" $TMP/o
	not grep -q "^  kernel:     forged" $TMP/o
	kab --db $TMP/dmg.db export --format json >$TMP/msg.json
	rm -f $TMP/msg.db
	expect_error 1 "message (one line of text" -- kab --db $TMP/msg.db import $TMP/msg.json
	# up to 4096 bytes: one more is refused
	for n in 4096 4097; do
		python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d[\"runs\"][0][\"message\"] = \"m\" * $n; json.dump(d, open(sys.argv[2], \"w\"))" $TMP/msg.json $TMP/msg$n.json
	done
	kab --db $TMP/msg.db import $TMP/msg4096.json >/dev/null
	test "$(sqlite3 $TMP/msg.db "SELECT count(*) FROM runs WHERE length(message) = 4096")" = 1
	rm -f $TMP/msg.db
	expect_error 1 "message (one line of text, up to 4096 bytes)" -- kab --db $TMP/msg.db import $TMP/msg4097.json
'

test_expect "ten concurrent writers (runs, imports of one file, fresh database) lose nothing" '
	for i in $(seq 1 10); do
		kab --db $TMP/conc.db run --runs 1 --monitors none --set nr_task=1 \
			--set warmup=0 --set testtime=1s --kernel-label same \
			$JOB >/dev/null 2>$TMP/e.$i &
	done
	wait
	cat $TMP/e.*
	test "$(sqlite3 $TMP/conc.db "SELECT count(*) FROM runs WHERE status = '"'"'ok'"'"'")" = 10
	test "$(sqlite3 $TMP/conc.db "SELECT count(*) FROM kernels")" = 1
	for i in $(seq 1 10); do
		kab --db $TMP/conc2.db import $TMP/good.json >/dev/null 2>$TMP/i.$i &
	done
	wait
	cat $TMP/i.*
	test "$(sqlite3 $TMP/conc2.db "SELECT count(*) FROM runs")" = 6
	test "$(sqlite3 $TMP/conc2.db "PRAGMA integrity_check")" = ok
'

test_expect "a run waits for another writer's lock and keeps every iteration" '
	kab --db $TMP/lock.db run --runs 1 --monitors none --set nr_task=1 \
		--set warmup=0 --set testtime=1s $JOB >/dev/null 2>&1
	kab --db $TMP/lock.db run --runs 4 --monitors none --set nr_task=1 \
		--set warmup=0 --set testtime=1s $JOB >/dev/null 2>$TMP/e &
	run=$!
	# once its first iteration is stored, another process (a merge;
	# here Python) holds the write lock for 14 s
	until [ "$(sqlite3 $TMP/lock.db "SELECT count(*) FROM samples WHERE run_id = 2")" != 0 ]; do
		sleep 0.1
	done
	python3 -c "import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute(\"BEGIN IMMEDIATE\")
time.sleep(14)
c.execute(\"COMMIT\")" $TMP/lock.db
	wait $run
	rc=$?
	cat $TMP/e
	test $rc = 0
	grep -q "^kab: note: waited 1[0-9] s for $TMP/lock.db: another process holds its write lock" $TMP/e
	test "$(sqlite3 $TMP/lock.db "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = 2")" = 4
	test "$(sqlite3 $TMP/lock.db "SELECT status FROM runs WHERE id = 2")" = ok
'

test_expect "opening and migrating wait for the write lock of another process as long as it lasts, said after 10 s" '
	cp $TMP/lock.db $TMP/lock11.db
	# an older schema: the import migrates it
	sqlite3 $TMP/lock11.db "DROP TABLE watch_changes; DROP TABLE watch_points; DROP TABLE watches; ALTER TABLE abs DROP COLUMN merged_from; ALTER TABLE runs DROP COLUMN seed; PRAGMA user_version = 10"
	for db in lock lock11; do
		python3 -c "import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute(\"BEGIN IMMEDIATE\")
open(sys.argv[2], \"w\").close()
time.sleep(12)
c.execute(\"COMMIT\")" $TMP/$db.db $TMP/held.$db &
		holder=$!
		until [ -e $TMP/held.$db ]; do sleep 0.1; done
		rc=0
		kab --db $TMP/$db.db import $TMP/good.json >/dev/null 2>$TMP/e || rc=$?
		wait $holder
		cat $TMP/e
		test $rc = 0
		grep -q "^kab: note: waited 1[0-9] s for $TMP/$db.db: another process holds its write lock" $TMP/e
	done
	test "$(sqlite3 $TMP/lock11.db "PRAGMA user_version")" = "$(sqlite3 $TMP/lock.db "PRAGMA user_version")"
	test "$(sqlite3 $TMP/lock11.db "SELECT count(*) FROM runs")" = "$(sqlite3 $TMP/lock.db "SELECT count(*) FROM runs")"
'

test_expect "stored arguments and text are untrusted: a merged A/B is not resumed, a damaged list is an error, escapes are shown" '
	rm -f $TMP/src.db $TMP/dst.db
	kab --db $TMP/src.db import $TMP/good.json >/dev/null
	# an A/B of another database, whose stored command names a LAVA
	# server that would get the token of whoever resumes it here
	sqlite3 $TMP/src.db "INSERT INTO abs (argv, created_at) VALUES (json_array(\"--target\", \"lava:http://127.0.0.1:9/\", \"--a\", \"/k\", \"--b\", \"/k\"), \"2026-12-01T00:00:00Z\"); INSERT INTO boots (run_id, kernel_label, outcome, started_at, ab_id, ab_seq) VALUES (1, \"base\", \"ok\", \"2026-12-01T00:00:00Z\", 1, 1)"
	kab merge $TMP/dst.db $TMP/src.db >/dev/null
	KAB_LAVA_TOKEN=secret expect_error 2 "A/B 1 came from $TMP/src.db (kab merge): kab resumes only the A/Bs started in this database" -- \
		kab --db $TMP/dst.db ab --resume 1
	# the source still resumes its own (here: a usage error of its own)
	sqlite3 $TMP/src.db "UPDATE abs SET argv = json_array(\"--boots\", 7, \"--a\", \"/k\")"
	expect_error 1 "A/B 1.s stored arguments are damaged (argument 2 is not text): start it again" -- \
		kab --db $TMP/src.db ab --resume 1
	sqlite3 $TMP/src.db "UPDATE abs SET argv = json_object(\"--a\", \"/k\")"
	expect_error 1 "^kab: A/B 1.s stored arguments are damaged (not a list): start it again\$" -- \
		kab --db $TMP/src.db ab --resume 1
	sqlite3 $TMP/src.db "UPDATE abs SET status = \"done\""
	kab --db $TMP/src.db ab --resume 1 >$TMP/o 2>$TMP/e
	grep -q "A/B 1 is finished: nothing to resume" $TMP/e
	test ! -s $TMP/o
	# a bisect: a damaged list, and text with a terminal'"'"'s escapes
	sqlite3 $TMP/src.db "INSERT INTO bisects (argv, metric, good, bad, status, first_bad, message, created_at) VALUES (json_array(\"--tree\", json_object(\"x\", 1)), \"m\", \"aaaa\", \"bbbb\", \"running\", NULL, NULL, \"2026\"); INSERT INTO bisects (argv, metric, good, bad, status, first_bad, message, created_at) VALUES (\"[]\", \"ops\" || char(27) || \"[2J\", \"aaaa\", \"bbbb\", \"done\" || char(10) || \"culprit verified\", \"cccc\", \"why\" || char(27) || \"[31m\" || char(10) || \"culprit verified too\", \"2026\")"
	expect_error 1 "bisect 1.s stored arguments are damaged (argument 2 is not text)" -- \
		kab --db $TMP/src.db bisect --resume 1
	kab --db $TMP/src.db bisect --list >$TMP/o
	kab --db $TMP/src.db bisect --show 2 >>$TMP/o 2>&1 || true
	cat $TMP/o
	not grep -q "$(printf "\033")" $TMP/o
	grep -q "ops\\\\x1b\[2J" $TMP/o
	not grep -q "^culprit verified" $TMP/o
	# its message on a line of its own, shown as text, a blank line after
	grep -A1 "^  why\\\\x1b\[31m\\\\nculprit verified too$" $TMP/o >$TMP/msg
	test "$(sed -n 2p $TMP/msg)" = ""
	test "$(wc -l <$TMP/msg)" = 2
'

test_expect "ten concurrent merges into one database lose nothing" '
	# ten cell databases of one run each, merged at once into one
	for i in $(seq 1 10); do
		python3 - $TMP/good.json $i >$TMP/cell$i.json <<-'"'"'PY'"'"'
		import json, sys
		d = json.load(open(sys.argv[1]))
		i = int(sys.argv[2])
		r = d["runs"][i % 2]
		r["uuid"] = r["uuid"][:-4] + "%04d" % (1000 + i)
		d["runs"] = [r]
		print(json.dumps(d))
		PY
		kab --db $TMP/cell$i.db import $TMP/cell$i.json >/dev/null
	done
	for i in $(seq 1 10); do
		kab merge $TMP/merged.db $TMP/cell$i.db >/dev/null 2>$TMP/m.$i &
	done
	wait
	cat $TMP/m.*
	test "$(sqlite3 $TMP/merged.db "SELECT count(*) FROM runs")" = 10
	test "$(sqlite3 $TMP/merged.db "SELECT count(DISTINCT block) FROM runs")" = 10
	test "$(sqlite3 $TMP/merged.db "SELECT count(*) FROM samples")" = 30
	test "$(sqlite3 $TMP/merged.db "SELECT count(*) FROM kernels")" = 2
	# and one database merged ten times at once is there once
	for i in $(seq 1 10); do
		kab merge $TMP/merged2.db $TMP/imp.db >/dev/null 2>$TMP/m.$i &
	done
	wait
	cat $TMP/m.*
	test "$(sqlite3 $TMP/merged2.db "SELECT count(*) FROM runs")" = \
		"$(sqlite3 $TMP/imp.db "SELECT count(*) FROM runs")"
	test "$(sqlite3 $TMP/merged.db "PRAGMA integrity_check")" = ok
	test "$(sqlite3 $TMP/merged2.db "PRAGMA integrity_check")" = ok
'

test_expect "output lost on a full disk is an error, not exit 0" '
	for cmd in "ls" "compare base head" "show 1" "report base head"; do
		rc=0
		kab --db $TMP/imp.db $cmd >/dev/full 2>$TMP/e || rc=$?
		[ $rc = 1 ] || fail "kab $cmd >/dev/full exited $rc"
		grep -q "writing the output failed" $TMP/e
	done
'

if [ "$(id -u)" = 0 ] && mkdir -p $TMP/small && mount -t tmpfs -o size=128k tmpfs $TMP/small 2>/dev/null; then
test_expect "merge into a full disk: exit 1, as every failed write" '
	python3 $FIXTURES/make-report-export.py >$TMP/big.json
	kab --db $TMP/big.db import $TMP/big.json >/dev/null
	rc=0
	"$KAB" merge $TMP/small/full.db $TMP/big.db 2>$TMP/e || rc=$?
	cat $TMP/e
	grep -q "disk is full" $TMP/e
	# a disk already full: the output cannot even be made
	rm -f $TMP/small/full.db*
	dd if=/dev/zero of=$TMP/small/fill bs=4k 2>/dev/null || true
	rc2=0
	"$KAB" merge $TMP/small/full.db $TMP/big.db 2>$TMP/e2 || rc2=$?
	cat $TMP/e2
	umount $TMP/small
	[ $rc = 1 ] || fail "merge exited $rc"
	[ $rc2 = 1 ] || fail "merge into a full disk exited $rc2"
	# and an output in a directory that is not there is the user'"'"'s
	expect_error 2 "no directory $TMP/nodir" -- "$KAB" merge $TMP/nodir/o.db $TMP/big.db
'
else
test_skip "merge into a full disk: exit 1, as every failed write" \
	"mounting a small tmpfs needs root"
fi

if [ "$(id -u)" = 0 ] && mkdir -p $TMP/fill && mount -t tmpfs -o size=1m tmpfs $TMP/fill 2>/dev/null; then
test_expect "a disk that fills during a run: the run failed, why said, the iteration stored kept" '
	Q="--set nr_task=1 --set warmup=0 --set testtime=1s"
	kab --db $TMP/fill/x.db run --runs 1 --monitors none $Q $JOB >/dev/null 2>&1
	"$KAB" --db $TMP/fill/x.db run --runs 30 $Q $JOB >$TMP/o 2>$TMP/e &
	pid=$!
	# full as soon as the second run stored its first iteration
	for i in $(seq 900); do
		n=$(sqlite3 $TMP/fill/x.db "SELECT count(*) FROM samples WHERE run_id > 1" 2>/dev/null)
		[ "${n:-0}" -gt 0 ] && break
		sleep 0.1
	done
	dd if=/dev/zero of=$TMP/fill/zeros bs=4k 2>/dev/null || true
	rc=0
	wait $pid || rc=$?
	rm -f $TMP/fill/zeros
	n=$(sqlite3 $TMP/fill/x.db "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = 2")
	umount $TMP/fill
	cat $TMP/e
	[ $rc = 1 ]
	grep -q "^kab: run 2 failed: will-it-scale malloc1: database: cannot write $TMP/fill/x.db (database or disk is full)" $TMP/e
	[ "$n" -ge 1 ]
'
else
test_skip "a disk that fills during a run: the run failed, why said, the iteration stored kept" \
	"mounting a small tmpfs needs root"
fi

test_expect "report -o: a planted symlink is not followed" '
	ln -s $TMP/victim $TMP/r.html.kab-tmp
	kab --db $TMP/imp.db report --format html -o $TMP/r.html base head
	test ! -e $TMP/victim
	grep -q "<html" $TMP/r.html
	# no temporary file left beside it, the planted link aside
	test "$(ls $TMP | grep -c "^r\.html\.")" = 1
	# with the mode the umask gives a new file, as a plain write would
	(umask 027 && kab --db $TMP/imp.db report -o $TMP/r.txt base head)
	test "$(stat -c %a $TMP/r.txt)" = 640
	(umask 022 && kab --db $TMP/imp.db report -o $TMP/r2.txt base head)
	test "$(stat -c %a $TMP/r2.txt)" = 644
'

test_expect "a database schema version kab never wrote is refused" '
	sqlite3 $TMP/neg.db "CREATE TABLE t (x); PRAGMA user_version = -1"
	rc=0
	kab --db $TMP/neg.db ls 2>$TMP/e || rc=$?
	cat $TMP/e
	[ $rc = 1 ]
	grep -q "not kab'"'"'s" $TMP/e
'

test_expect "a read-only database (a read-only mount) can be read" '
	[ "$(id -u)" = 0 ] || { echo "needs root for a mount"; exit 0; }
	mkdir $TMP/ro
	mount -t tmpfs -o size=8m tmpfs $TMP/ro || { echo "no tmpfs here"; exit 0; }
	cp $TMP/imp.db $TMP/ro/k.db
	mount -o remount,ro $TMP/ro
	rc=0
	kab --db $TMP/ro/k.db compare base head >$TMP/c 2>$TMP/e || rc=$?
	kab --db $TMP/ro/k.db ls >>$TMP/c 2>>$TMP/e || rc=$?
	umount $TMP/ro
	cat $TMP/e $TMP/c
	[ $rc = 0 ]
	grep -q "will-it-scale.per_process_ops" $TMP/c
'

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	test_skip "as another user: a 0444 database in a 0555 directory is read, never written" \
		"needs root and setpriv to become nobody"
else
test_expect "as another user: a 0444 database in a 0555 directory is read, never written" '
	# root may write anywhere: this one is nobody, with its own kab copy
	# (the checkout may be in a directory nobody cannot enter)
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	mkdir -p $TMP/ro/d $TMP/ro/w
	cp "$KAB" $TMP/ro/kab
	cp $TMP/imp.db $TMP/ro/d/x.db
	cp $TMP/imp.db $TMP/ro/w/x.db
	export_pair | sed "s/-8000-0000/-8000-9999/g" >$TMP/ro/new.json
	chmod 0755 $TMP $TMP/ro
	chmod 0444 $TMP/ro/d/x.db $TMP/ro/w/x.db $TMP/ro/new.json
	chmod 0555 $TMP/ro/d
	chmod 0777 $TMP/ro/w
	cd $TMP/ro
	as_nobody ./kab --db d/x.db ls >ls.out
	grep -q " head " ls.out
	as_nobody ./kab --db d/x.db compare base head >c.out
	grep -q "will-it-scale.per_process_ops" c.out
	as_nobody ./kab --db w/x.db compare base head >c.out
	grep -q "will-it-scale.per_process_ops" c.out
	expect_error 1 "cannot write in d " -- as_nobody ./kab --db d/x.db import new.json
	expect_error 1 "cannot write the database w/x.db (Permission denied): fix its permissions" -- \
		as_nobody ./kab --db w/x.db import new.json
	# nothing of nobody'"'"'s left beside the database, nothing added
	test -z "$(find . -user nobody)"
	test "$(sqlite3 w/x.db "SELECT count(*) FROM runs")" = \
		"$(sqlite3 $TMP/imp.db "SELECT count(*) FROM runs")"
	cd $TOP
	chmod 0755 $TMP/ro/d
'
fi

test_expect "a cache kab boots from must be the user's own" '
	[ "$(id -u)" = 0 ] || { echo "needs root for chown"; exit 0; }
	mkdir -p $TMP/shared/kab
	chown nobody $TMP/shared/kab
	expect_error 1 "the cache .*/shared/kab is not yours: set XDG_CACHE_HOME" -- \
		env XDG_CACHE_HOME=$TMP/shared "$KAB" --db $TMP/c.db run --target qemu --runs 1 $JOB
'

test_expect "kill -9 of kab takes its local agent along" '
	"$KAB" --db $TMP/k9.db run --runs 3 --monitors none --set nr_task=1 \
		--set warmup=0 --set testtime=5s $JOB >/dev/null 2>&1 &
	pid=$!
	agent=
	for i in $(seq 1 100); do
		agent=$(pgrep -P $pid -f "kab-agent --job -" || true)
		[ -n "$agent" ] && break
		sleep 0.1
	done
	[ -n "$agent" ]
	kill -9 $pid
	wait $pid || true
	for i in $(seq 1 30); do
		alive $agent || break
		sleep 0.1
	done
	not alive $agent
'

test_done
