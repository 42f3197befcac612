# Call stacks (record -g) in a program built without frame pointers:
# every stack of the hottest function leads back to main, and the totals,
# callers and callees match what the program measured of itself
# (tests/progs/callchain.c, CLOCK_THREAD_CPUTIME_ID).
. "$(dirname "$0")/lib.sh"
prog=$PROGS/callchain
# no frame pointers: inner never sets up %rbp as a frame pointer
if objdump -d --no-show-raw-insn "$prog" | awk '/<inner>:/,/^$/' | grep -q 'mov *%rsp,%rbp'; then
	fail "callchain was built with frame pointers"
fi
# 0.3 s units, 2.1 s of CPU: 525 samples at 250 Hz; at least 450 (a
# loaded machine loses timer expirations: run longer, up to 1.2 s units)
run() { "$PCTBIN" record -g -o cc.pct "$prog" "$1" >truth.tsv 2>err || fail "record -g: $(cat err)"; }
until_samples 450 cc.pct 0.3 1.2 run
overload_bias cc.pct "$RAN_WALL"   # CPU-time timers
truth() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' truth.tsv; }

# every stack holding inner, the hottest function, reaches main
"$PCTBIN" export --format=folded -o cc.folded cc.pct || fail "export folded"
awk '{ n = $NF; $NF = ""; split($0, f, ";") }
	/(^|;)inner(;| |$)/ { all += n; for (i = 1; i in f; i++) if (f[i] == "main") { ok += n; break } }
	END { printf "stacks through inner: %d samples, %d reach main\n", all, ok; exit !(all >= 200 && ok == all) }' \
	cc.folded || fail "some stacks of inner do not reach main: $(grep inner cc.folded | head -5)"

# self and total per function
"$PCTBIN" report --format=tsv cc.pct >report.tsv || fail "report"
head -1 report.tsv | grep -q $'\ttotal\ttotal_percent\t' || fail "no total columns: $(head -1 report.tsv)"
col() { awk -F'\t' -v f="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["function"] == f { print $k[c] }' report.tsv; }
main_total=$(col main total)
[ "$main_total" -ge 400 ] || fail "main's total is $main_total samples"
all_ns=$(( $(truth via_a) + $(truth via_b) ))
for f in via_a via_b inner; do
	check_share "total $f" "$(col $f total)" "$main_total" "$(truth $f)" "$all_ns" || fail "total of $f"
done
[ "$(col via_b samples)" -le 3 ] || fail "via_b has self samples: $(col via_b samples)"

# callers of inner, callees of via_a
"$PCTBIN" report --callers=inner --format=tsv cc.pct >callers.tsv || fail "--callers"
"$PCTBIN" report --callees via_a --format=tsv cc.pct >callees.tsv || fail "--callees"
row() { awk -F'\t' -v k="$2" 'NR > 1 && $NF == k { print $1 }' "$1"; }
sum() { awk -F'\t' 'NR > 1 { t += $1 } END { print t }' "$1"; }
inner_ns=$(truth inner)
check_share "inner<-via_a" "$(row callers.tsv via_a)" "$(sum callers.tsv)" "$(truth 'inner<-via_a')" "$inner_ns" ||
	fail "callers of inner"
check_share "inner<-via_b" "$(row callers.tsv via_b)" "$(sum callers.tsv)" "$(truth 'inner<-via_b')" "$inner_ns" ||
	fail "callers of inner"
check_share "via_a->[self]" "$(row callees.tsv '[self]')" "$(sum callees.tsv)" "$(truth 'via_a->[self]')" \
	"$(truth via_a)" || fail "callees of via_a"
"$PCTBIN" report --callers=no_such_function cc.pct 2>err && fail "--callers of a missing function succeeded"
grep -q "no stack holds a function named 'no_such_function'" err || fail "unclear error: $(cat err)"
# a profile without stacks says so
"$PCTBIN" record -o flat.pct "$prog" 0.05 >/dev/null 2>&1
"$PCTBIN" report --callers=inner flat.pct 2>err && fail "--callers without stacks succeeded"
grep -q "no call stacks" err || fail "unclear error: $(cat err)"
# names as people read them (issue 15): no symbol version in a name
# (before: __libc_start_main@@GLIBC_2.34), and the public alias of libc's
# functions (before: __clock_gettime for clock_gettime)
"$PCTBIN" report --format=tsv cc.pct >names.tsv || fail "report cc.pct"
fns=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } { print $k["function"] }' names.tsv)
# (a PLT stub is named func@plt, which is no version)
echo "$fns" | grep -v '@plt$' | grep -q '@' && fail "a symbol version in a name: $(echo "$fns" | grep '@')"
echo "$fns" | grep -qx '__libc_start_main' || fail "no __libc_start_main among: $(echo $fns)"
echo "$fns" | grep -q '^__clock_gettime$' && fail "__clock_gettime, not its public alias clock_gettime"
echo "names: $(echo $fns | tr '\n' ' ')"
pass "stacks unwind without frame pointers; totals, callers and callees match the truth"
