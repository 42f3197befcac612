#!/usr/bin/env bash
# bench/compare-perf.sh - does pct agree with perf on the same runs?
#
# Each workload runs once under `perf record -e cpu-clock -g` with pct's
# runtime preloaded, so both samplers watch the very same execution.
# perf's samples are charged to the user PC that was interrupted: the
# first user-space frame of the call chain, so that time in the kernel
# goes to the instruction that entered it, which is what an in-process
# sampler sees.  perf's samples inside libpct.so (pct's own handler, which
# pct cannot see) are counted apart: they are pct's overhead.  Then perf's
# PCs are symbolized by `pct sym`, the same code as pct's report, and the
# two profiles are compared by module and by function with a chi-square
# test of homogeneity and a z-score per row.
#
# usage: bench/compare-perf.sh [xz|python]...     (default: both)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" bench
PCTBIN=$root/build/bin/pct
LIB=$root/build/lib/libpct.so
dir=$(mktemp -d /tmp/pct-compare.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

awk 'BEGIN { srand(11); for (i = 0; i < 500000; i++) printf "%d %x the quick brown fox %s\n", i, int(rand() * 2^31), (rand() < .5 ? "jumps" : "naps") }' >data.txt
cat >mix.py <<'PY'
import json, zlib, re
data = [{"k%d" % i: [i, str(i) * 3, {"x": i * 1.5}]} for i in range(3000)]
pat = re.compile(r"(\d+)\.(\d+)")
for r in range(500):
    s = json.dumps(data)
    back = json.loads(zlib.decompress(zlib.compress(s.encode(), 6)))
    d = {}
    for i in range(30000):
        d[i % 977] = d.get(i % 977, 0) + i
    pat.findall(s)
PY

# first user frame of each perf sample of COMM -> "module\t\toffset\t1"
perf_user_pcs() {
	perf script -i perf.data -F comm,ip,sym,dso 2>/dev/null | awk -v comm="$1" '
	/^[^ \t]/ { inblk = ($1 == comm); got = 0; if (inblk) nsamp++; next }
	/^$/ { if (inblk && !got) kernel_only++; inblk = 0; next }
	inblk && !got {
		dso = $NF; gsub(/^\(|\)$/, "", dso)
		if (dso == "[kernel.kallsyms]" || dso == "[unknown]") next
		got = 1
		if (dso ~ /libpct\.so$/) { own++; next }
		printf "%s\t\t0x%s\t1\n", dso, $1
	}
	END { printf "%d %d %d\n", nsamp, kernel_only, own > "perf-counts" }'
}

compare() {  # compare pct.tsv perf.tsv LABEL: "key<TAB>samples" files
	awk -F'\t' -v label="$3" '
	function ztail(z) {  # upper tail of N(0,1), Abramowitz-Stegun 26.2.17
		t = 1 / (1 + 0.2316419 * z)
		return 0.3989422804 * exp(-z * z / 2) * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
	}
	FNR == NR { a[$1] += $2; na += $2; keys[$1]; next }
	{ b[$1] += $2; nb += $2; keys[$1] }
	END {
		for (k in keys) { if (a[k] + b[k] < 20) { a["(small rows)"] += a[k]; b["(small rows)"] += b[k]; delete a[k]; delete b[k]; delete keys[k]; sm = 1 } }
		if (sm) keys["(small rows)"]
		chi = 0; df = -1; maxz = 0
		printf "\n%s: pct %d samples, perf %d samples\n", label, na, nb
		printf "  %7s %7s %7s %6s  %s\n", "pct%", "perf%", "diff", "z", "row"
		for (k in keys) {
			tot = a[k] + b[k]; ea = tot * na / (na + nb); eb = tot * nb / (na + nb)
			chi += (a[k] - ea)^2 / ea + (b[k] - eb)^2 / eb; df++
			p = tot / (na + nb); se = sqrt(p * (1 - p) * (1 / na + 1 / nb))
			z = (a[k] / na - b[k] / nb) / (se > 0 ? se : 1)
			if (z > maxz || -z > maxz) { maxz = z < 0 ? -z : z; maxk = k }
			line[k] = sprintf("  %6.2f%% %6.2f%% %+6.2f %+6.2f  %s", 100 * a[k] / na, 100 * b[k] / nb, 100 * (a[k] / na - b[k] / nb), z, k)
			share[k] = a[k] / na + b[k] / nb
		}
		n = 0; for (k in share) order[++n] = k
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (share[order[j]] > share[order[i]]) { t = order[i]; order[i] = order[j]; order[j] = t }
		for (i = 1; i <= n && i <= 12; i++) print line[order[i]]
		if (n > 12) printf "  ... %d more rows\n", n - 12
		# Wilson-Hilferty: chi2/df is about normal
		wz = df > 0 ? ((chi / df)^(1 / 3) - (1 - 2 / (9 * df))) / sqrt(2 / (9 * df)) : 0
		pv = wz > 0 ? ztail(wz) : 1 - ztail(-wz)
		bonf = 0.05 / (df + 1)
		printf "  chi-square %.1f on %d df, p = %.3g; largest |z| %.2f (%s); verdict: %s\n", chi, df, pv, maxz, maxk,
			(pv > 0.001 && ztail(maxz) * 2 > bonf / 10) ? "agree within statistical error" : "DISAGREE"
	}' "$1" "$2"
}

run() {
	local name=$1 comm=$2; shift 2
	rm -f ./*.pct perf.data
	perf record -q -e cpu-clock -F 997 -g -o perf.data -- env LD_PRELOAD="$LIB" PCT="$dir/%e.pct" "$@" >/dev/null 2>perf.err ||
		{ cat perf.err; return 1; }
	local prof; prof=$(ls ./*.pct | grep -v '/env\.pct$')
	perf_user_pcs "$comm" >pcs.tsv
	read -r nsamp kernel_only own <perf-counts
	{ printf 'module\tbuild_id\toffset\tsamples\n'; sort pcs.tsv | uniq -c | awk '{ c = $1; sub(/^ *[0-9]+ /, ""); split($0, f, "\t"); printf "%s\t\t%s\t%d\n", f[1], f[3], c }'; } >perf-dump.tsv
	"$PCTBIN" sym perf-dump.tsv 2>/dev/null >perf-sym.tsv
	awk -F'\t' 'NR > 1 { m = $1; sub(/.*\//, "", m); print m "\t" $4 }' perf-sym.tsv >perf-mod.tsv
	awk -F'\t' 'NR > 1 { m = $1; sub(/.*\//, "", m); print m " " $5 "\t" $4 }' perf-sym.tsv >perf-fn.tsv
	"$PCTBIN" report --by=module --format=tsv "$prof" | awk -F'\t' 'NR > 1 { m = $8; sub(/.*\//, "", m); print m "\t" $1 }' >pct-mod.tsv
	"$PCTBIN" report --format=tsv "$prof" | awk -F'\t' 'NR > 1 { m = $8; sub(/.*\//, "", m); print m " " $9 "\t" $1 }' >pct-fn.tsv
	echo "== $name: $*"
	echo "perf: $nsamp samples of '$comm'; $kernel_only with no user frame (left out); $own in libpct.so = pct's handler, $(awk -v o="$own" -v n="$nsamp" 'BEGIN { printf "%.3f%%", 100 * o / n }') of the run"
	"$PCTBIN" report "$prof" | sed -n 2p
	compare pct-mod.tsv perf-mod.tsv "$name by module"
	compare pct-fn.tsv perf-fn.tsv "$name by function"
	echo
}

for w in "${@:-xz python}"; do
	for x in $w; do
		case $x in
		xz) run "xz -9" xz xz -9 -T1 -kc data.txt ;;
		python) run "python3 json/zlib/re/dict" python3 /usr/bin/python3 mix.py ;;
		*) echo "unknown workload $x" >&2; exit 2 ;;
		esac
	done
done
