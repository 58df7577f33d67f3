# Helpers for the command-line tests, in the spirit of git's t/test-lib.sh:
# each test is a named shell snippet; the file speaks TAP.
#
# Every command of a snippet is an assertion.  The snippet runs in a
# subshell with errexit, pipefail and inherit_errexit, and never inside
# the condition of an if or of a || (bash ignores errexit there, which is
# how a snippet once passed on its last line alone).  It stops at its
# first failing command, and the output names that command.
#
# What errexit cannot see is refused before the snippet runs: a line
# that starts with "!" (bash never stops at "! cmd"; write "not cmd").
# A pipeline fails when any of its commands fails, so a reader that
# quits early (grep -q, head) on a long output can kill the writer with
# SIGPIPE: write the output to a file and grep the file.
set -u
set +e

TOP=${KAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${KAB_BUILD:-$TOP/build}
KAB=$BUILD/kab
export KAB_AGENT=$BUILD/kab-agent
FIXTURES=$TOP/tests/fixtures
TMP=$(mktemp -d /tmp/kab-test.XXXXXX)
export KAB_DB=$TMP/kab.db
export HOME=$TMP/home
mkdir -p "$HOME"
# KAB_KEEP=1 keeps the scratch directory for a look afterwards; a
# file system a test mounted there and left (it failed, or was not run)
# goes first
scratch_done() {
	local m

	if [ -n "${KAB_KEEP:-}" ]; then
		echo "# kept $TMP" >&2
		return
	fi
	for m in $(awk -v t="$TMP/" 'index($2, t) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
	rm -rf "$TMP"
}
trap scratch_done EXIT

test_count=0
test_failed=0

# The lines of SNIPPET that errexit would not stop at, with their numbers.
lint_snippet() {
	printf '%s\n' "$1" | grep -n '^[[:space:]]*![[:space:]]'
}

# Run SNIPPET as described above; its status is that of its first
# failing command.
run_snippet() {
	(
		set -eE -o pipefail
		shopt -s inherit_errexit
		# to the snippet's stderr, even from a command redirected elsewhere
		exec {trap_fd}>&2
		trap 'echo "# stopped at: $BASH_COMMAND (status $?)" >&$trap_fd' ERR
		eval "$1"
	)
}

# test_expect NAME SNIPPET: output is shown only when it fails.  With
# KAB_FAIL_FAST set (make mutate), the file stops at its first failure;
# with KAB_TEST_ONLY (a grep pattern), only the tests whose names match
# run (while working on one; later tests may need earlier ones' runs).
test_expect() {
	local name=$1 snippet=$2 out bad rc
	if [ -n "${KAB_TEST_ONLY:-}" ] &&
		! grep -q -- "$KAB_TEST_ONLY" <<<"$name"; then
		return 0
	fi
	if [ -n "${KAB_FAIL_FAST:-}" ] && [ "$test_failed" -gt 0 ]; then
		return 0
	fi
	test_count=$((test_count + 1))
	out=$TMP/out.$test_count
	bad=$(lint_snippet "$snippet")
	if [ -n "$bad" ]; then
		echo "# errexit does not stop at '! cmd': write 'not cmd':" >"$out"
		printf '%s\n' "$bad" >>"$out"
		rc=1
	else
		run_snippet "$snippet" >"$out" 2>&1
		rc=$?
	fi
	if [ "$rc" -eq 0 ]; then
		echo "ok $test_count - $name"
	else
		echo "not ok $test_count - $name"
		sed 's/^/#   /' "$out"
		test_failed=$((test_failed + 1))
	fi
}

# test_skip NAME REASON
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
}

# kab with the test's database.
kab() {
	"$KAB" "$@"
}

# The value of a metric's mean from 'kab show'.
mean_of() {
	local run=$1 metric=$2 out
	out=$(kab show --metric "$metric" "$run")
	printf '%s\n' "$out" | awk -v m="$metric" '$NF == m { print $2 }'
}

# agent_metric FILE NAME: NAME's value in the first sample record of
# the kab-agent stream in FILE ("@KAB1 len crc json" lines).
agent_metric() {
	python3 - "$1" "$2" <<-'PY'
	import json, sys
	for line in open(sys.argv[1], "rb").read().split(b"\n"):
	    if line.startswith(b"@KAB1 "):
	        body = json.loads(line.split(b" ", 3)[3])
	        if body.get("t") == "sample" and sys.argv[2] in body["metrics"]:
	            print(repr(body["metrics"][sys.argv[2]]))
	            break
	PY
}

# sqlite3 on the test database.
sql() {
	sqlite3 "$KAB_DB" "$@"
}

fail() {
	echo "FAIL: $*"
	return 1
}

# not CMD...: CMD fails the ordinary way (a status from 1 to 125), not
# by a signal and not because it could not run at all.
not() {
	local rc=0
	"$@" || rc=$?
	if [ "$rc" -eq 0 ]; then
		fail "'$*' succeeded"
	elif [ "$rc" -gt 125 ]; then
		fail "'$*' died or could not run (status $rc)"
	fi
}

# gone PATTERN SECONDS: no process whose command line matches PATTERN
# (pgrep -f) is left after up to SECONDS; if one is, say which, with
# its parent and age.
gone() {
	local i
	for i in $(seq $(($2 * 10))); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.1
	done
	ps -o pid,ppid,etimes,args -p "$(pgrep -d, -f "$1")" || true
	fail "a process matching '$1' is still there after $2 s"
}

# descendants PID: PID and every process below it, a line each
descendants() {
	local p
	echo "$1"
	for p in $(pgrep -P "$1"); do
		descendants "$p"
	done
}

# gone_pids "PID..." SECONDS: none of these processes (taken from
# descendants before their parent went) is left after SECONDS; other
# processes on the machine, kab's or not, are none of its business
gone_pids() {
	local i p alive
	for i in $(seq $(($2 * 10))); do
		alive=
		for p in $1; do
			kill -0 "$p" 2>/dev/null && alive="$alive $p"
		done
		[ -z "$alive" ] && return 0
		sleep 0.1
	done
	ps -o pid,ppid,etimes,args -p "$(echo $alive | tr " " ,)" || true
	fail "processes$alive are still there after $2 s"
}

# check CONDITION-IN-AWK: e.g. check "$x > 100"
# A CPU hog beside a test (a busy host); prints its pid, for kill.
hog() {
	(trap "exit 0" TERM; while :; do :; done) >/dev/null 2>&1 &
	echo $!
}

check() {
	awk "BEGIN { exit !($1) }" || fail "$1"
}

# expect_error STATUS PATTERN -- cmd...: the command exits STATUS, says
# why in a line on stderr matching PATTERN (grep's basic regular
# expression), and every line on its stderr is kab's ("kab: ..."):
# nothing raw from a guest, ssh or QEMU, no message broken over lines.
# Its stdout is in $TMP/stdout.
expect_error() {
	local want=$1 pattern=$2 rc=0
	[ "$3" = -- ] || fail "expect_error STATUS PATTERN -- CMD..."
	shift 3
	"$@" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
	cat "$TMP/stderr"
	[ "$rc" -eq "$want" ] || fail "exit status $rc, wanted $want"
	[ -s "$TMP/stderr" ] || fail "nothing on stderr"
	if grep -qv '^kab: ' "$TMP/stderr"; then
		fail "a line on stderr that is not kab's"
	fi
	grep -q -- "$pattern" "$TMP/stderr" || fail "no '$pattern' on stderr"
}

# chromium_probe PAGE SCRIPT: what SCRIPT, added to the end of PAGE and
# run by headless Chromium once the page is laid out, puts into a
# <pre id="probe"> it appends to the body.
chromium_probe() {
	{ cat "$1"; printf "%s\n" "$2"; } >"$1.probe.html"
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir=$TMP/chromium --virtual-time-budget=2000 \
		--dump-dom "file://$1.probe.html" 2>/dev/null |
		sed -n "/<pre id=\"probe\">/,/<\/pre>/p" |
		sed "s/<[^>]*>//g"
}

# chromium_shot PAGE PNG: PAGE as headless Chromium paints it, 1000
# pixels wide.
chromium_shot() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir=$TMP/chromium --hide-scrollbars \
		--window-size=1000,1400 --screenshot="$2" "file://$1" \
		>/dev/null 2>&1
	test -s "$2"
}
