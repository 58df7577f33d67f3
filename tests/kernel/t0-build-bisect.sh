#!/bin/bash
# make test-kernel: the slow tests.  Debian's linux-source-6.1 built for
# real with kab's fragments (about 5 minutes on 2 cores), a cache hit,
# a dropped option, a build failure, a boot of what was built, kab
# bisect naming the THP-alignment commit of the demo's history, and
# null changes (a comment, an unused global) that read as no change.
. "$(dirname "$0")/../cli/lib.sh"

JOB=$TOP/jobs/will-it-scale-malloc1.yaml
QUICK="--set nr_task=1 --set warmup=1 --set testtime=1s"
# KAB_KERNEL_CACHE=~/.cache reuses the demo's builds; by default every
# build here is made from nothing, as on a new machine.
export XDG_CACHE_HOME=${KAB_KERNEL_CACHE:-$TMP/cache}
TARBALL=/usr/src/linux-source-6.1.tar.xz
L=$TMP/linux

test_expect "Debian's plain tree builds; the same build again is a cache hit" '
	mkdir -p $L
	tar -C $L --strip-components=1 -xf $TARBALL
	start=$(date +%s)
	kab build --tree $L >$TMP/o 2>$TMP/e
	cat $TMP/e $TMP/o
	image=$(sed -n "s/^image: *//p" $TMP/o)
	file $image >$TMP/pipe
	grep -q "Linux kernel x86 boot executable bzImage" $TMP/pipe
	grep -qx "CONFIG_TRANSPARENT_HUGEPAGE=y" $(sed -n "s/^config: *\([^ ]*\).*/\1/p" $TMP/o)
	grep -q "^source: *tree-" $TMP/o
	# (cached already when KAB_KERNEL_CACHE holds this very tarball'"'"'s build)
	test "$(sql "SELECT status FROM builds")" = ok
	test "$(sql "SELECT length(config) > 1000 AND length(log) > 1000 FROM builds")" = 1
	# off a terminal: a line a phase and one every 30 s of a long one
	if [ "$(( $(date +%s) - start ))" -gt 120 ]; then
		test "$(grep -c "^kab: building .*: compiling ([0-9]* objects so far, elapsed [0-9]*:[0-9][0-9])" $TMP/e)" -ge 3
	fi
	start=$(date +%s)
	kab build --tree $L >$TMP/o2 2>$TMP/e2
	cat $TMP/e2
	grep -q "cached build" $TMP/e2
	test "$(sed -n "s/^image: *//p" $TMP/o2)" = "$image"
	check "$(date +%s) - $start < 60"
	test "$(sql "SELECT cached FROM builds ORDER BY id DESC LIMIT 1")" = 1
'

test_expect "an option Kconfig drops is an error that names it" '
	printf "CONFIG_DRM_I915=y\n" >$TMP/i915.config
	expect_error 2 "lacks CONFIG_DRM_I915=y.*Kconfig dropped it" -- \
		"$KAB" build --tree $L --kconfig $TMP/i915.config
'

test_expect "the kernel kab built boots under QEMU, entered through PVH" '
	kab run --tree $L --kernel-label built --runs 2 $QUICK $JOB >$TMP/o 2>&1
	cat $TMP/o
	id=$(sql "SELECT max(id) FROM runs")
	test "$(sql "SELECT status FROM runs WHERE id = $id")" = ok
	test "$(sql "SELECT entry || '"'"' '"'"' || outcome FROM boots WHERE run_id = $id")" = "pvh ok"
	sql "SELECT host FROM runs WHERE id = $id" >$TMP/pipe
	grep -q "6\.1\." $TMP/pipe
'

test_expect "a build that fails shows the log's last lines and is stored" '
	cp $L/mm/mmap.c $TMP/mmap.c
	echo "this is not C;" >>$L/mm/mmap.c
	expect_error 1 "make bzImage failed" -- "$KAB" build --tree $L
	grep -q "the build log.s last lines" $TMP/stderr
	grep -q "mm/mmap.c" $TMP/stderr
	test "$(sql "SELECT status FROM builds ORDER BY id DESC LIMIT 1")" = failed
	cp $TMP/mmap.c $L/mm/mmap.c
'

test_expect "kab bisect names the THP-alignment commit in the demo history" '
	T=$($TOP/scripts/demo-tree.sh)
	align=$(git -C $T rev-parse kab-demo/align)
	kab bisect --tree $T --good kab-demo/base --bad kab-demo/fix~1 \
		--job $JOB $QUICK --metric will-it-scale.per_process_ops \
		>$TMP/o 2>$TMP/e
	cat $TMP/o
	grep -q "^$align is the first bad commit" $TMP/o
	grep -q "mm: align larger anonymous mappings on THP boundaries" $TMP/o
	grep -q "proc-vmstat.thp_fault_alloc" $TMP/o
'

test_expect "kab ab of two revisions builds both (cached), compares them, says why" '
	T=$($TOP/scripts/demo-tree.sh)
	base=$(git -C $T rev-parse kab-demo/base)
	align=$(git -C $T rev-parse kab-demo/align)
	# (the runs of this A/B: the earlier tests may have stored others)
	before=$(sqlite3 $KAB_DB "SELECT coalesce(max(id), 0) FROM runs" 2>/dev/null || echo 0)
	kab ab --tree $T --a-rev kab-demo/base --b-rev kab-demo/align \
		--job $JOB $QUICK --boots 3 --runs-per-boot 2 >$TMP/o 2>$TMP/e
	cat $TMP/e $TMP/o
	grep -q "cached build" $TMP/e
	# lkp'"'"'s commit: lines, with the subjects kab build stored
	grep -q "^  ${base:0:10} (\"linux-source-6.1: Debian.s tree as is\")" $TMP/o
	grep -q "^  ${align:0:10} (\"mm: align larger anonymous mappings on THP boundaries\")" $TMP/o
	grep -q "will-it-scale.per_process_ops$" $TMP/o
	# and the profile says why: the guest clears a 2 MiB page a malloc,
	# so its page-clearing function (whichever its CPU uses) gains tens
	# of points of the samples, a row kab compare calls significant
	awk '"'"'$NF ~ /^perf-profile\.self\.[a-z-]*\.clear_page_(erms|rep|orig)$/ {
		for (i = 2; i < NF; i++) if ($i ~ /^[+-][0-9]/) { print $i; exit } }'"'"' \
		$TMP/o >$TMP/rise
	cat $TMP/rise
	check "$(cat $TMP/rise) >= 20"
	runs_of() {
		sql "SELECT group_concat(r.id) FROM runs r JOIN kernels k ON
		     k.id = r.kernel_id WHERE r.id > $before AND r.status = '"'ok'"' AND k.commit_sha = '"'"'$1'"'"'"
	}
	"$KAB" compare --format json $(runs_of $base) $(runs_of $align) >$TMP/c.json
	/usr/bin/python3 - $TMP/c.json <<-PY
	import json, re, sys
	rows = [r for t in json.load(open(sys.argv[1]))["tables"]
	        for r in t["rows"]
	        if re.fullmatch(r"perf-profile\.self\.[a-z-]+\.clear_page_(erms|rep|orig)",
	                        r["metric"])]
	assert len(rows) == 1, rows
	h = rows[0]["heads"][0]
	assert h["significant"] and h["change"] >= 20, h
	PY
'

test_expect "null changes are no change: base against an unused 4 KiB global in mm/ and a comment, seeded" '
	T=$($TOP/scripts/demo-tree.sh)
	for null in global comment; do
		kab --db $TMP/null-$null.db ab --tree $T --a-rev kab-demo/base \
			--b-rev kab-demo/null-$null --a-label base \
			--b-label null-$null --job $JOB $QUICK \
			>$TMP/o 2>$TMP/e || { cat $TMP/e $TMP/o; false; }
		cat $TMP/o
		# kab ab'"'"'s defaults: 3 boots a side, round k at seed k
		test "$(sqlite3 $TMP/null-$null.db "SELECT group_concat(seed) FROM runs ORDER BY id")" = 1,1,2,2,3,3
		grep -q "^note: [0-9]* metrics were measured at the same layout seeds" $TMP/o
		not grep -q "^kab noticed" $TMP/o
		grep -Eq "will-it-scale.per_process_ops .*(equivalent|no change|undecided)" $TMP/o $TMP/e
	done
'

test_done
