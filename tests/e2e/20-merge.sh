# pct merge sums runs like gprof -s: report A B C equals report of the
# merge, with the runs kept apart (a tree file whose members carry their
# run) or added up (--sum); merging merges keeps counting runs, and
# renumbers them; files of another dimension are refused; a module with
# one path but two build-ids stays two modules; the same run is never
# read twice.
. "$(dirname "$0")/lib.sh"
P=$PCTBIN
for i in 1 2 3 4; do "$P" record -o r$i.pct "$PROGS/selftime" 0.5 >/dev/null 2>&1 || fail "record $i"; done
$P merge -o m.pct r1.pct r2.pct r3.pct 2>err || fail "merge: $(cat err)"
grep -q "^pct: merged 3 runs" err || fail "merge's summary: $(cat err)"
for by in function module line address; do
	diff <($P report --by=$by r1.pct r2.pct r3.pct) <($P report --by=$by m.pct) || fail "report --by=$by differs"
	diff <($P report --by=$by --format=tsv r1.pct r2.pct r3.pct) <($P report --by=$by --format=tsv m.pct) ||
		fail "report --by=$by --format=tsv differs"
done
$P report m.pct | head -1 | grep -q '^# 3 files summed$' || fail "merged file does not say 3 runs"
# a merge of a merge
$P merge -o mm.pct m.pct r4.pct 2>/dev/null || fail "merge of a merge"
$P report mm.pct | head -1 | grep -q '^# 4 files summed$' || fail "runs do not add up"
diff <($P report --format=tsv m.pct r4.pct) <($P report --format=tsv mm.pct) || fail "merge of merge differs"
# the runs in the tree's index (pct(5): members at offset 20, index at
# 64, 40 bytes a member, run at 32): m.pct 0 1 2, mm.pct 0 1 2 3
runs_of() { local n; n=$(od -An -tu4 -j20 -N4 "$1" | tr -d ' ')
	for i in $(seq 0 $((n - 1))); do od -An -tu4 -j$((64 + 40 * i + 32)) -N4 "$1"; done | tr -d ' ' | tr '\n' ' '; }
[ "$(runs_of m.pct)" = "0 1 2 " ] || fail "m.pct's runs: $(runs_of m.pct)"
[ "$(runs_of mm.pct)" = "0 1 2 3 " ] || fail "mm.pct's runs: $(runs_of mm.pct)"
# --time: each run of a merged file from its own start
diff <($P report --time=0..0.3 --format=tsv r1.pct r2.pct r3.pct) <($P report --time=0..0.3 --format=tsv m.pct) ||
	fail "report --time of the merge differs"
# standard input as an operand (merge reads its operands twice)
$P merge -o in.pct - r2.pct r3.pct <r1.pct 2>err || fail "merge of standard input: $(cat err)"
diff <($P report --format=tsv m.pct) <($P report --format=tsv in.pct) || fail "merge of standard input differs"
# --sum: one profile, the same reports, and its runs counted
$P merge --sum -o s.pct r1.pct r2.pct r3.pct 2>err || fail "merge --sum: $(cat err)"
grep -q "^pct: merged 3 runs" err || fail "merge --sum's summary: $(cat err)"
[ "$(head -c 7 s.pct)" = PCTPROF ] || fail "merge --sum did not write one profile: $(head -c 8 s.pct | od -c | head -1)"
diff <($P report --format=tsv r1.pct r2.pct r3.pct) <($P report --format=tsv s.pct) || fail "report of merge --sum differs"
$P report s.pct | head -1 | grep -q '^# 3 files summed$' || fail "merge --sum does not say 3 runs"

# another dimension: refused with the reason, and no output written
cp r1.pct cycles.pct
printf 'cycles\0\0\0\0\0\0\0\0\0\0' | dd of=cycles.pct bs=1 seek=40 conv=notrunc 2>/dev/null
$P merge -o bad.pct r1.pct cycles.pct 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "'cycles.pct' measures cycles .* but 'r1.pct' measures seconds" err || fail "dimension: rc $rc $(cat err)"
[ ! -e bad.pct ] || fail "a refused merge left bad.pct"

# same path, different build-ids: two modules, never summed into one
exe=$PROGS/selftime
printf 'module\tbuild_id\toffset\tsamples\n%s\taaaa\t0x10\t5\n' "$exe" | "$PROGS/mkprofile" b1.pct
printf 'module\tbuild_id\toffset\tsamples\n%s\tbbbb\t0x10\t7\n' "$exe" | "$PROGS/mkprofile" b2.pct
$P merge -o b.pct b1.pct b2.pct 2>/dev/null
$P dump b.pct | grep -v '^#' >b.tsv
[ "$(grep -c $'\taaaa\t0x10\t.*\t5$' b.tsv)" = 1 ] && [ "$(grep -c $'\tbbbb\t0x10\t.*\t7$' b.tsv)" = 1 ] ||
	fail "modules with different build-ids were merged: $(cat b.tsv)"

# the same run twice (a file named twice, a copy, or inside a merge) is
# refused by every reader, naming both files: its samples would count
# twice, and as two runs of a merge they would agree by construction
cp r2.pct copy.pct
for args in "merge -o d.pct r1.pct r2.pct r1.pct|r1.pct|r1.pct" "merge --sum -o d.pct r2.pct copy.pct|r2.pct|copy.pct" \
	"merge -o d.pct m.pct r3.pct|m.pct|r3.pct" "report r1.pct r1.pct|r1.pct|r1.pct" \
	"html --sum -o d.html m.pct r2.pct|m.pct:|r2.pct" "export --format=pprof -o d.pb copy.pct r2.pct|copy.pct|r2.pct"; do
	IFS='|' read -r cmd a b <<<"$args"
	$P $cmd >/dev/null 2>err; rc=$?
	echo "$cmd: exit $rc: $(cat err)"
	[ $rc -eq 1 ] && grep -q "hold the same profile (process " err && grep -qF "'$a" err && grep -qF "and '$b" err ||
		fail "$cmd: exit $rc, $(cat err)"
	[ ! -e d.pct ] && [ ! -e d.html ] && [ ! -e d.pb ] || fail "$cmd left its output"
done

# errors
$P merge -o r1.pct r1.pct r2.pct 2>err; [ $? -eq 1 ] && grep -q "also an input" err || fail "output = input"
head -c 300 r1.pct >short.pct
$P merge -o x.pct r1.pct short.pct 2>err; [ $? -eq 1 ] && grep -q "short.pct" err || fail "corrupt input: $(cat err)"
$P merge r1.pct 2>/dev/null; [ $? -eq 2 ] || fail "no -o should be a usage error"
pass "merge"
