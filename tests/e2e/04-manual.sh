# pct_on() called by hand from main(): the program sets $PCT itself, so
# the constructor (which saw no $PCT) cannot have started sampling.
# pct-test: timing plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
# 2 s: 500 samples at 250 Hz; at least 300, run longer if they were lost
run() { rm -f manual.pct; "$PROGS/selftime-manual" "$1" manual.pct >truth.tsv || fail "manual run failed ($?)"
	[ -f manual.pct ] || fail "pct_on() wrote no manual.pct"; }
TRUTH_MIN=300
until_samples $TRUTH_MIN manual.pct 2 8 run
overload_bias manual.pct "$RAN_WALL"
"$PCTBIN" report --format=tsv manual.pct >report.tsv
check_truth truth.tsv report.tsv "$(period_of manual.pct)" || fail "manual profile disagrees with the truth"
