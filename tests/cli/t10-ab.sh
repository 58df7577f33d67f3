#!/bin/bash
# kab ab: two boot configurations of the default kernel, interleaved,
# stored and compared; and the ways a boot goes wrong.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
QUICK="--set nr_task=1 --set warmup=0 --set testtime=1s"
export XDG_CACHE_HOME=$TMP/cache

test_expect "a short A/B: two boots a side, alternating, stored and compared" '
	# under SAN=1 the guest measures with the plain agent: with ASan'"'"'s
	# (4 boots of ASan'"'"'s malloc and ELF symbol reading under TCG) a
	# boot of this test once ended in an RCU stall after 173 s in CI;
	# the later tests of this file boot ASan'"'"'s agent
	[ -z "${KAB_SAN:-}" ] || export KAB_AGENT=$TOP/build/kab-agent
	kab ab --a-cmdline transparent_hugepage=never \
		--b-cmdline transparent_hugepage=always --job $JOB $QUICK \
		--boots 2 --runs-per-boot 2 >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/o $TMP/e
	test "$(sql "SELECT group_concat(label, \" \") FROM (SELECT k.label FROM runs r JOIN kernels k ON k.id = r.kernel_id ORDER BY r.id)")" = "transparent_hugepage=never transparent_hugepage=always transparent_hugepage=never transparent_hugepage=always"
	test "$(sql "SELECT count(*) FROM boots WHERE outcome = '"'"'ok'"'"'")" = 4
	test "$(sql "SELECT count(DISTINCT run_id || '"'"'.'"'"' || iteration) FROM samples")" = 8
	grep -q "^kab: transparent_hugepage=never: 2 ok$" $TMP/e
	grep -q "^transparent_huge transparent_hugepage=always $" $TMP/o
	grep -q "^  transparent_hugepage=never$" $TMP/o
	# TCG here: timed by guest instructions; KVM: a real CPU
	sql "SELECT accel FROM boots WHERE run_id = 1" >$TMP/accel
	grep -Eq "^note: (timed in guest instructions \(QEMU icount\)|these numbers come from QEMU TCG emulation)" $TMP/o ||
		grep -q "^kvm" $TMP/accel
	# the guests really had the two settings
	sql "SELECT host FROM runs WHERE id = 1" >$TMP/pipe
	grep -q "\"thp_enabled\":\"never\"" $TMP/pipe
	sql "SELECT host FROM runs WHERE id = 2" >$TMP/pipe
	grep -q "\"thp_enabled\":\"always\"" $TMP/pipe
	# kab show pools a side'"'"'s boots: 2 boots x 2 iterations
	kab show --metric will-it-scale.per_process_ops \
		transparent_hugepage=never >$TMP/s
	cat $TMP/s
	grep -q "^kernel transparent_hugepage=never: runs 1,3 (one boot each)" $TMP/s
	awk "\$NF == \"will-it-scale.per_process_ops\" { ok = \$1 == 4 && \$2 == 2 } END { exit !ok }" $TMP/s
'

test_expect "kab report of the real A/B: the robot email, read back by a mail parser" '
	kab report --from "Kab Tester <kab@example.org>" --to linux-mm@kvack.org \
		--mbox $TMP/ab.mbox -o $TMP/ab.txt \
		transparent_hugepage=never transparent_hugepage=always
	cat $TMP/ab.txt
	grep -Eq "^Subject: transparent_hugepage=always: will-it-scale.per_process_ops ([0-9.]+% (improvement|regression)|no significant change)" $TMP/ab.txt ||
		grep -q "^Subject: transparent_hugepage=always: no significant change of will-it-scale.per_process_ops$" $TMP/ab.txt
	grep -q "^kernel: transparent_hugepage=always (6\.1\." $TMP/ab.txt ||
		grep -q "^commit: " $TMP/ab.txt
	grep -Eq "^test machine: (1 threads 1 sockets .* \(QEMU TCG guest, timed by icount\)|2 threads 1 sockets .* \(QEMU KVM guest\)) with 2G memory$" $TMP/ab.txt
	grep -Eq "^compiler: gcc-[0-9]+$" $TMP/ab.txt
	# the exact A/B, from what kab ab stored, with the kernels it
	# booted named (the newest /boot/vmlinuz-* is another one elsewhere);
	# the mail wraps its lines (a command by " \", a comment by "#   ")
	sed -e :a -e "/ \\\\$/N; s/ \\\\\n *\([^#]\)/ \1/; ta" $TMP/ab.txt |
		sed ":a;N;\$!ba;s/\n        #   / /g" >$TMP/ab1.txt
	grep -q "^        kab ab --a-cmdline transparent_hugepage=never --b-cmdline transparent_hugepage=always --job will-it-scale-malloc1.yaml --set nr_task=1 --set warmup=0 --set testtime=1s --boots 2 --runs-per-boot 2 --a /boot/vmlinuz-[^ ]* --b /boot/vmlinuz-[^ ]*$" $TMP/ab1.txt
	grep -q "^        # transparent_hugepage=never: kernel 6\.1\.[^ ]*, image /boot/vmlinuz-.*, command line \".*transparent_hugepage=never.*\" (qemu)$" $TMP/ab1.txt
	/usr/bin/python3 - $TMP/ab.mbox $TMP/ab.txt <<-PY
	import email, email.policy, sys
	raw = open(sys.argv[1], "rb").read().split(b"\n", 1)[1]
	m = email.message_from_bytes(raw, policy=email.policy.default)
	text = open(sys.argv[2], encoding="utf-8").read()
	head, body = text.split("\n\n", 1)
	assert head.split("\n")[0] == "To: linux-mm@kvack.org", head
	subject = head.split("\n")[-1]
	assert m["Subject"] == subject[len("Subject: "):], m["Subject"]
	assert m.get_content() == body
	PY
'

test_expect "--order random boots both sides in every round, in a seeded order" '
	kab --db $TMP/r1.db ab --a-label x --b-label y --job $JOB $QUICK \
		--boots 2 --runs-per-boot 1 --order random --seed 7 \
		>$TMP/o 2>&1 || { cat $TMP/o; sqlite3 $TMP/r1.db "SELECT id, outcome, problem FROM boots"; false; }
	# the order of the boots, whatever became of them, but for a boot
	# the host starved, which is booted once more by design
	sqlite3 $TMP/r1.db "SELECT group_concat(kernel_label, \"\") FROM (SELECT kernel_label FROM boots WHERE outcome != '"'"'host-stall'"'"' ORDER BY id)" >$TMP/order1
	sqlite3 $TMP/r1.db "SELECT id, kernel_label, outcome FROM boots"
	cat $TMP/order1
	grep -Eq "^(xy|yx)(xy|yx)$" $TMP/order1
'

test_expect "a guest that hangs past its deadline is a timeout" '
	rc=0
	kab ab --a-label x --b-label y --job $JOB --set nr_task=1 \
		--set warmup=0 --set testtime=60s --boots 1 \
		--runs-per-boot 1 --timeout 12 >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 1
	grep -q "boot timeout" $TMP/e
	test "$(sql "SELECT count(*) FROM boots WHERE outcome = '"'"'timeout'"'"'")" = 2
'

test_expect "fake-qemu: a guest printing garbage on ttyS1 is a boot failure, nothing stored" '
	cat >$TMP/fake-qemu <<-EOS
	#!/bin/bash
	# prints noise and a truncated record on "ttyS1", like a broken guest
	head -c 3000 /dev/urandom
	printf "@KAB1 500 0badf00d {\"t\":\"start\",\"host\":{"
	exit 0
	EOS
	chmod +x $TMP/fake-qemu
	before=$(sql "SELECT count(*) FROM samples")
	KAB_QEMU=$TMP/fake-qemu expect_error 1 "did not start" -- \
		"$KAB" run --target qemu --runs 1 $QUICK $JOB
	test "$(sql "SELECT count(*) FROM samples")" = "$before"
	test "$(sql "SELECT outcome FROM boots ORDER BY id DESC LIMIT 1")" = boot-failure
'

test_expect "fake stall (a real boot, an injected console line): a host-stall is booted once more" '
	# The host cannot be made to starve a guest on demand: a real QEMU
	# boots the real kernel, and its first boot gets the line a starved
	# vCPU makes the kernel print.
	cat >$TMP/stall-qemu <<-EOS
	#!/bin/bash
	log=\$(printf "%s\n" "\$@" | sed -n "s/^file://p")
	$(command -v qemu-system-x86_64) "\$@"
	rc=\$?
	if [ \$rc = 0 ] && [ -n "\$log" ] && [ ! -e $TMP/stalled ]; then
		touch $TMP/stalled
		echo "[   61.0] rcu: INFO: rcu_sched self-detected stall on CPU" >>"\$log"
	fi
	exit \$rc
	EOS
	chmod +x $TMP/stall-qemu
	KAB_QEMU=$TMP/stall-qemu kab --db $TMP/stall.db run --target qemu \
		--runs 1 $QUICK --monitors none $JOB >$TMP/o 2>$TMP/e
	cat $TMP/e
	grep -q "that boot is a host-stall, its samples are not used; booting once more" $TMP/e
	test "$(sqlite3 $TMP/stall.db "SELECT group_concat(outcome, \" \") FROM (SELECT outcome FROM boots ORDER BY id)")" = "host-stall ok"
	test "$(sqlite3 $TMP/stall.db "SELECT group_concat(status, \" \") FROM (SELECT status FROM runs ORDER BY id)")" = "failed ok"
	# every boot knows how busy the host was
	test "$(sqlite3 $TMP/stall.db "SELECT count(*) FROM boots WHERE host_busy BETWEEN 0 AND 1")" = 2
'

test_expect "kab killed mid-A/B: finished boots kept, --resume does the rest" '
	logs=$(ls /tmp | grep -c "^kab-console\." || true)
	"$KAB" --db $TMP/resume.db ab --a-label x --b-label y --job $JOB $QUICK \
		--boots 2 --runs-per-boot 1 >$TMP/o1 2>$TMP/e1 &
	pid=$!
	# as long as kab works: a busy host makes boots slow, not absent
	while kill -0 $pid 2>/dev/null; do
		n=$(sqlite3 $TMP/resume.db "SELECT count(*) FROM boots" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge 2 ] && break
		sleep 0.1
	done
	tree=$(descendants $pid)
	kill -9 $pid
	wait $pid || true
	# QEMU dies with its kab (PR_SET_PDEATHSIG)
	gone_pids "$tree" 5
	# and leaves no console log behind: it never had a name
	[ "$(ls /tmp | grep -c "^kab-console\." || true)" -le "$logs" ]
	# the hint names the database: pasted, it resumes this A/B
	grep -q "(if it stops: kab --db $TMP/resume.db ab --resume 1)" $TMP/e1
	done_before=$(sqlite3 $TMP/resume.db "SELECT count(*) FROM boots WHERE outcome = '"'"'ok'"'"'")
	test "$done_before" -ge 2
	kab --db $TMP/resume.db ab --resume 1 >$TMP/o2 2>$TMP/e2
	cat $TMP/e2
	grep -q "A/B 1, resumed" $TMP/e2
	test "$(sqlite3 $TMP/resume.db "SELECT count(DISTINCT ab_seq) FROM boots WHERE ab_id = 1 AND outcome = '"'"'ok'"'"'")" = 4
	test "$(sqlite3 $TMP/resume.db "SELECT count(*) FROM boots WHERE ab_id = 1 AND outcome = '"'"'ok'"'"'")" = 4
	test "$(sqlite3 $TMP/resume.db "SELECT status FROM abs WHERE id = 1")" = done
	grep -q "^x y $" $TMP/o2 || grep -q "x  *y" $TMP/o2
	expect_error 2 "no A/B 7" -- "$KAB" --db $TMP/resume.db ab --resume 7
	# a finished A/B: nothing to resume
	kab --db $TMP/resume.db ab --resume 1 >$TMP/o3 2>$TMP/e3
	grep -q "A/B 1 is finished: nothing to resume" $TMP/e3
	# a second A/B of the same labels: its table is over its own boots
	# (one a side: no verdict), not the first one'"'"'s four besides
	kab --db $TMP/resume.db ab --a-label x --b-label y --job $JOB $QUICK \
		--boots 1 --runs-per-boot 1 >$TMP/o4 2>$TMP/e4 || true
	cat $TMP/o4
	grep -q "will-it-scale.per_process_ops  (boots<2)$" $TMP/o4
'

test_expect "--max-boots: kab ab looks after every round and stops when the KPI is answered" '
	# slub_debug=FZPU makes malloc1 about 60% slower, far beyond 5%;
	# under SAN=1 the guest measures with the plain agent (ASan'"'"'s
	# allocator, not the kernel'"'"'s, would set the pace)
	agent=
	[ -z "${KAB_SAN:-}" ] || agent=$TOP/build/kab-agent
	KAB_AGENT=$agent kab --db $TMP/seq.db ab --a-label plain --b-label slub \
		--b-cmdline slub_debug=FZPU --job $JOB $QUICK --monitors none \
		--boots 2 --max-boots 5 --runs-per-boot 1 --noise 5 \
		>$TMP/o 2>$TMP/e
	cat $TMP/e
	grep -q "^kab: look 1 of 4 (2 against 2 boots): will-it-scale.per_process_ops plain -> slub -[0-9.]*%, 98.2% interval \[" $TMP/e
	grep -q ": changed beyond the noise$" $TMP/e
	grep -q "^kab: answered after [234] of at most 5 boots a side: stopping$" $TMP/e
	n=$(sqlite3 $TMP/seq.db "SELECT count(*) FROM boots WHERE outcome = '"'"'ok'"'"'")
	[ "$n" -lt 10 ] || fail "$n boots: it did not stop"
	# the table agrees with the stop: the KPI is the looks'"'"' regression
	grep -q "will-it-scale.per_process_ops$" $TMP/o
	grep -q "^note: plain -> slub: will-it-scale.per_process_ops is decided by kab ab.s looks: changed, 9[0-9].[0-9]% interval \[-[0-9.]*%, -[0-9.]*%\] beyond the noise$" $TMP/o
	grep -q "^kab noticed a [0-9.]*% regression of will-it-scale.per_process_ops: plain -> slub$" $TMP/o
'

test_expect "a KPI the looks call unchanged has their note alone under the table" '
	agent=
	[ -z "${KAB_SAN:-}" ] || agent=$TOP/build/kab-agent
	# one kernel on both sides, exact mode: within a 50% noise at once
	KAB_AGENT=$agent kab --db $TMP/same.db ab --a-label one --b-label two \
		--clock icount --job $JOB $QUICK --monitors none \
		--boots 2 --max-boots 3 --runs-per-boot 1 --noise 50 \
		>$TMP/o 2>$TMP/e || { cat $TMP/e; false; }
	cat $TMP/o
	grep -q "^note: one -> two: will-it-scale.per_process_ops is decided by kab ab.s looks: equivalent, .* within the noise$" $TMP/o
	[ "$(grep -c "^note: one -> two: .*will-it-scale.per_process_ops" $TMP/o)" = 1 ]
'

test_expect "bad kab ab input is refused" '
	# a job named as an installed kab finds it, not by a path in a checkout
	expect_error 2 "no job: kab ab --job will-it-scale-malloc1 (kab run --list-jobs lists the jobs)" -- "$KAB" ab
	expect_error 2 "not a bzImage" -- "$KAB" ab --a /etc/passwd --job $JOB
	expect_error 2 "both sides are called" -- "$KAB" ab --a-label x \
		--b-label x --job $JOB
	expect_error 2 "--order .sideways." -- "$KAB" ab --order sideways --job $JOB
	expect_error 2 "--max-boots .1.: give 2 to 10000" -- "$KAB" ab \
		--max-boots 1 --job $JOB
	expect_error 2 "--max-boots 3 is fewer than --boots 4" -- "$KAB" ab \
		--boots 4 --max-boots 3 --job $JOB
	expect_error 2 "--noise .x.: give a percentage" -- "$KAB" ab \
		--noise x --job $JOB
	expect_error 2 "--pin: .9-2. is not a CPU list" -- "$KAB" ab --pin 9-2 --job $JOB
'

test_done
