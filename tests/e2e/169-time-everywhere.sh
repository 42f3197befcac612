# --time=START..END on timeline, dump, merge and top (issue 36, item 3),
# as report has it (e2e 110): a program runs phase_a for its first second
# of wall-clock time, then phase_b.  For ..1 and 1.., each command counts
# the samples `pct report --time` counts: dump's rows, timeline's TSV
# (whose buckets all start inside the range), a merge of the range
# (report of it: the same rows as report --time) and top's snapshot of a
# file (its interval and run counts).  A bad range is a usage error (exit
# 2) whose message echoes the argument, and merge then writes nothing.
. "$(dirname "$0")/lib.sh"
cp "$PROGS/phases" phases || fail "no $PROGS/phases"
# rows FILE.tsv: samples, module and function of each row, sorted
rows() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["samples"] "\t" $c["module"] "\t" $c["function"] }' "$1" | sort; }
tsv_samples() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n += $c["samples"] } END { print n + 0 }' "$1"; }
# a second of wall-clock time has fewer samples on a loaded machine:
# recorded again, three times at most, while a slice holds fewer than 10
for try in 1 2 3; do
	"$PCTBIN" record -o p.pct ./phases 2>rec.err || fail "record: $(cat rec.err)"
	"$PCTBIN" report --format=tsv --time=..1 p.pct >r1.tsv && "$PCTBIN" report --format=tsv --time=1.. p.pct >r2.tsv || fail "report --time"
	[ "$(tsv_samples r1.tsv)" -ge 10 ] && [ "$(tsv_samples r2.tsv)" -ge 10 ] && break
	echo "slices of $(tsv_samples r1.tsv) and $(tsv_samples r2.tsv) samples: again"
done
"$PCTBIN" report --format=tsv p.pct >all.tsv || fail "report"
n=$(tsv_samples all.tsv) n1=$(tsv_samples r1.tsv) n2=$(tsv_samples r2.tsv)
[ "$n1" -ge 10 ] && [ "$n2" -ge 10 ] && [ $((n1 + n2)) = "$n" ] || fail "report's slices: $n1 + $n2 of $n"
i=0
for r in ..1 1..; do
	i=$((i + 1)); want=$(tsv_samples r$i.tsv)
	# dump
	"$PCTBIN" dump --time=$r p.pct >d$i.tsv 2>d.err || fail "dump --time=$r: $(cat d.err)"
	got=$(grep -v '^#' d$i.tsv | tsv_samples /dev/stdin)
	[ "$got" = "$want" ] || fail "dump --time=$r: $got samples, report --time: $want"
	grep -q "^#pct slice_from_ns=" d$i.tsv || fail "dump --time=$r: no slice line"
	# timeline's TSV: the same count, every bucket in the range
	"$PCTBIN" timeline --format=tsv --time=$r p.pct >t$i.tsv 2>t.err || fail "timeline --time=$r: $(cat t.err)"
	got=$(tsv_samples t$i.tsv)
	[ "$got" = "$want" ] || fail "timeline --time=$r: $got samples, report --time: $want"
	awk -F'\t' -v r=$r 'NR > 1 && $6 > 0 && ((r == "..1" && $1 >= 1) || (r == "1.." && $1 < 1)) { bad++ } END { exit bad > 0 }' t$i.tsv ||
		fail "timeline --time=$r: buckets outside the range: $(cat t$i.tsv)"
	"$PCTBIN" timeline --time=$r p.pct >/dev/null 2>t.err || fail "timeline --time=$r (text): $(cat t.err)"
	# merge of the range: report of it has report --time's rows
	"$PCTBIN" merge --time=$r -o m$i.pct p.pct 2>m.err || fail "merge --time=$r: $(cat m.err)"
	"$PCTBIN" report --format=tsv m$i.pct >mr$i.tsv || fail "report of merge --time=$r"
	rows r$i.tsv >want.rows; rows mr$i.tsv >got.rows
	cmp -s want.rows got.rows || fail "merge --time=$r: other rows than report --time: $(diff want.rows got.rows | head)"
	# top's snapshot of the file
	"$PCTBIN" top --time=$r p.pct >top$i.txt 2>top.err || fail "top --time=$r: $(cat top.err)"
	grep -q "all functions: $want samples in the interval, $want in the run" top$i.txt ||
		fail "top --time=$r: not $want samples: $(head -5 top$i.txt)"
done
# each slice's own phase on top in top (phase_a in ..1, phase_b in 1..):
# the samples of the other phase in a slice are the few at its edge
# (e2e 110 asserts 95%); the first function row is the slice's phase
[ "$(awk '/FUNCTION/ { getline; print $5; exit }' top1.txt)" = phase_a ] || fail "top --time=..1: phase_a is not first: $(cat top1.txt)"
[ "$(awk '/FUNCTION/ { getline; print $5; exit }' top2.txt)" = phase_b ] || fail "top --time=1..: phase_b is not first: $(cat top2.txt)"
# bad ranges: exit 2, the argument echoed; merge writes no file
for c in "timeline" "dump" "merge -o bad.pct" "top"; do
	"$PCTBIN" $c --time=2..1 p.pct >/dev/null 2>bad.err
	rc=$?
	[ $rc = 2 ] || fail "$c --time=2..1: exit $rc, want 2: $(cat bad.err)"
	grep -qF -- "--time=2..1: bad time range" bad.err || fail "$c --time=2..1: the argument is not echoed: $(cat bad.err)"
done
[ ! -e bad.pct ] || fail "merge with a bad --time wrote bad.pct"
pass "--time on dump, timeline, merge and top counts report --time's samples ($n1 in ..1, $n2 in 1.., of $n); bad ranges exit 2 and echo the argument"
