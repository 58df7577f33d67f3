#!/bin/bash
# The lava target with LAVA's own parts: the job definitions kab
# writes pass lava-common's schema (strict), and lava-run, Debian's
# dispatcher, runs them on a qemu device dictionary kab writes, booting
# Debian's kernel under QEMU; the records come back through LAVA's log.
. "$(dirname "$0")/lib.sh"

QUICK="--set nr_task=1 --set warmup=0 --set testtime=1s --monitors none"
JOB=$TOP/jobs/will-it-scale-malloc1.yaml
# lava-common is Debian's python3's, not a virtualenv's
LPY=/usr/bin/python3
# the guests measure with the plain agent (ASan's malloc is not malloc1's)
[ -z "${KAB_SAN:-}" ] || export KAB_AGENT=$TOP/build/kab-agent

cat >$TMP/validate.py <<'EOF'
import sys, yaml
from lava_common.schemas import validate
n = 0
for d in yaml.safe_load_all(sys.stdin):
    validate(d, strict=True, extra_context_variables=[])
    n += 1
print(n)
EOF

test_expect "--dry-run prints job definitions LAVA's schema takes, strict, and stores nothing" '
	kab run --target lava:local --dry-run --runs 2 $QUICK $JOB >$TMP/q.yaml
	cat $TMP/q.yaml
	[ "$($LPY $TMP/validate.py <$TMP/q.yaml)" = 1 ]
	grep -q "^device_type: qemu$" $TMP/q.yaml
	grep -q "^    to: tmpfs$" $TMP/q.yaml
	grep -q -- "-- --iterations 2 --monitors none --out /dev/console --console\"$" $TMP/q.yaml
	# the ramdisk is kab'"'"'s initramfs, built and cached here
	f=$(sed -n "s|^ *url: file://\(.*initramfs-.*\)$|\1|p" $TMP/q.yaml)
	test -s "$f"
	# a board: TFTP and iPXE, the agent'"'"'s arguments in the context
	kab run --target lava:local --device-type x86-board --dry-run \
		--cmdline mitigations=off $QUICK stress-ng-radixsort >$TMP/b.yaml
	[ "$($LPY $TMP/validate.py <$TMP/b.yaml)" = 1 ]
	grep -q "^    to: tftp$" $TMP/b.yaml
	grep -q "^    method: ipxe$" $TMP/b.yaml
	grep -qx "  extra_kernel_args: panic=-1 softlockup_panic=1 oops=panic rdinit=/init mitigations=off -- --iterations 3 --monitors none --out /dev/console --console" $TMP/b.yaml
	# --timeout is the test'"'"'s seconds, 1 too: 120 s to boot and 1 to
	# test is 3 minutes an action, 13 with the job'"'"'s 10 of slack
	kab run --target lava:local --dry-run --timeout 1 $QUICK $JOB >$TMP/t1.yaml
	sed -n "/^timeouts:/,/^context:/p" $TMP/t1.yaml | tr -d " \n" |
		grep -q "^timeouts:job:minutes:13action:minutes:3connection:minutes:2context:$"
	# without --timeout the test has 60 s, and 10 s an iteration more
	# than the job takes (2 x (20 s + 0.2 s to start)): 120.4 s, 3
	# minutes; its boot 120 s, its job 10 minutes more
	kab run --target lava:local --dry-run --runs 2 --set nr_task=1 --set warmup=0 \
		--set testtime=20s --monitors none $JOB >$TMP/t20.yaml
	sed -n "/^timeouts:/,/^context:/p;/^- test:/,/minutes/p" $TMP/t20.yaml | tr -d " \n" |
		grep -qx "timeouts:job:minutes:15action:minutes:5connection:minutes:2context:-test:timeout:minutes:3"
	# a QEMU device'"'"'s kernel: its console, room for TCG'"'"'s watchdogs
	grep -qF "image_arg: -kernel {kernel} -append \"console=ttyS0,115200 panic=-1 softlockup_panic=1 oops=panic rdinit=/init watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=60 -- --iterations 2 --monitors none --out /dev/console --console\"" $TMP/t20.yaml
	grep -qx "job_name: kab will-it-scale malloc1" $TMP/t20.yaml
	# one document a job of the file
	kab run --target lava:local --dry-run --set nr_task=[1,2] $JOB >$TMP/two.yaml
	[ "$($LPY $TMP/validate.py <$TMP/two.yaml)" = 2 ]
	# each headed by its own job, and only its own
	grep "^# kab: " $TMP/two.yaml >$TMP/heads
	[ "$(wc -l <$TMP/heads)" = 2 ]
	grep -q "^# kab: will-it-scale malloc1 (bind=core mode=process nr_task=1 test=malloc1 .*), 3 iterations$" <(sed -n 1p $TMP/heads)
	grep -q "^# kab: will-it-scale malloc1 (bind=core mode=process nr_task=2 test=malloc1 .*), 3 iterations$" <(sed -n 2p $TMP/heads)
	# a lab fetches the files from [lava] files-url: each copied once
	# into [lava] files, named by its content
	mkdir -p $HOME/.config/kab $TMP/files
	printf "[lava]\n\tfiles = $TMP/files\n\tfiles-url = http://files.test/kab\n" >$HOME/.config/kab/config
	kab run --target lava:http://lava.test/ --dry-run $QUICK $JOB >$TMP/f.yaml
	K=$(ls /boot/vmlinuz-* | sort -V | tail -1)
	k=kernel-$(sha256sum <$K | cut -c1-16)
	grep -qx "        url: http://files.test/kab/$k" $TMP/f.yaml
	cmp $K $TMP/files/$k
	test "$(stat -c %a $TMP/files/$k)" = 644
	i=$(sed -n "s|^ *url: http://files.test/kab/\(initramfs-[0-9a-f]\{16\}\.cpio\)$|\1|p" $TMP/f.yaml)
	test -s "$TMP/files/$i"
	# the URL with its slash: one slash; a file there is not copied again
	touch -d @1 $TMP/files/$k
	printf "[lava]\n\tfiles = $TMP/files\n\tfiles-url = http://files.test/kab/\n" >$HOME/.config/kab/config
	kab run --target lava:http://lava.test/ --dry-run $QUICK $JOB >$TMP/f2.yaml
	grep -qx "        url: http://files.test/kab/$k" $TMP/f2.yaml
	test "$(stat -c %Y $TMP/files/$k)" = 1
	rm $HOME/.config/kab/config
	test ! -e $KAB_DB
'

test_expect "what LAVA cannot take or kab cannot do is a usage error naming the fix" '
	expect_error 2 "cannot go to LAVA.*leave out quotes" -- \
		"$KAB" run --target lava:local --dry-run --cmdline "a=\"b\"" $JOB
	# a server: its token from the environment or the config only
	expect_error 2 "no LAVA token: set KAB_LAVA_TOKEN or \[lava\] token" -- \
		"$KAB" run --target lava:http://lava.example $QUICK $JOB
	expect_error 2 "give the server.s URL" -- \
		"$KAB" run --target lava:ftp://lava.example $QUICK $JOB
	mkdir -p $HOME/.config/kab
	printf "[lava]\n\tfiles = /srv\n" >$HOME/.config/kab/config
	expect_error 2 "files and files-url go together" -- \
		"$KAB" run --target lava:local $QUICK $JOB
	printf "[lava]\n\tpassword = x\n" >$HOME/.config/kab/config
	expect_error 2 "\[lava\] takes token, files, files-url, grace and boot-timeout" -- \
		"$KAB" run --target lava:local $QUICK $JOB
	rm $HOME/.config/kab/config
	expect_error 2 "device type" -- \
		"$KAB" run --target lava:local --device-type "a b" --dry-run $JOB
	expect_error 2 "need --target lava:URL or lava:local" -- \
		"$KAB" run --dry-run $JOB
	expect_error 2 "give --kernel PATH, not --tree" -- \
		"$KAB" run --target lava:local --dry-run --tree /nonexistent $JOB
	KAB_LAVA_RUN=/nonexistent expect_error 1 "lava-run is not installed.*lava-dispatcher" -- \
		"$KAB" run --target lava:local $QUICK $JOB
	# the token is not in the environment of what kab runs
	printf "#!/bin/sh\nenv >%s\necho no >&2\nexit 1\n" $TMP/child.env >$TMP/env-lava-run
	chmod +x $TMP/env-lava-run
	KAB_LAVA_TOKEN=s3cr3t KAB_LAVA_RUN=$TMP/env-lava-run expect_error 1 "lava-run failed" -- \
		"$KAB" run --target lava:local $QUICK $JOB
	grep -q "^KAB_LAVA_RUN=" $TMP/child.env
	not grep -q "s3cr3t" $TMP/child.env
	test "$(sql "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = 0
'

test_expect "lava-run boots kab's job; the runs, their device and worker are stored" '
	# its files go to TMPDIR, where a killed kab'"'"'s (its pid gone) are
	# swept and a live one'"'"'s kept
	mkdir -p $TMP/scratch/kab-lava.4194302.AbCdEf/out $TMP/scratch/kab-lava.$$.XyZ123
	not kill -0 4194302 2>/dev/null
	TMPDIR=$TMP/scratch kab run --target lava:local --runs 2 --timeout 300 $QUICK $JOB >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/o $TMP/e
	[ "$(ls $TMP/scratch)" = "kab-lava.$$.XyZ123" ]
	[ "$(sql "SELECT target, status FROM runs")" = "lava|ok" ]
	[ "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE metric = \"will-it-scale.per_process_ops\"")" = 2 ]
	[ "$(sql "SELECT json_extract(host, \"\$.lava_device_type\") || \" \" || json_extract(host, \"\$.lava_worker\") FROM runs")" = "qemu $(hostname)" ]
	# the seconds it had: the dispatcher'"'"'s 120 and QEMU'"'"'s boot 120,
	# then --timeout
	[ "$(sql "SELECT json_extract(host, \"\$.lava_allowed\") FROM runs")" = 540 ]
	[ "$(sql "SELECT json_extract(host, \"\$.release\") FROM runs")" = "$(basename $(ls /boot/vmlinuz-* | sort -V | tail -1) | sed s/vmlinuz-//)" ]
	sql "SELECT outcome, accel, qemu_version FROM boots" >$TMP/b
	grep -q "^ok|lava|lava-dispatcher 20" $TMP/b
	# the CPUs its device dictionary gave QEMU (two unless --smp)
	[ "$(sql "SELECT smp FROM boots")" = 2 ]
	# a bzImage the device boots, timed by the wall clock
	[ "$(sql "SELECT b.entry || \" \" || r.clock FROM boots b JOIN runs r ON r.id = b.run_id")" = "bzimage wall" ]
	# the agent'"'"'s hello, then its first sample, timed from the start
	[ "$(sql "SELECT hello > 0 AND first_sample > hello AND seconds > first_sample FROM boots")" = 1 ]
	# the kernel'"'"'s lines are the console'"'"'s, kept without the
	# records (those are the samples); no noise note
	$LPY -c "
import sqlite3, sys, zlib
blob, n = sqlite3.connect(sys.argv[1]).execute(\"SELECT console, console_bytes FROM boots\").fetchone()
log = zlib.decompress(blob).decode()
assert len(log) == n and \"Linux version\" in log, log[-2000:]
assert \"kab-agent: done, powering off\" in log and \"@KAB\" not in log, log[-2000:]
assert chr(0) not in log, log[-2000:]
" "$KAB_DB"
	not grep -q "noise" $TMP/e
'

test_expect "a job LAVA fails is a failed boot in LAVA's words, no samples" '
	KAB_QEMU=/bin/false expect_error 1 "LAVA: Infrastructure" -- \
		"$KAB" run --target lava:local --runs 1 $QUICK $JOB
	[ "$(sql "SELECT count(*) FROM runs WHERE status = \"ok\"")" = 1 ]
	# no agent said hello, no sample came: neither is timed
	[ "$(sql "SELECT outcome, hello IS NULL, first_sample IS NULL FROM boots ORDER BY id DESC LIMIT 1")" = "boot-failure|1|1" ]
'

test_expect "lava:local boots on this machine: its load is measured, and a busy host said, as the qemu target does" '
	h1=$(hog)
	h2=$(hog)
	rc=0
	kab --db $TMP/busy.db run --target lava:local --runs 1 $QUICK $JOB >$TMP/o 2>$TMP/e || rc=$?
	kill $h1 $h2
	cat $TMP/e
	[ $rc = 0 ]
	grep -q "^kab: note: run 1: other processes kept [0-9]*% of the host.s CPUs busy during this boot: under lava its numbers" $TMP/e
	check "$(sqlite3 $TMP/busy.db "SELECT host_busy FROM boots WHERE run_id = 1") > 0.25"
'

# lava-run behind a filter that drops the records after the first
# iteration: LAVA completes the job, the stream is short
cat >$TMP/short-lava-run <<EOF
#!/bin/bash
/usr/bin/lava-run "\$@" 2>&1 >/dev/null | awk '
	/iter_end/ { if (++n > 1) next }
	n >= 1 && /@KAB/ && !/iter_end/ { next }
	{ print; fflush() }' >&2
EOF
chmod +x $TMP/short-lava-run

test_expect "a job LAVA calls complete whose record stream is short is an error, not a run (lava-run behind a filter that drops records)" '
	KAB_LAVA_RUN=$TMP/short-lava-run expect_error 1 "LAVA completed the job, but the record stream stopped after 1 iteration without the agent" -- \
		"$KAB" run --target lava:local --runs 2 $QUICK $JOB
	[ "$(sql "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = failed ]
	[ "$(sql "SELECT count(*) FROM runs WHERE status = \"ok\"")" = 1 ]
'

test_expect "^C cancels the LAVA job: lava-run and QEMU are gone, the run is interrupted" '
	echo "what the user types" >$TMP/in
	"$KAB" run --target lava:local --runs 3 --set nr_task=1 --set warmup=0 \
		--set testtime=20s --monitors none $JOB <$TMP/in >$TMP/o 2>$TMP/e &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		grep -q "iteration 1 of 3" $TMP/e && break
		sleep 0.2
	done
	kids=$(descendants $pid)
	# lava-run reads nothing of kab'"'"'s stdin (a terminal, a pipe)
	for k in $kids; do
		grep -qa "lava-run" /proc/$k/cmdline 2>/dev/null &&
			readlink /proc/$k/fd/0
	done >$TMP/stdin
	cat $TMP/stdin
	grep -qx /dev/null $TMP/stdin
	not grep -v "^/dev/null$" $TMP/stdin
	kill -INT $pid
	rc=0
	wait $pid || rc=$?
	cat $TMP/e
	[ $rc = 130 ]
	gone_pids "$kids" 30
	grep -q "LAVA: Canceled" $TMP/e
	[ "$(sql "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = interrupted ]
'

test_expect "kab ab --target lava:local alternates the kernels, every boot a LAVA job" '
	# (--devices 1 is the one device the dispatcher here has)
	kab ab --target lava:local --a-cmdline transparent_hugepage=never \
		--b-cmdline transparent_hugepage=always --job $JOB $QUICK \
		--devices 1 --boots 2 --runs-per-boot 1 >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/o
	[ "$(sql "SELECT group_concat(k.label || \"/\" || json_extract(r.host, \"\$.thp_enabled\"), \" \") FROM (SELECT * FROM runs WHERE id IN (SELECT run_id FROM boots WHERE ab_id IS NOT NULL) ORDER BY id) r JOIN kernels k ON k.id = r.kernel_id")" = "transparent_hugepage=never/never transparent_hugepage=always/always transparent_hugepage=never/never transparent_hugepage=always/always" ]
	grep -q "will-it-scale.per_process_ops" $TMP/o
	# each boot names what ran it: the LAVA dispatcher and its version
	# (a job the lab failed under load is a boot of its own, booted again)
	test "$(sql "SELECT count(*) FROM boots WHERE ab_id IS NOT NULL AND outcome = '"'"'ok'"'"' AND qemu_version GLOB '"'"'lava-dispatcher [0-9]*'"'"' AND accel = '"'"'lava'"'"'")" = 4
'

# A stand-in for a LAVA server's REST API in front of the real lava-run
# (tests/cli/fake-lava-server), on the qemu device below.
cat >$TMP/device.yaml <<'EOF'
device_info: []
parameters: {}
actions:
  deploy:
    connections: {serial: {}, lxc: {}}
    methods: {image: {}}
  boot:
    connections: {serial: {}}
    methods:
      qemu:
        parameters:
          command: qemu-system-x86_64
          boot_options: {root: /dev/ram0, console: "ttyS0,115200"}
          options: [-cpu max, -m 2G, -smp 2, -nographic, -no-reboot, -accel tcg]
available_architectures: [x86_64]
timeouts: {actions: {}, connections: {}}
constants:
  kernel-start-message: "Linux version [0-9]"
  shutdown-message: "reboot: Power down"
  default-shell-prompt: "kab-agent: "
  spawn_maxread: "4092"
  failure_retry: 1
  boot_retry: 0
  posix: {lava_test_sh_cmd: /bin/sh, lava_test_results_dir: /lava-%s, lava_test_shell_file: ~/.bashrc}
EOF
TOKEN=s3cr3t-t0ken-of-the-lab
SRV_PID=
srv_start() {
	[ -z "$SRV_PID" ] || kill $SRV_PID 2>/dev/null
	PORT=$($LPY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	# MODE [DIR]: the server'"'"'s files in $TMP/srv-DIR (MODE)
	SRV=$TMP/srv-${2:-$1}
	mkdir -p $SRV
	$LPY $TOP/tests/cli/fake-lava-server $PORT $SRV $TMP/device.yaml $1 $TOKEN &
	SRV_PID=$!
	URL=http://127.0.0.1:$PORT/
	for i in $(seq 50); do
		(exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break
		sleep 0.1
	done
}
# a test body is a subshell: each stops its server, and the end of the
# file stops whatever one left
srv_stop() {
	[ -z "$SRV_PID" ] || kill $SRV_PID 2>/dev/null
	wait $SRV_PID 2>/dev/null || true
	SRV_PID=
}
trap 'pkill -f "fake-lava-server [0-9]* $TMP/" 2>/dev/null; scratch_done' EXIT

test_expect "lava:URL submits through the REST API with the token and stores device and worker (a stand-in server in front of lava-run)" '
	srv_start ok
	export KAB_LAVA_TOKEN=$TOKEN
	kab run --target lava:$URL --runs 2 --timeout 300 $QUICK $JOB >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/e
	grep -q "^kab: \[1/1\] LAVA job 1: ${URL}scheduler/job/1$" $TMP/e
	id=$(sql "SELECT max(id) FROM runs")
	[ "$(sql "SELECT target, status FROM runs WHERE id = $id")" = "lava|ok" ]
	[ "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = $id AND metric = \"will-it-scale.per_process_ops\"")" = 2 ]
	# the last job submitted (lava-run under load can end one in an
	# Infrastructure error: it is then booted again)
	job=$(sed -n "s|^kab: \[1/1\] LAVA job \([0-9]*\): .*|\1|p" $TMP/e | tail -1)
	[ "$(sql "SELECT json_extract(host, \"\$.lava_device\") || \" \" || json_extract(host, \"\$.lava_worker\") || \" \" || json_extract(host, \"\$.lava_job\") FROM runs WHERE id = $id")" = "fake01 fakeworker $job" ]
	[ "$(sql "SELECT json_extract(host, \"\$.lava_allowed\") FROM runs WHERE id = $id")" = 540 ]
	# the device is the block of the run; the lab'"'"'s load is not this
	# machine'"'"'s, and is not measured
	[ "$(sql "SELECT block FROM runs WHERE id = $id")" = fake01 ]
	[ "$(sql "SELECT count(*) FROM boots WHERE run_id = $id AND host_busy IS NULL")" = 1 ]
	# the agent'"'"'s hello and its first sample, timed from the
	# submission as the log brings them
	[ "$(sql "SELECT hello > 0 AND first_sample > hello AND seconds > first_sample FROM boots WHERE run_id = $id")" = 1 ]
	# every request carried the token; it is nowhere in the database
	not grep -q "no-token" $TMP/srv-ok/requests
	grep -q "^POST /api/v0.2/jobs/ token$" $TMP/srv-ok/requests
	not grep -aq "$TOKEN" $KAB_DB
	unset KAB_LAVA_TOKEN
	srv_stop
'

test_expect "a console that loses bytes: each record comes twice, numbered, and the run is stored whole from the copies" '
	srv_start lossy
	export KAB_LAVA_TOKEN=$TOKEN
	kab run --target lava:$URL --runs 2 --timeout 300 $QUICK $JOB >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/e
	id=$(sql "SELECT max(id) FROM runs")
	[ "$(sql "SELECT target, status FROM runs WHERE id = $id")" = "lava|ok" ]
	[ "$(sql "SELECT count(DISTINCT iteration) FROM samples WHERE run_id = $id AND metric = \"will-it-scale.per_process_ops\"")" = 2 ]
	# the first copy of every record was damaged: start, two of iter,
	# sample and iter_end, end
	[ "$(sql "SELECT bad_records FROM runs WHERE id = $id")" -ge 8 ]
	grep -q "bad records in the stream" $TMP/e
	unset KAB_LAVA_TOKEN
	srv_stop
'

test_expect "a server that cannot be reached, a bad token, an unknown device type, offline devices: one line each, nothing stored" '
	before=$(sql "SELECT count(*) FROM runs")
	srv_start ok
	KAB_LAVA_TOKEN=wrong expect_error 1 "LAVA at $URL refused the token (HTTP 403).*KAB_LAVA_TOKEN" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "has no device type .x86-board.: give --device-type" -- \
		"$KAB" run --target lava:$URL --device-type x86-board $QUICK $JOB
	# an A/B on several devices asks for them before its first boot
	: >$TMP/k
	KAB_LAVA_TOKEN=$TOKEN expect_error 2 "has no device type .x86-board.: give --device-type" -- \
		"$KAB" ab --target lava:$URL --device-type x86-board --devices 2 \
		--a $TMP/k --b $TMP/k $QUICK --job $JOB
	srv_start offline
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "every device of type .qemu. at $URL is offline" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	srv_stop
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "cannot reach LAVA at $URL: .*check the URL and that the server runs" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	[ "$(sql "SELECT count(*) FROM runs")" = "$before" ]
	# and the token was in no error
	not grep -q "$TOKEN" $TMP/stderr
	srv_stop
'

test_expect "a job still queued at --timeout is cancelled and said so" '
	srv_start queued
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "LAVA job 1 stayed queued for [0-9]* s: no qemu device took it; kab cancelled it" -- \
		"$KAB" run --target lava:$URL --timeout 3 $QUICK $JOB
	[ "$(cat $TMP/srv-queued/cancels)" = 1 ]
	srv_stop
'

test_expect "a job the server cancels is a failed boot in LAVA's words" '
	srv_start cancel
	# cancelled once the first iteration ended: nine more leave room
	# for a busy host that lags the log the server watches
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "boot job-failure: LAVA: Canceled" -- \
		"$KAB" run --target lava:$URL --runs 10 --set nr_task=1 --set warmup=0 --set testtime=3s --monitors none $JOB
	[ "$(sql "SELECT status FROM runs ORDER BY id DESC LIMIT 1")" = failed ]
	srv_stop
'

test_expect "a job the lab fails for its own reasons (Infrastructure) is booted once more, not charged to the kernel" '
	srv_start infra1
	KAB_LAVA_TOKEN=$TOKEN "$KAB" run --target lava:$URL --runs 1 $QUICK --monitors none $JOB >$TMP/o 2>$TMP/e ||
		{ cat $TMP/o $TMP/e; false; }
	cat $TMP/e
	grep -q "LAVA: Infrastructure: Connection closed" $TMP/e
	grep -q "^kab: note: the lab ended that job for its own reasons (an infrastructure error), which says nothing of the kernel: booting once more$" $TMP/e
	[ "$(sql "SELECT status || json_extract(host, \"\$.lava_job\") FROM runs ORDER BY id DESC LIMIT 1")" = ok2 ]
	srv_stop
	# in an A/B, whose turns keep their job for a resume: a new job,
	# not the failed one read again
	srv_start infra1 infra-ab
	KAB_LAVA_TOKEN=$TOKEN "$KAB" ab --target lava:$URL --a-label A --b-label B \
		--job $JOB $QUICK --monitors none --boots 1 --runs-per-boot 1 >$TMP/o 2>$TMP/e ||
		{ cat $TMP/o $TMP/e; false; }
	cat $TMP/e
	grep -q "booting once more$" $TMP/e
	not grep -q "went on while kab was stopped" $TMP/e
	[ "$(grep -c "^POST /api/v0.2/jobs/ " $SRV/requests)" = 3 ]
	ab=$(sql "SELECT max(id) FROM abs")
	[ "$(sql "SELECT count(*) FROM boots WHERE ab_id = $ab AND outcome = \"ok\"")" = 2 ]
	srv_stop
'

test_expect "every wait on a server ends: a log that never ends (?start= ignored), a cancel the server never obeys (at ^C, at the deadline); one line each after [lava] grace" '
	before=$(sql "SELECT count(*) FROM runs" 2>/dev/null || echo 0)
	printf "[lava]\n\tgrace = 2\n" >$TMP/grace.conf
	export KAB_CONFIG=$TMP/grace.conf KAB_LAVA_TOKEN=$TOKEN
	srv_start endless
	expect_error 1 "LAVA job 1 finished, but its log did not end: the server at $URL does not honour ?start=" -- \
		timeout -s KILL 60 "$KAB" run --target lava:$URL $QUICK $JOB
	srv_start stuck
	"$KAB" run --target lava:$URL $QUICK $JOB >$TMP/o 2>$TMP/e &
	pid=$!
	for i in $(seq 300); do
		grep -q "LAVA job 1:" $TMP/e && break
		sleep 0.1
	done
	kill -INT $pid
	rc=0
	# a bound on the test, not on kab: kab ends long before
	timeout 60 tail --pid=$pid -f /dev/null || kill -9 $pid
	wait $pid || rc=$?
	cat $TMP/e
	[ $rc -ne 0 ]
	grep -q "LAVA job 1: cancelled, but the server has not ended it after 2 s: cancel it there" $TMP/e
	[ "$(cat $TMP/srv-stuck/cancels)" = 1 ]
	# the stop is the user'"'"'s: the grace is the server'"'"'s alone
	printf "[lava]\n\tgrace = inf\n" >$TMP/grace.conf
	expect_error 2 "\[lava\] grace .inf. is not a number of seconds from 1 to 86400" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	# a job that runs past its deadline (boot-timeout, then --timeout
	# of test) is cancelled; one the server never ends, said after grace
	printf "[lava]\n\tgrace = 2\n\tboot-timeout = 1\n" >$TMP/grace.conf
	expect_error 1 "LAVA job 2 ran past its deadline (2 s): cancelled, but the server has not ended it after 2 s: cancel it there" -- \
		timeout -s KILL 60 "$KAB" run --target lava:$URL --timeout 1 $QUICK $JOB
	# job 2 cancelled once, at its deadline
	[ "$(tr "\n" " " <$TMP/srv-stuck/cancels)" = "1 2 " ]
	printf "[lava]\n\tboot-timeout = 0\n" >$TMP/grace.conf
	expect_error 2 "\[lava\] boot-timeout .0. is not a number of seconds from 1 to 86400" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	[ "$(sql "SELECT count(*) FROM runs WHERE status = \"ok\" AND id > $before" 2>/dev/null || echo 0)" = 0 ]
	unset KAB_CONFIG KAB_LAVA_TOKEN
	srv_stop
'

test_expect "a URL with credentials in it is refused without printing them; a job id no job has, a job lost, a server answering 500: each an error" '
	before=$(sql "SELECT count(*) FROM runs" 2>/dev/null || echo 0)
	srv_start badid
	host=${URL#http://}
	for u in "http://me:$TOKEN@$host" "${URL}?token=$TOKEN" "${URL}api/v0.2/#$TOKEN" "${URL}$TOKEN/"; do
		KAB_LAVA_TOKEN=$TOKEN expect_error 2 "the LAVA URL carries credentials or a query: give the server.s bare URL" -- \
			"$KAB" run --target "lava:$u" $QUICK $JOB
		not grep -q "$TOKEN" $TMP/stderr
	done
	# nothing was asked of the server
	test ! -s $TMP/srv-badid/requests
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "LAVA at $URL answered job id -5, which is no job.s: check the server" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	[ "$(sql "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = "$before" ]
	srv_stop
	# a job the server lost after taking it: said, not waited for
	srv_start lost
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "LAVA at $URL has no job 7" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	grep -q "GET /api/v0.2/jobs/7/ " $TMP/srv-lost/requests
	# a server answering 500 to the submission, or to a running job'"'"'s
	# log: said with the status, the job cancelled
	srv_start down500
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "LAVA at $URL answered HTTP 500 to the job: is it a LAVA server" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	# (a log is asked again for [lava] grace seconds: a server between
	# restarts)
	srv_start log500
	mkdir -p $HOME/.config/kab
	printf "[lava]\n\tgrace = 2\n" >$HOME/.config/kab/config
	KAB_LAVA_TOKEN=$TOKEN expect_error 1 "LAVA at $URL answered HTTP 500 to a job.s log: is it a LAVA server" -- \
		"$KAB" run --target lava:$URL $QUICK $JOB
	rm $HOME/.config/kab/config
	grep -qx 1 $TMP/srv-log500/cancels
	test "$(grep -c "GET /api/v0.2/jobs/1/logs/" $TMP/srv-log500/requests)" -ge 2
	srv_stop
'

test_expect "kab ab --devices 2: both kernels on each device every round, the devices in parallel, each a block" '
	srv_start ok devices
	export KAB_LAVA_TOKEN=$TOKEN
	kab ab --target lava:$URL --devices 2 --a-label A --b-label B \
		--job $JOB $QUICK --boots 1 --runs-per-boot 1 >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/e
	grep -q "^kab: 2 devices, each a block with both kernels every round: fake01 fake02$" $TMP/e
	# four jobs, and one more for each the lab ended in an
	# Infrastructure error (lava-run on a loaded host)
	again=$(grep -c "the lab ended that job for its own reasons" $TMP/e || true)
	[ "$(grep -c "^POST /api/v0.2/jobs/ " $SRV/requests)" = $((4 + again)) ]
	# every job went to a device by its tag
	[ "$(cat $SRV/job-*/job.yaml | grep -c "^- fake0[12]$")" = $((4 + again)) ]
	ab=$(sql "SELECT max(id) FROM abs")
	[ "$(sql "SELECT group_concat(x, \" \") FROM (SELECT k.label || \"@\" || r.block AS x FROM boots b JOIN runs r ON r.id = b.run_id JOIN kernels k ON k.id = r.kernel_id WHERE b.ab_id = $ab AND b.outcome = \"ok\" ORDER BY x)")" = "A@fake01 A@fake02 B@fake01 B@fake02" ]
	# in parallel: the round'"'"'s first jobs ran at once, one a device
	cat $SRV/events
	[ "$(head -2 $SRV/events | cut -d" " -f1,3 | sort | tr "\n" " ")" = "start fake01 start fake02 " ]
	grep -q "will-it-scale.per_process_ops" $TMP/o
	# a device kab cannot pin, or more devices than the lab has
	expect_error 2 "--devices 3: LAVA at $URL has 2 usable devices of type .qemu. with a tag of its own (fake01, fake02).*give --devices 2" -- \
		"$KAB" ab --target lava:$URL --devices 3 --job $JOB $QUICK
	expect_error 2 "lava:local has one device" -- \
		"$KAB" ab --target lava:local --devices 2 --job $JOB $QUICK
	unset KAB_LAVA_TOKEN
	srv_stop
'

test_expect "kab ab --devices 2: a device the server refuses stops the other lanes at their next turn" '
	srv_start reject02
	export KAB_LAVA_TOKEN=$TOKEN
	rc=0
	kab ab --target lava:$URL --devices 2 --a-label A --b-label B \
		--job $JOB $QUICK --boots 2 --runs-per-boot 1 >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	test $rc = 1
	grep -q "fake02 is retired" $TMP/e
	# fake01 ended the boot it had begun, then booted nothing more
	[ "$(grep -c "^POST /api/v0.2/jobs/ " $SRV/requests)" = 2 ]
	unset KAB_LAVA_TOKEN
	srv_stop
'

test_expect "a resumed A/B reads the LAVA job that went on while kab was killed, and boots only the rest" '
	srv_start ok resume
	export KAB_LAVA_TOKEN=$TOKEN
	"$KAB" ab --target lava:$URL --a-label A --b-label B --job $JOB \
		$QUICK --boots 1 --runs-per-boot 1 >$TMP/o 2>$TMP/e &
	pid=$!
	for i in $(seq 300); do
		grep -q "LAVA job 1:" $TMP/e && break
		sleep 0.2
	done
	kill -9 $pid
	wait $pid 2>/dev/null || true
	ab=$(sed -n "s/^kab: A\/B \([0-9]*\) .*/\1/p" $TMP/e)
	[ -n "$ab" ]
	kab ab --resume $ab >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/e
	grep -q "^kab: LAVA job 1 went on while kab was stopped: reading it, not booting again$" $TMP/e
	# job 1 was submitted once, B'"'"'s job once: nothing booted twice
	# but a job lava-run on a loaded host ended in an Infrastructure
	# error, which kab rightly submits again
	again=$(grep -c "the lab ended that job for its own reasons" $TMP/e || true)
	[ "$(grep -c "^POST /api/v0.2/jobs/ " $SRV/requests)" = $((2 + again)) ]
	ok=$(sql "SELECT group_concat(x, \" \") FROM (SELECT k.label || \"/\" || json_extract(r.host, \"\$.lava_job\") AS x FROM boots b JOIN runs r ON r.id = b.run_id JOIN kernels k ON k.id = r.kernel_id WHERE b.ab_id = $ab AND b.outcome = \"ok\" ORDER BY x)")
	if [ "$again" = 0 ]; then
		[ "$ok" = "A/1 B/2" ]
	else
		[ "$(echo "$ok" | sed "s|/[0-9]*||g")" = "A B" ]
	fi
	unset KAB_LAVA_TOKEN
	srv_stop
'

test_expect "kab bisect --target lava:URL boots every commit as a LAVA job, the token handed to its steps, and names the culprit" '
	srv_start ok bisect
	export KAB_LAVA_TOKEN=$TOKEN
	# a history whose "kernel recipe" gives the guest less memory
	# (mem=1536M) from c4 on; c2 does not build.  The metric followed
	# is meminfo.MemTotal, which a busy host cannot move: the load
	# slows the TCG guests of the stand-in lab, not this verdict
	K=$(ls /boot/vmlinuz-* | sort -V | tail -1)
	R=$TMP/repo
	mkdir -p $R
	git -C $R init -q
	commit() {
		git -C $R add -A
		git -C $R -c user.name=t -c user.email=t@t commit -q -m "$1"
		git -C $R rev-parse HEAD
	}
	printf "#!/bin/sh\necho \"kernel %s\"\n" $K >$R/build.sh
	C1=$(commit "c1: base")
	printf "#!/bin/sh\nexit 2\n" >$R/build.sh
	C2=$(commit "c2: does not build")
	printf "#!/bin/sh\necho \"kernel %s\"\n" $K >$R/build.sh
	C3=$(commit "c3: builds again")
	printf "#!/bin/sh\necho \"kernel %s\"\necho \"cmdline mem=1536M\"\n" $K >$R/build.sh
	C4=$(commit "c4: less memory, the change")
	kab bisect --target lava:$URL --tree $R --good $C1 --bad $C4 \
		--job $JOB $QUICK --monitors meminfo --metric meminfo.MemTotal \
		--build-cmd "sh build.sh" --boots 3 --max-boots 2 >$TMP/o 2>$TMP/e || {
		cat $TMP/o $TMP/e
		false
	}
	cat $TMP/o
	grep -q "^$C4 is the first bad commit" $TMP/o
	# every boot of it was a LAVA job
	[ "$(sql "SELECT count(*) FROM runs WHERE target != \"lava\" AND kernel_id IN (SELECT id FROM kernels WHERE commit_sha IS NOT NULL)")" = 0 ]
	[ "$(sql "SELECT count(*) FROM boots WHERE accel = \"lava\" AND outcome = \"ok\"")" -ge 4 ]
	# the steps (kab bisect-step under git bisect run) had the token,
	# from the environment: every request carried it, none stored it
	grep -q "^POST /api/v0.2/jobs/ token$" $TMP/srv-bisect/requests
	not grep -q "no-token" $TMP/srv-bisect/requests
	sqlite3 $KAB_DB .dump >$TMP/dump
	not grep -q "$TOKEN" $TMP/dump
	# what LAVA cannot do is a usage error before anything is built
	expect_error 2 "--clock is QEMU.s" -- "$KAB" bisect --target lava:local \
		--clock icount --tree $R --good $C1 --bad $C4 --job $JOB \
		--metric will-it-scale.per_process_ops
	expect_error 2 "--target .local.: a bisect boots its commits: give qemu, lava:URL, lava:local or ssh://host with --setup" -- \
		"$KAB" bisect --target local --tree $R --good $C1 --bad $C4 \
		--job $JOB --metric will-it-scale.per_process_ops
	expect_error 2 "^kab: --target ssh://x: each commit.s kernel is booted there by --setup CMD" -- \
		"$KAB" bisect --target ssh://x --tree $R --good $C1 --bad $C4 \
		--job $JOB --metric will-it-scale.per_process_ops
	srv_stop
'

test_done
