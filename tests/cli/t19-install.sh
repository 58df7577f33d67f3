#!/bin/bash
# kab as a user installs it: make install into a scratch prefix, then
# from another directory and without the checkout's help (no KAB_AGENT,
# no KAB_JOBS): jobs by name, the agent from libexec, man pages that
# name every option of every command, completion for bash and zsh, and
# make uninstall leaving nothing behind.
. "$(dirname "$0")/lib.sh"

ROOT=$TMP/root
IKAB=$ROOT/usr/bin/kab
SAN=
[ -n "${KAB_SAN:-}" ] && SAN=1

# the installed kab, from a directory far from the checkout
ikab() {
	(cd "$TMP" && env -u KAB_AGENT -u KAB_JOBS \
		PATH="$ROOT/usr/bin:/usr/bin:/bin" kab "$@")
}

test_expect "make install puts kab, its agent, jobs, man pages and completion under DESTDIR" '
	make -s -C "$TOP" install DESTDIR="$ROOT" PREFIX=/usr SAN=$SAN \
		>$TMP/make.out 2>&1 || { cat $TMP/make.out; false; }
	for f in bin/kab libexec/kab/kab-agent \
		share/kab/jobs/will-it-scale-malloc1.yaml \
		share/kab/jobs/stress-ng-radixsort.yaml \
		share/man/man1/kab.1 share/man/man1/kab-compare.1 \
		share/bash-completion/completions/kab \
		share/zsh/site-functions/_kab; do
		test -f "$ROOT/usr/$f" || fail "$f not installed"
	done
	test -x $IKAB
'

test_expect "the installed kab runs jobs by name with its libexec agent, compares and reports" '
	ikab run --list-jobs >$TMP/jobs
	cat $TMP/jobs
	grep -q "^will-it-scale-malloc1 *$ROOT/usr/share/kab/jobs/will-it-scale-malloc1.yaml" $TMP/jobs
	for l in a b; do
		ikab run --runs 1 --kernel-label $l --set nr_task=1 \
			--set warmup=0 --set testtime=1s will-it-scale-malloc1 \
			>$TMP/run.$l
	done
	test "$(sql "SELECT count(*) FROM runs WHERE status = '\''ok'\''")" = 2
	ikab compare --all a b >$TMP/cmp
	grep -q "will-it-scale.per_process_ops" $TMP/cmp
	ikab report a b >$TMP/report
	grep -q "will-it-scale-malloc1" $TMP/report
'

test_expect "a misspelt job name gets the nearest job, a job can come on stdin" '
	expect_error 2 "did you mean .will-it-scale-malloc1." -- \
		ikab run will-it-scale-maloc1
	expect_error 2 "kab run --list-jobs" -- ikab run nosuchjob
	printf "suite: will-it-scale\ntestcase: will-it-scale\nmode: process\nnr_task: 1\ntestcase_test: malloc1\nwarmup: 0\ntesttime: 1s\nwill-it-scale:\n  test: malloc1\n" >$TMP/job
	ikab run --runs 1 --kernel-label stdin - <$TMP/job >$TMP/o
	test "$(sql "SELECT job FROM runs WHERE id = (SELECT max(id) FROM runs)")" = stdin
'

test_expect "KAB_JOBS comes first on the job path" '
	mkdir -p $TMP/myjobs
	sed "s/^testtime:.*/testtime: 1s/" \
		"$ROOT/usr/share/kab/jobs/will-it-scale-malloc1.yaml" \
		>$TMP/myjobs/will-it-scale-malloc1.yaml
	(cd $TMP && KAB_JOBS=$TMP/myjobs PATH="$ROOT/usr/bin:$PATH" \
		kab run --list-jobs) >$TMP/jobs
	grep -q "^will-it-scale-malloc1 *$TMP/myjobs/" $TMP/jobs
'

# the options of a command from its option table (ci: both subcommands)
table_opts() {
	if [ "$1" = ci ]; then
		{ $IKAB ci matrix --completion-helper
		  $IKAB ci gate --completion-helper; } | sed "s/=$//" | sort -u
	else
		$IKAB $1 --completion-helper | sed "s/=$//" | sort -u
	fi
}

test_expect "each man page names every option of its command and no other, with EXIT STATUS, EXAMPLES and a pointer to kab(1)" '
	$IKAB --completion-helper commands >$TMP/cmds
	test "$(wc -l <$TMP/cmds)" -ge 14
	while read -r c; do
		[ "$c" = help ] && continue
		page=$ROOT/usr/share/man/man1/kab-$c.1
		test -f $page || fail "no man page for $c"
		MANWIDTH=200 man -l $page 2>$TMP/man.err >$TMP/man.$c
		not grep . $TMP/man.err
		for s in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" EXAMPLES \
			"FILES AND ENVIRONMENT" "SEE ALSO"; do
			grep -q "^$s\$" $TMP/man.$c || fail "kab-$c(1) has no $s"
		done
		# the files and variables are kab(1)'"'"'s, not repeated
		not grep -q "^ENVIRONMENT\$" $TMP/man.$c
		grep -q "are those of kab(1)" $TMP/man.$c
		table_opts $c | { grep -v "^--help$" || true; } >$TMP/want.$c
		if [ -s $TMP/want.$c ]; then
			grep -q "^OPTIONS\$" $TMP/man.$c || fail "kab-$c(1) has no OPTIONS"
		fi
		# OPTIONS: the terms, each a line indented by 7
		awk "/^OPTIONS\$/ { on = 1; next } /^[A-Z]/ { on = 0 }
		     on && /^       -/" $TMP/man.$c |
			{ grep -o -- "--[a-z][a-z-]*" || true; } | sort -u >$TMP/got.$c
		while read -r o; do
			grep -qx -- "$o" $TMP/got.$c ||
				fail "kab $c takes $o: kab-$c(1) does not list it"
		done <$TMP/want.$c
		while read -r o; do
			grep -qx -- "$o" $TMP/want.$c ||
				fail "kab-$c(1) lists $o: kab $c does not take it"
		done <$TMP/got.$c
	done <$TMP/cmds
	MANPATH=$ROOT/usr/share/man man -w kab | grep -q "$ROOT/usr/share/man/man1/kab.1"
	MANWIDTH=200 man -l $ROOT/usr/share/man/man1/kab.1 >$TMP/man.kab 2>/dev/null
	for s in ENVIRONMENT FILES "EXIT STATUS" COMMANDS; do
		grep -q "^$s\$" $TMP/man.kab || fail "kab(1) has no $s"
	done
	grep -q "^ *KAB_DB\>" $TMP/man.kab
	# FILES names the installed paths
	grep -q "/usr/libexec/kab/kab-agent" $TMP/man.kab
	not grep -q "@[A-Z]*@" $TMP/man.kab
	# an example continued on the next line keeps its backslash
	MANWIDTH=200 man -l $ROOT/usr/share/man/man1/kab-ab.1 2>/dev/null |
		grep -q "^ *kab ab .*--b-label head \\\\$"
'

test_expect "man pages name the files where PREFIX put them" '
	make -s -C "$TOP" install DESTDIR="$TMP/opt" PREFIX=/opt/k SAN=$SAN \
		>$TMP/make.out 2>&1 || { cat $TMP/make.out; false; }
	MANWIDTH=200 man -l $TMP/opt/opt/k/share/man/man1/kab.1 >$TMP/man.opt 2>/dev/null
	grep -q "/opt/k/libexec/kab/kab-agent" $TMP/man.opt
	grep -q "/opt/k/share/kab/jobs/" $TMP/man.opt
	not grep -q "/usr/libexec" $TMP/man.opt
'

# bash's completion of the words "$@" (the cursor on the last one)
bash_complete() {
	env -u KAB_AGENT PATH="$ROOT/usr/bin:$PATH" bash -c '
		source "$0"
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_kab
		printf "%s\n" "${COMPREPLY[@]}"' \
		$ROOT/usr/share/bash-completion/completions/kab "$@"
}

test_expect "bash completes commands, options, job names, labels and run ids" '
	bash -c "source $ROOT/usr/share/bash-completion/completions/kab; complete -p kab" |
		grep -q "complete -F _kab kab"
	bash_complete kab com >$TMP/c; grep -qx compare $TMP/c
	bash_complete kab run --ru >$TMP/c; grep -qx -- --runs $TMP/c
	bash_complete kab run will >$TMP/c; grep -qx will-it-scale-malloc1 $TMP/c
	bash_complete kab compare "" >$TMP/c
	grep -qx a $TMP/c; grep -qx b $TMP/c; grep -qx 1 $TMP/c
	bash_complete kab --db $TMP/none.db compare "" >$TMP/c
	not grep -qx a $TMP/c
	bash_complete kab ci g >$TMP/c; grep -qx gate $TMP/c
	bash_complete kab ci gate --thr >$TMP/c; grep -qx -- --threshold $TMP/c
	bash_complete kab run --kernel-label "" >$TMP/c; grep -qx stdin $TMP/c
	# a label of a command line'"'"'s words is offered too
	printf "run,kernel_label,iteration,metric,value\n1,init_on_free=1,1,m.x,1\n" >$TMP/eq.csv
	$ROOT/usr/bin/kab import --format csv $TMP/eq.csv >/dev/null
	bash_complete kab compare init >$TMP/c; grep -qx "init_on_free=1" $TMP/c
'

test_expect "bash completes option values: formats, metrics, parameters, monitors, targets" '
	bash_complete kab compare --format "" >$TMP/c
	grep -qx lkp $TMP/c; grep -qx markdown $TMP/c; not grep -qx html $TMP/c
	bash_complete kab report --format h >$TMP/c; grep -qx html $TMP/c
	bash_complete kab ci gate --format "" >$TMP/c; grep -qx json $TMP/c
	# the metrics of the stored runs, a profile'"'"'s call chains left out
	bash_complete kab compare --kpi will-it-scale.per >$TMP/c
	grep -qx will-it-scale.per_process_ops $TMP/c
	bash_complete kab run --set test >$TMP/c; grep -qx testtime= $TMP/c
	bash_complete kab run --monitors perf >$TMP/c
	grep -qx perf-profile $TMP/c; grep -qx perf-stat $TMP/c
	bash_complete kab run --target "" >$TMP/c; grep -qx qemu $TMP/c; grep -qx ssh:// $TMP/c
	bash_complete kab run --clock i >$TMP/c; grep -qx icount $TMP/c
	bash_complete kab ci gate --fail-on "" >$TMP/c; grep -qx change $TMP/c
'

# zsh's completion of the words "$@", with compadd and _files recorded
zsh_complete() {
	env -u KAB_AGENT PATH="$ROOT/usr/bin:$PATH" zsh -f -c '
		compadd() { local a; for a in "$@"; do
			[[ $a == -a ]] && continue
			[[ $a == -- ]] && continue
			[[ $a == offer ]] && { print -l -- $offer; continue; }
			print -- $a; done; }
		_files() { print _files; }
		words=("$@"); CURRENT=$#words
		source $0' \
		$ROOT/usr/share/zsh/site-functions/_kab "$@"
}

test_expect "zsh completes commands, options, job names and labels" '
	zsh_complete kab com >$TMP/c; grep -qx compare $TMP/c
	zsh_complete kab run --ru >$TMP/c; grep -qx -- --runs $TMP/c
	zsh_complete kab run "" >$TMP/c; grep -qx will-it-scale-malloc1 $TMP/c
	zsh_complete kab report "" >$TMP/c; grep -qx a $TMP/c
	zsh_complete kab import "" >$TMP/c; grep -qx _files $TMP/c
	zsh_complete kab compare --format "" >$TMP/c; grep -qx lkp $TMP/c
	zsh_complete kab run --monitors "" >$TMP/c; grep -qx perf-profile $TMP/c
'

test_expect "make uninstall removes every file make install put there" '
	make -s -C "$TOP" uninstall DESTDIR="$ROOT" PREFIX=/usr SAN=$SAN
	find $ROOT -type f >$TMP/left
	cat $TMP/left
	not grep . $TMP/left
'

test_done
