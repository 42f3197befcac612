# python3 imports extension modules with dlopen after start-up: their code
# is found by the handler's /proc/self/maps rescan and named in reports.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || skip "no $PY"
cat >mix.py <<'PY'
import json, zlib, re
data = [{"k%d" % i: [i, str(i) * 3, {"x": i * 1.5}]} for i in range(2000)]
for r in range(400):
    s = json.dumps(data)
    back = json.loads(zlib.decompress(zlib.compress(s.encode(), 6)))
    d = {}
    for i in range(20000):
        d[i % 977] = d.get(i % 977, 0) + i
    re.findall(r"(\d+)\.(\d+)", s)
print(len(back))
PY
out=$("$PCTBIN" record -o py.pct $PY mix.py 2>err) || fail "python failed: $(cat err)"
[ "$out" = 2000 ] || fail "python's output changed: $out"
"$PCTBIN" report --by=module --format=tsv py.pct >mod.tsv
grep -q $'/_json\.cpython.*\.so$' mod.tsv || fail "the dlopen'ed _json module is missing: $(cat mod.tsv)"
grep -q $'/python3\.[0-9]*$' mod.tsv || fail "the interpreter is missing: $(cat mod.tsv)"
"$PCTBIN" report --format=tsv py.pct | grep -q $'\t_PyEval_EvalFrameDefault$' || fail "no _PyEval_EvalFrameDefault row"
awk -F'\t' '$6 == "[unknown]"' mod.tsv | grep -q . && fail "samples in no module: $(cat mod.tsv)"
cat mod.tsv
