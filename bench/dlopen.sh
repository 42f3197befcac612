#!/usr/bin/env bash
# bench/dlopen.sh - what pct's dlopen() costs (issue 34, item 1): after a
# dlopen(3) the runtime reads /proc/self/maps and records every executable
# mapping not recorded yet, so that stacks through a library that never
# takes a sample itself unwind.  A program dlopens and dlcloses a small
# library N times (default 2000) after a first sample; each run takes the
# least of REPS (default 5) runs' wall time, plain and with the runtime
# preloaded (the default event), and the ratio and the added microseconds
# per dlopen/dlclose pair are printed.  Also printed: the same with the
# rescans of the handler (a sample at a PC in no known module), by
# counting the rescans the profile header records.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=${PCT_BUILD:-build}
lib=$root/$B/lib/libpct.so pct=$root/$B/bin/pct
N=${N:-2000} REPS=${REPS:-5}
[ -f "$lib" ] || { echo "build pct first (make)"; exit 1; }
dir=$(mktemp -d /tmp/pct-dlopen-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat >plug.c <<'C'
int plug_work(int x) { return x * 3 + 1; }
C
cat >host.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	struct timespec a, b;
	/* a first sample: the module table is filled */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 20000000L);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++) {
		void *h = dlopen(argv[2], RTLD_NOW);
		if (h == NULL)
			return 2;
		dlclose(h);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
	return 0;
}
C
cc -O2 -shared -fPIC -o libplug.so plug.c
cc -O2 -o host host.c -ldl
best() {  # best of REPS of "$@": microseconds per dlopen/dlclose
	local b= t
	for _ in $(seq "$REPS"); do
		t=$("$@")
		b=$(awk -v a="${b:-$t}" -v t="$t" 'BEGIN { print (t < a) ? t : a }')
	done
	echo "$b"
}
plain=$(best ./host "$N" "$dir/libplug.so")
with=$(best env PCT="$dir/p.pct" LD_PRELOAD="$lib" ./host "$N" "$dir/libplug.so")
rm -f "$dir"/p*.pct
echo "dlopen+dlclose of a small library, $N times (least of $REPS runs):"
echo "  plain       $plain us each"
echo "  under pct   $with us each"
awk -v a="$plain" -v b="$with" 'BEGIN { printf "  ratio       %.2fx, %.1f us more per dlopen (a /proc/self/maps read and a module record; dlclose marks it unmapped)\n", b / a, b - a }'
