#!/bin/bash
# make demo: kab's main job on the embedded default target, the running
# kernel.  Until the QEMU target lands this is an A/A comparison: the
# same kernel measured twice, as "A" and "B", both workloads, everything
# stored in a demo database and shown back.
set -eu
cd "$(dirname "$0")/.."
KAB=./build/kab
DB=${KAB_DEMO_DB:-.demo/kab.db}
RUNS=${KAB_DEMO_RUNS:-5}

rm -f "$DB" "$DB-wal" "$DB-shm"
mkdir -p "$(dirname "$DB")"
echo "== kab demo: A/A on $(uname -r), $RUNS iterations per side, database $DB"
echo

# Interleave the sides iteration by iteration (A B A B ...) so that the
# machine's drift falls on both; kab compare pools the runs of a label.
run_sides() {
	local job=$1 side i
	shift
	echo "-- $job $*: A and B interleaved, $RUNS iterations each"
	for i in $(seq 1 "$RUNS"); do
		for side in A B; do
			$KAB --db "$DB" run --kernel-label "$side" --runs 1 \
				"$@" "$job" >/dev/null
			printf '   %s %d/%d ok\n' "$side" "$i" "$RUNS"
		done
	done
}
run_sides jobs/will-it-scale-malloc1.yaml --set warmup=2 --set testtime=3s
run_sides jobs/stress-ng-radixsort.yaml --set testtime=3s

echo "== what was stored"
$KAB --db "$DB" ls
echo
$KAB --db "$DB" show --metric 'will-it-scale.*' 1 | head -12
echo
echo "== the same runs as CSV (first rows)"
$KAB --db "$DB" export --format csv | head -5
echo
echo "== A against B, lkp's table: rows are the significant changes only"
echo "   (an A/A run: any row here is this machine's drift, not the kernel)"
$KAB --db "$DB" compare --plot A B
echo
echo "Next: 'kab --db $DB show ID' for every metric of a run,"
echo "      'kab --db $DB compare --all --stats A B' for every row with p and CI,"
echo "      'kab --db $DB export --format json' for everything."
