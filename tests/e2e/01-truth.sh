# A workload that times its own functions with CLOCK_THREAD_CPUTIME_ID:
# pct record + report must agree with that truth within statistical error.
# pct-test: timing plain (a rate or CPU-time measurement of the uninstrumented runtime)
. "$(dirname "$0")/lib.sh"
# 3 s of CPU at 250 Hz: 750 samples; at least 500 (TRUTH_MIN), run longer
# if a loaded machine lost more
run() { "$PCTBIN" record -o truth.pct "$PROGS/selftime" "$1" >truth.tsv 2>record.err || fail "record failed: $(cat record.err)"; }
TRUTH_MIN=500
until_samples $TRUTH_MIN truth.pct 3 12 run
overload_bias truth.pct "$RAN_WALL"
grep -Eq '^pct: [0-9]+ samples at [0-9.]+ Hz over [0-9.]+ s of CPU time, written to .truth.pct.$' record.err ||
	fail "record's summary line: $(cat record.err)"
"$PCTBIN" report --format=tsv truth.pct >report.tsv || fail "report failed"
period=$(period_of truth.pct)
check_truth truth.tsv report.tsv "$period" || fail "report disagrees with the measured truth"
# the effective rate is measured: the CPU time at the tick rate
"$PCTBIN" report truth.pct | head -3
