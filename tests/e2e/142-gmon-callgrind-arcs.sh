# Call graphs in gprof and callgrind (issue 34, item 4): the gmon export of
# a -g profile writes the stacks' call arcs (GMON_TAG_CG_ARC records), so
# that gprof prints a call graph, and callgrind's calls= lines count each
# stack once per arc; both give every caller of a function the samples
# `pct report --callers` gives it, and a recursion's arc counts each stack
# once (pct-export(1): those numbers are samples through the call, not
# calls).  gprof's propagated times are then the
# executable's samples under each function.  Before: gprof said "gmon.out
# file is missing call-graph data", and callgrind counted rec -> rec once
# per level of the recursion.
#   main -> via_a -> inner (2 units), via_a itself (1), main -> via_b -> inner (4)
. "$(dirname "$0")/lib.sh"
for t in gprof callgrind_annotate; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh)"; done
prog=$PROGS/callchain
"$PCTBIN" record -g -o cc.pct "$prog" 0.15 >truth.tsv 2>rec.err || fail "record -g: $(cat rec.err)"
# --callers of each function: "function caller samples"
for f in inner via_a via_b; do
	"$PCTBIN" report --callers=$f --format=tsv cc.pct |
		awk -F'\t' -v f=$f 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print f, $c["caller"], $c["samples"] }'
done | sort >callers.txt
echo "pct report --callers:"; cat callers.txt
[ "$(awk '$1 == "inner" && ($2 == "via_a" || $2 == "via_b") && $3 >= 30' callers.txt | wc -l)" = 2 ] ||
	fail "inner's callers are not via_a and via_b: $(cat callers.txt)"

# gprof: the parents' counts "N/M" in the call graph
"$PCTBIN" export --format=gmon -o gmon.out cc.pct 2>gmon.err || fail "export gmon: $(cat gmon.err)"
gprof -b "$prog" gmon.out >gprof.txt 2>gprof.err || fail "gprof: $(cat gprof.err)"
grep -qi 'missing call-graph' gprof.txt gprof.err && fail "gprof: $(cat gprof.err; grep -i missing gprof.txt)"
awk '/^-----/ { n = 0; next }
	/^\[[0-9]+\]/ { for (i = 0; i < n; i++) print fn_of($0), line[i]; n = -1; next }
	n >= 0 && /\/[0-9]+ +[A-Za-z_]/ { line[n++] = $0 }
	function fn_of(s,  a) { split(s, a, " "); return a[6] }' gprof.txt |
	awk '{ split($4, c, "/"); print $1, $5, c[1] }' | sort >gprof-callers.txt
echo "gprof's call graph (function parent count):"; cat gprof-callers.txt
for f in inner via_a via_b; do
	want=$(awk -v f=$f '$1 == f && $2 != "[root]"' callers.txt)
	got=$(awk -v f=$f '$1 == f' gprof-callers.txt)
	[ -n "$want" ] && [ "$want" = "$got" ] || fail "gprof: the callers of $f are '$got', pct report --callers '$want'"
done

# gprof's propagated times: a function's self + children, against the
# executable's samples under it (its stacks whose leaf gprof places: a
# function of callchain, not a PLT stub), at gprof's seconds per sample
spc=$(sed -n 's/^Each sample counts as \([0-9.]*\) seconds.*/\1/p' gprof.txt)
"$PCTBIN" report --format=tsv cc.pct | awk -F'\t' -v exe="$prog" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["module"] == exe && $c["function"] !~ /@plt$/ { print $c["function"] }' >exe-functions.txt
"$PCTBIN" export --format=folded cc.pct >cc.folded || fail "export folded"
for f in main via_a via_b inner; do
	want=$(awk -v f=$f 'NR == FNR { exe[$1] = 1; next }
		{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, fr, ";")
		  if (!(fr[k] in exe)) next
		  for (i = 1; i <= k; i++) if (fr[i] == f) { t += n; break } }
		END { print t + 0 }' exe-functions.txt cc.folded)
	got=$(awk -v f=$f '/^\[[0-9]+\]/ { for (i = 1; i <= NF; i++) if ($i == f) { print $3 + ($4 ~ /^[0-9.]+$/ ? $4 : 0); exit } }' gprof.txt)
	awk -v f=$f -v want="$want" -v got="$got" -v spc="$spc" 'BEGIN {
		w = want * spc; ok = got != "" && (got - w < 0.02 * w + 2 * spc + 0.01 && w - got < 0.02 * w + 2 * spc + 0.01)
		printf "gprof %-6s self+children %.2f s, the executable'"'"'s samples under it %d = %.2f s  %s\n", f, got, want, w, ok ? "ok" : "MISMATCH"
		exit !ok }' || fail "gprof's propagated time of $f"
done

# callgrind: the calls= lines into a function, summed by its caller's fn=
"$PCTBIN" export --format=callgrind -o cc.cg cc.pct 2>/dev/null || fail "export callgrind"
awk '/^fn=/ { id = $1; sub(/^fn=/, "", id); if (NF > 1) name[id] = $2; fn = name[id]; next }
	/^cfn=/ { id = $1; sub(/^cfn=/, "", id); if (NF > 1) name[id] = $2; cfn = name[id]; next }
	/^calls=/ { split($1, c, "="); n[cfn " " fn] += c[2] }
	END { for (k in n) print k, n[k] }' cc.cg | sort >cg-callers.txt
for f in inner via_a via_b; do
	want=$(awk -v f=$f '$1 == f && $2 != "[root]"' callers.txt)
	got=$(awk -v f=$f '$1 == f' cg-callers.txt)
	echo "callgrind calls= into $f: $got"
	[ -n "$want" ] && [ "$want" = "$got" ] || fail "callgrind: the calls into $f are '$got', pct report --callers '$want'"
done
callgrind_annotate --inclusive=yes cc.cg >cga.txt 2>&1 || fail "callgrind_annotate: $(cat cga.txt)"

# a recursion, main -> rec -> rec -> rec -> rec -> leaf: a stack counts once
# for the arc rec -> rec (before: once per level, 3 times), the samples
# `pct report --callees=rec` gives rec's callee rec
cat >rec.c <<'C'
#include "burn.h"
DEFINE_BURN(static, leaf)
static volatile int sink;
__attribute__((noipa)) static void rec(int d, double s)
{
	if (d)
		rec(d - 1, s);
	else
		leaf(s);
	sink++;
}
int main(void)
{
	rec(3, 0.3);
	return 0;
}
C
cc -O2 -g -I"$ROOT/tests/progs" -o rec rec.c || fail "cc rec.c"
"$PCTBIN" record -g -o rec.pct ./rec 2>/dev/null || fail "record -g rec"
want=$("$PCTBIN" report --callees=rec --format=tsv rec.pct | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["callee"] == "rec" { print $c["samples"] }')
"$PCTBIN" export --format=callgrind -o rec.cg rec.pct 2>/dev/null || fail "export callgrind rec"
got=$(awk '/^fn=/ { id = $1; sub(/^fn=/, "", id); if (NF > 1) name[id] = $2; fn = name[id]; next }
	/^cfn=/ { id = $1; sub(/^cfn=/, "", id); if (NF > 1) name[id] = $2; cfn = name[id]; next }
	/^calls=/ && fn == "rec" && cfn == "rec" { split($1, c, "="); n += c[2] } END { print n + 0 }' rec.cg)
echo "recursion: callgrind rec -> rec $got, pct report --callees=rec: rec $want"
[ -n "$want" ] && [ "$want" -ge 30 ] && [ "$got" = "$want" ] || fail "callgrind's rec -> rec is $got, --callees=rec $want"
"$PCTBIN" export --format=gmon -o rec.gmon rec.pct 2>/dev/null || fail "export gmon rec"
got=$(gprof -b -q ./rec rec.gmon | awk '/^\[[0-9]+\]/ && / rec \[/ { split($5, c, "+"); print c[2] + 0; exit }')
echo "recursion: gprof's self-recursive calls of rec $got"
[ "$got" = "$want" ] || fail "gprof's rec calls itself $got times, --callees=rec $want"
pass "gprof's call graph and callgrind's calls= agree with pct report --callers/--callees; gprof's propagated times with the stacks"
