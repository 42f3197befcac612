# pct archive and --symfs (issue 17): a profile archived with its modules
# and unpacked elsewhere reads the same, with --symfs, in a mount namespace
# where the program's directory is an empty tmpfs (the original binary is
# absent) and the build-id cache is off.  Functions, lines, annotate and a
# -g profile's stacks (which need libc's CFI from the archive too) are
# compared byte for byte with the reports made before.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || fail "no C compiler"
command -v unshare >/dev/null || fail "no unshare (util-linux)"
unshare -rm true 2>/dev/null || unshare -m true 2>/dev/null || skip "no mount namespaces here (unshare -rm)"
# the sources stay (annotate shows them; an archive holds no source), the
# binaries go
mkdir prog src
cp "$ROOT/tests/progs/callchain.c" "$ROOT/tests/progs/hotline.c" "$ROOT/tests/progs/burn.h" src/ || fail "cp"
cc -O1 -g -o prog/callchain src/callchain.c || fail "cc callchain"
cc -O1 -g -o prog/hotline src/hotline.c || fail "cc hotline"
"$PCTBIN" record -o hot.pct prog/hotline 2>/dev/null || fail "record hotline"
"$PCTBIN" record -g -o cc.pct prog/callchain 2>/dev/null || fail "record -g callchain"
"$PCTBIN" archive -o run.tar.gz hot.pct cc.pct 2>arch.err || fail "archive: $(cat arch.err)"
cat arch.err
tar tzf run.tar.gz >list.txt || fail "tar cannot read the archive"
grep -qx hot.pct list.txt && grep -qx cc.pct list.txt || fail "profiles missing: $(cat list.txt)"
n=$(grep -c '^build-id/[0-9a-f][0-9a-f]/[0-9a-f]*/elf$' list.txt)
[ "$n" -ge 3 ] || fail "only $n module files (hotline, callchain and libc at least): $(cat list.txt)"
mkdir u && tar xzf run.tar.gz -C u || fail "unpack"
cmp u/hot.pct hot.pct || fail "the archived profile differs"

# the reports, here and in the namespace, all from u/
cat >reports.sh <<EOS
cd "$PWD/u" || exit 1
P="$PCTBIN \$*"
set -e
$PCTBIN report --format=tsv \$* hot.pct
$PCTBIN report --format=tsv --by=line \$* hot.pct
$PCTBIN annotate \$* hot.pct
$PCTBIN report --format=tsv \$* cc.pct
$PCTBIN export --format=folded \$* cc.pct
EOS
bash reports.sh >before.txt 2>before.err || fail "reports before: $(cat before.err)"
grep -q "	hot	" before.txt || fail "the reports name nothing: $(head before.txt)"
[ ! -s before.err ] || fail "reports before warned: $(cat before.err)"
# in a namespace where prog/ is an empty tmpfs: the binaries are gone
unshare -rm sh -c "mount -t tmpfs none '$PWD/prog' && test ! -e '$PWD/prog/hotline' && PCT_CACHE=0 bash reports.sh --symfs=. " \
	>after.txt 2>after.err || fail "reports with --symfs: $(cat after.err)"
diff before.txt after.txt >d.txt || fail "reports differ with --symfs: $(head -20 d.txt)"
[ ! -s after.err ] || fail "reports with --symfs warned: $(cat after.err)"
# and without --symfs there, nothing is named (so the comparison can fail)
unshare -rm sh -c "mount -t tmpfs none '$PWD/prog' && PCT_CACHE=0 bash reports.sh" >none.txt 2>none.err
grep -q 'no symbols for hotline' none.err || fail "without --symfs the binary was found: $(cat none.err)"
pass "$(wc -l <before.txt) report lines identical from the archive with --symfs ($n module files), without the binaries"
