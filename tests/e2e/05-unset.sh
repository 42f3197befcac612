# With $PCT unset, the preloaded runtime does nothing: no file, no signal
# handler, no timer.  With $PCT set, the same checks see all three, so the
# test can tell the difference.  pct's signal is SIGSTKFLT (16).
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
sigprof_caught() {  # is SIGSTKFLT (16) in the process's caught-signal mask?
	local mask; mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status")
	(( (16#$mask >> 15) & 1 ))
}
LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1.5 >/dev/null &
pid=$!
sleep 0.5
sigprof_caught $pid && fail "signal handler installed although PCT is unset"
wait $pid || fail "program failed"
[ -z "$(ls -A)" ] || fail "files were created although PCT is unset: $(ls -A)"

PCT=on.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1.5 >/dev/null &
pid=$!
sleep 0.5
sigprof_caught $pid || fail "control: no signal handler with PCT set"
wait $pid
[ -f on.pct ] || fail "control: no file with PCT set"
pass "PCT unset: no handler, no file; PCT set: both"
