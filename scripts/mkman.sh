#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Man pages from kab's own --help: one source for both.  For each
# command, 'kab CMD --help' gives the SYNOPSIS (its usage lines), the
# DESCRIPTION (its prose) and the OPTIONS (its two-column table);
# 'kab --help' gives NAME, ENVIRONMENT and EXIT STATUS; doc/ adds what
# --help has no room for: doc/files.scd and doc/kab-CMD.examples.scd.
# The scdoc text is piped through scdoc(1).
#   scripts/mkman.sh KAB OUTDIR
set -euo pipefail
kab=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"

# scdoc's markup characters, made literal
esc() { sed -e 's/\\/\\\\/g' -e 's/\*/\\*/g' -e 's/_/\\_/g' \
	     -e 's/`/\\`/g' -e 's/^\([-#.]\)/\\\1/'; }

# 'kab --help's section $1 (up to the next blank line), without its title
section() {
	"$kab" --help | awk -v t="$1" '
		$0 == t ":" { on = 1; next }
		on && /^$/ { exit }
		on { print }'
}

# the --help text of a command as scdoc: SYNOPSIS, DESCRIPTION, OPTIONS
help2scd() {
	awk '
	function flush_item() {
		if (term != "") {
			# a tab-indented [ or | would open a scdoc table
			if (desc ~ /^[[|:]/)
				desc = "\\" desc
			printf "*%s*\n\t%s\n\n", term, desc
			term = ""; desc = ""
		}
	}
	BEGIN { part = "usage" }
	part == "usage" && /^usage: / { sub(/^usage: /, ""); syn[ns++] = $0; next }
	part == "usage" && /^       [a-z]/ { sub(/^ +/, ""); syn[ns++] = $0; next }
	part == "usage" && /^ +[\[-]/ { sub(/^ +/, ""); syn[ns - 1] = syn[ns - 1] " " $0; next }
	part == "usage" {
		print "# SYNOPSIS\n"
		for (i = 0; i < ns; i++)
			printf "%s%s\n", syn[i], i < ns - 1 ? "++" : ""
		print "\n# DESCRIPTION\n"
		part = "body"
	}
	/^$/ { flush_item(); if (inlit) { print "```"; inlit = 0 } print ""; next }
	/^  +-/ && match($0, /^ +(-[^ ]*( [^ ]+)*)(  +|$)/) {
		flush_item()
		if (!opts) { print "# OPTIONS\n"; opts = 1 }
		t = $0; sub(/^ +/, "", t)
		d = ""
		if (match(t, /  +/)) {
			d = substr(t, RSTART + RLENGTH)
			t = substr(t, 1, RSTART - 1)
		}
		term = t; desc = d
		next
	}
	term != "" && /^    / { s = $0; sub(/^ +/, "", s); desc = desc (desc == "" ? "" : " ") s; next }
	/^  / { flush_item(); if (!inlit) { print "```"; inlit = 1 } print; next }
	{ flush_item(); if (opts) { print "# NOTES\n"; opts = 0 } print }
	END { flush_item(); if (inlit) print "```" }'
}

# kab(1)'s FILES and ENVIRONMENT: the commands' pages point there, as
# git's do to git(1).  @DATADIR@ and @LIBEXECDIR@ become the installed
# paths at make install.
files_env() {
	cat "$top/doc/files.scd"
	printf '\n# ENVIRONMENT\n\n'
	section Environment | esc | awk '
		/^  [A-Z]/ {
			s = $0; sub(/^  /, "", s)
			n = match(s, /  +/)
			if (n) { printf "*%s*\n\t%s\n", substr(s, 1, RSTART - 1), substr(s, RSTART + RLENGTH) }
			else { printf "*%s*\n", s }
			next
		}
		{ s = $0; sub(/^ +/, "", s); printf "\t%s\n", s }' |
		awk 'NR > 1 && /^\*/ { print "" } { print }'
}

exit_status() {
	printf '\n# EXIT STATUS\n\n'
	section "Exit status" | esc | sed 's/^  //' |
		awk '/^[0-9]/ { if (NR > 1) print ""; printf "*%s*\n\t%s\n", $1, substr($0, index($0, $2)); next }
		     { sub(/^ +/, ""); printf "\t%s\n", $0 }'
}

page() {
	local name=$1 cmd=$2 summary=$3
	{
		printf '%s(1)\n\n# NAME\n\n%s - %s\n\n' "$name" "$name" "$summary"
		if [ -n "$cmd" ]; then
			# shellcheck disable=SC2086
			"$kab" $cmd --help | esc | help2scd
		else
			"$kab" --help | sed '/^Commands:/,$d' | esc | help2scd
			printf '# COMMANDS\n\n'
			"$kab" --help | awk '/^Commands:/ { on = 1; next }
				on && /^$/ { exit }
				on { c = $1; $1 = ""; sub(/^ +/, ""); printf "*kab-%s*(1)\n\t%s\n\n", c, $0 }'
			# the options every command takes
			printf '# COMMON OPTIONS\n\n'
			"$kab" --help | awk '/^Every command takes/ { on = 1 }
				on && /^$/ { exit } on { print }' | esc
			printf '\n'
		fi
		if [ -f "$top/doc/$name.examples.scd" ]; then
			printf '\n# EXAMPLES\n\n'
			# a backslash is scdoc's escape: a shell's, doubled
			awk '/^```/ { lit = !lit; print; next }
			     lit {
				out = ""; s = $0
				while ((i = index(s, "\\")) > 0) {
					out = out substr(s, 1, i) "\\"
					s = substr(s, i + 1)
				}
				$0 = out s
			     }
			     { print }' \
				"$top/doc/$name.examples.scd"
		fi
		printf '\n'
		if [ -n "$cmd" ]; then
			exit_status
			printf '\n# FILES AND ENVIRONMENT\n\n'
			printf 'The database, the cache, the jobs by name, the config file and the\n'
			printf 'environment variables are those of *kab*(1).\n'
		else
			files_env
			exit_status
		fi
		printf '\n# SEE ALSO\n\n'
		if [ -n "$cmd" ]; then
			printf '*kab*(1)\n'
		else
			printf '*kab-run*(1), *kab-compare*(1), *kab-report*(1), *qemu-system-x86_64*(1), *stress-ng*(1), *git-bisect*(1)\n'
		fi
	} > "$out/$name.1.scd"
	scdoc < "$out/$name.1.scd" > "$out/$name.1.tmp"
	mv "$out/$name.1.tmp" "$out/$name.1"
}

page kab "" "kernel A/B performance comparison"
"$kab" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
	on { c = $1; $1 = ""; sub(/^ +/, ""); print c "\t" $0 }' |
while IFS=$'\t' read -r c summary; do
	page "kab-$c" "$c" "$(printf '%s' "$summary" | esc)"
done
