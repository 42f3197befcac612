# No character of -o's name is special (issue, item 10): record found the
# processes' profiles with glob(3) on FILE's stem, so `-o 'r[1].pct'`
# folded nothing, said "wrote no profile" and left the files beside it,
# and '*' or '?' in the name swept in other files.  Now the directory is
# listed and the prefix compared byte for byte.  Each name is recorded
# with a tree of three processes (sh and two selftime), beside a decoy
# that the name read as a glob pattern would match.
. "$(dirname "$0")/lib.sh"
names=('r[1].pct' 'a*b?.pct' 'back\slash.pct' 'sp ace.pct' $'new\nline.pct' '[!x]-x.pct')
decoys=('r1.5.pct' 'aXbY.5.pct' '' 'sp ace.x.pct' '' 'y-x.5.pct')
for i in "${!names[@]}"; do
	name=${names[$i]} decoy=${decoys[$i]}
	shown=$(printf '%q' "$name")  # for messages
	rm -rf d && mkdir d && cd d || exit 1
	[ -n "$decoy" ] && echo decoy >"$decoy"
	"$PCTBIN" record -o "$name" -- sh -c "$PROGS/selftime 0.1 >/dev/null; $PROGS/selftime 0.12 >/dev/null" 2>../err ||
		fail "$shown: record: $(cat ../err)"
	grep -q 'wrote no profile\|^pct: ignored' ../err && fail "$shown: $(cat ../err)"
	grep -q "^pct: [23] processes, [0-9]* samples, written to '.*' as one process tree$" ../err ||
		fail "$shown: no tree summary: $(cat ../err)"
	# the tree alone is left (and the decoy, untouched)
	[ -f "$name" ] || fail "$shown: no profile: $(ls -A)"
	shopt -s dotglob nullglob
	for f in *; do
		[ "$f" = "$name" ] || [ "$f" = "$decoy" ] || fail "$shown: left beside it: '$f'"
	done
	shopt -u dotglob nullglob
	[ -z "$decoy" ] || [ "$(cat -- "$decoy")" = decoy ] || fail "$shown: the decoy '$decoy' changed"
	"$PCTBIN" report --by=process --format=tsv -- "$name" >../proc.tsv 2>&1 || fail "$shown: report: $(cat ../proc.tsv)"
	grep -q $'\tselftime 0.1$' ../proc.tsv && grep -q $'\tselftime 0.12$' ../proc.tsv ||
		fail "$shown: both selftime processes expected: $(cat ../proc.tsv)"
	cd ..
	pass "-o $shown: one tree file with both processes; nothing else folded or left"
done
