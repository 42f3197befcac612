# A program that blocks every signal in every thread and takes them with
# sigtimedwait(2) and a signalfd(2) never receives pct's signal: a thread
# that blocks it is paused (libpct(3), SIGNALS), so the host takes no
# samples.  With PCT_SIGNAL set to a real-time signal, the same.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
same_in_every_mode 0 "$HOSTS/sigwaiter" 0.4
[ "$(cat plain.out)" = "end took signal 10" ] || fail "the host itself: $(cat plain.out)"
PCT_SIGNAL=50 timeout 60 "$PCTBIN" record -o rt.pct "$HOSTS/sigwaiter" 0.4 >rt.out 2>rt.err ||
	fail "PCT_SIGNAL=50: $(cat rt.out rt.err)"
diff plain.out rt.out || fail "PCT_SIGNAL=50: the output differs"
echo "sigwait and signalfd never took pct's signal"
# A thread that blocks signals around short stretches of work: the time it
# runs with pct's signal open is sampled as if the closed stretches were
# not there (a pause keeps what was left of the timer's period), the
# closed stretches are not.
timeout 60 "$PCTBIN" record -o mask.pct "$HOSTS/masker" 1.0 >mask.out 2>mask.err || fail "masker: $(cat mask.err)"
"$PCTBIN" report --format=tsv mask.pct >mask.tsv || fail "report masker"
fn() { awk -F'\t' -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["function"] == f { n += $k["samples"] } END { print n + 0 }' mask.tsv; }
echo "masker: open_work $(fn open_work) samples, closed_work $(fn closed_work) (1 s each)"
# 1 s open at 250 Hz is 250 samples; a CPU-time timer fires only at a
# tick that finds it due and its thread running with the timer armed, so
# about a third of them come (a plain program that pauses its own timer so
# gets 48 of 125 in 0.5 s; restarting the period at each resume instead
# gives 0), and on a loaded machine fewer still (18 of 125 seen)
[ "$(fn open_work)" -ge 20 ] || fail "the open stretches are not sampled: $(cat mask.tsv)"
[ "$(fn closed_work)" = 0 ] || fail "samples while pct's signal was blocked: $(cat mask.tsv)"
echo "a thread that blocks signals now and then is sampled while it does not"
# A thread that blocks every signal before pct starts (pct_on() called by
# a program linked with libpct.a) is found running and left unarmed.
LATE_PCT=late.pct timeout 60 "$HOSTS/latewait" 0.4 >late.out 2>late.err || fail "latewait: $(cat late.err)"
[ "$(cat late.out)" = done ] || fail "a thread that blocked pct's signal before pct started took it: $(sort late.out | uniq -c)"
n=$("$PCTBIN" report late.pct | sed -n 's/^# \([0-9]*\) samples.*/\1/p')
echo "latewait: $n samples, the waiting thread took nothing"
[ "${n:-0}" -ge 20 ] || fail "latewait: ${n:-no} samples of its main thread"
pass "a thread that blocked pct's signal before pct started is not sampled"
