# A raw clone(CLONE_VM) child (not a thread) that calls exit() runs the
# destructors of the shared libraries in memory it shares with its
# parent.  pct's destructor in the child must change nothing: the parent,
# which burns 0.3 s before the clone and 1.2 s after, is sampled for all
# 1.5 s.  (Before the fix: 0.3 s, and the header stayed "running".)
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
host_modes "clone(CLONE_VM) child exits" "$HOSTS/host-clonevm"
# 1.5 s of CPU: at least 0.75 s of samples at each mode's rate, where a
# stopped child leaves 0.3 s.  (Under heavy load CPU timers lose
# expirations: 252 of 375 samples in one loaded suite.)
for want in default=190 F5000=3750 wall=190 g=190; do
	m=${want%=*}
	got=$(echo "$SAMPLES" | tr ' ' '\n' | sed -n "s/^$m=//p")
	[ "$got" -ge "${want#*=}" ] || fail "$m: $got samples, fewer than ${want#*=}: the child stopped sampling"
done
pass "the CLONE_VM child left sampling on"
