# A file size limit (ulimit -f 1000: 1,024,000 bytes) that the program
# lives within: pct's profile (41 MB, 108 MB with -g) must not raise
# SIGXFSZ, which kills.  pct shrinks the file to fit (a smaller tick log and
# bucket table, fewer table slots, a
# smaller stack area) and samples on.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
PRE="ulimit -f 1000"
# the note is made when the file is, at the first sample: a run that took
# none (an oversubscribed machine's tick can miss a short run's CPU-time
# timers, libpct(3)) has none to make, and runs again (HOST_MIN)
HOST_MIN=1 host_modes "ulimit -f 1000" "$HOSTS/host-fsize" 0.3
for m in default g; do
	grep -q "made smaller to fit" "err.$m" || fail "$m: no note of the smaller file: $(cat "err.$m")"
done
# the default run's file is within the limit and readable, and holds
# samples in burn.  Burn takes at least half of the signals even beside
# busy loops (its clock reads, where a loaded machine's samples gather,
# took 1-8% idle), so with 14 signals or more none in burn has a
# probability of at most 0.5^14 = 6e-5 (< 1e-4); the run is made longer
# (0.3 s, doubling, up to 9.6 s) until its profile has 14 signals: a
# loaded machine loses CPU-timer expirations (libpct(3))
s=0.3
while :; do
	rm -rf prof; mkdir prof
	(ulimit -f 1000; PCT=$SCRATCH/prof/m.pct LD_PRELOAD=$LIBPCT timeout 60 "$HOSTS/host-fsize" $s) >/dev/null 2>&1
	sig=$("$PCTBIN" dump prof/m.pct 2>/dev/null | sed -n 's/^#pct overruns signals=\([0-9]*\).*/\1/p' | head -1)
	[ -n "$sig" ] || sig=$(samples_in prof/m.pct)  # (no such line: every signal of weight 1)
	[ "${sig:-0}" -ge 14 ] && break
	awk -v s="$s" 'BEGIN { exit !(s < 9.6) }' || fail "fewer than 14 signals (${sig:-0}) in runs of up to 9.6 s"
	echo "${sig:-0} signals in host-fsize $s: again, twice as long"
	s=$(awk -v s="$s" 'BEGIN { print 2 * s }')
done
size=$(stat -c %s prof/m.pct) || fail "no profile within the limit"
[ "$size" -le 1024000 ] || fail "profile of $size bytes, over the limit"
"$PCTBIN" report prof/m.pct | grep -q burn || fail "profile within the limit: no samples in burn (${sig:-0} signals in $s s): $("$PCTBIN" report prof/m.pct 2>&1 | tail -5)"
pass "ulimit -f 1000: no SIGXFSZ; a $size-byte profile"
