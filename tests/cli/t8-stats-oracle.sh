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

test_done
