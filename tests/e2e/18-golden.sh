# Golden files: the exact bytes of each stage's output, from a profile
# written by tests/progs/mkprofile (an independent writer of pct(5)) with
# modules that do not exist, so that the output is the same everywhere.
# Regenerate after a deliberate format change with: tests/e2e/18-golden.sh --update
. "$(dirname "$0")/lib.sh"
G=$ROOT/tests/golden
"$PROGS/mkprofile" g.pct <"$G/input.tsv" || fail "mkprofile"
P=$PCTBIN
run_all() {
	$P dump g.pct >dump.tsv
	$P sym dump.tsv >sym.tsv 2>/dev/null
	$P line sym.tsv >line.tsv 2>/dev/null
	$P sum --by=module line.tsv >sum-module.txt
	$P sum --by=module,function --format=tsv line.tsv >sum-function.tsv
	$P report g.pct >report.txt 2>/dev/null
	$P report -l g.pct >report-long.txt 2>/dev/null
	$P report --by=address --format=tsv g.pct >report-address.tsv 2>/dev/null
	$P report --by=thread g.pct >report-thread.txt 2>/dev/null
	$P report --split=thread --format=tsv g.pct >report-split.tsv 2>/dev/null
}
run_all
outs="dump.tsv sym.tsv line.tsv sum-module.txt sum-function.tsv report.txt report-long.txt report-address.tsv report-thread.txt report-split.tsv"
if [ "${1:-}" = --update ]; then
	cp $outs "$G/" && echo "updated $G" && exit 0
fi
for f in $outs; do
	diff -u "$G/$f" "$f" || fail "$f differs from tests/golden/$f"
done
# sym warns once per module it cannot read, naming it
$P sym dump.tsv 2>&1 >/dev/null | grep -c "no symbols for" | grep -q '^2$' || fail "expected one warning per missing module"
pass "$(echo $outs | wc -w) golden files match"
