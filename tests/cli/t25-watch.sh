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
# a sendmail that keeps what it was given, on stdin and as "$1"
mkdir $TMP/scr
cat >$TMP/send.sh <<EOF
#!/bin/sh
cat >$TMP/sent
cp "\$1" $TMP/sent-file
EOF
chmod +x $TMP/send.sh
SEND="--sendmail '$TMP/send.sh \"\$1\"' --mail-to 'Dev <dev@example.org>' \
	--trailer 'Reported-by: kab robot <robot@example.org>' \
	--trailer 'Closes: https://example.org/r/1'"
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
	expect_error 2 "^kab: --trailer .Reported-by kab. is not a trailer: give .Key: value." -- \
		kab watch --tree $R --from $C0 --job $JOB --metric $M --mbox $TMP/m --trailer "Reported-by kab"
	expect_error 2 "^kab: --mail-to .dev. is not a mail address" -- \
		kab watch --tree $R --from $C0 --job $JOB --metric $M --mbox $TMP/m --mail-to dev
	expect_error 2 "^kab: --mail-from .robot. is not a mail address" -- \
		kab watch --tree $R --from $C0 --job $JOB --metric $M --sendmail cat --mail-from robot
	expect_error 2 "^kab: --mail-to, --mail-cc and --trailer are a message.s: add --mbox FILE or --sendmail CMD\$" -- \
		kab watch --tree $R --from $C0 --job $JOB --metric $M --mail-cc dev@example.org
	# a sender from git config that is no address is refused before
	# anything is measured, as --mail-from would be
	printf "[user]\n\tname = Robot\n\temail = robot\n" >$TMP/gitcfg
	expect_error 2 "^kab: the sender in git config user.email .Robot <robot>. is not a mail address: .*: pass --mail-from\$" -- \
		env GIT_CONFIG_GLOBAL=$TMP/gitcfg $KAB watch --tree $R --from $C0 --job $JOB --metric $M --mbox $TMP/m
	expect_error 2 "^kab: --sendmail ..: give a command" -- \
		kab watch --tree $R --from $C0 --job $JOB --metric $M --sendmail ""
	# refused after options that kept lists (under ASan: none leaks)
	expect_error 2 "^kab: watch: unknown option .--bogus." -- \
		kab watch --tree $R --from $C0 --job $JOB --metric $M --set nr_task=1 \
		--only mode=process --mail-to a@example.org --trailer "Closes: x" --bogus
	not test -e $KAB_DB
'

test_expect "--fetch brings a branch of the remote before the range is checked" '
	git clone -q $R $TMP/fclone
	git -C $R branch later $C5
	expect_error 2 "no commit .origin/later. in this git tree" -- \
		kab --db $TMP/f.db watch --tree $TMP/fclone --from $C0 --branch origin/later \
		--job $JOB --metric $M --build-cmd "exit 3" --once
	# no commit builds: each is a skipped point, nothing boots
	kab --db $TMP/f.db watch --tree $TMP/fclone --from $C0 --branch origin/later \
		--fetch origin --job $JOB --metric $M --build-cmd "exit 3" --once >$TMP/o 2>$TMP/e ||
		{ cat $TMP/e; false; }
	grep -q "^kab: watch: 6 points on the branch, 6 to measure" $TMP/e
	[ "$(sqlite3 $TMP/f.db "SELECT count(*) FROM watch_points WHERE status = \"skipped\"")" = 6 ]
	# a remote that answers nothing is a note, and the watch goes on
	kab --db $TMP/f.db watch --tree $TMP/fclone --from $C0 --branch origin/later \
		--fetch nosuch --job $JOB --metric $M --build-cmd "exit 3" --once >$TMP/o 2>$TMP/e
	grep -q "^kab: note: git fetch nosuch: .*: following origin/later as it is" $TMP/e
	git -C $R branch -D later
'

test_expect "a build command killed by a signal stops the watch: no commit is called skipped" '
	rc=0
	kab --db $TMP/k.db watch --tree $R --from $C0 --job $JOB --metric $M \
		--build-cmd "kill -9 \$\$" --once >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 1
	grep -qx "kab: the build command was stopped (exit 137)" $TMP/e
	grep -qx "kab: measuring ${C0:0:12} failed (said above)" $TMP/e
	test "$(sqlite3 $TMP/k.db "SELECT group_concat(DISTINCT status) FROM watch_points")" = pending
	# one that prints no kernel is the commit'"'"'s fault: skipped, and on
	kab --db $TMP/k.db watch --tree $R --from $C0 --job $JOB --metric $M \
		--build-cmd "echo cmdline quiet" --name nokernel --once >$TMP/o 2>$TMP/e
	grep -qx "kab: watch: ${C0:0:12} skipped: the build command printed no .kernel PATH. line" $TMP/e
	test "$(sqlite3 $TMP/k.db "SELECT count(*) FROM watch_points WHERE status = \"skipped\"")" = 12
'

test_expect "without --once it looks again every --interval, takes what the branch grew, and ends on SIGTERM" '
	git clone -q $R $TMP/gclone
	git -C $TMP/gclone reset -q --hard $C5
	# at most two points a look; no commit builds, nothing boots
	# "$KAB", not the function: the signal is for kab itself
	"$KAB" --db $TMP/g.db watch --tree $TMP/gclone --from $C0 --job $JOB --metric $M \
		--build-cmd "exit 3" --max-points 2 --interval 1.5 >$TMP/o 2>$TMP/e &
	pid=$!
	trap "kill -9 $pid 2>/dev/null || true" EXIT
	skipped() { sqlite3 $TMP/g.db "SELECT count(*) FROM watch_points WHERE status = \"skipped\"" 2>/dev/null; }
	for i in $(seq 1200); do test "$(skipped)" = 6 && break; sleep 0.1; done
	test "$(skipped)" = 6
	echo grown >>$TMP/gclone/README
	git -C $TMP/gclone -c user.name=t -c user.email=t@t commit -qam "c6: grown while it waits"
	for i in $(seq 1200); do test "$(skipped)" = 7 && break; sleep 0.1; done
	kill -TERM $pid
	rc=0; wait $pid || rc=$?
	cat $TMP/e
	# stopped between looks, or in one: as a shell says of SIGTERM
	test $rc = 0 || test $rc = 143
	not pgrep -f "$TMP/g.db watch"
	grep "points on the branch" $TMP/e | grep -v ", 0 to measure\$" >$TMP/looks
	printf "%s\n" "kab: watch: 6 points on the branch, 6 to measure (a new series)" \
		"kab: watch: 6 points on the branch, 4 to measure" \
		"kab: watch: 6 points on the branch, 2 to measure" \
		"kab: watch: 7 points on the branch, 1 to measure" | diff - $TMP/looks
	# two skipped between one look and the next
	sed -n "/6 to measure/,/4 to measure/p" $TMP/e >$TMP/first
	test "$(grep -c " skipped: the build command failed (exit 3)\$" $TMP/first)" = 2
	grep -q "^  [0-9a-f]\{12\}  *(skipped)  *c6: grown while it waits\$" $TMP/o
	test "$(grep -c "^series [^ ]*, $M:\$" $TMP/o)" -ge 4
'

test_expect "--merges takes the merges of the first-parent line; --all-commits the side branches too" '
	# b0 - m1 - M1 - m2 - M2 - m3, side branches s1, s2 into M1 and t1 into M2
	H=$TMP/hist
	g() { git -C $H -c user.name=t -c user.email=t@t "$@"; }
	git init -q $H
	echo 0 >$H/f; g add f; g commit -qm "b0: base"
	B0=$(g rev-parse HEAD)
	g checkout -qb side
	for s in s1 s2; do echo $s >$H/$s; g add $s; g commit -qm "$s: side"; done
	g checkout -q -
	echo 1 >>$H/f; g commit -qam "m1: main"
	g merge -q --no-ff side -m "M1: pull side"
	g checkout -qb topic
	echo t1 >$H/t1; g add t1; g commit -qm "t1: topic"
	g checkout -q -
	echo 2 >>$H/f; g commit -qam "m2: main"
	g merge -q --no-ff topic -m "M2: pull topic"
	echo 3 >>$H/f; g commit -qam "m3: the head"
	# nothing builds: each point is a skipped one with its subject
	w() { kab --db $TMP/h.db watch --tree $H --from $B0 --job $JOB --metric $M \
		--build-cmd "exit 3" --once "$@" >$TMP/o 2>$TMP/e || { cat $TMP/e; false; }; }
	points() { sed -n "s/^  [0-9a-f]\{12\}  *(skipped)  *\([a-zA-Z0-9]*\): .*/\1/p" $TMP/o | tr "\n" " "; }
	w --name line
	grep -qx "kab: watch: 6 points on the branch, 6 to measure (a new series)" $TMP/e
	test "$(points)" = "b0 m1 M1 m2 M2 m3 "
	w --name merges --merges
	grep -qx "kab: watch: 4 points on the branch, 4 to measure (a new series)" $TMP/e
	test "$(points)" = "b0 M1 M2 m3 "
	w --name every2 --merges --every 2
	test "$(points)" = "b0 M2 m3 "
	w --name all --all-commits
	grep -qx "kab: watch: 9 points on the branch, 9 to measure (a new series)" $TMP/e
	for c in b0 s1 s2 m1 M1 t1 m2 M2 m3; do points | grep -qw $c; done
	# a side commit is older than the merge that pulled it
	points | grep -q "s2 .*M1 .*t1 .*M2 m3 \$"
'

test_expect "the series is named after its branch, in a name's letters, 64 at most" '
	N=$TMP/names
	g() { git -C $N -c user.name=t -c user.email=t@t "$@"; }
	git init -q $N
	echo 0 >$N/f; g add f; g commit -qm "n0: base"
	N0=$(g rev-parse HEAD)
	long=topic/$(printf "%059d" 7)
	g checkout -qb "fix/a+b.c_d"
	echo 1 >>$N/f; g commit -qam "n1: on a topic"
	g branch "$long"
	w() { kab --db $TMP/n.db watch --tree $N --from $N0 --job $JOB --metric $M \
		--build-cmd "exit 3" --once "$@" >$TMP/o 2>$TMP/e || { cat $TMP/e; false; }; }
	# HEAD: the branch it is on
	w
	grep -qx "series fix-a-b.c_d, $M:" $TMP/o
	grep -qx "kab: watch: 2 points on the branch, 2 to measure (a new series)" $TMP/e
	grep -qx "kab: watch: ${N0:0:12} skipped: the build command failed (exit 3)" $TMP/e
	grep -qx "no change points yet: 0 points measured, a change needs 2 on each side" $TMP/o
	# --max-points 1: the other point waits; the page says which is which
	w --name capped --max-points 1 --html $TMP/nh
	grep -q "^  ${N0:0:12}  *(skipped)  *n0: base\$" $TMP/o
	grep -q "^  $(g rev-parse --short=12 HEAD)  *(pending)  *n1: on a topic\$" $TMP/o
	grep -qF "<tr><td><code>${N0:0:12}</code></td><td class=\"num\">(skipped)</td><td class=\"num\">0</td><td>n0: base</td>" $TMP/nh/index.html
	grep -qF "<tr><td><code>$(g rev-parse --short=12 HEAD)</code></td><td class=\"num\">(pending)</td><td class=\"num\">0</td><td>n1: on a topic</td>" $TMP/nh/index.html
	grep -qx "<p>No change point.</p>" $TMP/nh/index.html
	w --branch "$long"
	grep -qx "series topic-$(printf "%058d" 0), $M:" $TMP/o
	test ${#long} = 65
	# a detached HEAD is followed as HEAD; one point is one
	g checkout -q --detach $N0
	w --name one
	grep -qx "series one, $M:" $TMP/o
	grep -qx "kab: watch: 1 point on the branch, 1 to measure (a new series)" $TMP/e
	w
	grep -qx "series HEAD, $M:" $TMP/o
	grep -qx "kab: watch: 1 point on the branch, 1 to measure (a new series)" $TMP/e
	# a skipped point is done: the next pass has nothing to measure
	w
	grep -qx "kab: watch: 1 point on the branch, 0 to measure" $TMP/e
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
	# the lock beside the database is the user'"'"'s alone
	[ "$(stat -c %a $KAB_DB-watch.lock)" = 600 ]
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
	# a message that cannot be sent is not marked sent, nor kept
	expect_error 1 "^kab: the message of ${C6:0:12} (kept for the next pass): --sendmail .false. exited with 1\$" -- \
		eval "$KAB watch $WATCH --from $C0 --once $MAIL --sendmail false"
	cp $TMP/stdout $TMP/o2
	cp $TMP/stderr $TMP/e2
	cat $TMP/o2
	test "$(sql "SELECT count(*) FROM watch_changes WHERE mailed_at IS NULL")" = 1
	not test -e $TMP/w.mbox
	# nor one that cannot be kept
	expect_error 1 "^kab: the message of ${C6:0:12} (kept for the next pass): $TMP/nodir/m: No such file or directory\$" -- \
		eval "$KAB watch $WATCH --from $C0 --once --mbox $TMP/nodir/m --mail-from robot@example.org"
	test "$(sql "SELECT count(*) FROM watch_changes WHERE mailed_at IS NULL")" = 1
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
	grep -qx "  first after: c6: slub_debug, the regression" $TMP/o2
	# lkp'"'"'s other rows, compared at the change: the workload moved with it
	grep -q "^  other rows that moved with it: [1-9][0-9]* of [1-9][0-9]* at FDR 0.05" $TMP/o2
	grep -q "^ *-[0-9.]*% *[0-9,.]* -> [0-9,.]* *will-it-scale.workload\$" $TMP/o2
	# each of them, up to the eight surest
	moved=$(sed -n "s/^  other rows that moved with it: \([0-9]*\) of .*/\1/p" $TMP/o2)
	shown=$(sed -n "/^  other rows that moved with it/,/^  culprit:/p" $TMP/o2 | grep -c "^    ")
	test "$shown" = $((moved < 8 ? moved : 8))
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
	# found it, sent by the next pass, and kept in the mbox
	eval "TMPDIR=$TMP/scr $KAB watch $WATCH --from $C0 --once $MAIL $SEND --html $TMP/page" >$TMP/o3 2>$TMP/e3
	cat $TMP/e3
	grep -qx "kab: watch: the message of ${C6:0:12} was sent" $TMP/e3
	cmp $TMP/sent $TMP/sent-file
	test -z "$(ls $TMP/scr)"
	grep -q "^To: Dev <dev@example.org>\$" $TMP/sent
	grep -qx "| Closes: https://example.org/r/1" $TMP/sent
	grep -qx "| Reported-by: kab robot <robot@example.org>" $TMP/sent
	cmp $TMP/sent $TMP/w.mbox
	rm $TMP/sent
	grep -qx "kab: watch: the message of ${C6:0:12} is in $TMP/w.mbox" $TMP/e3
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
	# the numbers of the series'"'"' chart: every commit, the change marked
	grep -qx "The series around it (each commit.s boots. mean):" $TMP/w.mbox
	test "$(grep -c "^  [0-9a-f]\{12\} *[0-9,.]*  [0-9]* boots\? *c[0-9]*: " $TMP/w.mbox)" = 12
	grep -A1 "^  ${C5:0:12} " $TMP/w.mbox | grep -q "^  -* the change point -*\$"
	# its A/B to reproduce it, in exact mode as the watch measured
	sed -e ":a" -e "N;\$!ba" -e "s/ \\\\\n */ /g" $TMP/w.mbox >$TMP/joined
	sed -n "/^To reproduce with kab:/,/^=====/p" $TMP/joined >$TMP/repro
	grep "^        kab " $TMP/repro
	test "$(grep -c "^        kab \(ab\|run\) .* --clock icount" $TMP/repro)" -ge 1
	# found once, checked once, mailed once: a pass with nothing new
	# boots nothing and writes nothing
	runs=$(sql "SELECT count(*) FROM runs")
	eval "$KAB watch $WATCH --from $C0 --once $MAIL $SEND" >$TMP/o4 2>$TMP/e4
	test "$(grep -c "^From kab " $TMP/w.mbox)" = 1
	not test -e $TMP/sent
	grep -qx "kab: watch: 12 points on the branch, 0 to measure" $TMP/e4
	grep -q "^change point 1: between ${C5:0:12} and ${C6:0:12}: .* (found [^)]*)\$" $TMP/o4
	grep -qx "  culprit: ${C6:0:12} c6: slub_debug, the regression (verified)" $TMP/o4
	test "$(sql "SELECT count(*) FROM watch_changes")" = 1
	test "$(sql "SELECT count(*) FROM runs")" = "$runs"
'

# Counts, in the series' page Chromium laid out, the boots' dots and
# the change marks, those inside the chart, and the marks' links.
series_probe='<script>
window.onload = function () {
	var out = [];
	function inside(box, list) {
		var k = 0;
		list.forEach(function (e) {
			var b = e.getBoundingClientRect();
			if (b.width + b.height > 0 && b.left >= box.left && b.right <= box.right &&
			    b.top >= box.top && b.bottom <= box.bottom)
				k++;
		});
		return k;
	}
	document.querySelectorAll("svg.kab-chart.series").forEach(function (svg) {
		var box = svg.getBoundingClientRect(), dots = svg.querySelectorAll("circle.boot"),
		    marks = svg.querySelectorAll("g.change line.mark"), links = [];
		svg.querySelectorAll("a").forEach(function (a) { links.push(a.getAttribute("href")); });
		out.push(svg.dataset.metric + " " + dots.length + " " + inside(box, dots) + " " +
			 marks.length + " " + inside(box, marks) + " " + links.join(","));
	});
	var pre = document.createElement("pre");
	pre.id = "probe";
	pre.textContent = out.join("\n");
	document.body.appendChild(pre);
};
</script>'

test_expect "--html: the series' page, a dot a boot, the change marked and linked to its report" '
	test -s $TMP/page/index.html
	# every boot of every point
	boots=$(sql "SELECT group_concat(runs) FROM watch_points" | tr , "\n" | wc -l)
	chromium_probe $TMP/page/index.html "$series_probe" >$TMP/probe
	cat $TMP/probe
	test "$(cat $TMP/probe)" = "$M $boots $boots 1 1 ${C6:0:12}.html"
	# the culprit'"'"'s report, beside it
	grep -q "<title>.*${C6:0:10}: will-it-scale.per_process_ops [0-9.]*% regression</title>" $TMP/page/${C6:0:12}.html
	grep -q "<td><code>${C5:0:12}</code> .. <code>${C6:0:12}</code></td><td class=\"num\">-[0-9.]*%</td>" $TMP/page/index.html
	grep -q "<a href=\"${C6:0:12}.html\"><code>${C6:0:12}</code></a> (verified)" $TMP/page/index.html
	# its interval and p as the watch printed them
	iv=$(sed -n "s/^change point 1: between ${C5:0:12} and ${C6:0:12}: [-+0-9.]*% \(\[[^]]*\]\) .*, p = \([0-9.e-]*\) .*/\1<\/td><td class=\"num\">\2/p" $TMP/o3)
	test -n "$iv"
	grep -qF "<td class=\"num\">$iv</td>" $TMP/page/index.html
	# painted: the dots (blue) and the mark of a fall (red)
	chromium_shot $TMP/page/index.html $TMP/page.png
	python3 $TOP/tests/cli/png-colours.py $TMP/page.png 4575b4 d73027 >$TMP/px
	cat $TMP/px
	blue=$(sed -n "s/^4575b4 //p" $TMP/px)
	red=$(sed -n "s/^d73027 //p" $TMP/px)
	[ "$blue" -ge $((boots * 20)) ] || fail "$blue blue pixels for $boots dots"
	[ "$red" -ge 200 ] || fail "$red red pixels for the mark"
	# a later pass writes the series'"'"' page again and leaves the
	# culprit'"'"'s, written once, as it is
	touch -d @946684800 $TMP/page/index.html $TMP/page/${C6:0:12}.html
	eval "$KAB watch $WATCH --from $C0 --once --html $TMP/page" >$TMP/o8 2>$TMP/e8 || {
		cat $TMP/e8
		false
	}
	[ "$(stat -c %Y $TMP/page/${C6:0:12}.html)" = 946684800 ]
	[ "$(stat -c %Y $TMP/page/index.html)" -gt 946684800 ]
'

test_expect "a branch of harmless commits has no change point, and takes the boots it has" '
	runs=$(sql "SELECT count(*) FROM runs")
	eval "$KAB watch $WATCH --from $C6 --name tail --once" >$TMP/o3 2>$TMP/e3
	cat $TMP/e3 $TMP/o3
	grep -q "^kab: watch: 6 points on the branch, 6 to measure (a new series)\$" $TMP/e3
	grep -qx "no change point in 6 points" $TMP/o3
	test "$(sql "SELECT count(*) FROM runs")" = "$runs"
	# the same name measured otherwise would not compare
	expect_error 1 "^kab: watch .tail. follows other measuring options" -- \
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
	eval "exec $KAB watch $WATCH --from $C0 --every 2 --alpha 0.1 --name sparse --once" >$TMP/o5 2>$TMP/e5a &
	pid=$!
	trap "kill -9 $pid 2>/dev/null || true" EXIT
	# stopped (SIGTERM) as soon as its bisect has begun
	range="good = '"'"'$C4'"'"' AND bad = '"'"'$C6'"'"'"
	for i in $(seq 1200); do
		test "$(sql "SELECT count(*) FROM bisects WHERE $range" 2>/dev/null)" = 1 && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.5
	done
	kill -TERM $pid
	rc=0; wait $pid || rc=$?
	cat $TMP/e5a
	test $rc = 143
	grep -q "^kab: watch: 7 points on the branch, 7 to measure (a new series)\$" $TMP/e5a
	grep -qx "kab: stopped while bisecting ${C4:0:12}..${C6:0:12}: the next pass resumes the bisect" $TMP/e5a
	# no verdict on the change: it is checked when the bisect ends
	test "$(sql "SELECT c.status FROM watch_changes c JOIN watches w ON w.id = c.watch_id WHERE w.name = '"'"'sparse'"'"'")" = found
	# its kab bisect stopped with it, cut short
	not pgrep -f "bisect.*$C4"
	test "$(sql "SELECT status FROM bisects WHERE $range")" = running
	id=$(sql "SELECT id FROM bisects WHERE $range")
	# started again and killed -9 once it resumed that bisect: the
	# bisect goes with it
	eval "exec $KAB watch $WATCH --from $C0 --every 2 --alpha 0.1 --name sparse --once" >$TMP/o5 2>$TMP/e5b &
	pid=$!
	for i in $(seq 1200); do
		pgrep -f "bisect --resume $id\$" >/dev/null && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.2
	done
	kill -9 $pid
	wait $pid || true
	for i in $(seq 300); do
		pgrep -f "bisect.*$C4\|bisect --resume $id\$" >/dev/null || break
		sleep 0.2
	done
	not pgrep -f "bisect.*$C4\|bisect --resume $id\$"
	test "$(sql "SELECT status FROM bisects WHERE $range")" = running
	# started again: that bisect resumed, not a second one
	eval "$KAB watch $WATCH --from $C0 --every 2 --alpha 0.1 --name sparse --once" >$TMP/o5 2>$TMP/e5
	cat $TMP/e5 $TMP/o5
	test "$(sql "SELECT count(*) FROM bisects WHERE $range")" = 1
	grep -q "^kab: bisect [0-9]* of $M between good ${C4:0:12} and bad ${C6:0:12}" $TMP/e5
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

test_expect "a point whose runs were removed is shown without a value, not measured again" '
	w=$(sql "SELECT id FROM watches WHERE name = (SELECT name FROM watches ORDER BY id LIMIT 1)")
	runs=$(sql "SELECT runs FROM watch_points WHERE watch_id = $w AND commit_sha = '"'"'$C11'"'"'")
	test -n "$runs"
	kab rm $runs >/dev/null
	before=$(sql "SELECT count(*) FROM runs")
	eval "$KAB watch $WATCH --from $C0 --once" >$TMP/o8 2>$TMP/e8
	cat $TMP/e8 $TMP/o8
	grep -qx "kab: watch: 12 points on the branch, 0 to measure" $TMP/e8
	grep -q "^  ${C11:0:12}  *(no value)  *c11: unrelated\$" $TMP/o8
	test "$(sql "SELECT count(*) FROM runs")" = "$before"
'

test_done
