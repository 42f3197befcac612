#!/usr/bin/env bash
# bench/overhead.sh - steady-state cost of sampling a CPU-bound run.
#
# xz -9 -T1 compresses generated text (about 4 s of CPU) under:
#   plain        no profiler
#   pct          libpct.so preloaded, default rate (one sample per tick)
#   gperftools   libprofiler.so, CPUPROFILE_FREQUENCY=250 (its default is 100)
#   perf         perf record -e cpu-clock -F 250 (a separate process; its own
#                CPU time is counted too, as it is a cost of profiling)
# Each runs ROUNDS times, interleaved; the minimum user+system CPU time of
# the whole process tree is kept (the least disturbed run), and its ratio to
# plain printed.  On a shared VM these whole-run figures move by a few
# percent from run to run, more than pct costs, so the cost of one sample is
# also measured directly (bench/persample.c: timer signals sent under pct's
# handler against the same signals ignored), and the overhead at the measured rate
# follows from it: cost per sample x samples per second.
# A last table gives the kernel's own cost of sampling at 1, 5 and 10 kHz
# (bench/floor.c), which bounds what any profiler can reach on the machine.
# usage: bench/overhead.sh [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" bench
ROUNDS=${1:-5}
LIB=$root/build/lib/libpct.so
GPERF=$(ls /usr/lib/*/libprofiler.so.0 2>/dev/null | head -1)
dir=$(mktemp -d /tmp/pct-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
awk 'BEGIN { srand(5); for (i = 0; i < 250000; i++) printf "%d %x the quick brown fox %s\n", i, int(rand() * 2^31), (rand() < .5 ? "jumps" : "naps") }' >data.txt

cpu_of() {  # run "$@" in a subshell; print the children's user+sys seconds
	( "$@" >/dev/null 2>&1; times ) | awk 'NR == 2 {
		split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.4f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
work() { xz -9 -T1 -c data.txt; }
declare -A best
configs="plain pct gperftools perf"
samples=0
for ((r = 0; r < ROUNDS; r++)); do
	for c in $configs; do
		case $c in
		plain) t=$(cpu_of work) ;;
		pct) t=$(cpu_of env LD_PRELOAD="$LIB" PCT="$dir/o.pct" xz -9 -T1 -c data.txt)
		     samples=$("$root/build/bin/pct" report --format=tsv "$dir/o.pct" | awk -F'\t' 'NR > 1 { n += $1 } END { print n }')
		     rate=$("$root/build/bin/pct" report "$dir/o.pct" | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p') ;;
		gperftools) t=$(cpu_of env LD_PRELOAD="$GPERF" CPUPROFILE="$dir/g.prof" CPUPROFILE_FREQUENCY=250 xz -9 -T1 -c data.txt) ;;
		perf) t=$(cpu_of perf record -q -e cpu-clock -F 250 -o "$dir/perf.data" -- xz -9 -T1 -c data.txt) ;;
		esac
		rm -f "$dir"/*.pct "$dir"/g.prof* "$dir"/perf.data*
		if [ -z "${best[$c]:-}" ] || awk -v a="$t" -v b="${best[$c]}" 'BEGIN { exit !(a < b) }'; then best[$c]=$t; fi
	done
done
echo "steady-state CPU cost, xz -9 -T1 on $(du -h data.txt | cut -f1) of text, best of $ROUNDS"
printf '%-11s %9s %9s\n' config "CPU s" "vs plain"
for c in $configs; do
	awk -v c="$c" -v t="${best[$c]}" -v p="${best[plain]}" 'BEGIN { printf "%-11s %9.3f %8.4fx\n", c, t, t / p }'
done
awk -v t="${best[pct]}" -v p="${best[plain]}" -v n="$samples" 'BEGIN {
	printf "pct: %d samples; whole-run difference %+.2f%% (within run-to-run noise)\n", n, 100 * (t - p) / p }'

# Call stacks: pct -g (registers + a 16 KiB stack copy per sample, unwound
# later) against perf --call-graph=dwarf (8 KiB copies) and gperftools
# (frame-pointer walk in the handler), on xz, whose liblzma has no frame
# pointers; then the after-run cost of unwinding: pct report against perf
# report over the same run.
echo
echo "call stacks, xz -9 -T1, best of $ROUNDS"
printf '%-11s %9s %9s %12s
' config "CPU s" "vs plain" "report s"
declare -A bg=() rg=()
for ((r = 0; r < ROUNDS; r++)); do
	for c in plain pct-g gperftools perf-dwarf; do
		rt=0
		case $c in
		plain) t=$(cpu_of work) ;;
		pct-g) t=$(cpu_of env LD_PRELOAD="$LIB" PCT="$dir/g.pct" PCT_STACK_BYTES=16384 xz -9 -T1 -c data.txt)
		       rt=$(cpu_of "$root/build/bin/pct" report "$dir/g.pct")
		       frames=$("$root/build/bin/pct" export --format=folded "$dir/g.pct" |
			       awk '{ n = $NF; k = split($1, f, ";"); s += n; d += n * k } END { printf "%.1f", d / s }') ;;
		gperftools) t=$(cpu_of env LD_PRELOAD="$GPERF" CPUPROFILE="$dir/g.prof" CPUPROFILE_FREQUENCY=250 xz -9 -T1 -c data.txt) ;;
		perf-dwarf) t=$(cpu_of perf record -q -e cpu-clock -F 250 --call-graph=dwarf -o "$dir/perf.data" -- xz -9 -T1 -c data.txt)
		       rt=$(cpu_of perf report -i "$dir/perf.data" --stdio) ;;
		esac
		rm -f "$dir"/*.pct "$dir"/g.prof* "$dir"/perf.data*
		if [ -z "${bg[$c]:-}" ] || awk -v a="$t" -v b="${bg[$c]}" 'BEGIN { exit !(a < b) }'; then bg[$c]=$t; fi
		if [ -z "${rg[$c]:-}" ] || awk -v a="$rt" -v b="${rg[$c]}" 'BEGIN { exit !(a < b) }'; then rg[$c]=$rt; fi
	done
done
for c in plain pct-g gperftools perf-dwarf; do
	awk -v c="$c" -v t="${bg[$c]}" -v p="${bg[plain]}" -v rt="${rg[$c]}" 'BEGIN {
		printf "%-11s %9.3f %8.4fx %12s\n", c, t, t / p, (rt > 0 ? sprintf("%.3f", rt) : "-") }'
done
echo "(pct -g: $frames frames per stack on average; report s: CPU of pct report / perf report --stdio)"

# At 1, 5 and 10 kHz: a fixed CPU loop (bench/spin.c), so that the cost is
# not lost in xz's run-to-run noise.  pct above 250 Hz samples with
# perf_event_open; gperftools asks setitimer(ITIMER_PROF) for the rate but
# gets at most one signal per kernel tick; perf samples cpu-clock at -F.
cc -O2 -o spin "$root/bench/spin.c"
echo
echo "steady-state CPU cost by rate, bench/spin.c (fixed work), best of $ROUNDS"
printf '%-7s %-11s %9s %9s %9s %12s\n' rate config "CPU s" "vs plain" samples "ns/sample"
for hz in default 1000 5000 10000; do
	declare -A b2=()
	declare -A n2=()
	for ((r = 0; r < ROUNDS; r++)); do
		for c in plain pct gperftools perf; do
			case $c in
			plain) t=$(cpu_of ./spin) ;;
			pct) if [ $hz = default ]; then t=$(cpu_of env LD_PRELOAD="$LIB" PCT="$dir/s.pct" ./spin)
			     else t=$(cpu_of env LD_PRELOAD="$LIB" PCT="$dir/s.pct" PCT_HZ=$hz ./spin); fi
			     n2[$c]=$("$root/build/bin/pct" report --format=tsv "$dir/s.pct" | awk -F'\t' 'NR > 1 { n += $1 } END { print n }') ;;
			gperftools) t=$(cpu_of env LD_PRELOAD="$GPERF" CPUPROFILE="$dir/g.prof" CPUPROFILE_FREQUENCY=${hz/default/250} ./spin)
			     n2[$c]=$(google-pprof --raw ./spin "$dir/g.prof" 2>/dev/null | awk '/^--- symbol/ { exit } { n++ } END { print "?" }') ;;
			perf) t=$(cpu_of perf record -q -e cpu-clock -F ${hz/default/250} -o "$dir/perf.data" -- ./spin)
			     n2[$c]=$(perf report -i "$dir/perf.data" --stdio --header-only 2>/dev/null | sed -n 's/.*sample_freq.*//p' | head -1)
			     n2[$c]=$(perf script -i "$dir/perf.data" -F ip 2>/dev/null | wc -l) ;;
			esac
			rm -f "$dir"/s*.pct "$dir"/g.prof* "$dir"/perf.data*
			if [ -z "${b2[$c]:-}" ] || awk -v a="$t" -v b="${b2[$c]}" 'BEGIN { exit !(a < b) }'; then b2[$c]=$t; fi
		done
	done
	for c in plain pct gperftools perf; do
		awk -v hz=$hz -v c=$c -v t="${b2[$c]}" -v p="${b2[plain]}" -v n="${n2[$c]:-0}" 'BEGIN {
			ns = (n ~ /^[0-9]+$/ && n > 0) ? sprintf("%.0f", (t - p) * 1e9 / n) : "-"
			printf "%-7s %-11s %9.3f %8.4fx %9s %12s\n", hz, c, t, t / p, (c == "plain" ? "-" : n), ns }'
	done
done
echo "(ns/sample: extra CPU per sample, whole-run; gperftools' sample count is not read back)"

# The kernel's own part of sampling at a rate (bench/floor.c): the same
# fixed work under a task-clock perf event that overflows with no signal,
# and with a signal to an empty handler.  No profiler can cost less than
# "event"; pct's mechanism with nothing in its handler is "signal".
cc -O2 -o floor "$root/bench/floor.c"
echo
echo "the kernel's floor by rate, bench/floor.c (fixed work), best of $ROUNDS"
printf '%-7s %-8s %9s %9s\n' rate mode "CPU s" "vs none"
none=1e9
for ((r = 0; r < ROUNDS; r++)); do none=$(./floor none 0 | awk -v b="$none" '{ print ($1 < b ? $1 : b) }'); done
for hz in 1000 5000 10000; do
	for mode in event signal; do
		t=1e9
		for ((r = 0; r < ROUNDS; r++)); do t=$(./floor $mode $hz | awk -v b="$t" '{ print ($1 < b ? $1 : b) }'); done
		awk -v hz=$hz -v m=$mode -v t="$t" -v p="$none" 'BEGIN { printf "%-7s %-8s %9.3f %8.4fx\n", hz, m, t, t / p }'
	done
done

cc -O2 -I"$root/include" -o persample "$root/bench/persample.c"
base=1e9 with=1e9 withg=1e9
for ((r = 0; r < ROUNDS; r++)); do
	b=$(./persample 200000 baseline)
	w=$(PCT="$dir/ps.pct" LD_PRELOAD="$LIB" ./persample 200000)
	g=$(PCT="$dir/ps.pct" PCT_STACK_BYTES=16384 PCT_STACK_AREA=1024 LD_PRELOAD="$LIB" ./persample 200000)
	rm -f "$dir"/ps*.pct
	base=$(awk -v a="$b" -v b="$base" 'BEGIN { print (a < b ? a : b) }')
	with=$(awk -v a="$w" -v b="$with" 'BEGIN { print (a < b ? a : b) }')
	withg=$(awk -v a="$g" -v b="$withg" 'BEGIN { print (a < b ? a : b) }')
done
awk -v b="$base" -v w="$with" -v g="$withg" -v r="$rate" 'BEGIN {
	c = w - b
	printf "cost per sample: %.0f ns (signal under pct %.0f ns, signal ignored %.0f ns)\n", c, w, b
	printf "overhead at the effective rate, %.1f Hz: %.3f%%\n", r, 100 * c * r / 1e9
	printf "with -g (registers + stack copy, shallow stack): %.0f ns per sample, %.3f%% at %.1f Hz\n",
		g - b, 100 * (g - b) * r / 1e9, r }'
