# A profiled process that burns CPU right up to execve of a program with
# no pct runtime (empty environment) must never kill that program with a
# profiling signal left over from before the exec.  setitimer(ITIMER_PROF)
# failed this every time; the POSIX CPU timer is deleted at exec.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
# A process writes its profile at its first sample.  200 x 20 ms = 4 s of
# CPU is about 1000 samples at 250 Hz, but on an oversubscribed machine
# the kernel's CPU-time timers lose expirations (issue 15), so a 20 ms
# image may take none (91 profiles of 200 seen with two busy loops and a
# second test run beside it).  What proves the races were sampled is the
# profiles and samples, not the number of runs: so at least 200 runs, and
# more (up to 1000) until 100 profiles hold 250 samples.
deaths=0 runs=0 n=0 total=0
while [ $runs -lt 200 ] || { [ "$n" -lt 100 ] || [ "$total" -lt 250 ]; } && [ $runs -lt 1000 ]; do
	for i in $(seq 50); do
		PCT=e.pct PCT_QUIET=1 LD_PRELOAD=$LIBPCT "$PROGS/burn-exec" 20 /bin/true || deaths=$((deaths + 1))
	done
	runs=$((runs + 50))
	n=$(ls e*.pct | wc -l)
	total=$(samples_in e*.pct)
done
[ $deaths -eq 0 ] || fail "$deaths of $runs exec'ed programs died"
[ "$n" -ge 100 ] && [ "$total" -ge 250 ] || fail "after $runs runs only $n profiles and $total samples of the burning images"
pass "$runs exec races, no deaths, $n profiles, $total samples"
