# pct html in a real browser: Debian's chromium, headless, driven by npm's
# playwright-core (pinned, as e2e 108), through tests/e2e/html-probe.cjs.
#  1. A known workload (selftime: three functions that time themselves
#     with CLOCK_THREAD_CPUTIME_ID), -g, opened from file://: the hot
#     function's row shows pct report's samples and share (and the share
#     is within 4 standard errors of the true one); a click on its frame
#     zooms it to the plot's width, Reset zoom undoes it; searching its name
#     highlights its frames only, with its share as the matched share;
#     labels fit their frames; the source view shows the hot line first,
#     the line pct report --by=line gives most samples.  No console error,
#     no request.
#  2. Diffs (work.c: work-half is work-full with work_a's work halved), at
#     --alpha=0.0001 so that the "nothing else" half fails by chance at most
#     1e-4 (Holm over the rows and frames):
#     work_a is the only row and the only frame called faster, and its
#     frames the only coloured ones; an A/A pair (two runs of work-full) has
#     no row or frame slower or faster, and no frame coloured.  pct flame
#     BASE NEW flags the same frames with the same verdicts.
#  3. 100,000 stack samples (bench/deepstacks.c, 20 kHz): the page is at
#     most 10 MB and interactive (data-ready) in under 2 s, the least of 3
#     loads; measured and printed (bench/html.sh times its generation).
# pct-test: plain (pct html runs sanitized in e2e 20 and 47; not alone: the page of 100,000 stacks was interactive in 353 ms at load 4.6, against the bound of 2 s)
. "$(dirname "$0")/lib.sh"
for t in node npm cc; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh installs it)"; done
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is missing (scripts/deps.sh installs it)"
PLAYWRIGHT_VERSION=1.65.1
npmdir=$(npm_dir playwright "playwright-core@$PLAYWRIGHT_VERSION") || exit 1

# 1. a known workload
t0=$(now_ns)
"$PCTBIN" record -g -o st.pct "$PROGS/selftime" 2 >truth.tsv 2>rec.err || fail "record: $(cat rec.err)"
overload_bias st.pct "$(since "$t0")"   # CPU-time timers
"$PCTBIN" html -o st.html st.pct 2>html.err || fail "pct html: $(cat html.err)"
[ ! -s html.err ] || fail "pct html wrote to stderr: $(cat html.err)"
"$PCTBIN" report --format=tsv st.pct >st.tsv
hot=$(awk -F'\t' 'NR == 2 { print $NF }' st.tsv)
read -r hs hp < <(awk -F'\t' -v f="$hot" 'NR > 1 && $NF == f { print $1, $3 }' st.tsv)
[ "$hot" = work_a ] || [ "$hot" = work_b ] || fail "the hottest function is $hot: $(cat st.tsv)"
# the share against the truth: within PCT_Z standard errors (1e-4)
n=$(awk -F'\t' 'NR > 1 { s += $1 } END { print s }' st.tsv)
awk -F'\t' -v f="$hot" -v k="$hs" -v n="$n" -v z="$PCT_Z" -v b="$TRUTH_BIAS" '{ t[$1] = $2; all += $2 } END {
	p = t[f] / all; q = k / n; se = sqrt(p * (1 - p) / n)
	printf "%s: %.2f%% of the samples shown, %.2f%% of the CPU time measured (%.2f se = %.2f points)\n", f, 100 * q, 100 * p, z, 100 * z * se
	exit !(q >= p - z * se - b && q <= p + z * se + b) }' truth.tsv || fail "the shown share is not the true one"
# the hot line: pct report --by=line's first row of the function
line=$("$PCTBIN" report --by=line --format=tsv st.pct | awk -F'\t' -v f="$hot" 'NR > 1 && $0 ~ "\t" f "\t" { print $(NF-2); exit }')
[ -n "$line" ] || fail "no line of $hot in pct report --by=line"

# 2. diffs
for b in full half; do
	"$PCTBIN" record -g -o $b.pct "$PROGS/work-$b" 800 >/dev/null 2>&1 || fail "record work-$b"
done
"$PCTBIN" record -g -o full2.pct "$PROGS/work-full" 800 >/dev/null 2>&1 || fail "record work-full again"
"$PCTBIN" html --alpha=0.0001 -o ab.html full.pct half.pct || fail "pct html full half"
"$PCTBIN" html --alpha=0.0001 -o aa.html full.pct full2.pct || fail "pct html full full2"
"$PCTBIN" flame --alpha=0.0001 -o ab.svg full.pct half.pct || fail "pct flame full half"

# 3. 100,000 stack samples
cc -O2 -g -fno-omit-frame-pointer -pthread -o deepstacks "$ROOT/bench/deepstacks.c" || fail "cc deepstacks"
# (at 20 kHz: about 17,700 stack samples per CPU second, the handler's
# copies included, so 3.5 s of work in each of 2 threads gives about
# 120,000 for 7 s of CPU, where 10 kHz took 14)
PCT_STACK_AREA=1024 "$PCTBIN" record -g -F 20000 -o deep.pct ./deepstacks 3.5 2 >/dev/null 2>rec.err || fail "record deepstacks: $(cat rec.err)"
nstacks=$(sed -n 's/^pct: \([0-9]*\) samples have call stacks$/\1/p' rec.err)
"$PCTBIN" html -o deep.html deep.pct || fail "pct html deep"
rm -f deep.pct
size=$(stat -c %s deep.html)

# the four pages in one browser
timeout 300 node "$ROOT/tests/e2e/html-probe.cjs" "$npmdir" st.json st.html profile "$hot" \
	ab.json ab.html diff - aa.json aa.html diff - deep.json deep.html ready 3 || fail "probe"
python3 - st.json ab.json aa.json deep.json ab.svg "$hot" "$hs" "$hp" "$line" "$nstacks" "$size" <<'PY' || fail "the pages (above)"
import json, sys, xml.etree.ElementTree as ET
st, ab, aa, deep = (json.load(open(f)) for f in sys.argv[1:5])
svgfile, hot, hs, hp, line, nstacks, size = sys.argv[5:12]
ok = True
def check(cond, what):
    global ok
    print(("ok: " if cond else "FAIL: ") + what)
    ok = ok and cond
# no console error and no request, on any page
for name, d in (("st", st), ("ab", ab), ("aa", aa), ("deep", deep)):
    check(d["errors"] == [], f"{name}.html: console errors: {d['errors']}")
    check(d["requests"] == [], f"{name}.html: requests: {d['requests']}")
# 1. the hot function's row, frame, search and source view
share = "%.2f%%" % float(hp)
row = st["row"] or {}
check(str(row.get("samples")) == hs, f"the {hot} row shows {row.get('samples')} samples, pct report {hs}")
check(share in row.get("text", ""), f"the {hot} row shows {share}: {row}")
w0, wz, wr = (st[k]["frame"]["width"] if st[k]["frame"] else 0 for k in ("before", "zoomed", "reset"))
pw = st["zoomed"]["plotWidth"]
print(f"frame of {hot}: {w0} px wide, {wz} px after a click (plot {pw} px), {wr} px after Reset zoom")
check(wz >= 0.97 * pw, f"a click zooms {hot} to the width")
check(w0 < 0.9 * pw and (w0 - wr) ** 2 < 1, "Reset zoom returns")
check(st["resetVisible"] is True, "a visible Reset zoom")
check(st["search"]["matched"] == [hot], f"search highlights {st['search']}")
check(f"{hs} samples, {share}" in st["search"]["text"], f"matched share: {st['search']['text']}")
check(st["overflow"]["overflowing"] == 0, f"labels fit: {st['overflow']}")
src = st["source"] or {}
check(src.get("firstIsHot") is True, f"the source view shows the hot line first: {src}")
check(line in (src.get("hot") or []), f"the hot line shown is line {line}: {src.get('hot')}")
# 2. the diffs' verdicts
svg = [g.attrib for g in ET.parse(svgfile).iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "f"]
flagged = sorted({r["f"] for r in ab["rows"] if r["v"] in ("slower", "faster")})
check(flagged == ["work_a"], f"A/B rows slower or faster: {flagged}")
check(any(r["f"] == "work_a" and r["v"] == "faster" for r in ab["rows"]), "A/B: work_a's row is faster")
ff = sorted({f["f"] for f in ab["frames"] if f["v"] in ("slower", "faster")})
check(ff == ["work_a"], f"A/B frames slower or faster: {ff}")
col = sorted({f["f"] for f in ab["frames"] if f["coloured"]})
check(col == ["work_a"], f"A/B coloured frames: {col}")
print(f"A/B: {len(ab['frames'])} frames, {sum(f['coloured'] for f in ab['frames'])} coloured")
# pct flame BASE NEW draws the same tree with the same verdicts
key = lambda fs: sorted((f, v) for f, v in fs if v in ("slower", "faster"))
hv, sv = key((f["f"], f["v"]) for f in ab["frames"]), key((g["data-function"], g["data-verdict"]) for g in svg)
check(hv == sv, f"the SVG's flagged frames {sv} are the page's {hv}")
aaf = [r["f"] for r in aa["rows"] if r["v"] in ("slower", "faster")]
check(aaf == [], f"A/A rows slower or faster: {aaf}")
aafr = [f["f"] for f in aa["frames"] if f["v"] in ("slower", "faster") or f["coloured"]]
check(aafr == [], f"A/A frames flagged or coloured: {aafr}")
print(f"A/A: {len(aa['frames'])} frames, verdicts {sorted({f['v'] for f in aa['frames']})}")
# 3. the page of 100,000 stacks
ms = round(deep["readyMs"])
print(f"{nstacks} stack samples: a page of {size} bytes, interactive in {ms} ms (the least of 3 loads)")
check(int(nstacks or 0) >= 100000, f"at least 100,000 stack samples ({nstacks})")
check(int(size) <= 10000000, f"the page is at most 10 MB ({size} bytes)")
check(ms < 2000, f"interactive in under 2 s ({ms} ms)")
sys.exit(0 if ok else 1)
PY
pass "html"
