# $PCT_SIGNAL refuses the signals that faults raise (a handler that
# returns on SIGSEGV loops for ever) and those with a meaning, with one
# warning, and samples with SIGSTKFLT instead; a real-time signal is
# taken.  The program runs as without pct in every case.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
export PCT_SIGNAL=11
same_in_every_mode 10 "$HOSTS/crash" 0.2
[ "$(cat plain.out)" = crashing ] || fail "the host itself: $(cat plain.out)"
for f in m*.pct-said; do
	[ "$(grep -c 'PCT_SIGNAL' "$f")" = 1 ] || fail "not one warning in $f: $(cat "$f")"
done
# each refused signal: one warning, the program's output, samples
# (0.1 s of CPU in each of its two threads: 50 samples at 250 Hz, of which
# at least 10; a loaded machine loses expirations (6 seen beside two busy
# loops), and then the run is made longer, up to 0.8 s, until they are there)
timeout 60 "$HOSTS/allsigs" 0.1 >want-0.1.out 2>&1 || fail "allsigs itself"
# sig_run SIGNAL: record allsigs with PCT_SIGNAL=SIGNAL into s.pct, its
# output in s.out and s.err, until s.pct has 10 samples; sets n
sig_run() {
	local secs=0.1
	while :; do
		PCT_SIGNAL=$1 timeout 60 "$PCTBIN" record -o s.pct "$HOSTS/allsigs" $secs >s.out 2>s.err ||
			fail "PCT_SIGNAL=$1: $(cat s.out s.err)"
		n=$("$PCTBIN" report s.pct | sed -n 's/^# \([0-9]*\) samples.*/\1/p')
		[ "${n:-0}" -ge 10 ] || [ $secs = 0.8 ] && break
		secs=$(awk -v s=$secs 'BEGIN { print 2 * s }')
		rm -f s.pct
	done
	# the output to compare with: allsigs alone, for as long
	[ -f want-$secs.out ] || timeout 60 "$HOSTS/allsigs" $secs >want-$secs.out 2>&1 || fail "allsigs itself"
	cp want-$secs.out want.out
}
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 0 65 x; do
	sig_run $s
	diff want.out s.out >/dev/null || fail "PCT_SIGNAL=$s: the output differs: $(diff want.out s.out)"
	[ "$(grep -c 'PCT_SIGNAL' s.err)" = 1 ] || fail "PCT_SIGNAL=$s: not one warning: $(cat s.err)"
	[ "${n:-0}" -ge 10 ] || fail "PCT_SIGNAL=$s: ${n:-no} samples"
	rm -f s.pct
done
echo "refused with one warning: 1-15, 17-31, 0, 65, x"
for s in 16 40 64; do
	sig_run $s
	diff want.out s.out >/dev/null || fail "PCT_SIGNAL=$s: the output differs: $(diff want.out s.out)"
	! grep -q 'PCT_SIGNAL' s.err || fail "PCT_SIGNAL=$s refused: $(cat s.err)"
	[ "${n:-0}" -ge 10 ] || fail "PCT_SIGNAL=$s: ${n:-no} samples"
	rm -f s.pct
done
echo "taken: 16, 40, 64"
pass "PCT_SIGNAL takes only SIGSTKFLT and real-time signals"
