# -F above the CPU-time tick samples with perf_event_open: -F 1000 gets
# about 1000 samples per CPU second, and the shares still match the truth.
# The rates tell perf events at the rate asked for from CPU-time timers
# at the tick (250 Hz), which is what pct falls back to: a perf event
# counts task-clock exactly, so its count is the CPU time x the rate, less
# what the kernel throttles or a full ring drops (4134 of 5000 seen once
# in a sanitized run, 4940 usually); the floors are half the rate asked
# for, twice the fallback's at 1000 Hz and beyond any loss seen.
# pct-test: timing plain (a rate or CPU-time measurement of the uninstrumented runtime)
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -F 1000 -o f1k.pct "$PROGS/selftime" 1 >truth.tsv 2>err || fail "record: $(cat err)"
grep -q "perf_event_open was refused" err && skip "perf_event_open refused here: $(cat err)"
rate=$("$PCTBIN" report f1k.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
echo "-F 1000: $rate samples per CPU second"
awk -v r="$rate" 'BEGIN { exit !(r >= 500) }' || fail "-F 1000 gave $rate Hz"
"$PCTBIN" report --format=tsv f1k.pct >report.tsv
check_truth truth.tsv report.tsv "$(period_of f1k.pct)" || fail "shares at 1000 Hz disagree with the truth"
"$PCTBIN" record -F 5000 -o f5k.pct "$PROGS/selftime" 0.5 >/dev/null 2>&1 || fail "record -F 5000"
rate5=$("$PCTBIN" report f5k.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
echo "-F 5000: $rate5 samples per CPU second"
awk -v r="$rate5" 'BEGIN { exit !(r >= 2500) }' || fail "-F 5000 gave $rate5 Hz"
# Above the tick each thread's samples wait in its perf ring buffer until
# its CPU-time tick (or its exit) drains them: four threads that end
# before the process, at 2 kHz, still match their own timings.
"$PCTBIN" record -F 2000 -o th.pct "$PROGS/threads4" 0.3 >truth4.tsv 2>err || fail "record threads4: $(cat err)"
"$PCTBIN" report --by=thread --format=tsv th.pct >report4.tsv || fail "report threads4"
check_truth truth4.tsv report4.tsv "$(period_of th.pct)" thread || fail "thread shares at 2 kHz disagree with the truth"
rate4=$("$PCTBIN" report th.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
echo "-F 2000, four threads: $rate4 samples per CPU second"
awk -v r="$rate4" 'BEGIN { exit !(r >= 1000) }' || fail "-F 2000 with four threads gave $rate4 Hz"
pass "-F 1000: $rate Hz, -F 5000: $rate5 Hz, -F 2000 in four threads: $rate4 Hz"
