#!/bin/bash
# kab watch on a generated branch of twelve commits whose "kernel
# recipe" (build.sh, run by --build-cmd) boots Debian's kernel from
# /boot, with slub_debug=FZPU -- a real, large slowdown of malloc1 --
# from the seventh on: one change point, found once; killed, the watch
# goes on without measuring a finished point again; a branch of the
# harmless commits after it has none.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
# the guests measure with the plain agent (malloc under ASan is ASan's)
if [ -n "${KAB_SAN:-}" ]; then
	export KAB_AGENT=$TOP/build/kab-agent
	[ -x "$KAB_AGENT" ] || { echo "1..0 # SKIP no plain kab-agent"; exit 0; }
fi
M=will-it-scale.per_process_ops
export XDG_CACHE_HOME=$TMP/cache
. "$(dirname "$0")/recipe.sh"
recipe >$R/build.sh; echo recipe >$R/README
C0=$(commit "c0: base")
for i in 1 2 3 4 5; do
	echo $i >>$R/README
	commit "c$i: unrelated" >/dev/null
done
C5=$(git -C $R rev-parse HEAD)
recipe slub_debug=FZPU >$R/build.sh
C6=$(commit "c6: slub_debug, the regression")
for i in 7 8 9 10 11; do
	echo $i >>$R/README
	commit "c$i: unrelated" >/dev/null
done
C11=$(git -C $R rev-parse HEAD)
C4=$(git -C $R rev-parse HEAD~7)
# exact mode: one boot a commit, at layout seed 1 each
WATCH="--tree $R --job $JOB --set nr_task=1 --set warmup=0 --set testtime=1s \
	--monitors none --metric $M --build-cmd 'sh build.sh' --clock icount \
	--boots 1 --runs 1 --max-boots 2"

test_expect "kab watch refuses what it cannot follow, in one line, storing nothing" '
	expect_error 2 "kab watch --tree DIR --from REV" -- kab watch --tree $R --job $JOB --metric $M
	expect_error 2 "^kab: .*no commit .nosuch. in this git tree" -- \
		kab watch --tree $R --from nosuch --job $JOB --metric $M --once
	expect_error 2 "^kab: $C6 is not an ancestor of $C5 in $R: give --from a commit the branch grew from\$" -- \
		kab watch --tree $R --from $C6 --branch $C5 --job $JOB --metric $M --once
	expect_error 2 "^kab: --tree $TMP: kab watch follows a branch of a git tree" -- \
		kab watch --tree $TMP --from $C0 --job $JOB --metric $M
	expect_error 2 "^kab: --name .a b.: give a name of letters" -- \
		kab watch --tree $R --from $C0 --job $JOB --metric $M --name "a b"
	not test -e $KAB_DB
'

test_expect "kab watch measures the branch, killed goes on, and finds the one change point" '
	eval "exec $KAB watch $WATCH --from $C0 --once" >$TMP/o1 2>$TMP/e1 &
	pid=$!
	# a failing check leaves no watcher behind
	trap "kill -9 $pid 2>/dev/null || true" EXIT
	# a second watcher of the database is refused while the first runs
	for i in $(seq 600); do
		test -e $KAB_DB-watch.lock && break
		sleep 0.1
	done
	test -e $KAB_DB-watch.lock
	expect_error 1 "^kab: another kab watch is following branches into $KAB_DB" -- \
		eval "kab watch $WATCH --from $C0 --once"
	# killed -9 once three points are stored
	n=0
	while kill -0 $pid 2>/dev/null; do
		n=$(sql "SELECT count(*) FROM watch_points WHERE status = '"'"'measured'"'"'" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge 3 ] && break
		sleep 0.2
	done
	test "$n" -ge 3
	kill -9 $pid
	wait $pid || true
	sql "SELECT commit_sha, runs FROM watch_points WHERE status = '"'"'measured'"'"' ORDER BY seq" >$TMP/before
	test "$(wc -l <$TMP/before)" -ge 3
	MAIL="--mbox $TMP/w.mbox --mail-from '"'"'kab robot <robot@example.org>'"'"'"
	eval "$KAB watch $WATCH --from $C0 --once $MAIL" >$TMP/o2 2>$TMP/e2
	cat $TMP/e2 $TMP/o2
	grep -q "^kab: watch: 12 points on the branch, [0-9]* to measure\$" $TMP/e2
	left=$(sed -n "s/^kab: watch: 12 points on the branch, \([0-9]*\) to measure\$/\1/p" $TMP/e2)
	test "$left" -le 9
	# the points done before the kill kept their boots
	sql "SELECT commit_sha, runs FROM watch_points ORDER BY seq" >$TMP/after
	while read -r line; do grep -qx -- "$line" $TMP/after; done <$TMP/before
	test "$(sql "SELECT count(*) FROM watch_points WHERE status = '"'"'measured'"'"'")" = 12
	# one boot a point, none shared
	test "$(sql "SELECT count(DISTINCT runs) FROM watch_points")" = 12
	grep -q "^  ${C6:0:12} .* 1  c6: slub_debug, the regression\$" $TMP/o2
	test "$(grep -c "^change point" $TMP/o2)" = 1
	grep -q "^change point 1: between ${C5:0:12} and ${C6:0:12}: -[0-9.]*% \[.* (new)\$" $TMP/o2
	# checked as KernelCI checks a culprit: against its parent, and
	# reverted on top of the head against the head, 2 boots a side
	grep -qx "  culprit: ${C6:0:12} c6: slub_debug, the regression (verified)" $TMP/o2
	grep -q "^    verified: ${C6:0:12} against its parent ${C5:0:12}, booted again interleaved (2 against 2 boots): -[0-9.]*%" $TMP/o2
	grep -q "^    verified: ${C6:0:12} reverted on top of the head ${C11:0:12} (as [0-9a-f]\{12\}), against the head (2 against 2 boots): +[0-9.]*%, .*: the head without it is back\$" $TMP/o2
	test "$(sql "SELECT status, culprit FROM watch_changes")" = "verified|$C6"
	rev=$(git -C $R rev-parse refs/kab/reverts/$C6-on-$C11)
	test "$(git -C $R rev-parse $rev^)" = $C11
	not grep -q slub_debug <(git -C $R show $rev:build.sh)
	# the robot'"'"'s message: the culprit against its parent, with what
	# found it
	grep -qx "kab: watch: the message of ${C6:0:12} is in $TMP/w.mbox" $TMP/e2
	test "$(grep -c "^From kab " $TMP/w.mbox)" = 1
	grep -q "^From: kab robot <robot@example.org>\$" $TMP/w.mbox
	grep -q "^Subject: .*will-it-scale.per_process_ops .*regression" $TMP/w.mbox
	grep -qx "kab watch followed HEAD from $C0" $TMP/w.mbox
	grep -q "^- verified: ${C6:0:12} reverted on top of the head ${C11:0:12}" $TMP/w.mbox
	# what found it in lines a mail reader keeps
	sed -n "/^kab watch followed/,/^If you fix/p" $TMP/w.mbox | sed "\$d" >$TMP/preface
	test "$(wc -l <$TMP/preface)" -gt 5
	test -z "$(awk "length > 72" $TMP/preface)"
	grep -q "Reported-by: kab robot <robot@example.org>" $TMP/w.mbox
	# found once, checked once, mailed once: a pass with nothing new
	# boots nothing and writes nothing
	runs=$(sql "SELECT count(*) FROM runs")
	eval "$KAB watch $WATCH --from $C0 --once $MAIL" >$TMP/o4 2>$TMP/e4
	test "$(grep -c "^From kab " $TMP/w.mbox)" = 1
	grep -qx "kab: watch: 12 points on the branch, 0 to measure" $TMP/e4
	grep -q "^change point 1: between ${C5:0:12} and ${C6:0:12}: .* (found [^)]*)\$" $TMP/o4
	grep -qx "  culprit: ${C6:0:12} c6: slub_debug, the regression (verified)" $TMP/o4
	test "$(sql "SELECT count(*) FROM watch_changes")" = 1
	test "$(sql "SELECT count(*) FROM runs")" = "$runs"
'

test_expect "a branch of harmless commits has no change point, and takes the boots it has" '
	runs=$(sql "SELECT count(*) FROM runs")
	eval "$KAB watch $WATCH --from $C6 --name tail --once" >$TMP/o3 2>$TMP/e3
	cat $TMP/e3 $TMP/o3
	grep -q "^kab: watch: 6 points on the branch, 6 to measure (a new series)\$" $TMP/e3
	grep -qx "no change point in 6 points" $TMP/o3
	test "$(sql "SELECT count(*) FROM runs")" = "$runs"
	# the same name measured otherwise would not compare
	expect_error 1 "^kab: watch .tail. follows another measuring options" -- \
		eval "kab watch $WATCH --from $C6 --name tail --once --boots 2"
	# the same measuring spelt otherwise (the job by a relative path
	# from elsewhere, --opt=value) is the same series
	w2=${WATCH/--job $JOB/--job jobs/will-it-scale-malloc1.yaml}
	w2=${w2/--set nr_task=1/--set=nr_task=1}
	test "$w2" != "$WATCH"
	(cd $TOP && eval "$KAB watch $w2 --from $C6 --name tail --once") >$TMP/o7 2>$TMP/e7
	grep -qx "kab: watch: 6 points on the branch, 0 to measure" $TMP/e7
'

test_expect "a change whose ends are not neighbours is bisected, then checked" '
	# every 2nd commit: c4 and c6 are points, c5 is not
	eval "$KAB watch $WATCH --from $C0 --every 2 --alpha 0.1 --name sparse --once" >$TMP/o5 2>$TMP/e5
	cat $TMP/e5 $TMP/o5
	grep -q "^kab: watch: 7 points on the branch, 7 to measure (a new series)\$" $TMP/e5
	# its points are the first series'"'"': none booted again
	test "$(sql "SELECT count(*) FROM watch_points p WHERE p.watch_id = (SELECT id FROM watches WHERE name = '"'"'sparse'"'"') AND p.runs NOT IN (SELECT runs FROM watch_points WHERE watch_id != p.watch_id AND runs IS NOT NULL)")" = 0
	grep -q "^change point 1: between ${C4:0:12} and ${C6:0:12}: -" $TMP/o5
	grep -qx "    bisected: ${C4:0:12}..${C6:0:12} names ${C6:0:12}" $TMP/o5
	grep -qx "  culprit: ${C6:0:12} c6: slub_debug, the regression (verified)" $TMP/o5
	test "$(sql "SELECT status, culprit FROM watch_changes WHERE before_sha = '"'"'$C4'"'"'")" = "verified|$C6"
	# the bisect is kab bisect'"'"'s, stored as one
	test "$(sql "SELECT first_bad FROM bisects WHERE good = '"'"'$C4'"'"' AND bad = '"'"'$C6'"'"'")" = $C6
'

test_expect "a culprit that does not revert cleanly on the head is not isolated" '
	git -C $R checkout -q -b conflict
	echo "# c12: a comment after the command line" >>$R/build.sh
	C12=$(commit "c12: a comment in the recipe")
	git -C $R checkout -q -
	eval "$KAB watch $WATCH --from $C0 --branch conflict --name conflict --once" >$TMP/o6 2>$TMP/e6
	cat $TMP/e6 $TMP/o6
	grep -q "^kab: watch: 13 points on the branch, 13 to measure (a new series)\$" $TMP/e6
	grep -q "^change point 1: between ${C5:0:12} and ${C6:0:12}: -" $TMP/o6
	grep -qx "  culprit not isolated" $TMP/o6
	grep -q "^    verified: ${C6:0:12} against its parent ${C5:0:12}" $TMP/o6
	grep -qx "    not isolated: ${C6:0:12} does not revert cleanly on ${C12:0:12} (a later commit changed the same lines), so the head without it cannot be measured" $TMP/o6
	not grep -q "^  culprit: " $TMP/o6
	test "$(sql "SELECT c.status, c.culprit IS NULL FROM watch_changes c JOIN watches w ON w.id = c.watch_id WHERE w.name = '"'"'conflict'"'"'")" = "not-isolated|1"
'

test_done
