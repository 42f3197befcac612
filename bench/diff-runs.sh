#!/usr/bin/env bash
# bench/diff-runs.sh - how often pct diff flags a change between runs of
# one unchanged program (issue 20).  RUNS (default 10) runs of a python3
# workload (tests/progs/pywork.py: json, zlib, re, dicts) are recorded at
# 1 kHz; then
#  - every pair of runs is compared with the two-profile test (pct diff A
#    B): the share of pairs where some row is flagged (q < 0.05);
#  - every split of the runs into two halves (the first run always in the
#    base half, so no split is counted twice: 126 for 10 runs) is compared
#    with the between-run test (pct diff -b ... ...): the share of splits
#    where some row is flagged, and where --check fails.
# Both for time (the default) and shares (--normalize).  Nothing changed
# between the runs, so every flag is a false alarm; the nominal rate is 5%.
# usage: bench/diff-runs.sh [RUNS [ROUNDS]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
R=${PCT:-$root/build/bin/pct}
RUNS=${1:-10}
ROUNDS=${2:-320}     # the workload's rounds: about 4 s of CPU a run here
dir=$(mktemp -d /tmp/pct-diff-runs.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
for i in $(seq 1 "$RUNS"); do
	"$R" record -F 1000 -o run$i.pct python3 "$root/tests/progs/pywork.py" "$ROUNDS" 2>/dev/null
done
flagged() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["significant"] == 1 { f = 1 } END { print f + 0 }'; }
for mode in time normalize; do
	opt=(); [ $mode = normalize ] && opt=(--normalize)
	pairs=0 pf=0
	for i in $(seq 1 "$RUNS"); do for j in $(seq $((i + 1)) "$RUNS"); do
		pairs=$((pairs + 1))
		pf=$((pf + $("$R" diff "${opt[@]}" --format=tsv run$i.pct run$j.pct | flagged)))
	done; done
	# splits: subsets of size RUNS/2 holding run 1, as bit masks
	half=$((RUNS / 2)) splits=0 sf=0 cf=0
	for ((m = 0; m < (1 << RUNS); m++)); do
		((m & 1)) || continue
		[ "$(echo "obase=2; $m" | bc | tr -cd 1 | wc -c)" = "$half" ] || continue
		base=() new=()
		for i in $(seq 1 "$RUNS"); do
			if ((m >> (i - 1) & 1)); then base+=(-b run$i.pct); else new+=(run$i.pct); fi
		done
		splits=$((splits + 1))
		sf=$((sf + $("$R" diff "${opt[@]}" --format=tsv "${base[@]}" "${new[@]}" | flagged)))
		"$R" diff "${opt[@]}" --check "${base[@]}" "${new[@]}" >/dev/null || cf=$((cf + 1))
	done
	printf '%-9s two-profile test: %d of %d pairs flag a row (%.0f%%); between-run test, %d+%d runs: %d of %d splits flag a row (%.1f%%), --check fails in %d\n' \
		"$mode" "$pf" "$pairs" "$(echo "100 * $pf / $pairs" | bc -l)" "$half" "$((RUNS - half))" "$sf" "$splits" \
		"$(echo "100 * $sf / $splits" | bc -l)" "$cf"
done
