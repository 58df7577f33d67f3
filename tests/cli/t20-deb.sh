#!/bin/bash
# The Debian package, built from this tree as a user builds it
# (dpkg-buildpackage -b -us -uc, in a copy: dh_auto_clean runs make
# clean), checked by lintian, unpacked into a clean prefix and used from
# there: the installed files, not the checkout.
. "$(dirname "$0")/lib.sh"

if [ -n "${KAB_SAN:-}" ]; then
	# the package is built with dpkg's flags, never the sanitizers':
	# the plain pass builds it
	test_skip "the Debian package" "built in the plain pass"
	test_done
	exit
fi

SRC=$TMP/src/kab
ROOT=$TMP/root
DEB=

test_expect "dpkg-buildpackage builds the package from the tree" '
	mkdir -p $SRC
	tar -C "$TOP" --exclude=./build --exclude=./build-san \
		--exclude=./build-fuzz --exclude=./kab --exclude=./kab-agent \
		--exclude=./.git -cf - . | tar -C $SRC -xf -
	(cd $SRC && dpkg-buildpackage -b -us -uc) >$TMP/build.log 2>&1 ||
		{ tail -40 $TMP/build.log; false; }
	ls $TMP/src/kab_*_amd64.deb
'
DEB=$(ls $TMP/src/kab_*_amd64.deb 2>/dev/null | head -1)

test_expect "lintian finds no error and no warning" '
	lintian -I --pedantic $TMP/src/kab_*_amd64.changes >$TMP/lintian 2>&1 || true
	cat $TMP/lintian
	not grep -q "^[EW]: " $TMP/lintian
'

test_expect "the package holds kab, its agent, the jobs, man pages and completion, and depends on stress-ng" '
	dpkg-deb -c $DEB >$TMP/files
	for f in usr/bin/kab usr/libexec/kab/kab-agent \
		usr/share/kab/jobs/will-it-scale-malloc1.yaml \
		usr/share/man/man1/kab.1.gz usr/share/man/man1/kab-run.1.gz \
		usr/share/bash-completion/completions/kab \
		usr/share/zsh/vendor-completions/_kab; do
		grep -q " \./$f\$" $TMP/files || fail "$f not in the package"
	done
	dpkg-deb -f $DEB Depends >$TMP/depends
	cat $TMP/depends
	grep -q "stress-ng" $TMP/depends
	grep -q "libsqlite3-0" $TMP/depends
	grep -q "libgsl" $TMP/depends
'

# the packaged kab, unpacked into a clean prefix, from another directory
pkab() {
	(cd "$TMP" && env -u KAB_AGENT -u KAB_JOBS \
		PATH="$ROOT/usr/bin:/usr/bin:/bin" kab "$@")
}

test_expect "the packaged kab runs a job by name, compares and reports" '
	dpkg -x $DEB $ROOT
	for l in base head; do
		pkab run --runs 1 --kernel-label $l --set nr_task=1 \
			--set warmup=0 --set testtime=1s will-it-scale-malloc1 \
			>$TMP/run.$l
	done
	test "$(sql "SELECT count(*) FROM runs WHERE status = '\''ok'\''")" = 2
	pkab compare --all base head >$TMP/cmp
	grep -q "will-it-scale.per_process_ops" $TMP/cmp
	pkab report base head >$TMP/report
	grep -q "will-it-scale-malloc1" $TMP/report
	MANWIDTH=100 man -l $ROOT/usr/share/man/man1/kab-compare.1.gz >$TMP/man
	grep -q "^EXIT STATUS" $TMP/man
'

test_done
