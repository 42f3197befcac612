# A static program linked with libpct.a (-Wl,-u,pct_on) profiles itself
# from its constructor when $PCT is set, and matches its measured truth.
# pct-test: timing plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
[ -x "$PROGS/selftime-static" ] || skip "no static build (libc.a missing?)"
file "$PROGS/selftime-static" 2>/dev/null | grep -q 'statically linked' || ldd "$PROGS/selftime-static" 2>&1 | grep -q 'not a dynamic' ||
	fail "selftime-static is not static"
# 2 s: 500 samples at 250 Hz; at least 300, run longer if they were lost
run() { rm -f static.pct; PCT=static.pct "$PROGS/selftime-static" "$1" >truth.tsv || fail "static run failed"
	[ -f static.pct ] || fail "no static.pct"; }
TRUTH_MIN=300
until_samples $TRUTH_MIN static.pct 2 8 run
overload_bias static.pct "$RAN_WALL"
"$PCTBIN" report --format=tsv static.pct >report.tsv
check_truth truth.tsv report.tsv "$(period_of static.pct)" || fail "static profile disagrees with the truth"
