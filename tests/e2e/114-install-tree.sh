# The install tree as distributions expect it: make install with a LIBDIR
# of its own, a program built with `pkg-config --cflags --libs libpct`,
# the SONAME and the exported symbols of libpct.so.1, the hardening of the
# pct binary (checksec's checks, with readelf), the installed pct
# recording a real program, and make uninstall leaving no file behind.
# pct-test: plain (it tests the plain build or the sources, whatever PCT_BUILD is)
. "$(dirname "$0")/lib.sh"
for t in pkg-config readelf nm cc; do
	command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh installs pkg-config and binutils)"
done
P=$SCRATCH/inst
# LIBDIR away from PREFIX/lib, as Debian's multiarch lib/x86_64-linux-gnu:
# pct then finds the runtime by the LIBDIR it was built for, not beside itself
L=$P/lib/multi
make -s -C "$ROOT" install PREFIX="$P" LIBDIR="$L" MANDIR="$P/man" >make.out 2>&1 ||
	fail "make install failed: $(tail -5 make.out)"
for f in bin/pct lib/multi/libpct.so.1.0.0 lib/multi/libpct.a include/pct.h lib/multi/pkgconfig/libpct.pc \
	share/bash-completion/completions/pct man/man1/pct.1 man/man3/libpct.3; do
	[ -f "$P/$f" ] || fail "missing $f"
done
[ "$(readlink "$L/libpct.so.1")" = libpct.so.1.0.0 ] || fail "libpct.so.1 is not a link to libpct.so.1.0.0"
[ "$(readlink "$L/libpct.so")" = libpct.so.1 ] || fail "libpct.so is not a link to libpct.so.1"
[ -e "$P/lib/libpct.so.1" ] && fail "a runtime in PREFIX/lib although LIBDIR is $L"

# the SONAME, and exactly lib/libpct.map's symbols exported
readelf -d "$L/libpct.so.1.0.0" | grep -q 'Library soname: \[libpct.so.1\]' || fail "no SONAME libpct.so.1"
sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' "$ROOT/lib/libpct.map" | sort >map.txt
nm -D --defined-only "$L/libpct.so.1.0.0" | awk '$2 ~ /^[TWDBR]$/ { print $3 }' | sort >exported.txt
diff map.txt exported.txt >sym.diff || fail "exported symbols differ from lib/libpct.map: $(cat sym.diff)"
grep -q '^pct_on$' exported.txt || fail "pct_on not exported"
# every function lib/ defines for export (PUBLIC, interposing on libc) is in the map
grep -h -E '^(PUBLIC|__attribute__\(\(visibility\("default"\)\)\))' "$ROOT"/lib/*.c |
	sed -E 's/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort >public.txt
[ "$(wc -l <public.txt)" -ge 20 ] || fail "only $(wc -l <public.txt) PUBLIC definitions found in lib/"
comm -23 public.txt map.txt >missing.txt
[ -s missing.txt ] && fail "PUBLIC in lib/ but not in lib/libpct.map (hidden): $(cat missing.txt)"

# pkg-config compiles and links a program calling pct_on()
cat >p.c <<'C'
#include <pct.h>
#include <stdio.h>
int main(void) { printf("%d\n", pct_on()); return 0; }
C
export PKG_CONFIG_PATH=$L/pkgconfig
flags=$(pkg-config --cflags --libs libpct) || fail "pkg-config does not know libpct"
case $flags in *"-L$L"*"-lpct"*) ;; *) fail "pkg-config flags '$flags' lack -L$L -lpct" ;; esac
[ "$(pkg-config --modversion libpct)" = 1.0.0 ] || fail "libpct version $(pkg-config --modversion libpct)"
cc -o p p.c $flags || fail "cannot build with pkg-config's flags: $flags"
readelf -d p | grep -q 'Shared library: \[libpct.so.1\]' || fail "p does not need libpct.so.1"
[ "$(LD_LIBRARY_PATH=$L ./p)" = 0 ] || fail "pct_on() without PCT should return 0"
[ "$(PCT=p.pct LD_LIBRARY_PATH=$L ./p)" = 1 ] || fail "pct_on() with PCT set should return 1"

# checksec's checks of the installed pct, with readelf
exe=$P/bin/pct
readelf -h "$exe" | grep -q 'Type:.*DYN' || fail "pct is not PIE (type $(readelf -h "$exe" | grep Type:))"
readelf -lW "$exe" | grep -q GNU_RELRO || fail "pct has no GNU_RELRO segment"
readelf -d "$exe" | grep -qE '\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW' || fail "pct is not BIND_NOW (full RELRO)"
nm -D "$exe" | grep -q ' __stack_chk_fail' || fail "pct has no stack protector (__stack_chk_fail)"
nchk=$(nm -D "$exe" | grep -cE ' __[a-z]+_chk(@|$)')
[ "$nchk" -ge 3 ] || fail "pct is not fortified: $nchk __*_chk functions"
echo "pct: PIE, GNU_RELRO, BIND_NOW, canary, $nchk fortified functions"

# the installed pct records and reports a real program, with the runtime
# found in LIBDIR
"$exe" record -o i.pct "$PROGS/selftime" 0.3 >/dev/null 2>err || fail "installed pct record: $(cat err)"
"$exe" report i.pct | grep -q work_a || fail "installed pct report lacks work_a"
# and the runtime preloaded by hand, by its SONAME
PCT=pre.pct LD_PRELOAD=$L/libpct.so.1 "$PROGS/selftime" 0.3 >/dev/null || fail "preloaded run failed"
"$exe" report pre.pct | grep -q work_a || fail "preloaded profile lacks work_a"

# uninstall: no file or link left under the prefix
make -s -C "$ROOT" uninstall PREFIX="$P" LIBDIR="$L" MANDIR="$P/man" >make.out 2>&1 ||
	fail "make uninstall failed: $(tail -5 make.out)"
left=$(find "$P" ! -type d)
[ -z "$left" ] || fail "left after make uninstall: $left"
pass "install tree: SONAME, $(wc -l <exported.txt) symbols, pkg-config, hardening, record, uninstall"
