#!/usr/bin/env bash
# bench/html.sh - what `pct html` costs on a large -g profile, against
# `pct report` of the same profile (issue 19: generation at most the
# report's time + 50%, a file of at most 10 MB for 100,000 stack samples,
# interactive in under 2 s in headless Chromium).
#
# bench/deepstacks.c (8 functions calling each other in drawn orders, 4 to
# 35 deep: nearly every sample has a call path of its own, the worst case
# for a flame graph) runs for SECONDS of CPU time on each of 2 threads at
# 10 kHz, giving about 10^5 stacks.  Then `pct report` and `pct html` each
# run once to warm the caches and 3 times timed; the run with the least
# CPU time (user + system) counts, as the machine may be shared.  Printed:
# both CPU and wall times, their ratio, the page's size, and, when node,
# npm's playwright-core (as e2e 112 installs it) and /usr/bin/chromium
# exist, the time the page took to become interactive (performance.now()
# when it set data-ready), the least of 3 loads.
# usage: bench/html.sh [SECONDS]   (default 5: ~10^5 stacks)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
R=${PCT:-$root/build/bin/pct}
SECONDS_CPU=${1:-5}
dir=$(mktemp -d /tmp/pct-html-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cc -O2 -g -fno-omit-frame-pointer -pthread -o deepstacks "$root/bench/deepstacks.c"
PCT_STACK_AREA=1024 "$R" record -g -F 10000 -o deep.pct ./deepstacks "$SECONDS_CPU" 2 >/dev/null 2>rec.err ||
	{ cat rec.err >&2; exit 1; }
nstacks=$(sed -n 's/^pct: \([0-9]*\) samples have call stacks$/\1/p' rec.err)

# "wall cpu" of the run with the least CPU time of 3
measure() { /usr/bin/time -f '%e %U %S' -o t.out "$@" >/dev/null 2>err.out || { cat err.out >&2; exit 1; }
	awk '{ print $1, $2 + $3 }' t.out; }
best3() { for _ in 1 2 3; do measure "$@"; done | sort -k2,2n | head -1; }
measure "$R" report deep.pct >/dev/null
measure "$R" html -o deep.html deep.pct >/dev/null
read -r rw rc < <(best3 "$R" report deep.pct)
read -r hw hc < <(best3 "$R" html -o deep.html deep.pct)
size=$(stat -c %s deep.html)
printf 'profile: %d stack samples (%d MB)\n' "$nstacks" "$(( $(stat -c %s deep.pct) / 1000000 ))"
printf 'pct report: %6.2f s CPU %6.2f s wall\n' "$rc" "$rw"
printf 'pct html:   %6.2f s CPU %6.2f s wall, %.2f MB page\n' "$hc" "$hw" "$(awk -v s="$size" 'BEGIN { print s / 1e6 }')"
awk -v a="$hc" -v b="$rc" -v c="$hw" -v d="$rw" 'BEGIN {
	printf "html/report: %.2fx of CPU time, %.2fx of wall time (bound: 1.5x)\n", a / (b > 0 ? b : 0.001), c / (d > 0 ? d : 0.001) }'

# A program whose modules carry DWARF (python3 built with -g, as pyenv's
# is; Debian's has none): the page's line and file tables look up every
# address's line, which pct report --by=function does not, and
# pct report --by=line does.
cat >work.py <<'PY'
import json, re, zlib, time
t = time.process_time(); d = {}
while time.process_time() - t < 4:
    s = json.dumps({str(i): [i, str(i) * 3] for i in range(2000)})
    json.loads(s); zlib.compress(s.encode()); re.findall(r'"(\d+)"', s)
    for i in range(2000): d[str(i)] = d.get(str(i), 0) + i
PY
if command -v python3 >/dev/null && "$R" record -g -F 2000 -o py.pct python3 work.py >/dev/null 2>&1; then
	measure "$R" html -o py.html py.pct >/dev/null
	read -r pw pc < <(best3 "$R" report py.pct)
	read -r lw lc < <(best3 "$R" report --by=line py.pct)
	read -r qw qc < <(best3 "$R" html -o py.html py.pct)
	printf 'python3 -g (%s): report %.2f s CPU, report --by=line %.2f s, html %.2f s: %.2fx report, %.2fx report --by=line\n' \
		"$(python3 -c 'import sysconfig; print("DWARF" if "-g" in (sysconfig.get_config_var("CFLAGS") or "") else "no -g")')" \
		"$pc" "$lc" "$qc" "$(awk -v a="$qc" -v b="$pc" 'BEGIN { print a / (b > 0 ? b : 0.001) }')" \
		"$(awk -v a="$qc" -v b="$lc" 'BEGIN { print a / (b > 0 ? b : 0.001) }')"
fi

npmdir=$root/build/npm-112
if command -v node >/dev/null && [ -f "$npmdir/node_modules/playwright-core/package.json" ] && [ -x /usr/bin/chromium ]; then
	node "$root/tests/e2e/html-probe.cjs" "$npmdir" "$dir/deep.html" ready 3 >probe.json
	node -e 'const p = JSON.parse(require("fs").readFileSync("probe.json", "utf8"));
		console.log(`interactive in headless Chromium: ${p.readyMs.toFixed(0)} ms (least of 3 loads; bound 2000 ms)`)'
else
	echo "interactive time: not measured (run tests/run.sh 112- once to install playwright-core)"
fi
