# -F above the CPU-time tick samples with perf_event_open: -F 1000 gets at
# least 900 samples per CPU second, and the shares still match the truth.
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -F 1000 -o f1k.pct "$PROGS/selftime" 2 >truth.tsv 2>err || fail "record: $(cat err)"
grep -q "perf_event_open was refused" err && skip "perf_event_open refused here: $(cat err)"
rate=$("$PCTBIN" report f1k.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
echo "-F 1000: $rate samples per CPU second"
awk -v r="$rate" 'BEGIN { exit !(r >= 900) }' || fail "-F 1000 gave $rate Hz"
"$PCTBIN" report --format=tsv f1k.pct >report.tsv
check_truth truth.tsv report.tsv "$(period_of f1k.pct)" || fail "shares at 1000 Hz disagree with the truth"
"$PCTBIN" record -F 5000 -o f5k.pct "$PROGS/selftime" 1 >/dev/null 2>&1 || fail "record -F 5000"
rate5=$("$PCTBIN" report f5k.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
echo "-F 5000: $rate5 samples per CPU second"
# (about 4940 here; one sanitized-build run of the whole suite saw 4134)
awk -v r="$rate5" 'BEGIN { exit !(r >= 4000) }' || fail "-F 5000 gave $rate5 Hz"
# Above the tick each thread's samples wait in its perf ring buffer until
# its CPU-time tick (or its exit) drains them: four threads that end
# before the process, at 2 kHz, still match their own timings.
"$PCTBIN" record -F 2000 -o th.pct "$PROGS/threads4" 0.3 >truth4.tsv 2>err || fail "record threads4: $(cat err)"
"$PCTBIN" report --by=thread --format=tsv th.pct >report4.tsv || fail "report threads4"
check_truth truth4.tsv report4.tsv "$(period_of th.pct)" thread || fail "thread shares at 2 kHz disagree with the truth"
rate4=$("$PCTBIN" report th.pct | sed -n 's/.*effective rate \([0-9.]*\) Hz.*/\1/p')
echo "-F 2000, four threads: $rate4 samples per CPU second"
awk -v r="$rate4" 'BEGIN { exit !(r >= 1800) }' || fail "-F 2000 with four threads gave $rate4 Hz"
pass "-F 1000: $rate Hz, -F 5000: $rate5 Hz, -F 2000 in four threads: $rate4 Hz"
