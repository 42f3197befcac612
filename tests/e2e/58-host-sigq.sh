# The pending-signal quota (ulimit -i 40, per user): each of pct's
# per-thread timers holds one of the user's queued signals.  The program
# (30 threads, then 18 timers of its own) must get all its timers: pct
# uses at most half of the quota (SigQ in /proc/self/status) and leaves
# further threads unsampled with one warning.  Run as nobody, whose quota
# nothing else here uses.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
command -v setpriv >/dev/null || skip "no setpriv"
[ "$(id -u)" = 0 ] || skip "needs root to run as nobody"
chmod 777 "$SCRATCH"
# the limit is set by nobody's shell: root's own quota is shared with
# every root process of the machine
WRAP=(setpriv --reuid=nobody --regid=nogroup --clear-groups bash -c 'ulimit -i 40 && exec "$@"' sh)
host_modes "ulimit -i 40" "$HOSTS/host-sigq"
for m in default F5000 g; do
	[ "$(grep -c 'pending-signal limit' "err.$m")" = 1 ] || fail "$m: expected one warning: $(cat "err.$m")"
done
case "$SAMPLES" in *" default=0"*) fail "no samples";; esac
pass "ulimit -i 40: the program's 18 timers in every mode"
