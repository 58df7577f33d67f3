#!/bin/bash
# kab report: the robot's email from stored runs (a generated export of
# two commits, two jobs each), the mbox message read back by Python's
# email parser and git mailinfo, markdown, and the HTML page rendered
# by headless Chromium.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3

test_expect "an A/B of two commits and two jobs imports" '
	$PY $FIXTURES/make-report-export.py >$TMP/r.json
	kab import $TMP/r.json >$TMP/pipe
	grep -q "imported 24 runs" $TMP/pipe
'

test_expect "the email has the robot parts in the robot order" '
	kab report --subject-prefix linus:master base head >$TMP/r.txt
	cat $TMP/r.txt
	grep -Eq "^Subject: \[linus:master\] 721bcbf4c5: will-it-scale.per_process_ops [0-9]+\.[0-9]% regression$" $TMP/r.txt
	awk -v want="^Subject: |^Hello,$|^kab noticed a [0-9.]+% regression of will-it-scale.per_process_ops on:$|^commit: 721bcbf4c5d7d3621112040e3a125829c2e88417 |^testcase: will-it-scale$|^config: |^compiler: gcc-12$|^test machine: 2 threads 1 sockets QEMU TCG CPU version 2.5[+] .* with 2G memory$|^parameters:$|^	mode: process$|^In addition to that|^Details are as below:$|^-+>$|^To reproduce with kab:$|^=+$|^ .*will-it-scale.per_process_ops$|^    x |^[*]+$|^Disclaimer:$" '"'"'
		BEGIN { n = split(want, w, "|") ; i = 1 }
		i <= n && $0 ~ w[i] { i++ }
		END { if (i <= n) { print "missing or out of order: " w[i]; exit 1 } }
	'"'"' $TMP/r.txt
	grep -qx -- "$(printf -- "-%.0s" $(seq 98))>" $TMP/r.txt
	grep -qx -- "$(printf -- "*%.0s" $(seq 99))" $TMP/r.txt
'

test_expect "the announced change is the one kab compare computes" '
	kab compare --format json base head >$TMP/c.json
	want=$($PY -c "
import json, sys
d = json.load(open(sys.argv[1]))
for t in d[\"tables\"]:
    for r in t[\"rows\"]:
        if r[\"metric\"] == \"will-it-scale.per_process_ops\":
            print(\"%.1f\" % abs(r[\"heads\"][0][\"change\"]))
" $TMP/c.json)
	grep -q "^kab noticed a $want% regression of will-it-scale.per_process_ops" $TMP/r.txt
'

test_expect "the other job that moved is boxed as lkp boxes it" '
	sed -n "/^In addition/,/^$/p;/^+---/,/^+---/p" $TMP/r.txt | grep "^[|+]" >$TMP/box
	cat $TMP/box
	grep -Eq "^\| testcase: change \| stress-ng: stress-ng.radixsort.ops_per_sec [0-9.]+% regression +\|$" $TMP/box
	grep -q "^| test parameters  | nr_threads=100% " $TMP/box
	grep -q "^|                  | test=radixsort " $TMP/box
	# every line of the box is as wide as its border
	[ $(awk "{ print length(\$0) }" $TMP/box | sort -u | wc -l) -eq 1 ]
'

test_expect "the radixsort table follows a line of stars and the machine" '
	grep -A1 "^\*\{99\}$" $TMP/r.txt >$TMP/pipe
	grep -q "^qemu: 2 threads 1 sockets" $TMP/pipe
	sed -n "/^\*\{99\}$/,\$p" $TMP/r.txt >$TMP/pipe
	grep -q "stress-ng.radixsort.ops_per_sec$" $TMP/pipe
'

test_expect "the job file in the report runs as is and means the same job" '
	sed -n "/^        cat > will-it-scale-malloc1.yaml/,/^        EOF$/p" $TMP/r.txt |
		sed "1d;\$d;s/^        //" >$TMP/job.yaml
	cat $TMP/job.yaml
	kab --db $TMP/repro.db run --kernel-label repro --runs 1 --monitors none \
		--set testtime=1s --set warmup=0 --set nr_task=1 $TMP/job.yaml >/dev/null
	got=$(sqlite3 $TMP/repro.db "select json_remove(params, \"$.testtime\", \"$.warmup\", \"$.nr_task\") from runs")
	want=$(sqlite3 $KAB_DB "select json_remove(params, \"$.testtime\", \"$.warmup\", \"$.nr_task\") from runs where test = \"malloc1\" limit 1")
	[ "$got" = "$want" ] || fail "$got != $want"
'

test_expect "the job file is written by a YAML emitter: quotes, colons and hashes read back as they were" '
	cp $KAB_DB $TMP/q.db
	val="it'"'"'s: a #test, - [x]"
	sqlite3 $TMP/q.db "UPDATE runs SET params = json_set(params, '"'"'\$.mode'"'"', '"'"'it'"'"''"'"'s: a #test, - [x]'"'"') WHERE test = '"'"'malloc1'"'"'"
	kab --db $TMP/q.db report base head >$TMP/q.txt
	sed -n "/^        cat > will-it-scale-malloc1.yaml/,/^        EOF$/p" $TMP/q.txt |
		sed "1d;\$d;s/^        //" >$TMP/q.yaml
	cat $TMP/q.yaml
	/usr/bin/python3 -c "import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d[\"mode\"] == sys.argv[2], d" $TMP/q.yaml "$val"
	# and kab reads the same value back (and refuses it as a mode)
	expect_error 2 "is not a valid value" -- kab ci matrix $TMP/q.yaml
	grep -qF "mode: '"'"'$val'"'"' is not a valid value" $TMP/stderr
'

test_expect "the reproduce block names each kernel: release, image, commit" '
	sed -n "/^To reproduce with kab:/,/^        kab report/p" $TMP/r.txt >$TMP/repro
	cat $TMP/repro
	# a comment wrapped goes on in "#   " lines
	sed ":a;N;\$!ba;s/\n        #   / /g" $TMP/repro >$TMP/repro1
	grep -q "^        # base: kernel [^ ]*.*, commit [0-9a-f]\{40\}" $TMP/repro1
	grep -q "^        # head: kernel [^ ]*.*, commit [0-9a-f]\{40\}" $TMP/repro1
	# a mail'"'"'s lines: the block'"'"'s fit 78 columns, wrapped where
	# a shell reads them back the same
	not grep -q "^.\{79,\}" $TMP/repro
	grep -q " \\\\$" $TMP/repro
	sed -n "/^        kab run/,/[^\\\\]$/p" $TMP/repro | head -2 |
		sed "s/^ *//; s/ \\\\$//" | tr "\n" " " |
		grep -q "^kab run --target qemu --kernel BZIMAGE --kernel-label base --runs [0-9]* will-it-scale-malloc1.yaml $"
'

test_expect "the Reported-by tag comes with a regression, never an improvement" '
	kab report --from "Kab Tester <kab@example.org>" base head >$TMP/reg.txt
	grep -qx "| Reported-by: Kab Tester <kab@example.org>" $TMP/reg.txt
	kab report --from "Kab Tester <kab@example.org>" head base >$TMP/imp.txt
	grep -q "^Subject: a5019e7545: will-it-scale.per_process_ops .*% improvement$" $TMP/imp.txt
	not grep -q "Reported-by" $TMP/imp.txt
'

test_expect "--trailer: the tags given, in their order, instead of Reported-by" '
	kab report --from "Kab Tester <kab@example.org>" \
		--trailer "Reported-by: robot <r@example.org>" \
		--trailer "Closes: https://example.org/r/7" base head >$TMP/tr.txt
	sed -n "/kindly add following tags\$/,/^\$/p" $TMP/tr.txt >$TMP/tags
	printf "%s\n" "the same patch/commit), kindly add following tags" "| Reported-by: robot <r@example.org>" \
		"| Closes: https://example.org/r/7" "" | cmp - $TMP/tags
	kab report --trailer "Closes: https://example.org/r/7" head base >$TMP/tri.txt
	not grep -q "Closes" $TMP/tri.txt
	expect_error 2 "^kab: --trailer .Closes:https://x. is not a trailer: give .Key: value." -- \
		kab report --trailer "Closes:https://x" base head
	expect_error 2 "^kab: --trailer .: x. is not a trailer" -- kab report --trailer ": x" base head
	expect_error 2 "^kab: --trailer .A: b.*. holds a control character" -- \
		kab report --trailer "$(printf "A: b\nSubject: x")" base head
'

test_expect "no significant change: said so, exit 0, nothing boxed" '
	kab report base same >$TMP/n.txt
	grep -q "^Subject: a5019e7545: no significant change of will-it-scale.per_process_ops$" $TMP/n.txt
	# counted in boots, the unit its test used, not in iterations
	grep -q "^kab found no significant change of will-it-scale.per_process_ops (-[0-9.]*% with 4 boots against 4, adjusted p = " $TMP/n.txt
	not grep -q "In addition" $TMP/n.txt
'

test_expect "--kpi announces another metric; one of unknown direction increases" '
	kab report --kpi meminfo.AnonHugePages base head >$TMP/k.txt
	grep -Eq "^Subject: 721bcbf4c5: meminfo.AnonHugePages 200.0% increase$" $TMP/k.txt
	expect_error 2 "no job of base and head has the metric nosuch.metric" -- kab report --kpi nosuch.metric base head
'

mbox_check() {
	$PY - "$@" <<-PY
	import email, email.policy, sys
	path, want_subject, text = sys.argv[1], sys.argv[2], sys.argv[3]
	raw = open(path, "rb").read()
	assert raw.startswith(b"From "), raw[:40]
	for line in raw.split(b"\n"):
	    assert len(line) < 998, len(line)
	m = email.message_from_bytes(raw.split(b"\n", 1)[1],
	                             policy=email.policy.default)
	assert m["Subject"] == want_subject, (m["Subject"], want_subject)
	assert m["From"] == "Kab Tester <kab@example.org>", m["From"]
	assert m["To"] == "linux-mm@kvack.org", m["To"]
	assert m["Cc"] == "Ann Ex <ann@example.org>, b@example.org", m["Cc"]
	assert m["In-Reply-To"] == "<202411072132.a8d2cf0f-oliver.sang@intel.com>"
	assert m["References"] == m["In-Reply-To"]
	assert m["Message-ID"].startswith("<") and m["Message-ID"].endswith("@example.org>")
	assert m["Date"].datetime is not None
	assert m["MIME-Version"] == "1.0"
	assert m.get_content_type() == "text/plain"
	assert m.get_content_charset() == "utf-8"
	body = m.get_content()
	# the body is the text report without its Subject: line
	want = open(text, encoding="utf-8").read().split("\n\n", 1)[1]
	assert body == want, "body differs"
	assert "±" in body
	print(m["Content-Transfer-Encoding"])
	PY
}

send() {
	kab report --from "Kab Tester <kab@example.org>" --to linux-mm@kvack.org \
		--cc "Ann Ex <ann@example.org>" --cc b@example.org \
		--in-reply-to 202411072132.a8d2cf0f-oliver.sang@intel.com "$@"
}

test_expect "--mbox writes a message that the Python email parser reads back" '
	send --subject-prefix linus:master --mbox $TMP/m.mbox -o $TMP/m.txt base head
	subject=$(sed -n "s/^Subject: //p" $TMP/m.txt)
	[ "$(mbox_check $TMP/m.mbox "$subject" $TMP/m.txt)" = 8bit ]
'

test_expect "git mailinfo splits the message as git am would" '
	(cd $TMP && git mailinfo msg patch <m.mbox >info)
	cat $TMP/info
	grep -q "^Author: Kab Tester$" $TMP/info
	grep -q "^Email: kab@example.org$" $TMP/info
	grep -q "^Subject: 721bcbf4c5: will-it-scale.per_process_ops .* regression$" $TMP/info
'

test_expect "a UTF-8 subject is RFC 2047 encoded and decodes back" '
	send --subsystem "mm, THP ±" --mbox $TMP/u.mbox -o $TMP/u.txt base head
	grep -q "^Subject: =?UTF-8?B?" $TMP/u.mbox
	not grep -q "±" <(sed "/^$/q" $TMP/u.mbox)
	subject=$(sed -n "s/^Subject: //p" $TMP/u.txt)
	mbox_check $TMP/u.mbox "$subject" $TMP/u.txt
'

test_expect "a line longer than SMTP allows makes the body quoted-printable" '
	$PY $FIXTURES/make-report-export.py --long-label >$TMP/l.json
	kab --db $TMP/l.db import $TMP/l.json >/dev/null
	head=head-$(printf "x%.0s" $(seq 1095))
	send --db $TMP/l.db --mbox $TMP/l.mbox -o $TMP/l.txt base $head
	awk "length > 998 { n++ } END { exit !n }" $TMP/l.txt
	subject=$(sed -n "s/^Subject: //p" $TMP/l.txt)
	[ "$(mbox_check $TMP/l.mbox "$subject" $TMP/l.txt)" = quoted-printable ]
'

test_expect "quoted-printable: no soft break starts a line an mbox reads as From" '
	# "From ab" every 7 characters: soft breaks every 75 hit each offset
	# (a label of an older kab, spaces and all; sides by run ids)
	from=h$(printf "From ab%.0s" $(seq 160))
	sqlite3 $TMP/l.db "UPDATE kernels SET label = '"'"'$from'"'"' WHERE label = '"'"'base'"'"'"
	a=$(sqlite3 $TMP/l.db "SELECT group_concat(r.id) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label LIKE '"'"'hFrom%'"'"'")
	b=$(sqlite3 $TMP/l.db "SELECT group_concat(r.id) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE k.label LIKE '"'"'head-%'"'"'")
	send --db $TMP/l.db --mbox $TMP/f.mbox -o $TMP/f.txt "$a" "$b"
	subject=$(sed -n "s/^Subject: //p" $TMP/f.txt)
	[ "$(mbox_check $TMP/f.mbox "$subject" $TMP/f.txt)" = quoted-printable ]
	test "$(grep -c "^>*From " $TMP/f.mbox)" = 1
	$PY -c "import mailbox, sys; n = len(mailbox.mbox(sys.argv[1])); assert n == 1, n" $TMP/f.mbox
'

test_expect "a subject word longer than SMTP allows is RFC 2047 encoded" '
	long=$(printf "s%.0s" $(seq 1200))
	send --subsystem "$long" --mbox $TMP/s.mbox -o $TMP/s.txt base head
	grep -q "^Subject: =?UTF-8?B?" $TMP/s.mbox
	subject=$(sed -n "s/^Subject: //p" $TMP/s.txt)
	mbox_check $TMP/s.mbox "$subject" $TMP/s.txt
	expect_error 2 "--in-reply-to is 1200 bytes long" -- send --in-reply-to "$long" --mbox $TMP/bad.mbox base head
'

test_expect "header injection and bad addresses are refused, nothing written" '
	expect_error 2 "--to .* holds a control character" -- send --to "x@example.org
Bcc: victim@example.org" --mbox $TMP/bad.mbox base head
	[ ! -e $TMP/bad.mbox ]
	expect_error 2 "--from .nobody. is not a mail address" -- kab report --from nobody --mbox $TMP/bad.mbox base head
	expect_error 2 "use --format text or --mbox FILE" -- kab report --format html --to a@example.org base head
	expect_error 2 "--cc .* holds a control character" -- kab report --cc "a@example.org
Bcc: victim@example.org" base head
	expect_error 2 "a message needs a sender" -- kab report --mbox $TMP/bad.mbox base head
	[ ! -e $TMP/bad.mbox ]
'

test_expect "every RFC 2047 encoded word holds whole UTF-8 characters" '
	# ASCII runs of each length before 2-, 3- and 4-byte characters put
	# the 45-byte boundaries of the encoded words inside characters
	for sub in "m ±±±±±±±±±±±±±±±±±±±±±±±±±±±±±±±±" "mm ±±±±±±±±±±±±±±±±±±±±±±±±±±±±±±±" \
		"mm …………………………………………………………" "mmm …………………………………………………………" \
		"m 🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧" "mmm 🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧🐧"; do
		send --subsystem "$sub" --mbox $TMP/w.mbox -o $TMP/w.txt base head
		$PY - $TMP/w.mbox "$(sed -n "s/^Subject: //p" $TMP/w.txt)" <<-PY
	import base64, re, sys
	head = open(sys.argv[1], "rb").read().split(b"\n\n", 1)[0].decode("ascii")
	subject = re.search(r"^Subject:(.*(?:\n[ \t].*)*)", head, re.M).group(1)
	words = re.findall(r"=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=", subject)
	assert len(words) > 1, subject
	text = "".join(base64.b64decode(w).decode("utf-8", "strict") for w in words)
	assert text == sys.argv[2], (text, sys.argv[2])
	PY
	done
'

test_expect "the text email carries To, Cc and In-Reply-To when given" '
	kab report --to linux-mm@kvack.org --cc "Ann Ex <ann@example.org>" \
		--in-reply-to 202411072132.a8d2cf0f-oliver.sang@intel.com base head >$TMP/h.txt
	[ "$(sed -n 1,4p $TMP/h.txt | cut -d: -f1 | tr "\n" ,)" = "To,Cc,In-Reply-To,Subject," ]
	grep -qx "To: linux-mm@kvack.org" $TMP/h.txt
	grep -qx "Cc: Ann Ex <ann@example.org>" $TMP/h.txt
	grep -qx "In-Reply-To: <202411072132.a8d2cf0f-oliver.sang@intel.com>" $TMP/h.txt
	[ "$(sed -n 5p $TMP/h.txt)" = "" ]
	[ "$(sed -n 6p $TMP/h.txt)" = "Hello," ]
'

test_expect "markdown: a heading, the facts, folded tables and commands" '
	kab report --format markdown base head >$TMP/r.md
	# markdown'"'"'s own characters in text are escaped
	head -1 $TMP/r.md | grep -q "^### 721bcbf4c5: will-it-scale.per\\\\_process\\\\_ops .* regression$"
	grep -q "^- \*\*test machine:\*\* 2 threads" $TMP/r.md
	grep -q "^| stress-ng | \`stress-ng.radixsort.ops_per_sec\` | \*\*[0-9.]*% regression\*\* |" $TMP/r.md
	grep -q "^<details><summary>lkp.s tables</summary>$" $TMP/r.md
	[ $(grep -c "^\`\`\`" $TMP/r.md) -eq 4 ]
	grep -q "^kab report base head$" $TMP/r.md
'

# Counts, in the page Chromium rendered, each chart's dots and those
# drawn inside the chart, and prints them into the DOM it dumps.
probe='<script>
window.onload = function () {
	var out = [];
	document.querySelectorAll("svg.kab-chart").forEach(function (svg) {
		var box = svg.getBoundingClientRect(), dots = svg.querySelectorAll("circle"), inside = 0;
		dots.forEach(function (c) {
			var b = c.getBoundingClientRect();
			if (b.width > 0 && b.left >= box.left && b.right <= box.right &&
			    b.top >= box.top && b.bottom <= box.bottom)
				inside++;
		});
		out.push(svg.getAttribute("class") + " " + svg.dataset.metric + " " + dots.length + " " + inside);
	});
	var pre = document.createElement("pre");
	pre.id = "probe";
	pre.textContent = out.join("\n");
	document.body.appendChild(pre);
};
</script>'

test_expect "html: Chromium draws every sample of both KPIs inside its chart" '
	kab report --format html -o $TMP/r.html base head
	chromium_probe $TMP/r.html "$probe" >$TMP/probe
	cat $TMP/probe
	grep -qx "kab-chart strip will-it-scale.per_process_ops 32 32" $TMP/probe
	grep -qx "kab-chart strip stress-ng.radixsort.ops_per_sec 32 32" $TMP/probe
	[ $(wc -l <$TMP/probe) -eq 2 ]
'

test_expect "html: guest-made text is escaped, never markup" '
	grep -q "meminfo.&lt;i&gt;odd&amp;name&lt;/i&gt;$" $TMP/r.html
	not grep -q "<i>odd" $TMP/r.html
	not grep -q "<script" $TMP/r.html
'

# The same for the flame graph: its frames, those inside it, and the
# widest frame's hover text.
flame_probe='<script>
window.onload = function () {
	var out = [];
	document.querySelectorAll("svg.flame").forEach(function (svg) {
		var box = svg.getBoundingClientRect(), rects = svg.querySelectorAll("rect"), inside = 0;
		rects.forEach(function (r) {
			var b = r.getBoundingClientRect();
			if (b.width > 0 && b.left >= box.left - 0.5 && b.right <= box.right + 0.5 &&
			    b.top >= box.top && b.bottom <= box.bottom)
				inside++;
		});
		out.push("flame " + rects.length + " " + inside);
	});
	var pre = document.createElement("pre");
	pre.id = "probe";
	pre.textContent = out.join("\n");
	document.body.appendChild(pre);
};
</script>'

test_expect "html: a differential flame graph of two profiled runs" '
	# real profiles of this machine, two labels; then a frame no
	# symbol table would hold, which the page must show as text
	for side in a b; do
		kab --db $TMP/f.db run --kernel-label $side --runs 2 \
			--set nr_task=1 --set warmup=0 --set testtime=1s \
			$TOP/jobs/will-it-scale-malloc1.yaml >/dev/null
	done
	# a run a side, each of two iterations with its stacks
	test "$(sqlite3 $TMP/f.db "SELECT count(DISTINCT run_id || iteration) FROM stacks")" = 4
	sqlite3 $TMP/f.db "INSERT INTO stacks SELECT run_id, iteration, event, '"'"'main;<i>odd&frame</i>'"'"', total / 10, total FROM stacks WHERE run_id = 2 GROUP BY iteration"
	kab --db $TMP/f.db report --format html -o $TMP/f.html a b
	grep -q "<h2>Where the time went</h2>" $TMP/f.html
	grep -q "<title>asm_exc_page_fault: base [0-9.]*%, head [0-9.]*% ([-+][0-9.]* points)</title>" $TMP/f.html
	grep -q "&lt;i&gt;odd&amp;frame&lt;/i&gt;: base 0.00%, head [0-9.]*%" $TMP/f.html
	not grep -q "<i>odd" $TMP/f.html
	chromium_probe $TMP/f.html "$flame_probe" >$TMP/probe
	cat $TMP/probe
	read -r what n inside <$TMP/probe
	test "$what" = flame
	[ "$n" -ge 10 ] || fail "only $n frames"
	test "$inside" = "$n"
	# merged, the stacks go along; a stack that is not frames does not
	kab merge $TMP/m.db $TMP/f.db >/dev/null
	test "$(sqlite3 $TMP/m.db "SELECT count(*) FROM stacks")" = "$(sqlite3 $TMP/f.db "SELECT count(*) FROM stacks")"
	kab --db $TMP/m.db report --format html -o $TMP/m.html a b
	grep -q "<h2>Where the time went</h2>" $TMP/m.html
	cp $TMP/f.db $TMP/bad.db
	sqlite3 $TMP/bad.db "UPDATE stacks SET stack = stack || '"'"';a b'"'"' WHERE run_id = 1 AND iteration = 1"
	rc=0
	"$KAB" merge $TMP/m2.db $TMP/bad.db 2>$TMP/e || rc=$?
	cat $TMP/e
	[ $rc -ge 1 ] && [ $rc -le 2 ]
	grep -q "a profile stack that is not frames of symbol names" $TMP/e
	test "$(sqlite3 $TMP/m2.db "SELECT count(*) FROM runs")" = 0
'

test_done
