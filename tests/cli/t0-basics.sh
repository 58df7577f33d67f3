#!/bin/bash
# kab's front door: help, version, usage errors and their exit codes.
. "$(dirname "$0")/lib.sh"

test_expect "kab --help lists the commands and the exit codes" '
	kab --help >$TMP/h
	for c in run ab bisect bisect-step build compare ls show export import; do
		grep -q "^  $c " $TMP/h
	done
	grep -q "2 *usage error" $TMP/h
	grep -q "1 *a run failed" $TMP/h
	grep -q "130 *interrupted by ^C" $TMP/h
'

test_expect "kab --version prints the version, as -V and kab version do" '
	kab --version | grep -Eq "^kab [0-9]+\.[0-9]+\.[0-9]+$"
	test "$(kab -V)" = "$(kab --version)"
	test "$(kab version)" = "$(kab --version)"
'

test_expect "every command has --help" '
	for c in run ab bisect build compare plan ls show export import; do
		kab $c --help >$TMP/pipe
		grep -q "usage: kab $c" $TMP/pipe
	done
	kab bisect-step --help >$TMP/pipe
	grep -q "usage: git bisect run kab bisect-step" $TMP/pipe
	# each of ci'"'"'s subcommands describes itself alone
	kab ci gate --help >$TMP/pipe
	grep -q "^usage: kab ci gate" $TMP/pipe
	grep -q -- "--threshold PCT" $TMP/pipe
	not grep -q "matrix" $TMP/pipe
	kab ci matrix --help >$TMP/pipe
	grep -q "^usage: kab ci matrix" $TMP/pipe
	not grep -q -- "--threshold" $TMP/pipe
	kab ci --help >$TMP/pipe
	grep -q "usage: kab ci matrix" $TMP/pipe
	grep -q -- "--threshold PCT" $TMP/pipe
'

test_expect "an unknown command is a usage error" '
	expect_error 2 "not a kab command" -- "$KAB" frobnicate
'

test_expect "an unknown option is a usage error" '
	expect_error 2 "unknown option" -- "$KAB" --frob
'

test_expect "a command's unknown option or missing value: one line, exit 2" '
	for c in run ab bisect build compare report merge ls show export import; do
		expect_error 2 "^kab: $c: unknown option .--frobnicate.: see .kab $c --help.$" -- "$KAB" $c --frobnicate
	done
	expect_error 2 "^kab: ci gate: unknown option .-x.: see .kab ci gate --help.$" -- "$KAB" ci gate -x
	expect_error 2 "^kab: run: option .--runs. needs a value: see .kab run --help.$" -- "$KAB" run --runs
	expect_error 2 "^kab: export: option .-o. needs a value" -- "$KAB" export -o
	# git bisect run reads 2 as "bad": bisect-step stops the bisect
	expect_error 255 "^kab: bisect-step: unknown option .--frob." -- "$KAB" bisect-step --frob
'

# issue 16's typo table: what was typed, the exit code, the one line
test_expect "typos: did you mean, as git asks; kab help CMD" '
	while IFS="|" read -r want args; do
		# shellcheck disable=SC2086
		expect_error 2 "^$want\$" -- "$KAB" $args
	done <<-EOF
	kab: run: unknown option .--rnus.: did you mean .--runs.? see .kab run --help.|run --rnus 3 x.yaml
	kab: run: unknown option .--rnus=3.: did you mean .--runs.? see .kab run --help.|run --rnus=3 x.yaml
	kab: .comapre. is not a kab command: did you mean .compare.? see .kab --help.|comapre a b
	kab: .sho. is not a kab command: did you mean .show.? see .kab --help.|sho 1
	kab: .lsit. is not a kab command: did you mean .ls.? see .kab --help.|lsit
	kab: .list. is not a kab command: did you mean .ls.? see .kab --help.|list
	kab: .delete. is not a kab command: did you mean .rm.? see .kab --help.|delete 3
	kab: .frobnicate. is not a kab command: see .kab --help.|frobnicate
	kab: option .--db. needs a value, the database.s path: see .kab --help.|--db
	kab: compare: unknown option .--formt.: did you mean .--format.? see .kab compare --help.|compare --formt lkp a b
	kab: compare: option .--format. needs a value: see .kab compare --help.|compare a b --format
	kab: bisect: unknown option .--goood.: did you mean .--good.? see .kab bisect --help.|bisect --goood x
	kab: .comapre. is not a kab command: did you mean .compare.? see .kab --help.|help comapre
	EOF
	# missing data is 2 for every command, as a missing label is
	for c in ls "show 1" "compare a b" export "plan --detect 5 a" "report a b" "ci gate a b"; do
		# shellcheck disable=SC2086
		expect_error 2 "^kab: no database at $TMP/none.db" -- "$KAB" --db $TMP/none.db $c
	done
	"$KAB" help compare >$TMP/h
	"$KAB" compare --help >$TMP/h2
	cmp $TMP/h $TMP/h2
	grep -q "^usage: kab compare" $TMP/h
'

test_expect "the libraries know nothing of the command line; model/, driver/ and watch/ print nothing" '
	cd "$TOP"
	if grep -rnE "include \"(\.\./)*cli/|\bcli_[a-z_]+\(" --include=*.c \
		--include=*.h runner db kbuild analysis model driver watch report common; then
		fail "a library uses cli/"
	fi
	if grep -rnE "\b(f?printf|f?puts|fputc|putchar|fwrite)\(|\bstd(out|err)\b" \
		model driver watch; then
		fail "model/, driver/ or watch/ prints: return what it found, cli/ prints it"
	fi
	# the driver every target plugs into
	grep -q "^int kab_drv_run_one(" driver/driver.h
	grep -q "^int kab_drv_ab_run(" driver/driver.h
	# and what kab compare, report and ci gate are built on is there
	grep -q "^int cmp_set_build(" model/model.h
	grep -q "^int report_build(" model/model.h
	# and the report written up, for kab report and kab watch alike
	grep -q "^char \*report_mbox(" report/report.h
	grep -q "^int kab_watch_mail(" watch/watch.h
	not ls cli/report* 2>/dev/null
'

test_expect "kab --help names every variable of the environment kab reads" '
	"$KAB" --help >$TMP/h
	vars=$(cd "$TOP" && grep -rhoE "getenv\(\"(KAB|XDG)_[A-Z_]+\"\)" \
		--include=*.c cli runner db kbuild analysis model driver watch report common |
		sed "s/getenv(\"\(.*\)\")/\1/" | sort -u)
	[ -n "$vars" ]
	for v in $vars; do
		grep -q "^  $v\b\|^  .*\b$v\b.*  " $TMP/h ||
			fail "$v is read but not in kab --help"
	done
'

test_expect "kab run without a job file is a usage error naming the fix" '
	expect_error 2 "^kab: no job: try .kab run will-it-scale-malloc1. (.kab run --list-jobs. lists them)$" -- "$KAB" run
'

test_expect "kab show of a run that does not exist says so" '
	kab run --runs 1 --set testtime=1s --set warmup=0 --set nr_task=1 \
		$TOP/jobs/will-it-scale-malloc1.yaml >/dev/null
	expect_error 2 "no run 42" -- "$KAB" show 42
	expect_error 2 "neither a run id nor the label" -- "$KAB" show abc
	expect_error 2 "no run 42" -- "$KAB" export 42
	expect_error 2 "not a run id" -- "$KAB" show 0
'

test_expect "the database defaults to KAB_DB, then XDG_DATA_HOME, then HOME" '
	unset KAB_DB
	XDG_DATA_HOME=$TMP/xdg kab run --runs 1 --set testtime=1s \
		--set warmup=0 --set nr_task=1 \
		$TOP/jobs/will-it-scale-malloc1.yaml >$TMP/o
	grep -q "stored in $TMP/xdg/kab/kab.db" $TMP/o
	unset XDG_DATA_HOME
	kab run --runs 1 --set testtime=1s --set warmup=0 --set nr_task=1 \
		$TOP/jobs/will-it-scale-malloc1.yaml >$TMP/o
	grep -q "stored in $HOME/.local/share/kab/kab.db" $TMP/o
	test -f $TMP/xdg/kab/kab.db
'

test_expect "a live progress line goes to a terminal, plain lines to a pipe" '
	# (a label names the kernel of a boot; this machine'"'"'s run needs none)
	script -qec "TERM=xterm $KAB run --kernel-label mine --runs 2 --set nr_task=1 --set warmup=0 --set testtime=1s $TOP/jobs/will-it-scale-malloc1.yaml" /dev/null >$TMP/tty
	grep -aq "\[1/1\] will-it-scale malloc1: iteration 2 of 2, elapsed [0-9]*:[0-5][0-9], ETA [0-9]*:[0-5]" $TMP/tty
	# the live line is redrawn in place: a terminal gets no plain lines
	not grep -aq "^kab: \[1/1\] will-it-scale malloc1: iteration" $TMP/tty
	kab run --runs 2 --set nr_task=1 --set warmup=0 --set testtime=1s \
		$TOP/jobs/will-it-scale-malloc1.yaml >$TMP/o 2>$TMP/e
	cat $TMP/e
	# off a terminal (CI logs, | tee): a line an iteration, no redraws
	grep -q "^kab: \[1/1\] will-it-scale malloc1: iteration 1 of 2, elapsed [0-9]*:[0-5][0-9], ETA [0-9]*:[0-5][0-9]$" $TMP/e
	grep -q "^kab: \[1/1\] will-it-scale malloc1: iteration 2 of 2, elapsed [0-9]*:[0-5][0-9], ETA [0-9]*:[0-5][0-9]$" $TMP/e
	not grep -q "$(printf "\r")" $TMP/e
	# before an iteration has ended the ETA is what the job says: 2
	# iterations of its testtime and warmup (and 0.2 s to start), not 0
	grep -q "^kab: \[1/1\] will-it-scale malloc1: iteration 1 of 2, .* ETA 0:0[12]$" $TMP/e
	# a list of jobs: from its second on, the ETA is the whole list'"'"'s
	kab run --runs 1 --set "nr_task=[1,2]" --set warmup=0 --set testtime=1s \
		$TOP/jobs/will-it-scale-malloc1.yaml >$TMP/o 2>$TMP/e
	grep -q "^kab: \[1/2\] will-it-scale malloc1: iteration 1 of 1, elapsed [0-9:]*, ETA [0-9:]*$" $TMP/e
	grep -q "^kab: \[2/2\] will-it-scale malloc1: iteration 1 of 1, elapsed [0-9:]*, ETA of all [0-9:]*$" $TMP/e
'

test_expect "-v shows the commands kab runs, quoted for a shell; -- ends the options" '
	Q="--set nr_task=1 --set warmup=0 --set testtime=1s"
	# a lava-run that fails at once: what kab runs, without a guest
	printf "#!/bin/sh\nexit 1\n" >"$TMP/lava run"
	chmod +x "$TMP/lava run"
	n=0
	for v in "-v run" "run --verbose" "run"; do
		n=$((n + 1))
		rc=0
		# shellcheck disable=SC2086
		KAB_LAVA_RUN="$TMP/lava run" "$KAB" $v --target lava:local \
			$Q will-it-scale-malloc1 2>$TMP/e.$n || rc=$?
		test $rc = 1
	done
	cat $TMP/e.1
	grep -q "^kab: running '"'"'$TMP/lava run'"'"' --job-id [0-9]* --output-dir .* --device .*\.yaml$" $TMP/e.1
	grep -q "^kab: running '"'"'$TMP/lava run'"'"' " $TMP/e.2
	# without it, the failure alone
	cat $TMP/e.3
	grep -q "lava-run failed" $TMP/e.3
	not grep -q "^kab: running " $TMP/e.3
	# after --, --verbose and --quiet are words, not options
	expect_error 2 "^kab: .--verbose. is neither a run id nor the label" -- \
		"$KAB" show -- --verbose
'

test_expect "TERM=dumb gets plain lines, --quiet none: errors and results only" '
	Q="--runs 2 --set nr_task=1 --set warmup=0 --set testtime=1s"
	script -qec "TERM=dumb $KAB run $Q will-it-scale-malloc1" /dev/null >$TMP/dumb
	grep -aq "^kab: \[1/1\] will-it-scale malloc1: iteration 2 of 2" $TMP/dumb
	# the lines with an escape, if any, shown as cat -v shows them
	grep -a "$(printf "\033")" $TMP/dumb | cat -v >$TMP/esc || true
	cat $TMP/esc
	test ! -s $TMP/esc
	# --quiet after the command or -q before it: no progress, no note
	kab run --quiet $Q --monitors nosuch-and-more will-it-scale-malloc1 >$TMP/o 2>$TMP/e || true
	kab run $Q --quiet will-it-scale-malloc1 >$TMP/o 2>$TMP/e
	cat $TMP/e
	test ! -s $TMP/e
	grep -q "will-it-scale.per_process_ops" $TMP/o
	script -qec "TERM=xterm $KAB -q run $Q will-it-scale-malloc1" /dev/null >$TMP/qtty
	not grep -aq "iteration [0-9] of" $TMP/qtty
	grep -aq "will-it-scale.per_process_ops" $TMP/qtty
	# errors still go out under --quiet
	expect_error 2 "no job" -- "$KAB" --quiet run
	# notes too: kab compare --format lkp of a run with itself says
	# why it printed nothing, unless asked to be quiet
	id=$(sqlite3 $KAB_DB "SELECT max(id) FROM runs")
	kab compare --format lkp $((id - 1)) $id >$TMP/o 2>$TMP/e
	grep -q "^kab: note: " $TMP/e
	kab compare --quiet --format lkp $((id - 1)) $id >$TMP/o 2>$TMP/e
	test ! -s $TMP/e
	# and --quiet is no option value: kab build keeps its own
	"$KAB" build --help | grep -q -- "--quiet, -q"
'

test_done
