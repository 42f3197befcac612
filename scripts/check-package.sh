#!/bin/sh
# scripts/check-package.sh - build pct's Debian packages, lint them, and
# test them installed (make check-package).
#
# 1. installs what the build needs if missing (debhelper, dpkg-dev,
#    lintian, fakeroot, pkgconf and the Build-Depends of
#    packaging/debian/control), from Debian's archive;
# 2. copies the tree to a temporary directory, puts packaging/debian there
#    as debian/ and runs dpkg-buildpackage -us -uc -b (the repository stays
#    clean);
# 3. runs lintian on the .changes: prints all it says, fails on any E: tag;
# 4. installs pct, libpct1 and libpct-dev with dpkg -i (root: this is for
#    CI and throwaway machines), and checks them: pct --help, pct record of
#    a real program and pct report of its samples with the installed
#    /usr/bin/pct, a program built with pkg-config's flags for libpct;
# 5. removes and purges the three packages and checks that none of their
#    files is left.
# Refuses to start if the packages, or a /usr/bin/pct of another origin,
# are already there.  Exit status 0 when every step passed.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PKGS="pct libpct1 libpct-dev"
say() { echo "check-package: $*"; }
die() { echo "check-package: FAIL: $*" >&2; exit 1; }
now() { date +%s; }
t_start=$(now)

[ "$(id -u)" -eq 0 ] || die "run as root: the packages are installed with dpkg -i and removed again"
installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'; }
known() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -qv 'not-installed'; }
for p in $PKGS; do
	known "$p" && die "package $p is already on this machine; remove it first (dpkg --purge $p)"
done
[ -e /usr/bin/pct ] && die "/usr/bin/pct exists and is no package's: not overwriting it"

# 1. the tools and the build dependencies
export DEBIAN_FRONTEND=noninteractive
missing=
for p in dpkg-dev debhelper lintian fakeroot build-essential; do
	installed "$p" || missing="$missing $p"
done
command -v pkg-config >/dev/null || missing="$missing pkgconf"
if [ -n "$missing" ]; then
	say "installing Debian packages:$missing"
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# dpkg-checkbuilddeps names the unmet Build-Depends of the control file;
# version constraints dropped, debhelper-compat is debhelper's
unmet=$(dpkg-checkbuilddeps "$ROOT/packaging/debian/control" 2>&1 |
	sed -n 's/.*Unmet build dependencies: //p' | sed 's/([^)]*)//g; s/debhelper-compat/debhelper/g') || true
if [ -n "$unmet" ]; then
	say "installing build dependencies: $unmet"
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $unmet >/dev/null
fi
dpkg-checkbuilddeps "$ROOT/packaging/debian/control" || die "build dependencies still unmet"
t_deps=$(now)

# 2. the build, in a copy of the tree
ver=$(dpkg-parsechangelog -l "$ROOT/packaging/debian/changelog" -S Version)
TMP=$(mktemp -d /tmp/pct-package.XXXXXX)
done_ok=0
installed_here=0
cleanup() {
	if [ "$installed_here" -eq 1 ]; then
		say "cleaning up: purging $PKGS"
		dpkg --purge $PKGS >/dev/null 2>&1 || true
	fi
	if [ "$done_ok" -eq 1 ] || [ -z "${PCT_KEEP:-}" ]; then rm -rf "$TMP"; else say "kept $TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
SRC=$TMP/pct-$ver
mkdir -p "$SRC"
(cd "$ROOT" && tar -cf - --exclude=./.git --exclude=./build --exclude=./build-san --exclude=./build-fuzz \
	--exclude=./debian .) | (cd "$SRC" && tar -xf -)
cp -r "$SRC/packaging/debian" "$SRC/debian"
say "building pct $ver in $SRC (dpkg-buildpackage -us -uc -b)"
if ! (cd "$SRC" && dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1; then
	tail -60 "$TMP/build.log"
	die "dpkg-buildpackage failed (the last 60 lines above)"
fi
t_build=$(now)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
changes=$TMP/pct_${ver}_$arch.changes
[ -f "$changes" ] || die "no $changes"
debs=
for p in $PKGS; do
	d=$TMP/${p}_${ver}_$arch.deb
	[ -f "$d" ] || die "no $d"
	debs="$debs $d"
	say "$(basename "$d"): $(stat -c %s "$d") bytes"
	dpkg-deb -c "$d" | awk '{ print "    " $1 " " $6 ($7 ? " " $7 " " $8 : "") }'
done

# 3. lintian: all of its output, errors fail
say "lintian $(basename "$changes")"
rc=0
lintian -I "$changes" >"$TMP/lintian.out" 2>&1 || rc=$?
sed 's/^/    /' "$TMP/lintian.out"
nerr=$(grep -c '^E: ' "$TMP/lintian.out" || true)
nwarn=$(grep -c '^W: ' "$TMP/lintian.out" || true)
say "lintian: exit status $rc, $nerr errors, $nwarn warnings"
# lintian(1): 1 is a run-time error, 2 tags of --fail-on's level (errors)
[ "$rc" -ne 1 ] || die "lintian failed to run (exit status 1)"
[ "$nerr" -eq 0 ] && [ "$rc" -eq 0 ] || die "lintian reports errors (exit status $rc, $nerr E: tags)"
t_lint=$(now)

# 4. installed: the tool records and reports a real program, the library
# links by pkg-config
installed_here=1
dpkg -i $debs >"$TMP/dpkg-i.log" 2>&1 || { cat "$TMP/dpkg-i.log"; die "dpkg -i failed"; }
for p in $PKGS; do installed "$p" || die "$p is not installed after dpkg -i"; done
files=$TMP/files.txt
for p in $PKGS; do dpkg -L "$p"; done | while read -r f; do
	[ -d "$f" ] && [ ! -L "$f" ] || echo "$f"
done >"$files"
say "installed $(wc -l <"$files") files:"
sed 's/^/    /' "$files"
for f in /usr/bin/pct /usr/lib/$ma/libpct.so.1 /usr/lib/$ma/libpct.so /usr/lib/$ma/libpct.a \
	/usr/include/pct.h /usr/include/pct_format.h /usr/lib/$ma/pkgconfig/libpct.pc \
	/usr/share/man/man1/pct.1.gz /usr/share/man/man3/libpct.3.gz /usr/share/man/man5/pct.5.gz \
	/usr/share/bash-completion/completions/pct; do
	grep -qx "$f" "$files" || die "no package installed $f"
done
W=$TMP/work
mkdir -p "$W"
cd "$W"
/usr/bin/pct --help >help.out 2>&1 || die "pct --help failed: $(head -5 help.out)"
grep -q record help.out || die "pct --help does not list record"
say "/usr/bin/pct --version: $(/usr/bin/pct --version)"
# a shell loop: CPU time in /bin/sh, about a second
env -u PCT_LIB timeout 120 /usr/bin/pct record -o x.pct /bin/sh -c \
	'i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done' >rec.out 2>&1 ||
	die "installed pct record failed: $(cat rec.out)"
timeout 120 /usr/bin/pct report x.pct >rep.out 2>&1 || die "installed pct report failed: $(cat rep.out)"
sed -n '1,12s/^/    /p' rep.out
n=$(sed -n 's/^# \([0-9][0-9]*\) samples .*/\1/p' rep.out | head -1)
[ -n "$n" ] || die "no sample count in pct report's header"
[ "$n" -ge 20 ] || die "only $n samples of a shell loop of about a second"
say "installed pct recorded /bin/sh: $n samples"
# pct_on() from a program built with pkg-config's flags, and with libpct.a
cat >p.c <<'C'
#include <pct.h>
#include <stdio.h>
int main(void) { printf("%d\n", pct_on()); return 0; }
C
flags=$(pkg-config --cflags --libs libpct) || die "pkg-config does not know libpct"
cc -o p p.c $flags || die "cannot build with pkg-config's flags: $flags"
[ "$(./p)" = 0 ] || die "pct_on() without PCT should return 0"
[ "$(PCT=p.pct ./p)" = 1 ] || die "pct_on() with PCT set should return 1 (libpct.so.1)"
cc -o ps p.c /usr/lib/$ma/libpct.a || die "cannot link with libpct.a"
[ "$(PCT=ps.pct ./ps)" = 1 ] || die "pct_on() with PCT set should return 1 (libpct.a)"
say "pkg-config --cflags --libs libpct: '$flags'; pct_on() works through libpct.so.1 and libpct.a"
cd /
t_inst=$(now)

# 5. removed, then purged: no file left
dpkg -r $PKGS >"$TMP/dpkg-r.log" 2>&1 || { cat "$TMP/dpkg-r.log"; die "dpkg -r failed"; }
for p in $PKGS; do installed "$p" && die "$p still installed after dpkg -r"; done
dpkg --purge $PKGS >"$TMP/dpkg-p.log" 2>&1 || { cat "$TMP/dpkg-p.log"; die "dpkg --purge failed"; }
installed_here=0
for p in $PKGS; do known "$p" && die "$p still known to dpkg after --purge"; done
left=$(while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done <"$files") || true
[ -z "$left" ] || die "left after dpkg --purge: $left"
say "removed and purged: none of the $(wc -l <"$files") files left"
t_end=$(now)
done_ok=1
say "times: dependencies $((t_deps - t_start)) s, build $((t_build - t_deps)) s, lintian $((t_lint - t_build)) s," \
	"install and tests $((t_inst - t_lint)) s, removal $((t_end - t_inst)) s; total $((t_end - t_start)) s"
say "PASS"
