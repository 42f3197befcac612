# JIT code is named from the process's perf map (/tmp/perf-PID.map, the
# format of Linux tools/perf/Documentation/jit-interface.txt).
# tests/progs/jitcopy copies a hot loop into anonymous executable memory
# and names it in its map, over an older entry for the whole page.
#  - the loop is named (the later, overriding entry) with the top share,
#    in the module named by the map kept beside the profile;
#  - pct record kept the map as STEM.perf-PID.map, and the report names
#    the loop after /tmp/perf-PID.map is deleted; the stages give the
#    same rows as the report;
#  - without a kept copy, /tmp/perf-PID.map serves, unless it is older
#    than the profile (another process's);
#  - a missing or malformed map gives one warning naming it and what is
#    wrong, and the samples stay, [unknown], all counted;
#  - two processes' JIT code is two modules.
. "$(dirname "$0")/lib.sh"
export XDG_CACHE_HOME=$SCRATCH/cache
maps=()
trap 'rm -rf "$SCRATCH" "${maps[@]}"' EXIT
P=$PCTBIN

"$P" record -o jit.pct "$PROGS/jitcopy" 1 >/dev/null 2>rec.err || fail "record jitcopy: $(cat rec.err)"
pid=$(cat jitcopy.pid)
tmpmap=/tmp/perf-$pid.map
maps+=("$tmpmap")
[ -f "$tmpmap" ] || fail "jitcopy wrote no $tmpmap"
kept=$SCRATCH/jit.perf-$pid.map
cmp -s "$tmpmap" "$kept" || fail "pct record kept no copy of $tmpmap as jit.perf-$pid.map: $(ls; cat rec.err)"
grep -q warning rec.err && fail "record warned: $(cat rec.err)"

# rows: function, module and percent of a report
rows() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	{ print $k["function"] "\t" $k["module"] "\t" $k["percent"] "\t" $k["samples"] }' "$1"; }
total() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } { n += $k["samples"] } END { print n + 0 }' "$1"; }

"$P" report --format=tsv jit.pct >named.tsv 2>named.err || fail "report"
[ -s named.err ] && fail "report warned: $(cat named.err)"
top=$(rows named.tsv | head -1)
echo "top row: $top"
case $top in
"hot_jit_loop	$kept	"*) ;;
*) fail "the JIT loop is not the top row, named from $kept: $(rows named.tsv | head -5)" ;;
esac
share=$(printf '%s\n' "$top" | cut -f3)
awk -v s="$share" 'BEGIN { exit !(s >= 80) }' || fail "hot_jit_loop has only $share% of the samples"
N=$(total named.tsv)
[ "$N" -ge 150 ] || fail "only $N samples"
rows named.tsv | grep -q jitPageStub && fail "the older, overridden entry names samples: $(rows named.tsv)"
"$P" report jit.pct | grep -Eq "hot_jit_loop +jit\.perf-$pid\.map$" || fail "text report: $("$P" report jit.pct)"

# the stages name it the same way
for fmt in text tsv; do
	diff <("$P" report --format=$fmt --by=module jit.pct) <("$P" dump jit.pct | "$P" sum --format=$fmt --by=module) ||
		fail "module view differs from the stages ($fmt)"
	diff <("$P" report --format=$fmt jit.pct) <("$P" dump jit.pct | "$P" sym | "$P" sum --format=$fmt --by=module,function) ||
		fail "function view differs from the stages ($fmt)"
	diff <("$P" report --format=$fmt --by=address jit.pct) <("$P" dump jit.pct | "$P" sym | "$P" sum --format=$fmt --by=module,address,function) ||
		fail "address view differs from the stages ($fmt)"
done

# /tmp is cleaned: the kept copy names it all the same
cp "$tmpmap" saved.map
rm -f "$tmpmap"
"$P" report --format=tsv jit.pct >after.tsv 2>after.err || fail "report after rm"
cmp -s named.tsv after.tsv || fail "the report changed once $tmpmap was deleted: $(diff named.tsv after.tsv)"
[ -s after.err ] && fail "warned: $(cat after.err)"

# pct archive carries the map: unpacked elsewhere, with neither map left
# here, it names the code
"$P" archive -o jit.tgz jit.pct 2>arch.err || fail "archive: $(cat arch.err)"
tar tzf jit.tgz | grep -qx "jit.perf-$pid.map" || fail "the archive holds no map: $(tar tzf jit.tgz)"
mkdir u && tar xzf jit.tgz -C u || fail "unpack"
mv "$kept" kept.hidden
"$P" report --format=tsv u/jit.pct >u.tsv 2>u.err || fail "report of the unpacked archive"
rows u.tsv | head -1 | grep -q "^hot_jit_loop	$SCRATCH/u/jit.perf-$pid.map	" ||
	fail "the archived map does not name the code: $(rows u.tsv | head -3; cat u.err)"
mv kept.hidden "$kept"

# without the copy, /tmp/perf-PID.map serves
mv "$kept" kept.map
cp saved.map "$tmpmap"
"$P" report --format=tsv jit.pct >tmp.tsv 2>tmp.err || fail "report from /tmp"
rows tmp.tsv | head -1 | grep -q "^hot_jit_loop	$tmpmap	" || fail "not named from $tmpmap: $(rows tmp.tsv | head -3; cat tmp.err)"
# ... unless it is older than the profile: another process's
touch -d '-1 hour' "$tmpmap"
"$P" report --format=tsv jit.pct >old.tsv 2>old.err || fail "report with an old map"
[ "$(wc -l <old.err)" = 1 ] && grep -q "'$tmpmap' was last modified before the profile started" old.err ||
	fail "want one warning about the old map: $(cat old.err)"
rm -f "$tmpmap"

# missing: one warning naming the map, samples kept under [JIT] tid PID
"$P" report --format=tsv jit.pct >none.tsv 2>none.err || fail "report without a map"
cat none.err
[ "$(wc -l <none.err)" = 1 ] && grep -q "'$tmpmap' does not exist" none.err || fail "want one warning: $(cat none.err)"
rows none.tsv | head -1 | grep -q "^\[unknown\]	\[JIT\] tid $pid	" || fail "JIT rows without a map: $(rows none.tsv | head -3)"
[ "$(total none.tsv)" = "$N" ] || fail "samples lost without a map: $(total none.tsv) of $N"
diff <("$P" report jit.pct 2>/dev/null) <("$P" dump jit.pct 2>/dev/null | "$P" sym | "$P" sum --by=module,function) ||
	fail "report and stages differ without a map"
"$P" dump jit.pct 2>&1 >/dev/null | "$P" sym 2>&1 >/dev/null | cat >st.err
[ "$(wc -l <st.err)" = 1 ] || fail "the stages warn $(wc -l <st.err) times without a map: $(cat st.err)"

# malformed (a good line, then a bad one): one warning naming the copy and the line
for bad in 'zz 100 name' "$(printf '%x' 4096) 10" "1 $(head -c 70000 /dev/zero | tr '\0' x)" 'ffffffffffffffff 2 wraps'; do
	{ head -1 kept.map; printf '%s\n' "$bad"; } >"$kept"
	"$P" report --format=tsv jit.pct >bad.tsv 2>bad.err || fail "report with a malformed map"
	head -c 300 bad.err; echo
	[ "$(wc -l <bad.err)" = 1 ] && grep -q "'$kept' line 2: " bad.err || fail "want one warning naming line 2 of $kept: $(cat bad.err)"
	rows bad.tsv | head -1 | grep -q "^\[unknown\]	$kept	" || fail "rows with a malformed map: $(rows bad.tsv | head -3)"
	[ "$(total bad.tsv)" = "$N" ] || fail "samples lost with a malformed map: $(total bad.tsv) of $N"
	diff <("$P" report jit.pct 2>/dev/null) <("$P" dump jit.pct | "$P" sym 2>/dev/null | "$P" sum --by=module,function) ||
		fail "report and stages differ with a malformed map"
	[ "$("$P" dump jit.pct | "$P" sym 2>&1 >/dev/null | wc -l)" = 1 ] || fail "the stages warn more than once"
done
mv kept.map "$kept"

# two processes: two JIT modules, each named
"$P" record -o two.pct "$PROGS/jitcopy" 0.3 >/dev/null 2>&1 || fail "record jitcopy again"
pid2=$(cat jitcopy.pid)
maps+=("/tmp/perf-$pid2.map")
[ "$pid2" != "$pid" ] || fail "the same pid twice"
"$P" report --format=tsv --by=module jit.pct two.pct >mods.tsv || fail "report two profiles"
n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } { print $k["module"] }' mods.tsv |
	grep -Ec "^$SCRATCH/(jit\.perf-$pid|two\.perf-$pid2)\.map$")
[ "$n" = 2 ] || fail "want two JIT modules: $(cat mods.tsv)"
"$P" report --format=tsv jit.pct two.pct | awk -F'\t' '$NF == "hot_jit_loop"' | wc -l | grep -qx 2 ||
	fail "hot_jit_loop not named in both: $("$P" report --format=tsv jit.pct two.pct)"
rm -f "/tmp/perf-$pid2.map"
# in a process tree (sh and jitcopy, folded into one tree file), the
# copy is kept beside the tree file and names the member's JIT code
"$P" record -o tree.pct sh -c "'$PROGS/jitcopy' 0.3; exit 0" >/dev/null 2>tree.err || fail "record the tree: $(cat tree.err)"
pid3=$("$P" report --by=process --format=tsv tree.pct |
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } $k["command"] ~ /^jitcopy/ { print $k["pid"] }' | head -1)
[ -n "$pid3" ] || fail "no jitcopy process in the tree: $("$P" report --by=process tree.pct)"
maps+=("/tmp/perf-$pid3.map")
rm -f "/tmp/perf-$pid3.map"
[ -f "tree.perf-$pid3.map" ] || fail "no copy tree.perf-$pid3.map beside the tree file: $(ls)"
"$P" report --format=tsv tree.pct >tree.tsv 2>tree.err || fail "report the tree"
rows tree.tsv | head -1 | grep -q "^hot_jit_loop	$SCRATCH/tree.perf-$pid3.map	" ||
	fail "the tree's JIT code is not named: $(rows tree.tsv | head -3; cat tree.err)"
pass "JIT code named from its perf map ($share% hot_jit_loop of $N samples), kept beside the profile, one warning when missing or malformed"
