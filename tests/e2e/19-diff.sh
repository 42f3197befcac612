# pct diff: the seed's worked examples, two builds of one program (one
# function's work halved, or cut by a quarter), and real A/A runs.
# pct-test: plain (its tool calls, pct diff of fresh profiles, are those of e2e 104, 105 and 118, which the sanitized run keeps; the rest is the runtime)
. "$(dirname "$0")/lib.sh"
P=$PCTBIN

# The seed: 4 samples against 1 is not significant; 10 against 40 is.
# The rows are three functions of a real binary (so that they have names),
# at the same period, with an equal bulk in the third.
exe=$PROGS/selftime
off() { nm "$exe" | awk -v f="$1" '$3 == f { print "0x" $1 }'; }
fa=$(off work_a) fb=$(off work_b) fc=$(off work_c)
[ -n "$fa" ] && [ -n "$fb" ] && [ -n "$fc" ] || fail "no work_* symbols in $exe"
row() { printf '%s\t\t%s\t%s\n' "$exe" "$1" "$2"; }
{ printf 'module\tbuild_id\toffset\tsamples\n'; row $fa 4; row $fb 10; row $fc 5000; } | "$PROGS/mkprofile" s1.pct
{ printf 'module\tbuild_id\toffset\tsamples\n'; row $fa 1; row $fb 40; row $fc 5000; } | "$PROGS/mkprofile" s2.pct
# (the text segment of this PIE has offset = address; pct must name the rows)
$P report --format=tsv s1.pct | grep -q $'\twork_a$' || fail "the seed profile's rows are not named: $($P report s1.pct)"
$P diff --format=tsv s1.pct s2.pct >seed.tsv || fail "diff of the seed's examples"
check_row() {  # check_row FUNCTION LOW HIGH SIGNIFICANT LABEL
	awk -F'\t' -v f="$1" -v lo="$2" -v hi="$3" -v sig="$4" -v label="$5" '
		$1 == f { seen = 1; printf "%s: p = %s, significant %s\n", label, $9, $11; ok = ($9 > lo && $9 < hi && $11 == sig) }
		END { exit !(seen && ok) }' seed.tsv || fail "$5: $(cat seed.tsv)"
}
check_row work_a 0.37 0.38 0 "4 vs 1"
check_row work_b 2.38e-5 2.39e-5 1 "10 vs 40"
check_row work_c 0.99 1.01 0 "5000 vs 5000"

# Two builds: work_a's work halved, and cut by a quarter.  Rows match by
# function name although the executables differ.  The level is 0.0001 so
# that the "nothing else" half of the test fails by chance at most 1e-4
# of the time (Holm's adjustment holds every row of a diff to it; at the
# default 0.05 it would fail in about 1 run of 20); work_a's change is
# still found far beyond it: at -F 1000 (perf_event_open's CPU clock),
# 1,400 iterations give about 2,400 samples of work_a against 1,200 or
# 1,800, z of 20 and 9 where Holm's bound over three rows is z = 4.15,
# so that missing the 25% cut has a probability below 1e-6 (at 2,800
# iterations and 250 Hz, 1,000 against 750 gave z = 6, a miss in 1 run
# of 30 by the same arithmetic).
for b in full half fast; do
	"$P" record -F 1000 -o $b.pct "$PROGS/work-$b" 1400 >/dev/null 2>&1 || fail "record work-$b"
done
for b in half fast; do
	$P diff --alpha=0.0001 --format=tsv full.pct $b.pct >$b.tsv || fail "diff full $b"
	flagged=$(awk -F'\t' 'NR > 1 && $11 == 1 { print $1 }' $b.tsv | tr '\n' ' ')
	[ "$flagged" = "work_a " ] || fail "full vs $b flags '$flagged', expected work_a only: $(cat $b.tsv)"
	awk -F'\t' -v b=$b '$1 == "work_a" { seen = 1; printf "work_a, full vs %s: %d -> %d samples, delta %.1f points [%.1f, %.1f], q %s\n", b, $2, $3, $6, $7, $8, $10 }
		END { exit !seen }' $b.tsv || fail "no work_a row"
done
$P diff full.pct half.pct | head -6

# Real A/A: ten pairs of runs of one binary at the default level.  Each
# pair flags something with probability at most 0.05, so 5 or more of 10
# would happen by chance with a probability of 6.4e-5 (binomial); a
# test miscalibrated to flag half of the pairs passes with 0.38.
bad=0
for i in $(seq 10); do
	"$P" record -o a$i.pct "$PROGS/selftime" 0.15 >/dev/null 2>&1
	"$P" record -o b$i.pct "$PROGS/selftime" 0.15 >/dev/null 2>&1
	n=$($P diff --format=tsv a$i.pct b$i.pct | awk -F'\t' 'NR > 1 && $11 == 1' | wc -l)
	[ "$n" -gt 0 ] && bad=$((bad + 1))
done
echo "A/A: $bad of 10 pairs flagged something"
[ $bad -le 4 ] || fail "A/A pairs flagged too often: $bad of 10"
# groups, and the usage errors
$P diff a1.pct a2.pct -- b1.pct b2.pct | head -1 | grep -q '^# base: 2 files' || fail "groups"
$P diff a1.pct 2>/dev/null; [ $? -eq 2 ] || fail "one operand should be a usage error"
$P diff --alpha=2 a1.pct b1.pct 2>/dev/null; [ $? -eq 2 ] || fail "bad alpha: a usage error (2)"
pass "diff"
