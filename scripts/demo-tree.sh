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
#   kab-demo/null-*   on base, null changes (make bench): a comment, an
#                     unused function, a localversion file, an unused
#                     4 KiB global in mm/
#   kab-demo/watch    for kab watch: base, 6 harmless commits, the
#                     alignment, 6 harmless, the fix, 6 harmless
#   kab-demo/harmless base and 10 harmless commits
#
# Dates and authors are fixed, so the commits have the same ids on every
# machine and kab's build cache keys stay valid.  Made once, in
# $XDG_CACHE_HOME/kab/demo/linux-6.1 (about 600 MiB with its .git).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/kab
tree=$cache/demo/linux-6.1
tarball=/usr/src/linux-source-6.1.tar.xz

export GIT_AUTHOR_NAME="kab demo" GIT_AUTHOR_EMAIL=kab-demo@localhost
export GIT_COMMITTER_NAME="kab demo" GIT_COMMITTER_EMAIL=kab-demo@localhost

# null NAME FILE SUBJECT: a commit on kab-demo/base that changes FILE to
# what stdin holds, tagged kab-demo/null-NAME, made without touching the
# checkout (a temporary index); its date is fixed, so is its id.
null() {
	local name=$1 file=$2 subject=$3 index blob tr c
	index=$(mktemp)
	blob=$(git -C "$tree" hash-object -w --stdin)
	GIT_INDEX_FILE=$index git -C "$tree" read-tree kab-demo/base
	GIT_INDEX_FILE=$index git -C "$tree" update-index --add \
		--cacheinfo 100644,"$blob","$file"
	tr=$(GIT_INDEX_FILE=$index git -C "$tree" write-tree)
	rm -f "$index"
	c=$(GIT_AUTHOR_DATE="@1700100000 +0000" \
	    GIT_COMMITTER_DATE="@1700100000 +0000" \
	    git -C "$tree" commit-tree "$tr" -p kab-demo/base -m "$subject")
	git -C "$tree" tag -f "kab-demo/null-$name" "$c" >/dev/null
}

# Changes that change nothing a workload runs (make bench's null
# changes): each kernel's layout moves, its code path does not.
nulls() {
	git -C "$tree" rev-parse -q --verify refs/tags/kab-demo/null-global \
		>/dev/null && return 0
	{ git -C "$tree" show kab-demo/base:kernel/sys.c | sed 1q
	  echo "/* kab demo: a comment, and nothing else. */"
	  git -C "$tree" show kab-demo/base:kernel/sys.c | sed 1d
	} | null comment kernel/sys.c "kernel/sys: a comment (kab demo: a null change)"
	{ git -C "$tree" show kab-demo/base:lib/string.c
	  cat <<'C'

/* kab demo: an unused function of a few hundred bytes */
void kab_demo_unused(unsigned char *p, size_t n);
noinline __used void kab_demo_unused(unsigned char *p, size_t n)
{
	size_t i, j;

	for (j = 0; j < 4; j++)
		for (i = 0; i < n; i++)
			p[i] = (unsigned char)(p[i] * 31 + i * j +
					       (p[(i + j) % n] >> 3));
}
C
	} | null func lib/string.c "lib/string: an unused function (kab demo: a null change)"
	printf -- '-kab\n' |
		null localversion localversion-kab "localversion: -kab (kab demo: a null change)"
	{ git -C "$tree" show kab-demo/base:mm/mmap.c
	  printf '\n/* kab demo: an unused 4 KiB global */\n'
	  printf 'char kab_demo_pad[4096] __used = { 1 };\n'
	} | null global mm/mmap.c "mm/mmap: an unused 4 KiB global (kab demo: a null change)"
}

# derive PARENT WHEN SUBJECT FILE: prints a commit on PARENT that
# changes FILE to what stdin holds (FILE "-": stdin is a patch, applied),
# dated WHEN, made without touching the checkout.
derive() {
	local parent=$1 when=$2 subject=$3 file=$4 index blob tr
	index=$(mktemp)
	GIT_INDEX_FILE=$index git -C "$tree" read-tree "$parent"
	if [ "$file" = - ]; then
		GIT_INDEX_FILE=$index git -C "$tree" apply --cached -
	else
		blob=$(git -C "$tree" hash-object -w --stdin)
		GIT_INDEX_FILE=$index git -C "$tree" update-index --add \
			--cacheinfo 100644,"$blob","$file"
	fi
	tr=$(GIT_INDEX_FILE=$index git -C "$tree" write-tree)
	rm -f "$index"
	GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$when +0000" \
		git -C "$tree" commit-tree "$tr" -p "$parent" -m "$subject"
}

# harmless PARENT WHEN N: commit N of the harmless kinds, in turn a
# line of documentation, a comment in kernel/sys.c (sys.o and the link
# are rebuilt, the layout moves) and one in mm/page_alloc.c.
harmless() {
	local parent=$1 when=$2 n=$3 f
	case $((n % 3)) in
	1)	f=Documentation/admin-guide/mm/transhuge.rst
		{ git -C "$tree" show "$parent:$f"
		  printf '\nkab demo: harmless note %d.\n' "$n"
		} | derive "$parent" "$when" "Documentation: transhuge: note $n (kab demo: harmless)" $f ;;
	2)	f=kernel/sys.c
		{ git -C "$tree" show "$parent:$f" | sed 1q
		  printf '/* kab demo: harmless comment %d */\n' "$n"
		  git -C "$tree" show "$parent:$f" | sed 1d
		} | derive "$parent" "$when" "kernel/sys: comment $n (kab demo: harmless)" $f ;;
	0)	f=mm/page_alloc.c
		{ git -C "$tree" show "$parent:$f" | sed 1q
		  printf '/* kab demo: harmless comment %d */\n' "$n"
		  git -C "$tree" show "$parent:$f" | sed 1d
		} | derive "$parent" "$when" "mm/page_alloc: comment $n (kab demo: harmless)" $f ;;
	esac
}

# The branches kab watch follows (tags, so that their ids are fixed).
branches() {
	local c when=1700200000 n=0 p
	git -C "$tree" rev-parse -q --verify refs/tags/kab-demo/harmless \
		>/dev/null &&
		[ "$(git -C "$tree" rev-list --count kab-demo/base..kab-demo/watch)" = 20 ] &&
		return 0
	c=$(git -C "$tree" rev-parse kab-demo/base)
	# seven kernels a level: what E-divisive needs at 0.01 to call
	# a shift that comes back (doc/guide.md)
	for p in - - - - - - "$top/examples/0001-mm-align-larger-anonymous-mappings-on-THP-boundaries.patch" \
		 - - - - - - "$top/examples/0002-mm-only-align-anonymous-mappings-that-are-PMD-size-multiples.patch" \
		 - - - - - -; do
		when=$((when + 3600))
		if [ "$p" = - ]; then
			n=$((n + 1))
			c=$(harmless "$c" $when $n)
		else
			c=$(derive "$c" $when "$(sed -n 's/^Subject: \[PATCH [0-9/]*\] //p' "$p")" - <"$p")
		fi
	done
	git -C "$tree" tag -f kab-demo/watch "$c" >/dev/null
	c=$(git -C "$tree" rev-parse kab-demo/base)
	for n in $(seq 1 10); do
		when=$((when + 3600))
		c=$(harmless "$c" $when $((n + 20)))
	done
	git -C "$tree" tag -f kab-demo/harmless "$c" >/dev/null
}

if git -C "$tree" rev-parse -q --verify refs/tags/kab-demo/fix >/dev/null 2>&1; then
	nulls
	branches
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
nulls
branches
echo "$tree"
