# The build-id cache (issue 17): a program rebuilt in place after its
# profile was recorded keeps its names, through the copy `pct record` put
# in $XDG_CACHE_HOME/pct; `pct diff old new` then flags only the function
# that changed.  A binary moved away is still named from the cache; with
# the cache off (--no-cache, PCT_CACHE=0) its samples are [unknown] with a
# warning.  `pct cache list` shows the module, `prune` removes it; a link
# planted in the cache is never followed.  A stripped program's debug file
# found through .gnu_debuglink is cached with it; files are hard-linked
# (copied across file systems); `pct record --no-cache` fills no cache;
# files over 512 MiB and FIFOs are not cached.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || fail "no C compiler"
cat >hot.c <<'EOS'
static volatile unsigned long sink;
__attribute__((noinline)) void hash_loop(long n) { for (long i = 0; i < n; i++) sink += (unsigned long)i * 2654435761u; }
__attribute__((noinline)) void other_loop(long n) { for (long i = 0; i < n; i++) sink ^= (unsigned long)i >> 3; }
int main(void) { hash_loop(WORK * 100000000L); other_loop(500000000L); return 0; }
EOS
# unk FILE.tsv: percent of the program's own samples (module bin/hot) that are [unknown]
unk() { awk -F'\t' -v m="$PWD/bin/hot" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["module"] == m { t += $k["samples"]; if ($k["function"] == "[unknown]") n += $k["samples"] }
	END { printf "%.2f\n", t ? 100 * n / t : 0 }' "$1"; }
mkdir bin
cc -O1 -g -DWORK=2 -o bin/hot hot.c || fail "cc"
"$PCTBIN" record -o old.pct bin/hot 2>rec.err || fail "record old: $(cat rec.err)"
"$PCTBIN" cache list >list.txt || fail "cache list"
grep -q "	$PWD/bin/hot\$" list.txt || fail "pct cache list does not show bin/hot: $(cat list.txt)"
# rebuilt in place: hash_loop does ten times the work
cc -O1 -g -DWORK=20 -o bin/hot hot.c || fail "cc again"
"$PCTBIN" record -o new.pct bin/hot 2>rec.err || fail "record new: $(cat rec.err)"

"$PCTBIN" report --format=tsv old.pct >old.tsv 2>old.err || fail "report old: $(cat old.err)"
unk=$(unk old.tsv)
hl=$(share_of old.tsv function hash_loop)
echo "old profile after the rebuild: [unknown] $unk%, hash_loop $hl%"
awk -v u="$unk" 'BEGIN { exit !(u <= 1) }' || fail "$unk% of the old profile's samples lost their names: $(cat old.tsv old.err)"
[ ! -s old.err ] || fail "report of the old profile warned: $(cat old.err)"

# Two runs of the same work differ by more than sampling noise between
# runs: other_loop took 31% more CPU time in one of two runs under two
# busy loops, 62% more in one CI run, 2.8x in a run beside a loaded suite
# (issue 20 is about that); in one CI run the new run's other_loop took 80
# samples to the old's 189, and hash_loop's tripled work came out at 1.5x
# its time (p 0.0015, not flagged).  Within a run, too, hash_loop's share
# of an unchanged program moved from 35% to 49% between runs.  So the test
# compares shares (--normalize), which a whole run's speed does not move,
# and hash_loop's work grows tenfold: its share from about 18% to 69%
# (other_loop's the other way, both flagged), clear of a 1.6x swing in
# either function's speed.
# What must hold: hash_loop is flagged, and no unnamed row is (before the
# cache, [unknown] was flagged at -59 points).
"$PCTBIN" diff --normalize --alpha=0.001 --format=tsv old.pct new.pct >diff.tsv || fail "diff"
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

# A stripped program whose debug file is found through .gnu_debuglink
# beside it: record caches both (hard links: /tmp is one file system), so
# that the names and lines outlive the deletion of both, in reports and in
# `pct archive`.
cat >dl.c <<'EOS'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) void hash_loop(long n) { for (long i = 0; i < n; i++) sink += (unsigned long)i * 2654435761u; }
int main(int argc, char **argv) { hash_loop(argc > 1 ? atol(argv[1]) : 400000000L); return 0; }
EOS
mkdir dl
cc -O1 -g -o dl/prog dl.c || fail "cc dl.c"
objcopy --only-keep-debug dl/prog dl/prog.debug && strip -s dl/prog && objcopy --add-gnu-debuglink=dl/prog.debug dl/prog ||
	fail "objcopy/strip"
! readelf -S dl/prog | grep -q '\.symtab' || fail "dl/prog still has a symbol table"
export XDG_CACHE_HOME=$PWD/c2
"$PCTBIN" record -o dl.pct dl/prog 2>rec.err || fail "record dl/prog: $(cat rec.err)"
# dl/prog's entry by its build-id: the cache also holds every other module
# that took a sample (libc's, with its debug file, when exit or start-up
# code was sampled, as in CI's sanitized pass)
bid=$(readelf -n dl/prog | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
[ ${#bid} -ge 4 ] || fail "dl/prog has no build-id: $(readelf -n dl/prog)"
e=c2/pct/build-id/${bid:0:2}/${bid:2}
[ -f "$e/elf" ] && [ -f "$e/debug" ] || fail "the debug file found by .gnu_debuglink is not cached: $(ls -lR c2)"
cmp -s "$e/debug" dl/prog.debug || fail "the cache's debug file is not dl/prog.debug"
grep -q "	debug	$PWD/dl/prog\$" <("$PCTBIN" cache list) || fail "cache list: $("$PCTBIN" cache list)"
# same file system: hard links (the binary's inode, two links)
for f in elf:dl/prog debug:dl/prog.debug; do
	c=$e/${f%%:*} o=${f#*:}
	[ "$(stat -c %i "$c")" = "$(stat -c %i "$o")" ] || fail "$c is not a hard link of $o"
	[ "$(stat -c %h "$c")" = 2 ] || fail "$c has $(stat -c %h "$c") links, not 2"
done
# a file system of its own (tmpfs): copies, made by `pct archive`, which
# fills the cache for the profiles it packs
shm=
if [ -d /dev/shm ] && [ -w /dev/shm ] && shm=$(mktemp -d /dev/shm/pct-e2e-105.XXXXXX) &&
	[ "$(stat -c %d "$shm")" != "$(stat -c %d dl/prog)" ]; then
	trap 'rm -rf "$SCRATCH" "$shm"' EXIT
	XDG_CACHE_HOME=$shm "$PCTBIN" archive -o shm.tgz dl.pct 2>arch.err || fail "archive into $shm: $(cat arch.err)"
	se=$shm/pct/build-id/${bid:0:2}/${bid:2}
	for f in elf:dl/prog debug:dl/prog.debug; do
		c=$se/${f%%:*} o=${f#*:}
		cmp -s "$c" "$o" || fail "$c is not a copy of $o"
		[ "$(stat -c %h "$c")" = 1 ] && [ "$(stat -c %h "$o")" = 2 ] || fail "$c: a link, not a copy"
	done
	copied="copied to tmpfs"
	rm -rf "$shm"
else
	[ -n "$shm" ] && rm -rf "$shm"
	copied="no second file system here: the copy is not tested"
fi
echo "cache entry: hard links here; $copied"
# an entry without its debug file (made before it was found): the debug
# link is followed beside the recorded path (here into .debug/), not only
# beside the cache's copy, and the next archive (or record) adds it
rm "$e/debug" && mkdir dl/.debug && mv dl/prog.debug dl/.debug/ || fail "mv"
"$PCTBIN" report --format=tsv dl.pct >dl0.tsv 2>dl0.err || fail "report dl.pct"
awk -v a="$(share_of dl0.tsv function hash_loop)" 'BEGIN { exit !(a >= 95) }' || fail "debug file in dl/.debug not found: $(cat dl0.tsv dl0.err)"
"$PCTBIN" archive -o dl0.tgz dl.pct 2>/dev/null || fail "archive dl.pct"
[ "$(stat -c %i "$e/debug")" = "$(stat -c %i dl/.debug/prog.debug)" ] || fail "archive did not add the debug file"

"$PCTBIN" report --format=tsv dl.pct >dl1.tsv 2>dl1.err || fail "report dl.pct"
"$PCTBIN" report --format=tsv --by=line dl.pct >dl1l.tsv 2>>dl1.err || fail "report --by=line dl.pct"
rm dl/prog dl/.debug/prog.debug
"$PCTBIN" report --format=tsv dl.pct >dl2.tsv 2>dl2.err || fail "report dl.pct after rm"
"$PCTBIN" report --format=tsv --by=line dl.pct >dl2l.tsv 2>>dl2.err || fail "report --by=line after rm"
dlh=$(share_of dl2.tsv function hash_loop)
dll=$(awk -F'\t' -v f="$PWD/dl.c" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	{ t += $k["samples"] } $k["file"] == f && $k["line"] ~ /^[0-9]+$/ { n += $k["samples"] }
	END { printf "%.2f\n", t ? 100 * n / t : 0 }' dl2l.tsv)
echo "stripped dl/prog and dl/prog.debug deleted: hash_loop $dlh%, on lines of dl.c $dll%"
awk -v a="$dlh" -v b="$dll" 'BEGIN { exit !(a >= 95 && b >= 95) }' ||
	fail "names lost with the binary and its debug file: $(cat dl2.tsv dl2l.tsv dl2.err)"
[ ! -s dl2.err ] || fail "report after rm warned: $(cat dl2.err)"
cmp -s dl1.tsv dl2.tsv && cmp -s dl1l.tsv dl2l.tsv || fail "the reports changed: $(diff dl1l.tsv dl2l.tsv)"
"$PCTBIN" report --no-cache --format=tsv dl.pct >dl3.tsv 2>/dev/null
[ "$(share_of dl3.tsv function hash_loop)" = 0.00 ] || fail "names without the cache: $(cat dl3.tsv)"
# the archive holds the debug file from the cache; --symfs reads it
"$PCTBIN" archive -o dl.tgz dl.pct 2>arch.err || fail "archive dl.pct: $(cat arch.err)"
tar tzf dl.tgz >dl.list || fail "tar tzf dl.tgz"
grep -q '^build-id/[0-9a-f]*/[0-9a-f]*/debug$' dl.list || fail "the archive has no debug file: $(cat dl.list arch.err)"
mkdir dlu && tar xzf dl.tgz -C dlu || fail "unpack dl.tgz"
PCT_CACHE=0 "$PCTBIN" report --format=tsv --by=line --symfs=dlu dlu/dl.pct >dl4l.tsv 2>dl4.err || fail "report --symfs"
cmp -s dl1l.tsv dl4l.tsv || fail "--symfs report differs: $(diff dl1l.tsv dl4l.tsv; cat dl4.err)"

# pct record --no-cache fills no cache; without it, record does
export XDG_CACHE_HOME=$PWD/c3
cc -O1 -o nc dl.c || fail "cc nc"
"$PCTBIN" record --no-cache -o nc.pct ./nc 100000000 2>rec.err || fail "record --no-cache: $(cat rec.err)"
[ ! -e c3 ] || fail "record --no-cache made a cache: $(ls -R c3)"
"$PCTBIN" report --format=tsv nc.pct | grep -q '	hash_loop$' || fail "record --no-cache: no profile"
"$PCTBIN" record -o nc.pct ./nc 100000000 2>rec.err || fail "record: $(cat rec.err)"
grep -q "	$PWD/nc\$" <("$PCTBIN" cache list) || fail "record did not cache ./nc: $("$PCTBIN" cache list)"

# over the size limit (512 MiB, pct-cache(1)): a sparse copy padded past
# it is not cached, with a warning; one padded below it is
export XDG_CACHE_HOME=$PWD/c4
cp nc big && truncate -s 513M big || fail "truncate"
"$PCTBIN" record -o big.pct ./big 100000000 2>big.err || fail "record big: $(cat big.err)"
grep -q "not kept in the build-id cache: '$PWD/big' is larger than 512 MiB" big.err || fail "no size warning: $(cat big.err)"
"$PCTBIN" cache list | grep -q '^# 0 modules' || fail "a 513 MiB file was cached: $("$PCTBIN" cache list)"
truncate -s 511M big || fail "truncate"
"$PCTBIN" record -o big.pct ./big 100000000 2>big.err || fail "record big: $(cat big.err)"
grep -q "	$PWD/big\$" <("$PCTBIN" cache list) || fail "a 511 MiB file was not cached: $(cat big.err)"
rm big

# not a regular file: a profile made through $PCT alone, its module then
# replaced by a FIFO; `pct archive` (which fills the cache for such
# profiles, quietly: its own warning says why the file is left out)
# neither opens nor caches it
export XDG_CACHE_HOME=$PWD/c5
cp nc nr || fail "cp"
PCT=env.pct LD_PRELOAD=$LIBPCT ./nr 100000000 || fail "run under \$PCT"
[ ! -e c5 ] || fail "the runtime alone filled the cache"
mv nr nr.saved && mkfifo nr || fail "mkfifo"
timeout 20 "$PCTBIN" archive -o fifo.tgz env.pct 2>fifo.err; rc=$?
[ $rc != 124 ] || fail "archive hung on a FIFO"
grep -q "left out: cannot open '$PWD/nr': a FIFO, not a regular file" fifo.err ||
	fail "no warning for the FIFO: $(cat fifo.err)"
! grep -q "	$PWD/nr\$" <("$PCTBIN" cache list) || fail "a FIFO was cached"
rm nr && mv nr.saved nr
"$PCTBIN" archive -o env.tgz env.pct 2>env.err || fail "archive env.pct: $(cat env.err)"
grep -q "	$PWD/nr\$" <("$PCTBIN" cache list) || fail "archive did not cache nr: $(cat env.err)"

pass "stripped program with a .gnu_debuglink file, both deleted: hash_loop $dlh%, lines $dll% from the cache, same with the archive; record --no-cache, hard links ($copied), the 512 MiB limit and a FIFO checked"
pass "the rebuilt program keeps $hl% in hash_loop ([unknown] $unk%), diff flags $flagged only, cache off loses names with one warning, prune and a planted link handled"
