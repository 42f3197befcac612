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
#     are told apart by path; 8 copies of it, each linked at most 8,192
#     times, for ext4 allows 65,000 links to a file and the 65,534 case
#     failed with "Too many links"), 4 addresses in each: `pct report`; time,
#     peak RSS, time per module.  Run with `ulimit -n` as it is; the
#     figure "open files" is the most descriptors pct held at once (sampled
#     from /proc every 50 ms).  Then the same profiles with no file at
#     those paths: the cost of finding a module among many, without ELF.
#
# Measured (this script, a 2-core machine shared with other work; cpu_s):
#   --by=address, 10^6 addresses  before 6.07 s, 123 B/address; after 0.78 s, 91 B
#   --by=address, 10^7 addresses  before 124.43 s, 3,378 MB, 353 B/address;
#                                 after 11.33 s, 925 MB, 95 B/address
#                                 (--by=function of the same profile: 15.74 s, 40 B;
#                                 the machine's load moves these: 9.9 s in a quieter run)
#   65,534 modules                before: "Too many links" (one file hard-linked
#                                 65,534 times); after 6.21 s, 321 MB
# (issue 34 measured 69 s and 3.4 GB for 10^7 by address on another machine,
# where --by=function took 3.6 s.)  Before, the rows were built as strings in
# a hash table and merge-sorted by their keys, and every cell was kept for
# the text's widths; now each module's samples come in the order of their
# rows, which the table appends without hashing and sorts by counts alone.
# SCALE_ADDRS="100000 1000000" sets the address counts (default: the
# three, 10^7 only with the memory), SCALE_MODS="8000" the module counts.  time_s is the wall time of one run, cpu_s its user
# plus system CPU time (/usr/bin/time): on a loaded machine, cpu_s is the
# figure to compare.
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
	/usr/bin/time -f '%e %M %U %S' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err" &
	local pid=$! fdmax=0 n c
	while kill -0 $pid 2>/dev/null; do
		for c in $(cat /proc/$pid/task/*/children 2>/dev/null); do
			n=$(ls /proc/$c/fd 2>/dev/null | wc -l) || n=0
			[ "$n" -gt "$fdmax" ] && fdmax=$n
		done
		sleep 0.05
	done
	wait $pid || true
	read -r t rss u sy <"$dir/time"
	cpu=$(echo "$u + $sy" | bc -l)
	fds=$fdmax
}

read -r off size < <(readelf -SW "$BIN" | awk '$2 == ".text" { print $5, $6 }')
lo=$((16#$off)); hi=$((lo + 16#$size))
addrs=${SCALE_ADDRS:-}
if [ -z "$addrs" ]; then
	avail=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
	addrs="100000 1000000"
	[ "$avail" -lt 12000000 ] || addrs="$addrs 10000000"
fi
"$G" addrs "$dir/one.pct" "$BIN" $lo $hi 1 1
measure "$P" report --by=function "$dir/one.pct"
base=$rss
echo "1. distinct addresses in $BIN (.text $size bytes); baseline RSS ${base} kB (1 address)"
printf '   %-9s %-13s %9s %9s %10s %12s %9s\n' addresses by time_s cpu_s peak_MB bytes/address rows
for n in $addrs; do
	if [ $n -gt $((hi - lo)) ]; then
		# more addresses than the interpreter's .text has bytes: a
		# library with a larger .text (LLVM's, if installed)
		big=$(ls -S /usr/lib/*-linux-gnu/libLLVM*.so* 2>/dev/null | head -1)
		[ -n "$big" ] || { echo "   $n: no library with $n bytes of .text (libLLVM)"; continue; }
		read -r boff bsize < <(readelf -SW "$big" | awk '$2 == ".text" { print $5, $6 }')
		blo=$((16#$boff)); bhi=$((blo + 16#$bsize))
		[ $n -le $((bhi - blo)) ] || { echo "   $n: $big has too small a .text"; continue; }
		echo "   ($n addresses in $big, .text $bsize bytes: symbols from .dynsym)"
		"$G" addrs "$dir/a.pct" "$big" $blo $bhi $n 1
	else
		"$G" addrs "$dir/a.pct" "$BIN" $lo $hi $n 1
	fi
	for by in function address; do
		measure "$P" report --by=$by "$dir/a.pct"
		rows=$(grep -c . "$dir/out" || true)
		printf '   %-9s %-13s %9.2f %9.2f %10.1f %12.0f %9s\n' $n --by=$by "$t" "$cpu" "$(echo "$rss/1024" | bc -l)" \
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
for c in 0 1 2 3 4 5 6 7; do cp "$dir/m.so" "$dir/m$c.so"; done
echo "2. many modules: $dir/mods/libNNNNN.so, hard links to 8 copies of one 4-function library; ulimit -n $(ulimit -n)"
printf '   %-8s %9s %9s %10s %14s %9s %9s\n' modules time_s cpu_s peak_MB ms/module open_fds functions
for n in ${SCALE_MODS:-8000 32000 65534}; do
	i=0
	while [ $i -lt $n ]; do
		f=$(printf '%s/mods/lib%05u.so' "$dir" $i)
		[ -e "$f" ] || ln "$dir/m$((i / 8192)).so" "$f"
		i=$((i + 1))
	done
	"$G" modules "$dir/m.pct" "$dir/mods/lib" $n $mlo $mhi 1
	measure "$P" report "$dir/m.pct"
	fns=$(grep -cE '\bf[0-3]\b' "$dir/out" || true)
	printf '   %-8s %9.2f %9.2f %10.1f %14.4f %9s %9s\n' $n "$t" "$cpu" "$(echo "$rss/1024" | bc -l)" \
		"$(echo "$t * 1000 / $n" | bc -l)" "$fds" "$fns"
	warn=$(grep -c . "$dir/err" || true)
	[ "$warn" -eq 0 ] || echo "            ($warn lines on stderr, first: $(head -1 "$dir/err" | cut -c1-100))"
	rm -f "$dir/m.pct"
done
echo "   the same with no files at those paths (each module's open fails; one warning each):"
for n in ${SCALE_MISSING:-8000 32000 65534}; do
	"$G" modules "$dir/m.pct" "$dir/none/lib" $n $mlo $mhi 1
	measure "$P" report "$dir/m.pct"
	printf '   %-8s %9.2f %9.2f %10.1f %14.4f %9s %9s\n' $n "$t" "$cpu" "$(echo "$rss/1024" | bc -l)" \
		"$(echo "$t * 1000 / $n" | bc -l)" "$fds" "-"
	rm -f "$dir/m.pct"
done
echo "3. -g profiles with many stacks: no generator yet (a stack record needs registers and"
echo "   stack bytes that unwind through real code); not measured here."
