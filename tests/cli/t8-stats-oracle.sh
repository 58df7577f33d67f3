#!/bin/bash
# kab's Welch and Mann-Whitney U against scipy, an independent
# implementation, on 400 random pairs: small and large, with and
# without ties.  scipy is a test dependency only.
. "$(dirname "$0")/lib.sh"

ORACLE=$BUILD/tests/stats-oracle

test_expect "Welch t, df and p agree with scipy to 4 significant digits" '
	/usr/bin/python3 - $ORACLE <<-PY
	import random, subprocess, sys
	from scipy import stats
	rnd = random.Random(1)
	cases = []
	for i in range(200):
	    nx, ny = rnd.randint(2, 40), rnd.randint(2, 40)
	    cases.append(([rnd.gauss(100, 5) for _ in range(nx)],
	                  [rnd.gauss(100 + rnd.choice([0, 3]), rnd.choice([1, 5, 9])) for _ in range(ny)]))
	inp = "".join(" ".join(map(repr, x)) + ";" + " ".join(map(repr, y)) + "\n" for x, y in cases)
	out = subprocess.run([sys.argv[1]], input=inp, capture_output=True, text=True, check=True).stdout.split("\n")
	for (x, y), line in zip(cases, out):
	    t, df, p, u, pu, exact = map(float, line.split())
	    r = stats.ttest_ind(x, y, equal_var=False)
	    assert abs(t - r.statistic) <= 1e-4 * abs(r.statistic) + 1e-12, (t, r)
	    assert abs(p - r.pvalue) <= 1e-4 * r.pvalue + 1e-12, (p, r)
	PY
'

test_expect "Mann-Whitney U and p agree with scipy: exact and asymptotic" '
	/usr/bin/python3 - $ORACLE <<-PY
	import random, subprocess, sys
	from scipy import stats
	rnd = random.Random(2)
	cases = []
	for i in range(200):
	    nx, ny = rnd.randint(1, 60), rnd.randint(1, 60)
	    ties = i % 2
	    g = (lambda: float(rnd.randint(1, 12))) if ties else (lambda: rnd.gauss(0, 1))
	    sh = rnd.choice([0, 0.5, 3])
	    cases.append(([g() for _ in range(nx)], [g() + sh for _ in range(ny)]))
	inp = "".join(" ".join(map(repr, x)) + ";" + " ".join(map(repr, y)) + "\n" for x, y in cases)
	out = subprocess.run([sys.argv[1]], input=inp, capture_output=True, text=True, check=True).stdout.split("\n")
	checked = {0: 0, 1: 0}
	for (x, y), line in zip(cases, out):
	    t, df, p, u, pu, exact = map(float, line.split())
	    method = "exact" if exact else "asymptotic"
	    r = stats.mannwhitneyu(x, y, alternative="two-sided", method=method, use_continuity=True)
	    assert u == r.statistic, (u, r)
	    assert abs(pu - r.pvalue) <= 1e-4 * r.pvalue + 1e-12, (pu, r, method, len(x), len(y))
	    checked[int(exact)] += 1
	assert checked[0] > 50 and checked[1] > 50, checked
	print("# exact %d, asymptotic %d" % (checked[1], checked[0]))
	PY
'

test_expect "kab show over boots: ANOVA F, p and between/within agree with scipy" '
	/usr/bin/python3 - "$KAB" "$TMP" <<-PY
	import json, random, subprocess, sys
	from scipy import stats
	kab, tmp = sys.argv[1], sys.argv[2]
	rnd = random.Random(3)
	# "drift": boots far apart, iterations tight; "calm": one population
	shapes = {"drift": (0.20, 0.01), "calm": (0.0, 0.05)}
	runs, data = [], {}
	for label, (between, within) in shapes.items():
	    data[label] = []
	    for b in range(4):
	        level = 1000 * (1 + rnd.gauss(0, between))
	        vals = [level * (1 + rnd.gauss(0, within)) for _ in range(5)]
	        data[label].append(vals)
	        runs.append({"uuid": "00000000-0000-4000-8000-%012d" % len(runs),
	            "kernel": {"label": label, "release": "r", "cmdline": "",
	                       "image_path": None, "image_sha256": None, "commit": None},
	            "job": "j", "suite": "s", "test": "t", "params": {"test": "t", "mode": "x"},
	            "resolved": {}, "target": "qemu", "host": {"nr_cpus": 2},
	            "iterations_planned": 5, "started_at": "2026-12-02T10:00:00Z",
	            "ended_at": "2026-12-02T10:01:00Z", "status": "ok",
	            "message": None, "garbage_bytes": 0, "bad_records": 0,
	            "iterations": [{"iteration": i + 1, "metrics": {"x.ops": v}}
	                           for i, v in enumerate(vals)]})
	json.dump({"kab_export": 1, "kab_version": "0.1.0", "runs": runs},
	          open(tmp + "/boots.json", "w"))
	db = tmp + "/boots.db"
	subprocess.run([kab, "--db", db, "import", tmp + "/boots.json"], check=True)
	for label in ("drift", "calm"):
	    out = subprocess.run([kab, "--db", db, "show", label], check=True,
	                         capture_output=True, text=True).stdout
	    print(out)
	    row = [l.split() for l in out.splitlines() if l.endswith(" x.ops")][0]
	    n, boots, f, p, ratio = int(row[0]), int(row[1]), float(row[6]), float(row[7]), float(row[8])
	    r = stats.f_oneway(*data[label])
	    # the between-boot variance component over the within-boot one
	    msw = sum(stats.tvar(b) for b in data[label]) / 4
	    want = max(0.0, (r.statistic - 1) * msw / 5) / msw
	    assert (n, boots) == (20, 4), row
	    assert abs(f - r.statistic) <= 2e-3 * r.statistic, (f, r)
	    assert abs(p - r.pvalue) <= 2e-2 * r.pvalue + 1e-12, (p, r)
	    assert abs(ratio - want) <= 0.05 * want + 1e-9, (label, ratio, want)
	    assert (ratio > 100) == (label == "drift"), (label, ratio)
	PY
'

test_expect "kab plan: variances, r* and boots agree with scipy's noncentral t" '
	# the boots of the test before: each run took 60 s, no boot rows,
	# so a boot costs nothing extra and r* is one iteration
	"$KAB" --db $TMP/boots.db plan --kpi x.ops --detect 20 drift >$TMP/plan || {
		cat $TMP/plan
		false
	}
	cat $TMP/plan
	/usr/bin/python3 - $TMP/boots.db $TMP/plan <<-PY
	import math, re, sqlite3, sys
	from scipy import stats
	con = sqlite3.connect(sys.argv[1])
	rows = con.execute("SELECT s.run_id, s.value FROM samples s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id WHERE k.label = '"'"'drift'"'"' AND s.metric = '"'"'x.ops'"'"'").fetchall()
	boots = {}
	for run, v in rows:
	    boots.setdefault(run, []).append(math.log(v))
	groups = list(boots.values())
	k, n = len(groups), sum(map(len, groups))
	f = stats.f_oneway(*groups).statistic
	msw = sum(stats.tvar(g) * (len(g) - 1) for g in groups) / (n - k)
	between = max(0.0, (f - 1) * msw / (n / k))
	# what k pilot boots leave possible: the variance of boot means,
	# (k - 1) V / u at 32 quantiles of u ~ chi-square(k - 1)
	n0 = n / k
	w = msw / n0
	draws = [max(0.0, (k - 1) * (between + w) / stats.chi2.ppf((i + 0.5) / 32, k - 1) - w)
	         for i in range(32)]
	d = math.log1p(0.20)
	def power(b, var):
	    df = 2 * b - 2
	    tc = stats.t.isf(0.04 / 2, df)
	    ncp = d / (math.sqrt(var) * math.sqrt(2 / b))
	    return 1 - stats.nct.cdf(tc, df, ncp) + stats.nct.cdf(-tc, df, ncp)
	# boots cost nothing beyond their iterations here: r* is 1
	for b in range(2, 10000):
	    p = sum(power(b, x + msw) for x in draws) / 32
	    if p >= 0.8:
	        break
	out = open(sys.argv[2]).read()
	m = re.search(r"(\d+) boots a side of (\d+) iterations? \(power ([0-9.]+) on average", out)
	assert m, out
	assert (int(m.group(1)), int(m.group(2))) == (b, 1), (m.groups(), b)
	assert abs(float(m.group(3)) - p) < 0.006, (m.group(3), p)
	# what to run: QEMU boots, so kab ab, with the job'"'"'s parameters
	assert re.search(r"^  kab ab --boots %d --runs-per-boot 1 --set mode=x$" % b, out, re.M), out
	m = re.search(r"within a boot ([0-9.]+)%, between boots ([0-9.]+)%", out)
	assert abs(float(m.group(1)) - 100 * math.sqrt(msw)) < 0.06, (m.group(1), msw)
	assert abs(float(m.group(2)) - 100 * math.sqrt(between)) < 0.06, (m.group(2), between)
	PY
	expect_error 2 "plan needs the change to detect: --detect PCT" -- "$KAB" --db $TMP/boots.db plan drift
	expect_error 2 "--detect .x.: give a number" -- "$KAB" --db $TMP/boots.db plan --detect x drift
	expect_error 2 "neither a run id nor the label" -- "$KAB" --db $TMP/boots.db plan --detect 5 nosuch
'

test_expect "kab plan of exact runs: the resolution is the spread of boot means below it, sides paired" '
	# boots timed by guest instructions: means equal (flat), apart by
	# less than the resolution (near) or more (wide); iterations alike
	# in every boot
	/usr/bin/python3 - $TMP/exact.json <<-PY
	import json, sys
	runs = []
	for label, means in (("flat", [1000, 1000, 1000, 1000]),
	                     ("near", [1000, 1001, 999, 1000.5]),
	                     ("wide", [1000, 1030, 970, 1010])):
	    for b, m in enumerate(means):
	        runs.append({"uuid": "00000000-0000-4000-8000-%012d" % len(runs),
	            "kernel": {"label": label, "release": "r", "cmdline": "",
	                       "image_path": None, "image_sha256": None, "commit": None},
	            "job": "j", "suite": "s", "test": "t", "params": {"test": "t"},
	            "resolved": {}, "target": "qemu", "host": {"nr_cpus": 2},
	            "clock": "icount:3", "seed": b + 1, "iterations_planned": 3,
	            "started_at": "2026-12-02T10:00:00Z",
	            "ended_at": "2026-12-02T10:01:00Z", "status": "ok",
	            "message": None, "garbage_bytes": 0, "bad_records": 0,
	            "iterations": [{"iteration": i + 1, "metrics": {"x.ops": m * (1 + 0.001 * i)}}
	                           for i in range(3)]})
	json.dump({"kab_export": 1, "runs": runs}, open(sys.argv[1], "w"))
	PY
	"$KAB" --db $TMP/exact.db import $TMP/exact.json >/dev/null
	for l in flat near wide; do
		for d in 0.6 0.8; do
			"$KAB" --db $TMP/exact.db plan --kpi x.ops --detect $d $l >$TMP/plan.$l.$d
		done
	done
	cat $TMP/plan.*.0.6
	grep -q "timed by guest instructions (icount): boot means differ less than exact mode.s resolution and iterations alike in every boot, so the plan takes the resolution, 0.5%, as the spread of a boot, the sides paired by layout seed$" $TMP/plan.flat.0.6
	grep -q "timed by guest instructions (icount): the boots differ by their layout seeds; the plan takes that spread, the sides paired by seed$" $TMP/plan.wide.0.6
	boots() { sed -n "s/.*with power 0.8: \([0-9]*\) boots a side.*/\1/p" $TMP/plan.$1.$2; }
	# below the resolution, the spread is the resolution: one plan
	test -n "$(boots flat 0.6)"
	test "$(boots flat 0.6)" = "$(boots near 0.6)"
	test "$(boots flat 0.8)" = "$(boots near 0.8)"
	# a change near the resolution takes more boots than a larger one,
	# a wider spread more than the resolution
	test "$(boots flat 0.6)" -gt "$(boots flat 0.8)"
	test "$(boots wide 0.6)" -gt "$(boots flat 0.6)"
	# and the number is scipy'"'"'s: a paired t-test of boot means whose
	# difference has sd sqrt(2) times the floor (the resolution over
	# t(0.975, 2)), at alpha 0.04, the fewest boots with power 0.8
	/usr/bin/python3 - $TMP/plan.flat.0.6 $TMP/plan.flat.0.8 <<-PY
	import math, re, sys
	from scipy import stats
	floor = math.log1p(0.005) / stats.t.ppf(0.975, 2)
	sd = math.sqrt(2) * floor
	def power(n, d):
	    df = n - 1
	    tc = stats.t.isf(0.04 / 2, df)
	    ncp = d / (sd / math.sqrt(n))
	    return 1 - stats.nct.cdf(tc, df, ncp) + stats.nct.cdf(-tc, df, ncp)
	for path, pct in zip(sys.argv[1:], (0.6, 0.8)):
	    d = math.log1p(pct / 100)
	    n = next(n for n in range(2, 1000) if power(n, d) >= 0.8)
	    m = re.search(r"(\d+) boots a side of 1 iteration \(power ([0-9.]+)\)",
	                  open(path).read())
	    assert m and int(m.group(1)) == n, (path, m and m.groups(), n)
	    assert abs(float(m.group(2)) - power(n, d)) < 0.006, (m.group(2), power(n, d))
	PY
'

test_expect "compare says at the top what a plan could have called, as scipy computes it" '
	"$KAB" --db $TMP/boots.db compare --kpi x.ops drift calm >$TMP/cmp
	cat $TMP/cmp
	/usr/bin/python3 - $TMP/boots.db $TMP/cmp <<-PY
	import math, re, sqlite3, sys
	from scipy import stats, optimize
	con = sqlite3.connect(sys.argv[1])
	def means(label):
	    rows = con.execute("SELECT s.run_id, avg(s.value) FROM samples s JOIN runs r ON r.id = s.run_id JOIN kernels k ON k.id = r.kernel_id WHERE k.label = ? AND s.metric = '"'"'x.ops'"'"' GROUP BY s.run_id", (label,)).fetchall()
	    return [math.log(v) for _, v in rows]
	a, b = means("drift"), means("calm")
	n = len(a)
	sd = math.sqrt((stats.tvar(a) * (n - 1) + stats.tvar(b) * (n - 1)) / (2 * n - 2))
	df = 2 * n - 2
	tc = stats.t.isf(0.025, df)
	def power(d):
	    ncp = d / (sd * math.sqrt(2 / n))
	    return 1 - stats.nct.cdf(tc, df, ncp) + stats.nct.cdf(-tc, df, ncp)
	d = optimize.brentq(lambda d: power(d) - 0.8, 1e-9, 50 * sd)
	out = open(sys.argv[2]).read()
	lines = out.splitlines()
	m = re.search(r"^note: drift -> calm: no significant change of x.ops; with (\\d+) boots a side whose means spread by ([0-9.]+)%, this plan finds a change of ([0-9.]+)% or more 8 times in 10", out, re.M)
	assert m, out
	# at the top, before the table
	assert out.index(m.group(0)) < out.index("%stddev"), out
	assert int(m.group(1)) == n, m.groups()
	assert abs(float(m.group(2)) - 100 * sd) < 0.06, (m.group(2), sd)
	want = 100 * math.expm1(d)
	assert abs(float(m.group(3)) - want) <= 0.06 + 0.005 * want, (m.group(3), want)
	PY
'

test_done
