# make install PREFIX=DIR puts every agreed file in place, and the
# installed pct finds the installed runtime.
# pct-test: plain (it tests the plain build or the sources, whatever PCT_BUILD is)
. "$(dirname "$0")/lib.sh"
make -s -C "$ROOT" install PREFIX="$SCRATCH/inst" >/dev/null || fail "make install failed"
for f in bin/pct lib/libpct.so lib/libpct.a include/pct.h include/pct_format.h \
	share/man/man1/pct.1 share/man/man1/pct-record.1 share/man/man1/pct-report.1 \
	share/man/man1/pct-dump.1 share/man/man1/pct-sym.1 share/man/man1/pct-line.1 \
	share/man/man1/pct-sum.1 share/man/man1/pct-annotate.1 share/man/man1/pct-source.1 \
	share/man/man1/pct-diff.1 share/man/man1/pct-merge.1 share/man/man3/libpct.3 share/man/man5/pct.5; do
	[ -e "inst/$f" ] || fail "missing $f"
done
inst/bin/pct record -o i.pct "$PROGS/selftime" 0.3 >/dev/null 2>err || fail "installed pct record: $(cat err)"
inst/bin/pct report i.pct | grep -q work_a || fail "installed pct report"
# a program built against the installed header and static library
cat >p.c <<'C'
#include <pct.h>
#include <stdio.h>
int main(void) { printf("%d\n", pct_on()); return 0; }
C
cc -Iinst/include -o p p.c inst/lib/libpct.a || fail "cannot build against the installed libpct.a"
[ "$(./p)" = 0 ] || fail "pct_on() without PCT should return 0"
MANPATH=inst/share/man man -w pct-report >/dev/null 2>&1 || man -l inst/share/man/man1/pct-report.1 >/dev/null || fail "man page"
pass "installed"
