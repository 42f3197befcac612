# pct diff is honest when names are missing: a program recorded, then
# rebuilt in place with its hot function changed (no build-id cache keeps
# the old build), leaves the old profile's samples [unknown].  The diff
# then says at the top, and on stderr, which side has how much of its
# samples without a name (over 5%), and no [unknown] row is marked
# significant, whatever its change.  Two fully named profiles get no such
# warning.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip "no C compiler"
export XDG_CACHE_HOME=$SCRATCH/cache PCT_CACHE=0
unset DEBUGINFOD_URLS
mkdir -p "$XDG_CACHE_HOME"

cat >prog.c <<'EOF'
#include <time.h>
static volatile unsigned long sink;
static long cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}
/* each spins for its milliseconds of CPU */
__attribute__((noinline)) static void steady(void)
{
	long end = cpu_ns() + 300 * 1000000L;
	while (cpu_ns() < end)
		for (int i = 0; i < 2000000; i++)
			sink += (unsigned long)i * 3;
}
__attribute__((noinline)) static void hot(void)
{
	long end = cpu_ns() + HOT_MS * 1000000L;
	while (cpu_ns() < end)
		for (int i = 0; i < 2000000; i++)
			sink ^= (unsigned long)i * 5;
}
int main(void) { steady(); hot(); return 0; }
EOF
cc -O1 -DHOT_MS=500 -o prog prog.c || fail "cc"
"$PCTBIN" record -o old.pct ./prog >/dev/null 2>&1 || fail "record the first build"
cc -O1 -DHOT_MS=250 -o prog prog.c || fail "cc (rebuild)"
"$PCTBIN" record -o new.pct ./prog >/dev/null 2>&1 || fail "record the second build"
"$PCTBIN" record -o new2.pct ./prog >/dev/null 2>&1 || fail "record the second build again"

# the old profile lost its names: most samples [unknown]
"$PCTBIN" report --format=tsv old.pct >old.tsv 2>/dev/null || fail "report old.pct"
unk=$(share_of old.tsv function '[unknown]')
awk -v u="$unk" 'BEGIN { exit !(u > 50) }' || fail "the rebuilt program's old profile has only $unk% [unknown]: $(cat old.tsv)"

"$PCTBIN" diff old.pct new.pct >diff.txt 2>diff.err || fail "diff old new: $(cat diff.err)"
cat diff.txt
# the warning is the report's first line, names the side and the share
head -1 diff.txt | grep -qE "^# warning: [0-9.]+% of the base side's samples have no name" ||
	fail "no warning at the top of the diff: $(head -3 diff.txt)"
shown=$(head -1 diff.txt | sed -n 's/^# warning: \([0-9.]*\)%.*/\1/p')
awk -v s="$shown" -v u="$unk" 'BEGIN { d = s - u; exit !(d < 0.2 && d > -0.2) }' ||
	fail "the warning says $shown%, the report $unk% [unknown]"
grep -q "warning: diff: $shown% of the base side's samples have no name" diff.err || fail "no warning on stderr: $(cat diff.err)"
grep -q "new side" diff.txt diff.err && fail "the new side, fully named, is warned about: $(cat diff.err)"
# no [unknown] row is marked significant, in text or TSV
grep -E '^\*.*\[unknown\]' diff.txt && fail "an [unknown] row is marked significant"
"$PCTBIN" diff --format=tsv old.pct new.pct >diff.tsv 2>/dev/null || fail "diff --format=tsv"
awk -F'\t' 'NR > 1 && $1 == "[unknown]" { seen = 1; if ($11 != 0 || $10 != "NA") bad = 1 }
	END { exit !(seen && !bad) }' diff.tsv || fail "the [unknown] row in TSV: $(cat diff.tsv)"
# the named rows are still tested: hot has a q
awk -F'\t' 'NR > 1 && $1 == "hot" && $10 != "NA" && $10 <= 1 { ok = 1 } END { exit !ok }' diff.tsv ||
	fail "hot not tested: $(cat diff.tsv)"
echo "old vs new: $shown% of the base unnamed, warned; [unknown] row: $(awk -F'\t' '$1 == "[unknown]" { print $2 " -> " $3 " samples, q " $10 ", significant " $11 }' diff.tsv)"

# two fully named profiles: no warning
"$PCTBIN" diff new.pct new2.pct >named.txt 2>named.err || fail "diff new new2: $(cat named.err)"
grep -q 'no name' named.txt named.err && fail "a warning for two named profiles: $(head -3 named.txt) $(cat named.err)"
"$PCTBIN" diff --format=tsv new.pct new2.pct >named.tsv 2>/dev/null || fail "diff --format=tsv new new2"
u2=$(awk -F'\t' 'NR > 1 && $1 == "[unknown]" { n += $2 } NR > 1 { t += $2 } END { printf "%.2f", t ? 100 * n / t : 0 }' named.tsv)
echo "new vs new2: $u2% of the base unnamed, no warning"
pass "diff warns of the share without names, tests no [unknown] row"
