# -F above the tick keeps its rate after a fork: a forked child used to
# disable (PERF_EVENT_IOC_DISABLE) the parent's perf events, which it
# inherits as descriptors, so a program that forks a short child every
# 100 ms lost most of its samples (80 Hz at -F 1000).  The main thread's
# user CPU time (getrusage RUSAGE_THREAD, printed by forkburn) times the
# rate asked for is the count expected; at least half of it is required:
# the fault gave 8%, and a perf event counts task-clock exactly, less
# what the kernel throttles or a full ring drops on a loaded machine.
# pct-test: timing plain (a rate or CPU-time measurement of the uninstrumented runtime)
. "$(dirname "$0")/lib.sh"
for hz in 1000 5000; do
	"$PCTBIN" record -F $hz -o fb$hz.pct "$PROGS/forkburn" 1.5 >user$hz 2>err || fail "record -F $hz: $(cat err)"
	grep -q "perf_event_open was refused" err && skip "perf_event_open refused here: $(cat err)"
	n=$("$PCTBIN" report --format=tsv --by=thread fb$hz.pct | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["tid"] == $c["pid"] { n += $c["samples"] } END { print n + 0 }')
	want=$(awk -v ns="$(cat user$hz)" -v hz=$hz 'BEGIN { printf "%d", ns / 1e9 * hz }')
	echo "-F $hz: $n samples in the main thread for $want expected from its user CPU time"
	[ "$n" -ge $((want / 2)) ] || fail "-F $hz: $n samples, less than half of $want"
done
pass "forking every 100 ms keeps at least half of the rate at 1 kHz and 5 kHz"
