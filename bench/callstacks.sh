#!/usr/bin/env bash
# bench/callstacks.sh - how fast pct reports -g profiles, against perf.
#
# bench/deepstacks.c (8 functions calling each other in drawn orders, 4 to
# 35 deep, so nearly every sample has a call path of its own) runs twice
# for SECONDS of CPU time per thread (2 threads):
#   pct record -g -F 10000                 registers + stack copies, unwound
#                                          by the report with the CFI
#   perf record -e task-clock -F 10000 -g  frame pointers (the program is
#                                          built with them), unwound by the
#                                          kernel at the sample
# PERF_CALL_GRAPH=dwarf records perf with --call-graph=dwarf instead, what
# pct does (perf.data is then ~8 KiB a sample).  Then `pct report` (its
# total column unwinds every stack) and `perf report --children --stdio`
# each run once to warm the cache and once timed: wall time, user+system
# CPU time, and peak RSS, with stacks per second of wall time and the
# ratio.  With stderr on a terminal, pct's progress line is not timed in
# (its stderr goes to a file).
# usage: bench/callstacks.sh [SECONDS]   (default 8: ~10^5 stacks)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" bench
R=$root/build/bin/pct
P=${PCT:-$R}   # $PCT: another build of pct to time the report of
SECONDS_CPU=${1:-8}
CG=${PERF_CALL_GRAPH:-fp}
dir=$(mktemp -d /tmp/pct-callstacks.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cc -O2 -g -fno-omit-frame-pointer -pthread -o deepstacks "$root/bench/deepstacks.c"

# a GNU time line: "wall user sys maxrss_kb"
measure() { /usr/bin/time -f '%e %U %S %M' -o t.out "$@" >/dev/null 2>err.out || { cat err.out >&2; exit 1; }; cat t.out; }

# 1 GiB of stack records: ~3 KiB a stack here
PCT_STACK_AREA=1024 "$R" record -g -F 10000 -o deep.pct ./deepstacks "$SECONDS_CPU" 2 >/dev/null 2>rec.err ||
	{ cat rec.err >&2; exit 1; }
nstacks=$(sed -n 's/^pct: \([0-9]*\) samples have call stacks$/\1/p' rec.err)
perf record -q -e task-clock -F 10000 --call-graph "$CG" -o perf.data ./deepstacks "$SECONDS_CPU" 2 >/dev/null 2>&1
nperf=$(perf script -i perf.data -F period 2>/dev/null | wc -l)

measure "$P" report deep.pct >/dev/null
read -r pw pu ps pm < <(measure "$P" report deep.pct)
measure perf report -i perf.data --children --stdio >/dev/null
read -r fw fu fs fm < <(measure perf report -i perf.data --children --stdio)

printf 'pct report:                      %7d stacks (%s MB profile)  %6.2f s wall  %6.2f s CPU  %5d MB peak RSS  %8.0f stacks/s\n' \
	"$nstacks" "$(( $(stat -c %s deep.pct) / 1000000 ))" "$pw" "$(echo "$pu $ps" | awk '{ print $1 + $2 }')" "$((pm / 1024))" \
	"$(awk -v n="$nstacks" -v t="$pw" 'BEGIN { print n / (t > 0 ? t : 0.001) }')"
printf 'perf report --children (%-5s):  %7d stacks (%s MB perf.data)  %6.2f s wall  %6.2f s CPU  %5d MB peak RSS  %8.0f stacks/s\n' \
	"$CG" "$nperf" "$(( $(stat -c %s perf.data) / 1000000 ))" "$fw" "$(echo "$fu $fs" | awk '{ print $1 + $2 }')" "$((fm / 1024))" \
	"$(awk -v n="$nperf" -v t="$fw" 'BEGIN { print n / (t > 0 ? t : 0.001) }')"
awk -v a="$nstacks" -v at="$pw" -v b="$nperf" -v bt="$fw" 'BEGIN {
	ra = a / (at > 0 ? at : 0.001); rb = b / (bt > 0 ? bt : 0.001)
	printf "pct/perf, stacks per second of wall time: %.1fx\n", ra / rb }'
