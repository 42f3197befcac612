# A static program linked with libpct.a (-Wl,-u,pct_on) profiles itself
# from its constructor when $PCT is set, and matches its measured truth.
. "$(dirname "$0")/lib.sh"
[ -x "$PROGS/selftime-static" ] || skip "no static build (libc.a missing?)"
file "$PROGS/selftime-static" 2>/dev/null | grep -q 'statically linked' || ldd "$PROGS/selftime-static" 2>&1 | grep -q 'not a dynamic' ||
	fail "selftime-static is not static"
PCT=static.pct "$PROGS/selftime-static" 3 >truth.tsv || fail "static run failed"
[ -f static.pct ] || fail "no static.pct"
"$PCTBIN" report --format=tsv static.pct >report.tsv
check_truth truth.tsv report.tsv "$(period_of static.pct)" || fail "static profile disagrees with the truth"
