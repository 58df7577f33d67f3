#!/bin/bash
# Prints the path of the demo's kernel tree, making it first if needed:
# Debian's linux-source-6.1 as a git history of five commits, so that
# kab can build any of them and bisect between them.
#
#   kab-demo/base     Debian's tree as is
#                     an unrelated change (rebuilds mm/page_alloc.o)
#   kab-demo/align    examples/0001: THP-align large anonymous mappings
#                     an unrelated change (documentation only)
#   kab-demo/fix      examples/0002: only PMD-size multiples
#
# Dates and authors are fixed, so the commits have the same ids on every
# machine and kab's build cache keys stay valid.  Made once, in
# $XDG_CACHE_HOME/kab/demo/linux-6.1 (about 600 MiB with its .git).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/kab
tree=$cache/demo/linux-6.1
tarball=/usr/src/linux-source-6.1.tar.xz

if git -C "$tree" rev-parse -q --verify refs/tags/kab-demo/fix >/dev/null 2>&1; then
	echo "$tree"
	exit 0
fi
if [ ! -r "$tarball" ]; then
	echo "kab: $tarball is missing: apt-get install linux-source-6.1, or make deps" >&2
	exit 1
fi
echo "kab: making the demo's kernel tree in $tree (once, about a minute)" >&2
rm -rf "$tree"
mkdir -p "$tree"
tar -C "$tree" --strip-components=1 -xf "$tarball"

export GIT_AUTHOR_NAME="kab demo" GIT_AUTHOR_EMAIL=kab-demo@localhost
export GIT_COMMITTER_NAME="kab demo" GIT_COMMITTER_EMAIL=kab-demo@localhost
when=1700000000
commit() {
	when=$((when + 3600))
	GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$when +0000" \
		git -C "$tree" commit -q "$@"
}
am() {
	when=$((when + 3600))
	GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$when +0000" \
		git -C "$tree" am -q --committer-date-is-author-date "$1"
}

git -C "$tree" init -q
git -C "$tree" config gc.auto 0
# Debian's .gitignore ignores the whole top level: add everything
git -C "$tree" add -A -f
commit -m "linux-source-6.1: Debian's tree as is"
git -C "$tree" tag kab-demo/base

sed -i '1a /* kab demo: an unrelated change that still rebuilds this file. */' \
	"$tree/mm/page_alloc.c"
git -C "$tree" add -f mm/page_alloc.c
commit -m "mm/page_alloc: a comment (kab demo: unrelated to malloc1)"

am "$top/examples/0001-mm-align-larger-anonymous-mappings-on-THP-boundaries.patch"
git -C "$tree" tag kab-demo/align

printf '\nkab demo: an unrelated documentation change.\n' \
	>>"$tree/Documentation/admin-guide/mm/transhuge.rst"
git -C "$tree" add -f Documentation/admin-guide/mm/transhuge.rst
commit -m "Documentation: transhuge: a line (kab demo: unrelated)"

am "$top/examples/0002-mm-only-align-anonymous-mappings-that-are-PMD-size-multiples.patch"
git -C "$tree" tag kab-demo/fix
echo "$tree"
