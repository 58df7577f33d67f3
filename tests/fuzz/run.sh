#!/bin/bash
# Run each libFuzzer harness of $BUILD/fuzz for FUZZ_SECONDS seconds,
# from the seeds in tests/fuzz/corpus/NAME (never written to: what a run
# finds goes to a scratch corpus).  A crash leaves its input in
# $BUILD/fuzz/NAME-crash-* and fails.  Prints one line per harness;
# FUZZ_JOBS harnesses run at once (the CPUs by default).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
lanes=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
case "$lanes" in
''|*[!0-9]*|0) echo "tests/fuzz/run.sh: FUZZ_JOBS=$lanes: give a number of harnesses at a time, 1 or more" >&2
	exit 2 ;;
esac

# one harness; its line goes to $2 for the parent to print
fuzz_one() {
	local f=$1 out=$2 name scratch log runs
	name=${f##*/fuzz-}
	scratch=$(mktemp -d /tmp/kab-fuzz.XXXXXX)
	log="$BUILD/fuzz/$name.log"
	if "$f" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$BUILD/fuzz/$name-" \
		"$scratch" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
		runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
		echo "fuzz $name: ok, ${runs#Done } in ${SECONDS_EACH}s" >"$out"
		rc=0
	else
		{
			echo "fuzz $name: FAILED (see $log):"
			grep -E "ERROR|SUMMARY|runtime error" "$log" | head -5
		} >"$out"
		rc=1
	fi
	rm -rf "$scratch"
	return $rc
}

lines=$(mktemp -d /tmp/kab-fuzz-out.XXXXXX)
trap 'rm -rf "$lines"' EXIT
failed=0
running=0
declare -A out_of=()
finish_one() {
	local pid= rc
	wait -n -p pid
	rc=$?
	[ -n "$pid" ] || return 0
	cat "${out_of[$pid]}"
	[ $rc = 0 ] || failed=$((failed + 1))
	unset "out_of[$pid]"
	running=$((running - 1))
}
for f in "$BUILD"/fuzz/fuzz-*; do
	[ -x "$f" ] || continue
	while [ "$running" -ge "$lanes" ]; do
		finish_one
	done
	fuzz_one "$f" "$lines/${f##*/}" &
	out_of[$!]=$lines/${f##*/}
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	finish_one
done
[ "$failed" = 0 ]
