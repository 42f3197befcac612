#!/usr/bin/env bash
# bench/short.sh - how often pct samples processes shorter than a period
# (issue 34, item 6).  N processes (default 300) each burn T ms of CPU time
# in main (default 1, 2 and 4), under `pct record` with the default event
# (CPU-time timers) and with -F 1000 (perf events, whose first period is a
# one-shot event of random length).  Printed for each: the samples taken
# against those the CPU time after sampling started expects (N x T /
# period), with that ratio's standard error (Poisson).  CPU-time timers
# are checked at the kernel's tick (4 ms at CONFIG_HZ=250): a process that
# runs less than a tick is sampled only if a tick falls in its run, after
# its random first phase.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=${PCT_BUILD:-build}
pct=$root/$B/bin/pct
N=${N:-300}
[ -x "$pct" ] || { echo "build pct first (make)"; exit 1; }
dir=$(mktemp -d /tmp/pct-short-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat >burn.c <<'C'
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
/* T ms of CPU time, in user mode but for a clock read every 10,000 steps
 * (perf's user-time events see user mode only) */
volatile uint64_t sink;
int main(int argc, char **argv)
{
	long ns = (long)(atof(argv[1]) * 1e6);
	struct timespec a, b;
	uint64_t x = 1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
	sink = x;
	return 0;
}
C
cc -O2 -o burn burn.c
printf '%-10s %6s %10s %10s %8s\n' mode T_ms samples expected ratio
for t in ${T:-1 2 4}; do
	for mode in default 1000; do
		rm -f run*.pct
		opt=; period_ms=4
		[ "$mode" = default ] || { opt="-F $mode"; period_ms=$(awk -v f="$mode" 'BEGIN { print 1000 / f }'); }
		"$pct" record $opt -o run.pct -- sh -c "i=0; while [ \$i -lt $N ]; do ./burn $t; i=\$((i + 1)); done" 2>/dev/null
		n=$("$pct" report --by=process --format=tsv run.pct 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["command"] ~ /^(\.\/)?burn / { n += $c["samples"] } END { print n + 0 }')
		awk -v n="$n" -v N="$N" -v t="$t" -v p="$period_ms" -v m="$mode" 'BEGIN {
			e = N * t / p; printf "%-10s %6s %10d %10.0f %8.2f +- %.2f\n", m, t, n, e, n / e, sqrt(n > 0 ? n : 1) / e }'
	done
done
