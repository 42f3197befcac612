# The build-id cache is never made, nor read, through a path another user
# controls (issue 12, part 15).  As root with HOME a directory of nobody's
# whose .cache is a symbolic link to a root-owned directory, `pct archive`
# (which fills the cache) creates nothing there, and says once why the
# cache is off; `pct cache list` refuses.  A cache entry planted in
# nobody's HOME is not read.  A HOME of root's own keeps working, also
# through a root-owned .cache link; a link owned by nobody is not
# followed, even in root's directory.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (a HOME owned by another user, nobody)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
unset XDG_CACHE_HOME
exe=$PROGS/selftime
bid=$(readelf -n "$exe" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
[ ${#bid} -ge 4 ] || fail "$exe has no build-id"
# a profile of exe's own, with its build-id, its samples in main
cp "$exe" prog || fail "cp"
off=$(nm prog | awk '$3 == "main" { print $1 }')
[ -n "$off" ] || fail "no main in $exe"
printf 'module\tbuild_id\toffset\tsamples\n%s\t%s\t0x%s\t7\n' "$PWD/prog" "$bid" "$off" | "$PROGS/mkprofile" p.pct ||
	fail "mkprofile"
HOME=/nonexistent "$PCTBIN" report --no-cache --format=tsv p.pct | grep -q '	main$' || fail "p.pct is not in main"

# nobody's HOME, .cache -> a root-owned directory
mkdir home target && chown nobody home || fail "chown"
ln -s "$PWD/target" home/.cache && chown -h nobody home/.cache || fail "ln"
HOME=$PWD/home "$PCTBIN" archive -o a.tgz p.pct 2>a.err || fail "archive: $(cat a.err)"
cat a.err
[ -z "$(ls -A target)" ] || fail "the cache was made through nobody's HOME: $(ls -laR target)"
[ "$(find home -mindepth 1 | wc -l)" = 1 ] || fail "something was made in nobody's HOME: $(ls -laR home)"
n=$(grep -c "the build-id cache is off: '$PWD/home' is owned by uid [0-9]*, neither yours nor root's" a.err)
[ "$n" = 1 ] || fail "$n notes on the refused cache, not one: $(cat a.err)"
HOME=$PWD/home "$PCTBIN" cache list >list.txt 2>list.err && fail "cache list through nobody's HOME succeeded: $(cat list.txt)"
grep -q "owned by uid [0-9]*, neither yours nor root's" list.err || fail "cache list: $(cat list.err)"
[ -z "$(ls -A target)" ] || fail "cache list made something: $(ls -laR target)"

# an entry planted in nobody's own cache is not read: with prog gone, its
# names come from nowhere
mkdir -p home2/.cache/pct/build-id/"${bid:0:2}"/"${bid:2}" || fail "mkdir"
cp "$exe" home2/.cache/pct/build-id/"${bid:0:2}"/"${bid:2}"/elf && chown -R nobody home2 || fail "plant"
mv prog prog.saved
HOME=$PWD/home2 "$PCTBIN" report --format=tsv p.pct >r.tsv 2>r.err || fail "report: $(cat r.err)"
[ "$(share_of r.tsv function '[unknown]')" = 100.00 ] || fail "root read nobody's cache: $(cat r.tsv r.err)"
grep -q "the build-id cache is off: '$PWD/home2' is owned by uid" r.err || fail "report: no note: $(cat r.err)"
mv prog.saved prog

# root's own HOME: the cache is made and used, also through root's link
for h in mine linked; do
	mkdir $h
	[ $h = linked ] && mkdir elsewhere && ln -s "$PWD/elsewhere" linked/.cache
	HOME=$PWD/$h "$PCTBIN" archive -o $h.tgz p.pct 2>$h.err || fail "archive with HOME=$h: $(cat $h.err)"
	! grep -v "^pct: archived" $h.err | grep -q . || fail "HOME=$h: $(cat $h.err)"
	[ $h = mine ] && e=mine/.cache/pct/build-id/${bid:0:2}/${bid:2} || e=elsewhere/pct/build-id/${bid:0:2}/${bid:2}
	[ -f "$e/elf" ] || fail "HOME=$h: no cache entry: $(ls -laR $h)"
	[ "$(stat -c %a "${e%/build-id/*}")" = 700 ] || fail "HOME=$h: the cache is $(stat -c %a "${e%/build-id/*}")"
	HOME=$PWD/$h "$PCTBIN" cache list | grep -q "^$bid	" || fail "HOME=$h: cache list: $(HOME=$PWD/$h "$PCTBIN" cache list)"
done
# a link owned by nobody in root's HOME is not followed
mkdir h3 t3 && ln -s "$PWD/t3" h3/.cache && chown -h nobody h3/.cache || fail "ln h3"
HOME=$PWD/h3 "$PCTBIN" archive -o h3.tgz p.pct 2>h3.err || fail "archive h3: $(cat h3.err)"
[ -z "$(ls -A t3)" ] || fail "nobody's link was followed: $(ls -laR t3)"
grep -q "the build-id cache is off: '$PWD/h3/.cache' is a symbolic link owned by uid [0-9]*, neither yours nor root's" h3.err ||
	fail "h3: $(cat h3.err)"
pass "no cache through nobody's HOME (one note), none read from it; root's HOME and root's link work"
