# A compiler, pct -g against perf record --call-graph=dwarf (issue 34,
# item 7): gcc -O2 compiling a generated file of 400 functions, whose cc1
# (a child of the driver, stripped: its functions named by .eh_frame) does
# the work.  The share of cc1's stacks that reach _start matches perf's
# within 2 points, and the callers of its hottest functions agree with
# perf's (chi-square).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/e2e/perfstacks.sh"
for t in gcc perf; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh)"; done
cc1=$(gcc -print-prog-name=cc1)
[ -x "$cc1" ] || fail "no cc1 ($cc1)"
for i in $(seq 1 400); do
	echo "int f$i(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { s += a[i] * $i; if (s > $i) s ^= a[(i + $i) % n]; }"
	echo "  for (int j = 0; j < n; j += 2) s += a[j] << (j % 5); return s + f$((i > 1 ? i - 1 : 1))(a, n / 2); }"
done >gen.c
perf_record c.data gcc -O2 -c gen.c -o perf.o || fail "perf record"
pct_record c.pct gcc -O2 -c gen.c -o pct.o || fail "pct record"
cmp -s perf.o pct.o || fail "gcc's output differs under pct and perf"
# the tree's file holds gcc, cc1 and as: cc1's samples on both sides
"$PCTBIN" report --by=process c.pct | grep -q ' cc1 ' || fail "no cc1 in the profile: $("$PCTBIN" report --by=process c.pct)"
perf_stacks c.data perf.stk cc1 || fail "perf script"
pct_stacks c.pct pct.stk cc1 || fail "pct export"
bad=0
compare_rooted pct.stk perf.stk || bad=1
compare_callers pct.stk perf.stk 4 || bad=1
[ $bad = 0 ] || fail "cc1's stacks differ from perf's"
pass "gcc's cc1: rooted share and callers as perf's"
