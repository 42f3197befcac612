# The text report fits a terminal: at most 40 columns before the function
# name (percent, its 95% CI, samples [, total%]), C++ names shortened as
# pprof shows them (--full-names for the full ones, TSV always full), -l
# for every column, and names cut to a terminal's width, never in a pipe.
. "$(dirname "$0")/lib.sh"
command -v g++ >/dev/null || skip "no g++"
cat >cxx.cc <<'CC'
#include <map>
#include <string>
#include <utility>
#include <vector>
namespace {
template <typename T> struct Work {
	__attribute__((noinline)) static unsigned long burn(const std::vector<std::pair<int, int>> &v, unsigned long n)
	{
		unsigned long h = 0;
		for (unsigned long i = 0; i < n; i++)
			h = h * 31 + (unsigned long)v[i % v.size()].first + sizeof(T);
		return h;
	}
};
}
struct Less {
	__attribute__((noinline)) bool operator()(unsigned long a, unsigned long b) const
	{
		unsigned long x = a;
		for (int i = 0; i < 2000; i++)
			x = x * 6364136223846793005UL + b;
		return x < a;
	}
};
volatile unsigned long sink;
int main()
{
	std::vector<std::pair<int, int>> v(64, std::make_pair(1, 2));
	auto spin = [](unsigned long n) __attribute__((noinline)) {
		unsigned long x = 1;
		for (unsigned long i = 0; i < n; i++)
			x = x * 2862933555777941757UL + 3037000493UL;
		return x;
	};
	Less less;
	for (int r = 0; r < 40; r++) {
		sink = Work<std::map<std::string, std::vector<std::pair<int, int>>>>::burn(v, 4000000);
		sink = spin(4000000 + (unsigned long)r);
		for (int i = 0; i < 2000; i++)
			sink = less(sink, (unsigned long)i);
	}
	return 0;
}
CC
g++ -O1 -g -o cxx cxx.cc || fail "g++"
"$PCTBIN" record -g -o x.pct ./cxx >/dev/null 2>rec.err || fail "record: $(cat rec.err)"
"$PCTBIN" report x.pct >r.txt 2>/dev/null || fail "report"
"$PCTBIN" report --format=tsv x.pct >r.tsv 2>/dev/null || fail "report tsv"
cat r.txt
# the header: the function column starts at column 41 at the latest, with
# total% (-g) too
hdr=$(grep -m1 ' function' r.txt)
col=$(awk -v h="$hdr" 'BEGIN { print index(h, "function") - 1 }')
[ "$col" -le 40 ] || fail "$col columns before the function name: $hdr"
echo "$hdr" | grep -Eq '^ percent +95% CI +samples +total% +function +module$' || fail "header: $hdr"
# shortened names: the template class, the lambda, the operator
grep -Eq '  \(anonymous namespace\)::Work::burn  +cxx$' r.txt || fail "no short Work::burn row"
grep -Eq '  main::\{lambda#1\}::operator\(\)  +cxx$' r.txt || fail "no short lambda row"
grep -Eq '  Less::operator\(\)  +cxx$' r.txt || fail "no short Less::operator() row"
grep -q 'std::vector<std::pair<int, int>' r.txt && fail "template arguments in the default text report"
# full names: with --full-names, and always in TSV
full='(anonymous namespace)::Work<std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >'
grep -qF "$full" r.tsv || fail "TSV lost the full name: $(grep burn r.tsv)"
"$PCTBIN" report --full-names x.pct 2>/dev/null | grep -qF "$full" || fail "--full-names does not show the full name"
# -l: every column, as before
"$PCTBIN" report -l x.pct 2>/dev/null | grep -Eq '^ +samples +± +percent +± +95% CI +cum% +total +total% +module +function$' ||
	fail "-l header: $("$PCTBIN" report -l x.pct 2>/dev/null | grep samples)"
pass "at most 40 columns before the function, names shortened"

# pct diff: base%, new%, delta, its CI, mde and the verdict before the key
# (59 columns, not 84 as with -l: q is in -l and TSV, '*' marks it), names
# shortened too
"$PCTBIN" diff x.pct x.pct >d.txt 2>/dev/null || fail "diff"
dh=$(grep -m1 ' function$' d.txt)
col=$(awk -v h="$dh" 'BEGIN { print index(h, "function") - 1 }')
[ "$col" -le 59 ] || fail "diff: $col columns before the function: $dh"
grep -Eq '  Less::operator\(\)$' d.txt || fail "diff: no short Less::operator() row: $(cat d.txt)"
"$PCTBIN" diff --full-names x.pct x.pct 2>/dev/null | grep -qF "Less::operator()(unsigned long, unsigned long) const" ||
	fail "diff --full-names"
"$PCTBIN" diff -l x.pct x.pct 2>/dev/null | grep -Eq '^ +base +new +base% +new% +delta +95% CI +p +q +mde +verdict +function$' ||
	fail "diff -l header"
pass "diff: 59 columns before the function, names shortened"

# on a terminal, names are cut to its width with a mark; in a pipe, never
command -v script >/dev/null || skip "no script(1) for a terminal"
# 90 columns when the modules' names are 9 wide (libc.so.6), wider by as much
# as the longest module name is longer (a sample in the dynamic loader,
# ld-linux-x86-64.so.2, under load, widened the module column by 11 and
# cut the name before 'Work<std')
modw=$("$PCTBIN" report --full-names x.pct 2>/dev/null | awk '!/^#/ && NF > 1 && $NF != "module" { if (length($NF) > w) w = length($NF) } END { print w + 0 }')
cols=$((81 + (modw > 9 ? modw : 9)))
script -qc "stty cols $cols; '$PCTBIN' report --full-names x.pct 2>/dev/null" /dev/null | tr -d '\r' >tty.txt
grep -q 'Work<std' tty.txt || fail "no Work row on the terminal of $cols columns: $(cat tty.txt)"
awk -v c="$cols" '!/^#/ && length($0) > c { bad = 1; print } END { exit bad }' tty.txt || fail "rows wider than the terminal's $cols columns"
grep -Eq '  \(anonymous namespace\)::Work<std::[a-z_:<]*…  ' tty.txt ||
	fail "the cut name keeps neither its start nor a mark: $(grep Work tty.txt)"
grep -Eq '…  +cxx$' tty.txt || fail "module column lost on the terminal: $(grep Work tty.txt)"
"$PCTBIN" report --full-names x.pct 2>/dev/null | grep -q '…' && fail "a pipe must never be cut"
COLUMNS=40 "$PCTBIN" report --full-names x.pct 2>/dev/null | grep -qF "$full" || fail "\$COLUMNS must not cut a pipe"
# outside UTF-8 the mark is ASCII
script -qc "stty cols $cols; LC_ALL=C '$PCTBIN' report --full-names x.pct 2>/dev/null" /dev/null | tr -d '\r' >ttyc.txt
grep -q '~  *cxx$' ttyc.txt || fail "no ASCII cut mark in the C locale: $(grep Work ttyc.txt)"
LC_ALL=C grep -q $'\xe2\x80\xa6' ttyc.txt && fail "UTF-8 mark in the C locale"
pass "names cut to the terminal ($cols columns), never in a pipe"
