#!/bin/bash
# make demo: the seed's story, reproduced on this machine by kernels kab
# builds itself.  Debian's linux-source-6.1 is built three times from
# kconfigs/ (tinyconfig plus what kab needs):
#   base   as is
#   align  + examples/0001: anonymous mappings of 2 MiB or more are
#          THP-aligned (what upstream efa7df3e3bb5 did)
#   fix    + examples/0002: only lengths that are PMD-size multiples
#          (what d4148aeab412 did)
# Each is booted under QEMU, boots interleaved in an order that turns
# each round, malloc1 and radixsort in each, everything stored in
# .demo/kab.db and compared in lkp's three-column table.  Under TCG (no
# usable KVM) the guests are timed by their instructions (QEMU icount,
# kab's exact mode): the host's load is out of the numbers, and round k
# of every kernel boots at layout seed k, so that the kernels are
# compared over the same three layouts (where malloc1's mapping lands,
# the environment's size, the stack and the heap) and each boot repeats
# to the last digit.  With QEMU 10, radixsort's windows also run through
# kab's cost model of a Sapphire Rapids core's caches and TLBs
# (--model spr), which times them in modelled cycles: the seed's
# radixsort regression is one of TLB and cache misses, which
# instructions alone do not show.  The first run builds (about 10-20 minutes on 2
# cores); later runs reuse the cached kernels.
set -eu
cd "$(dirname "$0")/.."
KAB=./build/kab
DB=${KAB_DEMO_DB:-.demo/kab.db}
BOOTS=${KAB_DEMO_BOOTS:-3}
RUNS=${KAB_DEMO_RUNS:-2}
# radixsort's fixed work an iteration under icount: bogo-ops
OPS=${KAB_DEMO_OPS:-4}
KERNELS="base align fix"

# radixsort's half is TLB and cache misses: QEMU 10's plugin API lets
# kab's cost model (--model spr, doc/exact.md) see them
qemu_major=$("${KAB_QEMU:-qemu-system-x86_64}" --version 2>/dev/null |
	sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p')
if [ "${qemu_major:-0}" -ge 10 ]; then
	MODEL="--model spr"
else
	MODEL=""
	echo "make demo: QEMU ${qemu_major:-?} runs radixsort without the cost model, which needs QEMU 10 (make deps installs it from bookworm-backports)" >&2
fi

rm -f "$DB" "$DB-wal" "$DB-shm"
mkdir -p "$(dirname "$DB")"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
tree=$(scripts/demo-tree.sh)

echo "== kab demo: the seed's two stories on Debian's 6.1, three kernels"
echo "   tree $tree"
echo "   database $DB; $BOOTS boots per kernel, interleaved"
echo
echo "== building (kab build: cached by commit, config and compiler)"
for k in $KERNELS; do
	$KAB --db "$DB" build --tree "$tree" --rev kab-demo/$k -q >/dev/null
done
echo
echo "== measuring: malloc1 ($RUNS runs a boot) and radixsort (2 runs of $OPS bogo-ops a boot${MODEL:+, cost model spr})"
# The order turns each round (base align fix, align fix base, fix base
# align): a kernel is not always the one booted after align, whose
# guest cleared 2 MiB pages, nor always first.  With a fixed order, fix
# came out 9.5% slower than base in a demo run (p = 0.024) and 12%
# faster in an A/B of the two alone: position, not the kernel.
# One boot of kernel $2 in round $1 (the job and its options after): its
# line, or what went wrong and one more try; a demo whose table would
# lack a boot stops and says why.
measure() {
	local round=$1 k=$2 try rc err=$DIR/run.err
	shift 2
	for try in 1 2; do
		rc=0
		# shellcheck disable=SC2086
		$KAB --db "$DB" run --tree "$tree" --rev kab-demo/$k \
			--kernel-label $k --layout-seed $round "$@" \
			>"$DIR/run.out" 2>"$err" || rc=$?
		if [ $rc = 0 ]; then
			grep "^run " "$DIR/run.out" |
				sed -E "s/ \(.*\)//; s/, stored in .*//" |
				sed "s/^/  round $round: $k: /"
			return 0
		fi
		echo "  round $round: $k: the run failed (exit $rc):"
		grep "^kab: " "$err" | grep -v "^kab: \[" | tail -4 |
			sed "s/^/    /"
		[ $try = 2 ] || echo "  round $round: $k: booting it again"
	done
	echo "make demo: a boot of $k failed twice; what it stored is in $DB ('kab --db $DB ls')" >&2
	exit 1
}

order=($KERNELS)
for round in $(seq 1 "$BOOTS"); do
	n=${#order[@]}
	turn=""
	for i in $(seq 0 $((n - 1))); do
		turn="$turn ${order[$(( (i + round - 1) % n ))]}"
	done
	for k in $turn; do
		for job in "jobs/will-it-scale-malloc1.yaml --runs $RUNS --set nr_task=1 --set warmup=1 --set testtime=3s" \
			   "jobs/stress-ng-radixsort.yaml --runs 2 --set testtime=2s --set ops=$OPS $MODEL"; do
			# shellcheck disable=SC2086
			measure $round $k $job
		done
	done
done
echo
echo "== base against align and fix"
$KAB --db "$DB" compare $KERNELS
echo
# the seed's report: d4148aeab4 (fix) against its parent (align),
# malloc1 39 times faster and radixsort 9.2% slower on hardware
echo "== align against fix: the seed's report (both jobs)"
$KAB --db "$DB" compare align fix
echo
# radixsort: the seed's -9.2% was mostly TLB and cache misses (CPI).
# The guest's instructions show fewer page faults with huge pages and
# the instructions they cost (kab's QEMU plugin counts them); with QEMU
# 10 the cost model adds what the misses cost, in the rows marked :spr.
echo "== radixsort: huge pages, page faults, TLB and cache misses, base against align and fix"
$KAB --db "$DB" compare --all $KERNELS |
	awk '/^=+$/ { t = 0 } /radixsort\/stress-ng/ { t = 1 }
	     t && / (stress-ng\.radixsort\.ops_per_sec(:spr)?|stress-ng\.time\.minor_page_faults|proc-vmstat\.thp_fault_alloc|meminfo\.AnonHugePages|perf-stat\.total\.instructions|perf-stat\.overall\.(cpi|ipc|MPKI|dTLB-load-miss-rate%):spr|perf-stat\.total\.(dTLB-load-misses|stlb-hits|page-walk-refs|cache-misses|cycles):spr)( |$)/' ||
	true
echo
echo "Next: 'kab --db $DB report base align' for the robot's email"
echo "      (--format html -o report.html for a page with charts),"
echo "      'kab --db $DB compare --all --stats $KERNELS' for every row,"
echo "      'kab --db $DB show align' for the boots of one kernel, and"
echo "      kab bisect --tree $tree --good kab-demo/base --bad kab-demo/fix~1 \\"
echo "          --job jobs/will-it-scale-malloc1.yaml --set nr_task=1 --set warmup=1 \\"
echo "          --set testtime=1s --metric will-it-scale.per_process_ops"
echo "      to find the alignment commit (make test-kernel does that too)."
