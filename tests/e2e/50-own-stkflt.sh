# A program that installs its own handler for SIGSTKFLT (pct's signal) in
# main, after pct started, receives only the signal it sends itself, reads
# its own disposition back, and may ignore the signal; pct keeps sampling.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
same_in_every_mode 20 "$HOSTS/stkflt" 0.5
grep -q '^SIGSTKFLT received 1, not mine 0$' plain.out || fail "the host itself: $(cat plain.out)"
pass "a SIGSTKFLT handler gets only its own signal"
