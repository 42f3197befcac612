# Four threads with a known CPU split (each times itself with
# CLOCK_THREAD_CPUTIME_ID): the thread view matches the truth, and every
# thread is sampled at the full per-thread rate, even with four threads on
# fewer CPUs (a process-wide timer gives at most one sample per tick).
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -o one.pct "$PROGS/selftime" 1 >/dev/null 2>&1 || fail "record selftime"
"$PCTBIN" record -o th.pct "$PROGS/threads4" 0.4 >truth.tsv 2>err || fail "record threads4: $(cat err)"
"$PCTBIN" report --by=thread --format=tsv th.pct >report.tsv || fail "report"
check_truth truth.tsv report.tsv "$(period_of th.pct)" thread || fail "thread shares disagree with the truth"
r1=$("$PCTBIN" report one.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
r4=$("$PCTBIN" report th.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
echo "samples per CPU second: one thread $r1 Hz, four threads $r4 Hz"
awk -v a="$r1" -v b="$r4" 'BEGIN { exit !(b >= 0.9 * a) }' || fail "threads sampled at $r4 Hz, one thread at $r1 Hz"
# the names are the threads' own (pthread_setname_np after start)
for k in 1 2 3 4; do grep -q $'\tworker-'$k'$' report.tsv || fail "thread worker-$k is not named: $(cat report.tsv)"; done
pass "four threads: shares match, $r4 Hz per CPU second"
