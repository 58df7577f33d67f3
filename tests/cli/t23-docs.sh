#!/bin/bash
# What kab says about itself is true: every option that the README, the
# reference in doc/, the man pages' examples, the example pipelines and
# each command's --help spell after "kab CMD" is one that CMD's option
# table has, and every --target is one kab takes.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3

# "CMD --opt" for every option of every command (ci: both subcommands)
options() {
	local c
	"$KAB" --completion-helper commands | while read -r c; do
		[ "$c" = help ] && continue
		if [ "$c" = ci ]; then
			{ "$KAB" ci matrix --completion-helper
			  "$KAB" ci gate --completion-helper; }
		else
			"$KAB" $c --completion-helper
		fi | sed "s/=\$//; s/^/$c /"
	done
}

# the texts: the docs as files, and each command's --help as one more
texts() {
	local c
	ls $TOP/README.md $TOP/doc/*.md $TOP/doc/*.scd $TOP/examples/ci/*
	"$KAB" --completion-helper commands | while read -r c; do
		[ "$c" = help ] && continue
		"$KAB" $c --help >$TMP/help.$c 2>&1
		echo $TMP/help.$c
	done
	"$KAB" --help >$TMP/help.kab
	echo $TMP/help.kab
}

# A checker: the options each "kab CMD ..." command line uses, against
# the tables; prints "FILE:LINE: kab CMD --opt" for each unknown one.
cat >$TMP/check.py <<'PY'
import re, sys

tables = {}
for line in open(sys.argv[1]):
    cmd, opt = line.split()
    tables.setdefault(cmd, set()).add(opt)
glob = {"--db", "--help", "--version", "--quiet", "--verbose"}

def lines(path):
    """(number, text) of what is a command line: in markdown and scdoc
    the code blocks and `code spans`, elsewhere every line; a line
    continued with a backslash is joined to the next."""
    md = path.endswith((".md", ".scd"))
    fence = False
    held, start = "", 0
    for no, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if md and line.lstrip().startswith("```"):
            fence = not fence
            continue
        if held:
            line = held + " " + line.strip()
        else:
            start = no
        if line.endswith("\\"):
            held = line[:-1]
            continue
        held = ""
        if not md or fence or line.startswith(("    ", "\t")):
            yield start, line
        else:
            for span in re.findall(r"`([^`]*)`", line):
                yield start, span

bad = checked = 0
for path in open(sys.argv[2]).read().split():
    for no, line in lines(path):
        for m in re.finditer(r"\bkab (?:--db \S+ )?([a-z][a-z-]*)\b", line):
            cmd = m.group(1)
            if cmd not in tables:
                continue
            # the command ends at a pipe, a list, a substitution, a
            # quote or a parenthesis
            rest = re.split(r"\||;|&&|\$\(|`|\)|'|#", line[m.end():])[0]
            for o in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", rest):
                checked += 1
                if o not in tables[cmd] and o not in glob:
                    print("%s:%d: kab %s %s" % (path, no, cmd, o))
                    bad += 1
print("checked %d" % checked, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

test_expect "every option the docs and --help spell after kab CMD is in CMD's option table" '
	options >$TMP/tables
	test "$(wc -l <$TMP/tables)" -ge 100
	grep -q "^ab --boots$" $TMP/tables
	grep -q "^ci --allow-inconclusive$" $TMP/tables
	texts >$TMP/texts
	$PY $TMP/check.py $TMP/tables $TMP/texts 2>$TMP/n
	cat $TMP/n
	# the docs and help spell hundreds: a checker that saw none is broken
	check "$(sed "s/checked //" $TMP/n) >= 200"
	# and the checker finds a wrong one
	printf "run it:\n\n    kab ab --boots 3 --no-such-option \\\\\n        --also-wrong x\n\nor \`kab run --nope\` (kab rm and ls --since)\n" >$TMP/wrong.md
	echo $TMP/wrong.md >$TMP/one
	not $PY $TMP/check.py $TMP/tables $TMP/one >$TMP/found
	grep -q "wrong.md:3: kab ab --no-such-option" $TMP/found
	grep -q "wrong.md:3: kab ab --also-wrong" $TMP/found
	grep -q "wrong.md:6: kab run --nope" $TMP/found
	# prose is not a command line
	not grep -q "kab rm --since" $TMP/found
'

test_expect "every option in CMD's option table is in kab CMD --help" '
	options >$TMP/tables
	texts >/dev/null
	# ci: its two subcommands'"'"' helps
	"$KAB" ci gate --help >$TMP/help.ci 2>&1
	"$KAB" ci matrix --help >>$TMP/help.ci 2>&1
	n=0
	while read -r c o; do
		[ "$o" = --help ] && continue
		grep -Eq -- "$o([^a-z0-9-]|\$)" $TMP/help.$c ||
			fail "kab $c --help does not say $o"
		n=$((n + 1))
	done <$TMP/tables
	test $n -ge 100
'

test_expect "every --target the docs and --help spell is one kab takes" '
	texts >$TMP/texts
	# ssh://HOST, never ssh:HOST (kab refuses that)
	bad=$(grep -n "ssh:[^/ ]" $(cat $TMP/texts) || true)
	test -z "$bad" || fail "ssh:HOST spelled: $bad"
	grep -ho -- "--target[ =][^ \`\"]*" $(cat $TMP/texts) | sed "s/--target[ =]//; s/,\$//" |
		sort -u >$TMP/targets
	while read -r t; do
		case "$t" in
		qemu|local|ssh://*|lava:local|lava:URL|lava:http://*|lava:https://*|TARGET|T|"") ;;
		*) fail "--target $t is not qemu, local, lava:local, lava:URL or ssh://[USER@]HOST[:PORT]" ;;
		esac
	done <$TMP/targets
	# and kab refuses the spelling it does not take, with the fix
	expect_error 2 "ssh://" -- "$KAB" run --target ssh:host will-it-scale-malloc1
'

test_done
