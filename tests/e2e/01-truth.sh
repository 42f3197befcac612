# A workload that times its own functions with CLOCK_THREAD_CPUTIME_ID:
# pct record + report must agree with that truth within statistical error.
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -o truth.pct "$PROGS/selftime" 4 >truth.tsv 2>record.err || fail "record failed: $(cat record.err)"
grep -Eq '^pct: [0-9]+ samples at [0-9.]+ Hz over [0-9.]+ s of CPU time, written to .truth.pct.$' record.err ||
	fail "record's summary line: $(cat record.err)"
"$PCTBIN" report --format=tsv truth.pct >report.tsv || fail "report failed"
period=$(period_of truth.pct)
check_truth truth.tsv report.tsv "$period" || fail "report disagrees with the measured truth"
# the effective rate is measured: 4 s of CPU at the tick rate
"$PCTBIN" report truth.pct | head -3
