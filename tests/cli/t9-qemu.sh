#!/bin/bash
# The qemu target: Debian's kernel booted under QEMU (TCG here) with
# kab-agent as /init, the stream read from ttyS1.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
EXACTSET="--set nr_task=1 --set warmup=1 --set testtime=2s"
SHORT="--runs 2 $EXACTSET"
export XDG_CACHE_HOME=$TMP/cache
# Under ASan the agent's malloc is ASan's (a few ops/s, whatever the
# kernel): kab runs sanitized, the guests measure with the plain agent.
if [ -n "${KAB_SAN:-}" ]; then
	export KAB_AGENT=$TOP/build/kab-agent
fi

test_expect "malloc1 runs in a guest booted from /boot and is stored" '
	kab run --target qemu $SHORT $JOB >$TMP/o 2>$TMP/e
	cat $TMP/o $TMP/e
	test "$(sql "SELECT status || '"'"' '"'"' || target FROM runs WHERE id = 1")" = "ok qemu"
	test "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = 1")" = 2
	ops=$(mean_of 1 will-it-scale.per_process_ops)
	check "$ops > 100 && $ops < 10000000"
	# the facts are the guest'"'"'s, not this machine'"'"'s
	sql "SELECT host FROM runs WHERE id = 1" >$TMP/host
	grep -q "\"hypervisor\":true" $TMP/host
	grep -q "rdinit=/init" $TMP/host
	sql "SELECT image_path FROM kernels k JOIN runs r ON r.kernel_id = k.id WHERE r.id = 1" >$TMP/pipe
	grep -q "^/boot/vmlinuz-" $TMP/pipe
	# the boot is stored with its compressed console
	test "$(sql "SELECT outcome || '"'"' '"'"' || accel FROM boots WHERE run_id = 1")" = "ok tcg"
	/usr/bin/python3 - "$KAB_DB" <<-PY
	import sqlite3, sys, zlib
	con = sqlite3.connect(sys.argv[1])
	blob, n = con.execute("SELECT console, console_bytes FROM boots WHERE run_id = 1").fetchone()
	log = zlib.decompress(blob).decode()
	assert len(log) == n, (len(log), n)
	assert "kab-agent: will-it-scale malloc1, 2 iterations" in log, log
	assert "kab-agent: done, powering off" in log, log
	PY
	# the guest profiled itself: its own kernel names page faults (the
	# workload is malloc1), on its clock: under icount a sample every
	# so many instructions
	test "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = 1 AND metric = '"'"'perf-profile.samples'"'"' AND value > 100")" = 2
	test "$(sql "SELECT sum(value) FROM samples WHERE run_id = 1 AND metric = '"'"'perf-profile.lost_samples'"'"'")" = 0.0
	sql "SELECT metric FROM samples WHERE run_id = 1 AND metric LIKE '"'"'perf-profile.children.cpu-clock.%'"'"' AND value > 1" >$TMP/prof
	grep -qx "perf-profile.children.cpu-clock.handle_mm_fault" $TMP/prof
	# and user space by the ELF symbols of the files in the initramfs
	grep -qx "perf-profile.children.cpu-clock.__munmap" $TMP/prof
	# TCG, so timed by guest instructions, one vCPU, and counted by
	# kab'"'"'s plugin: all of malloc1'"'"'s are the kernel'"'"'s but a few
	test "$(sql "SELECT clock FROM runs WHERE id = 1")" = icount:3
	# without --layout-seed the first boot is at seed 1
	test "$(sql "SELECT seed FROM runs WHERE id = 1")" = 1
	test "$(sql "SELECT smp FROM boots WHERE run_id = 1")" = 1
	ins=$(mean_of 1 perf-stat.total.instructions)
	k=$(mean_of 1 perf-stat.total.instructions:k)
	pl=$(mean_of 1 perf-stat.overall.path-length)
	echo "instructions $ins (kernel $k), $pl an op"
	check "$ins > 1e8 && $k > 0.9 * $ins && $pl > 1000 && $pl < 1e6"
'

test_expect "the initramfs is built once and then reused" '
	ls $XDG_CACHE_HOME/kab/initramfs-*.cpio >$TMP/before
	test "$(wc -l <$TMP/before)" = 1
	touch -d @1 $(cat $TMP/before)
	# the job of the first test again: its initramfs, untouched; on a
	# terminal, the live line is redrawn while the guest boots (the
	# console comes in many reads), not drawn once and left
	script -qec "TERM=xterm $KAB run --target qemu $SHORT $JOB >/dev/null" /dev/null >$TMP/tty
	# its stderr as lines, for the next test
	tr "\r" "\n" <$TMP/tty | sed "s/$(printf "\033")\[K//g" >$TMP/e2
	grep -ac "^\[1/1\] booting .*, [0-9]*:[0-5][0-9]" $TMP/e2 >$TMP/redraws || true
	cat $TMP/redraws
	test "$(cat $TMP/redraws)" -ge 3
	ls $XDG_CACHE_HOME/kab/initramfs-*.cpio >$TMP/after
	cmp $TMP/before $TMP/after
	test "$(stat -c %Y $(cat $TMP/before))" = 1
	cpio -t <$(cat $TMP/before) 2>/dev/null >$TMP/list
	grep -qx init $TMP/list
	grep -qx job.json $TMP/list
	# malloc1 does not run stress-ng: its 29 MiB stay out
	not grep -q stress-ng $TMP/list
'

test_expect "a /dev/kvm that cannot run a guest is found once, remembered, and said in one line" '
	cat $TMP/e $TMP/e2
	if [ -e $XDG_CACHE_HOME/kab/kvm-broken ]; then
		# the first boot found it (QEMU died at once) and said why
		test "$(grep -c "QEMU cannot use /dev/kvm here" $TMP/e)" = 1
		# a later kab, another process, boots TCG at once
		not grep -q "QEMU cannot use /dev/kvm here" $TMP/e2
		test "$(grep -c "QEMU could not use /dev/kvm on this machine (remembered in $XDG_CACHE_HOME/kab/kvm-broken" $TMP/e2)" = 1
		not grep -q "MSR\|Assertion\|QEMU said" $TMP/e2
		# for this host kernel, QEMU and CPU: another probes again
		# (the next test)
		sed -i "1s/^/x/" $XDG_CACHE_HOME/kab/kvm-broken
		touch $TMP/reprobe
	else
		# KVM works here, or there is none: nothing said about it
		not grep -q "/dev/kvm" $TMP/e $TMP/e2
		# and a /dev/kvm kab may open was used
		if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
			test "$(sql "SELECT accel FROM boots ORDER BY id LIMIT 1")" = kvm
		fi
	fi
'

test_expect "radixsort runs the real stress-ng inside the guest; --clock wall boots two vCPUs" '
	# the plugin named by KAB_PLUGIN (the build'"'"'s own here)
	KAB_PLUGIN=$BUILD/kab-insn.so \
	kab run --target qemu --clock wall --runs 1 --set testtime=2s \
		--set nr_threads=1 $TOP/jobs/stress-ng-radixsort.yaml >$TMP/o 2>$TMP/e
	cat $TMP/o $TMP/e
	if [ -e $TMP/reprobe ]; then
		grep -q "QEMU cannot use /dev/kvm here" $TMP/e
	fi
	id=$(sql "SELECT max(id) FROM runs")
	test "$(sql "SELECT status FROM runs WHERE id = $id")" = ok
	# timed by the host'"'"'s clock: no icount, two vCPUs by default
	test "$(sql "SELECT clock FROM runs WHERE id = $id")" = wall
	test "$(sql "SELECT smp FROM boots WHERE run_id = $id")" = 2
	ops=$(mean_of $id stress-ng.radixsort.ops)
	check "$ops > 0"
	# counted by it, each vCPU in its own slot
	check "$(mean_of $id perf-stat.total.instructions) > 1e8"
	for f in $XDG_CACHE_HOME/kab/initramfs-*.cpio; do
		cpio -t <$f 2>/dev/null >$TMP/list
		grep -qx usr/bin/stress-ng $TMP/list && exit 0
	done
	false
'

test_expect "a PVH kernel boots unpacked, once per image; KAB_BOOT=bzimage does not" '
	# Debian'"'"'s kernel has CONFIG_PVH: the first boot unpacked it
	test "$(sql "SELECT entry FROM boots WHERE run_id = 1")" = pvh
	test "$(ls $XDG_CACHE_HOME/kab/vmlinux-* | wc -l)" = 1
	file -L $XDG_CACHE_HOME/kab/vmlinux-* >$TMP/pipe
	grep -q "ELF 64-bit" $TMP/pipe
	# whole: the ELF to its section headers, and the relocations the
	# decompressor expects after it, as long as the bzImage says
	/usr/bin/python3 - $XDG_CACHE_HOME/kab/vmlinux-* $(ls /boot/vmlinuz-* | sort -V | tail -1) <<-PY
	import struct, sys
	d = open(sys.argv[1], "rb").read()
	shoff, = struct.unpack_from("<Q", d, 0x28)
	size, n = struct.unpack_from("<HH", d, 0x3a)
	assert len(d) >= shoff + size * n, (len(d), shoff, size, n)
	bz = open(sys.argv[2], "rb").read()
	setup = ((bz[0x1f1] or 4) + 1) * 512
	off, plen = struct.unpack_from("<II", bz, 0x248)
	want, = struct.unpack_from("<I", bz, setup + off + plen - 4)
	assert len(d) == want, (len(d), want)
	PY
	check "$(sql "SELECT first_sample FROM boots WHERE run_id = 1") > $(sql "SELECT hello FROM boots WHERE run_id = 1")"
	KAB_BOOT=bzimage kab run --target qemu --runs 1 --set nr_task=1 \
		--set warmup=0 --set testtime=1s $JOB >$TMP/o 2>&1 || { cat $TMP/o; false; }
	id=$(sql "SELECT max(id) FROM runs")
	test "$(sql "SELECT entry || '"'"' '"'"' || outcome FROM boots WHERE run_id = $id")" = "bzimage ok"
	# a bzImage whose payload is not a kernel boots as given (and fails)
	head -c 2048 $(ls /boot/vmlinuz-* | sort -V | tail -1) >$TMP/fake-bz
	head -c 100000 /dev/urandom >>$TMP/fake-bz
	rc=0
	kab run --target qemu --kernel $TMP/fake-bz --runs 1 --timeout 20 \
		--set nr_task=1 --set warmup=0 --set testtime=1s $JOB >$TMP/o 2>&1 || rc=$?
	cat $TMP/o
	test $rc = 1
	test "$(sql "SELECT entry FROM boots ORDER BY id DESC LIMIT 1")" = bzimage
	test -e $XDG_CACHE_HOME/kab/vmlinux-*.no-pvh
'

test_expect "a kernel that panics at boot is a panic, with no samples" '
	before=$(sql "SELECT count(*) FROM samples")
	expect_error 1 "boot panic: .*Kernel panic" -- "$KAB" run --verbose --target qemu \
		--cmdline "rdinit=/nonexistent" $SHORT $JOB
	grep -q "the console.s last lines" $TMP/stderr
	# they are the stored console'"'"'s last five lines, no more
	sed -n "/the console.s last lines:$/,\$p" $TMP/stderr | sed -n "s/^kab: note: | //p" >$TMP/tail
	/usr/bin/python3 -c "
import sqlite3, sys, zlib
blob, = sqlite3.connect(sys.argv[1]).execute(\"SELECT console FROM boots ORDER BY id DESC LIMIT 1\").fetchone()
lines = zlib.decompress(blob).decode(errors=\"replace\").replace(\"\r\", \"\").rstrip(\"\n\").split(\"\n\")
print(\"\n\".join(l.rstrip() for l in lines[-5:]))" "$KAB_DB" >$TMP/want
	cat $TMP/tail
	sed "s/ *$//" $TMP/tail | diff $TMP/want -
	# --verbose shows the QEMU it ran, as a shell would take it
	grep -q "^kab: running [^ ]*qemu-system-x86_64 -name kab .* -append .*rdinit=/nonexistent" $TMP/stderr
	test "$(sql "SELECT count(*) FROM samples")" = "$before"
	test "$(sql "SELECT outcome FROM boots ORDER BY id DESC LIMIT 1")" = panic
	sql "SELECT problem FROM boots ORDER BY id DESC LIMIT 1" >$TMP/pipe
	grep -q "Kernel panic" $TMP/pipe
'

test_expect "a job's THP settings are applied in the guest, refused here" '
	kab run --target qemu --set thp_enabled=never --set thp_defrag=never \
		--set drop_caches=3 --runs 1 --set nr_task=1 --set warmup=0 \
		--set testtime=1s $JOB >$TMP/o 2>&1
	id=$(sql "SELECT max(id) FROM runs")
	sql "SELECT host FROM runs WHERE id = $id" >$TMP/host
	grep -q "\"thp_enabled\":\"never\"" $TMP/host
	grep -q "\"thp_defrag\":\"never\"" $TMP/host
	sql "SELECT params FROM runs WHERE id = $id" >$TMP/pipe
	grep -q "\"thp_enabled\":\"never\"" $TMP/pipe
	now=$(sed "s/.*\[\(.*\)\].*/\1/" /sys/kernel/mm/transparent_hugepage/enabled)
	other=never; [ "$now" = never ] && other=always
	expect_error 1 "thp_enabled=$other would change this machine (it is $now): run the job with --target qemu" -- \
		"$KAB" run --set thp_enabled=$other --runs 1 $JOB
	expect_error 2 "thp_enabled: .sometimes. is not a valid value" -- \
		"$KAB" run --set thp_enabled=sometimes $JOB
'

test_expect "a kernel path that is missing or not a bzImage is refused" '
	expect_error 2 "kernel /nonexistent: No such file" -- "$KAB" run \
		--target qemu --kernel /nonexistent $SHORT $JOB
	expect_error 2 "not a bzImage" -- "$KAB" run --target qemu \
		--kernel /etc/passwd $SHORT $JOB
	expect_error 2 "need --target qemu" -- "$KAB" run --kernel /boot/x $JOB
'

test_expect "a missing QEMU says how to install it" '
	mkdir -p $TMP/bin
	ln -sf "$(command -v stress-ng)" $TMP/bin/stress-ng
	expect_error 1 "QEMU is not installed.*apt-get install qemu-system-x86" -- \
		env PATH=$TMP/bin "$KAB" run --target qemu $SHORT $JOB
'

# Exact mode takes the host out: with a CPU hog beside the boots, the
# same kernel twice gives the same boot means (to the last digit), and
# a change the kernel makes (clearing each page it frees: init_on_free=1,
# a page more to clear a call) is decided with 2 boots a side.
test_expect "exact mode: an A/B under a CPU hog, at one layout a seed, decided with 2 boots a side" '
	h1=$(hog)
	h2=$(hog)
	rc=0
	kab --db $TMP/x.db ab --a-label plain --b-label init_on_free \
		--b-cmdline init_on_free=1 --job $JOB $EXACTSET --monitors none \
		--boots 2 --runs-per-boot 2 >$TMP/o 2>$TMP/e || rc=$?
	kill $h1 $h2
	cat $TMP/o $TMP/e
	test $rc = 0
	# the host was busy, and it is stored; under icount that is no
	# reason for a note: the numbers are the guest'"'"'s alone
	check "$(sqlite3 $TMP/x.db "SELECT min(host_busy) FROM boots") > 0.25"
	not grep -q "other processes kept" $TMP/e
	# round k of each side at layout seed k, stored with each run
	test "$(sqlite3 $TMP/x.db "SELECT group_concat(k.label || '"'"':'"'"' || r.seed, '"'"' '"'"') FROM runs r JOIN kernels k ON k.id = r.kernel_id ORDER BY r.id")" = "plain:1 init_on_free:1 plain:2 init_on_free:2"
	# the guest had it: the kernel on its command line, the agent too
	sqlite3 $TMP/x.db "SELECT k.cmdline FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE r.id = 3" >$TMP/cmdline
	grep -q " norandmaps kab.seed=[0-9a-f]\{16\} page_alloc.shuffle=1 .* --seed 2$" $TMP/cmdline
	kab --db $TMP/x.db show 3 | grep -q "^  layout: *seed 2 "
	# a seed is a layout: plain at seed 2 again, under the hogs, is
	# the same to the last digit
	h1=$(hog)
	kab --db $TMP/x.db run --target qemu \
		--layout-seed 2 --repeat 2 --runs 2 $EXACTSET --monitors none $JOB \
		>$TMP/o2 2>$TMP/e2 || { kill $h1; cat $TMP/e2; false; }
	kill $h1
	# without --kernel-label each boot is named by the release it ran
	rel=$(sqlite3 $TMP/x.db "SELECT k.release FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE r.id = 5")
	[ -n "$rel" ]
	grep -q "^boot 1/2 $rel: run 5 ok, 2 iterations" $TMP/o2
	grep -q "^boot 2/2 $rel: run 6 ok" $TMP/o2
	not grep -q "(null)" $TMP/o2 $TMP/e2
	q="SELECT group_concat(value, '"'"' '"'"') FROM (SELECT value FROM samples WHERE metric = '"'"'will-it-scale.per_process_ops'"'"' AND run_id ="
	test "$(sqlite3 $TMP/x.db "$q 3 ORDER BY iteration)")" = \
	     "$(sqlite3 $TMP/x.db "$q 5 ORDER BY iteration)")"
	test "$(sqlite3 $TMP/x.db "SELECT group_concat(seed) FROM runs WHERE id >= 5")" = 2,3
	# a page more to clear a call: decided, at each seed
	grep -q "^note: timed in guest instructions (QEMU icount)" $TMP/o
	grep -q "^note: [0-9]* metrics were measured at the same layout seeds on both sides" $TMP/o
	grep -Eq "^kab noticed a [0-9.]+% regression of will-it-scale.per_process_ops: plain -> init_on_free" $TMP/o
	grep -Eq "^ +[0-9]+ +-[0-9.]+% +[0-9]+ +will-it-scale.per_process_ops$" $TMP/o
	not grep -q "fewer than 2 boots" $TMP/o
'

# The cost model reads the guest's registers and memory: QEMU 10's
# plugin API.  With an older QEMU its refusal is t4's.
qemu_major=$("${KAB_QEMU:-qemu-system-x86_64}" --version 2>/dev/null |
	sed -n "s/^QEMU emulator version \([0-9]*\)\..*/\1/p")
if [ "${qemu_major:-0}" -ge 10 ]; then
test_expect "--model spr: lkp's rows of the modelled window, the same at the same seed, over the window's own instructions" '
	for i in 1 2; do
		kab --db $TMP/m.db run --target qemu --model spr --layout-seed 1 \
			--runs 2 $EXACTSET $JOB >$TMP/o 2>$TMP/e || { cat $TMP/e; false; }
	done
	cat $TMP/o
	q="SELECT group_concat(value, '"'"' '"'"') FROM (SELECT value FROM samples WHERE metric ="
	for mt in perf-stat.total.cycles:spr perf-stat.total.dTLB-load-misses:spr \
		perf-stat.total.cache-misses:spr will-it-scale.per_process_ops:spr; do
		a=$(sqlite3 $TMP/m.db "$q '"'"'$mt'"'"' AND run_id = 1 ORDER BY iteration)")
		b=$(sqlite3 $TMP/m.db "$q '"'"'$mt'"'"' AND run_id = 2 ORDER BY iteration)")
		echo "$mt: $a / $b"
		[ -n "$a" ] && [ "$a" = "$b" ]
	done
	# the model timed the instructions between the marks
	check "$(sqlite3 $TMP/m.db "SELECT max(abs(c.value / p.value - i.value)) FROM samples c JOIN samples p USING (run_id, iteration) JOIN samples i USING (run_id, iteration) WHERE c.metric = '"'"'perf-stat.total.cycles:spr'"'"' AND p.metric = '"'"'perf-stat.overall.cpi:spr'"'"' AND i.metric = '"'"'perf-stat.total.instructions'"'"'") < 1"
	# every window'"'"'s code was translated again with the model'"'"'s
	# callbacks: malloc1 loads once in every few instructions
	check "$(sqlite3 $TMP/m.db "SELECT min(l.value / i.value) FROM samples l JOIN samples i USING (run_id, iteration) WHERE l.metric = '"'"'perf-stat.total.dTLB-loads:spr'"'"' AND i.metric = '"'"'perf-stat.total.instructions'"'"'") > 0.1"
	# walks read tables the plugin found: every window walked a page
	check "$(sqlite3 $TMP/m.db "SELECT min(value) FROM samples WHERE metric = '"'"'perf-stat.total.page-walk-refs:spr'"'"'") > 0"
'

# QEMU 10 runs several vCPUs in icount'"'"'s one thread: lkp'"'"'s
# malloc1 on 100% of two CPUs, the same kernel on both sides
test_expect "exact mode on 2 vCPUs: nr_task=2, both sides the same to the last digit" '
	kab --db $TMP/s.db ab --a-label one --b-label other --smp 2 \
		--clock icount --job $JOB --set nr_task=2 --set warmup=1 \
		--set testtime=1s --monitors perf-stat --boots 2 \
		--runs-per-boot 1 >$TMP/o 2>$TMP/e || { cat $TMP/e; false; }
	cat $TMP/o
	test "$(sqlite3 $TMP/s.db "SELECT group_concat(smp) FROM boots")" = "2,2,2,2"
	# two processes ran, each counted
	check "$(sqlite3 $TMP/s.db "SELECT min(value) FROM samples WHERE metric = '"'"'will-it-scale.2.processes'"'"'") > 0"
	q="SELECT group_concat(value, '"'"' '"'"') FROM (SELECT value FROM samples s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id WHERE s.metric = '"'"'perf-stat.total.instructions'"'"' AND k.label ="
	a=$(sqlite3 $TMP/s.db "$q '"'"'one'"'"' ORDER BY r.id)")
	b=$(sqlite3 $TMP/s.db "$q '"'"'other'"'"' ORDER BY r.id)")
	echo "$a / $b"
	[ -n "$a" ] && [ "$a" = "$b" ]
	grep -Eq "^ +[0-9.]+ +[-+]?0\.0% +[0-9.]+ +will-it-scale\.per_process_ops$" $TMP/o
'
fi

test_done
