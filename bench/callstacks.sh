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
# each run once to warm the cache, then pct's report 3 times and perf's
# once, timed: wall time, user+system CPU time and peak RSS of the run with
# the least CPU time (the machine may be shared), with stacks per second of
# wall time and the ratio.  `pct dump` of the profile (reading it, no
# unwinding) is timed as well: the floor under pct report.  pct's stderr
# goes to a file (no progress line).  PCT_BASE=/path/to/another/pct times
# that build's report of the same profile too (before/after a change).
# usage: bench/callstacks.sh [SECONDS]   (default 8: ~10^5 stacks)
#
# Seen here (2 CPUs, otherwise idle), `PCT_BASE=<d14e65d's pct>
# bench/callstacks.sh 6`, PCT_BASE being the build before the stack region
# was read into huge pages (profile.c) and before the cached CFI rules
# (callstack.c):
#   pct report            109785 stacks, 342 MB profile: 0.31 s CPU, 355 MB
#                         (343,078 stacks/s of wall time)
#   pct report (before)   109785 stacks:                 2.76 s CPU, 353 MB
#   pct dump (reading)    109785 stacks:                 0.13 s CPU, 339 MB
#   perf report --children (fp), 119319 stacks: 18.05 s CPU, 2060 MB
#   pct/perf, stacks per second: 52.0x of wall time, 53.6x of CPU time
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

# the least CPU time of 3 runs: "wall user sys maxrss_kb"
best3() { for i in 1 2 3; do measure "$@"; done | sort -k1,1 | awk '{ c = $2 + $3 } NR == 1 || c < b { b = c; l = $0 } END { print l }'; }
line() {  # line LABEL N WHAT WALL USER SYS RSS_KB
	printf '%-32s %7d stacks (%s)  %6.2f s wall  %6.2f s CPU  %5d MB peak RSS  %8.0f stacks/s (%.0f per CPU second)\n' \
		"$1" "$2" "$3" "$4" "$(awk -v u="$5" -v s="$6" 'BEGIN { print u + s }')" "$(($7 / 1024))" \
		"$(awk -v n="$2" -v t="$4" 'BEGIN { print n / (t > 0 ? t : 0.001) }')" \
		"$(awk -v n="$2" -v u="$5" -v s="$6" 'BEGIN { t = u + s; print n / (t > 0 ? t : 0.001) }')"
}
measure "$P" report deep.pct >/dev/null
read -r pw pu ps pm < <(best3 "$P" report deep.pct)
read -r dw du ds dm < <(best3 "$P" dump deep.pct)
if [ -n "${PCT_BASE:-}" ]; then read -r bw bu bs bm < <(best3 "$PCT_BASE" report deep.pct); fi
measure perf report -i perf.data --children --stdio >/dev/null
read -r fw fu fs fm < <(measure perf report -i perf.data --children --stdio)

mb="$(( $(stat -c %s deep.pct) / 1000000 )) MB profile"
line "pct report:" "$nstacks" "$mb" "$pw" "$pu" "$ps" "$pm"
[ -z "${PCT_BASE:-}" ] || line "pct report (\$PCT_BASE):" "$nstacks" "$mb" "$bw" "$bu" "$bs" "$bm"
line "pct dump (reading it):" "$nstacks" "$mb" "$dw" "$du" "$ds" "$dm"
line "perf report --children ($CG):" "$nperf" "$(( $(stat -c %s perf.data) / 1000000 )) MB perf.data" "$fw" "$fu" "$fs" "$fm"
awk -v a="$nstacks" -v at="$pw" -v ac="$pu $ps" -v b="$nperf" -v bt="$fw" -v bc="$fu $fs" 'BEGIN {
	split(ac, x, " "); split(bc, y, " "); act = x[1] + x[2]; bct = y[1] + y[2]
	ra = a / (at > 0 ? at : 0.001); rb = b / (bt > 0 ? bt : 0.001)
	rca = a / (act > 0 ? act : 0.001); rcb = b / (bct > 0 ? bct : 0.001)
	printf "pct/perf, stacks per second: %.1fx of wall time, %.1fx of CPU time\n", ra / rb, rca / rcb }'
