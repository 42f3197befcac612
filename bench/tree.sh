#!/usr/bin/env bash
# bench/tree.sh - what a large process tree costs (issue 17, item 6).
#
# A loop of N (default 500) processes of 10 ms of CPU time each,
#   sh -c 'for i in $(seq N); do ./spin10ms; done'
# runs plain, then with the preloaded runtime alone (PCT=FILE
# LD_PRELOAD=libpct.so: each process writes its own profile), under
# `pct record` (the same, then record's end of run: listing, reading,
# compacting and folding the processes' profiles into one tree file), and
# under `perf record -e cpu-clock` if perf exists.  Each configuration runs
# REPS (default 3) times and the least wall time counts (the machine may
# be shared).  Printed: the added wall ms per process of each against the
# plain loop, and record's end work per process (timed from the
# command's end, a timestamp it writes, to record's exit) with its ratio
# to the runtime's added cost.  The bound of
# issue 17: the end work at most 2 ms per process.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=${PCT_BUILD:-build}
pct=$root/$B/bin/pct lib=$root/$B/lib/libpct.so
N=${N:-500} REPS=${REPS:-3}
[ -x "$pct" ] && [ -f "$lib" ] || { echo "build pct first (make)"; exit 1; }
dir=$(mktemp -d /tmp/pct-tree-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat >spin.c <<'C'
#include <time.h>
/* 10 ms of CPU time, then exit */
int main(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 10000000L);
	return 0;
}
C
cc -O2 -o spin10ms spin.c
loop="for i in \$(seq $N); do ./spin10ms; done"
now() { date +%s%N; }
# best CMD...: the least wall time of REPS runs, ns; files made are removed
best() {
	local b=0 t0 t1
	for _ in $(seq "$REPS"); do
		rm -rf out; mkdir out
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		[ $b = 0 ] || [ $((t1 - t0)) -lt $b ] && b=$((t1 - t0))
	done
	echo $b
}
plain=$(best sh -c "$loop")
runtime=$(best env PCT="$dir/out/rt.pct" LD_PRELOAD="$lib" sh -c "$loop")
record=$(best "$pct" record -o "$dir/out/rec.pct" sh -c "$loop")
perf=
if command -v perf >/dev/null && perf record -e cpu-clock -o /dev/null true >/dev/null 2>&1; then
	perf=$(best perf record -e cpu-clock -o "$dir/out/perf.data" sh -c "$loop")
fi
# record's end work, timed directly: from the command's last act (a
# timestamp it writes) to record's exit, over REPS runs, the least
endw=0
for _ in $(seq "$REPS"); do
	rm -rf out; mkdir out
	"$pct" record -o "$dir/out/rec.pct" sh -c "$loop; date +%s%N >'$dir/t_end'" 2>rec.err >/dev/null
	t1=$(now)
	e=$((t1 - $(cat "$dir/t_end")))
	[ $endw = 0 ] || [ $e -lt $endw ] && endw=$e
done
per() { awk -v a="$1" -v b="$plain" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n / 1e6 }'; }
echo "tree of $N processes of 10 ms each, least wall time of $REPS runs"
printf '  plain loop                    %8.1f ms wall (%.2f ms per process)\n' "$(awk -v a=$plain 'BEGIN { print a / 1e6 }')" \
	"$(awk -v a=$plain -v n=$N 'BEGIN { print a / n / 1e6 }')"
printf '  preloaded runtime alone       %8s ms added per process\n' "$(per $runtime)"
printf '  pct record                    %8s ms added per process\n' "$(per $record)"
[ -n "$perf" ] && printf '  perf record -e cpu-clock      %8s ms added per process\n' "$(per $perf)"
end=$(awk -v a=$endw -v n=$N 'BEGIN { printf "%.3f", a / n / 1e6 }')
rt=$(per $runtime)
ratio=$(awk -v e=$end -v r=$rt 'BEGIN { printf "%.2f", (r > 0 ? e / r : 0) }')
echo "  record's end work (listing, reading, compacting, folding, removing; timed from the command's end"
echo "  to record's exit): $(awk -v a=$endw 'BEGIN { printf "%.1f", a / 1e6 }') ms, $end ms per process;" \
	"$ratio x the runtime's added cost per process"
echo "  record's output: $(grep -c . rec.err) lines; $(grep 'process tree' rec.err)"
echo "  tree file: $(du --apparent-size -k out/rec.pct | cut -f1) KiB apparent, $(du -k out/rec.pct | cut -f1) KiB on disk"
