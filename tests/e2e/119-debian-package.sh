# The Debian packages pct, libpct1 and libpct-dev (issue 21): built from
# packaging/debian/ in a copy of the tree with dpkg-buildpackage, no
# error from lintian, installed with dpkg -i, the installed pct recording
# and reporting a shell loop, a program built with pkg-config's flags,
# then removed and purged with no file left.  scripts/check-package.sh
# does it all (make check-package); about 80 s on 2 cores.
# pct-test: plain full (it tests the sources, whatever PCT_BUILD is; a second build of the whole tree, 56 s of CPU: make check-full and make check-package run it)
. "$(dirname "$0")/lib.sh"
# the packages are built from the sources, not from $B: once, in the
# plain suite
[ "$B" = build ] || skip "the package does not depend on PCT_BUILD=$B (tested in the plain suite)"
[ "$(id -u)" -eq 0 ] || skip "installing packages with dpkg -i needs root (run make check-package as root)"
for p in pct libpct1 libpct-dev; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qv not-installed &&
		skip "package $p is installed on this machine: not replacing it"
done
[ -e /usr/bin/pct ] && skip "/usr/bin/pct exists: not replacing it"
"$ROOT/scripts/check-package.sh" >out.txt 2>&1 || { tail -60 out.txt; fail "scripts/check-package.sh failed"; }
grep -q '^check-package: lintian: exit status 0, 0 errors' out.txt || fail "no clean lintian line: $(grep lintian: out.txt)"
grep -q '^check-package: removed and purged: none of the' out.txt || fail "no purge check in the output"
for p in pct libpct1 libpct-dev; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qv not-installed && fail "package $p left installed"
done
[ -e /usr/bin/pct ] && fail "/usr/bin/pct left behind"
pass "$(grep -E '^check-package: (installed pct recorded|lintian:|times:)' out.txt | tr '\n' ' ')"
