# A program that uses SIGPROF and ITIMER_PROF itself sees the same ticks
# with and without pct (pct samples on SIGSTKFLT and per-thread timers).
. "$(dirname "$0")/lib.sh"
# The kernel itself loses an ITIMER_PROF tick now and then on a busy
# machine (plain runs here gave 197-199 of 200), so each configuration
# runs twice and keeps its better count.
best() {  # best tick count of two runs of "$@" into $out
	local a b
	"$@" >"$out.1" 2>/dev/null && "$@" >"$out.2" 2>/dev/null || return 1
	a=$(cut -f2 "$out.1"); b=$(cut -f2 "$out.2")
	[ "$a" -ge "$b" ] && cp "$out.1" "$out" || cp "$out.2" "$out"
}
out=plain.txt best "$PROGS/ownprof" 2 || fail "plain run"
out=cpu.txt best "$PCTBIN" record -o a.pct "$PROGS/ownprof" 2 || fail "under pct"
out=hf.txt best "$PCTBIN" record -F 1000 -o b.pct "$PROGS/ownprof" 2 || fail "under pct -F 1000"
out=wall.txt best "$PCTBIN" record -e wall -o c.pct "$PROGS/ownprof" 2 || fail "under pct -e wall"
t() { cut -f2 "$1"; }
echo "ticks (best of 2): plain $(t plain.txt), pct $(t cpu.txt), pct -F 1000 $(t hf.txt), pct -e wall $(t wall.txt)"
# Every SIGPROF the program gets comes from its own timer
for f in plain.txt cpu.txt hf.txt wall.txt; do
	[ "$(cut -f6 $f)" = 0 ] || fail "$f: $(cut -f6 $f) SIGPROFs not from the program's timer"
done
# 2 s of CPU at 100 Hz is 200 ticks; a run may end one tick early or
# late, and on a loaded machine the kernel's accounting moves the plain
# count itself by a few percent (206-220 seen at load 3-5 on 2 cores; 201
# and 235 in plain runs of two loaded suites), so each run's count is
# taken per CPU second of that run (its cpu_ns column), and pct's must be
# within 3% + 1 of the plain run's
rate() { awk -F'\t' '{ printf "%.1f", $2 / ($4 / 1e9) }' "$1"; }
for f in cpu.txt hf.txt; do
	awk -v a="$(rate $f)" -v b="$(rate plain.txt)" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1 + b / 33) }' ||
		fail "$f: $(t $f) ticks ($(rate $f) per CPU second), $(t plain.txt) without pct ($(rate plain.txt))"
done
# -e wall adds a thread (pct-wall) that blocks every signal.  The kernel
# then loses about 2% of a process's ITIMER_PROF ticks: a plain helper
# thread that blocks signals and wakes every 4 ms does the same without
# pct (197-198 of 199 on kernel 6.18); under pct's wall event runs here
# gave 193-197 of 200.  Allow 5% + 1, per CPU second as above (a CI
# run's sanitized pass once counted 213 against 200 in raw ticks).
awk -v a="$(rate wall.txt)" -v b="$(rate plain.txt)" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1 + b / 20) }' ||
	fail "wall: $(t wall.txt) ticks ($(rate wall.txt) per CPU second), $(t plain.txt) without pct ($(rate plain.txt))"
[ "$(t plain.txt)" -ge 190 ] || fail "the program's own profiling is broken: $(cat plain.txt)"
"$PCTBIN" report a.pct | grep -q ownprof || fail "pct did not profile the program"
pass "SIGPROF/ITIMER_PROF program keeps its ticks"
