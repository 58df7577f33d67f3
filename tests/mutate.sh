#!/bin/bash
# make mutate: do the fast tests catch plausible bugs?  Each file in
# tests/mutants/ is a patch that plants one bug in kab's own code.  For
# each, in a copy of the tree: apply it, rebuild (incrementally), run the
# tests its Killed-by: line names, then the other fast tests, stopping at
# the first failure.  A mutant that no test fails survived: a test is
# missing.  The last line is "K of N mutants killed (P%)".
#
#   tests/mutate.sh                 every mutant
#   tests/mutate.sh NAME...         these (a file name, or its stem)
#   tests/mutate.sh --check         only: does every mutant still apply?
#
# The fast tests are the unit tests and every tests/cli file that boots
# no kernel (QEMU under TCG would make each mutant cost minutes).
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-build}
MUTANTS=$TOP/tests/mutants
FAST_CLI="t0-basics.sh t1-malloc1.sh t2-radixsort.sh t3-store.sh
t4-badinput.sh t5-interrupt.sh t6-noise.sh t7-compare.sh t8-stats-oracle.sh
t12-report.sh t13-ci.sh t14-ssh.sh t16-hostile.sh t17-crash.sh t18-lkp-jobs.sh"

die() {
	echo "mutate: $*" >&2
	exit 2
}

# The header line "Key: value" of a mutant, or nothing.
field() {
	sed -n "/^diff --git/q; s/^$2: *//p" "$1"
}

mutants=()
check_only=
for a in "$@"; do
	case "$a" in
	--check) check_only=1 ;;
	-*) die "unknown option '$a': see the comment at the top of $0" ;;
	*)
		f=$MUTANTS/${a%.patch}.patch
		[ -f "$f" ] || die "no mutant $a in tests/mutants"
		mutants+=("$f")
		;;
	esac
done
[ ${#mutants[@]} -gt 0 ] || mutants=("$MUTANTS"/*.patch)
[ -f "${mutants[0]}" ] || die "no mutants in tests/mutants"

# Every mutant must apply to the tree as it is, and say what it breaks
# and what should catch it; a stale one is an error, not a survivor.
bad=0
for m in "${mutants[@]}"; do
	name=$(basename "$m" .patch)
	if ! git apply --check "$m" 2>/dev/null; then
		echo "mutate: $name no longer applies: redo it on the current code" >&2
		bad=1
	fi
	if [ -z "$(field "$m" Subject)" ] || [ -z "$(field "$m" Killed-by)" ]; then
		echo "mutate: $name lacks a Subject: or a Killed-by: line" >&2
		bad=1
	fi
done
[ $bad = 0 ] || exit 2
if [ -n "$check_only" ]; then
	echo "${#mutants[@]} mutants apply"
	exit 0
fi

WORK=$(mktemp -d /tmp/kab-mutate.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# The tree as it is, with its build, so that the first make is cheap.
git ls-files -co --exclude-standard -z | tar -cf - --null -T - |
	tar -xf - -C "$WORK"
[ -d "$BUILD" ] && cp -a "$BUILD" "$WORK/"

build() {
	make -C "$WORK" --no-print-directory -j2 all $TEST_BINS \
		>"$WORK/make.log" 2>&1
}

TEST_BINS=$(make -s -C "$WORK" --eval 'print-bins: ; @echo $(TEST_BINS)' \
	print-bins)

# run_test NAME: one unit test binary or tests/cli file, in the copy;
# its output in $WORK/test.out.
run_test() {
	local t=$1
	case "$t" in
	test-*)
		(cd "$WORK" && env CMOCKA_MESSAGE_OUTPUT=TAP \
			KAB_FIXTURES="$WORK/tests/fixtures" "$BUILD/tests/$t")
		;;
	*)
		(cd "$WORK" && KAB_TOP=$WORK KAB_BUILD=$WORK/$BUILD \
			KAB_FAIL_FAST=1 bash "tests/cli/$t")
		;;
	esac >"$WORK/test.out" 2>&1 && ! grep -q "^not ok" "$WORK/test.out"
}

fast_tests() {
	local t
	for t in "$WORK/$BUILD"/tests/test-*; do
		[ -x "$t" ] && basename "$t"
	done
	for t in $FAST_CLI; do
		echo "$t"
	done
}

build || { tail -20 "$WORK/make.log"; die "the tree does not build"; }
all_fast=$(fast_tests)
echo "# the fast tests, without a mutant"
for t in $all_fast; do
	run_test "$t" || {
		sed 's/^/#   /' "$WORK/test.out" | grep -v "^#   ok " | tail -20
		die "$t fails without a mutant: fix that first"
	}
done

killed=0
survived=()
stillborn=()
start=$(date +%s)
for m in "${mutants[@]}"; do
	name=$(basename "$m" .patch)
	t0=$(date +%s)
	(cd "$WORK" && git apply "$m") || die "$name did not apply"
	if ! build; then
		(cd "$WORK" && git apply -R "$m")
		stillborn+=("$name")
		printf "BROKEN    %-44s does not build: %s\n" "$name" \
			"$(grep -m1 "error:" "$WORK/make.log")"
		continue
	fi
	by=
	tried=
	# first the tests it names, then the others
	for t in $(field "$m" Killed-by) $all_fast; do
		case " $tried " in *" $t "*) continue ;; esac
		tried="$tried $t"
		if ! run_test "$t"; then
			by=$t
			break
		fi
	done
	(cd "$WORK" && git apply -R "$m") || die "$name did not come off"
	if [ -n "$by" ]; then
		killed=$((killed + 1))
		printf "killed    %-44s by %s (%d s)\n" "$name" "$by" \
			$(($(date +%s) - t0))
	else
		survived+=("$name")
		printf "SURVIVED  %-44s %s\n" "$name" "$(field "$m" Subject)"
	fi
done
build || die "the tree does not build again after the mutants"

n=$((${#mutants[@]} - ${#stillborn[@]}))
echo "# $(($(date +%s) - start)) s for ${#mutants[@]} mutants"
[ ${#survived[@]} -eq 0 ] || echo "# survivors: ${survived[*]}"
[ ${#stillborn[@]} -eq 0 ] ||
	echo "# mutants that do not build (fix them): ${stillborn[*]}"
[ $n -gt 0 ] || die "no mutant built"
awk -v k=$killed -v n=$n \
	'BEGIN { printf "%d of %d mutants killed (%.0f%%)\n", k, n, 100 * k / n }'
[ ${#survived[@]} -eq 0 ] && [ ${#stillborn[@]} -eq 0 ]
