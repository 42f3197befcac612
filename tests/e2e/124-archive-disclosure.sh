# pct archive discloses nothing (issue 12, part 12): root's archive of a
# profile that another user (nobody) wrote holds no file that the profile
# merely names unless nobody could read it: a root-only file, a
# world-readable file in a private directory and /etc/shadow, named as
# modules without a build-id, are left out, each named once with its
# reason and counted in the summary; a world-readable file is kept, and so
# is a root-only one in root's own profile.  An archive is never more
# readable than the most private file in it: a 0600 profile, or a 0600
# module, gives a 0600 archive, also over an existing 0644 file, and
# nobody cannot read it.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (a profile written by another user, nobody)"
command -v setpriv >/dev/null || fail "no setpriv (util-linux)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
ngid=$(id -g nobody)
asnobody() { setpriv --reuid=nobody --regid="$ngid" --clear-groups "$@"; }
umask 022
chmod 755 "$SCRATCH"
mkdir pub priv && chmod 755 pub && chmod 700 priv
printf 'root only 0600\n' >pub/secret && chmod 600 pub/secret
printf 'behind a 0700 directory\n' >priv/notes && chmod 644 priv/notes
printf 'anyone may read this\n' >pub/open && chmod 644 pub/open
mods="$PWD/pub/secret $PWD/priv/notes $PWD/pub/open"
[ -f /etc/shadow ] && mods="$mods /etc/shadow"
# mkprof OUT MODULE...: a profile naming each MODULE, without a build-id
mkprof() {
	local out=$1; shift
	{ printf 'module\tbuild_id\toffset\tsamples\n'; for m in "$@"; do printf '%s\t\t16\t5\n' "$m"; done; } |
		"$PROGS/mkprofile" "$out" || fail "mkprofile $out"
}
# shellcheck disable=SC2086
mkprof pub/evil.pct $mods
chown nobody:"$ngid" pub/evil.pct && chmod 644 pub/evil.pct || fail "chown"
"$PCTBIN" archive -o pub/evil.tgz pub/evil.pct 2>arch.err || fail "archive: $(cat arch.err)"
cat arch.err
tar -tzf pub/evil.tgz >list.txt || fail "tar -tzf: $(cat list.txt)"
for f in pub/secret priv/notes etc/shadow; do
	! grep -q "$f\$" list.txt || fail "the archive holds $f: $(cat list.txt)"
done
grep -qx "${PWD#/}/pub/open" list.txt || fail "the world-readable file was left out: $(cat list.txt)"
grep -qx evil.pct list.txt || fail "the profile is not in the archive: $(cat list.txt)"
left=0
for m in $mods; do
	[ "$m" = "$PWD/pub/open" ] && continue
	left=$((left + 1))
	n=$(grep -c "left out: '$m' has no build-id to check it by, and uid 65534" arch.err)
	[ "$n" = 1 ] || fail "'$m' is named $n times, not once: $(cat arch.err)"
done
grep -q "cannot search '$PWD/priv'" arch.err || fail "no reason for priv/notes: $(cat arch.err)"
grep -q "archived 1 profile and 1 module file into 'pub/evil.tgz'; $left files left out (above)" arch.err ||
	fail "the summary does not count the $left files left out: $(cat arch.err)"
asnobody tar -xzOf pub/evil.tgz >nobody.out 2>/dev/null
grep -q 'anyone may read' nobody.out || fail "nobody cannot read the archive of a 0644 profile"
! grep -q 'root only\|0700 directory' nobody.out || fail "nobody read a root-only file from the archive"

# root's own profile naming the same root-only file: the caller's access;
# the archive is then 0600, as that file
mkprof pub/mine.pct "$PWD/pub/secret" "$PWD/pub/open"
"$PCTBIN" archive -o pub/mine.tgz pub/mine.pct 2>mine.err || fail "archive mine: $(cat mine.err)"
tar -tzf pub/mine.tgz | grep -qx "${PWD#/}/pub/secret" || fail "root's own profile lost its module: $(cat mine.err)"
[ "$(stat -c %a pub/mine.tgz)" = 600 ] || fail "the archive with a 0600 module is $(stat -c %a pub/mine.tgz)"
! asnobody cat pub/mine.tgz >/dev/null 2>&1 || fail "nobody read the archive holding a 0600 module"

# a 0600 profile (as -g writes it): a 0600 archive, new or replacing a 0644 file
mkprof pub/stack.pct "$PWD/pub/open"
chmod 600 pub/stack.pct
: >pub/old.tgz && chmod 644 pub/old.tgz
for out in pub/stack.tgz pub/old.tgz; do
	"$PCTBIN" archive -o $out pub/stack.pct 2>stack.err || fail "archive -o $out: $(cat stack.err)"
	[ "$(stat -c %a $out)" = 600 ] || fail "the archive of a 0600 profile is $(stat -c %a $out) ($out)"
	! asnobody cat $out >/dev/null 2>&1 || fail "nobody read $out, the archive of a 0600 profile"
	grep -q "left out" stack.err && fail "left out from root's own profile: $(cat stack.err)"
done
# and a 0644 profile of world-readable modules: 0644 & ~umask
mkprof pub/plain.pct "$PWD/pub/open"
"$PCTBIN" archive -o pub/plain.tgz pub/plain.pct 2>/dev/null || fail "archive plain"
[ "$(stat -c %a pub/plain.tgz)" = 644 ] || fail "the archive of a 0644 profile is $(stat -c %a pub/plain.tgz)"
pass "$left files nobody could not read left out of the archive of nobody's profile; 0600 profile or module -> 0600 archive"
