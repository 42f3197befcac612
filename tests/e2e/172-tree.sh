# pct report --tree[=caller|callee] and --depth (issue 36, item 1), on a
# -g profile of work-full (main calls work_a, work_b, work_c):
# - top-down: the roots' totals add up to the samples with stacks; each
#   node's total is its self plus its children's totals (no stack is cut
#   at full depth); work_a's node under main has work_a's flat self and
#   total; a child is indented further than its parent in text;
# - bottom-up: the roots are the sampled functions, each root's total and
#   self are its flat self, and main is work_a's caller there; a child's
#   total is at most its parent's;
# - --depth=N prints N levels; --percent-limit prunes by total;
# - every share has its 95% interval, around it;
# - --tree=x, --depth without --tree, --tree with --callers: exit 2; a
#   profile without stacks: exit 1.
. "$(dirname "$0")/lib.sh"
rec() { "$PCTBIN" record -g -o p.pct "$PROGS/work-full" "$(awk -v s="$1" 'BEGIN { print int(s * 500) }')" >/dev/null 2>rec.err; }
until_samples 100 p.pct 1 16 rec
"$PCTBIN" report --format=tsv p.pct >flat.tsv || fail "report"
"$PCTBIN" report --tree --format=tsv p.pct >td.tsv || fail "report --tree"
"$PCTBIN" report --tree=caller --format=tsv p.pct >td2.tsv && cmp -s td.tsv td2.tsv || fail "--tree=caller is not --tree"
head -1 td.tsv | grep -qx "$(printf 'node\tparent\tdepth\ttotal\ttotal_percent\ttotal_ci_low\ttotal_ci_high\tself\tself_percent\tself_ci_low\tself_ci_high\tmodule\tfunction')" ||
	fail "--tree TSV columns: $(head -1 td.tsv)"
withstacks=$(sed -n 's/^# total: .* of \([0-9]*\) samples with stacks$/\1/p' <("$PCTBIN" report p.pct))
[ -n "$withstacks" ] || fail "no samples with stacks"
awk -F'\t' -v n="$withstacks" 'NR == 1 { next }
	{ total[$1] = $4; self[$1] = $8; kids[$2] += $4; if ($3 == 0) roots += $4
	  if (!($6 <= $5 && $5 <= $7 && $10 <= $9 && $9 <= $11)) { print "interval not around the share: " $0; bad = 1 } }
	END { if (roots != n) { print "roots " roots " of " n; bad = 1 }
	      for (i in total) if (total[i] != self[i] + kids[i]) { print "node " i ": total " total[i] " != self " self[i] " + children " kids[i]; bad = 1 }
	      exit bad }' td.tsv >td.check || fail "top-down: $(cat td.check)"
flat_of() { awk -F'\t' -v f="$1" -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["function"] == f { print $c[k] }' flat.tsv; }
wa=$(awk -F'\t' 'NR > 1 { fn[$1] = $13 } NR > 1 && $13 == "work_a" && fn[$2] == "main" { print $4 "\t" $8 }' td.tsv)
[ "$wa" = "$(flat_of work_a total)	$(flat_of work_a samples)" ] || fail "work_a under main: total, self '$wa', flat $(flat_of work_a total), $(flat_of work_a samples)"
"$PCTBIN" report --tree p.pct >td.txt || fail "report --tree (text)"
ind() { grep -E " $1  work-full\$" td.txt | head -1 | sed 's/^.*\] *//' | awk -v l="$(grep -E " $1  work-full\$" td.txt | head -1)" '{ print index(l, $0) }'; }
[ "$(ind work_a)" -gt "$(ind main)" ] || fail "text: work_a is not indented under main: $(cat td.txt)"

"$PCTBIN" report --tree=callee --format=tsv p.pct >bu.tsv || fail "report --tree=callee"
awk -F'\t' 'NR == 1 { next } { total[$1] = $4 }
	$3 == 0 { if ($4 != $8) { print "root " $13 ": total " $4 " self " $8; bad = 1 } }
	$3 > 0 { if ($4 > total[$2]) { print "node " $1 " above its parent"; bad = 1 } if ($8 != 0) { print "self below a root: " $0; bad = 1 } }
	END { exit bad }' bu.tsv >bu.check || fail "bottom-up: $(cat bu.check)"
broot=$(awk -F'\t' '$3 == 0 && $13 == "work_a" { print $4 }' bu.tsv)
[ "$broot" = "$(flat_of work_a samples)" ] || fail "bottom-up work_a root: $broot, flat self $(flat_of work_a samples)"
awk -F'\t' 'NR > 1 { fn[$1] = $13 } NR > 1 && $13 == "main" && fn[$2] == "work_a" { ok = 1 } END { exit !ok }' bu.tsv || fail "bottom-up: main is not work_a's caller: $(cat bu.tsv)"

"$PCTBIN" report --tree --depth=2 --format=tsv p.pct >d2.tsv || fail "--depth=2"
[ "$(awk -F'\t' 'NR > 1 && $3 > m { m = $3 } END { print m + 0 }' d2.tsv)" = 1 ] || fail "--depth=2: depths $(cut -f3 d2.tsv | sort -u | tr '\n' ' ')"
"$PCTBIN" report --tree --percent-limit=10 --format=tsv p.pct >pl.tsv || fail "--percent-limit"
awk -F'\t' 'NR > 1 && $5 < 10 { bad = 1 } END { exit bad || NR < 3 }' pl.tsv || fail "--tree --percent-limit=10: $(cat pl.tsv)"
grep -q '	work_c$' td.tsv && grep -q '	work_c$' pl.tsv && fail "--percent-limit=10 kept work_c (3%)"

for bad in "--tree=x" "--depth=2" "--tree --callers=main" "--tree --depth=0" "--tree --sort=total"; do
	"$PCTBIN" report $bad p.pct >/dev/null 2>bad.err; [ $? = 2 ] || fail "report $bad: not exit 2: $(cat bad.err)"
done
sampled f.pct rec.err "$PCTBIN" record -o f.pct "$PROGS/work-full" 200 >/dev/null
[ -s f.pct ] || fail "record without -g: $(cat rec.err)"
"$PCTBIN" report --tree f.pct >/dev/null 2>f.err; [ $? = 1 ] && grep -q 'no call stacks' f.err || fail "--tree without stacks: $(cat f.err)"
pass "--tree: totals = self + children over $withstacks samples, work_a under main as in the flat profile ($wa); --tree=callee roots are flat selves; --depth, --percent-limit, errors"
