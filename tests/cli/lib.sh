# Helpers for the command-line tests, in the spirit of git's t/test-lib.sh:
# each test is a named shell snippet; the file speaks TAP.
set -u

TOP=${KAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${KAB_BUILD:-$TOP/build}
KAB=$BUILD/kab
export KAB_AGENT=$BUILD/kab-agent
FIXTURES=$TOP/tests/fixtures
TMP=$(mktemp -d /tmp/kab-test.XXXXXX)
export KAB_DB=$TMP/kab.db
export HOME=$TMP/home
mkdir -p "$HOME"
trap 'rm -rf "$TMP"' EXIT

test_count=0
test_failed=0

# test_expect NAME SNIPPET: runs SNIPPET in a subshell with -e; output
# is shown only when it fails.
test_expect() {
	local name=$1 snippet=$2 out
	test_count=$((test_count + 1))
	out=$TMP/out.$test_count
	if (set -e; eval "$snippet") >"$out" 2>&1; then
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
	local run=$1 metric=$2
	kab show --metric "$metric" "$run" |
		awk -v m="$metric" '$NF == m { print $2 }'
}

# sqlite3 on the test database.
sql() {
	sqlite3 "$KAB_DB" "$@"
}

fail() {
	echo "FAIL: $*"
	return 1
}

# check CONDITION-IN-AWK: e.g. check "$x > 100"
check() {
	awk "BEGIN { exit !($1) }" || fail "$1"
}

# expect_error STATUS PATTERN -- cmd...: the command exits STATUS and
# says one line on stderr matching PATTERN.
expect_error() {
	local want=$1 pattern=$2 rc=0
	shift 3
	"$@" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
	cat "$TMP/stderr"
	[ "$rc" -eq "$want" ] || fail "exit status $rc, wanted $want"
	grep -q -- "$pattern" "$TMP/stderr" || fail "no '$pattern' on stderr"
	[ "$(grep -c '^kab: ' "$TMP/stderr")" -ge 1 ] ||
		fail "no 'kab: ' error line"
}
