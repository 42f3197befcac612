# A thread that ends just before its CPU-time timer fires, in ring-buffer
# mode (-F 5000): its exit drains the ring and creates the profile while
# the timer is still armed.  The timer's signal must not find the lock
# held by the thread it interrupts (a self-deadlock): pct blocks signals
# while it holds it.  Before the fix 5 of 30 runs hung; 200 runs here.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ] || skip "perf_event_open refused here"
"$HOSTS/host-threxit" 1 3.95 >plain.out || fail "plain run"
bad=0
for r in $(seq 200); do
	rm -rf prof; mkdir prof
	timeout 10 env PCT=$SCRATCH/prof/m.pct PCT_HZ=5000 LD_PRELOAD=$LIBPCT "$HOSTS/host-threxit" 1 3.95 >m.out 2>err ||
		bad=$((bad + 1))
	cmp -s plain.out m.out || bad=$((bad + 1))
done
[ $bad = 0 ] || fail "$bad of 200 runs hung or differed"
# and a run of many threads in every mode
host_modes "200 threads" "$HOSTS/host-threxit" 200 3.95
pass "200 thread exits in ring-buffer mode, none hung"
