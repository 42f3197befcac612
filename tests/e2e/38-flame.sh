# pct flame: a self-contained SVG flame graph of -g stacks that a browser
# renders: headless Chromium (Debian's chromium) loads it, runs its script,
# and lays out every frame box; the boxes' widths are the stacks' samples.
. "$(dirname "$0")/lib.sh"
command -v chromium >/dev/null || fail "chromium is missing (scripts/deps.sh installs it)"
"$PCTBIN" record -g -o cc.pct "$PROGS/callchain" 0.2 >/dev/null 2>&1 || fail "record -g"
"$PCTBIN" flame -o cc.svg --title="callchain test" cc.pct || fail "flame"
# self-contained: nothing loaded from elsewhere
grep -Eq '(href|src)=' cc.svg && fail "the SVG refers to other files: $(grep -Eo '(href|src)=[^ ]*' cc.svg | head -3)"
frames=$(grep -c '<g class="f"' cc.svg)
[ "$frames" -ge 6 ] || fail "only $frames frames"
for f in main via_a via_b inner; do grep -q "<title>$f (" cc.svg || fail "no frame for $f"; done
# main's box spans all samples; inner's share of the width is its total
total=$(sed -n 's/.*data-total="\([0-9]*\)".*/\1/p' cc.svg)
main_w=$(grep -o 'data-w="[0-9]*" data-l="[0-9]*"><title>main (' cc.svg | sed 's/data-w="\([0-9]*\)".*/\1/')
# (all of them unloaded; a loaded run left 1 of 349 stacks short of main,
# so allow 2%, as test 37 does)
[ $((main_w * 100)) -ge $((total * 98)) ] || fail "main's box is $main_w of $total samples"
inner_t=$("$PCTBIN" report --format=tsv cc.pct | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["function"] == "inner" { print $k["total"] }')
inner_w=$(grep -o 'data-w="[0-9]*" data-l="[0-9]*"><title>inner (' cc.svg | sed 's/data-w="\([0-9]*\)".*/\1/' |
	awk '{ t += $1 } END { print t }')
[ "$inner_w" = "$inner_t" ] || fail "inner's boxes hold $inner_w samples, its total is $inner_t"
# the browser: the script ran and every box has a laid-out width
timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$PWD/cc.svg" >dom.xml 2>chromium.err ||
	fail "chromium failed: $(tail -3 chromium.err)"
rendered=$(sed -n 's/.*data-rendered="\([0-9]*\)".*/\1/p' dom.xml | head -1)
echo "frames in the SVG: $frames; laid out by Chromium: ${rendered:-none}"
[ "$rendered" = "$frames" ] || fail "Chromium laid out ${rendered:-no} frames of $frames"
"$PCTBIN" record -o flat.pct "$PROGS/callchain" 0.05 >/dev/null 2>&1
"$PCTBIN" flame flat.pct >/dev/null 2>err && fail "flame without stacks succeeded"
grep -q "no call stacks" err || fail "unclear error: $(cat err)"
pass "flame graph: $frames frames, widths from the stacks, rendered by Chromium"
