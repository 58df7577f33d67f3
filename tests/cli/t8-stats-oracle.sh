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

test_expect "kab show over boots: ANOVA F and p agree with scipy, unit by the rule" '
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
	            "job": "j", "suite": "s", "test": "t", "params": {"test": "t"},
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
	for label, want in (("drift", "boot"), ("calm", "sample")):
	    out = subprocess.run([kab, "--db", db, "show", label], check=True,
	                         capture_output=True, text=True).stdout
	    print(out)
	    row = [l.split() for l in out.splitlines() if l.endswith(" x.ops")][0]
	    n, boots, f, p, unit = int(row[0]), int(row[1]), float(row[6]), float(row[7]), row[8]
	    r = stats.f_oneway(*data[label])
	    assert (n, boots) == (20, 4), row
	    assert abs(f - r.statistic) <= 2e-3 * r.statistic, (f, r)
	    assert abs(p - r.pvalue) <= 2e-2 * r.pvalue + 1e-12, (p, r)
	    assert unit == want, (label, unit)
	PY
'

test_done
