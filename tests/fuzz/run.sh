#!/bin/sh
# Run each libFuzzer harness of $BUILD/fuzz for FUZZ_SECONDS seconds,
# from the seeds in tests/fuzz/corpus/NAME (never written to: what a run
# finds goes to a scratch corpus).  A crash leaves its input in
# $BUILD/fuzz/NAME-crash-* and fails.  Prints one line per harness.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
failed=0
for f in "$BUILD"/fuzz/fuzz-*; do
	[ -x "$f" ] || continue
	name=${f##*/fuzz-}
	scratch=$(mktemp -d /tmp/kab-fuzz.XXXXXX)
	log="$BUILD/fuzz/$name.log"
	if "$f" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$BUILD/fuzz/$name-" \
		"$scratch" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
		runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
		echo "fuzz $name: ok, ${runs#Done } in ${SECONDS_EACH}s"
	else
		echo "fuzz $name: FAILED (see $log):"
		grep -E "ERROR|SUMMARY|runtime error" "$log" | head -5
		failed=$((failed + 1))
	fi
	rm -rf "$scratch"
done
[ "$failed" = 0 ]
