# A program that needs its pending-signal quota (RLIMIT_SIGPENDING, the
# user's queued signals), which each CPU-time timer of pct's holds one of:
# lowering the limit to 10 left it 1 of 6 sigqueues and 0 of 4 timers, and
# at ulimit -i 40 it got 20 of 30 timers.  pct gives its timers back when
# the program's sigqueue, pthread_sigqueue or timer_create fails with
# EAGAIN, and keeps at most half of a lowered limit (libpct(3),
# RESOURCES).  Run as nobody, whose queued signals are this test's alone.
# pct-test: alone (RLIMIT_SIGPENDING counts the pending signals of every process of the user)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null || skip "no setpriv to run as nobody"
[ "$(ps -u nobody -o pid= | wc -l)" = 0 ] || skip "nobody runs processes here: $(ps -u nobody -o comm= | head -3 | tr '\n' ' ')"
chmod o+x "$SCRATCH"
WRAP=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
host_modes "limit lowered to 10" "$HOSTS/host-sigpend" 8 lower
[ "$(cat plain.out)" = "sigqueue 6 of 6, timer_create 4 of 4" ] || fail "plain: $(cat plain.out)"
PRE="ulimit -i 40"
host_modes "30 timers at ulimit -i 40" "$HOSTS/host-sigpend" 25 need 30
[ "$(cat plain.out)" = "timer_create 30 of 30" ] || fail "plain: $(cat plain.out)"
for m in default g; do
	[ "$(grep -c 'pct gives them back' "err.$m")" = 1 ] || fail "$m: not one warning: $(cat "err.$m")"
done
pass "the program gets every pending signal it would without pct"
