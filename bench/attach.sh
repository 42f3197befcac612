#!/usr/bin/env bash
# bench/attach.sh - what attaching costs a running target, against
# perf record -p on the same program.
#
# bench/attachload.c, one CPU-bound thread doing units of about 0.1 ms of
# work (a call chain three deep), runs SECONDS; a profiler attaches 0.3 s
# after its start and detaches 0.3 s before its end, and the target
# counts the units it did in between (0.5 s after its start to 0.5 s
# before its end, so that attaching and detaching are not measured) and
# the CPU time they took.  Configurations:
#   plain            nothing attached
#   pct-perf HZ      pct record -p --mechanism=perf -F HZ [-g]
#   pct-ptrace HZ    pct record -p --mechanism=ptrace -F HZ [-g]
#   perf HZ          perf record -p -e task-clock -c PERIOD [--call-graph=dwarf,16384]
# at 250 Hz and 1 kHz, with and without -g (pct's -g copies 16384 bytes of
# stack, so perf's dwarf call graphs copy as many).  Each runs ROUNDS
# times, interleaved; for each the best of its rounds (the least disturbed
# by the machine's other work) is printed, as units per second of
# wall-clock time (the throughput the target sees; a ptrace stop costs it
# wall-clock time, not CPU time) and units per second of its CPU time (the
# cost of the sampling interrupts, charged to the target's CPU time), each
# with its ratio to plain's best.  On a shared machine the wall-clock
# figure moves between rounds by far more than these costs: the spread of
# plain's rounds is printed beside it, and the CPU figure is the one to
# read there.  For ptrace, the time from an interrupt to the thread's
# release, and the part pct held it (pct-record(1), ATTACHING).
# usage: bench/attach.sh [ROUNDS [SECONDS]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-3}
SECONDS_=${2:-3}
PCT=$root/build/bin/pct
dir=$(mktemp -d /tmp/pct-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cc -O2 -g -o attachload "$root/bench/attachload.c"
command -v perf >/dev/null || echo "(no perf: its rows are left out)"

# run CONFIG: start the target, attach CONFIG's profiler, print the
# target's "units wall_s cpu_s"
run() {
	local c=$1 hz=$2 g=$3 period=$((1000000000 / $2))
	local dur
	dur=$(awk -v s="$SECONDS_" 'BEGIN { print s - 0.6 }')
	./attachload "$SECONDS_" 0.5 "$(awk -v s="$SECONDS_" 'BEGIN { print s - 0.5 }')" >out &
	local t=$!
	sleep 0.3
	case $c in
	plain) ;;
	pct-perf | pct-ptrace)
		"$PCT" record -p $t --duration="$dur" --mechanism="${c#pct-}" -F "$hz" $g --no-cache -o "$c.pct" \
			2>"$c.err" || echo "($c failed: $(tail -1 "$c.err"))" >&2
		if [ "$c" = pct-ptrace ]; then
			sed -n 's/.*(\([0-9.]*\) us a stop, of which pct held them \([0-9.]*\) us.*/\1 us a stop, held \2 us/p' "$c.err" \
				>>"$c-$hz$g.stops" || true
		fi
		rm -f "$c.pct" ;;
	perf)
		timeout -s INT "$dur" perf record -q -e task-clock -c "$period" ${g:+--call-graph=dwarf,16384} -p $t \
			-o perf.data >/dev/null 2>perf.err || true
		rm -f perf.data ;;
	esac
	wait $t
	cat out
}

configs="plain"
for hz in 250 1000; do
	for g in "" "-g"; do
		configs="$configs pct-perf:$hz:$g pct-ptrace:$hz:$g"
		command -v perf >/dev/null && configs="$configs perf:$hz:$g"
	done
done
declare -A wall cpu
for ((r = 0; r < ROUNDS; r++)); do
	for k in $configs; do
		IFS=: read -r c hz g <<<"$k"
		[ "$c" = plain ] && hz=250
		read -r u w p < <(run "$c" "$hz" "$g")
		wall[$k]="${wall[$k]:-} $(awk -v u="$u" -v w="$w" 'BEGIN { printf "%.1f", u / w }')"
		cpu[$k]="${cpu[$k]:-} $(awk -v u="$u" -v p="$p" 'BEGIN { printf "%.1f", u / p }')"
	done
done
best() { tr ' ' '\n' | grep . | sort -n | tail -1; }
pw=$(echo "${wall[plain]}" | best)
pc=$(echo "${cpu[plain]}" | best)
spread=$(echo "${wall[plain]}" | tr ' ' '\n' | grep . | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f%%", 100 * (hi - lo) / lo }')
echo "attaching to a CPU-bound thread (bench/attachload.c, ${SECONDS_} s runs, best of $ROUNDS; plain's rounds spread $spread)"
printf '%-22s %12s %9s %12s %9s  %s\n' config "units/wall s" "vs plain" "units/CPU s" "vs plain" "ptrace stops"
for k in $configs; do
	IFS=: read -r c hz g <<<"$k"
	name=$c
	[ "$c" = plain ] || name="$c ${hz} Hz${g:+ -g}"
	w=$(echo "${wall[$k]}" | best)
	p=$(echo "${cpu[$k]}" | best)
	st=""
	[ -f "$c-$hz$g.stops" ] && st=$(tail -1 "$c-$hz$g.stops")
	awk -v n="$name" -v w="$w" -v p="$p" -v pw="$pw" -v pc="$pc" -v st="$st" \
		'BEGIN { printf "%-22s %12.1f %8.4fx %12.1f %8.4fx  %s\n", n, w, w / pw, p, p / pc, st }'
done
