# A generated kernel history for the tests that bisect and watch: a git
# repository at $R whose commits change a "kernel recipe" (build.sh, run
# by --build-cmd 'sh build.sh'): Debian's kernel from /boot, with a
# command line that a commit may change (slub_debug=FZPU: a real, large
# slowdown of malloc1).
K=$(ls /boot/vmlinuz-* | sort -V | tail -1)
R=$TMP/repo

# recipe [CMDLINE]: build.sh's text
recipe() {
	printf '#!/bin/sh\necho "kernel %s"\n' "$K"
	[ -z "${1:-}" ] || echo "echo \"cmdline $1\""
}
# commit SUBJECT: everything in $R committed; prints its sha
commit() {
	git -C $R add -A
	git -C $R -c user.name=t -c user.email=t@t commit -q -m "$1"
	git -C $R rev-parse HEAD
}
mkdir -p $R
git -C $R init -q
