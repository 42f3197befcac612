# pct flame BASE NEW: a differential flame graph whose frames carry pct
# diff's verdicts, and the SVG's script (src/html/flame-svg.js) run in
# headless Chromium by playwright-core (pinned, as e2e 108).
#  1. Two builds of one program: steady_work... and changed_work each spin
#     for a measured amount of their thread's CPU time
#     (CLOCK_THREAD_CPUTIME_ID), in blocks of 30 ms; the new build halves
#     changed_work's.  In BASE NEW only changed_work's frames (it and its
#     callees) are slower or faster, changed_work itself faster, coloured
#     blue; every other frame is grey.  An A/A pair (two runs of the base
#     build) has no frame slower or faster and none coloured.  The heading
#     names the test, the adjustment, alpha and the minimum effect.
#  2. The SVGs are well-formed XML (xmllint, python's ElementTree); each
#     frame has data-function and data-samples; search and reset controls
#     are drawn; --sum sums two files; a diff option without a diff is a
#     usage error.
#  3. In Chromium (file://, no console error, no request): every frame is
#     laid out; labels fit their boxes by measure (the long name is cut to
#     its box, and whole once zoomed into); clicking changed_work zooms it
#     to the plot's width and Reset zoom undoes it; Search (its prompt
#     answered "changed_work") paints changed_work's frames only and shows
#     "Matched: P%" with P its share of the samples.
. "$(dirname "$0")/lib.sh"
for t in node npm cc xmllint python3; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh installs it)"; done
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is missing (scripts/deps.sh installs it)"
grep -qF ']]>' "$ROOT/src/html/flame-svg.js" && fail "src/html/flame-svg.js holds ']]>'"
PLAYWRIGHT_VERSION=1.65.1
npmdir=$(npm_dir playwright "playwright-core@$PLAYWRIGHT_VERSION") || exit 1

long=steady_work_whose_name_is_long_enough_to_be_cut_in_a_narrow_box
cat >two.c <<EOF
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
static long cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}
/* each spins for us microseconds of its thread's CPU time */
__attribute__((noinline)) static void $long(long us)
{
	long end = cpu_ns() + us * 1000;
	while (cpu_ns() < end)
		for (int i = 0; i < 20000; i++)
			sink += (unsigned long)i * 3;
}
__attribute__((noinline)) static void changed_work(long us)
{
	long end = cpu_ns() + us * 1000;
	while (cpu_ns() < end)
		for (int i = 0; i < 20000; i++)
			sink ^= (unsigned long)i * 5;
}
int main(int argc, char **argv)
{
	int rounds = atoi(argv[1]);
	for (int r = 0; r < rounds; r++) {
		$long(30011);
		changed_work(CHANGED_US);
	}
	return 0;
}
EOF
cc -O1 -g -DCHANGED_US=30011 -o base two.c || fail "cc base"
cc -O1 -g -DCHANGED_US=15005 -o new two.c || fail "cc new"
# 25 rounds: 1.5 s of CPU (base), 1.1 s (new), at 1 kHz (changed_work:
# about 750 samples against 375, z = 11, far beyond alpha 1e-4)
for r in b1:base b2:base n1:new; do
	"$PCTBIN" record -F 1000 -g -o "${r%%:*}.pct" "./${r#*:}" 25 >/dev/null 2>rec.err ||
		fail "record ${r#*:}: $(cat rec.err)"
done

# the verdicts at --alpha=0.0001: the A/A pair flags a frame by chance
# with a probability of at most 1e-4 (Holm over the frames; at the
# default 0.05, in about 1 run of 20); changed_work, halved over ~1500
# samples, is found far beyond it.  The default's heading: d05.svg.
"$PCTBIN" flame --alpha=0.0001 -o d.svg b1.pct n1.pct 2>d.err || fail "flame BASE NEW: $(cat d.err)"
"$PCTBIN" flame --alpha=0.0001 -o aa.svg b1.pct b2.pct 2>aa.err || fail "flame A/A: $(cat aa.err)"
"$PCTBIN" flame -o d05.svg b1.pct n1.pct 2>d05.err || fail "flame BASE NEW at the default alpha: $(cat d05.err)"
"$PCTBIN" flame -o n.svg n1.pct 2>n.err || fail "flame NEW: $(cat n.err)"
"$PCTBIN" flame --sum -o sum.svg b1.pct b2.pct 2>sum.err || fail "flame --sum: $(cat sum.err)"
"$PCTBIN" flame --alpha=0.0001 --width=600 -o narrow.svg b1.pct n1.pct 2>nw.err || fail "flame --width=600 BASE NEW: $(cat nw.err)"
for f in d aa n sum narrow; do xmllint --noout $f.svg || fail "$f.svg is not well-formed XML"; done
"$PCTBIN" flame --alpha=0.01 -o x.svg n1.pct 2>/dev/null
[ $? = 2 ] || fail "--alpha with one file is not a usage error"

# frames.py SVG: one line per frame: verdict, fill, level, x, w, samples,
# name, and "in" if it is changed_work or a callee of it, else "out"
cat >frames.py <<'PY'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
fs = []
for g in root.iter(S + "g"):
    if g.get("class") != "f":
        continue
    r = g.find(S + "rect")
    fs.append(dict(v=g.get("data-verdict", "-"), fill=r.get("fill"), l=int(g.get("data-l")), x=int(g.get("data-x")),
                   w=int(g.get("data-w")), n=int(g.get("data-samples")), name=g.get("data-function")))
cw = [f for f in fs if f["name"] == "changed_work"]
for f in fs:
    inside = any(c["l"] <= f["l"] and c["x"] <= f["x"] and f["x"] + f["w"] <= c["x"] + c["w"] for c in cw)
    print(f["v"], f["fill"], f["l"], f["x"], f["w"], f["n"], f["name"], "in" if inside else "out", sep="\t")
PY
python3 frames.py d.svg >d.tsv || fail "python cannot read d.svg"
python3 frames.py aa.svg >aa.tsv || fail "python cannot read aa.svg"
python3 frames.py n.svg >n.tsv || fail "python cannot read n.svg"
echo "BASE NEW (verdict, fill, level, x, width, samples, name):"; cat d.tsv
grey='rgb(212,212,212)'
# changed_work faster and blue; only its frames slower or faster; the
# coloured frames exactly those
awk -F'\t' '$7 == "changed_work" && $1 == "faster" { n++ } END { exit !n }' d.tsv || fail "changed_work is not faster"
awk -F'\t' -v g="$grey" '$7 == "changed_work" && $2 != g { split(substr($2, 5), c, ","); if (c[3] + 0 > c[1] + 0) n++ } END { exit !n }' d.tsv ||
	fail "changed_work is not coloured blue"
bad=$(awk -F'\t' '($1 == "slower" || $1 == "faster") && $8 != "in"' d.tsv)
[ -z "$bad" ] || fail "frames other than changed_work's are slower or faster: $bad"
bad=$(awk -F'\t' -v g="$grey" '(($1 == "slower" || $1 == "faster") != ($2 != g))' d.tsv)
[ -z "$bad" ] || fail "coloured frames are not the slower/faster ones: $bad"
awk -F'\t' -v l="$long" '$7 == l { n++ } END { exit !n }' d.tsv || fail "no frame for $long"
grep -q '<title>changed_work (.*self: base [0-9]*, new [0-9]*; delta -[0-9.]* points \[.*\]; q .*: faster)</title>' d.svg ||
	fail "changed_work's title does not give base, new, delta and verdict: $(grep -o '<title>changed_work[^<]*' d.svg)"
for w in 'exact binomial test of its time (samples x period), conditional on its two counts' 'adjustment: Holm over [0-9]* frames' 'alpha 0.0001' \
	'min effect 0.5 points'; do
	grep -q "$w" d.svg || fail "the heading does not say '$w'"
done
grep -q 'alpha 0.05' d05.svg || fail "the heading at the default alpha does not say 'alpha 0.05'"
echo "A/A:"; cat aa.tsv
bad=$(awk -F'\t' -v g="$grey" '$1 == "slower" || $1 == "faster" || $2 != g' aa.tsv)
[ -z "$bad" ] || fail "A/A: frames slower, faster or coloured: $bad"
[ "$(grep -c . aa.tsv)" -ge 5 ] || fail "A/A: only $(grep -c . aa.tsv) frames"

# one profile: data-function and data-samples (its width), no verdicts
awk -F'\t' '$1 != "-" || $6 != $5 || $7 == "" { bad = 1 } END { exit bad }' n.tsv || fail "n.svg: frames without data-function/data-samples, or with a verdict"
grep -q 'data-verdict' n.svg && fail "a single profile's graph has verdicts"
t1=$(sed -n 's/.*<svg[^>]* data-total="\([0-9]*\)".*/\1/p' d.svg)
tb=$(sed -n 's/.*<svg[^>]* data-total="\([0-9]*\)".*/\1/p' aa.svg)
ts=$(sed -n 's/.*<svg[^>]* data-total="\([0-9]*\)".*/\1/p' sum.svg)
tb1=$(sed -n 's/.*<svg[^>]* data-base-total="\([0-9]*\)".*/\1/p' aa.svg)
[ -n "$ts" ] && [ "$ts" = $((tb + tb1)) ] || fail "--sum: $ts samples, the files have $tb1 and $tb"
# the controls and the script
for id in pct-reset pct-search pct-matched; do grep -q "id=\"$id\"" d.svg || fail "no #$id"; done
grep -q '>Reset zoom</text>' d.svg && grep -q '>Search</text>' d.svg || fail "no Reset zoom or Search control"
grep -q '<script type="text/ecmascript"><!\[CDATA\[' d.svg || fail "no script"
# without scripts a label is cut to its box, conservatively
python3 - <<'PY' || fail "narrow.svg: a label wider than its box"
import xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
for g in ET.parse("narrow.svg").getroot().iter(S + "g"):
    if g.get("class") == "f":
        t = g.find(S + "text").text or ""
        if len(t) * 7.2 > float(g.find(S + "rect").get("width")):
            raise SystemExit("%s: %r" % (g.get("data-function"), t))
PY

# 3. the browser
cat >probe.cjs <<'EOF'
// probe.cjs NPMDIR SVG: load the SVG from file://, drive it, print JSON
const path = require('path');
const [npmdir, svg] = process.argv.slice(2);
const { chromium } = require(path.join(npmdir, 'node_modules/playwright-core'));
(async () => {
	const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
	const page = await browser.newPage();
	const out = { errors: [], requests: [] };
	page.on('console', m => { if (m.type() === 'error') out.errors.push(m.text()); });
	page.on('pageerror', e => out.errors.push('page error: ' + e.message));
	page.on('request', r => { if (!r.url().startsWith('file://')) out.requests.push(r.url()); });
	page.on('dialog', d => d.accept('changed_work'));
	await page.goto('file://' + svg);
	await page.waitForFunction(() => document.documentElement.hasAttribute('data-rendered'), null, { timeout: 60000 });
	// the frames as laid out: name, label, label and box widths, fill, shown
	const frames = () => page.evaluate(() => Array.from(document.querySelectorAll('g.f')).map(g => {
		const r = g.querySelector('rect'), t = g.querySelector('text');
		const shown = getComputedStyle(g).display !== 'none';
		return { name: g.getAttribute('data-function'), label: t.textContent,
			 labelW: shown ? t.getComputedTextLength() : 0, boxW: +r.getAttribute('width'),
			 fill: r.getAttribute('fill'), shown, samples: +g.getAttribute('data-samples'),
			 l: +g.getAttribute('data-l') };
	}));
	const root = await page.evaluate(() => ({ rendered: +document.documentElement.getAttribute('data-rendered'),
		total: +document.documentElement.getAttribute('data-total'),
		plot: +document.documentElement.getAttribute('data-plot-width'),
		frames: document.querySelectorAll('g.f').length }));
	out.root = root;
	out.initial = await frames();
	const cw = () => page.locator('g.f[data-function="changed_work"]').first();
	await cw().click();
	out.zoomed = await frames();
	await page.click('#pct-reset');
	out.reset = await frames();
	// zoom into the long name's frame: it fits whole there
	await page.locator('g.f[data-function^="steady_work_whose"]').first().click();
	out.zoomedLong = await frames();
	await page.click('#pct-reset');
	await page.click('#pct-search');
	out.searched = await frames();
	out.matched = await page.locator('#pct-matched').textContent();
	out.matchedAttr = await page.evaluate(() => document.documentElement.getAttribute('data-matched'));
	await page.click('#pct-search');
	out.cleared = await frames();
	out.matchedAfter = await page.locator('#pct-matched').textContent();
	console.log(JSON.stringify(out));
	await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
EOF
# (the browser's part is the plain run's in make check, and make
# check-full's here too: the SVG's script is the same bytes whatever the
# build)
consumers_here || { pass "flame BASE NEW (the browser's part: the plain run's)"; exit 0; }
timeout 300 node probe.cjs "$npmdir" "$PWD/narrow.svg" >probe.json 2>probe.err || fail "probe: $(tail -5 probe.err)"
python3 - "$long" <<'PY' || fail "in Chromium: see above"
import json, sys
d = json.load(open("probe.json"))
long = sys.argv[1]
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)
check(not d["errors"], "console errors: %s" % d["errors"])
check(not d["requests"], "requests: %s" % d["requests"])
r = d["root"]
check(r["rendered"] == r["frames"] and r["frames"] >= 5, "laid out %s of %s frames" % (r["rendered"], r["frames"]))
def fitted(state, name):
    for f in d[state]:
        if not f["shown"]:
            continue
        check(f["labelW"] == 0 or f["labelW"] <= f["boxW"] - 6 + 0.5, "%s: %s's label %r is %.1f px in a %.1f px box" % (state, f["name"], f["label"], f["labelW"], f["boxW"]))
        check(f["label"] in ("", f["name"]) or (f["label"].endswith("..") and f["name"].startswith(f["label"][:-2])),
              "%s: %s's label is %r" % (state, f["name"], f["label"]))
for s in ("initial", "zoomed", "reset", "zoomedLong", "searched"):
    fitted(s, s)
def first(state, name):
    return next(f for f in d[state] if f["name"] == name)
lg = first("initial", long)
check(lg["label"].endswith("..") and len(lg["label"]) > 10, "the long name is not cut to its box: %r in %.1f px" % (lg["label"], lg["boxW"]))
check(first("zoomedLong", long)["label"] == long, "zoomed into, the long name is not whole: %r" % first("zoomedLong", long)["label"])
check(first("initial", "main")["label"] == "main", "main's label is %r" % first("initial", "main")["label"])
z = first("zoomed", "changed_work")
check(abs(z["boxW"] - r["plot"]) < 1, "zoomed, changed_work is %.1f px wide, the plot %s" % (z["boxW"], r["plot"]))
check(not first("zoomed", long)["shown"], "zoomed into changed_work, %s is still shown" % long)
check(first("reset", long)["shown"] and abs(first("reset", "main")["boxW"] - r["plot"]) < 1, "Reset zoom did not show everything again")
hl = "rgb(230,0,230)"
for f in d["searched"]:
    check((f["fill"] == hl) == (f["name"] == "changed_work"), "searched: %s's fill is %s" % (f["name"], f["fill"]))
share = 100.0 * sum(f["samples"] for f in d["initial"] if f["name"] == "changed_work" and
                    not any(g["name"] == "changed_work" and g["l"] < f["l"] for g in d["initial"])) / r["total"]
check(d["matched"] == "Matched: %.1f%%" % share, "matched: %r, changed_work's share %.2f%%" % (d["matched"], share))
check(abs(float(d["matchedAttr"]) - share) < 0.01, "data-matched %s, share %.2f" % (d["matchedAttr"], share))
check(all(f["fill"] != hl for f in d["cleared"]) and d["matchedAfter"] == "", "Reset search left highlights")
print("chromium: %d frames laid out; long label %r in %.0f px; %s" % (r["rendered"], lg["label"], lg["boxW"], d["matched"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
pass "flame BASE NEW: only changed_work faster and coloured, A/A uncoloured; search, zoom, reset and fitted labels in Chromium"
