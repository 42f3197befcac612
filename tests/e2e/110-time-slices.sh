# Time slices (issue 18): a program runs function phase_a for its first
# second of wall-clock time, then phase_b for the next.  `--time=..1`
# shows at least 95% phase_a and `--time=1..` at least 95% phase_b, in
# report, annotate, source, diff, export and flame; the samples of the two
# slices add up to the whole.  With a tick log of 1 KiB (PCT_TIME_AREA=1,
# 64 ticks), the samples after it filled are counted per second
# (buckets) and a slice says how many it leaves out.  A version 2 file,
# a bad range, a process killed with SIGKILL (every tick before the kill
# is kept) and a process tree are handled.
. "$(dirname "$0")/lib.sh"
cp "$PROGS/phases" phases || fail "no $PROGS/phases"
# samples FILE.tsv: the samples of a report
samples() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n += $c["samples"] } END { print n + 0 }' "$1"; }
# each phase is a second of wall-clock time, so a loaded machine gives it
# fewer samples (CPU time): recorded again, three times at most, while a
# slice holds fewer than 40
for try in 1 2 3; do
	"$PCTBIN" record -o p.pct ./phases 2>rec.err || fail "record: $(cat rec.err)"
	"$PCTBIN" report --format=tsv p.pct >all.tsv || fail "report"
	"$PCTBIN" report --format=tsv --time=..1 p.pct >first.tsv 2>first.err || fail "report --time=..1: $(cat first.err)"
	"$PCTBIN" report --format=tsv --time=1.. p.pct >second.tsv 2>second.err || fail "report --time=1..: $(cat second.err)"
	na=$(samples first.tsv) nb=$(samples second.tsv) n=$(samples all.tsv)
	[ "$na" -ge 40 ] && [ "$nb" -ge 40 ] && break
	echo "slices of $na and $nb samples, fewer than 40: again"
done
a=$(share_of first.tsv function phase_a)
b=$(share_of second.tsv function phase_b)
echo "first second: phase_a $a% of $na samples; second: phase_b $b% of $nb; whole: $n"
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a >= 95 && b >= 95) }' || fail "slices: phase_a $a% in ..1, phase_b $b% in 1..: $(cat first.tsv second.tsv)"
[ "$na" -ge 40 ] && [ "$nb" -ge 40 ] || fail "too few samples in a slice after 3 runs: $na, $nb"
[ $((na + nb)) -eq "$n" ] || fail "the slices hold $na + $nb samples, the whole $n"
[ ! -s first.err ] && [ ! -s second.err ] || fail "a slice warned: $(cat first.err second.err)"

# record leaves the compacted profile (the unused tick log gone), with
# the runtime's modes: 0644, 0600 with call stacks
size=$(stat -c %s p.pct)
[ "$size" -lt 1048576 ] || fail "record's profile is $size bytes, not compacted"
[ "$(stat -c %a p.pct)" = 644 ] || fail "record's profile has mode $(stat -c %a p.pct)"
(umask 077; "$PCTBIN" record -o u.pct ./phases 2>/dev/null) || fail "record under umask 077"
[ "$(stat -c %a u.pct)" = 600 ] || fail "under umask 077 record's profile has mode $(stat -c %a u.pct)"

# the text report says it is a slice
"$PCTBIN" report --time=0.5..1.25 p.pct | grep -qx '# --time: only the samples taken from 0.500 s to 1.250 s after the start' ||
	fail "the report of a slice does not say so: $("$PCTBIN" report --time=0.5..1.25 p.pct | head -4)"
"$PCTBIN" report --time=1.. p.pct | grep -qx '# --time: only the samples taken from 1.000 s after the start to the end' ||
	fail "the report of an open slice does not say so"
"$PCTBIN" report p.pct | grep -q -- '--time' && fail "a whole report speaks of --time"

# the same option on every command that reads samples
"$PCTBIN" annotate --time=1.. -n 1 p.pct >ann.txt || fail "annotate --time"
head -1 ann.txt | grep -q '^# phase_b ' || fail "annotate --time=1.. does not start with phase_b: $(head -3 ann.txt)"
"$PCTBIN" source --time=..1 -n 1 p.pct >src.txt || fail "source --time"
# the hot line is phase_a's; phase_b's line has no samples (only its number)
grep -q '=>.*sink += i' src.txt && grep 'sink ^= i' src.txt | grep -Eq '^ +[0-9]+  ' ||
	fail "source --time=..1 is not phase_a's: $(cat src.txt)"
"$PCTBIN" record -g -o pg.pct ./phases 2>rec.err || fail "record -g: $(cat rec.err)"
[ "$(stat -c %a pg.pct)" = 600 ] || fail "record -g's profile has mode $(stat -c %a pg.pct), not 600"
"$PCTBIN" export --format=folded --time=..1 pg.pct >f1.txt || fail "export --time"
awk '{ n += $NF; if ($0 ~ /phase_a/) a += $NF } END { exit !(n > 0 && a / n >= 0.95) }' f1.txt ||
	fail "export --time=..1 is not mostly phase_a: $(cat f1.txt)"
"$PCTBIN" flame --time=1.. -o fl.svg pg.pct || fail "flame --time"
# (main starts a little after sampling does, so phase_a may reach past 1 s
# by that much: a frame of a few samples at most)
fb=$(sed -n 's/.*<title>phase_b (\([0-9.]*\) samples, \([0-9.]*\)%).*/\2/p' fl.svg | head -1)
fa=$(sed -n 's/.*<title>phase_a (\([0-9.]*\) samples, \([0-9.]*\)%).*/\2/p' fl.svg | head -1)
awk -v a="${fa:-0}" -v b="${fb:-0}" 'BEGIN { exit !(b >= 95 && a <= 5) }' || fail "flame --time=1..: phase_b ${fb:-none}%, phase_a ${fa:-none}%"
"$PCTBIN" diff --format=tsv --time=..1 p.pct p.pct >d.tsv || fail "diff --time"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "phase_b" && $c["base_samples"] > 0 { bad = 1 } END { exit bad }' d.tsv ||
	fail "diff --time=..1 counts phase_b: $(cat d.tsv)"

# bad ranges: usage errors
for r in 1 abc 2..1 1..1 -1..2 ..x; do
	"$PCTBIN" report --time="$r" p.pct >/dev/null 2>bad.err
	[ $? -eq 2 ] || fail "--time=$r does not exit 2: $(cat bad.err)"
	grep -q 'bad time range' bad.err || fail "--time=$r: $(cat bad.err)"
	grep -qF -- "--time=$r: " bad.err || fail "--time=$r: the message does not echo the argument: $(cat bad.err)"
done

# a version 2 file (no time): the report works, --time names the file and exits 1
cp p.pct v2.pct
printf '\002' | dd of=v2.pct bs=1 seek=8 conv=notrunc status=none
"$PCTBIN" report --format=tsv v2.pct >v2.tsv || fail "report of a version 2 file"
[ "$(samples v2.tsv)" -eq "$n" ] || fail "version 2 file: $(samples v2.tsv) samples, not $n"
"$PCTBIN" report --time=..1 v2.pct >/dev/null 2>v2.err
[ $? -eq 1 ] && grep -q "v2.pct.*no sample times" v2.err || fail "--time on a version 2 file: $(cat v2.err)"

# SIGKILL: every tick logged before the kill is in the file
PCT="$PWD/k.pct" LD_PRELOAD="$LIBPCT" ./phases &
pid=$!
sleep 1.6
kill -9 "$pid"
wait "$pid" 2>/dev/null
"$PCTBIN" report --format=tsv k.pct >k.tsv || fail "report of the killed program"
"$PCTBIN" report --format=tsv --time=.. k.pct >kall.tsv || fail "report --time=.. of the killed program"
"$PCTBIN" report --format=tsv --time=..1 k.pct >k1.tsv || fail "report --time=..1 of the killed program"
"$PCTBIN" report --format=tsv --time=1.. k.pct >k2.tsv || fail "report --time=1.. of the killed program"
ka=$(share_of k1.tsv function phase_a) kn=$(samples k.tsv)
kb=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["function"] == "phase_b" { n += $c["samples"] } END { print n + 0 }' k2.tsv)
echo "killed at 1.6 s: $kn samples, all timed: $(samples kall.tsv); phase_a $ka% of ..1; phase_b $kb samples in 1.."
[ "$(samples kall.tsv)" -eq "$kn" ] && [ "$kn" -gt 0 ] || fail "killed: $(samples kall.tsv) of $kn samples have their time"
awk -v a="$ka" 'BEGIN { exit !(a >= 95) }' && [ "$kb" -ge 10 ] || fail "killed: phase_a $ka% in ..1, phase_b $kb samples in 1..: $(cat k1.tsv k2.tsv)"

# a full tick log: the rest is counted per second, and a slice says so.
# The log (64 ticks) must fill in phase_a and phase_b hold 40 coarse
# samples: a loaded machine gives a second of wall-clock time fewer
# signals (CPU time, and a signal for several periods), so the phases are
# made longer, 2 and 4 s, until it has them (no note once: 1 s phases
# beside a loaded suite)
for len in 1 2 4; do
	PCT_TIME_AREA=1 "$PCTBIN" record -o small.pct ./phases $len 2>rec.err || fail "record small: $(cat rec.err)"
	"$PCTBIN" report --format=tsv --time=$len.. small.pct >small.tsv 2>small.err || fail "report small"
	nc=$(sed -n 's/^pct: warning: \([0-9]*\) samples in the time range.*/\1/p' small.err)
	grep -q 'samples in the time range are known only to the second' small.err && [ "${nc:-0}" -ge 40 ] && break
	[ $len = 4 ] || echo "full tick log: ${nc:-no} coarse samples in $len.. of phases of $len s: again, longer"
done
grep -q 'samples in the time range are known only to the second' small.err || fail "no note of coarse samples: $(cat small.err)"
[ "${nc:-0}" -ge 40 ] || fail "only ${nc:-0} coarse samples in $len..: $(cat small.err)"

# a process tree: two runs one after the other, timed from the start of
# the tree (sh); the third second is the second run's phase_a, the fourth
# its phase_b.  Each program starts a little after the one before it
# ended (fork, exec, the loader: 30-40 ms each under load, measured), so
# the slices leave 0.3 s at their start.
"$PCTBIN" record -o tree.pct sh -c './phases; ./phases' 2>rec.err || fail "record tree: $(cat rec.err)"
"$PCTBIN" report --format=tsv --time=3.3.. tree.pct >t3.tsv || fail "report tree --time=3.3.."
"$PCTBIN" report --format=tsv --time=2.3..3 tree.pct >t2.tsv || fail "report tree --time=2.3..3"
b3=$(share_of t3.tsv function phase_b) a2=$(share_of t2.tsv function phase_a)
echo "tree: phase_b $b3% of 3.3..; phase_a $a2% of 2.3..3"
awk -v a="$a2" -v b="$b3" 'BEGIN { exit !(a >= 90 && b >= 90) }' || fail "tree slices: $(cat t2.tsv t3.tsv)"
pass "phase_a $a% of ..1, phase_b $b% of 1..; slices add up; every command slices; v2, bad ranges, coarse samples ($nc), a tree"
