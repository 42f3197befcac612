# A program run under a debugger: gdb stops the program at every signal it
# receives, and `gdb -batch` then kills it, so a traced process is not
# sampled, with one warning naming the tracer and the way to profile under
# it (libpct(3), DEBUGGERS); with PCT_SIGNAL=40, PCT_TRACED_OK=1 and gdb
# told to pass SIG40, it is profiled.  gdb cannot be told to pass
# SIGSTKFLT, pct's default signal: it has no name for it.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
command -v gdb >/dev/null || skip "no gdb"
prog=$HOSTS/host-fsize
run_gdb() {  # run_gdb ENV...: the program under gdb -batch, pct preloaded into it only
	local envs=() e
	for e in "$@"; do envs+=(-ex "set environment $e"); done
	timeout 60 gdb -q -nx -batch -ex "set startup-with-shell off" "${envs[@]}" -ex run --args "$prog" 0.3 2>&1 |
		grep -v -e '^Using host libthread_db' -e '^\[Thread debugging' -e '^\[Inferior' -e 'libthread_db'
	return "${PIPESTATUS[0]}"
}
run_gdb >plain.out; want=$?
grep -qx done plain.out || fail "the program did not run to its end under plain gdb: $(cat plain.out)"
for i in "${!MODES[@]}"; do
	rm -rf prof; mkdir prof
	run_gdb "PCT=$SCRATCH/prof/m.pct" "LD_PRELOAD=$LIBPCT" ${MODES[$i]:+"${MODES[$i]}"} >mode.out; rc=$?
	grep '^pct: ' mode.out >said; grep -v '^pct: ' mode.out >own
	[ "$rc" = "$want" ] || fail "${MODE_NAMES[$i]}: gdb exit $rc, $want without pct: $(cat mode.out)"
	cmp -s plain.out own || fail "${MODE_NAMES[$i]}: the session differs: $(diff plain.out own | head)"
	[ "$(grep -c 'tracer is attached' said)" = 1 ] || fail "${MODE_NAMES[$i]}: not one warning: $(cat said)"
	grep -q "'gdb'.*PCT_SIGNAL=40 and PCT_TRACED_OK=1.*handle SIG40 nostop noprint pass" said ||
		fail "${MODE_NAMES[$i]}: the warning does not say how: $(cat said)"
	[ -z "$(ls prof)" ] || fail "${MODE_NAMES[$i]}: a profile under the debugger: $(ls prof)"
done
pass "under gdb -batch the program runs to its end in every mode, with one warning"
# told: profiled
rm -rf prof; mkdir prof
timeout 60 gdb -q -nx -batch -ex "set startup-with-shell off" -ex 'handle SIG40 nostop noprint pass' -ex "set environment PCT=$SCRATCH/prof/m.pct" \
	-ex "set environment LD_PRELOAD=$LIBPCT" -ex 'set environment PCT_SIGNAL=40' \
	-ex 'set environment PCT_TRACED_OK=1' -ex run --args "$prog" 0.3 >told.out 2>&1
grep -qx done told.out || fail "told: the program did not end: $(cat told.out)"
grep -q 'received signal' told.out && fail "told: gdb stopped at a signal: $(cat told.out)"
"$PCTBIN" report --format=tsv prof/m.pct >told.tsv || fail "told: no profile"
n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["function"] == "burn" { n += $c["samples"] }
	END { print n + 0 }' told.tsv)
# 0.3 s of CPU at 250 Hz: 75 samples expected; 25 is 5.8 standard deviations below
[ "$n" -ge 25 ] || fail "told: $n samples in burn: $(cat told.tsv)"
pass "with SIG40 passed and PCT_TRACED_OK=1: $n samples in burn"
