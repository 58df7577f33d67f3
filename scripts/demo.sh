#!/bin/bash
# make demo: kab's main job on the embedded default target, the running
# kernel.  Until the QEMU target lands this is an A/A comparison: the
# same kernel measured twice, as "A" and "B", both workloads, everything
# stored in a demo database and shown back.
set -eu
cd "$(dirname "$0")/.."
KAB=./build/kab
DB=${KAB_DEMO_DB:-.demo/kab.db}
RUNS=${KAB_DEMO_RUNS:-3}

rm -f "$DB" "$DB-wal" "$DB-shm"
mkdir -p "$(dirname "$DB")"
echo "== kab demo: A/A on $(uname -r), $RUNS iterations per side, database $DB"
echo

# Interleave the sides job by job so that drift falls on both.
run_sides() {
	local job=$1 side
	shift
	for side in A B; do
		echo "-- $side: $job $*"
		$KAB --db "$DB" run --kernel-label "$side" --runs "$RUNS" "$@" \
			"$job"
	done
}
run_sides jobs/will-it-scale-malloc1.yaml --set warmup=2 --set testtime=5s
run_sides jobs/stress-ng-radixsort.yaml --set testtime=5s

echo "== what was stored"
$KAB --db "$DB" ls
echo
for id in 1 2; do
	$KAB --db "$DB" show --metric 'will-it-scale.*' "$id" | head -12
	echo
done
echo "== the same runs as CSV (first rows)"
$KAB --db "$DB" export --format csv | head -5
echo
echo "Next: 'kab --db $DB show ID' for every metric of a run,"
echo "      'kab --db $DB export --format json' for everything."
