#!/usr/bin/env bash
# bench/time.sh - what keeping each sample's time costs (issue 18).
#
# 1. Cost per sample, before and after: bench/persample.c sends itself
#    N timer signals under pct's handler; the signals ignored are the
#    floor.  "before" is the runtime of BASE (default 8d2ac47, the last
#    commit without the tick log), built from git into a scratch
#    directory; "after" is this tree's, with its default tick log and with
#    PCT_TIME_AREA=0 (no log: the clock is still read).  ROUNDS (default 7)
#    rounds, interleaved; the least time of each counts.  Printed: ns per
#    sample above the floor, and after/before.
# 2. File size: a program of T busy threads (1, 16) runs DURATION (default
#    60) s of wall-clock time under the preloaded runtime at 250 Hz (CPU
#    timers) and 5 kHz (perf events); printed: the samples, the file's
#    blocks on disk at the end and that per minute.  This machine's CPUs
#    (nproc) bound what 16 threads get, so a second figure gives the size
#    per minute at the full rate, T threads each on a CPU of its own: the
#    run's blocks besides its ticks, plus 16 bytes per tick of T x rate x
#    60 samples, at most 2^21 (the rest are counted in per-second buckets,
#    a few KB).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=${PCT_BUILD:-build}
LIB=$root/$B/lib/libpct.so
BASE=${BASE:-8d2ac47} ROUNDS=${ROUNDS:-7} DURATION=${DURATION:-60}
[ -f "$LIB" ] || { echo "build pct first (make)"; exit 1; }
dir=$(mktemp -d /tmp/pct-time-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

echo "# per-sample cost: before = $BASE, after = $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo this tree)"
mkdir base
git -C "$root" archive "$BASE" | tar -x -C base
make -s -C base -j2 build/lib/libpct.so >/dev/null
OLD=$dir/base/build/lib/libpct.so
cc -O2 -I"$root/include" -o persample "$root/bench/persample.c"
floor=1e9 old=1e9 new=1e9 off=1e9
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
for ((r = 0; r < ROUNDS; r++)); do
	floor=$(min "$(./persample 200000 baseline)" "$floor")
	old=$(min "$(PCT="$dir/ps.pct" LD_PRELOAD="$OLD" ./persample 200000)" "$old")
	new=$(min "$(PCT="$dir/ps.pct" LD_PRELOAD="$LIB" ./persample 200000)" "$new")
	off=$(min "$(PCT="$dir/ps.pct" PCT_TIME_AREA=0 LD_PRELOAD="$LIB" ./persample 200000)" "$off")
	rm -f "$dir"/ps*.pct
done
awk -v f="$floor" -v o="$old" -v n="$new" -v z="$off" -v base="$BASE" 'BEGIN {
	printf "signal ignored (floor): %.0f ns\n", f
	printf "before (%s): %.0f ns per sample\n", base, o - f
	printf "after, tick log on: %.0f ns per sample (%.3fx before)\n", n - f, (n - f) / (o - f)
	printf "after, PCT_TIME_AREA=0: %.0f ns per sample (%.3fx before)\n", z - f, (z - f) / (o - f) }'

cat >busy.c <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
/* T threads, each busy until SECONDS of wall-clock time have passed */
static double end;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static void *spin(void *a) { volatile unsigned long x = 0; while (now() < end) for (int i = 0; i < 100000; i++) x += i; return a; }
int main(int argc, char **argv)
{
	int t = atoi(argv[1]);
	end = now() + atof(argv[2]);
	pthread_t th[64];
	for (int i = 1; i < t && i < 64; i++)
		pthread_create(&th[i], NULL, spin, NULL);
	spin(NULL);
	for (int i = 1; i < t && i < 64; i++)
		pthread_join(th[i], NULL);
	return 0;
}
C
cc -O2 -pthread -o busy busy.c
echo
echo "# file size: ${DURATION} s of wall-clock time per run, $(nproc) CPUs"
echo "# measured: the samples, the file's blocks on disk (stat %b x 512) at the end, and that per minute;"
echo "# full rate: the MB a minute of T threads each busy on a CPU of its own writes (T x rate x 60"
echo "# samples: the disk bytes the run used besides its ticks, plus 16 bytes per tick up to 2^21)"
printf "%-8s %-7s %9s %9s %12s %14s %14s\n" threads rate samples per_s disk_bytes "MB/min (meas.)" "MB/min (full)"
# head FILE OFF: the u64 at byte OFF of the header (pct_format.h)
head_u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
for t in 1 16; do
	for hz in 250 5000; do
		PCT="$dir/on.pct" PCT_HZ=$hz LD_PRELOAD="$LIB" ./busy $t "$DURATION"
		n=$(( $(head_u64 on.pct 192) + $(head_u64 on.pct 200) )) ticks=$(head_u64 on.pct 336)
		d=$(($(stat -c %b on.pct) * 512))
		awk -v t=$t -v hz=$hz -v n="$n" -v d="$d" -v ticks="$ticks" -v s="$DURATION" 'BEGIN {
			# the ticks took whole 64 KiB runs of blocks
			logd = int((ticks * 16 + 65535) / 65536) * 65536
			full = t * hz * 60; kept = full < 2097152 ? full : 2097152
			printf "%-8d %-7d %9d %9.0f %12d %14.2f %14.2f\n", t, hz, n, n / s, d, d * 60 / s / 1e6,
				(d - logd + kept * 16) / 1e6 }'
		rm -f on.pct
	done
done
