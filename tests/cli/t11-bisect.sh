#!/bin/bash
# kab bisect on a generated history whose commits change a small
# "kernel recipe" (build.sh, run by --build-cmd): Debian's kernel from
# /boot, with slub_debug=FZPU -- a real, large slowdown of malloc1 --
# from a known commit on; one commit does not build, one panics.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
# Under ASan the agent's malloc is ASan's (3 ops/s, whatever the kernel):
# kab itself runs sanitized, the guest measures with the plain agent.
if [ -n "${KAB_SAN:-}" ]; then
	export KAB_AGENT=$TOP/build/kab-agent
	[ -x "$KAB_AGENT" ] || { echo "1..0 # SKIP no plain kab-agent"; exit 0; }
fi
M=will-it-scale.per_process_ops
QUICK="--set nr_task=1 --set warmup=0 --set testtime=1s --monitors none"
export XDG_CACHE_HOME=$TMP/cache
. "$(dirname "$0")/recipe.sh"
recipe >$R/build.sh; echo recipe >$R/README
C0=$(commit "c0: base")
echo more >>$R/README
C1=$(commit "c1: unrelated")
printf '#!/bin/sh\necho broken >&2\nexit 2\n' >$R/build.sh
C2=$(commit "c2: the recipe does not build")
recipe >$R/build.sh
C3=$(commit "c3: it builds again")
recipe slub_debug=FZPU >$R/build.sh
C4=$(commit "c4: slub_debug, the regression")
recipe "slub_debug=FZPU rdinit=/nonexistent" >$R/build.sh
C5=$(commit "c5: a kernel that panics")
recipe slub_debug=FZPU >$R/build.sh
C6=$(commit "c6: it boots again")
echo even more >>$R/README
C7=$(commit "c7: unrelated")

BISECT="--tree $R --job $JOB $QUICK --metric $M --build-cmd 'sh build.sh'"
# exact mode, KVM or not: boot means repeat, so few boots decide
BOOTS="--clock icount --boots 2 --max-boots 3"

test_expect "kab bisect names the seeded commit; killed, it resumes" '
	# the guests are timed by their instructions (exact mode): boot
	# means repeat, 2 boots a side decide the endpoints and a commit is
	# placed with a boot or two; timed by the host'"'"'s clock under TCG
	# a loaded machine needed 4 and up to 8
	# exec: the pid killed below is kab'"'"'s, not a shell'"'"'s around it
	# a copy of kab, rebuilt (replaced) while it bisects: the steps
	# run the binary now at that path
	mkdir -p $TMP/bin
	cp "$KAB" $TMP/bin/kab
	eval "exec $TMP/bin/kab bisect --good $C0 --bad $C7 --term-old fast \
		--term-new slow $BOOTS $BISECT" >$TMP/o1 2>$TMP/e1 &
	pid=$!
	for i in $(seq 1 100); do
		grep -q "^kab: bisect 1 of" $TMP/e1 2>/dev/null && break
		sleep 0.1
	done
	cp "$KAB" $TMP/bin/kab.new
	mv $TMP/bin/kab.new $TMP/bin/kab
	# the first step recorded (8 endpoint boots and a step can take
	# many minutes on a busy host: wait for it as long as kab works,
	# which times out a guest that stops by itself; then kill in the
	# second)
	n=0
	while kill -0 $pid 2>/dev/null; do
		n=$(sql "SELECT count(*) FROM bisect_steps" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge 1 ] && break
		sleep 0.2
	done
	[ "${n:-0}" -ge 1 ] || { cat $TMP/e1; fail "kab bisect ended before a step was recorded"; }
	# and a moment later, at random: building, booting or storing
	sleep $((RANDOM % 30 / 10)).$((RANDOM % 10))
	kill -9 $pid || {
		cat $TMP/e1
		fail "kab bisect ended before it was killed"
	}
	wait $pid || true
	cat $TMP/e1
	test "$(sql "PRAGMA integrity_check")" = ok
	grep -q "kab bisect --resume 1" $TMP/e1
	first=$(sql "SELECT commit_sha FROM bisect_steps ORDER BY id LIMIT 1")
	runs_before=$(sql "SELECT count(*) FROM runs")
	# the step booting then sees its owner go within 200 ms and asks
	# its QEMU to stop, which is killed 10 s later if it has not (this
	# test'"'"'s QEMUs: their initramfs is in $TMP)
	gone "qemu-system-x86_64 -name kab .*$TMP/" 25
	rc=0
	kab bisect --resume 1 >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e $TMP/o
	# a busy host can leave c4 (and c6) between the endpoints after 8
	# boots (seen in CI: 73-85% of the way, p 0.005 at the last look,
	# with other processes keeping a quarter of the host busy): kab
	# says so, and each resume measures those commits again -- up to
	# three times here, as a user on that host would
	resumes=0
	cp $TMP/e $TMP/e2
	while [ $rc != 0 ] && [ $resumes -lt 3 ] &&
	      grep -q "which a busy host can cause: kab bisect --resume 1 measures" $TMP/e2; do
		resumes=$((resumes + 1))
		rc=0
		kab bisect --resume 1 >$TMP/o 2>$TMP/e2 || rc=$?
		cat $TMP/e2 $TMP/o
		cat $TMP/e2 >>$TMP/eall
	done
	test $rc = 0
	# measured slow in one of those runs, not taken from a skip
	[ $resumes = 0 ] || grep -q "^kab: bisect-step ${C4:0:12}: slow" $TMP/e1 $TMP/e $TMP/eall
	grep -q "^$C4 is the first slow commit" $TMP/o
	grep -q "c4: slub_debug, the regression" $TMP/o
	# checked against its parent before it was named, and stored
	grep -q "^kab: verified: ${C4:0:12} against its parent ${C3:0:12}, booted again interleaved ([0-9]* against [0-9]* boots): -[0-9.]*%, p = .*: the change is this commit.s$" $TMP/e
	grep -q "^verified: ${C4:0:12} against its parent" $TMP/o
	sql "SELECT verified FROM bisects WHERE id = 1" | grep -q "^verified: "
	n3=$(sql "SELECT parent_runs FROM bisects WHERE id = 1" | tr , "\n" | wc -l)
	n4=$(sql "SELECT culprit_runs FROM bisects WHERE id = 1" | tr , "\n" | wc -l)
	[ $n3 -ge 2 ] && [ $n4 -ge 2 ]
	# exact mode: each endpoint'"'"'s boot k at layout seed k, as the
	# culprit'"'"'s and its parent'"'"'s
	for col in good_runs bad_runs parent_runs culprit_runs; do
		ids=$(sql "SELECT $col FROM bisects WHERE id = 1")
		seeds=$(sql "SELECT group_concat(seed) FROM (SELECT seed FROM runs WHERE id IN ($ids) ORDER BY id)")
		echo "$col: runs $ids at seeds $seeds"
		case "$(sql "SELECT clock FROM runs WHERE id IN ($ids) LIMIT 1")" in
		icount*) test "$seeds" = "$(seq -s, 1 $(echo "$ids" | tr , "\n" | wc -l))" ;;
		esac
	done
	# and the closing table of the two has a verdict, not "no verdict"
	sed -n "/(parent) against/,/^tested commits/p" $TMP/o >$TMP/tab
	cat $TMP/tab
	grep -q "^kab noticed a [0-9.]*% regression of will-it-scale.per_process_ops" $TMP/tab
	not grep -q "fewer than 2" $TMP/tab
	# a plain line as each step starts (stderr is a file here)
	grep -q "^kab: bisect 1: step [0-9]* at [0-9a-f]\{12\}, about [0-9]* more after it, elapsed [0-9]*:[0-9][0-9]:[0-9][0-9], ETA [0-9]*:[0-9][0-9]:[0-9][0-9]$" $TMP/e1 $TMP/e
	test "$(sql "SELECT status || '"'"' '"'"' || first_bad FROM bisects WHERE id = 1")" = "done $C4"
	# the commit measured before the kill was not measured again,
	# unless it was a skip: that may have been the host, so it is
	# measured afresh
	if [ "$(sql "SELECT verdict FROM bisect_steps ORDER BY id LIMIT 1")" = skip ]; then
		n=$(sql "SELECT count(*) FROM bisect_steps WHERE commit_sha = '"'"'$first'"'"'")
		[ $n -ge 2 ] || fail "a skip was not measured afresh"
	else
		grep -q "as measured before" $TMP/e
		test "$(sql "SELECT count(*) FROM bisect_steps WHERE commit_sha = '"'"'$first'"'"'")" = 1
	fi
	# every tested commit is listed, the table and the plot are there
	grep -q "^  ${C0:0:12}  good" $TMP/o
	grep -q "^  ${C7:0:12}  bad" $TMP/o
	grep -q "will-it-scale.per_process_ops$" $TMP/o
	grep -q "\[O\] bisect-bad  sample" $TMP/o
	# the user'"'"'s checkout was never touched
	test "$(git -C $R rev-parse HEAD)" = $C7
	test -z "$(git -C $R status --porcelain)"
	# and it prints again from the database alone
	kab bisect --show 1 >$TMP/show
	grep -q "^$C4 is the first slow commit" $TMP/show
	kab bisect --list >$TMP/pipe
	grep -q "^1  done" $TMP/pipe
'

test_expect "kab report of the first bad commit shows the bisect trend, as text and SVG" '
	good=$(sql "SELECT good_runs FROM bisects WHERE id = 1")
	bad=$(sql "SELECT runs FROM bisect_steps WHERE commit_sha = '"'"'$C4'"'"' AND runs IS NOT NULL ORDER BY id DESC LIMIT 1")
	kab report $good $bad >$TMP/r.txt
	cat $TMP/r.txt
	grep -q "^commit: $C4 " $TMP/r.txt
	grep -q "\[O\] bisect-bad  sample" $TMP/r.txt
	kab report --format html -o $TMP/r.html $good $bad
	# one dot per sample of every tested commit that has runs
	want=$(sql "SELECT count(*) FROM samples WHERE metric = '"'"'$M'"'"' AND run_id IN (SELECT value FROM bisects, json_each('"'"'['"'"' || good_runs || '"'"','"'"' || bad_runs || '"'"']'"'"') UNION SELECT value FROM bisect_steps, json_each('"'"'['"'"' || runs || '"'"']'"'"') WHERE runs IS NOT NULL AND runs != '"'"''"'"')")
	got=$(sed -n "/<svg[^>]*class=\"kab-chart trend\"/,/<\/svg>/p" $TMP/r.html | grep -c "<circle")
	[ "$want" -ge 16 ] || fail "only $want samples in the bisect"
	[ "$got" = "$want" ] || fail "trend chart: $got dots, $want samples"
'

test_expect "bisect-step: a commit that does not build or boot is skipped (125)" '
	git -C $R checkout -q $C2
	rc=0
	(cd $R && "$KAB" bisect-step --metric $M --good-run 1,3 \
		--bad-run 2,4 --job $JOB $QUICK --build-cmd "sh build.sh") \
		2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 125
	grep -q "skip: the build command failed" $TMP/e
	git -C $R checkout -q $C5
	rc=0
	(cd $R && "$KAB" bisect-step --metric $M --good-run 1,3 \
		--bad-run 2,4 --job $JOB $QUICK --build-cmd "sh build.sh") \
		2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 125
	grep -q "skip: it does not boot or run: boot panic" $TMP/e
	# a build that names no kernel QEMU can boot: skipped, never booted
	rc=0
	(cd $R && "$KAB" bisect-step --metric $M --good-run 1,3 \
		--bad-run 2,4 --job $JOB $QUICK \
		--build-cmd "echo kernel /etc/hostname") 2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 125
	grep -q "skip: /etc/hostname is not a bzImage$" $TMP/e
	git -C $R checkout -q $C7
	# an error of kab'"'"'s own stops git bisect run: 255, never a verdict
	rc=0
	(cd $R && "$KAB" bisect-step --metric $M --job $JOB --good-run 1) \
		2>$TMP/e || rc=$?
	test $rc = 255
	grep -q "needs the endpoints" $TMP/e
	rc=0
	(cd $R && "$KAB" bisect-step --metric nosuch.metric --good-run 1 \
		--bad-run 2 --job $JOB) 2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 255
	grep -q "no nosuch.metric samples" $TMP/e
'

test_expect "endpoints that do not differ: nothing to bisect, and it says so" '
	rc=0
	# An A/A: at the default level 0.05 one run in twenty or so finds a
	# difference by chance (CI saw -7.3%, p = 0.028 once); at 0.001 the
	# test says what it is about, not what this boot'"'"'s luck was.
	eval "\"$KAB\" bisect --alpha 0.001 --good $C0 --bad $C1 $BISECT" >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 1
	grep -q "does not really differ between the endpoints: nothing to bisect" $TMP/e
	grep -q "noise floor" $TMP/e
	id=$(sql "SELECT max(id) FROM bisects")
	test "$(sql "SELECT status FROM bisects WHERE id = $id")" = no-change
'

test_expect "kab bisect --timeout: an endpoint whose boot outlasts it is a timeout, not a measurement" '
	rc=0
	eval "\"$KAB\" bisect --timeout 2 --good $C0 --bad $C1 $BISECT" >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 1
	grep -q "boot timeout" $TMP/e
	id=$(sql "SELECT max(id) FROM bisects")
	test "$(sql "SELECT count(*) FROM boots WHERE outcome = '"'"'timeout'"'"' AND started_at >= (SELECT created_at FROM bisects WHERE id = $id)")" -ge 1
'

test_expect "two bisects of one tree take turns: the second waits, neither is broken" '
	# no boot: both endpoints fail to build, slowly, under the lock
	R2=$TMP/repo2
	mkdir -p $R2
	git -C $R2 init -q
	printf "#!/bin/sh\nsleep 3\nexit 1\n" >$R2/build.sh
	git -C $R2 add -A
	git -C $R2 -c user.name=t -c user.email=t@t commit -q -m a
	echo x >$R2/f
	git -C $R2 add -A
	git -C $R2 -c user.name=t -c user.email=t@t commit -q -m b
	B2="--tree $R2 --good HEAD~1 --bad HEAD --job $JOB --metric $M --build-cmd"
	"$KAB" bisect $B2 "sh build.sh" >/dev/null 2>$TMP/eA &
	a=$!
	# the first holds the lock once it has said which bisect it is
	for i in $(seq 1 100); do
		grep -q "^kab: bisect" $TMP/eA 2>/dev/null && break
		sleep 0.1
	done
	rc=0
	"$KAB" bisect $B2 "sh build.sh" >/dev/null 2>$TMP/eB || rc=$?
	wait $a || true
	cat $TMP/eA $TMP/eB
	test $rc = 1
	grep -q "^kab: waiting for the kab bisect of $R2 that is running (pid $a)" $TMP/eB
	# each got to its own verdict on the endpoint, untouched by the other
	grep -q "the good endpoint .* cannot be measured: the build command failed" $TMP/eA
	grep -q "the good endpoint .* cannot be measured: the build command failed" $TMP/eB
	not grep -q "stopping the git bisect run" $TMP/eA $TMP/eB
'

test_expect "bad kab bisect input is refused" '
	expect_error 2 "which metric" -- "$KAB" bisect --tree $R --good $C0 \
		--bad $C7 --job $JOB
	expect_error 2 "no commit .nosuch." -- "$KAB" bisect --tree $R \
		--good nosuch --bad $C7 --job $JOB --metric $M
	expect_error 2 "needs the top of a git tree" -- "$KAB" bisect \
		--tree $TMP --good a --bad b --job $JOB --metric $M
	# a range git bisect cannot walk, refused before a bisect is stored
	expect_error 2 "^kab: --good HEAD is the same commit as --bad $C7 in $R: give the last good commit and a later bad one\$" -- \
		"$KAB" --db $TMP/range.db bisect --tree $R --good HEAD --bad $C7 --job $JOB --metric $M
	expect_error 2 "^kab: --good $C7 is not an ancestor of --bad $C0 in $R: give the last good commit and a later bad one (these are the other way round)\$" -- \
		"$KAB" --db $TMP/range.db bisect --tree $R --good $C7 --bad $C0 --job $JOB --metric $M
	git -C $R checkout -q -b elsewhere $C1
	echo elsewhere >>$R/README
	E=$(commit "e1: on another branch")
	git -C $R checkout -q -
	expect_error 2 "^kab: --good $E is not an ancestor of --bad $C7 in $R: give the last good commit and a later bad one\$" -- \
		"$KAB" --db $TMP/range.db bisect --tree $R --good $E --bad $C7 --job $JOB --metric $M
	test "$(sqlite3 $TMP/range.db "SELECT count(*) FROM bisects")" = 0
	expect_error 2 "no bisect 9" -- "$KAB" bisect --show 9
	# the options of kab bisect (and kab watch), refused as taken
	B="--tree $R --good $C0 --bad $C7 --job $JOB --metric $M"
	while IFS="|" read -r args msg; do
		# shellcheck disable=SC2086
		expect_error 2 "^kab: $msg\$" -- timeout 60 "$KAB" --db $TMP/opts.db $args
	done <<-EOF
	bisect $B --setup=|--setup ..: give the command that boots \$KAB_KERNEL there
	bisect $B --setup x|--setup boots a commit.s kernel on a test machine: give --target ssh://host too
	bisect $B --target ssh://h|--target ssh://h: each commit.s kernel is booted there by --setup CMD, e.g. .kexec -l "\$KAB_KERNEL" --append="\$KAB_CMDLINE" && systemctl kexec.
	bisect $B --target ssh://h --setup x --clock icount|--clock and --model are QEMU.s: a test machine is timed by its own clock
	bisect $B --target local|--target .local.: a bisect boots its commits: give qemu, lava:URL, lava:local or ssh://host with --setup
	bisect $B --setup-timeout 0|--setup-timeout .0.: give a number from 1 to 1e+06
	bisect $B --device-type a/b|--device-type .a/b.: give a LAVA device type.s name, such as qemu
	bisect $B --device-type qemu|--device-type needs --target lava:URL or lava:local
	bisect $B --target lava:local --clock icount|--clock is QEMU.s: a LAVA device is timed by its own clock
	bisect $B extra|unexpected argument .extra.
	watch --tree $R --from $C0 --job $JOB --metric $M --fetch -x|--fetch .-x.: give a remote of the tree, e.g. origin
	EOF
	not test -e $TMP/opts.db
'

test_done
