# Separators in names (issue 15, item 12): a function whose name holds ';'
# (folded stacks' separator) and one whose name holds a tab (TSV's) keep
# their totals, callers and callees.  Folded stacks write the ';' as \x3b,
# TSV and text escape the tab as \x09; self, total, --callers, --callees,
# the folded export and the flame graph agree on every count.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || fail "gcc is missing (scripts/deps.sh installs it)"
command -v python3 >/dev/null || fail "python3 is missing"
cat >sep.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
#define LOOP(n, a) do { unsigned long x = sink; for (long i = 0; i < (n); i++) x = x * (a) + 1442695040888963407u; \
	sink = x; } while (0)
/* names with folded's separator and TSV's, as asm labels; no tail calls (sink++) */
__attribute__((noinline)) static void callee(long n) __asm__("\"sep;callee\"");
__attribute__((noinline)) static void callee(long n) { LOOP(n, 6364136223846793005u); }
__attribute__((noinline)) static void semi(long n) __asm__("\"semi;colon\"");
__attribute__((noinline)) static void semi(long n) { LOOP(n, 2862933555777941757u); callee(2 * n); sink++; }
__attribute__((noinline)) static void tab(long n) __asm__("\"tab\tname\"");
__attribute__((noinline)) static void tab(long n) { LOOP(n, 3202034522624059733u); callee(n); sink++; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	semi(n);
	tab(n);
	return 0;
}
C
gcc -O2 -g -fomit-frame-pointer -fno-ipa-icf -o sep sep.c || fail "gcc"
nm sep | grep -q $'semi;colon$' && nm sep | grep -q $'tab\tname$' || fail "the names were not made: $(nm sep | cat -A)"
"$PCTBIN" record -g -o s.pct ./sep 250000000 2>err || fail "record -g: $(cat err)"

"$PCTBIN" report --format=tsv s.pct >r.tsv 2>err || fail "report: $(cat err)"
# (names reach awk through the environment: -v would undo their \x escapes)
col() { F=$1 awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["function"] == ENVIRON["F"] { print $k[c] }' r.tsv; }
awk -F'\t' 'NR == 1 { n = NF } NF != n { print "row " NR " has " NF " fields, the header " n; bad = 1 }
	END { exit bad }' r.tsv || fail "a tab in a name splits a TSV row"
semi_self=$(col 'semi;colon' samples) semi_total=$(col 'semi;colon' total)
tab_self=$(col 'tab\x09name' samples) tab_total=$(col 'tab\x09name' total)
callee_total=$(col 'sep;callee' total)
echo "semi;colon self $semi_self total $semi_total; tab\\x09name self $tab_self total $tab_total; sep;callee total $callee_total"
[ "${semi_self:-0}" -ge 30 ] && [ "${tab_self:-0}" -ge 30 ] || fail "too few self samples: $(cat r.tsv)"
[ "${semi_total:-0}" -gt "$semi_self" ] || fail "semi;colon's total $semi_total is not above its self $semi_self"
[ "${tab_total:-0}" -gt "$tab_self" ] || fail "tab\\x09name's total $tab_total is not above its self $tab_self"

# callees of each: [self] and sep;callee, summing to the total
"$PCTBIN" report --callees='semi;colon' --format=tsv s.pct >ce.tsv || fail "--callees=semi;colon"
"$PCTBIN" report --callees=$'tab\tname' --format=tsv s.pct >te.tsv || fail "--callees=tab<TAB>name"
"$PCTBIN" report --callers='sep;callee' --format=tsv s.pct >cr.tsv || fail "--callers=sep;callee"
row() { F=$2 awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$NF == ENVIRON["F"] { print $c["samples"] }' "$1"; }
sum() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { t += $c["samples"] } END { print t + 0 }' "$1"; }
[ "$(row ce.tsv '[self]')" = "$semi_self" ] && [ "$(sum ce.tsv)" = "$semi_total" ] ||
	fail "callees of semi;colon disagree with self $semi_self, total $semi_total: $(cat ce.tsv)"
[ "$(row te.tsv '[self]')" = "$tab_self" ] && [ "$(sum te.tsv)" = "$tab_total" ] ||
	fail "callees of tab\\x09name disagree with self $tab_self, total $tab_total: $(cat te.tsv)"
[ "$(row cr.tsv 'semi;colon')" = "$(row ce.tsv 'sep;callee')" ] &&
	[ "$(row cr.tsv 'tab\x09name')" = "$(row te.tsv 'sep;callee')" ] && [ "$(sum cr.tsv)" = "$callee_total" ] ||
	fail "callers of sep;callee disagree: $(cat cr.tsv)"

# folded: the ';' of a name is \x3b, so each frame is a whole name
"$PCTBIN" export --format=folded -o s.folded s.pct || fail "export folded"
grep -q 'semi;colon' s.folded && fail "a raw ';' inside a name in the folded stacks: $(grep 'semi;colon' s.folded)"
folded_total() { F=$1 awk '{ f = ENVIRON["F"]; n = $NF; $NF = ""; sub(/ $/, ""); k = split($0, fr, ";")
	for (i = 1; i <= k; i++) if (fr[i] == f) { t += n; break } } END { print t + 0 }' s.folded; }
[ "$(folded_total 'semi\x3bcolon')" = "$semi_total" ] || fail "folded: semi\\x3bcolon holds $(folded_total 'semi\x3bcolon'), the total is $semi_total"
[ "$(folded_total 'tab\x09name')" = "$tab_total" ] || fail "folded: tab\\x09name holds $(folded_total 'tab\x09name'), the total is $tab_total"

# flame: the boxes of each function hold its total
"$PCTBIN" flame -o s.svg s.pct || fail "flame"
flame_total() { python3 - "$1" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
t = 0
for g in ET.parse("s.svg").getroot().iter("{http://www.w3.org/2000/svg}g"):
    title = g.find("s:title", ns).text
    m = re.fullmatch(r"(.*) \((\d+) samples, .*\)", title, re.S)
    if m and m.group(1) == sys.argv[1]:
        t += int(m.group(2))
print(t)
PY
}
[ "$(flame_total 'semi;colon')" = "$semi_total" ] || fail "flame: semi;colon holds $(flame_total 'semi;colon'), the total is $semi_total"
[ "$(flame_total 'tab\x09name')" = "$tab_total" ] || fail "flame: tab\\x09name holds $(flame_total 'tab\x09name'), the total is $tab_total"
pass "names with ';' and a tab: self, total, callers, callees, folded and flame agree"
