# A program that blocks every signal in every thread and takes them with
# sigtimedwait(2) and a signalfd(2) never receives pct's signal: a thread
# that blocks it is paused (libpct(3), SIGNALS), so the host takes no
# samples.  With PCT_SIGNAL set to a real-time signal, the same.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/modes.sh"
same_in_every_mode 0 "$HOSTS/sigwaiter" 0.4
[ "$(cat plain.out)" = "end took signal 10" ] || fail "the host itself: $(cat plain.out)"
PCT_SIGNAL=50 timeout 60 "$PCTBIN" record -o rt.pct "$HOSTS/sigwaiter" 0.4 >rt.out 2>rt.err ||
	fail "PCT_SIGNAL=50: $(cat rt.out rt.err)"
diff plain.out rt.out || fail "PCT_SIGNAL=50: the output differs"
pass "sigwait and signalfd never take pct's signal"
