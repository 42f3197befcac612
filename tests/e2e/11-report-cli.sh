# pct report's interface: TSV columns, -n, --by, summing files, and clear
# errors (exit 1, file named) for bad input.
. "$(dirname "$0")/lib.sh"
PCT=a.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1 >/dev/null
PCT=b.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1 >/dev/null
"$PCTBIN" report --format=tsv a.pct >a.tsv
[ "$(head -1 a.tsv)" = $'samples\tstderr\tpercent\tstderr_percent\tci_low\tci_high\tcum_percent\tmodule\tfunction' ] ||
	fail "TSV header: $(head -1 a.tsv)"
awk -F'\t' 'NR > 1 { p += $3; if ($2 * $2 - $1 > 0.01 || $1 - $2 * $2 > 0.01) bad = 1 } END { exit !(p > 99.9 && p < 100.1 && !bad) }' a.tsv ||
	fail "percent does not sum to 100 or stderr is not sqrt(samples)"
[ "$("$PCTBIN" report --format=tsv -n 2 a.pct | wc -l)" -eq 3 ] || fail "-n 2"
[ "$("$PCTBIN" report --by=module --format=tsv a.pct | head -1)" = $'samples\tstderr\tpercent\tstderr_percent\tci_low\tci_high\tcum_percent\tmodule' ] || fail "--by=module header"
# summing: the total of a+b is the sum of the totals
ta=$(awk -F'\t' 'NR > 1 { n += $1 } END { print n }' a.tsv)
tb=$("$PCTBIN" report --format=tsv b.pct | awk -F'\t' 'NR > 1 { n += $1 } END { print n }')
tab=$("$PCTBIN" report --format=tsv a.pct b.pct | awk -F'\t' 'NR > 1 { n += $1 } END { print n }')
[ "$tab" -eq $((ta + tb)) ] || fail "a+b = $tab, expected $ta + $tb"
"$PCTBIN" report a.pct b.pct | head -2 | grep -q '^# 2 files summed' || fail "summary of 2 files"

head -c 100 a.pct >short.pct
"$PCTBIN" report short.pct 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "short.pct" err && grep -q "too short" err || fail "short file: rc $rc, $(cat err)"
printf 'hello world, this is not a profile at all, but it is long enough to hold a header of sorts. %0300d' 0 >text.pct
"$PCTBIN" report text.pct 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "text.pct': not a pct profile" err || fail "text file: rc $rc, $(cat err)"
"$PCTBIN" report missing.pct 2>err; [ $? -eq 1 ] || fail "missing file should exit 1"
"$PCTBIN" report --by=nonsense a.pct 2>/dev/null; [ $? -eq 1 ] || fail "bad --by should exit 1"
"$PCTBIN" report 2>/dev/null; [ $? -eq 2 ] || fail "no file should be a usage error (2)"
"$PCTBIN" report --help | grep -q '^usage: pct report' || fail "report --help"
"$PCTBIN" --help | grep -q record || fail "pct --help"
pass "report interface"
