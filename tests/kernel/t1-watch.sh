#!/bin/bash
# make test-kernel: kab watch over the demo's history of real kernels
# (scripts/demo-tree.sh): kab-demo/watch holds the THP alignment and its
# fix with six harmless commits before, between and after them; the
# watch finds both as change points of malloc1, checks each culprit
# against its parent and reverted on top of the last commit its change
# holds at, and writes one message each, once, killed -9 or not.  A
# branch of ten harmless commits has no change point.
. "$(dirname "$0")/../cli/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
M=will-it-scale.per_process_ops
# KAB_KERNEL_CACHE=~/.cache reuses the demo's builds; by default every
# build here is made from nothing, as on a new machine.
export XDG_CACHE_HOME=${KAB_KERNEL_CACHE:-$TMP/cache}
T=$($TOP/scripts/demo-tree.sh)
# exact mode, a boot a commit at layout seed 1, three a side to check
WATCH="--tree $T --from kab-demo/base --job $JOB --set nr_task=1 --set warmup=0 \
	--set testtime=1s --runs 1 --metric $M --clock icount --boots 1 --max-boots 3"
MAIL="--mbox $TMP/w.mbox --mail-from 'kab robot <robot@example.org>' --html $TMP/page"
ALIGN=$(git -C $T rev-parse kab-demo/watch~13)
FIX=$(git -C $T rev-parse kab-demo/watch~6)

test_expect "the demo's watch branch: the alignment and the fix, where the script put them" '
	git -C $T log -1 --format=%s $ALIGN | grep -qx "mm: align larger anonymous mappings on THP boundaries"
	git -C $T log -1 --format=%s $FIX | grep -qx "mm: only align anonymous mappings that are PMD-size multiples"
	test "$(git -C $T rev-list --count kab-demo/base..kab-demo/watch)" = 20
	test "$(git -C $T rev-list --count kab-demo/base..kab-demo/harmless)" = 10
'

test_expect "kab watch finds both changes, verifies each, and mails each once, killed -9 or not" '
	eval "exec $KAB watch $WATCH --branch kab-demo/watch --once $MAIL" >$TMP/o1 2>$TMP/e1 &
	pid=$!
	trap "kill -9 $pid 2>/dev/null || true" EXIT
	# killed once a few points are stored (at a random one of 2 to 5)
	want=$((2 + RANDOM % 4))
	n=0
	while kill -0 $pid 2>/dev/null; do
		n=$(sql "SELECT count(*) FROM watch_points WHERE status = '"'"'measured'"'"'" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge $want ] && break
		sleep 1
	done
	kill -9 $pid
	wait $pid || true
	sql "SELECT commit_sha, runs FROM watch_points WHERE status = '"'"'measured'"'"' ORDER BY seq" >$TMP/before
	eval "$KAB watch $WATCH --branch kab-demo/watch --once $MAIL" >$TMP/o2 2>$TMP/e2
	cat $TMP/o2
	# nothing measured before the kill was measured again
	sql "SELECT commit_sha, runs FROM watch_points ORDER BY seq" >$TMP/after
	while read -r line; do grep -qx -- "$line" $TMP/after; done <$TMP/before
	test "$(sql "SELECT count(*) FROM watch_points WHERE status = '"'"'measured'"'"'")" = 21
	test "$(grep -c "^change point" $TMP/o2)" = 2
	grep -q "^change point 1: between $(git -C $T rev-parse --short=12 $ALIGN^) and ${ALIGN:0:12}: -[0-9.]*% " $TMP/o2
	grep -q "^change point 2: between $(git -C $T rev-parse --short=12 $FIX^) and ${FIX:0:12}: +[0-9.]*% " $TMP/o2
	grep -qx "  culprit: ${ALIGN:0:12} mm: align larger anonymous mappings on THP boundaries (verified)" $TMP/o2
	grep -qx "  culprit: ${FIX:0:12} mm: only align anonymous mappings that are PMD-size multiples (verified)" $TMP/o2
	# the alignment reverted where it still holds, before the fix
	grep -q "^    verified: ${ALIGN:0:12} reverted on top of $(git -C $T rev-parse --short=12 $FIX^), the last commit before the next change point .*: that commit without it is back\$" $TMP/o2
	# lkp'"'"'s other rows at each change: what explains it
	test "$(grep -c "^  other rows that moved with it: [1-9][0-9]* of [1-9][0-9]* at FDR 0.05" $TMP/o2)" = 2
	grep -q "^    verified: ${FIX:0:12} reverted on top of the head $(git -C $T rev-parse --short=12 kab-demo/watch) " $TMP/o2
	test "$(grep -c "^From kab " $TMP/w.mbox)" = 2
	# the headers unfolded
	sed -e ":a" -e "N;\$!ba" -e "s/\n / /g" $TMP/w.mbox >$TMP/unfolded
	grep -q "^Subject: .*${ALIGN:0:10}: will-it-scale.per_process_ops [0-9.]*% regression\$" $TMP/unfolded
	grep -q "^Subject: .*${FIX:0:10}: will-it-scale.per_process_ops [0-9.]*% improvement\$" $TMP/unfolded
	test -s $TMP/page/${ALIGN:0:12}.html
	test -s $TMP/page/${FIX:0:12}.html
	# again: nothing to measure, check or mail
	runs=$(sql "SELECT count(*) FROM runs")
	eval "$KAB watch $WATCH --branch kab-demo/watch --once $MAIL" >$TMP/o3 2>$TMP/e3
	test "$(sql "SELECT count(*) FROM runs")" = "$runs"
	test "$(grep -c "^From kab " $TMP/w.mbox)" = 2
	cp $TMP/o2 $TMP/w.mbox $TMP/page/index.html ${KAB_KEEP:-$TMP}/ 2>/dev/null || true
'

test_expect "a branch of ten harmless commits has no change point and mails nothing" '
	eval "$KAB watch $WATCH --branch kab-demo/harmless --once --mbox $TMP/h.mbox --mail-from robot@example.org" >$TMP/o4 2>$TMP/e4
	cat $TMP/o4
	grep -qx "no change point in 11 points" $TMP/o4
	not test -e $TMP/h.mbox
'

test_done
