# A known hot line inside an inlined function: --by=line puts it first and
# names the inlined function and its call site; annotate shows the hot
# instructions inside that line; source marks it.
. "$(dirname "$0")/lib.sh"
src=$ROOT/tests/progs/hotline.c
hot=$(grep -n '/\* HOT_LINE \*/' "$src" | cut -d: -f1)
call=$(grep -n '/\* CALL_SITE \*/' "$src" | cut -d: -f1)
"$PCTBIN" record -o h.pct "$PROGS/hotline" >/dev/null 2>&1 || fail "record"
"$PCTBIN" report --by=line --format=tsv h.pct >line.tsv
top=$(awk -F'\t' 'NR == 2' line.tsv)
IFS=$'\t' read -r n se pct sep lo hi cum file line fn inl <<<"$top"
[ "$file" = "$src" ] || fail "top line's file is '$file', expected $src"
[ "$line" = "$hot" ] || fail "top line is $line, expected the HOT_LINE $hot: $(head -4 line.tsv)"
[ "$fn" = hot ] || fail "function '$fn', expected hot"
[ "$inl" = "step@$src:$call" ] || fail "inline chain '$inl', expected step@$src:$call"
awk -v p="$pct" 'BEGIN { exit !(p > 50) }' || fail "the hot line holds only $pct%"
pass "hot line $file:$line ($pct%), inlined $inl"

"$PCTBIN" annotate hot h.pct >ann.txt || fail "annotate hot"
head -1 ann.txt | grep -q '^# hot in hotline ' || fail "annotate header: $(head -1 ann.txt)"
# sum the samples of the instructions under each source-line heading
awk -v want="hotline.c:$hot" '
	/^ +[^ ]+\.c:[0-9]+/ { cur = $1; if (cur == want) seen_div_block = 1; next }
	/^(=>| \*|  ) +[0-9]+ +[0-9.]+% / { n = ($1 == "=>" || $1 == "*") ? $2 : $1; by[cur] += n; all += n
		if (cur == want && /div /) div = 1 }
	/^   +[0-9a-f]+  / { if (cur == want && /div /) div = 1 }
	END { printf "%s: %d of %d samples; div in it: %d\n", want, by[want], all, div
	      exit !(all > 0 && by[want] * 2 > all && div) }' ann.txt || { cat ann.txt; fail "annotate does not show the hot instructions in line $hot"; }
grep -q '^=>' ann.txt || fail "no hottest instruction marked"

"$PCTBIN" source h.pct >src.txt || fail "source"
grep -E "^=> +[0-9]+ +[0-9.]+% +$hot  .*HOT_LINE" src.txt || fail "source does not mark line $hot: $(grep -n HOT src.txt)"
"$PCTBIN" source hotline.c h.pct | grep -q "^# $src:" || fail "source SRCFILE"
# a source file that is gone: say where we looked, list the line table
mkdir gone && cp "$src" gone/hotline.c
cc -O2 -g -o gone/hotline gone/hotline.c || fail "cc"
"$PCTBIN" record -o g.pct gone/hotline 50000000 >/dev/null 2>&1
rm gone/hotline.c
"$PCTBIN" source g.pct >g.txt 2>err || fail "source of a missing file failed"
grep -q "cannot open source '$SCRATCH/gone/hotline.c' (looked in: $SCRATCH/gone/hotline.c, ./" err || fail "no 'looked in': $(cat err)"
grep -Eq "^=> +[0-9]+ +[0-9.]+% +$hot\$" g.txt || fail "line-table fallback lacks line $hot: $(cat g.txt)"
pass "annotate and source"
