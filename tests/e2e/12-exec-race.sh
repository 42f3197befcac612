# A profiled process that burns CPU right up to execve of a program with
# no pct runtime (empty environment) must never kill that program with a
# profiling signal left over from before the exec.  setitimer(ITIMER_PROF)
# failed this every time; the POSIX CPU timer is deleted at exec.
. "$(dirname "$0")/lib.sh"
deaths=0
for i in $(seq 200); do
	PCT=e.pct PCT_QUIET=1 LD_PRELOAD=$LIBPCT "$PROGS/burn-exec" 20 /bin/true || deaths=$((deaths + 1))
done
[ $deaths -eq 0 ] || fail "$deaths of 200 exec'ed programs died"
# A process writes its profile at its first sample.  200 x 20 ms = 4 s of
# CPU is about 1000 samples at 250 Hz, but on an oversubscribed machine
# the kernel's CPU-time timers lose expirations (issue 15), so a 20 ms
# image may take none: the floors only prove that the races were sampled
# (91 profiles seen with two busy loops and a second test run beside it).
n=$(ls e*.pct | wc -l)
[ "$n" -ge 50 ] || fail "expected about 200 profiles of the burning images, found $n"
total=$("$PCTBIN" report --format=tsv e*.pct | awk -F'\t' 'NR > 1 { n += $1 } END { print n }')
[ "$total" -ge 125 ] || fail "only $total samples in 200 x 20 ms"
pass "200 exec races, no deaths, $n profiles, $total samples"
