#!/bin/bash
# kab-insn.so, kab's QEMU plugin, loaded by the real QEMU with no guest
# (-M none): what it takes and what it refuses, each refusal one line
# on QEMU's plugin log and no start.
. "$(dirname "$0")/lib.sh"

PLUGIN=$BUILD/kab-insn.so
QEMU=${KAB_QEMU:-qemu-system-x86_64}
if ! command -v "$QEMU" >/dev/null; then
	echo "1..0 # SKIP no QEMU (make deps installs it)"
	exit 0
fi

# plugin ARGS: QEMU with the plugin, quit at once from its monitor;
# the plugin's words in $TMP/log, QEMU's status returned
M="-M none"
plugin() {
	echo quit | "$QEMU" $M -display none -accel tcg -nodefaults \
		-monitor stdio -d plugin -D $TMP/log -plugin "$PLUGIN,$1" \
		>$TMP/out 2>$TMP/err
}

test_expect "the plugin refuses what it does not take, in one line, and QEMU does not start" '
	for a in "bogus=1|kab-insn: takes out=PATH, threads=N and model=NAME" \
		"out=/dev/null,threads=0|kab-insn: threads=N: 1 to 256" \
		"out=/dev/null,threads=257|kab-insn: threads=N: 1 to 256" \
		"out=$TMP/no/such/dir|kab-insn: cannot open its out= file" \
		"threads=1|kab-insn: cannot open its out= file" \
		"out=/dev/null,model=nosuch|kab-insn: model=NAME: no such model"; do
		: >$TMP/log
		rc=0
		plugin "${a%%|*}" || rc=$?
		test $rc != 0
		grep -qx "${a#*|}" $TMP/log
		test "$(wc -l <$TMP/log)" = 1
		grep -q "Could not load plugin" $TMP/err
	done
'

test_expect "a plugin that loads says its version and how it counts, first thing" '
	# QEMU 9 and later count in a scoreboard, a slot a vCPU; several
	# vCPUs in one thread (TCG'"'"'s round robin) in slots of its own
	major=$("$QEMU" --version | sed -n "s/^QEMU emulator version \([0-9]*\).*/\1/p")
	one=inline two=inline many=percpu
	if [ "$major" -ge 9 ]; then one=scoreboard two=percpu many=scoreboard; fi
	# out= is a file that is there (kab gives it a pipe, /dev/fd/N)
	: >$TMP/counts
	plugin "out=$TMP/counts"
	test "$(cat $TMP/counts)" = "kab-insn 1 $one"
	: >$TMP/counts
	M="-M pc -smp 2" plugin "out=$TMP/counts"
	test "$(cat $TMP/counts)" = "kab-insn 1 $two"
	# 256 threads at most: a slot each
	: >$TMP/counts
	plugin "out=$TMP/counts,threads=256"
	test "$(cat $TMP/counts)" = "kab-insn 1 $many"
	: >$TMP/counts
	plugin "out=$TMP/counts,threads=1,model=spr"
	test "$(head -1 $TMP/counts)" = "kab-insn 1 $one"
'

test_done
