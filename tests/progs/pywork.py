# tests/progs/pywork.py - a python3 workload of fixed work (json, zlib,
# re, dicts) for run-to-run comparisons (issue 20: bench/diff-runs.sh,
# tests/long/01-diff-runs-aa.sh).  usage: python3 pywork.py [ROUNDS]
# (default 40: about 1 s of CPU here)
import json, re, sys, zlib

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
d = {}
for _ in range(rounds):
    s = json.dumps({str(i): [i, str(i) * 3] for i in range(2000)})
    json.loads(s)
    zlib.compress(s.encode())
    re.findall(r'"(\d+)"', s)
    for i in range(2000):
        d[str(i)] = d.get(str(i), 0) + i
