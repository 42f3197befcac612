# The build-id cache (issue 17): a program rebuilt in place after its
# profile was recorded keeps its names, through the copy `pct record` put
# in $XDG_CACHE_HOME/pct; `pct diff old new` then flags only the function
# that changed.  A binary moved away is still named from the cache; with
# the cache off (--no-cache, PCT_CACHE=0) its samples are [unknown] with a
# warning.  `pct cache list` shows the module, `prune` removes it; a link
# planted in the cache is never followed.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || fail "no C compiler"
cat >hot.c <<'EOS'
static volatile unsigned long sink;
__attribute__((noinline)) void hash_loop(long n) { for (long i = 0; i < n; i++) sink += (unsigned long)i * 2654435761u; }
__attribute__((noinline)) void other_loop(long n) { for (long i = 0; i < n; i++) sink ^= (unsigned long)i >> 3; }
int main(void) { hash_loop(WORK * 300000000L); other_loop(1500000000L); return 0; }
EOS
# unk FILE.tsv: percent of the program's own samples (module bin/hot) that are [unknown]
unk() { awk -F'\t' -v m="$PWD/bin/hot" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["module"] == m { t += $k["samples"]; if ($k["function"] == "[unknown]") n += $k["samples"] }
	END { printf "%.2f\n", t ? 100 * n / t : 0 }' "$1"; }
mkdir bin
cc -O1 -g -DWORK=6 -o bin/hot hot.c || fail "cc"
"$PCTBIN" record -o old.pct bin/hot 2>rec.err || fail "record old: $(cat rec.err)"
"$PCTBIN" cache list >list.txt || fail "cache list"
grep -q "	$PWD/bin/hot\$" list.txt || fail "pct cache list does not show bin/hot: $(cat list.txt)"
# rebuilt in place: hash_loop does three times the work
cc -O1 -g -DWORK=18 -o bin/hot hot.c || fail "cc again"
"$PCTBIN" record -o new.pct bin/hot 2>rec.err || fail "record new: $(cat rec.err)"

"$PCTBIN" report --format=tsv old.pct >old.tsv 2>old.err || fail "report old: $(cat old.err)"
unk=$(unk old.tsv)
hl=$(share_of old.tsv function hash_loop)
echo "old profile after the rebuild: [unknown] $unk%, hash_loop $hl%"
awk -v u="$unk" 'BEGIN { exit !(u <= 1) }' || fail "$unk% of the old profile's samples lost their names: $(cat old.tsv old.err)"
[ ! -s old.err ] || fail "report of the old profile warned: $(cat old.err)"

# Two runs of the same work differ by more than sampling noise between
# runs: other_loop took 31% more CPU time in one of two runs under two
# busy loops, 62% more in one CI run, and 2.8x in a run beside a loaded
# suite (issue 20 is about that).  So other_loop may be flagged as well.
# What must hold: hash_loop is flagged, and no unnamed row is (before the
# cache, [unknown] was flagged at -59 points).
"$PCTBIN" diff --alpha=0.001 --format=tsv old.pct new.pct >diff.tsv || fail "diff"
flagged=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["significant"] == "*" || $c["significant"] == 1 { print $1 }' diff.tsv | sort | tr '\n' ' ')
echo "pct diff old new flags: $flagged"
case "$flagged" in
"hash_loop " | "hash_loop other_loop ") ;;
*) fail "pct diff old new flags '$flagged', not hash_loop (and at most other_loop): $(cat diff.tsv)" ;;
esac

# moved away: the cache names it; with the cache off, nothing does
mv bin/hot hot.moved
"$PCTBIN" report --format=tsv new.pct >moved.tsv 2>moved.err || fail "report after the move"
u=$(share_of moved.tsv function '[unknown]')
[ "$(awk -v u="$u" 'BEGIN { print (u <= 1) }')" = 1 ] || fail "moved binary: $u% [unknown]: $(cat moved.tsv moved.err)"
for off in "--no-cache" "PCT_CACHE=0"; do
	if [ "$off" = --no-cache ]; then
		"$PCTBIN" report --no-cache --format=tsv new.pct >off.tsv 2>off.err
	else
		PCT_CACHE=0 "$PCTBIN" report --format=tsv new.pct >off.tsv 2>off.err
	fi
	u=$(share_of off.tsv function '[unknown]')
	echo "cache off ($off), binary moved: [unknown] $u%; $(head -1 off.err)"
	[ "$(awk -v u="$u" 'BEGIN { print (u >= 99) }')" = 1 ] || fail "$off: names found without the cache: $(cat off.tsv)"
	grep -q "warning: no symbols for hot: cannot open '$PWD/bin/hot'" off.err || fail "$off: no warning: $(cat off.err)"
done
n=$(grep -c . off.err)
[ "$n" = 1 ] || fail "$n warnings, not one: $(cat off.err)"

# prune to nothing: the names go with the cache
"$PCTBIN" cache prune --max-size=0 2>prune.err || fail "prune: $(cat prune.err)"
grep -q 'removed [1-9][0-9]* modules\{0,1\}' prune.err || fail "prune: $(cat prune.err)"
"$PCTBIN" cache list >list.txt
grep -q '^# 0 modules, 0 bytes' list.txt || fail "after prune: $(cat list.txt)"
"$PCTBIN" report --format=tsv new.pct >pruned.tsv 2>/dev/null
[ "$(share_of pruned.tsv function '[unknown]')" = 100.00 ] || fail "names after the prune: $(cat pruned.tsv)"
"$PCTBIN" cache prune --max-size=1X 2>/dev/null; [ $? = 2 ] || fail "--max-size=1X is not a usage error"

# a link planted where the cache puts its entries is not followed
mv hot.moved bin/hot
rm -rf cache; mkdir -p cache/pct elsewhere
ln -s "$PWD/elsewhere" cache/pct/build-id
"$PCTBIN" record -o planted.pct bin/hot 2>planted.err || fail "record with a planted link: $(cat planted.err)"
[ -z "$(ls elsewhere)" ] || fail "the cache wrote through a planted link: $(ls -R elsewhere)"
grep -q 'not kept in the build-id cache' planted.err || fail "no warning for the planted link: $(cat planted.err)"
pass "the rebuilt program keeps $hl% in hash_loop ([unknown] $unk%), diff flags $flagged only, cache off loses names with one warning, prune and a planted link handled"
