# A/A over runs of a real program (issue 20), too long for make check
# (about 4 minutes): `make check-long` runs it.  20 times: 5 + 5 runs of
# one python3 workload (tests/progs/pywork.py: json, zlib, re, dicts, about
# 1 s of CPU each, 1 kHz), compared with `pct diff --check -b ... ...`.
# Nothing changed, so --check must exit 0 in at least 19 of the 20
# experiments; any exit but 0 or 1 is a failure.
. "$(dirname "$0")/../e2e/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
ok=0
for rep in $(seq 1 20); do
	base=() new=()
	for i in 1 2 3 4 5; do
		"$PCTBIN" record -F 1000 -o b$rep-$i.pct python3 "$ROOT/tests/progs/pywork.py" 80 2>rec.err || fail "record: $(tail -2 rec.err)"
		"$PCTBIN" record -F 1000 -o n$rep-$i.pct python3 "$ROOT/tests/progs/pywork.py" 80 2>rec.err || fail "record: $(tail -2 rec.err)"
		base+=(-b b$rep-$i.pct) new+=(n$rep-$i.pct)
	done
	"$PCTBIN" diff --check "${base[@]}" "${new[@]}" >check$rep.txt
	rc=$?
	case $rc in
	0) ok=$((ok + 1)) ;;
	1) echo "experiment $rep:"; cat check$rep.txt ;;
	*) fail "pct diff --check exited $rc" ;;
	esac
	rm -f b$rep-*.pct n$rep-*.pct
done
echo "--check exited 0 in $ok of 20 A/A experiments (5 + 5 python3 runs each)"
[ "$ok" -ge 19 ] || fail "--check failed an A/A experiment more than once"
pass "A/A: --check exited 0 in $ok of 20"
