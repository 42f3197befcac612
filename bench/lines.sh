#!/usr/bin/env bash
# bench/lines.sh - how fast pct turns addresses into source lines.
#
# The binary is Debian's debug build of the Python interpreter
# (python3-dbg: /usr/bin/python3.Nd, 24 MB with DWARF in the file).
#  1. Synthetic: 1,000,000 samples over 100,000 distinct addresses of its
#     .text (tests/progs/mkprofile, fixed seed).  `pct report --by=line`
#     (lines and inline chains) against addr2line -f -i on the same
#     100,000 addresses.
#  2. Real: perf record -e cpu-clock of the interpreter running a workload;
#     perf's own samples become a pct profile (first user frame, as in
#     bench/compare-perf.sh), so `perf report --sort srcline` and
#     `pct report --by=line` read the very same addresses.
# Every time is the wall time of one run, after one warm-up run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" bench
P=$root/build/bin/pct
MK=$root/build/tests/progs/mkprofile
BIN=$(ls /usr/bin/python3.[0-9]*d 2>/dev/null | grep -E 'python3\.[0-9]+d$' | head -1)
[ -n "$BIN" ] || { echo "no /usr/bin/python3.Nd (python3-dbg)" >&2; exit 1; }
dir=$(mktemp -d /tmp/pct-lines.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
secs() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f", d / 1e9 }'; }

read -r off size < <(readelf -SW "$BIN" | awk '$2 == ".text" { print $5, $6 }')
lo=$((16#$off)); hi=$((lo + 16#$size))
"$MK" --random big.pct "$BIN" $lo $hi 100000 1000000 1
# the column named address (sym's), found by its header
addr_col='!/^#/ && !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } !/^#/ && $c["address"] ~ /^0x/'
"$P" dump big.pct | "$P" sym | awk -F'\t' "$addr_col"' { print $c["address"] }' >addrs
secs "$P" report --by=line big.pct >/dev/null
t_pct=$(secs "$P" report --by=line big.pct)
t_fn=$(secs "$P" report --by=function big.pct)
t_a2l=$(secs sh -c "addr2line -e '$BIN' -f -i -C <addrs")
echo "1. $BIN: 1000000 samples over $(wc -l <addrs) distinct addresses"
printf '   pct report --by=line      %7.3f s\n' "$t_pct"
printf '   pct report --by=function  %7.3f s\n' "$t_fn"
printf '   addr2line -f -i -C        %7.3f s   (pct/addr2line time: %.2f; addr2line only prints, pct also groups and sorts)\n' "$t_a2l" "$(awk -v a="$t_a2l" -v b="$t_pct" 'BEGIN { print b / a }')"

cat >work.py <<'PY'
import json, re, zlib
data = [{"k%d" % i: [i, str(i) * 3, {"x": i * 1.5}]} for i in range(2000)]
for r in range(40):
    s = json.dumps(data)
    json.loads(zlib.decompress(zlib.compress(s.encode())))
    re.findall(r"(\d+)\.(\d+)", s)
    sorted(str(i) for i in range(20000))
PY
perf record -q -e cpu-clock -F 10000 -g -o perf.data -- "$BIN" work.py >/dev/null 2>&1
comm=$(basename "$BIN")
perf script -i perf.data -F comm,ip,sym,dso 2>/dev/null | awk -v comm="${comm:0:15}" '
	/^[^ \t]/ { inblk = ($1 == comm); got = 0; next }
	/^$/ { inblk = 0; next }
	inblk && !got { dso = $NF; gsub(/^\(|\)$/, "", dso)
		if (dso == "[kernel.kallsyms]" || dso == "[unknown]") next
		got = 1; n[dso "\t\t0x" $1]++ }
	END { print "module\tbuild_id\toffset\tsamples"; for (k in n) print k "\t" n[k] }' >perf-dump.tsv
"$MK" real.pct <perf-dump.tsv
"$P" dump real.pct | "$P" sym 2>/dev/null | awk -F'\t' "$addr_col"' && $c["module"] ~ /python/ { print $c["address"] }' >raddrs
secs perf report -i perf.data --no-children --sort srcline --stdio >/dev/null
t_perf=$(secs perf report -i perf.data --no-children --sort srcline --stdio)
t_pct2=$(secs "$P" report --by=line real.pct)
t_a2l2=$(secs sh -c "addr2line -e '$BIN' -f -i -C <raddrs")
echo "2. perf record -F 10000 of $comm work.py: $(awk -F'\t' 'NR > 1 { n += $4 } END { print n }' perf-dump.tsv) samples over $(($(wc -l <perf-dump.tsv) - 1)) distinct addresses"
printf '   perf report --sort srcline %7.3f s\n' "$t_perf"
printf '   pct report --by=line       %7.3f s   (pct is %.1fx faster than perf)\n' "$t_pct2" "$(awk -v a="$t_perf" -v b="$t_pct2" 'BEGIN { print a / b }')"
printf '   addr2line -f -i -C         %7.3f s   (interpreter addresses only)\n' "$t_a2l2"
