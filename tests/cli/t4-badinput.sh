#!/bin/bash
# Bad input gets one line naming the problem and the fix, a non-zero
# exit, and nothing already stored is lost.
. "$(dirname "$0")/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
QUICK="--runs 1 --set nr_task=1 --set warmup=0 --set testtime=1s"

job() {
	printf "%s\n" "$@" >$TMP/job.yaml
}

test_expect "a first run to have something to lose" '
	kab run $QUICK $JOB >/dev/null
	sql "SELECT count(*) FROM samples" >$TMP/before
	test "$(cat $TMP/before)" -gt 10
'

test_expect "an unknown workload names the known ones" '
	job "suite: will-it-scale" "test: malloc9"
	expect_error 2 "unknown workload .*kab knows will-it-scale malloc1, stress-ng radixsort" -- "$KAB" run $TMP/job.yaml
'

test_expect "an unknown parameter names the known ones; a misspelt one, which" '
	job "suite: will-it-scale" "test: malloc1" "nr_tsak: 2"
	expect_error 2 "unknown parameter .nr_tsak. for will-it-scale malloc1: did you mean .nr_task.?" -- "$KAB" run $TMP/job.yaml
	expect_error 2 "unknown parameter .frob. .*it takes mode, nr_task" -- "$KAB" run --set frob=1 $JOB
	# a key of lkp'"'"'s that kab does not use is named, not refused
	job "suite: will-it-scale" "test: malloc1" "cpufreq_governor: performance"
	kab ci matrix $TMP/job.yaml >$TMP/o 2>$TMP/e
	grep -qx "kab: note: $TMP/job.yaml: leaves out keys kab does not use: cpufreq_governor" $TMP/e
	grep -q "\"test\":\"malloc1\"" $TMP/o
'

test_expect "nr_task 0 and abc% are refused with the accepted forms" '
	expect_error 2 "nr_task: .0. is not a task count: use a number" -- "$KAB" run --set nr_task=0 $JOB
	expect_error 2 "nr_task: .abc%. is not a task count" -- "$KAB" run --set nr_task=abc% $JOB
'

test_expect "a malformed job file gives its line" '
	job "suite: will-it-scale" "test: [malloc1" "mode: process"
	expect_error 2 "job.yaml:3: malformed YAML" -- "$KAB" run $TMP/job.yaml
	expect_error 2 "cannot open .*nonexistent.yaml" -- "$KAB" run $TMP/nonexistent.yaml
	job "just a string"
	expect_error 2 "a YAML mapping" -- "$KAB" run $TMP/job.yaml
'

test_expect "bad --runs is a usage error" '
	expect_error 2 "--runs .0." -- "$KAB" run --runs 0 $JOB
	expect_error 2 "--runs .x." -- "$KAB" run --runs x $JOB
'

test_expect "a corrupt database is refused and left as it was" '
	head -c 8192 /dev/urandom >$TMP/corrupt.db
	sum=$(md5sum <$TMP/corrupt.db)
	expect_error 1 "not a usable database .*move it away, or pass --db" -- "$KAB" run --db $TMP/corrupt.db $QUICK $JOB
	expect_error 1 "not a usable database" -- "$KAB" ls --db $TMP/corrupt.db
	test "$(md5sum <$TMP/corrupt.db)" = "$sum"
'

test_expect "a database kab cannot create or write is refused" '
	expect_error 1 "cannot create .*pass --db" -- "$KAB" run --db /proc/version/kab.db $QUICK $JOB
	mkdir $TMP/dir.db
	expect_error 1 "cannot open the database" -- "$KAB" run --db $TMP/dir.db $QUICK $JOB
'

test_expect "a database from a newer kab is refused, not rewritten" '
	# one schema newer than this kab writes is already too new
	next=$(($(sqlite3 $KAB_DB "PRAGMA user_version") + 1))
	cp $KAB_DB $TMP/newer.db
	sqlite3 $TMP/newer.db "PRAGMA user_version = $next"
	expect_error 1 "newer than this kab.*upgrade kab" -- "$KAB" run --db $TMP/newer.db $QUICK $JOB
	test "$(sqlite3 $TMP/newer.db "PRAGMA user_version")" = $next
'

test_expect "a bad --monitors list or --kconfig is refused by the commands that take it" '
	# what kab ab and kab bisect pass on reaches a guest'"'"'s kernel
	# command line: only monitor names and perf-profile=HZ do
	expect_error 2 "--monitors: .nosuch. is not a monitor: use all, none, or some of proc-vmstat,meminfo,numa-vmstat" \
		-- "$KAB" run --monitors meminfo,nosuch $JOB
	expect_error 2 "perf-profile=HZ samples at HZ, 100 to 20000" \
		-- "$KAB" run --monitors perf-profile=20001 $JOB
	# (refused at once: an A/B that boots instead is stopped at 60 s)
	expect_error 2 "--monitors: .all rdinit=/bin/sh. is not a monitor" \
		-- timeout 60 "$KAB" ab --monitors "all rdinit=/bin/sh" --job $JOB
	expect_error 2 "--monitors: .dmesg=1. is not a monitor" \
		-- timeout 60 "$KAB" bisect --monitors dmesg=1 --job $JOB \
		--tree $TMP --good a --bad b --metric x
	# a directory that is no kernel tree, not make'"'"'s words for it
	mkdir -p $TMP/notree
	expect_error 2 "^kab: $TMP/notree is not the top of a kernel tree (no Kconfig and arch/x86/Kconfig there): give one with --tree DIR$" \
		-- "$KAB" build --tree $TMP/notree
	# a config fragment that cannot be read: one line before anything
	# is built, booted or stored, whichever command builds
	mkdir -p $TMP/kt/arch/x86
	touch $TMP/kt/Kconfig $TMP/kt/arch/x86/Kconfig $TMP/frag
	for cmd in "build --tree $TMP/kt" "run --tree $TMP/kt $JOB" \
		"ab --tree $TMP/kt --a-rev a --b-rev b --job $JOB" \
		"bisect --tree $TMP/kt --good a --bad b --job $JOB --metric x" \
		"watch --tree $TMP/kt --from a --job $JOB --metric x"; do
		# shellcheck disable=SC2086
		expect_error 2 "^kab: --kconfig $TMP/nofrag: No such file or directory: give a readable file of CONFIG_ lines\$" \
			-- timeout 60 "$KAB" --db $TMP/kc.db $cmd --kconfig $TMP/frag --kconfig $TMP/nofrag
	done
	not test -e $TMP/kc.db
	# and kab-agent itself, whatever starts it
	rc=0
	"$KAB_AGENT" --job /nonexistent --monitors "all quiet" 2>$TMP/e || rc=$?
	test $rc = 2
	grep -q "kab-agent: --monitors: .all quiet. is not a monitor" $TMP/e
'

test_expect "options a target cannot honour are refused by run and ab, each in a line" '
	K=$TMP/k
	: >$K
	AB="ab --a $K --b $K --job $JOB"
	while IFS="|" read -r args msg; do
		# shellcheck disable=SC2086
		expect_error 2 "^kab: $msg\$" -- timeout 60 "$KAB" $args
	done <<-EOF
	run --target bogus $JOB|--target .bogus.: use local, qemu, ssh://\[user@\]host\[:port\], lava:URL or lava:local
	run --device-type a/b $JOB|--device-type .a/b.: give a LAVA device type.s name, such as qemu
	run|no job: try .kab run will-it-scale-malloc1. (.kab run --list-jobs. lists them)
	run --device-type qemu --target local $JOB|--device-type and --dry-run need --target lava:URL or lava:local
	run --dry-run $JOB|--device-type and --dry-run need --target lava:URL or lava:local
	run --dry-run --target lava:local --tree $TMP $JOB|--dry-run prints the job of a kernel built already: give --kernel PATH, not --tree
	run --kernel $K --target local $JOB|--kernel, --cmdline and --clock need --target qemu (or lava:)
	run --cmdline quiet $JOB|--kernel, --cmdline and --clock need --target qemu (or lava:)
	run --clock icount --target ssh://h $JOB|--kernel, --cmdline and --clock need --target qemu (or lava:)
	$AB --devices 2 --target lava:local|--devices 2: lava:local has one device (the dispatcher here); several are a LAVA server.s: --target lava:URL
	$AB --device-type a/b --target lava:local|--device-type .a/b.: give a LAVA device type.s name, such as qemu
	$AB --devices 0 --target lava:local|--devices .0.: give 1 to 64 devices
	$AB --devices 65 --target lava:local|--devices .65.: give 1 to 64 devices
	$AB --device-type qemu|--device-type and --devices need --target lava:URL or lava:local
	$AB --devices 2 --target ssh://h|--device-type and --devices need --target lava:URL or lava:local
	$AB --clock icount --target lava:local|--clock is QEMU.s: a LAVA device is timed by its own clock
	$AB --clock icount --target ssh://h|--clock is QEMU.s: a test machine is timed by its own clock
	EOF
'

test_expect "option values out of their range are refused by run, ab, bisect and ci, each in a line" '
	K=$TMP/k
	: >$K
	expect_error 2 "^kab: --layout-seed .x.: give a whole number from 1 to 4294967295$" -- \
		"$KAB" ab --a $K --b $K --job $JOB --layout-seed x
	expect_error 2 "^kab: --layout-seed 4294967295: 3 boots take seeds past 4294967295; give a smaller one$" -- \
		"$KAB" ab --a $K --b $K --job $JOB --layout-seed 4294967295 --boots 3
	for cmd in "ab --a $K --b $K --job $JOB" "run $JOB" "ci matrix $JOB"; do
		# shellcheck disable=SC2086
		expect_error 2 "^kab: --clock .bogus.: use wall, icount, icount:N" -- \
			"$KAB" $cmd --clock bogus
	done
	# LAVA quotes the kernel'"'"'s command line for a shell: no quotes
	expect_error 2 "^kab: --cmdline: .\". cannot go to LAVA, which quotes the kernel.s command line for a shell: leave out quotes" -- \
		"$KAB" bisect --good a --bad b --tree $TMP --metric x --job $JOB \
		--target lava:local --cmdline "a=\"b\""
	# stand-in QEMUs that say a version (or none) and boot nothing
	for v in 7.2.22 9.2.0 10.0.2 11.1.0 ""; do
		printf "#!/bin/sh\n[ \"\$1\" = --version ] && [ -n \"%s\" ] && echo \"QEMU emulator version %s (stand-in)\"\nexit 1\n" "$v" "$v" >$TMP/qemu-$v
		chmod +x $TMP/qemu-$v
	done
	# icount runs a guest'"'"'s vCPUs in one thread, which QEMU 7.2
	# cannot do with more than one; QEMU 10 can
	for cmd in "run --target qemu $JOB" "ab --a $K --b $K --job $JOB" \
		"bisect --good a --bad b --tree $TMP --metric x --job $JOB"; do
		# shellcheck disable=SC2086
		KAB_QEMU=$TMP/qemu-7.2.22 expect_error 2 "^kab: --smp 2 with --clock icount: needs QEMU 10 or later, and this is QEMU 7\.2\.[0-9]* (its icount boot stalls at .Booting SMP configuration.): use --smp 1, --clock wall for more CPUs, or QEMU 10 (bookworm-backports has it)$" -- \
			"$KAB" $cmd --smp 2 --clock icount
	done
	KAB_QEMU=$TMP/qemu-9.2.0 expect_error 2 "needs QEMU 10 or later, and this is QEMU 9\.2\.0 (" -- \
		"$KAB" run --target qemu --smp 3 --clock icount $JOB
	KAB_QEMU=$TMP/qemu- expect_error 2 "needs QEMU 10 or later, and this is a QEMU that does not say its version (" -- \
		"$KAB" run --target qemu --smp 2 --clock icount $JOB
	for v in 10.0.2 11.1.0; do
		rc=0
		KAB_QEMU=$TMP/qemu-$v "$KAB" run --target qemu --smp 2 --clock icount --kernel $K $JOB >$TMP/o 2>$TMP/e || rc=$?
		cat $TMP/e
		# past the check: the boot itself refuses the empty kernel
		[ $rc = 2 ]
		grep -q "^kab: kernel .* is not a bzImage" $TMP/e
	done
	# the cost model: a core kab models, exact mode, QEMU 10, the
	# plugin (the qemu target, perf-stat)
	expect_error 2 "^kab: --model .xyz.: no such model; kab models spr (Sapphire Rapids (Golden Cove), one core), cpl (" -- \
		"$KAB" run --target qemu --model xyz $JOB
	expect_error 2 "^kab: --model spr with --clock wall: the model is exact mode.s (TCG, icount); leave out --clock wall$" -- \
		"$KAB" run --target qemu --model spr --clock wall $JOB
	# --tree boots what it builds under QEMU: no --target needed (a
	# QEMU that says 10, whatever this machine has)
	KAB_QEMU=$TMP/qemu-10.0.2 expect_error 1 "^kab: $TMP is not the top of a kernel tree" -- \
		"$KAB" run --tree $TMP --model spr $JOB
	for cmd in "run --target qemu $JOB" "ab --a $K --b $K --job $JOB" \
		"bisect --good a --bad b --tree $TMP --metric x --job $JOB"; do
		# shellcheck disable=SC2086
		KAB_QEMU=$TMP/qemu-7.2.22 expect_error 2 "^kab: --model cpl: needs QEMU 10 or later (it reads the guest.s registers and memory), and this is QEMU 7\.2\.[0-9]*: install QEMU 10 (bookworm-backports has it)$" -- \
			"$KAB" $cmd --model cpl
		# shellcheck disable=SC2086
		KAB_QEMU=$TMP/qemu-10.0.2 expect_error 2 "^kab: --model spr: the model is counted by kab.s QEMU plugin, with perf-stat.s rows: give --target qemu and a --monitors with perf-stat$" -- \
			"$KAB" $cmd --model spr --monitors none
	done
	KAB_QEMU=$TMP/qemu-10.0.2 expect_error 2 "^kab: --model spr: the model is counted by kab.s QEMU plugin" -- \
		"$KAB" ab --a-setup true --b-setup true --job $JOB --target ssh://nobody@localhost --model spr
	KAB_QEMU=$TMP/qemu-10.0.2 expect_error 2 "^kab: --model spr: the model is counted by kab.s QEMU plugin" -- \
		"$KAB" ab --a $K --b $K --job $JOB --target lava:local --model spr
	KAB_QEMU=$TMP/qemu-10.0.2 expect_error 2 "^kab: --model spr: the model is counted by kab.s QEMU plugin" -- \
		"$KAB" bisect --good a --bad b --tree $TMP --metric x --job $JOB --target lava:local --model spr
	for t in ssh://nobody@localhost lava:local; do
		KAB_QEMU=$TMP/qemu-10.0.2 expect_error 2 "^kab: --model spr: the model is counted by kab.s QEMU plugin" -- \
			"$KAB" run --target $t --model spr $JOB
	done
	expect_error 2 "^kab: --runs-per-boot .10001.: give 1 to 10000$" -- \
		"$KAB" ab --a $K --b $K --job $JOB --runs-per-boot 10001
	# (a bound on the test: a --repeat taken would run)
	for r in 0 1001 1e2 0x10; do
		expect_error 2 "^kab: --repeat .$r.: give a number of runs of each job from 1 to 1000$" -- \
			timeout -s KILL 30 "$KAB" run --repeat $r $JOB
	done
	expect_error 2 "^kab: --device-type .a b.: give a LAVA device type.s name, such as qemu$" -- \
		"$KAB" ab --a $K --b $K --job $JOB --target lava:http://lava.test/ --device-type "a b"
	expect_error 2 "^kab: --device-type .a;b.: give a LAVA device type.s name, such as qemu$" -- \
		"$KAB" bisect --good a --bad b --tree $TMP --metric x --target lava:http://lava.test/ --device-type "a;b"
	printf "[lava]\ngrace = 90000\n" >$TMP/grace.cfg
	KAB_CONFIG=$TMP/grace.cfg expect_error 2 "^kab: $TMP/grace.cfg: \[lava\] grace .90000. is not a number of seconds from 1 to 86400$" -- \
		"$KAB" run --target lava:http://lava.test/ $JOB
	printf "[lava]\ngrace = 0.5\n" >$TMP/grace.cfg
	KAB_CONFIG=$TMP/grace.cfg expect_error 2 "\[lava\] grace .0.5. is not a number" -- \
		"$KAB" run --target lava:http://lava.test/ $JOB
	# the ends of the range are in it, a half past is not
	printf "[lava]\ngrace = 86400.5\n" >$TMP/grace.cfg
	KAB_CONFIG=$TMP/grace.cfg expect_error 2 "\[lava\] grace .86400.5. is not a number" -- \
		"$KAB" run --target lava:http://lava.test/ $JOB
	for g in 1 86400; do
		printf "[lava]\ngrace = $g\nboot-timeout = $g\n" >$TMP/grace.cfg
		KAB_CONFIG=$TMP/grace.cfg "$KAB" run --target lava:http://lava.test/ --dry-run $JOB >$TMP/o
		grep -q "^job_name: kab will-it-scale malloc1$" $TMP/o
	done
	printf "[lava]\nboot-timeout = 86400.5\n" >$TMP/grace.cfg
	KAB_CONFIG=$TMP/grace.cfg expect_error 2 "\[lava\] boot-timeout .86400.5. is not a number" -- \
		"$KAB" run --target lava:http://lava.test/ $JOB
	# a server URL is one word of printable characters, no quotes,
	# backslashes or angle brackets, at most 1024 bytes; what is not
	# is refused before anything, shown with its controls escaped
	long=$(head -c 1100 /dev/zero | tr "\0" a)
	for u in "http://lava test/" "http://lava.test/\"x" "http://lava.test/\\x" \
		"http://lava.test/<x>" "http://lava.test/$(printf "\tx")" \
		"http://lava.test/$(printf "\033[31mx")" "http://$long/"; do
		expect_error 2 "^kab: lava:http://.*: not a URL kab takes$" -- \
			"$KAB" run --target "lava:$u" --dry-run $JOB
	done
	not grep -q "$(printf "\033")" $TMP/stderr
	# shown whole up to 100 bytes, the first 100 and "..." past them
	a92=$(head -c 92 /dev/zero | tr "\0" a)
	expect_error 2 "^kab: lava:http://$a92 : not a URL kab takes$" -- \
		"$KAB" run --target "lava:http://$a92 " --dry-run $JOB
	expect_error 2 "^kab: lava:http://${a92}b\.\.\.: not a URL kab takes$" -- \
		"$KAB" run --target "lava:http://${a92}b " --dry-run $JOB
	expect_error 2 "^kab: lava:ftp://${a92}aa\.\.\.: give the server.s URL" -- \
		"$KAB" run --target "lava:ftp://${a92}aab" --dry-run $JOB
	expect_error 2 "^kab: lava:ftp://${a92}aa: give the server.s URL" -- \
		"$KAB" run --target "lava:ftp://${a92}aa" --dry-run $JOB
'

test_expect "nothing stored before was lost" '
	test "$(sql "SELECT count(*) FROM samples")" = "$(cat $TMP/before)"
	test "$(sql "SELECT count(*) FROM runs")" = 1
'

test_expect "kab ab: a side's setup or release without a test machine is refused, each" '
	for opt in "--a-setup true" "--b-setup true" "--a-release 6.1" "--b-release 6.1"; do
		# shellcheck disable=SC2086
		expect_error 2 "^kab: --a-setup, --b-setup and the releases are for a test machine: add --target ssh://host$" -- \
			"$KAB" ab --a-label a --b-label b --job $JOB $opt
	done
'

test_done
