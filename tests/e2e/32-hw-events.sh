# Hardware events where the CPU or VM exposes them; where it does not (as on
# these VMs), record refuses with the reason before running anything, and a
# preloaded program warns once and runs on unchanged.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
for ev in cycles instructions cache-misses branch-misses; do
	"$PCTBIN" record -e $ev -o hw.pct "$PROGS/selftime" 0.3 >out 2>err; rc=$?
	if [ $rc -eq 0 ]; then
		# exposed here: the file says what it counted
		"$PCTBIN" report hw.pct | sed -n 2p | grep -q "of $ev" || fail "$ev: the report does not name its unit"
		echo "$ev: sampled"
		rm -f hw.pct
		continue
	fi
	[ $rc -eq 1 ] || fail "$ev: status $rc"
	grep -q "no hardware event '$ev'" err || fail "$ev: unclear error: $(cat err)"
	[ ! -s out ] && [ ! -e hw.pct ] || fail "$ev: the command ran or a file was written"
	echo "$ev: $(cat err)"
	PCT=pre.pct PCT_EVENT=$ev LD_PRELOAD=$LIBPCT "$PROGS/selftime" 0.2 >out 2>err || fail "$ev: preloaded program failed"
	[ "$(grep -c '^pct:' err)" = 1 ] && grep -q "$ev" err || fail "$ev: preload warning: $(cat err)"
	[ "$(wc -l <out)" = 3 ] && [ ! -e pre.pct ] || fail "$ev: output changed or a file was written"
done
"$PCTBIN" record -e nonsense true 2>err; [ $? -eq 2 ] && grep -q "unknown event 'nonsense'" err || fail "unknown event"
pass "hardware events: clear errors where unavailable"
