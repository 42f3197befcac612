# pct_on() called by hand from main(): the program sets $PCT itself, so
# the constructor (which saw no $PCT) cannot have started sampling.
. "$(dirname "$0")/lib.sh"
"$PROGS/selftime-manual" 3 manual.pct >truth.tsv || fail "manual run failed ($?)"
[ -f manual.pct ] || fail "pct_on() wrote no manual.pct"
"$PCTBIN" report --format=tsv manual.pct >report.tsv
check_truth truth.tsv report.tsv "$(period_of manual.pct)" || fail "manual profile disagrees with the truth"
