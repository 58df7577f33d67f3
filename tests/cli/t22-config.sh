#!/bin/bash
# The config file: a command's defaults, the database, the command
# line winning, and a bad line named with its file and number.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
CONF=$HOME/.config/kab/config

test_expect "a seed-like database imports into the config's database" '
	mkdir -p $(dirname $CONF)
	printf "[core]\n\tdb = ~/from-config.db   # below --db and KAB_DB\n" >$CONF
	$PY $FIXTURES/make-seedlike-export.py >$TMP/seed.json
	env -u KAB_DB "$KAB" import $TMP/seed.json >$TMP/o
	grep -q "imported 9 runs" $TMP/o
	test -s $HOME/from-config.db
	# KAB_DB still wins over the config, --db over both
	test ! -e $KAB_DB
	kab import $TMP/seed.json >/dev/null
	test -s $KAB_DB
'

test_expect "a section gives a command its defaults; the command line wins" '
	printf "[compare]\n\tformat = csv\n\tall = true\n\tplot = false\n[ci-gate]\n\tthreshold = 90\n" >$CONF
	kab compare base align >$TMP/o
	head -1 $TMP/o | grep -q ","
	# all = true: every row, the unchanged ones too
	grep -q "meminfo.MemFree" $TMP/o
	kab compare --format text base align >$TMP/o
	grep -q "%stddev" $TMP/o
	# ci gate: the 81% regression is below a 90% threshold
	kab ci gate base align >$TMP/o
	grep -q "^pass" $TMP/o
	rc=0
	kab ci gate --threshold 5 base align >$TMP/o || rc=$?
	test $rc = 1
'

test_expect "config syntax: ; comments, CRLF, the later of two keys, --db above it all" '
	# git-config style: ; and # start comments, a line may end in CRLF,
	# a later db wins over an earlier one
	printf "; kab'"'"'s defaults\r\n[core] ; the database\r\n\tdb = ~/first.db\r\n\tdb = ~/second.db # this one\r\n[compare]\r\n\tformat = csv ; a comment too\r\n" >$CONF
	env -u KAB_DB "$KAB" import $TMP/seed.json >$TMP/o
	grep -q "into $HOME/second.db" $TMP/o
	test ! -e $HOME/first.db
	env -u KAB_DB "$KAB" compare base align >$TMP/o
	head -1 $TMP/o | grep -q "^params,metric,"
	# kab --db (before the command) wins over the config'"'"'s db
	env -u KAB_DB "$KAB" --db $TMP/global.db import $TMP/seed.json >$TMP/o
	grep -q "into $TMP/global.db" $TMP/o
	test "$(sqlite3 $HOME/second.db "SELECT count(*) FROM runs")" = 9
'

test_expect "a bad config is one error naming its file and line, exit 2" '
	printf "[compare]\n\tformat = csv\n\n[run]\n\trnus = 3\n" >$CONF
	expect_error 2 "$CONF:5: .--rnus=3. is not an option of kab run" -- \
		kab run --runs 1 will-it-scale-malloc1
	# a bad value: the command'"'"'s own error, with where it came from
	printf "[run]\n\truns = x\n" >$CONF
	expect_error 2 "^kab: $CONF:2: --runs .x.: give a number of iterations" -- \
		kab run will-it-scale-malloc1
	printf "[ci-gate]\n\tthreshold = -3\n" >$CONF
	expect_error 2 "^kab: $CONF:2: --threshold .-3.: give a percentage" -- \
		kab ci gate base align
	# ... and the command line'"'"'s own bad value is the command line'"'"'s
	printf "[run]\n\truns = 2\n" >$CONF
	expect_error 2 "^kab: --runs .y.: give a number of iterations" -- \
		kab run --runs y will-it-scale-malloc1
	# an error after the options were taken is nobody'"'"'s line
	expect_error 2 "^kab: job file: cannot open" -- kab run $TMP/none.yaml
	printf "[compare]\nthis line has no equals sign\n" >$CONF
	expect_error 2 "$CONF:2: expected .key = value." -- kab ls
	printf "[core]\n\ttarget = qemu\n" >$CONF
	expect_error 2 "$CONF:2: \\[core\\] takes db only" -- kab ls
	printf "[run\n" >$CONF
	expect_error 2 "$CONF:1: a section is \\[name\\]" -- kab ls
	# a misspelt section is named, with the nearest one
	printf "[lss]\n\tjson = true\n" >$CONF
	expect_error 2 "$CONF:1: \\[lss\\] is no section: did you mean \\[ls\\]?" -- kab ls
	printf "[frobnicate]\n\tx = 1\n" >$CONF
	expect_error 2 "$CONF:1: \\[frobnicate\\] is no section: name a command" -- kab ls
	# a NUL byte does not end the file quietly
	printf "[compare]\n\tformat = csv\n\0[run]\n\truns = x\n" >$CONF
	expect_error 2 "$CONF:3: a NUL byte: the file is not text" -- kab ls
	# KAB_CONFIG names another file; one that is not there is no config
	KAB_CONFIG=$TMP/none kab ls >/dev/null
'

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
test_expect "a ~/.config this user cannot look into is no config, said once" '
	# as nobody (root reads anything), with its own kab copy
	mkdir -p $TMP/nh/.config/kab
	echo "[core]" >$TMP/nh/.config/kab/config
	cp "$KAB" $TMP/nh/kab
	kab --db $TMP/nh/x.db ls >/dev/null 2>&1 || true
	chmod 0755 $TMP $TMP/nh
	chmod 0666 $TMP/nh/x.db 2>/dev/null || true
	chmod 0000 $TMP/nh/.config
	rc=0
	(cd $TMP/nh && HOME=$TMP/nh setpriv --reuid=65534 --regid=65534 --clear-groups ./kab --db /nonexistent/x.db ls) >$TMP/o 2>$TMP/e || rc=$?
	cat $TMP/e
	# the command goes on: its own error is about the database, not the config
	grep -q "cannot look into the directory of $TMP/nh/.config/kab/config" $TMP/e
	grep -q "no database at /nonexistent/x.db" $TMP/e
	# named by KAB_CONFIG, the same file is an error
	rc=0
	(cd $TMP/nh && HOME=$TMP/nh KAB_CONFIG=$TMP/nh/.config/kab/config setpriv --reuid=65534 --regid=65534 --clear-groups ./kab --db /nonexistent/x.db ls) 2>$TMP/e || rc=$?
	cat $TMP/e
	[ $rc = 2 ] || fail "exit $rc"
	grep -q "set KAB_CONFIG to another file" $TMP/e
	chmod 0755 $TMP/nh/.config
'
fi

test_done
