#!/bin/bash
# make bench: figures, not pass/fail.  Speed and memory claims in the
# README come from here.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
KAB=$BUILD/kab
TMP=$(mktemp -d /tmp/kab-bench.XXXXXX)
USER_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}
trap 'rm -rf "$TMP"' EXIT

echo "== statistics: power to call a change of the KPI"
$BUILD/tests/bench-power

echo
echo "== change points over a series of commits (kab's E-divisive means)"
$BUILD/tests/bench-changepoint

echo
echo "== host side: stream parsing and storage"
$BUILD/tests/bench-stream

echo
echo "== kab run overhead: a 1 s malloc1 iteration, wall time per iteration"
start=$(date +%s.%N)
$KAB --db "$TMP/b.db" run --runs 5 --set nr_task=1 --set warmup=0 \
	--set testtime=1s jobs/will-it-scale-malloc1.yaml >/dev/null 2>&1
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN {
	printf "  %.3f s per 1.000 s iteration (%.0f ms of kab around it)\n",
		(e - s) / 5, ((e - s) / 5 - 1) * 1000 }'
printf "  database: %s KiB for 5 iterations\n" \
	"$(du -k "$TMP/b.db" | cut -f1)"

echo
echo "== kab compare: 2 sides x 10,000 metrics x 5 boots x 6 iterations"
/usr/bin/python3 tests/bench/make-wide-export.py 10000 >"$TMP/wide.json"
$KAB --db "$TMP/wide.db" import "$TMP/wide.json" >/dev/null
for run in 1 2 3; do
	start=$(date +%s.%N)
	$KAB --db "$TMP/wide.db" compare A B >"$TMP/wide.txt"
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v r="$run" 'BEGIN {
		printf "  run %d: %.3f s\n", r, e - s }'
done
printf "  rows shown: %d of 10000 (100 shifted by 5%%)\n" \
	"$(grep -c "bench.metric_" "$TMP/wide.txt")"
start=$(date +%s.%N)
$KAB --db "$TMP/wide.db" compare --format json A B >/dev/null
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN {
	printf "  --format json, every number of every row: %.3f s\n",
		e - s }'

echo
echo "== a run at the cap: 20,000 metrics of 7 monitors, 5 boots x 6 iterations a side"
/usr/bin/python3 tests/bench/make-wide-export.py 20000 7 >"$TMP/cap.json"
$KAB --db "$TMP/cap.db" import "$TMP/cap.json" >/dev/null
# the completion helper is what a TAB costs: the metrics of the newest
# 20 runs, the labels and run ids of all
for what in "show 1" "compare A B" "compare --format lkp A B" \
	    "report --kpi bench.metric_00000 A B" \
	    "--completion-helper metrics" "--completion-helper labels"; do
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	$KAB --db "$TMP/cap.db" $what >/dev/null 2>&1
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v w="$what" 'BEGIN {
		printf "  kab %s: %.3f s\n", w, e - s }'
done

echo
echo "== kab report, kab merge and kab ci gate on the same 10,000-metric database"
timed() {
	local what=$1 start end
	shift
	start=$(date +%s.%N)
	"$@" >/dev/null
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v w="$what" 'BEGIN {
		printf "  %s: %.3f s\n", w, e - s }'
}
timed "kab report (text)" $KAB --db "$TMP/wide.db" report --kpi bench.metric_00000 A B
timed "kab report --format html" $KAB --db "$TMP/wide.db" report --kpi bench.metric_00000 --format html A B
timed "kab merge into an empty database (600,000 samples)" $KAB merge "$TMP/merged.db" "$TMP/wide.db"
timed "kab merge again (nothing to add)" $KAB merge "$TMP/merged.db" "$TMP/wide.db"
timed "kab ci gate --kpi (JUnit and summary)" sh -c "$KAB --db $TMP/wide.db ci gate --kpi bench.metric_00000 --junit $TMP/j.xml --summary $TMP/s.md A B || true"
if [ -x /usr/bin/python3 ] && command -v qemu-system-x86_64 >/dev/null && ls /boot/vmlinuz-* >/dev/null 2>&1; then
	start=$(date +%s.%N)
	XDG_CACHE_HOME=$TMP/cache /usr/bin/python3 tests/ci/run-workflow.py github \
		examples/ci/github-actions.yml "$TMP/wf" KAB_PREBUILT=1 KAB="$(realpath $KAB)" \
		KAB_KERNEL_base= "KAB_KERNEL_head=--cmdline slub_debug=FZPU" \
		JOBS=kab/jobs/will-it-scale-malloc1.yaml BOOTS=4 RUNS=3 \
		"KAB_SET=--set nr_task=1 --set warmup=0 --set testtime=1s" >/dev/null
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" 'BEGIN {
		printf "  the GitHub example run here, 1 cell x 8 QEMU boots (both kernels), merged and gated: %.0f s\n", e - s }'
fi

echo
echo "== a boot's dead time: Debian's kernel under QEMU, malloc1 1 s x 1, --clock wall"
if command -v qemu-system-x86_64 >/dev/null && ls /boot/vmlinuz-* >/dev/null 2>&1; then
	export XDG_CACHE_HOME="$TMP/cache"
	for entry in pvh bzimage; do
		for b in 1 2 3; do
			KAB_BOOT=$entry $KAB --db "$TMP/q-$entry.db" ab \
				--clock wall \
				--a-label x --b-label y --boots 1 \
				--runs-per-boot 1 --set nr_task=1 --set warmup=0 \
				--set testtime=1s \
				--job jobs/will-it-scale-malloc1.yaml 2>/dev/null |
				grep "^boot " | sed 's/^/  /'
		done
		sqlite3 "$TMP/q-$entry.db" "SELECT printf('  %s: from QEMU start: agent up %.1f s, first sample %.1f s, power-off %.1f s (mean of %d boots, %s)', entry, avg(hello), avg(first_sample), avg(seconds), count(*), accel) FROM boots"
	done
	ls -la "$TMP"/cache/kab/initramfs-*.cpio | awk '{ printf "  initramfs: %.1f MiB, uncompressed\n", $5 / 1048576 }' | head -1
else
	echo "  (no QEMU or no kernel in /boot: make deps installs them)"
fi

echo
echo "== a boot as a LAVA job: lava-run (the dispatcher here) on kab's qemu device,"
echo "   against the qemu target's boots above; malloc1 1 s x 1, 3 boots, wall clock"
if command -v lava-run >/dev/null && command -v qemu-system-x86_64 >/dev/null &&
   ls /boot/vmlinuz-* >/dev/null 2>&1; then
	export XDG_CACHE_HOME="$TMP/cache"
	for b in 1 2 3; do
		$KAB --db "$TMP/q-lava.db" run --target lava:local --runs 1 \
			--set nr_task=1 --set warmup=0 --set testtime=1s \
			--monitors none jobs/will-it-scale-malloc1.yaml >/dev/null 2>&1
	done
	sqlite3 "$TMP/q-lava.db" "SELECT printf('  lava: from lava-run start: agent up %.1f s, first sample %.1f s, job done %.1f s (mean of %d boots, %s)', avg(hello), avg(first_sample), avg(seconds), count(*), qemu_version) FROM boots WHERE outcome = 'ok'"
else
	echo "  (no lava-run, QEMU or kernel in /boot: make deps installs them)"
fi

echo
echo "== the perf-profile monitor's cost: malloc1 with and without it, interleaved"
echo "   (per_process_ops, nr_task=1; every other monitor on every way;"
echo "   the profile at lkp's 800 Hz and at 200 Hz, --monitors all,perf-profile=200)"
# every monitor but perf-profile (kab run --help lists them)
others=proc-vmstat,meminfo,numa-vmstat,numa-meminfo,interrupts,softirqs
others=$others,perf-stat,dmesg
profile_cost() {
	local target=$1 rounds=$2 db=$TMP/profile-$1.db way
	for b in $(seq 1 "$rounds"); do
		for way in without 800 200; do
			$KAB --db "$db" run --target "$target" --runs 3 \
				$([ "$target" = qemu ] && echo --clock wall) \
				--kernel-label "$way" --monitors "$([ $way = without ] &&
				echo $others || echo all,perf-profile=$way)" \
				--set nr_task=1 --set warmup=0 --set testtime=1s \
				jobs/will-it-scale-malloc1.yaml >/dev/null 2>&1 || true
		done
	done
	sqlite3 "$db" "WITH m AS (SELECT k.label l, avg(s.value) v, count(DISTINCT r.id) n FROM samples s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id WHERE s.metric = 'will-it-scale.per_process_ops' GROUP BY k.label), p AS (SELECT k.label l, avg(s.value) v FROM samples s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id WHERE s.metric = 'perf-profile.samples' GROUP BY k.label) SELECT printf('  %s: without %.0f ops/s; %s Hz %.0f: %+.1f%%, %.0f samples an iteration (%d runs each)', '$target', w.v, m.l, m.v, 100.0 * (m.v - w.v) / w.v, p.v, w.n) FROM m, m w, p WHERE w.l = 'without' AND m.l != 'without' AND p.l = m.l ORDER BY m.l + 0 DESC"
}
profile_cost local 10
if command -v qemu-system-x86_64 >/dev/null && ls /boot/vmlinuz-* >/dev/null 2>&1; then
	XDG_CACHE_HOME="$TMP/cache" profile_cost qemu 6
fi

echo
echo "== exact mode: the spread of boot means, --clock icount against --clock wall,"
echo "   the host idle and with a CPU hog (a busy loop per CPU) beside it"
echo "   (3 boots a cell, one vCPU; malloc1 nr_task=1 2 x 2 s, radixsort 2 x 4"
echo "   bogo-ops; the demo's base kernel when make demo built it, else /boot's;"
echo "   icount-seeds: 6 boots at layout seeds 1-6, the spread exact mode samples;"
echo "   icount-luck: 6 boots with the guest's RDRAND and the kernel's own"
echo "   address-space randomization back, unseeded)"
if command -v qemu-system-x86_64 >/dev/null && ls /boot/vmlinuz-* >/dev/null 2>&1; then
	kernel=$(ls -t "$USER_CACHE"/kab/kernels/*/bzImage 2>/dev/null | tail -1)
	[ -n "$kernel" ] || kernel=$(ls /boot/vmlinuz-* | sort -V | tail -1)
	echo "   kernel: $kernel"
	hogs=""
	hog_on() {
		local i
		for i in $(seq "$(nproc)"); do
			(trap "exit 0" TERM; while :; do :; done) >/dev/null 2>&1 &
			hogs="$hogs $!"
		done
	}
	hog_off() {
		[ -z "$hogs" ] || kill $hogs 2>/dev/null || true
		hogs=""
	}
	trap 'hog_off; rm -rf "$TMP"' EXIT
	exact_cell() {
		local clock=$1 load=$2 extra=${3:-} boots=${4:-3} seeds=${5:-} b
		[ "$load" = hog ] && hog_on
		for b in $(seq "$boots"); do
			# one seed (1) a cell but where the seeds are sampled
			[ -n "$seeds" ] && extra="--layout-seed $b"
			$KAB --db "$TMP/exact.db" run --target qemu --smp 1 \
				--clock "$clock" --kernel "$kernel" $extra \
				--kernel-label "$clock-$load" --monitors none \
				--runs 2 --set nr_task=1 --set warmup=1 \
				--set testtime=2s jobs/will-it-scale-malloc1.yaml \
				>/dev/null 2>&1 || true
			$KAB --db "$TMP/exact.db" run --target qemu --smp 1 \
				--clock "$clock" --kernel "$kernel" $extra \
				--kernel-label "$clock-$load" --monitors none \
				--runs 2 --set testtime=2s --set ops=4 \
				jobs/stress-ng-radixsort.yaml >/dev/null 2>&1 || true
		done
		hog_off
	}
	for load in idle hog; do
		exact_cell icount "$load"
		exact_cell wall "$load"
	done
	# and what luck alone would move: the guest's RDRAND (the host's
	# entropy) and address-space randomization back, through a QEMU
	# that undoes exact mode's -cpu and norandmaps
	cat >"$TMP/luck-qemu" <<-EOS
	#!/bin/bash
	args=()
	for a; do
		a=\${a/max,-rdrand,-rdseed/max}
		args+=("\${a/ norandmaps/}")
	done
	exec qemu-system-x86_64 "\${args[@]}"
	EOS
	chmod +x "$TMP/luck-qemu"
	exact_cell icount seeds "" 6 seeded
	KAB_QEMU=$TMP/luck-qemu exact_cell icount luck "" 6
	/usr/bin/python3 - "$TMP/exact.db" <<-'PY'
	import sqlite3, statistics as st, sys
	con = sqlite3.connect(sys.argv[1])
	kpis = ("will-it-scale.per_process_ops", "stress-ng.radixsort.ops_per_sec")
	def cell(label, metric):
	    rows = con.execute("SELECT r.id, avg(s.value), b.seconds FROM runs r "
	        "JOIN kernels k ON k.id = r.kernel_id JOIN samples s ON "
	        "s.run_id = r.id JOIN boots b ON b.run_id = r.id WHERE "
	        "k.label = ? AND s.metric = ? AND r.status = 'ok' GROUP BY r.id",
	        (label, metric)).fetchall()
	    means = [m for _, m, _ in rows]
	    if len(means) < 2:
	        return None
	    mean = st.mean(means)
	    return (100 * st.stdev(means) / mean,
	            100 * (max(means) - min(means)) / mean,
	            st.mean(s for _, _, s in rows), len(means), mean)
	for m in kpis:
	    print("  %s" % m)
	    print("    %-12s %8s %12s %12s %10s" % ("clock, host", "boots",
	          "sd of means", "max - min", "s a boot"))
	    got = {}
	    for label in ("icount-idle", "icount-hog", "wall-idle", "wall-hog",
	                  "icount-seeds", "icount-luck"):
	        c = cell(label, m)
	        got[label] = c
	        if c:
	            print("    %-12s %8d %11.3f%% %11.3f%% %10.0f" %
	                  (label, c[3], c[0], c[1], c[2]))
	    for load in ("idle", "hog"):
	        i, w = got.get("icount-" + load), got.get("wall-" + load)
	        if i and w:
	            ratio = ("%.0fx" % (w[0] / i[0])) if i[0] > 0 else "exact (0 against %.2f%%)" % w[0]
	            print("    %s: wall's spread over icount's: %s" % (load, ratio))
	PY
else
	echo "  (no QEMU or no kernel in /boot: make deps installs them)"
fi

echo
echo "== exact mode's cost model: host time of a boot with --model spr and without"
echo "   (QEMU 10; 2 boots each way at layout seed 1, interleaved; malloc1"
echo "   nr_task=1 warmup and 2 x 2 s, radixsort 2 x 4 bogo-ops; the kernel above)"
major=$(qemu-system-x86_64 --version 2>/dev/null |
	sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p')
if [ "${major:-0}" -ge 10 ] && [ -n "${kernel:-}" ]; then
	for b in 1 2; do
		for model in none spr; do
			m=""
			[ $model = spr ] && m="--model spr"
			$KAB --db "$TMP/model.db" run --target qemu --clock icount \
				--kernel "$kernel" --layout-seed 1 $m \
				--kernel-label "$model" --runs 2 --set nr_task=1 \
				--set warmup=1 --set testtime=2s \
				jobs/will-it-scale-malloc1.yaml >/dev/null 2>&1 || true
			$KAB --db "$TMP/model.db" run --target qemu --clock icount \
				--kernel "$kernel" --layout-seed 1 $m \
				--kernel-label "$model" --runs 2 --set testtime=2s \
				--set ops=4 jobs/stress-ng-radixsort.yaml \
				>/dev/null 2>&1 || true
		done
	done
	sqlite3 "$TMP/model.db" "SELECT printf('  %-9s model %-4s  agent up %5.1f s, first sample %5.1f s, power-off %5.1f s (mean of %d boots)', r.test, k.label, avg(b.hello), avg(b.first_sample), avg(b.seconds), count(*)) FROM boots b JOIN runs r ON r.id = b.run_id JOIN kernels k ON k.id = r.kernel_id WHERE r.status = 'ok' GROUP BY r.test, k.label ORDER BY r.test, k.label"
else
	echo "  (needs QEMU 10: make deps installs it from bookworm-backports)"
fi

echo
echo "== noise at the source: malloc1 between and within boots under QEMU, --clock wall"
echo "   (10 boots of 5 x 1 s iterations each way, interleaved; b/w is the"
echo "   between-boot variance over the within-boot one, kab show's column)"
if command -v qemu-system-x86_64 >/dev/null && ls /boot/vmlinuz-* >/dev/null 2>&1; then
	export XDG_CACHE_HOME="$TMP/cache"
	for b in $(seq 1 10); do
		for way in before after; do
			KAB_QEMU_PREALLOC=$([ $way = before ] && echo 0 || echo 1) \
				$KAB --db "$TMP/noise.db" run --target qemu --runs 5 \
				--clock wall \
				--kernel-label $way --monitors none --set nr_task=1 \
				--set warmup=0 --set testtime=1s \
				jobs/will-it-scale-malloc1.yaml >/dev/null 2>&1 || true
		done
	done
	for way in before after; do
		what=$([ $way = before ] && echo "(no -mem-prealloc)" ||
			echo "(-mem-prealloc)   ")
		$KAB --db "$TMP/noise.db" show --metric will-it-scale.per_process_ops \
			$way | awk -v w="$way $what" '
			$NF == "will-it-scale.per_process_ops" {
				printf "  %s: %s boots, within %s, between %s, b/w %s\n",
					w, $2, $5, $6, $9 }'
	done
else
	echo "  (no QEMU or no kernel in /boot: make deps installs them)"
fi

echo
echo "== null changes under exact mode: kab ab's defaults (3 boots a side at"
echo "   layout seeds 1-3, 3 runs a boot) on the demo's kernels, malloc1"
echo "   nr_task=1 and radixsort, a database a pair; a null change moves a"
echo "   layout, not a code path; the real ones beside them"
tree=$USER_CACHE/kab/demo/linux-6.1
if [ -d "$tree/.git" ] && command -v qemu-system-x86_64 >/dev/null; then
	# an older demo tree gets its null-* tags
	XDG_CACHE_HOME=$USER_CACHE scripts/demo-tree.sh >/dev/null
	null_pair() {	# NAME A B [B's command line]
		local name=$1 a=$2 b=$3 extra=() job out
		[ -n "${4:-}" ] && extra=(--b-cmdline "$4")
		for job in "jobs/will-it-scale-malloc1.yaml --set nr_task=1 --set warmup=1 --set testtime=2s" \
			   "jobs/stress-ng-radixsort.yaml --set testtime=2s --set ops=4"; do
			# shellcheck disable=SC2086
			out=$(XDG_CACHE_HOME=$USER_CACHE $KAB --db "$TMP/null-$name.db" \
				ab --tree "$tree" --a-rev "kab-demo/$a" \
				--b-rev "kab-demo/$b" "${extra[@]}" --a-label "$a" \
				--b-label "$name" --job $job 2>&1)
			printf '%s\n' "$out" |
				sed -n "s/^kab: look [0-9]* of [0-9]* ([0-9]* against [0-9]* boots): \([^ ]*\) [^ ]* -> [^ ]* \([^,]*\), .*interval \(\[[^]]*\]\): \(.*\)/  $name: \1 \2 \3 \4/p"
			printf '%s\n' "$out" | grep -q "^kab noticed" &&
				echo "  $name: called" || echo "  $name: not called"
		done
	}
	null_pair null-comment base null-comment
	null_pair null-func base null-func
	null_pair null-localversion base null-localversion
	null_pair null-global base null-global
	null_pair null-cmdline base base foo=bar
	null_pair align base align
	null_pair fix align fix
else
	echo "  (no demo tree in $tree or no QEMU: make demo builds it)"
fi

echo
echo "== kab build of a kernel it built before (the demo's three, if make demo ran)"
tree=$USER_CACHE/kab/demo/linux-6.1
if [ -d "$tree/.git" ]; then
	for rev in base align fix; do
		start=$(date +%s.%N)
		XDG_CACHE_HOME=$USER_CACHE $KAB --db "$TMP/b.db" build --tree "$tree" \
			--rev kab-demo/$rev -q >/dev/null 2>&1 || continue
		end=$(date +%s.%N)
		awk -v s="$start" -v e="$end" -v r="$rev" 'BEGIN {
			printf "  kab-demo/%s: %.1f s\n", r, e - s }'
	done
else
	echo "  (no demo tree in $tree: make demo builds it)"
fi
