#!/bin/bash
# make demo: kab's main job on its embedded default.  Debian's kernel
# from /boot is booted under QEMU (KVM when it works, TCG otherwise)
# with two command lines -- transparent_hugepage=never against always,
# the knob at the heart of the seed's story -- boots interleaved A B A B,
# malloc1 and radixsort in each, everything stored in .demo/kab.db and
# compared in lkp's table.
set -eu
cd "$(dirname "$0")/.."
KAB=./build/kab
DB=${KAB_DEMO_DB:-.demo/kab.db}
BOOTS=${KAB_DEMO_BOOTS:-2}
RUNS=${KAB_DEMO_RUNS:-5}

rm -f "$DB" "$DB-wal" "$DB-shm"
mkdir -p "$(dirname "$DB")"
AB="$KAB --db $DB ab --a-cmdline transparent_hugepage=never
    --b-cmdline transparent_hugepage=always --boots $BOOTS
    --runs-per-boot $RUNS"

echo "== kab demo: THP never (A) against always (B), Debian's kernel under QEMU"
echo "   $BOOTS boots a side, $RUNS runs per boot; database $DB"
echo
$AB --job jobs/will-it-scale-malloc1.yaml --set nr_task=1 --set warmup=1 \
	--set testtime=1s
echo
$AB --job jobs/stress-ng-radixsort.yaml --set testtime=2s
echo
echo "== what was stored"
$KAB --db "$DB" ls
echo
echo "== malloc1 per process, both sides"
$KAB --db "$DB" compare --all --plot transparent_hugepage=never \
	transparent_hugepage=always | grep -A12 '^will-it-scale.per_process_ops$' || true
echo
echo "Next: 'kab --db $DB compare --all --stats transparent_hugepage=never transparent_hugepage=always'"
echo "      for every row with p and CI, 'kab --db $DB show ID' for one run."
