# pct report's interface: TSV columns, -n, --by, summing files, and clear
# errors (exit 1, file named) for bad input.
. "$(dirname "$0")/lib.sh"
PCT=a.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1 >/dev/null
PCT=b.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 1 >/dev/null
"$PCTBIN" report --format=tsv a.pct >a.tsv
[ "$(head -1 a.tsv)" = $'samples\tstderr\tpercent\tstderr_percent\tci_low\tci_high\tcum_percent\tmodule\tfunction' ] ||
	fail "TSV header: $(head -1 a.tsv)"
awk -F'\t' 'NR > 1 { p += $3; d = $2 - sqrt($1); if (d > 0.0006 || d < -0.0006) bad = 1 } END { exit !(NR > 1 && p > 99.9 && p < 100.1 && !bad) }' a.tsv ||
	fail "percent does not sum to 100 or stderr is not sqrt(samples)"
[ "$("$PCTBIN" report --format=tsv -n 2 a.pct | wc -l)" -eq 3 ] || fail "-n 2"
[ "$("$PCTBIN" report --by=module --format=tsv a.pct | head -1)" = $'samples\tstderr\tpercent\tstderr_percent\tci_low\tci_high\tcum_percent\tmodule' ] || fail "--by=module header"
# summing: the total of a+b is the sum of the totals
ta=$(awk -F'\t' 'NR > 1 { n += $1 } END { print n }' a.tsv)
tb=$("$PCTBIN" report --format=tsv b.pct | awk -F'\t' 'NR > 1 { n += $1 } END { print n }')
tab=$("$PCTBIN" report --format=tsv a.pct b.pct | awk -F'\t' 'NR > 1 { n += $1 } END { print n }')
[ "$tab" -eq $((ta + tb)) ] || fail "a+b = $tab, expected $ta + $tb"
"$PCTBIN" report a.pct b.pct | head -2 | grep -q '^# 2 files summed' || fail "summary of 2 files"

# --min-samples hides small rows (still counted), text marks rows under 10 with '?'
printf 'module\tbuild_id\toffset\tsamples\n/x/a\t\t0x1\t500\n/x/b\t\t0x1\t40\n/x/c\t\t0x1\t3\n' | "$PROGS/mkprofile" m.pct
"$PCTBIN" report --by=module m.pct 2>/dev/null >m.txt
grep -Eq '^\? +0\.55% .* 3  c$' m.txt || fail "row of 3 samples not marked: $(cat m.txt)"
grep -q '^# ?: fewer than 10 samples' m.txt || fail "no legend for '?'"
"$PCTBIN" report --by=module --min-samples=41 m.pct 2>/dev/null >m2.txt
grep -q ' b$' m2.txt && fail "row of 40 samples not hidden"
grep -q '^# 2 more rows, 7.92% of the samples (rows of fewer than 41 samples hidden)$' m2.txt || fail "hidden rows not summarized: $(cat m2.txt)"
grep -Eq '^ +92\.08% \[ *[0-9.]+, *[0-9.]+\] +500  a$' m2.txt || fail "percent should still count hidden rows: $(cat m2.txt)"
grep -q 'resolution: any two shares that differ by more than 8.41 points' m.txt || fail "resolution line: $(grep resolution m.txt)"

head -c 100 a.pct >short.pct
"$PCTBIN" report short.pct 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "short.pct" err && grep -q "too short" err || fail "short file: rc $rc, $(cat err)"
printf 'hello world, this is not a profile at all, but it is long enough to hold a header of sorts. %0300d' 0 >text.pct
"$PCTBIN" report text.pct 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "text.pct': not a pct profile" err || fail "text file: rc $rc, $(cat err)"
"$PCTBIN" report missing.pct 2>err; [ $? -eq 1 ] || fail "missing file should exit 1"
"$PCTBIN" report --by=nonsense a.pct 2>/dev/null; [ $? -eq 2 ] || fail "bad --by should exit 2 (a usage error)"
"$PCTBIN" report 2>/dev/null; [ $? -eq 2 ] || fail "no file should be a usage error (2)"
"$PCTBIN" report --help | grep -q '^usage: pct report' || fail "report --help"
"$PCTBIN" --help | grep -q record || fail "pct --help"
# pct help CMD is CMD --help; an unknown one is a usage error
for c in record report diff sum; do
	cmp -s <("$PCTBIN" help $c) <("$PCTBIN" $c --help) || fail "pct help $c differs from pct $c --help"
done
"$PCTBIN" help nosuch >/dev/null 2>&1; [ $? = 2 ] || fail "pct help nosuch: not exit 2"
# "±" in a UTF-8 locale, "+-" outside one (before: "±" always), in the same
# columns
LC_ALL=C "$PCTBIN" report -l a.pct >c.txt || fail "report in the C locale"
"$PCTBIN" report -l a.pct >u.txt || fail "report in C.UTF-8"
grep -q '±' c.txt && fail "'±' in the C locale: $(head -5 c.txt)"
grep -q '^   samples      +- percent     +-  ' c.txt || fail "no +- header in the C locale: $(sed -n 5p c.txt)"
diff -w <(sed 's/±/+-/g' u.txt) c.txt >/dev/null || fail "the two locales differ beyond the sign: $(diff -w <(sed 's/±/+-/g' u.txt) c.txt)"
[ "$(awk '{ print length($0) }' c.txt | sed -n 5p)" = "$(sed -n 5p u.txt | wc -m | awk '{ print $1 - 1 }')" ] ||
	fail "the header's width differs between the locales"
pass "report interface"
