# A program that resets every disposition to SIG_DFL, and a forked child
# that does the same before it execs, both end normally under pct.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
same_in_every_mode 20 "$HOSTS/resetdfl" 0.4
grep -q '^child exited 3$' plain.out || fail "the host itself: $(cat plain.out)"
pass "SIG_DFL everywhere: no stack fault"
