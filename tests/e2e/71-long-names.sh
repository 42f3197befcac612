# Long C++ names (issue 15, item 5): two template functions whose demangled
# names are over 60,000 characters and agree on all but their last ones,
# hot and each with a callee, recorded with -g.  Each keeps its own self and
# total (no row with a cut name), and self, total, --callers, --callees, the
# folded export and the flame graph agree on every count, with the names
# as the report prints them.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
command -v g++ >/dev/null || fail "g++ is missing (scripts/deps.sh installs it)"
command -v python3 >/dev/null || fail "python3 is missing"
# T12 = Pair<T11, T11>, ... T0 = Leaf: a short mangled name (substitutions)
# whose demangled form doubles with each level
python3 - <<'PY'
src = ["#include <stdlib.h>", "volatile unsigned long sink;",
       "template <typename A, typename B> struct Pair {};",
       "struct Leaf_of_a_long_name {}; struct EndA {}; struct EndB {};",
       "typedef Leaf_of_a_long_name T0;"]
src += ["typedef Pair<T%d, T%d> T%d;" % (k - 1, k - 1, k) for k in range(1, 13)]
src.append("""
#define LOOP(n, a) do { unsigned long x = sink; for (long i = 0; i < (n); i++) x = x * (a) + 1442695040888963407u; \\
	sink = x; } while (0)
template <typename X> __attribute__((noinline)) void callee(long n) { LOOP(n, 6364136223846793005u); }
/* no tail call: sink++ after it */
template <typename X> __attribute__((noinline)) void hot(long n) { LOOP(n, 2862933555777941757u); callee<X>(2 * n); sink++; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	hot<Pair<T12, EndA> >(n);
	hot<Pair<T12, EndB> >(2 * n);
	return 0;
}""")
open("long.cc", "w").write("\n".join(src) + "\n")
PY
g++ -O2 -g -fomit-frame-pointer -o long long.cc || fail "g++"
"$PCTBIN" record -g -o l.pct ./long 200000000 2>err || fail "record -g: $(cat err)"
"$PCTBIN" report --format=tsv l.pct >r.tsv 2>err || fail "report: $(cat err)"

# the four functions by their whole names, from the report
names() { awk -F'\t' -v p="$1" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	index($k["function"], p) == 1 { print $k["function"] }' r.tsv | sort; }
mapfile -t hots < <(names 'void hot<')
mapfile -t callees < <(names 'void callee<')
[ "${#hots[@]}" = 2 ] && [ "${#callees[@]}" = 2 ] ||
	fail "want two rows of hot and two of callee, got ${#hots[@]} and ${#callees[@]}: $(cut -c1-150 r.tsv)"
for n in "${hots[@]}" "${callees[@]}"; do
	[ "${#n}" -gt 60000 ] || fail "a name of ${#n} characters: ${n:0:100}..."
done
case "${hots[0]}" in *'EndA> >(long)') ;; *) fail "hot<...EndA> is not whole: ...${hots[0]: -60}" ;; esac
case "${hots[1]}" in *'EndB> >(long)') ;; *) fail "hot<...EndB> is not whole: ...${hots[1]: -60}" ;; esac
# no row's function is a cut copy of another's
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } { f[NR] = $k["function"] }
	END { for (a in f) for (b in f) if (a != b && length(f[a]) < length(f[b]) && length(f[a]) >= 100 &&
		index(f[b], f[a]) == 1) { print "a cut name: " substr(f[a], 1, 80); bad = 1 } exit bad }' r.tsv ||
	fail "a row with a cut name"

col() { F=$1 awk -F'\t' -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["function"] == ENVIRON["F"] { print $k[c] }' r.tsv; }
row() { F=$2 awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$NF == ENVIRON["F"] { print $c["samples"] }' "$1"; }
sum() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { t += $c["samples"] } END { print t + 0 }' "$1"; }
"$PCTBIN" export --format=folded -o l.folded l.pct || fail "export folded"
folded_total() { F=$1 awk '{ f = ENVIRON["F"]; n = $NF; $NF = ""; sub(/ $/, ""); k = split($0, fr, ";")
	for (i = 1; i <= k; i++) if (fr[i] == f) { t += n; break } } END { print t + 0 }' l.folded; }
"$PCTBIN" flame -o l.svg l.pct || fail "flame"
flame_total() { F=$1 python3 - <<'PY'
import os, re, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
t = 0
for g in ET.parse("l.svg").getroot().iter(S + "g"):
    m = re.fullmatch(r"(.*) \((\d+) samples, .*\)", g.find(S + "title").text, re.S)
    if m and m.group(1) == os.environ["F"]:
        t += int(m.group(2))
print(t)
PY
}
for i in 0 1; do
	h=${hots[i]} c=${callees[i]}
	hs=$(col "$h" samples) ht=$(col "$h" total) ct=$(col "$c" total) cs=$(col "$c" samples)
	echo "hot $i: self $hs total $ht; its callee: self $cs total $ct"
	[ "${hs:-0}" -ge 20 ] && [ "${cs:-0}" -ge 40 ] || fail "too few samples in hot $i: self $hs, callee $cs"
	[ "$ht" = $((hs + ct)) ] || fail "hot $i: total $ht is not self $hs + its callee's total $ct"
	"$PCTBIN" report --callees="$h" --format=tsv l.pct >ce.tsv || fail "--callees of hot $i"
	[ "$(row ce.tsv '[self]')" = "$hs" ] && [ "$(row ce.tsv "$c")" = "$ct" ] && [ "$(sum ce.tsv)" = "$ht" ] ||
		fail "--callees of hot $i: $(cut -c1-100 ce.tsv)"
	"$PCTBIN" report --callers="$c" --format=tsv l.pct >cr.tsv || fail "--callers of callee $i"
	[ "$(row cr.tsv "$h")" = "$ct" ] && [ "$(sum cr.tsv)" = "$ct" ] || fail "--callers of callee $i: $(cut -c1-100 cr.tsv)"
	[ "$(folded_total "$h")" = "$ht" ] && [ "$(folded_total "$c")" = "$ct" ] ||
		fail "folded: hot $i holds $(folded_total "$h") (total $ht), its callee $(folded_total "$c") (total $ct)"
	[ "$(flame_total "$h")" = "$ht" ] && [ "$(flame_total "$c")" = "$ct" ] ||
		fail "flame: hot $i holds $(flame_total "$h") (total $ht), its callee $(flame_total "$c") (total $ct)"
done
pass "names of ${#hots[0]} characters: self, total, callers, callees, folded and flame agree"
