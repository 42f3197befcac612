# A tree file (pct(5), "Tree files") with damaged offsets and sizes: every
# reader refuses it with a message that names the file and what is wrong,
# exit status 1, and never crashes.
. "$(dirname "$0")/lib.sh"
export XDG_CACHE_HOME=$SCRATCH/cache
"$PCTBIN" record -o t.pct sh -c "$PROGS/selftime 0.1 >/dev/null; $PROGS/selftime 0.1 >/dev/null" 2>rec.err ||
	fail "record: $(cat rec.err)"
head -c 8 t.pct | grep -q PCTTREE || fail "t.pct is not a tree file: $(cat rec.err)"
"$PCTBIN" report t.pct >/dev/null || fail "the intact tree does not report"
# put FILE OFFSET FORMAT VALUE: overwrite bytes of a copy
put() { cp t.pct "$1"; perl -e 'open F, "+<", $ARGV[0] or die; seek F, $ARGV[1], 0; print F pack($ARGV[2], $ARGV[3])' "$@"; }
# expect FILE TEXT: report refuses FILE, exit 1, naming it and saying TEXT
expect() {
	"$PCTBIN" report "$1" >out 2>err
	local rc=$?
	[ $rc = 1 ] && grep -q "'$1'.*$2" err || fail "$1: expected status 1 and '$2': status $rc, $(cat err)"
	echo "$1: $(cat err)"
}
put members0.pct 20 L 0 && expect members0.pct "a tree of 0 profiles"
put members.pct 20 L 4000000000 && expect members.pct "a tree of 4000000000 profiles"
put index.pct 24 Q 99999999 && expect index.pct "tree index"
put fsize.pct 32 Q 12 && expect fsize.pct "its tree header says 12"
put msize.pct 40 L 16 && expect msize.pct "member_size 16"
put off.pct $((64 + 0)) Q 18446744073709551000 && expect off.pct "tree member 0 .*outside the file"
put len.pct $((64 + 8)) Q 9999999 && expect len.pct "tree member 0 .*outside the file"
put raw.pct $((64 + 16)) Q 1099511627777 && expect raw.pct "tree member 0 .*bad inflated size"
put rawsmall.pct $((64 + 16)) Q 300 && expect rawsmall.pct "tree member 0 .*another size\|tree member 0 .*corrupt"
put enc.pct $((64 + 28)) L 7 && expect enc.pct "tree member 0 .*unknown encoding"
# the first member's compressed bytes garbled
first=$(od -An -tu8 -j64 -N8 t.pct | tr -d ' ')
put zdata.pct $((first + 2)) Q 0x4141414141414141 && expect zdata.pct "tree member 0 "
head -c 100 t.pct >short.pct && expect short.pct "its tree header says"
head -c 40 t.pct >tiny.pct && expect tiny.pct "too short for a pct tree header"
# diff, export, merge refuse it the same way
"$PCTBIN" diff off.pct t.pct >/dev/null 2>err; [ $? = 1 ] && grep -q "'off.pct'" err || fail "diff: $(cat err)"
"$PCTBIN" merge -o m.pct off.pct 2>err; [ $? = 1 ] && grep -q "'off.pct'" err || fail "merge: $(cat err)"
pass "damaged tree files refused with the file named, status 1"
