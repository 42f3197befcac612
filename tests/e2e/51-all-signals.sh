# A program that handles every signal, in two CPU-bound threads, receives
# only the one it raises itself.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
same_in_every_mode 20 "$HOSTS/allsigs" 0.5
[ "$(grep -c '^received' plain.out)" = 1 ] || fail "the host itself: $(cat plain.out)"
pass "a program that handles every signal sees none of pct's"
