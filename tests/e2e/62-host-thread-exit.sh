# A thread that ends just before its CPU-time timer fires, in ring-buffer
# mode (-F 5000): its exit drains the ring and creates the profile while
# the timer is still armed.  The timer's signal must not find the lock
# held by the thread it interrupts (a self-deadlock): pct blocks signals
# while it holds it.  Before the fix 5 of 30 runs hung; 200 runs in make
# check-full, 60 in make check (the fault is missed by 60 with a
# probability of (25/30)^60 = 2e-5).
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ] || skip "perf_event_open refused here"
"$HOSTS/host-threxit" 1 3.95 >plain.out || fail "plain run"
bad=0 runs=$(full_or 200 60)
for r in $(seq "$runs"); do
	rm -rf prof; mkdir prof
	timeout 10 env PCT=$SCRATCH/prof/m.pct PCT_HZ=5000 LD_PRELOAD=$LIBPCT "$HOSTS/host-threxit" 1 3.95 >m.out 2>err ||
		bad=$((bad + 1))
	cmp -s plain.out m.out || bad=$((bad + 1))
done
[ $bad = 0 ] || fail "$bad of $runs runs hung or differed"
# and a run of many threads in every mode
host_modes "200 threads" "$HOSTS/host-threxit" 200 3.95
pass "$runs thread exits in ring-buffer mode, none hung"
