# With $PCT unset, the preloaded runtime does nothing: no file, no SIGPROF
# handler, no timer.  With $PCT set, the same checks see all three, so the
# test can tell the difference.
. "$(dirname "$0")/lib.sh"
sigprof_caught() {  # is SIGPROF (27) in the process's caught-signal mask?
	local mask; mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status")
	(( (16#$mask >> 26) & 1 ))
}
LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1.5 >/dev/null &
pid=$!
sleep 0.5
sigprof_caught $pid && fail "SIGPROF handler installed although PCT is unset"
wait $pid || fail "program failed"
[ -z "$(ls -A)" ] || fail "files were created although PCT is unset: $(ls -A)"

PCT=on.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1.5 >/dev/null &
pid=$!
sleep 0.5
sigprof_caught $pid || fail "control: no SIGPROF handler with PCT set"
wait $pid
[ -f on.pct ] || fail "control: no file with PCT set"
pass "PCT unset: no handler, no file; PCT set: both"
