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
# told: profiled.  It runs until its profile has 100 samples (0.6 s of
# the program's CPU, doubling up to 9.6 s; until_samples): gdb stops the
# program at each signal, and a loaded machine loses CPU-timer
# expirations, so a fixed time's count says nothing (16 and 23 samples of
# 0.3 s were seen beside busy loops)
told() {
	rm -rf prof; mkdir prof
	timeout 120 gdb -q -nx -batch -ex "set startup-with-shell off" -ex 'handle SIG40 nostop noprint pass' -ex "set environment PCT=$SCRATCH/prof/m.pct" \
		-ex "set environment LD_PRELOAD=$LIBPCT" -ex 'set environment PCT_SIGNAL=40' \
		-ex 'set environment PCT_TRACED_OK=1' -ex run --args "$prog" "$1" >told.out 2>&1
	grep -qx done told.out || fail "told: the program did not end: $(cat told.out)"
	grep -q 'received signal' told.out && fail "told: gdb stopped at a signal: $(cat told.out)"
	return 0
}
until_samples 100 prof/m.pct 0.6 9.6 told
"$PCTBIN" report --format=tsv prof/m.pct >told.tsv || fail "told: no profile"
read -r n all <<<"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ all += $c["samples"] } $c["function"] == "burn" { n += $c["samples"] } END { print n + 0, all + 0 }' told.tsv)"
w=$(overrun_weight prof/m.pct)
# The samples are the program's: burn's share of them is at least 75% (its
# clock reads in clock_gettime, where a loaded machine's samples gather,
# took 3-8% idle, and up to 20 points more at a load of 6 on 2 CPUs:
# tests/progs/callchain.c), so the share is held to at least 75% less
# PCT_Z binomial standard errors, sqrt(0.75 x 0.25 x w / N) with w the
# overrun weight (each signal of weight w counts w samples): at most 1e-4
# to fail by chance
floor=$(awk -v n="$all" -v w="$w" -v z="$PCT_Z" 'BEGIN { printf "%d", n * (0.75 - z * sqrt(0.75 * 0.25 * w / n)) }')
[ "$n" -ge "$floor" ] || fail "told: $n samples in burn of $all (want $floor; overrun weight $w): $(cat told.tsv)"
pass "with SIG40 passed and PCT_TRACED_OK=1: $n samples in burn of $all in $RAN_FOR s (at least $floor)"
