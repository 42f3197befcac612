# A program that uses SIGPROF and ITIMER_PROF itself sees the same ticks
# with and without pct (pct samples on SIGSTKFLT and per-thread timers).
# pct-test: timing plain (a rate or CPU-time measurement of the uninstrumented runtime)
. "$(dirname "$0")/lib.sh"
# Every SIGPROF the program gets comes from its own timer, in every mode:
# that is exact.  The tick count is not: the kernel's ITIMER_PROF count
# per CPU second moves with the load by itself, in a program without pct
# (206-220 ticks for 2 s at load 3-5 on 2 cores; at load 9, runs side by
# side gave 197 and 234 for 2.0 s plain, 244 under pct, 178 and 224 under
# -e wall, while a POSIX process CPU-time timer beside it counted 198-200
# with its overruns; at load 9, 135 per CPU second plain and 83 under -e
# wall).  So each run's count is taken per CPU second of that run (its
# cpu_ns column) and held to the plain run's within a factor of 2 either
# way, beyond the kernel's own spread: what this tells apart is a program
# whose ticks pct takes or blocks (half of them, or all), or whose timer
# pct replaces (its own period is 4 ms: 2.5 times as many), not the
# kernel's accounting, which no bound on two runs could.
run() {  # run OUT COMMAND...: the program's line into OUT
	local out=$1; shift
	"$@" >"$out" 2>/dev/null || fail "$out: $* failed"
}
run plain.txt "$PROGS/ownprof" 1
run cpu.txt "$PCTBIN" record -o a.pct "$PROGS/ownprof" 1
run hf.txt "$PCTBIN" record -F 1000 -o b.pct "$PROGS/ownprof" 1
run wall.txt "$PCTBIN" record -e wall -o c.pct "$PROGS/ownprof" 1
t() { cut -f2 "$1"; }
rate() { awk -F'\t' '{ printf "%.1f", $2 / ($4 / 1e9) }' "$1"; }
echo "ticks: plain $(t plain.txt) ($(rate plain.txt) per CPU second), pct $(t cpu.txt) ($(rate cpu.txt))," \
	"pct -F 1000 $(t hf.txt) ($(rate hf.txt)), pct -e wall $(t wall.txt) ($(rate wall.txt))"
for f in plain.txt cpu.txt hf.txt wall.txt; do
	[ "$(cut -f6 $f)" = 0 ] || fail "$f: $(cut -f6 $f) SIGPROFs not from the program's timer"
done
# the program's own profiling works: 100 Hz, within the same spread
awk -v r="$(rate plain.txt)" 'BEGIN { exit !(r >= 50 && r <= 200) }' || fail "the program's own profiling is broken: $(cat plain.txt)"
for f in cpu.txt hf.txt wall.txt; do
	awk -v a="$(rate $f)" -v b="$(rate plain.txt)" 'BEGIN { exit !(a >= 0.5 * b && a <= 2 * b) }' ||
		fail "$f: $(t $f) ticks ($(rate $f) per CPU second), $(t plain.txt) without pct ($(rate plain.txt))"
done
"$PCTBIN" report a.pct | grep -q ownprof || fail "pct did not profile the program"
pass "SIGPROF/ITIMER_PROF program keeps its ticks"
