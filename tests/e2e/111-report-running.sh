# pct report on a live file says so in its summary line: a program
# sampled with $PCT is reported while it runs ("so far: still running");
# once it has ended, and for a file whose process was killed (its state
# stays running, but nobody writes it), the line does not say it.
. "$(dirname "$0")/lib.sh"
PCT=live.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 3 >/dev/null &
pid=$!
for _ in $(seq 50); do [ -e live.pct ] && break; sleep 0.1; done
sleep 0.5
"$PCTBIN" report live.pct >during.txt 2>&1 || fail "report of the live file exits $?: $(cat during.txt)"
kill -0 "$pid" 2>/dev/null || fail "selftime ended before the report was made (too loaded a machine?)"
wait "$pid"
sed -n 2p during.txt
sed -n 2p during.txt | grep -q '^# [0-9]* samples over .*, so far: still running (1 file being written)$' ||
	fail "the summary line of a live file does not say it is still running: $(sed -n 2p during.txt)"
"$PCTBIN" report live.pct >after.txt 2>&1 || fail "report after the end exits $?"
grep -q 'still running' after.txt && fail "a complete file is said to be still running: $(sed -n 2p after.txt)"
pass "a live file is 'still running', a complete one not"

PCT=killed.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 30 >/dev/null &
pid=$!
for _ in $(seq 50); do [ -e killed.pct ] && break; sleep 0.1; done
sleep 0.5
kill -KILL "$pid"
wait "$pid" 2>/dev/null
"$PCTBIN" report killed.pct >killed.txt 2>&1 || fail "report of the killed process's file exits $?"
sed -n 2p killed.txt
grep -q 'still running' killed.txt && fail "the file of a killed process is said to be still running"
grep -q 'did not finish sampling' killed.txt || fail "the killed process's file is not said to be unfinished"
pass "a killed process's file (state running) is not 'still running'"
