#!/usr/bin/python3
# A synthetic kab export for the compare benchmark: two kernels, five
# runs (boots) each of 6 iterations of N metrics (default 10,000); 1% of
# the metrics shifted by 5%.  With F (default 1), the metrics belong to
# F monitors: bench.* and monN.*.
import json, random, sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
f = int(sys.argv[2]) if len(sys.argv) > 2 else 1


def name(j):
    return ("bench" if j % f == 0 else "mon%d" % (j % f)) + \
        ".metric_%05d" % j

rnd = random.Random(3)
runs = []
for k, label in enumerate(("A", "B")):
    for b in range(5):
        its = []
        for i in range(1, 7):
            m = {}
            for j in range(n):
                shift = 1.05 if label == "B" and j % 100 == 0 else 1.0
                m[name(j)] = (1000 + j) * shift * rnd.gauss(1, 0.02)
            its.append({"iteration": i, "metrics": m})
        runs.append({"uuid": "00000000-0000-4000-8000-%012d" % (10 * k + b),
                     "kernel": {"label": label, "release": "bench",
                                "cmdline": "", "image_path": None,
                                "image_sha256": None, "commit": None},
                     "job": "bench", "suite": "will-it-scale", "test": "malloc1",
                     "params": {"test": "malloc1", "testcase": "will-it-scale"},
                     "resolved": {}, "target": "local", "host": {},
                     "iterations_planned": 6,
                     "started_at": "2026-12-02T00:00:00Z",
                     "ended_at": None, "status": "ok", "message": None,
                     "garbage_bytes": 0, "bad_records": 0, "iterations": its})
json.dump({"kab_export": 1, "runs": runs}, sys.stdout)
