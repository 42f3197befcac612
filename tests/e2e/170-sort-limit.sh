# pct report --sort=self|total and --percent-limit (issue 36, item 1), on
# a -g profile of work-full (work_a, work_b, work_c called from main):
# - --sort=total orders the rows by their total (non-increasing), so main,
#   whose own samples are none and whose total is every sample with a
#   stack, comes before work_a; --sort=self (the default) by own samples;
# - the '?' mark and --min-samples judge the sort column: with
#   --sort=total, main (total >= 10, self 0) has no '?' and survives
#   --min-samples=10; with the default sort, it is hidden;
# - --percent-limit=P hides every row under P% of the sort column, and the
#   text says so; pct sum takes it too;
# - --sort=total of a profile without stacks is a usage error (exit 2).
. "$(dirname "$0")/lib.sh"
until_g() { "$PCTBIN" record -g -o p.pct "$PROGS/work-full" "$(awk -v s="$1" 'BEGIN { print int(s * 500) }')" >/dev/null 2>rec.err; }
# at least 100 samples: work_b's share (about 20%) is then above 5% with
# a binomial probability of failure far below 1e-4 (mean 20, sd 4)
until_samples 100 p.pct 1 16 until_g
n=$(samples_in p.pct)
col() { awk -F'\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[k] }' "$1"; }
"$PCTBIN" report --format=tsv --sort=total p.pct >tot.tsv || fail "report --sort=total"
"$PCTBIN" report --format=tsv p.pct >self.tsv || fail "report"
col tot.tsv total | awk 'NR > 1 && $1 > prev { bad = 1 } { prev = $1 } END { exit bad }' || fail "--sort=total: totals not in order: $(cat tot.tsv)"
col self.tsv samples | awk 'NR > 1 && $1 > prev { bad = 1 } { prev = $1 } END { exit bad }' || fail "--sort=self: samples not in order"
[ "$(cut -f1-6,8- tot.tsv | sort | md5sum)" = "$(cut -f1-6,8- self.tsv | sort | md5sum)" ] || fail "--sort=total has other rows than --sort=self (cum_percent aside)"
mainrow=$(awk -F'\t' '$NF == "main"' tot.tsv)
[ -n "$mainrow" ] || fail "no main row: $(cat tot.tsv)"
ranks() { col "$1" function | awk -v f="$2" '$0 == f { print NR; exit }'; }
[ "$(ranks tot.tsv main)" -lt "$(ranks tot.tsv work_a)" ] || fail "--sort=total: main after work_a: $(cat tot.tsv)"
[ "$(ranks self.tsv work_a)" = 1 ] || fail "--sort=self: work_a is not first: $(cat self.tsv)"
# text: main's row has no '?' when sorted by total; with --min-samples=10
"$PCTBIN" report --sort=total --min-samples=10 p.pct >tot.txt || fail "report --sort=total --min-samples=10"
grep -E '^. .* main +work-full$' tot.txt >main.txt || fail "--sort=total --min-samples=10 hid main: $(cat tot.txt)"
grep -q '^?' main.txt && fail "--sort=total: main, whose total is its sort column, is marked '?': $(cat main.txt)"
"$PCTBIN" report --min-samples=10 p.pct >self.txt || fail "report --min-samples=10"
grep -qE ' main +work-full$' self.txt && fail "--min-samples=10 by self kept main (0 own samples): $(cat self.txt)"
grep -q 'rows of fewer than 10 samples hidden' self.txt || fail "--min-samples: no note of the hidden rows: $(cat self.txt)"
# --percent-limit: by self, then by total
"$PCTBIN" report --format=tsv --percent-limit=5 p.pct >pl.tsv || fail "--percent-limit=5"
col pl.tsv percent | awk '$1 < 5 { bad = 1 } END { exit bad || NR < 2 }' || fail "--percent-limit=5: a row under 5% or fewer than 2 rows: $(cat pl.tsv)"
[ "$(wc -l <pl.tsv)" -lt "$(wc -l <self.tsv)" ] || fail "--percent-limit=5 hid no row"
"$PCTBIN" report --format=tsv --sort=total --percent-limit=50 p.pct >plt.tsv || fail "--sort=total --percent-limit=50"
col plt.tsv total_percent | awk '$1 < 50 { bad = 1 } END { exit bad }' || fail "--percent-limit by total: $(cat plt.tsv)"
col plt.tsv function | grep -qx main || fail "--sort=total --percent-limit=50 hid main: $(cat plt.tsv)"
"$PCTBIN" report --percent-limit=5 p.pct | grep -q 'rows under 5% hidden' || fail "--percent-limit: no note of the hidden rows"
"$PCTBIN" dump p.pct | "$PCTBIN" sym | "$PCTBIN" sum --by=module,function --format=tsv --percent-limit=5 >sum.tsv || fail "sum --percent-limit"
[ "$(col sum.tsv samples | sort)" = "$(col pl.tsv samples | sort)" ] || fail "sum --percent-limit=5 differs from report's: $(cat sum.tsv)"
for bad in "--percent-limit=101" "--percent-limit=x" "--sort=cum"; do
	"$PCTBIN" report $bad p.pct >/dev/null 2>bad.err; [ $? = 2 ] || fail "report $bad: not exit 2: $(cat bad.err)"
done
sampled f.pct rec.err "$PCTBIN" record -o f.pct "$PROGS/work-full" 200 >/dev/null
[ -s f.pct ] || fail "record without -g: $(cat rec.err)"
"$PCTBIN" report --sort=total f.pct >/dev/null 2>f.err; [ $? = 2 ] && grep -q -- '-g' f.err || fail "--sort=total without stacks: $(cat f.err)"
pass "--sort=total puts main ($mainrow) first of $n samples; '?' and --min-samples judge the sort column; --percent-limit by self and total, in sum too"
