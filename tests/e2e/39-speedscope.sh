# speedscope (from the npm registry) imports pct's folded stacks: headless
# Chromium loads speedscope with the export, and its sandwich view lists
# each frame with the total and self samples of pct's stacks, which are
# pct report's (inlined frames are frames there, and in the flat report
# their code is the function's they are inlined into).
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
for t in npm chromium python3; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh installs it)"; done
SPEEDSCOPE_VERSION=1.25.0
# (one directory for every build, installed once: lib.sh's npm_dir)
npmdir=$(npm_dir speedscope "speedscope@$SPEEDSCOPE_VERSION") || exit 1
release=$npmdir/node_modules/speedscope/dist/release
[ -f "$release/index.html" ] || fail "speedscope $SPEEDSCOPE_VERSION has no $release/index.html"
"$PCTBIN" record -g -o cc.pct "$PROGS/callchain" 0.2 >/dev/null 2>&1 || fail "record -g"
mkdir www && cp -r "$release"/. www/ && "$PCTBIN" export --format=folded -o www/cc.folded cc.pct || fail "export folded"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd www && exec python3 -m http.server "$port" --bind 127.0.0.1) >http.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$SCRATCH"' EXIT
for i in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/cc.folded')" 2>/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/cc.folded&title=pct-folded&view=sandwich"
# the sandwich table as text: "TOTAL (x%) SELF (y%) NAME" after "Symbol
# Name".  speedscope fills the table after its first frames: on a busy
# machine the DOM can be dumped before, so the budget of virtual time grows
# until the rows are there.
for budget in 5000 20000 60000; do
	timeout 120 chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=$budget --dump-dom "$url" \
		>dom.html 2>chromium.err || fail "chromium: $(tail -3 chromium.err)"
	# a name may hold blanks ("f (inline)"): it runs up to the next "N (P%) N (P%)"
	sed 's/<[^>]*>/ /g; s/&lt;/</g' dom.html | tr -s ' \n' '  ' | sed -n 's/.*Symbol Name //p' |
		python3 -c 'import re, sys
for t, s, n in re.findall(r"(\d+) \([^)]*%\) (\d+) \([^)]*%\) (.*?)(?= \d+ \([^)]*%\) \d+ \(|\s*$)", sys.stdin.read()):
    print(n.strip() + "\t" + t + "\t" + s)' | sort >speedscope.tsv
	[ -s speedscope.tsv ] && break
	echo "no rows after $budget ms of virtual time"
done
[ -s speedscope.tsv ] || fail "speedscope showed no functions: $(sed 's/<[^>]*>/ /g' dom.html | tr -s ' \n' '  ' | tail -c 400)"
"$PCTBIN" report --format=tsv cc.pct | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	{ print $k["function"] "\t" $k["total"] "\t" $k["samples"] }' | sort >pct.tsv
# The frames' figures the folded stacks give (pct-report(1), the one frame
# model): a frame's total, the samples of the stacks that hold it (once a
# stack), its self, those of the stacks it ends; and a function's self in
# the flat report, whose rows are symbols' functions, is its frames' self
# and that of the inlined frames right under it at the leaf (code inlined
# into a function is its own there).
awk '{ n = $NF; sub(/ [0-9]+$/, ""); c = split($0, f, ";")
	delete seen; for (i = 1; i <= c; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; total[f[i]] += n }
	self[f[c]] += n
	o = c; while (o > 1 && f[o] ~ / \(inline\)$/) o--; flat[f[o]] += n }
	END { for (x in total) print x "\t" total[x] "/" self[x] + 0 "\t" total[x] "/" flat[x] + 0 }' www/cc.folded | sort >model.tsv
for f in main via_a via_b inner "thread_cpu_ns (inline)"; do
	m=$(awk -F'\t' -v f="$f" '$1 == f { print $2 }' model.tsv)
	[ -n "$m" ] || { [ "$f" = "thread_cpu_ns (inline)" ] && continue; fail "$f: no frame in the folded stacks"; }
	s=$(awk -F'\t' -v f="$f" '$1 == f { print $2 "/" $3 }' speedscope.tsv)
	echo "$f: speedscope total/self $s, the folded stacks' $m"
	[ "$s" = "$m" ] || fail "$f: speedscope '$s', folded '$m'; folded: $(head -5 www/cc.folded); speedscope: $(cat speedscope.tsv)"
	case $f in *"(inline)") continue;; esac
	p=$(awk -F'\t' -v f="$f" '$1 == f { print $2 "/" $3 }' pct.tsv)
	w=$(awk -F'\t' -v f="$f" '$1 == f { print $3 }' model.tsv)
	echo "$f: pct report total/self $p, the folded stacks' $w"
	[ "$p" = "$w" ] || fail "$f: pct report '$p', folded '$w'; pct: $(cat pct.tsv)"
done
pass "speedscope $SPEEDSCOPE_VERSION imports the folded stacks, totals and self samples as pct's"
