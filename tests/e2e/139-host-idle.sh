# Many sleeping threads under -e wall: the wall sampler read every
# thread's syscall file each pass, and every sample read the process's CPU
# clock, which the kernel sums over all threads: with 2,000 threads
# sleeping for 5 s the sampler used 4.9 s of CPU (a whole CPU).  Its cost
# now scales with the threads that run (libpct(3), RESOURCES), and the
# blocked threads are still charged their wall time.
# pct-test: timing (it measures the wall sampler's own CPU time)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
host_modes "300 sleeping threads" "$HOSTS/host-idle" 300 0.5
[ "$(cat plain.out)" = "300 threads slept" ] || fail "plain: $(cat plain.out)"
TIMEFORMAT='%R %U %S'
cpu() { { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ print $1, $2 + $3 }'; }
read -r real0 cpu0 < <(cpu "$HOSTS/host-idle" 2000 3)
rm -rf prof; mkdir prof
read -r real1 cpu1 < <(cpu env PCT="$SCRATCH/prof/w.pct" PCT_EVENT=wall LD_PRELOAD="$LIBPCT" "$HOSTS/host-idle" 2000 3)
echo "2000 threads asleep 3 s: plain ${cpu0} s of CPU in ${real0} s; -e wall ${cpu1} s in ${real1} s"
# before: 2.9 s more; now about 0.5 s (the sampler, 5% of a CPU, and
# arming 2,000 threads with perf events)
awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { exit !(b - a < 1.2) }' ||
	fail "pct's wall sampler cost $cpu1 - $cpu0 s of CPU over 3 s"
"$PCTBIN" report --format=tsv prof/w.pct >w.tsv || fail "no wall profile"
# every thread is blocked in read(2) for about 3 s: 2000 x 3 s x 250 Hz;
# the blocked ones are charged by the clock, not sampled, so the count is
# the time, within the threads' start and end
n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["function"] == "read" { n += $c["samples"] }
	END { print n + 0 }' w.tsv)
echo "samples in read: $n (3 s each: 1500000)"
awk -v n="$n" -v r="$real1" 'BEGIN { exit !(n >= 0.9 * 2000 * 3 * 250 && n <= 2000 * r * 250 * 1.02) }' ||
	fail "$n samples in read, want 2000 threads x 3 to $real1 s x 250 Hz"
pass "2000 sleeping threads: the sampler costs $(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.2f", b - a }') s of CPU"
