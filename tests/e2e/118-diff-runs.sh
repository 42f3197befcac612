# pct diff over several runs a side (issue 20): a C program with three
# functions, built twice, the new build doing 50% more work in one of
# them (grow).  Five runs of each build, and five more of the base
# build.  -b BASE... NEW... uses the between-run test, and:
#  - base against new: --check exits 1 and names grow, only grow;
#  - base against base (A/A): --check exits 0, every row is unchanged or
#    unresolved, never slower or faster;
#  - --format=tsv has the verdict and mde columns, and grow's verdict is
#    slower there too; the text report states the test it used;
#  - a file that pct merge wrote of the 5 runs serves as them: with -b,
#    and as BASE NEW, the report is the one of the runs' own files;
#  - with two runs a side the report says only within-run noise is
#    accounted for.
#  (the verdicts at --alpha=0.0001: an A/A row is called slower or faster
#  by chance with a probability of at most 1e-4, Holm over the rows; at
#  the default 0.05, in about 1 run of 20.  Each run is about 0.4 s of CPU
#  at -F 8000: some 3,000 samples, as 90 iterations at -F 4000 gave.  With
#  25% more work grow's q was 4.8e-6 to 7.4e-5 in 6 runs, too near 1e-4;
#  with 50%, +10 points, its t is about twice as large)
. "$(dirname "$0")/lib.sh"
cat >prog.c <<'C'
static volatile double sink;
#define LOOP(n, f) do { double s = 0; for (long i = 0; i < (n); i++) s += i * (f); sink = s; } while (0)
__attribute__((noinline)) void grow(void) { LOOP(4000000L * WORK / 100, 0.5); }
__attribute__((noinline)) void steady(void) { LOOP(3000000L, 0.25); }
__attribute__((noinline)) void small(void) { LOOP(1000000L, 0.125); }
int main(void) { for (int k = 0; k < 45; k++) { grow(); steady(); small(); } return 0; }
C
cc -O1 -g -fno-inline -DWORK=100 -o base prog.c || fail "cc base"
cc -O1 -g -fno-inline -DWORK=150 -o new prog.c || fail "cc new"
for i in 1 2 3 4 5; do
	"$PCTBIN" record -F 8000 -o a$i.pct ./base 2>>rec.err || fail "record base: $(tail -2 rec.err)"
	"$PCTBIN" record -F 8000 -o b$i.pct ./new 2>>rec.err || fail "record new: $(tail -2 rec.err)"
	"$PCTBIN" record -F 8000 -o c$i.pct ./base 2>>rec.err || fail "record base: $(tail -2 rec.err)"
done
"$PCTBIN" report a1.pct | head -8
base=(-b a1.pct -b a2.pct -b a3.pct -b a4.pct -b a5.pct)

"$PCTBIN" diff --normalize --alpha=0.0001 "${base[@]}" b1.pct b2.pct b3.pct b4.pct b5.pct >diff.txt || fail "diff: exit $?"
cat diff.txt
grep -q 'quasi-Poisson t test over 5 + 5 runs' diff.txt || fail "the report does not state the between-run test"
"$PCTBIN" diff --normalize --alpha=0.0001 --check "${base[@]}" b1.pct b2.pct b3.pct b4.pct b5.pct >check.txt
rc=$?
cat check.txt
[ "$rc" = 1 ] || fail "--check on a 50% slower grow exited $rc, not 1"
grep -q '^pct diff: slower: grow: ' check.txt || fail "--check does not name grow"
[ "$(grep -c '^pct diff: slower: ' check.txt)" = 1 ] || fail "--check names more than grow"

"$PCTBIN" diff --normalize --alpha=0.0001 --format=tsv "${base[@]}" b1.pct b2.pct b3.pct b4.pct b5.pct >diff.tsv || fail "diff tsv"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
		if (!("verdict" in c) || !("mde" in c)) { print "no verdict or mde column"; exit 1 }; next }
	$1 == "grow" { found = 1; if ($c["verdict"] != "slower" || !($c["mde"] > 0)) { print "grow: " $0; exit 1 } }
	END { if (!found) { print "no grow row"; exit 1 } }' diff.tsv || fail "TSV verdict of grow"

"$PCTBIN" diff --normalize --alpha=0.0001 --check "${base[@]}" c1.pct c2.pct c3.pct c4.pct c5.pct >aa.txt
rc=$?
cat aa.txt
[ "$rc" = 0 ] || fail "--check on A/A runs exited $rc, not 0"
"$PCTBIN" diff --normalize --alpha=0.0001 --format=tsv "${base[@]}" c1.pct c2.pct c3.pct c4.pct c5.pct >aa.tsv || fail "diff A/A tsv"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["verdict"] == "slower" || $c["verdict"] == "faster" { print "A/A: " $0; bad = 1 }
	END { exit bad }' aa.tsv || fail "an A/A row has a verdict of change"

# pct merge keeps the runs apart: a merged base serves as its 5 runs,
# and two merged files compare run by run, the same report
"$PCTBIN" merge -o amerged.pct a1.pct a2.pct a3.pct a4.pct a5.pct 2>/dev/null || fail "merge a"
"$PCTBIN" merge -o bmerged.pct b1.pct b2.pct b3.pct b4.pct b5.pct 2>/dev/null || fail "merge b"
"$PCTBIN" diff --normalize --alpha=0.0001 -b amerged.pct b1.pct b2.pct b3.pct b4.pct b5.pct >m1.txt || fail "diff -b merged"
"$PCTBIN" diff --normalize --alpha=0.0001 amerged.pct bmerged.pct >m2.txt || fail "diff of merged files"
sed 1d diff.txt >d0; sed 1d m1.txt >d1; sed 1d m2.txt >d2
cmp -s d0 d1 || fail "diff -b MERGED differs from diff -b of its runs: $(diff d0 d1 | head -5)"
cmp -s d0 d2 || fail "diff MERGED MERGED differs from diff -b of their runs: $(diff d0 d2 | head -5)"
# the same run twice is refused: it would fake agreement between runs
"$PCTBIN" diff --normalize -b a1.pct -b a1.pct -b a2.pct b1.pct b2.pct b3.pct >/dev/null 2>err.txt
rc=$?
[ $rc = 1 ] && grep -q 'are the same run' err.txt || fail "a run given twice: exit $rc, $(cat err.txt)"
# time, 5 runs against 1 of the same build: each side's time per run (a
# sum of 5 runs against 1 would put grow, half the time, at -40 points;
# what remains is the machine's speed from run to run, which this test
# cannot see: the report says so)
"$PCTBIN" diff amerged.pct c1.pct --format=tsv >pooled.tsv || fail "diff merged single"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == "grow" { print "grow: " $c["delta"] " points"; found = 1; if ($c["delta"] < -25 || $c["delta"] > 25) bad = 1 }
	END { exit bad || !found }' pooled.tsv || fail "5 runs against 1 run of the same build: $(grep ^grow pooled.tsv)"
"$PCTBIN" diff amerged.pct c1.pct | grep -q 'only within-run (Poisson) noise is accounted for' ||
	fail "5 runs against 1: no note on within-run noise"
# a merged file whose run numbers have a gap is corrupt (exit 1, named)
cp amerged.pct gap.pct
printf '\004' | dd of=gap.pct bs=1 seek=$((64 + 40 * 3 + 32)) conv=notrunc status=none
"$PCTBIN" report gap.pct >/dev/null 2>err.txt
rc=$?
[ $rc = 1 ] && grep -q "gap.pct': the tree's run 3 has no profile" err.txt || fail "a run gap: report exit $rc, $(cat err.txt)"
"$PCTBIN" diff -b gap.pct b1.pct b2.pct b3.pct >/dev/null 2>err.txt
rc=$?
[ $rc = 1 ] && grep -q "gap.pct': the tree's run 3 has no profile" err.txt || fail "a run gap: diff exit $rc, $(cat err.txt)"
"$PCTBIN" diff --normalize -b a1.pct -b a2.pct b1.pct b2.pct >two.txt || fail "diff of 2 + 2 runs"
grep -q 'only within-run (Poisson) noise is accounted for' two.txt || fail "2 + 2 runs: no note on within-run noise"
"$PCTBIN" diff --normalize -b a1.pct a2.pct -- b1.pct 2>err.txt
[ $? = 2 ] || fail "-b with -- is not a usage error"
"$PCTBIN" diff --normalize --check=later a1.pct b1.pct 2>err.txt
[ $? = 2 ] || fail "--check=later is not a usage error"
pass "runs: --check flags grow only (exit 1), A/A exits 0"
