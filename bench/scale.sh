#!/usr/bin/env bash
# bench/scale.sh - how pct holds at sizes real users reach.  Figures, not
# pass/fail.  Profiles are synthetic, written by bench/scalegen.c (compiled
# here): a complete CPU-time profile at 4 ms, 1 to 3 samples per address.
#  1. N distinct addresses (10^5, 10^6, and 10^7 when MemAvailable is over
#     12 GB) spread over the .text of Debian's debug Python interpreter
#     (python3-dbg: symbols and DWARF in the file): `pct report
#     --by=function` and `--by=address`; time, peak RSS, and peak RSS per
#     distinct address (above pct's RSS for an empty report of the same
#     module).
#  2. Many modules (8k, 32k, 65,534): one small generated shared library
#     hard-linked under that many names (each a module of its own: modules
#     are told apart by path), 4 addresses in each: `pct report`; time,
#     peak RSS, time per module.  Run with `ulimit -n` as it is; the
#     figure "open files" is the most descriptors pct held at once (sampled
#     from /proc every 50 ms).
# SCALE_MAX=N caps the address counts (e.g. 1000000), SCALE_MODS="8000"
# the module counts.  Times are the wall time of one run (/usr/bin/time).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
P=${PCT:-$root/build/bin/pct}
BIN=$(ls /usr/bin/python3.[0-9]*d 2>/dev/null | grep -E 'python3\.[0-9]+d$' | head -1)
[ -n "$BIN" ] || { echo "no /usr/bin/python3.Nd (python3-dbg)" >&2; exit 1; }
dir=$(mktemp -d /tmp/pct-scale.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cc -O2 -std=gnu11 -I"$root/include" -o "$dir/scalegen" "$root/bench/scalegen.c"
G=$dir/scalegen

# measure LABEL CMD...: sets t (s), rss (kB), fds (most open at once)
measure() {
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err" &
	local pid=$! fdmax=0 n c
	while kill -0 $pid 2>/dev/null; do
		for c in $(cat /proc/$pid/task/*/children 2>/dev/null); do
			n=$(ls /proc/$c/fd 2>/dev/null | wc -l)
			[ "$n" -gt "$fdmax" ] && fdmax=$n
		done
		sleep 0.05
	done
	wait $pid || true
	read -r t rss <"$dir/time"
	fds=$fdmax
}

read -r off size < <(readelf -SW "$BIN" | awk '$2 == ".text" { print $5, $6 }')
lo=$((16#$off)); hi=$((lo + 16#$size))
max=${SCALE_MAX:-}
if [ -z "$max" ]; then
	avail=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
	max=$([ "$avail" -gt 12000000 ] && echo 10000000 || echo 1000000)
fi
"$G" addrs "$dir/one.pct" "$BIN" $lo $hi 1 1
measure "$P" report --by=function "$dir/one.pct"
base=$rss
echo "1. distinct addresses in $BIN (.text $size bytes); baseline RSS ${base} kB (1 address)"
printf '   %-9s %-13s %9s %10s %12s %9s\n' addresses by time_s peak_MB bytes/address rows
for n in 100000 1000000 10000000; do
	[ "$n" -le "$max" ] || continue
	"$G" addrs "$dir/a.pct" "$BIN" $lo $hi $n 1
	for by in function address; do
		measure "$P" report --by=$by "$dir/a.pct"
		rows=$(grep -c . "$dir/out" || true)
		printf '   %-9s %-13s %9.2f %10.1f %12.0f %9s\n' $n --by=$by "$t" "$(echo "$rss/1024" | bc -l)" \
			"$(echo "($rss - $base) * 1024 / $n" | bc -l)" "$rows"
	done
	rm -f "$dir/a.pct"
done

cat >"$dir/m.c" <<'C'
int f0(int x) { return x * 3 + 1; }
int f1(int x) { return f0(x) ^ 0x55; }
int f2(int x) { return f1(x) + f0(x); }
int f3(int x) { return f2(x) * f1(x); }
C
cc -O0 -g -shared -fPIC -Wl,--build-id -o "$dir/m.so" "$dir/m.c"
read -r moff msize < <(readelf -SW "$dir/m.so" | awk '$2 == ".text" { print $5, $6 }')
mlo=$((16#$moff)); mhi=$((mlo + 16#$msize))
mkdir "$dir/mods"
echo "2. many modules: $dir/mods/libNNNNN.so, hard links to one 4-function library; ulimit -n $(ulimit -n)"
printf '   %-8s %9s %10s %14s %9s %9s\n' modules time_s peak_MB ms/module open_fds functions
for n in ${SCALE_MODS:-8000 32000 65534}; do
	i=0
	while [ $i -lt $n ]; do
		f=$(printf '%s/mods/lib%05u.so' "$dir" $i)
		[ -e "$f" ] || ln "$dir/m.so" "$f"
		i=$((i + 1))
	done
	"$G" modules "$dir/m.pct" "$dir/mods/lib" $n $mlo $mhi 1
	measure "$P" report "$dir/m.pct"
	fns=$(grep -cE '\bf[0-3]\b' "$dir/out" || true)
	printf '   %-8s %9.2f %10.1f %14.4f %9s %9s\n' $n "$t" "$(echo "$rss/1024" | bc -l)" \
		"$(echo "$t * 1000 / $n" | bc -l)" "$fds" "$fns"
	warn=$(grep -c . "$dir/err" || true)
	[ "$warn" -eq 0 ] || echo "            ($warn lines on stderr, first: $(head -1 "$dir/err" | cut -c1-100))"
	rm -f "$dir/m.pct"
done
echo "3. -g profiles with many stacks: no generator yet (a stack record needs registers and"
echo "   stack bytes that unwind through real code); not measured here."
