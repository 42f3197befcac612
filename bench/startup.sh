#!/usr/bin/env bash
# bench/startup.sh - what profiling adds to each process's start and exit.
#
# A shell loop runs a short program N times (default 300), in rounds that
# interleave the configurations so that drift hits them all alike.  Two
# programs: /bin/true, which ends before a first sample (pct then creates
# no file, and reads no /proc/self/maps), and bench/spin.c doing a fixed
# 10 ms of work, which takes a few samples (pct creates its file and
# records the modules at the first one), with profiles on the disk's file
# system and then on tmpfs (/dev/shm).  The work is fixed, not timed: a
# program that burns until its CPU clock reads 10 ms (as selftime does)
# does less work when the profiler's own CPU time counts towards the 10 ms.
# Configurations:
#   plain        no profiler
#   pct-off      libpct.so preloaded, $PCT unset (must cost nothing)
#   pct          libpct.so preloaded, $PCT set: a profile file per process
#   gperftools   libprofiler.so preloaded, $CPUPROFILE set (Debian
#                google-perftools)
# It prints the median loop time of each, the time added per process, and
# the ratios: against plain, and pct's added cost against gperftools'.
# usage: bench/startup.sh [N] [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" bench
N=${1:-300}
ROUNDS=${2:-7}
LIB=$root/build/lib/libpct.so
GPERF=$(ls /usr/lib/*/libprofiler.so.0 2>/dev/null | head -1)
[ -n "$GPERF" ] || { echo "libprofiler.so.0 not found" >&2; exit 1; }
dir=$(mktemp -d /tmp/pct-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cc -O2 -o spin "$root/bench/spin.c"

loop() {  # prints the loop's wall time in ns
	local t0 t1
	t0=$(date +%s%N)
	for ((i = 0; i < N; i++)); do "${prog[@]}" >/dev/null; done
	t1=$(date +%s%N)
	echo $((t1 - t0))
}
measure() {
declare -A times
configs="plain pct-off pct gperftools"
for ((r = 0; r < ROUNDS; r++)); do
	for c in $configs; do
		case $c in
		plain) t=$(loop) ;;
		pct-off) t=$(export LD_PRELOAD=$LIB; loop) ;;
		pct) t=$(export LD_PRELOAD=$LIB PCT=$out/t.pct; loop) ;;
		gperftools) t=$(export LD_PRELOAD=$GPERF CPUPROFILE=$out/gperf.prof; loop) ;;
		esac
		times[$c]="${times[$c]:-} $t"
		rm -f "$out"/*.pct "$out"/gperf.prof*
	done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A med
for c in $configs; do med[$c]=$(echo "${times[$c]}" | median); done
echo "startup+exit cost, $N runs of ${prog[*]}, profiles in $out ($(stat -f -c %T "$out")), median of $ROUNDS rounds"
printf '%-11s %10s %12s %9s\n' config "loop ms" "added/proc" "vs plain"
for c in $configs; do
	awk -v c="$c" -v t="${med[$c]}" -v p="${med[plain]}" -v n="$N" 'BEGIN {
		printf "%-11s %10.1f %9.3f ms %8.3fx\n", c, t / 1e6, (t - p) / n / 1e6, t / p }'
done
awk -v a="${med[pct]}" -v g="${med[gperftools]}" -v p="${med[plain]}" 'BEGIN {
	pa = a - p; ga = g - p
	printf "pct adds %.3f ms per process, gperftools %.3f ms: pct costs %.3f of gperftools (target <= 0.1)\n",
		pa / '"$N"' / 1e6, ga / '"$N"' / 1e6, (ga > 0 ? pa / ga : 0) }'
# What creating one new file costs here (the shell's own ": >", no
# process): the floor for a profiler that writes a file per process.
local t0 t1
t0=$(date +%s%N)
for ((i = 0; i < N; i++)); do : >"$out/create.$i"; done
t1=$(date +%s%N)
rm -f "$out"/create.*
awk -v t=$((t1 - t0)) -v n="$N" 'BEGIN { printf "creating a new file in that directory: %.3f ms\n", t / n / 1e6 }'
}
out=$dir
prog=(/bin/true)
measure
echo
# Each sampled process creates a file of its own (gperftools rewrites one
# file, losing the previous run's): on ext4 that means allocating an inode.
prog=("$dir/spin" 10000000)
measure
if [ -d /dev/shm ]; then
	echo
	out=$(mktemp -d /dev/shm/pct-bench.XXXXXX)
	measure
	rm -rf "$out"
fi
