#!/bin/bash
# The ssh target, against an OpenSSH server this test starts on
# 127.0.0.1 with keys it makes (tests/cli/sshd.sh): the agent shipped
# once, stress-ng shipped when the machine lacks it, a dropped
# connection, and kab ab switching the machine with setup commands.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sshd.sh"

QUICK="--set nr_task=1 --set warmup=0 --set testtime=1s"
JOB=$TOP/jobs/will-it-scale-malloc1.yaml
# The remote cache has a space and a quote in its path (see sshd.sh).
RCACHE="$TMP/remote cache/it's/kab"

if ! sshd_start >$TMP/sshd.out 2>&1; then
	cat $TMP/sshd.out
	test_expect "an OpenSSH server starts on 127.0.0.1" 'false'
	test_done
	exit 1
fi
trap 'sshd_stop; scratch_done' EXIT

test_expect "kab run --target ssh:// ships the agent and stores the remote run" '
	kab run --target ssh://kabtest --runs 2 $QUICK --monitors none $JOB >$TMP/o 2>&1
	cat $TMP/o
	[ "$(sql "select target, status from runs")" = "ssh|ok" ]
	[ "$(sql "select count(distinct iteration) from samples where metric = \"will-it-scale.per_process_ops\"")" = 2 ]
	# the host facts are the remote agent'"'"'s own
	sql "select host from runs" >$TMP/pipe
	grep -q "\"hostname\":\"$($KAB_SSH kabtest hostname)\"" $TMP/pipe
	ls "$RCACHE"/agent-*/kab-agent "$RCACHE"/agent-*/lib/ld-linux-x86-64.so.2
	[ $(ls -d "$RCACHE"/agent-* | wc -l) = 1 ]
'

test_expect "a second run finds the agent there and ships nothing" '
	before=$(stat -c %Y.%N "$RCACHE"/agent-*/.complete)
	sleep 1
	kab run --target ssh://kabtest --runs 1 $QUICK --monitors none $JOB >/dev/null 2>&1
	[ "$(stat -c %Y.%N "$RCACHE"/agent-*/.complete)" = "$before" ]
	[ "$(sql "select count(*) from runs where status = \"ok\"")" = 2 ]
'

test_expect "a busy test machine: its agent says so, kab keeps it with the run" '
	# the machine is this one: a neighbour keeps a CPU of it busy
	yes >/dev/null &
	hog=$!
	kab run --target ssh://kabtest --runs 1 --set testtime=2s $QUICK --monitors none $JOB >$TMP/o 2>$TMP/e || { kill $hog; false; }
	kill $hog
	cat $TMP/e
	id=$(sql "select max(id) from runs")
	grep -q "^kab: note: run $id: other processes kept [0-9]*% of this machine.s CPUs busy during the run" $TMP/e
	sql "select message from runs where id = $id" | grep -q "^other processes kept"
	[ "$(sql "select status from runs where id = $id")" = ok ]
'

test_expect "stress-ng goes along when the machine has none" '
	not $KAB_SSH kabtest "command -v stress-ng"
	kab run --target ssh://kabtest --runs 1 --set testtime=1s \
		$TOP/jobs/stress-ng-radixsort.yaml >$TMP/o 2>&1 || { cat $TMP/o; false; }
	ls "$RCACHE"/agent-*/stress-ng.bin "$RCACHE"/agent-*/bin/stress-ng
	[ "$(sql "select count(*) from samples where metric = \"stress-ng.radixsort.ops_per_sec\"")" = 1 ]
	# the monitors ran there too, the profile with kernel names
	id=$(sql "select max(id) from runs")
	for m in meminfo.MemFree interrupts.LOC:Local_timer_interrupts \
		 softirqs.TIMER dmesg.WARNING perf-profile.samples; do
		[ "$(sql "select count(*) from samples where run_id = $id and metric = \"$m\"")" = 1 ] ||
			fail "$m missing"
	done
	[ ! -d /sys/devices/system/node/node0 ] ||
		[ "$(sql "select count(*) from samples where run_id = $id and metric = \"numa-meminfo.node0.MemFree\"")" = 1 ]
	[ "$(sql "select count(*) from samples where run_id = $id and metric like \"perf-profile.self.%\" and value > 1")" -ge 1 ]
'

test_expect "a connection dropped mid-run: samples so far kept, run interrupted" '
	rm -f $TMP/d.db
	kab --db $TMP/d.db run --target ssh://kabtest --runs 10 $QUICK $JOB >$TMP/o 2>&1 &
	pid=$!
	for i in $(seq 150); do
		n=$(sqlite3 $TMP/d.db "select count(distinct iteration) from samples" 2>/dev/null || true)
		[ "${n:-0}" -ge 2 ] && break
		sleep 0.2
	done
	# this test'"'"'s agent, by the remote cache it was shipped to
	pgrep -f "$TMP/remote cache/.*/kab-agent" >/dev/null
	sshd_drop
	rc=0
	wait $pid || rc=$?
	cat $TMP/o
	[ $rc = 1 ]
	[ "$(sqlite3 $TMP/d.db "select status from runs")" = interrupted ]
	n=$(sqlite3 $TMP/d.db "select count(distinct iteration) from samples")
	check "$n >= 2 && $n < 10"
	grep -q "interrupted: .*the connection dropped" $TMP/o
	# the agent there finds its stream gone at its next record and
	# stops (a sanitized one on a loaded CI host took more than 1 s)
	gone "$TMP/remote cache/.*/kab-agent" 10
'

test_expect "an unreachable machine and bad targets are refused in one line" '
	expect_error 1 "cannot reach 127.0.0.1 over ssh" -- kab --db $TMP/u.db run --target ssh://127.0.0.1:1 $QUICK $JOB
	[ "$(sqlite3 $TMP/u.db "select count(*) from runs")" = 0 ]
	# an option for ssh: refused as a path, and without one as no host
	expect_error 2 "no path after the host" -- kab run --target "ssh://-oProxyCommand=touch\ $TMP/pwned" $JOB
	(cd $TMP && expect_error 2 "not a host" -- kab run --target "ssh://-oProxyCommand=touch\ pwned" $JOB)
	expect_error 2 "not a host" -- kab run --target "ssh://-oProxyCommand=false" $JOB
	[ ! -e $TMP/pwned ]
	expect_error 2 "the port must be a number" -- kab run --target ssh://kabtest:ssh $JOB
	expect_error 2 "use local, qemu, ssh://\[user@\]host\[:port\], lava:URL or lava:local" -- kab run --target telnet://kabtest $JOB
'

test_expect "kab ab on a test machine: setups switch it, turns interleave" '
	rel=$($KAB_SSH kabtest uname -r)
	kab --db $TMP/ab.db ab --target ssh://kabtest \
		--a-setup "echo \"a \$(uname -r)\" >> $TMP/setup.log" \
		--b-setup "echo b >> $TMP/setup.log; echo b is up >&2" --a-release "$rel" \
		--a-label A --b-label B --boots 2 --runs-per-boot 2 $QUICK \
		--job $JOB >$TMP/o 2>$TMP/e
	cat $TMP/o $TMP/e
	[ "$(tr "\n" , <$TMP/setup.log)" = "a $rel,b,a $rel,b," ]
	[ "$(sqlite3 $TMP/ab.db "select group_concat(kernel_label || outcome || ab_seq, \" \") from boots")" = "Aok0 Bok1 Aok2 Bok3" ]
	[ "$(sqlite3 $TMP/ab.db "select count(*) from runs where target = \"ssh\" and status = \"ok\"")" = 4 ]
	grep -q "^kab: A: kabtest runs $rel$" $TMP/e
	grep -q "^               A                           B $" $TMP/o
	# what the machine said on stderr is a note, a line each
	grep -q "^kab: note: kabtest said:$" $TMP/e
	grep -q "^kab: note: | b is up$" $TMP/e
'

test_expect "--order random: each round in the order its seed draws, the same in every kab" '
	for db in r1 r2; do
		kab --db $TMP/$db.db ab --target ssh://kabtest \
			--a-setup true --b-setup true --a-label A --b-label B \
			--boots 2 --runs-per-boot 1 --order random --seed 7 \
			$QUICK --job $JOB >$TMP/o 2>$TMP/e || { cat $TMP/e; false; }
		sqlite3 $TMP/$db.db "SELECT group_concat(kernel_label || ab_seq, \" \") FROM (SELECT * FROM boots ORDER BY id)" >$TMP/$db.order
	done
	cat $TMP/r1.order
	# seed 7 draws A first in round 1, B first in round 2: a recorded
	# A/B names its seed, and the seed must name the order
	[ "$(cat $TMP/r1.order)" = "A0 B1 B2 A3" ]
	diff $TMP/r1.order $TMP/r2.order
'

test_expect "on a terminal, a message first clears the live line it interrupts" '
	script -qec "TERM=xterm $KAB --db $TMP/tty.db ab --target ssh://kabtest \
		--a-setup true --b-setup true --a-label A --b-label B \
		--boots 2 --runs-per-boot 1 $QUICK --job $JOB" /dev/null >$TMP/tty
	# each boot of a side says what the machine runs: on a line of its
	# own, not after the live line that was on the screen
	grep -acF "$(printf "\r\033[K")kab: A: kabtest runs " $TMP/tty >$TMP/n
	grep -acF "$(printf "\r\033[K")kab: B: kabtest runs " $TMP/tty >>$TMP/n
	[ "$(tr "\n" , <$TMP/n)" = "2,2," ]
	not grep -aE "[^K]kab: [AB]: kabtest runs " $TMP/tty
'

test_expect "on a terminal, what ssh says during a run is a note on a line of its own" '
	# the agent shipped anew: its tar speaks through ssh too
	rm -rf "$RCACHE"/agent-*
	printf "#!/bin/sh\necho \"ssh: a warning\" >&2\nexec %s \"\$@\"\n" "$KAB_SSH" >$TMP/ssh-noisy
	chmod +x $TMP/ssh-noisy
	script -qec "TERM=xterm KAB_SSH=$TMP/ssh-noisy $KAB --db $TMP/n.db run \
		--target ssh://kabtest --runs 1 $QUICK --monitors none $JOB" \
		/dev/null >$TMP/tty
	cat -A $TMP/tty
	# ssh spoke at each of its calls, shipping the agent too: every
	# word a note, each note first clearing the live line
	[ "$(grep -ac "ssh: a warning" $TMP/tty)" -ge 3 ]
	[ "$(grep -ac "^kab: note: | ssh: a warning" $TMP/tty)" = "$(grep -ac "ssh: a warning" $TMP/tty)" ]
	[ "$(grep -acF "$(printf "\r\033[K")kab: note: kabtest said:" $TMP/tty)" = "$(grep -ac "kab: note: kabtest said:" $TMP/tty)" ]
	[ "$(sqlite3 $TMP/n.db "SELECT status FROM runs")" = ok ]
'

test_expect "a machine that comes back with the wrong kernel stops the A/B" '
	rc=0
	kab --db $TMP/w.db ab --target ssh://kabtest --b-release 0.0.0-nope \
		--setup-timeout 2 --boots 1 --runs-per-boot 1 $QUICK \
		--job $JOB >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	[ $rc = 1 ]
	# B is named by the release it asks for
	grep -q "after 0.0.0-nope.s setup kabtest runs .*, not 0.0.0-nope: check --b-setup and --b-release" $TMP/e
	expect_error 1 "the setup of A failed on kabtest (exit 3): fix --a-setup" -- \
		kab --db $TMP/w.db ab --target ssh://kabtest --a-setup "exit 3" \
		--boots 1 --runs-per-boot 1 $QUICK --job $JOB
	# --quiet: the error, not what the machine said before it
	rc=0
	kab --quiet --db $TMP/w.db ab --target ssh://kabtest \
		--a-setup "echo noisy >&2; exit 3" --boots 1 --runs-per-boot 1 \
		$QUICK --job $JOB 2>$TMP/q || rc=$?
	cat $TMP/q
	[ $rc = 1 ]
	grep -q "the setup of A failed on kabtest (exit 3)" $TMP/q
	not grep -q noisy $TMP/q
	expect_error 2 "add --target ssh://host" -- kab ab --a-setup true --job $JOB
	expect_error 2 "are for QEMU" -- kab ab --target ssh://kabtest --a /boot/vmlinuz --job $JOB
'

test_expect "an ssh A/B killed with kill -9 resumes where it stopped" '
	rm -f $TMP/r.db
	# "$KAB", not the kab function: $! must be kab itself
	"$KAB" --db $TMP/r.db ab --target ssh://kabtest --boots 2 --runs-per-boot 2 \
		$QUICK --job $JOB >$TMP/o 2>&1 &
	pid=$!
	for i in $(seq 150); do
		n=$(sqlite3 $TMP/r.db "select count(*) from boots where outcome = \"ok\"" 2>/dev/null || true)
		[ "${n:-0}" -ge 1 ] && break
		sleep 0.2
	done
	kill -9 $pid
	wait $pid || true
	kab --db $TMP/r.db ab --resume 1 >$TMP/o 2>&1 || { cat $TMP/o; false; }
	cat $TMP/o
	[ "$(sqlite3 $TMP/r.db "select count(*) from boots where outcome = \"ok\"")" = 4 ]
	[ "$(sqlite3 $TMP/r.db "select count(distinct ab_seq) from boots where outcome = \"ok\"")" = 4 ]
'

# A test box whose reboots are faked (this machine cannot boot another
# kernel): the setup "boots" an image by copying it to $TMP/box/booted,
# and the box's uname then says what that image says of itself, read
# from its boot header, as the kernel would once it ran.
fake_box() {
	mkdir -p $TMP/box
	rm -f $TMP/box/booted $TMP/box/setup.log
	ln -sf "$(command -v cp)" "$TMP/rbin/cp"
	rm -f "$TMP/rbin/uname"
	cat >"$TMP/rbin/uname" <<-EOF
	#!/usr/bin/python3
	import struct, subprocess, sys
	try:
	    d = open("$TMP/box/booted", "rb").read()
	except OSError:
	    sys.exit(subprocess.call(["$(command -v uname)"] + sys.argv[1:]))
	o = struct.unpack_from("<H", d, 0x20e)[0] + 0x200
	s = d[o:o + 256].split(b"\0")[0].decode()
	print(s.split(" ")[0] if sys.argv[1:] == ["-r"] else s[s.index(") #") + 2:])
	EOF
	chmod +x "$TMP/rbin/uname"
}
unfake_box() {
	ln -sf "$(command -v uname)" "$TMP/rbin/uname"
}

test_expect "kab watch on a test box: each commit's kernel shipped and booted by --setup (a faked reboot)" '
	K=$(ls /boot/vmlinuz-* | sort -V | tail -1)
	# a second build of the kernel: the same release, "#2" in uname -v
	cp $K $TMP/k2
	python3 -c "
import struct, sys
d = bytearray(open(sys.argv[1], \"rb\").read())
o = struct.unpack_from(\"<H\", d, 0x20e)[0] + 0x200
i = d.index(b\") #1 \", o)
d[i + 3] = ord(\"2\")
open(sys.argv[1], \"wb\").write(d)" $TMP/k2
	R=$TMP/wrepo
	mkdir -p $R && git -C $R init -q
	c() { git -C $R add -A; git -C $R -c user.name=t -c user.email=t@t commit -qm "$1"; git -C $R rev-parse HEAD; }
	echo "echo kernel $K" >$R/build.sh; C0=$(c base)
	echo "echo cmdline quiet" >>$R/build.sh; C1=$(c "c1: a cmdline")
	echo "echo kernel $TMP/k2" >>$R/build.sh; C2=$(c "c2: another build")
	fake_box
	kab --db $TMP/wb.db watch --target ssh://kabtest --tree $R --from $C0 --once \
		--setup "cp \"\$KAB_KERNEL\" $TMP/box/booted && echo \"\$KAB_COMMIT \$KAB_RELEASE \$KAB_CMDLINE\" >>$TMP/box/setup.log" \
		--job $JOB $QUICK --monitors none --metric will-it-scale.per_process_ops \
		--build-cmd "sh build.sh" --boots 2 --runs 1 >$TMP/o 2>$TMP/e || { cat $TMP/o $TMP/e; unfake_box; false; }
	unfake_box
	cat $TMP/o $TMP/e
	rel=$(basename $K | sed s/vmlinuz-//)
	# each commit booted before each of its boots, with its kernel
	printf "%s\n" "$C0 $rel " "$C0 $rel " "$C1 $rel quiet" "$C1 $rel quiet" \
		"$C2 $rel quiet" "$C2 $rel quiet" | diff - $TMP/box/setup.log
	[ "$(sqlite3 $TMP/wb.db "select group_concat(c || target || status, \" \") from (select substr(k.commit_sha, 1, 7) c, r.target, r.status from runs r join kernels k on k.id = r.kernel_id order by r.id)")" = \
		"${C0:0:7}sshok ${C0:0:7}sshok ${C1:0:7}sshok ${C1:0:7}sshok ${C2:0:7}sshok ${C2:0:7}sshok" ]
	# the two images, shipped once each, whole
	ls "$TMP/remote cache/it'"'"'s"/kab/kernels/*/bzImage >$TMP/shipped
	[ $(wc -l <$TMP/shipped) = 2 ]
	while read f; do cmp -s "$f" $K || cmp "$f" $TMP/k2; done <$TMP/shipped
	grep -q "^kab: ${C2:0:12}: kabtest runs $rel$" $TMP/e
	grep -q "^kab: watch: 3 points on the branch, 3 to measure" $TMP/e
	grep -q "^no change points yet: 3 points measured" $TMP/o
	# each point: its boots, their mean and their spread as %stddev
	/usr/bin/python3 - $TMP/wb.db $TMP/o <<-'"'"'PY'"'"'
	import re, sqlite3, statistics, sys
	con = sqlite3.connect(sys.argv[1])
	boots = {}
	for sha, v in con.execute("SELECT k.commit_sha, avg(s.value) FROM runs r JOIN kernels k ON k.id = r.kernel_id JOIN samples s ON s.run_id = r.id AND s.metric = '"'"'will-it-scale.per_process_ops'"'"' GROUP BY r.id"):
	    boots.setdefault(sha[:12], []).append(v)
	n = 0
	for line in open(sys.argv[2]):
	    m = re.match(r"  ([0-9a-f]{12}) +(\S+) +([0-9.]+)% +([0-9]+)  ", line)
	    if not m:
	        continue
	    v = boots[m.group(1)]
	    assert int(m.group(4)) == len(v) == 2, line
	    want = 100 * statistics.stdev(v) / abs(statistics.mean(v))
	    assert abs(float(m.group(3)) - want) < 0.051, (line, want)
	    n += 1
	assert n == 3, n
	PY
	# kab bisect measures its endpoints there the same way, shipping
	# nothing again
	while read f; do stat -c "%y %n" "$f"; done <$TMP/shipped >$TMP/stamps
	fake_box
	kab --db $TMP/wb.db bisect --target ssh://kabtest --tree $R --good $C0 --bad $C2 \
		--setup "cp \"\$KAB_KERNEL\" $TMP/box/booted && echo \"\$KAB_COMMIT\" >>$TMP/box/setup.log" \
		--job $JOB $QUICK --monitors none --metric will-it-scale.per_process_ops \
		--build-cmd "sh build.sh" --boots 2 --runs 1 >$TMP/o 2>$TMP/e || true
	unfake_box
	cat $TMP/o $TMP/e
	# interleaved, as its endpoints are measured on QEMU; the two are
	# the same code, and the bisect stops there unless a false alarm
	# (its alpha) sends it to the commit between
	head -4 $TMP/box/setup.log >$TMP/ends
	printf "%s\n" $C0 $C2 $C0 $C2 | diff - $TMP/ends
	steps=$(tail -n +5 $TMP/box/setup.log | wc -l)
	[ "$(tail -n +5 $TMP/box/setup.log | grep -cx "$C1")" = $steps ]
	while read f; do stat -c "%y %n" "$f"; done <$TMP/shipped | diff $TMP/stamps -
	# the report says how to reproduce it on a test machine too
	kab --db $TMP/wb.db report ${C0:0:12} ${C2:0:12} >$TMP/rep 2>&1 || { cat $TMP/rep; false; }
	grep -q "^ *kab ab --target ssh://BOX --a-setup SETUP_A --b-setup SETUP_B .$" $TMP/rep
	grep -q "^ *--a-label ${C0:0:12} --b-label ${C2:0:12} --boots 4 .$" $TMP/rep
	grep -q "^ *# BOX: the test machine; SETUP_A and SETUP_B boot the kernels of$" $TMP/rep
	grep -q "^ *#   ${C0:0:12} and ${C2:0:12} there (as --setup did)$" $TMP/rep
	[ "$(sqlite3 $TMP/wb.db "select count(*) from runs r join kernels k on k.id = r.kernel_id where r.target = \"ssh\" and r.status = \"ok\"")" = $((10 + steps)) ]
'

test_expect "--cmdline goes before what the build prints, in the setup's KAB_CMDLINE" '
	R=$TMP/wrepo
	C0=$(git -C $R rev-parse HEAD~2)
	C1=$(git -C $R rev-parse HEAD~1)
	fake_box
	kab --db $TMP/wc.db watch --target ssh://kabtest --tree $R --from $C0 --branch $C1 --once \
		--setup "cp \"\$KAB_KERNEL\" $TMP/box/booted && echo \"\$KAB_COMMIT \$KAB_CMDLINE\" >>$TMP/box/setup.log" \
		--cmdline "mitigations=off nosmt" --job $JOB $QUICK --monitors none \
		--metric will-it-scale.per_process_ops --build-cmd "sh build.sh" \
		--boots 1 --runs 1 >$TMP/o 2>$TMP/e || { cat $TMP/o $TMP/e; unfake_box; false; }
	unfake_box
	# the base prints no cmdline: the option alone; c1 prints "quiet"
	printf "%s\n" "$C0 mitigations=off nosmt" "$C1 mitigations=off nosmt quiet" | diff - $TMP/box/setup.log
	[ "$(sqlite3 $TMP/wc.db "select group_concat(r.status, \" \") from runs r")" = "ok ok" ]
'

test_expect "a test box that does not boot the commit's kernel stops the watch in one line" '
	R=$TMP/wrepo
	C0=$(git -C $R rev-parse HEAD~2)
	rel=$(basename $(ls /boot/vmlinuz-* | sort -V | tail -1) | sed s/vmlinuz-//)
	fake_box
	# a setup that boots nothing: the box keeps its own kernel
	rc=0
	kab --db $TMP/wn.db watch --target ssh://kabtest --tree $R --from $C0 --once \
		--setup true --setup-timeout 2 --job $JOB $QUICK --monitors none \
		--metric will-it-scale.per_process_ops --build-cmd "sh build.sh" \
		--boots 1 --runs 1 >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	[ $rc = 1 ]
	grep -q "^kab: after ${C0:0:12}.s setup kabtest runs $(uname -r), not $rel: check --setup and that it boots \$KAB_KERNEL$" $TMP/e
	# the box boots the first build where the commit wants the second
	rc=0
	kab --db $TMP/wn.db watch --target ssh://kabtest --tree $R --from $C0 --once \
		--setup "cp $(ls /boot/vmlinuz-* | sort -V | tail -1) $TMP/box/booted" \
		--setup-timeout 2 --job $JOB $QUICK --monitors none \
		--metric will-it-scale.per_process_ops --build-cmd "sh build.sh" \
		--boots 1 --runs 1 >$TMP/o 2>$TMP/e || rc=$?
	unfake_box
	cat $TMP/e
	[ $rc = 1 ]
	grep -q "setup kabtest runs $rel .#1 SMP.*., not .#2 SMP.*.: check --setup" $TMP/e
	[ "$(sqlite3 $TMP/wn.db "select count(*) from runs where status = \"ok\"")" = 2 ]
	expect_error 2 "^kab: --target ssh://kabtest: each commit.s kernel is booted there by --setup CMD" -- \
		kab watch --target ssh://kabtest --tree $R --from $C0 --job $JOB --metric M
	expect_error 2 "^kab: --setup boots a commit.s kernel on a test machine: give --target ssh://host too$" -- \
		kab bisect --setup true --tree $R --good $C0 --bad HEAD --job $JOB --metric M
	expect_error 2 "^kab: --clock and --model are QEMU.s" -- \
		kab bisect --target ssh://kabtest --setup true --clock icount --tree $R --good $C0 --bad HEAD --job $JOB --metric M
	expect_error 2 "not a host" -- \
		kab bisect --target "ssh://-oProxyCommand=false" --setup true --tree $R --good $C0 --bad HEAD --job $JOB --metric M
'

test_done
